// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Two-bone IK for many chains: chains the lanes can take are gathered 8 or 16 at a time into a
// structure of arrays (one array per coordinate), solved by the kernel in two_bone_batch_kernel.h
// and scattered back; the others go through lbSolveTwoBoneIk, which also reports bad input. The
// kernel is compiled twice from one text: on core/simd.h's vector lanes and on plain floats.
//
// With LIMBER_SIMD=auto (the default on x86-64 with GCC or Clang) this whole file is compiled a
// second time for AVX2 (two_bone_batch_avx2.c, LB_TB_AVX2_COPY), and lbSolveTwoBoneIkBatch runs that
// copy on processors that have AVX2: a portable build then solves 16 legs a call instead of 8 where
// it can, to the same bits (the operations are the same IEEE ones at every width).
#include "core/bits.h"
#include "core/simd.h"
#include "ik_batch_internal.h"
#include "ik_internal.h"

// Lanes gathered per kernel call: two vectors' worth on AVX2 (see lbSimd2F), eight otherwise.
#if defined(LB_SIMD_SCALAR_ONLY)
#define LB_TB_LANES 8
#else
#define LB_TB_LANES (LB_SIMD2_WIDTH > 8 ? LB_SIMD2_WIDTH : 8)
#endif

typedef struct lbTwoBoneLanes
{
	// Inputs: root, mid and end positions and rotations, target, hinge axis, soften. Every row is
	// a whole number of 32-byte vectors and the first is aligned to 32 bytes, so the kernel's loads
	// are aligned ones (which SSE can fold into the arithmetic).
	_Alignas(32) float a[3][LB_TB_LANES], m[3][LB_TB_LANES], e[3][LB_TB_LANES];
	float qa[4][LB_TB_LANES], qm[4][LB_TB_LANES], qe[4][LB_TB_LANES];
	float t[3][LB_TB_LANES], hinge[3][LB_TB_LANES], soften[LB_TB_LANES];
	// The scales are only checked (the single solve refuses a zero or non-finite one): the least
	// square of the nine components of root, mid and end.
	float scale2[LB_TB_LANES];
	// A sum of the positions, target, hinge axis, soften and scales, made as they are gathered: not
	// finite when one of them is not (or when it overflows: the lane then goes to the single solve).
	float sum[LB_TB_LANES];
	// Outputs: root rotation, mid position and rotation, end position and rotation.
	float oqa[4][LB_TB_LANES], omp[3][LB_TB_LANES], oqm[4][LB_TB_LANES], oep[3][LB_TB_LANES], oqe[4][LB_TB_LANES];
	// Nonzero where the lane needs the single solve after all (a chain turned nearly opposite).
	float fallback[LB_TB_LANES];
} lbTwoBoneLanes;

// The kernel's constants (LBK_K(name)): a list, made into an enum of names, one float each for the
// scalar path and a row of lanes each for the vector one.
#define LB_TB_KLIST(X)                                                                                                 \
	X(One, 1.0f)                                                                                                       \
	X(Two, 2.0f)                                                                                                       \
	X(Half, 0.5f)                                                                                                      \
	X(Tiny, 1.0e-12f)                                                                                                  \
	X(Hinge, 1.0e-14f)                                                                                                 \
	X(Straight, 1.0e-8f)                                                                                               \
	X(Floor, 1.0e-30f)                                                                                                 \
	X(Minus1, -1.0f)                                                                                                   \
	X(Short, 1.0e-6f)                                                                                                  \
	X(Far, -0.99f)                                                                                                     \
	X(Scale2, LB_EPSILON * LB_EPSILON)                                                                                 \
	X(NormLo, 0.98f)                                                                                                   \
	X(NormHi, 1.02f)                                                                                                   \
	X(C1, -0.5f)                                                                                                       \
	X(C2, 0.375f)                                                                                                      \
	X(C3, 0.3125f)                                                                                                     \
	X(Sixteenth, 0.0625f)
#define LB_TB_KENUM(n_, v_) lbTbK##n_,
#define LB_TB_KVALUE(n_, v_) v_,
enum
{
	LB_TB_KLIST(LB_TB_KENUM) lbTbKCount
};
static const float lbTwoBoneKScalar[lbTbKCount] = { LB_TB_KLIST(LB_TB_KVALUE) };

#define LBK(op) lbScalar##op
#define LBK_T lbScalarF
#define LBK_W 1
#define LBK_NAME lbTwoBoneLanesScalar
#define LBK_KDECL
#define LBK_K(n_) lbScalarSet1(lbTwoBoneKScalar[lbTbK##n_])
#include "two_bone_batch_kernel.h"
#undef LBK
#undef LBK_T
#undef LBK_W
#undef LBK_NAME
#undef LBK_KDECL
#undef LBK_K

