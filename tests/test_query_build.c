// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The mesh BVH build over a parallel-for (src/query/bvh.c): the subtrees below the top of the tree
// are built on any threads, and the mesh must come out the same to the bit as on the calling thread
// alone: nodes, leaf-order corners and indices, the start-node grid and the statistics. Checked on a
// bumpy terrain (many subtrees), a soup of random triangles with repeated ones (coincident
// centroids take the median split) and a mesh small enough to be a single subtree, with the built-in
// pool at 1, 2 and 3 threads and with a job system that runs the ranges in reverse order.
#include "limber/limber.h"
#include "query/cast.h"
#include "test_macros.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

typedef struct TestMesh
{
	lbVec3* vertices;
	int32_t* indices;
	int vertexCount, triangleCount;
} TestMesh;

static float Rand01(uint32_t* s)
{
	*s = *s * 1664525u + 1013904223u;
	return (float)(*s >> 8) / 16777216.0f;
}

static TestMesh Terrain(int n, uint32_t seed)
{
	TestMesh m;
	m.vertexCount = (n + 1) * (n + 1);
	m.triangleCount = 2 * n * n;
	m.vertices = (lbVec3*)malloc(sizeof(lbVec3) * (size_t)m.vertexCount);
	m.indices = (int32_t*)malloc(sizeof(int32_t) * 3 * (size_t)m.triangleCount);
	for (int j = 0; j <= n; ++j)
		for (int i = 0; i <= n; ++i)
		{
			float h = 0.4f * sinf(0.05f * (float)i) * cosf(0.07f * (float)j) + 0.05f * Rand01(&seed);
			m.vertices[j * (n + 1) + i] = (lbVec3){ 0.1f * (float)i, h, 0.1f * (float)j };
		}
	int t = 0;
	for (int j = 0; j < n; ++j)
		for (int i = 0; i < n; ++i)
		{
			int a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
			int32_t q[6] = { a, c, b, b, c, d };
			memcpy(&m.indices[t], q, sizeof q);
			t += 6;
		}
	return m;
}

// Random triangles in a 20 m box, every seventh one a copy of the one before.
static TestMesh Soup(int triangles, uint32_t seed)
{
	TestMesh m;
	m.vertexCount = 3 * triangles;
	m.triangleCount = triangles;
	m.vertices = (lbVec3*)malloc(sizeof(lbVec3) * (size_t)m.vertexCount);
	m.indices = (int32_t*)malloc(sizeof(int32_t) * 3 * (size_t)m.triangleCount);
	for (int t = 0; t < triangles; ++t)
	{
		lbVec3 c = { 20.0f * Rand01(&seed), 20.0f * Rand01(&seed), 20.0f * Rand01(&seed) };
		for (int k = 0; k < 3; ++k)
		{
			m.vertices[3 * t + k] = (lbVec3){ c.x + 0.3f * Rand01(&seed), c.y + 0.3f * Rand01(&seed),
											 c.z + 0.3f * Rand01(&seed) };
			m.indices[3 * t + k] = (t % 7 == 6) ? m.indices[3 * (t - 1) + k] : 3 * t + k;
		}
	}
	return m;
}

static void FreeTestMesh(TestMesh* m)
{
	free(m->vertices);
	free(m->indices);
}

static bool SameMesh(const lbMesh* a, const lbMesh* b)
{
	if (a->nodeCount != b->nodeCount || a->triangleCount != b->triangleCount || a->leafCount != b->leafCount ||
		a->maxDepth != b->maxDepth || memcmp(&a->sahCost, &b->sahCost, sizeof a->sahCost) != 0 ||
		memcmp(a->boundsMin, b->boundsMin, sizeof a->boundsMin) != 0 ||
		memcmp(a->boundsMax, b->boundsMax, sizeof a->boundsMax) != 0)
		return false;
	size_t tc = (size_t)a->triangleCount;
	if (memcmp(a->nodes, b->nodes, sizeof(lbBvh4Node) * (size_t)a->nodeCount) != 0 ||
		memcmp(a->indices, b->indices, sizeof(int32_t) * 3 * tc) != 0 ||
		memcmp(a->corners, b->corners, sizeof(float) * 9 * tc) != 0)
		return false;
	if (a->grid.entryCount != b->grid.entryCount || (a->grid.start == NULL) != (b->grid.start == NULL))
		return false;
	return a->grid.start == NULL ||
		   memcmp(a->grid.start, b->grid.start, sizeof(int32_t) * a->grid.entryCount) == 0;
}

