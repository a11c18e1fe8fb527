// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Foot placement: sense and pose stages on analytic grounds (planes, steps) on both reference
// rigs, with up +Z and +Y; smoothing, prediction, pelvis modes, landing, state alpha, trace rate,
// LOD, foot locking, and every bad input.
#include "limber/crowd.h"
#include "limber/foot.h"
#include "limber/ik.h"
#include "limber/motion.h"
#include "limber/rigs.h"
#include "limber/scenes.h"
#include "scaled_rig.h"
#include "test_macros.h"

#include <float.h>
#include <stdlib.h>

static lbResult g_lastCode;
static void captureLog(lbLogLevel level, lbResult code, const char* message, void* ctx)
{
	(void)level;
	(void)message;
	(void)ctx;
	g_lastCode = code;
}

// A scene query that forwards to an lbWorld and records what was asked.
typedef struct Recorder
{
	lbSceneQuery inner;
	int sphereCasts, rayCasts;
	lbVec3 lastStart[8];
	// Answer like a game's physics that does not report the face a sphere rests on.
	bool hideFace;
	// Rays answer nothing (a game whose ray misses what its sphere finds), start inside a solid, or
	// report no normal or a level one (a wall).
	bool rayMiss, rayInside, rayNoNormal, rayLevel;
} Recorder;

// Casts of either kind so far.
static int recCasts(const Recorder* r)
{
	return r->sphereCasts + r->rayCasts;
}

static void recSphere(void* ctx, const lbQueryInput* in, lbHit* out)
{
	Recorder* r = (Recorder*)ctx;
	r->lastStart[r->sphereCasts % 8] = in->start;
	r->sphereCasts++;
	*out = lbSphereCast(&r->inner, in);
	if (r->hideFace)
		out->faceNormal = lbVec3_zero;
}

static void recRay(void* ctx, const lbQueryInput* in, lbHit* out)
{
	Recorder* r = (Recorder*)ctx;
	r->rayCasts++;
	*out = lbRayCast(&r->inner, in);
	if (r->rayMiss)
		out->hit = false;
	if (r->rayInside && out->hit)
		out->startedInside = true;
	if (r->rayNoNormal && out->hit)
		out->normal = lbVec3_zero;
	if (r->rayLevel && out->hit)
		out->normal = lbAnyPerpendicular(out->normal);
}

typedef struct Fixture
{
	lbSkeleton* skeleton;
	lbHumanoid humanoid;
	lbPose anim, pose;
	lbWorld* world;
	Recorder rec;
	lbSceneQuery query;
	lbVec3 up;
	lbTransform characterWs;
	lbFootDef def;
	lbFootState state;
	lbFootSolver solver;
	void* workspace;
	size_t workspaceSize;
} Fixture;

// Rotation taking the rig's model up and forward to the world's up and +forward axis.
static lbTransform characterFrame(const lbHumanoid* h, lbVec3 upWs, lbVec3 fwdWs, lbVec3 at)
{
	lbQuat q = lbQuatFromTwoAxes(h->upMs, upWs, h->forwardMs, fwdWs);
	return lbMakeTransform(at, q);
}

// A square of ground: plane through `point` with normal `normal`, 2 triangles, 40 m wide.
static void addPlane(lbWorld* w, lbVec3 point, lbVec3 normal)
{
	lbVec3 n = lbNormalize(normal);
	lbVec3 a = lbAnyPerpendicular(n), b = lbCross(n, a);
	lbVec3 v[4];
	v[0] = lbAdd(point, lbAdd(lbMulSV(-20, a), lbMulSV(-20, b)));
	v[1] = lbAdd(point, lbAdd(lbMulSV(20, a), lbMulSV(-20, b)));
	v[2] = lbAdd(point, lbAdd(lbMulSV(20, a), lbMulSV(20, b)));
	v[3] = lbAdd(point, lbAdd(lbMulSV(-20, a), lbMulSV(20, b)));
	int32_t idx[6] = { 0, 1, 2, 0, 2, 3 };
	lbMeshDef md = lbDefaultMeshDef();
	md.vertices = v;
	md.vertexCount = 4;
	md.indices = idx;
	md.triangleCount = 2;
	md.channels = LB_CHANNEL_GROUND;
	ENSURE(lbWorld_AddMesh(w, &md) >= 0);
}

static void addBox(lbWorld* w, lbVec3 center, lbVec3 half, lbQuat q)
{
	lbBoxDef bd = lbDefaultBoxDef();
	bd.transform = lbMakeTransform(center, q);
	bd.halfExtents = half;
	bd.channels = LB_CHANNEL_GROUND;
	ENSURE(lbWorld_AddBox(w, &bd) >= 0);
}

static void fixtureInit(Fixture* f, lbReferenceRig rig, lbVec3 up)
{
	memset(f, 0, sizeof *f);
	f->skeleton = lbCreateReferenceRig(rig);
	ENSURE(lbMapHumanoid(f->skeleton, NULL, &f->humanoid) == lb_ok);
	f->anim = lbCreatePose(f->skeleton);
	f->pose = lbCreatePose(f->skeleton);
	lbWorldDef wd = lbDefaultWorldDef();
	wd.up = up;
	f->world = lbCreateWorld(&wd);
	f->rec.inner = lbWorld_GetQuery(f->world);
	f->query.sphereCast = recSphere;
	f->query.rayCast = recRay;
	f->query.context = &f->rec;
	f->up = up;
	f->def = lbDefaultFootDef();
	f->def.up = up;
	lbFootState_Reset(&f->state);
	f->solver = lb_footSolverTwoBone;
	f->workspaceSize = lbGetFullBodyIkWorkspaceSize(f->skeleton);
	f->workspace = malloc(f->workspaceSize);
}

static void fixtureFree(Fixture* f)
{
	free(f->workspace);
	lbDestroyPose(&f->anim);
	lbDestroyPose(&f->pose);
	lbDestroyWorld(f->world);
	lbDestroySkeleton(f->skeleton);
}

static lbFootSenseInput senseInput(Fixture* f, float dt)
{
	lbFootSenseInput in = lbDefaultFootSenseInput();
	in.query = &f->query;
	in.characterWs = f->characterWs;
	in.animPose = &f->anim;
	in.dt = dt;
	return in;
}

// One frame: sense, then pose on a copy of the animated pose.
static lbFootTargets step(Fixture* f, const lbFootSenseInput* in)
{
	lbFootTargets t;
	memset(&t, 0, sizeof t);
	ENSURE(lbFootSense(&f->state, &f->def, f->skeleton, &f->humanoid, in, &t) == lb_ok);
	lbPose_Copy(&f->pose, &f->anim);
	ENSURE(lbFootApplyPose(&t, &f->def, f->skeleton, &f->humanoid, f->solver, &f->pose, f->workspace, f->workspaceSize) == lb_ok);
	return t;
}

static lbVec3 soleWs(const Fixture* f, int side)
{
	lbTransform footWs = lbTransformMul(f->characterWs, f->pose.model[f->humanoid.leg[side].foot]);
	return lbTransformPoint(footWs, lbFootSoleLocal(&f->humanoid, side));
}

// Smallest signed distance of the sole points (heel to toe tip, the shared definition, toes as
// posed) to a plane.
static float lowestSoleDistance(const Fixture* f, int side, lbVec3 point, lbVec3 normal)
{
	lbVec3 pts[lb_solePointCount];
	lbHumanoid_GetSolePointsMs(&f->humanoid, &f->pose, side, pts);
	float best = 1.0e30f;
	for (int k = 0; k < lb_solePointCount; ++k)
		best = lbMinF(best, lbDot(lbSub(lbTransformPoint(f->characterWs, pts[k]), point), normal));
	return best;
}

// Knee bend sign about the derived hinge: >= 0 means it bends the anatomical way.
static float kneeBend(const Fixture* f, int side)
{
	lbLimbChain c;
	lbHumanoid_GetLimbChain(&f->humanoid, side ? lb_limbLegR : lb_limbLegL, &c);
	lbVec3 hip = f->pose.model[c.root].p, knee = f->pose.model[c.mid].p, ankle = f->pose.model[c.end].p;
	return lbDot(lbCross(lbSub(knee, hip), lbSub(ankle, knee)), lbLimbChain_HingeMs(&c, &f->pose));
}

typedef struct RigCase
{
	lbReferenceRig rig;
	lbVec3 up, fwd;
} RigCase;

static const RigCase kCases[] = {
	{ lb_rigMannequin, { 0, 0, 1 }, { 1, 0, 0 } },
	{ lb_rigMixamo, { 0, 0, 1 }, { 0, 1, 0 } },
	{ lb_rigMixamo, { 0, 1, 0 }, { 0, 0, 1 } },
	{ lb_rigMannequin, { 0, 1, 0 }, { 1, 0, 0 } },
};

// A character of rig case k standing on a floor `floor` along up from the origin, with or without
// footprint probes: the set-up of the riser and landing tests.
static void fixtureOnFloor(Fixture* f, const RigCase* k, bool print, float floor)
{
	fixtureInit(f, k->rig, k->up);
	f->def.footprintTraces = print;
	addPlane(f->world, lbMulSV(floor, k->up), k->up);
	f->characterWs = characterFrame(&f->humanoid, k->up, k->fwd, lbVec3_zero);
}

// A fixture of the rig on a flat floor through the origin, z up and facing +x, with footprint probes.
static void fixtureOnFlatZ(Fixture* f, lbReferenceRig rig)
{
	const RigCase onZ = { rig, { 0, 0, 1 }, { 1, 0, 0 } };
	fixtureOnFloor(f, &onZ, true, 0.0f);
}

// The lowest of a posed foot's four sole points, as a height along up (world).
static float lowestSoleHeightOf(const Fixture* f, const lbPose* pose, int side)
{
	const lbTransform footWs = lbTransformMul(f->characterWs, pose->model[f->humanoid.leg[side].foot]);
	const lbSole sole = lbHumanoid_GetSole(&f->humanoid, side);
	float low = 1.0e30f;
	for (int k = 0; k < lb_solePointCount; ++k)
		low = lbMinF(low, lbDot(lbSole_PointMs(&sole, footWs, (lbSolePoint)k), f->up));
	return low;
}

static float lowestSoleHeight(const Fixture* f, int side)
{
	return lowestSoleHeightOf(f, &f->pose, side);
}

// Airborne, the IK fades out, but a foot the animation puts inside the ground under it is lifted
// onto it (a body falling past a ledge's top with the trailing foot still over it); once that
// ground falls away the foot comes down over several frames, not in one; with the IK turned off by
// the game nothing is lifted. Both rigs, two up axes.
static void test_airborne_feet_stay_out_of_the_ground(void)
{
	for (int c = 0; c < (int)(sizeof kCases / sizeof kCases[0]); ++c)
	{
		for (int disabled = 0; disabled < 2; ++disabled)
		{
			Fixture f;
			fixtureInit(&f, kCases[c].rig, kCases[c].up);
			// A ledge's top at 0 behind x = 0.5 (along forward), 0.8 m over a floor ahead of it.
			const lbVec3 up = kCases[c].up, fwd = kCases[c].fwd;
			lbBoxDef bd = lbDefaultBoxDef();
			bd.transform = lbMakeTransform(lbAdd(lbMulSV(-1.5f, fwd), lbMulSV(-1.0f, up)), lbQuatFromTwoAxes(lbVec3_axisX, fwd, lbVec3_axisZ, up));
			bd.halfExtents = lbMakeVec3(2.0f, 4.0f, 1.0f);
			bd.channels = LB_CHANNEL_GROUND;
			ENSURE(lbWorld_AddBox(f.world, &bd) >= 0);
			addPlane(f.world, lbMulSV(-0.8f, up), up);
			// The body has dropped 0.3 m below the top, standing in its rest pose: both feet 0.3 m in.
			f.characterWs = characterFrame(&f.humanoid, up, fwd, lbMulSV(-0.3f, up));
			lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
			in.moveState = lb_footFalling;
			in.ikMode = disabled ? lb_footIkDisabled : lb_footIkEnabled;
			lbFootTargets t;
			for (int i = 0; i < 5; ++i)
				t = step(&f, &in);
			ENSURE(t.alpha < 1.0f);
			for (int s = 0; s < 2; ++s)
			{
				const float low = lowestSoleHeight(&f, s);
				if (disabled)
					ENSURE(low < -0.2f);
				else
					ENSURE(low > -0.002f && low < 0.05f);
			}
			// The crowd's pose path lifts the same feet.
			{
				lbPose crowd = lbCreatePose(f.skeleton);
				lbPose_Copy(&crowd, &f.anim);
				ENSURE(lbFootApplyPoseCrowd(&t, &f.def, f.skeleton, &f.humanoid, lb_footSolverTwoBone, &crowd, 1, NULL, 0, NULL) == lb_ok);
				for (int s = 0; s < 2; ++s)
				{
					const int foot = f.humanoid.leg[s].foot;
					ENSURE(lbDistance(crowd.model[foot].p, f.pose.model[foot].p) < 1.0e-4f);
				}
				lbDestroyPose(&crowd);
			}
			if (disabled)
			{
				fixtureFree(&f);
				continue;
			}
			// Carried forward past the ledge's edge, falling on: the feet come down toward the floor a
			// few centimetres a frame, and reach the animation's height in the end.
			float prev[2] = { lowestSoleHeight(&f, 0), lowestSoleHeight(&f, 1) };
			float maxStep = 0.0f;
			for (int i = 0; i < 40; ++i)
			{
				f.characterWs.p = lbAdd(lbMulSV(1.5f * (float)(i + 1) / 40.0f, fwd), lbMulSV(-0.3f - 0.005f * (float)i, up));
				in.characterWs = f.characterWs;
				t = step(&f, &in);
				for (int s = 0; s < 2; ++s)
				{
					const float low = lowestSoleHeight(&f, s);
					maxStep = lbMaxF(maxStep, prev[s] - low);
					prev[s] = low;
				}
			}
			ENSURE(maxStep < 0.06f);
			for (int s = 0; s < 2; ++s)
				ENSURE(prev[s] < lowestSoleHeightOf(&f, &f.anim, s) + 0.02f);
			printf("  rig %d up %d: airborne feet lifted onto the top, came down at most %.3f m a frame\n", (int)kCases[c].rig,
				   up.y > 0.5f ? 1 : 2, (double)maxStep);
			fixtureFree(&f);
		}
	}
}

// Airborne across a step's nose, each sole point is kept above the ground straight under it, not
// only above the plane under the ankle: the heel over the floor, the toe tip over a step 8 cm
// higher whose face runs between the ball and the tip. With the floor as one plane under the
// ankle the tip stood 10 cm inside the step (CMU 01_03's actor stepping down beside a flight: 1-2.6
// cm). The crowd's pose path lifts the feet the same way. A wall 1.5 m high there instead, taller
// than the probe reaches above the tip, is no floor: the feet come up onto the floor alone (its
// ray starts inside the wall and answers its start, 0.5 m up). Both rigs, two up axes.
static void test_airborne_feet_stay_out_of_a_step_under_the_toes(void)
{
	for (int run = 0; run < 2 * (int)(sizeof kCases / sizeof kCases[0]); ++run)
	{
		const int c = run / 2, wall = run % 2;
		const float top = wall ? 1.5f : 0.08f;
		Fixture f;
		fixtureInit(&f, kCases[c].rig, kCases[c].up);
		const lbVec3 up = kCases[c].up, fwd = kCases[c].fwd;
		addPlane(f.world, lbVec3_zero, up);
		// The body 2 cm down, in its rest pose: every sole point 2 cm in the floor.
		f.characterWs = characterFrame(&f.humanoid, up, fwd, lbMulSV(-0.02f, up));
		// The step's face halfway between the balls and the toe tips, as the rest pose has them.
		float edge = 0.0f;
		for (int s = 0; s < 2; ++s)
		{
			lbVec3 p[lb_solePointCount];
			lbHumanoid_GetSolePointsMs(&f.humanoid, &f.anim, s, p);
			const float ball = lbDot(lbTransformPoint(f.characterWs, p[lb_soleBall]), fwd);
			const float tip = lbDot(lbTransformPoint(f.characterWs, p[lb_soleToeTip]), fwd);
			ENSURE(tip - ball > 0.02f);
			edge += 0.25f * (ball + tip);
		}
		addBox(f.world, lbAdd(lbMulSV(edge + 1.0f, fwd), lbMulSV(0.5f * top - 0.5f, up)), lbMakeVec3(1.0f, 4.0f, 0.5f * top + 0.5f),
			   lbQuatFromTwoAxes(lbVec3_axisX, fwd, lbVec3_axisZ, up));
		lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
		in.moveState = lb_footFalling;
		lbFootTargets t;
		for (int i = 0; i < 5; ++i)
			t = step(&f, &in);
		ENSURE(t.alpha < 1.0f);
		lbPose crowd = lbCreatePose(f.skeleton);
		lbPose_Copy(&crowd, &f.anim);
		ENSURE(lbFootApplyPoseCrowd(&t, &f.def, f.skeleton, &f.humanoid, lb_footSolverTwoBone, &crowd, 1, NULL, 0, NULL) == lb_ok);
		float worst = 1.0e30f, lift = 0.0f;
		for (int s = 0; s < 2; ++s)
		{
			lbVec3 p[lb_solePointCount], q[lb_solePointCount];
			lbHumanoid_GetSolePointsMs(&f.humanoid, &f.pose, s, p);
			lbHumanoid_GetSolePointsMs(&f.humanoid, &crowd, s, q);
			for (int k = 0; k < lb_solePointCount; ++k)
			{
				const lbVec3 w = lbTransformPoint(f.characterWs, p[k]);
				// The ground straight under the point, from the scene itself (the floor beside a wall).
				const float ground = lbDot(w, fwd) > edge && !wall ? top : 0.0f;
				const float above = lbDot(w, up) - ground;
				worst = lbMinF(worst, above);
				lift = lbMaxF(lift, above);
				ENSURE(lbDistance(lbTransformPoint(f.characterWs, q[k]), w) < 1.0e-4f);
			}
		}
		// On the step, not thrown over it (nor up a wall): every point out of the ground, none
		// more than the step and the sink above it.
		ENSURE(worst > -0.002f);
		ENSURE(lift < (wall ? 0.0f : top) + 0.05f);
		printf("  rig %d up %d: airborne toes over a %s: lowest sole point %.1f mm above its ground, highest %.1f mm\n",
			   (int)kCases[c].rig, up.y > 0.5f ? 1 : 2, wall ? "wall's foot" : "step", 1000.0 * (double)worst, 1000.0 * (double)lift);
		lbDestroyPose(&crowd);
		fixtureFree(&f);
	}
}

static void test_flat_ground_and_slopes(void)
{
	const float slopesDeg[] = { 0.0f, 15.0f, 30.0f };
	for (int solver = 0; solver < 2; ++solver)
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		for (size_t k = 0; k < 3; ++k)
		{
			for (int roll = 0; roll < 2; ++roll)
			{
				Fixture f;
				fixtureInit(&f, kCases[c].rig, kCases[c].up);
				f.solver = solver ? lb_footSolverFullBody : lb_footSolverTwoBone;
				// The slope rises forward (pitch) or to the side (roll); the character stands at its origin.
				lbVec3 axis = roll ? kCases[c].fwd : lbCross(kCases[c].up, kCases[c].fwd);
				lbVec3 n = lbQuatRotate(lbQuatFromAxisAngle(axis, -slopesDeg[k] * LB_DEG2RAD), kCases[c].up);
				addPlane(f.world, lbVec3_zero, n);
				f.characterWs = characterFrame(&f.humanoid, kCases[c].up, kCases[c].fwd, lbVec3_zero);
				lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
				lbFootTargets t;
				for (int i = 0; i < 90; ++i)
					t = step(&f, &in);
				for (int s = 0; s < 2; ++s)
				{
					// The lowest of heel, mid-sole and ball touches the plane (a foot tilted 70% of
					// the slope rests on its uphill toe or heel), and none is below it.
					float d = lowestSoleDistance(&f, s, lbVec3_zero, n);
					if (lbAbsF(d) > 0.005f)
						printf("  solver %d case %zu slope %g roll %d side %d: sole distance %.4f\n", solver, c, (double)slopesDeg[k], roll, s, (double)d);
					ENSURE(lbAbsF(d) <= 0.005f);
					ENSURE(kneeBend(&f, s) >= 0.0f);
					ENSURE(t.feet[s].grounded && t.feet[s].planted && t.feet[s].locked);
					// The foot's sole normal turned 70% of the way to the slope.
					lbTransform footWs = lbTransformMul(f.characterWs, f.pose.model[f.humanoid.leg[s].foot]);
					lbVec3 footUp = lbTransformDirection(footWs, f.humanoid.legAxes[s].footUp);
					float tilt = acosf(lbClampF(lbDot(footUp, kCases[c].up), -1, 1)) * LB_RAD2DEG;
					ENSURE_NEAR(tilt, 0.7f * slopesDeg[k], 0.5f);
				}
				// Lowest-foot pelvis: on a side slope the pelvis drops by the lower foot's offset.
				if (roll && k > 0)
					ENSURE(t.pelvisOffset < -0.8f * 0.09f * tanf(slopesDeg[k] * LB_DEG2RAD));
				ENSURE(lbPose_IsFinite(&f.pose));
				fixtureFree(&f);
			}
		}
	}
}

