// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The prone system's defaults, input checks and body measures shared by both stages. The method is
// seed 002's (casts under the body's centre, beside it, ahead and behind; roll on the root, pitch on
// the first spine bone and the thighs; the pointed-roof lift), completed by the translation and limb
// fits the seed left out.
#include "prone_internal.h"

#include "ik/ik_internal.h"

#include <float.h>
#include <stddef.h>
#include <math.h>
#include <string.h>

lbProneDef lbDefaultProneDef(void)
{
	lbProneDef d;
	memset(&d, 0, sizeof d);
	d.up = lbVec3_axisZ;
	d.channelMask = LB_CHANNEL_GROUND | LB_CHANNEL_ROOF;
	d.ignoreOwnerId = LB_NO_OWNER;
	d.traceRadius = 0.05f;
	d.traceUp = 0.6f;
	d.traceDown = 0.6f;
	d.sideOffset = 0.15f;
	d.sideExtent = 0.25f;
	d.sideRadius = 0.03f;
	d.upperExtent = 0.55f;
	d.lowerExtent = 0.75f;
	d.maxRoll = 35.0f * LB_DEG2RAD;
	d.maxUpperPitch = 45.0f * LB_DEG2RAD;
	d.maxLowerPitch = 45.0f * LB_DEG2RAD;
	d.roofLift = true;
	d.roofAngle = 5.0f * LB_DEG2RAD;
	d.hoverLimit = 0.25f;
	d.rotationSpeed = 12.0f;
	d.heightSpeed = 15.0f;
	d.fitTranslation = true;
	d.clearance = 0.005f;
	d.maxShift = 0.35f;
	d.torsoRadius = -1.0f;
	d.probeReach = 0.3f;
	d.sphereProbes = true;
	d.probeCastRadius = 0.05f;
	d.fitLimbs = true;
	d.limbLock = true;
	d.lockSpeed = 0.15f;
	d.lockReleaseDistance = 0.15f;
	d.lockBlendSpeed = 10.0f;
	d.alphaSpeed = 1.5f;
	d.lieAngle = 25.0f * LB_DEG2RAD;
	d.teleportDistance = 1.0f;
	d.traceRate = 8.0f;
	d.recastDistance = 0.04f;
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

lbProneSenseInput lbDefaultProneSenseInput(void)
{
	lbProneSenseInput in;
	memset(&in, 0, sizeof in);
	in.characterWs = lbTransform_identity;
	in.active = true;
	return in;
}

void lbProneState_Reset(lbProneState* state)
{
	if (!state)
		return;
	memset(state, 0, sizeof *state);
	state->prevCharacterWs = lbTransform_identity;
}

lbResult lbProneState_SetTracePhase(lbProneState* state, float phase)
{
	if (!state)
		return lbReport(lb_errorNullPointer, "lbProneState_SetTracePhase: state is NULL");
	if (!lbIsValidFloat(phase))
		return lbReport(lb_errorNonFinite, "lbProneState_SetTracePhase: phase is not finite");
	phase -= floorf(phase);
	// floorf can leave exactly 1 for tiny negative phases.
	state->tracePhase = phase < 1.0f ? phase : 0.0f;
	return lb_ok;
}

// The def's values that must be finite and >= 0, in the order the error message numbers them.
#define LB_PRONE_NONNEGATIVE(X)                                                                              \
	X(traceRadius) X(traceUp) X(traceDown) X(sideOffset) X(sideExtent) X(sideRadius) X(upperExtent)       \
	X(lowerExtent) X(maxRoll) X(maxUpperPitch) X(maxLowerPitch) X(roofAngle) X(hoverLimit) X(rotationSpeed) \
	X(heightSpeed) X(clearance) X(maxShift) X(lockSpeed) X(lockReleaseDistance) X(lockBlendSpeed)          \
	X(alphaSpeed) X(lieAngle) X(probeReach) X(teleportDistance) X(traceRate) X(recastDistance)             \
	X(probeCastRadius)

// The runs of lbProneCheckDef's four-lane test: fields that follow one another.
#define LB_PRONE_RUN(first, k, field) (offsetof(lbProneDef, field) == offsetof(lbProneDef, first) + (k) * sizeof(float))
_Static_assert(LB_PRONE_RUN(traceRadius, 1, traceUp) && LB_PRONE_RUN(traceRadius, 2, traceDown) &&
				   LB_PRONE_RUN(traceRadius, 3, sideOffset) && LB_PRONE_RUN(traceRadius, 4, sideExtent) &&
				   LB_PRONE_RUN(traceRadius, 5, sideRadius) && LB_PRONE_RUN(traceRadius, 6, upperExtent) &&
				   LB_PRONE_RUN(traceRadius, 7, lowerExtent) && LB_PRONE_RUN(traceRadius, 8, maxRoll) &&
				   LB_PRONE_RUN(traceRadius, 9, maxUpperPitch) && LB_PRONE_RUN(traceRadius, 10, maxLowerPitch),
			   "traceRadius to maxLowerPitch follow one another");
_Static_assert(LB_PRONE_RUN(roofAngle, 1, hoverLimit) && LB_PRONE_RUN(roofAngle, 2, rotationSpeed) &&
				   LB_PRONE_RUN(roofAngle, 3, heightSpeed),
			   "roofAngle to heightSpeed follow one another");
_Static_assert(LB_PRONE_RUN(lockSpeed, 1, lockReleaseDistance) && LB_PRONE_RUN(lockSpeed, 2, lockBlendSpeed) &&
				   LB_PRONE_RUN(lockSpeed, 3, alphaSpeed) && LB_PRONE_RUN(lockSpeed, 4, lieAngle) &&
				   LB_PRONE_RUN(lockSpeed, 5, teleportDistance) && LB_PRONE_RUN(lockSpeed, 6, traceRate) &&
				   LB_PRONE_RUN(lockSpeed, 7, recastDistance),
			   "lockSpeed to recastDistance follow one another");
#undef LB_PRONE_RUN

lbResult lbProneCheckDef(const lbProneDef* def, const char* caller)
{
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: def not initialised with lbDefaultProneDef()", caller);
	// The check runs twice a frame: one pass over the fields' bits without branches, the offending
	// value looked for only when one may be there. A float is finite and not negative when its bits
	// u lie below 0x7f800000: the sign bit of u, or of u + 0x00800000 for u from 0x7f800000 (an
	// exponent of all ones) on, marks any other. (-0, which passes, goes to the exact test below.)
	uint32_t bad = 0u;
#define LB_PRONE_CHECK(field)                 \
	{                                         \
		uint32_t u;                           \
		memcpy(&u, &def->field, sizeof u);    \
		bad |= u | (u + 0x00800000u);         \
	}
#if LB_IK_SSE2
	// The same test four fields at a time over the runs of them that follow one another in the
	// struct (traceRadius to maxLowerPitch, roofAngle to heightSpeed, lockSpeed to recastDistance;
	// asserted above), the four others one by one.
	{
		const __m128i grow = _mm_set1_epi32(0x00800000);
		const float* runs[6] = { &def->traceRadius, &def->traceRadius + 4, &def->traceRadius + 7,
								 &def->roofAngle,   &def->lockSpeed,       &def->lockSpeed + 4 };
		__m128i acc = _mm_setzero_si128();
		for (int k = 0; k < 6; ++k)
		{
			const __m128i u = _mm_loadu_si128((const __m128i*)runs[k]);
			acc = _mm_or_si128(acc, _mm_or_si128(u, _mm_add_epi32(u, grow)));
		}
		if (_mm_movemask_ps(_mm_castsi128_ps(acc)) != 0)
			bad = 0x80000000u;
	}
	LB_PRONE_CHECK(clearance)
	LB_PRONE_CHECK(maxShift)
	LB_PRONE_CHECK(probeReach)
	LB_PRONE_CHECK(probeCastRadius)
#else
	LB_PRONE_NONNEGATIVE(LB_PRONE_CHECK)
#endif
#undef LB_PRONE_CHECK
	if (bad & 0x80000000u)
	{
#define LB_PRONE_VALUE(field) def->field,
		const float v[] = { LB_PRONE_NONNEGATIVE(LB_PRONE_VALUE) };
#undef LB_PRONE_VALUE
		for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i)
			if (!lbIsValidFloat(v[i]) || v[i] < 0.0f)
				return lbReport(lb_errorInvalidArgument, "%s: def value %d is %g (must be finite and >= 0)", caller,
								(int)i, (double)v[i]);
	}
	if (!lbIsValidFloat(def->torsoRadius))
		return lbReport(lb_errorInvalidArgument, "%s: torsoRadius is not finite", caller);
	if (!lbIsValidVec3(def->up) || lbAbsF(lbLength(def->up) - 1.0f) > 1.0e-3f)
		return lbReport(lb_errorInvalidArgument, "%s: up must be a unit vector", caller);
	if (def->lieAngle <= 0.0f || def->lieAngle > 0.5f * LB_PI)
		return lbReport(lb_errorInvalidArgument, "%s: lieAngle %g must lie in (0, pi/2]", caller, (double)def->lieAngle);
	return lb_ok;
}

