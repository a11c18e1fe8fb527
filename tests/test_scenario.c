// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Scenario files: every shipped file loads and runs; each kind of error names the file, the key
// path and what was expected; runs are deterministic (identical report bytes); inputs move the
// character; bad live input is refused without changing the run.
#define _POSIX_C_SOURCE 200809L
#include "limber/scenario.h"

#include "test_macros.h"

#include <cjson/cJSON.h>

#include <dirent.h>
#include <stdlib.h>

static int lbLoggedCode = -1;

static void lbTestLog(lbLogLevel level, lbResult code, const char* message, void* user)
{
	(void)level;
	(void)message;
	(void)user;
	lbLoggedCode = (int)code;
}

static void ShippedScenariosLoadAndRun(void)
{
	DIR* d = opendir(LB_SOURCE_DIR "/scenarios");
	ENSURE(d != NULL);
	if (!d)
		return;
	int count = 0;
	struct dirent* e;
	while ((e = readdir(d)))
	{
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		char path[1024], msg[512];
		snprintf(path, sizeof path, "%s/scenarios/%s", LB_SOURCE_DIR, e->d_name);
		lbLoggedCode = -1;
		lbSetLogFcn(lbTestLog, NULL);
		lbScenario* s = lbLoadScenario(path, msg, (int)sizeof msg);
		lbSetLogFcn(NULL, NULL);
		// Scenarios on test models from assimp-testmodels (installed by make deps) are skipped,
		// loudly, where that package is missing.
		if (!s && lbLoggedCode == lb_errorFileNotFound && strstr(msg, "rig.file"))
		{
			printf("  skipped (test model missing): %s\n", msg);
			continue;
		}
		if (!s)
			printf("  %s\n", msg);
		ENSURE(s != NULL);
		if (!s)
			continue;
		lbResult r;
		lbRun* run = lbCreateRun(s, &r);
		ENSURE(run != NULL && r == lb_ok);
		// A few frames are enough here; the determinism test runs a whole file.
		for (int i = 0; run && i < 10 && !lbRun_IsDone(run); ++i)
			ENSURE(lbRun_Step(run) == lb_ok);
		if (run)
			ENSURE(lbRun_GetView(run).summary.nanFrames == 0);
		lbDestroyRun(run);
		lbDestroyScenario(s);
		++count;
	}
	closedir(d);
	ENSURE(count >= 1);
}

static const char* const lbFull = "{\n"
								  " \"name\": \"full\", \"description\": \"every key\",\n"
								  " \"world\": {\"up\": [0, 0, 1], \"shapes\": [{\"builder\": \"flat\", \"params\": {\"origin\": [0, 0, 0.25]}}]},\n"
								  " \"rig\": \"mixamo\",\n"
								  " \"character\": {\"position\": [1, 2, 0], \"heading_deg\": 90},\n"
								  " \"motion\": {\"name\": \"rest\", \"speed\": 1.2},\n"
								  " \"system\": {\"name\": \"none\"},\n"
								  " \"timeline\": [\n"
								  "  {\"t\": 0.5, \"input\": \"velocity\", \"value\": [1, 0, 0]},\n"
								  "  {\"t\": 0.1, \"input\": \"state\", \"value\": \"falling\"},\n"
								  "  {\"t\": 0.2, \"input\": \"select_limb\", \"limb\": \"foot_r\"},\n"
								  "  {\"t\": 0.2, \"input\": \"stick\", \"x\": 0.5, \"y\": -1},\n"
								  "  {\"t\": 0.3, \"input\": \"confirm\"}, {\"t\": 0.3, \"input\": \"release\"},\n"
								  "  {\"t\": 0.4, \"input\": \"heading\", \"value\": 45}, {\"t\": 0.4, \"input\": \"jump\", \"value\": 3},\n"
								  "  {\"t\": 0.6, \"input\": \"teleport\", \"value\": [0, 0, 0]}\n"
								  " ],\n"
								  " \"dt\": 0.02, \"frames\": 50,\n"
								  " \"camera\": {\"target\": [0, 0, 1], \"yaw_deg\": 10, \"pitch_deg\": 20, \"distance\": 5, \"fov_deg\": 50, \"follow\": false}\n"
								  "}\n";

static void ValidFileFillsEveryField(void)
{
	char msg[512];
	lbScenario* s = lbParseScenario(lbFull, "full.json", msg, (int)sizeof msg);
	ENSURE(s != NULL);
	if (!s)
	{
		printf("  %s\n", msg);
		return;
	}
	ENSURE(strcmp(s->name, "full") == 0);
	ENSURE(strcmp(s->rig, "mixamo") == 0);
	ENSURE(s->shapeCount == 1 && s->shapes[0].paramCount == 1);
	ENSURE(s->shapes[0].params[0].type == 2);
	ENSURE_NEAR(s->shapes[0].params[0].vector.z, 0.25, 1e-6);
	ENSURE_VEC3_NEAR(s->position, lbMakeVec3(1, 2, 0), 1e-6);
	ENSURE_NEAR(s->headingDeg, 90.0, 1e-6);
	ENSURE_NEAR(s->motionSpeed, 1.2, 1e-6);
	ENSURE(s->eventCount == 9);
	// Sorted by time, file order kept for equal times.
	ENSURE(s->events[0].kind == lb_inputState && s->events[0].state == lb_stateFalling);
	ENSURE(s->events[1].kind == lb_inputSelectLimb && s->events[1].limb == 3);
	ENSURE(s->events[2].kind == lb_inputStick);
	ENSURE_NEAR(s->events[2].vector.y, -1.0, 1e-6);
	ENSURE(s->events[3].kind == lb_inputConfirm && s->events[4].kind == lb_inputRelease);
	for (int i = 1; i < s->eventCount; ++i)
		ENSURE(s->events[i - 1].time <= s->events[i].time);
	ENSURE_NEAR(s->dt, 0.02, 1e-7);
	ENSURE(s->frames == 50);
	ENSURE(!s->camera.follow);
	ENSURE_NEAR(s->camera.fovDeg, 50.0, 1e-6);
	lbResult r;
	lbRun* run = lbCreateRun(s, &r);
	ENSURE(run != NULL);
	lbRunView v = lbRun_GetView(run);
	// Standing on the raised flat ground at (1, 2).
	ENSURE_NEAR(lbSolePointWs(v.humanoid, v.pose, v.characterWs, 0).z, 0.25, 1e-4);
	while (run && !lbRun_IsDone(run))
		lbRun_Step(run);
	v = lbRun_GetView(run);
	ENSURE(v.frame == 50);
	ENSURE(v.summary.nanFrames == 0);
	lbDestroyRun(run);
	lbDestroyScenario(s);
}

