// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Scenario files: strict JSON validation. Every unknown key, wrong type or out-of-range value is
// an error naming the file, the key path ("timeline[3].limb") and what was expected, so a typo
// never silently falls back to a default.
#define _POSIX_C_SOURCE 200809L
#include "scenario_internal.h"

#include "limber/rigs.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool lbJsonFail(lbJsonCheck* check, lbResult code, const char* path, const char* format, ...)
{
	if (check->code != lb_ok)
		return false;
	char detail[384];
	va_list args;
	va_start(args, format);
	vsnprintf(detail, sizeof detail, format, args);
	va_end(args);
	char line[640];
	snprintf(line, sizeof line, "%s: %s: %s", check->file && check->file[0] ? check->file : "<scenario>",
			 path && path[0] ? path : "(top level)", detail);
	if (check->message && check->capacity > 0)
		snprintf(check->message, (size_t)check->capacity, "%s", line);
	check->code = code;
	lbReport(code, "%s", line);
	return false;
}

static void lbJoinPath(char* out, size_t cap, const char* path, const char* key)
{
	if (path && path[0])
		snprintf(out, cap, "%s.%s", path, key);
	else
		snprintf(out, cap, "%s", key);
}

static const char* lbJsonTypeName(const cJSON* item)
{
	if (cJSON_IsNumber(item))
		return "a number";
	if (cJSON_IsString(item))
		return "a string";
	if (cJSON_IsBool(item))
		return "a boolean";
	if (cJSON_IsNull(item))
		return "null";
	if (cJSON_IsArray(item))
		return "an array";
	if (cJSON_IsObject(item))
		return "an object";
	return "an unknown value";
}

// Edit distance (insertions, deletions, substitutions) between a and b, counted up to 32 characters
// of b: enough to tell a near miss from another key.
static int lbEditDistance(const char* a, const char* b)
{
	enum { cap = 32 };
	const size_t nb = strlen(b) < cap ? strlen(b) : cap;
	int row[cap + 1];
	for (size_t j = 0; j <= nb; ++j)
		row[j] = (int)j;
	for (size_t i = 1; a[i - 1]; ++i)
	{
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= nb; ++j)
		{
			const int up = row[j];
			const int sub = diag + (a[i - 1] != b[j - 1]);
			const int del = up + 1, ins = row[j - 1] + 1;
			row[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
			diag = up;
		}
	}
	return row[nb];
}

// The allowed key a mistyped `key` most likely meant: the only one it is the start of or that is the
// start of it (a unit suffix left off or added, as hip_max_flex for hip_max_flex_deg), else the
// nearest within a third of its length in edits (at least 2); NULL when none is that close.
static const char* lbNearestKey(const char* key, const char* const* allowed)
{
	const size_t n = strlen(key);
	const char* prefix = NULL;
	int prefixes = 0;
	for (int i = 0; allowed[i]; ++i)
	{
		const size_t m = strlen(allowed[i]);
		if (n >= 3 && m >= 3 && strncmp(key, allowed[i], n < m ? n : m) == 0)
		{
			prefix = allowed[i];
			++prefixes;
		}
	}
	if (prefixes == 1)
		return prefix;
	const char* best = NULL;
	int bestD = (int)(n / 3) > 2 ? (int)(n / 3) : 2;
	for (int i = 0; allowed[i]; ++i)
	{
		const int d = lbEditDistance(key, allowed[i]);
		if (d <= bestD && (!best || d < bestD))
		{
			best = allowed[i];
			bestD = d;
		}
	}
	return best;
}

bool lbJsonKeysAllowed(lbJsonCheck* check, const cJSON* obj, const char* path, const char* const* allowed)
{
	for (const cJSON* it = obj ? obj->child : NULL; it; it = it->next)
	{
		bool found = false;
		for (int i = 0; allowed[i]; ++i)
			found = found || strcmp(it->string, allowed[i]) == 0;
		if (!found)
		{
			char p[256];
			lbJoinPath(p, sizeof p, path, it->string);
			const char* near = lbNearestKey(it->string, allowed);
			if (near)
				return lbJsonFail(check, lb_errorParse, p, "unknown key (did you mean \"%s\"?)", near);
			// Whole names only: a list longer than the message ends in "..." and points at the
			// reference (docs/scenarios.md lists every key) rather than ending in the middle of a name.
			char list[300] = "";
			size_t used = 0;
			for (int i = 0; allowed[i]; ++i)
			{
				const size_t need = strlen(allowed[i]) + (i ? 2 : 0);
				if (used + need + 26 >= sizeof list)
				{
					snprintf(list + used, sizeof list - used, ", ... (docs/scenarios.md)");
					break;
				}
				used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", allowed[i]);
			}
			return lbJsonFail(check, lb_errorParse, p, "unknown key (expected one of: %s)", list);
		}
		// A duplicate key would be ignored by lookups: reject it.
		for (const cJSON* other = it->next; other; other = other->next)
		{
			if (strcmp(other->string, it->string) == 0)
			{
				char p[256];
				lbJoinPath(p, sizeof p, path, it->string);
				return lbJsonFail(check, lb_errorParse, p, "key given twice");
			}
		}
	}
	return true;
}

