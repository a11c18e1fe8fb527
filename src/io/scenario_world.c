// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The run's world: an lbWorld filled by the scene builders the scenario names. Builder parameters
// are checked against each builder's own key list (unknown keys are errors); angle keys may also
// be given in degrees with a `_deg` suffix, vectors as [x, y, z] for their `_x/_y/_z` keys.
#include "scenario_internal.h"

#include "limber/query.h"
#include "limber/scenes.h"

#include <stdlib.h>
#include <string.h>

int lbScenarioBuilderCount(void)
{
	return (int)lb_sceneCount - 1;
}

const char* lbScenarioBuilderName(int index)
{
	return index >= 0 && index < lbScenarioBuilderCount() ? lbSceneBuilderName((lbSceneKind)(index + 1)) : NULL;
}

bool lbIsWorldBuilder(const char* name)
{
	return name && lbSceneBuilderByName(name) != lb_sceneNone;
}

static bool lbBuilderHasKey(lbSceneKind kind, const char* key)
{
	const char* const* keys = NULL;
	int n = lbSceneDefKeys(kind, &keys);
	for (int i = 0; i < n; ++i)
		if (strcmp(keys[i], key) == 0)
			return true;
	return false;
}

static bool lbIsAngleKey(const char* key)
{
	size_t n = strlen(key);
	return strcmp(key, "angle") == 0 || (n > 6 && strcmp(key + n - 6, "_angle") == 0);
}

// Applies one scenario parameter to builder params; false with a reason when it does not fit.
static bool lbApplyParam(lbSceneDef* params, const lbScenarioParam* prm, char* why, size_t cap)
{
	lbSceneKind kind = params->kind;
	char base[LB_SCENARIO_NAME];
	snprintf(base, sizeof base, "%s", prm->key);
	size_t n = strlen(base);
	if (strcmp(base, "up") == 0 || strncmp(base, "up_", 3) == 0)
	{
		snprintf(why, cap, "set the world's up with world.up, not per shape");
		return false;
	}
	if (prm->type == 2)
	{
		char kx[LB_SCENARIO_NAME + 4];
		snprintf(kx, sizeof kx, "%s_x", base);
		if (!lbBuilderHasKey(kind, kx))
		{
			snprintf(why, cap, "not a vector parameter of this builder");
			return false;
		}
		const float v[3] = { prm->vector.x, prm->vector.y, prm->vector.z };
		static const char* const axes[3] = { "_x", "_y", "_z" };
		for (int i = 0; i < 3; ++i)
		{
			char k[LB_SCENARIO_NAME + 4];
			snprintf(k, sizeof k, "%s%s", base, axes[i]);
			if (lbSceneDef_Set(params, k, v[i]) != lb_ok)
			{
				snprintf(why, cap, "value out of range");
				return false;
			}
		}
		return true;
	}
	if (prm->type != 0)
	{
		snprintf(why, cap, "expected a number or [x, y, z]");
		return false;
	}
	float value = (float)prm->number;
	if (n > 4 && strcmp(base + n - 4, "_deg") == 0)
	{
		base[n - 4] = 0;
		if (!lbIsAngleKey(base) || !lbBuilderHasKey(kind, base))
		{
			snprintf(why, cap, "unknown parameter");
			return false;
		}
		value *= LB_DEG2RAD;
	}
	if (!lbBuilderHasKey(kind, base))
	{
		snprintf(why, cap, "unknown parameter");
		return false;
	}
	if (lbSceneDef_Set(params, base, value) != lb_ok)
	{
		snprintf(why, cap, "value out of range");
		return false;
	}
	return true;
}

static bool lbMakeSceneParams(const lbScenarioShape* shape, lbVec3 up, lbSceneDef* out, int* badParam, char* why,
							  size_t cap)
{
	lbSceneKind kind = lbSceneBuilderByName(shape->builder);
	*out = lbDefaultSceneDef(kind);
	out->up = up;
	out->forward = lbWorldReferenceForward(up);
	for (int i = 0; i < shape->paramCount; ++i)
	{
		if (!lbApplyParam(out, &shape->params[i], why, cap))
		{
			*badParam = i;
			return false;
		}
	}
	return true;
}

