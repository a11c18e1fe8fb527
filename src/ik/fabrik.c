// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// FABRIK: Forward And Backward Reaching Inverse Kinematics, after A. Aristidou and J. Lasenby,
// "FABRIK: A fast, iterative solver for the Inverse Kinematics problem", Graphical Models 73(5),
// 2011 (Algorithm 1). Joint positions are moved along lines between neighbours, which keeps bone
// lengths by construction; rotations are then recovered from the new positions. The passes start
// from a cheap initial guess (the chain turned toward the target with its bend scaled to the
// target's distance), which leaves them little or nothing to do for most targets.
#include "ik_internal.h"

lbFabrikInput lbDefaultFabrikInput(void)
{
	lbFabrikInput in;
	in.targetMs = lbVec3_zero;
	in.tolerance = 1.0e-3f;
	in.maxIterations = 20;
	in.bendHintKind = lb_poleNone;
	in.bendHintMs = lbVec3_zero;
	in.useTargetRotation = false;
	in.targetRotationMs = lbQuat_identity;
	in.internalValue = LB_SECRET_COOKIE;
	return in;
}

static lbResult lbCheckFabrikInput(const char* fn, const lbFabrikInput* in)
{
	if (!in)
		return lbReport(lb_errorNullPointer, "%s: input is NULL", fn);
	if (in->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: input not initialised with lbDefaultFabrikInput()", fn);
	if (!lbIsValidVec3(in->targetMs) || !lbIsValidFloat(in->tolerance) ||
		(in->bendHintKind != lb_poleNone && !lbIsValidVec3(in->bendHintMs)))
		return lbReport(lb_errorNonFinite, "%s: non-finite target, tolerance or bend hint", fn);
	if (in->useTargetRotation && !lbIsValidQuat(in->targetRotationMs))
		return lbReport(lb_errorNonFinite, "%s: non-finite or non-unit target rotation", fn);
	if (in->maxIterations < 1)
		return lbReport(lb_errorInvalidArgument, "%s: maxIterations %d < 1", fn, in->maxIterations);
	if ((unsigned)in->bendHintKind > (unsigned)lb_poleDirection)
		return lbReport(lb_errorInvalidArgument, "%s: unknown bend hint kind %d", fn, (int)in->bendHintKind);
	return lb_ok;
}

static lbResult lbCheckFabrikJoints(const char* fn, const lbTransform* j, int n)
{
	for (int i = 0; i < n; ++i)
	{
		if (!lbIkValidTransformFast(&j[i]))
			return lbReport(lb_errorNonFinite, "%s: joint %d is non-finite, non-unit or zero-scaled", fn, i);
	}
	for (int i = 0; i + 1 < n; ++i)
	{
		// A bone of 1e9 m or more is refused like a zero one: a bone of 5e38 m (joints at 3e38 m)
		// measured infinite and the chain placed its end at infinity with the call ok.
		lbVec3 d = lbSub(j[i + 1].p, j[i].p);
		if (!(lbDot(d, d) > 1.0e-12f) || !(lbDot(d, d) < LB_IK_MAX_BONE2))
			return lbReport(lb_errorDegenerate, "%s: bone %d has zero length or is 1e9 m or longer", fn, i);
	}
	return lb_ok;
}

// Places b at distance len from a along a -> b (keeping the old direction `fallback` if b is on a).
static inline lbVec3 lbFabrikPlace(lbVec3 a, lbVec3 b, float len, lbVec3 fallback)
{
	lbVec3 d = lbSub(b, a);
	float dd = lbDot(d, d);
	if (!(dd > 1.0e-20f))
		return lbMulAdd(a, len, fallback);
	return lbMulAdd(a, len / sqrtf(dd), d);
}

static void lbFabrikCore(lbTransform* j, int n, const lbFabrikInput* in, lbIkResult* res)
{
	lbVec3 p[LB_FABRIK_MAX_JOINTS];
	lbVec3 dir[LB_FABRIK_MAX_JOINTS], bone[LB_FABRIK_MAX_JOINTS];
	float len[LB_FABRIK_MAX_JOINTS];
	float total = 0.0f;
	// Positions relative to the root joint: smaller numbers, less rounding far from the origin.
	const lbVec3 origin = j[0].p;
	for (int i = 0; i < n; ++i)
		p[i] = lbSub(j[i].p, origin);
	for (int i = 0; i + 1 < n; ++i)
	{
		lbVec3 d = lbSub(j[i + 1].p, j[i].p);
		bone[i] = d;
		len[i] = lbLength(d);
		dir[i] = lbMulSV(1.0f / len[i], d);
		total += len[i];
	}
	const lbVec3 t = lbSub(in->targetMs, origin), base = p[0];
	const float tol = lbMaxF(in->tolerance, 0.0f);
	// Iterate a hair below the tolerance so rebuilding rotations (rounding) cannot push it over.
	const float loopTol = lbMaxF(tol - 2.0e-6f, 0.5f * tol);
	float err = lbDistance(p[n - 1], t);
	int iterations = 0;
	lbIkStatus status;
	if (lbDistance(base, t) >= total)
	{
		// Out of reach: a straight chain toward the target (FABRIK's unreachable case). Its
		// direction is taken from the target brought near unit length first: a target 1e20 m
		// off (or 3e38 m, past the root at -3e38 m) overflowed the direction's length, and the
		// chain pointed along its first bone instead.
		lbVec3 u = lbNormalizeOr(lbIkFarDirection(in->targetMs, origin, 1.0f), dir[0]);
		for (int i = 0; i + 1 < n; ++i)
			p[i + 1] = lbMulAdd(p[i], len[i], u);
		iterations = 1;
		err = lbDistance(p[n - 1], t);
		status = err <= tol ? lb_ikReached : lb_ikUnreachable;
	}
	else
	{
		if (in->bendHintKind != lb_poleNone && err > loopTol)
		{
			// Pre-bend the inner joints toward the hint (normal to the root-target line) so the
			// iterations settle in the hinted plane instead of wherever a straight chain drifts.
			lbVec3 line = lbNormalizeOr(lbSub(t, base), dir[0]);
			for (int i = 1; i + 1 < n; ++i)
			{
				// A location hint is in model space, the joints here relative to the root; both are
				// brought near unit length first, so a hint 3e38 m off keeps its direction.
				lbVec3 hd = lbIkFarDirection(in->bendHintMs, in->bendHintKind == lb_poleLocation ? lbAdd(origin, p[i]) : lbVec3_zero, 1.0f);
				hd = lbNormalize(lbProjectOnPlane(hd, line));
				p[i] = lbMulAdd(p[i], 0.25f * lbMinF(len[i - 1], len[i]), hd);
			}
			for (int i = 0; i + 1 < n; ++i)
				p[i + 1] = lbFabrikPlace(p[i], p[i + 1], len[i], dir[i]);
			err = lbDistance(p[n - 1], t);
		}
		if (err > loopTol)
		{
			// Start from the chain turned rigidly about its root so its end points at the target:
			// the passes then only have to change the chain's bend, which takes far fewer of them.
			lbQuat turn = lbIkFromTo(lbSub(p[n - 1], base), lbSub(t, base));
			for (int i = 1; i < n; ++i)
				p[i] = lbAdd(base, lbQuatRotate(turn, lbSub(p[i], base)));
			// Then scale the chain's bend (each bone's direction blended with the root-end line by
			// s; s < 1 straightens, s > 1 bends more) until the end is as far from the root as the
			// target, by bisection; the bones' directions are independent, so this is cheap.
			lbVec3 u = lbNormalizeOr(lbSub(t, base), dir[0]);
			float want = lbDistance(t, base);
			float cur = lbDistance(p[n - 1], base);
			if (lbAbsF(cur - want) > loopTol)
			{
				lbVec3 d0[LB_FABRIK_MAX_JOINTS];
				for (int i = 0; i + 1 < n; ++i)
					d0[i] = lbMulSV(1.0f / len[i], lbSub(p[i + 1], p[i]));
				float lo = cur < want ? 0.0f : 1.0f, hi = cur < want ? 1.0f : 3.0f;
				lbVec3 q[LB_FABRIK_MAX_JOINTS];
				for (int step = 0; step < 8; ++step)
				{
					float sMid = 0.5f * (lo + hi);
					lbVec3 at = base;
					q[0] = base;
					for (int i = 0; i + 1 < n; ++i)
					{
						lbVec3 dd = lbNormalizeOr(lbLerp(u, d0[i], sMid), d0[i]);
						at = lbMulAdd(at, len[i], dd);
						q[i + 1] = at;
					}
					float dist = lbDistance(at, base);
					if (dist > want)
						lo = sMid;
					else
						hi = sMid;
				}
				// Keep the blend only if it helps (it always should for planar-ish chains).
				lbQuat turn2 = lbIkFromTo(lbSub(q[n - 1], base), lbSub(t, base));
				float errNew = lbDistance(lbAdd(base, lbQuatRotate(turn2, lbSub(q[n - 1], base))), t);
				if (errNew < lbDistance(p[n - 1], t))
				{
					for (int i = 1; i < n; ++i)
						p[i] = lbAdd(base, lbQuatRotate(turn2, lbSub(q[i], base)));
				}
			}
			err = lbDistance(p[n - 1], t);
		}
		while (err > loopTol && iterations < in->maxIterations)
		{
			// Backward: end on the target, each joint pulled to its child at bone length.
			p[n - 1] = t;
			for (int i = n - 2; i >= 0; --i)
				p[i] = lbFabrikPlace(p[i + 1], p[i], len[i], lbNeg(dir[i]));
			// Forward: root back on its base, each child pulled to its parent.
			p[0] = base;
			for (int i = 0; i + 1 < n; ++i)
				p[i + 1] = lbFabrikPlace(p[i], p[i + 1], len[i], dir[i]);
			err = lbDistance(p[n - 1], t);
			++iterations;
		}
		status = err <= tol ? lb_ikReached : lb_ikNotConverged;
	}

	// Rotations from positions: each bone swings from its old direction to its new one (its twist
	// is kept); positions are rebuilt from the rotated bones so lengths stay exact.
	lbQuat carry = lbQuat_identity;
	lbVec3 at = lbVec3_zero;
	for (int i = 0; i + 1 < n; ++i)
	{
		lbVec3 oldBone = bone[i];
		lbQuat swing = lbIkFromTo(oldBone, lbSub(p[i + 1], at));
		j[i].q = lbQuatNormalize(lbQuatMul(swing, j[i].q));
		at = lbAdd(at, lbQuatRotate(swing, oldBone));
		j[i + 1].p = lbAdd(origin, at);
		carry = swing;
	}
	if (in->useTargetRotation)
		j[n - 1].q = lbQuatNormalize(in->targetRotationMs);
	else
		j[n - 1].q = lbQuatNormalize(lbQuatMul(carry, j[n - 1].q));
	res->iterations = iterations;
	res->remainingDistance = lbIkDistance(j[n - 1].p, in->targetMs);
	res->reached = res->remainingDistance <= tol;
	res->status = res->reached ? lb_ikReached : status;
}

lbResult lbSolveFabrik(lbTransform* jointsMs, int jointCount, const lbFabrikInput* input, lbIkResult* outResult)
{
	static const char fn[] = "lbSolveFabrik";
	lbIkResult res = { lb_ikNotSolved, false, 0.0f, 0 };
	lbResult r = lb_ok;
	if (!jointsMs)
		r = lbReport(lb_errorNullPointer, "%s: joints is NULL", fn);
	else if (jointCount < 3 || jointCount > LB_FABRIK_MAX_JOINTS)
		r = lbReport(lb_errorInvalidArgument, "%s: jointCount %d outside [3, %d]", fn, jointCount, LB_FABRIK_MAX_JOINTS);
	if (r == lb_ok)
		r = lbCheckFabrikInput(fn, input);
	if (r == lb_ok)
		r = lbCheckFabrikJoints(fn, jointsMs, jointCount);
	if (r == lb_ok)
		lbFabrikCore(jointsMs, jointCount, input, &res);
	if (outResult)
		*outResult = res;
	return r;
}

lbResult lbPose_SolveFabrik(lbPose* pose, const lbSkeleton* skeleton, const int* bones, int count,
							const lbFabrikInput* input, lbIkResult* outResult)
{
	static const char fn[] = "lbPose_SolveFabrik";
	lbIkResult res = { lb_ikNotSolved, false, 0.0f, 0 };
	if (outResult)
		*outResult = res;
	lbResult r = lbIkCheckPose(fn, pose, skeleton);
	if (r != lb_ok)
		return r;
	if (!bones)
		return lbReport(lb_errorNullPointer, "%s: bones is NULL", fn);
	if (count < 3 || count > LB_FABRIK_MAX_JOINTS)
		return lbReport(lb_errorInvalidArgument, "%s: count %d outside [3, %d]", fn, count, LB_FABRIK_MAX_JOINTS);
	bool direct = true;
	for (int i = 0; i < count; ++i)
	{
		if (!lbIkValidBone(skeleton, bones[i]))
			return lbReport(lb_errorBoneNotFound, "%s: bone index %d out of range", fn, bones[i]);
		if (i > 0 && (bones[i] == bones[i - 1] || !lbSkeleton_IsAncestor(skeleton, bones[i - 1], bones[i])))
			return lbReport(lb_errorInvalidArgument, "%s: bone %d is not below bone %d", fn, bones[i], bones[i - 1]);
		if (i > 0 && skeleton->parents[bones[i]] != bones[i - 1])
			direct = false;
	}
	r = lbCheckFabrikInput(fn, input);
	if (r != lb_ok)
		return r;
	// The first joint's local is written relative to its parent's model transform.
	const int top = skeleton->parents[bones[0]];
	if (top != LB_NULL_INDEX && !lbIkValidTransformFast(&pose->model[top]))
		return lbReport(lb_errorNonFinite, "%s: the parent of bone %d (bone %d) has a non-finite or invalid model transform",
						fn, bones[0], top);
	lbTransform j[LB_FABRIK_MAX_JOINTS];
	for (int i = 0; i < count; ++i)
		j[i] = pose->model[bones[i]];
	r = lbCheckFabrikJoints(fn, j, count);
	if (r != lb_ok)
		return r;
	lbFabrikCore(j, count, input, &res);
	if (direct)
	{
		// Only rotations change: local translations (the bone lengths) are kept bit for bit.
		for (int i = 0; i < count; ++i)
		{
			int b = bones[i], p = skeleton->parents[b];
			lbQuat parentQ = p == LB_NULL_INDEX ? lbQuat_identity : pose->model[p].q;
			pose->local[b].q = lbQuatNormalize(lbQuatMul(lbQuatConj(parentQ), j[i].q));
			pose->model[b] = p == LB_NULL_INDEX ? pose->local[b] : lbTransformMul(pose->model[p], pose->local[b]);
		}
		lbPose_UpdateSubtree(pose, skeleton, bones[0]);
	}
	else
	{
		for (int i = 0; i < count; ++i)
		{
			lbIkSetModel(pose, skeleton, bones[i], j[i]);
			lbPose_UpdateSubtree(pose, skeleton, bones[i]);
		}
	}
	res.remainingDistance = lbDistance(pose->model[bones[count - 1]].p, input->targetMs);
	res.reached = res.remainingDistance <= lbMaxF(input->tolerance, 0.0f);
	if (res.reached)
		res.status = lb_ikReached;
	else if (res.status == lb_ikReached)
		res.status = lb_ikNotConverged;
	if (outResult)
		*outResult = res;
	return lb_ok;
}