int lbProneRigBones(const lbHumanoid* h, int out[LB_PRONE_RIG_BONES])
{
	// Block copies (each limb's three bones follow one another in the map, asserted below; the whole
	// spine array goes in, the limbs' bones over what lies past its count): a bone at a time with the
	// spine's loop cost twice as much, twice a frame.
	_Static_assert(offsetof(lbArmBones, foreArm) == offsetof(lbArmBones, upperArm) + sizeof(int) &&
					   offsetof(lbArmBones, hand) == offsetof(lbArmBones, upperArm) + 2 * sizeof(int) &&
					   offsetof(lbLegBones, calf) == offsetof(lbLegBones, thigh) + sizeof(int) &&
					   offsetof(lbLegBones, foot) == offsetof(lbLegBones, thigh) + 2 * sizeof(int),
				   "a limb's three bones follow one another");
	out[0] = h->root;
	out[1] = h->pelvis;
	out[2] = h->neck;
	memcpy(out + 3, h->spine, sizeof h->spine);
	int n = 3 + (h->spineCount < 0 ? 0 : (h->spineCount > LB_MAX_SPINE ? LB_MAX_SPINE : h->spineCount));
	for (int side = 0; side < 2; ++side)
	{
		memcpy(out + n, &h->arm[side].upperArm, 3 * sizeof(int));
		memcpy(out + n + 3, &h->leg[side].thigh, 3 * sizeof(int));
		n += 6;
	}
	return n;
}

