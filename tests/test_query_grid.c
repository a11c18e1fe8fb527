// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The mesh BVH's start-node grid and its traversal shortcuts (src/query/bvh.c) must never change an
// answer. Checked three ways on
// meshes chosen to stress it (a terrain under an arbitrary up axis, a soup mixing huge and small
// triangles, a perfectly flat mesh, a mesh flat on two axes, a wall, a tiny mesh):
// - structure: for random footprints, every leaf whose box overlaps the footprint lies below the
//   start node the grid gives (the grid is exact, not a heuristic);
// - casts: the BVH starting from the grid, the BVH starting from the root, and a loop over every
//   triangle with the same exact primitive tests agree on hit, start overlap, distance and depth,
//   for short traces that straddle cells, casts longer than many cells, casts starting or ending
//   outside the bounds and casts missing everything;
// - use: on a large terrain, short foot traces start well below the root;
// - node tables (child mask, step exponent field, descent prefetch counts) match what they stand for;
// - edge stages skipped by the sphere traversal (on the nearest hit's tangent plane) never drop a
//   contact: casts aimed at vertices and edges agree to the bit with the loop over every triangle.
// The narrow phase itself is compared with an independent reference in test_query_reference.c.
#include "limber/limber.h"
#include "query/cast.h"
#include "test_macros.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

typedef struct TestMesh
{
	lbVec3* vertices;
	int32_t* indices;
	int vertexCount, triangleCount;
} TestMesh;

static void FreeTestMesh(TestMesh* m)
{
	free(m->vertices);
	free(m->indices);
}

// Bumpy grid of n x n quads of side `cell`, laid out in the frame (u, v, up) of rotation q.
static TestMesh Terrain(int n, float cell, lbQuat q, lbTestRng* rng)
{
	TestMesh m;
	m.vertexCount = (n + 1) * (n + 1);
	m.triangleCount = 2 * n * n;
	m.vertices = (lbVec3*)malloc(sizeof(lbVec3) * (size_t)m.vertexCount);
	m.indices = (int32_t*)malloc(sizeof(int32_t) * 3 * (size_t)m.triangleCount);
	for (int j = 0; j <= n; ++j)
		for (int i = 0; i <= n; ++i)
		{
			float h = 0.2f * sinf(0.7f * (float)i) * cosf(0.5f * (float)j) + lbTestUniform(rng, -0.03f, 0.03f);
			lbVec3 p = lbMakeVec3(((float)i - 0.5f * (float)n) * cell, ((float)j - 0.5f * (float)n) * cell, h);
			m.vertices[j * (n + 1) + i] = lbQuatRotate(q, p);
		}
	int t = 0;
	for (int j = 0; j < n; ++j)
		for (int i = 0; i < n; ++i)
		{
			int32_t a = j * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
			int32_t* o = &m.indices[3 * t];
			o[0] = a, o[1] = b, o[2] = d, o[3] = a, o[4] = d, o[5] = c;
			t += 2;
		}
	return m;
}

// Random triangles in a box of half size `half`: mostly small, some spanning the whole box.
static TestMesh Soup(int count, float half, float hugeFraction, lbTestRng* rng)
{
	TestMesh m;
	m.vertexCount = 3 * count;
	m.triangleCount = count;
	m.vertices = (lbVec3*)malloc(sizeof(lbVec3) * (size_t)m.vertexCount);
	m.indices = (int32_t*)malloc(sizeof(int32_t) * 3 * (size_t)m.triangleCount);
	for (int t = 0; t < count; ++t)
	{
		bool huge = lbTestUniform(rng, 0.0f, 1.0f) < hugeFraction;
		lbVec3 c = lbMakeVec3(lbTestUniform(rng, -half, half), lbTestUniform(rng, -half, half),
							  lbTestUniform(rng, -half, half));
		float s = huge ? 2.0f * half : 0.05f * half;
		for (int k = 0; k < 3; ++k)
		{
			lbVec3 p = lbAdd(c, lbMakeVec3(lbTestUniform(rng, -s, s), lbTestUniform(rng, -s, s), lbTestUniform(rng, -s, s)));
			m.vertices[3 * t + k] = p;
			m.indices[3 * t + k] = 3 * t + k;
		}
	}
	return m;
}

