// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The hold planner in the scenario runner: "planner": {"goal": [x, y, z]} in a climb config is
// checked when the file is read (a goal that is not three numbers, an unknown key), a goal no hold
// lies near fails the run's creation, and a reachable one is climbed: the run reports its moves
// played to the end with four limbs held; a move whose limb never gets to its hold fails a step.
#include "limber/scenario.h"
#include "test_macros.h"

static const char* kHead = "{\"name\": \"t\", \"world\": {\"shapes\": [{\"builder\": \"wall\", \"params\": {\"distance\": 0.35}}]},"
						   " \"rig\": \"%s\", \"motion\": \"idle\", \"system\": {\"name\": \"climb\", \"config\": %s},"
						   " \"timeline\": [], \"dt\": 0.016666667, \"frames\": %d}";

static lbScenario* parse(const char* rig, const char* config, int frames, char* message, int capacity)
{
	char json[2048];
	snprintf(json, sizeof json, kHead, rig, config, frames);
	return lbParseScenario(json, "planner.json", message, capacity);
}

static void test_planner_key_checked(void)
{
	char msg[512];
	const char* bad[] = { "{\"planner\": {\"goal\": [1, 2]}}", "{\"planner\": {\"goal\": \"up\"}}",
						  "{\"planner\": {\"target\": [0, 0, 3]}}", "{\"planner\": {}}", "{\"planner\": 3}",
						  "{\"balance_weight\": 2}" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
	{
		msg[0] = 0;
		lbScenario* s = parse("mannequin", bad[i], 10, msg, sizeof msg);
		printf("  %s -> %s\n", bad[i], msg);
		ENSURE(s == NULL);
		ENSURE(strstr(msg, "system.config") != NULL);
		lbDestroyScenario(s);
	}
	lbScenario* s = parse("mannequin", "{\"planner\": {\"goal\": [0.35, 0, 3]}, \"balance_weight\": 0.5}", 10, msg, sizeof msg);
	ENSURE(s != NULL);
	lbDestroyScenario(s);
}

static void test_unreachable_goal_fails_the_run(void)
{
	char msg[512];
	lbScenario* s = parse("mannequin", "{\"planner\": {\"goal\": [0.35, 0, 9]}}", 10, msg, sizeof msg);
	ENSURE(s != NULL);
	lbResult r = lb_ok;
	lbRun* run = s ? lbCreateRun(s, &r) : NULL;
	ENSURE(run == NULL);
	ENSURE(r != lb_ok);
	lbDestroyRun(run);
	lbDestroyScenario(s);
}

static void test_planner_climbs(void)
{
	const char* rigs[] = { "mannequin", "mixamo" };
	for (int k = 0; k < 2; ++k)
	{
		char msg[512];
		lbScenario* s = parse(rigs[k], "{\"planner\": {\"goal\": [0.35, 0, 2.6]}}", 1500, msg, sizeof msg);
		ENSURE(s != NULL);
		lbResult r = lb_ok;
		lbRun* run = s ? lbCreateRun(s, &r) : NULL;
		ENSURE(run != NULL && r == lb_ok);
		float move = 0, moves = 0, held = 0;
		int heldMax = 0;
		while (run && !lbRun_IsDone(run))
		{
			ENSURE(lbRun_Step(run) == lb_ok);
			const char* names[32];
			float values[32];
			int n = lbRun_GetSystemValues(run, names, values, 32);
			for (int i = 0; i < n && i < 32; ++i)
			{
				if (strcmp(names[i], "plan_move") == 0)
					move = values[i];
				else if (strcmp(names[i], "plan_moves") == 0)
					moves = values[i];
				else if (strcmp(names[i], "held") == 0)
					held = values[i];
			}
			heldMax = (int)held > heldMax ? (int)held : heldMax;
		}
		printf("  %s: move %g of %g, %g held at the end (%d at most)\n", rigs[k], (double)move, (double)moves, (double)held,
			   heldMax);
		ENSURE(moves >= 4 && move == moves);
		ENSURE(held == 4 && heldMax == 4);
		lbDestroyRun(run);
		lbDestroyScenario(s);
	}
}

// Limbs too slow to reach their holds (4 mm/s, so the driver's no-progress test never fires): the
// run does not stand still in silence; a step fails with an error once a move has taken longer
// than its time bound, and not before the first move had time to play out.
static void test_stalled_move_fails_the_run(void)
{
	const char* rigs[] = { "mannequin", "mixamo" };
	for (int k = 0; k < 2; ++k)
	{
		char msg[512];
		lbScenario* s = parse(rigs[k],
							  "{\"planner\": {\"goal\": [0.35, 0, 2.6]}, \"move_speed_hand\": 0.004, \"move_speed_foot\": 0.004}",
							  1500, msg, sizeof msg);
		ENSURE(s != NULL);
		lbResult r = lb_ok;
		lbRun* run = s ? lbCreateRun(s, &r) : NULL;
		ENSURE(run != NULL && r == lb_ok);
		int frame = 0;
		lbResult stepped = lb_ok;
		while (run && !lbRun_IsDone(run) && stepped == lb_ok)
		{
			stepped = lbRun_Step(run);
			++frame;
		}
		printf("  %s: step %d returned %d\n", rigs[k], frame, (int)stepped);
		ENSURE(stepped != lb_ok);
		ENSURE(frame > 60 * 5 && frame < 1500);
		lbDestroyRun(run);
		lbDestroyScenario(s);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_planner_key_checked);
	RUN_TEST(test_unreachable_goal_fails_the_run);
	RUN_TEST(test_planner_climbs);
	RUN_TEST(test_stalled_move_fails_the_run);
	TEST_MAIN_END();
}
