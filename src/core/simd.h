// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Float lanes for structure-of-arrays kernels. One build switch picks the instruction set:
// LIMBER_SIMD (CMake: auto, sse2, avx2, native or none) defines LB_SIMD_AVX2 / LB_SIMD_SSE2 / nothing,
// and the wide type lbSimdF here is 8 lanes (AVX2), 4 (SSE2) or 1 (plain float). Only native looks at
// the build machine (avx2 when it runs AVX2 code, else sse2, settled when CMake configures); a binary
// built for avx2 needs an AVX2 processor. auto (the default) is sse2, with the batch two-bone solve
// also compiled for AVX2 (two_bone_batch_avx2.c defines LB_SIMD_AVX2 for itself) and chosen at run
// time.
//
// The operations are named alike for every width, so a kernel written once against them compiles
// to the wide path and to the one-lane scalar path (which is always built and tested). Every
// operation is the correctly rounded IEEE one (no estimates, no fused multiply-add), so the widths
// agree to the bit on the same inputs.
#pragma once

#include <math.h>
#include <stdbool.h>

#if defined(LB_SIMD_AVX2) && defined(__AVX2__)
#include <immintrin.h>
#define LB_SIMD_WIDTH 8
#define LB_SIMD_NAME "avx2"
typedef __m256 lbSimdF;
static inline lbSimdF lbSimdSet1(float x) { return _mm256_set1_ps(x); }
static inline lbSimdF lbSimdLoad(const float* p) { return _mm256_loadu_ps(p); }
// p aligned to the vector's size (32 bytes): the load may then fold into the instruction that reads it.
static inline lbSimdF lbSimdLoadA(const float* p) { return _mm256_load_ps(p); }
static inline void lbSimdStore(float* p, lbSimdF a) { _mm256_storeu_ps(p, a); }
static inline lbSimdF lbSimdAdd(lbSimdF a, lbSimdF b) { return _mm256_add_ps(a, b); }
static inline lbSimdF lbSimdSub(lbSimdF a, lbSimdF b) { return _mm256_sub_ps(a, b); }
static inline lbSimdF lbSimdMul(lbSimdF a, lbSimdF b) { return _mm256_mul_ps(a, b); }
static inline lbSimdF lbSimdDiv(lbSimdF a, lbSimdF b) { return _mm256_div_ps(a, b); }
static inline lbSimdF lbSimdSqrt(lbSimdF a) { return _mm256_sqrt_ps(a); }
static inline lbSimdF lbSimdMin(lbSimdF a, lbSimdF b) { return _mm256_min_ps(a, b); }
static inline lbSimdF lbSimdMax(lbSimdF a, lbSimdF b) { return _mm256_max_ps(a, b); }
// Masks are all-ones or all-zero lanes.
static inline lbSimdF lbSimdGt(lbSimdF a, lbSimdF b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline lbSimdF lbSimdGe(lbSimdF a, lbSimdF b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline lbSimdF lbSimdAnd(lbSimdF a, lbSimdF b) { return _mm256_and_ps(a, b); }
static inline lbSimdF lbSimdOr(lbSimdF a, lbSimdF b) { return _mm256_or_ps(a, b); }
static inline lbSimdF lbSimdNot(lbSimdF a) { return _mm256_xor_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(-1))); }
// m ? a : b per lane.
static inline lbSimdF lbSimdSelect(lbSimdF m, lbSimdF a, lbSimdF b) { return _mm256_blendv_ps(b, a, m); }
static inline int lbSimdMaskBits(lbSimdF m) { return _mm256_movemask_ps(m); }
#elif defined(LB_SIMD_SSE2) && (defined(__SSE2__) || defined(_M_X64))
#include <emmintrin.h>
#define LB_SIMD_WIDTH 4
#define LB_SIMD_NAME "sse2"
typedef __m128 lbSimdF;
static inline lbSimdF lbSimdSet1(float x) { return _mm_set1_ps(x); }
static inline lbSimdF lbSimdLoad(const float* p) { return _mm_loadu_ps(p); }
// p aligned to the vector's size (16 bytes): the load may then fold into the instruction that reads it.
static inline lbSimdF lbSimdLoadA(const float* p) { return _mm_load_ps(p); }
static inline void lbSimdStore(float* p, lbSimdF a) { _mm_storeu_ps(p, a); }
static inline lbSimdF lbSimdAdd(lbSimdF a, lbSimdF b) { return _mm_add_ps(a, b); }
static inline lbSimdF lbSimdSub(lbSimdF a, lbSimdF b) { return _mm_sub_ps(a, b); }
static inline lbSimdF lbSimdMul(lbSimdF a, lbSimdF b) { return _mm_mul_ps(a, b); }
static inline lbSimdF lbSimdDiv(lbSimdF a, lbSimdF b) { return _mm_div_ps(a, b); }
static inline lbSimdF lbSimdSqrt(lbSimdF a) { return _mm_sqrt_ps(a); }
static inline lbSimdF lbSimdMin(lbSimdF a, lbSimdF b) { return _mm_min_ps(a, b); }
static inline lbSimdF lbSimdMax(lbSimdF a, lbSimdF b) { return _mm_max_ps(a, b); }
static inline lbSimdF lbSimdGt(lbSimdF a, lbSimdF b) { return _mm_cmpgt_ps(a, b); }
static inline lbSimdF lbSimdGe(lbSimdF a, lbSimdF b) { return _mm_cmpge_ps(a, b); }
static inline lbSimdF lbSimdAnd(lbSimdF a, lbSimdF b) { return _mm_and_ps(a, b); }
static inline lbSimdF lbSimdOr(lbSimdF a, lbSimdF b) { return _mm_or_ps(a, b); }
static inline lbSimdF lbSimdNot(lbSimdF a) { return _mm_xor_ps(a, _mm_castsi128_ps(_mm_set1_epi32(-1))); }
static inline lbSimdF lbSimdSelect(lbSimdF m, lbSimdF a, lbSimdF b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
static inline int lbSimdMaskBits(lbSimdF m) { return _mm_movemask_ps(m); }
#else
#define LB_SIMD_WIDTH 1
#define LB_SIMD_NAME "none"
#define LB_SIMD_SCALAR_ONLY 1
#endif

// Hand-written four-lane code outside the kernels (BVH child slabs, the grid's start cell, query
// input checks, transform adds) tests LB_SIMD_SSE: the 128-bit SSE2 intrinsics, on with sse2 and
// avx2 (which implies sse2) and off with none, so LIMBER_SIMD=none builds every file scalar.
#if defined(LB_SIMD_SSE2) && (defined(__SSE2__) || defined(_M_X64))
#include <emmintrin.h>
#define LB_SIMD_SSE 1
#endif

// The one-lane scalar path, always built: plain floats, a mask is 1.0f (true) or 0.0f.
typedef float lbScalarF;
static inline lbScalarF lbScalarSet1(float x) { return x; }
static inline lbScalarF lbScalarLoad(const float* p) { return *p; }
static inline lbScalarF lbScalarLoadA(const float* p) { return *p; }
static inline void lbScalarStore(float* p, lbScalarF a) { *p = a; }
static inline lbScalarF lbScalarAdd(lbScalarF a, lbScalarF b) { return a + b; }
static inline lbScalarF lbScalarSub(lbScalarF a, lbScalarF b) { return a - b; }
static inline lbScalarF lbScalarMul(lbScalarF a, lbScalarF b) { return a * b; }
// IEEE division, as divps does: a lane the kernel masks out (a padding lane, a degenerate chain the
// single solve takes instead) may divide by zero, and its infinity is never used. The vector paths
// do the same without a check; here the float-divide-by-zero sanitizer would stop on it.
#if defined(__GNUC__) || defined(__clang__)
__attribute__((no_sanitize("float-divide-by-zero")))
#endif
static inline lbScalarF lbScalarDiv(lbScalarF a, lbScalarF b) { return a / b; }
static inline lbScalarF lbScalarSqrt(lbScalarF a) { return sqrtf(a); }
// minps / maxps semantics (the second operand when either is NaN), so the paths agree.
static inline lbScalarF lbScalarMin(lbScalarF a, lbScalarF b) { return a < b ? a : b; }
static inline lbScalarF lbScalarMax(lbScalarF a, lbScalarF b) { return a > b ? a : b; }
static inline lbScalarF lbScalarGt(lbScalarF a, lbScalarF b) { return a > b ? 1.0f : 0.0f; }
static inline lbScalarF lbScalarGe(lbScalarF a, lbScalarF b) { return a >= b ? 1.0f : 0.0f; }
static inline lbScalarF lbScalarAnd(lbScalarF a, lbScalarF b) { return (a != 0.0f && b != 0.0f) ? 1.0f : 0.0f; }
static inline lbScalarF lbScalarOr(lbScalarF a, lbScalarF b) { return (a != 0.0f || b != 0.0f) ? 1.0f : 0.0f; }
static inline lbScalarF lbScalarNot(lbScalarF a) { return a != 0.0f ? 0.0f : 1.0f; }
static inline lbScalarF lbScalarSelect(lbScalarF m, lbScalarF a, lbScalarF b) { return m != 0.0f ? a : b; }
static inline int lbScalarMaskBits(lbScalarF m) { return m != 0.0f ? 1 : 0; }

#if !defined(LB_SIMD_SCALAR_ONLY)
// Two vectors as one: every operation issues two independent instructions, so a kernel whose steps
// wait on long square roots and divisions keeps the units busy with the other half meanwhile.
typedef struct lbSimd2F
{
	lbSimdF lo, hi;
} lbSimd2F;
#define LB_SIMD2_WIDTH (2 * LB_SIMD_WIDTH)
#define LB_SIMD2_UNARY(name)                                                                                 \
	static inline lbSimd2F lbSimd2##name(lbSimd2F a)                                                          \
	{                                                                                                        \
		lbSimd2F r = { lbSimd##name(a.lo), lbSimd##name(a.hi) };                                               \
		return r;                                                                                            \
	}
#define LB_SIMD2_BINARY(name)                                                                                \
	static inline lbSimd2F lbSimd2##name(lbSimd2F a, lbSimd2F b)                                              \
	{                                                                                                        \
		lbSimd2F r = { lbSimd##name(a.lo, b.lo), lbSimd##name(a.hi, b.hi) };                                   \
		return r;                                                                                            \
	}
LB_SIMD2_UNARY(Sqrt)
LB_SIMD2_UNARY(Not)
LB_SIMD2_BINARY(Add)
LB_SIMD2_BINARY(Sub)
LB_SIMD2_BINARY(Mul)
LB_SIMD2_BINARY(Div)
LB_SIMD2_BINARY(Min)
LB_SIMD2_BINARY(Max)
LB_SIMD2_BINARY(Gt)
LB_SIMD2_BINARY(Ge)
LB_SIMD2_BINARY(And)
LB_SIMD2_BINARY(Or)
#undef LB_SIMD2_UNARY
#undef LB_SIMD2_BINARY
static inline lbSimd2F lbSimd2Set1(float x)
{
	lbSimd2F r = { lbSimdSet1(x), lbSimdSet1(x) };
	return r;
}
static inline lbSimd2F lbSimd2Load(const float* p)
{
	lbSimd2F r = { lbSimdLoad(p), lbSimdLoad(p + LB_SIMD_WIDTH) };
	return r;
}
// p aligned to one vector's size.
static inline lbSimd2F lbSimd2LoadA(const float* p)
{
	lbSimd2F r = { lbSimdLoadA(p), lbSimdLoadA(p + LB_SIMD_WIDTH) };
	return r;
}
static inline void lbSimd2Store(float* p, lbSimd2F a)
{
	lbSimdStore(p, a.lo);
	lbSimdStore(p + LB_SIMD_WIDTH, a.hi);
}
static inline lbSimd2F lbSimd2Select(lbSimd2F m, lbSimd2F a, lbSimd2F b)
{
	lbSimd2F r = { lbSimdSelect(m.lo, a.lo, b.lo), lbSimdSelect(m.hi, a.hi, b.hi) };
	return r;
}
static inline int lbSimd2MaskBits(lbSimd2F m)
{
	return lbSimdMaskBits(m.lo) | (lbSimdMaskBits(m.hi) << LB_SIMD_WIDTH);
}
#endif
