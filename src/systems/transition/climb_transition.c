// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Hand-over between the foot system and the climbing system (see climb_transition.h): each call
// reads one side's state and seeds the other's; neither system knows about the other.
#include "limber/climb_transition.h"

#include "limber/motion.h"

#include <string.h>

lbResult lbClimbTransition_FindWall(const lbSceneQuery* query, uint32_t channelMask, uint32_t ignoreOwnerId,
									const lbHumanoid* humanoid, lbTransform characterWs, lbVec3 up, float chestHeight,
									float searchDistance, float mountDistance, lbClimbWallAhead* out)
{
	if (!query || !humanoid || !out)
		return lbReport(lb_errorNullPointer, "lbClimbTransition_FindWall: query, humanoid and out are required");
	if (!lbIsValidTransform(characterWs) || !lbIsValidVec3(up) || !lbIsValidFloat(chestHeight) ||
		!lbIsValidFloat(searchDistance) || !lbIsValidFloat(mountDistance))
		return lbReport(lb_errorNonFinite, "lbClimbTransition_FindWall: a non-finite argument");
	lbClimbWallAhead r;
	memset(&r, 0, sizeof r);
	const lbVec3 u = lbNormalizeOr(up, lbVec3_axisZ);
	const lbVec3 fwd = lbNormalizeOr(lbProjectOnPlane(lbQuatRotate(characterWs.q, humanoid->forwardMs), u), lbVec3_zero);
	if (lbLengthSquared(fwd) < 0.5f || !(searchDistance > 0.0f))
	{
		*out = r;
		return lb_ok;
	}
	lbQueryInput q = lbDefaultQueryInput();
	q.start = lbMulAdd(characterWs.p, chestHeight, u);
	q.end = lbMulAdd(q.start, searchDistance, fwd);
	q.channelMask = channelMask;
	q.ignoreOwnerId = ignoreOwnerId;
	lbHit hit = lbCallQuery(query, query->rayCast, &q);
	if (hit.hit && !hit.startedInside)
	{
		r.found = true;
		r.pointWs = hit.impactPoint;
		r.normalWs = lbNormalizeOr(lbLengthSquared(hit.faceNormal) > 0.5f ? hit.faceNormal : hit.normal, lbNeg(fwd));
		r.distance = lbLength(lbProjectOnPlane(lbSub(hit.impactPoint, characterWs.p), u));
		// A wall, not a floor or a ceiling, turned toward the character.
		const lbVec3 nh = lbProjectOnPlane(r.normalWs, u);
		r.ready = r.distance <= mountDistance && lbLength(nh) >= 0.5f && lbDot(nh, fwd) < -0.5f * lbLength(nh);
	}
	*out = r;
	return lb_ok;
}

lbResult lbClimbTransition_SeedClimb(lbClimbState* state, lbTransform characterWs, lbVec3 wallNormalWs)
{
	if (!state)
		return lbReport(lb_errorNullPointer, "lbClimbTransition_SeedClimb: state is NULL");
	if (!lbIsValidTransform(characterWs) || !lbIsValidVec3(wallNormalWs))
		return lbReport(lb_errorNonFinite, "lbClimbTransition_SeedClimb: transform or wall normal is not finite");
	lbClimbState_Reset(state);
	// Started as the sense stage starts itself, but facing the wall found rather than whatever the
	// character's forward says.
	state->frameWs = characterWs;
	state->wallNormalWs = lbNormalizeOr(wallNormalWs, lbVec3_zero);
	state->initialized = lbLengthSquared(state->wallNormalWs) > 0.5f;
	return lb_ok;
}

lbResult lbClimbTransition_StandingTransform(const lbClimbState* state, const lbHumanoid* humanoid,
											 const lbSceneQuery* query, uint32_t groundMask, lbVec3 up, float castAbove,
											 float castBelow, lbTransform* outWs)
{
	if (!state || !humanoid || !query || !outWs)
		return lbReport(lb_errorNullPointer, "lbClimbTransition_StandingTransform: an argument is NULL");
	for (int i = 0; i < 4; ++i)
		if (state->limbs[i].mode == lb_climbLocked || state->limbs[i].mode == lb_climbLocking)
			return lbReport(lb_errorInvalidArgument, "lbClimbTransition_StandingTransform: limb %d still holds", i);
	if (!lbIsValidTransform(state->frameWs) || !lbIsValidVec3(up) || !lbIsValidFloat(castAbove) ||
		!lbIsValidFloat(castBelow))
		return lbReport(lb_errorNonFinite, "lbClimbTransition_StandingTransform: a non-finite argument");
	const lbVec3 u = lbNormalizeOr(up, lbVec3_axisZ);
	lbVec3 heading = lbProjectOnPlane(lbNeg(state->wallNormalWs), u);
	if (lbLengthSquared(heading) < 1.0e-6f)
		heading = lbProjectOnPlane(lbQuatRotate(state->frameWs.q, humanoid->forwardMs), u);
	lbVec3 pos = state->frameWs.p;
	lbQueryInput q = lbDefaultQueryInput();
	q.start = lbMulAdd(pos, castAbove, u);
	q.end = lbMulAdd(pos, -castBelow, u);
	q.channelMask = groundMask;
	lbHit hit = lbCallQuery(query, query->rayCast, &q);
	if (hit.hit && !hit.startedInside)
		pos = hit.impactPoint;
	*outWs = lbCharacterTransform(humanoid, pos, heading, u);
	return lb_ok;
}