// Flatten every vertex's coordinate `axis` to `value` (a perfectly flat mesh).
static void Flatten(TestMesh* m, int axis, float value)
{
	for (int i = 0; i < m->vertexCount; ++i)
	{
		if (axis == 0)
			m->vertices[i].x = value;
		else if (axis == 1)
			m->vertices[i].y = value;
		else
			m->vertices[i].z = value;
	}
}

// The cast state as lbWorld sets it up (the rest zeroed, so states compare by content).
static void InitCast(lbCastState* st, lbVec3 start, lbVec3 end, float radius)
{
	memset(st, 0, sizeof *st);
	ENSURE(lbCastInit(st, start, end, radius));
}

// Every triangle with the exact primitive tests: nearest hit, or deepest start overlap.
static void BruteForce(const lbMesh* mesh, lbCastState* st)
{
	for (int i = 0; i < mesh->triangleCount; ++i)
	{
		const float* v = &mesh->corners[9 * (size_t)i];
		lbDVec3 a = lbD3(v[0], v[1], v[2]), b = lbD3(v[3], v[4], v[5]), c = lbD3(v[6], v[7], v[8]);
		lbDContact contact;
		if (lbSweepSphereTriangleD(&st->cast, a, b, c, st->bestT, &contact))
			lbCastRecord(st, &contact, 0, i);
	}
}

typedef struct Outcome
{
	int kind; // 0 miss, 1 hit, 2 started inside
	double t, depth;
} Outcome;

static Outcome OutcomeOf(const lbCastState* st)
{
	Outcome o = { 0, 0.0, 0.0 };
	if (st->inside)
	{
		o.kind = 2;
		o.depth = st->deepest.depth;
	}
	else if (st->hasHit)
	{
		o.kind = 1;
		o.t = st->hit.t;
	}
	return o;
}

// Parent of every 4-wide node (the root is its own parent).
static int32_t* Parents(const lbMesh* mesh)
{
	int32_t* parent = (int32_t*)malloc(sizeof(int32_t) * (size_t)mesh->nodeCount);
	parent[0] = 0;
	for (int i = 0; i < mesh->nodeCount; ++i)
		for (int k = 0; k < lbBvh4ChildCount(&mesh->nodes[i]); ++k)
			if (mesh->nodes[i].count[k] == 0)
				parent[mesh->nodes[i].child[k]] = i;
	return parent;
}

static bool IsBelow(const int32_t* parent, int32_t node, int32_t ancestor)
{
	for (;;)
	{
		if (node == ancestor)
			return true;
		if (node == 0)
			return false;
		node = parent[node];
	}
}

static float Coord(lbVec3 p, int a)
{
	return a == 0 ? p.x : (a == 1 ? p.y : p.z);
}

// Structure: every leaf overlapping the footprint of the cast (box grown by radius + slop) is below the
// start node; when no leaf overlaps, the start may be -1.
static int CheckStructure(const lbMesh* mesh, const int32_t* parent, lbVec3 start, lbVec3 end, float radius)
{
	lbCastState st;
	InitCast(&st, start, end, radius);
	float grow = radius + mesh->slop;
	int32_t s = lbMeshStartNode(mesh, &st, grow);
	int bad = 0;
	for (int i = 0; i < mesh->nodeCount; ++i)
	{
		const lbBvh4Node* n = &mesh->nodes[i];
		for (int k = 0; k < lbBvh4ChildCount(n); ++k)
		{
			if (n->count[k] == 0)
				continue;
			bool overlaps = true;
			for (int a = 0; a < 3; ++a)
			{
				float lo = FLT_MAX, hi = -FLT_MAX;
				for (int t = n->child[k]; t < n->child[k] + n->count[k]; ++t)
					for (int c = 0; c < 3; ++c)
					{
						float x = mesh->corners[9 * (size_t)t + 3 * (size_t)c + (size_t)a];
						lo = x < lo ? x : lo;
						hi = x > hi ? x : hi;
					}
				float c0 = lbMinF(Coord(start, a), Coord(end, a)) - grow, c1 = lbMaxF(Coord(start, a), Coord(end, a)) + grow;
				overlaps = overlaps && hi >= c0 && lo <= c1;
			}
			if (overlaps && (s < 0 || !IsBelow(parent, i, s)))
				++bad;
		}
	}
	return bad;
}

