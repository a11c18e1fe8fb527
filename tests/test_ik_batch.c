// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The batch two-bone solve against the single solve as reference, over fixed-seed random chains
// (bone lengths, bends, rotations, given or derived hinges, soft IK, target rotations, targets in
// and out of reach), on both paths: the vector lanes and the scalar lanes, which must also agree
// with each other bit for bit (the same operations, correctly rounded, in the same order). Chains
// the lanes do not take (poles, partial weight, straight starts, stretch) and bad input go through
// the single solve: the same results, the first error in index order, the bad chain unchanged.
// Both reference rigs' legs.
#include "ik/ik_batch_internal.h"
#include "limber/limber.h"
#include "limber/ik_batch.h"
#include "test_macros.h"

#include <stdlib.h>
#include <string.h>

static float rnd(uint64_t* s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (float)((*s >> 40) & 0xFFFFFF) / 16777216.0f;
}

static float rndRange(uint64_t* s, float lo, float hi)
{
	return lo + (hi - lo) * rnd(s);
}

static lbVec3 rndUnit(uint64_t* s)
{
	lbVec3 v = { rnd(s) - 0.5f, rnd(s) - 0.5f, rnd(s) - 0.5f };
	return lbNormalizeOr(v, lbVec3_axisX);
}

static lbQuat rndQuat(uint64_t* s)
{
	return lbQuatFromAxisAngle(rndUnit(s), rndRange(s, -LB_PI, LB_PI));
}

typedef struct Chain
{
	lbTransform r, m, e;
	lbTwoBoneIkInput in;
} Chain;

// A random chain. kind 0: hinge given (the bend's own hinge, or any axis); 1: hinge derived from a
// bent start; 2: one the lanes do not take (pole, weight, stretch, straight start).
static Chain rndChain(uint64_t* s, int kind)
{
	Chain c;
	const lbVec3 root = lbMulSV(0.5f, rndUnit(s));
	const float l1 = rndRange(s, 0.15f, 0.6f), l2 = rndRange(s, 0.15f, 0.6f);
	const lbVec3 dir = rndUnit(s);
	const lbVec3 perp = lbAnyPerpendicular(dir);
	const float bend = rndRange(s, 0.05f, 2.6f);
	const lbVec3 lower = lbQuatRotate(lbQuatFromAxisAngle(perp, bend), dir);
	c.r = lbMakeTransform(root, rndQuat(s));
	c.m = lbMakeTransform(lbMulAdd(root, l1, dir), rndQuat(s));
	c.e = lbMakeTransform(lbMulAdd(c.m.p, l2, lower), rndQuat(s));
	c.in = lbDefaultTwoBoneIkInput();
	// Targets from well inside to 30 % beyond the reach.
	c.in.targetMs = lbMulAdd(root, rndRange(s, 0.1f, 1.3f) * (l1 + l2), rndUnit(s));
	if (rnd(s) < 0.4f)
		c.in.soften = rndRange(s, 0.0f, 0.2f);
	if (kind == 0)
	{
		c.in.hingeAxisMs = rnd(s) < 0.5f ? lbMulSV(rndRange(s, 0.5f, 2.0f), lbCross(dir, lower)) : rndUnit(s);
		if (rnd(s) < 0.3f)
			c.in.useTargetRotation = true, c.in.targetRotationMs = rndQuat(s);
	}
	else if (kind == 2)
	{
		int which = (int)(rnd(s) * 4.0f);
		if (which == 0)
			c.in.poleKind = lb_poleDirection, c.in.poleMs = rndUnit(s);
		else if (which == 1)
			c.in.weight = rndRange(s, 0.0f, 0.99f);
		else if (which == 2)
			c.in.stretch = true;
		else
			c.e.p = lbMulAdd(c.m.p, l2, dir); // straight
	}
	return c;
}

// The same rotation (q and -q alike) to within tol radians.
static bool sameRotation(lbQuat a, lbQuat b, float tol)
{
	// The angle of conj(a) b from its vector part (an arc cosine of the dot loses the small angles).
	const double x = (double)a.w * b.x - (double)a.x * b.w - (double)a.y * b.z + (double)a.z * b.y;
	const double y = (double)a.w * b.y + (double)a.x * b.z - (double)a.y * b.w - (double)a.z * b.x;
	const double z = (double)a.w * b.z - (double)a.x * b.y + (double)a.y * b.x - (double)a.z * b.w;
	const double w = (double)a.w * b.w + (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z;
	return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w)) <= (double)tol;
}

