// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Metrics on hand-built cases with known answers, on both reference rigs, against a real lbWorld
// (boxes and heightfields): a toe 10 cm inside a riser reads 0.10, a sole half past a stair nose is
// half supported, a shin pushed 4 cm into a box reads 0.04, a knee bent backwards is an inversion...
#include "limber/metrics.h"
#include "limber/motion.h"
#include "limber/rigs.h"

#include "test_macros.h"

#include <stdlib.h>

static int lbLoggedCode = -1;

static void lbTestLog(lbLogLevel level, lbResult code, const char* message, void* user)
{
	(void)level;
	(void)message;
	(void)user;
	lbLoggedCode = (int)code;
}

typedef struct lbFixture
{
	lbSkeleton* skeleton;
	lbHumanoid humanoid;
	lbPose pose;
	lbTransform characterWs;
	lbWorld* world;
	lbMetrics* metrics;
} lbFixture;

// A box given by its world min and max corners.
static void lbAddBox(lbWorld* w, lbVec3 lo, lbVec3 hi)
{
	lbBoxDef bd = lbDefaultBoxDef();
	bd.transform = lbMakeTransform(lbMulSV(0.5f, lbAdd(lo, hi)), lbQuat_identity);
	bd.halfExtents = lbMulSV(0.5f, lbSub(hi, lo));
	ENSURE(lbWorld_AddBox(w, &bd) >= 0);
}

// Flat ground: the top of a large box at z = `height`.
static void lbAddGround(lbWorld* w, float height)
{
	lbAddBox(w, lbMakeVec3(-20.0f, -20.0f, height - 1.0f), lbMakeVec3(20.0f, 20.0f, height));
}

// (Re)creates the accumulator, seeing `world` (NULL: no query).
static void lbFixtureMetrics(lbFixture* f, lbWorld* world)
{
	lbDestroyMetrics(f->metrics);
	lbMetricsDef def = lbDefaultMetricsDef();
	def.skeleton = f->skeleton;
	def.humanoid = &f->humanoid;
	if (world)
		def.query = lbWorld_GetQuery(world);
	f->metrics = lbCreateMetrics(&def);
	ENSURE(f->metrics != NULL);
}

// The character stands in its rest pose with its soles exactly on z = 0, facing +X, whatever the
// rig's axes, over flat ground at z = 0 unless `ground` is false (an empty world to fill).
static void lbFixtureInit(lbFixture* f, lbReferenceRig rig, bool ground)
{
	memset(f, 0, sizeof *f);
	f->skeleton = lbCreateReferenceRig(rig);
	lbMapHumanoid(f->skeleton, NULL, &f->humanoid);
	f->pose = lbCreatePose(f->skeleton);
	lbQuat q = lbQuatFromTwoAxes(f->humanoid.upMs, lbVec3_axisZ, f->humanoid.forwardMs, lbVec3_axisX);
	f->characterWs = lbMakeTransform(lbVec3_zero, q);
	float lowest = 1.0e9f;
	for (int s = 0; s < 2; ++s)
		lowest = lbMinF(lowest, lbSolePointWs(&f->humanoid, &f->pose, f->characterWs, s).z);
	f->characterWs.p.z = -lowest;
	lbWorldDef worldDef = lbDefaultWorldDef();
	f->world = lbCreateWorld(&worldDef);
	if (ground)
		lbAddGround(f->world, 0.0f);
	lbFixtureMetrics(f, f->world);
}

static void lbFixtureFree(lbFixture* f)
{
	lbDestroyMetrics(f->metrics);
	lbDestroyWorld(f->world);
	lbDestroyPose(&f->pose);
	lbDestroySkeleton(f->skeleton);
}

static lbFrameMetrics lbAddFrameBase(lbFixture* f, const lbPose* base, const lbContact* contacts, int count, bool grounded,
									 bool reset)
{
	lbMetricsFrame fr = { &f->pose, f->characterWs, contacts, count, grounded, reset, 1.0f / 60.0f, base };
	lbFrameMetrics out;
	ENSURE(lbMetrics_AddFrame(f->metrics, &fr, &out) == lb_ok);
	return out;
}

static lbFrameMetrics lbAddFrame(lbFixture* f, const lbContact* contacts, int count, bool reset)
{
	return lbAddFrameBase(f, NULL, contacts, count, true, reset);
}

// World position of a sole point of the fixture's current pose.
static lbVec3 lbSoleWs(const lbFixture* f, int side, lbSolePoint k)
{
	lbSole sole = lbHumanoid_GetSole(&f->humanoid, side);
	return lbTransformPoint(f->characterWs, lbSole_PointMs(&sole, f->pose.model[f->humanoid.leg[side].foot], k));
}

static void lbRotateLocal(lbFixture* f, int bone, lbVec3 axisLocal, float deg)
{
	lbQuat r = lbQuatFromAxisAngle(axisLocal, deg * LB_DEG2RAD);
	f->pose.local[bone].q = lbQuatMul(f->pose.local[bone].q, r);
	lbPose_LocalToModel(&f->pose, f->skeleton);
}

static void SoleOnFlatGroundReadsZero(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
		ENSURE(m.planted[0] && m.planted[1]);
		ENSURE_NEAR(m.solePenetration, 0.0, 1.0e-4);
		ENSURE_NEAR(m.limbPenetration, 0.0, 1.0e-4);
		ENSURE_NEAR(m.penetration, 0.0, 1.0e-4);
		ENSURE_NEAR(m.hover, 0.0, 1.0e-4);
		ENSURE_NEAR(m.support, 1.0, 1.0e-6);
		ENSURE(m.unmeasured == lb_unmeasuredNone);
		// 2 cm into the ground (a teleport, so the feet still count as planted).
		f.characterWs.p.z -= 0.02f;
		m = lbAddFrame(&f, NULL, 0, true);
		ENSURE_NEAR(m.solePenetration, 0.02, 1.0e-4);
		ENSURE_NEAR(m.limbPenetration, 0.02, 1.0e-4);
		ENSURE_NEAR(m.hover, 0.0, 1.0e-5);
		// 2 cm above: touching (within floatContactHeight, 3 cm), the whole sole over ground.
		f.characterWs.p.z += 0.04f;
		m = lbAddFrame(&f, NULL, 0, true);
		ENSURE_NEAR(m.hover, 0.02, 1.0e-4);
		ENSURE_NEAR(m.support, 1.0, 1.0e-6);
		// 4 cm above: planted (slow, within plantedNear) but touching nothing, so bearing on
		// nothing: support unmeasured, however long it stays (its height is hover's).
		f.characterWs.p.z += 0.02f;
		m = lbAddFrame(&f, NULL, 0, true);
		ENSURE(m.planted[0] && m.planted[1]);
		ENSURE_NEAR(m.hover, 0.04, 1.0e-4);
		ENSURE_NEAR(m.solePenetration, 0.0, 1.0e-5);
		ENSURE(m.support < 0.0f && m.footSupport[0] < 0.0f && m.footSupport[1] < 0.0f);
		for (int k = 0; k < 11; ++k)
		{
			m = lbAddFrame(&f, NULL, 0, false);
			ENSURE(m.planted[0] && m.planted[1] && m.support < 0.0f);
		}
		// 30 cm above level ground: a still foot standing on air bears on nothing.
		// (Planted by staying still for plantedTime, 0.2 s, as it is over 0.1 m up.)
		f.characterWs.p.z += 0.26f;
		m = lbAddFrame(&f, NULL, 0, true);
		for (int k = 0; k < 13; ++k)
			m = lbAddFrame(&f, NULL, 0, false);
		ENSURE(m.planted[0] && m.planted[1]);
		ENSURE_NEAR(m.hover, 0.30, 1.0e-4);
		ENSURE_NEAR(m.support, 0.0, 1.0e-6);
		f.characterWs.p.z -= 0.26f;
		lbMetricsSummary s = lbMetrics_GetSummary(f.metrics);
		ENSURE_NEAR(s.solePenetrationMax, 0.02, 1.0e-4);
		ENSURE_NEAR(s.penetrationMax, 0.02, 1.0e-4);
		ENSURE_NEAR(s.hoverMax, 0.30, 1.0e-4);
		ENSURE_NEAR(s.supportMin, 0.0, 1.0e-6);
		ENSURE(s.frames == 29 && s.unmeasuredFrames == 0 && s.unmeasuredReason[0] == 0);
		// A fast-moving foot is not planted: no hover or support, but its soles are still measured.
		f.characterWs.p.x += 0.5f;
		f.characterWs.p.z -= 0.07f;
		m = lbAddFrame(&f, NULL, 0, false);
		ENSURE(!m.planted[0] && !m.planted[1]);
		ENSURE(m.hover < 0.0f && m.support < 0.0f);
		ENSURE_NEAR(m.solePenetration, 0.03, 1.0e-4);
		lbFixtureFree(&f);
	}
}

