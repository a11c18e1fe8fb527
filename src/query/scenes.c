// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Scene builders. Each lays its shapes out in a local frame (a along forward, b along side, h along
// up) and maps them to the world through one rotation, so no axis is ever assumed. Rocky terrain is
// fractal value noise (Perlin, "An Image Synthesizer", SIGGRAPH 1985, for summing octaves) with an
// integer hash of the lattice point and the seed, so it is deterministic on every platform.
#include "limber/scenes.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char* const lbSceneNames[lb_sceneCount] = {
	"", "flat", "slope", "stairs", "rocky", "step_down", "climb_wall", "inside_corner", "ledge_top", "roof", "beam", "gap",
	"wall", "holds",
};

#define LB_SCENE_BIT(k) (1u << (unsigned)(k))
#define LB_SCENE_ALL 0xFFFFFFFFu

typedef struct lbSceneKey
{
	const char* name;
	size_t offset;
	uint32_t kinds;
} lbSceneKey;

#define LB_GROUND_KINDS                                                                                      \
	(LB_SCENE_BIT(lb_sceneFlat) | LB_SCENE_BIT(lb_sceneSlope) | LB_SCENE_BIT(lb_sceneStairs) |              \
	 LB_SCENE_BIT(lb_sceneClimbWall) | LB_SCENE_BIT(lb_sceneInsideCorner) | LB_SCENE_BIT(lb_sceneLedgeTop) |    \
	 LB_SCENE_BIT(lb_sceneRoof) | LB_SCENE_BIT(lb_sceneBeam) | LB_SCENE_BIT(lb_sceneWall) |                  \
	 LB_SCENE_BIT(lb_sceneHolds))

#define LB_WALL_KINDS (LB_SCENE_BIT(lb_sceneWall) | LB_SCENE_BIT(lb_sceneHolds))
#define LB_HOLD_KINDS (LB_SCENE_BIT(lb_sceneClimbWall) | LB_SCENE_BIT(lb_sceneHolds))

static const lbSceneKey lbSceneKeys[] = {
	{ "up_x", offsetof(lbSceneDef, up.x), LB_SCENE_ALL },
	{ "up_y", offsetof(lbSceneDef, up.y), LB_SCENE_ALL },
	{ "up_z", offsetof(lbSceneDef, up.z), LB_SCENE_ALL },
	{ "forward_x", offsetof(lbSceneDef, forward.x), LB_SCENE_ALL },
	{ "forward_y", offsetof(lbSceneDef, forward.y), LB_SCENE_ALL },
	{ "forward_z", offsetof(lbSceneDef, forward.z), LB_SCENE_ALL },
	{ "origin_x", offsetof(lbSceneDef, origin.x), LB_SCENE_ALL },
	{ "origin_y", offsetof(lbSceneDef, origin.y), LB_SCENE_ALL },
	{ "origin_z", offsetof(lbSceneDef, origin.z), LB_SCENE_ALL },
	{ "seed", offsetof(lbSceneDef, seed), LB_SCENE_ALL },
	{ "ground_size", offsetof(lbSceneDef, groundSize), LB_GROUND_KINDS },
	{ "distance", offsetof(lbSceneDef, distance),
	  LB_SCENE_BIT(lb_sceneStairs) | LB_SCENE_BIT(lb_sceneStepDown) | LB_SCENE_BIT(lb_sceneClimbWall) |
		  LB_SCENE_BIT(lb_sceneInsideCorner) | LB_SCENE_BIT(lb_sceneLedgeTop) | LB_SCENE_BIT(lb_sceneBeam) |
		  LB_SCENE_BIT(lb_sceneGap) | LB_WALL_KINDS },
	{ "width", offsetof(lbSceneDef, width),
	  LB_SCENE_BIT(lb_sceneSlope) | LB_SCENE_BIT(lb_sceneStairs) | LB_SCENE_BIT(lb_sceneStepDown) |
		  LB_SCENE_BIT(lb_sceneClimbWall) | LB_SCENE_BIT(lb_sceneInsideCorner) | LB_SCENE_BIT(lb_sceneLedgeTop) |
		  LB_SCENE_BIT(lb_sceneRoof) | LB_SCENE_BIT(lb_sceneBeam) | LB_SCENE_BIT(lb_sceneGap) | LB_WALL_KINDS },
	{ "angle", offsetof(lbSceneDef, angle),
	  LB_SCENE_BIT(lb_sceneSlope) | LB_SCENE_BIT(lb_sceneRoof) | LB_SCENE_BIT(lb_sceneWall) },
	{ "length", offsetof(lbSceneDef, length), LB_SCENE_BIT(lb_sceneSlope) | LB_SCENE_BIT(lb_sceneBeam) },
	{ "riser", offsetof(lbSceneDef, riser), LB_SCENE_BIT(lb_sceneStairs) },
	{ "tread", offsetof(lbSceneDef, tread), LB_SCENE_BIT(lb_sceneStairs) },
	{ "count", offsetof(lbSceneDef, count), LB_SCENE_BIT(lb_sceneStairs) },
	{ "landing", offsetof(lbSceneDef, landing), LB_SCENE_BIT(lb_sceneStairs) },
	{ "amplitude", offsetof(lbSceneDef, amplitude), LB_SCENE_BIT(lb_sceneRocky) },
	{ "scale", offsetof(lbSceneDef, scale), LB_SCENE_BIT(lb_sceneRocky) },
	{ "size", offsetof(lbSceneDef, size),
	  LB_SCENE_BIT(lb_sceneRocky) | LB_SCENE_BIT(lb_sceneStepDown) | LB_SCENE_BIT(lb_sceneGap) },
	{ "resolution", offsetof(lbSceneDef, resolution), LB_SCENE_BIT(lb_sceneRocky) },
	{ "as_mesh", offsetof(lbSceneDef, asMesh), LB_SCENE_BIT(lb_sceneRocky) },
	{ "drop", offsetof(lbSceneDef, drop), LB_SCENE_BIT(lb_sceneStepDown) },
	{ "panel_height", offsetof(lbSceneDef, panelHeight), LB_SCENE_BIT(lb_sceneClimbWall) },
	{ "incline_angle", offsetof(lbSceneDef, inclineAngle), LB_SCENE_BIT(lb_sceneClimbWall) },
	{ "overhang_angle", offsetof(lbSceneDef, overhangAngle), LB_SCENE_BIT(lb_sceneClimbWall) },
	{ "hold_count", offsetof(lbSceneDef, holdCount), LB_HOLD_KINDS },
	{ "hold_size", offsetof(lbSceneDef, holdSize), LB_HOLD_KINDS },
	{ "hold_depth", offsetof(lbSceneDef, holdDepth), LB_HOLD_KINDS },
	{ "thickness", offsetof(lbSceneDef, thickness),
	  LB_SCENE_BIT(lb_sceneStepDown) | LB_SCENE_BIT(lb_sceneClimbWall) | LB_SCENE_BIT(lb_sceneInsideCorner) |
		  LB_SCENE_BIT(lb_sceneGap) | LB_WALL_KINDS },
	{ "height", offsetof(lbSceneDef, height),
	  LB_SCENE_BIT(lb_sceneInsideCorner) | LB_SCENE_BIT(lb_sceneLedgeTop) | LB_SCENE_BIT(lb_sceneRoof) |
		  LB_SCENE_BIT(lb_sceneBeam) | LB_WALL_KINDS },
	{ "depth", offsetof(lbSceneDef, depth), LB_SCENE_BIT(lb_sceneLedgeTop) | LB_SCENE_BIT(lb_sceneGap) },
	{ "gap", offsetof(lbSceneDef, gap), LB_SCENE_BIT(lb_sceneGap) },
	{ "run", offsetof(lbSceneDef, run), LB_SCENE_BIT(lb_sceneRoof) },
};

