// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Analytic two-bone IK. The mid joint is a hinge: it turns about its hinge axis until the root-end
// distance equals the (softened, stretched, clamped) target distance; this is the law of cosines
// generalised to bones that are not normal to the hinge, as in the hinge-axis formulation of
// ozz-animation's IKTwoBoneJob and of Tolani, Goswami and Badler, "Real-time inverse kinematics
// techniques for anthropomorphic limbs" (Graphical Models 62, 2000). The root then swings the
// chain onto the target and turns it about the root-target line (the swivel angle of Tolani et
// al.) so the mid joint faces the pole. Soft IK (approaching full extension along an exponential
// instead of snapping straight) follows Andy Nicholas, "Soft IK" (2009).
#include "core/bits.h"
#include "ik_internal.h"

#include <float.h>
#include <stddef.h>

lbTwoBoneIkInput lbDefaultTwoBoneIkInput(void)
{
	lbTwoBoneIkInput in;
	in.targetMs = lbVec3_zero;
	in.targetRotationMs = lbQuat_identity;
	in.useTargetRotation = false;
	in.poleKind = lb_poleNone;
	in.poleMs = lbVec3_zero;
	in.hingeAxisMs = lbVec3_zero;
	in.bendHintMs = lbVec3_zero;
	in.weight = 1.0f;
	in.soften = 0.0f;
	in.stretch = false;
	in.maxStretch = 1.1f;
	in.tolerance = 1.0e-4f;
	in.internalValue = LB_SECRET_COOKIE;
	return in;
}

// The input's numbers (target, pole, hinge axis, bend hint, weight, soften, maxStretch,
// tolerance) are all finite. With SSE2, x * 0 is 0 for finite x and NaN for inf or NaN, so one sum
// of such products over the loads below is NaN exactly when one of them is not finite.
static inline bool lbTwoBoneInputFinite(const lbTwoBoneIkInput* in)
{
#if LB_IK_SSE2
	const __m128 zero = _mm_setzero_ps();
	const __m128 lanes012 = _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1)); // the target, not the rotation's x
	const __m128 lanes023 = _mm_castsi128_ps(_mm_set_epi32(-1, -1, 0, -1)); // soften, maxStretch, tolerance
	__m128 acc = _mm_mul_ps(_mm_and_ps(lbIkLoad4(&in->targetMs.x), lanes012), zero);
	acc = _mm_add_ps(acc, _mm_mul_ps(lbIkLoad4(&in->poleMs.x), zero)); // pole .. soften: 11 floats
	acc = _mm_add_ps(acc, _mm_mul_ps(lbIkLoad4(&in->poleMs.x + 4), zero));
	acc = _mm_add_ps(acc, _mm_mul_ps(lbIkLoad4(&in->poleMs.x + 7), zero));
	acc = _mm_add_ps(acc, _mm_mul_ps(_mm_and_ps(lbIkLoad4(&in->soften), lanes023), zero));
	return _mm_movemask_ps(_mm_cmpunord_ps(acc, acc)) == 0;
#else
	float probe = lbIkFiniteProbe3(in->targetMs) + lbIkFiniteProbe3(in->poleMs) + lbIkFiniteProbe3(in->hingeAxisMs) +
				  lbIkFiniteProbe3(in->bendHintMs) + (in->weight - in->weight) + (in->soften - in->soften) +
				  (in->maxStretch - in->maxStretch) + (in->tolerance - in->tolerance);
	return probe == 0.0f;
#endif
}

static lbResult lbCheckTwoBoneInput(const char* fn, const lbTwoBoneIkInput* in)
{
	if (!in)
		return lbReport(lb_errorNullPointer, "%s: input is NULL", fn);
	if (in->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: input not initialised with lbDefaultTwoBoneIkInput()", fn);
	// One branch for the common case: every number finite.
	if (lbTwoBoneInputFinite(in) && (unsigned)in->poleKind <= (unsigned)lb_poleDirection)
	{
		if (!in->useTargetRotation)
			return lb_ok;
		// lbIsValidQuat's test: a non-finite component makes the norm inf or NaN, which fails it.
		const lbQuat q = in->targetRotationMs;
		const float n = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
		if (n > 0.98f && n < 1.02f)
			return lb_ok;
	}
	if (!lbIsValidVec3(in->targetMs))
		return lbReport(lb_errorNonFinite, "%s: non-finite target", fn);
	if (in->useTargetRotation && !lbIsValidQuat(in->targetRotationMs))
		return lbReport(lb_errorNonFinite, "%s: non-finite or non-unit target rotation", fn);
	if (in->poleKind != lb_poleNone && in->poleKind != lb_poleLocation && in->poleKind != lb_poleDirection)
		return lbReport(lb_errorInvalidArgument, "%s: unknown pole kind %d", fn, (int)in->poleKind);
	if (in->poleKind != lb_poleNone && !lbIsValidVec3(in->poleMs))
		return lbReport(lb_errorNonFinite, "%s: non-finite pole", fn);
	if (!lbIsValidVec3(in->hingeAxisMs) || !lbIsValidVec3(in->bendHintMs))
		return lbReport(lb_errorNonFinite, "%s: non-finite hinge axis or bend hint", fn);
	if (!lbIsValidFloat(in->weight) || !lbIsValidFloat(in->soften) || !lbIsValidFloat(in->maxStretch) ||
		!lbIsValidFloat(in->tolerance))
		return lbReport(lb_errorNonFinite, "%s: non-finite weight, soften, maxStretch or tolerance", fn);
	return lb_ok;
}

// The rotation taking the orthonormal frame (f0a, f0b, f0c) to (f1a, f1b, f1c), R = sum f1 f0^T,
// as three columns of four floats (column c, row r at mc[4 c + r]; the fourth lane unused).
static inline void lbTwoBoneFrameRotation(lbIkV f0a, lbIkV f0b, lbIkV f0c, lbIkV f1a, lbIkV f1b, lbIkV f1c, float mc[12])
{
#if LB_IK_SSE2
	// Lane r of column j: f1a[r] f0a[j] + f1b[r] f0b[j] + f1c[r] f0c[j], summed in that order.
#define LB_TWO_BONE_COLUMN(j)                                                                                          \
	_mm_storeu_ps(mc + 4 * (j),                                                                                        \
				  _mm_add_ps(_mm_add_ps(_mm_mul_ps(f1a, LB_IK_SWIZZLE(f0a, _MM_SHUFFLE(j, j, j, j))),                  \
										_mm_mul_ps(f1b, LB_IK_SWIZZLE(f0b, _MM_SHUFFLE(j, j, j, j)))),                 \
							 _mm_mul_ps(f1c, LB_IK_SWIZZLE(f0c, _MM_SHUFFLE(j, j, j, j)))))
	LB_TWO_BONE_COLUMN(0);
	LB_TWO_BONE_COLUMN(1);
	LB_TWO_BONE_COLUMN(2);
#undef LB_TWO_BONE_COLUMN
#else
	for (int j = 0; j < 3; ++j)
		for (int r = 0; r < 3; ++r)
			mc[4 * j + r] = (&f1a.x)[r] * (&f0a.x)[j] + (&f1b.x)[r] * (&f0b.x)[j] + (&f1c.x)[r] * (&f0c.x)[j];
#endif
}

// R v for R from lbTwoBoneFrameRotation.
static inline lbIkV lbTwoBoneFrameRotate(const float mc[12], lbIkV v)
{
#if LB_IK_SSE2
	return _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_loadu_ps(mc), LB_IK_SWIZZLE(v, _MM_SHUFFLE(0, 0, 0, 0))),
								 _mm_mul_ps(_mm_loadu_ps(mc + 4), LB_IK_SWIZZLE(v, _MM_SHUFFLE(1, 1, 1, 1)))),
					  _mm_mul_ps(_mm_loadu_ps(mc + 8), LB_IK_SWIZZLE(v, _MM_SHUFFLE(2, 2, 2, 2))));
#else
	return LB_LITERAL(lbVec3){ mc[0] * v.x + mc[4] * v.y + mc[8] * v.z, mc[1] * v.x + mc[5] * v.y + mc[9] * v.z,
							   mc[2] * v.x + mc[6] * v.y + mc[10] * v.z };
#endif
}

