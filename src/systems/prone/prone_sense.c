// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Sense stage of the prone system (world space): seed 002's five casts (centre, left, right, ahead,
// behind) give roll and the two pitches, with the pointed-roof lift; per-segment probes give the
// ground under every part of the body for the translation and limb fits; planted hands and feet
// hold their contacts.
#include "prone_internal.h"
#include "core/bits.h"
#include "core/frame_internal.h"

#include <stddef.h>
#include <string.h>

_Static_assert(offsetof(lbLegAxes, footUp) == offsetof(lbLegAxes, toe) + 3 * sizeof(float) &&
				   offsetof(lbLegAxes, ankleHeight) == offsetof(lbLegAxes, toe) + 6 * sizeof(float) &&
				   offsetof(lbLegAxes, footLength) == offsetof(lbLegAxes, toe) + 7 * sizeof(float),
			   "a leg's toe, foot up, ankle height and foot length are eight floats in a row");
_Static_assert(offsetof(lbLegAxes, calfLength) == offsetof(lbLegAxes, thighLength) + sizeof(float),
			   "a leg's thigh and calf lengths are two floats in a row");

// Sphere cast (a ray for radius 0) straight down along -up from `from` over `length` (m).
static lbHit lbProneCast(const lbSceneQuery* query, const lbProneDef* def, lbVec3 from, float length, float radius)
{
	lbQueryInput in = lbDefaultQueryInput();
	in.start = from;
	in.end = lbMulAdd(from, -length, def->up);
	in.radius = radius;
	in.channelMask = def->channelMask;
	in.ignoreOwnerId = def->ignoreOwnerId;
	lbHit hit = radius > 0.0f ? lbSphereCast(query, &in) : lbRayCast(query, &in);
	// A cast that starts inside something has no ground to offer below it.
	if (hit.startedInside)
		hit.hit = false;
	return hit;
}

// What a trace found, all the sense stage reads of a hit: small, so a re-evaluation between casts
// costs little.
typedef struct lbProneContact
{
	// Ground was found; the cast started inside something (nothing to offer below its start).
	bool hit, startedInside;
	// The sphere's centre where it touched, the contact point and the normal (unit, facing up).
	lbVec3 location, impactPoint, normal;
} lbProneContact;

// Contact normal of a hit, turned to face up.
static lbVec3 lbProneNormal(const lbHit* hit, lbVec3 up)
{
	lbVec3 n = lbNormalizeOr(hit->normal, up);
	return lbDot(n, up) < 0.0f ? lbNeg(n) : n;
}

// A cast down from `from` (see lbProneCast) that also keeps what it found in `g` (the contact point
// and the normal facing up). Between casts (`cast` false, a reduced trace rate) the ground last found
// is re-evaluated along this frame's line: a sphere of `radius` coming down it rests on the plane
// through that contact where its centre L has (L - P) . n = radius, so L = from - s up with
// s = ((from - P) . n - radius) / (up . n); the contact is L - radius n. On the plane the cast found
// that is exactly what a new cast would find; ground out of the cast's reach is a miss, as a cast's.
// The hit's normal is unit and faces up. `reuse`, when not NULL, is a cast made this frame whose
// result stands for this one (see lbProneReuseCentre): it is taken instead of casting again.
//
// The cast itself, made about once a frame in twenty traces, is kept out of line
// (lbProneTraceCast) and the re-evaluation inline at each call: out of line with its many
// arguments and its result returned by value, a trace that made no cast cost 150 instructions.
// Where a sphere of `radius` coming down from `from` over `length` rests on the plane last found
// (contact point and normal in g): true with the height s it came down by when that lies within
// the cast's reach (see lbProneTraceCast).
static inline bool lbProneOnPlane(const lbProneGround* g, lbVec3 up, lbVec3 from, float length, float radius, float* outS)
{
	if (!g->hit)
		return false;
	const lbVec3 n = g->normalWs;
	const float k = lbDot(up, n);
	if (k < 1.0e-3f)
		return false;
	const float s = (lbDot(lbSub(from, g->pointWs), n) - radius) / k;
	*outS = s;
	return s >= 0.0f && s <= length;
}

// A cast whose plane held: its contact lies within this height of where the plane found by the cast
// before predicted it, with a normal within this angle's cosine of that plane's.
#define LB_PRONE_PLANE_HELD_HEIGHT 0.001f
#define LB_PRONE_PLANE_HELD_COS 0.99619f // cos(5 degrees)

// A cast down from `from` (see lbProneCast) that also keeps what it found in `g` (the contact point
// and the normal facing up). Between casts (`cast` false, a reduced trace rate) the ground last found
// is re-evaluated along this frame's line: a sphere of `radius` coming down it rests on the plane
// through that contact where its centre L has (L - P) . n = radius, so L = from - s up with
// s = ((from - P) . n - radius) / (up . n); the contact is L - radius n. On the plane the cast found
// that is exactly what a new cast would find; ground out of the cast's reach is a miss, as a cast's.
// The hit's normal is unit and faces up. `reuse`, when not NULL, is a cast made this frame whose
// result stands for this one (see lbProneReuseCentre): it is taken instead of casting again.
// `span` (recast distances this cast may move before the next) becomes 2 when the new contact lies
// where the last plane predicted it (the ground is a plane over the way the cast moved, so it is
// trusted twice as far), 1 otherwise; `cast` 2 (a snap) sets 1.
//
// The cast itself, made about once a frame in twenty traces, is kept out of line
// (lbProneTraceCast) and the re-evaluation inline at each call: out of line with its many
// arguments and its result returned by value, a trace that made no cast cost 150 instructions.
static void lbProneTraceCast(const lbSceneQuery* query, const lbProneDef* def, const lbVec3* from, float length,
							 float radius, int cast, lbProneGround* g, lbVec3* castFrom, uint8_t* span, int* casts,
							 const lbProneContact* reuse, lbProneContact* out)
{
	const lbVec3 up = def->up;
	lbProneContact c;
	if (reuse)
		c = *reuse;
	else
	{
		lbHit hit = lbProneCast(query, def, *from, length, radius);
		++*casts;
		c.hit = hit.hit;
		c.startedInside = hit.startedInside;
		c.location = hit.location;
		c.impactPoint = hit.impactPoint;
		c.normal = hit.hit ? lbProneNormal(&hit, up) : up;
	}
	float s;
	const bool held = cast == 1 && c.hit && g->radius == radius && lbProneOnPlane(g, up, *from, length, radius, &s) &&
					  lbAbsF(lbDot(lbSub(*from, c.location), up) - s) <= LB_PRONE_PLANE_HELD_HEIGHT &&
					  lbDot(c.normal, g->normalWs) >= LB_PRONE_PLANE_HELD_COS;
	*span = held ? 2u : 1u;
	*castFrom = *from;
	g->hit = c.hit;
	g->pointWs = c.hit ? c.impactPoint : *from;
	g->normalWs = c.hit ? c.normal : up;
	g->radius = radius;
	*out = c;
}

// Whether a trace casts: 2 casts whatever; 1 casts unless the start has stayed within its span of
// recastDistance of the last cast's (with the same radius). After a hit only the move across up
// counts: along its own line the cast finds the same plane, which the re-evaluation follows exactly.
// After a miss the move along up counts too (a body coming down brings the ground into the cast's
// reach). Returns the cast to make (0: none).
static inline int lbProneTraceDecide(const lbProneDef* def, lbVec3 from, float radius, int cast, const lbProneGround* g,
									 const lbVec3* castFrom, const uint8_t* span)
{
	if (cast == 1 && g->radius == radius)
	{
		const float reach = def->recastDistance * (float)(*span > 1u ? *span : 1u);
		const lbVec3 moved = lbSub(from, *castFrom);
		if (lbLengthSquared(g->hit ? lbProjectOnPlane(moved, def->up) : moved) < reach * reach)
			cast = 0;
	}
	return cast;
}

static inline lbProneContact lbProneTrace(const lbSceneQuery* query, const lbProneDef* def, lbVec3 from, float length,
										  float radius, int cast, lbProneGround* g, lbVec3* castFrom, uint8_t* span,
										  int* casts, const lbProneContact* reuse)
{
	const lbVec3 up = def->up;
	cast = lbProneTraceDecide(def, from, radius, cast, g, castFrom, span);
	lbProneContact c;
	if (cast)
	{
		lbProneTraceCast(query, def, &from, length, radius, cast, g, castFrom, span, casts, reuse, &c);
		return c;
	}
	c.hit = c.startedInside = false;
	c.location = c.impactPoint = from;
	c.normal = up;
	float s;
	if (!lbProneOnPlane(g, up, from, length, radius, &s))
		return c;
	const lbVec3 n = g->normalWs;
	c.hit = true;
	c.location = lbMulAdd(from, -s, up);
	c.impactPoint = lbMulAdd(c.location, -radius, n);
	c.normal = n;
	return c;
}

// The pelvis probe goes down the same line as the centre cast (the pelvis stands over the body's
// ground point) over part of its length: when the centre cast was made this frame with the same
// radius, its result is the probe's. A sphere first touching at centre height L, below the probe's
// start, touches nothing above L on the probe's shorter way down either: the probe finds L too when L
// lies within its reach, nothing when L lies beyond it; a centre cast that found nothing over a span
// holding the probe's finds nothing there. Anything else (ground over the probe's start) is cast.
static bool lbProneReuseCentre(const lbProneContact* centre, lbVec3 centreFrom, float centreLength, lbVec3 from,
							   float length, lbVec3 up, lbProneContact* out)
{
	const float top = lbDot(from, up), bottom = top - length;
	const float centreTop = lbDot(centreFrom, up);
	if (top > centreTop || centre->startedInside)
		return false;
	*out = *centre;
	if (!centre->hit)
		return bottom >= centreTop - centreLength;
	const float h = lbDot(centre->location, up);
	if (h > top)
		return false;
	if (h < bottom)
		out->hit = false;
	return true;
}

// Elevation (rad) of the direction from a to b above the plane normal to up, measured along `along`.
static float lbProneSlope(lbVec3 a, lbVec3 b, lbVec3 up, lbVec3 along)
{
	lbVec3 d = lbSub(b, a);
	return lbProneAtan2(lbDot(d, up), lbDot(d, along));
}

// The roof lift (seed 002, step 6): a contact below the centre contact's plane, whose normal diverges
// from the centre normal (the body lies over a ridge), moves up along `up` to where that line meets
// the centre plane: with point c and normal n, (p + t up - c) . n = 0 gives t = -(p - c) . n / (up . n).
// Returns the lift t (m, 0 when there is none) and moves *ioPoint.
static float lbProneRoofLift(const lbProneDef* def, lbVec3 centre, lbVec3 centreNormal, lbVec3* ioPoint, lbVec3 normal)
{
	// The arc cosine only for a contact below the plane (most frames lie on no ridge).
	const float below = lbDot(lbSub(*ioPoint, centre), centreNormal);
	const float upDotN = lbDot(def->up, centreNormal);
	if (below >= -1.0e-3f || upDotN < 0.1f || acosf(lbClampF(lbDot(centreNormal, normal), -1.0f, 1.0f)) <= def->roofAngle)
		return 0.0f;
	float t = -below / upDotN;
	*ioPoint = lbMulAdd(*ioPoint, t, def->up);
	return t;
}

// The segment probes of a frame that make no cast (most of them: between trace frames, and on a trace
// frame those whose start stayed within their span), re-evaluated on the plane their last cast found
// (lbProneTrace's re-evaluation) and eased (the probe loop's easing), four probes to a vector: each
// lane does the scalar code's operations in its order, so each probe's ground comes out bit for bit
// as the scalar code makes it. A probe's inputs go into lanes as the loop meets it, its ground is
// written back once its four are done. Probe by probe the same work cost 2.5 times as much.
#define LB_PRONE_BATCH ((lb_proneProbeCount + 3) & ~3)
typedef struct lbProneBatch
{
	int count;
	// The probes (up to every one, a multiple of four read) and their lanes: the probe's point in the
	// animated pose (model space) and the transform that carries it into the world (the probe loop's
	// probeTs, by index), the cast's and the segment's radius. Where the probe starts and its point's
	// height along up are made from them in lanes. The plane the last cast found and the eased ground
	// are read from the state.
	int probe[LB_PRONE_BATCH];
	float mx[LB_PRONE_BATCH], my[LB_PRONE_BATCH], mz[LB_PRONE_BATCH];
	int t[LB_PRONE_BATCH];
	float rc[LB_PRONE_BATCH], r[LB_PRONE_BATCH];
} lbProneBatch;