// A toe 10 cm inside a riser reads 0.10 (the true depth), not its 0.30 m under the next tread.
static void ToeInsideRiserReadsTrueDepth(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		int side = lbSoleWs(&f, 0, lb_soleToeTip).x > lbSoleWs(&f, 1, lb_soleToeTip).x ? 0 : 1;
		float tipX = lbSoleWs(&f, side, lb_soleToeTip).x, ballX = lbSoleWs(&f, side, lb_soleBall).x;
		lbAddBox(f.world, lbMakeVec3(tipX - 0.10f, -2.0f, -0.5f), lbMakeVec3(tipX + 0.28f, 2.0f, 0.30f));
		lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
		ENSURE_NEAR(m.solePenetration, 0.10, 1.0e-3);
		// The foot capsule ends at the ball (the toes bend there; their tip is a sole point): it
		// reaches as far into the riser as the ball is.
		ENSURE_NEAR(m.limbPenetration, 0.10 - (tipX - ballX), 2.0e-3);
		// Where: a toe tip as deep as the leading one (the feet may stand side by side), in the first
		// frame; the limb's deepest is the foot capsule.
		ENSURE(m.solePenetrationPoint == lb_soleToeTip && (unsigned)m.solePenetrationFoot < 2u);
		ENSURE(lbSoleWs(&f, m.solePenetrationFoot, lb_soleToeTip).x >= tipX - 1.0e-3f);
		lbMetricsSummary s = lbMetrics_GetSummary(f.metrics);
		ENSURE_NEAR(s.solePenetrationMax, 0.10, 1.0e-3);
		ENSURE(s.solePenetrationMaxFrame == 0 && s.solePenetrationMaxFoot == m.solePenetrationFoot &&
			   s.solePenetrationMaxPoint == lb_soleToeTip);
		ENSURE(s.limbPenetrationMaxFrame == 0 && s.limbPenetrationMaxSegment == lb_segmentFoot);
		// A shallower frame after it leaves the place of the deepest.
		f.characterWs.p.x -= 0.05f;
		m = lbAddFrame(&f, NULL, 0, true);
		ENSURE_NEAR(m.solePenetration, 0.05, 1.0e-3);
		s = lbMetrics_GetSummary(f.metrics);
		ENSURE(s.solePenetrationMaxFrame == 0 && s.limbPenetrationMaxFrame == 0);
		lbFixtureFree(&f);
	}
}

// A sole over a step's nose: the share of the heel-to-ball line over the tread.
static void SupportPastStairNose(void)
{
	const float shares[] = { 0.3f, 0.5f, 0.8f };
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		for (int i = 0; i < 3; ++i)
		{
			lbFixture f;
			lbFixtureInit(&f, (lbReferenceRig)rig, false);
			lbAddGround(f.world, -0.25f);
			lbVec3 heel = lbSoleWs(&f, 0, lb_soleHeel), ball = lbSoleWs(&f, 0, lb_soleBall);
			float nose = heel.x + shares[i] * (ball.x - heel.x);
			lbAddBox(f.world, lbMakeVec3(nose - 3.0f, -2.0f, -1.0f), lbMakeVec3(nose, 2.0f, 0.0f));
			lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
			ENSURE(m.planted[0] && m.planted[1]);
			ENSURE_NEAR(m.footSupport[0], shares[i], 0.051);
			ENSURE_NEAR(m.footSupport[1], shares[i], 0.051);
			ENSURE_NEAR(m.support, lbMinF(m.footSupport[0], m.footSupport[1]), 1.0e-6);
			ENSURE((unsigned)m.supportFoot < 2u && m.footSupport[m.supportFoot] == m.support);
			ENSURE_NEAR(m.hover, 0.0, 1.0e-4);
			const lbMetricsSummary s = lbMetrics_GetSummary(f.metrics);
			ENSURE_NEAR(s.supportMin, m.support, 1.0e-6);
			ENSURE(s.supportMinFrame == 0 && s.supportMinFoot == m.supportFoot);
			lbFixtureFree(&f);
		}
	}
}

// A flat sole resting on a level only by its ball and toes (the level's nose just behind the ball:
// every heel-to-ball sample short of it, over ground 0.25 m lower) or only by its heel (the level
// ending just past the heel, on the other side of a step down) bears on that level, not on the
// ground below the rest of the sole: support 0 or at most the one sample over the level. Chosen
// among the heel-to-ball samples alone, the bearing plane was the lower ground, the whole sole
// 0.25 m over it counted supported, and both read 1.
static void SupportOfASoleOnItsBallOrHeelOnly(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
		for (int heelOnly = 0; heelOnly < 2; ++heelOnly)
		{
			lbFixture f;
			lbFixtureInit(&f, (lbReferenceRig)rig, false);
			lbAddGround(f.world, -0.25f);
			const lbVec3 heel = lbSoleWs(&f, 0, lb_soleHeel), ball = lbSoleWs(&f, 0, lb_soleBall);
			ENSURE(ball.x > heel.x + 0.1f);
			if (heelOnly)
				lbAddBox(f.world, lbMakeVec3(heel.x - 3.0f, -2.0f, -1.0f), lbMakeVec3(heel.x + 0.002f, 2.0f, 0.0f));
			else
				lbAddBox(f.world, lbMakeVec3(ball.x - 0.005f, -2.0f, -1.0f), lbMakeVec3(ball.x + 3.0f, 2.0f, 0.0f));
			const lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
			ENSURE(m.planted[0] && m.planted[1]);
			ENSURE_NEAR(m.hover, 0.0, 1.0e-4);
			ENSURE(m.footSupport[0] >= 0.0f && m.footSupport[0] <= 0.1f + 1.0e-6f);
			ENSURE(m.footSupport[1] >= 0.0f && m.footSupport[1] <= 0.1f + 1.0e-6f);
			ENSURE(lbMetrics_GetSummary(f.metrics).supportMin <= 0.1f + 1.0e-6f);
			lbFixtureFree(&f);
		}
}

