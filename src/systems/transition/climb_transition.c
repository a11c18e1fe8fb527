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