bool lbJsonNumber(lbJsonCheck* check, const cJSON* obj, const char* path, const char* key, double lo, double hi,
				  double* out)
{
	const cJSON* item = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!item)
		return true;
	char p[256];
	lbJoinPath(p, sizeof p, path, key);
	if (!cJSON_IsNumber(item))
		return lbJsonFail(check, lb_errorParse, p, "expected a number, got %s", lbJsonTypeName(item));
	double v = item->valuedouble;
	if (!(v >= lo && v <= hi))
		return lbJsonFail(check, lb_errorParse, p, "expected a number in [%g, %g], got %g", lo, hi, v);
	*out = v;
	return true;
}

static bool lbJsonVec3Item(lbJsonCheck* check, const cJSON* item, const char* p, lbVec3* out)
{
	if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 3)
		return lbJsonFail(check, lb_errorParse, p, "expected an array of 3 numbers [x, y, z], got %s",
						  cJSON_IsArray(item) ? "an array of another length" : lbJsonTypeName(item));
	float v[3];
	for (int i = 0; i < 3; ++i)
	{
		const cJSON* e = cJSON_GetArrayItem(item, i);
		if (!cJSON_IsNumber(e) || !lbIsValidFloat((float)e->valuedouble) || fabs(e->valuedouble) > 1.0e6)
			return lbJsonFail(check, lb_errorParse, p, "expected an array of 3 finite numbers [x, y, z] (|v| <= 1e6)");
		v[i] = (float)e->valuedouble;
	}
	*out = lbMakeVec3(v[0], v[1], v[2]);
	return true;
}

bool lbJsonVec3(lbJsonCheck* check, const cJSON* obj, const char* path, const char* key, lbVec3* out)
{
	const cJSON* item = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!item)
		return true;
	char p[256];
	lbJoinPath(p, sizeof p, path, key);
	return lbJsonVec3Item(check, item, p, out);
}

bool lbJsonBool(lbJsonCheck* check, const cJSON* obj, const char* path, const char* key, bool* out)
{
	const cJSON* item = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!item)
		return true;
	char p[256];
	lbJoinPath(p, sizeof p, path, key);
	if (!cJSON_IsBool(item))
		return lbJsonFail(check, lb_errorParse, p, "expected true or false, got %s", lbJsonTypeName(item));
	*out = cJSON_IsTrue(item);
	return true;
}

static bool lbJsonString(lbJsonCheck* check, const cJSON* obj, const char* path, const char* key, char* out,
						 size_t cap)
{
	const cJSON* item = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!item)
		return true;
	char p[256];
	lbJoinPath(p, sizeof p, path, key);
	if (!cJSON_IsString(item))
		return lbJsonFail(check, lb_errorParse, p, "expected a string, got %s", lbJsonTypeName(item));
	if (strlen(item->valuestring) >= cap)
		return lbJsonFail(check, lb_errorParse, p, "string longer than %d characters", (int)cap - 1);
	snprintf(out, cap, "%s", item->valuestring);
	return true;
}

static bool lbJsonObjectOrAbsent(lbJsonCheck* check, const cJSON* obj, const char* path, const char* key,
								 const cJSON** out)
{
	*out = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (*out && !cJSON_IsObject(*out))
	{
		char p[256];
		lbJoinPath(p, sizeof p, path, key);
		return lbJsonFail(check, lb_errorParse, p, "expected an object, got %s", lbJsonTypeName(*out));
	}
	return true;
}

static void lbResolvePath(char* out, size_t cap, const char* directory, const char* file)
{
	size_t d = strlen(directory), n = strlen(file);
	if (file[0] == '/' || d == 0)
		d = 0;
	if (d + n + 2 > cap)
	{
		out[0] = 0;
		return;
	}
	if (d)
	{
		memcpy(out, directory, d);
		out[d++] = '/';
	}
	memcpy(out + d, file, n + 1);
}

// ---------------------------------------------------------------------------------------------

static const char* const lbInputNames[lb_inputCount] = {
	"velocity", "heading", "state", "select_limb", "stick", "confirm", "release", "teleport", "jump",
};

static const char* const lbStateNames[lb_stateCount] = {
	"grounded", "falling", "landing", "rolling", "climbing", "prone",
};

static const char* const lbLimbNames[4] = { "hand_l", "hand_r", "foot_l", "foot_r" };

const char* lbInputKindName(lbInputKind kind)
{
	return (int)kind >= 0 && kind < lb_inputCount ? lbInputNames[kind] : "unknown";
}

const char* lbCharacterStateName(lbCharacterState state)
{
	return (int)state >= 0 && state < lb_stateCount ? lbStateNames[state] : "unknown";
}

