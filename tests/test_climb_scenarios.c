// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Runs every shipped climbing scenario (scenarios/climb_*.json: a vertical wall, a 70-degree slab,
// a 110-degree overhang, sparse holds on a wall that is not climbable, an inside corner and a
// ledge whose top the hands reach over, on both reference rigs and an imported one; each moves
// every limb in turn, crosses the hands, puts a foot high by the hip, reaches to the limit and
// releases) and holds each to the limits of the climbing system, over every frame, measured
// against the world itself (docs/metrics.md):
//   contact_drift_max <= 0.001 m (locked limbs), knee_inversions == elbow_inversions == 0,
//   palm_wall_angle_max <= 20 degrees (locked hands), limb_penetration_max <= 0.02 m,
//   added_pop_max <= 15 degrees (the candidate -> locked transition included), nan_frames == 0;
// and every scenario gets all four limbs onto the wall at once (the script did what it says), and a
// held foot's knee turns about its hip-foot line by more than 10 degrees on at most 60 frames.
// Every figure is printed with the scenario's name before the checks.
//
// Every shipped scenario meets every limit. kKnownOver is where a scenario that does not yet would
// be listed (none is: the entry with no name only keeps the array from being empty), held to
// ceilings a little above its figures when it was listed, so it can only get better; a listed
// scenario that meets every limit fails the test until it is taken off the list: the list only
// shrinks.
#define _POSIX_C_SOURCE 200809L
#include "limber/query.h"
#include "limber/scenario.h"
#include "limber/scenes.h"
#include "test_macros.h"
#include "test_scenario_list.h"

// Ceilings of a scenario over a limit: drift (m), limb penetration (m), added pop (degrees), palm
// angle (degrees). A metric within its limit has the limit.
typedef struct KnownOver
{
	const char* name;
	float drift, limb, pop, palm;
} KnownOver;

static const KnownOver kKnownOver[] = {
	{ "", 0.0f, 0.0f, 0.0f, 0.0f },
};

static const KnownOver* knownOver(const char* name)
{
	for (size_t i = 0; i < sizeof kKnownOver / sizeof kKnownOver[0]; ++i)
		if (kKnownOver[i].name[0] && strcmp(kKnownOver[i].name, name) == 0)
			return &kKnownOver[i];
	return NULL;
}

// Swivel of leg `s`'s knee about its hip-foot line (world, unit, perpendicular to the line) in
// the run's current pose; false when the leg has no length.
static bool kneeSwivelDir(const lbRunView* v, int s, lbVec3* out)
{
	const lbLegBones* leg = &v->humanoid->leg[s];
	const lbVec3 hip = lbTransformPoint(v->characterWs, v->pose->model[leg->thigh].p);
	const lbVec3 knee = lbTransformPoint(v->characterWs, v->pose->model[leg->calf].p);
	const lbVec3 foot = lbTransformPoint(v->characterWs, v->pose->model[leg->foot].p);
	const lbVec3 axis = lbSub(foot, hip);
	if (lbLengthSquared(axis) < 1.0e-6f)
		return false;
	const lbVec3 d = lbProjectOnPlane(lbSub(knee, hip), lbNormalize(axis));
	if (lbLengthSquared(d) < 1.0e-8f)
		return false;
	*out = lbNormalize(d);
	return true;
}

// True when leg `s`'s foot holds a locked contact this frame.
static bool footLocked(const lbRunView* v, int s)
{
	for (int k = 0; k < v->contactCount; ++k)
		if (v->contacts[k].kind == lb_contactFoot && v->contacts[k].locked &&
			(v->contacts[k].bone == v->humanoid->leg[s].foot || v->contacts[k].bone == v->humanoid->leg[s].ball ||
			 v->contacts[k].bone == v->humanoid->leg[s].calf))
			return true;
	return false;
}

