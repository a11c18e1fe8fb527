// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref math group.

/// @defgroup math Math: vectors, quaternions, transforms and the animation helpers
/// Value types passed by value. Quaternions are (x, y, z, w), unit, Hamilton product; a transform
/// applies scale, then rotation, then translation, and `lbTransformMul(a, b)` applies b first.
/// Angles are radians. Degenerate input always gives a defined, finite result.
/// @{

#include "limber/base.h"

#include <float.h>
#include <math.h>

/// 3D vector (meters for positions, unitless for directions).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbVec3
{
	///@{
	/// Components along the frame's x, y and z axes (m for a position; no axis is up by itself).
	float x, y, z;
	///@}
} lbVec3;

/// Rotation quaternion, components (x, y, z, w); w is the scalar part.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbQuat
{
	///@{
	/// Vector part (x, y, z: the axis times sin(angle / 2)) and scalar part (w: cos(angle / 2)).
	float x, y, z, w;
	///@}
} lbQuat;

/// Translation `p` (m), rotation `q`, per-axis scale `s` (applied in the local frame, before q).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbTransform
{
	/// Translation (m, in the parent frame).
	lbVec3 p;
	/// Rotation (unit quaternion).
	lbQuat q;
	/// Per-axis scale, applied in the local frame before q (1, 1, 1 for none).
	lbVec3 s;
} lbTransform;

/// @cond LB_LAYOUT_CHECKS
#ifndef __cplusplus
_Static_assert(sizeof(lbVec3) == 12, "lbVec3 must be 3 packed floats");
_Static_assert(sizeof(lbQuat) == 16, "lbQuat must be 4 packed floats");
#endif
/// @endcond

/// Pi (rad in a half turn).
#define LB_PI 3.14159265358979323846f
/// Lengths below this are treated as zero by normalize and friends (m).
#define LB_EPSILON 1.0e-8f
/// Multiply degrees by this to get radians.
#define LB_DEG2RAD (LB_PI / 180.0f)
/// Multiply radians by this to get degrees.
#define LB_RAD2DEG (180.0f / LB_PI)

/// The zero vector (0, 0, 0).
#define lbVec3_zero LB_LITERAL(lbVec3){ 0.0f, 0.0f, 0.0f }
/// The vector (1, 1, 1), e.g. a unit scale.
#define lbVec3_one LB_LITERAL(lbVec3){ 1.0f, 1.0f, 1.0f }
/// Unit x axis (1, 0, 0).
#define lbVec3_axisX LB_LITERAL(lbVec3){ 1.0f, 0.0f, 0.0f }
/// Unit y axis (0, 1, 0).
#define lbVec3_axisY LB_LITERAL(lbVec3){ 0.0f, 1.0f, 0.0f }
/// Unit z axis (0, 0, 1).
#define lbVec3_axisZ LB_LITERAL(lbVec3){ 0.0f, 0.0f, 1.0f }
/// The identity rotation (0, 0, 0, 1).
#define lbQuat_identity LB_LITERAL(lbQuat){ 0.0f, 0.0f, 0.0f, 1.0f }
/// No translation, no rotation, unit scale.
#define lbTransform_identity                                                                                 \
	LB_LITERAL(lbTransform){ { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f, 1.0f }, { 1.0f, 1.0f, 1.0f } }

// ---------------------------------------------------------------------------------------------
// Scalars

/// True when x is neither NaN nor infinite.
LB_INLINE bool lbIsValidFloat(float x)
{
	return isfinite(x) != 0;
}

/// The smaller of a and b.
LB_INLINE float lbMinF(float a, float b)
{
	return a < b ? a : b;
}

/// The larger of a and b.
LB_INLINE float lbMaxF(float a, float b)
{
	return a > b ? a : b;
}

/// Absolute value of a.
LB_INLINE float lbAbsF(float a)
{
	return a < 0.0f ? -a : a;
}

/// Clamps x to [lo, hi]; NaN becomes lo.
LB_INLINE float lbClampF(float x, float lo, float hi)
{
	return x > lo ? (x < hi ? x : hi) : lo;
}

/// Linear interpolation: a at t = 0, b at t = 1 (t is not clamped).
LB_INLINE float lbLerpF(float a, float b, float t)
{
	return a + (b - a) * t;
}

