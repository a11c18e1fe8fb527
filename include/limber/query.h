// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref query group.

/// @defgroup query Scene queries: ray casts, sphere casts and sphere overlaps
/// Every system finds the world only through an lbSceneQuery: a small table of function pointers
/// plus a user context, so a game can answer with its own physics engine. lbWorld is the built-in
/// implementation (static triangle meshes in a BVH, heightfields, oriented boxes).
///
/// All positions, directions and distances are in world space, meters. A cast moves a point (ray)
/// or a sphere from `start` to `end`; triangles are two-sided surfaces, boxes are solid.
/// @{

#include "limber/base.h"
#include "limber/math.h"

#include <stddef.h>

/// Channel bit: walkable ground (foot traces).
#define LB_CHANNEL_GROUND (1u << 0)
/// Channel bit: surfaces hands and feet may climb on (walls, holds, ledges).
#define LB_CHANNEL_CLIMBABLE (1u << 1)
/// Channel bit: walls and other vertical obstacles.
#define LB_CHANNEL_WALL (1u << 2)
/// Channel bit: roofs and other slanted surfaces a body may lie on.
#define LB_CHANNEL_ROOF (1u << 3)
/// Channel bit: characters' own collision shapes (usually ignored by their own traces).
#define LB_CHANNEL_CHARACTER (1u << 4)
/// Free user channel bit n, n in [0, 15] (bits 16..31).
#define LB_CHANNEL_USER(n) (1u << (16u + (unsigned)(n)))
/// Every channel.
#define LB_CHANNEL_ALL 0xFFFFFFFFu

/// Owner id meaning "no owner" (never ignored, ignores nothing).
#define LB_NO_OWNER 0u
/// Alignment (bytes) of a mesh build workspace (lbMeshDef::buildWorkspace). 2 MB alignment (and, on
/// Linux, madvise MADV_HUGEPAGE) lets the kernel back a large one with huge pages.
#define LB_MESH_BUILD_WORKSPACE_ALIGN 64

/// Input to a ray cast, sphere cast or sphere overlap.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbQueryInput
{
	/// Start of the cast; the sphere centre for an overlap (world, m).
	lbVec3 start;
	/// End of the cast (world, m). Ignored by overlaps. start == end casts nothing but still reports
	/// a start overlap.
	lbVec3 end;
	/// Sphere radius (m, >= 0). Ray casts ignore it; a sphere cast with radius 0 acts as a ray.
	float radius;
	/// Only shapes sharing at least one of these channel bits are considered. Default LB_CHANNEL_ALL.
	uint32_t channelMask;
	/// Shapes with this owner id are skipped (the caster's own shapes). Default LB_NO_OWNER.
	uint32_t ignoreOwnerId;
} lbQueryInput;

/// Result of a cast or overlap. Every field is finite, whatever the input.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbHit
{
	/// True when something was hit (or, for an overlap, overlapped).
	bool hit;
	/// True when the sphere (or, for a ray, the start point inside a solid box) already overlapped a
	/// shape at the start: then fraction = distance = 0, `normal` is the direction that separates
	/// fastest and `penetrationDepth` how far to move along it.
	bool startedInside;
	/// lb_ok, or the error that made the query return no hit (NaN input, negative radius, NULL).
	lbResult status;
	/// Sphere centre at the time of the hit; equals impactPoint for a ray (world, m).
	lbVec3 location;
	/// Contact point on the surface (world, m).
	lbVec3 impactPoint;
	/// Unit surface normal at the impact, facing the caster (world). For a sphere that touches an
	/// edge or a vertex this points from the contact to the sphere's centre.
	lbVec3 normal;
	/// Unit normal of the face the impact point lies on, facing the caster (world): equals `normal`
	/// for a contact inside a face, and is the reported primitive's own plane at an edge or vertex
	/// (what engines call the impact normal). Zero when the scene cannot tell; callers then use `normal`.
	lbVec3 faceNormal;
	/// Hit time along the cast in [0, 1].
	float fraction;
	/// Distance travelled before the hit (m) = fraction * |end - start|.
	float distance;
	/// Overlap depth at the start (m); 0 unless startedInside.
	float penetrationDepth;
	/// Shape hit (lbWorld shape id, or the game's own id), LB_NULL_INDEX when none.
	int32_t shapeId;
	/// Primitive within the shape (triangle index, heightfield cell * 2 + triangle, box face), or
	/// LB_NULL_INDEX.
	int32_t primitiveIndex;
	/// Owner id of the shape hit.
	uint32_t ownerId;
	/// Channel bits of the shape hit.
	uint32_t channels;
} lbHit;