#if !defined(LB_SIMD_SCALAR_ONLY)
// Rows of eight (AVX2's width; SSE2 reads the first four), aligned for the widest load.
#define LB_TB_KROW(n_, v_) { v_, v_, v_, v_, v_, v_, v_, v_ },
_Alignas(32) static const float lbTwoBoneKLanes[lbTbKCount][8] = { LB_TB_KLIST(LB_TB_KROW) };
#undef LB_TB_KROW

// The table with its values hidden from the compiler: each constant is then a load from it, which
// the instruction that reads it can take as its memory operand. GCC makes a known constant a
// scalar load and a shuffle at every use instead (about 7 instructions a leg).
static inline const float (*lbTwoBoneKTable(void))[8]
{
	const float(*t)[8] = lbTwoBoneKLanes;
#if defined(__GNUC__) || defined(__clang__)
	__asm__("" : "+r"(t));
#endif
	return t;
}

static inline lbSimd2F lbTwoBoneKDup(lbSimdF v)
{
	const lbSimd2F r = { v, v };
	return r;
}

#define LBK(op) lbSimd2##op
#define LBK_T lbSimd2F
#define LBK_W LB_SIMD2_WIDTH
#define LBK_NAME lbTwoBoneLanesSimd
#define LBK_KDECL const float(*kTable)[8] = lbTwoBoneKTable();
#define LBK_K(n_) lbTwoBoneKDup(lbSimdLoadA(kTable[lbTbK##n_]))
#include "two_bone_batch_kernel.h"
#undef LBK
#undef LBK_T
#undef LBK_W
#undef LBK_NAME
#undef LBK_KDECL
#undef LBK_K
#endif
#undef LB_TB_KENUM
#undef LB_TB_KVALUE
#undef LB_TB_KLIST

// Whether the lanes take this chain: the kinds of solve they do. The lanes check the numbers
// themselves and hand anything they cannot solve (or the single solve would refuse)
// back to lbSolveTwoBoneIk.
static bool lbTwoBoneLaneable(const lbTwoBoneIkInput* in)
{
	if (in->internalValue != LB_SECRET_COOKIE || in->poleKind != lb_poleNone || in->stretch)
		return false;
	if (in->useTargetRotation)
	{
		// The end takes the target rotation: it must pass the single solve's unit test.
		const lbQuat q = in->targetRotationMs;
		const float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
		if (!(n > 0.98f && n < 1.02f))
			return false;
	}
	// The numbers the lanes do not read must be finite: x * 0 is 0 for finite x and NaN otherwise.
	// (The four-lane gather checks them four chains at a time.)
#if defined(LB_SIMD_SSE)
	return in->weight >= 1.0f;
#else
	const float probe = (in->weight - in->weight) + (in->maxStretch - in->maxStretch) + (in->tolerance - in->tolerance) +
						(in->bendHintMs.x - in->bendHintMs.x) + (in->bendHintMs.y - in->bendHintMs.y) +
						(in->bendHintMs.z - in->bendHintMs.z);
	return in->weight >= 1.0f && probe == 0.0f;
#endif
}

#if defined(LB_SIMD_SSE)
// The target rotations of the LB_TB_LANES chains from `in` on: true when those taken pass the
// single solve's unit test (lbTwoBoneLaneable's), with bit k of *rotations set where chain k takes
// one. Out of line: the test of the group reads each flag once, and only a group with a target
// rotation comes here.
static LB_NOINLINE bool lbTwoBoneRunRotations(const lbTwoBoneIkInput* in, unsigned* rotations)
{
	unsigned r = 0u;
	for (int k = 0; k < LB_TB_LANES; ++k)
	{
		if (!in[k].useTargetRotation)
			continue;
		const lbQuat q = in[k].targetRotationMs;
		const float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
		if (!(n > 0.98f && n < 1.02f))
			return false;
		r |= 1u << k;
	}
	*rotations = r;
	return true;
}
#endif

// Whether the lanes take each of the LB_TB_LANES chains from `in` on (lbTwoBoneLaneable for each):
// the usual batch, gathered and written back at fixed offsets with no per-chain bookkeeping. Bit k
// of *rotations is set where chain k takes its target rotation. With SSE2 the tests are or-ed and
// and-ed together, one branch for the group (a bool is 0 or 1, a pole kind 0 for none).
static bool lbTwoBoneRunLaneable(const lbTwoBoneIkInput* in, unsigned* rotations)
{
#if defined(LB_SIMD_SSE)
	// Every cookie is LB_SECRET_COOKIE when their OR and their AND both are; the weights are compared
	// four at a time.
	unsigned bad = 0u, flags = 0u, cookieOr = 0u, cookieAnd = ~0u;
	__m128 heavy = _mm_castsi128_ps(_mm_set1_epi32(-1));
	for (int k = 0; k < LB_TB_LANES; k += 4)
		heavy = _mm_and_ps(heavy, _mm_cmpge_ps(_mm_setr_ps(in[k].weight, in[k + 1].weight, in[k + 2].weight, in[k + 3].weight),
											   _mm_set1_ps(1.0f)));
	for (int k = 0; k < LB_TB_LANES; ++k)
	{
		cookieOr |= (unsigned)in[k].internalValue, cookieAnd &= (unsigned)in[k].internalValue;
		// A bool is 0 or 1: stretch in bit 0, the target rotation in bit 8.
		flags |= (unsigned)in[k].stretch | ((unsigned)in[k].useTargetRotation << 8);
		bad |= (unsigned)in[k].poleKind;
	}
	const unsigned any = flags >> 8;
	if ((bad | (flags & 0xFFu) | (cookieOr ^ LB_SECRET_COOKIE) | (cookieAnd ^ LB_SECRET_COOKIE)) != 0u ||
		_mm_movemask_ps(heavy) != 0xF)
		return false;
	*rotations = 0u;
	return any == 0u || lbTwoBoneRunRotations(in, rotations);
#else
	unsigned r = 0u;
	for (int k = 0; k < LB_TB_LANES; ++k)
	{
		if (!lbTwoBoneLaneable(&in[k]))
			return false;
		r |= (unsigned)in[k].useTargetRotation << k;
	}
	*rotations = r;
	return true;
#endif
}

