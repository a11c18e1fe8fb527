// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The hold planner in the scenario runner (see scenario_climb_plan.h).
#include "scenario_climb_plan.h"

#include "limber/climb_plan.h"

#include <string.h>

// Holds sampled in front of the character: rays every 4 cm over a 4 m wide band from 1.3 m below
// the chest-height hit to half a metre above the goal, samples within 0.15 m of a hold's first
// merged (a small hold gives one point, a continuous wall a grid of about that spacing).
#define LB_RUN_PLAN_SPACING 0.04f
#define LB_RUN_PLAN_MERGE 0.15f
#define LB_RUN_PLAN_HALF_WIDTH 2.0f
#define LB_RUN_PLAN_MAX_HOLDS 4096
#define LB_RUN_PLAN_MAX_MOVES 512
#define LB_RUN_PLAN_REPLANS 8
// Longest one move may take, select to lock (s): a reach, a settle and a lock take a few seconds;
// far beyond that the limb is caught in a loop the driver's own stall test does not see (a confirm
// refused over and over, a lock that never completes).
#define LB_RUN_PLAN_MOVE_TIME 12.0f

struct lbClimbRunPlanner
{
	lbClimbPlanDef planDef;
	lbClimbDriverDef driverDef;
	lbClimbPlanBody body;
	lbClimbDriver driver;
	lbClimbHold* holds;
	int holdCount;
	lbClimbPlanMove* moves;
	lbClimbPlanResult result;
	void* workspace;
	size_t workspaceSize;
	lbVec3 goalWs, wallNormalWs;
	int replans;
	// Time spent on the current move (s) and which move that is.
	float moveTime;
	int timedMove;
	lbResult failure;
	bool done;
};

bool lbClimbRunPlanner_Read(lbJsonCheck* check, const cJSON* config, bool* outPresent, lbVec3* outGoal)
{
	*outPresent = false;
	const cJSON* planner = config ? cJSON_GetObjectItemCaseSensitive(config, "planner") : NULL;
	if (!planner)
		return true;
	if (!cJSON_IsObject(planner))
		return lbJsonFail(check, lb_errorParse, "system.config.planner", "expected an object {\"goal\": [x, y, z]}");
	static const char* const keys[] = { "goal", NULL };
	if (!lbJsonKeysAllowed(check, planner, "system.config.planner", keys))
		return false;
	if (!cJSON_GetObjectItemCaseSensitive(planner, "goal"))
		return lbJsonFail(check, lb_errorParse, "system.config.planner.goal", "missing: expected [x, y, z] (world, m)");
	lbVec3 goal = lbVec3_zero;
	if (!lbJsonVec3(check, planner, "system.config.planner", "goal", &goal))
		return false;
	*outPresent = true;
	*outGoal = goal;
	return true;
}

void lbDestroyClimbRunPlanner(lbClimbRunPlanner* p)
{
	if (!p)
		return;
	lbFree(p->holds);
	lbFree(p->moves);
	lbFree(p->workspace);
	lbFree(p);
}

static lbResult lbClimbRunPlan(lbClimbRunPlanner* p, const lbClimbState* state, lbVec3 pelvisWs)
{
	lbClimbPlanInput in;
	memset(&in, 0, sizeof in);
	in.holds = p->holds;
	in.holdCount = p->holdCount;
	in.pelvisWs = pelvisWs;
	in.wallNormalWs = p->wallNormalWs;
	in.goalWs = p->goalWs;
	if (state)
		lbClimbPlanInput_FromState(state, &in);
	lbResult r = lbPlanClimb(&p->planDef, &p->body, &in, p->workspace, p->workspaceSize, p->moves, LB_RUN_PLAN_MAX_MOVES,
							 &p->result);
	lbClimbDriver_Reset(&p->driver);
	if (r != lb_ok)
		return r;
	return p->result.status == lb_climbPlanReached ? lb_ok : lb_errorInvalidArgument;
}

lbClimbRunPlanner* lbCreateClimbRunPlanner(const lbRunContext* ctx, const lbClimbDef* def, const lbSceneQuery* query,
										   lbVec3 goalWs, lbResult* outResult)
{
	const lbClimbPlanDef planDef = lbDefaultClimbPlanDef();
	return lbCreateClimbRunPlannerWith(ctx, def, &planDef, query, goalWs, outResult);
}