/// A cast or overlap answered by a scene. Implementations fill `outHit` completely (hit = false when
/// nothing) and must be safe to call concurrently if the game calls from several threads.
typedef void lbQueryFcn(void* context, const lbQueryInput* input, lbHit* outHit);

/// Announces casts about to be made (the same inputs the casts will get), so the scene can start
/// loading what they will read while the caller does other work; no result ever depends on it.
/// Inputs it cannot use (non-finite, negative radius) are ignored.
typedef void lbQueryPrefetchFcn(void* context, const lbQueryInput* inputs, int count);

/// Casts `count` rays at once (radius ignored): outHits[k] is exactly the hit rayCast gives for
/// inputs[k], bit for bit. Systems pass the few close, parallel rays of one foot's footprint, so a
/// scene can answer them together (one traversal, one set-up). count may be 0.
typedef void lbQueryBatchFcn(void* context, const lbQueryInput* inputs, int count, lbHit* outHits);

/// Casts `count` rays at once (radius ignored) and gives only where each stopped: outValid[k] is
/// whether rayCast's hit for inputs[k] has hit set and status lb_ok, and outPoints[k] (world, m)
/// that hit's impactPoint, or inputs[k].start when it started inside a solid, bit for bit; 0 where
/// outValid[k] is false. Systems that need only the ground's height under a point (the foot's
/// footprint and look-ahead rays) call it, so a scene can leave out the normal, the fraction and
/// the ids of each hit. count may be 0.
typedef void lbQueryPointBatchFcn(void* context, const lbQueryInput* inputs, int count, lbVec3* outPoints, bool* outValid);

/// The interface every system uses to see the world. Any cast function may be NULL (treated as
/// "never hits", status lb_errorUnsupported). Zero-initialise it, so members added later are NULL.
/// Thread-safety: the callbacks run on the thread that calls a sense stage; when characters run on
/// several threads they must be safe to call at once.
typedef struct lbSceneQuery
{
	/// Casts a ray (radius ignored) from start to end; the first hit.
	lbQueryFcn* rayCast;
	/// Sweeps a sphere of `radius` from start to end; the first hit.
	lbQueryFcn* sphereCast;
	/// Tests the sphere at `start`; reports the deepest overlap (hit = startedInside = true).
	lbQueryFcn* sphereOverlap;
	/// Passed back unchanged as the first argument.
	void* context;
	/// Optional, may be NULL: see lbQueryPrefetchFcn. Systems that cast for many characters call
	/// it for a group before casting, so the group's cache misses overlap.
	lbQueryPrefetchFcn* prefetch;
	/// Optional, may be NULL: see lbQueryBatchFcn. Without it callers cast the rays one by one
	/// through rayCast, with the same results.
	lbQueryBatchFcn* rayCastBatch;
	/// Optional, may be NULL: see lbQueryPointBatchFcn. Without it callers take the points from
	/// rayCastBatch's or rayCast's hits, with the same results.
	lbQueryPointBatchFcn* rayPointBatch;
} lbSceneQuery;

LB_EXTERN_C_BEGIN

/// A query input with defaults: zero start/end/radius, channel mask LB_CHANNEL_ALL, no ignored owner.
LB_API lbQueryInput lbDefaultQueryInput(void);

/// An empty hit: hit = false, shapeId = LB_NULL_INDEX, status lb_ok, fraction 1.
LB_API lbHit lbEmptyHit(void);

LB_EXTERN_C_END

/// Calls query->fcn or returns an empty hit with status lb_errorUnsupported (lb_errorNullPointer for a
/// NULL query or input).
LB_INLINE lbHit lbCallQuery(const lbSceneQuery* query, lbQueryFcn* fcn, const lbQueryInput* input)
{
	lbHit hit = lbEmptyHit();
	if (!query || !input)
	{
		hit.status = lbReport(lb_errorNullPointer, "scene query: query or input is NULL");
		return hit;
	}
	if (!fcn)
	{
		hit.status = lb_errorUnsupported;
		return hit;
	}
	fcn(query->context, input, &hit);
	return hit;
}