#if !defined(LB_SIMD_SSE)
static void lbTwoBoneLaneIn(lbTwoBoneLanes* L, int k, const lbTransform* r, const lbTransform* m, const lbTransform* e,
							const lbTwoBoneIkInput* in)
{
	L->a[0][k] = r->p.x, L->a[1][k] = r->p.y, L->a[2][k] = r->p.z;
	L->m[0][k] = m->p.x, L->m[1][k] = m->p.y, L->m[2][k] = m->p.z;
	L->e[0][k] = e->p.x, L->e[1][k] = e->p.y, L->e[2][k] = e->p.z;
	L->qa[0][k] = r->q.x, L->qa[1][k] = r->q.y, L->qa[2][k] = r->q.z, L->qa[3][k] = r->q.w;
	L->qm[0][k] = m->q.x, L->qm[1][k] = m->q.y, L->qm[2][k] = m->q.z, L->qm[3][k] = m->q.w;
	L->qe[0][k] = e->q.x, L->qe[1][k] = e->q.y, L->qe[2][k] = e->q.z, L->qe[3][k] = e->q.w;
	L->t[0][k] = in->targetMs.x, L->t[1][k] = in->targetMs.y, L->t[2][k] = in->targetMs.z;
	L->hinge[0][k] = in->hingeAxisMs.x, L->hinge[1][k] = in->hingeAxisMs.y, L->hinge[2][k] = in->hingeAxisMs.z;
	L->soften[k] = in->soften;
	const lbVec3 s2[3] = { lbMulVV(r->s, r->s), lbMulVV(m->s, m->s), lbMulVV(e->s, e->s) };
	float least = s2[0].x;
	for (int j = 0; j < 3; ++j)
		least = lbScalarMin(lbScalarMin(lbScalarMin(least, s2[j].x), s2[j].y), s2[j].z);
	L->scale2[k] = least;
	const lbVec3 ps = lbAdd(lbAdd(r->p, m->p), lbAdd(e->p, in->targetMs));
	const lbVec3 ss = lbAdd(lbAdd(r->s, m->s), lbAdd(e->s, in->hingeAxisMs));
	L->sum[k] = (ps.x + ps.y) + (ps.z + in->soften) + ((ss.x + ss.y) + ss.z);
}
#endif

#if defined(LB_SIMD_SSE)
// Lanes k..k+3 of p (three rows), q (four) and s (three) from four transforms: each transform's ten
// floats as three four-float loads (floats 0..3, 4..7 and 6..9, all inside it), transposed. Returns
// the sum of the position and scale rows (see lbTwoBoneLanes's sum).
static inline __m128 lbTwoBoneLanesIn4(float (*p)[LB_TB_LANES], float (*q)[LB_TB_LANES], __m128* s2, int k,
							  const lbTransform* t0, const lbTransform* t1, const lbTransform* t2, const lbTransform* t3)
{
	const float* f[4] = { &t0->p.x, &t1->p.x, &t2->p.x, &t3->p.x };
	__m128 r0 = _mm_loadu_ps(f[0]), r1 = _mm_loadu_ps(f[1]), r2 = _mm_loadu_ps(f[2]), r3 = _mm_loadu_ps(f[3]);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3); // p.x, p.y, p.z, q.x
	_mm_storeu_ps(&p[0][k], r0), _mm_storeu_ps(&p[1][k], r1), _mm_storeu_ps(&p[2][k], r2), _mm_storeu_ps(&q[0][k], r3);
	const __m128 psum = _mm_add_ps(_mm_add_ps(r0, r1), r2);
	r0 = _mm_loadu_ps(f[0] + 4), r1 = _mm_loadu_ps(f[1] + 4), r2 = _mm_loadu_ps(f[2] + 4), r3 = _mm_loadu_ps(f[3] + 4);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3); // q.y, q.z, q.w, s.x
	_mm_storeu_ps(&q[1][k], r0), _mm_storeu_ps(&q[2][k], r1), _mm_storeu_ps(&q[3][k], r2);
	const __m128 sxs = r3;
	// q.w, s.x, s.y, s.z: half a transpose gives the two rows wanted.
	r0 = _mm_loadu_ps(f[0] + 6), r1 = _mm_loadu_ps(f[1] + 6), r2 = _mm_loadu_ps(f[2] + 6), r3 = _mm_loadu_ps(f[3] + 6);
	const __m128 hi01 = _mm_unpackhi_ps(r0, r1), hi23 = _mm_unpackhi_ps(r2, r3);
	const __m128 sy = _mm_movelh_ps(hi01, hi23), sz = _mm_movehl_ps(hi23, hi01);
	// minps passes a NaN on (the sum catches it).
	*s2 = _mm_min_ps(*s2, _mm_min_ps(_mm_mul_ps(sxs, sxs), _mm_min_ps(_mm_mul_ps(sy, sy), _mm_mul_ps(sz, sz))));
	return _mm_add_ps(_mm_add_ps(psum, sxs), _mm_add_ps(sy, sz));
}

