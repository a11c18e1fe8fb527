// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Fuzz target: the prone and climbing systems fed from fuzzed structs (the foot system is in
// fuzz_solvers). The input is read as choices and numbers (NaN, infinities, 3e38, 0, tiny, else a
// value in [-4, 4]) that fill a few def fields, the character transform, dt and, for climbing,
// the limb selection, stick and confirm/release calls, for a few frames of sense then pose on
// either reference rig, in a world of a floor and a wall. Every call must keep its promise: lb_ok
// leaves the pose finite; an error leaves the pose as it was. The first byte's lowest bit picks
// the system.
#include "limber/limber.h"
#include "limber/rigs.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static bool lbPoseFinite(const lbPose* pose)
{
	for (int b = 0; b < pose->boneCount; ++b)
	{
		if (!lbIsValidTransform(pose->local[b]) || !lbIsValidTransform(pose->model[b]))
			return false;
	}
	return true;
}

static void lbCheckPose(const char* call, lbResult r, const lbPose* before, const lbPose* after)
{
	size_t n = sizeof(lbTransform) * (size_t)after->boneCount;
	bool same = memcmp(before->local, after->local, n) == 0 && memcmp(before->model, after->model, n) == 0;
	if (r == lb_ok ? !lbPoseFinite(after) : !same)
	{
		fprintf(stderr, "%s returned %s and left %s\n", call, lbResultString(r), r == lb_ok ? "a non-finite pose" : "the pose changed");
		abort();
	}
}

static void lbFuzzProne(lbFuzzReader* r, const lbSkeleton* rig, const lbHumanoid* humanoid, const lbSceneQuery* query,
						lbPose* pose, lbPose* before)
{
	lbProneDef def = lbDefaultProneDef();
	float* fields[] = { &def.traceRadius, &def.traceUp,       &def.traceDown,    &def.sideOffset,   &def.maxRoll,
						&def.maxUpperPitch, &def.roofAngle,   &def.hoverLimit,   &def.rotationSpeed, &def.heightSpeed,
						&def.clearance,   &def.maxShift,      &def.torsoRadius,  &def.probeReach,   &def.lockSpeed,
						&def.alphaSpeed };
	for (int k = (int)(lbByte(r) % 4u); k > 0; --k)
	{
		const float value = lbFloat(r); // (read before the field: one read per statement)
		*fields[lbByte(r) % (sizeof fields / sizeof fields[0])] = value;
	}
	if ((lbByte(r) & 7u) == 0)
		def.up = lbVec(r);
	def.fitLimbs = lbByte(r) & 1u;
	def.limbLock = lbByte(r) & 1u;
	lbProneState state;
	lbProneState_Reset(&state);
	// A frame with dt <= 0 leaves the targets as they were (the last frame's), so they live across
	// frames and start zeroed, as a caller's would.
	lbProneTargets targets;
	memset(&targets, 0, sizeof targets);
	for (int frame = 0; frame < 3; ++frame)
	{
		lbProneSenseInput in = lbDefaultProneSenseInput();
		in.query = query;
		in.characterWs = lbTransform_identity;
		if (lbByte(r) & 7u)
		{
			const float x = lbFloat(r), y = lbFloat(r);
			in.characterWs.p = lbMakeVec3(x, y, 0.2f);
		}
		else
			in.characterWs.p = lbVec(r);
		in.animPose = pose;
		in.dt = (lbByte(r) & 3u) ? 1.0f / 60.0f : lbFloat(r);
		in.active = (lbByte(r) & 3u) != 0;
		lbProneState saved = state;
		lbResult res = lbProneSense(&state, &def, rig, humanoid, &in, &targets);
		if (res != lb_ok && res != lb_errorNonFinite && memcmp(&saved, &state, sizeof state) != 0)
		{
			fprintf(stderr, "lbProneSense returned %s and changed the state\n", lbResultString(res));
			abort();
		}
		if (res != lb_ok)
			return;
		lbPose_Copy(before, pose);
		res = lbProneApplyPose(&targets, &def, rig, humanoid, pose, NULL);
		lbCheckPose("lbProneApplyPose", res, before, pose);
		if (res != lb_ok)
			return;
	}
}