enum
{
	kCount = 4000,
	// The paths every test runs: the scalar lanes, the build's vector lanes (SSE2 by default) and
	// the widest this processor runs (the AVX2 copy of a LIMBER_SIMD=auto build where it has AVX2;
	// else the build's lanes again).
	kPaths = 3
};

static int pathLanes(int p)
{
	return p == 0 ? 1 : (p == 1 ? 4 : 8);
}

static const char* pathName(int p)
{
	return p == 0 ? "scalar" : (p == 1 ? "build's vectors" : (lbTwoBoneIkBatchWidth() == 8 ? "8 lanes" : "build's vectors again"));
}

// Every chain of the batch matches its single solve. Positions agree to 0.1 mm and rotations to
// 0.06 degrees: the lanes sum and take roots in another order, and near full extension the bend's
// sine (the root of 1 - cos^2) magnifies a rounding of the cosine to about 1e-4 rad.
static int checkAgainstSingle(const Chain* chains, int n, int lanes, lbTransform* outR, lbTransform* outM, lbTransform* outE)
{
	lbTwoBoneIkInput* ins = (lbTwoBoneIkInput*)malloc(sizeof(lbTwoBoneIkInput) * (size_t)n);
	lbIkResult* res = (lbIkResult*)malloc(sizeof(lbIkResult) * (size_t)n);
	for (int i = 0; i < n; ++i)
	{
		outR[i] = chains[i].r, outM[i] = chains[i].m, outE[i] = chains[i].e;
		ins[i] = chains[i].in;
	}
	ENSURE(lbSolveTwoBoneIkBatchPath(outR, outM, outE, ins, res, n, lanes) == lb_ok);
	float worstP = 0.0f, worstQ = 0.0f;
	for (int i = 0; i < n; ++i)
	{
		lbTransform r = chains[i].r, m = chains[i].m, e = chains[i].e;
		lbIkResult ref;
		ENSURE(lbSolveTwoBoneIk(&r, &m, &e, &chains[i].in, &ref) == lb_ok);
		const float dp = lbMaxF(lbDistance(m.p, outM[i].p), lbDistance(e.p, outE[i].p));
		worstP = lbMaxF(worstP, dp);
		ENSURE(dp <= 1.0e-4f);
		ENSURE(sameRotation(r.q, outR[i].q, 1.0e-3f));
		ENSURE(sameRotation(m.q, outM[i].q, 1.0e-3f));
		ENSURE(sameRotation(e.q, outE[i].q, 1.0e-3f));
		ENSURE(outR[i].p.x == r.p.x && outR[i].p.y == r.p.y && outR[i].p.z == r.p.z);
		ENSURE(res[i].status == ref.status || fabsf(res[i].remainingDistance - ref.remainingDistance) <= 1.0e-4f);
		ENSURE(fabsf(res[i].remainingDistance - ref.remainingDistance) <= 1.0e-4f);
		(void)worstQ;
	}
	free(res);
	free(ins);
	return 0;
}

static int runMix(uint64_t seed, int kinds)
{
	Chain* chains = (Chain*)malloc(sizeof(Chain) * kCount);
	for (int i = 0; i < kCount; ++i)
		chains[i] = rndChain(&seed, kinds == 3 ? (int)(rnd(&seed) * 3.0f) : kinds);
	lbTransform* r[kPaths];
	lbTransform* m[kPaths];
	lbTransform* e[kPaths];
	for (int p = 0; p < kPaths; ++p)
	{
		r[p] = (lbTransform*)malloc(sizeof(lbTransform) * kCount);
		m[p] = (lbTransform*)malloc(sizeof(lbTransform) * kCount);
		e[p] = (lbTransform*)malloc(sizeof(lbTransform) * kCount);
		ENSURE(checkAgainstSingle(chains, kCount, pathLanes(p), r[p], m[p], e[p]) == 0);
	}
	// Every path: the same bits.
	for (int p = 1; p < kPaths; ++p)
	{
		ENSURE(memcmp(r[0], r[p], sizeof(lbTransform) * kCount) == 0);
		ENSURE(memcmp(m[0], m[p], sizeof(lbTransform) * kCount) == 0);
		ENSURE(memcmp(e[0], e[p], sizeof(lbTransform) * kCount) == 0);
	}
	for (int p = 0; p < kPaths; ++p)
		free(r[p]), free(m[p]), free(e[p]);
	free(chains);
	return 0;
}

