// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Math identities as fixed-seed property tests (>= 1e5 cases per family) and every degenerate case.
#include "limber/math.h"
#include "test_macros.h"

#include <float.h>
#include <stdlib.h>

#define CASES 100000
static int lbTestLastBad;

static lbVec3 randVec(lbTestRng* r, float range)
{
	return lbMakeVec3(lbTestUniform(r, -range, range), lbTestUniform(r, -range, range), lbTestUniform(r, -range, range));
}

static lbVec3 randUnit(lbTestRng* r)
{
	for (;;)
	{
		lbVec3 v = randVec(r, 1.0f);
		float l = lbLength(v);
		if (l > 0.1f && l <= 1.0f)
			return lbMulSV(1.0f / l, v);
	}
}

static lbQuat randQuat(lbTestRng* r)
{
	return lbQuatFromAxisAngle(randUnit(r), lbTestUniform(r, -LB_PI, LB_PI));
}

static bool finiteV(lbVec3 v)
{
	return lbIsValidVec3(v);
}

static bool finiteQ(lbQuat q)
{
	return lbIsValidFloat(q.x) && lbIsValidFloat(q.y) && lbIsValidFloat(q.z) && lbIsValidFloat(q.w);
}

static void test_normalize_and_length(void)
{
	lbTestRng r = { 1 };
	int bad = 0;
	for (int i = 0; i < CASES; ++i)
	{
		// Scale across many orders of magnitude, including below the epsilon.
		float scale = powf(10.0f, lbTestUniform(&r, -12.0f, 6.0f));
		lbVec3 v = lbMulSV(scale, randVec(&r, 1.0f));
		lbVec3 n = lbNormalize(v);
		float len = lbLength(n);
		if (!finiteV(n) || !(lbAbsF(len - 1.0f) < 1e-5f || len == 0.0f))
			++bad, lbTestLastBad = __LINE__;
		if (lbLength(v) > 1e-6f && lbAbsF(len - 1.0f) > 1e-5f)
			++bad, lbTestLastBad = __LINE__;
		// Direction is kept.
		if (len > 0.0f && lbDot(n, v) < 0.0f)
			++bad, lbTestLastBad = __LINE__;
		float l2;
		lbVec3 n2 = lbGetLengthAndNormalize(&l2, v);
		if (len > 0.0f && (lbAbsF(l2 - lbLength(v)) > 1e-5f * lbLength(v) || lbDistance(n2, n) > 1e-6f))
			++bad, lbTestLastBad = __LINE__;
	}
	ENSURE(bad == 0);
	if (bad) printf("  last failing check at line %d (%d cases)\n", lbTestLastBad, bad);
	ENSURE_VEC3_NEAR(lbNormalize(lbVec3_zero), lbVec3_zero, 0.0f);
	ENSURE_VEC3_NEAR(lbNormalizeOr(lbVec3_zero, lbVec3_axisY), lbVec3_axisY, 0.0f);
	ENSURE_VEC3_NEAR(lbNormalize(lbMakeVec3(NAN, 0, 0)), lbVec3_zero, 0.0f);
	ENSURE_VEC3_NEAR(lbNormalize(lbMakeVec3(INFINITY, 0, 0)), lbVec3_zero, 0.0f);
}

