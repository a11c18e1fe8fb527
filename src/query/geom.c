// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Exact cast primitives. References:
// - Moller, Trumbore, "Fast, Minimum Storage Ray/Triangle Intersection", JGT 1997 (ray vs triangle).
// - Ericson, "Real-Time Collision Detection", 2005: 5.1.5 closest point on a triangle, 5.3.7 segment
//   vs cylinder, 5.5.7 moving sphere vs box (Minkowski sum split into slabs, capsules, spheres).
// - Haines et al., "Precision Improvements for Ray/Sphere Intersection", Ray Tracing Gems 2019, ch. 7:
//   solve the quadratic about the point of closest approach so the discriminant does not cancel.
// The swept sphere against a triangle is the Minkowski sum of the triangle and the sphere: a slab
// (the face pushed out by r on both sides), three capsules (edges) and three spheres (vertices).
// The earliest entry into that union is the first contact.
#include "query/geom.h"
#include "core/bits.h"

#include <float.h>

// The per-triangle stages are written once and inlined into each entry point (LB_ALWAYS_INLINE;
// double corners, or the mesh's float corners converted in registers), so no entry point pays a
// call with nine doubles passed on the stack.

static lbDVec3 lbDNormalizeOr(lbDVec3 v, lbDVec3 fallback)
{
	double l = lbDLen(v);
	if (!(l > 1e-300))
		return fallback;
	return lbDScale(v, 1.0 / l);
}

static LB_ALWAYS_INLINE bool lbRayTriangleImpl(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, lbDContact* out)
{
	lbDVec3 e1 = lbDSub(b, a), e2 = lbDSub(cc, a);
	lbDVec3 pv = lbDCross(c->d, e2);
	double det = lbDDot(e1, pv);
	// The coplanar test below comes last: most triangles a ray meets in a leaf fail u or v first, and
	// the test's two extra dot products are spared for them. A ray it refuses is refused whatever u, v
	// and t came to, so the answer is the same in either order (with det = 0, u, v and t are 0 here).
	double inv = det != 0.0 ? 1.0 / det : 0.0;
	lbDVec3 tv = lbDSub(c->s, a);
	double u = lbDDot(tv, pv) * inv;
	if (u < 0.0 || u > 1.0)
		return false;
	lbDVec3 qv = lbDCross(tv, e1);
	double v = lbDDot(c->d, qv) * inv;
	if (v < 0.0 || u + v > 1.0)
		return false;
	double t = lbDDot(e2, qv) * inv;
	if (t < 0.0 || t > tMax)
		return false;
	// Coplanar (or degenerate) triangles have no area facing the ray (|det| <= 1e-14 |e1| |e2|,
	// compared squared to save two square roots).
	if (!(det * det > 1e-28 * lbDDot(e1, e1) * lbDDot(e2, e2)))
		return false;
	lbDVec3 n = lbDNormalizeOr(lbDCross(e1, e2), lbD3(0, 0, 1));
	if (lbDDot(n, c->d) > 0.0)
		n = lbDScale(n, -1.0);
	out->kind = lb_contactHit;
	out->t = t;
	out->depth = 0.0;
	out->n = n;
	out->p = lbDMulAdd(c->s, t, c->d);
	return true;
}

bool lbRayTriangleD(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, lbDContact* out)
{
	return lbRayTriangleImpl(c, a, b, cc, tMax, out);
}

static inline lbDVec3 lbCornerD(const float* v)
{
	return lbD3(v[0], v[1], v[2]);
}

bool lbRayTriangleF(const lbDCast* c, const float* v, double tMax, lbDContact* out)
{
	return lbRayTriangleImpl(c, lbCornerD(v), lbCornerD(v + 3), lbCornerD(v + 6), tMax, out);
}

// Closest point on segment pq to x.
static lbDVec3 lbClosestPointSegmentD(lbDVec3 x, lbDVec3 p, lbDVec3 q)
{
	lbDVec3 e = lbDSub(q, p);
	double ee = lbDDot(e, e);
	if (!(ee > 0.0))
		return p;
	double t = lbDDot(lbDSub(x, p), e) / ee;
	t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
	return lbDMulAdd(p, t, e);
}

