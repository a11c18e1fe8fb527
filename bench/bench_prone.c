// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The prone system per character per frame, sense + pose, for a crowd of 256 characters crawling
// (the procedural crawl at 0.25 m/s, each at its own point of the cycle) over rocky ground of 0.1 m
// bumps, as a heightfield and as a triangle mesh of the same terrain, with the default def: casts at
// the default trace rate, the crowd's trace phases spread over the period, a cast not made again while
// its start stays within recastDistance. `.every_frame` rows make every cast every frame (the seed's
// centre, side, ahead and behind casts and the 15 segment probes). `prone.pose` is the pose stage
// alone. Each character's four limbs lock and release as the crawl plants and lifts them.
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "limber/limber.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define LB_BENCH_DT (1.0f / 60.0f)

typedef struct lbBenchCrawler
{
	lbProneState state;
	lbProneTargets targets;
	lbVec3 start;
	lbVec3 dir;
	int phase0;
	// This frame's pose in the cycle and character transform.
	int k;
	lbTransform characterWs;
} lbBenchCrawler;

static double RunProne(const lbSceneDef* rocky, bool mesh, const lbProneDef* proneDef, const lbSkeleton* skel,
					   const lbHumanoid* h, const lbPose* cycle, const lbTransform* cycleRoot, int cycleCount, int count,
					   int frames, const lbBenchOptions* options, double* outCasts, double* outPose)
{
	lbSceneDef sp = *rocky;
	sp.asMesh = mesh ? 1.0f : 0.0f;
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* world = lbCreateWorld(&wd);
	lbBuildScene(world, &sp);
	lbSceneQuery query = lbWorld_GetQuery(world);
	const lbProneDef def = *proneDef;
	lbBenchCrawler* cs = (lbBenchCrawler*)calloc((size_t)count, sizeof(lbBenchCrawler));
	uint64_t seed = 7;
	for (int i = 0; i < count; ++i)
	{
		lbProneState_Reset(&cs[i].state);
		// The crowd's casts spread over the trace period.
		lbProneState_SetTracePhase(&cs[i].state, (float)i / (float)count);
		float a = lbBenchUniform(&seed, -LB_PI, LB_PI);
		cs[i].dir = lbMakeVec3(cosf(a), sinf(a), 0.0f);
		cs[i].start = lbMakeVec3(lbBenchUniform(&seed, -5.0f, 5.0f), lbBenchUniform(&seed, -5.0f, 5.0f), 0.0f);
		cs[i].phase0 = (int)lbBenchUniform(&seed, 0.0f, (float)cycleCount) % cycleCount;
	}
	lbPose pose = lbCreatePose(skel);
	double* perChar = (double*)malloc(sizeof(double) * (size_t)options->repeats);
	double* perPose = (double*)malloc(sizeof(double) * (size_t)options->repeats);
	double casts = 0.0;
	int castFrames = 0;
	for (int rep = 0; rep < options->repeats; ++rep)
	{
		uint64_t spent = 0, posing = 0;
		for (int frame = 0; frame < frames; ++frame)
		{
			// Where each character is this frame (untimed): the crawl's travel along its line over the
			// terrain, with the cycle's own sway and yaw.
			for (int i = 0; i < count; ++i)
			{
				lbBenchCrawler* c = &cs[i];
				c->k = (c->phase0 + frame + rep * frames) % cycleCount;
				float along = 0.25f * LB_BENCH_DT * (float)(frame + rep * frames);
				lbVec3 p = lbMulAdd(c->start, along, c->dir);
				p.z = lbSceneRockyHeight(&sp, p.x, p.y);
				lbQuat q = lbQuatFromTwoAxes(h->upMs, lbVec3_axisZ, h->forwardMs, c->dir);
				c->characterWs = lbTransformMul(lbMakeTransform(p, q), cycleRoot[c->k]);
			}
			uint64_t t0 = lbBenchThreadNs();
			for (int i = 0; i < count; ++i)
			{
				lbBenchCrawler* c = &cs[i];
				lbProneSenseInput in = lbDefaultProneSenseInput();
				in.query = &query;
				in.characterWs = c->characterWs;
				in.animPose = &cycle[c->k];
				in.dt = LB_BENCH_DT;
				lbProneSense(&c->state, &def, skel, h, &in, &c->targets);
			}
			uint64_t t1 = lbBenchThreadNs();
			for (int i = 0; i < count; ++i)
			{
				lbBenchCrawler* c = &cs[i];
				lbPose_Copy(&pose, &cycle[c->k]);
				lbProneApplyPose(&c->targets, &def, skel, h, &pose, NULL);
			}
			uint64_t t2 = lbBenchThreadNs();
			spent += t2 - t0;
			posing += t2 - t1;
			for (int i = 0; i < count; ++i)
			{
				casts += (double)cs[i].targets.castCount;
				++castFrames;
			}
		}
		perChar[rep] = (double)spent * 1.0e-3 / (double)(frames * count);
		perPose[rep] = (double)posing * 1.0e-3 / (double)(frames * count);
	}
	lbBenchSink(pose.model);
	double median = lbBenchMedian(perChar, options->repeats);
	*outCasts = castFrames > 0 ? casts / (double)castFrames : 0.0;
	*outPose = lbBenchMedian(perPose, options->repeats);
	free(perChar);
	free(perPose);
	lbDestroyPose(&pose);
	free(cs);
	lbDestroyWorld(world);
	return median;
}

