// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Systems a scenario can name. A system joins by adding one entry here; "none" plays the base
// motion untouched and is always first.
#include "scenario_internal.h"

#include "limber/ik.h"

#include <stdlib.h>
#include <string.h>

// Stateless entries return this address as their (non-NULL) state.
static const char lbStatelessToken = 0;

static void* lbNoneCreate(const lbRunContext* ctx, const cJSON* config, lbResult* outResult)
{
	(void)ctx;
	(void)config;
	*outResult = lb_ok;
	return (void*)&lbStatelessToken;
}

static void lbNoneDestroy(void* system)
{
	(void)system;
}


// ---------------------------------------------------------------------------------------------
// "reach": two-bone IK of each limb toward a world target. Targets follow the animation until a
// stick input steers the selected one or the user drags one; confirm pins (locks) the selected
// target, release lets every target follow the animation again. It exercises the IK layer, the
// drag targets and the contact metrics before the contact systems exist.

typedef struct lbReach
{
	lbVec3 targetWs[4];
	// 0 follows the animation, 1 steered, 2 pinned (a locked contact).
	int mode[4];
	int selected;
	lbVec3 stick;
	float speed;
	float soften;
	float remaining[4];
	// IK weight per limb: rises to 1 while steered or pinned, falls to 0 after release so the
	// limb blends back into the animation instead of snapping.
	float weight[4];
} lbReach;

static const char* const lbReachLimbNames[4] = { "hand_l", "hand_r", "foot_l", "foot_r" };

static bool lbReachCheck(lbJsonCheck* check, const cJSON* config)
{
	static const char* const keys[] = { "stick_speed", "soften", NULL };
	double v = 0.0;
	return !config || (lbJsonKeysAllowed(check, config, "system.config", keys) &&
					   lbJsonNumber(check, config, "system.config", "stick_speed", 0.0, 10.0, &v) &&
					   lbJsonNumber(check, config, "system.config", "soften", 0.0, 0.5, &v));
}

static void* lbReachCreate(const lbRunContext* ctx, const cJSON* config, lbResult* outResult)
{
	(void)ctx;
	lbReach* r = (lbReach*)calloc(1, sizeof(lbReach));
	if (!r)
	{
		*outResult = lbReport(lb_errorOutOfMemory, "reach");
		return NULL;
	}
	r->selected = 1;
	r->speed = 0.6f;
	const cJSON* it = config ? cJSON_GetObjectItemCaseSensitive(config, "stick_speed") : NULL;
	if (cJSON_IsNumber(it))
		r->speed = (float)it->valuedouble;
	it = config ? cJSON_GetObjectItemCaseSensitive(config, "soften") : NULL;
	if (cJSON_IsNumber(it))
		r->soften = (float)it->valuedouble;
	*outResult = lb_ok;
	return r;
}

static void lbReachDestroy(void* system)
{
	free(system);
}

static void lbReachInput(void* system, const lbRunContext* ctx, const lbScenarioEvent* in)
{
	(void)ctx;
	lbReach* r = (lbReach*)system;
	switch (in->kind)
	{
		case lb_inputSelectLimb:
			if (in->limb >= 0 && in->limb < 4)
				r->selected = in->limb;
			break;
		case lb_inputStick:
			r->stick = in->vector;
			break;
		case lb_inputConfirm:
			r->mode[r->selected] = 2;
			break;
		case lb_inputRelease:
			for (int i = 0; i < 4; ++i)
				r->mode[i] = 0;
			r->stick = lbVec3_zero;
			break;
		default:
			break;
	}
}

static void lbReachSense(void* system, lbRunContext* ctx, float dt, lbSystemOutput* out)
{
	(void)out;
	lbReach* r = (lbReach*)system;
	for (int i = 0; i < 4; ++i)
		r->weight[i] = lbInterpConstantTo(r->weight[i], r->mode[i] != 0 ? 1.0f : 0.0f, dt, 1.0f / 0.35f);
	float len = lbLength(r->stick);
	if (len > 1.0e-3f)
	{
		// Stick x moves toward the character's right, y along up.
		lbVec3 up = ctx->upWs;
		lbVec3 fwd = lbQuatRotate(ctx->characterWs.q, ctx->humanoid->forwardMs);
		lbVec3 right = lbNormalize(lbCross(fwd, up));
		lbVec3 move = lbAdd(lbMulSV(r->stick.x, right), lbMulSV(r->stick.y, up));
		r->targetWs[r->selected] = lbMulAdd(r->targetWs[r->selected], r->speed * dt, move);
		if (r->mode[r->selected] == 0)
			r->mode[r->selected] = 1;
	}
}