// The gathers' loads, transposes and stores are ordered by GCC's register-pressure-aware scheduler
// before registers are allocated: without it the three transforms' loads are hoisted together and
// their rows spill (8 instructions a leg).
#if defined(__GNUC__) && !defined(__clang__)
#define LB_TB_GATHER __attribute__((optimize("schedule-insns", "sched-pressure")))
#else
#define LB_TB_GATHER
#endif

// 0, 1, 2, 3: the indices of four chains that follow one another.
static const int lbTwoBoneRun4[4] = { 0, 1, 2, 3 };

// The four-lane gathers and scatters below are inlined into the two callers of each: one reads the
// chains' indices, the other takes chains that follow one another, whose offsets are then
// constants (no index read, no multiply).

// lbTwoBoneLaneIn for lanes k..k+3 (chains ix[0..3]), by four-by-four transposes.
static LB_ALWAYS_INLINE void lbTwoBoneLaneIn4(lbTwoBoneLanes* L, int k, const int* ix, const lbTransform* r, const lbTransform* m,
								   const lbTransform* e, const lbTwoBoneIkInput* in)
{
	const int i0 = ix[0], i1 = ix[1], i2 = ix[2], i3 = ix[3];
	__m128 least = _mm_set1_ps(INFINITY);
	__m128 sum = lbTwoBoneLanesIn4(L->a, L->qa, &least, k, &r[i0], &r[i1], &r[i2], &r[i3]);
	sum = _mm_add_ps(sum, lbTwoBoneLanesIn4(L->m, L->qm, &least, k, &m[i0], &m[i1], &m[i2], &m[i3]));
	sum = _mm_add_ps(sum, lbTwoBoneLanesIn4(L->e, L->qe, &least, k, &e[i0], &e[i1], &e[i2], &e[i3]));
	_mm_storeu_ps(&L->scale2[k], least);
	// The target and the hinge axis are each three floats followed by another field of the input.
	__m128 r0 = _mm_loadu_ps(&in[i0].targetMs.x), r1 = _mm_loadu_ps(&in[i1].targetMs.x),
		   r2 = _mm_loadu_ps(&in[i2].targetMs.x), r3 = _mm_loadu_ps(&in[i3].targetMs.x);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	_mm_storeu_ps(&L->t[0][k], r0), _mm_storeu_ps(&L->t[1][k], r1), _mm_storeu_ps(&L->t[2][k], r2);
	sum = _mm_add_ps(sum, _mm_add_ps(_mm_add_ps(r0, r1), r2));
	r0 = _mm_loadu_ps(&in[i0].hingeAxisMs.x), r1 = _mm_loadu_ps(&in[i1].hingeAxisMs.x);
	r2 = _mm_loadu_ps(&in[i2].hingeAxisMs.x), r3 = _mm_loadu_ps(&in[i3].hingeAxisMs.x);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	_mm_storeu_ps(&L->hinge[0][k], r0), _mm_storeu_ps(&L->hinge[1][k], r1), _mm_storeu_ps(&L->hinge[2][k], r2);
	sum = _mm_add_ps(sum, _mm_add_ps(_mm_add_ps(r0, r1), r2));
	// The numbers the lanes do not read must be finite too: the bend hint and the weight (four
	// consecutive floats), maxStretch and tolerance (two of the four from soften on, with stretch, a
	// bool and padding, masked out; asserted in two_bone.c). Summed over the four chains, times 0 (0
	// for finite x, NaN otherwise), and spread to every lane: one number not finite (or a sum that
	// overflows) sends all four chains to the single solve, which sorts them out.
	__m128 rest = _mm_add_ps(_mm_add_ps(_mm_loadu_ps(&in[i0].bendHintMs.x), _mm_loadu_ps(&in[i1].bendHintMs.x)),
							 _mm_add_ps(_mm_loadu_ps(&in[i2].bendHintMs.x), _mm_loadu_ps(&in[i3].bendHintMs.x)));
	const __m128 s0 = _mm_loadu_ps(&in[i0].soften), s1 = _mm_loadu_ps(&in[i1].soften), s2 = _mm_loadu_ps(&in[i2].soften),
				 s3 = _mm_loadu_ps(&in[i3].soften);
	// Soften is the first float of each: half a transpose gathers it.
	const __m128 soften = _mm_movelh_ps(_mm_unpacklo_ps(s0, s1), _mm_unpacklo_ps(s2, s3));
	_mm_storeu_ps(&L->soften[k], soften);
	const __m128 tail = _mm_add_ps(_mm_add_ps(s0, s1), _mm_add_ps(s2, s3));
	rest = _mm_mul_ps(_mm_add_ps(rest, _mm_and_ps(tail, _mm_castsi128_ps(_mm_set_epi32(-1, -1, 0, -1)))), _mm_setzero_ps());
	rest = _mm_add_ps(rest, _mm_shuffle_ps(rest, rest, _MM_SHUFFLE(1, 0, 3, 2)));
	rest = _mm_add_ps(rest, _mm_shuffle_ps(rest, rest, _MM_SHUFFLE(2, 3, 0, 1)));
	_mm_storeu_ps(&L->sum[k], _mm_add_ps(_mm_add_ps(sum, rest), soften));
}

