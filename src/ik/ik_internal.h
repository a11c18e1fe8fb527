// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Helpers shared by the IK solvers.
#pragma once

#include "limber/ik.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

// SSE2 paths where the build's one vector switch has them (core/simd.h's LB_SIMD_SSE: LIMBER_SIMD
// sse2, avx2 or native); LIMBER_SIMD=none builds and tests the scalar code instead.
#include "core/simd.h"
#if defined(LB_SIMD_SSE)
#define LB_IK_SSE2 1
#endif

// A transform the solvers accept: finite, unit rotation, non-zero scale.
static inline bool lbIkValidTransform(lbTransform t)
{
	return lbIsValidTransform(t);
}

// 0 for finite x, NaN otherwise: sums of these flag any non-finite value without branches.
static inline float lbIkFiniteProbe3(lbVec3 v)
{
	return (v.x - v.x) + (v.y - v.y) + (v.z - v.z);
}

// Accumulates a non-finite flag over n floats from their bits: the exponent field plus one
// carries into the sign bit exactly when it is all ones (inf or NaN). OR is associative, so the
// compiler may vectorise the loop (a float sum of x - x could not be reordered).
static inline uint32_t lbIkNonFiniteBits(const void* floats, int n)
{
	uint32_t bits[16];
	uint32_t acc = 0u;
	memcpy(bits, floats, (size_t)n * sizeof(float));
	for (int i = 0; i < n; ++i)
		acc |= (bits[i] & 0x7F800000u) + 0x00800000u;
	return acc & 0x80000000u;
}

// As lbIsValidTransform with fewer branches (the solvers check every joint on every call). x - x
// is 0 only for finite x; a NaN rotation fails the norm test (NaN compares false).
static inline bool lbIkValidTransformFast(const lbTransform* t)
{
	float z = lbIkFiniteProbe3(t->p) + lbIkFiniteProbe3(t->s);
	float n = lbQuatDot(t->q, t->q);
	float sm = lbMinF(lbMinF(t->s.x * t->s.x, t->s.y * t->s.y), t->s.z * t->s.z);
	return z == 0.0f && n > 0.98f && n < 1.02f && sm > LB_EPSILON * LB_EPSILON;
}

// lbIsValidTransform(*t) with the same answer at every input, for the systems' per-call checks of a
// character frame: with SSE2 its tests are range compares in lanes (a NaN fails every ordered
// compare, so finiteness needs no test of its own; a rotation with an infinite or NaN part has a
// squared length outside (0.98, 1.02)), the squared length summed in lbIsValidTransform's order
// (((x^2 + y^2) + z^2) + w^2) so a length at the bounds gets its answer. About a fifth of its cost.
static inline bool lbIkValidTransformExact(const lbTransform* t)
{
#if LB_IK_SSE2
	const float* f = &t->p.x;
	const __m128 p = _mm_loadu_ps(f), q = _mm_loadu_ps(f + 3), ws = _mm_loadu_ps(f + 6);
	const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)), inf = _mm_set1_ps(INFINITY);
	const __m128 sa = _mm_and_ps(ws, magnitude);
	// Lanes 0..2 of p.x..q.x and 1..3 of q.w..s.z.
	const int pOk = _mm_movemask_ps(_mm_cmplt_ps(_mm_and_ps(p, magnitude), inf));
	const int sOk = _mm_movemask_ps(_mm_and_ps(_mm_cmpgt_ps(sa, _mm_set1_ps(LB_EPSILON)), _mm_cmplt_ps(sa, inf)));
	const __m128 qq = _mm_mul_ps(q, q);
	__m128 n = _mm_add_ss(qq, _mm_shuffle_ps(qq, qq, _MM_SHUFFLE(1, 1, 1, 1)));
	n = _mm_add_ss(n, _mm_movehl_ps(qq, qq));
	n = _mm_add_ss(n, _mm_shuffle_ps(qq, qq, _MM_SHUFFLE(3, 3, 3, 3)));
	const int qOk = _mm_movemask_ps(_mm_and_ps(_mm_cmpgt_ss(n, _mm_set_ss(0.98f)), _mm_cmplt_ss(n, _mm_set_ss(1.02f))));
	return (pOk & 7) == 7 && (sOk & 0xE) == 0xE && (qOk & 1) == 1;
#else
	return lbIsValidTransform(*t);
#endif
}

// sqrtf without the errno branch (the library never reads errno); the same correctly rounded root.
// The argument is broadcast (one shuffle) rather than set with zeroed upper lanes, which compilers
// do through a general register, two moves and several cycles more on the solves' dependency chains.
static inline float lbIkSqrtF(float x)
{
#if LB_IK_SSE2
	return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set1_ps(x)));
#else
	return sqrtf(x);
#endif
}

// 1 / sqrt(x) for x > 0 in normal range: the hardware estimate (12 bits) and one Newton-Raphson
// step, about 2^-22 relative, where sqrtf and a division would be two long operations on the one
// divide and square root unit.
static inline float lbIkRsqrtF(float x)
{
#if LB_IK_SSE2
	const float r = _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set1_ps(x))); // broadcast, as in lbIkSqrtF
	return r * (1.5f - 0.5f * x * r * r);
#else
	return 1.0f / sqrtf(x);
#endif
}

