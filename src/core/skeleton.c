// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#include "limber/skeleton.h"

#include "core/bits.h"
#include "core/pose_internal.h"
#include "core/simd.h"
#include "ik/ik_internal.h" // the four-lane transform products (bit for bit lbTransformMul's)

#include <stdlib.h>
#include <string.h>

// Adds d to a transform's position. With SSE2 one four-lane add covers the position and the
// rotation's x, which gains -0: x + -0 is x for every x (a +0 would turn a -0 into +0).
static inline void lbTranslateInPlace(lbTransform* t, lbVec3 d)
{
#if defined(LB_SIMD_SSE)
	_mm_storeu_ps(&t->p.x, _mm_add_ps(_mm_loadu_ps(&t->p.x), _mm_setr_ps(d.x, d.y, d.z, -0.0f)));
#else
	t->p = lbAdd(t->p, d);
#endif
}

lbSkeletonDef lbDefaultSkeletonDef(void)
{
	lbSkeletonDef def;
	memset(&def, 0, sizeof def);
	def.internalValue = LB_SECRET_COOKIE;
	return def;
}

static lbResult lbSetResult(lbResult* out, lbResult r)
{
	if (out)
		*out = r;
	return r;
}

// Validation order matters for the messages: counts and pointers first, then per-bone checks in
// index order, so the first offending bone is the one named.
static lbResult lbValidateSkeletonDef(const lbSkeletonDef* def)
{
	if (!def)
		return lbReport(lb_errorNullPointer, "lbCreateSkeleton: def is NULL");
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbCreateSkeleton: def not initialised with lbDefaultSkeletonDef()");
	if (def->boneCount <= 0 || def->boneCount > LB_MAX_BONES)
		return lbReport(lb_errorBoneCount, "lbCreateSkeleton: bone count %d is outside 1..%d", def->boneCount,
						LB_MAX_BONES);
	if (!def->names || !def->parents || !def->restLocal)
		return lbReport(lb_errorNullPointer, "lbCreateSkeleton: names, parents and restLocal are required");
	int n = def->boneCount;
	for (int i = 0; i < n; ++i)
	{
		const char* name = def->names[i];
		if (!name || !name[0])
			return lbReport(lb_errorEmptyName, "lbCreateSkeleton: bone %d has no name", i);
		if (strlen(name) >= LB_MAX_NAME)
			return lbReport(lb_errorNameTooLong, "lbCreateSkeleton: bone %d name '%.32s...' is too long", i, name);
		int p = def->parents[i];
		if (p < LB_NULL_INDEX || p >= n)
			return lbReport(lb_errorParentOutOfRange, "lbCreateSkeleton: bone '%s' has parent index %d outside [-1, %d)",
							name, p, n);
		if (p == i)
			return lbReport(lb_errorCycle, "lbCreateSkeleton: bone '%s' is its own parent", name);
		if (p > i)
		{
			// Walk up from the parent: coming back to i means the links loop; otherwise it is only
			// an ordering error (a valid tree listed in the wrong order).
			int steps = 0, k = p;
			while (k != LB_NULL_INDEX && k != i && steps <= n)
			{
				int pk = def->parents[k];
				k = (pk >= LB_NULL_INDEX && pk < n) ? pk : LB_NULL_INDEX;
				++steps;
			}
			if (k == i || steps > n)
				return lbReport(lb_errorCycle, "lbCreateSkeleton: bone '%s' is its own ancestor (cycle)", name);
			return lbReport(lb_errorParentOrder, "lbCreateSkeleton: bone '%s' (%d) comes before its parent '%s' (%d)",
							name, i, def->names[p] ? def->names[p] : "?", p);
		}
		if (!lbIsValidTransform(def->restLocal[i]))
			return lbReport(lb_errorInvalidTransform, "lbCreateSkeleton: bone '%s' has an invalid rest transform", name);
		if (def->ends && !lbIsValidVec3(def->ends[i]))
			return lbReport(lb_errorInvalidTransform, "lbCreateSkeleton: bone '%s' has a non-finite end (ends[%d])", name, i);
		for (int j = 0; j < i; ++j)
		{
			if (strcmp(def->names[j], name) == 0)
				return lbReport(lb_errorDuplicateName, "lbCreateSkeleton: bones %d and %d are both named '%s'", j, i,
								name);
		}
	}
	return lb_ok;
}

