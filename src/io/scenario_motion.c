// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Base motions a scenario can name: the motion layer's procedural rest, idle, walk, run, prone and
// crawl. Walk, run and crawl move the character themselves (their feet stay planted in the world);
// the others stand where the runner's controller puts them.
#include "scenario_internal.h"

#include "limber/motion.h"

#include <stdlib.h>
#include <string.h>

typedef struct lbRunMotion
{
	lbMotionState state;
	lbMotionDef params;
} lbRunMotion;

#define LB_MOTION_COUNT 7

static void* lbMotionCreate(const lbRunContext* ctx, lbBaseMotion kind, lbResult* outResult)
{
	lbRunMotion* m = (lbRunMotion*)lbAllocZeroed(sizeof(lbRunMotion));
	if (!m)
	{
		*outResult = lbReport(lb_errorOutOfMemory, "motion");
		return NULL;
	}
	m->params = lbDefaultMotionDef(kind);
	if (kind == lb_motionClip)
	{
		const lbScenario* sc = ctx->scenario;
		if (sc->clipIndex >= ctx->clipCount)
		{
			lbFree(m);
			*outResult = lbReport(lb_errorInvalidArgument, "%s: motion.clip_index %d but the rig file has %d clip(s)", sc->path,
								  sc->clipIndex, ctx->clipCount);
			return NULL;
		}
		m->params.clip = &ctx->clips[sc->clipIndex];
		m->params.playRate = sc->playRate;
		m->params.loop = sc->loop;
	}
	*outResult = lbMotionState_Init(&m->state, ctx->skeleton, ctx->humanoid, ctx->characterWs);
	if (*outResult != lb_ok)
	{
		lbFree(m);
		return NULL;
	}
	return m;
}

#define LB_MOTION_CREATE(fn, kind)                                                                           \
	static void* fn(const lbRunContext* ctx, lbResult* outResult)                                            \
	{                                                                                                        \
		return lbMotionCreate(ctx, kind, outResult);                                                         \
	}
LB_MOTION_CREATE(lbCreateRest, lb_motionRest)
LB_MOTION_CREATE(lbCreateIdle, lb_motionIdle)
LB_MOTION_CREATE(lbCreateWalk, lb_motionWalk)
LB_MOTION_CREATE(lbCreateRunMotion, lb_motionRun)
LB_MOTION_CREATE(lbCreateProne, lb_motionProne)
LB_MOTION_CREATE(lbCreateCrawl, lb_motionCrawl)
LB_MOTION_CREATE(lbCreateClip, lb_motionClip)

static void lbMotionDestroy(void* motion)
{
	lbFree(motion);
}

static float lbMotionDefaultSpeed(const void* motion)
{
	return ((const lbRunMotion*)motion)->params.speed;
}

static lbResult lbMotionSample(void* motion, const lbRunContext* ctx, float dt, float speed, float turnRate,
							   lbTransform* ioCharacterWs, lbPose* pose)
{
	lbRunMotion* m = (lbRunMotion*)motion;
	m->params.speed = speed;
	m->params.turnRate = turnRate;
	m->state.characterWs = *ioCharacterWs;
	lbResult r = lbMotion_Sample(&m->state, ctx->skeleton, ctx->humanoid, &m->params, dt, pose);
	if (r == lb_ok)
		*ioCharacterWs = m->state.characterWs;
	return r;
}

static bool lbMotionSupport(const void* motion, lbVec3 outWs[2])
{
	const lbRunMotion* m = (const lbRunMotion*)motion;
	if (m->state.motion != lb_motionWalk && m->state.motion != lb_motionRun)
		return false;
	for (int side = 0; side < 2; ++side)
		outWs[side] = m->state.feet[side].targetWs;
	return true;
}

static const lbMotionEntry lbMotions[LB_MOTION_COUNT] = {
	{ "rest", false, lbCreateRest, lbMotionDestroy, lbMotionDefaultSpeed, lbMotionSample, lbMotionSupport },
	{ "idle", false, lbCreateIdle, lbMotionDestroy, lbMotionDefaultSpeed, lbMotionSample, lbMotionSupport },
	{ "walk", true, lbCreateWalk, lbMotionDestroy, lbMotionDefaultSpeed, lbMotionSample, lbMotionSupport },
	{ "run", true, lbCreateRunMotion, lbMotionDestroy, lbMotionDefaultSpeed, lbMotionSample, lbMotionSupport },
	{ "prone", false, lbCreateProne, lbMotionDestroy, lbMotionDefaultSpeed, lbMotionSample, lbMotionSupport },
	{ "crawl", true, lbCreateCrawl, lbMotionDestroy, lbMotionDefaultSpeed, lbMotionSample, lbMotionSupport },
	{ "clip", true, lbCreateClip, lbMotionDestroy, lbMotionDefaultSpeed, lbMotionSample, lbMotionSupport },
};

int lbScenarioMotionCount(void)
{
	return LB_MOTION_COUNT;
}

const char* lbScenarioMotionName(int index)
{
	return index >= 0 && index < LB_MOTION_COUNT ? lbMotions[index].name : NULL;
}

const lbMotionEntry* lbFindMotionEntry(const char* name)
{
	for (int i = 0; name && i < LB_MOTION_COUNT; ++i)
		if (strcmp(lbMotions[i].name, name) == 0)
			return &lbMotions[i];
	return NULL;
}
