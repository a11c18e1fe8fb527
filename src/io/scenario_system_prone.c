// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The prone system in the scenario runner: config keys map onto lbProneDef; the runner's prone state
// is the system's active flag; contacts (torso resting, hands and feet held) go to the metrics.
// Two things a game's animation would give and the procedural motions do not are made here:
// - a body knocked onto its back ("posture": "back"): the rest pose laid face up, head ahead;
// - going down to prone from a standing motion and back up ("transition_time"): the standing base
//   pose blends into the procedural prone pose, every joint kept at least as high as in the blend
//   of the two poses' heights, so nothing passes through the floor on the way.
#include "scenario_internal.h"

#include "limber/motion.h"
#include "limber/prone.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef enum lbPronePostureKey
{
	lb_pronePostureAnimated = 0,
	lb_pronePostureBack,
} lbPronePostureKey;

typedef struct lbProneRun
{
	lbProneDef def;
	lbProneState state;
	lbProneTargets targets;
	lbProneResult result;
	lbSceneQuery query;
	bool sensed;
	lbPronePostureKey posture;
	float transitionTime;
	// Transition from standing: progress in [0, 1] and the procedural prone motion it blends toward.
	float down;
	lbMotionState motion;
	lbMotionDef motionParams;
	bool motionReady;
	// Where the rest soles and pelvis stand off the model origin (m, lbRunRestOffset): the lying pose
	// is moved back by it as the runner moves a motion's pose (the imported BCN rig's rest stands a
	// metre under its origin, and it lay a metre under the floor).
	lbVec3 restOffset;
	// The animated pose the system fits (the base pose, laid down or blended) and the prone pose.
	lbPose anim;
	lbPose lying;
} lbProneRun;

static const lbConfigNumberKey lbProneKeys[] = {
	{ "trace_radius", offsetof(lbProneDef, traceRadius), 0.0, 1.0, false, false },
	{ "trace_up", offsetof(lbProneDef, traceUp), 0.0, 5.0, false, false },
	{ "trace_down", offsetof(lbProneDef, traceDown), 0.0, 5.0, false, false },
	{ "side_offset", offsetof(lbProneDef, sideOffset), 0.0, 2.0, false, false },
	{ "side_extent", offsetof(lbProneDef, sideExtent), 0.0, 5.0, false, false },
	{ "side_radius", offsetof(lbProneDef, sideRadius), 0.0, 1.0, false, false },
	{ "upper_extent", offsetof(lbProneDef, upperExtent), 0.0, 5.0, false, false },
	{ "lower_extent", offsetof(lbProneDef, lowerExtent), 0.0, 5.0, false, false },
	{ "max_roll_deg", offsetof(lbProneDef, maxRoll), 0.0, 90.0, true, false },
	{ "max_upper_pitch_deg", offsetof(lbProneDef, maxUpperPitch), 0.0, 90.0, true, false },
	{ "max_lower_pitch_deg", offsetof(lbProneDef, maxLowerPitch), 0.0, 90.0, true, false },
	{ "roof_angle_deg", offsetof(lbProneDef, roofAngle), 0.0, 90.0, true, false },
	{ "hover_limit", offsetof(lbProneDef, hoverLimit), 0.0, 5.0, false, false },
	{ "rotation_speed", offsetof(lbProneDef, rotationSpeed), 0.0, 1000.0, false, false },
	{ "height_speed", offsetof(lbProneDef, heightSpeed), 0.0, 1000.0, false, false },
	{ "probe_reach", offsetof(lbProneDef, probeReach), 0.0, 5.0, false, false },
	{ "clearance", offsetof(lbProneDef, clearance), 0.0, 0.5, false, false },
	{ "max_shift", offsetof(lbProneDef, maxShift), 0.0, 5.0, false, false },
	{ "torso_radius", offsetof(lbProneDef, torsoRadius), -1.0, 1.0, false, false },
	{ "lock_speed", offsetof(lbProneDef, lockSpeed), 0.0, 10.0, false, false },
	{ "lock_release_distance", offsetof(lbProneDef, lockReleaseDistance), 0.0, 5.0, false, false },
	{ "lock_blend_speed", offsetof(lbProneDef, lockBlendSpeed), 0.0, 1000.0, false, false },
	{ "alpha_speed", offsetof(lbProneDef, alphaSpeed), 0.0, 1000.0, false, false },
	{ "lie_angle_deg", offsetof(lbProneDef, lieAngle), 0.1, 90.0, true, false },
	{ "teleport_distance", offsetof(lbProneDef, teleportDistance), 0.0, 1000.0, false, false },
	{ "trace_rate", offsetof(lbProneDef, traceRate), 0.0, 1000.0, false, false },
	{ "recast_distance", offsetof(lbProneDef, recastDistance), 0.0, 10.0, false, false },
	{ "probe_cast_radius", offsetof(lbProneDef, probeCastRadius), 0.0, 1.0, false, false },
	{ "channel_mask", offsetof(lbProneDef, channelMask), 0.0, 4294967295.0, false, true },
	{ "ignore_owner_id", offsetof(lbProneDef, ignoreOwnerId), 0.0, 4294967295.0, false, true },
};
#define LB_PRONE_KEY_COUNT ((int)(sizeof lbProneKeys / sizeof lbProneKeys[0]))

