// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Scene query benchmarks: foot traces (downward, 1.5 m, sphere radius 0.03 m) on a ~1M-triangle rocky
// mesh and a 1024 x 1024 heightfield, horizontal casts against the climbing wall, the BVH build time
// and memory, and a brute-force loop over every triangle for the speed-up ratio.
#define _POSIX_C_SOURCE 200809L
#if defined(__linux__)
// madvise() and MADV_HUGEPAGE for the build workspace.
#define _DEFAULT_SOURCE
#endif
#include "bench.h"
#include "limber/limber.h"
#include "query/cast.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

// CPU time of this thread (ns): on a shared machine, wall time also counts the time other processes
// held the core. Cache pollution by them still shows; medians over many batches damp it.
static uint64_t ThreadNowNs(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

typedef struct BenchRng
{
	uint64_t s;
} BenchRng;

static float BenchUniform(BenchRng* r, float lo, float hi)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return lo + (hi - lo) * (float)((double)(z >> 11) * (1.0 / 9007199254740992.0));
}

typedef lbHit CastFcn(const lbWorld* world, const lbQueryInput* input);

// Median over batches of the mean ns per cast: the inputs are cut into 20 batches, each run
// `repeats` times.
static double TimeCasts(const lbBenchOptions* o, const lbWorld* w, CastFcn* fcn, const lbQueryInput* inputs, int count,
						int* outHits)
{
	int repeats = o->repeats > 0 ? o->repeats : 1;
	int batches = count >= 20 ? 20 : 1, per = count / batches;
	double* samples = (double*)malloc(sizeof(double) * (size_t)(repeats * batches));
	int hits = 0, n = 0;
	for (int r = 0; r < repeats; ++r)
		for (int b = 0; b < batches; ++b)
		{
			const lbQueryInput* in = &inputs[b * per];
			uint64_t t0 = ThreadNowNs();
			for (int i = 0; i < per; ++i)
			{
				lbHit h = fcn(w, &in[i]);
				hits += h.hit;
			}
			samples[n++] = (double)(ThreadNowNs() - t0) / (double)per;
		}
	double m = lbBenchMedian(samples, n);
	free(samples);
	if (outHits)
		*outHits = hits / repeats;
	return m;
}

// The same, with the casts announced in groups of `group` (lbWorld_PrefetchCasts) just before they
// run: what a crowd's foot traces cost when a system batches them (lbFootSenseMany does).
static double TimeGroupedCasts(const lbBenchOptions* o, const lbWorld* w, CastFcn* fcn, const lbQueryInput* inputs,
							   int count, int group)
{
	int repeats = o->repeats > 0 ? o->repeats : 1;
	int batches = count >= 20 ? 20 : 1, per = count / batches;
	double* samples = (double*)malloc(sizeof(double) * (size_t)(repeats * batches));
	int n = 0;
	volatile int hits = 0;
	for (int r = 0; r < repeats; ++r)
		for (int b = 0; b < batches; ++b)
		{
			const lbQueryInput* in = &inputs[b * per];
			uint64_t t0 = ThreadNowNs();
			for (int first = 0; first < per; first += group)
			{
				int end = first + group < per ? first + group : per;
				lbWorld_PrefetchCasts(w, &in[first], end - first);
				for (int i = first; i < end; ++i)
					hits += fcn(w, &in[i]).hit;
			}
			samples[n++] = (double)(ThreadNowNs() - t0) / (double)per;
		}
	double m = lbBenchMedian(samples, n);
	free(samples);
	return m;
}

// Downward foot traces from random points over a square of side `size` centred at the origin.
static lbQueryInput* FootTraces(int count, float size, float radius, uint64_t seed)
{
	lbQueryInput* in = (lbQueryInput*)malloc(sizeof(lbQueryInput) * (size_t)count);
	BenchRng rng = { seed };
	for (int i = 0; i < count; ++i)
	{
		float x = BenchUniform(&rng, -0.45f * size, 0.45f * size), y = BenchUniform(&rng, -0.45f * size, 0.45f * size);
		in[i] = lbDefaultQueryInput();
		in[i].start = lbMakeVec3(x, y, 0.75f);
		in[i].end = lbMakeVec3(x, y, -0.75f);
		in[i].radius = radius;
		in[i].channelMask = LB_CHANNEL_GROUND;
	}
	return in;
}