// A sphere resting inside a face needs no ray; at an edge it does, and a scene that cannot name the
// face gets a ray every time, with the same result on plain faces.
static void test_face_contacts_skip_the_ray(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		for (int k = 0; k < 2; ++k)
		{
			Fixture f, g;
			fixtureInit(&f, kCases[c].rig, kCases[c].up);
			fixtureInit(&g, kCases[c].rig, kCases[c].up);
			g.rec.hideFace = true;
			f.def.traceRate = g.def.traceRate = 0.0f; // a cast every frame
			// Feet that do not lock: a locked foot checks its ground with a ray first (see
			// test_locked_feet_check_ground_by_ray), and these count the centre casts' own rays.
			f.def.footLock = g.def.footLock = false;
			f.def.probeReuseDistance = g.def.probeReuseDistance = 0.0f; // even for feet at rest
			// Only the centre casts here (the footprint's rays are counted in their own test).
			f.def.footprintTraces = g.def.footprintTraces = false;
			lbVec3 axis = lbCross(kCases[c].up, kCases[c].fwd);
			lbVec3 n = lbQuatRotate(lbQuatFromAxisAngle(axis, -20.0f * LB_DEG2RAD * (float)k), kCases[c].up);
			addPlane(f.world, lbVec3_zero, n);
			addPlane(g.world, lbVec3_zero, n);
			f.characterWs = g.characterWs = characterFrame(&f.humanoid, kCases[c].up, kCases[c].fwd, lbVec3_zero);
			lbFootSenseInput inF = senseInput(&f, 1.0f / 60.0f), inG = senseInput(&g, 1.0f / 60.0f);
			for (int i = 0; i < 30; ++i)
			{
				lbFootTargets tf = step(&f, &inF), tg = step(&g, &inG);
				for (int sd = 0; sd < 2; ++sd)
				{
					ENSURE_VEC3_NEAR(tf.feet[sd].ankleWs, tg.feet[sd].ankleWs, 1e-5f);
					ENSURE_QUAT_SAME_ROT(tf.feet[sd].footRotWs, tg.feet[sd].footRotWs, 1e-4f);
				}
			}
			ENSURE(f.rec.sphereCasts == 60 && f.rec.rayCasts == 0);
			ENSURE(g.rec.sphereCasts == 60 && g.rec.rayCasts == 60);
			fixtureFree(&f);
			fixtureFree(&g);
		}
		// A step whose edge runs 1 cm beside the left ankle's cast line: that sphere rests on the
		// edge, so its ray is cast; the right foot stands on the plain floor beyond.
		Fixture f;
		fixtureInit(&f, kCases[c].rig, kCases[c].up);
		f.def.footprintTraces = false;
		addPlane(f.world, lbVec3_zero, kCases[c].up);
		f.characterWs = characterFrame(&f.humanoid, kCases[c].up, kCases[c].fwd, lbVec3_zero);
		lbVec3 ankle = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[0].foot].p);
		lbVec3 left = lbCross(kCases[c].up, kCases[c].fwd);
		lbVec3 side = lbDot(lbSub(ankle, f.characterWs.p), left) > 0.0f ? left : lbMulSV(-1.0f, left);
		lbVec3 ankleFlat = lbProjectOnPlane(ankle, kCases[c].up);
		lbVec3 center = lbAdd(lbMulAdd(ankleFlat, 0.5f + 0.01f, side), lbMulSV(0.05f, kCases[c].up));
		lbQuat q = lbQuatFromTwoAxes(lbVec3_axisZ, kCases[c].up, lbVec3_axisX, side);
		addBox(f.world, center, lbMakeVec3(0.5f, 0.5f, 0.05f), q);
		lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
		lbFootTargets t = step(&f, &in);
		ENSURE(f.rec.sphereCasts == 2 && f.rec.rayCasts == 1);
		ENSURE(t.feet[0].grounded && t.feet[1].grounded);
		fixtureFree(&f);
	}
}

// A fixture of the rig (z up) on rocky ground 16 m wide: amplitude (m; below 0 the builder's
// default), as a heightfield or as a mesh. Returns the scene's def (its heights: lbSceneRockyHeight).
static lbSceneDef fixtureOnRocks(Fixture* f, lbReferenceRig rig, float amplitude, bool mesh)
{
	fixtureInit(f, rig, lbVec3_axisZ);
	lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
	lbSceneDef_Set(&p, "size", 16.0f);
	if (amplitude >= 0.0f)
		lbSceneDef_Set(&p, "amplitude", amplitude);
	if (mesh)
		lbSceneDef_Set(&p, "as_mesh", 1.0f);
	ENSURE(lbBuildScene(f->world, &p) == lb_ok);
	return p;
}

// The crowd entry point runs exactly what one call per character runs: same targets and states bit
// for bit over walking characters on rocky ground (casts announced to the scene first), with one
// character given a NaN transform; bad arrays are refused without touching anything.
static void test_sense_many_matches_one_by_one(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		Fixture f;
		const lbSceneDef p = fixtureOnRocks(&f, (lbReferenceRig)rig, -1.0f, true);
		lbSceneQuery q = lbWorld_GetQuery(f.world);
		enum { count = 21, frames = 40 };
		lbFootState a[count], b[count];
		lbFootTargets ta[count], tb[count];
		lbFootSenseInput in[count];
		memset(ta, 0, sizeof ta);
		memset(tb, 0, sizeof tb);
		lbTestRng rng = { 5 + (unsigned long long)rig };
		lbMotionState ms;
		lbMotionState_Init(&ms, f.skeleton, &f.humanoid, lbTransform_identity);
		lbMotionDef mp = lbDefaultMotionDef(lb_motionWalk);
		for (int i = 0; i < count; ++i)
		{
			lbFootState_Reset(&a[i]);
			lbFootState_Reset(&b[i]);
			in[i] = lbDefaultFootSenseInput();
			in[i].query = &q;
			in[i].animPose = &f.anim;
			in[i].dt = 1.0f / 60.0f;
			in[i].velocityWs = lbMakeVec3(lbTestUniform(&rng, -1.5f, 1.5f), lbTestUniform(&rng, -1.5f, 1.5f), 0.0f);
		}
		f.def.traceRate = rig == 0 ? 0.0f : 30.0f; // every frame, and the default reduced rate
		LogCapture cap = { 0 };
		lbSetLogFcn(CaptureLog, &cap);
		int identical = 0;
		for (int frame = 0; frame < frames; ++frame)
		{
			lbMotion_Sample(&ms, f.skeleton, &f.humanoid, &mp, 1.0f / 60.0f, &f.anim);
			for (int i = 0; i < count; ++i)
			{
				float x = -6.0f + 0.6f * (float)i + 0.02f * (float)frame, y = -4.0f + 0.4f * (float)i;
				in[i].characterWs = characterFrame(&f.humanoid, lbVec3_axisZ, lbVec3_axisX,
												   lbMakeVec3(x, y, lbSceneRockyHeight(&p, x, y)));
			}
			if (frame == 20)
				in[7].characterWs.p.x = NAN;
			if (frame == 21)
				in[7].characterWs = in[6].characterWs;
			lbResult rm = lbFootSenseMany(a, &f.def, f.skeleton, &f.humanoid, in, ta, count);
			lbResult r1 = lb_ok;
			for (int i = 0; i < count; ++i)
			{
				lbResult r = lbFootSense(&b[i], &f.def, f.skeleton, &f.humanoid, &in[i], &tb[i]);
				if (r1 == lb_ok)
					r1 = r;
			}
			ENSURE(rm == r1);
			ENSURE(rm == (frame == 20 ? lb_errorNonFinite : lb_ok));
			for (int i = 0; i < count; ++i)
			{
				bool same = memcmp(&a[i], &b[i], sizeof a[i]) == 0 && memcmp(&ta[i], &tb[i], sizeof ta[i]) == 0;
				if (!same && identical == frame * count + i)
					printf("  rig %d frame %d character %d: state %d targets %d\n", rig, frame, i,
						   memcmp(&a[i], &b[i], sizeof a[i]) == 0, memcmp(&ta[i], &tb[i], sizeof ta[i]) == 0);
				identical += same;
			}
		}
		ENSURE(identical == count * frames);
		// Bad arrays: refused, nothing written.
		lbFootState saved[count];
		memcpy(saved, a, sizeof saved);
		ENSURE(lbFootSenseMany(NULL, &f.def, f.skeleton, &f.humanoid, in, ta, count) == lb_errorNullPointer);
		ENSURE(lbFootSenseMany(a, &f.def, f.skeleton, &f.humanoid, NULL, ta, count) == lb_errorNullPointer);
		ENSURE(lbFootSenseMany(a, &f.def, f.skeleton, &f.humanoid, in, NULL, count) == lb_errorNullPointer);
		ENSURE(lbFootSenseMany(a, &f.def, f.skeleton, &f.humanoid, in, ta, -1) == lb_errorNullPointer);
		ENSURE(lbFootSenseMany(NULL, &f.def, f.skeleton, &f.humanoid, NULL, NULL, 0) == lb_ok);
		ENSURE(memcmp(saved, a, sizeof saved) == 0);
		lbSetLogFcn(NULL, NULL);
		fixtureFree(&f);
	}
}

// Past the slope limit the feet keep their full alpha and stay on the surface (a fading IK would
// leave the animated feet inside the slope); the targets say the ground is steep, and with every
// grounded foot steep the character is unsupported. Both solvers, both rigs.
static void test_steep_ground_keeps_feet_on_the_surface(void)
{
	for (int solver = 0; solver < 2; ++solver)
	for (int rig = 0; rig < 2; ++rig)
	for (int k = 0; k < 3; ++k)
	{
		const float slopeDeg = k == 0 ? 20.0f : (k == 1 ? 40.0f : 45.0f);
		Fixture f;
		fixtureInit(&f, rig ? lb_rigMixamo : lb_rigMannequin, lbVec3_axisZ);
		f.solver = solver ? lb_footSolverFullBody : lb_footSolverTwoBone;
		lbVec3 n = lbQuatRotate(lbQuatFromAxisAngle(lbVec3_axisY, -slopeDeg * LB_DEG2RAD), lbVec3_axisZ);
		addPlane(f.world, lbVec3_zero, n);
		f.characterWs = characterFrame(&f.humanoid, lbVec3_axisZ, lbVec3_axisX, lbVec3_zero);
		lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
		lbFootTargets t;
		for (int i = 0; i < 60; ++i)
			t = step(&f, &in);
		bool steep = slopeDeg > 35.0f;
		ENSURE(t.unsupported == steep);
		for (int s = 0; s < 2; ++s)
		{
			ENSURE(t.feet[s].alpha == 1.0f && t.feet[s].steep == steep);
			// On the surface: nothing inside, the lowest sole point within 1 cm of it.
			float d = lowestSoleDistance(&f, s, lbVec3_zero, n);
			if (d < -0.005f || d > 0.01f)
				printf("  solver %d rig %d slope %g side %d: lowest sole %.4f\n", solver, rig, (double)slopeDeg, s, (double)d);
			ENSURE(d > -0.005f && d < 0.01f);
			ENSURE(kneeBend(&f, s) >= 0.0f);
		}
		fixtureFree(&f);
	}
}

// A step whose side runs 2 cm beside the left foot's centre line, along the foot, with the whole
// centre line (heel to toe tip) over the floor: the probe's 3 cm sphere rests on the step's edge,
// but no sample of the sole stands over it, so the foot stands on the floor (at the edge's height
// it would stand 0.18 m over the floor on nothing: the support metric's 0). Both rigs; against the
// same step 8 cm under the foot, which it stands on.
static void test_nose_beside_the_foot_is_not_ground(void)
{
	for (int rig = 0; rig < 2; ++rig)
	for (int under = 0; under < 2; ++under)
	{
		Fixture f;
		fixtureInit(&f, rig ? lb_rigMixamo : lb_rigMannequin, lbVec3_axisZ);
		addPlane(f.world, lbVec3_zero, lbVec3_axisZ);
		f.characterWs = characterFrame(&f.humanoid, lbVec3_axisZ, lbVec3_axisX, lbVec3_zero);
		const float footY = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[0].foot].p).y;
		const float side = under ? footY - 0.08f : footY + 0.02f;
		addBox(f.world, lbMakeVec3(0, side + 0.5f, 0.09f), lbMakeVec3(1, 0.5f, 0.09f), lbQuat_identity);
		lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
		lbFootTargets t;
		for (int i = 0; i < 60; ++i)
			t = step(&f, &in);
		const float z = soleWs(&f, 0).z, want = under ? 0.18f : 0.0f;
		if (lbAbsF(z - want) > 0.005f)
			printf("  rig %d step %s: left sole at %.4f m\n", rig, under ? "under" : "beside", (double)z);
		ENSURE_NEAR(z, want, 0.005f);
		ENSURE_NEAR(soleWs(&f, 1).z, 0.0f, 0.005f);
		ENSURE(t.feet[0].alpha == 1.0f && kneeBend(&f, 0) >= 0.0f);
		fixtureFree(&f);
	}
}

static void test_stairs_lowest_foot_and_weighted_average(void)
{
	for (int mode = 0; mode < 2; ++mode)
	{
		Fixture f;
		fixtureInit(&f, lb_rigMannequin, lbVec3_axisZ);
		// Floor at 0; a step of 0.18 m under the left foot only (left is +Y when facing +X): its
		// side along the body's middle line, 8 cm from each foot's centre line. (It stood at
		// y = 0.1, 2 cm beside the left foot's centre line, which the probe's sphere reached but
		// the sole's centre line, the support the metrics measure, never stood over.)
		addPlane(f.world, lbVec3_zero, lbVec3_axisZ);
		addBox(f.world, lbMakeVec3(0, 0.55f, 0.09f), lbMakeVec3(1, 0.55f, 0.09f), lbQuat_identity);
		f.characterWs = characterFrame(&f.humanoid, lbVec3_axisZ, lbVec3_axisX, lbMakeVec3(0, 0, 0.18f));
		f.def.pelvisMode = mode ? lb_footPelvisWeightedAverage : lb_footPelvisLowestFoot;
		lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
		lbFootTargets t;
		for (int i = 0; i < 90; ++i)
			t = step(&f, &in);
		// Character floor is at the step: the right foot must go down 0.18.
		float dzR = lbDot(lbSub(t.feet[1].ankleWs, lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[1].foot].p)), lbVec3_axisZ);
		ENSURE_NEAR(dzR, -0.18f, 0.005f);
		// Lowest foot: down by the step plus what the nearly straight rest leg needs to reach
		// before its soft-IK band (2% of 0.84 m), never more.
		if (mode == 0)
			ENSURE(t.pelvisOffset < -0.18f && t.pelvisOffset > -0.18f - 0.02f * 0.85f - 0.002f);
		else
			ENSURE_NEAR(t.pelvisOffset, 0.3f * 0.5f * -0.18f, 0.005f);
		ENSURE_NEAR(soleWs(&f, 0).z, 0.18f, 0.005f);
		// The right foot reaches the floor in lowest-foot mode; in weighted mode the leg may fall short.
		if (mode == 0)
			ENSURE_NEAR(soleWs(&f, 1).z, 0.0f, 0.005f);
		ENSURE(kneeBend(&f, 0) >= 0.0f && kneeBend(&f, 1) >= 0.0f);
		fixtureFree(&f);
	}
}

static void test_landing_blends_back_and_compresses(void)
{
	Fixture f;
	// The mannequin's root is on its floor, so its measured ankle height is exact and the steady
	// pelvis offset is zero; the landing impulse is then all there is.
	fixtureInit(&f, lb_rigMannequin, lbVec3_axisZ);
	addPlane(f.world, lbMakeVec3(0, 0, 0), lbVec3_axisZ);
	addBox(f.world, lbMakeVec3(0, 0, 0.1f), lbMakeVec3(0.5f, 0.5f, 0.1f), lbQuat_identity);
	f.characterWs = characterFrame(&f.humanoid, lbVec3_axisZ, lbVec3_axisY, lbMakeVec3(3, 0, 0));
	lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
	for (int i = 0; i < 30; ++i)
		step(&f, &in);
	// In the air over a 0.2 m block: falling fades alpha; then land on the block.
	f.characterWs.p = lbMakeVec3(0, 0, 0.2f);
	in.characterWs = f.characterWs;
	in.moveState = lb_footFalling;
	float prevAlpha = 1.0f;
	for (int i = 0; i < 10; ++i)
	{
		lbFootTargets t = step(&f, &in);
		ENSURE(t.alpha < prevAlpha);
		ENSURE(prevAlpha - t.alpha < 0.2f); // smooth: speed 10 at 60 Hz is ~15% per frame
		prevAlpha = t.alpha;
	}
	// The landing snaps the goals but blends the alpha back in at alphaSpeed, as any change of it:
	// from where the fall left it, (1 - e^(-10 dt)) of the way each frame, the sole on the block.
	in.moveState = lb_footGrounded;
	in.landed = true;
	lbFootTargets t = step(&f, &in);
	const float blend = 1.0f - expf(-10.0f / 60.0f);
	ENSURE(prevAlpha < 0.3f);
	ENSURE_NEAR(t.alpha, prevAlpha + (1.0f - prevAlpha) * blend, 2e-3f);
	// Mostly the animation's foot yet: on the top or just above it, never in it.
	ENSURE(soleWs(&f, 0).z > 0.2f - 0.005f && soleWs(&f, 0).z < 0.2f + 0.01f);
	in.landed = false;
	for (int i = 0; i < 120; ++i)
	{
		prevAlpha = t.alpha;
		t = step(&f, &in);
		ENSURE(t.alpha >= prevAlpha && t.alpha - prevAlpha <= blend + 1e-3f);
		ENSURE(soleWs(&f, 0).z > 0.2f - 0.005f);
	}
	ENSURE_NEAR(t.alpha, 1.0f, 1e-3f);
	ENSURE_NEAR(soleWs(&f, 0).z, 0.2f, 0.005f);
	// Settled: the impulse has relaxed; land again from here and watch the impulse alone.
	float steady = t.pelvisOffset;
	in.landed = true;
	t = step(&f, &in);
	// The impulse is a critically damped dip at speed 8, -0.06 * 8 t e^(1 - 8 t): a frame in, a
	// third of the way down (all of it at once bent a straight leg 30 degrees in a frame).
	const float dt = 1.0f / 60.0f;
	float dip = t.pelvisOffset - steady, deepest = dip, prev = dip;
	ENSURE_NEAR(dip, -0.06f * 8.0f * dt * expf(1.0f - 8.0f * dt), 1e-4f);
	ENSURE(dip > -0.025f);
	in.landed = false;
	// Down to -0.06 at 1/8 s, never more than 2 cm a frame, then relaxing: after 16 frames,
	// -0.06 * 8 t e^(1 - 8 t).
	for (int i = 1; i < 16; ++i)
	{
		t = step(&f, &in);
		dip = t.pelvisOffset - steady;
		ENSURE(fabsf(dip - prev) < 0.02f);
		deepest = fminf(deepest, dip);
		prev = dip;
	}
	ENSURE_NEAR(deepest, -0.06f, 1e-3f);
	const float t16 = 16.0f * dt;
	ENSURE_NEAR(dip, -0.06f * 8.0f * t16 * expf(1.0f - 8.0f * t16), 1e-3f);
	fixtureFree(&f);
}

