// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Pose stage of the climbing system (model space). Order of work:
//   body clearance offset -> full-body IK -> body held to every locked limb at once ->
//   per arm: two-bone IK, fingers along the wall, palm twist, rotation cache, second pass ->
//   per leg: side blend, knee pole, first pass, toe direction, aim, ankle correction, second pass.
// Everything runs on a copy of the pose kept in the caller's workspace, so an error at any step
// leaves the caller's pose (and cache) as they were.
#include "limber/climb.h"

#include <math.h>
#include <string.h>

// The joint body constraint stops once every shoulder and hip is this close to its allowed reach (m).
#define LB_CLIMB_EXCESS_TOLERANCE 1.0e-4f
// Width of the band (rad) past def->ledgeAngle over which a hand's fallback finger direction turns
// from "up the surface" to "the character's forward", so a normal crossing the angle does not pop.
#define LB_CLIMB_LEDGE_BAND (10.0f * LB_DEG2RAD)
// Largest swivel of a knee about its hip-ankle line away from its natural direction (rad) that the
// wall clearance may ask for.
#define LB_CLIMB_MAX_KNEE_SWIVEL (100.0f * LB_DEG2RAD)

static size_t lbClimbAlignUp(size_t n, size_t a)
{
	return (n + a - 1u) / a * a;
}

size_t lbGetClimbWorkspaceSize(const lbSkeleton* skeleton)
{
	if (!skeleton || skeleton->boneCount <= 0)
		return 0u;
	// The full-body solver's part first, then a working copy of the pose (local and model).
	return lbClimbAlignUp(lbGetFullBodyIkWorkspaceSize(skeleton), _Alignof(lbTransform)) +
		   2u * (size_t)skeleton->boneCount * sizeof(lbTransform);
}

// ---------------------------------------------------------------------------------------------
// Validation

static bool lbClimbValidQuat(lbQuat q)
{
	return lbIsValidFloat(q.x) && lbIsValidFloat(q.y) && lbIsValidFloat(q.z) && lbIsValidFloat(q.w) &&
		   lbAbsF(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1.0f) < 1.0e-2f;
}

static bool lbClimbValidBone(const lbSkeleton* s, int bone)
{
	return bone >= 0 && bone < s->boneCount;
}

static bool lbClimbDefFinite(const lbClimbDef* d)
{
	const float f[] = { d->bodyMargin,		d->reliabilityStart, d->reliabilityFull, d->ledgeAngle,	   d->sideNegStart,
						d->sideNegFull,		d->sidePosStart,	 d->sidePosFull,	 d->sideCacheMin,  d->sideCacheMax,
						d->sideCacheAlpha,	d->extendFadeStart,	 d->extendFadeEnd,	 d->foldFadeStart, d->foldFadeEnd,
						d->poleBase,		d->poleSide,		 d->kneeClearance,	 d->toeSideGain,   d->toeLegGain,
						d->toeUpGain };
	for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
		if (!lbIsValidFloat(f[i]))
			return false;
	return lbIsValidVec3(d->up);
}

static bool lbClimbTargetsFinite(const lbClimbTargets* t)
{
	if (!lbIsValidTransform(t->characterWs) || !lbIsValidVec3(t->upWs) || !lbIsValidVec3(t->bodyOffsetWs))
		return false;
	for (int i = 0; i < 4; ++i)
	{
		const lbClimbLimbTarget* l = &t->limbs[i];
		if (!lbIsValidVec3(l->targetWs) || !lbIsValidVec3(l->normalWs) || !lbIsValidFloat(l->ikAlpha) ||
			!lbIsValidFloat(l->bodyAlpha))
			return false;
		if (l->hasSurface && !lbIsValidVec3(l->surfaceWs))
			return false;
	}
	return true;
}

// ---------------------------------------------------------------------------------------------
// Shared state of one call

typedef struct lbClimbPoseCtx
{
	const lbClimbDef* def;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	lbPose* pose;
	lbTransform cw;
	// Character frame in model space (unit).
	lbVec3 upMs, forwardMs, leftMs;
	lbLimbChain chain[4];
	// Per limb (hands L, R, feet L, R): wrist or toe-tip target, outward surface normal (unit), a
	// point of the surface plane, alphas and the lock flag.
	lbVec3 targetMs[4], normalMs[4], surfaceMs[4];
	float ikAlpha[4], bodyAlpha[4];
	bool locked[4];
	// Feet: the toe tip relative to the ankle in the foot bone's frame (model lengths), from the
	// input pose, so toes bent at the ball joint are kept.
	lbVec3 toeTipFoot[2];
	// Feet: the ankle goal estimated before the body moves.
	lbVec3 ankleGuessMs[2];
} lbClimbPoseCtx;

static lbVec3 lbClimbPointMs(const lbClimbPoseCtx* c, lbVec3 pWs)
{
	return lbInvTransformPoint(c->cw, pWs);
}

// ---------------------------------------------------------------------------------------------
// Joint body constraint

// Largest distance any locked limb's root joint (shoulder, hip) lies beyond its allowed reach from
// its lock after moving the pelvis by t; rootMs, lockMs and allowed are per locked limb.
static float lbClimbExcess(const lbVec3* rootMs, const lbVec3* lockMs, const float* allowed, int n, lbVec3 t)
{
	float worst = 0.0f;
	for (int i = 0; i < n; ++i)
		worst = lbMaxF(worst, lbDistance(lbAdd(rootMs[i], t), lockMs[i]) - allowed[i]);
	return worst;
}

