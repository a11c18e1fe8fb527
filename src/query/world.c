// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// lbWorld: a flat list of static shapes, each culled by its bounds, then cast by kind. Worlds hold
// few shapes (a terrain, some walls, tens of holds); the millions of triangles live inside a mesh's
// own BVH, so a top-level tree would not pay for itself.
#include "core/bits.h"
#include "core/simd.h"
#include "query/cast.h"
#include "query/hf_ray.h"

#include <float.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct lbShape
{
	lbShapeKind kind;
	uint32_t channels;
	uint32_t ownerId;
	float boundsMin[3], boundsMax[3];
	float slop;
	lbMesh mesh;
	lbHeightfield hf;
	lbTransform boxTransform;
	lbDFrame boxFrame;
	lbVec3 halfExtents;
} lbShape;

struct lbWorld
{
	lbVec3 up;
	lbShape* shapes;
	int shapeCount;
	int shapeCapacity;
	int meshCount; // shapes of kind lb_shapeMesh: the only ones a prefetch walks
	int heightfieldCount; // shapes of kind lb_shapeHeightfield: the only ones cast without a bounds test
};

lbQueryInput lbDefaultQueryInput(void)
{
	lbQueryInput in;
	memset(&in, 0, sizeof in);
	in.channelMask = LB_CHANNEL_ALL;
	in.ignoreOwnerId = LB_NO_OWNER;
	return in;
}

// Inlined into the per-query path: lbEmptyHit is exported, and an exported function is not inlined
// in position-independent code (it could be interposed).
static inline lbHit lbMakeEmptyHit(void)
{
	lbHit hit;
	memset(&hit, 0, sizeof hit);
	hit.status = lb_ok;
	hit.fraction = 1.0f;
	hit.shapeId = LB_NULL_INDEX;
	hit.primitiveIndex = LB_NULL_INDEX;
	return hit;
}

lbHit lbEmptyHit(void)
{
	return lbMakeEmptyHit();
}

lbWorldDef lbDefaultWorldDef(void)
{
	lbWorldDef def;
	memset(&def, 0, sizeof def);
	def.up = lbVec3_axisZ;
	def.shapeCapacity = 16;
	def.internalValue = LB_SECRET_COOKIE;
	return def;
}

lbMeshDef lbDefaultMeshDef(void)
{
	lbMeshDef def;
	memset(&def, 0, sizeof def);
	def.channels = LB_CHANNEL_GROUND;
	def.ownerId = LB_NO_OWNER;
	def.maxLeafTriangles = 8;
	def.internalValue = LB_SECRET_COOKIE;
	return def;
}

lbHeightfieldDef lbDefaultHeightfieldDef(void)
{
	lbHeightfieldDef def;
	memset(&def, 0, sizeof def);
	def.cellSize = 1.0f;
	def.transform = lbTransform_identity;
	def.channels = LB_CHANNEL_GROUND;
	def.internalValue = LB_SECRET_COOKIE;
	return def;
}

lbBoxDef lbDefaultBoxDef(void)
{
	lbBoxDef def;
	memset(&def, 0, sizeof def);
	def.transform = lbTransform_identity;
	def.halfExtents = lbMakeVec3(0.5f, 0.5f, 0.5f);
	def.channels = LB_CHANNEL_GROUND;
	def.internalValue = LB_SECRET_COOKIE;
	return def;
}

lbWorld* lbCreateWorld(const lbWorldDef* def)
{
	if (!def)
	{
		lbReport(lb_errorNullPointer, "lbCreateWorld: def is NULL");
		return NULL;
	}
	if (def->internalValue != LB_SECRET_COOKIE)
	{
		lbReport(lb_errorDefNotInitialized, "lbCreateWorld: def not initialised with lbDefaultWorldDef()");
		return NULL;
	}
	if (!lbIsValidVec3(def->up) || !(lbLength(def->up) > 1.0e-6f))
	{
		lbReport(lb_errorInvalidArgument, "lbCreateWorld: up must be a finite non-zero vector");
		return NULL;
	}
	if (def->shapeCapacity < 0)
	{
		lbReport(lb_errorInvalidArgument, "lbCreateWorld: shapeCapacity %d is negative", def->shapeCapacity);
		return NULL;
	}
	lbWorld* w = (lbWorld*)lbAllocZeroed(sizeof(lbWorld));
	if (!w)
	{
		lbReport(lb_errorOutOfMemory, "lbCreateWorld: out of memory");
		return NULL;
	}
	w->up = lbNormalize(def->up);
	w->shapeCapacity = def->shapeCapacity > 0 ? def->shapeCapacity : 16;
	w->shapes = (lbShape*)lbAllocZeroed((size_t)w->shapeCapacity * sizeof(lbShape));
	if (!w->shapes)
	{
		lbFree(w);
		lbReport(lb_errorOutOfMemory, "lbCreateWorld: out of memory");
		return NULL;
	}
	return w;
}

void lbDestroyWorld(lbWorld* world)
{
	if (!world)
		return;
	for (int i = 0; i < world->shapeCount; ++i)
	{
		lbShape* s = &world->shapes[i];
		if (s->kind == lb_shapeMesh)
			lbMeshFree(&s->mesh);
		else if (s->kind == lb_shapeHeightfield)
		{
			lbFree(s->hf.heights);
			lbFree(s->hf.tiles);
		}
	}
	lbFree(world->shapes);
	lbFree(world);
}

static lbShape* lbWorldNewShape(lbWorld* w, const char* fn)
{
	if (w->shapeCount == w->shapeCapacity)
	{
		int cap = w->shapeCapacity * 2;
		lbShape* grown = (lbShape*)lbRealloc(w->shapes, sizeof(lbShape) * (size_t)cap);
		if (!grown)
		{
			lbReport(lb_errorOutOfMemory, "%s: out of memory", fn);
			return NULL;
		}
		w->shapes = grown;
		w->shapeCapacity = cap;
	}
	lbShape* s = &w->shapes[w->shapeCount];
	memset(s, 0, sizeof *s);
	return s;
}

static float lbMagnitude3(const float* lo, const float* hi)
{
	float m = 1.0f;
	for (int i = 0; i < 3; ++i)
		m = lbMaxF(m, lbMaxF(lbAbsF(lo[i]), lbAbsF(hi[i])));
	return m;
}

