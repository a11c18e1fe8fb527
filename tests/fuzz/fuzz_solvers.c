// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Fuzz target: the public solvers and the foot system fed from fuzzed structs. The input is read
// as a stream of choices and numbers (a few special values: NaN, infinities, 3e38, 0, else a
// value in [-4, 4] m or rad) that fill the inputs, defs and transforms of one call per input:
// two-bone IK, FABRIK, limb IK, full-body IK, aim, rotation distribution, or a foot sense and
// pose step, on either reference rig. Every call must keep its promise: lb_ok leaves every
// output finite (of a pose: makes no finite bone non-finite; a bone the call never reads is not its
// to check); an error leaves the pose (or joints) exactly as they were.
#include "limber/limber.h"
#include "limber/rigs.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static lbQuat lbRot(lbFuzzReader* r)
{
	// One read per statement: C leaves the order of a call's arguments unspecified, and an input
	// must mean the same whichever compiler built the target.
	const float x = lbFloat(r), y = lbFloat(r), z = lbFloat(r), w = lbFloat(r);
	lbQuat q = lbMakeQuat(x, y, z, w);
	// Mostly unit rotations (the documented input), sometimes whatever came.
	return (lbByte(r) & 3u) ? lbQuatNormalize(q) : q;
}

static int lbIndex(lbFuzzReader* r, int count)
{
	return (int)(lbByte(r) % (unsigned)(count + 4)) - 2; // a few out of range on both sides
}

// Whether every bone finite in `before` is still finite in `after`. A pose call reads and checks
// the bones it needs and refuses a non-finite one; a bone it never reads is left as it came, so a
// NaN the caller put in a finger stays in that finger. What it must never do is make a finite
// value non-finite.
static bool lbPoseKeptFinite(const lbPose* before, const lbPose* after)
{
	for (int b = 0; b < after->boneCount; ++b)
	{
		const bool was = lbIsValidTransform(before->local[b]) && lbIsValidTransform(before->model[b]);
		if (was && (!lbIsValidTransform(after->local[b]) || !lbIsValidTransform(after->model[b])))
			return false;
	}
	return true;
}

static bool lbPoseSame(const lbPose* a, const lbPose* b)
{
	size_t n = sizeof(lbTransform) * (size_t)a->boneCount;
	return memcmp(a->local, b->local, n) == 0 && memcmp(a->model, b->model, n) == 0;
}

// The promise every pose call makes; a broken one is told (call, result) before the abort.
static void lbCheckPose(const char* call, lbResult r, const lbPose* before, const lbPose* after)
{
	if (r == lb_ok ? !lbPoseKeptFinite(before, after) : !lbPoseSame(before, after))
	{
		fprintf(stderr, "%s returned %s and left %s\n", call, lbResultString(r),
				r == lb_ok ? "a finite bone non-finite" : "the pose changed");
		abort();
	}
}

static void lbFuzzTwoBone(lbFuzzReader* r)
{
	lbTransform j[3], saved[3];
	for (int k = 0; k < 3; ++k)
	{
		j[k].p = lbVec(r);
		j[k].q = lbRot(r);
		j[k].s = (lbByte(r) & 7u) ? lbMakeVec3(1, 1, 1) : lbVec(r);
	}
	memcpy(saved, j, sizeof j);
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = lbVec(r);
	in.targetRotationMs = lbRot(r);
	in.useTargetRotation = lbByte(r) & 1u;
	in.poleKind = (lbPoleKind)lbIndex(r, 3);
	in.poleMs = lbVec(r);
	in.hingeAxisMs = lbVec(r);
	in.bendHintMs = lbVec(r);
	in.weight = lbFloat(r);
	in.soften = lbFloat(r);
	in.stretch = lbByte(r) & 1u;
	in.maxStretch = lbFloat(r);
	in.tolerance = lbFloat(r);
	lbIkResult res;
	lbResult rr = lbSolveTwoBoneIk(&j[0], &j[1], &j[2], &in, &res);
	for (int k = 0; k < 3; ++k)
	{
		if (rr == lb_ok ? !lbIsValidTransform(j[k]) : memcmp(&j[k], &saved[k], sizeof j[k]) != 0)
		{
			fprintf(stderr, "lbSolveTwoBoneIk returned %s and left joint %d %s\n", lbResultString(rr), k,
					rr == lb_ok ? "non-finite" : "changed");
			abort();
		}
	}
}

