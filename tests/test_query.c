// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Scene queries: analytic cases per shape kind, the edge cases (parallel, grazing, start inside, zero
// length, zero radius, huge coordinates, NaN/inf input, empty world) and filtering.
#include "limber/limber.h"
#include "test_macros.h"

#include <stdlib.h>

static lbQueryInput Cast(lbVec3 a, lbVec3 b, float r)
{
	lbQueryInput in = lbDefaultQueryInput();
	in.start = a;
	in.end = b;
	in.radius = r;
	return in;
}

// A square of two triangles at height h in the XY plane, side 2e, centred at the origin.
static int AddQuad(lbWorld* w, float e, float h, uint32_t channels, uint32_t owner)
{
	lbVec3 v[4] = { { -e, -e, h }, { e, -e, h }, { e, e, h }, { -e, e, h } };
	int32_t idx[6] = { 0, 1, 2, 0, 2, 3 };
	lbMeshDef def = lbDefaultMeshDef();
	def.vertices = v;
	def.vertexCount = 4;
	def.indices = idx;
	def.triangleCount = 2;
	def.channels = channels;
	def.ownerId = owner;
	return lbWorld_AddMesh(w, &def);
}

static bool HitIsFinite(const lbHit* h)
{
	return lbIsValidVec3(h->location) && lbIsValidVec3(h->impactPoint) && lbIsValidVec3(h->normal) &&
		   lbIsValidFloat(h->fraction) && lbIsValidFloat(h->distance) && lbIsValidFloat(h->penetrationDepth);
}

static void MeshRayAndSphere(void)
{
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	ENSURE(w != NULL);
	int id = AddQuad(w, 5.0f, 0.0f, LB_CHANNEL_GROUND, 0);
	ENSURE(id == 0);
	lbSceneQuery q = lbWorld_GetQuery(w);

	lbQueryInput in = Cast(lbMakeVec3(0.3f, -0.7f, 1.0f), lbMakeVec3(0.3f, -0.7f, -1.0f), 0.0f);
	lbHit h = lbRayCast(&q, &in);
	ENSURE(h.hit && !h.startedInside && h.status == lb_ok);
	ENSURE_NEAR(h.distance, 1.0f, 1e-6f);
	ENSURE_NEAR(h.fraction, 0.5f, 1e-6f);
	ENSURE_VEC3_NEAR(h.location, lbMakeVec3(0.3f, -0.7f, 0.0f), 1e-6f);
	ENSURE_VEC3_NEAR(h.impactPoint, h.location, 1e-6f);
	ENSURE_VEC3_NEAR(h.normal, lbVec3_axisZ, 1e-6f);
	ENSURE(h.shapeId == 0 && h.channels == LB_CHANNEL_GROUND);

	// From below, the normal faces the caster.
	in = Cast(lbMakeVec3(1.0f, 1.0f, -2.0f), lbMakeVec3(1.0f, 1.0f, 2.0f), 0.0f);
	h = lbRayCast(&q, &in);
	ENSURE(h.hit);
	ENSURE_VEC3_NEAR(h.normal, lbMakeVec3(0, 0, -1), 1e-6f);
	ENSURE_NEAR(h.distance, 2.0f, 1e-6f);

	// Sphere: the centre stops one radius above the plane, contact right below it.
	in = Cast(lbMakeVec3(0.0f, 2.0f, 1.5f), lbMakeVec3(0.0f, 2.0f, -1.5f), 0.03f);
	h = lbSphereCast(&q, &in);
	ENSURE(h.hit && !h.startedInside);
	ENSURE_VEC3_NEAR(h.location, lbMakeVec3(0.0f, 2.0f, 0.03f), 1e-6f);
	ENSURE_VEC3_NEAR(h.impactPoint, lbMakeVec3(0.0f, 2.0f, 0.0f), 1e-6f);
	ENSURE_NEAR(h.distance, 1.47f, 1e-6f);
	ENSURE_VEC3_NEAR(h.normal, lbVec3_axisZ, 1e-6f);

	// Sphere passing beside the edge touches it as a capsule: x = 5 edge, centre at x = 5 + 0.1,
	// radius 0.2 -> contact when the height is sqrt(0.2^2 - 0.1^2) above the plane.
	in = Cast(lbMakeVec3(5.1f, 0.0f, 1.0f), lbMakeVec3(5.1f, 0.0f, -1.0f), 0.2f);
	h = lbSphereCast(&q, &in);
	ENSURE(h.hit);
	float hz = sqrtf(0.2f * 0.2f - 0.1f * 0.1f);
	ENSURE_NEAR(h.location.z, hz, 1e-5f);
	ENSURE_VEC3_NEAR(h.impactPoint, lbMakeVec3(5.0f, 0.0f, 0.0f), 1e-5f);
	ENSURE_VEC3_NEAR(h.normal, lbNormalize(lbMakeVec3(0.1f, 0.0f, hz)), 1e-5f);

	// Vertex: sphere coming down diagonally next to the corner (5, 5, 0).
	in = Cast(lbMakeVec3(5.1f, 5.1f, 1.0f), lbMakeVec3(5.1f, 5.1f, -1.0f), 0.2f);
	h = lbSphereCast(&q, &in);
	ENSURE(h.hit);
	ENSURE_VEC3_NEAR(h.impactPoint, lbMakeVec3(5.0f, 5.0f, 0.0f), 1e-5f);
	ENSURE_NEAR(h.location.z, sqrtf(0.04f - 0.02f), 1e-5f);

	// Miss beside the mesh.
	in = Cast(lbMakeVec3(5.3f, 0.0f, 1.0f), lbMakeVec3(5.3f, 0.0f, -1.0f), 0.2f);
	h = lbSphereCast(&q, &in);
	ENSURE(!h.hit && h.status == lb_ok && h.shapeId == LB_NULL_INDEX);
	lbDestroyWorld(w);
}