// lbIkQuatFromMatrixScaled on the columns of lbTwoBoneFrameRotation (m[3 r + c] is mc[4 c + r]).
static inline lbIkQ lbTwoBoneQuatFromColumns(const float mc[12], float* big)
{
	const float m00 = mc[0], m11 = mc[5], m22 = mc[10], tr = m00 + m11 + m22;
	lbQuat q;
	if (tr > 0.0f)
	{
		*big = 1.0f + tr;
		q = LB_LITERAL(lbQuat){ mc[6] - mc[9], mc[8] - mc[2], mc[1] - mc[4], *big };
	}
	else if (m00 >= m11 && m00 >= m22)
	{
		*big = 1.0f + m00 - m11 - m22;
		q = LB_LITERAL(lbQuat){ *big, mc[4] + mc[1], mc[8] + mc[2], mc[6] - mc[9] };
	}
	else if (m11 >= m22)
	{
		*big = 1.0f + m11 - m00 - m22;
		q = LB_LITERAL(lbQuat){ mc[4] + mc[1], *big, mc[9] + mc[6], mc[8] - mc[2] };
	}
	else
	{
		*big = 1.0f + m22 - m00 - m11;
		q = LB_LITERAL(lbQuat){ mc[8] + mc[2], mc[9] + mc[6], *big, mc[1] - mc[4] };
	}
	return lbIkQSet(q);
}

// Stores a solved position and rotation (the position first: with SSE2 its fourth lane lands on
// the rotation's x, which the second store writes).
static inline void lbTwoBoneStorePQ(lbTransform* t, lbIkV p, lbIkQ q)
{
#if LB_IK_SSE2
	_mm_storeu_ps(&t->p.x, p);
	_mm_storeu_ps(&t->q.x, q);
#else
	t->p = p;
	t->q = q;
#endif
}

// The first three lanes of a quaternion as a vector, and its w.
static inline lbIkV lbTwoBoneQVec(lbIkQ q)
{
#if LB_IK_SSE2
	return q;
#else
	return LB_LITERAL(lbVec3){ q.x, q.y, q.z };
#endif
}

static inline float lbTwoBoneQW(lbIkQ q)
{
#if LB_IK_SSE2
	return _mm_cvtss_f32(_mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 3, 3, 3)));
#else
	return q.w;
#endif
}

// The target as a vector: with SSE2 four single loads (a caller's fields written just before the
// call, see lbIkLoad4).
static inline lbIkV lbTwoBoneTarget(const lbTwoBoneIkInput* in)
{
#if LB_IK_SSE2
	return lbIkLoad4(&in->targetMs.x);
#else
	return in->targetMs;
#endif
}

// The solved rotations and positions of the joints that move.
typedef struct lbTwoBoneTurns
{
	lbIkQ rootQ, midQ, endQ;
	lbIkV midP, endP;
} lbTwoBoneTurns;

// The turns applied where the solve is not the full-weight one with the root's frame matrix (a
// weight under one, or the swing-and-twist root): out of line, so that the common path's products
// are not shared with these (the compiler would make them once before the branch and keep them on
// the stack). qRoot and qMid unit; endLen the solved root-end distance (k len).
static LB_NOINLINE void lbTwoBoneApplyTurns(lbTwoBoneTurns* out, lbIkQ qRoot, lbIkQ qMid, float weight, float kw,
													 float endLen, lbIkV a, lbIkV w, lbIkV v, lbIkV axis,
													 const float inv[4], lbIkQ rootQ0, lbIkQ midQ0, lbIkQ endQ0)
{
	const lbIkQ qr = weight >= 1.0f ? qRoot : lbIkQSet(lbIkScaleRotation(lbIkQGet(qRoot), weight));
	const lbIkQ qm = weight >= 1.0f ? qMid : lbIkQSet(lbIkScaleRotation(lbIkQGet(qMid), weight));
	const lbIkQLeft byRoot = lbIkQLeftOf(qr);
	const lbIkQ qChain = lbIkQMulLeft(&byRoot, qm);
	const lbIkQLeft byChain = lbIkQLeftOf(qChain);
	out->rootQ = lbIkQScale(lbIkQMulLeft(&byRoot, rootQ0), inv[0]);
	out->midP = lbIkVMulAdd(a, kw, lbIkQRotate(qr, w));
	out->midQ = lbIkQScale(lbIkQMulLeft(&byChain, midQ0), inv[1]);
	if (weight >= 1.0f)
		out->endP = lbIkVMulAdd(a, endLen, axis);
	else
		out->endP = lbIkVAdd(out->midP, lbIkQRotate(qChain, lbIkVScale(kw, v)));
	out->endQ = lbIkQScale(lbIkQMulLeft(&byChain, endQ0), inv[2]);
}