int lbWorld_AddMesh(lbWorld* world, const lbMeshDef* def)
{
	const char* fn = "lbWorld_AddMesh";
	if (!world || !def)
		return lbReport(lb_errorNullPointer, "%s: world or def is NULL", fn), LB_NULL_INDEX;
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: def not initialised with lbDefaultMeshDef()", fn), LB_NULL_INDEX;
	if (!def->vertices || !def->indices)
		return lbReport(lb_errorNullPointer, "%s: vertices or indices is NULL", fn), LB_NULL_INDEX;
	if (def->vertexCount <= 0 || def->triangleCount <= 0 || def->triangleCount > (INT32_MAX / 6))
		return lbReport(lb_errorInvalidArgument, "%s: %d vertices, %d triangles", fn, def->vertexCount,
						def->triangleCount),
			   LB_NULL_INDEX;
	if (def->maxLeafTriangles < 1 || def->maxLeafTriangles > 16)
		return lbReport(lb_errorInvalidArgument, "%s: maxLeafTriangles %d outside 1..16", fn, def->maxLeafTriangles),
			   LB_NULL_INDEX;
	if (def->buildWorkspace && (def->buildWorkspaceSize < lbGetMeshBuildWorkspaceSize(def->triangleCount) ||
								((uintptr_t)def->buildWorkspace & (LB_MESH_BUILD_WORKSPACE_ALIGN - 1)) != 0))
		return lbReport(lb_errorInvalidArgument, "%s: build workspace of %zu bytes at %p: needs %zu on a %d-byte boundary",
						fn, def->buildWorkspaceSize, def->buildWorkspace,
						lbGetMeshBuildWorkspaceSize(def->triangleCount), LB_MESH_BUILD_WORKSPACE_ALIGN),
			   LB_NULL_INDEX;
	for (int i = 0; i < def->vertexCount; ++i)
		if (!lbIsValidVec3(def->vertices[i]))
			return lbReport(lb_errorNonFinite, "%s: vertex %d is not finite", fn, i), LB_NULL_INDEX;
	// Blocks of indices tested without a branch per index (as unsigned, a negative index is past any
	// count), which the compiler turns into vector compares; a block that fails is scanned again for
	// its first bad index.
	for (int first = 0, n = 3 * def->triangleCount; first < n; first += 1024)
	{
		const int end = n - first < 1024 ? n : first + 1024;
		unsigned bad = 0u;
		for (int i = first; i < end; ++i)
			bad |= (uint32_t)def->indices[i] >= (uint32_t)def->vertexCount;
		if (!bad)
			continue;
		for (int i = first; i < end; ++i)
			if (def->indices[i] < 0 || def->indices[i] >= def->vertexCount)
				return lbReport(lb_errorInvalidArgument, "%s: index %d = %d outside [0, %d)", fn, i, (int)def->indices[i],
								def->vertexCount),
					   LB_NULL_INDEX;
	}
	lbShape* s = lbWorldNewShape(world, fn);
	if (!s)
		return LB_NULL_INDEX;
	if (lbMeshBuildParallel(&s->mesh, def->vertices, def->vertexCount, def->indices, def->triangleCount,
							def->maxLeafTriangles, NULL, def->buildWorkspace, def->buildWorkspaceSize) != lb_ok)
		return lbReport(lb_errorOutOfMemory, "%s: out of memory for %d triangles", fn, def->triangleCount), LB_NULL_INDEX;
	s->kind = lb_shapeMesh;
	s->channels = def->channels;
	s->ownerId = def->ownerId;
	memcpy(s->boundsMin, s->mesh.boundsMin, sizeof s->boundsMin);
	memcpy(s->boundsMax, s->mesh.boundsMax, sizeof s->boundsMax);
	s->slop = s->mesh.slop;
	world->meshCount++;
	return world->shapeCount++;
}

static bool lbIsValidRotation(lbQuat q)
{
	return lbIsValidQuat(q);
}

int lbWorld_AddHeightfield(lbWorld* world, const lbHeightfieldDef* def)
{
	const char* fn = "lbWorld_AddHeightfield";
	if (!world || !def)
		return lbReport(lb_errorNullPointer, "%s: world or def is NULL", fn), LB_NULL_INDEX;
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: def not initialised with lbDefaultHeightfieldDef()", fn),
			   LB_NULL_INDEX;
	if (!def->heights)
		return lbReport(lb_errorNullPointer, "%s: heights is NULL", fn), LB_NULL_INDEX;
	if (def->countX < 2 || def->countY < 2 || def->countX > 65536 || def->countY > 65536 ||
		(int64_t)def->countX * def->countY > ((int64_t)1 << 30))
		return lbReport(lb_errorInvalidArgument, "%s: grid %d x %d (need 2..65536 per side)", fn, def->countX,
						def->countY),
			   LB_NULL_INDEX;
	if (!lbIsValidFloat(def->cellSize) || !(def->cellSize > 0.0f))
		return lbReport(lb_errorInvalidArgument, "%s: cellSize must be finite and > 0", fn), LB_NULL_INDEX;
	if (!lbIsValidVec3(def->transform.p) || !lbIsValidRotation(def->transform.q))
		return lbReport(lb_errorInvalidArgument, "%s: transform is not finite or not a unit rotation", fn), LB_NULL_INDEX;
	size_t n = (size_t)def->countX * (size_t)def->countY;
	float lo = FLT_MAX, hi = -FLT_MAX;
	for (size_t i = 0; i < n; ++i)
	{
		float h = def->heights[i];
		if (!lbIsValidFloat(h))
			return lbReport(lb_errorNonFinite, "%s: height %zu is not finite", fn, i), LB_NULL_INDEX;
		lo = lbMinF(lo, h);
		hi = lbMaxF(hi, h);
	}
	lbShape* s = lbWorldNewShape(world, fn);
	if (!s)
		return LB_NULL_INDEX;
	s->hf.heights = (float*)lbAlloc(sizeof(float) * n);
	if (!s->hf.heights)
		return lbReport(lb_errorOutOfMemory, "%s: out of memory", fn), LB_NULL_INDEX;
	memcpy(s->hf.heights, def->heights, sizeof(float) * n);
	s->hf.countX = def->countX;
	s->hf.countY = def->countY;
	s->hf.cellSize = def->cellSize;
	s->hf.minHeight = lo;
	s->hf.maxHeight = hi;
	s->hf.transform = def->transform;
	s->hf.transform.q = lbQuatNormalize(def->transform.q);
	s->hf.transform.s = lbVec3_one;
	s->hf.frame = lbMakeDFrame(s->hf.transform);
	if (!lbHeightfieldBuildTiles(&s->hf))
	{
		lbFree(s->hf.heights);
		return lbReport(lb_errorOutOfMemory, "%s: out of memory", fn), LB_NULL_INDEX;
	}
	s->kind = lb_shapeHeightfield;
	s->channels = def->channels;
	s->ownerId = def->ownerId;
	// World bounds from the 8 corners of the local box.
	lbVec3 bmin = { FLT_MAX, FLT_MAX, FLT_MAX }, bmax = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
	float ex = def->cellSize * (float)(def->countX - 1), ey = def->cellSize * (float)(def->countY - 1);
	for (int k = 0; k < 8; ++k)
	{
		lbVec3 c = { (k & 1) ? ex : 0.0f, (k & 2) ? ey : 0.0f, (k & 4) ? hi : lo };
		lbVec3 w = lbTransformPoint(s->hf.transform, c);
		bmin = lbMinV(bmin, w);
		bmax = lbMaxV(bmax, w);
	}
	memcpy(s->boundsMin, &bmin, sizeof s->boundsMin);
	memcpy(s->boundsMax, &bmax, sizeof s->boundsMax);
	s->slop = 8.0f * FLT_EPSILON * lbMagnitude3(s->boundsMin, s->boundsMax);
	world->heightfieldCount++;
	return world->shapeCount++;
}

