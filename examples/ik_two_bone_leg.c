// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
/*******************************************************************************************
 *
 *   limber example - a leg solved by two-bone IK
 *
 *   Maps a built-in rig as a humanoid (every axis measured from its rest pose), then moves the
 *   left foot to targets around its rest position, one of them out of reach, with the stateless
 *   two-bone solver on a pose the program owns. For each target it prints whether the foot got
 *   there, how far it is left, and the knee's bend: the knee always bends forward (the hinge
 *   comes from the humanoid map), and an unreachable target leaves the leg straight toward it.
 *
 ********************************************************************************************/
#include <limber/limber.h>

#include <stdio.h>

int main(void)
{
	// Initialization ---------------------------------------------------------------------------
	lbSkeleton* rig = lbCreateReferenceRig(lb_rigMixamo);
	lbHumanoid humanoid;
	if (!rig || lbMapHumanoid(rig, NULL, &humanoid) != lb_ok)
		return 1;
	lbPose pose = lbCreatePose(rig);
	const lbLegBones leg = humanoid.leg[0];
	lbPose_SetRest(&pose, rig);
	const lbVec3 restAnkle = pose.model[leg.foot].p;
	const lbVec3 up = humanoid.upMs, forward = humanoid.forwardMs;
	// Targets relative to the rest ankle (model space, m): up, up and forward, a high step, up and
	// back, and one below the ground, out of reach.
	const lbVec3 offsets[5] = { lbMulSV(0.2f, up), lbAdd(lbMulSV(0.15f, up), lbMulSV(0.25f, forward)),
								lbAdd(lbMulSV(0.35f, up), lbMulSV(0.25f, forward)),
								lbAdd(lbMulSV(0.1f, up), lbMulSV(-0.2f, forward)), lbMulSV(-0.5f, up) };
	int failures = 0;

	for (int i = 0; i < 5; ++i)
	{
		// Update ---------------------------------------------------------------------------------
		lbPose_SetRest(&pose, rig);
		lbTwoBoneIkInput ik = lbDefaultTwoBoneIkInput();
		ik.targetMs = lbAdd(restAnkle, offsets[i]);
		lbIkResult result;
		if (lbPose_SolveLimbIk(&pose, rig, &humanoid, lb_limbLegL, &ik, &result) != lb_ok)
			return 1;

		// Draw (here: print) ---------------------------------------------------------------------
		lbVec3 hip = pose.model[leg.thigh].p, knee = pose.model[leg.calf].p, ankle = pose.model[leg.foot].p;
		lbVec3 thighDir = lbNormalize(lbSub(knee, hip)), shinDir = lbNormalize(lbSub(ankle, knee));
		float bendDeg = acosf(lbClampF(lbDot(thighDir, shinDir), -1.0f, 1.0f)) * LB_RAD2DEG;
		// The knee points forward of the hip-ankle line when it bends.
		lbVec3 mid = lbMulSV(0.5f, lbAdd(hip, ankle));
		float kneeForward = lbDot(lbSub(knee, mid), forward);
		printf("target %d: %-11s %.4f m left, knee bent %5.1f deg, %s\n", i, result.reached ? "reached," : "out of reach,",
			   (double)result.remainingDistance, (double)bendDeg,
			   bendDeg < 1.0f ? "leg straight" : kneeForward > 0.0f ? "knee forward" : "KNEE BACKWARD");
		if (bendDeg >= 1.0f && kneeForward <= 0.0f)
			++failures;
		if (i < 4 && !result.reached)
			++failures;
	}

	// De-Initialization ------------------------------------------------------------------------
	lbDestroyPose(&pose);
	lbDestroySkeleton(rig);
	return failures == 0 ? 0 : 1;
}