static int testGivenHinge(void)
{
	return runMix(1, 0);
}

static int testDerivedHinge(void)
{
	return runMix(2, 1);
}

static int testMixedWithSingleOnly(void)
{
	return runMix(3, 3);
}

// Chains folded nearly shut (the lower bone within 3 degrees of lying back along the upper, of
// about its length) with targets at or near the root: the law of cosines subtracts nearly equal
// squares there, and the lanes placed the end at its length along the target line, the lower bone
// 2.9e-4 of its length off (the single solve 3.7e-4 with the target at the root). Both paths keep
// the bones to 1e-5 of their lengths, match the single solve and each other bit for bit.
static int testFoldedChains(void)
{
	uint64_t seed = 9;
	enum
	{
		N = 1000
	};
	static Chain chains[N];
	for (int i = 0; i < N; ++i)
	{
		Chain c = rndChain(&seed, i % 2);
		const lbVec3 root = c.r.p, dir = lbNormalize(lbSub(c.m.p, c.r.p));
		const float l1 = lbDistance(c.r.p, c.m.p), l2 = l1 * rndRange(&seed, 0.999f, 1.001f);
		const lbVec3 perp = lbAnyPerpendicular(dir);
		const lbVec3 lower = lbQuatRotate(lbQuatFromAxisAngle(perp, LB_PI - rndRange(&seed, 0.0f, 3.0f) * LB_DEG2RAD), dir);
		c.e.p = lbMulAdd(c.m.p, l2, lower);
		if (i % 2 == 0)
			c.in.hingeAxisMs = lbCross(dir, lower); // the bend's own hinge (a random axis folds another way)
		c.in.targetMs = i % 3 == 0 ? root : lbMulAdd(root, rndRange(&seed, 0.0f, 0.05f) * (l1 + l2), rndUnit(&seed));
		c.in.soften = 0.0f;
		chains[i] = c;
	}
	static lbTransform r[kPaths][N], m[kPaths][N], e[kPaths][N];
	for (int p = 0; p < kPaths; ++p)
	{
		ENSURE(checkAgainstSingle(chains, N, pathLanes(p), r[p], m[p], e[p]) == 0);
		float worst = 0.0f;
		for (int i = 0; i < N; ++i)
		{
			const float a = lbDistance(chains[i].r.p, chains[i].m.p), b = lbDistance(chains[i].m.p, chains[i].e.p);
			worst = lbMaxF(worst, lbMaxF(fabsf(lbDistance(r[p][i].p, m[p][i].p) - a) / a, fabsf(lbDistance(m[p][i].p, e[p][i].p) - b) / b));
		}
		printf("  folded chains, %s: bones off by %.2g of their lengths\n", pathName(p), (double)worst);
		ENSURE(worst <= 1.0e-5f);
	}
	for (int p = 1; p < kPaths; ++p)
		ENSURE(memcmp(m[0], m[p], sizeof m[0]) == 0 && memcmp(e[0], e[p], sizeof e[0]) == 0);
	return 0;
}

// Every batch length (partial lane groups) and the public entry point.
static int testLengths(void)
{
	uint64_t seed = 4;
	Chain chains[19];
	for (int i = 0; i < 19; ++i)
		chains[i] = rndChain(&seed, i % 3);
	for (int n = 0; n <= 19; ++n)
	{
		lbTransform r[19], m[19], e[19];
		lbTwoBoneIkInput ins[19];
		for (int i = 0; i < n; ++i)
			r[i] = chains[i].r, m[i] = chains[i].m, e[i] = chains[i].e, ins[i] = chains[i].in;
		ENSURE(lbSolveTwoBoneIkBatch(r, m, e, ins, NULL, n) == lb_ok);
		for (int i = 0; i < n; ++i)
		{
			lbTransform rr = chains[i].r, mm = chains[i].m, ee = chains[i].e;
			lbSolveTwoBoneIk(&rr, &mm, &ee, &chains[i].in, NULL);
			ENSURE(lbDistance(ee.p, e[i].p) <= 1.0e-4f && lbDistance(mm.p, m[i].p) <= 1.0e-4f);
		}
	}
	int w = lbTwoBoneIkBatchWidth();
	ENSURE(w == 1 || w == 4 || w == 8);
	return 0;
}

