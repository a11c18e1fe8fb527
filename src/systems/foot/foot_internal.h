// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// What the crowd calls of the foot system share with the single-character calls.
#pragma once

#include "limber/foot.h"
#include "limber/ik.h"

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

// The bones the foot system reads: the pelvis, then each leg's thigh, calf, foot and ball.
#define LB_FOOT_READ_BONES 9

// Those of them the rig has, in that order, and the last once more past `count` (a pass over two
// bones at a time reads it for an odd count: testing a transform twice changes no verdict): the
// checks of a pose run over this list, made once per call instead of once per character.
typedef struct lbFootReadList
{
	int count;
	int bone[LB_FOOT_READ_BONES + 1];
} lbFootReadList;

// What the pose stage derives from the def and the rig alone, worked out once per call (a crowd:
// once for all its characters) instead of once per character and leg.
typedef struct lbFootPoseConsts
{
	// cos(ankleLimit / 2), or -1 with the limit off (0 or less) or never exceeded (half a turn or more).
	float cosHalfLimit;
	// The cosine of half the angle from which a free foot's ankle is held (lbFootFreeAnkleGate).
	float freeAnkleGate;
	// Whether the knee cap and the hip flexion limit are on; cos(pi - kneeMaxBend); cos and sin of
	// hipMaxFlex.
	bool kneeCap, hipCap;
	float cosKnee, cosHip, sinHip;
	// Per side: the hip-to-ankle distance (model units) at which the knee reaches kneeMaxBend, 0
	// with the cap off.
	float minReach[2];
	// The bones the pose's checks read.
	lbFootReadList read;
	// One past the pelvis's last descendant where its subtree is the run of bones after it (the
	// pelvis moves them without looking for them: lbPoseTranslateRun), else -1.
	int pelvisEnd;
} lbFootPoseConsts;

// What every lbFootApplyPoseBatch call of a crowd shares: the constants above, the two-bone
// solve's default input and each thigh's descendants but the calf and the foot (parents first),
// which a solved leg moves.
typedef struct lbFootPoseShared
{
	lbFootPoseConsts consts;
	lbTwoBoneIkInput defaults;
	// Per side the knee's hinge (kneeBendThigh) and pole (kneePoleThigh) axes in the thigh's frame,
	// four floats each (the last zero), as one load takes them.
	float kneeAxes[2][2][4];
	int subCount[2];
	int sub[2][LB_MAX_BONES];
	// Per side, whether the leg is a direct chain (the calf's parent the thigh, the foot's the
	// calf), which the batch solve takes.
	bool chain[2];
} lbFootPoseShared;

// Fills *shared for a def and a rig the caller has checked.
void lbFootPoseShared_Init(lbFootPoseShared* shared, const lbFootDef* def, const lbSkeleton* skeleton,
						   const lbHumanoid* humanoid);

// lbFootApplyPoseChecked with the two-bone solver for `count` (at most LB_FOOT_POSE_BATCH)
// characters, whose full-weight legs are solved together by lbSolveTwoBoneIkBatch; a leg fading in
// or out, and the ankle limit's passes, as on their own. Each character's result goes to
// outResults[i] (an error leaves that character's pose as lbFootApplyPoseChecked would). Poses
// agree with lbFootApplyPoseChecked's to the batch solve's rounding.
lbResult lbFootApplyPoseBatch(const lbFootTargets* targets, const lbFootDef* def, const lbFootPoseShared* shared,
							  const lbSkeleton* skeleton, const lbHumanoid* humanoid, lbPose* poses, int count,
							  lbResult* outResults);
