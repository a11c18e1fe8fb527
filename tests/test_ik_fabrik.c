// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// FABRIK chain: convergence on reachable targets, lengths kept, twist kept, bend hint, bad input.
#include "limber/ik.h"
#include "test_macros.h"

#include <float.h>
#include <stdlib.h>

// A chain skeleton: a parent with a random transform (scale included) and n joints.
static lbSkeleton* MakeChain(int n, lbTestRng* rng, float scale)
{
	static char nameBuf[LB_FABRIK_MAX_JOINTS + 1][16];
	const char* names[LB_FABRIK_MAX_JOINTS + 1];
	int parents[LB_FABRIK_MAX_JOINTS + 1];
	lbTransform local[LB_FABRIK_MAX_JOINTS + 1];
	for (int i = 0; i <= n; ++i)
	{
		snprintf(nameBuf[i], sizeof nameBuf[i], "b%d", i);
		names[i] = nameBuf[i];
		parents[i] = i - 1;
		lbVec3 offset = i == 0 ? lbMakeVec3(0.1f, -0.2f, 0.3f) : lbMulSV(lbTestUniform(rng, 0.2f, 0.4f), lbVec3_axisX);
		local[i] = lbMakeTransform(offset, lbQuatFromAxisAngle(lbTestRandomUnit(rng), lbTestUniform(rng, -0.6f, 0.6f)));
	}
	local[0].s = lbMakeVec3(scale, scale, scale);
	lbSkeletonDef def = lbDefaultSkeletonDef();
	def.boneCount = n + 1;
	def.names = names;
	def.parents = parents;
	def.restLocal = local;
	return lbCreateSkeleton(&def, NULL);
}

