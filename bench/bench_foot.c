// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Foot placement per character per frame, sense + pose, for 1 and 1000 characters walking (the
// procedural walk at 1.4 m/s, each at its own point of the gait cycle) over three grounds: rocky
// terrain as a heightfield and as a 2M-triangle mesh (each character walks a circle of 5-12 m
// radius), and a ridge of stairs up and down (boxes; circles of 4 m radius crossing it at every
// angle). Walking feet swing, land, slide and lock, so every probe of the default def does work:
// the centre cast, the footprint rays under heel, ball and toe tip, the look-ahead rays of a
// swinging foot and the extra probes of a landing or planting foot. Casts run every frame here
// (trace rate 0: the worst case); the default 30 Hz rate halves them at 60 fps (the default_rate
// rows, with the crowd's trace phases spread so every frame casts for half of it). `.nofootprint`
// rows run the same characters with footprintTraces = false, so the footprint probes' cost is the
// difference of two figures of one run; `foot.casts_per_frame.*` are the casts per character per
// frame (lbFootTargets.castCount) of the crowd rows.
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "limber/limber.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LB_BENCH_DT (1.0f / 60.0f)

// One cycle of a procedural motion (the walk, or the idle stance) at its steady speed, shared by
// every character.
typedef struct lbBenchWalk
{
	lbSkeleton* skel;
	lbHumanoid h;
	lbPose* poses;
	int poseCount;
	float speed;
} lbBenchWalk;

static void lbBenchWalk_Init(lbBenchWalk* w, lbBaseMotion motion)
{
	w->skel = lbCreateReferenceRig(lb_rigMannequin);
	lbMapHumanoid(w->skel, NULL, &w->h);
	lbMotionState ms;
	lbMotionState_Init(&ms, w->skel, &w->h, lbTransform_identity);
	lbMotionDef mp = lbDefaultMotionDef(motion);
	lbPose scratch = lbCreatePose(w->skel);
	// Four seconds bring the speed to its target (acceleration 4 /s).
	for (int i = 0; i < 240; ++i)
		lbMotion_Sample(&ms, w->skel, &w->h, &mp, LB_BENCH_DT, &scratch);
	lbDestroyPose(&scratch);
	int n = ms.cycleRate > 0.0f ? (int)lroundf(1.0f / (ms.cycleRate * LB_BENCH_DT)) : 60;
	n = n < 8 ? 8 : (n > 240 ? 240 : n);
	w->poseCount = n;
	w->poses = (lbPose*)calloc((size_t)n, sizeof(lbPose));
	lbVec3 p0 = ms.characterWs.p;
	for (int i = 0; i < n; ++i)
	{
		w->poses[i] = lbCreatePose(w->skel);
		lbMotion_Sample(&ms, w->skel, &w->h, &mp, LB_BENCH_DT, &w->poses[i]);
	}
	// The model frame's mean speed over the cycle: planted feet stay put in the world.
	w->speed = lbLength(lbSub(ms.characterWs.p, p0)) / ((float)n * LB_BENCH_DT);
}

static void lbBenchWalk_Destroy(lbBenchWalk* w)
{
	for (int i = 0; i < w->poseCount; ++i)
		lbDestroyPose(&w->poses[i]);
	free(w->poses);
	lbDestroySkeleton(w->skel);
}

// A ground to walk on.
typedef struct lbBenchGround
{
	const char* name;
	lbWorld* world;
	lbSceneDef rocky;
	bool stairs;
	// Half the side (rocky) or the width (stairs) of the area the circles stay in (m).
	float half;
} lbBenchGround;

// One character: a circle walked at the walk's speed, and where in the gait cycle it starts.
typedef struct lbBenchWalker
{
	float cx, cy, radius, angle0, dir;
	int phase0;
} lbBenchWalker;