static void BoxCasts(void)
{
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	lbBoxDef bd = lbDefaultBoxDef();
	bd.transform = lbMakeTransform(lbMakeVec3(2.0f, 0.0f, 0.0f), lbQuatFromAxisAngle(lbVec3_axisZ, 0.5f));
	bd.halfExtents = lbMakeVec3(0.5f, 1.0f, 0.25f);
	bd.channels = LB_CHANNEL_WALL;
	ENSURE(lbWorld_AddBox(w, &bd) == 0);
	// Ray along the box's local -X face normal, into the face centre.
	lbVec3 ax = lbQuatRotate(bd.transform.q, lbVec3_axisX);
	lbVec3 from = lbMulAdd(bd.transform.p, -3.0f, ax);
	lbQueryInput in = Cast(from, bd.transform.p, 0.0f);
	lbHit h = lbWorld_RayCast(w, &in);
	ENSURE(h.hit);
	ENSURE_NEAR(h.distance, 2.5f, 1e-5f);
	ENSURE_VEC3_NEAR(h.normal, lbNeg(ax), 1e-5f);
	// Sphere along the same line stops r earlier.
	in.radius = 0.1f;
	h = lbWorld_SphereCast(w, &in);
	ENSURE(h.hit);
	ENSURE_NEAR(h.distance, 2.4f, 1e-5f);
	ENSURE_VEC3_NEAR(h.impactPoint, lbMulAdd(bd.transform.p, -0.5f, ax), 1e-5f);
	// Ray starting inside: started inside, nearest face is the local +-Z face (half 0.25).
	in = Cast(lbAdd(bd.transform.p, lbMakeVec3(0.0f, 0.0f, 0.05f)), lbMakeVec3(10, 0, 0), 0.0f);
	h = lbWorld_RayCast(w, &in);
	ENSURE(h.hit && h.startedInside);
	ENSURE_NEAR(h.fraction, 0.0f, 0.0f);
	ENSURE_NEAR(h.penetrationDepth, 0.2f, 1e-5f);
	ENSURE_VEC3_NEAR(h.normal, lbVec3_axisZ, 1e-5f);
	ENSURE_VEC3_NEAR(h.location, in.start, 0.0f);
	// Sphere overlap with its centre outside: depth = r - distance, normal away from the box.
	in = Cast(lbAdd(bd.transform.p, lbMakeVec3(0.0f, 0.0f, 0.3f)), lbVec3_zero, 0.1f);
	h = lbWorld_SphereOverlap(w, &in);
	ENSURE(h.hit && h.startedInside);
	ENSURE_NEAR(h.penetrationDepth, 0.05f, 1e-5f);
	ENSURE_VEC3_NEAR(h.normal, lbVec3_axisZ, 1e-5f);
	ENSURE_VEC3_NEAR(h.impactPoint, lbAdd(bd.transform.p, lbMakeVec3(0.0f, 0.0f, 0.25f)), 1e-5f);
	in.radius = 0.04f;
	h = lbWorld_SphereOverlap(w, &in);
	ENSURE(!h.hit);
	lbDestroyWorld(w);
}

static void HeightfieldCasts(void)
{
	// Plane z = 0.1 x + 0.2 y + 0.5 sampled on a grid: exact for any triangulation.
	enum
	{
		NX = 9,
		NY = 7
	};
	float heights[NX * NY];
	float cs = 0.5f;
	for (int j = 0; j < NY; ++j)
		for (int i = 0; i < NX; ++i)
			heights[j * NX + i] = 0.1f * (float)i * cs + 0.2f * (float)j * cs + 0.5f;
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	lbHeightfieldDef hd = lbDefaultHeightfieldDef();
	hd.heights = heights;
	hd.countX = NX;
	hd.countY = NY;
	hd.cellSize = cs;
	ENSURE(lbWorld_AddHeightfield(w, &hd) == 0);
	lbVec3 n = lbNormalize(lbMakeVec3(-0.1f, -0.2f, 1.0f));
	lbTestRng rng = { 11 };
	for (int k = 0; k < 200; ++k)
	{
		float x = lbTestUniform(&rng, 0.2f, 3.8f), y = lbTestUniform(&rng, 0.2f, 2.8f);
		float z = 0.1f * x + 0.2f * y + 0.5f;
		lbQueryInput in = Cast(lbMakeVec3(x, y, 3.0f), lbMakeVec3(x, y, -1.0f), 0.0f);
		lbHit h = lbWorld_RayCast(w, &in);
		ENSURE(h.hit);
		ENSURE_NEAR(h.location.z, z, 1e-5f);
		ENSURE_VEC3_NEAR(h.normal, n, 1e-5f);
		in.radius = 0.05f;
		h = lbWorld_SphereCast(w, &in);
		ENSURE(h.hit);
		// Centre stops where its distance to the plane equals r: dz = r / n.z.
		ENSURE_NEAR(h.location.z, z + 0.05f / n.z, 1e-5f);
		ENSURE_VEC3_NEAR(h.normal, n, 1e-5f);
	}
	// A slanted cast across many cells finds the plane where it crosses it.
	lbQueryInput in = Cast(lbMakeVec3(-1.0f, -1.0f, 2.5f), lbMakeVec3(5.0f, 4.0f, 0.0f), 0.0f);
	lbHit h = lbWorld_RayCast(w, &in);
	ENSURE(h.hit);
	ENSURE_NEAR(h.location.z, 0.1f * h.location.x + 0.2f * h.location.y + 0.5f, 1e-5f);
	lbDestroyWorld(w);
}

static void ChannelsAndOwners(void)
{
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	AddQuad(w, 2.0f, 0.0f, LB_CHANNEL_GROUND, 0);
	AddQuad(w, 2.0f, 1.0f, LB_CHANNEL_CLIMBABLE | LB_CHANNEL_USER(3), 42);
	lbQueryInput in = Cast(lbMakeVec3(0, 0, 3), lbMakeVec3(0, 0, -3), 0.0f);
	lbHit h = lbWorld_RayCast(w, &in);
	ENSURE(h.hit && h.shapeId == 1 && h.ownerId == 42u);
	in.channelMask = LB_CHANNEL_GROUND;
	h = lbWorld_RayCast(w, &in);
	ENSURE(h.hit && h.shapeId == 0);
	in.channelMask = LB_CHANNEL_USER(3);
	h = lbWorld_RayCast(w, &in);
	ENSURE(h.hit && h.shapeId == 1);
	in.channelMask = LB_CHANNEL_WALL;
	h = lbWorld_RayCast(w, &in);
	ENSURE(!h.hit);
	in.channelMask = LB_CHANNEL_ALL;
	in.ignoreOwnerId = 42;
	h = lbWorld_SphereCast(w, &in);
	ENSURE(h.hit && h.shapeId == 0);
	in.ignoreOwnerId = 7;
	h = lbWorld_SphereCast(w, &in);
	ENSURE(h.hit && h.shapeId == 1);
	lbDestroyWorld(w);
}