// Random reachable targets (end of the chain after random joint rotations) are reached within
// tolerance; every bone length is kept to 1e-6 relative; bones only swing (twist kept).
static void FabrikConvergesOnReachableTargets(void)
{
	lbTestRng rng = { 99 };
	int cases = getenv("LB_SANITIZE_RUN") ? 60 : 600;
	int reached = 0, total = 0, maxIter = 0;
	for (int c = 0; c < cases; ++c)
	{
		int n = 3 + (int)lbTestUniform(&rng, 0.0f, 10.0f);
		lbSkeleton* s = MakeChain(n, &rng, c % 3 == 0 ? 1.7f : 1.0f);
		lbPose pose = lbCreatePose(s);
		int bones[LB_FABRIK_MAX_JOINTS];
		for (int i = 0; i < n; ++i)
			bones[i] = i + 1;
		// Reachable target: pose the chain randomly, take its end, then go back to rest.
		for (int i = 1; i <= n; ++i)
			pose.local[i].q = lbQuatMul(pose.local[i].q, lbQuatFromAxisAngle(lbTestRandomUnit(&rng), lbTestUniform(&rng, -1.2f, 1.2f)));
		lbPose_LocalToModel(&pose, s);
		lbVec3 target = pose.model[n].p;
		lbPose_SetRest(&pose, s);
		lbTransform before[LB_FABRIK_MAX_JOINTS];
		for (int i = 0; i < n; ++i)
			before[i] = pose.model[bones[i]];
		lbFabrikInput in = lbDefaultFabrikInput();
		in.targetMs = target;
		in.tolerance = 1.0e-4f;
		in.maxIterations = 2000;
		// On plain transforms: lengths from the solver's joint positions (in double) to 1e-6.
		lbTransform j[LB_FABRIK_MAX_JOINTS];
		memcpy(j, before, sizeof(lbTransform) * (size_t)n);
		lbIkResult res;
		ENSURE(lbSolveFabrik(j, n, &in, &res) == lb_ok);
		ENSURE(res.reached);
		ENSURE_VEC3_NEAR(j[n - 1].p, target, 1.0e-4f);
		for (int i = 0; i + 1 < n; ++i)
		{
			lbVec3 a0 = before[i].p, b0 = before[i + 1].p, a = j[i].p, b = j[i + 1].p;
			double l0 = sqrt(((double)b0.x - a0.x) * ((double)b0.x - a0.x) + ((double)b0.y - a0.y) * ((double)b0.y - a0.y) +
							 ((double)b0.z - a0.z) * ((double)b0.z - a0.z));
			double l1 = sqrt(((double)b.x - a.x) * ((double)b.x - a.x) + ((double)b.y - a.y) * ((double)b.y - a.y) +
							 ((double)b.z - a.z) * ((double)b.z - a.z));
			// 1e-6 relative, beyond the resolution of float positions this far from the origin.
			float far = lbMaxF(lbMaxF(lbAbsF(a.x), lbMaxF(lbAbsF(a.y), lbAbsF(a.z))), lbMaxF(lbAbsF(b.x), lbMaxF(lbAbsF(b.y), lbAbsF(b.z))));
			ENSURE_NEAR(l1 / l0, 1.0, 1.0e-6 + 2.0 * FLT_EPSILON * far / l0);
			// Swing only: the change of the bone's rotation has no twist about its old direction.
			lbQuat delta = lbQuatMul(j[i].q, lbQuatConj(before[i].q));
			ENSURE_NEAR(lbQuatTwistAngle(delta, lbSub(b0, a0)), 0.0f, 1.0e-3f);
		}
		// On the pose: the same result, and the skeleton's bones (local translations) are kept bit
		// for bit; the end is on the target after lbPose_LocalToModel.
		lbIkResult resPose;
		ENSURE(lbPose_SolveFabrik(&pose, s, bones, n, &in, &resPose) == lb_ok);
		++total;
		reached += resPose.reached;
		maxIter = resPose.iterations > maxIter ? resPose.iterations : maxIter;
		ENSURE(resPose.iterations == res.iterations);
		ENSURE(resPose.status == (resPose.reached ? lb_ikReached : lb_ikNotConverged));
		lbPose_LocalToModel(&pose, s);
		ENSURE_VEC3_NEAR(pose.model[n].p, target, 1.0e-4f);
		for (int i = 0; i + 1 < n; ++i)
		{
			ENSURE(memcmp(&pose.local[bones[i + 1]].p, &s->restLocal[bones[i + 1]].p, sizeof(lbVec3)) == 0);
			ENSURE_VEC3_NEAR(pose.model[bones[i + 1]].p, j[i + 1].p, 1.0e-5f);
		}
		ENSURE_VEC3_NEAR(pose.model[bones[0]].p, before[0].p, 1.0e-6f);
		lbDestroyPose(&pose);
		lbDestroySkeleton(s);
	}
	ENSURE(reached == total);
	printf("  fabrik: %d/%d reached, most iterations %d\n", reached, total, maxIter);
}

// Out of reach: a straight chain toward the target after one pass; already there: no iteration.
static void FabrikUnreachableAndEarlyExit(void)
{
	lbTestRng rng = { 3 };
	lbSkeleton* s = MakeChain(6, &rng, 1.0f);
	lbPose pose = lbCreatePose(s);
	int bones[6] = { 1, 2, 3, 4, 5, 6 };
	float total = lbSkeleton_GetChainLength(s, 1, 6);
	lbVec3 base = pose.model[1].p;
	lbVec3 dir = lbNormalize(lbMakeVec3(1, 2, -1));
	lbFabrikInput in = lbDefaultFabrikInput();
	in.targetMs = lbMulAdd(base, total * 1.5f, dir);
	lbIkResult res;
	ENSURE(lbPose_SolveFabrik(&pose, s, bones, 6, &in, &res) == lb_ok);
	ENSURE(res.status == lb_ikUnreachable && !res.reached && res.iterations == 1);
	ENSURE_NEAR(res.remainingDistance, total * 0.5f, 1.0e-4f);
	for (int i = 0; i < 5; ++i)
		ENSURE(lbDot(lbNormalize(lbSub(pose.model[bones[i + 1]].p, pose.model[bones[i]].p)), dir) > 0.99999f);
	lbPose_SetRest(&pose, s);
	in.targetMs = pose.model[6].p;
	ENSURE(lbPose_SolveFabrik(&pose, s, bones, 6, &in, &res) == lb_ok);
	ENSURE(res.reached && res.iterations == 0);
	// The end joint takes a target rotation when asked.
	in.targetMs = lbAdd(pose.model[6].p, lbMakeVec3(-0.05f, 0.05f, 0.02f));
	in.useTargetRotation = true;
	in.targetRotationMs = lbQuatFromAxisAngle(lbMakeVec3(0, 1, 0), 1.0f);
	ENSURE(lbPose_SolveFabrik(&pose, s, bones, 6, &in, &res) == lb_ok);
	ENSURE(res.reached);
	ENSURE_QUAT_SAME_ROT(pose.model[6].q, in.targetRotationMs, 1.0e-5f);
	lbDestroyPose(&pose);
	lbDestroySkeleton(s);
}

