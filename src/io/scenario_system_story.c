// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// "story": one character that changes system during a run, as a game hands it over: it walks with
// the foot system until a climbable wall is close enough ahead and it has stopped, gets on the
// wall (lbClimbTransition_SeedClimb), climbs with the hold planner to just below the wall's lip,
// tops out onto the ledge (lbClimbTopOut_*) and walks on with the foot system; with no ledge top
// to climb onto, it lets go limb by limb and stands again on the ground below. The foot part is
// the foot system's own adapter (its config under "foot"); the climbing part reads "climb" with
// the climbing system's keys. The report's metrics run over the whole story: each frame measures
// whichever system holds the character, with its contacts.
#include "scenario_internal.h"
#include "scenario_climb_plan.h"
#include "scenario_system_climb.h"

#include "limber/climb_transition.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef enum lbStoryPhase
{
	lb_storyWalk = 0,
	lb_storyClimb,
	lb_storyTopOut,
	lb_storyLetGo,
	lb_storyWalkOn,
} lbStoryPhase;

typedef struct lbStoryRun
{
	// The foot system's adapter (walking before and after the climb); made anew at each hand-back.
	void* foot;
	const cJSON* footConfig;
	lbClimbDef climbDef;
	// The climbing def this frame runs with (the top-out's, topping out).
	lbClimbDef frameDef;
	lbClimbTopOutDef topDef;
	lbClimbState climb;
	lbClimbTargets targets;
	lbClimbPoseCache cache;
	lbClimbPoseResult result;
	lbClimbTopOut top;
	lbClimbRunPlanner* planner;
	lbSceneQuery query;
	lbPose lastPose;
	bool hasLast, sensed;
	void* workspace;
	size_t workspaceSize;
	lbStoryPhase phase;
	// Seconds stood still in reach of the wall; limbs let go so far (no ledge top).
	float stillTime;
	int released;
	// Options (see docs/scenario.md).
	float chestHeight, searchDistance, mountDistance, belowLip, settleTime, ledgeSearch;
	bool hasGoal;
	lbVec3 goalWs;
	// The wall being climbed: the lip's height along up, or -1e30 with no top found.
	float lipHeight;
	bool toppingOut;
	// Let go above the ground: falling to it (the runner's gravity) until the landing.
	bool dropped;
} lbStoryRun;

static const char* const lbStoryKeys[] = { "foot", "climb", "goal", "chest_height", "search_distance", "mount_distance",
										   "below_lip", "settle_time", "ledge_search", NULL };

static bool lbStoryReadConfig(lbJsonCheck* check, const cJSON* config, lbStoryRun* s)
{
	if (!config)
		return true;
	if (!lbJsonKeysAllowed(check, config, "system.config", lbStoryKeys))
		return false;
	const cJSON* foot = cJSON_GetObjectItemCaseSensitive(config, "foot");
	if (foot && !cJSON_IsObject(foot))
		return lbJsonFail(check, lb_errorParse, "system.config.foot", "expected an object of foot system keys");
	if (foot && !lbSystemFoot.checkConfig(check, foot))
		return false;
	const cJSON* climb = cJSON_GetObjectItemCaseSensitive(config, "climb");
	if (climb && !cJSON_IsObject(climb))
		return lbJsonFail(check, lb_errorParse, "system.config.climb", "expected an object of climbing system keys");
	if (climb && cJSON_GetObjectItemCaseSensitive(climb, "planner"))
		return lbJsonFail(check, lb_errorParse, "system.config.climb.planner",
						  "the story plans the climb itself (give system.config.goal instead)");
	if (climb)
	{
		lbClimbDef d = lbDefaultClimbDef();
		char message[512];
		lbResult code = lb_ok;
		if (!lbClimbConfigRead(climb, s ? &s->climbDef : &d, message, (int)sizeof message, &code))
			return lbJsonFail(check, code, "system.config.climb", "%s", message);
	}
	double v[6] = { s ? s->chestHeight : 1.2, s ? s->searchDistance : 3.0, s ? s->mountDistance : 0.45,
					s ? s->belowLip : 0.12, s ? s->settleTime : 0.5, s ? s->ledgeSearch : 4.0 };
	if (!lbJsonNumber(check, config, "system.config", "chest_height", 0.1, 5.0, &v[0]) ||
		!lbJsonNumber(check, config, "system.config", "search_distance", 0.1, 50.0, &v[1]) ||
		!lbJsonNumber(check, config, "system.config", "mount_distance", 0.05, 5.0, &v[2]) ||
		!lbJsonNumber(check, config, "system.config", "below_lip", 0.0, 1.0, &v[3]) ||
		!lbJsonNumber(check, config, "system.config", "settle_time", 0.0, 10.0, &v[4]) ||
		!lbJsonNumber(check, config, "system.config", "ledge_search", 0.5, 20.0, &v[5]))
		return false;
	lbVec3 goal = lbVec3_zero;
	const bool hasGoal = cJSON_GetObjectItemCaseSensitive(config, "goal") != NULL;
	if (hasGoal && !lbJsonVec3(check, config, "system.config", "goal", &goal))
		return false;
	if (s)
	{
		s->footConfig = foot;
		s->chestHeight = (float)v[0];
		s->searchDistance = (float)v[1];
		s->mountDistance = (float)v[2];
		s->belowLip = (float)v[3];
		s->settleTime = (float)v[4];
		s->ledgeSearch = (float)v[5];
		s->hasGoal = hasGoal;
		s->goalWs = goal;
	}
	return true;
}