static void test_vector_identities(void)
{
	lbTestRng r = { 2 };
	int bad = 0;
	for (int i = 0; i < CASES; ++i)
	{
		lbVec3 a = randVec(&r, 10.0f), b = randVec(&r, 10.0f), n = randVec(&r, 3.0f);
		lbVec3 c = lbCross(a, b);
		float tol = 1e-4f * (1.0f + lbLength(a) * lbLength(b));
		if (lbAbsF(lbDot(c, a)) > tol || lbAbsF(lbDot(c, b)) > tol)
			++bad, lbTestLastBad = __LINE__;
		// |a x b|^2 + (a.b)^2 = |a|^2 |b|^2 (Lagrange)
		float lhs = lbLengthSquared(c) + lbDot(a, b) * lbDot(a, b), rhs = lbLengthSquared(a) * lbLengthSquared(b);
		if (lbAbsF(lhs - rhs) > 1e-4f * (1.0f + rhs))
			++bad, lbTestLastBad = __LINE__;
		// Projection on a plane removes the normal component and is idempotent.
		lbVec3 p = lbProjectOnPlane(a, n);
		if (lbLength(n) > 1e-3f && lbAbsF(lbDot(p, lbNormalize(n))) > 1e-4f * (1.0f + lbLength(a)))
			++bad, lbTestLastBad = __LINE__;
		if (lbDistance(lbProjectOnPlane(p, n), p) > 1e-4f * (1.0f + lbLength(a)))
			++bad, lbTestLastBad = __LINE__;
		if (lbDistance(lbAdd(p, lbProjectOnVector(a, n)), a) > 1e-4f * (1.0f + lbLength(a)))
			++bad, lbTestLastBad = __LINE__;
		// Clamp length: never longer than the limit, direction kept, short vectors untouched.
		float maxLen = lbTestUniform(&r, 0.0f, 12.0f);
		lbVec3 cl = lbClampLength(a, maxLen);
		if (lbLength(cl) > maxLen + 1e-4f)
			++bad, lbTestLastBad = __LINE__;
		if (lbLength(a) <= maxLen && lbDistance(cl, a) != 0.0f)
			++bad, lbTestLastBad = __LINE__;
		if (lbLength(cl) > 1e-3f && lbDot(lbNormalize(cl), lbNormalize(a)) < 0.9999f)
			++bad, lbTestLastBad = __LINE__;
		// Any perpendicular is unit and perpendicular.
		lbVec3 q = lbAnyPerpendicular(a);
		if (lbAbsF(lbLength(q) - 1.0f) > 1e-5f || lbAbsF(lbDot(q, lbNormalize(a))) > 1e-5f)
			++bad, lbTestLastBad = __LINE__;
	}
	ENSURE(bad == 0);
	if (bad) printf("  last failing check at line %d (%d cases)\n", lbTestLastBad, bad);
	// Degenerate: zero normal leaves the vector; zero direction projects to zero; negative limit acts as 0.
	ENSURE_VEC3_NEAR(lbProjectOnPlane(lbMakeVec3(1, 2, 3), lbVec3_zero), lbMakeVec3(1, 2, 3), 0.0f);
	ENSURE_VEC3_NEAR(lbProjectOnVector(lbMakeVec3(1, 2, 3), lbVec3_zero), lbVec3_zero, 0.0f);
	ENSURE_VEC3_NEAR(lbClampLength(lbMakeVec3(1, 2, 3), -1.0f), lbVec3_zero, 0.0f);
	ENSURE_VEC3_NEAR(lbAnyPerpendicular(lbVec3_zero), lbVec3_axisX, 0.0f);
}

static void test_quat_identities(void)
{
	lbTestRng r = { 3 };
	int bad = 0;
	for (int i = 0; i < CASES; ++i)
	{
		lbQuat a = randQuat(&r), b = randQuat(&r);
		lbVec3 v = randVec(&r, 5.0f);
		// q * q^-1 = identity, both with conjugate and general inverse.
		if (lbQuatAngle(lbQuatMul(a, lbQuatConj(a))) > 1e-3f || lbQuatAngle(lbQuatMul(lbQuatInverse(a), a)) > 1e-3f)
			++bad, lbTestLastBad = __LINE__;
		// Rotation keeps length and composes.
		lbVec3 av = lbQuatRotate(a, v);
		if (lbAbsF(lbLength(av) - lbLength(v)) > 1e-4f * (1.0f + lbLength(v)))
			++bad, lbTestLastBad = __LINE__;
		if (lbDistance(lbQuatRotate(lbQuatMul(a, b), v), lbQuatRotate(a, lbQuatRotate(b, v))) > 1e-4f * (1.0f + lbLength(v)))
			++bad, lbTestLastBad = __LINE__;
		if (lbDistance(lbQuatInvRotate(a, av), v) > 1e-4f * (1.0f + lbLength(v)))
			++bad, lbTestLastBad = __LINE__;
		// Rotation matches Rodrigues' formula for its axis and angle (an independent reference).
		lbVec3 axis;
		float ang = lbQuatToAxisAngle(a, &axis);
		lbVec3 rod = lbAdd(lbAdd(lbMulSV(cosf(ang), v), lbMulSV(sinf(ang), lbCross(axis, v))),
						   lbMulSV(lbDot(axis, v) * (1.0f - cosf(ang)), axis));
		if (lbDistance(rod, av) > 2e-4f * (1.0f + lbLength(v)))
			++bad, lbTestLastBad = __LINE__;
		// Axis-angle round trip.
		if (lbQuatAngleBetween(lbQuatFromAxisAngle(axis, ang), a) > 1e-3f)
			++bad, lbTestLastBad = __LINE__;
		if (ang < 0.0f || ang > LB_PI + 1e-5f)
			++bad, lbTestLastBad = __LINE__;
	}
	ENSURE(bad == 0);
	if (bad) printf("  last failing check at line %d (%d cases)\n", lbTestLastBad, bad);
	lbVec3 axis;
	ENSURE_NEAR(lbQuatToAxisAngle(lbQuat_identity, &axis), 0.0f, 0.0f);
	ENSURE_VEC3_NEAR(axis, lbVec3_axisX, 0.0f);
	ENSURE_QUAT_SAME_ROT(lbQuatFromAxisAngle(lbVec3_zero, 1.0f), lbQuat_identity, 0.0f);
	ENSURE_QUAT_SAME_ROT(lbQuatNormalize(lbMakeQuat(0, 0, 0, 0)), lbQuat_identity, 0.0f);
	ENSURE_QUAT_SAME_ROT(lbQuatNormalize(lbMakeQuat(NAN, 0, 0, 1)), lbQuat_identity, 0.0f);
	ENSURE_QUAT_SAME_ROT(lbQuatInverse(lbMakeQuat(0, 0, 0, 0)), lbQuat_identity, 0.0f);
}