// What the batch writes back: only the root's rotation and the mid's and end's positions and
// rotations. The root's position and every scale (non-unit, some mirrored) stay as they were, bit
// for bit, and the chains come out the same whether or not the outcomes are asked for (whole lane
// groups are written back four at a time, the rest one by one).
static int testWritesOnlyTheSolve(void)
{
	enum
	{
		N = 203
	};
	static Chain chains[N];
	static lbTransform r[kPaths][N], m[kPaths][N], e[kPaths][N];
	static lbTwoBoneIkInput ins[N];
	static lbIkResult res[N];
	uint64_t seed = 9;
	for (int i = 0; i < N; ++i)
	{
		chains[i] = rndChain(&seed, i % 5 == 4 ? 2 : i % 2);
		lbTransform* t[3] = { &chains[i].r, &chains[i].m, &chains[i].e };
		for (int j = 0; j < 3; ++j)
			t[j]->s = lbMakeVec3((rnd(&seed) < 0.2f ? -1.0f : 1.0f) * rndRange(&seed, 0.5f, 2.0f), rndRange(&seed, 0.5f, 2.0f),
								 rndRange(&seed, 0.5f, 2.0f));
		ins[i] = chains[i].in;
	}
	for (int pass = 0; pass < 2; ++pass)
	{
		for (int i = 0; i < N; ++i)
			r[pass][i] = chains[i].r, m[pass][i] = chains[i].m, e[pass][i] = chains[i].e;
		ENSURE(lbSolveTwoBoneIkBatch(r[pass], m[pass], e[pass], ins, pass ? res : NULL, N) == lb_ok);
	}
	for (int i = 0; i < N; ++i)
	{
		ENSURE(memcmp(&r[0][i].p, &chains[i].r.p, sizeof(lbVec3)) == 0);
		ENSURE(memcmp(&r[0][i].s, &chains[i].r.s, sizeof(lbVec3)) == 0);
		ENSURE(memcmp(&m[0][i].s, &chains[i].m.s, sizeof(lbVec3)) == 0);
		ENSURE(memcmp(&e[0][i].s, &chains[i].e.s, sizeof(lbVec3)) == 0);
		ENSURE(memcmp(&r[0][i], &r[1][i], sizeof(lbTransform)) == 0);
		ENSURE(memcmp(&m[0][i], &m[1][i], sizeof(lbTransform)) == 0);
		ENSURE(memcmp(&e[0][i], &e[1][i], sizeof(lbTransform)) == 0);
		// Solved: the end moved onto the target line (the single solve's result, to the batch's agreement).
		lbTransform rr = chains[i].r, mm = chains[i].m, ee = chains[i].e;
		ENSURE(lbSolveTwoBoneIk(&rr, &mm, &ee, &ins[i], NULL) == lb_ok);
		ENSURE(lbDistance(ee.p, e[0][i].p) <= 1.0e-4f && lbDistance(mm.p, m[0][i].p) <= 1.0e-4f);
	}
	return 0;
}