lbResult lbProneCheckRig(const lbHumanoid* h, const lbSkeleton* s, lbProneRig* out)
{
	out->count = 0;
	if (h && s && h->boneCount == s->boneCount && h->skeletonFingerprint == s->fingerprint && h->spineCount >= 0 &&
		h->spineCount <= LB_MAX_SPINE && h->arm[0].twistCount >= 0 && h->arm[0].twistCount <= 3 && h->arm[1].twistCount >= 0 &&
		h->arm[1].twistCount <= 3)
	{
		const int n = lbProneRigBones(h, out->bones);
		// LB_NULL_INDEX or a bone: b + 1 in [0, boneCount] (anything below -1 wraps far above it).
		bool inside = true;
		int k = 0;
#if LB_IK_SSE2
		// Four at a time: a lane is out when -1 > b or b > boneCount - 1.
		const __m128i lo = _mm_set1_epi32(-1), hi = _mm_set1_epi32(s->boneCount - 1);
		__m128i out4 = _mm_setzero_si128();
		for (; k + 4 <= n; k += 4)
		{
			const __m128i b = _mm_loadu_si128((const __m128i*)&out->bones[k]);
			out4 = _mm_or_si128(out4, _mm_or_si128(_mm_cmpgt_epi32(lo, b), _mm_cmpgt_epi32(b, hi)));
		}
		inside = _mm_movemask_epi8(out4) == 0;
#endif
		for (; k < n; ++k)
			inside &= (unsigned)(out->bones[k] + 1) <= (unsigned)s->boneCount;
		if (inside)
		{
			out->count = n;
			return lb_ok;
		}
	}
	const lbResult r = lbHumanoid_Check(h, s);
	if (r == lb_ok)
		out->count = lbProneRigBones(h, out->bones);
	return r;
}