lbSkeleton* lbCreateSkeleton(const lbSkeletonDef* def, lbResult* outResult)
{
	lbResult r = lbValidateSkeletonDef(def);
	if (r != lb_ok)
	{
		lbSetResult(outResult, r);
		return NULL;
	}
	int n = def->boneCount;
	size_t nameBytes = 0;
	for (int i = 0; i < n; ++i)
		nameBytes += strlen(def->names[i]) + 1;
	// Ends are kept only when some bone has one: a skeleton without them is the same as before
	// ends existed, fingerprint included.
	bool hasEnds = false;
	for (int i = 0; def->ends && i < n; ++i)
		hasEnds = hasEnds || def->ends[i].x != 0.0f || def->ends[i].y != 0.0f || def->ends[i].z != 0.0f;
	// One block: header, transforms (aligned first), ends (padded so the pointers stay aligned),
	// pointers, parents, then the name characters (which follow the parents: hashed as one run).
	const size_t endBytes = hasEnds ? ((size_t)n * sizeof(lbVec3) + 15u) & ~(size_t)15u : 0;
	size_t size = sizeof(lbSkeleton) + 2 * (size_t)n * sizeof(lbTransform) + endBytes + (size_t)n * sizeof(char*) +
				  (size_t)n * sizeof(int) + nameBytes;
	unsigned char* block = (unsigned char*)lbAlloc(size);
	if (!block)
	{
		lbSetResult(outResult, lbReport(lb_errorOutOfMemory, "lbCreateSkeleton: %zu bytes", size));
		return NULL;
	}
	lbSkeleton* s = (lbSkeleton*)block;
	lbTransform* restLocal = (lbTransform*)(block + sizeof(lbSkeleton));
	lbTransform* restModel = restLocal + n;
	lbVec3* ends = hasEnds ? (lbVec3*)(restModel + n) : NULL;
	const char** names = (const char**)((unsigned char*)(restModel + n) + endBytes);
	int* parents = (int*)(names + n);
	char* chars = (char*)(parents + n);
	for (int i = 0; i < n; ++i)
	{
		size_t len = strlen(def->names[i]) + 1;
		memcpy(chars, def->names[i], len);
		names[i] = chars;
		chars += len;
		parents[i] = def->parents[i];
		restLocal[i] = def->restLocal[i];
		restLocal[i].q = lbQuatNormalize(restLocal[i].q);
		restModel[i] = parents[i] == LB_NULL_INDEX ? restLocal[i] : lbTransformMul(restModel[parents[i]], restLocal[i]);
		if (ends)
			ends[i] = def->ends[i];
	}
	s->boneCount = n;
	s->ends = ends;
	s->parents = parents;
	s->names = names;
	s->restLocal = restLocal;
	s->restModel = restModel;
	// FNV-1a over everything that defines the skeleton.
	uint64_t hash = 1469598103934665603ull;
	const unsigned char* bytes = (const unsigned char*)&n;
	for (size_t k = 0; k < sizeof n; ++k)
		hash = (hash ^ bytes[k]) * 1099511628211ull;
	bytes = (const unsigned char*)(restLocal);
	for (size_t k = 0; k < (size_t)n * sizeof(lbTransform); ++k)
		hash = (hash ^ bytes[k]) * 1099511628211ull;
	bytes = (const unsigned char*)parents;
	for (size_t k = 0; k < (size_t)n * sizeof(int) + nameBytes; ++k)
		hash = (hash ^ bytes[k]) * 1099511628211ull;
	bytes = (const unsigned char*)ends;
	for (size_t k = 0; ends && k < (size_t)n * sizeof(lbVec3); ++k)
		hash = (hash ^ bytes[k]) * 1099511628211ull;
	s->fingerprint = hash | 1u; // never 0, the value of a skeleton not made here
	lbSetResult(outResult, lb_ok);
	return s;
}