static LB_ALWAYS_INLINE lbDVec3 lbClosestPointTriangleImpl(lbDVec3 p, lbDVec3 a, lbDVec3 b, lbDVec3 c)
{
	lbDVec3 ab = lbDSub(b, a), ac = lbDSub(c, a), ap = lbDSub(p, a);
	double d1 = lbDDot(ab, ap), d2 = lbDDot(ac, ap);
	if (d1 <= 0.0 && d2 <= 0.0)
		return a;
	lbDVec3 bp = lbDSub(p, b);
	double d3 = lbDDot(ab, bp), d4 = lbDDot(ac, bp);
	if (d3 >= 0.0 && d4 <= d3)
		return b;
	double vc = d1 * d4 - d3 * d2;
	if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 && d1 - d3 > 0.0)
		return lbDMulAdd(a, d1 / (d1 - d3), ab);
	lbDVec3 cp = lbDSub(p, c);
	double d5 = lbDDot(ab, cp), d6 = lbDDot(ac, cp);
	if (d6 >= 0.0 && d5 <= d6)
		return c;
	double vb = d5 * d2 - d1 * d6;
	if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 && d2 - d6 > 0.0)
		return lbDMulAdd(a, d2 / (d2 - d6), ac);
	double va = d3 * d6 - d5 * d4;
	if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 && (d4 - d3) + (d5 - d6) > 0.0)
		return lbDMulAdd(b, (d4 - d3) / ((d4 - d3) + (d5 - d6)), lbDSub(c, b));
	double sum = va + vb + vc;
	if (!(fabs(sum) > 0.0))
	{
		// Degenerate triangle: the closest of its three edges.
		lbDVec3 q0 = lbClosestPointSegmentD(p, a, b), q1 = lbClosestPointSegmentD(p, b, c),
				q2 = lbClosestPointSegmentD(p, c, a);
		double e0 = lbDDot(lbDSub(p, q0), lbDSub(p, q0)), e1 = lbDDot(lbDSub(p, q1), lbDSub(p, q1)),
			   e2 = lbDDot(lbDSub(p, q2), lbDSub(p, q2));
		return e0 <= e1 && e0 <= e2 ? q0 : (e1 <= e2 ? q1 : q2);
	}
	double denom = 1.0 / sum;
	double v = vb * denom, w = vc * denom;
	return lbDAdd(a, lbDAdd(lbDScale(ab, v), lbDScale(ac, w)));
}

lbDVec3 lbClosestPointTriangleD(lbDVec3 p, lbDVec3 a, lbDVec3 b, lbDVec3 c)
{
	return lbClosestPointTriangleImpl(p, a, b, c);
}

// Ray s + t d (d unit) against sphere (centre x, radius r); entry only, t in [0, tMax].
static bool lbRaySphereD(lbDVec3 s, lbDVec3 d, lbDVec3 x, double r, double tMax, double* outT)
{
	lbDVec3 m = lbDSub(s, x);
	double tc = -lbDDot(m, d);
	lbDVec3 q = lbDMulAdd(m, tc, d);
	double h2 = r * r - lbDDot(q, q);
	if (h2 < 0.0)
		return false;
	double t = tc - sqrt(h2);
	if (t < 0.0 || t > tMax)
		return false;
	*outT = t;
	return true;
}

// Ray against the side of the cylinder around segment pq (no caps), entry only, t in [0, tMax].
static bool lbRayCylinderD(lbDVec3 s, lbDVec3 d, lbDVec3 p, lbDVec3 q, double r, double tMax, double* outT,
						   lbDVec3* outAxisPoint)
{
	lbDVec3 e = lbDSub(q, p);
	double el = lbDLen(e);
	if (!(el > 1e-12))
		return false;
	lbDVec3 u = lbDScale(e, 1.0 / el);
	lbDVec3 m = lbDSub(s, p);
	double md = lbDDot(m, u), dd = lbDDot(d, u);
	lbDVec3 mp = lbDMulAdd(m, -md, u), dp = lbDMulAdd(d, -dd, u);
	double a = lbDDot(dp, dp);
	// Moving along the axis: only the end spheres can be hit first.
	if (!(a > 1e-20))
		return false;
	double tc = -lbDDot(mp, dp) / a;
	lbDVec3 c = lbDMulAdd(mp, tc, dp);
	double h2 = r * r - lbDDot(c, c);
	if (h2 < 0.0)
		return false;
	double t = tc - sqrt(h2 / a);
	if (t < 0.0 || t > tMax)
		return false;
	double axial = md + t * dd;
	if (axial < 0.0 || axial > el)
		return false;
	*outT = t;
	*outAxisPoint = lbDMulAdd(p, axial, u);
	return true;
}

