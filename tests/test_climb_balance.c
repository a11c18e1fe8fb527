// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Balance for the climbing system: the centre of mass from de Leva's segment parameters (checked
// against an independent sum on the rest pose), and on scripted sequences (get on the wall with
// the hold planner, then let go of a hand; on the slab, of both hands) the centre of mass's
// horizontal distance to the support of the held contacts shrinks by a measured amount with
// balance on, while every locked limb still ends on its target and the locks stay where they are.
// Both reference rigs, different world up axes.
#include "limber/climb_balance.h"
#include "limber/climb_plan.h"
#include "limber/query.h"
#include "limber/rigs.h"
#include "limber/scenes.h"
#include "test_macros.h"

#define DT (1.0f / 60.0f)
#define MAX_HOLDS 1024
#define MAX_MOVES 128

typedef struct RigCase
{
	lbReferenceRig rig;
	lbVec3 up, fwd;
} RigCase;

static const RigCase kRigs[] = {
	{ lb_rigMannequin, { 0, 0, 1 }, { 1, 0, 0 } },
	{ lb_rigMixamo, { 0, 1, 0 }, { 0, 0, 1 } },
};

typedef struct Climb
{
	lbSkeleton* skeleton;
	lbHumanoid humanoid;
	lbPose anim, pose, last;
	lbWorld* world;
	lbSceneQuery query;
	lbVec3 up, fwd;
	lbTransform characterWs;
	lbClimbDef def;
	lbClimbState state;
	lbClimbPoseCache cache;
	lbClimbTargets targets;
	void* ws;
	size_t wsSize;
	bool hasLast;
	lbClimbHold holds[MAX_HOLDS];
	int holdCount;
	lbClimbPlanMove moves[MAX_MOVES];
	lbClimbPlanResult plan;
	lbClimbPlanBody body;
	lbVec3 wallN;
	lbVec3 goal;
	lbClimbBalanceDef balanceDef;
	lbClimbBalanceState balance;
	lbClimbBalanceResult balanceResult;
	lbClimbPoseResult poseResult;
} Climb;