// On a 35 degree slope, a foot with its heel lifted 20 degrees about the ball (heel well over 5 cm
// above the slope) is still fully supported.
static void HeelLiftedOnSlopeStillSupported(void)
{
	const float slope = 35.0f * LB_DEG2RAD, lift = 20.0f * LB_DEG2RAD;
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, false);
		enum { count = 41 };
		float heights[count * count];
		for (int j = 0; j < count; ++j)
			for (int i = 0; i < count; ++i)
				heights[j * count + i] = tanf(slope) * (-5.0f + 0.25f * (float)i);
		lbHeightfieldDef hd = lbDefaultHeightfieldDef();
		hd.heights = heights;
		hd.countX = hd.countY = count;
		hd.cellSize = 0.25f;
		hd.transform = lbMakeTransform(lbMakeVec3(-5.0f, -5.0f, 0.0f), lbQuat_identity);
		ENSURE(lbWorld_AddHeightfield(f.world, &hd) >= 0);
		// Pitch the character up the slope (forward +X rises), balls on the surface, then turn it
		// about the left ball so the heels rise.
		lbQuat pitch = lbQuatFromAxisAngle(lbVec3_axisY, -slope);
		f.characterWs.q = lbQuatMul(pitch, f.characterWs.q);
		f.characterWs.p = lbQuatRotate(pitch, f.characterWs.p);
		lbVec3 ball = lbSoleWs(&f, 0, lb_soleBall);
		f.characterWs.p.z += tanf(slope) * ball.x - ball.z;
		ball = lbSoleWs(&f, 0, lb_soleBall);
		lbQuat heelUp = lbQuatFromAxisAngle(lbVec3_axisY, lift);
		f.characterWs.q = lbQuatMul(heelUp, f.characterWs.q);
		f.characterWs.p = lbAdd(ball, lbQuatRotate(heelUp, lbSub(f.characterWs.p, ball)));
		lbVec3 heel = lbSoleWs(&f, 0, lb_soleHeel);
		ENSURE(heel.z - tanf(slope) * heel.x > 0.05f);
		lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
		ENSURE(m.planted[0] && m.planted[1]);
		ENSURE_NEAR(m.footSupport[0], 1.0, 1.0e-6);
		ENSURE_NEAR(m.footSupport[1], 1.0, 1.0e-6);
		ENSURE(m.unmeasured == lb_unmeasuredNone);
		lbFixtureFree(&f);
	}
}

// A foot on its toes at the top of a rise: the ground climbs under the sole toward the toe tip and
// falls away past it, the toe tip 3-4 mm over the far face, the ball about 1 cm and the heel 4 cm
// over the rise. Every heel-to-ball sample has ground within 5 cm below it: supported, though the
// bearing point (the toe tip) has the far face's plane, which the sole turned onto it would put
// 10-15 cm over the rise under the heel.
static void ToesOnACrestSupported(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, false);
		const lbVec3 heel = lbSoleWs(&f, 0, lb_soleHeel), ball = lbSoleWs(&f, 0, lb_soleBall), tip = lbSoleWs(&f, 0, lb_soleToeTip);
		ENSURE(tip.x > ball.x + 0.02f && ball.x > heel.x + 0.1f);
		// The crest on a sample line of the grid, 4 mm behind the toe tip; the ridge runs along y.
		const float cell = 0.004f, x0 = tip.x - 0.6f;
		enum { count = 256 };
		const int crest = (int)((tip.x - 0.004f - x0) / cell);
		const float xc = x0 + (float)crest * cell, crestH = tip.z - 0.001f;
		const float rise = (crestH - (heel.z - 0.04f)) / (xc - heel.x), fall = 0.6f;
		static float heights[count * count]; // 256 KB: kept off the stack
		for (int j = 0; j < count; ++j)
			for (int i = 0; i < count; ++i)
			{
				const float x = x0 + (float)i * cell;
				heights[j * count + i] = i <= crest ? crestH - rise * (xc - x) : crestH - fall * (x - xc);
			}
		lbHeightfieldDef hd = lbDefaultHeightfieldDef();
		hd.heights = heights;
		hd.countX = hd.countY = count;
		hd.cellSize = cell;
		hd.transform = lbMakeTransform(lbMakeVec3(x0, tip.y - 0.5f * cell * (float)(count - 1), 0.0f), lbQuat_identity);
		ENSURE(lbWorld_AddHeightfield(f.world, &hd) >= 0);
		lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
		ENSURE(m.planted[0]);
		ENSURE(m.unmeasured == lb_unmeasuredNone);
		ENSURE_NEAR(m.footSupport[0], 1.0, 1.0e-6);
		ENSURE(m.solePenetration < 0.001f);
		lbFixtureFree(&f);
	}
}

// Penetration (m) of a sphere into an axis-aligned box, the analytic reference.
static float lbSphereBoxDepth(lbVec3 c, float r, lbVec3 lo, lbVec3 hi)
{
	lbVec3 q = lbMinV(lbMaxV(c, lo), hi);
	float dist = lbDistance(c, q);
	if (dist > 0.0f)
		return r - dist;
	float gap = lbMinF(lbMinF(lbMinF(c.x - lo.x, hi.x - c.x), lbMinF(c.y - lo.y, hi.y - c.y)), lbMinF(c.z - lo.z, hi.z - c.z));
	return r + gap;
}

// Deepest analytic penetration of the calves (knee to ankle) into a box.
static float lbCalvesIntoBox(const lbFixture* f, float r, lbVec3 lo, lbVec3 hi)
{
	float best = 0.0f;
	for (int s = 0; s < 2; ++s)
	{
		lbVec3 knee = lbTransformPoint(f->characterWs, f->pose.model[f->humanoid.leg[s].calf].p);
		lbVec3 ankle = lbTransformPoint(f->characterWs, f->pose.model[f->humanoid.leg[s].foot].p);
		for (int i = 0; i <= 2000; ++i)
			best = lbMaxF(best, lbSphereBoxDepth(lbLerp(ankle, knee, (float)i / 2000.0f), r, lo, hi));
	}
	return best;
}

// Both shins pushed into the front edge of a box hanging between ankle and knee.
static void ShinIntoBoxReadsCapsuleDepth(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		const float bottom = 0.15f, top = 0.42f;
		float r = lbMetricsSegmentRadius(&f.humanoid, lb_segmentCalf, 0);
		ENSURE(r > 0.02f && r < f.humanoid.legAxes[0].ankleHeight);
		// Place the face so that the analytic depth is 4 cm (bisection on the face position).
		float lo = -0.5f, hi = 0.5f;
		for (int i = 0; i < 40; ++i)
		{
			float face = 0.5f * (lo + hi);
			float d = lbCalvesIntoBox(&f, r, lbMakeVec3(face, -2.0f, bottom), lbMakeVec3(face + 1.0f, 2.0f, top));
			if (d > 0.04f)
				lo = face;
			else
				hi = face;
		}
		lbVec3 boxLo = lbMakeVec3(lo, -2.0f, bottom), boxHi = lbMakeVec3(lo + 1.0f, 2.0f, top);
		lbAddBox(f.world, boxLo, boxHi);
		lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
		ENSURE_NEAR(m.limbPenetration, 0.04, 1.5e-3);
		ENSURE_NEAR(m.solePenetration, 0.0, 1.0e-4);
		// By segment: the calves hold the depth; the rest of the body is out of the box.
		ENSURE(m.limbPenetrationBySegment[lb_segmentCalf] == m.limbPenetration);
		for (int k = 0; k < lb_segmentCount; ++k)
			ENSURE(k == lb_segmentCalf || (m.limbPenetrationBySegment[k] >= 0.0f && m.limbPenetrationBySegment[k] < 0.005f));
		// Pushed 8 cm further, the shins' axes are inside the box: depth = radius + gap.
		f.characterWs.p.x += 0.08f;
		m = lbAddFrame(&f, NULL, 0, true);
		ENSURE_NEAR(m.limbPenetration, lbCalvesIntoBox(&f, r, boxLo, boxHi), 1.5e-3);
		ENSURE(m.limbPenetration > 0.1f);
		ENSURE(m.limbPenetrationBySegment[lb_segmentCalf] == m.limbPenetration);
		lbMetricsSummary sm = lbMetrics_GetSummary(f.metrics);
		ENSURE(sm.limbPenetrationBySegmentMax[lb_segmentCalf] == sm.limbPenetrationMax);
		ENSURE(sm.limbPenetrationBySegmentMax[lb_segmentTorso] >= 0.0f && sm.limbPenetrationBySegmentMax[lb_segmentTorso] < 0.005f);
		lbFixtureFree(&f);
	}
}

// Turns the whole base pose `deg` about the model up (a root heading flip in the clip).
static void lbTurnPose(lbPose* pose, const lbSkeleton* skeleton, lbVec3 upMs, float deg)
{
	lbQuat r = lbQuatFromAxisAngle(upMs, deg * LB_DEG2RAD);
	for (int b = 0; b < skeleton->boneCount; ++b)
	{
		if (skeleton->parents[b] < 0)
		{
			pose->local[b].q = lbQuatMul(r, pose->local[b].q);
			pose->local[b].p = lbQuatRotate(r, pose->local[b].p);
		}
	}
	lbPose_LocalToModel(pose, skeleton);
}