// The solve proper, on checked input. Writes the three transforms and, when res is not NULL, the
// outcome; returns lb_ok (so that the single solve's fast path ends in a tail call). qNorms: the
// joints' squared rotation norms in [0..2] when the caller's checks have them, else NULL.
static LB_ALWAYS_INLINE lbResult lbTwoBoneCoreInline(lbTransform* root, lbTransform* mid, lbTransform* end,
																 const lbTwoBoneIkInput* in, lbIkResult* res,
																 const float* qNorms, const float* bone2)
{
	const lbIkV a = lbIkVLoad(&root->p), midP0 = lbIkVLoad(&mid->p);
	const lbIkV w = lbIkVSub(midP0, a);                    // upper bone
	const lbIkV v = lbIkVSub(lbIkVLoad(&end->p), midP0); // lower bone
	const float weight = lbClampF(in->weight, 0.0f, 1.0f);
	const float soften = lbClampF(in->soften, 0.0f, 0.5f);

	// Pole direction seen from the root (zero when none).
	lbIkV poleDir = lbIkVZero();
	if (in->poleKind == lb_poleLocation)
		poleDir = lbIkVSub(lbIkVLoad(&in->poleMs), a);
	else if (in->poleKind == lb_poleDirection)
		poleDir = lbIkVLoad(&in->poleMs);
	// Only the pole's direction is used, and its length is squared: a finite pole far past any rig
	// (1e15 m or more) would overflow to infinity there, so such a pole is brought near unit length.
	lbIkF1 ppv = lbIkVDot1(poleDir, poleDir);
	if (!(lbIkF1Get(ppv) < 1.0e30f))
	{
		poleDir = lbIkVSet(lbIkFarDirection(in->poleMs, in->poleKind == lb_poleLocation ? root->p : lbVec3_zero, 1.0f));
		ppv = lbIkVDot1(poleDir, poleDir);
	}
	const float pp = lbIkF1Get(ppv);
	// Hinge axis: given, else from the current bend, else from the pole, hint or any perpendicular.
	// A hinge from the bones (bent or straight) is normal to both, which skips the projections
	// below; bent and straight starts then share every step but the choice of the hinge's vector.
	// A given hinge is normalised as lbNormalize does it; one too short for that counts as none.
	const lbIkV g = lbIkVLoad(&in->hingeAxisMs);
	lbIkV h = g;
	bool normal = true;
	// w's lanes turned to (y, z, x), made once for the bend's w x v and a straight start's w x p.
	const lbIkV wYzx = lbIkVYzx(w);
	const lbIkV c = lbIkVCrossYzx(w, wYzx, v);
	// The squared bone lengths: the joint checks' own sums when they made them (the same bits).
	const lbIkF1 cc1 = lbIkVDot1(c, c);
	const float cc = lbIkF1Get(cc1), ww = bone2 ? bone2[0] : lbIkVDot(w, w), vv = bone2 ? bone2[1] : lbIkVDot(v, v);
	// A hinge with a component not zero: its squared length is worked out only then (a zero hinge,
	// the usual case, is none).
	if (lbIkVAnyNonZero(g))
	{
		const float gl = lbIkSqrt1(lbIkVDot1(g, g));
		if (gl > LB_EPSILON && lbIsValidFloat(gl))
		{
			h = lbIkVScale(1.0f / gl, g);
			normal = false;
		}
	}
	if (normal && cc > 1.0e-8f * ww * vv)
		h = lbIkVScale(lbIkRsqrt1(cc1), c); // a bent start: the bend's normal
	else if (normal)
	{
		// Straight limb: bending toward n (the pole, else the bend hint, made normal to w) means
		// the hinge is n x w (see lbHumanoid's derivation). The part of the pole along w drops out
		// of the cross product, so n x w is the pole's own p x w: no projection (made from the w
		// lanes turned for the bend's cross product).
		lbIkV hv = lbIkVCrossYzxRight(w, wYzx, poleDir);
		lbIkF1 hh = lbIkVDot1(hv, hv); // |n|^2 |w|^2
		// A pole within 0.06 degrees of the bone, or too short to normalise, says nothing.
		if (!(lbIkF1Get(hh) > lbIkMaxScaled1(ppv, 1.0e-6f, LB_EPSILON * LB_EPSILON) * ww))
		{
			// Only the hint's direction counts: one far past any rig (1e15 m or more) is brought
			// near unit length first, as a far pole is (its cross product with the bone overflowed
			// to infinity and the hinge came out NaN).
			lbVec3 hint = in->bendHintMs;
			if (!(lbDot(hint, hint) < 1.0e30f))
				hint = lbIkFarDirection(hint, lbVec3_zero, 1.0f);
			hv = lbIkVCross(lbIkVSet(hint), w);
			hh = lbIkVDot1(hv, hv);
			if (!(lbIkF1Get(hh) > LB_EPSILON * LB_EPSILON * ww))
			{
				const lbVec3 w3 = lbIkVGet(w), any = lbAnyPerpendicular(w3);
				hv = lbIkVSet(lbNormalizeOr(lbCross(any, w3), any));
				hh = lbIkVDot1(hv, hv);
			}
		}
		// A bone of up to 1e9 m and a pole or hint of up to 1e15 m make a finite normal whose square
		// overflows: it is brought near unit length by its largest component first. (hh is never
		// NaN: finite vectors' products are finite or infinite. hh > FLT_MAX compares with the
		// constant where it lies, !(hh <= FLT_MAX) loaded it first.)
		if (lbIkF1Get(hh) > FLT_MAX)
		{
			const lbVec3 h3 = lbIkVGet(hv);
			hv = lbIkVScale(1.0f / lbMaxF(lbMaxF(fabsf(h3.x), fabsf(h3.y)), fabsf(h3.z)), hv);
			hh = lbIkVDot1(hv, hv);
		}
		h = lbIkVScale(lbIkRsqrt1(hh), hv);
	}

	// Target direction; a target at the root keeps the current root-end direction. A finite target
	// far past any rig (1e15 m or more) would overflow its squared distance; it is out of reach, so
	// it is solved as the point in the same direction 1e16 m out.
	lbIkV toTarget = lbIkVSub(lbTwoBoneTarget(in), a);
	lbIkF1 dist2v = lbIkVDot1(toTarget, toTarget);
	if (!(lbIkF1Get(dist2v) < 1.0e30f))
	{
		toTarget = lbIkVSet(lbIkFarDirection(in->targetMs, root->p, 1.0e16f));
		dist2v = lbIkVDot1(toTarget, toTarget);
	}
	const float dist2 = lbIkF1Get(dist2v), dist = lbIkSqrt1(dist2v);
	const float invDist = dist > 1.0e-6f ? 1.0f / dist : 0.0f;
	lbIkV axis;
	if (dist > 1.0e-6f)
		axis = lbIkVScale(invDist, toTarget);
	else
	{
		const lbVec3 w3 = lbIkVGet(w);
		axis = lbIkVSet(lbNormalizeOr(lbAdd(w3, lbIkVGet(v)), lbNormalizeOr(w3, lbVec3_axisX)));
	}

	// Hinge geometry: |w + R(theta) v|^2 = base + cross2 cos(theta + current bend): only the parts
	// of the bones normal to h depend on theta. (cos0, sin0) is the current bend about h.
	float base, cross2, cos0 = 1.0f, sin0 = 0.0f;
	if (normal)
	{
		// Both bones are normal to h (a straight start's to within the straightness test, 1e-4 rad,
		// so their parts along h change |w + R v| by under 1e-8 of it). The cross term takes the
		// correctly rounded root (near full reach the bend's sine magnifies its error); the current
		// bend's cosine and sine only the reciprocal root.
		const float wv = lbIkSqrtF(ww * vv), invWv = lbIkRsqrtF(ww * vv);
		base = ww + vv;
		cross2 = 2.0f * wv;
		cos0 = lbIkVDot(w, v) * invWv;
		sin0 = lbIkVDot(h, c) * invWv;
	}
	else
	{
		const lbIkV vPar = lbIkVScale(lbIkVDot(v, h), h);
		const lbIkV vPerp = lbIkVSub(v, vPar);
		const lbIkV wPerp = lbIkVMulAdd(w, -lbIkVDot(w, h), h);
		const lbIkV wvp = lbIkVAdd(w, vPar);
		base = lbIkVDot(wvp, wvp) + lbIkVDot(vPerp, vPerp);
		cross2 = 2.0f * lbIkSqrtF(lbIkVDot(wPerp, wPerp) * lbIkVDot(vPerp, vPerp));
		if (cross2 > 1.0e-12f)
		{
			float inv = 2.0f / cross2;
			cos0 = lbIkVDot(wPerp, vPerp) * inv;
			sin0 = lbIkVDot(h, lbIkVCross(wPerp, vPerp)) * inv;
		}
	}

	// Soften and stretch the target distance (squared from here on).
	// The squared distance straight from the target keeps the square root off the bend's path.
	float dSolve2 = dist2, dSolve = dist, k = 1.0f;
	if (soften > 0.0f || in->stretch)
	{
		const float dMax = lbIkSqrtF(base + cross2);
		float dReach = dist;
		if (soften > 0.0f)
		{
			float band = soften * dMax, start = dMax - band;
			// A soften so small that the band rounds to zero softens nothing (and must not divide).
			if (dist > start && band > 0.0f)
				dReach = start + band * (1.0f - expf(-(dist - start) / band));
		}
		// Stretch covers what softening and full extension leave (Nicholas: scale by d / dSoft).
		dReach = lbMinF(dReach, dMax);
		if (in->stretch && dReach < dist && dReach > 1.0e-6f)
			k = lbMinF(dist / dReach, lbMaxF(in->maxStretch, 1.0f));
		dSolve2 = dReach * dReach;
		dSolve = dReach;
	}

	// Bend (0 = straight, positive = the hinge's way) giving that distance, as (cos, sin); the mid
	// joint turns by the difference. The clamp is the reach limit (straight or fully folded).
	float cos1 = 1.0f;
	bool inReach = false;
	if (cross2 > 1.0e-12f)
	{
		const float c1 = (dSolve2 - base) / cross2; // a true division: exactly 1 at full reach
		cos1 = lbClampF(c1, -1.0f, 1.0f);
		inReach = c1 > -1.0f && c1 < 1.0f;
	}
	const float sin1 = lbIkSqrtF(lbMaxF(1.0f - cos1 * cos1, 0.0f));
	// Solved root-end length: |w + vBent| from the law of cosines, known before vBent; within reach
	// that is the solve distance itself (base + cos1 cross2 = dSolve2), known earlier still.
	float len2, len, invLen;
	if (inReach && dSolve > 1.0e-6f)
	{
		len2 = dSolve2;
		len = dSolve;
		invLen = dSolve2 > 0.0625f * base ? (dSolve == dist ? invDist : 1.0f / dSolve) : 0.0f;
	}
	else
	{
		len2 = lbMaxF(base + cos1 * cross2, 0.0f);
		len = lbIkSqrtF(len2);
		invLen = len2 > 0.0625f * base ? 1.0f / len : 0.0f;
	}
	const float cosD = lbClampF(cos1 * cos0 + sin1 * sin0, -1.0f, 1.0f);
	const float sinD = sin1 * cos0 - cos1 * sin0;
	// (h sin D, 1 + cos D) is the half-angle rotation up to scale; accurate for small turns.
	lbIkQ pMid, qMid; // qMid up to scale, and qMid
	if (cosD > -0.99f)
	{
		pMid = lbIkQFromVW(lbIkVScale(sinD, h), 1.0f + cosD);
		qMid = lbIkQScale(pMid, lbIkRsqrt1(lbIkQDot1(pMid, pMid)));
	}
	else
	{
		float hs = lbIkSqrtF(0.5f * (1.0f - cosD)) * (sinD < 0.0f ? -1.0f : 1.0f);
		pMid = lbIkQFromVW(lbIkVScale(hs, h), lbIkSqrtF(0.5f * (1.0f + cosD)));
		qMid = lbIkQSet(lbQuatNormalize(lbIkQGet(pMid)));
	}
	// The lower bone bent by D: Rodrigues' formula from (cos D, sin D) away from a half turn, which
	// keeps the normalisation's square root and any division off this path; near a half turn
	// (where the clamped cos D and sin D need not agree) by the mid rotation itself, so that the
	// positions below match the rotations: v' = v + 2 (w (p x v) + p x (p x v)) / |p|^2.
	lbIkV vBent;
	if (cosD > -0.99f)
	{
		const lbIkV hxv = lbIkVCross(h, v);
		vBent = lbIkVMulAdd(lbIkVScale(cosD, v), sinD, hxv);
		// A hinge from the bones is normal to them; a straight start's is normal to both to within
		// the straightness test, as the hinge geometry above takes it.
		if (!normal)
			vBent = lbIkVMulAdd(vBent, (1.0f - cosD) * lbIkVDot(h, v), h);
	}
	else
	{
		const lbIkV pv = lbTwoBoneQVec(pMid);
		const lbIkV pxv = lbIkVCross(pv, v);
		vBent = lbIkVMulAdd(v, 2.0f / lbIkQDot(pMid, pMid), lbIkVMulAdd(lbIkVCross(pv, pxv), lbTwoBoneQW(pMid), pxv));
	}

	// Root rotation: swing the root so the end lies on the target line, then swivel about that
	// line so the mid joint faces the pole. The knee direction is read from the hinge (chain
	// direction x hinge), which stays defined when the limb is straight.
	const lbIkV s = lbIkVAdd(w, vBent);
	// A limb folded nearly shut: the law of cosines subtracts nearly equal squares there, and an
	// end placed at its length along the target line moved the end off the lower bone (by 5e-4 of
	// its length on bones of about one length); the bent chain's own length keeps both bones.
	// A target at the root folds the limb where it stands: the chain keeps its bent direction. Taken
	// from the bones before the bend (w + v), that direction of a chain folded back on itself is the
	// bones' small difference, and the swing onto it (up to 1e-4 rad of rounding) moved the end off
	// the lower bone by 3.7e-4 of its length.
	const bool folded = !(invLen > 0.0f), atRoot = !(dist > 1.0e-6f);
	if (folded || atRoot)
	{
		const float sLen2 = lbIkVDot(s, s);
		if (folded)
		{
			len2 = sLen2;
			len = lbIkSqrtF(sLen2);
		}
		if (atRoot && sLen2 > 0.0f)
			axis = lbIkVScale(1.0f / lbIkSqrtF(sLen2), s);
	}
	lbIkQ qRoot = lbIkQSet(lbQuat_identity), pRoot = qRoot; // pRoot: qRoot up to scale when haveMatrix
	float pRootBig = 1.0f; // |pRoot|^2 / 4 when haveMatrix
	float mc[12]; // the same rotation as a matrix (columns, see lbTwoBoneFrameRotation) when set
	bool haveMatrix = false;
	lbIkV pPerp = lbIkVZero();
	float pPerp2 = 0.0f; // |pPerp|^2; sin^2 of the pole's angle to the target line is pPerp2 / pp
	if (pp > 0.0f)
	{
		pPerp = lbIkVMulAdd(poleDir, -lbIkVDot(poleDir, axis), axis);
		const lbIkF1 pPerp2v = lbIkVDot1(pPerp, pPerp);
		pPerp2 = lbIkF1Get(pPerp2v);
		// |s|^2 is len2 (up to rounding where invLen is not 0; it is |s|^2 where it is).
		const float ss = len2;
		if (pPerp2 >= 0.0025f * pp && ss > 1.0e-12f * (ww + vv))
		{
			// The rotation takes the orthonormal frame (chain direction, knee, third) to (target
			// line, pole normal to it, third): one matrix and one quaternion extraction, where a
			// swing followed by a twist needs two quaternions, a rotation and a product.
			// The closed-form length, unless cancellation (a nearly folded limb) makes it rough.
			lbIkV u = lbIkVScale(invLen > 0.0f ? invLen : 1.0f / lbIkSqrtF(ss), s);
			// The closed-form length can disagree with the bent chain's own (a softened target on
			// a limb folded nearly flat): a u off unit length made the frame, and the rotations
			// taken from it, not orthonormal (a root rotation of norm 0.89, the mid joint thrown
			// 2.2 times its bone's length).
			const float uu = lbIkVDot(u, u);
			// fabsf clears the sign bit (lbAbsF branches on it, which the sign of uu - 1 leaves to chance).
			if (!(fabsf(uu - 1.0f) <= 1.0e-4f))
				u = lbIkVScale(1.0f / lbIkSqrtF(lbIkVDot(s, s)), s);
			lbIkV k0 = lbIkVCross(u, h);
			// With the hinge from the bones, h is normal to u (both bones and so s are normal to
			// it): k0 is unit and u x k0 = -h. A straight start's hinge is normal to the chain too
			// (to 1e-4 rad, which leaves k0's length within 1e-8 of one). Not so for a limb folded
			// nearly shut (invLen 0): s is then the bones' small difference, whose direction
			// rounding sets, and the frame built on -h was not orthonormal (a root rotation of
			// norm 0.92, the end 5e-4 of the bone off it); there k0 is made unit and the third
			// vector is u x k0.
			const bool unitK = normal && invLen > 0.0f;
			const float kk = unitK ? 1.0f : lbIkVDot(k0, k0);
			if (kk > 1.0e-12f)
			{
				if (!unitK)
					k0 = lbIkVScale(1.0f / lbIkSqrtF(kk), k0);
				const lbIkV kF = lbIkVScale(lbIkRsqrt1(pPerp2v), pPerp);
				const lbIkV b0 = unitK ? lbIkVNeg(h) : lbIkVCross(u, k0), bF = lbIkVCross(axis, kF);
				lbTwoBoneFrameRotation(u, k0, b0, axis, kF, bF, mc);
				pRoot = lbTwoBoneQuatFromColumns(mc, &pRootBig);
				haveMatrix = true;
			}
		}
	}
	if (!haveMatrix)
	{
		const lbVec3 s3 = lbIkVGet(s), axis3 = lbIkVGet(axis);
		const lbQuat qSwing = lbIkFromTo(s3, axis3);
		qRoot = lbIkQSet(qSwing);
		if (pp > 0.0f)
		{
			const float sin2 = pPerp2 / pp;
			const lbVec3 pPerp3 = lbIkVGet(pPerp);
			lbVec3 kneeDir = lbCross(axis3, lbQuatRotate(qSwing, lbIkVGet(h)));
			if (sin2 > 1.0e-8f && lbDot(kneeDir, kneeDir) > 1.0e-12f)
			{
				// Turn about the axis taking kneeDir to pPerp (both normal to it), from the sine
				// and cosine of the angle with the half-angle identities; exact up to a half turn.
				float ab = lbIkSqrtF(lbDot(kneeDir, kneeDir) * lbDot(pPerp3, pPerp3));
				float cs = lbDot(kneeDir, pPerp3), sn = lbDot(axis3, lbCross(kneeDir, pPerp3));
				lbQuat qTwist;
				if (sin2 < 0.0025f)
				{
					// A pole close to the target line says little about the plane: fade it in
					// (below 3 degrees) so crossing near the line turns the limb smoothly instead
					// of flipping.
					float fade = lbSmoothStep(lbIkSqrtF(sin2) / 0.05f);
					qTwist = lbQuatFromAxisAngle(axis3, fade * atan2f(sn, cs));
				}
				else if (cs >= 0.0f)
					qTwist = lbIkQuatNormalizeNonZero(LB_LITERAL(lbQuat){ axis3.x * sn, axis3.y * sn, axis3.z * sn, ab + cs });
				else
				{
					float f = ab - cs;
					qTwist = lbIkQuatNormalizeNonZero(LB_LITERAL(lbQuat){ axis3.x * f, axis3.y * f, axis3.z * f, sn });
				}
				qRoot = lbIkQMul(lbIkQSet(qTwist), qRoot);
			}
		}
	}

	// Apply with weight. Every rotation written is a product of unit turns with an input rotation,
	// scaled by 1 / |input| (one four-lane root and division for the three, off the solve's
	// dependency chain): unit to rounding even when the input rotations were a little off. A
	// rotation that is not unit scales what it turns by its squared norm, and poses solved over and
	// over (a solver called every frame on its own output, passes repeated within a frame) would
	// otherwise grow their bones by that much each time.
	float inv[4];
	if (qNorms)
		lbIkInvSqrt3(qNorms, inv);
	else
		lbIkQuatInvNorm3(&root->q, &mid->q, &end->q, inv);
	const float kw = lbLerpF(1.0f, k, weight);
	// The input rotations are read here, not held through the solve.
	const lbIkQ rootQ0 = lbIkQLoad(&root->q), midQ0 = lbIkQLoad(&mid->q), endQ0 = lbIkQLoad(&end->q);
	lbIkQ rootQ, midQ, endQ;
	lbIkV midP, endP;
	if (haveMatrix && weight >= 1.0f)
	{
		// Full weight: the products use the root rotation up to scale and are scaled once at the
		// end, so its normalisation runs alongside them, from Shepperd's diagonal entry (|pRoot|^2 =
		// 4 big for an orthonormal frame), long before pRoot itself. The chain's turn (root times
		// mid) is one product shared by the mid and end rotations.
		const float invRoot = 0.5f * lbIkRsqrtF(pRootBig);
		const lbIkQLeft byRoot = lbIkQLeftOf(pRoot);
		const lbIkQLeft byChain = lbIkQLeftOf(lbIkQMulLeft(&byRoot, qMid));
		rootQ = lbIkQScale(lbIkQMulLeft(&byRoot, rootQ0), invRoot * inv[0]);
		midP = lbIkVMulAdd(a, kw, lbTwoBoneFrameRotate(mc, w));
		midQ = lbIkQScale(lbIkQMulLeft(&byChain, midQ0), invRoot * inv[1]);
		// The end lies on the target line at the solved distance; no rotation needed.
		endP = lbIkVMulAdd(a, k * len, axis);
		endQ = lbIkQScale(lbIkQMulLeft(&byChain, endQ0), invRoot * inv[2]);
	}
	else
	{
		if (haveMatrix)
			qRoot = lbIkQScale(pRoot, 0.5f * lbIkRsqrtF(pRootBig));
		lbTwoBoneTurns t;
		lbTwoBoneApplyTurns(&t, qRoot, qMid, weight, kw, k * len, a, w, v, axis, inv, rootQ0, midQ0, endQ0);
		rootQ = t.rootQ, midQ = t.midQ, endQ = t.endQ, midP = t.midP, endP = t.endP;
	}
	if (in->useTargetRotation)
		endQ = lbIkQSet(weight >= 1.0f ? lbQuatNormalize(in->targetRotationMs)
									   : lbQuatSlerp(lbIkQGet(endQ), lbQuatNormalize(in->targetRotationMs), weight));
	lbIkQStore(&root->q, rootQ);
	lbTwoBoneStorePQ(mid, midP, midQ);
	lbTwoBoneStorePQ(end, endP, endQ);

	if (!res)
		return lb_ok;
	res->remainingDistance = lbIkDistance(end->p, in->targetMs);
	res->reached = res->remainingDistance <= lbMaxF(in->tolerance, 0.0f);
	res->iterations = 1;
	res->status = res->reached ? lb_ikReached : lb_ikUnreachable;
	return lb_ok;
}

