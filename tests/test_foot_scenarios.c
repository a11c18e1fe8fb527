// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Runs every shipped foot scenario (scenarios/foot_*.json: walk, run, idle and turn over flat
// ground, stairs up and down to 0.30 m risers, 15-45 degree slopes up, down and across, rocks, a
// ledge, a beam, a gap and a trench, on both rigs) and holds each to the limits the metrics
// define (docs/metrics.md), measured against the world itself:
//   sole_penetration_max <= 0.01 m, limb_penetration_max <= 0.02 m, support_min >= 0.6,
//   knee_inversions == 0, limit_violations == 0, added_pop_max <= 15 degrees, nan_frames == 0,
//   unmeasured_frames == 0, locked slide <= 0.01 m (at the point the foot bears on).
// Every failing figure is printed with the scenario's name before the check.
#define _POSIX_C_SOURCE 200809L
#include "limber/scenario.h"
#include "test_macros.h"

#include <dirent.h>
#include <stdlib.h>

static int compareNames(const void* a, const void* b)
{
	return strcmp(*(const char* const*)a, *(const char* const*)b);
}

// Lists scenarios/foot_*.json, sorted; returns the count (names are the caller's to free).
static int listFootScenarios(const char* dirPath, char** names, int capacity)
{
	DIR* dir = opendir(dirPath);
	ENSURE(dir != NULL);
	if (!dir)
		return 0;
	int count = 0;
	for (struct dirent* e = readdir(dir); e && count < capacity; e = readdir(dir))
	{
		size_t n = strlen(e->d_name);
		if (strncmp(e->d_name, "foot_", 5) == 0 && n > 5 && strcmp(e->d_name + n - 5, ".json") == 0)
			names[count++] = strdup(e->d_name);
	}
	closedir(dir);
	qsort(names, (size_t)count, sizeof names[0], compareNames);
	return count;
}

static float systemValue(const lbRun* run, const char* name)
{
	const char* vn[32];
	float vv[32];
	int nv = lbRun_GetSystemValues(run, vn, vv, 32);
	for (int k = 0; k < nv && k < 32; ++k)
		if (strcmp(vn[k], name) == 0)
			return vv[k];
	return -1.0f;
}

static void test_foot_scenarios_meet_the_limits(void)
{
	char dirPath[1024];
	snprintf(dirPath, sizeof dirPath, "%s/scenarios", LB_SOURCE_DIR);
	char* names[256];
	int count = listFootScenarios(dirPath, names, 256);
	// The terrains the limits were set for: stairs both ways, steep slopes, rocks, edges.
	ENSURE(count >= 80);
	int failed = 0;
	for (int i = 0; i < count; ++i)
	{
		char path[1400], message[512];
		snprintf(path, sizeof path, "%s/%s", dirPath, names[i]);
		lbScenario* s = lbLoadScenario(path, message, (int)sizeof message);
		ENSURE(s != NULL);
		lbResult r = lb_errorInvalidArgument;
		lbRun* run = s ? lbCreateRun(s, &r) : NULL;
		ENSURE(run != NULL);
		while (run && !lbRun_IsDone(run))
			lbRun_Step(run);
		if (run)
		{
			const float slide = systemValue(run, "locked_slide_max");
			lbRunView view = lbRun_GetView(run);
			const lbMetricsSummary* m = &view.summary;
			bool ok = m->nanFrames == 0 && m->unmeasuredFrames == 0 && m->kneeInversions == 0 && m->limitViolations == 0 &&
					  m->solePenetrationMax >= 0.0f && m->solePenetrationMax <= 0.01f && m->limbPenetrationMax >= 0.0f &&
					  m->limbPenetrationMax <= 0.02f && m->supportMin >= 0.6f && m->addedPopMax <= 15.0f && slide >= 0.0f &&
					  slide <= 0.01f;
			printf("  %-40s sole %.4f limb %.4f support %.2f pop %.1f (source %.1f) knee %d limits %d slide %.4f "
				   "unmeasured %d nan %d%s\n",
				   names[i], (double)m->solePenetrationMax, (double)m->limbPenetrationMax, (double)m->supportMin,
				   (double)m->addedPopMax, (double)m->sourcePopMax, m->kneeInversions, m->limitViolations, (double)slide,
				   m->unmeasuredFrames, m->nanFrames, ok ? "" : "  <-- over a limit");
			failed += ok ? 0 : 1;
			ENSURE(m->nanFrames == 0);
			ENSURE(m->unmeasuredFrames == 0);
			ENSURE(m->kneeInversions == 0);
			ENSURE(m->limitViolations == 0);
			// Measured (>= 0) and within the limit; every foot scenario plants its feet.
			ENSURE(m->solePenetrationMax >= 0.0f && m->solePenetrationMax <= 0.01f);
			ENSURE(m->limbPenetrationMax >= 0.0f && m->limbPenetrationMax <= 0.02f);
			ENSURE(m->supportMin >= 0.6f);
			ENSURE(m->addedPopMax <= 15.0f);
			ENSURE(slide >= 0.0f && slide <= 0.01f);
		}
		lbDestroyRun(run);
		lbDestroyScenario(s);
		free(names[i]);
	}
	printf("  %d of %d foot scenarios over a limit\n", failed, count);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_foot_scenarios_meet_the_limits);
	TEST_MAIN_END();
}