static void test_state_alpha_trace_rate_and_lod(void)
{
	Fixture f;
	fixtureOnFlatZ(&f, lb_rigMannequin);
	f.def.probeReuseDistance = 0.0f; // the trace schedule alone (feet at rest reuse probes otherwise)
	lbFootSenseInput in = senseInput(&f, 1.0f / 120.0f);
	lbFootTargets t = step(&f, &in);
	// 30 Hz casts at 120 Hz frames: two casts (one per foot) every 4th frame.
	const int casts0 = recCasts(&f.rec);
	for (int i = 0; i < 40; ++i)
		step(&f, &in);
	ENSURE(recCasts(&f.rec) - casts0 == 20);
	// Clamped mode settles at 0.3; disabled at 0, with speed 10.
	in.ikMode = lb_footIkClamped;
	for (int i = 0; i < 240; ++i)
		t = step(&f, &in);
	ENSURE_NEAR(t.alpha, 0.3f, 1e-3f);
	in.ikMode = lb_footIkDisabled;
	t = step(&f, &in);
	ENSURE_NEAR(t.alpha, 0.3f * expf(-10.0f / 120.0f), 1e-4f);
	// LOD: a camera beyond 8 m turns casts off and fades the system out.
	in.ikMode = lb_footIkEnabled;
	in.hasCamera = true;
	in.cameraWs = lbMakeVec3(9, 0, 1.7f);
	const int casts1 = recCasts(&f.rec);
	for (int i = 0; i < 60; ++i)
		t = step(&f, &in);
	ENSURE(recCasts(&f.rec) == casts1 && !t.active && t.alpha < 0.01f);
	// Within range again: on again.
	in.cameraWs = lbMakeVec3(3, 0, 1.7f);
	for (int i = 0; i < 120; ++i)
		t = step(&f, &in);
	ENSURE(t.active && t.alpha > 0.99f && recCasts(&f.rec) > casts1);
	fixtureFree(&f);
}

// Trace phases spread a crowd's casts: four characters at phases 0, 1/4, 1/2, 3/4 with 30 Hz casts
// at 120 Hz frames cast on different frames, one character per frame, each every 4th frame; with
// lbFootSenseMany too. Phases wrap into [0, 1); bad phases are refused and change nothing.
static void test_trace_phase_spreads_casts(void)
{
	for (int rig = 0; rig < 2; ++rig)
	{
		Fixture f;
		lbVec3 up = rig == 0 ? lbVec3_axisZ : lbVec3_axisY;
		fixtureInit(&f, rig == 0 ? lb_rigMannequin : lb_rigMixamo, up);
		addPlane(f.world, lbVec3_zero, up);
		f.def.up = up;
		f.def.footprintTraces = false; // two centre casts per character and cast frame
		f.def.probeReuseDistance = 0.0f; // the schedule alone: these characters stand still
		f.characterWs = characterFrame(&f.humanoid, up, lbVec3_axisX, lbVec3_zero);
		lbFootSenseInput in = senseInput(&f, 1.0f / 120.0f);
		lbFootState states[4];
		lbFootSenseInput inputs[4];
		lbFootTargets targets[4];
		for (int i = 0; i < 4; ++i)
		{
			lbFootState_Reset(&states[i]);
			ENSURE(states[i].tracePhase == 0.0f);
			ENSURE(lbFootState_SetTracePhase(&states[i], 0.25f * (float)i) == lb_ok);
			inputs[i] = in;
		}
		int castsOf[4] = { 0, 0, 0, 0 };
		for (int frame = 0; frame < 41; ++frame)
		{
			int castersThisFrame = 0;
			for (int i = 0; i < 4; ++i)
			{
				int before = recCasts(&f.rec);
				ENSURE(lbFootSense(&states[i], &f.def, f.skeleton, &f.humanoid, &inputs[i], &targets[i]) == lb_ok);
				int casts = recCasts(&f.rec) - before;
				ENSURE(casts == 0 || casts == 2);
				ENSURE(casts == targets[i].castCount);
				castsOf[i] += casts / 2;
				castersThisFrame += casts > 0;
			}
			// The first frame snaps every state (all cast); from then on one character per frame.
			ENSURE(castersThisFrame == (frame == 0 ? 4 : 1));
		}
		for (int i = 0; i < 4; ++i)
			ENSURE(castsOf[i] == 11);
		// The crowd entry point follows the same schedule.
		for (int frame = 0; frame < 8; ++frame)
		{
			int before = recCasts(&f.rec);
			ENSURE(lbFootSenseMany(states, &f.def, f.skeleton, &f.humanoid, inputs, targets, 4) == lb_ok);
			ENSURE(recCasts(&f.rec) - before == 2);
		}
		fixtureFree(&f);
	}
	// Wrapping and bad input.
	lbFootState s;
	lbFootState_Reset(&s);
	ENSURE(lbFootState_SetTracePhase(&s, 1.25f) == lb_ok && lbAbsF(s.tracePhase - 0.25f) < 1e-6f);
	ENSURE(lbFootState_SetTracePhase(&s, -0.25f) == lb_ok && lbAbsF(s.tracePhase - 0.75f) < 1e-6f);
	ENSURE(lbFootState_SetTracePhase(&s, -1.0e-9f) == lb_ok && s.tracePhase >= 0.0f && s.tracePhase < 1.0f);
	lbSetLogFcn(captureLog, NULL);
	g_lastCode = lb_ok;
	float kept = s.tracePhase;
	ENSURE(lbFootState_SetTracePhase(&s, NAN) == lb_errorNonFinite && g_lastCode == lb_errorNonFinite);
	ENSURE(lbFootState_SetTracePhase(&s, INFINITY) == lb_errorNonFinite && s.tracePhase == kept);
	ENSURE(lbFootState_SetTracePhase(NULL, 0.5f) == lb_errorNullPointer);
	lbSetLogFcn(NULL, NULL);
}

static void test_prediction(void)
{
	Fixture f;
	fixtureInit(&f, lb_rigMannequin, lbVec3_axisZ);
	addPlane(f.world, lbVec3_zero, lbVec3_axisZ);
	f.def.traceRate = 0.0f;
	f.characterWs = characterFrame(&f.humanoid, lbVec3_axisZ, lbVec3_axisX, lbVec3_zero);
	lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
	step(&f, &in);
	// Moving at 4 m/s along +X, the feet moving forward with the character: start moves 0.08 m ahead.
	in.velocityWs = lbMakeVec3(4, 0, 0);
	for (int i = 0; i < 3; ++i)
	{
		f.characterWs.p.x += 4.0f / 60.0f;
		in.characterWs = f.characterWs;
		step(&f, &in);
	}
	lbVec3 ankle = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[1].foot].p);
	ENSURE_NEAR(f.rec.lastStart[(f.rec.sphereCasts - 1) % 8].x - ankle.x, 0.08f, 1e-4f);
	// 20 m/s: capped at 0.2 m.
	in.velocityWs = lbMakeVec3(20, 0, 0);
	f.characterWs.p.x += 20.0f / 60.0f;
	in.characterWs = f.characterWs;
	step(&f, &in);
	ankle = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[1].foot].p);
	ENSURE_NEAR(f.rec.lastStart[(f.rec.sphereCasts - 1) % 8].x - ankle.x, 0.2f, 1e-4f);
	// Feet swinging backward relative to the velocity (character still, velocity forward): none.
	in.velocityWs = lbMakeVec3(4, 0, 0);
	f.characterWs.p.x -= 0.05f;
	in.characterWs = f.characterWs;
	step(&f, &in);
	ankle = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[1].foot].p);
	ENSURE_NEAR(f.rec.lastStart[(f.rec.sphereCasts - 1) % 8].x - ankle.x, 0.0f, 1e-5f);
	// Turning fast: none.
	f.characterWs.q = lbQuatMul(lbQuatFromAxisAngle(lbVec3_axisZ, 0.1f), f.characterWs.q);
	f.characterWs.p.x += 4.0f / 60.0f;
	in.characterWs = f.characterWs;
	step(&f, &in);
	ankle = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[1].foot].p);
	ENSURE_NEAR(f.rec.lastStart[(f.rec.sphereCasts - 1) % 8].x - ankle.x, 0.0f, 1e-5f);
	fixtureFree(&f);
}

static void test_foot_locking(void)
{
	Fixture f;
	fixtureInit(&f, lb_rigMixamo, lbVec3_axisY);
	addPlane(f.world, lbVec3_zero, lbVec3_axisY);
	f.characterWs = characterFrame(&f.humanoid, lbVec3_axisY, lbVec3_axisZ, lbVec3_zero);
	lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
	lbFootTargets t = step(&f, &in);
	lbVec3 locked0 = soleWs(&f, 0);
	ENSURE(t.feet[0].locked);
	// The animation slides the left foot slowly (below the lock speed): the result holds still.
	int foot = f.humanoid.leg[0].foot;
	float maxDrift = 0.0f;
	for (int i = 0; i < 20; ++i)
	{
		f.anim.model[foot].p.z += 0.003f; // 0.18 m/s
		t = step(&f, &in);
		maxDrift = lbMaxF(maxDrift, lbDistance(soleWs(&f, 0), locked0));
	}
	ENSURE(t.feet[0].locked);
	ENSURE(maxDrift < 1e-3f);
	// Past the release distance the lock lets go and the foot blends back to the animation.
	for (int i = 0; i < 30; ++i)
	{
		f.anim.model[foot].p.z += 0.003f;
		t = step(&f, &in);
	}
	ENSURE(!t.feet[0].locked || lbDistance(soleWs(&f, 0), locked0) > 0.05f);
	// The animation lifts the foot: released, and the foot follows the lift.
	f.anim.model[foot].p.y += 0.15f;
	for (int i = 0; i < 60; ++i)
		t = step(&f, &in);
	ENSURE(!t.feet[0].locked && !t.feet[0].planted);
	ENSURE(soleWs(&f, 0).y > 0.12f);
	fixtureFree(&f);
}

// A plant that flickers: the animated foot hovers about the lock height (the animated sole 3.8 and
// 4.2 cm over its floor by turns, 0.24 m/s, under the lock speed), as a clip's shuffling foot does.
// Once locked, the foot stays planted and locked (it locked under 4 cm; it lets go above 6), and the
// toes' bend weight stays in; lifted clear, the foot lets go and the bend eases out over a few
// frames, never by more than a third of it in one. Both rigs.
static void test_plant_flicker_holds_the_lock(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		Fixture f;
		fixtureOnFlatZ(&f, (lbReferenceRig)rig);
		lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
		const int foot = f.humanoid.leg[0].foot;
		const lbVec3 rest = f.anim.model[foot].p;
		const lbVec3 upMs = f.humanoid.upMs;
		lbFootTargets t;
		for (int i = 0; i < 30; ++i)
		{
			f.anim.model[foot].p = lbMulAdd(rest, 0.036f, upMs);
			t = step(&f, &in);
		}
		ENSURE(t.feet[0].planted && t.feet[0].locked);
		ENSURE_NEAR(t.feet[0].toeBend, 1.0, 1e-6);
		for (int i = 0; i < 40; ++i)
		{
			f.anim.model[foot].p = lbMulAdd(rest, (i & 1) ? 0.042f : 0.038f, upMs);
			t = step(&f, &in);
			ENSURE(t.feet[0].planted && t.feet[0].locked);
			ENSURE(t.feet[0].toeBend >= 1.0f - 1e-6f);
		}
		// Lifted clear (over several frames, so the foot is slow enough to have stayed planted
		// below 6 cm): released, and the toes' bend eases out.
		float prev = t.feet[0].toeBend;
		bool released = false;
		for (int i = 0; i < 30; ++i)
		{
			f.anim.model[foot].p = lbMulAdd(rest, lbMinF(0.042f + 0.004f * (float)(i + 1), 0.12f), upMs);
			t = step(&f, &in);
			ENSURE(prev - t.feet[0].toeBend <= 1.0f / 3.0f + 1e-4f);
			ENSURE(t.feet[0].toeBend >= 0.0f && t.feet[0].toeBend <= 1.0f);
			released = released || !t.feet[0].planted;
			prev = t.feet[0].toeBend;
		}
		ENSURE(released && !t.feet[0].locked);
		ENSURE(t.feet[0].toeBend == 0.0f);
		fixtureFree(&f);
	}
}

// Toes a clip curls nearly straight down into the ground (an actor on tiptoe) bend onto it as toes
// curled less do. Within 11.5 degrees of straight down they lean no clear way of their own, and were
// left as the clip had them: CMU 01_03's toes, bent 35 degrees onto the floor, sprang back for one
// frame as they passed 82 degrees down, the tip 3 cm into the floor. Here a planted foot's toes are
// turned 40-89.9 degrees below the ground ahead: the posed tip stays on the ground (2 mm) and moves
// less than 5 mm from one half degree to the next. Both rigs, z up and y up.
static void test_toes_curled_straight_down_bend_onto_the_ground(void)
{
	for (size_t k = 0; k < sizeof kCases / sizeof kCases[0]; ++k)
	{
		Fixture f;
		fixtureOnFloor(&f, &kCases[k], true, 0.0f);
		lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
		lbFootTargets t;
		for (int i = 0; i < 30; ++i)
			t = step(&f, &in);
		ENSURE(t.feet[0].planted && t.feet[0].locked && t.feet[0].toeBend == 1.0f);
		const int ball = f.humanoid.leg[0].ball;
		const lbVec3 upMs = f.humanoid.upMs;
		float prev = NAN, lowest = 1.0e30f, jump = 0.0f;
		for (float deg = 40.0f; deg <= 89.95f; deg += 0.5f)
		{
			lbPose_Copy(&f.pose, &f.anim);
			const lbTransform bm = f.pose.model[ball];
			const lbVec3 dir = lbNormalize(lbQuatRotate(bm.q, f.humanoid.legAxes[0].toeTipBall));
			const lbVec3 ahead = lbNormalize(lbProjectOnPlane(dir, upMs));
			const float a = deg * LB_DEG2RAD;
			const lbVec3 want = lbSub(lbMulSV(cosf(a), ahead), lbMulSV(sinf(a), upMs));
			ENSURE(lbPose_SetBoneModelRotation(&f.pose, f.skeleton, ball, lbQuatNormalize(lbQuatMul(lbQuatFromTo(dir, want), bm.q)), true) == lb_ok);
			ENSURE(lbFootApplyPose(&t, &f.def, f.skeleton, &f.humanoid, f.solver, &f.pose, f.workspace, f.workspaceSize) == lb_ok);
			lbVec3 pts[lb_solePointCount];
			lbHumanoid_GetSolePointsMs(&f.humanoid, &f.pose, 0, pts);
			const float h = lbDot(lbTransformPoint(f.characterWs, pts[lb_soleToeTip]), f.up);
			lowest = lbMinF(lowest, h);
			if (!isnan(prev))
				jump = lbMaxF(jump, fabsf(h - prev));
			prev = h;
		}
		printf("  case %zu: toe tip at least %.1f mm over the ground, moving at most %.1f mm a half degree\n", k, 1000.0 * lowest,
			   1000.0 * jump);
		ENSURE(lowest >= -0.002f);
		ENSURE(jump < 0.005f);
		fixtureFree(&f);
	}
}

// A one-frame speed spike on a locked foot (motion capture's jitter: the foot moves 7 mm in one
// 60 Hz frame, 0.42 m/s, over the 0.3 m/s lock speed, then stands again) lets the lock go for that
// frame, and the plant of the next frame takes the same lock up again: the goal comes back to the
// lock's place, not to where the animation had the foot when it planted again (7 mm on; a fresh
// lock there turned the toes of a captured walk by 16-20 degrees). Both rigs.
static void test_a_spiking_plant_takes_its_lock_up_again(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		Fixture f;
		fixtureOnFlatZ(&f, (lbReferenceRig)rig);
		lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
		const int foot = f.humanoid.leg[0].foot;
		lbFootTargets t;
		for (int i = 0; i < 30; ++i)
			t = step(&f, &in);
		ENSURE(t.feet[0].locked);
		const lbVec3 lockedAt = t.feet[0].ankleWs;
		f.anim.model[foot].p.x += 0.007f;
		t = step(&f, &in);
		ENSURE(!t.feet[0].locked);
		for (int i = 0; i < 20; ++i)
			t = step(&f, &in);
		ENSURE(t.feet[0].locked);
		ENSURE(lbDistance(t.feet[0].ankleWs, lockedAt) < 1.0e-4f);
		fixtureFree(&f);
	}
}

// A bad transform on any bone either stage reads (the pelvis, each leg's thigh, calf, foot and
// ball): in the pose to solve, each kind of fault in its model or its local transform is refused
// with the pose left as it was, right at the bounds (a rotation's squared length within 2 % of one,
// a model position within 1e6 m); in the animated pose, a non-finite model transform fails the
// sense stage with the state kept. Both rigs.
static void test_bad_bone_transforms_refused(void)
{
	lbSetLogFcn(captureLog, NULL);
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		Fixture f;
		fixtureInit(&f, kCases[c].rig, kCases[c].up);
		addPlane(f.world, lbVec3_zero, kCases[c].up);
		f.characterWs = characterFrame(&f.humanoid, kCases[c].up, kCases[c].fwd, lbVec3_zero);
		lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
		lbFootTargets t;
		for (int i = 0; i < 10; ++i)
			t = step(&f, &in);
		const size_t bytes = sizeof(lbTransform) * (size_t)f.skeleton->boneCount;
		const lbHumanoid* h = &f.humanoid;
		const int bones[9] = { h->pelvis,	   h->leg[0].thigh, h->leg[0].calf, h->leg[0].foot, h->leg[0].ball,
							   h->leg[1].thigh, h->leg[1].calf, h->leg[1].foot, h->leg[1].ball };
		lbPose saved = lbCreatePose(f.skeleton);
		int refused = 0;
		for (int k = 0; k < 9; ++k)
		{
			if (bones[k] < 0)
				continue;
			for (int local = 0; local < 2; ++local)
			{
				// Kinds 0-5 and 9-12 must be refused, 6-7 (just inside the rotation's bounds) accepted;
				// 8 (a model position past 1e6 m) refused, on a model transform only. 9-12 are the
				// infinities and NaNs the range tests alone must catch: an infinite scale, a position
				// at minus infinity, a NaN rotation component, a rotation finite but large enough that
				// its squared length overflows.
				for (int kind = 0; kind < 13; ++kind)
				{
					if (kind == 8 && local)
						continue;
					lbPose_Copy(&f.pose, &f.anim);
					lbTransform* x = local ? &f.pose.local[bones[k]] : &f.pose.model[bones[k]];
					const float qs[] = { 1.0f, 1.0f, 1.0f, 1.0f, 1.011f, 0.989f, 1.009f, 0.991f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f };
					x->q = lbMakeQuat(x->q.x * qs[kind], x->q.y * qs[kind], x->q.z * qs[kind], x->q.w * qs[kind]);
					if (kind == 0)
						x->p.y = NAN;
					else if (kind == 1)
						x->q.z = INFINITY;
					else if (kind == 2)
						x->s.x = NAN;
					else if (kind == 3)
						x->s.z = 0.0f;
					else if (kind == 8)
						x->p.z = 2.0e6f;
					else if (kind == 9)
						x->s.y = INFINITY;
					else if (kind == 10)
						x->p.x = -INFINITY;
					else if (kind == 11)
						x->q.w = NAN;
					else if (kind == 12)
						x->q.y = 3.0e19f;
					lbPose_Copy(&saved, &f.pose);
					g_lastCode = lb_ok;
					const lbResult r = lbFootApplyPose(&t, &f.def, f.skeleton, h, lb_footSolverTwoBone, &f.pose, NULL, 0);
					if (kind == 6 || kind == 7)
					{
						ENSURE(r == lb_ok);
						continue;
					}
					ENSURE(r == lb_errorNonFinite && g_lastCode == lb_errorNonFinite);
					ENSURE(memcmp(f.pose.model, saved.model, bytes) == 0 && memcmp(f.pose.local, saved.local, bytes) == 0);
					++refused;
				}
			}
			// The animated pose: a NaN position, an infinite scale, a NaN rotation.
			for (int kind = 0; kind < 3; ++kind)
			{
				lbPose_Copy(&saved, &f.anim);
				lbTransform* x = &saved.model[bones[k]];
				if (kind == 0)
					x->p.x = NAN;
				else if (kind == 1)
					x->s.y = INFINITY;
				else
					x->q.w = NAN;
				lbFootSenseInput bad = in;
				bad.animPose = &saved;
				const lbFootState kept = f.state;
				lbFootTargets out;
				g_lastCode = lb_ok;
				ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, h, &bad, &out) == lb_errorNonFinite);
				ENSURE(g_lastCode == lb_errorNonFinite && memcmp(&kept, &f.state, sizeof kept) == 0);
			}
		}
		ENSURE(refused == 9 * (11 + 10));
		// The untouched pose still passes.
		lbPose_Copy(&f.pose, &f.anim);
		ENSURE(lbFootApplyPose(&t, &f.def, f.skeleton, h, lb_footSolverTwoBone, &f.pose, NULL, 0) == lb_ok);
		lbDestroyPose(&saved);
		fixtureFree(&f);
	}
	lbSetLogFcn(NULL, NULL);
}