typedef struct CastStats
{
	int casts, mismatches, hits, insides, belowRoot;
} CastStats;

// One cast three ways: grid start, root start, brute force.
static void CompareCast(lbMesh* mesh, lbVec3 start, lbVec3 end, float radius, CastStats* stats)
{
	lbCastState a, b, c;
	InitCast(&a, start, end, radius);
	InitCast(&b, start, end, radius);
	InitCast(&c, start, end, radius);
	lbMeshCast(mesh, &a, 0);
	int32_t* saved = mesh->grid.start;
	mesh->grid.start = NULL; // the traversal starts at the root without a grid
	lbMeshCast(mesh, &b, 0);
	mesh->grid.start = saved;
	BruteForce(mesh, &c);
	Outcome oa = OutcomeOf(&a), ob = OutcomeOf(&b), oc = OutcomeOf(&c);
	bool same = oa.kind == ob.kind && oa.kind == oc.kind && fabs(oa.t - ob.t) <= 1e-12 && fabs(oa.t - oc.t) <= 1e-12 &&
				fabs(oa.depth - ob.depth) <= 1e-12 && fabs(oa.depth - oc.depth) <= 1e-12;
	if (!same && stats->mismatches < 3)
		printf("  mismatch: start (%g %g %g) end (%g %g %g) r %g: grid %d %.12g %.12g, root %d %.12g %.12g, all %d "
			   "%.12g %.12g\n",
			   start.x, start.y, start.z, end.x, end.y, end.z, radius, oa.kind, oa.t, oa.depth, ob.kind, ob.t, ob.depth,
			   oc.kind, oc.t, oc.depth);
	stats->mismatches += !same;
	stats->hits += oa.kind == 1;
	stats->insides += oa.kind == 2;
	stats->casts += 1;
	InitCast(&a, start, end, radius);
	stats->belowRoot += lbMeshStartNode(mesh, &a, radius + mesh->slop) != 0;
}

static lbVec3 RandomPoint(lbTestRng* rng, lbVec3 lo, lbVec3 hi)
{
	return lbMakeVec3(lbTestUniform(rng, lo.x, hi.x), lbTestUniform(rng, lo.y, hi.y), lbTestUniform(rng, lo.z, hi.z));
}

static lbVec3 RandomDir(lbTestRng* rng)
{
	for (;;)
	{
		lbVec3 d = lbMakeVec3(lbTestUniform(rng, -1, 1), lbTestUniform(rng, -1, 1), lbTestUniform(rng, -1, 1));
		float l = lbLength(d);
		if (l > 0.1f && l <= 1.0f)
			return lbMulSV(1.0f / l, d);
	}
}

// Casts of every kind against one mesh; returns the stats. `up` is the mesh's up direction (for foot
// traces), `cell` the typical triangle size.
static CastStats RunCasts(lbMesh* mesh, lbVec3 up, float cell, int count, uint64_t seed)
{
	lbTestRng rng = { seed };
	CastStats stats = { 0, 0, 0, 0, 0 };
	lbVec3 lo = lbMakeVec3(mesh->boundsMin[0], mesh->boundsMin[1], mesh->boundsMin[2]);
	lbVec3 hi = lbMakeVec3(mesh->boundsMax[0], mesh->boundsMax[1], mesh->boundsMax[2]);
	lbVec3 centre = lbMulSV(0.5f, lbAdd(lo, hi));
	float extent = lbLength(lbSub(hi, lo)) + cell;
	lbVec3 margin = lbMakeVec3(0.25f * extent, 0.25f * extent, 0.25f * extent);
	for (int i = 0; i < count; ++i)
	{
		int kind = i % 5;
		float r = (i / 5) % 3 == 0 ? 0.0f : lbTestUniform(&rng, 0.001f, 1.5f * cell);
		lbVec3 s, e;
		if (kind == 0)
		{
			// Short trace along -up from a point near the surface: straddles cells anywhere.
			lbVec3 p = RandomPoint(&rng, lo, hi);
			s = lbAdd(p, lbMulSV(lbTestUniform(&rng, 0.0f, 2.0f * cell), up));
			e = lbSub(p, lbMulSV(lbTestUniform(&rng, 0.0f, 2.0f * cell), up));
		}
		else if (kind == 1)
		{
			// Short cast in any direction, a few cells long.
			s = RandomPoint(&rng, lo, hi);
			e = lbAdd(s, lbMulSV(lbTestUniform(&rng, 0.0f, 6.0f * cell), RandomDir(&rng)));
		}
		else if (kind == 2)
		{
			// Long cast across many cells, both ends anywhere around the mesh.
			s = RandomPoint(&rng, lbSub(lo, margin), lbAdd(hi, margin));
			e = RandomPoint(&rng, lbSub(lo, margin), lbAdd(hi, margin));
		}
		else if (kind == 3)
		{
			// From outside the bounds toward a point inside (enters from outside).
			lbVec3 p = RandomPoint(&rng, lo, hi);
			s = lbAdd(centre, lbMulSV(extent, RandomDir(&rng)));
			e = lbAdd(p, lbMulSV(lbTestUniform(&rng, 0.0f, 0.2f), lbSub(p, s)));
		}
		else
		{
			// Entirely outside the bounds, beside the mesh (the footprint overlaps no cell or only the
			// border ones).
			lbVec3 d = RandomDir(&rng);
			s = lbAdd(centre, lbMulSV(0.6f * extent + lbTestUniform(&rng, 0.0f, 1.0f) * cell, d));
			e = lbAdd(s, lbMulSV(lbTestUniform(&rng, 0.0f, 3.0f * cell), RandomDir(&rng)));
		}
		CompareCast(mesh, s, e, r, &stats);
	}
	return stats;
}