// The core out of line, for the pose solves and the checked path.
static lbResult lbTwoBoneCore(lbTransform* root, lbTransform* mid, lbTransform* end, const lbTwoBoneIkInput* in,
							  lbIkResult* res, const float* qNorms)
{
	return lbTwoBoneCoreInline(root, mid, end, in, res, qNorms, NULL);
}

static lbResult lbCheckJoints(const char* fn, const lbTransform* r, const lbTransform* m, const lbTransform* e)
{
	if (!lbIkValidTransformFast(r) || !lbIkValidTransformFast(m) || !lbIkValidTransformFast(e))
		return lbReport(lb_errorNonFinite, "%s: a joint transform is non-finite, non-unit or zero-scaled", fn);
	lbVec3 u = lbSub(m->p, r->p), l = lbSub(e->p, m->p);
	if (!(lbDot(u, u) > 1.0e-12f) || !(lbDot(l, l) > 1.0e-12f))
		return lbReport(lb_errorDegenerate, "%s: zero-length bone (upper %g m, lower %g m)", fn, (double)lbLength(u),
						(double)lbLength(l));
	if (!(lbDot(u, u) < LB_IK_MAX_BONE2) || !(lbDot(l, l) < LB_IK_MAX_BONE2))
		return lbReport(lb_errorDegenerate, "%s: a bone is 1e9 m or longer (the solve's products of its lengths overflow)", fn);
	return lb_ok;
}

