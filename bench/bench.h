// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Benchmark harness shared by bench/*.c. Each area defines `void lbBench<Area>(const lbBenchOptions*)`
// and is listed (as a weak symbol, so areas can land independently) in bench_main.c.
#pragma once

#include <stdbool.h>
#include <stdint.h>

typedef struct lbBenchOptions
{
	/// Repeats per measurement; the median is reported.
	int repeats;
	/// Smoke mode (ctest): tiny sizes, checks the code runs, prints no figures.
	bool smoke;
	/// Only run benchmarks whose name contains this (NULL = all).
	const char* filter;
} lbBenchOptions;

/// Monotonic clock in nanoseconds.
uint64_t lbBenchNowNs(void);

/// CPU time of the calling thread in nanoseconds: on a shared machine, wall time also counts the
/// time other processes held the core.
uint64_t lbBenchThreadNs(void);

/// Uniform float in [lo, hi) from a splitmix64 state (deterministic inputs for benchmarks).
float lbBenchUniform(uint64_t* state, float lo, float hi);

/// Median of `count` doubles (sorts the array in place).
double lbBenchMedian(double* values, int count);

/// True when the benchmark group `name` should run: the filter is part of its name, or names a figure
/// the group reports (`foot.per_character` runs the `foot` group).
bool lbBenchSelected(const lbBenchOptions* options, const char* name);

/// Prints a figure as `bench <name> <median> <unit>` (nothing in smoke mode).
void lbBenchReport(const lbBenchOptions* options, const char* name, double median, const char* unit);

/// Keeps the optimizer from discarding a value.
void lbBenchSink(const void* p);
