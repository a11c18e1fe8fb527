// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The climbing system in the scenario runner: config keys map onto lbClimbDef, the timeline's
// select / stick / confirm / release onto the system's calls, its climbing frame onto the
// character transform, and its limbs onto contacts for the metrics. Dragging a target in the
// viewer moves that limb's guide point (and selects it).
#include "scenario_internal.h"
#include "scenario_system_climb.h"
#include "scenario_climb_plan.h"

#include "limber/climb_balance.h"

#include "limber/climb.h"
#include "limber/ik.h"
#include "limber/query.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct lbClimbRun
{
	lbClimbDef def;
	lbClimbState state;
	lbClimbTargets targets;
	lbClimbPoseCache cache;
	lbClimbPoseResult result;
	lbSceneQuery query;
	// The last pose the pose stage produced: the body's real place, for reach centres and probes.
	lbPose lastPose;
	bool hasLast;
	bool sensed;
	void* workspace;
	size_t workspaceSize;
	// The hold planner driving the calls, when the config asks for one.
	lbClimbRunPlanner* planner;
	// Balance between the stages (off unless the config gives balance_weight > 0).
	lbClimbBalanceDef balanceDef;
	lbClimbBalanceState balance;
} lbClimbRun;

static const lbConfigNumberKey lbClimbKeys[] = {
	{ "move_speed_hand", offsetof(lbClimbDef, moveSpeed[0]), 0.0, 10.0, false, false },
	{ "move_speed_foot", offsetof(lbClimbDef, moveSpeed[1]), 0.0, 10.0, false, false },
	{ "follow_speed", offsetof(lbClimbDef, followSpeed), 0.0, 100.0, false, false },
	{ "rotation_speed", offsetof(lbClimbDef, rotationSpeed), 0.0, 100.0, false, false },
	{ "max_reach_hand", offsetof(lbClimbDef, maxReach[0]), 0.0, 5.0, false, false },
	{ "max_reach_foot", offsetof(lbClimbDef, maxReach[1]), 0.0, 5.0, false, false },
	{ "reach_margin", offsetof(lbClimbDef, reachMargin), 0.0, 1.0, false, false },
	{ "min_reach_hand", offsetof(lbClimbDef, minReach[0]), 0.0, 1.0, false, false },
	{ "min_reach_foot", offsetof(lbClimbDef, minReach[1]), 0.0, 1.0, false, false },
	{ "trace_out", offsetof(lbClimbDef, traceOut), 0.0, 5.0, false, false },
	{ "trace_in", offsetof(lbClimbDef, traceIn), 0.0, 10.0, false, false },
	{ "wrap_in", offsetof(lbClimbDef, wrapIn), 0.0, 1.0, false, false },
	{ "capture_radius", offsetof(lbClimbDef, captureRadius), 0.0, 1.0, false, false },
	{ "search_offset_hand", offsetof(lbClimbDef, searchOffset[0]), 0.0, 1.0, false, false },
	{ "search_offset_foot", offsetof(lbClimbDef, searchOffset[1]), 0.0, 1.0, false, false },
	{ "lock_offset_hand", offsetof(lbClimbDef, lockOffset[0]), 0.0, 1.0, false, false },
	{ "lock_offset_foot", offsetof(lbClimbDef, lockOffset[1]), 0.0, 1.0, false, false },
	{ "lock_time", offsetof(lbClimbDef, lockTime), 0.0, 10.0, false, false },
	{ "alpha_time", offsetof(lbClimbDef, alphaTime), 0.0, 10.0, false, false },
	{ "body_reach_start", offsetof(lbClimbDef, bodyReachStart), 0.0, 2.0, false, false },
	{ "body_reach_full", offsetof(lbClimbDef, bodyReachFull), 0.0, 2.0, false, false },
	{ "body_alpha_locked", offsetof(lbClimbDef, bodyAlphaLocked), 0.0, 1.0, false, false },
	{ "probe_radius_pelvis", offsetof(lbClimbDef, probeRadius[0]), 0.0, 1.0, false, false },
	{ "probe_radius_chest", offsetof(lbClimbDef, probeRadius[1]), 0.0, 1.0, false, false },
	{ "probe_out", offsetof(lbClimbDef, probeOut), 0.0, 5.0, false, false },
	{ "probe_in", offsetof(lbClimbDef, probeIn), 0.0, 5.0, false, false },
	{ "clearance_speed", offsetof(lbClimbDef, clearanceSpeed), 0.0, 1000.0, false, false },
	{ "body_wall_distance", offsetof(lbClimbDef, bodyWallDistance), 0.0, 2.0, false, false },
	{ "frame_speed", offsetof(lbClimbDef, frameSpeed), 0.0, 1000.0, false, false },
	{ "wall_lean", offsetof(lbClimbDef, wallLean), 0.0, 1.0, false, false },
	{ "comfort_reach_hand", offsetof(lbClimbDef, comfortReach[0]), 0.0, 1.0, false, false },
	{ "comfort_reach_foot", offsetof(lbClimbDef, comfortReach[1]), 0.0, 1.0, false, false },
	{ "body_margin", offsetof(lbClimbDef, bodyMargin), 0.0, 0.5, false, false },
	{ "reliability_start", offsetof(lbClimbDef, reliabilityStart), 0.0, 1.0, false, false },
	{ "reliability_full", offsetof(lbClimbDef, reliabilityFull), 0.0, 1.0, false, false },
	{ "ledge_angle_deg", offsetof(lbClimbDef, ledgeAngle), 0.0, 90.0, true, false },
	{ "side_neg_start", offsetof(lbClimbDef, sideNegStart), 0.0, 2.0, false, false },
	{ "side_neg_full", offsetof(lbClimbDef, sideNegFull), 0.0, 2.0, false, false },
	{ "side_pos_start", offsetof(lbClimbDef, sidePosStart), 0.0, 2.0, false, false },
	{ "side_pos_full", offsetof(lbClimbDef, sidePosFull), 0.0, 2.0, false, false },
	{ "pole_base", offsetof(lbClimbDef, poleBase), 0.0, 2.0, false, false },
	{ "pole_side", offsetof(lbClimbDef, poleSide), 0.0, 5.0, false, false },
	{ "knee_clearance", offsetof(lbClimbDef, kneeClearance), 0.0, 1.0, false, false },
	{ "toe_side_gain", offsetof(lbClimbDef, toeSideGain), 0.0, 10.0, false, false },
	{ "toe_leg_gain", offsetof(lbClimbDef, toeLegGain), 0.0, 10.0, false, false },
	{ "toe_up_gain", offsetof(lbClimbDef, toeUpGain), 0.0, 10.0, false, false },
	{ "side_cache_min", offsetof(lbClimbDef, sideCacheMin), 0.0, 2.0, false, false },
	{ "side_cache_max", offsetof(lbClimbDef, sideCacheMax), 0.0, 2.0, false, false },
	{ "side_cache_alpha", offsetof(lbClimbDef, sideCacheAlpha), 0.0, 1.0, false, false },
	{ "extend_fade_start", offsetof(lbClimbDef, extendFadeStart), 0.0, 2.0, false, false },
	{ "extend_fade_end", offsetof(lbClimbDef, extendFadeEnd), 0.0, 2.0, false, false },
	{ "fold_fade_start", offsetof(lbClimbDef, foldFadeStart), 0.0, 2.0, false, false },
	{ "fold_fade_end", offsetof(lbClimbDef, foldFadeEnd), 0.0, 2.0, false, false },
	// Whole numbers written as uint32_t into int fields (never negative).
	{ "body_iterations", offsetof(lbClimbDef, bodyIterations), 0.0, 1000.0, false, true },
	// The full-body solver's scalar settings (its per-role stiffness and joint limits are the
	// solver's own tables, kept at lbDefaultFullBodyIkDef()).
	{ "full_body_iterations", offsetof(lbClimbDef, fullBody.iterations), 0.0, 1000.0, false, true },
	{ "full_body_tolerance", offsetof(lbClimbDef, fullBody.tolerance), 0.0, 1.0, false, false },
	{ "full_body_pelvis_stiffness", offsetof(lbClimbDef, fullBody.pelvisTranslationStiffness), 0.0, 1.0, false, false },
	{ "full_body_pelvis_max_sink", offsetof(lbClimbDef, fullBody.pelvisMaxSink), 0.0, 5.0, false, false },
	{ "full_body_pelvis_max_rise", offsetof(lbClimbDef, fullBody.pelvisMaxRise), 0.0, 5.0, false, false },
	{ "full_body_pelvis_max_horizontal", offsetof(lbClimbDef, fullBody.pelvisMaxHorizontal), 0.0, 5.0, false, false },
	{ "full_body_pelvis_max_rotation_deg", offsetof(lbClimbDef, fullBody.pelvisMaxRotation), 0.0, 180.0, true, false },
	{ "full_body_reach_fraction", offsetof(lbClimbDef, fullBody.reachFraction), 0.0, 1.0, false, false },
	{ "full_body_damping", offsetof(lbClimbDef, fullBody.damping), 0.0, 100.0, false, false },
	{ "channel_mask", offsetof(lbClimbDef, channelMask), 0.0, 4294967295.0, false, true },
	{ "body_channel_mask", offsetof(lbClimbDef, bodyChannelMask), 0.0, 4294967295.0, false, true },
	{ "ignore_owner_id", offsetof(lbClimbDef, ignoreOwnerId), 0.0, 4294967295.0, false, true },
};