static void test_from_to(void)
{
	lbTestRng r = { 4 };
	int bad = 0;
	for (int i = 0; i < CASES; ++i)
	{
		lbVec3 a = randVec(&r, 3.0f), b = randVec(&r, 3.0f);
		// Every tenth case: exactly or nearly opposite vectors.
		if (i % 10 == 0)
			b = lbMulSV(-lbTestUniform(&r, 0.1f, 4.0f), lbAdd(a, lbMulSV(i % 20 == 0 ? 0.0f : 1e-7f, randVec(&r, 1.0f))));
		lbQuat q = lbQuatFromTo(a, b);
		if (!finiteQ(q) || lbAbsF(lbQuatDot(q, q) - 1.0f) > 1e-4f)
			++bad, lbTestLastBad = __LINE__;
		if (lbLength(a) > 1e-3f && lbLength(b) > 1e-3f && lbDot(lbQuatRotate(q, lbNormalize(a)), lbNormalize(b)) < 0.9999f)
			++bad, lbTestLastBad = __LINE__;
		// Shortest arc: the angle equals the angle between the vectors.
		float want = acosf(lbClampF(lbDot(lbNormalize(a), lbNormalize(b)), -1.0f, 1.0f));
		if (lbLength(a) > 1e-3f && lbLength(b) > 1e-3f && lbAbsF(lbQuatAngle(q) - want) > 2e-3f)
			++bad, lbTestLastBad = __LINE__;
	}
	ENSURE(bad == 0);
	if (bad) printf("  last failing check at line %d (%d cases)\n", lbTestLastBad, bad);
	// Opposite axes pick a perpendicular axis (half turn); zero vectors give identity.
	lbQuat q = lbQuatFromTo(lbVec3_axisZ, lbNeg(lbVec3_axisZ));
	ENSURE_NEAR(lbQuatAngle(q), LB_PI, 1e-5f);
	ENSURE_VEC3_NEAR(lbQuatRotate(q, lbVec3_axisZ), lbNeg(lbVec3_axisZ), 1e-5f);
	ENSURE_QUAT_SAME_ROT(lbQuatFromTo(lbVec3_zero, lbVec3_axisX), lbQuat_identity, 0.0f);
	ENSURE_QUAT_SAME_ROT(lbQuatFromTo(lbVec3_axisX, lbVec3_zero), lbQuat_identity, 0.0f);
}

static void test_slerp_nlerp(void)
{
	lbTestRng r = { 5 };
	int bad = 0;
	for (int i = 0; i < CASES; ++i)
	{
		lbQuat a = randQuat(&r), b = randQuat(&r);
		if (i % 7 == 0)
			b = lbQuatNeg(b); // the other hemisphere must give the same path
		float t = lbTestUniform(&r, 0.0f, 1.0f);
		lbQuat s = lbQuatSlerp(a, b, t);
		float total = lbQuatAngleBetween(a, b);
		// Constant angular velocity: the angle from a is t * total, and to b is (1 - t) * total.
		if (lbAbsF(lbQuatAngleBetween(a, s) - t * total) > 2e-3f || lbAbsF(lbQuatAngleBetween(s, b) - (1 - t) * total) > 2e-3f)
			++bad, lbTestLastBad = __LINE__;
		lbQuat n = lbQuatNlerp(a, b, t);
		if (lbAbsF(lbQuatDot(n, n) - 1.0f) > 1e-5f || lbQuatAngleBetween(a, n) > total + 1e-3f)
			++bad, lbTestLastBad = __LINE__;
		if (lbQuatAngleBetween(lbQuatSlerp(a, b, 0.0f), a) > 1e-3f || lbQuatAngleBetween(lbQuatSlerp(a, b, 1.0f), b) > 1e-3f)
			++bad, lbTestLastBad = __LINE__;
	}
	ENSURE(bad == 0);
	if (bad) printf("  last failing check at line %d (%d cases)\n", lbTestLastBad, bad);
}