static inline void lbProneBatchAdd(lbProneBatch* b, int probe, lbVec3 pointMs, int t, float castRadius, float radius)
{
	const int j = b->count++;
	b->probe[j] = probe;
	b->mx[j] = pointMs.x, b->my[j] = pointMs.y, b->mz[j] = pointMs.z;
	b->t[j] = t, b->rc[j] = castRadius, b->r[j] = radius;
}

#if LB_IK_SSE2
// lbDot's sum ((x + y) + z) of three lanes' products.
static inline __m128 lbProneDot4(__m128 ax, __m128 ay, __m128 az, __m128 bx, __m128 by, __m128 bz)
{
	return _mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)), _mm_mul_ps(az, bz));
}

static inline __m128 lbProneSelect4(__m128 mask, __m128 a, __m128 b)
{
	return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}
#endif

// The batch's grounds, written to the state's probes; each probe's settle into settleOf (settleOn set).
// Each lane's point is carried into the world by its transform (lbIkTransformPoint's operations) and
// starts `reach` above it along up (the probe loop's lbMulAdd), as the loop would make them. The four
// transforms `ts` have one scale (the character's).
static void lbProneBatchRun(lbProneBatch* b, lbProneState* state, const lbTransform* const ts[4], lbVec3 up, float reach,
							float length, float easeUp, float easeDown, float settleOf[lb_proneProbeCount],
							bool settleOn[lb_proneProbeCount])
{
	const int n = b->count;
	if (n == 0)
		return;
#if LB_IK_SSE2
	// Lanes past the last probe repeat it (read, never written back).
	for (int j = n; j < ((n + 3) & ~3); ++j)
	{
		b->probe[j] = b->probe[n - 1];
		b->mx[j] = b->mx[n - 1], b->my[j] = b->my[n - 1], b->mz[j] = b->mz[n - 1];
		b->t[j] = b->t[n - 1], b->rc[j] = b->rc[n - 1], b->r[j] = b->r[n - 1];
	}
	const __m128 ux = _mm_set1_ps(up.x), uy = _mm_set1_ps(up.y), uz = _mm_set1_ps(up.z);
	const __m128 zero = _mm_setzero_ps();
	// Each transform's rotation and position, gathered into lanes by the lanes' transforms. The four
	// share the character's scale (each is the character's transform turned about a pivot), taken
	// from the first in every lane.
	__m128 tq[4], tp[4];
	for (int i = 0; i < 4; ++i)
	{
		tq[i] = _mm_loadu_ps(&ts[i]->q.x);
		tp[i] = _mm_loadu_ps(&ts[i]->p.x);
	}
	const __m128 sx = _mm_set1_ps(ts[0]->s.x), sy = _mm_set1_ps(ts[0]->s.y), sz = _mm_set1_ps(ts[0]->s.z);
	const __m128 reach4 = _mm_set1_ps(reach);
	for (int j = 0; j < n; j += 4)
	{
		const int* t = b->t + j;
		__m128 rx = tq[t[0]], ry = tq[t[1]], rz = tq[t[2]], rw = tq[t[3]];
		_MM_TRANSPOSE4_PS(rx, ry, rz, rw);
		__m128 ox = tp[t[0]], oy = tp[t[1]], oz = tp[t[2]], o3 = tp[t[3]];
		_MM_TRANSPOSE4_PS(ox, oy, oz, o3);
		// p = t.p + t.q (t.s m), then from = p + reach up and p's height along up.
		__m128 vx = _mm_mul_ps(sx, _mm_loadu_ps(b->mx + j)), vy = _mm_mul_ps(sy, _mm_loadu_ps(b->my + j)),
			   vz = _mm_mul_ps(sz, _mm_loadu_ps(b->mz + j));
		lbProneRotate4(rx, ry, rz, rw, &vx, &vy, &vz);
		const __m128 wx = _mm_add_ps(ox, vx), wy = _mm_add_ps(oy, vy), wz = _mm_add_ps(oz, vz);
		const __m128 fx = _mm_add_ps(wx, _mm_mul_ps(reach4, ux)), fy = _mm_add_ps(wy, _mm_mul_ps(reach4, uy)),
					 fz = _mm_add_ps(wz, _mm_mul_ps(reach4, uz));
		const __m128 pUp = lbProneDot4(wx, wy, wz, ux, uy, uz);
		__m128 cpx, cpy, cpz, cnx, cny, cnz, cHit, gpx, gpy, gpz, gnx, gny, gnz, had;
		lbProneGround4(state->probeGround, b->probe + j, &cpx, &cpy, &cpz, &cnx, &cny, &cnz, &cHit);
		lbProneGround4(state->ground, b->probe + j, &gpx, &gpy, &gpz, &gnx, &gny, &gnz, &had);
		const __m128 rc = _mm_loadu_ps(b->rc + j), r = _mm_loadu_ps(b->r + j);
		// lbProneOnPlane: the plane's height s along up where a sphere of the cast's radius rests on it.
		const __m128 k = lbProneDot4(ux, uy, uz, cnx, cny, cnz);
		const __m128 s = _mm_div_ps(
			_mm_sub_ps(lbProneDot4(_mm_sub_ps(fx, cpx), _mm_sub_ps(fy, cpy), _mm_sub_ps(fz, cpz), cnx, cny, cnz),
					   rc),
			k);
		const __m128 on = _mm_and_ps(
			_mm_and_ps(cHit, _mm_cmpge_ps(k, _mm_set1_ps(1.0e-3f))),
			_mm_and_ps(_mm_cmpge_ps(s, zero), _mm_cmple_ps(s, _mm_set1_ps(length))));
		// The sphere's centre (from - s up), its contact (- rc n), the segment's centre (+ r n).
		// -s and -rc as the scalar code negates them (the sign bit flipped; 0 - x would give +0 for 0).
		const __m128 sign = _mm_set1_ps(-0.0f);
		const __m128 ns = _mm_xor_ps(s, sign), negRc = _mm_xor_ps(rc, sign);
		__m128 qx = _mm_add_ps(_mm_add_ps(fx, _mm_mul_ps(ns, ux)), _mm_mul_ps(negRc, cnx));
		__m128 qy = _mm_add_ps(_mm_add_ps(fy, _mm_mul_ps(ns, uy)), _mm_mul_ps(negRc, cny));
		__m128 qz = _mm_add_ps(_mm_add_ps(fz, _mm_mul_ps(ns, uz)), _mm_mul_ps(negRc, cnz));
		const __m128 foundX = _mm_add_ps(qx, _mm_mul_ps(r, cnx)), foundY = _mm_add_ps(qy, _mm_mul_ps(r, cny)),
					 foundZ = _mm_add_ps(qz, _mm_mul_ps(r, cnz));
		// Eased from the ground as it was: the previous plane's height at the new point where there was
		// one, else the segment's own height when above the new one.
		const __m128 newH = lbProneDot4(foundX, foundY, foundZ, ux, uy, uz);
		const __m128 k0 = _mm_max_ps(lbProneDot4(ux, uy, uz, gnx, gny, gnz), _mm_set1_ps(0.1f));
		const __m128 prevPlane = _mm_sub_ps(
			newH, _mm_div_ps(lbProneDot4(_mm_sub_ps(foundX, gpx), _mm_sub_ps(foundY, gpy), _mm_sub_ps(foundZ, gpz), gnx, gny, gnz), k0));
		const __m128 prevOwn = _mm_max_ps(newH, pUp);
		const __m128 prevH = lbProneSelect4(had, prevPlane, prevOwn);
		const __m128 ease =
			lbProneSelect4(_mm_and_ps(had, _mm_cmpgt_ps(newH, prevH)), _mm_set1_ps(easeUp), _mm_set1_ps(easeDown));
		const __m128 h2 = _mm_add_ps(prevH, _mm_mul_ps(_mm_sub_ps(newH, prevH), ease));
		const __m128 lift = _mm_sub_ps(h2, newH);
		const __m128 ptx = _mm_add_ps(foundX, _mm_mul_ps(lift, ux)), pty = _mm_add_ps(foundY, _mm_mul_ps(lift, uy)),
					 ptz = _mm_add_ps(foundZ, _mm_mul_ps(lift, uz));
		// The normal eased toward the new plane's where it differs (lbNormalizeOr(lbLerp(...), new)).
		const __m128 changed = _mm_and_ps(
			had, _mm_or_ps(_mm_or_ps(_mm_cmpneq_ps(cnx, gnx), _mm_cmpneq_ps(cny, gny)), _mm_cmpneq_ps(cnz, gnz)));
		__m128 outNx = cnx, outNy = cny, outNz = cnz;
		if (_mm_movemask_ps(_mm_and_ps(changed, on)) != 0)
		{
			const __m128 lx = _mm_add_ps(gnx, _mm_mul_ps(_mm_sub_ps(cnx, gnx), ease));
			const __m128 ly = _mm_add_ps(gny, _mm_mul_ps(_mm_sub_ps(cny, gny), ease));
			const __m128 lz = _mm_add_ps(gnz, _mm_mul_ps(_mm_sub_ps(cnz, gnz), ease));
			const __m128 len = _mm_sqrt_ps(lbProneDot4(lx, ly, lz, lx, ly, lz));
			const __m128 ok = _mm_and_ps(_mm_cmpgt_ps(len, _mm_set1_ps(LB_EPSILON)), _mm_cmplt_ps(len, _mm_set1_ps(INFINITY)));
			const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), len);
			const __m128 use = _mm_and_ps(changed, ok);
			outNx = lbProneSelect4(use, _mm_mul_ps(inv, lx), cnx);
			outNy = lbProneSelect4(use, _mm_mul_ps(inv, ly), cny);
			outNz = lbProneSelect4(use, _mm_mul_ps(inv, lz), cnz);
		}
		float settle[4];
		_mm_storeu_ps(settle, lbProneDot4(_mm_sub_ps(ptx, foundX), _mm_sub_ps(pty, foundY), _mm_sub_ps(ptz, foundZ), ux, uy, uz));
		// Written back in place (no lane reads another's ground), a probe to a row: its point and its
		// normal's x, then the normal's y and z, the segment's radius and the hit flag (1 in the flag's
		// byte, 0 in its padding). A probe whose plane is out of reach only loses its flag.
		__m128 a0 = ptx, a1 = pty, a2 = ptz, a3 = outNx;
		_MM_TRANSPOSE4_PS(a0, a1, a2, a3);
		__m128 c0 = outNy, c1 = outNz, c2 = r, c3 = _mm_castsi128_ps(_mm_set1_epi32(1));
		_MM_TRANSPOSE4_PS(c0, c1, c2, c3);
		const __m128 rowA[4] = { a0, a1, a2, a3 }, rowB[4] = { c0, c1, c2, c3 };
		const int onMask = _mm_movemask_ps(on);
		const int lanes = n - j < 4 ? n - j : 4;
		for (int i = 0; i < lanes; ++i)
		{
			const int probe = b->probe[j + i];
			lbProneGround* g = &state->ground[probe];
			if (!((onMask >> i) & 1))
			{
				g->hit = false;
				continue;
			}
			_mm_storeu_ps(&g->pointWs.x, rowA[i]);
			_mm_storeu_ps(&g->normalWs.y, rowB[i]);
			settleOf[probe] = settle[i];
			settleOn[probe] = true;
		}
	}