#define LB_CLIMB_KEY_COUNT ((int)(sizeof lbClimbKeys / sizeof lbClimbKeys[0]))

// Per limb (hand_l, hand_r, foot_l, foot_r): searchRotationOffset as a rotation vector in degrees
// (axis times angle) in the preview frame (+X along the wall toward the target, +Y out of it).
static const char* const lbClimbRotationKeys[4] = { "search_rotation_offset_hand_l", "search_rotation_offset_hand_r",
													"search_rotation_offset_foot_l", "search_rotation_offset_foot_r" };

static bool lbClimbReadRotations(lbJsonCheck* check, const cJSON* config, lbClimbDef* def)
{
	for (int i = 0; i < 4; ++i)
	{
		lbVec3 v = lbVec3_zero;
		if (!cJSON_GetObjectItemCaseSensitive(config, lbClimbRotationKeys[i]))
			continue;
		if (!lbJsonVec3(check, config, "system.config", lbClimbRotationKeys[i], &v))
			return false;
		float angle = 0.0f;
		const lbVec3 axis = lbGetLengthAndNormalize(&angle, v);
		if (angle > 360.0f)
		{
			char p[256];
			snprintf(p, sizeof p, "system.config.%s", lbClimbRotationKeys[i]);
			return lbJsonFail(check, lb_errorParse, p, "expected a turn of at most 360 degrees, got %g", (double)angle);
		}
		if (def)
			def->searchRotationOffset[i] =
				angle > 0.0f ? lbQuatNormalize(lbQuatFromAxisAngle(axis, angle * LB_DEG2RAD)) : lbQuat_identity;
	}
	return true;
}

