// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// A climber for the climbing tests: a reference rig on one of the climbing worlds, with its holds,
// running the sense stage, balance (measuring only, unless its weight is set) and the pose stage
// every frame, plus the hold planner and its driver to get it onto the wall and up.
#pragma once
#include "limber/climb_balance.h"
#include "limber/climb_plan.h"
#include "limber/query.h"
#include "limber/rigs.h"
#include "limber/scenes.h"
#include "rig_cases.h"
#include "test_macros.h"

#define MAX_HOLDS 1024
#define MAX_MOVES 128

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

// Builds world `w` (0 holds, 1 wall, 2 slab, 3 overhang, 4 corner) for a character at the origin facing rc->fwd.
static inline void climbInit(Climb* c, const RigCase* rc, int w)
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

static inline void climbFree(Climb* c)
{
	free(c->ws);
	lbDestroyPose(&c->anim);
	lbDestroyPose(&c->pose);
	lbDestroyPose(&c->last);
	lbDestroyWorld(c->world);
	lbDestroySkeleton(c->skeleton);
}

static inline void climbStep(Climb* c)
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

static inline lbVec3 pelvisWs(const Climb* c)
{
	return lbTransformPoint(c->characterWs, c->anim.model[c->humanoid.pelvis].p);
}

static inline void plan(Climb* c, lbVec3 goal)
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
static inline int play(Climb* c, int maxFrames, int* outMinHeld, int* outReplans)
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
static inline lbVec3 goalOn(const Climb* c, float height)
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