static const struct
{
	const char* name;
	size_t offset;
} lbProneFlags[] = {
	{ "roof_lift", offsetof(lbProneDef, roofLift) },
	{ "fit_translation", offsetof(lbProneDef, fitTranslation) },
	{ "fit_limbs", offsetof(lbProneDef, fitLimbs) },
	{ "limb_lock", offsetof(lbProneDef, limbLock) },
	{ "sphere_probes", offsetof(lbProneDef, sphereProbes) },
};
#define LB_PRONE_FLAG_COUNT ((int)(sizeof lbProneFlags / sizeof lbProneFlags[0]))

// Reads (and checks) the config into `out` when given; one function so checking and building agree.
static bool lbProneReadConfig(lbJsonCheck* check, const cJSON* config, lbProneRun* out)
{
	if (!config)
		return true;
	const char* allowed[LB_PRONE_KEY_COUNT + LB_PRONE_FLAG_COUNT + 3];
	int n = 0;
	for (int i = 0; i < LB_PRONE_KEY_COUNT; ++i)
		allowed[n++] = lbProneKeys[i].name;
	for (int i = 0; i < LB_PRONE_FLAG_COUNT; ++i)
		allowed[n++] = lbProneFlags[i].name;
	allowed[n++] = "posture";
	allowed[n++] = "transition_time";
	allowed[n] = NULL;
	if (!lbJsonKeysAllowed(check, config, "system.config", allowed))
		return false;
	if (!lbJsonReadNumberKeys(check, config, lbProneKeys, LB_PRONE_KEY_COUNT, out ? (void*)&out->def : NULL))
		return false;
	for (int i = 0; i < LB_PRONE_FLAG_COUNT; ++i)
	{
		bool v = false;
		if (out)
			memcpy(&v, (char*)&out->def + lbProneFlags[i].offset, sizeof v);
		if (!lbJsonBool(check, config, "system.config", lbProneFlags[i].name, &v))
			return false;
		if (out)
			memcpy((char*)&out->def + lbProneFlags[i].offset, &v, sizeof v);
	}
	double tt = -1.0;
	if (!lbJsonNumber(check, config, "system.config", "transition_time", 0.05, 10.0, &tt))
		return false;
	if (out && tt > 0.0)
		out->transitionTime = (float)tt;
	const cJSON* posture = cJSON_GetObjectItemCaseSensitive(config, "posture");
	if (posture)
	{
		bool back = cJSON_IsString(posture) && strcmp(posture->valuestring, "back") == 0;
		bool animated = cJSON_IsString(posture) && strcmp(posture->valuestring, "animated") == 0;
		if (!back && !animated)
			return lbJsonFail(check, lb_errorParse, "system.config.posture", "expected one of animated, back");
		if (out)
			out->posture = back ? lb_pronePostureBack : lb_pronePostureAnimated;
	}
	return true;
}