// Solves (A + damping I) x = b for a symmetric 3x3 A given by its rows; zero when singular.
static lbVec3 lbClimbSolveSym3(lbVec3 r0, lbVec3 r1, lbVec3 r2, lbVec3 b)
{
	const lbVec3 c0 = lbCross(r1, r2), c1 = lbCross(r2, r0), c2 = lbCross(r0, r1);
	const float det = lbDot(r0, c0);
	if (!(lbAbsF(det) > 1.0e-12f))
		return lbVec3_zero;
	// The inverse of a symmetric matrix has the cofactor vectors as its rows.
	return lbMulSV(1.0f / det, lbMakeVec3(lbDot(c0, b), lbDot(c1, b), lbDot(c2, b)));
}

// Sum of squared excesses beyond reach after moving the pelvis by t (0 when every limb holds).
static float lbClimbExcessCost(const lbVec3* rootMs, const lbVec3* lockMs, const float* allowed, int n, lbVec3 t)
{
	float cost = 0.0f;
	for (int i = 0; i < n; ++i)
	{
		const float e = lbDistance(lbAdd(rootMs[i], t), lockMs[i]) - allowed[i];
		if (e > 0.0f)
			cost += e * e;
	}
	return cost;
}

// Pelvis shift keeping every locked limb's root joint (shoulder, hip) within reach of its lock.
// Each limb asks the pelvis to stay inside a ball (centre lock - root, radius the allowed reach);
// the shift is solved for all balls together, not one limb after another (where a later limb
// undoes an earlier one). The cost is the sum of the squared excesses beyond reach: convex, zero
// exactly where every limb holds. Each round is a damped Gauss-Newton (Levenberg-Marquardt) step
// on the limbs beyond reach at once, the smallest move bringing all of them back together to
// first order; a step that does not lower the cost is retried with more damping, so opposing
// limbs never make it blow up. One limb alone is projected back onto its reach in one round, as
// the seed does. When the balls have no common point (locks farther apart than the body allows)
// the rounds settle where the squared excesses are smallest, so the shortfall is shared between
// the limbs, and the largest is reported.
static lbVec3 lbClimbHoldBody(const lbVec3* rootMs, const lbVec3* lockMs, const float* allowed, int n, int maxRounds,
							  float* outExcess, int* outRounds)
{
	lbVec3 t = lbVec3_zero;
	int rounds = 0;
	float lambda = 1.0e-4f;
	float cost = lbClimbExcessCost(rootMs, lockMs, allowed, n, t);
	float excess = lbClimbExcess(rootMs, lockMs, allowed, n, t);
	while (excess >= LB_CLIMB_EXCESS_TOLERANCE && rounds < maxRounds)
	{
		++rounds;
		// Normal equations of the limbs beyond reach: rows u (unit, lock toward the root), residuals e.
		lbVec3 r0 = lbVec3_zero, r1 = lbVec3_zero, r2 = lbVec3_zero, b = lbVec3_zero;
		for (int i = 0; i < n; ++i)
		{
			float d = 0.0f;
			const lbVec3 u = lbGetLengthAndNormalize(&d, lbSub(lbAdd(rootMs[i], t), lockMs[i]));
			const float e = d - allowed[i];
			if (e <= 0.0f || d == 0.0f)
				continue;
			r0 = lbMulAdd(r0, u.x, u);
			r1 = lbMulAdd(r1, u.y, u);
			r2 = lbMulAdd(r2, u.z, u);
			b = lbMulAdd(b, -e, u);
		}
		bool accepted = false;
		for (int attempt = 0; attempt < 12 && !accepted; ++attempt)
		{
			const lbVec3 step = lbClimbSolveSym3(lbAdd(r0, lbMakeVec3(lambda, 0.0f, 0.0f)),
												 lbAdd(r1, lbMakeVec3(0.0f, lambda, 0.0f)),
												 lbAdd(r2, lbMakeVec3(0.0f, 0.0f, lambda)), b);
			const lbVec3 next = lbAdd(t, step);
			const float nextCost = lbIsValidVec3(next) ? lbClimbExcessCost(rootMs, lockMs, allowed, n, next) : cost;
			if (nextCost < cost)
			{
				t = next;
				cost = nextCost;
				lambda = lbMaxF(0.3f * lambda, 1.0e-7f);
				accepted = true;
			}
			else
				lambda *= 10.0f;
		}
		excess = lbClimbExcess(rootMs, lockMs, allowed, n, t);
		// No step lowers the cost: the least-squares point (or the tolerance of floats) is reached.
		if (!accepted)
			break;
	}
	*outExcess = excess < LB_CLIMB_EXCESS_TOLERANCE ? 0.0f : excess;
	*outRounds = rounds;
	return t;
}

// ---------------------------------------------------------------------------------------------
// Hands

// Direction the fingers should take along the surface when the forearm gives none: up the
// surface on walls; on ledge tops (normal within ledgeAngle of up, where "up the surface" vanishes)
// the character's forward, so a hand on a ledge lies flat with its fingers ahead; blended across a
// small band so a normal crossing the angle turns the hand smoothly.
static lbVec3 lbClimbFingerFallback(const lbClimbPoseCtx* c, lbVec3 n)
{
	const lbVec3 upT = lbNormalize(lbProjectOnPlane(c->upMs, n));
	const lbVec3 fwdT = lbNormalize(lbProjectOnPlane(c->forwardMs, n));
	const float ledgeAngle = lbClampF(c->def->ledgeAngle, 0.0f, LB_PI);
	float ledge = 0.0f;
	if (ledgeAngle > 0.0f)
	{
		const float angle = acosf(lbClampF(lbDot(n, c->upMs), -1.0f, 1.0f));
		ledge = lbRemapClamped(angle, ledgeAngle, lbMinF(ledgeAngle + LB_CLIMB_LEDGE_BAND, LB_PI), 1.0f, 0.0f);
	}
	if (lbLengthSquared(upT) == 0.0f)
		ledge = 1.0f;
	if (lbLengthSquared(fwdT) == 0.0f)
		ledge = 0.0f;
	lbVec3 f = lbNormalize(lbLerp(upT, fwdT, ledge));
	if (lbLengthSquared(f) == 0.0f)
		f = lbLengthSquared(fwdT) > 0.0f ? fwdT : (lbLengthSquared(upT) > 0.0f ? upT : lbAnyPerpendicular(n));
	return f;
}

