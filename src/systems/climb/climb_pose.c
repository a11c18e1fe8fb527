// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Pose stage of the climbing system (model space). Order of work:
//   body clearance offset -> full-body IK -> body held to every locked limb at once ->
//   per arm: two-bone IK, fingers along the wall, palm twist, rotation cache, second pass ->
//   per leg: side blend, knee pole, first pass, toe direction, aim, ankle correction, second pass.
// Everything runs on a copy of the pose kept in the caller's workspace, so an error at any step
// leaves the caller's pose (and cache) as they were.
#include "limber/climb.h"
#include "core/rig_key.h"
#include "core/simd.h"
#include "ik/full_body_internal.h"
#include "ik/ik_internal.h"
#include "core/bits.h"
#include "core/frame_internal.h"

#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>

// The joint body constraint stops once every shoulder and hip is this close to its allowed reach (m).
#define LB_CLIMB_EXCESS_TOLERANCE 1.0e-4f
// Width of the band (rad) past def->ledgeAngle over which a hand's fallback finger direction turns
// from "up the surface" to "the character's forward", so a normal crossing the angle does not pop.
#define LB_CLIMB_LEDGE_BAND (10.0f * LB_DEG2RAD)
// Largest swivel of a knee about its hip-ankle line away from its natural direction (rad) that the
// wall clearance may ask for.
#define LB_CLIMB_MAX_KNEE_SWIVEL (100.0f * LB_DEG2RAD)
// Human ranges of the forearm and wrist (rad): the forearm's roll (pronation / supination) either
// way from its rest roll; wrist flexion / extension, radial / ulnar deviation, and the little
// twist the wrist itself allows.
#define LB_CLIMB_FOREARM_ROLL (90.0f * LB_DEG2RAD)
#define LB_CLIMB_WRIST_FLEX (80.0f * LB_DEG2RAD)
#define LB_CLIMB_WRIST_DEVIATION (25.0f * LB_DEG2RAD)
#define LB_CLIMB_WRIST_TWIST (10.0f * LB_DEG2RAD)
// Most an elbow folds (rad of flexion from straight) to reach a wrist target of a hand not held:
// under the 165 degrees docs/metrics.md allows by what the hand's turn limit and placement add
// after the solve (at 160 a hand let go overhead still reached 165.2).
#define LB_CLIMB_ELBOW_FOLD (150.0f * LB_DEG2RAD)
// Largest turn of the fingers from the fallback direction (up the wall) toward the forearm's
// shadow (rad); see lbClimbHandGoal.
#define LB_CLIMB_FINGER_TURN (100.0f * LB_DEG2RAD)
// Rounds of (hand placed within its ranges, wrist moved so the palm's contact is on the hold).
#define LB_CLIMB_HAND_PASSES 2
// How much faster than the turn limit a locking hand settles flat onto its hold.
#define LB_CLIMB_SETTLE_TURN 1.5f
// A locking hand whose settled palm would stay farther than this off its wall (rad) tries its
// fingers turned about the wall's normal, LB_CLIMB_SETTLE_STEPS turns each way up to
// LB_CLIMB_FINGER_TURN (see lbClimbSettleTurned).
#define LB_CLIMB_SETTLE_OFF (15.0f * LB_DEG2RAD)
#define LB_CLIMB_SETTLE_STEPS 6
#define LB_CLIMB_SETTLE_NEAR (5.0f * LB_DEG2RAD)
// A wrist this close to where its palm's contact asks (m) is not solved again: the solve would move
// it by no more, far under the contact's tolerance (1 mm).
#define LB_CLIMB_WRIST_CLOSE 1.0e-5f
// How much farther out of reach (m) the body's turn limit may take a held limb's shoulder or hip
// than the full-body solve left it before the limit gives way for the frame.
#define LB_CLIMB_BODY_LIMIT_SLACK 0.01f
// The forearm's flesh about its axis, a fraction of its length (adult proportions rounded down, as
// docs/metrics.md's capsules): how far its axis keeps off a lip it passes over.
#define LB_CLIMB_FOREARM_FLESH 0.13f
// How much short of its full length a held leg is kept when its foot turns to bring the ankle
// within reach (a fraction of the length): a leg solved straight has no bend left to hold.
#define LB_CLIMB_LEG_STRETCH 1.0e-4f
// Bisection rounds finding how far that limit gives way.
#define LB_CLIMB_BODY_GIVE_ROUNDS 6
// Least distance a held hand's shoulder keeps from its hold, as a fraction of the arm's reach.
#define LB_CLIMB_HAND_FOLD 0.3f
// How high over the plane of the top its hand holds a shoulder may be with the hand's lip term
// still judged (m; lbClimbUnderTopTerms): an elbow may hang under the top's plane, in front of the
// face, with the shoulder a little over it, and with the term left out as soon as the shoulder
// rose over the plane a held hand's forearm met the lip (2.74 cm, a 98.0-degree overhang 1.07 m
// away, mixamo; 1.37 cm at 109.6 degrees 1.03 m away, mixamo).
#define LB_CLIMB_TOP_SHOULDER_OVER 0.15f
// A leg whose hip-to-ankle distance is under this share of its length (the knee bent past about
// 130 degrees) is folded: its foot turns at most half-way to its aim in a frame (lbClimbSolveLeg).
#define LB_CLIMB_FOOT_FOLD 0.4f
// How far inside an upper arm's length a shoulder under a held top keeps from where its elbow
// clears the lip (m; lbClimbKeepOverLip): the elbow's turn settles a few millimetres short of it.
#define LB_CLIMB_LIP_MARGIN 0.01f
// Human range of the ankle (rad): its swing (flexion and inversion together) from the rest foot
// and its twist.
#define LB_CLIMB_ANKLE_SWING (55.0f * LB_DEG2RAD)
#define LB_CLIMB_ANKLE_TWIST (15.0f * LB_DEG2RAD)

static size_t lbClimbAlignUp(size_t n, size_t a)
{
	return (n + a - 1u) / a * a;
}

// Each side's forearm roll axes, ankle limit axes and sole, from the skeleton and humanoid alone.
typedef struct lbClimbLimbAxes
{
	// Each forearm's along axis and reference local rotation for its roll (lbHumanoid_GetLimitAxes).
	lbVec3 foreAlong[2];
	lbQuat foreRef[2];
	bool foreValid[2];
	// Each ankle's limit axes (lbHumanoid_GetLimitAxes of the foot role).
	lbVec3 footAlong[2], footBend[2];
	lbQuat footRef[2];
	bool footValid[2];
	// Each foot's sole (lbHumanoid_GetSole).
	lbSole sole[2];
	// Each arm's palm at no forearm roll against the elbow's hinge (lbClimbNeutralPalm, radians).
	float neutralPalm[2];
	// Each wrist's flexion axis (hand local, unit): finger x palm, made once rather than per call.
	lbVec3 wristFlex[2];
	// cosf and sinf of neutralPalm (the elbow search's terms).
	float neutralCos[2], neutralSin[2];
} lbClimbLimbAxes;

// What the pose stage derives from the skeleton and humanoid alone: their checks, the limb chains
// and the forearms' and ankles' limit axes. Kept at the end of the workspace next to copies of
// what it was derived from, so a character solved again with the same workspace skips them; any
// other bytes there (another skeleton or humanoid, or memory the stage never used) do not match
// and the rig is made again.
#define LB_CLIMB_RIG_MAGIC 0x6769526b6d696c43ull
typedef struct lbClimbRig
{
	lbRigKey key;
	lbLimbChain chain[4];
	lbClimbLimbAxes axes;
	// Each limb's bones (see lbClimbPoseCtx), from the skeleton's parents and the chains alone:
	// made with the rig rather than on every call. The sum covers boneCount entries of limbOf and
	// the listed part of below.
	int boneCount;
	int belowFirst[4], belowCount[4];
	// The bones whose locals go back to the caller's after the full-body solve (each arm's and
	// leg's, twist bones and ball included) and, in skeleton order, those bones and all below them,
	// whose model transforms are then made again (see lbClimbApplyPose).
	int restoreCount, refreshCount;
	int16_t restore[2 * (4 + LB_MAX_TWIST + 4)];
	int8_t limbOf[LB_MAX_BONES];
	int16_t below[LB_MAX_BONES];
	int16_t refresh[LB_MAX_BONES];
} lbClimbRig;

size_t lbGetClimbWorkspaceSize(const lbSkeleton* skeleton)
{
	if (!skeleton || skeleton->boneCount <= 0)
		return 0u;
	// The full-body solver's part first, then a working copy of the pose (local and model), then
	// the rig (with room to align it).
	return lbClimbAlignUp(lbGetFullBodyIkWorkspaceSize(skeleton), _Alignof(lbTransform)) +
		   2u * (size_t)skeleton->boneCount * sizeof(lbTransform) + sizeof(lbClimbRig) + _Alignof(lbClimbRig);
}

// lbQuatNormalize(q) bit for bit (the same sum, the same correctly rounded root), written out so
// the pass over every bone never calls it out of line.
static inline lbQuat lbClimbUnitQuat(lbQuat q)
{
	const float n = lbIkSqrtF(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
	if (!(n > LB_EPSILON) || !lbIsValidFloat(n))
		return lbQuat_identity;
	const float s = 1.0f / n;
	return LB_LITERAL(lbQuat){ q.x * s, q.y * s, q.z * s, q.w * s };
}

// lbClimbUnitQuat of the rotations of n transforms: on SSE lanes four at a time, with the same
// operations in the same order on each lane (so the same bits), and a group holding a rotation
// that cannot be made unit taken one at a time.
static void lbClimbUnitQuats(lbTransform* t, int n)
{
	int i = 0;
#if defined(LB_SIMD_SSE)
	const __m128 eps = _mm_set1_ps(LB_EPSILON), inf = _mm_set1_ps(INFINITY), one = _mm_set1_ps(1.0f);
	for (; i + 4 <= n; i += 4)
	{
		const __m128 q0 = _mm_loadu_ps(&t[i].q.x), q1 = _mm_loadu_ps(&t[i + 1].q.x);
		const __m128 q2 = _mm_loadu_ps(&t[i + 2].q.x), q3 = _mm_loadu_ps(&t[i + 3].q.x);
		__m128 x = q0, y = q1, z = q2, w = q3;
		_MM_TRANSPOSE4_PS(x, y, z, w);
		const __m128 n2 =
			_mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z)), _mm_mul_ps(w, w));
		const __m128 len = _mm_sqrt_ps(n2);
		// len > LB_EPSILON and finite (a square root is never below zero; NaN fails the first).
		if (_mm_movemask_ps(_mm_and_ps(_mm_cmpgt_ps(len, eps), _mm_cmplt_ps(len, inf))) != 0xf)
		{
			for (int k = i; k < i + 4; ++k)
				t[k].q = lbClimbUnitQuat(t[k].q);
			continue;
		}
		const __m128 sc = _mm_div_ps(one, len);
		_mm_storeu_ps(&t[i].q.x, _mm_mul_ps(q0, _mm_shuffle_ps(sc, sc, _MM_SHUFFLE(0, 0, 0, 0))));
		_mm_storeu_ps(&t[i + 1].q.x, _mm_mul_ps(q1, _mm_shuffle_ps(sc, sc, _MM_SHUFFLE(1, 1, 1, 1))));
		_mm_storeu_ps(&t[i + 2].q.x, _mm_mul_ps(q2, _mm_shuffle_ps(sc, sc, _MM_SHUFFLE(2, 2, 2, 2))));
		_mm_storeu_ps(&t[i + 3].q.x, _mm_mul_ps(q3, _mm_shuffle_ps(sc, sc, _MM_SHUFFLE(3, 3, 3, 3))));
	}
#endif
	for (; i < n; ++i)
		t[i].q = lbClimbUnitQuat(t[i].q);
}

// ---------------------------------------------------------------------------------------------
// Validation

// Finite and unit within 1e-2. The norm test alone decides: a non-finite component makes the sum
// of squares inf or NaN, which fails it.
static bool lbClimbValidQuat(lbQuat q)
{
	return lbAbsF(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w - 1.0f) < 1.0e-2f;
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
	for (int k = 0; k < t->sideWallCount && k < 2; ++k)
		if (!lbIsValidVec3(t->sideWallPointWs[k]) || !lbIsValidVec3(t->sideWallNormalWs[k]))
			return false;
	return true;
}

// Whether every value of a pose (local and model) is finite, as lbPose_IsFinite asks, in one
// pass over the floats with no branch: x - x is 0 for a finite x and NaN otherwise, and a sum
// holding a NaN stays NaN. Eight floats a step on SSE lanes (the check on the way in and on the
// way out cost 2.5% of the stage one bone at a time, and 2% one float at a time).
_Static_assert(sizeof(lbTransform) == 10 * sizeof(float), "lbTransform is ten floats");
static bool lbClimbAllFinite(const float* f, size_t count)
{
	size_t i = 0;
	float sum = 0.0f;
#if defined(LB_SIMD_SSE)
	__m128 a = _mm_setzero_ps(), b = _mm_setzero_ps();
	// Sixteen values a round (the loop's own count and test were a third of it at eight).
	for (; i + 16 <= count; i += 16)
	{
		const __m128 x = _mm_loadu_ps(f + i), y = _mm_loadu_ps(f + i + 4);
		const __m128 z = _mm_loadu_ps(f + i + 8), w = _mm_loadu_ps(f + i + 12);
		a = _mm_add_ps(a, _mm_add_ps(_mm_sub_ps(x, x), _mm_sub_ps(z, z)));
		b = _mm_add_ps(b, _mm_add_ps(_mm_sub_ps(y, y), _mm_sub_ps(w, w)));
	}
	for (; i + 8 <= count; i += 8)
	{
		const __m128 x = _mm_loadu_ps(f + i), y = _mm_loadu_ps(f + i + 4);
		a = _mm_add_ps(a, _mm_sub_ps(x, x));
		b = _mm_add_ps(b, _mm_sub_ps(y, y));
	}
	// Every lane 0 (a NaN compares false).
	if (_mm_movemask_ps(_mm_cmpeq_ps(_mm_add_ps(a, b), _mm_setzero_ps())) != 0xf)
		return false;
#endif
	for (; i < count; ++i)
		sum += f[i] - f[i];
	return sum == 0.0f;
}

// A foot's toe tip (model) as lbHumanoid_GetSolePointsMs gives it; with a ball bone, without
// working out the rest of the sole.
static lbVec3 lbClimbToeTipMs(const lbHumanoid* h, const lbPose* pose, int s)
{
	const lbLegBones* leg = &h->leg[s];
	if (leg->foot >= 0 && leg->foot < pose->boneCount && leg->ball >= 0 && leg->ball < pose->boneCount)
	{
		const lbTransform ball = pose->model[leg->ball];
		return lbAdd(ball.p, lbQuatRotate(ball.q, h->legAxes[s].toeTipBall));
	}
	lbVec3 pts[lb_solePointCount];
	lbHumanoid_GetSolePointsMs(h, pose, s, pts);
	return pts[lb_soleToeTip];
}

static bool lbClimbPoseAllFinite(const lbPose* pose)
{
	const size_t count = (size_t)pose->boneCount * (sizeof(lbTransform) / sizeof(float));
	return lbClimbAllFinite(&pose->local[0].p.x, count) && lbClimbAllFinite(&pose->model[0].p.x, count);
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
	// Hands in the locking transition (held): their held rotation still settles toward the palm
	// flat on the wall (see lbClimbSolveArm), so a hand confirmed while still turning does not
	// freeze its tilt.
	bool settling[4];
	// Whether a limb is on a surface (held, or steered with a surface found and IK taking part):
	// its wall counts for the knees' clearance.
	bool held[4];
	// Whether a limb is released and fading back to the animation (free, IK alpha above 0).
	bool fading[4];
	// Feet: the toe tip relative to the ankle in the foot bone's frame (model lengths), from the
	// input pose, so toes bent at the ball joint are kept.
	lbVec3 toeTipFoot[2];
	// Feet: the ankle goal estimated before the body moves, and each hip there (after the body's
	// clearance offset, before the full-body solve).
	lbVec3 ankleGuessMs[2], hipBeforeMs[2];
	// Largest turn of a hand or swing of a knee since the last frame (rad); 0 = no limit.
	float maxTurn;
	// The rig's forearm, ankle and sole axes.
	lbClimbLimbAxes axes;
	// Whether a surface faces up (a ledge or hold top) rather than being a wall.
	bool top[4];
	// A top known from a limb let go of it (a hand that held a ledge's top, its place there still
	// in the targets), and that place: where a wall ends, for the knees, and nothing else.
	bool knownTop[4];
	lbVec3 knownTopMs[4];
	// Every held limb is on a top (nothing holds the wall any more): standing up on a ledge.
	bool onTops;
	// Walls beside the body the sense stage found (a point and the outward normal, unit): the knees
	// keep off them too.
	lbVec3 sidePointMs[2], sideNormalMs[2];
	int sideCount;
	// Each limb's bones below its root, in index order (parents first): limb l's are
	// below[belowFirst[l]] .. below[belowFirst[l] + belowCount[l] - 1]; limbOf[b] is the limb whose
	// root b is or lies below, -1 for none (and for every bone when two limbs' bones overlap).
	const int8_t* limbOf;
	const int16_t* below;
	int belowFirst[4], belowCount[4];
} lbClimbPoseCtx;

// Turns `from` toward `to` by at most `maxAngle` (rad); `to` when maxAngle <= 0. `outTurned`
// (or NULL): whether the result is turned from `to` at all (the limit held it back by more than
// 1e-6 rad; `to` itself, or its negative, is not turned), without a second look at the two.
static lbQuat lbClimbTurnTowardFrom(lbQuat from, lbQuat to, float maxAngle, bool* outTurned)
{
	if (outTurned)
		*outTurned = false;
	if (!(maxAngle > 0.0f))
		return to;
	if (lbQuatDot(from, to) < 0.0f)
		to = lbQuatNeg(to);
	// The angle is 2 atan2(v, |w|) of the turn between them (lbQuatAngleBetween). A turn clearly
	// within the limit (v / |w| below half the limit, which is below its tangent, by far more than
	// the arctangent's rounding) is returned without the arctangent: most turns, most frames.
	const lbQuat d = lbQuatMul(lbQuatConj(from), to);
	const float v = sqrtf(d.x * d.x + d.y * d.y + d.z * d.z), w = lbAbsF(d.w);
	if (v <= w * (0.5f * maxAngle) * (1.0f - 1.0e-4f))
		return to;
	const float angle = 2.0f * atan2f(v, w);
	if (angle <= maxAngle || angle < 1.0e-6f)
		return to;
	// The slerp leaves it angle - maxAngle short of `to`, on the way from `from`.
	if (outTurned)
		*outTurned = angle - maxAngle > 1.0e-6f;
	return lbQuatNormalize(lbQuatSlerp(from, to, maxAngle / angle));
}

static lbQuat lbClimbTurnToward(lbQuat from, lbQuat to, float maxAngle)
{
	return lbClimbTurnTowardFrom(from, to, maxAngle, NULL);
}

// Turns bone rotation `from` toward `to` (model) by at most `maxAngle` (rad) in all, the bone's
// direction first: the swing of its axis `axisLocal` (its own frame, unit; zero for none) from
// where `from` points it to where `to` does, then the roll about that axis with what the limit
// leaves. A forearm turned as a whole toward a roll of 80 degrees in one frame kept its
// direction 80 % of a frame behind: the wrist of a hand moving onto the top of a 98-degree
// overhang fell 2.3 cm, onto the top. Only for a turn the limit holds back.
static lbQuat lbClimbSwingToward(lbQuat from, lbQuat to, lbVec3 axisLocal, float maxAngle)
{
	if (lbLengthSquared(axisLocal) < 0.5f)
		return lbClimbTurnToward(from, to, maxAngle);
	const lbVec3 a = lbQuatRotate(from, axisLocal), b = lbQuatRotate(to, axisLocal);
	const float swing = acosf(lbClampF(lbDot(a, b), -1.0f, 1.0f));
	// The axis turned by at most the limit, then the roll that is left, about the turned axis.
	const float taken = lbMinF(swing, maxAngle);
	const lbQuat full = lbQuatFromTo(a, b);
	const lbQuat part = swing > 1.0e-6f ? lbQuatSlerp(lbQuat_identity, full, taken / swing) : lbQuat_identity;
	const lbQuat swung = lbQuatNormalize(lbQuatMul(part, from));
	const lbVec3 dir = lbQuatRotate(swung, axisLocal);
	// The roll from the fully swung rotation to `to`, about b (signed).
	const lbQuat r = lbQuatCanonical(lbQuatMul(to, lbQuatConj(lbQuatMul(full, from))));
	float roll = 2.0f * atan2f(lbDot(lbMakeVec3(r.x, r.y, r.z), b), r.w);
	const float left = maxAngle - taken;
	roll = lbClampF(roll, -left, left);
	return lbQuatNormalize(lbQuatMul(lbQuatFromAxisAngle(dir, roll), swung));
}

static lbVec3 lbClimbPointMs(const lbClimbPoseCtx* c, lbVec3 pWs)
{
	return lbInvTransformPoint(c->cw, pWs);
}

// ---------------------------------------------------------------------------------------------
// Joint body constraint

// Reach allowed to a locked limb's root joint (shoulder, hip) from its lock (m): at most `hi`, and at
// least `lo`.
typedef struct lbClimbReach
{
	float lo, hi;
} lbClimbReach;

// Signed distance of a root joint at `d` from its lock outside its allowed reach: beyond it
// (positive, d - hi) or folded inside its least reach (negative, d - lo); 0 within.
static float lbClimbReachError(float d, lbClimbReach r)
{
	return d > r.hi ? d - r.hi : (d < r.lo ? d - r.lo : 0.0f);
}

// Largest distance any locked limb's root joint (shoulder, hip) lies outside its allowed reach from
// its lock after moving the pelvis by t; rootMs, lockMs and allowed are per locked limb.
static float lbClimbExcess(const lbVec3* rootMs, const lbVec3* lockMs, const lbClimbReach* allowed, int n, lbVec3 t)
{
	float worst = 0.0f;
	for (int i = 0; i < n; ++i)
		worst = lbMaxF(worst, lbAbsF(lbClimbReachError(lbDistance(lbAdd(rootMs[i], t), lockMs[i]), allowed[i])));
	return worst;
}