bool lbPronePoseFinite(const lbPose* pose, const lbSkeleton* s, const lbHumanoid* h, const lbProneRig* rig)
{
	const int* bones = rig->bones;
	const int n = rig->count;
	// The arrays' addresses held once (the loop has no stores, but they were read again each bone).
	const lbTransform* model = pose->model;
	const lbTransform* local = pose->local;
	const int* parents = s->parents;
	lbProneFiniteSum sum = lbProneFiniteStart();
	for (int k = 0; k < n; ++k)
	{
		const int b = bones[k];
		if (b >= 0)
			sum = lbProneFiniteAdd(lbProneFiniteAdd(sum, &model[b]), &local[b]);
	}
	// The parents of the bones whose locals the turns and solves write against them (the others'
	// parents are in the list).
	const int written[6] = { lbProneRollBone(h), h->spineCount > 0 ? h->spine[0] : LB_NULL_INDEX, h->leg[0].thigh,
							 h->leg[1].thigh, h->arm[0].upperArm, h->arm[1].upperArm };
	for (int k = 0; k < 6; ++k)
		if (written[k] >= 0 && parents[written[k]] >= 0)
			sum = lbProneFiniteAdd(sum, &model[parents[written[k]]]);
	return lbProneFiniteEnd(sum);
}

bool lbProneModelFinite(const lbPose* pose, const lbProneRig* rig)
{
	const int* bones = rig->bones;
	const int n = rig->count;
	const lbTransform* model = pose->model;
	lbProneFiniteSum sum = lbProneFiniteStart();
	for (int k = 0; k < n; ++k)
	{
		const int b = bones[k];
		if (b >= 0)
			sum = lbProneFiniteAdd(sum, &model[b]);
	}
	return lbProneFiniteEnd(sum);
}

int lbProneRollBone(const lbHumanoid* h)
{
	return h->root >= 0 && h->root != h->pelvis ? h->root : h->pelvis;
}

int lbProneTopBone(const lbHumanoid* h)
{
	if (h->neck >= 0)
		return h->neck;
	return h->spineCount > 0 ? h->spine[h->spineCount - 1] : LB_NULL_INDEX;
}

int lbProneBendBone(const lbHumanoid* h, const lbSkeleton* skeleton)
{
	const int top = lbProneTopBone(h);
	if (h->pelvis < 0 || top < 0 || !skeleton->restModel)
		return LB_NULL_INDEX;
	const lbVec3 pelvis = skeleton->restModel[h->pelvis].p;
	const lbVec3 axis = lbSub(skeleton->restModel[top].p, pelvis);
	const float len2 = lbLengthSquared(axis);
	if (!(len2 > 1.0e-8f))
		return LB_NULL_INDEX;
	int best = LB_NULL_INDEX;
	float bestOff = 0.0f;
	// Not the first spine bone (the upper body's pitch turns it) nor the top.
	for (int i = 1; i < h->spineCount; ++i)
	{
		const int b = h->spine[i];
		if (b == top || b < 0)
			continue;
		const float off = lbAbsF(lbDot(lbSub(skeleton->restModel[b].p, pelvis), axis) / len2 - LB_PRONE_BEND_AT);
		if (best < 0 || off < bestOff)
			best = b, bestOff = off;
	}
	return best;
}

