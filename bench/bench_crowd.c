// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// A crowd on every core: 10,000 characters walking circles on the rocky heightfield (100 m, 10 cm
// cells, as in bench_foot.c), the foot system's default def casting every frame (trace rate 0:
// centre casts, footprint rays, look-ahead, slides and locks all working), sense and pose through
// lbFootSenseCrowd and lbFootApplyPoseCrowd on the built-in pool. Wall time per frame (ms), median
// over frames, for 1 thread (the calling thread alone), 2 threads and every core; the scaling is the
// one-thread time over the n-thread time, and per_character_core the frame time times the threads
// over the characters (us). On a shared machine wall time also counts other processes, so the
// `.min` rows give the fastest frame, `.cpu_per_character` rows the process CPU time per character
// (all threads together: what the work costs, whatever else runs) and `.critical_path` rows the
// busiest worker's CPU time per frame (the frame's length on cores of its own), with its scaling. Each frame's animated poses are copied into the characters' poses
// before the clock starts (that copy is the animation system's work). The `size_cost` row is what the
// crowd's size costs one thread per character: the whole crowd over its first tenth alone.
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "limber/limber.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LB_CROWD_DT (1.0f / 60.0f)

typedef struct lbCrowdBench
{
	lbSkeleton* skel;
	lbHumanoid h;
	lbPose walk[64];
	int walkCount;
	float speed;
	lbWorld* world;
	lbSceneDef rocky;
	lbSceneQuery query;
	int count;
	float* cx;
	float* cy;
	float* radius;
	float* angle0;
	int* phase0;
	lbFootState* states;
	lbFootSenseInput* inputs;
	lbFootTargets* targets;
	lbPose* poses;
} lbCrowdBench;

static void lbCrowdBench_Init(lbCrowdBench* b, int count, float size)
{
	b->skel = lbCreateReferenceRig(lb_rigMannequin);
	lbMapHumanoid(b->skel, NULL, &b->h);
	lbMotionState ms;
	lbMotionState_Init(&ms, b->skel, &b->h, lbTransform_identity);
	lbMotionDef mp = lbDefaultMotionDef(lb_motionWalk);
	lbPose scratch = lbCreatePose(b->skel);
	for (int i = 0; i < 240; ++i)
		lbMotion_Sample(&ms, b->skel, &b->h, &mp, LB_CROWD_DT, &scratch);
	lbDestroyPose(&scratch);
	// One gait cycle, sampled every frame (at most 64 frames).
	int n = ms.cycleRate > 0.0f ? (int)lroundf(1.0f / (ms.cycleRate * LB_CROWD_DT)) : 60;
	n = n < 8 ? 8 : (n > 64 ? 64 : n);
	b->walkCount = n;
	lbVec3 p0 = ms.characterWs.p;
	for (int i = 0; i < n; ++i)
	{
		b->walk[i] = lbCreatePose(b->skel);
		lbMotion_Sample(&ms, b->skel, &b->h, &mp, LB_CROWD_DT, &b->walk[i]);
	}
	b->speed = lbLength(lbSub(ms.characterWs.p, p0)) / ((float)n * LB_CROWD_DT);

	b->rocky = lbDefaultSceneDef(lbSceneBuilderByName("rocky"));
	lbSceneDef_Set(&b->rocky, "size", size);
	lbSceneDef_Set(&b->rocky, "resolution", 0.1f);
	lbSceneDef_Set(&b->rocky, "amplitude", 0.15f);
	lbWorldDef wd = lbDefaultWorldDef();
	b->world = lbCreateWorld(&wd);
	lbBuildScene(b->world, &b->rocky);
	b->query = lbWorld_GetQuery(b->world);

	b->count = count;
	b->cx = (float*)malloc(sizeof(float) * (size_t)count);
	b->cy = (float*)malloc(sizeof(float) * (size_t)count);
	b->radius = (float*)malloc(sizeof(float) * (size_t)count);
	b->angle0 = (float*)malloc(sizeof(float) * (size_t)count);
	b->phase0 = (int*)malloc(sizeof(int) * (size_t)count);
	b->states = (lbFootState*)calloc((size_t)count, sizeof(lbFootState));
	b->inputs = (lbFootSenseInput*)calloc((size_t)count, sizeof(lbFootSenseInput));
	b->targets = (lbFootTargets*)calloc((size_t)count, sizeof(lbFootTargets));
	b->poses = (lbPose*)calloc((size_t)count, sizeof(lbPose));
	uint64_t seed = 11;
	const float half = 0.5f * size;
	for (int i = 0; i < count; ++i)
	{
		b->radius[i] = lbBenchUniform(&seed, 0.05f, 0.12f) * 2.5f * half;
		float m = 0.8f * half - b->radius[i];
		b->cx[i] = lbBenchUniform(&seed, -m, m);
		b->cy[i] = lbBenchUniform(&seed, -m, m);
		b->angle0[i] = lbBenchUniform(&seed, -LB_PI, LB_PI);
		b->phase0[i] = (int)lbBenchUniform(&seed, 0.0f, (float)n) % n;
		b->poses[i] = lbCreatePose(b->skel);
	}
}

