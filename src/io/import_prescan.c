// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Checks run on a file before assimp reads it, so that files known to crash or mislead assimp
// 5.2 give a clear error or are corrected first.
#define _XOPEN_SOURCE 700
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
			char* grown = (char*)lbRealloc(data, cap);
			if (!grown)
			{
				lbFree(data);
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
		lbFree(data);
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
	char chunk[2100];
	snprintf(chunk, sizeof chunk, "%s/chunk.bin", scan->tempDir);
	remove(chunk);
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

static char* lbBase64(const unsigned char* bytes, size_t count)
{
	static const char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char* out = (char*)lbAlloc(4 * ((count + 2) / 3) + 1);
	if (!out)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < count; i += 3)
	{
		uint32_t v = (uint32_t)bytes[i] << 16;
		if (i + 1 < count)
			v |= (uint32_t)bytes[i + 1] << 8;
		if (i + 2 < count)
			v |= bytes[i + 2];
		out[o++] = table[(v >> 18) & 63];
		out[o++] = table[(v >> 12) & 63];
		out[o++] = i + 1 < count ? table[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < count ? table[v & 63] : '=';
	}
	out[o] = 0;
	return out;
}

static cJSON* lbArrayMember(cJSON* root, const char* key)
{
	cJSON* a = cJSON_GetObjectItemCaseSensitive(root, key);
	if (!cJSON_IsArray(a))
	{
		cJSON_DeleteItemFromObjectCaseSensitive(root, key);
		a = cJSON_AddArrayToObject(root, key);
	}
	return a;
}

// External files the glTF names are reached from the temporary copy through a relative path:
// up to the file-system root from the temporary directory, then down the original's directory.
static bool lbRebaseUris(cJSON* root, const char* key, const char* prefix)
{
	cJSON* item;
	cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(root, key))
	{
		cJSON* uri = cJSON_GetObjectItemCaseSensitive(item, "uri");
		if (!cJSON_IsString(uri) || strncmp(uri->valuestring, "data:", 5) == 0 || uri->valuestring[0] == '/')
			continue;
		size_t n = strlen(prefix) + strlen(uri->valuestring) + 1;
		char* joined = (char*)lbAlloc(n);
		if (!joined)
			return false;
		snprintf(joined, n, "%s%s", prefix, uri->valuestring);
		cJSON_SetValuestring(uri, joined);
		lbFree(joined);
	}
	return true;
}

