// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Every def and input checked at the entry of the public calls: a humanoid map made for another
// rig or corrupted, each foot def field set out of range one at a time, inputs and solver enums,
// the full-body solver's settings, index overflow in pose updates, and translations so large the
// pose would stop being finite. Each must be refused with the pose and state unchanged.
#include "limber/limber.h"
#include "limber/rigs.h"
#include "test_macros.h"

#include <float.h>
#include <limits.h>
#include <stddef.h>

static lbResult lbLastError;
static char lbLastMessage[512];

static void lbCaptureLog(lbLogLevel level, lbResult code, const char* message, void* ctx)
{
	(void)ctx;
	if (level == lb_logError)
	{
		lbLastError = code;
		snprintf(lbLastMessage, sizeof lbLastMessage, "%s", message);
	}
}

typedef struct Fixture
{
	lbSkeleton* skeleton;
	lbHumanoid humanoid;
	lbPose anim, pose;
	lbWorld* world;
	lbSceneQuery query;
	lbFootDef def;
	lbFootState state;
} Fixture;

static void fixtureInit(Fixture* f, lbReferenceRig rig)
{
	memset(f, 0, sizeof *f);
	f->skeleton = lbCreateReferenceRig(rig);
	ENSURE(lbMapHumanoid(f->skeleton, NULL, &f->humanoid) == lb_ok);
	f->anim = lbCreatePose(f->skeleton);
	f->pose = lbCreatePose(f->skeleton);
	lbWorldDef wd = lbDefaultWorldDef();
	wd.up = lbReferenceRigUp(rig);
	f->world = lbCreateWorld(&wd);
	lbBoxDef bd = lbDefaultBoxDef();
	bd.halfExtents = lbMakeVec3(10.0f, 10.0f, 10.0f);
	bd.transform = lbMakeTransform(lbMulSV(-10.0f, wd.up), lbQuat_identity);
	bd.channels = LB_CHANNEL_GROUND;
	ENSURE(lbWorld_AddBox(f->world, &bd) >= 0);
	f->query = lbWorld_GetQuery(f->world);
	f->def = lbDefaultFootDef();
	f->def.up = wd.up;
	lbFootState_Reset(&f->state);
}

static void fixtureFree(Fixture* f)
{
	lbDestroyPose(&f->anim);
	lbDestroyPose(&f->pose);
	lbDestroyWorld(f->world);
	lbDestroySkeleton(f->skeleton);
}

static lbFootSenseInput senseInput(Fixture* f)
{
	lbFootSenseInput in = lbDefaultFootSenseInput();
	in.query = &f->query;
	in.characterWs = lbTransform_identity;
	in.animPose = &f->anim;
	in.dt = 1.0f / 60.0f;
	return in;
}

static bool poseEqual(const lbPose* a, const lbPose* b)
{
	return a->boneCount == b->boneCount && memcmp(a->local, b->local, sizeof(lbTransform) * (size_t)a->boneCount) == 0 &&
		   memcmp(a->model, b->model, sizeof(lbTransform) * (size_t)a->boneCount) == 0;
}

// ---------------------------------------------------------------------------------------------
// 2. The humanoid map against the skeleton, at every entry.