int lbWorld_AddBox(lbWorld* world, const lbBoxDef* def)
{
	const char* fn = "lbWorld_AddBox";
	if (!world || !def)
		return lbReport(lb_errorNullPointer, "%s: world or def is NULL", fn), LB_NULL_INDEX;
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: def not initialised with lbDefaultBoxDef()", fn), LB_NULL_INDEX;
	if (!lbIsValidVec3(def->transform.p) || !lbIsValidRotation(def->transform.q))
		return lbReport(lb_errorInvalidArgument, "%s: transform is not finite or not a unit rotation", fn), LB_NULL_INDEX;
	lbVec3 h = def->halfExtents;
	if (!lbIsValidVec3(h) || !(h.x > 0.0f) || !(h.y > 0.0f) || !(h.z > 0.0f))
		return lbReport(lb_errorInvalidArgument, "%s: half extents must be finite and > 0", fn), LB_NULL_INDEX;
	lbShape* s = lbWorldNewShape(world, fn);
	if (!s)
		return LB_NULL_INDEX;
	s->kind = lb_shapeBox;
	s->channels = def->channels;
	s->ownerId = def->ownerId;
	s->boxTransform = lbMakeTransform(def->transform.p, lbQuatNormalize(def->transform.q));
	s->boxFrame = lbMakeDFrame(s->boxTransform);
	s->halfExtents = h;
	lbVec3 ax = lbQuatRotate(s->boxTransform.q, lbVec3_axisX), ay = lbQuatRotate(s->boxTransform.q, lbVec3_axisY),
		   az = lbQuatRotate(s->boxTransform.q, lbVec3_axisZ);
	lbVec3 r = { h.x * lbAbsF(ax.x) + h.y * lbAbsF(ay.x) + h.z * lbAbsF(az.x),
				 h.x * lbAbsF(ax.y) + h.y * lbAbsF(ay.y) + h.z * lbAbsF(az.y),
				 h.x * lbAbsF(ax.z) + h.y * lbAbsF(ay.z) + h.z * lbAbsF(az.z) };
	lbVec3 bmin = lbSub(def->transform.p, r), bmax = lbAdd(def->transform.p, r);
	memcpy(s->boundsMin, &bmin, sizeof s->boundsMin);
	memcpy(s->boundsMax, &bmax, sizeof s->boundsMax);
	s->slop = 8.0f * FLT_EPSILON * lbMagnitude3(s->boundsMin, s->boundsMax);
	return world->shapeCount++;
}

lbVec3 lbWorld_GetUp(const lbWorld* world)
{
	return world ? world->up : lbVec3_axisZ;
}

int lbWorld_GetShapeCount(const lbWorld* world)
{
	return world ? world->shapeCount : 0;
}

bool lbWorld_GetShapeInfo(const lbWorld* world, int shapeId, lbShapeInfo* outInfo)
{
	if (!outInfo)
		return false;
	memset(outInfo, 0, sizeof *outInfo);
	if (!world || shapeId < 0 || shapeId >= world->shapeCount)
		return false;
	const lbShape* s = &world->shapes[shapeId];
	outInfo->kind = s->kind;
	outInfo->channels = s->channels;
	outInfo->ownerId = s->ownerId;
	memcpy(&outInfo->boundsMin, s->boundsMin, sizeof outInfo->boundsMin);
	memcpy(&outInfo->boundsMax, s->boundsMax, sizeof outInfo->boundsMax);
	outInfo->transform = lbTransform_identity;
	if (s->kind == lb_shapeMesh)
	{
		outInfo->vertices = s->mesh.vertices;
		outInfo->vertexCount = s->mesh.vertexCount;
		outInfo->indices = s->mesh.indices;
		outInfo->triangleCount = s->mesh.triangleCount;
	}
	else if (s->kind == lb_shapeHeightfield)
	{
		outInfo->heights = s->hf.heights;
		outInfo->countX = s->hf.countX;
		outInfo->countY = s->hf.countY;
		outInfo->cellSize = s->hf.cellSize;
		outInfo->transform = s->hf.transform;
	}
	else if (s->kind == lb_shapeBox)
	{
		outInfo->transform = s->boxTransform;
		outInfo->transform.s = lbVec3_one;
		outInfo->halfExtents = s->halfExtents;
	}
	return true;
}

