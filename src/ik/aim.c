// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Aim a bone (primary + secondary axis, the seeds' Aim Math) and distribute a rotation along a
// list of bones (the seeds' Distribute Rotation, used for forearm twist).
#include "ik_internal.h"

lbAimInput lbDefaultAimInput(void)
{
	lbAimInput in;
	in.primaryAxis = lbVec3_axisX;
	in.primaryKind = lb_poleDirection;
	in.primaryTargetMs = lbVec3_axisX;
	in.secondaryAxis = lbVec3_zero;
	in.secondaryKind = lb_poleDirection;
	in.secondaryTargetMs = lbVec3_zero;
	in.weight = 1.0f;
	in.propagate = true;
	in.internalValue = LB_SECRET_COOKIE;
	return in;
}

// A local axis as it appears in model space under a (possibly mirrored) scale: flip the components
// of negatively scaled axes, as lbTransformDirection does.
static lbVec3 lbMirrorAxis(lbVec3 s, lbVec3 axis)
{
	return lbMakeVec3(s.x < 0.0f ? -axis.x : axis.x, s.y < 0.0f ? -axis.y : axis.y, s.z < 0.0f ? -axis.z : axis.z);
}

// Whether the transforms a change at `bone` reads besides its own are finite: its parent's model
// transform, and below it either the subtree's local transforms (carried along) or the children's
// model transforms (kept in place, their locals worked out again). A bone a call never reads is
// left as it came, finite or not; one it reads is checked, so a NaN is never spread into a bone
// that was finite.
static bool lbAimReadsFinite(const lbPose* pose, const lbSkeleton* skeleton, int bone, bool subtree)
{
	const int* parents = skeleton->parents;
	if (parents[bone] != LB_NULL_INDEX && !lbIsValidTransform(pose->model[parents[bone]]))
		return false;
	uint8_t below[LB_MAX_BONES / 8] = { 0 }; // the subtree, marked parents first (they come first)
	below[bone >> 3] = (uint8_t)(1u << (bone & 7));
	for (int i = bone + 1; i < pose->boneCount; ++i)
	{
		const int p = parents[i];
		if (!subtree)
		{
			if (p == bone && !lbIsValidTransform(pose->model[i]))
				return false;
			continue;
		}
		if (p == LB_NULL_INDEX || !(below[p >> 3] & (1u << (p & 7))))
			continue;
		below[i >> 3] |= (uint8_t)(1u << (i & 7));
		if (!lbIsValidTransform(pose->local[i]))
			return false;
	}
	return true;
}