static void test_swing_twist(void)
{
	lbTestRng r = { 6 };
	int bad = 0;
	for (int i = 0; i < CASES; ++i)
	{
		lbQuat q = randQuat(&r);
		lbVec3 axis = lbMulSV(lbTestUniform(&r, 0.2f, 3.0f), randUnit(&r));
		lbQuat swing, twist;
		lbQuatSwingTwist(q, axis, &swing, &twist);
		lbVec3 ua = lbNormalize(axis);
		// Recomposes to q.
		if (lbQuatAngleBetween(lbQuatMul(swing, twist), q) > 2e-3f)
			++bad, lbTestLastBad = __LINE__;
		// Twist rotates about the axis: it leaves the axis fixed.
		if (lbDistance(lbQuatRotate(twist, ua), ua) > 1e-4f)
			++bad, lbTestLastBad = __LINE__;
		// Swing's own axis is perpendicular to the twist axis.
		lbVec3 sv = { swing.x, swing.y, swing.z };
		if (lbLength(sv) > 1e-4f && lbAbsF(lbDot(lbNormalize(sv), ua)) > 1e-3f)
			++bad, lbTestLastBad = __LINE__;
		// Signed twist angle agrees with the twist quaternion.
		float ta = lbQuatTwistAngle(q, ua);
		if (lbQuatAngleBetween(lbQuatFromAxisAngle(ua, ta), twist) > 2e-3f)
			++bad, lbTestLastBad = __LINE__;
	}
	ENSURE(bad == 0);
	if (bad) printf("  last failing check at line %d (%d cases)\n", lbTestLastBad, bad);
	// Zero axis: all swing, no twist.
	lbQuat q = lbQuatFromAxisAngle(lbVec3_axisY, 0.7f), swing, twist;
	lbQuatSwingTwist(q, lbVec3_zero, &swing, &twist);
	ENSURE_QUAT_SAME_ROT(twist, lbQuat_identity, 0.0f);
	ENSURE_QUAT_SAME_ROT(swing, q, 1e-5f);
	// A pure twist about the axis, and a pure swing.
	lbQuatSwingTwist(q, lbVec3_axisY, &swing, &twist);
	ENSURE_QUAT_SAME_ROT(swing, lbQuat_identity, 1e-5f);
	ENSURE_NEAR(lbQuatTwistAngle(q, lbVec3_axisY), 0.7f, 1e-5f);
	ENSURE_NEAR(lbQuatTwistAngle(lbQuatFromAxisAngle(lbVec3_axisY, -0.7f), lbVec3_axisY), -0.7f, 1e-5f);
}

static void test_aim_and_make_rot(void)
{
	lbTestRng r = { 7 };
	int bad = 0;
	for (int i = 0; i < CASES; ++i)
	{
		lbQuat cur = randQuat(&r);
		lbVec3 pl = randUnit(&r), sl = randUnit(&r), pt = randVec(&r, 2.0f), st = randVec(&r, 2.0f);
		// Make the local axes not parallel, as real bone axes are.
		sl = lbNormalize(lbProjectOnPlane(sl, pl));
		if (lbLength(pt) < 1e-2f || lbLength(lbProjectOnPlane(st, pt)) < 1e-2f || lbLength(sl) < 0.5f)
			continue;
		lbQuat q = lbAimRotation(cur, pl, pt, sl, st, 1.0f);
		if (lbDot(lbQuatRotate(q, pl), lbNormalize(pt)) < 0.9999f)
			++bad, lbTestLastBad = __LINE__;
		// The secondary axis lies in the half-plane of (primary target, secondary target).
		lbVec3 sNow = lbNormalize(lbProjectOnPlane(lbQuatRotate(q, sl), pt));
		lbVec3 sWant = lbNormalize(lbProjectOnPlane(st, pt));
		if (lbDot(sNow, sWant) < 0.999f)
			++bad, lbTestLastBad = __LINE__;
		// Weight 0 keeps the current rotation; weight 0.5 is half-way.
		if (lbQuatAngleBetween(lbAimRotation(cur, pl, pt, sl, st, 0.0f), cur) > 1e-4f)
			++bad, lbTestLastBad = __LINE__;
		lbQuat h = lbAimRotation(cur, pl, pt, sl, st, 0.5f);
		if (lbAbsF(lbQuatAngleBetween(cur, h) - 0.5f * lbQuatAngleBetween(cur, q)) > 2e-3f)
			++bad, lbTestLastBad = __LINE__;
		// Make-rot variants: the primary axis is exact, the secondary is in its half-plane.
		lbQuat xy = lbQuatMakeFromXY(pt, st);
		lbQuat zx = lbQuatMakeFromZX(pt, st);
		if (lbDot(lbQuatAxisX(xy), lbNormalize(pt)) < 0.9999f || lbDot(lbQuatAxisY(xy), sWant) < 0.999f)
			++bad, lbTestLastBad = __LINE__;
		if (lbDot(lbQuatAxisZ(zx), lbNormalize(pt)) < 0.9999f || lbDot(lbQuatAxisX(zx), sWant) < 0.999f)
			++bad, lbTestLastBad = __LINE__;
		// FromBasis inverts AxisX/Y/Z.
		if (lbQuatAngleBetween(lbQuatFromBasis(lbQuatAxisX(cur), lbQuatAxisY(cur), lbQuatAxisZ(cur)), cur) > 2e-3f)
			++bad, lbTestLastBad = __LINE__;
	}
	ENSURE(bad == 0);
	if (bad) printf("  last failing check at line %d (%d cases)\n", lbTestLastBad, bad);
	// Degenerate targets: zero primary keeps the rotation; a secondary parallel to the primary skips the twist.
	lbQuat cur = lbQuatFromAxisAngle(lbVec3_axisZ, 0.3f);
	ENSURE_QUAT_SAME_ROT(lbAimRotation(cur, lbVec3_axisX, lbVec3_zero, lbVec3_axisY, lbVec3_axisY, 1.0f), cur, 1e-6f);
	lbQuat q = lbAimRotation(cur, lbVec3_axisX, lbVec3_axisY, lbVec3_axisY, lbVec3_axisY, 1.0f);
	ENSURE(finiteQ(q));
	ENSURE(lbDot(lbQuatRotate(q, lbVec3_axisX), lbVec3_axisY) > 0.9999f);
	ENSURE_QUAT_SAME_ROT(lbAimRotation(cur, lbVec3_axisX, lbVec3_axisY, lbVec3_axisY, lbVec3_axisZ, NAN), cur, 1e-6f);
	q = lbQuatMakeFromXY(lbVec3_axisZ, lbVec3_axisZ);
	ENSURE(finiteQ(q) && lbDot(lbQuatAxisX(q), lbVec3_axisZ) > 0.9999f);
	q = lbQuatMakeFromZX(lbVec3_zero, lbVec3_zero);
	ENSURE(finiteQ(q));
}

