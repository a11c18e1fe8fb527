// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// IK benchmarks: ik.two_bone (ns per solve), ik.fabrik10 (us per solve to 1 mm, plus iterations),
// ik.fbik (us per humanoid solve, four effectors, 20 iterations, plus residual error).
#include "bench.h"
#include "limber/ik.h"
#include "limber/ik_batch.h"
#include "limber/rigs.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

// Small deterministic generator for inputs.
static float lbBenchRand(uint64_t* s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (float)((*s >> 40) & 0xFFFFFF) / 16777216.0f;
}

static lbVec3 lbBenchRandUnit(uint64_t* s)
{
	lbVec3 v = { lbBenchRand(s) - 0.5f, lbBenchRand(s) - 0.5f, lbBenchRand(s) - 0.5f };
	return lbNormalizeOr(v, lbVec3_axisX);
}

// `straight`: the chain starts straight (root, mid and end on one line), so the solver finds the
// hinge from the pole instead of from the bend.
static void lbBenchTwoBone(const lbBenchOptions* o, const char* name, bool straight)
{
	enum { N = 1024 };
	static lbVec3 targets[N];
	static lbTransform out[N];
	uint64_t seed = 1;
	const lbTransform r0 = lbMakeTransform(lbVec3_zero, lbQuat_identity);
	const lbTransform m0 = lbMakeTransform(lbMakeVec3(0.0f, straight ? 0.0f : 0.02f, -0.45f), lbQuat_identity);
	const lbTransform e0 = lbMakeTransform(lbMakeVec3(0.0f, 0.0f, -0.88f), lbQuat_identity);
	for (int i = 0; i < N; ++i)
		targets[i] = lbMulSV(0.2f + 0.75f * lbBenchRand(&seed), lbBenchRandUnit(&seed));
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.poleKind = lb_poleDirection;
	in.poleMs = lbVec3_axisY;
	// Batches of 32 solves (a few microseconds each) timed on their own; the median over batches
	// is robust to the scheduler on a shared machine.
	enum { B = 32 };
	int rounds = o->smoke ? 1 : 20;
	static double samples[20 * (N / B) * 4];
	int count = 0;
	int repeats = o->repeats < 4 ? o->repeats : 4;
	for (int rep = 0; rep < repeats * rounds; ++rep)
	{
		for (int b = 0; b < N; b += B)
		{
			uint64_t t0 = lbBenchNowNs();
			for (int i = b; i < b + B; ++i)
			{
				lbTransform r = r0, m = m0, e = e0;
				in.targetMs = targets[i];
				lbSolveTwoBoneIk(&r, &m, &e, &in, NULL);
				out[i] = e;
			}
			samples[count++] = (double)(lbBenchNowNs() - t0) / (double)B;
		}
	}
	lbBenchSink(out);
	lbBenchReport(o, name, lbBenchMedian(samples, count), "ns");
}

// ik.two_bone_batch: lbSolveTwoBoneIkBatch over 1024 legs (bent start, knee hinge given as the foot
// system gives it, soft IK 0.02, random reachable targets), ns per leg, median over calls; the
// same legs one lbSolveTwoBoneIk call each as ik.two_bone.hinge_given, for the ratio.
static void lbBenchTwoBoneBatch(const lbBenchOptions* o)
{
	enum { N = 1024 };
	static lbTransform r0[N], m0[N], e0[N], r[N], m[N], e[N];
	static lbTwoBoneIkInput in[N];
	uint64_t seed = 1;
	for (int i = 0; i < N; ++i)
	{
		r0[i] = lbMakeTransform(lbVec3_zero, lbQuat_identity);
		m0[i] = lbMakeTransform(lbMakeVec3(0.0f, 0.02f, -0.45f), lbQuat_identity);
		e0[i] = lbMakeTransform(lbMakeVec3(0.0f, 0.0f, -0.88f), lbQuat_identity);
		in[i] = lbDefaultTwoBoneIkInput();
		in[i].hingeAxisMs = lbVec3_axisX;
		in[i].soften = 0.02f;
		in[i].targetMs = lbMulSV(0.2f + 0.75f * lbBenchRand(&seed), lbBenchRandUnit(&seed));
	}
	const int reps = o->smoke ? 1 : 25 * (o->repeats < 4 ? o->repeats : 4);
	static double batch[100], single[100];
	for (int rep = 0; rep < reps; ++rep)
	{
		memcpy(r, r0, sizeof r), memcpy(m, m0, sizeof m), memcpy(e, e0, sizeof e);
		uint64_t t0 = lbBenchNowNs();
		lbSolveTwoBoneIkBatch(r, m, e, in, NULL, N);
		uint64_t t1 = lbBenchNowNs();
		lbBenchSink(e);
		memcpy(r, r0, sizeof r), memcpy(m, m0, sizeof m), memcpy(e, e0, sizeof e);
		uint64_t t2 = lbBenchNowNs();
		for (int i = 0; i < N; ++i)
			lbSolveTwoBoneIk(&r[i], &m[i], &e[i], &in[i], NULL);
		uint64_t t3 = lbBenchNowNs();
		lbBenchSink(e);
		batch[rep] = (double)(t1 - t0) / N;
		single[rep] = (double)(t3 - t2) / N;
	}
	const double b = lbBenchMedian(batch, reps), s1 = lbBenchMedian(single, reps);
	lbBenchReport(o, "ik.two_bone_batch", b, "ns");
	lbBenchReport(o, "ik.two_bone.hinge_given", s1, "ns");
	lbBenchReport(o, "ik.two_bone_batch.lanes", (double)lbTwoBoneIkBatchWidth(), "lanes");
	lbBenchReport(o, "ik.two_bone_batch.speedup", s1 / b, "x");
}

