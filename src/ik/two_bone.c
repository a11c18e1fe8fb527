// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Analytic two-bone IK. The mid joint is a hinge: it turns about its hinge axis until the root-end
// distance equals the (softened, stretched, clamped) target distance; this is the law of cosines
// generalised to bones that are not normal to the hinge, as in the hinge-axis formulation of
// ozz-animation's IKTwoBoneJob and of Tolani, Goswami and Badler, "Real-time inverse kinematics
// techniques for anthropomorphic limbs" (Graphical Models 62, 2000). The root then swings the
// chain onto the target and turns it about the root-target line (the swivel angle of Tolani et
// al.) so the mid joint faces the pole. Soft IK (approaching full extension along an exponential
// instead of snapping straight) follows Andy Nicholas, "Soft IK" (2009).
#include "ik_internal.h"

#include <stddef.h>

lbTwoBoneIkInput lbDefaultTwoBoneIkInput(void)
{
	lbTwoBoneIkInput in;
	in.targetMs = lbVec3_zero;
	in.targetRotationMs = lbQuat_identity;
	in.useTargetRotation = false;
	in.poleKind = lb_poleNone;
	in.poleMs = lbVec3_zero;
	in.hingeAxisMs = lbVec3_zero;
	in.bendHintMs = lbVec3_zero;
	in.weight = 1.0f;
	in.soften = 0.0f;
	in.stretch = false;
	in.maxStretch = 1.1f;
	in.tolerance = 1.0e-4f;
	in.internalValue = LB_SECRET_COOKIE;
	return in;
}