static void AddedPopSubtractsTheBaseMotion(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		lbPose base = lbCreatePose(f.skeleton);
		lbFrameMetrics m = lbAddFrameBase(&f, &base, NULL, 0, true, false);
		ENSURE(m.addedPopDeg < 0.0f && m.sourcePopDeg < 0.0f);
		// The clip flips 180 degrees about up in one frame; the final pose follows it.
		lbTurnPose(&base, f.skeleton, f.humanoid.upMs, 180.0f);
		lbPose_Copy(&f.pose, &base);
		m = lbAddFrameBase(&f, &base, NULL, 0, true, false);
		ENSURE_NEAR(m.sourcePopDeg, 180.0, 0.05);
		ENSURE_NEAR(m.addedPopDeg, 0.0, 0.05);
		// The final thigh snaps 30 degrees where the base holds still.
		lbRotateLocal(&f, f.humanoid.leg[0].thigh, f.humanoid.legAxes[0].kneeBendThigh, 30.0f);
		m = lbAddFrameBase(&f, &base, NULL, 0, true, false);
		ENSURE_NEAR(m.addedPopDeg, 30.0, 0.05);
		ENSURE_NEAR(m.sourcePopDeg, 0.0, 0.05);
		// Where: the bone turned (its children turn with it, by no more), in the third frame.
		ENSURE(m.addedPopBone >= 0 && (m.addedPopBone == f.humanoid.leg[0].thigh || lbSkeleton_IsAncestor(f.skeleton, f.humanoid.leg[0].thigh, m.addedPopBone)));
		lbMetricsSummary s = lbMetrics_GetSummary(f.metrics);
		ENSURE_NEAR(s.addedPopMax, 30.0, 0.05);
		ENSURE_NEAR(s.sourcePopMax, 180.0, 0.05);
		ENSURE(s.addedPopMaxFrame == 2 && s.addedPopMaxBone == m.addedPopBone);
		// The character's own heading flipping (world transform) with the pose held is no pop either.
		f.characterWs.q = lbQuatMul(lbQuatFromAxisAngle(lbVec3_axisZ, LB_PI), f.characterWs.q);
		m = lbAddFrameBase(&f, &base, NULL, 0, true, false);
		ENSURE_NEAR(m.addedPopDeg, 0.0, 0.05);
		ENSURE_NEAR(m.sourcePopDeg, 180.0, 0.05);
		// Without a base pose every change is charged to the final pose.
		lbRotateLocal(&f, f.humanoid.leg[0].thigh, f.humanoid.legAxes[0].kneeBendThigh, -30.0f);
		m = lbAddFrameBase(&f, NULL, NULL, 0, true, false);
		ENSURE_NEAR(m.addedPopDeg, 30.0, 0.05);
		ENSURE(m.sourcePopDeg < 0.0f);
		lbDestroyPose(&base);
		lbFixtureFree(&f);
	}
}

// A clip hanging 0.8 m over the ground for 2 s floats; a 0.4 s jump does not.
static void FloatingOverTheGround(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		float z0 = f.characterWs.p.z;
		lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
		ENSURE_NEAR(m.floatHeight, 0.0, 1.0e-6);
		// A jump: 24 frames (0.4 s) up to 0.5 m.
		for (int i = 1; i <= 24; ++i)
		{
			f.characterWs.p.z = z0 + 0.5f * sinf(LB_PI * (float)i / 25.0f);
			lbAddFrameBase(&f, NULL, NULL, 0, false, false);
		}
		f.characterWs.p.z = z0;
		lbAddFrame(&f, NULL, 0, false);
		lbMetricsSummary s = lbMetrics_GetSummary(f.metrics);
		ENSURE(s.floatingMax == 0.0f && s.floatingTime == 0.0f);
		// 2 s at 0.8 m, still "grounded" as far as the controller knows, feet still.
		f.characterWs.p.z = z0 + 0.8f;
		for (int i = 0; i < 120; ++i)
		{
			m = lbAddFrame(&f, NULL, 0, i == 0);
			ENSURE_NEAR(m.floatHeight, 0.8, 1.0e-3);
		}
		// Its planted feet hover just as high; they still have ground under them.
		ENSURE_NEAR(m.hover, 0.8, 1.0e-3);
		s = lbMetrics_GetSummary(f.metrics);
		ENSURE_NEAR(s.floatingMax, 0.8, 1.0e-3);
		ENSURE_NEAR(s.floatingTime, 2.0, 0.02);
		ENSURE(s.unmeasuredFrames == 0);
		lbFixtureFree(&f);
	}
}

// A body lifted 0.8 m off the ground for 2 s is held up, not floating, while a hand or a foot is
// locked onto a wall beside it (a climber): the contact's point lies 1 cm from the wall along its
// normal. The same contacts locked with no wall there hold nothing, and the body floats.
static void FloatingHeldByContacts(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		for (int kind = 0; kind < 2; ++kind)
		{
			for (int wall = 0; wall < 2; ++wall)
			{
				lbFixture f;
				lbFixtureInit(&f, (lbReferenceRig)rig, true);
				f.characterWs.p.z += 0.8f;
				// A hand (out to the side in the rest pose) or a foot, and the side of the body it is on.
				const int bone = kind == 0 ? f.humanoid.arm[0].hand : f.humanoid.leg[0].foot;
				const lbVec3 p = lbTransformPoint(f.characterWs, f.pose.model[bone].p);
				const lbVec3 mid = lbTransformPoint(f.characterWs, f.pose.model[f.humanoid.pelvis].p);
				const float side = p.y > mid.y ? 1.0f : -1.0f;
				if (wall)
				{
					// The wall's face 1 cm out from the point, the wall 0.5 m thick beyond it.
					const float face = p.y + side * 0.01f, back = face + side * 0.5f;
					lbAddBox(f.world, lbMakeVec3(p.x - 0.5f, lbMinF(face, back), p.z - 0.3f),
							 lbMakeVec3(p.x + 0.5f, lbMaxF(face, back), p.z + 0.3f));
					lbFixtureMetrics(&f, f.world);
				}
				const lbContact c = { kind == 0 ? lb_contactHand : lb_contactFoot, bone, lbVec3_zero, p,
									  lbMakeVec3(0.0f, -side, 0.0f), true, false };
				lbFrameMetrics m = lbAddFrame(&f, &c, 1, true);
				for (int i = 1; i < 120; ++i)
					m = lbAddFrame(&f, &c, 1, false);
				ENSURE_NEAR(m.floatHeight, wall ? 0.0 : 0.8, 1.0e-3);
				const lbMetricsSummary sm = lbMetrics_GetSummary(f.metrics);
				ENSURE_NEAR(sm.floatingMax, wall ? 0.0 : 0.8, 1.0e-3);
				ENSURE_NEAR(sm.floatingTime, wall ? 0.0 : 2.0, 0.02);
				lbFixtureFree(&f);
			}
		}
	}
}