static void lbSetHit(lbDContact* out, const lbDCast* c, double t, lbDVec3 contactPoint)
{
	lbDVec3 centre = lbDMulAdd(c->s, t, c->d);
	out->kind = lb_contactHit;
	out->t = t;
	out->depth = 0.0;
	out->p = contactPoint;
	out->n = lbDNormalizeOr(lbDSub(centre, contactPoint), lbDScale(c->d, -1.0));
}

static LB_ALWAYS_INLINE lbSweepStage lbFaceStage(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, lbDContact* out,
										double* outLowerBound)
{
	double r = c->r;
	*outLowerBound = 0.0;
	if (!(r > 0.0))
		return lbRayTriangleImpl(c, a, b, cc, tMax, out) ? lb_sweepDone : lb_sweepMiss;

	lbDVec3 e1 = lbDSub(b, a), e2 = lbDSub(cc, a);
	lbDVec3 nRaw = lbDCross(e1, e2);
	double nn = lbDDot(nRaw, nRaw);
	bool planar = nn > 1e-28 * lbDDot(e1, e1) * lbDDot(e2, e2) && nn > 0.0;
	double nl = planar ? sqrt(nn) : 0.0;
	if (planar)
	{
		lbDVec3 n = lbDScale(nRaw, 1.0 / nl);
		double dist0 = lbDDot(lbDSub(c->s, a), n);
		if (fabs(dist0) >= r)
		{
			// The start sphere is clear of the plane, so it cannot overlap the triangle.
			lbDVec3 side = dist0 > 0.0 ? n : lbDScale(n, -1.0);
			double vn = lbDDot(c->d, side);
			if (!(vn < 0.0))
				return lb_sweepMiss; // moving along or away from the plane: never touches it
			double t = (fabs(dist0) - r) / -vn;
			if (t > tMax)
				return lb_sweepMiss; // even the plane is reached too late
			lbDVec3 q = lbDMulAdd(lbDMulAdd(c->s, t, c->d), -r, side);
			lbDVec3 qa = lbDSub(q, a), qb = lbDSub(q, b), qc = lbDSub(q, cc);
			if (lbDDot(lbDCross(e1, qa), nRaw) >= 0.0 && lbDDot(lbDCross(lbDSub(cc, b), qb), nRaw) >= 0.0 &&
				lbDDot(lbDCross(lbDSub(a, cc), qc), nRaw) >= 0.0)
			{
				// First touch inside the face: no edge or vertex can be touched earlier.
				out->kind = lb_contactHit;
				out->t = t;
				out->depth = 0.0;
				out->n = side;
				out->p = q;
				return lb_sweepDone;
			}
			// The plane is touched outside the face, so a contact needs the centre's projection to come
			// within r of the triangle. The projection starts at q, at in-plane distance delta, and
			// moves at |d_par| per meter: the first contact cannot come before
			// t + (delta - r) / |d_par|. (The 3D distance is never below the in-plane distance, so this
			// bound is exact.)
			lbDVec3 cp = lbClosestPointTriangleImpl(q, a, b, cc);
			double delta = lbDLen(lbDSub(q, cp));
			double low = t;
			if (delta > r)
			{
				lbDVec3 dPar = lbDMulAdd(c->d, -lbDDot(c->d, side), side);
				double speed = lbDLen(dPar);
				if (delta - r > speed * (tMax - t))
					return lb_sweepMiss;
				low = t + (delta - r) / speed;
			}
			*outLowerBound = low;
			return lb_sweepEdges;
		}
	}
	// The start sphere reaches the plane (or the triangle is degenerate): overlap, or edges later.
	lbDVec3 cp = lbClosestPointTriangleImpl(c->s, a, b, cc);
	lbDVec3 sep = lbDSub(c->s, cp);
	double dist = lbDLen(sep);
	if (dist < r)
	{
		lbDVec3 fallback = planar ? lbDScale(nRaw, 1.0 / nl) : lbDScale(c->d, -1.0);
		if (planar && lbDDot(fallback, c->d) > 0.0)
			fallback = lbDScale(fallback, -1.0);
		out->kind = lb_contactInside;
		out->t = 0.0;
		out->depth = r - dist;
		out->p = cp;
		out->n = dist > 1e-12 ? lbDScale(sep, 1.0 / dist) : fallback;
		return lb_sweepDone;
	}
	// The centre cannot come within r sooner than it covers the gap.
	*outLowerBound = dist - r;
	return dist - r > tMax ? lb_sweepMiss : lb_sweepEdges;
}