/// Ray cast through an lbSceneQuery: first hit from input->start to input->end.
LB_INLINE lbHit lbRayCast(const lbSceneQuery* query, const lbQueryInput* input)
{
	return lbCallQuery(query, query ? query->rayCast : NULL, input);
}

/// Sphere cast through an lbSceneQuery: first hit of the sphere moving from start to end.
LB_INLINE lbHit lbSphereCast(const lbSceneQuery* query, const lbQueryInput* input)
{
	return lbCallQuery(query, query ? query->sphereCast : NULL, input);
}

/// Sphere overlap through an lbSceneQuery: deepest overlap of the sphere at input->start.
LB_INLINE lbHit lbSphereOverlap(const lbSceneQuery* query, const lbQueryInput* input)
{
	return lbCallQuery(query, query ? query->sphereOverlap : NULL, input);
}

/// Ray casts through an lbSceneQuery: outHits[k] is the first hit from inputs[k].start to
/// inputs[k].end. One call to query->rayCastBatch when the scene has it, else lbRayCast per input.
LB_INLINE void lbRayCastBatch(const lbSceneQuery* query, const lbQueryInput* inputs, int count, lbHit* outHits)
{
	if (query && query->rayCastBatch && inputs && outHits && count > 0)
	{
		query->rayCastBatch(query->context, inputs, count, outHits);
		return;
	}
	for (int k = 0; outHits && k < count; ++k)
		outHits[k] = lbRayCast(query, inputs ? &inputs[k] : NULL);
}

/// Passes casts about to be made to query->prefetch when the scene has one; otherwise does nothing.
LB_INLINE void lbPrefetchCasts(const lbSceneQuery* query, const lbQueryInput* inputs, int count)
{
	if (query && query->prefetch && inputs && count > 0)
		query->prefetch(query->context, inputs, count);
}

// ---------------------------------------------------------------------------------------------
// lbWorld: the built-in scene.

/// The built-in scene: static shapes queried through lbWorld_GetQuery. Opaque.
/// Thread-safety: queries may run on any number of threads at once while no shape is being added;
/// adding a shape needs the world to itself.
typedef struct lbWorld lbWorld;

/// Kind of a world shape.
typedef enum lbShapeKind
{
	/// No shape: what a zeroed lbShapeInfo (a bad id) holds.
	lb_shapeNone = 0,
	/// Triangle mesh in a SAH bounding volume hierarchy.
	lb_shapeMesh,
	/// Regular grid of heights, two triangles per cell.
	lb_shapeHeightfield,
	/// Oriented solid box.
	lb_shapeBox,
} lbShapeKind;