static void test_climb_scenarios_meet_the_limits(void)
{
	char dirPath[1024];
	snprintf(dirPath, sizeof dirPath, "%s/scenarios", LB_SOURCE_DIR);
	char* names[128];
	int count = lbTestListScenarios(dirPath, "climb_", names, 128);
	// Six worlds on two rigs, and the imported rig.
	ENSURE(count >= 13);
	int failed = 0;
	for (int i = 0; i < count; ++i)
	{
		lbScenario* s = NULL;
		lbRun* run = lbTestOpenRun(dirPath, names[i], &s);
		int heldMax = 0;
		// A planned climb's move and its number of moves (0 without the planner).
		float planMove = 0.0f, planMoves = 0.0f;
		// A locked foot's knee about its hip-foot line: the largest turn from one frame to the
		// next while the foot stays locked, the frames over 10 degrees and the turn over them.
		bool lastValid[2] = { false, false };
		lbVec3 lastDir[2];
		float thighMax = 0.0f, thighSum = 0.0f;
		int thighOver = 0;
		while (run && !lbRun_IsDone(run))
		{
			lbRun_Step(run);
			const lbRunView lv = lbRun_GetView(run);
			for (int leg = 0; leg < 2; ++leg)
			{
				lbVec3 dir = lbVec3_zero; // read only when valid
				const bool valid = footLocked(&lv, leg) && kneeSwivelDir(&lv, leg, &dir);
				if (valid && lastValid[leg])
				{
					const float turn = acosf(lbClampF(lbDot(dir, lastDir[leg]), -1.0f, 1.0f)) * LB_RAD2DEG;
					thighMax = lbMaxF(thighMax, turn);
					if (turn > 10.0f)
					{
						++thighOver;
						thighSum += turn;
					}
				}
				lastValid[leg] = valid;
				lastDir[leg] = dir;
			}
			const char* vn[32];
			float vv[32];
			int nv = lbRun_GetSystemValues(run, vn, vv, 32);
			for (int k = 0; k < nv && k < 32; ++k)
			{
				if (strcmp(vn[k], "held") == 0 && (int)vv[k] > heldMax)
					heldMax = (int)vv[k];
				else if (strcmp(vn[k], "plan_move") == 0)
					planMove = vv[k];
				else if (strcmp(vn[k], "plan_moves") == 0)
					planMoves = vv[k];
			}
		}
		if (run)
		{
			lbRunView view = lbRun_GetView(run);
			const lbMetricsSummary* m = &view.summary;
			bool ok = m->nanFrames == 0 && m->kneeInversions == 0 && m->elbowInversions == 0 &&
					  m->contactDriftMax >= 0.0f && m->contactDriftMax <= 0.001f && m->limbPenetrationMax >= 0.0f &&
					  m->limbPenetrationMax <= 0.02f && m->addedPopMax <= 15.0f && m->palmWallAngleMax <= 20.0f;
			printf("  %-32s drift %.4f limb %.4f pop %.1f palm %.1f knee %d elbow %d limits %d sole %.4f held %d nan %d%s\n",
				   names[i], (double)m->contactDriftMax, (double)m->limbPenetrationMax, (double)m->addedPopMax,
				   (double)m->palmWallAngleMax, m->kneeInversions, m->elbowInversions, m->limitViolations,
				   (double)m->solePenetrationMax, heldMax, m->nanFrames, ok ? "" : "  <-- over a limit");
			printf("  %-32s locked knee turn: largest %.1f deg a frame, %d frames over 10 (%.0f deg); knees crossed %d frames, "
				   "%.3f m at most; self-penetration %.3f m\n",
				   names[i], (double)thighMax, thighOver, (double)thighSum, m->kneeCrossFrames, (double)m->kneeCrossMax,
				   (double)m->selfPenetrationMax);
			// Climbs whose feet each keep to their own side keep their knees there too (knee_cross,
			// docs/metrics.md): with the knee
			// pole's base offset toward the body's middle, both knees crossed between the legs for
			// 77-89 % of the wall and ledge climbs (0.30-0.34 m at most), and 37-67 frames on the holds.
			if (strncmp(names[i], "climb_wall_", 11) == 0 || strncmp(names[i], "climb_ledge", 11) == 0 ||
				strncmp(names[i], "climb_holds_", 12) == 0)
				ENSURE(m->kneeCrossMax <= 0.05f);
			// The elbow's swivel keeps the arm out of the chest (lbClimbElbowInTorso): on the holds,
			// where every hand is held, 0.093 / 0.122 m of self_penetration without it, 0.030 /
			// 0.045 with it. The other climbs' deepest frames are a released hand fading back to the
			// animation and a high step's calf through the other thigh (docs/climb.md).
			if (strncmp(names[i], "climb_holds_", 12) == 0)
				ENSURE(m->selfPenetrationMax <= 0.06f);
			// A hand let go across the body crosses back in front of the chest, its elbow kept out
			// of the torso on the way (lbClimbRoundTorso, lbClimbElbowPole): the wall, ledge and
			// slab climbs read as much as 0.128-0.133 m with the hand going straight back (0.104 now).
			if (strncmp(names[i], "climb_wall_", 11) == 0 || strncmp(names[i], "climb_ledge", 11) == 0 ||
				strncmp(names[i], "climb_slab_", 11) == 0)
				ENSURE(m->selfPenetrationMax <= 0.11f);
			failed += ok ? 0 : 1;
			// A held foot's knee turns smoothly: it swung back and forth at the turn limit (1,300
			// frames over 10 degrees in the planned holds climb, 750-860 on the planned slab and
			// wall on mixamo, 470 on the sparse holds); 1-39 are left, knees changing sides at the
			// turn limit.
			ENSURE(thighOver <= 60);
			ENSURE(thighMax <= 15.0f);
			ENSURE(m->nanFrames == 0);
			ENSURE(m->kneeInversions == 0);
			ENSURE(m->elbowInversions == 0);
			ENSURE(heldMax == 4);
			// A planned climb plays every move it planned, to the goal.
			if (planMoves > 0.0f)
				printf("  %-32s planned move %g of %g\n", names[i], (double)planMove, (double)planMoves);
			ENSURE(planMove == planMoves);
			// Measured: locked contacts and locked hands occur in every scenario.
			ENSURE(m->contactDriftMax >= 0.0f && m->limbPenetrationMax >= 0.0f && m->palmWallAngleMax >= 0.0f);
			const KnownOver* k = knownOver(names[i]);
			if (!k)
			{
				ENSURE(m->contactDriftMax <= 0.001f);
				ENSURE(m->limbPenetrationMax <= 0.02f);
				ENSURE(m->addedPopMax <= 15.0f);
				ENSURE(m->palmWallAngleMax <= 20.0f);
			}
			else
			{
				if (ok)
					printf("  %s meets every limit now: take it off kKnownOver\n", names[i]);
				ENSURE(!ok);
				ENSURE(m->contactDriftMax <= k->drift);
				ENSURE(m->limbPenetrationMax <= k->limb);
				ENSURE(m->addedPopMax <= k->pop);
				ENSURE(m->palmWallAngleMax <= k->palm);
			}
		}
		lbDestroyRun(run);
		lbDestroyScenario(s);
		free(names[i]);
	}
	printf("  %d of %d climbing scenarios over a limit\n", failed, count);
	for (size_t k = 0; k < sizeof kKnownOver / sizeof kKnownOver[0]; ++k)
	{
		if (!kKnownOver[k].name[0])
			continue;
		char path[1400];
		snprintf(path, sizeof path, "%s/%s", dirPath, kKnownOver[k].name);
		FILE* file = fopen(path, "rb");
		ENSURE(file != NULL);
		if (file)
			fclose(file);
	}
}