lbSweepStage lbSweepSphereTriangleFaceD(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, lbDContact* out,
										 double* outLowerBound)
{
	return lbFaceStage(c, a, b, cc, tMax, out, outLowerBound);
}

lbSweepStage lbSweepSphereTriangleFaceF(const lbDCast* c, const float* v, double tMax, lbDContact* out,
										 double* outLowerBound)
{
	return lbFaceStage(c, lbCornerD(v), lbCornerD(v + 3), lbCornerD(v + 6), tMax, out, outLowerBound);
}

// Inlined into both entry points, so the all-features one keeps no mask tests.
static LB_ALWAYS_INLINE bool lbSweepFeatures(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, unsigned features,
								   lbDContact* out)
{
	// Edges (capsule sides) and vertices (spheres): the earliest entry wins.
	double r = c->r;
	double best = tMax, t;
	bool found = false;
	lbDVec3 contact = a, axisPoint;
	const lbDVec3 v[3] = { a, b, cc };
	for (int i = 0; i < 3; ++i)
	{
		if ((features & (1u << i)) && lbRayCylinderD(c->s, c->d, v[i], v[(i + 1) % 3], r, best, &t, &axisPoint))
		{
			best = t;
			contact = axisPoint;
			found = true;
		}
	}
	for (int i = 0; i < 3; ++i)
	{
		if ((features & (8u << i)) && lbRaySphereD(c->s, c->d, v[i], r, best, &t))
		{
			best = t;
			contact = v[i];
			found = true;
		}
	}
	if (!found)
		return false;
	lbSetHit(out, c, best, contact);
	return true;
}

bool lbSweepSphereTriangleEdgesD(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, lbDContact* out)
{
	return lbSweepFeatures(c, a, b, cc, tMax, 0x3fu, out);
}

bool lbSweepSphereTriangleEdgesF(const lbDCast* c, const float* v, double tMax, lbDContact* out)
{
	return lbSweepFeatures(c, lbCornerD(v), lbCornerD(v + 3), lbCornerD(v + 6), tMax, 0x3fu, out);
}

bool lbSweepSphereTriangleFeaturesD(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, unsigned features,
									lbDContact* out)
{
	return lbSweepFeatures(c, a, b, cc, tMax, features, out);
}

bool lbSweepSphereTriangleD(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, lbDContact* out)
{
	double low;
	lbSweepStage stage = lbSweepSphereTriangleFaceD(c, a, b, cc, tMax, out, &low);
	if (stage == lb_sweepDone)
		return true;
	if (stage == lb_sweepMiss)
		return false;
	return lbSweepSphereTriangleEdgesD(c, a, b, cc, tMax, out);
}

// Ray against an axis-aligned box [-h, h]: entry time and entry axis; false when missed or when the
// start is already inside.
static bool lbRayAabbEntryD(lbDVec3 s, lbDVec3 d, lbDVec3 h, double tMax, double* outT, int* outAxis)
{
	const double sv[3] = { s.x, s.y, s.z }, dv[3] = { d.x, d.y, d.z }, hv[3] = { h.x, h.y, h.z };
	double tEnter = -DBL_MAX, tExit = DBL_MAX;
	int axis = -1;
	for (int i = 0; i < 3; ++i)
	{
		if (fabs(dv[i]) < 1e-300)
		{
			if (sv[i] < -hv[i] || sv[i] > hv[i])
				return false;
			continue;
		}
		double inv = 1.0 / dv[i];
		double t1 = (-hv[i] - sv[i]) * inv, t2 = (hv[i] - sv[i]) * inv;
		if (t1 > t2)
		{
			double tmp = t1;
			t1 = t2;
			t2 = tmp;
		}
		if (t1 > tEnter)
		{
			tEnter = t1;
			axis = i;
		}
		if (t2 < tExit)
			tExit = t2;
	}
	if (axis < 0 || tEnter > tExit || tEnter < 0.0 || tEnter > tMax)
		return false;
	*outT = tEnter;
	*outAxis = axis;
	return true;
}

static double lbDGet(lbDVec3 v, int i)
{
	return i == 0 ? v.x : (i == 1 ? v.y : v.z);
}