#else
	float px[LB_PRONE_BATCH], py[LB_PRONE_BATCH], pz[LB_PRONE_BATCH];
	float nx[LB_PRONE_BATCH], ny[LB_PRONE_BATCH], nz[LB_PRONE_BATCH], settle[LB_PRONE_BATCH];
	uint32_t hit[LB_PRONE_BATCH];
	for (int j = 0; j < n; ++j)
	{
		hit[j] = 0u;
		const lbVec3 p = lbIkTransformPoint(ts[b->t[j]], LB_LITERAL(lbVec3){ b->mx[j], b->my[j], b->mz[j] });
		const lbVec3 from = lbMulAdd(p, reach, up);
		const lbProneGround* cg = &state->probeGround[b->probe[j]];
		const lbProneGround* eg = &state->ground[b->probe[j]];
		const lbVec3 cp = cg->pointWs, cn = cg->normalWs, gp = eg->pointWs, gn = eg->normalWs;
		const float k = lbDot(up, cn);
		if (!cg->hit || k < 1.0e-3f)
			continue;
		const float s = (lbDot(lbSub(from, cp), cn) - b->rc[j]) / k;
		if (!(s >= 0.0f && s <= length))
			continue;
		const lbVec3 found = lbMulAdd(lbMulAdd(lbMulAdd(from, -s, up), -b->rc[j], cn), b->r[j], cn);
		lbVec3 point = found, nn = cn;
		const float newH = lbDot(point, up);
		if (eg->hit)
		{
			const float k0 = lbMaxF(lbDot(up, gn), 0.1f);
			const float prevH = newH - lbDot(lbSub(point, gp), gn) / k0;
			const float ease = newH > prevH ? easeUp : easeDown;
			point = lbMulAdd(point, prevH + (newH - prevH) * ease - newH, up);
			if (cn.x != gn.x || cn.y != gn.y || cn.z != gn.z)
				nn = lbNormalizeOr(lbLerp(gn, cn, ease), cn);
		}
		else
		{
			const float prevH = lbMaxF(newH, lbDot(p, up));
			point = lbMulAdd(point, prevH + (newH - prevH) * easeDown - newH, up);
		}
		px[j] = point.x, py[j] = point.y, pz[j] = point.z;
		nx[j] = nn.x, ny[j] = nn.y, nz[j] = nn.z;
		settle[j] = lbDot(lbSub(point, found), up);
		hit[j] = 1u;
	}
	for (int j = 0; j < n; ++j)
	{
		const int k = b->probe[j];
		lbProneGround* g = &state->ground[k];
		if (!hit[j])
		{
			g->hit = false;
			continue;
		}
		g->pointWs = LB_LITERAL(lbVec3){ px[j], py[j], pz[j] };
		g->normalWs = LB_LITERAL(lbVec3){ nx[j], ny[j], nz[j] };
		g->radius = b->r[j];
		g->hit = true;
		settleOf[k] = settle[j];
		settleOn[k] = true;
	}
#endif
}

// Whether an edge may lie under a thigh or forearm between its joints, from the ground at its ends
// (the pelvis's and knee's probes for a thigh, the elbow's and wrist's for a forearm): the plane at
// one end, carried on to the other end, lies higher there than that end's own plane by more than
// LB_PRONE_EDGE_RISE (a stair's next tread, a roof's far slope past its ridge). Over one plane, or
// a crease that falls away between the ends (a valley), the segment rests as its ends do. With
// ground missing at an end the segment is looked under too.
#define LB_PRONE_EDGE_RISE 0.015f
// How far (m, along up) a hand's ground may lie under the shoulders' before it is not held: deeper
// than the steepest shipped riser (0.24 m), shallower than a trench the hand's probe still reaches.
#define LB_PRONE_HAND_DROP 0.25f
// Least cosine between up and the ankle's contact normal for its plane to be taken for a tread (53
// degrees, the pose stage's for the torso's ground).
#define LB_PRONE_FOOT_GROUND_COS 0.6f
static bool lbProneSegmentAtRisk(const lbProneState* state, const lbHumanoid* h, const lbPose* anim,
								 const lbTransform* t, int probe)
{
	const bool thigh = probe <= lb_proneThighR;
	const int side = thigh ? probe - lb_proneThighL : probe - lb_proneForearmL;
	const int a = thigh ? h->leg[side].thigh : h->arm[side].foreArm;
	const int b = thigh ? h->leg[side].calf : h->arm[side].hand;
	const lbProneGround* ga = &state->ground[thigh ? lb_pronePelvis : lb_proneElbowL + side];
	const lbProneGround* gb = &state->ground[thigh ? lb_proneKneeL + side : lb_proneWristL + side];
	if (!ga->hit || !gb->hit)
		return true;
	// The contacts: each sphere's centre less its radius along the normal.
	const lbVec3 ca = lbMulAdd(ga->pointWs, -ga->radius, ga->normalWs);
	const lbVec3 cb = lbMulAdd(gb->pointWs, -gb->radius, gb->normalWs);
	const lbVec3 pa = lbIkTransformPoint(t, anim->model[a].p), pb = lbIkTransformPoint(t, anim->model[b].p);
	const float riseAtA = lbDot(lbSub(pa, ca), ga->normalWs) - lbDot(lbSub(pa, cb), gb->normalWs);
	const float riseAtB = lbDot(lbSub(pb, cb), gb->normalWs) - lbDot(lbSub(pb, ca), ga->normalWs);
	// Over a crest (both planes rising past the other end) the segment meets the lower of the two
	// planes, deepest where riseAtA (1 - s) = riseAtB s: riseAtA riseAtB / (riseAtA + riseAtB). Over
	// a step (one rising, one falling) the edge may lie anywhere between: as deep as the rise.
	const float depth = riseAtA > 0.0f && riseAtB > 0.0f ? riseAtA * riseAtB / (riseAtA + riseAtB)
														 : lbMaxF(riseAtA, riseAtB);
	return depth > LB_PRONE_EDGE_RISE;
}

// A held foot over a step down toward its toes: the plane the ankle's probe found, carried to the
// toes, lies more than LB_PRONE_EDGE_RISE above the toes' own plane there, so the nose between them
// lies across the foot, where neither probe looks (on 0.149 x 0.342 m stairs the foot, nearly
// upright at the back of the lower tread, went 3.7 cm into the nose above it). The leg lies nearly
// straight, so the foot cannot be pulled back off the nose, and moved toward the hip the knee bent
// 60 degrees, splayed out to the side; the ankle is already bent past where a foot points. The hold
// goes up on the circle about the hip the leg's length keeps (the leg turns about the hip, as the
// thigh's pitch does, and stays as straight as it was) until the toes rest on the ankle's plane: no
// part of the foot is then under the upper tread's level, the nose below it. Returns the rest
// (world); the rest as given when the foot straddles no step.
static lbVec3 lbProneFootOffNose(const lbProneDef* def, const lbProneState* state, int side, lbVec3 hipWs, lbVec3 ankleWs,
								 const lbTransform* legT, const lbVec3* probeMs, const bool* probeOk, lbVec3 rest)
{
	const int toeProbe = lb_proneToeL + side;
	const lbProneGround* ga = &state->ground[lb_proneAnkleL + side];
	const lbProneGround* gt = &state->ground[toeProbe];
	if (!ga->hit || !gt->hit || !probeOk[toeProbe])
		return rest;
	const lbVec3 up = def->up;
	// The toes where the rest carries them (the foot moved with its ankle).
	const lbVec3 toeWs = lbAdd(lbIkTransformPoint(legT, probeMs[toeProbe]), lbSub(rest, ankleWs));
	const lbVec3 ca = lbMulAdd(ga->pointWs, -ga->radius, ga->normalWs);
	const lbVec3 ct = lbMulAdd(gt->pointWs, -gt->radius, gt->normalWs);
	const float ka = lbDot(up, ga->normalWs);
	if (ka < LB_PRONE_FOOT_GROUND_COS ||
		lbDot(lbSub(toeWs, ct), gt->normalWs) - lbDot(lbSub(toeWs, ca), ga->normalWs) <= LB_PRONE_EDGE_RISE)
		return rest;
	// How far up the toes go: onto the ankle's plane, their radius and the clearance above it.
	const float need = (gt->radius + def->clearance - lbDot(lbSub(toeWs, ca), ga->normalWs)) / ka;
	if (!(need > 0.0f))
		return rest;
	// The turn about the hip across the leg (axis normal to up and to the hip-to-toes line): the toes'
	// height goes as A cos(phi) + B sin(phi) from A at phi = 0; the least phi giving A + need, or the
	// top of the circle when it lies lower.
	const lbVec3 v = lbSub(toeWs, hipWs);
	const lbVec3 axis = lbNormalizeOr(lbCross(v, up), lbVec3_zero);
	if (lbLengthSquared(axis) < 0.25f)
		return rest;
	const float A = lbDot(up, v), B = lbDot(up, lbCross(axis, v));
	const float R = sqrtf(A * A + B * B);
	if (!(R > 1.0e-4f))
		return rest;
	const float top = lbProneAtan2(B, A);
	const float phi = top - acosf(lbClampF((A + need) / R, -1.0f, 1.0f));
	if (!(phi > 0.0f))
		return rest;
	const lbQuat turn = lbProneQuatFromUnitAxisAngle(axis, phi);
	return lbAdd(hipWs, lbIkQuatRotate(turn, lbSub(rest, hipWs)));
}


// A flight of steps under a body lying along it. The casts ahead and behind give the slope over
// 0.55 and 0.75 m from the centre, which counts whole risers, the treads' phase under the casts
// deciding how many; and a straight torso does not lie on the line from one cast to another but on
// the stair noses under it, on the tread under its middle when that lies past the last nose it
// spans. The flight is found once (three rays: a step's nose, the next nose up and the riser),
// every nose then follows, and the line under the torso is worked out where it lies.

// A ray from `from` along the unit direction `dir` over `length` (m); one that starts inside
// something finds nothing.
static lbHit lbProneRay(const lbSceneQuery* query, const lbProneDef* def, lbVec3 from, lbVec3 dir, float length)
{
	lbQueryInput in = lbDefaultQueryInput();
	in.start = from;
	in.end = lbMulAdd(from, length, dir);
	in.radius = 0.0f;
	in.channelMask = def->channelMask;
	in.ignoreOwnerId = def->ignoreOwnerId;
	lbHit hit = lbRayCast(query, &in);
	if (hit.startedInside)
		hit.hit = false;
	return hit;
}

// Whether the ground under the casts may be steps rather than one slope or a bumpy one (`line`:
// from the behind contact to the ahead one): one of the three contacts on level ground under a line
// rising or falling more than 5 degrees, or two of the three contacts' normals parallel (within 5
// degrees: two treads, or two places on one plane) and their plane's tilt along the body more than
// 5 degrees off the line's (on a slope the casts lie on the plane they found; up a flight the treads
// lie level under a rising line).
static bool lbProneStepped(lbVec3 nc, lbVec3 nu, lbVec3 nw, lbVec3 up, lbVec3 along, lbVec3 line)
{
	// Tangents: the line's rise over its run along the body, a plane's rise along the body. Two
	// angles differ by more than 5 degrees where |a - b| > tan(5 degrees) |1 + a b|.
	const float tan5 = 0.0875f;
	const float run = lbDot(line, along);
	if (!(lbAbsF(run) > 1.0e-4f))
		return false;
	const float slope = lbDot(line, up) / run;
	// A level tread under a rising line (a sphere's contact on a nose has its normal tilted: a tread
	// under one cast is enough).
	if (lbAbsF(slope) > tan5 &&
		(lbDot(nc, up) >= LB_PRONE_PLANE_HELD_COS || lbDot(nu, up) >= LB_PRONE_PLANE_HELD_COS || lbDot(nw, up) >= LB_PRONE_PLANE_HELD_COS))
		return true;
	const lbVec3 pair[3][2] = { { nu, nw }, { nc, nu }, { nc, nw } };
	for (int i = 0; i < 3; ++i)
	{
		const float k = lbDot(pair[i][0], up);
		if (lbDot(pair[i][0], pair[i][1]) < LB_PRONE_PLANE_HELD_COS || !(k > 0.1f))
			continue;
		const float tilt = -lbDot(pair[i][0], along) / k;
		if (lbAbsF(tilt - slope) > tan5 * lbAbsF(1.0f + tilt * slope))
			return true;
	}
	return false;
}

// A riser met by a ray across up along `dir`: its face turned against the ray (within 45 degrees).
#define LB_PRONE_RISER_COS 0.7071f