#define LB_SCENE_KEY_COUNT ((int)(sizeof lbSceneKeys / sizeof lbSceneKeys[0]))

#define LB_SCENE_MAX_KEYS 24

static bool lbKeyApplies(const lbSceneKey* k, lbSceneKind kind)
{
	return (k->kinds & LB_SCENE_BIT(kind)) != 0;
}

lbSceneKind lbSceneBuilderByName(const char* name)
{
	if (!name)
		return lb_sceneNone;
	for (int i = 1; i < lb_sceneCount; ++i)
		if (strcmp(name, lbSceneNames[i]) == 0)
			return (lbSceneKind)i;
	return lb_sceneNone;
}

const char* lbSceneBuilderName(lbSceneKind kind)
{
	if ((int)kind <= 0 || (int)kind >= lb_sceneCount)
		return "";
	return lbSceneNames[kind];
}

lbSceneDef lbDefaultSceneDef(lbSceneKind kind)
{
	lbSceneDef p;
	memset(&p, 0, sizeof p);
	p.kind = kind;
	p.up = lbVec3_axisZ;
	p.forward = lbVec3_axisX;
	p.origin = lbVec3_zero;
	p.seed = 1;
	p.memoryBudget = LB_DEFAULT_MEMORY_BUDGET;
	p.groundSize = 20.0f;
	p.distance = 1.0f;
	p.width = 4.0f;
	p.angle = 20.0f * LB_DEG2RAD;
	p.length = 8.0f;
	p.riser = 0.18f;
	p.tread = 0.28f;
	p.count = 8.0f;
	p.landing = 2.0f;
	p.amplitude = 0.25f;
	p.scale = 2.0f;
	p.size = 20.0f;
	p.resolution = 0.1f;
	p.asMesh = 0.0f;
	p.drop = 0.3f;
	p.panelHeight = 2.0f;
	p.inclineAngle = 15.0f * LB_DEG2RAD;
	p.overhangAngle = 20.0f * LB_DEG2RAD;
	p.holdCount = 30.0f;
	p.holdSize = 0.12f;
	p.holdDepth = 0.05f;
	p.thickness = 0.3f;
	p.height = 3.0f;
	p.depth = 1.5f;
	p.run = 4.0f;
	p.gap = 0.4f;
	switch (kind)
	{
	case lb_sceneSlope:
		p.width = 6.0f;
		break;
	case lb_sceneStairs:
		p.width = 2.0f;
		break;
	case lb_sceneStepDown:
		p.width = 6.0f;
		break;
	case lb_sceneClimbWall:
		p.distance = 0.6f;
		break;
	case lb_sceneInsideCorner:
		p.distance = 0.8f;
		p.width = 3.0f;
		break;
	case lb_sceneLedgeTop:
		p.distance = 0.6f;
		p.height = 1.8f;
		break;
	case lb_sceneRoof:
		p.angle = 25.0f * LB_DEG2RAD;
		p.width = 6.0f;
		break;
	case lb_sceneBeam:
		// The character starts 1 m along the beam, on it, with 5 m to walk.
		p.distance = -1.0f;
		p.width = 0.3f;
		p.height = 0.5f;
		p.length = 6.0f;
		break;
	case lb_sceneGap:
		p.width = 6.0f;
		break;
	case lb_sceneWall:
		p.distance = 0.6f;
		p.height = 4.0f;
		p.angle = 0.5f * LB_PI;
		break;
	case lb_sceneHolds:
		p.distance = 0.6f;
		p.height = 4.0f;
		p.holdCount = 60.0f;
		p.holdSize = 0.1f;
		p.holdDepth = 0.06f;
		break;
	default:
		break;
	}
	p.internalValue = LB_SECRET_COOKIE;
	return p;
}

int lbSceneDefKeys(lbSceneKind kind, const char* const** outKeys)
{
	// Constant lists, NULL-terminated; a test checks they agree with the key table above.
	static const char* const lists[lb_sceneCount][LB_SCENE_MAX_KEYS] = {
		{ NULL },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "ground_size" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "ground_size", "width", "angle", "length" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "ground_size", "distance", "width", "riser", "tread", "count", "landing" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "amplitude", "scale", "size", "resolution", "as_mesh" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "distance", "width", "size", "drop", "thickness" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "ground_size", "distance", "width", "panel_height", "incline_angle", "overhang_angle", "hold_count",
		  "hold_size", "hold_depth", "thickness" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "ground_size", "distance", "width", "thickness", "height" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "ground_size", "distance", "width", "height", "depth" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "ground_size", "width", "angle", "height", "run" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "ground_size", "distance", "width", "length", "height" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "distance", "width", "size", "thickness", "depth", "gap" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "ground_size", "distance", "width", "angle", "thickness", "height" },
		{ "up_x", "up_y", "up_z", "forward_x", "forward_y", "forward_z", "origin_x", "origin_y", "origin_z", "seed",
		  "ground_size", "distance", "width", "hold_count", "hold_size", "hold_depth", "thickness", "height" },
	};
	if ((int)kind <= 0 || (int)kind >= lb_sceneCount)
	{
		if (outKeys)
			*outKeys = NULL;
		return 0;
	}
	int n = 0;
	while (n < LB_SCENE_MAX_KEYS && lists[kind][n])
		++n;
	if (outKeys)
		*outKeys = lists[kind];
	return n;
}