lbClimbRunPlanner* lbCreateClimbRunPlannerWith(const lbRunContext* ctx, const lbClimbDef* def,
											   const lbClimbPlanDef* planDef, const lbSceneQuery* query, lbVec3 goalWs,
											   lbResult* outResult)
{
	lbClimbRunPlanner* p = (lbClimbRunPlanner*)lbAllocZeroed(sizeof *p);
	if (!p)
	{
		*outResult = lbReport(lb_errorOutOfMemory, "climb planner");
		return NULL;
	}
	p->planDef = *planDef;
	p->planDef.up = def->up;
	p->driverDef = lbDefaultClimbDriverDef();
	p->goalWs = goalWs;
	p->holds = (lbClimbHold*)lbAlloc(sizeof(lbClimbHold) * LB_RUN_PLAN_MAX_HOLDS);
	p->moves = (lbClimbPlanMove*)lbAlloc(sizeof(lbClimbPlanMove) * LB_RUN_PLAN_MAX_MOVES);
	if (!p->holds || !p->moves)
	{
		lbDestroyClimbRunPlanner(p);
		*outResult = lbReport(lb_errorOutOfMemory, "climb planner: holds");
		return NULL;
	}
	lbResult r = lbClimbPlanBodyFromRig(ctx->skeleton, ctx->humanoid, def, &p->body);
	if (r != lb_ok)
	{
		lbDestroyClimbRunPlanner(p);
		*outResult = r;
		return NULL;
	}
	// The wall: straight ahead of the character at chest height.
	const lbHumanoid* h = ctx->humanoid;
	const lbTransform cw = ctx->characterWs;
	const lbVec3 up = lbNormalizeOr(def->up, lbVec3_axisZ);
	const lbVec3 fwd = lbNormalizeOr(lbProjectOnPlane(lbTransformDirection(cw, h->forwardMs), up), lbAnyPerpendicular(up));
	// The rest pelvis as it stands on the floor: a rest pose may stand elsewhere than on the model's
	// origin (the imported BCN rig rests with its pelvis there, its soles a metre under it), and the
	// planner's first stance and the wall's sampled band are measured from this pelvis. The floor
	// and the pelvis are where the runner puts a procedural motion's (lbRunRestOffset).
	lbVec3 pelvisMs = lbSkeleton_GetRestModel(ctx->skeleton, h->pelvis).p;
	const lbVec3 restOffset = lbRunRestOffset(ctx->skeleton, h);
	if (lbLength(restOffset) > LB_RUN_REST_FLOOR_TOLERANCE)
		pelvisMs = lbSub(pelvisMs, restOffset);
	const lbVec3 pelvisWs = lbTransformPoint(cw, pelvisMs);
	const lbVec3 chest = lbMulAdd(pelvisWs, 0.3f, up);
	lbQueryInput q = lbDefaultQueryInput();
	q.start = chest;
	q.end = lbMulAdd(chest, 3.0f, fwd);
	q.channelMask = def->channelMask | def->bodyChannelMask;
	q.ignoreOwnerId = def->ignoreOwnerId;
	lbHit hit = lbCallQuery(query, query->rayCast, &q);
	if (!hit.hit)
	{
		lbDestroyClimbRunPlanner(p);
		*outResult = lbReport(lb_errorInvalidArgument, "climb planner: no wall within 3 m ahead of the character");
		return NULL;
	}
	p->wallNormalWs = lbNormalizeOr(lbLengthSquared(hit.faceNormal) > 0.5f ? hit.faceNormal : hit.normal, lbNeg(fwd));
	const lbVec3 wallUp = lbNormalizeOr(lbProjectOnPlane(up, p->wallNormalWs), up);
	const float top = lbDot(lbSub(goalWs, hit.impactPoint), wallUp) + 0.5f;
	const int n = lbClimbSampleHolds(query, def->channelMask, def->ignoreOwnerId, hit.impactPoint, p->wallNormalWs, up,
									 LB_RUN_PLAN_HALF_WIDTH, -1.3f, lbMaxF(top, 0.5f), 0.6f, LB_RUN_PLAN_SPACING,
									 LB_RUN_PLAN_MERGE, p->holds, LB_RUN_PLAN_MAX_HOLDS);
	if (n <= 0)
	{
		lbDestroyClimbRunPlanner(p);
		*outResult = lbReport(lb_errorInvalidArgument, "climb planner: nothing climbable on the wall ahead");
		return NULL;
	}
	p->holdCount = n < LB_RUN_PLAN_MAX_HOLDS ? n : LB_RUN_PLAN_MAX_HOLDS;
	p->workspaceSize = lbGetClimbPlanWorkspaceSize(&p->planDef, p->holdCount);
	p->workspace = lbAlloc(p->workspaceSize);
	if (!p->workspace)
	{
		lbDestroyClimbRunPlanner(p);
		*outResult = lbReport(lb_errorOutOfMemory, "climb planner: search memory");
		return NULL;
	}
	memset(p->workspace, 0, p->workspaceSize); // rig data is kept there under a key, as the pose stage's
	r = lbClimbRunPlan(p, NULL, pelvisWs);
	if (r != lb_ok)
	{
		lbDestroyClimbRunPlanner(p);
		*outResult = lbReport(r, "climb planner: the goal (%g, %g, %g) cannot be reached from the %d holds on the wall ahead",
							  (double)goalWs.x, (double)goalWs.y, (double)goalWs.z, n);
		return NULL;
	}
	*outResult = lb_ok;
	return p;
}