static void UnmeasuredFramesSayWhy(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		// No scene query: every frame is unmeasured, nothing reads 0.
		lbFixtureMetrics(&f, NULL);
		for (int i = 0; i < 3; ++i)
		{
			lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
			ENSURE(m.unmeasured == lb_unmeasuredNoQuery);
			ENSURE(m.solePenetration < 0.0f && m.limbPenetration < 0.0f && m.hover < 0.0f && m.support < 0.0f);
		}
		lbMetricsSummary s = lbMetrics_GetSummary(f.metrics);
		ENSURE(s.unmeasuredFrames == 3);
		ENSURE(strstr(s.unmeasuredReason, "query") != NULL);
		ENSURE(s.solePenetrationMax < 0.0f && s.supportMin < 0.0f);
		ENSURE(s.solePenetrationMaxFrame == -1 && s.solePenetrationMaxFoot == -1 && s.solePenetrationMaxPoint == -1);
		ENSURE(s.limbPenetrationMaxFrame == -1 && s.supportMinFrame == -1 && s.supportMinFoot == -1);
		// Planted feet over nothing (the ground is far off to the side): unmeasured, support 0.
		lbWorldDef worldDef = lbDefaultWorldDef();
		lbWorld* w = lbCreateWorld(&worldDef);
		lbAddBox(w, lbMakeVec3(10.0f, 10.0f, -1.0f), lbMakeVec3(11.0f, 11.0f, 0.0f));
		lbFixtureMetrics(&f, w);
		// Still feet with no ground near are planted once they have stood for plantedTime (0.2 s):
		// a foot pausing at the top of a swing is not, a foot standing on air is.
		lbFrameMetrics m;
		for (int i = 0; i < 11; ++i)
		{
			m = lbAddFrame(&f, NULL, 0, false);
			ENSURE(!m.planted[0] && !m.planted[1] && m.unmeasured == lb_unmeasuredNone);
		}
		m = lbAddFrame(&f, NULL, 0, false);
		ENSURE(m.planted[0] && m.planted[1]);
		ENSURE(m.unmeasured == lb_unmeasuredNoGroundUnderPlantedFoot);
		ENSURE(m.support == 0.0f && m.hover < 0.0f);
		s = lbMetrics_GetSummary(f.metrics);
		ENSURE(s.unmeasuredFrames == 1 && s.supportMin == 0.0f);
		ENSURE(strstr(s.unmeasuredReason, "planted foot") != NULL);
		lbFixtureFree(&f);
		lbDestroyWorld(w);
	}
}

static void KneeAndElbowInversions(void)
{
	lbTestRng rng = { 42 };
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		lbFrameMetrics rest = lbAddFrame(&f, NULL, 0, false);
		ENSURE(!rest.kneeInverted && !rest.elbowInverted);
		for (int i = 0; i < 400; ++i)
		{
			lbPose_SetRest(&f.pose, f.skeleton);
			int side = i & 1;
			float knee = lbTestUniform(&rng, -60.0f, 120.0f);
			float elbow = lbTestUniform(&rng, -60.0f, 120.0f);
			lbRotateLocal(&f, f.humanoid.leg[side].calf, f.humanoid.legAxes[side].kneeBendCalf, knee);
			lbRotateLocal(&f, f.humanoid.arm[side].foreArm, f.humanoid.armAxes[side].elbowBendFore, elbow);
			lbFrameMetrics m = lbAddFrame(&f, NULL, 0, true);
			ENSURE_NEAR(m.kneeAngle[side], rest.kneeAngle[side] + knee, 0.05);
			ENSURE_NEAR(m.elbowAngle[side], rest.elbowAngle[side] + elbow, 0.05);
			ENSURE(m.kneeInverted == (rest.kneeAngle[side] + knee < -2.0f));
			ENSURE(m.elbowInverted == (rest.elbowAngle[side] + elbow < -2.0f));
		}
		lbFixtureFree(&f);
	}
}

// Crossed knees: none at rest; both thighs swung in toward each other about the body's forward
// axis by a growing angle bring the knees together, and past the point where they meet the metric
// reads the right knee's lead over the left across the body. Checked against the knees' world
// positions and against the swing's geometry (each knee moves thigh length x sin(angle) inward
// from where it rests), on both reference rigs; the summary keeps the largest and counts frames.
static void KneesCrossed(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		const lbHumanoid* h = &f.humanoid;
		lbFrameMetrics rest = lbAddFrame(&f, NULL, 0, false);
		ENSURE(rest.kneeCross == 0.0f);
		const lbVec3 hipL = lbTransformPoint(f.characterWs, f.pose.model[h->leg[0].thigh].p);
		const lbVec3 hipR = lbTransformPoint(f.characterWs, f.pose.model[h->leg[1].thigh].p);
		const lbVec3 across = lbNormalize(lbSub(hipL, hipR));
		const float gap0 = lbDot(lbSub(lbTransformPoint(f.characterWs, f.pose.model[h->leg[0].calf].p),
									  lbTransformPoint(f.characterWs, f.pose.model[h->leg[1].calf].p)),
								across);
		ENSURE(gap0 > 0.05f);
		const lbQuat restL = f.pose.model[h->leg[0].thigh].q, restR = f.pose.model[h->leg[1].thigh].q;
		// The turn about forward that takes the left knee toward the right one.
		float sign = 1.0f;
		{
			lbPose_SetBoneModelRotation(&f.pose, f.skeleton, h->leg[0].thigh,
										lbQuatMul(lbQuatFromAxisAngle(h->forwardMs, 0.2f), restL), true);
			const float moved = lbDot(lbTransformPoint(f.characterWs, f.pose.model[h->leg[0].calf].p), across);
			lbPose_SetRest(&f.pose, f.skeleton);
			const float at = lbDot(lbTransformPoint(f.characterWs, f.pose.model[h->leg[0].calf].p), across);
			sign = moved < at ? 1.0f : -1.0f;
		}
		float last = 0.0f, most = 0.0f;
		int crossed = 0;
		for (int k = 0; k <= 40; ++k)
		{
			const float a = (float)k * LB_DEG2RAD;
			lbPose_SetRest(&f.pose, f.skeleton);
			lbPose_SetBoneModelRotation(&f.pose, f.skeleton, h->leg[0].thigh, lbQuatMul(lbQuatFromAxisAngle(h->forwardMs, sign * a), restL),
										true);
			lbPose_SetBoneModelRotation(&f.pose, f.skeleton, h->leg[1].thigh, lbQuatMul(lbQuatFromAxisAngle(h->forwardMs, -sign * a), restR),
										true);
			const lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
			const lbVec3 kl = lbTransformPoint(f.characterWs, f.pose.model[h->leg[0].calf].p);
			const lbVec3 kr = lbTransformPoint(f.characterWs, f.pose.model[h->leg[1].calf].p);
			const float want = lbMaxF(lbDot(lbSub(kr, kl), across), 0.0f);
			ENSURE_NEAR(m.kneeCross, want, 1.0e-5f);
			// Each knee swings in by about its thigh's length times the sine (the rest thigh is near
			// vertical, so within a centimetre).
			const float swing = 2.0f * h->legAxes[0].thighLength * sinf(a);
			ENSURE(lbAbsF(m.kneeCross - lbMaxF(swing - gap0, 0.0f)) < 0.01f + 0.05f * swing);
			ENSURE(m.kneeCross >= last);
			last = m.kneeCross;
			most = lbMaxF(most, m.kneeCross);
			crossed += m.kneeCross > 0.0f ? 1 : 0;
		}
		ENSURE(most > 0.2f && crossed > 0 && crossed < 41);
		const lbMetricsSummary sm = lbMetrics_GetSummary(f.metrics);
		ENSURE(sm.kneeCrossMax == most && sm.kneeCrossFrames == crossed);
		lbFixtureFree(&f);
	}
}

// Brute-force distance between segments a0-a1 and b0-b1: the nearest of 97 x 97 sampled points
// (never nearer than the true distance; at most half a sample step farther).
static float lbBruteSegmentDistance(lbVec3 a0, lbVec3 a1, lbVec3 b0, lbVec3 b1)
{
	float best = 1.0e30f;
	for (int i = 0; i <= 96; ++i)
		for (int j = 0; j <= 96; ++j)
			best = lbMinF(best, lbDistance(lbLerp(a0, a1, (float)i / 96.0f), lbLerp(b0, b1, (float)j / 96.0f)));
	return best;
}