static void lbCrowdBench_Reset(lbCrowdBench* b)
{
	for (int i = 0; i < b->count; ++i)
		lbFootState_Reset(&b->states[i]);
}

// Frame `f`'s inputs, and the animated poses copied into the characters' poses.
static void lbCrowdBench_Inputs(lbCrowdBench* b, long f)
{
	const lbVec3 fwd = b->h.forwardMs;
	for (int i = 0; i < b->count; ++i)
	{
		float a = b->angle0[i] + b->speed * (float)f * LB_CROWD_DT / b->radius[i];
		float ca = cosf(a), sa = sinf(a);
		float x = b->cx[i] + b->radius[i] * ca, y = b->cy[i] + b->radius[i] * sa;
		lbVec3 t = lbMakeVec3(-sa, ca, 0.0f);
		float yaw = atan2f(t.y, t.x) - atan2f(fwd.y, fwd.x);
		lbFootSenseInput* in = &b->inputs[i];
		*in = lbDefaultFootSenseInput();
		in->query = &b->query;
		in->animPose = &b->walk[(b->phase0[i] + f) % b->walkCount];
		in->dt = LB_CROWD_DT;
		in->velocityWs = lbMulSV(b->speed, t);
		in->characterWs = lbMakeTransform(lbMakeVec3(x, y, lbSceneRockyHeight(&b->rocky, x, y)),
										  lbQuatFromAxisAngle(lbVec3_axisZ, yaw));
		lbPose_Copy(&b->poses[i], in->animPose);
	}
}

static void lbCrowdBench_Destroy(lbCrowdBench* b)
{
	for (int i = 0; i < b->count; ++i)
		lbDestroyPose(&b->poses[i]);
	for (int i = 0; i < b->walkCount; ++i)
		lbDestroyPose(&b->walk[i]);
	free(b->poses);
	free(b->targets);
	free(b->inputs);
	free(b->states);
	free(b->phase0);
	free(b->angle0);
	free(b->radius);
	free(b->cy);
	free(b->cx);
	lbDestroyWorld(b->world);
	lbDestroySkeleton(b->skel);
}

