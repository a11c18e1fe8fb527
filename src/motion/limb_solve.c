// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Two-bone limb placement for the procedural motions: the classic analytic solution with the
// law of cosines (e.g. Tolani, Goswami, Badler 2000, "Real-time inverse kinematics techniques for
// anthropomorphic limbs"), oriented by the pole and the limb's derived hinge axis.
#include "motion_internal.h"

void lbSolveLimbMs(lbPose* pose, const lbSkeleton* s, int upper, int lower, int end, lbVec3 upperAlong,
				   lbVec3 upperPole, lbVec3 lowerAlong, lbVec3 hingeLower, lbVec3 hingeUpper, lbVec3 targetMs,
				   lbVec3 poleMs)
{
	if (!lbIsValidVec3(targetMs) || !lbIsValidVec3(poleMs))
		return;
	const float a = lbDistance(s->restModel[upper].p, s->restModel[lower].p);
	const float b = lbDistance(s->restModel[lower].p, s->restModel[end].p);
	lbVec3 h = pose->model[upper].p;
	lbVec3 toTarget = lbSub(targetMs, h);
	float d = lbLength(toTarget);
	lbVec3 dir = lbNormalizeOr(toTarget, lbQuatRotate(pose->model[upper].q, upperAlong));
	// Keep a sliver of bend at full reach so the hinge stays defined, and never fold completely.
	d = lbClampF(d, lbAbsF(a - b) + 1.0e-4f, (a + b) * 0.99995f);
	float cosA = lbClampF((a * a + d * d - b * b) / (2.0f * a * d), -1.0f, 1.0f);
	float sinA = sqrtf(lbMaxF(0.0f, 1.0f - cosA * cosA));
	lbVec3 pole = lbProjectOnPlane(poleMs, dir);
	if (lbLengthSquared(pole) < 1.0e-10f)
		pole = lbProjectOnPlane(lbQuatRotate(pose->model[upper].q, upperPole), dir);
	pole = lbNormalizeOr(pole, lbAnyPerpendicular(dir));
	lbVec3 knee = lbAdd(h, lbAdd(lbMulSV(a * cosA, dir), lbMulSV(a * sinA, pole)));
	lbVec3 endPos = lbMulAdd(h, d, dir);
	lbQuat upperQ = lbQuatFromTwoAxes(upperAlong, lbSub(knee, h), upperPole, pole);
	lbPose_SetBoneModelRotation(pose, s, upper, upperQ, true);
	lbVec3 hingeMs = lbQuatRotate(upperQ, hingeUpper);
	lbQuat lowerQ = lbQuatFromTwoAxes(lowerAlong, lbSub(endPos, knee), hingeLower, hingeMs);
	lbPose_SetBoneModelRotation(pose, s, lower, lowerQ, true);
}