// The body's overlap with itself: none at rest; over random poses (thighs swung in and out, knees,
// shoulders and elbows bent) it is the deepest of the forearms in the torso's capsules and a calf in
// the other leg's thigh or calf, each pair's radii summed less their segments' distance, as a brute
// force over sampled points reads it (within its sampling step), on both reference rigs.
static void SelfPenetration(void)
{
	lbTestRng rng = { 7 };
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		const lbHumanoid* h = &f.humanoid;
		const lbFrameMetrics rest = lbAddFrame(&f, NULL, 0, false);
		ENSURE(rest.selfPenetration == 0.0f);
		const float rt = lbMetricsSegmentRadius(h, lb_segmentTorso, 0);
		float most = 0.0f;
		int over = 0;
		for (int i = 0; i < 60; ++i)
		{
			lbPose_SetRest(&f.pose, f.skeleton);
			for (int sd = 0; sd < 2; ++sd)
			{
				const lbQuat thigh = f.pose.model[h->leg[sd].thigh].q;
				lbPose_SetBoneModelRotation(&f.pose, f.skeleton, h->leg[sd].thigh,
											lbQuatMul(lbQuatFromAxisAngle(h->forwardMs, lbTestUniform(&rng, -0.8f, 0.8f)), thigh), true);
				lbRotateLocal(&f, h->leg[sd].calf, h->legAxes[sd].kneeBendCalf, lbTestUniform(&rng, 0.0f, 120.0f));
				const lbQuat upper = f.pose.model[h->arm[sd].upperArm].q;
				const lbVec3 axis = lbNormalizeOr(lbMakeVec3(lbTestUniform(&rng, -1.0f, 1.0f), lbTestUniform(&rng, -1.0f, 1.0f),
															 lbTestUniform(&rng, -1.0f, 1.0f)),
												  h->forwardMs);
				lbPose_SetBoneModelRotation(&f.pose, f.skeleton, h->arm[sd].upperArm,
											lbQuatMul(lbQuatFromAxisAngle(axis, lbTestUniform(&rng, 0.0f, 2.6f)), upper), true);
				lbRotateLocal(&f, h->arm[sd].foreArm, h->armAxes[sd].elbowBendFore, lbTestUniform(&rng, 0.0f, 140.0f));
			}
			const lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
			// The reference, from the pose's world positions.
			lbVec3 torso[3];
			const int parts = lbMetricsTorsoParts(f.metrics, &f.pose, f.characterWs, torso);
			ENSURE(parts >= 2);
			float want = 0.0f;
			for (int sd = 0; sd < 2; ++sd)
			{
				const int o = 1 - sd;
				const lbVec3 elbow = lbTransformPoint(f.characterWs, f.pose.model[h->arm[sd].foreArm].p);
				const lbVec3 wrist = lbTransformPoint(f.characterWs, f.pose.model[h->arm[sd].hand].p);
				for (int k = 0; k + 1 < parts; ++k)
					want = lbMaxF(want, lbMetricsSegmentRadius(h, lb_segmentForeArm, sd) + rt -
											lbBruteSegmentDistance(elbow, wrist, torso[k], torso[k + 1]));
				const lbVec3 knee = lbTransformPoint(f.characterWs, f.pose.model[h->leg[sd].calf].p);
				const lbVec3 ankle = lbTransformPoint(f.characterWs, f.pose.model[h->leg[sd].foot].p);
				const lbVec3 hipO = lbTransformPoint(f.characterWs, f.pose.model[h->leg[o].thigh].p);
				const lbVec3 kneeO = lbTransformPoint(f.characterWs, f.pose.model[h->leg[o].calf].p);
				const lbVec3 ankleO = lbTransformPoint(f.characterWs, f.pose.model[h->leg[o].foot].p);
				want = lbMaxF(want, lbMetricsSegmentRadius(h, lb_segmentCalf, sd) + lbMetricsSegmentRadius(h, lb_segmentThigh, o) -
										lbBruteSegmentDistance(knee, ankle, hipO, kneeO));
				if (sd == 0)
					want = lbMaxF(want, lbMetricsSegmentRadius(h, lb_segmentCalf, 0) + lbMetricsSegmentRadius(h, lb_segmentCalf, 1) -
											lbBruteSegmentDistance(knee, ankle, kneeO, ankleO));
			}
			ENSURE(m.selfPenetration >= want - 1.0e-4f && m.selfPenetration <= want + 0.004f);
			most = lbMaxF(most, m.selfPenetration);
			over += m.selfPenetration > 0.02f ? 1 : 0;
		}
		// The poses reach into the body often and deeply enough to test it.
		ENSURE(over >= 10 && most > 0.1f);
		const lbMetricsSummary sm = lbMetrics_GetSummary(f.metrics);
		ENSURE(sm.selfPenetrationMax == most);
		lbFixtureFree(&f);
	}
}

static void ContactDriftAndPalmAngle(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		int hand = f.humanoid.arm[0].hand;
		lbTransform handWs = lbTransformMul(f.characterWs, f.pose.model[hand]);
		lbVec3 palm = lbNormalize(lbTransformDirection(handWs, f.humanoid.armAxes[0].palm));
		// The wall normal faces the palm, tilted 20 degrees.
		lbVec3 tilt = lbAnyPerpendicular(palm);
		lbVec3 normal = lbQuatRotate(lbQuatFromAxisAngle(tilt, 20.0f * LB_DEG2RAD), lbNeg(palm));
		lbContact c = { lb_contactHand, hand, lbVec3_zero, lbAdd(handWs.p, lbMakeVec3(0.0f, 0.03f, 0.04f)), normal, true, false };
		lbFrameMetrics m = lbAddFrame(&f, &c, 1, false);
		ENSURE_NEAR(m.contactDrift, 0.05, 1.0e-5);
		ENSURE_NEAR(m.palmWallAngle, 20.0, 0.01);
		// Unlocked contacts do not count.
		c.locked = false;
		m = lbAddFrame(&f, &c, 1, false);
		ENSURE(m.contactDrift < 0.0f && m.palmWallAngle < 0.0f);
		lbMetricsSummary s = lbMetrics_GetSummary(f.metrics);
		ENSURE_NEAR(s.contactDriftMax, 0.05, 1.0e-5);
		ENSURE(s.lockedContactFrames == 1);
		lbFixtureFree(&f);
	}
}

static void TouchingContactUsesItsNormal(void)
{
	lbFixture f;
	lbFixtureInit(&f, lb_rigMannequin, true);
	int pelvis = f.humanoid.pelvis;
	lbVec3 pelvisWs = lbTransformPoint(f.characterWs, f.pose.model[pelvis].p);
	// A body probe on the pelvis should touch the ground: it hovers at pelvis height.
	lbContact c = { lb_contactBody, pelvis, lbVec3_zero, lbMakeVec3(pelvisWs.x, pelvisWs.y, 0.0f), lbVec3_axisZ, false, true };
	lbFrameMetrics m = lbAddFrameBase(&f, NULL, &c, 1, false, false);
	ENSURE_NEAR(m.hover, pelvisWs.z, 1.0e-4);
	// The soles stand on the ground, so nothing floats either way.
	ENSURE_NEAR(m.floatHeight, 0.0, 1.0e-6);
	// System foot contacts no longer stand in for the soles: a foot contact far above the
	// ground changes nothing.
	lbContact foot = { lb_contactFoot, f.humanoid.leg[0].foot, lbVec3_zero, lbMakeVec3(0.0f, 0.0f, 1.0f), lbVec3_axisZ, false, true };
	m = lbAddFrame(&f, &foot, 1, false);
	ENSURE_NEAR(m.hover, 0.0, 1.0e-4);
	ENSURE_NEAR(m.penetration, 0.0, 1.0e-4);
	lbFixtureFree(&f);
}