int lbClimbConfigKeys(const lbConfigNumberKey** outKeys, const char* const** outRotationKeys)
{
	if (outKeys)
		*outKeys = lbClimbKeys;
	if (outRotationKeys)
		*outRotationKeys = lbClimbRotationKeys;
	return LB_CLIMB_KEY_COUNT;
}

// Balance keys (include/limber/climb_balance.h), read into an lbClimbBalanceDef.
static const lbConfigNumberKey lbClimbBalanceKeys[] = {
	{ "balance_weight", offsetof(lbClimbBalanceDef, weight), 0.0, 1.0, false, false },
	{ "balance_max_shift", offsetof(lbClimbBalanceDef, maxShift), 0.0, 2.0, false, false },
	{ "balance_speed", offsetof(lbClimbBalanceDef, speed), 0.0, 1000.0, false, false },
	{ "balance_max_into_wall", offsetof(lbClimbBalanceDef, maxIntoWall), 0.0, 2.0, false, false },
};
#define LB_CLIMB_BALANCE_KEY_COUNT ((int)(sizeof lbClimbBalanceKeys / sizeof lbClimbBalanceKeys[0]))

static bool lbClimbReadConfig(lbJsonCheck* check, const cJSON* config, lbClimbDef* def, lbClimbBalanceDef* balance)
{
	if (!config)
		return true;
	const char* allowed[LB_CLIMB_KEY_COUNT + 4 + 2 + LB_CLIMB_BALANCE_KEY_COUNT];
	int n = 0;
	for (int i = 0; i < LB_CLIMB_KEY_COUNT; ++i)
		allowed[n++] = lbClimbKeys[i].name;
	for (int i = 0; i < 4; ++i)
		allowed[n++] = lbClimbRotationKeys[i];
	allowed[n++] = "planner";
	for (int i = 0; i < LB_CLIMB_BALANCE_KEY_COUNT; ++i)
		allowed[n++] = lbClimbBalanceKeys[i].name;
	allowed[n] = NULL;
	if (!lbJsonKeysAllowed(check, config, "system.config", allowed))
		return false;
	if (!lbJsonReadNumberKeys(check, config, lbClimbKeys, LB_CLIMB_KEY_COUNT, def))
		return false;
	if (!lbClimbReadRotations(check, config, def))
		return false;
	if (!lbJsonReadNumberKeys(check, config, lbClimbBalanceKeys, LB_CLIMB_BALANCE_KEY_COUNT, balance))
		return false;
	bool planner = false;
	lbVec3 goal;
	return lbClimbRunPlanner_Read(check, config, &planner, &goal);
}

