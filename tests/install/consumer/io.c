// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// A program built against an installed limber io layer: parses a scenario from text and runs it.
#include <limber/limber.h>
#include <limber/scenario.h>

#include <stdio.h>

static const char* const scenario = "{ \"name\": \"consumer\", \"world\": { \"shapes\": [ { \"builder\": \"stairs\" } ] },"
									" \"rig\": \"mixamo\", \"motion\": \"walk\", \"system\": \"foot\", \"frames\": 30 }";

int main(void)
{
	char message[512];
	lbScenario* s = lbParseScenario(scenario, "consumer.json", message, (int)sizeof message);
	if (!s)
	{
		printf("%s\n", message);
		return 1;
	}
	lbResult r = lb_ok;
	lbRun* run = lbCreateRun(s, &r);
	if (!run)
		return 1;
	while (!lbRun_IsDone(run))
		if (lbRun_Step(run) != lb_ok)
			return 1;
	lbRunView view = lbRun_GetView(run);
	printf("limber-io: %d frames, %d with a NaN\n", view.frame, view.summary.nanFrames);
	int bad = view.summary.nanFrames != 0;
	lbDestroyRun(run);
	lbDestroyScenario(s);
	return bad;
}