static lbResult lbCheckTwoBoneInput(const char* fn, const lbTwoBoneIkInput* in)
{
	if (!in)
		return lbReport(lb_errorNullPointer, "%s: input is NULL", fn);
	if (in->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: input not initialised with lbDefaultTwoBoneIkInput()", fn);
	// One branch for the common case: every number finite.
	float probe = lbIkFiniteProbe3(in->targetMs) + lbIkFiniteProbe3(in->poleMs) + lbIkFiniteProbe3(in->hingeAxisMs) +
				  lbIkFiniteProbe3(in->bendHintMs) + (in->weight - in->weight) + (in->soften - in->soften) +
				  (in->maxStretch - in->maxStretch) + (in->tolerance - in->tolerance);
	if (probe == 0.0f && (unsigned)in->poleKind <= (unsigned)lb_poleDirection && !in->useTargetRotation)
		return lb_ok;
	if (!lbIsValidVec3(in->targetMs))
		return lbReport(lb_errorNonFinite, "%s: non-finite target", fn);
	if (in->useTargetRotation && !lbIsValidQuat(in->targetRotationMs))
		return lbReport(lb_errorNonFinite, "%s: non-finite or non-unit target rotation", fn);
	if (in->poleKind != lb_poleNone && in->poleKind != lb_poleLocation && in->poleKind != lb_poleDirection)
		return lbReport(lb_errorInvalidArgument, "%s: unknown pole kind %d", fn, (int)in->poleKind);
	if (in->poleKind != lb_poleNone && !lbIsValidVec3(in->poleMs))
		return lbReport(lb_errorNonFinite, "%s: non-finite pole", fn);
	if (!lbIsValidVec3(in->hingeAxisMs) || !lbIsValidVec3(in->bendHintMs))
		return lbReport(lb_errorNonFinite, "%s: non-finite hinge axis or bend hint", fn);
	if (!lbIsValidFloat(in->weight) || !lbIsValidFloat(in->soften) || !lbIsValidFloat(in->maxStretch) ||
		!lbIsValidFloat(in->tolerance))
		return lbReport(lb_errorNonFinite, "%s: non-finite weight, soften, maxStretch or tolerance", fn);
	return lb_ok;
}

// The solve proper, on checked input. Writes the three transforms.
static void lbTwoBoneCore(lbTransform* root, lbTransform* mid, lbTransform* end, const lbTwoBoneIkInput* in,
						  lbIkResult* res)
{
	const lbVec3 a = root->p;
	const lbVec3 w = lbSub(mid->p, a);      // upper bone
	const lbVec3 v = lbSub(end->p, mid->p); // lower bone
	const float weight = lbClampF(in->weight, 0.0f, 1.0f);
	const float soften = lbClampF(in->soften, 0.0f, 0.5f);
	const float maxStretch = lbMaxF(in->maxStretch, 1.0f);

	// Pole direction seen from the root (zero when none).
	lbVec3 poleDir = lbVec3_zero;
	if (in->poleKind == lb_poleLocation)
		poleDir = lbSub(in->poleMs, a);
	else if (in->poleKind == lb_poleDirection)
		poleDir = in->poleMs;

	// Hinge axis: given, else from the current bend, else from the pole, hint or any perpendicular.
	// With the hinge from the current bend both bones are normal to it, which skips the
	// projections below.
	lbVec3 h = lbLengthSquared(in->hingeAxisMs) > 0.0f ? lbNormalize(in->hingeAxisMs) : lbVec3_zero;
	bool derived = false;
	const lbVec3 c = lbCross(w, v);
	const float cc = lbDot(c, c), ww = lbDot(w, w), vv = lbDot(v, v);
	// |c| and |w||v| share one division: invCwv = 1 / (|c| |w||v|).
	float cLen = 0.0f, wv = 0.0f, invCwv = 0.0f;
	if (lbLengthSquared(h) == 0.0f)
	{
		if (cc > 1.0e-8f * ww * vv)
		{
			cLen = sqrtf(cc);
			wv = sqrtf(ww * vv);
			invCwv = 1.0f / (cLen * wv);
			h = lbMulSV(wv * invCwv, c);
			derived = true;
		}
		else
		{
			// Straight limb: bending toward n means the hinge is n x w (see lbHumanoid's derivation).
			lbVec3 n = lbProjectOnPlane(poleDir, w);
			if (!(lbDot(n, n) > 1.0e-6f * lbDot(poleDir, poleDir)) || lbDot(n, n) == 0.0f)
				n = lbProjectOnPlane(in->bendHintMs, w);
			n = lbNormalizeOr(n, lbAnyPerpendicular(w));
			h = lbNormalizeOr(lbCross(n, w), lbAnyPerpendicular(w));
		}
	}

	// Target direction; a target at the root keeps the current root-end direction.
	const lbVec3 toTarget = lbSub(in->targetMs, a);
	const float dist = lbLength(toTarget);
	lbVec3 axis;
	if (dist > 1.0e-6f)
		axis = lbMulSV(1.0f / dist, toTarget);
	else
		axis = lbNormalizeOr(lbAdd(w, v), lbNormalizeOr(w, lbVec3_axisX));

	// Hinge geometry: |w + R(theta) v|^2 = base + cross2 cos(theta + current bend): only the parts
	// of the bones normal to h depend on theta. (cos0, sin0) is the current bend about h.
	float base, cross2, cos0 = 1.0f, sin0 = 0.0f;
	if (derived)
	{
		const float invWv = cLen * invCwv;
		base = ww + vv;
		cross2 = 2.0f * wv;
		cos0 = lbDot(w, v) * invWv;
		sin0 = cLen * invWv;
	}
	else
	{
		const lbVec3 vPar = lbMulSV(lbDot(v, h), h);
		const lbVec3 vPerp = lbSub(v, vPar);
		const lbVec3 wPerp = lbMulAdd(w, -lbDot(w, h), h);
		const lbVec3 wvp = lbAdd(w, vPar);
		base = lbDot(wvp, wvp) + lbDot(vPerp, vPerp);
		cross2 = 2.0f * sqrtf(lbDot(wPerp, wPerp) * lbDot(vPerp, vPerp));
		if (cross2 > 1.0e-12f)
		{
			float inv = 2.0f / cross2;
			cos0 = lbDot(wPerp, vPerp) * inv;
			sin0 = lbDot(h, lbCross(wPerp, vPerp)) * inv;
		}
	}

	// Soften and stretch the target distance (squared from here on).
	float dSolve2 = dist * dist, k = 1.0f;
	if (soften > 0.0f || in->stretch)
	{
		const float dMax = sqrtf(base + cross2);
		float dReach = dist;
		if (soften > 0.0f)
		{
			float band = soften * dMax, start = dMax - band;
			if (dist > start)
				dReach = start + band * (1.0f - expf(-(dist - start) / band));
		}
		// Stretch covers what softening and full extension leave (Nicholas: scale by d / dSoft).
		dReach = lbMinF(dReach, dMax);
		if (in->stretch && dReach < dist && dReach > 1.0e-6f)
			k = lbMinF(dist / dReach, maxStretch);
		dSolve2 = dReach * dReach;
	}

	// Bend (0 = straight, positive = the hinge's way) giving that distance, as (cos, sin); the mid
	// joint turns by the difference. The clamp is the reach limit (straight or fully folded).
	float cos1 = 1.0f;
	if (cross2 > 1.0e-12f)
		cos1 = lbClampF((dSolve2 - base) / cross2, -1.0f, 1.0f); // a true division: exactly 1 at full reach
	const float sin1 = sqrtf(lbMaxF(1.0f - cos1 * cos1, 0.0f));
	// Solved root-end length: |w + vBent| from the law of cosines, known before vBent.
	const float len2 = lbMaxF(base + cos1 * cross2, 0.0f);
	const float len = sqrtf(len2), invLen = len2 > 0.0625f * base ? 1.0f / len : 0.0f;
	const float cosD = lbClampF(cos1 * cos0 + sin1 * sin0, -1.0f, 1.0f);
	const float sinD = sin1 * cos0 - cos1 * sin0;
	// (h sin D, 1 + cos D) is the half-angle rotation up to scale; accurate for small turns.
	lbQuat pMid; // qMid up to scale
	if (cosD > -0.99f)
		pMid = LB_LITERAL(lbQuat){ h.x * sinD, h.y * sinD, h.z * sinD, 1.0f + cosD };
	else
	{
		float hs = sqrtf(0.5f * (1.0f - cosD)) * (sinD < 0.0f ? -1.0f : 1.0f);
		pMid = LB_LITERAL(lbQuat){ h.x * hs, h.y * hs, h.z * hs, sqrtf(0.5f * (1.0f + cosD)) };
	}
	const lbQuat qMid = cosD > -0.99f ? lbIkQuatNormalizeNonZero(pMid) : lbQuatNormalize(pMid);
	// Bent by the mid rotation itself (not from cosD, sinD, which need not agree near a half turn)
	// so that the positions below match the rotations. Rotating by the unnormalised quaternion and
	// dividing by its squared norm keeps the normalisation's square root off this path:
	// v' = v + 2 (w (p x v) + p x (p x v)) / |q|^2.
	const lbVec3 pv = { pMid.x, pMid.y, pMid.z };
	const lbVec3 pxv = lbCross(pv, v);
	const lbVec3 vBent = lbMulAdd(v, 2.0f / lbQuatDot(pMid, pMid), lbMulAdd(lbCross(pv, pxv), pMid.w, pxv));

	// Root rotation: swing the root so the end lies on the target line, then swivel about that
	// line so the mid joint faces the pole. The knee direction is read from the hinge (chain
	// direction x hinge), which stays defined when the limb is straight.
	const lbVec3 s = lbAdd(w, vBent);
	const float pp = lbDot(poleDir, poleDir);
	lbQuat qRoot;
	float m[9]; // the same rotation as a matrix (row major) when set
	bool haveMatrix = false;
	lbVec3 pPerp = lbVec3_zero;
	float sin2 = 0.0f;
	if (pp > 0.0f)
	{
		pPerp = lbMulAdd(poleDir, -lbDot(poleDir, axis), axis);
		sin2 = lbDot(pPerp, pPerp) / pp;
		const float ss = lbDot(s, s);
		if (sin2 >= 0.0025f && ss > 1.0e-12f * (ww + vv))
		{
			// The rotation takes the orthonormal frame (chain direction, knee, third) to (target
			// line, pole normal to it, third): one matrix and one quaternion extraction, where a
			// swing followed by a twist needs two quaternions, a rotation and a product.
			// The closed-form length, unless cancellation (a nearly folded limb) makes it rough.
			const lbVec3 u = lbMulSV(invLen > 0.0f ? invLen : 1.0f / sqrtf(ss), s);
			lbVec3 k0 = lbCross(u, h);
			const float kk = lbDot(k0, k0);
			if (kk > 1.0e-12f)
			{
				if (!derived) // with the hinge from the bones, h is normal to u and k0 is unit
					k0 = lbMulSV(1.0f / sqrtf(kk), k0);
				const lbVec3 kF = lbMulSV(1.0f / sqrtf(lbDot(pPerp, pPerp)), pPerp);
				const lbVec3 b0 = lbCross(u, k0), bF = lbCross(axis, kF);
				const float f0[3][3] = { { u.x, u.y, u.z }, { k0.x, k0.y, k0.z }, { b0.x, b0.y, b0.z } };
				const float f1[3][3] = { { axis.x, axis.y, axis.z }, { kF.x, kF.y, kF.z }, { bF.x, bF.y, bF.z } };
				for (int r = 0; r < 3; ++r)
					for (int col = 0; col < 3; ++col)
						m[3 * r + col] = f1[0][r] * f0[0][col] + f1[1][r] * f0[1][col] + f1[2][r] * f0[2][col];
				qRoot = lbIkQuatFromMatrix(m);
				haveMatrix = true;
			}
		}
	}
	if (!haveMatrix)
	{
		const lbQuat qSwing = lbIkFromTo(s, axis);
		qRoot = qSwing;
		if (pp > 0.0f)
		{
			lbVec3 kneeDir = lbCross(axis, lbQuatRotate(qSwing, h));
			if (sin2 > 1.0e-8f && lbDot(kneeDir, kneeDir) > 1.0e-12f)
			{
				// Turn about the axis taking kneeDir to pPerp (both normal to it), from the sine
				// and cosine of the angle with the half-angle identities; exact up to a half turn.
				float ab = sqrtf(lbDot(kneeDir, kneeDir) * lbDot(pPerp, pPerp));
				float cs = lbDot(kneeDir, pPerp), sn = lbDot(axis, lbCross(kneeDir, pPerp));
				lbQuat qTwist;
				if (sin2 < 0.0025f)
				{
					// A pole close to the target line says little about the plane: fade it in
					// (below 3 degrees) so crossing near the line turns the limb smoothly instead
					// of flipping.
					float fade = lbSmoothStep(sqrtf(sin2) / 0.05f);
					qTwist = lbQuatFromAxisAngle(axis, fade * atan2f(sn, cs));
				}
				else if (cs >= 0.0f)
					qTwist = lbIkQuatNormalizeNonZero(LB_LITERAL(lbQuat){ axis.x * sn, axis.y * sn, axis.z * sn, ab + cs });
				else
				{
					float f = ab - cs;
					qTwist = lbIkQuatNormalizeNonZero(LB_LITERAL(lbQuat){ axis.x * f, axis.y * f, axis.z * f, sn });
				}
				qRoot = lbQuatMul(qTwist, qSwing);
			}
		}
	}

	// Apply with weight.
	const lbQuat qr = lbIkScaleRotation(qRoot, weight);
	const lbQuat qm = lbIkScaleRotation(qMid, weight);
	const float kw = lbLerpF(1.0f, k, weight);
	const lbQuat qChain = lbQuatMul(qr, qm);
	// Products of unit quaternions stay unit to rounding; no renormalisation needed.
	root->q = lbQuatMul(qr, root->q);
	lbVec3 wr;
	if (haveMatrix && weight >= 1.0f)
		wr = LB_LITERAL(lbVec3){ m[0] * w.x + m[1] * w.y + m[2] * w.z, m[3] * w.x + m[4] * w.y + m[5] * w.z,
								 m[6] * w.x + m[7] * w.y + m[8] * w.z };
	else
		wr = lbQuatRotate(qr, w);
	const lbVec3 midP = lbMulAdd(a, kw, wr);
	mid->p = midP;
	mid->q = lbQuatMul(qChain, mid->q);
	// At full weight the end lies on the target line at the solved distance; no rotation needed.
	if (weight >= 1.0f)
		end->p = lbMulAdd(a, k * len, axis);
	else
		end->p = lbAdd(midP, lbQuatRotate(qChain, lbMulSV(kw, v)));
	lbQuat endQ = lbQuatMul(qChain, end->q);
	if (in->useTargetRotation)
		endQ = weight >= 1.0f ? lbQuatNormalize(in->targetRotationMs)
							  : lbQuatSlerp(endQ, lbQuatNormalize(in->targetRotationMs), weight);
	end->q = endQ;

	res->remainingDistance = lbDistance(end->p, in->targetMs);
	res->reached = res->remainingDistance <= lbMaxF(in->tolerance, 0.0f);
	res->iterations = 1;
	res->status = res->reached ? lb_ikReached : lb_ikUnreachable;
}

static lbResult lbCheckJoints(const char* fn, const lbTransform* r, const lbTransform* m, const lbTransform* e)
{
	if (!lbIkValidTransformFast(r) || !lbIkValidTransformFast(m) || !lbIkValidTransformFast(e))
		return lbReport(lb_errorNonFinite, "%s: a joint transform is non-finite, non-unit or zero-scaled", fn);
	lbVec3 u = lbSub(m->p, r->p), l = lbSub(e->p, m->p);
	if (!(lbDot(u, u) > 1.0e-12f) || !(lbDot(l, l) > 1.0e-12f))
		return lbReport(lb_errorDegenerate, "%s: zero-length bone (upper %g m, lower %g m)", fn, (double)lbLength(u),
						(double)lbLength(l));
	return lb_ok;
}

_Static_assert(offsetof(lbTwoBoneIkInput, soften) - offsetof(lbTwoBoneIkInput, poleMs) == 10 * sizeof(float),
			   "poleMs, hingeAxisMs, bendHintMs, weight and soften are consecutive floats");
_Static_assert(sizeof(lbTransform) == 10 * sizeof(float), "lbTransform is ten floats");

// True when the checks below would all pass, in one branch-light pass over the numbers (every
// solve makes it); false sends the caller through those checks, which report what is wrong.
static bool lbTwoBoneFastValid(const lbTransform* r, const lbTransform* m, const lbTransform* e,
							   const lbTwoBoneIkInput* in)
{
	if (!r || !m || !e || !in || in->internalValue != LB_SECRET_COOKIE || in->useTargetRotation ||
		(unsigned)in->poleKind > (unsigned)lb_poleDirection)
		return false;
	// poleMs .. soften are eleven consecutive floats (asserted below).
	const float rest[3] = { in->maxStretch, in->tolerance, 0.0f };
	uint32_t bad = lbIkNonFiniteBits(&in->targetMs, 3) | lbIkNonFiniteBits(&in->poleMs, 11) |
				   lbIkNonFiniteBits(rest, 3) | lbIkNonFiniteBits(r, 10) | lbIkNonFiniteBits(m, 10) |
				   lbIkNonFiniteBits(e, 10);
	float n0 = lbQuatDot(r->q, r->q), n1 = lbQuatDot(m->q, m->q), n2 = lbQuatDot(e->q, e->q);
	float nMin = lbMinF(lbMinF(n0, n1), n2), nMax = lbMaxF(lbMaxF(n0, n1), n2);
	float s0 = lbMinF(lbMinF(r->s.x * r->s.x, r->s.y * r->s.y), r->s.z * r->s.z);
	float s1 = lbMinF(lbMinF(m->s.x * m->s.x, m->s.y * m->s.y), m->s.z * m->s.z);
	float s2 = lbMinF(lbMinF(e->s.x * e->s.x, e->s.y * e->s.y), e->s.z * e->s.z);
	lbVec3 u = lbSub(m->p, r->p), l = lbSub(e->p, m->p);
	float bone = lbMinF(lbDot(u, u), lbDot(l, l));
	return bad == 0u && nMin > 0.98f && nMax < 1.02f && lbMinF(lbMinF(s0, s1), s2) > LB_EPSILON * LB_EPSILON &&
		   bone > 1.0e-12f;
}

lbResult lbSolveTwoBoneIk(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs, const lbTwoBoneIkInput* input,
						  lbIkResult* outResult)
{
	static const char fn[] = "lbSolveTwoBoneIk";
	lbIkResult res = { lb_ikNotSolved, false, 0.0f, 0 };
	lbResult r = lb_ok;
	if (lbTwoBoneFastValid(rootMs, midMs, endMs, input))
	{
		lbTwoBoneCore(rootMs, midMs, endMs, input, &res);
		if (outResult)
			*outResult = res;
		return lb_ok;
	}
	// Something is off: the checks in order find and report it.
	if (!rootMs || !midMs || !endMs)
		r = lbReport(lb_errorNullPointer, "%s: a joint transform is NULL", fn);
	if (r == lb_ok)
		r = lbCheckTwoBoneInput(fn, input);
	if (r == lb_ok)
		r = lbCheckJoints(fn, rootMs, midMs, endMs);
	if (r == lb_ok)
		lbTwoBoneCore(rootMs, midMs, endMs, input, &res);
	if (outResult)
		*outResult = res;
	return r;
}

lbResult lbIkCheckPose(const char* fn, const lbPose* pose, const lbSkeleton* skeleton)
{
	if (!pose || !skeleton || !pose->local || !pose->model)
		return lbReport(lb_errorNullPointer, "%s: pose or skeleton is NULL", fn);
	if (pose->boneCount != skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "%s: pose has %d bones, skeleton %d", fn, pose->boneCount,
						skeleton->boneCount);
	return lb_ok;
}

// Writes solved model transforms of root, mid and end into the pose, keeping bones in between and
// below consistent (their local transforms are kept).
static void lbWriteTwoBone(lbPose* pose, const lbSkeleton* s, int root, int mid, int end, lbTransform r, lbTransform m,
						   lbTransform e)
{
	const int* parents = s->parents;
	if (parents[mid] == root && parents[end] == mid)
	{
		lbIkSetModel(pose, s, root, r);
		lbIkSetModel(pose, s, mid, m);
		lbIkSetModel(pose, s, end, e);
		lbPose_UpdateSubtree(pose, s, root);
		return;
	}
	lbIkSetModel(pose, s, root, r);
	lbPose_UpdateSubtree(pose, s, root);
	lbIkSetModel(pose, s, mid, m);
	lbPose_UpdateSubtree(pose, s, mid);
	lbIkSetModel(pose, s, end, e);
	lbPose_UpdateSubtree(pose, s, end);
}

lbResult lbPose_SolveTwoBoneIk(lbPose* pose, const lbSkeleton* skeleton, int root, int mid, int end,
							   const lbTwoBoneIkInput* input, lbIkResult* outResult)
{
	static const char fn[] = "lbPose_SolveTwoBoneIk";
	lbIkResult res = { lb_ikNotSolved, false, 0.0f, 0 };
	if (outResult)
		*outResult = res;
	lbResult r = lbIkCheckPose(fn, pose, skeleton);
	if (r != lb_ok)
		return r;
	if (!lbIkValidBone(skeleton, root) || !lbIkValidBone(skeleton, mid) || !lbIkValidBone(skeleton, end))
		return lbReport(lb_errorBoneNotFound, "%s: bone index out of range (%d, %d, %d)", fn, root, mid, end);
	if (root == mid || mid == end || !lbSkeleton_IsAncestor(skeleton, root, mid) ||
		!lbSkeleton_IsAncestor(skeleton, mid, end))
		return lbReport(lb_errorInvalidArgument, "%s: bones %d, %d, %d do not form a chain", fn, root, mid, end);
	r = lbCheckTwoBoneInput(fn, input);
	if (r != lb_ok)
		return r;
	lbTransform rt = pose->model[root], mt = pose->model[mid], et = pose->model[end];
	r = lbCheckJoints(fn, &rt, &mt, &et);
	if (r != lb_ok)
		return r;
	lbTwoBoneCore(&rt, &mt, &et, input, &res);
	// Weight 0 leaves the pose exactly as it was (no round trip through local transforms).
	if (input->weight > 0.0f)
		lbWriteTwoBone(pose, skeleton, root, mid, end, rt, mt, et);
	res.remainingDistance = lbDistance(pose->model[end].p, input->targetMs);
	res.reached = res.remainingDistance <= lbMaxF(input->tolerance, 0.0f);
	res.status = res.reached ? lb_ikReached : lb_ikUnreachable;
	if (outResult)
		*outResult = res;
	return lb_ok;
}

lbResult lbHumanoid_GetLimbChain(const lbHumanoid* humanoid, lbLimb limb, lbLimbChain* outChain)
{
	if (!humanoid || !outChain)
		return lbReport(lb_errorNullPointer, "lbHumanoid_GetLimbChain: humanoid or output is NULL");
	if ((int)limb < 0 || limb >= lb_limbCount)
		return lbReport(lb_errorInvalidArgument, "lbHumanoid_GetLimbChain: unknown limb %d", (int)limb);
	lbLimbChain c;
	if (limb == lb_limbArmL || limb == lb_limbArmR)
	{
		int side = limb == lb_limbArmL ? lb_left : lb_right;
		const lbArmBones* b = &humanoid->arm[side];
		const lbArmAxes* x = &humanoid->armAxes[side];
		c.root = b->upperArm, c.mid = b->foreArm, c.end = b->hand;
		c.hingeRoot = x->elbowBendUpper;
		c.poleRoot = x->elbowPoleUpper;
		c.upperLength = x->upperLength, c.lowerLength = x->foreLength;
	}
	else
	{
		int side = limb == lb_limbLegL ? lb_left : lb_right;
		const lbLegBones* b = &humanoid->leg[side];
		const lbLegAxes* x = &humanoid->legAxes[side];
		c.root = b->thigh, c.mid = b->calf, c.end = b->foot;
		c.hingeRoot = x->kneeBendThigh;
		c.poleRoot = x->kneePoleThigh;
		c.upperLength = x->thighLength, c.lowerLength = x->calfLength;
	}
	if (c.root < 0 || c.mid < 0 || c.end < 0)
		return lbReport(lb_errorMissingRole, "lbHumanoid_GetLimbChain: limb %d is not mapped", (int)limb);
	*outChain = c;
	return lb_ok;
}

lbVec3 lbLimbChain_HingeMs(const lbLimbChain* chain, const lbPose* pose)
{
	if (!chain || !pose || chain->root < 0 || chain->root >= pose->boneCount)
		return lbVec3_zero;
	return lbNormalize(lbTransformDirection(pose->model[chain->root], chain->hingeRoot));
}

lbVec3 lbLimbChain_PoleMs(const lbLimbChain* chain, const lbPose* pose)
{
	if (!chain || !pose || chain->root < 0 || chain->root >= pose->boneCount)
		return lbVec3_zero;
	return lbNormalize(lbTransformDirection(pose->model[chain->root], chain->poleRoot));
}

lbResult lbPose_SolveLimbIk(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, lbLimb limb,
							const lbTwoBoneIkInput* input, lbIkResult* outResult)
{
	if (outResult)
		*outResult = (lbIkResult){ lb_ikNotSolved, false, 0.0f, 0 };
	lbLimbChain c;
	lbResult r = lbHumanoid_GetLimbChain(humanoid, limb, &c);
	if (r != lb_ok)
		return r;
	r = lbIkCheckPose("lbPose_SolveLimbIk", pose, skeleton);
	if (r != lb_ok)
		return r;
	if (!lbIkValidBone(skeleton, c.root) || !lbIkValidBone(skeleton, c.mid) || !lbIkValidBone(skeleton, c.end))
		return lbReport(lb_errorSkeletonMismatch, "lbPose_SolveLimbIk: humanoid map does not fit the skeleton");
	r = lbCheckTwoBoneInput("lbPose_SolveLimbIk", input);
	if (r != lb_ok)
		return r;
	if (!lbIkValidTransform(pose->model[c.root]))
		return lbReport(lb_errorNonFinite, "lbPose_SolveLimbIk: non-finite root transform");
	lbTwoBoneIkInput in = *input;
	if (lbLengthSquared(in.hingeAxisMs) == 0.0f)
		in.hingeAxisMs = lbLimbChain_HingeMs(&c, pose);
	if (lbLengthSquared(in.bendHintMs) == 0.0f)
		in.bendHintMs = lbLimbChain_PoleMs(&c, pose);
	return lbPose_SolveTwoBoneIk(pose, skeleton, c.root, c.mid, c.end, &in, outResult);
}