typedef struct lbBadCase
{
	const char* json;
	lbResult code;
	const char* mustContain[3];
} lbBadCase;

static void EachErrorNamesFilePathAndExpectation(void)
{
	static const lbBadCase cases[] = {
		{ "{\"frames\": 10,\n \"dt\": }", lb_errorParse, { "bad.json", "line 2", "invalid JSON" } },
		{ "[1, 2]", lb_errorParse, { "bad.json", "top level", "object" } },
		{ "{\"frobnicate\": 1}", lb_errorParse, { "bad.json", "frobnicate", "unknown key" } },
		{ "{\"dt\": \"fast\"}", lb_errorParse, { "bad.json", "dt", "expected a number" } },
		{ "{\"dt\": 0}", lb_errorParse, { "dt", "expected a number in", NULL } },
		{ "{\"frames\": 2.5}", lb_errorParse, { "frames", "whole number", NULL } },
		{ "{\"frames\": 1, \"frames\": 2}", lb_errorParse, { "frames", "twice", NULL } },
		{ "{\"world\": {\"up\": [0, 0]}}", lb_errorParse, { "world.up", "3 numbers", NULL } },
		{ "{\"world\": {\"up\": [0, 0, 0]}}", lb_errorParse, { "world.up", "non-zero", NULL } },
		{ "{\"world\": {\"shapes\": [{\"builder\": \"flat\", \"params\": {\"hieght\": 1}}]}}", lb_errorParse,
		  { "world.shapes[0].params.hieght", "unknown parameter", "ground_size" } },
		{ "{\"world\": {\"shapes\": [{\"builder\": \"moon\"}]}}", lb_errorUnsupported, { "world.shapes[0].builder", "moon", NULL } },
		{ "{\"world\": {\"shapes\": [{\"kind\": \"flat\"}]}}", lb_errorParse, { "world.shapes[0].kind", "unknown key", NULL } },
		{ "{\"world\": []}", lb_errorParse, { "world", "expected an object", NULL } },
		{ "{\"rig\": \"robot\"}", lb_errorUnsupported, { "rig", "robot", NULL } },
		{ "{\"rig\": 3}", lb_errorParse, { "rig", "mannequin", NULL } },
		{ "{\"rig\": {\"file\": \"no_such_rig.fbx\"}}", lb_errorFileNotFound, { "rig.file", "no_such_rig.fbx", NULL } },
		{ "{\"rig\": {\"path\": \"x.fbx\"}}", lb_errorParse, { "rig.path", "unknown key", NULL } },
		{ "{\"rig\": {\"file\": \"" LB_SOURCE_DIR "/scenarios/demo.json\", \"roles\": {\"tail\": \"b\"}}}", lb_errorParse,
		  { "rig.roles.tail", "unknown role", NULL } },
		{ "{\"rig\": {\"file\": \"" LB_SOURCE_DIR "/scenarios/demo.json\", \"toe_tip_length\": -0.1}}", lb_errorParse,
		  { "rig.toe_tip_length", "expected a number in", NULL } },
		{ "{\"rig\": {\"file\": \"" LB_SOURCE_DIR "/scenarios/demo.json\", \"toe_tip_length\": \"long\"}}", lb_errorParse,
		  { "rig.toe_tip_length", "expected a number", NULL } },
		{ "{\"motion\": \"clip\"}", lb_errorParse, { "motion", "rig.file", NULL } },
		{ "{\"motion\": {\"name\": \"clip\", \"clip_index\": 1.5}}", lb_errorParse, { "motion.clip_index", "whole number", NULL } },
		{ "{\"motion\": \"moonwalk\"}", lb_errorUnsupported, { "motion", "moonwalk", "available" } },
		{ "{\"motion\": {\"speed\": 1}}", lb_errorParse, { "motion.name", "missing", NULL } },
		{ "{\"motion\": {\"name\": \"run\", \"slow_on_flights\": 0}}", lb_errorParse, { "motion.slow_on_flights", "true or false", NULL } },
		{ "{\"motion\": {\"name\": \"clip\", \"root_velocity\": \"yes\"}}", lb_errorParse, { "motion.root_velocity", "true or false", NULL } },
		{ "{\"system\": \"teleporter\"}", lb_errorParse, { "system", "unknown system", NULL } },
		{ "{\"system\": {\"name\": \"none\", \"config\": {\"gain\": 1}}}", lb_errorParse, { "system.config", "no configuration", NULL } },
		{ "{\"timeline\": {}}", lb_errorParse, { "timeline", "expected an array", NULL } },
		{ "{\"timeline\": [{\"t\": 0, \"input\": \"dance\"}]}", lb_errorParse, { "timeline[0].input", "dance", "velocity" } },
		{ "{\"timeline\": [{\"input\": \"confirm\"}]}", lb_errorParse, { "timeline[0]", "\"t\"", NULL } },
		{ "{\"frames\": 10, \"timeline\": [{\"t\": 5, \"input\": \"confirm\"}]}", lb_errorParse, { "timeline[0].t", "expected a number in", NULL } },
		{ "{\"timeline\": [{\"t\": 0, \"input\": \"select_limb\", \"limb\": \"tail\"}]}", lb_errorParse,
		  { "timeline[0].limb", "hand_l", NULL } },
		{ "{\"timeline\": [{\"t\": 0, \"input\": \"stick\", \"x\": 2}]}", lb_errorParse, { "timeline[0].x", "[-1, 1]", NULL } },
		{ "{\"timeline\": [{\"t\": 0, \"input\": \"velocity\"}]}", lb_errorParse, { "timeline[0].value", "missing", NULL } },
		{ "{\"timeline\": [{\"t\": 0, \"input\": \"confirm\", \"value\": 1}]}", lb_errorParse, { "timeline[0].value", "unknown key", NULL } },
		{ "{\"timeline\": [{\"t\": 0, \"input\": \"state\", \"value\": \"flying\"}]}", lb_errorParse, { "timeline[0].value", "falling", NULL } },
		{ "{\"camera\": {\"pitch_deg\": 120}}", lb_errorParse, { "camera.pitch_deg", "[-89, 89]", NULL } },
		{ "{\"camera\": {\"follow\": 1}}", lb_errorParse, { "camera.follow", "true or false", NULL } },
		{ "{\"character\": {\"position\": [0, 0, \"x\"]}}", lb_errorParse, { "character.position", "finite", NULL } },
	};
	lbSetLogFcn(lbTestLog, NULL);
	for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i)
	{
		char msg[512] = "";
		lbLoggedCode = -1;
		lbScenario* s = lbParseScenario(cases[i].json, "bad.json", msg, (int)sizeof msg);
		ENSURE(s == NULL);
		lbDestroyScenario(s);
		ENSURE(lbLoggedCode == (int)cases[i].code);
		ENSURE(strncmp(msg, "bad.json: ", 10) == 0);
		ENSURE(strchr(msg, '\n') == NULL);
		for (int k = 0; k < 3 && cases[i].mustContain[k]; ++k)
		{
			bool has = strstr(msg, cases[i].mustContain[k]) != NULL;
			if (!has)
				printf("  case %d: \"%s\" lacks \"%s\"\n", i, msg, cases[i].mustContain[k]);
			ENSURE(has);
		}
	}
	// Systems of limber that this build does not have yet are named as such.
	static const char* const planned[] = { "foot", "climb", "prone" };
	for (int k = 0; k < 3; ++k)
	{
		bool have = false;
		for (int i = 0; i < lbScenarioSystemCount(); ++i)
			have = have || strcmp(lbScenarioSystemName(i), planned[k]) == 0;
		char json[128], m[512];
		snprintf(json, sizeof json, "{\"system\": \"%s\"}", planned[k]);
		lbLoggedCode = -1;
		lbScenario* s = lbParseScenario(json, "bad.json", m, (int)sizeof m);
		ENSURE((s != NULL) == have);
		if (!have)
			ENSURE(lbLoggedCode == lb_errorUnsupported && strstr(m, "not available") && strstr(m, planned[k]));
		lbDestroyScenario(s);
	}
	char msg[512];
	lbLoggedCode = -1;
	ENSURE(lbLoadScenario(LB_SOURCE_DIR "/scenarios/no_such_file.json", msg, (int)sizeof msg) == NULL);
	ENSURE(lbLoggedCode == lb_errorFileNotFound);
	ENSURE(strstr(msg, "no_such_file.json") != NULL);
	ENSURE(lbParseScenario(NULL, "x", msg, (int)sizeof msg) == NULL);
	lbSetLogFcn(NULL, NULL);
}

