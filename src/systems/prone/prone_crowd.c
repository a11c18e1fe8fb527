// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The prone system over a crowd: blocks of characters through the caller's parallel-for, each
// character run by lbProneSense and lbProneApplyPose, so any split gives the same bits.
#include "core/crowd_internal.h"

typedef struct lbProneSenseCrowdTask
{
	lbProneState* states;
	const lbProneDef* def;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	const lbProneSenseInput* inputs;
	lbProneTargets* targets;
} lbProneSenseCrowdTask;

static lbResult lbProneSenseInCrowd(void* context, int i, int worker)
{
	(void)worker;
	const lbProneSenseCrowdTask* t = (const lbProneSenseCrowdTask*)context;
	return lbProneSense(&t->states[i], t->def, t->skeleton, t->humanoid, &t->inputs[i], &t->targets[i]);
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
	lbProneSenseCrowdTask t = { states, def, skeleton, humanoid, inputs, outTargets };
	return lbCrowdRunEach(count, 4, parallel, lbProneSenseInCrowd, &t, "lbProneSenseCrowd", 0);
}

typedef struct lbPronePoseCrowdTask
{
	const lbProneTargets* targets;
	const lbProneDef* def;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	lbPose* poses;
	lbProneResult* results;
} lbPronePoseCrowdTask;

static lbResult lbPronePoseInCrowd(void* context, int i, int worker)
{
	(void)worker;
	const lbPronePoseCrowdTask* t = (const lbPronePoseCrowdTask*)context;
	return lbProneApplyPose(&t->targets[i], t->def, t->skeleton, t->humanoid, &t->poses[i], t->results ? &t->results[i] : NULL);
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
	lbPronePoseCrowdTask t = { targets, def, skeleton, humanoid, poses, outResults };
	return lbCrowdRunEach(count, 4, parallel, lbPronePoseInCrowd, &t, "lbProneApplyPoseCrowd", 0);
}