_Static_assert(offsetof(lbTwoBoneIkInput, soften) - offsetof(lbTwoBoneIkInput, poleMs) == 10 * sizeof(float),
			   "poleMs, hingeAxisMs, bendHintMs, weight and soften are consecutive floats");
_Static_assert(sizeof(lbTransform) == 10 * sizeof(float), "lbTransform is ten floats");
_Static_assert(offsetof(lbTransform, q) == 3 * sizeof(float) && offsetof(lbTransform, s) == 7 * sizeof(float),
			   "lbTransform is p, q, s");
_Static_assert(offsetof(lbTwoBoneIkInput, targetRotationMs) == offsetof(lbTwoBoneIkInput, targetMs) + 3 * sizeof(float),
			   "the target's fourth load lane is inside the input");
_Static_assert(offsetof(lbTwoBoneIkInput, tolerance) - offsetof(lbTwoBoneIkInput, soften) == 3 * sizeof(float) &&
				   offsetof(lbTwoBoneIkInput, maxStretch) - offsetof(lbTwoBoneIkInput, soften) == 2 * sizeof(float),
			   "soften, stretch, maxStretch and tolerance fill four float slots");

#if LB_IK_SSE2
// The joints' part of the four-lane checks. `acc` is a sum of the numbers gathered so far, and the
// joints' positions and scales join it: times 0 it is 0 when every one is finite and NaN otherwise
// (x * 0 is 0 for finite x, NaN for inf or NaN; a sum that overflows, from numbers near 1e38, fails
// too, and the ordered checks then pass the call on). A rotation's finiteness is its norm test's. Then the rotations' squared norms must lie in
// (0.98, 1.02), the squared scales exceed LB_EPSILON^2 and both bones be longer than 1e-6 m and
// shorter than 1e9 m. normsOut (when not NULL) gets the squared norms in [0..2]. `wide` (a constant
// at each call): each four floats in one load, for joints not written just before the call (see
// lbIkLoad4).
static inline bool lbTwoBoneJointLanesValidLoads(const lbTransform* r, const lbTransform* m, const lbTransform* e, __m128 acc,
												 float* normsOut, float* bonesOut, bool wide)
{
	const __m128 zero = _mm_setzero_ps();
	const float* t[3] = { &r->p.x, &m->p.x, &e->p.x };
	__m128 p[3], q[4], sMin = _mm_set1_ps(1.0f);
	for (int k = 0; k < 3; ++k)
	{
		p[k] = wide ? _mm_loadu_ps(t[k]) : lbIkLoad4(t[k]);                 // position, q.x
		q[k] = wide ? _mm_loadu_ps(t[k] + 3) : lbIkLoad4(t[k] + 3);         // rotation
		const __m128 ws = wide ? _mm_loadu_ps(t[k] + 6) : lbIkLoad4(t[k] + 6); // q.w, scale
		acc = _mm_add_ps(acc, _mm_add_ps(p[k], ws));
		sMin = _mm_min_ps(sMin, _mm_mul_ps(ws, ws)); // lanes 1..3 (NaN is caught by acc)
	}
	// Squared norms of the three rotations in lanes 0..2 (lane 3 repeats lane 2), summed as
	// lbQuatDot sums them: the solve scales by their roots, bit for bit as from lbQuatDot.
	q[3] = q[2];
	_MM_TRANSPOSE4_PS(q[0], q[1], q[2], q[3]);
	const __m128 norms = _mm_add_ps(
		_mm_add_ps(_mm_add_ps(_mm_mul_ps(q[0], q[0]), _mm_mul_ps(q[1], q[1])), _mm_mul_ps(q[2], q[2])), _mm_mul_ps(q[3], q[3]));
	if (normsOut)
		_mm_storeu_ps(normsOut, norms);
	// Squared bone lengths in lanes 0 and 1: ((x^2 + y^2) + z^2) as lbDot.
	__m128 u = _mm_sub_ps(p[1], p[0]), l = _mm_sub_ps(p[2], p[1]);
	u = _mm_mul_ps(u, u), l = _mm_mul_ps(l, l);
	const __m128 lo = _mm_unpacklo_ps(u, l), hi = _mm_unpackhi_ps(u, l); // ux lx uy ly, uz lz . .
	const __m128 bones = _mm_add_ps(_mm_add_ps(lo, _mm_movehl_ps(lo, lo)), hi);
	if (bonesOut)
		_mm_storeu_ps(bonesOut, bones);
	const __m128 probe = _mm_mul_ps(acc, zero);
	const int finite = _mm_movemask_ps(_mm_cmpunord_ps(probe, probe)) == 0;
	const int unit = _mm_movemask_ps(_mm_and_ps(_mm_cmpgt_ps(norms, _mm_set1_ps(0.98f)), _mm_cmplt_ps(norms, _mm_set1_ps(1.02f))));
	const int scaled = _mm_movemask_ps(_mm_cmpgt_ps(sMin, _mm_set1_ps(LB_EPSILON * LB_EPSILON)));
	const int long2 = _mm_movemask_ps(
		_mm_and_ps(_mm_cmpgt_ps(bones, _mm_set1_ps(1.0e-12f)), _mm_cmplt_ps(bones, _mm_set1_ps(LB_IK_MAX_BONE2))));
	return finite && unit == 0xF && (scaled & 0xE) == 0xE && (long2 & 3) == 3;
}

static inline bool lbTwoBoneJointLanesValid(const lbTransform* r, const lbTransform* m, const lbTransform* e, __m128 acc,
											float* normsOut)
{
	return lbTwoBoneJointLanesValidLoads(r, m, e, acc, normsOut, NULL, false);
}
#endif