static const lbSceneKey* lbFindKey(const lbSceneDef* params, const char* key, const char* fn)
{
	if (!params || !key)
	{
		lbReport(lb_errorNullPointer, "%s: params or key is NULL", fn);
		return NULL;
	}
	for (int i = 0; i < LB_SCENE_KEY_COUNT; ++i)
	{
		if (strcmp(lbSceneKeys[i].name, key) == 0)
		{
			if (!lbKeyApplies(&lbSceneKeys[i], params->kind))
			{
				lbReport(lb_errorInvalidArgument, "%s: scene '%s' has no parameter '%s'", fn,
						 lbSceneBuilderName(params->kind), key);
				return NULL;
			}
			return &lbSceneKeys[i];
		}
	}
	lbReport(lb_errorInvalidArgument, "%s: unknown scene parameter '%s'", fn, key);
	return NULL;
}

lbResult lbSceneDef_Set(lbSceneDef* params, const char* key, float value)
{
	const lbSceneKey* k = lbFindKey(params, key, "lbSceneDef_Set");
	if (!k)
		return params && key ? lb_errorInvalidArgument : lb_errorNullPointer;
	if (!lbIsValidFloat(value))
		return lbReport(lb_errorNonFinite, "lbSceneDef_Set: '%s' is not finite", key);
	if (k->offset == offsetof(lbSceneDef, seed))
	{
		if (value < 0.0f || value > 4294967040.0f || value != floorf(value))
			return lbReport(lb_errorInvalidArgument, "lbSceneDef_Set: seed %g must be a non-negative integer",
							(double)value);
		params->seed = (uint32_t)value;
		return lb_ok;
	}
	memcpy((char*)params + k->offset, &value, sizeof value);
	return lb_ok;
}

lbResult lbSceneDef_Get(const lbSceneDef* params, const char* key, float* outValue)
{
	const lbSceneKey* k = lbFindKey(params, key, "lbSceneDef_Get");
	if (!k)
		return params && key ? lb_errorInvalidArgument : lb_errorNullPointer;
	if (!outValue)
		return lbReport(lb_errorNullPointer, "lbSceneDef_Get: outValue is NULL");
	if (k->offset == offsetof(lbSceneDef, seed))
		*outValue = (float)params->seed;
	else
		memcpy(outValue, (const char*)params + k->offset, sizeof *outValue);
	return lb_ok;
}

// ---------------------------------------------------------------------------------------------
// Frame and shape helpers

typedef struct lbSceneFrame
{
	lbVec3 origin, f, s, u;
	lbQuat q;
} lbSceneFrame;

static lbVec3 lbFramePoint(const lbSceneFrame* fr, float a, float b, float h)
{
	return lbAdd(fr->origin, lbAdd(lbMulSV(a, fr->f), lbAdd(lbMulSV(b, fr->s), lbMulSV(h, fr->u))));
}

// Box given by its local (a, b, h) centre, half sizes and an extra rotation in the local frame.
static lbResult lbAddLocalBox(lbWorld* w, const lbSceneFrame* fr, lbVec3 centre, lbVec3 half, lbQuat localRot,
							  uint32_t channels)
{
	lbBoxDef def = lbDefaultBoxDef();
	def.transform = lbMakeTransform(lbFramePoint(fr, centre.x, centre.y, centre.z), lbQuatMul(fr->q, localRot));
	def.halfExtents = half;
	def.channels = channels;
	return lbWorld_AddBox(w, &def) >= 0 ? lb_ok : lb_errorInvalidArgument;
}

// Axis-aligned (in the local frame) box from its local min/max corners.
static lbResult lbAddSpanBox(lbWorld* w, const lbSceneFrame* fr, float a0, float a1, float b0, float b1, float h0,
							 float h1, uint32_t channels)
{
	lbVec3 c = { 0.5f * (a0 + a1), 0.5f * (b0 + b1), 0.5f * (h0 + h1) };
	lbVec3 half = { 0.5f * (a1 - a0), 0.5f * (b1 - b0), 0.5f * (h1 - h0) };
	return lbAddLocalBox(w, fr, c, half, lbQuat_identity, channels);
}

// Quads given as local (a, b, h) corner lists, 4 per quad, added as one mesh.
static lbResult lbAddQuads(lbWorld* w, const lbSceneFrame* fr, const lbVec3* corners, int quadCount, uint32_t channels)
{
	lbVec3* v = (lbVec3*)lbAlloc(sizeof(lbVec3) * 4 * (size_t)quadCount);
	int32_t* idx = (int32_t*)lbAlloc(sizeof(int32_t) * 6 * (size_t)quadCount);
	if (!v || !idx)
	{
		lbFree(v);
		lbFree(idx);
		return lbReport(lb_errorOutOfMemory, "lbBuildScene: out of memory");
	}
	for (int q = 0; q < quadCount; ++q)
	{
		for (int k = 0; k < 4; ++k)
		{
			lbVec3 c = corners[4 * q + k];
			v[4 * q + k] = lbFramePoint(fr, c.x, c.y, c.z);
		}
		int32_t base = 4 * q;
		int32_t* t = &idx[6 * q];
		t[0] = base;
		t[1] = base + 1;
		t[2] = base + 2;
		t[3] = base;
		t[4] = base + 2;
		t[5] = base + 3;
	}
	lbMeshDef def = lbDefaultMeshDef();
	def.vertices = v;
	def.vertexCount = 4 * quadCount;
	def.indices = idx;
	def.triangleCount = 2 * quadCount;
	def.channels = channels;
	int id = lbWorld_AddMesh(w, &def);
	lbFree(v);
	lbFree(idx);
	return id >= 0 ? lb_ok : lb_errorInvalidArgument;
}

static lbResult lbAddGround(lbWorld* w, const lbSceneFrame* fr, float size, float h)
{
	if (!(size > 0.0f))
		return lb_ok;
	float e = 0.5f * size;
	lbVec3 q[4] = { { -e, -e, h }, { e, -e, h }, { e, e, h }, { -e, e, h } };
	return lbAddQuads(w, fr, q, 1, LB_CHANNEL_GROUND);
}