static char* lbRunToReport(const char* json)
{
	lbScenario* s = lbParseScenario(json, "det.json", NULL, 0);
	ENSURE(s != NULL);
	lbRun* run = lbCreateRun(s, NULL);
	ENSURE(run != NULL);
	while (run && !lbRun_IsDone(run))
		lbRun_Step(run);
	char* text = lbRun_ReportJson(run, false);
	lbDestroyRun(run);
	lbDestroyScenario(s);
	return text;
}

static void ReportsAreDeterministic(void)
{
	char* a = lbRunToReport(lbFull);
	char* b = lbRunToReport(lbFull);
	ENSURE(a && b && strcmp(a, b) == 0);
	// Timing lives in its own object, left out on request.
	ENSURE(a && strstr(a, "\"timing\"") == NULL && strstr(a, "solve_us") == NULL);
	ENSURE(a && strstr(a, "\"knee_inversions\"") && strstr(a, "\"penetration_max\"") && strstr(a, "\"series\""));
	// The world metrics, in the summary and as per-frame series.
	static const char* const keys[] = { "\"sole_penetration_max\"", "\"limb_penetration_max\"", "\"support_min\"",
										"\"hover_max\"", "\"added_pop_max\"", "\"source_pop_max\"", "\"source_limit_violations\"", "\"floating_max\"",
										"\"floating_time\"", "\"unmeasured_frames\"", "\"unmeasured_reason\"",
										"\"sole_penetration\"", "\"limb_penetration\"", "\"support_l\"", "\"support_r\"",
										"\"added_pop_deg\"", "\"source_pop_deg\"", "\"floating\"", "\"unmeasured\"" };
	for (int i = 0; i < (int)(sizeof keys / sizeof keys[0]); ++i)
		ENSURE(a && strstr(a, keys[i]) != NULL);
	// Every frame of this run was measured against its world.
	const char* unmeasured = a ? strstr(a, "\"unmeasured_frames\":") : NULL;
	ENSURE(unmeasured && strtol(unmeasured + strlen("\"unmeasured_frames\":"), NULL, 10) == 0);
	lbFreeText(a);
	lbFreeText(b);
}

// The frame of the first largest (sign 1) or smallest (sign -1) number in a report's series, -1 when
// none is past `past` (past is excluded: a max must exceed it, a min lie below it).
static int lbSeriesArg(const cJSON* series, double past, int sign)
{
	int at = -1, i = 0;
	double best = past;
	for (const cJSON* v = series ? series->child : NULL; v; v = v->next, ++i)
		if (cJSON_IsNumber(v) && (v->valuedouble - best) * sign > 0.0)
		{
			best = v->valuedouble;
			at = i;
		}
	return at;
}

