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

// lbFootSenseMany past the checks of what a whole crowd shares (the def and the rig), which the
// caller has made; `count` > 0 and the arrays non-NULL. Each character's own input is checked as
// by lbFootSense.
lbResult lbFootSenseManyChecked(lbFootState* states, const lbFootDef* def, const lbSkeleton* skeleton,
								const lbHumanoid* humanoid, const lbFootSenseInput* inputs, lbFootTargets* outTargets,
								int count);

// Characters per lbFootApplyPoseBatch call: 16 legs, two or one runs of the batch solve's lanes.
#define LB_FOOT_POSE_BATCH 8

// lbFootApplyPoseChecked with the two-bone solver for `count` (at most LB_FOOT_POSE_BATCH)
// characters, whose full-weight legs are solved together by lbSolveTwoBoneIkBatch; a leg fading in
// or out, and the ankle limit's passes, as on their own. Each character's result goes to
// outResults[i] (an error leaves that character's pose as lbFootApplyPoseChecked would). Poses
// agree with lbFootApplyPoseChecked's to the batch solve's rounding.
lbResult lbFootApplyPoseBatch(const lbFootTargets* targets, const lbFootDef* def, const lbSkeleton* skeleton,
							  const lbHumanoid* humanoid, lbPose* poses, int count, lbResult* outResults);
