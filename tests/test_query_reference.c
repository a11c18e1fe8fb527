// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// lbWorld against a brute-force reference, per shape kind (mesh, heightfield, boxes): 1e5 random ray
// casts and 1e5 random sphere casts each. The reference shares no code with the library: every
// triangle is tested, rays by plane intersection and barycentric coordinates, spheres by minimising
// the (convex) distance from the moving centre to the triangle and bisecting for the first time it
// equals the radius. Agreement: same hit or miss, distance within 1e-5 m, normal within 1e-3.
// Grazing contacts, where a 1e-6 m change of the input flips the answer, are ties: accepted when
// the reference confirms the contact is grazing, and counted (they must stay rare).
#include "limber/limber.h"
#include "test_macros.h"

#include <float.h>
#include <stdlib.h>

typedef struct D3
{
	double x, y, z;
} D3;

// Ternary min/max: fmin/fmax are library calls here, and the brute force calls them billions of times.
static inline double dmin(double a, double b)
{
	return a < b ? a : b;
}
static inline double dmax(double a, double b)
{
	return a > b ? a : b;
}

static D3 d3(double x, double y, double z)
{
	D3 r = { x, y, z };
	return r;
}
static D3 dsub(D3 a, D3 b)
{
	return d3(a.x - b.x, a.y - b.y, a.z - b.z);
}
static D3 dadd(D3 a, D3 b)
{
	return d3(a.x + b.x, a.y + b.y, a.z + b.z);
}
static D3 dmul(D3 a, double s)
{
	return d3(a.x * s, a.y * s, a.z * s);
}
static double ddot(D3 a, D3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}
static D3 dcross(D3 a, D3 b)
{
	return d3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static double dlen(D3 a)
{
	return sqrt(ddot(a, a));
}
static D3 dfromf(lbVec3 v)
{
	return d3(v.x, v.y, v.z);
}
// Rotation by the unit quaternion along q (normalised in double), as a matrix-free formula.
static D3 drot(lbQuat q, D3 v)
{
	double n = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
	D3 u = d3(q.x / n, q.y / n, q.z / n);
	double w = q.w / n;
	// Rodrigues form: v cos + (k x v) sin + k (k.v)(1 - cos), from the half-angle components.
	double s2 = ddot(u, u);
	if (!(s2 > 0.0))
		return v;
	double sinHalf = sqrt(s2);
	D3 k = dmul(u, 1.0 / sinHalf);
	double angle = 2.0 * atan2(sinHalf, w);
	double c = cos(angle), s = sin(angle);
	return dadd(dadd(dmul(v, c), dmul(dcross(k, v), s)), dmul(k, ddot(k, v) * (1.0 - c)));
}

typedef struct RefTri
{
	D3 a, b, c;
	D3 lo, hi;
	int shape, prim;
} RefTri;

typedef struct RefBox
{
	D3 centre;
	lbQuat q;
	D3 half;
	int shape;
} RefBox;

typedef struct Soup
{
	RefTri* tris;
	int count, capacity;
	RefBox boxes[64];
	int boxCount;
} Soup;

static void SoupAdd(Soup* s, D3 a, D3 b, D3 c, int shape, int prim)
{
	if (s->count == s->capacity)
	{
		s->capacity = s->capacity ? 2 * s->capacity : 1024;
		s->tris = (RefTri*)realloc(s->tris, sizeof(RefTri) * (size_t)s->capacity);
	}
	RefTri* t = &s->tris[s->count++];
	t->a = a;
	t->b = b;
	t->c = c;
	t->lo = d3(dmin(a.x, dmin(b.x, c.x)), dmin(a.y, dmin(b.y, c.y)), dmin(a.z, dmin(b.z, c.z)));
	t->hi = d3(dmax(a.x, dmax(b.x, c.x)), dmax(a.y, dmax(b.y, c.y)), dmax(a.z, dmax(b.z, c.z)));
	t->shape = shape;
	t->prim = prim;
}

// Reads every shape back from the world and turns it into triangles (and solid boxes).
static void SoupFromWorld(Soup* s, const lbWorld* w)
{
	memset(s, 0, sizeof *s);
	for (int id = 0; id < lbWorld_GetShapeCount(w); ++id)
	{
		lbShapeInfo info;
		lbWorld_GetShapeInfo(w, id, &info);
		if (info.kind == lb_shapeMesh)
		{
			for (int t = 0; t < info.triangleCount; ++t)
				SoupAdd(s, dfromf(info.vertices[info.indices[3 * t]]), dfromf(info.vertices[info.indices[3 * t + 1]]),
						dfromf(info.vertices[info.indices[3 * t + 2]]), id, t);
		}
		else if (info.kind == lb_shapeHeightfield)
		{
			D3 o = dfromf(info.transform.p);
			for (int j = 0; j + 1 < info.countY; ++j)
				for (int i = 0; i + 1 < info.countX; ++i)
				{
					D3 p[4];
					for (int k = 0; k < 4; ++k)
					{
						int ii = i + (k & 1), jj = j + (k >> 1);
						D3 local = d3(ii * (double)info.cellSize, jj * (double)info.cellSize, info.heights[jj * info.countX + ii]);
						p[k] = dadd(o, drot(info.transform.q, local));
					}
					int cell = j * (info.countX - 1) + i;
					SoupAdd(s, p[0], p[1], p[3], id, 2 * cell);
					SoupAdd(s, p[0], p[3], p[2], id, 2 * cell + 1);
				}
		}
		else if (info.kind == lb_shapeBox)
		{
			RefBox* b = &s->boxes[s->boxCount++];
			b->centre = dfromf(info.transform.p);
			b->q = info.transform.q;
			b->half = dfromf(info.halfExtents);
			b->shape = id;
			D3 c[8];
			for (int k = 0; k < 8; ++k)
			{
				D3 l = d3((k & 1) ? b->half.x : -b->half.x, (k & 2) ? b->half.y : -b->half.y, (k & 4) ? b->half.z : -b->half.z);
				c[k] = dadd(b->centre, drot(b->q, l));
			}
			// Faces as quads of corner indices.
			static const int f[6][4] = { { 0, 2, 6, 4 }, { 1, 5, 7, 3 }, { 0, 4, 5, 1 },
										 { 2, 3, 7, 6 }, { 0, 1, 3, 2 }, { 4, 6, 7, 5 } };
			for (int k = 0; k < 6; ++k)
			{
				SoupAdd(s, c[f[k][0]], c[f[k][1]], c[f[k][2]], id, -1);
				SoupAdd(s, c[f[k][0]], c[f[k][2]], c[f[k][3]], id, -1);
			}
		}
	}
}

// Closest point on a segment, then on a triangle: projection when inside, else the nearest edge.
static D3 RefClosestSegment(D3 p, D3 a, D3 b)
{
	D3 e = dsub(b, a);
	double ee = ddot(e, e);
	double t = ee > 0.0 ? ddot(dsub(p, a), e) / ee : 0.0;
	t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
	return dadd(a, dmul(e, t));
}

static double RefDistTri(D3 p, const RefTri* t, D3* outClosest)
{
	D3 n = dcross(dsub(t->b, t->a), dsub(t->c, t->a));
	double nn = ddot(n, n);
	if (nn > 0.0)
	{
		D3 q = dsub(p, dmul(n, ddot(dsub(p, t->a), n) / nn));
		double w0 = ddot(dcross(dsub(t->b, t->a), dsub(q, t->a)), n);
		double w1 = ddot(dcross(dsub(t->c, t->b), dsub(q, t->b)), n);
		double w2 = ddot(dcross(dsub(t->a, t->c), dsub(q, t->c)), n);
		if (w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0)
		{
			*outClosest = q;
			return dlen(dsub(p, q));
		}
	}
	D3 q0 = RefClosestSegment(p, t->a, t->b), q1 = RefClosestSegment(p, t->b, t->c), q2 = RefClosestSegment(p, t->c, t->a);
	double e0 = dlen(dsub(p, q0)), e1 = dlen(dsub(p, q1)), e2 = dlen(dsub(p, q2));
	*outClosest = e0 <= e1 && e0 <= e2 ? q0 : (e1 <= e2 ? q1 : q2);
	return dmin(e0, dmin(e1, e2));
}

typedef struct RefCast
{
	D3 s, d;
	double len, r;
} RefCast;

static D3 At(const RefCast* c, double t)
{
	return dadd(c->s, dmul(c->d, t));
}

// Minimum over t in [0, len] of the distance from the moving centre to the triangle (golden section;
// the function is convex).
static double RefMinDist(const RefCast* c, const RefTri* t, double* outT)
{
	const double g = 0.6180339887498949;
	double lo = 0.0, hi = c->len;
	D3 tmp;
	double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
	double f1 = RefDistTri(At(c, x1), t, &tmp), f2 = RefDistTri(At(c, x2), t, &tmp);
	for (int it = 0; it < 60 && hi - lo > 1e-13 * (1.0 + c->len); ++it)
	{
		if (f1 <= f2)
		{
			hi = x2;
			x2 = x1;
			f2 = f1;
			x1 = hi - g * (hi - lo);
			f1 = RefDistTri(At(c, x1), t, &tmp);
		}
		else
		{
			lo = x1;
			x1 = x2;
			f1 = f2;
			x2 = lo + g * (hi - lo);
			f2 = RefDistTri(At(c, x2), t, &tmp);
		}
	}
	double best = 0.5 * (lo + hi), fb = RefDistTri(At(c, best), t, &tmp);
	double f0 = RefDistTri(c->s, t, &tmp), fl = RefDistTri(At(c, c->len), t, &tmp);
	if (f0 <= fb)
		best = 0.0, fb = f0;
	if (fl < fb)
		best = c->len, fb = fl;
	*outT = best;
	return fb;
}

typedef struct RefHit
{
	double t;
	D3 n;
	int tri;
} RefHit;

// Ray: plane intersection and barycentric inside test. Coplanar rays miss.
static bool RefRayTri(const RefCast* c, const RefTri* t, RefHit* out)
{
	D3 n = dcross(dsub(t->b, t->a), dsub(t->c, t->a));
	double nl = dlen(n);
	if (!(nl > 0.0))
		return false;
	n = dmul(n, 1.0 / nl);
	double dn = ddot(c->d, n);
	if (fabs(dn) < 1e-14)
		return false;
	double tt = ddot(dsub(t->a, c->s), n) / dn;
	if (tt < 0.0 || tt > c->len)
		return false;
	D3 q = At(c, tt);
	double w0 = ddot(dcross(dsub(t->b, t->a), dsub(q, t->a)), n);
	double w1 = ddot(dcross(dsub(t->c, t->b), dsub(q, t->b)), n);
	double w2 = ddot(dcross(dsub(t->a, t->c), dsub(q, t->c)), n);
	double tol = -1e-12 * nl;
	if (w0 < tol || w1 < tol || w2 < tol)
		return false;
	out->t = tt;
	out->n = dn > 0.0 ? dmul(n, -1.0) : n;
	return true;
}

static bool RefSphereTri(const RefCast* c, const RefTri* t, RefHit* out)
{
	if (c->r == 0.0)
		return RefRayTri(c, t, out);
	double tMin;
	double fMin = RefMinDist(c, t, &tMin);
	if (fMin > c->r)
		return false;
	// f is non-increasing on [0, tMin]: bisect for f = r.
	double lo = 0.0, hi = tMin;
	D3 tmp;
	for (int it = 0; it < 80 && hi - lo > 1e-14 * (1.0 + c->len); ++it)
	{
		double mid = 0.5 * (lo + hi);
		if (RefDistTri(At(c, mid), t, &tmp) > c->r)
			lo = mid;
		else
			hi = mid;
	}
	D3 cp;
	RefDistTri(At(c, hi), t, &cp);
	out->t = hi;
	out->n = dmul(dsub(At(c, hi), cp), 1.0 / dmax(dlen(dsub(At(c, hi), cp)), 1e-300));
	return true;
}

// Slab test of the cast against a box grown by `grow`; `segLo`/`segHi` bound the whole cast and
// reject most boxes before any division.
static bool RayBoxEntry(const RefCast* c, D3 segLo, D3 segHi, D3 lo, D3 hi, double grow, double* outT)
{
	if (segHi.x < lo.x - grow || segLo.x > hi.x + grow || segHi.y < lo.y - grow || segLo.y > hi.y + grow ||
		segHi.z < lo.z - grow || segLo.z > hi.z + grow)
		return false;
	const double s[3] = { c->s.x, c->s.y, c->s.z }, d[3] = { c->d.x, c->d.y, c->d.z };
	const double l[3] = { lo.x - grow, lo.y - grow, lo.z - grow }, h[3] = { hi.x + grow, hi.y + grow, hi.z + grow };
	double t0 = 0.0, t1 = c->len;
	for (int i = 0; i < 3; ++i)
	{
		if (fabs(d[i]) < 1e-300)
		{
			if (s[i] < l[i] || s[i] > h[i])
				return false;
			continue;
		}
		double a = (l[i] - s[i]) / d[i], b = (h[i] - s[i]) / d[i];
		t0 = dmax(t0, dmin(a, b));
		t1 = dmin(t1, dmax(a, b));
	}
	*outT = t0;
	return t0 <= t1;
}

typedef struct Candidate
{
	double entry;
	int tri;
} Candidate;

static int CompareCandidate(const void* a, const void* b)
{
	double x = ((const Candidate*)a)->entry, y = ((const Candidate*)b)->entry;
	return x < y ? -1 : (x > y ? 1 : 0);
}

typedef struct RefResult
{
	bool inside;
	double depth;
	D3 insideNormals[8];
	int insideNormalCount;
	int hitCount;
	RefHit hits[256]; // triangle hits with t near the nearest (or up to the horizon), sorted by t
} RefResult;

// Point strictly inside a solid box: depth of the sphere and the direction out.
static bool RefInsideBox(const RefBox* b, D3 p, double r, double* outDepth, D3* outNormal)
{
	lbQuat qc = { -b->q.x, -b->q.y, -b->q.z, b->q.w };
	D3 l = drot(qc, dsub(p, b->centre));
	double gx = b->half.x - fabs(l.x), gy = b->half.y - fabs(l.y), gz = b->half.z - fabs(l.z);
	if (!(gx > 0.0 && gy > 0.0 && gz > 0.0))
		return false;
	double g = dmin(gx, dmin(gy, gz));
	D3 n = gx == g ? d3(l.x >= 0 ? 1 : -1, 0, 0) : (gy == g ? d3(0, l.y >= 0 ? 1 : -1, 0) : d3(0, 0, l.z >= 0 ? 1 : -1));
	*outDepth = r + g;
	*outNormal = drot(b->q, n);
	return true;
}

static Candidate* gCandidates;

static bool RefHitIsGrazing(const Soup* s, const RefCast* c, const RefHit* h);

static void Reference(const Soup* s, const RefCast* c, double horizon, RefResult* out)
{
	memset(out, 0, sizeof *out);
	// Overlap at the start: inside a solid box, or closer than r to a surface.
	double bestDepth = -1.0;
	for (int i = 0; i < s->boxCount; ++i)
	{
		double depth;
		D3 n;
		if (RefInsideBox(&s->boxes[i], c->s, c->r, &depth, &n) && depth > bestDepth - 1e-9)
		{
			if (depth > bestDepth + 1e-9)
				out->insideNormalCount = 0;
			bestDepth = dmax(bestDepth, depth);
			if (out->insideNormalCount < 8)
				out->insideNormals[out->insideNormalCount++] = n;
		}
	}
	if (c->r > 0.0)
	{
		for (int i = 0; i < s->count; ++i)
		{
			const RefTri* t = &s->tris[i];
			if (c->s.x < t->lo.x - c->r || c->s.x > t->hi.x + c->r || c->s.y < t->lo.y - c->r ||
				c->s.y > t->hi.y + c->r || c->s.z < t->lo.z - c->r || c->s.z > t->hi.z + c->r)
				continue;
			D3 cp;
			double dist = RefDistTri(c->s, t, &cp);
			if (dist < c->r && c->r - dist > bestDepth - 1e-9)
			{
				double depth = c->r - dist;
				if (depth > bestDepth + 1e-9)
					out->insideNormalCount = 0;
				bestDepth = dmax(bestDepth, depth);
				if (out->insideNormalCount < 8)
					out->insideNormalCount++, out->insideNormals[out->insideNormalCount - 1] =
												   dist > 1e-12 ? dmul(dsub(c->s, cp), 1.0 / dist) : d3(0, 0, 0);
			}
		}
	}
	if (bestDepth >= 0.0)
	{
		out->inside = true;
		out->depth = bestDepth;
		return;
	}
	int nc = 0;
	D3 e = At(c, c->len);
	D3 segLo = d3(dmin(c->s.x, e.x), dmin(c->s.y, e.y), dmin(c->s.z, e.z));
	D3 segHi = d3(dmax(c->s.x, e.x), dmax(c->s.y, e.y), dmax(c->s.z, e.z));
	for (int i = 0; i < s->count; ++i)
	{
		double entry;
		if (RayBoxEntry(c, segLo, segHi, s->tris[i].lo, s->tris[i].hi, c->r + 1e-9, &entry))
		{
			gCandidates[nc].entry = entry;
			gCandidates[nc].tri = i;
			++nc;
		}
	}
	qsort(gCandidates, (size_t)nc, sizeof(Candidate), CompareCandidate);
	double best = DBL_MAX;
	for (int k = 0; k < nc; ++k)
	{
		if (gCandidates[k].entry > dmin(best, horizon) + 1e-6)
			break;
		const RefTri* tri = &s->tris[gCandidates[k].tri];
		// Cheap exact reject: the segment passes farther than r from the triangle's bounding sphere.
		D3 centre = dmul(dadd(tri->a, dadd(tri->b, tri->c)), 1.0 / 3.0);
		double rad = dmax(dlen(dsub(tri->a, centre)), dmax(dlen(dsub(tri->b, centre)), dlen(dsub(tri->c, centre))));
		double tc = ddot(dsub(centre, c->s), c->d);
		tc = tc < 0.0 ? 0.0 : (tc > c->len ? c->len : tc);
		if (dlen(dsub(At(c, tc), centre)) > rad + c->r + 1e-9)
			continue;
		RefHit h;
		if (RefSphereTri(c, tri, &h))
		{
			if (out->hitCount == 256)
			{
				// Keep only hits that can still matter.
				int m = 0;
				for (int i = 0; i < out->hitCount; ++i)
					if (out->hits[i].t <= dmin(best, h.t) + 1e-4)
						out->hits[m++] = out->hits[i];
				out->hitCount = m;
			}
			h.tri = gCandidates[k].tri;
			if (out->hitCount < 256)
				out->hits[out->hitCount++] = h;
			// A grazing hit may be skipped by the library (a 1e-6 m change of the input removes it), so
			// the search goes on to the first hit that is not grazing.
			if (!RefHitIsGrazing(s, c, &h))
				best = dmin(best, h.t);
		}
	}
	// Insertion sort by t.
	for (int i = 1; i < out->hitCount; ++i)
		for (int j = i; j > 0 && out->hits[j].t < out->hits[j - 1].t; --j)
		{
			RefHit tmp = out->hits[j];
			out->hits[j] = out->hits[j - 1];
			out->hits[j - 1] = tmp;
		}
}

// A reference hit is grazing when a tiny change of the input could remove it: the minimum distance
// barely reaches r (sphere), or the hit lies on the triangle's boundary or the ray skims its plane.
static bool RefHitIsGrazing(const Soup* s, const RefCast* c, const RefHit* h)
{
	const RefTri* t = &s->tris[h->tri];
	if (c->len - h->t < 1e-6)
		return true;
	if (c->r > 0.0)
	{
		double tm;
		return RefMinDist(c, t, &tm) > c->r - 2e-6;
	}
	D3 q = At(c, h->t);
	double e = dmin(dlen(dsub(q, RefClosestSegment(q, t->a, t->b))),
					dmin(dlen(dsub(q, RefClosestSegment(q, t->b, t->c))), dlen(dsub(q, RefClosestSegment(q, t->c, t->a)))));
	D3 n = dcross(dsub(t->b, t->a), dsub(t->c, t->a));
	double skim = fabs(ddot(c->d, n)) / dmax(dlen(n), 1e-300);
	return e < 1e-6 || skim < 1e-6;
}

// A library hit the reference did not find is acceptable when the shape it names passes within a
// hair of the cast (grazing), or the hit is at the very end of the cast.
static bool LibHitIsGrazing(const Soup* s, const RefCast* c, const lbHit* h)
{
	if (c->len - h->distance < 2e-6)
		return true;
	double bestGap = DBL_MAX;
	for (int i = 0; i < s->count; ++i)
	{
		const RefTri* t = &s->tris[i];
		if (t->shape != h->shapeId || (t->prim >= 0 && t->prim != h->primitiveIndex))
			continue;
		double tm;
		double g = RefMinDist(c, t, &tm);
		bestGap = dmin(bestGap, fabs(g - c->r));
	}
	return bestGap < 2e-6;
}

typedef struct Tally
{
	int casts, hits, ties, insides, errors;
} Tally;

static bool NormalMatches(D3 a, lbVec3 b, double tol)
{
	return dlen(dsub(a, dfromf(b))) <= tol;
}

// The hit's face normal against the reported primitive itself: a triangle's plane (mesh and
// heightfield primitives are found in the soup by shape and index) or one of the box's six face
// planes, on the caster's side; the impact point lies on that face; a contact inside the face has
// its normal equal to the face's.
static bool FaceNormalMatches(const Soup* s, const lbHit* h)
{
	D3 fn = dfromf(h->faceNormal), p = dfromf(h->impactPoint), n = dfromf(h->normal);
	if (fabs(dlen(fn) - 1.0) > 1e-4 || ddot(fn, n) < 0.0)
		return false;
	for (int k = 0; k < s->boxCount; ++k)
	{
		const RefBox* b = &s->boxes[k];
		if (b->shape != h->shapeId)
			continue;
		D3 axes[3] = { drot(b->q, d3(1, 0, 0)), drot(b->q, d3(0, 1, 0)), drot(b->q, d3(0, 0, 1)) };
		double half[3] = { b->half.x, b->half.y, b->half.z };
		for (int a = 0; a < 3; ++a)
		{
			double along = ddot(fn, axes[a]);
			if (fabs(fabs(along) - 1.0) <= 1e-4)
				return fabs(fabs(ddot(dsub(p, b->centre), axes[a])) - half[a]) <= 1e-4 * dmax(1.0, half[a]);
		}
		return false;
	}
	for (int k = 0; k < s->count; ++k)
	{
		const RefTri* t = &s->tris[k];
		if (t->shape != h->shapeId || t->prim != h->primitiveIndex)
			continue;
		D3 tn = dcross(dsub(t->b, t->a), dsub(t->c, t->a));
		double len = dlen(tn);
		if (len < 1e-12)
			return true; // a degenerate triangle has no plane to compare
		tn = dmul(tn, (ddot(tn, n) < 0.0 ? -1.0 : 1.0) / len);
		D3 closest;
		double gap = RefDistTri(p, t, &closest);
		bool inside = dlen(dsub(closest, dsub(p, dmul(tn, ddot(dsub(p, t->a), tn))))) <= 1e-5;
		// Inside the face (away from its edges), the contact normal is the face's own.
		double edgeGap = dmin(dlen(dsub(p, RefClosestSegment(p, t->a, t->b))),
							  dmin(dlen(dsub(p, RefClosestSegment(p, t->b, t->c))), dlen(dsub(p, RefClosestSegment(p, t->c, t->a)))));
		if (inside && edgeGap > 1e-4 && !NormalMatches(tn, h->normal, 2e-3))
			return false;
		return NormalMatches(tn, h->faceNormal, 1e-3) && gap <= 1e-4;
	}
	return false;
}

static void PrintTallies(const char* label, const Tally* rays, const Tally* spheres)
{
	printf("  %s rays: %d casts, %d hits, %d inside, %d ties, %d errors\n", label, rays->casts, rays->hits, rays->insides,
		   rays->ties, rays->errors);
	printf("  %s spheres: %d casts, %d hits, %d inside, %d ties, %d errors\n", label, spheres->casts, spheres->hits,
		   spheres->insides, spheres->ties, spheres->errors);
}

static void Compare(const Soup* s, const lbWorld* w, lbVec3 start, lbVec3 end, float radius, bool ray, Tally* tally)
{
	lbQueryInput in = lbDefaultQueryInput();
	in.start = start;
	in.end = end;
	in.radius = radius;
	lbHit h = ray ? lbWorld_RayCast(w, &in) : lbWorld_SphereCast(w, &in);
	RefCast c;
	c.s = dfromf(start);
	D3 delta = dsub(dfromf(end), c.s);
	c.len = dlen(delta);
	c.d = dmul(delta, 1.0 / c.len);
	c.r = ray ? 0.0 : radius;
	RefResult ref;
	Reference(s, &c, h.hit ? dmax(h.distance, 0.0) + 1e-5 : DBL_MAX, &ref);
	tally->casts++;
	bool ok = true;
	if (ref.inside || h.startedInside)
	{
		tally->insides++;
		ok = ref.inside && h.startedInside && fabs(ref.depth - h.penetrationDepth) <= 1e-5;
		bool normalOk = false;
		for (int k = 0; k < ref.insideNormalCount; ++k)
			normalOk = normalOk || NormalMatches(ref.insideNormals[k], h.normal, 1e-3) || dlen(ref.insideNormals[k]) == 0.0;
		// A sphere centred exactly between equally deep contacts may pick any of them.
		if (ok && !normalOk && ref.insideNormalCount > 0)
			ok = false;
		if (!ok && fabs(ref.depth) < 2e-6 && !h.startedInside)
		{
			tally->ties++;
			ok = true;
		}
	}
	else if (ref.hitCount == 0 && !h.hit)
		ok = true;
	else
	{
		// Walk the reference hits in order: the library may skip leading grazing ones.
		ok = false;
		bool allGrazingSoFar = true;
		for (int k = 0; k < ref.hitCount && allGrazingSoFar; ++k)
		{
			const RefHit* rh = &ref.hits[k];
			if (h.hit && fabs(rh->t - h.distance) <= 1e-5 && NormalMatches(rh->n, h.normal, 1e-3))
			{
				ok = true;
				if (k > 0)
					tally->ties++;
				break;
			}
			allGrazingSoFar = RefHitIsGrazing(s, &c, rh);
		}
		if (!ok && h.hit)
		{
			// Another triangle hit at the same distance (shared edge or vertex) with its own normal.
			for (int k = 0; k < ref.hitCount && !ok; ++k)
				ok = fabs(ref.hits[k].t - h.distance) <= 1e-5 && NormalMatches(ref.hits[k].n, h.normal, 1e-3);
		}
		if (!ok && !h.hit && allGrazingSoFar)
		{
			ok = true;
			tally->ties++;
		}
		if (!ok && h.hit && (ref.hitCount == 0 || h.distance < ref.hits[0].t) && LibHitIsGrazing(s, &c, &h))
		{
			ok = true;
			tally->ties++;
		}
		tally->hits += h.hit;
		if (ok && h.hit && !FaceNormalMatches(s, &h))
		{
			if (tally->errors < 5)
				printf("  face normal %s: shape %d prim %d n (%g %g %g) face (%g %g %g)\n", ray ? "ray" : "sphere",
					   h.shapeId, h.primitiveIndex, h.normal.x, h.normal.y, h.normal.z, h.faceNormal.x, h.faceNormal.y,
					   h.faceNormal.z);
			tally->errors++;
		}
	}
	if (!ok)
	{
		if (tally->errors < 5)
			printf("  mismatch %s r=%g: start (%.7g %.7g %.7g) end (%.7g %.7g %.7g): lib hit %d inside %d t %.9g n (%g %g %g) "
				   "depth %g; ref inside %d depth %g hits %d t %.9g n (%g %g %g)\n",
				   ray ? "ray" : "sphere", (double)radius, start.x, start.y, start.z, end.x, end.y, end.z, h.hit,
				   h.startedInside, h.distance, h.normal.x, h.normal.y, h.normal.z, h.penetrationDepth, ref.inside,
				   ref.depth, ref.hitCount, ref.hitCount ? ref.hits[0].t : -1.0, ref.hitCount ? ref.hits[0].n.x : 0.0,
				   ref.hitCount ? ref.hits[0].n.y : 0.0, ref.hitCount ? ref.hits[0].n.z : 0.0);
		tally->errors++;
	}
}

static int CastCount(void)
{
	const char* san = getenv("LB_SANITIZE_RUN");
	return (san && san[0] == '1') ? 5000 : 100000;
}

// Random casts over a world: half aimed at a random triangle (so most hit, many near edges), a
// quarter uniform through the bounds, a quarter downward foot traces.
static void RunRandomCount(const lbWorld* w, uint64_t seed, const char* label, int n);

static void RunRandom(const lbWorld* w, uint64_t seed, const char* label)
{
	RunRandomCount(w, seed, label, CastCount());
}

// RunRandom with n rays and n spheres.
static void RunRandomCount(const lbWorld* w, uint64_t seed, const char* label, int n)
{
	Soup s;
	SoupFromWorld(&s, w);
	gCandidates = (Candidate*)malloc(sizeof(Candidate) * (size_t)s.count);
	lbVec3 lo, hi;
	lbWorld_GetBounds(w, &lo, &hi);
	lbVec3 pad = { 0.5f, 0.5f, 0.5f };
	lo = lbSub(lo, pad);
	hi = lbAdd(hi, pad);
	lbTestRng rng = { seed };
	Tally rays = { 0 }, spheres = { 0 };
	for (int i = 0; i < 2 * n; ++i)
	{
		bool ray = i < n;
		int mode = (int)(lbTestNext(&rng) % 4);
		lbVec3 a, b;
		if (mode <= 1)
		{
			const RefTri* t = &s.tris[lbTestNext(&rng) % (unsigned long long)s.count];
			double u = lbTestUniform(&rng, 0.0f, 1.0f), v = lbTestUniform(&rng, 0.0f, 1.0f);
			if (u + v > 1.0)
				u = 1.0 - u, v = 1.0 - v;
			D3 p = dadd(t->a, dadd(dmul(dsub(t->b, t->a), u), dmul(dsub(t->c, t->a), v)));
			lbVec3 target = { (float)p.x, (float)p.y, (float)p.z };
			a = lbMakeVec3(lbTestUniform(&rng, lo.x, hi.x), lbTestUniform(&rng, lo.y, hi.y), lbTestUniform(&rng, lo.z, hi.z));
			b = lbMulAdd(a, lbTestUniform(&rng, 0.5f, 1.5f), lbSub(target, a));
		}
		else if (mode == 2)
		{
			a = lbMakeVec3(lbTestUniform(&rng, lo.x, hi.x), lbTestUniform(&rng, lo.y, hi.y), lbTestUniform(&rng, lo.z, hi.z));
			b = lbMakeVec3(lbTestUniform(&rng, lo.x, hi.x), lbTestUniform(&rng, lo.y, hi.y), lbTestUniform(&rng, lo.z, hi.z));
		}
		else
		{
			lbVec3 up = lbWorld_GetUp(w);
			lbVec3 p = lbMakeVec3(lbTestUniform(&rng, lo.x, hi.x), lbTestUniform(&rng, lo.y, hi.y), lbTestUniform(&rng, lo.z, hi.z));
			a = lbMulAdd(p, 0.75f, up);
			b = lbMulAdd(p, -0.75f, up);
		}
		if (lbDistance(a, b) < 1e-3f)
			continue;
		float r = 0.0f;
		if (!ray)
		{
			unsigned long long k = lbTestNext(&rng) % 10;
			r = k == 0 ? 0.001f : (k == 1 ? 0.03f : lbTestUniform(&rng, 0.01f, 0.4f));
		}
		Compare(&s, w, a, b, r, ray, ray ? &rays : &spheres);
	}
	PrintTallies(label, &rays, &spheres);
	ENSURE(rays.errors == 0 && spheres.errors == 0);
	ENSURE(rays.casts >= (int)(0.99 * n) && spheres.casts >= (int)(0.99 * n));
	// Most casts hit something, and grazing ties stay rare.
	ENSURE(rays.hits > n / 3 && spheres.hits > n / 3);
	ENSURE(rays.ties <= n / 200 && spheres.ties <= n / 200);
	free(gCandidates);
	free(s.tris);
}

// A world holding the rocky scene as one mesh: `size` m square, sampled every 0.1 m.
static lbWorld* RockyMeshWorld(float size, float amplitude)
{
	lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
	lbSceneDef_Set(&p, "size", size);
	lbSceneDef_Set(&p, "resolution", 0.1f);
	lbSceneDef_Set(&p, "amplitude", amplitude);
	lbSceneDef_Set(&p, "scale", 0.8f);
	lbSceneDef_Set(&p, "as_mesh", 1.0f);
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	ENSURE(lbBuildScene(w, &p) == lb_ok);
	return w;
}

static void MeshAgainstBruteForce(void)
{
	// Rocky terrain triangles plus loose random triangles (slivers, big ones, any orientation).
	lbWorld* w = RockyMeshWorld(3.0f, 0.4f);
	enum
	{
		LOOSE = 300
	};
	lbVec3 v[3 * LOOSE];
	int32_t idx[3 * LOOSE];
	lbTestRng rng = { 77 };
	for (int i = 0; i < LOOSE; ++i)
	{
		lbVec3 c = { lbTestUniform(&rng, -1.5f, 1.5f), lbTestUniform(&rng, -1.5f, 1.5f), lbTestUniform(&rng, 0.2f, 2.0f) };
		float size = lbTestUniform(&rng, 0.02f, 0.6f);
		for (int k = 0; k < 3; ++k)
		{
			lbVec3 o = { lbTestUniform(&rng, -1, 1), lbTestUniform(&rng, -1, 1), lbTestUniform(&rng, -1, 1) };
			v[3 * i + k] = lbMulAdd(c, size, o);
			idx[3 * i + k] = 3 * i + k;
		}
		if (i % 10 == 0) // sliver
			v[3 * i + 2] = lbLerp(v[3 * i], v[3 * i + 1], 0.3f);
	}
	lbMeshDef md = lbDefaultMeshDef();
	md.vertices = v;
	md.vertexCount = 3 * LOOSE;
	md.indices = idx;
	md.triangleCount = LOOSE;
	md.maxLeafTriangles = 4;
	ENSURE(lbWorld_AddMesh(w, &md) == 1);
	RunRandom(w, 1001, "mesh");
	lbDestroyWorld(w);
}

// A mesh large enough that its top nodes choose their splits from a sample of their triangles
// (every 16th at the root, 135,200 triangles): the tree is still exact, whatever its splits.
static void LargeMeshAgainstBruteForce(void)
{
	lbWorld* w = RockyMeshWorld(26.0f, 0.5f);
	lbShapeInfo info;
	lbWorld_GetShapeInfo(w, 0, &info);
	ENSURE(info.kind == lb_shapeMesh && info.triangleCount >= 131072);
	const char* san = getenv("LB_SANITIZE_RUN");
	RunRandomCount(w, 2002, "large mesh", (san && san[0] == '1') ? 300 : 2000);
	lbDestroyWorld(w);
}

static void HeightfieldAgainstBruteForce(void)
{
	// Rocky heightfield in a tilted frame (so the transform is exercised), plus sharp spikes.
	enum
	{
		N = 41
	};
	float heights[N * N];
	lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
	lbSceneDef_Set(&p, "amplitude", 0.5f);
	lbSceneDef_Set(&p, "scale", 0.7f);
	lbTestRng rng = { 5 };
	for (int j = 0; j < N; ++j)
		for (int i = 0; i < N; ++i)
			heights[j * N + i] = lbSceneRockyHeight(&p, 0.08f * (float)i, 0.08f * (float)j) +
								 (lbTestNext(&rng) % 23 == 0 ? lbTestUniform(&rng, -0.5f, 0.5f) : 0.0f);
	lbWorldDef wd = lbDefaultWorldDef();
	wd.up = lbNormalize(lbMakeVec3(0.2f, 1.0f, 0.1f));
	lbWorld* w = lbCreateWorld(&wd);
	lbHeightfieldDef hd = lbDefaultHeightfieldDef();
	hd.heights = heights;
	hd.countX = N;
	hd.countY = N;
	hd.cellSize = 0.08f;
	// Local Z (heights) along the world's up.
	hd.transform = lbMakeTransform(lbMakeVec3(-1.0f, 0.5f, -1.2f), lbQuatFromTo(lbVec3_axisZ, wd.up));
	ENSURE(lbWorld_AddHeightfield(w, &hd) == 0);
	RunRandom(w, 2002, "heightfield");
	lbDestroyWorld(w);
}

// Casts aimed at the features a heightfield's own narrow phase must get right: grid vertices, cell
// borders, cell diagonals, steep cells, casts along grid lines (vertical, slanted and nearly horizontal),
// radii from 0 (ray) to twice the cell size, under several shape frames. The library's heightfield
// path is compared with the brute-force reference over the same triangles.
typedef struct HfFrame
{
	lbTransform xf;
	float cs;
	int nx, ny;
} HfFrame;

static lbVec3 HfLocalToWorld(const HfFrame* f, float x, float y, float z)
{
	return lbTransformPoint(f->xf, lbMakeVec3(x, y, z));
}

static void RunHeightfieldFeatureCasts(const lbWorld* w, const HfFrame* f, uint64_t seed, int count, const char* label)
{
	Soup s;
	SoupFromWorld(&s, w);
	gCandidates = (Candidate*)malloc(sizeof(Candidate) * (size_t)s.count);
	lbShapeInfo info;
	lbWorld_GetShapeInfo(w, 0, &info);
	float hLo = FLT_MAX, hHi = -FLT_MAX;
	for (int k = 0; k < f->nx * f->ny; ++k)
		hLo = lbMinF(hLo, info.heights[k]), hHi = lbMaxF(hHi, info.heights[k]);
	lbTestRng rng = { seed };
	Tally rays = { 0 }, spheres = { 0 };
	float cs = f->cs;
	for (int n = 0; n < 2 * count; ++n)
	{
		bool ray = n < count;
		// A feature point in the grid: a vertex, a point on a cell border along x or y, a point on a cell
		// diagonal, or anywhere.
		int i = (int)(lbTestNext(&rng) % (unsigned long long)(f->nx - 1));
		int j = (int)(lbTestNext(&rng) % (unsigned long long)(f->ny - 1));
		float u = lbTestUniform(&rng, 0.0f, 1.0f), v = lbTestUniform(&rng, 0.0f, 1.0f);
		int feature = (int)(lbTestNext(&rng) % 5);
		float fx = feature <= 1 ? 0.0f : u;
		float fy = feature == 0 || feature == 2 ? 0.0f : (feature == 3 ? u : v);
		float x = ((float)i + fx) * cs, y = ((float)j + fy) * cs;
		// Height of that point on the surface (bilinear is enough to aim at it).
		float h00 = info.heights[j * f->nx + i], h11 = info.heights[(j + 1) * f->nx + i + 1];
		float z = h00 + (h11 - h00) * 0.5f * (fx + fy);
		float r = 0.0f;
		if (!ray)
		{
			unsigned long long k = lbTestNext(&rng) % 4;
			r = k == 0 ? 0.001f : lbTestUniform(&rng, 0.05f, 2.0f) * cs;
		}
		if (lbTestNext(&rng) % 6 == 0)
		{
			// Near the grid's outer border: on it, or up to 1.5 r (and a little for rays) outside or inside.
			float off = lbTestUniform(&rng, -1.5f, 1.5f) * r + lbTestUniform(&rng, -0.01f, 0.01f) * cs;
			unsigned long long side = lbTestNext(&rng) % 4;
			float ex = (float)(f->nx - 1) * cs, ey = (float)(f->ny - 1) * cs;
			if (side == 0)
				x = -off;
			else if (side == 1)
				x = ex + off;
			else if (side == 2)
				y = -off;
			else
				y = ey + off;
		}
		lbVec3 a, b;
		int kind = (int)(lbTestNext(&rng) % 4);
		float above = hHi - z + r + lbTestUniform(&rng, 0.05f, 1.0f);
		if (kind == 0)
		{
			// Straight down the local height axis.
			a = HfLocalToWorld(f, x, y, z + above);
			b = HfLocalToWorld(f, x, y, hLo - r - 0.5f);
		}
		else if (kind == 1)
		{
			// Slanted, from a random point above toward the feature.
			float ax = x + lbTestUniform(&rng, -4.0f, 4.0f) * cs, ay = y + lbTestUniform(&rng, -4.0f, 4.0f) * cs;
			a = HfLocalToWorld(f, ax, ay, z + above);
			b = HfLocalToWorld(f, ax + 2.0f * (x - ax), ay + 2.0f * (y - ay), z - above);
		}
		else if (kind == 2)
		{
			// Along the grid line through the feature (x constant or y constant), descending slowly.
			float len = lbTestUniform(&rng, 1.0f, 6.0f) * cs, dz = lbTestUniform(&rng, -0.3f, 0.05f) * len;
			bool alongY = (lbTestNext(&rng) & 1u) != 0;
			float sgn = (lbTestNext(&rng) & 1u) ? 1.0f : -1.0f;
			float zs = z + r + lbTestUniform(&rng, 0.0f, 0.3f) * cs;
			a = HfLocalToWorld(f, alongY ? x : x - sgn * len, alongY ? y - sgn * len : y, zs);
			b = HfLocalToWorld(f, alongY ? x : x + sgn * len, alongY ? y + sgn * len : y, zs + dz);
		}
		else
		{
			// Along the cell's diagonal direction through the feature.
			float len = lbTestUniform(&rng, 1.0f, 4.0f) * cs;
			float zs = z + r + lbTestUniform(&rng, 0.0f, 0.5f) * cs;
			a = HfLocalToWorld(f, x - len, y - len, zs);
			b = HfLocalToWorld(f, x + len, y + len, zs - lbTestUniform(&rng, 0.0f, 0.5f) * len);
		}
		if (lbDistance(a, b) < 1e-3f)
			continue;
		Compare(&s, w, a, b, r, ray, ray ? &rays : &spheres);
	}
	PrintTallies(label, &rays, &spheres);
	ENSURE(rays.errors == 0 && spheres.errors == 0);
	ENSURE(rays.hits > count / 3 && spheres.hits > count / 3);
	// Casts through exact vertices and edges meet several triangles at one distance, and casts along
	// grid lines skim planes: ties are common here by design, and each is confirmed by the reference.
	ENSURE(rays.ties <= count / 4 && spheres.ties <= count / 4);
	free(gCandidates);
	free(s.tris);
}

static void HeightfieldFeaturesAgainstBruteForce(void)
{
	enum
	{
		NX = 17,
		NY = 13
	};
	float heights[NX * NY];
	lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
	lbSceneDef_Set(&p, "amplitude", 0.4f);
	lbSceneDef_Set(&p, "scale", 0.6f);
	const HfFrame frames[4] = {
		// Identity frame with a power-of-two cell: grid lines and diagonals are exact in float.
		{ lbTransform_identity, 0.25f, NX, NY },
		{ lbMakeTransform(lbMakeVec3(3.0f, -2.0f, 1.0f), lbQuatFromTo(lbVec3_axisZ, lbNormalize(lbMakeVec3(-0.6f, 0.3f, 0.7f)))),
		  0.1f, NX, NY },
		// Heights along world +Y (a +Y-up world), then along -X with a twist about it.
		{ lbMakeTransform(lbMakeVec3(-1.0f, 0.5f, 2.0f), lbQuatFromTo(lbVec3_axisZ, lbVec3_axisY)), 0.3f, NX, NY },
		{ lbMakeTransform(lbMakeVec3(0.0f, 0.0f, 0.0f),
						  lbQuatMul(lbQuatFromTo(lbVec3_axisZ, lbMakeVec3(-1.0f, 0.0f, 0.0f)),
									lbQuatFromAxisAngle(lbVec3_axisZ, 0.7f))),
		  0.05f, NX, NY },
	};
	const char* labels[4] = { "hf features identity", "hf features tilted", "hf features +Y up", "hf features -X up" };
	int count = CastCount() / 8;
	for (int k = 0; k < 4; ++k)
	{
		const HfFrame* f = &frames[k];
		lbTestRng rng = { 40u + (uint64_t)k };
		for (int j = 0; j < NY; ++j)
			for (int i = 0; i < NX; ++i)
			{
				float h = lbSceneRockyHeight(&p, 0.2f * (float)i, 0.2f * (float)j) * f->cs / 0.1f;
				// Steep cells: cliffs many cells high, pits and flat runs (exactly equal heights).
				unsigned long long c = lbTestNext(&rng) % 16;
				if (c == 0)
					h += lbTestUniform(&rng, 3.0f, 20.0f) * f->cs;
				else if (c == 1)
					h -= lbTestUniform(&rng, 3.0f, 20.0f) * f->cs;
				else if (c == 2 && i > 0)
					h = heights[j * NX + i - 1];
				heights[j * NX + i] = h;
			}
		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* w = lbCreateWorld(&wd);
		lbHeightfieldDef hd = lbDefaultHeightfieldDef();
		hd.heights = heights;
		hd.countX = NX;
		hd.countY = NY;
		hd.cellSize = f->cs;
		hd.transform = f->xf;
		ENSURE(lbWorld_AddHeightfield(w, &hd) == 0);
		RunHeightfieldFeatureCasts(w, f, 500u + (uint64_t)k, count, labels[k]);
		lbDestroyWorld(w);
	}
}

// Straight-down spheres about one to one and a half cells wide (the footprint of a body probe): the
// side cells of such a cast are culled by the height each of their triangles can reach at its own
// horizontal distance from the centre, so the centres are put on cell diagonals, borders and
// vertices as well as anywhere, over a grid with cliffs and flat runs.
static void HeightfieldVerticalSpheresAgainstBruteForce(void)
{
	enum
	{
		NX = 24,
		NY = 20
	};
	float heights[NX * NY];
	const float cs = 0.05f;
	lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
	lbTestRng rng = { 77u };
	float hLo = FLT_MAX, hHi = -FLT_MAX;
	for (int j = 0; j < NY; ++j)
		for (int i = 0; i < NX; ++i)
		{
			float h = lbSceneRockyHeight(&p, 0.2f * (float)i, 0.2f * (float)j) * 0.5f;
			unsigned long long c = lbTestNext(&rng) % 12;
			if (c == 0)
				h += lbTestUniform(&rng, 0.5f, 3.0f) * cs;
			else if (c == 1)
				h -= lbTestUniform(&rng, 0.5f, 3.0f) * cs;
			else if (c == 2 && i > 0)
				h = heights[j * NX + i - 1];
			heights[j * NX + i] = h;
			hLo = lbMinF(hLo, h), hHi = lbMaxF(hHi, h);
		}
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	lbHeightfieldDef hd = lbDefaultHeightfieldDef();
	hd.heights = heights;
	hd.countX = NX;
	hd.countY = NY;
	hd.cellSize = cs;
	ENSURE(lbWorld_AddHeightfield(w, &hd) == 0);
	Soup s;
	SoupFromWorld(&s, w);
	gCandidates = (Candidate*)malloc(sizeof(Candidate) * (size_t)s.count);
	Tally spheres = { 0 };
	int count = CastCount() / 8;
	for (int n = 0; n < count; ++n)
	{
		float u = lbTestUniform(&rng, 0.0f, 1.0f), v = lbTestUniform(&rng, 0.0f, 1.0f);
		int feature = (int)(lbTestNext(&rng) % 4);
		float fx = feature == 0 ? 0.0f : u, fy = feature == 0 ? 0.0f : (feature == 1 ? u : (feature == 2 ? 0.0f : v));
		// On a feature of a cell away from the border (vertex, diagonal, border) or anywhere in it.
		int i = 1 + (int)(lbTestNext(&rng) % (unsigned long long)(NX - 3));
		int j = 1 + (int)(lbTestNext(&rng) % (unsigned long long)(NY - 3));
		float x = ((float)i + fx) * cs, y = ((float)j + fy) * cs;
		float r = lbTestUniform(&rng, 0.5f, 1.5f) * cs;
		lbVec3 a = lbMakeVec3(x, y, hHi + r + lbTestUniform(&rng, 0.01f, 0.5f));
		lbVec3 b = lbMakeVec3(x, y, hLo - r - 0.1f);
		Compare(&s, w, a, b, r, false, &spheres);
	}
	Tally rays = { 0 };
	PrintTallies("hf vertical spheres", &rays, &spheres);
	ENSURE(spheres.errors == 0);
	ENSURE(spheres.hits > count / 2);
	ENSURE(spheres.ties <= count / 4);
	free(gCandidates);
	free(s.tris);
	lbDestroyWorld(w);
}

static void BoxesAgainstBruteForce(void)
{
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	lbTestRng rng = { 9 };
	for (int i = 0; i < 40; ++i)
	{
		lbBoxDef bd = lbDefaultBoxDef();
		lbVec3 axis = { lbTestUniform(&rng, -1, 1), lbTestUniform(&rng, -1, 1), lbTestUniform(&rng, -1, 1) };
		bd.transform = lbMakeTransform(
			lbMakeVec3(lbTestUniform(&rng, -3, 3), lbTestUniform(&rng, -3, 3), lbTestUniform(&rng, -1, 1)),
			i % 4 == 0 ? lbQuat_identity : lbQuatFromAxisAngle(axis, lbTestUniform(&rng, -3.0f, 3.0f)));
		bd.halfExtents = lbMakeVec3(lbTestUniform(&rng, 0.02f, 0.6f), lbTestUniform(&rng, 0.02f, 0.6f),
									lbTestUniform(&rng, 0.02f, 0.6f));
		ENSURE(lbWorld_AddBox(w, &bd) == i);
	}
	RunRandom(w, 3003, "boxes");
	lbDestroyWorld(w);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(MeshAgainstBruteForce);
	RUN_TEST(LargeMeshAgainstBruteForce);
	RUN_TEST(HeightfieldAgainstBruteForce);
	RUN_TEST(HeightfieldFeaturesAgainstBruteForce);
	RUN_TEST(HeightfieldVerticalSpheresAgainstBruteForce);
	RUN_TEST(BoxesAgainstBruteForce);
	TEST_MAIN_END();
}
