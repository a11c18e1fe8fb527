// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Two-bone IK for many chains: chains the lanes can take are gathered eight at a time into a
// structure of arrays (one array per coordinate), solved by the kernel in two_bone_batch_kernel.h
// and scattered back; the others go through lbSolveTwoBoneIk, which also reports bad input. The
// kernel is compiled twice from one text: on core/simd.h's vector lanes and on plain floats.
#include "core/simd.h"
#include "ik_batch_internal.h"
#include "ik_internal.h"

#define LB_TB_LANES 8

typedef struct lbTwoBoneLanes
{
	// Inputs: root, mid and end positions and rotations, target, hinge axis, soften.
	float a[3][LB_TB_LANES], m[3][LB_TB_LANES], e[3][LB_TB_LANES];
	float qa[4][LB_TB_LANES], qm[4][LB_TB_LANES], qe[4][LB_TB_LANES];
	float t[3][LB_TB_LANES], hinge[3][LB_TB_LANES], soften[LB_TB_LANES];
	// Outputs: root rotation, mid position and rotation, end position and rotation.
	float oqa[4][LB_TB_LANES], omp[3][LB_TB_LANES], oqm[4][LB_TB_LANES], oep[3][LB_TB_LANES], oqe[4][LB_TB_LANES];
	// Nonzero where the lane needs the single solve after all (a chain turned nearly opposite).
	float fallback[LB_TB_LANES];
} lbTwoBoneLanes;

#define LBK(op) lbScalar##op
#define LBK_T lbScalarF
#define LBK_W 1
#define LBK_NAME lbTwoBoneLanesScalar
#include "two_bone_batch_kernel.h"
#undef LBK
#undef LBK_T
#undef LBK_W
#undef LBK_NAME

#if !defined(LB_SIMD_SCALAR_ONLY)
#define LBK(op) lbSimd##op
#define LBK_T lbSimdF
#define LBK_W LB_SIMD_WIDTH
#define LBK_NAME lbTwoBoneLanesSimd
#include "two_bone_batch_kernel.h"
#undef LBK
#undef LBK_T
#undef LBK_W
#undef LBK_NAME
#endif

int lbTwoBoneIkBatchWidth(void)
{
	return LB_SIMD_WIDTH;
}

static bool lbTbFinite3(lbVec3 v)
{
	return lbIsValidFloat(v.x) && lbIsValidFloat(v.y) && lbIsValidFloat(v.z);
}

// Whether the lanes solve this chain as lbSolveTwoBoneIk would (and the single solve would accept
// it): otherwise the single solve takes it.
static bool lbTwoBoneLaneable(const lbTransform* r, const lbTransform* m, const lbTransform* e, const lbTwoBoneIkInput* in)
{
	if (in->internalValue != LB_SECRET_COOKIE || in->useTargetRotation || in->poleKind != lb_poleNone || in->stretch ||
		!(in->weight >= 1.0f) || !lbIsValidFloat(in->weight) || !lbIsValidFloat(in->soften) ||
		!lbIsValidFloat(in->maxStretch) || !lbIsValidFloat(in->tolerance) || !lbTbFinite3(in->targetMs) ||
		!lbTbFinite3(in->hingeAxisMs) || !lbTbFinite3(in->bendHintMs))
		return false;
	if (!lbIkValidTransformFast(r) || !lbIkValidTransformFast(m) || !lbIkValidTransformFast(e))
		return false;
	const lbVec3 w = lbSub(m->p, r->p), v = lbSub(e->p, m->p);
	const float ww = lbDot(w, w), vv = lbDot(v, v);
	if (!(ww > 1.0e-12f) || !(vv > 1.0e-12f))
		return false;
	const float hh = lbDot(in->hingeAxisMs, in->hingeAxisMs);
	if (hh == 0.0f)
	{
		// Derived from the bend: a straight start finds its hinge from the bend hint instead.
		const lbVec3 c = lbCross(w, v);
		if (!(lbDot(c, c) > 1.0e-8f * ww * vv))
			return false;
	}
	else if (!(hh > 1.0e-14f))
		return false; // lbNormalize's own threshold decides what a tiny axis means
	const lbVec3 toTarget = lbSub(in->targetMs, r->p);
	return lbDot(toTarget, toTarget) > 1.0e-12f;
}

static void lbTwoBoneLaneIn(lbTwoBoneLanes* L, int k, const lbTransform* r, const lbTransform* m, const lbTransform* e,
							const lbTwoBoneIkInput* in)
{
	const float* src[3] = { &r->p.x, &m->p.x, &e->p.x };
	float(*pos[3])[LB_TB_LANES] = { L->a, L->m, L->e };
	const lbQuat* q[3] = { &r->q, &m->q, &e->q };
	float(*rot[3])[LB_TB_LANES] = { L->qa, L->qm, L->qe };
	for (int j = 0; j < 3; ++j)
	{
		for (int c = 0; c < 3; ++c)
			pos[j][c][k] = src[j][c];
		rot[j][0][k] = q[j]->x, rot[j][1][k] = q[j]->y, rot[j][2][k] = q[j]->z, rot[j][3][k] = q[j]->w;
	}
	L->t[0][k] = in->targetMs.x, L->t[1][k] = in->targetMs.y, L->t[2][k] = in->targetMs.z;
	L->hinge[0][k] = in->hingeAxisMs.x, L->hinge[1][k] = in->hingeAxisMs.y, L->hinge[2][k] = in->hingeAxisMs.z;
	L->soften[k] = in->soften;
	L->fallback[k] = 0.0f;
}