// The report says where its worst values were met, and they are where its own per-frame series
// has them: a walk down rough ground, both rigs (the deepest sole point's frame, the deepest limb
// penetration's, the least support's and the largest added pop's), with the foot, point, segment
// and bone named.
static void ReportSaysWhereTheWorstWas(void)
{
	static const char* const rigs[2] = { "mannequin", "mixamo" };
	for (int r = 0; r < 2; ++r)
	{
		char json[512];
		snprintf(json, sizeof json,
				 "{\"world\": {\"shapes\": [{\"builder\": \"rocky\", \"params\": {\"amplitude\": 0.45, \"scale\": 2.0, "
				 "\"size\": 30, \"seed\": 12}}]}, \"rig\": \"%s\", \"motion\": \"walk\", \"system\": \"foot\", "
				 "\"timeline\": [{\"t\": 0, \"input\": \"velocity\", \"value\": [1.4, 0, 0]}], \"frames\": 120}",
				 rigs[r]);
		char* text = lbRunToReport(json);
		cJSON* root = text ? cJSON_Parse(text) : NULL;
		ENSURE(root != NULL);
		const cJSON* summary = cJSON_GetObjectItemCaseSensitive(root, "summary");
		const cJSON* series = cJSON_GetObjectItemCaseSensitive(root, "series");
		const cJSON* at = cJSON_GetObjectItemCaseSensitive(summary, "worst_at");
		ENSURE(cJSON_IsObject(at));
		static const struct
		{
			const char* at;
			const char* series;
			const char* what;
			int sign;
		} entries[] = { { "sole_penetration", "sole_penetration", "point", 1 },
						{ "limb_penetration", "limb_penetration", "segment", 1 },
						{ "added_pop", "added_pop_deg", "bone", 1 } };
		for (int k = 0; k < 3 && at; ++k)
		{
			const cJSON* e = cJSON_GetObjectItemCaseSensitive(at, entries[k].at);
			const int want = lbSeriesArg(cJSON_GetObjectItemCaseSensitive(series, entries[k].series), 0.0, entries[k].sign);
			if (want < 0)
			{
				ENSURE(cJSON_IsNull(e));
				continue;
			}
			// At the series' largest value (two frames may print the same: either is that value).
			const cJSON* frame = cJSON_GetObjectItemCaseSensitive(e, "frame");
			const cJSON* ser = cJSON_GetObjectItemCaseSensitive(series, entries[k].series);
			const cJSON* got = cJSON_IsNumber(frame) ? cJSON_GetArrayItem(ser, frame->valueint) : NULL;
			const cJSON* best = cJSON_GetArrayItem(ser, want);
			ENSURE(got && best && cJSON_IsNumber(got) && got->valuedouble == best->valuedouble);
			ENSURE(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, entries[k].what)));
		}
		// The least support: the frame of the first smallest share over both feet's series.
		const cJSON* sup = cJSON_GetObjectItemCaseSensitive(at, "support");
		const int l = lbSeriesArg(cJSON_GetObjectItemCaseSensitive(series, "support_l"), 2.0, -1);
		const int rr = lbSeriesArg(cJSON_GetObjectItemCaseSensitive(series, "support_r"), 2.0, -1);
		ENSURE(l >= 0 || rr >= 0);
		const cJSON* frame = cJSON_GetObjectItemCaseSensitive(sup, "frame");
		const cJSON* foot = cJSON_GetObjectItemCaseSensitive(sup, "foot");
		ENSURE(cJSON_IsNumber(frame) && cJSON_IsString(foot));
		if (cJSON_IsNumber(frame) && cJSON_IsString(foot))
		{
			const bool left = strcmp(foot->valuestring, "left") == 0;
			const cJSON* ser = cJSON_GetObjectItemCaseSensitive(series, left ? "support_l" : "support_r");
			const cJSON* v = cJSON_GetArrayItem(ser, frame->valueint);
			ENSURE_NEAR(v ? v->valuedouble : -1.0, cJSON_GetObjectItemCaseSensitive(summary, "support_min")->valuedouble, 1.0e-6);
		}
		printf("  %s: sole at %d, limb at %d, pop at %d\n", rigs[r],
			   lbSeriesArg(cJSON_GetObjectItemCaseSensitive(series, "sole_penetration"), 0.0, 1),
			   lbSeriesArg(cJSON_GetObjectItemCaseSensitive(series, "limb_penetration"), 0.0, 1),
			   lbSeriesArg(cJSON_GetObjectItemCaseSensitive(series, "added_pop_deg"), 0.0, 1));
		cJSON_Delete(root);
		lbFreeText(text);
	}
}

static void InputsMoveTheCharacter(void)
{
	const char* json = "{\"frames\": 60, \"dt\": 0.02, \"timeline\": [{\"t\": 0, \"input\": \"velocity\", \"value\": [1, 0, 0]},"
					   " {\"t\": 0.6, \"input\": \"jump\", \"value\": 3}]}";
	lbScenario* s = lbParseScenario(json, "move.json", NULL, 0);
	lbRun* run = lbCreateRun(s, NULL);
	ENSURE(run != NULL);
	if (!run)
		return;
	for (int i = 0; i < 30; ++i)
		lbRun_Step(run);
	lbRunView v = lbRun_GetView(run);
	ENSURE_NEAR(v.characterWs.p.x, 0.6, 1e-4);
	ENSURE(v.state == lb_stateGrounded);
	lbRun_Step(run);
	lbRun_Step(run);
	v = lbRun_GetView(run);
	ENSURE(v.state == lb_stateFalling);
	ENSURE(v.characterWs.p.z > 0.0f);
	// 3 m/s up lands after about 0.61 s.
	for (int i = 0; i < 28; ++i)
		lbRun_Step(run);
	v = lbRun_GetView(run);
	ENSURE(v.state == lb_stateGrounded || v.state == lb_stateLanding);
	ENSURE(lbRun_IsDone(run));

	// Bad live input is refused and changes nothing.
	lbSetLogFcn(lbTestLog, NULL);
	lbScenarioEvent bad;
	memset(&bad, 0, sizeof bad);
	bad.kind = lb_inputVelocity;
	bad.vector = lbMakeVec3(NAN, 0.0f, 0.0f);
	lbLoggedCode = -1;
	ENSURE(lbRun_ApplyInput(run, &bad) == lb_errorNonFinite);
	ENSURE(lbLoggedCode == lb_errorNonFinite);
	bad.vector = lbVec3_zero;
	bad.kind = (lbInputKind)99;
	ENSURE(lbRun_ApplyInput(run, &bad) == lb_errorInvalidArgument);
	ENSURE(lbRun_StepBy(run, 0.0f) == lb_errorInvalidArgument);
	ENSURE(lbRun_StepBy(run, 5.0f) == lb_errorInvalidArgument);
	ENSURE(lbRun_StepBy(run, 0.01f) == lb_ok);
	ENSURE(lbRun_SetDragTarget(run, 0, lbVec3_zero) == lb_errorUnsupported);
	ENSURE(lbRun_SetCameraPosition(run, lbMakeVec3(NAN, 0.0f, 0.0f)) == lb_errorNonFinite);
	ENSURE(lbRun_SetCameraPosition(run, lbMakeVec3(0.0f, -4.0f, 1.0f)) == lb_ok);
	ENSURE(lbCreateRun(NULL, NULL) == NULL);
	ENSURE(lbRun_Step(NULL) == lb_errorNullPointer);
	lbSetLogFcn(NULL, NULL);
	lbDestroyRun(run);
	lbDestroyScenario(s);
}