// Builds world `w` (index into kWorldNames) for a character at the origin facing rc->fwd.
static void climbInit(Climb* c, const RigCase* rc, int w)
{
	memset(c, 0, sizeof *c);
	c->skeleton = lbCreateReferenceRig(rc->rig);
	ENSURE(lbMapHumanoid(c->skeleton, NULL, &c->humanoid) == lb_ok);
	c->anim = lbCreatePose(c->skeleton);
	c->pose = lbCreatePose(c->skeleton);
	c->last = lbCreatePose(c->skeleton);
	c->up = rc->up;
	c->fwd = rc->fwd;
	lbWorldDef wd = lbDefaultWorldDef();
	wd.up = c->up;
	c->world = lbCreateWorld(&wd);
	lbSceneKind kinds[] = { lb_sceneHolds, lb_sceneWall, lb_sceneWall, lb_sceneWall, lb_sceneInsideCorner };
	lbSceneDef p = lbDefaultSceneDef(kinds[w]);
	p.up = c->up;
	p.forward = c->fwd;
	p.distance = w == 3 ? 0.9f : (w == 2 ? 0.25f : (w == 4 ? 0.4f : 0.35f));
	if (w == 2)
		p.angle = 70.0f * LB_DEG2RAD;
	if (w == 3)
	{
		p.angle = 110.0f * LB_DEG2RAD;
		p.height = 3.0f;
	}
	ENSURE(lbBuildScene(c->world, &p) == lb_ok);
	c->query = lbWorld_GetQuery(c->world);
	c->characterWs = lbMakeTransform(lbVec3_zero, lbQuatFromTwoAxes(c->humanoid.upMs, c->up, c->humanoid.forwardMs, c->fwd));
	c->def = lbDefaultClimbDef();
	c->def.up = c->up;
	lbClimbState_Reset(&c->state);
	lbClimbPoseCache_Reset(&c->cache);
	c->balanceDef = lbDefaultClimbBalanceDef();
	c->balanceDef.up = c->up;
	c->balanceDef.weight = 0.0f;
	lbClimbBalanceState_Reset(&c->balance);
	c->wsSize = lbGetClimbWorkspaceSize(c->skeleton);
	c->ws = malloc(c->wsSize);
	ENSURE(lbClimbPlanBodyFromRig(c->skeleton, &c->humanoid, &c->def, &c->body) == lb_ok);
	c->wallN = lbNeg(c->fwd);
	if (w == 0)
	{
		c->holdCount = lbSceneHolds(&p, NULL, 0);
		ENSURE(c->holdCount > 0 && c->holdCount <= MAX_HOLDS);
		lbVec3 centres[MAX_HOLDS];
		lbSceneHolds(&p, centres, MAX_HOLDS);
		for (int i = 0; i < c->holdCount; ++i)
		{
			c->holds[i].pointWs = centres[i];
			c->holds[i].normalWs = c->wallN;
			c->holds[i].samples = 0;
		}
	}
	else
	{
		// The wall's face: a cast straight ahead at chest height finds it and its normal.
		lbQueryInput q = lbDefaultQueryInput();
		q.start = lbMulSV(1.2f, c->up);
		q.end = lbAdd(q.start, lbMulSV(3.0f, c->fwd));
		q.channelMask = LB_CHANNEL_CLIMBABLE;
		lbHit hit = lbCallQuery(&c->query, c->query.rayCast, &q);
		ENSURE(hit.hit);
		c->wallN = hit.normal;
		if (getenv("PLAN_DEBUG"))
			printf("    wall normal (%.3f %.3f %.3f) at (%.3f %.3f %.3f)\n", (double)hit.normal.x, (double)hit.normal.y, (double)hit.normal.z, (double)hit.impactPoint.x, (double)hit.impactPoint.y, (double)hit.impactPoint.z);
		lbVec3 origin = lbSub(hit.impactPoint, lbMulSV(lbDot(hit.impactPoint, c->up), c->up));
		origin = lbMulAdd(hit.impactPoint, -1.2f / lbMaxF(lbLength(lbProjectOnPlane(c->up, c->wallN)), 0.3f),
						  lbNormalize(lbProjectOnPlane(c->up, c->wallN)));
		(void)origin;
		c->holdCount = lbClimbSampleHolds(&c->query, LB_CHANNEL_CLIMBABLE, LB_NO_OWNER, hit.impactPoint, c->wallN, c->up, 1.2f,
										  -1.1f, 2.4f, 0.6f, 0.05f, 0.15f, c->holds, MAX_HOLDS);
		ENSURE(c->holdCount > 20 && c->holdCount <= MAX_HOLDS);
	}
}

static void climbFree(Climb* c)
{
	free(c->ws);
	lbDestroyPose(&c->anim);
	lbDestroyPose(&c->pose);
	lbDestroyPose(&c->last);
	lbDestroyWorld(c->world);
	lbDestroySkeleton(c->skeleton);
}

static void climbStep(Climb* c)
{
	lbClimbSenseInput in = lbDefaultClimbSenseInput();
	in.query = &c->query;
	in.characterWs = c->characterWs;
	in.animPose = &c->anim;
	in.lastPose = c->hasLast ? &c->last : NULL;
	in.dt = DT;
	ENSURE(lbClimbSense(&c->state, &c->def, c->skeleton, &c->humanoid, &in, &c->targets) == lb_ok);
	c->characterWs = c->targets.characterWs;
	// Balance between the stages (with weight 0 it only measures).
	ENSURE(lbClimbBalance(&c->balance, &c->balanceDef, &c->humanoid, c->hasLast ? &c->last : NULL, DT, &c->targets,
						  &c->balanceResult) == lb_ok);
	lbPose_Copy(&c->pose, &c->anim);
	ENSURE(lbClimbApplyPose(&c->targets, &c->def, c->skeleton, &c->humanoid, &c->cache, &c->pose, c->ws, c->wsSize,
							&c->poseResult) == lb_ok);
	lbPose_Copy(&c->last, &c->pose);
	c->hasLast = true;
}

