// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Aim (primary + secondary axis, weight, point or direction, mirrored bones) and distribute
// rotation (linear and eased shares along a bone list, the forearm twist of the climbing seed).
#include "limber/ik.h"
#include "limber/rigs.h"
#include "test_macros.h"

#include <stdlib.h>
#include <string.h>

// The foot's toe axis (from lbHumanoid) aimed along random directions with its up axis toward a
// second direction, on both rigs: exact primary, secondary in the right half plane, children follow.
static void AimFootOnBothRigs(void)
{
	lbTestRng rng = { 31 };
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		lbMapHumanoid(s, NULL, &h);
		lbPose pose = lbCreatePose(s);
		for (int side = 0; side < 2; ++side)
		{
			int foot = h.leg[side].foot, ball = h.leg[side].ball;
			for (int i = 0; i < 200; ++i)
			{
				lbPose_SetRest(&pose, s);
				float ballDist = lbDistance(pose.model[foot].p, pose.model[ball].p);
				lbAimInput in = lbDefaultAimInput();
				in.primaryAxis = h.legAxes[side].toe;
				in.primaryTargetMs = lbTestRandomUnit(&rng);
				in.secondaryAxis = h.legAxes[side].footUp;
				in.secondaryTargetMs = lbTestRandomUnit(&rng);
				if (i & 1)
				{
					in.primaryKind = lb_poleLocation;
					in.primaryTargetMs = lbMulAdd(pose.model[foot].p, 0.7f, in.primaryTargetMs);
				}
				ENSURE(lbPose_AimBone(&pose, s, foot, &in) == lb_ok);
				lbVec3 want = lbNormalize(in.primaryKind == lb_poleLocation ? lbSub(in.primaryTargetMs, pose.model[foot].p)
																			 : in.primaryTargetMs);
				lbVec3 toe = lbTransformDirection(pose.model[foot], h.legAxes[side].toe);
				ENSURE_VEC3_NEAR(toe, want, 1.0e-5f);
				lbVec3 up = lbTransformDirection(pose.model[foot], h.legAxes[side].footUp);
				lbVec3 upWant = lbProjectOnPlane(in.secondaryTargetMs, want);
				if (lbLength(upWant) > 1.0e-2f)
				{
					ENSURE(lbDot(up, upWant) > 0.0f);
					ENSURE_NEAR(lbDot(lbCross(lbProjectOnPlane(up, want), upWant), want), 0.0f, 1.0e-4f);
				}
				// The ball bone rode along.
				ENSURE_NEAR(lbDistance(pose.model[foot].p, pose.model[ball].p), ballDist, 1.0e-5f);
				ENSURE(lbDot(lbNormalize(lbSub(pose.model[ball].p, pose.model[foot].p)), want) > 0.999f);
			}
		}
		// Weight 0 leaves the pose alone; weight 0.5 turns half way (no secondary: a pure swing).
		lbPose_SetRest(&pose, s);
		int foot = h.leg[0].foot;
		lbVec3 toe0 = lbTransformDirection(pose.model[foot], h.legAxes[0].toe);
		lbVec3 target = lbNormalize(lbAdd(toe0, lbMulSV(1.5f, h.upMs)));
		lbAimInput in = lbDefaultAimInput();
		in.primaryAxis = h.legAxes[0].toe;
		in.primaryTargetMs = target;
		in.weight = -1.0f;
		ENSURE(lbPose_AimBone(&pose, s, foot, &in) == lb_ok);
		ENSURE_QUAT_SAME_ROT(pose.model[foot].q, s->restModel[foot].q, 1.0e-6f);
		in.weight = 0.5f;
		ENSURE(lbPose_AimBone(&pose, s, foot, &in) == lb_ok);
		lbVec3 toeHalf = lbTransformDirection(pose.model[foot], h.legAxes[0].toe);
		float full = acosf(lbDot(toe0, target));
		ENSURE_NEAR(acosf(lbClampF(lbDot(toeHalf, target), -1, 1)), 0.5f * full, 1.0e-3f);
		// Without propagation the ball stays where it was in model space.
		lbPose_SetRest(&pose, s);
		lbVec3 ball0 = pose.model[h.leg[0].ball].p;
		in.weight = 1.0f;
		in.propagate = false;
		ENSURE(lbPose_AimBone(&pose, s, foot, &in) == lb_ok);
		ENSURE_VEC3_NEAR(pose.model[h.leg[0].ball].p, ball0, 1.0e-6f);
		lbPose_LocalToModel(&pose, s);
		ENSURE_VEC3_NEAR(pose.model[h.leg[0].ball].p, ball0, 1.0e-5f);
		lbDestroyPose(&pose);
		lbDestroySkeleton(s);
	}
}

