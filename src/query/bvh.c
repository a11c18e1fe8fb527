// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Triangle mesh BVH: binned surface-area-heuristic build (Wald, "On fast Construction of SAH-based
// Bounding Volume Hierarchies", IEEE RT 2007) of a binary tree, collapsed into a 4-wide tree
// (Wald, Benthin, Boulos, "Getting Rid of Packets", IEEE RT 2008; Dammertz et al., "Shallow Bounding
// Volume Hierarchies", EGSR 2008) whose child boxes are quantized to 8 bits (Ylitie, Karras, Laine,
// "Efficient Incoherent Ray Traversal on GPUs Through Compressed Wide BVHs", HPG 2017) so one node
// is one cache line. Random foot traces over a million triangles are bound by cache misses, one per
// level, so halving the depth and the node size is what pays. Triangle corners are copied in leaf
// order. Traversal is ordered, on a small fixed stack (no allocation per query).
#if defined(__linux__)
// madvise() and MADV_HUGEPAGE.
#define _DEFAULT_SOURCE
#endif
#include "core/simd.h"
#include "core/bits.h"
#include "query/cast.h"

#include <float.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define LB_BVH_BINS 16
// In a node of at least LB_BVH_THIN_MIN_TRIS triangles, an axis along which the centroids spread less
// than LB_BVH_THIN_AXIS of their widest spread is not binned (see lbFindSplit).
#define LB_BVH_THIN_AXIS 0.1f
#define LB_BVH_THIN_MIN_TRIS 8
// Below this depth the build uses SAH; deeper nodes split at the median, which halves the count, so
// the depth never exceeds LB_BVH_SAH_DEPTH + 32. A 4-wide step pushes at most 3 more entries than it
// pops, so the traversal stack needs at most 3 * 80 + 1 entries.
#define LB_BVH_SAH_DEPTH 48
#define LB_BVH_STACK 256
// Start-node grid resolution: one level-0 cell per this many triangles (4 bytes per cell, a third more
// for the coarser levels, 12 more for the single cells).
#define LB_BVH_TRIS_PER_CELL 8
// A cast starting from a single cell prefetches this many lines of its leaves' corners, the first and
// last halves of their range. On the peers terrain 10 lines beat 6 (cold rays 0.87 -> 0.81-0.85 of
// Embree's time) and 3 (0.91-0.94).
#define LB_BVH_CELL_PREFETCH 10
// The group walk (lbMeshPrefetchCasts) follows a cast starting from a single cell this many levels
// below its start node, not down to its leaf: the cast prefetches the cell's triangles itself, and
// its descent prefetches the small subtrees near the bottom. Batched warm rays on the peers terrain
// 1.43-1.49 -> 1.38 of Embree's time, cold ones 0.75-0.77 -> 0.735 (2 levels: 1.34, 0.78).
#define LB_WALK_CELL_LEVELS 3
// Descending into a node whose subtree has at most this many more nodes fetches all of them at once.
#define LB_BVH_PREFETCH_SUBTREE 20
// Subtrees of at most this many triangles are built as one task each (a thread's unit of work).
#define LB_BVH_TASK_TRIS 4096
// Nodes of at least this many triangles are binned in chunks of LB_BVH_BIN_CHUNK over the parallel-for.
#define LB_BVH_PAR_BIN_TRIS 16384
#define LB_BVH_BIN_CHUNK 4096
// A node of at least LB_BVH_SAMPLE_TRIS triangles bins every LB_BVH_SAMPLE_STEP-th of them (from
// LB_BVH_SAMPLE_TRIS_COARSE on, every LB_BVH_SAMPLE_STEP_COARSE-th): at least 1024 triangles, 64 a bin
// of 16 on average, place a split plane there about as well as all of them, and the top of the tree
// is where the build streams its triangles from memory. Partitioning still reads every triangle, so
// the children's boxes are exact. On the 2M-triangle terrain of bench/peers the tree has the same
// nodes and leaves and an SAH cost 0.03 % higher, for 12 % fewer build instructions and a build 7 %
// faster. The steps divide LB_BVH_BIN_CHUNK, so chunks binned over the parallel-for take the same
// triangles as one pass.
#define LB_BVH_SAMPLE_TRIS 8192
#define LB_BVH_SAMPLE_STEP 8
#define LB_BVH_SAMPLE_TRIS_COARSE 65536
#define LB_BVH_SAMPLE_STEP_COARSE 16
_Static_assert(LB_BVH_BIN_CHUNK % LB_BVH_SAMPLE_STEP == 0 && LB_BVH_BIN_CHUNK % LB_BVH_SAMPLE_STEP_COARSE == 0,
			   "sampled chunks take the triangles one pass takes");

// Large arrays the traversal reads at random (nodes, triangle corners) are aligned to 2 MB and, on
// Linux, offered to the kernel for transparent huge pages: a random foot trace touches a few lines
// far apart, and with 4 KB pages each of them also misses the TLB (52 MB of BVH is 13 000 pages,
// beyond the TLB's reach; with 2 MB pages it is 26). Smaller arrays use ordinary 64-byte alignment.
#define LB_BVH_HUGE_PAGE ((size_t)2 << 20)
static void* lbBvhAlloc(size_t bytes)
{
	if (bytes < 2 * LB_BVH_HUGE_PAGE)
		return lbAllocAligned((bytes + 63) & ~(size_t)63, 64);
	size_t rounded = (bytes + LB_BVH_HUGE_PAGE - 1) & ~(LB_BVH_HUGE_PAGE - 1);
	void* p = lbAllocAligned(rounded, LB_BVH_HUGE_PAGE);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	// Only advice: when the kernel refuses, the array works the same on small pages.
	if (p)
		(void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
	return p;
}

// Binary build node (internal to the build).
typedef struct lbBvhNode
{
	float min[3];
	int32_t leftOrFirst;
	float max[3];
	int32_t count;
} lbBvhNode;

typedef struct lbAabbF
{
	float min[3], max[3];
} lbAabbF;

static inline void lbAabbReset(lbAabbF* b)
{
	for (int i = 0; i < 3; ++i)
	{
		b->min[i] = FLT_MAX;
		b->max[i] = -FLT_MAX;
	}
}

static inline void lbAabbGrowBox(lbAabbF* b, const lbAabbF* o)
{
	for (int i = 0; i < 3; ++i)
	{
		b->min[i] = o->min[i] < b->min[i] ? o->min[i] : b->min[i];
		b->max[i] = o->max[i] > b->max[i] ? o->max[i] : b->max[i];
	}
}

static inline void lbAabbGrowPoint(lbAabbF* b, const float* p)
{
	for (int i = 0; i < 3; ++i)
	{
		b->min[i] = p[i] < b->min[i] ? p[i] : b->min[i];
		b->max[i] = p[i] > b->max[i] ? p[i] : b->max[i];
	}
}

static float lbAabbArea(const lbAabbF* b)
{
	float dx = b->max[0] - b->min[0], dy = b->max[1] - b->min[1], dz = b->max[2] - b->min[2];
	if (!(dx >= 0.0f) || !(dy >= 0.0f) || !(dz >= 0.0f))
		return 0.0f;
	return 2.0f * (dx * dy + dy * dz + dz * dx);
}

// A triangle's box and index, moved with it by the partitions: each pass over a node's triangles then
// reads them in order instead of gathering boxes through an index array.
typedef struct lbBuildPrim
{
	float min[3];
	int32_t tri;
	float max[3];
	int32_t pad;
} lbBuildPrim;

// A node waiting to be split; its box is already in nodes[node], cb bounds its triangles' centroids.
typedef struct lbBuildTask
{
	int node, first, count, depth;
	lbAabbF cb;
} lbBuildTask;

// A bin's box as two four-float rows (lane 3 unused), so growing it by a triangle's box is one
// minimum and one maximum with SSE2.
typedef struct lbBin
{
	float min[4], max[4];
	int count;
} lbBin;

typedef struct lbBuilder
{
	lbBuildPrim* prims;
	lbBvhNode* nodes;
	int nodeCount;
	int maxLeaf;
	/// Bins the largest nodes' triangles in chunks over this parallel-for (NULL: in one pass).
	const lbParallel* parallel;
	/// One set of bins per chunk of the largest node (the root).
	lbBin (*chunkBins)[3][LB_BVH_BINS];
	/// Empty bins (lbBinsReset) on entry to every split: a split resets only the bins it filled, a
	/// few for the small nodes that make up most of the tree. Each thread has its own.
	lbBin (*bins)[LB_BVH_BINS];
} lbBuilder;

static inline float lbPrimCentroid(const lbBuildPrim* p, int axis)
{
	return 0.5f * (p->min[axis] + p->max[axis]);
}

// A box and a centroid box being grown, as four-float rows (lane 3 unused).
typedef struct lbGrowAcc
{
	float min[4], max[4], cmin[4], cmax[4];
} lbGrowAcc;

static void lbGrowAccReset(lbGrowAcc* g)
{
	for (int a = 0; a < 4; ++a)
	{
		g->min[a] = g->cmin[a] = FLT_MAX;
		g->max[a] = g->cmax[a] = -FLT_MAX;
	}
}

#if defined(LB_SIMD_SSE)
// A triangle's two rows (lbBuildPrim) as vectors with lane 3 zero. That lane holds an integer's bits
// (its index, its padding), a denormal when read as a float, and many x86 processors take a
// microcode assist of a hundred cycles or more for an add or multiply that meets one: with the
// centroids summed unmasked, a 1M-triangle build ran 5.5 times slower on such a processor (2.4 s
// against 0.44 s). Masked here, no instruction of the build reads a denormal (a test checks the
// processor's denormal flag).
static inline void lbPrimRowsV(const lbBuildPrim* p, __m128* lo, __m128* hi)
{
	const __m128 xyz = _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1));
	*lo = _mm_and_ps(_mm_loadu_ps(p->min), xyz);
	*hi = _mm_and_ps(_mm_loadu_ps(p->max), xyz);
}

static inline __m128 lbPrimCentroidV(__m128 lo, __m128 hi)
{
	return _mm_mul_ps(_mm_set1_ps(0.5f), _mm_add_ps(lo, hi));
}
#endif

static inline void lbGrowPrim(lbGrowAcc* g, const lbBuildPrim* p)
{
#if defined(LB_SIMD_SSE)
	__m128 lo, hi;
	lbPrimRowsV(p, &lo, &hi);
	const __m128 c = lbPrimCentroidV(lo, hi);
	_mm_storeu_ps(g->min, _mm_min_ps(_mm_loadu_ps(g->min), lo));
	_mm_storeu_ps(g->max, _mm_max_ps(_mm_loadu_ps(g->max), hi));
	_mm_storeu_ps(g->cmin, _mm_min_ps(_mm_loadu_ps(g->cmin), c));
	_mm_storeu_ps(g->cmax, _mm_max_ps(_mm_loadu_ps(g->cmax), c));
#else
	for (int a = 0; a < 3; ++a)
	{
		float c = lbPrimCentroid(p, a);
		g->min[a] = p->min[a] < g->min[a] ? p->min[a] : g->min[a];
		g->max[a] = p->max[a] > g->max[a] ? p->max[a] : g->max[a];
		g->cmin[a] = c < g->cmin[a] ? c : g->cmin[a];
		g->cmax[a] = c > g->cmax[a] ? c : g->cmax[a];
	}
#endif
}

static void lbGrowAccOut(const lbGrowAcc* g, lbAabbF* bounds, lbAabbF* cb)
{
	for (int a = 0; a < 3; ++a)
	{
		bounds->min[a] = g->min[a];
		bounds->max[a] = g->max[a];
		cb->min[a] = g->cmin[a];
		cb->max[a] = g->cmax[a];
	}
}

static void lbRangeBounds(const lbBuilder* b, int first, int count, lbAabbF* bounds, lbAabbF* cb)
{
	lbGrowAcc g;
	lbGrowAccReset(&g);
	for (int i = first; i < first + count; ++i)
		lbGrowPrim(&g, &b->prims[i]);
	lbGrowAccOut(&g, bounds, cb);
}

static void lbSetNodeBox(lbBvhNode* n, const lbAabbF* bounds)
{
	memcpy(n->min, bounds->min, sizeof n->min);
	memcpy(n->max, bounds->max, sizeof n->max);
}

static inline void lbBinGrow(lbBin* bin, const lbBuildPrim* p)
{
#if defined(LB_SIMD_SSE)
	__m128 lo, hi;
	lbPrimRowsV(p, &lo, &hi);
	_mm_storeu_ps(bin->min, _mm_min_ps(_mm_loadu_ps(bin->min), lo));
	_mm_storeu_ps(bin->max, _mm_max_ps(_mm_loadu_ps(bin->max), hi));
#else
	for (int a = 0; a < 3; ++a)
	{
		bin->min[a] = p->min[a] < bin->min[a] ? p->min[a] : bin->min[a];
		bin->max[a] = p->max[a] > bin->max[a] ? p->max[a] : bin->max[a];
	}
#endif
	++bin->count;
}

static inline lbAabbF lbBinBox(const lbBin* bin)
{
	lbAabbF b = { { bin->min[0], bin->min[1], bin->min[2] }, { bin->max[0], bin->max[1], bin->max[2] } };
	return b;
}

static inline int lbBinOf(float c, float lo, float scale)
{
	int k = (int)((c - lo) * scale);
	return k < 0 ? 0 : (k >= LB_BVH_BINS ? LB_BVH_BINS - 1 : k);
}

static inline void lbBinReset(lbBin* bin)
{
	for (int a = 0; a < 4; ++a)
	{
		bin->min[a] = FLT_MAX;
		bin->max[a] = -FLT_MAX;
	}
	bin->count = 0;
}

static void lbBinsReset(lbBin bins[3][LB_BVH_BINS])
{
	for (int axis = 0; axis < 3; ++axis)
		for (int i = 0; i < LB_BVH_BINS; ++i)
			lbBinReset(&bins[axis][i]);
}