void lbDestroySkeleton(lbSkeleton* skeleton)
{
	lbFree(skeleton);
}

int lbSkeleton_FindBone(const lbSkeleton* skeleton, const char* name)
{
	if (!skeleton || !name)
		return LB_NULL_INDEX;
	for (int i = 0; i < skeleton->boneCount; ++i)
	{
		if (strcmp(skeleton->names[i], name) == 0)
			return i;
	}
	return LB_NULL_INDEX;
}

static bool lbValidBone(const lbSkeleton* s, int bone)
{
	return s && bone >= 0 && bone < s->boneCount;
}

lbTransform lbSkeleton_GetRestLocal(const lbSkeleton* skeleton, int bone)
{
	return lbValidBone(skeleton, bone) ? skeleton->restLocal[bone] : lbTransform_identity;
}

lbTransform lbSkeleton_GetRestModel(const lbSkeleton* skeleton, int bone)
{
	return lbValidBone(skeleton, bone) ? skeleton->restModel[bone] : lbTransform_identity;
}

bool lbSkeleton_GetBoneEnd(const lbSkeleton* skeleton, int bone, lbVec3* outEndMs)
{
	if (!lbValidBone(skeleton, bone) || !skeleton->ends)
		return false;
	const lbVec3 end = skeleton->ends[bone];
	if (end.x == 0.0f && end.y == 0.0f && end.z == 0.0f)
		return false;
	if (outEndMs)
		*outEndMs = lbTransformPoint(skeleton->restModel[bone], end);
	return true;
}

bool lbSkeleton_IsAncestor(const lbSkeleton* skeleton, int ancestor, int bone)
{
	if (!lbValidBone(skeleton, ancestor) || !lbValidBone(skeleton, bone))
		return false;
	for (int k = bone; k != LB_NULL_INDEX; k = skeleton->parents[k])
	{
		if (k == ancestor)
			return true;
		if (k < ancestor)
			return false; // parents come first: we have gone above it
	}
	return false;
}

int lbSkeleton_GetChain(const lbSkeleton* skeleton, int first, int last, int* outBones, int capacity)
{
	if (!lbSkeleton_IsAncestor(skeleton, first, last) || !outBones)
		return 0;
	int count = 0;
	for (int k = last; k != first; k = skeleton->parents[k])
		++count;
	++count;
	if (count > capacity)
		return 0;
	int k = last;
	for (int i = count - 1; i >= 0; --i)
	{
		outBones[i] = k;
		k = skeleton->parents[k];
	}
	return count;
}

float lbSkeleton_GetChainLength(const lbSkeleton* skeleton, int first, int last)
{
	if (!lbSkeleton_IsAncestor(skeleton, first, last))
		return -1.0f;
	float len = 0.0f;
	for (int k = last; k != first; k = skeleton->parents[k])
		len += lbDistance(skeleton->restModel[k].p, skeleton->restModel[skeleton->parents[k]].p);
	return len;
}

lbPose lbMakePose(const lbSkeleton* skeleton, lbTransform* localBuffer, lbTransform* modelBuffer)
{
	lbPose pose = { 0, NULL, NULL };
	if (!skeleton || !localBuffer || !modelBuffer)
	{
		lbReport(lb_errorNullPointer, "lbMakePose: skeleton and both buffers are required");
		return pose;
	}
	pose.boneCount = skeleton->boneCount;
	pose.local = localBuffer;
	pose.model = modelBuffer;
	lbPose_SetRest(&pose, skeleton);
	return pose;
}

lbPose lbCreatePose(const lbSkeleton* skeleton)
{
	lbPose pose = { 0, NULL, NULL };
	if (!skeleton)
	{
		lbReport(lb_errorNullPointer, "lbCreatePose: skeleton is NULL");
		return pose;
	}
	lbTransform* block = (lbTransform*)lbAlloc(2 * (size_t)skeleton->boneCount * sizeof(lbTransform));
	if (!block)
	{
		lbReport(lb_errorOutOfMemory, "lbCreatePose");
		return pose;
	}
	return lbMakePose(skeleton, block, block + skeleton->boneCount);
}