static void test_bad_inputs_and_extremes(void)
{
	lbSetLogFcn(captureLog, NULL);
	Fixture f;
	fixtureOnFlatZ(&f, lb_rigMannequin);
	lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
	lbFootTargets t;
	for (int i = 0; i < 30; ++i)
		t = step(&f, &in);
	lbFootState saved = f.state;
	// NULLs and an uninitialised def: errors, nothing changes.
	ENSURE(lbFootSense(NULL, &f.def, f.skeleton, &f.humanoid, &in, &t) == lb_errorNullPointer);
	ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, &f.humanoid, NULL, &t) == lb_errorNullPointer);
	lbFootDef raw;
	memset(&raw, 0, sizeof raw);
	ENSURE(lbFootSense(&f.state, &raw, f.skeleton, &f.humanoid, &in, &t) == lb_errorDefNotInitialized);
	ENSURE(lbFootApplyPose(&t, &raw, f.skeleton, &f.humanoid, lb_footSolverTwoBone, &f.pose, NULL, 0) == lb_errorDefNotInitialized);
	ENSURE(memcmp(&saved, &f.state, sizeof saved) == 0);
	// NaN character transform: error, state kept, output faded.
	lbFootSenseInput bad = in;
	bad.characterWs.p.x = NAN;
	ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, &f.humanoid, &bad, &t) == lb_errorNonFinite);
	ENSURE(t.alpha == 0.0f && memcmp(&saved, &f.state, sizeof saved) == 0);
	// NaN velocity: reported, treated as zero, the frame still runs with finite output.
	bad = in;
	bad.velocityWs = lbMakeVec3(NAN, 0, 0);
	ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, &f.humanoid, &bad, &t) == lb_errorNonFinite);
	ENSURE(lbIsValidVec3(t.feet[0].ankleWs) && t.alpha > 0.99f);
	// NaN targets in the pose stage: refused, pose unchanged.
	lbFootTargets nanT = t;
	nanT.feet[1].ankleWs.z = INFINITY;
	lbPose_Copy(&f.pose, &f.anim);
	ENSURE(lbFootApplyPose(&nanT, &f.def, f.skeleton, &f.humanoid, lb_footSolverTwoBone, &f.pose, NULL, 0) == lb_errorNonFinite);
	ENSURE(memcmp(f.pose.model, f.anim.model, sizeof(lbTransform) * (size_t)f.skeleton->boneCount) == 0);
	// A non-finite move of the hips: refused the same way. On this flat ground there is none.
	ENSURE(t.pelvisShiftWs.x == 0.0f && t.pelvisShiftWs.y == 0.0f && t.pelvisShiftWs.z == 0.0f);
	nanT = t;
	nanT.pelvisShiftWs.y = NAN;
	ENSURE(lbFootApplyPose(&nanT, &f.def, f.skeleton, &f.humanoid, lb_footSolverTwoBone, &f.pose, NULL, 0) == lb_errorNonFinite);
	ENSURE(memcmp(f.pose.model, f.anim.model, sizeof(lbTransform) * (size_t)f.skeleton->boneCount) == 0);
	// Nor a non-finite climb's part of it (none on level ground either).
	ENSURE(t.climbShiftWs.x == 0.0f && t.climbShiftWs.y == 0.0f && t.climbShiftWs.z == 0.0f);
	nanT = t;
	nanT.climbShiftWs.x = INFINITY;
	ENSURE(lbFootApplyPose(&nanT, &f.def, f.skeleton, &f.humanoid, lb_footSolverTwoBone, &f.pose, NULL, 0) == lb_errorNonFinite);
	ENSURE(memcmp(f.pose.model, f.anim.model, sizeof(lbTransform) * (size_t)f.skeleton->boneCount) == 0);
	// Nor a non-finite pelvis drop limit (the sense stage's is pelvisMaxSink on this level ground).
	ENSURE(t.pelvisMaxSink == f.def.pelvisMaxSink);
	nanT = t;
	nanT.pelvisMaxSink = NAN;
	ENSURE(lbFootApplyPose(&nanT, &f.def, f.skeleton, &f.humanoid, lb_footSolverTwoBone, &f.pose, NULL, 0) == lb_errorNonFinite);
	ENSURE(memcmp(f.pose.model, f.anim.model, sizeof(lbTransform) * (size_t)f.skeleton->boneCount) == 0);
	// Through the crowd call, which checks the def, the rig and the solver once for the batch, each
	// character's own targets are still checked: a non-finite one is refused and its pose left as
	// it was, and a good one gives the single call's pose.
	{
		const size_t bytes = sizeof(lbTransform) * (size_t)f.skeleton->boneCount;
		lbFootTargets two[2] = { t, t };
		two[1].feet[0].ankleWs.x = NAN;
		lbPose crowdPoses[2] = { lbCreatePose(f.skeleton), lbCreatePose(f.skeleton) };
		lbPose_Copy(&crowdPoses[0], &f.anim);
		lbPose_Copy(&crowdPoses[1], &f.anim);
		ENSURE(lbFootApplyPoseCrowd(two, &f.def, f.skeleton, &f.humanoid, lb_footSolverTwoBone, crowdPoses, 2, NULL, 0, NULL) ==
			   lb_errorNonFinite);
		ENSURE(memcmp(crowdPoses[1].model, f.anim.model, bytes) == 0);
		lbPose_Copy(&f.pose, &f.anim);
		ENSURE(lbFootApplyPose(&t, &f.def, f.skeleton, &f.humanoid, lb_footSolverTwoBone, &f.pose, NULL, 0) == lb_ok);
		// The crowd solves full-weight legs through the batch two-bone solve: its tolerance against
		// the single solve (0.1 mm, 1e-3 rad), bone by bone.
		for (int k = 0; k < f.skeleton->boneCount; ++k)
		{
			const lbQuat d = lbQuatMul(lbQuatConj(crowdPoses[0].model[k].q), f.pose.model[k].q);
			ENSURE(lbDistance(crowdPoses[0].model[k].p, f.pose.model[k].p) <= 1.0e-4f);
			ENSURE(lbLength(lbMakeVec3(d.x, d.y, d.z)) <= sinf(0.5e-3f));
		}
		ENSURE(memcmp(crowdPoses[0].model, f.anim.model, bytes) != 0);
		// A def not made by lbDefaultFootDef: refused for the whole batch, no pose written.
		lbFootDef raw2;
		memset(&raw2, 0, sizeof raw2);
		lbPose_Copy(&crowdPoses[0], &f.anim);
		ENSURE(lbFootApplyPoseCrowd(two, &raw2, f.skeleton, &f.humanoid, lb_footSolverTwoBone, crowdPoses, 1, NULL, 0, NULL) ==
			   lb_errorDefNotInitialized);
		ENSURE(memcmp(crowdPoses[0].model, f.anim.model, bytes) == 0);
		lbDestroyPose(&crowdPoses[0]);
		lbDestroyPose(&crowdPoses[1]);
	}
	lbPose_Copy(&f.pose, &f.anim);
	// The full-body solver without its workspace: refused, pose unchanged.
	ENSURE(lbFootApplyPose(&t, &f.def, f.skeleton, &f.humanoid, lb_footSolverFullBody, &f.pose, NULL, 0) == lb_errorCapacity);
	ENSURE(memcmp(f.pose.model, f.anim.model, sizeof(lbTransform) * (size_t)f.skeleton->boneCount) == 0);
	// dt = 0: nothing moves; dt = 1 s: snaps, finite.
	in.dt = 0.0f;
	lbFootTargets t0 = step(&f, &in);
	ENSURE_VEC3_NEAR(t0.feet[0].ankleWs, t.feet[0].ankleWs, 1e-5f);
	in.dt = 1.0f;
	t = step(&f, &in);
	ENSURE(lbPose_IsFinite(&f.pose));
	ENSURE_NEAR(soleWs(&f, 0).z, 0.0f, 0.005f);
	// Teleport 10 m: locks reset, goals snap to the new place.
	in.dt = 1.0f / 60.0f;
	f.characterWs.p = lbMakeVec3(10, 0, 0);
	in.characterWs = f.characterWs;
	t = step(&f, &in);
	ENSURE(lbAbsF(t.feet[0].ankleWs.x - 10.0f) < 0.5f && t.feet[0].alpha > 0.99f);
	ENSURE_NEAR(soleWs(&f, 0).z, 0.0f, 0.005f);
	// No ground at all: the IK fades out smoothly, poses stay finite.
	lbDestroyWorld(f.world);
	lbWorldDef wd = lbDefaultWorldDef();
	f.world = lbCreateWorld(&wd);
	f.rec.inner = lbWorld_GetQuery(f.world);
	float prev = 1.0f;
	for (int i = 0; i < 60; ++i)
	{
		t = step(&f, &in);
		ENSURE(i < 2 || !t.feet[0].grounded); // the cached ground lasts until the next cast (30 Hz)
		if (prev - t.feet[0].alpha >= 0.25f)
			printf("  frame %d alpha %g -> %g\n", i, (double)prev, (double)t.feet[0].alpha);
		ENSURE(prev - t.feet[0].alpha < 0.25f);
		prev = t.feet[0].alpha;
		ENSURE(lbPose_IsFinite(&f.pose));
	}
	ENSURE(prev < 0.01f);
	fixtureFree(&f);
	lbSetLogFcn(NULL, NULL);
}

// Ball of the foot (the sense stage's ball sample) in the foot bone's frame.
static lbVec3 ballLocal(const lbHumanoid* h, int side)
{
	const lbLegAxes* ax = &h->legAxes[side];
	lbVec3 toeFlat = lbNormalize(lbProjectOnPlane(ax->toe, ax->footUp));
	return lbMulAdd(lbFootSoleLocal(h, side), ax->footLength, toeFlat);
}

// Pose-stage targets for the left foot flat on a plane rising `slopeDeg` forward, its ball at the
// animated ball raised by `rise` and moved `ahead` forward (world); the right foot off (alpha 0).
static lbFootTargets uphillTargets(const Fixture* f, lbVec3 fwd, float slopeDeg, float rise, float ahead,
								   lbVec3* outPoint, lbVec3* outNormal)
{
	lbFootTargets t;
	memset(&t, 0, sizeof t);
	t.characterWs = f->characterWs;
	t.upWs = f->up;
	t.alpha = 1.0f;
	const int foot = f->humanoid.leg[0].foot;
	lbVec3 n = lbQuatRotate(lbQuatFromAxisAngle(lbCross(f->up, fwd), -slopeDeg * LB_DEG2RAD), f->up);
	lbTransform animFootWs = lbTransformMul(f->characterWs, f->anim.model[foot]);
	lbQuat rot = lbQuatNormalize(lbQuatMul(lbQuatFromTo(f->up, n), animFootWs.q));
	lbVec3 ball = lbAdd(lbTransformPoint(animFootWs, ballLocal(&f->humanoid, 0)), lbAdd(lbMulSV(rise, f->up), lbMulSV(ahead, fwd)));
	lbTransform goal = lbMakeTransform(lbVec3_zero, rot);
	goal.s = animFootWs.s;
	t.feet[0].footRotWs = rot;
	t.feet[0].ankleWs = lbSub(ball, lbTransformPoint(goal, ballLocal(&f->humanoid, 0)));
	t.feet[0].alpha = 1.0f;
	t.feet[1].footRotWs = lbQuat_identity;
	t.feet[1].ankleWs = lbVec3_zero;
	t.feet[1].alpha = 0.0f;
	*outPoint = ball;
	*outNormal = n;
	return t;
}

// lbFootApplyPose of the fixture's animation with the ankle limit off; the result stays in f->pose
// and is returned as a copy the caller destroys.
static lbPose poseWithLimitOff(Fixture* f, const lbFootTargets* t)
{
	lbFootDef off = f->def;
	off.ankleLimit = 0.0f;
	lbPose_Copy(&f->pose, &f->anim);
	ENSURE(lbFootApplyPose(t, &off, f->skeleton, &f->humanoid, f->solver, &f->pose, NULL, 0) == lb_ok);
	lbPose plain = lbCreatePose(f->skeleton);
	lbPose_Copy(&plain, &f->pose);
	return plain;
}

// The pose stage as it was before the ankle limit: pelvis (no offset, every goal in reach), then
// a plain two-bone solve of each weighted leg.
static void poseWithoutLimit(Fixture* f, const lbFootTargets* t)
{
	lbPose_Copy(&f->pose, &f->anim);
	ENSURE(lbPose_TranslateBoneModel(&f->pose, f->skeleton, f->humanoid.pelvis, lbVec3_zero) == lb_ok);
	for (int s = 0; s < 2; ++s)
	{
		if (t->feet[s].alpha <= 0.0f)
			continue;
		lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
		in.targetMs = lbQuatInvRotate(t->characterWs.q, lbSub(t->feet[s].ankleWs, t->characterWs.p));
		in.targetRotationMs = lbQuatNormalize(lbQuatMul(lbQuatConj(t->characterWs.q), t->feet[s].footRotWs));
		in.useTargetRotation = true;
		in.weight = t->alpha * t->feet[s].alpha;
		in.soften = f->def.legSoften;
		ENSURE(lbPose_SolveLimbIk(&f->pose, f->skeleton, &f->humanoid, s ? lb_limbLegR : lb_limbLegL, &in, NULL) == lb_ok);
	}
}

static float ankleAngleDeg(const Fixture* f, int side)
{
	int foot = f->humanoid.leg[side].foot;
	return lbQuatAngleBetween(f->skeleton->restLocal[foot].q, lbQuatNormalize(f->pose.local[foot].q)) * LB_RAD2DEG;
}

// Ankle limit: a goal high on a steep uphill folds the knee and would bend the ankle far past a
// person's range; the foot turns about its ball instead (heel up, ball on the ground). Off, the
// old result comes back bit for bit; a goal within the limit is untouched; a non-finite limit is
// refused.
static void test_ankle_limit_lifts_the_heel(void)
{
	lbSetLogFcn(captureLog, NULL);
	const size_t cases[] = { 0, 2 }; // mannequin +Z up, mixamo +Y up
	for (size_t ci = 0; ci < 2; ++ci)
	{
		const RigCase* rc = &kCases[cases[ci]];
		Fixture f;
		fixtureInit(&f, rc->rig, rc->up);
		f.characterWs = characterFrame(&f.humanoid, rc->up, rc->fwd, lbVec3_zero);
		lbPose_Copy(&f.anim, &f.pose); // rest pose
		lbPose_LocalToModel(&f.anim, f.skeleton);
		const float limitDeg = f.def.ankleLimit * LB_RAD2DEG;
		ENSURE(limitDeg > 55.0f && limitDeg < 70.0f);
		for (int k = 0; k < 4; ++k)
		{
			const float slope = 40.0f + 5.0f * (float)k, rise = 0.30f + 0.03f * (float)k;
			lbVec3 point, n;
			lbFootTargets t = uphillTargets(&f, rc->fwd, slope, rise, 0.10f, &point, &n);
			// Off: exactly the plain solve, and that solve bends the ankle past the limit.
			lbFootDef off = f.def;
			off.ankleLimit = 0.0f;
			lbPose plain = poseWithLimitOff(&f, &t);
			poseWithoutLimit(&f, &t);
			ENSURE(memcmp(plain.local, f.pose.local, sizeof(lbTransform) * (size_t)plain.boneCount) == 0);
			ENSURE(memcmp(plain.model, f.pose.model, sizeof(lbTransform) * (size_t)plain.boneCount) == 0);
			const float before = ankleAngleDeg(&f, 0);
			ENSURE(before > limitDeg + 3.0f);
			lbDestroyPose(&plain);
			// On: within the limit, the ball where the goal put it (on the plane), the heel above it.
			lbPose_Copy(&f.pose, &f.anim);
			ENSURE(lbFootApplyPose(&t, &f.def, f.skeleton, &f.humanoid, f.solver, &f.pose, NULL, 0) == lb_ok);
			ENSURE(lbPose_IsFinite(&f.pose));
			const float after = ankleAngleDeg(&f, 0);
			if (after > limitDeg + 0.5f)
				printf("  rig %d slope %g: ankle %.2f -> %.2f deg (limit %.1f)\n", (int)rc->rig, (double)slope, (double)before,
					   (double)after, (double)limitDeg);
			ENSURE(after <= limitDeg + 0.5f);
			lbTransform footWs = lbTransformMul(f.characterWs, f.pose.model[f.humanoid.leg[0].foot]);
			lbVec3 ball = lbTransformPoint(footWs, ballLocal(&f.humanoid, 0));
			ENSURE(lbAbsF(lbDot(lbSub(ball, point), n)) < 0.001f);
			ENSURE(lbDistance(ball, point) < 0.002f);
			const lbLegAxes* ax = &f.humanoid.legAxes[0];
			lbVec3 heel = lbTransformPoint(footWs, lbMulAdd(lbFootSoleLocal(&f.humanoid, 0), -0.3f * ax->footLength,
															 lbNormalize(lbProjectOnPlane(ax->toe, ax->footUp))));
			ENSURE(lbDot(lbSub(heel, point), n) > 0.01f);
			ENSURE(kneeBend(&f, 0) >= 0.0f);
			// Half weight: blended toward the animation, still finite and bent no further than off.
			t.feet[0].alpha = 0.5f;
			lbPose_Copy(&f.pose, &f.anim);
			ENSURE(lbFootApplyPose(&t, &off, f.skeleton, &f.humanoid, f.solver, &f.pose, NULL, 0) == lb_ok);
			const float halfOff = ankleAngleDeg(&f, 0);
			lbPose_Copy(&f.pose, &f.anim);
			ENSURE(lbFootApplyPose(&t, &f.def, f.skeleton, &f.humanoid, f.solver, &f.pose, NULL, 0) == lb_ok);
			ENSURE(lbPose_IsFinite(&f.pose));
			ENSURE(ankleAngleDeg(&f, 0) <= lbMaxF(halfOff, limitDeg + 0.5f));
		}
		// Within the limit (the foot flat on level ground a little raised): bit for bit the same.
		{
			lbVec3 point, n;
			lbFootTargets t = uphillTargets(&f, rc->fwd, 10.0f, 0.05f, 0.0f, &point, &n);
			lbPose plain = poseWithLimitOff(&f, &t);
			ENSURE(ankleAngleDeg(&f, 0) < limitDeg);
			lbPose_Copy(&f.pose, &f.anim);
			ENSURE(lbFootApplyPose(&t, &f.def, f.skeleton, &f.humanoid, f.solver, &f.pose, NULL, 0) == lb_ok);
			ENSURE(memcmp(plain.local, f.pose.local, sizeof(lbTransform) * (size_t)plain.boneCount) == 0);
			ENSURE(memcmp(plain.model, f.pose.model, sizeof(lbTransform) * (size_t)plain.boneCount) == 0);
			lbDestroyPose(&plain);
			// A non-finite limit: refused, the pose untouched. Half a turn or more never limits.
			lbFootDef bad = f.def;
			const float nonFinite[] = { NAN, INFINITY, -INFINITY };
			for (int i = 0; i < 3; ++i)
			{
				bad.ankleLimit = nonFinite[i];
				lbPose_Copy(&f.pose, &f.anim);
				g_lastCode = lb_ok;
				ENSURE(lbFootApplyPose(&t, &bad, f.skeleton, &f.humanoid, f.solver, &f.pose, NULL, 0) == lb_errorNonFinite);
				ENSURE(g_lastCode == lb_errorNonFinite);
				ENSURE(memcmp(f.pose.model, f.anim.model, sizeof(lbTransform) * (size_t)f.skeleton->boneCount) == 0);
			}
		}
		fixtureFree(&f);
	}
	lbSetLogFcn(NULL, NULL);
}

