// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Runs every shipped foot scenario (scenarios/foot_*.json: walk, run, idle and turn in place over
// flat ground, stairs, 15/30/40 degree slopes, rocky ground and a ledge, on both rigs) and checks
// the quality bars: no penetration over 1 cm and no hover over 2 cm on settled feet below the
// slope limit, no knee inversions, no NaN, locked feet slide at most 1 cm, and no pose pop of
// 15 degrees or more in a frame.
#define _POSIX_C_SOURCE 200809L
#include "limber/scenario.h"
#include "test_macros.h"

#include <dirent.h>
#include <stdlib.h>

static int compareNames(const void* a, const void* b)
{
	return strcmp(*(const char* const*)a, *(const char* const*)b);
}

static void test_foot_scenarios_meet_the_bars(void)
{
	char dirPath[1024];
	snprintf(dirPath, sizeof dirPath, "%s/scenarios", LB_SOURCE_DIR);
	DIR* dir = opendir(dirPath);
	ENSURE(dir != NULL);
	if (!dir)
		return;
	char* names[128];
	int count = 0;
	for (struct dirent* e = readdir(dir); e && count < 128; e = readdir(dir))
	{
		size_t n = strlen(e->d_name);
		if (strncmp(e->d_name, "foot_", 5) == 0 && n > 5 && strcmp(e->d_name + n - 5, ".json") == 0)
			names[count++] = strdup(e->d_name);
	}
	closedir(dir);
	qsort(names, (size_t)count, sizeof names[0], compareNames);
	ENSURE(count >= 20);
	for (int i = 0; i < count; ++i)
	{
		char path[1200], message[512];
		snprintf(path, sizeof path, "%s/%s", dirPath, names[i]);
		lbScenario* s = lbLoadScenario(path, message, (int)sizeof message);
		ENSURE(s != NULL);
		lbResult r = lb_errorInvalidArgument;
		lbRun* run = s ? lbCreateRun(s, &r) : NULL;
		ENSURE(run != NULL);
		while (run && !lbRun_IsDone(run))
			lbRun_Step(run);
		float slide = 0.0f;
		if (run)
		{
			const char* vn[32];
			float vv[32];
			int nv = lbRun_GetSystemValues(run, vn, vv, 32);
			for (int k = 0; k < nv; ++k)
				if (strcmp(vn[k], "locked_slide_max") == 0)
					slide = vv[k];
			lbRunView view = lbRun_GetView(run);
			const lbMetricsSummary* m = &view.summary;
			printf("  %-34s pen %.4f hover %.4f knee %d pop %.1f slide %.4f nan %d\n", names[i], (double)m->penetrationMax,
				   (double)m->hoverMax, m->kneeInversions, (double)m->posePopMax, (double)slide, m->nanFrames);
			ENSURE(m->nanFrames == 0);
			ENSURE(m->kneeInversions == 0);
			ENSURE(m->penetrationMax <= 0.01f);
			ENSURE(m->hoverMax <= 0.02f);
			ENSURE(slide <= 0.01f);
			ENSURE(m->posePopMax < 15.0f);
		}
		lbDestroyRun(run);
		lbDestroyScenario(s);
		free(names[i]);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_foot_scenarios_meet_the_bars);
	TEST_MAIN_END();
}