bool lbClimbConfigRead(const cJSON* config, lbClimbDef* def, char* message, int capacity, lbResult* outCode)
{
	lbJsonCheck check = { "climb config", message, capacity, lb_ok };
	lbClimbDef d = *def;
	const bool ok = lbClimbReadConfig(&check, config, &d, NULL);
	if (ok)
		*def = d;
	if (outCode)
		*outCode = check.code;
	return ok;
}

static bool lbClimbCheck(lbJsonCheck* check, const cJSON* config)
{
	return lbClimbReadConfig(check, config, NULL, NULL);
}

static void lbClimbDestroy(void* system)
{
	lbClimbRun* c = (lbClimbRun*)system;
	if (!c)
		return;
	lbDestroyPose(&c->lastPose);
	lbDestroyClimbRunPlanner(c->planner);
	lbFree(c->workspace);
	lbFree(c);
}

static void* lbClimbCreate(const lbRunContext* ctx, const cJSON* config, lbResult* outResult)
{
	lbClimbRun* c = (lbClimbRun*)lbAllocZeroed(sizeof(lbClimbRun));
	if (!c)
	{
		*outResult = lbReport(lb_errorOutOfMemory, "climb");
		return NULL;
	}
	c->def = lbDefaultClimbDef();
	c->def.up = ctx->upWs;
	lbJsonCheck check = { ctx->scenario->path, NULL, 0, lb_ok };
	c->balanceDef = lbDefaultClimbBalanceDef();
	c->balanceDef.up = ctx->upWs;
	c->balanceDef.weight = 0.0f;
	lbClimbBalanceState_Reset(&c->balance);
	if (!lbClimbReadConfig(&check, config, &c->def, &c->balanceDef))
	{
		*outResult = check.code;
		lbFree(c);
		return NULL;
	}
	c->query = lbWorld_GetQuery((const lbWorld*)ctx->world);
	lbClimbState_Reset(&c->state);
	lbClimbPoseCache_Reset(&c->cache);
	c->lastPose = lbCreatePose(ctx->skeleton);
	c->workspaceSize = lbGetClimbWorkspaceSize(ctx->skeleton);
	c->workspace = lbAlloc(c->workspaceSize);
	if (!c->lastPose.model || !c->workspace)
	{
		lbClimbDestroy(c);
		*outResult = lbReport(lb_errorOutOfMemory, "climb: poses and solver memory");
		return NULL;
	}
	// Zeroed: the pose stage keeps rig data there under a key, and a run's skeleton may sit where
	// an earlier run's freed one did.
	memset(c->workspace, 0, c->workspaceSize);
	bool planned = false;
	lbVec3 goal = lbVec3_zero;
	if (config && lbClimbRunPlanner_Read(&check, config, &planned, &goal) && planned)
	{
		c->planner = lbCreateClimbRunPlanner(ctx, &c->def, &c->query, goal, outResult);
		if (!c->planner)
		{
			lbClimbDestroy(c);
			return NULL;
		}
	}
	*outResult = lb_ok;
	return c;
}

static void lbClimbInput(void* system, const lbRunContext* ctx, const lbScenarioEvent* in)
{
	(void)ctx;
	lbClimbRun* c = (lbClimbRun*)system;
	switch (in->kind)
	{
		case lb_inputSelectLimb:
			lbClimb_Select(&c->state, in->limb);
			break;
		case lb_inputStick:
			lbClimb_SetStick(&c->state, in->vector.x, in->vector.y);
			break;
		case lb_inputConfirm:
			lbClimb_Confirm(&c->state);
			break;
		case lb_inputRelease:
			lbClimb_Release(&c->state, in->limb >= 0 && in->limb < 4 ? in->limb : -1);
			break;
		default:
			break;
	}
}