static void lbBinMerge(lbBin* into, const lbBin* from)
{
#if defined(LB_SIMD_SSE)
	// The scalar loop's choices (an equal value keeps `into`'s), a row at a time.
	_mm_storeu_ps(into->min, _mm_min_ps(_mm_loadu_ps(from->min), _mm_loadu_ps(into->min)));
	_mm_storeu_ps(into->max, _mm_max_ps(_mm_loadu_ps(from->max), _mm_loadu_ps(into->max)));
#else
	for (int a = 0; a < 3; ++a)
	{
		into->min[a] = from->min[a] < into->min[a] ? from->min[a] : into->min[a];
		into->max[a] = from->max[a] > into->max[a] ? from->max[a] : into->max[a];
	}
#endif
	into->count += from->count;
}

#if defined(LB_SIMD_SSE)
static inline void lbBinGrowV(lbBin* bin, __m128 lo, __m128 hi)
{
	_mm_storeu_ps(bin->min, _mm_min_ps(_mm_loadu_ps(bin->min), lo));
	_mm_storeu_ps(bin->max, _mm_max_ps(_mm_loadu_ps(bin->max), hi));
	++bin->count;
}

// The bins of one triangle on the axes in `axes` (bit a for axis a): clamping to [0, LB_BVH_BINS - 1]
// before truncating gives lbBinOf's bin (below 0 and NaN give 0, at or past the last bin give the
// last). With `mark`, the bins' bits are set in *u (for every axis; the caller keeps those it binned).
// mark and axes are constants at every call, so their branches are compiled away.
static inline void lbBinPrimV(lbBin bins[3][LB_BVH_BINS], const lbBuildPrim* p, __m128 lo4, __m128 scale4, __m128i* u,
							  bool mark, unsigned axes)
{
	__m128 lo, hi;
	lbPrimRowsV(p, &lo, &hi);
	const __m128 c = lbPrimCentroidV(lo, hi);
	__m128 x = _mm_min_ps(_mm_max_ps(_mm_mul_ps(_mm_sub_ps(c, lo4), scale4), _mm_setzero_ps()),
						  _mm_set1_ps((float)(LB_BVH_BINS - 1)));
	__m128i k = _mm_cvttps_epi32(x);
	const int k0 = _mm_cvtsi128_si32(k), k1 = _mm_cvtsi128_si32(_mm_shuffle_epi32(k, _MM_SHUFFLE(1, 1, 1, 1))),
			  k2 = _mm_cvtsi128_si32(_mm_shuffle_epi32(k, _MM_SHUFFLE(2, 2, 2, 2)));
	if (axes & 1u)
		lbBinGrowV(&bins[0][k0], lo, hi);
	if (axes & 2u)
		lbBinGrowV(&bins[1][k1], lo, hi);
	if (axes & 4u)
		lbBinGrowV(&bins[2][k2], lo, hi);
	// 1 << k per lane: the float 2^k (exponent field k + 127) converted to an integer.
	if (mark)
		*u = _mm_or_si128(*u,
						  _mm_cvttps_epi32(_mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(k, _mm_set1_epi32(127)), 23))));
}
#endif

#if defined(LB_SIMD_SSE)
// lbBinRange's passes for one set of axes (a constant at each call below, inlined there: one copy of
// the loops per set, each growing only its axes' bins).
static LB_ALWAYS_INLINE void lbBinRangeAxes(const lbBuildPrim* prims, int first, int count, int step, __m128 lo4, __m128 scale4,
								  lbBin bins[3][LB_BVH_BINS], unsigned u[3], unsigned axes)
{
	__m128i uv = _mm_setzero_si128();
	int i = first;
	const int end = first + count;
	if (count >= 64)
	{
		// Neighbouring triangles of a mesh mostly fall in the same bins, so each bin update would wait
		// for the previous one's store; even and odd triangles go to two sets of bins, merged after
		// (counts add, boxes take minima and maxima: the same bins in any order). The bins in use are
		// read from the counts after, once per bin instead of once per triangle.
		lbBin odd[3][LB_BVH_BINS];
		lbBinsReset(odd);
		for (; i + step < end; i += 2 * step)
		{
			lbBinPrimV(bins, &prims[i], lo4, scale4, &uv, false, axes);
			lbBinPrimV(odd, &prims[i + step], lo4, scale4, &uv, false, axes);
		}
		for (; i < end; i += step)
			lbBinPrimV(bins, &prims[i], lo4, scale4, &uv, false, axes);
		for (int axis = 0; axis < 3; ++axis)
			for (int b = 0; b < LB_BVH_BINS; ++b)
			{
				lbBinMerge(&bins[axis][b], &odd[axis][b]);
				u[axis] |= bins[axis][b].count > 0 ? 1u << b : 0u;
			}
	}
	else
	{
		for (; i < end; i += step)
			lbBinPrimV(bins, &prims[i], lo4, scale4, &uv, true, axes);
		int32_t ul[4];
		_mm_storeu_si128((__m128i*)(void*)ul, uv);
		u[0] = (unsigned)ul[0], u[1] = (unsigned)ul[1], u[2] = (unsigned)ul[2];
	}
}
#endif

// Bins prims[first, first + count) by centroid on the axes in `axes` (bit a for axis a, not 0) into
// bins (empty on entry; the other axes' bins stay empty). Unless used is NULL, bit k of used[axis] is
// set for each bin that received a triangle (none on an axis not binned): small nodes, the great
// majority, fill a few of the 3 x LB_BVH_BINS bins, and the sweep visits only those.
static void lbBinRange(const lbBuildPrim* prims, int first, int count, int step, const lbAabbF* cb, const float* scale,
					   unsigned axes, lbBin bins[3][LB_BVH_BINS], unsigned* used)
{
	unsigned u[3] = { 0u, 0u, 0u };
#if defined(LB_SIMD_SSE)
	const __m128 lo4 = _mm_setr_ps(cb->min[0], cb->min[1], cb->min[2], 0.0f);
	const __m128 scale4 = _mm_setr_ps(scale[0], scale[1], scale[2], 0.0f);
	switch (axes)
	{
	case 1u: lbBinRangeAxes(prims, first, count, step, lo4, scale4, bins, u, 1u); break;
	case 2u: lbBinRangeAxes(prims, first, count, step, lo4, scale4, bins, u, 2u); break;
	case 3u: lbBinRangeAxes(prims, first, count, step, lo4, scale4, bins, u, 3u); break;
	case 4u: lbBinRangeAxes(prims, first, count, step, lo4, scale4, bins, u, 4u); break;
	case 5u: lbBinRangeAxes(prims, first, count, step, lo4, scale4, bins, u, 5u); break;
	case 6u: lbBinRangeAxes(prims, first, count, step, lo4, scale4, bins, u, 6u); break;
	default: lbBinRangeAxes(prims, first, count, step, lo4, scale4, bins, u, 7u); break;
	}
	for (int axis = 0; axis < 3; ++axis)
		u[axis] = (axes >> axis) & 1u ? u[axis] : 0u;
#else
	for (int i = first; i < first + count; i += step)
	{
		const lbBuildPrim* p = &prims[i];
		for (int axis = 0; axis < 3; ++axis)
		{
			if (!((axes >> axis) & 1u))
				continue;
			const int k = lbBinOf(lbPrimCentroid(p, axis), cb->min[axis], scale[axis]);
			lbBinGrow(&bins[axis][k], p);
			u[axis] |= 1u << k;
		}
	}
#endif
	if (used)
		used[0] = u[0], used[1] = u[1], used[2] = u[2];
}

// Index of the highest set bit of m != 0.
static inline int lbHighestBit(unsigned m)
{
#if defined(__GNUC__) || defined(__clang__)
	return 31 - __builtin_clz(m);
#else
	int k = 0;
	while (m >>= 1)
		++k;
	return k;
#endif
}

// The union of bins swept so far. Grown by a bin, it returns its area: the same operations as
// lbAabbGrowBox then lbAabbArea, with the minimum and maximum of the three axes in one go.
typedef struct lbBinAcc
{
#if defined(LB_SIMD_SSE)
	__m128 min, max;
#else
	lbAabbF box;
#endif
} lbBinAcc;

static inline void lbBinAccReset(lbBinAcc* acc)
{
#if defined(LB_SIMD_SSE)
	acc->min = _mm_set1_ps(FLT_MAX);
	acc->max = _mm_set1_ps(-FLT_MAX);
#else
	lbAabbReset(&acc->box);
#endif
}

static inline float lbBinAccGrow(lbBinAcc* acc, const lbBin* bin)
{
#if defined(LB_SIMD_SSE)
	acc->min = _mm_min_ps(_mm_loadu_ps(bin->min), acc->min);
	acc->max = _mm_max_ps(_mm_loadu_ps(bin->max), acc->max);
	float d[4];
	_mm_storeu_ps(d, _mm_sub_ps(acc->max, acc->min));
	if (!(d[0] >= 0.0f) || !(d[1] >= 0.0f) || !(d[2] >= 0.0f))
		return 0.0f;
	return 2.0f * (d[0] * d[1] + d[1] * d[2] + d[2] * d[0]);
#else
	lbAabbF box = lbBinBox(bin);
	lbAabbGrowBox(&acc->box, &box);
	return lbAabbArea(&acc->box);
#endif
}

typedef struct lbBinJob
{
	const lbBuildPrim* prims;
	int first, count;
	const lbAabbF* cb;
	const float* scale;
	unsigned axes;
	int step;
	lbBin (*chunkBins)[3][LB_BVH_BINS];
} lbBinJob;

static void lbBinChunks(int begin, int end, int worker, void* context)
{
	(void)worker;
	const lbBinJob* job = (const lbBinJob*)context;
	for (int c = begin; c < end; ++c)
	{
		int first = job->first + c * LB_BVH_BIN_CHUNK;
		int n = job->first + job->count - first;
		lbBinsReset(job->chunkBins[c]);
		lbBinRange(job->prims, first, n < LB_BVH_BIN_CHUNK ? n : LB_BVH_BIN_CHUNK, job->step, job->cb, job->scale, job->axes,
				   job->chunkBins[c], NULL);
	}
}

// Moves the triangles of prims[first, first + count) whose centroid bin on `axis` is below `limit`
// (the binning's bin <= limit - 1: the same test, as (c - lo) * scale < limit for the bins 0 .. 14 a
// plane can follow, and a NaN goes to bin 0 there and to the front here) to the front, keeping the order a plain two-ended sweep gives, and grows each
// side's box and centroid box in acc[0] and acc[1]. Returns the end of the front part.
static int lbPartition(lbBuildPrim* prims, int first, int count, int axis, float lo, float scale, float limit,
					   lbGrowAcc acc[2])
{
	int i = first, j = first + count - 1;
#if defined(LB_SIMD_SSE)
	// Both sides' boxes in registers; a triangle is two four-float rows (its index and padding ride in
	// lane 3, copied bit for bit and never read as a number: lbPrimRowsV).
	__m128 lmin = _mm_set1_ps(FLT_MAX), lmax = _mm_set1_ps(-FLT_MAX), lcmin = lmin, lcmax = lmax;
	__m128 rmin = lmin, rmax = lmax, rcmin = lmin, rcmax = lmax;
	while (i <= j)
	{
		float* pi = prims[i].min;
		const __m128 a = _mm_loadu_ps(pi), b = _mm_loadu_ps(pi + 4);
		__m128 pmin, pmax;
		lbPrimRowsV(&prims[i], &pmin, &pmax);
		const __m128 c = lbPrimCentroidV(pmin, pmax);
		if (!((0.5f * (pi[axis] + pi[4 + axis]) - lo) * scale >= limit))
		{
			lmin = _mm_min_ps(lmin, pmin), lmax = _mm_max_ps(lmax, pmax);
			lcmin = _mm_min_ps(lcmin, c), lcmax = _mm_max_ps(lcmax, c);
			++i;
		}
		else
		{
			rmin = _mm_min_ps(rmin, pmin), rmax = _mm_max_ps(rmax, pmax);
			rcmin = _mm_min_ps(rcmin, c), rcmax = _mm_max_ps(rcmax, c);
			float* pj = prims[j].min;
			_mm_storeu_ps(pi, _mm_loadu_ps(pj));
			_mm_storeu_ps(pi + 4, _mm_loadu_ps(pj + 4));
			_mm_storeu_ps(pj, a);
			_mm_storeu_ps(pj + 4, b);
			--j;
		}
	}
	_mm_storeu_ps(acc[0].min, lmin), _mm_storeu_ps(acc[0].max, lmax);
	_mm_storeu_ps(acc[0].cmin, lcmin), _mm_storeu_ps(acc[0].cmax, lcmax);
	_mm_storeu_ps(acc[1].min, rmin), _mm_storeu_ps(acc[1].max, rmax);
	_mm_storeu_ps(acc[1].cmin, rcmin), _mm_storeu_ps(acc[1].cmax, rcmax);
#else
	lbGrowAccReset(&acc[0]);
	lbGrowAccReset(&acc[1]);
	while (i <= j)
	{
		lbBuildPrim p = prims[i];
		if (!((lbPrimCentroid(&p, axis) - lo) * scale >= limit))
		{
			lbGrowPrim(&acc[0], &p);
			++i;
		}
		else
		{
			lbGrowPrim(&acc[1], &p);
			prims[i] = prims[j];
			prims[j] = p;
			--j;
		}
	}
#endif
	return i;
}