// A straight chain bends toward the hint.
static void FabrikBendHint(void)
{
	for (int kind = 0; kind < 2; ++kind)
	{
		lbTransform j[5];
		for (int i = 0; i < 5; ++i)
			j[i] = lbMakeTransform(lbMakeVec3(0.0f, 0.0f, -0.2f * (float)i), lbQuat_identity);
		lbFabrikInput in = lbDefaultFabrikInput();
		in.targetMs = lbMakeVec3(0.0f, 0.0f, -0.5f);
		in.tolerance = 1.0e-5f;
		in.maxIterations = 200;
		in.bendHintKind = kind == 0 ? lb_poleDirection : lb_poleLocation;
		in.bendHintMs = kind == 0 ? lbMakeVec3(0.0f, 1.0f, 0.0f) : lbMakeVec3(0.0f, 2.0f, -0.3f);
		lbIkResult res;
		ENSURE(lbSolveFabrik(j, 5, &in, &res) == lb_ok);
		ENSURE(res.reached);
		for (int i = 1; i < 4; ++i)
			ENSURE(j[i].p.y > 0.01f);
		for (int i = 0; i < 4; ++i)
			ENSURE_NEAR(lbDistance(j[i].p, j[i + 1].p), 0.2f, 1.0e-6f);
	}
}

// Targets and hints far off, with the chain's root away from the model origin. A target 1e20 m or
// 3e38 m off overflowed the length of its direction, and the out-of-reach chain pointed along its
// first bone instead of at the target; a location hint was taken relative to the root, not in
// model space, so a chain rooted 100 m from the origin bent toward the origin instead of the hint.
static void FabrikFarTargetsAndHints(void)
{
	lbTestRng rng = { 7 };
	const lbVec3 root = lbMakeVec3(5.0f, -3.0f, 1.0f);
	for (int k = 0; k < 200; ++k)
	{
		lbTransform j[4];
		for (int i = 0; i < 4; ++i)
			j[i] = lbMakeTransform(lbAdd(root, lbMakeVec3(0.0f, 0.0f, -0.3f * (float)i)), lbQuat_identity);
		const lbVec3 dir = lbTestRandomUnit(&rng);
		const float far = k % 2 ? 3.0e38f : 1.0e20f;
		lbFabrikInput in = lbDefaultFabrikInput();
		in.targetMs = lbMulSV(far, dir);
		lbIkResult res;
		ENSURE(lbSolveFabrik(j, 4, &in, &res) == lb_ok);
		ENSURE(res.status == lb_ikUnreachable && lbIsValidFloat(res.remainingDistance));
		for (int i = 0; i < 4; ++i)
			ENSURE(lbIsValidTransform(j[i]));
		// Straight, and at the target's direction as the root sees it (the root is 6 m from the
		// origin, nothing beside 1e20 m).
		ENSURE(lbDot(lbNormalize(lbSub(j[3].p, j[0].p)), dir) > 0.9999f);
		ENSURE_NEAR(lbDistance(j[0].p, j[3].p), 0.9f, 1.0e-5f);
	}
	for (int far = 0; far < 2; ++far)
	{
		lbTransform j[5];
		const lbVec3 at = lbMakeVec3(100.0f, 0.0f, 0.0f);
		for (int i = 0; i < 5; ++i)
			j[i] = lbMakeTransform(lbAdd(at, lbMakeVec3(0.0f, 0.0f, -0.2f * (float)i)), lbQuat_identity);
		lbFabrikInput in = lbDefaultFabrikInput();
		in.targetMs = lbAdd(at, lbMakeVec3(0.0f, 0.0f, -0.5f));
		in.tolerance = 1.0e-5f;
		in.maxIterations = 200;
		in.bendHintKind = lb_poleLocation;
		in.bendHintMs = far ? lbMakeVec3(100.0f, 3.0e38f, -0.3f) : lbAdd(at, lbMakeVec3(0.0f, 2.0f, -0.3f));
		lbIkResult res;
		ENSURE(lbSolveFabrik(j, 5, &in, &res) == lb_ok);
		ENSURE(res.reached);
		// Bent toward the hint (+y), not toward the model origin (-x).
		for (int i = 1; i < 4; ++i)
			ENSURE(j[i].p.y > 0.01f && lbAbsF(j[i].p.x - 100.0f) < 0.5f * j[i].p.y);
		for (int i = 0; i < 4; ++i)
			ENSURE_NEAR(lbDistance(j[i].p, j[i + 1].p), 0.2f, 1.0e-5f);
	}
}