bool lbWorld_GetBvhStats(const lbWorld* world, int shapeId, lbBvhStats* outStats)
{
	if (!outStats)
		return false;
	memset(outStats, 0, sizeof *outStats);
	if (!world || shapeId < 0 || shapeId >= world->shapeCount || world->shapes[shapeId].kind != lb_shapeMesh)
		return false;
	const lbMesh* m = &world->shapes[shapeId].mesh;
	outStats->triangleCount = m->triangleCount;
	outStats->nodeCount = m->nodeCount;
	outStats->leafCount = m->leafCount;
	outStats->maxDepth = m->maxDepth;
	outStats->bvhBytes = lbMeshBvhBytes(m);
	outStats->totalBytes = outStats->bvhBytes + sizeof(int32_t) * 3 * (size_t)m->triangleCount +
						   sizeof(lbVec3) * (size_t)m->vertexCount;
	outStats->sahCost = m->sahCost;
	return true;
}

void lbWorld_GetBounds(const lbWorld* world, lbVec3* outMin, lbVec3* outMax)
{
	lbVec3 lo = { FLT_MAX, FLT_MAX, FLT_MAX }, hi = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
	for (int i = 0; world && i < world->shapeCount; ++i)
	{
		const lbShape* s = &world->shapes[i];
		lo = lbMinV(lo, lbMakeVec3(s->boundsMin[0], s->boundsMin[1], s->boundsMin[2]));
		hi = lbMaxV(hi, lbMakeVec3(s->boundsMax[0], s->boundsMax[1], s->boundsMax[2]));
	}
	if (outMin)
		*outMin = lo;
	if (outMax)
		*outMax = hi;
}

typedef enum lbQueryMode
{
	lb_modeRay,
	lb_modeSphere,
	lb_modeOverlap,
} lbQueryMode;

static void lbCastBoxShape(const lbShape* s, lbCastState* st, int shapeId)
{
	lbDCast lc = st->cast;
	lc.s = lbDFrameInvPoint(&s->boxFrame, st->cast.s);
	lc.d = lbDFrameInvDir(&s->boxFrame, st->cast.d);
	lbDContact c;
	if (lbCastBoxD(&lc, lbD3(s->halfExtents.x, s->halfExtents.y, s->halfExtents.z), st->bestT, &c))
	{
		c.n = lbDFrameDir(&s->boxFrame, c.n);
		c.p = lbDFramePoint(&s->boxFrame, c.p);
		lbCastRecord(st, &c, shapeId, 0);
	}
}

static lbVec3 lbFFromD(lbDVec3 v)
{
	return lbMakeVec3((float)v.x, (float)v.y, (float)v.z);
}

// The plane of the primitive a contact was recorded on (world), turned to face the same side as the
// contact normal `towards`; zero when the primitive is degenerate.
static lbVec3 lbShapeFaceNormal(const lbShape* s, int prim, lbDVec3 towards)
{
	lbDVec3 n = lbD3(0.0, 0.0, 0.0);
	if (s->kind == lb_shapeMesh && prim >= 0 && prim < s->mesh.triangleCount)
	{
		const float* v = &s->mesh.corners[9 * (size_t)prim];
		lbDVec3 a = lbD3(v[0], v[1], v[2]);
		n = lbDCross(lbDSub(lbD3(v[3], v[4], v[5]), a), lbDSub(lbD3(v[6], v[7], v[8]), a));
	}
	else if (s->kind == lb_shapeHeightfield && prim >= 0)
		n = lbHeightfieldFaceNormal(&s->hf, prim);
	else if (s->kind == lb_shapeBox)
	{
		// The face whose normal is nearest the contact normal: exact for a face contact, one of the
		// two or three faces meeting there for an edge or corner contact.
		lbDVec3 l = lbDFrameInvDir(&s->boxFrame, towards);
		double ax = fabs(l.x), ay = fabs(l.y), az = fabs(l.z);
		lbDVec3 f = ax >= ay && ax >= az ? lbD3(l.x, 0.0, 0.0) : (ay >= az ? lbD3(0.0, l.y, 0.0) : lbD3(0.0, 0.0, l.z));
		n = lbDFrameDir(&s->boxFrame, f);
	}
	double len = lbDLen(n);
	if (!(len > 1e-30))
		return lbVec3_zero;
	if (lbDDot(n, towards) < 0.0)
		len = -len;
	return lbMakeVec3((float)(n.x / len), (float)(n.y / len), (float)(n.z / len));
}

bool lbCastInit(lbCastState* st, lbVec3 start, lbVec3 end, float radius)
{
	return lbCastInitInline(st, start, end, radius);
}

// True when the fields the query reads (start; end unless an overlap; radius unless a ray) are finite.
// One vector pass over the input's first 32 bytes: a float is NaN or infinite when its exponent bits
// are all set.
static inline bool lbQueryInputFinite(const lbQueryInput* in, lbQueryMode mode)
{
#if defined(LB_SIMD_SSE)
	_Static_assert(offsetof(lbQueryInput, end) == 12 && offsetof(lbQueryInput, radius) == 24 &&
					   sizeof(lbQueryInput) >= 32,
				   "lbQueryInput layout");
	const __m128i e = _mm_set1_epi32(0x7f800000);
	__m128i a = _mm_loadu_si128((const __m128i*)(const void*)in);
	__m128i b = _mm_loadu_si128((const __m128i*)(const void*)((const char*)in + 16));
	int bad = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(a, e), e))) |
			  (_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(b, e), e))) << 4);
	// Bits: start 0..2, end 3..5, radius 6 (bit 7 is channelMask, never checked).
	int used = mode == lb_modeOverlap ? 0x47 : (mode == lb_modeRay ? 0x3f : 0x7f);
	return (bad & used) == 0;
#else
	return lbIsValidVec3(in->start) && (mode == lb_modeOverlap || lbIsValidVec3(in->end)) &&
		   (mode == lb_modeRay || lbIsValidFloat(in->radius));
#endif
}

// lbCastAabbEntry on a shape's bounds, all three axes in one vector pass: the same float operations in
// the same order per axis, so the same answer (used only to cull, compared against 1e38).
// Whether a query sees the shape: one of its channels in the query's mask, and not the owner the
// query ignores.
static inline bool lbShapeSeen(const lbShape* shape, const lbQueryInput* input)
{
	return (shape->channels & input->channelMask) != 0 &&
		   (input->ignoreOwnerId == LB_NO_OWNER || shape->ownerId != input->ignoreOwnerId);
}