// For tests/test_prone_keys.c (declared there too, as this adapter has no header of its own): the key
// tables, and a config read into a def as a run reads it.
int lbProneConfigKeys(const lbConfigNumberKey** outNumbers, const char** outFlags, int flagCapacity, int* outFlagCount);
bool lbProneConfigRead(const cJSON* config, lbProneDef* def, char* message, int capacity, lbResult* outCode);

int lbProneConfigKeys(const lbConfigNumberKey** outNumbers, const char** outFlags, int flagCapacity, int* outFlagCount)
{
	if (outNumbers)
		*outNumbers = lbProneKeys;
	for (int i = 0; outFlags && i < LB_PRONE_FLAG_COUNT && i < flagCapacity; ++i)
		outFlags[i] = lbProneFlags[i].name;
	if (outFlagCount)
		*outFlagCount = LB_PRONE_FLAG_COUNT;
	return LB_PRONE_KEY_COUNT;
}

bool lbProneConfigRead(const cJSON* config, lbProneDef* def, char* message, int capacity, lbResult* outCode)
{
	lbProneRun run;
	memset(&run, 0, sizeof run);
	run.def = *def;
	lbJsonCheck check = { "prone config", message, capacity, lb_ok };
	bool ok = lbProneReadConfig(&check, config, &run);
	if (ok)
		*def = run.def;
	if (outCode)
		*outCode = check.code;
	return ok;
}

static bool lbProneCheck(lbJsonCheck* check, const cJSON* config)
{
	return lbProneReadConfig(check, config, NULL);
}

static void lbProneDestroy(void* system)
{
	lbProneRun* p = (lbProneRun*)system;
	if (!p)
		return;
	lbDestroyPose(&p->anim);
	lbDestroyPose(&p->lying);
	lbFree(p);
}

static void* lbProneCreate(const lbRunContext* ctx, const cJSON* config, lbResult* outResult)
{
	lbProneRun* p = (lbProneRun*)lbAllocZeroed(sizeof(lbProneRun));
	if (!p)
	{
		*outResult = lbReport(lb_errorOutOfMemory, "prone");
		return NULL;
	}
	p->def = lbDefaultProneDef();
	p->def.up = ctx->upWs;
	p->transitionTime = 1.2f;
	lbJsonCheck check = { ctx->scenario->path, NULL, 0, lb_ok };
	if (!lbProneReadConfig(&check, config, p))
	{
		*outResult = check.code;
		lbFree(p);
		return NULL;
	}
	p->query = lbWorld_GetQuery((const lbWorld*)ctx->world);
	lbProneState_Reset(&p->state);
	p->anim = lbCreatePose(ctx->skeleton);
	p->lying = lbCreatePose(ctx->skeleton);
	if (!p->anim.local || !p->lying.local)
	{
		lbProneDestroy(p);
		*outResult = lbReport(lb_errorOutOfMemory, "prone: poses");
		return NULL;
	}
	p->motionParams = lbDefaultMotionDef(lb_motionProne);
	p->motionReady = lbMotionState_Init(&p->motion, ctx->skeleton, ctx->humanoid, ctx->characterWs) == lb_ok;
	p->restOffset = lbRunRestOffset(ctx->skeleton, ctx->humanoid);
	*outResult = lb_ok;
	return p;
}

// Elevation (rad) of the torso line above the ground plane in a pose.
static float lbTorsoElevation(const lbHumanoid* h, const lbPose* pose)
{
	int top = h->neck >= 0 ? h->neck : h->spine[h->spineCount - 1];
	lbVec3 axis = lbNormalizeOr(lbSub(pose->model[top].p, pose->model[h->pelvis].p), h->upMs);
	return asinf(lbClampF(lbAbsF(lbDot(axis, h->upMs)), 0.0f, 1.0f));
}

