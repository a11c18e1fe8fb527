// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The foot system over a crowd: blocks of characters through the caller's parallel-for, each block
// run by the single-crowd calls (lbFootSenseMany, lbFootApplyPose), so any split gives the same
// bits. What every character shares (def, skeleton, humanoid) is checked once here, so a bad def
// is reported once rather than once per block.
#include "core/crowd_internal.h"
#include "systems/foot/foot_internal.h"

typedef struct lbFootSenseCrowdTask
{
	lbCrowdBlocks blocks;
	lbFootState* states;
	const lbFootDef* def;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	const lbFootSenseInput* inputs;
	lbFootTargets* targets;
} lbFootSenseCrowdTask;

static void lbFootSenseCrowdRange(int begin, int end, int worker, void* context)
{
	(void)worker;
	lbFootSenseCrowdTask* t = (lbFootSenseCrowdTask*)context;
	for (int k = begin; k < end; ++k)
	{
		int lo, hi;
		lbCrowdBlocks_Range(&t->blocks, k, &lo, &hi);
		// The def and the rig were checked once for the crowd (lbFootSenseCrowd).
		t->blocks.results[k] = lbFootSenseManyChecked(t->states + lo, t->def, t->skeleton, t->humanoid, t->inputs + lo,
													  t->targets + lo, hi - lo);
	}
}

lbResult lbFootSenseCrowd(lbFootState* states, const lbFootDef* def, const lbSkeleton* skeleton,
						  const lbHumanoid* humanoid, const lbFootSenseInput* inputs, lbFootTargets* outTargets,
						  int count, const lbParallel* parallel)
{
	if (count < 0 || (count > 0 && (!states || !inputs || !outTargets || !def || !skeleton || !humanoid)))
		return lbReport(lb_errorNullPointer, "lbFootSenseCrowd: states, def, skeleton, humanoid, inputs and targets are "
											 "required (count %d)",
						count);
	if (count == 0)
		return lb_ok;
	lbResult valid = lbHumanoid_Check(humanoid, skeleton);
	if (valid == lb_ok)
		valid = lbFootDef_Validate(def);
	if (valid != lb_ok)
		return valid;
	lbFootSenseCrowdTask t;
	lbCrowdBlocks_Init(&t.blocks, count, 8);
	t.states = states, t.def = def, t.skeleton = skeleton, t.humanoid = humanoid, t.inputs = inputs, t.targets = outTargets;
	lbCrowdRun(&t.blocks, parallel, lbFootSenseCrowdRange, &t);
	return lbCrowdBlocks_First(&t.blocks);
}

size_t lbGetFootCrowdWorkspaceSize(const lbSkeleton* skeleton, lbFootSolver solver, const lbParallel* parallel)
{
	if (!skeleton || solver != lb_footSolverFullBody)
		return 0;
	return (size_t)lbCrowdWorkerCount(parallel) * lbGetFullBodyIkWorkspaceSize(skeleton);
}

typedef struct lbFootPoseCrowdTask
{
	const lbFootTargets* targets;
	const lbFootDef* def;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	lbFootSolver solver;
	lbPose* poses;
	unsigned char* workspace; // one part of workerBytes per worker (none for the two-bone solver)
	size_t workerBytes;
	lbCrowdBlocks* blocks; // the two-bone solver's blocks
	const lbFootPoseShared* shared; // what the two-bone solver's batches share
} lbFootPoseCrowdTask;

// The two-bone solver's blocks: LB_FOOT_POSE_BATCH characters per lbFootApplyPoseBatch call, whose
// legs go through the batch solve's lanes together. Each lane computes on its own chain's numbers
// alone, so any split of the crowd gives the same bits.
static void lbFootPoseBatchRange(int begin, int end, int worker, void* context)
{
	(void)worker;
	const lbFootPoseCrowdTask* t = (const lbFootPoseCrowdTask*)context;
	for (int k = begin; k < end; ++k)
	{
		int lo, hi;
		lbCrowdBlocks_Range(t->blocks, k, &lo, &hi);
		lbResult first = lb_ok;
		for (int i = lo; i < hi; i += LB_FOOT_POSE_BATCH)
		{
			const int n = hi - i < LB_FOOT_POSE_BATCH ? hi - i : LB_FOOT_POSE_BATCH;
			lbResult results[LB_FOOT_POSE_BATCH];
			lbFootApplyPoseBatch(t->targets + i, t->def, t->shared, t->skeleton, t->humanoid, t->poses + i, n, results);
			for (int j = 0; j < n && first == lb_ok; ++j)
				first = results[j];
		}
		t->blocks->results[k] = first;
	}
}

static lbResult lbFootPoseInCrowd(void* context, int i, int worker)
{
	const lbFootPoseCrowdTask* t = (const lbFootPoseCrowdTask*)context;
	void* ws = t->workerBytes > 0 ? t->workspace + (size_t)worker * t->workerBytes : NULL;
	// The def, the rig and the solver were checked once for the batch (lbFootApplyPoseCrowd).
	return lbFootApplyPoseChecked(&t->targets[i], t->def, t->skeleton, t->humanoid, t->solver, &t->poses[i], ws,
								  t->workerBytes);
}

lbResult lbFootApplyPoseCrowd(const lbFootTargets* targets, const lbFootDef* def, const lbSkeleton* skeleton,
							  const lbHumanoid* humanoid, lbFootSolver solver, lbPose* poses, int count, void* workspace,
							  size_t workspaceSize, const lbParallel* parallel)
{
	if (count < 0 || (count > 0 && (!targets || !poses || !def || !skeleton || !humanoid)))
		return lbReport(lb_errorNullPointer, "lbFootApplyPoseCrowd: targets, def, skeleton, humanoid and poses are "
											 "required (count %d)",
						count);
	if (count == 0)
		return lb_ok;
	lbResult valid = lbHumanoid_Check(humanoid, skeleton);
	if (valid == lb_ok)
		valid = lbFootDef_Validate(def);
	if (valid != lb_ok)
		return valid;
	if ((unsigned)solver > (unsigned)lb_footSolverFullBody)
		return lbReport(lb_errorInvalidArgument, "lbFootApplyPoseCrowd: solver %d is not a lbFootSolver", (int)solver);
	const size_t need = lbGetFootCrowdWorkspaceSize(skeleton, solver, parallel);
	if (need > 0 && (!workspace || workspaceSize < need))
		return lbReport(lb_errorCapacity, "lbFootApplyPoseCrowd: the full-body solver needs %zu bytes of workspace", need);
	const int workers = lbCrowdWorkerCount(parallel);
	lbFootPoseCrowdTask t = { targets, def, skeleton, humanoid, solver, poses, (unsigned char*)workspace,
							  need > 0 ? need / (size_t)workers : 0, NULL, NULL };
	if (solver == lb_footSolverTwoBone)
	{
		// Legs solved together, LB_FOOT_POSE_BATCH characters at a time within each block.
		lbFootPoseShared shared;
		lbFootPoseShared_Init(&shared, def, skeleton, humanoid);
		t.shared = &shared;
		lbCrowdBlocks blocks;
		lbCrowdBlocks_Init(&blocks, count, LB_FOOT_POSE_BATCH);
		t.blocks = &blocks;
		lbCrowdRun(&blocks, parallel, lbFootPoseBatchRange, &t);
		return lbCrowdBlocks_First(&blocks);
	}
	return lbCrowdRunEach(count, 8, parallel, lbFootPoseInCrowd, &t, "lbFootApplyPoseCrowd", need > 0 ? workers : 0);
}