/// Input to lbCreateWorld.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbWorldDef
{
	/// World up (unit). Default (0, 0, 1). Used by scene builders and readers; queries need no up.
	lbVec3 up;
	/// Shapes to reserve room for. Default 16.
	int shapeCapacity;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbWorldDef;

/// Static triangle mesh. Arrays are copied; none is retained.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbMeshDef
{
	/// Vertex positions (world, m). Default NULL.
	const lbVec3* vertices;
	/// Number of vertices. Default 0.
	int vertexCount;
	/// Three vertex indices per triangle. Default NULL.
	const int32_t* indices;
	/// Number of triangles (>= 1). Default 0.
	int triangleCount;
	/// Channel bits. Default LB_CHANNEL_GROUND.
	uint32_t channels;
	/// Owner id. Default LB_NO_OWNER.
	uint32_t ownerId;
	/// Most triangles in a BVH leaf, 1..16. Default 8.
	int maxLeafTriangles;
	/// Scratch memory for the build, owned by the caller: at least
	/// lbGetMeshBuildWorkspaceSize(triangleCount) bytes (buildWorkspaceSize) on an
	/// LB_MESH_BUILD_WORKSPACE_ALIGN boundary, not overlapping the vertices or indices, used only during
	/// lbWorld_AddMesh (not retained; one build at a time; its contents before and after mean nothing).
	/// Kept between builds, its pages are faulted in once instead of once per build; the mesh is the
	/// same with or without it. Default NULL: the build allocates its scratch and frees it.
	void* buildWorkspace;
	/// Bytes at buildWorkspace. Default 0.
	size_t buildWorkspaceSize;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbMeshDef;

/// Heightfield: countX x countY height samples on a square grid. In the heightfield's own frame
/// sample (i, j) sits at (i * cellSize, j * cellSize, heights[j * countX + i]); `transform` (p, q;
/// scale ignored) places that frame in the world, so local +Z is the height direction. Cell (i, j)
/// is split along the diagonal from sample (i, j) to (i + 1, j + 1).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbHeightfieldDef
{
	/// Heights (m), row-major, countX * countY values; copied. Default NULL.
	const float* heights;
	/// Samples along local X (>= 2). Default 0.
	int countX;
	/// Samples along local Y (>= 2). Default 0.
	int countY;
	/// Distance between samples (m, > 0). Default 1.
	float cellSize;
	/// Frame of the grid: p = world position of sample (0, 0) at height 0, q = rotation whose
	/// local Z is the height direction. Default identity (+Z up).
	lbTransform transform;
	/// Channel bits. Default LB_CHANNEL_GROUND.
	uint32_t channels;
	/// Owner id. Default LB_NO_OWNER.
	uint32_t ownerId;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbHeightfieldDef;

/// Oriented solid box.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbBoxDef
{
	/// Centre (p) and orientation (q) in the world; scale ignored. Default identity.
	lbTransform transform;
	/// Half sizes along the box's local axes (m, > 0). Default (0.5, 0.5, 0.5).
	lbVec3 halfExtents;
	/// Channel bits. Default LB_CHANNEL_GROUND.
	uint32_t channels;
	/// Owner id. Default LB_NO_OWNER.
	uint32_t ownerId;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbBoxDef;

/// Read-only view of a world shape, for renderers and tools. Pointers stay valid until the world is
/// destroyed. Fields that do not apply to the kind are zero.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbShapeInfo
{
	/// What the shape is (mesh, heightfield or box): it says which fields below apply.
	lbShapeKind kind;
	///@{
	/// Channel bits and owner id given at creation.
	uint32_t channels;
	uint32_t ownerId;
	///@}
	///@{
	/// World bounds: lowest and highest corner of the axis-aligned box (world, m).
	lbVec3 boundsMin, boundsMax;
	///@}
	///@{
	/// Mesh: vertices (world, m) and their count, three indices per triangle and the triangle count.
	/// The world reorders triangles for its BVH, so triangle k here is primitiveIndex k in hits.
	const lbVec3* vertices;
	int vertexCount;
	const int32_t* indices;
	int triangleCount;
	///@}
	///@{
	/// Heightfield: heights (countX * countY samples, row-major, x fastest), sample counts along x, y,
	/// sample spacing (m).
	const float* heights;
	int countX, countY;
	float cellSize;
	///@}
	/// Heightfield and box: frame in the world (p, q; s = 1).
	lbTransform transform;
	/// Box: half sizes along its local axes (m).
	lbVec3 halfExtents;
} lbShapeInfo;

/// Statistics of a mesh shape's BVH.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbBvhStats
{
	/// Triangles in the mesh.
	int triangleCount;
	/// 4-wide nodes (64 bytes each) after collapsing the binary SAH tree.
	int nodeCount;
	/// Leaves of the binary SAH tree (each holds 1..maxLeafTriangles triangles).
	int leafCount;
	/// Depth of the binary SAH tree.
	int maxDepth;
	/// Bytes the traversal reads: nodes, the triangle corners stored in leaf order and the start-node grid.
	size_t bvhBytes;
	/// bvhBytes plus the vertex and index arrays kept for readback: everything the mesh holds.
	size_t totalBytes;
	/// Surface area heuristic cost of the binary tree (traversal 1, triangle 1), for comparing builds.
	float sahCost;
} lbBvhStats;

LB_EXTERN_C_BEGIN

/// Default world def: up (0, 0, 1), room for 16 shapes.
LB_API lbWorldDef lbDefaultWorldDef(void);
/// Default mesh def (channel GROUND, leaves of up to 8 triangles).
LB_API lbMeshDef lbDefaultMeshDef(void);
/// Default heightfield def (cell size 1 m, identity frame, channel GROUND).
LB_API lbHeightfieldDef lbDefaultHeightfieldDef(void);
/// Default box def (unit cube at the origin, channel GROUND).
LB_API lbBoxDef lbDefaultBoxDef(void);

/// Creates an empty world. Returns NULL (and logs) on a bad def. No reference to the def is retained.
LB_API lbWorld* lbCreateWorld(const lbWorldDef* def);
/// Destroys a world and everything it owns. NULL is ignored.
LB_API void lbDestroyWorld(lbWorld* world);

/// Adds a triangle mesh (copied; the BVH is built here, once). Returns its shape id, or
/// LB_NULL_INDEX (logged) on bad input: NULL arrays, index out of range, non-finite vertex, a build
/// workspace too small or off its alignment.
/// Not thread-safe against queries on the same world.
LB_API int lbWorld_AddMesh(lbWorld* world, const lbMeshDef* def);
/// Bytes of build workspace (lbMeshDef::buildWorkspace) a mesh of `triangleCount` triangles needs:
/// 64 a triangle, plus 64; 0 for a count below 1. One workspace serves every mesh up to its size.
/// Thread-safe.
LB_API size_t lbGetMeshBuildWorkspaceSize(int triangleCount);
/// Adds a heightfield (heights copied). Returns its shape id or LB_NULL_INDEX (logged).
LB_API int lbWorld_AddHeightfield(lbWorld* world, const lbHeightfieldDef* def);
/// Adds an oriented box. Returns its shape id or LB_NULL_INDEX (logged).
LB_API int lbWorld_AddBox(lbWorld* world, const lbBoxDef* def);

/// World up given at creation (unit).
LB_API lbVec3 lbWorld_GetUp(const lbWorld* world);
/// Number of shapes; ids are 0..count-1 in order of addition.
LB_API int lbWorld_GetShapeCount(const lbWorld* world);
/// Fills `outInfo` for a shape. Returns false (outInfo zeroed) for a bad id.
LB_API bool lbWorld_GetShapeInfo(const lbWorld* world, int shapeId, lbShapeInfo* outInfo);
/// BVH statistics of a mesh shape. Returns false for a bad id or a shape that is not a mesh.
LB_API bool lbWorld_GetBvhStats(const lbWorld* world, int shapeId, lbBvhStats* outStats);
/// Bounds of every shape (m); min > max for an empty world.
LB_API void lbWorld_GetBounds(const lbWorld* world, lbVec3* outMin, lbVec3* outMax);

/// The lbSceneQuery answered by this world (context = world). Queries are read-only and may run
/// concurrently; adding shapes while querying is not allowed. Its prefetch is NULL while the world
/// holds no mesh (only mesh trees are walked ahead), so take the query once the shapes are added.
LB_API lbSceneQuery lbWorld_GetQuery(const lbWorld* world);

/// First hit of a ray from input->start to input->end. Bad input: no hit, status set, logged.
LB_API lbHit lbWorld_RayCast(const lbWorld* world, const lbQueryInput* input);
/// First hit of a sphere of input->radius swept from start to end (radius 0 acts as a ray).
LB_API lbHit lbWorld_SphereCast(const lbWorld* world, const lbQueryInput* input);
/// Deepest overlap of the sphere centred at input->start (radius 0 tests a point inside boxes).
LB_API lbHit lbWorld_SphereOverlap(const lbWorld* world, const lbQueryInput* input);
/// First hit of each of `count` rays (inputs[k] into outHits[k]): the same hits as lbWorld_RayCast
/// one by one (each ray takes the single-ray path; only the call is shared). Bad inputs give their
/// own no-hit with status set (logged); NULL world or inputs give every hit lb_errorNullPointer;
/// count <= 0 does nothing.
LB_API void lbWorld_RayCastBatch(const lbWorld* world, const lbQueryInput* inputs, int count, lbHit* outHits);

/// Where each of `count` rays stops (lbQueryPointBatchFcn): outValid[k] whether lbWorld_RayCast's
/// hit for inputs[k] has hit set and status lb_ok, outPoints[k] its impactPoint (world, m; the start
/// for a ray that starts inside a box), 0 where not valid; bit for bit what the hits give, without
/// making the rest of each hit (its normal, fraction and ids). NULL world or inputs make every entry
/// invalid (reported); count <= 0 does nothing.
LB_API void lbWorld_RayPointBatch(const lbWorld* world, const lbQueryInput* inputs, int count, lbVec3* outPoints,
								  bool* outValid);

/// Starts loading the tree nodes and triangles that these ray or sphere casts will read (world
/// inputs), walking all of them down the mesh trees together so their cache misses overlap; the
/// casts themselves are unchanged. Invalid inputs are skipped; nothing is reported.
LB_API void lbWorld_PrefetchCasts(const lbWorld* world, const lbQueryInput* inputs, int count);

LB_EXTERN_C_END

/// @}