bool lbCheckWorldShape(lbJsonCheck* check, const lbScenarioShape* shape, const char* path)
{
	lbSceneKind kind = lbSceneBuilderByName(shape->builder);
	if (kind == lb_sceneNone)
		return lbJsonFail(check, lb_errorUnsupported, path, "unknown scene builder \"%s\"", shape->builder);
	lbSceneDef params;
	int bad = -1;
	char why[128] = "";
	// The builders log their own complaints; the scenario message below says it with the key path.
	if (!lbMakeSceneParams(shape, lbVec3_axisZ, &params, &bad, why, sizeof why))
	{
		const char* const* keys = NULL;
		int n = lbSceneDefKeys(kind, &keys);
		char list[400] = "";
		size_t used = 0;
		for (int k = 0; k < n && used < sizeof list - 1; ++k)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", keys[k]);
		char p[160];
		snprintf(p, sizeof p, "%s.params.%s", path, shape->params[bad].key);
		return lbJsonFail(check, lb_errorParse, p, "%s for builder \"%s\" (its parameters: %s; angles also as <name>_deg)",
						  why, shape->builder, list);
	}
	// Values are checked as the builder will (ranges, whole numbers), so a bad one fails here with
	// the shape's path instead of when the run is created.
	char reason[256];
	if (lbSceneDef_Validate(&params, reason, sizeof reason) != lb_ok)
		return lbJsonFail(check, lb_errorParse, path, "builder \"%s\": %s", shape->builder, reason);
	return true;
}

struct lbRunWorld
{
	lbWorld* world;
	lbVec3 upWs;
	lbVec3* triangles;
	int triangleCount, triangleCapacity;
	// Backdrop plane for drawing: just below the ground under the start position.
	bool backdrop;
	lbVec3 backdropPointWs;
};

static void lbPushTri(lbRunWorld* w, lbVec3 a, lbVec3 b, lbVec3 c)
{
	if (w->triangleCount == w->triangleCapacity)
	{
		int cap = w->triangleCapacity ? 2 * w->triangleCapacity : 1024;
		lbVec3* grown = (lbVec3*)lbRealloc(w->triangles, (size_t)cap * 3 * sizeof(lbVec3));
		if (!grown)
			return;
		w->triangles = grown;
		w->triangleCapacity = cap;
	}
	lbVec3* t = &w->triangles[3 * w->triangleCount++];
	t[0] = a;
	t[1] = b;
	t[2] = c;
}

// Triangles of every shape, for drawing (a static world: built once).
static void lbTriangulateWorld(lbRunWorld* w)
{
	int count = lbWorld_GetShapeCount(w->world);
	for (int s = 0; s < count; ++s)
	{
		lbShapeInfo info;
		if (!lbWorld_GetShapeInfo(w->world, s, &info))
			continue;
		if (info.kind == lb_shapeMesh)
		{
			for (int t = 0; t < info.triangleCount; ++t)
			{
				const int32_t* ix = &info.indices[3 * t];
				lbPushTri(w, info.vertices[ix[0]], info.vertices[ix[1]], info.vertices[ix[2]]);
			}
		}
		else if (info.kind == lb_shapeHeightfield)
		{
			lbTransform xf = info.transform;
			xf.s = lbVec3_one;
			for (int j = 0; j + 1 < info.countY; ++j)
				for (int i = 0; i + 1 < info.countX; ++i)
				{
					lbVec3 p[4];
					for (int k = 0; k < 4; ++k)
					{
						int ii = i + (k & 1), jj = j + (k >> 1);
						lbVec3 local = { (float)ii * info.cellSize, (float)jj * info.cellSize, info.heights[jj * info.countX + ii] };
						p[k] = lbTransformPoint(xf, local);
					}
					// Split along (i, j) - (i + 1, j + 1), as the heightfield does.
					lbPushTri(w, p[0], p[1], p[3]);
					lbPushTri(w, p[0], p[3], p[2]);
				}
		}
		else if (info.kind == lb_shapeBox)
		{
			lbTransform xf = info.transform;
			xf.s = lbVec3_one;
			lbVec3 h = info.halfExtents;
			lbVec3 c[8];
			for (int k = 0; k < 8; ++k)
				c[k] = lbTransformPoint(xf, lbMakeVec3((k & 1) ? h.x : -h.x, (k & 2) ? h.y : -h.y, (k & 4) ? h.z : -h.z));
			static const int faces[6][4] = { { 0, 2, 6, 4 }, { 1, 5, 7, 3 }, { 0, 4, 5, 1 },
											  { 2, 3, 7, 6 }, { 0, 1, 3, 2 }, { 4, 6, 7, 5 } };
			for (int f = 0; f < 6; ++f)
			{
				lbPushTri(w, c[faces[f][0]], c[faces[f][1]], c[faces[f][2]]);
				lbPushTri(w, c[faces[f][0]], c[faces[f][2]], c[faces[f][3]]);
			}
		}
	}
}