// Fingers along the wall and the palm turned onto it, weighted by `weight`. Returns the
// orientation reliability (0..1).
static lbResult lbClimbOrientHand(const lbClimbPoseCtx* c, int s, float weight, float* outReliability)
{
	const lbHumanoid* h = c->humanoid;
	lbPose* pose = c->pose;
	const lbArmBones* arm = &h->arm[s];
	const lbVec3 n = c->normalMs[s];
	const lbVec3 handP = pose->model[arm->hand].p;
	const lbVec3 foreDir = lbNormalize(lbSub(handP, pose->model[arm->foreArm].p));
	// The forearm's shadow on the wall; short when the forearm points into the wall, and then not
	// to be trusted: the reliability hands over to the fallback.
	float projLength = 0.0f;
	const lbVec3 proj = lbGetLengthAndNormalize(&projLength, lbProjectOnPlane(foreDir, n));
	const float reliability =
		lbRemapClamped(projLength, c->def->reliabilityStart, c->def->reliabilityFull, 0.0f, 1.0f);
	const lbVec3 fallback = lbClimbFingerFallback(c, n);
	const lbVec3 tangent = lbNormalizeOr(lbLerp(fallback, proj, reliability), fallback);
	*outReliability = reliability;
	if (weight <= 0.0f)
		return lb_ok;

	// Fingers: the shortest turn from where they point to the tangent.
	const lbTransform hand = pose->model[arm->hand];
	const lbVec3 finger = lbNormalizeOr(lbTransformDirection(hand, h->armAxes[s].finger), tangent);
	const lbQuat aligned = lbQuatNormalize(lbQuatMul(lbQuatFromTo(finger, tangent), hand.q));
	lbResult r = lbPose_SetBoneModelRotation(pose, c->skeleton, arm->hand, lbQuatSlerp(hand.q, aligned, weight), true);
	if (r != lb_ok)
		return r;

	// Palm: the signed turn about the finger axis that brings the palm normal (out of the palm)
	// onto the direction into the wall. sin comes from the finger axis and cross(P, into), cos from
	// dot(P, into); scaled by the reliability so a twist measured on an unreliable tangent fades.
	const lbTransform handNow = pose->model[arm->hand];
	const lbVec3 fingerNow = lbNormalizeOr(lbTransformDirection(handNow, h->armAxes[s].finger), tangent);
	const lbVec3 palm = lbNormalize(lbTransformDirection(handNow, h->armAxes[s].palm));
	const lbVec3 into = lbNeg(n);
	const float twist = atan2f(lbDot(fingerNow, lbCross(palm, into)), lbDot(palm, into)) * reliability;
	if (!lbIsValidFloat(twist) || twist == 0.0f)
		return lb_ok;

	// Spread over the forearm twist bones (elbow to wrist) and the hand: share i / (count - 1), the
	// hand last with the whole twist, the twist bone nearest the elbow with none. Twist bones are
	// siblings of the hand on the rigs limber knows, so the hand's share is its own. Each bone turns
	// about its own local image of the axis: the forearm for twist bones, the fingers for the hand.
	int bones[LB_MAX_TWIST + 1];
	int count = 0;
	for (int k = 0; k < arm->twistCount && k < LB_MAX_TWIST; ++k)
		if (lbClimbValidBone(c->skeleton, arm->twist[k]))
			bones[count++] = arm->twist[k];
	bones[count++] = arm->hand;
	for (int k = 0; k < count; ++k)
	{
		const float share = count > 1 ? (float)k / (float)(count - 1) : 1.0f;
		if (share <= 0.0f)
			continue;
		const bool isHand = bones[k] == arm->hand;
		const lbVec3 axisMs = isHand ? fingerNow : foreDir;
		const lbVec3 axisLocal = lbNormalize(lbInvTransformDirection(pose->model[bones[k]], axisMs));
		if (lbLengthSquared(axisLocal) == 0.0f)
			continue;
		r = lbPose_DistributeRotation(pose, c->skeleton, &bones[k], 1, lbQuatFromAxisAngle(axisLocal, twist * share),
									  lb_distributeLinear, weight);
		if (r != lb_ok)
			return r;
	}
	return lb_ok;
}

