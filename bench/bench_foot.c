// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Foot placement per character per frame, sense + pose, on rocky ground as a triangle mesh and as
// a heightfield, for 1 and 1000 characters standing at random places mid-stride. Casts run every
// frame here (trace rate 0: the worst case); the default 30 Hz rate halves them at 60 fps (the
// default_rate rows, with the crowd's trace phases spread so every frame casts for half of it).
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "limber/limber.h"

#include <stdio.h>
#include <stdlib.h>

// Median ns per character per frame over `frames` frames of `count` characters. With `many` the
// sense stage runs through lbFootSenseMany (the crowd entry point: casts announced per group of
// characters), otherwise one lbFootSense call per character.
static double RunFoot(const lbBenchOptions* o, const lbWorld* world, const lbSceneParams* rocky, int count, int frames,
					  bool heelToe, double* outSense, float traceRate, uint64_t placementSeed, bool many)
{
	lbSkeleton* skel = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid h;
	lbMapHumanoid(skel, NULL, &h);
	// A mid-stride base pose from the procedural walk, shared by all characters.
	lbPose anim = lbCreatePose(skel), pose = lbCreatePose(skel);
	lbMotionState ms;
	lbMotionState_Init(&ms, &h, skel, lbTransform_identity);
	lbMotionParams mp = lbDefaultMotionParams(lb_motionWalk);
	for (int i = 0; i < 20; ++i)
		lbMotion_Sample(&ms, &h, skel, &mp, 1.0f / 60.0f, &anim);
	lbFootDef def = lbDefaultFootDef();
	def.traceRate = traceRate;
	def.heelToeTraces = heelToe;
	lbSceneQuery query = lbWorld_GetQuery(world);
	// Two copies of the characters: the sense-only pass runs its own, so each state advances once
	// per frame in both passes (a state stepped twice per frame would skip its reduced-rate casts).
	lbFootState* states = (lbFootState*)calloc(2 * (size_t)count, sizeof(lbFootState));
	lbFootState* senseStates = states + count;
	lbFootTargets* targets = (lbFootTargets*)calloc((size_t)count, sizeof(lbFootTargets));
	lbFootSenseInput* inputs = (lbFootSenseInput*)calloc((size_t)count, sizeof(lbFootSenseInput));
	uint64_t seed = placementSeed;
	float half = 0.4f * rocky->size;
	for (int i = 0; i < count; ++i)
	{
		float x = lbBenchUniform(&seed, -half, half), y = lbBenchUniform(&seed, -half, half);
		float z = lbSceneRockyHeight(rocky, x, y);
		lbQuat q = lbQuatFromAxisAngle(lbVec3_axisZ, lbBenchUniform(&seed, -LB_PI, LB_PI));
		inputs[i] = lbDefaultFootSenseInput();
		inputs[i].query = &query;
		inputs[i].animPose = &anim;
		inputs[i].dt = 1.0f / 60.0f;
		inputs[i].characterWs = lbMakeTransform(lbMakeVec3(x, y, z), q);
		lbFootState_Reset(&states[i]);
		lbFootState_Reset(&senseStates[i]);
		// Phases spread over the period: at a reduced trace rate each frame casts for its share of
		// the crowd instead of every character casting on the same frames.
		lbFootState_SetTracePhase(&states[i], (float)i / (float)count);
		lbFootState_SetTracePhase(&senseStates[i], (float)i / (float)count);
	}
	double* samples = (double*)malloc(sizeof(double) * (size_t)frames);
	double* senseSamples = (double*)malloc(sizeof(double) * (size_t)frames);
	volatile float sink = 0.0f;
	const int framesPerSample = count >= 1000 ? 1 : (1000 + count - 1) / count;
	for (int f = 0; f < frames; ++f)
	{
		uint64_t t0 = lbBenchThreadNs();
		for (int k = 0; k < framesPerSample; ++k)
		{
			if (many)
				lbFootSenseMany(states, &def, skel, &h, inputs, targets, count);
			for (int i = 0; i < count; ++i)
			{
				if (!many)
					lbFootSense(&states[i], &def, skel, &h, &inputs[i], &targets[i]);
				lbPose_Copy(&pose, &anim);
				lbFootApplyPose(&targets[i], &def, skel, &h, lb_footSolverTwoBone, &pose, NULL, 0);
				sink += pose.model[h.leg[0].foot].p.z;
			}
		}
		uint64_t t1 = lbBenchThreadNs();
		for (int k = 0; k < framesPerSample; ++k)
		{
			if (many)
				lbFootSenseMany(senseStates, &def, skel, &h, inputs, targets, count);
			else
				for (int i = 0; i < count; ++i)
					lbFootSense(&senseStates[i], &def, skel, &h, &inputs[i], &targets[i]);
		}
		uint64_t t2 = lbBenchThreadNs();
		samples[f] = (double)(t1 - t0) / (double)(count * framesPerSample);
		senseSamples[f] = (double)(t2 - t1) / (double)(count * framesPerSample);
	}
	(void)sink;
	// The first frame snaps every state; it is not a steady frame.
	double m = lbBenchMedian(samples + 1, frames - 1);
	if (outSense)
		*outSense = lbBenchMedian(senseSamples + 1, frames - 1);
	(void)o;
	free(senseSamples);
	free(samples);
	free(inputs);
	free(targets);
	free(states);
	lbDestroyPose(&anim);
	lbDestroyPose(&pose);
	lbDestroySkeleton(skel);
	return m;
}