/// Maps x from [inLo, inHi] to [outLo, outHi] linearly, extrapolating outside. A zero-width input
/// range gives outLo below the point and outHi at or above it.
LB_INLINE float lbRemap(float x, float inLo, float inHi, float outLo, float outHi)
{
	float w = inHi - inLo;
	if (lbAbsF(w) < 1.0e-12f)
	{
		return x < inLo ? outLo : outHi;
	}
	return outLo + (x - inLo) / w * (outHi - outLo);
}

/// As lbRemap, but the result is clamped to the output range.
LB_INLINE float lbRemapClamped(float x, float inLo, float inHi, float outLo, float outHi)
{
	float r = lbRemap(x, inLo, inHi, outLo, outHi);
	float lo = lbMinF(outLo, outHi), hi = lbMaxF(outLo, outHi);
	return lbClampF(r, lo, hi);
}

/// Smoothstep 3t^2 - 2t^3 of t clamped to [0, 1].
LB_INLINE float lbSmoothStep(float t)
{
	t = lbClampF(t, 0.0f, 1.0f);
	return t * t * (3.0f - 2.0f * t);
}

/// Smooth minimum of a and b with blend width k (same unit as a and b, > 0): equal to lbMinF(a, b)
/// when they differ by k or more, never above it, below it by at most k / 4 where they meet, and
/// continuous in slope, so a quantity bounded by two limits does not kink where the limit in force
/// changes. k <= 0 gives lbMinF. Polynomial smooth minimum (I. Quilez, "Smooth minimum", 2013).
LB_INLINE float lbSmoothMinF(float a, float b, float k)
{
	if (!(k > 0.0f))
		return lbMinF(a, b);
	float h = lbMaxF(k - lbAbsF(a - b), 0.0f) / k;
	return lbMinF(a, b) - 0.25f * k * h * h;
}

/// Fraction of the remaining distance that exponential interp-to covers in dt at `speed` (1/s).
/// 1 - exp(-speed dt): frame-rate independent, and equal to speed*dt for small steps.
LB_INLINE float lbInterpAlpha(float dt, float speed)
{
	if (!(dt > 0.0f) || !lbIsValidFloat(dt))
		return 0.0f;
	if (!(speed > 0.0f))
		return 1.0f;
	return 1.0f - expf(-speed * dt);
}

/// Gap under which an exponential interp-to lands on its target (in the value's own units).
#define LB_SETTLE_GAP 1.0e-30f

/// Exponential interp-to of a float: moves a fraction of the gap each step; a gap under
/// LB_SETTLE_GAP closes. dt <= 0 (or non-finite) returns current; speed <= 0 returns target.
LB_INLINE float lbInterpTo(float current, float target, float dt, float speed)
{
	if (!(dt > 0.0f) || !lbIsValidFloat(dt))
		return current;
	// An exponential tail never reaches its target: toward zero it decays through the denormal
	// floats, and every operation on one costs tens to hundreds of cycles on many x86 cores, in
	// every frame a state holds it. 1e-30 is nothing in any unit here, and the last steps before it
	// stay normal floats.
	const float gap = target - current;
	if (lbAbsF(gap) < LB_SETTLE_GAP)
		return target;
	return current + gap * lbInterpAlpha(dt, speed);
}

/// Constant interp-to of a float: moves at most speed*dt (units/s) toward target. dt <= 0 returns
/// current; speed <= 0 returns target.
LB_INLINE float lbInterpConstantTo(float current, float target, float dt, float speed)
{
	if (!(dt > 0.0f) || !lbIsValidFloat(dt))
		return current;
	if (!(speed > 0.0f))
		return target;
	float step = speed * dt, d = target - current;
	return lbAbsF(d) <= step ? target : current + (d > 0.0f ? step : -step);
}

// ---------------------------------------------------------------------------------------------
// Vectors

/// The vector (x, y, z).
LB_INLINE lbVec3 lbMakeVec3(float x, float y, float z)
{
	return LB_LITERAL(lbVec3){ x, y, z };
}

/// a + b.
LB_INLINE lbVec3 lbAdd(lbVec3 a, lbVec3 b)
{
	return LB_LITERAL(lbVec3){ a.x + b.x, a.y + b.y, a.z + b.z };
}

/// a - b.
LB_INLINE lbVec3 lbSub(lbVec3 a, lbVec3 b)
{
	return LB_LITERAL(lbVec3){ a.x - b.x, a.y - b.y, a.z - b.z };
}