lbResult lbClimbTransition_SeedFoot(lbFootState* state, lbTransform standingWs)
{
	if (!state)
		return lbReport(lb_errorNullPointer, "lbClimbTransition_SeedFoot: state is NULL");
	if (!lbIsValidTransform(standingWs))
		return lbReport(lb_errorNonFinite, "lbClimbTransition_SeedFoot: transform is not finite");
	lbFootState_Reset(state);
	state->prevCharacterWs = standingWs;
	return lb_ok;
}

float lbClimbTransition_PoseDistance(const lbPose* a, const lbPose* b)
{
	if (!a || !b || !a->model || !b->model || a->boneCount != b->boneCount)
		return -1.0f;
	float worst = 0.0f;
	for (int i = 0; i < a->boneCount; ++i)
		worst = lbMaxF(worst, lbQuatAngleBetween(a->model[i].q, b->model[i].q));
	return worst;
}

// ---------------------------------------------------------------------------------------------
// Topping out on a ledge. The climbing system does the limbs (each placed on the top through its
// own select / steer / confirm / release, by the planner's driver); this piece only chooses the
// places, orders the moves and carries the climbing frame while the body rises over the lip,
// which the sense stage alone would not do (it hangs the body below hands held on a top).

// How far over the lip a limb's guide is steered up the wall before it wraps onto the top (m),
// beyond the search's capture radius.
#define LB_TOPOUT_OVER_LIP 0.04f

