// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The hold planner and its driver, with the climbing system's sense and pose stages running every
// frame: on the sparse-hold wall (holds from lbSceneHolds), a vertical wall, a 70-degree slab, a
// 110-degree overhang and an inside corner (holds sampled with lbClimbSampleHolds), on both
// reference rigs with different world up axes. Each climb must reach its goal, keep three limbs
// held whenever one moves once all four are on, keep every held contact where it locked, and
// move limbs in an alternating order; an unreachable goal is reported, and bad input refused.
#include "climb_harness.h"

static const char* kWorldNames[] = { "holds", "wall", "slab", "overhang", "corner" };

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

// Hand holds over a plan, counted once a move for each hand held: above the shoulder (the pelvis
// the plan expects plus the shoulder's rest height) and less than 0.15 m out to its side of the
// pelvis (the planner's overhead-inside rule).
static int overheadInside(const Climb* c, const lbClimbPlanBody* body)
{
	const lbVec3 n = lbNormalize(c->wallN);
	const lbVec3 u = lbNormalize(lbProjectOnPlane(c->up, n));
	const lbVec3 left = lbNormalize(lbCross(u, lbNeg(n)));
	int held[4];
	for (int i = 0; i < 4; ++i)
		held[i] = -1;
	int count = 0;
	for (int m = 0; m < c->plan.moveCount; ++m)
	{
		held[c->moves[m].limb] = c->moves[m].hold;
		for (int i = 0; i < 2; ++i)
		{
			if (held[i] < 0)
				continue;
			const lbVec3 d = lbSub(c->holds[held[i]].pointWs, c->moves[m].pelvisWs);
			const float side = lbDot(d, left) * (body->rootFromPelvis[i].y >= 0.0f ? 1.0f : -1.0f);
			count += lbDot(d, u) > body->rootFromPelvis[i].z && side < 0.15f;
		}
	}
	return count;
}