static inline bool lbShapeEntered(const lbCastState* st, const lbShape* s, float grow, float tMax)
{
#if defined(LB_SIMD_SSE)
	// Four-float loads: boundsMin is followed by boundsMax, boundsMax by slop, origin by invDir and
	// invDir by radius, so lane 3 reads a neighbouring field; its result is discarded.
	__m128 g = _mm_set1_ps(grow);
	__m128 o = _mm_loadu_ps(st->origin), inv = _mm_loadu_ps(st->invDir);
	__m128 t1 = _mm_mul_ps(_mm_sub_ps(_mm_sub_ps(_mm_loadu_ps(s->boundsMin), g), o), inv);
	__m128 t2 = _mm_mul_ps(_mm_sub_ps(_mm_add_ps(_mm_loadu_ps(s->boundsMax), g), o), inv);
	__m128 lo = _mm_min_ps(t1, t2), hi = _mm_max_ps(t1, t2);
	// Lane 0 gathers axes 0, 1, 2 through two rotations. The times are finite (bounds below 1e17 m,
	// inverse directions capped at 1e20), so the maximum and minimum do not depend on the order; only
	// a zero's sign could, and the comparisons below do not see it.
#define LB_ROTATE(V, A, B) _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(V), _MM_SHUFFLE(3, 3, B, A)))
	__m128 enter = _mm_max_ss(_mm_max_ps(lo, LB_ROTATE(lo, 1, 2)), LB_ROTATE(lo, 2, 0));
	__m128 exit = _mm_min_ss(_mm_min_ps(hi, LB_ROTATE(hi, 1, 2)), LB_ROTATE(hi, 2, 0));
#undef LB_ROTATE
	float tEnter = lbMaxF(-3.0e38f, _mm_cvtss_f32(enter));
	float tExit = lbMinF(tMax, _mm_cvtss_f32(exit));
	return tEnter <= tExit && tExit >= 0.0f;
#else
	return lbCastAabbEntry(st, s->boundsMin, s->boundsMax, grow, tMax) <= 1.0e38f;
#endif
}

// A ray straight along the up axis of every grid in a world of unrotated heightfields alone (a
// foot's probe and footprint rays on terrain), ahead of lbWorldQuery at the ray entry points: the
// cast set up, each grid tested (lbHfVerticalRayHit) and the hit written as lbWorldQuery does, in
// the same arithmetic, without the cast's state record, the heightfield's dispatch and the copies
// of each contact through them. Worlds with another kind of shape never enter: their rays keep
// lbWorldQuery as it is. False, with *out untouched, wherever lbWorldQuery must answer (an input
// it refuses, a ray not straight along z, a rotated grid, a start on a cell's border or diagonal,
// a cast too long). One copy out of line for every entry point: a foot's frame runs more code than
// the instruction cache holds, and a copy inlined into each entry point was fetched again for each
// ray (callgrind's cache simulation: 64 more misses a character-frame, for 93 fewer instructions).

// lbWorldVerticalRay's search, shared with lbWorldVerticalPoint: false where lbWorldQuery must
// answer; else the cast (start s, length len, direction (0, 0, dirZ)) and the nearest grid contact,
// *outShape LB_NULL_INDEX when there is none. The contact's normal only when outN is not NULL.
// The search over a world's shapes (`shapes`, `shapeCount`) past the world's own tests, which a
// batch makes once (lbWorldGridPoints) instead of once a ray.
static LB_ALWAYS_INLINE bool lbWorldVerticalFindIn(const lbShape* shapes, int shapeCount, const lbQueryInput* input, lbDVec3* outS,
										 double* outDirZ, double* outLen, double* outT, lbDVec3* outN, int* outShape, int* outPrim)
{
	const lbVec3 start = input->start, end = input->end;
	if (start.x != end.x || start.y != end.y || !lbQueryInputFinite(input, lb_modeRay))
		return false;
	// lbCastInitCast's cast: start and end differ along z alone, so the direction is exactly 0 along
	// x and y, as the grids' vertical test asks. Its length is |dz| exactly: the sum 0 + 0 + dz dz is
	// the rounded square, whose square root is |dz| to the bit (binary floating point), so neither
	// the square nor the root is taken.
	const lbDVec3 s = lbD3(start.x, start.y, start.z);
	const double dz = (double)end.z - s.z;
	const double len = fabs(dz);
	if (!(len < 1e30))
		return false;
	const double dirZ = len > 0.0 ? dz * (1.0 / len) : 1.0;
	double bestT = len;
	int hitShape = LB_NULL_INDEX, hitPrim = LB_NULL_INDEX;
	for (int i = 0; i < shapeCount; ++i)
	{
		const lbShape* shape = &shapes[i];
		if (!lbShapeSeen(shape, input))
			continue;
		if (!shape->hf.flat)
			return false;
		double t;
		lbDVec3 n;
		int prim;
		// The nearest time so far bounds the next grid's; lbCastRecord keeps the first of equal times.
		const int found = lbHfVerticalRayHit(&shape->hf, s, dirZ, bestT, &t, outN ? &n : NULL, &prim);
		if (found < 0)
			return false;
		if (found > 0 && (hitShape == LB_NULL_INDEX || t < bestT))
		{
			bestT = t;
			if (outN)
				*outN = n;
			hitShape = i;
			hitPrim = prim;
		}
	}
	*outS = s;
	*outDirZ = dirZ;
	*outLen = len;
	*outT = bestT;
	*outShape = hitShape;
	*outPrim = hitPrim;
	return true;
}

static LB_ALWAYS_INLINE bool lbWorldVerticalFind(const lbWorld* world, const lbQueryInput* input, lbDVec3* outS, double* outDirZ,
									   double* outLen, double* outT, lbDVec3* outN, int* outShape, int* outPrim)
{
	if (!world || !input || world->heightfieldCount != world->shapeCount)
		return false;
	return lbWorldVerticalFindIn(world->shapes, world->shapeCount, input, outS, outDirZ, outLen, outT, outN, outShape, outPrim);
}

