// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Runs every shipped prone scenario (scenarios/prone_*.json: lying still and crawling on flat ground,
// 10, 20 and 30 degree slopes up, down and across, stair edges (0.18 m risers; low 0.135 m and
// steep 0.21 m ones with the hands held on a higher tread; shallow 0.127 m ones on 0.326 m
// treads; 0.16 m ones on 0.335 m treads with the held feet's toes across a nose; deep 0.171 x 0.374
// m and 0.208 x 0.365 m ones, the torso across one nose; 0.237 x 0.253 m ones rising 43 degrees), the
// pointed roof's ridge (20 degrees, and
// 12 degrees with the thighs across it), rocks (crawled over 0.08 and 0.111 m ones),
// a trench edge (and a hand or a foot over a shallow trench's), on the back on a slope, and going down from standing and back up, on both rigs)
// and holds each to the limits the metrics define (docs/metrics.md), measured against the world
// itself:
//   limb_penetration_max <= 0.02 m, torso_height_max <= 0.03 m, torso roll and pitch errors <= 5
//   degrees (the last three over the frames in which the torso rests on the ground), added_pop_max <=
//   15 degrees, nan_frames == 0, unmeasured_frames == 0.
// Every figure is printed with the scenario's name before the check.
#define _POSIX_C_SOURCE 200809L
#include "limber/scenario.h"
#include "test_macros.h"
#include "test_scenario_list.h"

static void test_prone_scenarios_meet_the_limits(void)
{
	char dirPath[1024];
	snprintf(dirPath, sizeof dirPath, "%s/scenarios", LB_SOURCE_DIR);
	char* names[128];
	int count = lbTestListScenarios(dirPath, "prone_", names, 128);
	ENSURE(count >= 54);
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
			ENSURE(m->limbPenetrationMax <= 0.02f);
			ENSURE(m->torsoHeightMax <= 0.03f);
			ENSURE(m->torsoRollErrorMax <= 5.0f);
			ENSURE(m->torsoPitchErrorMax <= 5.0f);
			ENSURE(m->addedPopMax <= 15.0f);
		}
		lbDestroyRun(run);
		lbDestroyScenario(s);
		free(names[i]);
	}
	printf("  %d of %d prone scenarios over a limit\n", failed, count);
	ENSURE(failed == 0);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_prone_scenarios_meet_the_limits);
	TEST_MAIN_END();
}
