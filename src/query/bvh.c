// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Triangle mesh BVH: binned surface-area-heuristic build (Wald, "On fast Construction of SAH-based
// Bounding Volume Hierarchies", IEEE RT 2007), 32-byte nodes with siblings stored side by side, and
// an ordered traversal on a small fixed stack (no allocation per query). The index buffer is
// reordered so each leaf's triangles are contiguous.
#include "query/cast.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#define LB_BVH_BINS 16
// Below this depth the build uses SAH; deeper nodes split at the median, which halves the count, so
// the depth never exceeds LB_BVH_SAH_DEPTH + 32 and the traversal stack cannot overflow.
#define LB_BVH_SAH_DEPTH 48
#define LB_BVH_STACK 96

typedef struct lbAabbF
{
	float min[3], max[3];
} lbAabbF;

static void lbAabbReset(lbAabbF* b)
{
	for (int i = 0; i < 3; ++i)
	{
		b->min[i] = FLT_MAX;
		b->max[i] = -FLT_MAX;
	}
}

static void lbAabbGrowBox(lbAabbF* b, const lbAabbF* o)
{
	for (int i = 0; i < 3; ++i)
	{
		b->min[i] = o->min[i] < b->min[i] ? o->min[i] : b->min[i];
		b->max[i] = o->max[i] > b->max[i] ? o->max[i] : b->max[i];
	}
}

static void lbAabbGrowPoint(lbAabbF* b, const float* p)
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

typedef struct lbBuildTask
{
	int node, first, count, depth;
} lbBuildTask;

typedef struct lbBuilder
{
	const lbAabbF* triBounds;
	const float* centroids; // 3 per triangle
	int32_t* perm;
	lbBvhNode* nodes;
	int nodeCount;
	int maxLeaf;
} lbBuilder;

static void lbSetNodeBounds(lbBuilder* b, int node, int first, int count, lbAabbF* outCentroidBounds)
{
	lbAabbF bounds, cb;
	lbAabbReset(&bounds);
	lbAabbReset(&cb);
	for (int i = first; i < first + count; ++i)
	{
		int t = b->perm[i];
		lbAabbGrowBox(&bounds, &b->triBounds[t]);
		lbAabbGrowPoint(&cb, &b->centroids[3 * t]);
	}
	lbBvhNode* n = &b->nodes[node];
	memcpy(n->min, bounds.min, sizeof n->min);
	memcpy(n->max, bounds.max, sizeof n->max);
	*outCentroidBounds = cb;
}

typedef struct lbBin
{
	lbAabbF bounds;
	int count;
} lbBin;

