// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The prone system's scenario keys: every field of lbProneDef can be set from a scenario file (a field
// added without a key fails here), and a value out of range or a key the runner does not know is
// refused with the def unchanged.
#include "io/scenario_internal.h"
#include "limber/prone.h"
#include "limber/scenario.h"
#include "test_macros.h"

#include <stddef.h>
#include <stdint.h>

// Defined in src/io/scenario_system_prone.c (the adapter has no header of its own).
int lbProneConfigKeys(const lbConfigNumberKey** outNumbers, const char** outFlags, int flagCapacity, int* outFlagCount);
bool lbProneConfigRead(const cJSON* config, lbProneDef* def, char* message, int capacity, lbResult* outCode);

enum
{
	kMaxFlags = 16
};

// Every 4-byte word of lbProneDef changes when every key is given a value other than its default,
// except the words of `up` (the runner sets it from the scenario's up) and `internalValue`. Words, not
// fields, because the test cannot name fields the tables do not know: a float or uint32_t field fills
// a word by itself, so a new one without a key leaves its word equal and fails here. Bools fill one
// byte of a word whose other bytes are padding (zero in both) or other bools; each flag's byte is
// checked to change on its own, and the count of changed words must be the number keys' plus the
// flag words', so a key that writes another key's field fails too.
static void test_every_prone_def_field_has_a_key(void)
{
	const lbConfigNumberKey* keys = NULL;
	const char* flags[kMaxFlags];
	int flagCount = 0;
	const int n = lbProneConfigKeys(&keys, flags, kMaxFlags, &flagCount);
	ENSURE(n > 0 && keys != NULL && flagCount > 0 && flagCount <= kMaxFlags);
	for (int i = 0; i < n; ++i)
		for (int j = i + 1; j < n; ++j)
			ENSURE(strcmp(keys[i].name, keys[j].name) != 0 && keys[i].offset != keys[j].offset);

	const lbProneDef defaults = lbDefaultProneDef();
	const char* base = (const char*)&defaults;
	cJSON* config = cJSON_CreateObject();
	for (int i = 0; i < n; ++i)
	{
		const lbConfigNumberKey* k = &keys[i];
		ENSURE(k->offset + 4 <= sizeof(lbProneDef));
		if (k->bits)
		{
			uint32_t value;
			memcpy(&value, base + k->offset, sizeof value);
			cJSON_AddNumberToObject(config, k->name, value == 5u ? 6.0 : 5.0);
			continue;
		}
		float value;
		memcpy(&value, base + k->offset, sizeof value);
		double inFile = k->degrees ? (double)value * LB_RAD2DEG : (double)value;
		double v = inFile < k->hi ? 0.5 * (inFile + k->hi) : 0.5 * (k->lo + inFile);
		ENSURE(v >= k->lo && v <= k->hi && (float)v != (float)inFile);
		cJSON_AddNumberToObject(config, k->name, v);
	}
	for (int i = 0; i < flagCount; ++i)
	{
		// Flip the flag alone first: exactly one byte of the def changes, one no other flag writes.
		cJSON* one = cJSON_CreateObject();
		lbProneDef def = defaults;
		bool now = false;
		// Find its current value by reading it both ways: the byte that changes is the flag's.
		cJSON_AddBoolToObject(one, flags[i], true);
		lbResult code = lb_ok;
		ENSURE(lbProneConfigRead(one, &def, NULL, 0, &code) && code == lb_ok);
		lbProneDef other = defaults;
		cJSON_ReplaceItemInObject(one, flags[i], cJSON_CreateBool(false));
		ENSURE(lbProneConfigRead(one, &other, NULL, 0, &code) && code == lb_ok);
		int changed = 0;
		const unsigned char* a = (const unsigned char*)&def;
		const unsigned char* b = (const unsigned char*)&other;
		for (size_t byte = 0; byte < sizeof(lbProneDef); ++byte)
			if (a[byte] != b[byte])
			{
				++changed;
				now = ((const unsigned char*)&defaults)[byte] != 0;
			}
		ENSURE(changed == 1);
		cJSON_AddBoolToObject(config, flags[i], !now);
		cJSON_Delete(one);
	}

	lbProneDef def = defaults;
	def.up = lbVec3_axisY;
	char message[512] = "";
	lbResult code = lb_ok;
	const bool ok = lbProneConfigRead(config, &def, message, (int)sizeof message, &code);
	if (!ok)
		printf("  %s\n", message);
	ENSURE(ok && code == lb_ok);
	ENSURE(sizeof(lbProneDef) % 4 == 0);
	const size_t upBegin = offsetof(lbProneDef, up), upEnd = upBegin + sizeof(lbVec3);
	const size_t cookie = offsetof(lbProneDef, internalValue);
	const unsigned char* a = (const unsigned char*)&defaults;
	const unsigned char* b = (const unsigned char*)&def;
	int changedWords = 0, flagWords = 0;
	for (size_t w = 0; w + 4 <= sizeof(lbProneDef); w += 4)
	{
		if ((w >= upBegin && w < upEnd) || w == cookie)
			continue;
		bool changed = memcmp(a + w, b + w, 4) != 0;
		if (!changed)
			printf("  lbProneDef bytes %zu-%zu have no scenario key\n", w, w + 3);
		ENSURE(changed);
		changedWords += changed ? 1 : 0;
		bool number = false;
		for (int i = 0; i < n; ++i)
			number = number || keys[i].offset == w;
		flagWords += number ? 0 : 1;
	}
	ENSURE(changedWords == n + flagWords);
	ENSURE(flagWords >= 1 && flagWords <= flagCount);
	cJSON_Delete(config);
}

// A value out of range, a wrong type or an unknown key is refused by name, and the def stays as it was.
static void test_prone_config_refuses_bad_values(void)
{
	const char* bad[] = {
		"{\"trace_radius\": -0.1}", "{\"max_roll_deg\": 120}", "{\"lie_angle_deg\": 0}",
		"{\"probe_reach\": \"far\"}", "{\"fit_limbs\": 1}", "{\"posture\": \"side\"}",
		"{\"transition_time\": 0}", "{\"no_such_key\": 1}",
	};
	lbSetLogFcn(NULL, NULL);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
	{
		cJSON* config = cJSON_Parse(bad[i]);
		ENSURE(config != NULL);
		lbProneDef def = lbDefaultProneDef();
		const lbProneDef before = def;
		char message[256] = "";
		lbResult code = lb_ok;
		ENSURE(!lbProneConfigRead(config, &def, message, (int)sizeof message, &code));
		ENSURE(code != lb_ok && message[0] != '\0');
		ENSURE(memcmp(&def, &before, sizeof def) == 0);
		cJSON_Delete(config);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_every_prone_def_field_has_a_key);
	RUN_TEST(test_prone_config_refuses_bad_values);
	TEST_MAIN_END();
}
