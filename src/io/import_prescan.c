// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Checks run on a file before assimp reads it, so that files known to crash or mislead assimp
// 5.2 give a clear error or are corrected first.
#define _POSIX_C_SOURCE 200809L
#include "import_internal.h"

#include <cjson/cJSON.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lbPathExtension(const char* path, char* out, size_t size)
{
	out[0] = 0;
	const char* dot = strrchr(path, '.');
	const char* slash = strrchr(path, '/');
	if (!dot || (slash && dot < slash))
		return;
	size_t k = 0;
	for (const char* c = dot + 1; *c && k + 1 < size; ++c)
		out[k++] = (char)tolower((unsigned char)*c);
	out[k] = 0;
}

char* lbReadWholeFile(const char* path, size_t* outSize)
{
	FILE* f = fopen(path, "rb");
	if (!f)
		return NULL;
	char* data = NULL;
	size_t size = 0, cap = 0;
	for (;;)
	{
		if (size + 65536 + 1 > cap)
		{
			cap = cap ? cap * 2 : 131072;
			char* grown = (char*)realloc(data, cap);
			if (!grown)
			{
				free(data);
				fclose(f);
				return NULL;
			}
			data = grown;
		}
		size_t got = fread(data + size, 1, 65536, f);
		size += got;
		if (got < 65536)
			break;
	}
	bool failed = ferror(f) != 0;
	fclose(f);
	if (failed || !data)
	{
		free(data);
		return NULL;
	}
	data[size] = 0;
	if (outSize)
		*outSize = size;
	return data;
}

static bool lbMakeTempDir(lbPrescan* out)
{
	const char* base = getenv("TMPDIR");
	if (!base || !base[0])
		base = "/tmp";
	snprintf(out->tempDir, sizeof out->tempDir, "%s/limber-import-XXXXXX", base);
	if (!mkdtemp(out->tempDir))
	{
		out->tempDir[0] = 0;
		return false;
	}
	return true;
}

void lbPrescanCleanup(lbPrescan* scan)
{
	if (!scan || !scan->tempDir[0])
		return;
	if (strncmp(scan->importPath, scan->tempDir, strlen(scan->tempDir)) == 0)
		remove(scan->importPath);
	rmdir(scan->tempDir);
	scan->tempDir[0] = 0;
}

static void lbPrescanWarn(lbPrescan* out, const char* text)
{
	out->warningCount++;
	size_t used = strlen(out->warnings);
	snprintf(out->warnings + used, sizeof out->warnings - used, "%s%s", used ? "; " : "", text);
}

// ---------------------------------------------------------------------------------------------
// glTF

static bool lbIndexIn(const cJSON* item, int count)
{
	return cJSON_IsNumber(item) && item->valuedouble >= 0.0 && item->valuedouble < (double)count &&
		   item->valuedouble == (double)(int)item->valuedouble;
}

