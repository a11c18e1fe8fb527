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

// Byte sizes the glTF spec gives each accessor component type and element type (0 when unknown).
// The type is taken as the file's number: a value out of int's range is unknown, not converted.
static double lbGltfComponentSize(double type)
{
	if (!(type >= 5120.0 && type <= 5126.0) || type != (double)(int)type)
		return 0.0;
	switch ((int)type)
	{
		case 5120:
		case 5121:
			return 1.0;
		case 5122:
		case 5123:
			return 2.0;
		case 5125:
		case 5126:
			return 4.0;
		default:
			return 0.0;
	}
}

static double lbGltfComponentCount(const char* type)
{
	static const struct
	{
		const char* name;
		double count;
	} types[] = { { "SCALAR", 1 }, { "VEC2", 2 }, { "VEC3", 3 }, { "VEC4", 4 }, { "MAT2", 4 }, { "MAT3", 9 }, { "MAT4", 16 } };
	for (size_t k = 0; type && k < sizeof types / sizeof types[0]; ++k)
	{
		if (strcmp(type, types[k].name) == 0)
			return types[k].count;
	}
	return 0.0;
}

static double lbJsonNumber(const cJSON* object, const char* key, double fallback)
{
	const cJSON* v = cJSON_GetObjectItemCaseSensitive(object, key);
	return cJSON_IsNumber(v) ? v->valuedouble : fallback;
}

static bool lbWholeInRange(double v, double lo, double hi)
{
	return v >= lo && v <= hi && v == (double)(long long)v;
}

// Bytes a buffer really holds: the GLB binary chunk, a data URI's decoded length, or the size of
// the external file; -1 when it cannot be told (the parser then reports it).
static double lbGltfBufferBytes(const char* path, const cJSON* buffer, int index, const char* glb, size_t glbSize, size_t jsonSize)
{
	const cJSON* uri = cJSON_GetObjectItemCaseSensitive(buffer, "uri");
	if (!uri)
	{
		size_t at = 20 + ((jsonSize + 3) & ~(size_t)3);
		if (!glb || index != 0 || at + 8 > glbSize)
			return 0.0;
		double len = (double)lbReadU32((const unsigned char*)glb + at), avail = (double)(glbSize - at - 8);
		return len < avail ? len : avail;
	}
	if (!cJSON_IsString(uri))
		return -1.0;
	const char* u = uri->valuestring;
	if (strncmp(u, "data:", 5) == 0)
	{
		const char* comma = strchr(u, ',');
		if (!comma || !strstr(u, ";base64"))
			return -1.0;
		size_t n = strlen(comma + 1);
		size_t pad = (n > 0 && comma[n] == '=') + (n > 1 && comma[n - 1] == '=');
		return (double)(n / 4 * 3) - (double)pad;
	}
	char full[4096];
	const char* slash = strrchr(path, '/');
	if (slash)
		snprintf(full, sizeof full, "%.*s/%s", (int)(slash - path), path, u);
	else
		snprintf(full, sizeof full, "%s", u);
	FILE* f = fopen(full, "rb");
	if (!f)
		return -1.0;
	double bytes = -1.0;
	if (fseek(f, 0, SEEK_END) == 0)
	{
		long end = ftell(f);
		bytes = end >= 0 ? (double)end : -1.0;
	}
	fclose(f);
	return bytes;
}