// Solves A x = b for a symmetric 3x3 A given by its rows; zero when singular. In doubles: with one
// limb beyond reach A is u u^T plus a tiny damping, and the cofactors of such a nearly singular
// matrix lose every digit in floats, which gave steps of centimetres where millimetres were asked
// (the body thrown for a frame).
static lbVec3 lbClimbSolveSym3(lbVec3 r0, lbVec3 r1, lbVec3 r2, lbVec3 b)
{
	const double a00 = r0.x, a01 = r0.y, a02 = r0.z, a11 = r1.y, a12 = r1.z, a22 = r2.z;
	const double c00 = a11 * a22 - a12 * a12, c01 = a02 * a12 - a01 * a22, c02 = a01 * a12 - a02 * a11;
	const double c11 = a00 * a22 - a02 * a02, c12 = a01 * a02 - a00 * a12, c22 = a00 * a11 - a01 * a01;
	const double det = a00 * c00 + a01 * c01 + a02 * c02;
	if (!(fabs(det) > 1.0e-30))
		return lbVec3_zero;
	const double bx = b.x, by = b.y, bz = b.z;
	return lbMakeVec3((float)((c00 * bx + c01 * by + c02 * bz) / det), (float)((c01 * bx + c11 * by + c12 * bz) / det),
					  (float)((c02 * bx + c12 * by + c22 * bz) / det));
}

// Sum of squared distances outside the allowed reaches after moving the pelvis by t (0 when every
// limb holds).
static float lbClimbExcessCost(const lbVec3* rootMs, const lbVec3* lockMs, const lbClimbReach* allowed, int n, lbVec3 t)
{
	float cost = 0.0f;
	for (int i = 0; i < n; ++i)
	{
		const float e = lbClimbReachError(lbDistance(lbAdd(rootMs[i], t), lockMs[i]), allowed[i]);
		cost += e * e;
	}
	return cost;
}