void lbProneBodyFrame(const lbHumanoid* h, const lbPose* pose, lbVec3 upMs, lbVec3* outAlong, lbVec3* outLeft,
					  float* outSinElevation)
{
	int top = lbProneTopBone(h);
	lbVec3 axis = lbSub(pose->model[top].p, pose->model[h->pelvis].p);
	lbVec3 flat = lbProjectOnPlane(axis, upMs);
	const float len2 = lbLengthSquared(axis);
	// A body standing upright has no axis along the ground: its forward stands in (worked out only
	// then; lbNormalizeOr's fallback argument would be made every frame).
	// lbNormalizeOr(flat, zero) with flat's length kept for the test below.
	const float flatLen = lbLength(flat);
	lbVec3 along = flatLen > LB_EPSILON && lbIsValidFloat(flatLen) ? lbMulSV(1.0f / flatLen, flat) : lbVec3_zero;
	if (lbLengthSquared(along) == 0.0f)
		along = lbNormalizeOr(lbProjectOnPlane(h->forwardMs, upMs), lbAnyPerpendicular(upMs));
	// flatLen < 0.05 |axis|, without the axis's square root.
	if (flatLen * flatLen < 0.0025f * len2)
		along = lbNormalizeOr(lbProjectOnPlane(h->forwardMs, upMs), along);
	*outAlong = along;
	// up and along are unit and at right angles (along lies in the ground plane), so their cross
	// product is unit: not normalized again.
	*outLeft = lbCross(upMs, along);
	if (outSinElevation)
	{
		const float len = sqrtf(len2);
		*outSinElevation = len > 1.0e-6f ? lbClampF(lbAbsF(lbDot(axis, upMs)) / len, 0.0f, 1.0f) : 1.0f;
	}
}

void lbProneProbeSetup_Init(lbProneProbeSetup* setup, const lbHumanoid* h, const lbProneDef* def)
{
	// Radii are the body capsules the metrics measure (docs/metrics.md), so that resting on the
	// ground here means touching it there.
	setup->torso = def->torsoRadius >= 0.0f ? def->torsoRadius : 0.055f * h->height;
	setup->top = lbProneTopBone(h);
	setup->soleMade[0] = setup->soleMade[1] = false;
	setup->soles = NULL;
}

// The bone whose joint is a plain probe's point (pelvis, chest, knee, ankle, elbow, wrist) and the
// probe's radius (m); LB_PRONE_PROBE_SPECIAL for the others (the torso axis's points, the toes).
#define LB_PRONE_PROBE_SPECIAL (-2)
static int lbProneProbeBone(const lbProneProbeSetup* setup, const lbHumanoid* h, int probe, float* outRadius)
{
	const float torso = setup->torso;
	int side = 0;
	switch (probe)
	{
		case lb_pronePelvis:
			*outRadius = torso;
			return h->pelvis;
		case lb_proneChest:
			*outRadius = torso;
			return setup->top;
		case lb_proneKneeL:
		case lb_proneKneeR:
			side = probe - lb_proneKneeL;
			*outRadius = lbMaxF(0.14f * h->legAxes[side].thighLength,
								lbMinF(0.11f * h->legAxes[side].calfLength, 0.6f * h->legAxes[side].ankleHeight));
			return h->leg[side].calf;
		case lb_proneAnkleL:
		case lb_proneAnkleR:
			side = probe - lb_proneAnkleL;
			*outRadius = lbMinF(0.11f * h->legAxes[side].calfLength, 0.6f * h->legAxes[side].ankleHeight);
			return h->leg[side].foot;
		case lb_proneElbowL:
		case lb_proneElbowR:
			side = probe - lb_proneElbowL;
			*outRadius = lbMaxF(0.15f * h->armAxes[side].upperLength, 0.13f * h->armAxes[side].foreLength);
			return h->arm[side].foreArm;
		case lb_proneWristL:
		case lb_proneWristR:
			side = probe - lb_proneWristL;
			*outRadius = 0.13f * h->armAxes[side].foreLength;
			return h->arm[side].hand;
		default:
			*outRadius = 0.0f;
			return LB_PRONE_PROBE_SPECIAL;
	}
}