static void TestHumanoidMapChecked(void)
{
	Fixture f;
	fixtureInit(&f, lb_rigMannequin);
	lbSkeleton* other = lbCreateReferenceRig(lb_rigMixamo);
	lbHumanoid otherMap;
	ENSURE(lbMapHumanoid(other, NULL, &otherMap) == lb_ok);
	ENSURE(lbHumanoid_Check(&f.humanoid, f.skeleton) == lb_ok);
	ENSURE(lbHumanoid_Check(&otherMap, other) == lb_ok);
	ENSURE(lbHumanoid_Check(&otherMap, f.skeleton) == lb_errorSkeletonMismatch);
	ENSURE(lbHumanoid_Check(NULL, f.skeleton) == lb_errorNullPointer);
	ENSURE(f.skeleton->fingerprint != other->fingerprint && f.skeleton->fingerprint != 0);

	// A map made for another rig, then a corrupted one: refused by each entry, state unchanged.
	lbHumanoid corrupt = f.humanoid;
	corrupt.leg[0].foot = f.skeleton->boneCount + 500;
	lbHumanoid badSpine = f.humanoid;
	badSpine.spineCount = 1000;
	const lbHumanoid* bad[] = { &otherMap, &corrupt, &badSpine };
	for (int k = 0; k < 3; ++k)
	{
		lbFootSenseInput in = senseInput(&f);
		lbFootState before = f.state;
		lbFootTargets t;
		memset(&t, 0, sizeof t);
		lbLastMessage[0] = 0;
		ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, bad[k], &in, &t) == lb_errorSkeletonMismatch);
		ENSURE(strstr(lbLastMessage, "humanoid map") != NULL);
		ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
		ENSURE(lbFootSenseMany(&f.state, &f.def, f.skeleton, bad[k], &in, &t, 1) == lb_errorSkeletonMismatch);
		lbFootTargets good;
		ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, &f.humanoid, &in, &good) == lb_ok);
		lbPose_Copy(&f.pose, &f.anim);
		ENSURE(lbFootApplyPose(&good, &f.def, f.skeleton, bad[k], lb_footSolverTwoBone, &f.pose, NULL, 0) ==
			   lb_errorSkeletonMismatch);
		ENSURE(poseEqual(&f.pose, &f.anim));

		lbClimbState cs;
		lbClimbState_Reset(&cs);
		lbClimbDef cd = lbDefaultClimbDef();
		lbClimbSenseInput ci = lbDefaultClimbSenseInput();
		ci.query = &f.query;
		ci.animPose = &f.anim;
		ci.characterWs = lbTransform_identity;
		ci.dt = 1.0f / 60.0f;
		lbClimbTargets ct;
		ENSURE(lbClimbSense(&cs, &cd, f.skeleton, bad[k], &ci, &ct) == lb_errorSkeletonMismatch);

		lbProneState ps;
		lbProneState_Reset(&ps);
		lbProneDef pd = lbDefaultProneDef();
		lbProneSenseInput pi = lbDefaultProneSenseInput();
		pi.query = &f.query;
		pi.animPose = &f.anim;
		pi.characterWs = lbTransform_identity;
		pi.dt = 1.0f / 60.0f;
		lbProneTargets pt;
		ENSURE(lbProneSense(&ps, &pd, f.skeleton, bad[k], &pi, &pt) == lb_errorSkeletonMismatch);

		size_t wsSize = lbGetFullBodyIkWorkspaceSize(f.skeleton);
		void* ws = malloc(wsSize);
		lbFullBodyIkDef st = lbDefaultFullBodyIkDef();
		lbFullBodyIkEffector eff[lb_effectorCount];
		for (int e = 0; e < lb_effectorCount; ++e)
			eff[e] = lbDefaultFullBodyIkEffector();
		ENSURE(lbSolveFullBodyIk(&f.pose, f.skeleton, bad[k], &st, eff, ws, wsSize, NULL) == lb_errorSkeletonMismatch);
		free(ws);
	}
	lbDestroySkeleton(other);
	fixtureFree(&f);
}

// ---------------------------------------------------------------------------------------------
// 6. The foot def, field by field; the sense input; the solver enum.

typedef struct BadField
{
	const char* name;
	size_t offset;
	float value;
} BadField;

#define LB_BAD(field, v) { #field, offsetof(lbFootDef, field), (v) }