// Every input triangle appears exactly once in leaf order (the build permutes, never drops or repeats).
static bool IsPermutation(const lbMesh* m, const TestMesh* in)
{
	int tc = in->triangleCount;
	bool ok = true;
	// Triangles are told apart by their first index; the soup's copies share all three, so count them.
	int* uses = (int*)calloc((size_t)in->vertexCount, sizeof(int));
	for (int t = 0; t < tc; ++t)
		++uses[in->indices[3 * t]];
	for (int t = 0; t < tc; ++t)
		--uses[m->indices[3 * t]];
	for (int v = 0; v < in->vertexCount; ++v)
		ok = ok && uses[v] == 0;
	free(uses);
	return ok;
}

// Each leaf-order triangle's corners are its own three vertices, exactly: the corners are written
// over the build's per-triangle boxes, and one written too early would clobber a box still to be read.
static bool CornersMatchIndices(const lbMesh* m, const TestMesh* in)
{
	for (int t = 0; t < m->triangleCount; ++t)
		for (int k = 0; k < 3; ++k)
		{
			const lbVec3 v = in->vertices[m->indices[3 * t + k]];
			const float* c = &m->corners[9 * (size_t)t + 3 * (size_t)k];
			if (c[0] != v.x || c[1] != v.y || c[2] != v.z)
				return false;
		}
	return true;
}

// A job system that runs a batch's ranges last first, one item each, with worker indices that
// change per range: the build must not depend on the order or on who runs what.
static void* ReverseEnqueue(lbTaskFcn* task, int itemCount, int minRange, void* taskContext, void* userContext)
{
	(void)minRange;
	(void)userContext;
	for (int i = itemCount - 1; i >= 0; --i)
		task(i, i + 1, i % 3, taskContext);
	return NULL;
}

static void CheckSameForAnyThreads(const TestMesh* in, int maxLeaf)
{
	lbMesh ref;
	ENSURE(lbMeshBuildParallel(&ref, in->vertices, in->vertexCount, in->indices, in->triangleCount, maxLeaf, NULL, NULL,
							   0) == lb_ok);
	ENSURE(IsPermutation(&ref, in));
	ENSURE(CornersMatchIndices(&ref, in));
	lbMesh plain;
	ENSURE(lbMeshBuild(&plain, in->vertices, in->vertexCount, in->indices, in->triangleCount, maxLeaf) == lb_ok);
	ENSURE(SameMesh(&ref, &plain));
	lbMeshFree(&plain);
	for (int threads = 1; threads <= 3; ++threads)
	{
		lbThreadPool* pool = lbCreateThreadPool(threads);
		ENSURE(pool != NULL);
		lbParallel par = lbThreadPool_GetParallel(pool);
		for (int repeat = 0; repeat < 2; ++repeat)
		{
			lbMesh m;
			ENSURE(lbMeshBuildParallel(&m, in->vertices, in->vertexCount, in->indices, in->triangleCount, maxLeaf, &par, NULL,
									   0) == lb_ok);
			ENSURE(SameMesh(&ref, &m));
			lbMeshFree(&m);
		}
		lbDestroyThreadPool(pool);
	}
	lbParallel reverse = { ReverseEnqueue, NULL, 3, NULL };
	lbMesh m;
	ENSURE(lbMeshBuildParallel(&m, in->vertices, in->vertexCount, in->indices, in->triangleCount, maxLeaf, &reverse, NULL,
							   0) == lb_ok);
	ENSURE(SameMesh(&ref, &m));
	lbMeshFree(&m);
	lbMeshFree(&ref);
}