static void PosePopAndLimits(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
		ENSURE(m.posePopDeg < 0.0f);
		ENSURE(m.limitViolations == 0);
		// Moving the whole character is root motion, not a pop.
		f.characterWs.p.x += 0.002f;
		m = lbAddFrame(&f, NULL, 0, false);
		ENSURE_NEAR(m.posePopDeg, 0.0, 1.0e-3);
		ENSURE_NEAR(m.posePopM, 0.0, 1.0e-5);
		// Turning the head 10 degrees pops the head by 10 degrees.
		int head = f.humanoid.head;
		lbRotateLocal(&f, head, f.humanoid.headUp, 10.0f);
		m = lbAddFrame(&f, NULL, 0, false);
		ENSURE_NEAR(m.posePopDeg, 10.0, 0.01);
		ENSURE(m.limitViolations == 0);
		// Past the head's 70 degree cone: one violation; a reset skips the pop.
		lbRotateLocal(&f, head, f.humanoid.headUp, 75.0f);
		m = lbAddFrame(&f, NULL, 0, true);
		ENSURE(m.posePopDeg < 0.0f);
		ENSURE(m.limitViolations == 1);
		// A knee bent past 160 degrees violates its limit as well.
		lbRotateLocal(&f, f.humanoid.leg[1].calf, f.humanoid.legAxes[1].kneeBendCalf, 170.0f);
		m = lbAddFrame(&f, NULL, 0, true);
		ENSURE(m.limitViolations == 2);
		lbMetricsSummary s = lbMetrics_GetSummary(f.metrics);
		ENSURE(s.limitViolations == 2);
		ENSURE(s.sourceLimitViolations == 0); // no base pose: the source is not measured
		ENSURE(m.sourceLimitViolations == -1);
		ENSURE_NEAR(s.posePopMax, 10.0, 0.01);
		lbFixtureFree(&f);
	}
}

// The base motion's own out-of-range joints are counted apart from the output's: a source with
// a knee past its limit that the system straightened counts as the source's, not the output's.
static void SourceLimitViolations(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		lbPose base = lbCreatePose(f.skeleton);
		lbPose_Copy(&base, &f.pose);
		lbFrameMetrics m = lbAddFrameBase(&f, &base, NULL, 0, true, false);
		ENSURE(m.limitViolations == 0 && m.sourceLimitViolations == 0);
		// The source bends the left knee to 170 degrees; the output keeps it straight.
		int calf = f.humanoid.leg[0].calf;
		lbQuat r = lbQuatFromAxisAngle(f.humanoid.legAxes[0].kneeBendCalf, 170.0f * LB_DEG2RAD);
		base.local[calf].q = lbQuatMul(base.local[calf].q, r);
		lbPose_LocalToModel(&base, f.skeleton);
		m = lbAddFrameBase(&f, &base, NULL, 0, true, true);
		ENSURE(m.limitViolations == 0 && m.sourceLimitViolations == 1);
		// Both bend it: one violation each.
		lbRotateLocal(&f, calf, f.humanoid.legAxes[0].kneeBendCalf, 170.0f);
		m = lbAddFrameBase(&f, &base, NULL, 0, true, true);
		ENSURE(m.limitViolations == 1 && m.sourceLimitViolations == 1);
		lbMetricsSummary s = lbMetrics_GetSummary(f.metrics);
		ENSURE(s.limitViolations == 1 && s.sourceLimitViolations == 2);
		lbDestroyPose(&base);
		lbFixtureFree(&f);
	}
}

// The forearm tilted out of the elbow's hinge plane: 30 degrees is tolerated, 40 is a violation.
static void ElbowOffPlaneLimit(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig, true);
		const lbArmAxes* ax = &f.humanoid.armAxes[1];
		lbVec3 tilt = lbCross(ax->foreAlong, ax->elbowBendFore);
		int fore = f.humanoid.arm[1].foreArm;
		lbRotateLocal(&f, fore, tilt, 30.0f);
		lbFrameMetrics m = lbAddFrame(&f, NULL, 0, true);
		ENSURE(m.limitViolations == 0);
		lbRotateLocal(&f, fore, tilt, 10.0f);
		m = lbAddFrame(&f, NULL, 0, true);
		ENSURE(m.limitViolations == 1);
		lbFixtureFree(&f);
	}
}

static void NonFiniteFramesCountAndAreSkipped(void)
{
	lbFixture f;
	lbFixtureInit(&f, lb_rigMixamo, true);
	lbAddFrame(&f, NULL, 0, false);
	f.pose.model[3].p.x = NAN;
	lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
	ENSURE(m.nonFinite);
	lbPose_LocalToModel(&f.pose, f.skeleton);
	lbContact c = { lb_contactFoot, 0, lbVec3_zero, lbMakeVec3(INFINITY, 0.0f, 0.0f), lbVec3_axisZ, true, true };
	m = lbAddFrame(&f, &c, 1, false);
	ENSURE(m.nonFinite);
	m = lbAddFrame(&f, NULL, 0, false);
	ENSURE(!m.nonFinite);
	ENSURE_NEAR(m.posePopDeg, 0.0, 1.0e-3);
	lbMetricsSummary s = lbMetrics_GetSummary(f.metrics);
	ENSURE(s.nanFrames == 2);
	ENSURE(s.frames == 4);
	lbFixtureFree(&f);
}

// A body lying face down on flat ground with a touching body contact: the torso's height is the
// capsule's lowest point above the ground, pitch and roll errors are the tilts given to the torso
// beyond the ground's (the roll beyond the base pose's own); without a body contact nothing is measured.
// The fixture in the procedural crawl's first pose with the character at the origin, and a
// touching body contact at the pelvis (the system says the torso rests). *outLift: the height
// (m) to set the character at for its torso's lowest point to lie on the ground (z = 0).
static lbContact lbLyingFixture(lbFixture* f, int rig, float* outLift)
{
	lbFixtureInit(f, (lbReferenceRig)rig, true);
	lbMotionState ms;
	lbMotionState_Init(&ms, f->skeleton, &f->humanoid, lbTransform_identity);
	lbMotionDef mp = lbDefaultMotionDef(lb_motionProne);
	ENSURE(lbMotion_Sample(&ms, f->skeleton, &f->humanoid, &mp, 1.0f / 60.0f, &f->pose) == lb_ok);
	const lbHumanoid* h = &f->humanoid;
	f->characterWs.p = lbVec3_zero;
	const float low = lbMinF(lbTransformPoint(f->characterWs, f->pose.model[h->pelvis].p).z,
							 lbTransformPoint(f->characterWs, f->pose.model[h->neck].p).z);
	*outLift = lbMetricsSegmentRadius(h, lb_segmentTorso, 0) - low;
	return (lbContact){ .kind = lb_contactBody, .bone = h->pelvis, .normalWs = lbVec3_axisZ, .touching = true };
}

static void LyingTorsoAgainstTheGround(void)
{
	for (int rig = 0; rig < 2; ++rig)
	{
		lbFixture f;
		float lift;
		lbContact c = lbLyingFixture(&f, rig, &lift);
		const lbHumanoid* h = &f.humanoid;
		f.characterWs.p.z = lift + 0.05f;
		c.targetWs = lbTransformPoint(f.characterWs, f.pose.model[h->pelvis].p);
		lbPose base = lbCreatePose(f.skeleton);
		lbPose_Copy(&base, &f.pose);
		lbFrameMetrics m = lbAddFrameBase(&f, &base, &c, 1, false, false);
		ENSURE_NEAR(m.torsoHeight, 0.05, 2.0e-3);
		ENSURE_NEAR(m.torsoPitchError, 0.0, 0.5);
		ENSURE_NEAR(m.torsoRollError, 0.0, 0.5);
		f.characterWs.p.z += 0.1f;
		m = lbAddFrameBase(&f, &base, &c, 1, false, false);
		ENSURE_NEAR(m.torsoHeight, 0.15, 2.0e-3);
		// Pitched 8 degrees (the whole character turned about its left) over flat ground.
		lbTransform flat = f.characterWs;
		f.characterWs.q = lbQuatMul(lbQuatFromAxisAngle(lbVec3_axisY, -8.0f * LB_DEG2RAD), flat.q);
		m = lbAddFrameBase(&f, &base, &c, 1, false, false);
		ENSURE_NEAR(m.torsoPitchError, 8.0, 0.5);
		f.characterWs = flat;
		// Rolled 10 degrees about the body's axis beyond the base pose.
		lbVec3 axisMs = lbNormalize(lbProjectOnPlane(lbSub(f.pose.model[h->neck].p, f.pose.model[h->pelvis].p), h->upMs));
		lbQuat q = lbQuatMul(lbQuatFromAxisAngle(axisMs, 10.0f * LB_DEG2RAD), f.pose.model[h->pelvis].q);
		lbPose_SetBoneModelRotation(&f.pose, f.skeleton, h->pelvis, q, true);
		m = lbAddFrameBase(&f, &base, &c, 1, false, false);
		ENSURE_NEAR(m.torsoRollError, 10.0, 0.5);
		m = lbAddFrameBase(&f, &base, NULL, 0, false, false);
		ENSURE(m.torsoHeight == -1.0f && m.torsoRollError == -1.0f && m.torsoPitchError == -1.0f);
		lbMetricsSummary sm = lbMetrics_GetSummary(f.metrics);
		ENSURE(sm.torsoFrames == 4);
		ENSURE_NEAR(sm.torsoHeightMax, 0.15, 0.02);
		ENSURE_NEAR(sm.torsoRollErrorMax, 10.0, 0.5);
		ENSURE_NEAR(sm.torsoPitchErrorMax, 8.0, 0.5);
		lbDestroyPose(&base);
		lbFixtureFree(&f);
	}
}