static void EdgeCases(void)
{
	LogCapture cap = { 0 };
	lbSetLogFcn(CaptureLog, &cap);
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);

	// Empty world: no hit, no error.
	lbQueryInput in = Cast(lbMakeVec3(0, 0, 1), lbMakeVec3(0, 0, -1), 0.1f);
	lbHit h = lbWorld_SphereCast(w, &in);
	ENSURE(!h.hit && h.status == lb_ok && cap.count == 0);
	h = lbWorld_SphereOverlap(w, &in);
	ENSURE(!h.hit && h.status == lb_ok);

	AddQuad(w, 1.0f, 0.0f, LB_CHANNEL_GROUND, 0);
	// Parallel above the triangle: miss. Coplanar: miss (no area faces the ray), no NaN.
	in = Cast(lbMakeVec3(-2, 0.3f, 0.5f), lbMakeVec3(2, 0.3f, 0.5f), 0.0f);
	h = lbWorld_RayCast(w, &in);
	ENSURE(!h.hit);
	in = Cast(lbMakeVec3(-2, 0.3f, 0.0f), lbMakeVec3(2, 0.3f, 0.0f), 0.0f);
	h = lbWorld_RayCast(w, &in);
	ENSURE(!h.hit && HitIsFinite(&h));
	// A sphere sliding parallel to the plane at exactly r or more never touches it...
	in = Cast(lbMakeVec3(-2, 0.3f, 0.2f), lbMakeVec3(2, 0.3f, 0.2f), 0.19f);
	h = lbWorld_SphereCast(w, &in);
	ENSURE(!h.hit);
	// ...but one moving in the plane hits the edge x = -1 as a capsule, head on.
	in = Cast(lbMakeVec3(-2, 0.3f, 0.0f), lbMakeVec3(2, 0.3f, 0.0f), 0.1f);
	h = lbWorld_SphereCast(w, &in);
	ENSURE(h.hit);
	ENSURE_NEAR(h.distance, 0.9f, 1e-5f);
	ENSURE_VEC3_NEAR(h.normal, lbMakeVec3(-1, 0, 0), 1e-5f);

	// Grazing an edge / vertex exactly with a ray: counts as a hit on the boundary.
	in = Cast(lbMakeVec3(1.0f, 0.3f, 1.0f), lbMakeVec3(1.0f, 0.3f, -1.0f), 0.0f);
	h = lbWorld_RayCast(w, &in);
	ENSURE(h.hit);
	ENSURE_NEAR(h.distance, 1.0f, 1e-6f);
	in = Cast(lbMakeVec3(1.0f, 1.0f, 1.0f), lbMakeVec3(1.0f, 1.0f, -1.0f), 0.0f);
	h = lbWorld_RayCast(w, &in);
	ENSURE(h.hit);
	// Through the shared diagonal: hit once, not missed between the two triangles.
	in = Cast(lbMakeVec3(0.25f, 0.25f, 1.0f), lbMakeVec3(0.25f, 0.25f, -1.0f), 0.0f);
	h = lbWorld_RayCast(w, &in);
	ENSURE(h.hit);
	// A sphere grazing the edge at exactly distance r along the way: touching, from the side.
	in = Cast(lbMakeVec3(1.1f, -3.0f, 0.0f), lbMakeVec3(1.1f, 3.0f, 0.0f), 0.1f);
	h = lbWorld_SphereCast(w, &in);
	ENSURE(!h.hit || lbAbsF(h.location.x - 1.1f) < 1e-6f);
	ENSURE(HitIsFinite(&h));

	// Start inside (sphere overlapping the mesh at the start).
	in = Cast(lbMakeVec3(0.2f, 0.2f, 0.05f), lbMakeVec3(0.2f, 0.2f, 2.0f), 0.1f);
	h = lbWorld_SphereCast(w, &in);
	ENSURE(h.hit && h.startedInside);
	ENSURE_NEAR(h.fraction, 0.0f, 0.0f);
	ENSURE_NEAR(h.penetrationDepth, 0.05f, 1e-6f);
	ENSURE_VEC3_NEAR(h.normal, lbVec3_axisZ, 1e-6f);
	ENSURE_VEC3_NEAR(h.impactPoint, lbMakeVec3(0.2f, 0.2f, 0.0f), 1e-6f);

	// Zero length: a sphere cast reports only a start overlap; a ray nothing unless on the surface.
	in = Cast(lbMakeVec3(0.2f, 0.2f, 0.5f), lbMakeVec3(0.2f, 0.2f, 0.5f), 0.1f);
	h = lbWorld_SphereCast(w, &in);
	ENSURE(!h.hit && h.status == lb_ok && HitIsFinite(&h));
	in.radius = 0.6f;
	h = lbWorld_SphereCast(w, &in);
	ENSURE(h.hit && h.startedInside);
	ENSURE_NEAR(h.penetrationDepth, 0.1f, 1e-6f);
	in.radius = 0.0f;
	h = lbWorld_RayCast(w, &in);
	ENSURE(!h.hit && h.status == lb_ok);

	// Zero radius sphere cast = ray cast.
	lbTestRng rng = { 3 };
	for (int k = 0; k < 500; ++k)
	{
		lbVec3 a = { lbTestUniform(&rng, -2, 2), lbTestUniform(&rng, -2, 2), lbTestUniform(&rng, -2, 2) };
		lbVec3 b = { lbTestUniform(&rng, -2, 2), lbTestUniform(&rng, -2, 2), lbTestUniform(&rng, -2, 2) };
		in = Cast(a, b, 0.0f);
		lbHit r = lbWorld_RayCast(w, &in);
		lbHit s = lbWorld_SphereCast(w, &in);
		ENSURE(r.hit == s.hit);
		if (r.hit && s.hit)
		{
			ENSURE_NEAR(r.distance, s.distance, 0.0f);
			ENSURE_VEC3_NEAR(r.normal, s.normal, 0.0f);
			ENSURE_VEC3_NEAR(s.impactPoint, s.location, 0.0f);
		}
	}

	// NaN and infinite input: no hit, an error code, logged, finite output.
	const float bad[3] = { NAN, INFINITY, -INFINITY };
	for (int k = 0; k < 3; ++k)
	{
		cap.count = 0;
		in = Cast(lbMakeVec3(0, 0, bad[k]), lbMakeVec3(0, 0, -1), 0.1f);
		h = lbWorld_SphereCast(w, &in);
		ENSURE(!h.hit && h.status == lb_errorNonFinite && cap.count == 1 && cap.last == lb_errorNonFinite);
		ENSURE(HitIsFinite(&h));
		in = Cast(lbMakeVec3(0, 0, 1), lbMakeVec3(bad[k], 0, -1), 0.0f);
		h = lbWorld_RayCast(w, &in);
		ENSURE(!h.hit && h.status == lb_errorNonFinite && HitIsFinite(&h));
		in = Cast(lbMakeVec3(0, 0, 1), lbMakeVec3(0, 0, -1), bad[k]);
		h = lbWorld_SphereCast(w, &in);
		ENSURE(!h.hit && h.status == lb_errorNonFinite);
		h = lbWorld_SphereOverlap(w, &in);
		ENSURE(!h.hit && h.status == lb_errorNonFinite);
		// Every component of start and end is checked by a sphere cast.
		for (int c = 0; c < 6; ++c)
		{
			in = Cast(lbMakeVec3(0, 0, 1), lbMakeVec3(0, 0, -1), 0.1f);
			float* f = c < 3 ? &in.start.x : &in.end.x;
			f[c % 3] = bad[k];
			h = lbWorld_SphereCast(w, &in);
			ENSURE(!h.hit && h.status == lb_errorNonFinite);
		}
		// Fields a query ignores may hold anything: a ray's radius, an overlap's end.
		cap.count = 0;
		in = Cast(lbMakeVec3(0, 0, 1), lbMakeVec3(0, 0, -1), bad[k]);
		lbHit ray = lbWorld_RayCast(w, &in);
		in.radius = 0.0f;
		lbHit ref = lbWorld_RayCast(w, &in);
		ENSURE(ray.status == lb_ok && ray.hit == ref.hit && ray.distance == ref.distance && cap.count == 0);
		in = Cast(lbMakeVec3(0, 0, 0.05f), lbMakeVec3(0, bad[k], -1), 0.1f);
		h = lbWorld_SphereOverlap(w, &in);
		ENSURE(h.status == lb_ok && cap.count == 0);
	}
	cap.count = 0;
	in = Cast(lbMakeVec3(0, 0, 1), lbMakeVec3(0, 0, -1), -0.1f);
	h = lbWorld_SphereCast(w, &in);
	ENSURE(!h.hit && h.status == lb_errorInvalidArgument && cap.count == 1);
	// NULLs through the interface and the world.
	h = lbRayCast(NULL, &in);
	ENSURE(!h.hit && h.status == lb_errorNullPointer);
	lbSceneQuery q = lbWorld_GetQuery(w);
	h = lbRayCast(&q, NULL);
	ENSURE(!h.hit && h.status == lb_errorNullPointer);
	h = lbWorld_RayCast(NULL, &in);
	ENSURE(!h.hit && h.status == lb_errorNullPointer);
	lbSceneQuery none = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	h = lbSphereCast(&none, &in);
	ENSURE(!h.hit && h.status == lb_errorUnsupported);
	lbDestroyWorld(w);
	lbSetLogFcn(NULL, NULL);
}

