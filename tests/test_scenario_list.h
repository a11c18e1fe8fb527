// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Lists the shipped scenario files of a set (scenarios/<prefix>*.json), sorted by name, for the
// tests that hold a set to its limits. Include after test_macros.h, with _POSIX_C_SOURCE set.
#pragma once

#include <dirent.h>
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
