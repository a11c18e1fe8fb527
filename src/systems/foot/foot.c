// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Foot placement: the sense stage (world space, state) and the pose stage (model space).
//
// The sense stage smooths *offsets* (the foot's height above the animation's floor and the tilt
// on top of the animated rotation), never world positions: the animated foot keeps its own
// horizontal motion, so smoothing cannot make a walking foot lag and slide. Foot locking then
// holds planted feet exactly where they landed.
#include "limber/foot.h"
#include "limber/ik.h"

#include <string.h>

lbFootDef lbDefaultFootDef(void)
{
	lbFootDef d;
	memset(&d, 0, sizeof d);
	d.up = lbVec3_axisZ;
	d.traceRadius = 0.03f;
	d.traceOrigin = lb_footTraceFromFoot;
	d.traceAbove = 0.5f;
	d.traceBelow = 0.6f;
	d.channelMask = LB_CHANNEL_GROUND;
	d.ignoreOwnerId = LB_NO_OWNER;
	d.heelToeTraces = false;
	d.normalWeight = 0.7f;
	d.maxFootAngle = 40.0f * LB_DEG2RAD;
	d.slopeLimit = 35.0f * LB_DEG2RAD;
	d.slopeFade = 10.0f * LB_DEG2RAD;
	d.goalSpeed = 13.0f;
	d.rotationSpeed = 18.0f;
	d.predictionTime = 0.02f;
	d.predictionMax = 0.20f;
	d.predictionMaxTurnRate = 1.5f;
	d.pelvisMode = lb_footPelvisLowestFoot;
	d.pelvisWeight = 0.3f;
	d.pelvisMaxSink = 0.35f;
	d.pelvisMaxLift = 0.05f;
	d.pelvisSpeed = 13.0f;
	d.landingCompression = -0.06f;
	d.landingRelaxSpeed = 8.0f;
	d.alphaSpeed = 10.0f;
	d.clampedAlpha = 0.3f;
	d.traceRate = 30.0f;
	d.lodDistance = 8.0f;
	d.footLock = true;
	d.lockSpeed = 0.3f;
	d.lockHeight = 0.04f;
	d.lockReleaseDistance = 0.10f;
	d.lockReleaseAngle = 30.0f * LB_DEG2RAD;
	d.lockBlendSpeed = 15.0f;
	d.teleportDistance = 1.0f;
	d.legSoften = 0.02f;
	d.ankleLimit = 65.0f * LB_DEG2RAD;
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

lbFootSenseInput lbDefaultFootSenseInput(void)
{
	lbFootSenseInput in;
	memset(&in, 0, sizeof in);
	in.characterWs = lbTransform_identity;
	in.ikMode = lb_footIkEnabled;
	in.moveState = lb_footGrounded;
	return in;
}

void lbFootState_Reset(lbFootState* state)
{
	if (!state)
		return;
	memset(state, 0, sizeof *state);
	for (int s = 0; s < 2; ++s)
	{
		state->legs[s].tilt = lbQuat_identity;
		state->legs[s].lockRotWs = lbQuat_identity;
		state->legs[s].groundNormalWs = lbVec3_axisZ;
	}
	state->prevCharacterWs = lbTransform_identity;
}

lbResult lbFootState_SetTracePhase(lbFootState* state, float phase)
{
	if (!state)
		return lbReport(lb_errorNullPointer, "lbFootState_SetTracePhase: state is NULL");
	if (!lbIsValidFloat(phase))
		return lbReport(lb_errorNonFinite, "lbFootState_SetTracePhase: phase is not finite");
	phase -= floorf(phase);
	// floorf can leave exactly 1 for tiny negative phases.
	state->tracePhase = phase < 1.0f ? phase : 0.0f;
	return lb_ok;
}

lbVec3 lbFootSoleLocal(const lbHumanoid* humanoid, int side)
{
	if (!humanoid || side < 0 || side > 1)
		return lbVec3_zero;
	return lbMulSV(-humanoid->legAxes[side].ankleHeight, humanoid->legAxes[side].footUp);
}

// Tilt taking `up` part of the way toward the ground normal (both unit): weight times the slope
// angle, capped at maxAngle. Also gives the slope angle itself (radians), which the caller needs
// too: one atan2f serves both.
static lbQuat lbFootTilt(lbVec3 up, lbVec3 normal, float weight, float maxAngle, float* outSlope)
{
	lbVec3 axis = lbCross(up, normal);
	float s = lbLength(axis);
	// atan2 of |up x n| and up . n: accurate at every angle, unlike acos near 0.
	float slope = atan2f(s, lbDot(up, normal));
	*outSlope = slope;
	if (s < 1.0e-6f)
		return lbQuat_identity;
	float angle = lbMinF(slope * lbClampF(weight, 0.0f, 1.0f), lbMaxF(maxAngle, 0.0f));
	// The axis up x n / s is already unit: build the quaternion directly.
	float h = 0.5f * angle, k = sinf(h) / s;
	return LB_LITERAL(lbQuat){ axis.x * k, axis.y * k, axis.z * k, cosf(h) };
}

// Whether unit rotations a and b differ by more than `angle` (radians). The rotation between them
// turns by 2 acos |a . b|, so comparing cosines needs no inverse trigonometry. Negative angles are
// always exceeded, angles of half a turn or more (or NaN) never.
static bool lbFootTurnedBeyond(lbQuat a, lbQuat b, float angle)
{
	if (!(angle < LB_PI))
		return false;
	if (angle < 0.0f)
		return true;
	return lbAbsF(lbQuatDot(a, b)) < cosf(0.5f * angle);
}

typedef struct lbFootCast
{
	bool hit;
	// Support under the cast line, face normal there, and where the sphere actually touched.
	lbVec3 point, normal, touch;
} lbFootCast;

// The downward line a probe sweeps under `base` (world): from the def's height above it (or from
// pelvis height) to `below` under it, with the def's radius, channels and ignored owner.
static lbQueryInput lbFootProbe(const lbFootDef* def, lbVec3 base, lbVec3 pelvisWs, lbVec3 up, float below)
{
	float above = def->traceOrigin == lb_footTraceFromPelvis ? lbMaxF(lbDot(lbSub(pelvisWs, base), up), 0.1f)
															  : def->traceAbove;
	lbQueryInput qi = lbDefaultQueryInput();
	qi.start = lbMulAdd(base, above, up);
	qi.end = lbMulAdd(base, -below, up);
	qi.radius = lbMaxF(def->traceRadius, 0.0f);
	qi.channelMask = def->channelMask;
	qi.ignoreOwnerId = def->ignoreOwnerId;
	return qi;
}

// One downward probe: a sphere cast finds the support (the sphere filters pebbles and cracks).
// Resting inside a face, the sphere's normal is that face's and the probe is done. At an edge or a
// vertex its normal points from the edge to the sphere's centre, wrong for tilting a foot, so a ray
// along the same line then finds the face under the foot; the sphere's normal is used only when
// the ray finds nothing near the support.
static lbFootCast lbFootCastDown(const lbSceneQuery* query, const lbQueryInput* qi, lbVec3 up, int* castCount)
{
	lbFootCast c = { false, lbVec3_zero, up, lbVec3_zero };
	lbHit hit = lbSphereCast(query, qi);
	// A sphere resting inside one face already has that face's normal: the ray below is needed only
	// at an edge or vertex contact (or when the scene cannot tell which it was).
	bool onFace = hit.hit && !hit.startedInside && hit.status == lb_ok && lbLengthSquared(hit.faceNormal) > 0.25f &&
				  lbDot(hit.faceNormal, hit.normal) > 0.99999f;
	lbHit ray;
	ray.hit = false;
	if (!onFace)
	{
		ray = lbRayCast(query, qi);
		*castCount += 1;
	}
	*castCount += 1;
	// A sphere that starts inside geometry says nothing about the ground under the foot; the ray
	// reports the first surface it enters instead.
	if (!hit.hit || hit.startedInside || hit.status != lb_ok)
	{
		hit = ray;
		if (!hit.hit || hit.startedInside || hit.status != lb_ok)
			return c;
	}
	lbVec3 n = lbNormalize(hit.normal);
	if (lbDot(n, up) < 0.05f)
		return c; // walls and ceilings are not ground
	// Support height under the sphere centre: exact for a plane (centre - r / cos(slope)).
	float r = hit.startedInside ? 0.0f : qi->radius;
	lbVec3 support = lbMulAdd(hit.location, -r / lbMaxF(lbDot(n, up), 0.5f), up);
	lbVec3 face = n;
	if (ray.hit && !ray.startedInside && ray.status == lb_ok && lbDot(ray.normal, up) > 0.05f)
	{
		face = lbNormalize(ray.normal);
		// An edge: the face straight below lies clearly lower than where the sphere touched, so
		// the foot rests on the edge itself, at the touch point's height.
		if (!hit.startedInside && lbDot(lbSub(hit.impactPoint, ray.impactPoint), up) > 0.01f)
			support = lbMulAdd(support, lbDot(lbSub(hit.impactPoint, support), up), up);
	}
	c.hit = true;
	c.point = support;
	c.normal = face;
	c.touch = hit.impactPoint;
	return c;
}

// The sole's three samples (heel, under the ankle, ball) of one foot, in the foot bone's frame: the
// point under the ankle and the foot's forward direction flattened onto the sole, so sample k is
// sole + along[k] * toeFlat. Built once per leg and frame; the samples are needed three times.
typedef struct lbFootSole
{
	lbVec3 sole, toeFlat;
	float along[3];
} lbFootSole;

static lbFootSole lbMakeFootSole(const lbHumanoid* h, int side)
{
	const lbLegAxes* ax = &h->legAxes[side];
	lbFootSole f;
	f.sole = lbMulSV(-ax->ankleHeight, ax->footUp);
	f.toeFlat = lbNormalize(lbProjectOnPlane(ax->toe, ax->footUp));
	f.along[0] = -0.3f * ax->footLength;
	f.along[1] = 0.0f;
	f.along[2] = ax->footLength;
	return f;
}

// Signed heights (world, m) of the three sole samples above the plane through groundPoint with unit
// normal `normal`, for the foot at `ankle` turned by unit `rot` and scaled by `scale`. Linear in the
// sample's offset along the foot; and rot v . n = v . rot^-1 n, so one rotation of the normal into
// the foot's frame serves all three samples.
static void lbFootSoleHeights(const lbFootSole* f, lbVec3 ankle, lbQuat rot, float scale, lbVec3 groundPoint,
							  lbVec3 normal, float out[3])
{
	lbVec3 nFoot = lbQuatInvRotate(rot, normal);
	float base = lbDot(lbSub(ankle, groundPoint), normal) + scale * lbDot(f->sole, nFoot);
	float slope = scale * lbDot(f->toeFlat, nFoot);
	for (int k = 0; k < 3; ++k)
		out[k] = base + f->along[k] * slope;
}

// Lifts an ankle goal so that no part of the sole (heel, under the ankle, ball) is below the
// ground plane: a foot tilted less than the slope (normalWeight < 1) then rests on its uphill
// toe or heel instead of pushing it into the ground. Returns the lifted goal.
static lbVec3 lbFootClearSole(lbVec3 ankleGoal, lbQuat footRot, float scale, const lbFootSole* f, lbVec3 groundPoint,
							  lbVec3 normal, lbVec3 up)
{
	float d[3];
	lbFootSoleHeights(f, ankleGoal, footRot, scale, groundPoint, normal, d);
	float deepest = lbMinF(0.0f, lbMinF(d[0], lbMinF(d[1], d[2])));
	return lbMulAdd(ankleGoal, -deepest / lbMaxF(lbDot(up, normal), 0.5f), up);
}

lbResult lbFootSense(lbFootState* state, const lbFootDef* def, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
					 const lbFootSenseInput* in, lbFootTargets* out)
{
	if (!state || !def || !skeleton || !humanoid || !in || !out || !in->animPose || !in->animPose->model)
		return lbReport(lb_errorNullPointer, "lbFootSense: state, def, skeleton, humanoid, input, pose and output are required");
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbFootSense: def not initialised with lbDefaultFootDef()");
	if (in->animPose->boneCount != skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbFootSense: pose has %d bones, skeleton %d", in->animPose->boneCount,
						skeleton->boneCount);
	const lbVec3 up = lbNormalizeOr(def->up, lbVec3_axisZ);
	lbResult result = lb_ok;
	const lbTransform cw = in->characterWs;
	if (!lbIsValidTransform(cw))
	{
		// Keep everything; re-issue the last targets faded out so the animation shows through.
		out->alpha = 0.0f;
		out->active = false;
		return lbReport(lb_errorNonFinite, "lbFootSense: character transform is not finite");
	}
	lbVec3 vel = in->velocityWs;
	if (!lbIsValidVec3(vel))
	{
		result = lbReport(lb_errorNonFinite, "lbFootSense: velocity is not finite; using zero");
		vel = lbVec3_zero;
	}
	float dt = in->dt;
	if (!lbIsValidFloat(dt) || dt < 0.0f)
		dt = 0.0f;
	bool snap = in->landed || dt > 0.25f || !state->initialized;
	// Teleport: the previous frame says nothing about this one.
	if (state->initialized && lbDistance(cw.p, state->prevCharacterWs.p) > def->teleportDistance)
	{
		snap = true;
		for (int s = 0; s < 2; ++s)
		{
			state->legs[s].locked = false;
			state->legs[s].lockAlpha = 0.0f;
		}
	}
	// The turn rate (rad/s) only gates prediction, so it is measured when a moving foot asks for it.
	float turnRate = 0.0f;
	bool turnRateKnown = !(state->initialized && dt > 0.0f);

	bool active = !(def->lodDistance > 0.0f && in->hasCamera && lbIsValidVec3(in->cameraWs) &&
					lbDistance(in->cameraWs, cw.p) > def->lodDistance);
	float alphaTarget = 1.0f;
	if (!active || in->moveState != lb_footGrounded || in->ikMode == lb_footIkDisabled)
		alphaTarget = 0.0f;
	else if (in->ikMode == lb_footIkClamped)
		alphaTarget = lbClampF(def->clampedAlpha, 0.0f, 1.0f);
	if (snap && alphaTarget > 0.0f)
		state->alpha = alphaTarget;
	else if (state->alpha != alphaTarget)
		state->alpha = lbClampF(lbInterpTo(state->alpha, alphaTarget, dt, def->alphaSpeed), 0.0f, 1.0f);

	// Reduced trace rate: a phase accumulator, so 30 Hz at 120 Hz frames is exactly every 4th frame.
	// After a snap (or a gap of more than a period) the schedule restarts at the state's phase.
	state->traceTimer -= dt;
	bool doTrace = active && in->query && (snap || def->traceRate <= 0.0f || state->traceTimer <= 1.0e-5f);
	if (doTrace && def->traceRate > 0.0f)
	{
		float period = 1.0f / def->traceRate;
		float phase = lbClampF(state->tracePhase, 0.0f, 1.0f);
		state->traceTimer =
			state->traceTimer < -period || snap ? period * (1.0f - phase) : state->traceTimer + period;
	}

	// A rotation keeps lengths: the scale alone sets the model-to-world factor.
	const float modelToWorld = lbLength(lbMulVV(cw.s, humanoid->upMs));
	const float floorH = lbDot(cw.p, up);
	// The pelvis offset is relative to the animation's floor (the character origin). When that
	// floor jumps (the capsule steps up a stair), carry the offset across so the smoothed pelvis
	// keeps its world height and the step never pops. Feet smooth world ground heights directly.
	const float floorJump = state->initialized && !snap ? floorH - lbDot(state->prevCharacterWs.p, up) : 0.0f;
	state->pelvisOffset -= floorJump;
	const lbVec3 velH = lbProjectOnPlane(vel, up);
	const float speedH = lbLength(velH);
	int castCount = 0;
	// Probes start from the pelvis's height only when the def asks for it.
	const lbVec3 pelvisWs = def->traceOrigin == lb_footTraceFromPelvis ? lbTransformPoint(cw, in->animPose->model[humanoid->pelvis].p)
																	: lbVec3_zero;
	// Interp-to fractions shared by both legs (one expf each, taken when first needed).
	float goalStep = -1.0f, rotationStep = -1.0f;
	float legDz[2] = { 0.0f, 0.0f }, legDrop[2] = { 0.0f, 0.0f };
	bool legCounts[2] = { false, false };

	for (int side = 0; side < 2; ++side)
	{
		lbFootLegState* leg = &state->legs[side];
		lbFootTarget* ft = &out->feet[side];
		const int foot = humanoid->leg[side].foot;
		const lbLegAxes* axes = &humanoid->legAxes[side];
		const lbFootSole sole = lbMakeFootSole(humanoid, side);
		const lbTransform animFootWs = lbTransformMul(cw, in->animPose->model[foot]);
		const lbVec3 animAnkleWs = animFootWs.p;
		const float ankleH = axes->ankleHeight * modelToWorld;
		const float soleAboveFloor = lbDot(animAnkleWs, up) - floorH - ankleH;
		// The foot's animated speed. Some base motions hold a stance foot in the world while the
		// capsule steps up a stair, others carry it with the capsule; either way that is not the
		// foot lifting off, so take the smaller of the world and floor-relative displacements.
		float footSpeed = 0.0f;
		lbVec3 footVel = lbVec3_zero;
		if (state->initialized && dt > 0.0f && !snap)
		{
			lbVec3 d = lbSub(animAnkleWs, leg->prevAnimAnkleWs);
			lbVec3 dRel = lbMulAdd(d, -floorJump, up);
			footVel = lbMulSV(1.0f / dt, lbLengthSquared(dRel) < lbLengthSquared(d) ? dRel : d);
			footSpeed = lbLength(footVel);
		}
		leg->prevAnimAnkleWs = animAnkleWs;

		if (doTrace)
		{
			// Prediction: look ahead along the motion so a swinging foot sees the ground it will land
			// on; not when standing, turning, or when this foot swings backwards.
			lbVec3 predict = lbVec3_zero;
			bool predicting = speedH > 0.1f && lbDot(footVel, velH) >= 0.0f && !leg->locked;
			if (predicting && !turnRateKnown)
			{
				lbVec3 f0 = lbTransformDirection(state->prevCharacterWs, humanoid->forwardMs);
				lbVec3 f1 = lbTransformDirection(cw, humanoid->forwardMs);
				lbVec3 a = lbNormalize(lbProjectOnPlane(f0, up)), b = lbNormalize(lbProjectOnPlane(f1, up));
				turnRate = atan2f(lbDot(up, lbCross(a, b)), lbDot(a, b)) / dt;
				turnRateKnown = true;
			}
			if (predicting && lbAbsF(turnRate) < def->predictionMaxTurnRate)
				predict = lbClampLength(lbMulSV(def->predictionTime, velH), def->predictionMax);
			lbVec3 base = lbAdd(animAnkleWs, predict);
			const lbQueryInput centre = lbFootProbe(def, base, pelvisWs, up, ankleH + def->traceBelow);
			lbFootCast c = lbFootCastDown(in->query, &centre, up, &castCount);
			if (c.hit && def->heelToeTraces && axes->footLength > 0.0f)
			{
				// Heel and ball contacts give the ground's pitch along the foot; the centre cast keeps the roll.
				lbVec3 toe = lbNormalize(lbProjectOnPlane(lbTransformDirection(animFootWs, axes->toe), up));
				lbVec3 heelBase = lbMulAdd(base, -0.3f * axes->footLength * modelToWorld, toe);
				lbVec3 toeBase = lbMulAdd(base, axes->footLength * modelToWorld, toe);
				// Heel and ball probes: the centre's line moved along the foot.
				lbQueryInput heel = centre, ball = centre;
				heel.start = lbAdd(centre.start, lbSub(heelBase, base));
				heel.end = lbAdd(centre.end, lbSub(heelBase, base));
				ball.start = lbAdd(centre.start, lbSub(toeBase, base));
				ball.end = lbAdd(centre.end, lbSub(toeBase, base));
				lbFootCast ch = lbFootCastDown(in->query, &heel, up, &castCount);
				lbFootCast ct = lbFootCastDown(in->query, &ball, up, &castCount);
				if (ch.hit && ct.hit && lbLength(toe) > 0.0f)
				{
					lbVec3 along = lbSub(ct.point, ch.point);
					lbVec3 n = lbNormalize(lbProjectOnPlane(c.normal, along));
					if (lbDot(n, up) > 0.05f)
					{
						c.normal = n;
						// The plane passes through both contacts: take its point under the ankle line.
						c.point = lbLerp(ch.point, ct.point, 0.3f / 1.3f);
					}
				}
			}
			leg->grounded = c.hit;
			if (c.hit)
			{
				leg->groundPointWs = c.point;
				// The bearing point of a locked foot is the one it locked on.
				if (!leg->locked)
					leg->bearingWs = c.touch;
				leg->groundNormalWs = c.normal;
			}
		}
		else if (!active)
		{
			leg->grounded = false;
		}

		// Ground height (world, along up) under the ankle; without ground, the animation's floor.
		float offsetTarget = floorH, legAlphaTarget = 0.0f;
		lbQuat tiltTarget = lbQuat_identity;
		if (leg->grounded)
		{
			lbVec3 n = leg->groundNormalWs;
			// The ground plane's point straight below (or above) the animated ankle.
			float denom = lbMaxF(lbDot(up, n), 0.05f);
			lbVec3 under = lbMulAdd(animAnkleWs, -lbDot(lbSub(animAnkleWs, leg->groundPointWs), n) / denom, up);
			offsetTarget = lbDot(under, up);
			float slope;
			tiltTarget = lbFootTilt(up, n, def->normalWeight, def->maxFootAngle, &slope);
			legAlphaTarget = lbRemapClamped(slope, def->slopeLimit, def->slopeLimit + lbMaxF(def->slopeFade, 1.0e-4f), 1.0f, 0.0f);
		}
		if (snap)
		{
			leg->offset = offsetTarget;
			leg->offsetSpeed = 0.0f;
			leg->tilt = tiltTarget;
			leg->alpha = legAlphaTarget;
		}
		else
		{
			// Rising ground under a foot is followed twice as fast as falling ground: lagging
			// behind a rising step puts the foot inside it, lagging behind a drop only lets it hover.
			float speed = offsetTarget > leg->offset ? 2.0f * def->goalSpeed : def->goalSpeed;
			// Critically damped spring (closed-form step, Game Programming Gems 4, 1.10): like the
			// exponential interp-to but starting from the current speed, so a sudden change of the
			// ground under a swinging foot does not jump the foot in its first frame.
			float omega = 2.0f * speed, x = omega * dt;
			float decay = 1.0f / (1.0f + x + 0.48f * x * x + 0.235f * x * x * x);
			float change = leg->offset - offsetTarget;
			float temp = (leg->offsetSpeed + omega * change) * dt;
			leg->offsetSpeed = (leg->offsetSpeed - omega * temp) * decay;
			leg->offset = offsetTarget + (change + temp) * decay;
			// Exponential interp-to (lbQInterpTo, lbInterpTo) with the fractions shared by both legs;
			// a value already at its target stays there.
			if (dt > 0.0f && (leg->tilt.x != tiltTarget.x || leg->tilt.y != tiltTarget.y || leg->tilt.z != tiltTarget.z ||
							  leg->tilt.w != tiltTarget.w))
			{
				if (rotationStep < 0.0f)
					rotationStep = lbInterpAlpha(dt, def->rotationSpeed);
				leg->tilt = lbQuatSlerp(leg->tilt, tiltTarget, rotationStep);
			}
			if (leg->alpha != legAlphaTarget)
			{
				if (goalStep < 0.0f)
					goalStep = lbInterpAlpha(dt, def->goalSpeed);
				leg->alpha = lbClampF(leg->alpha + (legAlphaTarget - leg->alpha) * goalStep, 0.0f, 1.0f);
			}
		}
		// The smoothed ground height the goal below stands on (a lock may move the state's value).
		const float smoothOffset = leg->offset;
		// The animated foot's rotation, unit, so that products with unit tilts need no normalising.
		const lbQuat animRot = lbQuatNormalize(animFootWs.q);

		bool planted = leg->grounded && state->alpha > 0.0f && soleAboveFloor < def->lockHeight &&
					   footSpeed < def->lockSpeed;
		if (def->footLock && active && planted)
		{
			// Where a planted foot belongs: on the ground itself (the unsmoothed goal), not where the
			// smoothing has got to, and without the animation's small residual lift. (planted implies
			// grounded.)
			lbQuat plantRot = lbQuatMul(tiltTarget, animRot);
			lbVec3 plantAnkle = lbAdd(lbMulAdd(animAnkleWs, offsetTarget + ankleH - lbDot(animAnkleWs, up), up),
									  lbMulSV(ankleH, lbSub(lbQuatRotate(tiltTarget, up), up)));
			plantAnkle = lbFootClearSole(plantAnkle, plantRot, modelToWorld, &sole, leg->groundPointWs, leg->groundNormalWs, up);
			if (!leg->locked)
			{
				// Lock there and blend into it quickly: the foot settles on the surface within a few
				// frames and then stays exactly there.
				leg->locked = true;
				leg->lockAnkleWs = plantAnkle;
				leg->lockRotWs = plantRot;
				if (snap)
					leg->lockAlpha = 1.0f;
			}
			else
			{
				// Release when the animation takes the foot away (lift, horizontal travel, turn) or the
				// ground rises into it. A lower reading of the ground does not release it: a foot on a
				// stair edge stays on that edge whichever side a new cast happens to see.
				lbVec3 d = lbSub(plantAnkle, leg->lockAnkleWs);
				float rise = lbDot(d, up);
				if (lbLength(lbProjectOnPlane(d, up)) > def->lockReleaseDistance || rise > 0.02f ||
					lbFootTurnedBeyond(plantRot, leg->lockRotWs, def->lockReleaseAngle))
					leg->locked = false;
			}
		}
		else
		{
			// Not planted (or no locking): the foot is free.
			leg->locked = false;
		}
		// While the foot stands locked, the ground it stands on is the smoothed ground too, so a
		// release later starts from where the foot really is.
		if (leg->locked && leg->grounded)
		{
			leg->offset = lbMaxF(offsetTarget, lbDot(leg->lockAnkleWs, up) - ankleH);
			leg->offsetSpeed = 0.0f;
		}
		// Lock blend (exponential interp-to); a blend already at its end stays there.
		if (leg->locked)
		{
			if (leg->lockAlpha != 1.0f)
				leg->lockAlpha = lbMinF(1.0f, lbInterpTo(leg->lockAlpha, 1.0f, dt, 2.0f * def->lockBlendSpeed) + 1.0e-3f);
		}
		else if (snap)
			leg->lockAlpha = 0.0f;
		else if (leg->lockAlpha != 0.0f)
		{
			leg->lockAlpha = lbInterpTo(leg->lockAlpha, 0.0f, dt, def->lockBlendSpeed);
			if (leg->lockAlpha < 1.0e-3f)
				leg->lockAlpha = 0.0f;
		}

		// Goal: the animated sole's lift above its floor (never below it: a stance foot the base
		// motion holds below a risen capsule is on the ground) added to the ground height, and the
		// ankle above the sole along the tilted foot's up (correct on slopes, not straight above
		// the contact); blended toward the lock. A fully blended lock replaces it outright.
		lbVec3 ankleGoal;
		lbQuat footRot = lbQuatMul(leg->tilt, animRot);
		if (leg->lockAlpha == 1.0f)
		{
			ankleGoal = leg->lockAnkleWs;
			// The same rotation, on the smoothed rotation's side as a slerp would give it.
			footRot = lbQuatDot(footRot, leg->lockRotWs) < 0.0f ? lbQuatNeg(leg->lockRotWs) : leg->lockRotWs;
		}
		else
		{
			const float lift = lbMaxF(soleAboveFloor, 0.0f);
			lbVec3 tiltedUp = lbQuatRotate(leg->tilt, up);
			const float raise = smoothOffset + ankleH + lift - lbDot(animAnkleWs, up);
			ankleGoal = lbAdd(lbMulAdd(animAnkleWs, raise, up), lbMulSV(ankleH, lbSub(tiltedUp, up)));
			// Clear the sole against the smoothed ground (the plane through the smoothed height under
			// the ankle), so the clearance follows the same easing as the goal and never jumps a step.
			if (leg->grounded && leg->alpha > 0.0f)
			{
				const lbVec3 smoothGround = lbMulAdd(animAnkleWs, smoothOffset - lbDot(animAnkleWs, up), up);
				ankleGoal = lbFootClearSole(ankleGoal, footRot, modelToWorld, &sole, smoothGround, leg->groundNormalWs, up);
			}
			if (leg->lockAlpha > 0.0f)
			{
				ankleGoal = lbLerp(ankleGoal, leg->lockAnkleWs, leg->lockAlpha);
				footRot = lbQuatSlerp(footRot, leg->lockRotWs, leg->lockAlpha);
			}
		}

		ft->ankleWs = ankleGoal;
		ft->footRotWs = footRot;
		ft->alpha = leg->alpha;
		ft->locked = leg->locked;
		ft->settled = def->footLock ? (leg->locked && leg->lockAlpha >= 0.99f) : planted;
		ft->planted = planted;
		ft->grounded = leg->grounded;
		// The part of the sole that bears on the ground: the sample (heel, under the ankle, ball)
		// nearest the ground plane, or, when the sole lies parallel to it, the point over where the
		// cast touched (a foot on a stair edge stands on its ball).
		{
			lbVec3 soleLocal = sole.sole;
			if (leg->grounded && axes->footLength > 0.0f)
			{
				const lbVec3 toeFlat = sole.toeFlat;
				float d[3];
				lbFootSoleHeights(&sole, ankleGoal, footRot, modelToWorld, leg->groundPointWs, leg->groundNormalWs, d);
				float best = 1.0e30f, worst = -1.0e30f, bestAlong = 0.0f;
				for (int k = 0; k < 3; ++k)
				{
					worst = lbMaxF(worst, d[k]);
					if (d[k] < best - 1.0e-4f)
						best = d[k], bestAlong = sole.along[k];
				}
				float along = bestAlong;
				if (worst - best < 0.002f)
				{
					lbVec3 toeWs = lbNormalize(lbProjectOnPlane(lbQuatRotate(footRot, axes->toe), up));
					along = lbDot(lbSub(leg->bearingWs, ankleGoal), toeWs);
					// Step a centimetre onto the surface that bears the foot, off the very edge.
					if (lbAbsF(along) > 0.5f * def->traceRadius)
						along += along > 0.0f ? 0.01f : -0.01f;
					along /= modelToWorld;
				}
				along = lbClampF(along, -0.3f * axes->footLength, axes->footLength);
				soleLocal = lbMulAdd(soleLocal, along, toeFlat);
			}
			ft->soleLocal = soleLocal;
			lbTransform goalWs = lbMakeTransform(ankleGoal, footRot);
			goalWs.s = lbMakeVec3(modelToWorld, modelToWorld, modelToWorld);
			ft->contactWs = lbTransformPoint(goalWs, soleLocal);
		}
		ft->normalWs = leg->grounded ? leg->groundNormalWs : up;
		legDz[side] = lbDot(lbSub(ankleGoal, animAnkleWs), up) * leg->alpha;
		// How far the hip must come down (along up) for this leg to reach its goal before the
		// soft-IK band: the smallest t >= 0 with |hip - t up - goal| <= reach.
		{
			const lbLegAxes* ax = &humanoid->legAxes[side];
			float reach = (ax->thighLength + ax->calfLength) * modelToWorld * (1.0f - lbClampF(def->legSoften, 0.0f, 0.5f)) * 0.999f;
			lbVec3 v = lbSub(lbTransformPoint(cw, in->animPose->model[humanoid->leg[side].thigh].p), ankleGoal);
			float along = lbDot(v, up), side2 = lbLengthSquared(v) - along * along;
			legDrop[side] = 0.0f;
			if (lbLengthSquared(v) > reach * reach)
				legDrop[side] = side2 < reach * reach ? (along - sqrtf(reach * reach - side2)) * leg->alpha : lbMaxF(along, 0.0f);
		}
		legCounts[side] = leg->grounded && leg->alpha > 0.0f;
	}

	// Pelvis: drop so the lower foot reaches (or follow the weighted mean), within limits.
	float pelvisTarget = 0.0f;
	if (legCounts[0] || legCounts[1])
	{
		if (def->pelvisMode == lb_footPelvisWeightedAverage)
		{
			int n = (legCounts[0] ? 1 : 0) + (legCounts[1] ? 1 : 0);
			pelvisTarget = ((legCounts[0] ? legDz[0] : 0.0f) + (legCounts[1] ? legDz[1] : 0.0f)) / (float)n * def->pelvisWeight;
		}
		else
		{
			// Lowest foot: the pelvis comes down exactly as far as the leg with the lower goal needs
			// to reach it, and no further; the other leg bends. Dropping by the whole foot offset
			// instead would fold the legs on every uphill step.
			pelvisTarget = -lbMaxF(legCounts[0] ? legDrop[0] : 0.0f, legCounts[1] ? legDrop[1] : 0.0f);
		}
	}
	pelvisTarget = lbClampF(pelvisTarget, -lbMaxF(def->pelvisMaxSink, 0.0f), lbMaxF(def->pelvisMaxLift, 0.0f));
	if (snap)
		state->pelvisOffset = pelvisTarget;
	else if (state->pelvisOffset != pelvisTarget)
		state->pelvisOffset = lbInterpTo(state->pelvisOffset, pelvisTarget, dt, def->pelvisSpeed);
	if (in->landed)
		state->landing = def->landingCompression;
	else if (state->landing != 0.0f)
		state->landing = lbInterpTo(state->landing, 0.0f, dt, def->landingRelaxSpeed);

	out->characterWs = cw;
	out->upWs = up;
	out->pelvisOffset = state->pelvisOffset + state->landing;
	out->alpha = state->alpha;
	out->castCount = castCount;
	out->active = active;
	state->prevCharacterWs = cw;
	state->initialized = 1;
	return result;
}

// Where this frame's probes will most likely go (prediction included, its finer conditions not):
// a hint for the scene's prefetch, so an approximation costs only a miss. Returns the casts written.
static int lbFootAnnounce(const lbFootState* state, const lbFootDef* def, const lbHumanoid* humanoid,
						  const lbFootSenseInput* in, lbQueryInput* out)
{
	const lbTransform cw = in->characterWs;
	if (!in->animPose || !in->animPose->model || !lbIsValidTransform(cw))
		return 0;
	float dt = lbIsValidFloat(in->dt) ? in->dt : 0.0f;
	if (state->initialized && def->traceRate > 0.0f && state->traceTimer - dt > 1.0e-5f && !in->landed)
		return 0; // a reduced-rate frame without casts
	const lbVec3 up = lbNormalizeOr(def->up, lbVec3_axisZ);
	const float modelToWorld = lbLength(lbMulVV(cw.s, humanoid->upMs));
	lbVec3 predict = lbVec3_zero;
	if (lbIsValidVec3(in->velocityWs) && (in->velocityWs.x != 0.0f || in->velocityWs.y != 0.0f || in->velocityWs.z != 0.0f))
		predict = lbClampLength(lbMulSV(def->predictionTime, lbProjectOnPlane(in->velocityWs, up)), def->predictionMax);
	const lbVec3 pelvisWs = def->traceOrigin == lb_footTraceFromPelvis ? lbTransformPoint(cw, in->animPose->model[humanoid->pelvis].p)
																		: lbVec3_zero;
	for (int side = 0; side < 2; ++side)
	{
		lbVec3 base = lbAdd(lbTransformPoint(cw, in->animPose->model[humanoid->leg[side].foot].p), predict);
		out[side] = lbFootProbe(def, base, pelvisWs, up, humanoid->legAxes[side].ankleHeight * modelToWorld + def->traceBelow);
	}
	return 2;
}

lbResult lbFootSenseMany(lbFootState* states, const lbFootDef* def, const lbSkeleton* skeleton,
						 const lbHumanoid* humanoid, const lbFootSenseInput* inputs, lbFootTargets* outTargets,
						 int count)
{
	if (count < 0 || (count > 0 && (!states || !inputs || !outTargets)))
		return lbReport(lb_errorNullPointer, "lbFootSenseMany: states, inputs and targets are required (count %d)", count);
	lbResult first = lb_ok;
	// Eight characters (sixteen casts) per group: enough overlapping misses to hide most of the
	// latency, few enough that the group's paths still sit in cache when its casts run.
	enum { group = 8 };
	const bool announce = def && def->internalValue == LB_SECRET_COOKIE && skeleton && humanoid;
	for (int g = 0; g < count; g += group)
	{
		int end = g + group < count ? g + group : count;
		if (announce)
		{
			// Consecutive characters on the same scene are announced together.
			lbQueryInput casts[2 * group];
			int n = 0;
			const lbSceneQuery* query = NULL;
			for (int i = g; i < end; ++i)
			{
				const lbSceneQuery* q = inputs[i].query;
				if (!q || !q->prefetch || (inputs[i].animPose && inputs[i].animPose->boneCount != skeleton->boneCount))
					continue;
				if (q != query)
				{
					lbPrefetchCasts(query, casts, n);
					n = 0;
					query = q;
				}
				n += lbFootAnnounce(&states[i], def, humanoid, &inputs[i], &casts[n]);
			}
			lbPrefetchCasts(query, casts, n);
		}
		for (int i = g; i < end; ++i)
		{
			lbResult r = lbFootSense(&states[i], def, skeleton, humanoid, &inputs[i], &outTargets[i]);
			if (first == lb_ok && r != lb_ok)
				first = r;
		}
	}
	return first;
}

// The ankle limit's passes for one leg already solved once from its input pose (the chain's
// input local rotations in keepLocal: thigh, calf, foot; the solve keeps local positions). A goal high on an uphill slope folds
// the knee and pitches the calf forward while the foot keeps its ground-aligned rotation, which
// bends the ankle beyond what a person's can. A runner lifts the heel instead: while the solved
// foot's local rotation lies more than `limit` from its rest local rotation, the goal (ankle and
// rotation) turns about the ball of the foot by the excess, so the ball stays where the goal put
// it and the heel rises, and the leg is solved again from its input pose (with the same weight).
// The new goal changes the calf, so a few passes.
static lbResult lbFootLiftHeel(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, int side,
							   lbTwoBoneIkInput* in, float limit, float cosHalf, const lbQuat keepLocal[3])
{
	const lbLimb limb = side == 0 ? lb_limbLegL : lb_limbLegR;
	const lbLegBones* b = &humanoid->leg[side];
	const int foot = b->foot, parent = skeleton->parents[foot], above = skeleton->parents[b->thigh];
	const lbQuat rest = skeleton->restLocal[foot].q;
	const lbFootSole sole = lbMakeFootSole(humanoid, side);
	const lbVec3 ballLocal = lbMulAdd(sole.sole, sole.along[2], sole.toeFlat);
	for (int pass = 0; pass < 3; ++pass)
	{
		const lbQuat local = lbQuatNormalize(pose->local[foot].q);
		if (pass > 0 && lbAbsF(lbQuatDot(rest, local)) >= cosHalf)
			break;
		// The local rotation turned back toward rest until it lies exactly `limit` from it.
		const lbQuat rel = lbQuatCanonical(lbQuatMul(lbQuatConj(rest), local));
		const lbVec3 axis = lbNormalize(LB_LITERAL(lbVec3){ rel.x, rel.y, rel.z });
		if (lbLengthSquared(axis) == 0.0f || parent < 0)
			break;
		const lbQuat want = lbQuatMul(pose->model[parent].q, lbQuatMul(rest, lbQuatFromAxisAngle(axis, limit)));
		// The model-space turn that takes the solved foot there, applied to the goal about its ball
		// (the sense stage's ball sample: the point under the ankle plus the foot length along the
		// toe axis flattened onto the sole).
		const lbQuat turn = lbQuatNormalize(lbQuatMul(want, lbQuatConj(lbQuatNormalize(pose->model[foot].q))));
		lbTransform goal = lbMakeTransform(in->targetMs, in->targetRotationMs);
		goal.s = pose->model[foot].s;
		const lbVec3 ball = lbTransformPoint(goal, ballLocal);
		in->targetMs = lbAdd(ball, lbQuatRotate(turn, lbSub(in->targetMs, ball)));
		in->targetRotationMs = lbQuatNormalize(lbQuatMul(turn, in->targetRotationMs));
		// Back to the input pose (the pelvis above is unchanged by the solve), then solve again.
		pose->local[b->thigh].q = keepLocal[0];
		pose->local[b->calf].q = keepLocal[1];
		pose->local[foot].q = keepLocal[2];
		pose->model[b->thigh] = above >= 0 ? lbTransformMul(pose->model[above], pose->local[b->thigh]) : pose->local[b->thigh];
		lbPose_UpdateSubtree(pose, skeleton, b->thigh);
		lbResult r = lbPose_SolveLimbIk(pose, skeleton, humanoid, limb, in, NULL);
		if (r != lb_ok)
			return r;
	}
	return lb_ok;
}

// One leg's two-bone solve, then the ankle limit (see lbFootLiftHeel). cosHalf is cos(limit / 2),
// or -1 with the limit off; |rest . local| >= cosHalf is the early-out of every foot within it.
static lbResult lbFootSolveLeg(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, int side,
							   lbTwoBoneIkInput* in, float limit, float cosHalf)
{
	const lbLimb limb = side == 0 ? lb_limbLegL : lb_limbLegR;
	if (cosHalf < 0.0f)
		return lbPose_SolveLimbIk(pose, skeleton, humanoid, limb, in, NULL);
	// The leg's bones are read above (the pelvis reach) with the same trust in the humanoid map.
	const lbLegBones* b = &humanoid->leg[side];
	const lbQuat keepLocal[3] = { pose->local[b->thigh].q, pose->local[b->calf].q, pose->local[b->foot].q };
	lbResult r = lbPose_SolveLimbIk(pose, skeleton, humanoid, limb, in, NULL);
	if (r != lb_ok || lbAbsF(lbQuatDot(skeleton->restLocal[b->foot].q, pose->local[b->foot].q)) >= cosHalf)
		return r;
	return lbFootLiftHeel(pose, skeleton, humanoid, side, in, limit, cosHalf, keepLocal);
}

lbResult lbFootApplyPose(const lbFootTargets* targets, const lbFootDef* def, const lbSkeleton* skeleton,
						 const lbHumanoid* humanoid, lbFootSolver solver, lbPose* pose, void* workspace,
						 size_t workspaceSize)
{
	if (!targets || !def || !skeleton || !humanoid || !pose || !pose->local || !pose->model)
		return lbReport(lb_errorNullPointer, "lbFootApplyPose: targets, def, skeleton, humanoid and pose are required");
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbFootApplyPose: def not initialised with lbDefaultFootDef()");
	if (pose->boneCount != skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbFootApplyPose: pose has %d bones, skeleton %d", pose->boneCount,
						skeleton->boneCount);
	const lbTransform cw = targets->characterWs;
	if (!lbIsValidTransform(cw) || !lbIsValidFloat(targets->alpha) || !lbIsValidFloat(targets->pelvisOffset))
		return lbReport(lb_errorNonFinite, "lbFootApplyPose: non-finite targets");
	for (int s = 0; s < 2; ++s)
	{
		const lbFootTarget* f = &targets->feet[s];
		if (!lbIsValidVec3(f->ankleWs) || !lbIsValidFloat(f->alpha) ||
			!lbIsValidFloat(f->footRotWs.x + f->footRotWs.y + f->footRotWs.z + f->footRotWs.w))
			return lbReport(lb_errorNonFinite, "lbFootApplyPose: non-finite %s foot target", s ? "right" : "left");
	}
	if (!lbIsValidFloat(def->ankleLimit))
		return lbReport(lb_errorNonFinite, "lbFootApplyPose: non-finite ankle limit");
	if (solver == lb_footSolverFullBody && (!workspace || workspaceSize < lbGetFullBodyIkWorkspaceSize(skeleton)))
		return lbReport(lb_errorCapacity, "lbFootApplyPose: the full-body solver needs %zu bytes of workspace",
						lbGetFullBodyIkWorkspaceSize(skeleton));
	const float alpha = lbClampF(targets->alpha, 0.0f, 1.0f);
	if (alpha <= 0.0f)
		return lb_ok;

	// Pelvis first: the legs then solve from where the hips really are.
	const lbVec3 upMs = lbNormalizeOr(lbInvTransformDirection(cw, targets->upWs), humanoid->upMs);
	const float worldToModel = 1.0f / lbMaxF(lbLength(lbTransformVector(cw, upMs)), 1.0e-6f);
	float drop = alpha * targets->pelvisOffset * worldToModel;
	// Reach: lower the pelvis further (within the sink limit) until every weighted leg target lies
	// inside the legs' reach before the soft-IK band, so feet touch instead of stopping short.
	const float soften = lbClampF(def->legSoften, 0.0f, 0.5f);
	float extra = 0.0f;
	// Each weighted leg's ankle target in model space, kept for its solve below. A unit-scaled
	// character frame skips lbInvTransformPoint's reciprocal scale (1 / 1 and x * 1 are exact).
	const bool unitScale = cw.s.x == 1.0f && cw.s.y == 1.0f && cw.s.z == 1.0f;
	lbVec3 targetMs[2] = { lbVec3_zero, lbVec3_zero };
	for (int s = 0; s < 2; ++s)
	{
		const lbFootTarget* f = &targets->feet[s];
		float w = alpha * lbClampF(f->alpha, 0.0f, 1.0f);
		if (w <= 0.0f)
			continue;
		const lbLegAxes* ax = &humanoid->legAxes[s];
		float reach = (ax->thighLength + ax->calfLength) * (1.0f - soften) * 0.999f;
		lbVec3 hip = lbMulAdd(pose->model[humanoid->leg[s].thigh].p, drop, upMs);
		targetMs[s] = unitScale ? lbQuatInvRotate(cw.q, lbSub(f->ankleWs, cw.p)) : lbInvTransformPoint(cw, f->ankleWs);
		lbVec3 v = lbSub(hip, targetMs[s]);
		// Smallest t >= 0 with |v - t up| <= reach: t = v.up - sqrt(reach^2 - |v x up|^2).
		float along = lbDot(v, upMs);
		float side2 = lbLengthSquared(v) - along * along;
		if (lbLengthSquared(v) > reach * reach && side2 < reach * reach)
			extra = lbMaxF(extra, w * (along - sqrtf(reach * reach - side2)));
	}
	drop -= lbMinF(extra, lbMaxF(def->pelvisMaxSink, 0.0f) * worldToModel);
	lbResult r = lbPose_TranslateBoneModel(pose, skeleton, humanoid->pelvis, lbMulSV(drop, upMs));
	if (r != lb_ok)
		return r;

	if (solver == lb_footSolverFullBody)
	{
		// Both feet as full-body effectors: the body (pelvis and spine) moves within the def's sink
		// and lift limits so both legs reach, and the legs are solved with their limits.
		lbFullBodyIkSettings settings = lbDefaultFullBodyIkSettings();
		settings.pelvisMaxSink = lbMaxF(def->pelvisMaxSink, 0.0f) * worldToModel;
		settings.pelvisMaxRise = lbMaxF(def->pelvisMaxLift, 0.0f) * worldToModel;
		settings.upMs = upMs;
		lbFullBodyIkEffector effectors[lb_effectorCount];
		for (int e = 0; e < lb_effectorCount; ++e)
			effectors[e] = lbDefaultFullBodyIkEffector();
		for (int s = 0; s < 2; ++s)
		{
			const lbFootTarget* f = &targets->feet[s];
			lbFullBodyIkEffector* e = &effectors[s == 0 ? lb_effectorFootL : lb_effectorFootR];
			e->targetMs = lbInvTransformPoint(cw, f->ankleWs);
			e->targetRotationMs = lbQuatNormalize(lbQuatMul(lbQuatConj(cw.q), f->footRotWs));
			e->positionAlpha = e->rotationAlpha = alpha * lbClampF(f->alpha, 0.0f, 1.0f);
		}
		return lbSolveFullBodyIk(pose, skeleton, humanoid, &settings, effectors, workspace, workspaceSize, NULL);
	}
	// Ankle limit off (0 or less) or never exceeded (half a turn or more): -1 skips it.
	const float cosHalfLimit = def->ankleLimit > 0.0f && def->ankleLimit < LB_PI ? cosf(0.5f * def->ankleLimit) : -1.0f;
	for (int s = 0; s < 2; ++s)
	{
		const lbFootTarget* f = &targets->feet[s];
		float w = alpha * lbClampF(f->alpha, 0.0f, 1.0f);
		if (w <= 0.0f)
			continue;
		lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
		in.targetMs = targetMs[s]; // the same weight skipped it above when zero
		in.targetRotationMs = lbQuatNormalize(lbQuatMul(lbQuatConj(cw.q), f->footRotWs));
		in.useTargetRotation = true;
		in.weight = w;
		in.soften = soften;
		r = lbFootSolveLeg(pose, skeleton, humanoid, s, &in, def->ankleLimit, cosHalfLimit);
		if (r != lb_ok)
			return r;
	}
	return lb_ok;
}