static void lbClimbSenseStage(void* system, lbRunContext* ctx, float dt, lbSystemOutput* out)
{
	lbClimbRun* c = (lbClimbRun*)system;
	lbClimbSenseInput in = lbDefaultClimbSenseInput();
	in.query = &c->query;
	in.characterWs = ctx->characterWs;
	in.animPose = ctx->basePose;
	in.lastPose = c->hasLast ? &c->lastPose : NULL;
	in.dt = dt;
	if (c->planner)
	{
		const lbPose* body = c->hasLast ? &c->lastPose : ctx->basePose;
		lbClimbRunPlanner_Step(c->planner, &c->state, &c->def,
							   lbTransformPoint(ctx->characterWs, body->model[ctx->humanoid->pelvis].p), dt);
		ctx->failed = lbClimbRunPlanner_Failure(c->planner);
		lbVec3 next;
		if (lbClimbRunPlanner_NextHold(c->planner, &next))
			lbSystemOutput_AddDebug(out, lb_layerTargets, lb_debugSphere, next, next, 0.05f, true);
	}
	if (lbClimbSense(&c->state, &c->def, ctx->skeleton, ctx->humanoid, &in, &c->targets) != lb_ok)
		return;
	if (c->balanceDef.weight > 0.0f)
		lbClimbBalance(&c->balance, &c->balanceDef, ctx->humanoid, c->hasLast ? &c->lastPose : NULL, dt, &c->targets, NULL);
	c->sensed = true;
	// The climbing frame carries the character while anything is held.
	ctx->characterWs = c->targets.characterWs;
	bool held = false;
	for (int i = 0; i < 4; ++i)
		held |= c->targets.limbs[i].locked;
	if (held)
		ctx->state = lb_stateClimbing;
	for (int i = 0; i < 4; ++i)
	{
		const lbClimbLimbTarget* t = &c->targets.limbs[i];
		if (t->mode == lb_climbFree)
			continue;
		lbSystemOutput_AddDebug(out, lb_layerTargets, lb_debugPoint, t->guideWs, t->guideWs, 0.02f, i == c->state.selected);
		lbSystemOutput_AddDebug(out, lb_layerReach, lb_debugSphere, t->reachCentreWs, t->reachCentreWs, t->reach, false);
		if (t->hasSurface)
			lbSystemOutput_AddDebug(out, lb_layerNormals, lb_debugArrow, t->surfaceWs, lbMulAdd(t->surfaceWs, 0.15f, t->normalWs),
						 0.0f, t->locked);
		lbSystemOutput_AddDebug(out, lb_layerContacts, lb_debugPoint, t->targetWs, t->targetWs, 0.025f, t->locked);
	}
	for (int k = 0; k < 2; ++k)
		lbSystemOutput_AddDebug(out, lb_layerCasts, lb_debugSphere, c->targets.probeWs[k], c->targets.probeWs[k],
					 c->def.probeRadius[k], c->targets.probePush[k] > 0.0f);
}

void lbClimbRunContacts(const lbClimbTargets* targets, const lbClimbDef* def, const lbHumanoid* h, lbSystemOutput* out)
{
	for (int i = 0; i < 4 && out->contactCount < LB_RUN_MAX_CONTACTS; ++i)
	{
		const lbClimbLimbTarget* t = &targets->limbs[i];
		if (!t->hasSurface || !(t->mode == lb_climbLocked || t->mode == lb_climbLocking))
			continue;
		lbContact* ct = &out->contacts[out->contactCount++];
		memset(ct, 0, sizeof *ct);
		ct->normalWs = t->normalWs;
		ct->locked = t->mode == lb_climbLocked;
		if (i < 2)
		{
			// The palm's contact: the lock offset below the wrist, out of the palm.
			ct->kind = lb_contactHand;
			ct->bone = h->arm[i].hand;
			ct->offsetLocal = lbMulSV(def->lockOffset[0], h->armAxes[i].palm);
			ct->targetWs = t->surfaceWs;
			ct->touching = true;
		}
		else
		{
			// The toe tip (carried by the ball bone where the rig has one), held at its target.
			int s = i - 2;
			ct->kind = lb_contactFoot;
			bool ball = h->leg[s].ball >= 0;
			ct->bone = ball ? h->leg[s].ball : h->leg[s].foot;
			if (ball)
				ct->offsetLocal = h->legAxes[s].toeTipBall;
			else
			{
				lbSole sole = lbHumanoid_GetSole(h, s);
				ct->offsetLocal = lbMulAdd(sole.under, sole.along[lb_soleToeTip], sole.toeFlat);
			}
			ct->targetWs = t->targetWs;
		}
	}
}