// Chooses a split for perm[first, first + count). Returns the number going left (0 = make a leaf).
static int lbFindSplit(lbBuilder* b, int node, int first, int count, int depth, const lbAabbF* cb)
{
	int bestAxis = -1, bestBin = -1;
	float bestCost = FLT_MAX;
	float nodeArea = lbAabbArea(&(lbAabbF){ { b->nodes[node].min[0], b->nodes[node].min[1], b->nodes[node].min[2] },
											 { b->nodes[node].max[0], b->nodes[node].max[1], b->nodes[node].max[2] } });
	if (depth < LB_BVH_SAH_DEPTH)
	{
		for (int axis = 0; axis < 3; ++axis)
		{
			float lo = cb->min[axis], hi = cb->max[axis];
			if (!(hi > lo))
				continue;
			lbBin bins[LB_BVH_BINS];
			for (int i = 0; i < LB_BVH_BINS; ++i)
			{
				lbAabbReset(&bins[i].bounds);
				bins[i].count = 0;
			}
			float scale = (float)LB_BVH_BINS / (hi - lo);
			for (int i = first; i < first + count; ++i)
			{
				int t = b->perm[i];
				int k = (int)((b->centroids[3 * t + axis] - lo) * scale);
				k = k < 0 ? 0 : (k >= LB_BVH_BINS ? LB_BVH_BINS - 1 : k);
				++bins[k].count;
				lbAabbGrowBox(&bins[k].bounds, &b->triBounds[t]);
			}
			// Sweep from the right to get suffix areas, then from the left to evaluate each plane.
			float rightArea[LB_BVH_BINS];
			int rightCount[LB_BVH_BINS];
			lbAabbF acc;
			lbAabbReset(&acc);
			int n = 0;
			for (int i = LB_BVH_BINS - 1; i > 0; --i)
			{
				lbAabbGrowBox(&acc, &bins[i].bounds);
				n += bins[i].count;
				rightArea[i] = lbAabbArea(&acc);
				rightCount[i] = n;
			}
			lbAabbReset(&acc);
			n = 0;
			for (int i = 0; i < LB_BVH_BINS - 1; ++i)
			{
				lbAabbGrowBox(&acc, &bins[i].bounds);
				n += bins[i].count;
				if (n == 0 || rightCount[i + 1] == 0)
					continue;
				float cost = lbAabbArea(&acc) * (float)n + rightArea[i + 1] * (float)rightCount[i + 1];
				if (cost < bestCost)
				{
					bestCost = cost;
					bestAxis = axis;
					bestBin = i;
				}
			}
		}
	}
	if (bestAxis >= 0)
	{
		// Traversal cost 1, triangle cost 1 (Wald 2007): stay a leaf when splitting does not pay.
		float splitCost = 1.0f + (nodeArea > 0.0f ? bestCost / nodeArea : (float)count);
		if (count <= b->maxLeaf && splitCost >= (float)count)
			return 0;
		float lo = cb->min[bestAxis], hi = cb->max[bestAxis];
		float scale = (float)LB_BVH_BINS / (hi - lo);
		int i = first, j = first + count - 1;
		while (i <= j)
		{
			int t = b->perm[i];
			int k = (int)((b->centroids[3 * t + bestAxis] - lo) * scale);
			k = k < 0 ? 0 : (k >= LB_BVH_BINS ? LB_BVH_BINS - 1 : k);
			if (k <= bestBin)
				++i;
			else
			{
				b->perm[i] = b->perm[j];
				b->perm[j] = t;
				--j;
			}
		}
		int left = i - first;
		if (left > 0 && left < count)
			return left;
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
		float pivot = b->centroids[3 * b->perm[(lo + hi) / 2] + axis];
		int i = lo, j = hi;
		while (i <= j)
		{
			while (b->centroids[3 * b->perm[i] + axis] < pivot)
				++i;
			while (b->centroids[3 * b->perm[j] + axis] > pivot)
				--j;
			if (i <= j)
			{
				int32_t tmp = b->perm[i];
				b->perm[i] = b->perm[j];
				b->perm[j] = tmp;
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
	return half;
}

lbResult lbMeshBuild(lbMesh* mesh, const lbVec3* vertices, int vertexCount, const int32_t* indices, int triangleCount,
					 int maxLeafTriangles)
{
	memset(mesh, 0, sizeof *mesh);
	size_t tc = (size_t)triangleCount;
	mesh->vertices = (lbVec3*)malloc(sizeof(lbVec3) * (size_t)vertexCount);
	mesh->indices = (int32_t*)malloc(sizeof(int32_t) * 3 * tc);
	mesh->nodes = (lbBvhNode*)malloc(sizeof(lbBvhNode) * (2 * tc));
	lbAabbF* triBounds = (lbAabbF*)malloc(sizeof(lbAabbF) * tc);
	float* centroids = (float*)malloc(sizeof(float) * 3 * tc);
	int32_t* perm = (int32_t*)malloc(sizeof(int32_t) * tc);
	lbBuildTask* tasks = (lbBuildTask*)malloc(sizeof(lbBuildTask) * (LB_BVH_STACK * 2 + 64));
	if (!mesh->vertices || !mesh->indices || !mesh->nodes || !triBounds || !centroids || !perm || !tasks)
	{
		free(triBounds);
		free(centroids);
		free(perm);
		free(tasks);
		lbMeshFree(mesh);
		return lb_errorOutOfMemory;
	}
	memcpy(mesh->vertices, vertices, sizeof(lbVec3) * (size_t)vertexCount);
	mesh->vertexCount = vertexCount;
	mesh->triangleCount = triangleCount;
	float magnitude = 1.0f;
	for (size_t t = 0; t < tc; ++t)
	{
		lbAabbReset(&triBounds[t]);
		for (int k = 0; k < 3; ++k)
		{
			lbVec3 v = vertices[indices[3 * t + (size_t)k]];
			float p[3] = { v.x, v.y, v.z };
			lbAabbGrowPoint(&triBounds[t], p);
			magnitude = lbMaxF(magnitude, lbMaxF(lbAbsF(v.x), lbMaxF(lbAbsF(v.y), lbAbsF(v.z))));
		}
		for (int k = 0; k < 3; ++k)
			centroids[3 * t + (size_t)k] = 0.5f * (triBounds[t].min[k] + triBounds[t].max[k]);
		perm[t] = (int32_t)t;
	}
	// Float boxes and the float cast origin each carry rounding of a few ulps of the magnitude.
	mesh->slop = 8.0f * FLT_EPSILON * magnitude;

	lbBuilder b = { triBounds, centroids, perm, mesh->nodes, 1, maxLeafTriangles };
	int taskCount = 0, leafCount = 0, maxDepth = 0;
	tasks[taskCount++] = (lbBuildTask){ 0, 0, triangleCount, 0 };
	while (taskCount > 0)
	{
		lbBuildTask task = tasks[--taskCount];
		lbAabbF cb;
		lbSetNodeBounds(&b, task.node, task.first, task.count, &cb);
		maxDepth = task.depth > maxDepth ? task.depth : maxDepth;
		int left = task.count > 1 ? lbFindSplit(&b, task.node, task.first, task.count, task.depth, &cb) : 0;
		lbBvhNode* n = &b.nodes[task.node];
		if (left == 0)
		{
			n->leftOrFirst = task.first;
			n->count = task.count;
			++leafCount;
			continue;
		}
		int child = b.nodeCount;
		b.nodeCount += 2;
		n->leftOrFirst = child;
		n->count = 0;
		// Depth-first with the right child pushed first keeps the task stack at O(depth).
		tasks[taskCount++] = (lbBuildTask){ child + 1, task.first + left, task.count - left, task.depth + 1 };
		tasks[taskCount++] = (lbBuildTask){ child, task.first, left, task.depth + 1 };
	}
	for (size_t t = 0; t < tc; ++t)
	{
		const int32_t* src = &indices[3 * (size_t)perm[t]];
		mesh->indices[3 * t + 0] = src[0];
		mesh->indices[3 * t + 1] = src[1];
		mesh->indices[3 * t + 2] = src[2];
	}
	mesh->nodeCount = b.nodeCount;
	mesh->leafCount = leafCount;
	mesh->maxDepth = maxDepth;
	lbBvhNode* shrunk = (lbBvhNode*)realloc(mesh->nodes, sizeof(lbBvhNode) * (size_t)b.nodeCount);
	if (shrunk)
		mesh->nodes = shrunk;
	free(triBounds);
	free(centroids);
	free(perm);
	free(tasks);
	return lb_ok;
}

void lbMeshFree(lbMesh* mesh)
{
	free(mesh->vertices);
	free(mesh->indices);
	free(mesh->nodes);
	memset(mesh, 0, sizeof *mesh);
}

float lbMeshSahCost(const lbMesh* mesh)
{
	if (mesh->nodeCount == 0)
		return 0.0f;
	const lbBvhNode* root = &mesh->nodes[0];
	lbAabbF rb = { { root->min[0], root->min[1], root->min[2] }, { root->max[0], root->max[1], root->max[2] } };
	float rootArea = lbAabbArea(&rb);
	if (!(rootArea > 0.0f))
		return 0.0f;
	double cost = 0.0;
	for (int i = 0; i < mesh->nodeCount; ++i)
	{
		const lbBvhNode* n = &mesh->nodes[i];
		lbAabbF nb = { { n->min[0], n->min[1], n->min[2] }, { n->max[0], n->max[1], n->max[2] } };
		double a = lbAabbArea(&nb) / rootArea;
		cost += n->count > 0 ? a * n->count : a;
	}
	return (float)cost;
}

static lbDVec3 lbDFromF(lbVec3 v)
{
	return lbD3(v.x, v.y, v.z);
}

void lbMeshCast(const lbMesh* mesh, lbCastState* st, int shapeId)
{
	if (mesh->nodeCount == 0)
		return;
	float grow = st->radius + mesh->slop;
	// Far children wait with their entry time, so those beyond a closer hit found meanwhile are dropped.
	struct
	{
		int node;
		float t;
	} stack[LB_BVH_STACK];
	int top = 0;
	int node = 0;
	if (lbCastAabbEntry(st, mesh->nodes[0].min, mesh->nodes[0].max, grow, (float)st->bestT + grow) > 1.0e38f)
		return;
	for (;;)
	{
		const lbBvhNode* n = &mesh->nodes[node];
		if (n->count > 0)
		{
			for (int i = n->leftOrFirst, end = n->leftOrFirst + n->count; i < end; ++i)
			{
				const int32_t* tri = &mesh->indices[3 * i];
				lbDContact c;
				bool got = lbSweepSphereTriangleD(&st->cast, lbDFromF(mesh->vertices[tri[0]]),
												  lbDFromF(mesh->vertices[tri[1]]), lbDFromF(mesh->vertices[tri[2]]),
												  st->bestT, &c);
				if (got)
					lbCastRecord(st, &c, shapeId, i);
			}
			node = -1;
			while (top > 0)
			{
				--top;
				if (stack[top].t <= (float)st->bestT + grow)
				{
					node = stack[top].node;
					break;
				}
			}
			if (node < 0)
				return;
			continue;
		}
		float tMax = (float)st->bestT + grow;
		int left = n->leftOrFirst, right = left + 1;
		float tl = lbCastAabbEntry(st, mesh->nodes[left].min, mesh->nodes[left].max, grow, tMax);
		float tr = lbCastAabbEntry(st, mesh->nodes[right].min, mesh->nodes[right].max, grow, tMax);
		bool hitL = tl < 1.0e38f, hitR = tr < 1.0e38f;
		if (hitL && hitR)
		{
			int nearNode = tl <= tr ? left : right, farNode = tl <= tr ? right : left;
			stack[top].node = farNode;
			stack[top].t = tl <= tr ? tr : tl;
			++top;
			node = nearNode;
		}
		else if (hitL || hitR)
			node = hitL ? left : right;
		else
		{
			node = -1;
			while (top > 0)
			{
				--top;
				if (stack[top].t <= (float)st->bestT + grow)
				{
					node = stack[top].node;
					break;
				}
			}
			if (node < 0)
				return;
		}
	}
}
