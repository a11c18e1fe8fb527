// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The hold planner and its driver, with the climbing system's sense and pose stages running every
// frame: on the sparse-hold wall (holds from lbSceneHolds), a vertical wall, a 70-degree slab, a
// 110-degree overhang and an inside corner (holds sampled with lbClimbSampleHolds), on both
// reference rigs with different world up axes. Each climb must reach its goal, keep three limbs
// held whenever one moves once all four are on, keep every held contact where it locked, and
// move limbs in an alternating order; an unreachable goal is reported, and bad input refused.
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
} Climb;

static const char* kWorldNames[] = { "holds", "wall", "slab", "overhang", "corner" };

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
	lbPose_Copy(&c->pose, &c->anim);
	ENSURE(lbClimbApplyPose(&c->targets, &c->def, c->skeleton, &c->humanoid, &c->cache, &c->pose, c->ws, c->wsSize, NULL) ==
		   lb_ok);
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

static void test_plan_reaches_goal(void)
{
	for (size_t r = 0; r < sizeof kRigs / sizeof kRigs[0]; ++r)
		for (int w = 0; w < 5; ++w)
		{
			Climb* c = (Climb*)calloc(1, sizeof(Climb));
			climbInit(c, &kRigs[r], w);
			for (int k = 0; k < 20; ++k)
				climbStep(c);
			float height = w == 3 ? 2.6f : 3.0f;
			lbVec3 goal = goalOn(c, height);
			plan(c, goal);
			int minHeld = 0, replans = 0;
			int frames = c->plan.status == lb_climbPlanReached ? play(c, 60 * 90, &minHeld, &replans) : -3;
			// The hand nearest the goal when done.
			float reached = 1.0e9f;
			for (int i = 0; i < 2; ++i)
				if (c->state.limbs[i].mode == lb_climbLocked)
					reached = lbMinF(reached, lbDistance(c->state.limbs[i].surfaceWs, goal));
			// Alternation: no limb moves twice in a row.
			int repeats = 0;
			for (int m = 1; m < c->plan.moveCount; ++m)
				repeats += c->moves[m].limb == c->moves[m - 1].limb;
			printf("  %s rig %d: status %d, %d moves, %d nodes, %d frames, min held %d, goal %.3f m, repeats %d, replans %d\n",
				   kWorldNames[w], (int)r, (int)c->plan.status, c->plan.moveCount, c->plan.nodesExpanded, frames, minHeld,
				   (double)reached, repeats, replans);
			if (getenv("PLAN_DEBUG"))
				for (int m = 0; m < c->plan.moveCount; ++m)
				{
					lbVec3 h = c->holds[c->moves[m].hold].pointWs, pv = c->moves[m].pelvisWs;
					printf("    move %d limb %d hold (%.2f %.2f %.2f) pelvis (%.2f %.2f %.2f)\n", m, c->moves[m].limb, (double)h.x,
						   (double)h.y, (double)h.z, (double)pv.x, (double)pv.y, (double)pv.z);
				}
			ENSURE(c->plan.status == lb_climbPlanReached);
			ENSURE(frames > 0);
			ENSURE(minHeld >= 3);
			// Within the goal radius, give or take where the driver let a stalled limb take the
			// surface next to its hold.
			ENSURE(reached <= 0.3f);
			ENSURE(repeats * 4 <= c->plan.moveCount);
			climbFree(c);
			free(c);
		}
}

// Records the last error code the library reports.
static lbResult gLastError;
static lbLogFcn* gSavedLog;
static void* gSavedContext;
static void recordLog(lbLogLevel level, lbResult code, const char* message, void* context)
{
	(void)level;
	(void)message;
	(void)context;
	gLastError = code;
}

static void captureLog(void)
{
	lbGetLogFcn(&gSavedLog, &gSavedContext);
	lbSetLogFcn(recordLog, NULL);
}

static void restoreLog(void)
{
	lbSetLogFcn(gSavedLog, gSavedContext);
}