// A stepping character keeps to the line of stairs (running up 0.18 m risers on 0.28 m treads it
// stays within 0.15 m of the line through the middle of each riser, where following the ground
// under its centre trails it by over 0.2 m), steps down 0.3 and 0.5 m ledges without falling (a
// person steps down up to about 0.6 leg lengths, 0.50 m for these rigs), and falls off a 0.7 m one.
static void GroundFollowingStepsAndFalls(void)
{
	const float riser = 0.18f, tread = 0.28f, start = 1.0f;
	const int count = 12;
	char json[1024];
	snprintf(json, sizeof json,
			 "{\"world\": {\"shapes\": [{\"builder\": \"stairs\", \"params\": {\"riser\": %g, \"tread\": %g, \"count\": %d, "
			 "\"distance\": %g}}]}, \"rig\": \"mannequin\", \"motion\": \"run\", \"system\": \"none\", \"frames\": 90,"
			 " \"dt\": 0.016666667, \"timeline\": [{\"t\": 0, \"input\": \"velocity\", \"value\": [3.5, 0, 0]}]}",
			 (double)riser, (double)tread, count, (double)start);
	lbScenario* s = lbParseScenario(json, "stairs_run.json", NULL, 0);
	lbRun* run = s ? lbCreateRun(s, NULL) : NULL;
	ENSURE(run != NULL);
	float worst = 0.0f;
	int measured = 0;
	while (run && !lbRun_IsDone(run))
	{
		lbRun_Step(run);
		lbVec3 p = lbRun_GetView(run).characterWs.p;
		if (p.x >= start + 2.0f * tread && p.x <= start + (float)(count - 2) * tread)
		{
			worst = lbMaxF(worst, lbAbsF(p.z - (riser * (p.x - start) / tread + 0.5f * riser)));
			++measured;
		}
	}
	printf("  running up stairs: height within %.3f m of the stair line (%d frames)\n", (double)worst, measured);
	ENSURE(measured > 20);
	ENSURE(worst < 0.15f);
	lbDestroyRun(run);
	lbDestroyScenario(s);

	const float drops[3] = { 0.3f, 0.5f, 0.7f };
	for (int k = 0; k < 3; ++k)
	{
		snprintf(json, sizeof json,
				 "{\"world\": {\"shapes\": [{\"builder\": \"step_down\", \"params\": {\"drop\": %g, \"distance\": 1.0}}]},"
				 " \"rig\": \"mannequin\", \"motion\": \"walk\", \"system\": \"none\", \"frames\": 150, \"dt\": 0.016666667,"
				 " \"timeline\": [{\"t\": 0, \"input\": \"velocity\", \"value\": [1.4, 0, 0]}]}",
				 (double)drops[k]);
		s = lbParseScenario(json, "ledge.json", NULL, 0);
		run = s ? lbCreateRun(s, NULL) : NULL;
		ENSURE(run != NULL);
		bool fell = false;
		while (run && !lbRun_IsDone(run))
		{
			lbRun_Step(run);
			fell = fell || lbRun_GetView(run).state == lb_stateFalling;
		}
		if (run)
		{
			lbRunView v = lbRun_GetView(run);
			ENSURE(v.characterWs.p.x > 2.0f);
			ENSURE_NEAR(v.characterWs.p.z, -drops[k], 0.01f);
		}
		ENSURE(fell == (k == 2));
		lbDestroyRun(run);
		lbDestroyScenario(s);
	}
}

// Runs a walk (system none) over one scene builder at 1.4 m/s and returns the run's lowest and last
// character heights, whether it ever fell, and its last position.
typedef struct lbWalkResult
{
	float lowest, last;
	bool fell;
	lbVec3 end;
} lbWalkResult;

static lbWalkResult lbWalkOver(const char* builderAndParams, int frames)
{
	lbWalkResult w = { 1.0e9f, 0.0f, false, { 0, 0, 0 } };
	char json[1024];
	snprintf(json, sizeof json,
			 "{\"world\": {\"shapes\": [%s]}, \"rig\": \"mannequin\", \"motion\": \"walk\", \"system\": \"none\","
			 " \"frames\": %d, \"dt\": 0.016666667, \"timeline\": [{\"t\": 0, \"input\": \"velocity\", \"value\": [1.4, 0, 0]}]}",
			 builderAndParams, frames);
	lbScenario* s = lbParseScenario(json, "gap.json", NULL, 0);
	lbRun* run = s ? lbCreateRun(s, NULL) : NULL;
	ENSURE(run != NULL);
	while (run && !lbRun_IsDone(run))
	{
		ENSURE(lbRun_Step(run) == lb_ok);
		lbRunView v = lbRun_GetView(run);
		w.lowest = lbMinF(w.lowest, v.characterWs.p.z);
		w.last = v.characterWs.p.z;
		w.end = v.characterWs.p;
		w.fell = w.fell || v.state == lb_stateFalling;
	}
	lbDestroyRun(run);
	lbDestroyScenario(s);
	return w;
}

// Walking across a 0.4 m gap (narrower than a stride) the character keeps its height (never more
// than 2 cm lower) instead of dipping into it; a 1 m gap is a real drop: it falls and lands on the
// floor 1.5 m down; so does walking off a 0.7 m ledge (higher than a step down).
static void GapsAreWalkedAcrossLedgesFallenFrom(void)
{
	lbWalkResult w = lbWalkOver("{\"builder\": \"gap\", \"params\": {\"gap\": 0.4, \"depth\": 1.5, \"distance\": 1.5}}", 180);
	printf("  over a 0.4 m gap: lowest height %.3f m, ends at x %.2f\n", (double)w.lowest, (double)w.end.x);
	ENSURE(w.lowest >= -0.02f);
	ENSURE(!w.fell);
	ENSURE(w.end.x > 3.0f);
	ENSURE_NEAR(w.last, 0.0f, 0.01f);

	w = lbWalkOver("{\"builder\": \"gap\", \"params\": {\"gap\": 1.0, \"depth\": 1.5, \"distance\": 1.5}}", 150);
	ENSURE(w.fell);
	ENSURE_NEAR(w.lowest, -1.5f, 0.01f);

	w = lbWalkOver("{\"builder\": \"step_down\", \"params\": {\"drop\": 0.7, \"distance\": 1.0}}", 150);
	ENSURE(w.fell);
	ENSURE(w.end.x > 2.0f);
	ENSURE_NEAR(w.last, -0.7f, 0.01f);
}