// Pelvis shift keeping every locked limb's root joint (shoulder, hip) within reach of its lock.
// Each limb asks the pelvis to stay inside a ball (centre lock - root, radius the allowed reach),
// and a held hand's shoulder outside a small one (its least reach, LB_CLIMB_HAND_FOLD);
// the shift is solved for all of them together, not one limb after another (where a later limb
// undoes an earlier one). The cost is the sum of the squared distances outside the allowed
// reaches: zero exactly where every limb holds, and convex but for the small balls. Each round is
// a damped Gauss-Newton (Levenberg-Marquardt) step on the limbs outside their reach at once, the
// smallest move bringing all of them back together to first order; a step that does not lower the cost is retried with more damping, so opposing
// limbs never make it blow up. One limb alone is projected back onto its reach in one round, as
// the seed does. When the balls have no common point (locks farther apart than the body allows)
// the rounds settle where the squared excesses are smallest, so the shortfall is shared between
// the limbs, and the largest is reported.
static lbVec3 lbClimbHoldBody(const lbVec3* rootMs, const lbVec3* lockMs, const lbClimbReach* allowed, int n, int maxRounds,
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
			const float e = lbClimbReachError(d, allowed[i]);
			if (e == 0.0f || d == 0.0f)
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

// Circle of the middle joint (knee, elbow) of a two-bone limb reaching `ankle` from `hip`: centre on
// the line between them, radius.
static float lbClimbKneeCircle(lbVec3 hip, lbVec3 ankle, float a, float b, lbVec3 axis, lbVec3* outCentre)
{
	float d = lbDistance(hip, ankle);
	d = lbClampF(d, lbAbsF(a - b) + 1.0e-5f, lbMaxF(a + b - 1.0e-5f, lbAbsF(a - b) + 1.0e-5f));
	const float x = (a * a - b * b + d * d) / (2.0f * d);
	*outCentre = lbMulAdd(hip, x, axis);
	return sqrtf(lbMaxF(a * a - x * x, 0.0f));
}

// x wrapped into (-pi, pi] (rad). Branches instead of atan2(sin, cos): it runs per candidate in the
// elbow's and knee's searches.
static float lbClimbWrapAngle(float x)
{
	if (x > -LB_PI && x <= LB_PI)
		return x;
	x = fmodf(x + LB_PI, 2.0f * LB_PI);
	if (x <= 0.0f)
		x += 2.0f * LB_PI;
	return x - LB_PI;
}

// lbAimRotation(current, primaryLocal, primaryTarget, secondaryLocal, secondaryTarget, weight)
// built from the two frames instead of a swing and a twist: the rotation that takes the primary
// axis onto its target and the secondary axis (across the primary) toward its target (across the
// target) is the product of the target frame and the transposed local one, made a quaternion once
// (no arctangent, sine or cosine). The same rotation to rounding, with the sign lbAimRotation
// gives (its swing and twist about the target both have w >= 0, so it is never more than half a
// turn from `current`: its dot with `current` is not negative). Where the twist is undefined (a
// secondary axis or target along the primary one, a vanishing axis) or the weight is not finite,
// lbAimRotation itself answers.
static lbQuat lbClimbAim(lbQuat current, lbVec3 primaryLocal, lbVec3 primaryTarget, lbVec3 secondaryLocal,
						 lbVec3 secondaryTarget, float weight)
{
	const lbVec3 t = lbNormalize(primaryTarget), pa = lbNormalize(primaryLocal), sl = lbNormalize(secondaryLocal);
	// The tests of lbAimRotation: the secondary axis turned with the swing and seen across the
	// target is as long as the secondary axis across the primary one.
	const lbVec3 sLocal = lbProjectOnPlane(sl, pa), sWant = lbProjectOnPlane(secondaryTarget, t);
	if (!lbIsValidFloat(weight) || lbLengthSquared(t) == 0.0f || lbLengthSquared(pa) == 0.0f ||
		!(lbLength(sLocal) > 1.0e-4f) || !(lbLength(sWant) > 1.0e-4f))
		return lbAimRotation(current, primaryLocal, primaryTarget, secondaryLocal, secondaryTarget, weight);
	const lbVec3 a2 = lbNormalize(sLocal), b2 = lbNormalize(sWant);
	const lbVec3 a3 = lbCross(pa, a2), b3 = lbCross(t, b2);
	// R = B A^T, B's columns t, b2, b3 and A's pa, a2, a3.
	const float m00 = t.x * pa.x + b2.x * a2.x + b3.x * a3.x, m01 = t.x * pa.y + b2.x * a2.y + b3.x * a3.y,
				m02 = t.x * pa.z + b2.x * a2.z + b3.x * a3.z;
	const float m10 = t.y * pa.x + b2.y * a2.x + b3.y * a3.x, m11 = t.y * pa.y + b2.y * a2.y + b3.y * a3.y,
				m12 = t.y * pa.z + b2.y * a2.z + b3.y * a3.z;
	const float m20 = t.z * pa.x + b2.z * a2.x + b3.z * a3.x, m21 = t.z * pa.y + b2.z * a2.y + b3.z * a3.y,
				m22 = t.z * pa.z + b2.z * a2.z + b3.z * a3.z;
	// The largest of 4w^2, 4x^2, 4y^2, 4z^2 gives the best-conditioned square root.
	lbQuat r;
	const float tr = m00 + m11 + m22;
	if (tr > m00 && tr > m11 && tr > m22)
	{
		const float f = sqrtf(1.0f + tr), h = 0.5f / f;
		r = (lbQuat){ (m21 - m12) * h, (m02 - m20) * h, (m10 - m01) * h, 0.5f * f };
	}
	else if (m00 >= m11 && m00 >= m22)
	{
		const float f = sqrtf(lbMaxF(1.0f + m00 - m11 - m22, 0.0f)), h = f > 0.0f ? 0.5f / f : 0.0f;
		r = (lbQuat){ 0.5f * f, (m01 + m10) * h, (m02 + m20) * h, (m21 - m12) * h };
	}
	else if (m11 >= m22)
	{
		const float f = sqrtf(lbMaxF(1.0f + m11 - m00 - m22, 0.0f)), h = f > 0.0f ? 0.5f / f : 0.0f;
		r = (lbQuat){ (m01 + m10) * h, 0.5f * f, (m12 + m21) * h, (m02 - m20) * h };
	}
	else
	{
		const float f = sqrtf(lbMaxF(1.0f + m22 - m00 - m11, 0.0f)), h = f > 0.0f ? 0.5f / f : 0.0f;
		r = (lbQuat){ (m02 + m20) * h, (m12 + m21) * h, 0.5f * f, (m10 - m01) * h };
	}
	current = lbQuatNormalize(current);
	r = lbQuatNormalize(lbQuatDot(r, current) < 0.0f ? lbQuatNeg(r) : r);
	weight = lbClampF(weight, 0.0f, 1.0f);
	return weight >= 1.0f ? r : lbQuatSlerp(current, r, weight);
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

// The hand's goal rotation (model): fingers along the wall and the palm flat on it. The fingers
// follow the forearm's shadow on the wall, turned from the fallback direction (up the wall, or
// ahead on a ledge) by the shadow's angle from it times the reliability, so a short shadow (the
// forearm pointing into the wall) hands over to the fallback by turning, never through a zero
// vector. A shadow pointing back down past LB_CLIMB_FINGER_TURN turns the fingers back toward the
// fallback, reaching it when the shadow points straight down: the fingers never swing over from
// one side to the other as the forearm passes under the wrist. The palm faces into the wall
// whatever the fingers do, so there is no twist angle to wrap. Writes the reliability (0..1); without
// `wantGoal` only the reliability is worked out and the hand's rotation comes back as it is.
static lbQuat lbClimbHandGoal(const lbClimbPoseCtx* c, int s, bool wantGoal, float* outReliability)
{
	const lbHumanoid* h = c->humanoid;
	const lbPose* pose = c->pose;
	const lbArmBones* arm = &h->arm[s];
	const lbVec3 n = c->normalMs[s];
	const lbTransform hand = pose->model[arm->hand];
	const lbVec3 foreDir = lbNormalize(lbSub(hand.p, pose->model[arm->foreArm].p));
	float projLength = 0.0f;
	const lbVec3 proj = lbGetLengthAndNormalize(&projLength, lbProjectOnPlane(foreDir, n));
	const float reliability =
		lbRemapClamped(projLength, c->def->reliabilityStart, c->def->reliabilityFull, 0.0f, 1.0f);
	*outReliability = reliability;
	// A held hand keeps its cache and a faded one the animation's: only the reliability is asked.
	if (!wantGoal)
		return hand.q;
	const lbVec3 fallback = lbClimbFingerFallback(c, n);
	float angle = projLength > 0.0f ? atan2f(lbDot(lbCross(fallback, proj), n), lbDot(fallback, proj)) : 0.0f;
	const float m = LB_CLIMB_FINGER_TURN;
	if (lbAbsF(angle) > m)
		angle = (angle > 0.0f ? 1.0f : -1.0f) * m * (LB_PI - lbAbsF(angle)) / (LB_PI - m);
	const lbVec3 tangent = lbNormalizeOr(lbQuatRotate(lbQuatFromAxisAngle(n, angle * reliability), fallback), fallback);
	return lbClimbAim(hand.q, h->armAxes[s].finger, tangent, h->armAxes[s].palm, lbNeg(n), 1.0f);
}

// Local rotation of a bone computed from the model rotations (the working pose keeps both, but
// this does not depend on which one a solver updated last).
static lbQuat lbClimbLocalQ(const lbClimbPoseCtx* c, int bone)
{
	const int parent = c->skeleton->parents[bone];
	const lbQuat q = c->pose->model[bone].q;
	return parent >= 0 ? lbQuatNormalize(lbQuatMul(lbQuatConj(c->pose->model[parent].q), q)) : q;
}

// Roll of the forearm about its own axis from its reference (rest) roll (rad).
static float lbClimbForearmRoll(const lbClimbPoseCtx* c, int s)
{
	if (!c->axes.foreValid[s])
		return 0.0f;
	return lbQuatTwistAngle(lbQuatMul(lbQuatConj(c->axes.foreRef[s]), lbClimbLocalQ(c, c->humanoid->arm[s].foreArm)),
							c->axes.foreAlong[s]);
}

// Turn about the forearm, from the forearm's reference roll, that puts the hand at `handMs`
// (model): the forearm's roll (`roll`, lbClimbForearmRoll of the pose as it is) plus the roll that
// best lines up the wrist's flexion axis and the palm's normal at rest (carried by the forearm as
// it is) with the hand's, across the forearm: the roll r maximising the sum of
// w (a cos r + (axis x a) sin r) . b over the two axes (a at rest, b the hand's, flexion weighted
// twice the palm), atan2 of the sums. Each axis alone loses the roll somewhere a held hand goes:
// the hand's twist about its finger axis (a swing and twist split) spins as the wrist's flexion
// nears half a turn (fingers up, the forearm pointing down: the body risen past the hand), the
// flexion axis alone as the hand deviates a quarter turn (the forearm along the wall beside the
// hold), the palm alone as the wrist flexes a quarter turn; weighted unequally they cancel only
// where both nearly lie along the forearm at once (the split rolled a held forearm 20-27 degrees a
// frame; lbClimbSolveArm also limits a held forearm's roll per frame).
static float lbClimbHandTwistAt(const lbClimbPoseCtx* c, int s, lbQuat handMs, float roll)
{
	const lbSkeleton* sk = c->skeleton;
	const lbPose* pose = c->pose;
	const lbArmBones* arm = &c->humanoid->arm[s];
	const lbArmAxes* ax = &c->humanoid->armAxes[s];
	const int hand = arm->hand, parent = sk->parents[hand];
	if (parent < 0)
		return 0.0f;
	const lbVec3 axis = lbNormalizeOr(lbSub(pose->model[hand].p, pose->model[arm->foreArm].p),
									  lbTransformDirection(pose->model[arm->foreArm], ax->foreAlong));
	const lbQuat atRest = lbQuatMul(pose->model[parent].q, sk->restLocal[hand].q);
	const lbVec3 flex = c->axes.wristFlex[s];
	const lbVec3 local[2] = { flex, ax->palm };
	const float weight[2] = { 2.0f, 1.0f };
	float cosSum = 0.0f, sinSum = 0.0f;
	for (int k = 0; k < 2; ++k)
	{
		const lbVec3 from = lbProjectOnPlane(lbQuatRotate(atRest, local[k]), axis);
		const lbVec3 to = lbQuatRotate(handMs, local[k]);
		cosSum += weight[k] * lbDot(from, to);
		sinSum += weight[k] * lbDot(lbCross(axis, from), to);
	}
	return roll + (cosSum * cosSum + sinSum * sinSum > 1.0e-12f ? atan2f(sinSum, cosSum) : 0.0f);
}

static float lbClimbHandTwist(const lbClimbPoseCtx* c, int s, lbQuat handMs)
{
	return lbClimbHandTwistAt(c, s, handMs, lbClimbForearmRoll(c, s));
}

// What the arm had before the hand was placed: the forearm's roll and the hand's local rotation.
typedef struct lbClimbHandStart
{
	float roll;
	lbQuat local;
} lbClimbHandStart;

// Sets a bone's model rotation and its local to match, as lbPose_SetBoneModelRotation does, but
// leaves the bones below it where they were until lbClimbCarryBelow: the hand's placement writes
// the forearm's twist bones and the hand one after another, and each write carried down the
// skeleton on its own cost more than the rest of the placement.
static void lbClimbWriteRotation(lbPose* pose, const lbSkeleton* sk, int bone, lbQuat q)
{
	const int p = sk->parents[bone];
	pose->model[bone].q = lbQuatNormalize(q);
	if (p >= 0)
		lbIkTransformRelativeTo(&pose->local[bone], &pose->model[p], &pose->model[bone]);
	else
		pose->local[bone] = pose->model[bone];
}

// Carries every bone below `bone` (not `bone` itself) from its local, as lbPose_UpdateSubtree does
// below the bone: what lbClimbWriteRotation left behind follows in one pass. A bone of a limb
// (its root or below it) looks only at the limb's bones (the rig's list, in index order: the same
// products in the same order), not at every bone after it.
static void lbClimbCarryBelow(const lbClimbPoseCtx* c, int bone)
{
	lbPose* pose = c->pose;
	const lbSkeleton* sk = c->skeleton;
	const int limb = c->limbOf[bone];
	uint8_t below[LB_MAX_BONES];
	if (limb >= 0)
	{
		// Marks by bone index: the bone itself, and each listed bone from its parent (the limb's
		// root, when it is not `bone`, is above it and unmarked; a listed bone before `bone` cannot
		// be below it).
		const int root = c->chain[limb].root;
		below[root] = 0u;
		below[bone] = 1u;
		const int16_t* list = &c->below[c->belowFirst[limb]];
		for (int k = 0; k < c->belowCount[limb]; ++k)
		{
			const int i = list[k];
			if (i <= bone)
			{
				below[i] = (uint8_t)(i == bone);
				continue;
			}
			const int p = sk->parents[i];
			below[i] = below[p];
			if (below[i])
				lbIkTransformMulTo(&pose->model[i], &pose->model[p], &pose->local[i]);
		}
		return;
	}
	below[0] = 1u;
	for (int i = bone + 1; i < pose->boneCount; ++i)
	{
		const int p = sk->parents[i];
		below[i - bone] = (uint8_t)(p >= bone && below[p - bone]);
		if (below[i - bone])
			lbIkTransformMulTo(&pose->model[i], &pose->model[p], &pose->local[i]);
	}
}

// A limb's bones below its root for the two-bone solve, or NULL (the limbs' bones overlap).
static const int16_t* lbClimbSubtree(const lbClimbPoseCtx* c, int limb)
{
	return c->limbOf[c->chain[limb].root] == limb ? &c->below[c->belowFirst[limb]] : NULL;
}

// lbPose_SetBoneModelRotation(pose, skeleton, bone, q, true), the same values: the bone's model
// rotation (normalised) and its local, the bone's model again from its local, then the bones
// below it (lbClimbCarryBelow: for a limb's bone only the limb's bones are looked at). A transform
// the public call would refuse goes to it, for its error.
static lbResult lbClimbSetRotation(const lbClimbPoseCtx* c, int bone, lbQuat q)
{
	lbPose* pose = c->pose;
	const lbSkeleton* sk = c->skeleton;
	if (bone < 0 || bone >= pose->boneCount || c->limbOf[bone] < 0)
		return lbPose_SetBoneModelRotation(pose, sk, bone, q, true);
	lbTransform m = pose->model[bone];
	m.q = q;
	if (!lbIsValidVec3(m.p) || !lbIsValidQuat(m.q) || !lbIsValidVec3(m.s))
		return lbPose_SetBoneModelRotation(pose, sk, bone, q, true);
	m.q = lbQuatNormalize(m.q);
	const int p = sk->parents[bone];
	pose->model[bone] = m;
	if (p == LB_NULL_INDEX)
		pose->local[bone] = m;
	else
	{
		lbIkTransformRelativeTo(&pose->local[bone], &pose->model[p], &pose->model[bone]);
		lbIkTransformMulTo(&pose->model[bone], &pose->model[p], &pose->local[bone]);
	}
	lbClimbCarryBelow(c, bone);
	return lb_ok;
}

// The wrist target of arm `s` (model) as its solves take it: a hand not held is kept as far from
// the shoulder as the elbow folded LB_CLIMB_ELBOW_FOLD puts it. A hand let go overhead passes
// close by the shoulder on its way back down to the animation, and followed right in, its elbow
// folded 167-169 degrees.
static lbVec3 lbClimbArmTarget(const lbClimbPoseCtx* c, int s, lbVec3 targetMs)
{
	if (c->locked[s])
		return targetMs;
	const lbPose* pose = c->pose;
	const lbArmBones* arm = &c->humanoid->arm[s];
	const float ua = c->chain[s].upperLength, fa = c->chain[s].lowerLength;
	const float nearest = sqrtf(lbMaxF(ua * ua + fa * fa + 2.0f * ua * fa * cosf(LB_CLIMB_ELBOW_FOLD), 0.0f));
	const lbVec3 shoulder = pose->model[arm->upperArm].p;
	const lbVec3 away = lbSub(targetMs, shoulder);
	if (!(lbLengthSquared(away) < nearest * nearest))
		return targetMs;
	const lbVec3 fallback = lbNormalizeOr(lbSub(pose->model[arm->hand].p, shoulder), lbNeg(c->upMs));
	return lbMulAdd(shoulder, nearest, lbNormalizeOr(away, fallback));
}

// A bone (model) turned from `lastMs` no faster than `maxAngle` (rad): written only when the limit
// holds it back (lbClimbSetRotation); a bone within the limit is left as it is.
static lbResult lbClimbLimitTurn(const lbClimbPoseCtx* c, int bone, lbQuat lastMs, float maxAngle)
{
	bool turned;
	const lbQuat q = lbClimbTurnTowardFrom(lastMs, c->pose->model[bone].q, maxAngle, &turned);
	return turned ? lbClimbSetRotation(c, bone, q) : lb_ok;
}

// Wrist ranges as a joint limit on the hand's local rotation (see lbClimbPlaceHand).
static lbJointLimit lbClimbWristLimit(void)
{
	lbJointLimit wrist;
	memset(&wrist, 0, sizeof wrist);
	wrist.kind = lb_limitRanges;
	wrist.bendMin = -LB_CLIMB_WRIST_FLEX;
	wrist.bendMax = LB_CLIMB_WRIST_FLEX;
	wrist.sideMin = -LB_CLIMB_WRIST_DEVIATION;
	wrist.sideMax = LB_CLIMB_WRIST_DEVIATION;
	wrist.twistMin = -LB_CLIMB_WRIST_TWIST;
	wrist.twistMax = LB_CLIMB_WRIST_TWIST;
	return wrist;
}

// The hand rotation (model) lbClimbPlaceHand would reach at full weight for `goal`, the pose
// left as it is; `total` is the whole turn about the forearm on the branch nearest preferTwist.
static lbQuat lbClimbReachableHand(const lbClimbPoseCtx* c, int s, lbQuat goal, float preferTwist, float* outTotal,
								   float* outFullRoll)
{
	const lbSkeleton* sk = c->skeleton;
	const lbPose* pose = c->pose;
	const lbArmBones* arm = &c->humanoid->arm[s];
	const lbArmAxes* ax = &c->humanoid->armAxes[s];
	const int fore = arm->foreArm, hand = arm->hand, parent = sk->parents[hand];
	const lbVec3 axis = lbNormalizeOr(lbSub(pose->model[hand].p, pose->model[fore].p),
									  lbTransformDirection(pose->model[fore], ax->foreAlong));
	const float roll = lbClimbForearmRoll(c, s);
	float total = lbClimbHandTwistAt(c, s, goal, roll);
	if (total - preferTwist > LB_PI)
		total -= 2.0f * LB_PI;
	else if (preferTwist - total > LB_PI)
		total += 2.0f * LB_PI;
	const float fullRoll = lbClampF(total, -LB_CLIMB_FOREARM_ROLL, LB_CLIMB_FOREARM_ROLL);
	const lbQuat parentFull = lbQuatMul(lbQuatFromAxisAngle(axis, fullRoll - roll), pose->model[parent].q);
	const lbVec3 flexAxis = c->axes.wristFlex[s];
	const lbJointLimit wrist = lbClimbWristLimit();
	const lbQuat local = lbClampToJointLimit(&wrist, sk->restLocal[hand].q, ax->finger, flexAxis,
											 lbQuatNormalize(lbQuatMul(lbQuatConj(parentFull), goal)));
	*outTotal = total;
	*outFullRoll = fullRoll;
	return lbQuatNormalize(lbQuatMul(parentFull, local));
}

// A goal the forearm can reach with the palm on the wall: when the goal asks the forearm to roll
// past its range, the hand turns about the wall normal (the fingers swing along the wall, the palm
// stays on it) by what brings the roll back into range. A turn about the normal rolls the hand
// about the forearm by its cosine with the forearm, so the turn is the excess over that cosine
// (at most LB_CLIMB_FINGER_TURN), refined in a few rounds. Continuous in the goal and the arm, so
// the fingers never jump.
static lbQuat lbClimbReachableGoal(const lbClimbPoseCtx* c, int s, lbQuat goal, float preferTwist)
{
	const lbSkeleton* sk = c->skeleton;
	const lbPose* pose = c->pose;
	const lbArmBones* arm = &c->humanoid->arm[s];
	const lbVec3 n = c->normalMs[s];
	if (sk->parents[arm->hand] < 0)
		return goal;
	const lbVec3 axis = lbNormalize(lbSub(pose->model[arm->hand].p, pose->model[arm->foreArm].p));
	const float cosine = lbDot(axis, n);
	if (lbAbsF(cosine) < 1.0e-3f)
		return goal;
	float turned = 0.0f;
	lbQuat g = goal;
	for (int round = 0; round < 3; ++round)
	{
		float total, fullRoll;
		lbClimbReachableHand(c, s, g, preferTwist, &total, &fullRoll);
		preferTwist = total;
		const float excess = total - fullRoll;
		if (lbAbsF(excess) < 1.0e-4f)
			break;
		const float next = lbClampF(turned - excess / cosine, -LB_CLIMB_FINGER_TURN, LB_CLIMB_FINGER_TURN);
		if (next == turned)
			break;
		g = lbQuatNormalize(lbQuatMul(lbQuatFromAxisAngle(n, next - turned), g));
		turned = next;
	}
	return g;
}

// Turns the hand toward `goal` (model) as far as a human forearm and wrist allow, blended from
// `start` by `weight`. The part of the turn about the forearm is pronation or supination: it goes
// to the forearm's roll, within LB_CLIMB_FOREARM_ROLL of its reference (the rest roll), and the
// twist bones share it by where they sit between elbow and wrist. What is left is the wrist's:
// flexion and extension, radial and ulnar deviation and a little twist, each clamped to its range.
// `preferTwist` (the hand's whole turn about the forearm last frame, see lbClimbHandTwist) picks
// the branch when the turn asked for is near half a turn away, so the palm never flips from one
// end of the range to the other. Returns the turn used.
static float lbClimbPlaceHand(const lbClimbPoseCtx* c, int s, lbQuat goal, lbClimbHandStart start, float weight,
							  float preferTwist, bool clampWrist, float twistFrom, float twistStep, bool atStart)
{
	const lbSkeleton* sk = c->skeleton;
	const lbHumanoid* h = c->humanoid;
	lbPose* pose = c->pose;
	const lbArmBones* arm = &h->arm[s];
	const lbArmAxes* ax = &h->armAxes[s];
	const int fore = arm->foreArm, hand = arm->hand, parent = sk->parents[hand];
	if (parent < 0)
	{
		lbPose_SetBoneModelRotation(pose, sk, hand, goal, true);
		return 0.0f;
	}
	const lbQuat handRest = sk->restLocal[hand].q;
	const lbVec3 foreP = pose->model[fore].p;
	const lbVec3 axis =
		lbNormalizeOr(lbSub(pose->model[hand].p, foreP), lbTransformDirection(pose->model[fore], ax->foreAlong));
	const float foreLength = lbMaxF(lbDistance(pose->model[hand].p, foreP), 1.0e-4f);

	// The whole turn about the forearm the goal asks for, on the branch nearest the preferred one.
	// (`atStart`: the arm is as `start` found it, whose roll is the one it has.)
	const float roll = atStart ? start.roll : lbClimbForearmRoll(c, s);
	float total = lbClimbHandTwistAt(c, s, goal, roll);
	if (total - preferTwist > LB_PI)
		total -= 2.0f * LB_PI;
	else if (preferTwist - total > LB_PI)
		total += 2.0f * LB_PI;
	// The turn about the forearm changes no faster than the limit since last frame's: a goal that
	// jumps (a hand let go, its goal no longer the held one) rolls the forearm over several frames.
	if (twistStep > 0.0f)
		total = lbClampF(total, twistFrom - twistStep, twistFrom + twistStep);

	// Pronation / supination: the forearm's roll at full weight, and the hand's local rotation
	// against a forearm rolled that far, clamped to the wrist's ranges. Flexion turns the fingers
	// toward the palm (about finger x palm); deviation turns them in the palm's plane.
	const float fullRoll = lbClampF(total, -LB_CLIMB_FOREARM_ROLL, LB_CLIMB_FOREARM_ROLL);
	const lbQuat parentFull = lbQuatMul(lbQuatFromAxisAngle(axis, fullRoll - roll), pose->model[parent].q);
	const lbVec3 flexAxis = c->axes.wristFlex[s];
	const lbJointLimit wrist = lbClimbWristLimit();
	const lbQuat wantLocal = lbQuatNormalize(lbQuatMul(lbQuatConj(parentFull), goal));
	// A held hand keeps its rotation exactly (the palm stays on its hold): its wrist takes what
	// the body's move asks, as a hand gripping a hold does.
	const lbQuat fullLocal =
		clampWrist ? lbClampToJointLimit(&wrist, handRest, ax->finger, flexAxis, wantLocal) : wantLocal;

	// Weighted: the roll and the hand's local rotation go from where they started.
	const float dr = start.roll + weight * (fullRoll - start.roll) - roll;
	if (lbAbsF(dr) > 1.0e-7f)
	{
		// Twist bones keep where they were, then take their share of the roll.
		lbQuat twistQ[LB_MAX_TWIST];
		const int twistCount = arm->twistCount < LB_MAX_TWIST ? arm->twistCount : LB_MAX_TWIST;
		for (int k = 0; k < twistCount; ++k)
			if (lbClimbValidBone(sk, arm->twist[k]))
				twistQ[k] = pose->model[arm->twist[k]].q;
		// The roll turns the forearm about its own axis through the wrist: its model rotation and
		// local are written and its place kept (its model from its local again would move it, and the
		// wrist with it, by the rounding in its parent's rotation: a few micrometres after a solve).
		lbClimbWriteRotation(pose, sk, fore, lbQuatMul(lbQuatFromAxisAngle(axis, dr), pose->model[fore].q));
		lbClimbCarryBelow(c, fore);
		for (int k = 0; k < twistCount; ++k)
		{
			const int b = arm->twist[k];
			if (!lbClimbValidBone(sk, b) || b == parent)
				continue;
			const float share = lbClampF(lbDot(lbSub(pose->model[b].p, foreP), axis) / foreLength, 0.0f, 1.0f);
			const lbQuat q = lbQuatNormalize(lbQuatMul(lbQuatFromAxisAngle(axis, dr * share), twistQ[k]));
			// A twist bone hanging straight from the forearm is written in place (the forearm's
			// write already carried it); what hangs below it follows once, with the hand.
			if (sk->parents[b] == fore && parent == fore)
				lbClimbWriteRotation(pose, sk, b, q);
			else
				lbClimbSetRotation(c, b, q);
		}
	}
	// At full weight the blend is the placed rotation itself, on the start's side (as the blend
	// would give it), without the blend's arccosine and sines.
	const lbQuat local = weight >= 1.0f ? lbQuatNormalize(lbQuatDot(start.local, fullLocal) < 0.0f ? lbQuatNeg(fullLocal) : fullLocal)
										: lbQuatSlerp(start.local, fullLocal, weight);
	lbClimbWriteRotation(pose, sk, hand, lbQuatNormalize(lbQuatMul(pose->model[parent].q, local)));
	lbClimbCarryBelow(c, fore);
	return total;
}

// Angle (rad) about the unit axis `f` from `a` to `b` (both taken perpendicular to f); 0 when
// either vanishes.
static float lbClimbAngleAbout(lbVec3 a, lbVec3 b, lbVec3 f)
{
	a = lbProjectOnPlane(a, f);
	b = lbProjectOnPlane(b, f);
	if (lbLengthSquared(a) < 1.0e-12f || lbLengthSquared(b) < 1.0e-12f)
		return 0.0f;
	return atan2f(lbDot(lbCross(a, b), f), lbDot(a, b));
}

// atan2(y, x) for y >= 0, in [0, pi] (a minimax polynomial, error under 1e-5 rad): no libm call in
// a loop; (0, 0) gives 0.
static float lbClimbFastAtan2(float y, float x)
{
	const float ax = lbAbsF(x), m = lbMaxF(ax, y);
	if (!(m > 0.0f))
		return 0.0f;
	const float a = lbMinF(ax, y) / m, s = a * a;
	float r = a * (0.99997726f + s * (-0.33262347f + s * (0.19354346f + s * (-0.11643287f + s * (0.05265332f + s * -0.01172120f)))));
	if (y > ax)
		r = 0.5f * LB_PI - r;
	return x < 0.0f ? LB_PI - r : r;
}

// Where the palm faces when the forearm has not rolled, against the elbow's hinge: the signed
// angle about the forearm from the hinge axis to the palm axis in the rest pose (radians).
// From the rest pose alone: made with the rig (lbClimbLimbAxes.neutralPalm).
static float lbClimbNeutralPalm(const lbSkeleton* sk, const lbHumanoid* h, int s)
{
	const lbArmBones* arm = &h->arm[s];
	const lbArmAxes* ax = &h->armAxes[s];
	const lbTransform fore = sk->restModel[arm->foreArm], hand = sk->restModel[arm->hand];
	const lbVec3 f = lbNormalizeOr(lbTransformDirection(fore, ax->foreAlong), lbVec3_axisX);
	return lbClimbAngleAbout(lbTransformDirection(fore, ax->elbowBendFore), lbTransformDirection(hand, ax->palm), f);
}

// The elbow swivel search's terms that do not depend on the candidate (see lbClimbElbowPole).
typedef struct lbClimbSwivelTerms
{
	float Pc, Qc, Rc, Ps, Qs, Rs, h0, hu, hv, clearance;
	// The elbow's distance out of the wall face under a top the hand is on (f0 + fu cos + fv sin;
	// f0 very negative when there is none): the block is what lies both under the top and behind
	// the face, so the elbow is clear when either is. And its distance out of the plane through
	// the lip and the wrist (e0 + eu cos + ev sin; e0 very large when there is none): an elbow
	// under the top must also lie beyond it, or the forearm up to the wrist passes through the lip.
	float f0, fu, fv, e0, eu, ev;
	// The elbow's height over another wall the body is between (k0 + ku cos + kv sin; k0 very
	// large when there is none): an inside corner's other wall, held by another limb or found by
	// the side probes. The elbow keeps clear of both, so the lower height counts.
	float k0, ku, kv;
	// Whether those two apply (a hand under a top): on a wall the height is the top's term alone.
	// And whether the top's term is a top the hand was let go of (not the plane of its target).
	bool underTop, knownTop;
	bool rolls;
} lbClimbSwivelTerms;

// How near an inside corner's other wall an elbow may pass on its way round (m): the upper arm's
// flesh (its capsule is 4.4 cm thick on an adult). And the weight of each metre a way round dips
// nearer (against the clearance's 40): more than any roll of the palm, so the elbow stays on its
// side of the wall rather than go through it.
#define LB_CLIMB_ELBOW_FLESH 0.05f
#define LB_CLIMB_ELBOW_PATH_WEIGHT 400.0f

// The torso the elbow's swivel keeps the arm out of (lbClimbElbowInTorso): a capsule on the line
// from the pelvis joint to the neck joint of radius LB_CLIMB_TORSO_RADIUS x the body's height (the
// metrics' torso, docs/metrics.md), against the elbow (0.15 x the upper arm's length) and the
// forearm's middle (0.13 x the forearm's). An overlap past LB_CLIMB_TORSO_SLACK counts in the
// candidate's score at LB_CLIMB_TORSO_WEIGHT a metre, as the wall's does: without the slack (or
// at a quarter of the weight) the elbow pushed out of the chest turned the palm 24 degrees off a
// hold on the imported rig and popped a forearm 15.8 degrees on a planned slab.
#define LB_CLIMB_TORSO_RADIUS 0.055f
#define LB_CLIMB_TORSO_SLACK 0.04f
#define LB_CLIMB_TORSO_WEIGHT 40.0f
// A hand let go (fading back to the animation) has no palm to keep on a hold: its arm keeps out of
// the torso with no slack, at LB_CLIMB_TORSO_RELEASED a metre, and so does the elbow's way round
// from last frame's (with its dip toward the wall, lbClimbSwivelHeight). Without them a hand let
// go across the body, even going round the torso (lbClimbRoundTorso), left the elbow behind on the
// far side and its forearm swept through the chest (the wall climb 0.120 m, 0.094 with them; the
// climbs' frames over 5 cm 2161, 1939 with them). At twice the weight the elbow went round into
// the 110- and 114.6-degree overhangs instead (1.6 and 1.9 cm, against the limit's 2).
#define LB_CLIMB_TORSO_RELEASED 200.0f

// The swivel candidates' scores (lbClimbElbowPole): for each angle's cosine and sine, the roll the
// palm needs (lbClimbFastAtan2 of the goal's components across the forearm), heavily beyond a
// comfortable part, plus the weighted distances from the preferred and last directions
// and the elbow's depth into the wall. Four candidates at a time on SSE lanes with the scalar
// code's operations in its order (the same scores to the bit); `count` at most 16.
static void lbClimbSwivelCosts(const lbClimbSwivelTerms* w, const float* cosT, const float* sinT, const float* awayPref,
							   const float* awayLast, int count, float* cost)
{
	int kk = 0;
#if defined(LB_SIMD_SSE)
	const __m128 zero = _mm_setzero_ps(), sign = _mm_set1_ps(-0.0f), one = _mm_set1_ps(1.0f);
	const __m128 Pc = _mm_set1_ps(w->Pc), Qc = _mm_set1_ps(w->Qc), Rc = _mm_set1_ps(w->Rc);
	const __m128 Ps = _mm_set1_ps(w->Ps), Qs = _mm_set1_ps(w->Qs), Rs = _mm_set1_ps(w->Rs);
	const __m128 h0 = _mm_set1_ps(w->h0), hu = _mm_set1_ps(w->hu), hv = _mm_set1_ps(w->hv);
	const __m128 f0 = _mm_set1_ps(w->f0), fu = _mm_set1_ps(w->fu), fv = _mm_set1_ps(w->fv);
	const __m128 e0 = _mm_set1_ps(w->e0), eu = _mm_set1_ps(w->eu), ev = _mm_set1_ps(w->ev);
	const __m128 k0 = _mm_set1_ps(w->k0), ku = _mm_set1_ps(w->ku), kv = _mm_set1_ps(w->kv);
	const __m128 clearance = _mm_set1_ps(w->clearance), halfPi = _mm_set1_ps(0.5f * LB_PI), pi = _mm_set1_ps(LB_PI);
	const __m128 rolls = w->rolls ? _mm_castsi128_ps(_mm_set1_epi32(-1)) : zero;
	for (; kk + 4 <= count; kk += 4)
	{
		const __m128 c = _mm_loadu_ps(cosT + kk), s = _mm_loadu_ps(sinT + kk);
		const __m128 gc = _mm_add_ps(_mm_add_ps(_mm_mul_ps(Pc, c), _mm_mul_ps(Qc, s)), Rc);
		const __m128 gs = _mm_add_ps(_mm_add_ps(_mm_mul_ps(Ps, c), _mm_mul_ps(Qs, s)), Rs);
		// lbAbsF: x < 0 ? -x : x (a negative zero kept, as the scalar code keeps it).
		const __m128 y = _mm_or_ps(_mm_and_ps(_mm_cmplt_ps(gs, zero), _mm_xor_ps(gs, sign)), _mm_andnot_ps(_mm_cmplt_ps(gs, zero), gs));
		const __m128 ax = _mm_or_ps(_mm_and_ps(_mm_cmplt_ps(gc, zero), _mm_xor_ps(gc, sign)), _mm_andnot_ps(_mm_cmplt_ps(gc, zero), gc));
		const __m128 m = _mm_max_ps(ax, y);
		const __m128 a = _mm_div_ps(_mm_min_ps(ax, y), m), a2 = _mm_mul_ps(a, a);
		__m128 poly = _mm_mul_ps(a2, _mm_set1_ps(-0.01172120f));
		poly = _mm_mul_ps(a2, _mm_add_ps(_mm_set1_ps(0.05265332f), poly));
		poly = _mm_mul_ps(a2, _mm_add_ps(_mm_set1_ps(-0.11643287f), poly));
		poly = _mm_mul_ps(a2, _mm_add_ps(_mm_set1_ps(0.19354346f), poly));
		poly = _mm_mul_ps(a2, _mm_add_ps(_mm_set1_ps(-0.33262347f), poly));
		__m128 r = _mm_mul_ps(a, _mm_add_ps(_mm_set1_ps(0.99997726f), poly));
		const __m128 steep = _mm_cmpgt_ps(y, ax), back = _mm_cmplt_ps(gc, zero);
		r = _mm_or_ps(_mm_and_ps(steep, _mm_sub_ps(halfPi, r)), _mm_andnot_ps(steep, r));
		r = _mm_or_ps(_mm_and_ps(back, _mm_sub_ps(pi, r)), _mm_andnot_ps(back, r));
		const __m128 use = _mm_and_ps(_mm_and_ps(rolls, _mm_cmpgt_ps(m, zero)),
									  _mm_cmpge_ps(_mm_add_ps(_mm_mul_ps(gc, gc), _mm_mul_ps(gs, gs)), _mm_set1_ps(1.0e-12f)));
		const __m128 roll = _mm_and_ps(use, r);
		__m128 height = _mm_add_ps(_mm_add_ps(h0, _mm_mul_ps(hu, c)), _mm_mul_ps(hv, s));
		if (w->underTop)
			height = _mm_max_ps(height, _mm_min_ps(_mm_add_ps(_mm_add_ps(f0, _mm_mul_ps(fu, c)), _mm_mul_ps(fv, s)),
												   _mm_add_ps(_mm_add_ps(e0, _mm_mul_ps(eu, c)), _mm_mul_ps(ev, s))));
		height = _mm_min_ps(height, _mm_add_ps(_mm_add_ps(k0, _mm_mul_ps(ku, c)), _mm_mul_ps(kv, s)));
		const __m128 inWall = _mm_max_ps(_mm_sub_ps(clearance, height), zero);
		__m128 sum = _mm_add_ps(roll, _mm_mul_ps(_mm_set1_ps(3.0f), _mm_max_ps(_mm_sub_ps(roll, one), zero)));
		sum = _mm_add_ps(_mm_add_ps(sum, _mm_loadu_ps(awayPref + kk)), _mm_loadu_ps(awayLast + kk));
		_mm_storeu_ps(cost + kk, _mm_add_ps(sum, _mm_mul_ps(_mm_set1_ps(40.0f), inWall)));
	}
#endif
	for (; kk < count; ++kk)
	{
		const float cosT1 = cosT[kk], sinT1 = sinT[kk];
		// The goal's two components across the forearm (its length squared is their sum).
		const float gc = w->Pc * cosT1 + w->Qc * sinT1 + w->Rc, gs = w->Ps * cosT1 + w->Qs * sinT1 + w->Rs;
		const float roll = w->rolls && gc * gc + gs * gs >= 1.0e-12f ? lbClimbFastAtan2(lbAbsF(gs), gc) : 0.0f;
		float height = w->h0 + w->hu * cosT1 + w->hv * sinT1;
		if (w->underTop)
			height = lbMaxF(height, lbMinF(w->f0 + w->fu * cosT1 + w->fv * sinT1, w->e0 + w->eu * cosT1 + w->ev * sinT1));
		height = lbMinF(height, w->k0 + w->ku * cosT1 + w->kv * sinT1);
		const float inWall = lbMaxF(w->clearance - height, 0.0f);
		cost[kk] = roll + 3.0f * lbMaxF(roll - 1.0f, 0.0f) + awayPref[kk] + awayLast[kk] + 40.0f * inWall;
	}
}

// The elbow's height over the wall at swivel angle t (the larger of the top's and the face's,
// lbClimbSwivelTerms), and the lowest of it at six points inside the turn from t by delta.
static float lbClimbSwivelHeight(const lbClimbSwivelTerms* w, float t)
{
	const float ct = cosf(t), st = sinf(t);
	return lbMinF(lbMaxF(w->h0 + w->hu * ct + w->hv * st, lbMinF(w->f0 + w->fu * ct + w->fv * st, w->e0 + w->eu * ct + w->ev * st)),
				  w->k0 + w->ku * ct + w->kv * st);
}

static float lbClimbSwivelDip(const lbClimbSwivelTerms* w, float t, float delta)
{
	float low = 1.0e30f;
	for (int k = 1; k <= 6; ++k)
		low = lbMinF(low, lbClimbSwivelHeight(w, t + delta * (float)k / 7.0f));
	return low;
}

// Kept out of line (LB_COLD) below: they run only for a hand on a top, and the swivel search on a wall pays
// nothing for them.

// Under a top, a turn of several frames goes round the outside of the lip: when the short way
// from `last` by `delta` passes deeper into the block than either end and the long way does not,
// the long way (a hand let go of a ledge's top swung its elbow from over the top forward through
// the lip to below it, the forearm 3-7 cm into the face). Only there: on walls, sent the long way
// round, an arm in the planner's corner popped 80 degrees. Returns the turn to take.
static LB_COLD float lbClimbElbowWay(const lbClimbSwivelTerms* w, float last, float best, float delta)
{
	const float other = delta - (delta > 0.0f ? 2.0f : -2.0f) * LB_PI;
	const float ends = lbMinF(lbClimbSwivelHeight(w, last), lbClimbSwivelHeight(w, best));
	if (ends - lbClimbSwivelDip(w, last, delta) > 0.01f && ends - lbClimbSwivelDip(w, last, other) <= 0.01f)
		return other;
	return delta;
}

// The plane a forearm from the wrist `W` of hand `s` on a top passes over the lip by (limb `j`
// held on the face under it): through the line where the top's plane meets the face's, moved out
// of the block by the forearm's flesh (half-way between the two normals), and through `W`; its
// normal `*outM` turned out of the block (up and out of the face), a point of it in `*outLip`.
// False when the two planes are near parallel or `W` lies on that line.
static bool lbClimbLipPlane(const lbClimbPoseCtx* c, int s, int j, lbVec3 W, lbVec3* outLip, lbVec3* outM)
{
	const lbVec3 n = c->normalMs[s], nf = c->normalMs[j];
	const lbVec3 along = lbCross(n, nf);
	const float aa = lbLengthSquared(along);
	if (aa <= 0.01f)
		return false;
	const float dn = lbDot(n, c->surfaceMs[s]), df = lbDot(nf, c->surfaceMs[j]);
	lbVec3 lip = lbMulSV(1.0f / aa, lbAdd(lbMulSV(dn, lbCross(nf, along)), lbMulSV(df, lbCross(along, n))));
	// The plane through the lip itself kept the forearm's axis only 1.4 cm off it (a hand at the
	// limit of its reach on a 109.6-degree overhang's top, mixamo, 2.03 cm into the lip).
	lip = lbMulAdd(lip, LB_CLIMB_FOREARM_FLESH * c->chain[s].lowerLength, lbNormalizeOr(lbAdd(n, nf), n));
	lbVec3 m = lbCross(along, lbSub(W, lip));
	if (lbLengthSquared(m) <= 1.0e-8f)
		return false;
	m = lbNormalize(m);
	*outM = lbDot(m, lbAdd(n, nf)) < 0.0f ? lbNeg(m) : m;
	*outLip = lip;
	return true;
}

// A hand on a top (a ledge's, reached from the wall under it, or just let go of it) with its
// shoulder `S` below the top's plane (or less than LB_CLIMB_TOP_SHOULDER_OVER over it): the arm
// comes up in front of the wall a held limb is on, and only the part of the space under the top
// that lies behind that wall is solid. With the top's
// plane alone every elbow under it read as in the wall, and the one nearest the top, forward
// into the wall face, scored best. A hand let go of a top has no surface of its own any more
// (its plane here is only its target's, which it carries down past the lip): the wall face
// alone tells where the block is (the forearm of a hand let go of a 2 m ledge came down the
// wall face 4.5 cm into it, elbow forward, its palm still facing down). A hand holding the top
// also keeps its elbow beyond the plane through the lip (moved out by the forearm's flesh) and
// the wrist `W`, so the forearm passes over the lip (it grazed it by 2-5 cm). Fills the face and lip terms of `t` (lbClimbSwivelTerms)
// for the elbow's circle (`centre`, `radius`, axes `u`, `v`).
static LB_COLD void lbClimbUnderTopTerms(const lbClimbPoseCtx* c, int s, lbVec3 S, lbVec3 W, lbVec3 centre,
											   float radius, lbVec3 u, lbVec3 v, lbClimbSwivelTerms* t)
{
	const lbVec3 n = c->normalMs[s];
	const bool ownTop = c->held[s];
	if (ownTop && lbDot(lbSub(S, c->surfaceMs[s]), n) >= LB_CLIMB_TOP_SHOULDER_OVER)
		return;
	for (int j = 0; j < 4; ++j)
	{
		if (j == s || !c->held[j] || c->top[j])
			continue;
		const lbVec3 nf = c->normalMs[j];
		t->underTop = true;
		t->f0 = lbDot(lbSub(centre, c->surfaceMs[j]), nf);
		t->fu = radius * lbDot(u, nf);
		t->fv = radius * lbDot(v, nf);
		if (!ownTop)
		{
			// Where the top it held is known (the sense stage gives it), the block under it;
			// otherwise the face alone.
			if (c->knownTop[s])
			{
				t->h0 = lbDot(lbSub(centre, c->knownTopMs[s]), n);
				t->knownTop = true;
			}
			else
			{
				t->h0 = -1.0e30f;
				t->hu = t->hv = 0.0f;
			}
			return;
		}
		lbVec3 lip, m;
		if (lbClimbLipPlane(c, s, j, W, &lip, &m))
		{
			t->e0 = lbDot(lbSub(centre, lip), m);
			t->eu = radius * lbDot(u, m);
			t->ev = radius * lbDot(v, m);
		}
		return;
	}
}

// A hand on a wall in an inside corner: the corner's other wall (held by another limb, or found
// by the side probes) is as solid as its own, and its elbow, pointing into the corner, went 2.6 cm
// into it (the upper arm's flesh; a 0.30 m corner on the mannequin). Of the walls turned from the
// hand's own (as for the knees, lbClimbLegPlanes), the one the elbow's circle comes lowest over
// fills the `k` terms of `t`.
static void lbClimbOtherWallTerms(const lbClimbPoseCtx* c, int s, lbVec3 centre, float radius, lbVec3 u, lbVec3 v,
								  lbClimbSwivelTerms* t)
{
	const lbVec3 n = c->normalMs[s];
	float lowest = 1.0e30f;
	for (int j = 0; j < 4 + c->sideCount; ++j)
	{
		lbVec3 nj, pj;
		if (j >= 4)
		{
			nj = c->sideNormalMs[j - 4];
			pj = c->sidePointMs[j - 4];
		}
		else
		{
			if (j == s || !c->held[j] || c->top[j])
				continue;
			nj = c->normalMs[j];
			pj = c->surfaceMs[j];
		}
		// The same wall, or one facing away from this hand's (not a corner it is in).
		if (lbDot(nj, n) > 0.95f || lbDot(lbSub(c->surfaceMs[s], pj), nj) < 0.0f)
			continue;
		const float h = lbDot(lbSub(centre, pj), nj), a = radius * lbDot(u, nj), b = radius * lbDot(v, nj);
		const float low = h - sqrtf(a * a + b * b);
		if (low < lowest)
		{
			lowest = low;
			t->k0 = h;
			t->ku = a;
			t->kv = b;
		}
	}
}

// Distance (m) from X to the torso capsule's axis, the segment from P0 along `seg` (seg . seg =
// segLen2 > 0; model space).
static float lbClimbTorsoAxisDistance(lbVec3 X, lbVec3 P0, lbVec3 seg, float segLen2)
{
	const float t = lbClampF(lbDot(lbSub(X, P0), seg) / segLen2, 0.0f, 1.0f);
	return lbDistance(X, lbMulAdd(P0, t, seg));
}

// How far past `slack` the elbow E or the forearm (the segment from E to the wrist W) lies inside
// the torso's capsule (from P0 along `seg`, seg . seg = segLen2; model space, m); 0 when neither
// does. The whole forearm, not its middle: a forearm across the chest with both its middle and
// the elbow clear by the slack read 12 cm into the torso in the metrics (a wall climb's hand let
// go across the body).
static float lbClimbElbowInTorso(lbVec3 E, lbVec3 W, lbVec3 P0, lbVec3 seg, float segLen2, float rTorso, float rElbow, float rFore,
								 float slack)
{
	const float inE = rTorso + rElbow - lbClimbTorsoAxisDistance(E, P0, seg, segLen2);
	const float inF = rTorso + rFore - lbSegmentDistance(E, lbSub(W, E), P0, seg);
	return lbMaxF(lbMaxF(inE, inF) - slack, 0.0f);
}

// The elbow's swivel. Which way the elbow points decides how far the forearm must roll for the
// palm to face the wall: with the elbow below the hand the palm faces sideways unless the forearm
// rolls a quarter turn; with it out to the side the palm faces the wall as it is. Each candidate
// elbow on its circle about the shoulder-wrist line is scored by the roll it needs (beyond a
// comfortable part, heavily), by how far it lies from the preferred direction (down and out) and
// from last frame's (continuity), and by how far it would go into the wall; the best is turned
// toward from last frame's no faster than the limit. Returns the pole direction (model, unit from
// the circle's centre), or `preferred` when the arm is straight.
static lbVec3 lbClimbElbowPole(const lbClimbPoseCtx* c, int s, lbVec3 preferred, lbVec3 palmGoal, lbVec3 placedWrist,
							   const lbVec3* lastWs, lbVec3* outLastWs)
{
	const lbPose* pose = c->pose;
	const lbLimbChain* ch = &c->chain[s];
	const lbVec3 S = pose->model[ch->root].p, W = c->targetMs[s], n = c->normalMs[s];
	lbVec3 axis = lbSub(W, S);
	float d = lbLength(axis);
	if (d < 1.0e-4f)
		return preferred;
	axis = lbMulSV(1.0f / d, axis);
	lbVec3 centre;
	const float radius = lbClimbKneeCircle(S, W, ch->upperLength, ch->lowerLength, axis, &centre);
	lbVec3 u = lbNormalizeOr(lbProjectOnPlane(preferred, axis), lbAnyPerpendicular(axis));
	const lbVec3 v = lbCross(axis, u);
	if (radius < 1.0e-3f)
		return u;
	// The palm at no roll is the hinge turned by `neutral` (c->axes.neutralPalm) about the forearm;
	// the hinge is normal to the forearm, so the turn is cos * hinge + sin * (forearm x hinge) (no
	// quaternion per candidate).
	const float cosNeutral = c->axes.neutralCos[s], sinNeutral = c->axes.neutralSin[s];
	float lastAngle = 0.0f;
	bool hasLast = false;
	if (lastWs && c->maxTurn > 0.0f)
	{
		const lbVec3 last = lbProjectOnPlane(lbInvTransformDirection(c->cw, *lastWs), axis);
		if (lbLengthSquared(last) > 1.0e-8f)
		{
			lastAngle = atan2f(lbDot(last, v), lbDot(last, u));
			hasLast = true;
		}
	}
	const float clearance = 0.08f;
	// Every term of a candidate's score is a first-degree trigonometric polynomial of its angle t,
	// so each costs a few multiply-adds instead of vectors normalised per candidate. With
	// dir = cos t u + sin t v, the elbow E = centre + radius dir and the wrist W = S + d axis:
	//   E - S = x axis + radius dir and W - E = (d - x) axis - radius dir, both of fixed length,
	//   so the forearm is f = alpha axis - beta dir (alpha = (d - x) / L, beta = radius / L);
	//   the hinge (E - S) x f is k (sin t u - cos t v) with k > 0, and f x hinge = k (alpha dir
	//   + beta axis); the palm at no roll, cos(neutral) hinge + sin(neutral) f x hinge, is then
	//   k p with p = cos(neutral) (sin t u - cos t v) + sin(neutral) (alpha dir + beta axis),
	//   a unit vector across the forearm, and f x p = cos(neutral) (alpha dir + beta axis)
	//   - sin(neutral) (sin t u - cos t v) the other; the goal g against them gives the roll as
	//   atan2(|g.(f x p)|, g.p), each dot P cos t + Q sin t + R; and the elbow's height over the
	//   wall is h0 + hu cos t + hv sin t.
	const float x = lbDot(lbSub(centre, S), axis);
	const float L = sqrtf((d - x) * (d - x) + radius * radius);
	const float alpha = (d - x) / L, beta = radius / L;
	const float gu = lbDot(palmGoal, u), gv = lbDot(palmGoal, v), ga = lbDot(palmGoal, axis);
	const float Pc = sinNeutral * alpha * gu - cosNeutral * gv, Qc = cosNeutral * gu + sinNeutral * alpha * gv;
	const float Rc = sinNeutral * beta * ga;
	const float Ps = cosNeutral * alpha * gu + sinNeutral * gv, Qs = cosNeutral * alpha * gv - sinNeutral * gu;
	const float Rs = cosNeutral * beta * ga;
	const float h0 = lbDot(lbSub(centre, c->surfaceMs[s]), n), hu = radius * lbDot(u, n), hv = radius * lbDot(v, n);
	// The hinge's length; a vanishing one (the arm straight) gives no roll, as a vanishing goal.
	const float k = radius * d / (L * sqrtf(x * x + radius * radius));
	const bool rolls = k * k >= 1.0e-12f;
	float best = hasLast ? lastAngle : 0.0f, bestCost = 1.0e30f;
	lbClimbSwivelTerms terms = { Pc, Qc, Rc, Ps, Qs, Rs, h0, hu, hv, clearance, -1.0e30f, 0.0f, 0.0f, 1.0e30f, 0.0f, 0.0f,
								 1.0e30f, 0.0f, 0.0f, false, false, rolls };
	if (c->top[s] && !c->onTops)
		lbClimbUnderTopTerms(c, s, S, placedWrist, centre, radius, u, v, &terms);
	else if (!c->top[s])
		lbClimbOtherWallTerms(c, s, centre, radius, u, v, &terms);
	// The torso's capsule (lbClimbElbowInTorso), model space.
	const lbHumanoid* hm = c->humanoid;
	const int torsoTop = hm->neck >= 0 ? hm->neck : (hm->spineCount > 0 ? hm->spine[hm->spineCount - 1] : LB_NULL_INDEX);
	const lbVec3 torsoP0 = hm->pelvis >= 0 ? pose->model[hm->pelvis].p : lbVec3_zero;
	const lbVec3 torsoSeg = torsoTop >= 0 && hm->pelvis >= 0 ? lbSub(pose->model[torsoTop].p, torsoP0) : lbVec3_zero;
	const float torsoLen2 = lbDot(torsoSeg, torsoSeg);
	const float rTorso = LB_CLIMB_TORSO_RADIUS * hm->height, rElbow = 0.15f * ch->upperLength, rFore = 0.13f * ch->lowerLength;
	const bool released = c->fading[s];
	const float torsoSlack = released ? 0.0f : LB_CLIMB_TORSO_SLACK;
	const float torsoWeight = released ? LB_CLIMB_TORSO_RELEASED : LB_CLIMB_TORSO_WEIGHT;
	// Scored only where some candidate may overlap: the elbow lies on its circle, and each point of
	// the forearm within the circle's radius of the segment from the circle's centre to the wrist.
	bool torsoOk = torsoLen2 > 1.0e-8f && hm->height > 0.0f;
	if (torsoOk)
		torsoOk = lbClimbTorsoAxisDistance(centre, torsoP0, torsoSeg, torsoLen2) - radius < rTorso + rElbow - torsoSlack ||
				  lbSegmentDistance(centre, lbSub(W, centre), torsoP0, torsoSeg) - radius < rTorso + rFore - torsoSlack;
	// Coarse samples all round, then finer ones about the best.
	for (int pass = 0; pass < 2; ++pass)
	{
		const int count = pass == 0 ? 16 : 9;
		const float step = pass == 0 ? 2.0f * LB_PI / 16.0f : LB_PI / 48.0f;
		const float from = pass == 0 ? -LB_PI : best - 4.0f * step;
		// Directions round the circle by a fixed turn (one sine and cosine per pass), and the
		// angles' distances from the preferred and last directions; the rest of each score below.
		float tk[16], cosT[16], sinT[16], awayPref[16], awayLast[16], cost[16];
		const float cs = cosf(step), sn = sinf(step);
		float ct = cosf(from), st = sinf(from);
		for (int kk = 0; kk < count; ++kk)
		{
			const float t = from + step * (float)kk;
			tk[kk] = t;
			cosT[kk] = ct;
			sinT[kk] = st;
			const float nc = ct * cs - st * sn;
			st = st * cs + ct * sn;
			ct = nc;
			const float fromPref = lbAbsF(lbClimbWrapAngle(t));
			const float fromLast = hasLast ? lbAbsF(lbClimbWrapAngle(t - lastAngle)) : 0.0f;
			awayPref[kk] = 0.3f * fromPref;
			awayLast[kk] = 0.5f * fromLast;
		}
		lbClimbSwivelCosts(&terms, cosT, sinT, awayPref, awayLast, count, cost);
		// Nor through the chest: a hand held low in front of the body or crossed to the other side
		// put its elbow and forearm inside the torso for hundreds of frames of every climb
		// (self_penetration, docs/metrics.md).
		if (torsoOk)
			for (int kk = 0; kk < count; ++kk)
			{
				const lbVec3 E = lbMulAdd(centre, radius, lbAdd(lbMulSV(cosT[kk], u), lbMulSV(sinT[kk], v)));
				cost[kk] += torsoWeight * lbClimbElbowInTorso(E, W, torsoP0, torsoSeg, torsoLen2, rTorso, rElbow, rFore, torsoSlack);
			}
		if (torsoOk && released && hasLast)
		{
			// A hand let go turns its elbow round from last frame's a few degrees a frame: the
			// short way from a crossed arm's elbow to its own side went through the chest, or
			// round the front into the wall. The deepest the way goes into the torso, or nearer
			// the wall than the clearance and than the elbow is now, counts against the candidate.
			const float floorH = lbMinF(clearance, lbClimbSwivelHeight(&terms, lastAngle));
			for (int kk = 0; kk < count; ++kk)
			{
				const float delta = lbClimbWrapAngle(tk[kk] - lastAngle);
				float worst = 0.0f;
				for (int q = 1; q <= 6; ++q)
				{
					const float t = lastAngle + delta * (float)q / 6.0f;
					const lbVec3 E = lbMulAdd(centre, radius, lbAdd(lbMulSV(cosf(t), u), lbMulSV(sinf(t), v)));
					worst = lbMaxF(worst, lbClimbElbowInTorso(E, W, torsoP0, torsoSeg, torsoLen2, rTorso, rElbow, rFore, 0.0f) +
											  lbMaxF(floorH - lbClimbSwivelHeight(&terms, t), 0.0f));
				}
				cost[kk] += LB_CLIMB_TORSO_RELEASED * worst;
			}
		}
		if (hasLast && terms.k0 < 1.0e29f)
		{
			// In an inside corner: an elbow on the far side of the other wall is reached only
			// through it (the turn limit takes it the short way, frame by frame), so the way there
			// dipping nearer the wall than the flesh counts against it. Where an elbow stood when
			// a limb locked, its best had gone over to the far side, and on its way the upper arm
			// went 2.6 cm into the other wall (a 0.30 m corner, the mannequin).
			const float lastK = terms.k0 + terms.ku * cosf(lastAngle) + terms.kv * sinf(lastAngle);
			const float floorK = lbMinF(LB_CLIMB_ELBOW_FLESH, lastK);
			for (int kk = 0; kk < count; ++kk)
			{
				const float delta = lbClimbWrapAngle(tk[kk] - lastAngle);
				float dip = 1.0e30f;
				for (int q = 1; q <= 6; ++q)
				{
					const float t = lastAngle + delta * (float)q / 6.0f;
					dip = lbMinF(dip, terms.k0 + terms.ku * cosf(t) + terms.kv * sinf(t));
				}
				cost[kk] += LB_CLIMB_ELBOW_PATH_WEIGHT * lbMaxF(floorK - dip, 0.0f);
			}
		}
		for (int kk = 0; kk < count; ++kk)
		{
			if (cost[kk] < bestCost)
			{
				bestCost = cost[kk];
				best = tk[kk];
			}
		}
	}
	if (hasLast)
	{
		// The elbow swings at the hand's pace, faster only to leave the wall.
		const float cl = cosf(lastAngle), sl = sinf(lastAngle);
		const lbVec3 lastDir = lbAdd(lbMulSV(cl, u), lbMulSV(sl, v));
		const lbVec3 lastE = lbMulAdd(centre, radius, lastDir);
		float lastH = terms.knownTop ? terms.h0 + terms.hu * cl + terms.hv * sl : lbDot(lbSub(lastE, c->surfaceMs[s]), n);
		if (terms.underTop)
			lastH = lbMaxF(lastH, lbMinF(terms.f0 + terms.fu * cl + terms.fv * sl, terms.e0 + terms.eu * cl + terms.ev * sl));
		lastH = lbMinF(lastH, terms.k0 + terms.ku * cl + terms.kv * sl);
		const bool inside = lastH < clearance;
		const float limit = (inside ? 2.5f : 1.0f) * c->maxTurn;
		float delta = lbClimbWrapAngle(best - lastAngle);
		if (terms.underTop && lbAbsF(delta) > limit)
			delta = lbClimbElbowWay(&terms, lastAngle, best, delta);
		best = lastAngle + lbClampF(delta, -limit, limit);
	}
	const lbVec3 dir = lbAdd(lbMulSV(cosf(best), u), lbMulSV(sinf(best), v));
	*outLastWs = lbTransformDirection(c->cw, dir);
	return dir;
}

// The turn limit holds the hand's model rotation back while the forearm swings on (as fast as
// 2.5 times the limit, lbClimbLimitSwing), so a hand turning toward its goal could end up far past
// the wrist's range against the forearm (a hand let go turned 134 degrees from its rest, one
// moving up to a hold 121). Such a hand turns with the forearm instead: its local rotation goes
// toward `goalLocal` (local to the hand's parent: the animation's or the placement's) until it is
// within LB_CLIMB_WRIST_FLEX of its rest, or as near its rest as the goal when that is farther.
// The whole turn from rest, not the ranges one by one: the wrist's twist range is narrow, and a
// turn toward the goal may come back into it only near the goal, most of the way at once.
static lbResult lbClimbKeepWristInRange(const lbClimbPoseCtx* c, int s, lbQuat goalLocal, lbQuat lastMs)
{
	const lbSkeleton* sk = c->skeleton;
	lbPose* pose = c->pose;
	const int hand = c->humanoid->arm[s].hand, parent = sk->parents[hand];
	if (parent < 0)
		return lb_ok;
	const lbQuat rest = sk->restLocal[hand].q;
	const lbQuat local = lbQuatNormalize(lbQuatMul(lbQuatConj(pose->model[parent].q), pose->model[hand].q));
	const float allowed = lbMaxF(LB_CLIMB_WRIST_FLEX, lbQuatAngleBetween(rest, goalLocal) + 1.0e-3f);
	const float angle = lbQuatAngleBetween(rest, local);
	if (angle <= allowed)
		return lb_ok;
	// Toward the goal (a hand turned toward its rest instead could put its fingers into the
	// wall it is reaching for): the first of a few steps that is within, then halved down to it.
	const int steps = 8;
	float lo = 0.0f, hi = 1.0f;
	for (int k = 1; k < steps; ++k)
		if (lbQuatAngleBetween(rest, lbQuatSlerp(local, goalLocal, (float)k / (float)steps)) <= allowed)
		{
			lo = (float)(k - 1) / (float)steps;
			hi = (float)k / (float)steps;
			break;
		}
	for (int k = 0; k < 6; ++k)
	{
		const float mid = 0.5f * (lo + hi);
		if (lbQuatAngleBetween(rest, lbQuatSlerp(local, goalLocal, mid)) <= allowed)
			hi = mid;
		else
			lo = mid;
	}
	// The hand turns no faster than the limb's swing limit since last frame (`lastMs`, model), so
	// a hand let go far past the range (as a held hand's wrist may be) comes back over a few frames.
	const lbQuat q = lbQuatNormalize(lbQuatSlerp(local, goalLocal, hi));
	const lbQuat qMs = lbQuatNormalize(lbQuatMul(pose->model[parent].q, q));
	return lbClimbSetRotation(c, hand, c->maxTurn > 0.0f ? lbClimbTurnToward(lastMs, qMs, 2.5f * c->maxTurn) : qMs);
}

// Where the wrist goes for the palm's contact (the lock offset out of the palm) to land on the
// target of arm `s` (model), the hand's palm pointing along `palm` (unit, model): the target less
// the offset out of the wall and along the palm. A hand that is not held has no contact to keep
// yet, and the part of its palm that faces away from the wall does not draw its wrist in: a palm
// turned away from a top it was moving onto over an overhang's lip took the wrist down onto the
// lip, the forearm's end 2-4.4 cm into it.
static lbVec3 lbClimbContactWrist(const lbClimbPoseCtx* c, int s, lbVec3 palm, float lockOffset)
{
	const lbVec3 n = c->normalMs[s];
	const lbVec3 out = c->locked[s] ? lbAdd(n, palm) : lbSub(lbAdd(n, palm), lbMulSV(lbMaxF(lbDot(palm, n), 0.0f), n));
	return lbSub(c->targetMs[s], lbMulSV(lockOffset, out));
}

// The settled rotation (model) of a locking hand (`current`, model) whose flat palm `flat` the
// forearm's roll and the wrist's ranges leave `settled`, its palm more than LB_CLIMB_SETTLE_OFF off
// the wall: the same flat palm with its fingers turned about the wall's normal, in
// LB_CLIMB_SETTLE_STEPS steps each way up to LB_CLIMB_FINGER_TURN, and the turn whose reachable
// hand lies flattest kept (the smaller turn on a tie). Under a steep overhang the forearm comes up
// nearly along the wall, and with the fingers where they were the forearm's roll and the wrist ran
// out: the palm locked 23.6 degrees off a 114.6-degree overhang; its fingers turned 83-100 degrees,
// the hand reaches 6 degrees off, and locks at 8.3 turning toward it at the settling limit.
static LB_COLD lbQuat lbClimbSettleTurned(const lbClimbPoseCtx* c, int s, lbQuat current, lbQuat flat, lbQuat settled, float prefer)
{
	const lbVec3 n = c->normalMs[s], palmAxis = c->humanoid->armAxes[s].palm;
	const float off = cosf(LB_CLIMB_SETTLE_OFF);
	float best = -lbDot(lbNormalize(lbQuatRotate(settled, palmAxis)), n);
	if (!(best < off))
		return settled;
	// Only a hand that has come about as flat as its ranges take it without the turn: one still
	// turning onto the wall (confirmed far off it, its arm not yet where it locks) settles further
	// as it comes, and turned about the normal on the way it spent its turn limit spinning.
	const float nowOff = acosf(lbClampF(-lbDot(lbNormalize(lbQuatRotate(current, palmAxis)), n), -1.0f, 1.0f));
	if (nowOff > acosf(lbClampF(best, -1.0f, 1.0f)) + LB_CLIMB_SETTLE_NEAR)
		return settled;
	for (int k = 1; k <= LB_CLIMB_SETTLE_STEPS; ++k)
	{
		for (int sign = -1; sign <= 1; sign += 2)
		{
			const float turn = (float)sign * LB_CLIMB_FINGER_TURN * (float)k / (float)LB_CLIMB_SETTLE_STEPS;
			const lbQuat turned = lbQuatNormalize(lbQuatMul(lbQuatFromAxisAngle(n, turn), flat));
			float total, fullRoll;
			const lbQuat q = lbClimbReachableHand(c, s, turned, prefer, &total, &fullRoll);
			const float flatness = -lbDot(lbNormalize(lbQuatRotate(q, palmAxis)), n);
			// A larger turn is kept only for a palm clearly flatter (0.5 degree at 20).
			if (flatness > best + 3.0e-3f)
			{
				best = flatness;
				settled = q;
			}
		}
	}
	return settled;
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
	const bool held = c->locked[s] && cacheValid;
	// A held hand at full weight knows its rotation before the arm is solved (its cache, turned
	// toward from last frame's), so the wrist's goal (the palm's contact on the hold) is known
	// too: the first solve goes straight there, and one placement settles the arm (the second
	// would find the wrist already there and change nothing).
	const bool settled = held && a >= 1.0f;
	const lbVec3 n = c->normalMs[s];
	const float lockOffset = lbIsValidFloat(c->def->lockOffset[0]) ? c->def->lockOffset[0] : 0.0f;
	const lbQuat lastMs = lbQuatNormalize(lbQuatMul(lbQuatConj(c->cw.q), newCache->lastHandWs[s]));
	const lbQuat cachedMs = lbQuatNormalize(lbQuatMul(lbQuatConj(c->cw.q), newCache->handRotWs[s]));
	// A hand locking turns flat onto its hold at up to LB_CLIMB_SETTLE_TURN times the limit: at
	// the limit alone, one confirmed with its palm 82 degrees off the wall (its elbow kept on its
	// side of an inside corner's other wall) locked with it still 29 degrees off (9 now). At twice
	// the limit the forearm's roll fell behind the hand and the palm's contact missed by 3 mm.
	const float settleTurn = (c->settling[s] ? LB_CLIMB_SETTLE_TURN : 1.0f) * c->maxTurn;
	const lbQuat heldGoal = held ? lbClimbTurnToward(lastMs, cachedMs, settleTurn) : cachedMs;
	if (a > 0.0f)
	{
		// The palm's goal direction: held, the cached hand's; otherwise into the wall.
		lbVec3 palmGoal = lbNeg(c->normalMs[s]);
		if (held)
			palmGoal = lbQuatRotate(cachedMs, h->armAxes[s].palm);
		// Under a top, the elbow keeps the forearm over the lip up to where the wrist will be once
		// the hand is placed (its palm's contact on the target, the palm as it was last frame or as
		// it is held), not up to the target: the placement moves the wrist 1-4 cm from it, and the
		// forearm judged clear of the lip up to the target grazed it by 2-2.6 cm.
		lbVec3 placedWrist = c->targetMs[s];
		if (c->top[s] && !c->onTops && cacheValid)
			placedWrist = lbClimbContactWrist(c, s, lbNormalize(lbQuatRotate(held ? heldGoal : lastMs, h->armAxes[s].palm)), lockOffset);
		in.poleMs = lbClimbElbowPole(c, s, in.poleMs, palmGoal, placedWrist, cacheValid ? &newCache->lastElbowWs[s] : NULL,
									 &newCache->lastElbowWs[s]);
		if (settled)
			in.targetMs = lbSub(c->targetMs[s],
								lbMulSV(lockOffset, lbAdd(n, lbNormalize(lbQuatRotate(heldGoal, h->armAxes[s].palm)))));
		in.targetMs = lbClimbArmTarget(c, s, in.targetMs);
		r = lbIkSolveLimbTrusted(pose, c->skeleton, &c->chain[s], &in, lbClimbSubtree(c, s), c->belowCount[s]);
		if (r != lb_ok)
			return r;
	}
	// The goal: held, the rotation chosen before the lock, whatever the body does now; otherwise
	// fingers along the wall and palm on it. Placed within the forearm's and wrist's ranges and
	// blended in by the IK alpha like the rest of the arm (a free hand follows the animation).
	const lbQuat before = pose->model[hand].q;
	float reliability = 0.0f;
	const lbQuat fresh = lbClimbHandGoal(c, s, a > 0.0f && !held, &reliability);
	*outReliability = reliability;
	if (a <= 0.0f)
	{
		// Back with the animation, the hand still turns to it from where it was, no faster than
		// the limit.
		if (cacheValid && c->maxTurn > 0.0f)
		{
			const lbQuat animLocal = lbClimbLocalQ(c, hand);
			r = lbClimbLimitTurn(c, hand, lastMs, c->maxTurn);
			if (r != lb_ok)
				return r;
			r = lbClimbKeepWristInRange(c, s, animLocal, lastMs);
			if (r != lb_ok)
				return r;
		}
		newCache->handRotWs[s] = lbQuatNormalize(lbQuatMul(c->cw.q, pose->model[hand].q));
		newCache->lastHandWs[s] = newCache->handRotWs[s];
		newCache->lastHandTwist[s] = lbClimbHandTwist(c, s, before);
		return lb_ok;
	}
	const lbClimbHandStart start = { lbClimbForearmRoll(c, s), lbClimbLocalQ(c, hand) };
	// Last frame's turn about the forearm picks the branch near half a turn.
	// Last frame's whole turn about the forearm (unwrapped, so it passes half a turn smoothly)
	// picks the branch: the forearm never flips from one end of its range to the other.
	float prefer = cacheValid ? newCache->lastHandTwist[s] : lbClimbHandTwist(c, s, before);
	const float twistFrom = prefer;
	// A goal that changes (a limb selected or released, the fingers following the forearm) is
	// turned toward from where the hand was last frame, never jumped to.
	const lbQuat goal =
		held ? heldGoal : lbClimbReachableGoal(c, s, cacheValid ? lbClimbTurnToward(lastMs, fresh, c->maxTurn) : fresh, prefer);
	// The wrist goes where the palm's contact (the lock offset out of the palm) lands on the
	// contact point, whatever tilt the wrist's range leaves the palm; refined as the forearm settles.
	const int passes = settled ? 1 : LB_CLIMB_HAND_PASSES;
	// The hand's local rotation as the last placement left it (within the wrist's ranges at full
	// weight): what a hand the turn limit left past its range turns toward with the forearm.
	lbQuat placedLocal = start.local;
	// Whether the arm moved since the last placement: a placement of the arm as the last one left
	// it finds the same roll and the same hand (to rounding) and is not made again.
	bool solved = true;
	for (int pass = 0; pass < passes; ++pass)
	{
		// The roll follows last frame's no faster than twice the turn limit, a held forearm's no
		// faster than the limit: a held hand keeps its rotation, so its roll changes only as the
		// body moves the forearm under it, and where the roll that fits the hand is barely
		// determined (the wrist bent far, as the body moves past the hold) it must not spin.
		if (solved)
			prefer = lbClimbPlaceHand(c, s, goal, start, a, prefer, !held, twistFrom,
									  cacheValid ? (held ? settleTurn : 2.0f * c->maxTurn) : 0.0f, pass == 0);
		solved = false;

		// Whatever the placement did, the hand turns no faster than the limit (its branch
		// switching, a blend ramping in); a held hand's rotation is its cache, so this never moves
		// it. Then the wrist goes where that hand's palm contact lands on the hold: the last step
		// is always this placement, so the contact is exact wherever the arm can reach.
		if (pass == passes - 1 && cacheValid && c->maxTurn > 0.0f)
		{
			if (!held)
				placedLocal = lbClimbLocalQ(c, hand);
			// A hand within the limit is left as the placement wrote it.
			bool turned;
			const lbQuat limited = lbClimbTurnTowardFrom(lastMs, pose->model[hand].q, held ? settleTurn : c->maxTurn, &turned);
			r = turned ? lbClimbSetRotation(c, hand, limited) : lb_ok;
			if (r != lb_ok)
				return r;
			r = held ? lb_ok : lbClimbKeepWristInRange(c, s, placedLocal, lastMs);
			if (r != lb_ok)
				return r;
		}
		// Twice on the last pass: the solve may leave the hand a hair off its rotation, and the
		// contact is measured at the palm. A wrist already within LB_CLIMB_WRIST_CLOSE of where its
		// hand's palm contact asks is left as it is: the solve keeps the hand's rotation, so it
		// would move the wrist by no more than that (a settled hand's first solve goes there, and
		// the forearm's roll in the placement moves the wrist a few micrometres).
		for (int k = 0; k < (pass == passes - 1 && !settled ? 2 : 1); ++k)
		{
			const lbQuat q = pose->model[hand].q;
			const lbVec3 palm = lbNormalize(lbQuatRotate(q, h->armAxes[s].palm));
			in.targetMs = lbClimbArmTarget(c, s, lbClimbContactWrist(c, s, palm, lockOffset));
			if (lbLengthSquared(lbSub(pose->model[hand].p, in.targetMs)) < LB_CLIMB_WRIST_CLOSE * LB_CLIMB_WRIST_CLOSE)
				continue;
			in.useTargetRotation = true;
			in.targetRotationMs = lbQuatNormalize(q);
			// The forearm's roll turned the elbow's hinge with it: the bend plane the arm has now is
			// the hinge to solve about, so the wrist reaches exactly.
			const lbVec3 sh = pose->model[h->arm[s].upperArm].p, el = pose->model[h->arm[s].foreArm].p;
			const lbVec3 hinge = lbCross(lbSub(el, sh), lbSub(pose->model[hand].p, el));
			const lbVec3 rigHinge = lbLimbChain_HingeMs(&c->chain[s], pose);
			in.hingeAxisMs = lbLengthSquared(hinge) > 1.0e-8f ? lbMulSV(lbDot(hinge, rigHinge) < 0.0f ? -1.0f : 1.0f, lbNormalize(hinge))
															   : lbVec3_zero;
			r = lbIkSolveLimbTrusted(pose, c->skeleton, &c->chain[s], &in, lbClimbSubtree(c, s), c->belowCount[s]);
			if (r != lb_ok)
				return r;
			solved = true;
		}
	}
	// A partly weighted solve (the IK alpha ramping in or out) turns the hand with the forearm by
	// less than the placement asked, and its rotation with it: a hand that is not held is held to
	// the turn limit once more, after the solve.
	if (!held && cacheValid && c->maxTurn > 0.0f && a < 1.0f)
	{
		r = lbClimbLimitTurn(c, hand, lastMs, c->maxTurn);
		if (r != lb_ok)
			return r;
		r = lbClimbKeepWristInRange(c, s, placedLocal, lastMs);
		if (r != lb_ok)
			return r;
	}
	newCache->lastHandWs[s] = lbQuatNormalize(lbQuatMul(c->cw.q, pose->model[hand].q));
	// Kept within a turn of zero (a hand held and settled: within a turn and the forearm's roll
	// range): the branch only matters near half a turn. A settled hand's turn taken off at a whole
	// turn (the forearm at its roll limit) landed inside the roll range, and its forearm rolled 85
	// degrees in one frame (a 96-degree overhang 1 m away, mannequin); past a turn and the range
	// the turn left still lies beyond the range on the same side, so the roll stays put. A hand
	// not held, or still locking, comes back at a whole turn: it turns its palm flat onto the wall
	// only with the forearm's roll back in range (kept at the limit, palms locked 28-66 degrees off
	// the wall on overhangs and planned slabs).
	const float wrapAt = 2.0f * LB_PI + (held && !c->settling[s] ? LB_CLIMB_FOREARM_ROLL : 0.0f);
	newCache->lastHandTwist[s] = lbAbsF(prefer) > wrapAt ? lbClimbWrapAngle(prefer) : prefer;
	// Cached as it ends while not held; a hand held before anything was cached caches its goal.
	if (!c->locked[s])
		newCache->handRotWs[s] = lbQuatNormalize(lbQuatMul(c->cw.q, pose->model[hand].q));
	else if (held && c->settling[s])
	{
		// Locking, the held rotation goes on toward the hand's settled goal: its palm turned flat
		// onto the wall (the fingers kept as near as they were), as far as the forearm's roll and
		// the wrist's ranges reach from the arm as it now is. A hand confirmed while still turning
		// toward the wall settles over the transition instead of keeping that tilt; the held
		// rotation turns toward it from last frame's, so it never pops, and the contact is kept.
		// A flat palm that asks the forearm past its roll range settles as far as the range and
		// the wrist take it (the imported rig's left hand, its forearm at the end of its roll: 44
		// -> 14 degrees). That used to shake the body as the other hand let go (pops of 17-20
		// degrees in the held right forearm and the pelvis), so such a hand kept the tilt it was
		// steered to; with the held forearm's roll and the body's turn limited per frame it no
		// longer does.
		const lbQuat q = pose->model[hand].q;
		const lbQuat flat =
			lbQuatNormalize(lbQuatMul(lbQuatFromTo(lbNormalize(lbQuatRotate(q, h->armAxes[s].palm)), lbNeg(n)), q));
		float total, fullRoll;
		const lbQuat settledMs = lbClimbSettleTurned(c, s, q, flat, lbClimbReachableHand(c, s, flat, prefer, &total, &fullRoll), prefer);
		newCache->handRotWs[s] = lbQuatNormalize(lbQuatMul(c->cw.q, settledMs));
	}
	else if (!cacheValid)
		newCache->handRotWs[s] = lbQuatNormalize(lbQuatMul(c->cw.q, fresh));
	return lb_ok;
}

// A limb that is not held swings no faster than 2.5 times the turn limit per bone (world): its
// bones (upper arm, forearm and twist bones; thigh and calf), parent first, each turned from last
// frame's rotation toward where the solve put it, and the hand or foot kept at the rotation the
// solve gave it. The elbow's or knee's swivel, the forearm's roll and the reach toward a moving
// target are each limited on their own; this keeps them from adding up. A free or searching hand
// or foot may then trail its target for a frame or two, and so may one locking (confirmed, moving
// to its lock): with the limit lifted at the confirm, a foot trailing its target under a
// 96-degree overhang had its leg swing 19.3 degrees in one frame. A locked limb is never limited
// here, so it stays exactly on its hold.
static lbResult lbClimbLimitSwing(const lbClimbPoseCtx* c, int limb, const int* bones, int n, int end, lbQuat* last,
								  bool cacheValid)
{
	const lbSkeleton* sk = c->skeleton;
	lbPose* pose = c->pose;
	const bool limit = cacheValid && c->maxTurn > 0.0f && (!c->locked[limb] || c->settling[limb]);
	lbQuat want[2 + LB_MAX_TWIST];
	for (int k = 0; k < n; ++k)
		want[k] = lbClimbValidBone(sk, bones[k]) ? pose->model[bones[k]].q : lbQuat_identity;
	const lbQuat endQ = lbClimbValidBone(sk, end) ? pose->model[end].q : lbQuat_identity;
	bool moved = false;
	for (int k = 0; k < n; ++k)
	{
		if (!lbClimbValidBone(sk, bones[k]))
			continue;
		if (limit)
		{
			const lbQuat lastMs = lbQuatNormalize(lbQuatMul(lbQuatConj(c->cw.q), last[k]));
			// Until a bone moves, each bone is as the solve left it (want[k]).
			bool turned;
			lbQuat q = lbClimbTurnTowardFrom(lastMs, want[k], 2.5f * c->maxTurn, &turned);
			// Only a limb previewing a hold on a top (a candidate, not yet confirmed) while another
			// holds a face: one locking turned as a whole, or the roll it still owed came at once
			// as the lock lifted the limit (28 degrees in a frame, a 97.2-degree overhang on
			// mixamo); a hand let go bent its wrist past its range (98.5 degrees from rest), and
			// the hands of a top-out reaching for the ledge's top ran into their joint limits.
			if (turned && c->held[limb] && !c->locked[limb] && c->top[limb] && !c->onTops)
			{
				// The bone's axis in its own frame (toward the next bone, the last ones toward the
				// hand or foot): its local rotation is still the solve's, whatever its parent did.
				const int next = k == 0 && n > 1 ? bones[1] : end;
				if (lbClimbValidBone(sk, next))
				{
					const lbVec3 along = lbSub(pose->model[next].p, pose->model[bones[k]].p);
					const lbVec3 axis = lbQuatRotate(lbQuatConj(pose->model[bones[k]].q), lbNormalizeOr(along, lbVec3_zero));
					q = lbClimbSwingToward(lastMs, want[k], axis, 2.5f * c->maxTurn);
				}
			}
			if (moved || turned)
			{
				const lbResult r = lbClimbSetRotation(c, bones[k], q);
				if (r != lb_ok)
					return r;
				moved = true;
			}
		}
		last[k] = lbQuatNormalize(lbQuatMul(c->cw.q, pose->model[bones[k]].q));
	}
	if (moved && lbClimbValidBone(sk, end))
	{
		const lbResult r = lbClimbSetRotation(c, end, endQ);
		if (r != lb_ok)
			return r;
	}
	return lb_ok;
}

static lbResult lbClimbLimitArmSwing(const lbClimbPoseCtx* c, int s, lbClimbPoseCache* newCache, bool cacheValid)
{
	const lbArmBones* arm = &c->humanoid->arm[s];
	int bones[2 + LB_MAX_TWIST];
	int n = 0;
	bones[n++] = arm->upperArm;
	bones[n++] = arm->foreArm;
	for (int k = 0; k < arm->twistCount && k < LB_MAX_TWIST; ++k)
		bones[n++] = arm->twist[k];
	return lbClimbLimitSwing(c, s, bones, n, arm->hand, newCache->lastArmWs[s], cacheValid);
}

static lbResult lbClimbLimitLegSwing(const lbClimbPoseCtx* c, int s, lbClimbPoseCache* newCache, bool cacheValid)
{
	const lbLegBones* leg = &c->humanoid->leg[s];
	const int bones[2] = { leg->thigh, leg->calf };
	return lbClimbLimitSwing(c, 2 + s, bones, 2, leg->foot, newCache->lastLegWs[s], cacheValid);
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

// Height along up (model) of the highest top a limb holds behind the wall through `plane` with
// outward normal `n` (model), in *outH: the top of that wall, where it ends at a ledge's lip (a
// hand back in the animation that held such a top still tells where it is: knownTop).
// Only a held top more than 0.1 m behind the wall counts: a hold's top sticks out of the wall
// (holds are 5-6 cm deep), and the wall goes on above it. A known top counts wherever it lies: it
// is a ledge's by where it came from, and the plane may be a foot's own place on that top further
// in (tested against it, the lip came and went as a foot stepped in over it, and the knee went
// the long way round behind). False when no limb holds or knows such a top.
static bool lbClimbHeldTopHeight(const lbClimbPoseCtx* c, lbVec3 n, lbVec3 plane, float* outH)
{
	bool any = false;
	for (int j = 0; j < 4; ++j)
	{
		const lbVec3 at = c->held[j] ? c->surfaceMs[j] : c->knownTopMs[j];
		if (((c->held[j] && lbDot(lbSub(at, plane), n) < -0.1f) || c->knownTop[j]) && c->top[j] &&
			(!any || lbDot(at, c->upMs) > *outH))
		{
			*outH = lbDot(at, c->upMs);
			any = true;
		}
	}
	return any;
}

// What the knee at swivel angle `phi` (rad) lacks of the clearance (m) from the planes it keeps off
// (height hgt_j + radius (A_j cos phi + B_j sin phi) each), summed; plane 0 needs none where the
// knee is over a held lip (lipC + radius (lipA cos phi + lipB sin phi) >= 0).
static float lbClimbKneeMiss(const float* hgt, const float* A, const float* B, int planes, float radius, float clearance,
							 float phi, bool overLip, float lipC, float lipA, float lipB)
{
	const float cc = cosf(phi), sc = sinf(phi);
	float miss = 0.0f;
	for (int j = 0; j < planes; ++j)
		if (!(j == 0 && overLip && lipC + radius * (lipA * cc + lipB * sc) >= 0.0f))
			miss += lbMaxF(clearance - (hgt[j] + radius * (A[j] * cc + B[j] * sc)), 0.0f);
	return miss;
}

// Side blend (with its cache rule), wall frame, side direction and knee pole of leg `s` reaching
// `ankle` from the current hips. `legPoleMs` is the knee's natural direction (the humanoid's knee
// pole carried by the thigh). Without `withPole` the knee pole is left zero (the ankle estimate
// needs only the side and the wall frame, for the toes). `lastKneeMs` (optional): the knee's
// direction last frame (model), which the clearance keeps to between two walls.
static lbClimbLegPlan lbClimbPlanLeg(const lbClimbPoseCtx* c, int s, lbVec3 ankle, float cachedIn, bool cacheValid,
									 lbVec3 legPoleMs, bool withPole, const lbVec3* lastKneeMs)
{
	const lbClimbDef* def = c->def;
	const lbHumanoid* h = c->humanoid;
	const lbPose* pose = c->pose;
	const lbLimbChain* ch = &c->chain[2 + s];
	// On a hold's or a ledge's top the wall the body faces sets the side and the knee's clearance.
	// Standing on tops alone, the top itself: the knee then bends forward over the foot as a
	// crouch does, instead of being kept behind a plane through its toes and swung round behind.
	const lbVec3 n = c->top[2 + s] && !c->onTops ? lbNeg(c->forwardMs) : c->normalMs[2 + s];
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
	// end of its reach) and kept otherwise, so a planted leg does not flip as the body moves. A
	// released foot on its way back to the animation keeps it too: chosen again for the foot under
	// its hip, it put a crossed knee out at the side, half a turn round, and the fade twisted the
	// thigh past its range and the foot 140-180 degrees.
	const bool update = p.reachRatio > def->sideCacheMin && p.reachRatio < def->sideCacheMax && !c->locked[2 + s] &&
						c->ikAlpha[2 + s] > def->sideCacheAlpha && !c->fading[2 + s];
	p.cached = update || !cacheValid ? candidate : lbClampF(cachedIn, -1.0f, 1.0f);
	// The fades read the reach from the hip as it was before the body moved this frame: the side
	// sets the toes, the toes the ankle's estimate, the estimate the full-body effector and so the
	// hip; read from the moved hip the fade answered the body it had just moved, and the side
	// blend swung between -1 and -0.5 every frame (the body with it, by 2-5 cm).
	const float fadeRatio = lbDistance(ankle, c->hipBeforeMs[s]) / legLength;
	const float extend = lbRemapClamped(fadeRatio, def->extendFadeStart, def->extendFadeEnd, 1.0f, 0.0f);
	const float fold = lbRemapClamped(fadeRatio, def->foldFadeStart, def->foldFadeEnd, 0.0f, 1.0f);
	p.side = p.cached * lbMinF(extend, fold);

	// A frame about the hip-ankle axis: out of the wall, and sideways (toward the middle).
	const lbVec3 legAxis = lbNormalizeOr(lbSub(ankle, hip), lbNeg(c->upMs));
	lbVec3 outDir = lbNormalize(lbProjectOnPlane(n, legAxis));
	if (lbLengthSquared(outDir) == 0.0f)
		outDir = lbNormalizeOr(lbProjectOnPlane(lbNeg(legPoleMs), legAxis), lbAnyPerpendicular(legAxis));
	p.sideDir = lbMulSV(p.outward, lbNormalizeOr(lbCross(legAxis, outDir), lbAnyPerpendicular(legAxis)));
	p.poleMs = lbVec3_zero;
	if (!withPole)
		return p;

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
	// of the wall by whatever clearance it lacks; the side pole sits poleBase beside the hip-foot
	// midpoint out toward the leg's own side, and poleSide times the side blend toward the body's
	// middle (sideDir): a crossed foot's knee follows it across, an outward foot's goes further out.
	// With the base toward the middle, a foot a little out to the side (a side blend of -0.2 on the
	// wall) took its knee toward the middle, and the knees crossed between the legs for 77-89 % of
	// the wall climb on both rigs, up to 0.30-0.34 m (a view from behind shows it; the side view
	// the scenarios ship does not).
	const lbVec3 kneeRef = lbMulAdd(centre, radius, u);
	const lbVec3 wallPole =
		lbMulAdd(kneeRef, lbMaxF(clearance - lbDot(lbSub(kneeRef, plane), n), 0.0f), n);
	const lbVec3 mid = lbLerp(hip, ankle, 0.5f);
	const lbVec3 sidePole = lbMulAdd(mid, p.side * def->poleSide - def->poleBase, p.sideDir);
	const lbVec3 pole = lbLerp(wallPole, sidePole, lbAbsF(p.side));

	// A pole only picks the bend plane: pushing it out along the plane does not move the knee. The
	// clearance is kept by the swivel about the hip-ankle line instead: the knee at angle phi is
	// centre + radius (u cos phi + v sin phi); its height over the wall plane is
	// h + radius M cos(phi - phi0), and the smallest turn from the blended pole's angle that keeps
	// it at the clearance is taken (within LB_CLIMB_MAX_KNEE_SWIVEL of the natural direction).
	const lbVec3 prefDir = lbProjectOnPlane(lbSub(pole, centre), legAxis);
	float phi = lbLengthSquared(prefDir) > 1.0e-10f ? atan2f(lbDot(prefDir, v), lbDot(prefDir, u)) : 0.0f;
	// Every wall a limb holds counts, not only this foot's: in an inside corner the knee must also
	// stay off the side wall a hand or the other foot holds. Each plane j keeps the knee at
	// hgt_j + radius (A_j cos phi + B_j sin phi) >= clearance; the candidates are the preferred
	// angle and the ends of each plane's allowed arc, and the nearest one that keeps off every
	// plane (or misses least) is taken.
	// The walls beside the body the sense stage found count as well (an inside corner's other wall
	// that no limb holds: a knee swung out to the side went 5 cm into it).
	float hgt[6], A[6], B[6];
	int planes = 0;
	// The wall ends at a ledge's lip: with its top held (the hands on it, behind the wall), a knee
	// higher than the top by the clearance is over the lip and needs no clearance from this foot's
	// wall (plane 0) below it. Kept off the wall as an endless plane, a foot rising past the lip swung
	// its knee out behind and twisted the thigh instead of passing the knee over the top.
	float lipH = 0.0f;
	const bool overLip = lbClimbHeldTopHeight(c, n, plane, &lipH);
	const float lipC = lbDot(centre, c->upMs) - lipH - clearance, lipA = lbDot(u, c->upMs), lipB = lbDot(v, c->upMs);
	for (int j = -1; j < 4 + c->sideCount; ++j)
	{
		lbVec3 nj = n, pj = plane;
		if (j >= 4)
		{
			nj = c->sideNormalMs[j - 4];
			pj = c->sidePointMs[j - 4];
			if (lbDot(nj, n) > 0.95f)
				continue;
		}
		else if (j >= 0)
		{
			if (j == 2 + s || !c->held[j] || c->top[j] || lbDot(c->normalMs[j], n) > 0.95f)
				continue;
			nj = c->normalMs[j];
			pj = c->surfaceMs[j];
		}
		if (planes >= 6)
			break;
		hgt[planes] = lbDot(lbSub(centre, pj), nj);
		A[planes] = lbDot(u, nj);
		B[planes] = lbDot(v, nj);
		++planes;
	}
	const float maxSwivel = LB_CLIMB_MAX_KNEE_SWIVEL;
	float missPref = lbClimbKneeMiss(hgt, A, B, planes, radius, clearance, phi, overLip, lipC, lipA, lipB);
	float lastPhi = 0.0f;
	bool hasLast = false;
	if (lastKneeMs && (planes > 1 || missPref > 0.0f))
	{
		const lbVec3 l = lbProjectOnPlane(*lastKneeMs, legAxis);
		if (lbLengthSquared(l) > 1.0e-8f)
		{
			lastPhi = atan2f(lbDot(l, v), lbDot(l, u));
			hasLast = true;
		}
	}
	// Between two walls, the side to be on before the leg folds. As the foot comes up toward the
	// hip the knee circle grows (to the shorter bone's length at most), and the clear arc on the
	// side toward the second wall closes between the two walls, while the other side stays open;
	// the way across, through the angle straight into the foot's wall, is clear only while the
	// circle is small. Left to the side the knee was on, a foot placed high in an inside corner
	// closed it, and the knee crossed late: 6.5 cm into the foot's wall on its way. Each side is
	// costed by the least its places miss with the circle at that size (hgt, A and B as now), and a
	// side that misses more than the other is paid for now, while the way across is short.
	const bool corner = hasLast && planes > 1;
	float foldCost[2] = { 0.0f, 0.0f };
	if (corner)
	{
		const float rFold = lbMinF(ch->upperLength, ch->lowerLength);
		float foldMiss[2] = { 1.0e9f, 1.0e9f };
		for (int k = 1; k <= 8; ++k)
			for (int side = 0; side < 2; ++side)
			{
				const float a = (side == 0 ? 1.0f : -1.0f) * maxSwivel * (float)k / 8.0f;
				foldMiss[side] =
					lbMinF(foldMiss[side], lbClimbKneeMiss(hgt, A, B, planes, rFold, clearance, a, false, 0.0f, 0.0f, 0.0f));
			}
		// As a miss (m), like the clearance's, and only beyond a margin: the prediction keeps the
		// hip where it is, and a side a little worse there (1-2 cm, a corner 0.45 m away) sent the
		// knee the long way round behind the leg to the other side and back as the margin came and
		// went (the thigh 3.8 cm into the foot's wall).
		const float margin = 0.4f * clearance;
		foldCost[0] = lbMaxF(foldMiss[0] - foldMiss[1] - margin, 0.0f);
		foldCost[1] = lbMaxF(foldMiss[1] - foldMiss[0] - margin, 0.0f);
		missPref += foldCost[phi > 0.0f ? 0 : 1];
	}
	if (missPref > 0.0f)
	{
		float cands[16];
		int nc = 0;
		// Between two walls the preferred angle and its mirror image count too (the side it is on
		// may be the one the fold closes, its mirror image clear).
		if (corner)
		{
			cands[nc++] = phi;
			cands[nc++] = -phi;
		}
		// Where the knee comes up over the lip: the ends of the arc above the top.
		const float lipM = sqrtf(lipA * lipA + lipB * lipB);
		if (overLip && radius * lipM > 1.0e-6f)
		{
			const float k = -lipC / (radius * lipM);
			const float phi0 = atan2f(lipB, lipA);
			if (k > -1.0f && k < 1.0f)
			{
				const float half = acosf(k);
				cands[nc++] = lbClampF(lbClimbWrapAngle(phi0 + half), -maxSwivel, maxSwivel);
				cands[nc++] = lbClampF(lbClimbWrapAngle(phi0 - half), -maxSwivel, maxSwivel);
			}
		}
		for (int j = 0; j < planes; ++j)
		{
			const float M = sqrtf(A[j] * A[j] + B[j] * B[j]);
			if (!(radius * M > 1.0e-6f))
				continue;
			const float k = (clearance - hgt[j]) / (radius * M);
			const float phi0 = atan2f(B[j], A[j]);
			if (k >= 1.0f)
				cands[nc++] = lbClampF(lbClimbWrapAngle(phi0), -maxSwivel, maxSwivel);
			else if (k > -1.0f)
			{
				const float half = acosf(k);
				cands[nc++] = lbClampF(lbClimbWrapAngle(phi0 + half), -maxSwivel, maxSwivel);
				cands[nc++] = lbClampF(lbClimbWrapAngle(phi0 - half), -maxSwivel, maxSwivel);
			}
		}
		// Sent to the other side by the fold, the knee keeps near the preferred angle's mirror image
		// there: measured from the preferred angle itself, an arc end nearer to it appearing as the
		// circle grew made the chosen angle jump by 1.2 rad toward it.
		const float ref = corner && foldCost[phi > 0.0f ? 0 : 1] > 0.0f ? -phi : phi;
		float best = phi, bestCost = 1.0e9f;
		for (int i = 0; i < nc; ++i)
		{
			const float cnd = cands[i];
			// A candidate may miss a plane (clamped, or another plane's arc end): cost it by what it
			// misses, heavily, and between two walls by what its side misses as the leg folds.
			float miss = lbClimbKneeMiss(hgt, A, B, planes, radius, clearance, cnd, overLip, lipC, lipA, lipB);
			if (corner)
				miss += foldCost[cnd > 0.0f ? 0 : 1];
			// Ties go to the outward side (positive phi). Between two walls (an inside corner) the
			// knee also keeps to the side it was on: the best arc end can change sides there, and
			// the way across passes through the other wall (a knee turned toward it for a frame
			// went 4 cm into the side wall). On one wall the two ends mirror each other and the tie
			// decides, except for a locked foot whose knee cannot clear the wall (no side blend, the
			// knee's natural place in the wall): it keeps to its side too, as the hips move (left to
			// the tie, the best end changed sides on alternate frames and the knee swung back and
			// forth, the thigh 155-179 degrees from rest, while the other foot let go). A foot being
			// placed is left to the tie (kept, a knee swinging across as the foot locked popped 15.4).
			const bool keepSide = planes > 1 || c->locked[2 + s];
			const float stay = hasLast && keepSide ? 0.5f * lbAbsF(lbClimbWrapAngle(cnd - lastPhi)) : 0.0f;
			const float cost = lbAbsF(lbClimbWrapAngle(cnd - ref)) + 100.0f * miss - (cnd > 0.0f ? 1.0e-4f : 0.0f) + stay;
			if (cost < bestCost)
			{
				bestCost = cost;
				best = cnd;
			}
		}
		phi = best;
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
	if (c->top[2 + s])
	{
		// Standing on a top: the sole flat on it, the toes toward the wall the body faces.
		*outToe = lbNormalizeOr(lbProjectOnPlane(c->forwardMs, n), lbAnyPerpendicular(n));
		*outTop = n;
		return;
	}
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
	const lbSole sole = c->axes.sole[s];
	const lbVec3 legPole = lbLimbChain_PoleMs(&c->chain[limb], pose);
	const lbVec3 lastKneeMsV = lbInvTransformDirection(c->cw, newCache->lastKneeWs[s]);
	const lbVec3* lastKnee = cacheValid && c->maxTurn > 0.0f ? &lastKneeMsV : NULL;
	const lbClimbLegPlan plan = lbClimbPlanLeg(c, s, c->ankleGuessMs[s], newCache->legSide[s], cacheValid, legPole, true,
							   lastKnee);
	newCache->legSide[s] = plan.cached;
	res->legSide[s] = plan.side;
	// The knee's direction about the hip-ankle line swings from last frame's no faster than the
	// limit: a side blend or a clearance turn that changes sides does not flip the leg at once.
	const lbVec3 hip = pose->model[h->leg[s].thigh].p;
	const lbVec3 axis = lbNormalizeOr(lbSub(c->ankleGuessMs[s], hip), lbNeg(c->upMs));
	const lbVec3 mid = lbLerp(hip, c->ankleGuessMs[s], 0.5f);
	const float kneeTurn = c->maxTurn * 2.0f;
	lbVec3 dir = lbNormalizeOr(lbProjectOnPlane(lbSub(plan.poleMs, mid), axis), lbAnyPerpendicular(axis));
	if (a <= 0.0f)
	{
		const lbVec3 knee = pose->model[h->leg[s].calf].p;
		dir = lbNormalizeOr(lbProjectOnPlane(lbSub(knee, mid), axis), dir);
		newCache->lastKneeWs[s] = lbTransformDirection(c->cw, dir);
		// Back in the animation, the foot still turns from where it was last posed no faster than
		// the limit: it held its hold's rotation while the IK alpha faded, and would otherwise snap
		// to the animation's on the frame the alpha reaches 0 (40-60 degrees after a foothold).
		if (cacheValid && c->maxTurn > 0.0f)
		{
			const lbQuat lastMs = lbQuatNormalize(lbQuatMul(lbQuatConj(c->cw.q), newCache->lastFootWs[s]));
			const lbResult r = lbClimbLimitTurn(c, foot, lastMs, 1.5f * c->maxTurn);
			if (r != lb_ok)
				return r;
		}
		newCache->lastFootWs[s] = lbQuatNormalize(lbQuatMul(c->cw.q, pose->model[foot].q));
		res->kneePoleMs[s] = plan.poleMs;
		return lb_ok;
	}
	if (cacheValid && c->maxTurn > 0.0f)
	{
		const lbVec3 last =
			lbNormalizeOr(lbProjectOnPlane(lbInvTransformDirection(c->cw, newCache->lastKneeWs[s]), axis), dir);
		float angle = atan2f(lbDot(lbCross(last, dir), axis), lbDot(last, dir));
		// The knee changes sides round the outside: when the short way passes through the wall,
		// it goes the long way. A released foot's knee, on its way back to the animation, takes the
		// long way only when its place halfway is within the clearance of the wall's plane: the
		// foot comes away from the wall, and its knee turning forward from out at the side passes
		// well clear of it (taken the long way round, behind, it twisted the thigh half a turn and
		// the foot 165-180 degrees). A held foot keeps the direction rule (checked by the plane,
		// a knee changing sides on the wall popped 17 degrees), and so does a top, which gives no
		// plane for the wall the body faces.
		const lbVec3 wallN = c->top[limb] && !c->onTops ? lbNeg(c->forwardMs) : c->normalMs[limb];
		const lbVec3 halfway = lbQuatRotate(lbQuatFromAxisAngle(axis, 0.5f * angle), last);
		// Below a held ledge top the knee's places are checked against the wall's plane too: a
		// knee rising past the lip, kept behind the wall's plane below it, goes the short way
		// over the lip, and the long way (behind) only when the short way dips deeper into the
		// wall than where it starts and ends (with a foot close under the lip it is in the
		// clearance everywhere; the long way round swung it out behind, the thigh twisted).
		bool throughWall = lbDot(halfway, wallN) < -0.3f && lbAbsF(angle) > 0.5f;
		// Only a way that passes the direction straight into the wall goes through it: a knee
		// turning back toward the wall on its own side stops short of it (between an inside
		// corner's walls, a knee held out on the side away from the second wall, turned back by
		// half a radian toward its natural place, went the long way round behind and through
		// both walls).
		if (throughWall)
		{
			const lbVec3 into = lbProjectOnPlane(lbNeg(wallN), axis);
			if (lbLengthSquared(into) > 1.0e-8f)
			{
				const float toInto = atan2f(lbDot(lbCross(last, into), axis), lbDot(last, into));
				throughWall = (toInto > 0.0f) == (angle > 0.0f) && lbAbsF(toInto) < lbAbsF(angle);
			}
		}
		float lipH = 0.0f;
		const bool lip = throughWall && lbClimbHeldTopHeight(c, wallN, c->surfaceMs[limb], &lipH);
		if (throughWall && ((!c->top[limb] && !c->held[limb]) || lip))
		{
			lbVec3 centre;
			const float radius = lbClimbKneeCircle(hip, c->ankleGuessMs[s], c->chain[limb].upperLength,
												   c->chain[limb].lowerLength, axis, &centre);
			const lbVec3 kneeHalf = lbMulAdd(centre, radius, halfway);
			const float clearance = lbMaxF(c->def->kneeClearance, 0.0f);
			if (lip && lbDot(kneeHalf, c->upMs) >= lipH + clearance)
				throughWall = false;
			else if (!c->top[limb] && !c->held[limb])
				throughWall = lbDot(lbSub(kneeHalf, c->surfaceMs[limb]), wallN) < clearance;
			else if (!c->top[limb])
			{
				const float hHalf = lbDot(lbSub(kneeHalf, c->surfaceMs[limb]), wallN);
				const float hLast = lbDot(lbSub(lbMulAdd(centre, radius, last), c->surfaceMs[limb]), wallN);
				const float hDir = lbDot(lbSub(lbMulAdd(centre, radius, dir), c->surfaceMs[limb]), wallN);
				throughWall = hHalf < clearance && hHalf < lbMinF(hLast, hDir) - 0.01f;
			}
		}
		// A held foot's knee whose long way round starts into the wall (deeper than the clearance and
		// than it is) while the short way's halfway place is clear of the wall by the clearance goes
		// the short way: a moving foot high by the hip swung its knee the long way, through the wall
		// (7.7 cm on a wall 0.37 m away, the planner's climb on mixamo), while the short way was clear.
		if (throughWall && c->held[limb] && !c->top[limb] && !lip)
		{
			lbVec3 centre;
			const float radius = lbClimbKneeCircle(hip, c->ankleGuessMs[s], c->chain[limb].upperLength,
												   c->chain[limb].lowerLength, axis, &centre);
			const float clearance = lbMaxF(c->def->kneeClearance, 0.0f);
			const float longAngle = angle - (angle > 0.0f ? 2.0f : -2.0f) * LB_PI;
			const lbVec3 nextLong = lbQuatRotate(lbQuatFromAxisAngle(axis, lbClampF(longAngle, -kneeTurn, kneeTurn)), last);
			const float hHalf = lbDot(lbSub(lbMulAdd(centre, radius, halfway), c->surfaceMs[limb]), wallN);
			const float hLast = lbDot(lbSub(lbMulAdd(centre, radius, last), c->surfaceMs[limb]), wallN);
			const float hLong = lbDot(lbSub(lbMulAdd(centre, radius, nextLong), c->surfaceMs[limb]), wallN);
			if (hHalf >= clearance && hLong < clearance && hLong < hLast)
				throughWall = false;
		}
		if (throughWall)
			angle -= (angle > 0.0f ? 2.0f : -2.0f) * LB_PI;
		// A held foot's knee on its way to a goal beyond this frame's turn keeps going the way it
		// went last frame. The way round is chosen again each frame from the knee's halfway place,
		// and a knee moved a step the long way could find the short way clear the next frame (and
		// the long way again the frame after): it swung back and forth at the turn limit while the
		// foot was held (more than 10 degrees a frame on 1,300 frames of the planned holds climb).
		const float way = newCache->kneeWay[s];
		// The way kept must not take the knee into the wall this frame (deeper than the clearance
		// and than it was); on a hold's or a ledge's top the wall the body faces is the plane.
		if (c->held[limb] && way != 0.0f && lbAbsF(angle) > kneeTurn && (angle > 0.0f) != (way > 0.0f))
		{
			const float kept = angle + (way > 0.0f ? 2.0f : -2.0f) * LB_PI;
			lbVec3 centre;
			const float radius = lbClimbKneeCircle(hip, c->ankleGuessMs[s], c->chain[limb].upperLength,
												   c->chain[limb].lowerLength, axis, &centre);
			const lbVec3 next = lbQuatRotate(lbQuatFromAxisAngle(axis, lbClampF(kept, -kneeTurn, kneeTurn)), last);
			const float hNext = lbDot(lbSub(lbMulAdd(centre, radius, next), c->surfaceMs[limb]), wallN);
			const float hLast = lbDot(lbSub(lbMulAdd(centre, radius, last), c->surfaceMs[limb]), wallN);
			const float clearance = lbMaxF(c->def->kneeClearance, 0.0f);
			// Blocked the way it went, the knee waits where it is rather than turning back: turned
			// back for a frame, it found its way clear again the next and swung back and forth
			// (and, let through, went right round the hip-ankle line).
			angle = hNext >= clearance || hNext >= hLast ? kept : 0.0f;
		}
		if (!c->held[limb] || (angle != 0.0f && lbAbsF(angle) <= kneeTurn))
			newCache->kneeWay[s] = 0.0f;
		else if (angle != 0.0f)
			newCache->kneeWay[s] = angle > 0.0f ? 1.0f : -1.0f;
		dir = lbQuatRotate(lbQuatFromAxisAngle(axis, lbClampF(angle, -kneeTurn, kneeTurn)), last);
	}
	newCache->lastKneeWs[s] = lbNormalizeOr(lbTransformDirection(c->cw, dir), dir);
	const lbVec3 poleMs = lbMulAdd(mid, 0.5f, dir);
	res->kneePoleMs[s] = poleMs;

	// First pass: the bend from the pole, toward the estimated ankle.
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = c->ankleGuessMs[s];
	in.poleKind = lb_poleLocation;
	in.poleMs = poleMs;
	in.weight = a;
	lbResult r = lbIkSolveLimbTrusted(pose, c->skeleton, &c->chain[limb], &in, lbClimbSubtree(c, limb), c->belowCount[limb]);
	if (r != lb_ok)
		return r;

	// Toe direction from the lower leg the first pass left, then the foot aimed with it (axes
	// mirrored where the bone's scale is), kept within the ankle's range and turned from last
	// frame's rotation no faster than the limit; the foot is written once, at the end.
	lbVec3 toe, top;
	lbClimbToeDirections(c, s, &plan, sole.toeFlat, &toe, &top);
	const lbVec3 fs = pose->model[foot].s;
	const lbVec3 mirror = lbMakeVec3(fs.x < 0.0f ? -1.0f : 1.0f, fs.y < 0.0f ? -1.0f : 1.0f, fs.z < 0.0f ? -1.0f : 1.0f);
	lbQuat footAim = lbQuatNormalize(lbClimbAim(pose->model[foot].q, lbMulVV(mirror, sole.toeFlat), toe,
												   lbMulVV(mirror, h->legAxes[s].footUp), top, lbClampF(a, 0.0f, 1.0f)));
	// The ankle within a human range of the lower leg: what the aim asks beyond it is left out.
	{
		lbVec3 along, bend;
		lbQuat ref;
		const int parent = c->skeleton->parents[foot];
		along = c->axes.footAlong[s], bend = c->axes.footBend[s], ref = c->axes.footRef[s];
		if (parent >= 0 && c->axes.footValid[s])
		{
			lbJointLimit ankle;
			memset(&ankle, 0, sizeof ankle);
			ankle.kind = lb_limitCone;
			ankle.swingMax = LB_CLIMB_ANKLE_SWING;
			ankle.twistMin = -LB_CLIMB_ANKLE_TWIST;
			ankle.twistMax = LB_CLIMB_ANKLE_TWIST;
			const lbQuat parentQ = pose->model[parent].q;
			const lbQuat local =
				lbClampToJointLimit(&ankle, ref, along, bend, lbQuatNormalize(lbQuatMul(lbQuatConj(parentQ), footAim)));
			footAim = lbQuatNormalize(lbQuatMul(parentQ, local));
		}
	}
	// The foot turns from last frame's rotation no faster than the limit (a new surface, a limb
	// selected or a side change never snaps it).
	if (cacheValid && c->maxTurn > 0.0f)
	{
		const lbQuat lastMs = lbQuatNormalize(lbQuatMul(lbQuatConj(c->cw.q), newCache->lastFootWs[s]));
		// A foot not held on a leg folded past LB_CLIMB_FOOT_FOLD goes at most half-way to its aim
		// in a frame. Its aim is held within the ankle's range about the lower leg, the lower leg
		// follows the ankle's guess, and the guess follows last frame's foot: folded, a small move
		// of the ankle turns the lower leg far, and a foot taken all the way overshot, so the leg
		// swung back and forth (thigh and calf 10-14 degrees a frame, a foot steered high by the
		// hip at its fold, overhangs). A leg less folded turns its lower leg far less for the same
		// move, and there a foot held back trailed its aim into the wall (a searching foot's toes
		// 6 cm into a 98-degree overhang).
		const float limit = 1.5f * c->maxTurn;
		const lbLimbChain* ch = &c->chain[limb];
		const bool folded = lbDistance(hip, c->ankleGuessMs[s]) < LB_CLIMB_FOOT_FOLD * (ch->upperLength + ch->lowerLength);
		footAim = lbClimbTurnToward(lastMs, footAim,
									c->locked[limb] || !folded ? limit : lbMinF(limit, 0.5f * lbQuatAngleBetween(lastMs, footAim)));
	}
	r = lbClimbSetRotation(c, foot, footAim);
	if (r != lb_ok)
		return r;
	// Turning the foot swings the toe tip about the ankle: the ankle goes where the turned foot
	// puts its toe tip on the target, and a second pass takes it there with the aimed rotation.
	const lbQuat footQ = pose->model[foot].q;
	const lbQuat prevFootWs = newCache->lastFootWs[s];
	newCache->lastFootWs[s] = lbQuatNormalize(lbQuatMul(c->cw.q, footQ));
	in.targetMs = lbSub(c->targetMs[limb], lbQuatRotate(footQ, c->toeTipFoot[s]));
	in.useTargetRotation = true;
	in.targetRotationMs = footQ;
	r = lbIkSolveLimbTrusted(pose, c->skeleton, &c->chain[limb], &in, lbClimbSubtree(c, limb), c->belowCount[limb]);
	if (r != lb_ok)
		return r;
	// A held foot whose ankle, for this foot's rotation, lies beyond the leg's length from the hip
	// would leave its toes short of the hold: the body is held to the ankle the full-body stage
	// expected, and the foot's aim (its ankle range about the shin as it now is) put the ankle
	// elsewhere (3.5 cm on a 74-degree slab, the toes 3.9 mm off their hold). The foot turns about
	// its toe tip, in the plane of the hip, the toe tip and the ankle, just far enough to bring the
	// ankle within reach: the heel moves, the toes stay on the hold.
	if (c->locked[limb])
	{
		const lbLimbChain* ch = &c->chain[limb];
		const float legLength = (ch->upperLength + ch->lowerLength) * (1.0f - LB_CLIMB_LEG_STRETCH);
		const lbVec3 toeT = c->targetMs[limb];
		const lbVec3 A = lbSub(in.targetMs, toeT), H = lbSub(pose->model[ch->root].p, toeT);
		const float k = lbLength(A), dh = lbLength(H);
		if (lbDistance(H, A) > legLength && k > 1.0e-4f && dh > 1.0e-4f && dh < legLength + k)
		{
			const lbVec3 e1 = lbMulSV(1.0f / dh, H);
			const lbVec3 e2 = lbNormalizeOr(lbProjectOnPlane(A, e1), lbVec3_zero);
			if (lbLengthSquared(e2) > 0.5f)
			{
				const float cosT = lbClampF((dh * dh + k * k - legLength * legLength) / (2.0f * dh * k), -1.0f, 1.0f);
				const lbVec3 turned = lbAdd(lbMulSV(cosT, e1), lbMulSV(sqrtf(lbMaxF(1.0f - cosT * cosT, 0.0f)), e2));
				const lbQuat held = lbQuatNormalize(lbQuatMul(lbQuatFromTo(lbMulSV(1.0f / k, A), turned), footQ));
				r = lbClimbSetRotation(c, foot, held);
				if (r != lb_ok)
					return r;
				in.targetMs = lbSub(toeT, lbQuatRotate(held, c->toeTipFoot[s]));
				in.targetRotationMs = held;
				r = lbIkSolveLimbTrusted(pose, c->skeleton, ch, &in, lbClimbSubtree(c, limb), c->belowCount[limb]);
				if (r != lb_ok)
					return r;
				newCache->lastFootWs[s] = lbQuatNormalize(lbQuatMul(c->cw.q, pose->model[foot].q));
			}
		}
	}
	if (a >= 1.0f || !(cacheValid && c->maxTurn > 0.0f))
		return r;
	// Under a partial IK alpha the solve blends that rotation with the animation's, so the foot as
	// posed is not the one limited above: a fading foot (just released) is limited again from
	// where it was last posed, or it snaps when the blend swings.
	const lbQuat lastMs = lbQuatNormalize(lbQuatMul(lbQuatConj(c->cw.q), prevFootWs));
	r = lbClimbLimitTurn(c, foot, lastMs, 1.5f * c->maxTurn);
	newCache->lastFootWs[s] = lbQuatNormalize(lbQuatMul(c->cw.q, pose->model[foot].q));
	return r;
}

// Ankle goal of a foot before the body moves: the toe-tip target minus the toe tip's offset
// turned by the rotation the leg stage is expected to give the foot (planned from the pose as it
// is), so the full-body solve and the body constraint aim the leg where it will end.
static lbVec3 lbClimbGuessAnkle(const lbClimbPoseCtx* c, int s, float cachedSide, bool cacheValid, const lbQuat* lastFootWs)
{
	const lbHumanoid* h = c->humanoid;
	const lbPose* pose = c->pose;
	const int foot = h->leg[s].foot;
	const lbSole sole = c->axes.sole[s];
	const lbVec3 toeT = c->targetMs[2 + s];
	// First guess with the foot as it is, then one with the planned rotation.
	const lbVec3 first = lbSub(toeT, lbQuatRotate(pose->model[foot].q, c->toeTipFoot[s]));
	// Only the side and the wall frame are read here (the toes): the knee pole is planned once,
	// from where the body ends, by the leg stage.
	const lbClimbLegPlan plan =
		lbClimbPlanLeg(c, s, first, cachedSide, cacheValid, lbLimbChain_PoleMs(&c->chain[2 + s], pose), false, NULL);
	lbVec3 toe, top;
	lbClimbToeDirections(c, s, &plan, sole.toeFlat, &toe, &top);
	lbQuat q = lbClimbAim(pose->model[foot].q, sole.toeFlat, toe, h->legAxes[s].footUp, top, 1.0f);
	// As the leg stage will: turned from last frame's foot no faster than the limit.
	if (lastFootWs && c->maxTurn > 0.0f)
		q = lbClimbTurnToward(lbQuatNormalize(lbQuatMul(lbQuatConj(c->cw.q), *lastFootWs)), q, 1.5f * c->maxTurn);
	return lbSub(toeT, lbQuatRotate(q, c->toeTipFoot[s]));
}

// A hand held on a top with its shoulder `S` below the top's plane, a limb held on the face under
// it: the forearm passes over the lip only when the elbow can rise to the plane over the lip through
// the wrist (lbClimbLipPlane). The elbow, a forearm's length from the wrist, comes nearest a
// shoulder under that plane where the plane cuts its sphere on the shoulder's side, so the shoulder
// keeps within an upper arm of that point instead of within the whole arm of the wrist (a ball
// inside the reach's: the hand stays within reach). Without it the body sank with a foot moved high
// by the hip, the shoulder under the lip, and no turn of the elbow took the forearm over it (3.0 cm
// into the lip of a 101.2-degree overhang 1.07 m away, the mannequin).
static void lbClimbKeepOverLip(const lbClimbPoseCtx* c, int s, lbVec3 S, lbVec3* lockMs, lbClimbReach* allowed)
{
	const lbVec3 W = *lockMs;
	if (lbDot(lbSub(S, c->surfaceMs[s]), c->normalMs[s]) >= 0.0f)
		return;
	for (int j = 0; j < 4; ++j)
	{
		if (j == s || !c->held[j] || c->top[j])
			continue;
		lbVec3 lip, m;
		if (!lbClimbLipPlane(c, s, j, W, &lip, &m))
			return;
		const float h = lbDot(lbSub(S, lip), m);
		const float b = c->chain[s].lowerLength;
		float rho = 0.0f;
		const lbVec3 across = lbGetLengthAndNormalize(&rho, lbSub(lbMulAdd(S, -h, m), W));
		if (h >= 0.0f || rho <= b)
			return;
		*lockMs = lbMulAdd(W, b, across);
		allowed->hi = lbMaxF(c->chain[s].upperLength - LB_CLIMB_LIP_MARGIN, 0.0f);
		allowed->lo = 0.0f;
		return;
	}
}

// The locked limbs' root joints (shoulder, hip) as posed, their locks and the reach allowed to each
// (see lbClimbHoldBody); returns how many limbs are locked.
static int lbClimbLockPoints(const lbClimbPoseCtx* c, const lbClimbPoseCache* cache, bool cacheValid, lbVec3* rootMs,
							 lbVec3* lockMs, lbClimbReach* allowed)
{
	const lbClimbDef* def = c->def;
	int n = 0;
	for (int i = 0; i < 4; ++i)
	{
		if (!c->locked[i])
			continue;
		rootMs[n] = c->pose->model[c->chain[i].root].p;
		lockMs[n] = i < 2 ? c->targetMs[i] : c->ankleGuessMs[i - 2];
		if (i < 2 && cacheValid)
		{
			// A held hand's wrist sits where its cached rotation puts the palm's contact on the
			// hold, not at the target along the normal: that is what must stay within reach.
			const lbVec3 palm = lbNormalize(
				lbQuatRotate(lbQuatMul(lbQuatConj(c->cw.q), cache->handRotWs[i]), c->humanoid->armAxes[i].palm));
			const float lo = lbIsValidFloat(def->lockOffset[0]) ? def->lockOffset[0] : 0.0f;
			lockMs[n] = lbSub(c->targetMs[i], lbMulSV(lo, lbAdd(c->normalMs[i], palm)));
		}
		allowed[n].hi = lbMaxF(c->chain[i].upperLength + c->chain[i].lowerLength - def->bodyMargin, 0.0f);
		// A held hand's shoulder keeps some way off it: an arm folded tighter swings far for every
		// centimetre the shoulder moves (its elbow's circle turns about the short shoulder-wrist
		// line), 20-40 degrees a frame as the body shifted by a few centimetres.
		allowed[n].lo = i < 2 ? LB_CLIMB_HAND_FOLD * allowed[n].hi : 0.0f;
		if (i < 2 && c->top[i] && c->held[i] && !c->onTops)
			lbClimbKeepOverLip(c, i, rootMs[n], &lockMs[n], &allowed[n]);
		++n;
	}
	return n;
}

// The sum of what the rig derived: everything after its key up to the bone lists, and the lists'
// used entries (counts out of range, in memory the stage never wrote, sum to nothing it made).
static uint64_t lbClimbRigSum(const lbClimbRig* rig)
{
	uint64_t sum = lbRigKey_Sum(LB_CLIMB_RIG_MAGIC, &rig->chain[0], offsetof(lbClimbRig, limbOf) - offsetof(lbClimbRig, chain));
	// Added wide: in memory the stage never wrote the two counts can be anything.
	const int64_t listed = (int64_t)rig->belowFirst[3] + rig->belowCount[3];
	if (rig->boneCount < 0 || rig->boneCount > LB_MAX_BONES || listed < 0 || listed > LB_MAX_BONES)
		return ~sum;
	if (rig->refreshCount < 0 || rig->refreshCount > LB_MAX_BONES)
		return ~sum;
	sum = lbRigKey_Sum(sum, rig->limbOf, (size_t)rig->boneCount);
	sum = lbRigKey_Sum(sum, rig->refresh, (size_t)rig->refreshCount * sizeof rig->refresh[0]);
	return lbRigKey_Sum(sum, rig->below, (size_t)listed * sizeof rig->below[0]);
}

// Checks the humanoid against the skeleton and makes the rig (see lbClimbRig).
static lbResult lbClimbPrepareRig(lbClimbRig* rig, const lbSkeleton* skeleton, const lbHumanoid* humanoid)
{
	static const char fn[] = "lbClimbApplyPose";
	if (lbHumanoid_Check(humanoid, skeleton) != lb_ok)
		return lb_errorSkeletonMismatch;
	for (int i = 0; i < 4; ++i)
	{
		if (lbHumanoid_GetLimbChain(humanoid, (lbLimb)i, &rig->chain[i]) != lb_ok)
			return lbReport(lb_errorMissingRole, "%s: limb %d is not mapped", fn, i);
		const lbLimbChain* ch = &rig->chain[i];
		if (!lbClimbValidBone(skeleton, ch->root) || !lbClimbValidBone(skeleton, ch->mid) ||
			!lbClimbValidBone(skeleton, ch->end))
			return lbReport(lb_errorSkeletonMismatch, "%s: the humanoid map does not fit the skeleton", fn);
		// The limb solves take the chain as checked here, once (see lbIkSolveLimbTrusted).
		if (ch->root == ch->mid || ch->mid == ch->end || !lbSkeleton_IsAncestor(skeleton, ch->root, ch->mid) ||
			!lbSkeleton_IsAncestor(skeleton, ch->mid, ch->end))
			return lbReport(lb_errorInvalidArgument, "%s: the bones of limb %d do not form a chain", fn, i);
	}
	if (!lbClimbValidBone(skeleton, humanoid->pelvis))
		return lbReport(lb_errorSkeletonMismatch, "%s: the humanoid's pelvis is not in the skeleton", fn);
	for (int s = 0; s < 2; ++s)
	{
		for (int k = 0; k < humanoid->arm[s].twistCount && k < LB_MAX_TWIST; ++k)
			if (humanoid->arm[s].twist[k] >= skeleton->boneCount)
				return lbReport(lb_errorSkeletonMismatch, "%s: a twist bone is not in the skeleton", fn);
	}
	for (int side = 0; side < 2; ++side)
	{
		rig->axes.foreValid[side] = lbHumanoid_GetLimitAxes(humanoid, skeleton, side == lb_left ? lb_roleForeArmL : lb_roleForeArmR,
													   &rig->axes.foreAlong[side], NULL, &rig->axes.foreRef[side]);
		rig->axes.footValid[side] = lbHumanoid_GetLimitAxes(humanoid, skeleton, side == lb_left ? lb_roleFootL : lb_roleFootR,
													   &rig->axes.footAlong[side], &rig->axes.footBend[side], &rig->axes.footRef[side]);
		rig->axes.sole[side] = lbHumanoid_GetSole(humanoid, side);
		rig->axes.neutralPalm[side] = lbClimbNeutralPalm(skeleton, humanoid, side);
		rig->axes.neutralCos[side] = cosf(rig->axes.neutralPalm[side]);
		rig->axes.neutralSin[side] = sinf(rig->axes.neutralPalm[side]);
		const lbArmAxes* arm = &humanoid->armAxes[side];
		rig->axes.wristFlex[side] = lbNormalizeOr(lbCross(arm->finger, arm->palm), lbAnyPerpendicular(arm->finger));
	}
	// Each limb's bones (see lbClimbPoseCtx): parents come first, so one pass marks them and
	// another lists them limb by limb.
	const int nb = skeleton->boneCount;
	int8_t* limbOf = rig->limbOf;
	int16_t* below = rig->below;
	rig->boneCount = nb;
	memset(limbOf, -1, (size_t)nb);
	bool overlap = false;
	for (int i = 0; i < 4; ++i)
	{
		overlap = overlap || limbOf[rig->chain[i].root] >= 0;
		limbOf[rig->chain[i].root] = (int8_t)i;
	}
	int count[4] = { 0, 0, 0, 0 };
	for (int b = 0; b < nb; ++b)
	{
		const int p = skeleton->parents[b];
		if (p < 0 || limbOf[p] < 0)
			continue;
		overlap = overlap || (limbOf[b] >= 0 && limbOf[b] != limbOf[p]);
		limbOf[b] = limbOf[p];
		++count[limbOf[b]];
	}
	if (overlap)
	{
		memset(limbOf, -1, (size_t)nb);
		memset(count, 0, sizeof count);
	}
	int fill[4];
	for (int i = 0, n = 0; i < 4; ++i)
	{
		rig->belowFirst[i] = fill[i] = n;
		rig->belowCount[i] = count[i];
		n += count[i];
	}
	for (int b = 0; b < nb && !overlap; ++b)
		if (limbOf[b] >= 0 && b != rig->chain[limbOf[b]].root)
			below[fill[limbOf[b]]++] = (int16_t)b;
	// The limbs' bones restored after the full-body solve, and the pass over the bones from the
	// first of them on that marks what hangs below.
	uint8_t restored[LB_MAX_BONES];
	memset(restored, 0, (size_t)nb);
	int firstRestored = nb;
	rig->restoreCount = 0;
	for (int side = 0; side < 2; ++side)
	{
		const lbArmBones* arm = &humanoid->arm[side];
		const lbLegBones* leg = &humanoid->leg[side];
		int bones[4 + LB_MAX_TWIST + 4];
		int nbones = 0;
		bones[nbones++] = arm->upperArm;
		bones[nbones++] = arm->foreArm;
		bones[nbones++] = arm->hand;
		for (int k = 0; k < arm->twistCount && k < LB_MAX_TWIST; ++k)
			bones[nbones++] = arm->twist[k];
		bones[nbones++] = leg->thigh;
		bones[nbones++] = leg->calf;
		bones[nbones++] = leg->foot;
		bones[nbones++] = leg->ball;
		for (int k = 0; k < nbones; ++k)
			if (lbClimbValidBone(skeleton, bones[k]))
			{
				rig->restore[rig->restoreCount++] = (int16_t)bones[k];
				restored[bones[k]] = 1u;
				firstRestored = bones[k] < firstRestored ? bones[k] : firstRestored;
			}
	}
	rig->refreshCount = 0;
	for (int i = firstRestored; i < nb; ++i)
	{
		const int p = skeleton->parents[i];
		if (p >= 0 && restored[p])
			restored[i] = 1u;
		if (restored[i])
			rig->refresh[rig->refreshCount++] = (int16_t)i;
	}
	lbRigKey_Set(&rig->key, LB_CLIMB_RIG_MAGIC, skeleton, humanoid, lbClimbRigSum(rig));
	return lb_ok;
}

// Whether the rig in the workspace was made for this skeleton and humanoid, and is still intact.
static bool lbClimbRigMatches(const lbClimbRig* rig, const lbSkeleton* skeleton, const lbHumanoid* humanoid)
{
	return lbRigKey_Matches(&rig->key, LB_CLIMB_RIG_MAGIC, skeleton, humanoid) && rig->key.sum == lbClimbRigSum(rig);
}

// ---------------------------------------------------------------------------------------------
// Entry point

lbResult lbClimbApplyPose(const lbClimbTargets* targets, const lbClimbDef* def, const lbSkeleton* skeleton,
						  const lbHumanoid* humanoid, lbClimbPoseCache* cache, lbPose* pose, void* workspace,
						  size_t workspaceSize, lbClimbPoseResult* outResult)
{
	static const char fn[] = "lbClimbApplyPose";
	lbResult r = lb_ok;
	if (!targets || !def || !skeleton || !humanoid || !cache || !pose || !pose->local || !pose->model)
		return lbReport(lb_errorNullPointer, "%s: targets, def, skeleton, humanoid, cache and pose are required", fn);
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: def not initialised with lbDefaultClimbDef()", fn);
	if (def->fullBody.internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: def->fullBody not initialised with lbDefaultFullBodyIkDef()",
						fn);
	if (pose->boneCount != skeleton->boneCount || skeleton->boneCount <= 0)
		return lbReport(lb_errorSkeletonMismatch, "%s: pose has %d bones, skeleton %d", fn, pose->boneCount,
						skeleton->boneCount);
	if (targets->sideWallCount < 0 || targets->sideWallCount > 2)
		return lbReport(lb_errorInvalidArgument, "%s: sideWallCount %d outside 0-2", fn, targets->sideWallCount);
	if (!lbClimbTargetsFinite(targets))
		return lbReport(lb_errorNonFinite, "%s: non-finite targets", fn);
	if (!lbFrameUnscaled(&targets->characterWs))
		return lbReport(lb_errorInvalidArgument, "%s: the targets' character transform scales by (%g, %g, %g); the climb system "
						"takes an unscaled model frame in metres", fn, (double)targets->characterWs.s.x,
						(double)targets->characterWs.s.y, (double)targets->characterWs.s.z);
	if (!lbClimbDefFinite(def))
		return lbReport(lb_errorNonFinite, "%s: non-finite def value", fn);
	if (def->bodyIterations < 0)
		return lbReport(lb_errorInvalidArgument, "%s: bodyIterations %d < 0", fn, def->bodyIterations);
	if (cache->valid)
	{
		for (int s = 0; s < 2; ++s)
			if (!lbClimbValidQuat(cache->handRotWs[s]) || !lbIsValidFloat(cache->legSide[s]) ||
				!lbClimbValidQuat(cache->lastHandWs[s]) || !lbIsValidVec3(cache->lastKneeWs[s]) ||
				!lbIsValidVec3(cache->lastElbowWs[s]) || !lbIsValidFloat(cache->lastHandTwist[s]) ||
				!lbClimbValidQuat(cache->lastFootWs[s]))
				return lbReport(lb_errorNonFinite, "%s: the pose cache holds non-finite or non-unit values", fn);
		if (!lbIsValidVec3(cache->lastBodyShiftWs))
			return lbReport(lb_errorNonFinite, "%s: the pose cache holds non-finite or non-unit values", fn);
		for (int k = 0; k < 1 + LB_MAX_SPINE; ++k)
			if (!lbClimbValidQuat(cache->lastBodyWs[k]) || !lbClimbValidQuat(cache->lastArmWs[0][k % (2 + LB_MAX_TWIST)]) ||
				!lbClimbValidQuat(cache->lastArmWs[1][k % (2 + LB_MAX_TWIST)]) || !lbClimbValidQuat(cache->lastLegWs[k % 2][k / 2 % 2]))
				return lbReport(lb_errorNonFinite, "%s: the pose cache holds non-finite or non-unit values", fn);
	}
	if (!workspace)
		return lbReport(lb_errorNullPointer, "%s: workspace is NULL", fn);
	if (((uintptr_t)workspace % _Alignof(lbTransform)) != 0)
		return lbReport(lb_errorInvalidArgument, "%s: workspace is not aligned for lbTransform", fn);
	const size_t needed = lbGetClimbWorkspaceSize(skeleton);
	if (workspaceSize < needed)
		return lbReport(lb_errorCapacity, "%s: workspace of %zu bytes, %zu needed", fn, workspaceSize, needed);
	// The full-body solver's part, a working copy of the pose (local and model), the rig.
	const int nb = skeleton->boneCount;
	const size_t fbSize = lbClimbAlignUp(lbGetFullBodyIkWorkspaceSize(skeleton), _Alignof(lbTransform));
	lbTransform* workLocal = (lbTransform*)((unsigned char*)workspace + fbSize);
	lbTransform* workModel = workLocal + nb;
	unsigned char* rigBytes = (unsigned char*)(workModel + nb);
	lbClimbRig* rig =
		(lbClimbRig*)(rigBytes + (_Alignof(lbClimbRig) - (uintptr_t)rigBytes % _Alignof(lbClimbRig)) % _Alignof(lbClimbRig));
	if (!lbClimbRigMatches(rig, skeleton, humanoid))
	{
		rig->key.magic = 0u;
		r = lbClimbPrepareRig(rig, skeleton, humanoid);
		if (r != lb_ok)
			return r;
	}
	if (!lbClimbPoseAllFinite(pose))
		return lbReport(lb_errorNonFinite, "%s: the input pose is not finite", fn);
	lbClimbPoseCtx c;
	memset(&c, 0, sizeof c);
	memcpy(c.chain, rig->chain, sizeof c.chain);
	c.axes = rig->axes;
	c.limbOf = rig->limbOf;
	c.below = rig->below;
	memcpy(c.belowFirst, rig->belowFirst, sizeof c.belowFirst);
	memcpy(c.belowCount, rig->belowCount, sizeof c.belowCount);

	memcpy(workLocal, pose->local, (size_t)nb * sizeof(lbTransform));
	memcpy(workModel, pose->model, (size_t)nb * sizeof(lbTransform));
	lbPose work = { nb, workLocal, workModel };
	// Unit rotations to start from: every solve below builds on them, so rounding left in the
	// caller's pose would otherwise grow.
	lbClimbUnitQuats(workLocal, nb);
	lbClimbUnitQuats(workModel, nb);

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
		// A limb fading back from a hold keeps that hold's normal (the sense stage writes it).
		const bool fading = l->mode == lb_climbFree && l->ikAlpha > 0.0f;
		lbVec3 n = l->hasSurface || fading ? lbNormalize(lbInvTransformDirection(c.cw, l->normalWs)) : lbVec3_zero;
		if (lbLengthSquared(n) == 0.0f)
			n = lbNeg(c.forwardMs);
		c.normalMs[i] = n;
		const float lockOffset = def->lockOffset[i < 2 ? 0 : 1];
		// A limb let go has no surface of its own (the sense stage clears it); one given with it
		// (where a top that limb held lies) is only known, not held.
		const bool known = l->hasSurface && l->mode == lb_climbFree;
		c.surfaceMs[i] = l->hasSurface && !known ? lbClimbPointMs(&c, l->surfaceWs)
									   : lbMulAdd(c.targetMs[i], -(lbIsValidFloat(lockOffset) ? lockOffset : 0.0f), n);
		c.top[i] = lbAbsF(lbDot(n, upMs)) >= cosf(lbClampF(def->ledgeAngle, 0.0f, LB_PI));
		c.ikAlpha[i] = lbClampF(l->ikAlpha, 0.0f, 1.0f);
		c.bodyAlpha[i] = lbClampF(l->bodyAlpha, 0.0f, 1.0f);
		c.locked[i] = l->locked;
		c.settling[i] = l->locked && l->mode == lb_climbLocking;
		c.held[i] = l->hasSurface && !known && (l->locked || c.ikAlpha[i] > 0.5f);
		c.knownTop[i] = known && c.top[i];
		c.knownTopMs[i] = known ? lbClimbPointMs(&c, l->surfaceWs) : c.surfaceMs[i];
		c.fading[i] = fading;
	}
	// A side wall with a degenerate normal is no plane: left out.
	c.sideCount = 0;
	for (int k = 0; k < targets->sideWallCount; ++k)
	{
		const lbVec3 n = lbNormalize(lbInvTransformDirection(c.cw, targets->sideWallNormalWs[k]));
		if (lbLengthSquared(n) == 0.0f)
			continue;
		c.sidePointMs[c.sideCount] = lbClimbPointMs(&c, targets->sideWallPointWs[k]);
		c.sideNormalMs[c.sideCount++] = n;
	}
	c.onTops = true;
	for (int i = 0; i < 4; ++i)
		c.onTops = c.onTops && (!c.held[i] || c.top[i]);
	c.maxTurn = targets->dt > 0.0f && lbIsValidFloat(targets->dt) && def->rotationSpeed > 0.0f
					? def->rotationSpeed * targets->dt
					: 0.0f;
	const bool cacheValid = cache->valid != 0;
	lbClimbPoseCache newCache = *cache;
	if (!cacheValid)
		lbClimbPoseCache_Reset(&newCache);
	lbClimbPoseResult res;
	memset(&res, 0, sizeof res);

	// 1. Body clearance from the wall: a displacement, carried by everything below the pelvis.
	r = lbPose_TranslateBoneModel(&work, skeleton, humanoid->pelvis, lbInvTransformVector(c.cw, targets->bodyOffsetWs));
	if (r != lb_ok)
		return r;
	for (int s = 0; s < 2; ++s)
		c.hipBeforeMs[s] = work.model[humanoid->leg[s].thigh].p;
	for (int s = 0; s < 2; ++s)
	{
		const lbTransform f = work.model[humanoid->leg[s].foot];
		c.toeTipFoot[s] = lbQuatInvRotate(f.q, lbSub(lbClimbToeTipMs(humanoid, &work, s), f.p));
		c.ankleGuessMs[s] = lbClimbGuessAnkle(&c, s, newCache.legSide[s], cacheValid,
											  cacheValid && c.ikAlpha[2 + s] > 0.0f ? &newCache.lastFootWs[s] : NULL);
	}

	// 2. Full-body IK: every limb pulls the body by its body alpha; rotations are left to the
	// limb stages.
	bool anyBody = false;
	for (int i = 0; i < 4; ++i)
		anyBody = anyBody || c.bodyAlpha[i] > 1.0e-4f;
	const lbVec3 pelvisBefore = work.model[humanoid->pelvis].p;
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
		lbFullBodyIkDef settings = def->fullBody;
		if (lbLengthSquared(settings.upMs) == 0.0f)
			settings.upMs = upMs;
		// A body standing on its free feet (while no limb holds) reaches with its spine and arms:
		// the pelvis stays where the animation stands it. The legs are put back to the
		// animation's below, so any move or turn of the pelvis would carry a standing foot off
		// the floor (11 cm, reaching up at a wall out of reach) or into it. The weight fades
		// in and out, so the pelvis is let go smoothly once a hold locks.
		const float free = 1.0f - (lbIsValidFloat(targets->standWeight) ? lbClampF(targets->standWeight, 0.0f, 1.0f) : 0.0f);
		settings.pelvisMaxSink *= free;
		settings.pelvisMaxRise *= free;
		settings.pelvisMaxHorizontal *= free;
		settings.pelvisMaxRotation *= free;
		// Only the body is kept (the limbs go back to the animation's below), and the working copy
		// is checked and normalised: the solve's own checks and limb ends are left out.
		r = lbSolveFullBodyIkBody(&work, skeleton, humanoid, &settings, eff, workspace, fbSize, NULL);
		if (r != lb_ok)
			return r;
		// The full-body solve is for the body. Its limbs go back to the animation's (relative to the
		// body as it now is): each limb is solved below by its own IK alpha, so a limb fading out
		// ends exactly at the animation instead of where the full-body solve swivelled it. The
		// solve keeps every bone's local and model together, so only the limbs (and what hangs from
		// them) are worked out again, in one pass over the bones from the first limb bone on.
		// (The bones and their order are the rig's: lbClimbPrepareRig.)
		for (int k = 0; k < rig->restoreCount; ++k)
			workLocal[rig->restore[k]] = pose->local[rig->restore[k]];
		for (int k = 0; k < rig->refreshCount; ++k)
		{
			const int i = rig->refresh[k], p = skeleton->parents[i];
			if (p >= 0)
				lbIkTransformMulTo(&workModel[i], &workModel[p], &workLocal[i]);
			else
				workModel[i] = workLocal[i];
		}
	}

	// The body (pelvis, then each spine bone) turns from last frame's no faster than the turn limit:
	// the full-body solve can answer an effector's alpha crossing a joint limit or the pelvis's
	// range with a jump of its own, and settles in another of the bodies that reach every target
	// as a limb's limit comes in or goes (12-24 degrees of pelvis apart from one frame to the next
	// with the targets still). Each bone's turn adds up at the shoulders, so the limit is the
	// hands' own, not the limbs' two and a half times it. Only rotations: the limbs are solved after, so every
	// held limb still ends on its hold.
	// A limited body that would take a held limb's shoulder or hip farther out of reach than the
	// solve's own body (by more than LB_CLIMB_BODY_LIMIT_SLACK), where no move of the body brings it
	// back, gives way this frame: the body constraint below would otherwise leave that limb short.
	{
		const int spineCount = humanoid->spineCount < LB_MAX_SPINE ? humanoid->spineCount : LB_MAX_SPINE;
		int bodyBones[1 + LB_MAX_SPINE];
		lbQuat solved[1 + LB_MAX_SPINE];
		for (int k = 0; k < 1 + spineCount; ++k)
		{
			bodyBones[k] = k == 0 ? humanoid->pelvis : humanoid->spine[k - 1];
			solved[k] = lbClimbValidBone(skeleton, bodyBones[k]) ? work.model[bodyBones[k]].q : lbQuat_identity;
		}
		lbVec3 rootMs[4], lockMs[4];
		lbClimbReach allowed[4];
		int n = lbClimbLockPoints(&c, &newCache, cacheValid, rootMs, lockMs, allowed);
		const float before = n > 0 ? lbClimbExcess(rootMs, lockMs, allowed, n, lbVec3_zero) : 0.0f;
		// Nor faster than carries the shoulders at the follow speed (the targets' own): a turn about
		// the pelvis moves each shoulder by the turn times its distance (world, so a scaled character
		// is measured as it stands), and a held arm, its hand fixed, swings three to four times as far
		// as the shoulder turns about the pelvis. At the turn limit alone a 2-frame wobble of the solve
		// (4-6 degrees out and back) swung a held forearm 17.6 degrees in a frame (an inside corner
		// 0.36 m away, the left foot steered into it).
		float bodyTurn = c.maxTurn;
		if (def->followSpeed > 0.0f && targets->dt > 0.0f)
		{
			float shoulderDist = 0.0f;
			for (int s = 0; s < 2; ++s)
				if (lbClimbValidBone(skeleton, humanoid->arm[s].upperArm))
					shoulderDist = lbMaxF(shoulderDist, lbLength(lbTransformVector(c.cw, lbSub(work.model[humanoid->arm[s].upperArm].p,
																			   work.model[humanoid->pelvis].p))));
			if (shoulderDist > 1.0e-3f)
				bodyTurn = lbMinF(bodyTurn, def->followSpeed * targets->dt / shoulderDist);
		}
		bool limited = false;
		for (int k = 0; k < 1 + spineCount; ++k)
		{
			const int b = bodyBones[k];
			if (!lbClimbValidBone(skeleton, b) || !(cacheValid && c.maxTurn > 0.0f))
				continue;
			const lbQuat lastMs = lbQuatNormalize(lbQuatMul(lbQuatConj(c.cw.q), newCache.lastBodyWs[k]));
			bool turned;
			const lbQuat q = lbClimbTurnTowardFrom(lastMs, work.model[b].q, bodyTurn, &turned);
			if (turned)
			{
				r = lbPose_SetBoneModelRotation(&work, skeleton, b, q, true);
				if (r != lb_ok)
					return r;
				limited = true;
			}
		}
		if (limited && n > 0)
		{
			n = lbClimbLockPoints(&c, &newCache, cacheValid, rootMs, lockMs, allowed);
			const float bound = lbMaxF(before, 0.0f) + LB_CLIMB_BODY_LIMIT_SLACK;
			bool give = lbClimbExcess(rootMs, lockMs, allowed, n, lbVec3_zero) > bound;
			if (give)
			{
				// Nor when a move of the body alone brings the limbs back within the bound: the hold
				// below makes it. Given way at once, a body whose solve turned 10-12 degrees in a frame
				// (a foot locking on a 72.6-degree slab, the planner's climb on mixamo) swung a held
				// arm 31 degrees; limited and moved, the shoulders travel 2-3 cm a frame.
				float left = 0.0f;
				int rounds = 0;
				(void)lbClimbHoldBody(rootMs, lockMs, allowed, n, def->bodyIterations, &left, &rounds);
				give = left > bound;
			}
			if (give)
			{
				// The limit gives way only as far as it must: the body goes the least part of the way
				// from the limited rotations to the solved ones that brings the limbs back within the
				// bound (bisected; all the way, the solve's own body, always does). Giving way all at
				// once threw the body 12-17 degrees in a frame.
				lbQuat limitedQ[1 + LB_MAX_SPINE];
				for (int k = 0; k < 1 + spineCount; ++k)
					limitedQ[k] = lbClimbValidBone(skeleton, bodyBones[k]) ? work.model[bodyBones[k]].q : lbQuat_identity;
				float lo = 0.0f, hi = 1.0f;
				for (int round = 0; round <= LB_CLIMB_BODY_GIVE_ROUNDS; ++round)
				{
					const float f = round == LB_CLIMB_BODY_GIVE_ROUNDS ? hi : 0.5f * (lo + hi);
					for (int k = 0; k < 1 + spineCount; ++k)
						if (lbClimbValidBone(skeleton, bodyBones[k]))
						{
							r = lbPose_SetBoneModelRotation(&work, skeleton, bodyBones[k],
															lbQuatNormalize(lbQuatSlerp(limitedQ[k], solved[k], f)), true);
							if (r != lb_ok)
								return r;
						}
					if (round == LB_CLIMB_BODY_GIVE_ROUNDS)
						break;
					n = lbClimbLockPoints(&c, &newCache, cacheValid, rootMs, lockMs, allowed);
					if (lbClimbExcess(rootMs, lockMs, allowed, n, lbVec3_zero) > bound)
						lo = f;
					else
						hi = f;
				}
			}
		}
		for (int k = 0; k < 1 + spineCount; ++k)
			if (lbClimbValidBone(skeleton, bodyBones[k]))
				newCache.lastBodyWs[k] = lbQuatNormalize(lbQuatMul(c.cw.q, work.model[bodyBones[k]].q));
	}

	// The full-body solve's move of the pelvis changes from last frame's no faster than the follow
	// speed (the targets' own speed): a solve that settles elsewhere for a frame does not throw the
	// body. The body is then held to the locked limbs below, so no hold is lost.
	{
		const lbVec3 shiftMs = lbSub(work.model[humanoid->pelvis].p, pelvisBefore);
		lbVec3 shiftWs = lbTransformVector(c.cw, shiftMs);
		if (cacheValid && targets->dt > 0.0f && def->followSpeed > 0.0f)
		{
			const float step = def->followSpeed * targets->dt;
			lbVec3 d = lbSub(shiftWs, newCache.lastBodyShiftWs);
			const float len = lbLength(d);
			if (len > step)
			{
				shiftWs = lbMulAdd(newCache.lastBodyShiftWs, step / len, d);
				r = lbPose_TranslateBoneModel(&work, skeleton, humanoid->pelvis,
											  lbSub(lbInvTransformVector(c.cw, shiftWs), shiftMs));
				if (r != lb_ok)
					return r;
			}
		}
		newCache.lastBodyShiftWs = shiftWs;
	}

	// 3. The body held to every locked limb together.
	{
		lbVec3 rootMs[4], lockMs[4];
		lbClimbReach allowed[4];
		const int n = lbClimbLockPoints(&c, &newCache, cacheValid, rootMs, lockMs, allowed);
		if (n > 0)
		{
			const lbVec3 shift = lbClimbHoldBody(rootMs, lockMs, allowed, n, def->bodyIterations, &res.constraintExcess,
												 &res.constraintRounds);
			if (lbLengthSquared(shift) > 0.0f)
			{
				r = lbPose_TranslateBoneModel(&work, skeleton, humanoid->pelvis, shift);
				if (r != lb_ok)
					return r;
				// The next frame's follow limit starts from where the body ended, held included.
				newCache.lastBodyShiftWs = lbAdd(newCache.lastBodyShiftWs, lbTransformVector(c.cw, shift));
			}
		}
	}

	// 4. Arms, then 5. legs.
	for (int s = 0; s < 2; ++s)
	{
		r = lbClimbSolveArm(&c, s, &newCache, cacheValid, &res.handReliability[s]);
		if (r != lb_ok)
			return r;
		r = lbClimbLimitArmSwing(&c, s, &newCache, cacheValid);
		if (r != lb_ok)
			return r;
	}
	for (int s = 0; s < 2; ++s)
	{
		r = lbClimbSolveLeg(&c, s, &newCache, cacheValid, &res);
		if (r != lb_ok)
			return r;
		r = lbClimbLimitLegSwing(&c, s, &newCache, cacheValid);
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
			end = lbClimbToeTipMs(humanoid, &work, i - 2);
		res.remainingMax = lbMaxF(res.remainingMax, lbDistance(end, c.targetMs[i]));
	}
	if (!lbClimbPoseAllFinite(&work))
		return lbReport(lb_errorNonFinite, "%s: the solve produced a non-finite pose (input kept)", fn);

	memcpy(pose->local, workLocal, (size_t)nb * sizeof(lbTransform));
	memcpy(pose->model, workModel, (size_t)nb * sizeof(lbTransform));
	newCache.valid = 1;
	*cache = newCache;
	if (outResult)
		*outResult = res;
	return lb_ok;
}