// Chooses a split for prims[first, first + count) and partitions them. Returns the number going left
// (0 = make a leaf) and the children's boxes and centroid bounds. One pass bins all three axes; the
// partition gathers the children's bounds as it classifies each triangle, so no further pass is needed.
static int lbFindSplit(lbBuilder* b, int node, int first, int count, int depth, const lbAabbF* cb, lbAabbF childBounds[2],
					   lbAabbF childCb[2])
{
	int bestAxis = -1, bestBin = -1;
	float bestCost = FLT_MAX;
	float nodeArea = lbAabbArea(&(lbAabbF){ { b->nodes[node].min[0], b->nodes[node].min[1], b->nodes[node].min[2] },
											 { b->nodes[node].max[0], b->nodes[node].max[1], b->nodes[node].max[2] } });
	lbBuildPrim* prims = b->prims;
	// Nodes of three and four triangles skip the binned sweep: they make up a tenth of the build's
	// instructions, and on a terrain the sweep's answer is known. Three stay a leaf (split one and two,
	// the plane rarely pays). Four split two and two at the median of their centroids along the axis
	// they spread most on (two quads side by side, the plane between them), or stay a leaf when that
	// does not pay by the SAH test below. On the 2M-triangle terrain of bench/peers the nodes and the
	// SAH cost are the same to the bit (only the triangles' order within leaves differs), on the
	// rougher 1M-triangle one of the query bench the tree has two leaves fewer of 501,265 (SAH cost
	// +0.00004 %), for 7 % fewer build instructions; on random triangle soups the SAH cost rises
	// 0.2-0.4 %.
	if (count == 3 && count <= b->maxLeaf)
		return 0;
	if (depth < LB_BVH_SAH_DEPTH && count == 4)
	{
		int axis = 0;
		for (int a = 1; a < 3; ++a)
			axis = cb->max[a] - cb->min[a] > cb->max[axis] - cb->min[axis] ? a : axis;
		if (cb->max[axis] > cb->min[axis])
		{
			// Insertion sort by centroid: at most six moves of a primitive.
			lbBuildPrim* p = &prims[first];
			for (int i = 1; i < 4; ++i)
			{
				lbBuildPrim x = p[i];
				const float c = lbPrimCentroid(&x, axis);
				int j = i;
				while (j > 0 && lbPrimCentroid(&p[j - 1], axis) > c)
				{
					p[j] = p[j - 1];
					--j;
				}
				p[j] = x;
			}
			lbRangeBounds(b, first, 2, &childBounds[0], &childCb[0]);
			lbRangeBounds(b, first + 2, 2, &childBounds[1], &childCb[1]);
			// The cost test of the binned split below (traversal 1, triangle 1).
			const float cost = 2.0f * (lbAabbArea(&childBounds[0]) + lbAabbArea(&childBounds[1]));
			if (count <= b->maxLeaf && 1.0f + (nodeArea > 0.0f ? cost / nodeArea : 4.0f) >= 4.0f)
				return 0;
			return 2;
		}
	}
	if (depth < LB_BVH_SAH_DEPTH && count == 2)
	{
		// Two triangles (a quarter of all splits): on every axis where their centroids differ, they
		// fall in the first and the last bin, so each such axis offers one plane of the same cost, the
		// sum of their boxes' areas, and the sweep keeps the first. The same split without binning.
		int axis = 0;
		while (axis < 3 && !(cb->max[axis] > cb->min[axis]))
			++axis;
		if (axis < 3)
		{
			const lbBuildPrim* p = &prims[first];
			const float cost = lbAabbArea(&(lbAabbF){ { p[0].min[0], p[0].min[1], p[0].min[2] },
													  { p[0].max[0], p[0].max[1], p[0].max[2] } }) +
							   lbAabbArea(&(lbAabbF){ { p[1].min[0], p[1].min[1], p[1].min[2] },
													  { p[1].max[0], p[1].max[1], p[1].max[2] } });
			if (cost < bestCost)
			{
				bestCost = cost;
				bestAxis = axis;
				bestBin = 0;
			}
		}
	}
	else if (depth < LB_BVH_SAH_DEPTH)
	{
		lbBin(*bins)[LB_BVH_BINS] = b->bins;
		unsigned used[3];
		float scale[3];
		bool split[3];
		// An axis along which the centroids spread less than LB_BVH_THIN_AXIS of their widest spread is
		// neither binned nor swept: a plane across it leaves both children about as wide as the node on
		// the two wider axes, and a plane across the widest axis cuts the children's areas more. On a
		// terrain that is the vertical axis of nearly every node; on the 2M triangles of bench/peers the
		// tree is the same to the bit without it. In the smallest nodes the triangles' boxes are large
		// beside their centroids' spread and a plane across a thin axis can win (in slabs of random
		// triangles, skipping it there cost up to 0.5 % of the SAH cost; from 8 triangles on, under 0.1 %).
		float widest = 0.0f;
		for (int axis = 0; axis < 3; ++axis)
			widest = lbMaxF(widest, cb->max[axis] - cb->min[axis]);
		unsigned axes = 0u;
		for (int axis = 0; axis < 3; ++axis)
		{
			float lo = cb->min[axis], hi = cb->max[axis];
			split[axis] = hi > lo && (count < LB_BVH_THIN_MIN_TRIS || hi - lo >= LB_BVH_THIN_AXIS * widest);
			scale[axis] = split[axis] ? (float)LB_BVH_BINS / (hi - lo) : 0.0f;
			axes |= split[axis] ? 1u << axis : 0u;
		}
		// Large nodes bin a sample of their triangles (see LB_BVH_SAMPLE_TRIS).
		const int step = count >= LB_BVH_SAMPLE_TRIS_COARSE ? LB_BVH_SAMPLE_STEP_COARSE
						 : count >= LB_BVH_SAMPLE_TRIS			? LB_BVH_SAMPLE_STEP
																: 1;
		if (axes == 0u)
		{
			// Every centroid in one point: no plane separates them (the split by count below).
			used[0] = used[1] = used[2] = 0u;
		}
		else if (b->parallel && count >= LB_BVH_PAR_BIN_TRIS)
		{
			// Fixed chunks binned over the parallel-for, then merged in chunk order. A bin's count is a
			// sum and its box a minimum and maximum, which do not depend on the order (a zero's sign
			// might, and no area sees it), so the split is the one a single pass finds.
			lbBinJob job = { prims, first, count, cb, scale, axes, step, b->chunkBins };
			int chunks = (count + LB_BVH_BIN_CHUNK - 1) / LB_BVH_BIN_CHUNK;
			lbParallelFor(b->parallel, lbBinChunks, chunks, 1, &job);
			for (int c = 0; c < chunks; ++c)
				for (int axis = 0; axis < 3; ++axis)
					for (int i = 0; i < LB_BVH_BINS; ++i)
						lbBinMerge(&bins[axis][i], &b->chunkBins[c][axis][i]);
			for (int axis = 0; axis < 3; ++axis)
			{
				used[axis] = 0u;
				for (int i = 0; i < LB_BVH_BINS; ++i)
					used[axis] |= bins[axis][i].count > 0 ? 1u << i : 0u;
			}
		}
		else
			lbBinRange(prims, first, count, step, cb, scale, axes, bins, used);
		for (int axis = 0; axis < 3; ++axis)
		{
			if (!split[axis])
				continue;
			// Sweep from the right to get suffix areas, then from the left to evaluate each plane. Only the
			// bins in use are visited: between two of them the cost stays the same, and the first plane
			// of such a run (the one just after a bin in use) is the one a sweep over every bin keeps,
			// with the same sums in the same order, so the same split.
			const unsigned m = used[axis];
			if ((m & (m - 1u)) == 0u)
				continue; // one bin in use: no plane has triangles on both sides
			float rightArea[LB_BVH_BINS];
			int rightCount[LB_BVH_BINS];
			lbBinAcc acc;
			lbBinAccReset(&acc);
			int n = 0;
			for (unsigned r = m & ~1u; r; r &= ~(1u << lbHighestBit(r)))
			{
				const int i = lbHighestBit(r);
				n += bins[axis][i].count;
				rightArea[i] = lbBinAccGrow(&acc, &bins[axis][i]);
				rightCount[i] = n;
			}
			lbBinAccReset(&acc);
			n = 0;
			for (unsigned l = m; l & (l - 1u); l &= l - 1u)
			{
				// Bin i in use and the next one in use, j: the planes i .. j - 1 cost the same.
				const int i = lbLowestBit(l), j = lbLowestBit(l & (l - 1u));
				n += bins[axis][i].count;
				const float area = lbBinAccGrow(&acc, &bins[axis][i]);
				float cost = area * (float)n + rightArea[j] * (float)rightCount[j];
				if (cost < bestCost)
				{
					bestCost = cost;
					bestAxis = axis;
					bestBin = i;
				}
			}
		}
		// Empty again for the next split.
		for (int axis = 0; axis < 3; ++axis)
			for (unsigned r = used[axis]; r; r &= r - 1u)
				lbBinReset(&bins[axis][lbLowestBit(r)]);
	}
	if (bestAxis >= 0)
	{
		// Traversal cost 1, triangle cost 1 (Wald 2007): stay a leaf when splitting does not pay.
		float splitCost = 1.0f + (nodeArea > 0.0f ? bestCost / nodeArea : (float)count);
		if (count <= b->maxLeaf && splitCost >= (float)count)
			return 0;
		float lo = cb->min[bestAxis], hi = cb->max[bestAxis];
		float scale = (float)LB_BVH_BINS / (hi - lo);
		lbGrowAcc acc[2];
		const int end = lbPartition(prims, first, count, bestAxis, lo, scale, (float)(bestBin + 1), acc);
		int left = end - first;
		if (left > 0 && left < count)
		{
			lbGrowAccOut(&acc[0], &childBounds[0], &childCb[0]);
			lbGrowAccOut(&acc[1], &childBounds[1], &childCb[1]);
			return left;
		}
	}
	if (count <= b->maxLeaf)
		return 0;
	// Coincident centroids or too deep: split by count along the widest centroid axis.
	int axis = 0;
	float ext = -1.0f;
	for (int a = 0; a < 3; ++a)
	{
		float e = cb->max[a] - cb->min[a];
		if (e > ext)
		{
			ext = e;
			axis = a;
		}
	}
	int half = count / 2;
	// Partial sort around the median (nth element by quickselect).
	int lo = first, hi = first + count - 1, kth = first + half;
	while (lo < hi)
	{
		float pivot = lbPrimCentroid(&prims[(lo + hi) / 2], axis);
		int i = lo, j = hi;
		while (i <= j)
		{
			while (lbPrimCentroid(&prims[i], axis) < pivot)
				++i;
			while (lbPrimCentroid(&prims[j], axis) > pivot)
				--j;
			if (i <= j)
			{
				lbBuildPrim tmp = prims[i];
				prims[i] = prims[j];
				prims[j] = tmp;
				++i;
				--j;
			}
		}
		if (kth <= j)
			hi = j;
		else if (kth >= i)
			lo = i;
		else
			break;
	}
	lbRangeBounds(b, first, half, &childBounds[0], &childCb[0]);
	lbRangeBounds(b, first + half, count - half, &childBounds[1], &childCb[1]);
	return half;
}