// ---------------------------------------------------------------------------------------------
// Footprint probes, swing clearance, goal speed, knee bend and the cost of locked feet: each
// against an analytic reference from the box it builds, on both rigs and both world ups.

// World sole points (heel, under the ankle, ball, toe tip: the shared definition) of a pose.
static void solePointsWs(const Fixture* f, const lbPose* pose, int side, lbVec3 out[lb_solePointCount])
{
	lbHumanoid_GetSolePointsMs(&f->humanoid, pose, side, out);
	for (int k = 0; k < lb_solePointCount; ++k)
		out[k] = lbTransformPoint(f->characterWs, out[k]);
}

// How deep a point lies inside an oriented box: the distance to its nearest face, > 0 inside.
static float boxDepth(lbVec3 p, lbVec3 center, lbVec3 half, lbQuat q)
{
	lbVec3 l = lbQuatInvRotate(q, lbSub(p, center));
	return lbMinF(half.x - lbAbsF(l.x), lbMinF(half.y - lbAbsF(l.y), half.z - lbAbsF(l.z)));
}

// Deepest of a pose's sole points (one foot) inside the box; negative when all are outside.
static float soleBoxDepth(const Fixture* f, int side, lbVec3 center, lbVec3 half, lbQuat q)
{
	lbVec3 pts[lb_solePointCount];
	solePointsWs(f, &f->pose, side, pts);
	float d = -1.0e30f;
	for (int k = 0; k < lb_solePointCount; ++k)
		d = lbMaxF(d, boxDepth(pts[k], center, half, q));
	return d;
}

// The animated foot's own forward (heel to toe tip, flattened onto the ground) and a box frame
// whose x runs along it and z along up: risers and noses built with it lie square to the foot, so
// the distance along the foot from a sole point to the face is the analytic reference.
static lbVec3 footForward(const Fixture* f, int side)
{
	lbVec3 pts[lb_solePointCount];
	solePointsWs(f, &f->anim, side, pts);
	return lbNormalize(lbProjectOnPlane(lbSub(pts[lb_soleToeTip], pts[lb_soleHeel]), f->up));
}

// Share of the heel-to-ball line of the solved foot with ground (a ray hit) no more than 5 cm
// below it: the issue's support measure, probed in the world itself, not in what the system sensed.
static float soleSupport(const Fixture* f, int side)
{
	lbVec3 pts[lb_solePointCount];
	solePointsWs(f, &f->pose, side, pts);
	const int n = 20;
	int supported = 0;
	for (int i = 0; i < n; ++i)
	{
		lbVec3 p = lbLerp(pts[lb_soleHeel], pts[lb_soleBall], ((float)i + 0.5f) / (float)n);
		lbQueryInput qi = lbDefaultQueryInput();
		qi.start = lbMulAdd(p, 0.02f, f->up);
		qi.end = lbMulAdd(p, -0.05f, f->up);
		supported += lbRayCast(&f->rec.inner, &qi).hit ? 1 : 0;
	}
	return (float)supported / (float)n;
}

// A riser 3 cm behind the toe tip of the standing left foot (the toe tip 3 cm inside a 0.15 m
// step): the plant slides back along the foot until its toe tip is edgeMargin clear of the riser,
// locks there on the floor, and no sole point is inside the step. Without footprint probes the toe
// stays in the step (the reference the test can fail against). With a small maxPlantShift the
// slide is bounded (see test_max_plant_shift_bounds_the_slide).
typedef struct RiserSetup
{
	lbVec3 center, half;
	lbQuat q;
	lbVec3 fwd;
	float riserAt; // the riser face's position along fwd (world m)
} RiserSetup;

static RiserSetup addRiserAheadOfToe(Fixture* f, int side, float inside, float height)
{
	RiserSetup r;
	lbVec3 pts[lb_solePointCount];
	solePointsWs(f, &f->anim, side, pts);
	r.fwd = footForward(f, side);
	r.q = lbQuatFromTwoAxes(lbVec3_axisZ, f->up, lbVec3_axisX, r.fwd);
	// The step reaches 0.1 m under the floor, so a toe on the floor inside it reads its depth
	// behind the riser, not 0 at the box's bottom face.
	r.half = lbMakeVec3(0.5f, 0.06f, 0.5f * (height + 0.1f));
	lbVec3 tipFloor = lbProjectOnPlane(pts[lb_soleToeTip], f->up);
	r.riserAt = lbDot(tipFloor, r.fwd) - inside;
	r.center = lbAdd(lbMulAdd(tipFloor, r.half.x - inside, r.fwd), lbMulSV(r.half.z - 0.1f, f->up));
	addBox(f->world, r.center, r.half, r.q);
	return r;
}

// The toes of a planted foot bend onto a plane leaned back toward the ground their tip's sample
// found risen above the ground plane (a rock under the toes), never toward a level more than twice
// the ball-to-tip span up: that is a riser's top, and the toes meet its face, not a slope. Leaned
// 45 degrees toward a 0.16 m drop's upper level, the toes of a captured foot locked at its foot,
// walking backward (CMU 01_03), bent up into its face 2.2 cm and swung between two bends 100
// degrees apart from frame to frame. The plant may not slide (maxPlantShift 0), so the tip's
// sample stays on the step; both rigs.
static void test_toes_lean_toward_a_rock_not_a_riser(void)
{
	const float heights[4] = { 0.012f, 0.03f, 0.2f, 0.35f };
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
		for (int h = 0; h < 4; ++h)
		{
			Fixture f;
			fixtureOnFloor(&f, &kCases[c], true, 0.0f);
			f.def.maxPlantShift = 0.0f;
			lbPose_Copy(&f.pose, &f.anim);
			addRiserAheadOfToe(&f, 0, 0.01f, heights[h]);
			lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
			lbFootTargets t;
			for (int i = 0; i < 60; ++i)
				t = step(&f, &in);
			const float lean = acosf(lbClampF(lbDot(lbNormalize(t.feet[0].toeNormalWs), lbNormalize(t.feet[0].normalWs)), -1.0f, 1.0f)) * LB_RAD2DEG;
			printf("  case %zu, step %.3f m: grounded %d planted %d locked %d, toes' plane leaned %.1f degrees, ground at %.3f\n", c, (double)heights[h],
				   t.feet[0].grounded, t.feet[0].planted, t.feet[0].locked, (double)lean, (double)lbDot(t.feet[0].groundPointWs, kCases[c].up));
			ENSURE(t.feet[0].grounded && t.feet[0].locked);
			if (heights[h] < 0.05f)
				ENSURE(lean > 5.0f); // a rock under the toes still leans their plane
			else
				ENSURE(lean < 0.5f);
			fixtureFree(&f);
		}
}

static void test_plant_slides_out_of_a_riser(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		for (int print = 1; print >= 0; --print)
		{
			Fixture f;
			fixtureOnFloor(&f, &kCases[c], print != 0, 0.0f);
			// The right foot must stand clear of the left foot's step, or the test says nothing.
			lbVec3 l = soleWs(&f, 0), r = soleWs(&f, 1);
			ENSURE(lbLength(lbProjectOnPlane(lbSub(l, r), kCases[c].up)) > 0.06f + 0.03f + 0.02f);
			lbPose_Copy(&f.pose, &f.anim);
			const RiserSetup rs = addRiserAheadOfToe(&f, 0, 0.03f, 0.15f);
			ENSURE(rs.half.z * 2.0f - 0.1f > f.def.edgeHeight);
			lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
			lbFootTargets t;
			for (int i = 0; i < 60; ++i)
				t = step(&f, &in);
			lbVec3 pts[lb_solePointCount];
			solePointsWs(&f, &f.pose, 0, pts);
			const float clear = rs.riserAt - lbDot(pts[lb_soleToeTip], rs.fwd);
			const float depth = soleBoxDepth(&f, 0, rs.center, rs.half, rs.q);
			const float floorD = lowestSoleDistance(&f, 0, lbVec3_zero, kCases[c].up);
			if (print && (clear < f.def.edgeMargin - 0.002f || depth > 0.0f || lbAbsF(floorD) > 0.005f || !t.feet[0].locked))
				printf("  case %zu: toe %.4f before the riser, depth %.4f, floor %.4f, locked %d\n", c, (double)clear,
					   (double)depth, (double)floorD, t.feet[0].locked);
			if (print)
			{
				ENSURE(t.feet[0].locked && t.feet[0].settled);
				ENSURE(clear >= f.def.edgeMargin - 0.002f);
				ENSURE(depth <= 0.0f);
				ENSURE(lbAbsF(floorD) <= 0.005f);
				ENSURE(kneeBend(&f, 0) >= 0.0f);
			}
			else
			{
				// No probes: the toe tip stays where the animation put it, inside the step.
				ENSURE(clear < -0.02f);
				ENSURE(depth > 0.02f);
			}
			fixtureFree(&f);
		}
	}
}

// maxPlantShift bounds the slide: with the riser above the default slide moves the foot back
// more than 3 cm; with a 2 cm limit no frame moves the ankle goal across the ground more than
// 2 cm + 1 mm from the animated ankle.
static void test_max_plant_shift_bounds_the_slide(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		const float limits[2] = { 0.16f, 0.02f };
		for (int k = 0; k < 2; ++k)
		{
			Fixture f;
			fixtureInit(&f, kCases[c].rig, kCases[c].up);
			f.def.maxPlantShift = limits[k];
			addPlane(f.world, lbVec3_zero, kCases[c].up);
			f.characterWs = characterFrame(&f.humanoid, kCases[c].up, kCases[c].fwd, lbVec3_zero);
			addRiserAheadOfToe(&f, 0, 0.03f, 0.15f);
			lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
			const lbVec3 animAnkle = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[0].foot].p);
			float most = 0.0f, last = 0.0f;
			for (int i = 0; i < 60; ++i)
			{
				lbFootTargets t = step(&f, &in);
				last = lbLength(lbProjectOnPlane(lbSub(t.feet[0].ankleWs, animAnkle), kCases[c].up));
				most = lbMaxF(most, last);
			}
			if (k == 0)
				ENSURE(last > 0.03f); // the slide the limit has to bound
			else
			{
				if (most > limits[k] + 0.001f)
					printf("  case %zu: slide %.4f past the limit %.3f\n", c, (double)most, (double)limits[k]);
				ENSURE(most <= limits[k] + 0.001f);
			}
			fixtureFree(&f);
		}
	}
}

// The floor ends under the standing left foot a quarter of the way from the point under the ankle
// to the ball, with a 0.2 m drop beyond: left there, the heel-to-ball line would have ground under
// 42 % of it. The plant slides back (ball edgeMargin behind the edge) or on down the drop, whichever
// the system chooses; either way at least 60 % of that line has ground within 5 cm under it, probed
// with rays in the world. Without the probes the support stays short.
static void test_plant_slides_back_from_a_nose(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		for (int print = 1; print >= 0; --print)
		{
			Fixture f;
			fixtureOnFloor(&f, &kCases[c], print != 0, -0.2f);
			const lbVec3 up = kCases[c].up;
			lbVec3 pts[lb_solePointCount];
			solePointsWs(&f, &f.anim, 0, pts);
			const lbVec3 fwd = footForward(&f, 0);
			const lbVec3 edge = lbProjectOnPlane(lbLerp(pts[lb_soleUnderAnkle], pts[lb_soleBall], 0.25f), up);
			// The upper level: a box whose top is the character's floor, ending at the edge.
			const lbQuat q = lbQuatFromTwoAxes(lbVec3_axisZ, up, lbVec3_axisX, fwd);
			const lbVec3 half = lbMakeVec3(1.0f, 1.0f, 0.1f);
			addBox(f.world, lbAdd(lbMulAdd(edge, -half.x, fwd), lbMulSV(-half.z, up)), half, q);
			lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
			lbFootTargets t;
			for (int i = 0; i < 60; ++i)
				t = step(&f, &in);
			const float support = soleSupport(&f, 0);
			if (print)
			{
				solePointsWs(&f, &f.pose, 0, pts);
				const float ballBefore = lbDot(lbSub(edge, pts[lb_soleBall]), fwd);
				const bool onTop = lbAbsF(lbDot(pts[lb_soleBall], up)) < 0.01f;
				if (support < 0.6f || (onTop && ballBefore < f.def.edgeMargin - 0.002f))
					printf("  case %zu: support %.2f, ball %.4f before the edge (on top %d)\n", c, (double)support,
						   (double)ballBefore, onTop);
				ENSURE(t.feet[0].locked);
				ENSURE(support >= 0.6f);
				// The right foot stands at the same edge, crossed at its own place along it.
				ENSURE(soleSupport(&f, 1) >= 0.6f);
				// Staying on top means the ball keeps its margin from the edge.
				ENSURE(!onTop || ballBefore >= f.def.edgeMargin - 0.002f);
				ENSURE(lbPose_IsFinite(&f.pose) && kneeBend(&f, 0) >= 0.0f);
			}
			else
				ENSURE(support < 0.55f);
			fixtureFree(&f);
		}
	}
}

// Lifts a foot of the animated pose `lift` m (world) along the model's up.
static void liftAnimFoot(Fixture* f, int side, float lift)
{
	const float modelToWorld = lbLength(lbMulVV(f->characterWs.s, f->humanoid.upMs));
	ENSURE(lbPose_TranslateBoneModel(&f->anim, f->skeleton, f->humanoid.leg[side].foot,
									 lbMulSV(lift / modelToWorld, f->humanoid.upMs)) == lb_ok);
}

// Both animated feet held `lift` off the floor of fixture f (case k, footprint probes as set) while
// the character moves along `dir` at `speed` for `frames` frames toward a step `top` high (and 0.1 m
// under the floor, so a sole inside reads its true depth) whose face lies `gap` past the foremost
// `lead` sole point of the animated feet: the deepest any sole point of the solved pose goes into
// the step in any frame, and the lowest sole point over its top once the other end's point (the
// heel for a toe tip lead, the toe tip for a heel) is 5 cm past the face (1e30 if never). Counts
// frames from the tenth with a locked foot into *outLocked.
static void moveTowardAStep(Fixture* f, const RigCase* k, lbVec3 dir, float lift, int lead, float gap, float top, float speed,
							int frames, float* outDeepest, float* outLowestOver, int* outLocked)
{
	const lbVec3 up = k->up;
	const int trail = lead == lb_soleHeel ? lb_soleToeTip : lb_soleHeel;
	liftAnimFoot(f, 0, lift);
	liftAnimFoot(f, 1, lift);
	float leadAt = -1.0e30f;
	for (int s = 0; s < 2; ++s)
	{
		lbVec3 pts[lb_solePointCount];
		solePointsWs(f, &f->anim, s, pts);
		leadAt = lbMaxF(leadAt, lbDot(pts[lead], dir));
	}
	const float faceAt = leadAt + gap;
	const lbQuat q = lbQuatFromTwoAxes(lbVec3_axisZ, up, lbVec3_axisX, dir);
	const lbVec3 half = lbMakeVec3(1.0f, 2.0f, 0.5f * (top + 0.1f));
	const lbVec3 center = lbAdd(lbMulSV(faceAt + half.x, dir), lbMulSV(top - half.z, up));
	addBox(f->world, center, half, q);
	lbFootSenseInput in = senseInput(f, 1.0f / 60.0f);
	in.velocityWs = lbMulSV(speed, dir);
	float deepest = -1.0f, lowestOver = 1.0e30f;
	int locked = 0;
	for (int i = 0; i < frames; ++i)
	{
		f->characterWs.p = lbMulAdd(f->characterWs.p, speed * in.dt, dir);
		in.characterWs = f->characterWs;
		lbFootTargets t = step(f, &in);
		for (int s = 0; s < 2; ++s)
		{
			locked += i >= 10 && t.feet[s].locked;
			deepest = lbMaxF(deepest, soleBoxDepth(f, s, center, half, q));
			lbVec3 pts[lb_solePointCount];
			solePointsWs(f, &f->pose, s, pts);
			// Once the whole sole is over the step, how high it is above the top.
			if (lbDot(pts[trail], dir) > faceAt + 0.05f)
				for (int j = 0; j < lb_solePointCount; ++j)
					lowestOver = lbMinF(lowestOver, lbDot(pts[j], up) - top);
		}
	}
	*outDeepest = deepest;
	*outLowestOver = lowestOver;
	*outLocked = locked;
}

// Both animated feet held off the floor (3 cm, and 6 cm) while the character moves forward at
// 1.5 m/s toward a 0.2 m step: the swinging feet rise, so once over the step they are above its
// top, and at 6 cm no sole point of the solved pose enters the step in any frame (sampled every
// frame). At 3 cm (below lockHeight) the foot gets no look-ahead probes: only the toe tip's
// footprint ray finds the riser, a few centimetres ahead, and maxGoalSpeed spreads the 0.2 m rise
// over four frames, so the toe grazes the riser by up to ~3 mm for a frame or two; that is bounded
// at 4 mm here (a gap in the system, not in the test). Without the footprint probes the toes run
// centimetres into the riser.
static void test_swing_clears_a_step(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		for (int run = 0; run < 3; ++run)
		{
			const int print = run < 2;
			const float lift = run == 1 ? 0.06f : 0.03f;
			const float allowed = run == 0 ? 0.004f : 0.0f;
			Fixture f;
			fixtureOnFloor(&f, &kCases[c], print != 0, 0.0f);
			// The riser 0.4 m ahead of the foremost toe tip, the step 0.2 m high and wide, at 1.5 m/s.
			float deepest, lowestOver;
			int locked;
			moveTowardAStep(&f, &kCases[c], kCases[c].fwd, lift, lb_soleToeTip, 0.4f, 0.2f, 1.5f, 60, &deepest, &lowestOver, &locked);
			// The first frame plants the feet (no speed yet); the motion releases them at once.
			ENSURE(locked == 0);
			if (print)
			{
				if (deepest > allowed || lowestOver < -0.002f)
					printf("  case %zu lift %g: deepest %.4f in the step, lowest %.4f over its top\n", c, (double)lift,
						   (double)deepest, (double)lowestOver);
				ENSURE(deepest <= allowed);
				ENSURE(lowestOver < 1.0e29f && lowestOver >= -0.002f);
			}
			else
				ENSURE(deepest > 0.02f);
			fixtureFree(&f);
		}
	}
}

// A foot stepping back heel first with a body that steps back too (a boxer's footwork carried by
// its clip's root motion, which a game reports as the character's velocity) looks along its path
// from the heel, however low it moves. Taken for a swing (moving with the body), it looked ahead
// only above lockHeight and from its toe tip, and its heel went 5.1 cm into the face of a 0.33 m
// drop it was stepping back up onto. Here both animated feet are held 3 cm up (below
// lockHeight) while the character steps back at 0.8 m/s toward a 0.3 m step 0.3 m behind the
// rearmost heel: the feet come over its top and no sole point enters it by more than 2 mm in any
// frame (4.2-6.2 mm when the foot was taken for a swing). Both rigs, two up axes.
static void test_a_foot_stepping_back_heel_first_looks_behind_it(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		Fixture f;
		fixtureOnFloor(&f, &kCases[c], true, 0.0f);
		float deepest, lowestOver;
		int locked;
		moveTowardAStep(&f, &kCases[c], lbNeg(kCases[c].fwd), 0.03f, lb_soleHeel, 0.3f, 0.3f, 0.8f, 70, &deepest, &lowestOver, &locked);
		printf("  case %zu: deepest sole point %.4f m in the step behind, lowest %.4f m over its top\n", c, (double)deepest,
			   (double)lowestOver);
		ENSURE(deepest <= 0.002f);
		ENSURE(lowestOver < 1.0e29f && lowestOver >= -0.002f);
		fixtureFree(&f);
	}
}