// Looks for the flight the tread of the centre contact `c` belongs to, climbing along `d` (unit,
// across up), with `low` a contact on a lower step behind it (at least LB_PRONE_EDGE_RISE lower):
// a ray along d, just under the centre's tread from over the lower contact, meets the riser under
// that tread's nose (the steps between lie a riser or more lower); a ray along d just over the
// tread, from that nose, meets the next riser up (the tread's depth); a ray down just before the
// nose meets the step below (the riser's height). True with the nose (world) and the step to the
// next nose (world, m: tread along d plus riser along up) when the three are found. Out of line:
// a flight is looked for only where the body lies on one, once per recastDistance it moves.
static LB_COLD bool lbProneFindFlight(const lbSceneQuery* query, const lbProneDef* def, lbVec3 c, lbVec3 low,
											  lbVec3 d, int* casts, lbVec3* outNose, lbVec3* outStep)
{
	const lbVec3 up = def->up;
	const float hc = lbDot(c, up), e = 0.5f * LB_PRONE_EDGE_RISE;
	const float reach = def->upperExtent + def->lowerExtent;
	*casts += 1;
	const lbVec3 from1 = lbMulAdd(low, hc - e - lbDot(low, up), up);
	const lbHit r1 = lbProneRay(query, def, from1, d, lbDot(lbSub(c, low), d) + def->traceRadius + 0.05f);
	if (!r1.hit || lbDot(r1.normal, d) > -LB_PRONE_RISER_COS)
		return false;
	const lbVec3 nose = lbMulAdd(r1.impactPoint, hc - lbDot(r1.impactPoint, up), up);
	*casts += 1;
	const lbHit r2 = lbProneRay(query, def, lbMulAdd(nose, e, up), d, reach);
	if (!r2.hit || lbDot(r2.normal, d) > -LB_PRONE_RISER_COS)
		return false;
	const float tread = lbDot(lbSub(r2.impactPoint, nose), d);
	*casts += 1;
	const lbHit r3 = lbProneRay(query, def, lbMulAdd(lbMulAdd(nose, -2.0f * e, d), e, up), lbNeg(up), reach);
	if (!r3.hit)
		return false;
	const float riser = hc - lbDot(r3.impactPoint, up);
	if (!(tread > 2.0f * e && riser > LB_PRONE_EDGE_RISE))
		return false;
	*outNose = nose;
	*outStep = lbMulAdd(lbMulSV(tread, d), riser, up);
	return true;
}

// Whether the contact `p` lies on the flight (nose, step as lbProneFindFlight gives them; `climb`
// the step's unit direction across up and `tread` its length): its height a whole number k of risers
// from the nose's (within 5 mm) and its place along the flight on step k's tread, within `slack`
// (a sphere's contact on a nose lies at the tread's end).
static bool lbProneOnFlight(lbVec3 p, lbVec3 nose, lbVec3 up, lbVec3 climb, float tread, float riser, float slack)
{
	const lbVec3 r = lbSub(p, nose);
	const float k = floorf(lbDot(r, up) / riser + 0.5f);
	const float x = lbDot(r, climb) - k * tread;
	return lbAbsF(lbDot(r, up) - k * riser) <= 0.005f && x >= -slack && x <= tread + slack;
}

// How far (m, along the body) past a nose a torso's middle may lie for the torso to rest pelvis-down
// over it: the legs' weight bears at the hips, behind the torso's middle. (In the prone sweep's
// stairs, 1 cm left 0.19-0.21 x 0.38-0.39 m stairs 17-19 degrees off the line the torso rests on,
// the torso tipped forward against the next riser; 3 cm held back torsos that rest on the tread.
// With the pitch caps at 45 degrees the pelvis-down pitch reaches 38-42 degrees on 0.22-0.24 x
// 0.33-0.36 m stairs, and at 2 cm it held torsos whose middle lay 1.5-1.8 cm past the nose
// pelvis-down, 39-42 degrees off the tread under their middle; at 1.25 cm one 1.3 cm past tipped
// forward, 16 degrees off the 0.195 x 0.392 m flight's line it rests on.)
#define LB_PRONE_FLIGHT_NEAR 0.014f

// The torso as the pose stage turns it (lbProneApplyPose), seen from the side along the climb of a
// flight (x along it, z along up, the pelvis joint at 0): the neck (top), the first spine bone's
// joint (the pivot of the lower part's turn), the bend joint, and the point of the pelvis-to-neck
// line the lower part's turn aims (the bend's place along it; the neck without a bend bone).
typedef struct lbProneTorsoSide
{
	float tx, tz, cx, cz, jx, jz, bx, bz;
} lbProneTorsoSide;

// Where the pose stage puts the neck (x along the climb, *outZ along up, from the pelvis joint) for
// the torso pitched `pitch` (rad, up the climb): the lower part turned about the pivot until the
// aimed point lies on the pelvis's line at its own angle plus the pitch, the chest part by the
// pitch in all (see lbProneApplyPose).
static float lbProneTorsoReach(const lbProneTorsoSide* k, float pitch, float* outZ)
{
	const float w = lbProneAtan2(k->bz, k->bx) + pitch;
	const float ux = cosf(w), uz = sinf(w);
	const float ax = k->bx - k->cx, az = k->bz - k->cz;
	const float uc = ux * k->cx + uz * k->cz;
	const float lambda = uc + sqrtf(lbMaxF(uc * uc - (k->cx * k->cx + k->cz * k->cz) + ax * ax + az * az, 0.0f));
	const float dx = lambda * ux - k->cx, dz = lambda * uz - k->cz;
	const float tau = lbProneAtan2(ax * dz - az * dx, ax * dx + az * dz);
	const float st = sinf(tau), ct = cosf(tau), sp = sinf(pitch), cp = cosf(pitch);
	const float jx = k->jx - k->cx, jz = k->jz - k->cz, rx = k->tx - k->jx, rz = k->tz - k->jz;
	*outZ = k->cz + st * jx + ct * jz + sp * rx + cp * rz;
	return k->cx + ct * jx - st * jz + cp * rx - sp * rz;
}

// Where a straight torso lying up the flight, resting on the nose at `xj` (along the climb from
// the pelvis) and pitched `pitch` (rad), has its neck's end sphere (radius r) against the riser
// under the next nose (at xj + span, `riser` high): the sphere's clearance from the riser's face
// squared less r squared, negative when it is in the step. `k`: the torso (lbProneTorsoReach).
static float lbProneCapClear(float pitch, const lbProneTorsoSide* k, float xj, float span, float riser, float r)
{
	const float sn = sinf(pitch), cs = cosf(pitch);
	float zn;
	const float x = lbProneTorsoReach(k, pitch, &zn);
	// The axis passes r over the nose (heights from the nose's).
	const float z = r / cs + (x - xj) * sn / cs;
	const float dx = xj + span - x;
	if (dx <= 0.0f)
		return -r * r;
	const float dz = z - lbClampF(z, 0.0f, riser);
	return dx * dx + dz * dz - r * r;
}

// The pitch (rad, raising the head along `along`) of a straight torso lying on the flight (nose,
// step as lbProneFindFlight gives them), as a rigid torso rests: seen from the side along the body
// its ground is the treads' heights, and the torso (the pelvis joint to the neck joint, a torso
// radius past each) lies on the upper convex hull of the part under it, on the edge under its
// middle, as the torso pitch metric measures it. Lying up the flight, the torso rests on the nose
// at or before its middle and the next: on the noses' line when the next lies under it (before the
// neck). With its middle before the first nose past its low end (or within LB_PRONE_FLIGHT_NEAR past
// it at that pitch), it lies from its end on the lower tread up over that nose, at most `maxPitch`.
// Otherwise, its middle past the nose it rests on and the next nose beyond its neck, it tips forward
// about that nose until its end meets the riser under the next (the chest stops before the riser),
// or lies level on the tread when that riser is out of its reach. Lying down the flight (the head
// lower) the edge of the hull under its middle, found from the noses' line and again from the pitch
// found. `torso`: the pelvis, the neck, the first spine joint, the bend joint and the pelvis-to-neck
// line's point at the bend (world, the animated pose), whose turns lbProneTorsoReach follows;
// `outNoses` gets the noses' line's pitch. Nothing is cast.
static float lbProneFlightPitch(lbVec3 nose, lbVec3 step, lbVec3 up, lbVec3 along, const lbVec3 torso[5],
								float radius, float maxPitch, float* outNoses)
{
	const float riser = lbDot(step, up);
	const lbVec3 run = lbMulAdd(step, -riser, up);
	const float tread = lbLength(run);
	const float cosA = lbDot(run, along) / tread;
	*outNoses = 0.0f;
	if (!(lbAbsF(cosA) >= 0.5f))
		return 0.0f;
	// Along the body's axis, climbing positive (s: the flight climbs along `along` or against it):
	// the pelvis at 0, nose k at (k - q0) span, k risers up.
	const float s = cosA > 0.0f ? 1.0f : -1.0f;
	const float span = tread / lbAbsF(cosA);
	const lbVec3 pelvis = torso[0];
	const float q0 = lbDot(lbSub(pelvis, nose), run) / (tread * tread);
	lbProneTorsoSide side;
	float* const xz[4][2] = { { &side.tx, &side.tz }, { &side.cx, &side.cz }, { &side.jx, &side.jz }, { &side.bx, &side.bz } };
	for (int i = 0; i < 4; ++i)
	{
		*xz[i][0] = s * lbDot(lbSub(torso[i + 1], pelvis), along);
		*xz[i][1] = lbDot(lbSub(torso[i + 1], pelvis), up);
	}
	const float noses = lbProneAtan2(riser, span);
	*outNoses = s * noses;
	float pitch = noses;
	for (int pass = 0; pass < 2; ++pass)
	{
		// The neck's place along the climb with the torso pitched `pitch` up the flight.
		float zn;
		const float xn = lbProneTorsoReach(&side, pitch, &zn);
		const float a = lbMinF(0.0f, xn) - radius, b = lbMaxF(0.0f, xn) + radius, m = 0.5f * xn;
		// The first nose past the low end and the last one before the high end.
		const float first = floorf(a / span + q0) + 1.0f, last = floorf(b / span + q0);
		const float xFirst = (first - q0) * span, xLast = (last - q0) * span;
		if (first > last)
			return 0.0f;
		if (m < xFirst)
			return s * lbProneAtan2(riser, xFirst - a);
		if (xn < 0.0f)
		{
			// Down the flight: the hull's edge under the middle.
			pitch = m >= xLast ? 0.0f : noses;
			continue;
		}
		// Up the flight: the nose at or before the middle, and the next.
		const float xj = (floorf(m / span + q0) - q0) * span;
		if (xj + span <= xn)
			return s * noses;
		// The pelvis's end down on the lower tread and the torso over the first nose, when its middle
		// then lies over that nose (the legs' weight bears at the hips, behind the torso's middle).
		const float steep = lbMinF(lbProneAtan2(riser, xFirst - a), maxPitch);
		float zs;
		const float xs = lbProneTorsoReach(&side, steep, &zs);
			if (0.5f * xs <= xFirst + LB_PRONE_FLIGHT_NEAR && xFirst <= xs)
			return s * steep;
		if (lbProneCapClear(0.0f, &side, xj, span, riser, radius) > 0.0f)
			return 0.0f;
		if (lbProneCapClear(noses, &side, xj, span, riser, radius) <= 0.0f)
			return s * noses;
		float lo = 0.0f, hi = noses;
		for (int it = 0; it < 12; ++it)
		{
			const float mid = 0.5f * (lo + hi);
			if (lbProneCapClear(mid, &side, xj, span, riser, radius) > 0.0f)
				hi = mid;
			else
				lo = mid;
		}
		return s * hi;
	}
	return s * pitch;
}