static float lbPow2F(int e)
{
	uint32_t bits = (uint32_t)(e + 127) << 23;
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

// Nodes are in pre-order: a node's subtree is the run of lines from it to its next sibling. A cast
// descending into an internal child fetches the lines after it with it, which saves serial misses
// whenever the cast goes on into them: the whole subtree when the next internal sibling shows it is
// small (a node two levels above the bottom has at most 20 below it, and these lowest levels are
// where foot traces miss), else the first four lines (all children of a node whose children are
// bottom nodes). Alternating runs on random foot traces over 1M triangles: rays 13-18 % and sphere
// traces 7-10 % faster with four lines, about 5 % more with the small subtrees. The count is fixed by
// the tree, so it is worked out once here instead of per descent.
static void lbSetDescentPrefetch(lbBvh4Node* nodes, int nodeCount)
{
	for (int i = 0; i < nodeCount; ++i)
	{
		lbBvh4Node* n = &nodes[i];
		for (int k = 0; k < 4; ++k)
		{
			n->prefetch[k] = 0;
			if (k >= lbBvh4ChildCount(n) || n->count[k] != 0)
				continue;
			int32_t next = n->child[k];
			int lines = 4;
			for (int j = k + 1, end = lbBvh4ChildCount(n); j < end; ++j)
				if (n->count[j] == 0)
				{
					int size = n->child[j] - next - 1;
					lines = size <= LB_BVH_PREFETCH_SUBTREE ? size : 4;
					break;
				}
			int after = nodeCount - 1 - next;
			lines = lines < after ? lines : after;
			n->prefetch[k] = (uint8_t)(lines > 0 ? lines : 0);
		}
	}
}

// Builds the 4-wide node for binary internal node `binNode` (or a one-child root for a leaf root) and
// its subtree; returns its index.
static int lbCollapse(const lbBvhNode* bin, int binNode, lbBvh4Node* out, int* outCount)
{
	int index = (*outCount)++;
	int entries[4];
	int n = 0;
	if (bin[binNode].count > 0)
		entries[n++] = binNode;
	else
	{
		entries[n++] = bin[binNode].leftOrFirst;
		entries[n++] = bin[binNode].leftOrFirst + 1;
		// Open the largest internal entry until there are four.
		while (n < 4)
		{
			int best = -1;
			float bestArea = -1.0f;
			for (int k = 0; k < n; ++k)
			{
				const lbBvhNode* e = &bin[entries[k]];
				if (e->count > 0)
					continue;
				lbAabbF eb = { { e->min[0], e->min[1], e->min[2] }, { e->max[0], e->max[1], e->max[2] } };
				float a = lbAabbArea(&eb);
				if (a > bestArea)
				{
					bestArea = a;
					best = k;
				}
			}
			if (best < 0)
				break;
			int left = bin[entries[best]].leftOrFirst;
			entries[best] = left;
			entries[n++] = left + 1;
		}
	}
	lbBvh4Node node;
	memset(&node, 0, sizeof node);
	node.childMask = (uint8_t)((1u << n) - 1u);
	const lbBvhNode* p = &bin[binNode];
	for (int a = 0; a < 3; ++a)
	{
		double extent = (double)p->max[a] - (double)p->min[a];
		// Smallest power of two with 255 steps covering the extent: the exponent field of extent / 255
		// (a normal double, as frexp would give it) is within one of it.
		int e = -100;
		if (extent > 0.0)
		{
			const double x = extent / 255.0;
			uint64_t bits;
			memcpy(&bits, &x, sizeof bits);
			const int ex = (int)((bits >> 52) & 0x7ff) - 1022;
			e = ex - 1 < -100 ? -100 : (ex - 1 > 100 ? 100 : ex - 1);
		}
		while (e < 100 && 255.0 * (double)lbPow2F(e) < extent)
			++e;
		node.origin[a] = p->min[a];
		node.stepBits[a] = (uint8_t)(e + 127);
		// Dividing by the power of two 2^e is multiplying by 2^-e, exactly (no double overflows here).
		const double invStep = 1.0 / (double)lbPow2F(e);
#if defined(LB_SIMD_SSE)
		// Two children a vector, in the loop's double operations: clamping to [0, 255] then truncating
		// is its floor for qmin, and adding one where the truncation fell below is its ceiling for qmax
		// (the entries past n repeat the last child and are not stored).
		double cmin[4], cmax[4];
		for (int k = 0; k < 4; ++k)
		{
			const lbBvhNode* c = &bin[entries[k < n ? k : n - 1]];
			cmin[k] = (double)c->min[a];
			cmax[k] = (double)c->max[a];
		}
		int32_t ql[4], qh[4];
		const __m128d o = _mm_set1_pd((double)p->min[a]), inv = _mm_set1_pd(invStep);
		const __m128d zero = _mm_setzero_pd(), top = _mm_set1_pd(255.0);
		for (int h = 0; h < 4; h += 2)
		{
			const __m128d lo = _mm_mul_pd(_mm_sub_pd(_mm_loadu_pd(&cmin[h]), o), inv);
			const __m128d hi = _mm_min_pd(_mm_max_pd(_mm_mul_pd(_mm_sub_pd(_mm_loadu_pd(&cmax[h]), o), inv), zero), top);
			const __m128i l = _mm_cvttpd_epi32(_mm_min_pd(_mm_max_pd(lo, zero), top));
			__m128i u = _mm_cvttpd_epi32(hi);
			// The lanes where the truncation is below the value are all ones (-1): subtracting adds one.
			const __m128i below = _mm_castpd_si128(_mm_cmplt_pd(_mm_cvtepi32_pd(u), hi));
			u = _mm_sub_epi32(u, _mm_shuffle_epi32(below, _MM_SHUFFLE(3, 3, 2, 0)));
			ql[h] = _mm_cvtsi128_si32(l);
			ql[h + 1] = _mm_cvtsi128_si32(_mm_shuffle_epi32(l, _MM_SHUFFLE(1, 1, 1, 1)));
			qh[h] = _mm_cvtsi128_si32(u);
			qh[h + 1] = _mm_cvtsi128_si32(_mm_shuffle_epi32(u, _MM_SHUFFLE(1, 1, 1, 1)));
		}
		for (int k = 0; k < n; ++k)
		{
			node.qmin[a][k] = (uint8_t)ql[k];
			node.qmax[a][k] = (uint8_t)qh[k];
		}
#else
		for (int k = 0; k < n; ++k)
		{
			const lbBvhNode* c = &bin[entries[k]];
			const double lo = ((double)c->min[a] - (double)p->min[a]) * invStep;
			const double hi = ((double)c->max[a] - (double)p->min[a]) * invStep;
			// floor and ceil clamped to [0, 255]: inside that range truncation gives them.
			const int ql = lo < 0.0 ? 0 : (lo >= 255.0 ? 255 : (int)lo);
			const int qh = hi <= 0.0 ? 0 : (hi >= 255.0 ? 255 : (int)hi + ((double)(int)hi < hi));
			node.qmin[a][k] = (uint8_t)ql;
			node.qmax[a][k] = (uint8_t)qh;
		}
#endif
	}
	for (int k = 0; k < n; ++k)
	{
		const lbBvhNode* c = &bin[entries[k]];
		if (c->count > 0)
		{
			node.child[k] = c->leftOrFirst;
			node.count[k] = (uint8_t)c->count;
		}
		else
		{
			node.child[k] = lbCollapse(bin, entries[k], out, outCount);
			node.count[k] = 0;
		}
	}
	out[index] = node;
	return index;
}

// A subtree built apart from the top of the tree: its root task, its binary nodes from firstNode on
// (nodesUsed of them, at most 2 * root.count - 2) after the root's own, and what the build found.
typedef struct lbSubtree
{
	lbBuildTask root;
	int firstNode;
	int nodesUsed, leafCount, maxDepth;
} lbSubtree;

typedef struct lbSubtreeBatch
{
	lbBuilder* builder;
	lbSubtree* subtrees;
} lbSubtreeBatch;

// Binary nodes a subtree of `count` triangles may need below its root.
static int lbSubtreeNodes(int count)
{
	return count > 1 ? 2 * count - 2 : 0;
}

static void lbBuildSubtree(const lbBuilder* b, lbSubtree* st)
{
	// Depth-first, right child pushed first: the stack holds at most one entry per level plus one.
	lbBuildTask tasks[LB_BVH_STACK];
	int taskCount = 0, next = st->firstNode;
	lbBuilder local = *b;
	local.parallel = NULL; // subtrees are below the chunked size and already run one per thread
	lbBin bins[3][LB_BVH_BINS];
	lbBinsReset(bins);
	local.bins = bins;
	tasks[taskCount++] = st->root;
	st->leafCount = 0;
	st->maxDepth = 0;
	while (taskCount > 0)
	{
		lbBuildTask task = tasks[--taskCount];
		st->maxDepth = task.depth > st->maxDepth ? task.depth : st->maxDepth;
		lbAabbF childBounds[2], childCb[2];
		int left = task.count > 1
					   ? lbFindSplit(&local, task.node, task.first, task.count, task.depth, &task.cb, childBounds, childCb)
					   : 0;
		lbBvhNode* n = &local.nodes[task.node];
		if (left == 0)
		{
			n->leftOrFirst = task.first;
			n->count = task.count;
			++st->leafCount;
			continue;
		}
		int child = next;
		next += 2;
		// The subtree's node range (2 per triangle) and the task stack (one entry per level plus
		// one, levels bounded by the median split) are sized by the same argument as the build.
		LB_ASSERT(next - st->firstNode <= lbSubtreeNodes(st->root.count) && taskCount + 2 <= LB_BVH_STACK);
		n->leftOrFirst = child;
		n->count = 0;
		lbSetNodeBox(&local.nodes[child], &childBounds[0]);
		lbSetNodeBox(&local.nodes[child + 1], &childBounds[1]);
		tasks[taskCount++] = (lbBuildTask){ child + 1, task.first + left, task.count - left, task.depth + 1, childCb[1] };
		tasks[taskCount++] = (lbBuildTask){ child, task.first, left, task.depth + 1, childCb[0] };
	}
	st->nodesUsed = next - st->firstNode;
}

// The tree's SAH cost (traversal 1, triangle 1, relative to the root's area), summed in pre-order from
// the root: the same sum in the same order wherever the subtrees' nodes were placed.
static float lbSahCost(const lbBvhNode* nodes)
{
	lbAabbF rb = { { nodes[0].min[0], nodes[0].min[1], nodes[0].min[2] }, { nodes[0].max[0], nodes[0].max[1], nodes[0].max[2] } };
	float rootArea = lbAabbArea(&rb);
	if (!(rootArea > 0.0f))
		return 0.0f;
	double cost = 0.0;
	// Depth-first, right child pushed first: at most one entry per level plus one.
	int stack[LB_BVH_STACK];
	int top = 0;
	stack[top++] = 0;
	while (top > 0)
	{
		const lbBvhNode* n = &nodes[stack[--top]];
		lbAabbF nb = { { n->min[0], n->min[1], n->min[2] }, { n->max[0], n->max[1], n->max[2] } };
		double a = lbAabbArea(&nb) / rootArea;
		cost += n->count > 0 ? a * n->count : a;
		if (n->count == 0)
		{
			LB_ASSERT(top + 2 <= LB_BVH_STACK);
			stack[top++] = n->leftOrFirst + 1;
			stack[top++] = n->leftOrFirst;
		}
	}
	return (float)cost;
}

static void lbBuildSubtrees(int begin, int end, int worker, void* context)
{
	(void)worker;
	lbSubtreeBatch* batch = (lbSubtreeBatch*)context;
	for (int i = begin; i < end; ++i)
		lbBuildSubtree(batch->builder, &batch->subtrees[i]);
}

// The top of the tree, split a level at a time: a node's task (its node field unused), its split
// (left: triangles going left, 0 = leaf, -1 = a subtree, not split here) and its first child's index.
typedef struct lbTopNode
{
	lbBuildTask task;
	int left, child;
	lbAabbF childBounds[2], childCb[2];
} lbTopNode;

typedef struct lbTopSplits
{
	lbTopNode* nodes;
	/// The nodes' boxes, as lbFindSplit reads them.
	lbBvhNode* boxes;
	int count, cap;
} lbTopSplits;

static bool lbTopPush(lbTopSplits* top, const lbBuildTask* task, const lbAabbF* box)
{
	if (top->count == top->cap)
	{
		const int cap = top->cap ? 2 * top->cap : 64;
		lbTopNode* nodes = (lbTopNode*)lbRealloc(top->nodes, sizeof(lbTopNode) * (size_t)cap);
		if (!nodes)
			return false;
		top->nodes = nodes;
		lbBvhNode* boxes = (lbBvhNode*)lbRealloc(top->boxes, sizeof(lbBvhNode) * (size_t)cap);
		if (!boxes)
			return false;
		top->boxes = boxes;
		top->cap = cap;
	}
	lbTopNode* t = &top->nodes[top->count];
	memset(t, 0, sizeof *t);
	t->task = *task;
	t->task.node = top->count;
	lbSetNodeBox(&top->boxes[top->count], box);
	++top->count;
	return true;
}

static void lbTopFree(lbTopSplits* top)
{
	lbFree(top->nodes);
	lbFree(top->boxes);
}

// Splits top node i, unless it is small enough to be a subtree; b->nodes holds the top's boxes.
static void lbSplitTop(lbBuilder* b, lbTopSplits* top, int i)
{
	lbTopNode* t = &top->nodes[i];
	t->left = t->task.count <= LB_BVH_TASK_TRIS
				  ? -1
				  : lbFindSplit(b, i, t->task.first, t->task.count, t->task.depth, &t->task.cb, t->childBounds, t->childCb);
}

typedef struct lbTopJob
{
	const lbBuilder* builder;
	lbTopSplits* top;
	int levelBegin;
	lbBin (*workerBins)[3][LB_BVH_BINS];
	int workers;
} lbTopJob;

// Nodes of one level split side by side: each in one binning pass on its worker's bins (the split
// a chunked binning finds too).
static void lbSplitTopNodes(int begin, int end, int worker, void* context)
{
	const lbTopJob* job = (const lbTopJob*)context;
	LB_ASSERT(worker >= 0 && worker < job->workers);
	lbBuilder local = *job->builder;
	local.parallel = NULL;
	local.nodes = job->top->boxes;
	local.bins = job->workerBins[worker];
	for (int i = begin; i < end; ++i)
		lbSplitTop(&local, job->top, job->levelBegin + i);
}

lbResult lbMeshBuild(lbMesh* mesh, const lbVec3* vertices, int vertexCount, const int32_t* indices, int triangleCount,
					 int maxLeafTriangles)
{
	return lbMeshBuildParallel(mesh, vertices, vertexCount, indices, triangleCount, maxLeafTriangles, NULL, NULL, 0);
}

size_t lbGetMeshBuildWorkspaceSize(int triangleCount)
{
	// The binary tree before its collapse: two nodes a triangle bound it (each subtree reserves 2 n - 2
	// below its root, the top two per split).
	return triangleCount > 0 ? sizeof(lbBvhNode) * (2 * (size_t)triangleCount + 2) : 0;
}

// An allocation failed part way through a build: frees the top's splits (when given), the scratch
// arrays (NULL ones too) and the mesh's own arrays, and says so.
static lbResult lbBuildOutOfMemory(lbMesh* mesh, lbTopSplits* top, void* const* scratch, int count)
{
	if (top)
		lbTopFree(top);
	for (int i = 0; i < count; ++i)
		lbFree(scratch[i]);
	lbMeshFree(mesh);
	return lb_errorOutOfMemory;
}

lbResult lbMeshBuildParallel(lbMesh* mesh, const lbVec3* vertices, int vertexCount, const int32_t* indices,
							 int triangleCount, int maxLeafTriangles, const lbParallel* parallel, void* workspace,
							 size_t workspaceSize)
{
	memset(mesh, 0, sizeof *mesh);
	size_t tc = (size_t)triangleCount;
	// Every large array of the build is fresh memory, first touched here: the kernel zeroes each page
	// on its first touch, up to a third of a first one-thread build's time. On 2 MB pages that is one
	// fault in 512.
	mesh->vertices = (lbVec3*)lbBvhAlloc(sizeof(lbVec3) * (size_t)vertexCount);
	mesh->indices = (int32_t*)lbBvhAlloc(sizeof(int32_t) * 3 * tc);
	// The binary nodes are scratch: in the caller's workspace when one is given (its pages were
	// faulted in by an earlier build and are reused as they are), else allocated here and freed below.
	const bool useWorkspace = workspace && workspaceSize >= lbGetMeshBuildWorkspaceSize(triangleCount) &&
							  ((uintptr_t)workspace & (LB_MESH_BUILD_WORKSPACE_ALIGN - 1)) == 0;
	lbBvhNode* ownBin = useWorkspace ? NULL : (lbBvhNode*)lbBvhAlloc(sizeof(lbBvhNode) * (2 * tc + 2));
	lbBvhNode* bin = useWorkspace ? (lbBvhNode*)workspace : ownBin;
	// The primitives' array becomes the triangle corners at the end (9 floats a triangle, 4 bytes
	// more than a primitive), so those pages are faulted in once, not twice.
	_Static_assert(sizeof(lbBuildPrim) <= 9 * sizeof(float), "the corners must cover the primitives");
	lbBuildPrim* prims = (lbBuildPrim*)lbBvhAlloc(sizeof(float) * 9 * tc);
	int* replay = (int*)lbAlloc(sizeof(int) * 2 * (LB_BVH_STACK * 2 + 64));
	// A first guess at the subtree count (balanced splits); the list grows if the top makes more.
	int subtreeCap = (int)(2 * (tc / LB_BVH_TASK_TRIS) + 2);
	lbSubtree* subtrees = (lbSubtree*)lbAlloc(sizeof(lbSubtree) * subtreeCap);
	if (!mesh->vertices || !mesh->indices || !bin || !prims || !replay || !subtrees)
		return lbBuildOutOfMemory(mesh, NULL, (void* const[]){ subtrees, ownBin, prims, replay }, 4);
	memcpy(mesh->vertices, vertices, sizeof(lbVec3) * (size_t)vertexCount);
	mesh->vertexCount = vertexCount;
	mesh->triangleCount = triangleCount;
	// One pass makes the triangles' boxes, the root's box and centroid box, and the magnitude.
	float magnitude = 1.0f;
	lbGrowAcc rootAcc;
	lbGrowAccReset(&rootAcc);
	for (size_t t = 0; t < tc; ++t)
	{
		lbBuildPrim* p = &prims[t];
#if defined(LB_SIMD_SSE)
		// The same minima and maxima as the scalar loop (a corner replaces the box's value only when
		// strictly beyond it); the magnitude is the largest |coordinate|, max(max, -min) per axis.
		__m128 lo = _mm_set1_ps(FLT_MAX), hi = _mm_set1_ps(-FLT_MAX);
		for (int k = 0; k < 3; ++k)
		{
			const lbVec3 v = vertices[indices[3 * t + (size_t)k]];
			const __m128 c = _mm_setr_ps(v.x, v.y, v.z, 0.0f);
			lo = _mm_min_ps(c, lo);
			hi = _mm_max_ps(c, hi);
		}
		_mm_storeu_ps(p->min, lo);
		_mm_storeu_ps(p->max, hi);
		float m[4];
		_mm_storeu_ps(m, _mm_max_ps(hi, _mm_sub_ps(_mm_setzero_ps(), lo)));
		magnitude = lbMaxF(magnitude, lbMaxF(m[0], lbMaxF(m[1], m[2])));
#else
		lbAabbF box;
		lbAabbReset(&box);
		for (int k = 0; k < 3; ++k)
		{
			lbVec3 v = vertices[indices[3 * t + (size_t)k]];
			float c[3] = { v.x, v.y, v.z };
			lbAabbGrowPoint(&box, c);
			magnitude = lbMaxF(magnitude, lbMaxF(lbAbsF(v.x), lbMaxF(lbAbsF(v.y), lbAbsF(v.z))));
		}
		memcpy(p->min, box.min, sizeof p->min);
		memcpy(p->max, box.max, sizeof p->max);
#endif
		p->tri = (int32_t)t;
		p->pad = 0;
		lbGrowPrim(&rootAcc, p);
	}
	// Float boxes and the float cast origin each carry rounding of a few ulps of the magnitude.
	mesh->slop = 8.0f * FLT_EPSILON * magnitude;

	// The top of the tree is split on the calling thread down to subtrees of at most LB_BVH_TASK_TRIS
	// triangles; each subtree is then built on its own, over `parallel` when given. Which thread builds
	// a subtree changes nothing: the split of the top and every subtree's own work are the same for
	// any threads, and so is the 4-wide tree, whatever binary node indices the subtrees got.
	lbBin(*chunkBins)[3][LB_BVH_BINS] = NULL;
	if (parallel && parallel->enqueueTask && triangleCount >= LB_BVH_PAR_BIN_TRIS)
	{
		chunkBins = (lbBin(*)[3][LB_BVH_BINS])lbAlloc(sizeof(lbBin) * 3 * LB_BVH_BINS *
													  (tc / LB_BVH_BIN_CHUNK + 1));
		// Without the chunk bins every node is binned in one pass: the same tree, on one thread.
	}
	lbBin topBins[3][LB_BVH_BINS];
	lbBinsReset(topBins);
	// One set of empty bins per worker for the levels whose nodes are split side by side.
	const int workers = parallel && parallel->enqueueTask && parallel->workerCount > 1 ? parallel->workerCount : 0;
	lbBin(*workerBins)[3][LB_BVH_BINS] =
		workers ? (lbBin(*)[3][LB_BVH_BINS])lbAlloc(sizeof(lbBin) * 3 * LB_BVH_BINS * (size_t)workers) : NULL;
	for (int w = 0; w < (workerBins ? workers : 0); ++w)
		lbBinsReset(workerBins[w]);
	lbBuilder b = { prims, bin, 1, maxLeafTriangles, chunkBins ? parallel : NULL, chunkBins, topBins };
	int leafCount = 0, maxDepth = 0, subtreeCount = 0;
	lbAabbF rootBounds, rootCb;
	lbGrowAccOut(&rootAcc, &rootBounds, &rootCb);
	lbSetNodeBox(&bin[0], &rootBounds);
	// The top is split a level at a time, the nodes of a level side by side over `parallel` (each
	// split reads and reorders only its own triangles), into a list of its own; a depth-first walk of
	// that list then numbers the nodes and the subtrees' node ranges as a depth-first build would.
	lbTopSplits top = { 0 };
	if (!lbTopPush(&top, &(lbBuildTask){ 0, 0, triangleCount, 0, rootCb }, &rootBounds))
		return lbBuildOutOfMemory(mesh, &top, (void* const[]){ workerBins, chunkBins, subtrees, ownBin, prims, replay }, 6);
	for (int levelBegin = 0, levelEnd = 1; levelBegin < levelEnd; levelBegin = levelEnd, levelEnd = top.count)
	{
		lbTopJob job = { &b, &top, levelBegin, workerBins, workers };
		if (workerBins && levelEnd - levelBegin > 1)
			lbParallelFor(parallel, lbSplitTopNodes, levelEnd - levelBegin, 1, &job);
		else
		{
			// One node (the root, or a lone large node): its bins are chunked over `parallel` instead.
			b.nodes = top.boxes;
			for (int i = levelBegin; i < levelEnd; ++i)
				lbSplitTop(&b, &top, i);
			b.nodes = bin;
		}
		for (int i = levelBegin; i < levelEnd; ++i)
		{
			if (top.nodes[i].left <= 0)
				continue;
			const lbTopNode t = top.nodes[i];
			top.nodes[i].child = top.count;
			const lbBuildTask l = { 0, t.task.first, t.left, t.task.depth + 1, t.childCb[0] };
			const lbBuildTask r = { 0, t.task.first + t.left, t.task.count - t.left, t.task.depth + 1, t.childCb[1] };
			if (!lbTopPush(&top, &l, &t.childBounds[0]) || !lbTopPush(&top, &r, &t.childBounds[1]))
				return lbBuildOutOfMemory(mesh, &top,
										  (void* const[]){ workerBins, chunkBins, subtrees, ownBin, prims, replay }, 6);
		}
	}
	lbFree(workerBins);
	// Depth-first, right child pushed first: entries are (top index, node index).
	int replayCount = 0;
	replay[replayCount++] = 0;
	replay[replayCount++] = 0;
	while (replayCount > 0)
	{
		const int node = replay[--replayCount], ti = replay[--replayCount];
		const lbTopNode* t = &top.nodes[ti];
		lbBuildTask task = t->task;
		task.node = node;
		if (task.count <= LB_BVH_TASK_TRIS)
		{
			if (subtreeCount == subtreeCap)
			{
				lbSubtree* grown = (lbSubtree*)lbAlloc(sizeof(lbSubtree) * (size_t)subtreeCap * 2);
				if (!grown)
					return lbBuildOutOfMemory(mesh, &top, (void* const[]){ subtrees, ownBin, prims, replay, chunkBins }, 5);
				memcpy(grown, subtrees, sizeof(lbSubtree) * (size_t)subtreeCount);
				lbFree(subtrees);
				subtrees = grown;
				subtreeCap *= 2;
			}
			subtrees[subtreeCount++] = (lbSubtree){ task, 0, 0, 0, 0 };
			continue;
		}
		maxDepth = task.depth > maxDepth ? task.depth : maxDepth;
		lbBvhNode* n = &b.nodes[task.node];
		if (t->left == 0)
		{
			n->leftOrFirst = task.first;
			n->count = task.count;
			++leafCount;
			continue;
		}
		int child = b.nodeCount;
		b.nodeCount += 2;
		LB_ASSERT((size_t)b.nodeCount <= 2 * tc + 2 && replayCount + 4 <= 2 * (LB_BVH_STACK * 2 + 64));
		n->leftOrFirst = child;
		n->count = 0;
		lbSetNodeBox(&b.nodes[child], &t->childBounds[0]);
		lbSetNodeBox(&b.nodes[child + 1], &t->childBounds[1]);
		replay[replayCount++] = t->child + 1;
		replay[replayCount++] = child + 1;
		replay[replayCount++] = t->child;
		replay[replayCount++] = child;
	}
	lbTopFree(&top);
	// On threads, each subtree gets a fixed range of binary nodes (2 per triangle at most), given in
	// order before any is built; the nodes it does not need stay unwritten. On the calling thread, each
	// starts where the one before ended: the binary nodes are packed, about half as many pages (the
	// tree has one leaf per two triangles on a terrain), and the 4-wide tree made from them is the same.
	if (parallel && parallel->enqueueTask)
	{
		for (int i = 0; i < subtreeCount; ++i)
		{
			subtrees[i].firstNode = b.nodeCount;
			b.nodeCount += lbSubtreeNodes(subtrees[i].root.count);
		}
		lbSubtreeBatch batch = { &b, subtrees };
		lbParallelFor(parallel, lbBuildSubtrees, subtreeCount, 1, &batch);
	}
	else
		for (int i = 0; i < subtreeCount; ++i)
		{
			subtrees[i].firstNode = b.nodeCount;
			lbBuildSubtree(&b, &subtrees[i]);
			b.nodeCount += subtrees[i].nodesUsed;
		}
	for (int i = 0; i < subtreeCount; ++i)
	{
		const lbSubtree* st = &subtrees[i];
		leafCount += st->leafCount;
		maxDepth = st->maxDepth > maxDepth ? st->maxDepth : maxDepth;
	}
	// Indices and corners in leaf order, in one pass, the corners written over the primitives from the
	// last triangle back: triangle t's corners start at byte 36 t, at or beyond the end of every
	// primitive still to be read (before 32 t), and its own primitive is read before they are written.
	mesh->corners = (float*)prims;
	for (size_t t = tc; t-- > 0;)
	{
		const int32_t* src = &indices[3 * (size_t)prims[t].tri];
		float c[9];
		for (int k = 0; k < 3; ++k)
		{
			const int32_t v = src[k];
			mesh->indices[3 * t + (size_t)k] = v;
			c[3 * k + 0] = vertices[v].x;
			c[3 * k + 1] = vertices[v].y;
			c[3 * k + 2] = vertices[v].z;
		}
		memcpy(&mesh->corners[9 * t], c, sizeof c);
	}
	mesh->leafCount = leafCount;
	mesh->maxDepth = maxDepth;
	mesh->sahCost = lbSahCost(bin);
	lbFree(subtrees);
	for (int k = 0; k < 3; ++k)
	{
		mesh->boundsMin[k] = bin[0].min[k];
		mesh->boundsMax[k] = bin[0].max[k];
	}
	lbFree(replay);
	lbFree(chunkBins);

	// Each 4-wide node but a leaf root's is made from its own binary internal node, and a binary tree
	// has one internal node fewer than leaves, so that bounds the count. The nodes are written in
	// place, front to back: the pages of the unused tail are never touched, so never backed by memory.
	size_t cap = leafCount > 1 ? (size_t)leafCount - 1 : 1;
	mesh->nodes = (lbBvh4Node*)lbBvhAlloc(sizeof(lbBvh4Node) * cap);
	if (!mesh->nodes)
	{
		lbFree(ownBin);
		lbMeshFree(mesh);
		return lb_errorOutOfMemory;
	}
	mesh->nodeCount = 0;
	lbCollapse(bin, 0, mesh->nodes, &mesh->nodeCount);
	LB_ASSERT((size_t)mesh->nodeCount <= cap);
	lbFree(ownBin);
	lbSetDescentPrefetch(mesh->nodes, mesh->nodeCount);
	if (!lbMeshBuildGrid(mesh, LB_BVH_TRIS_PER_CELL))
	{
		lbMeshFree(mesh);
		return lb_errorOutOfMemory;
	}
	return lb_ok;
}

void lbMeshFree(lbMesh* mesh)
{
	lbFree(mesh->vertices);
	lbFree(mesh->indices);
	lbFree(mesh->corners);
	lbFree(mesh->nodes);
	lbFree(mesh->grid.start);
	memset(mesh, 0, sizeof *mesh);
}

size_t lbMeshBvhBytes(const lbMesh* mesh)
{
	return sizeof(lbBvh4Node) * (size_t)mesh->nodeCount + sizeof(float) * 9 * (size_t)mesh->triangleCount +
		   sizeof(int32_t) * mesh->grid.entryCount;
}

// Cell of coordinate x along one grid axis, clamped to [0, n). Monotonic in x (float subtraction,
// multiplication by a positive constant, truncation and clamping all are), so when a leaf's interval
// and a cast's footprint overlap, so do their cell ranges: the grid never loses a leaf to rounding.
static inline int lbGridCellLast(float x, float min, float inv, int n, float last)
{
	float q = (x - min) * inv;
	return q < 1.0f ? 0 : (q >= last ? n - 1 : (int)q);
}

static inline int lbGridCell(float x, float min, float inv, int n)
{
	return lbGridCellLast(x, min, inv, n, (float)(n - 1));
}

// Lowest common ancestor of 4-wide nodes a and b (-1 = none, the identity). The nodes are numbered
// in pre-order, so node x's subtree is the index range [x, end[x]): the answer is the first of a and
// its ancestors whose range holds b, one walk up from a (not two walks to a common depth, then up
// together).
static int32_t lbNodeLca(const int32_t* parent, const int32_t* end, int32_t a, int32_t b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	while (b < a || b >= end[a])
		a = parent[a];
	return a;
}

// Component a of v, by address (x, y, z are consecutive doubles): no branch on the axis.
static inline const double* lbDAxisPtr(const lbDVec3* v, int a)
{
	_Static_assert(offsetof(lbDVec3, y) == sizeof(double) && offsetof(lbDVec3, z) == 2 * sizeof(double),
				   "lbDVec3 layout");
	return (const double*)(const void*)((const char*)v + sizeof(double) * (size_t)a);
}

// Lowest common ancestor of the entries of level `level`'s cells (i0..i0+1, j0..j0+1) that lie in
// the grid (-1 when none holds a node).
static int32_t lbGridBlockLca(const lbMeshGrid* g, const int32_t* own, const int32_t* parent, const int32_t* end,
							  int level, int i0, int j0)
{
	int32_t v = -1;
	for (int dj = 0; dj < 2; ++dj)
		for (int di = 0; di < 2; ++di)
		{
			int i = i0 + di, j = j0 + dj;
			if (i < g->dim[level][0] && j < g->dim[level][1])
				v = lbNodeLca(parent, end, v, own[g->offset[level] + j * g->dim[level][0] + i]);
		}
	return v;
}

bool lbMeshBuildGrid(lbMesh* mesh, int trianglesPerCell)
{
	lbMeshGrid* g = &mesh->grid;
	lbFree(g->start);
	memset(g, 0, sizeof *g);
	if (mesh->nodeCount <= 1)
		return true;
	// u, v = the two widest axes of the bounds; the third (the terrain's up, a wall's normal) is
	// projected away.
	float ext[3];
	for (int a = 0; a < 3; ++a)
		ext[a] = mesh->boundsMax[a] - mesh->boundsMin[a];
	int drop = ext[0] <= ext[1] && ext[0] <= ext[2] ? 0 : (ext[1] <= ext[2] ? 1 : 2);
	g->axis[0] = drop == 0 ? 1 : 0;
	g->axis[1] = drop == 2 ? 1 : 2;
	if (ext[g->axis[1]] > ext[g->axis[0]])
	{
		int t = g->axis[0];
		g->axis[0] = g->axis[1];
		g->axis[1] = t;
	}
	double eu = ext[g->axis[0]], ev = ext[g->axis[1]];
	double cells = (double)mesh->triangleCount / (double)(trianglesPerCell > 0 ? trianglesPerCell : 1);
	cells = cells < 1.0 ? 1.0 : cells;
	int n[2] = { 1, 1 };
	if (eu > 0.0 && ev > eu * 1e-3)
	{
		n[0] = (int)lround(sqrt(cells * eu / ev));
		n[0] = n[0] < 1 ? 1 : (n[0] > 4096 ? 4096 : n[0]);
		n[1] = (int)lround(cells / (double)n[0]);
		n[1] = n[1] < 1 ? 1 : (n[1] > 4096 ? 4096 : n[1]);
	}
	else if (eu > 0.0)
		n[0] = cells > 4096.0 ? 4096 : (int)cells;
	for (int a = 0; a < 2; ++a)
	{
		g->min[a] = mesh->boundsMin[g->axis[a]];
		double e = a == 0 ? eu : ev;
		g->invCell[a] = n[a] > 1 ? (float)((double)n[a] / e) : 0.0f;
		g->lastCell[a] = (float)(n[a] - 1);
	}
	size_t entries = 0;
	for (int k = 0; k < LB_MESH_GRID_LEVELS; ++k)
	{
		g->dim[k][0] = ((n[0] - 1) >> k) + 1;
		g->dim[k][1] = ((n[1] - 1) >> k) + 1;
		g->offset[k] = (int)entries;
		entries += (size_t)g->dim[k][0] * (size_t)g->dim[k][1];
		g->levels = k + 1;
		// A footprint spans at most two cells per axis at a level two cells wide, so the search ends.
		if (g->dim[k][0] <= 2 && g->dim[k][1] <= 2)
			break;
	}
	// The single level-0 cells follow the levels in the same allocation, three entries each.
	const size_t blockEntries = entries, cellEntries = (size_t)g->dim[0][0] * (size_t)g->dim[0][1];
	entries += 3 * cellEntries;
	int32_t* parent = (int32_t*)lbAlloc(sizeof(int32_t) * (size_t)mesh->nodeCount);
	int32_t* subtreeEnd = (int32_t*)lbAlloc(sizeof(int32_t) * (size_t)mesh->nodeCount);
	int32_t* own = (int32_t*)lbAlloc(sizeof(int32_t) * blockEntries);
	g->start = (int32_t*)lbAlloc(sizeof(int32_t) * entries);
	if (!parent || !subtreeEnd || !own || !g->start)
	{
		lbFree(parent);
		lbFree(subtreeEnd);
		lbFree(own);
		lbFree(g->start);
		memset(g, 0, sizeof *g);
		return false;
	}
	g->entryCount = entries;
	g->cell = g->start + blockEntries;
	for (size_t i = 0; i < cellEntries; ++i)
	{
		g->cell[3 * i + 1] = INT32_MAX;
		g->cell[3 * i + 2] = 0;
	}
	// Children follow their parent in the node array (pre-order), so one backward pass sets each
	// node's parent and the end of its subtree's range, its children's ends being set before it.
	parent[0] = 0;
	for (int i = mesh->nodeCount - 1; i >= 0; --i)
	{
		const lbBvh4Node* nd = &mesh->nodes[i];
		int32_t last = i + 1;
		for (int k = 0, end = lbBvh4ChildCount(nd); k < end; ++k)
			if (nd->count[k] == 0)
			{
				parent[nd->child[k]] = i;
				last = subtreeEnd[nd->child[k]] > last ? subtreeEnd[nd->child[k]] : last;
			}
		subtreeEnd[i] = last;
	}
	for (size_t i = 0; i < blockEntries; ++i)
		own[i] = -1;
	// Each leaf goes to the finest level where its box spans at most two cells per axis (at most four
	// entries, however large its triangles), as its parent node.
	for (int i = 0; i < mesh->nodeCount; ++i)
	{
		const lbBvh4Node* nd = &mesh->nodes[i];
		for (int k = 0, end = lbBvh4ChildCount(nd); k < end; ++k)
		{
			if (nd->count[k] == 0)
				continue;
			float lo[2] = { FLT_MAX, FLT_MAX }, hi[2] = { -FLT_MAX, -FLT_MAX };
#if defined(LB_SIMD_SSE)
			// The corners' box on all three axes at once, then u and v picked from it: the same
			// minima and maxima (a zero's sign aside, which no cell sees). The third corner is read
			// from the float before it (inside the triangle's corners) and shifted down a lane.
			__m128 lo4 = _mm_set1_ps(FLT_MAX), hi4 = _mm_set1_ps(-FLT_MAX);
			for (int t = nd->child[k]; t < nd->child[k] + nd->count[k]; ++t)
			{
				const float* v = &mesh->corners[9 * (size_t)t];
				const __m128 a = _mm_loadu_ps(v), b = _mm_loadu_ps(v + 3);
				const __m128 c = _mm_shuffle_ps(_mm_loadu_ps(v + 5), _mm_loadu_ps(v + 5), _MM_SHUFFLE(3, 3, 2, 1));
				lo4 = _mm_min_ps(lo4, _mm_min_ps(a, _mm_min_ps(b, c)));
				hi4 = _mm_max_ps(hi4, _mm_max_ps(a, _mm_max_ps(b, c)));
			}
			float l4[4], h4[4];
			_mm_storeu_ps(l4, lo4);
			_mm_storeu_ps(h4, hi4);
			for (int a = 0; a < 2; ++a)
			{
				lo[a] = l4[g->axis[a]];
				hi[a] = h4[g->axis[a]];
			}
#else
			for (int t = nd->child[k]; t < nd->child[k] + nd->count[k]; ++t)
				for (int c = 0; c < 3; ++c)
					for (int a = 0; a < 2; ++a)
					{
						float x = mesh->corners[9 * (size_t)t + 3 * (size_t)c + (size_t)g->axis[a]];
						lo[a] = x < lo[a] ? x : lo[a];
						hi[a] = x > hi[a] ? x : hi[a];
					}
#endif
			int c0[2], c1[2];
			for (int a = 0; a < 2; ++a)
			{
				c0[a] = lbGridCell(lo[a], g->min[a], g->invCell[a], n[a]);
				c1[a] = lbGridCell(hi[a], g->min[a], g->invCell[a], n[a]);
			}
			// The leaf's triangles join the corner range of the cell holding its box's centre.
			int32_t* cell = &g->cell[3 * ((size_t)lbGridCell(0.5f * (lo[1] + hi[1]), g->min[1], g->invCell[1], n[1]) * (size_t)n[0] +
										(size_t)lbGridCell(0.5f * (lo[0] + hi[0]), g->min[0], g->invCell[0], n[0]))];
			cell[1] = nd->child[k] < cell[1] ? nd->child[k] : cell[1];
			cell[2] = nd->child[k] + nd->count[k] > cell[2] ? nd->child[k] + nd->count[k] : cell[2];
			int lv = 0;
			while ((c1[0] >> lv) - (c0[0] >> lv) > 1 || (c1[1] >> lv) - (c0[1] >> lv) > 1)
				++lv;
			for (int J = c0[1] >> lv; J <= c1[1] >> lv; ++J)
				for (int I = c0[0] >> lv; I <= c1[0] >> lv; ++I)
				{
					int32_t* e = &own[g->offset[lv] + J * g->dim[lv][0] + I];
					*e = lbNodeLca(parent, subtreeEnd, *e, i);
				}
		}
	}
	// Down: a leaf placed at a coarse level belongs to every finer cell below it. Up: a coarse cell is
	// the common ancestor of its four finer cells. Then each entry covers a 2 x 2 block of cells.
	for (int k = g->levels - 2; k >= 0; --k)
		for (int J = 0; J < g->dim[k][1]; ++J)
			for (int I = 0; I < g->dim[k][0]; ++I)
			{
				int32_t* e = &own[g->offset[k] + J * g->dim[k][0] + I];
				*e = lbNodeLca(parent, subtreeEnd, *e, own[g->offset[k + 1] + (J >> 1) * g->dim[k + 1][0] + (I >> 1)]);
			}
	for (size_t i = 0; i < cellEntries; ++i)
	{
		g->cell[3 * i] = own[i];
		if (g->cell[3 * i + 1] == INT32_MAX)
			g->cell[3 * i + 1] = 0;
	}
	for (int k = 1; k < g->levels; ++k)
		for (int J = 0; J < g->dim[k][1]; ++J)
			for (int I = 0; I < g->dim[k][0]; ++I)
				own[g->offset[k] + J * g->dim[k][0] + I] = lbGridBlockLca(g, own, parent, subtreeEnd, k - 1, 2 * I, 2 * J);
	for (int k = 0; k < g->levels; ++k)
		for (int J = 0; J < g->dim[k][1]; ++J)
			for (int I = 0; I < g->dim[k][0]; ++I)
				g->start[g->offset[k] + J * g->dim[k][0] + I] = lbGridBlockLca(g, own, parent, subtreeEnd, k, I, J);
	lbFree(parent);
	lbFree(subtreeEnd);
	lbFree(own);
	return true;
}

// Prefetches the corners of triangles [first, end) of a single cell's range: the first and last
// LB_BVH_CELL_PREFETCH / 2 lines, where the leaves of a range split across the tree begin and end. A
// short range's lines run on past its ends (into the neighbouring leaves, often the cell's
// neighbours): clamping them (a selection) made GCC drop the prefetches, as it drops a loop that
// only prefetches, so the code is straight-line and unclamped.
static inline void lbPrefetchCellCorners(const lbMesh* mesh, int32_t first, int32_t end)
{
#if defined(__GNUC__) || defined(__clang__)
	if (end <= first)
		return;
	// Addresses as integers: a prefetch never faults, and no pointer is formed outside the array.
	const uintptr_t lo = (uintptr_t)&mesh->corners[9 * (size_t)first] & ~(uintptr_t)63;
	const uintptr_t hi = ((uintptr_t)&mesh->corners[9 * (size_t)end] - 1) & ~(uintptr_t)63;
	for (uintptr_t j = 0; j < LB_BVH_CELL_PREFETCH / 2; ++j)
	{
		__builtin_prefetch((const void*)(lo + 64 * j));
		__builtin_prefetch((const void*)(hi - 64 * j));
	}
#else
	(void)mesh;
	(void)first;
	(void)end;
#endif
}

// `corners`: a start from a single cell also prefetches its leaves' corners. `single` (NULL: not
// asked) is set to whether the start is a single cell's.
static inline int32_t lbMeshStartNodeInline(const lbMesh* mesh, const lbCastState* st, float grow, bool corners,
											 bool* single)
{
	const lbMeshGrid* g = &mesh->grid;
	if (!g->start)
		return 0;
	// The footprint: the segment's box grown by radius + slop, on u and v. Computed in double and
	// rounded once; the slop in `grow` (a few ulps of the mesh's magnitude) covers that rounding
	// wherever the footprint's edge is near the mesh.
	int c0[2], c1[2];
#if defined(LB_SIMD_SSE)
	// u and v side by side, the same double operations per lane as the loop below (minpd and maxpd
	// pick exactly what the comparisons there pick), then the four cell coordinates in one float
	// vector. Clamping to [0, last] before truncating gives lbGridCellLast's cells: below 1 truncates
	// to 0, at or above last gives last = n - 1 exactly, and in between truncation is untouched.
	double su = *lbDAxisPtr(&st->cast.s, g->axis[0]), sv = *lbDAxisPtr(&st->cast.s, g->axis[1]);
	double du = *lbDAxisPtr(&st->cast.d, g->axis[0]), dv = *lbDAxisPtr(&st->cast.d, g->axis[1]);
	__m128d s2 = _mm_set_pd(sv, su);
	__m128d e2 = _mm_add_pd(s2, _mm_mul_pd(_mm_set1_pd(st->cast.len), _mm_set_pd(dv, du)));
	__m128d g2 = _mm_set1_pd((double)grow);
	__m128 lo = _mm_cvtpd_ps(_mm_sub_pd(_mm_min_pd(s2, e2), g2)), hi = _mm_cvtpd_ps(_mm_add_pd(_mm_max_pd(e2, s2), g2));
	__m128 q = _mm_mul_ps(_mm_sub_ps(_mm_movelh_ps(lo, hi), _mm_set_ps(g->min[1], g->min[0], g->min[1], g->min[0])),
						  _mm_set_ps(g->invCell[1], g->invCell[0], g->invCell[1], g->invCell[0]));
	q = _mm_min_ps(_mm_max_ps(q, _mm_setzero_ps()),
				   _mm_set_ps(g->lastCell[1], g->lastCell[0], g->lastCell[1], g->lastCell[0]));
	int32_t cells[4];
	_mm_storeu_si128((__m128i*)(void*)cells, _mm_cvttps_epi32(q));
	c0[0] = cells[0];
	c0[1] = cells[1];
	c1[0] = cells[2];
	c1[1] = cells[3];
#else
	for (int a = 0; a < 2; ++a)
	{
		int ax = g->axis[a];
		double s = *lbDAxisPtr(&st->cast.s, ax), e = s + st->cast.len * *lbDAxisPtr(&st->cast.d, ax);
		float lo = (float)((s < e ? s : e) - (double)grow), hi = (float)((s < e ? e : s) + (double)grow);
		int n = g->dim[0][a];
		c0[a] = lbGridCellLast(lo, g->min[a], g->invCell[a], n, g->lastCell[a]);
		c1[a] = lbGridCellLast(hi, g->min[a], g->invCell[a], n, g->lastCell[a]);
	}
#endif
	// A footprint inside one level-0 cell (a foot's probe, a small sphere's cast away from the cell's
	// border) starts below the cell's own leaves alone, about one 4-wide level deeper than its 2 x 2
	// block's node.
	// Its leaves' corners are prefetched with it: the cast then finds the triangles it tests in cache
	// instead of waiting for them after its last node, most of a probe's time.
	if (c0[0] == c1[0] && c0[1] == c1[1])
	{
		const int32_t* cell = &g->cell[3 * ((size_t)c0[1] * (size_t)g->dim[0][0] + (size_t)c0[0])];
		if (corners)
			lbPrefetchCellCorners(mesh, cell[1], cell[2]);
		if (single)
			*single = true;
		return cell[0];
	}
	if (single)
		*single = false;
	int k = 0;
	while ((c1[0] >> k) - (c0[0] >> k) > 1 || (c1[1] >> k) - (c0[1] >> k) > 1)
		++k;
	return g->start[g->offset[k] + (c0[1] >> k) * g->dim[k][0] + (c0[0] >> k)];
}

int32_t lbMeshStartNode(const lbMesh* mesh, const lbCastState* st, float grow)
{
	return lbMeshStartNodeInline(mesh, st, grow, false, NULL);
}

// Per-cast constants of the child slab test: with og = origin - grow and og2 = origin + grow, a child's
// lower plane on axis a is entered at (nodeOrigin - og) * inv + qmin * step * inv, its upper plane at
// (nodeOrigin - og2) * inv + qmax * step * inv (grow = radius plus rounding slop, so the test is
// conservative for a sphere).
typedef struct lbSlabCast
{
	float og[4], og2[4], inv[4];
	/// The far end of the tested interval (m) in all four lanes: set by lbSetSlabMax whenever it moves
	/// (after a leaf), not broadcast again for every node.
	float tMax[4];
} lbSlabCast;

static inline void lbSetSlabMax(lbSlabCast* c, float tMax)
{
	c->tMax[0] = c->tMax[1] = c->tMax[2] = c->tMax[3] = tMax;
}

_Static_assert(offsetof(lbCastState, invDir) == offsetof(lbCastState, origin) + 3 * sizeof(float) &&
				   offsetof(lbCastState, radius) == offsetof(lbCastState, invDir) + 3 * sizeof(float),
			   "lbCastState: origin, invDir and radius follow each other");
static inline void lbMakeSlabCast(const lbCastState* st, float grow, lbSlabCast* c)
{
#if defined(LB_SIMD_SSE)
	// Four-float loads: origin is followed by invDir and invDir by radius; lane 3 is cleared.
	const __m128 keep = _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1));
	__m128 o = _mm_and_ps(_mm_loadu_ps(st->origin), keep), g = _mm_and_ps(_mm_set1_ps(grow), keep);
	_mm_storeu_ps(c->og, _mm_add_ps(o, g));
	_mm_storeu_ps(c->og2, _mm_sub_ps(o, g));
	_mm_storeu_ps(c->inv, _mm_and_ps(_mm_loadu_ps(st->invDir), keep));
