// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Runs every shipped prone scenario (scenarios/prone_*.json: lying still and crawling on flat ground,
// 10, 20 and 30 degree slopes up, down and across, stair edges, the pointed roof's ridge, rocks, a
// trench edge, on the back on a slope, and going down from standing and back up, on both rigs) and
// holds each to the limits the metrics define (docs/metrics.md), measured against the world itself:
//   limb_penetration_max <= 0.02 m, torso_height_max <= 0.03 m, torso roll and pitch errors <= 5
//   degrees (the last three over the frames in which the torso rests on the ground), added_pop_max <=
//   15 degrees, nan_frames == 0, unmeasured_frames == 0.
// Every figure is printed with the scenario's name before the check.
//
// The scenarios in kKnownOver do not meet every limit yet. Each is held to ceilings a little above its
// figures when it was listed, so it can only get better, and a listed scenario that meets every limit
// fails the test until it is taken off the list: the list only shrinks.
#define _POSIX_C_SOURCE 200809L
#include "limber/scenario.h"
#include "test_macros.h"
#include "test_scenario_list.h"

// Ceilings of a scenario over a limit: limb penetration (m), torso height (m), torso roll and pitch
// errors (degrees), added pop (degrees). A metric within its limit has the limit.
typedef struct KnownOver
{
	const char* name;
	float limb, torso, roll, pitch, pop;
} KnownOver;

static const KnownOver kKnownOver[] = {
	{ "prone_stairs_mannequin.json", 0.020f, 0.039f, 5.0f, 11.0f, 15.0f },
	{ "prone_stairs_mixamo.json", 0.020f, 0.039f, 5.0f, 11.0f, 15.0f },
};

static const KnownOver* knownOver(const char* name)
{
	for (size_t i = 0; i < sizeof kKnownOver / sizeof kKnownOver[0]; ++i)
		if (strcmp(kKnownOver[i].name, name) == 0)
			return &kKnownOver[i];
	return NULL;
}

static void test_prone_scenarios_meet_the_limits(void)
{
	char dirPath[1024];
	snprintf(dirPath, sizeof dirPath, "%s/scenarios", LB_SOURCE_DIR);
	char* names[128];
	int count = lbTestListScenarios(dirPath, "prone_", names, 128);
	ENSURE(count >= 38);
	int failed = 0;
	for (int i = 0; i < count; ++i)
	{
		lbScenario* s = NULL;
		lbRun* run = lbTestOpenRun(dirPath, names[i], &s);
		while (run && !lbRun_IsDone(run))
			lbRun_Step(run);
		if (run)
		{
			lbRunView view = lbRun_GetView(run);
			const lbMetricsSummary* m = &view.summary;
			bool ok = m->nanFrames == 0 && m->unmeasuredFrames == 0 && m->limbPenetrationMax >= 0.0f &&
					  m->limbPenetrationMax <= 0.02f && m->torsoHeightMax <= 0.03f && m->torsoRollErrorMax <= 5.0f &&
					  m->torsoPitchErrorMax <= 5.0f && m->addedPopMax <= 15.0f;
			printf("  %-40s limb %.4f torso %.4f roll %.2f pitch %.2f pop %.1f (source %.1f) torso frames %d "
				   "unmeasured %d nan %d%s\n",
				   names[i], (double)m->limbPenetrationMax, (double)m->torsoHeightMax, (double)m->torsoRollErrorMax,
				   (double)m->torsoPitchErrorMax, (double)m->addedPopMax, (double)m->sourcePopMax, m->torsoFrames,
				   m->unmeasuredFrames, m->nanFrames, ok ? "" : "  <-- over a limit");
			failed += ok ? 0 : 1;
			ENSURE(m->nanFrames == 0);
			ENSURE(m->unmeasuredFrames == 0);
			// Every prone scenario lies on the ground for a while: the torso is measured.
			ENSURE(m->torsoFrames > 0 && m->torsoHeightMax >= 0.0f && m->limbPenetrationMax >= 0.0f);
			const KnownOver* k = knownOver(names[i]);
			if (!k)
			{
				ENSURE(m->limbPenetrationMax <= 0.02f);
				ENSURE(m->torsoHeightMax <= 0.03f);
				ENSURE(m->torsoRollErrorMax <= 5.0f);
				ENSURE(m->torsoPitchErrorMax <= 5.0f);
				ENSURE(m->addedPopMax <= 15.0f);
			}
			else
			{
				if (ok)
					printf("  %s meets every limit now: take it off kKnownOver\n", names[i]);
				ENSURE(!ok);
				ENSURE(m->limbPenetrationMax <= k->limb);
				ENSURE(m->torsoHeightMax <= k->torso);
				ENSURE(m->torsoRollErrorMax <= k->roll);
				ENSURE(m->torsoPitchErrorMax <= k->pitch);
				ENSURE(m->addedPopMax <= k->pop);
			}
		}
		lbDestroyRun(run);
		lbDestroyScenario(s);
		free(names[i]);
	}
	printf("  %d of %d prone scenarios over a limit (%d listed as known)\n", failed, count,
		   (int)(sizeof kKnownOver / sizeof kKnownOver[0]));
	for (size_t k = 0; k < sizeof kKnownOver / sizeof kKnownOver[0]; ++k)
	{
		char path[1400];
		snprintf(path, sizeof path, "%s/%s", dirPath, kKnownOver[k].name);
		FILE* file = fopen(path, "rb");
		ENSURE(file != NULL);
		if (file)
			fclose(file);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_prone_scenarios_meet_the_limits);
	TEST_MAIN_END();
}