// Bad input: the first error in index order; the bad chains unchanged, the others solved.
static int testBadInput(void)
{
	uint64_t seed = 5;
	enum
	{
		N = 20
	};
	Chain chains[N];
	lbTransform r[N], m[N], e[N];
	lbTwoBoneIkInput ins[N];
	for (int i = 0; i < N; ++i)
	{
		chains[i] = rndChain(&seed, 0);
		r[i] = chains[i].r, m[i] = chains[i].m, e[i] = chains[i].e, ins[i] = chains[i].in;
	}
	ins[5].targetMs.y = NAN;        // lb_errorNonFinite
	m[11].p = r[11].p;              // zero-length bone: lb_errorDegenerate
	ins[14].internalValue = 0;      // lb_errorDefNotInitialized
	const lbTransform keep5 = e[5], keep11 = m[11], keep14 = e[14];
	for (int p = 0; p < kPaths; ++p)
	{
		lbTransform rr[N], mm[N], ee[N];
		memcpy(rr, r, sizeof r), memcpy(mm, m, sizeof m), memcpy(ee, e, sizeof e);
		ENSURE(lbSolveTwoBoneIkBatchPath(rr, mm, ee, ins, NULL, N, pathLanes(p)) == lb_errorNonFinite);
		ENSURE(memcmp(&ee[5], &keep5, sizeof keep5) == 0);
		ENSURE(memcmp(&mm[11], &keep11, sizeof keep11) == 0);
		ENSURE(memcmp(&ee[14], &keep14, sizeof keep14) == 0);
		for (int i = 0; i < N; ++i)
		{
			if (i == 5 || i == 11 || i == 14)
				continue;
			lbTransform a = r[i], b = m[i], c = e[i];
			lbSolveTwoBoneIk(&a, &b, &c, &ins[i], NULL);
			ENSURE(lbDistance(c.p, ee[i].p) <= 1.0e-4f);
		}
	}
	ENSURE(lbSolveTwoBoneIkBatch(NULL, m, e, ins, NULL, 3) == lb_errorNullPointer);
	ENSURE(lbSolveTwoBoneIkBatch(r, m, e, ins, NULL, -1) == lb_errorNullPointer);
	ENSURE(lbSolveTwoBoneIkBatch(NULL, NULL, NULL, NULL, NULL, 0) == lb_ok);
	return 0;
}

// Every number of a chain the lanes would take is checked: a NaN or an infinity in any one (a joint's
// position or scale, the target, the hinge axis, soften, or the numbers the lanes do not read:
// weight, maxStretch, tolerance, the bend hint) sends that chain to the single solve, which reports
// it and leaves it as it was; the other chains of its lane group are solved. Both paths.
static int testEveryNumberChecked(void)
{
	enum
	{
		N = 16,
		Bad = 6,
		Fields = 13
	};
	const float values[2] = { NAN, INFINITY };
	for (int f = 0; f < Fields; ++f)
	{
		for (int vi = 0; vi < 2; ++vi)
		{
			uint64_t seed = 9 + (uint64_t)f;
			Chain chains[N];
			lbTransform r[N], m[N], e[N];
			lbTwoBoneIkInput ins[N];
			for (int i = 0; i < N; ++i)
			{
				chains[i] = rndChain(&seed, 0);
				r[i] = chains[i].r, m[i] = chains[i].m, e[i] = chains[i].e, ins[i] = chains[i].in;
			}
			const float x = values[vi];
			switch (f)
			{
			case 0: r[Bad].p.x = x; break;
			case 1: m[Bad].p.y = x; break;
			case 2: e[Bad].p.z = x; break;
			case 3: r[Bad].s.x = x; break;
			case 4: m[Bad].s.y = x; break;
			case 5: e[Bad].s.z = x; break;
			case 6: ins[Bad].targetMs.z = x; break;
			case 7: ins[Bad].hingeAxisMs.x = x; break;
			case 8: ins[Bad].soften = x; break;
			case 9: ins[Bad].weight = x; break;
			case 10: ins[Bad].maxStretch = x; break;
			case 11: ins[Bad].tolerance = x; break;
			default: ins[Bad].bendHintMs.y = x; break;
			}
			for (int p = 0; p < kPaths; ++p)
			{
				lbTransform rr[N], mm[N], ee[N];
				memcpy(rr, r, sizeof r), memcpy(mm, m, sizeof m), memcpy(ee, e, sizeof e);
				ENSURE(lbSolveTwoBoneIkBatchPath(rr, mm, ee, ins, NULL, N, pathLanes(p)) == lb_errorNonFinite);
				ENSURE(memcmp(&rr[Bad], &r[Bad], sizeof(lbTransform)) == 0);
				ENSURE(memcmp(&mm[Bad], &m[Bad], sizeof(lbTransform)) == 0);
				ENSURE(memcmp(&ee[Bad], &e[Bad], sizeof(lbTransform)) == 0);
				for (int i = 0; i < N; ++i)
				{
					if (i == Bad)
						continue;
					lbTransform a = r[i], b = m[i], c = e[i];
					ENSURE(lbSolveTwoBoneIk(&a, &b, &c, &ins[i], NULL) == lb_ok);
					ENSURE(lbDistance(c.p, ee[i].p) <= 1.0e-4f && lbDistance(b.p, mm[i].p) <= 1.0e-4f);
				}
			}
		}
	}
	return 0;
}