static bool lbStoryCheck(lbJsonCheck* check, const cJSON* config)
{
	return lbStoryReadConfig(check, config, NULL);
}

static void lbStoryDestroy(void* system)
{
	lbStoryRun* s = (lbStoryRun*)system;
	if (!s)
		return;
	if (s->foot)
		lbSystemFoot.destroy(s->foot);
	lbDestroyClimbRunPlanner(s->planner);
	lbDestroyPose(&s->lastPose);
	lbFree(s->workspace);
	lbFree(s);
}

static void* lbStoryCreate(const lbRunContext* ctx, const cJSON* config, lbResult* outResult)
{
	lbStoryRun* s = (lbStoryRun*)lbAllocZeroed(sizeof(lbStoryRun));
	if (!s)
	{
		*outResult = lbReport(lb_errorOutOfMemory, "story");
		return NULL;
	}
	s->climbDef = lbDefaultClimbDef();
	s->chestHeight = 1.2f;
	s->searchDistance = 3.0f;
	s->mountDistance = 0.45f;
	s->belowLip = 0.12f;
	s->settleTime = 0.5f;
	s->ledgeSearch = 4.0f;
	lbJsonCheck check = { ctx->scenario->path, NULL, 0, lb_ok };
	if (!lbStoryReadConfig(&check, config, s))
	{
		*outResult = check.code;
		lbFree(s);
		return NULL;
	}
	s->climbDef.up = ctx->upWs;
	s->topDef = lbDefaultClimbTopOutDef();
	s->topDef.up = ctx->upWs;
	s->topDef.channelMask = s->climbDef.channelMask;
	s->query = lbWorld_GetQuery((const lbWorld*)ctx->world);
	lbClimbState_Reset(&s->climb);
	lbClimbPoseCache_Reset(&s->cache);
	s->lastPose = lbCreatePose(ctx->skeleton);
	s->workspaceSize = lbGetClimbWorkspaceSize(ctx->skeleton);
	s->workspace = lbAlloc(s->workspaceSize);
	s->foot = lbSystemFoot.create(ctx, s->footConfig, outResult);
	if (!s->lastPose.model || !s->workspace || !s->foot)
	{
		lbResult r = s->foot ? lbReport(lb_errorOutOfMemory, "story: poses and solver memory") : *outResult;
		lbStoryDestroy(s);
		*outResult = r;
		return NULL;
	}
	memset(s->workspace, 0, s->workspaceSize); // rig data is kept there under a key (the climbing pose stage's)
	s->lipHeight = -1.0e30f;
	*outResult = lb_ok;
	return s;
}