// lbFFromD(lbDMulAdd(s, t, d)) for the vertical cast: along x and y the start plus t times +0 (t is
// finite and not negative), which is the start itself but for a -0 start, made +0 as that sum makes it.
static inline lbVec3 lbWorldVerticalPointAt(const lbQueryInput* input, lbDVec3 s, double t, double dirZ)
{
	return lbMakeVec3(input->start.x + 0.0f, input->start.y + 0.0f, (float)(s.z + t * dirZ));
}

static LB_NOINLINE bool lbWorldVerticalRay(const lbWorld* world, const lbQueryInput* input, lbHit* out)
{
	lbDVec3 s, bestN = lbD3(0.0, 0.0, 0.0);
	double dirZ, len, bestT;
	int hitShape, hitPrim;
	if (!lbWorldVerticalFind(world, input, &s, &dirZ, &len, &bestT, &bestN, &hitShape, &hitPrim))
		return false;
	*out = lbMakeEmptyHit();
	if (hitShape == LB_NULL_INDEX)
		return true;
	out->hit = true;
	out->location = lbWorldVerticalPointAt(input, s, bestT, dirZ);
	out->impactPoint = out->location;
	out->normal = lbNormalizeOr(lbFFromD(bestN), lbVec3_axisZ);
	out->fraction = len > 0.0 ? (float)(bestT / len) : 0.0f;
	out->fraction = lbClampF(out->fraction, 0.0f, 1.0f);
	out->distance = (float)bestT;
	out->shapeId = hitShape;
	out->primitiveIndex = hitPrim;
	// A ray's contact lies inside a face: the face's normal is its own.
	out->faceNormal = out->normal;
	out->ownerId = world->shapes[hitShape].ownerId;
	out->channels = world->shapes[hitShape].channels;
	return true;
}

// lbWorldVerticalRay's hit point alone (lbQueryPointBatchFcn's answer): no normal (its square root
// and normalisation), fraction or ids. False, with nothing written, where lbWorldQuery must answer.
// A world of heightfields alone (its shapes given), a ray that is not NULL.
static LB_ALWAYS_INLINE bool lbWorldVerticalPoint(const lbShape* shapes, int shapeCount, const lbQueryInput* input, lbVec3* outPoint,
										bool* outValid)
{
	lbDVec3 s;
	double dirZ, len, bestT;
	int hitShape, hitPrim;
	if (!lbWorldVerticalFindIn(shapes, shapeCount, input, &s, &dirZ, &len, &bestT, NULL, &hitShape, &hitPrim))
		return false;
	*outValid = hitShape != LB_NULL_INDEX;
	*outPoint = *outValid ? lbWorldVerticalPointAt(input, s, bestT, dirZ) : lbVec3_zero;
	return true;
}

// Writes the result straight into *out (the caller's return slot) rather than returning a copy.
// Inlined into each entry point, so each is compiled for its own mode (a foot's ray or sphere cast
// on a heightfield: about 40 fewer instructions each). `pointOnly` (lbWorld_RayPointBatch): of a
// hit only hit, startedInside, status, location and impactPoint are written, the rest left empty.
static LB_ALWAYS_INLINE void lbWorldQuery(const lbWorld* world, const lbQueryInput* input, lbQueryMode mode, const char* fn, lbHit* out,
								bool pointOnly)
{
	*out = lbMakeEmptyHit();
	lbHit* hit = out;
	if (!world || !input)
	{
		hit->status = lbReport(lb_errorNullPointer, "%s: world or input is NULL", fn);
		return;
	}
	lbVec3 start = input->start, end = mode == lb_modeOverlap ? input->start : input->end;
	float radius = mode == lb_modeRay ? 0.0f : input->radius;
	if (!lbQueryInputFinite(input, mode))
	{
		hit->status = lbReport(lb_errorNonFinite, "%s: start, end or radius is NaN or infinite", fn);
		return;
	}
	if (radius < 0.0f)
	{
		hit->status = lbReport(lb_errorInvalidArgument, "%s: radius %g is negative", fn, (double)radius);
		return;
	}
	lbCastState st;
	if (!lbCastInitCast(&st, start, end, radius))
	{
		hit->status = lbReport(lb_errorInvalidArgument, "%s: cast is too long", fn);
		return;
	}
	const lbDVec3 s = st.cast.s;
	const double len = st.cast.len;

	// The float copies the bounds test and the mesh traversal read: a world of heightfields needs none.
	if (world->heightfieldCount < world->shapeCount)
		lbCastInitBoxes(&st, start);
	for (int i = 0; i < world->shapeCount; ++i)
	{
		const lbShape* shape = &world->shapes[i];
		if (!lbShapeSeen(shape, input))
			continue;
		// A heightfield's cast starts by clipping the cast to its own box (grown by the radius), and
		// records only contacts before the best time so far: the bounds test would only repeat that,
		// and can rule out nothing the cast finds (it is conservative), so the hits are the same.
		if (shape->kind == lb_shapeHeightfield)
		{
			lbHeightfieldCast(&shape->hf, &st, i);
			continue;
		}
		float grow = radius + shape->slop;
		if (!lbShapeEntered(&st, shape, grow, (float)st.bestT + grow))
			continue;
		if (shape->kind == lb_shapeMesh)
			lbMeshCast(&shape->mesh, &st, i);
		else if (shape->kind == lb_shapeBox)
			lbCastBoxShape(shape, &st, i);
	}

	if (st.inside)
	{
		hit->hit = true;
		hit->startedInside = true;
		hit->location = start;
		hit->impactPoint = lbFFromD(st.deepest.p);
		if (pointOnly)
			return;
		hit->normal = lbNormalizeOr(lbFFromD(st.deepest.n), lbVec3_axisZ);
		hit->fraction = 0.0f;
		hit->distance = 0.0f;
		hit->penetrationDepth = (float)st.deepest.depth;
		hit->shapeId = st.insideShape;
		hit->primitiveIndex = st.insidePrim;
	}
	else if (st.hasHit && mode != lb_modeOverlap)
	{
		hit->hit = true;
		hit->location = lbFFromD(lbDMulAdd(s, st.hit.t, st.cast.d));
		hit->impactPoint = mode == lb_modeRay || radius == 0.0f ? hit->location : lbFFromD(st.hit.p);
		if (pointOnly)
			return;
		hit->normal = lbNormalizeOr(lbFFromD(st.hit.n), lbVec3_axisZ);
		hit->fraction = len > 0.0 ? (float)(st.hit.t / len) : 0.0f;
		hit->fraction = lbClampF(hit->fraction, 0.0f, 1.0f);
		hit->distance = (float)st.hit.t;
		hit->shapeId = st.hitShape;
		hit->primitiveIndex = st.hitPrim;
	}
	if (hit->hit)
	{
		const lbDContact* c = st.inside ? &st.deepest : &st.hit;
		// A ray's normal, and a sphere's touching inside a face, is the face's own (heightfields
		// and meshes say which of their sphere contacts were; a foot's probe rests inside a face
		// most of the time): only an edge or vertex contact, or an overlap, needs its primitive's
		// plane.
		hit->faceNormal = (mode == lb_modeRay || st.hitOnFace) && !st.inside
							  ? hit->normal
							  : lbShapeFaceNormal(&world->shapes[hit->shapeId], hit->primitiveIndex, c->n);
		hit->ownerId = world->shapes[hit->shapeId].ownerId;
		hit->channels = world->shapes[hit->shapeId].channels;
	}
	return;
}