// A bone under a mirrored (negatively scaled) parent: the local axis as seen in model space is aimed.
static void AimMirroredBone(void)
{
	const char* names[2] = { "parent", "bone" };
	int parents[2] = { LB_NULL_INDEX, 0 };
	lbTransform local[2] = { lbMakeTransform(lbMakeVec3(1, 2, 3), lbQuatFromAxisAngle(lbMakeVec3(1, 1, 0), 0.6f)),
							 lbMakeTransform(lbMakeVec3(0.2f, 0, 0), lbQuatFromAxisAngle(lbMakeVec3(0, 1, 1), 1.1f)) };
	local[0].s = lbMakeVec3(-1.0f, 1.0f, 1.0f);
	lbSkeletonDef def = lbDefaultSkeletonDef();
	def.boneCount = 2;
	def.names = names;
	def.parents = parents;
	def.restLocal = local;
	lbSkeleton* s = lbCreateSkeleton(&def, NULL);
	lbPose pose = lbCreatePose(s);
	lbTestRng rng = { 2 };
	for (int i = 0; i < 100; ++i)
	{
		lbPose_SetRest(&pose, s);
		lbAimInput in = lbDefaultAimInput();
		in.primaryAxis = lbVec3_axisY;
		in.primaryTargetMs = lbTestRandomUnit(&rng);
		in.secondaryAxis = lbVec3_axisZ;
		in.secondaryTargetMs = lbTestRandomUnit(&rng);
		ENSURE(lbPose_AimBone(&pose, s, 1, &in) == lb_ok);
		lbPose_LocalToModel(&pose, s);
		ENSURE_VEC3_NEAR(lbTransformDirection(pose.model[1], lbVec3_axisY), in.primaryTargetMs, 1.0e-5f);
	}
	lbDestroyPose(&pose);
	lbDestroySkeleton(s);
}

// Climbing seed: forearm twist 02 -> 01 -> hand get 0, 1/2 and all of a twist about the forearm axis.
static void DistributeForearmTwist(void)
{
	lbSkeleton* s = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid h;
	lbMapHumanoid(s, NULL, &h);
	lbPose pose = lbCreatePose(s);
	for (int side = 0; side < 2; ++side)
	{
		const lbArmBones* a = &h.arm[side];
		ENSURE(a->twistCount == 2);
		int bones[3] = { a->twist[0], a->twist[1], a->hand };
		// Elbow to wrist: twist 02 is nearer the elbow than twist 01.
		ENSURE(strstr(s->names[bones[0]], "twist_02") != NULL);
		lbVec3 axis = h.armAxes[side].foreAlong;
		float angle = 1.1f;
		lbPose_SetRest(&pose, s);
		lbVec3 finger0 = lbTransformDirection(pose.model[a->hand], h.armAxes[side].finger);
		ENSURE(lbPose_DistributeRotation(&pose, s, bones, 3, lbQuatFromAxisAngle(axis, angle), lb_distributeLinear,
										 1.0f) == lb_ok);
		for (int i = 0; i < 3; ++i)
		{
			lbQuat delta = lbQuatMul(lbQuatConj(s->restLocal[bones[i]].q), pose.local[bones[i]].q);
			ENSURE_NEAR(lbQuatTwistAngle(delta, axis), angle * (float)i / 2.0f, 1.0e-5f);
			ENSURE_NEAR(lbQuatAngle(delta), angle * (float)i / 2.0f, 1.0e-5f);
		}
		// A twist about the forearm axis leaves the hand's finger axis (along the forearm) in place.
		ENSURE_VEC3_NEAR(lbTransformDirection(pose.model[a->hand], h.armAxes[side].finger), finger0, 1.0e-5f);
		// Weight 0.5 halves every share; weight 0 changes nothing.
		lbPose_SetRest(&pose, s);
		ENSURE(lbPose_DistributeRotation(&pose, s, bones, 3, lbQuatFromAxisAngle(axis, angle), lb_distributeLinear,
										 0.5f) == lb_ok);
		lbQuat delta = lbQuatMul(lbQuatConj(s->restLocal[a->hand].q), pose.local[a->hand].q);
		ENSURE_NEAR(lbQuatTwistAngle(delta, axis), 0.5f * angle, 1.0e-5f);
		lbPose_SetRest(&pose, s);
		ENSURE(lbPose_DistributeRotation(&pose, s, bones, 3, lbQuatFromAxisAngle(axis, angle), lb_distributeLinear,
										 0.0f) == lb_ok);
		ENSURE(memcmp(pose.local, s->restLocal, sizeof(lbTransform) * (size_t)s->boneCount) == 0);
	}
	lbDestroyPose(&pose);
	lbDestroySkeleton(s);
}