// Prefetching is a hint: casts after it return bit for bit what they return without it, bad inputs
// are skipped silently, and a scene without a prefetch function makes lbPrefetchCasts a no-op.
static void PrefetchIsOnlyAHint(void)
{
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
	lbSceneDef_Set(&p, "size", 12.0f);
	lbSceneDef_Set(&p, "as_mesh", 1.0f);
	ENSURE(lbBuildScene(w, &p) == lb_ok);
	lbSceneDef b = lbDefaultSceneDef(lb_sceneClimbWall);
	ENSURE(lbBuildScene(w, &b) == lb_ok);
	enum { count = 300 };
	lbQueryInput in[count];
	lbHit before[count];
	lbTestRng rng = { 77 };
	for (int i = 0; i < count; ++i)
	{
		in[i] = lbDefaultQueryInput();
		lbVec3 a = lbMakeVec3(lbTestUniform(&rng, -7, 7), lbTestUniform(&rng, -7, 7), lbTestUniform(&rng, -1, 3));
		in[i].start = a;
		in[i].end = i % 3 == 0 ? lbMakeVec3(a.x, a.y, a.z - 3.0f)
							   : lbMakeVec3(lbTestUniform(&rng, -7, 7), lbTestUniform(&rng, -7, 7), lbTestUniform(&rng, -1, 3));
		in[i].radius = i % 2 ? lbTestUniform(&rng, 0.0f, 0.3f) : 0.0f;
		in[i].channelMask = i % 5 == 0 ? LB_CHANNEL_CLIMBABLE : LB_CHANNEL_ALL;
		// Some inputs the prefetch must skip: NaN, infinite, negative radius.
		if (i % 17 == 0)
			in[i].start.x = NAN;
		if (i % 19 == 0)
			in[i].end.y = INFINITY;
		if (i % 23 == 0)
			in[i].radius = -1.0f;
	}
	lbSceneQuery q = lbWorld_GetQuery(w);
	ENSURE(q.prefetch != NULL);
	LogCapture cap = { 0 };
	lbSetLogFcn(CaptureLog, &cap);
	for (int i = 0; i < count; ++i)
		before[i] = in[i].radius > 0.0f ? lbWorld_SphereCast(w, &in[i]) : lbWorld_RayCast(w, &in[i]);
	int reported = cap.count;
	// Prefetch in groups of every size, across the group limit, then cast again.
	lbPrefetchCasts(&q, in, count);
	for (int first = 0, n = 1; first < count; first += n, n = n % 40 + 1)
		lbWorld_PrefetchCasts(w, &in[first], first + n <= count ? n : count - first);
	lbWorld_PrefetchCasts(w, in, 0);
	lbWorld_PrefetchCasts(w, in, -3);
	lbWorld_PrefetchCasts(w, NULL, 5);
	lbWorld_PrefetchCasts(NULL, in, 5);
	lbPrefetchCasts(NULL, in, 5);
	ENSURE(cap.count == reported); // the prefetch itself reports nothing
	int same = 0;
	for (int i = 0; i < count; ++i)
	{
		lbHit after = in[i].radius > 0.0f ? lbWorld_SphereCast(w, &in[i]) : lbWorld_RayCast(w, &in[i]);
		const lbHit* o = &before[i];
		same += after.hit == o->hit && after.startedInside == o->startedInside && after.status == o->status &&
				memcmp(&after.location, &o->location, sizeof(lbVec3)) == 0 &&
				memcmp(&after.impactPoint, &o->impactPoint, sizeof(lbVec3)) == 0 &&
				memcmp(&after.normal, &o->normal, sizeof(lbVec3)) == 0 &&
				memcmp(&after.faceNormal, &o->faceNormal, sizeof(lbVec3)) == 0 && after.fraction == o->fraction &&
				after.distance == o->distance && after.penetrationDepth == o->penetrationDepth &&
				after.shapeId == o->shapeId && after.primitiveIndex == o->primitiveIndex;
	}
	ENSURE(same == count);
	lbSceneQuery none = { NULL, NULL, NULL, NULL, NULL, NULL, NULL };
	lbPrefetchCasts(&none, in, count);
	lbSetLogFcn(NULL, NULL);
	lbDestroyWorld(w);
}