// splitmix64 step: the builders' only source of randomness, seeded from params.
static uint64_t lbSceneRandom(uint64_t* state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static float lbSceneUniform(uint64_t* state, float lo, float hi)
{
	return lo + (hi - lo) * (float)((double)(lbSceneRandom(state) >> 11) * (1.0 / 9007199254740992.0));
}

// Lattice value in [-1, 1] from an integer hash of (x, y, seed, octave).
static float lbLatticeValue(int32_t x, int32_t y, uint32_t seed, int octave)
{
	uint64_t h = (uint64_t)(uint32_t)x * 0x8DA6B343ull ^ (uint64_t)(uint32_t)y * 0xD8163841ull ^
				 (uint64_t)seed * 0xCB1AB31Full ^ (uint64_t)octave * 0x165667B1ull;
	uint64_t s = h;
	uint64_t r = lbSceneRandom(&s);
	return (float)((double)(r >> 11) * (2.0 / 9007199254740992.0) - 1.0);
}

static float lbQuintic(float t)
{
	return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);
}

static float lbValueNoise(float x, float y, uint32_t seed, int octave)
{
	// The lattice repeats every 2^24 cells: every float that large is a whole number, so wrapping
	// is exact, changes nothing below it, and keeps the cell index inside int32_t. Far beyond any
	// float (a / scale overflowing) the noise is flat.
	if (!lbIsValidFloat(x) || !lbIsValidFloat(y))
		return 0.0f;
	if (fabsf(x) >= 16777216.0f)
		x = fmodf(x, 16777216.0f);
	if (fabsf(y) >= 16777216.0f)
		y = fmodf(y, 16777216.0f);
	float fx = floorf(x), fy = floorf(y);
	int32_t ix = (int32_t)fx, iy = (int32_t)fy;
	float tx = lbQuintic(x - fx), ty = lbQuintic(y - fy);
	float v00 = lbLatticeValue(ix, iy, seed, octave), v10 = lbLatticeValue(ix + 1, iy, seed, octave);
	float v01 = lbLatticeValue(ix, iy + 1, seed, octave), v11 = lbLatticeValue(ix + 1, iy + 1, seed, octave);
	return lbLerpF(lbLerpF(v00, v10, tx), lbLerpF(v01, v11, tx), ty);
}

float lbSceneRockyHeight(const lbSceneDef* params, float a, float b)
{
	if (!params || !(params->scale > 0.0f))
		return 0.0f;
	// Four octaves, each twice the frequency and half the weight; normalised so |h| <= amplitude.
	float freq = 1.0f / params->scale, weight = 1.0f, sum = 0.0f, total = 0.0f;
	for (int o = 0; o < 4; ++o)
	{
		sum += weight * lbValueNoise(a * freq, b * freq, params->seed, o);
		total += weight;
		freq *= 2.0f;
		weight *= 0.5f;
	}
	return params->amplitude * sum / total;
}

// ---------------------------------------------------------------------------------------------
// Builders

// Peak bytes per height sample, measured (heights, the world's copy and its bounds; as a mesh also
// the vertices, triangles and the BVH).
enum
{
	lb_rockyHeightfieldBytes = 20,
	lb_rockyMeshBytes = 256
};

size_t lbSceneMemoryEstimate(const lbSceneDef* p)
{
	if (!p || p->internalValue != LB_SECRET_COOKIE)
		return 0;
	// Every builder but rocky adds a handful of boxes and quads (holds: up to 4096 boxes).
	double bytes = 65536.0 + (p->kind == lb_sceneClimbWall || p->kind == lb_sceneHolds ? 1024.0 * lbMaxF(p->holdCount, 0.0f) : 0.0);
	if (p->kind == lb_sceneRocky && p->resolution > 0.0f)
	{
		double cells = ceil((double)p->size / (double)p->resolution - 1e-3);
		double n = lbIsValidFloat((float)cells) ? cells + 1.0 : 1.0e30;
		bytes = n * n * (p->asMesh < 0.5f ? lb_rockyHeightfieldBytes : lb_rockyMeshBytes);
	}
	return bytes >= 1.8e19 ? SIZE_MAX : (size_t)bytes;
}

static lbResult lbBuildRocky(lbWorld* w, const lbSceneFrame* fr, const lbSceneDef* p)
{
	// In double, checked before the conversion: size / resolution may be far beyond any int.
	double cellsD = ceil((double)p->size / (double)p->resolution - 1e-3);
	if (!(cellsD >= 1.0 && cellsD <= 16384.0))
		return lbReport(lb_errorInvalidArgument, "lbBuildScene: rocky size / resolution gives %.3g cells per side (1..16384)",
						cellsD);
	int cells = (int)cellsD;
	int n = cells + 1;
	double need = (double)n * (double)n * (p->asMesh < 0.5f ? lb_rockyHeightfieldBytes : lb_rockyMeshBytes);
	if (need > (double)p->memoryBudget)
		return lbReport(lb_errorOutOfMemory,
						"lbBuildScene: rocky terrain of %d x %d samples%s needs about %.0f MB, over the memory budget of %.0f MB "
						"(raise resolution, lower size, or raise memoryBudget)",
						n, n, p->asMesh < 0.5f ? "" : " as a mesh", need / 1048576.0, (double)p->memoryBudget / 1048576.0);
	float cs = p->resolution, half = 0.5f * cs * (float)cells;
	float* heights = (float*)lbAlloc(sizeof(float) * (size_t)n * (size_t)n);
	if (!heights)
		return lbReport(lb_errorOutOfMemory, "lbBuildScene: out of memory");
	for (int j = 0; j < n; ++j)
		for (int i = 0; i < n; ++i)
			heights[(size_t)j * (size_t)n + (size_t)i] = lbSceneRockyHeight(p, (float)i * cs - half, (float)j * cs - half);
	lbResult r = lb_ok;
	if (p->asMesh < 0.5f)
	{
		lbHeightfieldDef def = lbDefaultHeightfieldDef();
		def.heights = heights;
		def.countX = n;
		def.countY = n;
		def.cellSize = cs;
		def.transform = lbMakeTransform(lbFramePoint(fr, -half, -half, 0.0f), fr->q);
		def.channels = LB_CHANNEL_GROUND;
		r = lbWorld_AddHeightfield(w, &def) >= 0 ? lb_ok : lb_errorInvalidArgument;
	}
	else
	{
		// Same samples and the same diagonal as the heightfield, so both forms are the same surface.
		size_t vc = (size_t)n * (size_t)n, tc = 2 * (size_t)cells * (size_t)cells;
		lbVec3* v = (lbVec3*)lbAlloc(sizeof(lbVec3) * vc);
		int32_t* idx = (int32_t*)lbAlloc(sizeof(int32_t) * 3 * tc);
		if (!v || !idx)
			r = lbReport(lb_errorOutOfMemory, "lbBuildScene: out of memory");
		else
		{
			for (int j = 0; j < n; ++j)
				for (int i = 0; i < n; ++i)
					v[(size_t)j * (size_t)n + (size_t)i] =
						lbFramePoint(fr, (float)i * cs - half, (float)j * cs - half, heights[(size_t)j * (size_t)n + (size_t)i]);
			size_t t = 0;
			for (int j = 0; j < cells; ++j)
				for (int i = 0; i < cells; ++i)
				{
					int32_t i00 = j * n + i, i10 = i00 + 1, i01 = i00 + n, i11 = i01 + 1;
					int32_t* tri = &idx[3 * t];
					tri[0] = i00, tri[1] = i10, tri[2] = i11, tri[3] = i00, tri[4] = i11, tri[5] = i01;
					t += 2;
				}
			lbMeshDef def = lbDefaultMeshDef();
			def.vertices = v;
			def.vertexCount = (int)vc;
			def.indices = idx;
			def.triangleCount = (int)tc;
			def.channels = LB_CHANNEL_GROUND;
			r = lbWorld_AddMesh(w, &def) >= 0 ? lb_ok : lb_errorInvalidArgument;
		}
		lbFree(v);
		lbFree(idx);
	}
	lbFree(heights);
	return r;
}