// Foot traces as characters make them: along walking paths, two feet a stride apart, so successive
// traces land near each other (each path is 4 m of steps 0.35 m apart, then a new random path).
static lbQueryInput* WalkTraces(int count, float size, float radius, uint64_t seed)
{
	lbQueryInput* in = (lbQueryInput*)malloc(sizeof(lbQueryInput) * (size_t)count);
	BenchRng rng = { seed };
	float x = 0.0f, y = 0.0f, heading = 0.0f;
	for (int i = 0; i < count; ++i)
	{
		if (i % 24 == 0)
		{
			x = BenchUniform(&rng, -0.4f * size, 0.4f * size);
			y = BenchUniform(&rng, -0.4f * size, 0.4f * size);
			heading = BenchUniform(&rng, 0.0f, 6.283f);
		}
		float side = (i % 2 ? 0.1f : -0.1f);
		x += 0.175f * cosf(heading);
		y += 0.175f * sinf(heading);
		float fx = x - side * sinf(heading) + BenchUniform(&rng, -0.05f, 0.05f);
		float fy = y + side * cosf(heading) + BenchUniform(&rng, -0.05f, 0.05f);
		in[i] = lbDefaultQueryInput();
		in[i].start = lbMakeVec3(fx, fy, 0.75f);
		in[i].end = lbMakeVec3(fx, fy, -0.75f);
		in[i].radius = radius;
		in[i].channelMask = LB_CHANNEL_GROUND;
	}
	return in;
}

static lbWorld* RockyWorld(int cells, float resolution, bool asMesh, double* outBuildSeconds)
{
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
	p.size = (float)cells * resolution;
	p.resolution = resolution;
	p.amplitude = 0.3f;
	p.scale = 3.0f;
	p.asMesh = asMesh ? 1.0f : 0.0f;
	uint64_t t0 = lbBenchNowNs();
	lbBuildScene(w, &p);
	if (outBuildSeconds)
		*outBuildSeconds = (double)(lbBenchNowNs() - t0) * 1e-9;
	return w;
}

// Brute force: a loop over every triangle of shape 0 with a plain float ray-triangle test
// (Moller-Trumbore), the baseline for the BVH's speed-up.
static double BruteForceRay(const lbBenchOptions* o, const lbWorld* w, const lbQueryInput* inputs, int count)
{
	lbShapeInfo info;
	lbWorld_GetShapeInfo(w, 0, &info);
	int repeats = o->repeats > 0 ? o->repeats : 1;
	double* samples = (double*)malloc(sizeof(double) * (size_t)repeats);
	float sink = 0.0f;
	for (int r = 0; r < repeats; ++r)
	{
		uint64_t t0 = ThreadNowNs();
		for (int i = 0; i < count; ++i)
		{
			lbVec3 s = inputs[i].start, d = lbSub(inputs[i].end, inputs[i].start);
			float best = 1.0f;
			for (int t = 0; t < info.triangleCount; ++t)
			{
				lbVec3 a = info.vertices[info.indices[3 * t]], b = info.vertices[info.indices[3 * t + 1]],
					   c = info.vertices[info.indices[3 * t + 2]];
				lbVec3 e1 = lbSub(b, a), e2 = lbSub(c, a), pv = lbCross(d, e2);
				float det = lbDot(e1, pv);
				if (lbAbsF(det) < 1e-12f)
					continue;
				float inv = 1.0f / det;
				lbVec3 tv = lbSub(s, a);
				float u = lbDot(tv, pv) * inv;
				if (u < 0.0f || u > 1.0f)
					continue;
				lbVec3 qv = lbCross(tv, e1);
				float v = lbDot(d, qv) * inv;
				if (v < 0.0f || u + v > 1.0f)
					continue;
				float tt = lbDot(e2, qv) * inv;
				if (tt >= 0.0f && tt < best)
					best = tt;
			}
			sink += best;
		}
		samples[r] = (double)(ThreadNowNs() - t0) / (double)count;
	}
	lbBenchSink(&sink);
	double m = lbBenchMedian(samples, repeats);
	free(samples);
	return m;
}

