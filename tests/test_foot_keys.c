// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The foot system's scenario keys: every field of lbFootDef can be set from a scenario file (a field
// added without a key fails here), and keys the runner does not know are refused by name.
#include "io/scenario_internal.h"
#include "limber/foot.h"
#include "limber/scenario.h"
#include "test_macros.h"

#include <stddef.h>
#include <stdint.h>

enum
{
	kMaxKeys = 128
};

// A config setting every key to a value different from its default: numbers inside their range
// (halfway from the default to the far end), integers to another value, flags flipped, choices to
// the next one. The run's choices (solver, ik_mode) are returned through *outSolver and *outIkMode.
static cJSON* everyKeyChanged(const lbFootConfigKey* keys, int n, int* outSolver, int* outIkMode)
{
	const lbFootDef d = lbDefaultFootDef();
	const char* base = (const char*)&d;
	cJSON* config = cJSON_CreateObject();
	for (int i = 0; i < n; ++i)
	{
		const lbFootConfigKey* k = &keys[i];
		const bool inDef = k->offset != (size_t)-1;
		if (inDef)
			ENSURE(k->offset < sizeof(lbFootDef));
		switch (k->kind)
		{
			case lb_footKeyNumber:
			{
				float value;
				memcpy(&value, base + k->offset, sizeof value);
				double inFile = k->degrees ? (double)value * LB_RAD2DEG : (double)value;
				double v = inFile < k->hi ? 0.5 * (inFile + k->hi) : 0.5 * (k->lo + inFile);
				ENSURE(v >= k->lo && v <= k->hi && (float)v != (float)inFile);
				cJSON_AddNumberToObject(config, k->name, v);
				break;
			}
			case lb_footKeyInteger:
			{
				uint32_t value;
				memcpy(&value, base + k->offset, sizeof value);
				cJSON_AddNumberToObject(config, k->name, value == 3u ? 5.0 : 3.0);
				break;
			}
			case lb_footKeyFlag:
			{
				bool value;
				memcpy(&value, base + k->offset, sizeof value);
				cJSON_AddBoolToObject(config, k->name, !value);
				break;
			}
			case lb_footKeyChoice:
			{
				// The run's choices default to their first entry (two_bone, enabled).
				int value = 0;
				if (inDef)
					memcpy(&value, base + k->offset, sizeof value);
				ENSURE(value >= 0 && value < k->choiceCount && k->choiceCount >= 2);
				int pick = (value + 1) % k->choiceCount;
				cJSON_AddStringToObject(config, k->name, k->choices[pick]);
				if (strcmp(k->name, "solver") == 0)
					*outSolver = pick;
				else if (strcmp(k->name, "ik_mode") == 0)
					*outIkMode = pick;
				else
					ENSURE(inDef); // a choice outside the def that nothing here checks
				break;
			}
		}
	}
	return config;
}

// Every 4-byte word of lbFootDef changes when every key is given, except the words of `up` (the
// runner sets it from the scenario's up) and `internalValue`. Words, not fields, because the test
// cannot name fields the table does not know: a float, int, enum or uint32_t field fills one word
// by itself, so a new one without a key leaves its word equal and fails here. A bool fills one byte
// and the three after it are padding (zero in both: lbDefaultFootDef clears the struct and the
// reader writes fields only); its word changes when its flag is flipped. The one case this cannot
// see is a new bool packed into the padding right after another bool: keep bools apart (each
// followed by a 4-byte field), as the def does today.
static void test_every_def_field_has_a_key(void)
{
	lbFootConfigKey keys[kMaxKeys];
	const int n = lbFootConfigKeys(keys, kMaxKeys);
	ENSURE(n > 0 && n <= kMaxKeys);
	ENSURE(lbFootConfigKeys(NULL, 0) == n);
	// Names are unique.
	for (int i = 0; i < n; ++i)
		for (int j = i + 1; j < n; ++j)
			ENSURE(strcmp(keys[i].name, keys[j].name) != 0);
	int solver = -1, ikMode = -1;
	cJSON* config = everyKeyChanged(keys, n, &solver, &ikMode);
	ENSURE(solver > 0 && ikMode > 0);

	const lbFootDef defaults = lbDefaultFootDef();
	lbFootDef def = defaults;
	// As the runner does: up comes from the scenario, not from a key.
	def.up = lbVec3_axisY;
	char message[512] = "";
	lbResult code = lb_ok;
	int gotSolver = -1, gotIkMode = -1;
	const bool ok = lbFootConfigRead(config, &def, &gotSolver, &gotIkMode, message, (int)sizeof message, &code);
	if (!ok)
		printf("  %s\n", message);
	ENSURE(ok && code == lb_ok);
	ENSURE(gotSolver == solver && gotIkMode == ikMode);
	ENSURE(sizeof(lbFootDef) % 4 == 0);
	const size_t upBegin = offsetof(lbFootDef, up), upEnd = upBegin + sizeof(lbVec3);
	const size_t cookie = offsetof(lbFootDef, internalValue);
	const unsigned char* a = (const unsigned char*)&defaults;
	const unsigned char* b = (const unsigned char*)&def;
	int unchanged = 0;
	for (size_t w = 0; w + 4 <= sizeof(lbFootDef); w += 4)
	{
		if ((w >= upBegin && w < upEnd) || w == cookie)
			continue;
		if (memcmp(a + w, b + w, 4) == 0)
		{
			printf("  lbFootDef bytes %zu-%zu: no scenario key sets this field (add one in "
				   "src/io/scenario_system_foot.c)\n",
				   w, w + 3);
			++unchanged;
		}
	}
	ENSURE(unchanged == 0);
	ENSURE(def.internalValue == defaults.internalValue);
	ENSURE(def.up.y == 1.0f);
	cJSON_Delete(config);

	// The config is read field by field: each key alone changes exactly its own field's bytes.
	for (int i = 0; i < n; ++i)
	{
		if (keys[i].offset == (size_t)-1)
			continue;
		cJSON* all = everyKeyChanged(keys, n, &solver, &ikMode);
		cJSON* one = cJSON_CreateObject();
		cJSON_AddItemToObject(one, keys[i].name, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(all, keys[i].name), 1));
		lbFootDef d = defaults;
		ENSURE(lbFootConfigRead(one, &d, NULL, NULL, message, (int)sizeof message, &code));
		const size_t size = keys[i].kind == lb_footKeyFlag ? sizeof(bool) : 4;
		const unsigned char* p = (const unsigned char*)&d;
		for (size_t byte = 0; byte < sizeof(lbFootDef); ++byte)
		{
			const bool own = byte >= keys[i].offset && byte < keys[i].offset + size;
			if (!own && p[byte] != a[byte])
			{
				printf("  key %s changed byte %zu outside its field\n", keys[i].name, byte);
				ENSURE(false);
				break;
			}
		}
		ENSURE(memcmp(p + keys[i].offset, a + keys[i].offset, size) != 0);
		cJSON_Delete(one);
		cJSON_Delete(all);
	}
}

