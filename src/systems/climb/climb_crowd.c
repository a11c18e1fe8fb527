// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The climb system over a crowd: blocks of characters through the caller's parallel-for, each
// character run by lbClimbSense and lbClimbApplyPose, so any split gives the same bits. The pose
// stage's workspace is cut into one part per worker.
#include "core/crowd_internal.h"

typedef struct lbClimbSenseCrowdTask
{
	lbClimbState* states;
	const lbClimbDef* def;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	const lbClimbSenseInput* inputs;
	lbClimbTargets* targets;
} lbClimbSenseCrowdTask;

static lbResult lbClimbSenseInCrowd(void* context, int i, int worker)
{
	(void)worker;
	const lbClimbSenseCrowdTask* t = (const lbClimbSenseCrowdTask*)context;
	return lbClimbSense(&t->states[i], t->def, t->skeleton, t->humanoid, &t->inputs[i], &t->targets[i]);
}

lbResult lbClimbSenseCrowd(lbClimbState* states, const lbClimbDef* def, const lbSkeleton* skeleton,
						   const lbHumanoid* humanoid, const lbClimbSenseInput* inputs, lbClimbTargets* outTargets,
						   int count, const lbParallel* parallel)
{
	if (count < 0 || (count > 0 && (!states || !inputs || !outTargets || !def || !skeleton || !humanoid)))
		return lbReport(lb_errorNullPointer, "lbClimbSenseCrowd: states, def, skeleton, humanoid, inputs and targets are "
											 "required (count %d)",
						count);
	if (count == 0)
		return lb_ok;
	// What every character shares, checked once (reported once, not once per block).
	lbResult valid = lbHumanoid_Check(humanoid, skeleton);
	if (valid != lb_ok)
		return valid;
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbClimbSenseCrowd: def not initialised with lbDefaultClimbDef()");
	lbClimbSenseCrowdTask t = { states, def, skeleton, humanoid, inputs, outTargets };
	return lbCrowdRunEach(count, 4, parallel, lbClimbSenseInCrowd, &t, "lbClimbSenseCrowd", 0);
}

// One worker's part, a multiple of 16 bytes so every part keeps the caller's alignment.
static size_t lbClimbCrowdWorkerBytes(const lbSkeleton* skeleton)
{
	return (lbGetClimbWorkspaceSize(skeleton) + 15u) & ~(size_t)15u;
}

size_t lbGetClimbCrowdWorkspaceSize(const lbSkeleton* skeleton, const lbParallel* parallel)
{
	return (size_t)lbCrowdWorkerCount(parallel) * lbClimbCrowdWorkerBytes(skeleton);
}

typedef struct lbClimbPoseCrowdTask
{
	const lbClimbTargets* targets;
	const lbClimbDef* def;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	lbClimbPoseCache* caches;
	lbPose* poses;
	lbClimbPoseResult* results;
	unsigned char* workspace;
	size_t workerBytes;
} lbClimbPoseCrowdTask;

static lbResult lbClimbPoseInCrowd(void* context, int i, int worker)
{
	const lbClimbPoseCrowdTask* t = (const lbClimbPoseCrowdTask*)context;
	return lbClimbApplyPose(&t->targets[i], t->def, t->skeleton, t->humanoid, &t->caches[i], &t->poses[i],
							t->workspace + (size_t)worker * t->workerBytes, t->workerBytes,
							t->results ? &t->results[i] : NULL);
}

lbResult lbClimbApplyPoseCrowd(const lbClimbTargets* targets, const lbClimbDef* def, const lbSkeleton* skeleton,
							   const lbHumanoid* humanoid, lbClimbPoseCache* caches, lbPose* poses, int count,
							   void* workspace, size_t workspaceSize, lbClimbPoseResult* outResults,
							   const lbParallel* parallel)
{
	if (count < 0 || (count > 0 && (!targets || !caches || !poses || !def || !skeleton || !humanoid)))
		return lbReport(lb_errorNullPointer, "lbClimbApplyPoseCrowd: targets, def, skeleton, humanoid, caches and poses "
											 "are required (count %d)",
						count);
	if (count == 0)
		return lb_ok;
	lbResult valid = lbHumanoid_Check(humanoid, skeleton);
	if (valid != lb_ok)
		return valid;
	const size_t need = lbGetClimbCrowdWorkspaceSize(skeleton, parallel);
	if (!workspace || workspaceSize < need)
		return lbReport(lb_errorCapacity, "lbClimbApplyPoseCrowd: workspace of %zu bytes, %zu needed",
						workspace ? workspaceSize : 0u, need);
	lbClimbPoseCrowdTask t = { targets, def, skeleton, humanoid, caches, poses, outResults, (unsigned char*)workspace,
								lbClimbCrowdWorkerBytes(skeleton) };
	return lbCrowdRunEach(count, 4, parallel, lbClimbPoseInCrowd, &t, "lbClimbApplyPoseCrowd", lbCrowdWorkerCount(parallel));
}