// Without outcomes asked for, a lane group whose ends take no target rotation is written back in one
// pass and the others lane by lane: the ends that take it get it either way (every other lane here).
static int testTargetRotationWithoutResults(void)
{
	enum
	{
		N = 64
	};
	uint64_t seed = 12;
	Chain chains[N];
	lbTransform r[N], m[N], e[N];
	lbTwoBoneIkInput ins[N];
	for (int i = 0; i < N; ++i)
	{
		chains[i] = rndChain(&seed, 0);
		// Groups of four: the first two with no target rotation at all, the others alternating.
		chains[i].in.useTargetRotation = i >= 8 && (i & 1) == 1;
		chains[i].in.targetRotationMs = rndQuat(&seed);
		r[i] = chains[i].r, m[i] = chains[i].m, e[i] = chains[i].e, ins[i] = chains[i].in;
	}
	for (int p = 0; p < kPaths; ++p)
	{
		lbTransform rr[N], mm[N], ee[N];
		memcpy(rr, r, sizeof r), memcpy(mm, m, sizeof m), memcpy(ee, e, sizeof e);
		ENSURE(lbSolveTwoBoneIkBatchPath(rr, mm, ee, ins, NULL, N, pathLanes(p)) == lb_ok);
		for (int i = 0; i < N; ++i)
		{
			lbTransform a = r[i], b = m[i], c = e[i];
			ENSURE(lbSolveTwoBoneIk(&a, &b, &c, &ins[i], NULL) == lb_ok);
			ENSURE(lbDistance(c.p, ee[i].p) <= 1.0e-4f);
			ENSURE(sameRotation(c.q, ee[i].q, 1.0e-3f));
			if (ins[i].useTargetRotation)
				ENSURE(sameRotation(ee[i].q, ins[i].targetRotationMs, 1.0e-6f));
			else
				ENSURE(!sameRotation(ee[i].q, ins[i].targetRotationMs, 1.0e-2f));
		}
	}
	return 0;
}

// The reference rigs' legs, posed by random hip and knee turns, to random ground targets, with the
// knee hinge from lbHumanoid (as the foot system gives it): the batch matches the single solve.
static int legsOnRig(lbReferenceRig id)
{
	lbSkeleton* s = lbCreateReferenceRig(id);
	lbHumanoid h;
	ENSURE(lbMapHumanoid(s, NULL, &h) == lb_ok);
	lbPose pose = lbCreatePose(s);
	uint64_t seed = 6 + (uint64_t)id;
	enum
	{
		N = 256
	};
	lbTransform r[N], m[N], e[N], r0[N], m0[N], e0[N];
	lbTwoBoneIkInput ins[N];
	for (int i = 0; i < N; ++i)
	{
		const int side = i & 1;
		lbLimbChain c;
		ENSURE(lbHumanoid_GetLimbChain(&h, side ? lb_limbLegR : lb_limbLegL, &c) == lb_ok);
		lbPose_SetRest(&pose, s);
		pose.local[c.root].q = lbQuatMul(pose.local[c.root].q, lbQuatFromAxisAngle(rndUnit(&seed), rndRange(&seed, 0.0f, 0.5f)));
		pose.local[c.mid].q = lbQuatMul(pose.local[c.mid].q, lbQuatFromAxisAngle(h.legAxes[side].kneeBendCalf, rndRange(&seed, 0.1f, 1.2f)));
		lbPose_LocalToModel(&pose, s);
		r0[i] = pose.model[c.root], m0[i] = pose.model[c.mid], e0[i] = pose.model[c.end];
		ins[i] = lbDefaultTwoBoneIkInput();
		ins[i].hingeAxisMs = lbLimbChain_HingeMs(&c, &pose);
		ins[i].soften = 0.02f;
		const float reach = c.upperLength + c.lowerLength;
		ins[i].targetMs = lbMulAdd(r0[i].p, rndRange(&seed, 0.5f, 1.05f) * reach,
								   lbNormalize(lbAdd(lbNeg(h.upMs), lbMulSV(0.4f, rndUnit(&seed)))));
	}
	memcpy(r, r0, sizeof r), memcpy(m, m0, sizeof m), memcpy(e, e0, sizeof e);
	ENSURE(lbSolveTwoBoneIkBatch(r, m, e, ins, NULL, N) == lb_ok);
	for (int i = 0; i < N; ++i)
	{
		lbTransform a = r0[i], b = m0[i], c = e0[i];
		ENSURE(lbSolveTwoBoneIk(&a, &b, &c, &ins[i], NULL) == lb_ok);
		ENSURE(lbDistance(b.p, m[i].p) <= 1.0e-4f && lbDistance(c.p, e[i].p) <= 1.0e-4f);
		ENSURE(sameRotation(a.q, r[i].q, 1.0e-3f) && sameRotation(b.q, m[i].q, 1.0e-3f) && sameRotation(c.q, e[i].q, 1.0e-3f));
		// The solve did move the leg (the targets are not where the feet were).
		ENSURE(lbDistance(c.p, e0[i].p) > 1.0e-3f);
	}
	lbDestroyPose(&pose);
	lbDestroySkeleton(s);
	return 0;
}