// The general ray path out of line, for the entry points that try lbWorldVerticalRay first: the
// general path is not copied into each of them, and they stay two calls.
static LB_NOINLINE void lbWorldRayGeneral(const lbWorld* world, const lbQueryInput* input, const char* fn, lbHit* out)
{
	lbWorldQuery(world, input, lb_modeRay, fn, out, false);
}

lbHit lbWorld_RayCast(const lbWorld* world, const lbQueryInput* input)
{
	lbHit hit;
	// Only a world of heightfields alone can take the vertical path: any other skips its call.
	if (!world || world->heightfieldCount != world->shapeCount || !lbWorldVerticalRay(world, input, &hit))
		lbWorldRayGeneral(world, input, "lbWorld_RayCast", &hit);
	return hit;
}

lbHit lbWorld_SphereCast(const lbWorld* world, const lbQueryInput* input)
{
	lbHit hit;
	lbWorldQuery(world, input, lb_modeSphere, "lbWorld_SphereCast", &hit, false);
	return hit;
}

lbHit lbWorld_SphereOverlap(const lbWorld* world, const lbQueryInput* input)
{
	lbHit hit;
	lbWorldQuery(world, input, lb_modeOverlap, "lbWorld_SphereOverlap", &hit, false);
	return hit;
}

void lbWorld_RayCastBatch(const lbWorld* world, const lbQueryInput* inputs, int count, lbHit* outHits)
{
	const char* fn = "lbWorld_RayCastBatch";
	if (!outHits || count <= 0)
		return;
	if (!world || !inputs)
	{
		lbResult status = lbReport(lb_errorNullPointer, "%s: world or inputs is NULL", fn);
		for (int k = 0; k < count; ++k)
		{
			outHits[k] = lbMakeEmptyHit();
			outHits[k].status = status;
		}
		return;
	}
	// Each ray through the whole single-ray path, so its hit is lbWorld_RayCast's to the bit. Running
	// the rays through each shape together (a loop over the rays inside the loop over the shapes)
	// measured about 40 instructions a ray more on a heightfield: the hit's set-up and its fill no
	// longer meet in one place, and the rays' states live in an array. Only the call is shared.
	// A world of heightfields alone tries each ray's vertical path first (lbWorldVerticalRay); any
	// other world's loop is left as it was.
	if (world->heightfieldCount == world->shapeCount)
	{
		for (int k = 0; k < count; ++k)
			if (!lbWorldVerticalRay(world, &inputs[k], &outHits[k]))
				lbWorldRayGeneral(world, &inputs[k], fn, &outHits[k]);
		return;
	}
	for (int k = 0; k < count; ++k)
		lbWorldQuery(world, &inputs[k], lb_modeRay, fn, &outHits[k], false);
}

// A hit's stopping point as lbQueryPointBatchFcn gives it.
static inline void lbHitPoint(const lbHit* h, const lbQueryInput* input, lbVec3* outPoint, bool* outValid)
{
	*outValid = h->hit && h->status == lb_ok;
	*outPoint = !*outValid ? lbVec3_zero : (h->startedInside ? input->start : h->impactPoint);
}

// lbWorld_RayPointBatch's rays in a world of heightfields alone, in one out-of-line loop (one call
// and one register save for the batch, not one a ray): the vertical path, else the general one.
// The world and the inputs are not NULL and the world holds heightfields alone (the caller's tests):
// its shapes are read once for the batch, not again after each ray's writes.
static LB_NOINLINE void lbWorldGridPoints(const lbWorld* world, const lbQueryInput* inputs, int count, lbVec3* outPoints, bool* outValid)
{
	const lbShape* shapes = world->shapes;
	const int shapeCount = world->shapeCount;
	for (int k = 0; k < count; ++k)
	{
		if (lbWorldVerticalPoint(shapes, shapeCount, &inputs[k], &outPoints[k], &outValid[k]))
			continue;
		lbHit h;
		lbWorldRayGeneral(world, &inputs[k], "lbWorld_RayPointBatch", &h);
		lbHitPoint(&h, &inputs[k], &outPoints[k], &outValid[k]);
	}
}

// lbWorld_RayPointBatch's rays in any other world: the general path, without the hit's normal,
// fraction and ids. Out of line, so a grid world's batch does not pay for its set-up; the query of a
// world made with another kind of shape calls it straight (lbWorldGeneralPointBatchFcn).
static LB_NOINLINE void lbWorldGeneralPoints(const lbWorld* world, const lbQueryInput* inputs, int count, lbVec3* outPoints, bool* outValid)
{
	for (int k = 0; k < count; ++k)
	{
		lbHit h;
		lbWorldQuery(world, &inputs[k], lb_modeRay, "lbWorld_RayPointBatch", &h, true);
		lbHitPoint(&h, &inputs[k], &outPoints[k], &outValid[k]);
	}
}

