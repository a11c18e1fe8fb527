// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Builds a reference rig, maps it as a humanoid and prints what limber derived from its rest pose.
#include "limber/humanoid.h"
#include "limber/rigs.h"

#include <stdio.h>

int main(void)
{
	for (int r = 0; r < lb_rigCount; ++r)
	{
		lbSkeleton* skeleton = lbCreateReferenceRig((lbReferenceRig)r);
		lbHumanoid h;
		if (!skeleton || lbMapHumanoid(skeleton, NULL, &h) != lb_ok)
			return 1;
		printf("%s: %d bones, height %.2f m, pelvis %.2f m, ankle %.3f m\n", lbReferenceRigName((lbReferenceRig)r),
			   skeleton->boneCount, h.height, h.pelvisHeight, h.legAxes[0].ankleHeight);
		printf("  up (%.2f %.2f %.2f) forward (%.2f %.2f %.2f) knee axis in calf (%.2f %.2f %.2f)\n", h.upMs.x, h.upMs.y,
			   h.upMs.z, h.forwardMs.x, h.forwardMs.y, h.forwardMs.z, h.legAxes[0].kneeBendCalf.x,
			   h.legAxes[0].kneeBendCalf.y, h.legAxes[0].kneeBendCalf.z);
		lbDestroySkeleton(skeleton);
	}
	return 0;
}
