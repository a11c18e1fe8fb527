// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The foot system in the scenario runner: config keys map onto lbFootDef, the runner's character
// state onto the foot system's movement state, and the targets onto contacts for the metrics.
#include "scenario_internal.h"

#include "limber/foot.h"
#include "limber/ik.h"
#include "limber/query.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct lbFootRun
{
	lbFootDef def;
	lbFootState state;
	lbFootTargets targets;
	lbFootSolver solver;
	lbFootIkMode ikMode;
	lbSceneQuery query;
	bool landed;
	bool sensed;
	// Full-body solver memory (NULL with the two-bone solver).
	void* workspace;
	size_t workspaceSize;
	// Slide of locked feet: how far each sole moves from where its lock began (m).
	float slideMax;
	// Heel, under the ankle and ball of each foot where its lock began (world).
	lbVec3 lockStartWs[2][3];
	bool wasLocked[2];
} lbFootRun;

// Number keys: name, offset in lbFootDef, range, and whether the file gives degrees.
typedef struct lbFootKey
{
	const char* name;
	size_t offset;
	double lo, hi;
	bool degrees;
} lbFootKey;

static const lbFootKey lbFootKeys[] = {
	{ "trace_radius", offsetof(lbFootDef, traceRadius), 0.0, 0.5, false },
	{ "trace_above", offsetof(lbFootDef, traceAbove), 0.0, 5.0, false },
	{ "trace_below", offsetof(lbFootDef, traceBelow), 0.0, 5.0, false },
	{ "normal_weight", offsetof(lbFootDef, normalWeight), 0.0, 1.0, false },
	{ "max_foot_angle_deg", offsetof(lbFootDef, maxFootAngle), 0.0, 90.0, true },
	{ "slope_limit_deg", offsetof(lbFootDef, slopeLimit), 0.0, 90.0, true },
	{ "goal_speed", offsetof(lbFootDef, goalSpeed), 0.0, 1000.0, false },
	{ "rotation_speed", offsetof(lbFootDef, rotationSpeed), 0.0, 1000.0, false },
	{ "prediction_time", offsetof(lbFootDef, predictionTime), 0.0, 1.0, false },
	{ "prediction_max", offsetof(lbFootDef, predictionMax), 0.0, 2.0, false },
	{ "prediction_max_turn_rate", offsetof(lbFootDef, predictionMaxTurnRate), 0.0, 100.0, false },
	{ "pelvis_weight", offsetof(lbFootDef, pelvisWeight), 0.0, 1.0, false },
	{ "pelvis_max_sink", offsetof(lbFootDef, pelvisMaxSink), 0.0, 2.0, false },
	{ "pelvis_max_sink_slope", offsetof(lbFootDef, pelvisMaxSinkSlope), 0.0, 2.0, false },
	{ "pelvis_max_lift", offsetof(lbFootDef, pelvisMaxLift), 0.0, 2.0, false },
	{ "climb_hip_shift", offsetof(lbFootDef, climbHipShift), 0.0, 1.0, false },
	{ "knee_max_bend_deg", offsetof(lbFootDef, kneeMaxBend), 0.0, 180.0, true },
	{ "hip_max_flex_deg", offsetof(lbFootDef, hipMaxFlex), 0.0, 180.0, true },
	{ "pelvis_speed", offsetof(lbFootDef, pelvisSpeed), 0.0, 1000.0, false },
	{ "landing_compression", offsetof(lbFootDef, landingCompression), -1.0, 1.0, false },
	{ "landing_relax_speed", offsetof(lbFootDef, landingRelaxSpeed), 0.0, 1000.0, false },
	{ "alpha_speed", offsetof(lbFootDef, alphaSpeed), 0.0, 1000.0, false },
	{ "clamped_alpha", offsetof(lbFootDef, clampedAlpha), 0.0, 1.0, false },
	{ "trace_rate", offsetof(lbFootDef, traceRate), 0.0, 1000.0, false },
	{ "lod_distance", offsetof(lbFootDef, lodDistance), 0.0, 1.0e6, false },
	{ "lock_speed", offsetof(lbFootDef, lockSpeed), 0.0, 10.0, false },
	{ "lock_height", offsetof(lbFootDef, lockHeight), 0.0, 1.0, false },
	{ "lock_release_distance", offsetof(lbFootDef, lockReleaseDistance), 0.0, 2.0, false },
	{ "lock_release_angle_deg", offsetof(lbFootDef, lockReleaseAngle), 0.0, 180.0, true },
	{ "lock_blend_speed", offsetof(lbFootDef, lockBlendSpeed), 0.0, 1000.0, false },
	{ "teleport_distance", offsetof(lbFootDef, teleportDistance), 0.0, 1000.0, false },
	{ "leg_soften", offsetof(lbFootDef, legSoften), 0.0, 0.5, false },
	{ "ankle_limit_deg", offsetof(lbFootDef, ankleLimit), 0.0, 180.0, true },
	{ "edge_height", offsetof(lbFootDef, edgeHeight), 0.0, 1.0, false },
	{ "edge_margin", offsetof(lbFootDef, edgeMargin), 0.0, 0.5, false },
	{ "max_plant_shift", offsetof(lbFootDef, maxPlantShift), 0.0, 1.0, false },
	{ "swing_lookahead", offsetof(lbFootDef, swingLookahead), 0.0, 2.0, false },
	{ "swing_clearance", offsetof(lbFootDef, swingClearance), 0.0, 1.0, false },
	{ "slide_height", offsetof(lbFootDef, slideHeight), 0.0, 2.0, false },
	{ "max_goal_speed", offsetof(lbFootDef, maxGoalSpeed), 0.0, 100.0, false },
	{ "probe_reuse_distance", offsetof(lbFootDef, probeReuseDistance), 0.0, 1.0, false },
};
#define LB_FOOT_KEY_COUNT ((int)(sizeof lbFootKeys / sizeof lbFootKeys[0]))