static lbTransform randTransform(lbTestRng* r, bool uniformScale)
{
	lbTransform t;
	t.p = randVec(r, 5.0f);
	t.q = randQuat(r);
	float s = lbTestUniform(r, 0.3f, 2.0f);
	t.s = uniformScale ? lbMakeVec3(s, s, s)
					   : lbMakeVec3(lbTestUniform(r, 0.3f, 2.0f), lbTestUniform(r, 0.3f, 2.0f), lbTestUniform(r, 0.3f, 2.0f));
	return t;
}

static void test_transforms(void)
{
	lbTestRng r = { 8 };
	int bad = 0;
	for (int i = 0; i < CASES; ++i)
	{
		lbTransform a = randTransform(&r, true), b = randTransform(&r, true), n = randTransform(&r, false);
		lbVec3 p = randVec(&r, 3.0f), d = randUnit(&r);
		float tol = 1e-4f * (1.0f + lbLength(p)) * 10.0f;
		// Composition applies b first, for points (uniform scale: exact).
		if (lbDistance(lbTransformPoint(lbTransformMul(a, b), p), lbTransformPoint(a, lbTransformPoint(b, p))) > tol)
			++bad, lbTestLastBad = __LINE__;
		// Inverse and relative.
		lbTransform id = lbTransformMul(lbTransformInverse(a), a);
		if (lbLength(id.p) > 1e-3f || lbQuatAngle(id.q) > 1e-3f || lbDistance(id.s, lbVec3_one) > 1e-4f)
			++bad, lbTestLastBad = __LINE__;
		lbTransform rel = lbTransformRelative(a, b);
		lbTransform back = lbTransformMul(a, rel);
		if (lbDistance(back.p, b.p) > tol || lbQuatAngleBetween(back.q, b.q) > 1e-3f || lbDistance(back.s, b.s) > 1e-4f)
			++bad, lbTestLastBad = __LINE__;
		// Non-uniform scale: point, vector and direction round trips; a direction ignores translation and scale.
		if (lbDistance(lbInvTransformPoint(n, lbTransformPoint(n, p)), p) > tol)
			++bad, lbTestLastBad = __LINE__;
		if (lbDistance(lbInvTransformVector(n, lbTransformVector(n, p)), p) > tol)
			++bad, lbTestLastBad = __LINE__;
		lbVec3 td = lbTransformDirection(n, d);
		if (lbAbsF(lbLength(td) - 1.0f) > 1e-5f || lbDistance(lbInvTransformDirection(n, td), d) > 1e-4f)
			++bad, lbTestLastBad = __LINE__;
		// Displacement = difference of transformed points (translation cancels).
		lbVec3 q2 = randVec(&r, 3.0f);
		if (lbDistance(lbTransformVector(n, lbSub(q2, p)), lbSub(lbTransformPoint(n, q2), lbTransformPoint(n, p))) > tol)
			++bad, lbTestLastBad = __LINE__;
	}
	ENSURE(bad == 0);
	if (bad) printf("  last failing check at line %d (%d cases)\n", lbTestLastBad, bad);
	// Mirrored (negative) scale flips directions along that axis.
	lbTransform m = lbTransform_identity;
	m.s = lbMakeVec3(-1, 1, 1);
	ENSURE_VEC3_NEAR(lbTransformDirection(m, lbVec3_axisX), lbNeg(lbVec3_axisX), 1e-6f);
	ENSURE_VEC3_NEAR(lbTransformPoint(m, lbMakeVec3(2, 3, 4)), lbMakeVec3(-2, 3, 4), 1e-6f);
	// Zero scale does not produce inf/NaN in the inverse.
	lbTransform z = lbTransform_identity;
	z.s = lbVec3_zero;
	ENSURE(finiteV(lbInvTransformPoint(z, lbMakeVec3(1, 1, 1))));
	ENSURE(!lbIsValidTransform(z));
}

