// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// limber_bench [--bench=name] [-r=repeats] [--smoke]: prints `bench <name> <median> <unit>` lines.
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t lbBenchNowNs(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t lbBenchThreadNs(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

float lbBenchUniform(uint64_t* state, float lo, float hi)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return lo + (hi - lo) * (float)((double)(z >> 11) * (1.0 / 9007199254740992.0));
}

static int lbCompareDouble(const void* a, const void* b)
{
	double x = *(const double*)a, y = *(const double*)b;
	return x < y ? -1 : (x > y ? 1 : 0);
}

double lbBenchMedian(double* values, int count)
{
	if (count <= 0)
		return 0.0;
	qsort(values, (size_t)count, sizeof(double), lbCompareDouble);
	return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

bool lbBenchSelected(const lbBenchOptions* options, const char* name)
{
	if (!options->filter || strstr(name, options->filter) != NULL)
		return true;
	// A filter naming one figure of a group (foot.per_character) runs the group that reports it.
	const size_t n = strlen(name);
	return strncmp(options->filter, name, n) == 0 && options->filter[n] == '.';
}

void lbBenchReport(const lbBenchOptions* options, const char* name, double median, const char* unit)
{
	if (options->smoke)
		return;
	printf("bench %s %.4g %s\n", name, median, unit);
	fflush(stdout);
}

static volatile const void* lbBenchSinkPtr;
void lbBenchSink(const void* p)
{
	lbBenchSinkPtr = p;
}

// Areas land independently: a missing one is a null weak symbol and is skipped.
#define LB_BENCH_AREAS(X) X(Query) X(Ik) X(Motion) X(Foot) X(Climb) X(Prone) X(Crowd)
#define LB_BENCH_DECLARE(area) __attribute__((weak)) void lbBench##area(const lbBenchOptions* options);
LB_BENCH_AREAS(LB_BENCH_DECLARE)

int main(int argc, char** argv)
{
	lbBenchOptions options = { 9, false, NULL };
	for (int i = 1; i < argc; ++i)
	{
		if (strncmp(argv[i], "--bench=", 8) == 0)
			options.filter = argv[i] + 8;
		else if (strncmp(argv[i], "-r=", 3) == 0)
			options.repeats = atoi(argv[i] + 3) > 0 ? atoi(argv[i] + 3) : 1;
		else if (strcmp(argv[i], "--smoke") == 0)
			options.smoke = true, options.repeats = 1;
		else
		{
			fprintf(stderr, "usage: limber_bench [--bench=name] [-r=repeats] [--smoke]\n");
			return 2;
		}
	}
#define LB_BENCH_RUN(area)                                                                                   \
	if (lbBench##area)                                                                                       \
		lbBench##area(&options);
	LB_BENCH_AREAS(LB_BENCH_RUN)
	return 0;
}