static void lbBenchWalker_Place(lbBenchWalker* c, const lbBenchGround* g, const lbBenchWalk* w, uint64_t* seed)
{
	if (g->stairs)
	{
		c->radius = lbBenchUniform(seed, 3.5f, 4.5f);
		c->cx = lbBenchUniform(seed, -1.0f, 1.0f);
		float m = g->half - c->radius > 0.0f ? g->half - c->radius : 0.0f;
		c->cy = lbBenchUniform(seed, -m, m);
	}
	else
	{
		c->radius = lbBenchUniform(seed, 0.05f, 0.12f) * 2.5f * g->half;
		float m = 0.8f * g->half - c->radius;
		c->cx = lbBenchUniform(seed, -m, m);
		c->cy = lbBenchUniform(seed, -m, m);
	}
	c->angle0 = lbBenchUniform(seed, -LB_PI, LB_PI);
	c->dir = lbBenchUniform(seed, 0.0f, 1.0f) < 0.5f ? -1.0f : 1.0f;
	c->phase0 = (int)lbBenchUniform(seed, 0.0f, (float)w->poseCount) % w->poseCount;
}

// The sense input of a walker at frame n: on its circle, facing along it, on the ground under its
// origin (the capsule: rocky height, or the stair tread it stands on), the pose of its gait phase.
static void lbBenchWalker_Input(const lbBenchWalker* c, const lbBenchGround* g, const lbBenchWalk* w, const lbSceneQuery* q,
								long n, lbFootSenseInput* in)
{
	float a = c->angle0 + c->dir * w->speed * (float)n * LB_BENCH_DT / c->radius;
	float ca = cosf(a), sa = sinf(a);
	float x = c->cx + c->radius * ca, y = c->cy + c->radius * sa;
	lbVec3 t = lbMakeVec3(-sa * c->dir, ca * c->dir, 0.0f);
	float z = 0.0f;
	if (g->stairs)
	{
		lbQueryInput qi = lbDefaultQueryInput();
		qi.start = lbMakeVec3(x, y, 5.0f);
		qi.end = lbMakeVec3(x, y, -5.0f);
		lbHit hit = lbWorld_RayCast(g->world, &qi);
		z = hit.hit ? hit.location.z : 0.0f;
	}
	else
		z = lbSceneRockyHeight(&g->rocky, x, y);
	lbVec3 fwd = w->h.forwardMs;
	float yaw = atan2f(t.y, t.x) - atan2f(fwd.y, fwd.x);
	*in = lbDefaultFootSenseInput();
	in->query = q;
	in->animPose = &w->poses[(c->phase0 + n) % w->poseCount];
	in->dt = LB_BENCH_DT;
	in->velocityWs = lbMulSV(w->speed, t);
	in->characterWs = lbMakeTransform(lbMakeVec3(x, y, z), lbQuatFromAxisAngle(lbVec3_axisZ, yaw));
}