static void lbFuzzClimb(lbFuzzReader* r, const lbSkeleton* rig, const lbHumanoid* humanoid, const lbSceneQuery* query,
						lbPose* pose, lbPose* before)
{
	lbClimbDef def = lbDefaultClimbDef();
	float* fields[] = { &def.followSpeed, &def.rotationSpeed, &def.reachMargin,   &def.traceOut,  &def.traceIn,
						&def.captureRadius, &def.lockTime,    &def.alphaTime,     &def.probeOut,  &def.probeIn,
						&def.bodyWallDistance, &def.frameSpeed, &def.wallLean,   &def.bodyMargin, &def.ledgeAngle };
	for (int k = (int)(lbByte(r) % 4u); k > 0; --k)
	{
		const float value = lbFloat(r); // (read before the field: one read per statement)
		*fields[lbByte(r) % (sizeof fields / sizeof fields[0])] = value;
	}
	lbClimbState state;
	lbClimbState_Reset(&state);
	lbClimbPoseCache cache;
	lbClimbPoseCache_Reset(&cache);
	size_t bytes = lbGetClimbWorkspaceSize(rig);
	void* work = malloc(bytes);
	for (int frame = 0; work && frame < 4; ++frame)
	{
		// The player's calls between frames.
		switch (lbByte(r) % 5u)
		{
			case 0:
				lbClimb_Select(&state, (int)(lbByte(r) % 7u) - 1);
				break;
			case 1:
			{
				const float x = lbFloat(r), y = lbFloat(r);
				lbClimb_SetStick(&state, x, y);
				break;
			}
			case 2:
				lbClimb_Confirm(&state);
				break;
			case 3:
				lbClimb_Release(&state, (int)(lbByte(r) % 7u) - 2);
				break;
			default:
				break;
		}
		lbClimbSenseInput in = lbDefaultClimbSenseInput();
		in.query = query;
		in.characterWs = lbTransform_identity;
		// In front of the wall (x = 0.45 m) facing it, or anywhere.
		in.characterWs.p = (lbByte(r) & 7u) ? lbMakeVec3(0.0f, lbFloat(r) * 0.1f, 0.0f) : lbVec(r);
		in.animPose = pose;
		in.dt = (lbByte(r) & 3u) ? 1.0f / 60.0f : lbFloat(r);
		lbClimbTargets targets;
		lbResult res = lbClimbSense(&state, &def, rig, humanoid, &in, &targets);
		if (res != lb_ok)
			break;
		lbPose_Copy(before, pose);
		res = lbClimbApplyPose(&targets, &def, rig, humanoid, &cache, pose, work, bytes, NULL);
		lbCheckPose("lbClimbApplyPose", res, before, pose);
		if (res != lb_ok)
			break;
	}
	free(work);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	if (size > 4096)
		return 0;
	lbSetLogFcn(lbQuiet, NULL);
	lbFuzzReader rd = { data, size, 0 };
	lbFuzzReader* r = &rd;
	const unsigned which = lbByte(r);
	lbSkeleton* rig = lbCreateReferenceRig((lbByte(r) & 1u) ? lb_rigMixamo : lb_rigMannequin);
	lbHumanoid humanoid;
	if (!rig || lbMapHumanoid(rig, NULL, &humanoid) != lb_ok)
		abort();
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* world = lbCreateWorld(&wd);
	lbBoxDef floor = lbDefaultBoxDef();
	floor.halfExtents = lbMakeVec3(20.0f, 20.0f, 0.5f);
	floor.transform.p = lbMakeVec3(0.0f, 0.0f, -0.5f);
	lbBoxDef wall = lbDefaultBoxDef();
	wall.halfExtents = lbMakeVec3(0.25f, 5.0f, 3.0f);
	wall.transform.p = lbMakeVec3(0.7f, 0.0f, 3.0f);
	if (!world || lbWorld_AddBox(world, &floor) < 0 || lbWorld_AddBox(world, &wall) < 0)
		abort();
	lbSceneQuery query = lbWorld_GetQuery(world);
	lbPose pose = lbCreatePose(rig), before = lbCreatePose(rig);
	if (which & 1u)
		lbFuzzClimb(r, rig, &humanoid, &query, &pose, &before);
	else
		lbFuzzProne(r, rig, &humanoid, &query, &pose, &before);
	lbDestroyPose(&pose);
	lbDestroyPose(&before);
	lbDestroyWorld(world);
	lbDestroySkeleton(rig);
	return 0;
}