// True when the checks below would all pass, in one branch-light pass over the numbers (every
// solve makes it); false sends the caller through those checks, which report what is wrong. On
// true, norms[0..2] hold the joints' squared rotation norms (the solve scales by their roots) and
// bone2[0..1] the squared bone lengths, lbDot's sums (the solve's own).
static bool lbTwoBoneFastValid(const lbTransform* r, const lbTransform* m, const lbTransform* e,
							   const lbTwoBoneIkInput* in, float norms[4], float bone2[4])
{
	if (!r || !m || !e || !in || in->internalValue != LB_SECRET_COOKIE || in->useTargetRotation ||
		(unsigned)in->poleKind > (unsigned)lb_poleDirection)
		return false;
#if LB_IK_SSE2
	// The input's numbers summed (lbTwoBoneJointLanesValidLoads tests the sum, the joints' numbers
	// added). A rotation's finiteness is its norm test's (NaN and inf fail it).
	const __m128 lanes012 = _mm_castsi128_ps(_mm_set_epi32(0, -1, -1, -1));
	// The target takes single loads (a caller's loop writes it just before the call, see lbIkLoad4); the
	// rest (pole .. soften: 11 floats, then soften, maxStretch and tolerance) a load per four floats:
	// only the branch on the outcome waits for them.
	__m128 acc = _mm_and_ps(lbIkLoad4(&in->targetMs.x), lanes012); // lane 3: rotation
	acc = _mm_add_ps(acc, _mm_loadu_ps(&in->poleMs.x));
	acc = _mm_add_ps(acc, _mm_loadu_ps(&in->poleMs.x + 4));
	acc = _mm_add_ps(acc, _mm_loadu_ps(&in->poleMs.x + 7));
	const __m128 lanes023 = _mm_castsi128_ps(_mm_set_epi32(-1, -1, 0, -1)); // soften, maxStretch, tolerance
	acc = _mm_add_ps(acc, _mm_and_ps(_mm_loadu_ps(&in->soften), lanes023));
	return lbTwoBoneJointLanesValidLoads(r, m, e, acc, norms, bone2, true);
#else
	// poleMs .. soften are eleven consecutive floats (asserted above).
	const float rest[3] = { in->maxStretch, in->tolerance, 0.0f };
	uint32_t bad = lbIkNonFiniteBits(&in->targetMs, 3) | lbIkNonFiniteBits(&in->poleMs, 11) |
				   lbIkNonFiniteBits(rest, 3) | lbIkNonFiniteBits(r, 10) | lbIkNonFiniteBits(m, 10) |
				   lbIkNonFiniteBits(e, 10);
	float n0 = lbQuatDot(r->q, r->q), n1 = lbQuatDot(m->q, m->q), n2 = lbQuatDot(e->q, e->q);
	norms[0] = n0, norms[1] = n1, norms[2] = n2, norms[3] = 1.0f;
	float nMin = lbMinF(lbMinF(n0, n1), n2), nMax = lbMaxF(lbMaxF(n0, n1), n2);
	float s0 = lbMinF(lbMinF(r->s.x * r->s.x, r->s.y * r->s.y), r->s.z * r->s.z);
	float s1 = lbMinF(lbMinF(m->s.x * m->s.x, m->s.y * m->s.y), m->s.z * m->s.z);
	float s2 = lbMinF(lbMinF(e->s.x * e->s.x, e->s.y * e->s.y), e->s.z * e->s.z);
	lbVec3 u = lbSub(m->p, r->p), l = lbSub(e->p, m->p);
	float bone = lbMinF(lbDot(u, u), lbDot(l, l)), boneMax = lbMaxF(lbDot(u, u), lbDot(l, l));
	bone2[0] = lbDot(u, u), bone2[1] = lbDot(l, l);
	return bad == 0u && nMin > 0.98f && nMax < 1.02f && lbMinF(lbMinF(s0, s1), s2) > LB_EPSILON * LB_EPSILON &&
		   bone > 1.0e-12f && boneMax < LB_IK_MAX_BONE2;
#endif
}

// True when lbIkValidTransform(*r) holds and lbCheckJoints(r, m, e) would pass, in one four-lane
// pass; false sends the caller through those checks in order, which report what is wrong. The
// rotation norms are lbQuatDot's sums, held to the checks' band (0.98, 1.02); a squared scale above
// LB_EPSILON^2 means a scale above LB_EPSILON (rounding is monotonic), and the bone lengths are
// lbDot's own sums.
static bool lbTwoBoneJointsValid(const lbTransform* r, const lbTransform* m, const lbTransform* e)
{
#if LB_IK_SSE2
	return lbTwoBoneJointLanesValid(r, m, e, _mm_setzero_ps(), NULL);
#else
	if (!lbIkValidTransform(*r) || !lbIkValidTransformFast(r) || !lbIkValidTransformFast(m) || !lbIkValidTransformFast(e))
		return false;
	lbVec3 u = lbSub(m->p, r->p), l = lbSub(e->p, m->p);
	return lbDot(u, u) > 1.0e-12f && lbDot(l, l) > 1.0e-12f && lbDot(u, u) < LB_IK_MAX_BONE2 &&
		   lbDot(l, l) < LB_IK_MAX_BONE2;
#endif
}

// lbTwoBoneJointsValid with the joints' squared rotation norms in norms[0..2] (the core scales by
// their roots, bit for bit as from lbQuatDot).
static inline bool lbTwoBoneJointsFast(const lbTransform* r, const lbTransform* m, const lbTransform* e, float norms[4])
{
#if LB_IK_SSE2
	// The joints of a pose, written well before the solve: each four floats in one load.
	return lbTwoBoneJointLanesValidLoads(r, m, e, _mm_setzero_ps(), norms, NULL, true);
#else
	norms[0] = lbQuatDot(r->q, r->q), norms[1] = lbQuatDot(m->q, m->q), norms[2] = lbQuatDot(e->q, e->q), norms[3] = 1.0f;
	return lbTwoBoneJointsValid(r, m, e);
#endif
}

// The joint checks (the fast pass, then the ordered ones that report under `fn`): true with the
// squared rotation norms in norms[0..2] or, when only the ordered checks pass, *outNorms NULL (the
// core works them out, as the public call's checked path has it).
static bool lbTwoBoneJointsChecked(const lbTransform* r, const lbTransform* m, const lbTransform* e, const char* fn,
								   float norms[4], const float** outNorms)
{
	const bool fast = lbTwoBoneJointsFast(r, m, e, norms);
	*outNorms = norms;
	if (fast)
		return true;
	*outNorms = NULL;
	return lbCheckJoints(fn, r, m, e) == lb_ok;
}

// The ordered checks run on bad input only: kept out of line, so that the fast path ends in a tail
// call to the core and saves no registers for them.

// The ordered checks that find and report what is wrong (the input failed the fast pass).
static LB_COLD lbResult lbSolveTwoBoneIkChecked(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs,
										const lbTwoBoneIkInput* input, lbIkResult* outResult)
{
	static const char fn[] = "lbSolveTwoBoneIk";
	lbIkResult res = { lb_ikNotSolved, false, 0.0f, 0 };
	lbResult r = lb_ok;
	if (!rootMs || !midMs || !endMs)
		r = lbReport(lb_errorNullPointer, "%s: a joint transform is NULL", fn);
	if (r == lb_ok)
		r = lbCheckTwoBoneInput(fn, input);
	if (r == lb_ok)
		r = lbCheckJoints(fn, rootMs, midMs, endMs);
	if (r == lb_ok)
		(void)lbTwoBoneCore(rootMs, midMs, endMs, input, &res, NULL);
	if (outResult)
		*outResult = res;
	return r;
}

lbResult lbSolveTwoBoneIk(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs, const lbTwoBoneIkInput* input,
						  lbIkResult* outResult)
{
	float qNorms[4], bone2[4];
	if (!lbTwoBoneFastValid(rootMs, midMs, endMs, input, qNorms, bone2))
		return lbSolveTwoBoneIkChecked(rootMs, midMs, endMs, input, outResult);
	// Inlined here (the other callers share one copy): the checks' loads and sums serve the solve.
	return lbTwoBoneCoreInline(rootMs, midMs, endMs, input, outResult, qNorms, bone2); // writes every field of outResult
}

lbResult lbIkCheckPose(const char* fn, const lbPose* pose, const lbSkeleton* skeleton)
{
	if (!pose || !skeleton || !pose->local || !pose->model)
		return lbReport(lb_errorNullPointer, "%s: pose or skeleton is NULL", fn);
	if (pose->boneCount != skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "%s: pose has %d bones, skeleton %d", fn, pose->boneCount,
						skeleton->boneCount);
	return lb_ok;
}

// The three solved joints' locals made from their model transforms (the root's from its parent's).
static void lbTwoBoneLocalsFromModel(lbTransform* local, const lbTransform* model, const int* parents, int root,
									 int mid, int end)
{
	const int p = parents[root];
	if (p == LB_NULL_INDEX)
		local[root] = model[root];
	else
		lbIkTransformRelativeTo(&local[root], &model[p], &model[root]);
	lbIkTransformRelativeTo(&local[mid], &model[root], &model[mid]);
	lbIkTransformRelativeTo(&local[end], &model[mid], &model[end]);
}

