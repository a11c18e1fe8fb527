// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Motion benchmarks: motion.walk and motion.crawl (us per lbMotion_Sample on the mannequin),
// motion.clip_sample (us per lbSampleClip of a 27-bone keyed clip with 120 keys per track).
#include "bench.h"
#include "limber/motion.h"
#include "limber/rigs.h"

#include <stdlib.h>
#include <string.h>

static void lbBenchProcedural(const lbBenchOptions* o, lbBaseMotion motion, const char* name)
{
	if (!lbBenchSelected(o, name))
		return;
	lbSkeleton* s = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid h;
	lbMapHumanoid(s, NULL, &h);
	lbPose pose = lbCreatePose(s);
	lbMotionState st;
	lbMotionState_Init(&st, s, &h, lbTransform_identity);
	lbMotionDef p = lbDefaultMotionDef(motion);
	p.turnRate = 0.2f;
	const int frames = o->smoke ? 4 : 2000;
	double samples[64];
	int repeats = o->repeats < 64 ? o->repeats : 64;
	for (int rep = 0; rep < repeats; ++rep)
	{
		uint64_t t0 = lbBenchNowNs();
		for (int i = 0; i < frames; ++i)
			lbMotion_Sample(&st, s, &h, &p, 1.0f / 60.0f, &pose);
		uint64_t t1 = lbBenchNowNs();
		samples[rep] = (double)(t1 - t0) / (1000.0 * frames);
	}
	lbBenchSink(pose.model);
	lbBenchReport(o, name, lbBenchMedian(samples, repeats), "us");
	lbDestroyPose(&pose);
	lbDestroySkeleton(s);
}

static void lbBenchClipSample(const lbBenchOptions* o)
{
	if (!lbBenchSelected(o, "motion.clip_sample"))
		return;
	lbSkeleton* s = lbCreateReferenceRig(lb_rigMannequin);
	enum { KEYS = 120 };
	const int n = s->boneCount;
	float* times = (float*)malloc(sizeof(float) * KEYS);
	lbQuat* rots = (lbQuat*)malloc(sizeof(lbQuat) * KEYS * (size_t)n);
	lbClipTrack* tracks = (lbClipTrack*)calloc((size_t)n, sizeof(lbClipTrack));
	for (int k = 0; k < KEYS; ++k)
		times[k] = (float)k / 30.0f;
	for (int b = 0; b < n; ++b)
	{
		for (int k = 0; k < KEYS; ++k)
			rots[b * KEYS + k] = lbQuatMul(s->restLocal[b].q, lbQuatFromAxisAngle(lbVec3_axisX, 0.01f * (float)k));
		tracks[b].bone = b;
		tracks[b].rotationCount = KEYS;
		tracks[b].rotationTimes = times;
		tracks[b].rotations = rots + b * KEYS;
	}
	lbClip clip = { "bench", (float)(KEYS - 1) / 30.0f, n, n, tracks, 0, 0.0f, NULL };
	lbPose pose = lbCreatePose(s);
	const int samplesPerRep = o->smoke ? 4 : 20000;
	double samples[64];
	int repeats = o->repeats < 64 ? o->repeats : 64;
	for (int rep = 0; rep < repeats; ++rep)
	{
		uint64_t t0 = lbBenchNowNs();
		for (int i = 0; i < samplesPerRep; ++i)
			lbSampleClip(&clip, s, 0.0137f * (float)i, lb_clipLoop, &pose);
		uint64_t t1 = lbBenchNowNs();
		samples[rep] = (double)(t1 - t0) / (1000.0 * samplesPerRep);
	}
	lbBenchSink(pose.model);
	lbBenchReport(o, "motion.clip_sample", lbBenchMedian(samples, repeats), "us");
	lbDestroyPose(&pose);
	free(times);
	free(rots);
	free(tracks);
	lbDestroySkeleton(s);
}

void lbBenchMotion(const lbBenchOptions* o);
void lbBenchMotion(const lbBenchOptions* o)
{
	lbBenchProcedural(o, lb_motionWalk, "motion.walk");
	lbBenchProcedural(o, lb_motionRun, "motion.run");
	lbBenchProcedural(o, lb_motionCrawl, "motion.crawl");
	lbBenchClipSample(o);
}