// Every lane from the chains idx[0..LB_TB_LANES-1].
LB_TB_GATHER static void lbTwoBoneLanesIn(lbTwoBoneLanes* L, const int* idx, const lbTransform* r, const lbTransform* m,
							 const lbTransform* e, const lbTwoBoneIkInput* in)
{
	for (int k = 0; k < LB_TB_LANES; k += 4)
		lbTwoBoneLaneIn4(L, k, idx + k, r, m, e, in);
}

// Every lane from the chains r[0..LB_TB_LANES-1] (and m, e, in alike).
LB_TB_GATHER static void lbTwoBoneLanesInRun(lbTwoBoneLanes* L, const lbTransform* r, const lbTransform* m, const lbTransform* e,
								const lbTwoBoneIkInput* in)
{
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 1
#endif
	for (int k = 0; k < LB_TB_LANES; k += 4)
		lbTwoBoneLaneIn4(L, k, lbTwoBoneRun4, r + k, m + k, e + k, in + k);
}

// Writes lanes k..k+3 back to their chains ix[0..3] (none needs the single solve) by four-by-four
// transposes: the root's rotation (floats 3..6 of its transform), the mid's and the end's position and
// rotation (floats 0..3, the fourth the rotation's x, then the rotation over it, floats 3..6).
static LB_ALWAYS_INLINE void lbTwoBoneLaneOut4(const lbTwoBoneLanes* L, int k, const int* ix, lbTransform* r, lbTransform* m,
									lbTransform* e)
{
	const int i0 = ix[0], i1 = ix[1], i2 = ix[2], i3 = ix[3];
	__m128 r0 = _mm_loadu_ps(&L->oqa[0][k]), r1 = _mm_loadu_ps(&L->oqa[1][k]), r2 = _mm_loadu_ps(&L->oqa[2][k]),
		   r3 = _mm_loadu_ps(&L->oqa[3][k]);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	_mm_storeu_ps(&r[i0].q.x, r0), _mm_storeu_ps(&r[i1].q.x, r1), _mm_storeu_ps(&r[i2].q.x, r2), _mm_storeu_ps(&r[i3].q.x, r3);
	for (int j = 0; j < 2; ++j)
	{
		lbTransform* t = j == 0 ? m : e;
		const float(*pos)[LB_TB_LANES] = j == 0 ? L->omp : L->oep;
		const float(*rot)[LB_TB_LANES] = j == 0 ? L->oqm : L->oqe;
		r0 = _mm_loadu_ps(&pos[0][k]), r1 = _mm_loadu_ps(&pos[1][k]), r2 = _mm_loadu_ps(&pos[2][k]), r3 = _mm_loadu_ps(&rot[0][k]);
		_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
		_mm_storeu_ps(&t[i0].p.x, r0), _mm_storeu_ps(&t[i1].p.x, r1), _mm_storeu_ps(&t[i2].p.x, r2), _mm_storeu_ps(&t[i3].p.x, r3);
		r0 = _mm_loadu_ps(&rot[0][k]), r1 = _mm_loadu_ps(&rot[1][k]), r2 = _mm_loadu_ps(&rot[2][k]), r3 = _mm_loadu_ps(&rot[3][k]);
		_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
		_mm_storeu_ps(&t[i0].q.x, r0), _mm_storeu_ps(&t[i1].q.x, r1), _mm_storeu_ps(&t[i2].q.x, r2), _mm_storeu_ps(&t[i3].q.x, r3);
	}
}