void lbDestroyPose(lbPose* pose)
{
	if (!pose)
		return;
	lbFree(pose->local);
	pose->local = pose->model = NULL;
	pose->boneCount = 0;
}

static bool lbPoseMatches(const lbPose* pose, const lbSkeleton* skeleton)
{
	return pose && skeleton && pose->local && pose->model && pose->boneCount == skeleton->boneCount;
}

void lbPose_SetRest(lbPose* pose, const lbSkeleton* skeleton)
{
	if (!lbPoseMatches(pose, skeleton))
		return;
	memcpy(pose->local, skeleton->restLocal, (size_t)pose->boneCount * sizeof(lbTransform));
	memcpy(pose->model, skeleton->restModel, (size_t)pose->boneCount * sizeof(lbTransform));
}

void lbPose_Copy(lbPose* dst, const lbPose* src)
{
	if (!dst || !src || dst->boneCount != src->boneCount || dst == src)
		return;
	memmove(dst->local, src->local, (size_t)src->boneCount * sizeof(lbTransform));
	memmove(dst->model, src->model, (size_t)src->boneCount * sizeof(lbTransform));
}

void lbPose_LocalToModelRange(lbPose* pose, const lbSkeleton* skeleton, int first, int count)
{
	if (!lbPoseMatches(pose, skeleton) || first < 0 || count <= 0 || first >= pose->boneCount)
		return;
	// count may be anything up to INT_MAX: compared, never added to first.
	int end = count < pose->boneCount - first ? first + count : pose->boneCount;
	const int* parents = skeleton->parents;
	for (int i = first; i < end; ++i)
	{
		int p = parents[i];
		LB_ASSERT(p < i); // lbCreateSkeleton orders parents before children: one pass suffices
		pose->model[i] = p == LB_NULL_INDEX ? pose->local[i] : lbTransformMul(pose->model[p], pose->local[i]);
	}
}

void lbPose_LocalToModel(lbPose* pose, const lbSkeleton* skeleton)
{
	if (pose)
		lbPose_LocalToModelRange(pose, skeleton, 0, pose->boneCount);
}

void lbPose_ModelToLocal(lbPose* pose, const lbSkeleton* skeleton)
{
	if (!lbPoseMatches(pose, skeleton))
		return;
	for (int i = 0; i < pose->boneCount; ++i)
	{
		int p = skeleton->parents[i];
		pose->local[i] = p == LB_NULL_INDEX ? pose->model[i] : lbTransformRelative(pose->model[p], pose->model[i]);
	}
}

void lbPose_UpdateSubtree(lbPose* pose, const lbSkeleton* skeleton, int bone)
{
	if (!lbPoseMatches(pose, skeleton) || bone < 0 || bone >= pose->boneCount)
		return;
	const int* parents = skeleton->parents;
	const lbTransform* local = pose->local;
	lbTransform* model = pose->model;
	const int n = pose->boneCount, p = parents[bone];
	if (p == LB_NULL_INDEX)
		model[bone] = local[bone];
	else
		lbIkTransformMulTo(&model[bone], &model[p], &local[bone]);
	// Descendants have larger indices. While every bone from `bone` on belongs to its subtree, the
	// next one does exactly when its parent is not above `bone` (a limb's bones usually follow it),
	// so no marks are needed until the first bone outside.
	int i = bone + 1;
	for (; i < n && parents[i] >= bone; ++i)
		lbIkTransformMulTo(&model[i], &model[parents[i]], &local[i]);
	if (i >= n)
		return;
	// Past it, one byte per bone from `bone` on marks the subtree, each written before any child
	// reads it (parents come first).
	uint8_t below[LB_MAX_BONES];
	for (int k = 0; k < i - bone; ++k)
		below[k] = 1u;
	for (; i < n; ++i)
	{
		const int q = parents[i] - bone; // negative above `bone` (and for a root)
		const uint8_t m = (uint8_t)(q >= 0 && below[q]);
		below[i - bone] = m;
		if (m)
			lbIkTransformMulTo(&model[i], &model[parents[i]], &local[i]);
	}
}