static void TestFootDefFieldByField(void)
{
	Fixture f;
	fixtureInit(&f, lb_rigMannequin);
	const float inf = INFINITY, nan = NAN;
	static BadField bad[64];
	int n = 0;
	const BadField list[] = {
		LB_BAD(traceRadius, nan),		   LB_BAD(traceRadius, -0.1f),		 LB_BAD(traceRadius, inf),
		LB_BAD(traceAbove, nan),		   LB_BAD(traceAbove, -1.0f),		 LB_BAD(traceBelow, inf),
		LB_BAD(traceBelow, -1.0f),		   LB_BAD(normalWeight, 2.0f),		 LB_BAD(normalWeight, nan),
		LB_BAD(maxFootAngle, -0.1f),	   LB_BAD(maxFootAngle, inf),		 LB_BAD(slopeLimit, nan),
		LB_BAD(goalSpeed, inf),			   LB_BAD(goalSpeed, -1.0f),		 LB_BAD(rotationSpeed, inf),
		LB_BAD(predictionTime, -1.0f),	   LB_BAD(predictionMax, nan),		 LB_BAD(predictionMaxTurnRate, -1.0f),
		LB_BAD(pelvisWeight, 1.5f),		   LB_BAD(pelvisMaxSink, -0.1f),	 LB_BAD(pelvisMaxLift, nan),
		LB_BAD(pelvisMaxSinkSlope, -0.1f), LB_BAD(pelvisMaxSinkSlope, nan),	 LB_BAD(climbHipShift, -0.1f),
		LB_BAD(climbHipShift, nan),
		LB_BAD(kneeMaxBend, -1.0f),		   LB_BAD(hipMaxFlex, inf),			 LB_BAD(pelvisSpeed, inf),
		LB_BAD(landingCompression, nan),   LB_BAD(landingRelaxSpeed, -1.0f), LB_BAD(alphaSpeed, inf),
		LB_BAD(clampedAlpha, 1.5f),		   LB_BAD(traceRate, -30.0f),		 LB_BAD(traceRate, inf),
		LB_BAD(lodDistance, -1.0f),		   LB_BAD(lockSpeed, nan),			 LB_BAD(lockHeight, -1.0f),
		LB_BAD(lockReleaseDistance, inf),  LB_BAD(lockReleaseAngle, -1.0f),	 LB_BAD(lockBlendSpeed, inf),
		LB_BAD(teleportDistance, -1.0f),   LB_BAD(legSoften, -0.1f),		 LB_BAD(legSoften, 2.0f),
		LB_BAD(ankleLimit, nan),		   LB_BAD(edgeHeight, -1.0f),		 LB_BAD(edgeMargin, inf),
		LB_BAD(maxPlantShift, -1.0f),	   LB_BAD(swingLookahead, nan),		 LB_BAD(swingClearance, -1.0f),
		LB_BAD(slideHeight, inf),		   LB_BAD(maxGoalSpeed, -1.0f),
	};
	for (size_t k = 0; k < sizeof list / sizeof list[0]; ++k)
		bad[n++] = list[k];
	lbFootSenseInput in = senseInput(&f);
	lbFootTargets t;
	ENSURE(lbFootDef_Validate(&f.def) == lb_ok);
	for (int k = 0; k < n; ++k)
	{
		lbFootDef d = f.def;
		memcpy((char*)&d + bad[k].offset, &bad[k].value, sizeof(float));
		lbFootState before = f.state;
		lbLastMessage[0] = 0;
		lbResult r = lbFootSense(&f.state, &d, f.skeleton, &f.humanoid, &in, &t);
		if (r == lb_ok || !strstr(lbLastMessage, bad[k].name))
			printf("  field %s = %g accepted (%s)\n", bad[k].name, (double)bad[k].value, lbLastMessage);
		ENSURE(r == lb_errorInvalidArgument || r == lb_errorNonFinite);
		ENSURE(strstr(lbLastMessage, bad[k].name) != NULL);
		ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
		ENSURE(lbFootDef_Validate(&d) == r);
		lbPose_Copy(&f.pose, &f.anim);
		lbFootTargets good;
		memset(&good, 0, sizeof good);
		good.characterWs = lbTransform_identity;
		good.upWs = f.def.up;
		ENSURE(lbFootApplyPose(&good, &d, f.skeleton, &f.humanoid, lb_footSolverTwoBone, &f.pose, NULL, 0) == r);
	}
	// Zero up, out-of-range enums.
	lbFootDef d = f.def;
	d.up = lbVec3_zero;
	ENSURE(lbFootSense(&f.state, &d, f.skeleton, &f.humanoid, &in, &t) == lb_errorInvalidArgument);
	d = f.def;
	d.up = lbMakeVec3(NAN, 0, 1);
	ENSURE(lbFootSense(&f.state, &d, f.skeleton, &f.humanoid, &in, &t) == lb_errorNonFinite);
	d = f.def;
	d.traceOrigin = (lbFootTraceOrigin)7;
	ENSURE(lbFootSense(&f.state, &d, f.skeleton, &f.humanoid, &in, &t) == lb_errorInvalidArgument);
	d = f.def;
	d.pelvisMode = (lbFootPelvisMode)-1;
	ENSURE(lbFootSense(&f.state, &d, f.skeleton, &f.humanoid, &in, &t) == lb_errorInvalidArgument);
	ENSURE(lbFootDef_Validate(NULL) == lb_errorNullPointer);
	fixtureFree(&f);
}