static void test_scalars_and_interp(void)
{
	lbTestRng r = { 9 };
	int bad = 0;
	for (int i = 0; i < CASES; ++i)
	{
		float lo = lbTestUniform(&r, -5, 5), hi = lbTestUniform(&r, -5, 5), x = lbTestUniform(&r, -10, 10);
		float a = lbTestUniform(&r, -3, 3), b = lbTestUniform(&r, -3, 3);
		// Remap is linear: endpoints map to endpoints; the clamped variant stays in range.
		if (lbAbsF(hi - lo) > 0.1f)
		{
			if (lbAbsF(lbRemap(lo, lo, hi, a, b) - a) > 1e-4f || lbAbsF(lbRemap(hi, lo, hi, a, b) - b) > 1e-4f)
				++bad;
			float mid = lbRemap(0.5f * (lo + hi), lo, hi, a, b);
			if (lbAbsF(mid - 0.5f * (a + b)) > 1e-4f)
				++bad;
		}
		float c = lbRemapClamped(x, lo, hi, a, b);
		if (c < lbMinF(a, b) - 1e-6f || c > lbMaxF(a, b) + 1e-6f)
			++bad, lbTestLastBad = __LINE__;
		// Interp-to never overshoots, converges monotonically, and is frame-rate independent.
		float dt = lbTestUniform(&r, 0.001f, 0.1f), speed = lbTestUniform(&r, 0.5f, 30.0f);
		float cur = lbInterpTo(a, b, dt, speed);
		if ((b - a) * (cur - a) < 0.0f || lbAbsF(cur - a) > lbAbsF(b - a) + 1e-6f)
			++bad, lbTestLastBad = __LINE__;
		float half1 = lbInterpTo(lbInterpTo(a, b, 0.5f * dt, speed), b, 0.5f * dt, speed);
		if (lbAbsF(half1 - cur) > 1e-4f)
			++bad, lbTestLastBad = __LINE__;
		float cst = lbInterpConstantTo(a, b, dt, speed);
		if (lbAbsF(cst - a) > speed * dt + 1e-5f || (b - a) * (cst - a) < 0.0f || lbAbsF(cst - a) > lbAbsF(b - a) + 1e-6f)
			++bad, lbTestLastBad = __LINE__;
		lbVec3 va = randVec(&r, 3), vb = randVec(&r, 3);
		lbVec3 vc = lbVInterpConstantTo(va, vb, dt, speed);
		if (lbDistance(vc, va) > speed * dt + 1e-4f || lbDistance(vc, vb) > lbDistance(va, vb) + 1e-5f)
			++bad, lbTestLastBad = __LINE__;
		lbQuat qa = randQuat(&r), qb = randQuat(&r);
		lbQuat qc = lbQInterpConstantTo(qa, qb, dt, speed);
		if (lbQuatAngleBetween(qa, qc) > speed * dt + 2e-3f)
			++bad, lbTestLastBad = __LINE__;
		// Smooth minimum: at most min, within k/4 of it, exactly min beyond the blend width.
		float k = lbTestUniform(&r, 0.01f, 1.0f);
		float sm = lbSmoothMinF(a, b, k);
		if (sm > lbMinF(a, b) + 1e-6f || sm < lbMinF(a, b) - 0.25f * k - 1e-6f)
			++bad, lbTestLastBad = __LINE__;
		if (lbAbsF(a - b) >= k && sm != lbMinF(a, b))
			++bad, lbTestLastBad = __LINE__;
		lbQuat qe = lbQInterpTo(qa, qb, dt, speed);
		if (lbQuatAngleBetween(qe, qb) > lbQuatAngleBetween(qa, qb) + 1e-3f)
			++bad, lbTestLastBad = __LINE__;
	}
	ENSURE(bad == 0);
	if (bad) printf("  last failing check at line %d (%d cases)\n", lbTestLastBad, bad);
	// dt <= 0 (and non-finite dt) returns the current value; speed <= 0 jumps to the target.
	ENSURE_NEAR(lbInterpTo(1.0f, 5.0f, 0.0f, 10.0f), 1.0f, 0.0f);
	ENSURE_NEAR(lbInterpTo(1.0f, 5.0f, -1.0f, 10.0f), 1.0f, 0.0f);
	ENSURE_NEAR(lbInterpTo(1.0f, 5.0f, NAN, 10.0f), 1.0f, 0.0f);
	ENSURE_NEAR(lbInterpConstantTo(1.0f, 5.0f, 0.0f, 10.0f), 1.0f, 0.0f);
	ENSURE_NEAR(lbInterpTo(1.0f, 5.0f, 0.1f, 0.0f), 5.0f, 0.0f);
	ENSURE_VEC3_NEAR(lbVInterpTo(lbVec3_axisX, lbVec3_axisY, -0.5f, 3.0f), lbVec3_axisX, 0.0f);
	ENSURE_VEC3_NEAR(lbVInterpConstantTo(lbVec3_axisX, lbVec3_axisY, 0.0f, 3.0f), lbVec3_axisX, 0.0f);
	lbQuat q0 = lbQuatFromAxisAngle(lbVec3_axisZ, 0.5f);
	ENSURE_QUAT_SAME_ROT(lbQInterpTo(q0, lbQuat_identity, 0.0f, 5.0f), q0, 0.0f);
	ENSURE_QUAT_SAME_ROT(lbQInterpConstantTo(q0, lbQuat_identity, -1.0f, 5.0f), q0, 0.0f);
	// Huge dt reaches the target without overshoot.
	ENSURE_NEAR(lbInterpTo(1.0f, 5.0f, 1.0e6f, 10.0f), 5.0f, 1e-5f);
	// Zero-width remap ranges give a step, not a division by zero.
	ENSURE_NEAR(lbRemap(0.5f, 1.0f, 1.0f, 0.0f, 1.0f), 0.0f, 0.0f);
	ENSURE_NEAR(lbRemap(1.5f, 1.0f, 1.0f, 0.0f, 1.0f), 1.0f, 0.0f);
	// The seed's reliability remap: 0.15..0.35 -> 0..1 clamped.
	ENSURE_NEAR(lbRemapClamped(0.25f, 0.15f, 0.35f, 0.0f, 1.0f), 0.5f, 1e-6f);
	ENSURE_NEAR(lbRemapClamped(0.05f, 0.15f, 0.35f, 0.0f, 1.0f), 0.0f, 0.0f);
	ENSURE_NEAR(lbClampF(NAN, 0.0f, 1.0f), 0.0f, 0.0f);
	// Smooth minimum across the meeting point: its slope in a goes from 1 to 0 without a jump
	// (each step changes it by at most 0.5 / k times the step), unlike the plain minimum's.
	{
		const float k = 0.2f, step = 1.0e-3f;
		float prevSlope = 1.0f, maxSlopeStep = 0.0f, plainMaxStep = 0.0f, prevPlain = 1.0f;
		for (int i = 0; i <= 600; ++i)
		{
			float a = -0.3f + (float)i * step;
			float slope = (lbSmoothMinF(a + 0.5f * step, 0.0f, k) - lbSmoothMinF(a - 0.5f * step, 0.0f, k)) / step;
			float plain = (lbMinF(a + 0.5f * step, 0.0f) - lbMinF(a - 0.5f * step, 0.0f)) / step;
			ENSURE(slope > -1e-2f && slope < 1.0f + 1e-2f);
			maxSlopeStep = lbMaxF(maxSlopeStep, lbAbsF(slope - prevSlope));
			plainMaxStep = lbMaxF(plainMaxStep, lbAbsF(plain - prevPlain));
			prevSlope = slope, prevPlain = plain;
		}
		ENSURE(maxSlopeStep < 0.5f / k * step + 0.02f);
		ENSURE(plainMaxStep > 0.4f);
	}
	// Smooth minimum where the two meet: min - k/4; zero width is the plain minimum.
	ENSURE_NEAR(lbSmoothMinF(2.0f, 2.0f, 0.4f), 1.9f, 1e-6f);
	ENSURE_NEAR(lbSmoothMinF(2.0f, 3.0f, 0.0f), 2.0f, 0.0f);
	ENSURE_NEAR(lbSmoothMinF(2.0f, 3.0f, -1.0f), 2.0f, 0.0f);
}