static bool lbParseWorld(lbJsonCheck* check, const cJSON* world, lbScenario* s)
{
	static const char* const keys[] = { "up", "shapes", NULL };
	if (!lbJsonKeysAllowed(check, world, "world", keys) || !lbJsonVec3(check, world, "world", "up", &s->upWs))
		return false;
	if (lbLength(s->upWs) < 0.5f || lbLength(s->upWs) > 2.0f)
		return lbJsonFail(check, lb_errorParse, "world.up", "expected a non-zero direction");
	s->upWs = lbNormalize(s->upWs);
	const cJSON* shapes = cJSON_GetObjectItemCaseSensitive(world, "shapes");
	if (!shapes)
		return true;
	if (!cJSON_IsArray(shapes))
		return lbJsonFail(check, lb_errorParse, "world.shapes", "expected an array of shapes, got %s",
						  lbJsonTypeName(shapes));
	int n = cJSON_GetArraySize(shapes);
	if (n > LB_SCENARIO_MAX_SHAPES)
		return lbJsonFail(check, lb_errorParse, "world.shapes", "at most %d shapes", LB_SCENARIO_MAX_SHAPES);
	for (int i = 0; i < n; ++i)
	{
		const cJSON* sh = cJSON_GetArrayItem(shapes, i);
		char path[64];
		snprintf(path, sizeof path, "world.shapes[%d]", i);
		if (!cJSON_IsObject(sh))
			return lbJsonFail(check, lb_errorParse, path, "expected an object {\"builder\": ..., \"params\": {...}}");
		static const char* const shapeKeys[] = { "builder", "params", NULL };
		if (!lbJsonKeysAllowed(check, sh, path, shapeKeys))
			return false;
		lbScenarioShape* shape = &s->shapes[i];
		memset(shape, 0, sizeof *shape);
		const cJSON* b = cJSON_GetObjectItemCaseSensitive(sh, "builder");
		char bp[96];
		snprintf(bp, sizeof bp, "%s.builder", path);
		if (!cJSON_IsString(b))
			return lbJsonFail(check, lb_errorParse, bp, "expected a builder name (string); see `limber list`");
		if (!lbIsWorldBuilder(b->valuestring))
		{
			char list[256] = "";
			size_t used = 0;
			for (int k = 0; k < lbScenarioBuilderCount() && used < sizeof list - 1; ++k)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", lbScenarioBuilderName(k));
			return lbJsonFail(check, lb_errorUnsupported, bp, "unknown scene builder \"%s\" (available: %s)",
							  b->valuestring, list);
		}
		snprintf(shape->builder, sizeof shape->builder, "%s", b->valuestring);
		const cJSON* params;
		if (!lbJsonObjectOrAbsent(check, sh, path, "params", &params))
			return false;
		char pp[96];
		snprintf(pp, sizeof pp, "%s.params", path);
		for (const cJSON* it = params ? params->child : NULL; it; it = it->next)
		{
			char kp[160];
			snprintf(kp, sizeof kp, "%s.%s", pp, it->string);
			if (shape->paramCount >= LB_SCENARIO_MAX_PARAMS)
				return lbJsonFail(check, lb_errorParse, pp, "at most %d parameters", LB_SCENARIO_MAX_PARAMS);
			if (strlen(it->string) >= LB_SCENARIO_NAME)
				return lbJsonFail(check, lb_errorParse, kp, "parameter name too long");
			lbScenarioParam* prm = &shape->params[shape->paramCount++];
			snprintf(prm->key, sizeof prm->key, "%s", it->string);
			if (cJSON_IsNumber(it))
			{
				if (!lbIsValidFloat((float)it->valuedouble))
					return lbJsonFail(check, lb_errorParse, kp, "expected a finite number");
				prm->type = 0;
				prm->number = it->valuedouble;
			}
			else if (cJSON_IsString(it))
			{
				if (strlen(it->valuestring) >= sizeof prm->text)
					return lbJsonFail(check, lb_errorParse, kp, "string too long");
				prm->type = 1;
				snprintf(prm->text, sizeof prm->text, "%s", it->valuestring);
			}
			else if (cJSON_IsArray(it))
			{
				prm->type = 2;
				if (!lbJsonVec3Item(check, it, kp, &prm->vector))
					return false;
			}
			else if (cJSON_IsBool(it))
			{
				prm->type = 0;
				prm->number = cJSON_IsTrue(it) ? 1.0 : 0.0;
			}
			else
				return lbJsonFail(check, lb_errorParse, kp, "expected a number, string, boolean or [x, y, z], got %s",
								  lbJsonTypeName(it));
		}
		if (!lbCheckWorldShape(check, shape, path))
			return false;
		s->shapeCount = i + 1;
	}
	return true;
}