static int CastCount(int full)
{
	return getenv("LB_SANITIZE_RUN") ? full / 8 : full;
}

// Number of 4-wide nodes in the subtree of node i (itself included), by recursion over its internal
// children (independent of where the nodes sit in the array).
static int SubtreeSize(const lbMesh* mesh, int32_t i)
{
	const lbBvh4Node* n = &mesh->nodes[i];
	int size = 1;
	for (int k = 0; k < lbBvh4ChildCount(n); ++k)
		if (n->count[k] == 0)
			size += SubtreeSize(mesh, n->child[k]);
	return size;
}

// The per-node tables the traversal reads instead of recomputing: the child mask names children
// 0..n-1; each leaf child's triangles lie inside its quantized box, with the step decoded from the
// stored float exponent field; and a cast descending into an internal child fetches with it the lines
// of the child's whole subtree when that subtree has at most 20 more nodes and a later internal sibling
// exists, else four lines, never past the end of the array (0 for leaf and unused children).
static int CheckNodeTables(const lbMesh* mesh)
{
	int bad = 0;
	for (int i = 0; i < mesh->nodeCount; ++i)
	{
		const lbBvh4Node* n = &mesh->nodes[i];
		int count = lbBvh4ChildCount(n);
		bad += n->childMask != (1 << count) - 1;
		for (int k = 0; k < 4; ++k)
		{
			if (k >= count || n->count[k] != 0)
			{
				bad += n->prefetch[k] != 0;
				if (k >= count)
					continue;
				for (int a = 0; a < 3; ++a)
				{
					double step = ldexp(1.0, (int)n->stepBits[a] - 127);
					double lo = (double)n->origin[a] + n->qmin[a][k] * step;
					double hi = (double)n->origin[a] + n->qmax[a][k] * step;
					for (int t = n->child[k]; t < n->child[k] + n->count[k]; ++t)
						for (int c = 0; c < 3; ++c)
						{
							double x = mesh->corners[9 * (size_t)t + 3 * (size_t)c + (size_t)a];
							bad += x < lo || x > hi;
						}
				}
				continue;
			}
			int32_t child = n->child[k];
			int expect = 4;
			for (int j = k + 1; j < count; ++j)
				if (n->count[j] == 0)
				{
					int below = SubtreeSize(mesh, child) - 1;
					expect = below <= 20 ? below : 4;
					break;
				}
			int after = mesh->nodeCount - 1 - child;
			expect = expect < after ? expect : after;
			bad += n->prefetch[k] != (expect > 0 ? expect : 0);
		}
	}
	return bad;
}