#else
	for (int a = 0; a < 3; ++a)
	{
		c->og[a] = st->origin[a] + grow;
		c->og2[a] = st->origin[a] - grow;
		c->inv[a] = st->invDir[a];
	}
	c->og[3] = c->og2[3] = c->inv[3] = 0.0f;
#endif
}

// Slab test of the node's child boxes against the cast, clipped to [0, c->tMax]. Returns the bit mask
// of children entered (bit k = child k) and their entry times in tn. SSE2 handles the four children
// in one go (LIMBER_SIMD sse2 or avx2); the scalar loop is the same computation.
static inline int lbChildSlabs(const lbBvh4Node* n, const lbSlabCast* c, float* tn)
{
#if defined(LB_SIMD_SSE)
	// Origin (lane 3 masked); steps as floats 2^e, built from the stored exponent fields (lane 3, from
	// the child mask byte, is never used).
	const __m128i zero = _mm_setzero_si128();
	__m128 origin = _mm_and_ps(_mm_loadu_ps(n->origin), _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1)));
	int32_t ebytes;
	memcpy(&ebytes, n->stepBits, 4);
	__m128i e32 = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(ebytes), zero), zero);
	__m128 step = _mm_castsi128_ps(_mm_slli_epi32(e32, 23));
	__m128 inv = _mm_loadu_ps(c->inv);
	__m128 base0 = _mm_mul_ps(_mm_sub_ps(origin, _mm_loadu_ps(c->og)), inv);
	__m128 base1 = _mm_mul_ps(_mm_sub_ps(origin, _mm_loadu_ps(c->og2)), inv);
	__m128 scale = _mm_mul_ps(step, inv);
	// qmin[3][4] then qmax[3][4]: 12 bytes each, widened to one int32 lane per child and axis.
	__m128i qlo = _mm_loadu_si128((const __m128i*)(const void*)n->qmin);
	__m128i qhi = _mm_loadu_si128((const __m128i*)(const void*)n->qmax);
	__m128i lo16a = _mm_unpacklo_epi8(qlo, zero), lo16b = _mm_unpackhi_epi8(qlo, zero);
	__m128i hi16a = _mm_unpacklo_epi8(qhi, zero), hi16b = _mm_unpackhi_epi8(qhi, zero);
	__m128 lo[3] = { _mm_cvtepi32_ps(_mm_unpacklo_epi16(lo16a, zero)), _mm_cvtepi32_ps(_mm_unpackhi_epi16(lo16a, zero)),
					 _mm_cvtepi32_ps(_mm_unpacklo_epi16(lo16b, zero)) };
	__m128 hi[3] = { _mm_cvtepi32_ps(_mm_unpacklo_epi16(hi16a, zero)), _mm_cvtepi32_ps(_mm_unpackhi_epi16(hi16a, zero)),
					 _mm_cvtepi32_ps(_mm_unpacklo_epi16(hi16b, zero)) };
	__m128 vn = _mm_setzero_ps(), vf = _mm_loadu_ps(c->tMax);
	// Lane broadcasts through the integer shuffle: it has a separate destination, where the float
	// shuffle overwrites its source and costs a register copy per broadcast (plain SSE2, no AVX).
