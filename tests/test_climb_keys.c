// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The climbing system's scenario keys: every field of lbClimbDef can be set from a scenario file (a
// field added without a key fails here), each key sets its own field and nothing else, and keys or
// values the runner does not accept are refused by name with the def left as it was.
#include "io/scenario_system_climb.h"
#include "limber/scenario.h"
#include "test_macros.h"

#include <stddef.h>
#include <stdint.h>

// The per-limb rotation keys' value: a turn of 30 degrees about (1, 2, 2) / 3.
static cJSON* rotationValue(void)
{
	const double v[3] = { 10.0, 20.0, 20.0 };
	return cJSON_CreateDoubleArray(v, 3);
}

// A config setting every key to a value different from its default, inside its range (halfway
// from the default to the far end; whole numbers for the integer keys).
static cJSON* everyKeyChanged(const lbConfigNumberKey* keys, int n, const char* const* rotationKeys)
{
	const lbClimbDef d = lbDefaultClimbDef();
	const char* base = (const char*)&d;
	cJSON* config = cJSON_CreateObject();
	for (int i = 0; i < n; ++i)
	{
		const lbConfigNumberKey* k = &keys[i];
		ENSURE(k->offset + 4 <= sizeof(lbClimbDef));
		double inFile;
		if (k->bits)
		{
			uint32_t value;
			memcpy(&value, base + k->offset, sizeof value);
			inFile = (double)value;
		}
		else
		{
			float value;
			memcpy(&value, base + k->offset, sizeof value);
			inFile = k->degrees ? (double)value * LB_RAD2DEG : (double)value;
		}
		double v = inFile < k->hi ? 0.5 * (inFile + k->hi) : 0.5 * (k->lo + inFile);
		if (k->bits)
			v = (double)(uint32_t)v;
		ENSURE(v >= k->lo && v <= k->hi && (float)v != (float)inFile);
		cJSON_AddNumberToObject(config, k->name, v);
	}
	for (int i = 0; i < 4; ++i)
		cJSON_AddItemToObject(config, rotationKeys[i], rotationValue());
	return config;
}

// Whether the 4-byte word at `w` lies in a part of lbClimbDef no key is meant to set: `up` (the
// runner sets it from the scenario's up), the cookies, and the full-body solver's per-role tables
// and up (its own defaults; climbing sets up from def.up).
static bool unkeyed(size_t w)
{
	const size_t fb = offsetof(lbClimbDef, fullBody);
	const struct
	{
		size_t begin, size;
	} skip[] = {
		{ offsetof(lbClimbDef, up), sizeof(lbVec3) },
		{ offsetof(lbClimbDef, internalValue), sizeof(int) },
		{ fb + offsetof(lbFullBodyIkSettings, stiffness), sizeof(((lbFullBodyIkSettings*)0)->stiffness) },
		{ fb + offsetof(lbFullBodyIkSettings, limits), sizeof(((lbFullBodyIkSettings*)0)->limits) },
		{ fb + offsetof(lbFullBodyIkSettings, upMs), sizeof(lbVec3) },
		{ fb + offsetof(lbFullBodyIkSettings, internalValue), sizeof(int) },
	};
	for (size_t i = 0; i < sizeof skip / sizeof skip[0]; ++i)
		if (w >= skip[i].begin && w < skip[i].begin + skip[i].size)
			return true;
	return false;
}

