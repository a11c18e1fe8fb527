// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Lists the shipped scenario files of a set (scenarios/<prefix>*.json), sorted by name, and opens
// their runs, for the tests that hold a set to its limits. Include after test_macros.h, with
// _POSIX_C_SOURCE set.
#pragma once

#include "limber/scenario.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lbTestCompareNames(const void* a, const void* b)
{
	return strcmp(*(const char* const*)a, *(const char* const*)b);
}

// Fills `names` (each the caller's to free) with the files of `dirPath` named `prefix`*.json;
// returns how many.
static int lbTestListScenarios(const char* dirPath, const char* prefix, char** names, int capacity)
{
	DIR* dir = opendir(dirPath);
	ENSURE(dir != NULL);
	if (!dir)
		return 0;
	const size_t p = strlen(prefix);
	int count = 0;
	for (struct dirent* e = readdir(dir); e && count < capacity; e = readdir(dir))
	{
		size_t n = strlen(e->d_name);
		if (strncmp(e->d_name, prefix, p) == 0 && n > p + 5 && strcmp(e->d_name + n - 5, ".json") == 0)
			names[count++] = strdup(e->d_name);
	}
	closedir(dir);
	qsort(names, (size_t)count, sizeof names[0], lbTestCompareNames);
	return count;
}

// Loads dirPath/name and creates its run (ENSUREs both); NULL when either fails. The caller
// steps the run and destroys it and *outScenario.
static lbRun* lbTestOpenRun(const char* dirPath, const char* name, lbScenario** outScenario)
{
	char path[1400], message[512];
	snprintf(path, sizeof path, "%s/%s", dirPath, name);
	*outScenario = lbLoadScenario(path, message, (int)sizeof message);
	ENSURE(*outScenario != NULL);
	lbResult r = lb_errorInvalidArgument;
	lbRun* run = *outScenario ? lbCreateRun(*outScenario, &r) : NULL;
	ENSURE(run != NULL);
	return run;
}