static void CheckMesh(TestMesh* tm, lbVec3 up, float cell, int leaf, uint64_t seed, int casts, bool expectHits)
{
	lbMesh mesh;
	ENSURE(lbMeshBuild(&mesh, tm->vertices, tm->vertexCount, tm->indices, tm->triangleCount, leaf) == lb_ok);
	if (mesh.nodeCount > 1)
		ENSURE(mesh.grid.start != NULL && mesh.grid.levels >= 1);
	ENSURE(CheckNodeTables(&mesh) == 0);
	int32_t* parent = Parents(&mesh);
	lbTestRng rng = { seed ^ 0x5555u };
	lbVec3 lo = lbMakeVec3(mesh.boundsMin[0], mesh.boundsMin[1], mesh.boundsMin[2]);
	lbVec3 hi = lbMakeVec3(mesh.boundsMax[0], mesh.boundsMax[1], mesh.boundsMax[2]);
	int bad = 0;
	int structural = CastCount(300);
	for (int i = 0; i < structural; ++i)
	{
		lbVec3 s = RandomPoint(&rng, lo, hi);
		float len = i % 3 == 0 ? lbTestUniform(&rng, 0.0f, 0.5f * cell) : lbTestUniform(&rng, 0.0f, 8.0f * cell);
		lbVec3 e = lbAdd(s, lbMulSV(len, RandomDir(&rng)));
		bad += CheckStructure(&mesh, parent, s, e, i % 2 ? 0.0f : lbTestUniform(&rng, 0.0f, cell));
	}
	ENSURE(bad == 0);
	CastStats st = RunCasts(&mesh, up, cell, CastCount(casts), seed);
	if (st.mismatches)
		printf("  %d of %d casts differ\n", st.mismatches, st.casts);
	ENSURE(st.mismatches == 0);
	if (expectHits)
		ENSURE(st.hits > st.casts / 10);
	free(parent);
	lbMeshFree(&mesh);
}

static void GridTerrainAnyUp(void)
{
	lbTestRng rng = { 11 };
	// +Z up, +Y up and a tilted up axis.
	lbQuat qs[3] = { lbQuat_identity, lbQuatFromAxisAngle(lbMakeVec3(1, 0, 0), -1.5707963f),
					 lbQuatFromAxisAngle(lbNormalize(lbMakeVec3(1, 2, 0.5f)), 0.9f) };
	for (int k = 0; k < 3; ++k)
	{
		TestMesh tm = Terrain(50, 0.1f, qs[k], &rng);
		CheckMesh(&tm, lbQuatRotate(qs[k], lbMakeVec3(0, 0, 1)), 0.1f, 8, 100 + (uint64_t)k, 4000, true);
		FreeTestMesh(&tm);
	}
}

static void GridHugeAndSmallTriangles(void)
{
	lbTestRng rng = { 12 };
	TestMesh tm = Soup(3000, 2.0f, 0.02f, &rng);
	CheckMesh(&tm, lbMakeVec3(0, 0, 1), 0.1f, 4, 200, 6000, true);
	FreeTestMesh(&tm);
	// Only huge triangles: every leaf spans the grid.
	TestMesh all = Soup(300, 2.0f, 1.0f, &rng);
	CheckMesh(&all, lbMakeVec3(0, 1, 0), 0.5f, 2, 201, 3000, true);
	FreeTestMesh(&all);
}

static void GridFlatBounds(void)
{
	lbTestRng rng = { 13 };
	// Perfectly flat on each axis in turn: the grid uses the other two.
	for (int axis = 0; axis < 3; ++axis)
	{
		TestMesh tm = Terrain(40, 0.1f, lbQuat_identity, &rng);
		if (axis != 2)
		{
			// Stand the terrain up so that `axis` is its normal, then flatten along it.
			lbQuat q = axis == 0 ? lbQuatFromAxisAngle(lbMakeVec3(0, 1, 0), 1.5707963f)
								 : lbQuatFromAxisAngle(lbMakeVec3(1, 0, 0), 1.5707963f);
			for (int i = 0; i < tm.vertexCount; ++i)
				tm.vertices[i] = lbQuatRotate(q, tm.vertices[i]);
		}
		Flatten(&tm, axis, 0.25f);
		lbVec3 up = lbMakeVec3(axis == 0, axis == 1, axis == 2);
		CheckMesh(&tm, up, 0.1f, 8, 300 + (uint64_t)axis, 3000, true);
		FreeTestMesh(&tm);
	}
	// Flat on two axes: every triangle lies on one line (degenerate, hit only by spheres through its
	// edges), the grid has one row.
	TestMesh line = Soup(400, 1.0f, 0.0f, &rng);
	Flatten(&line, 1, 0.0f);
	Flatten(&line, 2, 0.5f);
	CheckMesh(&line, lbMakeVec3(0, 0, 1), 0.05f, 4, 310, 3000, false);
	FreeTestMesh(&line);
}