// endMs[ix[j]].q = lbQuatNormalize(in[ix[j]].targetRotationMs) for j = 0..3, bit for bit: the four
// rotations transposed into lanes, the same squares summed in the same order, the same root, test,
// reciprocal and products, identity where the length fails the test.
static LB_ALWAYS_INLINE void lbTwoBoneTargetRotations4(const int* ix, lbTransform* e, const lbTwoBoneIkInput* in)
{
	__m128 x = _mm_loadu_ps(&in[ix[0]].targetRotationMs.x), y = _mm_loadu_ps(&in[ix[1]].targetRotationMs.x),
		   z = _mm_loadu_ps(&in[ix[2]].targetRotationMs.x), w = _mm_loadu_ps(&in[ix[3]].targetRotationMs.x);
	_MM_TRANSPOSE4_PS(x, y, z, w);
	const __m128 n =
		_mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z)), _mm_mul_ps(w, w)));
	const __m128 ok = _mm_and_ps(_mm_cmpgt_ps(n, _mm_set1_ps(LB_EPSILON)), _mm_cmplt_ps(n, _mm_set1_ps(INFINITY)));
	const __m128 s = _mm_div_ps(_mm_set1_ps(1.0f), n);
	x = _mm_and_ps(ok, _mm_mul_ps(x, s));
	y = _mm_and_ps(ok, _mm_mul_ps(y, s));
	z = _mm_and_ps(ok, _mm_mul_ps(z, s));
	w = _mm_or_ps(_mm_and_ps(ok, _mm_mul_ps(w, s)), _mm_andnot_ps(ok, _mm_set1_ps(1.0f)));
	_MM_TRANSPOSE4_PS(x, y, z, w);
	_mm_storeu_ps(&e[ix[0]].q.x, x), _mm_storeu_ps(&e[ix[1]].q.x, y), _mm_storeu_ps(&e[ix[2]].q.x, z), _mm_storeu_ps(&e[ix[3]].q.x, w);
}

// Lanes k..k+3 back to the chains idx[k..k+3].
static void lbTwoBoneLanesOut4(const lbTwoBoneLanes* L, int k, const int* idx, lbTransform* r, lbTransform* m, lbTransform* e)
{
	lbTwoBoneLaneOut4(L, k, idx + k, r, m, e);
}

// Lanes k..k+3 back to the chains r[k..k+3] (and m, e alike).
static void lbTwoBoneLanesOut4Run(const lbTwoBoneLanes* L, int k, lbTransform* r, lbTransform* m, lbTransform* e)
{
	lbTwoBoneLaneOut4(L, k, lbTwoBoneRun4, r + k, m + k, e + k);
}
#endif

static lbQuat lbTwoBoneLaneQuat(float q[4][LB_TB_LANES], int k)
{
	return LB_LITERAL(lbQuat){ q[0][k], q[1][k], q[2][k], q[3][k] };
}

static lbVec3 lbTwoBoneLaneVec(float v[3][LB_TB_LANES], int k)
{
	return LB_LITERAL(lbVec3){ v[0][k], v[1][k], v[2][k] };
}

// Solves the n gathered chains (chain k of the lanes is index idx[k]) and writes them back.
// The first error in index order so far: its chain's index and code.
typedef struct lbTwoBoneFirstError
{
	int index;
	lbResult code;
} lbTwoBoneFirstError;

static void lbTwoBoneNoteError(lbTwoBoneFirstError* f, int index, lbResult code)
{
	if (code != lb_ok && (f->code == lb_ok || index < f->index))
		f->index = index, f->code = code;
}

// The outcome of a chain the lanes solved, as the single solve reports it.
static void lbTwoBoneLaneResult(lbIkResult* res, const lbTransform* end, const lbTwoBoneIkInput* in)
{
	res->remainingDistance = lbDistance(end->p, in->targetMs);
	res->reached = res->remainingDistance <= lbMaxF(in->tolerance, 0.0f);
	res->iterations = 1;
	res->status = res->reached ? lb_ikReached : lb_ikUnreachable;
}

// The kernel on the gathered lanes: the vector one, or the scalar one. Returns the lanes that need
// the single solve as bits.
static int lbTwoBoneLanesSolve(lbTwoBoneLanes* L, bool simd)
{
#if !defined(LB_SIMD_SCALAR_ONLY)
	if (simd)
		return lbTwoBoneLanesSimd(L);
#endif
	(void)simd;
	return lbTwoBoneLanesScalar(L);
}

static void lbTwoBoneLanesWrite(lbTwoBoneLanes* L, const int* idx, int n, unsigned rotations, lbTransform* rootMs,
								lbTransform* midMs, lbTransform* endMs, const lbTwoBoneIkInput* inputs,
								lbIkResult* outResults, lbTwoBoneFirstError* first);