static void TestFootInputs(void)
{
	Fixture f;
	fixtureInit(&f, lb_rigMixamo);
	lbFootTargets t;
	lbFootSenseInput in = senseInput(&f);
	ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, &f.humanoid, &in, &t) == lb_ok);
	lbFootState before = f.state;
	// No query: refused (it once returned lb_ok).
	in.query = NULL;
	ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, &f.humanoid, &in, &t) == lb_errorNullPointer);
	lbSceneQuery empty;
	memset(&empty, 0, sizeof empty);
	in.query = &empty;
	ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, &f.humanoid, &in, &t) == lb_errorNullPointer);
	ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
	// Enums of the input.
	in = senseInput(&f);
	in.ikMode = (lbFootIkMode)9;
	ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, &f.humanoid, &in, &t) == lb_errorInvalidArgument);
	in = senseInput(&f);
	in.moveState = (lbFootMoveState)-3;
	ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, &f.humanoid, &in, &t) == lb_errorInvalidArgument);
	ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
	// A NaN in the animated pose.
	in = senseInput(&f);
	f.anim.model[f.humanoid.leg[1].foot].p.x = NAN;
	lbLastMessage[0] = 0;
	ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, &f.humanoid, &in, &t) == lb_errorNonFinite);
	ENSURE(strstr(lbLastMessage, "pose") != NULL);
	ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
	lbPose_SetRest(&f.anim, f.skeleton);
	// Unknown solver: refused, pose unchanged.
	in = senseInput(&f);
	ENSURE(lbFootSense(&f.state, &f.def, f.skeleton, &f.humanoid, &in, &t) == lb_ok);
	t.alpha = 1.0f;
	lbPose_Copy(&f.pose, &f.anim);
	ENSURE(lbFootApplyPose(&t, &f.def, f.skeleton, &f.humanoid, (lbFootSolver)5, &f.pose, NULL, 0) == lb_errorInvalidArgument);
	ENSURE(poseEqual(&f.pose, &f.anim));
	fixtureFree(&f);
}

// ---------------------------------------------------------------------------------------------
// 6. The full-body solver's settings.