// overheadInsideCost: the plans keep hands held overhead out to their sides (no more such holds
// than with the default's 0, fewer somewhere), and still reach their goals; a negative cost is
// refused.
static void test_plan_overhead_inside(void)
{
	int fewer = 0;
	for (size_t r = 0; r < sizeof kRigs / sizeof kRigs[0]; ++r)
		for (int w = 0; w < 5; ++w)
		{
			Climb* c = (Climb*)calloc(1, sizeof(Climb));
			climbInit(c, &kRigs[r], w);
			for (int k = 0; k < 20; ++k)
				climbStep(c);
			const lbVec3 goal = goalOn(c, w == 3 ? 2.6f : 3.0f);
			int inside[2], moves[2];
			for (int k = 0; k < 2; ++k)
			{
				lbClimbPlanDef pd = lbDefaultClimbPlanDef();
				pd.up = c->up;
				pd.overheadInsideCost = k == 0 ? 0.0f : 3.0f;
				lbClimbPlanInput in;
				memset(&in, 0, sizeof in);
				in.holds = c->holds;
				in.holdCount = c->holdCount;
				in.pelvisWs = pelvisWs(c);
				in.wallNormalWs = c->wallN;
				in.goalWs = goal;
				ENSURE(lbClimbPlanInput_FromState(&c->state, &in) == lb_ok);
				const size_t size = lbGetClimbPlanWorkspaceSize(&pd, c->holdCount);
				void* ws = malloc(size);
				ENSURE(lbPlanClimb(&pd, &c->body, &in, ws, size, c->moves, MAX_MOVES, &c->plan) == lb_ok);
				ENSURE(c->plan.status == lb_climbPlanReached);
				inside[k] = overheadInside(c, &c->body);
				moves[k] = c->plan.moveCount;
				if (k == 1)
				{
					pd.overheadInsideCost = -1.0f;
					ENSURE(lbPlanClimb(&pd, &c->body, &in, ws, size, c->moves, MAX_MOVES, &c->plan) == lb_errorInvalidArgument);
				}
				free(ws);
			}
			printf("  %s rig %d: hands overhead inside 0.15 m: %d (%d moves) -> %d (%d moves)\n", kWorldNames[w], (int)r,
				   inside[0], moves[0], inside[1], moves[1]);
			ENSURE(inside[1] <= inside[0]);
			fewer += inside[1] < inside[0];
			climbFree(c);
			free(c);
		}
	ENSURE(fewer > 0);
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

// A 75-degree slab set back from a standing climber by more and more, its holds a grid on the
// slab: the plan either starts with holds within reach of the limbs' roots where the standing body
// has them (upright over the pelvis, not leaned along the slab), or says the goal is unreachable.
// Never a first hold the standing body cannot reach. Both rigs (Z-up and Y-up).
static void test_plan_first_holds_reachable_standing(void)
{
	int reachedCount = 0, unreachableCount = 0;
	for (size_t r = 0; r < sizeof kRigs / sizeof kRigs[0]; ++r)
	{
		Climb* c = (Climb*)calloc(1, sizeof(Climb));
		climbInit(c, &kRigs[r], 1);
		const lbVec3 up = lbNormalize(c->up), fwd = lbNormalize(lbProjectOnPlane(c->fwd, up));
		const lbVec3 left = lbNormalize(lbCross(up, fwd));
		const lbVec3 pelvis = pelvisWs(c);
		// The slab leans back 15 degrees from vertical: its normal faces the climber and up a little.
		const float lean = 15.0f * LB_PI / 180.0f;
		const lbVec3 n = lbAdd(lbMulSV(-cosf(lean), fwd), lbMulSV(sinf(lean), up));
		const lbVec3 slabUp = lbNormalize(lbProjectOnPlane(up, n));
		lbClimbPlanDef pd = lbDefaultClimbPlanDef();
		pd.up = c->up;
		const size_t size = lbGetClimbPlanWorkspaceSize(&pd, MAX_HOLDS);
		void* ws = malloc(size);
		for (int k = 0; k < 8; ++k)
		{
			// The slab's foot on the ground, 0.1 to 0.8 m ahead of the pelvis.
			const float setBack = 0.1f + 0.1f * (float)k;
			const lbVec3 base = lbSub(lbMulAdd(pelvis, setBack, fwd), lbMulSV(lbDot(pelvis, up), up));
			int count = 0;
			for (int i = 0; i < 24 && count < MAX_HOLDS; ++i)
				for (int j = -4; j <= 4 && count < MAX_HOLDS; ++j)
				{
					lbClimbHold* h = &c->holds[count++];
					memset(h, 0, sizeof *h);
					h->pointWs = lbAdd(lbAdd(base, lbMulSV(0.15f * (float)i, slabUp)), lbMulSV(0.2f * (float)j, left));
					h->normalWs = n;
				}
			lbClimbPlanInput in;
			memset(&in, 0, sizeof in);
			in.holds = c->holds;
			in.holdCount = count;
			in.pelvisWs = pelvis;
			in.wallNormalWs = n;
			in.goalWs = c->holds[count - 5].pointWs;
			ENSURE(lbPlanClimb(&pd, &c->body, &in, ws, size, c->moves, MAX_MOVES, &c->plan) == lb_ok);
			ENSURE(c->plan.status == lb_climbPlanReached || c->plan.status == lb_climbPlanUnreachable);
			float worst = 0.0f;
			if (c->plan.status == lb_climbPlanReached)
			{
				++reachedCount;
				// Each move made before both feet hold, from the standing body's limb root.
				bool footHeld[2] = { false, false };
				for (int m = 0; m < c->plan.moveCount && !(footHeld[0] && footHeld[1]); ++m)
				{
					const int limb = c->moves[m].limb;
					const lbVec3 o = c->body.rootFromPelvis[limb];
					const lbVec3 root = lbAdd(pelvis, lbAdd(lbAdd(lbMulSV(o.x, fwd), lbMulSV(o.y, left)), lbMulSV(o.z, up)));
					const float d = lbDistance(c->holds[c->moves[m].hold].pointWs, root);
					worst = lbMaxF(worst, d / c->body.reach[limb]);
					if (limb >= 2)
						footHeld[limb - 2] = true;
				}
			}
			else
				++unreachableCount;
			printf("  rig %d, slab %.1f m ahead: status %d, %d moves, worst first reach %.2f of the limb's reach\n", (int)r,
				   (double)setBack, (int)c->plan.status, c->plan.moveCount, (double)worst);
			ENSURE(worst <= 1.0f);
		}
		free(ws);
		climbFree(c);
		free(c);
	}
	// The sweep covers both outcomes: near slabs are climbed, far ones refused.
	ENSURE(reachedCount > 0);
	ENSURE(unreachableCount > 0);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_plan_reaches_goal);
	RUN_TEST(test_plan_unreachable);
	RUN_TEST(test_plan_first_holds_reachable_standing);
	RUN_TEST(test_plan_bad_input);
	RUN_TEST(test_plan_overhead_inside);
	TEST_MAIN_END();
}
