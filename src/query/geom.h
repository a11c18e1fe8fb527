// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Exact narrow-phase tests for casts, in double precision: the public API is float, but grazing
// contacts, far-from-origin coordinates and the 1e-5 m agreement the tests ask for need the margin.
// Scalar double costs the same as scalar float on the targets limber runs on.
#pragma once

#include <math.h>
#include <stdbool.h>

typedef struct lbDVec3
{
	double x, y, z;
} lbDVec3;

static inline lbDVec3 lbD3(double x, double y, double z)
{
	lbDVec3 r = { x, y, z };
	return r;
}
static inline lbDVec3 lbDAdd(lbDVec3 a, lbDVec3 b)
{
	return lbD3(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline lbDVec3 lbDSub(lbDVec3 a, lbDVec3 b)
{
	return lbD3(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline lbDVec3 lbDScale(lbDVec3 a, double s)
{
	return lbD3(a.x * s, a.y * s, a.z * s);
}
static inline lbDVec3 lbDMulAdd(lbDVec3 a, double s, lbDVec3 b)
{
	return lbD3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}
static inline double lbDDot(lbDVec3 a, lbDVec3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline lbDVec3 lbDCross(lbDVec3 a, lbDVec3 b)
{
	return lbD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double lbDLen(lbDVec3 a)
{
	return sqrt(lbDDot(a, a));
}

/// A cast in double precision: centre s + t * d, t in [0, len] (meters), d unit, radius r >= 0.
typedef struct lbDCast
{
	lbDVec3 s;
	lbDVec3 d;
	double len;
	double r;
} lbDCast;

typedef enum lbContactKind
{
	lb_contactNone = 0,
	lb_contactHit = 1,
	lb_contactInside = 2,
} lbContactKind;

/// Result of one primitive test. For a hit: t (m), unit normal facing the caster, contact point.
/// For inside: depth (m), separating normal, closest surface point (t = 0).
typedef struct lbDContact
{
	lbContactKind kind;
	double t;
	double depth;
	lbDVec3 n;
	lbDVec3 p;
} lbDContact;

/// Ray (r ignored) against triangle abc, two-sided, t in [0, tMax]. Coplanar rays miss.
bool lbRayTriangleD(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, lbDContact* out);

/// Exact swept sphere against triangle abc (face, edges as capsules, vertices as spheres), t in
/// [0, tMax]; reports an initial overlap as lb_contactInside. Degenerate triangles still collide by
/// their edges and vertices.
bool lbSweepSphereTriangleD(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, lbDContact* out);

/// Outcome of the face stage of a swept-sphere test.
typedef enum lbSweepStage
{
	/// No contact within tMax.
	lb_sweepMiss = 0,
	/// `out` holds the contact (face hit, ray hit or start overlap).
	lb_sweepDone,
	/// Only an edge or vertex can be hit, not before *outLowerBound: run the edge stage.
	lb_sweepEdges,
} lbSweepStage;

/// Face stage of lbSweepSphereTriangleD: start overlap, face contact, or a lower bound on the time of
/// an edge or vertex contact. Splitting lets callers run the costly edge stage last, once the nearest
/// face hits have shrunk tMax.
lbSweepStage lbSweepSphereTriangleFaceD(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, lbDContact* out,
										 double* outLowerBound);

/// Edge stage: the triangle's edges as capsules and vertices as spheres, t in [0, tMax]. Call only
/// after the face stage returned lb_sweepEdges (the start does not overlap the triangle).
bool lbSweepSphereTriangleEdgesD(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, lbDContact* out);

/// The edge stage restricted to some features: bit i (0..2) tests edge (v_i, v_(i+1 mod 3)) as a
/// capsule side, bit 3 + i tests vertex v_i as a sphere, with v = (a, b, cc). A caller may leave out a
/// feature only when it knows the feature cannot be touched before tMax by other means (for example,
/// it is shared with a triangle whose complete test already ran: the capsule of a shared edge lies
/// inside the swept volume of either triangle).
bool lbSweepSphereTriangleFeaturesD(const lbDCast* c, lbDVec3 a, lbDVec3 b, lbDVec3 cc, double tMax, unsigned features,
									lbDContact* out);

/// The same three stages on a triangle given as 9 floats (corners a, b, c), as a mesh stores them: the
/// corners are converted to double in registers, with results identical to the double versions.
bool lbRayTriangleF(const lbDCast* c, const float* v, double tMax, lbDContact* out);
lbSweepStage lbSweepSphereTriangleFaceF(const lbDCast* c, const float* v, double tMax, lbDContact* out,
										 double* outLowerBound);
bool lbSweepSphereTriangleEdgesF(const lbDCast* c, const float* v, double tMax, lbDContact* out);

/// Closest point on triangle abc to p (Ericson, Real-Time Collision Detection, 5.1.5).
lbDVec3 lbClosestPointTriangleD(lbDVec3 p, lbDVec3 a, lbDVec3 b, lbDVec3 c);

/// Swept sphere (or ray when r = 0) against a solid box centred at the origin with half sizes h,
/// in the box frame. t in [0, tMax]; a start inside/overlapping gives lb_contactInside.
bool lbCastBoxD(const lbDCast* c, lbDVec3 h, double tMax, lbDContact* out);
