// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref ik_batch group.

/// @defgroup ik_batch Two-bone IK for many chains at once
/// Structure-of-arrays two-bone IK: legs are gathered 8 (16 with AVX2) at a time into lanes and solved
/// together with the vector instructions the library was built for (LIMBER_SIMD: sse2, avx2, native or
/// none).
/// @{

#include "limber/ik.h"

LB_EXTERN_C_BEGIN

/// Two-bone IK on `count` chains (model space, each chain's root, mid and end transforms updated in
/// place), as lbSolveTwoBoneIk(&rootMs[i], &midMs[i], &endMs[i], &inputs[i], &outResults[i]) for
/// each i, to float rounding (the solve is the same; sums and roots are ordered differently). Chains
/// with no pole, full weight, no stretch and a hinge axis given (or a bent start to derive it from)
/// go through the lanes; the others, and any input the single solve would refuse, through
/// lbSolveTwoBoneIk itself. outResults may be NULL. Returns lb_ok, lb_errorNullPointer
/// for NULL arrays with count > 0 (nothing changed), or the first chain's error (that chain
/// unchanged; every other chain still solved). Allocates nothing; safe on different chains from
/// several threads at once.
LB_API lbResult lbSolveTwoBoneIkBatch(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs,
									  const lbTwoBoneIkInput* inputs, lbIkResult* outResults, int count);

/// Lanes per vector instruction in lbSolveTwoBoneIkBatch on this processor: 8 (AVX2: an avx2 build, or
/// the default auto build on a processor with AVX2), 4 (SSE2) or 1 (scalar build).
LB_API int lbTwoBoneIkBatchWidth(void);

LB_EXTERN_C_END

/// @}