lbClimbTopOutDef lbDefaultClimbTopOutDef(void)
{
	lbClimbTopOutDef d;
	memset(&d, 0, sizeof d);
	d.up = lbVec3_axisZ;
	d.channelMask = LB_CHANNEL_CLIMBABLE;
	d.handInset = 0.2f;
	d.handSpread = 0.3f;
	d.footInset = 0.3f;
	d.footSpread = 0.12f;
	d.gripBelow = 0.03f;
	d.highStepBelow = 0.3f;
	d.crouchBelow = 0.45f;
	d.standInset = 0.15f;
	d.standAbove = 0.6f;
	d.mantleAbove = 0.35f;
	d.mantleLean = 1.0f;
	d.riseTime = 1.2f;
	d.mantleTime = 1.4f;
	d.standTime = 1.4f;
	d.searchHeight = 0.6f;
	d.feetMoveSpeed = 1.4f;
	d.stepUpAbove = 0.55f;
	d.stepUpLean = 0.3f;
	d.stepUpTime = 0.4f;
	d.driver = lbDefaultClimbDriverDef();
	d.feetDriver = d.driver;
	d.feetDriver.settleTime = 0.1f;
	d.feetDriver.pause = 0.0f;
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

static bool lbTopOutDefValid(const lbClimbTopOutDef* d)
{
	return lbIsValidVec3(d->up) && lbIsValidFloat(d->handInset) && lbIsValidFloat(d->handSpread) &&
		   lbIsValidFloat(d->footInset) && lbIsValidFloat(d->footSpread) && lbIsValidFloat(d->crouchBelow) && lbIsValidFloat(d->gripBelow) && lbIsValidFloat(d->highStepBelow) && d->highStepBelow > 0.0f && lbIsValidFloat(d->standAbove) &&
		   lbIsValidFloat(d->standInset) && lbIsValidFloat(d->riseTime) && lbIsValidFloat(d->standTime) &&
		   lbIsValidFloat(d->mantleAbove) && lbIsValidFloat(d->mantleLean) && lbIsValidFloat(d->mantleTime) &&
		   lbIsValidFloat(d->searchHeight) && lbIsValidFloat(d->feetMoveSpeed) && d->feetMoveSpeed > 0.0f &&
		   lbIsValidFloat(d->stepUpAbove) && lbIsValidFloat(d->stepUpLean) && lbIsValidFloat(d->stepUpTime) &&
		   d->stepUpTime >= 0.0f && d->stepUpLean >= 0.0f && d->stepUpLean <= d->mantleLean && d->riseTime >= 0.0f && d->standTime >= 0.0f && d->mantleTime >= 0.0f &&
		   d->mantleLean >= 0.0f && d->mantleLean <= 1.2f && d->searchHeight > 0.0f && lbLengthSquared(d->up) > 0.5f;
}

// The top's surface under a point: a ray down along -up from `above` m over it to `below` m under.
static bool lbTopOutCastDown(const lbSceneQuery* query, uint32_t mask, lbVec3 p, lbVec3 u, float above, float below,
							 lbHit* hit)
{
	lbQueryInput q = lbDefaultQueryInput();
	q.start = lbMulAdd(p, above, u);
	q.end = lbMulAdd(p, -below, u);
	q.channelMask = mask;
	*hit = lbCallQuery(query, query->rayCast, &q);
	return hit->hit && !hit->startedInside;
}

lbResult lbClimbTopOut_Begin(lbClimbTopOut* topOut, const lbClimbTopOutDef* def, const lbClimbState* state,
							 const lbSceneQuery* query)
{
	static const char fn[] = "lbClimbTopOut_Begin";
	if (!topOut || !def || !state || !query)
		return lbReport(lb_errorNullPointer, "%s: topOut, def, state and query are required", fn);
	if (def->internalValue != LB_SECRET_COOKIE || def->driver.internalValue != LB_SECRET_COOKIE ||
		def->feetDriver.internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: def not initialised with lbDefaultClimbTopOutDef()", fn);
	if (!lbTopOutDefValid(def) || !lbIsValidTransform(state->frameWs) || !lbIsValidVec3(state->wallNormalWs))
		return lbReport(lb_errorNonFinite, "%s: a non-finite or out-of-range def value, or a non-finite state", fn);
	for (int i = 0; i < 2; ++i)
		if (state->limbs[i].mode != lb_climbLocked && state->limbs[i].mode != lb_climbLocking)
			return lbReport(lb_errorInvalidArgument, "%s: hand %d does not hold (a top-out starts from both hands held)", fn, i);
	const lbVec3 u = lbNormalizeOr(def->up, lbVec3_axisZ);
	const lbVec3 nh = lbNormalizeOr(lbProjectOnPlane(state->wallNormalWs, u), lbVec3_zero);
	if (lbLengthSquared(nh) < 0.5f)
		return lbReport(lb_errorUnsupported, "%s: the climbing frame faces no wall (its normal is along up)", fn);
	const lbVec3 hands = lbLerp(state->limbs[0].surfaceWs, state->limbs[1].surfaceWs, 0.5f);
	// The top: straight down behind the face above the hands.
	lbHit hit;
	const lbVec3 probe = lbMulAdd(hands, -lbMaxF(def->handInset, 0.05f), nh);
	if (!lbTopOutCastDown(query, def->channelMask, probe, u, def->searchHeight, 0.25f, &hit) ||
		lbDot(lbNormalizeOr(hit.normal, lbVec3_zero), u) < 0.75f)
		return lbReport(lb_errorUnsupported, "%s: no ledge top within %g m above the hands", fn, (double)def->searchHeight);
	const lbVec3 top = hit.impactPoint;
	const float topH = lbDot(top, u);
	// The lip: the wall's face just below the top, in front of the hands.
	lbVec3 lip = lbAdd(lbProjectOnPlane(hands, u), lbMulSV(topH, u));
	lbQueryInput q = lbDefaultQueryInput();
	const lbVec3 below = lbMulAdd(lip, -0.04f, u);
	q.start = lbMulAdd(below, 0.6f, nh);
	q.end = lbMulAdd(below, -0.6f, nh);
	q.channelMask = def->channelMask;
	lbHit face = lbCallQuery(query, query->rayCast, &q);
	if (face.hit && !face.startedInside)
		lip = lbMulAdd(face.impactPoint, 0.04f, u);
	lbClimbTopOut t;
	memset(&t, 0, sizeof t);
	t.phase = lb_topOutHands;
	t.lipWs = lip;
	t.wallNormalWs = nh;
	t.topNormalWs = lbNormalizeOr(hit.normal, u);
	// Left of a body facing the wall (into -nh).
	const lbVec3 left = lbNormalizeOr(lbCross(u, lbNeg(nh)), lbVec3_zero);
	// The grips: on the wall just below the lip's edge (the wall's own surface there).
	for (int i = 0; i < 2; ++i)
	{
		const lbVec3 p = lbMulAdd(lbMulAdd(lip, -def->gripBelow, u), i == 0 ? def->handSpread : -def->handSpread, left);
		q.start = lbMulAdd(p, 0.6f, nh);
		q.end = lbMulAdd(p, -0.6f, nh);
		lbHit g = lbCallQuery(query, query->rayCast, &q);
		if (!g.hit || g.startedInside)
			return lbReport(lb_errorUnsupported, "%s: the wall gives hand %d no grip under the lip", fn, i);
		t.holds[i].pointWs = g.impactPoint;
		t.holds[i].normalWs = lbNormalizeOr(lbLengthSquared(g.faceNormal) > 0.5f ? g.faceNormal : g.normal, nh);
		t.holds[i].firstSampleWs = g.impactPoint;
	}
	// The places on the top: hands L, R, feet L, R.
	const float inset[4] = { def->handInset, def->handInset, def->footInset, def->footInset };
	const float side[4] = { def->handSpread, -def->handSpread, def->footSpread, -def->footSpread };
	for (int i = 0; i < 4; ++i)
	{
		lbVec3 p = lbMulAdd(lbMulAdd(lip, -inset[i], nh), side[i], left);
		if (!lbTopOutCastDown(query, def->channelMask, p, u, 0.3f, 0.3f, &hit) || lbDot(hit.normal, u) < 0.75f)
			return lbReport(lb_errorUnsupported, "%s: the top gives no place for limb %d (%g m in, %g m aside)", fn, i,
							(double)inset[i], (double)side[i]);
		t.holds[2 + i].pointWs = hit.impactPoint;
		t.holds[2 + i].normalWs = lbNormalizeOr(hit.normal, u);
		t.holds[2 + i].firstSampleWs = hit.impactPoint;
	}
	// The first foot's high step: on the wall under the lip, on its side.
	{
		const lbVec3 p = lbMulAdd(lbMulAdd(lip, -def->highStepBelow, u), def->footSpread, left);
		q.start = lbMulAdd(p, 0.6f, nh);
		q.end = lbMulAdd(p, -0.6f, nh);
		lbHit g = lbCallQuery(query, query->rayCast, &q);
		if (!g.hit || g.startedInside)
			return lbReport(lb_errorUnsupported, "%s: the wall gives the first foot no step %g m under the lip", fn,
							(double)def->highStepBelow);
		t.holds[6].pointWs = g.impactPoint;
		t.holds[6].normalWs = lbNormalizeOr(lbLengthSquared(g.faceNormal) > 0.5f ? g.faceNormal : g.normal, nh);
		t.holds[6].firstSampleWs = g.impactPoint;
	}
	// The hands to the lip, the hands onto the top, the first foot to its high step, the second
	// foot onto the top, the first foot onto the top.
	static const int limbs[7] = { lb_limbArmL, lb_limbArmR, lb_limbArmL, lb_limbArmR, lb_limbLegL, lb_limbLegR, lb_limbLegL };
	static const int moveHold[7] = { 0, 1, 2, 3, 6, 5, 4 };
	for (int k = 0; k < 7; ++k)
	{
		t.moves[k].limb = limbs[k];
		t.moves[k].hold = moveHold[k];
		t.moves[k].pelvisWs = lbTransformPoint(state->frameWs, lbVec3_zero);
	}
	lbClimbDriver_Reset(&t.driver);
	*topOut = t;
	return lb_ok;
}

static void lbTopOutEnter(lbClimbTopOut* t, lbClimbTopOutPhase phase)
{
	t->phase = phase;
	t->timer = 0.0f;
	t->released = 0;
	t->carrying = 0;
	lbClimbDriver_Reset(&t->driver);
}

// Lets go of `first`..`first + 1` one at a time, each once the last is back in the animation;
// true once both are.
static bool lbTopOutReleasePair(lbClimbTopOut* t, lbClimbState* state, int first)
{
	if (t->released < 2)
	{
		if (t->released == 0 || state->limbs[first + t->released - 1].ikAlpha <= 0.0f)
			lbClimb_Release(state, first + t->released++);
		return false;
	}
	return state->limbs[first].ikAlpha <= 0.0f && state->limbs[first + 1].ikAlpha <= 0.0f;
}

// Drives the pair of limbs `first`, `first + 1` onto their places on the top. The driver steers
// in the plane of the surface a limb is on: while that is still the wall, it aims just over the
// lip (where the sense stage's search wraps over the edge onto the top), then at the place.
static bool lbTopOutDrive(lbClimbTopOut* t, const lbClimbTopOutDef* def, lbClimbState* state, const lbClimbDef* climbDef,
						  int first, int count, float dt)
{
	lbClimbHold holds[7];
	memcpy(holds, t->holds, sizeof holds);
	const int m = first + (t->driver.move < count ? t->driver.move : count - 1);
	const lbClimbLimbState* l = &state->limbs[t->moves[m].limb];
	const lbVec3 u = lbNormalizeOr(def->up, lbVec3_axisZ);
	if (lbDot(t->holds[t->moves[m].hold].normalWs, u) >= 0.75f && l->mode != lb_climbFree && l->hasSurface &&
		lbDot(l->normalWs, u) < 0.75f)
	{
		lbClimbHold* h = &holds[t->moves[m].hold];
		const float out = lbDot(lbSub(l->surfaceWs, h->pointWs), l->normalWs);
		// Clear of the search's capture sphere, which would otherwise still find the lip's edge.
		h->pointWs = lbMulAdd(lbMulAdd(h->pointWs, out, l->normalWs), LB_TOPOUT_OVER_LIP + lbMaxF(climbDef->captureRadius, 0.0f), u);
	}
	return lbClimbDrive(&t->driver, first >= 4 ? &def->feetDriver : &def->driver, state, climbDef, holds, 7,
						t->moves + first, count, dt);
}

lbResult lbClimbTopOut_FrameDef(const lbClimbTopOut* t, const lbClimbTopOutDef* def, const lbClimbDef* climbDef,
								 lbClimbDef* outDef)
{
	if (!t || !def || !climbDef || !outDef)
	{
		if (climbDef && outDef)
			*outDef = *climbDef;
		return lbReport(lb_errorNullPointer, "lbClimbTopOut_FrameDef: topOut, def, climbDef and outDef are required");
	}
	*outDef = *climbDef;
	if (!lbIsValidFloat(def->feetMoveSpeed) || !(def->feetMoveSpeed > 0.0f))
		return lbReport(lb_errorNonFinite, "lbClimbTopOut_FrameDef: feetMoveSpeed %g must be a finite speed > 0 m/s",
						(double)def->feetMoveSpeed);
	// A foot on its way up is in the pose that folds its thigh against the leaning torso (the hips
	// are only about 0.2 m over the lip): the sooner it is on the top, the shorter that lasts.
	if (t->phase == lb_topOutFeet || t->phase == lb_topOutSecondFoot || t->phase == lb_topOutFirstFootUp)
		outDef->moveSpeed[1] = def->feetMoveSpeed;
	return lb_ok;
}

lbClimbTopOutPhase lbClimbTopOut_Step(lbClimbTopOut* t, const lbClimbTopOutDef* def, lbClimbState* state,
									  const lbClimbDef* climbDefIn, float dt)
{
	if (!t || !def || !state || !climbDefIn)
	{
		lbReport(lb_errorNullPointer, "lbClimbTopOut_Step: topOut, def, state and climbDef are required");
		return t ? t->phase : lb_topOutFailed;
	}
	if (!(dt > 0.0f) || !lbIsValidFloat(dt) || t->phase >= lb_topOutDone)
		return t->phase;
	lbClimbDef frameDef;
	if (lbClimbTopOut_FrameDef(t, def, climbDefIn, &frameDef) != lb_ok)
		return t->phase;
	const lbClimbDef* climbDef = &frameDef;
	t->timer += dt;
	switch (t->phase)
	{
	case lb_topOutHands:
		if (!lbTopOutDrive(t, def, state, climbDef, 0, 2, dt))
			lbTopOutEnter(t, t->driver.stuck ? lb_topOutFailed : lb_topOutFeetOff);
		break;
	case lb_topOutFeetOff:
		if (lbTopOutReleasePair(t, state, lb_limbLegL))
			lbTopOutEnter(t, lb_topOutRise);
		break;
	case lb_topOutRise:
		if (t->timer >= def->riseTime)
			lbTopOutEnter(t, lb_topOutPress);
		break;
	case lb_topOutPress:
		if (!lbTopOutDrive(t, def, state, climbDef, 2, 2, dt))
			lbTopOutEnter(t, t->driver.stuck ? lb_topOutFailed : lb_topOutMantle);
		break;
	case lb_topOutMantle:
		if (t->timer >= def->mantleTime)
			lbTopOutEnter(t, lb_topOutFeet);
		break;
	case lb_topOutFeet:
		if (!lbTopOutDrive(t, def, state, climbDef, 4, 1, dt))
			lbTopOutEnter(t, t->driver.stuck ? lb_topOutFailed : lb_topOutStepUp);
		else if (state->limbs[t->moves[4].limb].mode == lb_climbLocking)
			// Confirmed: the step up starts while the lock completes on its own (the thigh is folded
			// past its range until the body has stepped up; waiting for the lock kept it so 16
			// frames longer).
			lbTopOutEnter(t, lb_topOutStepUp);
		break;
	case lb_topOutStepUp:
		// On the first foot, the body needs the hands no more: both let go together as the body
		// steps up on it. Each arm turns back to the animation on its own (no bone of one is moved
		// by the other; the pose stage's turn limit keeps the arm's turn and the body's within a
		// pop).
		for (; t->released < 2; ++t->released)
			if (state->limbs[lb_limbArmL + t->released].mode != lb_climbFree)
				lbClimb_Release(state, lb_limbArmL + t->released);
		if (t->timer >= def->stepUpTime)
			lbTopOutEnter(t, lb_topOutSecondFoot);
		break;
	case lb_topOutSecondFoot:
		if (!lbTopOutDrive(t, def, state, climbDef, 5, 1, dt))
			lbTopOutEnter(t, t->driver.stuck ? lb_topOutFailed : lb_topOutFirstFootUp);
		break;
	case lb_topOutFirstFootUp:
		// Standing on the second foot, the first leaves its high step for the top.
		if (!lbTopOutDrive(t, def, state, climbDef, 6, 1, dt))
			lbTopOutEnter(t, t->driver.stuck ? lb_topOutFailed : lb_topOutStand);
		break;
	case lb_topOutStand:
		// The hands let go on the step up; the body stands once they are back in the animation.
		if (state->limbs[lb_limbArmL].ikAlpha <= 0.0f && state->limbs[lb_limbArmR].ikAlpha <= 0.0f &&
			t->timer >= def->standTime)
			lbTopOutEnter(t, lb_topOutRelease);
		break;
	case lb_topOutRelease:
		if (lbTopOutReleasePair(t, state, lb_limbLegL))
			lbTopOutEnter(t, lb_topOutDone);
		break;
	default:
		break;
	}
	if (t->phase == lb_topOutFailed)
		lbReport(lb_errorUnsupported, "lbClimbTopOut_Step: a limb could not reach its place on the top");
	return t->phase;
}

// The press-up's top: the pelvis's height above the lip (at most the def's) at which both held
// hands stay within reach of their shoulders, the frame turned to `q` and the pelvis `out` m in
// front of the lip; a bisection between the start's height and the def's, both hands' reach
// shortened a little (a straight arm still bends the pose stage's way).
static float lbTopOutMantleHeight(const lbClimbTopOut* t, const lbClimbTopOutDef* def, const lbHumanoid* h,
								  const lbPose* animPose, const lbClimbState* state, lbQuat q, float from, float out)
{
	const lbVec3 u = lbNormalizeOr(def->up, lbVec3_axisZ);
	const lbVec3 pelvisMs = animPose->model[h->pelvis].p;
	float lo = from, hi = lbMaxF(def->mantleAbove, from);
	for (int it = 0; it < 24; ++it)
	{
		const float mid = it == 0 ? hi : 0.5f * (lo + hi);
		const lbVec3 pelvis = lbMulAdd(lbMulAdd(t->lipWs, mid, u), out, t->wallNormalWs);
		bool reach = true;
		for (int i = 0; i < 2; ++i)
		{
			const lbClimbLimbState* l = &state->limbs[i];
			const int sh = h->arm[i].upperArm;
			if (sh < 0 || (l->mode != lb_climbLocked && l->mode != lb_climbLocking))
				continue;
			const lbVec3 shoulder = lbAdd(pelvis, lbQuatRotate(q, lbSub(animPose->model[sh].p, pelvisMs)));
			const float arm = 0.97f * (h->armAxes[i].upperLength + h->armAxes[i].foreLength);
			reach = reach && lbDistance(shoulder, l->targetWs) <= arm;
		}
		if (it == 0 && reach)
			return hi;
		if (reach)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

// Where the body stands on the top (the frame's origin, on the top's height): over its feet, so
// that the animation's toe tips lie on the held ones and letting the feet go back to the animation
// moves them nowhere (a foot blended across the top from a hold to the animation dips into it);
// `standInset` in from the lip with no foot held.
static lbVec3 lbTopOutStandOrigin(const lbClimbTopOut* t, const lbClimbTopOutDef* def, const lbHumanoid* h,
								  const lbPose* animPose, const lbClimbState* state)
{
	const lbVec3 u = lbNormalizeOr(def->up, lbVec3_axisZ);
	lbVec3 sum = lbVec3_zero;
	int n = 0;
	for (int s = 0; s < 2; ++s)
	{
		const lbClimbLimbState* l = &state->limbs[2 + s];
		const int ball = h->leg[s].ball, foot = h->leg[s].foot;
		if ((l->mode != lb_climbLocked && l->mode != lb_climbLocking) || foot < 0 || foot >= animPose->boneCount ||
			ball >= animPose->boneCount)
			continue;
		const lbVec3 toeMs = ball >= 0 ? lbTransformPoint(animPose->model[ball], h->legAxes[s].toeTipBall) : animPose->model[foot].p;
		sum = lbAdd(sum, lbSub(l->targetWs, lbQuatRotate(t->uprightQ, toeMs)));
		++n;
	}
	const lbVec3 at = n > 0 ? lbMulSV(1.0f / (float)n, sum) : lbMulAdd(t->lipWs, -def->standInset, t->wallNormalWs);
	// On the top's height, whatever the feet's lock offset.
	return lbAdd(lbProjectOnPlane(at, u), lbMulSV(lbDot(t->lipWs, u), u));
}

lbResult lbClimbTopOut_Carry(lbClimbTopOut* t, const lbClimbTopOutDef* def, const lbHumanoid* humanoid,
							 const lbPose* animPose, float dt, lbClimbState* state, lbClimbTargets* targets)
{
	if (!t || !def || !humanoid || !animPose || !animPose->model || !state || !targets)
		return lbReport(lb_errorNullPointer, "lbClimbTopOut_Carry: an argument is NULL");
	if (!lbIsValidFloat(dt) || !lbIsValidTransform(state->frameWs) || !lbTopOutDefValid(def) ||
		humanoid->pelvis < 0 || humanoid->pelvis >= animPose->boneCount ||
		!lbIsValidVec3(animPose->model[humanoid->pelvis].p))
		return lbReport(lb_errorNonFinite, "lbClimbTopOut_Carry: a non-finite argument or state");
	(void)dt;
	const bool rise = t->phase == lb_topOutRise || t->phase == lb_topOutPress;
	const bool mantle = t->phase == lb_topOutMantle || t->phase == lb_topOutFeet || t->phase == lb_topOutStepUp ||
						t->phase == lb_topOutSecondFoot || t->phase == lb_topOutFirstFootUp;
	const bool stand = t->phase == lb_topOutStand || t->phase == lb_topOutRelease;
	if (!rise && !mantle && !stand)
		return lb_ok;
	const lbVec3 u = lbNormalizeOr(def->up, lbVec3_axisZ);
	if (!t->carrying)
	{
		// From where the last carry left the body (the sense stage turns the frame back upright a
		// little each frame), or from the frame as the sense stage placed it.
		lbVec3 from;
		lbQuat q;
		if (t->carryLegs > 0)
		{
			from = t->carryWs[t->carryLegs];
			q = t->carryQ[1];
		}
		else
		{
			t->pivotMs = animPose->model[humanoid->pelvis].p;
			t->uprightQ = state->frameWs.q;
			q = state->frameWs.q;
			from = lbTransformPoint(state->frameWs, t->pivotMs);
		}
		t->carrying = 1;
		const float pelvisBelowLip = lbDot(lbSub(t->lipWs, from), u);
		t->carryWs[0] = from;
		t->carryQ[0] = q;
		t->carryQ[1] = q;
		t->carryLegs = 1;
		if (rise)
			// Straight up, until the hips are crouchBelow under the lip.
			t->carryWs[1] = lbMulAdd(from, lbMaxF(pelvisBelowLip - def->crouchBelow, 0.0f), u);
		else if (t->phase == lb_topOutMantle)
		{
			// The press-up: the hips up over the lip, as far out as they hang, the body leaning in
			// over the hands (turned about the left axis, the top of the body toward the wall).
			const lbVec3 left = lbNormalizeOr(lbCross(u, lbNeg(t->wallNormalWs)), lbVec3_zero);
			const lbQuat lean = lbQuatFromAxisAngle(left, def->mantleLean);
			t->carryQ[1] = lbQuatNormalize(lbQuatMul(lean, q));
			const float out = lbMaxF(lbDot(lbSub(from, t->lipWs), t->wallNormalWs), 0.0f);
			const float above = lbTopOutMantleHeight(t, def, humanoid, animPose, state, t->carryQ[1], -pelvisBelowLip, out);
			t->carryWs[1] = lbMulAdd(from, lbMaxF(above + pelvisBelowLip, 0.0f), u);
		}
		else if (t->phase == lb_topOutStepUp)
		{
			// Up on the first foot: the hips straight up to stepUpAbove over the lip (never lower),
			// the lean eased to stepUpLean, turned about the pelvis, over the first 70 % of the rise
			// in half the time (the body rights itself as it heaves up: righting over the whole rise
			// kept the first thigh folded past its range 9 frames longer).
			const lbVec3 left = lbNormalizeOr(lbCross(u, lbNeg(t->wallNormalWs)), lbVec3_zero);
			t->carryQ[1] = lbQuatNormalize(lbQuatMul(lbQuatFromAxisAngle(left, def->stepUpLean), t->uprightQ));
			t->carryWs[2] = lbMulAdd(from, lbMaxF(def->stepUpAbove + pelvisBelowLip, 0.0f), u);
			t->carryWs[1] = lbLerp(from, t->carryWs[2], 0.7f);
			t->carryLegs = 2;
		}
		else if (stand)
		{
			// Standing on the top over the feet (the frame's origin is the ground under the body),
			// upright again, by way of a crouch over the feet: the hips up to standAbove over the lip
			// (never lower than they are) as they come in over the feet, then straight up. Over the
			// lip already, they come no closer to the feet than the legs fold; straight up first,
			// the body would stand beside the top with its feet out in front of it.
			t->carryWs[2] = lbTransformPoint(lbMakeTransform(lbTopOutStandOrigin(t, def, humanoid, animPose, state), t->uprightQ),
											 t->pivotMs);
			t->carryWs[1] = lbAdd(lbProjectOnPlane(t->carryWs[2], u),
								  lbMulSV(lbMaxF(lbDot(from, u), lbDot(t->lipWs, u) + def->standAbove), u));
			t->carryQ[1] = t->uprightQ;
			t->carryLegs = 2;
		}
		else
			t->carryWs[1] = from;
	}
	const float span = t->phase == lb_topOutRise	 ? def->riseTime
					   : t->phase == lb_topOutMantle ? def->mantleTime
					   : t->phase == lb_topOutStepUp ? def->stepUpTime
					   : t->phase == lb_topOutStand	 ? def->standTime
													 : 0.0f;
	const float g = span > 0.0f ? lbClampF(t->timer / span, 0.0f, 1.0f) : 1.0f;
	const float f = g * (float)t->carryLegs;
	const int leg = f >= (float)t->carryLegs ? t->carryLegs - 1 : (int)f;
	const lbVec3 pelvis = lbLerp(t->carryWs[leg], t->carryWs[leg + 1], lbSmoothStep(f - (float)leg));
	// Standing up, the body rights itself over the first leg (the hips rising off the lip).
	const float turn = lbSmoothStep(lbClampF(f, 0.0f, 1.0f));
	state->frameWs.q = lbQuatNormalize(lbQuatSlerp(t->carryQ[0], t->carryQ[1], turn));
	state->frameWs.p = lbSub(pelvis, lbQuatRotate(state->frameWs.q, t->pivotMs));
	targets->characterWs = state->frameWs;
	// The carry places the body: the full-body solve is not to pull it toward the limbs as well
	// (toward feet on the top, that is into the wall). Each limb still reaches its own target.
	for (int i = 0; i < 4; ++i)
		targets->limbs[i].bodyAlpha = 0.0f;
	// Once the hands have let go of the top, their places there still tell the pose stage where the
	// wall ends (a surface given to a limb let go is known, not held): a knee rising over the lip
	// needs no clearance from the wall below it. (Kept off the wall as an endless plane, the second
	// foot coming up with the hips high over the lip turned its knee out behind, the thigh twisted
	// half a turn.)
	if (t->phase >= lb_topOutStepUp)
		for (int i = 0; i < 2; ++i)
		{
			lbClimbLimbTarget* l = &targets->limbs[i];
			if (l->mode == lb_climbFree && !l->hasSurface)
			{
				l->hasSurface = true;
				l->surfaceWs = t->holds[2 + i].pointWs;
				l->normalWs = t->topNormalWs;
			}
		}
	return lb_ok;
}

lbResult lbClimbTopOut_HangLegs(const lbClimbTopOut* t, const lbClimbState* state, const lbSkeleton* skeleton,
								const lbHumanoid* humanoid, lbPose* pose)
{
	if (!t || !state || !skeleton || !humanoid || !pose || !pose->model || !pose->local)
		return lbReport(lb_errorNullPointer, "lbClimbTopOut_HangLegs: an argument is NULL");
	if (t->carryLegs <= 0 || t->phase >= lb_topOutDone)
		return lb_ok;
	if (!lbIsValidTransform(state->frameWs) || !lbIsValidQuat(t->uprightQ))
		return lbReport(lb_errorNonFinite, "lbClimbTopOut_HangLegs: a non-finite frame or top-out state");
	// Model space: the bone's world rotation is frame * model; under the upright frame it was
	// upright * model, so the model rotation that keeps it is conj(frame) * upright * model.
	const lbQuat back = lbQuatNormalize(lbQuatMul(lbQuatConj(state->frameWs.q), t->uprightQ));
	if (lbQuatAngleBetween(back, lbQuat_identity) < 1.0e-4f)
		return lb_ok;
	for (int s = 0; s < 2; ++s)
	{
		const int thigh = humanoid->leg[s].thigh;
		if (thigh < 0 || thigh >= pose->boneCount)
			return lbReport(lb_errorBoneNotFound, "lbClimbTopOut_HangLegs: the humanoid has no thigh %d in the pose", s);
	}
	for (int s = 0; s < 2; ++s)
	{
		const int thigh = humanoid->leg[s].thigh;
		const lbResult r = lbPose_SetBoneModelRotation(pose, skeleton, thigh,
													   lbQuatNormalize(lbQuatMul(back, pose->model[thigh].q)), true);
		if (r != lb_ok)
			return r;
	}
	return lb_ok;
}

// ---------------------------------------------------------------------------------------------
// Dropping off: after the last hold is let go, the character falls from the climbing frame's
// height to the ground below instead of appearing on it.

lbResult lbClimbDrop_Begin(lbClimbDrop* drop, const lbClimbState* state, lbTransform standingWs, lbVec3 up)
{
	if (!drop || !state)
		return lbReport(lb_errorNullPointer, "lbClimbDrop_Begin: drop and state are required");
	for (int i = 0; i < 4; ++i)
		if (state->limbs[i].mode == lb_climbLocked || state->limbs[i].mode == lb_climbLocking)
			return lbReport(lb_errorInvalidArgument, "lbClimbDrop_Begin: limb %d still holds", i);
	if (!lbIsValidTransform(standingWs) || !lbIsValidTransform(state->frameWs) || !lbIsValidVec3(up) ||
		lbLengthSquared(up) < 0.5f)
		return lbReport(lb_errorNonFinite, "lbClimbDrop_Begin: a non-finite or zero argument");
	lbClimbDrop d;
	memset(&d, 0, sizeof d);
	d.up = lbNormalize(up);
	d.groundWs = standingWs;
	d.startQ = state->frameWs.q;
	if (lbQuatDot(d.startQ, standingWs.q) < 0.0f)
		d.startQ = lbQuatNeg(d.startQ);
	// Over the landing place, at the frame's height (never below the ground).
	d.height = lbMaxF(lbDot(lbSub(state->frameWs.p, standingWs.p), d.up), 0.0f);
	d.characterWs = lbMakeTransform(lbMulAdd(standingWs.p, d.height, d.up), d.startQ);
	d.landed = d.height <= 0.0f;
	if (d.landed)
		d.characterWs = standingWs;
	*drop = d;
	return lb_ok;
}

bool lbClimbDrop_Step(lbClimbDrop* drop, float gravity, float dt)
{
	if (!drop || !(dt > 0.0f) || !lbIsValidFloat(dt) || !(gravity > 0.0f) || !lbIsValidFloat(gravity) || drop->landed)
		return false;
	drop->speed += gravity * dt;
	const float above = lbDot(lbSub(drop->characterWs.p, drop->groundWs.p), drop->up) - drop->speed * dt;
	if (above <= 0.0f)
	{
		drop->characterWs = drop->groundWs;
		drop->speed = 0.0f;
		drop->landed = true;
		return true;
	}
	const float fallen = drop->height > 0.0f ? 1.0f - above / drop->height : 1.0f;
	drop->characterWs.p = lbMulAdd(drop->groundWs.p, above, drop->up);
	drop->characterWs.q = lbQuatNormalize(lbQuatSlerp(drop->startQ, drop->groundWs.q, lbClampF(fallen, 0.0f, 1.0f)));
	return false;
}
