// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Out-of-line math: the operations too long to inline.
#include "limber/math.h"

#include <stddef.h>

lbQuat lbQuatSlerp(lbQuat a, lbQuat b, float t)
{
	float d = lbQuatDot(a, b);
	if (d < 0.0f)
	{
		b = lbQuatNeg(b);
		d = -d;
	}
	// Close rotations: sin(theta) is tiny and loses precision, while nlerp is exact to first order.
	// lbQuatNlerp's blend without its own dot product: b is already on a's side (negating b negates
	// each product and sum of the dot exactly, so nlerp's test would find d itself, not negative).
	if (d > 0.9995f)
		return lbQuatNormalize(LB_LITERAL(lbQuat){ a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t,
											   a.w + (b.w - a.w) * t });
	float theta = acosf(lbClampF(d, -1.0f, 1.0f));
	float s = sinf(theta);
	float wa = sinf((1.0f - t) * theta) / s, wb = sinf(t * theta) / s;
	lbQuat r = { wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w };
	return lbQuatNormalize(r);
}

float lbQuatToAxisAngle(lbQuat q, lbVec3* outAxis)
{
	q = lbQuatCanonical(lbQuatNormalize(q));
	lbVec3 v = { q.x, q.y, q.z };
	float s = lbLength(v);
	if (outAxis)
		*outAxis = s > 1.0e-7f ? lbMulSV(1.0f / s, v) : lbVec3_axisX;
	return 2.0f * atan2f(s, q.w);
}

lbQuat lbQuatFromTo(lbVec3 from, lbVec3 to)
{
	lbVec3 a = lbNormalize(from), b = lbNormalize(to);
	if (lbLengthSquared(a) == 0.0f || lbLengthSquared(b) == 0.0f)
		return lbQuat_identity;
	float d = lbDot(a, b);
	if (d < -0.999999f)
	{
		lbVec3 axis = lbAnyPerpendicular(a);
		return LB_LITERAL(lbQuat){ axis.x, axis.y, axis.z, 0.0f };
	}
	// Half-way quaternion: (a x b, 1 + a.b) normalized; stable for all but opposite vectors.
	lbVec3 c = lbCross(a, b);
	return lbQuatNormalize(LB_LITERAL(lbQuat){ c.x, c.y, c.z, 1.0f + d });
}

void lbQuatSwingTwist(lbQuat q, lbVec3 axis, lbQuat* outSwing, lbQuat* outTwist)
{
	lbVec3 a = lbNormalize(axis);
	q = lbQuatNormalize(q);
	lbQuat twist = lbQuat_identity;
	if (lbLengthSquared(a) > 0.0f)
	{
		// Twist is q's vector part projected on the axis, with q's scalar part.
		float p = q.x * a.x + q.y * a.y + q.z * a.z;
		lbQuat t = { a.x * p, a.y * p, a.z * p, q.w };
		float n = lbQuatDot(t, t);
		// A pure 180-degree swing leaves no twist information: choose identity.
		twist = n > 1.0e-12f ? lbQuatNormalize(t) : lbQuat_identity;
	}
	lbQuat swing = lbQuatMul(q, lbQuatConj(twist));
	if (outSwing)
		*outSwing = lbQuatCanonical(lbQuatNormalize(swing));
	if (outTwist)
		*outTwist = lbQuatCanonical(twist);
}

float lbQuatTwistAngle(lbQuat q, lbVec3 axis)
{
	lbQuat twist;
	lbVec3 a = lbNormalize(axis);
	lbQuatSwingTwist(q, a, NULL, &twist);
	float s = twist.x * a.x + twist.y * a.y + twist.z * a.z;
	return 2.0f * atan2f(s, twist.w);
}