static lbResult lbClimbSolveArm(const lbClimbPoseCtx* c, int s, lbClimbPoseCache* newCache, bool cacheValid,
								float* outReliability)
{
	const lbHumanoid* h = c->humanoid;
	lbPose* pose = c->pose;
	const int hand = h->arm[s].hand;
	const float a = c->ikAlpha[s];
	// Elbow down and out to its own side, from the humanoid's frame.
	const lbVec3 out = s == lb_left ? c->leftMs : lbNeg(c->leftMs);
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = c->targetMs[s];
	in.poleKind = lb_poleDirection;
	in.poleMs = lbNormalize(lbMulAdd(lbNeg(c->upMs), 0.5f, out));
	in.weight = a;
	lbResult r = lb_ok;
	if (a > 0.0f)
	{
		r = lbPose_SolveLimbIk(pose, c->skeleton, h, (lbLimb)s, &in, NULL);
		if (r != lb_ok)
			return r;
	}
	*outReliability = 0.0f;
	const lbQuat before = pose->model[hand].q;
	if (c->locked[s] && cacheValid)
	{
		// Held: the rotation chosen before the lock, whatever the body does now (blended in by the
		// IK alpha like the rest of the arm).
		const lbQuat held = lbQuatNormalize(lbQuatMul(lbQuatConj(c->cw.q), newCache->handRotWs[s]));
		r = lbPose_SetBoneModelRotation(pose, c->skeleton, hand, lbQuatSlerp(before, held, a), true);
		if (r != lb_ok)
			return r;
		r = lbClimbOrientHand(c, s, 0.0f, outReliability);
	}
	else if (c->locked[s])
	{
		// Held before any rotation was cached: the wall-facing rotation is worked out in full for
		// the cache and blended in by the IK alpha.
		r = lbClimbOrientHand(c, s, 1.0f, outReliability);
		if (r != lb_ok)
			return r;
		const lbQuat full = pose->model[hand].q;
		newCache->handRotWs[s] = lbQuatNormalize(lbQuatMul(c->cw.q, full));
		r = lbPose_SetBoneModelRotation(pose, c->skeleton, hand, lbQuatSlerp(before, full, a), true);
	}
	else
	{
		// Free or reaching: oriented by the IK alpha, and cached as it ends.
		r = lbClimbOrientHand(c, s, a, outReliability);
		if (r != lb_ok)
			return r;
		newCache->handRotWs[s] = lbQuatNormalize(lbQuatMul(c->cw.q, pose->model[hand].q));
	}
	if (r != lb_ok)
		return r;
	if (a > 0.0f)
	{
		// Second pass: the wrist exactly on its target with the chosen hand rotation.
		in.useTargetRotation = true;
		in.targetRotationMs = pose->model[hand].q;
		r = lbPose_SolveLimbIk(pose, c->skeleton, h, (lbLimb)s, &in, NULL);
	}
	return r;
}

// ---------------------------------------------------------------------------------------------
// Legs

typedef struct lbClimbLegPlan
{
	// Cached side choice after this frame's update, and the effective side blend (-1..1).
	float cached, side;
	// Ankle distance from the hip over the leg's length.
	float reachRatio;
	// +1 when the leg's hip lies on the wallH side of the hip centre, else -1.
	float outward;
	// Along the wall: horizontal and up (unit); sideways about the leg axis, toward the body's
	// middle (unit).
	lbVec3 wallH, wallUp, sideDir;
	lbVec3 poleMs;
} lbClimbLegPlan;

// Horizontal direction along a surface (unit), and up along it.
static void lbClimbWallFrame(const lbClimbPoseCtx* c, lbVec3 n, lbVec3* outH, lbVec3* outUp)
{
	lbVec3 hDir = lbNormalize(lbCross(c->upMs, n));
	if (lbLengthSquared(hDir) == 0.0f)
		hDir = lbNormalizeOr(lbProjectOnPlane(lbCross(c->upMs, lbNeg(c->forwardMs)), n), lbAnyPerpendicular(n));
	*outH = hDir;
	*outUp = lbNormalizeOr(lbCross(n, hDir), c->upMs);
}

// Knee circle of a two-bone leg reaching `ankle` from `hip`: centre on the hip-ankle line, radius.
static float lbClimbKneeCircle(lbVec3 hip, lbVec3 ankle, float a, float b, lbVec3 axis, lbVec3* outCentre)
{
	float d = lbDistance(hip, ankle);
	d = lbClampF(d, lbAbsF(a - b) + 1.0e-5f, lbMaxF(a + b - 1.0e-5f, lbAbsF(a - b) + 1.0e-5f));
	const float x = (a * a - b * b + d * d) / (2.0f * d);
	*outCentre = lbMulAdd(hip, x, axis);
	return sqrtf(lbMaxF(a * a - x * x, 0.0f));
}

static float lbClimbWrapAngle(float x)
{
	return atan2f(sinf(x), cosf(x));
}