// The height follows the feet on stairs without a lag that grows with the vertical speed. Running
// up and down 0.30 m risers on 0.30 m treads at 3.5 m/s (3 m/s vertically, a 45 degree flight), on
// both rigs: on the flight (1 m clear of its ends) the height keeps within 0.11 m of the line
// through the risers' middles and does not trail it on average by more than 2 cm. The support the
// height follows is the mean of the two feet's places, which in a run average up to 0.1 m ahead
// of the centre (a landing foot reaches ahead), so the height runs up to 0.1 m above the line going
// up and below it going down; a 10/s ease trailed it by 0.3 m (0.22 m off the line at most, 6 cm
// behind on average). No frame pops: the height changes by at most 4 cm more than the line does in
// a frame (5.8 cm a frame at this speed), and by at most 0.1 m (a third of a riser) anywhere.
static void StairHeightFollowsWithoutLag(void)
{
	const float riser = 0.3f, tread = 0.3f, start = 1.0f, speed = 3.5f;
	const int count = 20;
	const float top = start + (float)count * tread;
	const char* rigs[2] = { "mannequin", "mixamo" };
	for (int r = 0; r < 2; ++r)
		for (int down = 0; down < 2; ++down)
		{
			char json[1024];
			snprintf(json, sizeof json,
					 "{\"world\": {\"shapes\": [{\"builder\": \"stairs\", \"params\": {\"riser\": %g, \"tread\": %g, "
					 "\"count\": %d, \"distance\": %g, \"landing\": 4}}]}, \"character\": {\"position\": [%g, 0, 0], "
					 "\"heading_deg\": %d}, \"rig\": \"%s\", \"motion\": \"run\", \"system\": \"none\", \"frames\": 150,"
					 " \"dt\": 0.016666667, \"timeline\": [{\"t\": 0, \"input\": \"velocity\", \"value\": [%g, 0, 0]}]}",
					 (double)riser, (double)tread, count, (double)start, down ? (double)(top + 0.7f) : 0.0, down ? 180 : 0,
					 rigs[r], (double)(down ? -speed : speed));
			lbScenario* s = lbParseScenario(json, "stairs_lag.json", NULL, 0);
			lbRun* run = s ? lbCreateRun(s, NULL) : NULL;
			ENSURE(run != NULL);
			float worst = 0.0f, trail = 0.0f, popLine = 0.0f, pop = 0.0f;
			float prevH = 0.0f, prevLine = 0.0f;
			bool prevOnFlight = false;
			int measured = 0;
			for (int f = 0; run && !lbRun_IsDone(run); ++f)
			{
				lbRun_Step(run);
				lbRunView v = lbRun_GetView(run);
				ENSURE(v.state == lb_stateGrounded);
				float x = v.characterWs.p.x, h = v.characterWs.p.z;
				float line = riser * (x - start) / tread + 0.5f * riser;
				bool onFlight = x > start + 1.0f && x < top - 1.0f;
				if (f > 0)
					pop = lbMaxF(pop, lbAbsF(h - prevH));
				if (onFlight && prevOnFlight)
					popLine = lbMaxF(popLine, lbAbsF((h - prevH) - (line - prevLine)));
				if (onFlight)
				{
					worst = lbMaxF(worst, lbAbsF(h - line));
					// Trailing is below the line going up, above it going down.
					trail += down ? h - line : line - h;
					++measured;
				}
				prevH = h;
				prevLine = line;
				prevOnFlight = onFlight;
			}
			trail /= (float)(measured > 0 ? measured : 1);
			printf("  running %s 0.30 m stairs (%s): within %.3f m of the stair line, trailing %.3f m on average (%d "
				   "frames); most height change in a frame %.3f m, %.3f m beyond the line's\n",
				   down ? "down" : "up", rigs[r], (double)worst, (double)trail, measured, (double)pop, (double)popLine);
			ENSURE(measured > 50);
			ENSURE(worst < 0.11f);
			ENSURE(trail < 0.02f);
			ENSURE(popLine < 0.04f);
			ENSURE(pop < 0.10f);
			lbDestroyRun(run);
			lbDestroyScenario(s);
		}
}

// Walking off a 0.5 m ledge the character steps down rather than falls (a person steps down up to
// about 0.6 leg lengths), so the foot system keeps the trailing foot on the upper edge instead of
// fading out while it sinks 12 cm into the edge: on both rigs, with foot placement, no frame falls
// and no sole goes more than 1 cm, no limb more than 2 cm, into the world (the limits).
// Into and out of a 0.4 m deep trench it steps down and up without falling, on its floor in
// between and back on top after.
static void LedgesAndTrenchesAreSteppedDown(void)
{
	const char* rigs[2] = { "mannequin", "mixamo" };
	for (int r = 0; r < 2; ++r)
	{
		char json[1024];
		snprintf(json, sizeof json,
				 "{\"world\": {\"shapes\": [{\"builder\": \"step_down\", \"params\": {\"drop\": 0.5, \"distance\": 1.5}}]},"
				 " \"rig\": \"%s\", \"motion\": \"walk\", \"system\": \"foot\", \"frames\": 180, \"dt\": 0.016666667,"
				 " \"timeline\": [{\"t\": 0, \"input\": \"velocity\", \"value\": [1.4, 0, 0]}]}",
				 rigs[r]);
		lbScenario* s = lbParseScenario(json, "ledge50.json", NULL, 0);
		lbRun* run = s ? lbCreateRun(s, NULL) : NULL;
		ENSURE(run != NULL);
		bool fell = false;
		while (run && !lbRun_IsDone(run))
		{
			ENSURE(lbRun_Step(run) == lb_ok);
			fell = fell || lbRun_GetView(run).state != lb_stateGrounded;
		}
		if (run)
		{
			lbRunView v = lbRun_GetView(run);
			printf("  stepping off a 0.5 m ledge (%s): sole penetration %.4f m, limb %.4f m\n", rigs[r],
				   (double)v.summary.solePenetrationMax, (double)v.summary.limbPenetrationMax);
			ENSURE(!fell);
			ENSURE_NEAR(v.characterWs.p.z, -0.5f, 0.01f);
			ENSURE(v.summary.solePenetrationMax >= 0.0f && v.summary.solePenetrationMax <= 0.01f);
			ENSURE(v.summary.limbPenetrationMax >= 0.0f && v.summary.limbPenetrationMax <= 0.02f);
		}
		lbDestroyRun(run);
		lbDestroyScenario(s);
	}

	lbWalkResult w = lbWalkOver("{\"builder\": \"gap\", \"params\": {\"gap\": 1.2, \"depth\": 0.4, \"distance\": 1.5}}", 240);
	printf("  through a 0.4 m deep trench: lowest height %.3f m, ends at x %.2f, height %.3f m\n", (double)w.lowest,
		   (double)w.end.x, (double)w.last);
	ENSURE(!w.fell);
	ENSURE_NEAR(w.lowest, -0.4f, 0.01f);
	ENSURE(w.end.x > 4.0f);
	ENSURE_NEAR(w.last, 0.0f, 0.01f);
}