// Yaws the animated foot of `side` by `angle` (rad) about the model's up through its ankle, its toes
// with it.
static void turnAnimFoot(Fixture* f, int side, float angle)
{
	const int foot = f->humanoid.leg[side].foot;
	const lbQuat r = lbQuatFromAxisAngle(f->humanoid.upMs, angle);
	ENSURE(lbPose_SetBoneModelRotation(&f->anim, f->skeleton, foot, lbQuatMul(r, f->anim.model[foot].q), true) == lb_ok);
}

// A foot held 5 cm up turns outward about its ankle, 3 degrees a frame to 45, with a 0.1 m step
// beside it whose face its toe tip crosses halfway through the turn (the animated tip swings over
// the step's top, 5 cm above the sole). On the default 30 Hz schedule at 60 fps the footprint is
// probed every other frame; on the frames between, the turned tip is sampled again where it is now,
// so the solved sole enters the step no deeper than with a probe every frame (the reference: 1 mm
// more at most; the reference itself stays out to 2 mm). A foot that does not turn casts nothing
// on those frames. Both rigs, two up axes.
static void test_a_turning_foot_keeps_its_toe_tip_out_of_a_step_beside_it(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		float deepest[2] = { -1.0f, -1.0f };
		for (int rate = 0; rate < 2; ++rate)
		{
			Fixture f;
			fixtureOnFloor(&f, &kCases[c], true, 0.0f);
			// The reference probes the whole footprint every frame, however little the ankle moves.
			f.def.traceRate = rate ? 30.0f : 0.0f;
			if (!rate)
				f.def.probeReuseDistance = 0.0f;
			const lbVec3 up = kCases[c].up;
			const float lift = 0.05f, top = 0.10f, turn = 3.0f * LB_DEG2RAD;
			const int turns = 15;
			liftAnimFoot(&f, 0, lift);
			liftAnimFoot(&f, 1, lift);
			// Outward: the turn that takes the left toe tip away from the other foot.
			lbPose start = lbCreatePose(f.skeleton);
			lbPose_Copy(&start, &f.anim);
			lbVec3 p0[lb_solePointCount], p1[lb_solePointCount];
			solePointsWs(&f, &f.anim, 0, p0);
			const lbVec3 ankle = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[0].foot].p);
			const lbVec3 other = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[1].foot].p);
			float sign = 1.0f;
			turnAnimFoot(&f, 0, (float)turns * turn);
			solePointsWs(&f, &f.anim, 0, p1);
			if (lbDot(lbSub(p1[lb_soleToeTip], p0[lb_soleToeTip]), lbSub(ankle, other)) < 0.0f)
			{
				sign = -1.0f;
				lbPose_Copy(&f.anim, &start);
				turnAnimFoot(&f, 0, -(float)turns * turn);
				solePointsWs(&f, &f.anim, 0, p1);
			}
			lbPose_Copy(&f.anim, &start);
			lbDestroyPose(&start);
			// The step's face square to the tip's chord, halfway between the ankle and the turned tip.
			const lbVec3 u = lbNormalize(lbProjectOnPlane(lbSub(p1[lb_soleToeTip], p0[lb_soleToeTip]), up));
			const float faceAt = lbDot(ankle, u) + 0.5f * lbDot(lbSub(p1[lb_soleToeTip], ankle), u);
			ENSURE(lbDot(p0[lb_soleToeTip], u) < faceAt && lbDot(p1[lb_soleToeTip], u) > faceAt + 0.02f);
			const lbQuat q = lbQuatFromTwoAxes(lbVec3_axisZ, up, lbVec3_axisX, u);
			const lbVec3 half = lbMakeVec3(0.5f, 0.5f, 0.5f * (top + 0.1f));
			const lbVec3 center = lbAdd(lbMulSV(faceAt + half.x, u), lbMulSV(top - half.z, up));
			addBox(f.world, center, half, q);
			lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
			int castFrames = 0, stillCastFrames = 0;
			for (int i = 0; i < 12 + turns + 10; ++i)
			{
				const bool turning = i >= 12 && i < 12 + turns;
				if (turning)
					turnAnimFoot(&f, 0, sign * turn);
				lbFootTargets t = step(&f, &in);
				ENSURE(!t.feet[0].locked && !t.feet[1].locked);
				castFrames += turning && t.castCount > 0;
				stillCastFrames += i >= 2 && i < 12 && t.castCount > 0;
				for (int s = 0; s < 2; ++s)
					deepest[rate] = lbMaxF(deepest[rate], soleBoxDepth(&f, s, center, half, q));
			}
			if (rate)
			{
				// Frames between probes cast only while the foot turns.
				ENSURE(stillCastFrames <= 5);
				ENSURE(castFrames > turns / 2 + 1);
			}
			fixtureFree(&f);
		}
		printf("  case %zu: deepest sole point %.4f m in the step (probes every frame %.4f)\n", c, (double)deepest[1],
			   (double)deepest[0]);
		ENSURE(deepest[0] <= 0.002f);
		ENSURE(deepest[1] <= lbMaxF(deepest[0], 0.0f) + 0.001f);
	}
}

// A landing foot 5 cm above its floor (within half slideHeight: landing, not planted) finds a
// 0.15 m step appear with its toe tip 3 cm inside: the front of the level it lands on is a riser,
// so in the frame it first moves the foot goes back to it whole (the toe tip within 5 mm of the
// riser face: the edge is found by three bisection rays), rather than easing back over several
// frames with the toe 2 cm in the step meanwhile. Without footprint probes the toe stays in the
// step.
static void test_landing_goes_back_behind_a_riser_at_once(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		for (int print = 1; print >= 0; --print)
		{
			Fixture f;
			fixtureOnFloor(&f, &kCases[c], print != 0, 0.0f);
			const float lift = 0.05f;
			ENSURE(lift > f.def.lockHeight && lift < 0.5f * f.def.slideHeight);
			liftAnimFoot(&f, 0, lift);
			lbPose_Copy(&f.pose, &f.anim);
			lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
			for (int i = 0; i < 3; ++i)
				step(&f, &in);
			const RiserSetup rs = addRiserAheadOfToe(&f, 0, 0.03f, 0.15f);
			float deepest = 0.0f, firstMove = -1.0e30f;
			bool locked = false, moved = false;
			for (int i = 0; i < 12; ++i)
			{
				lbFootTargets t = step(&f, &in);
				locked = locked || t.feet[0].locked;
				lbVec3 pts[lb_solePointCount];
				solePointsWs(&f, &f.pose, 0, pts);
				const float clear = rs.riserAt - lbDot(pts[lb_soleToeTip], rs.fwd);
				if (!moved && clear > -0.029f)
				{
					moved = true;
					firstMove = clear;
				}
				if (moved)
					deepest = lbMaxF(deepest, soleBoxDepth(&f, 0, rs.center, rs.half, rs.q));
			}
			if (print && (!moved || deepest > 0.005f || firstMove < -0.005f || locked))
				printf("  case %zu: moved %d, toe %.4f before the riser when it first moves, then deepest %.4f, locked %d\n",
					   c, moved, (double)firstMove, (double)deepest, locked);
			ENSURE(!locked);
			if (print)
			{
				ENSURE(moved && firstMove >= -0.005f);
				ENSURE(deepest <= 0.005f);
			}
			else
				ENSURE(!moved);
			fixtureFree(&f);
		}
	}
}

// A sudden change under a free foot (the animated foot held 6 cm up, so not planted; the ground
// jumps 0.15 m up under it between frames by swapping worlds): the ankle goal moves against the
// animated ankle by at most maxGoalSpeed * dt (+ 1 mm) per frame, yet gets there; with the cap off
// (0) it moves faster than the cap would allow.
static void test_max_goal_speed_spreads_a_sudden_change(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		const float caps[3] = { 1.0f, 0.5f, 0.0f };
		for (int k = 0; k < 3; ++k)
		{
			Fixture f;
			fixtureInit(&f, kCases[c].rig, kCases[c].up);
			const lbVec3 up = kCases[c].up;
			f.def.traceRate = 0.0f; // the new ground is seen the frame it appears
			f.def.maxGoalSpeed = caps[k];
			addPlane(f.world, lbVec3_zero, up);
			f.characterWs = characterFrame(&f.humanoid, up, kCases[c].fwd, lbVec3_zero);
			liftAnimFoot(&f, 0, 0.06f);
			lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
			lbFootTargets t;
			for (int i = 0; i < 30; ++i)
				t = step(&f, &in);
			ENSURE(!t.feet[0].planted && !t.feet[0].locked && t.feet[0].grounded);
			lbWorldDef wd = lbDefaultWorldDef();
			wd.up = up;
			lbWorld* raised = lbCreateWorld(&wd);
			addPlane(raised, lbMulSV(0.15f, up), up);
			f.rec.inner = lbWorld_GetQuery(raised);
			const lbVec3 anim = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[0].foot].p);
			lbVec3 prev = lbSub(t.feet[0].ankleWs, anim);
			float fastest = 0.0f;
			for (int i = 0; i < 60; ++i)
			{
				t = step(&f, &in);
				lbVec3 off = lbSub(t.feet[0].ankleWs, anim);
				fastest = lbMaxF(fastest, lbDistance(off, prev));
				prev = off;
			}
			const float bound = caps[k] * in.dt + 0.001f;
			if (k < 2)
			{
				if (fastest > bound)
					printf("  case %zu cap %g: moved %.4f in a frame (bound %.4f)\n", c, (double)caps[k], (double)fastest, (double)bound);
				ENSURE(fastest <= bound);
			}
			else
				ENSURE(fastest > caps[0] * in.dt + 0.001f);
			// It got there: the sole clears the raised ground and is no more than the lift above it.
			const float d = lowestSoleDistance(&f, 0, lbMulSV(0.15f, up), up);
			if (d < -0.005f || d > 0.06f + 0.03f)
				printf("  case %zu cap %g: sole %.4f above the raised ground\n", c, (double)caps[k], (double)d);
			ENSURE(d >= -0.005f && d <= 0.06f + 0.03f);
			f.rec.inner = lbWorld_GetQuery(f.world);
			lbDestroyWorld(raised);
			fixtureFree(&f);
		}
	}
}

// Knee bend from straight (degrees) of the solved leg, from hip, knee and ankle positions.
static float kneeBendDeg(const Fixture* f, int side)
{
	lbLimbChain ch;
	lbHumanoid_GetLimbChain(&f->humanoid, side ? lb_limbLegR : lb_limbLegL, &ch);
	lbVec3 hip = f->pose.model[ch.root].p, knee = f->pose.model[ch.mid].p, ankle = f->pose.model[ch.end].p;
	lbVec3 a = lbNormalize(lbSub(knee, hip)), b = lbNormalize(lbSub(ankle, knee));
	return acosf(lbClampF(lbDot(a, b), -1.0f, 1.0f)) * LB_RAD2DEG;
}

// A free foot held 0.1 m under the hip and 0.35 m ahead of it over a 0.6 m tread (a swing reaching
// for a tread the body has not climbed; its thigh would rise ~140 degrees from hanging down), the
// other foot 0.15 m off the floor (its knee bent, room to rise): the sense stage lifts the pelvis,
// within pelvisMaxLift (default 0.05 m, and 0.03), and the solved ankle ends nearer its goal than
// with no lift (pelvisMaxLift 0; the ankle limit off, which the foot bone moved on its own would
// bind). With hipMaxFlex off nothing lifts it; with the other foot on the floor (its leg straight,
// no room) neither. With the other foot 5 cm off the floor (in the air, its leg straight) that foot
// yields: the pelvis lifts and the other foot's goal rises with it.
static float hipLiftRun(const RigCase* k, float maxLift, float hipMaxFlex, float otherLift, float* outMiss, float* outOtherRise)
{
	Fixture f;
	fixtureOnFloor(&f, k, true, 0.0f);
	f.def.pelvisMaxLift = maxLift;
	f.def.hipMaxFlex = hipMaxFlex;
	// The ankle limit off: the foot bone moved on its own leaves the foot turned far from the calf.
	f.def.ankleLimit = 0.0f;
	const float modelToWorld = lbLength(lbMulVV(f.characterWs.s, f.humanoid.upMs));
	const lbLegBones* leg = &f.humanoid.leg[0];
	const lbVec3 hip = f.anim.model[leg->thigh].p, ankle = f.anim.model[leg->foot].p;
	const lbVec3 upMs = f.humanoid.upMs, fwdMs = f.humanoid.forwardMs;
	const float raise = lbDot(lbSub(hip, ankle), upMs) - 0.1f / modelToWorld;
	const float ahead = lbDot(lbSub(hip, ankle), fwdMs) + 0.35f / modelToWorld;
	ENSURE(lbPose_TranslateBoneModel(&f.anim, f.skeleton, leg->foot, lbAdd(lbMulSV(raise, upMs), lbMulSV(ahead, fwdMs))) == lb_ok);
	if (otherLift > 0.0f)
		liftAnimFoot(&f, 1, otherLift);
	// The tread it reaches for: 0.6 m high, from 0.2 to 0.5 m ahead of the hips.
	const lbQuat q = lbQuatFromTwoAxes(lbVec3_axisZ, k->up, lbVec3_axisX, k->fwd);
	addBox(f.world, lbAdd(lbMulSV(0.35f, k->fwd), lbMulSV(0.3f, k->up)), lbMakeVec3(0.15f, 1.0f, 0.3f), q);
	lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
	lbFootTargets t;
	for (int i = 0; i < 30; ++i)
		t = step(&f, &in);
	const lbVec3 solved = lbTransformPoint(f.characterWs, f.pose.model[leg->foot].p);
	*outMiss = lbDistance(solved, t.feet[0].ankleWs);
	const lbVec3 otherAnim = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[1].foot].p);
	*outOtherRise = lbDot(lbSub(t.feet[1].ankleWs, otherAnim), k->up);
	ENSURE(!t.feet[0].locked);
	fixtureFree(&f);
	return t.pelvisOffset;
}

static void test_hip_lift_for_a_free_foot_past_the_hip_limit(void)
{
	const float limit = lbDefaultFootDef().hipMaxFlex;
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		float miss, missLower, missNone, missOther, rise, riseNone, riseOther, riseYield;
		const float lifted = hipLiftRun(&kCases[c], 0.05f, limit, 0.15f, &miss, &rise);
		const float lower = hipLiftRun(&kCases[c], 0.03f, limit, 0.15f, &missLower, &riseOther);
		const float none = hipLiftRun(&kCases[c], 0.0f, limit, 0.15f, &missNone, &riseNone);
		const float off = hipLiftRun(&kCases[c], 0.05f, 0.0f, 0.15f, &missOther, &riseOther);
		const float straight = hipLiftRun(&kCases[c], 0.05f, limit, 0.0f, &missOther, &riseOther);
		const float yielded = hipLiftRun(&kCases[c], 0.05f, limit, 0.05f, &missOther, &riseYield);
		const bool ok = lifted > 0.02f && lifted <= 0.05f + 1.0e-5f && lower > 0.01f && lower <= 0.03f + 1.0e-5f &&
						none <= 1.0e-6f && off <= 1.0e-6f && straight <= 1.0e-6f && miss < missNone - 0.005f &&
						missLower < missNone && yielded > 0.02f && riseYield > 0.01f && lbAbsF(rise - riseNone) < 1.0e-4f;
		if (!ok)
			printf("  case %zu: lift %.4f (max 0.03: %.4f), none %.4f, limit off %.4f, other leg straight %.4f, other foot "
				   "in the air %.4f (its goal raised %.4f); ankle off its goal %.4f with the lift (%.4f at 0.03), %.4f without\n",
				   c, (double)lifted, (double)lower, (double)none, (double)off, (double)straight, (double)yielded,
				   (double)riseYield, (double)miss, (double)missLower, (double)missNone);
		ENSURE(lifted > 0.02f && lifted <= 0.05f + 1.0e-5f);
		ENSURE(lower > 0.01f && lower <= 0.03f + 1.0e-5f);
		ENSURE(none <= 1.0e-6f && off <= 1.0e-6f && straight <= 1.0e-6f);
		ENSURE(miss < missNone - 0.005f && missLower < missNone);
		// A bent other leg with room is not moved; a straight one in the air yields and rises.
		ENSURE(lbAbsF(rise - riseNone) < 1.0e-4f);
		ENSURE(yielded > 0.02f && riseYield > 0.01f);
	}
}

// A character of rig case c on `solver` (0 two-bone, 1 full-body) in its rest pose, and targets
// asking its left foot (full weight, the animated rotation) to go to the point `down` and `ahead`
// leg lengths from its hip (model space: along up and forward), the right foot left alone.
static lbFootTargets freeFootTargets(Fixture* f, size_t c, int solver, float down, float ahead)
{
	fixtureInit(f, kCases[c].rig, kCases[c].up);
	f->solver = solver ? lb_footSolverFullBody : lb_footSolverTwoBone;
	f->characterWs = characterFrame(&f->humanoid, kCases[c].up, kCases[c].fwd, lbVec3_zero);
	const lbLegAxes* ax = &f->humanoid.legAxes[0];
	const float legLength = ax->thighLength + ax->calfLength;
	const lbVec3 hipMs = f->anim.model[f->humanoid.leg[0].thigh].p;
	const lbVec3 goalMs = lbAdd(hipMs, lbAdd(lbMulSV(-down * legLength, f->humanoid.upMs), lbMulSV(ahead * legLength, f->humanoid.forwardMs)));
	lbFootTargets t;
	memset(&t, 0, sizeof t);
	t.characterWs = f->characterWs;
	t.upWs = kCases[c].up;
	t.alpha = 1.0f;
	for (int s = 0; s < 2; ++s)
	{
		lbTransform footWs = lbTransformMul(f->characterWs, f->anim.model[f->humanoid.leg[s].foot]);
		t.feet[s].ankleWs = s == 0 ? lbTransformPoint(f->characterWs, goalMs) : footWs.p;
		t.feet[s].footRotWs = footWs.q;
		t.feet[s].alpha = s == 0 ? 1.0f : 0.0f;
	}
	return t;
}

// A free foot's goal 15 % of the leg's length under the hip (a trailing foot left high behind a body
// that went down a step) would fold the knee ~165 degrees: the pose stage keeps it at kneeMaxBend
// (default 150, and 120), bent the anatomical way, with both solvers. A locked foot and the limit
// off (0) are not limited.
static void test_knee_max_bend_limits_a_free_foot(void)
{
	for (int solver = 0; solver < 2; ++solver)
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		Fixture f;
		lbFootTargets t = freeFootTargets(&f, c, solver, 0.15f, 0.05f);
		const float limitsDeg[4] = { 150.0f, 120.0f, 0.0f, 150.0f };
		for (int k = 0; k < 4; ++k)
		{
			f.def = lbDefaultFootDef();
			f.def.up = kCases[c].up;
			f.def.kneeMaxBend = limitsDeg[k] * LB_DEG2RAD;
			t.feet[0].locked = k == 3;
			lbPose_Copy(&f.pose, &f.anim);
			ENSURE(lbFootApplyPose(&t, &f.def, f.skeleton, &f.humanoid, f.solver, &f.pose, f.workspace, f.workspaceSize) == lb_ok);
			ENSURE(lbPose_IsFinite(&f.pose));
			const float bend = kneeBendDeg(&f, 0);
			if (k < 2)
			{
				if (bend > limitsDeg[k] + 0.5f)
					printf("  solver %d case %zu: knee bent %.2f past %.0f\n", solver, c, (double)bend, (double)limitsDeg[k]);
				ENSURE(bend <= limitsDeg[k] + 0.5f);
				// The goal moves out only as far as the limit needs.
				ENSURE(bend >= limitsDeg[k] - 3.0f);
				ENSURE(kneeBend(&f, 0) >= 0.0f);
			}
			else if (solver == 0)
				ENSURE(bend > 155.0f); // off, or a locked foot: the goal is reached as asked
		}
		fixtureFree(&f);
	}
}

