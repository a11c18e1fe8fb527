// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// What the crowd calls of the foot system share with the single-character calls.
#pragma once

#include "limber/foot.h"

// lbFootApplyPose without the checks of what a whole crowd shares: the def (lbFootDef_Validate),
// the rig (the humanoid map made for this skeleton) and the solver's range, which the caller has
// made. The character's own input (its targets and pose, the workspace) is checked as by
// lbFootApplyPose, and an error leaves the pose unchanged.
lbResult lbFootApplyPoseChecked(const lbFootTargets* targets, const lbFootDef* def, const lbSkeleton* skeleton,
								const lbHumanoid* humanoid, lbFootSolver solver, lbPose* pose, void* workspace,
								size_t workspaceSize);