static lbQuat lbTwoBoneLaneQuat(float q[4][LB_TB_LANES], int k)
{
	return LB_LITERAL(lbQuat){ q[0][k], q[1][k], q[2][k], q[3][k] };
}

static lbVec3 lbTwoBoneLaneVec(float v[3][LB_TB_LANES], int k)
{
	return LB_LITERAL(lbVec3){ v[0][k], v[1][k], v[2][k] };
}

// Solves the n gathered chains (chain k of the lanes is index idx[k]) and writes them back.
static lbResult lbTwoBoneLanesRun(lbTwoBoneLanes* L, const int* idx, int n, lbTransform* rootMs, lbTransform* midMs,
								  lbTransform* endMs, const lbTwoBoneIkInput* inputs, lbIkResult* outResults, bool simd)
{
	// Unused lanes repeat the first chain: every lane computes on valid numbers.
	for (int k = n; k < LB_TB_LANES; ++k)
		lbTwoBoneLaneIn(L, k, &rootMs[idx[0]], &midMs[idx[0]], &endMs[idx[0]], &inputs[idx[0]]);
#if !defined(LB_SIMD_SCALAR_ONLY)
	if (simd)
		lbTwoBoneLanesSimd(L);
	else
#endif
		lbTwoBoneLanesScalar(L);
	(void)simd;
	lbResult first = lb_ok;
	for (int k = 0; k < n; ++k)
	{
		const int i = idx[k];
		if (L->fallback[k] != 0.0f)
		{
			lbResult r = lbSolveTwoBoneIk(&rootMs[i], &midMs[i], &endMs[i], &inputs[i], outResults ? &outResults[i] : NULL);
			first = first == lb_ok ? r : first;
			continue;
		}
		rootMs[i].q = lbTwoBoneLaneQuat(L->oqa, k);
		midMs[i].p = lbTwoBoneLaneVec(L->omp, k);
		midMs[i].q = lbTwoBoneLaneQuat(L->oqm, k);
		endMs[i].p = lbTwoBoneLaneVec(L->oep, k);
		endMs[i].q = lbTwoBoneLaneQuat(L->oqe, k);
		if (outResults)
		{
			lbIkResult* res = &outResults[i];
			res->remainingDistance = lbDistance(endMs[i].p, inputs[i].targetMs);
			res->reached = res->remainingDistance <= lbMaxF(inputs[i].tolerance, 0.0f);
			res->iterations = 1;
			res->status = res->reached ? lb_ikReached : lb_ikUnreachable;
		}
	}
	return first;
}

lbResult lbSolveTwoBoneIkBatchPath(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs,
								   const lbTwoBoneIkInput* inputs, lbIkResult* outResults, int count, bool simd)
{
	if (count < 0 || (count > 0 && (!rootMs || !midMs || !endMs || !inputs)))
		return lbReport(lb_errorNullPointer, "lbSolveTwoBoneIkBatch: joints and inputs are required (count %d)", count);
	lbTwoBoneLanes L;
	int idx[LB_TB_LANES];
	int n = 0;
	lbResult first = lb_ok;
	// Errors come in index order: a chain the lanes cannot take is solved (or refused) at once,
	// and the lanes never refuse one, so the first error met is the first chain's.
	for (int i = 0; i < count; ++i)
	{
		if (!lbTwoBoneLaneable(&rootMs[i], &midMs[i], &endMs[i], &inputs[i]))
		{
			lbResult r = lbSolveTwoBoneIk(&rootMs[i], &midMs[i], &endMs[i], &inputs[i], outResults ? &outResults[i] : NULL);
			first = first == lb_ok ? r : first;
			continue;
		}
		lbTwoBoneLaneIn(&L, n, &rootMs[i], &midMs[i], &endMs[i], &inputs[i]);
		idx[n++] = i;
		if (n == LB_TB_LANES)
		{
			lbResult r = lbTwoBoneLanesRun(&L, idx, n, rootMs, midMs, endMs, inputs, outResults, simd);
			first = first == lb_ok ? r : first;
			n = 0;
		}
	}
	if (n > 0)
	{
		lbResult r = lbTwoBoneLanesRun(&L, idx, n, rootMs, midMs, endMs, inputs, outResults, simd);
		first = first == lb_ok ? r : first;
	}
	return first;
}

lbResult lbSolveTwoBoneIkBatch(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs, const lbTwoBoneIkInput* inputs,
							   lbIkResult* outResults, int count)
{
	return lbSolveTwoBoneIkBatchPath(rootMs, midMs, endMs, inputs, outResults, count, true);
}