// Every accessor, its sparse part and its view lie inside the bytes the file really holds.
// assimp 5.2 reads past its buffers on such files (sparse accessors past their views, counts of
// billions) instead of refusing them.
static lbResult lbCheckGltfAccessors(const char* path, const cJSON* root, const char* glb, size_t glbSize, size_t jsonSize)
{
	const cJSON* buffers = cJSON_GetObjectItemCaseSensitive(root, "buffers");
	const cJSON* views = cJSON_GetObjectItemCaseSensitive(root, "bufferViews");
	const int bufferCount = cJSON_GetArraySize(buffers), viewCount = cJSON_GetArraySize(views);
	const cJSON* b;
	int bi = 0;
	cJSON_ArrayForEach(b, buffers)
	{
		double declared = lbJsonNumber(b, "byteLength", -1.0);
		double present = lbGltfBufferBytes(path, b, bi, glb, glbSize, jsonSize);
		if (!lbWholeInRange(declared, 1.0, 4294967295.0) || (present >= 0.0 && declared > present))
			return lbReport(lb_errorFileFormat, "lbImportRig: '%s' buffer %d declares %.0f bytes but holds %.0f", path, bi,
							declared, present);
		++bi;
	}
	const cJSON* v;
	int vi = 0;
	cJSON_ArrayForEach(v, views)
	{
		const cJSON* buf = cJSON_GetObjectItemCaseSensitive(v, "buffer");
		double offset = lbJsonNumber(v, "byteOffset", 0.0), length = lbJsonNumber(v, "byteLength", -1.0);
		double stride = lbJsonNumber(v, "byteStride", 0.0);
		if (!lbIndexIn(buf, bufferCount) || !lbWholeInRange(offset, 0.0, 4294967295.0) ||
			!lbWholeInRange(length, 1.0, 4294967295.0) || !lbWholeInRange(stride, 0.0, 252.0) ||
			offset + length > lbJsonNumber(cJSON_GetArrayItem(buffers, (int)buf->valuedouble), "byteLength", 0.0))
			return lbReport(lb_errorFileFormat, "lbImportRig: '%s' bufferView %d lies outside its buffer or has a bad stride", path, vi);
		++vi;
	}
	const cJSON* a;
	int ai = 0;
	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(root, "accessors"))
	{
		const cJSON* typeItem = cJSON_GetObjectItemCaseSensitive(a, "type");
		double comp = lbGltfComponentSize(lbJsonNumber(a, "componentType", 0.0));
		double elem = comp * lbGltfComponentCount(cJSON_IsString(typeItem) ? typeItem->valuestring : NULL);
		double count = lbJsonNumber(a, "count", -1.0);
		if (elem <= 0.0 || !lbWholeInRange(count, 1.0, 268435456.0))
			return lbReport(lb_errorFileFormat, "lbImportRig: '%s' accessor %d has a bad type or a count of %.0f", path, ai, count);
		const cJSON* view = cJSON_GetObjectItemCaseSensitive(a, "bufferView");
		if (view)
		{
			if (!lbIndexIn(view, viewCount))
				return lbReport(lb_errorFileFormat, "lbImportRig: '%s' accessor %d names bufferView %g outside [0, %d)", path, ai,
								cJSON_IsNumber(view) ? view->valuedouble : -1.0, viewCount);
			const cJSON* vw = cJSON_GetArrayItem(views, (int)view->valuedouble);
			double stride = lbJsonNumber(vw, "byteStride", 0.0);
			double offset = lbJsonNumber(a, "byteOffset", 0.0);
			double need = offset + (stride > 0.0 ? stride : elem) * (count - 1.0) + elem;
			if (!lbWholeInRange(offset, 0.0, 4294967295.0) || need > lbJsonNumber(vw, "byteLength", 0.0))
				return lbReport(lb_errorFileFormat, "lbImportRig: '%s' accessor %d needs %.0f bytes of a %.0f-byte bufferView",
								path, ai, need, lbJsonNumber(vw, "byteLength", 0.0));
		}
		else if (count * elem > 268435456.0)
			return lbReport(lb_errorFileFormat, "lbImportRig: '%s' accessor %d asks for %.0f bytes of zeros", path, ai, count * elem);
		const cJSON* sparse = cJSON_GetObjectItemCaseSensitive(a, "sparse");
		if (sparse)
		{
			double n = lbJsonNumber(sparse, "count", -1.0);
			const cJSON* parts[2] = { cJSON_GetObjectItemCaseSensitive(sparse, "indices"),
									  cJSON_GetObjectItemCaseSensitive(sparse, "values") };
			double sizes[2] = { lbGltfComponentSize(lbJsonNumber(parts[0], "componentType", 0.0)), elem };
			bool ok = lbWholeInRange(n, 1.0, count) && sizes[0] > 0.0;
			for (int k = 0; ok && k < 2; ++k)
			{
				const cJSON* pv = cJSON_GetObjectItemCaseSensitive(parts[k], "bufferView");
				double off = lbJsonNumber(parts[k], "byteOffset", 0.0);
				ok = parts[k] && lbIndexIn(pv, viewCount) && lbWholeInRange(off, 0.0, 4294967295.0) &&
					 off + n * sizes[k] <= lbJsonNumber(cJSON_GetArrayItem(views, (int)pv->valuedouble), "byteLength", 0.0);
			}
			if (!ok)
				return lbReport(lb_errorFileFormat,
								"lbImportRig: '%s' accessor %d has a sparse part of %.0f entries outside its bufferViews", path, ai, n);
		}
		++ai;
	}
	return lb_ok;
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
		const int jointCount = cJSON_GetArraySize(joints);
		if (jointCount > LB_MAX_BONES)
		{
			result = lbReport(lb_errorBoneCount, "lbImportRig: '%s' skin %d has %d joints, more than %d (LB_MAX_BONES)", path, si,
							  jointCount, LB_MAX_BONES);
			goto done;
		}
		const cJSON* ibm = cJSON_GetObjectItemCaseSensitive(skin, "inverseBindMatrices");
		if (ibm && lbIndexIn(ibm, accessorCount))
		{
			// assimp 5.2 reads one matrix per joint whatever the accessor holds.
			const cJSON* acc = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "accessors"), (int)ibm->valuedouble);
			const cJSON* type = cJSON_GetObjectItemCaseSensitive(acc, "type");
			double have = lbJsonNumber(acc, "count", 0.0);
			if (have < (double)jointCount || !cJSON_IsString(type) || strcmp(type->valuestring, "MAT4") != 0)
			{
				result = lbReport(lb_errorFileFormat,
								  "lbImportRig: '%s' skin %d has %d joints but its inverseBindMatrices accessor holds %.0f MAT4 "
								  "matrices; give one matrix per joint",
								  path, si, jointCount, have);
				goto done;
			}
		}
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
	result = lbCheckGltfAccessors(path, root, binary ? data : NULL, size, jsonSize);
	if (result != lb_ok)
		goto done;
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
	// The joint count is checked before the parser builds thousands of nodes only to have them
	// refused afterwards (a 20,000-joint file once took seconds to be turned down).
	int joints = 0;
	for (const char* c = text; c && c < motion; ++c)
	{
		c = strpbrk(c, "JR");
		if (!c || c >= motion)
			break;
		if ((strncmp(c, "JOINT", 5) == 0 || strncmp(c, "ROOT", 4) == 0) && (c == text || isspace((unsigned char)c[-1])) &&
			isspace((unsigned char)c[c[0] == 'J' ? 5 : 4]))
			++joints;
	}
	if (joints > LB_MAX_BONES)
	{
		lbFree(text);
		return lbReport(lb_errorBoneCount, "lbImportRig: '%s' declares %d joints, more than %d (LB_MAX_BONES)", path, joints,
						LB_MAX_BONES);
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

// ---------------------------------------------------------------------------------------------
// Collada

typedef struct lbDaeNode
{
	const char* id; // points into the file text; idLength bytes
	int idLength;
	int firstEdge, edgeCount;
	int state;       // 0 unseen, 1 on the search path, 2 done
	double expanded; // nodes this one stands for once every instance_node is expanded
} lbDaeNode;

typedef struct lbDaeEdge
{
	int from;
	int to;           // node index, or -1 while it is still a name
	const char* url;  // instance_node target without '#'
	int urlLength;
} lbDaeEdge;

static int lbCompareDaeEdge(const void* a, const void* b)
{
	const lbDaeEdge* x = (const lbDaeEdge*)a;
	const lbDaeEdge* y = (const lbDaeEdge*)b;
	return (x->from > y->from) - (x->from < y->from);
}

// The value of attribute `name` inside the tag [tag, end), or NULL.
static const char* lbXmlAttribute(const char* tag, const char* end, const char* name, int* outLength)
{
	size_t n = strlen(name);
	for (const char* c = tag; c + n + 2 < end; ++c)
	{
		if (strncmp(c, name, n) == 0 && isspace((unsigned char)c[-1]) && c[n] == '=' && (c[n + 1] == '"' || c[n + 1] == '\''))
		{
			const char* v = c + n + 2;
			const char* q = memchr(v, c[n + 1], (size_t)(end - v));
			if (!q)
				return NULL;
			*outLength = (int)(q - v);
			return v;
		}
	}
	return NULL;
}

typedef struct lbDaeScan
{
	lbDaeNode* nodes;
	lbDaeEdge* edges;
	int nodeCount, nodeCap, edgeCount, edgeCap;
} lbDaeScan;

static bool lbDaeGrow(void** p, int* cap, int need, size_t size)
{
	if (need <= *cap)
		return true;
	int n = *cap ? *cap * 2 : 256;
	while (n < need)
		n *= 2;
	void* grown = lbRealloc(*p, size * (size_t)n);
	if (!grown)
		return false;
	*p = grown;
	*cap = n;
	return true;
}

static bool lbDaeAddEdge(lbDaeScan* s, int from, int to, const char* url, int urlLength)
{
	if (!lbDaeGrow((void**)&s->edges, &s->edgeCap, s->edgeCount + 1, sizeof(lbDaeEdge)))
		return false;
	s->edges[s->edgeCount++] = (lbDaeEdge){ from, to, url, urlLength };
	return true;
}

typedef struct lbDaeId
{
	const char* id;
	int length, index;
} lbDaeId;

static int lbCompareDaeIdText(const char* a, int la, const char* b, int lb)
{
	int c = strncmp(a, b, (size_t)(la < lb ? la : lb));
	return c != 0 ? c : (la > lb) - (la < lb);
}

static int lbCompareDaeId(const void* a, const void* b)
{
	const lbDaeId* x = (const lbDaeId*)a;
	const lbDaeId* y = (const lbDaeId*)b;
	int c = lbCompareDaeIdText(x->id, x->length, y->id, y->length);
	return c != 0 ? c : (x->index > y->index) - (x->index < y->index);
}

static int lbDaeFindNode(const lbDaeId* sorted, int count, const char* id, int length)
{
	int lo = 0, hi = count;
	while (lo < hi)
	{
		int mid = lo + (hi - lo) / 2;
		if (lbCompareDaeIdText(sorted[mid].id, sorted[mid].length, id, length) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < count && lbCompareDaeIdText(sorted[lo].id, sorted[lo].length, id, length) == 0 ? sorted[lo].index : -1;
}

// Whether the text at `c` opens one of the integer lists a mesh's primitives hold (<p>, <v>,
// <vcount>, <h>, <int_array>): assimp 5.2 loops forever on any other character in them.
static bool lbDaeIntegerList(const char* c)
{
	static const char* const tags[] = { "<p", "<v", "<vcount", "<h", "<int_array" };
	for (size_t k = 0; k < sizeof tags / sizeof tags[0]; ++k)
	{
		const size_t n = strlen(tags[k]);
		if (strncmp(c, tags[k], n) == 0 && (c[n] == '>' || isspace((unsigned char)c[n])))
			return true;
	}
	return false;
}

// The integers of the element whose text starts at `t` (up to the next '<'): how many, and their sum.
static void lbDaeCountIntegers(const char* t, long long* outCount, long long* outSum)
{
	long long count = 0, sum = 0;
	while (*t && *t != '<')
	{
		while (isspace((unsigned char)*t))
			++t;
		if (!*t || *t == '<')
			break;
		const char* start = t;
		long long v = strtoll(t, (char**)&t, 10);
		if (t == start) // not a number (refused by the index-list check when the list is one)
			break;
		++count;
		sum += v > 0 && v < (1LL << 40) ? v : 0;
	}
	*outCount = count;
	*outSum = sum;
}

// A skin's <vertex_weights count="N">: assimp 5.2 sizes its tables from N and then walks <vcount>
// and <v> as they are, reading past them (or past the weights) when they disagree. Refused unless
// <vcount> holds N numbers and <v> one per input for each influence they add up to.
static lbResult lbCheckDaeVertexWeights(const char* path, const char* text, const char* tag, const char* tagEnd)
{
	int length = 0;
	const char* value = lbXmlAttribute(tag, tagEnd, "count", &length);
	const long long declared = value ? strtoll(value, NULL, 10) : -1;
	const char* close = strstr(tagEnd, "</vertex_weights");
	if (!close)
		return lb_ok; // an unclosed element: the XML parser reports it
	long long inputs = 0, counts = -1, influences = 0, entries = -1, unused = 0;
	for (const char* c = strchr(tagEnd, '<'); c && c < close; c = strchr(c + 1, '<'))
	{
		if (strncmp(c, "<input", 6) == 0 && isspace((unsigned char)c[6]))
			++inputs;
		else if (strncmp(c, "<vcount>", 8) == 0)
			lbDaeCountIntegers(c + 8, &counts, &influences);
		else if (strncmp(c, "<v>", 3) == 0)
			lbDaeCountIntegers(c + 3, &entries, &unused);
	}
	if (counts < 0 || entries < 0)
		return lb_ok; // no lists at all: nothing is read
	if (counts != declared || entries != influences * inputs)
	{
		int line = 1;
		for (const char* q = text; q < tag; ++q)
			line += *q == '\n';
		return lbReport(lb_errorFileFormat,
						"lbImportRig: '%s' line %d: a skin's vertex_weights declares %lld vertices, its <vcount> lists %lld with "
						"%lld influences, and its <v> holds %lld numbers where %lld x %lld inputs are needed; fix or re-export the "
						"skin",
						path, line, declared, counts, influences, entries, influences, inputs);
	}
	return lb_ok;
}

// Node nesting deeper than the importer accepts, instance_node cycles (assimp 5.2 recurses on
// both until its stack overflows), instance_node trees that expand to millions of nodes, integer
// lists holding anything but integers (it never returns), skin weights whose counts disagree (it
// reads past them) and polygons of no corners (its triangulation asserts) are refused from a light
// scan of the text, before the XML parser runs.
static lbResult lbCheckColladaNodes(const char* path, const char* text, lbDaeScan* s)
{
	int stack[LB_IMPORT_MAX_DEPTH + 2];
	int depth = 0;
	bool inPolylist = false;
	for (const char* c = strchr(text, '<'); c; c = strchr(c + 1, '<'))
	{
		if (strncmp(c, "<!--", 4) == 0)
		{
			const char* e = strstr(c + 4, "-->");
			if (!e)
				break;
			c = e + 2;
			continue;
		}
		if (strncmp(c, "<![CDATA[", 9) == 0)
		{
			const char* e = strstr(c + 9, "]]>");
			if (!e)
				break;
			c = e + 2;
			continue;
		}
		const char* end = strchr(c, '>');
		if (!end)
			break;
		const bool selfClosing = end > c && end[-1] == '/';
		if (!selfClosing && lbDaeIntegerList(c))
		{
			const char* t = end + 1;
			while (*t && *t != '<' && (isdigit((unsigned char)*t) || isspace((unsigned char)*t) || *t == '-' || *t == '+'))
				++t;
			if (*t && *t != '<')
			{
				int line = 1;
				for (const char* q = text; q < t; ++q)
					line += *q == '\n';
				return lbReport(lb_errorFileFormat,
								"lbImportRig: '%s' line %d: an index list (<%.*s>) holds '%c' (byte 0x%02x), not a number; fix or "
								"re-export the mesh",
								path, line, (int)strcspn(c + 1, " \t\r\n>"), c + 1, isprint((unsigned char)*t) ? *t : '?',
								(unsigned)(unsigned char)*t);
			}
		}
		if (strncmp(c, "<polylist", 9) == 0 && (isspace((unsigned char)c[9]) || c[9] == '>'))
			inPolylist = !selfClosing;
		else if (strncmp(c, "</polylist", 10) == 0)
			inPolylist = false;
		else if (inPolylist && strncmp(c, "<vcount>", 8) == 0)
		{
			// A polygon of no corners: assimp 5.2's triangulation then asserts (and aborts the process).
			for (const char* t = c + 8; *t && *t != '<';)
			{
				while (isspace((unsigned char)*t))
					++t;
				const char* start = t;
				const long long v = strtoll(t, (char**)&t, 10);
				if (t == start)
					break;
				if (v == 0)
				{
					int line = 1;
					for (const char* q = text; q < c; ++q)
						line += *q == '\n';
					return lbReport(lb_errorFileFormat,
									"lbImportRig: '%s' line %d: a polylist's <vcount> lists a polygon of 0 corners; fix or re-export "
									"the mesh",
									path, line);
				}
			}
		}
		if (!selfClosing && strncmp(c, "<vertex_weights", 15) == 0 && isspace((unsigned char)c[15]))
		{
			lbResult r = lbCheckDaeVertexWeights(path, text, c, end);
			if (r != lb_ok)
				return r;
		}
		if (strncmp(c, "<node", 5) == 0 && (isspace((unsigned char)c[5]) || c[5] == '>' || c[5] == '/'))
		{
			if (depth >= LB_IMPORT_MAX_DEPTH)
				return lbReport(lb_errorFileFormat,
								"lbImportRig: '%s' nests nodes more than %d deep; no skeleton needs that (flatten the node tree)", path,
								LB_IMPORT_MAX_DEPTH);
			if (!lbDaeGrow((void**)&s->nodes, &s->nodeCap, s->nodeCount + 1, sizeof(lbDaeNode)))
				return lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
			int length = 0;
			const char* id = lbXmlAttribute(c, end, "id", &length);
			int self = s->nodeCount++;
			s->nodes[self] = (lbDaeNode){ id, id ? length : 0, 0, 0, 0, 0.0 };
			if (depth > 0 && !lbDaeAddEdge(s, stack[depth - 1], self, NULL, 0))
				return lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
			if (!selfClosing)
				stack[depth++] = self;
		}
		else if (strncmp(c, "</node", 6) == 0 && (isspace((unsigned char)c[6]) || c[6] == '>'))
		{
			if (depth > 0)
				--depth;
		}
		else if (strncmp(c, "<instance_node", 14) == 0 && isspace((unsigned char)c[14]) && depth > 0)
		{
			int length = 0;
			const char* url = lbXmlAttribute(c, end, "url", &length);
			if (url && length > 1 && url[0] == '#' && !lbDaeAddEdge(s, stack[depth - 1], -1, url + 1, length - 1))
				return lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
		}
		c = end;
	}
	if (s->nodeCount == 0)
		return lb_ok;
	lbDaeId* ids = (lbDaeId*)lbAlloc(sizeof(lbDaeId) * (size_t)s->nodeCount);
	int* path_ = (int*)lbAlloc(sizeof(int) * 2 * (size_t)s->nodeCount);
	if (!ids || !path_)
	{
		lbFree(ids);
		lbFree(path_);
		return lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
	}
	int idCount = 0;
	for (int k = 0; k < s->nodeCount; ++k)
	{
		if (s->nodes[k].id)
			ids[idCount++] = (lbDaeId){ s->nodes[k].id, s->nodes[k].idLength, k };
	}
	qsort(ids, (size_t)idCount, sizeof(lbDaeId), lbCompareDaeId);
	for (int e = 0; e < s->edgeCount; ++e)
	{
		if (s->edges[e].to < 0)
			s->edges[e].to = lbDaeFindNode(ids, idCount, s->edges[e].url, s->edges[e].urlLength);
	}
	if (s->edgeCount > 0)
		qsort(s->edges, (size_t)s->edgeCount, sizeof(lbDaeEdge), lbCompareDaeEdge);
	for (int e = 0; e < s->edgeCount; ++e)
	{
		lbDaeNode* n = &s->nodes[s->edges[e].from];
		if (n->edgeCount++ == 0)
			n->firstEdge = e;
	}
	// Depth-first over nodes and their instances with an explicit stack of (node, next edge): a
	// node met again while still on the path is a cycle.
	lbResult result = lb_ok;
	for (int startNode = 0; startNode < s->nodeCount && result == lb_ok; ++startNode)
	{
		if (s->nodes[startNode].state != 0)
			continue;
		int top = 0;
		path_[0] = startNode;
		path_[1] = 0;
		s->nodes[startNode].state = 1;
		s->nodes[startNode].expanded = 1.0;
		while (top >= 0 && result == lb_ok)
		{
			lbDaeNode* n = &s->nodes[path_[2 * top]];
			int next = path_[2 * top + 1]++;
			if (next >= n->edgeCount)
			{
				n->state = 2;
				if (--top >= 0)
					s->nodes[path_[2 * top]].expanded += n->expanded;
				continue;
			}
			int to = s->edges[n->firstEdge + next].to;
			if (to < 0)
				continue;
			lbDaeNode* t = &s->nodes[to];
			if (t->state == 1)
			{
				result = lbReport(lb_errorFileFormat,
								  "lbImportRig: '%s' has an instance_node cycle through node '%.*s'; a node cannot contain itself",
								  path, t->idLength > 64 ? 64 : t->idLength, t->id ? t->id : "");
				break;
			}
			if (t->state == 2)
			{
				n->expanded += t->expanded;
				continue;
			}
			t->state = 1;
			t->expanded = 1.0;
			++top;
			path_[2 * top] = to;
			path_[2 * top + 1] = 0;
		}
	}
	for (int k = 0; k < s->nodeCount && result == lb_ok; ++k)
	{
		if (s->nodes[k].expanded > 1.0e6)
			result = lbReport(lb_errorFileFormat,
							  "lbImportRig: '%s': node '%.*s' expands to %.3g nodes through instance_node; more than a rig needs",
							  path, s->nodes[k].idLength > 64 ? 64 : s->nodes[k].idLength, s->nodes[k].id ? s->nodes[k].id : "",
							  s->nodes[k].expanded);
	}
	lbFree(ids);
	lbFree(path_);
	return result;
}

lbResult lbPrescanCollada(const char* path, lbPrescan* out)
{
	(void)out;
	size_t size = 0;
	char* text = lbReadWholeFile(path, &size);
	if (!text)
		return lbReport(lb_errorFileNotFound, "lbImportRig: cannot read '%s'", path);
	lbDaeScan s;
	memset(&s, 0, sizeof s);
	lbResult result = lbCheckColladaNodes(path, text, &s);
	lbFree(s.nodes);
	lbFree(s.edges);
	lbFree(text);
	return result;
}