// The glTF spec reads a missing inverseBindMatrices as identity matrices; assimp 5.2 crashes on
// it instead. Writes a copy of the file in which every such skin gets an explicit accessor of
// identity matrices (embedded as a data URI), and points the prescan at it.
static lbResult lbFixMissingInverseBind(const char* path, cJSON* root, const char* glb, size_t glbSize, size_t jsonSize,
										lbPrescan* out)
{
	if (!lbMakeTempDir(out))
		return lbReport(lb_errorIo, "lbImportRig: cannot create a temporary directory to correct '%s'", path);
	char original[4096], temp[2048];
	char dirBuf[4096];
	snprintf(dirBuf, sizeof dirBuf, "%s", path);
	char* slash = strrchr(dirBuf, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dirBuf, sizeof dirBuf, ".");
	if (!realpath(dirBuf, original) || !realpath(out->tempDir, temp))
		return lbReport(lb_errorIo, "lbImportRig: cannot resolve the directories of '%s'", path);
	char prefix[4096] = "";
	size_t used = 0;
	for (const char* c = temp; *c; ++c)
	{
		if (*c == '/' && used + 4 < sizeof prefix)
			used += (size_t)snprintf(prefix + used, sizeof prefix - used, "../");
	}
	snprintf(prefix + used, sizeof prefix - used, "%s/", original[1] ? original + 1 : "");
	if (!lbRebaseUris(root, "buffers", prefix) || !lbRebaseUris(root, "images", prefix))
		return lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
	cJSON* buffers = lbArrayMember(root, "buffers");
	cJSON* views = lbArrayMember(root, "bufferViews");
	cJSON* accessors = lbArrayMember(root, "accessors");
	if (!buffers || !views || !accessors)
		return lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
	if (glb)
	{
		// The GLB's binary chunk is buffer 0 (no uri): write it next to the copy.
		size_t at = 20 + ((jsonSize + 3) & ~(size_t)3);
		cJSON* b0 = cJSON_GetArrayItem(buffers, 0);
		if (b0 && !cJSON_GetObjectItemCaseSensitive(b0, "uri") && at + 8 <= glbSize)
		{
			uint32_t len = lbReadU32((const unsigned char*)glb + at);
			if (at + 8 + len > glbSize)
				return lbReport(lb_errorFileFormat, "lbImportRig: '%s' has a truncated binary chunk", path);
			char binPath[2100];
			snprintf(binPath, sizeof binPath, "%s/chunk.bin", out->tempDir);
			FILE* f = fopen(binPath, "wb");
			bool ok = f && fwrite(glb + at + 8, 1, len, f) == len;
			if (f)
				ok = (fclose(f) == 0) && ok;
			if (!ok)
				return lbReport(lb_errorIo, "lbImportRig: cannot write the binary chunk of '%s'", path);
			cJSON_AddStringToObject(b0, "uri", "chunk.bin");
		}
	}
	cJSON* skin;
	int si = 0;
	cJSON_ArrayForEach(skin, cJSON_GetObjectItemCaseSensitive(root, "skins"))
	{
		if (cJSON_GetObjectItemCaseSensitive(skin, "inverseBindMatrices"))
		{
			++si;
			continue;
		}
		int count = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(skin, "joints"));
		size_t bytes = (size_t)(count > 0 ? count : 1) * 16 * sizeof(float);
		float* m = (float*)lbAllocZeroed(bytes);
		if (!m)
			return lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
		for (int j = 0; j < (count > 0 ? count : 1); ++j)
			m[16 * j + 0] = m[16 * j + 5] = m[16 * j + 10] = m[16 * j + 15] = 1.0f;
		char* b64 = lbBase64((const unsigned char*)m, bytes);
		lbFree(m);
		size_t uriLen = b64 ? strlen(b64) + 64 : 0;
		char* uri = b64 ? (char*)lbAlloc(uriLen) : NULL;
		if (!uri)
		{
			lbFree(b64);
			return lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
		}
		snprintf(uri, uriLen, "data:application/octet-stream;base64,%s", b64);
		lbFree(b64);
		cJSON* buf = cJSON_CreateObject();
		cJSON_AddNumberToObject(buf, "byteLength", (double)bytes);
		cJSON_AddStringToObject(buf, "uri", uri);
		lbFree(uri);
		cJSON_AddItemToArray(buffers, buf);
		cJSON* view = cJSON_CreateObject();
		cJSON_AddNumberToObject(view, "buffer", cJSON_GetArraySize(buffers) - 1);
		cJSON_AddNumberToObject(view, "byteLength", (double)bytes);
		cJSON_AddItemToArray(views, view);
		cJSON* acc = cJSON_CreateObject();
		cJSON_AddNumberToObject(acc, "bufferView", cJSON_GetArraySize(views) - 1);
		cJSON_AddNumberToObject(acc, "componentType", 5126);
		cJSON_AddNumberToObject(acc, "count", count > 0 ? count : 1);
		cJSON_AddStringToObject(acc, "type", "MAT4");
		cJSON_AddItemToArray(accessors, acc);
		cJSON_AddNumberToObject(skin, "inverseBindMatrices", cJSON_GetArraySize(accessors) - 1);
		char msg[200];
		snprintf(msg, sizeof msg, "glTF skin %d has no inverseBindMatrices: identity matrices used, as the glTF spec says", si);
		lbWarn(lb_errorFileFormat, "lbImportRig: '%s': %s", path, msg);
		lbPrescanWarn(out, msg);
		++si;
	}
	char* text = cJSON_PrintUnformatted(root);
	if (!text)
		return lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
	snprintf(out->importPath, sizeof out->importPath, "%s/corrected.gltf", out->tempDir);
	FILE* f = fopen(out->importPath, "wb");
	bool ok = f && fwrite(text, 1, strlen(text), f) == strlen(text);
	if (f)
		ok = (fclose(f) == 0) && ok;
	cJSON_free(text);
	if (!ok)
		return lbReport(lb_errorIo, "lbImportRig: cannot write a corrected copy of '%s'", path);
	return lb_ok;
}

