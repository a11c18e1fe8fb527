// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// A program built against an installed limber: checks the header and library versions agree, then
// solves a leg with two-bone IK on a reference rig.
#include <limber/limber.h>

#include <stdio.h>

int main(void)
{
	lbVersion v = lbGetVersion();
	if (v.major != LB_VERSION_MAJOR || v.minor != LB_VERSION_MINOR || v.revision != LB_VERSION_PATCH)
	{
		printf("header %d.%d.%d, library %d.%d.%d\n", LB_VERSION_MAJOR, LB_VERSION_MINOR, LB_VERSION_PATCH, v.major, v.minor,
			   v.revision);
		return 1;
	}
	lbSkeleton* rig = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid humanoid;
	if (!rig || lbMapHumanoid(rig, NULL, &humanoid) != lb_ok)
		return 1;
	lbPose pose = lbCreatePose(rig);
	lbPose_SetRest(&pose, rig);
	int foot = humanoid.leg[0].foot;
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = lbAdd(pose.model[foot].p, LB_LITERAL(lbVec3){ 0.1f, 0.0f, 0.15f });
	lbIkResult result;
	lbResult r = lbPose_SolveLimbIk(&pose, rig, &humanoid, lb_limbLegL, &in, &result);
	float miss = lbLength(lbSub(pose.model[foot].p, in.targetMs));
	printf("limber %d.%d.%d: the foot reaches its target within %.2g m\n", v.major, v.minor, v.revision, (double)miss);
	lbDestroyPose(&pose);
	lbDestroySkeleton(rig);
	if (r != lb_ok || !result.reached)
		return 1;
	return miss < 1e-3f ? 0 : 1;
}