// Median ns per character per frame over `frames` samples of `count` characters walking. With
// `many` the crowd entry points run on the calling thread (lbFootSenseMany: casts announced per group
// of characters; lbFootApplyPoseCrowd: legs solved in batches), otherwise one lbFootSense and one
// lbFootApplyPose call per character. *outCasts: casts per
// character per frame (steady frames).
static double RunFoot(const lbBenchWalk* w, const lbBenchGround* g, int count, int frames, const lbFootDef* def,
					  double* outSense, double* outCasts, uint64_t placementSeed, bool many)
{
	const lbSkeleton* skel = w->skel;
	const lbHumanoid* h = &w->h;
	lbPose pose = lbCreatePose(skel);
	lbPose* poses = (lbPose*)calloc((size_t)count, sizeof(lbPose));
	for (int i = 0; i < count; ++i)
		poses[i] = lbCreatePose(skel);
	lbSceneQuery query = lbWorld_GetQuery(g->world);
	const int framesPerSample = count >= 1000 ? 1 : (1000 + count - 1) / count;
	// Two copies of the characters: the sense-only pass runs its own, so each state advances once
	// per frame in both passes (a state stepped twice per frame would skip its reduced-rate casts).
	lbFootState* states = (lbFootState*)calloc(2 * (size_t)count, sizeof(lbFootState));
	lbFootState* senseStates = states + count;
	lbFootTargets* targets = (lbFootTargets*)calloc((size_t)count, sizeof(lbFootTargets));
	lbFootSenseInput* inputs = (lbFootSenseInput*)calloc((size_t)count * (size_t)framesPerSample, sizeof(lbFootSenseInput));
	lbBenchWalker* walkers = (lbBenchWalker*)calloc((size_t)count, sizeof(lbBenchWalker));
	uint64_t seed = placementSeed;
	for (int i = 0; i < count; ++i)
	{
		lbBenchWalker_Place(&walkers[i], g, w, &seed);
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
	long frame = 0;
	long long casts = 0;
	for (int f = 0; f < frames; ++f)
	{
		// This sample's inputs, made before the clock starts.
		for (int k = 0; k < framesPerSample; ++k)
			for (int i = 0; i < count; ++i)
				lbBenchWalker_Input(&walkers[i], g, w, &query, frame + k, &inputs[(size_t)k * (size_t)count + (size_t)i]);
		frame += framesPerSample;
		int sampleCasts = 0;
		uint64_t t0 = lbBenchThreadNs();
		for (int k = 0; k < framesPerSample; ++k)
		{
			const lbFootSenseInput* in = inputs + (size_t)k * (size_t)count;
			if (many)
			{
				// The crowd entry points on the calling thread: its legs solved in batches.
				lbFootSenseMany(states, def, skel, h, in, targets, count);
				for (int i = 0; i < count; ++i)
				{
					sampleCasts += targets[i].castCount;
					lbPose_Copy(&poses[i], in[i].animPose);
				}
				lbFootApplyPoseCrowd(targets, def, skel, h, lb_footSolverTwoBone, poses, count, NULL, 0, NULL);
				for (int i = 0; i < count; ++i)
					sink += poses[i].model[h->leg[0].foot].p.z;
				continue;
			}
			for (int i = 0; i < count; ++i)
			{
				lbFootSense(&states[i], def, skel, h, &in[i], &targets[i]);
				sampleCasts += targets[i].castCount;
				lbPose_Copy(&pose, in[i].animPose);
				lbFootApplyPose(&targets[i], def, skel, h, lb_footSolverTwoBone, &pose, NULL, 0);
				sink += pose.model[h->leg[0].foot].p.z;
			}
		}
		uint64_t t1 = lbBenchThreadNs();
		for (int k = 0; k < framesPerSample; ++k)
		{
			const lbFootSenseInput* in = inputs + (size_t)k * (size_t)count;
			if (many)
				lbFootSenseMany(senseStates, def, skel, h, in, targets, count);
			else
				for (int i = 0; i < count; ++i)
					lbFootSense(&senseStates[i], def, skel, h, &in[i], &targets[i]);
		}
		uint64_t t2 = lbBenchThreadNs();
		samples[f] = (double)(t1 - t0) / (double)(count * framesPerSample);
		senseSamples[f] = (double)(t2 - t1) / (double)(count * framesPerSample);
		if (f > 0)
			casts += sampleCasts;
	}
	(void)sink;
	// The first sample snaps every state; it is not a steady frame.
	double m = lbBenchMedian(samples + 1, frames - 1);
	if (outSense)
		*outSense = lbBenchMedian(senseSamples + 1, frames - 1);
	if (outCasts)
		*outCasts = (double)casts / ((double)count * (double)framesPerSample * (double)(frames - 1));
	free(senseSamples);
	free(samples);
	free(walkers);
	free(inputs);
	free(targets);
	free(states);
	for (int i = 0; i < count; ++i)
		lbDestroyPose(&poses[i]);
	free(poses);
	lbDestroyPose(&pose);
	return m;
}

static void lbBenchFootReport(const lbBenchOptions* o, const char* fmt, const char* ground, const char* suffix,
							  double value, const char* unit)
{
	char name[128], full[160];
	snprintf(name, sizeof name, fmt, ground);
	snprintf(full, sizeof full, "%s%s", name, suffix);
	lbBenchReport(o, full, value, unit);
}

// The rocky ground of the foot rows (0.1 m samples, amplitude 0.15 m), `size` m square, as a
// heightfield (kind 0) or a triangle mesh (kind 1), in a world of its own.
static void lbBenchRocky(lbBenchGround* g, float size, int kind)
{
	g->rocky = lbDefaultSceneDef(lbSceneBuilderByName("rocky"));
	lbSceneDef_Set(&g->rocky, "size", size);
	lbSceneDef_Set(&g->rocky, "resolution", 0.1f);
	lbSceneDef_Set(&g->rocky, "amplitude", 0.15f);
	lbSceneDef_Set(&g->rocky, "as_mesh", (float)kind);
	lbWorldDef wd = lbDefaultWorldDef();
	g->world = lbCreateWorld(&wd);
	lbBuildScene(g->world, &g->rocky);
	g->half = 0.5f * g->rocky.size;
}

static lbWorld* lbBenchStairs(const lbBenchOptions* o, float* outHalf)
{
	// A ridge: eight steps up (riser 0.18 m, tread 0.28 m), a 2 m landing, eight steps down, as
	// wide as the crowd's area, on a ground plate.
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* world = lbCreateWorld(&wd);
	float width = o->smoke ? 10.0f : 100.0f;
	*outHalf = 0.5f * width;
	lbSceneDef p = lbDefaultSceneDef(lbSceneBuilderByName("stairs"));
	float run = p.count * p.tread;
	lbSceneDef_Set(&p, "width", width);
	lbSceneDef_Set(&p, "landing", 2.0f);
	lbSceneDef_Set(&p, "distance", 1.0f);
	lbSceneDef_Set(&p, "origin_x", -(1.0f + run + 1.0f));
	lbSceneDef_Set(&p, "ground_size", width + 20.0f);
	lbBuildScene(world, &p);
	lbSceneDef_Set(&p, "origin_x", 1.0f + run + 1.0f);
	lbSceneDef_Set(&p, "forward_x", -1.0f);
	lbSceneDef_Set(&p, "ground_size", 0.0f);
	lbBuildScene(world, &p);
	return world;
}

// One counted frame of the `foot.count.*` rows: sense and pose of the whole crowd and nothing else,
// so its inclusive instruction count under callgrind is the foot system's cost of that frame.
__attribute__((noinline, noclone)) static void lbBenchFootCountedFrame(lbFootState* states, const lbFootDef* def, const lbBenchWalk* w,
															  const lbFootSenseInput* in, lbFootTargets* targets, lbPose* poses,
															  int count)
{
	lbFootSenseMany(states, def, w->skel, &w->h, in, targets, count);
	lbFootApplyPoseCrowd(targets, def, w->skel, &w->h, lb_footSolverTwoBone, poses, count, NULL, 0, NULL);
}

// `foot.count.heightfield` / `.mesh`: 200 characters walking on a 10 m rocky field (the heightfield
// or its mesh), casts every frame, through lbFootSenseMany and lbFootApplyPoseCrowd; `foot.count.standing`:
// the same characters on the heightfield standing on the idle motion, both feet locked (the frame's
// fixed cost, with almost no cast; its name is apart so that each row can be counted alone); 5 frames to
// settle, then 100 counted frames through lbBenchFootCountedFrame. The rows print the median time
// of a counted frame per character (the thread's CPU time) and the casts per character-frame;
// instructions per character-frame are that function's inclusive count under callgrind divided by
// the 20,000 character-frames the rows also print (docs/performance.md).
static void lbBenchFootCount(const lbBenchOptions* o, const lbBenchWalk* w, int kind, const char* name)
{
	if (!lbBenchSelected(o, name))
		return;
	enum { count = 200, warm = 5, counted = 100 };
	lbBenchGround g = { 0 };
	g.name = kind == 0 ? "heightfield" : "mesh";
	lbBenchRocky(&g, 10.0f, kind);
	lbFootDef def = lbDefaultFootDef();
	def.traceRate = 0.0f;
	lbSceneQuery query = lbWorld_GetQuery(g.world);
	lbFootState* states = (lbFootState*)calloc(count, sizeof(lbFootState));
	lbFootTargets* targets = (lbFootTargets*)calloc(count, sizeof(lbFootTargets));
	lbFootSenseInput* inputs = (lbFootSenseInput*)calloc(count, sizeof(lbFootSenseInput));
	lbBenchWalker* walkers = (lbBenchWalker*)calloc(count, sizeof(lbBenchWalker));
	lbPose* poses = (lbPose*)calloc(count, sizeof(lbPose));
	uint64_t seed = 7;
	for (int i = 0; i < count; ++i)
	{
		poses[i] = lbCreatePose(w->skel);
		lbBenchWalker_Place(&walkers[i], &g, w, &seed);
		lbFootState_Reset(&states[i]);
		lbFootState_SetTracePhase(&states[i], (float)i / (float)count);
	}
	long long casts = 0;
	float sink = 0.0f;
	double frameNs[counted];
	for (int f = 0; f < warm + counted; ++f)
	{
		for (int i = 0; i < count; ++i)
		{
			lbBenchWalker_Input(&walkers[i], &g, w, &query, f, &inputs[i]);
			lbPose_Copy(&poses[i], inputs[i].animPose);
		}
		if (f < warm)
		{
			lbFootSenseMany(states, &def, w->skel, &w->h, inputs, targets, count);
			lbFootApplyPoseCrowd(targets, &def, w->skel, &w->h, lb_footSolverTwoBone, poses, count, NULL, 0, NULL);
			continue;
		}
		const uint64_t t0 = lbBenchThreadNs();
		lbBenchFootCountedFrame(states, &def, w, inputs, targets, poses, count);
		frameNs[f - warm] = (double)(lbBenchThreadNs() - t0) / (double)count;
		for (int i = 0; i < count; ++i)
		{
			casts += targets[i].castCount;
			sink += poses[i].model[w->h.leg[0].foot].p.z;
		}
	}
	lbBenchSink(&sink);
	char row[96];
	snprintf(row, sizeof row, "%s.per_character", name);
	lbBenchReport(o, row, lbBenchMedian(frameNs, counted) / 1000.0, "us");
	snprintf(row, sizeof row, "%s.casts", name);
	lbBenchReport(o, row, (double)casts / ((double)count * counted), "casts");
	snprintf(row, sizeof row, "%s.character_frames", name);
	lbBenchReport(o, row, (double)count * counted, "frames");
	for (int i = 0; i < count; ++i)
		lbDestroyPose(&poses[i]);
	free(poses);
	free(walkers);
	free(inputs);
	free(targets);
	free(states);
	lbDestroyWorld(g.world);
}

void lbBenchFoot(const lbBenchOptions* o);
void lbBenchFoot(const lbBenchOptions* o)
{
	// foot.crowd_10k is a group of its own (bench_crowd.c): its filter runs none of these rows.
	if (!lbBenchSelected(o, "foot") || (o->filter && strncmp(o->filter, "foot.crowd_10k", 14) == 0))
		return;
	lbBenchWalk walk;
	lbBenchWalk_Init(&walk, lb_motionWalk);
	lbBenchFootCount(o, &walk, 0, "foot.count.heightfield");
	lbBenchFootCount(o, &walk, 1, "foot.count.mesh");
	if (lbBenchSelected(o, "foot.count.standing"))
	{
		lbBenchWalk standing;
		lbBenchWalk_Init(&standing, lb_motionIdle);
		lbBenchFootCount(o, &standing, 0, "foot.count.standing");
		lbBenchWalk_Destroy(&standing);
	}
	if (o->filter && strncmp(o->filter, "foot.count", 10) == 0)
	{
		// Only the counted rows: nothing else runs under the counter.
		lbBenchWalk_Destroy(&walk);
		return;
	}
	const lbFootDef def = lbDefaultFootDef();
	lbFootDef noPrint = def;
	noPrint.footprintTraces = false;
	lbFootDef everyFrame = def, everyFrameNoPrint = noPrint;
	everyFrame.traceRate = 0.0f;
	everyFrameNoPrint.traceRate = 0.0f;
	lbFootDef heelToe = everyFrame;
	heelToe.heelToeTraces = true;
	const int frames = o->smoke ? 3 : 301;
	const int crowd = o->smoke ? 10 : 1000;
	for (int kind = 0; kind < 3; ++kind)
	{
		lbBenchGround g = { 0 };
		g.stairs = kind == 2;
		g.name = kind == 0 ? "heightfield" : (kind == 1 ? "mesh" : "stairs");
		if (g.stairs)
			g.world = lbBenchStairs(o, &g.half);
		else
		{
			lbBenchRocky(&g, o->smoke ? 10.0f : 100.0f, kind);
		}
		for (int np = 0; np < 2; ++np)
		{
			const lbFootDef* d = np ? &everyFrameNoPrint : &everyFrame;
			const char* sfx = np ? ".nofootprint" : "";
			// One character alone, starting in turn at 16 random places (the cost depends on the
			// ground under it); the median over the places.
			double spots[16], senses[16], castsAt[16], castSum = 0.0;
			int nSpots = o->smoke ? 1 : 16;
			for (int q = 0; q < nSpots; ++q)
			{
				spots[q] = RunFoot(&walk, &g, 1, o->smoke ? 3 : 21, d, &senses[q], &castsAt[q], 100 + (uint64_t)q, false);
				castSum += castsAt[q];
			}
			lbBenchFootReport(o, "foot.per_character.%s.1", g.name, sfx, lbBenchMedian(spots, nSpots) / 1000.0, "us");
			lbBenchFootReport(o, "foot.sense.%s.1", g.name, sfx, lbBenchMedian(senses, nSpots) / 1000.0, "us");
			(void)castSum;
			// A crowd through lbFootSenseMany.
			double sense = 0.0, casts = 0.0;
			double ns = RunFoot(&walk, &g, crowd, frames, d, &sense, &casts, 7, true);
			char fmt[64];
			snprintf(fmt, sizeof fmt, "foot.per_character.%%s.%d", crowd);
			lbBenchFootReport(o, fmt, g.name, sfx, ns / 1000.0, "us");
			snprintf(fmt, sizeof fmt, "foot.sense.%%s.%d", crowd);
			lbBenchFootReport(o, fmt, g.name, sfx, sense / 1000.0, "us");
			lbBenchFootReport(o, "foot.casts_per_frame.%s", g.name, sfx, casts, "casts");
			if (kind == 0 && !o->smoke)
			{
				// The stable headline figure: 1000 characters on the heightfield.
				double hf = RunFoot(&walk, &g, 1000, frames, d, NULL, NULL, 7, true);
				lbBenchFootReport(o, "foot.per_character", "", sfx, hf / 1000.0, "us");
			}
		}
		if (!g.stairs)
		{
			// The crowd one character at a time, for comparison with lbFootSenseMany.
			double sense1 = 0.0, ns1 = RunFoot(&walk, &g, crowd, frames, &everyFrame, &sense1, NULL, 7, false);
			char fmt[64];
			snprintf(fmt, sizeof fmt, "foot.per_character.%%s.%d.one_by_one", crowd);
			lbBenchFootReport(o, fmt, g.name, "", ns1 / 1000.0, "us");
			snprintf(fmt, sizeof fmt, "foot.sense.%%s.%d.one_by_one", crowd);
			lbBenchFootReport(o, fmt, g.name, "", sense1 / 1000.0, "us");
			double ht = RunFoot(&walk, &g, crowd, frames, &heelToe, NULL, NULL, 7, true);
			snprintf(fmt, sizeof fmt, "foot.per_character.%%s.heel_toe.%d", crowd);
			lbBenchFootReport(o, fmt, g.name, "", ht / 1000.0, "us");
		}
		if (!o->smoke)
		{
			// The default 30 Hz trace rate at 60 fps, trace phases spread: half the crowd casts on
			// each frame, so every frame costs about the same.
			double dflt = RunFoot(&walk, &g, 1000, frames, &def, NULL, NULL, 7, true);
			lbBenchFootReport(o, kind == 0 ? "foot.per_character.default_rate%s" : "foot.per_character.%s.1000.default_rate",
							  kind == 0 ? "" : g.name, "", dflt / 1000.0, "us");
		}
		lbDestroyWorld(g.world);
	}
	lbBenchWalk_Destroy(&walk);
}