static void LargeCoordinates(void)
{
	// Far from the origin float spacing is ~1 cm at 1e5 m; results stay exact to that spacing.
	const float offsets[3] = { 1.0e4f, 1.0e5f, -3.0e5f };
	for (int k = 0; k < 3; ++k)
	{
		float o = offsets[k];
		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* w = lbCreateWorld(&wd);
		lbVec3 v[3] = { { o - 4.0f, o - 4.0f, o }, { o + 4.0f, o - 4.0f, o }, { o, o + 4.0f, o } };
		int32_t idx[3] = { 0, 1, 2 };
		lbMeshDef md = lbDefaultMeshDef();
		md.vertices = v;
		md.vertexCount = 3;
		md.indices = idx;
		md.triangleCount = 1;
		ENSURE(lbWorld_AddMesh(w, &md) == 0);
		lbBoxDef bd = lbDefaultBoxDef();
		bd.transform.p = lbMakeVec3(o + 20.0f, o, o);
		ENSURE(lbWorld_AddBox(w, &bd) == 1);
		float tol = 2.0f * lbAbsF(o) * FLT_EPSILON;
		lbQueryInput in = Cast(lbMakeVec3(o, o, o + 2.0f), lbMakeVec3(o, o, o - 2.0f), 0.05f);
		lbHit h = lbWorld_SphereCast(w, &in);
		ENSURE(h.hit && h.shapeId == 0);
		ENSURE_NEAR(h.distance, 1.95f, tol);
		ENSURE_VEC3_NEAR(h.normal, lbVec3_axisZ, 1e-5f);
		in = Cast(lbMakeVec3(o + 10.0f, o, o), lbMakeVec3(o + 30.0f, o, o), 0.0f);
		h = lbWorld_RayCast(w, &in);
		ENSURE(h.hit && h.shapeId == 1);
		ENSURE_NEAR(h.distance, 9.5f, tol);
		// A flat heightfield far away, at height o - 40.
		float heights[16];
		for (int i = 0; i < 16; ++i)
			heights[i] = -40.0f;
		lbHeightfieldDef hd = lbDefaultHeightfieldDef();
		hd.heights = heights;
		hd.countX = 4;
		hd.countY = 4;
		hd.cellSize = 2.0f;
		hd.transform.p = lbMakeVec3(o - 3.0f, o - 3.0f, o);
		ENSURE(lbWorld_AddHeightfield(w, &hd) == 2);
		in = Cast(lbMakeVec3(o + 1.0f, o + 1.0f, o - 30.0f), lbMakeVec3(o + 1.0f, o + 1.0f, o - 50.0f), 0.25f);
		h = lbWorld_SphereCast(w, &in);
		ENSURE(h.hit && h.shapeId == 2);
		ENSURE_NEAR(h.distance, 9.75f, tol);
		ENSURE_VEC3_NEAR(h.normal, lbVec3_axisZ, 1e-5f);
		lbDestroyWorld(w);
	}
}

static void BadShapes(void)
{
	LogCapture cap = { 0 };
	lbSetLogFcn(CaptureLog, &cap);
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	lbVec3 v[3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, NAN } };
	int32_t idx[3] = { 0, 1, 2 };
	lbMeshDef md = lbDefaultMeshDef();
	md.vertices = v;
	md.vertexCount = 3;
	md.indices = idx;
	md.triangleCount = 1;
	ENSURE(lbWorld_AddMesh(w, &md) == LB_NULL_INDEX && cap.last == lb_errorNonFinite);
	v[2].z = 0.0f;
	idx[2] = 3;
	ENSURE(lbWorld_AddMesh(w, &md) == LB_NULL_INDEX && cap.last == lb_errorInvalidArgument);
	idx[2] = 2;
	md.internalValue = 0;
	ENSURE(lbWorld_AddMesh(w, &md) == LB_NULL_INDEX && cap.last == lb_errorDefNotInitialized);
	lbBoxDef bd = lbDefaultBoxDef();
	bd.halfExtents.y = 0.0f;
	ENSURE(lbWorld_AddBox(w, &bd) == LB_NULL_INDEX && cap.last == lb_errorInvalidArgument);
	lbHeightfieldDef hd = lbDefaultHeightfieldDef();
	float hs[4] = { 0, 0, INFINITY, 0 };
	hd.heights = hs;
	hd.countX = 2;
	hd.countY = 2;
	ENSURE(lbWorld_AddHeightfield(w, &hd) == LB_NULL_INDEX && cap.last == lb_errorNonFinite);
	hd.countX = 1;
	ENSURE(lbWorld_AddHeightfield(w, &hd) == LB_NULL_INDEX && cap.last == lb_errorInvalidArgument);
	ENSURE(lbWorld_GetShapeCount(w) == 0);
	lbWorldDef bad = wd;
	bad.internalValue = 0;
	ENSURE(lbCreateWorld(&bad) == NULL && cap.last == lb_errorDefNotInitialized);
	bad = wd;
	bad.up = lbVec3_zero;
	ENSURE(lbCreateWorld(&bad) == NULL && cap.last == lb_errorInvalidArgument);
	ENSURE(lbCreateWorld(NULL) == NULL && cap.last == lb_errorNullPointer);
	lbShapeInfo info;
	ENSURE(!lbWorld_GetShapeInfo(w, 0, &info) && info.kind == lb_shapeNone);
	lbDestroyWorld(w);
	lbDestroyWorld(NULL);
	lbSetLogFcn(NULL, NULL);
}