// Side blend (with its cache rule), wall frame, side direction and knee pole of leg `s` reaching
// `ankle` from the current hips. `legPoleMs` is the knee's natural direction (the humanoid's knee
// pole carried by the thigh).
static lbClimbLegPlan lbClimbPlanLeg(const lbClimbPoseCtx* c, int s, lbVec3 ankle, float cachedIn, bool cacheValid,
									 lbVec3 legPoleMs)
{
	const lbClimbDef* def = c->def;
	const lbHumanoid* h = c->humanoid;
	const lbPose* pose = c->pose;
	const lbLimbChain* ch = &c->chain[2 + s];
	const lbVec3 n = c->normalMs[2 + s];
	const lbVec3 hip = pose->model[h->leg[s].thigh].p;
	const lbVec3 hipCentre = lbLerp(pose->model[h->leg[0].thigh].p, pose->model[h->leg[1].thigh].p, 0.5f);
	lbClimbLegPlan p;
	lbClimbWallFrame(c, n, &p.wallH, &p.wallUp);

	// Side blend. d is the foot's sideways offset from the hip centre along the wall. The seed's
	// ranges are for one leg; the other leg reads d mirrored (`outward`, found from which side of
	// the centre its own hip lies, so no handedness is assumed) so that for both legs positive d
	// means "out toward its own side" and negative "crossed toward the other leg". A crossed foot
	// builds a positive side, an outward one a negative side, and sideDir (below) points toward
	// the body's middle for both legs: the two legs behave as mirror images.
	const float hipSide = lbDot(lbSub(hip, hipCentre), p.wallH);
	p.outward = hipSide != 0.0f ? (hipSide > 0.0f ? 1.0f : -1.0f)
								: (lbDot(s == lb_left ? h->leftMs : lbNeg(h->leftMs), p.wallH) >= 0.0f ? 1.0f : -1.0f);
	const float d = p.outward * lbDot(lbSub(c->targetMs[2 + s], hipCentre), p.wallH);
	const float neg = lbRemapClamped(-d, def->sideNegStart, def->sideNegFull, 0.0f, 1.0f);
	const float pos = lbRemapClamped(d, def->sidePosStart, def->sidePosFull, 0.0f, 1.0f);
	const float candidate = neg - pos;
	const float legLength = lbMaxF(ch->upperLength + ch->lowerLength, 1.0e-4f);
	p.reachRatio = lbDistance(ankle, hip) / legLength;
	// The side is chosen while the leg is free to choose (not held, IK taking part, not near either
	// end of its reach) and kept otherwise, so a planted leg does not flip as the body moves.
	const bool update = p.reachRatio > def->sideCacheMin && p.reachRatio < def->sideCacheMax && !c->locked[2 + s] &&
						c->ikAlpha[2 + s] > def->sideCacheAlpha;
	p.cached = update || !cacheValid ? candidate : lbClampF(cachedIn, -1.0f, 1.0f);
	const float extend = lbRemapClamped(p.reachRatio, def->extendFadeStart, def->extendFadeEnd, 1.0f, 0.0f);
	const float fold = lbRemapClamped(p.reachRatio, def->foldFadeStart, def->foldFadeEnd, 0.0f, 1.0f);
	p.side = p.cached * lbMinF(extend, fold);

	// A frame about the hip-ankle axis: out of the wall, and sideways (toward the middle).
	const lbVec3 legAxis = lbNormalizeOr(lbSub(ankle, hip), lbNeg(c->upMs));
	lbVec3 outDir = lbNormalize(lbProjectOnPlane(n, legAxis));
	if (lbLengthSquared(outDir) == 0.0f)
		outDir = lbNormalizeOr(lbProjectOnPlane(lbNeg(legPoleMs), legAxis), lbAnyPerpendicular(legAxis));
	p.sideDir = lbMulSV(p.outward, lbNormalizeOr(lbCross(legAxis, outDir), lbAnyPerpendicular(legAxis)));

	// Knee circle and its natural direction (u) and the outward side direction (v) about the axis.
	lbVec3 centre;
	const float radius = lbClimbKneeCircle(hip, ankle, ch->upperLength, ch->lowerLength, legAxis, &centre);
	const lbVec3 u = lbNormalizeOr(lbProjectOnPlane(legPoleMs, legAxis),
								   lbNormalizeOr(lbProjectOnPlane(c->forwardMs, legAxis), lbAnyPerpendicular(legAxis)));
	lbVec3 v = lbCross(legAxis, u);
	if (lbDot(v, p.sideDir) > 0.0f)
		v = lbNeg(v);
	const lbVec3 plane = c->surfaceMs[2 + s];
	const float clearance = lbMaxF(def->kneeClearance, 0.0f);

	// The seed's two poles, blended by |side|: the wall pole is the knee's natural place pushed out
	// of the wall by whatever clearance it lacks; the side pole sits beside the hip-foot midpoint.
	const lbVec3 kneeRef = lbMulAdd(centre, radius, u);
	const lbVec3 wallPole =
		lbMulAdd(kneeRef, lbMaxF(clearance - lbDot(lbSub(kneeRef, plane), n), 0.0f), n);
	const lbVec3 mid = lbLerp(hip, ankle, 0.5f);
	const lbVec3 sidePole = lbMulAdd(lbMulAdd(mid, def->poleBase, p.sideDir), p.side * def->poleSide, p.sideDir);
	const lbVec3 pole = lbLerp(wallPole, sidePole, lbAbsF(p.side));

	// A pole only picks the bend plane: pushing it out along the plane does not move the knee. The
	// clearance is kept by the swivel about the hip-ankle line instead: the knee at angle phi is
	// centre + radius (u cos phi + v sin phi); its height over the wall plane is
	// h + radius M cos(phi - phi0), and the smallest turn from the blended pole's angle that keeps
	// it at the clearance is taken (within LB_CLIMB_MAX_KNEE_SWIVEL of the natural direction).
	const lbVec3 prefDir = lbProjectOnPlane(lbSub(pole, centre), legAxis);
	float phi = lbLengthSquared(prefDir) > 1.0e-10f ? atan2f(lbDot(prefDir, v), lbDot(prefDir, u)) : 0.0f;
	const float hgt = lbDot(lbSub(centre, plane), n);
	const float A = lbDot(u, n), B = lbDot(v, n);
	const float M = sqrtf(A * A + B * B);
	if (radius * M > 1.0e-6f)
	{
		const float k = (clearance - hgt) / (radius * M);
		const float phi0 = atan2f(B, A);
		const float maxSwivel = LB_CLIMB_MAX_KNEE_SWIVEL;
		if (k >= 1.0f)
			phi = lbClampF(lbClimbWrapAngle(phi0), -maxSwivel, maxSwivel);
		else if (k > -1.0f && lbAbsF(lbClimbWrapAngle(phi - phi0)) > acosf(k))
		{
			const float half = acosf(k);
			const float cands[2] = { lbClimbWrapAngle(phi0 + half), lbClimbWrapAngle(phi0 - half) };
			float best = phi, bestCost = 1.0e9f;
			for (int i = 0; i < 2; ++i)
			{
				const float cnd = lbClampF(cands[i], -maxSwivel, maxSwivel);
				// A clamped candidate may miss the clearance: cost it by what it misses, heavily.
				const float miss = lbMaxF(clearance - (hgt + radius * (A * cosf(cnd) + B * sinf(cnd))), 0.0f);
				// Ties go to the outward side (positive phi).
				const float cost = lbAbsF(lbClimbWrapAngle(cnd - phi)) + 100.0f * miss - (cnd > 0.0f ? 1.0e-4f : 0.0f);
				if (cost < bestCost)
				{
					bestCost = cost;
					best = cnd;
				}
			}
			phi = best;
		}
	}
	const lbVec3 dir = lbAdd(lbMulSV(cosf(phi), u), lbMulSV(sinf(phi), v));
	p.poleMs = lbMulAdd(centre, lbMaxF(radius, 0.25f), dir);
	return p;
}

