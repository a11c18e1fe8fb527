// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Clip sampling and root frames. Keys are found by binary search; rotations are slerped along
// the shorter arc (Shoemake 1985, "Animating rotation with quaternion curves").
#include "limber/motion.h"

static bool lbTimesValid(const float* times, int count)
{
	if (count < 0 || (count > 0 && !times))
		return false;
	for (int k = 0; k < count; ++k)
	{
		if (!lbIsValidFloat(times[k]) || (k > 0 && !(times[k] > times[k - 1])))
			return false;
	}
	return true;
}

lbResult lbValidateClip(const lbClip* clip, const lbSkeleton* skeleton)
{
	if (!clip || !skeleton)
		return lbReport(lb_errorNullPointer, "lbValidateClip: clip and skeleton are required");
	if (clip->boneCount != skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbValidateClip: clip made for %d bones, skeleton has %d",
						clip->boneCount, skeleton->boneCount);
	if (!lbIsValidFloat(clip->duration) || clip->duration < 0.0f)
		return lbReport(lb_errorInvalidArgument, "lbValidateClip: duration %g is not a finite value >= 0",
						(double)clip->duration);
	if (clip->trackCount > 0 && clip->tracks)
	{
		for (int t = 0; t < clip->trackCount; ++t)
		{
			const lbClipTrack* tr = &clip->tracks[t];
			if (tr->bone < 0 || tr->bone >= skeleton->boneCount)
				return lbReport(lb_errorBoneNotFound, "lbValidateClip: track %d names bone %d, outside [0, %d)", t,
								tr->bone, skeleton->boneCount);
			if ((tr->positionCount > 0 && !tr->positions) || (tr->rotationCount > 0 && !tr->rotations) ||
				(tr->scaleCount > 0 && !tr->scales))
				return lbReport(lb_errorNullPointer, "lbValidateClip: track %d has keys without values", t);
			if (!lbTimesValid(tr->positionTimes, tr->positionCount) || !lbTimesValid(tr->rotationTimes, tr->rotationCount) ||
				!lbTimesValid(tr->scaleTimes, tr->scaleCount))
				return lbReport(lb_errorInvalidArgument,
								"lbValidateClip: track %d (bone %s) has key times that are not finite and increasing", t,
								skeleton->names[tr->bone]);
			for (int k = 0; k < tr->positionCount; ++k)
				if (!lbIsValidVec3(tr->positions[k]))
					return lbReport(lb_errorNonFinite, "lbValidateClip: bone %s position key %d is not finite",
									skeleton->names[tr->bone], k);
			for (int k = 0; k < tr->rotationCount; ++k)
				if (!lbIsValidQuat(tr->rotations[k]) || lbQuatDot(tr->rotations[k], tr->rotations[k]) < 1.0e-6f)
					return lbReport(lb_errorNonFinite, "lbValidateClip: bone %s rotation key %d is not a finite rotation",
									skeleton->names[tr->bone], k);
			for (int k = 0; k < tr->scaleCount; ++k)
				if (!lbIsValidVec3(tr->scales[k]))
					return lbReport(lb_errorNonFinite, "lbValidateClip: bone %s scale key %d is not finite",
									skeleton->names[tr->bone], k);
		}
		return lb_ok;
	}
	if (clip->frameCount <= 0 || !clip->frames)
		return lbReport(lb_errorInvalidArgument, "lbValidateClip: clip has neither tracks nor frames");
	if (!lbIsValidFloat(clip->frameRate) || clip->frameRate <= 0.0f)
		return lbReport(lb_errorInvalidArgument, "lbValidateClip: frame rate %g must be > 0", (double)clip->frameRate);
	long total = (long)clip->frameCount * clip->boneCount;
	for (long k = 0; k < total; ++k)
	{
		if (!lbIsValidVec3(clip->frames[k].p) || !lbIsValidQuat(clip->frames[k].q) || !lbIsValidVec3(clip->frames[k].s))
			return lbReport(lb_errorNonFinite, "lbValidateClip: frame %ld bone %s is not finite", k / clip->boneCount,
							skeleton->names[k % clip->boneCount]);
	}
	return lb_ok;
}