// The rest pose laid on its back, head ahead (a half turn about the line between up and forward),
// the pelvis a torso's radius and a centimetre above the floor.
static void lbLayOnBack(const lbHumanoid* h, const lbSkeleton* s, lbPose* pose)
{
	lbPose_SetRest(pose, s);
	lbVec3 axis = lbNormalize(lbAdd(h->upMs, h->forwardMs));
	lbQuat turn = lbQuatFromAxisAngle(axis, LB_PI);
	lbTransform pel = s->restModel[h->pelvis];
	pel.q = lbQuatMul(turn, pel.q);
	pel.p = lbMulAdd(lbProjectOnPlane(pel.p, h->upMs), 0.055f * h->height + 0.01f, h->upMs);
	lbPose_SetBoneModel(pose, s, h->pelvis, pel, true);
	// Arms along the sides, a little out, palms down; the head rests as at rest.
	for (int side = 0; side < 2; ++side)
	{
		int upper = h->arm[side].upperArm;
		if (upper < 0 || h->arm[side].foreArm < 0)
			continue;
		lbVec3 out = lbMulSV(side == lb_left ? -1.0f : 1.0f, h->leftMs);
		lbVec3 dir = lbNormalize(lbSub(pose->model[h->arm[side].foreArm].p, pose->model[upper].p));
		lbVec3 want = lbNormalize(lbAdd(lbMulSV(-0.9f, h->forwardMs), lbMulSV(0.35f, out)));
		lbQuat q = lbQuatMul(lbQuatFromTo(dir, want), pose->model[upper].q);
		lbPose_SetBoneModelRotation(pose, s, upper, q, true);
	}
}

// The animated pose the system fits this frame, in p->anim.
static void lbProneMakeAnim(lbProneRun* p, const lbRunContext* ctx, float dt)
{
	const lbHumanoid* h = ctx->humanoid;
	const lbSkeleton* s = ctx->skeleton;
	lbPose_Copy(&p->anim, ctx->basePose);
	bool baseLies = lbTorsoElevation(h, ctx->basePose) < 0.8f;
	if (p->posture == lb_pronePostureBack && baseLies)
	{
		lbLayOnBack(h, s, &p->anim);
		return;
	}
	if (baseLies || !p->motionReady)
		return;
	// A standing base motion: down to prone while the runner's state is prone, back up after.
	float goal = ctx->state == lb_stateProne ? 1.0f : 0.0f;
	p->down = lbInterpConstantTo(p->down, goal, dt, 1.0f / p->transitionTime);
	if (p->down <= 0.0f)
		return;
	lbTransform xf = ctx->characterWs;
	p->motion.characterWs = xf;
	lbMotion_Sample(&p->motion, s, h, &p->motionParams, dt, &p->lying);
	if (lbLength(p->restOffset) > LB_RUN_REST_FLOOR_TOLERANCE)
	{
		for (int b = 0; b < s->boneCount; ++b)
			if (s->parents[b] < 0)
				p->lying.local[b].p = lbSub(p->lying.local[b].p, p->restOffset);
		lbPose_LocalToModel(&p->lying, s);
	}
	if (p->posture == lb_pronePostureBack)
		lbLayOnBack(h, s, &p->lying);
	float w = lbSmoothStep(p->down);
	for (int b = 0; b < s->boneCount; ++b)
	{
		p->anim.local[b].q = lbQuatSlerp(ctx->basePose->local[b].q, p->lying.local[b].q, w);
		p->anim.local[b].p = lbLerp(ctx->basePose->local[b].p, p->lying.local[b].p, w);
	}
	lbPose_LocalToModel(&p->anim, s);
	// No joint lower than the blend of its heights in the two poses: the body comes down over its
	// feet and hands instead of through the floor.
	float lift = 0.0f;
	for (int b = 0; b < s->boneCount; ++b)
	{
		float want = lbLerpF(lbDot(ctx->basePose->model[b].p, h->upMs), lbDot(p->lying.model[b].p, h->upMs), w);
		lift = lbMaxF(lift, want - lbDot(p->anim.model[b].p, h->upMs));
	}
	if (lift > 0.0f)
		for (int b = 0; b < s->boneCount; ++b)
			if (s->parents[b] < 0)
				lbPose_TranslateBoneModel(&p->anim, s, b, lbMulSV(lift, h->upMs));
}

