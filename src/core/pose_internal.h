// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Pose helpers for the library's own callers, which have made the public calls' checks themselves.
#pragma once

#include "limber/skeleton.h"

// lbPose_TranslateBoneModel for a pose that matches the skeleton, a bone inside it, and a subtree
// the caller knows to be the run of bones after `bone` up to (not including) `end`: the same
// checks, errors and bits, without looking for the subtree in the parents. A pelvis's subtree is
// usually the rest of the skeleton; finding it again for every character cost about a sixth of
// the call (the foot system's crowd moves a pelvis a character).
lbResult lbPoseTranslateRun(lbPose* pose, const lbSkeleton* skeleton, int bone, int end, lbVec3 deltaMs);