// `rotations`: bit k set where lane k's end takes the target rotation.
static void lbTwoBoneLanesRun(lbTwoBoneLanes* L, int* idx, int n, unsigned rotations, lbTransform* rootMs,
							  lbTransform* midMs, lbTransform* endMs, const lbTwoBoneIkInput* inputs, lbIkResult* outResults,
							  bool simd, lbTwoBoneFirstError* first)
{
	// Unused lanes repeat the first chain: every lane computes on valid numbers.
	for (int k = n; k < LB_TB_LANES; ++k)
		idx[k] = idx[0];
#if defined(LB_SIMD_SSE)
	// Whole lane groups of chains that follow one another (the usual batch) are read at fixed offsets.
	const int i0 = idx[0];
	const bool run = idx[LB_TB_LANES - 1] - i0 == LB_TB_LANES - 1;
	if (run)
		lbTwoBoneLanesInRun(L, rootMs + i0, midMs + i0, endMs + i0, inputs + i0);
	else
		lbTwoBoneLanesIn(L, idx, rootMs, midMs, endMs, inputs);
#else
	for (int k = 0; k < LB_TB_LANES; ++k)
		lbTwoBoneLaneIn(L, k, &rootMs[idx[k]], &midMs[idx[k]], &endMs[idx[k]], &inputs[idx[k]]);
#endif
	(void)lbTwoBoneLanesSolve(L, simd);
	lbTwoBoneLanesWrite(L, idx, n, rotations, rootMs, midMs, endMs, inputs, outResults, first);
}

// The chains from i0 on, LB_TB_LANES of them (lbTwoBoneRunLaneable's), through the lanes.
static void lbTwoBoneLanesRunAt(lbTwoBoneLanes* L, int* idx, int i0, unsigned rotations, lbTransform* rootMs,
								lbTransform* midMs, lbTransform* endMs, const lbTwoBoneIkInput* inputs, lbIkResult* outResults,
								bool simd, lbTwoBoneFirstError* first)
{
#if defined(LB_SIMD_SSE)
	lbTwoBoneLanesInRun(L, rootMs + i0, midMs + i0, endMs + i0, inputs + i0);
	const int fallback = lbTwoBoneLanesSolve(L, simd);
	// The usual outcome: every lane solved, nothing more to write than the joints.
	if (rotations == 0u && !outResults && fallback == 0)
	{
		for (int k = 0; k < LB_TB_LANES; k += 4)
			lbTwoBoneLaneOut4(L, k, lbTwoBoneRun4, rootMs + i0 + k, midMs + i0 + k, endMs + i0 + k);
		return;
	}
	for (int k = 0; k < LB_TB_LANES; ++k)
		idx[k] = i0 + k;
	lbTwoBoneLanesWrite(L, idx, LB_TB_LANES, rotations, rootMs, midMs, endMs, inputs, outResults, first);
#else
	for (int k = 0; k < LB_TB_LANES; ++k)
		idx[k] = i0 + k;
	lbTwoBoneLanesRun(L, idx, LB_TB_LANES, rotations, rootMs, midMs, endMs, inputs, outResults, simd, first);
#endif
}

// The solved lanes k = 0..n-1 back to their chains idx[k]; a lane the kernel could not solve goes
// through lbSolveTwoBoneIk. `rotations`: bit k set where lane k's end takes the target rotation.
static void lbTwoBoneLanesWrite(lbTwoBoneLanes* L, const int* idx, int n, unsigned rotations, lbTransform* rootMs,
								lbTransform* midMs, lbTransform* endMs, const lbTwoBoneIkInput* inputs,
								lbIkResult* outResults, lbTwoBoneFirstError* first)
{
#if defined(LB_SIMD_SSE)
	const int i0 = idx[0];
	const bool run = idx[LB_TB_LANES - 1] - i0 == LB_TB_LANES - 1;
#endif
	(void)rotations; // read by the four-lane write-back only
	for (int k0 = 0; k0 < n; k0 += 4)
	{
		const int kEnd = k0 + 4 < n ? k0 + 4 : n;
#if defined(LB_SIMD_SSE)
		// Four solved lanes at once; then only an end that takes the target rotation and the outcomes
		// need a lane's own work.
		if (kEnd - k0 == 4 && _mm_movemask_ps(_mm_cmpneq_ps(_mm_loadu_ps(&L->fallback[k0]), _mm_setzero_ps())) == 0)
		{
			if (run)
				lbTwoBoneLanesOut4Run(L, k0, rootMs + i0, midMs + i0, endMs + i0);
			else
				lbTwoBoneLanesOut4(L, k0, idx, rootMs, midMs, endMs);
			if (((rotations >> k0) & 0xFu) == 0u && !outResults)
				continue;
			// Every end taking its target rotation (a crowd's feet): the four at once.
			if (((rotations >> k0) & 0xFu) == 0xFu && !outResults)
			{
				lbTwoBoneTargetRotations4(idx + k0, endMs, inputs);
				continue;
			}
			for (int k = k0; k < kEnd; ++k)
			{
				const int i = idx[k];
				if (inputs[i].useTargetRotation)
					endMs[i].q = lbQuatNormalize(inputs[i].targetRotationMs);
				if (outResults)
					lbTwoBoneLaneResult(&outResults[i], &endMs[i], &inputs[i]);
			}
			continue;
		}
#endif
		for (int k = k0; k < kEnd; ++k)
		{
			const int i = idx[k];
			if (L->fallback[k] != 0.0f)
			{
				lbTwoBoneNoteError(first, i,
								   lbSolveTwoBoneIk(&rootMs[i], &midMs[i], &endMs[i], &inputs[i], outResults ? &outResults[i] : NULL));
				continue;
			}
			rootMs[i].q = lbTwoBoneLaneQuat(L->oqa, k);
			midMs[i].p = lbTwoBoneLaneVec(L->omp, k);
			midMs[i].q = lbTwoBoneLaneQuat(L->oqm, k);
			endMs[i].p = lbTwoBoneLaneVec(L->oep, k);
			// At full weight the single solve gives the end the target rotation, normalised.
			endMs[i].q = inputs[i].useTargetRotation ? lbQuatNormalize(inputs[i].targetRotationMs)
													 : lbTwoBoneLaneQuat(L->oqe, k);
			if (outResults)
				lbTwoBoneLaneResult(&outResults[i], &endMs[i], &inputs[i]);
		}
	}
}