// Steps 4-6 on a flight of steps (lbProneFindFlight, lbProneFlightPitch): with the centre contact
// above the lower of the ahead and behind ones, and those a riser apart, whether the ground under the
// casts is a flight (looked for on a trace frame once the body has moved recastDistance since it was
// last looked for; the three contacts on its steps); then the pitches' goals (rad) on it. Out of line:
// its work, made on steps only, kept out of the every-frame code (inside it, the rest of the sense
// stage was laid out otherwise and cost 1.5 % more on the crawling bench).
static LB_NOINLINE bool lbProneFlightGoals(lbProneState* state, const lbProneDef* def, const lbSceneQuery* query,
												   const lbSkeleton* skeleton, const lbHumanoid* h, const lbPose* anim,
												   const lbTransform* cwp, lbVec3 pelvisMs, lbVec3 along, lbVec3 base, int cast,
												   const lbProneContact* ch, const lbProneContact* uhp,
												   const lbProneContact* whp, int* ioCasts, float* outUpper, float* outLower)
{
	const lbVec3 up = def->up;
	const lbTransform cw = *cwp;
	const lbProneContact uh = *uhp, wh = *whp;
	const lbVec3 c = ch->impactPoint;
	const float hu = lbDot(uh.impactPoint, up), hw = lbDot(wh.impactPoint, up);
	const bool climbs = hu > hw;
	// Looked for where the ground under the casts may be steps; a flight found holds while the
	// contacts lie on its steps.
	if (cast != 0 &&
		(cast == 2 || !state->flightLooked ||
		 lbLengthSquared(lbSub(base, state->flightFromWs)) > def->recastDistance * def->recastDistance) &&
		lbProneStepped(ch->normal, uh.normal, wh.normal, up, along, lbSub(uh.impactPoint, wh.impactPoint)))
	{
		state->flightLooked = 1;
		state->flightFromWs = base;
		state->flightFound = (uint8_t)lbProneFindFlight(query, def, c, climbs ? wh.impactPoint : uh.impactPoint,
													   climbs ? along : lbNeg(along), ioCasts, &state->flightNoseWs,
													   &state->flightStepWs);
	}
	if (!state->flightFound)
		return false;
	{
		const lbVec3 nose = state->flightNoseWs, step = state->flightStepWs;
		const float riser = lbDot(step, up);
		const lbVec3 run = lbMulAdd(step, -riser, up);
		const float tread = lbLength(run);
		const lbVec3 climb = lbMulSV(1.0f / tread, run);
		const float slack = def->traceRadius;
		if (!(lbProneOnFlight(c, nose, up, climb, tread, riser, slack) &&
			  lbProneOnFlight(uh.impactPoint, nose, up, climb, tread, riser, slack) &&
			  lbProneOnFlight(wh.impactPoint, nose, up, climb, tread, riser, slack)))
			return false;
	}
	// The pelvis, the neck, the first spine joint, the bend joint and the line's point at the bend
	// (world), as the pose stage turns them.
	const int topBone = lbProneTopBone(h), bendBone = lbProneBendBone(h, skeleton);
	lbVec3 torso[5];
	torso[0] = lbIkTransformPoint(&cw, pelvisMs);
	torso[1] = lbIkTransformPoint(&cw, anim->model[topBone].p);
	torso[2] = h->spineCount > 0 ? lbIkTransformPoint(&cw, anim->model[h->spine[0]].p) : torso[0];
	torso[3] = torso[4] = torso[1];
	if (bendBone >= 0)
	{
		torso[3] = lbIkTransformPoint(&cw, anim->model[bendBone].p);
		const lbVec3 line = lbSub(torso[1], torso[0]);
		const float len2 = lbLengthSquared(line);
		const float at = len2 > 1.0e-8f ? lbClampF(lbDot(lbSub(torso[3], torso[0]), line) / len2, 0.05f, 0.95f) : 1.0f;
		torso[4] = lbLerp(torso[0], torso[1], at);
	}
	const float radius = def->torsoRadius >= 0.0f ? def->torsoRadius : 0.055f * h->height;
	float nosesLine;
	*outUpper = lbProneFlightPitch(state->flightNoseWs, state->flightStepWs, up, along, torso, radius,
								   def->maxUpperPitch, &nosesLine);
	*outLower = nosesLine;
	state->flightPitch = *outUpper;
	return true;
}

// The steepest ground (rad) the ahead and behind casts look for: a cap past it (up to a right angle)
// still turns the body that far, but the casts' reach stays finite.
#define LB_PRONE_REACH_PITCH 1.0472f
// How far (m, along up) a flight's ground at a cast's place may lie off the line the flight rises
// along through the centre contact: a riser (0.25 m, past the tallest riser a body lies across).
#define LB_PRONE_REACH_STEP 0.25f
// How far above (outUp) and below (outDown) the centre contact's height the ahead ([0]) and behind
// ([1]) casts reach (m): traceUp and traceDown, or further where ground as steep as the pitch cap
// (at most LB_PRONE_REACH_PITCH) may lie beyond them at the cast's distance along the body, a step's
// riser off that slope's line (a flight's treads at the cast lie up to a riser above or below it).
static void lbProneCastReach(const lbProneDef* def, float outUp[2], float outDown[2])
{
	const float extent[2] = { def->upperExtent, def->lowerExtent };
	const float cap[2] = { def->maxUpperPitch, def->maxLowerPitch };
	for (int k = 0; k < 2; ++k)
	{
		// tan(a) by its [3/2] Pade approximant, a(15 - a^2) / (15 - 6 a^2): under it by at most 0.2 %
		// up to 60 degrees, well within the riser's margin (the sine and cosine cost 140 instructions
		// a frame).
		const float a = lbMinF(cap[k], LB_PRONE_REACH_PITCH), a2 = a * a;
		const float rise = extent[k] * a * (15.0f - a2) / (15.0f - 6.0f * a2) + LB_PRONE_REACH_STEP;
		outUp[k] = lbMaxF(def->traceUp, rise);
		outDown[k] = lbMaxF(def->traceDown, rise);
	}
}

// Whether the fold between the centre contact's plane (c, nc) and the ahead contact's (u, nu) lies
// further along the body (`along`, across up) from c than `middle` (m): seen from the side, where the
// two planes' lines meet. A torso whose middle lies before the fold rests on the near plane (the
// ridge of a pointed roof ahead of it); one whose middle lies past it, on the ground beyond (over a
// rock's crest between the pelvis and the middle the ground under the middle falls away, and the near
// plane held the torso up to 10 degrees off it).
static bool lbProneFoldPastMiddle(lbVec3 c, lbVec3 nc, lbVec3 u, lbVec3 nu, lbVec3 up, lbVec3 along, float middle)
{
	const float kc = lbDot(nc, up), ku = lbDot(nu, up);
	if (!(kc > 0.1f && ku > 0.1f))
		return true;
	const float sc = -lbDot(nc, along) / kc, su = -lbDot(nu, along) / ku;
	const float xu = lbDot(lbSub(u, c), along), dz = lbDot(lbSub(u, c), up);
	// Near line z = sc x, far line z = dz + su (x - xu); a fold only where the near one is steeper.
	if (!(sc - su > 1.0e-4f))
		return true;
	return (dz - su * xu) > middle * (sc - su);
}

// The roll's side contacts a (right) and b (left) where the centre contact c lies above the line
// between them (by more than LB_PRONE_EDGE_RISE at the middle) and one side lies lower than the
// other (by more than twice that): the ground folds down under the body's middle, and the body
// rests on the fold, not on the line between its sides. A body lying along a
// trench's rim with a shoulder over the edge had taken the rim-to-floor slope (60 degrees, held at
// maxRoll) where the side cast reached the floor, and lay level where it did not. The side whose
// slope from the centre is nearer level stays; the other is put at the centre (its slope then is
// the kept side's), as a side cast that meets nothing is.
static void lbProneRollOverEdge(lbVec3 c, lbVec3* a, lbVec3* b, lbVec3 up)
{
	const float hc = lbDot(c, up), ha = lbDot(*a, up), hb = lbDot(*b, up);
	// Sides level with each other under a higher centre are no edge along the body (the centre's
	// sphere on a stair's nose, the sides' on the tread below, lying up a flight): their line is the roll's.
	if (hc - 0.5f * (ha + hb) <= LB_PRONE_EDGE_RISE || lbAbsF(ha - hb) <= 2.0f * LB_PRONE_EDGE_RISE)
		return;
	// Both side offsets are equal, so the nearer-level side is the one nearer the centre's height.
	if (lbAbsF(ha - hc) > lbAbsF(hb - hc))
		*a = c;
	else
		*b = c;
}