// Segment distance against a brute force over sampled points: the exact distance is never more than
// the sampled minimum, and no further below it than the sampling's spacing allows; segments of
// zero length (points), parallel and crossing ones among the cases; and the same either way round.
static void test_segment_distance(void)
{
	lbTestRng r = { 2026 };
	int bad = 0;
	enum { cases = 2000, steps = 64 };
	for (int i = 0; i < cases; ++i)
	{
		const lbVec3 p1 = randVec(&r, 1.0f), p2 = randVec(&r, 1.0f);
		lbVec3 d1 = randVec(&r, 1.0f), d2 = randVec(&r, 1.0f);
		const int kind = i % 5;
		if (kind == 1)
			d1 = lbVec3_zero;
		else if (kind == 2)
			d1 = d2 = lbVec3_zero;
		else if (kind == 3)
			d2 = lbMulSV(lbTestUniform(&r, -2.0f, 2.0f), d1); // parallel
		const float exact = lbSegmentDistance(p1, d1, p2, d2);
		float brute = 1.0e30f;
		for (int a = 0; a <= steps; ++a)
			for (int b = 0; b <= steps; ++b)
				brute = lbMinF(brute, lbDistance(lbMulAdd(p1, (float)a / steps, d1), lbMulAdd(p2, (float)b / steps, d2)));
		// Half a sample's spacing on each segment bounds how far the sampled minimum can lie above.
		const float slack = 0.5f * (lbLength(d1) + lbLength(d2)) / steps + 1.0e-5f;
		if (!(exact <= brute + 1.0e-5f && exact >= brute - slack))
			++bad, lbTestLastBad = __LINE__;
		if (lbAbsF(exact - lbSegmentDistance(p2, d2, p1, d1)) > 1.0e-5f)
			++bad, lbTestLastBad = __LINE__;
	}
	if (bad)
		printf("  segment distance: %d bad (last at line %d)\n", bad, lbTestLastBad);
	ENSURE(bad == 0);
	// Crossing segments touch; two points are their distance apart.
	ENSURE_NEAR(lbSegmentDistance(lbMakeVec3(-1, 0, 0), lbMakeVec3(2, 0, 0), lbMakeVec3(0, -1, 0), lbMakeVec3(0, 2, 0)), 0.0f, 1e-6f);
	ENSURE_NEAR(lbSegmentDistance(lbMakeVec3(0, 0, 0), lbVec3_zero, lbMakeVec3(3, 4, 0), lbVec3_zero), 5.0f, 1e-6f);
	// Beyond an end: the end is the closest point.
	ENSURE_NEAR(lbSegmentDistance(lbMakeVec3(0, 0, 0), lbMakeVec3(1, 0, 0), lbMakeVec3(3, 1, 0), lbMakeVec3(0, 1, 0)), sqrtf(5.0f), 1e-6f);
}