// A goal above the top of the wall (no hold near it) and one beyond a gap no reach spans are
// reported as unreachable, with the closest approach; the moves written lead there.
static void test_plan_unreachable(void)
{
	for (size_t r = 0; r < sizeof kRigs / sizeof kRigs[0]; ++r)
	{
		Climb* c = (Climb*)calloc(1, sizeof(Climb));
		climbInit(c, &kRigs[r], 1);
		for (int k = 0; k < 5; ++k)
			climbStep(c);
		captureLog();
		gLastError = lb_ok;
		lbVec3 goal = lbAdd(goalOn(c, 3.0f), lbMulSV(3.0f, c->up));
		plan(c, goal);
		ENSURE(c->plan.status == lb_climbPlanUnreachable);
		ENSURE(gLastError == lb_errorInvalidArgument);
		// A gap: drop every hold between 1.9 and 3.2 m up; the goal lies above it.
		lbVec3 top = goalOn(c, 3.6f);
		int kept = 0;
		for (int i = 0; i < c->holdCount; ++i)
		{
			float h = lbDot(c->holds[i].pointWs, c->up);
			if (h < 1.9f || h > 3.2f)
				c->holds[kept++] = c->holds[i];
		}
		ENSURE(kept < c->holdCount);
		c->holdCount = kept;
		gLastError = lb_ok;
		plan(c, top);
		printf("  gap rig %d: status %d, %d moves, %d nodes, closest %.2f m\n", (int)r, (int)c->plan.status,
			   c->plan.moveCount, c->plan.nodesExpanded, (double)c->plan.goalDistance);
		ENSURE(c->plan.status == lb_climbPlanUnreachable || c->plan.status == lb_climbPlanOutOfBudget);
		ENSURE(c->plan.goalDistance > 0.25f && c->plan.goalDistance < 3.0f);
		ENSURE(gLastError != lb_ok);
		restoreLog();
		climbFree(c);
		free(c);
	}
}

// Bad input: a clear error and nothing written.
static void test_plan_bad_input(void)
{
	captureLog();
	lbClimbPlanDef pd = lbDefaultClimbPlanDef();
	lbClimbPlanBody body;
	memset(&body, 0, sizeof body);
	for (int i = 0; i < 4; ++i)
	{
		body.reach[i] = 0.7f;
		body.minReach[i] = 0.3f;
	}
	lbClimbHold holds[2];
	memset(holds, 0, sizeof holds);
	holds[0].pointWs = lbMakeVec3(0.3f, 0.0f, 1.5f);
	holds[1].pointWs = lbMakeVec3(0.3f, 0.0f, 2.0f);
	holds[0].normalWs = holds[1].normalWs = lbMakeVec3(-1.0f, 0.0f, 0.0f);
	lbClimbPlanInput in;
	memset(&in, 0, sizeof in);
	in.holds = holds;
	in.holdCount = 2;
	in.wallNormalWs = lbMakeVec3(-1.0f, 0.0f, 0.0f);
	in.goalWs = holds[1].pointWs;
	size_t size = lbGetClimbPlanWorkspaceSize(&pd, 2);
	void* ws = malloc(size);
	lbClimbPlanMove moves[4];
	lbClimbPlanResult res;
	memset(&res, 0x5a, sizeof res);
	lbClimbPlanResult untouched = res;
	ENSURE(lbPlanClimb(NULL, &body, &in, ws, size, moves, 4, &res) == lb_errorNullPointer);
	lbClimbPlanDef bad = pd;
	bad.internalValue = 0;
	ENSURE(lbPlanClimb(&bad, &body, &in, ws, size, moves, 4, &res) == lb_errorDefNotInitialized);
	ENSURE(lbPlanClimb(&pd, &body, &in, ws, size - 1, moves, 4, &res) == lb_errorInvalidArgument);
	in.goalWs.x = NAN;
	ENSURE(lbPlanClimb(&pd, &body, &in, ws, size, moves, 4, &res) == lb_errorNonFinite);
	in.goalWs = holds[1].pointWs;
	in.wallNormalWs = lbMakeVec3(0.0f, 0.0f, 1.0f);
	ENSURE(lbPlanClimb(&pd, &body, &in, ws, size, moves, 4, &res) == lb_errorInvalidArgument);
	in.wallNormalWs = lbMakeVec3(-1.0f, 0.0f, 0.0f);
	in.held[0] = true;
	in.contactWs[0] = lbMakeVec3(0.3f, 1.0f, 1.0f);
	ENSURE(lbPlanClimb(&pd, &body, &in, ws, size, moves, 4, &res) == lb_errorInvalidArgument);
	ENSURE(memcmp(&res, &untouched, sizeof res) == 0);
	ENSURE(lbClimbSampleHolds(NULL, LB_CHANNEL_CLIMBABLE, 0, lbVec3_zero, lbMakeVec3(-1, 0, 0), lbVec3_axisZ, 1, 0, 1, 0.5f,
							  0.05f, 0.1f, holds, 2) == -1);
	lbClimbDriver d;
	lbClimbDriver_Reset(&d);
	ENSURE(!lbClimbDrive(&d, NULL, NULL, NULL, NULL, 0, NULL, 0, 0.016f));
	free(ws);
	restoreLog();
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_plan_reaches_goal);
	RUN_TEST(test_plan_unreachable);
	RUN_TEST(test_plan_bad_input);
	TEST_MAIN_END();
}