static void lbStoryInput(void* system, const lbRunContext* ctx, const lbScenarioEvent* in)
{
	lbStoryRun* s = (lbStoryRun*)system;
	// The foot system hears the run's state changes (a landing) while it holds the character; but
	// for the landing after letting go of the wall: the foot system, made anew at the hand-back,
	// fell with its IK faded out, and its landing snap (the IK at full weight in one frame) pops
	// 14.5 degrees on the mannequin, at the limit, where the IK blending back in from the fall
	// stays within 6.
	const bool dropLanding = s->dropped && in->kind == lb_inputState && in->state == lb_stateLanding;
	if (dropLanding)
		s->dropped = false;
	else if ((s->phase == lb_storyWalk || s->phase == lb_storyWalkOn) && lbSystemFoot.input)
		lbSystemFoot.input(s->foot, ctx, in);
}

// Gets on the wall ahead: the climbing state seeded where the character stands, the lip found
// above the wall point, and a plan to just below it (or to the configured goal).
static bool lbStoryMount(lbStoryRun* s, lbRunContext* ctx, const lbClimbWallAhead* ahead)
{
	const lbVec3 up = lbNormalizeOr(ctx->upWs, lbVec3_axisZ);
	const lbVec3 nh = lbNormalizeOr(lbProjectOnPlane(ahead->normalWs, up), ahead->normalWs);
	lbQueryInput q = lbDefaultQueryInput();
	q.start = lbMulAdd(lbMulAdd(ahead->pointWs, -0.15f, nh), s->ledgeSearch, up);
	q.end = lbMulAdd(ahead->pointWs, -0.15f, nh);
	q.channelMask = s->climbDef.channelMask;
	lbHit hit = lbCallQuery(&s->query, s->query.rayCast, &q);
	s->lipHeight = hit.hit && !hit.startedInside && lbDot(hit.normal, up) > 0.75f ? lbDot(hit.impactPoint, up) : -1.0e30f;
	lbVec3 goal = s->goalWs;
	if (!s->hasGoal)
	{
		if (s->lipHeight < -1.0e29f)
		{
			lbReport(lb_errorInvalidArgument, "%s: story: no ledge top within %g m above the wall ahead, and no goal given",
					 ctx->scenario->path, (double)s->ledgeSearch);
			return false;
		}
		goal = lbMulAdd(ahead->pointWs, s->lipHeight - s->belowLip - lbDot(ahead->pointWs, up), up);
	}
	if (lbClimbTransition_SeedClimb(&s->climb, ctx->characterWs, ahead->normalWs) != lb_ok)
		return false;
	lbClimbPoseCache_Reset(&s->cache);
	lbResult r = lb_ok;
	// Climbing to a ledge's lip, both hands end high: kept out to their sides overhead, the upper
	// arms stay within their range (the demo's climb had an arm past it 57 frames).
	lbClimbPlanDef planDef = lbDefaultClimbPlanDef();
	planDef.overheadInsideCost = 3.0f;
	s->planner = lbCreateClimbRunPlannerWith(ctx, &s->climbDef, &planDef, &s->query, goal, &r);
	return s->planner != NULL;
}

// Back to walking: the foot system made anew, standing where the climb left the character.
static void lbStoryHandBack(lbStoryRun* s, lbRunContext* ctx)
{
	lbTransform standing;
	if (lbClimbTransition_StandingTransform(&s->climb, ctx->humanoid, &s->query, LB_CHANNEL_GROUND, ctx->upWs, 0.5f, 3.0f,
											&standing) != lb_ok)
		return;
	lbResult r = lb_ok;
	void* foot = lbSystemFoot.create(ctx, s->footConfig, &r);
	if (!foot)
		return;
	lbSystemFoot.destroy(s->foot);
	s->foot = foot;
	ctx->characterWs = standing;
	ctx->placed = true;
	ctx->state = lb_stateGrounded;
	lbClimbDrop drop;
	if (s->phase == lb_storyLetGo && lbClimbDrop_Begin(&drop, &s->climb, standing, ctx->upWs) == lb_ok && !drop.landed)
	{
		// Let go above the ground: the character falls there (the runner's gravity and landing),
		// upright over its landing place.
		ctx->characterWs = lbMakeTransform(drop.characterWs.p, standing.q);
		ctx->state = lb_stateFalling;
		s->dropped = true;
	}
	s->phase = lb_storyWalkOn;
	s->sensed = false;
}