// The def's bit masks and owner id (integers).
static const struct
{
	const char* name;
	size_t offset;
} lbFootMaskKeys[] = { { "channel_mask", offsetof(lbFootDef, channelMask) }, { "ignore_owner_id", offsetof(lbFootDef, ignoreOwnerId) } };

static int lbFindChoice(const cJSON* item, const char* const* choices, int count)
{
	if (!cJSON_IsString(item))
		return -1;
	for (int i = 0; i < count; ++i)
		if (strcmp(item->valuestring, choices[i]) == 0)
			return i;
	return -1;
}

static const char* const lbTraceOrigins[] = { "foot", "pelvis" };
static const char* const lbPelvisModes[] = { "lowest_foot", "weighted_average" };
static const char* const lbSolvers[] = { "two_bone", "full_body" };
static const char* const lbIkModes[] = { "enabled", "disabled", "clamped" };

// Flags (no choices: a bool in lbFootDef) and choices (an enum, in the def or, for the solver and
// the IK mode, in the run), read by the same loop that lists them as allowed keys.
#define LB_FOOT_NOT_IN_DEF ((size_t)-1)
static const struct
{
	const char* name;
	size_t offset;
	const char* const* choices;
	int choiceCount;
} lbFootOtherKeys[] = {
	{ "trace_origin", offsetof(lbFootDef, traceOrigin), lbTraceOrigins, 2 },
	{ "heel_toe_traces", offsetof(lbFootDef, heelToeTraces), NULL, 0 },
	{ "pelvis_mode", offsetof(lbFootDef, pelvisMode), lbPelvisModes, 2 },
	{ "foot_lock", offsetof(lbFootDef, footLock), NULL, 0 },
	{ "solver", LB_FOOT_NOT_IN_DEF, lbSolvers, 2 },
	{ "ik_mode", LB_FOOT_NOT_IN_DEF, lbIkModes, 3 },
	{ "footprint_traces", offsetof(lbFootDef, footprintTraces), NULL, 0 },
};
#define LB_FOOT_OTHER_COUNT ((int)(sizeof lbFootOtherKeys / sizeof lbFootOtherKeys[0]))
// Choices in the def are enums written as int.
_Static_assert(sizeof(lbFootTraceOrigin) == sizeof(int) && sizeof(lbFootPelvisMode) == sizeof(int), "enum size");