static lbDVec3 lbDAxis(int i, double s)
{
	return lbD3(i == 0 ? s : 0.0, i == 1 ? s : 0.0, i == 2 ? s : 0.0);
}

static double lbClampD(double x, double lo, double hi)
{
	return x < lo ? lo : (x > hi ? hi : x);
}

bool lbCastBoxD(const lbDCast* c, lbDVec3 h, double tMax, lbDContact* out)
{
	double r = c->r > 0.0 ? c->r : 0.0;
	lbDVec3 s = c->s;
	lbDVec3 cp = lbD3(lbClampD(s.x, -h.x, h.x), lbClampD(s.y, -h.y, h.y), lbClampD(s.z, -h.z, h.z));
	lbDVec3 sep = lbDSub(s, cp);
	double dist = lbDLen(sep);
	bool centreInside = fabs(s.x) < h.x && fabs(s.y) < h.y && fabs(s.z) < h.z;
	if (centreInside || (r > 0.0 && dist < r))
	{
		out->kind = lb_contactInside;
		out->t = 0.0;
		if (!centreInside && dist > 0.0)
		{
			out->depth = r - dist;
			out->n = lbDScale(sep, 1.0 / dist);
			out->p = cp;
		}
		else
		{
			// Centre inside: leave through the nearest face.
			int axis = 0;
			double gap = DBL_MAX;
			for (int i = 0; i < 3; ++i)
			{
				double g = lbDGet(h, i) - fabs(lbDGet(s, i));
				if (g < gap)
				{
					gap = g;
					axis = i;
				}
			}
			double sign = lbDGet(s, axis) >= 0.0 ? 1.0 : -1.0;
			out->depth = r + gap;
			out->n = lbDAxis(axis, sign);
			out->p = lbDMulAdd(s, gap, out->n);
		}
		return true;
	}

	double best = tMax, t;
	bool found = false;
	lbDVec3 contact = s, normal = lbD3(0, 0, 1);
	// Slabs: the box grown by r along one axis at a time; entering through that axis' face is a face
	// contact. Entering a slab through another face is covered by the edge capsules.
	int slabCount = r > 0.0 ? 3 : 1;
	for (int i = 0; i < slabCount; ++i)
	{
		lbDVec3 hs = r > 0.0 ? lbDAdd(h, lbDAxis(i, r)) : h;
		int axis;
		if (lbRayAabbEntryD(s, c->d, hs, best, &t, &axis) && (r == 0.0 || axis == i))
		{
			lbDVec3 centre = lbDMulAdd(s, t, c->d);
			double sign = lbDGet(centre, axis) >= 0.0 ? 1.0 : -1.0;
			best = t;
			found = true;
			normal = lbDAxis(axis, sign);
			contact = lbDMulAdd(centre, -r, normal);
		}
	}
	if (r > 0.0)
	{
		const double hv[3] = { h.x, h.y, h.z };
		for (int i = 0; i < 3; ++i)
		{
			int j = (i + 1) % 3, k = (i + 2) % 3;
			for (int q = 0; q < 4; ++q)
			{
				double sj = (q & 1) ? hv[j] : -hv[j], sk = (q & 2) ? hv[k] : -hv[k];
				lbDVec3 p0 = lbDAdd(lbDAdd(lbDAxis(i, -hv[i]), lbDAxis(j, sj)), lbDAxis(k, sk));
				lbDVec3 p1 = lbDAdd(p0, lbDAxis(i, 2.0 * hv[i]));
				lbDVec3 axisPoint;
				if (lbRayCylinderD(s, c->d, p0, p1, r, best, &t, &axisPoint))
				{
					best = t;
					found = true;
					contact = axisPoint;
					normal = lbDScale(lbDSub(lbDMulAdd(s, t, c->d), axisPoint), 1.0 / r);
				}
			}
		}
		for (int q = 0; q < 8; ++q)
		{
			lbDVec3 corner = lbD3((q & 1) ? h.x : -h.x, (q & 2) ? h.y : -h.y, (q & 4) ? h.z : -h.z);
			if (lbRaySphereD(s, c->d, corner, r, best, &t))
			{
				best = t;
				found = true;
				contact = corner;
				normal = lbDScale(lbDSub(lbDMulAdd(s, t, c->d), corner), 1.0 / r);
			}
		}
	}
	if (!found)
		return false;
	out->kind = lb_contactHit;
	out->t = best;
	out->depth = 0.0;
	out->n = normal;
	out->p = contact;
	return true;
}