// A free foot (not locked: its knee cap holds) comes onto the ankle limit softly. Its goal rotation
// turned in 1-degree steps about the foot's lateral axis, so the plain solve's ankle passes the
// limit (up to 20 degrees past it): the limited foot never lies past the limit or past the plain solve's angle, already lies
// below the plain solve's just short of the limit (a hard limit leaves it untouched there, then
// holds it flat at the limit: a kink the calf drags the foot over), lies as the plain solve's
// well short of it, and moves from step to step no more than the plain solve's does (plus a
// little), on both rigs and both solvers.
static void test_free_ankle_comes_onto_its_limit_softly(void)
{
	for (int solver = 0; solver < 2; ++solver)
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		Fixture f;
		// Knee bent about 90 degrees, the calf leaning back: the ankle is far from its limits.
		lbFootTargets t = freeFootTargets(&f, c, solver, 0.6f, -0.15f);
		const lbVec3 lateral = lbTransformDirection(f.characterWs, f.humanoid.leftMs);
		const lbQuat animRot[2] = { t.feet[0].footRotWs, t.feet[1].footRotWs };
		const float limitDeg = f.def.ankleLimit * LB_RAD2DEG;
		lbFootDef off = f.def;
		off.ankleLimit = 0.0f;
		float prevPlain = -1.0f, prevSoft = -1.0f, mostPlain = 0.0f;
		int softened = 0;
		for (int k = -100; k <= 100; ++k)
		{
			t.feet[0].footRotWs = lbQuatNormalize(lbQuatMul(lbQuatFromAxisAngle(lateral, (float)k * LB_DEG2RAD), animRot[0]));
			lbPose_Copy(&f.pose, &f.anim);
			ENSURE(lbFootApplyPose(&t, &off, f.skeleton, &f.humanoid, f.solver, &f.pose, f.workspace, f.workspaceSize) == lb_ok);
			const float plain = ankleAngleDeg(&f, 0);
			lbPose_Copy(&f.pose, &f.anim);
			ENSURE(lbFootApplyPose(&t, &f.def, f.skeleton, &f.humanoid, f.solver, &f.pose, f.workspace, f.workspaceSize) == lb_ok);
			ENSURE(lbPose_IsFinite(&f.pose));
			const float soft = ankleAngleDeg(&f, 0);
			// Far past the limit the turn the search allows (a quarter turn) may not be enough: not
			// what this is about.
			if (plain > limitDeg + 20.0f)
			{
				prevSoft = -1.0f;
				continue;
			}
			mostPlain = lbMaxF(mostPlain, plain);
			ENSURE(soft <= limitDeg + 0.1f);
			ENSURE(soft <= plain + 0.1f);
			if (plain < limitDeg - 10.5f)
				ENSURE(lbAbsF(soft - plain) < 0.05f);
			if (plain > limitDeg - 2.0f && plain < limitDeg - 0.5f)
			{
				ENSURE(soft < plain - 1.0f);
				++softened;
			}
			if (prevSoft >= 0.0f)
			{
				if (lbAbsF(soft - prevSoft) > lbAbsF(plain - prevPlain) + 0.5f)
					printf("  solver %d case %zu step %d: ankle %.2f -> %.2f (plain %.2f -> %.2f)\n", solver, c, k,
						   (double)prevSoft, (double)soft, (double)prevPlain, (double)plain);
				ENSURE(lbAbsF(soft - prevSoft) <= lbAbsF(plain - prevPlain) + 0.5f);
			}
			prevPlain = plain;
			prevSoft = soft;
		}
		// The turn took the plain solve past the limit, through the zone short of it.
		ENSURE(mostPlain > limitDeg + 10.0f);
		ENSURE(softened > 0);
		fixtureFree(&f);
	}
}

// Both animated feet 6 cm up while the character moves at 1.5 m/s over a flat floor: each swinging
// foot keeps the points it found ahead while the farthest still lies 70 % of its look-ahead ahead of
// the toe tip on its path, so some frames (casting every frame) look again and others keep them,
// and after every frame a point lies at least that far ahead. Moved sideways instead, the next frame looks again
// along the new path.
static void test_look_ahead_points_kept(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		Fixture f;
		fixtureOnFloor(&f, &kCases[c], true, 0.0f);
		f.def.traceRate = 0.0f; // every frame a trace frame: a kept point is the foot's own choice
		const lbVec3 up = kCases[c].up, fwd = kCases[c].fwd, side = lbCross(up, fwd);
		liftAnimFoot(&f, 0, 0.06f);
		liftAnimFoot(&f, 1, 0.06f);
		lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
		const float speed = 1.5f;
		const float modelToWorld = lbLength(lbMulVV(f.characterWs.s, f.humanoid.upMs));
		int kept = 0, looked = 0;
		lbVec3 last[2][8];
		int lastCount[2] = { 0, 0 };
		for (int i = 0; i < 50; ++i)
		{
			// Forward for 40 frames, then sideways.
			const lbVec3 dir = i < 40 ? fwd : side;
			in.velocityWs = lbMulSV(speed, dir);
			f.characterWs.p = lbMulAdd(f.characterWs.p, speed * in.dt, dir);
			in.characterWs = f.characterWs;
			step(&f, &in);
			if (i < 3)
				continue; // the first frames snap and measure the feet's speed
			for (int s = 0; s < 2; ++s)
			{
				const lbFootLegState* leg = &f.state.legs[s];
				ENSURE(leg->aheadCount > 0 && leg->aheadCount <= 8);
				if (leg->aheadCount <= 0 || leg->aheadCount > 8)
					continue;
				const bool same = i != 3 && leg->aheadCount == lastCount[s] &&
								  memcmp(last[s], leg->aheadPointWs, sizeof(lbVec3) * (size_t)leg->aheadCount) == 0;
				kept += same && i < 40;
				looked += !same && i < 40 && i > 3;
				lastCount[s] = leg->aheadCount;
				memcpy(last[s], leg->aheadPointWs, sizeof(lbVec3) * (size_t)leg->aheadCount);
				// The look-ahead: the foot's own speed for swingLookahead, at most three ankle-to-ball
				// lengths; the farthest point past the animated toe tip along the motion (the probe's
				// tip lies ahead of it by the prediction, so this is at least the probe's own figure).
				const lbSole sole = lbHumanoid_GetSole(&f.humanoid, s);
				const float reach = lbMinF(f.def.swingLookahead * speed, 3.0f * sole.along[lb_soleBall] * modelToWorld);
				lbVec3 pts[lb_solePointCount];
				solePointsWs(&f, &f.anim, s, pts);
				float farthest = -1.0e30f;
				for (int k = 0; k < leg->aheadCount; ++k)
					farthest = lbMaxF(farthest, lbDot(lbProjectOnPlane(lbSub(leg->aheadPointWs[k], pts[lb_soleToeTip]), up), dir));
				if (!(farthest >= 0.7f * reach - 1.0e-4f))
					printf("  case %zu frame %d side %d: farthest point %.4f ahead, look-ahead %.4f\n", c, i, s, (double)farthest,
						   (double)reach);
				ENSURE(farthest >= 0.7f * reach - 1.0e-4f);
			}
		}
		// Both kinds of frame happen (a foot that never kept its points, or never looked again,
		// fails here).
		ENSURE(kept > 0 && looked > 0);
		fixtureFree(&f);
	}
}

// A locked foot checks the ground under it with a ray along its probe line; where the ray finds no
// ground (a scene whose ray misses, starts inside a solid, or answers no normal or a wall's) the
// sphere is cast after all, and the foot stays locked on the ground the sphere finds: the same
// goals as with rays that answer.
static void test_locked_feet_check_ground_by_ray(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		for (int mode = 0; mode < 4; ++mode)
		{
			Fixture f, g;
			fixtureInit(&f, kCases[c].rig, kCases[c].up);
			fixtureInit(&g, kCases[c].rig, kCases[c].up);
			f.def.traceRate = g.def.traceRate = 0.0f;
			f.def.probeReuseDistance = g.def.probeReuseDistance = 0.0f;
			addPlane(f.world, lbVec3_zero, kCases[c].up);
			addPlane(g.world, lbVec3_zero, kCases[c].up);
			f.characterWs = g.characterWs = characterFrame(&f.humanoid, kCases[c].up, kCases[c].fwd, lbVec3_zero);
			lbFootSenseInput inF = senseInput(&f, 1.0f / 60.0f), inG = senseInput(&g, 1.0f / 60.0f);
			for (int i = 0; i < 30; ++i)
			{
				step(&f, &inF);
				step(&g, &inG);
			}
			f.rec.rayMiss = mode == 0;
			f.rec.rayInside = mode == 1;
			f.rec.rayNoNormal = mode == 2;
			f.rec.rayLevel = mode == 3;
			for (int i = 0; i < 20; ++i)
			{
				const int fs = f.rec.sphereCasts, fr = f.rec.rayCasts, gs = g.rec.sphereCasts, gr = g.rec.rayCasts;
				lbFootTargets tf = step(&f, &inF), tg = step(&g, &inG);
				// Rays that answer: one per foot. Rays that do not: a sphere follows each.
				ENSURE(g.rec.sphereCasts == gs && g.rec.rayCasts - gr == 2);
				ENSURE(f.rec.sphereCasts - fs == 2 && f.rec.rayCasts - fr >= 2);
				ENSURE(tf.castCount == recCasts(&f.rec) - fs - fr && tg.castCount == 2);
				for (int sd = 0; sd < 2; ++sd)
				{
					ENSURE(tf.feet[sd].locked && tf.feet[sd].grounded && tg.feet[sd].locked && tg.feet[sd].grounded);
					ENSURE_VEC3_NEAR(tf.feet[sd].ankleWs, tg.feet[sd].ankleWs, 1e-6f);
					ENSURE_QUAT_SAME_ROT(tf.feet[sd].footRotWs, tg.feet[sd].footRotWs, 1e-6f);
				}
			}
			fixtureFree(&f);
			fixtureFree(&g);
		}
	}
}

// A character standing still on a plane (two locked feet) only checks the ground under each foot on
// a trace frame: one ray per foot, no sphere. Feet that swing (moving forward with the feet held off
// the floor) probe heel, toe tip and the way ahead, so they cast clearly more.
static void test_locked_feet_cast_little(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		for (int moving = 0; moving < 2; ++moving)
		{
			Fixture f;
			fixtureInit(&f, kCases[c].rig, kCases[c].up);
			f.def.probeReuseDistance = 0.0f; // every trace frame (test_probe_reuse has the reuse)
			const lbVec3 up = kCases[c].up, fwd = kCases[c].fwd;
			addPlane(f.world, lbVec3_zero, up);
			f.characterWs = characterFrame(&f.humanoid, up, fwd, lbVec3_zero);
			if (moving)
			{
				liftAnimFoot(&f, 0, 0.06f);
				liftAnimFoot(&f, 1, 0.06f);
			}
			lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
			in.velocityWs = lbMulSV(moving ? 1.5f : 0.0f, fwd);
			int traceFrames = 0, spheres = 0, rays = 0, worstSpheres = 0, worstRays = 0;
			for (int i = 0; i < 90; ++i)
			{
				f.characterWs.p = lbMulAdd(f.characterWs.p, lbDot(in.velocityWs, fwd) * in.dt, fwd);
				in.characterWs = f.characterWs;
				const int s0 = f.rec.sphereCasts, r0 = f.rec.rayCasts;
				lbFootTargets t = step(&f, &in);
				const int ds = f.rec.sphereCasts - s0, dr = f.rec.rayCasts - r0;
				ENSURE(ds + dr == t.castCount);
				if (i < 30 || t.castCount == 0)
					continue; // settling, or a frame between traces
				ENSURE(moving || (t.feet[0].locked && t.feet[1].locked));
				++traceFrames;
				spheres += ds;
				rays += dr;
				worstSpheres = ds > worstSpheres ? ds : worstSpheres;
				worstRays = dr > worstRays ? dr : worstRays;
			}
			ENSURE(traceFrames >= 25 && traceFrames <= 35); // 30 Hz at 60 Hz frames
			if (!moving)
			{
				if (worstSpheres > 0 || worstRays > 2)
					printf("  case %zu: %d spheres and %d rays on a trace frame\n", c, worstSpheres, worstRays);
				ENSURE(worstSpheres == 0 && worstRays <= 2 && rays >= traceFrames);
			}
			else
				ENSURE((float)(spheres + rays) / (float)traceFrames >= 6.0f);
			fixtureFree(&f);
		}
	}
}

// Feet at rest reuse their last probe: standing still on a plane with a cast every frame, each
// foot probes again only once its probe is 0.1 s old (every 6th or 7th frame at 60 Hz), with the
// same goals as probing every frame; ground taken away under a standing foot is seen within that
// time. Feet that move (held off the floor, the body walking) probe on every frame.
static void test_probe_reuse(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		for (int moving = 0; moving < 2; ++moving)
		{
			Fixture f, g;
			fixtureInit(&f, kCases[c].rig, kCases[c].up);
			fixtureInit(&g, kCases[c].rig, kCases[c].up);
			const lbVec3 up = kCases[c].up, fwd = kCases[c].fwd;
			f.def.up = g.def.up = up;
			f.def.traceRate = g.def.traceRate = 0.0f;
			g.def.probeReuseDistance = 0.0f;
			ENSURE(f.def.probeReuseDistance > 0.0f);
			addPlane(f.world, lbVec3_zero, up);
			addPlane(g.world, lbVec3_zero, up);
			f.characterWs = g.characterWs = characterFrame(&f.humanoid, up, fwd, lbVec3_zero);
			if (moving)
			{
				liftAnimFoot(&f, 0, 0.06f);
				liftAnimFoot(&f, 1, 0.06f);
				liftAnimFoot(&g, 0, 0.06f);
				liftAnimFoot(&g, 1, 0.06f);
			}
			lbFootSenseInput inF = senseInput(&f, 1.0f / 60.0f), inG = senseInput(&g, 1.0f / 60.0f);
			inF.velocityWs = inG.velocityWs = lbMulSV(moving ? 1.5f : 0.0f, fwd);
			int probeFrames = 0;
			for (int i = 0; i < 90; ++i)
			{
				f.characterWs.p = g.characterWs.p = lbMulAdd(f.characterWs.p, lbDot(inF.velocityWs, fwd) * inF.dt, fwd);
				inF.characterWs = inG.characterWs = f.characterWs;
				const lbFootTargets tf = step(&f, &inF), tg = step(&g, &inG);
				ENSURE(tg.castCount > 0);
				if (i < 30)
					continue;
				probeFrames += tf.castCount > 0;
				// On a plane the ground found is the same whether probed again or not.
				for (int sd = 0; sd < 2; ++sd)
					ENSURE_VEC3_NEAR(tf.feet[sd].ankleWs, tg.feet[sd].ankleWs, 1e-4f);
			}
			if (moving)
				ENSURE(probeFrames == 60);
			else
				ENSURE(probeFrames >= 60 / 7 && probeFrames <= 60 / 6 + 1);
			if (!moving)
			{
				// The ground goes away: within 0.1 s (and a frame) a foot finds none and fades out.
				lbWorldDef wd = lbDefaultWorldDef();
				wd.up = up;
				lbWorld* empty = lbCreateWorld(&wd);
				f.rec.inner = lbWorld_GetQuery(empty);
				int frames = 0;
				lbFootTargets t;
				do
					t = step(&f, &inF);
				while (t.feet[0].grounded && ++frames < 30);
				ENSURE(frames <= 7 && !t.feet[0].grounded);
				lbDestroyWorld(empty);
			}
			fixtureFree(&f);
			fixtureFree(&g);
		}
	}
}

// A foot whose ankle stands just past a ledge's edge over a drop deeper than its probe reaches
// rests on the edge: the ground found under it is the top's height (within 5 mm), not the height
// a tilted edge contact's plane gives a sphere radius lower. Both rigs, two up axes, drops of
// 0.7-3 m, the ankle 0.5-2.5 cm past the edge.
// A 10 m wide block of the world's axes: from `from` to `to` along `dir` (unit, a world axis or its
// negative), from `bottom` to `top` along `up`, 5 m either side across; a box's half extents are
// the sums of the absolute parts of its axes.
static void addBlock(lbWorld* w, lbVec3 dir, float from, float to, lbVec3 up, float bottom, float top)
{
	const lbVec3 across = lbCross(up, dir);
	const lbVec3 centre = lbAdd(lbMulSV(0.5f * (from + to), dir), lbMulSV(0.5f * (bottom + top), up));
	const lbVec3 sum = lbAdd(lbAdd(lbMulSV(0.5f * (to - from), dir), lbMulSV(0.5f * (top - bottom), up)), lbMulSV(5.0f, across));
	addBox(w, centre, lbMakeVec3(lbAbsF(sum.x), lbAbsF(sum.y), lbAbsF(sum.z)), lbQuat_identity);
}

// The hips' move back on a steep climb (lbFootDef::climbHipShift): walking up a 35 degree slope
// (the floor rising 0.7 m a metre) the hips end the whole shift behind the animation's, behind the
// character's facing (here its way), and the spine leans forward over them so the neck stays within
// 2 cm of the animation's place along it; on level ground, going down the same slope, or with the shift off, the hips stay
// where the animation has them. A character that stops on the slope after the climb (drifting at
// 2 cm/s, as a captured actor's root does) has its hips back under it within half a second, while
// the eased climb rate still reads a steep climb: held back on that rate alone, an actor crouching
// on a flight's top with both feet locked bent its ankles past their range. Both rigs, two up axes.
static void test_a_steep_climb_moves_the_hips_back_and_the_chest_over_them(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
		for (int run = 0; run < 5; ++run)
		{
			const RigCase* k = &kCases[c];
			// run 0: up the slope; 1: level ground; 2: down the slope; 3: up with the shift off; 4: up,
			// then a stop.
			const float grade = run == 1 ? 0.0f : run == 2 ? -0.7f : 0.7f;
			Fixture f;
			fixtureInit(&f, k->rig, k->up);
			if (run == 3)
				f.def.climbHipShift = 0.0f;
			addPlane(f.world, lbVec3_zero, lbSub(k->up, lbMulSV(grade, k->fwd)));
			lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
			in.velocityWs = lbMulAdd(k->fwd, grade, k->up);
			lbFootTargets t;
			for (int i = 0; i < 150; ++i)
			{
				const float x = (float)i / 60.0f;
				f.characterWs = characterFrame(&f.humanoid, k->up, k->fwd, lbMulAdd(lbMulSV(x, k->fwd), grade * x, k->up));
				in.characterWs = f.characterWs;
				t = step(&f, &in);
			}
			float backAtStop = 0.0f;
			if (run == 4)
			{
				backAtStop = -lbDot(t.climbShiftWs, k->fwd);
				in.velocityWs = lbMulSV(0.02f, k->fwd);
				const lbVec3 at = lbMulAdd(lbMulSV(149.0f / 60.0f, k->fwd), grade * 149.0f / 60.0f, k->up);
				for (int i = 1; i <= 30; ++i)
				{
					f.characterWs = characterFrame(&f.humanoid, k->up, k->fwd, lbMulAdd(at, 0.02f * (float)i / 60.0f, k->fwd));
					in.characterWs = f.characterWs;
					t = step(&f, &in);
				}
			}
			const float back = -lbDot(t.climbShiftWs, k->fwd);
			const lbVec3 pelvisMove = lbQuatRotate(f.characterWs.q, lbSub(f.pose.model[f.humanoid.pelvis].p, f.anim.model[f.humanoid.pelvis].p));
			const lbVec3 neckMove = lbQuatRotate(f.characterWs.q, lbSub(f.pose.model[f.humanoid.neck].p, f.anim.model[f.humanoid.neck].p));
			if (run == 4)
			{
				// The whole shift while climbing, under a fifth of it half a second after the stop.
				ENSURE_NEAR(backAtStop, f.def.climbHipShift, 0.005f);
				ENSURE(back >= -1.0e-4f && back < 0.2f * f.def.climbHipShift);
			}
			else if (run == 0)
			{
				ENSURE_NEAR(back, f.def.climbHipShift, 0.005f);
				ENSURE(lbLength(lbProjectOnPlane(t.climbShiftWs, k->fwd)) < 1.0e-4f);
				ENSURE_NEAR(lbDot(t.pelvisShiftWs, k->fwd), -f.def.climbHipShift, 0.005f);
				ENSURE_NEAR(lbDot(pelvisMove, k->fwd), -f.def.climbHipShift, 0.005f);
				ENSURE(lbAbsF(lbDot(neckMove, k->fwd)) < 0.02f);
			}
			else
			{
				ENSURE(lbLength(t.climbShiftWs) < 1.0e-4f);
				ENSURE(lbAbsF(lbDot(pelvisMove, k->fwd)) < 1.0e-3f);
				ENSURE(lbAbsF(lbDot(neckMove, k->fwd)) < 1.0e-3f);
			}
			ENSURE(kneeBend(&f, 0) >= 0.0f && kneeBend(&f, 1) >= 0.0f);
			fixtureFree(&f);
		}
}

