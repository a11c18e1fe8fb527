// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Private helpers shared by the importer's files.
#pragma once

#include "limber/import.h"

#include <stddef.h>

/// Result of checking a file before assimp reads it.
typedef struct lbPrescan
{
	/// Path assimp should read: the original, or a corrected copy in tempDir.
	char importPath[4096];
	/// Temporary directory to remove afterwards ("" when none was made).
	char tempDir[2048];
	/// Warnings raised (already logged), appended to the rig's report.
	int warningCount;
	char warnings[256];
} lbPrescan;

/// Lower-case extension of a path without the dot ("" when none), into out (size bytes).
void lbPathExtension(const char* path, char* out, size_t size);

/// Reads a whole file into a new zero-terminated buffer (free with free()); NULL on failure.
char* lbReadWholeFile(const char* path, size_t* outSize);

/// glTF / GLB checks: header and chunk sizes, node, mesh, skin and accessor indices. Skins
/// without inverseBindMatrices (assimp 5.2 crashes on them) get identity matrices in a corrected
/// copy written to a temporary directory.
lbResult lbPrescanGltf(const char* path, bool binary, lbPrescan* out);

/// BVH checks: hierarchy and MOTION section present, the data lines against the Frames: header
/// and the channel count; writes a corrected copy when they disagree.
lbResult lbPrescanBvh(const char* path, lbPrescan* out);

/// Collada checks: node nesting depth, instance_node cycles and expansion, before the XML parser runs.
lbResult lbPrescanCollada(const char* path, lbPrescan* out);

/// Deepest node nesting an imported file may have: no skeleton nests anywhere near this, and a
/// parser that recursed that deep has used much of its stack.
#define LB_IMPORT_MAX_DEPTH 512

/// Removes the prescan's temporary copy and directory.
void lbPrescanCleanup(lbPrescan* scan);