static void GridTinyMeshes(void)
{
	lbTestRng rng = { 14 };
	for (int n = 1; n <= 5; ++n)
	{
		TestMesh tm = Soup(n * n, 0.5f, 0.2f, &rng);
		CheckMesh(&tm, lbMakeVec3(0, 0, 1), 0.05f, 1, 400 + (uint64_t)n, 1000, false);
		FreeTestMesh(&tm);
	}
}

// On a large terrain, short foot traces start below the root nearly always, and the grid stays small.
static void GridStartsDeepForShortCasts(void)
{
	lbTestRng rng = { 15 };
	TestMesh tm = Terrain(200, 0.1f, lbQuat_identity, &rng);
	lbMesh mesh;
	ENSURE(lbMeshBuild(&mesh, tm.vertices, tm.vertexCount, tm.indices, tm.triangleCount, 8) == lb_ok);
	int32_t* parent = Parents(&mesh);
	int32_t* depth = (int32_t*)calloc((size_t)mesh.nodeCount, sizeof(int32_t));
	for (int i = 1; i < mesh.nodeCount; ++i)
		depth[i] = depth[parent[i]] + 1;
	int count = CastCount(2000), below = 0;
	double depthSum = 0.0;
	for (int i = 0; i < count; ++i)
	{
		float x = lbTestUniform(&rng, -9.5f, 9.5f), y = lbTestUniform(&rng, -9.5f, 9.5f);
		lbCastState st;
		InitCast(&st, lbMakeVec3(x, y, 0.75f), lbMakeVec3(x, y, -0.75f), 0.03f);
		int32_t s = lbMeshStartNode(&mesh, &st, 0.03f + mesh.slop);
		ENSURE(s >= 0);
		if (s > 0)
		{
			++below;
			depthSum += depth[s];
		}
	}
	ENSURE(below > count * 9 / 10);
	ENSURE(depthSum / (double)count >= 2.0);
	// Four bytes an entry, one level-0 cell per 8 triangles: the levels (a third more than level 0)
	// and the single cells (three entries each) come to about 2.2 bytes a triangle.
	ENSURE(sizeof(int32_t) * mesh.grid.entryCount <= (size_t)mesh.triangleCount * 5 / 2);
	// Each single cell's corner range (what a cast starting there prefetches) lies in the mesh, and
	// together they hold every triangle.
	size_t cells = (size_t)mesh.grid.dim[0][0] * (size_t)mesh.grid.dim[0][1], held = 0;
	for (size_t i = 0; i < cells; ++i)
	{
		const int32_t* c = &mesh.grid.cell[3 * i];
		ENSURE(c[1] >= 0 && c[1] <= c[2] && c[2] <= mesh.triangleCount);
		held += (size_t)(c[2] - c[1]);
	}
	ENSURE(held >= (size_t)mesh.triangleCount);
	free(depth);
	free(parent);
	lbMeshFree(&mesh);
	FreeTestMesh(&tm);
}