static bool lbParseRig(lbJsonCheck* check, const cJSON* rig, lbScenario* s)
{
	if (cJSON_IsString(rig))
	{
		if (lbFindReferenceRig(rig->valuestring) == lb_rigCount)
			return lbJsonFail(check, lb_errorUnsupported, "rig", "unknown rig \"%s\" (expected mannequin, mixamo or {\"file\": ...})",
							  rig->valuestring);
		snprintf(s->rig, sizeof s->rig, "%s", rig->valuestring);
		return true;
	}
	if (!cJSON_IsObject(rig))
		return lbJsonFail(check, lb_errorParse, "rig", "expected \"mannequin\", \"mixamo\" or {\"file\": ...}, got %s",
						  lbJsonTypeName(rig));
	static const char* const keys[] = { "file", "roles", "unit_scale", "toe_tip_length", NULL };
	if (!lbJsonKeysAllowed(check, rig, "rig", keys))
		return false;
	char file[LB_SCENARIO_PATH] = "";
	if (!lbJsonString(check, rig, "rig", "file", file, sizeof file))
		return false;
	if (!file[0])
		return lbJsonFail(check, lb_errorParse, "rig.file", "missing: expected the path of a rig file (FBX, glTF, BVH, Collada, .x)");
	lbResolvePath(s->rigFile, sizeof s->rigFile, s->directory, file);
	FILE* f = fopen(s->rigFile, "rb");
	if (!f)
		return lbJsonFail(check, lb_errorFileNotFound, "rig.file", "cannot open \"%s\"", s->rigFile);
	fclose(f);
	s->rig[0] = 0;
	double scale = 0.0;
	if (!lbJsonNumber(check, rig, "rig", "unit_scale", 0.0, 1000.0, &scale))
		return false;
	s->rigUnitScale = (float)scale;
	double toe = -1.0;
	if (!lbJsonNumber(check, rig, "rig", "toe_tip_length", 0.0, 10.0, &toe))
		return false;
	s->rigToeTipLength = (float)toe;
	const cJSON* roles;
	if (!lbJsonObjectOrAbsent(check, rig, "rig", "roles", &roles))
		return false;
	for (const cJSON* it = roles ? roles->child : NULL; it; it = it->next)
	{
		char p[160];
		snprintf(p, sizeof p, "rig.roles.%s", it->string);
		int role = -1;
		for (int r = 0; r < lb_roleCount; ++r)
			if (strcmp(lbRoleName((lbRole)r), it->string) == 0)
				role = r;
		if (role < 0)
			return lbJsonFail(check, lb_errorParse, p, "unknown role (expected a role name such as pelvis, spine1, thigh_l, hand_r)");
		if (!cJSON_IsString(it) || !it->valuestring[0] || strlen(it->valuestring) >= sizeof s->roleNames[0])
			return lbJsonFail(check, lb_errorParse, p, "expected a bone name (string, 1..%d characters)", (int)sizeof s->roleNames[0] - 1);
		snprintf(s->roleNames[role], sizeof s->roleNames[role], "%s", it->valuestring);
	}
	return true;
}

static bool lbParseMotion(lbJsonCheck* check, const cJSON* motion, lbScenario* s)
{
	const cJSON* name = motion;
	if (cJSON_IsObject(motion))
	{
		static const char* const keys[] = { "name", "speed", "clip_index", "play_rate", "loop", "slow_on_flights", "root_velocity", NULL };
		if (!lbJsonKeysAllowed(check, motion, "motion", keys))
			return false;
		name = cJSON_GetObjectItemCaseSensitive(motion, "name");
		double speed = s->motionSpeed, index = 0.0, rate = s->playRate;
		if (!lbJsonNumber(check, motion, "motion", "speed", 0.0, 20.0, &speed) ||
			!lbJsonNumber(check, motion, "motion", "clip_index", 0.0, 10000.0, &index) ||
			!lbJsonNumber(check, motion, "motion", "play_rate", 0.01, 100.0, &rate) ||
			!lbJsonBool(check, motion, "motion", "loop", &s->loop) ||
			!lbJsonBool(check, motion, "motion", "slow_on_flights", &s->slowOnFlights) ||
			!lbJsonBool(check, motion, "motion", "root_velocity", &s->rootVelocity))
			return false;
		if (index != (double)(int)index)
			return lbJsonFail(check, lb_errorParse, "motion.clip_index", "expected a whole number");
		s->motionSpeed = (float)speed;
		s->clipIndex = (int)index;
		s->playRate = (float)rate;
		if (!name)
			return lbJsonFail(check, lb_errorParse, "motion.name", "missing: expected a motion name");
	}
	const char* path = cJSON_IsObject(motion) ? "motion.name" : "motion";
	if (!cJSON_IsString(name))
		return lbJsonFail(check, lb_errorParse, path, "expected a motion name (string), got %s", lbJsonTypeName(name));
	if (!lbFindMotionEntry(name->valuestring))
	{
		char list[256] = "";
		size_t used = 0;
		for (int k = 0; k < lbScenarioMotionCount() && used < sizeof list - 1; ++k)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", lbScenarioMotionName(k));
		return lbJsonFail(check, lb_errorUnsupported, path, "motion \"%s\" is not available (available: %s)",
						  name->valuestring, list);
	}
	snprintf(s->motion, sizeof s->motion, "%s", name->valuestring);
	return true;
}

