// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Fuzz target: the importer's own pre-scans (BVH, glTF, GLB, Collada) in process, where the
// fuzzer sees their coverage (the isolated import target runs them in a child it cannot see).
// The first byte picks the format (its value modulo 4: bvh, gltf, dae, glb), the rest is the file.
#define _POSIX_C_SOURCE 200809L
#include "import_internal.h"

#include "fuzz_reader.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	static const char* const ext[] = { "bvh", "gltf", "dae", "glb" };
	if (size < 1 || size > (1u << 20))
		return 0;
	lbSetLogFcn(lbQuiet, NULL);
	const char* base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	const unsigned kind = data[0] % 4u;
	char path[600];
	snprintf(path, sizeof path, "%s/limber-fuzz-prescan-%ld.%s", base, (long)getpid(), ext[kind]);
	FILE* f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data + 1, 1, size - 1, f);
	fclose(f);
	lbPrescan scan;
	memset(&scan, 0, sizeof scan);
	snprintf(scan.importPath, sizeof scan.importPath, "%s", path);
	lbResult r = kind == 0 ? lbPrescanBvh(path, &scan)
			   : kind == 2 ? lbPrescanCollada(path, &scan)
						   : lbPrescanGltf(path, kind == 3, &scan);
	// A corrected copy, when one was written, is a file of its own that exists.
	if (r == lb_ok && strcmp(scan.importPath, path) != 0 && access(scan.importPath, R_OK) != 0)
		abort();
	lbPrescanCleanup(&scan);
	remove(path);
	return 0;
}
