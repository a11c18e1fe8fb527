// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The full-body solve for a caller that keeps only the body (lbSolveFullBodyIkBody, used by the
// climbing pose stage) against the public solve, on both reference rigs: the same body, limb roots
// and mid bones and the same result, bit for bit, for random poses and targets (some out of reach,
// so the held-limb rounds run); only the limb ends, what hangs below them and the bones beside a
// limb's chain (twist bones) may differ.
#include "ik/full_body_internal.h"
#include "limber/ik.h"
#include "limber/rigs.h"
#include "test_macros.h"

#include <stdlib.h>
#include <string.h>

static void BodyOnlyMatchesTheFullSolve(void)
{
	lbTestRng rng = { 31 };
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(s, NULL, &h) == lb_ok);
		lbPose a = lbCreatePose(s), b = lbCreatePose(s);
		const size_t wsSize = lbGetFullBodyIkWorkspaceSize(s);
		void* wsA = malloc(wsSize);
		void* wsB = malloc(wsSize);
		const lbFullBodyIkDef st = lbDefaultFullBodyIkDef();
		// All the body-only solve may leave otherwise: the limb ends, what hangs below them, and the
		// bones below a limb's root beside its way to the end (twist bones).
		uint8_t loose[LB_MAX_BONES];
		memset(loose, 0, sizeof loose);
		const int ends[4] = { h.arm[0].hand, h.arm[1].hand, h.leg[0].foot, h.leg[1].foot };
		const int roots[4] = { h.arm[0].upperArm, h.arm[1].upperArm, h.leg[0].thigh, h.leg[1].thigh };
		for (int i = 0; i < s->boneCount; ++i)
			for (int k = 0; k < 4; ++k)
				loose[i] |= (uint8_t)(i == ends[k] || lbSkeleton_IsAncestor(s, ends[k], i) ||
									  (lbSkeleton_IsAncestor(s, roots[k], i) && !lbSkeleton_IsAncestor(s, i, ends[k])));
		const int effBone[4] = { h.arm[0].hand, h.arm[1].hand, h.leg[0].foot, h.leg[1].foot };
		const lbEffectorSlot slot[4] = { lb_effectorHandL, lb_effectorHandR, lb_effectorFootL, lb_effectorFootR };
		int unreached = 0, cases = 400;
		for (int c = 0; c < cases; ++c)
		{
			lbPose_SetRest(&a, s);
			lbTransform pm = a.model[h.pelvis];
			pm.p = lbAdd(pm.p, lbMakeVec3(lbTestUniform(&rng, -0.05f, 0.05f), lbTestUniform(&rng, -0.05f, 0.05f),
										  lbTestUniform(&rng, -0.05f, 0.05f)));
			ENSURE(lbPose_SetBoneModel(&a, s, h.pelvis, pm, true) == lb_ok);
			lbFullBodyIkEffector eff[lb_effectorCount];
			for (int k = 0; k < lb_effectorCount; ++k)
				eff[k] = lbDefaultFullBodyIkEffector();
			// Targets up to 0.35 m from the rest ends (every fourth case up to 0.8 m: out of reach).
			const float spread = c % 4 == 0 ? 0.8f : 0.35f;
			for (int k = 0; k < 4; ++k)
			{
				lbVec3 d = lbMakeVec3(lbTestUniform(&rng, -spread, spread), lbTestUniform(&rng, -spread, spread),
									  lbTestUniform(&rng, -spread, spread));
				eff[slot[k]].targetMs = lbAdd(a.model[effBone[k]].p, d);
				eff[slot[k]].positionAlpha = lbTestUniform(&rng, 0.0f, 1.0f) < 0.15f ? 0.0f : lbTestUniform(&rng, 0.3f, 1.0f);
			}
			lbPose_Copy(&b, &a);
			lbIkResult ra, rb;
			ENSURE(lbSolveFullBodyIk(&a, s, &h, &st, eff, wsA, wsSize, &ra) == lb_ok);
			ENSURE(lbSolveFullBodyIkBody(&b, s, &h, &st, eff, wsB, wsSize, &rb) == lb_ok);
			ENSURE(ra.iterations == rb.iterations && ra.status == rb.status && ra.reached == rb.reached);
			ENSURE(memcmp(&ra.remainingDistance, &rb.remainingDistance, sizeof(float)) == 0);
			unreached += !ra.reached;
			for (int i = 0; i < s->boneCount; ++i)
			{
				if (loose[i])
					continue;
				ENSURE(memcmp(&a.local[i], &b.local[i], sizeof(lbTransform)) == 0);
				ENSURE(memcmp(&a.model[i], &b.model[i], sizeof(lbTransform)) == 0);
			}
			// The ends' positions are the body's and the limbs' doing, so they agree too.
			for (int k = 0; k < 4; ++k)
				ENSURE(memcmp(&a.model[ends[k]].p, &b.model[ends[k]].p, sizeof(lbVec3)) == 0);
		}
		printf("  %s: %d cases, %d with a target out of reach\n", lbReferenceRigName((lbReferenceRig)rig), cases, unreached);
		// The held-limb rounds ran (targets out of reach) as well as the plain solve.
		ENSURE(unreached > cases / 20 && unreached < cases);
		free(wsA);
		free(wsB);
		lbDestroyPose(&a);
		lbDestroyPose(&b);
		lbDestroySkeleton(s);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(BodyOnlyMatchesTheFullSolve);
	TEST_MAIN_END();
}