static bool lbParseSystem(lbJsonCheck* check, const cJSON* system, lbScenario* s)
{
	const cJSON* name = system;
	const cJSON* config = NULL;
	if (cJSON_IsObject(system))
	{
		static const char* const keys[] = { "name", "config", NULL };
		if (!lbJsonKeysAllowed(check, system, "system", keys))
			return false;
		name = cJSON_GetObjectItemCaseSensitive(system, "name");
		if (!lbJsonObjectOrAbsent(check, system, "system", "config", &config))
			return false;
		if (!name)
			return lbJsonFail(check, lb_errorParse, "system.name", "missing: expected a system name");
	}
	const char* path = cJSON_IsObject(system) ? "system.name" : "system";
	if (!cJSON_IsString(name))
		return lbJsonFail(check, lb_errorParse, path, "expected a system name (string), got %s", lbJsonTypeName(name));
	const lbSystemEntry* entry = lbFindSystemEntry(name->valuestring);
	if (!entry)
	{
		static const char* const known[] = { "foot", "climb", "prone" };
		for (int k = 0; k < 3; ++k)
		{
			if (strcmp(name->valuestring, known[k]) == 0)
				return lbJsonFail(check, lb_errorUnsupported, path, "system \"%s\" is not available in this build",
								  name->valuestring);
		}
		return lbJsonFail(check, lb_errorParse, path, "unknown system \"%s\" (see `limber list`)", name->valuestring);
	}
	if (entry->checkConfig && !entry->checkConfig(check, config))
		return false;
	if (!entry->checkConfig && config && config->child)
		return lbJsonFail(check, lb_errorParse, "system.config", "system \"%s\" takes no configuration", entry->name);
	snprintf(s->system, sizeof s->system, "%s", name->valuestring);
	if (config)
	{
		s->systemConfig = cJSON_PrintUnformatted(config);
		if (!s->systemConfig)
			return lbJsonFail(check, lb_errorOutOfMemory, "system.config", "out of memory");
	}
	return true;
}

