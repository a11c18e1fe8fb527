// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Base motions a scenario can name. Each entry writes the base pose the active system corrects.
#include "scenario_internal.h"

#include <string.h>

// Stateless entries return this address as their (non-NULL) state.
static const char lbStatelessToken = 0;

static void* lbRestCreate(const lbRunContext* ctx, lbResult* outResult)
{
	(void)ctx;
	*outResult = lb_ok;
	// Stateless: any non-NULL token will do.
	return (void*)&lbStatelessToken;
}

static void lbRestDestroy(void* motion)
{
	(void)motion;
}

static void lbRestSample(void* motion, const lbRunContext* ctx, float dt, lbPose* pose)
{
	(void)motion;
	(void)dt;
	lbPose_SetRest(pose, ctx->skeleton);
}

static const lbMotionEntry lbMotions[] = {
	{ "rest", lbRestCreate, lbRestDestroy, lbRestSample },
};

#define LB_MOTION_COUNT ((int)(sizeof lbMotions / sizeof lbMotions[0]))

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
