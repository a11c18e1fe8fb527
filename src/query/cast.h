// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Internal state of one cast through the world: the cast in double (narrow phase) and float
// (traversal), the nearest hit so far and the deepest overlap at the start.
#pragma once

#include "limber/crowd.h"
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
	/// The hit came from a shape's face stage (a contact inside a triangle's face, whose normal is
	/// that face's plane; heightfields and meshes set it): the world then reports that normal as the
	/// face normal instead of making it again from the primitive. False for edge and vertex contacts
	/// and shapes that do not say.
	bool hitOnFace;
	lbDContact hit;
	int hitShape, hitPrim;
	bool inside;
	lbDContact deepest;
	int insideShape, insidePrim;
} lbCastState;

/// Sets up a cast from finite inputs (world, m): no hit yet, bestT = the cast's length. Only the
/// fields read before being written are set (the state is large; this runs per query). False when
/// the cast is too long to handle (1e30 m or more).
bool lbCastInit(lbCastState* st, lbVec3 start, lbVec3 end, float radius);

/// The double-precision part of lbCastInit: the cast, no hit yet, bestT = the cast's length; the float
/// copies for box tests (lbCastInitBoxes) are left unset. False when the cast is too long to handle.
static inline bool lbCastInitCast(lbCastState* st, lbVec3 start, lbVec3 end, float radius)
{
	st->hasHit = false;
	st->hitOnFace = false;
	st->inside = false;
	st->hitShape = st->insideShape = LB_NULL_INDEX;
	st->hitPrim = st->insidePrim = LB_NULL_INDEX;
	lbDVec3 s = lbD3(start.x, start.y, start.z);
	lbDVec3 delta = lbDSub(lbD3(end.x, end.y, end.z), s);
	// A cast straight along z (a foot's probe) skips the square root, which delays the start node's
	// lookup: the root of the rounded square dz dz (plus two zeros) is |dz| to the bit.
	double len = delta.x == 0.0 && delta.y == 0.0 ? fabs(delta.z) : lbDLen(delta);
	if (!(len < 1e30))
		return false;
	st->cast.s = s;
	st->cast.d = len > 0.0 ? lbDScale(delta, 1.0 / len) : lbD3(0.0, 0.0, 1.0);
	st->cast.len = len;
	st->cast.r = radius;
	st->bestT = len;
	return true;
}

/// The float copies of a cast lbCastInitCast set up (origin, inverse direction, radius), which box
/// tests and mesh traversal read; `start` is the cast's start as given.
static inline void lbCastInitBoxes(lbCastState* st, lbVec3 start)
{
	st->origin[0] = start.x;
	st->origin[1] = start.y;
	st->origin[2] = start.z;
	const double dv[3] = { st->cast.d.x, st->cast.d.y, st->cast.d.z };
	// Capped at 1e20 so box plane times stay finite (no inf - inf) for any box below 1e17 m.
	if (dv[0] == 0.0 && dv[1] == 0.0)
	{
		// A cast straight along z (a foot's probe): a zero of either sign is not below zero, so both
		// caps are +1e20, as the loop below gives them.
		st->invDir[0] = st->invDir[1] = 1.0e20f;
		st->invDir[2] = fabs(dv[2]) > 1e-20 ? (float)(1.0 / dv[2]) : (dv[2] < 0.0 ? -1.0e20f : 1.0e20f);
	}
	else
		for (int i = 0; i < 3; ++i)
			st->invDir[i] = fabs(dv[i]) > 1e-20 ? (float)(1.0 / dv[i]) : (dv[i] < 0.0 ? -1.0e20f : 1.0e20f);
	st->radius = (float)st->cast.r;
}

/// lbCastInit inlined into the world's paths.
static inline bool lbCastInitInline(lbCastState* st, lbVec3 start, lbVec3 end, float radius)
{
	if (!lbCastInitCast(st, start, end, radius))
		return false;
	lbCastInitBoxes(st, start);
	return true;
}