static void ShapeReadback(void)
{
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	AddQuad(w, 1.0f, 0.5f, LB_CHANNEL_GROUND, 3);
	lbBoxDef bd = lbDefaultBoxDef();
	bd.halfExtents = lbMakeVec3(0.1f, 0.2f, 0.3f);
	bd.channels = LB_CHANNEL_CLIMBABLE;
	lbWorld_AddBox(w, &bd);
	float hs[6] = { 0, 1, 2, 3, 4, 5 };
	lbHeightfieldDef hd = lbDefaultHeightfieldDef();
	hd.heights = hs;
	hd.countX = 3;
	hd.countY = 2;
	hd.cellSize = 0.5f;
	lbWorld_AddHeightfield(w, &hd);
	ENSURE(lbWorld_GetShapeCount(w) == 3);
	lbShapeInfo info;
	ENSURE(lbWorld_GetShapeInfo(w, 0, &info));
	ENSURE(info.kind == lb_shapeMesh && info.triangleCount == 2 && info.vertexCount == 4 && info.ownerId == 3u);
	ENSURE(info.vertices && info.indices && info.vertices[info.indices[0]].z == 0.5f);
	ENSURE(lbWorld_GetShapeInfo(w, 1, &info));
	ENSURE(info.kind == lb_shapeBox && info.channels == LB_CHANNEL_CLIMBABLE);
	ENSURE_VEC3_NEAR(info.halfExtents, lbMakeVec3(0.1f, 0.2f, 0.3f), 0.0f);
	ENSURE(lbWorld_GetShapeInfo(w, 2, &info));
	ENSURE(info.kind == lb_shapeHeightfield && info.countX == 3 && info.countY == 2 && info.heights[5] == 5.0f);
	ENSURE_NEAR(info.cellSize, 0.5f, 0.0f);
	lbVec3 lo, hi;
	lbWorld_GetBounds(w, &lo, &hi);
	ENSURE_VEC3_NEAR(lo, lbMakeVec3(-1.0f, -1.0f, -0.3f), 1e-6f);
	ENSURE_VEC3_NEAR(hi, lbMakeVec3(1.0f, 1.0f, 5.0f), 1e-6f);
	lbBvhStats st;
	ENSURE(lbWorld_GetBvhStats(w, 0, &st) && st.triangleCount == 2 && st.nodeCount >= 1);
	ENSURE(!lbWorld_GetBvhStats(w, 1, &st));
	lbDestroyWorld(w);
}

// Every field of two hits equal to the bit (padding aside).
static bool SameHit(const lbHit* a, const lbHit* b)
{
	return a->hit == b->hit && a->startedInside == b->startedInside && a->status == b->status &&
		   memcmp(&a->location, &b->location, sizeof(lbVec3)) == 0 &&
		   memcmp(&a->impactPoint, &b->impactPoint, sizeof(lbVec3)) == 0 &&
		   memcmp(&a->normal, &b->normal, sizeof(lbVec3)) == 0 &&
		   memcmp(&a->faceNormal, &b->faceNormal, sizeof(lbVec3)) == 0 &&
		   memcmp(&a->fraction, &b->fraction, sizeof(float)) == 0 && memcmp(&a->distance, &b->distance, sizeof(float)) == 0 &&
		   memcmp(&a->penetrationDepth, &b->penetrationDepth, sizeof(float)) == 0 && a->shapeId == b->shapeId &&
		   a->primitiveIndex == b->primitiveIndex && a->ownerId == b->ownerId && a->channels == b->channels;
}

// Whether a ray's stopping point (lbWorld_RayPointBatch) is the one its hit gives, to the bit: valid
// exactly for a hit with status lb_ok, the impact point (the start for a ray starting inside), 0
// otherwise.
static bool SamePoint(const lbHit* h, const lbQueryInput* in, lbVec3 p, bool valid)
{
	const bool want = h->hit && h->status == lb_ok;
	const lbVec3 at = !want ? lbVec3_zero : (h->startedInside ? in->start : h->impactPoint);
	return valid == want && memcmp(&p, &at, sizeof p) == 0;
}

// A query like the world's, without the batch entry: callers fall back to one ray at a time.
static void SingleRayOnly(void* context, const lbQueryInput* input, lbHit* outHit)
{
	*outHit = lbWorld_RayCast((const lbWorld*)context, input);
}

