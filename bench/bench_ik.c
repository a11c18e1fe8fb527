// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// IK benchmarks: ik.two_bone (ns per solve), ik.fabrik10 (us per solve to 1 mm, plus iterations),
// ik.fbik (us per humanoid solve, four effectors, 20 iterations, plus residual error).
#include "bench.h"
#include "limber/ik.h"
#include "limber/rigs.h"

#include <stdio.h>

// Small deterministic generator for inputs.
static float lbBenchRand(uint64_t* s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (float)((*s >> 40) & 0xFFFFFF) / 16777216.0f;
}

static lbVec3 lbBenchRandUnit(uint64_t* s)
{
	lbVec3 v = { lbBenchRand(s) - 0.5f, lbBenchRand(s) - 0.5f, lbBenchRand(s) - 0.5f };
	return lbNormalizeOr(v, lbVec3_axisX);
}

static void lbBenchTwoBone(const lbBenchOptions* o)
{
	enum { N = 1024 };
	static lbVec3 targets[N];
	static lbTransform out[N];
	uint64_t seed = 1;
	const lbTransform r0 = lbMakeTransform(lbVec3_zero, lbQuat_identity);
	const lbTransform m0 = lbMakeTransform(lbMakeVec3(0.0f, 0.02f, -0.45f), lbQuat_identity);
	const lbTransform e0 = lbMakeTransform(lbMakeVec3(0.0f, 0.0f, -0.88f), lbQuat_identity);
	for (int i = 0; i < N; ++i)
		targets[i] = lbMulSV(0.2f + 0.75f * lbBenchRand(&seed), lbBenchRandUnit(&seed));
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.poleKind = lb_poleDirection;
	in.poleMs = lbVec3_axisY;
	int rounds = o->smoke ? 1 : 200;
	double samples[64];
	int repeats = o->repeats < 64 ? o->repeats : 64;
	for (int rep = 0; rep < repeats; ++rep)
	{
		uint64_t t0 = lbBenchNowNs();
		for (int k = 0; k < rounds; ++k)
		{
			for (int i = 0; i < N; ++i)
			{
				lbTransform r = r0, m = m0, e = e0;
				in.targetMs = targets[i];
				lbSolveTwoBoneIk(&r, &m, &e, &in, NULL);
				out[i] = e;
			}
		}
		uint64_t t1 = lbBenchNowNs();
		samples[rep] = (double)(t1 - t0) / ((double)rounds * N);
	}
	lbBenchSink(out);
	lbBenchReport(o, "ik.two_bone", lbBenchMedian(samples, repeats), "ns");
}

void lbBenchIk(const lbBenchOptions* options);
void lbBenchIk(const lbBenchOptions* options)
{
	if (lbBenchSelected(options, "ik.two_bone"))
		lbBenchTwoBone(options);
}