// A lying body holds itself up where its torso lies on the ground (torso_height within 3 cm), not
// where the system says it touches: the same touching contact on a body 0.3 m up floats.
static void FloatingLyingBody(void)
{
	for (int rig = 0; rig < 2; ++rig)
	{
		lbFixture f;
		float lift;
		lbContact c = lbLyingFixture(&f, rig, &lift);
		const lbHumanoid* h = &f.humanoid;
		for (int up = 0; up < 2; ++up)
		{
			f.characterWs.p.z = lift + (up ? 0.3f : 0.01f);
			c.targetWs = lbTransformPoint(f.characterWs, f.pose.model[h->pelvis].p);
			lbFrameMetrics m = lbAddFrameBase(&f, NULL, &c, 1, false, true);
			for (int i = 1; i < 60; ++i)
				m = lbAddFrameBase(&f, NULL, &c, 1, false, false);
			ENSURE_NEAR(m.torsoHeight, up ? 0.3 : 0.01, 2.0e-3);
			if (up)
				ENSURE(m.floatHeight > 0.1f);
			else
				ENSURE_NEAR(m.floatHeight, 0.0, 1.0e-6);
		}
		const lbMetricsSummary sm = lbMetrics_GetSummary(f.metrics);
		ENSURE(sm.floatingMax > 0.1f && sm.floatingTime > 0.9f);
		lbFixtureFree(&f);
	}
}

static void BadInputIsReported(void)
{
	lbSetLogFcn(lbTestLog, NULL);
	lbMetricsDef def = lbDefaultMetricsDef();
	lbLoggedCode = -1;
	ENSURE(lbCreateMetrics(&def) == NULL);
	ENSURE(lbLoggedCode == lb_errorNullPointer);
	lbFixture f;
	lbFixtureInit(&f, lb_rigMannequin, true);
	def.skeleton = f.skeleton;
	def.humanoid = &f.humanoid;
	def.internalValue = 0;
	ENSURE(lbCreateMetrics(&def) == NULL);
	ENSURE(lbLoggedCode == lb_errorDefNotInitialized);
	def = lbDefaultMetricsDef();
	def.skeleton = f.skeleton;
	def.humanoid = &f.humanoid;
	def.upWs = lbMakeVec3(0.0f, 0.0f, 2.0f);
	ENSURE(lbCreateMetrics(&def) == NULL);
	ENSURE(lbLoggedCode == lb_errorInvalidArgument);
	ENSURE(lbMetrics_AddFrame(f.metrics, NULL, NULL) == lb_errorNullPointer);
	lbPose wrong = f.pose;
	wrong.boneCount = 3;
	lbMetricsFrame fr = { &wrong, f.characterWs, NULL, 0, true, false, 0.016f, NULL };
	ENSURE(lbMetrics_AddFrame(f.metrics, &fr, NULL) == lb_errorSkeletonMismatch);
	fr.pose = &f.pose;
	fr.basePose = &wrong;
	ENSURE(lbMetrics_AddFrame(f.metrics, &fr, NULL) == lb_errorSkeletonMismatch);
	fr.basePose = NULL;
	fr.dt = 0.0f;
	ENSURE(lbMetrics_AddFrame(f.metrics, &fr, NULL) == lb_errorInvalidArgument);
	ENSURE(lbMetrics_GetSummary(f.metrics).frames == 0);
	// Non-finite or out-of-range def numbers are refused with a message.
	for (int i = 0; i < 8; ++i)
	{
		def = lbDefaultMetricsDef();
		def.skeleton = f.skeleton;
		def.humanoid = &f.humanoid;
		switch (i)
		{
			case 0: def.probeLength = NAN; break;
			case 1: def.supportDrop = INFINITY; break;
			case 2: def.floatTime = NAN; break;
			case 3: def.limbSpacing = 0.0f; break;
			case 4: def.plantedSpeed = -1.0f; break;
			case 5: def.supportSamples = 1; break;
			case 6: def.supportSettle = -0.01f; break;
			default: def.probeLift = NAN; break;
		}
		lbLoggedCode = -1;
		ENSURE(lbCreateMetrics(&def) == NULL);
		ENSURE(lbLoggedCode == lb_errorInvalidArgument);
	}
	ENSURE(lbMetricsSegmentRadius(NULL, lb_segmentCalf, 0) == 0.0f);
	ENSURE(lbMetricsSegmentRadius(&f.humanoid, lb_segmentCount, 0) == 0.0f);
	ENSURE(strcmp(lbUnmeasuredReasonText(lb_unmeasuredNone), "") == 0);
	ENSURE_NEAR(lbSignedHingeAngle(lbVec3_zero, lbVec3_axisX, lbMakeVec3(1.0f, 1.0f, 0.0f), lbVec3_axisZ), 90.0, 1.0e-4);
	ENSURE_NEAR(lbSignedHingeAngle(lbVec3_zero, lbVec3_axisX, lbMakeVec3(1.0f, -1.0f, 0.0f), lbVec3_axisZ), -90.0, 1.0e-4);
	ENSURE_NEAR(lbSignedHingeAngle(lbVec3_zero, lbVec3_zero, lbVec3_zero, lbVec3_axisZ), 0.0, 1.0e-6);
	lbFixtureFree(&f);
	lbSetLogFcn(NULL, NULL);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(SoleOnFlatGroundReadsZero);
	RUN_TEST(LyingTorsoAgainstTheGround);
	RUN_TEST(ToeInsideRiserReadsTrueDepth);
	RUN_TEST(SupportPastStairNose);
	RUN_TEST(SupportOfASoleOnItsBallOrHeelOnly);
	RUN_TEST(HeelLiftedOnSlopeStillSupported);
	RUN_TEST(ToesOnACrestSupported);
	RUN_TEST(ShinIntoBoxReadsCapsuleDepth);
	RUN_TEST(AddedPopSubtractsTheBaseMotion);
	RUN_TEST(FloatingOverTheGround);
	RUN_TEST(FloatingHeldByContacts);
	RUN_TEST(FloatingLyingBody);
	RUN_TEST(UnmeasuredFramesSayWhy);
	RUN_TEST(KneeAndElbowInversions);
	RUN_TEST(KneesCrossed);
	RUN_TEST(SelfPenetration);
	RUN_TEST(ContactDriftAndPalmAngle);
	RUN_TEST(TouchingContactUsesItsNormal);
	RUN_TEST(PosePopAndLimits);
	RUN_TEST(SourceLimitViolations);
	RUN_TEST(ElbowOffPlaneLimit);
	RUN_TEST(NonFiniteFramesCountAndAreSkipped);
	RUN_TEST(BadInputIsReported);
	TEST_MAIN_END();
}