double lbRunWorldMemoryEstimate(const lbScenario* scenario)
{
	double total = 0.0;
	for (int i = 0; i < scenario->shapeCount; ++i)
	{
		lbSceneDef params;
		int bad = -1;
		char why[128];
		if (lbMakeSceneParams(&scenario->shapes[i], scenario->upWs, &params, &bad, why, sizeof why))
			total += (double)lbSceneMemoryEstimate(&params);
	}
	return total;
}

lbRunWorld* lbCreateRunWorld(const lbScenario* scenario, lbResult* outResult)
{
	lbRunWorld* w = (lbRunWorld*)lbAllocZeroed(sizeof(lbRunWorld));
	if (!w)
	{
		*outResult = lbReport(lb_errorOutOfMemory, "world");
		return NULL;
	}
	w->upWs = scenario->upWs;
	lbWorldDef def = lbDefaultWorldDef();
	def.up = scenario->upWs;
	w->world = lbCreateWorld(&def);
	if (!w->world)
	{
		*outResult = lb_errorInvalidArgument;
		lbFree(w);
		return NULL;
	}
	// With no shape at all the character stands on flat ground through the origin.
	lbScenarioShape flat;
	memset(&flat, 0, sizeof flat);
	snprintf(flat.builder, sizeof flat.builder, "flat");
	int count = scenario->shapeCount > 0 ? scenario->shapeCount : 1;
	for (int i = 0; i < count; ++i)
	{
		const lbScenarioShape* shape = scenario->shapeCount > 0 ? &scenario->shapes[i] : &flat;
		lbSceneDef params;
		int bad = -1;
		char why[128];
		*outResult = lb_errorInvalidArgument;
		bool made = lbMakeSceneParams(shape, scenario->upWs, &params, &bad, why, sizeof why);
		if (made)
			params.memoryBudget = scenario->memoryBudget;
		if (!made || (*outResult = lbBuildScene(w->world, &params)) != lb_ok)
		{
			lbResult code = *outResult == lb_errorOutOfMemory ? lb_errorOutOfMemory : lb_errorInvalidArgument;
			*outResult = lbReport(code, "%s: world.shapes[%d] (%s) could not be built", scenario->path, i,
								  shape->builder);
			lbDestroyRunWorld(w);
			return NULL;
		}
	}
	lbTriangulateWorld(w);
	// The backdrop lies just below the lowest point of the world, so it never shows through.
	lbVec3 lo, hi;
	lbWorld_GetBounds(w->world, &lo, &hi);
	if (lo.x <= hi.x)
	{
		float lowest = 1.0e30f;
		for (int k = 0; k < 8; ++k)
		{
			lbVec3 c = { (k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z };
			lowest = lbMinF(lowest, lbDot(c, w->upWs));
		}
		w->backdrop = true;
		w->backdropPointWs = lbMulSV(lowest - 0.01f, w->upWs);
	}
	*outResult = lb_ok;
	return w;
}

void lbDestroyRunWorld(lbRunWorld* world)
{
	if (!world)
		return;
	lbDestroyWorld(world->world);
	lbFree(world->triangles);
	lbFree(world);
}

bool lbRunWorldProbe(void* context, lbVec3 originWs, lbVec3 dirWs, float maxDistance, lbVec3* outPointWs,
					 lbVec3* outNormalWs)
{
	const lbRunWorld* w = (const lbRunWorld*)context;
	if (!w || !w->world)
		return false;
	lbQueryInput in = lbDefaultQueryInput();
	in.start = originWs;
	in.end = lbMulAdd(originWs, maxDistance, dirWs);
	in.channelMask = LB_CHANNEL_ALL & ~LB_CHANNEL_CHARACTER;
	lbHit hit = lbWorld_RayCast(w->world, &in);
	if (!hit.hit || hit.startedInside)
		return false;
	*outPointWs = hit.impactPoint;
	*outNormalWs = hit.normal;
	return true;
}

lbRunWorldView lbRunWorld_GetView(const lbRunWorld* world)
{
	lbRunWorldView v;
	memset(&v, 0, sizeof v);
	if (!world)
		return v;
	v.groundPlane = world->backdrop;
	v.groundPointWs = world->backdropPointWs;
	v.triangles = world->triangles;
	v.triangleCount = world->triangleCount;
	return v;
}

void* lbRunWorld_GetQueryWorld(const lbRunWorld* world)
{
	return world ? world->world : NULL;
}

lbVec3 lbWorldReferenceForward(lbVec3 upWs)
{
	// Heading 0 is world +X made horizontal, or +Y when up is (nearly) X.
	lbVec3 f = lbProjectOnPlane(lbVec3_axisX, upWs);
	if (lbLength(f) < 0.5f)
		f = lbProjectOnPlane(lbVec3_axisY, upWs);
	return lbNormalize(f);
}