static void TestFullBodySettings(void)
{
	Fixture f;
	fixtureInit(&f, lb_rigMannequin);
	size_t wsSize = lbGetFullBodyIkWorkspaceSize(f.skeleton);
	void* ws = malloc(wsSize);
	lbFullBodyIkEffector eff[lb_effectorCount];
	for (int e = 0; e < lb_effectorCount; ++e)
		eff[e] = lbDefaultFullBodyIkEffector();
	lbFullBodyIkDef good = lbDefaultFullBodyIkDef();
	ENSURE(lbSolveFullBodyIk(&f.pose, f.skeleton, &f.humanoid, &good, eff, ws, wsSize, NULL) == lb_ok);
	lbPose_Copy(&f.anim, &f.pose);
	lbFullBodyIkDef st[8];
	for (int k = 0; k < 8; ++k)
		st[k] = good;
	st[0].damping = -1.0f;
	st[1].pelvisMaxSink = -0.1f;
	st[2].pelvisMaxRise = -0.1f;
	st[3].pelvisMaxHorizontal = -0.1f;
	st[4].pelvisMaxRotation = -0.1f;
	st[5].tolerance = -1.0f;
	st[6].stiffness[lb_roleSpine1] = -2.0f;
	st[7].pelvisTranslationStiffness = -1.0f;
	for (int k = 0; k < 8; ++k)
	{
		ENSURE(lbSolveFullBodyIk(&f.pose, f.skeleton, &f.humanoid, &st[k], eff, ws, wsSize, NULL) == lb_errorInvalidArgument);
		ENSURE(poseEqual(&f.pose, &f.anim));
	}
	free(ws);
	fixtureFree(&f);
}

// ---------------------------------------------------------------------------------------------
// 5. first + count overflowed in lbPose_LocalToModelRange; 6. huge translations.

static void TestPoseRangeOverflow(void)
{
	Fixture f;
	fixtureInit(&f, lb_rigMannequin);
	f.pose.local[1].p.x += 1.0f;
	lbPose_LocalToModelRange(&f.pose, f.skeleton, 1, INT_MAX);
	lbPose_Copy(&f.anim, &f.pose);
	lbPose_LocalToModel(&f.anim, f.skeleton);
	// The whole range from bone 1 was updated (the sum once wrapped negative and nothing was).
	ENSURE(poseEqual(&f.pose, &f.anim));
	lbPose_LocalToModelRange(&f.pose, f.skeleton, INT_MAX, INT_MAX);
	ENSURE(poseEqual(&f.pose, &f.anim));
	fixtureFree(&f);
}

static void TestHugeTranslation(void)
{
	Fixture f;
	fixtureInit(&f, lb_rigMannequin);
	const lbVec3 big = lbMakeVec3(3.0e38f, 0.0f, 0.0f);
	int bones[] = { 0, f.humanoid.pelvis, f.humanoid.leg[0].thigh, f.humanoid.arm[1].hand };
	for (int b = 0; b < 4; ++b)
	{
		lbPose_SetRest(&f.pose, f.skeleton);
		for (int k = 0; k < 3; ++k)
		{
			lbResult r = lbPose_TranslateBoneModel(&f.pose, f.skeleton, bones[b], k == 1 ? lbMulSV(-1.0f, big) : big);
			ENSURE(r == lb_ok || r == lb_errorNonFinite);
			ENSURE(lbPose_IsFinite(&f.pose));
		}
		// A second call of 3e38 could only be refused.
		lbPose_SetRest(&f.pose, f.skeleton);
		lbResult r1 = lbPose_TranslateBoneModel(&f.pose, f.skeleton, bones[b], big);
		lbPose_Copy(&f.anim, &f.pose);
		lbResult r2 = lbPose_TranslateBoneModel(&f.pose, f.skeleton, bones[b], big);
		ENSURE(r1 != lb_ok || r2 == lb_errorNonFinite);
		ENSURE(r2 == lb_ok || poseEqual(&f.pose, &f.anim));
		ENSURE(lbPose_IsFinite(&f.pose));
	}
	fixtureFree(&f);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	lbSetLogFcn(lbCaptureLog, NULL);
	RUN_TEST(TestHumanoidMapChecked);
	RUN_TEST(TestFootDefFieldByField);
	RUN_TEST(TestFootInputs);
	RUN_TEST(TestFullBodySettings);
	RUN_TEST(TestPoseRangeOverflow);
	RUN_TEST(TestHugeTranslation);
	lbSetLogFcn(NULL, NULL);
	TEST_MAIN_END();
}