static void FabrikBadInput(void)
{
	LogCapture log = { 0 };
	lbSetLogFcn(CaptureLog, &log);
	lbTransform j[4], j0[4];
	for (int i = 0; i < 4; ++i)
		j[i] = lbMakeTransform(lbMakeVec3(0.0f, 0.0f, -0.3f * (float)i), lbQuat_identity);
	memcpy(j0, j, sizeof j);
	lbFabrikInput good = lbDefaultFabrikInput();
	good.targetMs = lbMakeVec3(0.2f, 0.0f, -0.5f);
	lbIkResult res;
#define EXPECT_ERROR(call, code)                                                                             \
	do                                                                                                       \
	{                                                                                                        \
		log.count = 0;                                                                                       \
		ENSURE((call) == (code));                                                                            \
		ENSURE(log.count == 1 && log.last == (code));                                                        \
		ENSURE(memcmp(j, j0, sizeof j) == 0);                                                                \
		ENSURE(res.status == lb_ikNotSolved);                                                                \
	} while (0)
	lbFabrikInput in = good;
	in.targetMs.y = NAN;
	EXPECT_ERROR(lbSolveFabrik(j, 4, &in, &res), lb_errorNonFinite);
	in = good, in.tolerance = INFINITY;
	EXPECT_ERROR(lbSolveFabrik(j, 4, &in, &res), lb_errorNonFinite);
	in = good, in.bendHintKind = lb_poleDirection, in.bendHintMs.x = NAN;
	EXPECT_ERROR(lbSolveFabrik(j, 4, &in, &res), lb_errorNonFinite);
	in = good, in.useTargetRotation = true, in.targetRotationMs = lbMakeQuat(0, 0, 0, 3);
	EXPECT_ERROR(lbSolveFabrik(j, 4, &in, &res), lb_errorNonFinite);
	in = good, in.maxIterations = 0;
	EXPECT_ERROR(lbSolveFabrik(j, 4, &in, &res), lb_errorInvalidArgument);
	in = good, in.bendHintKind = (lbPoleKind)5;
	EXPECT_ERROR(lbSolveFabrik(j, 4, &in, &res), lb_errorInvalidArgument);
	in = good, in.internalValue = 1;
	EXPECT_ERROR(lbSolveFabrik(j, 4, &in, &res), lb_errorDefNotInitialized);
	EXPECT_ERROR(lbSolveFabrik(j, 4, NULL, &res), lb_errorNullPointer);
	EXPECT_ERROR(lbSolveFabrik(NULL, 4, &good, &res), lb_errorNullPointer);
	EXPECT_ERROR(lbSolveFabrik(j, 2, &good, &res), lb_errorInvalidArgument);
	EXPECT_ERROR(lbSolveFabrik(j, LB_FABRIK_MAX_JOINTS + 1, &good, &res), lb_errorInvalidArgument);
	j[2].p.z = NAN;
	memcpy(j0, j, sizeof j);
	EXPECT_ERROR(lbSolveFabrik(j, 4, &good, &res), lb_errorNonFinite);
	j[2].p = j[1].p;
	memcpy(j0, j, sizeof j);
	EXPECT_ERROR(lbSolveFabrik(j, 4, &good, &res), lb_errorDegenerate);
	// A bone of 1e9 m or more, and the fuzzer's chain with joints at -3e38 and 3e38 m (a bone of
	// 5e38 m measured infinite, and the call returned ok with the end at infinity).
	j[2].p = lbMakeVec3(0.0f, 0.0f, -2.0e9f);
	memcpy(j0, j, sizeof j);
	EXPECT_ERROR(lbSolveFabrik(j, 4, &good, &res), lb_errorDegenerate);
	j[0].p = lbMakeVec3(1.2f, 0.0f, -3.0e38f), j[1].p = lbMakeVec3(-1.6f, -2.8f, -3.0e38f);
	j[2].p = lbMakeVec3(2.4f, 1.2f, 0.0f), j[3].p = lbMakeVec3(3.0e38f, 3.0e38f, 3.0e38f);
	memcpy(j0, j, sizeof j);
	in = good, in.targetMs = lbMakeVec3(3.0e38f, 3.0e38f, 3.0e38f), in.tolerance = 3.0e38f;
	EXPECT_ERROR(lbSolveFabrik(j, 4, &in, &res), lb_errorDegenerate);

	lbTestRng rng = { 1 };
	lbSkeleton* s = MakeChain(4, &rng, 1.0f);
	lbPose pose = lbCreatePose(s), before = lbCreatePose(s);
	int bones[4] = { 1, 2, 3, 4 }, reversed[4] = { 4, 3, 2, 1 }, outOfRange[4] = { 1, 2, 3, 40 };
	log.count = 0;
	ENSURE(lbPose_SolveFabrik(&pose, s, reversed, 4, &good, &res) == lb_errorInvalidArgument);
	ENSURE(lbPose_SolveFabrik(&pose, s, outOfRange, 4, &good, &res) == lb_errorBoneNotFound);
	ENSURE(lbPose_SolveFabrik(&pose, s, NULL, 4, &good, &res) == lb_errorNullPointer);
	ENSURE(lbPose_SolveFabrik(NULL, s, bones, 4, &good, &res) == lb_errorNullPointer);
	lbPose wrong = pose;
	wrong.boneCount = 2;
	ENSURE(lbPose_SolveFabrik(&wrong, s, bones, 4, &good, &res) == lb_errorSkeletonMismatch);
	in = good, in.targetMs.x = INFINITY;
	ENSURE(lbPose_SolveFabrik(&pose, s, bones, 4, &in, &res) == lb_errorNonFinite);
	// A non-finite parent of the first joint: its local would be written relative to it.
	pose.model[0].p.y = NAN;
	lbPose_Copy(&before, &pose);
	ENSURE(lbPose_SolveFabrik(&pose, s, bones, 4, &good, &res) == lb_errorNonFinite);
	ENSURE(log.count == 7);
	ENSURE(memcmp(pose.local, before.local, sizeof(lbTransform) * 5) == 0);
	ENSURE(memcmp(pose.model, before.model, sizeof(lbTransform) * 5) == 0);
#undef EXPECT_ERROR
	lbDestroyPose(&pose);
	lbDestroyPose(&before);
	lbDestroySkeleton(s);
	lbSetLogFcn(NULL, NULL);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(FabrikConvergesOnReachableTargets);
	RUN_TEST(FabrikUnreachableAndEarlyExit);
	RUN_TEST(FabrikBendHint);
	RUN_TEST(FabrikFarTargetsAndHints);
	RUN_TEST(FabrikBadInput);
	TEST_MAIN_END();
}