// A climber started under an overhang stands on the ground below it, not on the overhang's top,
// where the runner's cast from above the whole world used to put it: both where the underside is
// more than a character's height above the ground and where a face leaning 25 degrees over the
// start passes lower than the head (1.84 m above it; the character is taller). Checked against the
// same world built directly: a cast up from where the character stands meets the overhang's
// underside above it.
static void test_start_under_an_overhang_stays_under_it(void)
{
	const struct
	{
		float distance, angleDeg, height, x, minClearance;
	} cases[] = {
		{ 1.0f, 130.0f, 3.5f, -0.7f, 1.8f },
		{ 1.0f, 130.0f, 3.5f, -1.0f, 1.8f },
		{ 0.86f, 115.0f, 2.4f, 0.0f, 1.7f },
	};
	for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i)
	{
		char json[1024];
		snprintf(json, sizeof json,
				 "{\"world\": {\"shapes\": [{\"builder\": \"wall\", \"params\": {\"distance\": %g, \"angle_deg\": %g,"
				 " \"height\": %g}}]}, \"character\": {\"position\": [%g, 0, 0]}, \"motion\": \"idle\","
				 " \"system\": \"climb\", \"frames\": 2}",
				 (double)cases[i].distance, (double)cases[i].angleDeg, (double)cases[i].height, (double)cases[i].x);
		lbScenario* s = lbParseScenario(json, "under.json", NULL, 0);
		lbRun* run = s ? lbCreateRun(s, NULL) : NULL;
		ENSURE(run != NULL);
		if (!run)
		{
			lbDestroyScenario(s);
			continue;
		}
		const lbVec3 p = lbRun_GetView(run).characterWs.p;
		lbDestroyRun(run);
		lbDestroyScenario(s);

		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* world = lbCreateWorld(&wd);
		lbSceneDef params = lbDefaultSceneDef(lbSceneBuilderByName("wall"));
		ENSURE(lbSceneDef_Set(&params, "distance", cases[i].distance) == lb_ok);
		ENSURE(lbSceneDef_Set(&params, "angle", cases[i].angleDeg * LB_DEG2RAD) == lb_ok);
		ENSURE(lbSceneDef_Set(&params, "height", cases[i].height) == lb_ok);
		ENSURE(world && lbBuildScene(world, &params) == lb_ok);
		lbQueryInput up = lbDefaultQueryInput();
		up.start = lbMakeVec3(p.x, p.y, p.z + 0.05f);
		up.end = lbMakeVec3(p.x, p.y, p.z + 10.0f);
		const lbHit over = world ? lbWorld_RayCast(world, &up) : (lbHit){ 0 };
		printf("  started at x %.2f under a %.0f-degree overhang: stands at height %.3f m, the overhang %.3f m above\n",
			   (double)cases[i].x, (double)cases[i].angleDeg, (double)p.z,
			   over.hit ? (double)(over.impactPoint.z - p.z) : -1.0);
		ENSURE_NEAR(p.z, 0.0f, 1.0e-3f);
		ENSURE(over.hit && !over.startedInside && over.impactPoint.z > p.z + cases[i].minClearance);
		lbDestroyWorld(world);
	}
}

