// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The prone system's sense and pose stages on both reference rigs and two world up axes: on a plane
// of known slope the roll and pitches are the plane's (uphill, downhill, across), the fitted torso
// lies along the plane and rests on it; the pointed roof lifts the lower body and says how far it
// hovers; bad input gives an error with the state, the targets and the pose unchanged.
#include "limber/limber.h"
#include "test_macros.h"

#include <float.h>
#include <stddef.h>

typedef struct Fixture
{
	lbSkeleton* skel;
	lbHumanoid h;
	lbPose anim, pose;
	lbWorld* world;
	lbSceneQuery query;
	lbVec3 up, fwd;
} Fixture;

// A rig lying prone (the procedural prone pose) and a scene of `kind` with slope `angle` (rad).
static void fixtureInit(Fixture* f, lbReferenceRig rig, lbVec3 up, lbVec3 fwd, lbSceneKind kind, float angle)
{
	f->skel = lbCreateReferenceRig(rig);
	ENSURE(lbMapHumanoid(f->skel, NULL, &f->h) == lb_ok);
	f->anim = lbCreatePose(f->skel);
	f->pose = lbCreatePose(f->skel);
	lbMotionState ms;
	lbMotionState_Init(&ms, f->skel, &f->h, lbTransform_identity);
	lbMotionDef mp = lbDefaultMotionDef(lb_motionProne);
	lbMotion_Sample(&ms, f->skel, &f->h, &mp, 1.0f / 60.0f, &f->anim);
	lbWorldDef wd = lbDefaultWorldDef();
	wd.up = up;
	f->world = lbCreateWorld(&wd);
	lbSceneDef sp = lbDefaultSceneDef(kind);
	sp.up = up;
	sp.forward = fwd;
	if (kind == lb_sceneSlope)
		sp.angle = angle;
	ENSURE(lbBuildScene(f->world, &sp) == lb_ok);
	f->query = lbWorld_GetQuery(f->world);
	f->up = up;
	f->fwd = fwd;
}

static void fixtureFree(Fixture* f)
{
	lbDestroyPose(&f->anim);
	lbDestroyPose(&f->pose);
	lbDestroyWorld(f->world);
	lbDestroySkeleton(f->skel);
}

// The fixture on stairs of `riser` x `tread` (m) rising along +x, Z up; returns the stairs' def.
static lbSceneDef fixtureInitStairs(Fixture* f, lbReferenceRig rig, float riser, float tread)
{
	fixtureInit(f, rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneFlat, 0.0f);
	lbDestroyWorld(f->world);
	lbWorldDef wd = lbDefaultWorldDef();
	wd.up = lbVec3_axisZ;
	f->world = lbCreateWorld(&wd);
	lbSceneDef sp = lbDefaultSceneDef(lb_sceneStairs);
	sp.up = lbVec3_axisZ;
	sp.forward = lbVec3_axisX;
	sp.riser = riser;
	sp.tread = tread;
	ENSURE(lbBuildScene(f->world, &sp) == lb_ok);
	f->query = lbWorld_GetQuery(f->world);
	return sp;
}

// Character transform: model up on world up, model forward on `heading`, at `p`.
static lbTransform place(const Fixture* f, lbVec3 heading, lbVec3 p)
{
	return lbMakeTransform(p, lbQuatFromTwoAxes(f->h.upMs, f->up, f->h.forwardMs, heading));
}

static lbProneTargets senseOnce(Fixture* f, lbProneState* st, const lbProneDef* def, lbTransform cw, int frames)
{
	lbProneTargets t;
	memset(&t, 0, sizeof t);
	lbProneSenseInput in = lbDefaultProneSenseInput();
	in.query = &f->query;
	in.characterWs = cw;
	in.animPose = &f->anim;
	in.dt = 1.0f / 60.0f;
	for (int i = 0; i < frames; ++i)
		ENSURE(lbProneSense(st, def, f->skel, &f->h, &in, &t) == lb_ok);
	return t;
}

static float slopeDeg(lbVec3 a, lbVec3 b, lbVec3 up, lbVec3 along)
{
	lbVec3 d = lbSub(b, a);
	return atan2f(lbDot(d, up), lbDot(d, along)) * LB_RAD2DEG;
}

static void test_prone_plane_of_known_slope(void)
{
	const lbVec3 ups[2] = { { 0, 0, 1 }, { 0, 1, 0 } };
	const lbVec3 fwds[2] = { { 1, 0, 0 }, { 0, 0, 1 } };
	for (int rig = 0; rig < 2; ++rig)
		for (int u = 0; u < 2; ++u)
			for (int deg = 10; deg <= 30; deg += 10)
				for (int way = 0; way < 3; ++way)
				{
					const float angle = (float)deg * LB_DEG2RAD;
					Fixture f;
					fixtureInit(&f, (lbReferenceRig)rig, ups[u], fwds[u], lb_sceneSlope, angle);
					lbVec3 side = lbCross(f.up, f.fwd);
					// Uphill, downhill, across (facing the scene's side: the character's left is downhill).
					lbVec3 heading = way == 0 ? f.fwd : (way == 1 ? lbNeg(f.fwd) : side);
					lbVec3 p = lbMulAdd(lbMulSV(3.5f, f.fwd), 3.5f * tanf(angle), f.up);
					lbTransform cw = place(&f, heading, p);
					lbProneDef def = lbDefaultProneDef();
					def.up = f.up;
					lbProneState st;
					lbProneState_Reset(&st);
					lbProneTargets t = senseOnce(&f, &st, &def, cw, 3);
					// The analytic slope along the body's own axis (pelvis to neck on the ground plane) and
					// across it: the plane rises along the scene's forward at tan(angle).
					lbVec3 axis = lbNormalize(lbProjectOnPlane(
						lbQuatRotate(cw.q, lbSub(f.anim.model[f.h.neck].p, f.anim.model[f.h.pelvis].p)), f.up));
					lbVec3 bodyLeft = lbCross(f.up, axis);
					float wantPitch = atanf(tanf(angle) * lbDot(axis, f.fwd)) * LB_RAD2DEG;
					float wantRoll = atanf(tanf(angle) * lbDot(bodyLeft, f.fwd)) * LB_RAD2DEG;
					ENSURE_NEAR(wantPitch, way == 0 ? (float)deg : (way == 1 ? -(float)deg : 0.0f), 2.0);
					ENSURE_NEAR(wantRoll, way == 2 ? -(float)deg : 0.0f, 2.0);
					ENSURE(t.centreHit && t.upperHit && t.lowerHit && t.leftHit && t.rightHit);
					ENSURE_NEAR(t.upperPitch * LB_RAD2DEG, wantPitch, 0.5);
					ENSURE_NEAR(t.lowerPitch * LB_RAD2DEG, wantPitch, 0.5);
					ENSURE_NEAR(t.roll * LB_RAD2DEG, wantRoll, 0.5);
					ENSURE(!t.roofLift && t.hover == 0.0f && t.alpha > 0.999f && t.posture == lb_proneFaceDown);
					// The pose: the torso line along the plane, the shoulders rolled with it, resting on it.
					lbPose_Copy(&f.pose, &f.anim);
					lbProneResult res;
					ENSURE(lbProneApplyPose(&t, &def, f.skel, &f.h, &f.pose, &res) == lb_ok);
					ENSURE(lbPose_IsFinite(&f.pose));
					lbVec3 pel = lbTransformPoint(cw, f.pose.model[f.h.pelvis].p);
					lbVec3 neck = lbTransformPoint(cw, f.pose.model[f.h.neck].p);
					ENSURE_NEAR(slopeDeg(pel, neck, f.up, axis), wantPitch, 1.5);
					lbVec3 sl = lbTransformPoint(cw, f.pose.model[f.h.arm[0].upperArm].p);
					lbVec3 sr = lbTransformPoint(cw, f.pose.model[f.h.arm[1].upperArm].p);
					ENSURE_NEAR(slopeDeg(sr, sl, f.up, bodyLeft), wantRoll, 1.5);
					ENSURE(!res.shiftClamped);
					ENSURE(res.torsoGap >= 0.0f && res.torsoGap <= 0.02f);
					fixtureFree(&f);
				}
}