// Batched rays give the single rays' hits to the bit: random footprints (a few close parallel rays
// along a foot, straight down or tilted, in batches of 1 to 19, across the group size) on a rocky
// heightfield, the same rocks as a mesh, and a plane with a box on it; with some inputs filtered by
// channel or owner and some invalid (each such ray gets its own error, the others still hit).
static void BatchRaysMatchSingleRays(void)
{
	for (int kind = 0; kind < 3; ++kind)
	{
		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* w = lbCreateWorld(&wd);
		if (kind < 2)
		{
			lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
			lbSceneDef_Set(&p, "size", 8.0f);
			lbSceneDef_Set(&p, "resolution", 0.1f);
			lbSceneDef_Set(&p, "amplitude", 0.15f);
			lbSceneDef_Set(&p, "as_mesh", (float)kind);
			ENSURE(lbBuildScene(w, &p) == lb_ok);
		}
		else
		{
			ENSURE(AddQuad(w, 5.0f, 0.0f, LB_CHANNEL_GROUND, 0) == 0);
			lbBoxDef bd = lbDefaultBoxDef();
			bd.transform = lbMakeTransform(lbMakeVec3(0.5f, 0.2f, 0.1f), lbQuatFromAxisAngle(lbVec3_axisZ, 0.4f));
			bd.halfExtents = lbMakeVec3(0.3f, 0.2f, 0.1f);
			bd.ownerId = 7;
			ENSURE(lbWorld_AddBox(w, &bd) == 1);
		}
		lbSceneQuery q = lbWorld_GetQuery(w);
		ENSURE(q.rayCastBatch != NULL && q.rayPointBatch != NULL);
		lbSceneQuery single = { SingleRayOnly, NULL, NULL, (void*)(uintptr_t)w, NULL, NULL, NULL };
		LogCapture cap = { 0 };
		lbSetLogFcn(CaptureLog, &cap);
		lbTestRng rng = { 4242u + (unsigned)kind };
		int rays = 0, hits = 0, same = 0, bad = 0;
		for (int trial = 0; trial < 400; ++trial)
		{
			enum { maxRays = 19 };
			lbQueryInput in[maxRays];
			lbHit one[maxRays], batch[maxRays], viaQuery[maxRays], fallback[maxRays];
			const int n = 1 + (int)lbTestUniform(&rng, 0.0f, (float)maxRays);
			const lbVec3 base = lbMakeVec3(lbTestUniform(&rng, -3.5f, 3.5f), lbTestUniform(&rng, -3.5f, 3.5f), 0.0f);
			const float yaw = lbTestUniform(&rng, -LB_PI, LB_PI);
			const lbVec3 fwd = lbMakeVec3(cosf(yaw), sinf(yaw), 0.0f);
			// Straight down mostly; every fourth footprint tilted (a slanted up, a leaning probe).
			lbVec3 down = lbMakeVec3(0.0f, 0.0f, -1.0f);
			if (trial % 4 == 3)
				down = lbNormalize(lbMakeVec3(lbTestUniform(&rng, -0.4f, 0.4f), lbTestUniform(&rng, -0.4f, 0.4f), -1.0f));
			const float above = lbTestUniform(&rng, 0.05f, 0.6f), below = lbTestUniform(&rng, 0.1f, 0.6f);
			for (int k = 0; k < n; ++k)
			{
				lbVec3 at = lbMulAdd(base, lbTestUniform(&rng, -0.12f, 0.22f), fwd);
				in[k] = lbDefaultQueryInput();
				in[k].start = lbMulAdd(at, -above, down);
				in[k].end = lbMulAdd(at, below, down);
				if (lbTestUniform(&rng, 0.0f, 1.0f) < 0.05f)
					in[k].channelMask = LB_CHANNEL_CLIMBABLE;
				if (kind == 2 && lbTestUniform(&rng, 0.0f, 1.0f) < 0.2f)
					in[k].ignoreOwnerId = 7;
				if (lbTestUniform(&rng, 0.0f, 1.0f) < 0.02f)
					in[k].start.y = NAN;
			}
			for (int k = 0; k < n; ++k)
				one[k] = lbWorld_RayCast(w, &in[k]);
			lbWorld_RayCastBatch(w, in, n, batch);
			lbRayCastBatch(&q, in, n, viaQuery);
			lbRayCastBatch(&single, in, n, fallback);
			lbVec3 points[maxRays], queryPoints[maxRays];
			bool valid[maxRays], queryValid[maxRays];
			lbWorld_RayPointBatch(w, in, n, points, valid);
			q.rayPointBatch(q.context, in, n, queryPoints, queryValid);
			for (int k = 0; k < n; ++k)
			{
				++rays;
				hits += one[k].hit;
				bad += one[k].status != lb_ok;
				same += SameHit(&one[k], &batch[k]) && SameHit(&one[k], &viaQuery[k]) && SameHit(&one[k], &fallback[k]) &&
						SamePoint(&one[k], &in[k], points[k], valid[k]) &&
						SamePoint(&one[k], &in[k], queryPoints[k], queryValid[k]);
			}
		}
		ENSURE(same == rays);
		// Most rays land (the test is not vacuous), and the invalid ones were refused.
		ENSURE(hits > rays / 2);
		ENSURE(bad > 0);
		// Bad arguments: nothing written for a count of 0, each hit refused for NULL inputs.
		lbHit h[2];
		h[0].hit = true;
		lbWorld_RayCastBatch(w, NULL, 0, h);
		ENSURE(h[0].hit);
		lbWorld_RayCastBatch(w, NULL, 2, h);
		ENSURE(!h[0].hit && h[0].status == lb_errorNullPointer && !h[1].hit && h[1].status == lb_errorNullPointer);
		const lbQueryInput any = lbDefaultQueryInput();
		lbWorld_RayCastBatch(NULL, &any, 1, h);
		ENSURE(!h[0].hit && h[0].status == lb_errorNullPointer);
		lbWorld_RayCastBatch(w, NULL, 2, NULL);
		lbVec3 p[2] = { { 1.0f, 1.0f, 1.0f }, { 1.0f, 1.0f, 1.0f } };
		bool v[2] = { true, true };
		lbWorld_RayPointBatch(w, NULL, 0, p, v);
		ENSURE(v[0] && p[0].x == 1.0f);
		lbWorld_RayPointBatch(w, NULL, 2, p, v);
		ENSURE(!v[0] && !v[1] && p[0].x == 0.0f && p[1].z == 0.0f);
		v[0] = true;
		lbWorld_RayPointBatch(NULL, &any, 1, p, v);
		ENSURE(!v[0]);
		lbWorld_RayPointBatch(w, &any, 1, NULL, v);
		lbSetLogFcn(NULL, NULL);
		lbDestroyWorld(w);
	}
}