static void TerrainSameOnAnyThreads(void)
{
	TestMesh m = Terrain(160, 7u); // 51 200 triangles: a few dozen subtrees
	CheckSameForAnyThreads(&m, 8);
	CheckSameForAnyThreads(&m, 1);
	FreeTestMesh(&m);
	// 73 728 triangles: the root bins every 16th triangle, its children every 8th, in chunks over
	// the workers; the chunks must take the triangles one pass takes.
	TestMesh big = Terrain(192, 9u);
	CheckSameForAnyThreads(&big, 8);
	FreeTestMesh(&big);
}

static void SoupSameOnAnyThreads(void)
{
	TestMesh m = Soup(30000, 11u);
	CheckSameForAnyThreads(&m, 4);
	FreeTestMesh(&m);
}

static void SmallMeshIsOneSubtree(void)
{
	TestMesh m = Terrain(12, 3u);
	CheckSameForAnyThreads(&m, 8);
	FreeTestMesh(&m);
	TestMesh one = Soup(1, 5u);
	CheckSameForAnyThreads(&one, 8);
	FreeTestMesh(&one);
}

// A smooth height grid's tree ends in its cells: every leaf holds the two triangles of one cell, the
// nodes of four triangles (two cells side by side) being split between the cells, not across one. Up
// along y and along z (the heights swapped into the third coordinate).
static void TerrainLeavesAreItsCells(void)
{
	const int n = 64;
	for (int up = 1; up <= 2; ++up)
	{
		TestMesh m = Terrain(n, 7u);
		for (int j = 0; j <= n; ++j)
			for (int i = 0; i <= n; ++i)
			{
				lbVec3* p = &m.vertices[j * (n + 1) + i];
				const float h = 0.4f * sinf(0.05f * (float)i) * cosf(0.07f * (float)j);
				*p = up == 1 ? (lbVec3){ p->x, h, p->z } : (lbVec3){ p->x, p->z, h };
			}
		lbMesh mesh;
		ENSURE(lbMeshBuild(&mesh, m.vertices, m.vertexCount, m.indices, m.triangleCount, 8) == lb_ok);
		ENSURE(mesh.leafCount == n * n);
		int leaves = 0;
		for (int i = 0; i < mesh.nodeCount; ++i)
		{
			const lbBvh4Node* nd = &mesh.nodes[i];
			for (int k = 0, end = lbBvh4ChildCount(nd); k < end; ++k)
			{
				if (nd->count[k] == 0)
					continue;
				++leaves;
				ENSURE(nd->count[k] == 2);
				// The six corners are the four of one cell: a, a + 1, a + n + 1 and a + n + 2.
				const int32_t* v = &mesh.indices[3 * nd->child[k]];
				int32_t a = v[0];
				for (int c = 1; c < 6; ++c)
					a = v[c] < a ? v[c] : a;
				for (int c = 0; c < 6; ++c)
					ENSURE(v[c] == a || v[c] == a + 1 || v[c] == a + n + 1 || v[c] == a + n + 2);
			}
		}
		ENSURE(leaves == n * n);
		lbMeshFree(&mesh);
		FreeTestMesh(&m);
	}
}

// Centroids a few 1e-39 m apart: the bin scale 16 / extent overflows to infinity, so a triangle at
// the lower bound lands in bin 0 through a NaN and one above it in the last bin. Binning and
// partition must agree on both (a disagreement leaves a side empty or loops), on any threads.
static void SubnormalExtentsBuild(void)
{
	TestMesh m = Soup(2000, 13u);
	for (int i = 0; i < m.vertexCount; ++i)
	{
		m.vertices[i].x *= 1e-40f;
		m.vertices[i].y *= 1e-40f;
	}
	CheckSameForAnyThreads(&m, 4);
	CheckSameForAnyThreads(&m, 1);
	FreeTestMesh(&m);
}

