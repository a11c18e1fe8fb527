// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Scene builders: geometry measured with casts (step heights, slope and roof angles, drop, wall and
// ledge distances, beam top and sides, gap edges, floor and walls, the planar wall's face at any
// angle, holds only where lbSceneHolds says), determinism by seed, heightfield and mesh forms of
// rocky terrain agreeing, any up axis, and the key/value parameter interface.
#include "limber/limber.h"
#include "test_macros.h"

typedef struct Frame
{
	lbVec3 up, f, s;
} Frame;

static lbVec3 At(const Frame* fr, float a, float b, float h)
{
	return lbAdd(lbMulSV(a, fr->f), lbAdd(lbMulSV(b, fr->s), lbMulSV(h, fr->up)));
}

// Ground height (along up) under local (a, b), cast down from 20 m; NAN when nothing.
static float HeightAt(const lbWorld* w, const Frame* fr, float a, float b, uint32_t mask, lbVec3* outNormal)
{
	lbQueryInput in = lbDefaultQueryInput();
	in.start = At(fr, a, b, 20.0f);
	in.end = At(fr, a, b, -20.0f);
	in.channelMask = mask;
	lbHit h = lbWorld_RayCast(w, &in);
	if (outNormal)
		*outNormal = h.normal;
	return h.hit ? lbDot(h.location, fr->up) : NAN;
}

// Distance travelled by a ray along local direction (da, db, dh) from local (a, b, h).
static float CastAlong(const lbWorld* w, const Frame* fr, lbVec3 from, lbVec3 dir, uint32_t mask, lbHit* outHit)
{
	lbQueryInput in = lbDefaultQueryInput();
	in.start = At(fr, from.x, from.y, from.z);
	in.end = lbAdd(in.start, lbMulSV(30.0f, At(fr, dir.x, dir.y, dir.z)));
	in.channelMask = mask;
	lbHit h = lbWorld_RayCast(w, &in);
	if (outHit)
		*outHit = h;
	return h.hit ? h.distance : NAN;
}

static const Frame frames[2] = {
	{ { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } },
	// +Y up, facing +Z: side = up x forward = +X.
	{ { 0, 1, 0 }, { 0, 0, 1 }, { 1, 0, 0 } },
};

static lbWorld* Build(lbSceneDef* p, const Frame* fr)
{
	p->up = fr->up;
	p->forward = fr->f;
	lbWorldDef wd = lbDefaultWorldDef();
	wd.up = fr->up;
	lbWorld* w = lbCreateWorld(&wd);
	lbResult r = lbBuildScene(w, p);
	ENSURE(r == lb_ok);
	return w;
}