static lbResult lbBuildClimbWall(lbWorld* w, const lbSceneFrame* fr, const lbSceneDef* p)
{
	lbResult r = lbAddGround(w, fr, p->groundSize, 0.0f);
	if (r != lb_ok)
		return r;
	// Wall profile in the (a, h) plane: up the vertical panel, lean back, then lean over.
	float H = p->panelHeight, d = p->distance, hw = 0.5f * p->width;
	float ang[3] = { 0.0f, p->inclineAngle, -p->overhangAngle };
	float pa[4], ph[4];
	pa[0] = d;
	ph[0] = 0.0f;
	for (int k = 0; k < 3; ++k)
	{
		pa[k + 1] = pa[k] + H * sinf(ang[k]);
		ph[k + 1] = ph[k] + H * cosf(ang[k]);
	}
	// Panels as quads facing the climber, plus a flat top going back.
	lbVec3 quads[16];
	for (int k = 0; k < 3; ++k)
	{
		quads[4 * k + 0] = lbMakeVec3(pa[k], hw, ph[k]);
		quads[4 * k + 1] = lbMakeVec3(pa[k], -hw, ph[k]);
		quads[4 * k + 2] = lbMakeVec3(pa[k + 1], -hw, ph[k + 1]);
		quads[4 * k + 3] = lbMakeVec3(pa[k + 1], hw, ph[k + 1]);
	}
	float back = lbMaxF(pa[0], lbMaxF(pa[1], lbMaxF(pa[2], pa[3]))) + p->thickness;
	quads[12] = lbMakeVec3(pa[3], hw, ph[3]);
	quads[13] = lbMakeVec3(pa[3], -hw, ph[3]);
	quads[14] = lbMakeVec3(back, -hw, ph[3]);
	quads[15] = lbMakeVec3(back, hw, ph[3]);
	r = lbAddQuads(w, fr, quads, 4, LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL);
	if (r != lb_ok)
		return r;
	// Holds: boxes sunk 2 cm into a panel and sticking out hold_depth, spread by the seed.
	uint64_t rng = (uint64_t)p->seed * 0x9E3779B97F4A7C15ull + 7u;
	int holds = (int)p->holdCount;
	const float embed = 0.02f;
	for (int i = 0; i < holds; ++i)
	{
		int k = i % 3;
		float u = lbSceneUniform(&rng, 0.1f, 0.9f);
		float b = lbSceneUniform(&rng, -hw + p->holdSize, hw - p->holdSize);
		float da = pa[k + 1] - pa[k], dh = ph[k + 1] - ph[k];
		float len = sqrtf(da * da + dh * dh);
		da /= len;
		dh /= len;
		// Outward normal (towards the climber) in the (a, h) plane.
		float na = -dh, nh = da;
		float off = 0.5f * (p->holdDepth - embed);
		lbVec3 c = { pa[k] + u * (pa[k + 1] - pa[k]) + off * na, b, ph[k] + u * (ph[k + 1] - ph[k]) + off * nh };
		lbVec3 half = { 0.5f * (p->holdDepth + embed), 0.5f * p->holdSize, 0.25f * p->holdSize };
		// Local box x into the wall, z along the panel: a rotation about the side axis by the panel angle.
		lbQuat rot = lbQuatFromAxisAngle(lbVec3_axisY, ang[k]);
		r = lbAddLocalBox(w, fr, c, half, rot, LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL);
		if (r != lb_ok)
			return r;
	}
	return lb_ok;
}

// Planar wall at `angle` from the ground: one solid box rotated about the side axis. Its face runs
// from the ground up to `height`; at height h it lies distance + h / tan(angle) ahead. An
// overhang's face starts below the ground (hidden behind its foot) so the box's back edge reaches
// the ground too, leaving no gap under the wall.
static lbResult lbBuildWall(lbWorld* w, const lbSceneFrame* fr, const lbSceneDef* p)
{
	lbResult r = lbAddGround(w, fr, p->groundSize, 0.0f);
	if (r != lb_ok)
		return r;
	float c = cosf(p->angle), sn = sinf(p->angle), t = p->thickness;
	float h0 = lbMinF(0.0f, t * c), h1 = p->height, hm = 0.5f * (h0 + h1);
	float faceLength = (h1 - h0) / sn;
	// Face centre, then half a thickness behind it (against the outward normal (-sin, cos)).
	lbVec3 centre = { p->distance + hm * c / sn + 0.5f * t * sn, 0.0f, hm - 0.5f * t * c };
	lbVec3 half = { 0.5f * t, 0.5f * p->width, 0.5f * faceLength };
	// Box z along the face going up, box x into the wall.
	lbQuat rot = lbQuatFromAxisAngle(lbVec3_axisY, 0.5f * LB_PI - p->angle);
	return lbAddLocalBox(w, fr, centre, half, rot, LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL);
}

