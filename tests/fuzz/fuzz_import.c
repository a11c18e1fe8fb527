// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Fuzz target: the rig importer in isolated mode (a crash inside assimp must come back as an
// error). The first byte picks the format (its value modulo 6: bvh, gltf, dae, x, glb, fbx; "f" is
// bvh, "a" gltf, "b" dae, "c" x), the rest is the file.
#define _POSIX_C_SOURCE 200809L
#include "limber/import.h"
#include "limber/limber.h"

#include "fuzz_reader.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	static const char* const ext[] = { "bvh", "gltf", "dae", "x", "glb", "fbx" };
	if (size < 1 || size > (1u << 20))
		return 0;
	lbSetLogFcn(lbQuiet, NULL);
	const char* base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[600];
	snprintf(path, sizeof path, "%s/limber-fuzz-%ld.%s", base, (long)getpid(), ext[data[0] % 6]);
	FILE* f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data + 1, 1, size - 1, f);
	fclose(f);
	lbImportDef def = lbDefaultImportDef();
	def.isolate = true;
	def.isolateSeconds = 10.0f;
	def.isolateMemory = (size_t)1 << 30;
#if defined(__SANITIZE_ADDRESS__)
	def.isolateMemory = 0; // ASan reserves terabytes of address space: no address-space limit
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	def.isolateMemory = 0;
#endif
#endif
	def.requireHumanoid = false;
	lbImportedRig* rig = NULL;
	if (lbImportRig(path, &def, &rig) == lb_ok)
	{
		// Everything handed back is finite and within the skeleton.
		for (int m = 0; m < rig->meshCount; ++m)
			for (int v = 0; v < rig->meshes[m].vertexCount; ++v)
				if (!lbIsValidVec3(rig->meshes[m].positions[v]))
					abort();
	}
	lbDestroyImportedRig(rig);
	remove(path);
	return 0;
}