/// Folds one primitive's contact (world space) into the state; true when it became the hit (then
/// hitOnFace is false until the caller says otherwise).
static inline bool lbCastRecord(lbCastState* st, const lbDContact* c, int shape, int prim)
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
		st->hitOnFace = false;
		st->hit = *c;
		st->hitShape = shape;
		st->hitPrim = prim;
		st->bestT = c->t;
		return true;
	}
	return false;
}

/// Triangles whose face stage left only an edge or vertex contact possible. Their edge stage runs
/// after the shape's face stages, when the nearest face hit has made most of them irrelevant.
#define LB_DEFERRED_MAX 16
typedef struct lbDeferredTri
{
	lbDVec3 a, b, c;
	double lowerBound;
	int prim;
} lbDeferredTri;

typedef struct lbDeferred
{
	lbDeferredTri tris[LB_DEFERRED_MAX];
	int count;
} lbDeferred;

/// Runs the edge stage of the deferred triangles (nearest lower bound first) against `cast` (the
/// shape's frame); calls record(user, contact, prim) for each contact and empties the list.
typedef void lbDeferredRecordFcn(void* user, lbCastState* st, const lbDContact* contact, int prim);
static inline void lbFlushDeferred(lbDeferred* d, const lbDCast* cast, lbCastState* st, lbDeferredRecordFcn* record,
								   void* user)
{
	for (int i = 1; i < d->count; ++i)
		for (int j = i; j > 0 && d->tris[j].lowerBound < d->tris[j - 1].lowerBound; --j)
		{
			lbDeferredTri tmp = d->tris[j];
			d->tris[j] = d->tris[j - 1];
			d->tris[j - 1] = tmp;
		}
	for (int i = 0; i < d->count; ++i)
	{
		const lbDeferredTri* t = &d->tris[i];
		if (t->lowerBound > st->bestT)
			break;
		lbDContact c;
		if (lbSweepSphereTriangleEdgesD(cast, t->a, t->b, t->c, st->bestT, &c))
			record(user, st, &c, t->prim);
	}
	d->count = 0;
}

