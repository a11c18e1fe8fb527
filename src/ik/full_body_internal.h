// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The full-body solve for a caller inside the library that wants only the body from it.
#pragma once

#include "limber/ik.h"

/// lbSolveFullBodyIk for a caller that keeps only the body (pelvis, spine and what hangs from
/// them down to the limbs' roots) and solves every limb again itself (the climbing pose stage).
/// The body comes out bit for bit as lbSolveFullBodyIk's; the limbs are left where the limb stage
/// put their roots and mid bones, their ends unclamped, and the bones below a limb's root that are
/// not on its way to the end (twist bones, what hangs below the end) may be left as they were, not
/// carried with the body: the caller poses them again. The caller vouches for the pose (every
/// value finite, unit rotations: its own check and normalised copy) and checks the result itself:
/// the per-bone checks, the copy of the input and the restore on a non-finite result are left out,
/// so a non-finite result is returned as it is. Arguments, units and spaces as lbSolveFullBodyIk.
lbResult lbSolveFullBodyIkBody(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
							   const lbFullBodyIkDef* settings, const lbFullBodyIkEffector* effectors, void* workspace,
							   size_t workspaceSize, lbIkResult* outResult);