#if LB_IK_SSE2
// Four consecutive floats as four single loads. A solver's arguments are often written by the
// caller just before the call, field by field; a 16-byte load across several such stores cannot
// take its value from them and waits until they reach the cache, where a single float's load is
// served from the store that wrote it.
static inline __m128 lbIkLoad4(const float* p)
{
	const __m128 lo = _mm_unpacklo_ps(_mm_load_ss(p), _mm_load_ss(p + 1));
	const __m128 hi = _mm_unpacklo_ps(_mm_load_ss(p + 2), _mm_load_ss(p + 3));
	return _mm_movelh_ps(lo, hi);
}
#endif

// 1 / sqrt(n[i]) for i in 0..2, in out[0..2] (n[3] read too: any positive value).
static inline void lbIkInvSqrt3(const float n[4], float out[4])
{
#if LB_IK_SSE2
	_mm_storeu_ps(out, _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(_mm_loadu_ps(n))));
#else
	out[0] = 1.0f / sqrtf(n[0]), out[1] = 1.0f / sqrtf(n[1]), out[2] = 1.0f / sqrtf(n[2]), out[3] = 1.0f;
#endif
}

// 1 / |q| of three quaternions in out[0..2] (one four-lane square root and division).
static inline void lbIkQuatInvNorm3(const lbQuat* a, const lbQuat* b, const lbQuat* c, float out[4])
{
#if LB_IK_SSE2
	__m128 x = _mm_loadu_ps(&a->x), y = _mm_loadu_ps(&b->x), z = _mm_loadu_ps(&c->x), w = z;
	_MM_TRANSPOSE4_PS(x, y, z, w);
	const __m128 dot = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z)), _mm_mul_ps(w, w));
	_mm_storeu_ps(out, _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(dot)));
#else
	out[0] = 1.0f / sqrtf(lbQuatDot(*a, *a)), out[1] = 1.0f / sqrtf(lbQuatDot(*b, *b)), out[2] = 1.0f / sqrtf(lbQuatDot(*c, *c));
	out[3] = 1.0f;
#endif
}

#if LB_IK_SSE2
// Hamilton product of two quaternions in four lanes (x, y, z, w), with lbQuatMul's bits (the same
// products summed in the same order): a's components broadcast times b's permuted with signs.
static inline __m128 lbIkQuatMul4(__m128 va, __m128 vb)
{
	const __m128 s1 = _mm_castsi128_ps(_mm_set_epi32((int)0x80000000, 0, (int)0x80000000, 0)); // + - + -
	const __m128 s2 = _mm_castsi128_ps(_mm_set_epi32((int)0x80000000, (int)0x80000000, 0, 0)); // + + - -
	const __m128 s3 = _mm_castsi128_ps(_mm_set_epi32((int)0x80000000, 0, 0, (int)0x80000000)); // - + + -
	__m128 r = _mm_mul_ps(_mm_shuffle_ps(va, va, _MM_SHUFFLE(3, 3, 3, 3)), vb);
	r = _mm_add_ps(r, _mm_mul_ps(_mm_shuffle_ps(va, va, _MM_SHUFFLE(0, 0, 0, 0)),
								 _mm_xor_ps(_mm_shuffle_ps(vb, vb, _MM_SHUFFLE(0, 1, 2, 3)), s1)));
	r = _mm_add_ps(r, _mm_mul_ps(_mm_shuffle_ps(va, va, _MM_SHUFFLE(1, 1, 1, 1)),
								 _mm_xor_ps(_mm_shuffle_ps(vb, vb, _MM_SHUFFLE(1, 0, 3, 2)), s2)));
	r = _mm_add_ps(r, _mm_mul_ps(_mm_shuffle_ps(va, va, _MM_SHUFFLE(2, 2, 2, 2)),
								 _mm_xor_ps(_mm_shuffle_ps(vb, vb, _MM_SHUFFLE(2, 3, 0, 1)), s3)));
	return r;
}
#endif

// Hamilton product a b times scale, bit for bit as lbQuatMul followed by the scaling.
static inline lbQuat lbIkQuatMulScale(lbQuat a, lbQuat b, float scale)
{
#if LB_IK_SSE2
	// x * 1 is x: no test for a unit scale (the compiler drops a constant one).
	const __m128 r = _mm_mul_ps(lbIkQuatMul4(_mm_loadu_ps(&a.x), _mm_loadu_ps(&b.x)), _mm_set1_ps(scale));
	lbQuat q;
	_mm_storeu_ps(&q.x, r);
	return q;
#else
	const lbQuat q = lbQuatMul(a, b);
	return LB_LITERAL(lbQuat){ q.x * scale, q.y * scale, q.z * scale, q.w * scale };
#endif
}

// Hamilton product a b, bit for bit as lbQuatMul.
static inline lbQuat lbIkQuatMul(lbQuat a, lbQuat b)
{
	return lbIkQuatMulScale(a, b, 1.0f);
}

// Normalises a quaternion known to be far from zero (the callers guarantee it): no checks.
static inline lbQuat lbIkQuatNormalizeNonZero(lbQuat q)
{
	float s = lbIkRsqrtF(lbQuatDot(q, q));
	return LB_LITERAL(lbQuat){ q.x * s, q.y * s, q.z * s, q.w * s };
}