void lbBenchQuery(const lbBenchOptions* o);
void lbBenchQuery(const lbBenchOptions* o)
{
	lbSetLogFcn(NULL, NULL);
	const bool smoke = o->smoke;
	const int casts = smoke ? 64 : 100000;

	// Mesh: 708 x 708 cells, two triangles each = 1,002,528 triangles at 0.1 m.
	if (lbBenchSelected(o, "query.mesh") || lbBenchSelected(o, "query.bvh"))
	{
		int cells = smoke ? 24 : 708;
		double build = 0.0;
		lbWorld* w = RockyWorld(cells, 0.1f, true, &build);
		lbBvhStats st;
		lbWorld_GetBvhStats(w, 0, &st);
		// Time lbWorld_AddMesh (the input checks, the copy and the build) on the same triangles a few
		// times, the calling thread's CPU time (page faults count, the machine's other jobs do not), the
		// median. Not the first build in the process (the scene's own came first), so the kernel's
		// first touch of the memory is mostly paid already; the peers bench reports that one apart, and
		// its steady figure on 2M triangles costs about a tenth more a triangle than on these 1M.
		lbShapeInfo info;
		lbWorld_GetShapeInfo(w, 0, &info);
		int buildRepeats = smoke ? 1 : 3;
		// Alternating with the same builds given a build workspace kept between them (its pages faulted
		// in by the first): what a program that builds meshes again saves.
		// On 2 MB pages, as the build's own scratch is.
		const size_t hugePage = (size_t)2 << 20;
		const size_t wsBytes = (lbGetMeshBuildWorkspaceSize(info.triangleCount) + hugePage - 1) & ~(hugePage - 1);
		void* ws = lbAllocAligned(wsBytes, hugePage);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
		if (ws)
			(void)madvise(ws, wsBytes, MADV_HUGEPAGE);
#endif
		double* samples = (double*)malloc(sizeof(double) * 2 * (size_t)buildRepeats);
		for (int r = 0; r < 2 * buildRepeats; ++r)
		{
			lbWorldDef wd = lbDefaultWorldDef();
			lbWorld* w2 = lbCreateWorld(&wd);
			lbMeshDef md = lbDefaultMeshDef();
			md.vertices = info.vertices;
			md.vertexCount = info.vertexCount;
			md.indices = info.indices;
			md.triangleCount = info.triangleCount;
			if (r % 2)
			{
				md.buildWorkspace = ws;
				md.buildWorkspaceSize = wsBytes;
			}
			uint64_t t0 = ThreadNowNs();
			lbWorld_AddMesh(w2, &md);
			samples[r % 2 * buildRepeats + r / 2] =
				(double)(ThreadNowNs() - t0) * 1e-9 * 1.0e6 / (double)info.triangleCount;
			lbDestroyWorld(w2);
		}
		lbBenchReport(o, "query.bvh_build", lbBenchMedian(samples, buildRepeats), "s");
		lbBenchReport(o, "query.bvh_build_workspace", lbBenchMedian(samples + buildRepeats, buildRepeats), "s");
		free(samples);
		lbFree(ws);
		// The build alone (no world) on the calling thread and over the built-in pool on every core,
		// alternating, wall clock, the fastest of each: the scaling of the threaded build.
		{
			int cores = lbGetCoreCount();
			lbThreadPool* pool = lbCreateThreadPool(cores);
			lbParallel par = lbThreadPool_GetParallel(pool);
			double best[2] = { 1e30, 1e30 };
			for (int r = 0; r < buildRepeats; ++r)
				for (int k = 0; k < 2; ++k)
				{
					lbMesh m;
					uint64_t t0 = lbBenchNowNs();
					lbResult res = lbMeshBuildParallel(&m, info.vertices, info.vertexCount, info.indices, info.triangleCount,
													   8, k == 0 ? NULL : &par, NULL, 0);
					double sec = (double)(lbBenchNowNs() - t0) * 1e-9 * 1.0e6 / (double)info.triangleCount;
					if (res == lb_ok)
						lbMeshFree(&m);
					best[k] = sec < best[k] ? sec : best[k];
				}
			lbDestroyThreadPool(pool);
			lbBenchReport(o, "query.bvh_build_wall_1thread", best[0], "s");
			lbBenchReport(o, "query.bvh_build_wall_all_cores", best[1], "s");
			lbBenchReport(o, "query.bvh_build_cores", (double)cores, "threads");
		}
		lbBenchReport(o, "query.bvh_triangles", (double)st.triangleCount, "tris");
		lbBenchReport(o, "query.bvh_bytes_per_tri", (double)st.bvhBytes / (double)st.triangleCount, "B");
		lbBenchReport(o, "query.mesh_bytes_per_tri", (double)st.totalBytes / (double)st.triangleCount, "B");
		lbBenchReport(o, "query.bvh_depth", (double)st.maxDepth, "levels");

		float size = (float)cells * 0.1f;
		lbQueryInput* rays = FootTraces(casts, size, 0.0f, 1);
		lbQueryInput* spheres = FootTraces(casts, size, 0.03f, 1);
		int hits = 0;
		double rayNs = TimeCasts(o, w, lbWorld_RayCast, rays, casts, &hits);
		lbBenchReport(o, "query.mesh_ray", rayNs, "ns");
		lbBenchReport(o, "query.mesh_ray_hit_rate", (double)hits / (double)casts, "");
		lbBenchReport(o, "query.mesh_sphere", TimeCasts(o, w, lbWorld_SphereCast, spheres, casts, NULL), "ns");
		lbBenchReport(o, "query.mesh_ray_grouped16", TimeGroupedCasts(o, w, lbWorld_RayCast, rays, casts, 16), "ns");
		lbBenchReport(o, "query.mesh_sphere_grouped16", TimeGroupedCasts(o, w, lbWorld_SphereCast, spheres, casts, 16), "ns");
		lbQueryInput* walk = WalkTraces(casts, size, 0.03f, 7);
		lbBenchReport(o, "query.mesh_sphere_walk", TimeCasts(o, w, lbWorld_SphereCast, walk, casts, NULL), "ns");
		free(walk);
		// The same traces over a 2 m square: the nodes and triangles they touch stay in cache, as for
		// the second cast a foot makes along the same line. Apart from the random figures' cache misses.
		lbQueryInput* warmRays = FootTraces(casts, 2.0f / 0.9f, 0.0f, 9);
		lbQueryInput* warmSpheres = FootTraces(casts, 2.0f / 0.9f, 0.03f, 9);
		lbBenchReport(o, "query.mesh_ray_warm", TimeCasts(o, w, lbWorld_RayCast, warmRays, casts, NULL), "ns");
		lbBenchReport(o, "query.mesh_sphere_warm", TimeCasts(o, w, lbWorld_SphereCast, warmSpheres, casts, NULL), "ns");
		free(warmRays);
		free(warmSpheres);
		// Brute force on a handful of rays (each visits every triangle).
		lbBenchOptions bo = *o;
		bo.repeats = smoke ? 1 : 3;
		double bruteNs = BruteForceRay(&bo, w, rays, smoke ? 2 : 20);
		lbBenchReport(o, "query.mesh_ray_bruteforce", bruteNs, "ns");
		lbBenchReport(o, "query.mesh_ray_speedup", bruteNs / rayNs, "x");
		free(rays);
		free(spheres);
		lbDestroyWorld(w);
	}

	if (lbBenchSelected(o, "query.heightfield"))
	{
		int cells = smoke ? 31 : 1023; // 1024 x 1024 samples
		lbWorld* w = RockyWorld(cells, 0.1f, false, NULL);
		float size = (float)cells * 0.1f;
		lbQueryInput* rays = FootTraces(casts, size, 0.0f, 2);
		lbQueryInput* spheres = FootTraces(casts, size, 0.03f, 2);
		lbBenchReport(o, "query.heightfield_ray", TimeCasts(o, w, lbWorld_RayCast, rays, casts, NULL), "ns");
		lbBenchReport(o, "query.heightfield_sphere", TimeCasts(o, w, lbWorld_SphereCast, spheres, casts, NULL), "ns");
		lbQueryInput* walk = WalkTraces(casts, size, 0.03f, 8);
		lbBenchReport(o, "query.heightfield_sphere_walk", TimeCasts(o, w, lbWorld_SphereCast, walk, casts, NULL), "ns");
		free(walk);
		// Long grazing casts across the field (3 m, nearly horizontal) walk many cells.
		BenchRng rng = { 5 };
		for (int i = 0; i < casts; ++i)
		{
			float x = BenchUniform(&rng, -0.4f * size, 0.4f * size), y = BenchUniform(&rng, -0.4f * size, 0.4f * size);
			float a = BenchUniform(&rng, 0.0f, 6.283f);
			spheres[i].start = lbMakeVec3(x, y, 0.4f);
			spheres[i].end = lbMakeVec3(x + 3.0f * cosf(a), y + 3.0f * sinf(a), 0.1f);
		}
		lbBenchReport(o, "query.heightfield_sphere_long", TimeCasts(o, w, lbWorld_SphereCast, spheres, casts, NULL), "ns");
		free(rays);
		free(spheres);
		lbDestroyWorld(w);
	}

	if (lbBenchSelected(o, "query.wall"))
	{
		// Horizontal reaches from the climber toward the climbing wall (mesh panels + box holds).
		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* w = lbCreateWorld(&wd);
		lbSceneDef p = lbDefaultSceneDef(lb_sceneClimbWall);
		lbBuildScene(w, &p);
		lbQueryInput* in = (lbQueryInput*)malloc(sizeof(lbQueryInput) * (size_t)casts);
		BenchRng rng = { 3 };
		for (int i = 0; i < casts; ++i)
		{
			float b = BenchUniform(&rng, -1.8f, 1.8f), h = BenchUniform(&rng, 0.3f, 5.5f);
			in[i] = lbDefaultQueryInput();
			in[i].start = lbMakeVec3(0.0f, b, h);
			in[i].end = lbMakeVec3(2.5f, b, h);
			in[i].channelMask = LB_CHANNEL_CLIMBABLE;
		}
		int hits = 0;
		lbBenchReport(o, "query.wall_ray", TimeCasts(o, w, lbWorld_RayCast, in, casts, &hits), "ns");
		for (int i = 0; i < casts; ++i)
			in[i].radius = 0.05f;
		lbBenchReport(o, "query.wall_sphere", TimeCasts(o, w, lbWorld_SphereCast, in, casts, NULL), "ns");
		free(in);
		lbDestroyWorld(w);
	}
}