// The character is placed on the first ground coming down from above the whole world: on a 30
// degree slope over flat ground, and on top of a block it was started inside. Walking off the end of
// the world is an error that names the place, logged once, and the run still reaches its end.
static void PlacedFromAboveFallIntoNothingFails(void)
{
	struct
	{
		const char* world;
		const char* position;
		float height;
	} cases[] = {
		{ "{\"builder\": \"slope\", \"params\": {\"angle_deg\": 30, \"length\": 6}}", "[2, 0, 0]",
		  2.0f * tanf(30.0f * LB_DEG2RAD) },
		{ "{\"builder\": \"ledge_top\", \"params\": {\"height\": 1.8, \"distance\": 0.6}}", "[1.2, 0, 0.5]", 1.8f },
		{ "{\"builder\": \"beam\", \"params\": {}}", "[0, 0, 0]", 0.5f },
	};
	for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i)
	{
		char json[1024];
		snprintf(json, sizeof json,
				 "{\"world\": {\"shapes\": [%s]}, \"character\": {\"position\": %s}, \"motion\": \"idle\", \"frames\": 30}",
				 cases[i].world, cases[i].position);
		lbScenario* s = lbParseScenario(json, "place.json", NULL, 0);
		lbRun* run = s ? lbCreateRun(s, NULL) : NULL;
		ENSURE(run != NULL);
		while (run && !lbRun_IsDone(run))
			ENSURE(lbRun_Step(run) == lb_ok);
		if (run)
		{
			lbRunView v = lbRun_GetView(run);
			ENSURE_NEAR(v.characterWs.p.z, cases[i].height, 1e-3f);
			ENSURE(v.state == lb_stateGrounded);
		}
		lbDestroyRun(run);
		lbDestroyScenario(s);
	}

	const char* json = "{\"world\": {\"shapes\": [{\"builder\": \"flat\", \"params\": {\"ground_size\": 3}}]},"
					   " \"motion\": \"walk\", \"frames\": 120,"
					   " \"timeline\": [{\"t\": 0, \"input\": \"velocity\", \"value\": [1.4, 0, 0]}]}";
	lbScenario* s = lbParseScenario(json, "void.json", NULL, 0);
	lbRun* run = s ? lbCreateRun(s, NULL) : NULL;
	ENSURE(run != NULL);
	int failed = 0, firstFailed = -1, logged = 0;
	lbSetLogFcn(lbTestLog, NULL);
	while (run && !lbRun_IsDone(run))
	{
		lbLoggedCode = -1;
		lbResult r = lbRun_Step(run);
		logged += lbLoggedCode == lb_errorInvalidArgument;
		if (r != lb_ok)
		{
			ENSURE(r == lb_errorInvalidArgument);
			firstFailed = firstFailed < 0 ? lbRun_GetView(run).frame : firstFailed;
			++failed;
		}
	}
	lbSetLogFcn(NULL, NULL);
	// Off the 1.5 m half-plate after about a second of walking; every frame after that fails.
	printf("  walking off the world: first error at frame %d, %d failed frames\n", firstFailed, failed);
	ENSURE(firstFailed > 30 && firstFailed < 100);
	ENSURE(failed == 120 - firstFailed + 1);
	ENSURE(logged == 1);
	ENSURE(run && lbRun_IsDone(run));
	lbDestroyRun(run);
	lbDestroyScenario(s);
}

static void PoseStreamHasEveryBone(void)
{
	lbScenario* s = lbParseScenario("{\"frames\": 3}", "poses.json", NULL, 0);
	lbRun* run = lbCreateRun(s, NULL);
	char path[1024];
	snprintf(path, sizeof path, "%s/test_scenario_poses.jsonl", LB_BINARY_DIR);
	FILE* f = fopen(path, "wb");
	ENSURE(f != NULL);
	if (!f || !run)
		return;
	ENSURE(lbRun_WritePoseHeader(run, f) == lb_ok);
	while (!lbRun_IsDone(run))
	{
		lbRun_Step(run);
		ENSURE(lbRun_WritePoseLine(run, f) == lb_ok);
	}
	fclose(f);
	f = fopen(path, "rb");
	char line[65536];
	int lines = 0;
	while (f && fgets(line, sizeof line, f))
	{
		if (lines == 0)
			ENSURE(strstr(line, "\"bones\"") && strstr(line, "\"pelvis\""));
		else
		{
			// One 10-number transform per bone.
			int open = 0;
			const char* m = strstr(line, "\"model\":[");
			ENSURE(m != NULL);
			for (const char* c = m ? m + 9 : line; m && *c && !(c[0] == ']' && c[1] == ']'); ++c)
				open += *c == '[';
			ENSURE(open == lbRun_GetView(run).skeleton->boneCount);
		}
		++lines;
	}
	if (f)
		fclose(f);
	ENSURE(lines == 4);
	remove(path);
	lbDestroyRun(run);
	lbDestroyScenario(s);
}