// Reads the config into def (when given) after checking it; one function so checking and
// building can never disagree.
static bool lbFootReadConfig(lbJsonCheck* check, const cJSON* config, lbFootRun* out)
{
	if (!config)
		return true;
	const char* allowed[LB_FOOT_KEY_COUNT + LB_FOOT_OTHER_COUNT + 3];
	int n = 0;
	for (int i = 0; i < LB_FOOT_KEY_COUNT; ++i)
		allowed[n++] = lbFootKeys[i].name;
	for (int i = 0; i < LB_FOOT_OTHER_COUNT; ++i)
		allowed[n++] = lbFootOtherKeys[i].name;
	for (int i = 0; i < 2; ++i)
		allowed[n++] = lbFootMaskKeys[i].name;
	allowed[n] = NULL;
	if (!lbJsonKeysAllowed(check, config, "system.config", allowed))
		return false;
	for (int i = 0; i < LB_FOOT_KEY_COUNT; ++i)
	{
		double v = -1.0e300;
		if (!lbJsonNumber(check, config, "system.config", lbFootKeys[i].name, lbFootKeys[i].lo, lbFootKeys[i].hi, &v))
			return false;
		if (out && v > -1.0e299)
			*(float*)((char*)&out->def + lbFootKeys[i].offset) = (float)(lbFootKeys[i].degrees ? v * LB_DEG2RAD : v);
	}
	for (int i = 0; i < 2; ++i)
	{
		double v = -1.0;
		if (!lbJsonNumber(check, config, "system.config", lbFootMaskKeys[i].name, 0.0, 4294967295.0, &v))
			return false;
		if (out && v >= 0.0)
			*(uint32_t*)((char*)&out->def + lbFootMaskKeys[i].offset) = (uint32_t)v;
	}
	for (int i = 0; i < LB_FOOT_OTHER_COUNT; ++i)
	{
		if (lbFootOtherKeys[i].choiceCount > 0)
			continue;
		bool v = false;
		if (out)
			memcpy(&v, (char*)&out->def + lbFootOtherKeys[i].offset, sizeof v);
		if (!lbJsonBool(check, config, "system.config", lbFootOtherKeys[i].name, &v))
			return false;
		if (out)
			memcpy((char*)&out->def + lbFootOtherKeys[i].offset, &v, sizeof v);
	}
	for (int i = 0; i < LB_FOOT_OTHER_COUNT; ++i)
	{
		const char* key = lbFootOtherKeys[i].name;
		const char* const* choices = lbFootOtherKeys[i].choices;
		const int count = lbFootOtherKeys[i].choiceCount;
		const cJSON* item = count > 0 ? cJSON_GetObjectItemCaseSensitive(config, key) : NULL;
		if (!item)
			continue;
		int picked = lbFindChoice(item, choices, count);
		if (picked < 0)
		{
			char path[64], list[128] = "";
			size_t used = 0;
			for (int c = 0; c < count; ++c)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", c ? ", " : "", choices[c]);
			snprintf(path, sizeof path, "system.config.%s", key);
			return lbJsonFail(check, lb_errorParse, path, "expected one of %s", list);
		}
		if (!out)
			continue;
		if (lbFootOtherKeys[i].offset != LB_FOOT_NOT_IN_DEF)
			memcpy((char*)&out->def + lbFootOtherKeys[i].offset, &picked, sizeof picked);
		else if (strcmp(key, "solver") == 0)
			out->solver = (lbFootSolver)picked;
		else
			out->ikMode = (lbFootIkMode)picked;
	}
	return true;
}

static bool lbFootCheck(lbJsonCheck* check, const cJSON* config)
{
	return lbFootReadConfig(check, config, NULL);
}

int lbFootConfigKeys(lbFootConfigKey* out, int capacity)
{
	int n = 0;
	for (int i = 0; i < LB_FOOT_KEY_COUNT; ++i, ++n)
		if (out && n < capacity)
			out[n] = (lbFootConfigKey){ lbFootKeys[i].name, lb_footKeyNumber, lbFootKeys[i].offset, lbFootKeys[i].lo,
										lbFootKeys[i].hi, lbFootKeys[i].degrees, NULL, 0 };
	for (int i = 0; i < 2; ++i, ++n)
		if (out && n < capacity)
			out[n] = (lbFootConfigKey){ lbFootMaskKeys[i].name, lb_footKeyInteger, lbFootMaskKeys[i].offset, 0.0, 4294967295.0, false, NULL, 0 };
	for (int i = 0; i < LB_FOOT_OTHER_COUNT; ++i, ++n)
		if (out && n < capacity)
			out[n] = (lbFootConfigKey){ lbFootOtherKeys[i].name,
										lbFootOtherKeys[i].choiceCount > 0 ? lb_footKeyChoice : lb_footKeyFlag,
										lbFootOtherKeys[i].offset,
										0.0,
										0.0,
										false,
										lbFootOtherKeys[i].choices,
										lbFootOtherKeys[i].choiceCount };
	return n;
}