#define LB_SLAB_BCAST(V, A) _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(V), _MM_SHUFFLE(A, A, A, A)))
#define LB_SLAB_AXIS(A)                                                                       \
	{                                                                                         \
		__m128 s = LB_SLAB_BCAST(scale, A);                                                   \
		__m128 t1 = _mm_add_ps(LB_SLAB_BCAST(base0, A), _mm_mul_ps(lo[A], s));                \
		__m128 t2 = _mm_add_ps(LB_SLAB_BCAST(base1, A), _mm_mul_ps(hi[A], s));                \
		vn = _mm_max_ps(vn, _mm_min_ps(t1, t2));                                              \
		vf = _mm_min_ps(vf, _mm_max_ps(t1, t2));                                              \
	}
	LB_SLAB_AXIS(0)
	LB_SLAB_AXIS(1)
	LB_SLAB_AXIS(2)
#undef LB_SLAB_AXIS
#undef LB_SLAB_BCAST
	_mm_storeu_ps(tn, vn);
	return _mm_movemask_ps(_mm_cmple_ps(vn, vf)) & n->childMask;
#else
	float tf[4];
	for (int k = 0; k < 4; ++k)
	{
		tn[k] = 0.0f;
		tf[k] = c->tMax[0];
	}
	for (int a = 0; a < 3; ++a)
	{
		float inv = c->inv[a];
		float scale = lbPow2F((int)n->stepBits[a] - 127) * inv;
		float base0 = (n->origin[a] - c->og[a]) * inv, base1 = (n->origin[a] - c->og2[a]) * inv;
		for (int k = 0; k < 4; ++k)
		{
			float t1 = base0 + (float)n->qmin[a][k] * scale, t2 = base1 + (float)n->qmax[a][k] * scale;
			tn[k] = lbMaxF(tn[k], lbMinF(t1, t2));
			tf[k] = lbMinF(tf[k], lbMaxF(t1, t2));
		}
	}
	int mask = 0;
	for (int k = 0; k < 4; ++k)
		mask |= (tn[k] <= tf[k]) << k;
	return mask & n->childMask;