static float lbMaxAbsComponent(lbVec3 v)
{
	return lbMaxF(lbAbsF(v.x), lbMaxF(lbAbsF(v.y), lbAbsF(v.z)));
}

lbResult lbPose_SetBoneModel(lbPose* pose, const lbSkeleton* skeleton, int bone, lbTransform model, bool propagate)
{
	if (!lbPoseMatches(pose, skeleton))
		return lbReport(lb_errorSkeletonMismatch, "lbPose_SetBoneModel: pose does not match the skeleton");
	if (bone < 0 || bone >= pose->boneCount)
		return lbReport(lb_errorBoneNotFound, "lbPose_SetBoneModel: bone index %d out of range", bone);
	if (!lbIsValidVec3(model.p) || !lbIsValidQuat(model.q) || !lbIsValidVec3(model.s))
		return lbReport(lb_errorNonFinite, "lbPose_SetBoneModel: non-finite transform for bone '%s'",
						skeleton->names[bone]);
	// As lbPose_TranslateBoneModel: a place beyond LB_MAX_COORDINATE is refused. With propagation the
	// bone's model is worked out again from its local, and from 3e38 m that came out inf.
	if (lbMaxAbsComponent(model.p) > LB_MAX_COORDINATE)
		return lbReport(lb_errorNonFinite, "lbPose_SetBoneModel: bone '%s' placed beyond %g m", skeleton->names[bone],
						(double)LB_MAX_COORDINATE);
	model.q = lbQuatNormalize(model.q);
	int p = skeleton->parents[bone];
	// The locals this writes are worked out before anything is: a finite model 3e38 m from its
	// parent (or, kept in place, a child that far from it) overflowed its local to inf and NaN.
	lbTransform local = model;
	if (p != LB_NULL_INDEX)
		lbIkTransformRelativeTo(&local, &pose->model[p], &model);
	if (!lbIsValidTransform(local) || (!propagate && !lbIkChildrenStayFinite(pose, skeleton, bone, &model)))
		return lbReport(lb_errorInvalidArgument,
						"lbPose_SetBoneModel: bone '%s' or a child of it lies too far from its parent for its local "
						"transform to stay finite",
						skeleton->names[bone]);
	pose->model[bone] = model;
	pose->local[bone] = local;
	if (propagate)
	{
		lbPose_UpdateSubtree(pose, skeleton, bone);
	}
	else
		lbIkKeepChildren(pose, skeleton, bone, &model); // children keep their model transforms
	return lb_ok;
}