void lbWorld_RayPointBatch(const lbWorld* world, const lbQueryInput* inputs, int count, lbVec3* outPoints, bool* outValid)
{
	if (!outPoints || !outValid || count <= 0)
		return;
	if (!world || !inputs)
	{
		lbReport(lb_errorNullPointer, "lbWorld_RayPointBatch: world or inputs is NULL");
		for (int k = 0; k < count; ++k)
		{
			outPoints[k] = lbVec3_zero;
			outValid[k] = false;
		}
		return;
	}
	// Each ray as lbWorld_RayCastBatch casts it; where the vertical path answers, only the point is made.
	if (world->heightfieldCount == world->shapeCount)
	{
		lbWorldGridPoints(world, inputs, count, outPoints, outValid);
		return;
	}
	lbWorldGeneralPoints(world, inputs, count, outPoints, outValid);
}

// The scene-query entry points write straight into the caller's hit, without the copy through a
// returned value.
static void lbWorldRayFcn(void* context, const lbQueryInput* input, lbHit* outHit)
{
	lbWorldQuery((const lbWorld*)context, input, lb_modeRay, "lbWorld_RayCast", outHit, false);
}

// lbWorldRayFcn for a world of heightfields alone when its query was made: shapes are only ever
// added, so a world with another kind of shape keeps lbWorldRayFcn without the test per ray; this
// one tests still, for shapes added since.
static void lbWorldGridRayFcn(void* context, const lbQueryInput* input, lbHit* outHit)
{
	if (!lbWorldVerticalRay((const lbWorld*)context, input, outHit))
		lbWorldRayGeneral((const lbWorld*)context, input, "lbWorld_RayCast", outHit);
}

static void lbWorldSphereFcn(void* context, const lbQueryInput* input, lbHit* outHit)
{
	lbWorldQuery((const lbWorld*)context, input, lb_modeSphere, "lbWorld_SphereCast", outHit, false);
}

static void lbWorldOverlapFcn(void* context, const lbQueryInput* input, lbHit* outHit)
{
	lbWorldQuery((const lbWorld*)context, input, lb_modeOverlap, "lbWorld_SphereOverlap", outHit, false);
}

static void lbWorldRayBatchFcn(void* context, const lbQueryInput* inputs, int count, lbHit* outHits)
{
	lbWorld_RayCastBatch((const lbWorld*)context, inputs, count, outHits);
}

static void lbWorldRayPointBatchFcn(void* context, const lbQueryInput* inputs, int count, lbVec3* outPoints, bool* outValid)
{
	lbWorld_RayPointBatch((const lbWorld*)context, inputs, count, outPoints, outValid);
}

// lbWorldRayPointBatchFcn for a world that held another kind of shape when its query was made:
// shapes are only ever added, so its rays always take the general path, without the test.
static void lbWorldGeneralPointBatchFcn(void* context, const lbQueryInput* inputs, int count, lbVec3* outPoints, bool* outValid)
{
	const lbWorld* world = (const lbWorld*)context;
	if (!world || !inputs || !outPoints || !outValid || count <= 0)
	{
		lbWorld_RayPointBatch(world, inputs, count, outPoints, outValid);
		return;
	}
	lbWorldGeneralPoints(world, inputs, count, outPoints, outValid);
}

void lbWorld_PrefetchCasts(const lbWorld* world, const lbQueryInput* inputs, int count)
{
	// Only mesh trees are walked ahead: a world of heightfields and boxes has nothing to prefetch.
	if (!world || !inputs || world->meshCount == 0)
		return;
	// Groups of LB_PREFETCH_GROUP casts walk the trees together; more would only evict each other.
	for (int first = 0; first < count; first += LB_PREFETCH_GROUP)
	{
		lbCastState states[LB_PREFETCH_GROUP];
		const lbQueryInput* in[LB_PREFETCH_GROUP];
		int n = 0;
		for (int i = first; i < count && i < first + LB_PREFETCH_GROUP; ++i)
		{
			const lbQueryInput* q = &inputs[i];
			if (!lbQueryInputFinite(q, lb_modeSphere) || q->radius < 0.0f)
				continue;
			if (lbCastInitInline(&states[n], q->start, q->end, q->radius))
				in[n++] = q;
		}
		for (int k = 0; k < world->shapeCount; ++k)
		{
			const lbShape* shape = &world->shapes[k];
			if (shape->kind != lb_shapeMesh)
				continue;
			const lbCastState* walk[LB_PREFETCH_GROUP];
			int m = 0;
			for (int i = 0; i < n; ++i)
			{
				if ((shape->channels & in[i]->channelMask) == 0 ||
					(in[i]->ignoreOwnerId != LB_NO_OWNER && shape->ownerId == in[i]->ignoreOwnerId))
					continue;
				float grow = states[i].radius + shape->slop;
				if (lbShapeEntered(&states[i], shape, grow, (float)states[i].bestT + grow))
					walk[m++] = &states[i];
			}
			if (m > 0)
				lbMeshPrefetchCasts(&shape->mesh, walk, m);
		}
	}
}

static void lbWorldPrefetchFcn(void* context, const lbQueryInput* inputs, int count)
{
	lbWorld_PrefetchCasts((const lbWorld*)context, inputs, count);
}

lbSceneQuery lbWorld_GetQuery(const lbWorld* world)
{
	lbSceneQuery q;
	// Only mesh trees are walked ahead: without one, callers see no prefetch and skip working out
	// what to announce (the foot crowd on a heightfield: about 600 instructions a character-frame).
	q.prefetch = world && world->meshCount > 0 ? lbWorldPrefetchFcn : NULL;
	q.rayCast = world && world->heightfieldCount < world->shapeCount ? lbWorldRayFcn : lbWorldGridRayFcn;
	q.sphereCast = lbWorldSphereFcn;
	q.sphereOverlap = lbWorldOverlapFcn;
	q.rayCastBatch = lbWorldRayBatchFcn;
	q.rayPointBatch = world && world->heightfieldCount < world->shapeCount ? lbWorldGeneralPointBatchFcn : lbWorldRayPointBatchFcn;
	// The query never writes through the context; the cast away from const is for the generic slot.
	q.context = (void*)(uintptr_t)world;
	return q;
}