static void lbStoryClimbSense(lbStoryRun* s, lbRunContext* ctx, float dt, lbSystemOutput* out)
{
	const lbPose* body = s->hasLast ? &s->lastPose : ctx->basePose;
	const lbVec3 pelvisWs = lbTransformPoint(ctx->characterWs, body->model[ctx->humanoid->pelvis].p);
	if (s->phase == lb_storyClimb)
	{
		lbClimbRunPlanner_Step(s->planner, &s->climb, &s->climbDef, pelvisWs, dt);
		// A move that never reaches its hold fails the run, as in the climbing system: letting go below
		// would hide it.
		ctx->failed = lbClimbRunPlanner_Failure(s->planner);
		lbVec3 next;
		if (lbClimbRunPlanner_NextHold(s->planner, &next))
			lbSystemOutput_AddDebug(out, lb_layerTargets, lb_debugSphere, next, next, 0.05f, true);
		else if (s->climb.limbs[0].mode == lb_climbLocked && s->climb.limbs[1].mode == lb_climbLocked &&
				 s->lipHeight > -1.0e29f && lbClimbTopOut_Begin(&s->top, &s->topDef, &s->climb, &s->query) == lb_ok)
		{
			s->phase = lb_storyTopOut;
			s->toppingOut = true;
		}
		else
		{
			// The plan is done (or stuck) with no ledge to top out on: let go, feet first.
			s->phase = lb_storyLetGo;
			s->released = 0;
		}
	}
	if (s->phase == lb_storyTopOut)
		lbClimbTopOut_Step(&s->top, &s->topDef, &s->climb, &s->climbDef, dt);
	if (s->phase == lb_storyLetGo && s->released < 4)
	{
		static const int order[4] = { lb_limbLegL, lb_limbLegR, lb_limbArmL, lb_limbArmR };
		if (s->released == 0 || s->climb.limbs[order[s->released - 1]].ikAlpha <= 0.0f)
			lbClimb_Release(&s->climb, order[s->released++]);
	}
	lbClimbSenseInput in = lbDefaultClimbSenseInput();
	in.query = &s->query;
	in.characterWs = ctx->characterWs;
	in.animPose = ctx->basePose;
	in.lastPose = s->hasLast ? &s->lastPose : NULL;
	in.dt = dt;
	// Topping out, the top-out's def for the frame (sense and pose alike).
	s->frameDef = s->climbDef;
	if (s->phase == lb_storyTopOut)
		lbClimbTopOut_FrameDef(&s->top, &s->topDef, &s->climbDef, &s->frameDef);
	s->sensed = lbClimbSense(&s->climb, &s->frameDef, ctx->skeleton, ctx->humanoid, &in, &s->targets) == lb_ok;
	if (!s->sensed)
		return;
	if (s->phase == lb_storyTopOut)
		lbClimbTopOut_Carry(&s->top, &s->topDef, ctx->humanoid, ctx->basePose, dt, &s->climb, &s->targets);
	// The climbing frame carries the character, and the base motion with it: a stepping motion
	// left alone keeps its feet planted where the walk stopped.
	ctx->characterWs = s->targets.characterWs;
	ctx->placed = true;
	ctx->state = lb_stateClimbing;
	for (int i = 0; i < 4; ++i)
	{
		const lbClimbLimbTarget* t = &s->targets.limbs[i];
		if (t->mode == lb_climbFree)
			continue;
		lbSystemOutput_AddDebug(out, lb_layerTargets, lb_debugPoint, t->guideWs, t->guideWs, 0.02f, i == s->climb.selected);
		lbSystemOutput_AddDebug(out, lb_layerContacts, lb_debugPoint, t->targetWs, t->targetWs, 0.025f, t->locked);
	}
}