static int lbFindName(const char* const* names, int count, const char* name)
{
	for (int i = 0; i < count; ++i)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

static bool lbParseEvent(lbJsonCheck* check, const cJSON* item, const char* path, lbScenarioEvent* ev, float endTime)
{
	if (!cJSON_IsObject(item))
		return lbJsonFail(check, lb_errorParse, path, "expected an object {\"t\": seconds, \"input\": ...}");
	memset(ev, 0, sizeof *ev);
	const cJSON* input = cJSON_GetObjectItemCaseSensitive(item, "input");
	char ip[96];
	snprintf(ip, sizeof ip, "%s.input", path);
	if (!cJSON_IsString(input))
	{
		char list[200] = "";
		size_t used = 0;
		for (int k = 0; k < lb_inputCount; ++k)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", lbInputNames[k]);
		return lbJsonFail(check, lb_errorParse, ip, "expected an input name (one of: %s)", list);
	}
	int kind = lbFindName(lbInputNames, lb_inputCount, input->valuestring);
	if (kind < 0)
	{
		char list[200] = "";
		size_t used = 0;
		for (int k = 0; k < lb_inputCount; ++k)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", lbInputNames[k]);
		return lbJsonFail(check, lb_errorParse, ip, "unknown input \"%s\" (expected one of: %s)", input->valuestring, list);
	}
	ev->kind = (lbInputKind)kind;
	double t = 0.0;
	if (!cJSON_GetObjectItemCaseSensitive(item, "t"))
		return lbJsonFail(check, lb_errorParse, path, "missing key \"t\" (time in seconds)");
	if (!lbJsonNumber(check, item, path, "t", 0.0, (double)endTime + 1.0e-3, &t))
		return false;
	ev->time = (float)t;
	static const char* const noValue[] = { "t", "input", NULL };
	static const char* const withValue[] = { "t", "input", "value", NULL };
	static const char* const withLimb[] = { "t", "input", "limb", NULL };
	static const char* const withStick[] = { "t", "input", "x", "y", NULL };
	char vp[96];
	snprintf(vp, sizeof vp, "%s.value", path);
	const cJSON* value = cJSON_GetObjectItemCaseSensitive(item, "value");
	switch (ev->kind)
	{
		case lb_inputVelocity:
		case lb_inputTeleport:
			if (!lbJsonKeysAllowed(check, item, path, withValue))
				return false;
			if (!value)
				return lbJsonFail(check, lb_errorParse, vp, "missing: expected [x, y, z] (world, %s)",
								  ev->kind == lb_inputVelocity ? "m/s" : "m");
			return lbJsonVec3Item(check, value, vp, &ev->vector);
		case lb_inputHeading:
		case lb_inputJump:
		{
			if (!lbJsonKeysAllowed(check, item, path, withValue))
				return false;
			if (!value)
				return lbJsonFail(check, lb_errorParse, vp, "missing: expected a number (%s)",
								  ev->kind == lb_inputHeading ? "deg" : "m/s");
			double v = 0.0;
			double lo = ev->kind == lb_inputHeading ? -3600.0 : 0.0, hi = ev->kind == lb_inputHeading ? 3600.0 : 20.0;
			if (!lbJsonNumber(check, item, path, "value", lo, hi, &v))
				return false;
			ev->value = (float)v;
			return true;
		}
		case lb_inputState:
		{
			if (!lbJsonKeysAllowed(check, item, path, withValue))
				return false;
			int st = cJSON_IsString(value) ? lbFindName(lbStateNames, lb_stateCount, value->valuestring) : -1;
			if (st < 0)
				return lbJsonFail(check, lb_errorParse, vp,
								  "expected a state name (grounded, falling, landing, rolling, climbing, prone)");
			ev->state = (lbCharacterState)st;
			return true;
		}
		case lb_inputSelectLimb:
		{
			if (!lbJsonKeysAllowed(check, item, path, withLimb))
				return false;
			const cJSON* limb = cJSON_GetObjectItemCaseSensitive(item, "limb");
			int l = cJSON_IsString(limb) ? lbFindName(lbLimbNames, 4, limb->valuestring) : -1;
			if (l < 0)
			{
				char lp[96];
				snprintf(lp, sizeof lp, "%s.limb", path);
				return lbJsonFail(check, lb_errorParse, lp, "expected one of hand_l, hand_r, foot_l, foot_r");
			}
			ev->limb = l;
			return true;
		}
		case lb_inputStick:
		{
			if (!lbJsonKeysAllowed(check, item, path, withStick))
				return false;
			double x = 0.0, y = 0.0;
			if (!lbJsonNumber(check, item, path, "x", -1.0, 1.0, &x) || !lbJsonNumber(check, item, path, "y", -1.0, 1.0, &y))
				return false;
			ev->vector = lbMakeVec3((float)x, (float)y, 0.0f);
			return true;
		}
		case lb_inputRelease:
		{
			// Releases the named limb, or the selected one without "limb".
			if (!lbJsonKeysAllowed(check, item, path, withLimb))
				return false;
			const cJSON* limb = cJSON_GetObjectItemCaseSensitive(item, "limb");
			ev->limb = -1;
			if (!limb)
				return true;
			int l = cJSON_IsString(limb) ? lbFindName(lbLimbNames, 4, limb->valuestring) : -1;
			if (l < 0)
			{
				char lp[96];
				snprintf(lp, sizeof lp, "%s.limb", path);
				return lbJsonFail(check, lb_errorParse, lp, "expected one of hand_l, hand_r, foot_l, foot_r");
			}
			ev->limb = l;
			return true;
		}
		case lb_inputConfirm:
		default:
			return lbJsonKeysAllowed(check, item, path, noValue);
	}
}

static int lbCompareEvents(const void* a, const void* b)
{
	const lbScenarioEvent* x = (const lbScenarioEvent*)a;
	const lbScenarioEvent* y = (const lbScenarioEvent*)b;
	return x->time < y->time ? -1 : (x->time > y->time ? 1 : 0);
}

// Stable merge sort by time, O(n log n): equal times keep their order.
static bool lbSortEvents(lbScenarioEvent* events, int count)
{
	if (count < 2)
		return true;
	lbScenarioEvent* tmp = (lbScenarioEvent*)lbAlloc(sizeof(lbScenarioEvent) * (size_t)count);
	if (!tmp)
		return false;
	lbScenarioEvent* src = events;
	lbScenarioEvent* dst = tmp;
	for (int width = 1; width < count; width *= 2)
	{
		for (int lo = 0; lo < count; lo += 2 * width)
		{
			int mid = lo + width < count ? lo + width : count;
			int hi = lo + 2 * width < count ? lo + 2 * width : count;
			int a = lo, b = mid, o = lo;
			while (a < mid && b < hi)
				dst[o++] = lbCompareEvents(&src[b], &src[a]) < 0 ? src[b++] : src[a++];
			while (a < mid)
				dst[o++] = src[a++];
			while (b < hi)
				dst[o++] = src[b++];
		}
		lbScenarioEvent* t = src;
		src = dst;
		dst = t;
	}
	if (src != events)
		memcpy(events, src, sizeof(lbScenarioEvent) * (size_t)count);
	lbFree(tmp);
	return true;
}

static bool lbParseCamera(lbJsonCheck* check, const cJSON* cam, lbScenario* s)
{
	static const char* const keys[] = { "target", "yaw_deg", "pitch_deg", "distance", "fov_deg", "follow", NULL };
	if (!lbJsonKeysAllowed(check, cam, "camera", keys))
		return false;
	lbScenarioCamera* c = &s->camera;
	double yaw = c->yawDeg, pitch = c->pitchDeg, dist = c->distance, fov = c->fovDeg;
	if (!lbJsonVec3(check, cam, "camera", "target", &c->target) ||
		!lbJsonNumber(check, cam, "camera", "yaw_deg", -3600.0, 3600.0, &yaw) ||
		!lbJsonNumber(check, cam, "camera", "pitch_deg", -89.0, 89.0, &pitch) ||
		!lbJsonNumber(check, cam, "camera", "distance", 0.1, 1000.0, &dist) ||
		!lbJsonNumber(check, cam, "camera", "fov_deg", 5.0, 150.0, &fov) ||
		!lbJsonBool(check, cam, "camera", "follow", &c->follow))
		return false;
	c->yawDeg = (float)yaw;
	c->pitchDeg = (float)pitch;
	c->distance = (float)dist;
	c->fovDeg = (float)fov;
	return true;
}

static void lbScenarioDefaults(lbScenario* s)
{
	s->upWs = lbVec3_axisZ;
	snprintf(s->rig, sizeof s->rig, "mannequin");
	snprintf(s->motion, sizeof s->motion, "rest");
	snprintf(s->system, sizeof s->system, "none");
	s->motionSpeed = -1.0f;
	s->slowOnFlights = true;
	s->playRate = 1.0f;
	s->rigToeTipLength = -1.0f;
	s->loop = true;
	s->dt = 1.0f / 60.0f;
	s->frames = 120;
	s->memoryBudget = LB_DEFAULT_MEMORY_BUDGET;
	s->camera.target = lbMakeVec3(0.0f, 0.0f, 0.9f);
	s->camera.yawDeg = 35.0f;
	s->camera.pitchDeg = 12.0f;
	s->camera.distance = 4.0f;
	s->camera.fovDeg = 40.0f;
	s->camera.follow = true;
}

static bool lbParseRoot(lbJsonCheck* check, const cJSON* root, lbScenario* s)
{
	if (!cJSON_IsObject(root))
		return lbJsonFail(check, lb_errorParse, "", "expected a JSON object at the top level");
	static const char* const keys[] = { "name",	  "description", "world", "rig",	  "character", "motion",
										"system", "timeline",	 "dt",	  "frames", "camera",	 NULL };
	if (!lbJsonKeysAllowed(check, root, "", keys))
		return false;
	if (!lbJsonString(check, root, "", "name", s->name, sizeof s->name) ||
		!lbJsonString(check, root, "", "description", s->description, sizeof s->description))
		return false;
	double dt = s->dt, frames = s->frames;
	if (!lbJsonNumber(check, root, "", "dt", 1.0e-4, 0.1, &dt) || !lbJsonNumber(check, root, "", "frames", 1.0, 100000.0, &frames))
		return false;
	if (frames != (double)(int)frames)
		return lbJsonFail(check, lb_errorParse, "frames", "expected a whole number of frames, got %g", frames);
	s->dt = (float)dt;
	s->frames = (int)frames;

	const cJSON* obj;
	if (!lbJsonObjectOrAbsent(check, root, "", "world", &obj))
		return false;
	if (obj && !lbParseWorld(check, obj, s))
		return false;
	if (s->shapeCount == 0)
		s->camera.target = lbMulSV(0.9f, s->upWs);
	const cJSON* rig = cJSON_GetObjectItemCaseSensitive(root, "rig");
	if (rig && !lbParseRig(check, rig, s))
		return false;
	if (!lbJsonObjectOrAbsent(check, root, "", "character", &obj))
		return false;
	if (obj)
	{
		static const char* const ck[] = { "position", "heading_deg", NULL };
		double heading = 0.0;
		if (!lbJsonKeysAllowed(check, obj, "character", ck) || !lbJsonVec3(check, obj, "character", "position", &s->position) ||
			!lbJsonNumber(check, obj, "character", "heading_deg", -3600.0, 3600.0, &heading))
			return false;
		s->headingDeg = (float)heading;
	}
	const cJSON* motion = cJSON_GetObjectItemCaseSensitive(root, "motion");
	if (motion && !lbParseMotion(check, motion, s))
		return false;
	const cJSON* system = cJSON_GetObjectItemCaseSensitive(root, "system");
	if (system && !lbParseSystem(check, system, s))
		return false;
	const cJSON* timeline = cJSON_GetObjectItemCaseSensitive(root, "timeline");
	if (timeline)
	{
		if (!cJSON_IsArray(timeline))
			return lbJsonFail(check, lb_errorParse, "timeline", "expected an array of inputs, got %s", lbJsonTypeName(timeline));
		int n = cJSON_GetArraySize(timeline);
		if (n > 100000)
			return lbJsonFail(check, lb_errorParse, "timeline", "too many inputs (at most 100000)");
		s->events = n > 0 ? (lbScenarioEvent*)lbAllocZeroed((size_t)n * sizeof(lbScenarioEvent)) : NULL;
		if (n > 0 && !s->events)
			return lbJsonFail(check, lb_errorOutOfMemory, "timeline", "out of memory");
		float endTime = s->dt * (float)s->frames;
		// The list is walked once (indexing a cJSON array is linear, which made this quadratic).
		int i = 0;
		const cJSON* item;
		cJSON_ArrayForEach(item, timeline)
		{
			if (i >= n)
				break;
			char path[48];
			snprintf(path, sizeof path, "timeline[%d]", i);
			if (!lbParseEvent(check, item, path, &s->events[i], endTime))
				return false;
			s->eventCount = ++i;
		}
		// Stable order: equal times keep file order.
		if (!lbSortEvents(s->events, s->eventCount))
			return lbJsonFail(check, lb_errorOutOfMemory, "timeline", "out of memory");
	}
	if (!lbJsonObjectOrAbsent(check, root, "", "camera", &obj))
		return false;
	if (obj && !lbParseCamera(check, obj, s))
		return false;
	if (strcmp(s->motion, "clip") == 0 && !s->rigFile[0])
		return lbJsonFail(check, lb_errorParse, "motion", "the clip motion plays a clip of the rig file: set rig.file");
	return true;
}

static void lbLineColumn(const char* text, const char* at, int* line, int* col)
{
	*line = 1;
	*col = 1;
	for (const char* c = text; c < at && *c; ++c)
	{
		if (*c == '\n')
		{
			++*line;
			*col = 1;
		}
		else
			++*col;
	}
}

lbScenario* lbParseScenario(const char* json, const char* fileName, char* outMessage, int capacity)
{
	lbJsonCheck check = { fileName, outMessage, capacity, lb_ok };
	if (outMessage && capacity > 0)
		outMessage[0] = 0;
	if (!json)
	{
		lbJsonFail(&check, lb_errorNullPointer, "", "no text");
		return NULL;
	}
	const char* end = NULL;
	cJSON* root = cJSON_ParseWithOpts(json, &end, 1);
	if (!root)
	{
		int line, col;
		lbLineColumn(json, end ? end : json, &line, &col);
		char where[48];
		snprintf(where, sizeof where, "line %d, column %d", line, col);
		lbJsonFail(&check, lb_errorParse, where, "invalid JSON syntax");
		return NULL;
	}
	lbScenario* s = (lbScenario*)lbAllocZeroed(sizeof(lbScenario));
	if (!s)
	{
		cJSON_Delete(root);
		lbJsonFail(&check, lb_errorOutOfMemory, "", "out of memory");
		return NULL;
	}
	lbScenarioDefaults(s);
	if (fileName)
	{
		snprintf(s->path, sizeof s->path, "%s", fileName);
		snprintf(s->directory, sizeof s->directory, "%s", fileName);
		char* slash = strrchr(s->directory, '/');
		if (slash)
			*slash = 0;
		else
			s->directory[0] = 0;
		// Default name: the file name without directory and extension.
		const char* base = strrchr(fileName, '/');
		snprintf(s->name, sizeof s->name, "%s", base ? base + 1 : fileName);
		char* dot = strrchr(s->name, '.');
		if (dot)
			*dot = 0;
	}
	bool ok = lbParseRoot(&check, root, s);
	cJSON_Delete(root);
	if (!ok)
	{
		lbDestroyScenario(s);
		return NULL;
	}
	return s;
}

lbScenario* lbLoadScenario(const char* path, char* outMessage, int capacity)
{
	if (outMessage && capacity > 0)
		outMessage[0] = 0;
	lbJsonCheck check = { path, outMessage, capacity, lb_ok };
	if (!path)
	{
		lbJsonFail(&check, lb_errorNullPointer, "", "no file name");
		return NULL;
	}
	struct stat info;
	if (stat(path, &info) == 0 && S_ISDIR(info.st_mode))
	{
		lbJsonFail(&check, lb_errorFileNotFound, "", "is a directory, not a scenario file");
		return NULL;
	}
	if (stat(path, &info) == 0 && !S_ISREG(info.st_mode))
	{
		lbJsonFail(&check, lb_errorFileNotFound, "", "is not a regular file");
		return NULL;
	}
	FILE* f = fopen(path, "rb");
	if (!f)
	{
		lbJsonFail(&check, lb_errorFileNotFound, "", "cannot open the file");
		return NULL;
	}
	char* text = NULL;
	size_t size = 0, cap = 0;
	for (;;)
	{
		if (size + 4096 + 1 > cap)
		{
			cap = cap ? cap * 2 : 16384;
			if (cap > (size_t)64 << 20)
				break;
			char* grown = (char*)lbRealloc(text, cap);
			if (!grown)
				break;
			text = grown;
		}
		size_t got = fread(text + size, 1, cap - size - 1, f);
		size += got;
		if (got == 0)
			break;
	}
	bool readError = ferror(f) != 0;
	bool tooBig = !readError && !feof(f);
	fclose(f);
	if (!text || tooBig || readError)
	{
		lbFree(text);
		lbJsonFail(&check, readError ? lb_errorIo : lb_errorFileFormat, "",
				   readError ? "cannot read the file" : text ? "file larger than 64 MB" : "out of memory");
		return NULL;
	}
	text[size] = 0;
	lbScenario* s = lbParseScenario(text, path, outMessage, capacity);
	lbFree(text);
	return s;
}

void lbDestroyScenario(lbScenario* scenario)
{
	if (!scenario)
		return;
	lbFree(scenario->events);
	if (scenario->systemConfig)
		cJSON_free(scenario->systemConfig);
	lbFree(scenario);
}

void lbFreeText(char* text)
{
	lbFree(text);
}

bool lbJsonReadNumberKeys(lbJsonCheck* check, const cJSON* config, const lbConfigNumberKey* keys, int count, void* def)
{
	for (int i = 0; config && i < count; ++i)
	{
		double v = -1.0e300;
		if (!lbJsonNumber(check, config, "system.config", keys[i].name, keys[i].lo, keys[i].hi, &v))
			return false;
		if (def && v > -1.0e299 && keys[i].bits)
			*(uint32_t*)((char*)def + keys[i].offset) = (uint32_t)v;
		else if (def && v > -1.0e299)
			*(float*)((char*)def + keys[i].offset) = (float)(keys[i].degrees ? v * LB_DEG2RAD : v);
	}
	return true;
}