void lbClimbRunPlanner_Step(lbClimbRunPlanner* p, lbClimbState* state, const lbClimbDef* def, lbVec3 pelvisWs, float dt)
{
	if (!p || p->done)
		return;
	if (p->driver.move != p->timedMove)
	{
		p->timedMove = p->driver.move;
		p->moveTime = 0.0f;
	}
	if (dt > 0.0f && lbIsValidFloat(dt))
		p->moveTime += dt;
	if (p->moveTime > LB_RUN_PLAN_MOVE_TIME && p->driver.move < p->result.moveCount)
	{
		const lbClimbPlanMove* mv = &p->moves[p->driver.move];
		lbClimb_SetStick(state, 0.0f, 0.0f);
		p->failure = lbReport(lb_errorUnsupported,
							  "climb planner: move %d of %d (limb %d to hold %d at (%.2f, %.2f, %.2f) m) did not reach its "
							  "hold within %g s",
							  p->driver.move + 1, p->result.moveCount, mv->limb, mv->hold, (double)p->holds[mv->hold].pointWs.x,
							  (double)p->holds[mv->hold].pointWs.y, (double)p->holds[mv->hold].pointWs.z,
							  (double)LB_RUN_PLAN_MOVE_TIME);
		p->done = true;
		return;
	}
	if (lbClimbDrive(&p->driver, &p->driverDef, state, def, p->holds, p->holdCount, p->moves, p->result.moveCount, dt))
		return;
	if (p->driver.stuck && p->replans < LB_RUN_PLAN_REPLANS)
	{
		// The body would not let a limb reach its hold: plan again from where the climber is.
		p->replans++;
		if (lbClimbRunPlan(p, state, pelvisWs) == lb_ok)
		{
			p->timedMove = -1;
			return;
		}
	}
	if (p->driver.stuck)
		p->failure = lbReport(lb_errorUnsupported,
							  "climb planner: move %d of %d stalled short of its hold and planning again from there failed "
							  "(%d replans)",
							  p->driver.move + 1, p->result.moveCount, p->replans);
	p->done = true;
}

lbResult lbClimbRunPlanner_Failure(const lbClimbRunPlanner* p)
{
	return p ? p->failure : lb_ok;
}

void lbClimbRunPlanner_Progress(const lbClimbRunPlanner* p, int* outMove, int* outMoveCount)
{
	*outMove = p ? p->driver.move : 0;
	*outMoveCount = p ? p->result.moveCount : 0;
}

bool lbClimbRunPlanner_NextHold(const lbClimbRunPlanner* p, lbVec3* outHoldWs)
{
	if (!p || p->done || p->driver.move >= p->result.moveCount)
		return false;
	*outHoldWs = p->holds[p->moves[p->driver.move].hold].pointWs;
	return true;
}
