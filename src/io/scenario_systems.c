// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Systems a scenario can name. A system joins by adding one entry here; "none" plays the base
// motion untouched and is always first.
#include "scenario_internal.h"

#include <stdlib.h>
#include <string.h>

// Stateless entries return this address as their (non-NULL) state.
static const char lbStatelessToken = 0;

static void* lbNoneCreate(const lbRunContext* ctx, const cJSON* config, lbResult* outResult)
{
	(void)ctx;
	(void)config;
	*outResult = lb_ok;
	return (void*)&lbStatelessToken;
}

static void lbNoneDestroy(void* system)
{
	(void)system;
}


static const lbSystemEntry lbSystemNone = {
	"none", "plays the base motion with no correction", NULL, lbNoneCreate, lbNoneDestroy, NULL, NULL, NULL, NULL,
	  NULL, NULL,
};

// The table: one line per system ("none" first). Systems with an adapter of their own define
// their entry in src/io/scenario_system_<name>.c.
static const lbSystemEntry* const lbSystems[] = {
	&lbSystemNone,
	&lbSystemFoot,
	&lbSystemClimb,
	&lbSystemProne,
	&lbSystemStory,
};

#define LB_SYSTEM_COUNT ((int)(sizeof lbSystems / sizeof lbSystems[0]))

int lbScenarioSystemCount(void)
{
	return LB_SYSTEM_COUNT;
}

const char* lbScenarioSystemName(int index)
{
	return index >= 0 && index < LB_SYSTEM_COUNT ? lbSystems[index]->name : NULL;
}

const char* lbScenarioSystemSummary(int index)
{
	return index >= 0 && index < LB_SYSTEM_COUNT ? lbSystems[index]->summary : NULL;
}

const lbSystemEntry* lbFindSystemEntry(const char* name)
{
	for (int i = 0; name && i < LB_SYSTEM_COUNT; ++i)
		if (strcmp(lbSystems[i]->name, name) == 0)
			return lbSystems[i];
	return NULL;
}