// Every 4-byte word of lbClimbDef changes when every key is given, except the unkeyed parts above.
// Words, not fields, because the test cannot name fields the table does not know: every field of
// the def is a float, an int, a uint32_t or made of them, so a new one without a key leaves its
// word equal and fails here.
static void test_every_def_field_has_a_key(void)
{
	const lbConfigNumberKey* keys = NULL;
	const char* const* rotationKeys = NULL;
	const int n = lbClimbConfigKeys(&keys, &rotationKeys);
	ENSURE(n > 0 && keys && rotationKeys);
	for (int i = 0; i < n + 4; ++i)
		for (int j = i + 1; j < n + 4; ++j)
			ENSURE(strcmp(i < n ? keys[i].name : rotationKeys[i - n], j < n ? keys[j].name : rotationKeys[j - n]) != 0);
	cJSON* config = everyKeyChanged(keys, n, rotationKeys);

	const lbClimbDef defaults = lbDefaultClimbDef();
	lbClimbDef def = defaults;
	char message[512] = "";
	lbResult code = lb_ok;
	const bool ok = lbClimbConfigRead(config, &def, message, (int)sizeof message, &code);
	if (!ok)
		printf("  %s\n", message);
	ENSURE(ok && code == lb_ok);
	ENSURE(sizeof(lbClimbDef) % 4 == 0);
	const unsigned char* a = (const unsigned char*)&defaults;
	const unsigned char* b = (const unsigned char*)&def;
	int unchanged = 0, words = 0;
	for (size_t w = 0; w + 4 <= sizeof(lbClimbDef); w += 4)
	{
		if (unkeyed(w))
			continue;
		++words;
		if (memcmp(a + w, b + w, 4) == 0)
		{
			printf("  lbClimbDef bytes %zu-%zu: no scenario key sets this field (add one in "
				   "src/io/scenario_system_climb.c)\n",
				   w, w + 3);
			++unchanged;
		}
	}
	printf("  %d number keys and 4 rotation keys set all %d words of lbClimbDef they should\n", n, words);
	ENSURE(unchanged == 0);
	ENSURE(def.internalValue == defaults.internalValue && def.fullBody.internalValue == defaults.fullBody.internalValue);
	// The rotation keys: 30 degrees about (1, 2, 2) / 3.
	for (int i = 0; i < 4; ++i)
	{
		ENSURE_NEAR(lbQuatAngle(def.searchRotationOffset[i]), 30.0f * LB_DEG2RAD, 1.0e-4f);
		const lbVec3 moved = lbQuatRotate(def.searchRotationOffset[i], lbMakeVec3(1.0f, 2.0f, 2.0f));
		ENSURE_NEAR(lbDistance(moved, lbMakeVec3(1.0f, 2.0f, 2.0f)), 0.0f, 1.0e-5f);
	}
	cJSON_Delete(config);

	// Each key alone changes exactly its own field's bytes.
	for (int i = 0; i < n + 4; ++i)
	{
		cJSON* all = everyKeyChanged(keys, n, rotationKeys);
		const char* name = i < n ? keys[i].name : rotationKeys[i - n];
		const size_t begin = i < n ? keys[i].offset : offsetof(lbClimbDef, searchRotationOffset) + (size_t)(i - n) * sizeof(lbQuat);
		const size_t size = i < n ? 4u : sizeof(lbQuat);
		cJSON* one = cJSON_CreateObject();
		cJSON_AddItemToObject(one, name, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(all, name), 1));
		lbClimbDef d = defaults;
		ENSURE(lbClimbConfigRead(one, &d, message, (int)sizeof message, &code));
		const unsigned char* p = (const unsigned char*)&d;
		for (size_t byte = 0; byte < sizeof(lbClimbDef); ++byte)
		{
			const bool own = byte >= begin && byte < begin + size;
			if (!own && p[byte] != a[byte])
			{
				printf("  key %s changed byte %zu outside its field\n", name, byte);
				ENSURE(false);
				break;
			}
		}
		ENSURE(memcmp(p + begin, a + begin, size) != 0);
		cJSON_Delete(one);
		cJSON_Delete(all);
	}
}

// Reads a config from JSON text; false with the message when refused.
static bool readText(const char* text, lbClimbDef* def, char* message, int capacity, lbResult* code)
{
	cJSON* config = cJSON_Parse(text);
	ENSURE(config != NULL);
	const bool ok = lbClimbConfigRead(config, def, message, capacity, code);
	cJSON_Delete(config);
	return ok;
}

// Unknown keys, out-of-range numbers, wrong types and turns past a whole one are refused with a
// message naming the key, and the def is left as it was.
static void test_bad_keys_are_refused_by_name(void)
{
	const struct
	{
		const char* text;
		const char* named;
	} cases[] = {
		{ "{\"side_cache_mni\": 0.3}", "side_cache_mni" },
		{ "{\"body_iterations\": -1}", "body_iterations" },
		{ "{\"fold_fade_end\": \"far\"}", "fold_fade_end" },
		{ "{\"full_body_damping\": 1e9}", "full_body_damping" },
		{ "{\"search_rotation_offset_hand_l\": [0, 400, 0]}", "search_rotation_offset_hand_l" },
		{ "{\"search_rotation_offset_foot_r\": [0, 1]}", "search_rotation_offset_foot_r" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
	{
		lbClimbDef def = lbDefaultClimbDef();
		const lbClimbDef before = def;
		char message[512] = "";
		lbResult code = lb_ok;
		const bool ok = readText(cases[i].text, &def, message, (int)sizeof message, &code);
		printf("  %s -> %s\n", cases[i].text, message);
		ENSURE(!ok && code == lb_errorParse);
		ENSURE(strstr(message, cases[i].named) != NULL);
		ENSURE(memcmp(&def, &before, sizeof def) == 0);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_every_def_field_has_a_key);
	RUN_TEST(test_bad_keys_are_refused_by_name);
	TEST_MAIN_END();
}
