// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The batch two-bone solve compiled a second time, for AVX2 (this file alone is built with -mavx2),
// where LIMBER_SIMD=auto: two_bone_batch.c runs it on processors that have AVX2.
#if defined(LB_TB_DISPATCH)
#define LB_TB_AVX2_COPY 1
#define LB_SIMD_AVX2 1
#include "two_bone_batch.c"
#else
// Other builds compile nothing here (a translation unit may not be empty).
typedef int lbTwoBoneBatchAvx2Unused;
#endif
