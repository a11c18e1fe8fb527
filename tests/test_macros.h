// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Minimal test harness: each test_<area>.c has a main that calls RUN_TEST on functions returning
// void, then TEST_MAIN_END. A failed check prints file:line and the expression and marks the test
// failed; argv[1], when given, runs only tests whose name contains it.
#pragma once

#include "limber/base.h"
#include "limber/math.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

// The processor's sticky flag for an operation that took a denormal operand (x86-64: MXCSR's DE
// bit), cleared by lbTestDenormalClear and read by lbTestDenormalSeen; elsewhere never seen.
static inline void lbTestDenormalClear(void)
{
#if defined(__x86_64__) || defined(_M_X64)
	_mm_setcsr(_mm_getcsr() & ~0x3fu); // every sticky exception flag
#endif
}

static inline bool lbTestDenormalSeen(void)
{
#if defined(__x86_64__) || defined(_M_X64)
	return (_mm_getcsr() & 0x2u) != 0u;
#else
	return false;
#endif
}

typedef struct lbTestState
{
	int passed, failed, currentFailed;
	const char* filter;
} lbTestState;

static lbTestState lbTest = { 0, 0, 0, NULL };

#define TEST_MAIN_BEGIN(argc, argv) lbTest.filter = (argc) > 1 ? (argv)[1] : NULL
#define TEST_MAIN_END()                                                                                      \
	do                                                                                                       \
	{                                                                                                        \
		printf("%d passed, %d failed\n", lbTest.passed, lbTest.failed);                                      \
		return lbTest.failed == 0 ? 0 : 1;                                                                   \
	} while (0)

#define RUN_TEST(fn)                                                                                         \
	do                                                                                                       \
	{                                                                                                        \
		if (lbTest.filter && !strstr(#fn, lbTest.filter))                                                    \
			break;                                                                                           \
		lbTest.currentFailed = 0;                                                                            \
		fn();                                                                                                \
		if (lbTest.currentFailed)                                                                            \
		{                                                                                                    \
			++lbTest.failed;                                                                                 \
			printf("FAIL %s\n", #fn);                                                                        \
		}                                                                                                    \
		else                                                                                                 \
		{                                                                                                    \
			++lbTest.passed;                                                                                 \
			printf("ok   %s\n", #fn);                                                                        \
		}                                                                                                    \
	} while (0)

#define ENSURE(c)                                                                                            \
	do                                                                                                       \
	{                                                                                                        \
		if (!(c))                                                                                            \
		{                                                                                                    \
			if (lbTest.currentFailed < 5)                                                                    \
				printf("  %s:%d: ENSURE(%s)\n", __FILE__, __LINE__, #c);                                     \
			++lbTest.currentFailed;                                                                          \
		}                                                                                                    \
	} while (0)

#define ENSURE_NEAR(a, b, tol)                                                                               \
	do                                                                                                       \
	{                                                                                                        \
		double lbA_ = (double)(a), lbB_ = (double)(b);                                                       \
		if (!(fabs(lbA_ - lbB_) <= (double)(tol)))                                                           \
		{                                                                                                    \
			if (lbTest.currentFailed < 5)                                                                    \
				printf("  %s:%d: %s = %.9g, %s = %.9g, tol %g\n", __FILE__, __LINE__, #a, lbA_, #b, lbB_,    \
					   (double)(tol));                                                                       \
			++lbTest.currentFailed;                                                                          \
		}                                                                                                    \
	} while (0)

#define ENSURE_VEC3_NEAR(a, b, tol)                                                                          \
	do                                                                                                       \
	{                                                                                                        \
		lbVec3 lbVa_ = (a), lbVb_ = (b);                                                                     \
		double lbD_ = sqrt((double)lbLengthSquared(lbSub(lbVa_, lbVb_)));                                    \
		if (!(lbD_ <= (double)(tol)))                                                                        \
		{                                                                                                    \
			if (lbTest.currentFailed < 5)                                                                    \
				printf("  %s:%d: |%s - %s| = %.9g > %g: (%g %g %g) vs (%g %g %g)\n", __FILE__, __LINE__, #a, #b, \
					   lbD_, (double)(tol), lbVa_.x, lbVa_.y, lbVa_.z, lbVb_.x, lbVb_.y, lbVb_.z);           \
			++lbTest.currentFailed;                                                                          \
		}                                                                                                    \
	} while (0)

// q and -q are the same rotation.
#define ENSURE_QUAT_SAME_ROT(a, b, tolRadians)                                                               \
	do                                                                                                       \
	{                                                                                                        \
		double lbAng_ = (double)lbQuatAngleBetween(lbQuatNormalize(a), lbQuatNormalize(b));                  \
		if (!(lbAng_ <= (double)(tolRadians)))                                                               \
		{                                                                                                    \
			if (lbTest.currentFailed < 5)                                                                    \
				printf("  %s:%d: rotations %s and %s differ by %.9g rad\n", __FILE__, __LINE__, #a, #b, lbAng_); \
			++lbTest.currentFailed;                                                                          \
		}                                                                                                    \
	} while (0)

// Small deterministic generator (splitmix64) for property tests with fixed seeds.
typedef struct lbTestRng
{
	unsigned long long s;
} lbTestRng;

static inline unsigned long long lbTestNext(lbTestRng* r)
{
	unsigned long long z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/// Uniform float in [lo, hi).
static inline float lbTestUniform(lbTestRng* r, float lo, float hi)
{
	return lo + (hi - lo) * (float)((double)(lbTestNext(r) >> 11) * (1.0 / 9007199254740992.0));
}

/// Random unit vector, drawn uniformly in the ball and normalised (rejecting the centre's 0.1).
static inline lbVec3 lbTestRandomUnit(lbTestRng* rng)
{
	for (;;)
	{
		lbVec3 v = { lbTestUniform(rng, -1, 1), lbTestUniform(rng, -1, 1), lbTestUniform(rng, -1, 1) };
		float l = lbLength(v);
		if (l > 0.1f && l <= 1.0f)
			return lbMulSV(1.0f / l, v);
	}
}

// Log capture for error-path tests: install with lbSetLogFcn(CaptureLog, &capture) to count the
// reports and keep the last code and message; lbSetLogFcn(NULL, NULL) afterwards.
typedef struct LogCapture
{
	int count;
	lbResult last;
	char message[512];
} LogCapture;

static inline void CaptureLog(lbLogLevel level, lbResult code, const char* message, void* ctx)
{
	(void)level;
	LogCapture* c = (LogCapture*)ctx;
	c->count++;
	c->last = code;
	snprintf(c->message, sizeof c->message, "%s", message ? message : "");
}

// Whole file as a NUL-terminated buffer (free it), its size through outSize (may be NULL);
// NULL when the file cannot be opened or read.
static inline char* lbTestReadFile(const char* path, size_t* outSize)
{
	FILE* f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char* data = n >= 0 ? (char*)malloc((size_t)n + 1) : NULL;
	if (data && fread(data, 1, (size_t)n, f) != (size_t)n)
	{
		free(data);
		data = NULL;
	}
	fclose(f);
	if (data)
		data[n] = 0;
	if (outSize)
		*outSize = data ? (size_t)n : 0;
	return data;
}
