// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The batch two-bone solve with its path chosen. `lanes`: 1 for the one-lane scalar path that is
// always built, LB_SIMD_WIDTH for the vector lanes the build selected, 8 for the AVX2 copy where the
// build has one (LIMBER_SIMD=auto) and the processor runs it (lbTwoBoneIkBatchWidth() is then 8;
// otherwise 8 takes the build's lanes). lbSolveTwoBoneIkBatch takes lbTwoBoneIkBatchWidth() lanes.
#pragma once

#include "limber/ik_batch.h"

#include <stdbool.h>

lbResult lbSolveTwoBoneIkBatchPath(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs,
								   const lbTwoBoneIkInput* inputs, lbIkResult* outResults, int count, int lanes);

// The solve on one build of the kernels (simd: its vector lanes, else the scalar path), and the same
// text compiled for AVX2 (two_bone_batch_avx2.c, LIMBER_SIMD=auto only).
#if defined(LB_TB_AVX2_COPY)
#define LB_TB_RUN lbTwoBoneIkBatchRunAvx2
#else
#define LB_TB_RUN lbTwoBoneIkBatchRun
#endif
lbResult lbTwoBoneIkBatchRun(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs, const lbTwoBoneIkInput* inputs,
							 lbIkResult* outResults, int count, bool simd);
lbResult lbTwoBoneIkBatchRunAvx2(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs, const lbTwoBoneIkInput* inputs,
								 lbIkResult* outResults, int count, bool simd);
