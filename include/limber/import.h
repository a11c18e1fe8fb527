// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref import group.

/// @defgroup import Import and export of rigs and clips (io layer, through assimp)
/// Loads a rig (bone hierarchy, rest pose, skinned meshes, inverse bind transforms) and its clips
/// from FBX, glTF 2.0 (.gltf/.glb), BVH, Collada (.dae) and DirectX (.x) files, converted into the
/// scene's conventions: meters and the configured model up axis. Builds the skeleton and its
/// humanoid map. Bakes pose sequences into glTF 2.0 or Collada clip files.
///
/// Files are checked before assimp sees them: known assimp 5.2 crashes are avoided (a glTF skin
/// without inverseBindMatrices is given identity matrices, as the glTF spec reads it), indices are
/// range-checked, BVH frame counts are checked against the data lines. assimp's
/// own logger stays silent; every problem is reported through the limber log hook.
/// Needs the `limber_io` library.
/// @{

#include "limber/humanoid.h"
#include "limber/motion.h"
#include "limber/skeleton.h"

#include <stdint.h>

/// Longest report text kept in an imported rig, including the terminating zero.
#define LB_IMPORT_REPORT_SIZE 512

/// Options for lbImportRig. Fill with lbDefaultImportDef().
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbImportDef
{
	/// Model-space up axis of the result (unit). Default +Z.
	lbVec3 up;
	/// Up axis of the file in its own coordinates after assimp's import (zero = the format's
	/// convention: +Y, or the FBX header's axis). Default zero.
	lbVec3 sourceUp;
	/// Meters per file unit; 0 = automatic (glTF: 1; FBX: its UnitScaleFactor; others: guessed
	/// from the skeleton's height, e.g. CMU BVH units). Default 0.
	float unitScale;
	/// Load skinned meshes. Default true.
	bool loadMeshes;
	/// Load animation clips. Default true.
	bool loadClips;
	/// Drop a clip's lead-in pose: a first key frame that the take leaves in one step of over 30
	/// degrees on one of the big arm and leg bones, more than four times that bone's own largest
	/// later step (the calibration T-pose that opens CMU BVH takes). The big bones are the mapped
	/// upper arms, forearms, thighs and calves, or without a humanoid map the bones at least a
	/// tenth of the skeleton's height long, so fingers and toes that flip later in a take do not
	/// matter. The clip then starts with the take's first frame, one key interval shorter. Only
	/// uniformly keyed clips are checked. Default true.
	bool dropLeadInPose;
	/// Fail with lb_errorNotHumanoid when the humanoid map cannot be built. Default true.
	bool requireHumanoid;
	/// Route assimp's own log messages to the limber log hook as warnings (code lb_ok) while the
	/// file loads; otherwise assimp stays silent. Default false.
	bool routeImporterLog;
	/// Run the file's parser (assimp) in a child process with memory, time and stack limits, the
	/// rig passed back through a pipe: a crash, abort, hang or blow-up inside the parser then
	/// becomes lb_errorFileFormat naming what happened, instead of taking the caller down. Costs a
	/// fork and a copy of the rig (a few ms). POSIX only. Default false (the CLI and the viewer
	/// turn it on).
	bool isolate;
	///@{
	/// Isolated mode limits: address space (bytes), CPU time (s) and stack (bytes) of the child.
	/// Defaults 2 GiB, 60 s, 64 MiB.
	size_t isolateMemory;
	float isolateSeconds;
	size_t isolateStack;
	///@}
	/// Humanoid mapping options: explicit role names for unusual rigs, ankle height. The up hint
	/// is replaced by `up`. Default lbDefaultHumanoidDef().
	lbHumanoidDef humanoid;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbImportDef;

/// A triangle mesh skinned to the imported skeleton, in model space (m).
/// Thread-safety: read-only once made; any number of threads may read it at once.
typedef struct lbSkinnedMesh
{
	/// Mesh name (never NULL).
	const char* name;
	/// Vertex count: the length of positions and normals, a quarter of boneIndices' and boneWeights'.
	int vertexCount;
	///@{
	/// Vertex positions (model space, m) and unit normals (model space).
	const lbVec3* positions;
	const lbVec3* normals;
	///@}
	///@{
	/// Triangle vertex index count and the indices, three per triangle, each in [0, vertexCount).
	int indexCount;
	const uint32_t* indices;
	///@}
	///@{
	/// Four skeleton bone indices and weights per vertex (weights sum to 1; unused slots have
	/// weight 0 and bone 0). Vertices with no bone are bound to the mesh's node bone, or bone 0.
	const int* boneIndices;
	const float* boneWeights;
	///@}
} lbSkinnedMesh;

/// An imported rig. Everything is owned by the rig; free with lbDestroyImportedRig.
/// Thread-safety: read-only once made; any number of threads may read it at once.
typedef struct lbImportedRig
{
	/// The bone hierarchy in model space, meters, `up` as configured. A leaf node that is a bone's
	/// only child and no bone itself (no mesh binds it, no clip animates it: a BVH End Site, a 3ds
	/// Max Nub) is kept as that bone's end (lbSkeleton::ends), not as a bone.
	lbSkeleton* skeleton;
	/// Humanoid map (valid when humanoidResult is lb_ok).
	lbHumanoid humanoid;
	/// Result of lbMapHumanoid (lb_errorMissingRole... when not a humanoid and not required).
	lbResult humanoidResult;
	/// Inverse bind transform per bone: model space at bind time -> bone space. Skinning matrix
	/// of a bone = pose model transform * inverseBind. Identity for bones no mesh uses.
	const lbTransform* inverseBind;
	///@{
	/// Skinned meshes (empty when loadMeshes is false or the file has none).
	int meshCount;
	const lbSkinnedMesh* meshes;
	///@}
	///@{
	/// Clips on this skeleton (keyed tracks, seconds).
	int clipCount;
	const lbClip* clips;
	///@}
	/// Meters per file unit applied.
	float unitScale;
	///@{
	/// File up axis (in file coordinates) and the rotation applied to reach `up`.
	lbVec3 sourceUp;
	lbQuat axisRotation;
	///@}
	/// Format: "fbx", "gltf", "glb", "bvh", "collada", "x", "ase", "md5", "iqm", "smd", "ms3d", "b3d",
	/// "ogex" or "mdl" (every format assimp reads that can carry a skeleton).
	const char* format;
	/// Number of warnings raised while loading (also sent to the log hook), among them a humanoid
	/// whose height is implausible (under 0.5 m or over 3 m) with the unit that was used.
	int warningCount;
	/// Human-readable summary: format, conversions applied, warnings.
	char report[LB_IMPORT_REPORT_SIZE];
} lbImportedRig;

/// File formats lbExportClip can write.
typedef enum lbExportFormat
{
	/// glTF 2.0, JSON with a .bin next to it.
	lb_exportGltf = 0,
	/// glTF 2.0 binary (.glb).
	lb_exportGlb,
	/// Collada 1.4 (.dae).
	lb_exportCollada,
	/// Number of formats (not a format).
	lb_exportFormatCount
} lbExportFormat;

/// Options for lbExportClip. Fill with lbDefaultExportDef().
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbExportDef
{
	/// Model-space up axis of the skeleton and poses (unit); the file is written +Y up. Default +Z.
	lbVec3 up;
	/// Clip name in the file. Default "limber".
	const char* clipName;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbExportDef;

LB_EXTERN_C_BEGIN

/// Default import options (see lbImportDef).
LB_API lbImportDef lbDefaultImportDef(void);

/// Loads a rig and its clips from a file. On success *outRig owns everything. Not for several
/// threads at once: assimp's C API keeps its last error (and an attached log) process-wide. Errors (returned and
/// logged with the file name and cause; *outRig is NULL): lb_errorNullPointer,
/// lb_errorDefNotInitialized, lb_errorFileNotFound (missing or unreadable), lb_errorUnsupported
/// (an extension that carries no skeleton; the message lists those that do), lb_errorFileFormat (truncated or malformed file, out-of-range indices,
/// a node or an end node not finite after the unit scale),
/// lb_errorIo (a corrected temporary copy could not be written), lb_errorNoSkeleton,
/// lb_errorNotHumanoid (missing roles are named), lb_errorOutOfMemory, and skeleton errors from
/// lbCreateSkeleton (duplicate or over-long names).
LB_API lbResult lbImportRig(const char* path, const lbImportDef* def, lbImportedRig** outRig);

/// Frees an imported rig (NULL is allowed).
LB_API void lbDestroyImportedRig(lbImportedRig* rig);

/// Default export options (see lbExportDef).
LB_API lbExportDef lbDefaultExportDef(void);

/// Export format from a file name's extension (.gltf, .glb, .dae); lb_exportFormatCount if unknown.
LB_API lbExportFormat lbExportFormatFromPath(const char* path);

/// Bakes `frameCount` frames of local transforms (frame-major, skeleton->boneCount per frame,
/// model space defined by def->up, meters) sampled at `fps` into a clip file, with the skeleton's
/// rest pose as the node hierarchy and, past each bone with a marked end (lbSkeleton::ends), an
/// unanimated leaf node named after it ("<bone>_end"). Re-importing with the same up reproduces
/// the poses and the ends (assimp's Collada reader brings the end nodes back as bones of their
/// own, which the humanoid map still takes as toe ends). Errors:
/// lb_errorNullPointer, lb_errorInvalidArgument (counts, fps <= 0, format), lb_errorNonFinite,
/// lb_errorIo (the exporter failed).
LB_API lbResult lbExportClip(const char* path, lbExportFormat format, const lbSkeleton* skeleton,
							 const lbTransform* localFrames, int frameCount, float fps, const lbExportDef* def);

/// Same as lbExportClip from a sequence of poses (each with skeleton->boneCount bones).
LB_API lbResult lbExportPoses(const char* path, lbExportFormat format, const lbSkeleton* skeleton, const lbPose* poses,
							  int frameCount, float fps, const lbExportDef* def);

LB_EXTERN_C_END

/// @}
