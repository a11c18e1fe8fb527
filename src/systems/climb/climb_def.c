// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Defaults and the calls a game drives the climbing system with (select, steer, confirm,
// release). The seed's centimetre values are converted to meters.
#include "limber/climb.h"

#include <math.h>
#include <string.h>

lbClimbDef lbDefaultClimbDef(void)
{
	lbClimbDef d;
	memset(&d, 0, sizeof d);
	d.up = lbVec3_axisZ;
	d.channelMask = LB_CHANNEL_CLIMBABLE;
	d.bodyChannelMask = LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL;
	d.ignoreOwnerId = LB_NO_OWNER;
	d.moveSpeed[0] = 0.6f;
	d.moveSpeed[1] = 0.5f;
	d.followSpeed = 1.2f;
	d.rotationSpeed = 6.0f;
	d.maxReach[0] = 0.9f;
	d.maxReach[1] = 1.1f;
	d.reachMargin = 0.005f;
	d.minReach[0] = 0.25f;
	d.minReach[1] = 0.4f;
	d.traceOut = 0.25f;
	d.traceIn = 2.0f;
	d.wrapIn = 0.12f;
	d.captureRadius = 0.06f;
	d.searchOffset[0] = 0.06f;
	d.searchOffset[1] = 0.08f;
	d.lockOffset[0] = 0.035f;
	d.lockOffset[1] = 0.02f;
	d.lockTime = 0.25f;
	for (int i = 0; i < 4; ++i)
		d.searchRotationOffset[i] = lbQuat_identity;
	d.alphaTime = 0.4f;
	d.bodyReachStart = 0.55f;
	d.bodyReachFull = 0.95f;
	d.bodyAlphaLocked = 1.0f;
	d.probeRadius[0] = 0.14f;
	d.probeRadius[1] = 0.16f;
	d.probeOut = 0.6f;
	d.probeIn = 0.4f;
	d.clearanceSpeed = 6.0f;
	d.bodyWallDistance = 0.3f;
	d.frameSpeed = 3.0f;
	d.wallLean = 0.8f;
	d.comfortReach[0] = 0.75f;
	d.comfortReach[1] = 0.7f;
	d.bodyMargin = 0.01f;
	d.bodyIterations = 16;
	d.reliabilityStart = 0.15f;
	d.reliabilityFull = 0.35f;
	d.ledgeAngle = 40.0f * LB_DEG2RAD;
	d.sideNegStart = 0.20f;
	d.sideNegFull = 0.40f;
	d.sidePosStart = 0.10f;
	d.sidePosFull = 0.30f;
	d.sideCacheMin = 0.35f;
	d.sideCacheMax = 0.94f;
	d.sideCacheAlpha = 0.1f;
	d.extendFadeStart = 0.90f;
	d.extendFadeEnd = 0.97f;
	d.foldFadeStart = 0.30f;
	d.foldFadeEnd = 0.40f;
	d.poleBase = 0.25f;
	d.poleSide = 0.60f;
	d.kneeClearance = 0.08f;
	d.toeSideGain = 1.0f;
	d.toeLegGain = 0.35f;
	d.toeUpGain = 0.5f;
	d.fullBody = lbDefaultFullBodyIkDef();
	d.fullBody.pelvisMaxSink = 0.6f;
	d.fullBody.pelvisMaxRise = 0.6f;
	d.fullBody.pelvisMaxHorizontal = 0.6f;
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

lbClimbSenseInput lbDefaultClimbSenseInput(void)
{
	lbClimbSenseInput in;
	memset(&in, 0, sizeof in);
	in.characterWs = lbTransform_identity;
	return in;
}

void lbClimbState_Reset(lbClimbState* state)
{
	if (!state)
		return;
	memset(state, 0, sizeof *state);
	state->selected = -1;
	state->frameWs = lbTransform_identity;
	for (int i = 0; i < 4; ++i)
		state->limbs[i].targetRotWs = lbQuat_identity;
}

void lbClimbPoseCache_Reset(lbClimbPoseCache* cache)
{
	if (!cache)
		return;
	memset(cache, 0, sizeof *cache);
	cache->handRotWs[0] = cache->handRotWs[1] = lbQuat_identity;
	cache->lastHandWs[0] = cache->lastHandWs[1] = lbQuat_identity;
	cache->lastFootWs[0] = cache->lastFootWs[1] = lbQuat_identity;
	for (int k = 0; k < 1 + LB_MAX_SPINE; ++k)
		cache->lastBodyWs[k] = lbQuat_identity;
	for (int k = 0; k < 2 + LB_MAX_TWIST; ++k)
		cache->lastArmWs[0][k] = cache->lastArmWs[1][k] = lbQuat_identity;
	cache->lastLegWs[0][0] = cache->lastLegWs[0][1] = cache->lastLegWs[1][0] = cache->lastLegWs[1][1] = lbQuat_identity;
}

// True when some limb holds (locked, or locking onto its hold) other than `except`.
static bool lbClimbAnyHeld(const lbClimbState* state, int except)
{
	for (int i = 0; i < 4; ++i)
		if (i != except && (state->limbs[i].mode == lb_climbLocked || state->limbs[i].mode == lb_climbLocking))
			return true;
	return false;
}

lbResult lbClimb_Select(lbClimbState* state, int limb)
{
	if (!state)
		return lbReport(lb_errorNullPointer, "lbClimb_Select: state is NULL");
	if (limb < 0 || limb >= 4)
		return lbReport(lb_errorInvalidArgument, "lbClimb_Select: limb %d outside 0..3", limb);
	// A free foot is the body's footing while nothing holds: the last one stays down. Lifting both
	// toward a wall out of reach left a climber standing on air.
	const int otherFoot = limb == lb_limbLegL ? lb_limbLegR : lb_limbLegL;
	if (limb >= 2 && state->limbs[limb].mode == lb_climbFree && state->limbs[otherFoot].mode != lb_climbFree &&
		!lbClimbAnyHeld(state, -1))
		return lbReport(lb_errorUnsupported,
						"lbClimb_Select: the other foot is off the ground and no limb holds; lifting this one "
						"would leave the body on nothing (confirm a hold or release the other foot first)");
	state->selected = limb;
	state->stickX = state->stickY = 0.0f;
	lbClimbLimbState* l = &state->limbs[limb];
	// The search starts where the limb is; the sense stage seeds the guide point from the pose.
	if (l->mode == lb_climbFree)
	{
		l->mode = lb_climbSearching;
		l->hasSurface = false;
		l->guideWs = lbVec3_zero;
		l->lockTimer = -1.0f;
	}
	return lb_ok;
}

lbResult lbClimb_SetStick(lbClimbState* state, float x, float y)
{
	if (!state)
		return lbReport(lb_errorNullPointer, "lbClimb_SetStick: state is NULL");
	if (!lbIsValidFloat(x) || !lbIsValidFloat(y))
		return lbReport(lb_errorNonFinite, "lbClimb_SetStick: stick (%g, %g) is not finite", (double)x, (double)y);
	float len = sqrtf(x * x + y * y);
	if (len > 1.0f)
	{
		x /= len;
		y /= len;
	}
	state->stickX = x;
	state->stickY = y;
	return lb_ok;
}

lbResult lbClimb_Confirm(lbClimbState* state)
{
	if (!state)
		return lbReport(lb_errorNullPointer, "lbClimb_Confirm: state is NULL");
	if (state->selected < 0 || state->selected >= 4)
		return lbReport(lb_errorInvalidArgument, "lbClimb_Confirm: no limb is selected");
	lbClimbLimbState* l = &state->limbs[state->selected];
	if (l->mode == lb_climbLocking || l->mode == lb_climbLocked)
		return lb_ok;
	if (!l->hasSurface)
		return lbReport(lb_errorUnsupported, "lbClimb_Confirm: %s has found no surface to hold yet",
						state->selected < 2 ? "the hand" : "the foot");
	l->mode = lb_climbLocking;
	l->lockFromWs = l->targetWs;
	l->lockTimer = 0.0f;
	state->stickX = state->stickY = 0.0f;
	return lb_ok;
}

lbResult lbClimb_Release(lbClimbState* state, int limb)
{
	if (!state)
		return lbReport(lb_errorNullPointer, "lbClimb_Release: state is NULL");
	if (limb == -1)
		limb = state->selected;
	if (limb < 0 || limb >= 4)
		return lbReport(lb_errorInvalidArgument, "lbClimb_Release: limb %d outside 0..3 (or nothing selected)", limb);
	lbClimbLimbState* l = &state->limbs[limb];
	// The last hold of a body with no foot on the ground stays: letting go would leave it hanging
	// on nothing (a game drops off with lbClimbState_Reset, or lets the feet go first).
	if (limb < 2 && (l->mode == lb_climbLocked || l->mode == lb_climbLocking) && !lbClimbAnyHeld(state, limb) &&
		state->limbs[lb_limbLegL].mode != lb_climbFree && state->limbs[lb_limbLegR].mode != lb_climbFree)
		return lbReport(lb_errorUnsupported,
						"lbClimb_Release: the hand is the last hold and neither foot is on the ground; let a "
						"foot go first");
	// A held limb first lifts off its surface (the sense stage counts the lift in lockTimer); one
	// that held nothing goes straight back to the animation.
	l->lockTimer = l->mode == lb_climbFree ? 1.0e9f : 0.0f;
	l->mode = lb_climbFree;
	l->hasSurface = false;
	if (state->selected == limb)
	{
		state->selected = -1;
		state->stickX = state->stickY = 0.0f;
	}
	return lb_ok;
}