// FABRIK, 10 segments of 0.1 m in a gentle arc, to random reachable targets (the end of the chain
// after random joint bends), tolerance 1 mm.
static void lbBenchFabrik(const lbBenchOptions* o)
{
	enum { N = 256, J = 11 };
	static lbVec3 targets[N];
	static lbTransform chain[J], out[J];
	static int iters[N];
	uint64_t seed = 7;
	for (int i = 0; i < J; ++i)
	{
		float a = 0.08f * (float)i;
		chain[i] = lbMakeTransform(lbMakeVec3(0.0f, 0.0f, 0.0f), lbQuatFromAxisAngle(lbVec3_axisY, a));
		if (i > 0)
			chain[i].p = lbAdd(chain[i - 1].p, lbQuatRotate(chain[i - 1].q, lbMakeVec3(0.1f, 0.0f, 0.0f)));
	}
	for (int k = 0; k < N; ++k)
	{
		lbVec3 p = lbVec3_zero;
		lbQuat q = lbQuat_identity;
		for (int i = 0; i < J - 1; ++i)
		{
			q = lbQuatMul(q, lbQuatFromAxisAngle(lbBenchRandUnit(&seed), 0.5f * lbBenchRand(&seed)));
			p = lbAdd(p, lbQuatRotate(q, lbMakeVec3(0.1f, 0.0f, 0.0f)));
		}
		targets[k] = p;
	}
	lbFabrikInput in = lbDefaultFabrikInput();
	in.tolerance = 1.0e-3f;
	in.maxIterations = 100;
	// Median over individual solves (each timed on its own), over all repeats.
	int repeats = o->repeats < 16 ? o->repeats : 16;
	static double times[16 * N];
	double err = 0.0;
	int count = 0;
	for (int rep = 0; rep < repeats; ++rep)
	{
		for (int k = 0; k < N; ++k)
		{
			lbTransform j[J];
			for (int i = 0; i < J; ++i)
				j[i] = chain[i];
			in.targetMs = targets[k];
			lbIkResult res;
			uint64_t t0 = lbBenchNowNs();
			lbSolveFabrik(j, J, &in, &res);
			times[count++] = (double)(lbBenchNowNs() - t0) * 1.0e-3;
			iters[k] = res.iterations;
			err = res.remainingDistance > err ? res.remainingDistance : err;
			out[k % J] = j[J - 1];
		}
	}
	lbBenchSink(out);
	lbBenchReport(o, "ik.fabrik10", lbBenchMedian(times, count), "us");
	double it[N];
	for (int k = 0; k < N; ++k)
		it[k] = iters[k];
	lbBenchReport(o, "ik.fabrik10_iterations", lbBenchMedian(it, N), "iterations");
	lbBenchReport(o, "ik.fabrik10_error_max", err * 1.0e3, "mm");
}