bool lbFootConfigRead(const cJSON* config, lbFootDef* def, int* outSolver, int* outIkMode, char* message, int capacity,
					  lbResult* outCode)
{
	lbFootRun run;
	memset(&run, 0, sizeof run);
	run.def = *def;
	run.solver = lb_footSolverTwoBone;
	run.ikMode = lb_footIkEnabled;
	lbJsonCheck check = { "foot config", message, capacity, lb_ok };
	bool ok = lbFootReadConfig(&check, config, &run);
	if (ok)
		*def = run.def;
	if (outSolver)
		*outSolver = (int)run.solver;
	if (outIkMode)
		*outIkMode = (int)run.ikMode;
	if (outCode)
		*outCode = check.code;
	return ok;
}

static void* lbFootCreate(const lbRunContext* ctx, const cJSON* config, lbResult* outResult)
{
	lbFootRun* f = (lbFootRun*)lbAllocZeroed(sizeof(lbFootRun));
	if (!f)
	{
		*outResult = lbReport(lb_errorOutOfMemory, "foot");
		return NULL;
	}
	f->def = lbDefaultFootDef();
	f->def.up = ctx->upWs;
	f->solver = lb_footSolverTwoBone;
	f->ikMode = lb_footIkEnabled;
	lbJsonCheck check = { ctx->scenario->path, NULL, 0, lb_ok };
	if (!lbFootReadConfig(&check, config, f))
	{
		*outResult = check.code;
		lbFree(f);
		return NULL;
	}
	f->query = lbWorld_GetQuery((const lbWorld*)ctx->world);
	lbFootState_Reset(&f->state);
	if (f->solver == lb_footSolverFullBody)
	{
		// The full-body solver works on caller memory: one block for the whole run.
		f->workspaceSize = lbGetFullBodyIkWorkspaceSize(ctx->skeleton);
		f->workspace = lbAlloc(f->workspaceSize);
		if (!f->workspace)
		{
			*outResult = lbReport(lb_errorOutOfMemory, "foot: full-body workspace");
			lbFree(f);
			return NULL;
		}
		// Zeroed: the solver keeps rig data there under a key, and a run's skeleton may sit where an
		// earlier run's freed one did (lbSolveFullBodyIk's contract).
		memset(f->workspace, 0, f->workspaceSize);
	}
	*outResult = lb_ok;
	return f;
}

static void lbFootDestroy(void* system)
{
	lbFootRun* f = (lbFootRun*)system;
	if (f)
		lbFree(f->workspace);
	lbFree(f);
}

static void lbFootInput(void* system, const lbRunContext* ctx, const lbScenarioEvent* in)
{
	(void)ctx;
	lbFootRun* f = (lbFootRun*)system;
	if (in->kind == lb_inputState && in->state == lb_stateLanding)
		f->landed = true;
}

static lbFootMoveState lbFootMoveOf(lbCharacterState s)
{
	switch (s)
	{
		case lb_stateFalling:
			return lb_footFalling;
		case lb_stateRolling:
			return lb_footRolling;
		case lb_stateClimbing:
			return lb_footClimbing;
		default:
			return lb_footGrounded;
	}
}