void lbProneProbeSetup_Table(lbProneProbeSetup* setup, const lbHumanoid* h)
{
	// lbProneProbeBone's entries written out (the switch per probe cost as much as the rest of the
	// table): the same bones and the same products for the radii.
	_Static_assert(lb_pronePelvis == 0 && lb_proneSpine == 1 && lb_proneChest == 2 && lb_proneKneeL == 3 &&
					   lb_proneAnkleL == 5 && lb_proneToeL == 7 && lb_proneElbowL == 9 && lb_proneWristL == 11 &&
					   lb_proneTorsoLow == 13 && lb_proneTorsoHigh == 14 && lb_proneThighL == 15 &&
					   lb_proneForearmL == 17 && lb_proneProbeCount == 19,
				   "the table below follows the probes' order");
	const float torso = setup->torso;
	int* bone = setup->bone;
	float* radius = setup->radius;
	bone[lb_pronePelvis] = h->pelvis, radius[lb_pronePelvis] = torso;
	bone[lb_proneChest] = setup->top, radius[lb_proneChest] = torso;
	bone[lb_proneSpine] = bone[lb_proneTorsoLow] = bone[lb_proneTorsoHigh] = LB_PRONE_PROBE_TORSO;
	radius[lb_proneSpine] = radius[lb_proneTorsoLow] = radius[lb_proneTorsoHigh] = torso;
	// lbProneProbeAt's places of the three on the axis.
	setup->at[lb_proneSpine] = 0.5f, setup->at[lb_proneTorsoLow] = 0.25f, setup->at[lb_proneTorsoHigh] = 0.75f;
	for (int side = 0; side < 2; ++side)
	{
		const lbLegAxes* leg = &h->legAxes[side];
		const lbArmAxes* arm = &h->armAxes[side];
		const float ankle = lbMinF(0.11f * leg->calfLength, 0.6f * leg->ankleHeight);
		bone[lb_proneKneeL + side] = h->leg[side].calf;
		radius[lb_proneKneeL + side] = lbMaxF(0.14f * leg->thighLength, ankle);
		bone[lb_proneAnkleL + side] = h->leg[side].foot;
		radius[lb_proneAnkleL + side] = ankle;
		bone[lb_proneToeL + side] = LB_PRONE_PROBE_SPECIAL;
		radius[lb_proneToeL + side] = 0.0f;
		bone[lb_proneElbowL + side] = h->arm[side].foreArm;
		radius[lb_proneElbowL + side] = lbMaxF(0.15f * arm->upperLength, 0.13f * arm->foreLength);
		bone[lb_proneWristL + side] = h->arm[side].hand;
		radius[lb_proneWristL + side] = 0.13f * arm->foreLength;
		bone[lb_proneThighL + side] = bone[lb_proneForearmL + side] = LB_PRONE_PROBE_SPECIAL;
		radius[lb_proneThighL + side] = radius[lb_proneForearmL + side] = 0.0f;
	}
}

