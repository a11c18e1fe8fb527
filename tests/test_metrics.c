// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Metrics on hand-built cases with known answers, on both reference rigs: a foot pushed 2 cm
// into the ground reports 0.02 penetration, a knee bent backwards counts as an inversion, etc.
#include "limber/metrics.h"
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

// Flat ground z = 0 with normal +Z, hit from above only.
static bool lbPlaneProbe(void* ctx, lbVec3 o, lbVec3 d, float maxDist, lbVec3* outP, lbVec3* outN)
{
	float h = ctx ? *(const float*)ctx : 0.0f;
	if (!(d.z < -1.0e-6f) || o.z < h)
		return false;
	float t = (h - o.z) / d.z;
	if (t > maxDist)
		return false;
	*outP = lbMulAdd(o, t, d);
	*outN = lbVec3_axisZ;
	return true;
}

typedef struct lbFixture
{
	lbSkeleton* skeleton;
	lbHumanoid humanoid;
	lbPose pose;
	lbTransform characterWs;
	lbMetrics* metrics;
	float ground;
} lbFixture;

// The character stands with its rest soles exactly on z = 0, facing +X, whatever the rig's axes.
static void lbFixtureInit(lbFixture* f, lbReferenceRig rig)
{
	f->skeleton = lbCreateReferenceRig(rig);
	lbMapHumanoid(f->skeleton, NULL, &f->humanoid);
	f->pose = lbCreatePose(f->skeleton);
	f->ground = 0.0f;
	lbQuat q = lbQuatFromTwoAxes(f->humanoid.upMs, lbVec3_axisZ, f->humanoid.forwardMs, lbVec3_axisX);
	f->characterWs = lbMakeTransform(lbVec3_zero, q);
	float lowest = 1.0e9f;
	for (int s = 0; s < 2; ++s)
		lowest = lbMinF(lowest, lbSolePointWs(&f->humanoid, &f->pose, f->characterWs, s).z);
	f->characterWs.p.z = -lowest;
	lbMetricsDef def = lbDefaultMetricsDef();
	def.skeleton = f->skeleton;
	def.humanoid = &f->humanoid;
	def.probe = lbPlaneProbe;
	def.probeContext = &f->ground;
	f->metrics = lbCreateMetrics(&def);
}

static void lbFixtureFree(lbFixture* f)
{
	lbDestroyMetrics(f->metrics);
	lbDestroyPose(&f->pose);
	lbDestroySkeleton(f->skeleton);
}

static lbFrameMetrics lbAddFrame(lbFixture* f, const lbContact* contacts, int count, bool reset)
{
	lbMetricsFrame fr = { &f->pose, f->characterWs, contacts, count, true, reset, 1.0f / 60.0f };
	lbFrameMetrics out;
	ENSURE(lbMetrics_AddFrame(f->metrics, &fr, &out) == lb_ok);
	return out;
}

static void lbRotateLocal(lbFixture* f, int bone, lbVec3 axisLocal, float deg)
{
	lbQuat r = lbQuatFromAxisAngle(axisLocal, deg * LB_DEG2RAD);
	f->pose.local[bone].q = lbQuatMul(f->pose.local[bone].q, r);
	lbPose_LocalToModel(&f->pose, f->skeleton);
}

static void PenetrationAndHoverKnownDepth(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig);
		lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
		ENSURE_NEAR(m.penetration, 0.0, 1.0e-5);
		ENSURE_NEAR(m.hover, 0.0, 1.0e-5);
		ENSURE(m.planted[0] && m.planted[1]);
		// 2 cm into the ground (a teleport, so the feet still count as planted).
		f.characterWs.p.z -= 0.02f;
		m = lbAddFrame(&f, NULL, 0, true);
		ENSURE_NEAR(m.penetration, 0.02, 1.0e-5);
		ENSURE_NEAR(m.hover, 0.0, 1.0e-5);
		// 5 cm above.
		f.characterWs.p.z += 0.07f;
		m = lbAddFrame(&f, NULL, 0, true);
		ENSURE_NEAR(m.hover, 0.05, 1.0e-5);
		ENSURE_NEAR(m.penetration, 0.0, 1.0e-5);
		lbMetricsSummary s = lbMetrics_GetSummary(f.metrics);
		ENSURE_NEAR(s.penetrationMax, 0.02, 1.0e-5);
		ENSURE_NEAR(s.hoverMax, 0.05, 1.0e-5);
		ENSURE(s.frames == 3);
		// A fast-moving foot is not planted: nothing measured.
		f.characterWs.p.x += 0.5f;
		m = lbAddFrame(&f, NULL, 0, false);
		ENSURE(!m.planted[0] && !m.planted[1]);
		ENSURE(m.hover < 0.0f && m.penetration < 0.0f);
		lbFixtureFree(&f);
	}
}