// Full-body IK on the mannequin: four effectors at alpha 1 on targets from a posed body (pelvis
// moved, knees and elbows bent), solved from the rest pose, 20 iterations.
static void lbBenchFullBody(const lbBenchOptions* o)
{
	lbSkeleton* s = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid h;
	if (!s || lbMapHumanoid(s, NULL, &h) != lb_ok)
		return;
	lbPose pose = lbCreatePose(s);
	size_t wsSize = lbGetFullBodyIkWorkspaceSize(s);
	static lbTransform workspace[2 * LB_MAX_BONES];
	enum { N = 64 };
	static lbFullBodyIkEffector eff[N][lb_effectorCount];
	uint64_t seed = 3;
	const int ends[4] = { h.arm[0].hand, h.arm[1].hand, h.leg[0].foot, h.leg[1].foot };
	for (int k = 0; k < N; ++k)
	{
		lbPose_SetRest(&pose, s);
		lbTransform pm = pose.model[h.pelvis];
		pm.p = lbAdd(pm.p, lbMulSV(0.06f, lbBenchRandUnit(&seed)));
		pm.p = lbMulAdd(pm.p, -0.05f * lbBenchRand(&seed), h.upMs);
		lbPose_SetBoneModel(&pose, s, h.pelvis, pm, true);
		for (int side = 0; side < 2; ++side)
		{
			int bones[4] = { h.leg[side].thigh, h.leg[side].calf, h.arm[side].upperArm, h.arm[side].foreArm };
			lbVec3 axes[4] = { h.legAxes[side].kneeBendThigh, h.legAxes[side].kneeBendCalf, h.armAxes[side].elbowBendUpper,
							   h.armAxes[side].elbowBendFore };
			for (int b = 0; b < 4; ++b)
			{
				float a = (b & 1) ? 0.2f + 1.2f * lbBenchRand(&seed) : 0.6f * (lbBenchRand(&seed) - 0.5f);
				pose.local[bones[b]].q = lbQuatMul(pose.local[bones[b]].q, lbQuatFromAxisAngle(axes[b], a));
			}
		}
		lbPose_LocalToModel(&pose, s);
		for (int e = 0; e < lb_effectorCount; ++e)
			eff[k][e] = lbDefaultFullBodyIkEffector();
		for (int e = 0; e < 4; ++e)
		{
			eff[k][e].targetMs = pose.model[ends[e]].p;
			eff[k][e].positionAlpha = 1.0f;
		}
	}
	lbFullBodyIkDef st = lbDefaultFullBodyIkDef();
	static double times[16 * N];
	double residual[N], iterations[N];
	int repeats = o->repeats < 16 ? o->repeats : 16;
	int count = 0;
	for (int rep = 0; rep < repeats; ++rep)
	{
		for (int k = 0; k < N; ++k)
		{
			lbPose_SetRest(&pose, s);
			lbIkResult res;
			uint64_t t0 = lbBenchNowNs();
			lbSolveFullBodyIk(&pose, s, &h, &st, eff[k], workspace, wsSize, &res);
			times[count++] = (double)(lbBenchNowNs() - t0) * 1.0e-3;
			residual[k] = res.remainingDistance;
			iterations[k] = res.iterations;
		}
	}
	lbBenchSink(pose.model);
	lbBenchReport(o, "ik.fbik", lbBenchMedian(times, count), "us");
	double worst = 0.0;
	for (int k = 0; k < N; ++k)
		worst = residual[k] > worst ? residual[k] : worst;
	lbBenchReport(o, "ik.fbik_residual_max", worst * 1.0e3, "mm");
	// Body iterations used under the cap of 20 (the solve stops early once a step changes nothing).
	lbBenchReport(o, "ik.fbik_iterations", lbBenchMedian(iterations, N), "iterations");
	lbDestroyPose(&pose);
	lbDestroySkeleton(s);
}

void lbBenchIk(const lbBenchOptions* options);
void lbBenchIk(const lbBenchOptions* options)
{
	if (lbBenchSelected(options, "ik.two_bone"))
		lbBenchTwoBone(options, "ik.two_bone", false);
	if (lbBenchSelected(options, "ik.two_bone.straight_start"))
		lbBenchTwoBone(options, "ik.two_bone.straight_start", true);
	if (lbBenchSelected(options, "ik.two_bone_batch"))
		lbBenchTwoBoneBatch(options);
	if (lbBenchSelected(options, "ik.fabrik10"))
		lbBenchFabrik(options);
	if (lbBenchSelected(options, "ik.fbik"))
		lbBenchFullBody(options);
}