#define LB_REACH_HOLDS 4
#define LB_HOLD_TRIES 1000

// Hold positions of a "holds" scene in the wall's plane: (b, h) pairs, side and height. The four
// reach holds come first, then the rest by dart throwing at 2 * hold_size spacing. The count limit
// (lbValidateScene) keeps the disks to about a third of the random-packing limit, so a place is found
// within a few tries; running out of tries is still an error, never a silent shortfall.
static lbResult lbPlaceHolds(const lbSceneDef* p, float* bh, int count)
{
	uint64_t rng = (uint64_t)p->seed * 0x9E3779B97F4A7C15ull + 11u;
	const float hands[2] = { 1.55f, 2.05f }, feet[2] = { 0.35f, 0.65f }, sideLo = 0.15f, sideHi = 0.45f;
	for (int i = 0; i < LB_REACH_HOLDS; ++i)
	{
		float sign = (i % 2) == 0 ? 1.0f : -1.0f;
		const float* band = i < 2 ? hands : feet;
		bh[2 * i] = sign * lbSceneUniform(&rng, sideLo, sideHi);
		bh[2 * i + 1] = lbSceneUniform(&rng, band[0], band[1]);
	}
	float size = p->holdSize, spacing2 = 4.0f * size * size;
	float b0 = -0.5f * p->width + size, b1 = 0.5f * p->width - size, hlo = size, hhi = p->height - size;
	for (int i = LB_REACH_HOLDS; i < count; ++i)
	{
		bool placed = false;
		for (int tries = 0; tries < LB_HOLD_TRIES && !placed; ++tries)
		{
			float b = lbSceneUniform(&rng, b0, b1), h = lbSceneUniform(&rng, hlo, hhi);
			placed = true;
			for (int j = 0; j < i && placed; ++j)
			{
				float db = b - bh[2 * j], dh = h - bh[2 * j + 1];
				placed = db * db + dh * dh >= spacing2;
			}
			if (placed)
			{
				bh[2 * i] = b;
				bh[2 * i + 1] = h;
			}
		}
		if (!placed)
			return lbReport(lb_errorInvalidArgument, "lbBuildScene: no room for hold %d of %d at %g m spacing", i + 1,
							count, (double)(2.0f * size));
	}
	return lb_ok;
}

// Wall (WALL only) plus holds (CLIMBABLE | WALL), each sunk a little into the wall.
static lbResult lbBuildHolds(lbWorld* w, const lbSceneFrame* fr, const lbSceneDef* p)
{
	lbResult r = lbAddGround(w, fr, p->groundSize, 0.0f);
	float d = p->distance, hw = 0.5f * p->width;
	if (r == lb_ok)
		r = lbAddSpanBox(w, fr, d, d + p->thickness, -hw, hw, 0.0f, p->height, LB_CHANNEL_WALL);
	if (r != lb_ok)
		return r;
	int count = (int)p->holdCount;
	float* bh = (float*)lbAlloc(sizeof(float) * 2 * (size_t)count);
	if (!bh)
		return lbReport(lb_errorOutOfMemory, "lbBuildScene: out of memory");
	r = lbPlaceHolds(p, bh, count);
	float embed = lbMinF(0.02f, 0.5f * p->thickness), e = 0.5f * p->holdSize;
	for (int i = 0; i < count && r == lb_ok; ++i)
		r = lbAddSpanBox(w, fr, d - p->holdDepth, d + embed, bh[2 * i] - e, bh[2 * i] + e, bh[2 * i + 1] - e,
						 bh[2 * i + 1] + e, LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL);
	lbFree(bh);
	return r;
}

// Formats a validation failure into why (cap bytes) and returns code; nothing is logged here.
static lbResult lbSceneFail(char* why, size_t cap, lbResult code, const char* format, ...)
{
	va_list args;
	va_start(args, format);
	if (why && cap > 0)
		vsnprintf(why, cap, format, args);
	va_end(args);
	return code;
}

static lbResult lbCheckPositive(const char* name, float v, char* why, size_t cap)
{
	if (!lbIsValidFloat(v) || !(v > 0.0f))
		return lbSceneFail(why, cap, lb_errorInvalidArgument, "'%s' = %g must be finite and > 0", name, (double)v);
	return lb_ok;
}