// Edge stages a sphere cast skips on the strength of the nearest hit's tangent plane (bvh.c) must never
// drop a contact: casts aimed at a terrain's vertices, at points on its edges and just beside them,
// straight down, slanted, grazing and nearly along an edge, with radii from 1 mm to twice the cell,
// give exactly (to the bit) the distance, start overlap and depth of the loop over every triangle with
// the same primitive tests. Edge and vertex contacts must make up a good share of the hits.
static void EdgeStagesAtFeatures(void)
{
	lbTestRng rng = { 16 };
	const float cell = 0.1f;
	lbQuat qs[2] = { lbQuat_identity, lbQuatFromAxisAngle(lbNormalize(lbMakeVec3(1, 2, 0.5f)), 0.9f) };
	for (int k = 0; k < 2; ++k)
	{
		TestMesh tm = Terrain(24, cell, qs[k], &rng);
		lbVec3 up = lbQuatRotate(qs[k], lbMakeVec3(0, 0, 1));
		lbMesh mesh;
		ENSURE(lbMeshBuild(&mesh, tm.vertices, tm.vertexCount, tm.indices, tm.triangleCount, 8) == lb_ok);
		int count = CastCount(6000), mismatches = 0, hits = 0, featureHits = 0;
		for (int i = 0; i < count; ++i)
		{
			// A vertex, a point on an edge, or a point on an edge pushed off it by up to the radius.
			int t = (int)(lbTestNext(&rng) % (unsigned long long)tm.triangleCount);
			int c = (int)(lbTestNext(&rng) % 3);
			lbVec3 a = tm.vertices[tm.indices[3 * t + c]], b = tm.vertices[tm.indices[3 * t + (c + 1) % 3]];
			int feature = i % 3;
			lbVec3 target = feature == 0 ? a : lbLerp(a, b, lbTestUniform(&rng, 0.0f, 1.0f));
			unsigned long long rk = lbTestNext(&rng) % 4;
			float r = rk == 0 ? 0.001f : (rk == 1 ? 0.03f : lbTestUniform(&rng, 0.01f, 2.0f * cell));
			if (feature == 2)
				target = lbAdd(target, lbMulSV(lbTestUniform(&rng, -1.0f, 1.0f) * r, RandomDir(&rng)));
			lbVec3 dir;
			int kind = (i / 3) % 4;
			if (kind == 0)
				dir = lbMulSV(-1.0f, up); // foot trace
			else if (kind == 1)
				dir = lbNormalize(lbSub(lbMulSV(lbTestUniform(&rng, 0.3f, 1.0f), RandomDir(&rng)), up)); // slanted
			else if (kind == 2)
				dir = lbNormalize(lbAdd(lbProjectOnPlane(RandomDir(&rng), up), lbMulSV(-lbTestUniform(&rng, 0.0f, 0.15f), up)));
			else
				dir = lbNormalize(lbAdd(lbSub(b, a), lbMulSV(lbTestUniform(&rng, -0.05f, 0.05f), RandomDir(&rng))));
			float back = lbTestUniform(&rng, r, 4.0f * cell + r);
			lbVec3 s = lbSub(target, lbMulSV(back, dir)), e = lbAdd(target, lbMulSV(lbTestUniform(&rng, 0.0f, 2.0f * cell), dir));
			lbCastState bvh, all;
			InitCast(&bvh, s, e, r);
			InitCast(&all, s, e, r);
			lbMeshCast(&mesh, &bvh, 0);
			BruteForce(&mesh, &all);
			Outcome ob = OutcomeOf(&bvh), oa = OutcomeOf(&all);
			bool same = ob.kind == oa.kind && ob.t == oa.t && ob.depth == oa.depth;
			if (!same && mismatches < 3)
				printf("  mismatch: start (%g %g %g) end (%g %g %g) r %g: bvh %d %.17g %.17g, all %d %.17g %.17g\n", s.x,
					   s.y, s.z, e.x, e.y, e.z, r, ob.kind, ob.t, ob.depth, oa.kind, oa.t, oa.depth);
			mismatches += !same;
			if (ob.kind == 1)
			{
				++hits;
				// A face contact's normal is the triangle's own; an edge or vertex contact's is not.
				const float* v = &mesh.corners[9 * (size_t)bvh.hitPrim];
				lbDVec3 n = lbDCross(lbD3(v[3] - v[0], v[4] - v[1], v[5] - v[2]), lbD3(v[6] - v[0], v[7] - v[1], v[8] - v[2]));
				featureHits += fabs(lbDDot(n, bvh.hit.n)) < (1.0 - 1e-9) * lbDLen(n);
			}
		}
		printf("  frame %d: %d casts, %d hits, %d at edges or vertices, %d mismatches\n", k, count, hits, featureHits,
			   mismatches);
		ENSURE(mismatches == 0);
		ENSURE(hits > count / 2);
		ENSURE(featureHits > hits / 10);
		lbMeshFree(&mesh);
		FreeTestMesh(&tm);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(GridTerrainAnyUp);
	RUN_TEST(GridHugeAndSmallTriangles);
	RUN_TEST(GridFlatBounds);
	RUN_TEST(GridTinyMeshes);
	RUN_TEST(GridStartsDeepForShortCasts);
	RUN_TEST(EdgeStagesAtFeatures);
	TEST_MAIN_END();
}