// A climber told to climb an overhang whose foot lies 1.1 m ahead (a 96-degree face leaning only
// 0.25 m closer at its 2.4 m top), out of reach of every limb: both hands and a foot search, the
// second foot's selection and every confirm are refused, nothing holds, and the climber stays on
// its feet (no floating span, the standing sole on the floor) while the runner says how far the
// wall lies beyond reach. Before, both feet lifted toward the wall and the hands' pull raised the
// body: it stood on air, 0.59 m up, for 14.7 s.
static void test_wall_out_of_reach_stands(void)
{
	static const char* const rigs[] = { "mannequin", "mixamo" };
	for (int r = 0; r < 2; ++r)
	{
		char json[2048];
		snprintf(json, sizeof json,
				 "{\"world\": {\"shapes\": [{\"builder\": \"wall\", \"params\": {\"distance\": 1.1, \"angle_deg\": 95.8,"
				 " \"height\": 2.4}}]}, \"rig\": \"%s\", \"motion\": \"idle\", \"system\": \"climb\", \"frames\": 420,"
				 " \"timeline\": [{\"t\": 0.2, \"input\": \"select_limb\", \"limb\": \"hand_r\"},"
				 " {\"t\": 0.25, \"input\": \"stick\", \"x\": 0.3, \"y\": 1.0},"
				 " {\"t\": 1.2, \"input\": \"select_limb\", \"limb\": \"hand_l\"},"
				 " {\"t\": 1.25, \"input\": \"stick\", \"x\": -0.3, \"y\": 1.0},"
				 " {\"t\": 2.2, \"input\": \"select_limb\", \"limb\": \"foot_r\"},"
				 " {\"t\": 2.25, \"input\": \"stick\", \"x\": 0.2, \"y\": 1.0},"
				 " {\"t\": 3.2, \"input\": \"select_limb\", \"limb\": \"foot_l\"},"
				 " {\"t\": 3.25, \"input\": \"stick\", \"x\": -0.2, \"y\": 1.0},"
				 " {\"t\": 4.0, \"input\": \"confirm\"},"
				 " {\"t\": 5.0, \"input\": \"select_limb\", \"limb\": \"hand_r\"},"
				 " {\"t\": 5.05, \"input\": \"stick\", \"x\": 1.0, \"y\": 1.0},"
				 " {\"t\": 6.5, \"input\": \"confirm\"}]}",
				 rigs[r]);
		lbScenario* s = lbParseScenario(json, "out_of_reach.json", NULL, 0);
		lbRun* run = s ? lbCreateRun(s, NULL) : NULL;
		ENSURE(run != NULL);
		float heldMax = 0.0f, beyondMin = 1e9f, beyondMax = 0.0f, footLMode = 0.0f;
		while (run && !lbRun_IsDone(run))
		{
			lbRun_Step(run);
			const char* vn[32];
			float vv[32];
			const int nv = lbRun_GetSystemValues(run, vn, vv, 32);
			float beyond = -1.0f, hands = 0.0f;
			for (int k = 0; k < nv && k < 32; ++k)
			{
				if (strcmp(vn[k], "held") == 0)
					heldMax = lbMaxF(heldMax, vv[k]);
				else if (strcmp(vn[k], "beyond_reach") == 0)
					beyond = vv[k];
				else if (strcmp(vn[k], "mode_foot_l") == 0)
					footLMode = lbMaxF(footLMode, vv[k]);
				else if (strcmp(vn[k], "mode_hand_r") == 0)
					hands = vv[k];
			}
			ENSURE(beyond >= 0.0f); // the runner gives the value
			if (hands != 0.0f && lbRun_GetView(run).time > 0.6f)
			{
				beyondMin = lbMinF(beyondMin, beyond);
				beyondMax = lbMaxF(beyondMax, beyond);
			}
		}
		if (run)
		{
			const lbRunView view = lbRun_GetView(run);
			const lbMetricsSummary* m = &view.summary;
			printf("  out of reach (%s): held %g, beyond reach %.3f-%.3f m, floating %.3f m, sole %.4f, limb %.4f, "
				   "pop %.1f, nan %d\n",
				   rigs[r], (double)heldMax, (double)beyondMin, (double)beyondMax, (double)m->floatingMax,
				   (double)m->solePenetrationMax, (double)m->limbPenetrationMax, (double)m->addedPopMax, m->nanFrames);
			ENSURE(heldMax == 0.0f);
			ENSURE(footLMode == 0.0f); // the last footing never lifted
			ENSURE(beyondMin > 0.25f && beyondMax < 0.8f);
			ENSURE(m->floatingMax == 0.0f);
			ENSURE(m->solePenetrationMax <= 0.012f);
			ENSURE(m->limbPenetrationMax <= 0.02f);
			ENSURE(m->addedPopMax <= 15.0f);
			ENSURE(m->nanFrames == 0);
		}
		lbDestroyRun(run);
		lbDestroyScenario(s);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_climb_scenarios_meet_the_limits);
	RUN_TEST(test_start_under_an_overhang_stays_under_it);
	RUN_TEST(test_wall_out_of_reach_stands);
	TEST_MAIN_END();
}