lbResult LB_TB_RUN(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs, const lbTwoBoneIkInput* inputs,
				   lbIkResult* outResults, int count, bool simd)
{
	if (count < 0 || (count > 0 && (!rootMs || !midMs || !endMs || !inputs)))
		return lbReport(lb_errorNullPointer, "lbSolveTwoBoneIkBatch: joints and inputs are required (count %d)", count);
	lbTwoBoneLanes L;
	int idx[LB_TB_LANES];
	int n = 0;
	unsigned rotations = 0u;
	lbTwoBoneFirstError first = { 0, lb_ok };
	for (int i = 0; i < count; ++i)
	{
		unsigned runRotations;
		if (n == 0 && count - i >= LB_TB_LANES && lbTwoBoneRunLaneable(&inputs[i], &runRotations))
		{
			// The same group the loop below would gather, without its per-chain steps.
			lbTwoBoneLanesRunAt(&L, idx, i, runRotations, rootMs, midMs, endMs, inputs, outResults, simd, &first);
			i += LB_TB_LANES - 1;
			continue;
		}
		if (!lbTwoBoneLaneable(&inputs[i]))
		{
			lbTwoBoneNoteError(&first, i,
							   lbSolveTwoBoneIk(&rootMs[i], &midMs[i], &endMs[i], &inputs[i], outResults ? &outResults[i] : NULL));
			continue;
		}
		rotations |= (unsigned)inputs[i].useTargetRotation << n;
		idx[n++] = i;
		if (n == LB_TB_LANES)
		{
			lbTwoBoneLanesRun(&L, idx, n, rotations, rootMs, midMs, endMs, inputs, outResults, simd, &first);
			n = 0, rotations = 0u;
		}
	}
	if (n > 0)
		lbTwoBoneLanesRun(&L, idx, n, rotations, rootMs, midMs, endMs, inputs, outResults, simd, &first);
	return first.code;
}

#if !defined(LB_TB_AVX2_COPY)
// Whether this processor runs the AVX2 copy (and its operating system saves the wide registers:
// the compiler's check covers both).
static bool lbTwoBoneAvx2(void)
{
#if defined(LB_TB_DISPATCH)
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") != 0;
#else
	return false;
#endif
}

int lbTwoBoneIkBatchWidth(void)
{
	return lbTwoBoneAvx2() ? 8 : LB_SIMD_WIDTH;
}

lbResult lbSolveTwoBoneIkBatchPath(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs,
								   const lbTwoBoneIkInput* inputs, lbIkResult* outResults, int count, int lanes)
{
#if defined(LB_TB_DISPATCH)
	if (lanes == 8 && LB_SIMD_WIDTH != 8 && lbTwoBoneAvx2())
		return lbTwoBoneIkBatchRunAvx2(rootMs, midMs, endMs, inputs, outResults, count, true);
#endif
	return lbTwoBoneIkBatchRun(rootMs, midMs, endMs, inputs, outResults, count, lanes > 1);
}

// The processor is asked once a call (through lbTwoBoneIkBatchPath it was asked twice: once for the
// width, once for the path).
lbResult lbSolveTwoBoneIkBatch(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs, const lbTwoBoneIkInput* inputs,
							   lbIkResult* outResults, int count)
{
#if defined(LB_TB_DISPATCH)
	if (LB_SIMD_WIDTH != 8 && lbTwoBoneAvx2())
		return lbTwoBoneIkBatchRunAvx2(rootMs, midMs, endMs, inputs, outResults, count, true);
#endif
	return lbTwoBoneIkBatchRun(rootMs, midMs, endMs, inputs, outResults, count, true);
}
#endif