static float lbFootAlphaAfter(bool farCamera)
{
	lbScenario* s = lbParseScenario("{\"system\": \"foot\", \"motion\": \"idle\", \"frames\": 90}", "lod.json", NULL, 0);
	lbRun* run = lbCreateRun(s, NULL);
	ENSURE(run != NULL);
	float alpha = -1.0f;
	if (run)
	{
		if (farCamera)
			lbRun_SetCameraPosition(run, lbMakeVec3(100.0f, 0.0f, 2.0f));
		while (!lbRun_IsDone(run))
			lbRun_Step(run);
		const char* names[16];
		float values[16];
		int n = lbRun_GetSystemValues(run, names, values, 16);
		for (int i = 0; i < n && i < 16; ++i)
			if (strcmp(names[i], "alpha") == 0)
				alpha = values[i];
	}
	lbDestroyRun(run);
	lbDestroyScenario(s);
	return alpha;
}

// The viewer's camera reaches the systems: far away, the foot system's distance LOD fades it out.
static void CameraPositionReachesTheSystems(void)
{
	ENSURE_NEAR(lbFootAlphaAfter(false), 1.0, 1e-3);
	ENSURE(lbFootAlphaAfter(true) < 0.01f);
}

// motion.root_velocity tells the systems the velocity the motion carried the character at, along
// the ground: every frame the view's velocity times dt is the frame's move, for a clip's root motion
// (which the controller alone reports as none) and for a walk speeding up from rest on both
// reference rigs (where the controller reports the asked 1.4 m/s from the first frame).
static double RootVelocityRun(const char* json, double* outFirst)
{
	lbScenario* s = lbParseScenario(json, "root_velocity.json", NULL, 0);
	ENSURE(s != NULL);
	lbRun* run = s ? lbCreateRun(s, NULL) : NULL;
	ENSURE(run != NULL);
	double worstGap = 0.0, fastest = 0.0;
	*outFirst = -1.0;
	if (run)
	{
		lbVec3 was = lbRun_GetView(run).characterWs.p;
		for (int i = 0; i < 240 && !lbRun_IsDone(run); ++i)
		{
			ENSURE(lbRun_Step(run) == lb_ok);
			const lbRunView v = lbRun_GetView(run);
			const lbVec3 move = lbProjectOnPlane(lbSub(v.characterWs.p, was), v.upWs);
			const lbVec3 told = lbProjectOnPlane(v.velocityWs, v.upWs);
			worstGap = fmax(worstGap, (double)lbLength(lbSub(lbMulSV(s->dt, told), move)));
			fastest = fmax(fastest, (double)lbLength(told));
			if (i == 0)
				*outFirst = (double)lbLength(told);
			was = v.characterWs.p;
		}
	}
	ENSURE(fastest > 0.3);
	lbDestroyRun(run);
	lbDestroyScenario(s);
	return worstGap;
}

static void RootVelocityIsTheMotionsMove(void)
{
	const char* rigs[2] = { "mannequin", "mixamo" };
	for (int r = 0; r < 2; ++r)
	{
		char json[256];
		snprintf(json, sizeof json, "{\"rig\": \"%s\", \"motion\": {\"name\": \"walk\", \"root_velocity\": true}, \"frames\": 90}", rigs[r]);
		double first;
		const double gap = RootVelocityRun(json, &first);
		printf("  walk on %s: the velocity told is the frame's move to %.2g m, %.2f m/s in the first frame\n", rigs[r], gap, first);
		ENSURE(gap < 1.0e-5);
		ENSURE(first >= 0.0 && first < 0.5); // the gait starts from rest, not at the asked 1.4 m/s
	}
	{
		// Without it the walk's first frame is told the asked speed.
		lbScenario* w = lbParseScenario("{\"motion\": \"walk\", \"frames\": 2}", "walk.json", NULL, 0);
		lbRun* run = w ? lbCreateRun(w, NULL) : NULL;
		ENSURE(run != NULL);
		if (run)
		{
			lbRun_Step(run);
			const lbRunView v = lbRun_GetView(run);
			ENSURE_NEAR(lbLength(lbProjectOnPlane(v.velocityWs, v.upWs)), 1.4, 1e-4);
		}
		lbDestroyRun(run);
		lbDestroyScenario(w);
	}
	const char* clip = "/usr/share/assimp/models/BVH/01_01.bvh";
	FILE* f = fopen(clip, "rb");
	if (!f)
		return;
	fclose(f);
	char json[512];
	snprintf(json, sizeof json, "{\"rig\": {\"file\": \"%s\"}, \"motion\": {\"name\": \"clip\", \"root_velocity\": true}, \"frames\": 240}", clip);
	double first;
	const double gap = RootVelocityRun(json, &first);
	printf("  CMU 01_01: the velocity told is the frame's move to %.2g m\n", gap);
	ENSURE(gap < 1.0e-5);
	// Without it a clip's character is told it stands, however its root moves it.
	snprintf(json, sizeof json, "{\"rig\": {\"file\": \"%s\"}, \"motion\": \"clip\", \"frames\": 90}", clip);
	lbScenario* s = lbParseScenario(json, "clip.json", NULL, 0);
	lbRun* run = s ? lbCreateRun(s, NULL) : NULL;
	ENSURE(run != NULL);
	for (int i = 0; run && i < 60; ++i)
	{
		lbRun_Step(run);
		const lbRunView v = lbRun_GetView(run);
		ENSURE(lbLength(lbProjectOnPlane(v.velocityWs, v.upWs)) == 0.0f);
	}
	lbDestroyRun(run);
	lbDestroyScenario(s);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	lbSetLogFcn(NULL, NULL);
	RUN_TEST(ShippedScenariosLoadAndRun);
	RUN_TEST(ValidFileFillsEveryField);
	RUN_TEST(EachErrorNamesFilePathAndExpectation);
	RUN_TEST(ReportsAreDeterministic);
	RUN_TEST(ReportSaysWhereTheWorstWas);
	RUN_TEST(InputsMoveTheCharacter);
	RUN_TEST(GroundFollowingStepsAndFalls);
	RUN_TEST(GapsAreWalkedAcrossLedgesFallenFrom);
	RUN_TEST(StairHeightFollowsWithoutLag);
	RUN_TEST(LedgesAndTrenchesAreSteppedDown);
	RUN_TEST(PlacedFromAboveFallIntoNothingFails);
	RUN_TEST(PoseStreamHasEveryBone);
	RUN_TEST(CameraPositionReachesTheSystems);
	RUN_TEST(RootVelocityIsTheMotionsMove);
	TEST_MAIN_END();
}