static void lbStorySense(void* system, lbRunContext* ctx, float dt, lbSystemOutput* out)
{
	lbStoryRun* s = (lbStoryRun*)system;
	if (s->phase == lb_storyWalk)
	{
		lbClimbWallAhead ahead;
		memset(&ahead, 0, sizeof ahead);
		lbClimbTransition_FindWall(&s->query, s->climbDef.channelMask, s->climbDef.ignoreOwnerId, ctx->humanoid,
								   ctx->characterWs, ctx->upWs, s->chestHeight, s->searchDistance, s->mountDistance, &ahead);
		const bool still = lbLength(lbProjectOnPlane(ctx->velocityWs, ctx->upWs)) < 0.05f;
		s->stillTime = ahead.ready && still && ctx->state == lb_stateGrounded ? s->stillTime + dt : 0.0f;
		if (s->stillTime > s->settleTime && lbStoryMount(s, ctx, &ahead))
			s->phase = lb_storyClimb;
	}
	if (s->phase == lb_storyWalk || s->phase == lb_storyWalkOn)
	{
		lbSystemFoot.sense(s->foot, ctx, dt, out);
		return;
	}
	lbStoryClimbSense(s, ctx, dt, out);
	// Nothing held any more and the pose back in the animation: walk on.
	const bool done = s->phase == lb_storyTopOut ? s->top.phase == lb_topOutDone
											   : s->phase == lb_storyLetGo && s->released == 4;
	bool free = true;
	for (int i = 0; i < 4; ++i)
		free = free && s->climb.limbs[i].mode == lb_climbFree && s->climb.limbs[i].ikAlpha <= 0.0f;
	if (done && free && s->hasLast && lbClimbTransition_PoseDistance(&s->lastPose, ctx->basePose) < 1.0f * LB_DEG2RAD)
	{
		lbStoryHandBack(s, ctx);
		if (s->phase == lb_storyWalkOn)
			lbSystemFoot.sense(s->foot, ctx, dt, out);
	}
}

static void lbStoryClimbContacts(const lbStoryRun* s, const lbHumanoid* h, lbSystemOutput* out)
{
	lbClimbRunContacts(&s->targets, &s->climbDef, h, out);
}

static void lbStoryPose(void* system, const lbRunContext* ctx, lbPose* pose, lbSystemOutput* out)
{
	lbStoryRun* s = (lbStoryRun*)system;
	if (s->phase == lb_storyWalk || s->phase == lb_storyWalkOn)
	{
		lbSystemFoot.pose(s->foot, ctx, pose, out);
		lbPose_Copy(&s->lastPose, pose);
		s->hasLast = true;
		return;
	}
	// Topping out, the legs hang under the leaning body as they would under an upright one.
	if (s->sensed && s->phase == lb_storyTopOut)
		lbClimbTopOut_HangLegs(&s->top, &s->climb, ctx->skeleton, ctx->humanoid, pose);
	if (!s->sensed || lbClimbApplyPose(&s->targets, &s->frameDef, ctx->skeleton, ctx->humanoid, &s->cache, pose, s->workspace,
									   s->workspaceSize, &s->result) != lb_ok)
		return;
	lbPose_Copy(&s->lastPose, pose);
	s->hasLast = true;
	lbStoryClimbContacts(s, ctx->humanoid, out);
}

static int lbStoryValues(const void* system, const char** names, float* values, int capacity)
{
	const lbStoryRun* s = (const lbStoryRun*)system;
	static const char* const n[] = { "story_phase", "top_out_phase", "plan_move", "plan_moves", "held" };
	int move = 0, moves = 0;
	lbClimbRunPlanner_Progress(s->planner, &move, &moves);
	int held = 0;
	for (int i = 0; i < 4; ++i)
		held += s->climb.limbs[i].mode == lb_climbLocked || s->climb.limbs[i].mode == lb_climbLocking;
	const float v[] = { (float)s->phase, s->toppingOut ? (float)s->top.phase : -1.0f, (float)move,
						(float)moves, (float)held };
	return lbSystemValuesCopy(n, v, (int)(sizeof v / sizeof v[0]), names, values, capacity);
}

const lbSystemEntry lbSystemStory = {
	"story",
	"walks (foot system) to a climbable wall, climbs it with the hold planner, tops out onto the ledge and walks on",
	lbStoryCheck,
	lbStoryCreate,
	lbStoryDestroy,
	lbStoryInput,
	lbStorySense,
	lbStoryPose,
	lbStoryValues,
	NULL,
	NULL,
};