lbResult lbProneSense(lbProneState* state, const lbProneDef* def, const lbSkeleton* skeleton, const lbHumanoid* h,
					  const lbProneSenseInput* input, lbProneTargets* out)
{
	if (!state || !def || !skeleton || !h || !input || !out || !input->query || !input->animPose ||
		!input->animPose->model)
		return lbReport(lb_errorNullPointer, "lbProneSense: state, def, skeleton, humanoid, input (query, animPose) and "
											 "targets are required");
	lbProneRig rig;
	if (lbProneCheckRig(h, skeleton, &rig) != lb_ok)
		return lb_errorSkeletonMismatch;
	lbResult r = lbProneCheckDef(def, "lbProneSense");
	if (r != lb_ok)
		return r;
	const lbPose* anim = input->animPose;
	if (anim->boneCount != skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbProneSense: pose has %d bones, skeleton %d", anim->boneCount,
						skeleton->boneCount);
	if (h->pelvis < 0 || h->pelvis >= anim->boneCount || lbProneTopBone(h) < 0)
		return lbReport(lb_errorMissingRole, "lbProneSense: the humanoid has no pelvis or spine");
	if (!lbIkValidTransformExact(&input->characterWs) || !lbIsValidFloat(input->dt) || !lbProneModelFinite(anim, &rig))
		return lbReport(lb_errorNonFinite, "lbProneSense: non-finite character transform, dt or pose (a bone it reads)");
	if (!lbFrameUnscaled(&input->characterWs))
		return lbReport(lb_errorInvalidArgument,
						"lbProneSense: the character transform scales by (%g, %g, %g); the prone system takes an unscaled "
						"model frame in metres (scale the rig's rest pose instead)",
						(double)input->characterWs.s.x, (double)input->characterWs.s.y, (double)input->characterWs.s.z);
	const float dt = input->dt;
	if (dt <= 0.0f)
		return lb_ok;

	const lbVec3 up = def->up;
	const lbTransform cw = input->characterWs;
	const lbVec3 upMs = lbNormalizeOr(lbIkQuatRotate(lbQuatConj(cw.q), up), h->upMs);
	lbVec3 alongMs, leftMs;
	float sinElevation;
	lbProneBodyFrame(h, anim, upMs, &alongMs, &leftMs, &sinElevation);
	const lbVec3 along = lbNormalize(lbIkQuatRotate(cw.q, alongMs));
	const lbVec3 left = lbNormalize(lbIkQuatRotate(cw.q, leftMs));

	bool teleported = state->initialized && lbDistance(cw.p, state->prevCharacterWs.p) > def->teleportDistance;
	if (teleported)
	{
		float alpha = state->alpha, phase = state->tracePhase;
		lbProneState_Reset(state);
		state->alpha = alpha;
		state->tracePhase = phase;
	}
	const bool snap = !state->initialized || dt > 0.25f;

	// Reduced trace rate (as the foot system's): a phase accumulator, so 10 Hz at 60 Hz frames is
	// exactly every sixth frame. After a snap (or a gap of more than a period) the schedule restarts
	// at the state's phase. A frame without casts re-evaluates the ground each cast found last.
	state->traceTimer -= dt;
	const bool traceFrame = snap || def->traceRate <= 0.0f || state->traceTimer <= 1.0e-5f;
	// 2: every cast is made (a snap); 1: those whose start moved; 0: none.
	const int cast = snap ? 2 : (traceFrame ? 1 : 0);
	if (traceFrame && def->traceRate > 0.0f)
	{
		float period = 1.0f / def->traceRate;
		float phase = lbClampF(state->tracePhase, 0.0f, 1.0f);
		state->traceTimer = state->traceTimer < -period || snap ? period * (1.0f - phase) : state->traceTimer + period;
	}

	// The checks are passed: the targets are written in place.
	lbProneTargets* const t = out;
	// All but the grounds, which both ways out copy from the state.
	memset(t, 0, offsetof(lbProneTargets, ground));
	// (The rig's constants, last, are copied from the state below.)
	_Static_assert(offsetof(lbProneTargets, rig) + sizeof(lbProneRigPlan) == sizeof(lbProneTargets),
				   "the rig's constants end the targets");
	memset((char*)t + offsetof(lbProneTargets, ground) + sizeof t->ground, 0,
		   offsetof(lbProneTargets, rig) - offsetof(lbProneTargets, ground) - sizeof t->ground);
	t->characterWs = cw;
	t->upWs = up;

	// Alpha: the game's flag, eased, times how far the animated torso has come down to lying.
	// A body that is already down on the first frame starts fitted.
	if (!state->initialized)
		state->alpha = input->active ? 1.0f : 0.0f;
	state->alpha = lbInterpConstantTo(state->alpha, input->active ? 1.0f : 0.0f, dt, def->alphaSpeed);
	// A torso within lieAngle of the ground lies fully (lie 1). asin(s) <= (pi/2) s on [0, 1] (the arc
	// sine is convex there and meets that line at both ends), so a body whose (pi/2) s is within
	// lieAngle needs no arc sine (libm's cost about 30 instructions a frame).
	float lie = 1.0f;
	if (0.5f * LB_PI * sinElevation > def->lieAngle)
	{
		const float elevation = asinf(sinElevation);
		lie = 1.0f - lbSmoothStep(lbClampF((elevation - def->lieAngle) / def->lieAngle, 0.0f, 1.0f));
	}
	t->alpha = state->alpha * lie;
	{
		lbVec3 front = lbIkQuatRotate(anim->model[h->pelvis].q, h->pelvisForward);
		float d = lbDot(front, upMs);
		t->posture = lie <= 0.0f ? lb_proneNotLying : (d < -0.5f ? lb_proneFaceDown : (d > 0.5f ? lb_proneFaceUp : lb_proneOnSide));
	}

	// Step 1-2: the centre contact under the body (the pelvis on the ground plane stands for the
	// seed's feet location of the capsule); a miss falls back to that point.
	lbVec3 pelvisMs = anim->model[h->pelvis].p;
	lbVec3 feet = lbIkTransformPoint(&cw, lbMulAdd(pelvisMs, -lbDot(pelvisMs, upMs), upMs));

	// Nothing to fit this frame (the fit has faded out, or the torso stands): no casts and no probes,
	// and the pose stage does nothing. What the casts found is dropped, as a body that got up may
	// walk on: the frame the fit comes back is a trace frame that casts everything, and the ground
	// under each segment is found again (the body lowered onto it from its own height). Holds let go.
	if (t->alpha <= 0.0f)
	{
		for (int k = 0; k < 5; ++k)
		{
			state->castGround[k].hit = false;
			state->castGround[k].radius = -1.0f;
		}
		for (int k = 0; k < lb_proneProbeCount; ++k)
		{
			state->ground[k].hit = false;
			state->probeGround[k].hit = false;
			state->probeGround[k].radius = -1.0f;
		}
		for (int k = 0; k < LB_PRONE_LIMBS; ++k)
		{
			lbProneLimbState* ls = &state->limbs[k];
			int root, mid, end;
			lbProneLimbBones(h, k, &root, &mid, &end);
			if (end >= 0)
				ls->prevAnimWs = lbTransformPoint(cw, anim->model[end].p);
			ls->locked = false;
			ls->lockAlpha = 0.0f;
			t->limbs[k].endWs = ls->lockWs;
			t->limbs[k].normalWs = up;
		}
		state->traceTimer = 0.0f;
		state->flightFound = state->flightLooked = 0;
		t->roll = state->roll;
		t->upperPitch = state->upperPitch;
		t->lowerPitch = state->lowerPitch;
		t->hover = state->hover;
		t->centreWs = t->leftWs = t->rightWs = t->upperWs = t->lowerWs = feet;
		t->centreNormalWs = up;
		memcpy(t->ground, state->ground, sizeof t->ground);
		// No rig constants (the pose stage does nothing at alpha 0; given these targets with another
		// alpha it works them out itself).
		t->rig.boneCount = 0;
		state->prevCharacterWs = cw;
		state->initialized = 1;
		return lb_ok;
	}
	int casts = 0;
	const lbVec3 centreFrom = lbMulAdd(feet, def->traceUp, up);
	const int castsBefore = casts;
	lbProneContact centre = lbProneTrace(input->query, def, centreFrom, def->traceUp + def->traceDown, def->traceRadius, cast,
								&state->castGround[0], &state->castFromWs[0], &state->recastSpan[0], &casts, NULL);
	const bool centreCast = casts > castsBefore;
	t->centreHit = centre.hit;
	t->centreWs = centre.hit ? centre.impactPoint : feet;
	t->centreNormalWs = centre.hit ? centre.normal : up;
	const lbVec3 c = t->centreWs;
	// The other casts start from the body's ground point at the contact's height (as the seed starts
	// them from the feet location, not from the contact, whose offset from the sphere's centre on a
	// slope would otherwise add up).
	const lbVec3 base = lbMulAdd(feet, lbDot(lbSub(c, feet), up), up);

	// Step 3: left and right of the centre contact, roll from the line between the hits (or from
	// one hit and the centre).
	float rollGoal = 0.0f;
	{
		lbVec3 l0 = lbMulAdd(base, def->sideOffset, left), r0 = lbMulAdd(base, -def->sideOffset, left);
		lbProneContact lh = lbProneTrace(input->query, def, lbMulAdd(l0, def->sideExtent, up), 2.0f * def->sideExtent,
								def->sideRadius, cast, &state->castGround[1],
								&state->castFromWs[1], &state->recastSpan[1], &casts, NULL);
		lbProneContact rh = lbProneTrace(input->query, def, lbMulAdd(r0, def->sideExtent, up), 2.0f * def->sideExtent,
								def->sideRadius, cast, &state->castGround[2],
								&state->castFromWs[2], &state->recastSpan[2], &casts, NULL);
		t->leftHit = lh.hit;
		t->rightHit = rh.hit;
		t->leftWs = lh.hit ? lh.impactPoint : l0;
		t->rightWs = rh.hit ? rh.impactPoint : r0;
		if (lh.hit || rh.hit)
		{
			lbVec3 a = rh.hit ? rh.impactPoint : c;
			lbVec3 b = lh.hit ? lh.impactPoint : c;
			if (lh.hit && rh.hit && t->centreHit)
				lbProneRollOverEdge(c, &a, &b, up);
			rollGoal = lbProneSlope(a, b, up, left);
		}
	}

	// Steps 4-6: ahead (upper-body pitch) and behind (lower-body pitch), with the roof lift.
	float upperGoal = 0.0f, lowerGoal = 0.0f, hoverGoal = 0.0f, upperHoverGoal = 0.0f;
	// Whether the body lies on a flight of steps this frame (the held feet's drop below).
	bool onFlight = false;
	{
		lbVec3 u0 = lbMulAdd(base, def->upperExtent, along), w0 = lbMulAdd(base, -def->lowerExtent, along);
		// Each reaches as far above and below the centre's height as ground the pitch cap lets that
		// part of the body follow lies there (traceUp and traceDown at least): on a 43-degree flight
		// the behind cast, 0.6 m down over 0.75 m, met nothing and the legs lay level.
		float upReach[2], downReach[2];
		lbProneCastReach(def, upReach, downReach);
		lbProneContact uh = lbProneTrace(input->query, def, lbMulAdd(u0, upReach[0], up), upReach[0] + downReach[0],
								def->traceRadius, cast, &state->castGround[3],
								&state->castFromWs[3], &state->recastSpan[3], &casts, NULL);
		lbProneContact wh = lbProneTrace(input->query, def, lbMulAdd(w0, upReach[1], up), upReach[1] + downReach[1],
								def->traceRadius, cast, &state->castGround[4],
								&state->castFromWs[4], &state->recastSpan[4], &casts, NULL);
		t->upperHit = uh.hit;
		t->lowerHit = wh.hit;
		lbVec3 u = uh.hit ? uh.impactPoint : u0;
		lbVec3 w = wh.hit ? wh.impactPoint : w0;
		// A ridge folds the body convexly (the ground behind falls away more steeply than the ground
		// ahead rises: a roof's two sides). A flight of stairs under a body lying up it does not: the
		// ground behind and ahead lie on the noses' line, and a lift there held the legs level, 0.27 m
		// over the lower steps, while the torso lay along the flight.
		// The slopes before any lift, which are the pitches' when none is made.
		const float upperRaw = uh.hit ? lbProneSlope(c, u, up, along) : 0.0f;
		const float lowerRaw = wh.hit ? lbProneSlope(w, c, up, along) : 0.0f;
		// A flight of steps: the ahead and behind contacts a riser or more apart, the centre's height
		// above the lower of them. On a flight found (and the three contacts on its steps) the torso
		// takes the line it rests on there and the legs the noses' line (lbProneFlightPitch). Without
		// one, the old reading: the ahead and behind contacts on parallel planes and the centre's
		// height between theirs take the slope between them (over 1.3 m a riser more or less matters
		// less than over 0.55 or 0.75 m from the centre; on 0.149 x 0.342 m stairs 24.6 degrees
		// against the noses' 23.5, where the slopes from the centre gave 28.4 and 21.7).
		const float hc = lbDot(c, up), hu = lbDot(uh.impactPoint, up), hw = lbDot(wh.impactPoint, up);
		state->flightPitch = 0.0f;
		if (uh.hit && wh.hit && t->centreHit && (state->flightFound || cast != 0) && lbAbsF(hu - hw) > LB_PRONE_EDGE_RISE &&
			lbMinF(hu, hw) < hc - LB_PRONE_EDGE_RISE)
			onFlight = lbProneFlightGoals(state, def, input->query, skeleton, h, anim, &cw, pelvisMs, along, base, cast, &centre,
										  &uh, &wh, &casts, &upperGoal, &lowerGoal);
		if (onFlight)
		{
			t->onFlight = true;
			t->flightNoseWs = state->flightNoseWs;
			t->flightStepWs = state->flightStepWs;
		}
		// The roof lift and the pitches from the centre, where no flight lies under the body (a stair's
		// nose under the centre cast tilts its normal, which read as a ridge).
		const bool ridge = !onFlight && (!(uh.hit && wh.hit) || lowerRaw - upperRaw > def->roofAngle);
		if (def->roofLift && t->centreHit && ridge)
		{
			if (wh.hit)
				hoverGoal = lbProneRoofLift(def, c, t->centreNormalWs, &w, wh.normal);
			// The ahead contact is lifted only where the fold lies past the torso's middle (from c
			// along the body: the body's ground point's place, then half the pelvis-to-neck run).
			if (uh.hit)
			{
				const lbVec3 neckWs = lbIkTransformPoint(&cw, anim->model[lbProneTopBone(h)].p);
				const float middle = lbDot(lbSub(base, c), along) +
									 0.5f * lbDot(lbSub(neckWs, lbIkTransformPoint(&cw, pelvisMs)), along);
				if (lbProneFoldPastMiddle(c, t->centreNormalWs, uh.impactPoint, uh.normal, up, along, middle))
					upperHoverGoal = lbProneRoofLift(def, c, t->centreNormalWs, &u, uh.normal);
			}
			t->roofLift = hoverGoal > 0.0f || upperHoverGoal > 0.0f;
		}
		t->upperWs = u;
		t->lowerWs = w;
		if (!onFlight)
		{
			if (uh.hit)
				upperGoal = upperHoverGoal > 0.0f ? lbProneSlope(c, u, up, along) : upperRaw;
			if (wh.hit)
				lowerGoal = hoverGoal > 0.0f ? lbProneSlope(w, c, up, along) : lowerRaw;
			// Without a flight found, the ahead and behind contacts on parallel planes and the
			// centre's height between theirs take the slope between them.
			if (uh.hit && wh.hit && t->centreHit && !t->roofLift && lbDot(uh.normal, wh.normal) >= LB_PRONE_PLANE_HELD_COS &&
				((hu - hc > LB_PRONE_EDGE_RISE && hc - hw > LB_PRONE_EDGE_RISE) ||
				 (hc - hu > LB_PRONE_EDGE_RISE && hw - hc > LB_PRONE_EDGE_RISE)))
				upperGoal = lowerGoal = lbProneSlope(wh.impactPoint, uh.impactPoint, up, along);
		}
	}
	// Step 8: caps per joint.
	rollGoal = lbClampF(rollGoal, -def->maxRoll, def->maxRoll);
	upperGoal = lbClampF(upperGoal, -def->maxUpperPitch, def->maxUpperPitch);
	lowerGoal = lbClampF(lowerGoal, -def->maxLowerPitch, def->maxLowerPitch);
	// The frame's easings (three exponentials) kept while dt and the speeds stay.
	if (!(dt == state->easeFrom[0] && def->rotationSpeed == state->easeFrom[1] && def->heightSpeed == state->easeFrom[2]))
	{
		state->ease[0] = lbInterpAlpha(dt, def->rotationSpeed);
		state->ease[1] = lbInterpAlpha(dt, def->heightSpeed);
		state->ease[2] = lbInterpAlpha(dt, 3.0f * def->heightSpeed);
		state->easeFrom[0] = dt;
		state->easeFrom[1] = def->rotationSpeed;
		state->easeFrom[2] = def->heightSpeed;
	}
	if (snap)
	{
		state->roll = rollGoal;
		state->upperPitch = upperGoal;
		state->lowerPitch = lowerGoal;
		state->hover = hoverGoal;
	}
	else
	{
		// One easing for the four (lbInterpTo's, its exponential once).
		const float ease = state->ease[0];
		state->roll += (rollGoal - state->roll) * ease;
		state->upperPitch += (upperGoal - state->upperPitch) * ease;
		state->lowerPitch += (lowerGoal - state->lowerPitch) * ease;
		state->hover += (hoverGoal - state->hover) * ease;
	}
	t->roll = state->roll;
	t->upperPitch = state->upperPitch;
	t->lowerPitch = state->lowerPitch;
	t->hover = state->hover;
	t->upperHover = upperHoverGoal;
	t->tooHigh = t->hover > def->hoverLimit;

	// The probes go where the pose stage will turn their points, not where the animation has them:
	// by this frame's roll (about the body's axis through the pelvis) and pitches (the upper body
	// about the pelvis, each leg about its hip). On stairs the animated neck lies a tread away from
	// the fitted one. (Not moved along up: the probes reach as far above as below their point.)
	const lbVec3 pelvisWs = lbIkTransformPoint(&cw, pelvisMs);
	// Each leg turns about its hip (the pelvis without a thigh).
	lbVec3 hipWs[2];
	for (int side = 0; side < 2; ++side)
		hipWs[side] = h->leg[side].thigh >= 0 ? lbIkTransformPoint(&cw, anim->model[h->leg[side].thigh].p) : pelvisWs;
	// along and left are unit: lbProneBodyFrame's along always is (the body's forward or any direction
	// across up standing in for a torso with none), left is up x along, both turned and normalized.
	const lbQuat rollQ = lbProneQuatFromUnitAxisAngle(along, t->roll);
	const lbQuat upperPitchQ = lbProneQuatFromUnitAxisAngle(left, -t->upperPitch);
	const lbQuat lowerPitchQ = lbProneQuatFromUnitAxisAngle(left, -t->lowerPitch);
	// The model-to-world transform followed by each turn about its pivot, as one transform: a
	// probe's turned point costs one transform instead of a transform and a turn.
	// pivot + Q (cw(x) - pivot) = (Q cw.q) (cw.s x) + pivot + Q (cw.p - pivot).
	lbTransform upperT = cw, legT[2] = { cw, cw };
	lbQuat upperQ, lowerQ;
#if LB_IK_SSE2
	{
		// In four lanes throughout (through lbQuat and lbVec3 values each product went through
		// memory). A position's store spills into q.x, which the rotation's store after it writes.
		const __m128 rq = _mm_loadu_ps(&rollQ.x), cq = _mm_loadu_ps(&cw.q.x), cp = _mm_loadu_ps(&cw.p.x);
		const __m128 uq = lbIkQuatMul4(rq, _mm_loadu_ps(&upperPitchQ.x)), lq = lbIkQuatMul4(rq, _mm_loadu_ps(&lowerPitchQ.x));
		_mm_storeu_ps(&upperQ.x, uq);
		_mm_storeu_ps(&lowerQ.x, lq);
		const __m128 pw = _mm_setr_ps(pelvisWs.x, pelvisWs.y, pelvisWs.z, 0.0f);
		_mm_storeu_ps(&upperT.p.x, _mm_add_ps(pw, lbIkQuatRotate4(uq, _mm_sub_ps(cp, pw))));
		_mm_storeu_ps(&upperT.q.x, lbIkQuatMul4(uq, cq));
		const __m128 legQ = lbIkQuatMul4(lq, cq);
		for (int side = 0; side < 2; ++side)
		{
			const __m128 hw = _mm_setr_ps(hipWs[side].x, hipWs[side].y, hipWs[side].z, 0.0f);
			_mm_storeu_ps(&legT[side].p.x, _mm_add_ps(hw, lbIkQuatRotate4(lq, _mm_sub_ps(cp, hw))));
			_mm_storeu_ps(&legT[side].q.x, legQ);
		}
	}
#else
	upperQ = lbIkQuatMul(rollQ, upperPitchQ);
	lowerQ = lbIkQuatMul(rollQ, lowerPitchQ);
	upperT.q = lbIkQuatMul(upperQ, cw.q);
	upperT.p = lbAdd(pelvisWs, lbIkQuatRotate(upperQ, lbSub(cw.p, pelvisWs)));
	legT[0].q = legT[1].q = lbIkQuatMul(lowerQ, cw.q);
	for (int side = 0; side < 2; ++side)
		legT[side].p = lbAdd(hipWs[side], lbIkQuatRotate(lowerQ, lbSub(cw.p, hipWs[side])));
#endif

	// Easing of the probed heights this frame (the same for every probe): ground rising three times
	// faster than falling.
	const float easeDown = state->ease[1], easeUp = state->ease[2];

	// Segment probes: a sphere of the segment's radius cast down onto the ground under it. Its
	// centre at the contact bounds where the segment's point may go (the plane through it along the
	// contact normal), edges and steps included. Ground that changes is eased, rising faster.
	// Each probe's point in the animated pose (model space), kept for the held feet below.
	lbVec3 probeMs[lb_proneProbeCount];
	bool probeOk[lb_proneProbeCount];
	lbProneProbeSetup probeSetup;
	lbProneProbeSetup_Init(&probeSetup, h, def);
	lbProneProbeSetup_Table(&probeSetup, h);
	// The soles the toe probes stand on, from the state while the leg measures they come from stay
	// (working one out cost half a toe probe).
	for (int side = 0; side < 2; ++side)
	{
		const lbLegAxes* ax = &h->legAxes[side];
		if (!(state->soleMade & (1u << side)) || !lbProneSameLeg(ax, state->soleFrom[side]))
		{
			state->sole[side] = lbHumanoid_GetSole(h, side);
			memcpy(state->soleFrom[side], &ax->toe, 8 * sizeof(float));
			memcpy(state->soleFrom[side] + 8, &ax->thighLength, 2 * sizeof(float));
			state->soleMade |= (uint8_t)(1u << side);
			state->rig.soleMade = 0u;
		}
	}
	// The pose stage's rig constants, made again only when the rig changes, with the soles above; the
	// targets carry them to the pose stage, which keeps no state (worked out there, they cost about
	// 900 instructions a frame).
	if (!lbProneRigPlan_Matches(&state->rig, skeleton, &rig))
	{
		const uint32_t stamp = state->rig.stamp;
		lbProneRigPlan_Make(&state->rig, skeleton, h, &rig);
		state->rig.stamp = stamp + 1u;
	}
	if (state->rig.soleMade != state->soleMade)
	{
		memcpy(state->rig.sole, state->sole, sizeof state->sole);
		memcpy(state->rig.soleFrom, state->soleFrom, sizeof state->soleFrom);
		state->rig.soleMade = state->soleMade;
		++state->rig.stamp;
	}
	// Copied only into targets that hold another plan (the copy cost about ninety instructions a
	// frame): targets given to this state frame after frame keep it. Targets holding another state's
	// plan of the same stamp get it when that one was made for another skeleton; one made for this
	// skeleton with another map or other soles the pose stage does not use (it checks both), and
	// one with the same is this plan.
	if (t->rig.stamp != state->rig.stamp || t->rig.fingerprint != state->rig.fingerprint ||
		t->rig.boneCount != state->rig.boneCount)
		t->rig = state->rig;
	probeSetup.soles = state->sole;
	// The limb each hand or foot probe (wrist, ankle, toes) belongs to, -1 for the others.
	static const signed char endLimb[lb_proneProbeCount] = {
		[lb_pronePelvis] = -1, [lb_proneSpine] = -1, [lb_proneChest] = -1, [lb_proneTorsoLow] = -1,
		[lb_proneTorsoHigh] = -1, [lb_proneKneeL] = -1, [lb_proneKneeR] = -1, [lb_proneElbowL] = -1,
		[lb_proneElbowR] = -1, [lb_proneWristL] = 0, [lb_proneWristR] = 1, [lb_proneAnkleL] = 2,
		[lb_proneAnkleR] = 3, [lb_proneToeL] = 2, [lb_proneToeR] = 3, [lb_proneThighL] = -1, [lb_proneThighR] = -1,
		[lb_proneForearmL] = -1, [lb_proneForearmR] = -1,
	};
	// The transform each probe's point goes by: 0 the character's, 1 the upper body's, 2 and 3 the
	// left and right thighs' (a table: the tests it replaces cost a few instructions per probe).
	static const uint8_t probeTOf[lb_proneProbeCount] = {
		[lb_pronePelvis] = 0, [lb_proneSpine] = 1, [lb_proneChest] = 1, [lb_proneTorsoLow] = 1,
		[lb_proneTorsoHigh] = 1, [lb_proneKneeL] = 2, [lb_proneKneeR] = 3, [lb_proneAnkleL] = 2,
		[lb_proneAnkleR] = 3, [lb_proneToeL] = 2, [lb_proneToeR] = 3, [lb_proneElbowL] = 1,
		[lb_proneElbowR] = 1, [lb_proneWristL] = 1, [lb_proneWristR] = 1, [lb_proneThighL] = 2,
		[lb_proneThighR] = 3, [lb_proneForearmL] = 1, [lb_proneForearmR] = 1,
	};
	const lbTransform* const probeTs[4] = { &cw, &upperT, &legT[0], &legT[1] };
	lbProneBatch batch;
	batch.count = 0;
	float settleOf[lb_proneProbeCount];
	bool settleOn[lb_proneProbeCount] = { false };
	// The def's probe values read once (the loop's stores to the state could alias them: read again
	// each probe otherwise).
	const float probeReach = def->probeReach, probeCastRadius = def->probeCastRadius;
	const bool sphereProbes = def->sphereProbes;
	if (cast == 0)
	{
		// Between trace frames nothing is cast: the loop below's probes (a fully held hand or foot's
		// left as they were, a thigh's or forearm's only while it has ground), taken by kind so that
		// each is tested only for what may leave it out, every point straight to the batch (the
		// batch's lanes in another order give each probe the same ground).
		static const uint8_t bodyProbes[] = { lb_pronePelvis, lb_proneSpine,  lb_proneChest,	 lb_proneKneeL,	  lb_proneKneeR,
											  lb_proneElbowL, lb_proneElbowR, lb_proneTorsoLow, lb_proneTorsoHigh };
		static const uint8_t endProbes[] = { lb_proneAnkleL, lb_proneAnkleR, lb_proneToeL,
											 lb_proneToeR,	 lb_proneWristL, lb_proneWristR };
		_Static_assert(sizeof bodyProbes + sizeof endProbes + 4 == lb_proneProbeCount && lb_proneThighL + 4 == lb_proneProbeCount,
					   "the body's probes, the ends' and the four segments' are every probe");
		// The probes that go to the batch, listed first (three plain loops: one over all the probes
		// with the kind's tests picked per probe cost about eighty instructions a frame more).
		uint8_t listed[lb_proneProbeCount];
		int n = 0;
		for (size_t i = 0; i < sizeof bodyProbes; ++i)
			listed[n++] = bodyProbes[i];
		for (size_t i = 0; i < sizeof endProbes; ++i)
		{
			const int k = endProbes[i];
			const lbProneLimbState* ls = &state->limbs[endLimb[k]];
			if (state->ground[k].hit && ls->locked && ls->lockAlpha >= 1.0f)
				probeOk[k] = false;
			else
				listed[n++] = (uint8_t)k;
		}
		for (int k = lb_proneThighL; k < lb_proneProbeCount; ++k)
		{
			if (state->probeGround[k].hit)
			{
				listed[n++] = (uint8_t)k;
				continue;
			}
			probeOk[k] = false;
			state->ground[k].hit = false;
			state->probeGround[k].radius = -1.0f;
		}
		for (int i = 0; i < n; ++i)
		{
			const int k = listed[i];
			float radius;
			probeOk[k] = lbProneProbeListed(&probeSetup, h, anim, k, &probeMs[k], &radius);
			if (!probeOk[k])
			{
				state->ground[k].hit = false;
				state->probeGround[k].hit = false;
				continue;
			}
			lbProneBatchAdd(&batch, k, probeMs[k], probeTOf[k], sphereProbes ? lbMinF(radius, probeCastRadius) : 0.0f, radius);
		}
	}
	for (int k = 0; cast != 0 && k < lb_proneProbeCount; ++k)
	{
		lbProneGround* g = &state->ground[k];
		// A hand or foot fully held since the last frame rests on its hold: the pose stage does not
		// read its own ground (its fit is faded out), and the hold reads only that ground was found
		// (a held end's place across up does not depend on it). Its ground is kept as it was, and
		// found again from the frame after the hold starts to let go (the frame it starts reads it
		// as it was, at the weight the hold gives up in one frame).
		if (endLimb[k] >= 0 && !snap && g->hit && state->limbs[endLimb[k]].locked &&
			state->limbs[endLimb[k]].lockAlpha >= 1.0f)
		{
			probeOk[k] = false;
			continue;
		}
		// A thigh's or forearm's probe only where an edge may lie under it (the planes at its two ends
		// disagree; the ends come first in the probes' order, so a snap reads what they found this
		// frame); otherwise not cast, and its ground dropped, so the pose stage lifts nothing for it
		// and the next cast is made afresh. Decided on trace frames; between them a probe without
		// ground stays without (as a miss re-evaluated would).
		if (k >= lb_proneThighL && !lbProneSegmentAtRisk(state, h, anim, probeTs[probeTOf[k]], k))
		{
			probeOk[k] = false;
			g->hit = false;
			state->probeGround[k].hit = false;
			state->probeGround[k].radius = -1.0f; // the next cast is made whatever the move
			continue;
		}
		float radius;
		probeOk[k] = lbProneProbeListed(&probeSetup, h, anim, k, &probeMs[k], &radius);
		const lbVec3 pMs = probeMs[k];
		if (!probeOk[k])
		{
			g->hit = false;
			state->probeGround[k].hit = false;
			continue;
		}
		// A sphere of the segment's radius (at most probeCastRadius) or a ray cast straight down; the
		// segment's centre rests on the contact's plane one segment radius out along its normal.
		const float castRadius = sphereProbes ? lbMinF(radius, probeCastRadius) : 0.0f;
		// The legs' probes go where the thighs' turn carries them, the rest where the upper body's does
		// (the pelvis's with the character).
		const lbVec3 p = lbIkTransformPoint(probeTs[probeTOf[k]], pMs);
		// A segment lies near its ground: the probe starts `probeReach` above the point and ends as far
		// below it (a short sweep costs a fraction of a long one).
		const lbVec3 from = lbMulAdd(p, probeReach, up);
		const int probeCast = lbProneTraceDecide(def, from, castRadius, cast, &state->probeGround[k], &state->castFromWs[5 + k],
												 &state->recastSpan[5 + k]);
		if (probeCast == 0)
		{
			lbProneBatchAdd(&batch, k, pMs, probeTOf[k], castRadius, radius);
			continue;
		}
		lbProneContact reuse;
		const bool reused = k == lb_pronePelvis && centreCast && castRadius == def->traceRadius &&
							lbProneReuseCentre(&centre, centreFrom, def->traceUp + def->traceDown, from, 2.0f * def->probeReach, up, &reuse);
		lbProneContact hit;
		lbProneTraceCast(input->query, def, &from, 2.0f * def->probeReach, castRadius, probeCast, &state->probeGround[k],
						 &state->castFromWs[5 + k], &state->recastSpan[5 + k], &casts, reused ? &reuse : NULL, &hit);
		if (!hit.hit)
		{
			g->hit = false;
			continue;
		}
		lbVec3 n = hit.normal;
		const lbVec3 found = lbMulAdd(hit.impactPoint, radius, n);
		lbVec3 point = found;
		if (g->hit && !snap)
		{
			// The previous plane's height at the new point, eased toward the new one.
			float k0 = lbMaxF(lbDot(up, g->normalWs), 0.1f);
			float prevH = lbDot(point, up) - lbDot(lbSub(point, g->pointWs), g->normalWs) / k0;
			float newH = lbDot(point, up);
			float ease = newH > prevH ? easeUp : easeDown;
			float h2 = prevH + (newH - prevH) * ease;
			point = lbMulAdd(point, h2 - newH, up);
			// The same plane between casts (most frames): its normal stays, unit already.
			if (n.x != g->normalWs.x || n.y != g->normalWs.y || n.z != g->normalWs.z)
				n = lbNormalizeOr(lbLerp(g->normalWs, n, ease), n);
		}
		else if (!snap)
		{
			// Ground found again (or first found while the body comes down): it starts at the segment's
			// own height when that is above it, so the body is lowered onto it at heightSpeed instead of
			// dropping by the whole gap in one frame.
			float newH = lbDot(point, up);
			float prevH = lbMaxF(newH, lbDot(p, up));
			float h2 = prevH + (newH - prevH) * easeDown;
			point = lbMulAdd(point, h2 - newH, up);
		}
		settleOf[k] = lbDot(lbSub(point, found), up);
		settleOn[k] = true;
		g->pointWs = point;
		g->normalWs = n;
		g->radius = radius;
		g->hit = true;
	}
	lbProneBatchRun(&batch, state, probeTs, up, probeReach, 2.0f * def->probeReach, easeUp, easeDown, settleOf, settleOn);
	// The torso's settle in the probes' order (every probe's is written; the torso's five are read, a
	// test per probe where each was written costing more than the max over them).
	static const uint8_t torsoInOrder[LB_PRONE_TORSO_PROBES] = { lb_pronePelvis, lb_proneSpine, lb_proneChest,
																 lb_proneTorsoLow, lb_proneTorsoHigh };
	_Static_assert(lb_pronePelvis < lb_proneSpine && lb_proneSpine < lb_proneChest && lb_proneChest < lb_proneTorsoLow &&
					   lb_proneTorsoLow < lb_proneTorsoHigh,
				   "the torso's probes in the probes' order");
	for (int i = 0; i < LB_PRONE_TORSO_PROBES; ++i)
		if (settleOn[torsoInOrder[i]])
			t->settle = lbMaxF(t->settle, settleOf[torsoInOrder[i]]);
	memcpy(t->ground, state->ground, sizeof t->ground);

	// Planted hands and feet hold their contacts: the wrist or ankle rests on the ground under it
	// and stays there in the world while the animation keeps the limb still.
	for (int k = 0; k < LB_PRONE_LIMBS; ++k)
	{
		lbProneLimbState* ls = &state->limbs[k];
		int root, mid, end;
		lbProneLimbBones(h, k, &root, &mid, &end);
		int probe = k < 2 ? lb_proneWristL + k : lb_proneAnkleL + (k - 2);
		if (end < 0)
			continue;
		lbVec3 endWs = lbIkTransformPoint(&cw, anim->model[end].p);
		float speed = snap ? 0.0f : lbDistance(endWs, ls->prevAnimWs) / dt;
		ls->prevAnimWs = endWs;
		// A hand or foot rests where the upper body's or thigh's turn carries it, where its probes are
		// cast: the leg trails the hip, and a foot held at its animated place would bend the knee and
		// drive the toes into a slope; a hand held at its animated place on stairs pitched 26 degrees
		// lay 5 cm past the place its probe found the tread, into the next riser.
		const lbVec3 limbPivot = k >= 2 ? hipWs[k - 2] : pelvisWs;
		const lbQuat limbQ = k >= 2 ? lowerQ : upperQ;
		endWs = lbAdd(limbPivot, lbIkQuatRotate(limbQ, lbSub(endWs, limbPivot)));
		const lbProneGround* g = &state->ground[probe];
		bool planted = def->limbLock && g->hit && t->alpha > 0.0f && speed < def->lockSpeed;
		// A hand whose ground lies deeper under the shoulders' than any step (a trench's floor past
		// its rim) is not held there: the arm reaching down over the rim passed through it (4.3 cm
		// into a 0.28 m trench's edge); the hand hangs free instead.
		const lbProneGround* sg = &state->ground[lb_proneTorsoHigh];
		if (k < 2 && planted && sg->hit && lbDot(lbSub(sg->pointWs, g->pointWs), up) > LB_PRONE_HAND_DROP)
			planted = false;
		// Likewise a foot whose ground lies that much deeper than the pelvis's ground carried along
		// the leg's pitch to it, off a flight of steps (whose treads lie along the noses' line the
		// legs take): held on a trench's floor past the rim, the thigh crossed the rim's edge (3.2 cm
		// into a 0.27 m trench's). It hangs free.
		const lbProneGround* pg = &state->ground[lb_pronePelvis];
		if (k >= 2 && planted && !onFlight && pg->hit &&
			lbDot(lbSub(lbAdd(pg->pointWs, lbSub(endWs, pelvisWs)), g->pointWs), up) > LB_PRONE_HAND_DROP)
			planted = false;
		lbVec3 rest = endWs;
		if (g->hit)
		{
			float k0 = lbMaxF(lbDot(up, g->normalWs), 0.1f);
			float rise = (def->clearance - lbDot(lbSub(endWs, g->pointWs), g->normalWs)) / k0;
			// A foot rests where neither its ankle nor its toes go into the ground.
			const lbProneGround* toe = k >= 2 ? &state->ground[lb_proneToeL + (k - 2)] : NULL;
			if (toe && toe->hit && probeOk[lb_proneToeL + (k - 2)])
			{
				const lbVec3 toeWs = lbIkTransformPoint(&legT[k - 2], probeMs[lb_proneToeL + (k - 2)]);
				float kt = lbMaxF(lbDot(up, toe->normalWs), 0.1f);
				rise = lbMaxF(rise, (def->clearance - lbDot(lbSub(toeWs, toe->pointWs), toe->normalWs)) / kt);
			}
			rest = lbMulAdd(endWs, rise, up);
		}
		if (ls->locked)
		{
			lbVec3 stray = lbProjectOnPlane(lbSub(lbAdd(rest, ls->lockShiftWs), ls->lockWs), up);
			if (!planted || lbLength(stray) > def->lockReleaseDistance)
				ls->locked = false;
		}
		if (!ls->locked && planted && (ls->lockAlpha <= 0.0f || snap))
		{
			ls->locked = true;
			ls->lockShiftWs = lbVec3_zero;
			// A foot whose toes hang across a step's nose (the ankle's tread lies higher at the toes
			// than the toes' own ground) is held with its toes at the ankle's tread's level, the leg
			// turned up about the hip (decided when the hold starts, from the probes' grounds).
			if (k >= 2)
			{
				const lbVec3 lifted = lbProneFootOffNose(def, state, k - 2, hipWs[k - 2], endWs, &legT[k - 2], probeMs, probeOk, rest);
				ls->lockShiftWs = lbProjectOnPlane(lbSub(lifted, rest), up);
				rest = lifted;
			}
			ls->lockWs = rest;
			ls->lockNormalWs = g->normalWs;
		}
		if (snap)
			ls->lockAlpha = ls->locked ? 1.0f : 0.0f;
		// At its goal (most frames) the blend gives the goal back: not made then (the goal is 0 or 1,
		// the weight never -0).
		else if (ls->lockAlpha != (ls->locked ? 1.0f : 0.0f))
			ls->lockAlpha = lbInterpConstantTo(ls->lockAlpha, ls->locked ? 1.0f : 0.0f, dt, def->lockBlendSpeed);
		t->limbs[k].endWs = ls->lockWs;
		t->limbs[k].normalWs = ls->lockAlpha > 0.0f ? ls->lockNormalWs : up;
		t->limbs[k].alpha = ls->lockAlpha;
		t->limbs[k].locked = ls->locked;
	}

	t->castCount = casts;
	state->prevCharacterWs = cw;
	state->initialized = 1;
	return lb_ok;
}
