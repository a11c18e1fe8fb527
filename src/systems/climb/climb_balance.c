// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Balance for the climbing system: the centre of mass from anthropometric segment parameters and
// a smoothed body shift toward the support of the held contacts (see climb_balance.h).
#include "limber/climb_balance.h"

#include <math.h>
#include <string.h>

// de Leva (1996), Table 4, male: mass fractions of total body mass, and the centre of mass's
// place along each segment from its proximal joint (fraction of its length).
#define LB_MASS_HEAD 0.0694f
#define LB_MASS_TRUNK 0.4346f
#define LB_MASS_UPPER_ARM 0.0271f
#define LB_MASS_FOREARM 0.0162f
#define LB_MASS_HAND 0.0061f
#define LB_MASS_THIGH 0.1416f
#define LB_MASS_SHANK 0.0433f
#define LB_MASS_FOOT 0.0137f
#define LB_COM_TRUNK 0.4486f // from the neck base (cervicale) toward the hip centre
#define LB_COM_UPPER_ARM 0.5772f
#define LB_COM_FOREARM 0.4574f
#define LB_COM_THIGH 0.4095f
#define LB_COM_SHANK 0.4459f
#define LB_COM_FOOT 0.4415f // heel to toe tip; here from the ankle toward the toe tip

lbClimbBalanceDef lbDefaultClimbBalanceDef(void)
{
	lbClimbBalanceDef d;
	memset(&d, 0, sizeof d);
	d.up = lbVec3_axisZ;
	d.weight = 1.0f;
	d.maxShift = 0.25f;
	d.speed = 3.0f;
	d.maxIntoWall = 0.05f;
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

void lbClimbBalanceState_Reset(lbClimbBalanceState* state)
{
	if (state)
		memset(state, 0, sizeof *state);
}

static bool lbBoneOk(int bone, int count)
{
	return bone >= 0 && bone < count;
}

lbResult lbHumanoidCentreOfMass(const lbHumanoid* h, const lbPose* pose, lbTransform characterWs, lbVec3* outComWs)
{
	if (!h || !pose || !pose->model || !outComWs)
		return lbReport(lb_errorNullPointer, "lbHumanoidCentreOfMass: an argument is NULL");
	const int n = pose->boneCount;
	const int neck = h->neck >= 0 ? h->neck : (h->spineCount > 0 ? h->spine[h->spineCount - 1] : h->pelvis);
	if (!lbBoneOk(h->pelvis, n) || !lbBoneOk(neck, n) || !lbBoneOk(h->head, n))
		return lbReport(lb_errorSkeletonMismatch, "lbHumanoidCentreOfMass: the pose lacks the map's pelvis, neck or head");
	for (int s = 0; s < 2; ++s)
		if (!lbBoneOk(h->arm[s].upperArm, n) || !lbBoneOk(h->arm[s].foreArm, n) || !lbBoneOk(h->arm[s].hand, n) ||
			!lbBoneOk(h->leg[s].thigh, n) || !lbBoneOk(h->leg[s].calf, n) || !lbBoneOk(h->leg[s].foot, n))
			return lbReport(lb_errorSkeletonMismatch, "lbHumanoidCentreOfMass: the pose lacks a limb bone of the map");
	const lbTransform* m = pose->model;
	lbVec3 sum = lbVec3_zero;
	float total = 0.0f;
#define LB_ADD(mass, point)                                                                                  \
	do                                                                                                       \
	{                                                                                                        \
		sum = lbMulAdd(sum, (mass), (point));                                                                \
		total += (mass);                                                                                     \
	} while (0)
	const lbVec3 hips = lbMulSV(0.5f, lbAdd(m[h->leg[0].thigh].p, m[h->leg[1].thigh].p));
	const lbVec3 neckP = m[neck].p, headP = m[h->head].p;
	// The head's centre lies beyond the head joint along the neck (the joint sits at its base).
	LB_ADD(LB_MASS_HEAD, lbMulAdd(headP, 0.5f, lbSub(headP, neckP)));
	LB_ADD(LB_MASS_TRUNK, lbLerp(neckP, hips, LB_COM_TRUNK));
	for (int s = 0; s < 2; ++s)
	{
		const lbVec3 sh = m[h->arm[s].upperArm].p, el = m[h->arm[s].foreArm].p, wr = m[h->arm[s].hand].p;
		LB_ADD(LB_MASS_UPPER_ARM, lbLerp(sh, el, LB_COM_UPPER_ARM));
		LB_ADD(LB_MASS_FOREARM, lbLerp(el, wr, LB_COM_FOREARM));
		// The map has no hand length: the palm's middle lies about a fifth of a forearm beyond the
		// wrist, along it.
		LB_ADD(LB_MASS_HAND, lbMulAdd(wr, 0.2f, lbSub(wr, el)));
		const lbVec3 hip = m[h->leg[s].thigh].p, knee = m[h->leg[s].calf].p, ankle = m[h->leg[s].foot].p;
		LB_ADD(LB_MASS_THIGH, lbLerp(hip, knee, LB_COM_THIGH));
		LB_ADD(LB_MASS_SHANK, lbLerp(knee, ankle, LB_COM_SHANK));
		lbVec3 sole[lb_solePointCount];
		lbHumanoid_GetSolePointsMs(h, pose, s, sole);
		LB_ADD(LB_MASS_FOOT, lbLerp(ankle, sole[lb_soleToeTip], LB_COM_FOOT));
	}
#undef LB_ADD
	*outComWs = lbTransformPoint(characterWs, lbMulSV(1.0f / total, sum));
	return lb_ok;
}

// Closest point to p (2D, a and b components) of the convex hull of `count` points (at most 4).
static void lbClosestOnHull(const float (*pts)[2], int count, const float p[2], float out[2])
{
	// Gift wrapping on so few points: the hull in counter-clockwise order.
	int hull[4], hn = 0;
	if (count >= 3)
	{
		int start = 0;
		for (int i = 1; i < count; ++i)
			if (pts[i][0] < pts[start][0] || (pts[i][0] == pts[start][0] && pts[i][1] < pts[start][1]))
				start = i;
		int cur = start;
		do
		{
			hull[hn++] = cur;
			int next = (cur + 1) % count;
			for (int i = 0; i < count; ++i)
			{
				float cross = (pts[next][0] - pts[cur][0]) * (pts[i][1] - pts[cur][1]) -
							  (pts[next][1] - pts[cur][1]) * (pts[i][0] - pts[cur][0]);
				if (cross < 0.0f)
					next = i;
			}
			cur = next;
		} while (cur != start && hn < 4);
	}
	if (hn >= 3)
	{
		bool inside = true;
		for (int k = 0; k < hn && inside; ++k)
		{
			const float* a = pts[hull[k]];
			const float* b = pts[hull[(k + 1) % hn]];
			inside = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0.0f;
		}
		if (inside)
		{
			out[0] = p[0];
			out[1] = p[1];
			return;
		}
	}
	else
	{
		hn = count;
		for (int i = 0; i < count; ++i)
			hull[i] = i;
	}
	// Outside (or fewer than three points): the nearest point of the edges (or the point).
	float best = INFINITY;
	for (int k = 0; k < hn; ++k)
	{
		const float* a = pts[hull[k]];
		const float* b = pts[hull[(k + 1) % hn]];
		float ex = b[0] - a[0], ey = b[1] - a[1], len2 = ex * ex + ey * ey;
		float t = len2 > 1.0e-12f ? lbClampF(((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / len2, 0.0f, 1.0f) : 0.0f;
		float qx = a[0] + t * ex, qy = a[1] + t * ey;
		float d = (p[0] - qx) * (p[0] - qx) + (p[1] - qy) * (p[1] - qy);
		if (d < best)
		{
			best = d;
			out[0] = qx;
			out[1] = qy;
		}
	}
}

lbResult lbClimbBalance(lbClimbBalanceState* state, const lbClimbBalanceDef* def, const lbHumanoid* h, const lbPose* pose,
						float dt, lbClimbTargets* targets, lbClimbBalanceResult* outResult)
{
	if (!state || !def || !h || !targets)
		return lbReport(lb_errorNullPointer, "lbClimbBalance: state, def, humanoid and targets are required");
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbClimbBalance: def not initialised with lbDefaultClimbBalanceDef()");
	if (!lbIsValidFloat(dt) || !lbIsValidVec3(def->up) || !lbIsValidFloat(def->weight) || !lbIsValidFloat(def->maxShift) ||
		!lbIsValidFloat(def->speed) || !lbIsValidVec3(state->shiftWs) || !lbIsValidTransform(targets->characterWs))
		return lbReport(lb_errorNonFinite, "lbClimbBalance: dt, the def, the state's shift or the targets' frame is not finite");
	lbClimbBalanceResult res;
	memset(&res, 0, sizeof res);
	const lbVec3 up = lbNormalizeOr(def->up, lbVec3_axisZ);
	const lbVec3 a = lbAnyPerpendicular(up), b = lbCross(up, a);
	lbVec3 target = lbVec3_zero;
	bool measured = pose && lbHumanoidCentreOfMass(h, pose, targets->characterWs, &res.comWs) == lb_ok &&
					lbIsValidVec3(res.comWs);
	if (measured)
	{
		// The support: each held limb's contact seen from above (a hand's hold, a foot's toe tip).
		float pts[4][2];
		for (int i = 0; i < 4; ++i)
		{
			const lbClimbLimbTarget* t = &targets->limbs[i];
			if (!t->locked)
				continue;
			lbVec3 c = i < 2 && t->hasSurface ? t->surfaceWs : t->targetWs;
			pts[res.supportCount][0] = lbDot(c, a);
			pts[res.supportCount][1] = lbDot(c, b);
			res.supportCount++;
		}
		if (res.supportCount > 0)
		{
			const float p[2] = { lbDot(res.comWs, a), lbDot(res.comWs, b) };
			float q[2] = { p[0], p[1] };
			lbClosestOnHull((const float(*)[2])pts, res.supportCount, p, q);
			const float dx = q[0] - p[0], dy = q[1] - p[1];
			res.supportDistance = sqrtf(dx * dx + dy * dy);
			// The pose already carries the present shift: the target adds what is still missing.
			const float w = lbClampF(def->weight, 0.0f, 1.0f);
			target = lbClampLength(lbAdd(state->shiftWs, lbAdd(lbMulSV(w * dx, a), lbMulSV(w * dy, b))), lbMaxF(def->maxShift, 0.0f));
			// Toward the wall the body goes no more than maxIntoWall: on a vertical wall the support
			// lies in the wall's plane and the centre of mass can never be over it; the body swings
			// sideways under the holds instead, and the clearance keeps it off the wall.
			lbVec3 wallN = lbVec3_zero;
			for (int i = 0; i < 4; ++i)
				if (targets->limbs[i].locked && targets->limbs[i].hasSurface)
					wallN = lbAdd(wallN, targets->limbs[i].normalWs);
			const lbVec3 wn = lbNormalizeOr(lbProjectOnPlane(wallN, up), lbVec3_zero);
			const float into = -lbDot(target, wn);
			if (into > def->maxIntoWall)
				target = lbMulAdd(target, into - lbMaxF(def->maxIntoWall, 0.0f), wn);
		}
	}
	else
		target = state->shiftWs;
	if (dt > 0.0f)
		state->shiftWs = lbVInterpTo(state->shiftWs, target, dt, def->speed);
	targets->bodyOffsetWs = lbAdd(targets->bodyOffsetWs, state->shiftWs);
	if (outResult)
		*outResult = res;
	return lb_ok;
}