static uint32_t lbReadU32(const unsigned char* p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

lbResult lbPrescanGltf(const char* path, bool binary, lbPrescan* out)
{
	(void)out; // glTF problems are refused, never corrected
	size_t size = 0;
	char* data = lbReadWholeFile(path, &size);
	if (!data)
		return lbReport(lb_errorFileNotFound, "lbImportRig: cannot read '%s'", path);
	const char* json = data;
	size_t jsonSize = size;
	if (binary)
	{
		const unsigned char* u = (const unsigned char*)data;
		if (size < 20 || memcmp(data, "glTF", 4) != 0)
		{
			free(data);
			return lbReport(lb_errorFileFormat, "lbImportRig: '%s' is not a GLB file (bad header)", path);
		}
		uint32_t version = lbReadU32(u + 4), total = lbReadU32(u + 8), chunk = lbReadU32(u + 12), type = lbReadU32(u + 16);
		if (version != 2 || total > size || type != 0x4E4F534Au || (size_t)chunk + 20 > size)
		{
			free(data);
			return lbReport(lb_errorFileFormat,
							"lbImportRig: '%s' is a truncated or malformed GLB (version %u, %u bytes declared, %zu present)",
							path, version, total, size);
		}
		json = data + 20;
		jsonSize = chunk;
	}
	cJSON* root = cJSON_ParseWithLength(json, jsonSize);
	if (!root)
	{
		free(data);
		return lbReport(lb_errorFileFormat, "lbImportRig: '%s' is not valid glTF JSON (truncated or malformed)", path);
	}
	lbResult result = lb_ok;
	int nodeCount = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "nodes"));
	int accessorCount = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "accessors"));
	int meshCount = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "meshes"));
	int skinCount = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "skins"));
	const cJSON* skins = cJSON_GetObjectItemCaseSensitive(root, "skins");
	int si = 0;
	const cJSON* skin;
	cJSON_ArrayForEach(skin, skins)
	{
		const cJSON* joints = cJSON_GetObjectItemCaseSensitive(skin, "joints");
		const cJSON* j;
		cJSON_ArrayForEach(j, joints)
		{
			if (!lbIndexIn(j, nodeCount))
			{
				result = lbReport(lb_errorFileFormat, "lbImportRig: '%s' skin %d names joint node %g outside [0, %d)", path, si,
								  cJSON_IsNumber(j) ? j->valuedouble : -1.0, nodeCount);
				goto done;
			}
		}
		const cJSON* ibm = cJSON_GetObjectItemCaseSensitive(skin, "inverseBindMatrices");
		if (!ibm)
		{
			// assimp 5.2 dereferences the missing accessor and crashes; refuse before it runs.
			result = lbReport(lb_errorFileFormat,
							  "lbImportRig: '%s' skin %d has no inverseBindMatrices (allowed by glTF, but assimp 5.2 "
							  "crashes on it); add them to the file (identity when the rest pose is the bind pose)",
							  path, si);
			goto done;
		}
		if (!lbIndexIn(ibm, accessorCount))
		{
			result = lbReport(lb_errorFileFormat, "lbImportRig: '%s' skin %d inverseBindMatrices accessor outside [0, %d)",
							  path, si, accessorCount);
			goto done;
		}
		++si;
	}
	const cJSON* node;
	int ni = 0;
	cJSON_ArrayForEach(node, cJSON_GetObjectItemCaseSensitive(root, "nodes"))
	{
		const cJSON* mesh = cJSON_GetObjectItemCaseSensitive(node, "mesh");
		const cJSON* sk = cJSON_GetObjectItemCaseSensitive(node, "skin");
		const cJSON* children = cJSON_GetObjectItemCaseSensitive(node, "children");
		if ((mesh && !lbIndexIn(mesh, meshCount)) || (sk && !lbIndexIn(sk, skinCount)))
		{
			result = lbReport(lb_errorFileFormat, "lbImportRig: '%s' node %d names a mesh or skin that does not exist", path, ni);
			goto done;
		}
		const cJSON* c;
		cJSON_ArrayForEach(c, children)
		{
			if (!lbIndexIn(c, nodeCount))
			{
				result = lbReport(lb_errorFileFormat, "lbImportRig: '%s' node %d has a child index outside [0, %d)", path, ni,
								  nodeCount);
				goto done;
			}
		}
		++ni;
	}
	const cJSON* mesh;
	int mi = 0;
	cJSON_ArrayForEach(mesh, cJSON_GetObjectItemCaseSensitive(root, "meshes"))
	{
		const cJSON* prim;
		cJSON_ArrayForEach(prim, cJSON_GetObjectItemCaseSensitive(mesh, "primitives"))
		{
			const cJSON* indices = cJSON_GetObjectItemCaseSensitive(prim, "indices");
			bool bad = indices && !lbIndexIn(indices, accessorCount);
			const cJSON* attr;
			cJSON_ArrayForEach(attr, cJSON_GetObjectItemCaseSensitive(prim, "attributes"))
			{
				if (!lbIndexIn(attr, accessorCount))
					bad = true;
			}
			if (bad)
			{
				result = lbReport(lb_errorFileFormat, "lbImportRig: '%s' mesh %d names an accessor outside [0, %d)", path, mi,
								  accessorCount);
				goto done;
			}
		}
		++mi;
	}
done:
	cJSON_Delete(root);
	free(data);
	return result;
}

// ---------------------------------------------------------------------------------------------
// BVH

static const char* lbSkipSpace(const char* p)
{
	while (*p && isspace((unsigned char)*p))
		++p;
	return p;
}