static inline void lbDefer(lbDeferred* d, lbDVec3 a, lbDVec3 b, lbDVec3 c, double lowerBound, int prim,
						   const lbDCast* cast, lbCastState* st, lbDeferredRecordFcn* record, void* user)
{
	if (d->count == LB_DEFERRED_MAX)
		lbFlushDeferred(d, cast, st, record, user);
	lbDeferredTri* t = &d->tris[d->count++];
	t->a = a;
	t->b = b;
	t->c = c;
	t->lowerBound = lowerBound;
	t->prim = prim;
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

/// A rigid frame in double: rotation matrix (columns = local axes in world) and origin. Built once
/// per shape from a float transform whose quaternion is normalised in double: a float quaternion is
/// unit only to ~1e-7, and the rotation and its inverse must match far better than that for shallow
/// hits (where a plane offset is divided by the sine of the angle of incidence).
typedef struct lbDFrame
{
	double m[9];
	lbDVec3 p;
} lbDFrame;

lbDFrame lbMakeDFrame(lbTransform t);

static inline lbDVec3 lbDFrameDir(const lbDFrame* f, lbDVec3 v)
{
	return lbD3(f->m[0] * v.x + f->m[3] * v.y + f->m[6] * v.z, f->m[1] * v.x + f->m[4] * v.y + f->m[7] * v.z,
				f->m[2] * v.x + f->m[5] * v.y + f->m[8] * v.z);
}

static inline lbDVec3 lbDFrameInvDir(const lbDFrame* f, lbDVec3 v)
{
	return lbD3(f->m[0] * v.x + f->m[1] * v.y + f->m[2] * v.z, f->m[3] * v.x + f->m[4] * v.y + f->m[5] * v.z,
				f->m[6] * v.x + f->m[7] * v.y + f->m[8] * v.z);
}

static inline lbDVec3 lbDFramePoint(const lbDFrame* f, lbDVec3 v)
{
	return lbDAdd(lbDFrameDir(f, v), f->p);
}

static inline lbDVec3 lbDFrameInvPoint(const lbDFrame* f, lbDVec3 v)
{
	return lbDFrameInvDir(f, lbDSub(v, f->p));
}

// Mesh shapes (bvh.c). The binary SAH tree is built first, then collapsed into a 4-wide tree whose
// nodes fit one 64-byte cache line: child boxes are quantized to 8 bits per side relative to the
// node's own box (rounded outward, so they stay conservative).
typedef struct lbBvh4Node
{
	/// Minimum corner of the node's box (m).
	float origin[3];
	/// Child box grid step per axis is 2^(stepBits - 127) (m): the exponent field of the float step,
	/// so the traversal builds the step by a shift.
	uint8_t stepBits[3];
	/// Bit k set for each child in use: children 0..n-1 for n = 1..4 children (a mask, so the traversal
	/// masks its box tests with it directly).
	uint8_t childMask;
	/// Child boxes: origin + q * step, per axis [3] and child [4].
	uint8_t qmin[3][4];
	uint8_t qmax[3][4];
	/// Internal child: node index. Leaf child: first triangle (leaf order).
	int32_t child[4];
	/// Leaf triangle count, 0 for an internal child.
	uint8_t count[4];
	/// Internal child: how many of the lines after the child's own line (its first descendants, in
	/// pre-order) a cast descending into it fetches with it. 0 for a leaf child.
	uint8_t prefetch[4];
} lbBvh4Node;

/// Number of children in use (1..4).
static inline int lbBvh4ChildCount(const lbBvh4Node* n)
{
	return (n->childMask & 8) ? 4 : ((n->childMask & 4) ? 3 : ((n->childMask & 2) ? 2 : 1));
}

/// Start nodes for short casts: a 2D grid over the two widest axes of the mesh's bounds (u, v; any
/// orientation, a flat axis gets one cell), with coarser copies (level k has cells 2^k times wider).
/// Entry (I, J) of level k holds the lowest common ancestor of every leaf whose box overlaps level-k
/// cells I..I+1 x J..J+1, or -1 when none does. A cast whose footprint (its box grown by radius and
/// slop, projected on u, v) spans at most two cells per axis at level k can hit only leaves below
/// that node, so the traversal starts there instead of at the root.
#define LB_MESH_GRID_LEVELS 16
typedef struct lbMeshGrid
{
	int axis[2];
	float min[2];
	/// Level-0 cells per meter along u, v (0 for an axis with one cell).
	float invCell[2];
	/// Index of the last level-0 cell along u, v, as a float (dim[0][a] - 1).
	float lastCell[2];
	int levels;
	int dim[LB_MESH_GRID_LEVELS][2];
	int offset[LB_MESH_GRID_LEVELS];
	/// All levels, level 0 first, rows along u; NULL when the tree has a single node.
	int32_t* start;
	/// Level 0's cells one at a time, rows along u (in start's allocation, after the levels), three
	/// entries a cell, read together: the lowest common ancestor of every leaf whose box overlaps cell
	/// I, J alone; then the range [first, end) of the triangles (leaf order) of the leaves whose box's
	/// centre lies in it (0, 0 for none), the corners a cast starting there prefetches.
	int32_t* cell;
	/// Entries of start, the levels' and the single cells'.
	size_t entryCount;
} lbMeshGrid;

typedef struct lbMesh
{
	/// As given (readback); indices reordered into leaf order.
	lbVec3* vertices;
	int vertexCount;
	int32_t* indices;
	int triangleCount;
	/// Triangle corners in leaf order, 9 floats each: a leaf reads one contiguous block.
	float* corners;
	lbBvh4Node* nodes;
	int nodeCount;
	int leafCount;
	int maxDepth;
	float sahCost;
	float boundsMin[3], boundsMax[3];
	/// Rounding allowance for float boxes (m), from the mesh's coordinate magnitude.
	float slop;
	lbMeshGrid grid;
} lbMesh;

lbResult lbMeshBuild(lbMesh* mesh, const lbVec3* vertices, int vertexCount, const int32_t* indices, int triangleCount,
					 int maxLeafTriangles);
/// lbMeshBuild with the subtrees below the top of the tree built over `parallel` (NULL: the calling
/// thread), and its binary tree in `workspace` when that holds lbGetMeshBuildWorkspaceSize bytes on an
/// LB_MESH_BUILD_WORKSPACE_ALIGN boundary (else, or NULL, allocated and freed here). The mesh is the
/// same, to the bit, for any parallel-for, thread count and workspace (whatever it held before).
lbResult lbMeshBuildParallel(lbMesh* mesh, const lbVec3* vertices, int vertexCount, const int32_t* indices,
							 int triangleCount, int maxLeafTriangles, const lbParallel* parallel, void* workspace,
							 size_t workspaceSize);
void lbMeshFree(lbMesh* mesh);
/// Bytes the traversal reads: nodes, triangle corners and the start-node grid.
size_t lbMeshBvhBytes(const lbMesh* mesh);
/// Builds mesh->grid from the finished tree (lbMeshBuild calls it); false when out of memory.
bool lbMeshBuildGrid(lbMesh* mesh, int trianglesPerCell);
/// The node a cast (grown by `grow` = radius + slop) can start from: the root, a deeper node from the
/// grid, or -1 when no leaf lies under the cast's footprint.
int32_t lbMeshStartNode(const lbMesh* mesh, const lbCastState* st, float grow);
void lbMeshCast(const lbMesh* mesh, lbCastState* st, int shapeId);
/// Casts announced together (lbWorld_PrefetchCasts) walk the tree in groups of at most this many.
#define LB_PREFETCH_GROUP 32
/// Walks up to LB_PREFETCH_GROUP casts down the tree in lockstep, one level per round, prefetching
/// the next node of each (and at the bottom the nearest leaf's triangles), so the casts' cache
/// misses overlap instead of queueing; reads only, no result.
void lbMeshPrefetchCasts(const lbMesh* mesh, const lbCastState* const* casts, int count);

// Heightfield shapes (heightfield.c).
typedef struct lbHeightfield
{
	/// Row-major heights as given (readback).
	float* heights;
	/// The same heights in overlapping 4 x 4 tiles, one 64-byte line each: tile (I, J) holds samples
	/// [3I, 3I + 3] x [3J, 3J + 3], so the four corners of every cell sit in one line and a foot
	/// trace over a few neighbouring cells usually reads one line instead of two rows far apart.
	float* tiles;
	int tilesX;
	/// Where cell (i, j)'s corner (0, 0) sits in `tiles`: cellColumn[i] + cellRow[j] (i < cellsX,
	/// j < cellsY), the tile and place in it worked out once for the grid instead of by two
	/// divisions by 3 per cell visited. Both live in the tiles' allocation, after the tiles.
	const size_t* cellColumn;
	const size_t* cellRow;
	int countX, countY;
	float cellSize;
	float minHeight, maxHeight;
	lbTransform transform;
	lbDFrame frame;
	/// The frame's rotation is exactly the identity: frame changes are additions only.
	bool flat;
	/// What every cast would work out again: 1 / cellSize, the cells per axis (countX - 1, countY - 1)
	/// and the grid's extent along its x and y (cells times cellSize, m), in the same arithmetic.
	double invCellSize, extentX, extentY;
	int cellsX, cellsY;
} lbHeightfield;

void lbHeightfieldCast(const lbHeightfield* hf, lbCastState* st, int shapeId);
/// Builds hf->tiles from hf->heights and sets hf->flat from hf->frame and the per-cast constants
/// (invCellSize ...) from the grid; false when out of memory.
bool lbHeightfieldBuildTiles(lbHeightfield* hf);
/// Normal (world, not normalised, zero for a bad index) of triangle `prim` = 2 * cell + k, from the
/// tiles a cast just read (the row-major heights would be one more cache miss).
lbDVec3 lbHeightfieldFaceNormal(const lbHeightfield* hf, int prim);