/// -a.
LB_INLINE lbVec3 lbNeg(lbVec3 a)
{
	return LB_LITERAL(lbVec3){ -a.x, -a.y, -a.z };
}

/// Scalar times vector.
LB_INLINE lbVec3 lbMulSV(float s, lbVec3 v)
{
	return LB_LITERAL(lbVec3){ s * v.x, s * v.y, s * v.z };
}

/// a + s * b.
LB_INLINE lbVec3 lbMulAdd(lbVec3 a, float s, lbVec3 b)
{
	return LB_LITERAL(lbVec3){ a.x + s * b.x, a.y + s * b.y, a.z + s * b.z };
}

/// Component-wise product.
LB_INLINE lbVec3 lbMulVV(lbVec3 a, lbVec3 b)
{
	return LB_LITERAL(lbVec3){ a.x * b.x, a.y * b.y, a.z * b.z };
}

/// Dot product of a and b.
LB_INLINE float lbDot(lbVec3 a, lbVec3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

/// Cross product a x b.
LB_INLINE lbVec3 lbCross(lbVec3 a, lbVec3 b)
{
	return LB_LITERAL(lbVec3){ a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}

/// Squared length of v (cheaper than lbLength for comparisons).
LB_INLINE float lbLengthSquared(lbVec3 v)
{
	return lbDot(v, v);
}

/// Length of v.
LB_INLINE float lbLength(lbVec3 v)
{
	return sqrtf(lbDot(v, v));
}

/// Distance between points a and b.
LB_INLINE float lbDistance(lbVec3 a, lbVec3 b)
{
	return lbLength(lbSub(a, b));
}

/// Distance (in the points' units and space) between the segments from p1 along d1 and from p2
/// along d2 (p + s d, s in [0, 1]): between their closest points, the parameters clamped to the
/// segments (Ericson, Real-Time Collision Detection, 5.1.9). A zero d makes that segment a point.
/// Inline: the climbing elbow's swivel tests dozens of candidates a frame with it.
LB_INLINE float lbSegmentDistance(lbVec3 p1, lbVec3 d1, lbVec3 p2, lbVec3 d2)
{
	const lbVec3 r = lbSub(p1, p2);
	const float a = lbDot(d1, d1), e = lbDot(d2, d2), f = lbDot(d2, r);
	float sa = 0.0f, t = 0.0f;
	if (a <= 1.0e-12f && e <= 1.0e-12f)
		return lbLength(r);
	if (a <= 1.0e-12f)
		t = lbClampF(f / e, 0.0f, 1.0f);
	else
	{
		const float c = lbDot(d1, r);
		if (e <= 1.0e-12f)
			sa = lbClampF(-c / a, 0.0f, 1.0f);
		else
		{
			const float b = lbDot(d1, d2), den = a * e - b * b;
			sa = den > 1.0e-12f ? lbClampF((b * f - c * e) / den, 0.0f, 1.0f) : 0.0f;
			t = (b * sa + f) / e;
			// The closest point past either end of the second segment: clamp there and find the
			// first's again.
			if (t < 0.0f)
			{
				t = 0.0f;
				sa = lbClampF(-c / a, 0.0f, 1.0f);
			}
			else if (t > 1.0f)
			{
				t = 1.0f;
				sa = lbClampF((b - c) / a, 0.0f, 1.0f);
			}
		}
	}
	return lbDistance(lbMulAdd(p1, sa, d1), lbMulAdd(p2, t, d2));
}

/// Linear interpolation: a at t = 0, b at t = 1 (t is not clamped).
LB_INLINE lbVec3 lbLerp(lbVec3 a, lbVec3 b, float t)
{
	return LB_LITERAL(lbVec3){ a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t };
}

/// Component-wise minimum of a and b.
LB_INLINE lbVec3 lbMinV(lbVec3 a, lbVec3 b)
{
	return LB_LITERAL(lbVec3){ lbMinF(a.x, b.x), lbMinF(a.y, b.y), lbMinF(a.z, b.z) };
}

/// Component-wise maximum of a and b.
LB_INLINE lbVec3 lbMaxV(lbVec3 a, lbVec3 b)
{
	return LB_LITERAL(lbVec3){ lbMaxF(a.x, b.x), lbMaxF(a.y, b.y), lbMaxF(a.z, b.z) };
}

/// True when every component of v is finite.
LB_INLINE bool lbIsValidVec3(lbVec3 v)
{
	return lbIsValidFloat(v.x) && lbIsValidFloat(v.y) && lbIsValidFloat(v.z);
}

/// Unit vector along v, or `fallback` when v is shorter than LB_EPSILON or not finite.
LB_INLINE lbVec3 lbNormalizeOr(lbVec3 v, lbVec3 fallback)
{
	float len = lbLength(v);
	if (!(len > LB_EPSILON) || !lbIsValidFloat(len))
		return fallback;
	return lbMulSV(1.0f / len, v);
}

/// Unit vector along v, or the zero vector when v is (nearly) zero or not finite. Never NaN.
LB_INLINE lbVec3 lbNormalize(lbVec3 v)
{
	return lbNormalizeOr(v, lbVec3_zero);
}

/// Unit vector along v and its length through outLength (0 and the zero vector when degenerate).
LB_INLINE lbVec3 lbGetLengthAndNormalize(float* outLength, lbVec3 v)
{
	float len = lbLength(v);
	if (!(len > LB_EPSILON) || !lbIsValidFloat(len))
	{
		*outLength = 0.0f;
		return lbVec3_zero;
	}
	*outLength = len;
	return lbMulSV(1.0f / len, v);
}

/// Removes from v its component along the plane normal n (n need not be unit; zero n returns v).
LB_INLINE lbVec3 lbProjectOnPlane(lbVec3 v, lbVec3 n)
{
	float nn = lbDot(n, n);
	if (!(nn > LB_EPSILON * LB_EPSILON))
		return v;
	return lbMulAdd(v, -lbDot(v, n) / nn, n);
}

/// Component of v along direction d (d need not be unit; zero d gives zero).
LB_INLINE lbVec3 lbProjectOnVector(lbVec3 v, lbVec3 d)
{
	float dd = lbDot(d, d);
	if (!(dd > LB_EPSILON * LB_EPSILON))
		return lbVec3_zero;
	return lbMulSV(lbDot(v, d) / dd, d);
}

/// Shortens v to maxLength keeping its direction; shorter vectors are unchanged. maxLength < 0 acts as 0.
LB_INLINE lbVec3 lbClampLength(lbVec3 v, float maxLength)
{
	maxLength = lbMaxF(maxLength, 0.0f);
	float len = lbLength(v);
	if (len <= maxLength || !(len > LB_EPSILON))
		return v;
	return lbMulSV(maxLength / len, v);
}

/// A unit vector perpendicular to v (any one; deterministic). Zero v gives +X.
LB_INLINE lbVec3 lbAnyPerpendicular(lbVec3 v)
{
	lbVec3 a = lbAbsF(v.x) < 0.57735f ? lbVec3_axisX : (lbAbsF(v.y) < 0.57735f ? lbVec3_axisY : lbVec3_axisZ);
	return lbNormalizeOr(lbCross(v, a), lbVec3_axisX);
}

/// Exponential interp-to of a vector (see lbInterpTo): each component whose gap is under
/// LB_SETTLE_GAP lands on the target's.
LB_INLINE lbVec3 lbVInterpTo(lbVec3 current, lbVec3 target, float dt, float speed)
{
	if (!(dt > 0.0f) || !lbIsValidFloat(dt))
		return current;
	const float a = lbInterpAlpha(dt, speed);
	lbVec3 r = lbLerp(current, target, a);
	if (lbAbsF(target.x - current.x) < LB_SETTLE_GAP)
		r.x = target.x;
	if (lbAbsF(target.y - current.y) < LB_SETTLE_GAP)
		r.y = target.y;
	if (lbAbsF(target.z - current.z) < LB_SETTLE_GAP)
		r.z = target.z;
	return r;
}

/// Constant interp-to of a vector: moves at most speed*dt (m/s) along the straight line to target.
LB_INLINE lbVec3 lbVInterpConstantTo(lbVec3 current, lbVec3 target, float dt, float speed)
{
	if (!(dt > 0.0f) || !lbIsValidFloat(dt))
		return current;
	if (!(speed > 0.0f))
		return target;
	lbVec3 d = lbSub(target, current);
	float len = lbLength(d), step = speed * dt;
	if (len <= step || !(len > LB_EPSILON))
		return target;
	return lbMulAdd(current, step / len, d);
}

// ---------------------------------------------------------------------------------------------
// Quaternions

/// The quaternion (x, y, z, w), taken as given (not normalized).
LB_INLINE lbQuat lbMakeQuat(float x, float y, float z, float w)
{
	return LB_LITERAL(lbQuat){ x, y, z, w };
}

/// True when q is finite and unit within 2% (squared norm in (0.98, 1.02)).
LB_INLINE bool lbIsValidQuat(lbQuat q)
{
	if (!(lbIsValidFloat(q.x) && lbIsValidFloat(q.y) && lbIsValidFloat(q.z) && lbIsValidFloat(q.w)))
		return false;
	float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
	return n > 0.98f && n < 1.02f;
}

/// 4D dot product of a and b: cos of half the angle between two unit rotations, up to sign.
LB_INLINE float lbQuatDot(lbQuat a, lbQuat b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

/// Unit quaternion along q, or identity when q is (nearly) zero or not finite.
LB_INLINE lbQuat lbQuatNormalize(lbQuat q)
{
	float n = sqrtf(lbQuatDot(q, q));
	if (!(n > LB_EPSILON) || !lbIsValidFloat(n))
		return lbQuat_identity;
	float s = 1.0f / n;
	return LB_LITERAL(lbQuat){ q.x * s, q.y * s, q.z * s, q.w * s };
}

/// Hamilton product: the rotation b followed by a.
LB_INLINE lbQuat lbQuatMul(lbQuat a, lbQuat b)
{
	return LB_LITERAL(lbQuat){
		a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
		a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
		a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
		a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
	};
}

/// Conjugate, the inverse of a unit quaternion.
LB_INLINE lbQuat lbQuatConj(lbQuat q)
{
	return LB_LITERAL(lbQuat){ -q.x, -q.y, -q.z, q.w };
}

/// Inverse of any non-zero quaternion (identity for zero).
LB_INLINE lbQuat lbQuatInverse(lbQuat q)
{
	float n = lbQuatDot(q, q);
	if (!(n > LB_EPSILON * LB_EPSILON))
		return lbQuat_identity;
	float s = 1.0f / n;
	return LB_LITERAL(lbQuat){ -q.x * s, -q.y * s, -q.z * s, q.w * s };
}

/// -q: every component negated, the same rotation.
LB_INLINE lbQuat lbQuatNeg(lbQuat q)
{
	return LB_LITERAL(lbQuat){ -q.x, -q.y, -q.z, -q.w };
}

/// Rotates v by unit quaternion q.
LB_INLINE lbVec3 lbQuatRotate(lbQuat q, lbVec3 v)
{
	// v + 2w (u x v) + 2 u x (u x v), u = q.xyz
	lbVec3 u = { q.x, q.y, q.z };
	lbVec3 t = lbMulSV(2.0f, lbCross(u, v));
	return lbAdd(lbAdd(v, lbMulSV(q.w, t)), lbCross(u, t));
}

/// Rotates v by the inverse of unit quaternion q.
LB_INLINE lbVec3 lbQuatInvRotate(lbQuat q, lbVec3 v)
{
	return lbQuatRotate(lbQuatConj(q), v);
}

/// Rotation of `angle` radians about `axis` (normalized inside; zero axis gives identity).
LB_INLINE lbQuat lbQuatFromAxisAngle(lbVec3 axis, float angle)
{
	lbVec3 a = lbNormalize(axis);
	if (lbLengthSquared(a) == 0.0f || !lbIsValidFloat(angle))
		return lbQuat_identity;
	float h = 0.5f * angle, s = sinf(h);
	return LB_LITERAL(lbQuat){ a.x * s, a.y * s, a.z * s, cosf(h) };
}

/// Angle of rotation in [0, pi] (radians), taking the shorter way round.
LB_INLINE float lbQuatAngle(lbQuat q)
{
	float v = sqrtf(q.x * q.x + q.y * q.y + q.z * q.z);
	return 2.0f * atan2f(v, lbAbsF(q.w));
}

/// Angle (radians, [0, pi]) of the rotation taking a to b.
LB_INLINE float lbQuatAngleBetween(lbQuat a, lbQuat b)
{
	return lbQuatAngle(lbQuatMul(lbQuatConj(a), b));
}

/// Same rotation with w >= 0 (canonical hemisphere).
LB_INLINE lbQuat lbQuatCanonical(lbQuat q)
{
	return q.w < 0.0f ? lbQuatNeg(q) : q;
}

/// Normalized linear interpolation along the shorter arc. t is not clamped.
LB_INLINE lbQuat lbQuatNlerp(lbQuat a, lbQuat b, float t)
{
	if (lbQuatDot(a, b) < 0.0f)
		b = lbQuatNeg(b);
	lbQuat r = { a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t, a.w + (b.w - a.w) * t };
	return lbQuatNormalize(r);
}

/// The frame's x axis rotated by q.
LB_INLINE lbVec3 lbQuatAxisX(lbQuat q)
{
	return lbQuatRotate(q, lbVec3_axisX);
}

/// The frame's y axis rotated by q.
LB_INLINE lbVec3 lbQuatAxisY(lbQuat q)
{
	return lbQuatRotate(q, lbVec3_axisY);
}

/// The frame's z axis rotated by q.
LB_INLINE lbVec3 lbQuatAxisZ(lbQuat q)
{
	return lbQuatRotate(q, lbVec3_axisZ);
}

LB_EXTERN_C_BEGIN

/// Spherical linear interpolation along the shorter arc; t in [0, 1] (not clamped).
LB_API lbQuat lbQuatSlerp(lbQuat a, lbQuat b, float t);

/// Axis (unit, through outAxis) and angle (radians, [0, pi]) of q. Identity gives angle 0 and axis +X.
LB_API float lbQuatToAxisAngle(lbQuat q, lbVec3* outAxis);


/// Shortest rotation taking direction `from` to direction `to` (neither need be unit). Opposite
/// vectors rotate half a turn about a perpendicular axis; a zero vector gives identity.
LB_API lbQuat lbQuatFromTo(lbVec3 from, lbVec3 to);

/// Splits q = swing * twist, where twist rotates about `axis` (unit or not; zero axis gives
/// twist = identity) and swing moves the axis. Both outputs are unit with w >= 0.
LB_API void lbQuatSwingTwist(lbQuat q, lbVec3 axis, lbQuat* outSwing, lbQuat* outTwist);

/// Signed twist angle (radians, (-pi, pi]) of q about unit `axis`.
LB_API float lbQuatTwistAngle(lbQuat q, lbVec3 axis);

/// Rotation whose columns are the given orthonormal axes (x, y, z). Input is re-orthonormalized.
LB_API lbQuat lbQuatFromBasis(lbVec3 x, lbVec3 y, lbVec3 z);

/// Rotation whose local +X maps to `x` exactly and local +Y to `y` as closely as possible
/// (what engines call "make rotation from X and Y"). Degenerate `y` (zero or parallel to x) picks a perpendicular.
LB_API lbQuat lbQuatMakeFromXY(lbVec3 x, lbVec3 y);

/// Rotation whose local +Z maps to `z` exactly and local +X to `x` as closely as possible ("Make Rot from ZX").
LB_API lbQuat lbQuatMakeFromZX(lbVec3 z, lbVec3 x);

/// Rotation mapping local axis `primaryLocal` exactly onto `primaryTarget` and `secondaryLocal`
/// as closely as possible onto `secondaryTarget` (all directions; need not be unit). Generalises
/// Make Rot from XY/ZX to any pair of local axes.
LB_API lbQuat lbQuatFromTwoAxes(lbVec3 primaryLocal, lbVec3 primaryTarget, lbVec3 secondaryLocal, lbVec3 secondaryTarget);

/// Aim: given a bone's current rotation (any space), returns the rotation
/// that makes its local `primaryLocal` axis point along `primaryTarget` and turns it about that
/// axis so `secondaryLocal` faces `secondaryTarget` (skipped when the secondary target is
/// degenerate), blended from the current rotation by `weight` in [0, 1] (clamped).
LB_API lbQuat lbAimRotation(lbQuat current, lbVec3 primaryLocal, lbVec3 primaryTarget, lbVec3 secondaryLocal,
							lbVec3 secondaryTarget, float weight);

/// Exponential interp-to of a rotation (slerp by lbInterpAlpha). dt <= 0 returns current.
LB_API lbQuat lbQInterpTo(lbQuat current, lbQuat target, float dt, float speed);

/// Constant interp-to of a rotation: turns at most speed*dt radians toward target (speed in rad/s).
LB_API lbQuat lbQInterpConstantTo(lbQuat current, lbQuat target, float dt, float speed);

LB_EXTERN_C_END

// ---------------------------------------------------------------------------------------------
// Transforms

/// Transform with translation p (m), rotation q and unit scale.
LB_INLINE lbTransform lbMakeTransform(lbVec3 p, lbQuat q)
{
	return LB_LITERAL(lbTransform){ p, q, lbVec3_one };
}

/// True when t is finite, its rotation unit (lbIsValidQuat) and no scale axis is near zero.
LB_INLINE bool lbIsValidTransform(lbTransform t)
{
	return lbIsValidVec3(t.p) && lbIsValidQuat(t.q) && lbIsValidVec3(t.s) && lbAbsF(t.s.x) > LB_EPSILON &&
		   lbAbsF(t.s.y) > LB_EPSILON && lbAbsF(t.s.z) > LB_EPSILON;
}

/// Transforms a point: scale, rotate, translate.
LB_INLINE lbVec3 lbTransformPoint(lbTransform t, lbVec3 p)
{
	return lbAdd(t.p, lbQuatRotate(t.q, lbMulVV(t.s, p)));
}

/// Transforms a displacement (an offset between two points): scale and rotate, no translation.
LB_INLINE lbVec3 lbTransformVector(lbTransform t, lbVec3 v)
{
	return lbQuatRotate(t.q, lbMulVV(t.s, v));
}

/// Transforms a direction (unit vector or normal): rotation only; negative scale axes flip it.
LB_INLINE lbVec3 lbTransformDirection(lbTransform t, lbVec3 d)
{
	lbVec3 sg = { t.s.x < 0.0f ? -d.x : d.x, t.s.y < 0.0f ? -d.y : d.y, t.s.z < 0.0f ? -d.z : d.z };
	return lbQuatRotate(t.q, sg);
}

/// Component-wise 1 / s, with 0 where a component is within LB_EPSILON of zero.
LB_INLINE lbVec3 lbSafeRecip3(lbVec3 s)
{
	return LB_LITERAL(lbVec3){ lbAbsF(s.x) > LB_EPSILON ? 1.0f / s.x : 0.0f,
							   lbAbsF(s.y) > LB_EPSILON ? 1.0f / s.y : 0.0f,
							   lbAbsF(s.z) > LB_EPSILON ? 1.0f / s.z : 0.0f };
}

/// Inverse of lbTransformPoint.
LB_INLINE lbVec3 lbInvTransformPoint(lbTransform t, lbVec3 p)
{
	return lbMulVV(lbSafeRecip3(t.s), lbQuatInvRotate(t.q, lbSub(p, t.p)));
}

/// Inverse of lbTransformVector.
LB_INLINE lbVec3 lbInvTransformVector(lbTransform t, lbVec3 v)
{
	return lbMulVV(lbSafeRecip3(t.s), lbQuatInvRotate(t.q, v));
}

/// Inverse of lbTransformDirection.
LB_INLINE lbVec3 lbInvTransformDirection(lbTransform t, lbVec3 d)
{
	lbVec3 r = lbQuatInvRotate(t.q, d);
	return LB_LITERAL(lbVec3){ t.s.x < 0.0f ? -r.x : r.x, t.s.y < 0.0f ? -r.y : r.y, t.s.z < 0.0f ? -r.z : r.z };
}

/// Composition a * b: b is applied first (b expressed in a's frame gives b in a's parent frame).
/// Scale composes per axis without shear, as game engines do: exact for uniform scale, and for
/// non-uniform scale whenever the child is not rotated relative to the scaled axes.
LB_INLINE lbTransform lbTransformMul(lbTransform a, lbTransform b)
{
	lbTransform r;
	r.p = lbTransformPoint(a, b.p);
	r.q = lbQuatMul(a.q, b.q);
	r.s = lbMulVV(a.s, b.s);
	return r;
}

/// Inverse transform: lbTransformMul(lbTransformInverse(t), t) is identity (exact without shear).
LB_INLINE lbTransform lbTransformInverse(lbTransform t)
{
	lbTransform r;
	r.q = lbQuatConj(t.q);
	r.s = lbSafeRecip3(t.s);
	r.p = lbMulVV(r.s, lbQuatRotate(r.q, lbNeg(t.p)));
	return r;
}

/// Relative transform inverse(parent) * child: child expressed in parent's frame.
LB_INLINE lbTransform lbTransformRelative(lbTransform parent, lbTransform child)
{
	lbTransform r;
	lbVec3 inv = lbSafeRecip3(parent.s);
	r.p = lbInvTransformPoint(parent, child.p);
	r.q = lbQuatMul(lbQuatConj(parent.q), child.q);
	r.s = lbMulVV(inv, child.s);
	return r;
}

/// @}