lbResult lbPose_AimBone(lbPose* pose, const lbSkeleton* skeleton, int bone, const lbAimInput* in)
{
	static const char fn[] = "lbPose_AimBone";
	lbResult r = lbIkCheckPose(fn, pose, skeleton);
	if (r != lb_ok)
		return r;
	if (!in)
		return lbReport(lb_errorNullPointer, "%s: input is NULL", fn);
	if (in->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: input not initialised with lbDefaultAimInput()", fn);
	if (!lbIkValidBone(skeleton, bone))
		return lbReport(lb_errorBoneNotFound, "%s: bone index %d out of range", fn, bone);
	if (!lbIsValidVec3(in->primaryAxis) || !lbIsValidVec3(in->primaryTargetMs) || !lbIsValidVec3(in->secondaryAxis) ||
		!lbIsValidVec3(in->secondaryTargetMs) || !lbIsValidFloat(in->weight))
		return lbReport(lb_errorNonFinite, "%s: non-finite axis, target or weight", fn);
	if ((in->primaryKind != lb_poleDirection && in->primaryKind != lb_poleLocation) ||
		(in->secondaryKind != lb_poleDirection && in->secondaryKind != lb_poleLocation))
		return lbReport(lb_errorInvalidArgument, "%s: target kinds must be lb_poleDirection or lb_poleLocation", fn);
	lbTransform m = pose->model[bone];
	if (!lbIkValidTransformFast(&m) || !lbAimReadsFinite(pose, skeleton, bone, in->propagate))
		return lbReport(lb_errorNonFinite, "%s: bone '%s', its parent or a bone below it has a non-finite transform", fn,
						skeleton->names[bone]);
	if (!lbIkNearParent(pose, skeleton, bone))
		return lbReport(lb_errorInvalidArgument, "%s: bone '%s' lies 1e15 m or more from its parent in the model pose", fn,
						skeleton->names[bone]);
	lbVec3 primary = in->primaryKind == lb_poleLocation ? lbSub(in->primaryTargetMs, m.p) : in->primaryTargetMs;
	lbVec3 secondary = in->secondaryKind == lb_poleLocation ? lbSub(in->secondaryTargetMs, m.p) : in->secondaryTargetMs;
	if (!(lbLength(in->primaryAxis) > LB_EPSILON) || !(lbLength(primary) > LB_EPSILON))
		return lbReport(lb_errorDegenerate, "%s: zero primary axis or target direction", fn);
	if (lbLengthSquared(in->secondaryAxis) == 0.0f)
		secondary = lbVec3_zero;
	m.q = lbAimRotation(m.q, lbMirrorAxis(m.s, in->primaryAxis), primary, lbMirrorAxis(m.s, in->secondaryAxis),
						secondary, lbClampF(in->weight, 0.0f, 1.0f));
	// Children kept in place take new locals under the turned bone: one a finite 3e38 m away came
	// out inf and NaN with the call's result ok. Checked before anything is written.
	if (!in->propagate && !lbIkChildrenStayFinite(pose, skeleton, bone, &m))
		return lbReport(lb_errorInvalidArgument,
						"%s: a child of bone '%s' lies too far from it in the model pose for its local transform to "
						"stay finite",
						fn, skeleton->names[bone]);
	lbIkSetModel(pose, skeleton, bone, m);
	if (in->propagate)
		lbPose_UpdateSubtree(pose, skeleton, bone);
	else
		lbIkKeepChildren(pose, skeleton, bone, &m);
	return lb_ok;
}

// Share of the rotation at fraction t in [0, 1] along the list.
static float lbDistributeShare(lbDistributeCurve curve, float t)
{
	switch (curve)
	{
		case lb_distributeEaseInOut:
			return lbSmoothStep(t);
		case lb_distributeEaseIn:
			return t * t;
		case lb_distributeEaseOut:
			return 1.0f - (1.0f - t) * (1.0f - t);
		default:
			return t;
	}
}

lbResult lbPose_DistributeRotation(lbPose* pose, const lbSkeleton* skeleton, const int* bones, int count,
								   lbQuat rotationLocal, lbDistributeCurve curve, float weight)
{
	static const char fn[] = "lbPose_DistributeRotation";
	lbResult r = lbIkCheckPose(fn, pose, skeleton);
	if (r != lb_ok)
		return r;
	if (!bones)
		return lbReport(lb_errorNullPointer, "%s: bones is NULL", fn);
	if (count < 1 || count > skeleton->boneCount)
		return lbReport(lb_errorInvalidArgument, "%s: count %d outside [1, %d]", fn, count, skeleton->boneCount);
	if ((unsigned)curve > (unsigned)lb_distributeEaseOut)
		return lbReport(lb_errorInvalidArgument, "%s: unknown curve %d", fn, (int)curve);
	if (!lbIsValidQuat(rotationLocal) || !lbIsValidFloat(weight))
		return lbReport(lb_errorNonFinite, "%s: non-finite or non-unit rotation, or non-finite weight", fn);
	for (int i = 0; i < count; ++i)
	{
		if (!lbIkValidBone(skeleton, bones[i]))
			return lbReport(lb_errorBoneNotFound, "%s: bone index %d out of range", fn, bones[i]);
		if (!lbIkValidTransformFast(&pose->local[bones[i]]) || !lbAimReadsFinite(pose, skeleton, bones[i], true))
			return lbReport(lb_errorNonFinite, "%s: bone '%s', its parent or a bone below it has a non-finite transform",
							fn, skeleton->names[bones[i]]);
	}
	weight = lbClampF(weight, 0.0f, 1.0f);
	if (weight == 0.0f)
		return lb_ok;
	rotationLocal = lbQuatCanonical(lbQuatNormalize(rotationLocal));
	for (int i = 0; i < count; ++i)
	{
		float t = count > 1 ? (float)i / (float)(count - 1) : 1.0f;
		float share = lbDistributeShare(curve, t) * weight;
		if (share <= 0.0f)
			continue;
		int b = bones[i];
		lbQuat part = share >= 1.0f ? rotationLocal : lbQuatSlerp(lbQuat_identity, rotationLocal, share);
		pose->local[b].q = lbQuatNormalize(lbQuatMul(pose->local[b].q, part));
		lbPose_UpdateSubtree(pose, skeleton, b);
	}
	return lb_ok;
}