void lbBenchProne(const lbBenchOptions* options);
void lbBenchProne(const lbBenchOptions* options)
{
	// Each run can be picked alone (--bench=prone.default.heightfield, e.g. under callgrind).
	const bool runHf = lbBenchSelected(options, "prone.default.heightfield");
	const bool runMesh = lbBenchSelected(options, "prone.default.mesh");
	const bool runHfEvery = lbBenchSelected(options, "prone.every_frame.heightfield");
	const bool runMeshEvery = lbBenchSelected(options, "prone.every_frame.mesh");
	if (!runHf && !runMesh && !runHfEvery && !runMeshEvery)
		return;
	lbSkeleton* skel = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid h;
	lbMapHumanoid(skel, NULL, &h);
	// One crawl cycle, each pose with the model frame's offset from the cycle's start.
	lbMotionState ms;
	lbMotionState_Init(&ms, skel, &h, lbTransform_identity);
	lbMotionDef mp = lbDefaultMotionDef(lb_motionCrawl);
	lbPose scratch = lbCreatePose(skel);
	for (int i = 0; i < 120; ++i)
		lbMotion_Sample(&ms, skel, &h, &mp, LB_BENCH_DT, &scratch);
	lbDestroyPose(&scratch);
	int n = ms.cycleRate > 0.0f ? (int)lroundf(1.0f / (ms.cycleRate * LB_BENCH_DT)) : 60;
	n = n < 8 ? 8 : (n > 400 ? 400 : n);
	lbPose* cycle = (lbPose*)calloc((size_t)n, sizeof(lbPose));
	lbTransform* roots = (lbTransform*)calloc((size_t)n, sizeof(lbTransform));
	lbTransform start = ms.characterWs;
	for (int i = 0; i < n; ++i)
	{
		cycle[i] = lbCreatePose(skel);
		lbMotion_Sample(&ms, skel, &h, &mp, LB_BENCH_DT, &cycle[i]);
		// The crawl's sway and yaw about the cycle's start; its travel is the bench's own line.
		lbTransform rel = lbTransformMul(lbTransformInverse(start), ms.characterWs);
		rel.p = lbVec3_zero;
		roots[i] = rel;
	}
	lbSceneDef rocky = lbDefaultSceneDef(lb_sceneRocky);
	rocky.amplitude = 0.1f;
	rocky.scale = 1.5f;
	rocky.size = 14.0f;
	rocky.resolution = 0.05f;
	const int count = options->smoke ? 2 : 256, frames = options->smoke ? 3 : 120;
	double casts = 0.0, pose = 0.0;
	lbProneDef def = lbDefaultProneDef();
	if (runHf)
	{
		double hf = RunProne(&rocky, false, &def, skel, &h, cycle, roots, n, count, frames, options, &casts, &pose);
		lbBenchReport(options, "prone.per_character", hf, "us");
		lbBenchReport(options, "prone.per_character.heightfield.256", hf, "us");
		lbBenchReport(options, "prone.pose.heightfield.256", pose, "us");
		lbBenchReport(options, "prone.casts_per_frame.heightfield", casts, "casts");
	}
	if (runMesh)
	{
		double me = RunProne(&rocky, true, &def, skel, &h, cycle, roots, n, count, frames, options, &casts, &pose);
		lbBenchReport(options, "prone.per_character.mesh.256", me, "us");
		lbBenchReport(options, "prone.casts_per_frame.mesh", casts, "casts");
	}
	// Every probe cast every frame (traceRate 0).
	lbProneDef every = def;
	every.traceRate = 0.0f;
	every.recastDistance = 0.0f;
	if (runHfEvery)
	{
		double hf = RunProne(&rocky, false, &every, skel, &h, cycle, roots, n, count, frames, options, &casts, &pose);
		lbBenchReport(options, "prone.per_character.heightfield.256.every_frame", hf, "us");
		lbBenchReport(options, "prone.casts_per_frame.heightfield.every_frame", casts, "casts");
	}
	if (runMeshEvery)
	{
		double me = RunProne(&rocky, true, &every, skel, &h, cycle, roots, n, count, frames, options, &casts, &pose);
		lbBenchReport(options, "prone.per_character.mesh.256.every_frame", me, "us");
	}
	for (int i = 0; i < n; ++i)
		lbDestroyPose(&cycle[i]);
	free(cycle);
	free(roots);
	lbDestroySkeleton(skel);
}
