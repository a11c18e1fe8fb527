// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// limber_bench_peers [--smoke] [-r=blocks]: limber beside Embree 3 (rays) and Bullet 3 (sphere casts)
// in one process, on the same inputs: the rocky terrain as a 2M-triangle mesh (100 m, 10 cm cells),
// foot-probe casts straight down (0.5 m above the ground to 0.6 m below). Cold casts fall anywhere
// on the mesh; warm ones within 2 m of a point that moves from block to block (256 casts), as the
// feet of a few characters walking there do.
// Each figure alternates blocks of casts between the two libraries (which goes first alternates
// too) and reports the median over blocks of the time per cast; every cast's hit is compared, and
// any disagreement (hit or miss, or a distance more than 0.1 mm apart for rays, 1.5 mm for spheres,
// where Bullet's sweep stops within about a millimetre of the contact)
// is counted and fails the run. Embree runs on one thread (the device's threads=1), as limber's
// build does. Prints `bench <name> <median> <unit>` lines and the ratio limber / peer.
#include <limber/limber.h>

#include <embree3/rtcore.h>

#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace
{

double nowNs()
{
	return (double)std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
		.count();
}

// CPU time of the calling thread (user and system: page faults count), blind to the other jobs
// of a shared machine; both builds run on the calling thread only.
double threadNs()
{
	timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1.0e9 + (double)ts.tv_nsec;
}

double median(std::vector<double> v)
{
	if (v.empty())
		return 0.0;
	std::sort(v.begin(), v.end());
	size_t n = v.size();
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

uint64_t g_seed = 12345;
float uniform(float lo, float hi)
{
	uint64_t z = (g_seed += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return lo + (hi - lo) * (float)((double)(z >> 11) * (1.0 / 9007199254740992.0));
}

void report(const char* name, double value, const char* unit)
{
	std::printf("bench %s %.4g %s\n", name, value, unit);
	std::fflush(stdout);
}

struct Terrain
{
	lbSceneDef rocky;
	std::vector<lbVec3> vertices;
	std::vector<int32_t> indices;
	float half = 0.0f;
};

// The rocky terrain's surface sampled on its grid: (n + 1)^2 vertices, two triangles per cell.
void makeTerrain(Terrain& t, float size, float cell)
{
	t.rocky = lbDefaultSceneDef(lbSceneBuilderByName("rocky"));
	lbSceneDef_Set(&t.rocky, "size", size);
	lbSceneDef_Set(&t.rocky, "resolution", cell);
	lbSceneDef_Set(&t.rocky, "amplitude", 0.15f);
	const int n = (int)std::lround(size / cell);
	t.half = 0.5f * size;
	t.vertices.resize((size_t)(n + 1) * (size_t)(n + 1));
	for (int j = 0; j <= n; ++j)
		for (int i = 0; i <= n; ++i)
		{
			float x = -t.half + cell * (float)i, y = -t.half + cell * (float)j;
			t.vertices[(size_t)j * (size_t)(n + 1) + (size_t)i] = lbMakeVec3(x, y, lbSceneRockyHeight(&t.rocky, x, y));
		}
	t.indices.reserve((size_t)n * (size_t)n * 6);
	for (int j = 0; j < n; ++j)
		for (int i = 0; i < n; ++i)
		{
			int32_t a = j * (n + 1) + i, b = a + 1, c = a + (n + 1), d = c + 1;
			const int32_t tri[6] = { a, b, d, a, d, c };
			t.indices.insert(t.indices.end(), tri, tri + 6);
		}
}

struct Cast
{
	lbVec3 start, end;
};

// Foot probes: from 0.5 m above the surface to 0.6 m below it, at (x, y).
Cast probeAt(const Terrain& t, float x, float y)
{
	float z = lbSceneRockyHeight(&t.rocky, x, y);
	return Cast{ lbMakeVec3(x, y, z + 0.5f), lbMakeVec3(x, y, z - 0.6f) };
}

// Cold: anywhere on the inner 90 %; warm: runs of `batch` within 2 m of a point.
std::vector<Cast> makeCasts(const Terrain& t, int count, bool warm, int batch)
{
	std::vector<Cast> casts;
	casts.reserve((size_t)count);
	const float m = 0.9f * t.half;
	float cx = 0.0f, cy = 0.0f;
	for (int i = 0; i < count; ++i)
	{
		if (!warm)
		{
			casts.push_back(probeAt(t, uniform(-m, m), uniform(-m, m)));
			continue;
		}
		if (i % batch == 0)
			cx = uniform(-m + 2.0f, m - 2.0f), cy = uniform(-m + 2.0f, m - 2.0f);
		float r = 2.0f * std::sqrt(uniform(0.0f, 1.0f)), a = uniform(-3.14159265f, 3.14159265f);
		casts.push_back(probeAt(t, cx + r * std::cos(a), cy + r * std::sin(a)));
	}
	return casts;
}

struct Outcome
{
	bool hit;
	float distance;
};

// --- limber -----------------------------------------------------------------------------------

void limberRays(const lbWorld* world, const Cast* c, int n, Outcome* out, float radius, bool batched)
{
	lbQueryInput in[64];
	for (int b = 0; b < n; b += 64)
	{
		int m = std::min(64, n - b);
		for (int k = 0; k < m; ++k)
		{
			in[k] = lbDefaultQueryInput();
			in[k].start = c[b + k].start;
			in[k].end = c[b + k].end;
			in[k].radius = radius;
		}
		if (batched)
			lbWorld_PrefetchCasts(world, in, m);
		for (int k = 0; k < m; ++k)
		{
			lbHit h = radius > 0.0f ? lbWorld_SphereCast(world, &in[k]) : lbWorld_RayCast(world, &in[k]);
			out[b + k] = Outcome{ h.hit, h.distance };
		}
	}
}

// --- Embree -----------------------------------------------------------------------------------

RTCRayHit embreeRay(const Cast& c)
{
	RTCRayHit rh;
	float dx = c.end.x - c.start.x, dy = c.end.y - c.start.y, dz = c.end.z - c.start.z;
	float len = std::sqrt(dx * dx + dy * dy + dz * dz);
	rh.ray.org_x = c.start.x, rh.ray.org_y = c.start.y, rh.ray.org_z = c.start.z;
	rh.ray.dir_x = dx / len, rh.ray.dir_y = dy / len, rh.ray.dir_z = dz / len;
	rh.ray.tnear = 0.0f;
	rh.ray.tfar = len;
	rh.ray.time = 0.0f;
	rh.ray.mask = 0xFFFFFFFFu;
	rh.ray.id = 0;
	rh.ray.flags = 0;
	rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
	rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
	return rh;
}

void embreeRays(RTCScene scene, const Cast* c, int n, Outcome* out, bool batched)
{
	RTCIntersectContext ctx;
	rtcInitIntersectContext(&ctx);
	if (batched)
	{
		// A stream of rays (rtcIntersect1M), 64 at a time as limber's batches.
		RTCRayHit rh[64];
		for (int b = 0; b < n; b += 64)
		{
			int m = std::min(64, n - b);
			for (int k = 0; k < m; ++k)
				rh[k] = embreeRay(c[b + k]);
			rtcIntersect1M(scene, &ctx, rh, (unsigned)m, sizeof(RTCRayHit));
			for (int k = 0; k < m; ++k)
				out[b + k] = Outcome{ rh[k].hit.geomID != RTC_INVALID_GEOMETRY_ID, rh[k].ray.tfar };
		}
		return;
	}
	for (int i = 0; i < n; ++i)
	{
		RTCRayHit rh = embreeRay(c[i]);
		rtcIntersect1(scene, &ctx, &rh);
		out[i] = Outcome{ rh.hit.geomID != RTC_INVALID_GEOMETRY_ID, rh.ray.tfar };
	}
}

// --- Bullet -----------------------------------------------------------------------------------

struct BulletWorld
{
	btTriangleIndexVertexArray* mesh = nullptr;
	btBvhTriangleMeshShape* shape = nullptr;
	btCollisionObject* object = nullptr;
	btDefaultCollisionConfiguration* config = nullptr;
	btCollisionDispatcher* dispatcher = nullptr;
	btDbvtBroadphase* broadphase = nullptr;
	btCollisionWorld* world = nullptr;
};

void bulletCreate(BulletWorld& b, Terrain& t)
{
	b.mesh = new btTriangleIndexVertexArray((int)(t.indices.size() / 3), t.indices.data(), 3 * (int)sizeof(int32_t),
											(int)t.vertices.size(), &t.vertices[0].x, (int)sizeof(lbVec3));
	b.shape = new btBvhTriangleMeshShape(b.mesh, true);
	b.object = new btCollisionObject();
	b.object->setCollisionShape(b.shape);
	b.config = new btDefaultCollisionConfiguration();
	b.dispatcher = new btCollisionDispatcher(b.config);
	b.broadphase = new btDbvtBroadphase();
	b.world = new btCollisionWorld(b.dispatcher, b.broadphase, b.config);
	b.world->addCollisionObject(b.object);
	b.world->updateAabbs();
}

void bulletDestroy(BulletWorld& b)
{
	b.world->removeCollisionObject(b.object);
	delete b.world;
	delete b.broadphase;
	delete b.dispatcher;
	delete b.config;
	delete b.object;
	delete b.shape;
	delete b.mesh;
}

void bulletSpheres(const BulletWorld& b, const Cast* c, int n, Outcome* out, float radius)
{
	btSphereShape sphere(radius);
	for (int i = 0; i < n; ++i)
	{
		btVector3 from(c[i].start.x, c[i].start.y, c[i].start.z), to(c[i].end.x, c[i].end.y, c[i].end.z);
		btTransform tf, tt;
		tf.setIdentity(), tt.setIdentity();
		tf.setOrigin(from), tt.setOrigin(to);
		btCollisionWorld::ClosestConvexResultCallback cb(from, to);
		b.world->convexSweepTest(&sphere, tf, tt, cb);
		out[i] = Outcome{ cb.hasHit(), cb.hasHit() ? cb.m_closestHitFraction * (to - from).length() : 0.0f };
	}
}

// --- comparison -------------------------------------------------------------------------------

struct Compare
{
	int disagreements = 0;
	double worst = 0.0;
};

void compare(const std::vector<Outcome>& a, const std::vector<Outcome>& b, float tolerance, Compare& c)
{
	for (size_t i = 0; i < a.size(); ++i)
	{
		if (a[i].hit != b[i].hit)
		{
			++c.disagreements;
			continue;
		}
		if (a[i].hit)
		{
			double d = std::fabs((double)a[i].distance - (double)b[i].distance);
			c.worst = std::max(c.worst, d);
			if (d > tolerance)
				++c.disagreements;
		}
	}
}

// Alternating blocks of `block` casts: fa then fb on even blocks, fb then fa on odd ones. Returns the
// medians (ns per cast) of both and fills their outcomes.
template <class FA, class FB>
void alternate(const std::vector<Cast>& casts, int block, FA fa, FB fb, std::vector<Outcome>& oa, std::vector<Outcome>& ob,
			   double& ma, double& mb)
{
	oa.assign(casts.size(), Outcome{ false, 0.0f });
	ob.assign(casts.size(), Outcome{ false, 0.0f });
	std::vector<double> ta, tb;
	// One untimed block each first: the first calls fault in code and lazily built data.
	fa(&casts[0], block, &oa[0]);
	fb(&casts[0], block, &ob[0]);
	for (size_t s = 0; s + (size_t)block <= casts.size(); s += (size_t)block)
	{
		for (int pass = 0; pass < 2; ++pass)
		{
			bool aFirst = ((s / (size_t)block) % 2 == 0) == (pass == 0);
			double t0 = nowNs();
			if (aFirst)
				fa(&casts[s], block, &oa[s]);
			else
				fb(&casts[s], block, &ob[s]);
			double t1 = nowNs();
			(aFirst ? ta : tb).push_back((t1 - t0) / block);
		}
	}
	ma = median(ta);
	mb = median(tb);
}

bool reportPair(const char* name, const char* peer, double limber, double other, const Compare& c, const char* unit)
{
	char line[160];
	std::snprintf(line, sizeof line, "peers.%s.limber", name);
	report(line, limber, unit);
	std::snprintf(line, sizeof line, "peers.%s.%s", name, peer);
	report(line, other, unit);
	std::snprintf(line, sizeof line, "peers.%s.ratio", name);
	report(line, limber / other, "x");
	std::snprintf(line, sizeof line, "peers.%s.disagreements", name);
	report(line, (double)c.disagreements, "casts");
	std::snprintf(line, sizeof line, "peers.%s.distance_diff_max", name);
	report(line, c.worst * 1000.0, "mm");
	return c.disagreements == 0;
}

} // namespace

int main(int argc, char** argv)
{
	bool smoke = false;
	int blocks = 64;
	for (int i = 1; i < argc; ++i)
	{
		if (std::strcmp(argv[i], "--smoke") == 0)
			smoke = true;
		else if (std::strncmp(argv[i], "-r=", 3) == 0)
			blocks = std::max(2, std::atoi(argv[i] + 3));
		else
		{
			std::fprintf(stderr, "usage: limber_bench_peers [--smoke] [-r=blocks]\n");
			return 2;
		}
	}
	if (smoke)
		blocks = 2;
	Terrain t;
	makeTerrain(t, smoke ? 10.0f : 100.0f, 0.1f);
	const int triangles = (int)(t.indices.size() / 3);
	report("peers.mesh_triangles", (double)triangles, "triangles");

	// BVH builds, one thread each, from the caller's arrays to a mesh ready for casts (limber copies
	// them into the world; Embree into its buffers). Rounds alternate which library goes first. The
	// first build of each in the process is reported apart (wall clock and the thread's CPU time): it
	// alone finds no freed memory to reuse and pays the kernel's page faults (zeroing every new page)
	// in full, as a program loading one level does. The rest report the fastest round, wall clock and the thread's CPU time (the
	// latter blind to other jobs on a shared machine). The last of each is kept for the casts below.
	// limber builds twice a round: as a program building one mesh does (scratch allocated and freed by
	// the build) and with a build workspace kept across rounds (lbMeshDef::buildWorkspace, on 2 MB
	// pages), as Embree's device keeps memory between scenes.
	const size_t hugePage = (size_t)2 << 20;
	const size_t wsBytes = (lbGetMeshBuildWorkspaceSize(triangles) + hugePage - 1) & ~(hugePage - 1);
	void* ws = lbAllocAligned(wsBytes, hugePage);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	if (ws)
		(void)madvise(ws, wsBytes, MADV_HUGEPAGE);
#endif
	auto buildLimber = [&](bool workspace) {
		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* w = lbCreateWorld(&wd);
		lbMeshDef md = lbDefaultMeshDef();
		md.vertices = t.vertices.data();
		md.vertexCount = (int)t.vertices.size();
		md.indices = t.indices.data();
		md.triangleCount = triangles;
		if (workspace)
		{
			md.buildWorkspace = ws;
			md.buildWorkspaceSize = wsBytes;
		}
		if (lbWorld_AddMesh(w, &md) < 0)
		{
			lbDestroyWorld(w);
			return (lbWorld*)nullptr;
		}
		return w;
	};
	RTCDevice device = rtcNewDevice("threads=1");
	auto buildEmbree = [&]() {
		RTCScene sc = rtcNewScene(device);
		RTCGeometry geom = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
		float* vb = (float*)rtcSetNewGeometryBuffer(geom, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float),
													t.vertices.size());
		std::memcpy(vb, t.vertices.data(), t.vertices.size() * sizeof(lbVec3));
		unsigned* ib = (unsigned*)rtcSetNewGeometryBuffer(geom, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
														  3 * sizeof(unsigned), (size_t)triangles);
		std::memcpy(ib, t.indices.data(), t.indices.size() * sizeof(int32_t));
		rtcCommitGeometry(geom);
		rtcAttachGeometry(sc, geom);
		rtcReleaseGeometry(geom);
		rtcCommitScene(sc);
		return sc;
	};
	lbWorld* world = nullptr;
	RTCScene scene = nullptr;
	// 0 limber, 1 Embree, 2 limber with its workspace.
	double first[3] = { 0.0, 0.0, 0.0 }, firstCpu[3] = { 0.0, 0.0, 0.0 }, bestWall[3] = { 1e300, 1e300, 1e300 }, bestCpu[3] = { 1e300, 1e300, 1e300 };
	const int rounds = smoke ? 2 : 5;
	for (int r = 0; r < rounds; ++r)
		for (int k = 0; k < 3; ++k)
		{
			const int lib = (k + r) % 3;
			if (lib != 1 && world)
				lbDestroyWorld(world);
			if (lib == 1 && scene)
				rtcReleaseScene(scene);
			const double w0 = nowNs(), c0 = threadNs();
			if (lib == 1)
				scene = buildEmbree();
			else
				world = buildLimber(lib == 2);
			const double c = threadNs() - c0, w = nowNs() - w0;
			if (lib != 1 && !world)
			{
				std::fprintf(stderr, "limber: the mesh was refused\n");
				return 1;
			}
			if (r == 0)
				first[lib] = w, firstCpu[lib] = c;
			else
			{
				bestWall[lib] = std::min(bestWall[lib], w);
				bestCpu[lib] = std::min(bestCpu[lib], c);
			}
		}
	const double perMtri = 1.0 / (double)triangles; // ns per triangle = ms per million
	report("peers.bvh_build.limber", bestWall[0] * perMtri, "ms_per_Mtri");
	report("peers.bvh_build.embree", bestWall[1] * perMtri, "ms_per_Mtri");
	report("peers.bvh_build.ratio", bestWall[0] / bestWall[1], "x");
	report("peers.bvh_build_cpu.limber", bestCpu[0] * perMtri, "ms_per_Mtri");
	report("peers.bvh_build_cpu.embree", bestCpu[1] * perMtri, "ms_per_Mtri");
	report("peers.bvh_build_cpu.ratio", bestCpu[0] / bestCpu[1], "x");
	report("peers.bvh_build_first.limber", first[0] * perMtri, "ms_per_Mtri");
	report("peers.bvh_build_first.embree", first[1] * perMtri, "ms_per_Mtri");
	report("peers.bvh_build_first.ratio", first[0] / first[1], "x");
	report("peers.bvh_build_first_cpu.limber", firstCpu[0] * perMtri, "ms_per_Mtri");
	report("peers.bvh_build_first_cpu.embree", firstCpu[1] * perMtri, "ms_per_Mtri");
	report("peers.bvh_build_first_cpu.ratio", firstCpu[0] / firstCpu[1], "x");
	report("peers.bvh_build_workspace.limber", bestWall[2] * perMtri, "ms_per_Mtri");
	report("peers.bvh_build_workspace.ratio", bestWall[2] / bestWall[1], "x");
	report("peers.bvh_build_workspace_cpu.limber", bestCpu[2] * perMtri, "ms_per_Mtri");
	report("peers.bvh_build_workspace_cpu.ratio", bestCpu[2] / bestCpu[1], "x");
	report("peers.bvh_build_workspace_first.limber", first[2] * perMtri, "ms_per_Mtri");
	report("peers.bvh_build_workspace_first.ratio", first[2] / first[1], "x");
	report("peers.bvh_build_workspace_first_cpu.ratio", firstCpu[2] / firstCpu[1], "x");
	lbFree(ws);

	const int block = 256;
	const int count = block * blocks;
	bool agree = true;
	std::vector<Outcome> oa, ob;
	double ma = 0.0, mb = 0.0;
	for (int warm = 0; warm < 2; ++warm)
	{
		std::vector<Cast> casts = makeCasts(t, count, warm == 1, block);
		for (int batched = 0; batched < 2; ++batched)
		{
			alternate(
				casts, block, [&](const Cast* c, int n, Outcome* o) { limberRays(world, c, n, o, 0.0f, batched == 1); },
				[&](const Cast* c, int n, Outcome* o) { embreeRays(scene, c, n, o, batched == 1); }, oa, ob, ma, mb);
			Compare cmp;
			compare(oa, ob, 1.0e-4f, cmp);
			char name[64];
			std::snprintf(name, sizeof name, "mesh_ray%s.%s", batched ? ".batched" : "", warm ? "warm" : "cold");
			agree = reportPair(name, "embree", ma, mb, cmp, "ns") && agree;
		}
	}
	rtcReleaseScene(scene);
	rtcReleaseDevice(device);

	// Sphere casts (r = 3 cm) against Bullet's convexSweepTest on a btBvhTriangleMeshShape of the
	// same triangles.
	BulletWorld bw;
	bulletCreate(bw, t);
	const int sphereBlocks = std::max(2, blocks / 8);
	for (int warm = 0; warm < 2; ++warm)
	{
		std::vector<Cast> casts = makeCasts(t, block * sphereBlocks, warm == 1, block);
		alternate(
			casts, block, [&](const Cast* c, int n, Outcome* o) { limberRays(world, c, n, o, 0.03f, false); },
			[&](const Cast* c, int n, Outcome* o) { bulletSpheres(bw, c, n, o, 0.03f); }, oa, ob, ma, mb);
		Compare cmp;
		compare(oa, ob, 1.5e-3f, cmp);
		agree = reportPair(warm ? "mesh_sphere.warm" : "mesh_sphere.cold", "bullet", ma, mb, cmp, "ns") && agree;
	}
	bulletDestroy(bw);
	lbDestroyWorld(world);
	if (!agree)
	{
		std::fprintf(stderr, "limber_bench_peers: hits disagree (see the disagreements rows)\n");
		return 1;
	}
	return 0;
}