static void lbReachPose(void* system, const lbRunContext* ctx, lbPose* pose, lbSystemOutput* out)
{
	lbReach* r = (lbReach*)system;
	for (int i = 0; i < 4; ++i)
	{
		lbLimbChain chain;
		r->remaining[i] = 0.0f;
		if (lbHumanoid_GetLimbChain(ctx->humanoid, (lbLimb)i, &chain) != lb_ok)
			continue;
		if (r->mode[i] == 0 && r->weight[i] <= 0.0f)
		{
			r->targetWs[i] = lbTransformPoint(ctx->characterWs, pose->model[chain.end].p);
			continue;
		}
		lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
		in.targetMs = lbInvTransformPoint(ctx->characterWs, r->targetWs[i]);
		in.soften = r->soften;
		// Smoothstep of the ramp: no velocity jump at either end of the blend.
		in.weight = lbSmoothStep(r->weight[i]);
		lbIkResult res;
		if (lbPose_SolveLimbIk(pose, ctx->skeleton, ctx->humanoid, (lbLimb)i, &in, &res) == lb_ok)
			r->remaining[i] = res.remainingDistance;
		// Pinned limbs are locked contacts; a foot under IK control is reported (not touching)
		// so the metrics do not take it for a planted foot.
		if ((r->mode[i] == 2 || i >= 2) && out->contactCount < LB_RUN_MAX_CONTACTS)
		{
			lbContact* c = &out->contacts[out->contactCount++];
			memset(c, 0, sizeof *c);
			// Pinned in the air, not on a surface: drift counts; a hand is a body contact (no
			// palm-to-wall angle), a foot a non-touching foot contact (no ground probe).
			c->kind = i < 2 ? lb_contactBody : lb_contactFoot;
			c->bone = chain.end;
			c->offsetLocal = lbVec3_zero;
			c->targetWs = r->targetWs[i];
			c->normalWs = ctx->upWs;
			c->locked = r->mode[i] == 2;
		}
	}
}

static int lbReachValues(const void* system, const char** names, float* values, int capacity)
{
	const lbReach* r = (const lbReach*)system;
	static const char* const n[] = { "selected_limb", "pinned", "remaining_max" };
	int pinned = 0;
	float worst = 0.0f;
	for (int i = 0; i < 4; ++i)
	{
		pinned += r->mode[i] == 2;
		worst = lbMaxF(worst, r->remaining[i]);
	}
	const float v[] = { (float)r->selected, (float)pinned, worst };
	for (int i = 0; i < 3 && i < capacity; ++i)
	{
		if (names)
			names[i] = n[i];
		if (values)
			values[i] = v[i];
	}
	return 3;
}

static int lbReachTargets(const void* system, lbDragTarget* targets, int capacity)
{
	const lbReach* r = (const lbReach*)system;
	for (int i = 0; i < 4 && i < capacity; ++i)
	{
		snprintf(targets[i].name, sizeof targets[i].name, "%s", lbReachLimbNames[i]);
		targets[i].positionWs = r->targetWs[i];
	}
	return 4;
}

static lbResult lbReachSetTarget(void* system, int index, lbVec3 positionWs)
{
	lbReach* r = (lbReach*)system;
	if (index < 0 || index >= 4)
		return lbReport(lb_errorInvalidArgument, "reach: drag target %d outside 0..3", index);
	r->targetWs[index] = positionWs;
	r->mode[index] = 2;
	r->selected = index;
	return lb_ok;
}

static const lbSystemEntry lbSystemNone = {
	"none", "plays the base motion with no correction", NULL, lbNoneCreate, lbNoneDestroy, NULL, NULL, NULL, NULL,
	  NULL, NULL,
};

static const lbSystemEntry lbSystemReach = {
	"reach", "two-bone IK of each limb toward targets: steer with select_limb + stick, pin with confirm, drag in the viewer",
	lbReachCheck, lbReachCreate, lbReachDestroy, lbReachInput, lbReachSense, lbReachPose, lbReachValues, lbReachTargets,
	lbReachSetTarget,
};

// The table: one line per system ("none" first). Systems with an adapter of their own define
// their entry in src/io/scenario_system_<name>.c.
static const lbSystemEntry* const lbSystems[] = {
	&lbSystemNone,
	&lbSystemFoot,
	&lbSystemClimb,
	&lbSystemReach,
};

#define LB_SYSTEM_COUNT ((int)(sizeof lbSystems / sizeof lbSystems[0]))

int lbScenarioSystemCount(void)
{
	return LB_SYSTEM_COUNT;
}

const char* lbScenarioSystemName(int index)
{
	return index >= 0 && index < LB_SYSTEM_COUNT ? lbSystems[index]->name : NULL;
}

const char* lbScenarioSystemSummary(int index)
{
	return index >= 0 && index < LB_SYSTEM_COUNT ? lbSystems[index]->summary : NULL;
}

const lbSystemEntry* lbFindSystemEntry(const char* name)
{
	for (int i = 0; name && i < LB_SYSTEM_COUNT; ++i)
		if (strcmp(lbSystems[i]->name, name) == 0)
			return lbSystems[i];
	return NULL;
}