// No instruction of the build reads a denormal operand where the input has none: a triangle's index
// and padding ride in the float rows the vector code loads, and read as floats they are denormals,
// which many x86 processors meet with a microcode assist per instruction (the build ran 5.5 times
// slower). The processor's sticky denormal-operand flag (MXCSR bit 1) tells, without a clock: clear it,
// build a terrain and a soup (bins, partitions, sweeps and the collapse on both), read it.
static void BuildReadsNoDenormal(void)
{
#if defined(__SSE2__) || defined(_M_X64)
	TestMesh t = Terrain(64, 21u), soup = Soup(5000, 23u);
	const TestMesh* in[2] = { &t, &soup };
	for (int k = 0; k < 2; ++k)
	{
		for (int i = 0; i < in[k]->vertexCount; ++i)
			ENSURE(fabsf(in[k]->vertices[i].x) == 0.0f || fabsf(in[k]->vertices[i].x) >= FLT_MIN);
		lbMesh m;
		_mm_setcsr(_mm_getcsr() & ~0x3fu);
		ENSURE(lbMeshBuild(&m, in[k]->vertices, in[k]->vertexCount, in[k]->indices, in[k]->triangleCount, 4) == lb_ok);
		const unsigned flags = _mm_getcsr() & 0x3fu;
		ENSURE((flags & 0x2u) == 0u);
		lbMeshFree(&m);
	}
	FreeTestMesh(&t);
	FreeTestMesh(&soup);
#endif
}

// A caller's build workspace holds only scratch: the mesh is the same to the bit with it as without,
// whatever an earlier build (of a larger mesh, or garbage) left in it, on one thread and over a pool.
static void WorkspaceGivesTheSameMesh(void)
{
	TestMesh big = Terrain(96, 5u), soup = Soup(9000, 17u), small = Terrain(20, 9u);
	const size_t bytes = lbGetMeshBuildWorkspaceSize(big.triangleCount);
	ENSURE(bytes >= lbGetMeshBuildWorkspaceSize(soup.triangleCount));
	ENSURE(lbGetMeshBuildWorkspaceSize(0) == 0 && lbGetMeshBuildWorkspaceSize(-3) == 0);
	void* ws = lbAllocAligned(bytes, LB_MESH_BUILD_WORKSPACE_ALIGN);
	ENSURE(ws != NULL);
	memset(ws, 0xA5, bytes);
	lbThreadPool* pool = lbCreateThreadPool(2);
	lbParallel par = lbThreadPool_GetParallel(pool);
	const TestMesh* order[4] = { &big, &soup, &small, &big };
	for (int i = 0; i < 4; ++i)
	{
		const TestMesh* in = order[i];
		lbMesh ref, m, mp;
		ENSURE(lbMeshBuild(&ref, in->vertices, in->vertexCount, in->indices, in->triangleCount, 4) == lb_ok);
		ENSURE(lbMeshBuildParallel(&m, in->vertices, in->vertexCount, in->indices, in->triangleCount, 4, NULL, ws, bytes) ==
			   lb_ok);
		ENSURE(SameMesh(&ref, &m));
		ENSURE(lbMeshBuildParallel(&mp, in->vertices, in->vertexCount, in->indices, in->triangleCount, 4, &par, ws, bytes) ==
			   lb_ok);
		ENSURE(SameMesh(&ref, &mp));
		lbMeshFree(&ref);
		lbMeshFree(&m);
		lbMeshFree(&mp);
	}
	lbDestroyThreadPool(pool);
	lbFree(ws);
	FreeTestMesh(&big);
	FreeTestMesh(&soup);
	FreeTestMesh(&small);
}

static int g_errors;
static lbResult g_lastError;
static void CountErrors(lbLogLevel level, lbResult code, const char* message, void* userContext)
{
	(void)level;
	(void)message;
	(void)userContext;
	++g_errors;
	g_lastError = code;
}