// Eased curves along a five-bone chain: each bone's share matches the curve.
static void DistributeCurves(void)
{
	const char* names[5] = { "a", "b", "c", "d", "e" };
	int parents[5] = { LB_NULL_INDEX, 0, 1, 2, 3 };
	lbTransform local[5];
	for (int i = 0; i < 5; ++i)
		local[i] = lbMakeTransform(lbMakeVec3(0.1f, 0, 0), lbQuat_identity);
	lbSkeletonDef def = lbDefaultSkeletonDef();
	def.boneCount = 5;
	def.names = names;
	def.parents = parents;
	def.restLocal = local;
	lbSkeleton* s = lbCreateSkeleton(&def, NULL);
	lbPose pose = lbCreatePose(s);
	int bones[5] = { 0, 1, 2, 3, 4 };
	const float angle = 1.3f;
	for (int curve = 0; curve < 4; ++curve)
	{
		lbPose_SetRest(&pose, s);
		ENSURE(lbPose_DistributeRotation(&pose, s, bones, 5, lbQuatFromAxisAngle(lbVec3_axisX, angle),
										 (lbDistributeCurve)curve, 1.0f) == lb_ok);
		for (int i = 0; i < 5; ++i)
		{
			float t = (float)i / 4.0f;
			float f = curve == lb_distributeLinear	   ? t
					  : curve == lb_distributeEaseInOut ? t * t * (3.0f - 2.0f * t)
					  : curve == lb_distributeEaseIn	   ? t * t
														: 1.0f - (1.0f - t) * (1.0f - t);
			ENSURE_NEAR(lbQuatTwistAngle(pose.local[i].q, lbVec3_axisX), f * angle, 1.0e-5f);
		}
		// Model rotations accumulate along the chain.
		float total = 0.0f;
		for (int i = 0; i < 5; ++i)
			total += lbQuatTwistAngle(pose.local[i].q, lbVec3_axisX);
		float modelTwist = lbQuatTwistAngle(pose.model[4].q, lbVec3_axisX);
		ENSURE_NEAR(remainder((double)(modelTwist - total), 2.0 * LB_PI), 0.0, 1.0e-4);
	}
	// One bone takes the whole rotation.
	lbPose_SetRest(&pose, s);
	ENSURE(lbPose_DistributeRotation(&pose, s, bones + 2, 1, lbQuatFromAxisAngle(lbVec3_axisX, angle),
									 lb_distributeLinear, 1.0f) == lb_ok);
	ENSURE_NEAR(lbQuatTwistAngle(pose.local[2].q, lbVec3_axisX), angle, 1.0e-5f);
	lbDestroyPose(&pose);
	lbDestroySkeleton(s);
}