lbResult lbPrescanGltf(const char* path, bool binary, lbPrescan* out)
{
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
			lbFree(data);
			return lbReport(lb_errorFileFormat, "lbImportRig: '%s' is not a GLB file (bad header)", path);
		}
		uint32_t version = lbReadU32(u + 4), total = lbReadU32(u + 8), chunk = lbReadU32(u + 12), type = lbReadU32(u + 16);
		if (version != 2 || total > size || type != 0x4E4F534Au || (size_t)chunk + 20 > size)
		{
			lbFree(data);
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
		lbFree(data);
		return lbReport(lb_errorFileFormat, "lbImportRig: '%s' is not valid glTF JSON (truncated or malformed)", path);
	}
	lbResult result = lb_ok;
	int nodeCount = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "nodes"));
	int accessorCount = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "accessors"));
	int meshCount = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "meshes"));
	int skinCount = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(root, "skins"));
	const cJSON* skins = cJSON_GetObjectItemCaseSensitive(root, "skins");
	int si = 0, missingIbm = 0;
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
			// assimp 5.2 dereferences the missing accessor and crashes; the file is rewritten below.
			++missingIbm;
		}
		else if (!lbIndexIn(ibm, accessorCount))
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
	if (missingIbm > 0)
		result = lbFixMissingInverseBind(path, root, binary ? data : NULL, size, jsonSize, out);
done:
	cJSON_Delete(root);
	lbFree(data);
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
		// Every white-space character but the line end separates values (a vertical tab or a form
		// feed too: strtod skips them, so they must never be left as the junk skip's stop).
		while (*p && *p != '\n' && isspace((unsigned char)*p))
			++p;
		if (!*p || *p == '\n')
			break;
		char* end;
		strtod(p, &end);
		if (end == p)
		{
			*outJunk = true;
			do
				++p;
			while (*p && !isspace((unsigned char)*p));
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
		lbFree(text);
		return lbReport(lb_errorFileFormat, "lbImportRig: '%s' is not a BVH file (needs HIERARCHY and MOTION sections)", path);
	}
	// Each joint has at most 6 channels and a skeleton at most LB_MAX_BONES joints: anything
	// larger is refused before it is summed (a declared count near INT_MAX once overflowed).
	long channelSum = 0;
	for (const char* c = strstr(text, "CHANNELS"); c && c < motion; c = strstr(c + 8, "CHANNELS"))
	{
		long k = strtol(c + 8, NULL, 10);
		if (k < 0 || k > 6 || channelSum > 6L * LB_MAX_BONES)
		{
			lbFree(text);
			return lbReport(lb_errorFileFormat, "lbImportRig: '%s' declares %ld channels for one joint (0..6 allowed) or more than %d in all",
							path, k, 6 * LB_MAX_BONES);
		}
		channelSum += k;
	}
	int channels = (int)channelSum;
	const char* framesTag = strstr(motion, "Frames:");
	const char* timeTag = strstr(motion, "Frame Time:");
	if (channels <= 0 || !framesTag || !timeTag || timeTag < framesTag)
	{
		lbFree(text);
		return lbReport(lb_errorFileFormat, "lbImportRig: '%s' has no channels or no Frames / Frame Time header", path);
	}
	int declared = atoi(framesTag + 7);
	double frameTime = strtod(timeTag + 11, NULL);
	if (!(frameTime > 0.0) || frameTime > 10.0)
	{
		lbFree(text);
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
				lbFree(text);
				return result;
			}
			truncated = true;
		}
		line = next;
	}
	if (complete == 0)
	{
		lbFree(text);
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
			lbFree(text);
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
	lbFree(text);
	return result;
}
