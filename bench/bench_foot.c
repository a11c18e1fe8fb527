// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Foot placement per character per frame, sense + pose, on rocky ground as a triangle mesh and as
// a heightfield, for 1 and 1000 characters standing at random places mid-stride. Casts run every
// frame here (trace rate 0: the worst case); the default 30 Hz rate halves them at 60 fps.
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "limber/limber.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct Character
{
	lbFootState state;
	lbFootTargets targets;
	lbTransform characterWs;
} Character;

// Median ns per character per frame over `frames` frames of `count` characters.
static double RunFoot(const lbBenchOptions* o, const lbWorld* world, const lbSceneParams* rocky, int count, int frames,
					  bool heelToe, double* outSense, float traceRate, uint64_t placementSeed)
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
	Character* chars = (Character*)calloc((size_t)count, sizeof(Character));
	uint64_t seed = placementSeed;
	float half = 0.4f * rocky->size;
	for (int i = 0; i < count; ++i)
	{
		float x = lbBenchUniform(&seed, -half, half), y = lbBenchUniform(&seed, -half, half);
		float z = lbSceneRockyHeight(rocky, x, y);
		lbQuat q = lbQuatFromAxisAngle(lbVec3_axisZ, lbBenchUniform(&seed, -LB_PI, LB_PI));
		chars[i].characterWs = lbMakeTransform(lbMakeVec3(x, y, z), q);
		lbFootState_Reset(&chars[i].state);
	}
	// The sense-only pass runs its own copy of the characters, so each state advances once per
	// frame in both passes (a state stepped twice per frame would skip its reduced-rate casts).
	Character* senseChars = (Character*)malloc(sizeof(Character) * (size_t)count);
	for (int i = 0; i < count; ++i)
		senseChars[i] = chars[i];
	double* samples = (double*)malloc(sizeof(double) * (size_t)frames);
	double* senseSamples = (double*)malloc(sizeof(double) * (size_t)frames);
	lbFootSenseInput in = lbDefaultFootSenseInput();
	in.query = &query;
	in.animPose = &anim;
	in.dt = 1.0f / 60.0f;
	volatile float sink = 0.0f;
	// Each sample covers at least 1000 character updates (several frames for a small crowd), so
	// the clock's own cost (a system call for thread CPU time) does not count.
	const int framesPerSample = count >= 1000 ? 1 : (1000 + count - 1) / count;
	for (int f = 0; f < frames; ++f)
	{
		// Sense and pose together, then sense alone (it advances the state a few more frames,
		// which the steady-state figures do not mind); two clock reads per timed loop.
		uint64_t t0 = lbBenchThreadNs();
		for (int k = 0; k < framesPerSample; ++k)
		{
			for (int i = 0; i < count; ++i)
			{
				Character* c = &chars[i];
				in.characterWs = c->characterWs;
				lbFootSense(&c->state, &def, skel, &h, &in, &c->targets);
				lbPose_Copy(&pose, &anim);
				lbFootApplyPose(&c->targets, &def, skel, &h, lb_footSolverTwoBone, &pose, NULL, 0);
				sink += pose.model[h.leg[0].foot].p.z;
			}
		}
		uint64_t t1 = lbBenchThreadNs();
		for (int k = 0; k < framesPerSample; ++k)
		{
			for (int i = 0; i < count; ++i)
			{
				Character* c = &senseChars[i];
				in.characterWs = c->characterWs;
				lbFootSense(&c->state, &def, skel, &h, &in, &c->targets);
			}
		}
		uint64_t t2 = lbBenchThreadNs();
		uint64_t totalNs = t1 - t0, senseNs = t2 - t1;
		samples[f] = (double)totalNs / (double)(count * framesPerSample);
		senseSamples[f] = (double)senseNs / (double)(count * framesPerSample);
	}
	(void)sink;
	// The first frame snaps everything into place; measure the steady state.
	double m = lbBenchMedian(samples + 1, frames - 1);
	if (outSense)
		*outSense = lbBenchMedian(senseSamples + 1, frames - 1);
	free(senseSamples);
	(void)o;
	free(samples);
	free(senseChars);
	free(chars);
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
					spots[q] = RunFoot(o, world, &p, 1, o->smoke ? 3 : 21, false, &senses[q], 0.0f, 100 + (uint64_t)q);
				ns = lbBenchMedian(spots, nSpots);
				sense = lbBenchMedian(senses, nSpots);
			}
			else
				ns = RunFoot(o, world, &p, counts[k], frames, false, &sense, 0.0f, 7);
			char name[96];
			snprintf(name, sizeof name, "foot.per_character.%s.%d", ground, counts[k]);
			lbBenchReport(o, name, ns / 1000.0, "us");
			snprintf(name, sizeof name, "foot.sense.%s.%d", ground, counts[k]);
			lbBenchReport(o, name, sense / 1000.0, "us");
		}
		double ht = RunFoot(o, world, &p, o->smoke ? 10 : 1000, frames, true, NULL, 0.0f, 7);
		char name[96];
		snprintf(name, sizeof name, "foot.per_character.%s.heel_toe.1000", ground);
		lbBenchReport(o, name, ht / 1000.0, "us");
		if (asMesh == 0 && !o->smoke)
		{
			// The stable headline figure: 1000 characters on the heightfield.
			double hf = RunFoot(o, world, &p, 1000, frames, false, NULL, 0.0f, 7);
			lbBenchReport(o, "foot.per_character", hf / 1000.0, "us");
			// The default 30 Hz trace rate at 60 fps: casts on every other frame. Half the frames are
			// of each kind, so the median lands between the two, at about their mean.
			double dflt = RunFoot(o, world, &p, 1000, frames, false, NULL, 30.0f, 7);
			lbBenchReport(o, "foot.per_character.default_rate", dflt / 1000.0, "us");
		}
		lbDestroyWorld(world);
	}
}