// Unit quaternion of an orthonormal rotation matrix (row major), by Shepperd's method ("Quaternion
// from rotation matrix", J. Guidance and Control 1, 1978): the largest of the four diagonal sums
// gives the component computed with the square root. lbQuatFromBasis also re-orthonormalises its
// input; the solvers build exact frames, so that work is skipped here.
static inline lbQuat lbIkQuatFromMatrix(const float m[9])
{
	const float m00 = m[0], m11 = m[4], m22 = m[8], tr = m00 + m11 + m22;
	lbQuat q;
	if (tr > 0.0f)
	{
		float s = 2.0f * lbIkSqrtF(tr + 1.0f), inv = 1.0f / s;
		q = LB_LITERAL(lbQuat){ (m[7] - m[5]) * inv, (m[2] - m[6]) * inv, (m[3] - m[1]) * inv, 0.25f * s };
	}
	else if (m00 >= m11 && m00 >= m22)
	{
		float s = 2.0f * lbIkSqrtF(1.0f + m00 - m11 - m22), inv = 1.0f / s;
		q = LB_LITERAL(lbQuat){ 0.25f * s, (m[1] + m[3]) * inv, (m[2] + m[6]) * inv, (m[7] - m[5]) * inv };
	}
	else if (m11 >= m22)
	{
		float s = 2.0f * lbIkSqrtF(1.0f + m11 - m00 - m22), inv = 1.0f / s;
		q = LB_LITERAL(lbQuat){ (m[1] + m[3]) * inv, 0.25f * s, (m[5] + m[7]) * inv, (m[2] - m[6]) * inv };
	}
	else
	{
		float s = 2.0f * lbIkSqrtF(1.0f + m22 - m00 - m11), inv = 1.0f / s;
		q = LB_LITERAL(lbQuat){ (m[2] + m[6]) * inv, (m[5] + m[7]) * inv, 0.25f * s, (m[3] - m[1]) * inv };
	}
	return q;
}

// Shepperd's quaternion of lbIkQuatFromMatrix times 4 times its largest component: the same
// branches without the square root and the division; normalise the result (or products with it).
// In *big that component's entry (the one made from the diagonal alone): for an orthonormal
// matrix the quaternion's squared norm is 4 big, known before the other three entries.
static inline lbQuat lbIkQuatFromMatrixScaled(const float m[9], float* big)
{
	const float m00 = m[0], m11 = m[4], m22 = m[8], tr = m00 + m11 + m22;
	if (tr > 0.0f)
	{
		*big = 1.0f + tr;
		return LB_LITERAL(lbQuat){ m[7] - m[5], m[2] - m[6], m[3] - m[1], *big };
	}
	if (m00 >= m11 && m00 >= m22)
	{
		*big = 1.0f + m00 - m11 - m22;
		return LB_LITERAL(lbQuat){ *big, m[1] + m[3], m[2] + m[6], m[7] - m[5] };
	}
	if (m11 >= m22)
	{
		*big = 1.0f + m11 - m00 - m22;
		return LB_LITERAL(lbQuat){ m[1] + m[3], *big, m[5] + m[7], m[2] - m[6] };
	}
	*big = 1.0f + m22 - m00 - m11;
	return LB_LITERAL(lbQuat){ m[2] + m[6], m[5] + m[7], *big, m[3] - m[1] };
}

static inline lbQuat lbIkQuatScale(lbQuat q, float s)
{
	return LB_LITERAL(lbQuat){ q.x * s, q.y * s, q.z * s, q.w * s };
}

// Rotation q scaled by t in [0, 1] from identity (shorter arc).
static inline lbQuat lbIkScaleRotation(lbQuat q, float t)
{
	if (t >= 1.0f)
		return q;
	if (t <= 0.0f)
		return lbQuat_identity;
	return lbQuatSlerp(lbQuat_identity, lbQuatCanonical(q), t);
}

// Rotation taking direction a to direction b (neither unit), without trigonometry: the half-angle
// quaternion is proportional to (a x b, |a||b| + a.b), or, better conditioned past a right angle,
// to ((a x b)(|a||b| - a.b), |a x b|^2). Exactly opposite vectors fall back to lbQuatFromTo.
static inline lbQuat lbIkFromTo(lbVec3 a, lbVec3 b)
{
	float ab = sqrtf(lbDot(a, a) * lbDot(b, b));
	float d = lbDot(a, b);
	lbVec3 c = lbCross(a, b);
	if (d >= 0.0f)
		return lbQuatNormalize(LB_LITERAL(lbQuat){ c.x, c.y, c.z, ab + d });
	float cc = lbDot(c, c);
	if (!(cc > 1.0e-12f * ab * ab))
		return lbQuatFromTo(a, b);
	float f = ab - d;
	return lbQuatNormalize(LB_LITERAL(lbQuat){ c.x * f, c.y * f, c.z * f, cc });
}

#if LB_IK_SSE2
// _mm_shuffle_ps(a, a, imm) as SSE2's integer shuffle: the same bits moved, by one instruction
// that leaves a where it is (the float shuffle overwrites its operand, which costs a copy
// wherever a is used again).
#define LB_IK_SWIZZLE(a, imm) _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(a), (imm)))

// Lanes 0..2: a x b as lbCross computes it (the same products, the same differences), from a and
// its lanes rotated to (y, z, x): a b.yzx - a.yzx b holds (z, x, y) of the product, three shuffles
// instead of four.
static inline __m128 lbIkCross4(__m128 a, __m128 aYzx, __m128 b)
{
	const __m128 bYzx = LB_IK_SWIZZLE(b, _MM_SHUFFLE(3, 0, 2, 1));
	const __m128 c = _mm_sub_ps(_mm_mul_ps(a, bYzx), _mm_mul_ps(aYzx, b));
	return LB_IK_SWIZZLE(c, _MM_SHUFFLE(3, 0, 2, 1));
}