void lbBenchFoot(const lbBenchOptions* o);
void lbBenchFoot(const lbBenchOptions* o)
{
	if (!lbBenchSelected(o, "foot"))
		return;
	for (int asMesh = 0; asMesh < 2; ++asMesh)
	{
		lbSceneParams p = lbDefaultSceneParams(lbSceneBuilderByName("rocky"));
		lbSceneParams_Set(&p, "size", o->smoke ? 10.0f : 100.0f);
		lbSceneParams_Set(&p, "resolution", 0.1f);
		lbSceneParams_Set(&p, "amplitude", 0.15f);
		lbSceneParams_Set(&p, "as_mesh", (float)asMesh);
		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* world = lbCreateWorld(&wd);
		lbBuildScene(world, &p);
		const char* ground = asMesh ? "mesh" : "heightfield";
		int frames = o->smoke ? 3 : 301;
		int counts[2] = { 1, o->smoke ? 10 : 1000 };
		for (int k = 0; k < 2; ++k)
		{
			double sense = 0.0, ns = 0.0;
			if (counts[k] == 1)
			{
				// One character alone, placed in turn at 16 random spots (the cost depends on the
				// ground under it); the median over the spots.
				double spots[16], senses[16];
				int nSpots = o->smoke ? 1 : 16;
				for (int q = 0; q < nSpots; ++q)
					spots[q] = RunFoot(o, world, &p, 1, o->smoke ? 3 : 21, false, &senses[q], 0.0f, 100 + (uint64_t)q, false);
				ns = lbBenchMedian(spots, nSpots);
				sense = lbBenchMedian(senses, nSpots);
			}
			else
			{
				// A crowd: through lbFootSenseMany, and one character at a time for comparison.
				ns = RunFoot(o, world, &p, counts[k], frames, false, &sense, 0.0f, 7, true);
				double sense1 = 0.0, ns1 = RunFoot(o, world, &p, counts[k], frames, false, &sense1, 0.0f, 7, false);
				char name1[96];
				snprintf(name1, sizeof name1, "foot.per_character.%s.%d.one_by_one", ground, counts[k]);
				lbBenchReport(o, name1, ns1 / 1000.0, "us");
				snprintf(name1, sizeof name1, "foot.sense.%s.%d.one_by_one", ground, counts[k]);
				lbBenchReport(o, name1, sense1 / 1000.0, "us");
			}
			char name[96];
			snprintf(name, sizeof name, "foot.per_character.%s.%d", ground, counts[k]);
			lbBenchReport(o, name, ns / 1000.0, "us");
			snprintf(name, sizeof name, "foot.sense.%s.%d", ground, counts[k]);
			lbBenchReport(o, name, sense / 1000.0, "us");
		}
		double ht = RunFoot(o, world, &p, o->smoke ? 10 : 1000, frames, true, NULL, 0.0f, 7, true);
		char name[96];
		snprintf(name, sizeof name, "foot.per_character.%s.heel_toe.1000", ground);
		lbBenchReport(o, name, ht / 1000.0, "us");
		if (asMesh == 0 && !o->smoke)
		{
			// The stable headline figure: 1000 characters on the heightfield.
			double hf = RunFoot(o, world, &p, 1000, frames, false, NULL, 0.0f, 7, true);
			lbBenchReport(o, "foot.per_character", hf / 1000.0, "us");
			// The default 30 Hz trace rate at 60 fps, trace phases spread: half the crowd casts on
			// each frame, so every frame costs about the same.
			double dflt = RunFoot(o, world, &p, 1000, frames, false, NULL, 30.0f, 7, true);
			lbBenchReport(o, "foot.per_character.default_rate", dflt / 1000.0, "us");
		}
		if (asMesh == 1 && !o->smoke)
		{
			double dflt = RunFoot(o, world, &p, 1000, frames, false, NULL, 30.0f, 7, true);
			lbBenchReport(o, "foot.per_character.mesh.1000.default_rate", dflt / 1000.0, "us");
		}
		lbDestroyWorld(world);
	}
}