bool lbProneProbeAt(lbProneProbeSetup* setup, const lbHumanoid* h, const lbPose* pose, lbProneProbe probe,
					lbVec3* outPointMs, float* outRadius)
{
	switch (probe)
	{
		case lb_proneSpine:
		case lb_proneTorsoLow:
		case lb_proneTorsoHigh:
		{
			// The middle of the torso capsule's axis (pelvis to neck), not a spine joint: the spine
			// bows toward the back, so on the back its middle joint lies 3 cm under the axis and would
			// hold the whole torso that much off the ground.
			const int top = setup->top;
			if (h->pelvis < 0 || top < 0 || h->pelvis >= pose->boneCount || top >= pose->boneCount)
				return false;
			const float at = probe == lb_proneSpine ? 0.5f : (probe == lb_proneTorsoLow ? 0.25f : 0.75f);
			*outPointMs = lbLerp(pose->model[h->pelvis].p, pose->model[top].p, at);
			*outRadius = setup->torso;
			return true;
		}
		case lb_proneThighL:
		case lb_proneThighR:
		case lb_proneForearmL:
		case lb_proneForearmR:
		{
			// A point of the segment between its joints (lbProneSegmentAt from the first), with the
			// segment's capsule radius (docs/metrics.md).
			const bool thigh = probe <= lb_proneThighR;
			const int side = thigh ? probe - lb_proneThighL : probe - lb_proneForearmL;
			const int a = thigh ? h->leg[side].thigh : h->arm[side].foreArm;
			const int b = thigh ? h->leg[side].calf : h->arm[side].hand;
			if (a < 0 || b < 0 || a >= pose->boneCount || b >= pose->boneCount)
				return false;
			*outPointMs = lbLerp(pose->model[a].p, pose->model[b].p, LB_PRONE_SEGMENT_AT);
			*outRadius = thigh ? 0.14f * h->legAxes[side].thighLength : 0.13f * h->armAxes[side].foreLength;
			return true;
		}
		case lb_proneToeL:
		case lb_proneToeR:
		{
			const int side = probe - lb_proneToeL;
			if (h->leg[side].foot < 0)
				return false;
			if (h->leg[side].foot >= pose->boneCount)
				return false;
			// The ball point lies on the sole; the capsule over it is raised by its radius. (The two
			// sole points needed, not all of lbHumanoid_GetSolePointsMs.)
			const lbSole* sole = setup->soles ? &setup->soles[side] : &setup->sole[side];
			if (!setup->soles && !setup->soleMade[side])
			{
				setup->sole[side] = lbHumanoid_GetSole(h, side);
				setup->soleMade[side] = true;
			}
			const lbTransform* foot = &pose->model[h->leg[side].foot];
			const float r = 0.4f * h->legAxes[side].ankleHeight;
#if LB_IK_SSE2
			// The foot's up, from the point under the ankle to the ankle, is the foot's rotation of
			// the sole's own offset to that point reversed and made unit (a rotation keeps lengths),
			// so the probe point, the ball raised by r along it, is the foot's transform of one offset
			// in the foot's frame: one rotation (lbSole_PointMs's two and a normalisation of their
			// difference cost about 40 instructions more a toe).
			const __m128 q = _mm_loadu_ps(&foot->q.x);
			const __m128 p = _mm_setr_ps(foot->p.x, foot->p.y, foot->p.z, 0.0f);
			const __m128 under0 = _mm_setr_ps(sole->under.x, sole->under.y, sole->under.z, 0.0f);
			const __m128 toeFlat = _mm_setr_ps(sole->toeFlat.x, sole->toeFlat.y, sole->toeFlat.z, 0.0f);
			const __m128 toUnder = _mm_add_ps(under0, _mm_mul_ps(_mm_set1_ps(sole->along[lb_soleUnderAnkle]), toeFlat));
			const lbVec3 up = lbProneUnitLanes(_mm_sub_ps(_mm_setzero_ps(), toUnder), lbVec3_zero);
			const __m128 offset = _mm_add_ps(_mm_add_ps(under0, _mm_mul_ps(_mm_set1_ps(sole->along[lb_soleBall]), toeFlat)),
											 _mm_mul_ps(_mm_set1_ps(r), _mm_setr_ps(up.x, up.y, up.z, 0.0f)));
			float out[4];
			_mm_storeu_ps(out, _mm_add_ps(p, lbIkQuatRotate4(q, offset)));
			*outPointMs = LB_LITERAL(lbVec3){ out[0], out[1], out[2] };
#else
			const lbVec3 ball = lbSole_PointMs(sole, *foot, lb_soleBall);
			const lbVec3 under = lbSole_PointMs(sole, *foot, lb_soleUnderAnkle);
			lbVec3 footUp = lbNormalizeOr(lbSub(foot->p, under), lbVec3_zero);
			*outPointMs = lbMulAdd(ball, r, footUp);
#endif
			*outRadius = r;
			return true;
		}
		default:
			break;
	}
	float r;
	const int bone = lbProneProbeBone(setup, h, (int)probe, &r);
	if (bone < 0 || bone >= pose->boneCount)
		return false;
	*outPointMs = pose->model[bone].p;
	*outRadius = r;
	return true;
}

bool lbProneProbePoint(const lbHumanoid* h, const lbProneDef* def, const lbPose* pose, lbProneProbe probe,
					   lbVec3* outPointMs, float* outRadius)
{
	if (!h || !def || !pose || !pose->model || !outPointMs || !outRadius || (int)probe < 0 || probe >= lb_proneProbeCount)
		return false;
	lbProneProbeSetup setup;
	lbProneProbeSetup_Init(&setup, h, def);
	return lbProneProbeAt(&setup, h, pose, probe, outPointMs, outRadius);
}