static int testLegsMannequin(void)
{
	return legsOnRig(lb_rigMannequin);
}

static int testLegsMixamo(void)
{
	return legsOnRig(lb_rigMixamo);
}

// A lane group of chains that follow one another is read and written at fixed offsets, any other
// through the chains' indices: the same chains give the same bits either way (here each laneable
// chain once in a row with the others, once with a chain only the single solve takes between every
// two). Both paths.
static int testRunsAndScattered(void)
{
	enum
	{
		N = 37 // whole lane groups and a partial one
	};
	uint64_t seed = 21;
	lbTransform r[N], m[N], e[N], r2[2 * N], m2[2 * N], e2[2 * N];
	lbTwoBoneIkInput ins[N], ins2[2 * N];
	for (int i = 0; i < N; ++i)
	{
		const Chain c = rndChain(&seed, 0), other = rndChain(&seed, 2);
		r[i] = r2[2 * i + 1] = c.r, m[i] = m2[2 * i + 1] = c.m, e[i] = e2[2 * i + 1] = c.e;
		ins[i] = ins2[2 * i + 1] = c.in;
		r2[2 * i] = other.r, m2[2 * i] = other.m, e2[2 * i] = other.e, ins2[2 * i] = other.in;
	}
	for (int p = 0; p < kPaths; ++p)
	{
		lbTransform rr[N], mm[N], ee[N], rr2[2 * N], mm2[2 * N], ee2[2 * N];
		memcpy(rr, r, sizeof r), memcpy(mm, m, sizeof m), memcpy(ee, e, sizeof e);
		memcpy(rr2, r2, sizeof r2), memcpy(mm2, m2, sizeof m2), memcpy(ee2, e2, sizeof e2);
		ENSURE(lbSolveTwoBoneIkBatchPath(rr, mm, ee, ins, NULL, N, pathLanes(p)) == lb_ok);
		ENSURE(lbSolveTwoBoneIkBatchPath(rr2, mm2, ee2, ins2, NULL, 2 * N, pathLanes(p)) == lb_ok);
		int moved = 0;
		for (int i = 0; i < N; ++i)
		{
			ENSURE(memcmp(&rr[i], &rr2[2 * i + 1], sizeof(lbTransform)) == 0);
			ENSURE(memcmp(&mm[i], &mm2[2 * i + 1], sizeof(lbTransform)) == 0);
			ENSURE(memcmp(&ee[i], &ee2[2 * i + 1], sizeof(lbTransform)) == 0);
			moved += memcmp(&ee[i], &e[i], sizeof(lbTransform)) != 0;
		}
		ENSURE(moved > N / 2); // the chains were solved, not left as they were
	}
	return 0;
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(testGivenHinge);
	RUN_TEST(testDerivedHinge);
	RUN_TEST(testMixedWithSingleOnly);
	RUN_TEST(testFoldedChains);
	RUN_TEST(testLengths);
	RUN_TEST(testWritesOnlyTheSolve);
	RUN_TEST(testBadInput);
	RUN_TEST(testEveryNumberChecked);
	RUN_TEST(testTargetRotationWithoutResults);
	RUN_TEST(testLegsMannequin);
	RUN_TEST(testLegsMixamo);
	RUN_TEST(testRunsAndScattered);
	TEST_MAIN_END();
}