static lbResult lbValidateScene(const lbSceneDef* p, char* why, size_t cap)
{
	lbResult r = lb_ok;
#define LB_POS(field, name)                                                                                  \
	if (r == lb_ok)                                                                                          \
	r = lbCheckPositive(name, p->field, why, cap)
	switch (p->kind)
	{
	case lb_sceneSlope:
		LB_POS(width, "width");
		LB_POS(length, "length");
		if (r == lb_ok && !(p->angle > -1.5f && p->angle < 1.5f))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "slope angle %g rad outside (-1.5, 1.5)", (double)p->angle);
		break;
	case lb_sceneStairs:
		LB_POS(riser, "riser");
		LB_POS(tread, "tread");
		LB_POS(width, "width");
		LB_POS(landing, "landing");
		if (r == lb_ok && !(p->count >= 1.0f && p->count <= 256.0f && p->count == floorf(p->count)))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "stairs count %g is not a whole number in 1..256", (double)p->count);
		break;
	case lb_sceneRocky:
		LB_POS(scale, "scale");
		LB_POS(size, "size");
		LB_POS(resolution, "resolution");
		// Below a millimetre a feature or a sample is noise in float (and 1 / scale overflows).
		if (r == lb_ok && !(p->scale >= 1.0e-3f && p->resolution >= 1.0e-3f))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "rocky scale %g and resolution %g must be at least 0.001 m",
						 (double)p->scale, (double)p->resolution);
		if (r == lb_ok && !(p->amplitude >= 0.0f && lbIsValidFloat(p->amplitude)))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "amplitude must be >= 0");
		break;
	case lb_sceneStepDown:
		LB_POS(size, "size");
		LB_POS(width, "width");
		LB_POS(drop, "drop");
		LB_POS(thickness, "thickness");
		break;
	case lb_sceneClimbWall:
		LB_POS(width, "width");
		LB_POS(panelHeight, "panel_height");
		LB_POS(holdSize, "hold_size");
		LB_POS(holdDepth, "hold_depth");
		LB_POS(thickness, "thickness");
		if (r == lb_ok && !(p->holdCount >= 0.0f && p->holdCount <= 4096.0f && p->holdCount == floorf(p->holdCount)))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "hold_count %g is not a whole number in 0..4096",
						 (double)p->holdCount);
		if (r == lb_ok && !(lbAbsF(p->inclineAngle) < 1.4f && lbAbsF(p->overhangAngle) < 1.4f))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "wall angles must be within (-1.4, 1.4) rad");
		if (r == lb_ok && !(p->width > 2.0f * p->holdSize))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "wall width must exceed two hold sizes");
		break;
	case lb_sceneInsideCorner:
		LB_POS(width, "width");
		LB_POS(thickness, "thickness");
		LB_POS(height, "height");
		break;
	case lb_sceneLedgeTop:
		LB_POS(width, "width");
		LB_POS(height, "height");
		LB_POS(depth, "depth");
		break;
	case lb_sceneRoof:
		LB_POS(width, "width");
		LB_POS(run, "run");
		if (r == lb_ok && !(p->angle > 0.0f && p->angle < 1.5f))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "roof angle %g rad outside (0, 1.5)", (double)p->angle);
		break;
	case lb_sceneBeam:
		LB_POS(width, "width");
		LB_POS(height, "height");
		LB_POS(length, "length");
		break;
	case lb_sceneGap:
		LB_POS(width, "width");
		LB_POS(size, "size");
		LB_POS(thickness, "thickness");
		LB_POS(depth, "depth");
		LB_POS(gap, "gap");
		// The platform must reach back behind the character and past the gap's near edge.
		if (r == lb_ok && !(p->distance > -0.5f * p->size && p->distance < 0.5f * p->size))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument,
						 "lbBuildScene: gap distance %g must lie within the platform (|distance| < size / 2 = %g)",
						 (double)p->distance, (double)(0.5f * p->size));
		break;
	case lb_sceneWall:
		LB_POS(width, "width");
		LB_POS(height, "height");
		LB_POS(thickness, "thickness");
		if (r == lb_ok && !(p->angle > 0.0f && p->angle < LB_PI))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "wall angle %g rad outside (0, pi)", (double)p->angle);
		break;
	case lb_sceneHolds:
	{
		LB_POS(width, "width");
		LB_POS(height, "height");
		LB_POS(thickness, "thickness");
		LB_POS(holdSize, "hold_size");
		LB_POS(holdDepth, "hold_depth");
		if (r == lb_ok && !(p->holdSize <= 0.15f))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "hold_size %g above 0.15", (double)p->holdSize);
		if (r == lb_ok && !(p->width >= 1.2f && p->height >= 2.4f))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "holds wall %g x %g m is smaller than 1.2 x 2.4 m",
						 (double)p->width, (double)p->height);
		if (r != lb_ok)
			break;
		// Dart throwing stays well below the random-packing limit: one hold per (4 hold_size)^2.
		float s = p->holdSize;
		float room = (p->width - 2.0f * s) * (p->height - 2.0f * s) / (16.0f * s * s);
		float most = lbMinF(4096.0f, floorf(room));
		if (!(p->holdCount >= (float)LB_REACH_HOLDS && p->holdCount <= most && p->holdCount == floorf(p->holdCount)))
			r = lbSceneFail(why, cap, lb_errorInvalidArgument, "hold_count %g must be an integer in %d..%g for this wall",
						 (double)p->holdCount, LB_REACH_HOLDS, (double)most);
		break;
	}
	default:
		break;
	}
#undef LB_POS
	if (r == lb_ok && !(p->groundSize >= 0.0f && lbIsValidFloat(p->groundSize)))
		r = lbSceneFail(why, cap, lb_errorInvalidArgument, "ground_size must be >= 0");
	if (r == lb_ok && !lbIsValidFloat(p->distance))
		r = lbSceneFail(why, cap, lb_errorNonFinite, "distance is not finite");
	return r;
}

// Checks every param and sets up the scene's frame.
lbResult lbSceneDef_Validate(const lbSceneDef* p, char* outMessage, size_t capacity)
{
	if (outMessage && capacity > 0)
		outMessage[0] = 0;
	if (!p)
		return lbSceneFail(outMessage, capacity, lb_errorNullPointer, "params is NULL");
	if (p->internalValue != LB_SECRET_COOKIE)
		return lbSceneFail(outMessage, capacity, lb_errorDefNotInitialized, "params not initialised with lbDefaultSceneDef()");
	if ((int)p->kind <= 0 || (int)p->kind >= lb_sceneCount)
		return lbSceneFail(outMessage, capacity, lb_errorInvalidArgument, "unknown scene kind %d", (int)p->kind);
	if (!lbIsValidVec3(p->up) || !lbIsValidVec3(p->forward) || !lbIsValidVec3(p->origin))
		return lbSceneFail(outMessage, capacity, lb_errorNonFinite, "up, forward or origin is not finite");
	if (!(lbLength(p->up) > 1.0e-6f))
		return lbSceneFail(outMessage, capacity, lb_errorInvalidArgument, "up is zero");
	return lbValidateScene(p, outMessage, capacity);
}

static lbResult lbPrepareScene(const lbSceneDef* params, lbSceneFrame* outFrame)
{
	char why[256];
	lbResult r = lbSceneDef_Validate(params, why, sizeof why);
	if (r != lb_ok)
		return lbReport(r, "lbBuildScene: %s", why);
	const lbSceneDef* p = params;
	lbSceneFrame* fr = outFrame;
	fr->u = lbNormalize(p->up);
	fr->f = lbNormalizeOr(lbProjectOnPlane(p->forward, fr->u), lbVec3_zero);
	if (lbLengthSquared(fr->f) < 0.5f)
		fr->f = lbAnyPerpendicular(fr->u);
	fr->s = lbCross(fr->u, fr->f);
	fr->q = lbQuatFromBasis(fr->f, fr->s, fr->u);
	fr->origin = p->origin;
	return lb_ok;
}