static uint64_t lbCrowdProcessNs(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

typedef struct lbCrowdTimes
{
	double wallMedian, wallMin, cpuMedian; // ns per frame
	double criticalMedian;                 // ns per frame: the busiest worker's CPU time
} lbCrowdTimes;

// The pool seen through a job system of the benchmark's own that times every range on its thread's
// CPU clock, per worker: the busiest worker's time is the frame's critical path, what the frame
// takes on cores nothing else uses (on a shared machine wall time waits for other processes).
typedef struct lbCrowdMeter
{
	lbParallel inner;
	lbTaskFcn* task;
	void* context;
	double workerNs[256];
} lbCrowdMeter;

static void lbCrowdMeterRange(int begin, int end, int worker, void* context)
{
	lbCrowdMeter* m = (lbCrowdMeter*)context;
	uint64_t t0 = lbBenchThreadNs();
	m->task(begin, end, worker, m->context);
	m->workerNs[worker] += (double)(lbBenchThreadNs() - t0); // one thread per worker index at a time
}

static void* lbCrowdMeterEnqueue(lbTaskFcn* task, int itemCount, int minRange, void* taskContext, void* userContext)
{
	lbCrowdMeter* m = (lbCrowdMeter*)userContext;
	m->task = task;
	m->context = taskContext;
	if (!m->inner.enqueueTask)
	{
		lbCrowdMeterRange(0, itemCount, 0, m);
		return NULL;
	}
	return m->inner.enqueueTask(lbCrowdMeterRange, itemCount, minRange, m, m->inner.userContext);
}

static void lbCrowdMeterFinish(void* userTask, void* userContext)
{
	lbCrowdMeter* m = (lbCrowdMeter*)userContext;
	if (m->inner.finishTask)
		m->inner.finishTask(userTask, m->inner.userContext);
}

// Wall and process CPU time per frame with `threads` threads (1: the calling thread, no pool).
static lbCrowdTimes lbCrowdBench_Run(lbCrowdBench* b, const lbFootDef* def, int threads, int frames)
{
	lbThreadPool* pool = threads > 1 ? lbCreateThreadPool(threads) : NULL;
	static lbCrowdMeter meter;
	memset(&meter, 0, sizeof meter);
	meter.inner = lbThreadPool_GetParallel(pool);
	const int workers = meter.inner.workerCount < 256 ? meter.inner.workerCount : 256;
	lbParallel par = { lbCrowdMeterEnqueue, lbCrowdMeterFinish, workers, &meter };
	lbCrowdBench_Reset(b);
	double* wall = (double*)malloc(sizeof(double) * (size_t)frames);
	double* cpu = (double*)malloc(sizeof(double) * (size_t)frames);
	double* critical = (double*)malloc(sizeof(double) * (size_t)frames);
	const int warm = 2; // the first frame snaps every state
	for (int f = 0; f < warm + frames; ++f)
	{
		lbCrowdBench_Inputs(b, f);
		memset(meter.workerNs, 0, sizeof meter.workerNs);
		uint64_t c0 = lbCrowdProcessNs(), t0 = lbBenchNowNs();
		lbFootSenseCrowd(b->states, def, b->skel, &b->h, b->inputs, b->targets, b->count, &par);
		lbFootApplyPoseCrowd(b->targets, def, b->skel, &b->h, lb_footSolverTwoBone, b->poses, b->count, NULL, 0, &par);
		uint64_t t1 = lbBenchNowNs(), c1 = lbCrowdProcessNs();
		double busiest = 0.0;
		for (int w = 0; w < workers; ++w)
			busiest = meter.workerNs[w] > busiest ? meter.workerNs[w] : busiest;
		if (f >= warm)
			wall[f - warm] = (double)(t1 - t0), cpu[f - warm] = (double)(c1 - c0), critical[f - warm] = busiest;
	}
	lbBenchSink(b->poses);
	lbCrowdTimes r;
	r.wallMedian = lbBenchMedian(wall, frames);
	r.wallMin = wall[0]; // sorted by the median
	r.cpuMedian = lbBenchMedian(cpu, frames);
	r.criticalMedian = lbBenchMedian(critical, frames);
	free(critical);
	free(cpu);
	free(wall);
	lbDestroyThreadPool(pool);
	return r;
}

// What the crowd's size costs: the first tenth of the crowd run alone (1,000 characters, their
// states, targets, inputs and poses about 4 MB, within the last-level cache) against the whole
// crowd (about 42 MB, streamed from memory every frame), one thread, in alternating blocks of
// frames so that both see the same load from other processes. Per character (us) for each and
// their ratio, and the bytes each character's data takes.
static void lbCrowdBench_SizeCost(const lbBenchOptions* o, lbCrowdBench* b, const lbFootDef* def)
{
	enum { rounds = 12, blockFrames = 4 };
	const int whole = b->count, part = b->count / 10 > 0 ? b->count / 10 : 1;
	const int n = o->smoke ? 1 : rounds;
	double small[rounds], large[rounds];
	for (int r = 0; r < n; ++r)
	{
		// Which goes first alternates too.
		for (int k = 0; k < 2; ++k)
		{
			const bool tenth = (k + r) % 2 == 0;
			b->count = tenth ? part : whole;
			const lbCrowdTimes t = lbCrowdBench_Run(b, def, 1, o->smoke ? 1 : blockFrames);
			(tenth ? small : large)[r] = t.wallMedian / (double)b->count;
		}
	}
	b->count = whole;
	const double perSmall = lbBenchMedian(small, n), perLarge = lbBenchMedian(large, n);
	const lbPose* pose = &b->poses[0];
	const size_t bytes = sizeof(lbFootState) + sizeof(lbFootTargets) + sizeof(lbFootSenseInput) +
						 2 * (size_t)pose->boneCount * sizeof(lbTransform);
	char name[96];
	snprintf(name, sizeof name, "foot.crowd_10k.threads1.per_character.first_%d", part);
	lbBenchReport(o, name, perSmall / 1.0e3, "us");
	lbBenchReport(o, "foot.crowd_10k.threads1.per_character.whole", perLarge / 1.0e3, "us");
	lbBenchReport(o, "foot.crowd_10k.size_cost", perLarge / perSmall, "x");
	lbBenchReport(o, "foot.crowd_10k.bytes_per_character", (double)bytes, "B");
}

void lbBenchCrowd(const lbBenchOptions* o);
void lbBenchCrowd(const lbBenchOptions* o)
{
	if (!lbBenchSelected(o, "foot.crowd_10k"))
		return;
	const int count = o->smoke ? 64 : 10000;
	const int frames = o->smoke ? 2 : (o->repeats > 15 ? o->repeats : 15);
	lbCrowdBench b;
	lbCrowdBench_Init(&b, count, o->smoke ? 20.0f : 100.0f);
	lbFootDef def = lbDefaultFootDef();
	def.traceRate = 0.0f;
	const int cores = lbGetCoreCount();
	const int all = cores > 2 ? cores : 2;
	const lbCrowdTimes t1 = lbCrowdBench_Run(&b, &def, 1, frames);
	const lbCrowdTimes t2 = lbCrowdBench_Run(&b, &def, 2, frames);
	const lbCrowdTimes tn = cores > 2 ? lbCrowdBench_Run(&b, &def, cores, frames) : t2;
	const lbCrowdTimes* runs[3] = { &t1, &t2, &tn };
	char name[96];
	for (int k = 0; k < 3; ++k)
	{
		const char* label = k == 0 ? "threads1" : (k == 1 ? "threads2" : "threads_all");
		snprintf(name, sizeof name, "foot.crowd_10k.%s", label);
		lbBenchReport(o, name, runs[k]->wallMedian / 1.0e6, "ms");
		snprintf(name, sizeof name, "foot.crowd_10k.%s.min", label);
		lbBenchReport(o, name, runs[k]->wallMin / 1.0e6, "ms");
		snprintf(name, sizeof name, "foot.crowd_10k.%s.cpu_per_character", label);
		lbBenchReport(o, name, runs[k]->cpuMedian / 1.0e3 / count, "us");
		snprintf(name, sizeof name, "foot.crowd_10k.%s.critical_path", label);
		lbBenchReport(o, name, runs[k]->criticalMedian / 1.0e6, "ms");
	}
	lbBenchReport(o, "foot.crowd_10k.critical_path_scaling2", t1.criticalMedian / t2.criticalMedian, "x");
	lbBenchReport(o, "foot.crowd_10k.critical_path_scaling_all", t1.criticalMedian / tn.criticalMedian, "x");
	lbBenchReport(o, "foot.crowd_10k.cores", (double)cores, "cores");
	lbBenchReport(o, "foot.crowd_10k.scaling2", t1.wallMedian / t2.wallMedian, "x");
	lbBenchReport(o, "foot.crowd_10k.scaling2.min", t1.wallMin / t2.wallMin, "x");
	lbBenchReport(o, "foot.crowd_10k.scaling_all", t1.wallMedian / tn.wallMedian, "x");
	lbBenchReport(o, "foot.crowd_10k.per_character_core.threads_all", tn.wallMedian * all / 1.0e3 / count, "us");
	lbCrowdBench_SizeCost(o, &b, &def);
	lbCrowdBench_Destroy(&b);
}