static void PenetrationOnRaisedGround(void)
{
	lbFixture f;
	lbFixtureInit(&f, lb_rigMannequin);
	f.ground = 0.13f;
	lbFrameMetrics m = lbAddFrame(&f, NULL, 0, false);
	ENSURE_NEAR(m.penetration, 0.13, 1.0e-5);
	lbFixtureFree(&f);
}

static void KneeAndElbowInversions(void)
{
	lbTestRng rng = { 42 };
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig);
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

static void ContactDriftAndPalmAngle(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig);
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
	lbFixtureInit(&f, lb_rigMannequin);
	int pelvis = f.humanoid.pelvis;
	lbVec3 pelvisWs = lbTransformPoint(f.characterWs, f.pose.model[pelvis].p);
	// A body probe on the pelvis should touch the ground: it hovers at pelvis height.
	lbContact c = { lb_contactBody, pelvis, lbVec3_zero, lbMakeVec3(pelvisWs.x, pelvisWs.y, 0.0f), lbVec3_axisZ, false, true };
	lbMetricsDef def = lbDefaultMetricsDef();
	def.skeleton = f.skeleton;
	def.humanoid = &f.humanoid;
	def.probe = lbPlaneProbe;
	def.probeContext = &f.ground;
	lbDestroyMetrics(f.metrics);
	f.metrics = lbCreateMetrics(&def);
	lbMetricsFrame fr = { &f.pose, f.characterWs, &c, 1, false, false, 1.0f / 60.0f };
	lbFrameMetrics m;
	ENSURE(lbMetrics_AddFrame(f.metrics, &fr, &m) == lb_ok);
	ENSURE_NEAR(m.hover, pelvisWs.z, 1.0e-4);
	lbFixtureFree(&f);
}

static void PosePopAndLimits(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig);
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
		ENSURE_NEAR(s.posePopMax, 10.0, 0.01);
		lbFixtureFree(&f);
	}
}

// The forearm tilted out of the elbow's hinge plane: 30 degrees is tolerated, 40 is a violation.
static void ElbowOffPlaneLimit(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbFixture f;
		lbFixtureInit(&f, (lbReferenceRig)rig);
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
	lbFixtureInit(&f, lb_rigMixamo);
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

static void BadInputIsReported(void)
{
	lbSetLogFcn(lbTestLog, NULL);
	lbMetricsDef def = lbDefaultMetricsDef();
	lbLoggedCode = -1;
	ENSURE(lbCreateMetrics(&def) == NULL);
	ENSURE(lbLoggedCode == lb_errorNullPointer);
	lbFixture f;
	lbFixtureInit(&f, lb_rigMannequin);
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
	lbMetricsFrame fr = { &wrong, f.characterWs, NULL, 0, true, false, 0.016f };
	ENSURE(lbMetrics_AddFrame(f.metrics, &fr, NULL) == lb_errorSkeletonMismatch);
	ENSURE(lbMetrics_GetSummary(f.metrics).frames == 0);
	ENSURE_NEAR(lbSignedHingeAngle(lbVec3_zero, lbVec3_axisX, lbMakeVec3(1.0f, 1.0f, 0.0f), lbVec3_axisZ), 90.0, 1.0e-4);
	ENSURE_NEAR(lbSignedHingeAngle(lbVec3_zero, lbVec3_axisX, lbMakeVec3(1.0f, -1.0f, 0.0f), lbVec3_axisZ), -90.0, 1.0e-4);
	ENSURE_NEAR(lbSignedHingeAngle(lbVec3_zero, lbVec3_zero, lbVec3_zero, lbVec3_axisZ), 0.0, 1.0e-6);
	lbFixtureFree(&f);
	lbSetLogFcn(NULL, NULL);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(PenetrationAndHoverKnownDepth);
	RUN_TEST(PenetrationOnRaisedGround);
	RUN_TEST(KneeAndElbowInversions);
	RUN_TEST(ContactDriftAndPalmAngle);
	RUN_TEST(TouchingContactUsesItsNormal);
	RUN_TEST(PosePopAndLimits);
	RUN_TEST(ElbowOffPlaneLimit);
	RUN_TEST(NonFiniteFramesCountAndAreSkipped);
	RUN_TEST(BadInputIsReported);
	TEST_MAIN_END();
}