// Solves a chain of direct parents in place on the pose's model transforms of root, mid and end,
// then brings the pose in line: the three joints' locals from the solved model transforms, then
// the model transforms of the root's subtree from the locals, in index order (parents first).
// These are the values lbIkSetModel on each joint and lbPose_UpdateSubtree on the root give.
// `chainOnly`: the mid's and end's model transforms from the locals (as the subtree pass would
// make them) and nothing else below the root carried. `subtree` (when not NULL): every bone below
// the root in index order, carried as the pass would carry them without looking at the others,
// but the three joints keep the solve's model transforms (their locals are made from them): the
// products from the locals would give them again to rounding, and cost a third of the writes.
static void lbSolveDirectChain(lbPose* pose, const lbSkeleton* s, int root, int mid, int end,
							   const lbTwoBoneIkInput* input, bool chainOnly, const int16_t* subtree, int subtreeCount,
							   const float* qNorms)
{
	const int* parents = s->parents;
	lbTransform* local = pose->local;
	lbTransform* model = pose->model;
	(void)lbTwoBoneCore(&model[root], &model[mid], &model[end], input, NULL, qNorms);
	lbTwoBoneLocalsFromModel(local, model, parents, root, mid, end);
	const int p = parents[root];
	if (chainOnly)
	{
		// The products the pass below makes for these two (the mid's parent is the root, the end's
		// the mid).
		if (p != LB_NULL_INDEX)
			lbIkTransformMulTo(&model[root], &model[p], &local[root]);
		lbIkTransformMulTo(&model[mid], &model[root], &local[mid]);
		lbIkTransformMulTo(&model[end], &model[mid], &local[end]);
		return;
	}
	if (subtree)
	{
		for (int k = 0; k < subtreeCount; ++k)
		{
			const int i = subtree[k];
			if (i != mid && i != end)
				lbIkTransformMulTo(&model[i], &model[parents[i]], &local[i]);
		}
		return;
	}
	if (p != LB_NULL_INDEX)
		lbIkTransformMulTo(&model[root], &model[p], &local[root]);
	// One byte per bone from the root on marks the subtree; each is written before any child
	// reads it (parents come first), so nothing needs clearing.
	uint8_t inSubtree[LB_MAX_BONES];
	inSubtree[0] = 1u;
	const int n = pose->boneCount;
	for (int i = root + 1; i < n; ++i)
	{
		const int q = parents[i] - root; // negative above the root (and for a root bone)
		const uint8_t below = (uint8_t)(q >= 0 && inSubtree[q]);
		inSubtree[i - root] = below;
		if (below)
			lbIkTransformMulTo(&model[i], &model[parents[i]], &local[i]);
	}
}

// The solve on a pose once every check has passed: the core, the writes, and the outcome
// measured on the pose written. Weight 0 leaves the pose exactly as it was (the core's output
// would not be used). qNorms: the joints' squared rotation norms when the caller's checks made
// them (lbTwoBoneJointsChecked), else NULL (the core works them out).
static void lbPoseTwoBoneSolve(lbPose* pose, const lbSkeleton* skeleton, int root, int mid, int end,
							   const lbTwoBoneIkInput* input, lbIkResult* outResult, bool chainOnly,
							   const int16_t* subtree, int subtreeCount, const float* qNorms)
{
	if (input->weight > 0.0f)
	{
		if (skeleton->parents[mid] == root && skeleton->parents[end] == mid)
			lbSolveDirectChain(pose, skeleton, root, mid, end, input, chainOnly, subtree, subtreeCount, qNorms);
		else
		{
			// Bones between the joints: each joint's subtree follows it before the next is set.
			lbTransform rt = pose->model[root], mt = pose->model[mid], et = pose->model[end];
			(void)lbTwoBoneCore(&rt, &mt, &et, input, NULL, qNorms);
			lbIkSetModel(pose, skeleton, root, rt);
			lbPose_UpdateSubtree(pose, skeleton, root);
			lbIkSetModel(pose, skeleton, mid, mt);
			lbPose_UpdateSubtree(pose, skeleton, mid);
			lbIkSetModel(pose, skeleton, end, et);
			lbPose_UpdateSubtree(pose, skeleton, end);
		}
	}
	if (!outResult)
		return;
	lbIkResult res;
	res.remainingDistance = lbIkDistance(pose->model[end].p, input->targetMs);
	res.reached = res.remainingDistance <= lbMaxF(input->tolerance, 0.0f);
	res.status = res.reached ? lb_ikReached : lb_ikUnreachable;
	res.iterations = 1;
	*outResult = res;
}

// The root's parent's model transform: the solve writes the root's local relative to it, so a
// non-finite parent would turn the solved root (and its subtree) non-finite.
static lbResult lbTwoBoneCheckParent(const char* fn, const lbPose* pose, const lbSkeleton* skeleton, int root)
{
	const int p = skeleton->parents[root];
	if (p == LB_NULL_INDEX)
		return lb_ok;
	if (!lbIkValidTransformFast(&pose->model[p]))
		return lbReport(lb_errorNonFinite, "%s: the parent of bone %d (bone %d) has a non-finite or invalid model transform",
						fn, root, p);
	// A parent moved to 3e38 m left the arm's bones NaN (lbIkNearParent).
	if (!lbIkNearParent(pose, skeleton, root))
		return lbReport(lb_errorInvalidArgument, "%s: bone %d lies 1e15 m or more from its parent (bone %d) in the model pose",
						fn, root, p);
	return lb_ok;
}

// root, mid and end (valid indices) form a chain. A joint's direct parent, the common case,
// needs no walk up the hierarchy (a parent index is always below its child's).
static bool lbTwoBoneIsChain(const lbSkeleton* s, int root, int mid, int end)
{
	if (s->parents[mid] == root && s->parents[end] == mid)
		return true;
	return root != mid && mid != end && lbSkeleton_IsAncestor(s, root, mid) && lbSkeleton_IsAncestor(s, mid, end);
}

lbResult lbPose_SolveTwoBoneIk(lbPose* pose, const lbSkeleton* skeleton, int root, int mid, int end,
							   const lbTwoBoneIkInput* input, lbIkResult* outResult)
{
	static const char fn[] = "lbPose_SolveTwoBoneIk";
	if (outResult)
		*outResult = (lbIkResult){ lb_ikNotSolved, false, 0.0f, 0 };
	lbResult r = lbIkCheckPose(fn, pose, skeleton);
	if (r != lb_ok)
		return r;
	if (!lbIkValidBone(skeleton, root) || !lbIkValidBone(skeleton, mid) || !lbIkValidBone(skeleton, end))
		return lbReport(lb_errorBoneNotFound, "%s: bone index out of range (%d, %d, %d)", fn, root, mid, end);
	if (!lbTwoBoneIsChain(skeleton, root, mid, end))
		return lbReport(lb_errorInvalidArgument, "%s: bones %d, %d, %d do not form a chain", fn, root, mid, end);
	r = lbCheckTwoBoneInput(fn, input);
	if (r == lb_ok)
		r = lbTwoBoneCheckParent(fn, pose, skeleton, root);
	if (r != lb_ok)
		return r;
	if (!lbTwoBoneJointsValid(&pose->model[root], &pose->model[mid], &pose->model[end]))
	{
		r = lbCheckJoints(fn, &pose->model[root], &pose->model[mid], &pose->model[end]);
		if (r != lb_ok)
			return r;
	}
	lbPoseTwoBoneSolve(pose, skeleton, root, mid, end, input, outResult, false, NULL, 0, NULL);
	return lb_ok;
}

bool lbIkSolveTwoBoneTrusted(lbPose* pose, const lbSkeleton* skeleton, int root, int mid, int end,
							 const lbTwoBoneIkInput* input, bool chainOnly)
{
	float norms[4];
	const float* qNorms;
	if (!lbTwoBoneJointsChecked(&pose->model[root], &pose->model[mid], &pose->model[end], "lbPose_SolveTwoBoneIk", norms,
								&qNorms))
		return false;
	lbPoseTwoBoneSolve(pose, skeleton, root, mid, end, input, NULL, chainOnly, NULL, 0, qNorms);
	return true;
}

lbResult lbHumanoid_GetLimbChain(const lbHumanoid* humanoid, lbLimb limb, lbLimbChain* outChain)
{
	if (!humanoid || !outChain)
		return lbReport(lb_errorNullPointer, "lbHumanoid_GetLimbChain: humanoid or output is NULL");
	if ((int)limb < 0 || limb >= lb_limbCount)
		return lbReport(lb_errorInvalidArgument, "lbHumanoid_GetLimbChain: unknown limb %d", (int)limb);
	lbLimbChain c;
	if (limb == lb_limbArmL || limb == lb_limbArmR)
	{
		int side = limb == lb_limbArmL ? lb_left : lb_right;
		const lbArmBones* b = &humanoid->arm[side];
		const lbArmAxes* x = &humanoid->armAxes[side];
		c.root = b->upperArm, c.mid = b->foreArm, c.end = b->hand;
		c.hingeRoot = x->elbowBendUpper;
		c.poleRoot = x->elbowPoleUpper;
		c.upperLength = x->upperLength, c.lowerLength = x->foreLength;
	}
	else
	{
		int side = limb == lb_limbLegL ? lb_left : lb_right;
		const lbLegBones* b = &humanoid->leg[side];
		const lbLegAxes* x = &humanoid->legAxes[side];
		c.root = b->thigh, c.mid = b->calf, c.end = b->foot;
		c.hingeRoot = x->kneeBendThigh;
		c.poleRoot = x->kneePoleThigh;
		c.upperLength = x->thighLength, c.lowerLength = x->calfLength;
	}
	if (c.root < 0 || c.mid < 0 || c.end < 0)
		return lbReport(lb_errorMissingRole, "lbHumanoid_GetLimbChain: limb %d is not mapped", (int)limb);
	*outChain = c;
	return lb_ok;
}

