// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The batch two-bone solve with its path chosen: the vector lanes the build selected (simd true),
// or the one-lane scalar path that is always built. lbSolveTwoBoneIkBatch takes the vector path.
#pragma once

#include "limber/ik_batch.h"

#include <stdbool.h>

lbResult lbSolveTwoBoneIkBatchPath(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs,
								   const lbTwoBoneIkInput* inputs, lbIkResult* outResults, int count, bool simd);