// Lanes 0..2: lbQuatRotate(q, v) bit for bit: v + w t + u x t with t = 2 (u x v), u = q's xyz.
static inline __m128 lbIkQuatRotate4(__m128 q, __m128 v)
{
	const __m128 qYzx = _mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 0, 2, 1));
	const __m128 t = _mm_mul_ps(_mm_set1_ps(2.0f), lbIkCross4(q, qYzx, v));
	return _mm_add_ps(_mm_add_ps(v, _mm_mul_ps(_mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 3, 3, 3)), t)), lbIkCross4(q, qYzx, t));
}

// A transform's scale is exactly (1, 1, 1): lanes 1..3 of the floats from q.w on.
static inline bool lbIkUnitScale(const lbTransform* t)
{
	return (_mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(&t->q.w), _mm_set1_ps(1.0f))) & 0xE) == 0xE;
}

// Stores position (lanes 0..2 of p), rotation q and scale (lanes 1..3 of ws, the floats from a
// transform's q.w on) as a transform, in three overlapping stores inside its ten floats.
static inline void lbIkStoreTransform(lbTransform* out, __m128 p, __m128 q, __m128 ws)
{
	_mm_storeu_ps(&out->p.x, p);
	_mm_storeu_ps(&out->q.x, q);
	_mm_storeu_ps(&out->q.w, _mm_move_ss(ws, _mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 3, 3, 3))));
}
#endif

// *out = lbTransformMul(*a, *b), bit for bit. With a's scale exactly one the products with it are
// skipped (x * 1 is exact) and the rest runs in four lanes; out must not overlap a or b.
static inline void lbIkTransformMulTo(lbTransform* out, const lbTransform* a, const lbTransform* b)
{
#if LB_IK_SSE2
	if (lbIkUnitScale(a))
	{
		const __m128 aq = _mm_loadu_ps(&a->q.x);
		const __m128 p = _mm_add_ps(_mm_loadu_ps(&a->p.x), lbIkQuatRotate4(aq, _mm_loadu_ps(&b->p.x)));
		lbIkStoreTransform(out, p, lbIkQuatMul4(aq, _mm_loadu_ps(&b->q.x)), _mm_loadu_ps(&b->q.w));
		return;
	}
#endif
	*out = lbTransformMul(*a, *b);
}