static void AimAndDistributeBadInput(void)
{
	LogCapture log = { 0 };
	lbSetLogFcn(CaptureLog, &log);
	lbSkeleton* s = lbCreateReferenceRig(lb_rigMixamo);
	lbPose pose = lbCreatePose(s), before = lbCreatePose(s);
	lbAimInput good = lbDefaultAimInput();
	good.primaryTargetMs = lbMakeVec3(0, 1, 0);
	int bones[3] = { 3, 4, 5 };
#define EXPECT_ERROR(call, code)                                                                             \
	do                                                                                                       \
	{                                                                                                        \
		log.count = 0;                                                                                       \
		ENSURE((call) == (code));                                                                            \
		ENSURE(log.count == 1 && log.last == (code));                                                        \
		ENSURE(memcmp(pose.local, before.local, sizeof(lbTransform) * (size_t)s->boneCount) == 0);           \
		ENSURE(memcmp(pose.model, before.model, sizeof(lbTransform) * (size_t)s->boneCount) == 0);           \
	} while (0)
	lbAimInput in = good;
	in.primaryTargetMs.y = NAN;
	EXPECT_ERROR(lbPose_AimBone(&pose, s, 3, &in), lb_errorNonFinite);
	in = good, in.secondaryAxis.x = INFINITY;
	EXPECT_ERROR(lbPose_AimBone(&pose, s, 3, &in), lb_errorNonFinite);
	in = good, in.weight = NAN;
	EXPECT_ERROR(lbPose_AimBone(&pose, s, 3, &in), lb_errorNonFinite);
	in = good, in.primaryAxis = lbVec3_zero;
	EXPECT_ERROR(lbPose_AimBone(&pose, s, 3, &in), lb_errorDegenerate);
	in = good, in.primaryKind = lb_poleLocation, in.primaryTargetMs = pose.model[3].p;
	EXPECT_ERROR(lbPose_AimBone(&pose, s, 3, &in), lb_errorDegenerate);
	in = good, in.primaryKind = lb_poleNone;
	EXPECT_ERROR(lbPose_AimBone(&pose, s, 3, &in), lb_errorInvalidArgument);
	in = good, in.internalValue = 0;
	EXPECT_ERROR(lbPose_AimBone(&pose, s, 3, &in), lb_errorDefNotInitialized);
	EXPECT_ERROR(lbPose_AimBone(&pose, s, 3, NULL), lb_errorNullPointer);
	EXPECT_ERROR(lbPose_AimBone(NULL, s, 3, &good), lb_errorNullPointer);
	EXPECT_ERROR(lbPose_AimBone(&pose, s, -2, &good), lb_errorBoneNotFound);
	EXPECT_ERROR(lbPose_AimBone(&pose, s, s->boneCount, &good), lb_errorBoneNotFound);
	lbQuat twist = lbQuatFromAxisAngle(lbVec3_axisY, 0.5f);
	EXPECT_ERROR(lbPose_DistributeRotation(&pose, s, NULL, 3, twist, lb_distributeLinear, 1.0f), lb_errorNullPointer);
	EXPECT_ERROR(lbPose_DistributeRotation(&pose, s, bones, 0, twist, lb_distributeLinear, 1.0f), lb_errorInvalidArgument);
	EXPECT_ERROR(lbPose_DistributeRotation(&pose, s, bones, 3, twist, (lbDistributeCurve)9, 1.0f), lb_errorInvalidArgument);
	EXPECT_ERROR(lbPose_DistributeRotation(&pose, s, bones, 3, lbMakeQuat(NAN, 0, 0, 1), lb_distributeLinear, 1.0f),
				 lb_errorNonFinite);
	EXPECT_ERROR(lbPose_DistributeRotation(&pose, s, bones, 3, lbMakeQuat(0, 0, 0, 2), lb_distributeLinear, 1.0f),
				 lb_errorNonFinite);
	EXPECT_ERROR(lbPose_DistributeRotation(&pose, s, bones, 3, twist, lb_distributeLinear, NAN), lb_errorNonFinite);
	int badBones[2] = { 3, 999 };
	EXPECT_ERROR(lbPose_DistributeRotation(&pose, s, badBones, 2, twist, lb_distributeLinear, 1.0f), lb_errorBoneNotFound);
	lbPose wrong = pose;
	wrong.boneCount = 1;
	EXPECT_ERROR(lbPose_DistributeRotation(&wrong, s, bones, 3, twist, lb_distributeLinear, 1.0f), lb_errorSkeletonMismatch);
	pose.local[4].q.x = NAN;
	lbPose_Copy(&before, &pose);
	EXPECT_ERROR(lbPose_DistributeRotation(&pose, s, bones, 3, twist, lb_distributeLinear, 1.0f), lb_errorNonFinite);
	// A NaN the call would read through the bone's parent, or below it: refused, not spread.
	lbPose_SetRest(&pose, s);
	// The first bone with a parent and a child.
	int bone = -1, child = -1;
	for (int b = 1; b < s->boneCount && bone < 0; ++b)
		if (s->parents[b] > 0)
			bone = s->parents[b], child = b;
	ENSURE(bone > 0 && child > bone);
	if (bone <= 0)
		return;
	const int parent = s->parents[bone];
	pose.model[parent].p.x = NAN;
	lbPose_Copy(&before, &pose);
	EXPECT_ERROR(lbPose_AimBone(&pose, s, bone, &good), lb_errorNonFinite);
	int one[1] = { bone };
	EXPECT_ERROR(lbPose_DistributeRotation(&pose, s, one, 1, twist, lb_distributeLinear, 1.0f), lb_errorNonFinite);
	lbPose_SetRest(&pose, s);
	pose.model[child].q.y = INFINITY; // read when the children keep their model transforms
	lbPose_Copy(&before, &pose);
	in = good, in.propagate = false;
	EXPECT_ERROR(lbPose_AimBone(&pose, s, bone, &in), lb_errorNonFinite);
	lbPose_SetRest(&pose, s);
	pose.local[child].p.z = NAN;
	lbPose_Copy(&before, &pose);
	in = good, in.propagate = true;
	EXPECT_ERROR(lbPose_AimBone(&pose, s, bone, &in), lb_errorNonFinite);
	EXPECT_ERROR(lbPose_DistributeRotation(&pose, s, one, 1, twist, lb_distributeLinear, 1.0f), lb_errorNonFinite);
	// A finite parent 3e38 m away (the bone's local, its offset turned into the parent's frame,
	// overflowed and the arm came out NaN): refused as out of range, with and without propagation.
	for (int propagate = 0; propagate < 2; ++propagate)
	{
		lbPose_SetRest(&pose, s);
		pose.model[parent].p.x = 3.0e38f;
		lbPose_Copy(&before, &pose);
		in = good, in.propagate = propagate != 0;
		EXPECT_ERROR(lbPose_AimBone(&pose, s, bone, &in), lb_errorInvalidArgument);
	}
	// A NaN in a bone the call never reads stays where it was, and the call works.
	lbPose_SetRest(&pose, s);
	pose.model[s->boneCount - 1].p.x = NAN;
	ENSURE(lbPose_AimBone(&pose, s, 3, &good) == lb_ok || s->parents[s->boneCount - 1] == 3);
#undef EXPECT_ERROR
	lbDestroyPose(&pose);
	lbDestroyPose(&before);
	lbDestroySkeleton(s);
	lbSetLogFcn(NULL, NULL);
}