#endif
}

// Triangles whose face stage left only an edge or vertex contact possible, by leaf-order index: their
// corners are re-read from the corner array (still in cache) when the edge stage runs, so deferring
// one costs two stores, not a copy of three double vectors.
typedef struct lbMeshDeferred
{
	double lowerBound[LB_DEFERRED_MAX];
	int32_t prim[LB_DEFERRED_MAX];
	int count;
} lbMeshDeferred;

// The nearest hit so far as a certificate for skipping an edge stage. At the hit the sphere touches
// point P with normal N (from P to the centre), and before it the centre stays on N's side of the
// tangent plane H at height r + tau * alpha (tau = bestT - t, alpha = -d . N >= 0 for a first contact),
// while its foot on H moves at beta = |d - (d . N) N| per meter. A triangle on or behind H whose
// projection on H stays at least D from P is then at distance at least sqrt(r^2 + D^2) from every
// earlier centre when beta D <= alpha r, and at least r beta + D alpha otherwise (the nearest point of
// the line tau -> (r + tau alpha, D - tau beta) to the origin): when that exceeds r by `slack`, the
// edge stage cannot find a contact before bestT and is skipped. Skipping an empty edge stage leaves
// the deferred list, bestT and every recorded contact as they were, so results stay identical. eps
// and slack are many times the rounding of these double computations and of the edge stage itself.
typedef struct lbHitPlane
{
	/// P, and the frame (u, v in H, n = N): corners are compared in it.
	lbDVec3 p, u, v, n;
	double alpha, beta, rIn, eps, slack;
	/// bestT the plane was made for (negative: not made yet).
	double t;
	bool valid;
} lbHitPlane;

static void lbMakeHitPlane(const lbMesh* mesh, const lbCastState* st, lbHitPlane* h)
{
	if (h->t < 0.0)
	{
		// Tolerances: once per flush, from the magnitudes of the cast and of the mesh's coordinates.
		double sx = fabs(st->cast.s.x), sy = fabs(st->cast.s.y), sz = fabs(st->cast.s.z);
		double sMax = sx > sy ? (sx > sz ? sx : sz) : (sy > sz ? sy : sz);
		double scale = 1.0 + sMax + st->cast.len + st->cast.r + (double)mesh->slop / (8.0 * (double)FLT_EPSILON);
		// The slack also covers the edge stage's own error for a cast nearly parallel to an edge, where
		// the capsule's entry time and axial position carry about 1e-6 r.
		h->eps = 1e-9 * scale;
		h->slack = 1e-6 + 1e-5 * st->cast.r + 1e-9 * scale;
		h->rIn = st->cast.r - h->eps;
	}
	h->valid = false;
	h->t = st->bestT;
	if (!st->hasHit || st->inside || !(h->rIn > 0.0))
		return;
	lbDVec3 n = st->hit.n;
	h->alpha = -lbDDot(st->cast.d, n);
	if (!(h->alpha > 1e-6))
		return;
	h->p = st->hit.p;
	h->n = n;
	lbDVec3 dPar = lbDMulAdd(st->cast.d, h->alpha, n);
	h->beta = lbDLen(dPar) * (1.0 + 1e-12) + 1e-15;
	// u: n crossed with the world axis least aligned with it; v = n x u.
	double ax = fabs(n.x), ay = fabs(n.y), az = fabs(n.z);
	lbDVec3 u = ax <= ay && ax <= az ? lbD3(0.0, n.z, -n.y) : (ay <= az ? lbD3(-n.z, 0.0, n.x) : lbD3(n.y, -n.x, 0.0));
	h->u = lbDScale(u, 1.0 / lbDLen(u));
	h->v = lbDCross(n, h->u);
	h->valid = true;
}