lbQuat lbQuatFromBasis(lbVec3 x, lbVec3 y, lbVec3 z)
{
	// Re-orthonormalize (Gram-Schmidt with x first), keeping z's handedness only as a hint.
	x = lbNormalizeOr(x, lbVec3_axisX);
	y = lbNormalizeOr(lbProjectOnPlane(y, x), lbAnyPerpendicular(x));
	lbVec3 zc = lbCross(x, y);
	(void)z;
	z = zc;
	// Shepperd's method: pick the largest diagonal term for stability.
	float m00 = x.x, m11 = y.y, m22 = z.z;
	float tr = m00 + m11 + m22;
	lbQuat q;
	if (tr > 0.0f)
	{
		float s = sqrtf(tr + 1.0f) * 2.0f;
		q.w = 0.25f * s;
		q.x = (y.z - z.y) / s;
		q.y = (z.x - x.z) / s;
		q.z = (x.y - y.x) / s;
	}
	else if (m00 > m11 && m00 > m22)
	{
		float s = sqrtf(1.0f + m00 - m11 - m22) * 2.0f;
		q.w = (y.z - z.y) / s;
		q.x = 0.25f * s;
		q.y = (y.x + x.y) / s;
		q.z = (z.x + x.z) / s;
	}
	else if (m11 > m22)
	{
		float s = sqrtf(1.0f + m11 - m00 - m22) * 2.0f;
		q.w = (z.x - x.z) / s;
		q.x = (y.x + x.y) / s;
		q.y = 0.25f * s;
		q.z = (z.y + y.z) / s;
	}
	else
	{
		float s = sqrtf(1.0f + m22 - m00 - m11) * 2.0f;
		q.w = (x.y - y.x) / s;
		q.x = (z.x + x.z) / s;
		q.y = (z.y + y.z) / s;
		q.z = 0.25f * s;
	}
	return lbQuatNormalize(q);
}

lbQuat lbQuatMakeFromXY(lbVec3 x, lbVec3 y)
{
	x = lbNormalizeOr(x, lbVec3_axisX);
	y = lbNormalizeOr(lbProjectOnPlane(y, x), lbAnyPerpendicular(x));
	return lbQuatFromBasis(x, y, lbCross(x, y));
}

lbQuat lbQuatMakeFromZX(lbVec3 z, lbVec3 x)
{
	z = lbNormalizeOr(z, lbVec3_axisZ);
	x = lbNormalizeOr(lbProjectOnPlane(x, z), lbAnyPerpendicular(z));
	return lbQuatFromBasis(x, lbCross(z, x), z);
}

lbQuat lbQuatFromTwoAxes(lbVec3 primaryLocal, lbVec3 primaryTarget, lbVec3 secondaryLocal, lbVec3 secondaryTarget)
{
	return lbAimRotation(lbQuat_identity, primaryLocal, primaryTarget, secondaryLocal, secondaryTarget, 1.0f);
}

lbQuat lbAimRotation(lbQuat current, lbVec3 primaryLocal, lbVec3 primaryTarget, lbVec3 secondaryLocal,
					 lbVec3 secondaryTarget, float weight)
{
	current = lbQuatNormalize(current);
	if (!lbIsValidFloat(weight))
		return current;
	weight = lbClampF(weight, 0.0f, 1.0f);
	lbVec3 t = lbNormalize(primaryTarget);
	lbVec3 pa = lbNormalize(primaryLocal);
	if (lbLengthSquared(t) == 0.0f || lbLengthSquared(pa) == 0.0f)
		return current;
	// Swing the primary axis onto the target.
	lbVec3 p = lbQuatRotate(current, pa);
	lbQuat r = lbQuatMul(lbQuatFromTo(p, t), current);
	// Twist about the target so the secondary axis faces its target, both seen in the plane normal to t.
	lbVec3 sNow = lbProjectOnPlane(lbQuatRotate(r, lbNormalize(secondaryLocal)), t);
	lbVec3 sWant = lbProjectOnPlane(secondaryTarget, t);
	if (lbLength(sNow) > 1.0e-4f && lbLength(sWant) > 1.0e-4f)
	{
		sNow = lbNormalize(sNow);
		sWant = lbNormalize(sWant);
		float ang = atan2f(lbDot(t, lbCross(sNow, sWant)), lbDot(sNow, sWant));
		r = lbQuatMul(lbQuatFromAxisAngle(t, ang), r);
	}
	r = lbQuatNormalize(r);
	if (weight >= 1.0f)
		return r;
	return lbQuatSlerp(current, r, weight);
}

lbQuat lbQInterpTo(lbQuat current, lbQuat target, float dt, float speed)
{
	if (!(dt > 0.0f) || !lbIsValidFloat(dt))
		return current;
	return lbQuatSlerp(current, target, lbInterpAlpha(dt, speed));
}

lbQuat lbQInterpConstantTo(lbQuat current, lbQuat target, float dt, float speed)
{
	if (!(dt > 0.0f) || !lbIsValidFloat(dt))
		return current;
	if (!(speed > 0.0f))
		return target;
	float angle = lbQuatAngleBetween(current, target);
	float step = speed * dt;
	if (angle <= step || angle < 1.0e-7f)
		return target;
	return lbQuatSlerp(current, target, step / angle);
}