// Toe and foot-top directions (model space) of leg `s` for a plan, with the lower leg as posed.
static void lbClimbToeDirections(const lbClimbPoseCtx* c, int s, const lbClimbLegPlan* p, lbVec3 toeFlatLocal,
								 lbVec3* outToe, lbVec3* outTop)
{
	const lbHumanoid* h = c->humanoid;
	const lbSkeleton* sk = c->skeleton;
	const lbVec3 n = c->normalMs[2 + s];
	// The rest toe direction kept in the calf's frame and carried by the calf as it is now.
	const lbVec3 toeRest = lbTransformDirection(sk->restModel[h->leg[s].foot], toeFlatLocal);
	const lbVec3 toeInCalf = lbInvTransformDirection(sk->restModel[h->leg[s].calf], toeRest);
	const lbVec3 legToe = lbNormalize(lbTransformDirection(c->pose->model[h->leg[s].calf], toeInCalf));
	// Only the components along the wall's horizontal turn the toes (the sign of R cancels).
	const lbVec3 R = p->wallH;
	const float absSide = lbAbsF(p->side);
	const float turn = lbDot(p->sideDir, R) * p->side * c->def->toeSideGain +
					   lbDot(legToe, R) * (1.0f - absSide) * c->def->toeLegGain;
	const lbVec3 horizontal = lbNormalizeOr(lbMulAdd(lbNeg(n), turn, R), lbNeg(n));
	const lbVec3 toe = lbNormalizeOr(lbMulAdd(horizontal, c->def->toeUpGain, p->wallUp), horizontal);
	*outToe = toe;
	*outTop = lbNormalizeOr(lbProjectOnPlane(p->wallUp, toe), lbAnyPerpendicular(toe));
}

static lbResult lbClimbSolveLeg(const lbClimbPoseCtx* c, int s, lbClimbPoseCache* newCache, bool cacheValid,
								lbClimbPoseResult* res)
{
	const lbHumanoid* h = c->humanoid;
	lbPose* pose = c->pose;
	const int limb = 2 + s;
	const int foot = h->leg[s].foot;
	const float a = c->ikAlpha[limb];
	const lbSole sole = lbHumanoid_GetSole(h, s);
	const lbVec3 legPole = lbLimbChain_PoleMs(&c->chain[limb], pose);
	const lbClimbLegPlan plan = lbClimbPlanLeg(c, s, c->ankleGuessMs[s], newCache->legSide[s], cacheValid, legPole);
	newCache->legSide[s] = plan.cached;
	res->legSide[s] = plan.side;
	res->kneePoleMs[s] = plan.poleMs;
	if (a <= 0.0f)
		return lb_ok;

	// First pass: the bend from the pole, toward the estimated ankle.
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = c->ankleGuessMs[s];
	in.poleKind = lb_poleLocation;
	in.poleMs = plan.poleMs;
	in.weight = a;
	lbResult r = lbPose_SolveLimbIk(pose, c->skeleton, h, (lbLimb)limb, &in, NULL);
	if (r != lb_ok)
		return r;

	// Toe direction from the lower leg the first pass left, then the foot aimed with it.
	lbVec3 toe, top;
	lbClimbToeDirections(c, s, &plan, sole.toeFlat, &toe, &top);
	lbAimInput aim = lbDefaultAimInput();
	aim.primaryAxis = sole.toeFlat;
	aim.primaryTargetMs = toe;
	aim.secondaryAxis = h->legAxes[s].footUp;
	aim.secondaryTargetMs = top;
	aim.weight = a;
	r = lbPose_AimBone(pose, c->skeleton, foot, &aim);
	if (r != lb_ok)
		return r;

	// Turning the foot swings the toe tip about the ankle: the ankle goes where the turned foot
	// puts its toe tip on the target, and a second pass takes it there with the aimed rotation.
	const lbQuat footQ = pose->model[foot].q;
	in.targetMs = lbSub(c->targetMs[limb], lbQuatRotate(footQ, c->toeTipFoot[s]));
	in.useTargetRotation = true;
	in.targetRotationMs = footQ;
	return lbPose_SolveLimbIk(pose, c->skeleton, h, (lbLimb)limb, &in, NULL);
}

// Ankle goal of a foot before the body moves: the toe-tip target minus the toe tip's offset
// turned by the rotation the leg stage is expected to give the foot (planned from the pose as it
// is), so the full-body solve and the body constraint aim the leg where it will end.
static lbVec3 lbClimbGuessAnkle(const lbClimbPoseCtx* c, int s, float cachedSide, bool cacheValid)
{
	const lbHumanoid* h = c->humanoid;
	const lbPose* pose = c->pose;
	const int foot = h->leg[s].foot;
	const lbSole sole = lbHumanoid_GetSole(h, s);
	const lbVec3 toeT = c->targetMs[2 + s];
	// First guess with the foot as it is, then one with the planned rotation.
	const lbVec3 first = lbSub(toeT, lbQuatRotate(pose->model[foot].q, c->toeTipFoot[s]));
	const lbClimbLegPlan plan =
		lbClimbPlanLeg(c, s, first, cachedSide, cacheValid, lbLimbChain_PoleMs(&c->chain[2 + s], pose));
	lbVec3 toe, top;
	lbClimbToeDirections(c, s, &plan, sole.toeFlat, &toe, &top);
	const lbQuat q = lbAimRotation(pose->model[foot].q, sole.toeFlat, toe, h->legAxes[s].footUp, top, 1.0f);
	return lbSub(toeT, lbQuatRotate(q, c->toeTipFoot[s]));
}