static void lbProneSenseStage(void* system, lbRunContext* ctx, float dt, lbSystemOutput* out)
{
	lbProneRun* p = (lbProneRun*)system;
	lbProneMakeAnim(p, ctx, dt);
	lbProneSenseInput in = lbDefaultProneSenseInput();
	in.query = &p->query;
	in.characterWs = ctx->characterWs;
	in.animPose = &p->anim;
	in.dt = dt;
	in.active = ctx->state == lb_stateProne;
	p->sensed = lbProneSense(&p->state, &p->def, ctx->skeleton, ctx->humanoid, &in, &p->targets) == lb_ok;
	if (!p->sensed)
		return;
	const lbProneTargets* t = &p->targets;
	const lbVec3 up = ctx->upWs;
	// The seed's casts and contacts.
	lbSystemOutput_AddDebug(out, lb_layerCasts, lb_debugSphere, t->centreWs, t->centreWs, p->def.traceRadius, t->centreHit);
	lbSystemOutput_AddDebug(out, lb_layerNormals, lb_debugArrow, t->centreWs, lbMulAdd(t->centreWs, 0.25f, t->centreNormalWs), 0.0f, false);
	lbSystemOutput_AddDebug(out, lb_layerCasts, lb_debugPoint, t->leftWs, t->leftWs, 0.02f, t->leftHit);
	lbSystemOutput_AddDebug(out, lb_layerCasts, lb_debugPoint, t->rightWs, t->rightWs, 0.02f, t->rightHit);
	lbSystemOutput_AddDebug(out, lb_layerCasts, lb_debugLine, t->centreWs, t->upperWs, 0.0f, t->upperHit);
	lbSystemOutput_AddDebug(out, lb_layerCasts, lb_debugLine, t->lowerWs, t->centreWs, 0.0f, t->lowerHit);
	if (t->roofLift)
		lbSystemOutput_AddDebug(out, lb_layerTargets, lb_debugArrow, lbMulAdd(t->lowerWs, -t->hover, up), t->lowerWs, 0.0f, true);
	for (int k = 0; k < lb_proneProbeCount; ++k)
		if (t->ground[k].hit)
			lbSystemOutput_AddDebug(out, lb_layerContacts, lb_debugSphere, t->ground[k].pointWs, t->ground[k].pointWs, t->ground[k].radius, false);
	for (int k = 0; k < LB_PRONE_LIMBS; ++k)
		if (t->limbs[k].alpha > 0.0f)
			lbSystemOutput_AddDebug(out, lb_layerTargets, lb_debugPoint, t->limbs[k].endWs, t->limbs[k].endWs, 0.03f, t->limbs[k].locked);
}

static void lbProneAddContact(lbSystemOutput* out, lbContactKind kind, int bone, lbVec3 offsetLocal, lbVec3 targetWs,
							  lbVec3 normalWs, bool locked, bool touching)
{
	if (out->contactCount >= LB_RUN_MAX_CONTACTS)
		return;
	lbContact* c = &out->contacts[out->contactCount++];
	memset(c, 0, sizeof *c);
	c->kind = kind;
	c->bone = bone;
	c->offsetLocal = offsetLocal;
	c->targetWs = targetWs;
	c->normalWs = normalWs;
	c->locked = locked;
	c->touching = touching;
}