static void test_foot_past_a_ledge_edge_rests_on_the_edge(void)
{
	const float drops[3] = { 0.7f, 1.2f, 3.0f }, past[3] = { 0.005f, 0.015f, 0.025f };
	int probes = 0;
	float lowest = 0.0f;
	for (int c = 0; c < (int)(sizeof kCases / sizeof kCases[0]); ++c)
		for (int d = 0; d < 3; ++d)
			for (int e = 0; e < 3; ++e)
			{
				const RigCase* k = &kCases[c];
				Fixture f;
				fixtureInit(&f, k->rig, k->up);
				f.characterWs = characterFrame(&f.humanoid, k->up, k->fwd, lbVec3_zero);
				const lbVec3 ankle = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[0].foot].p);
				const float edge = lbDot(ankle, k->fwd) - past[e];
				// The top: a block whose face along fwd is the edge, its top at 0; the ground below.
				addBlock(f.world, k->fwd, edge - 10.0f, edge, k->up, -drops[d], 0.0f);
				addPlane(f.world, lbMulSV(-drops[d], k->up), k->up);
				lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
				lbFootTargets t = step(&f, &in);
				ENSURE(t.feet[0].grounded);
				const float h = lbDot(t.feet[0].groundPointWs, k->up);
				lowest = lbMinF(lowest, h);
				ENSURE(h > -0.005f && h < 0.005f);
				probes += 1;
				fixtureFree(&f);
			}
	printf("  %d feet past an edge: lowest ground found %.4f m (the top at 0)\n", probes, (double)lowest);
}

// A probe line passing just inside a radius of the top edge of a step beside the foot (a riser
// above the ground it stands on): the sphere swept down stops on that edge with a nearly level
// normal, which is no ground; the ray along the same line finds the ground below, and the foot
// stands on it. The ground found must be that floor, not the step's top, and never none.
static void test_sphere_grazing_an_edge_keeps_the_ground_below(void)
{
	const float inside[3] = { 1.0e-5f, 2.0e-5f, 3.0e-5f }, rise = 0.158f;
	int probes = 0;
	for (int c = 0; c < (int)(sizeof kCases / sizeof kCases[0]); ++c)
		for (int e = 0; e < 3; ++e)
			for (int dir = 0; dir < 2; ++dir)
			{
				const RigCase* k = &kCases[c];
				Fixture f;
				fixtureInit(&f, k->rig, k->up);
				f.characterWs = characterFrame(&f.humanoid, k->up, k->fwd, lbVec3_zero);
				// The step lies to one side of the foot or the other, along the whole length of the
				// sole (ahead of the toes or behind the heel, the footprint would rightly put the foot
				// on the step's top).
				const lbVec3 side = lbCross(k->up, k->fwd);
				const lbVec3 away = dir == 0 ? side : lbNeg(side);
				const lbVec3 ankle = lbTransformPoint(f.characterWs, f.anim.model[f.humanoid.leg[0].foot].p);
				// The edge inside the sphere's radius of the probe line by a sliver: the sphere's
				// contact normal on it rises sqrt(2 r sliver) / r of up, 0.026-0.045 here (level
				// enough to be a wall), and the step's front face is parallel to the sweep, so the
				// edge is what the sphere meets first.
				const float edge = lbDot(ankle, away) + f.def.traceRadius - inside[e];
				addBlock(f.world, away, edge, edge + 10.0f, k->up, 0.0f, rise);
				addPlane(f.world, lbVec3_zero, k->up);
				lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
				lbFootTargets t = step(&f, &in);
				ENSURE(t.feet[0].grounded);
				const float h = lbDot(t.feet[0].groundPointWs, k->up);
				ENSURE(h > -0.005f && h < 0.005f);
				ENSURE(lbDot(t.feet[0].normalWs, k->up) > 0.99f);
				probes += 1;
				fixtureFree(&f);
			}
	printf("  %d probes grazing a step's edge found the floor below\n", probes);
}

// A rig in other units walks as the rig in metres: the mannequin and mixamo rigs in centimetres
// (every rest translation times 100, characterWs scaled by 1/100) and at a hundredth of their size
// (times 0.01, characterWs times 100), given the same animation, put every bone where the metre rig
// puts it in the world, within 0.5 mm (float rounding; the centimetre rig through the crowd calls),
// walking and running over rocks, falling off their end (the feet find nothing and their floor is
// let go once it has come down a leg's length), landing 2 m below and walking on. Sole points of a
// scaled foot placed without the scale, and a fall in metres against a leg in the rig's units, had
// parted them by up to 1.9 m.
static void test_a_rig_in_other_units_walks_as_in_metres(void)
{
	const float ks[] = { 100.0f, 0.01f };
	for (int rig = 0; rig < lb_rigCount; ++rig)
		for (int run = 0; run < 2; ++run)
			for (size_t q = 0; q < sizeof ks / sizeof ks[0]; ++q)
			{
				const float k = ks[q];
				Fixture f;
				const lbSceneDef p = fixtureOnRocks(&f, (lbReferenceRig)rig, 0.3f, false);
				lbSceneQuery query = lbWorld_GetQuery(f.world);
				lbSkeleton* s2 = createScaledRig(f.skeleton, k);
				ENSURE(s2 != NULL);
				if (!s2)
				{
					fixtureFree(&f);
					continue;
				}
				lbHumanoid h2;
				ENSURE(lbMapHumanoid(s2, NULL, &h2) == lb_ok);
				lbPose anim2 = lbCreatePose(s2), pose2 = lbCreatePose(s2);
				lbFootState state2;
				lbFootState_Reset(&state2);
				lbMotionState ms;
				lbMotionState_Init(&ms, f.skeleton, &f.humanoid, lbTransform_identity);
				lbMotionDef mp = lbDefaultMotionDef(run ? lb_motionRun : lb_motionWalk);
				const float speed = run ? 3.5f : 1.4f, dt = 1.0f / 60.0f;
				// A floor 2 m down under the rocks, met past their end.
				addPlane(f.world, lbMakeVec3(0.0f, 0.0f, -2.0f), lbVec3_axisZ);
				float worst = 0.0f, height = 0.0f, fallSpeed = 0.0f;
				bool falling = false;
				for (int frame = 0; frame < 300; ++frame)
				{
					lbMotion_Sample(&ms, f.skeleton, &f.humanoid, &mp, dt, &f.anim);
					scalePoseUnits(&f.anim, k, &anim2);
					// Past the rocks' end (x = 8 m, frame 180) the character falls to the floor below,
					// lands, and walks on.
					const float x = 8.0f + speed * dt * (float)(frame - 180), y = 0.7f;
					bool landed = false;
					if (x < 8.0f)
						height = lbSceneRockyHeight(&p, x, y);
					else if (height > -2.0f)
					{
						falling = true;
						fallSpeed += 9.81f * dt;
						height -= fallSpeed * dt;
						if (height <= -2.0f)
						{
							height = -2.0f;
							falling = false;
							landed = true;
						}
					}
					lbFootSenseInput in = senseInput(&f, dt);
					in.query = &query;
					in.characterWs = characterFrame(&f.humanoid, lbVec3_axisZ, lbVec3_axisX, lbMakeVec3(x, y, height));
					in.velocityWs = lbMakeVec3(speed, 0.0f, falling ? -fallSpeed : 0.0f);
					in.moveState = falling ? lb_footFalling : lb_footGrounded;
					in.landed = landed;
					f.characterWs = in.characterWs;
					lbFootSenseInput in2 = in;
					in2.animPose = &anim2;
					in2.characterWs.s = lbMakeVec3(1.0f / k, 1.0f / k, 1.0f / k);
					step(&f, &in);
					lbFootTargets t2;
					lbPose_Copy(&pose2, &anim2);
					// In centimetres through the crowd calls (legs solved in a batch), else one by one.
					if (k > 1.0f)
					{
						ENSURE(lbFootSenseMany(&state2, &f.def, s2, &h2, &in2, &t2, 1) == lb_ok);
						ENSURE(lbFootApplyPoseCrowd(&t2, &f.def, s2, &h2, f.solver, &pose2, 1, NULL, 0, NULL) == lb_ok);
					}
					else
					{
						ENSURE(lbFootSense(&state2, &f.def, s2, &h2, &in2, &t2) == lb_ok);
						ENSURE(lbFootApplyPose(&t2, &f.def, s2, &h2, f.solver, &pose2, NULL, 0) == lb_ok);
					}
					for (int b = 0; b < s2->boneCount; ++b)
					{
						const float d = lbDistance(lbTransformPoint(in.characterWs, f.pose.model[b].p),
												   lbTransformPoint(in2.characterWs, pose2.model[b].p));
						worst = d > worst || d != d ? d : worst;
					}
				}
				if (!(worst <= 5.0e-4f))
					printf("  rig %d %s, units x %g: a bone %.2f mm from the metre rig's\n", rig, run ? "running" : "walking",
						   (double)k, (double)(1000.0f * worst));
				ENSURE(worst <= 5.0e-4f);
				lbDestroyPose(&anim2);
				lbDestroyPose(&pose2);
				lbDestroySkeleton(s2);
				fixtureFree(&f);
			}
}

// A character controller whose height jitters by hundredths of a millimetre on flat ground (a
// physics capsule's rounding) leaves the walk and the run as they are: a floor moving less than
// 6 mm/s reads as still for the decisions on a rising or falling floor, and a sole moving less than
// that over its floor as still for those on a rising or landing foot. They read the sign of the
// change, and the jitter flipped them every frame: walking, bones went up to 2.9 cm from the still
// floor's walk; running, a foot's tip lead came and went (1.6 cm). Both rigs, in a world whose up
// is tilted, the height jittering by up to 0.05 mm a frame: every bone within 0.5 mm of the still
// floor's run.
static void test_a_jittering_controller_height_changes_nothing(void)
{
	// A world turned off the axes (up tilted 0.4 rad), as any up is configured: the character's
	// position and its floor's height then differ in rounding, as a real controller's do.
	const lbQuat turn = lbQuatFromAxisAngle(lbNormalize(lbMakeVec3(-2.0f, 1.0f, 0.5f)), 0.4f);
	const lbVec3 up = lbQuatRotate(turn, lbVec3_axisZ), fwd = lbQuatRotate(turn, lbVec3_axisX);
	const lbVec3 side = lbCross(up, fwd);
	// Each rig walking and running on a plane, and running toward a 29 degree slope's foot over the
	// slope scene's ground, its height found by a ray down (as a controller finds it).
	for (int c = 0; c < 3 * lb_rigCount; ++c)
	{
		const lbReferenceRig rig = (lbReferenceRig)(c % lb_rigCount);
		const bool run = c >= lb_rigCount, slope = c >= 2 * lb_rigCount;
		Fixture f[2];
		lbMotionState ms[2];
		for (int k = 0; k < 2; ++k)
		{
			fixtureInit(&f[k], rig, up);
			if (slope)
			{
				lbSceneDef sd = lbDefaultSceneDef(lb_sceneSlope);
				sd.up = up;
				sd.forward = fwd;
				sd.angle = 0.5f;
				ENSURE(lbBuildScene(f[k].world, &sd) == lb_ok);
			}
			else
				addPlane(f[k].world, lbVec3_zero, up);
			lbMotionState_Init(&ms[k], f[k].skeleton, &f[k].humanoid, lbTransform_identity);
		}
		lbMotionDef mp = lbDefaultMotionDef(run ? lb_motionRun : lb_motionWalk);
		const float speed = run ? 3.5f : 1.4f;
		lbTestRng rng = { 17 + (unsigned long long)c };
		float worst = 0.0f;
		for (int frame = 0; frame < (slope ? 120 : 240); ++frame)
		{
			const float x = -2.0f + speed * (float)frame / 60.0f;
			const float jitter = lbTestUniform(&rng, -5.0e-5f, 5.0e-5f);
			lbVec3 at = lbMulAdd(lbMulSV(x, fwd), 0.3f, side);
			if (slope)
			{
				lbQueryInput qi = lbDefaultQueryInput();
				qi.start = lbMulAdd(at, 5.0f, up);
				qi.end = lbMulAdd(at, -5.0f, up);
				const lbHit h = lbWorld_RayCast(f[0].world, &qi);
				if (h.hit)
					at = h.impactPoint;
			}
			for (int k = 0; k < 2; ++k)
			{
				lbMotion_Sample(&ms[k], f[k].skeleton, &f[k].humanoid, &mp, 1.0f / 60.0f, &f[k].anim);
				f[k].characterWs = characterFrame(&f[k].humanoid, up, fwd, lbMulAdd(at, k ? jitter : 0.0f, up));
				lbFootSenseInput in = senseInput(&f[k], 1.0f / 60.0f);
				in.velocityWs = lbMulSV(speed, fwd);
				step(&f[k], &in);
			}
			for (int b = 0; b < f[0].skeleton->boneCount; ++b)
			{
				const float d = lbDistance(lbTransformPoint(f[0].characterWs, f[0].pose.model[b].p),
										   lbTransformPoint(f[1].characterWs, f[1].pose.model[b].p));
				worst = d > worst || d != d ? d : worst;
			}
		}
		if (!(worst <= 5.0e-4f))
			printf("  rig %d %s%s: a bone %.2f mm from the still floor's\n", (int)rig, run ? "running" : "walking",
				   slope ? " toward a slope" : "", (double)(1000.0f * worst));
		ENSURE(worst <= 5.0e-4f);
		fixtureFree(&f[0]);
		fixtureFree(&f[1]);
	}
}

// Whether a float is subnormal (denormal): a nonzero value under FLT_MIN.
static bool isSubnormal(float x)
{
	return x != 0.0f && fabsf(x) < FLT_MIN;
}

// A state easing toward a resting value lands on it instead of decaying through the denormal floats,
// which many x86 cores take tens to hundreds of cycles an operation over. Each rig standing (the idle
// and the rest pose) on flat ground after its floor fell 5 cm: the climb rate that fall set eased
// toward nothing for ever, below 1e-38 about 40 s on, and from then on four operations of every frame's
// sense took a denormal. On x86-64 the processor's own flag says whether any operation of the
// stages took one in a frame: over the last 500 of 3,000 frames at most a few frames may (a product of
// two rounding residues, none of them state); the old easing took one in every frame.
static void test_a_resting_state_settles_without_denormals(void)
{
	for (int c = 0; c < 2 * lb_rigCount; ++c)
	{
		const lbReferenceRig rig = (lbReferenceRig)(c % lb_rigCount);
		const bool idle = c >= lb_rigCount;
		Fixture f;
		fixtureInit(&f, rig, lbVec3_axisZ);
		addPlane(f.world, lbVec3_zero, lbVec3_axisZ);
		lbMotionState ms;
		lbMotionState_Init(&ms, f.skeleton, &f.humanoid, lbTransform_identity);
		lbMotionDef mp = lbDefaultMotionDef(idle ? lb_motionIdle : lb_motionRest);
		int flagged = 0, subnormal = 0;
		for (int frame = 0; frame < 3000; ++frame)
		{
			lbMotion_Sample(&ms, f.skeleton, &f.humanoid, &mp, 1.0f / 60.0f, &f.anim);
			f.characterWs = characterFrame(&f.humanoid, lbVec3_axisZ, lbVec3_axisX,
										   lbMakeVec3(0.0f, 0.3f, frame < 60 ? 0.05f : 0.0f));
			lbFootSenseInput in = senseInput(&f, 1.0f / 60.0f);
			lbTestDenormalClear();
			step(&f, &in);
			if (frame >= 2500 && lbTestDenormalSeen())
				++flagged;
			const lbFootState* st = &f.state;
			float v[] = { st->pelvisOffset, st->landing, st->landingRate, st->alpha, st->climbRate, st->pelvisShiftWs.x,
						  st->pelvisShiftWs.y, st->pelvisShiftWs.z, st->legs[0].offset, st->legs[1].offset,
						  st->legs[0].lockAlpha, st->legs[1].lockAlpha };
			for (size_t k = 0; k < sizeof v / sizeof v[0]; ++k)
				subnormal += isSubnormal(v[k]);
		}
		if (flagged > 0 || subnormal > 0)
			printf("  rig %d %s: %d of the last 500 frames took a denormal operand, %d denormal state values\n", (int)rig,
				   idle ? "idle" : "rest", flagged, subnormal);
		ENSURE(flagged <= 25);
		ENSURE(subnormal == 0);
		fixtureFree(&f);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_foot_past_a_ledge_edge_rests_on_the_edge);
	RUN_TEST(test_sphere_grazing_an_edge_keeps_the_ground_below);
	RUN_TEST(test_flat_ground_and_slopes);
	RUN_TEST(test_airborne_feet_stay_out_of_the_ground);
	RUN_TEST(test_airborne_feet_stay_out_of_a_step_under_the_toes);
	RUN_TEST(test_face_contacts_skip_the_ray);
	RUN_TEST(test_sense_many_matches_one_by_one);
	RUN_TEST(test_steep_ground_keeps_feet_on_the_surface);
	RUN_TEST(test_stairs_lowest_foot_and_weighted_average);
	RUN_TEST(test_nose_beside_the_foot_is_not_ground);
	RUN_TEST(test_landing_blends_back_and_compresses);
	RUN_TEST(test_state_alpha_trace_rate_and_lod);
	RUN_TEST(test_trace_phase_spreads_casts);
	RUN_TEST(test_prediction);
	RUN_TEST(test_foot_locking);
	RUN_TEST(test_plant_flicker_holds_the_lock);
	RUN_TEST(test_toes_curled_straight_down_bend_onto_the_ground);
	RUN_TEST(test_a_spiking_plant_takes_its_lock_up_again);
	RUN_TEST(test_bad_inputs_and_extremes);
	RUN_TEST(test_bad_bone_transforms_refused);
	RUN_TEST(test_ankle_limit_lifts_the_heel);
	RUN_TEST(test_plant_slides_out_of_a_riser);
	RUN_TEST(test_toes_lean_toward_a_rock_not_a_riser);
	RUN_TEST(test_landing_goes_back_behind_a_riser_at_once);
	RUN_TEST(test_max_plant_shift_bounds_the_slide);
	RUN_TEST(test_plant_slides_back_from_a_nose);
	RUN_TEST(test_swing_clears_a_step);
	RUN_TEST(test_a_foot_stepping_back_heel_first_looks_behind_it);
	RUN_TEST(test_a_turning_foot_keeps_its_toe_tip_out_of_a_step_beside_it);
	RUN_TEST(test_max_goal_speed_spreads_a_sudden_change);
	RUN_TEST(test_knee_max_bend_limits_a_free_foot);
	RUN_TEST(test_free_ankle_comes_onto_its_limit_softly);
	RUN_TEST(test_hip_lift_for_a_free_foot_past_the_hip_limit);
	RUN_TEST(test_look_ahead_points_kept);
	RUN_TEST(test_locked_feet_check_ground_by_ray);
	RUN_TEST(test_locked_feet_cast_little);
	RUN_TEST(test_probe_reuse);
	RUN_TEST(test_a_steep_climb_moves_the_hips_back_and_the_chest_over_them);
	RUN_TEST(test_a_rig_in_other_units_walks_as_in_metres);
	RUN_TEST(test_a_jittering_controller_height_changes_nothing);
	RUN_TEST(test_a_resting_state_settles_without_denormals);
	TEST_MAIN_END();
}
