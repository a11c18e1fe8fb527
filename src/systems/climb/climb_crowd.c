// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The climb system over a crowd: blocks of characters through the caller's parallel-for, each
// character run by lbClimbSense and lbClimbApplyPose, so any split gives the same bits. The pose
// stage's workspace is cut into one part per worker.
#include "core/crowd_internal.h"

typedef struct lbClimbSenseCrowdTask
{
	lbCrowdBlocks blocks;
	lbClimbState* states;
	const lbClimbDef* def;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	const lbClimbSenseInput* inputs;
	lbClimbTargets* targets;
} lbClimbSenseCrowdTask;

static void lbClimbSenseCrowdRange(int begin, int end, int worker, void* context)
{
	(void)worker;
	lbClimbSenseCrowdTask* t = (lbClimbSenseCrowdTask*)context;
	for (int k = begin; k < end; ++k)
	{
		int lo, hi;
		lbCrowdBlocks_Range(&t->blocks, k, &lo, &hi);
		lbResult first = lb_ok;
		for (int i = lo; i < hi; ++i)
		{
			lbResult r = lbClimbSense(&t->states[i], t->def, t->skeleton, t->humanoid, &t->inputs[i], &t->targets[i]);
			if (first == lb_ok)
				first = r;
		}
		t->blocks.results[k] = first;
	}
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
	lbClimbSenseCrowdTask t;
	lbCrowdBlocks_Init(&t.blocks, count, 4);
	t.states = states, t.def = def, t.skeleton = skeleton, t.humanoid = humanoid, t.inputs = inputs, t.targets = outTargets;
	lbCrowdRun(&t.blocks, parallel, lbClimbSenseCrowdRange, &t);
	return lbCrowdBlocks_First(&t.blocks);
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
	lbCrowdBlocks blocks;
	const lbClimbTargets* targets;
	const lbClimbDef* def;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	lbClimbPoseCache* caches;
	lbPose* poses;
	lbClimbPoseResult* results;
	unsigned char* workspace;
	size_t workerBytes;
	int workerCount;
} lbClimbPoseCrowdTask;

static void lbClimbPoseCrowdRange(int begin, int end, int worker, void* context)
{
	lbClimbPoseCrowdTask* t = (lbClimbPoseCrowdTask*)context;
	if (worker < 0 || worker >= t->workerCount)
	{
		// A job system passing more worker indices than it declared would share scratch memory.
		for (int k = begin; k < end; ++k)
			t->blocks.results[k] = lbReport(lb_errorInvalidArgument,
											"lbClimbApplyPoseCrowd: worker %d outside the parallel's %d workers", worker,
											t->workerCount);
		return;
	}
	void* ws = t->workspace + (size_t)worker * t->workerBytes;
	for (int k = begin; k < end; ++k)
	{
		int lo, hi;
		lbCrowdBlocks_Range(&t->blocks, k, &lo, &hi);
		lbResult first = lb_ok;
		for (int i = lo; i < hi; ++i)
		{
			lbResult r = lbClimbApplyPose(&t->targets[i], t->def, t->skeleton, t->humanoid, &t->caches[i], &t->poses[i], ws,
										  t->workerBytes, t->results ? &t->results[i] : NULL);
			if (first == lb_ok)
				first = r;
		}
		t->blocks.results[k] = first;
	}
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
	lbClimbPoseCrowdTask t;
	lbCrowdBlocks_Init(&t.blocks, count, 4);
	t.targets = targets, t.def = def, t.skeleton = skeleton, t.humanoid = humanoid, t.caches = caches, t.poses = poses;
	t.results = outResults;
	t.workerCount = lbCrowdWorkerCount(parallel);
	t.workerBytes = lbClimbCrowdWorkerBytes(skeleton);
	t.workspace = (unsigned char*)workspace;
	lbCrowdRun(&t.blocks, parallel, lbClimbPoseCrowdRange, &t);
	return lbCrowdBlocks_First(&t.blocks);
}