static void lbFootSenseStage(void* system, lbRunContext* ctx, float dt, lbSystemOutput* out)
{
	lbFootRun* f = (lbFootRun*)system;
	lbFootSenseInput in = lbDefaultFootSenseInput();
	in.query = &f->query;
	in.characterWs = ctx->characterWs;
	in.animPose = ctx->basePose;
	in.velocityWs = ctx->velocityWs;
	in.dt = dt;
	in.ikMode = ctx->state == lb_stateProne ? lb_footIkDisabled : f->ikMode;
	in.moveState = lbFootMoveOf(ctx->state);
	in.landed = f->landed;
	in.cameraWs = ctx->cameraWs;
	in.hasCamera = ctx->hasCamera;
	f->landed = false;
	f->sensed = lbFootSense(&f->state, &f->def, ctx->skeleton, ctx->humanoid, &in, &f->targets) == lb_ok;

	const lbHumanoid* h = ctx->humanoid;
	for (int s = 0; s < 2 && f->sensed; ++s)
	{
		const lbFootTarget* t = &f->targets.feet[s];
		int foot = h->leg[s].foot;
		if (out->contactCount + 2 > LB_RUN_MAX_CONTACTS || foot < 0)
			continue;
		// The ankle against its goal (drift while locked), and the sole against the ground it
		// stands on (penetration and hover while planted).
		lbContact* c = &out->contacts[out->contactCount++];
		memset(c, 0, sizeof *c);
		c->kind = lb_contactFoot;
		c->bone = foot;
		c->targetWs = t->ankleWs;
		c->normalWs = t->grounded ? t->normalWs : ctx->upWs;
		c->locked = t->locked && t->alpha > 0.999f && f->targets.alpha > 0.999f;
		lbContact* g = &out->contacts[out->contactCount++];
		memset(g, 0, sizeof *g);
		g->kind = lb_contactFoot;
		g->bone = foot;
		g->offsetLocal = t->soleLocal;
		g->targetWs = t->contactWs;
		g->normalWs = t->grounded ? t->normalWs : ctx->upWs;
		// Settled: planted and blended fully into its lock; the first frames of a plant settle it.
		g->touching = t->settled && t->grounded && t->alpha > 0.999f && f->targets.alpha > 0.999f;
		if (t->grounded && out->debugCount + 2 <= LB_RUN_MAX_DEBUG)
		{
			lbDebugItem* d = &out->debug[out->debugCount++];
			memset(d, 0, sizeof *d);
			d->layer = lb_layerTargets;
			d->shape = lb_debugPoint;
			d->a = d->b = t->ankleWs;
			d->radius = 0.03f;
			d->highlight = t->locked;
		}
	}
}

static void lbFootPoseStage(void* system, const lbRunContext* ctx, lbPose* pose, lbSystemOutput* out)
{
	(void)out;
	lbFootRun* f = (lbFootRun*)system;
	if (!f->sensed)
		return;
	lbFootApplyPose(&f->targets, &f->def, ctx->skeleton, ctx->humanoid, f->solver, pose, f->workspace, f->workspaceSize);
	for (int s = 0; s < 2; ++s)
	{
		const lbFootTarget* t = &f->targets.feet[s];
		// Only a foot the IK holds fully can be judged for sliding (beyond the slope limit the
		// animation has it).
		bool held = t->locked && t->settled && t->alpha > 0.999f && f->targets.alpha > 0.999f;
		// Measured at the point the foot bears on: of heel, under the ankle and ball, the one that
		// moved least since the lock began (a heel lifting about the ball is not a slide).
		lbVec3 pts[lb_solePointCount];
		lbHumanoid_GetSolePointsMs(ctx->humanoid, pose, s, pts);
		if (held && !f->wasLocked[s])
			for (int k = 0; k < 3; ++k)
				f->lockStartWs[s][k] = lbTransformPoint(ctx->characterWs, pts[k]);
		if (held)
		{
			float least = 1.0e30f;
			for (int k = 0; k < 3; ++k)
				least = lbMinF(least, lbDistance(lbTransformPoint(ctx->characterWs, pts[k]), f->lockStartWs[s][k]));
			f->slideMax = lbMaxF(f->slideMax, least);
		}
		f->wasLocked[s] = held;
	}
}

static int lbFootValues(const void* system, const char** names, float* values, int capacity)
{
	const lbFootRun* f = (const lbFootRun*)system;
	static const char* const n[] = { "alpha",    "pelvis_offset", "pelvis_sink_limit", "ground_l", "ground_r",
									 "locked_l", "locked_r",      "casts",    "locked_slide_max", "unsupported" };
	const float v[] = { f->targets.alpha,
						f->targets.pelvisOffset,
						f->targets.pelvisMaxSink,
						f->state.legs[0].offset,
						f->state.legs[1].offset,
						f->targets.feet[0].locked ? 1.0f : 0.0f,
						f->targets.feet[1].locked ? 1.0f : 0.0f,
						(float)f->targets.castCount,
						f->slideMax,
						f->targets.unsupported ? 1.0f : 0.0f };
	return lbSystemValuesCopy(n, v, (int)(sizeof v / sizeof v[0]), names, values, capacity);
}

const lbSystemEntry lbSystemFoot = {
	"foot",
	"foot placement on uneven ground: casts, foot goals and tilt, pelvis offset, landing, foot locking",
	lbFootCheck,
	lbFootCreate,
	lbFootDestroy,
	lbFootInput,
	lbFootSenseStage,
	lbFootPoseStage,
	lbFootValues,
	NULL,
	NULL,
};