static void Stairs(void)
{
	for (int k = 0; k < 2; ++k)
	{
		const Frame* fr = &frames[k];
		lbSceneDef p = lbDefaultSceneDef(lbSceneBuilderByName("stairs"));
		ENSURE(lbSceneDef_Set(&p, "riser", 0.17f) == lb_ok);
		ENSURE(lbSceneDef_Set(&p, "tread", 0.3f) == lb_ok);
		ENSURE(lbSceneDef_Set(&p, "count", 6.0f) == lb_ok);
		lbWorld* w = Build(&p, fr);
		ENSURE_NEAR(HeightAt(w, fr, 0.0f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-6f);
		for (int s = 0; s < 6; ++s)
		{
			float a = p.distance + ((float)s + 0.5f) * p.tread;
			lbVec3 n;
			ENSURE_NEAR(HeightAt(w, fr, a, 0.3f, LB_CHANNEL_GROUND, &n), 0.17f * (float)(s + 1), 1e-5f);
			ENSURE_VEC3_NEAR(n, fr->up, 1e-5f);
		}
		// The riser of step 2 faces the walker: a horizontal ray at mid-riser height stops at it.
		lbHit h;
		float d = CastAlong(w, fr, lbMakeVec3(0.0f, 0.0f, 0.17f * 2.5f), lbMakeVec3(1, 0, 0), LB_CHANNEL_ALL, &h);
		ENSURE_NEAR(d, p.distance + 2.0f * p.tread, 1e-5f);
		ENSURE_VEC3_NEAR(h.normal, lbNeg(fr->f), 1e-5f);
		// Outside the stairs' width there is only ground.
		ENSURE_NEAR(HeightAt(w, fr, p.distance + 0.5f, 1.5f, LB_CHANNEL_ALL, NULL), 0.0f, 1e-6f);
		lbDestroyWorld(w);
	}
}

static void SlopeAndRoof(void)
{
	for (int k = 0; k < 2; ++k)
	{
		const Frame* fr = &frames[k];
		lbSceneDef p = lbDefaultSceneDef(lb_sceneSlope);
		ENSURE(lbSceneDef_Set(&p, "angle", 30.0f * LB_DEG2RAD) == lb_ok);
		lbWorld* w = Build(&p, fr);
		lbVec3 n;
		float h = HeightAt(w, fr, 4.0f, 1.0f, LB_CHANNEL_GROUND, &n);
		ENSURE_NEAR(h, 4.0f * tanf(30.0f * LB_DEG2RAD), 1e-5f);
		ENSURE_NEAR(acosf(lbClampF(lbDot(n, fr->up), -1.0f, 1.0f)), 30.0f * LB_DEG2RAD, 1e-4f);
		// The slope's normal leans back toward the walker.
		ENSURE(lbDot(n, fr->f) < 0.0f);
		lbDestroyWorld(w);

		p = lbDefaultSceneDef(lb_sceneRoof);
		w = Build(&p, fr);
		for (int side = -1; side <= 1; side += 2)
		{
			float a = (float)side * 0.5f * p.run;
			h = HeightAt(w, fr, a, 0.5f, LB_CHANNEL_ROOF, &n);
			ENSURE_NEAR(h, p.height - 0.5f * p.run * tanf(p.angle), 1e-5f);
			ENSURE_NEAR(acosf(lbClampF(lbDot(n, fr->up), -1.0f, 1.0f)), p.angle, 1e-4f);
			// Each slope's normal points away from the ridge.
			ENSURE((float)side * lbDot(n, fr->f) > 0.0f);
		}
		ENSURE_NEAR(HeightAt(w, fr, 0.0f, 0.0f, LB_CHANNEL_ROOF, NULL), p.height, 1e-5f);
		lbDestroyWorld(w);
	}
}

static void StepDownLedgeTopCorner(void)
{
	for (int k = 0; k < 2; ++k)
	{
		const Frame* fr = &frames[k];
		lbSceneDef p = lbDefaultSceneDef(lb_sceneStepDown);
		ENSURE(lbSceneDef_Set(&p, "drop", 0.45f) == lb_ok);
		lbWorld* w = Build(&p, fr);
		ENSURE_NEAR(HeightAt(w, fr, p.distance - 0.05f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-6f);
		ENSURE_NEAR(HeightAt(w, fr, p.distance + 0.05f, 0.0f, LB_CHANNEL_GROUND, NULL), -0.45f, 1e-5f);
		lbDestroyWorld(w);

		p = lbDefaultSceneDef(lb_sceneLedgeTop);
		w = Build(&p, fr);
		ENSURE_NEAR(HeightAt(w, fr, p.distance + 0.5f, 0.0f, LB_CHANNEL_CLIMBABLE, NULL), p.height, 1e-5f);
		lbHit h;
		ENSURE_NEAR(CastAlong(w, fr, lbMakeVec3(0, 0, 1.0f), lbMakeVec3(1, 0, 0), LB_CHANNEL_WALL, &h), p.distance, 1e-5f);
		ENSURE_VEC3_NEAR(h.normal, lbNeg(fr->f), 1e-5f);
		lbDestroyWorld(w);

		p = lbDefaultSceneDef(lb_sceneInsideCorner);
		w = Build(&p, fr);
		ENSURE_NEAR(CastAlong(w, fr, lbMakeVec3(0, 0, 1.0f), lbMakeVec3(1, 0, 0), LB_CHANNEL_WALL, &h), p.distance, 1e-5f);
		ENSURE_VEC3_NEAR(h.normal, lbNeg(fr->f), 1e-5f);
		ENSURE_NEAR(CastAlong(w, fr, lbMakeVec3(0, 0, 1.0f), lbMakeVec3(0, 1, 0), LB_CHANNEL_WALL, &h), p.distance, 1e-5f);
		ENSURE_VEC3_NEAR(h.normal, lbNeg(fr->s), 1e-5f);
		// Into the corner: a sphere touches both walls at once, stopping r away from each.
		lbQueryInput in = lbDefaultQueryInput();
		in.start = At(fr, 0, 0, 1.0f);
		in.end = At(fr, 3.0f, 3.0f, 1.0f);
		in.radius = 0.1f;
		h = lbWorld_SphereCast(w, &in);
		ENSURE(h.hit);
		ENSURE_NEAR(lbDot(h.location, fr->f), p.distance - 0.1f, 1e-5f);
		lbDestroyWorld(w);
	}
}

static void ClimbWall(void)
{
	for (int k = 0; k < 2; ++k)
	{
		const Frame* fr = &frames[k];
		lbSceneDef p = lbDefaultSceneDef(lb_sceneClimbWall);
		ENSURE(lbSceneDef_Set(&p, "hold_count", 12.0f) == lb_ok);
		lbWorld* w = Build(&p, fr);
		// Ground + wall mesh + holds.
		ENSURE(lbWorld_GetShapeCount(w) == 2 + 12);
		lbHit h;
		// Vertical panel.
		float d = CastAlong(w, fr, lbMakeVec3(0, 1.9f, 1.0f), lbMakeVec3(1, 0, 0), LB_CHANNEL_CLIMBABLE, &h);
		ENSURE(h.hit);
		ENSURE((h.channels & LB_CHANNEL_CLIMBABLE) != 0);
		if (h.shapeId == 1)
		{
			ENSURE_NEAR(d, p.distance, 1e-5f);
			ENSURE_VEC3_NEAR(h.normal, lbNeg(fr->f), 1e-5f);
		}
		// Inclined panel: at 1 m up it, the wall has moved back by sin(incline).
		float hgt = p.panelHeight + cosf(p.inclineAngle);
		float expect = p.distance + sinf(p.inclineAngle);
		int withWall = 0;
		for (float b = -1.9f; b <= 1.9f; b += 0.1f)
		{
			d = CastAlong(w, fr, lbMakeVec3(0, b, hgt), lbMakeVec3(1, 0, 0), LB_CHANNEL_CLIMBABLE, &h);
			if (h.hit && h.shapeId == 1)
			{
				++withWall;
				ENSURE_NEAR(d, expect, 1e-4f);
				// Normal tilts up by the incline.
				ENSURE_NEAR(lbDot(h.normal, fr->up), sinf(p.inclineAngle), 1e-4f);
			}
			else
				ENSURE(h.hit && d < expect); // a hold in front of the panel
		}
		ENSURE(withWall > 20);
		// Overhang: normal tilts down.
		float hTop = p.panelHeight + p.panelHeight * cosf(p.inclineAngle) + 1.0f * cosf(p.overhangAngle);
		d = CastAlong(w, fr, lbMakeVec3(0, 1.95f, hTop), lbMakeVec3(1, 0, 0), LB_CHANNEL_CLIMBABLE, &h);
		ENSURE(h.hit);
		if (h.shapeId == 1)
			ENSURE_NEAR(lbDot(h.normal, fr->up), -sinf(p.overhangAngle), 1e-4f);
		// Every hold sticks out toward the climber: a ray at its centre meets it before the wall.
		for (int i = 2; i < lbWorld_GetShapeCount(w); ++i)
		{
			lbShapeInfo info;
			ENSURE(lbWorld_GetShapeInfo(w, i, &info) && info.kind == lb_shapeBox);
			ENSURE(info.channels & LB_CHANNEL_CLIMBABLE);
			lbQueryInput in = lbDefaultQueryInput();
			in.start = lbSub(info.transform.p, lbMulSV(3.0f, fr->f));
			in.end = info.transform.p;
			in.channelMask = LB_CHANNEL_CLIMBABLE;
			h = lbWorld_RayCast(w, &in);
			ENSURE(h.hit && h.shapeId >= 2);
		}
		lbDestroyWorld(w);
	}
	// Determinism: the same seed gives the same holds; another seed moves them.
	lbSceneDef p = lbDefaultSceneDef(lb_sceneClimbWall);
	lbWorld* a = Build(&p, &frames[0]);
	lbWorld* b = Build(&p, &frames[0]);
	lbSceneDef_Set(&p, "seed", 99.0f);
	lbWorld* c = Build(&p, &frames[0]);
	int same = 0, moved = 0;
	for (int i = 2; i < lbWorld_GetShapeCount(a); ++i)
	{
		lbShapeInfo ia, ib, ic;
		lbWorld_GetShapeInfo(a, i, &ia);
		lbWorld_GetShapeInfo(b, i, &ib);
		lbWorld_GetShapeInfo(c, i, &ic);
		same += memcmp(&ia.transform, &ib.transform, sizeof ia.transform) == 0;
		moved += lbDistance(ia.transform.p, ic.transform.p) > 1e-3f;
	}
	ENSURE(same == lbWorld_GetShapeCount(a) - 2);
	ENSURE(moved == lbWorld_GetShapeCount(a) - 2);
	lbDestroyWorld(a);
	lbDestroyWorld(b);
	lbDestroyWorld(c);
}

// Local (a, b, h) coordinates of a world point.
static lbVec3 Local(const Frame* fr, lbVec3 p)
{
	return lbMakeVec3(lbDot(p, fr->f), lbDot(p, fr->s), lbDot(p, fr->up));
}

static void Wall(void)
{
	lbSceneDef p = lbDefaultSceneDef(lbSceneBuilderByName("wall"));
	ENSURE(p.kind == lb_sceneWall && strcmp(lbSceneBuilderName(lb_sceneWall), "wall") == 0);
	ENSURE_NEAR(p.distance, 0.6f, 1e-6f);
	ENSURE_NEAR(p.width, 4.0f, 1e-6f);
	ENSURE_NEAR(p.height, 4.0f, 1e-6f);
	ENSURE_NEAR(p.angle, 90.0f * LB_DEG2RAD, 1e-6f);
	ENSURE_NEAR(p.thickness, 0.3f, 1e-6f);
	const float angles[3] = { 90.0f, 70.0f, 110.0f };
	for (int k = 0; k < 2; ++k)
	{
		const Frame* fr = &frames[k];
		for (int ai = 0; ai < 3; ++ai)
		{
			float ang = angles[ai] * LB_DEG2RAD;
			p = lbDefaultSceneDef(lb_sceneWall);
			ENSURE(lbSceneDef_Set(&p, "angle", ang) == lb_ok);
			lbWorld* w = Build(&p, fr);
			ENSURE(lbWorld_GetShapeCount(w) == 2);
			// Along forward at any height and side position the face lies distance + h / tan(angle)
			// ahead of the origin (an overhang's top reaches back over the character, so the rays
			// start 3 m behind); its normal faces the climber and makes `angle` with up.
			const float hs[4] = { 0.05f, 1.0f, 2.0f, 3.9f }, bs[3] = { -1.9f, 0.0f, 1.3f };
			for (int i = 0; i < 4; ++i)
				for (int j = 0; j < 3; ++j)
				{
					lbHit h;
					float d = CastAlong(w, fr, lbMakeVec3(-3.0f, bs[j], hs[i]), lbMakeVec3(1, 0, 0), LB_CHANNEL_CLIMBABLE, &h);
					ENSURE_NEAR(d - 3.0f, p.distance + hs[i] / tanf(ang), 1e-4f);
					ENSURE(h.channels == (LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL));
					ENSURE_NEAR(acosf(lbClampF(lbDot(h.normal, fr->up), -1.0f, 1.0f)), ang, 1e-4f);
					ENSURE_NEAR(lbDot(h.normal, fr->f), -sinf(ang), 1e-5f);
					ENSURE_NEAR(lbDot(h.normal, fr->s), 0.0f, 1e-5f);
				}
			// Nothing past the face's side edges or above its top (an overhang's back edge rises at
			// most `thickness` above it).
			float mid = p.distance + 1.0f / tanf(ang);
			ENSURE(!lbIsValidFloat(CastAlong(w, fr, lbMakeVec3(mid - 1.0f, 2.05f, 1.0f), lbMakeVec3(1, 0, 0), LB_CHANNEL_ALL, NULL)));
			ENSURE(!lbIsValidFloat(CastAlong(w, fr, lbMakeVec3(mid - 1.0f, -2.05f, 1.0f), lbMakeVec3(1, 0, 0), LB_CHANNEL_ALL, NULL)));
			ENSURE(!lbIsValidFloat(CastAlong(w, fr, lbMakeVec3(-5.0f, 0.0f, p.height + p.thickness + 0.01f), lbMakeVec3(1, 0, 0),
											 LB_CHANNEL_ALL, NULL)));
			// The ground stays GROUND only; the wall is not ground, even behind its face.
			lbVec3 n;
			ENSURE_NEAR(HeightAt(w, fr, 0.0f, 0.0f, LB_CHANNEL_GROUND, &n), 0.0f, 1e-6f);
			ENSURE_VEC3_NEAR(n, fr->up, 1e-5f);
			ENSURE_NEAR(HeightAt(w, fr, mid + 0.1f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-6f);
			// Solid: a sphere inside the wall reports penetration; one just off the face does not.
			lbVec3 out = { -sinf(ang), 0.0f, cosf(ang) };  // local outward normal
			lbVec3 face = { p.distance + 2.0f / tanf(ang), 0.3f, 2.0f };
			lbQueryInput in = lbDefaultQueryInput();
			in.radius = 0.05f;
			in.start = At(fr, face.x - 0.1f * out.x, face.y, face.z - 0.1f * out.z);
			lbHit h = lbWorld_SphereOverlap(w, &in);
			ENSURE(h.hit && h.startedInside && h.penetrationDepth > 0.05f);
			ENSURE(h.channels & LB_CHANNEL_CLIMBABLE);
			in.start = At(fr, face.x + 0.1f * out.x, face.y, face.z + 0.1f * out.z);
			h = lbWorld_SphereOverlap(w, &in);
			ENSURE(!h.hit && !h.startedInside);
			lbDestroyWorld(w);
		}
	}
}

static void Holds(void)
{
	lbSceneDef p = lbDefaultSceneDef(lbSceneBuilderByName("holds"));
	ENSURE(p.kind == lb_sceneHolds && strcmp(lbSceneBuilderName(lb_sceneHolds), "holds") == 0);
	ENSURE_NEAR(p.distance, 0.6f, 1e-6f);
	ENSURE_NEAR(p.width, 4.0f, 1e-6f);
	ENSURE_NEAR(p.height, 4.0f, 1e-6f);
	ENSURE_NEAR(p.holdCount, 60.0f, 1e-6f);
	ENSURE_NEAR(p.holdSize, 0.1f, 1e-6f);
	ENSURE_NEAR(p.holdDepth, 0.06f, 1e-6f);
	int hitsAtHolds = 0, missesBetween = 0;
	for (int k = 0; k < 2; ++k)
	{
		const Frame* fr = &frames[k];
		p = lbDefaultSceneDef(lb_sceneHolds);
		lbWorld* w = Build(&p, fr);
		ENSURE(lbWorld_GetShapeCount(w) == 2 + 60);
		lbVec3 c[64];
		ENSURE(lbSceneHolds(&p, c, 64) == 60);
		float e = 0.5f * p.holdSize;
		lbVec3 loc[60];
		for (int i = 0; i < 60; ++i)
		{
			loc[i] = Local(fr, c[i]);
			ENSURE_NEAR(loc[i].x, p.distance - p.holdDepth, 1e-5f);
			ENSURE(lbAbsF(loc[i].y) <= 0.5f * p.width - e && loc[i].z >= e && loc[i].z <= p.height - e);
			for (int j = 0; j < i; ++j)
				ENSURE(lbDistance(c[i], c[j]) >= 2.0f * p.holdSize - 1e-5f);
			// Each hold is met at its centre, facing the climber, before the wall.
			lbQueryInput in = lbDefaultQueryInput();
			in.start = lbSub(c[i], fr->f);
			in.end = lbAdd(c[i], fr->f);
			in.channelMask = LB_CHANNEL_CLIMBABLE;
			lbHit h = lbWorld_RayCast(w, &in);
			ENSURE(h.hit && h.shapeId >= 2);
			ENSURE_NEAR(h.distance, 1.0f, 1e-5f);
			ENSURE_VEC3_NEAR(h.impactPoint, c[i], 1e-5f);
			ENSURE_VEC3_NEAR(h.normal, lbNeg(fr->f), 1e-5f);
		}
		// Within reach of a character standing at the origin: hands (left, right) then feet.
		for (int i = 0; i < 4; ++i)
		{
			float side = loc[i].y * ((i % 2) == 0 ? 1.0f : -1.0f);
			ENSURE(side >= 0.15f && side <= 0.45f);
			if (i < 2)
				ENSURE(loc[i].z >= 1.5f && loc[i].z <= 2.1f);
			else
				ENSURE(loc[i].z >= 0.3f && loc[i].z <= 0.7f);
		}
		// Over the whole wall, a CLIMBABLE cast along forward hits exactly where a hold is; the wall
		// between holds is WALL only.
		for (float b = -1.975f; b < 2.0f; b += 0.05f)
			for (float hh = 0.025f; hh < 4.0f; hh += 0.05f)
			{
				bool inside = false, clear = true;
				for (int i = 0; i < 60; ++i)
				{
					float db = lbAbsF(b - loc[i].y), dh = lbAbsF(hh - loc[i].z);
					inside = inside || (db < e - 1e-3f && dh < e - 1e-3f);
					clear = clear && (db > e + 1e-3f || dh > e + 1e-3f);
				}
				lbHit h;
				float d = CastAlong(w, fr, lbMakeVec3(0.0f, b, hh), lbMakeVec3(1, 0, 0), LB_CHANNEL_CLIMBABLE, &h);
				if (inside)
				{
					ENSURE_NEAR(d, p.distance - p.holdDepth, 1e-5f);
					++hitsAtHolds;
				}
				else if (clear)
				{
					ENSURE(!h.hit);
					d = CastAlong(w, fr, lbMakeVec3(0.0f, b, hh), lbMakeVec3(1, 0, 0), LB_CHANNEL_WALL, &h);
					ENSURE_NEAR(d, p.distance, 1e-5f);
					ENSURE((h.channels & LB_CHANNEL_CLIMBABLE) == 0);
					++missesBetween;
				}
			}
		ENSURE_NEAR(HeightAt(w, fr, 0.0f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-6f);
		lbDestroyWorld(w);
	}
	ENSURE(hitsAtHolds > 2 * 60 && missesBetween > 2 * 5000);
	// Deterministic: same params, same centres; the origin moves them rigidly; another seed moves
	// every one; fewer slots than holds still reports the count.
	lbVec3 a[60], b[60], o[60];
	p = lbDefaultSceneDef(lb_sceneHolds);
	ENSURE(lbSceneHolds(&p, a, 60) == 60 && lbSceneHolds(&p, b, 60) == 60);
	ENSURE(memcmp(a, b, sizeof a) == 0);
	p.origin = lbMakeVec3(1.0f, -2.0f, 3.0f);
	ENSURE(lbSceneHolds(&p, o, 60) == 60);
	for (int i = 0; i < 60; ++i)
		ENSURE_VEC3_NEAR(lbSub(o[i], p.origin), a[i], 1e-5f);
	p = lbDefaultSceneDef(lb_sceneHolds);
	ENSURE(lbSceneDef_Set(&p, "seed", 7.0f) == lb_ok);
	ENSURE(lbSceneHolds(&p, b, 60) == 60);
	for (int i = 0; i < 60; ++i)
		ENSURE(lbDistance(a[i], b[i]) > 1e-4f);
	ENSURE(lbSceneHolds(&p, b, 3) == 60 && lbSceneHolds(&p, NULL, 0) == 60);
	// At the documented limit (90 with the defaults, ~2450 for 2 cm holds) placement always succeeds.
	p = lbDefaultSceneDef(lb_sceneHolds);
	ENSURE(lbSceneDef_Set(&p, "hold_count", 90.0f) == lb_ok);
	for (uint32_t seed = 0; seed < 100; ++seed)
	{
		p.seed = seed;
		ENSURE(lbSceneHolds(&p, NULL, 0) == 90);
	}
	p = lbDefaultSceneDef(lb_sceneHolds);
	ENSURE(lbSceneDef_Set(&p, "hold_size", 0.02f) == lb_ok);
	ENSURE(lbSceneDef_Set(&p, "hold_count", 2450.0f) == lb_ok);
	ENSURE(lbSceneHolds(&p, NULL, 0) == 2450);
	ENSURE(lbSceneDef_Set(&p, "hold_count", 2451.0f) == lb_ok);
	ENSURE(lbSceneHolds(&p, NULL, 0) == -1);
}

static void ClimbingCornerAndLedge(void)
{
	for (int k = 0; k < 2; ++k)
	{
		const Frame* fr = &frames[k];
		// Inside corner: two climbable walls at a right angle, ahead and to the left.
		lbSceneDef p = lbDefaultSceneDef(lb_sceneInsideCorner);
		lbWorld* w = Build(&p, fr);
		lbHit ha, hb;
		ENSURE_NEAR(CastAlong(w, fr, lbMakeVec3(0, 0, 2.0f), lbMakeVec3(1, 0, 0), LB_CHANNEL_CLIMBABLE, &ha), p.distance, 1e-5f);
		ENSURE_NEAR(CastAlong(w, fr, lbMakeVec3(0, 0, 2.0f), lbMakeVec3(0, 1, 0), LB_CHANNEL_CLIMBABLE, &hb), p.distance, 1e-5f);
		ENSURE_NEAR(lbDot(ha.normal, hb.normal), 0.0f, 1e-6f);
		ENSURE(ha.shapeId != hb.shapeId);
		// Climbable up to `height`, not above.
		ENSURE(lbIsValidFloat(CastAlong(w, fr, lbMakeVec3(0, 0, p.height - 0.01f), lbMakeVec3(1, 0, 0), LB_CHANNEL_CLIMBABLE, NULL)));
		ENSURE(!lbIsValidFloat(CastAlong(w, fr, lbMakeVec3(0, 0, p.height + 0.01f), lbMakeVec3(1, 0, 0), LB_CHANNEL_CLIMBABLE, NULL)));
		lbDestroyWorld(w);
		// Ledge top: the face is climbable, the flat top both GROUND and CLIMBABLE.
		p = lbDefaultSceneDef(lb_sceneLedgeTop);
		w = Build(&p, fr);
		ENSURE_NEAR(CastAlong(w, fr, lbMakeVec3(0, 0.5f, 1.0f), lbMakeVec3(1, 0, 0), LB_CHANNEL_CLIMBABLE, &ha), p.distance, 1e-5f);
		ENSURE_VEC3_NEAR(ha.normal, lbNeg(fr->f), 1e-5f);
		lbVec3 n;
		for (float a = p.distance + 0.05f; a < p.distance + p.depth; a += 0.35f)
		{
			ENSURE_NEAR(HeightAt(w, fr, a, -1.0f, LB_CHANNEL_GROUND, &n), p.height, 1e-5f);
			ENSURE_VEC3_NEAR(n, fr->up, 1e-5f);
			ENSURE_NEAR(HeightAt(w, fr, a, -1.0f, LB_CHANNEL_CLIMBABLE, NULL), p.height, 1e-5f);
		}
		ENSURE_NEAR(HeightAt(w, fr, p.distance + p.depth + 0.05f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-6f);
		lbDestroyWorld(w);
	}
}

static void Rocky(void)
{
	for (int k = 0; k < 2; ++k)
	{
		const Frame* fr = &frames[k];
		lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
		lbSceneDef_Set(&p, "size", 6.0f);
		lbSceneDef_Set(&p, "resolution", 0.1f);
		lbSceneDef_Set(&p, "amplitude", 0.4f);
		lbSceneDef_Set(&p, "seed", 5.0f);
		lbWorld* hf = Build(&p, fr);
		lbSceneDef_Set(&p, "as_mesh", 1.0f);
		lbWorld* mesh = Build(&p, fr);
		lbShapeInfo info;
		ENSURE(lbWorld_GetShapeInfo(hf, 0, &info) && info.kind == lb_shapeHeightfield && info.countX == 61);
		ENSURE(lbWorld_GetShapeInfo(mesh, 0, &info) && info.kind == lb_shapeMesh && info.triangleCount == 2 * 60 * 60);
		lbTestRng rng = { 17 };
		float lo = 1e9f, hi = -1e9f;
		for (int i = 0; i < 2000; ++i)
		{
			float a = lbTestUniform(&rng, -2.9f, 2.9f), b = lbTestUniform(&rng, -2.9f, 2.9f);
			lbVec3 n1, n2;
			float h1 = HeightAt(hf, fr, a, b, LB_CHANNEL_GROUND, &n1);
			float h2 = HeightAt(mesh, fr, a, b, LB_CHANNEL_GROUND, &n2);
			ENSURE_NEAR(h1, h2, 1e-5f);
			ENSURE_VEC3_NEAR(n1, n2, 1e-4f);
			ENSURE(lbAbsF(h1) <= p.amplitude + 1e-5f);
			lo = lbMinF(lo, h1);
			hi = lbMaxF(hi, h1);
		}
		// Bumpy: it spans a good part of the amplitude.
		ENSURE(hi - lo > 0.5f * p.amplitude);
		// Sample points sit exactly on the noise function.
		float a = -3.0f + 0.1f * 17.0f, b = -3.0f + 0.1f * 23.0f;
		ENSURE_NEAR(HeightAt(hf, fr, a, b, LB_CHANNEL_GROUND, NULL), lbSceneRockyHeight(&p, a, b), 2e-5f);
		lbDestroyWorld(hf);
		lbDestroyWorld(mesh);
	}
	// Same seed, same heights bit for bit; another seed, different terrain.
	lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
	lbSceneDef_Set(&p, "size", 4.0f);
	lbWorld* a = Build(&p, &frames[0]);
	lbWorld* b = Build(&p, &frames[0]);
	lbSceneDef_Set(&p, "seed", 2.0f);
	lbWorld* c = Build(&p, &frames[0]);
	lbShapeInfo ia, ib, ic;
	lbWorld_GetShapeInfo(a, 0, &ia);
	lbWorld_GetShapeInfo(b, 0, &ib);
	lbWorld_GetShapeInfo(c, 0, &ic);
	size_t n = (size_t)ia.countX * (size_t)ia.countY;
	ENSURE(memcmp(ia.heights, ib.heights, n * sizeof(float)) == 0);
	ENSURE(memcmp(ia.heights, ic.heights, n * sizeof(float)) != 0);
	lbDestroyWorld(a);
	lbDestroyWorld(b);
	lbDestroyWorld(c);
}

static void BeamAndGap(void)
{
	for (int k = 0; k < 2; ++k)
	{
		const Frame* fr = &frames[k];
		// Beam: defaults 0.3 m wide, 0.5 m high, from 1 m behind the origin over 6 m.
		lbSceneDef p = lbDefaultSceneDef(lbSceneBuilderByName("beam"));
		ENSURE(p.kind == lb_sceneBeam);
		ENSURE_NEAR(p.width, 0.3f, 1e-6f);
		ENSURE_NEAR(p.height, 0.5f, 1e-6f);
		lbWorld* w = Build(&p, fr);
		lbVec3 n;
		for (float a = -0.9f; a < 4.95f; a += 0.5f)
		{
			ENSURE_NEAR(HeightAt(w, fr, a, 0.0f, LB_CHANNEL_GROUND, &n), 0.5f, 1e-5f);
			ENSURE_VEC3_NEAR(n, fr->up, 1e-5f);
			ENSURE_NEAR(HeightAt(w, fr, a, 0.14f, LB_CHANNEL_GROUND, NULL), 0.5f, 1e-5f);
			// Just off either side the ground lies 0.5 m lower.
			ENSURE_NEAR(HeightAt(w, fr, a, 0.16f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-5f);
			ENSURE_NEAR(HeightAt(w, fr, a, -0.16f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-5f);
		}
		ENSURE_NEAR(HeightAt(w, fr, -1.05f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-5f);
		ENSURE_NEAR(HeightAt(w, fr, 5.05f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-5f);
		// A side ray at mid-height stops at the beam's side face, half a width from its axis.
		lbHit h;
		float side = CastAlong(w, fr, lbMakeVec3(1.0f, 2.0f, 0.25f), lbMakeVec3(0, -1, 0), LB_CHANNEL_ALL, &h);
		ENSURE_NEAR(side, 2.0f - 0.15f, 1e-5f);
		ENSURE_VEC3_NEAR(h.normal, fr->s, 1e-5f);
		lbDestroyWorld(w);

		// Gap: ground to `distance`, `gap` of floor `depth` below, ground again.
		p = lbDefaultSceneDef(lbSceneBuilderByName("gap"));
		ENSURE(p.kind == lb_sceneGap);
		ENSURE_NEAR(p.gap, 0.4f, 1e-6f);
		ENSURE_NEAR(p.depth, 1.5f, 1e-6f);
		w = Build(&p, fr);
		float d = p.distance;
		ENSURE_NEAR(HeightAt(w, fr, 0.0f, 0.0f, LB_CHANNEL_GROUND, &n), 0.0f, 1e-6f);
		ENSURE_VEC3_NEAR(n, fr->up, 1e-5f);
		ENSURE_NEAR(HeightAt(w, fr, d - 0.01f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-6f);
		ENSURE_NEAR(HeightAt(w, fr, d + 0.01f, 0.0f, LB_CHANNEL_GROUND, NULL), -1.5f, 1e-5f);
		ENSURE_NEAR(HeightAt(w, fr, d + 0.39f, 2.5f, LB_CHANNEL_GROUND, NULL), -1.5f, 1e-5f);
		ENSURE_NEAR(HeightAt(w, fr, d + 0.41f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-6f);
		ENSURE_NEAR(HeightAt(w, fr, d + 5.0f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-6f);
		// Both walls are solid from the ground down to the floor: rays across the gap at mid-depth
		// stop at the far wall (facing back) and, going back, at the near wall.
		ENSURE_NEAR(CastAlong(w, fr, lbMakeVec3(d + 0.1f, 0.0f, -0.75f), lbMakeVec3(1, 0, 0), LB_CHANNEL_ALL, &h), 0.3f, 1e-5f);
		ENSURE_VEC3_NEAR(h.normal, lbNeg(fr->f), 1e-5f);
		ENSURE_NEAR(CastAlong(w, fr, lbMakeVec3(d + 0.1f, 0.0f, -1.4f), lbMakeVec3(-1, 0, 0), LB_CHANNEL_ALL, &h), 0.1f, 1e-5f);
		ENSURE_VEC3_NEAR(h.normal, fr->f, 1e-5f);
		lbDestroyWorld(w);

		// A trench: shallow and wide.
		p = lbDefaultSceneDef(lb_sceneGap);
		ENSURE(lbSceneDef_Set(&p, "gap", 1.2f) == lb_ok);
		ENSURE(lbSceneDef_Set(&p, "depth", 0.4f) == lb_ok);
		ENSURE(lbSceneDef_Set(&p, "distance", 2.0f) == lb_ok);
		w = Build(&p, fr);
		ENSURE_NEAR(HeightAt(w, fr, 1.95f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-6f);
		ENSURE_NEAR(HeightAt(w, fr, 2.6f, 1.0f, LB_CHANNEL_GROUND, NULL), -0.4f, 1e-5f);
		ENSURE_NEAR(HeightAt(w, fr, 3.25f, 0.0f, LB_CHANNEL_GROUND, NULL), 0.0f, 1e-6f);
		lbDestroyWorld(w);
	}
	// Bad params are refused with an error and add nothing.
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	struct
	{
		lbSceneKind kind;
		const char* key;
		float value;
	} bad[] = {
		{ lb_sceneBeam, "width", 0.0f },   { lb_sceneBeam, "height", -0.5f }, { lb_sceneBeam, "length", 0.0f },
		{ lb_sceneGap, "gap", 0.0f },      { lb_sceneGap, "depth", -1.0f },   { lb_sceneGap, "width", -2.0f },
		{ lb_sceneGap, "thickness", 0.0f }, { lb_sceneGap, "distance", 11.0f }, { lb_sceneGap, "distance", -10.5f },
		{ lb_sceneWall, "width", -1.0f },  { lb_sceneWall, "height", -4.0f }, { lb_sceneWall, "thickness", -0.3f },
		{ lb_sceneWall, "thickness", 0.0f }, { lb_sceneWall, "angle", 0.0f }, { lb_sceneWall, "angle", -0.2f },
		{ lb_sceneWall, "angle", LB_PI }, { lb_sceneWall, "angle", 190.0f * LB_DEG2RAD },
		{ lb_sceneHolds, "hold_count", 91.0f }, { lb_sceneHolds, "hold_count", 5000.0f },
		{ lb_sceneHolds, "hold_count", 3.0f }, { lb_sceneHolds, "hold_count", 10.5f },
		{ lb_sceneHolds, "hold_size", -0.1f }, { lb_sceneHolds, "hold_size", 0.2f },
		{ lb_sceneHolds, "hold_depth", -0.06f }, { lb_sceneHolds, "width", -4.0f }, { lb_sceneHolds, "width", 1.0f },
		{ lb_sceneHolds, "height", 2.0f }, { lb_sceneHolds, "thickness", -0.3f },
	};
	for (int i = 0; i < (int)(sizeof bad / sizeof bad[0]); ++i)
	{
		lbSceneDef p = lbDefaultSceneDef(bad[i].kind);
		ENSURE(lbSceneDef_Set(&p, bad[i].key, bad[i].value) == lb_ok);
		ENSURE(lbBuildScene(w, &p) == lb_errorInvalidArgument);
		if (bad[i].kind == lb_sceneHolds)
			ENSURE(lbSceneHolds(&p, NULL, 0) == -1);
	}
	{
		lbSceneDef wall = lbDefaultSceneDef(lb_sceneWall);
		ENSURE(lbSceneHolds(&wall, NULL, 0) == -1);
		ENSURE(lbSceneHolds(NULL, NULL, 0) == -1);
		ENSURE(lbSceneDef_Set(&wall, "hold_count", 10.0f) == lb_errorInvalidArgument);
	}
	// Keys of other builders are refused.
	lbSceneDef p = lbDefaultSceneDef(lb_sceneBeam);
	ENSURE(lbSceneDef_Set(&p, "gap", 0.5f) == lb_errorInvalidArgument);
	ENSURE(lbSceneDef_Set(&p, "riser", 0.5f) == lb_errorInvalidArgument);
	p = lbDefaultSceneDef(lb_sceneGap);
	ENSURE(lbSceneDef_Set(&p, "length", 0.5f) == lb_errorInvalidArgument);
	ENSURE(lbSceneDef_Set(&p, "gap", NAN) == lb_errorNonFinite);
	ENSURE(lbWorld_GetShapeCount(w) == 0);
	lbDestroyWorld(w);
}

static void AllBuildersAndParams(void)
{
	for (int k = 1; k < lb_sceneCount; ++k)
	{
		const char* name = lbSceneBuilderName((lbSceneKind)k);
		ENSURE(name[0] != 0 && lbSceneBuilderByName(name) == (lbSceneKind)k);
		for (int f = 0; f < 2; ++f)
		{
			lbSceneDef p = lbDefaultSceneDef((lbSceneKind)k);
			if (k == lb_sceneRocky)
				lbSceneDef_Set(&p, "size", 4.0f);
			lbWorld* w = Build(&p, &frames[f]);
			ENSURE(lbWorld_GetShapeCount(w) >= 1);
			// Standing at the origin there is ground under the character (roof: ground below it).
			float h = HeightAt(w, &frames[f], 0.0f, 0.0f, LB_CHANNEL_GROUND, NULL);
			ENSURE(lbIsValidFloat(h));
			lbDestroyWorld(w);
		}
		// Keys: every listed key can be set and read back; keys of other builders are refused.
		const char* const* keys;
		int count = lbSceneDefKeys((lbSceneKind)k, &keys);
		ENSURE(count >= 10);
		lbSceneDef p = lbDefaultSceneDef((lbSceneKind)k);
		for (int i = 0; i < count; ++i)
		{
			float v = 0.0f;
			ENSURE(lbSceneDef_Get(&p, keys[i], &v) == lb_ok);
			ENSURE(lbSceneDef_Set(&p, keys[i], v) == lb_ok);
		}
		int refused = 0;
		for (int other = 1; other < lb_sceneCount; ++other)
		{
			const char* const* ok;
			int n = lbSceneDefKeys((lbSceneKind)other, &ok);
			for (int i = 0; i < n; ++i)
			{
				bool listed = false;
				for (int j = 0; j < count; ++j)
					listed = listed || strcmp(keys[j], ok[i]) == 0;
				lbSetLogFcn(NULL, NULL);
				lbResult r = lbSceneDef_Set(&p, ok[i], 1.0f);
				ENSURE(listed ? r == lb_ok : r == lb_errorInvalidArgument);
				refused += !listed;
			}
		}
		ENSURE(refused > 0);
	}
	lbSceneDef p = lbDefaultSceneDef(lb_sceneStairs);
	ENSURE(lbSceneDef_Set(&p, "riser", 0.18f) == lb_ok);
	ENSURE(lbSceneDef_Set(&p, "rizer", 0.18f) == lb_errorInvalidArgument);
	ENSURE(lbSceneDef_Set(&p, "riser", NAN) == lb_errorNonFinite);
	ENSURE(lbSceneDef_Set(&p, "seed", 1.5f) == lb_errorInvalidArgument);
	ENSURE(lbSceneBuilderByName("nope") == lb_sceneNone && lbSceneBuilderByName(NULL) == lb_sceneNone);
	// Bad values are refused and add nothing.
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	lbSceneDef_Set(&p, "riser", -0.1f);
	ENSURE(lbBuildScene(w, &p) == lb_errorInvalidArgument);
	p = lbDefaultSceneDef(lb_sceneStairs);
	p.up = lbVec3_zero;
	ENSURE(lbBuildScene(w, &p) == lb_errorInvalidArgument);
	p = lbDefaultSceneDef(lb_sceneStairs);
	p.internalValue = 0;
	ENSURE(lbBuildScene(w, &p) == lb_errorDefNotInitialized);
	ENSURE(lbBuildScene(NULL, &p) == lb_errorNullPointer);
	ENSURE(lbWorld_GetShapeCount(w) == 0);
	lbDestroyWorld(w);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	lbSetLogFcn(NULL, NULL);
	RUN_TEST(Stairs);
	RUN_TEST(SlopeAndRoof);
	RUN_TEST(StepDownLedgeTopCorner);
	RUN_TEST(ClimbWall);
	RUN_TEST(Wall);
	RUN_TEST(Holds);
	RUN_TEST(ClimbingCornerAndLedge);
	RUN_TEST(Rocky);
	RUN_TEST(BeamAndGap);
	RUN_TEST(AllBuildersAndParams);
	TEST_MAIN_END();
}