lbVec3 lbLimbChain_HingeMs(const lbLimbChain* chain, const lbPose* pose)
{
	if (!chain || !pose || chain->root < 0 || chain->root >= pose->boneCount)
		return lbVec3_zero;
	return lbNormalize(lbTransformDirection(pose->model[chain->root], chain->hingeRoot));
}

lbVec3 lbLimbChain_PoleMs(const lbLimbChain* chain, const lbPose* pose)
{
	if (!chain || !pose || chain->root < 0 || chain->root >= pose->boneCount)
		return lbVec3_zero;
	return lbNormalize(lbTransformDirection(pose->model[chain->root], chain->poleRoot));
}

// lbNormalize(lbTransformDirection(*t, d)) bit for bit, for a transform with no zero scale
// component (a negative component is then exactly one with its sign bit set).
static inline lbVec3 lbTwoBoneDirectionMs(const lbTransform* t, lbVec3 d)
{
#if LB_IK_SSE2
	const __m128 ws = _mm_loadu_ps(&t->q.w); // q.w, scale
	const __m128 signs = _mm_and_ps(_mm_shuffle_ps(ws, ws, _MM_SHUFFLE(0, 3, 2, 1)), _mm_set1_ps(-0.0f));
	const __m128 r = lbIkQuatRotate4(_mm_loadu_ps(&t->q.x), _mm_xor_ps(_mm_setr_ps(d.x, d.y, d.z, 0.0f), signs));
	float v[4];
	_mm_storeu_ps(v, r);
	const float len = lbIkSqrtF(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
	if (!(len > LB_EPSILON) || !lbIsValidFloat(len))
		return lbVec3_zero;
	const float inv = 1.0f / len;
	return LB_LITERAL(lbVec3){ inv * v[0], inv * v[1], inv * v[2] };
#else
	return lbNormalize(lbTransformDirection(*t, d));
#endif
}

// The solve of lbPose_SolveLimbIk once its checks have passed: the limb's axes where the input
// leaves them zero (lbLimbChain_HingeMs and _PoleMs), then the solve on the pose.
static void lbSolveLimbChain(lbPose* pose, const lbSkeleton* skeleton, const lbLimbChain* c,
							 const lbTwoBoneIkInput* input, lbIkResult* outResult, const int16_t* subtree,
							 int subtreeCount, const float* qNorms)
{
	lbTwoBoneIkInput in = *input;
	const lbTransform* rootMs = &pose->model[c->root]; // not written before the solve
	// The bend hint is read only when the solve has no hinge: a hinge made here is unit or zero, so
	// when it is unit the hint is not worked out (a hinge the caller gave is left to the solve).
	bool hinged = false;
	if (lbLengthSquared(in.hingeAxisMs) == 0.0f)
	{
		in.hingeAxisMs = lbTwoBoneDirectionMs(rootMs, c->hingeRoot);
		hinged = lbLengthSquared(in.hingeAxisMs) > 0.0f;
	}
	if (!hinged && lbLengthSquared(in.bendHintMs) == 0.0f)
		in.bendHintMs = lbTwoBoneDirectionMs(rootMs, c->poleRoot);
	lbPoseTwoBoneSolve(pose, skeleton, c->root, c->mid, c->end, &in, outResult, false, subtree, subtreeCount, qNorms);
}

lbResult lbPose_SolveLimbIk(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, lbLimb limb,
							const lbTwoBoneIkInput* input, lbIkResult* outResult)
{
	if (outResult)
		*outResult = (lbIkResult){ lb_ikNotSolved, false, 0.0f, 0 };
	lbLimbChain c = { 0 }; // (filled on success; zeroed for compilers that cannot see it)
	lbResult r = lbHumanoid_GetLimbChain(humanoid, limb, &c);
	if (r != lb_ok)
		return r;
	r = lbIkCheckPose("lbPose_SolveLimbIk", pose, skeleton);
	if (r != lb_ok)
		return r;
	if (!lbIkValidBone(skeleton, c.root) || !lbIkValidBone(skeleton, c.mid) || !lbIkValidBone(skeleton, c.end))
		return lbReport(lb_errorSkeletonMismatch, "lbPose_SolveLimbIk: humanoid map does not fit the skeleton");
	r = lbCheckTwoBoneInput("lbPose_SolveLimbIk", input);
	if (r == lb_ok)
		r = lbTwoBoneCheckParent("lbPose_SolveLimbIk", pose, skeleton, c.root);
	if (r != lb_ok)
		return r;
	const bool jointsValid = lbTwoBoneJointsValid(&pose->model[c.root], &pose->model[c.mid], &pose->model[c.end]);
	if (!jointsValid && !lbIkValidTransform(pose->model[c.root]))
		return lbReport(lb_errorNonFinite, "lbPose_SolveLimbIk: non-finite root transform");
	// The rest of lbPose_SolveTwoBoneIk's checks, reported under its name as before. The pose and
	// the bone indices passed above, and so did the input: the axes filled in below are unit or
	// zero (lbNormalize never gives a non-finite vector), so the input needs no second check.
	static const char fn[] = "lbPose_SolveTwoBoneIk";
	if (!lbTwoBoneIsChain(skeleton, c.root, c.mid, c.end))
		return lbReport(lb_errorInvalidArgument, "%s: bones %d, %d, %d do not form a chain", fn, c.root, c.mid, c.end);
	if (!jointsValid)
	{
		r = lbCheckJoints(fn, &pose->model[c.root], &pose->model[c.mid], &pose->model[c.end]);
		if (r != lb_ok)
			return r;
	}
	lbSolveLimbChain(pose, skeleton, &c, input, outResult, NULL, 0, NULL);
	return lb_ok;
}

lbResult lbIkSolveLimbTrusted(lbPose* pose, const lbSkeleton* skeleton, const lbLimbChain* chain,
							  const lbTwoBoneIkInput* input, const int16_t* subtree, int subtreeCount)
{
	// The joints are the one thing a checked pose may still fail (a zero-length bone, a zero scale).
	// The fast pass's squared rotation norms go to the core, which would otherwise sum them again.
	const lbTransform* model = pose->model;
	float norms[4];
	const float* qNorms = norms;
	if (!lbTwoBoneJointsFast(&model[chain->root], &model[chain->mid], &model[chain->end], norms))
	{
		const lbResult r = lbCheckJoints("lbPose_SolveTwoBoneIk", &model[chain->root], &model[chain->mid], &model[chain->end]);
		if (r != lb_ok)
			return r;
		qNorms = NULL;
	}
	lbSolveLimbChain(pose, skeleton, chain, input, NULL, subtree, subtreeCount, qNorms);
	return lb_ok;
}

bool lbIkSolveLimbModelTrusted(lbPose* pose, const lbSkeleton* skeleton, const lbLimbChain* chain, lbTwoBoneIkInput* input)
{
	lbTransform* model = pose->model;
	lbTransform* local = pose->local;
	const int root = chain->root, mid = chain->mid, end = chain->end;
	// The limb's axes where the input leaves them zero, as lbSolveLimbChain fills them in: the bend
	// hint only when the solve has no hinge (the core reads it only then), so a limb whose hinge is
	// made here (unit) costs one axis, not two.
	bool hinged = false;
	if (lbLengthSquared(input->hingeAxisMs) == 0.0f)
	{
		input->hingeAxisMs = lbTwoBoneDirectionMs(&model[root], chain->hingeRoot);
		hinged = lbLengthSquared(input->hingeAxisMs) > 0.0f;
	}
	if (!hinged && lbLengthSquared(input->bendHintMs) == 0.0f)
		input->bendHintMs = lbTwoBoneDirectionMs(&model[root], chain->poleRoot);
	float norms[4];
	const float* qNorms;
	if (!lbTwoBoneJointsChecked(&model[root], &model[mid], &model[end], "lbSolveTwoBoneIk", norms, &qNorms))
		return false;
	// In place: the core reads each joint before it writes it, as it does the public call's copies.
	(void)lbTwoBoneCore(&model[root], &model[mid], &model[end], input, NULL, qNorms);
	lbTwoBoneLocalsFromModel(local, model, skeleton->parents, root, mid, end);
	return true;
}