// lbPose_TranslateBoneModel's move of `bone` itself (model and local position) and its checks,
// for a pose that matches the skeleton and a bone inside it; its descendants are the caller's.
static LB_ALWAYS_INLINE lbResult lbPoseMoveBone(lbPose* pose, const lbSkeleton* skeleton, int bone, lbVec3 deltaMs)
{
	lbTransform* model = pose->model;
	const int p = skeleton->parents[bone];
#if LB_IK_SSE2
	// In the lanes of one register: the offset with -0 in lane 3 and the bone's position plus it,
	// whose lane 3 is the rotation's x plus -0, x itself (lbTranslateInPlace), so one store writes
	// the moved position. The offset and the new position stay within LB_MAX_COORDINATE (see below).
	const __m128 abs = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)), lim = _mm_set1_ps(LB_MAX_COORDINATE);
	const __m128 d = _mm_setr_ps(deltaMs.x, deltaMs.y, deltaMs.z, -0.0f);
	const __m128 moved = _mm_add_ps(_mm_loadu_ps(&model[bone].p.x), d);
	const __m128 within = _mm_and_ps(_mm_cmple_ps(_mm_and_ps(d, abs), lim), _mm_cmple_ps(_mm_and_ps(moved, abs), lim));
	if ((_mm_movemask_ps(within) & 7) != 7)
		return lbReport(lb_errorNonFinite, "lbPose_TranslateBoneModel: offset for bone '%s' is not finite or moves it beyond %g m",
						skeleton->names[bone], (double)LB_MAX_COORDINATE);
	__m128 local;
	if (p == LB_NULL_INDEX)
		local = moved;
	else if (lbIkUnitScale(&model[p]))
	{
		// 1 / 1 and x * 1 are exact: lbQuatInvRotate of the offset from the parent (lanes 0..2
		// depend on lanes 0..2 alone).
		const __m128 conj = _mm_xor_ps(_mm_loadu_ps(&model[p].q.x), _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
		local = lbIkQuatRotate4(conj, _mm_sub_ps(moved, _mm_loadu_ps(&model[p].p.x)));
	}
	else
		local = lbIkVSet(lbInvTransformPoint(model[p], lbIkVGet(moved)));
	if ((_mm_movemask_ps(_mm_cmplt_ps(_mm_and_ps(local, abs), _mm_set1_ps(INFINITY))) & 7) != 7)
		return lbReport(lb_errorNonFinite, "lbPose_TranslateBoneModel: bone '%s' would have a non-finite local position",
						skeleton->names[bone]);
	_mm_storeu_ps(&model[bone].p.x, moved);
	// The local's x and y, then z (its lane 3 is no part of the transform's position).
	lbTransform* l = &pose->local[bone];
	_mm_storel_pi((__m64*)&l->p.x, local);
	_mm_store_ss(&l->p.z, _mm_movehl_ps(local, local));
#else
	lbVec3 moved = lbAdd(model[bone].p, deltaMs);
	// The offset and the bone's new position stay within LB_MAX_COORDINATE: its descendants then
	// lie at most a bounded multiple of it away, so the pose stays finite however often it is called.
	// The range test is the finiteness test too: NaN fails a compare, infinity the bound.
	if (!lbIsValidVec3(deltaMs) || !lbIsValidVec3(moved) || lbMaxAbsComponent(deltaMs) > LB_MAX_COORDINATE ||
		lbMaxAbsComponent(moved) > LB_MAX_COORDINATE)
		return lbReport(lb_errorNonFinite, "lbPose_TranslateBoneModel: offset for bone '%s' is not finite or moves it beyond %g m",
						skeleton->names[bone], (double)LB_MAX_COORDINATE);
	lbVec3 local;
	if (p == LB_NULL_INDEX)
		local = moved;
	else if (model[p].s.x == 1.0f && model[p].s.y == 1.0f && model[p].s.z == 1.0f)
		local = lbQuatInvRotate(model[p].q, lbSub(moved, model[p].p)); // 1 / 1 and x * 1 are exact
	else
		local = lbInvTransformPoint(model[p], moved);
	if (!lbIsValidVec3(local))
		return lbReport(lb_errorNonFinite, "lbPose_TranslateBoneModel: bone '%s' would have a non-finite local position",
						skeleton->names[bone]);
	model[bone].p = moved;
	pose->local[bone].p = local;
#endif
	return lb_ok;
}