static void lbPronePoseStage(void* system, const lbRunContext* ctx, lbPose* pose, lbSystemOutput* out)
{
	lbProneRun* p = (lbProneRun*)system;
	if (!p->sensed)
		return;
	lbPose_Copy(pose, &p->anim);
	if (lbProneApplyPose(&p->targets, &p->def, ctx->skeleton, ctx->humanoid, pose, &p->result) != lb_ok)
		return;
	const lbProneTargets* t = &p->targets;
	const lbHumanoid* h = ctx->humanoid;
	const lbTransform cw = ctx->characterWs;
	const bool full = t->alpha > 0.999f;
	// The torso rests on the ground where it can: fully fitted, face up or down, brought down within
	// reach, its ground found and the body no longer being lowered onto it (settle within 1 cm). Its
	// contact is the point of the torso nearest the ground.
	bool rests = full && !p->result.shiftClamped && p->result.torsoGap >= 0.0f && t->settle <= 0.01f &&
				 (t->posture == lb_proneFaceDown || t->posture == lb_proneFaceUp);
	if (rests)
	{
		int best = -1;
		float bestGap = 0.0f;
		lbVec3 bestPoint = lbVec3_zero;
		for (int k = 0; k < lb_proneProbeCount; ++k)
		{
			if (k > lb_proneChest && k != lb_proneTorsoLow && k != lb_proneTorsoHigh)
				continue;
			lbVec3 pm;
			float radius;
			if (!t->ground[k].hit || !lbProneProbePoint(h, &p->def, pose, (lbProneProbe)k, &pm, &radius))
				continue;
			lbVec3 pw = lbTransformPoint(cw, pm);
			float gap = lbDot(lbSub(pw, t->ground[k].pointWs), t->ground[k].normalWs);
			if (best < 0 || gap < bestGap)
			{
				best = k;
				bestGap = gap;
				bestPoint = lbMulAdd(pw, -radius, t->ground[k].normalWs);
			}
		}
		if (best >= 0)
		{
			int bone = best == lb_pronePelvis || best == lb_proneTorsoLow
						   ? h->pelvis
						   : (best == lb_proneSpine ? h->spine[h->spineCount / 2]
													: (h->neck >= 0 ? h->neck : h->spine[h->spineCount - 1]));
			lbTransform boneWs = lbTransformMul(cw, pose->model[bone]);
			lbProneAddContact(out, lb_contactBody, bone, lbInvTransformPoint(boneWs, bestPoint), bestPoint,
							  t->ground[best].normalWs, false, true);
		}
	}
	// Held hands and feet: the wrist or ankle against its contact (drift while fully held).
	for (int k = 0; k < LB_PRONE_LIMBS; ++k)
	{
		const lbProneLimbTarget* l = &t->limbs[k];
		int end = k < 2 ? h->arm[k].hand : h->leg[k - 2].foot;
		if (end < 0 || !l->locked || l->alpha < 0.999f || !full)
			continue;
		lbProneAddContact(out, k < 2 ? lb_contactHand : lb_contactFoot, end, lbVec3_zero, l->endWs, l->normalWs, true, false);
	}
}

static int lbProneValues(const void* system, const char** names, float* values, int capacity)
{
	const lbProneRun* p = (const lbProneRun*)system;
	const lbProneTargets* t = &p->targets;
	static const char* const n[] = { "alpha", "roll_deg", "upper_pitch_deg", "lower_pitch_deg", "hover", "too_high",
									 "roof_lift", "shift", "torso_gap", "limb_lift_deg", "locked", "posture", "casts", "down",
									 "settle", "upper_hover" };
	int locked = 0;
	for (int k = 0; k < LB_PRONE_LIMBS; ++k)
		locked += t->limbs[k].locked ? 1 : 0;
	const float v[] = { t->alpha,
						t->roll * LB_RAD2DEG,
						t->upperPitch * LB_RAD2DEG,
						t->lowerPitch * LB_RAD2DEG,
						t->hover,
						t->tooHigh ? 1.0f : 0.0f,
						t->roofLift ? 1.0f : 0.0f,
						p->result.shift,
						p->result.torsoGap,
						p->result.limbLift * LB_RAD2DEG,
						(float)locked,
						(float)t->posture,
						(float)t->castCount,
						p->down,
						t->settle,
						t->upperHover };
	return lbSystemValuesCopy(n, v, (int)(sizeof v / sizeof v[0]), names, values, capacity);
}

const lbSystemEntry lbSystemProne = {
	"prone",
	"prone and lying bodies fitted to the ground: roll, upper and lower pitch, roof lift, torso rests, limbs held and lifted",
	lbProneCheck,
	lbProneCreate,
	lbProneDestroy,
	NULL,
	lbProneSenseStage,
	lbPronePoseStage,
	lbProneValues,
	NULL,
	NULL,
};