static void lbFuzzFabrik(lbFuzzReader* r)
{
	enum { MaxJoints = 12 };
	lbTransform j[MaxJoints], saved[MaxJoints];
	int count = 1 + (int)(lbByte(r) % MaxJoints);
	lbVec3 at = lbVec3_zero;
	for (int k = 0; k < count; ++k)
	{
		at = lbAdd(at, lbVec(r));
		j[k].p = at;
		j[k].q = lbRot(r);
		j[k].s = lbMakeVec3(1, 1, 1);
	}
	memcpy(saved, j, sizeof(lbTransform) * (size_t)count);
	lbFabrikInput in = lbDefaultFabrikInput();
	in.targetMs = lbVec(r);
	in.tolerance = lbFloat(r);
	in.maxIterations = lbIndex(r, 60);
	in.bendHintKind = (lbPoleKind)lbIndex(r, 3);
	in.bendHintMs = lbVec(r);
	in.useTargetRotation = lbByte(r) & 1u;
	in.targetRotationMs = lbRot(r);
	lbIkResult res;
	lbResult rr = lbSolveFabrik(j, count, &in, &res);
	for (int k = 0; k < count; ++k)
	{
		if (rr == lb_ok ? !lbIsValidTransform(j[k]) : memcmp(&j[k], &saved[k], sizeof j[k]) != 0)
		{
			fprintf(stderr, "lbSolveFabrik returned %s and left joint %d %s\n", lbResultString(rr), k,
					rr == lb_ok ? "non-finite" : "changed");
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
	if (size > 4096)
		return 0;
	lbSetLogFcn(lbQuiet, NULL);
	lbFuzzReader rd = { data, size, 0 };
	lbFuzzReader* r = &rd;
	unsigned which = lbByte(r) % 8u;
	if (which == 0)
	{
		lbFuzzTwoBone(r);
		return 0;
	}
	if (which == 1)
	{
		lbFuzzFabrik(r);
		return 0;
	}
	lbSkeleton* rig = lbCreateReferenceRig((lbByte(r) & 1u) ? lb_rigMixamo : lb_rigMannequin);
	lbHumanoid humanoid;
	if (!rig || lbMapHumanoid(rig, NULL, &humanoid) != lb_ok)
		abort();
	lbPose pose = lbCreatePose(rig), before = lbCreatePose(rig);
	// Some bones of the animated pose turned (and now and then made non-finite).
	for (int k = (int)(lbByte(r) % 6u); k > 0; --k)
	{
		int b = (int)(lbByte(r) % (unsigned)rig->boneCount);
		pose.local[b].q = lbQuatNormalize(lbQuatMul(pose.local[b].q, lbRot(r)));
	}
	lbPose_LocalToModel(&pose, rig);
	if ((lbByte(r) & 15u) == 0)
	{
		const float x = lbFloat(r); // (the value read before the bone)
		pose.model[lbByte(r) % (unsigned)rig->boneCount].p.x = x;
	}
	lbPose_Copy(&before, &pose);
	lbResult res = lb_ok;
	switch (which)
	{
		case 2:
		{
			lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
			in.targetMs = lbVec(r);
			in.poleKind = (lbPoleKind)lbIndex(r, 3);
			in.poleMs = lbVec(r);
			in.weight = lbFloat(r);
			in.soften = lbFloat(r);
			res = lbPose_SolveLimbIk(&pose, rig, &humanoid, (lbLimb)lbIndex(r, lb_limbCount), &in, NULL);
			break;
		}
		case 3:
		{
			lbFullBodyIkDef settings = lbDefaultFullBodyIkDef();
			settings.iterations = lbIndex(r, 40);
			settings.damping = lbFloat(r);
			settings.pelvisMaxSink = lbFloat(r);
			settings.reachFraction = lbFloat(r);
			settings.upMs = (lbByte(r) & 3u) ? lbReferenceRigUp(lb_rigMannequin) : lbVec(r);
			lbFullBodyIkEffector eff[lb_effectorCount];
			for (int e = 0; e < lb_effectorCount; ++e)
			{
				eff[e] = lbDefaultFullBodyIkEffector();
				if (lbByte(r) & 1u)
					continue;
				eff[e].targetMs = lbAdd(pose.model[0].p, lbVec(r));
				eff[e].targetRotationMs = lbRot(r);
				eff[e].positionAlpha = lbFloat(r);
				eff[e].rotationAlpha = lbFloat(r);
				eff[e].poleKind = (lbPoleKind)lbIndex(r, 3);
				eff[e].poleMs = lbVec(r);
			}
			size_t bytes = lbGetFullBodyIkWorkspaceSize(rig);
			void* work = malloc(bytes);
			res = lbSolveFullBodyIk(&pose, rig, &humanoid, &settings, eff, work, bytes, NULL);
			free(work);
			break;
		}
		case 4:
		{
			lbAimInput in = lbDefaultAimInput();
			in.primaryAxis = lbVec(r);
			in.primaryKind = (lbPoleKind)lbIndex(r, 3);
			in.primaryTargetMs = lbVec(r);
			in.secondaryAxis = lbVec(r);
			in.secondaryKind = (lbPoleKind)lbIndex(r, 3);
			in.secondaryTargetMs = lbVec(r);
			in.weight = lbFloat(r);
			in.propagate = lbByte(r) & 1u;
			res = lbPose_AimBone(&pose, rig, lbIndex(r, rig->boneCount), &in);
			break;
		}
		case 5:
		{
			// lbIndex gives up to count + 1: the array holds that many.
			int bones[10];
			int count = lbIndex(r, 8);
			for (int k = 0; k < 10; ++k)
				bones[k] = lbIndex(r, rig->boneCount);
			res = lbPose_DistributeRotation(&pose, rig, bones, count < 0 ? 0 : count, lbRot(r),
											(lbDistributeCurve)lbIndex(r, 3), lbFloat(r));
			break;
		}
		default:
		{
			// The foot system on flat ground, a def with a few fields fuzzed, a few frames.
			lbWorldDef wd = lbDefaultWorldDef();
			lbWorld* world = lbCreateWorld(&wd);
			lbBoxDef box = lbDefaultBoxDef();
			box.halfExtents = lbMakeVec3(20.0f, 20.0f, 0.5f);
			box.transform.p = lbMakeVec3(0.0f, 0.0f, -0.5f);
			if (!world || lbWorld_AddBox(world, &box) < 0)
				abort();
			lbSceneQuery query = lbWorld_GetQuery(world);
			lbFootDef def = lbDefaultFootDef();
			float* fields[] = { &def.traceRadius, &def.traceAbove, &def.traceBelow, &def.normalWeight, &def.maxFootAngle,
								&def.slopeLimit, &def.goalSpeed, &def.rotationSpeed, &def.predictionTime, &def.pelvisWeight,
								&def.pelvisMaxSink, &def.pelvisMaxLift, &def.kneeMaxBend, &def.alphaSpeed, &def.traceRate,
								&def.lockSpeed, &def.lockHeight, &def.legSoften, &def.ankleLimit, &def.edgeHeight,
								&def.swingClearance, &def.maxGoalSpeed };
			for (int k = (int)(lbByte(r) % 4u); k > 0; --k)
			{
				const float value = lbFloat(r); // (read before the field: one read per statement)
				*fields[lbByte(r) % (sizeof fields / sizeof fields[0])] = value;
			}
			if ((lbByte(r) & 7u) == 0)
				def.up = lbVec(r);
			def.traceOrigin = (lbFootTraceOrigin)(lbByte(r) % 4u);
			def.pelvisMode = (lbFootPelvisMode)(lbByte(r) % 4u);
			def.footLock = lbByte(r) & 1u;
			def.footprintTraces = lbByte(r) & 1u;
			lbFootState state;
			lbFootState_Reset(&state);
			lbFootTargets targets;
			for (int frame = 0; frame < 3; ++frame)
			{
				lbFootSenseInput in = lbDefaultFootSenseInput();
				in.query = &query;
				in.characterWs = lbTransform_identity;
				if (lbByte(r) & 7u)
				{
					const float x = lbFloat(r), y = lbFloat(r);
					in.characterWs.p = lbMakeVec3(x, y, 0.0f);
				}
				else
					in.characterWs.p = lbVec(r);
				in.animPose = &pose;
				in.velocityWs = lbVec(r);
				in.dt = (lbByte(r) & 3u) ? 1.0f / 60.0f : lbFloat(r);
				in.landed = lbByte(r) & 1u;
				lbFootState savedState = state;
				res = lbFootSense(&state, &def, rig, &humanoid, &in, &targets);
				if (res != lb_ok && res != lb_errorNonFinite && memcmp(&savedState, &state, sizeof state) != 0)
				{
					fprintf(stderr, "lbFootSense returned %s and changed the state\n", lbResultString(res));
					abort();
				}
				if (res != lb_ok)
					break;
				lbPose_Copy(&before, &pose);
				lbFootSolver solver = (lbFootSolver)(lbByte(r) % 3u);
				size_t bytes = lbGetFullBodyIkWorkspaceSize(rig);
				void* work = malloc(bytes);
				res = lbFootApplyPose(&targets, &def, rig, &humanoid, solver, &pose, work, bytes);
				free(work);
				lbCheckPose("lbFootApplyPose", res, &before, &pose);
				if (res != lb_ok)
					break;
			}
			lbDestroyWorld(world);
			lbDestroyPose(&pose);
			lbDestroyPose(&before);
			lbDestroySkeleton(rig);
			return 0;
		}
	}
	static const char* const calls[] = { "", "", "lbPose_SolveLimbIk", "lbSolveFullBodyIk", "lbPose_AimBone",
										 "lbPose_DistributeRotation" };
	lbCheckPose(calls[which], res, &before, &pose);
	lbDestroyPose(&pose);
	lbDestroyPose(&before);
	lbDestroySkeleton(rig);
	return 0;
}
