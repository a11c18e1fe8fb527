// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The prone system's own sine and cosine (lbProneSinCos) against the double-precision ones: within a
// few float ulp over every angle, the series' range and libm's beyond it, the unit-axis rotation
// made from it of unit length, and tiny angles without a denormal step.
#include "systems/prone/prone_internal.h"
#include "test_macros.h"

#include <math.h>
#include <stdint.h>

// Absolute error allowed against the exact values (the results lie in [-1, 1]: 4 ulp of 1).
#define LB_TEST_SINCOS_TOL 4.8e-7

static void CheckAngle(float x)
{
	float s, c;
	lbProneSinCos(x, &s, &c);
	ENSURE(fabs((double)s - sin((double)x)) <= LB_TEST_SINCOS_TOL);
	ENSURE(fabs((double)c - cos((double)x)) <= LB_TEST_SINCOS_TOL);
	// The odd and even parts: sin(-x) = -sin(x), cos(-x) = cos(x), exactly (the series and libm's
	// both keep the symmetry).
	float sn, cn;
	lbProneSinCos(-x, &sn, &cn);
	ENSURE(sn == -s && cn == c);
}

static void test_prone_sincos_on_a_grid(void)
{
	// Dense across the series' range and past its edges at pi/4 either way.
	for (int i = -20000; i <= 20000; ++i)
		CheckAngle((float)i * (1.0f / 20000.0f));
	CheckAngle(0.78539816f);
	CheckAngle(nextafterf(0.78539816f, 1.0f));
	float s, c;
	lbProneSinCos(0.0f, &s, &c);
	ENSURE(s == 0.0f && c == 1.0f);
}

static void test_prone_sincos_random_angles(void)
{
	// Fixed seed: angles over [-3.2, 3.2] rad, and the unit-axis rotation's length.
	uint32_t seed = 20261203u;
	for (int i = 0; i < 5000; ++i)
	{
		seed = seed * 1664525u + 1013904223u;
		const float x = ((float)(seed >> 8) / 16777216.0f - 0.5f) * 6.4f;
		CheckAngle(x);
		const lbVec3 axis = lbNormalize(LB_LITERAL(lbVec3){ 0.3f, -0.8f, 0.52f });
		const lbQuat q = lbProneQuatFromUnitAxisAngle(axis, x);
		const double len = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
		ENSURE(fabs(len - 1.0) <= 1.0e-6);
		ENSURE(fabs((double)q.w - cos(0.5 * (double)x)) <= LB_TEST_SINCOS_TOL);
	}
}

// Tiny angles (a turn eased to nearly nothing, held frame after frame) give x and 1 to the bit without
// any operation taking a denormal float: the series squared them, and below about 1e-19 the square
// went denormal (on x86-64 the processor's flag tells).
static void test_prone_sincos_tiny_angles(void)
{
	int flagged = 0;
	for (float x = 1.0e-36f; x < 1.0e-4f; x *= 1.37f)
		for (int sign = -1; sign <= 1; sign += 2)
		{
			const float a = (float)sign * x;
			float s, c;
			lbTestDenormalClear();
			lbProneSinCos(a, &s, &c);
			flagged += lbTestDenormalSeen();
			CheckAngle(a);
			if (x < 1.0e-10f)
				ENSURE(s == a && c == 1.0f);
		}
	ENSURE(flagged == 0);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_prone_sincos_on_a_grid);
	RUN_TEST(test_prone_sincos_random_angles);
	RUN_TEST(test_prone_sincos_tiny_angles);
	TEST_MAIN_END();
}