static float lbWrapTime(float time, float duration, lbClipWrap wrap)
{
	if (duration <= 0.0f)
		return 0.0f;
	if (wrap == lb_clipLoop)
	{
		float t = fmodf(time, duration);
		if (t < 0.0f)
			t += duration;
		return t;
	}
	return lbClampF(time, 0.0f, duration);
}

// Index k with times[k] <= t < times[k+1] and the blend weight; clamps at both ends.
static int lbFindKey(const float* times, int count, float t, float* outAlpha)
{
	*outAlpha = 0.0f;
	if (count <= 1 || t <= times[0])
		return 0;
	if (t >= times[count - 1])
		return count - 1;
	int lo = 0, hi = count - 1;
	while (hi - lo > 1)
	{
		int mid = (lo + hi) / 2;
		if (times[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	float span = times[lo + 1] - times[lo];
	*outAlpha = span > 0.0f ? (t - times[lo]) / span : 0.0f;
	return lo;
}

static lbVec3 lbSampleVec3(const float* times, const lbVec3* values, int count, float t)
{
	float a;
	int k = lbFindKey(times, count, t, &a);
	if (k + 1 >= count || a <= 0.0f)
		return values[k];
	return lbLerp(values[k], values[k + 1], a);
}

static lbQuat lbSampleQuat(const float* times, const lbQuat* values, int count, float t)
{
	float a;
	int k = lbFindKey(times, count, t, &a);
	if (k + 1 >= count || a <= 0.0f)
		return lbQuatNormalize(values[k]);
	return lbQuatNormalize(lbQuatSlerp(lbQuatNormalize(values[k]), lbQuatNormalize(values[k + 1]), a));
}

lbResult lbSampleClip(const lbClip* clip, const lbSkeleton* skeleton, float time, lbClipWrap wrap, lbPose* outPose)
{
	if (!clip || !skeleton || !outPose || !outPose->local || !outPose->model)
		return lbReport(lb_errorNullPointer, "lbSampleClip: clip, skeleton and pose are required");
	if (outPose->boneCount != skeleton->boneCount || clip->boneCount != skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbSampleClip: clip (%d bones), pose (%d) and skeleton (%d) differ",
						clip->boneCount, outPose->boneCount, skeleton->boneCount);
	if (!lbIsValidFloat(time))
		return lbReport(lb_errorNonFinite, "lbSampleClip: time is not finite");
	float t = lbWrapTime(time, clip->duration, wrap);
	const int n = skeleton->boneCount;
	if (clip->trackCount > 0 && clip->tracks)
	{
		for (int b = 0; b < n; ++b)
			outPose->local[b] = skeleton->restLocal[b];
		for (int k = 0; k < clip->trackCount; ++k)
		{
			const lbClipTrack* tr = &clip->tracks[k];
			if (tr->bone < 0 || tr->bone >= n)
				continue;
			lbTransform* x = &outPose->local[tr->bone];
			if (tr->positionCount > 0)
				x->p = lbSampleVec3(tr->positionTimes, tr->positions, tr->positionCount, t);
			if (tr->rotationCount > 0)
				x->q = lbSampleQuat(tr->rotationTimes, tr->rotations, tr->rotationCount, t);
			if (tr->scaleCount > 0)
				x->s = lbSampleVec3(tr->scaleTimes, tr->scales, tr->scaleCount, t);
		}
	}
	else if (clip->frameCount > 0 && clip->frames && clip->frameRate > 0.0f)
	{
		float f = t * clip->frameRate;
		int k0 = (int)floorf(f);
		float a = f - (float)k0;
		int last = clip->frameCount - 1;
		k0 = k0 < 0 ? 0 : (k0 > last ? last : k0);
		int k1 = k0 + 1;
		if (k1 > last)
			k1 = wrap == lb_clipLoop && clip->duration > (float)last / clip->frameRate ? 0 : last;
		const lbTransform* f0 = clip->frames + (long)k0 * n;
		const lbTransform* f1 = clip->frames + (long)k1 * n;
		for (int b = 0; b < n; ++b)
		{
			lbTransform x;
			x.p = lbLerp(f0[b].p, f1[b].p, a);
			x.q = lbQuatNormalize(lbQuatSlerp(lbQuatNormalize(f0[b].q), lbQuatNormalize(f1[b].q), a));
			x.s = lbLerp(f0[b].s, f1[b].s, a);
			outPose->local[b] = x;
		}
	}
	else
	{
		return lbReport(lb_errorInvalidArgument, "lbSampleClip: clip has neither tracks nor frames");
	}
	lbPose_LocalToModel(outPose, skeleton);
	return lb_ok;
}

float lbHeadingAngle(lbVec3 from, lbVec3 to, lbVec3 up)
{
	lbVec3 a = lbProjectOnPlane(from, up), b = lbProjectOnPlane(to, up);
	if (lbLengthSquared(a) < 1.0e-12f || lbLengthSquared(b) < 1.0e-12f)
		return 0.0f;
	return atan2f(lbDot(lbCross(a, b), up), lbDot(a, b));
}

lbTransform lbComputeRootFrame(const lbPose* pose, const lbHumanoid* humanoid)
{
	lbTransform r = lbTransform_identity;
	if (!pose || !humanoid || humanoid->pelvis < 0 || humanoid->pelvis >= pose->boneCount)
		return r;
	lbTransform pelvis = pose->model[humanoid->pelvis];
	lbVec3 up = humanoid->upMs;
	r.p = lbProjectOnPlane(pelvis.p, up);
	// Heading from the pelvis' forward; when the pelvis pitches so far that its forward is
	// vertical (lying down), its up axis still tells where the body points.
	lbVec3 fwd = lbQuatRotate(pelvis.q, humanoid->pelvisForward);
	float yaw;
	if (lbLength(lbProjectOnPlane(fwd, up)) > 0.3f)
		yaw = lbHeadingAngle(humanoid->forwardMs, fwd, up);
	else
		yaw = lbHeadingAngle(humanoid->forwardMs, lbQuatRotate(pelvis.q, humanoid->pelvisUp), up);
	r.q = lbQuatFromAxisAngle(up, yaw);
	if (!lbIsValidTransform(r))
		return lbTransform_identity;
	return r;
}

lbResult lbBlendPoses(const lbPose* a, const lbPose* b, float alpha, const lbSkeleton* skeleton, lbPose* outPose)
{
	if (!a || !b || !skeleton || !outPose || !a->local || !b->local || !outPose->local || !outPose->model)
		return lbReport(lb_errorNullPointer, "lbBlendPoses: poses and skeleton are required");
	const int n = skeleton->boneCount;
	if (a->boneCount != n || b->boneCount != n || outPose->boneCount != n)
		return lbReport(lb_errorSkeletonMismatch, "lbBlendPoses: poses have %d, %d and %d bones, skeleton %d", a->boneCount,
						b->boneCount, outPose->boneCount, n);
	if (!lbIsValidFloat(alpha))
		return lbReport(lb_errorNonFinite, "lbBlendPoses: alpha is not finite");
	float t = lbClampF(alpha, 0.0f, 1.0f);
	for (int k = 0; k < n; ++k)
	{
		lbTransform x = a->local[k], y = b->local[k], r;
		r.p = lbLerp(x.p, y.p, t);
		r.q = lbQuatNormalize(lbQuatSlerp(lbQuatNormalize(x.q), lbQuatNormalize(y.q), t));
		r.s = lbLerp(x.s, y.s, t);
		outPose->local[k] = r;
	}
	lbPose_LocalToModel(outPose, skeleton);
	return lb_ok;
}