// Reads a config from JSON text; false with the message when refused.
static bool readText(const char* text, lbFootDef* def, char* message, int capacity, lbResult* code)
{
	cJSON* config = cJSON_Parse(text);
	ENSURE(config != NULL);
	bool ok = lbFootConfigRead(config, def, NULL, NULL, message, capacity, code);
	cJSON_Delete(config);
	return ok;
}

// Unknown keys, out-of-range numbers, wrong types and unknown choices are refused with a message
// naming the key, and the def is left as it was.
static void test_foot_keys_refuse_bad_input(void)
{
	LogCapture cap = { 0 };
	lbSetLogFcn(CaptureLog, &cap);
	const lbFootDef defaults = lbDefaultFootDef();
	struct
	{
		const char* text;
		const char* mustName[2];
	} bad[] = {
		{ "{\"trace_radius\": 0.05, \"no_such_key\": 1}", { "system.config.no_such_key", "unknown key" } },
		{ "{\"edgeMargin\": 0.02}", { "system.config.edgeMargin", "did you mean \"edge_margin\"" } },
		{ "{\"hip_max_flex\": 120}", { "system.config.hip_max_flex", "did you mean \"hip_max_flex_deg\"" } },
		{ "{\"zzz\": 1}", { "expected one of: trace_radius, ", ", ... (docs/scenarios.md)" } },
		{ "{\"edge_margin\": 2.0}", { "system.config.edge_margin", NULL } },
		{ "{\"foot_lock\": 1}", { "system.config.foot_lock", NULL } },
		{ "{\"solver\": \"fabrik\"}", { "system.config.solver", "two_bone, full_body" } },
		{ "{\"pelvis_mode\": \"lowest\"}", { "system.config.pelvis_mode", "lowest_foot, weighted_average" } },
		{ "{\"channel_mask\": -1}", { "system.config.channel_mask", NULL } },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
	{
		lbFootDef def = defaults;
		char message[512] = "";
		lbResult code = lb_ok;
		const bool ok = readText(bad[i].text, &def, message, (int)sizeof message, &code);
		ENSURE(!ok && code == lb_errorParse);
		for (int k = 0; k < 2; ++k)
		{
			if (bad[i].mustName[k] && !strstr(message, bad[i].mustName[k]))
			{
				printf("  %s: message \"%s\" does not say \"%s\"\n", bad[i].text, message, bad[i].mustName[k]);
				ENSURE(false);
			}
		}
		ENSURE(memcmp(&def, &defaults, sizeof def) == 0);
	}
	// And a good one goes through, in the file's units (degrees where the key says so).
	lbFootDef def = defaults;
	char message[256] = "";
	lbResult code = lb_ok;
	ENSURE(readText("{\"knee_max_bend_deg\": 120, \"footprint_traces\": false}", &def, message, (int)sizeof message, &code));
	ENSURE_NEAR(def.kneeMaxBend, 120.0f * LB_DEG2RAD, 1e-6f);
	ENSURE(!def.footprintTraces && code == lb_ok);
	lbSetLogFcn(NULL, NULL);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_every_def_field_has_a_key);
	RUN_TEST(test_foot_keys_refuse_bad_input);
	TEST_MAIN_END();
}