lbResult lbPose_TranslateBoneModel(lbPose* pose, const lbSkeleton* skeleton, int bone, lbVec3 deltaMs)
{
	if (!lbPoseMatches(pose, skeleton))
		return lbReport(lb_errorSkeletonMismatch, "lbPose_TranslateBoneModel: pose does not match the skeleton");
	if (bone < 0 || bone >= pose->boneCount)
		return lbReport(lb_errorBoneNotFound, "lbPose_TranslateBoneModel: bone index %d out of range", bone);
	const lbResult r = lbPoseMoveBone(pose, skeleton, bone, deltaMs);
	if (r != lb_ok)
		return r;
	const int* parents = skeleton->parents;
	const int n = pose->boneCount;
	lbTransform* model = pose->model;
	// A descendant's model transform is the bone's composed with fixed locals, so a pure
	// translation of the bone moves each of them by the same offset; rotations and scales stay.
	// Parents come before their children, so while every bone from `bone` on belongs to its
	// subtree, the next one does exactly when its parent is not above `bone`: a bone's subtree
	// usually follows it (a pelvis's is the rest of the skeleton) and needs no marks.
	int i = bone + 1;
#if defined(LB_SIMD_SSE)
	// Four bones a step while all four belong to the run (a pelvis moves a whole skeleton): one
	// compare of their four parents with `bone`.
	const __m128i above = _mm_set1_epi32(bone - 1);
	for (; i + 3 < n && _mm_movemask_epi8(_mm_cmpgt_epi32(_mm_loadu_si128((const __m128i*)&parents[i]), above)) == 0xffff; i += 4)
	{
		lbTranslateInPlace(&model[i], deltaMs);
		lbTranslateInPlace(&model[i + 1], deltaMs);
		lbTranslateInPlace(&model[i + 2], deltaMs);
		lbTranslateInPlace(&model[i + 3], deltaMs);
	}
#endif
	// Two bones a step while both belong to the run, then one.
	for (; i + 1 < n && parents[i] >= bone && parents[i + 1] >= bone; i += 2)
	{
		lbTranslateInPlace(&model[i], deltaMs);
		lbTranslateInPlace(&model[i + 1], deltaMs);
	}
	for (; i < n && parents[i] >= bone; ++i)
		lbTranslateInPlace(&model[i], deltaMs);
	if (i >= n)
		return lb_ok;
	// Past the first bone outside the subtree: mark the subtree's bones as they are met, one byte
	// per bone from `bone` on, each written before any child reads it.
	uint8_t moving[LB_MAX_BONES];
	for (int k = 0; k < i - bone; ++k)
		moving[k] = 1u;
	for (; i < n; ++i)
	{
		const int q = parents[i] - bone; // negative above `bone`
		const uint8_t m = (uint8_t)(q >= 0 && moving[q]);
		moving[i - bone] = m;
		if (m)
			lbTranslateInPlace(&model[i], deltaMs);
	}
	return lb_ok;
}

lbResult lbPoseTranslateRun(lbPose* pose, const lbSkeleton* skeleton, int bone, int end, lbVec3 deltaMs)
{
	const lbResult r = lbPoseMoveBone(pose, skeleton, bone, deltaMs);
	if (r != lb_ok)
		return r;
	// The caller knows the subtree is this run: no parent is read, four bones a step.
	lbTransform* model = pose->model;
	int i = bone + 1;
	for (; i + 3 < end; i += 4)
	{
		lbTranslateInPlace(&model[i], deltaMs);
		lbTranslateInPlace(&model[i + 1], deltaMs);
		lbTranslateInPlace(&model[i + 2], deltaMs);
		lbTranslateInPlace(&model[i + 3], deltaMs);
	}
	for (; i < end; ++i)
		lbTranslateInPlace(&model[i], deltaMs);
	return lb_ok;
}

lbResult lbPose_SetBoneModelRotation(lbPose* pose, const lbSkeleton* skeleton, int bone, lbQuat rotation,
									 bool propagate)
{
	if (!lbPoseMatches(pose, skeleton))
		return lbReport(lb_errorSkeletonMismatch, "lbPose_SetBoneModelRotation: pose does not match the skeleton");
	if (bone < 0 || bone >= pose->boneCount)
		return lbReport(lb_errorBoneNotFound, "lbPose_SetBoneModelRotation: bone index %d out of range", bone);
	lbTransform t = pose->model[bone];
	t.q = rotation;
	return lbPose_SetBoneModel(pose, skeleton, bone, t, propagate);
}

bool lbPose_IsFinite(const lbPose* pose)
{
	if (!pose || !pose->local || !pose->model)
		return false;
	for (int i = 0; i < pose->boneCount; ++i)
	{
		const lbTransform* a = &pose->local[i];
		const lbTransform* b = &pose->model[i];
		if (!lbIsValidVec3(a->p) || !lbIsValidVec3(b->p) || !lbIsValidVec3(a->s) || !lbIsValidVec3(b->s))
			return false;
		if (!lbIsValidFloat(a->q.x + a->q.y + a->q.z + a->q.w) || !lbIsValidFloat(b->q.x + b->q.y + b->q.z + b->q.w))
			return false;
	}
	return true;
}