static lbVec3 pelvisWs(const Climb* c)
{
	return lbTransformPoint(c->characterWs, c->anim.model[c->humanoid.pelvis].p);
}

static void plan(Climb* c, lbVec3 goal)
{
	lbClimbPlanDef pd = lbDefaultClimbPlanDef();
	pd.up = c->up;
	lbClimbPlanInput in;
	memset(&in, 0, sizeof in);
	in.holds = c->holds;
	in.holdCount = c->holdCount;
	in.pelvisWs = pelvisWs(c);
	in.wallNormalWs = c->wallN;
	in.goalWs = goal;
	c->goal = goal;
	ENSURE(lbClimbPlanInput_FromState(&c->state, &in) == lb_ok);
	size_t size = lbGetClimbPlanWorkspaceSize(&pd, c->holdCount);
	void* ws = malloc(size);
	ENSURE(lbPlanClimb(&pd, &c->body, &in, ws, size, c->moves, MAX_MOVES, &c->plan) == lb_ok);
	free(ws);
}

// Plays the plan; returns the frames used (or -1 when the driver got stuck). Checks every frame:
// once four limbs have held at once, at least three hold; a locked limb's target never moves.
static int play(Climb* c, int maxFrames, int* outMinHeld, int* outReplans)
{
	int replans = 0;
	lbClimbDriverDef dd = lbDefaultClimbDriverDef();
	lbClimbDriver d;
	lbClimbDriver_Reset(&d);
	bool mounted = false;
	int minHeld = 4;
	lbVec3 lockedAt[4] = { lbVec3_zero, lbVec3_zero, lbVec3_zero, lbVec3_zero };
	bool wasLocked[4] = { false, false, false, false };
	float drift = 0.0f;
	for (int frame = 0; frame < maxFrames; ++frame)
	{
		bool more = lbClimbDrive(&d, &dd, &c->state, &c->def, c->holds, c->holdCount, c->moves, c->plan.moveCount, DT);
		if (!more && d.stuck && replans < 4)
		{
			// The body would not let a limb reach its hold: plan again from where the climber is.
			replans++;
			plan(c, c->goal);
			lbClimbDriver_Reset(&d);
			if (c->plan.status == lb_climbPlanReached)
				continue;
		}
		if (!more && (d.stuck || d.move >= c->plan.moveCount))
		{
			*outReplans = replans;
			*outMinHeld = minHeld;
			ENSURE(drift <= 1.0e-4f);
			return d.stuck ? -1 : frame;
		}
		climbStep(c);
		int held = 0;
		for (int i = 0; i < 4; ++i)
		{
			bool locked = c->state.limbs[i].mode == lb_climbLocked;
			held += c->state.limbs[i].mode == lb_climbLocked || c->state.limbs[i].mode == lb_climbLocking;
			if (locked && wasLocked[i])
				drift = lbMaxF(drift, lbDistance(lockedAt[i], c->state.limbs[i].targetWs));
			if (locked && !wasLocked[i])
				lockedAt[i] = c->state.limbs[i].targetWs;
			wasLocked[i] = locked;
		}
		if (held == 4)
			mounted = true;
		if (mounted && held < minHeld)
			minHeld = held;
	}
	*outMinHeld = minHeld;
	*outReplans = replans;
	return -2;
}

// Goal: up the wall above the start, on the wall's face.
static lbVec3 goalOn(const Climb* c, float height)
{
	lbVec3 best = c->holds[0].pointWs;
	float bestD = 1.0e9f;
	lbVec3 want = lbMulSV(height, c->up);
	for (int i = 0; i < c->holdCount; ++i)
	{
		lbVec3 p = c->holds[i].pointWs;
		// Nearest hold to the line up the middle at that height.
		lbVec3 rel = lbSub(p, want);
		float d = lbLength(lbProjectOnPlane(rel, c->wallN)) + 0.0f * lbDot(rel, c->wallN);
		if (d < bestD)
		{
			bestD = d;
			best = p;
		}
	}
	return best;
}


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
