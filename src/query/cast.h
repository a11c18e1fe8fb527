// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Internal state of one cast through the world: the cast in double (narrow phase) and float
// (traversal), the nearest hit so far and the deepest overlap at the start.
#pragma once

#include "limber/query.h"
#include "query/geom.h"

typedef struct lbCastState
{
	/// The cast in world space, double precision; t is in meters along the unit direction.
	lbDCast cast;
	/// Float copies for box tests during traversal.
	float origin[3];
	float invDir[3];
	float radius;
	/// Nearest admissible t (m): starts at the cast length, shrinks with each hit, 0 once an overlap
	/// at the start was found (only deeper overlaps matter then).
	double bestT;
	bool hasHit;
	lbDContact hit;
	int hitShape, hitPrim;
	bool inside;
	lbDContact deepest;
	int insideShape, insidePrim;
} lbCastState;

/// Folds one primitive's contact (world space) into the state.
static inline void lbCastRecord(lbCastState* st, const lbDContact* c, int shape, int prim)
{
	if (c->kind == lb_contactInside)
	{
		if (!st->inside || c->depth > st->deepest.depth)
		{
			st->inside = true;
			st->deepest = *c;
			st->insideShape = shape;
			st->insidePrim = prim;
		}
		st->bestT = 0.0;
	}
	else if (c->kind == lb_contactHit && !st->inside && (!st->hasHit || c->t < st->hit.t))
	{
		st->hasHit = true;
		st->hit = *c;
		st->hitShape = shape;
		st->hitPrim = prim;
		st->bestT = c->t;
	}
}

/// Float slab test of the cast against an AABB grown by `grow` (radius plus rounding slop). Returns
/// the entry t (m, may be negative when the start is inside) or +inf when missed within [0, tMax].
static inline float lbCastAabbEntry(const lbCastState* st, const float* bmin, const float* bmax, float grow, float tMax)
{
	float tEnter = -3.0e38f, tExit = tMax;
	for (int i = 0; i < 3; ++i)
	{
		float t1 = (bmin[i] - grow - st->origin[i]) * st->invDir[i];
		float t2 = (bmax[i] + grow - st->origin[i]) * st->invDir[i];
		float lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1;
		tEnter = lo > tEnter ? lo : tEnter;
		tExit = hi < tExit ? hi : tExit;
	}
	return (tEnter <= tExit && tExit >= 0.0f) ? tEnter : 3.0e38f;
}

// Mesh shapes (bvh.c).
typedef struct lbBvhNode
{
	float min[3];
	/// Interior: index of the left child (the right one follows). Leaf: first triangle.
	int32_t leftOrFirst;
	float max[3];
	/// 0 for interior nodes, triangle count for leaves.
	int32_t count;
} lbBvhNode;

typedef struct lbMesh
{
	lbVec3* vertices;
	int vertexCount;
	int32_t* indices;
	int triangleCount;
	lbBvhNode* nodes;
	int nodeCount;
	int leafCount;
	int maxDepth;
	/// Rounding allowance for float boxes (m), from the mesh's coordinate magnitude.
	float slop;
} lbMesh;

lbResult lbMeshBuild(lbMesh* mesh, const lbVec3* vertices, int vertexCount, const int32_t* indices, int triangleCount,
					 int maxLeafTriangles);
void lbMeshFree(lbMesh* mesh);
void lbMeshCast(const lbMesh* mesh, lbCastState* st, int shapeId);
float lbMeshSahCost(const lbMesh* mesh);

// Heightfield shapes (heightfield.c).
typedef struct lbHeightfield
{
	float* heights;
	int countX, countY;
	float cellSize;
	float minHeight, maxHeight;
	lbTransform transform;
} lbHeightfield;

void lbHeightfieldCast(const lbHeightfield* hf, lbCastState* st, int shapeId);

/// Converts a float transform (p, q) to apply to double points.
lbDVec3 lbDRotate(lbQuat q, lbDVec3 v);
lbDVec3 lbDInvRotate(lbQuat q, lbDVec3 v);