// At a reduced trace rate the casts come every period (spread by the state's phase), a body that
// stays put casts nothing after its first frame, and between casts the ground each cast found is
// re-evaluated: on a plane the targets are those of casting every frame.
static void test_prone_trace_rate(void)
{
	for (int rig = 0; rig < 2; ++rig)
	{
		Fixture f;
		const float angle = 20.0f * LB_DEG2RAD;
		fixtureInit(&f, (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneSlope, angle);
		lbProneDef every = lbDefaultProneDef();
		every.traceRate = 0.0f;
		every.recastDistance = 0.0f;
		lbProneDef reduced = lbDefaultProneDef();
		reduced.traceRate = 10.0f;
		lbProneState a, b;
		lbProneState_Reset(&a);
		lbProneState_Reset(&b);
		ENSURE(lbProneState_SetTracePhase(&b, 1.5f) == lb_ok);
		ENSURE_NEAR(b.tracePhase, 0.5f, 1e-6);
		ENSURE(lbProneState_SetTracePhase(NULL, 0.5f) == lb_errorNullPointer);
		ENSURE(lbProneState_SetTracePhase(&b, NAN) == lb_errorNonFinite);
		ENSURE_NEAR(b.tracePhase, 0.5f, 1e-6);
		int castFrames = 0, casts = 0;
		for (int i = 0; i < 60; ++i)
		{
			// Crawling uphill at 0.3 m/s, then lying still for the second half.
			float x = 3.0f + 0.3f * (float)(i < 30 ? i : 30) / 60.0f;
			lbTransform cw = place(&f, f.fwd, lbMakeVec3(x, 0.0f, x * tanf(angle)));
			// A hand or foot fully held since the last frame keeps its ground (its wrist, or its ankle
			// and toes, are not probed).
			int heldProbes = 0;
			for (int limb = 0; limb < LB_PRONE_LIMBS; ++limb)
				if (i > 0 && a.limbs[limb].locked && a.limbs[limb].lockAlpha >= 1.0f)
					heldProbes += limb < 2 ? 1 : 2;
			lbProneTargets ta = senseOnce(&f, &a, &every, cw, 1);
			lbProneTargets tb = senseOnce(&f, &b, &reduced, cw, 1);
			// Every cast every frame, but the pelvis probe's (it goes down the centre cast's line, and
			// takes its result), the held ends' and the thighs' and forearms' (on one plane no edge
			// lies under them: their ground reads as not found).
			const int segmentProbes = lb_proneProbeCount - lb_proneThighL;
			ENSURE(ta.castCount == 5 + lb_proneProbeCount - 1 - heldProbes - segmentProbes);
			for (int k = lb_proneThighL; k < lb_proneProbeCount; ++k)
				ENSURE(!ta.ground[k].hit && !tb.ground[k].hit);
			// The first frame holds every end (no speed yet); moving at 0.3 m/s (over lockSpeed) lets
			// go at once, lying still holds every end again, fully once the holds have blended in.
			if (i == 1)
				ENSURE(heldProbes == 6);
			if (i >= 2 && i < 30)
				ENSURE(heldProbes == 0);
			if (i >= 45)
				ENSURE(heldProbes == 6);
			if (i == 0)
			{
				// ... which is what a cast of its own finds (the first frame snaps: no easing).
				lbVec3 pMs;
				float radius;
				ENSURE(lbProneProbePoint(&f.h, &every, &f.anim, lb_pronePelvis, &pMs, &radius));
				lbVec3 p = lbTransformPoint(cw, pMs);
				lbQueryInput in = lbDefaultQueryInput();
				in.start = lbMulAdd(p, every.probeReach, f.up);
				in.end = lbMulAdd(p, -every.probeReach, f.up);
				in.radius = lbMinF(radius, every.probeCastRadius);
				in.channelMask = every.channelMask;
				lbHit own = lbSphereCast(&f.query, &in);
				ENSURE(own.hit && ta.ground[lb_pronePelvis].hit);
				lbVec3 n = lbNormalize(own.normal);
				ENSURE_NEAR(lbDistance(ta.ground[lb_pronePelvis].pointWs, lbMulAdd(own.impactPoint, radius, n)), 0.0, 1.0e-4);
			}
			castFrames += tb.castCount > 0 ? 1 : 0;
			casts += tb.castCount;
			if (i >= 40)
				ENSURE(tb.castCount == 0);
			ENSURE_NEAR(tb.roll, ta.roll, 1e-3);
			ENSURE_NEAR(tb.upperPitch, ta.upperPitch, 1e-3);
			ENSURE_NEAR(tb.lowerPitch, ta.lowerPitch, 1e-3);
			ENSURE(tb.centreHit && tb.upperHit && tb.lowerHit);
			for (int k = 0; k < lb_proneProbeCount; ++k)
			{
				ENSURE(tb.ground[k].hit == ta.ground[k].hit);
				if (ta.ground[k].hit)
					ENSURE_NEAR(lbDistance(tb.ground[k].pointWs, ta.ground[k].pointWs), 0.0f, 2e-3);
			}
		}
		// The first frame, then a trace frame (every sixth, half a period later for phase 0.5) once
		// a cast's start has moved recastDistance (3 cm a period here): at 4.5 cm, the plane found
		// is the one the first cast predicted there, so the next cast waits for twice that, 9 cm.
		ENSURE(castFrames == 3);
		ENSURE(casts < 60 * (5 + lb_proneProbeCount - 1) / 12);
		// (The thighs' and forearms' probes were never cast.)
		for (int k = 0; k < 5 + lb_proneThighL; ++k)
			ENSURE(b.recastSpan[k] == 2);
		fixtureFree(&f);
	}
}

// A cast that finds ground other than the plane its last cast predicted there (over the crease
// at the foot of a slope) is made again after recastDistance, not twice that; a cast whose plane
// holds waits twice as far.
static void test_prone_recast_span(void)
{
	for (int rig = 0; rig < 2; ++rig)
	{
		Fixture f;
		const float angle = 20.0f * LB_DEG2RAD;
		fixtureInit(&f, (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneSlope, angle);
		lbProneDef reduced = lbDefaultProneDef();
		reduced.traceRate = 10.0f;
		lbProneState b;
		lbProneState_Reset(&b);
		int held = 0, changed = 0;
		for (int i = 0; i < 150; ++i)
		{
			// Crawling at 0.3 m/s from the flat ground over the slope's foot and up it.
			float x = -0.6f + 0.3f * (float)i / 60.0f;
			lbTransform cw = place(&f, f.fwd, lbMakeVec3(x, 0.0f, lbMaxF(x, 0.0f) * tanf(angle)));
			lbVec3 before[5 + lb_proneProbeCount];
			memcpy(before, b.castFromWs, sizeof before);
			senseOnce(&f, &b, &reduced, cw, 1);
			if (i == 0)
				continue;
			for (int k = 0; k < 5 + lb_proneProbeCount; ++k)
			{
				if (lbDistance(before[k], b.castFromWs[k]) == 0.0f)
					continue;
				// Cast this frame, after moving at least recastDistance (or twice that) along the ground.
				const float moved = lbLength(lbProjectOnPlane(lbSub(b.castFromWs[k], before[k]), f.up));
				ENSURE(moved >= reduced.recastDistance);
				ENSURE(b.recastSpan[k] == 1 || b.recastSpan[k] == 2);
				held += b.recastSpan[k] == 2;
				changed += b.recastSpan[k] == 1;
			}
		}
		// Each cast lies on the flat, over the crease or on the slope at some cast: both kinds are seen.
		ENSURE(held > 0 && changed > 0);
		fixtureFree(&f);
	}
}

static void test_prone_roof_lift(void)
{
	for (int rig = 0; rig < 2; ++rig)
	{
		Fixture f;
		fixtureInit(&f, (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneRoof, 0.0f);
		lbSceneDef sp = lbDefaultSceneDef(lb_sceneRoof);
		// Lying head down one slope with the legs over the ridge: the centre 0.35 m before the ridge.
		float zc = sp.height - 0.35f * tanf(sp.angle);
		lbTransform cw = place(&f, lbNeg(lbVec3_axisX), lbMakeVec3(-0.35f, 0.0f, zc));
		lbProneDef def = lbDefaultProneDef();
		lbProneState st;
		lbProneState_Reset(&st);
		lbProneTargets t = senseOnce(&f, &st, &def, cw, 3);
		ENSURE(t.roofLift);
		// The lifted lower contact lies on the centre contact's plane: the legs stay in its line.
		ENSURE_NEAR(lbDot(lbSub(t.lowerWs, t.centreWs), t.centreNormalWs), 0.0, 1.0e-3);
		// Analytic hover: the far slope at 0.4 m past the ridge lies 2 * 0.4 * tan(angle) under the
		// near slope's plane, measured along up.
		ENSURE_NEAR(t.hover, 2.0f * (def.lowerExtent - 0.35f) * tanf(sp.angle), 0.03);
		ENSURE_NEAR(t.lowerPitch, t.upperPitch, 0.02);
		ENSURE(t.tooHigh == (t.hover > def.hoverLimit));
		def.roofLift = false;
		lbProneState_Reset(&st);
		t = senseOnce(&f, &st, &def, cw, 1);
		ENSURE(!t.roofLift && t.hover == 0.0f);
		fixtureFree(&f);
	}
}

// Lying head first up one slope of a pointed roof, the ahead contact on the far slope: the ahead
// contact is lifted onto the near slope's plane (the upper body kept in its line) only where the
// ridge lies past the torso's middle. With the ridge before the middle the ground under the middle is
// the far slope, and held in the near slope's line the torso lay up to 10 degrees off it (over a
// rock's crest between the pelvis and the middle: crawling over 0.111 m rocks, the pitch error 10 ->
// 2 degrees, `prone_crawl_rocks_crest_*`). Both rigs, the ridge 0.08-0.16 m and 0.32-0.40 m ahead.
static void test_prone_roof_lift_ahead_past_the_middle(void)
{
	const float before[3] = { 0.08f, 0.12f, 0.16f }, past[3] = { 0.32f, 0.36f, 0.40f };
	for (int rig = 0; rig < 2; ++rig)
	{
		Fixture f;
		fixtureInit(&f, (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneRoof, 0.0f);
		lbSceneDef sp = lbDefaultSceneDef(lb_sceneRoof);
		lbProneDef def = lbDefaultProneDef();
		for (int k = 0; k < 6; ++k)
		{
			const float d = k < 3 ? before[k] : past[k - 3];
			lbTransform cw = place(&f, lbVec3_axisX, lbMakeVec3(-d, 0.0f, sp.height - d * tanf(sp.angle)));
			lbProneState st;
			lbProneState_Reset(&st);
			lbProneTargets t = senseOnce(&f, &st, &def, cw, 3);
			ENSURE(t.centreHit && t.upperHit);
			if ((t.upperHover > 0.0f) != (k >= 3))
				printf("  rig %d, ridge %.2f m ahead: upper hover %.3f m, upper pitch %.1f degrees\n", rig, (double)d,
					   (double)t.upperHover, (double)(t.upperPitch * LB_RAD2DEG));
			ENSURE((t.upperHover > 0.0f) == (k >= 3));
			// Past the middle, in the near slope's line (rising at the roof's angle); before it, not.
			if (k >= 3)
				ENSURE_NEAR(t.upperPitch, sp.angle, 0.02);
			else
				ENSURE(t.upperPitch < sp.angle - 0.1f);
		}
		fixtureFree(&f);
	}
}

// A fixture whose world is a trench (1.2 m wide, `depth` m deep, its near edge 1.5 m along the
// forward axis, 12 m long); *outSp gets the scene def.
static void fixtureTrench(Fixture* f, lbReferenceRig rig, lbVec3 up, lbVec3 fwd, float depth, lbSceneDef* outSp)
{
	fixtureInit(f, rig, up, fwd, lb_sceneFlat, 0.0f);
	lbDestroyWorld(f->world);
	lbWorldDef wd = lbDefaultWorldDef();
	wd.up = f->up;
	f->world = lbCreateWorld(&wd);
	*outSp = lbDefaultSceneDef(lb_sceneGap);
	outSp->up = f->up;
	outSp->forward = f->fwd;
	outSp->gap = 1.2f;
	outSp->depth = depth;
	outSp->distance = 1.5f;
	outSp->width = 12.0f;
	ENSURE(lbBuildScene(f->world, outSp) == lb_ok);
	f->query = lbWorld_GetQuery(f->world);
}

// Senses once lying across a trench's rim (the scene of fixtureTrench, `depth` m deep), the body's
// middle `fromEdge` m short of the edge, with up `ups[u]`; way 0 faces the scene's side (the trench
// on the body's right), way 1 the other way (on its left). The caller frees f.
static const lbVec3 kTrenchUps[2] = { { 0, 0, 1 }, { 0, 1, 0 } };
static const lbVec3 kTrenchFwds[2] = { { 1, 0, 0 }, { 0, 0, 1 } };
static lbProneTargets senseBesideTrench(Fixture* f, int rig, int u, float depth, float fromEdge, int way)
{
	lbSceneDef sp;
	fixtureTrench(f, (lbReferenceRig)rig, kTrenchUps[u], kTrenchFwds[u], depth, &sp);
	const lbVec3 side = lbCross(f->up, f->fwd);
	const lbVec3 heading = way == 0 ? side : lbNeg(side);
	lbTransform cw = place(f, heading, lbMulSV(sp.distance - fromEdge, f->fwd));
	lbProneDef def = lbDefaultProneDef();
	def.up = f->up;
	lbProneState st;
	lbProneState_Reset(&st);
	return senseOnce(f, &st, &def, cw, 3);
}

// Lying along a trench's rim, the middle a few centimetres from the edge and a shoulder over it, the
// body rests level on the rim whether or not the side cast over the trench reaches its floor (it
// does at 0.26-0.27 m, within `sideExtent` and the sphere's radius; not at 0.45 m). The slope from
// the rim to a floor in reach had rolled the torso toward it, up to `maxRoll`. Both rigs, two up
// axes, the trench on either side of the body.
static void test_prone_roll_on_a_trench_rim(void)
{
	const float depths[3] = { 0.26f, 0.27f, 0.45f };
	const float fromEdge[3] = { 0.04f, 0.07f, 0.10f };
	int floorsMet = 0;
	for (int rig = 0; rig < 2; ++rig)
		for (int u = 0; u < 2; ++u)
			for (int k = 0; k < 3; ++k)
				for (int e = 0; e < 3; ++e)
					for (int way = 0; way < 2; ++way)
					{
						Fixture f;
						lbProneTargets t = senseBesideTrench(&f, rig, u, depths[k], fromEdge[e], way);
						ENSURE(t.centreHit);
						const lbVec3 over = way == 0 ? t.rightWs : t.leftWs;
						if ((way == 0 ? t.rightHit : t.leftHit) && lbDot(lbSub(t.centreWs, over), f.up) > 0.2f)
							++floorsMet;
						ENSURE_NEAR(t.roll * LB_RAD2DEG, 0.0, 0.5);
						fixtureFree(&f);
					}
	// The shallow trenches' floors were met (the case the rule is for), the deep one's not.
	ENSURE(floorsMet >= 2 * 2 * 2 * 3 * 2);
}

// Lying beside a trench whose floor the hand's probe reaches (0.27-0.29 m deep), the hand over it
// is not held on that floor: the arm reaching down to it passed through the rim (4.3 cm into a
// 0.28 m trench's edge). The hand on the other side, on the ground the body lies on, still is. Both
// rigs, two up axes, the trench on either side of the body.
static void test_prone_hand_not_held_past_a_trench_rim(void)
{
	const float depths[3] = { 0.27f, 0.28f, 0.29f };
	int floorsMet = 0;
	for (int rig = 0; rig < 2; ++rig)
		for (int u = 0; u < 2; ++u)
			for (int k = 0; k < 3; ++k)
				for (int way = 0; way < 2; ++way)
				{
					Fixture f;
					lbProneTargets t = senseBesideTrench(&f, rig, u, depths[k], 0.27f, way);
					const int over = way == 0 ? 1 : 0;
					const lbProneGround* g = &t.ground[lb_proneWristL + over];
					if (g->hit && lbDot(g->pointWs, f.up) < -0.2f)
					{
						++floorsMet;
						ENSURE(!t.limbs[over].locked);
					}
					ENSURE(t.limbs[1 - over].locked);
					fixtureFree(&f);
				}
	// The case the rule is for: the floor was met under the hand over the trench.
	ENSURE(floorsMet >= 2 * 2 * 2);
}

// Lying along a trench whose floor the ankle's probe reaches (0.26-0.29 m deep), the body's middle
// 0.12-0.18 m from the edge, the foot over it is not held on that floor: the leg reaching down to it
// crossed the rim, the thigh 3.2 cm into a 0.27 m trench's edge. The other foot, on the ground the
// body lies on, still is. Both rigs, two up axes, the trench on either side of the body.
static void test_prone_foot_not_held_past_a_trench_rim(void)
{
	const float depths[3] = { 0.26f, 0.27f, 0.29f };
	const float fromEdge[3] = { 0.12f, 0.15f, 0.18f };
	int floorsMet = 0;
	for (int rig = 0; rig < 2; ++rig)
		for (int u = 0; u < 2; ++u)
			for (int k = 0; k < 3; ++k)
				for (int e = 0; e < 3; ++e)
					for (int way = 0; way < 2; ++way)
					{
						Fixture f;
						lbProneTargets t = senseBesideTrench(&f, rig, u, depths[k], fromEdge[e], way);
						// Feet are limbs 2 (left) and 3 (right); the trench lies on the right facing the
						// scene's side.
						const int over = way == 0 ? 1 : 0;
						const lbProneGround* g = &t.ground[lb_proneAnkleL + over];
						if (g->hit && lbDot(g->pointWs, f.up) < -0.2f)
						{
							++floorsMet;
							ENSURE(!t.limbs[2 + over].locked);
						}
						ENSURE(t.limbs[3 - over].locked);
						fixtureFree(&f);
					}
	// The case the rule is for: the floor was met under the foot over the trench.
	ENSURE(floorsMet >= 2 * 2 * 3 * 2);
	printf("  the floor met under the foot over the trench in %d of %d places\n", floorsMet, 2 * 2 * 3 * 3 * 2);
}

// Lying up a flight of stairs is no ridge: the ground behind falls along the noses' line as the
// ground ahead rises along it, so the pointed-roof lift must not hold the legs level over the lower
// steps (it did wherever the centre contact sat on a nose: hover 0.27 m, lower pitch 0). At a dozen
// places along a tread, both rigs: no hover, and the lower body pitched within 10 degrees of the
// noses' line.
static void test_prone_stairs_are_no_roof(void)
{
	for (int rig = 0; rig < 2; ++rig)
	{
		Fixture f;
		fixtureInit(&f, (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneStairs, 0.0f);
		const lbSceneDef sp = lbDefaultSceneDef(lb_sceneStairs);
		const float noses = atanf(sp.riser / sp.tread);
		lbProneDef def = lbDefaultProneDef();
		int checked = 0;
		for (int k = 0; k < 12; ++k)
		{
			const float x = sp.distance + 4.5f * sp.tread + sp.tread * (float)k / 12.0f;
			const float z = sp.riser * floorf((x - sp.distance) / sp.tread + 1.0f);
			lbProneState st;
			lbProneState_Reset(&st);
			lbProneTargets t = senseOnce(&f, &st, &def, place(&f, lbVec3_axisX, lbMakeVec3(x, 0.0f, z)), 3);
			ENSURE(t.centreHit && t.lowerHit && t.upperHit);
			if (t.hover != 0.0f || lbAbsF(t.lowerPitch - noses) > 10.0f * LB_DEG2RAD)
				printf("  rig %d at x %.3f: roof lift %d hover %.3f lower pitch %.1f (noses %.1f)\n", rig, (double)x,
					   t.roofLift, (double)t.hover, (double)(t.lowerPitch * LB_RAD2DEG), (double)(noses * LB_RAD2DEG));
			ENSURE(t.hover == 0.0f);
			ENSURE(lbAbsF(t.lowerPitch - noses) <= 10.0f * LB_DEG2RAD);
			++checked;
		}
		ENSURE(checked == 12);
		fixtureFree(&f);
	}
}

// Depth (m) of a capsule a-b of radius r into stairs (x along, z up; step k spans
// [d + k t, d + (k + 1) t] with its top at (k + 1) r'): the deepest of each nose's (the top's near
// edge, (d + k t, (k + 1) r')) distance inside the capsule and each tread's height over the axis
// less the radius, sampled along the axis every 5 mm.
static float stairsCapsuleDepth(lbVec3 a, lbVec3 b, float r, float d, float t, float riser, int count)
{
	float deepest = 0.0f;
	for (int k = 0; k < count; ++k)
	{
		lbVec3 nose = lbMakeVec3(d + (float)k * t, a.y, (float)(k + 1) * riser);
		lbVec3 ab = lbSub(b, a);
		float s = lbClampF(lbDot(lbSub(nose, a), ab) / lbDot(ab, ab), 0.0f, 1.0f);
		deepest = lbMaxF(deepest, r - lbDistance(nose, lbLerp(a, b, s)));
	}
	for (int i = 0; i <= 200; ++i)
	{
		lbVec3 p = lbLerp(a, b, (float)i / 200.0f);
		int k = (int)floorf((p.x - d) / t);
		float top = k < 0 ? 0.0f : (float)(lbMinF((float)k, (float)(count - 1)) + 1.0f) * riser;
		deepest = lbMaxF(deepest, top - (p.z - r));
	}
	return deepest;
}

// Height (m) of stairs `sp` at x (step k spans [d + k t, d + (k + 1) t], its top at (k + 1) riser).
static float stairsTop(const lbSceneDef* sp, float x)
{
	const float k = floorf((x - sp->distance) / sp->tread);
	return k < 0.0f ? 0.0f : (lbMinF(k, sp->count - 1.0f) + 1.0f) * sp->riser;
}

// The slope (rad) a straight torso from the pelvis p to the neck n (x along the flight, z up), of
// radius r, rests on over stairs `sp`, found by brute force: the stairs' heights every 2 mm under the
// torso and a radius past each end (past an end, not those over the axis's line: they face the end),
// the upper convex hull of them by trying every pair of samples for a line with none above it, and
// the hull's edge under the middle; within 1.25 cm of a corner, the side nearer `pitch`.
static float stairsSupport(const lbSceneDef* sp, lbVec3 p, lbVec3 n, float r, float pitch)
{
	enum { kMax = 600 };
	float xs[kMax], zs[kMax];
	int count = 0;
	const float slope = (n.z - p.z) / (n.x - p.x);
	for (float x = p.x - r; x <= n.x + r && count < kMax; x += 0.002f)
	{
		const float z = stairsTop(sp, x);
		if ((x < p.x || x > n.x) && z > p.z + (x - p.x) * slope)
			continue;
		xs[count] = x;
		zs[count++] = z;
	}
	const float mid = 0.5f * (p.x + n.x);
	float best = 0.0f;
	bool any = false;
	for (int i = 0; i < count; ++i)
		for (int j = i + 1; j < count; ++j)
		{
			if (xs[i] > mid + 0.0125f || xs[j] < mid - 0.0125f)
				continue;
			const float s = (zs[j] - zs[i]) / (xs[j] - xs[i]);
			bool below = true;
			for (int k = 0; k < count && below; ++k)
				below = zs[k] <= zs[i] + s * (xs[k] - xs[i]) + 1.0e-5f;
			if (below && (!any || lbAbsF(atanf(s) - pitch) < lbAbsF(best - pitch)))
				best = atanf(s);
			any = any || below;
		}
	ENSURE(any);
	return best;
}

// Lying up a flight of steps, the flight is found (its tread and riser) and the torso takes the line
// it rests on: a slope from the centre contact counts whole risers over the ahead or behind cast's
// length (on 0.149 x 0.342 m stairs, the body's middle over the middle of a tread, 28.4 and 21.7
// degrees against the noses' 23.5), the line between the ahead and behind contacts depends on where
// the treads fall under them, and on deep treads a straight torso whose middle lies past a nose rests
// on that tread (25-33 degrees off the noses' line). At 12 places along a tread, both rigs, on
// ordinary and deep treads: the step found is the flight's within 1 mm; the fitted torso (pelvis to
// neck) lies within 0.5 degrees of the line it rests on under its middle (brute force), or its neck's
// end rests against the next riser (within 5 mm: a torso tipping forward over the nose before its
// middle is stopped by it); the legs take the noses' line; and where the torso spans the nose past its
// middle (every place on 0.18 x 0.28 and 0.149 x 0.342 m stairs) the torso takes the noses' line
// within 0.1 degree.
static void test_prone_pitch_along_a_flight(void)
{
	// The last two rise 43.1 and 40.3 degrees, past the 35-degree caps the pitches had (the torso 8
	// degrees off the noses' line, the behind cast finding nothing 0.6 m down and the legs level).
	const float sizes[6][2] = { { 0.18f, 0.28f },	{ 0.149f, 0.342f }, { 0.171f, 0.374f },
								{ 0.208f, 0.365f }, { 0.237f, 0.253f }, { 0.225f, 0.265f } };
	for (int rig = 0; rig < 2; ++rig)
		for (int size = 0; size < 6; ++size)
		{
			Fixture f;
			const lbSceneDef sp = fixtureInitStairs(&f, (lbReferenceRig)rig, sizes[size][0], sizes[size][1]);
			lbProneDef def = lbDefaultProneDef();
			const float noses = atanf(sp.riser / sp.tread);
			const float torsoR = 0.055f * f.h.height;
			int onNoses = 0, resting = 0, stopped = 0;
			for (int k = 0; k < 12; ++k)
			{
				const float x = sp.distance + 4.5f * sp.tread + sp.tread * (float)k / 12.0f;
				const lbTransform cw = place(&f, lbVec3_axisX, lbMakeVec3(x, 0.0f, stairsTop(&sp, x)));
				lbProneState st;
				lbProneState_Reset(&st);
				lbProneTargets t = senseOnce(&f, &st, &def, cw, 3);
				if (st.flightFound != 1)
					printf("  rig %d, %.3f x %.3f m at x %.3f: no flight found\n", rig, (double)sp.riser, (double)sp.tread, (double)x);
				ENSURE(st.flightFound == 1);
				ENSURE_NEAR(st.flightStepWs.x, sp.tread, 1e-3);
				ENSURE_NEAR(st.flightStepWs.z, sp.riser, 1e-3);
				ENSURE_NEAR(st.flightStepWs.y, 0.0f, 1e-3);
				ENSURE_NEAR(t.lowerPitch, noses, 1e-3);
				lbPose_Copy(&f.pose, &f.anim);
				ENSURE(lbProneApplyPose(&t, &def, f.skel, &f.h, &f.pose, NULL) == lb_ok);
				const lbVec3 pel = lbTransformPoint(cw, f.pose.model[f.h.pelvis].p);
				const lbVec3 neck = lbTransformPoint(cw, f.pose.model[f.h.neck].p);
				const float pitch = atan2f(neck.z - pel.z, neck.x - pel.x);
				const float support = stairsSupport(&sp, pel, neck, torsoR, pitch);
				// The riser past the neck, and the neck's end sphere's clearance from its face.
				const float rx = sp.distance + sp.tread * ceilf((neck.x - sp.distance) / sp.tread);
				const float rz = stairsTop(&sp, rx + 0.5f * sp.tread);
				const float dz = neck.z - lbClampF(neck.z, rz - sp.riser, rz);
				const float clear = sqrtf((rx - neck.x) * (rx - neck.x) + dz * dz) - torsoR;
				// The noses either side of the torso's middle both under it (the one before it past the
				// pelvis's end, the one past it before the neck): the torso lies on the noses' line.
				const float past = sp.distance + sp.tread * ceilf((0.5f * (pel.x + neck.x) - sp.distance) / sp.tread);
				const bool rests = lbAbsF(pitch - support) <= 1.5f * LB_DEG2RAD;
				if (!rests && lbAbsF(clear) > 0.03f)
					printf("  rig %d, %.3f x %.3f m at x %.3f: torso %.2f degrees (%.2f fitted, %.2f on the flight), rests on "
						   "%.2f, end %.4f m from the riser\n",
						   rig, (double)sp.riser, (double)sp.tread, (double)x, (double)(pitch * LB_RAD2DEG),
						   (double)(t.upperPitch * LB_RAD2DEG), (double)(st.flightPitch * LB_RAD2DEG),
						   (double)(support * LB_RAD2DEG), (double)clear);
				ENSURE(rests || lbAbsF(clear) <= 0.03f);
				resting += rests;
				stopped += !rests;
				if (past - sp.tread >= pel.x - torsoR && past <= neck.x)
				{
					ENSURE(lbAbsF(st.flightPitch - noses) <= 0.1f * LB_DEG2RAD);
					++onNoses;
				}
			}
			printf("  rig %d, %.3f x %.3f m: %d of 12 within 1.5 degrees of the line they rest on (%d on the noses' line), %d "
				   "stopped by a riser\n",
				   rig, (double)sp.riser, (double)sp.tread, resting, onNoses, stopped);
			ENSURE(size >= 2 || onNoses >= 6);
			fixtureFree(&f);
		}
}

// A single step is no flight: lying across the edge of a 0.3 m drop, head down it or up it, with
// the body's middle at 12 places about the edge, no flight is found and the pitches are the casts'.
static void test_prone_single_step_is_no_flight(void)
{
	for (int rig = 0; rig < 2; ++rig)
	{
		Fixture f;
		fixtureInit(&f, (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneStepDown, 0.0f);
		const lbSceneDef sp = lbDefaultSceneDef(lb_sceneStepDown);
		lbProneDef def = lbDefaultProneDef();
		for (int way = 0; way < 2; ++way)
			for (int k = 0; k < 12; ++k)
			{
				const float x = sp.distance - 0.3f + 0.6f * (float)k / 11.0f;
				const lbVec3 heading = way == 0 ? lbVec3_axisX : lbNeg(lbVec3_axisX);
				lbProneState st;
				lbProneState_Reset(&st);
				lbProneTargets t =
					senseOnce(&f, &st, &def, place(&f, heading, lbMakeVec3(x, 0.0f, x < sp.distance ? 0.0f : -sp.drop)), 3);
				ENSURE(t.centreHit);
				ENSURE(st.flightFound == 0);
				ENSURE(st.flightPitch == 0.0f);
			}
		fixtureFree(&f);
	}
}

// The body placed at the k-th of 12 places along the fifth tread of `sp`, sensed from rest and
// posed into f->pose; returns the character's transform.
static lbTransform fitAlongTread(Fixture* f, const lbSceneDef* sp, const lbProneDef* def, int k, lbProneTargets* outT)
{
	const float x = sp->distance + 4.5f * sp->tread + sp->tread * (float)k / 12.0f;
	const float z = sp->riser * floorf((x - sp->distance) / sp->tread + 1.0f);
	const lbTransform cw = place(f, lbVec3_axisX, lbMakeVec3(x, 0.0f, z));
	lbProneState st;
	lbProneState_Reset(&st);
	*outT = senseOnce(f, &st, def, cw, 3);
	lbPose_Copy(&f->pose, &f->anim);
	ENSURE(lbProneApplyPose(outT, def, f->skel, &f->h, &f->pose, NULL) == lb_ok);
	return cw;
}

// A held foot at the back of a tread, its toes across the nose of the step above: neither the ankle's
// nor the toes' downward probe meets the nose (on 0.149 x 0.342 m stairs the foot went 3.7 cm into it,
// 4.1 cm on the mixamo rig). Over a tread's length, both rigs: each foot, from its ankle to its toes
// with the toes' probe radius, stays out of the steps within 1 cm.
static void test_prone_held_foot_off_the_nose(void)
{
	for (int rig = 0; rig < 2; ++rig)
	{
		Fixture f;
		const lbSceneDef sp = fixtureInitStairs(&f, (lbReferenceRig)rig, 0.149f, 0.342f);
		lbProneDef def = lbDefaultProneDef();
		float worst = 0.0f;
		int held = 0;
		for (int k = 0; k < 12; ++k)
		{
			lbProneTargets t;
			const lbTransform cw = fitAlongTread(&f, &sp, &def, k, &t);
			for (int side = 0; side < 2; ++side)
			{
				held += t.limbs[2 + side].locked ? 1 : 0;
				lbVec3 toeMs;
				float r;
				ENSURE(lbProneProbePoint(&f.h, &def, &f.pose, (lbProneProbe)(lb_proneToeL + side), &toeMs, &r));
				const lbVec3 ankle = lbTransformPoint(cw, f.pose.model[f.h.leg[side].foot].p);
				const lbVec3 toe = lbTransformPoint(cw, toeMs);
				worst = lbMaxF(worst, stairsCapsuleDepth(ankle, toe, r, sp.distance, sp.tread, sp.riser, (int)sp.count));
			}
		}
		printf("  rig %d: feet at most %.4f m into the steps (%d of 24 held)\n", rig, (double)worst, held);
		ENSURE(held > 0);
		ENSURE(worst <= 0.01f);
		fixtureFree(&f);
	}
}

// A stair's nose between two torso probes: their 5 cm spheres, 11 cm apart along the torso, each meet
// their own tread, and the nose between went unseen (on 0.149 x 0.342 m stairs the torso went 2 cm
// into it). Over a tread's length, both rigs: the fitted torso stays out of the noses within 1 cm.
static void test_prone_nose_between_torso_probes(void)
{
	// On a flight found the noses themselves keep the torso off: a nose taken in the middle of where
	// it may lie between two probes sank the torso up to half that span's rise (2.6 cm on 0.201 x
	// 0.313, 0.212 x 0.31 and 0.229 x 0.302 m stairs).
	const float sizes[4][2] = { { 0.149f, 0.342f }, { 0.201f, 0.313f }, { 0.212f, 0.31f }, { 0.229f, 0.302f } };
	for (int rig = 0; rig < 2; ++rig)
		for (int size = 0; size < 4; ++size)
	{
		Fixture f;
		const lbSceneDef sp = fixtureInitStairs(&f, (lbReferenceRig)rig, sizes[size][0], sizes[size][1]);
		lbProneDef def = lbDefaultProneDef();
		const float torsoR = 0.055f * f.h.height;
		float worst = 0.0f;
		for (int k = 0; k < 12; ++k)
		{
			lbProneTargets t;
			const lbTransform cw = fitAlongTread(&f, &sp, &def, k, &t);
			lbVec3 pel = lbTransformPoint(cw, f.pose.model[f.h.pelvis].p);
			lbVec3 neck = lbTransformPoint(cw, f.pose.model[f.h.neck].p);
			worst = lbMaxF(worst, stairsCapsuleDepth(pel, neck, torsoR, sp.distance, sp.tread, sp.riser, (int)sp.count));
		}
		printf("  rig %d, %.3f x %.3f m: torso at most %.4f m into the noses\n", rig, (double)sp.riser, (double)sp.tread,
			   (double)worst);
		ENSURE(worst <= 0.005f);
		fixtureFree(&f);
	}
}

static void test_prone_bad_input(void)
{
	Fixture f;
	fixtureInit(&f, lb_rigMannequin, lbVec3_axisZ, lbVec3_axisX, lb_sceneFlat, 0.0f);
	lbProneDef def = lbDefaultProneDef();
	lbProneState st;
	lbProneState_Reset(&st);
	lbTransform cw = place(&f, lbVec3_axisX, lbVec3_zero);
	lbProneTargets t = senseOnce(&f, &st, &def, cw, 2);
	lbProneState before = st;
	lbProneTargets tb = t;
	lbProneSenseInput in = lbDefaultProneSenseInput();
	in.query = &f.query;
	in.characterWs = cw;
	in.animPose = &f.anim;
	in.dt = 1.0f / 60.0f;
	lbSetLogFcn(NULL, NULL);
	ENSURE(lbProneSense(NULL, &def, f.skel, &f.h, &in, &t) == lb_errorNullPointer);
	lbProneDef raw;
	memset(&raw, 0, sizeof raw);
	ENSURE(lbProneSense(&st, &raw, f.skel, &f.h, &in, &t) == lb_errorDefNotInitialized);
	lbProneDef badDef = def;
	badDef.traceRadius = -1.0f;
	ENSURE(lbProneSense(&st, &badDef, f.skel, &f.h, &in, &t) == lb_errorInvalidArgument);
	badDef = def;
	badDef.maxRoll = NAN;
	ENSURE(lbProneSense(&st, &badDef, f.skel, &f.h, &in, &t) == lb_errorInvalidArgument);
	// The def's non-negative values are checked on their bits (several at a time where they follow one
	// another): every kind of float at the edges, in the first and last field of each run of them
	// and in fields on their own.
	{
		const size_t fields[] = { offsetof(lbProneDef, traceRadius),     offsetof(lbProneDef, maxLowerPitch),
								  offsetof(lbProneDef, hoverLimit),      offsetof(lbProneDef, heightSpeed),
								  offsetof(lbProneDef, clearance),       offsetof(lbProneDef, maxShift),
								  offsetof(lbProneDef, lockSpeed),       offsetof(lbProneDef, recastDistance),
								  offsetof(lbProneDef, probeReach),      offsetof(lbProneDef, probeCastRadius) };
		const float refused[] = { -NAN, NAN, INFINITY, -INFINITY, -1.0e-40f, -FLT_MIN, -FLT_MAX };
		const float accepted[] = { -0.0f, 0.0f, 1.0e-40f, FLT_MAX };
		for (size_t j = 0; j < sizeof fields / sizeof fields[0]; ++j)
		{
			for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i)
			{
				badDef = def;
				memcpy((char*)&badDef + fields[j], &refused[i], sizeof(float));
				ENSURE(lbProneSense(&st, &badDef, f.skel, &f.h, &in, &t) == lb_errorInvalidArgument);
			}
			for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; ++i)
			{
				lbProneState fresh = st;
				lbProneTargets ok;
				badDef = def;
				memcpy((char*)&badDef + fields[j], &accepted[i], sizeof(float));
				ENSURE(lbProneSense(&fresh, &badDef, f.skel, &f.h, &in, &ok) == lb_ok);
			}
		}
	}
	lbProneSenseInput bad = in;
	bad.characterWs.p.x = NAN;
	ENSURE(lbProneSense(&st, &def, f.skel, &f.h, &bad, &t) == lb_errorNonFinite);
	bad = in;
	bad.dt = INFINITY;
	ENSURE(lbProneSense(&st, &def, f.skel, &f.h, &bad, &t) == lb_errorNonFinite);
	bad = in;
	bad.query = NULL;
	ENSURE(lbProneSense(&st, &def, f.skel, &f.h, &bad, &t) == lb_errorNullPointer);
	// A scaled model frame (a rig in centimetres under 0.01, a character at 0.8 of its size) is
	// refused: the system measures the rig in metres. Rounding within 1e-3 of 1 is taken.
	const float scales[3] = { 0.01f, 0.8f, 1.002f };
	for (int k = 0; k < 3; ++k)
	{
		bad = in;
		bad.characterWs.s = lbMakeVec3(scales[k], scales[k], scales[k]);
		ENSURE(lbProneSense(&st, &def, f.skel, &f.h, &bad, &t) == lb_errorInvalidArgument);
		bad.characterWs.s = lbMakeVec3(scales[k], 1.0f, 1.0f);
		ENSURE(lbProneSense(&st, &def, f.skel, &f.h, &bad, &t) == lb_errorInvalidArgument);
	}
	{
		lbProneState near = st;
		lbProneTargets nt;
		bad = in;
		bad.characterWs.s = lbMakeVec3(1.0f, 0.9995f, 1.0004f);
		ENSURE(lbProneSense(&near, &def, f.skel, &f.h, &bad, &nt) == lb_ok);
	}
	// A non-finite bone the sense stage reads (a foot's model position, the neck's rotation).
	{
		lbPose nanAnim = lbCreatePose(f.skel);
		const int readBones[2] = { f.h.leg[0].foot, f.h.neck >= 0 ? f.h.neck : f.h.spine[f.h.spineCount - 1] };
		for (int k = 0; k < 2; ++k)
		{
			lbPose_Copy(&nanAnim, &f.anim);
			if (k == 0)
				nanAnim.model[readBones[k]].p.x = NAN;
			else
				nanAnim.model[readBones[k]].q.w = INFINITY;
			bad = in;
			bad.animPose = &nanAnim;
			ENSURE(lbProneSense(&st, &def, f.skel, &f.h, &bad, &t) == lb_errorNonFinite);
		}
		// A bone the system never reads (the head) is not refused, and nothing it writes takes the
		// NaN: the targets are those of the same pose without it.
		lbPose_Copy(&nanAnim, &f.anim);
		nanAnim.model[f.h.head].p.z = NAN;
		nanAnim.local[f.h.head].q.x = NAN;
		lbProneState stA = before, stB = before;
		lbProneTargets ta, tb2;
		bad = in;
		bad.animPose = &nanAnim;
		ENSURE(lbProneSense(&stA, &def, f.skel, &f.h, &bad, &ta) == lb_ok);
		ENSURE(lbProneSense(&stB, &def, f.skel, &f.h, &in, &tb2) == lb_ok);
		ENSURE(memcmp(&ta, &tb2, sizeof ta) == 0);
		ENSURE(memcmp(&stA, &stB, sizeof stA) == 0);
		lbDestroyPose(&nanAnim);
	}
	ENSURE(memcmp(&st, &before, sizeof st) == 0);
	ENSURE(memcmp(&t, &tb, sizeof t) == 0);
	// dt <= 0 keeps everything.
	bad = in;
	bad.dt = 0.0f;
	ENSURE(lbProneSense(&st, &def, f.skel, &f.h, &bad, &t) == lb_ok);
	ENSURE(memcmp(&st, &before, sizeof st) == 0);

	// Pose stage: bad targets, def or pose leave the pose as it was.
	lbPose_Copy(&f.pose, &f.anim);
	lbProneTargets nanT = t;
	nanT.roll = NAN;
	ENSURE(lbProneApplyPose(&nanT, &def, f.skel, &f.h, &f.pose, NULL) == lb_errorNonFinite);
	nanT = t;
	nanT.ground[lb_pronePelvis].hit = true;
	nanT.ground[lb_pronePelvis].pointWs.z = INFINITY;
	ENSURE(lbProneApplyPose(&nanT, &def, f.skel, &f.h, &f.pose, NULL) == lb_errorNonFinite);
	ENSURE(lbProneApplyPose(&t, &raw, f.skel, &f.h, &f.pose, NULL) == lb_errorDefNotInitialized);
	nanT = t;
	nanT.characterWs.s = lbMakeVec3(0.01f, 0.01f, 0.01f);
	ENSURE(lbProneApplyPose(&nanT, &def, f.skel, &f.h, &f.pose, NULL) == lb_errorInvalidArgument);
	ENSURE(lbProneApplyPose(NULL, &def, f.skel, &f.h, &f.pose, NULL) == lb_errorNullPointer);
	// A non-finite bone the fit reads or writes (a thigh's local, the pelvis's model rotation).
	lbPose nanPose = lbCreatePose(f.skel);
	lbPose_Copy(&nanPose, &f.anim);
	nanPose.local[f.h.leg[1].thigh].p.y = NAN;
	ENSURE(lbProneApplyPose(&t, &def, f.skel, &f.h, &nanPose, NULL) == lb_errorNonFinite);
	ENSURE(isnan(nanPose.local[f.h.leg[1].thigh].p.y));
	lbPose_Copy(&nanPose, &f.anim);
	nanPose.model[f.h.pelvis].q.w = INFINITY;
	ENSURE(lbProneApplyPose(&t, &def, f.skel, &f.h, &nanPose, NULL) == lb_errorNonFinite);
	for (int b = 0; b < f.skel->boneCount; ++b)
		ENSURE(b == f.h.pelvis || memcmp(&nanPose.model[b], &f.anim.model[b], sizeof(lbTransform)) == 0);
	lbDestroyPose(&nanPose);
	lbPose shortPose = f.pose;
	shortPose.boneCount -= 1;
	ENSURE(lbProneApplyPose(&t, &def, f.skel, &f.h, &shortPose, NULL) == lb_errorSkeletonMismatch);
	for (int b = 0; b < f.skel->boneCount; ++b)
		ENSURE(memcmp(&f.pose.model[b], &f.anim.model[b], sizeof(lbTransform)) == 0);
	// Nothing found below (a body over a void) still gives a finite pose.
	lbProneState_Reset(&st);
	lbTransform high = place(&f, lbVec3_axisX, lbMakeVec3(0, 0, 50));
	t = senseOnce(&f, &st, &def, high, 2);
	ENSURE(!t.centreHit);
	ENSURE(lbProneApplyPose(&t, &def, f.skel, &f.h, &f.pose, NULL) == lb_ok);
	ENSURE(lbPose_IsFinite(&f.pose));
	fixtureFree(&f);
}

static void test_prone_fades_with_the_flag_and_the_lying_torso(void)
{
	Fixture f;
	fixtureInit(&f, lb_rigMixamo, lbVec3_axisZ, lbVec3_axisX, lb_sceneFlat, 0.0f);
	lbProneDef def = lbDefaultProneDef();
	lbProneState st;
	lbProneState_Reset(&st);
	lbTransform cw = place(&f, lbVec3_axisX, lbVec3_zero);
	lbProneTargets t = senseOnce(&f, &st, &def, cw, 1);
	ENSURE(t.alpha > 0.999f);
	lbProneSenseInput in = lbDefaultProneSenseInput();
	in.query = &f.query;
	in.characterWs = cw;
	in.animPose = &f.anim;
	in.dt = 0.1f;
	in.active = false;
	ENSURE(lbProneSense(&st, &def, f.skel, &f.h, &in, &t) == lb_ok);
	// The alpha eases at a constant rate.
	ENSURE_NEAR(t.alpha, 1.0f - in.dt * def.alphaSpeed, 1e-4);
	// A standing body is not fitted whatever the flag says.
	lbPose_SetRest(&f.anim, f.skel);
	in.active = true;
	ENSURE(lbProneSense(&st, &def, f.skel, &f.h, &in, &t) == lb_ok);
	ENSURE(t.alpha == 0.0f && t.posture == lb_proneNotLying);
	lbPose_Copy(&f.pose, &f.anim);
	ENSURE(lbProneApplyPose(&t, &def, f.skel, &f.h, &f.pose, NULL) == lb_ok);
	for (int b = 0; b < f.skel->boneCount; ++b)
		ENSURE(memcmp(&f.pose.model[b], &f.anim.model[b], sizeof(lbTransform)) == 0);
	fixtureFree(&f);
}


// The animated prone pose turned about its own torso axis (through the pelvis) by `angle`: pi lays it
// on its back, pi/2 on a side.
static void turnAboutTorso(Fixture* f, float angle)
{
	const lbHumanoid* h = &f->h;
	lbVec3 pel = f->anim.model[h->pelvis].p;
	lbVec3 axis = lbNormalize(lbSub(f->anim.model[h->neck].p, pel));
	lbQuat q = lbQuatFromAxisAngle(axis, angle);
	int root = 0;
	while (f->skel->parents[root] >= 0)
		++root;
	lbTransform r = f->anim.model[root];
	r.p = lbAdd(pel, lbQuatRotate(q, lbSub(r.p, pel)));
	r.q = lbQuatNormalize(lbQuatMul(q, r.q));
	lbPose_SetBoneModel(&f->anim, f->skel, root, r, true);
}

// Lying on the back and on a side: the posture is read from the pose, and on a 20 degree slope (head
// uphill) the body on its back gets the same pitches and rests on the slope with its torso along it,
// as face down; on a side the fit runs too and the torso rests on the ground.
static void test_prone_back_and_side(void)
{
	const float angle = 20.0f * LB_DEG2RAD;
	for (int rig = 0; rig < 2; ++rig)
		for (int way = 0; way < 2; ++way)
		{
			Fixture f;
			fixtureInit(&f, (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneSlope, angle);
			turnAboutTorso(&f, way == 0 ? LB_PI : 0.5f * LB_PI);
			lbVec3 p = lbMakeVec3(3.5f, 0.0f, 3.5f * tanf(angle));
			lbTransform cw = place(&f, f.fwd, p);
			lbProneDef def = lbDefaultProneDef();
			lbProneState st;
			lbProneState_Reset(&st);
			lbProneTargets t = senseOnce(&f, &st, &def, cw, 3);
			ENSURE(t.posture == (way == 0 ? lb_proneFaceUp : lb_proneOnSide));
			ENSURE(t.alpha > 0.999f && t.centreHit && t.upperHit && t.lowerHit);
			ENSURE_NEAR(t.upperPitch * LB_RAD2DEG, 20.0f, 0.5);
			ENSURE_NEAR(t.lowerPitch * LB_RAD2DEG, 20.0f, 0.5);
			ENSURE_NEAR(t.roll * LB_RAD2DEG, 0.0f, 0.5);
			lbPose_Copy(&f.pose, &f.anim);
			lbProneResult res;
			ENSURE(lbProneApplyPose(&t, &def, f.skel, &f.h, &f.pose, &res) == lb_ok);
			ENSURE(lbPose_IsFinite(&f.pose));
			ENSURE(!res.shiftClamped);
			ENSURE(res.torsoGap >= 0.0f && res.torsoGap <= 0.02f);
			lbVec3 pel = lbTransformPoint(cw, f.pose.model[f.h.pelvis].p);
			lbVec3 neck = lbTransformPoint(cw, f.pose.model[f.h.neck].p);
			ENSURE_NEAR(slopeDeg(pel, neck, f.up, f.fwd), 20.0f, 1.5);
			// The torso's axis lies a torso radius (and the clearance) above the slope at both ends.
			const float r = 0.055f * f.h.height;
			const lbVec3 n = lbMakeVec3(-sinf(angle), 0.0f, cosf(angle));
			ENSURE_NEAR(lbDot(pel, n), r + def.clearance, 0.02);
			ENSURE_NEAR(lbDot(neck, n), r + def.clearance, 0.02);
			fixtureFree(&f);
		}
}

// Crawling up a 10 degree slope and over rocks: a hand or foot, once fully held, stays where it was
// put in the world until it is let go (its contact does not slide), and the fitted limb reaches it.
static void test_prone_crawl_holds_contacts(void)
{
	for (int rig = 0; rig < 2; ++rig)
		for (int ground = 0; ground < 2; ++ground)
		{
			Fixture f;
			const float angle = 10.0f * LB_DEG2RAD;
			fixtureInit(&f, (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, ground == 0 ? lb_sceneSlope : lb_sceneRocky,
						angle);
			if (ground == 1)
			{
				// Rocks of 0.1 m instead of the default 0.25 m rubble.
				lbDestroyWorld(f.world);
				lbWorldDef wd = lbDefaultWorldDef();
				f.world = lbCreateWorld(&wd);
				lbSceneDef sp = lbDefaultSceneDef(lb_sceneRocky);
				sp.amplitude = 0.1f;
				sp.scale = 1.5f;
				ENSURE(lbBuildScene(f.world, &sp) == lb_ok);
				f.query = lbWorld_GetQuery(f.world);
			}
			lbSceneDef sp = lbDefaultSceneDef(lb_sceneRocky);
			sp.amplitude = 0.1f;
			sp.scale = 1.5f;
			lbMotionState ms;
			lbMotionState_Init(&ms, f.skel, &f.h, lbTransform_identity);
			lbMotionDef mp = lbDefaultMotionDef(lb_motionCrawl);
			lbProneDef def = lbDefaultProneDef();
			lbProneState st;
			lbProneState_Reset(&st);
			lbProneLimbTarget prev[LB_PRONE_LIMBS];
			memset(prev, 0, sizeof prev);
			int heldFrames = 0, releases = 0;
			const float dt = 1.0f / 60.0f;
			for (int i = 0; i < 240; ++i)
			{
				lbMotion_Sample(&ms, f.skel, &f.h, &mp, dt, &f.anim);
				// The crawl's own travel (in the model's frame from where it started) heading along +x
				// from x = 2, on the ground there.
				lbTransform cw = lbTransformMul(place(&f, f.fwd, lbMakeVec3(2.0f, 0.0f, 0.0f)), ms.characterWs);
				cw.p.z = ground == 0 ? cw.p.x * tanf(angle) : lbSceneRockyHeight(&sp, cw.p.x, cw.p.y);
				lbProneSenseInput in = lbDefaultProneSenseInput();
				in.query = &f.query;
				in.characterWs = cw;
				in.animPose = &f.anim;
				in.dt = dt;
				lbProneTargets t;
				ENSURE(lbProneSense(&st, &def, f.skel, &f.h, &in, &t) == lb_ok);
				lbPose_Copy(&f.pose, &f.anim);
				ENSURE(lbProneApplyPose(&t, &def, f.skel, &f.h, &f.pose, NULL) == lb_ok);
				ENSURE(lbPose_IsFinite(&f.pose));
				for (int k = 0; k < LB_PRONE_LIMBS; ++k)
				{
					const lbProneLimbTarget* l = &t.limbs[k];
					int end = k < 2 ? f.h.arm[k].hand : f.h.leg[k - 2].foot;
					if (l->locked && prev[k].locked)
						ENSURE(lbDistance(l->endWs, prev[k].endWs) < 1.0e-5f);
					if (!l->locked && prev[k].locked)
						++releases;
					if (l->locked && l->alpha >= 1.0f)
					{
						++heldFrames;
						ENSURE(lbDistance(lbTransformPoint(cw, f.pose.model[end].p), l->endWs) < 0.02f);
					}
					prev[k] = *l;
				}
			}
			printf("  rig %d ground %d: %d held limb-frames, %d releases\n", rig, ground, heldFrames, releases);
			// The crawl plants and lifts each hand and foot several times in four seconds.
			ENSURE(heldFrames > 240);
			ENSURE(releases >= 4);
			fixtureFree(&f);
		}
}

// A map whose bone of a role lies outside the skeleton (past its last bone, or below -1) is refused
// by both stages with the state, the targets and the pose unchanged, wherever the role comes in the
// list of bones the stages read (the range is checked four bones at a time and the rest one by one).
static void recordCode(lbLogLevel level, lbResult code, const char* message, void* user)
{
	(void)level, (void)message;
	*(lbResult*)user = code;
}

// A held hand whose target lies absurdly far away, and the pose comes out finite, the other hand's
// hold solved. 3e37 m out along the character's facing stays finite in model space: no error, and
// the arm reaches straight for it. 1.6e38 m out on two axes may overflow on the way into model
// space (then the two-bone solve refuses that hand with a reported error) or not (then it is
// solved as far): either way nothing else is touched. Both rigs. (A scaled character frame took a
// target past FLT_MAX too; such a frame is now refused, test_prone_bad_input.)
static void test_prone_held_target_overflow(void)
{
	for (int rig = 0; rig < 2; ++rig)
		for (int huge = 0; huge < 2; ++huge)
		{
			Fixture f;
			fixtureInit(&f, (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneFlat, 0.0f);
			lbProneDef def = lbDefaultProneDef();
			lbProneState st;
			lbProneState_Reset(&st);
			const lbTransform cw = place(&f, lbVec3_axisX, lbVec3_zero);
			lbProneTargets t = senseOnce(&f, &st, &def, cw, 2);
			for (int k = 0; k < 2; ++k)
			{
				t.limbs[k].alpha = 1.0f;
				t.limbs[k].locked = true;
			}
			// 1.6e38 on two axes: as far as a target goes while the finiteness test's sum of the
			// targets' floats (one sum on the scalar path, four lanes with SSE) stays finite.
			t.limbs[0].endWs = huge ? lbMakeVec3(1.6e38f, -1.6e38f, 0.0f) : lbMakeVec3(3.0e37f, 0.0f, 0.0f);
			// The other hand's hold 2 cm from where the animation has it (model space), within reach.
			const lbVec3 heldMs = lbAdd(f.anim.model[f.h.arm[1].hand].p, lbMakeVec3(0.0f, 0.0f, 0.02f));
			t.limbs[1].endWs = lbTransformPoint(t.characterWs, heldMs);
			lbPose_Copy(&f.pose, &f.anim);
			lbResult logged = lb_ok;
			lbLogFcn* prevFcn;
			void* prevUser;
			lbGetLogFcn(&prevFcn, &prevUser);
			lbSetLogFcn(recordCode, &logged);
			ENSURE(lbProneApplyPose(&t, &def, f.skel, &f.h, &f.pose, NULL) == lb_ok);
			lbSetLogFcn(prevFcn, prevUser);
			ENSURE(logged == lb_ok || (huge && logged == lb_errorNonFinite));
			for (int b = 0; b < f.skel->boneCount; ++b)
				ENSURE(lbIsValidTransform(f.pose.model[b]) && lbIsValidTransform(f.pose.local[b]));
			if (!huge)
			{
				const lbVec3 shoulder = f.pose.model[f.h.arm[0].upperArm].p, hand = f.pose.model[f.h.arm[0].hand].p;
				const lbVec3 towardMs = lbNormalize(lbInvTransformDirection(t.characterWs, lbVec3_axisX));
				ENSURE(lbDot(lbNormalizeOr(lbSub(hand, shoulder), lbVec3_zero), towardMs) > 0.99f);
			}
			// The other hand reaches its held target.
			ENSURE(lbDistance(f.pose.model[f.h.arm[1].hand].p, heldMs) < 1.0e-3f);
			fixtureFree(&f);
		}
}

// The sense stage keeps each foot's sole (what the toe probes stand on) in its state: a humanoid whose
// foot length changes between frames gets the toe probes of a state that never kept one, and not
// those of the old foot.
static void test_prone_kept_sole_follows_the_humanoid(void)
{
	for (int rig = 0; rig < 2; ++rig)
	{
		Fixture f;
		fixtureInit(&f, (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneSlope, 10.0f * LB_DEG2RAD);
		lbProneDef def = lbDefaultProneDef();
		def.traceRate = 0.0f;
		def.recastDistance = 0.0f;
		def.limbLock = false; // no held foot: the toes are probed every frame
		const lbTransform cw = place(&f, f.fwd, lbMakeVec3(3.0f, 0.0f, 3.0f * tanf(10.0f * LB_DEG2RAD)));
		lbProneState kept;
		lbProneState_Reset(&kept);
		(void)senseOnce(&f, &kept, &def, cw, 3);
		ENSURE(kept.soleMade == 3u);
		lbProneState fresh = kept, old = kept;
		fresh.soleMade = 0u;
		const lbHumanoid h0 = f.h;
		for (int side = 0; side < 2; ++side)
			f.h.legAxes[side].footLength *= 1.3f;
		const lbProneTargets tk = senseOnce(&f, &kept, &def, cw, 1);
		const lbProneTargets tf = senseOnce(&f, &fresh, &def, cw, 1);
		f.h = h0;
		const lbProneTargets to = senseOnce(&f, &old, &def, cw, 1);
		for (int side = 0; side < 2; ++side)
		{
			const int k = lb_proneToeL + side;
			ENSURE(tk.ground[k].hit && tf.ground[k].hit && to.ground[k].hit);
			ENSURE(memcmp(&tk.ground[k], &tf.ground[k], offsetof(lbProneGround, hit)) == 0);
			// The longer foot's toes lie further along it: not the old foot's ground.
			ENSURE(lbDistance(tk.ground[k].pointWs, to.ground[k].pointWs) > 1.0e-3f);
		}
		fixtureFree(&f);
	}
}

static void test_prone_rig_bone_out_of_range(void)
{
	for (int rig = 0; rig < 2; ++rig)
	{
		Fixture f;
		fixtureInit(&f, (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneFlat, 0.0f);
		lbProneDef def = lbDefaultProneDef();
		lbProneState st;
		lbProneState_Reset(&st);
		lbTransform cw = place(&f, lbVec3_axisX, lbVec3_zero);
		lbProneTargets t = senseOnce(&f, &st, &def, cw, 2);
		const int n = f.skel->boneCount;
		const int values[3] = { n, n + 7, -5 };
		for (int role = 0; role < 5; ++role)
			for (int v = 0; v < 3; ++v)
			{
				lbHumanoid bad = f.h;
				int* field = role == 0 ? &bad.neck
							 : role == 1 ? &bad.arm[0].upperArm
							 : role == 2 ? &bad.spine[0]
							 : role == 3 ? &bad.arm[1].hand
										 : &bad.leg[1].foot;
				*field = values[v];
				lbProneState stBefore = st;
				lbProneTargets tOut = t, tBefore = t;
				lbProneSenseInput in = lbDefaultProneSenseInput();
				in.query = &f.query;
				in.characterWs = cw;
				in.animPose = &f.anim;
				in.dt = 1.0f / 60.0f;
				ENSURE(lbProneSense(&st, &def, f.skel, &bad, &in, &tOut) != lb_ok);
				ENSURE(memcmp(&st, &stBefore, sizeof st) == 0);
				ENSURE(memcmp(&tOut, &tBefore, sizeof tOut) == 0);
				lbPose_Copy(&f.pose, &f.anim);
				ENSURE(lbProneApplyPose(&t, &def, f.skel, &bad, &f.pose, NULL) != lb_ok);
				for (int b = 0; b < n; ++b)
					ENSURE(memcmp(&f.pose.model[b], &f.anim.model[b], sizeof(lbTransform)) == 0 &&
						   memcmp(&f.pose.local[b], &f.anim.local[b], sizeof(lbTransform)) == 0);
			}
		// The map itself still fits.
		lbPose_Copy(&f.pose, &f.anim);
		ENSURE(lbProneApplyPose(&t, &def, f.skel, &f.h, &f.pose, NULL) == lb_ok);
		fixtureFree(&f);
	}
}

// The rig's constants the sense stage hands on (lbProneTargets::rig) are those the pose stage would
// work out itself: on both rigs, over rocks and stairs, the pose from the targets is bit for bit the
// pose from the same targets with the constants zeroed or made for the other rig (both ignored), and
// each rig's are made for it.
static void test_prone_rig_plan_matches_the_rig(void)
{
	for (int scene = 0; scene < 2; ++scene)
	{
		Fixture f[2];
		lbProneTargets t[2];
		lbProneDef def = lbDefaultProneDef();
		for (int rig = 0; rig < 2; ++rig)
		{
			if (scene == 0)
				fixtureInit(&f[rig], (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneRocky, 0.0f);
			else
				(void)fixtureInitStairs(&f[rig], (lbReferenceRig)rig, 0.18f, 0.28f);
			lbProneState st;
			lbProneState_Reset(&st);
			t[rig] = senseOnce(&f[rig], &st, &def, place(&f[rig], lbVec3_axisX, lbMakeVec3(1.3f, 0.2f, 0.3f)), 3);
			ENSURE(t[rig].rig.boneCount == f[rig].skel->boneCount);
			ENSURE(t[rig].rig.fingerprint == f[rig].skel->fingerprint);
			ENSURE(t[rig].alpha > 0.5f);
		}
		for (int rig = 0; rig < 2; ++rig)
		{
			Fixture* fx = &f[rig];
			lbPose kept = lbCreatePose(fx->skel);
			lbPose_Copy(&kept, &fx->anim);
			lbProneResult rk, rz, ro;
			ENSURE(lbProneApplyPose(&t[rig], &def, fx->skel, &fx->h, &kept, &rk) == lb_ok);
			// The fit moved the pose: the comparison below is of poses the fit made.
			bool moved = false;
			for (int b = 0; b < kept.boneCount; ++b)
				moved = moved || memcmp(&kept.model[b], &fx->anim.model[b], sizeof(lbTransform)) != 0;
			ENSURE(moved);
			lbProneTargets zeroed = t[rig];
			memset(&zeroed.rig, 0, sizeof zeroed.rig);
			lbPose_Copy(&fx->pose, &fx->anim);
			ENSURE(lbProneApplyPose(&zeroed, &def, fx->skel, &fx->h, &fx->pose, &rz) == lb_ok);
			ENSURE(memcmp(fx->pose.model, kept.model, sizeof(lbTransform) * (size_t)kept.boneCount) == 0);
			ENSURE(memcmp(fx->pose.local, kept.local, sizeof(lbTransform) * (size_t)kept.boneCount) == 0);
			ENSURE(rz.shift == rk.shift && rz.shiftClamped == rk.shiftClamped && rz.torsoGap == rk.torsoGap &&
				   rz.limbLift == rk.limbLift);
			lbProneTargets other = t[rig];
			other.rig = t[1 - rig].rig;
			lbPose_Copy(&fx->pose, &fx->anim);
			ENSURE(lbProneApplyPose(&other, &def, fx->skel, &fx->h, &fx->pose, &ro) == lb_ok);
			ENSURE(memcmp(fx->pose.model, kept.model, sizeof(lbTransform) * (size_t)kept.boneCount) == 0);
			ENSURE(memcmp(fx->pose.local, kept.local, sizeof(lbTransform) * (size_t)kept.boneCount) == 0);
			ENSURE(ro.shift == rk.shift && ro.shiftClamped == rk.shiftClamped && ro.torsoGap == rk.torsoGap &&
				   ro.limbLift == rk.limbLift);
			lbDestroyPose(&kept);
		}
		fixtureFree(&f[0]);
		fixtureFree(&f[1]);
	}
}

// The sense stage copies its state's rig constants only into targets that hold another plan: one
// targets struct sensed into by two characters in turn (the two reference rigs, whose states count
// their plans alike) holds each one's plan after its sense, bit for bit, and the pose stage fits
// each with it as with targets of its own.
static void test_prone_rig_plan_copied_into_targets_holding_another(void)
{
	Fixture f[2];
	lbProneState st[2];
	lbProneTargets own[2];
	lbProneDef def = lbDefaultProneDef();
	lbProneSenseInput in[2];
	for (int rig = 0; rig < 2; ++rig)
	{
		fixtureInit(&f[rig], (lbReferenceRig)rig, lbVec3_axisZ, lbVec3_axisX, lb_sceneRocky, 0.0f);
		lbProneState_Reset(&st[rig]);
		memset(&own[rig], 0, sizeof own[rig]);
		in[rig] = lbDefaultProneSenseInput();
		in[rig].query = &f[rig].query;
		in[rig].characterWs = place(&f[rig], lbVec3_axisX, lbMakeVec3(1.3f, 0.2f, 0.3f));
		in[rig].animPose = &f[rig].anim;
		in[rig].dt = 1.0f / 60.0f;
	}
	lbProneTargets shared;
	memset(&shared, 0, sizeof shared);
	for (int frame = 0; frame < 4; ++frame)
		for (int rig = 0; rig < 2; ++rig)
		{
			// The same frame sensed from a copy of the state into the character's own targets.
			lbProneState copy = st[rig];
			ENSURE(lbProneSense(&copy, &def, f[rig].skel, &f[rig].h, &in[rig], &own[rig]) == lb_ok);
			ENSURE(lbProneSense(&st[rig], &def, f[rig].skel, &f[rig].h, &in[rig], &shared) == lb_ok);
			ENSURE(st[rig].rig.stamp == st[1 - rig].rig.stamp || frame == 0);
			ENSURE(shared.rig.fingerprint == f[rig].skel->fingerprint && shared.rig.boneCount == f[rig].skel->boneCount);
			ENSURE(memcmp(&shared.rig, &st[rig].rig, sizeof shared.rig) == 0);
			ENSURE(memcmp(&own[rig].rig, &st[rig].rig, sizeof own[rig].rig) == 0);
			lbPose kept = lbCreatePose(f[rig].skel);
			lbPose_Copy(&kept, &f[rig].anim);
			lbPose_Copy(&f[rig].pose, &f[rig].anim);
			ENSURE(lbProneApplyPose(&own[rig], &def, f[rig].skel, &f[rig].h, &kept, NULL) == lb_ok);
			ENSURE(lbProneApplyPose(&shared, &def, f[rig].skel, &f[rig].h, &f[rig].pose, NULL) == lb_ok);
			ENSURE(memcmp(f[rig].pose.model, kept.model, sizeof(lbTransform) * (size_t)kept.boneCount) == 0);
			lbDestroyPose(&kept);
		}
	fixtureFree(&f[0]);
	fixtureFree(&f[1]);
}

// Nothing assumes an axis: a body lying and one crawling on 0.18 m stairs and on a 17 degree slope
// in a world turned 0.8 rad about a skewed axis (its up, forward and every shape turned with it)
// take the turned world poses of the same bodies in the world as built, within 0.5 mm (1-3 um
// measured: rounding). Both rigs, 120 frames each.
static void test_prone_turned_world_poses_alike(void)
{
	const lbQuat turn = lbQuatFromAxisAngle(lbNormalize(lbMakeVec3(1.0f, 2.0f, 3.0f)), 0.8f);
	for (int rig = 0; rig < 2; ++rig)
		for (int kind = 0; kind < 2; ++kind)
			for (int crawl = 0; crawl < 2; ++crawl)
			{
				Fixture f[2];
				lbProneDef def[2];
				lbProneState st[2];
				lbMotionState ms;
				for (int k = 0; k < 2; ++k)
				{
					const lbVec3 up = k ? lbQuatRotate(turn, lbVec3_axisZ) : lbVec3_axisZ;
					const lbVec3 fwd = k ? lbQuatRotate(turn, lbVec3_axisX) : lbVec3_axisX;
					fixtureInit(&f[k], (lbReferenceRig)rig, up, fwd, lb_sceneFlat, 0.0f);
					lbDestroyWorld(f[k].world);
					lbWorldDef wd = lbDefaultWorldDef();
					wd.up = up;
					f[k].world = lbCreateWorld(&wd);
					lbSceneDef sp = lbDefaultSceneDef(kind ? lb_sceneSlope : lb_sceneStairs);
					sp.up = up;
					sp.forward = fwd;
					if (kind)
						sp.angle = 0.3f;
					ENSURE(lbBuildScene(f[k].world, &sp) == lb_ok);
					f[k].query = lbWorld_GetQuery(f[k].world);
					def[k] = lbDefaultProneDef();
					def[k].up = up;
					lbProneState_Reset(&st[k]);
				}
				lbMotionState_Init(&ms, f[0].skel, &f[0].h, lbTransform_identity);
				lbMotionDef mp = lbDefaultMotionDef(crawl ? lb_motionCrawl : lb_motionProne);
				float worst = 0.0f;
				for (int frame = 0; frame < 120; ++frame)
				{
					lbMotion_Sample(&ms, f[0].skel, &f[0].h, &mp, 1.0f / 60.0f, &f[0].anim);
					lbPose_Copy(&f[1].anim, &f[0].anim);
					const lbTransform cw = place(&f[0], lbVec3_axisX, lbMakeVec3(-0.5f + 0.01f * (float)frame, 0.3f, 0.0f));
					const lbTransform cws[2] = { cw, lbMakeTransform(lbQuatRotate(turn, cw.p), lbQuatMul(turn, cw.q)) };
					for (int k = 0; k < 2; ++k)
					{
						lbProneSenseInput in = lbDefaultProneSenseInput();
						in.query = &f[k].query;
						in.characterWs = cws[k];
						in.animPose = &f[k].anim;
						in.dt = 1.0f / 60.0f;
						lbProneTargets t;
						ENSURE(lbProneSense(&st[k], &def[k], f[k].skel, &f[k].h, &in, &t) == lb_ok);
						lbPose_Copy(&f[k].pose, &f[k].anim);
						ENSURE(lbProneApplyPose(&t, &def[k], f[k].skel, &f[k].h, &f[k].pose, NULL) == lb_ok);
					}
					for (int b = 0; b < f[0].skel->boneCount; ++b)
					{
						const lbVec3 a = lbQuatRotate(turn, lbTransformPoint(cws[0], f[0].pose.model[b].p));
						const float d = lbDistance(a, lbTransformPoint(cws[1], f[1].pose.model[b].p));
						worst = d > worst || d != d ? d : worst;
					}
				}
				if (!(worst <= 5.0e-4f))
					printf("  rig %d %s %s: a bone %.2f mm from the turned pose\n", rig, kind ? "slope" : "stairs",
						   crawl ? "crawling" : "lying", (double)(1000.0f * worst));
				ENSURE(worst <= 5.0e-4f);
				fixtureFree(&f[0]);
				fixtureFree(&f[1]);
			}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_prone_rig_plan_copied_into_targets_holding_another);
	RUN_TEST(test_prone_plane_of_known_slope);
	RUN_TEST(test_prone_trace_rate);
	RUN_TEST(test_prone_recast_span);
	RUN_TEST(test_prone_roof_lift);
	RUN_TEST(test_prone_roof_lift_ahead_past_the_middle);
	RUN_TEST(test_prone_foot_not_held_past_a_trench_rim);
	RUN_TEST(test_prone_stairs_are_no_roof);
	RUN_TEST(test_prone_roll_on_a_trench_rim);
	RUN_TEST(test_prone_hand_not_held_past_a_trench_rim);
	RUN_TEST(test_prone_nose_between_torso_probes);
	RUN_TEST(test_prone_held_foot_off_the_nose);
	RUN_TEST(test_prone_pitch_along_a_flight);
	RUN_TEST(test_prone_single_step_is_no_flight);
	RUN_TEST(test_prone_bad_input);
	RUN_TEST(test_prone_rig_bone_out_of_range);
	RUN_TEST(test_prone_kept_sole_follows_the_humanoid);
	RUN_TEST(test_prone_held_target_overflow);
	RUN_TEST(test_prone_fades_with_the_flag_and_the_lying_torso);
	RUN_TEST(test_prone_back_and_side);
	RUN_TEST(test_prone_crawl_holds_contacts);
	RUN_TEST(test_prone_rig_plan_matches_the_rig);
	RUN_TEST(test_prone_turned_world_poses_alike);
	TEST_MAIN_END();
}