// A child kept in place (propagate off) lying a finite but enormous distance from the aimed bone:
// its new local, the offset turned into the bone's frame, overflows for some turns. The fuzzer found
// the call returning ok with that child inf and NaN. Over random bones, far places (up to 3.4e38 m
// along random directions) and aim directions on both rigs, every call either returns ok with every
// bone finite or refuses with lb_errorInvalidArgument, one report and the pose as it was; both
// outcomes occur.
static void AimFarChildrenOnBothRigs(void)
{
	LogCapture log = { 0 };
	lbSetLogFcn(CaptureLog, &log);
	lbTestRng rng = { 77 };
	for (int rig = 0; rig < 2; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig(rig == 0 ? lb_rigMannequin : lb_rigMixamo);
		lbPose pose = lbCreatePose(s), before = lbCreatePose(s);
		int refused = 0, kept = 0;
		for (int k = 0; k < 400; ++k)
		{
			lbPose_SetRest(&pose, s);
			const int child = 1 + (int)lbTestUniform(&rng, 0.0f, (float)(s->boneCount - 1) - 1e-3f);
			const int bone = s->parents[child];
			if (bone < 0 || s->parents[bone] < 0)
				continue;
			const float far = lbTestUniform(&rng, 1.0e36f, 3.4e38f);
			const lbVec3 dir = lbTestRandomUnit(&rng);
			pose.model[child].p = lbMakeVec3(far * dir.x, far * dir.y, far * dir.z);
			lbPose_Copy(&before, &pose);
			lbAimInput in = lbDefaultAimInput();
			in.primaryAxis = lbTestRandomUnit(&rng);
			in.primaryTargetMs = lbTestRandomUnit(&rng);
			in.secondaryAxis = lbTestRandomUnit(&rng);
			in.secondaryTargetMs = lbTestRandomUnit(&rng);
			in.propagate = false;
			log.count = 0;
			const lbResult r = lbPose_AimBone(&pose, s, bone, &in);
			if (r == lb_ok)
			{
				ENSURE(lbPose_IsFinite(&pose));
				++kept;
			}
			else
			{
				ENSURE(r == lb_errorInvalidArgument && log.count == 1 && log.last == lb_errorInvalidArgument);
				ENSURE(memcmp(pose.local, before.local, sizeof(lbTransform) * (size_t)s->boneCount) == 0);
				ENSURE(memcmp(pose.model, before.model, sizeof(lbTransform) * (size_t)s->boneCount) == 0);
				++refused;
			}
		}
		ENSURE(refused > 0 && kept > 0);
		lbDestroyPose(&pose);
		lbDestroyPose(&before);
		lbDestroySkeleton(s);
	}
	lbSetLogFcn(NULL, NULL);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(AimFootOnBothRigs);
	RUN_TEST(AimMirroredBone);
	RUN_TEST(DistributeForearmTwist);
	RUN_TEST(DistributeCurves);
	RUN_TEST(AimAndDistributeBadInput);
	RUN_TEST(AimFarChildrenOnBothRigs);
	TEST_MAIN_END();
}