// ---------------------------------------------------------------------------------------------
// Entry point

lbResult lbClimbApplyPose(const lbClimbTargets* targets, const lbClimbDef* def, const lbSkeleton* skeleton,
						  const lbHumanoid* humanoid, lbClimbPoseCache* cache, lbPose* pose, void* workspace,
						  size_t workspaceSize, lbClimbPoseResult* outResult)
{
	static const char fn[] = "lbClimbApplyPose";
	if (!targets || !def || !skeleton || !humanoid || !cache || !pose || !pose->local || !pose->model)
		return lbReport(lb_errorNullPointer, "%s: targets, def, skeleton, humanoid, cache and pose are required", fn);
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: def not initialised with lbDefaultClimbDef()", fn);
	if (def->fullBody.internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: def->fullBody not initialised with lbDefaultFullBodyIkSettings()",
						fn);
	if (pose->boneCount != skeleton->boneCount || skeleton->boneCount <= 0)
		return lbReport(lb_errorSkeletonMismatch, "%s: pose has %d bones, skeleton %d", fn, pose->boneCount,
						skeleton->boneCount);
	if (!lbClimbTargetsFinite(targets))
		return lbReport(lb_errorNonFinite, "%s: non-finite targets", fn);
	if (!lbClimbDefFinite(def))
		return lbReport(lb_errorNonFinite, "%s: non-finite def value", fn);
	if (def->bodyIterations < 0)
		return lbReport(lb_errorInvalidArgument, "%s: bodyIterations %d < 0", fn, def->bodyIterations);
	if (cache->valid)
	{
		for (int s = 0; s < 2; ++s)
			if (!lbClimbValidQuat(cache->handRotWs[s]) || !lbIsValidFloat(cache->legSide[s]))
				return lbReport(lb_errorNonFinite, "%s: the pose cache holds non-finite or non-unit values", fn);
	}
	lbClimbPoseCtx c;
	memset(&c, 0, sizeof c);
	for (int i = 0; i < 4; ++i)
	{
		if (lbHumanoid_GetLimbChain(humanoid, (lbLimb)i, &c.chain[i]) != lb_ok)
			return lbReport(lb_errorMissingRole, "%s: limb %d is not mapped", fn, i);
		if (!lbClimbValidBone(skeleton, c.chain[i].root) || !lbClimbValidBone(skeleton, c.chain[i].mid) ||
			!lbClimbValidBone(skeleton, c.chain[i].end))
			return lbReport(lb_errorSkeletonMismatch, "%s: the humanoid map does not fit the skeleton", fn);
	}
	if (!lbClimbValidBone(skeleton, humanoid->pelvis))
		return lbReport(lb_errorSkeletonMismatch, "%s: the humanoid's pelvis is not in the skeleton", fn);
	for (int s = 0; s < 2; ++s)
	{
		for (int k = 0; k < humanoid->arm[s].twistCount && k < LB_MAX_TWIST; ++k)
			if (humanoid->arm[s].twist[k] >= skeleton->boneCount)
				return lbReport(lb_errorSkeletonMismatch, "%s: a twist bone is not in the skeleton", fn);
	}
	if (!workspace)
		return lbReport(lb_errorNullPointer, "%s: workspace is NULL", fn);
	if (((uintptr_t)workspace % _Alignof(lbTransform)) != 0)
		return lbReport(lb_errorInvalidArgument, "%s: workspace is not aligned for lbTransform", fn);
	const size_t needed = lbGetClimbWorkspaceSize(skeleton);
	if (workspaceSize < needed)
		return lbReport(lb_errorCapacity, "%s: workspace of %zu bytes, %zu needed", fn, workspaceSize, needed);
	if (!lbPose_IsFinite(pose))
		return lbReport(lb_errorNonFinite, "%s: the input pose is not finite", fn);

	// Working copy of the pose after the full-body solver's part of the workspace.
	const int nb = skeleton->boneCount;
	const size_t fbSize = lbClimbAlignUp(lbGetFullBodyIkWorkspaceSize(skeleton), _Alignof(lbTransform));
	lbTransform* workLocal = (lbTransform*)((unsigned char*)workspace + fbSize);
	lbTransform* workModel = workLocal + nb;
	memcpy(workLocal, pose->local, (size_t)nb * sizeof(lbTransform));
	memcpy(workModel, pose->model, (size_t)nb * sizeof(lbTransform));
	lbPose work = { nb, workLocal, workModel };

	c.def = def;
	c.skeleton = skeleton;
	c.humanoid = humanoid;
	c.pose = &work;
	c.cw = targets->characterWs;
	lbVec3 upMs = lbNormalize(lbInvTransformDirection(c.cw, targets->upWs));
	if (lbLengthSquared(upMs) == 0.0f)
		upMs = lbNormalizeOr(lbInvTransformDirection(c.cw, def->up), humanoid->upMs);
	c.upMs = upMs;
	c.forwardMs = lbNormalizeOr(lbProjectOnPlane(humanoid->forwardMs, upMs), humanoid->forwardMs);
	c.leftMs = lbNormalizeOr(lbCross(upMs, c.forwardMs), humanoid->leftMs);
	for (int i = 0; i < 4; ++i)
	{
		const lbClimbLimbTarget* l = &targets->limbs[i];
		c.targetMs[i] = lbClimbPointMs(&c, l->targetWs);
		// A missing or degenerate normal: the wall the character faces.
		lbVec3 n = l->hasSurface ? lbNormalize(lbInvTransformDirection(c.cw, l->normalWs)) : lbVec3_zero;
		if (lbLengthSquared(n) == 0.0f)
			n = lbNeg(c.forwardMs);
		c.normalMs[i] = n;
		const float lockOffset = def->lockOffset[i < 2 ? 0 : 1];
		c.surfaceMs[i] = l->hasSurface ? lbClimbPointMs(&c, l->surfaceWs)
									   : lbMulAdd(c.targetMs[i], -(lbIsValidFloat(lockOffset) ? lockOffset : 0.0f), n);
		c.ikAlpha[i] = lbClampF(l->ikAlpha, 0.0f, 1.0f);
		c.bodyAlpha[i] = lbClampF(l->bodyAlpha, 0.0f, 1.0f);
		c.locked[i] = l->locked;
	}
	const bool cacheValid = cache->valid != 0;
	lbClimbPoseCache newCache = *cache;
	if (!cacheValid)
		lbClimbPoseCache_Reset(&newCache);
	lbClimbPoseResult res;
	memset(&res, 0, sizeof res);

	// 1. Body clearance from the wall: a displacement, carried by everything below the pelvis.
	lbResult r = lbPose_TranslateBoneModel(&work, skeleton, humanoid->pelvis, lbInvTransformVector(c.cw, targets->bodyOffsetWs));
	if (r != lb_ok)
		return r;
	for (int s = 0; s < 2; ++s)
	{
		lbVec3 pts[lb_solePointCount];
		lbHumanoid_GetSolePointsMs(humanoid, &work, s, pts);
		const lbTransform f = work.model[humanoid->leg[s].foot];
		c.toeTipFoot[s] = lbQuatInvRotate(f.q, lbSub(pts[lb_soleToeTip], f.p));
		c.ankleGuessMs[s] = lbClimbGuessAnkle(&c, s, newCache.legSide[s], cacheValid);
	}

	// 2. Full-body IK: every limb pulls the body by its body alpha; rotations are left to the
	// limb stages.
	bool anyBody = false;
	for (int i = 0; i < 4; ++i)
		anyBody = anyBody || c.bodyAlpha[i] > 1.0e-4f;
	if (anyBody)
	{
		lbFullBodyIkEffector eff[lb_effectorCount];
		for (int k = 0; k < lb_effectorCount; ++k)
			eff[k] = lbDefaultFullBodyIkEffector();
		const lbEffectorSlot slots[4] = { lb_effectorHandL, lb_effectorHandR, lb_effectorFootL, lb_effectorFootR };
		for (int i = 0; i < 4; ++i)
		{
			eff[slots[i]].targetMs = i < 2 ? c.targetMs[i] : c.ankleGuessMs[i - 2];
			eff[slots[i]].positionAlpha = c.bodyAlpha[i];
		}
		lbFullBodyIkSettings settings = def->fullBody;
		if (lbLengthSquared(settings.upMs) == 0.0f)
			settings.upMs = upMs;
		r = lbSolveFullBodyIk(&work, skeleton, humanoid, &settings, eff, workspace, fbSize, NULL);
		if (r != lb_ok)
			return r;
	}

	// 3. The body held to every locked limb together.
	{
		lbVec3 rootMs[4], lockMs[4];
		float allowed[4];
		int n = 0;
		for (int i = 0; i < 4; ++i)
		{
			if (!c.locked[i])
				continue;
			rootMs[n] = work.model[c.chain[i].root].p;
			lockMs[n] = i < 2 ? c.targetMs[i] : c.ankleGuessMs[i - 2];
			allowed[n] = lbMaxF(c.chain[i].upperLength + c.chain[i].lowerLength - def->bodyMargin, 0.0f);
			++n;
		}
		if (n > 0)
		{
			const lbVec3 shift = lbClimbHoldBody(rootMs, lockMs, allowed, n, def->bodyIterations, &res.constraintExcess,
												 &res.constraintRounds);
			if (lbLengthSquared(shift) > 0.0f)
			{
				r = lbPose_TranslateBoneModel(&work, skeleton, humanoid->pelvis, shift);
				if (r != lb_ok)
					return r;
			}
		}
	}

	// 4. Arms, then 5. legs.
	for (int s = 0; s < 2; ++s)
	{
		r = lbClimbSolveArm(&c, s, &newCache, cacheValid, &res.handReliability[s]);
		if (r != lb_ok)
			return r;
	}
	for (int s = 0; s < 2; ++s)
	{
		r = lbClimbSolveLeg(&c, s, &newCache, cacheValid, &res);
		if (r != lb_ok)
			return r;
	}

	// What is left: each fully weighted limb end's distance from its target.
	for (int i = 0; i < 4; ++i)
	{
		if (c.ikAlpha[i] < 0.999f)
			continue;
		lbVec3 end;
		if (i < 2)
			end = work.model[humanoid->arm[i].hand].p;
		else
		{
			lbVec3 pts[lb_solePointCount];
			lbHumanoid_GetSolePointsMs(humanoid, &work, i - 2, pts);
			end = pts[lb_soleToeTip];
		}
		res.remainingMax = lbMaxF(res.remainingMax, lbDistance(end, c.targetMs[i]));
	}
	if (!lbPose_IsFinite(&work))
		return lbReport(lb_errorNonFinite, "%s: the solve produced a non-finite pose (input kept)", fn);

	memcpy(pose->local, workLocal, (size_t)nb * sizeof(lbTransform));
	memcpy(pose->model, workModel, (size_t)nb * sizeof(lbTransform));
	newCache.valid = 1;
	*cache = newCache;
	if (outResult)
		*outResult = res;
	return lb_ok;
}