// *out = lbTransformRelative(*parent, *child), bit for bit. With the parent's scale exactly one the
// reciprocal scale (three divisions) and the products with it are skipped (1 / 1 and x * 1 are
// exact); out must not overlap parent or child.
static inline void lbIkTransformRelativeTo(lbTransform* out, const lbTransform* parent, const lbTransform* child)
{
#if LB_IK_SSE2
	if (lbIkUnitScale(parent))
	{
		// The conjugate's x, y and z are negated exactly, so rotating by it is lbQuatInvRotate.
		const __m128 conj = _mm_xor_ps(_mm_loadu_ps(&parent->q.x), _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
		const __m128 p = lbIkQuatRotate4(conj, _mm_sub_ps(_mm_loadu_ps(&child->p.x), _mm_loadu_ps(&parent->p.x)));
		lbIkStoreTransform(out, p, lbIkQuatMul4(conj, _mm_loadu_ps(&child->q.x)), _mm_loadu_ps(&child->q.w));
		return;
	}
#endif
	*out = lbTransformRelative(*parent, *child);
}

// Pose and skeleton agree and the index is a bone.
static inline bool lbIkValidBone(const lbSkeleton* s, int bone)
{
	return bone >= 0 && bone < s->boneCount;
}

// p - a scaled so its largest component is `size`, for finite points whose difference may
// overflow (both halved first when it does).
static inline lbVec3 lbIkFarDirection(lbVec3 p, lbVec3 a, float size)
{
	lbVec3 d = lbSub(p, a);
	if (!lbIsValidVec3(d))
		d = lbSub(lbMulSV(0.5f, p), lbMulSV(0.5f, a));
	const float big = lbMaxF(lbMaxF(fabsf(d.x), fabsf(d.y)), fabsf(d.z));
	return big > 0.0f ? lbMulSV(size / big, d) : d;
}

// |p - a| for finite points, without overflowing on the way (FLT_MAX when the distance itself
// does not fit in a float).
static inline float lbIkDistance(lbVec3 p, lbVec3 a)
{
	const lbVec3 d = lbSub(p, a);
	if (lbMaxF(lbMaxF(fabsf(d.x), fabsf(d.y)), fabsf(d.z)) < 1.0e15f)
		return lbLength(d);
	const lbVec3 h = lbSub(lbMulSV(0.5f, p), lbMulSV(0.5f, a)); // half the difference: finite
	const float half = lbMaxF(lbMaxF(fabsf(h.x), fabsf(h.y)), fabsf(h.z)) * lbLength(lbIkFarDirection(p, a, 1.0f));
	return half < 0.5f * FLT_MAX ? 2.0f * half : FLT_MAX;
}

// Squared length a bone of a two-bone or FABRIK chain must stay under (1e9 m): the two-bone solve
// squares the bend's normal, |w x v|^2 = |w|^2 |v|^2 sin^2, which overflowed from bones of about
// 4e9 m (a bent chain of 1e10 m bones came out NaN); FABRIK sums its bones' lengths and places
// joints at them.
#define LB_IK_MAX_BONE2 1.0e18f

// Squared distance a bone may lie from its parent (1e15 m): its local, the offset turned into the
// parent's frame, overflows past that.
#define LB_IK_MAX_OFFSET2 1.0e30f

// Whether `bone`'s model position lies less than 1e15 m from its parent's (true for a root or a
// non-finite position, which the finiteness checks report).
static inline bool lbIkNearParent(const lbPose* pose, const lbSkeleton* s, int bone)
{
	const int p = s->parents[bone];
	if (p < 0 || !lbIsValidVec3(pose->model[bone].p))
		return true;
	const lbVec3 d = lbSub(pose->model[bone].p, pose->model[p].p);
	return lbDot(d, d) < LB_IK_MAX_OFFSET2;
}

// Whether every finite child of `bone` keeps a finite local transform under `model` (the bone's new
// model transform) when the children keep their model transforms: one a finite 3e38 m from it, or
// under a bone of tiny scale, overflows to inf and NaN. What a child that is already non-finite
// does is its own.
static inline bool lbIkChildrenStayFinite(const lbPose* pose, const lbSkeleton* s, int bone, const lbTransform* model)
{
	for (int i = bone + 1; i < pose->boneCount; ++i)
		if (s->parents[i] == bone && lbIsValidTransform(pose->model[i]) &&
			!lbIsValidTransform(lbTransformRelative(*model, pose->model[i])))
			return false;
	return true;
}

// Rewrites the locals of `bone`'s children under `model` (the bone's new model transform) so they
// keep their model transforms. Callers check lbIkChildrenStayFinite first.
static inline void lbIkKeepChildren(lbPose* pose, const lbSkeleton* s, int bone, const lbTransform* model)
{
	for (int i = bone + 1; i < pose->boneCount; ++i)
		if (s->parents[i] == bone)
			pose->local[i] = lbTransformRelative(*model, pose->model[i]);
}

// Writes a model transform of `bone` and its local one (relative to the parent's current model).
static inline void lbIkSetModel(lbPose* pose, const lbSkeleton* s, int bone, lbTransform model)
{
	int p = s->parents[bone];
	pose->model[bone] = model;
	if (p == LB_NULL_INDEX)
		pose->local[bone] = model;
	else
		lbIkTransformRelativeTo(&pose->local[bone], &pose->model[p], &pose->model[bone]);
}

// Checks the pose matches the skeleton and every listed bone's transforms are valid.
lbResult lbIkCheckPose(const char* fn, const lbPose* pose, const lbSkeleton* skeleton);

// lbPose_SolveTwoBoneIk without its checks of the call or its result, for a solver inside the
// library that has made them itself: the pose matches the skeleton and holds finite transforms
// with unit rotations, root, mid and end are bones of it forming a chain, and the input is finite.
// Only the joints are checked, as the public call does: false (the error reported, nothing
// written) for a zero-length bone or a zero scale. The pose comes out bit for bit as the public
// call's. `chainOnly` (a caller that poses what hangs from the chain again itself): with mid a
// child of root and end of mid, only the three joints are written, and the other bones below the
// root are left as they were.
bool lbIkSolveTwoBoneTrusted(lbPose* pose, const lbSkeleton* skeleton, int root, int mid, int end,
							 const lbTwoBoneIkInput* input, bool chainOnly);

// lbPose_SolveLimbIk without its checks of the call or its result, on a chain from
// lbHumanoid_GetLimbChain, for a caller that has checked the pose (matching the skeleton, finite,
// unit rotations), the humanoid against the skeleton, the chain's bones (a chain in the skeleton)
// and the input (finite) itself. Only the joints are checked (as the public call does: a
// zero-length bone or a zero scale is an error, nothing written). Without `subtree` the pose comes
// out bit for bit as the public call's. `subtree` (or NULL): every bone below the chain's root, in
// index order, so the bones below it are carried without a look at every bone after the root; the
// three joints then keep the solved model transforms (their locals made from them) rather than
// the products from those locals, the same to rounding.
lbResult lbIkSolveLimbTrusted(lbPose* pose, const lbSkeleton* skeleton, const lbLimbChain* chain,
							  const lbTwoBoneIkInput* input, const int16_t* subtree, int subtreeCount);

// lbSolveTwoBoneIk on the model transforms of a limb's chain of direct parents (mid a child of root,
// end of mid; lbHumanoid_GetLimbChain's bones and axes), for a caller that has checked the pose
// (matching the skeleton, finite) and the input (finite, from lbDefaultTwoBoneIkInput, no target
// rotation, a known pole kind) itself. The limb's hinge and bend axes go into `input` where it leaves
// them zero, as lbPose_SolveLimbIk fills them in (the bend axis only when the input has no hinge and
// none could be made: the solve reads it only then); the joints are checked as the public call checks
// them (false, the error reported and nothing written, for a zero-length bone, a zero scale or a
// rotation that is not unit). The solved transforms become the joints' model transforms, bit for bit
// what lbSolveTwoBoneIk writes on copies of them (not recomposed from the locals), and their locals
// are made relative to their parents. Nothing else below the root is written.
bool lbIkSolveLimbModelTrusted(lbPose* pose, const lbSkeleton* skeleton, const lbLimbChain* chain, lbTwoBoneIkInput* input);

// One vector or quaternion turned by a rotation or transform, bit for bit the math.h functions named
// (the same products and sums in the same order), the vector's three components in the lanes of one
// SSE register: the systems do these several times per limb per frame.

// lbQuatRotate(q, v).
static inline lbVec3 lbIkQuatRotate(lbQuat q, lbVec3 v)
{
#if LB_IK_SSE2
	float r[4];
	_mm_storeu_ps(r, lbIkQuatRotate4(_mm_loadu_ps(&q.x), _mm_setr_ps(v.x, v.y, v.z, 0.0f)));
	return LB_LITERAL(lbVec3){ r[0], r[1], r[2] };
#else
	return lbQuatRotate(q, v);
#endif
}

// lbTransformPoint(*t, p).
static inline lbVec3 lbIkTransformPoint(const lbTransform* t, lbVec3 p)
{
#if LB_IK_SSE2
	float r[4];
	// The scale in lanes 0..2 from the transform's last four floats (q.w, s.x, s.y, s.z).
	const __m128 ws = _mm_loadu_ps(&t->q.w);
	const __m128 sc = _mm_shuffle_ps(ws, ws, _MM_SHUFFLE(0, 3, 2, 1));
	_mm_storeu_ps(r, _mm_add_ps(_mm_loadu_ps(&t->p.x),
								 lbIkQuatRotate4(_mm_loadu_ps(&t->q.x), _mm_mul_ps(sc, _mm_setr_ps(p.x, p.y, p.z, 0.0f)))));
	return LB_LITERAL(lbVec3){ r[0], r[1], r[2] };
#else
	return lbTransformPoint(*t, p);
#endif
}

// lbTransformDirection(*t, d): d's sign flipped on each axis of negative scale (the sign bit alone).
static inline lbVec3 lbIkTransformDirection(const lbTransform* t, lbVec3 d)
{
#if LB_IK_SSE2
	float r[4];
	const __m128 ws = _mm_loadu_ps(&t->q.w);
	const __m128 neg = _mm_and_ps(_mm_cmplt_ps(_mm_shuffle_ps(ws, ws, _MM_SHUFFLE(0, 3, 2, 1)), _mm_setzero_ps()),
								  _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
	_mm_storeu_ps(r, lbIkQuatRotate4(_mm_loadu_ps(&t->q.x), _mm_xor_ps(_mm_setr_ps(d.x, d.y, d.z, 0.0f), neg)));
	return LB_LITERAL(lbVec3){ r[0], r[1], r[2] };
#else
	return lbTransformDirection(*t, d);
#endif
}

// Vectors and rotations of the two-bone solve in registers: with SSE2 one vector or quaternion in
// the lanes of one register (x, y, z in lanes 0..2; a vector's lane 3 is any finite value and never
// read), otherwise lbVec3 and lbQuat. Each operation gives the bits of the math.h function it stands
// for (the same products and sums in the same order): the scalar code moved every component through
// its own register, about as many moves and shuffles as arithmetic.
#if LB_IK_SSE2
typedef __m128 lbIkV;
typedef __m128 lbIkQ;

// *p and the float after it (the callers' vectors are followed by another field of their struct).
static inline lbIkV lbIkVLoad(const lbVec3* p)
{
	return _mm_loadu_ps(&p->x);
}

static inline lbIkV lbIkVSet(lbVec3 v)
{
	return _mm_setr_ps(v.x, v.y, v.z, 0.0f);
}

static inline lbVec3 lbIkVGet(lbIkV v)
{
	float f[4];
	_mm_storeu_ps(f, v);
	return LB_LITERAL(lbVec3){ f[0], f[1], f[2] };
}

static inline lbIkV lbIkVZero(void)
{
	return _mm_setzero_ps();
}

static inline lbIkV lbIkVAdd(lbIkV a, lbIkV b)
{
	return _mm_add_ps(a, b);
}

static inline lbIkV lbIkVSub(lbIkV a, lbIkV b)
{
	return _mm_sub_ps(a, b);
}

// s v (lbMulSV).
static inline lbIkV lbIkVScale(float s, lbIkV v)
{
	return _mm_mul_ps(_mm_set1_ps(s), v);
}

// a + s b (lbMulAdd).
static inline lbIkV lbIkVMulAdd(lbIkV a, float s, lbIkV b)
{
	return _mm_add_ps(a, _mm_mul_ps(_mm_set1_ps(s), b));
}

static inline lbIkV lbIkVNeg(lbIkV a)
{
	return _mm_xor_ps(a, _mm_set1_ps(-0.0f));
}

// A float in lane 0 of a register, the other lanes whatever they hold: a dot product's sum left
// where it was made, for a root taken of it (whose operand then needs no broadcast from a float,
// a copy and a shuffle; a root of lane 0 reads no other lane).
typedef __m128 lbIkF1;

// lbDot in lane 0: (x + y) + z of the products. The first sum is made as y + x (addition
// commutes, the same bits) into the shuffled copy, so that the products need no second copy to
// add into.
static inline lbIkF1 lbIkVDot1(lbIkV a, lbIkV b)
{
	const __m128 m = _mm_mul_ps(a, b);
	const __m128 s = _mm_add_ss(LB_IK_SWIZZLE(m, _MM_SHUFFLE(1, 1, 1, 1)), m);
	return _mm_add_ss(s, _mm_movehl_ps(m, m));
}

static inline float lbIkF1Get(lbIkF1 x)
{
	return _mm_cvtss_f32(x);
}

// lbIkSqrtF and lbIkRsqrtF of lane 0 (the same bits).
static inline float lbIkSqrt1(lbIkF1 x)
{
	return _mm_cvtss_f32(_mm_sqrt_ss(x));
}

static inline float lbIkRsqrt1(lbIkF1 x)
{
	const float r = _mm_cvtss_f32(_mm_rsqrt_ss(x)), x0 = _mm_cvtss_f32(x);
	return r * (1.5f - 0.5f * x0 * r * r);
}

static inline float lbIkVDot(lbIkV a, lbIkV b)
{
	return _mm_cvtss_f32(lbIkVDot1(a, b));
}

// lbMaxF(s x, lo) for x in lane 0, the same bits: maxss keeps its first operand when that is the
// greater, as lbMaxF does, in one instruction where lbMaxF's comparison compiles to a compare and
// a branch.
static inline float lbIkMaxScaled1(lbIkF1 x, float s, float lo)
{
	return _mm_cvtss_f32(_mm_max_ss(_mm_mul_ss(x, _mm_set_ss(s)), _mm_set_ss(lo)));
}

static inline lbIkV lbIkVCross(lbIkV a, lbIkV b)
{
	return lbIkCross4(a, LB_IK_SWIZZLE(a, _MM_SHUFFLE(3, 0, 2, 1)), b);
}

// a's lanes turned to (y, z, x), for several cross products with a on the left.
static inline lbIkV lbIkVYzx(lbIkV a)
{
	return LB_IK_SWIZZLE(a, _MM_SHUFFLE(3, 0, 2, 1));
}

// a x b (lbIkVCross) with aYzx = lbIkVYzx(a).
static inline lbIkV lbIkVCrossYzx(lbIkV a, lbIkV aYzx, lbIkV b)
{
	return lbIkCross4(a, aYzx, b);
}

// b x a (lbIkVCross(b, a), the same bits: each product commutes) with aYzx = lbIkVYzx(a), from a's
// lanes turned once for several products.
static inline lbIkV lbIkVCrossYzxRight(lbIkV a, lbIkV aYzx, lbIkV b)
{
	const __m128 bYzx = LB_IK_SWIZZLE(b, _MM_SHUFFLE(3, 0, 2, 1));
	const __m128 c = _mm_sub_ps(_mm_mul_ps(aYzx, b), _mm_mul_ps(a, bYzx));
	return LB_IK_SWIZZLE(c, _MM_SHUFFLE(3, 0, 2, 1));
}

// Some lane of 0..2 is not zero (a NaN counts as not zero).
static inline bool lbIkVAnyNonZero(lbIkV a)
{
	return (_mm_movemask_ps(_mm_cmpneq_ps(a, _mm_setzero_ps())) & 7) != 0;
}

static inline lbIkQ lbIkQLoad(const lbQuat* q)
{
	return _mm_loadu_ps(&q->x);
}

static inline void lbIkQStore(lbQuat* out, lbIkQ q)
{
	_mm_storeu_ps(&out->x, q);
}

static inline lbIkQ lbIkQSet(lbQuat q)
{
	return _mm_loadu_ps(&q.x);
}

static inline lbQuat lbIkQGet(lbIkQ q)
{
	lbQuat r;
	_mm_storeu_ps(&r.x, q);
	return r;
}

// (v's x, y, z, w).
static inline lbIkQ lbIkQFromVW(lbIkV v, float w)
{
	const __m128 t = _mm_unpackhi_ps(v, _mm_set1_ps(w)); // v.z, w, ., w
	return _mm_shuffle_ps(v, t, _MM_SHUFFLE(1, 0, 1, 0));
}

// lbQuatDot: ((x + y) + z) + w of the products.
// lbIkQDot in lane 0 (see lbIkF1).
static inline lbIkF1 lbIkQDot1(lbIkQ a, lbIkQ b)
{
	const __m128 m = _mm_mul_ps(a, b);
	__m128 s = _mm_add_ss(LB_IK_SWIZZLE(m, _MM_SHUFFLE(1, 1, 1, 1)), m); // y + x, as in lbIkVDot
	s = _mm_add_ss(s, _mm_movehl_ps(m, m));
	return _mm_add_ss(s, _mm_shuffle_ps(m, m, _MM_SHUFFLE(3, 3, 3, 3)));
}

static inline float lbIkQDot(lbIkQ a, lbIkQ b)
{
	return _mm_cvtss_f32(lbIkQDot1(a, b));
}

static inline lbIkQ lbIkQScale(lbIkQ q, float s)
{
	return _mm_mul_ps(q, _mm_set1_ps(s));
}

// lbQuatMul(a, b).
static inline lbIkQ lbIkQMul(lbIkQ a, lbIkQ b)
{
	return lbIkQuatMul4(a, b);
}

// lbQuatRotate(q, v).
static inline lbIkV lbIkQRotate(lbIkQ q, lbIkV v)
{
	return lbIkQuatRotate4(q, v);
}

// lbQuatConj(q).
static inline lbIkQ lbIkQConj(lbIkQ q)
{
	return _mm_xor_ps(q, _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
}

// A left factor a of Hamilton products a b, for several products with the same a: its components
// broadcast, x, y and z with the signs lbIkQuatMul4 puts on b's permuted lanes (a sign moves across
// a product exactly), made once. The products are lbIkQuatMul4's, bit for bit.
typedef struct lbIkQLeft
{
	__m128 w, x, y, z;
} lbIkQLeft;

static inline lbIkQLeft lbIkQLeftOf(lbIkQ a)
{
	const __m128 s1 = _mm_castsi128_ps(_mm_set_epi32((int)0x80000000, 0, (int)0x80000000, 0)); // + - + -
	const __m128 s2 = _mm_castsi128_ps(_mm_set_epi32((int)0x80000000, (int)0x80000000, 0, 0)); // + + - -
	const __m128 s3 = _mm_castsi128_ps(_mm_set_epi32((int)0x80000000, 0, 0, (int)0x80000000)); // - + + -
	lbIkQLeft l;
	l.w = _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 3, 3, 3));
	l.x = _mm_xor_ps(_mm_shuffle_ps(a, a, _MM_SHUFFLE(0, 0, 0, 0)), s1);
	l.y = _mm_xor_ps(_mm_shuffle_ps(a, a, _MM_SHUFFLE(1, 1, 1, 1)), s2);
	l.z = _mm_xor_ps(_mm_shuffle_ps(a, a, _MM_SHUFFLE(2, 2, 2, 2)), s3);
	return l;
}

static inline lbIkQ lbIkQMulLeft(const lbIkQLeft* l, lbIkQ b)
{
	__m128 r = _mm_mul_ps(l->w, b);
	r = _mm_add_ps(r, _mm_mul_ps(l->x, LB_IK_SWIZZLE(b, _MM_SHUFFLE(0, 1, 2, 3))));
	r = _mm_add_ps(r, _mm_mul_ps(l->y, LB_IK_SWIZZLE(b, _MM_SHUFFLE(1, 0, 3, 2))));
	return _mm_add_ps(r, _mm_mul_ps(l->z, LB_IK_SWIZZLE(b, _MM_SHUFFLE(2, 3, 0, 1))));
}
#else
typedef lbVec3 lbIkV;
typedef lbQuat lbIkQ;
static inline lbIkV lbIkVLoad(const lbVec3* p) { return *p; }
static inline lbIkV lbIkVSet(lbVec3 v) { return v; }
static inline lbVec3 lbIkVGet(lbIkV v) { return v; }
static inline lbIkV lbIkVZero(void) { return lbVec3_zero; }
static inline lbIkV lbIkVAdd(lbIkV a, lbIkV b) { return lbAdd(a, b); }
static inline lbIkV lbIkVSub(lbIkV a, lbIkV b) { return lbSub(a, b); }
static inline lbIkV lbIkVScale(float s, lbIkV v) { return lbMulSV(s, v); }
static inline lbIkV lbIkVMulAdd(lbIkV a, float s, lbIkV b) { return lbMulAdd(a, s, b); }
static inline lbIkV lbIkVNeg(lbIkV a) { return lbNeg(a); }
static inline float lbIkVDot(lbIkV a, lbIkV b) { return lbDot(a, b); }
typedef float lbIkF1;
static inline lbIkF1 lbIkVDot1(lbIkV a, lbIkV b) { return lbDot(a, b); }
static inline float lbIkF1Get(lbIkF1 x) { return x; }
static inline float lbIkSqrt1(lbIkF1 x) { return lbIkSqrtF(x); }
static inline float lbIkRsqrt1(lbIkF1 x) { return lbIkRsqrtF(x); }
static inline float lbIkMaxScaled1(lbIkF1 x, float s, float lo) { return lbMaxF(s * x, lo); }
static inline lbIkV lbIkVCross(lbIkV a, lbIkV b) { return lbCross(a, b); }
static inline lbIkV lbIkVYzx(lbIkV a) { return a; }
static inline lbIkV lbIkVCrossYzx(lbIkV a, lbIkV aYzx, lbIkV b) { (void)aYzx; return lbCross(a, b); }
static inline lbIkV lbIkVCrossYzxRight(lbIkV a, lbIkV aYzx, lbIkV b) { (void)aYzx; return lbCross(b, a); }
static inline bool lbIkVAnyNonZero(lbIkV a) { return a.x != 0.0f || a.y != 0.0f || a.z != 0.0f; }
static inline lbIkQ lbIkQLoad(const lbQuat* q) { return *q; }
static inline void lbIkQStore(lbQuat* out, lbIkQ q) { *out = q; }
static inline lbIkQ lbIkQSet(lbQuat q) { return q; }
static inline lbQuat lbIkQGet(lbIkQ q) { return q; }
static inline lbIkQ lbIkQFromVW(lbIkV v, float w) { return LB_LITERAL(lbQuat){ v.x, v.y, v.z, w }; }
static inline float lbIkQDot(lbIkQ a, lbIkQ b) { return lbQuatDot(a, b); }
static inline lbIkF1 lbIkQDot1(lbIkQ a, lbIkQ b) { return lbQuatDot(a, b); }
static inline lbIkQ lbIkQScale(lbIkQ q, float s) { return LB_LITERAL(lbQuat){ q.x * s, q.y * s, q.z * s, q.w * s }; }
static inline lbIkQ lbIkQMul(lbIkQ a, lbIkQ b) { return lbQuatMul(a, b); }
static inline lbIkV lbIkQRotate(lbIkQ q, lbIkV v) { return lbQuatRotate(q, v); }
static inline lbIkQ lbIkQConj(lbIkQ q) { return lbQuatConj(q); }
typedef struct lbIkQLeft
{
	lbQuat a;
} lbIkQLeft;
static inline lbIkQLeft lbIkQLeftOf(lbIkQ a) { return LB_LITERAL(lbIkQLeft){ a }; }
static inline lbIkQ lbIkQMulLeft(const lbIkQLeft* l, lbIkQ b) { return lbQuatMul(l->a, b); }
#endif
