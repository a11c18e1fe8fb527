// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The run's world: the scenario's shapes, built by name. Each builder validates its parameters
// (unknown parameters are errors) and adds geometry that answers probes and can be drawn.
#include "scenario_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct lbWorldBuilder
{
	const char* name;
	const char* const* params;
} lbWorldBuilder;

static const char* const lbFlatParams[] = { "height", NULL };

static const lbWorldBuilder lbBuilders[] = {
	{ "flat", lbFlatParams },
};

#define LB_BUILDER_COUNT ((int)(sizeof lbBuilders / sizeof lbBuilders[0]))

int lbScenarioBuilderCount(void)
{
	return LB_BUILDER_COUNT;
}

const char* lbScenarioBuilderName(int index)
{
	return index >= 0 && index < LB_BUILDER_COUNT ? lbBuilders[index].name : NULL;
}

static const lbWorldBuilder* lbFindBuilder(const char* name)
{
	for (int i = 0; i < LB_BUILDER_COUNT; ++i)
		if (strcmp(lbBuilders[i].name, name) == 0)
			return &lbBuilders[i];
	return NULL;
}

bool lbIsWorldBuilder(const char* name)
{
	return name && lbFindBuilder(name) != NULL;
}

bool lbCheckWorldShape(lbJsonCheck* check, const lbScenarioShape* shape, const char* path)
{
	const lbWorldBuilder* b = lbFindBuilder(shape->builder);
	if (!b)
		return lbJsonFail(check, lb_errorUnsupported, path, "unknown scene builder \"%s\"", shape->builder);
	for (int i = 0; i < shape->paramCount; ++i)
	{
		bool known = false;
		for (int k = 0; b->params[k]; ++k)
			known = known || strcmp(b->params[k], shape->params[i].key) == 0;
		if (!known)
		{
			char list[200] = "";
			size_t used = 0;
			for (int k = 0; b->params[k] && used < sizeof list - 1; ++k)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", b->params[k]);
			char p[160];
			snprintf(p, sizeof p, "%s.params.%s", path, shape->params[i].key);
			return lbJsonFail(check, lb_errorParse, p, "unknown parameter of builder \"%s\" (expected one of: %s)",
							  shape->builder, list);
		}
		if (shape->params[i].type != 0)
		{
			char p[160];
			snprintf(p, sizeof p, "%s.params.%s", path, shape->params[i].key);
			return lbJsonFail(check, lb_errorParse, p, "expected a number");
		}
	}
	return true;
}

struct lbRunWorld
{
	lbVec3 upWs;
	bool hasPlane;
	float planeHeight;
};

static double lbShapeNumber(const lbScenarioShape* shape, const char* key, double fallback)
{
	for (int i = 0; i < shape->paramCount; ++i)
		if (shape->params[i].type == 0 && strcmp(shape->params[i].key, key) == 0)
			return shape->params[i].number;
	return fallback;
}

lbRunWorld* lbCreateRunWorld(const lbScenario* scenario, lbResult* outResult)
{
	lbRunWorld* w = (lbRunWorld*)calloc(1, sizeof(lbRunWorld));
	if (!w)
	{
		*outResult = lbReport(lb_errorOutOfMemory, "world");
		return NULL;
	}
	w->upWs = scenario->upWs;
	// With no shape at all the character stands on a flat ground through the origin.
	w->hasPlane = true;
	w->planeHeight = 0.0f;
	for (int i = 0; i < scenario->shapeCount; ++i)
	{
		const lbScenarioShape* shape = &scenario->shapes[i];
		if (strcmp(shape->builder, "flat") == 0)
			w->planeHeight = (float)lbShapeNumber(shape, "height", 0.0);
	}
	*outResult = lb_ok;
	return w;
}

void lbDestroyRunWorld(lbRunWorld* world)
{
	free(world);
}

bool lbRunWorldProbe(void* context, lbVec3 originWs, lbVec3 dirWs, float maxDistance, lbVec3* outPointWs,
					 lbVec3* outNormalWs)
{
	const lbRunWorld* w = (const lbRunWorld*)context;
	if (!w || !w->hasPlane)
		return false;
	// Ray against the plane dot(x, up) = height, hit from above only (the solid side is below).
	float denom = lbDot(dirWs, w->upWs);
	float h0 = lbDot(originWs, w->upWs) - w->planeHeight;
	if (!(denom < -1.0e-6f) || h0 < 0.0f)
		return false;
	float t = -h0 / denom;
	if (t > maxDistance)
		return false;
	*outPointWs = lbMulAdd(originWs, t, dirWs);
	*outNormalWs = w->upWs;
	return true;
}

lbRunWorldView lbRunWorld_GetView(const lbRunWorld* world)
{
	lbRunWorldView v;
	memset(&v, 0, sizeof v);
	if (!world)
		return v;
	v.groundPlane = world->hasPlane;
	v.groundPointWs = lbMulSV(world->planeHeight, world->upWs);
	return v;
}

void* lbRunWorld_GetQueryWorld(const lbRunWorld* world)
{
	(void)world;
	return NULL;
}

lbVec3 lbWorldReferenceForward(lbVec3 upWs)
{
	// Heading 0 is world +X made horizontal, or +Y when up is (nearly) X.
	lbVec3 f = lbProjectOnPlane(lbVec3_axisX, upWs);
	if (lbLength(f) < 0.5f)
		f = lbProjectOnPlane(lbVec3_axisY, upWs);
	return lbNormalize(f);
}