// A world of unrotated heightfields alone answers a vertical ray without the general cast's state;
// its hits must be the general path's to the bit. The same grids (two overlapping, one moved, one
// filtered by channel, one by owner) with a box far away, which sends every ray down the general
// path, give the reference. Rays start on cell borders and diagonals (which only the general path
// takes), above, inside and below the rocks, beside the grids, and some have zero length; through
// lbWorld_RayCast, the batch and the scene query, whose grids-only world later gets a box as well.
static void VerticalRaysOnGridsAlone(void)
{
	enum
	{
		N = 41
	};
	float heights[N * N];
	lbTestRng rng = { 777u };
	for (int k = 0; k < N * N; ++k)
		heights[k] = lbTestUniform(&rng, -0.2f, 0.2f);
	lbWorld* worlds[2];
	for (int v = 0; v < 2; ++v)
	{
		lbWorldDef wd = lbDefaultWorldDef();
		worlds[v] = lbCreateWorld(&wd);
		lbHeightfieldDef hd = lbDefaultHeightfieldDef();
		hd.heights = heights;
		hd.countX = hd.countY = N;
		hd.cellSize = 0.1f;
		hd.transform.p = lbMakeVec3(-2.0f, -2.0f, 0.0f);
		ENSURE(lbWorld_AddHeightfield(worlds[v], &hd) == 0);
		hd.transform.p = lbMakeVec3(-1.23f, -0.77f, 0.05f);
		hd.ownerId = 5;
		ENSURE(lbWorld_AddHeightfield(worlds[v], &hd) == 1);
		hd.transform.p = lbMakeVec3(-2.5f, -1.5f, 0.1f);
		hd.ownerId = LB_NO_OWNER;
		hd.channels = LB_CHANNEL_CLIMBABLE;
		ENSURE(lbWorld_AddHeightfield(worlds[v], &hd) == 2);
		if (v == 1)
		{
			lbBoxDef bd = lbDefaultBoxDef();
			bd.transform.p = lbMakeVec3(100.0f, 100.0f, 0.0f);
			ENSURE(lbWorld_AddBox(worlds[v], &bd) == 3);
		}
	}
	// The scene query of the grids-only world, made before a box joins it below: its rays must then
	// take the general path too.
	const lbSceneQuery q0 = lbWorld_GetQuery(worlds[0]), q1 = lbWorld_GetQuery(worlds[1]);
	int rays = 0, hits = 0, same = 0;
	for (int k = 0; k < 8000; ++k)
	{
		if (k == 4000)
		{
			lbBoxDef bd = lbDefaultBoxDef();
			bd.transform.p = lbMakeVec3(100.0f, 100.0f, 0.0f);
			ENSURE(lbWorld_AddBox(worlds[0], &bd) == 3);
		}
		float x = lbTestUniform(&rng, -2.7f, 2.7f), y = lbTestUniform(&rng, -2.7f, 2.7f);
		// On a cell's border or its diagonal of the first grid.
		if (k % 5 == 1)
			x = -2.0f + 0.1f * (float)(int)lbTestUniform(&rng, 0.0f, 40.0f);
		else if (k % 5 == 2)
			y = x + (float)(int)lbTestUniform(&rng, -5.0f, 5.0f) * 0.1f;
		const float top = lbTestUniform(&rng, -0.3f, 1.0f), bottom = k % 17 == 0 ? top : lbTestUniform(&rng, -1.0f, 0.3f);
		lbQueryInput in = lbDefaultQueryInput();
		// Down mostly, up now and then.
		in.start = lbMakeVec3(x, y, k % 7 == 0 ? bottom : top);
		in.end = lbMakeVec3(x, y, k % 7 == 0 ? top : bottom);
		if (k % 3 == 0)
			in.channelMask = LB_CHANNEL_GROUND;
		if (k % 4 == 0)
			in.ignoreOwnerId = 5;
		const lbHit a = lbWorld_RayCast(worlds[0], &in), b = lbWorld_RayCast(worlds[1], &in);
		lbHit viaQuery[2], batch[2];
		q0.rayCast(q0.context, &in, &viaQuery[0]);
		q1.rayCast(q1.context, &in, &viaQuery[1]);
		lbWorld_RayCastBatch(worlds[0], &in, 1, &batch[0]);
		lbWorld_RayCastBatch(worlds[1], &in, 1, &batch[1]);
		// The points alone, through the worlds and their queries (the grids-only world's made before
		// its box, whose rays must then find the general path as well).
		lbVec3 points[4];
		bool valid[4];
		lbWorld_RayPointBatch(worlds[0], &in, 1, &points[0], &valid[0]);
		lbWorld_RayPointBatch(worlds[1], &in, 1, &points[1], &valid[1]);
		q0.rayPointBatch(q0.context, &in, 1, &points[2], &valid[2]);
		q1.rayPointBatch(q1.context, &in, 1, &points[3], &valid[3]);
		++rays;
		hits += a.hit;
		same += SameHit(&a, &b) && SameHit(&a, &viaQuery[0]) && SameHit(&a, &viaQuery[1]) && SameHit(&a, &batch[0]) &&
				SameHit(&a, &batch[1]) && SamePoint(&a, &in, points[0], valid[0]) && SamePoint(&a, &in, points[1], valid[1]) &&
				SamePoint(&a, &in, points[2], valid[2]) && SamePoint(&a, &in, points[3], valid[3]);
	}
	ENSURE(same == rays);
	ENSURE(hits > rays / 3 && hits < rays);
	for (int v = 0; v < 2; ++v)
		lbDestroyWorld(worlds[v]);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(MeshRayAndSphere);
	RUN_TEST(BoxCasts);
	RUN_TEST(HeightfieldCasts);
	RUN_TEST(ChannelsAndOwners);
	RUN_TEST(EdgeCases);
	RUN_TEST(PrefetchIsOnlyAHint);
	RUN_TEST(BatchRaysMatchSingleRays);
	RUN_TEST(VerticalRaysOnGridsAlone);
	RUN_TEST(LargeCoordinates);
	RUN_TEST(BadShapes);
	RUN_TEST(ShapeReadback);
	TEST_MAIN_END();
}