// Exponential interp-to lands on its target once the gap is under LB_SETTLE_GAP: eased toward zero
// over thousands of steps at every speed, a value (and each component of a vector, the others easing
// elsewhere) never passes through a denormal float and ends exactly on the target. Without the rule
// the tail went below 1e-38 and, at any speed under about 40 /s at 60 steps a second, stopped on the
// smallest denormal for good.
static void test_interp_to_settles_on_its_target(void)
{
	const float speeds[] = { 0.5f, 3.0f, 12.0f, 40.0f, 200.0f };
	const float starts[] = { 1.0f, -3.0f, 1.0e-20f, -2.0e-36f };
	for (size_t i = 0; i < sizeof speeds / sizeof speeds[0]; ++i)
		for (size_t j = 0; j < sizeof starts / sizeof starts[0]; ++j)
		{
			float x = starts[j];
			lbVec3 v = lbMakeVec3(starts[j], 5.0f, -starts[j]);
			int denormal = 0;
			for (int k = 0; k < 20000; ++k)
			{
				x = lbInterpTo(x, 0.0f, 1.0f / 60.0f, speeds[i]);
				v = lbVInterpTo(v, lbMakeVec3(0.0f, 5.0f, 0.0f), 1.0f / 60.0f, speeds[i]);
				denormal += (x != 0.0f && fabsf(x) < FLT_MIN) + (v.x != 0.0f && fabsf(v.x) < FLT_MIN) +
							(v.z != 0.0f && fabsf(v.z) < FLT_MIN);
			}
			ENSURE(denormal == 0);
			ENSURE(x == 0.0f && v.x == 0.0f && v.z == 0.0f && v.y == 5.0f);
		}
	// Far from its target the step is the exponential's, to the bit.
	const float a = 0.75f, b = -2.0f, dt = 1.0f / 60.0f, speed = 7.0f;
	ENSURE(lbInterpTo(a, b, dt, speed) == a + (b - a) * lbInterpAlpha(dt, speed));
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_normalize_and_length);
	RUN_TEST(test_vector_identities);
	RUN_TEST(test_quat_identities);
	RUN_TEST(test_from_to);
	RUN_TEST(test_slerp_nlerp);
	RUN_TEST(test_swing_twist);
	RUN_TEST(test_aim_and_make_rot);
	RUN_TEST(test_transforms);
	RUN_TEST(test_scalars_and_interp);
	RUN_TEST(test_interp_to_settles_on_its_target);
	RUN_TEST(test_segment_distance);
	TEST_MAIN_END();
}