// Through the world: a mesh added with a workspace casts as one added without it; a workspace too
// small or off its alignment is refused with a logged error and the world is left as it was.
static void WorldMeshWithWorkspace(void)
{
	TestMesh in = Terrain(40, 21u);
	const size_t bytes = lbGetMeshBuildWorkspaceSize(in.triangleCount);
	unsigned char* raw = (unsigned char*)lbAllocAligned(bytes + LB_MESH_BUILD_WORKSPACE_ALIGN, LB_MESH_BUILD_WORKSPACE_ALIGN);
	ENSURE(raw != NULL);
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* plain = lbCreateWorld(&wd);
	lbWorld* with = lbCreateWorld(&wd);
	lbMeshDef md = lbDefaultMeshDef();
	ENSURE(md.buildWorkspace == NULL && md.buildWorkspaceSize == 0);
	md.vertices = in.vertices;
	md.vertexCount = in.vertexCount;
	md.indices = in.indices;
	md.triangleCount = in.triangleCount;
	ENSURE(lbWorld_AddMesh(plain, &md) == 0);

	lbLogFcn* oldFcn;
	void* oldContext;
	lbGetLogFcn(&oldFcn, &oldContext);
	lbSetLogFcn(CountErrors, NULL);
	g_errors = 0;
	md.buildWorkspace = raw;
	md.buildWorkspaceSize = bytes - 1;
	ENSURE(lbWorld_AddMesh(with, &md) == LB_NULL_INDEX);
	ENSURE(g_errors == 1 && g_lastError == lb_errorInvalidArgument);
	md.buildWorkspace = raw + 16;
	md.buildWorkspaceSize = bytes;
	ENSURE(lbWorld_AddMesh(with, &md) == LB_NULL_INDEX);
	ENSURE(g_errors == 2 && g_lastError == lb_errorInvalidArgument);
	ENSURE(lbWorld_GetShapeCount(with) == 0);
	lbSetLogFcn(oldFcn, oldContext);

	md.buildWorkspace = raw;
	for (int repeat = 0; repeat < 2; ++repeat)
	{
		lbWorld* w = repeat == 0 ? with : lbCreateWorld(&wd);
		ENSURE(lbWorld_AddMesh(w, &md) == 0);
		lbBvhStats a, b;
		ENSURE(lbWorld_GetBvhStats(plain, 0, &a) && lbWorld_GetBvhStats(w, 0, &b));
		ENSURE(a.nodeCount == b.nodeCount && a.leafCount == b.leafCount && a.maxDepth == b.maxDepth &&
			   memcmp(&a.sahCost, &b.sahCost, sizeof a.sahCost) == 0);
		lbSceneQuery qa = lbWorld_GetQuery(plain), qb = lbWorld_GetQuery(w);
		uint32_t seed = 99u;
		for (int k = 0; k < 200; ++k)
		{
			lbQueryInput q = lbDefaultQueryInput();
			float x = 0.1f + 3.4f * Rand01(&seed), z = 0.1f + 3.8f * Rand01(&seed);
			q.start = (lbVec3){ x, 2.0f, z };
			q.end = (lbVec3){ x + 0.3f * Rand01(&seed), -2.0f, z };
			q.radius = k % 2 ? 0.05f : 0.0f;
			lbHit ha = k % 2 ? lbSphereCast(&qa, &q) : lbRayCast(&qa, &q);
			lbHit hb = k % 2 ? lbSphereCast(&qb, &q) : lbRayCast(&qb, &q);
			ENSURE(ha.hit && hb.hit);
			ENSURE(memcmp(&ha.distance, &hb.distance, sizeof ha.distance) == 0 && ha.primitiveIndex == hb.primitiveIndex);
		}
		if (w != with)
			lbDestroyWorld(w);
	}
	lbDestroyWorld(plain);
	lbDestroyWorld(with);
	lbFree(raw);
	FreeTestMesh(&in);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(TerrainSameOnAnyThreads);
	RUN_TEST(SoupSameOnAnyThreads);
	RUN_TEST(SmallMeshIsOneSubtree);
	RUN_TEST(TerrainLeavesAreItsCells);
	RUN_TEST(SubnormalExtentsBuild);
	RUN_TEST(BuildReadsNoDenormal);
	RUN_TEST(WorkspaceGivesTheSameMesh);
	RUN_TEST(WorldMeshWithWorkspace);
	TEST_MAIN_END();
}
