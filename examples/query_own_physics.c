// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
/*******************************************************************************************
 *
 *   limber example - your own physics through lbSceneQuery callbacks
 *
 *   limber never owns the world: every system sees it through lbSceneQuery, three function
 *   pointers and a context. Here the "engine" is a stand-in for PhysX, Jolt or Bullet: a 15 degree
 *   ramp answered analytically by its own ray and sphere sweep functions with its own result
 *   type. The adapters translate limber's query input into the engine's call and its result back
 *   into an lbHit. A character stands on the ramp; the foot system plants both feet on it through
 *   the adapters. The program prints how many casts limber made and where the feet ended up.
 *
 ********************************************************************************************/
#include <limber/limber.h>

#include <math.h>
#include <stdio.h>

// ---- The game's physics engine (not limber): a ramp z = x * tan(slope) ------------------------
typedef struct MyEngine
{
	float slope; // radians
	int casts;
} MyEngine;

typedef struct MySweepResult
{
	int blocked;
	float toi;           // time of impact along the sweep, [0, 1]
	float contact[3];    // point on the surface
	float normal[3];     // surface normal
	float centre[3];     // sweep position at impact
} MySweepResult;

// Sweeps a sphere of `radius` (0 = a ray) from `a` to `b` against the ramp.
static int MyEngine_Sweep(MyEngine* e, const float a[3], const float b[3], float radius, MySweepResult* out)
{
	++e->casts;
	float n[3] = { -sinf(e->slope), 0.0f, cosf(e->slope) }; // unit normal of z - x tan(s) = 0
	float da = a[0] * n[0] + a[2] * n[2] - radius, db = b[0] * n[0] + b[2] * n[2] - radius;
	if (da < 0.0f || db >= 0.0f)
		return out->blocked = 0;
	float t = da / (da - db);
	out->blocked = 1;
	out->toi = t;
	for (int k = 0; k < 3; ++k)
	{
		out->centre[k] = a[k] + t * (b[k] - a[k]);
		out->contact[k] = out->centre[k] - radius * n[k];
		out->normal[k] = n[k];
	}
	return 1;
}

// ---- The adapters: limber's queries answered by the engine -----------------------------------
static void Sweep(MyEngine* engine, const lbQueryInput* input, float radius, lbHit* outHit)
{
	*outHit = lbEmptyHit();
	float a[3] = { input->start.x, input->start.y, input->start.z }, b[3] = { input->end.x, input->end.y, input->end.z };
	MySweepResult r;
	if (!MyEngine_Sweep(engine, a, b, radius, &r))
		return;
	outHit->hit = true;
	outHit->fraction = r.toi;
	outHit->distance = r.toi * lbLength(lbSub(input->end, input->start));
	outHit->location = lbMakeVec3(r.centre[0], r.centre[1], r.centre[2]);
	outHit->impactPoint = lbMakeVec3(r.contact[0], r.contact[1], r.contact[2]);
	outHit->normal = outHit->faceNormal = lbMakeVec3(r.normal[0], r.normal[1], r.normal[2]);
	outHit->shapeId = 0;
	outHit->channels = LB_CHANNEL_GROUND;
}

static void RayCast(void* context, const lbQueryInput* input, lbHit* outHit)
{
	Sweep((MyEngine*)context, input, 0.0f, outHit);
}

static void SphereCast(void* context, const lbQueryInput* input, lbHit* outHit)
{
	Sweep((MyEngine*)context, input, input->radius, outHit);
}

int main(void)
{
	// Initialization ---------------------------------------------------------------------------
	MyEngine engine = { 15.0f * LB_DEG2RAD, 0 };
	lbSceneQuery query = { 0 }; // zeroed: members limber adds later stay NULL
	query.rayCast = RayCast;
	query.sphereCast = SphereCast;
	query.sphereOverlap = NULL; // not needed by the foot system; NULL means "never hits"
	query.context = &engine;

	lbSkeleton* rig = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid humanoid;
	if (!rig || lbMapHumanoid(rig, NULL, &humanoid) != lb_ok)
		return 1;
	lbPose anim = lbCreatePose(rig), pose = lbCreatePose(rig);
	lbMotionState idle;
	// The controller stands the character on the ramp, facing across it.
	lbTransform characterWs = lbCharacterTransform(&humanoid, lbMakeVec3(1.0f, 0.0f, tanf(engine.slope)), lbVec3_axisY, lbVec3_axisZ);
	lbMotionState_Init(&idle, rig, &humanoid, characterWs);
	lbMotionDef idleParams = lbDefaultMotionDef(lb_motionIdle);
	lbFootDef footDef = lbDefaultFootDef();
	lbFootState footState;
	lbFootState_Reset(&footState);
	lbFootTargets targets;

	const float dt = 1.0f / 60.0f;
	for (int frame = 0; frame < 120; ++frame)
	{
		// Update ---------------------------------------------------------------------------------
		lbMotion_Sample(&idle, rig, &humanoid, &idleParams, dt, &anim);
		idle.characterWs = characterWs; // an idle character stays where the controller put it
		lbFootSenseInput in = lbDefaultFootSenseInput();
		in.query = &query;
		in.characterWs = characterWs;
		in.animPose = &anim;
		in.velocityWs = lbVec3_zero;
		in.dt = dt;
		if (lbFootSense(&footState, &footDef, rig, &humanoid, &in, &targets) != lb_ok)
			return 1;
		lbPose_Copy(&pose, &anim);
		if (lbFootApplyPose(&targets, &footDef, rig, &humanoid, lb_footSolverTwoBone, &pose, NULL, 0) != lb_ok)
			return 1;
	}

	// Draw (here: print) ---------------------------------------------------------------------------
	int bad = 0;
	printf("%d casts answered by the game's engine over 120 frames\n", engine.casts);
	for (int side = 0; side < 2; ++side)
	{
		lbVec3 sole = lbTransformPoint(characterWs, lbTransformPoint(pose.model[humanoid.leg[side].foot], lbFootSoleLocal(&humanoid, side)));
		lbVec3 soleAnim = lbTransformPoint(characterWs, lbTransformPoint(anim.model[humanoid.leg[side].foot], lbFootSoleLocal(&humanoid, side)));
		float ramp = sole.x * tanf(engine.slope), rampAnim = soleAnim.x * tanf(engine.slope);
		printf("%s foot: sole %.3f m above the ramp (animated: %+.3f m), grounded %s\n", side == 0 ? "left " : "right",
			   (double)(sole.z - ramp), (double)(soleAnim.z - rampAnim), targets.feet[side].grounded ? "yes" : "no");
		bad += !targets.feet[side].grounded || fabsf(sole.z - ramp) > 0.03f;
	}

	// De-Initialization ------------------------------------------------------------------------
	lbDestroyPose(&anim);
	lbDestroyPose(&pose);
	lbDestroySkeleton(rig);
	return bad == 0 && engine.casts > 0 ? 0 : 1;
}