static void lbClimbPoseStage(void* system, const lbRunContext* ctx, lbPose* pose, lbSystemOutput* out)
{
	lbClimbRun* c = (lbClimbRun*)system;
	if (!c->sensed)
		return;
	const lbHumanoid* h = ctx->humanoid;
	if (lbClimbApplyPose(&c->targets, &c->def, ctx->skeleton, h, &c->cache, pose, c->workspace, c->workspaceSize,
						 &c->result) != lb_ok)
		return;
	lbPose_Copy(&c->lastPose, pose);
	c->hasLast = true;
	lbClimbRunContacts(&c->targets, &c->def, h, out);
	for (int s = 0; s < 2; ++s)
	{
		int thigh = h->leg[s].thigh, calf = h->leg[s].calf;
		lbVec3 knee = lbTransformPoint(ctx->characterWs, pose->model[calf].p);
		(void)thigh;
		lbSystemOutput_AddDebug(out, lb_layerPoles, lb_debugLine, knee,
					 lbTransformPoint(ctx->characterWs, c->result.kneePoleMs[s]), 0.0f, false);
	}
}

static int lbClimbValues(const void* system, const char** names, float* values, int capacity)
{
	const lbClimbRun* c = (const lbClimbRun*)system;
	static const char* const n[] = { "selected_limb", "held",          "constraint_excess", "remaining_max",
									 "hand_reliability_l", "hand_reliability_r", "leg_side_l", "leg_side_r",
									 "body_offset", "casts", "mode_hand_l", "mode_hand_r", "mode_foot_l", "mode_foot_r",
									 "plan_move", "plan_moves", "beyond_reach" };
	int planMove = 0, planMoves = 0;
	lbClimbRunPlanner_Progress(c->planner, &planMove, &planMoves);
	int held = 0;
	float beyond = 0.0f;
	for (int i = 0; i < 4; ++i)
	{
		held += c->targets.limbs[i].locked;
		beyond = lbMaxF(beyond, c->targets.limbs[i].beyondReach);
	}
	const float v[] = { (float)c->state.selected,
						(float)held,
						c->result.constraintExcess,
						c->result.remainingMax,
						c->result.handReliability[0],
						c->result.handReliability[1],
						c->result.legSide[0],
						c->result.legSide[1],
						lbLength(c->targets.bodyOffsetWs),
						(float)c->targets.castCount,
						(float)c->targets.limbs[0].mode,
						(float)c->targets.limbs[1].mode,
						(float)c->targets.limbs[2].mode,
						(float)c->targets.limbs[3].mode,
						(float)planMove,
						(float)planMoves,
						beyond };
	return lbSystemValuesCopy(n, v, (int)(sizeof v / sizeof v[0]), names, values, capacity);
}

static const char* const lbClimbLimbNames[4] = { "hand_l", "hand_r", "foot_l", "foot_r" };

static int lbClimbTargetsOf(const void* system, lbDragTarget* targets, int capacity)
{
	const lbClimbRun* c = (const lbClimbRun*)system;
	for (int i = 0; i < 4 && i < capacity; ++i)
	{
		snprintf(targets[i].name, sizeof targets[i].name, "%s", lbClimbLimbNames[i]);
		targets[i].positionWs = c->state.limbs[i].mode == lb_climbFree ? c->targets.limbs[i].targetWs
																	   : c->state.limbs[i].guideWs;
	}
	return 4;
}

// A drag selects the limb (releasing a held one) and puts its guide point where the user points;
// the search then finds the surface under it.
static lbResult lbClimbSetTarget(void* system, int index, lbVec3 positionWs)
{
	lbClimbRun* c = (lbClimbRun*)system;
	if (index < 0 || index >= 4)
		return lbReport(lb_errorInvalidArgument, "climb: drag target %d outside 0..3", index);
	if (!lbIsValidVec3(positionWs))
		return lbReport(lb_errorNonFinite, "climb: drag target is not finite");
	lbClimbLimbState* l = &c->state.limbs[index];
	if (l->mode == lb_climbLocked || l->mode == lb_climbLocking)
		lbClimb_Release(&c->state, index);
	lbClimb_Select(&c->state, index);
	l->guideWs = positionWs;
	l->lockTimer = 0.0f;
	return lb_ok;
}

const lbSystemEntry lbSystemClimb = {
	"climb",
	"limb-by-limb climbing: select a limb, steer its target along the wall, confirm the hold, release",
	lbClimbCheck,
	lbClimbCreate,
	lbClimbDestroy,
	lbClimbInput,
	lbClimbSenseStage,
	lbClimbPoseStage,
	lbClimbValues,
	lbClimbTargetsOf,
	lbClimbSetTarget,
};