// True when the triangle at `v` (9 floats) provably has no edge or vertex contact before bestT.
static inline bool lbBehindHitPlane(const lbHitPlane* h, double r, const float* v)
{
	// Corners relative to P in the frame (u, v, n): in-plane x, y and height z.
	double x[3], y[3];
	for (int i = 0; i < 3; ++i)
	{
		lbDVec3 q = lbD3((double)v[3 * i] - h->p.x, (double)v[3 * i + 1] - h->p.y, (double)v[3 * i + 2] - h->p.z);
		if (lbDDot(q, h->n) > h->eps)
			return false;
		x[i] = lbDDot(q, h->u);
		y[i] = lbDDot(q, h->v);
	}
	// D: the largest distance by which P (the origin) lies outside one of the projected edges.
	double area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
	if (area == 0.0)
		return false;
	double dist = 0.0;
	for (int i = 0; i < 3; ++i)
	{
		int j = i == 2 ? 0 : i + 1;
		double ex = x[j] - x[i], ey = y[j] - y[i];
		// Twice the signed area of (corner i, corner j, P): of the opposite sign to `area` when P is
		// outside edge ij.
		double s = ex * -y[i] - ey * -x[i];
		double out = area > 0.0 ? -s : s;
		if (out > 0.0)
		{
			double di = out / sqrt(ex * ex + ey * ey);
			dist = di > dist ? di : dist;
		}
	}
	if (!(dist > 0.0))
		return false;
	dist *= 1.0 - 1e-9;
	double need = r + h->slack;
	if (h->beta * dist <= h->alpha * h->rIn * (1.0 - 1e-9))
		return h->rIn * h->rIn + dist * dist > need * need;
	return h->rIn * h->beta + dist * h->alpha > need;
}

// Edge stages of the deferred triangles, nearest lower bound first, until the next lower bound is
// beyond the nearest hit; empties the list. The list is short, so a selection of the minimum each
// time beats sorting it (most flushes stop after one or two).
static void lbMeshFlushDeferred(const lbMesh* mesh, lbMeshDeferred* d, lbCastState* st, int shapeId)
{
	// Made when first needed and again whenever bestT has moved (t = -1: not made yet).
	lbHitPlane plane = { .t = -1.0, .valid = false };
	while (d->count > 0)
	{
		int best = 0;
		for (int i = 1; i < d->count; ++i)
			best = d->lowerBound[i] < d->lowerBound[best] ? i : best;
		if (d->lowerBound[best] > st->bestT)
			break;
		int prim = d->prim[best];
		--d->count;
		d->lowerBound[best] = d->lowerBound[d->count];
		d->prim[best] = d->prim[d->count];
		const float* corners = &mesh->corners[9 * (size_t)prim];
		if (plane.t != st->bestT)
			lbMakeHitPlane(mesh, st, &plane);
		if (plane.valid && lbBehindHitPlane(&plane, st->cast.r, corners))
			continue;
		lbDContact c;
		if (lbSweepSphereTriangleEdgesF(&st->cast, corners, st->bestT, &c))
			lbCastRecord(st, &c, shapeId, prim);
	}
	d->count = 0;
}

// Face stage of the leaf's sphere-cast triangles, edge stages deferred (see lbMeshLeaf).
// The face stage of triangle i (corners v): a contact is recorded, or the triangle waits in `deferred`
// for its edge stage.
static inline void lbMeshFace(const lbMesh* mesh, lbCastState* st, const float* v, int i, lbMeshDeferred* deferred,
							  int shapeId)
{
	lbDContact c;
	double low;
	lbSweepStage stage = lbSweepSphereTriangleFaceF(&st->cast, v, st->bestT, &c, &low);
	// A hit the face stage finds lies inside the face, its normal the face's plane.
	if (stage == lb_sweepDone && lbCastRecord(st, &c, shapeId, i))
		st->hitOnFace = true;
	else if (stage == lb_sweepEdges)
	{
		if (deferred->count == LB_DEFERRED_MAX)
			lbMeshFlushDeferred(mesh, deferred, st, shapeId);
		deferred->lowerBound[deferred->count] = low;
		deferred->prim[deferred->count] = i;
		++deferred->count;
	}
}

static inline void lbMeshLeafFaces(const lbMesh* mesh, lbCastState* st, int first, int count, lbMeshDeferred* deferred,
								   int shapeId)
{
	for (int i = first, end = first + count; i < end; ++i)
		lbMeshFace(mesh, st, &mesh->corners[9 * (size_t)i], i, deferred, shapeId);
}

static inline double lbMinD3(double a, double b, double c)
{
	double m = a < b ? a : b;
	return m < c ? m : c;
}

// Face stage of the leaf's triangles; edge stages wait in `deferred`.
static inline void lbMeshLeaf(const lbMesh* mesh, lbCastState* st, int first, int count, lbMeshDeferred* deferred,
							  int shapeId)
{
	if (!(st->cast.r > 0.0))
	{
		// Rays (and zero-radius sphere casts) need only the ray test; no edge stage follows.
		for (int i = first, end = first + count; i < end; ++i)
		{
			lbDContact c;
			if (lbRayTriangleF(&st->cast, &mesh->corners[9 * (size_t)i], st->bestT, &c))
				lbCastRecord(st, &c, shapeId, i);
		}
		return;
	}
	// A triangle whose corners all lie farther along d than the sphere's front at the nearest hit so far
	// (bestT + r, with a rounding slop) cannot be touched before it: every point of it is then more
	// than r from the centre up to bestT. One dot product a corner against the face stage's plane,
	// square root and divisions; a sphere coming down onto bumpy ground meets many such triangles
	// once the one under it is hit. (The start sphere's overlaps lie within r along d, never beyond.)
	// Before any hit (bestT still the cast's length) the test rarely rejects: a leaf reached then goes
	// straight to the face stage.
	if (!(st->bestT < st->cast.len))
	{
		lbMeshLeafFaces(mesh, st, first, count, deferred, shapeId);
		return;
	}
	const lbDVec3 s = st->cast.s, d = st->cast.d;
	const double slop = 1e-9 * (1.0 + fabs(s.x) + fabs(s.y) + fabs(s.z)) + st->cast.r;
	const double sd = s.x * d.x + s.y * d.y + s.z * d.z;
	for (int i = first, end = first + count; i < end; ++i)
	{
		const float* v = &mesh->corners[9 * (size_t)i];
		const double a0 = (double)v[0] * d.x + (double)v[1] * d.y + (double)v[2] * d.z;
		const double a1 = (double)v[3] * d.x + (double)v[4] * d.y + (double)v[5] * d.z;
		const double a2 = (double)v[6] * d.x + (double)v[7] * d.y + (double)v[8] * d.z;
		if (lbMinD3(a0, a1, a2) - sd > st->bestT + slop)
			continue;
		lbMeshFace(mesh, st, v, i, deferred, shapeId);
	}
}

// Prefetches nodes [first, first + count): nodes are 64-byte lines on 64-byte boundaries.
static inline void lbPrefetchNodes(const lbMesh* mesh, int32_t first, int count)
{
#if defined(__GNUC__) || defined(__clang__)
	for (int j = 0; j < count; ++j)
		__builtin_prefetch(&mesh->nodes[first + j]);
#else
	(void)mesh;
	(void)first;
	(void)count;
#endif
}

// Prefetches every line holding the corners of leaf triangles [first, first + count): one prefetch per line.
static inline void lbPrefetchLeaf(const lbMesh* mesh, int32_t first, int count)
{
#if defined(__GNUC__) || defined(__clang__)
	const char* p = (const char*)&mesh->corners[9 * (size_t)first];
	const char* last = p + 36 * (size_t)count - 1;
	for (p -= (uintptr_t)p & 63; p <= last; p += 64)
		__builtin_prefetch(p);
#else
	(void)mesh;
	(void)first;
	(void)count;
#endif
}

static inline void lbMeshPrefetch(const lbMesh* mesh, const lbBvh4Node* n, int k)
{
#if defined(__GNUC__) || defined(__clang__)
	__builtin_prefetch(n->count[k] ? (const void*)&mesh->corners[9 * (size_t)n->child[k]]
								   : (const void*)&mesh->nodes[n->child[k]]);
#else
	(void)mesh;
	(void)n;
	(void)k;
#endif
}

void lbMeshCast(const lbMesh* mesh, lbCastState* st, int shapeId)
{
	if (mesh->nodeCount == 0)
		return;
	float grow = st->radius + mesh->slop;
	// Entries wait with their entry time, so those beyond a closer hit found meanwhile are dropped.
	typedef struct lbStackEntry
	{
		int32_t child;
		int32_t count;
		float t;
	} lbStackEntry;
	lbStackEntry stack[LB_BVH_STACK];
	int top = 0;
	lbMeshDeferred deferred;
	deferred.count = 0;
	float tMax = (float)st->bestT + grow;
	int32_t node = lbMeshStartNodeInline(mesh, st, grow, true, NULL);
	if (node < 0)
		return;
	lbSlabCast slab;
	lbMakeSlabCast(st, grow, &slab);
	lbSetSlabMax(&slab, tMax);
	for (;;)
	{
		// `node` is an internal node whose box the cast enters before tMax. Slab test of its four
		// child boxes at once: each child plane is origin + q * step; with the cast's inverse direction
		// folded in, a plane's time is base + q * scale.
		const lbBvh4Node* n = &mesh->nodes[node];
		float tn[4];
		int mask = lbChildSlabs(n, &slab, tn);
		int32_t next = -1;
		int nearest = -1;
		if (mask != 0 && (mask & (mask - 1)) == 0)
			nearest = lbLowestBit((uint32_t)mask);
		else if (mask != 0)
		{
			// Several children: order by decreasing entry time; all but the nearest wait on the stack
			// (prefetched meanwhile), the nearest is taken at once.
			int hits = 0, order[4];
			float tHit[4];
			for (int rest = mask; rest != 0; rest &= rest - 1)
			{
				int k = lbLowestBit((uint32_t)rest);
				float tEnter = tn[k];
				int j = hits++;
				while (j > 0 && tHit[j - 1] < tEnter)
				{
					tHit[j] = tHit[j - 1];
					order[j] = order[j - 1];
					--j;
				}
				tHit[j] = tEnter;
				order[j] = k;
			}
			for (int j = 0; j < hits - 1; ++j)
			{
				int k = order[j];
				lbMeshPrefetch(mesh, n, k);
				LB_ASSERT(top < LB_BVH_STACK); // a 4-wide step pushes at most 3 per level
				stack[top++] = (lbStackEntry){ n->child[k], n->count[k], tHit[j] };
			}
			nearest = order[hits - 1];
		}
		if (nearest >= 0)
		{
			int k = nearest;
			if (n->count[k] == 0)
			{
				next = n->child[k];
				// The lines after the child that lbSetDescentPrefetch chose (its first descendants).
				lbPrefetchNodes(mesh, next + 1, n->prefetch[k]);
			}
			else
			{
				lbMeshLeaf(mesh, st, n->child[k], n->count[k], &deferred, shapeId);
				tMax = (float)st->bestT + grow;
				lbSetSlabMax(&slab, tMax);
			}
		}
		while (next < 0 && top > 0)
		{
			lbStackEntry e = stack[--top];
			if (e.t > tMax)
				continue;
			if (e.count == 0)
				next = e.child;
			else
			{
				lbMeshLeaf(mesh, st, e.child, e.count, &deferred, shapeId);
				tMax = (float)st->bestT + grow;
				lbSetSlabMax(&slab, tMax);
			}
		}
		if (next < 0)
			break;
		node = next;
	}
	if (deferred.count > 0)
		lbMeshFlushDeferred(mesh, &deferred, st, shapeId);
}

// Group prefetching (Chen, Ailamaki, Gibbons, Mowry, "Improving hash join performance through
// prefetching", ICDE 2004): a crowd's casts each miss the cache at every lower level of the tree, and
// one cast's misses are a dependent chain. Walking a group of casts one level per round, each round
// touching only what the previous round prefetched, turns the group's chains into overlapping
// misses; the real casts that follow then find their path in cache. The walk follows the nearest
// child the cast enters (the one the cast visits first) and prefetches, without following, the
// other children it enters; a cast starting from a single cell only LB_WALK_CELL_LEVELS levels down.
void lbMeshPrefetchCasts(const lbMesh* mesh, const lbCastState* const* casts, int count)
{
	if (mesh->nodeCount == 0 || count <= 0)
		return;
	typedef struct lbWalker
	{
		lbSlabCast slab;
		int32_t node;
		// Levels left to walk.
		int levels;
	} lbWalker;
	lbWalker walkers[LB_PREFETCH_GROUP];
	int active = 0;
	for (int i = 0; i < count && i < LB_PREFETCH_GROUP; ++i)
	{
		float grow = casts[i]->radius + mesh->slop;
		bool single = false;
		int32_t node = lbMeshStartNodeInline(mesh, casts[i], grow, false, &single);
		if (node < 0)
			continue;
		lbWalker* w = &walkers[active++];
		lbMakeSlabCast(casts[i], grow, &w->slab);
		lbSetSlabMax(&w->slab, (float)casts[i]->bestT + grow);
		w->node = node;
		w->levels = single ? LB_WALK_CELL_LEVELS : LB_BVH_STACK;
		lbPrefetchNodes(mesh, node, 1);
	}
	// A tree is at most LB_BVH_STACK levels deep; the bound only guards against a malformed tree.
	for (int round = 0; active > 0 && round < LB_BVH_STACK; ++round)
	{
		// Walkers stay in place while they go on; one that stops is replaced by the last one, which is
		// then walked in the same round (the order only changes the order of the prefetches).
		lbWalker* end = walkers + active;
		for (lbWalker* w = walkers; w < end;)
		{
			const lbBvh4Node* n = &mesh->nodes[w->node];
			float tn[4];
			int mask = lbChildSlabs(n, &w->slab, tn);
			// One pass over the entered children: prefetch each, keep the nearest (the lowest index on
			// a tie, the child the cast itself visits first). Entered children have finite entry times
			// (at most the cast's far limit), so the first one always replaces FLT_MAX.
			int nearest = -1;
			float tNearest = FLT_MAX;
			for (; mask != 0; mask &= mask - 1)
			{
				int k = lbLowestBit((uint32_t)mask);
				if (n->count[k])
					lbPrefetchLeaf(mesh, n->child[k], n->count[k]);
				else
					lbPrefetchNodes(mesh, n->child[k], 1);
				if (tn[k] < tNearest)
				{
					nearest = k;
					tNearest = tn[k];
				}
			}
			if (nearest >= 0 && n->count[nearest] == 0 && --w->levels > 0)
			{
				w->node = n->child[nearest];
				++w;
			}
			else
				*w = *--end;
		}
		active = (int)(end - walkers);
	}
}
