// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref skeleton group.

/// @defgroup skeleton Skeleton and pose
/// A skeleton is an immutable bone hierarchy (parents before children) with names and a rest
/// pose. A pose is caller-owned memory holding each bone's local (parent-relative) and model
/// (character-space) transform.
/// @{

#include "limber/base.h"
#include "limber/math.h"

#include <stddef.h>
#include <stdint.h>

/// Most bones a skeleton may have.
#define LB_MAX_BONES 1024
/// Longest bone name including the terminating zero.
#define LB_MAX_NAME 64
/// Largest model-space coordinate (m) a pose edit may move a bone to: far beyond any world, far
/// enough below FLT_MAX that a bone's descendants and their sums stay finite.
#define LB_MAX_COORDINATE 1.0e30f

/// Input to lbCreateSkeleton. Arrays have `boneCount` entries; none is retained.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbSkeletonDef
{
	/// Number of bones, 1..LB_MAX_BONES. Default 0 (invalid until set).
	int boneCount;
	/// Bone names: unique, non-empty, shorter than LB_MAX_NAME. Default NULL.
	const char* const* names;
	/// Parent index per bone, LB_NULL_INDEX for roots; a parent must come before its child. Default NULL.
	const int* parents;
	/// Rest transform per bone in local space (relative to the parent's rest). Default NULL.
	const lbTransform* restLocal;
	/// Optional: per bone, where the bone ends at rest, given in the bone's local frame as a child
	/// bone's restLocal.p would be (the bone's rest model transform takes it to model space, m):
	/// for a bone whose rig marks its end with a node that is no bone (a BVH "End Site", a 3ds Max
	/// "Nub", Mixamo's "_End" nodes). Zero for a bone with no marked end; each must be finite. NULL
	/// = no bone has one. The humanoid map takes a foot's toe tip from its ball bone's end. Default
	/// NULL.
	const lbVec3* ends;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbSkeletonDef;

/// A validated bone hierarchy. All fields are read-only; create with lbCreateSkeleton.
/// Thread-safety: read-only once made; any number of threads may read it at once.
typedef struct lbSkeleton
{
	/// Number of bones.
	int boneCount;
	/// Parent index per bone (LB_NULL_INDEX for roots); parents[i] < i.
	const int* parents;
	/// Bone names.
	const char* const* names;
	/// Rest pose in local space (the bind pose's local transforms).
	const lbTransform* restLocal;
	/// Rest pose in model space.
	const lbTransform* restModel;
	/// Hash of the bone count, names, parents, rest pose and bone ends, set by lbCreateSkeleton: a
	/// humanoid map remembers the skeleton it was made for by it (see lbHumanoid_Check).
	uint64_t fingerprint;
	/// Where each bone ends at rest, in its local frame (lbSkeletonDef::ends; zero for a bone with
	/// no marked end), or NULL when no bone has one. Read it with lbSkeleton_GetBoneEnd.
	const lbVec3* ends;
} lbSkeleton;

/// A pose on caller-owned arrays of `boneCount` transforms each.
/// Thread-safety: caller memory; one thread writes a pose at a time, and no thread reads it
/// meanwhile.
typedef struct lbPose
{
	/// Number of bones; must equal the skeleton's.
	int boneCount;
	/// Local (parent-relative) transforms.
	lbTransform* local;
	/// Model-space transforms; kept in sync with `local` by the functions below.
	lbTransform* model;
} lbPose;

LB_EXTERN_C_BEGIN

/// Default skeleton def (all empty) with its validity cookie set.
LB_API lbSkeletonDef lbDefaultSkeletonDef(void);

/// Validates the def and copies it into one allocation. Returns NULL on failure and stores the
/// reason in *outResult (may be NULL): lb_errorBoneCount, lb_errorEmptyName, lb_errorNameTooLong,
/// lb_errorDuplicateName, lb_errorParentOutOfRange, lb_errorParentOrder, lb_errorCycle,
/// lb_errorInvalidTransform (a rest transform, or a bone end that is not finite),
/// lb_errorDefNotInitialized or lb_errorNullPointer. The message names the bone.
LB_API lbSkeleton* lbCreateSkeleton(const lbSkeletonDef* def, lbResult* outResult);

/// Frees a skeleton (NULL is allowed).
LB_API void lbDestroySkeleton(lbSkeleton* skeleton);

/// Index of the bone with exactly this name, or LB_NULL_INDEX.
LB_API int lbSkeleton_FindBone(const lbSkeleton* skeleton, const char* name);

/// Rest transform of a bone in local space; identity for a bad index.
LB_API lbTransform lbSkeleton_GetRestLocal(const lbSkeleton* skeleton, int bone);

/// Rest transform of a bone in model space; identity for a bad index.
LB_API lbTransform lbSkeleton_GetRestModel(const lbSkeleton* skeleton, int bone);

/// Where a bone ends at rest, in model space (m), when its rig marks the end (lbSkeleton::ends):
/// writes it to *outEndMs (may be NULL) and returns true. False for a bone with no marked end or
/// a bad index.
LB_API bool lbSkeleton_GetBoneEnd(const lbSkeleton* skeleton, int bone, lbVec3* outEndMs);

/// True when `ancestor` is `bone` or one of its ancestors.
LB_API bool lbSkeleton_IsAncestor(const lbSkeleton* skeleton, int ancestor, int bone);

/// Rest length of the chain from `first` down to its descendant `last` (m, model space): the sum
/// of the distances between consecutive joints. Returns -1 when `last` is not below `first`.
LB_API float lbSkeleton_GetChainLength(const lbSkeleton* skeleton, int first, int last);

/// Writes the bone indices from `first` down to `last` into outBones (at most capacity) and
/// returns how many; 0 when last is not a descendant of first or capacity is too small.
LB_API int lbSkeleton_GetChain(const lbSkeleton* skeleton, int first, int last, int* outBones, int capacity);

/// Wraps caller arrays (each `skeleton->boneCount` long) as a pose set to the rest pose.
LB_API lbPose lbMakePose(const lbSkeleton* skeleton, lbTransform* localBuffer, lbTransform* modelBuffer);

/// Allocates a pose for the skeleton (one block) set to the rest pose. Free with lbDestroyPose.
LB_API lbPose lbCreatePose(const lbSkeleton* skeleton);

/// Frees a pose made by lbCreatePose.
LB_API void lbDestroyPose(lbPose* pose);

/// Copies the rest pose into the pose (local and model).
LB_API void lbPose_SetRest(lbPose* pose, const lbSkeleton* skeleton);

/// Copies all transforms of `src` into `dst` (same bone count).
LB_API void lbPose_Copy(lbPose* dst, const lbPose* src);

/// Recomputes model transforms from local ones for all bones.
LB_API void lbPose_LocalToModel(lbPose* pose, const lbSkeleton* skeleton);

/// Recomputes model transforms from local ones for bones [first, first + count). Bones in the range
/// read their parent's model transform, so parents outside the range must already be current.
LB_API void lbPose_LocalToModelRange(lbPose* pose, const lbSkeleton* skeleton, int first, int count);

/// Recomputes local transforms from model ones for all bones.
LB_API void lbPose_ModelToLocal(lbPose* pose, const lbSkeleton* skeleton);

/// Recomputes the model transforms of `bone` and all its descendants from their local transforms.
LB_API void lbPose_UpdateSubtree(lbPose* pose, const lbSkeleton* skeleton, int bone);

/// Sets a bone's model-space transform. With `propagate` its
/// descendants move with it (their local transforms are kept); without, they stay where they are
/// in model space (their local transforms are recomputed). Returns lb_errorBoneNotFound for a bad
/// index, lb_errorNonFinite for a non-finite transform or a position beyond LB_MAX_COORDINATE, and
/// lb_errorInvalidArgument when a local transform it would write is not finite (the bone, or without
/// `propagate` a child, so far from its parent that the offset overflows); the pose is unchanged then.
LB_API lbResult lbPose_SetBoneModel(lbPose* pose, const lbSkeleton* skeleton, int bone, lbTransform model,
									bool propagate);

/// Moves a bone and all its descendants by `deltaMs` (model space, m): the same result as
/// lbPose_SetBoneModel with the bone's position moved and `propagate` on, but a translation of a
/// whole subtree only adds to positions instead of rebuilding every descendant's transform.
/// Returns lb_errorBoneNotFound, or lb_errorNonFinite (pose unchanged) for a non-finite offset, one
/// beyond LB_MAX_COORDINATE, or one moving the bone beyond it.
LB_API lbResult lbPose_TranslateBoneModel(lbPose* pose, const lbSkeleton* skeleton, int bone, lbVec3 deltaMs);

/// Sets a bone's model-space rotation only (position kept); see lbPose_SetBoneModel.
LB_API lbResult lbPose_SetBoneModelRotation(lbPose* pose, const lbSkeleton* skeleton, int bone, lbQuat rotation,
											bool propagate);

/// True when every local and model transform is finite.
LB_API bool lbPose_IsFinite(const lbPose* pose);

LB_EXTERN_C_END

/// @}