// Counts the numbers on one line; *outEnd is the start of the next line.
static int lbCountNumbers(const char* p, const char** outEnd, bool* outJunk)
{
	int n = 0;
	*outJunk = false;
	while (*p && *p != '\n')
	{
		while (*p == ' ' || *p == '\t' || *p == '\r')
			++p;
		if (!*p || *p == '\n')
			break;
		char* end;
		strtod(p, &end);
		if (end == p)
		{
			*outJunk = true;
			while (*p && *p != '\n' && !isspace((unsigned char)*p))
				++p;
			continue;
		}
		++n;
		p = end;
	}
	*outEnd = *p ? p + 1 : p;
	return n;
}

lbResult lbPrescanBvh(const char* path, lbPrescan* out)
{
	size_t size = 0;
	char* text = lbReadWholeFile(path, &size);
	if (!text)
		return lbReport(lb_errorFileNotFound, "lbImportRig: cannot read '%s'", path);
	lbResult result = lb_ok;
	const char* p = lbSkipSpace(text);
	const char* motion = strstr(text, "MOTION");
	if (strncmp(p, "HIERARCHY", 9) != 0 || !motion)
	{
		free(text);
		return lbReport(lb_errorFileFormat, "lbImportRig: '%s' is not a BVH file (needs HIERARCHY and MOTION sections)", path);
	}
	int channels = 0;
	for (const char* c = strstr(text, "CHANNELS"); c && c < motion; c = strstr(c + 8, "CHANNELS"))
		channels += atoi(c + 8);
	const char* framesTag = strstr(motion, "Frames:");
	const char* timeTag = strstr(motion, "Frame Time:");
	if (channels <= 0 || !framesTag || !timeTag || timeTag < framesTag)
	{
		free(text);
		return lbReport(lb_errorFileFormat, "lbImportRig: '%s' has no channels or no Frames / Frame Time header", path);
	}
	int declared = atoi(framesTag + 7);
	double frameTime = strtod(timeTag + 11, NULL);
	if (!(frameTime > 0.0) || frameTime > 10.0)
	{
		free(text);
		return lbReport(lb_errorFileFormat, "lbImportRig: '%s' has a bad Frame Time %g", path, frameTime);
	}
	const char* line = strchr(timeTag, '\n');
	line = line ? line + 1 : text + size;
	const char* dataStart = line;
	const char* goodEnd = line;
	int complete = 0;
	bool truncated = false;
	while (*line)
	{
		const char* next;
		bool junk;
		int n = lbCountNumbers(line, &next, &junk);
		if (n == 0 && !junk)
		{
			line = next;
			continue;
		}
		if (n == channels && !junk)
		{
			++complete;
			goodEnd = next;
		}
		else
		{
			// Only the last line may be cut short (a truncated file); anything else is malformed.
			const char* rest = lbSkipSpace(next);
			if (*rest)
			{
				result = lbReport(lb_errorFileFormat, "lbImportRig: '%s' data line %d has %d values, expected %d", path,
								  complete + 1, n, channels);
				free(text);
				return result;
			}
			truncated = true;
		}
		line = next;
	}
	if (complete == 0)
	{
		free(text);
		return lbReport(lb_errorFileFormat, "lbImportRig: '%s' has no complete frame of %d values (truncated?)", path,
						channels);
	}
	if (complete != declared || truncated)
	{
		char msg[200];
		snprintf(msg, sizeof msg, "BVH header says %d frames, file has %d complete data lines%s; loading %d", declared,
				 complete, truncated ? " and a cut-off last line" : "", complete);
		lbWarn(lb_errorFileFormat, "lbImportRig: '%s': %s", path, msg);
		lbPrescanWarn(out, msg);
		if (!lbMakeTempDir(out))
		{
			free(text);
			return lbReport(lb_errorIo, "lbImportRig: cannot create a temporary directory to correct '%s'", path);
		}
		snprintf(out->importPath, sizeof out->importPath, "%s/corrected.bvh", out->tempDir);
		FILE* f = fopen(out->importPath, "wb");
		bool ok = f != NULL;
		if (ok)
		{
			ok = fwrite(text, 1, (size_t)(framesTag - text), f) == (size_t)(framesTag - text);
			ok = ok && fprintf(f, "Frames: %d\nFrame Time: %.9g\n", complete, frameTime) > 0;
			ok = ok && fwrite(dataStart, 1, (size_t)(goodEnd - dataStart), f) == (size_t)(goodEnd - dataStart);
			ok = (fclose(f) == 0) && ok;
		}
		if (!ok)
			result = lbReport(lb_errorIo, "lbImportRig: cannot write a corrected copy of '%s'", path);
	}
	free(text);
	return result;
}