int lbSceneHolds(const lbSceneDef* params, lbVec3* outCentres, int capacity)
{
	if (!params || (capacity > 0 && !outCentres))
	{
		lbReport(lb_errorNullPointer, "lbSceneHolds: params or outCentres is NULL");
		return -1;
	}
	if (params->kind != lb_sceneHolds)
	{
		lbReport(lb_errorInvalidArgument, "lbSceneHolds: scene '%s' is not \"holds\"", lbSceneBuilderName(params->kind));
		return -1;
	}
	lbSceneFrame fr;
	memset(&fr, 0, sizeof fr);
	if (lbPrepareScene(params, &fr) != lb_ok)
		return -1;
	int count = (int)params->holdCount;
	float* bh = (float*)lbAlloc(sizeof(float) * 2 * (size_t)count);
	if (!bh)
	{
		lbReport(lb_errorOutOfMemory, "lbSceneHolds: out of memory");
		return -1;
	}
	lbResult r = lbPlaceHolds(params, bh, count);
	for (int i = 0; i < count && i < capacity && r == lb_ok; ++i)
		outCentres[i] = lbFramePoint(&fr, params->distance - params->holdDepth, bh[2 * i], bh[2 * i + 1]);
	lbFree(bh);
	return r == lb_ok ? count : -1;
}

lbResult lbBuildScene(lbWorld* world, const lbSceneDef* params)
{
	if (!world || !params)
		return lbReport(lb_errorNullPointer, "lbBuildScene: world or params is NULL");
	lbSceneFrame fr;
	memset(&fr, 0, sizeof fr);
	lbResult r = lbPrepareScene(params, &fr);
	if (r != lb_ok)
		return r;
	const lbSceneDef* p = params;
	float hw = 0.5f * p->width;
	switch (p->kind)
	{
	case lb_sceneFlat:
		r = lbAddGround(world, &fr, p->groundSize, 0.0f);
		break;
	case lb_sceneSlope:
	{
		r = lbAddGround(world, &fr, p->groundSize, 0.0f);
		if (r != lb_ok)
			break;
		// The slope starts at the origin's line and rises (or falls, for a negative angle) ahead.
		float rise = p->length * tanf(p->angle);
		lbVec3 q[4] = { { 0.0f, -hw, 0.0f }, { p->length, -hw, rise }, { p->length, hw, rise }, { 0.0f, hw, 0.0f } };
		r = lbAddQuads(world, &fr, q, 1, LB_CHANNEL_GROUND);
		break;
	}
	case lb_sceneStairs:
	{
		r = lbAddGround(world, &fr, p->groundSize, 0.0f);
		int n = (int)p->count;
		for (int k = 0; k < n && r == lb_ok; ++k)
		{
			float a0 = p->distance + (float)k * p->tread;
			float a1 = k == n - 1 ? a0 + p->landing : a0 + p->tread;
			r = lbAddSpanBox(world, &fr, a0, a1, -hw, hw, 0.0f, (float)(k + 1) * p->riser, LB_CHANNEL_GROUND);
		}
		break;
	}
	case lb_sceneRocky:
		r = lbBuildRocky(world, &fr, p);
		break;
	case lb_sceneStepDown:
	{
		float e = 0.5f * p->size;
		r = lbAddSpanBox(world, &fr, -e, p->distance, -hw, hw, -p->thickness, 0.0f, LB_CHANNEL_GROUND);
		if (r == lb_ok)
			r = lbAddSpanBox(world, &fr, p->distance, p->distance + e, -hw, hw, -p->drop - p->thickness, -p->drop,
							 LB_CHANNEL_GROUND);
		break;
	}
	case lb_sceneClimbWall:
		r = lbBuildClimbWall(world, &fr, p);
		break;
	case lb_sceneInsideCorner:
	{
		r = lbAddGround(world, &fr, p->groundSize, 0.0f);
		// Corner line at (a, b) = (distance, distance): wall A faces -forward, wall B faces -side.
		float d = p->distance, t = p->thickness, L = p->width;
		uint32_t ch = LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL;
		if (r == lb_ok)
			r = lbAddSpanBox(world, &fr, d, d + t, d - L, d + t, 0.0f, p->height, ch);
		if (r == lb_ok)
			r = lbAddSpanBox(world, &fr, d - L, d, d, d + t, 0.0f, p->height, ch);
		break;
	}
	case lb_sceneLedgeTop:
		r = lbAddGround(world, &fr, p->groundSize, 0.0f);
		if (r == lb_ok)
			r = lbAddSpanBox(world, &fr, p->distance, p->distance + p->depth, -hw, hw, 0.0f, p->height,
							 LB_CHANNEL_GROUND | LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL);
		break;
	case lb_sceneBeam:
		r = lbAddGround(world, &fr, p->groundSize, 0.0f);
		if (r == lb_ok)
			r = lbAddSpanBox(world, &fr, p->distance, p->distance + p->length, -hw, hw, 0.0f, p->height, LB_CHANNEL_GROUND);
		break;
	case lb_sceneGap:
	{
		// Both platforms are solid down to the floor's underside, so the gap has real walls (a
		// trench's sides) and nothing can be seen or cast under the platforms.
		float e = 0.5f * p->size, far = p->distance + p->gap, bottom = -p->depth - p->thickness;
		r = lbAddSpanBox(world, &fr, -e, p->distance, -hw, hw, bottom, 0.0f, LB_CHANNEL_GROUND);
		if (r == lb_ok)
			r = lbAddSpanBox(world, &fr, p->distance, far, -hw, hw, bottom, -p->depth, LB_CHANNEL_GROUND);
		if (r == lb_ok)
			r = lbAddSpanBox(world, &fr, far, far + e, -hw, hw, bottom, 0.0f, LB_CHANNEL_GROUND);
		break;
	}
	case lb_sceneWall:
		r = lbBuildWall(world, &fr, p);
		break;
	case lb_sceneHolds:
		r = lbBuildHolds(world, &fr, p);
		break;
	case lb_sceneRoof:
	{
		r = lbAddGround(world, &fr, p->groundSize, 0.0f);
		if (r != lb_ok)
			break;
		float eave = p->height - p->run * tanf(p->angle);
		lbVec3 q[8] = {
			{ -p->run, -hw, eave }, { 0.0f, -hw, p->height }, { 0.0f, hw, p->height }, { -p->run, hw, eave },
			{ 0.0f, -hw, p->height }, { p->run, -hw, eave }, { p->run, hw, eave }, { 0.0f, hw, p->height },
		};
		r = lbAddQuads(world, &fr, q, 2, LB_CHANNEL_ROOF | LB_CHANNEL_GROUND);
		break;
	}
	default:
		break;
	}
	return r;
}
