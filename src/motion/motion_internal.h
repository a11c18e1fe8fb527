// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Private helpers of the motion layer.
#pragma once

#include "limber/motion.h"

/// Analytic two-bone limb solve in model space (law of cosines). Bones `upper`, `lower`, `end`
/// form the chain; the end bone's position is placed at targetMs when reachable (otherwise as
/// close as the chain allows along the line to the target). The joint bends toward poleMs.
/// Axes are in the bones' local frames, from lbHumanoid. Writes model rotations with propagation.
void lbSolveLimbMs(lbPose* pose, const lbSkeleton* skeleton, int upper, int lower, int end, lbVec3 upperAlong,
				   lbVec3 upperPole, lbVec3 lowerAlong, lbVec3 hingeLower, lbVec3 hingeUpper, lbVec3 targetMs,
				   lbVec3 poleMs);
