// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The prone system over a crowd: blocks of characters through the caller's parallel-for, each
// character run by lbProneSense and lbProneApplyPose, so any split gives the same bits.
#include "core/crowd_internal.h"

typedef struct lbProneSenseCrowdTask
{
	lbCrowdBlocks blocks;
	lbProneState* states;
	const lbProneDef* def;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	const lbProneSenseInput* inputs;
	lbProneTargets* targets;
} lbProneSenseCrowdTask;

static void lbProneSenseCrowdRange(int begin, int end, int worker, void* context)
{
	(void)worker;
	lbProneSenseCrowdTask* t = (lbProneSenseCrowdTask*)context;
	for (int k = begin; k < end; ++k)
	{
		int lo, hi;
		lbCrowdBlocks_Range(&t->blocks, k, &lo, &hi);
		lbResult first = lb_ok;
		for (int i = lo; i < hi; ++i)
		{
			lbResult r = lbProneSense(&t->states[i], t->def, t->skeleton, t->humanoid, &t->inputs[i], &t->targets[i]);
			if (first == lb_ok)
				first = r;
		}
		t->blocks.results[k] = first;
	}
}

lbResult lbProneSenseCrowd(lbProneState* states, const lbProneDef* def, const lbSkeleton* skeleton,
						   const lbHumanoid* humanoid, const lbProneSenseInput* inputs, lbProneTargets* outTargets,
						   int count, const lbParallel* parallel)
{
	if (count < 0 || (count > 0 && (!states || !inputs || !outTargets || !def || !skeleton || !humanoid)))
		return lbReport(lb_errorNullPointer, "lbProneSenseCrowd: states, def, skeleton, humanoid, inputs and targets are "
											 "required (count %d)",
						count);
	if (count == 0)
		return lb_ok;
	// What every character shares, checked once (reported once, not once per block).
	lbResult valid = lbHumanoid_Check(humanoid, skeleton);
	if (valid != lb_ok)
		return valid;
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbProneSenseCrowd: def not initialised with lbDefaultProneDef()");
	lbProneSenseCrowdTask t;
	lbCrowdBlocks_Init(&t.blocks, count, 4);
	t.states = states, t.def = def, t.skeleton = skeleton, t.humanoid = humanoid, t.inputs = inputs, t.targets = outTargets;
	lbCrowdRun(&t.blocks, parallel, lbProneSenseCrowdRange, &t);
	return lbCrowdBlocks_First(&t.blocks);
}

typedef struct lbPronePoseCrowdTask
{
	lbCrowdBlocks blocks;
	const lbProneTargets* targets;
	const lbProneDef* def;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	lbPose* poses;
	lbProneResult* results;
} lbPronePoseCrowdTask;

static void lbPronePoseCrowdRange(int begin, int end, int worker, void* context)
{
	(void)worker;
	lbPronePoseCrowdTask* t = (lbPronePoseCrowdTask*)context;
	for (int k = begin; k < end; ++k)
	{
		int lo, hi;
		lbCrowdBlocks_Range(&t->blocks, k, &lo, &hi);
		lbResult first = lb_ok;
		for (int i = lo; i < hi; ++i)
		{
			lbResult r = lbProneApplyPose(&t->targets[i], t->def, t->skeleton, t->humanoid, &t->poses[i],
										  t->results ? &t->results[i] : NULL);
			if (first == lb_ok)
				first = r;
		}
		t->blocks.results[k] = first;
	}
}

lbResult lbProneApplyPoseCrowd(const lbProneTargets* targets, const lbProneDef* def, const lbSkeleton* skeleton,
							   const lbHumanoid* humanoid, lbPose* poses, int count, lbProneResult* outResults,
							   const lbParallel* parallel)
{
	if (count < 0 || (count > 0 && (!targets || !poses || !def || !skeleton || !humanoid)))
		return lbReport(lb_errorNullPointer, "lbProneApplyPoseCrowd: targets, def, skeleton, humanoid and poses are "
											 "required (count %d)",
						count);
	if (count == 0)
		return lb_ok;
	lbResult valid = lbHumanoid_Check(humanoid, skeleton);
	if (valid != lb_ok)
		return valid;
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbProneApplyPoseCrowd: def not initialised with lbDefaultProneDef()");
	lbPronePoseCrowdTask t;
	lbCrowdBlocks_Init(&t.blocks, count, 4);
	t.targets = targets, t.def = def, t.skeleton = skeleton, t.humanoid = humanoid, t.poses = poses, t.results = outResults;
	lbCrowdRun(&t.blocks, parallel, lbPronePoseCrowdRange, &t);
	return lbCrowdBlocks_First(&t.blocks);
}
