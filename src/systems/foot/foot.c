// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Foot placement: the sense stage (world space, state) and the pose stage (model space).
//
// The sense stage smooths *offsets* (the foot's height above the animation's floor, the tilt on
// top of the animated rotation, the slide along the foot), never world positions: the animated
// foot keeps its own horizontal motion, so smoothing cannot make a walking foot lag and slide.
// Foot locking then holds planted feet exactly where they landed. The steps of the sense stage
// are named functions below, in the order lbFootSense calls them.
#include "limber/foot.h"
#include "systems/foot/foot_internal.h"

#include "core/pose_internal.h"
#include "core/simd.h"
#include "ik/ik_internal.h"
#include "limber/ik.h"
#include "limber/ik_batch.h"
#include "core/bits.h"

#include <float.h>
#include <stddef.h>
#include <string.h>

// Steps of the foot system inlined into their callers whatever the compiler's own estimate
// (LB_ALWAYS_INLINE): each call passed its vectors and quaternions packed into registers and
// unpacked them again, which cost more than the work of several of them (RayHeight, RayHeights,
// ClearPrint, FoldRoom, BeyondHeight, KneeClearance, ReachDrop, TiltKept, Tilt, ShiftFor,
// SoleHeights, ClearSole, ThighFlex, the goal, the lock, the animated leg, the frame's set-up, the
// hip lift, and the pose stage's ToesWithin, OffLedge and pose check: about 1,000 instructions a
// character-frame). Each was measured in the code as it stood; the steps whose inlining saved
// nothing or cost more in the grown callers (CastDown, PelvisShift, SampleGround, PlantShiftWithin,
// FoldedGoals, BendAllToes) stay out of line.

// And the other way (LB_NOINLINE): steps the compiler would inline whose code, kept out of line,
// leaves their callers fewer values to hold (ToeGroundNormal, which only a foot on the ground
// bending its toes runs, and UnfoldCapped, which only a foot still blending into a lock an edge or
// more below runs: about 45 instructions a character-frame fewer).

// The transforms of one vector each frame reads several times per foot (the animated foot into the
// world, the hips, the goals into model space), bit for bit the math.h results (the same products
// and sums in the same order), with the vector's three components in the lanes of one SSE register
// (lbIkVSet / lbIkVGet, ik/ik_internal.h).

// lbQuatInvRotate(q, v): the conjugate's x, y and z negated exactly.
static inline lbVec3 lbFootRotateBack(lbQuat q, lbVec3 v)
{
#if LB_IK_SSE2
	const __m128 conj = _mm_xor_ps(_mm_loadu_ps(&q.x), _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
	return lbIkVGet(lbIkQuatRotate4(conj, lbIkVSet(v)));
#else
	return lbQuatInvRotate(q, v);
#endif
}

// lbInvTransformPoint(*t, p): lbSafeRecip3's reciprocal scale, zero in a lane near zero.
static inline lbVec3 lbFootPointIn(const lbTransform* t, lbVec3 p)
{
#if LB_IK_SSE2
	const __m128 ws = _mm_loadu_ps(&t->q.w);
	const __m128 sc = _mm_shuffle_ps(ws, ws, _MM_SHUFFLE(0, 3, 2, 1));
	const __m128 abs = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
	const __m128 recip = _mm_and_ps(_mm_cmpgt_ps(_mm_and_ps(sc, abs), _mm_set1_ps(LB_EPSILON)), _mm_div_ps(_mm_set1_ps(1.0f), sc));
	const __m128 conj = _mm_xor_ps(_mm_loadu_ps(&t->q.x), _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
	return lbIkVGet(_mm_mul_ps(recip, lbIkQuatRotate4(conj, _mm_sub_ps(lbIkVSet(p), _mm_loadu_ps(&t->p.x)))));
#else
	return lbInvTransformPoint(*t, p);
#endif
}

// lbInvTransformDirection(*t, d).
static inline lbVec3 lbFootDirectionIn(const lbTransform* t, lbVec3 d)
{
#if LB_IK_SSE2
	const __m128 ws = _mm_loadu_ps(&t->q.w);
	const __m128 neg = _mm_and_ps(_mm_cmplt_ps(_mm_shuffle_ps(ws, ws, _MM_SHUFFLE(0, 3, 2, 1)), _mm_setzero_ps()),
								  _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
	const __m128 conj = _mm_xor_ps(_mm_loadu_ps(&t->q.x), _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
	return lbIkVGet(_mm_xor_ps(lbIkQuatRotate4(conj, lbIkVSet(d)), neg));
#else
	const lbVec3 r = lbQuatInvRotate(t->q, d);
	return LB_LITERAL(lbVec3){ t->s.x < 0.0f ? -r.x : r.x, t->s.y < 0.0f ? -r.y : r.y, t->s.z < 0.0f ? -r.z : r.z };
#endif
}

#if LB_IK_SSE2
// lbQuatNormalize of the quaternion in q's lanes (x, y, z, w), bit for bit: the squares summed in
// lbQuatDot's order, the same root, test, reciprocal and products.
static inline lbQuat lbFootQuatNormalize4(__m128 q)
{
	const __m128 q2 = _mm_mul_ps(q, q);
	__m128 d = _mm_add_ss(q2, _mm_shuffle_ps(q2, q2, _MM_SHUFFLE(1, 1, 1, 1)));
	d = _mm_add_ss(d, _mm_movehl_ps(q2, q2));
	d = _mm_add_ss(d, _mm_shuffle_ps(q2, q2, _MM_SHUFFLE(3, 3, 3, 3)));
	const __m128 n = _mm_sqrt_ss(d);
	const float len = _mm_cvtss_f32(n);
	if (!(len > LB_EPSILON) || !lbIsValidFloat(len))
		return lbQuat_identity;
	const __m128 inv = _mm_div_ss(_mm_set_ss(1.0f), n);
	lbQuat r;
	_mm_storeu_ps(&r.x, _mm_mul_ps(q, _mm_shuffle_ps(inv, inv, _MM_SHUFFLE(0, 0, 0, 0))));
	return r;
}
#endif

// lbQuatNormalize(q).
static inline lbQuat lbFootQuatNormalize(lbQuat q)
{
#if LB_IK_SSE2
	return lbFootQuatNormalize4(_mm_loadu_ps(&q.x));
#else
	return lbQuatNormalize(q);
#endif
}

// lbQuatNormalize(lbQuatMul(lbQuatConj(a), b)).
static inline lbQuat lbFootQuatInNormalized(lbQuat a, lbQuat b)
{
#if LB_IK_SSE2
	const __m128 conj = _mm_xor_ps(_mm_loadu_ps(&a.x), _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
	return lbFootQuatNormalize4(lbIkQuatMul4(conj, _mm_loadu_ps(&b.x)));
#else
	return lbQuatNormalize(lbQuatMul(lbQuatConj(a), b));
#endif
}

// lbQuatMul(lbQuatConj(a), b).
static inline lbQuat lbFootQuatIn(lbQuat a, lbQuat b)
{
#if LB_IK_SSE2
	lbQuat r;
	const __m128 conj = _mm_xor_ps(_mm_loadu_ps(&a.x), _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
	_mm_storeu_ps(&r.x, lbIkQuatMul4(conj, _mm_loadu_ps(&b.x)));
	return r;
#else
	return lbQuatMul(lbQuatConj(a), b);
#endif
}

// Points probed ahead of a swinging foot.
#define LB_FOOT_AHEAD 2
// How fast (per second) the toes' bend onto the ground eases in and out with a plant: 50 ms.
#define LB_FOOT_TOE_BEND_RATE 20.0f
// How fast (m/s) the toes' plane follows the ground under the ball (lbFootTarget::toeRise): taken
// at once, it came and went by 1.5-2 cm with each lock and release of a shuffling captured foot,
// and the toes turned 22 degrees in a frame (CMU 01_03 across a 25.5 degree slope).
#define LB_FOOT_TOE_RISE_RATE 0.3f
// How fast (m/s) the ball the toes bend for may rise while their bend eases out after a release
// (lbFootLegState::toeBallSeen): a captured foot's ball rose 2.5 cm in the frame its lock let go,
// the toes, bent just enough to keep their tip on the ground, then needed no bend, and turned back
// 15.5-16.7 degrees in that frame (CMU 01_01 over rocks and down stairs); a folded trailing foot
// walking down 0.218 m risers at 31 degrees raised its ball 2 cm at the release and its toes turned
// back 13 degrees. Half a centimetre a 60 Hz frame; 0.6 m/s kept the second's pops, none at all
// (the plane moving with the ball) held the bend whole until its weight ran out, and 38 walks and
// runs up stairs and turns on them (terrain sweep and held-out seeds) turned their toes back 30-33
// degrees at once.
#define LB_FOOT_TOE_BALL_RISE 0.3f

// Speed (1/s) at which the climb rate (lbFootState::climbRate) follows the floor's rise, and the
// grades (rise over horizontal speed) at which the climb's hip shift starts and is whole.
#define LB_FOOT_CLIMB_SPEED 2.0f
#define LB_FOOT_CLIMB_FROM 0.2f
#define LB_FOOT_CLIMB_FULL 0.5f

lbFootDef lbDefaultFootDef(void)
{
	lbFootDef d;
	memset(&d, 0, sizeof d);
	d.up = lbVec3_axisZ;
	d.traceRadius = 0.03f;
	d.traceOrigin = lb_footTraceFromFoot;
	d.traceAbove = 0.5f;
	d.traceBelow = 0.6f;
	d.channelMask = LB_CHANNEL_GROUND;
	d.ignoreOwnerId = LB_NO_OWNER;
	d.heelToeTraces = false;
	d.normalWeight = 0.7f;
	d.maxFootAngle = 40.0f * LB_DEG2RAD;
	d.slopeLimit = 35.0f * LB_DEG2RAD;
	d.goalSpeed = 13.0f;
	d.rotationSpeed = 18.0f;
	d.predictionTime = 0.02f;
	d.predictionMax = 0.20f;
	d.predictionMaxTurnRate = 1.5f;
	d.pelvisMode = lb_footPelvisLowestFoot;
	d.pelvisWeight = 0.3f;
	d.pelvisMaxSink = 0.35f;
	d.pelvisMaxSinkSlope = 0.15f;
	d.pelvisMaxLift = 0.05f;
	d.climbHipShift = 0.10f;
	d.kneeMaxBend = 150.0f * LB_DEG2RAD;
	d.hipMaxFlex = 120.0f * LB_DEG2RAD;
	d.pelvisSpeed = 13.0f;
	d.landingCompression = -0.06f;
	d.landingRelaxSpeed = 8.0f;
	d.alphaSpeed = 10.0f;
	d.clampedAlpha = 0.3f;
	d.traceRate = 30.0f;
	d.lodDistance = 8.0f;
	d.footLock = true;
	d.lockSpeed = 0.3f;
	d.lockHeight = 0.04f;
	d.lockReleaseDistance = 0.10f;
	d.lockReleaseAngle = 30.0f * LB_DEG2RAD;
	d.lockBlendSpeed = 15.0f;
	d.teleportDistance = 1.0f;
	d.legSoften = 0.02f;
	d.ankleLimit = 65.0f * LB_DEG2RAD;
	d.footprintTraces = true;
	d.edgeHeight = 0.04f;
	d.edgeMargin = 0.015f;
	d.maxPlantShift = 0.16f;
	d.swingLookahead = 0.2f;
	d.swingClearance = 0.08f;
	d.slideHeight = 0.15f;
	d.maxGoalSpeed = 4.0f;
	d.probeReuseDistance = 0.01f;
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

lbFootSenseInput lbDefaultFootSenseInput(void)
{
	lbFootSenseInput in;
	memset(&in, 0, sizeof in);
	in.characterWs = lbTransform_identity;
	in.ikMode = lb_footIkEnabled;
	in.moveState = lb_footGrounded;
	return in;
}

void lbFootState_Reset(lbFootState* state)
{
	if (!state)
		return;
	memset(state, 0, sizeof *state);
	for (int s = 0; s < 2; ++s)
	{
		state->legs[s].tilt = lbQuat_identity;
		state->legs[s].lockRotWs = lbQuat_identity;
		state->legs[s].groundNormalWs = lbVec3_axisZ;
		state->legs[s].toeNormalWs = lbVec3_axisZ;
	}
	state->prevCharacterWs = lbTransform_identity;
}

lbResult lbFootState_SetTracePhase(lbFootState* state, float phase)
{
	if (!state)
		return lbReport(lb_errorNullPointer, "lbFootState_SetTracePhase: state is NULL");
	if (!lbIsValidFloat(phase))
		return lbReport(lb_errorNonFinite, "lbFootState_SetTracePhase: phase is not finite");
	phase -= floorf(phase);
	// floorf can leave exactly 1 for tiny negative phases.
	state->tracePhase = phase < 1.0f ? phase : 0.0f;
	return lb_ok;
}

lbVec3 lbFootSoleLocal(const lbHumanoid* humanoid, int side)
{
	if (!humanoid || side < 0 || side > 1)
		return lbVec3_zero;
	return lbHumanoid_GetSole(humanoid, side).under;
}

// Tilt taking `up` part of the way toward the ground normal (both unit): weight times the slope
// angle, capped at maxAngle. Also gives the slope angle itself (radians), which the caller needs
// too: one atan2f serves both.
static LB_ALWAYS_INLINE lbQuat lbFootTilt(lbVec3 up, lbVec3 normal, float weight, float maxAngle, float* outSlope)
{
	lbVec3 axis = lbCross(up, normal);
	float s = lbLength(axis);
	// atan2 of |up x n| and up . n: accurate at every angle, unlike acos near 0.
	float slope = atan2f(s, lbDot(up, normal));
	*outSlope = slope;
	if (s < 1.0e-6f)
		return lbQuat_identity;
	float angle = lbMinF(slope * lbClampF(weight, 0.0f, 1.0f), lbMaxF(maxAngle, 0.0f));
	// The axis up x n / s is already unit: build the quaternion directly.
	float h = 0.5f * angle, k = sinf(h) / s;
	return LB_LITERAL(lbQuat){ axis.x * k, axis.y * k, axis.z * k, cosf(h) };
}

// lbFootTilt through the leg's kept tilt: the same inputs, bit for bit, give the kept answer without
// the arctangent and the sine and cosine (a kept probe, a foot still over the same face).
static LB_ALWAYS_INLINE lbQuat lbFootTiltKept(lbFootLegState* leg, const lbVec3* up, const lbVec3* normal, float weight, float maxAngle,
											float* outSlope)
{
	// The inputs' bits against the kept ones where each lies (no key gathered to compare).
	if (memcmp(normal, &leg->tiltNormalWs, sizeof *normal) == 0 && memcmp(up, &leg->tiltUpWs, sizeof *up) == 0 &&
		memcmp(&weight, &leg->tiltWeight, sizeof weight) == 0 && memcmp(&maxAngle, &leg->tiltMaxAngle, sizeof maxAngle) == 0)
	{
		*outSlope = leg->tiltSlope;
		return leg->tiltTargetWs;
	}
	leg->tiltTargetWs = lbFootTilt(*up, *normal, weight, maxAngle, &leg->tiltSlope);
	leg->tiltNormalWs = *normal;
	leg->tiltUpWs = *up;
	leg->tiltWeight = weight;
	leg->tiltMaxAngle = maxAngle;
	*outSlope = leg->tiltSlope;
	return leg->tiltTargetWs;
}

// cosf and expf of arguments the sense stage takes again and again: made from the def and the frame
// time alone, they are the same for every character of a call. Each call site keeps two arguments
// (compared bit for bit) with their values, the first it met and the latest other one, across the
// characters of one call: the same value as the call it spares, to the bit. Lives on the caller's
// stack, nothing kept between calls.
enum
{
	lb_footMemoTurn,
	lb_footMemoRelease,
	lb_footMemoFold,
	lb_footMemoKeep,
	lb_footMemoZone,
	lb_footMemoCap,
	lb_footMemoAlpha,
	lb_footMemoGoal,
	lb_footMemoGoal2,
	lb_footMemoRotation,
	lb_footMemoShift,
	lb_footMemoPelvis,
	lb_footMemoLanding,
	lb_footMemoLockIn,
	lb_footMemoLockOut,
	lb_footMemoSlope,
	lb_footMemoSlopeEase,
	lb_footMemoClimb,
	lb_footMemoFlex,
	lb_footMemoSites
};

typedef struct lbFootMemo
{
	uint32_t arg[lb_footMemoSites][2];
	float value[lb_footMemoSites][2];
} lbFootMemo;

// A floor moving less than this (m/s along up; 0.1 mm a frame at 60 Hz) reads as still for the
// decisions on a rising or falling floor (which read its sign): a controller's height jittering
// by hundredths of a millimetre on flat ground flipped them every frame, and a walk's bones went
// up to 2.9 cm from the same walk on a still floor
// (test_a_jittering_controller_height_changes_nothing).
static const float kFootFloorStill = 0.006f;

// An empty entry's argument bits: a NaN with every payload bit set, which no argument here takes
// (each is computed from a checked def and frame time; arithmetic makes no such NaN from them).
static void lbFootMemo_Init(lbFootMemo* m)
{
	memset(m->arg, 0xff, sizeof m->arg);
}

// What one sense call works out once for all its characters (one def, one rig): each side's sole
// (lbHumanoid_GetSole), the bones the animated pose's check reads, the def's up made unit, and the
// cosines and exponentials kept per call site.
typedef struct lbFootCall
{
	lbSole soles[2];
	lbFootReadList read;
	lbVec3 up;
	lbFootMemo memo;
} lbFootCall;

// cosf(x) (isCos) or expf(x) at call site `site`.
static float lbFootMemoCall(lbFootMemo* m, int site, float x, bool isCos)
{
	uint32_t bits;
	memcpy(&bits, &x, sizeof bits);
	if (m->arg[site][0] == bits)
		return m->value[site][0];
	if (m->arg[site][1] == bits)
		return m->value[site][1];
	const float v = isCos ? cosf(x) : expf(x);
	// The first entry once taken stays; the second follows the latest other argument.
	const int e = m->arg[site][0] == 0xffffffffu ? 0 : 1;
	m->arg[site][e] = bits;
	m->value[site][e] = v;
	return v;
}

static inline float lbFootCos(lbFootMemo* m, int site, float x)
{
	return lbFootMemoCall(m, site, x, true);
}

// lbInterpAlpha(dt, speed) with its exponential from the memo.
static inline float lbFootInterpAlpha(lbFootMemo* m, int site, float dt, float speed)
{
	if (!(dt > 0.0f) || !lbIsValidFloat(dt))
		return 0.0f;
	if (!(speed > 0.0f))
		return 1.0f;
	return 1.0f - lbFootMemoCall(m, site, -speed * dt, false);
}

// lbInterpTo(current, target, dt, speed) with its exponential from the memo.
static inline float lbFootInterpTo(lbFootMemo* m, int site, float current, float target, float dt, float speed)
{
	if (!(dt > 0.0f) || !lbIsValidFloat(dt))
		return current;
	const float gap = target - current;
	// Settled: see lbInterpTo (a pelvis easing back to the animation's height sat on a denormal
	// offset for hundreds of frames, 30 operations a frame taking it).
	if (lbAbsF(gap) < LB_SETTLE_GAP)
		return target;
	return current + gap * lbFootInterpAlpha(m, site, dt, speed);
}

// Whether unit rotations a and b differ by more than `angle` (radians). The rotation between them
// turns by 2 acos |a . b|, so comparing cosines needs no inverse trigonometry. Negative angles are
// always exceeded, angles of half a turn or more (or NaN) never.
static bool lbFootTurnedBeyond(lbFootMemo* memo, lbQuat a, lbQuat b, float angle)
{
	if (!(angle < LB_PI))
		return false;
	if (angle < 0.0f)
		return true;
	return lbAbsF(lbQuatDot(a, b)) < lbFootCos(memo, lb_footMemoRelease, 0.5f * angle);
}

typedef struct lbFootCast
{
	bool hit;
	// Support under the cast line, face normal there, and where the sphere actually touched.
	lbVec3 point, normal, touch;
	// Height (along up) of the face straight under the cast line: the ray's hit, or the support's
	// own height when the sphere rested inside a face.
	float faceHeight;
} lbFootCast;

// The downward line a probe sweeps under `base` (world): from the def's height above it (or from
// pelvis height) to `below` under it, with the def's radius, channels and ignored owner.
static lbQueryInput lbFootProbe(const lbFootDef* def, lbVec3 base, lbVec3 pelvisWs, lbVec3 up, float below)
{
	float above = def->traceOrigin == lb_footTraceFromPelvis ? lbMaxF(lbDot(lbSub(pelvisWs, base), up), 0.1f)
															  : def->traceAbove;
	// Every member set here (lbDefaultQueryInput's would all be overwritten: no call for it).
	lbQueryInput qi;
	qi.start = lbMulAdd(base, above, up);
	qi.end = lbMulAdd(base, -below, up);
	qi.radius = lbMaxF(def->traceRadius, 0.0f);
	qi.channelMask = def->channelMask;
	qi.ignoreOwnerId = def->ignoreOwnerId;
	return qi;
}

// The scene's casts called straight into the caller's hit: the sense stage has checked that the
// query and both functions are there, and a query function fills the whole hit, so the empty hit
// lbRayCast / lbSphereCast make first and the copy they return are spared.
static inline void lbFootRayCast(const lbSceneQuery* query, const lbQueryInput* qi, lbHit* out)
{
	query->rayCast(query->context, qi, out);
}

static inline void lbFootSphereCast(const lbSceneQuery* query, const lbQueryInput* qi, lbHit* out)
{
	query->sphereCast(query->context, qi, out);
}

// One downward probe: a sphere cast finds the support (the sphere filters pebbles and cracks).
// Resting inside a face, the sphere's normal is that face's and the probe is done. At an edge or a
// vertex its normal points from the edge to the sphere's centre, wrong for tilting a foot, so a ray
// along the same line then finds the face under the foot; the sphere's normal is used only when
// the ray finds nothing near the support.
static lbFootCast lbFootCastDown(const lbSceneQuery* query, const lbQueryInput* qi, lbVec3 up, int* castCount)
{
	lbFootCast c = { false, lbVec3_zero, up, lbVec3_zero, 0.0f };
	lbHit hit;
	// A probe of no radius is a ray (a foot in mid-swing; see lbFootProbeLeg).
	if (qi->radius > 0.0f)
		lbFootSphereCast(query, qi, &hit);
	else
		lbFootRayCast(query, qi, &hit);
	// A sphere resting inside one face already has that face's normal: the ray below is needed only
	// at an edge or vertex contact (or when the scene cannot tell which it was).
	bool onFace = hit.hit && !hit.startedInside && hit.status == lb_ok && lbLengthSquared(hit.faceNormal) > 0.25f &&
				  lbDot(hit.faceNormal, hit.normal) > 0.99999f;
	lbHit ray;
	ray.hit = false;
	if (!onFace)
	{
		lbFootRayCast(query, qi, &ray);
		*castCount += 1;
	}
	*castCount += 1;
	// A sphere that starts inside geometry says nothing about the ground under the foot; the ray
	// reports the first surface it enters instead.
	if (!hit.hit || hit.startedInside || hit.status != lb_ok)
	{
		hit = ray;
		if (!hit.hit || hit.startedInside || hit.status != lb_ok)
			return c;
	}
	lbVec3 n = lbNormalize(hit.normal);
	// A sphere that grazes an edge beside its line (the nose of a step up, when a landing foot's
	// slide has put the probe about a radius short of the riser) stops on it with a normal that is
	// nearly level: that is no ground, but the ray along the same line found the ground the foot
	// stands over, and that is what the probe answers. Turned away, walking up 0.158 m risers the
	// landing foot had no ground for two frames, then the toes went 5 cm into the next riser.
	bool rayOnly = false;
	if (lbDot(n, up) < 0.05f && ray.hit && !ray.startedInside && ray.status == lb_ok && lbDot(ray.normal, up) >= 0.05f)
	{
		hit = ray;
		n = lbNormalize(hit.normal);
		rayOnly = true;
	}
	if (lbDot(n, up) < 0.05f)
		return c; // walls and ceilings are not ground
	// Support height under the sphere centre: exact for a plane (centre - r / cos(slope)).
	float r = hit.startedInside || rayOnly ? 0.0f : qi->radius;
	lbVec3 support = lbMulAdd(hit.location, -r / lbMaxF(lbDot(n, up), 0.5f), up);
	// Without a ray to the face below (a sphere on an edge over a gap), the normal at the edge
	// points from the edge to the sphere's centre and would tip the foot into the gap: the face the
	// sphere touched, when it is ground, or else up, tilts it instead.
	lbVec3 face = n;
	if (!onFace && hit.hit && !hit.startedInside)
		face = lbDot(hit.faceNormal, up) > 0.7f ? lbNormalize(hit.faceNormal) : up;
	const bool rayGround = ray.hit && !ray.startedInside && ray.status == lb_ok && lbDot(ray.normal, up) > 0.05f;
	// An edge: the foot rests on the edge itself, at the touch point's height, where the face
	// straight below lies clearly lower than where the sphere touched, or where no ground lies below
	// within reach (a ledge's edge over a drop deeper than the probe). There the height under the
	// tilted edge normal's plane lay up to a radius below the top (5 cm on a 0.6 m ledge), which made
	// the top behind the heel a wall and left no place on it for a landing foot.
	const bool onEdge = !hit.startedInside && (rayGround ? lbDot(lbSub(hit.impactPoint, ray.impactPoint), up) > 0.01f
															: !onFace && lbDot(lbSub(hit.impactPoint, support), up) > 0.0f);
	if (onEdge)
		support = lbMulAdd(support, lbDot(lbSub(hit.impactPoint, support), up), up);
	c.faceHeight = rayGround ? lbDot(ray.impactPoint, up) : lbDot(support, up);
	if (rayGround)
		face = lbNormalize(ray.normal);
	c.hit = true;
	c.point = support;
	c.normal = face;
	c.touch = hit.impactPoint;
	return c;
}

// Whether lbFootCastDown along `qi` finds ground, by a ray along its line first: ground the ray
// meets within the line is ground the sphere, whose centre runs down that line, meets too (at it
// or on something before it, which lbFootCastDown takes for ground as well unless that is a face
// within 3 degrees of vertical). Only where the ray finds no ground (a gap under the ankle, a start
// inside a solid, a wall) is the sphere cast. A ray costs about a third of a sphere on the
// heightfield and under a third on the mesh.
static bool lbFootGroundStill(const lbSceneQuery* query, const lbQueryInput* qi, lbVec3 up, int* castCount)
{
	if (!(qi->radius > 0.0f))
		return lbFootCastDown(query, qi, up, castCount).hit;
	lbQueryInput line = *qi;
	line.radius = 0.0f;
	lbHit ray;
	lbFootRayCast(query, &line, &ray);
	*castCount += 1;
	// Ground as lbFootCastDown takes it: its normal, made unit (a degenerate one is none), within
	// 87 degrees of up.
	if (ray.hit && !ray.startedInside && ray.status == lb_ok && lbDot(lbNormalize(ray.normal), up) >= 0.05f)
		return true;
	return lbFootCastDown(query, qi, up, castCount).hit;
}

// Height (along up) of the ground straight under `base` (world) found by a ray along the probe
// line `proto` moved to `base`; false when the ray finds nothing (a gap, the world's end). A ray
// that starts inside a solid reports the start's height: the ground there is at least that high.
static LB_ALWAYS_INLINE bool lbFootRayHeight(const lbSceneQuery* query, const lbQueryInput* proto, lbVec3 base, lbVec3 probeBase,
							lbVec3 up, int* castCount, float* outHeight)
{
	lbQueryInput r = *proto;
	lbVec3 d = lbSub(base, probeBase);
	r.start = lbAdd(proto->start, d);
	r.end = lbAdd(proto->end, d);
	*castCount += 1;
	// Only where the ray stops is read: a scene that gives that alone spares the rest of the hit.
	if (query->rayPointBatch)
	{
		lbVec3 p;
		bool valid;
		query->rayPointBatch(query->context, &r, 1, &p, &valid);
		if (valid)
			*outHeight = lbDot(p, up);
		return valid;
	}
	lbHit h;
	lbFootRayCast(query, &r, &h);
	if (!h.hit || h.status != lb_ok)
		return false;
	*outHeight = lbDot(h.startedInside ? r.start : h.impactPoint, up);
	return true;
}

// Heights (along up) of the ground straight under each of the n points `bases` (world), as
// lbFootRayHeight finds them one by one, cast as one batch when the scene takes batches (a scene
// may answer a footprint's rays together): valid[k] false, height[k] 0 where a ray found nothing.
static LB_ALWAYS_INLINE void lbFootRayHeights(const lbSceneQuery* query, const lbQueryInput* proto, const lbVec3* bases, int n,
							 lbVec3 probeBase, lbVec3 up, int* castCount, float* outHeight, bool* outValid)
{
	lbQueryInput r[lb_solePointCount];
	lbHit h[lb_solePointCount];
	for (int k = 0; k < n; ++k)
	{
		r[k] = *proto;
		lbVec3 d = lbSub(bases[k], probeBase);
		r[k].start = lbAdd(proto->start, d);
		r[k].end = lbAdd(proto->end, d);
	}
	*castCount += n;
	if (query->rayPointBatch)
	{
		lbVec3 p[lb_solePointCount];
		query->rayPointBatch(query->context, r, n, p, outValid);
		for (int k = 0; k < n; ++k)
			outHeight[k] = outValid[k] ? lbDot(p[k], up) : 0.0f;
		return;
	}
	if (query->rayCastBatch)
		query->rayCastBatch(query->context, r, n, h);
	else
		for (int k = 0; k < n; ++k)
			lbFootRayCast(query, &r[k], &h[k]);
	for (int k = 0; k < n; ++k)
	{
		outValid[k] = h[k].hit && h[k].status == lb_ok;
		outHeight[k] = outValid[k] ? lbDot(h[k].startedInside ? r[k].start : h[k].impactPoint, up) : 0.0f;
	}
}

// Height (along up) of the plane through `point` with unit normal `n` straight under (or over) x.
static float lbPlaneHeightAt(lbVec3 point, lbVec3 n, lbVec3 up, lbVec3 x)
{
	return lbDot(x, up) - lbDot(lbSub(x, point), n) / lbMaxF(lbDot(n, up), 0.05f);
}

// lbPlaneHeightAt(point, n, up, lbMulAdd(base, along[k], dir)) for the four sole samples, one per
// lane (the same products, sums and division in each, so bit for bit the one-sample results).
static void lbFootPlaneHeights(lbVec3 point, lbVec3 n, lbVec3 up, lbVec3 base, const float* along, lbVec3 dir,
							   float out[lb_solePointCount])
{
	_Static_assert(lb_solePointCount == 4, "one lane per sole sample");
#if defined(LB_SIMD_SSE)
	const __m128 a = _mm_loadu_ps(along);
	const __m128 x = _mm_add_ps(_mm_set1_ps(base.x), _mm_mul_ps(a, _mm_set1_ps(dir.x)));
	const __m128 y = _mm_add_ps(_mm_set1_ps(base.y), _mm_mul_ps(a, _mm_set1_ps(dir.y)));
	const __m128 z = _mm_add_ps(_mm_set1_ps(base.z), _mm_mul_ps(a, _mm_set1_ps(dir.z)));
	const __m128 hUp = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, _mm_set1_ps(up.x)), _mm_mul_ps(y, _mm_set1_ps(up.y))),
								  _mm_mul_ps(z, _mm_set1_ps(up.z)));
	const __m128 hN = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_sub_ps(x, _mm_set1_ps(point.x)), _mm_set1_ps(n.x)),
											_mm_mul_ps(_mm_sub_ps(y, _mm_set1_ps(point.y)), _mm_set1_ps(n.y))),
								 _mm_mul_ps(_mm_sub_ps(z, _mm_set1_ps(point.z)), _mm_set1_ps(n.z)));
	_mm_storeu_ps(out, _mm_sub_ps(hUp, _mm_div_ps(hN, _mm_set1_ps(lbMaxF(lbDot(n, up), 0.05f)))));
#else
	for (int k = 0; k < lb_solePointCount; ++k)
		out[k] = lbPlaneHeightAt(point, n, up, lbMulAdd(base, along[k], dir));
#endif
}

// The sole's samples used in world space: the foot's sole (model metres) scaled to world, and
// the animated foot's forward flattened onto the ground plane normal to up.
typedef struct lbFootPrint
{
	float along[lb_solePointCount];
	lbVec3 toeWs;
} lbFootPrint;

// Ground heights under the footprint: heel, under the ankle, ball and toe tip of a foot whose
// point under the ankle is straight over `base` (world). valid[k] is false where a ray found
// nothing (a gap); the under-ankle sample is the centre cast's face height.
typedef struct lbFootGround
{
	float height[lb_solePointCount];
	bool valid[lb_solePointCount];
} lbFootGround;

// Whether the centre cast's ground lies within the footprint rays' reach: a sphere finds ground up
// to a radius past the end of its line, the rays only to the end. Ground in that band (a ledge
// about as deep as the probe reaches) counts as found by no sample, as the rays see it: found
// under the ankle alone, it made the lower level the reference while heel and ball found nothing,
// and the landing's range collapsed with the ball over the edge.
static inline bool lbFootCentreInReach(const lbQueryInput* proto, const lbFootCast* centre, lbVec3 up)
{
	return centre->hit && centre->faceHeight >= lbDot(proto->end, up) - 1.0e-4f;
}

static void lbFootSampleGround(const lbSceneQuery* query, const lbQueryInput* proto, lbVec3 base, const lbFootPrint* fp,
							   const lbFootCast* centre, lbVec3 up, int* castCount, lbFootGround* out)
{
	// Heel, ball and toe tip in one batch; the sample under the ankle is the centre cast's.
	const lbVec3 at[3] = { lbMulAdd(base, fp->along[lb_soleHeel], fp->toeWs), lbMulAdd(base, fp->along[lb_soleBall], fp->toeWs),
						   lbMulAdd(base, fp->along[lb_soleToeTip], fp->toeWs) };
	float height[3];
	bool valid[3];
	lbFootRayHeights(query, proto, at, 3, base, up, castCount, height, valid);
	const int slot[3] = { lb_soleHeel, lb_soleBall, lb_soleToeTip };
	for (int i = 0; i < 3; ++i)
	{
		out->valid[slot[i]] = valid[i];
		out->height[slot[i]] = height[i];
	}
	out->valid[lb_soleUnderAnkle] = lbFootCentreInReach(proto, centre, up);
	out->height[lb_soleUnderAnkle] = centre->faceHeight;
}

// A centre cast whose sphere rests on an edge beside the foot rather than under it answers the
// ground straight below instead: the edge's height is kept only where some sample of the footprint
// stands at it. Walking along a flight or turning on it, the nose of the tread above passes within
// the probe's radius of an ankle that stands over the tread below, heel to toe tip, and the plant
// stood on that nose's height, 0.18 m over the tread (turning down 0.18 m stairs: support 0 for
// four frames). Returns whether the cast was moved down.
static bool lbFootOffEdge(lbFootCast* c, const lbFootGround* g, lbVec3 up, float edgeHeight)
{
	if (!c->hit)
		return false;
	const float top = lbDot(c->point, up), drop = top - c->faceHeight;
	if (!(drop > edgeHeight))
		return false;
	int below = 0;
	for (int k = 0; k < lb_solePointCount; ++k)
	{
		if (!g->valid[k])
			continue;
		if (g->height[k] > top - edgeHeight)
			return false;
		++below;
	}
	if (below < 3)
		return false;
	c->point = lbMulAdd(c->point, -drop, up);
	return true;
}

// A landing foot is probed where it will be (`base`: the animated ankle with its slide, moved on
// along the motion by the prediction), `back` m further along its toe direction than its goal has
// it (lbFootBehind). Its heel ray is cast under the heel where it is (heelAt), the ground it must
// clear until the next probe, and that ground's rise above the centre cast's plane is kept as the
// heel sample's, so a slope stays a slope. Cast at the probed heel, going down 0.28-0.33 m risers
// on 0.36-0.40 m treads the heel of a foot coming down past a nose found the tread below while it
// was still over the one above, and went 1.1-2.2 cm into that nose (13 of the stairs sweep's 384
// runs, most of them running; walking off 0.5 m ledges the calf went 2.2-3.3 cm into the edge).
// Ground there below the plane, or none, counts as the plane: the ray is there for what rises into
// the heel, and a drop it found behind the probed heel (going up, the tread below) moved the
// level's bounds (running up 0.25 m risers on 0.38 m treads, a toe 1.4 cm into the nose ahead). A
// foot in mid-swing keeps the probed heel: its clearance lifts the whole swing, and running down
// 0.2-0.3 m stairs the tread behind the heel came and went from one probe to the next and the calf
// turned 16-21 degrees in a frame. `planeHeel`: the plane's height under the probed heel where the
// caller has it (lbFootPlaneHeights' heel lane, the same to the bit), else NULL.
static inline void lbFootHeelBehind(const lbFootCast* centre, lbVec3 up, lbVec3 base, const lbFootPrint* fp, float back, lbVec3 heelAt,
									const float* planeHeel, float* height, bool* valid)
{
	if (!(back > 0.0f))
		return;
	const float at = planeHeel ? *planeHeel
							   : lbPlaneHeightAt(centre->point, centre->normal, up, lbMulAdd(base, fp->along[lb_soleHeel], fp->toeWs));
	const float h = *height + at - lbPlaneHeightAt(centre->point, centre->normal, up, heelAt);
	*height = *valid ? lbMaxF(h, at) : at;
	*valid = true;
}

// The footprint of a landing foot: heel and toe tip first; when both lie within a quarter of an
// edge of the centre cast's plane the foot lands on one plane from heel to toe tip, and the ball
// between them is taken on that plane instead of cast. A step, a nose or a gap under the foot puts
// the heel or the toe tip off the plane, and then the ball is cast as in lbFootSampleGround.
// Returns whether the centre cast's plane under the samples is in `plane` (made where it hit).
static bool lbFootSampleLanding(const lbSceneQuery* query, const lbQueryInput* proto, lbVec3 base, const lbFootPrint* fp,
								const lbFootCast* centre, lbVec3 up, float edgeHeight, float back, int* castCount, lbFootGround* out,
								float plane[lb_solePointCount])
{
	const int probed[2] = { lb_soleHeel, lb_soleToeTip };
	const lbVec3 at[2] = { lbMulAdd(base, fp->along[lb_soleHeel] - back, fp->toeWs), lbMulAdd(base, fp->along[lb_soleToeTip], fp->toeWs) };
	float height[2];
	bool valid[2];
	lbFootRayHeights(query, proto, at, 2, base, up, castCount, height, valid);
	bool flat = centre->hit;
	// The centre cast's plane under every sample at once (the ball's used when the foot lands flat,
	// the heel's by the heel's look behind).
	if (flat)
		lbFootPlaneHeights(centre->point, centre->normal, up, base, fp->along, fp->toeWs, plane);
	lbFootHeelBehind(centre, up, base, fp, back, at[0], flat ? &plane[lb_soleHeel] : NULL, &height[0], &valid[0]);
	const bool planeMade = flat;
	for (int i = 0; i < 2; ++i)
	{
		out->valid[probed[i]] = valid[i];
		out->height[probed[i]] = height[i];
		flat = flat && valid[i] && lbAbsF(height[i] - plane[probed[i]]) <= 0.25f * edgeHeight;
	}
	out->valid[lb_soleUnderAnkle] = lbFootCentreInReach(proto, centre, up);
	out->height[lb_soleUnderAnkle] = centre->faceHeight;
	const lbVec3 ball = lbMulAdd(base, fp->along[lb_soleBall], fp->toeWs);
	if (flat)
	{
		out->valid[lb_soleBall] = true;
		out->height[lb_soleBall] = plane[lb_soleBall];
	}
	else
		out->valid[lb_soleBall] = lbFootRayHeight(query, proto, ball, base, up, castCount, &out->height[lb_soleBall]);
	return planeMade;
}

// A swinging foot's samples under the ankle (the centre cast's) and under the ball (on the line
// from there to the toe tip's).
static void lbFootSwingBall(const lbFootPrint* fp, const lbFootCast* centre, lbFootGround* out)
{
	out->valid[lb_soleUnderAnkle] = centre->hit;
	out->height[lb_soleUnderAnkle] = centre->faceHeight;
	out->valid[lb_soleBall] = centre->hit && out->valid[lb_soleToeTip];
	float t = fp->along[lb_soleBall] / lbMaxF(fp->along[lb_soleToeTip], 1.0e-6f);
	out->height[lb_soleBall] = lbLerpF(centre->faceHeight, out->height[lb_soleToeTip], t);
}

// The footprint of a foot in mid-swing, one ray cheaper: heel and toe tip probed, the ball's ground
// taken on the line from under the ankle to the toe tip. What rises under the ball rises under the
// toe tip first; the ball is probed where it bears weight (landing, planting). `back` (m, >= 0):
// how much further back the heel's ray looks (lbFootHeelBehind), 0 for the probed heel.
// `plane`: the centre cast's plane under the samples (lbFootPlaneHeights).
static void lbFootSampleSwing(const lbSceneQuery* query, const lbQueryInput* proto, lbVec3 base, const lbFootPrint* fp,
							  const lbFootCast* centre, lbVec3 up, float back, const float plane[lb_solePointCount], int* castCount,
							  lbFootGround* out)
{
	const int probed[2] = { lb_soleHeel, lb_soleToeTip };
	const lbVec3 at[2] = { lbMulAdd(base, fp->along[lb_soleHeel] - back, fp->toeWs), lbMulAdd(base, fp->along[lb_soleToeTip], fp->toeWs) };
	float height[2];
	bool valid[2];
	lbFootRayHeights(query, proto, at, 2, base, up, castCount, height, valid);
	lbFootHeelBehind(centre, up, base, fp, back, at[0], &plane[lb_soleHeel], &height[0], &valid[0]);
	for (int i = 0; i < 2; ++i)
	{
		out->valid[probed[i]] = valid[i];
		out->height[probed[i]] = height[i];
	}
	lbFootSwingBall(fp, centre, out);
}

// How far above the ground plane the highest footprint sample's ground lies (m, >= 0): the extra
// height a foot over that plane needs so that no part of its sole is inside a step, a rock or a
// ledge ahead or behind. `plane`: the plane's height under each sample (lbFootPlaneHeights).
static float lbFootPrintClearance(const lbFootGround* g, const float plane[lb_solePointCount])
{
	float clear = 0.0f;
	for (int k = 0; k < lb_solePointCount; ++k)
		if (g->valid[k])
			clear = lbMaxF(clear, g->height[k] - plane[k]);
	return clear;
}

// A footprint swept over a move of `move` (m along the foot's toe direction, either way) of a
// foot whose ground plane is (point, n): each sample keeps the largest height above the plane of
// the samples the move carries it over, its own included. Probed at 30 Hz, a swinging foot moves 6
// to 7 cm between probes; a ball probed in front of a riser stood, a frame later, past its face
// and 1.5 cm under the tread it had not yet risen to (walking up 0.156-0.19 m risers). Heights
// above the plane, not heights, so a slope stays a slope.
static void lbFootSweepPrint(const lbFootGround* g, const lbFootPrint* fp, lbVec3 point, lbVec3 n, lbVec3 up, lbVec3 base, float move,
							 lbFootGround* out)
{
	*out = *g;
	float plane[lb_solePointCount];
	lbFootPlaneHeights(point, n, up, base, fp->along, fp->toeWs, plane);
	for (int k = 0; k < lb_solePointCount; ++k)
	{
		if (!g->valid[k])
			continue;
		const float a0 = lbMinF(fp->along[k], fp->along[k] + move), a1 = lbMaxF(fp->along[k], fp->along[k] + move);
		for (int j = 0; j < lb_solePointCount; ++j)
			if (j != k && g->valid[j] && fp->along[j] >= a0 && fp->along[j] <= a1)
				out->height[k] = lbMaxF(out->height[k], plane[k] + g->height[j] - plane[j]);
	}
}

// Where along the foot line a plant may go so that it stands on one level: the level of sample
// `ref`. Samples at fp->along are classed against that level (the plane through the reference
// sample's ground with the ground's slope along the foot): the same level within `edgeHeight`,
// higher (a riser or a wall), or lower (a stair nose, a gap: no ground counts as lower). Each edge
// of the run of same-level samples around `ref` is narrowed by bisection rays, then turned into a
// bound on the shift (m along the foot's forward, world): a higher wall ahead keeps the toe tip
// behind it, a drop ahead keeps the ball on the level, a wall behind keeps the heel in front of
// it, a drop behind keeps the point under the ankle on the level (the heel may overhang: its 0.3
// of the heel-to-ball length is within the support the metric asks for). Returns the smallest
// shift within the bounds; *outCost is its size, or a large value when the bounds conflict.
typedef struct lbFootEdgeProbe
{
	const lbSceneQuery* query;
	const lbQueryInput* proto;
	lbVec3 base, up;
	const lbFootPrint* fp;
	float slopeAlong;
	float edgeHeight, margin;
	int* castCount;
	float maxShift;
	// A landing leg's rays past the toe tip and the heel, reused where the next ray would land
	// within LB_FOOT_BEYOND_REUSE (m) of one and no more than LB_FOOT_BEYOND_ONWARD (m) further
	// from the sole (NULL: every ray cast).
	lbFootLegState* beyond;
	// A wall behind the heel whose clearance lies past maxShift bounds the foot maxShift out
	// (false: such a level is no choice).
	bool capWall;
	// The level a gap's rims lie at and the depth below it that makes a pit (m, along up).
	float rimH, pitDepth;
	// Levels below this height (along up) cost a metre of slide a metre further down
	// (lbFootLegFrame::deepH).
	float deepH;
} lbFootEdgeProbe;

#define LB_FOOT_BEYOND_REUSE 0.10f
#define LB_FOOT_BEYOND_ONWARD 0.03f

// How far below the level of a gap's rims ground is a pit's floor (m): half of pelvisMaxSink, a
// drop the stance leg lowers the hips for. Whether a pit is stepped over or into is then decided
// by its width (lbFootPitFloor, lbFootGapRange), not its depth.
static inline float lbFootPitDepth(const lbFootDef* def)
{
	return 0.5f * lbMaxF(def->pelvisMaxSink, 0.0f);
}

// Ground height at `along` on the foot line one step past the sole (k 0 past the toe tip, 1 past the
// heel). Such a ray only tells whether a riser or a wall stands there, and an edge found is then
// placed by bisection rays from the sole. The ray of an earlier frame of the same landing whose
// point lies within 10 cm of this one's (sideways or back), and no more than 3 cm further on (past
// the toe tip, ahead; past the heel, behind), answers in its place. Within one call the rays of the
// candidate levels share the points exactly. At 3 cm all round too few rays were spared to pay for
// the check, and 15 cm let the terrain sweep's runs down stairs and slopes break limits 10 cm
// holds. Reused up to 10 cm further on, a riser ahead of a landing foot was seen only once the toe
// had passed its bound: walking up ordinary flights (0.19 m risers on 0.33 m treads, 0.25 on 0.34)
// a heel-strike's raised toe went 1.3-1.6 cm into the riser for a frame (5 runs of the sweep's 2560
// at 16 seeds). Cast again past 3 cm on, 0.26 more casts a character-frame of a crowd walking rocks.
static LB_ALWAYS_INLINE bool lbFootBeyondHeight(const lbFootEdgeProbe* p, int k, float along, float* outHeight)
{
	const lbVec3 at = lbMulAdd(p->base, along, p->fp->toeWs);
	lbFootLegState* m = p->beyond;
	const float r = LB_FOOT_BEYOND_REUSE;
	const lbVec3 moved = lbProjectOnPlane(lbSub(at, m ? m->beyondPointWs[k] : at), p->up);
	const float onward = k == 0 ? lbDot(moved, p->fp->toeWs) : -lbDot(moved, p->fp->toeWs);
	if (m && (m->beyondValid >> (k + 2) & 1u) && lbLengthSquared(moved) < r * r && onward < LB_FOOT_BEYOND_ONWARD)
	{
		*outHeight = m->beyondHeight[k];
		return (m->beyondValid >> k & 1u) != 0;
	}
	float h = 0.0f;
	const bool valid = lbFootRayHeight(p->query, p->proto, at, p->base, p->up, p->castCount, &h);
	*outHeight = h;
	if (m)
	{
		m->beyondPointWs[k] = at;
		m->beyondHeight[k] = h;
		m->beyondValid = (m->beyondValid & ~(1u << k)) | (valid ? 1u << k : 0u) | 1u << (k + 2);
	}
	return valid;
}

// -1 lower (or no ground), 0 same level, +1 higher, for ground height h at `along` against the
// reference level h0 at along0.
static int lbFootClass(const lbFootEdgeProbe* p, bool valid, float h, float h0, float along, float along0)
{
	if (!valid)
		return -1;
	float dev = h - (h0 + p->slopeAlong * (along - along0));
	return dev > p->edgeHeight ? 1 : (dev < -p->edgeHeight ? -1 : 0);
}

// Narrows the edge between `inside` (same level) and `outside` (class `cls`) along the foot by
// three bisection rays; returns the last along-position known to be on the level.
static float lbFootFindEdge(const lbFootEdgeProbe* p, float inside, float outside, float h0, float along0)
{
	for (int i = 0; i < 3; ++i)
	{
		float mid = 0.5f * (inside + outside), h = 0.0f;
		bool valid = lbFootRayHeight(p->query, p->proto, lbMulAdd(p->base, mid, p->fp->toeWs), p->base, p->up, p->castCount, &h);
		if (lbFootClass(p, valid, h, h0, mid, along0) == 0)
			inside = mid;
		else
			outside = mid;
	}
	return inside;
}

// How much further from a wall behind the heel (m) a foot lands below it: the part of the wall's
// height above 0.32 m, times 1.5. A leg reaching down past a ledge's edge leans back from the foot
// to the hips above the ledge, and with the foot set against the wall its shin went through the
// corner (walking off 0.44-0.49 m ledges at 1.2 m, limbs 23-70 mm into them); the knee must stand
// out past the edge's line. Stair risers up to 0.32 m are left as they were.
static float lbFootWallClearance(float rise)
{
	return 1.5f * lbMaxF(rise - 0.32f, 0.0f);
}

// The back bound `bare` (m along the foot) kept clear of a wall `rise` m high behind the heel; with
// capWall no further out than maxShift, as far as the wall allows.
static float lbFootClearWallBehind(const lbFootEdgeProbe* p, float bare, float rise)
{
	const float lo = bare + lbFootWallClearance(rise);
	return p->capWall ? lbMaxF(bare, lbMinF(lo, p->maxShift)) : lo;
}

// A foot's half width, as a share of its ankle-to-ball length (an adult foot is about 0.6 of that
// length wide).
#define LB_FOOT_HALF_WIDTH 0.3f

// The back bound `lo` (m along the foot) moved on until the heel's two corners, half the foot's
// width either side of the sole line, stand `margin` clear of a riser or wall behind them too
// (level h0 at along0). The sole's samples lie on its centre line, and crossed at an angle a
// riser behind the heel meets one corner before the line: walking and running down flights 20-60
// degrees off straight, feet planted with the centre line just clear of the riser had the heel's
// corner against it and the calf, leaning back toward the hips, 2-3.6 cm into the nose above. Per
// corner one ray at the heel; where it finds the higher level, one at the ball (on the level, or
// the corner is left alone) and the edge between by bisection. Straight on, both corners clear
// with the line and the two rays are all it costs.
static float lbFootClearCornersBehind(const lbFootEdgeProbe* p, float lo, float h0, float along0)
{
	const float* a = p->fp->along;
	const float w = LB_FOOT_HALF_WIDTH * a[lb_soleBall];
	const lbVec3 side = lbNormalizeOr(lbCross(p->up, p->fp->toeWs), lbVec3_zero);
	if (!(w > 0.0f) || lbLengthSquared(side) == 0.0f)
		return lo;
	const float heel = a[lb_soleHeel] + lo, ball = a[lb_soleBall] + lo;
	for (int k = -1; k <= 1; k += 2)
	{
		lbFootEdgeProbe corner = *p;
		corner.base = lbMulAdd(p->base, (float)k * w, side);
		float h = 0.0f;
		bool valid = lbFootRayHeight(p->query, p->proto, lbMulAdd(corner.base, heel, p->fp->toeWs), p->base, p->up, p->castCount, &h);
		if (lbFootClass(p, valid, h, h0, heel, along0) <= 0)
			continue;
		valid = lbFootRayHeight(p->query, p->proto, lbMulAdd(corner.base, ball, p->fp->toeWs), p->base, p->up, p->castCount, &h);
		if (lbFootClass(p, valid, h, h0, ball, along0) != 0)
			continue;
		lo = lbMaxF(lo, lbFootFindEdge(&corner, ball, heel, h0, along0) + p->margin - a[lb_soleHeel]);
	}
	return lo;
}

static LB_ALWAYS_INLINE float lbFootShiftFor(const lbFootEdgeProbe* p, const lbFootGround* g, int ref, float* outCost, float* outLo,
							float* outHi, bool* outHiRiser)
{
	*outHiRiser = false;
	const float* a = p->fp->along;
	const float h0 = g->height[ref], a0 = a[ref];
	int cls[lb_solePointCount];
	for (int k = 0; k < lb_solePointCount; ++k)
		cls[k] = lbFootClass(p, g->valid[k], g->height[k], h0, a[k], a0);
	float lo = -1.0e30f, hi = 1.0e30f;
	int front = ref;
	while (front + 1 < lb_solePointCount && cls[front + 1] == 0)
		++front;
	if (front + 1 < lb_solePointCount)
	{
		float e = lbFootFindEdge(p, a[front], a[front + 1], h0, a0);
		hi = cls[front + 1] > 0 ? e - p->margin - a[lb_soleToeTip] : e - p->margin - a[lb_soleBall];
		*outHiRiser = cls[front + 1] > 0;
	}
	else
	{
		// The whole foot ahead of the reference is on the level: a riser just past the toe tip
		// still bounds how far the foot may go (one more ray a ball-to-toe length further).
		float beyond = a[lb_soleToeTip] + (a[lb_soleToeTip] - a[lb_soleBall]), h = 0.0f;
		bool valid = lbFootBeyondHeight(p, 0, beyond, &h);
		if (lbFootClass(p, valid, h, h0, beyond, a0) > 0)
		{
			hi = lbFootFindEdge(p, a[lb_soleToeTip], beyond, h0, a0) - p->margin - a[lb_soleToeTip];
			*outHiRiser = true;
		}
	}
	int back = ref;
	while (back > 0 && cls[back - 1] == 0)
		--back;
	if (back > 0)
	{
		float e = lbFootFindEdge(p, a[back], a[back - 1], h0, a0);
		lo = cls[back - 1] > 0 ? e + p->margin - a[lb_soleHeel] : e + p->margin - a[lb_soleUnderAnkle];
		if (cls[back - 1] > 0)
		{
			if (g->valid[back - 1])
				lo = lbFootClearWallBehind(p, lo, g->height[back - 1] - h0);
			lo = lbFootClearCornersBehind(p, lo, h0, a0);
		}
	}
	else
	{
		// Likewise a wall just behind the heel.
		float beyond = 2.0f * a[lb_soleHeel], h = 0.0f;
		bool valid = lbFootBeyondHeight(p, 1, beyond, &h);
		if (lbFootClass(p, valid, h, h0, beyond, a0) > 0)
		{
			lo = lbFootClearWallBehind(p, lbFootFindEdge(p, a[lb_soleHeel], beyond, h0, a0) + p->margin - a[lb_soleHeel], h - h0);
			lo = lbFootClearCornersBehind(p, lo, h0, a0);
		}
	}
	if (lo > hi)
	{
		// The level is shorter than the foot: centre what fits and let the caller compare.
		*outCost = 1.0e3f + (lo - hi);
		*outLo = *outHi = 0.5f * (lo + hi);
		return 0.5f * (lo + hi);
	}
	float shift = lbClampF(0.0f, lo, hi);
	*outCost = lbAbsF(shift);
	*outLo = lo;
	*outHi = hi;
	return shift;
}

// Whether the level under sample `ref` is the floor of a pit to step over, a rim under the
// footprint too: more than pitDepth below the rim level, some sample at the rim level, and ground
// at the rim level again within 4 maxShift (0.64 m by default, the widest pit lbFootGapRange
// steps over) ahead of the sample. Depth alone does not tell: a
// 0.34 m deep gap 0.39 m wide is stepped over as a 1.2 m deep one is, and a 0.4 m deep trench
// 1.2 m wide, whose far side a foot on the near side cannot reach, is stepped down into like a
// stair. Rays every 8 cm (a rim is wider than that); none unless a sample lies at the rim level.
static bool lbFootPitFloor(const lbFootEdgeProbe* p, const lbFootGround* g, int ref)
{
	if (!(g->height[ref] < p->rimH - p->pitDepth))
		return false;
	bool rim = false;
	for (int k = 0; k < lb_solePointCount; ++k)
		rim = rim || (g->valid[k] && lbAbsF(g->height[k] - p->rimH) <= p->edgeHeight);
	if (!rim)
		return false;
	const float* a = p->fp->along;
	float h;
	for (float d = 0.08f; d <= 4.0f * p->maxShift + 1.0e-4f; d += 0.08f)
		if (lbFootRayHeight(p->query, p->proto, lbMulAdd(p->base, a[ref] + d, p->fp->toeWs), p->base, p->up, p->castCount, &h) &&
			lbAbsF(h - p->rimH) <= p->edgeHeight)
			return true;
	return false;
}

// The plant's slide along the foot (m, world): stay on the level under the ankle, or move onto
// the level under most of the heel-to-ball length, whichever needs the shorter slide. `used` is the
// slide along the foot already made from where the animation has the foot: a level is a choice
// only if the whole slide from the animation stays within the longest one (see lbFootPlantShift).
// *outLevelH: the height (along up) of the ground of a pit's floor chosen (lbFootPitFloor), else
// 1e30. *outChosenH: the height (along up) of the level chosen, whatever it is (1e30: none).
static float lbFootPlantShiftWithin(const lbFootEdgeProbe* p, const lbFootGround* g, float used, float* outLo, float* outHi,
									bool* outHiRiser, float* outLevelH, bool* outFound, float* outChosenH)
{
	*outHiRiser = false;
	*outLevelH = 1.0e30f;
	*outChosenH = 1.0e30f;
	float bestCost = 1.0e30f, best = 0.0f;
	*outLo = -1.0e30f;
	*outHi = 1.0e30f;
	int refs[3] = { lb_soleUnderAnkle, lb_soleHeel, lb_soleBall };
	for (int i = 0; i < 3; ++i)
	{
		int ref = refs[i];
		if (!g->valid[ref])
			continue;
		// A candidate level once: skip a sample on a level already tried.
		bool seen = false;
		for (int j = 0; j < i && !seen; ++j)
			seen = g->valid[refs[j]] &&
				   lbFootClass(p, true, g->height[ref], g->height[refs[j]], p->fp->along[ref], p->fp->along[refs[j]]) == 0;
		if (seen)
			continue;
		float cost, lo, hi;
		bool riser;
		float s = lbFootShiftFor(p, g, ref, &cost, &lo, &hi, &riser);
		// A level further than the longest slide is no choice: clamped short of it the foot would
		// stand on an edge or over a gap. Once the foot has slid, it may end short of its place by
		// the margin it keeps from the edge.
		if (lbAbsF(used + s) > p->maxShift + (used != 0.0f ? p->margin : 0.0f) + 1.0e-4f)
			continue;
		// A pit's floor is the last choice: taken only when no rim is within the longest slide.
		const bool pit = lbFootPitFloor(p, g, ref);
		if (pit)
			cost += 1.0e2f;
		// A level further below the other foot than a step down asks the legs for a lunge: a
		// nearer level costing a little more slide wins (walking down 0.285 m risers at a tread a
		// step, a foot coming down over the nose of the next tread but one took it, 0.57 m below the
		// other, for 1 cm less slide, and the hips dived 0.33 m as the other let go: 18.5 degrees).
		cost += lbMaxF(p->deepH - g->height[ref], 0.0f);
		// Staying on the level under the ankle wins ties.
		if (cost < bestCost - 0.01f || (i == 0 && cost < bestCost))
		{
			bestCost = cost;
			best = s;
			*outLo = lo;
			*outHi = hi;
			*outHiRiser = riser;
			*outLevelH = pit ? g->height[ref] : 1.0e30f;
			*outChosenH = g->height[ref];
		}
	}
	*outFound = bestCost < 1.0e29f;
	return *outFound ? best : 0.0f;
}

// The plant's slide (lbFootPlantShiftWithin) for a foot that has already slid `used` (m along the
// foot) from where the animation has it, as a foot being locked has: the slide's total is clamped
// to the longest slide afterwards, and a level chosen from where the foot had got to without
// counting what it already slid was left short: running down 0.179 m risers on 0.361 m treads the
// landing had slid 12 cm toward the tread below, the lock chose that tread 8 cm further on, the
// clamp stopped the foot 4 cm short and it stood on its heel on the nose above with 0.1 of its sole
// supported. Where no level lies within reach that way, or only a pit's floor, the choice is made
// as before from where the foot is (a landing held back at a gap's rim).
static float lbFootPlantShift(const lbFootEdgeProbe* p, const lbFootGround* g, float used, float* outLo, float* outHi,
							  bool* outHiRiser, float* outLevelH, float* outChosenH)
{
	bool found;
	const float s = lbFootPlantShiftWithin(p, g, used, outLo, outHi, outHiRiser, outLevelH, &found, outChosenH);
	if (used != 0.0f && (!found || *outLevelH < 1.0e29f))
		return lbFootPlantShiftWithin(p, g, 0.0f, outLo, outHi, outHiRiser, outLevelH, &found, outChosenH);
	return s;
}

// The rise (m per m) of the ground plane with normal n along the horizontal direction dir: what
// an edge probe subtracts so that a steady slope reads as no edge.
static inline float lbFootRiseAlong(lbVec3 dir, lbVec3 n, lbVec3 up)
{
	return -lbDot(dir, n) / lbMaxF(lbDot(n, up), 0.05f);
}

// The slide (m along the foot's forward) that puts a foot probed at `base` (centre cast c with
// probe line `centre`, footprint g) on one level, and the range [*outLo, *outHi] of slides that
// keep it there (see lbFootPlantShift; `used`: the slide already made from the animation's place;
// outChosenH may be NULL).
static float lbFootSlideAt(const lbFootDef* def, const lbSceneQuery* query, const lbQueryInput* centre, lbVec3 base,
						   const lbFootPrint* print, const lbFootCast* c, const lbFootGround* g, lbVec3 up, int* castCount,
						   lbFootLegState* beyond, bool capWall, float rimH, float deepH, float used, float* outLo, float* outHi,
						   bool* outHiRiser, float* outLevelH, float* outChosenH)
{
	lbFootEdgeProbe p = { query, centre, base, up, print, 0.0f, def->edgeHeight, def->edgeMargin, castCount, def->maxPlantShift, beyond, capWall,
						  rimH, lbFootPitDepth(def), deepH };
	p.slopeAlong = lbFootRiseAlong(print->toeWs, c->normal, up);
	float chosenH;
	return lbFootPlantShift(&p, g, used, outLo, outHi, outHiRiser, outLevelH, outChosenH ? outChosenH : &chosenH);
}

// Lifts a plant's ankle goal until none of its sole points (heel to toe tip) lies under the ground
// found by a ray straight under that very point: exact on rocks whose bumps a plane through the
// centre contact misses by a centimetre or two. One ray per point, once per plant. With `print`
// (may be NULL: the lock blend's use), a point whose ray finds ground more than `edge` above what
// the footprint's sample k found (print->height[k], a valid sample) lies just past an edge the
// slide placed that sample short of: the sole's own point and its footprint sample differ by the
// foot's tilt and a curled toe, a few millimetres, and lifted onto the level past the edge the
// whole foot stood on air (CMU 01_03's toe tip 4 mm past a 0.191 m riser: planted and locked 13 cm
// over the floor for 25 frames).
static lbVec3 lbFootClearUnder(const lbSceneQuery* query, const lbQueryInput* proto, lbVec3 ankleGoal, lbQuat footRot,
							   float scale, const lbSole* sole, const lbFootGround* print, float edge, lbVec3 up, int* castCount)
{
	lbTransform goal = lbMakeTransform(ankleGoal, footRot);
	goal.s = lbMakeVec3(scale, scale, scale);
	const lbVec3 probeBase = lbMulAdd(proto->start, -lbDot(lbSub(proto->start, ankleGoal), up), up);
	float lift = 0.0f;
	lbVec3 p[lb_solePointCount], base[lb_solePointCount];
	for (int k = 0; k < lb_solePointCount; ++k)
	{
		p[k] = lbIkTransformPoint(&goal, lbMulAdd(sole->under, sole->along[k], sole->toeFlat));
		// The probe line through the point, at the height the plant's probes start from.
		base[k] = lbMulAdd(p[k], lbDot(lbSub(probeBase, p[k]), up), up);
	}
	float h[lb_solePointCount];
	bool valid[lb_solePointCount];
	lbFootRayHeights(query, proto, base, lb_solePointCount, probeBase, up, castCount, h, valid);
	for (int k = 0; k < lb_solePointCount; ++k)
		if (valid[k] && !(print && print->valid[k] && h[k] > print->height[k] + edge))
			lift = lbMaxF(lift, h[k] - lbDot(p[k], up));
	return lbMulAdd(ankleGoal, lift, up);
}

// The bit of lbFootLegState::printValid that says an edge lies under the sole (cornerHeight).
#define LB_FOOT_CORNER_BIT (1u << lb_solePointCount)

// An edge under a sole between two footprint samples (lbFootFindCorner): its corner's height
// (world, along up) and the stretch of the sole over it (model units along the foot).
typedef struct lbFootCorner
{
	float height, lo, hi;
} lbFootCorner;

// Lifts an ankle goal until no sole sample lies under the ground sampled there, where that ground
// stands more than `edgeHeight` above the plane (point, n): a toe over a step or a heel over a
// rock is cleared too; with `corner` (may be NULL), so is the sole over an edge between two
// samples, along the whole stretch it passes (the sole is a line, so the stretch's ends tell). Ground within the plane's reach is the plane's business (lbFootClearSole):
// a ray sampled the ground beside a tilted sole's point, not under it. `height` and bit k of
// `validMask` are the ground under sample k (lbFootGround, or as a leg keeps it). A sample's world
// point is the goal's point under the ankle plus its offset along the foot times the rotated,
// scaled toe direction, so its height and the plane's height under it are linear in that offset:
// one rotation serves every sample.
static LB_ALWAYS_INLINE lbVec3 lbFootClearPrint(lbVec3 ankleGoal, lbQuat footRot, float scale, const lbSole* sole, const float* height,
							   unsigned validMask, const lbFootCorner* corner, lbVec3 point, lbVec3 n, float edgeHeight, lbVec3 up,
							   float tipRough, float tipCurl)
{
	float lift = 0.0f;
	const lbVec3 p0 = lbMulAdd(ankleGoal, scale, lbIkQuatRotate(footRot, sole->under));
	const lbVec3 dir = lbMulSV(scale, lbIkQuatRotate(footRot, sole->toeFlat));
	// Height along up, and height over the plane along up, at the point under the ankle and per metre
	// of model offset along the foot.
	const float invNu = 1.0f / lbMaxF(lbDot(n, up), 0.05f);
	const float h0 = lbDot(p0, up), hd = lbDot(dir, up);
	const float a0 = lbDot(lbSub(p0, point), n) * invNu, ad = lbDot(dir, n) * invNu;
	// Toes the animation curls down put the tip tipCurl (world m, >= 0: lbFootLegFrame::toeCurl
	// scaled) below the flat sole's tip: a rise under the tip is cleared by the curled tip. Cleared
	// by the flat tip, CMU 01_03's actor over 0.34 m rocks stood the curled tip 1.34 cm in a rock.
#if defined(LB_SIMD_SSE)
	// The four samples' tests in the lanes of one register (the same products, sums and compares in
	// each); the rare sample over a rise then lifts in order, as the loop below does.
	_Static_assert(lb_solePointCount == 4, "one lane per sole sample");
	const __m128 along = _mm_loadu_ps(sole->along);
	const __m128 h = _mm_sub_ps(_mm_add_ps(_mm_set1_ps(h0), _mm_mul_ps(along, _mm_set1_ps(hd))), _mm_setr_ps(0.0f, 0.0f, 0.0f, tipCurl));
	const __m128 plane = _mm_sub_ps(h, _mm_add_ps(_mm_set1_ps(a0), _mm_mul_ps(along, _mm_set1_ps(ad))));
	const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
	const __m128 valid = _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)validMask), bit), bit));
	const int rises =
		_mm_movemask_ps(_mm_and_ps(valid, _mm_cmpgt_ps(_mm_sub_ps(_mm_loadu_ps(height), plane), _mm_set1_ps(edgeHeight))));
	if (rises != 0)
	{
		float hk[lb_solePointCount];
		_mm_storeu_ps(hk, h);
		for (int k = 0; k < lb_solePointCount; ++k)
			if ((rises >> k) & 1)
				lift = lbMaxF(lift, height[k] - hk[k]);
	}
#else
	for (int k = 0; k < lb_solePointCount; ++k)
	{
		if (!((validMask >> k) & 1u))
			continue;
		const float h = h0 + sole->along[k] * hd - (k == lb_soleToeTip ? tipCurl : 0.0f);
		// The plane's height under the sample: its own height less its height above the plane.
		if (height[k] - (h - (a0 + sole->along[k] * ad)) > edgeHeight)
			lift = lbMaxF(lift, height[k] - h);
	}
#endif
	// Ground under the toe tip risen less than a step edge above it (a rock, not a step) is the
	// toes' to bend onto, and they bend only as a plant's bend comes in: tipRough (1 - toeBend) of
	// the tip's depth under it lifts the goal. A boxer's foot shuffling onto 0.34-0.38 m rocks and a
	// walk's landing over 0.57 m rocks stood the tip 1.2-1.3 cm in them before the plant.
	if (tipRough > 0.0f && ((validMask >> lb_soleToeTip) & 1u))
	{
		const float under = height[lb_soleToeTip] - (h0 + sole->along[lb_soleToeTip] * hd);
		if (under > 0.0f && under <= edgeHeight)
			lift = lbMaxF(lift, tipRough * under);
	}
	if (corner)
	{
		const float ends[2] = { corner->lo, corner->hi };
		for (int i = 0; i < 2; ++i)
		{
			const float hc = h0 + ends[i] * hd;
			if (corner->height - (hc - (a0 + ends[i] * ad)) > edgeHeight)
				lift = lbMaxF(lift, corner->height - hc);
		}
	}
	return lbMulAdd(ankleGoal, lift, up);
}

// The valid bits of a footprint (bit k where ground was found under sample k).
static unsigned lbFootPrintMask(const lbFootGround* g)
{
	unsigned m = 0u;
	for (int k = 0; k < lb_solePointCount; ++k)
		m |= g->valid[k] ? 1u << k : 0u;
	return m;
}

// Signed heights (world, m) of the sole samples above the plane through groundPoint with unit
// normal `normal`, for the foot at `ankle` turned by unit `rot` and scaled by `scale`. Linear in the
// sample's offset along the foot; and rot v . n = v . rot^-1 n, so one rotation of the normal into
// the foot's frame serves every sample.
// The heights split in two: the terms of the rotation and the normal alone (the point under the
// ankle's height over the ankle, and the rise per unit along the foot: lbFootSoleTilt), which the
// goal's clearances and its bearing sample read for the same rotation and plane, and the ankle's
// height over the plane.
typedef struct lbFootSoleTilt
{
	float under, slope;
} lbFootSoleTilt;

static LB_ALWAYS_INLINE lbFootSoleTilt lbFootSoleTiltOf(const lbSole* f, lbQuat rot, float scale, lbVec3 normal)
{
	const lbVec3 nFoot = lbFootRotateBack(rot, normal);
	return (lbFootSoleTilt){ scale * lbDot(f->under, nFoot), scale * lbDot(f->toeFlat, nFoot) };
}

static LB_ALWAYS_INLINE void lbFootSoleHeightsTilted(const lbSole* f, lbFootSoleTilt tilt, lbVec3 ankle, lbVec3 groundPoint, lbVec3 normal,
									float out[lb_solePointCount])
{
	const float base = lbDot(lbSub(ankle, groundPoint), normal) + tilt.under;
	for (int k = 0; k < lb_solePointCount; ++k)
		out[k] = base + f->along[k] * tilt.slope;
}

static LB_ALWAYS_INLINE void lbFootSoleHeights(const lbSole* f, lbVec3 ankle, lbQuat rot, float scale, lbVec3 groundPoint, lbVec3 normal,
							  float out[lb_solePointCount])
{
	lbFootSoleHeightsTilted(f, lbFootSoleTiltOf(f, rot, scale, normal), ankle, groundPoint, normal, out);
}

// Lifts an ankle goal until the sole's flat toe tip stands `need` (m, world) above the ground plane:
// a tip the animation curls that far below the flat one then just touches it. Returns the goal.
static LB_ALWAYS_INLINE lbVec3 lbFootClearTipTilted(lbVec3 ankleGoal, const lbSole* f, lbFootSoleTilt tilt, lbVec3 groundPoint,
													lbVec3 normal, lbVec3 up, float need)
{
	float d[lb_solePointCount];
	lbFootSoleHeightsTilted(f, tilt, ankleGoal, groundPoint, normal, d);
	return d[lb_soleToeTip] < need ? lbMulAdd(ankleGoal, (need - d[lb_soleToeTip]) / lbMaxF(lbDot(up, normal), 0.5f), up) : ankleGoal;
}

static inline lbVec3 lbFootClearTip(lbVec3 ankleGoal, lbQuat footRot, float scale, const lbSole* f, lbVec3 groundPoint, lbVec3 normal,
									lbVec3 up, float need)
{
	return lbFootClearTipTilted(ankleGoal, f, lbFootSoleTiltOf(f, footRot, scale, normal), groundPoint, normal, up, need);
}

// Lifts an ankle goal so that no part of the sole (heel to toe tip) is below the ground plane: a
// foot tilted less than the slope (normalWeight < 1) then rests on its uphill toe or heel instead
// of pushing it into the ground. Returns the lifted goal.
static LB_ALWAYS_INLINE lbVec3 lbFootClearSoleTilted(lbVec3 ankleGoal, const lbSole* f, lbFootSoleTilt tilt, lbVec3 groundPoint,
									 lbVec3 normal, lbVec3 up)
{
	float d[lb_solePointCount];
	lbFootSoleHeightsTilted(f, tilt, ankleGoal, groundPoint, normal, d);
	float deepest = 0.0f;
	for (int k = 0; k < lb_solePointCount; ++k)
		deepest = lbMinF(deepest, d[k]);
	return lbMulAdd(ankleGoal, -deepest / lbMaxF(lbDot(up, normal), 0.5f), up);
}

static LB_ALWAYS_INLINE lbVec3 lbFootClearSole(lbVec3 ankleGoal, lbQuat footRot, float scale, const lbSole* f, lbVec3 groundPoint,
							  lbVec3 normal, lbVec3 up)
{
	return lbFootClearSoleTilted(ankleGoal, f, lbFootSoleTiltOf(f, footRot, scale, normal), groundPoint, normal, up);
}

// What one sense call knows about the whole character (world space); filled by lbFootBeginFrame.
typedef struct lbFootFrame
{
	lbVec3 up;
	lbTransform cw;
	float dt;
	bool snap, landed, active, doTrace;
	// The character's IK alpha before this frame's snap (a landing sets it to 1 at once).
	float alphaBefore;
	// Model-to-world length factor, the animation's floor height (along up) and its jump since
	// the last frame (a capsule stepping onto a stair); floorMove is the jump where it is more than
	// a controller's jitter, else 0 (see kFootFloorStill): what the decisions on a rising or falling
	// floor read.
	float modelToWorld, floorH, floorJump, floorMove;
	lbVec3 velH;
	float speedH;
	lbVec3 pelvisWs;
	// The hips' move from the animation as the pelvis state has it at the frame's start (world m):
	// the shift ahead and the offset along up with the landing dip.
	lbVec3 hipMoveWs;
	// Whether the character turns slower than predictionMaxTurnRate (which gates prediction),
	// worked out when a moving foot first asks.
	bool turnSlow, turnRateKnown;
	// Interp-to fractions shared by both legs, -1 until first needed.
	float goalStep, rotationStep;
	int castCount;
	// The caller's cosines and exponentials (lbFootMemo).
	lbFootMemo* memo;
	// The pelvis drop limit in force this frame (m, world; lbFootState::pelvisSinkLimit).
	float sinkLimit;
	// Each leg's reach before the soft-IK band (world m; lbFootReachDrop's), which the steps after
	// the goals read many times.
	float reach[2];
} lbFootFrame;

// What one sense call knows about one leg; filled step by step, not kept.
typedef struct lbFootLegFrame
{
	lbSole sole, planeSole;
	lbFootPrint print;
	lbTransform animFootWs;
	lbVec3 animAnkleWs, animHipWs;
	// How far (model units, along the foot's sole normal, >= 0) the animation's toe tip (through the
	// ball bone) lies below the flat sole's tip: toes the clip curls down.
	float toeCurl;
	lbQuat animRot;
	float ankleH, soleAboveFloor, soleRate;
	lbVec3 footVel;
	float footSpeed;
	// What the plant test measures (lbFootRestLift): the sole's height over its floor (m) and the
	// foot's speed (m/s).
	float plantLift, plantSpeed;
	// How far the animated ankle moved since the last frame (world).
	lbVec3 moveWs;
	// Ground under the ankle (height along up) with the footprint's clearance, and the tilt.
	float offsetTarget;
	// The ground a foot high in its swing keeps its clearance over: the smoothed height, but never
	// above the ground that is really there now (with the footprint's clearance and the look-ahead
	// ramp). Falling ground is eased for a foot near it; one high in the air has nothing to ease.
	float swingGround;
	// The level a gap's or pit's rims are looked for at (world, along up): the ground the other
	// foot last found, the animation's floor while it has none. The floor sinks as the character
	// passes over a gap (a gap shallower than pelvisMaxSink then looked like a step), and on a
	// flight it runs through the risers' middles, up to half a riser above the tread a foot leaves:
	// taken as the rims while higher than the other foot's ground, it made the next tread down a
	// pit's floor, and a captured walk down 0.155-0.2 m risers hung a foot over the nose it was
	// leaving, looking for the pit's far rim (support 0.2).
	float rimH;
	// Ground lower than this (world, along up) asks more of the legs than a step down: half the
	// leg's reach below the other foot's ground while it stands on some, -1e30 while it does not.
	float deepH;
	lbQuat tiltTarget;
	bool planted;
	lbVec3 ankleGoal;
	lbQuat footRot;
} lbFootLegFrame;

// Step 1: checks that apply to the whole frame: teleport, snap, state alpha, LOD and the trace
// schedule. Returns false (with *outResult) when the frame cannot run.
// One float field of the def: its name, where it is, and its closed range.
typedef struct lbFootDefField
{
	const char* name;
	size_t offset;
	float lo, hi;
} lbFootDefField;

#define LB_FIELD(f, lo, hi) { #f, offsetof(lbFootDef, f), (lo), (hi) }

lbResult lbFootDef_Validate(const lbFootDef* def)
{
	static const char fn[] = "lbFootDef";
	if (!def)
		return lbReport(lb_errorNullPointer, "%s: def is NULL", fn);
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: def not initialised with lbDefaultFootDef()", fn);
	if (!lbIsValidVec3(def->up))
		return lbReport(lb_errorNonFinite, "%s: up is not finite", fn);
	if (!(lbLength(def->up) > 1.0e-6f))
		return lbReport(lb_errorInvalidArgument, "%s: up is zero", fn);
	if ((unsigned)def->traceOrigin > (unsigned)lb_footTraceFromPelvis)
		return lbReport(lb_errorInvalidArgument, "%s: traceOrigin %d is not a lbFootTraceOrigin", fn, (int)def->traceOrigin);
	if ((unsigned)def->pelvisMode > (unsigned)lb_footPelvisWeightedAverage)
		return lbReport(lb_errorInvalidArgument, "%s: pelvisMode %d is not a lbFootPelvisMode", fn, (int)def->pelvisMode);
	// A table of constants, built once (not on every call of every frame).
#define big FLT_MAX
#define turn (2.0f * LB_PI)
	static const lbFootDefField list[] = {
		LB_FIELD(traceRadius, 0.0f, big),	 LB_FIELD(traceAbove, 0.0f, big),		LB_FIELD(traceBelow, 0.0f, big),
		LB_FIELD(normalWeight, 0.0f, 1.0f),	 LB_FIELD(maxFootAngle, 0.0f, LB_PI),	LB_FIELD(slopeLimit, 0.0f, LB_PI),
		LB_FIELD(goalSpeed, 0.0f, big),		 LB_FIELD(rotationSpeed, 0.0f, big),	LB_FIELD(predictionTime, 0.0f, big),
		LB_FIELD(predictionMax, 0.0f, big),	 LB_FIELD(predictionMaxTurnRate, 0.0f, big),
		LB_FIELD(pelvisWeight, 0.0f, 1.0f),	 LB_FIELD(pelvisMaxSink, 0.0f, big),	LB_FIELD(pelvisMaxLift, 0.0f, big),	 LB_FIELD(climbHipShift, 0.0f, big),
		LB_FIELD(pelvisMaxSinkSlope, 0.0f, big),
		LB_FIELD(kneeMaxBend, 0.0f, turn),	 LB_FIELD(hipMaxFlex, 0.0f, turn),		LB_FIELD(pelvisSpeed, 0.0f, big),
		LB_FIELD(landingCompression, -big, big), LB_FIELD(landingRelaxSpeed, 0.0f, big),
		LB_FIELD(alphaSpeed, 0.0f, big),	 LB_FIELD(clampedAlpha, 0.0f, 1.0f),	LB_FIELD(traceRate, 0.0f, big),
		LB_FIELD(lodDistance, 0.0f, big),	 LB_FIELD(lockSpeed, 0.0f, big),		LB_FIELD(lockHeight, 0.0f, big),
		LB_FIELD(lockReleaseDistance, 0.0f, big), LB_FIELD(lockReleaseAngle, 0.0f, big),
		LB_FIELD(lockBlendSpeed, 0.0f, big), LB_FIELD(teleportDistance, 0.0f, big), LB_FIELD(legSoften, 0.0f, 1.0f),
		LB_FIELD(ankleLimit, -big, big),	 LB_FIELD(edgeHeight, 0.0f, big),		LB_FIELD(edgeMargin, 0.0f, big),
		LB_FIELD(maxPlantShift, 0.0f, big),	 LB_FIELD(swingLookahead, 0.0f, big),	LB_FIELD(swingClearance, 0.0f, big),
		LB_FIELD(slideHeight, 0.0f, big),	 LB_FIELD(maxGoalSpeed, 0.0f, big),	LB_FIELD(probeReuseDistance, 0.0f, big),
	};
#undef big
#undef turn
	for (size_t k = 0; k < sizeof list / sizeof list[0]; ++k)
	{
		float v;
		memcpy(&v, (const char*)def + list[k].offset, sizeof v);
		// One comparison per field: every range is finite, so NaN and the infinities fail it too,
		// and only a failing field asks which it is.
		if (!(v >= list[k].lo && v <= list[k].hi))
		{
			if (!lbIsValidFloat(v))
				return lbReport(lb_errorNonFinite, "%s: %s is not finite", fn, list[k].name);
			return lbReport(lb_errorInvalidArgument, "%s: %s = %g outside [%g, %g]", fn, list[k].name, (double)v,
							(double)list[k].lo, (double)list[k].hi);
		}
	}
	return lb_ok;
}

#undef LB_FIELD

static LB_ALWAYS_INLINE bool lbFootBeginFrame(lbFootState* state, const lbFootDef* def, const lbHumanoid* humanoid,
							 const lbFootSenseInput* in, lbFootCall* call, lbFootFrame* f, lbResult* outResult)
{
	memset(f, 0, sizeof *f);
	f->memo = &call->memo;
	f->up = call->up;
	f->cw = in->characterWs;
	f->goalStep = f->rotationStep = -1.0f;
	*outResult = lb_ok;
	// lbIsValidTransform's tests, in four lanes with SSE.
	if (!lbIkValidTransformExact(&f->cw))
		return false;
	lbVec3 vel = in->velocityWs;
	if (!lbIsValidVec3(vel))
	{
		*outResult = lbReport(lb_errorNonFinite, "lbFootSense: velocity is not finite; using zero");
		vel = lbVec3_zero;
	}
	f->dt = lbIsValidFloat(in->dt) && in->dt > 0.0f ? in->dt : 0.0f;
	f->snap = in->landed || f->dt > 0.25f || !state->initialized;
	// A landing from a fall, not a first frame or a stall that also snaps.
	f->landed = in->landed && !(f->dt > 0.25f) && state->initialized;
	// Teleport: the previous frame says nothing about this one.
	if (state->initialized && lbDistance(f->cw.p, state->prevCharacterWs.p) > def->teleportDistance)
	{
		f->snap = true;
		for (int s = 0; s < 2; ++s)
		{
			state->legs[s].locked = false;
			state->legs[s].lockAlpha = 0.0f;
			state->legs[s].shiftWs = lbVec3_zero;
			state->legs[s].acrossWs = lbVec3_zero;
			state->legs[s].acrossRise = 0.0f;
			state->legs[s].hasGoal = false;
			state->legs[s].slideLo = -1.0e30f;
			state->legs[s].slideHi = 1.0e30f;
			state->legs[s].slideHiRiser = false;
			state->legs[s].riseHeld = false;
			state->legs[s].sliding = false;
			state->legs[s].slideMetEdge = false;
			state->legs[s].printValid = 0;
		}
		state->pelvisShiftWs = lbVec3_zero;
	}
	// The turn rate (rad/s) only gates prediction, so it is measured when a moving foot asks for it.
	f->turnRateKnown = !(state->initialized && f->dt > 0.0f);
	f->turnSlow = def->predictionMaxTurnRate > 0.0f; // no turn measured: a rate of zero

	f->active = !(def->lodDistance > 0.0f && in->hasCamera && lbIsValidVec3(in->cameraWs) &&
				  lbDistance(in->cameraWs, f->cw.p) > def->lodDistance);
	float alphaTarget = 1.0f;
	if (!f->active || in->moveState != lb_footGrounded || in->ikMode == lb_footIkDisabled)
		alphaTarget = 0.0f;
	else if (in->ikMode == lb_footIkClamped)
		alphaTarget = lbClampF(def->clampedAlpha, 0.0f, 1.0f);
	f->alphaBefore = state->alpha;
	// A landing snaps the goals but not the alpha: the IK faded while the character fell, and
	// brought back whole in the touchdown frame it put the pelvis and both legs where the goals
	// want them at once (a CMU actor walking off the side of a flight, legs nearly straight:
	// 16.2-17.2 degrees of added pop in that frame, the knee 0 -> 34 degrees). It blends back at
	// alphaSpeed, the feet kept above their floors meanwhile (lbFootKeepAbove).
	if (f->snap && !f->landed && alphaTarget > 0.0f)
		state->alpha = alphaTarget;
	else if (state->alpha != alphaTarget)
		state->alpha = lbClampF(lbFootInterpTo(f->memo, lb_footMemoAlpha, state->alpha, alphaTarget, f->dt, def->alphaSpeed), 0.0f, 1.0f);

	// Reduced trace rate: a phase accumulator, so 30 Hz at 120 Hz frames is exactly every 4th frame.
	// After a snap (or a gap of more than a period) the schedule restarts at the state's phase.
	state->traceTimer -= f->dt;
	f->doTrace = f->active && in->query && (f->snap || def->traceRate <= 0.0f || state->traceTimer <= 1.0e-5f);
	if (f->doTrace && def->traceRate > 0.0f)
	{
		float period = 1.0f / def->traceRate;
		float phase = lbClampF(state->tracePhase, 0.0f, 1.0f);
		state->traceTimer = state->traceTimer < -period || f->snap ? period * (1.0f - phase) : state->traceTimer + period;
	}

	// A rotation keeps lengths: the scale alone sets the model-to-world factor.
	f->modelToWorld = lbLength(lbMulVV(f->cw.s, humanoid->upMs));
	for (int s = 0; s < 2; ++s)
	{
		const lbLegAxes* ax = &humanoid->legAxes[s];
		f->reach[s] = (ax->thighLength + ax->calfLength) * f->modelToWorld * (1.0f - lbClampF(def->legSoften, 0.0f, 0.5f)) * 0.999f;
	}
	f->floorH = lbDot(f->cw.p, f->up);
	// The pelvis offset is relative to the animation's floor (the character origin). When that
	// floor jumps (the capsule steps up a stair), carry the offset across so the smoothed pelvis
	// keeps its world height and the step never pops. Feet smooth world ground heights directly.
	f->floorJump = state->initialized && !f->snap ? f->floorH - lbDot(state->prevCharacterWs.p, f->up) : 0.0f;
	f->floorMove = lbAbsF(f->floorJump) > kFootFloorStill * f->dt ? f->floorJump : 0.0f;
	f->velH = lbProjectOnPlane(vel, f->up);
	f->speedH = lbLength(f->velH);
	// The climb rate: the floor's rise per second, eased at LB_FOOT_CLIMB_SPEED. A flight's rise
	// comes a riser at a time (a capsule steps up, a stair-line controller bobs with the gait), so
	// one frame's rise says little; eased, it reads the flight's grade.
	if (!state->initialized || f->snap || !lbIsValidFloat(state->climbRate))
		state->climbRate = 0.0f;
	else if (f->dt > 0.0f)
		// Settling (lbFootInterpTo): on a still floor the rate's tail went below 1e-38 about 40 s
		// after a climb and stayed there, four operations a frame taking a denormal.
		state->climbRate = lbFootInterpTo(f->memo, lb_footMemoClimb, state->climbRate, f->floorJump / f->dt, f->dt, LB_FOOT_CLIMB_SPEED);
	// A rising floor: only the part of its change faster than a stepper climbs at this speed (1.2 x
	// the horizontal speed + 0.6 m/s) is a jump. A capsule rising smoothly up stairs or a slope
	// takes the pelvis with it; carrying that too would hold the pelvis below the capsule by the
	// climb rate over pelvisSpeed (0.25 m running up 0.25 m stairs), where the swinging leg cannot
	// lift its foot over the next step. A falling floor is carried whole: a pelvis left above a
	// capsule going down comes down as far as a leg needs (the lowest-foot drop), no further.
	const float smoothRise = (1.2f * f->speedH + 0.6f) * f->dt;
	state->pelvisOffset -= f->floorJump - lbClampF(f->floorJump, 0.0f, smoothRise);
	// A floor dropping away (a step down) leaves the pelvis no higher than pelvisMaxLift above the
	// animation: held higher, it would fold the trailing leg still on the step.
	state->pelvisOffset = lbMinF(state->pelvisOffset, lbMaxF(def->pelvisMaxLift, 0.0f));
	// Probes start from the pelvis's height only when the def asks for it.
	f->pelvisWs = def->traceOrigin == lb_footTraceFromPelvis ? lbIkTransformPoint(&f->cw, in->animPose->model[humanoid->pelvis].p)
															  : lbVec3_zero;
	f->hipMoveWs = lbMulAdd(state->pelvisShiftWs, state->pelvisOffset + state->landing, f->up);
	return true;
}

// Step 2: the animated foot: where it is, how fast it moves, its sole in world units.
// A foot whose animation stands its sole under the ankle above its floor (lbFootLegState::restLift
// over LB_FOOT_REST_LIFT_MIN): CMU's clips stand theirs 4.5-6 cm over their floor (by the rig's
// ankle height measured from its rest pose), the foot pitched heel up and the toes curled down onto
// the floor, and measured under the ankle their feet never came within lockHeight of it: not one
// plant or lock in a whole clip, and on stairs the toes hung over the noses (support 0). Such a
// foot is planted by the lowest point of its sole (heel, under the ankle, ball, or the toe tip as
// the animation curls it: 1.5 cm over the floor in CMU 01_03's stands, 2.9 cm in 01_01's), and by
// its speed over two frames (the plant test in lbFootSenseOne). Taking the rest lift off the height
// under the ankle instead planted the feet too, but a locked foot then stood that far below the
// animation: its curled toes bent 30-45 degrees onto the ground and turned back as the lock let go,
// and the clip sweep (3 clips over stairs, slopes, rocks and drops, seeds 7, 11 and 2026) fell from
// 90 to 65 of 135 runs within every limit. The rest lift is
// the lowest height under the ankle in the last stand of LB_FOOT_REST_STAND or more (slower than
// lockSpeed), not any slow frame: a swing's foot slows at its top. A foot held higher than
// LB_FOOT_REST_LIFT_MAX, or more than LB_FOOT_REST_PAIR above the other foot, is not standing on
// the floor: a procedural walk coming to rest after a fall held a foot still 5.6 cm up for 0.1 s
// while the other stood. Limber's own gaits stand their soles on the floor within a millimetre,
// and their runs are the same to the bit.
#define LB_FOOT_REST_LIFT_MAX 0.1f
#define LB_FOOT_REST_LIFT_MIN 0.005f
#define LB_FOOT_REST_STAND 0.1f
#define LB_FOOT_REST_PAIR 0.015f

static LB_ALWAYS_INLINE void lbFootRestLift(lbFootLegState* leg, const lbFootState* state, const lbFootFrame* f, const lbFootLegFrame* lf,
											float lockSpeed, int side)
{
	const float lift = lf->soleAboveFloor;
	// The other foot's height as its last measure had it (this frame's for the right foot).
	const float other = state->legs[1 - side].standLift;
	leg->standLift = lift;
	if (state->initialized && !f->snap && lf->footSpeed < lockSpeed && lift < LB_FOOT_REST_LIFT_MAX && lift <= other + LB_FOOT_REST_PAIR)
	{
		const float rest = lbMaxF(lift, 0.0f);
		leg->standMin = leg->standTime > 0.0f ? lbMinF(leg->standMin, rest) : rest;
		leg->standTime += f->dt;
		if (leg->standTime >= LB_FOOT_REST_STAND)
			leg->restLift = leg->standMin;
	}
	else
		leg->standTime = 0.0f;
}

static LB_ALWAYS_INLINE void lbFootAnimatedLeg(lbFootLegState* leg, const lbFootState* state, const lbFootFrame* f, const lbSkeleton* skeleton,
							  const lbHumanoid* humanoid, const lbPose* animPose, int side, const lbSole* sole, const lbFootDef* def, lbFootLegFrame* lf)
{
	const float lockSpeed = def->lockSpeed;
	const lbLegAxes* axes = &humanoid->legAxes[side];
	lf->sole = *sole;
	// Against a plane the toes bend at the ball (the pose stage bends them), so their tip never
	// sinks below the ball's: clearing against a plane stops at the ball.
	lf->planeSole = lf->sole;
	if (humanoid->leg[side].ball >= 0)
		lf->planeSole.along[lb_soleToeTip] = lf->planeSole.along[lb_soleBall];
	lbIkTransformMulTo(&lf->animFootWs, &f->cw, &animPose->model[humanoid->leg[side].foot]);
	lf->animAnkleWs = lf->animFootWs.p;
	// Toes the animation curls down (a captured foot shuffling near the ground): how far the toe tip
	// carried by the ball bone lies below the flat sole's tip, which the clearance below works
	// with. None under a millimetre: limber's own gaits keep the toes at rest on the foot, and their
	// runs stay the same to the bit.
	// Toes at their rest rotation on the foot (the usual case, compared as numbers) curl nothing.
	lf->toeCurl = 0.0f;
	const int ball = humanoid->leg[side].ball;
#if LB_IK_SSE2
	// The four components compared in one go (a NaN compares unequal, as with !=).
	const bool curled = ball >= 0 && _mm_movemask_ps(_mm_cmpneq_ps(_mm_loadu_ps(&animPose->local[ball].q.x),
																	_mm_loadu_ps(&skeleton->restLocal[ball].q.x))) != 0;
#else
	const lbQuat toesQ = ball >= 0 ? animPose->local[ball].q : lbQuat_identity;
	const lbQuat restQ = ball >= 0 ? skeleton->restLocal[ball].q : lbQuat_identity;
	const bool curled = toesQ.x != restQ.x || toesQ.y != restQ.y || toesQ.z != restQ.z || toesQ.w != restQ.w;
#endif
	if (curled)
	{
		const lbTransform* footMs = &animPose->model[humanoid->leg[side].foot];
		const lbTransform* ballMs = &animPose->model[ball];
		const lbVec3 tipMs = lbAdd(ballMs->p, lbIkQuatRotate(ballMs->q, axes->toeTipBall));
		// lbSole_PointMs(sole, *footMs, lb_soleToeTip).
		const lbVec3 flatMs =
			lbAdd(footMs->p, lbIkQuatRotate(footMs->q, lbMulAdd(sole->under, sole->along[lb_soleToeTip], sole->toeFlat)));
		const lbVec3 upFoot = lbNormalizeOr(lbIkQuatRotate(footMs->q, axes->footUp), lbVec3_zero);
		const float below = lbDot(lbSub(flatMs, tipMs), upFoot);
		lf->toeCurl = below > 0.001f * lbLength(footMs->s) * 0.57735027f ? below : 0.0f;
	}
	lf->animHipWs = lbIkTransformPoint(&f->cw, animPose->model[humanoid->leg[side].thigh].p);
	lf->animRot = lbFootQuatNormalize(lf->animFootWs.q);
	lf->ankleH = axes->ankleHeight * f->modelToWorld;
	lf->soleAboveFloor = lbDot(lf->animAnkleWs, f->up) - f->floorH - lf->ankleH;
	// The sole's rate over its own floor (m/s): rising (lift-off, the swing's first half) or coming
	// down to land; under kFootFloorStill it is still (0), so the decisions that read its sign do not
	// follow rounding: the animated sole standing on its floor moved by millionths of a metre as the
	// controller's height jittered, and a running foot's tip lead (lbFootTipLead) came and went with
	// them, the goal 1.4 cm apart for a frame.
	const float soleRate = state->initialized && f->dt > 0.0f && !f->snap ? (lf->soleAboveFloor - leg->prevSoleAboveFloor) / f->dt : 0.0f;
	lf->soleRate = lbAbsF(soleRate) > kFootFloorStill ? soleRate : 0.0f;
	leg->prevSoleAboveFloor = lf->soleAboveFloor;
	for (int k = 0; k < lb_solePointCount; ++k)
		lf->print.along[k] = lf->sole.along[k] * f->modelToWorld;
	// A foot letting go of its lock is still turned part of the way to the lock's rotation (the
	// goal's rotation blends out at lockAlpha, as lbFootLockBlend eases it this frame): rising off
	// the ground, its footprint lies along that turn (coming down, the little turn left moved a
	// landing along a nose off the level it chose). Sampled along the animation's, a CMU actor
	// turning on a flight's top and stepping back down along the nose found every sample short of
	// the nose while its toe tip, turned 2 cm past it, went 1.4-1.6 cm into the tread above. A
	// normalised lerp: the footprint wants only the toe's direction, and a slerp's arc cosine cost
	// the walking crowd 110 instructions a character-frame.
	const float releaseAlpha = !leg->locked && leg->lockAlpha > 0.0f && !f->snap && lf->soleAboveFloor > def->lockHeight && lf->soleRate > 0.0f
								   ? lbFootInterpTo(f->memo, lb_footMemoLockOut, leg->lockAlpha, 0.0f, f->dt, def->lockBlendSpeed)
								   : 0.0f;
	const lbQuat printRot = releaseAlpha >= 1.0e-3f ? lbQuatNlerp(lf->animRot, leg->lockRotWs, releaseAlpha) : lf->animRot;
	const lbVec3 toe = lbProjectOnPlane(lbIkQuatRotate(printRot, lf->sole.toeFlat), f->up);
	// The character's forward only for a toe pointing along up (lbNormalizeOr's fallback, made
	// only when it is taken).
	const float toeLen = lbLength(toe);
	lf->print.toeWs = !(toeLen > LB_EPSILON) || !lbIsValidFloat(toeLen) ? lbIkTransformDirection(&f->cw, humanoid->forwardMs)
																		 : lbMulSV(1.0f / toeLen, toe);
	// The foot's animated speed. Some base motions hold a stance foot in the world while the
	// capsule steps up a stair, others carry it with the capsule; either way that is not the
	// foot lifting off, so take the smaller of the world and floor-relative displacements.
	lf->footSpeed = 0.0f;
	lf->footVel = lbVec3_zero;
	lf->moveWs = lbVec3_zero;
	if (state->initialized && f->dt > 0.0f && !f->snap)
	{
		lbVec3 d = lbSub(lf->animAnkleWs, leg->prevAnimAnkleWs);
		lf->moveWs = d;
		lbVec3 dRel = lbMulAdd(d, -f->floorJump, f->up);
		lf->footVel = lbMulSV(1.0f / f->dt, lbLengthSquared(dRel) < lbLengthSquared(d) ? dRel : d);
		lf->footSpeed = lbLength(lf->footVel);
	}
	leg->prevAnimAnkleWs = lf->animAnkleWs;
	lbFootRestLift(leg, state, f, lf, lockSpeed, side);
	lf->plantLift = lf->soleAboveFloor;
	lf->plantSpeed = lf->footSpeed;
	if (leg->restLift > LB_FOOT_REST_LIFT_MIN)
	{
		// The lowest point of the sole over the floor, the toe tip where the animation curls it.
		float d[lb_solePointCount];
		lbFootSoleHeights(&lf->sole, lf->animAnkleWs, lf->animRot, f->modelToWorld, lbMulSV(f->floorH, f->up), f->up, d);
		lf->plantLift = lbMinF(lbMinF(d[lb_soleHeel], d[lb_soleUnderAnkle]), lbMinF(d[lb_soleBall], d[lb_soleToeTip] - lf->toeCurl * f->modelToWorld));
		// Captured feet jitter: a foot lifting off moved 0.58, 0.27, 0.38, 0.29 and 0.45 m/s in
		// consecutive frames (CMU 01_03), and its plant came and went every other frame, its toes'
		// bend with it (16-19 degrees a frame). Over two frames the jitter cancels.
		lf->plantSpeed = 0.5f * lbLength(lbAdd(lf->footVel, leg->prevFootVel));
	}
	leg->prevFootVel = lf->footVel;
}

// The toe tip's kept ground (printHeight) raised to where the ground the landing found one step
// past the tip (beyondPointWs[0], its slide's ray) rises to within the stretch the tip passes over
// until the next probe (`move`, m along the foot, as lbFootSweepPrint's), taken as a straight rise
// above the plane from the tip's sample to that point. The sweep reaches no further than the tip's
// own sample: running onto 0.45 m rocks at 30 Hz traces, a landing's tip moved on 7.5 cm past
// where the ground under it was last probed, up a rock's flank, and stood 1.1 cm in the rock.
// Only a rise of up to edgeHeight (a rock's flank, not a step): a riser past the tip is the
// landing's range's and the corner's, and read as a ramp up to the tread it lifted the toes of
// walks up 0.34 m risers early and popped the leg 16 degrees.
static void lbFootSweepTipBeyond(lbFootLegState* leg, const lbFootLegFrame* lf, lbVec3 point, lbVec3 n, lbVec3 up, lbVec3 base,
								 float move, float edgeHeight)
{
	// Ground found past the tip (bit 0 of beyondValid) at a point still held (bit 2), and ground
	// under the tip itself.
	const unsigned beyondTip = 1u | 1u << 2;
	if (!(move > 0.0f) || (leg->beyondValid & beyondTip) != beyondTip || !(leg->printValid & 1u << lb_soleToeTip))
		return;
	const lbFootPrint* fp = &lf->print;
	const lbVec3 tip = lbMulAdd(base, fp->along[lb_soleToeTip], fp->toeWs);
	const lbVec3 d = lbProjectOnPlane(lbSub(leg->beyondPointWs[0], tip), up);
	const float ahead = lbDot(d, fp->toeWs);
	// A point of this landing's line ahead of the tip (not one left beside a turned foot's line).
	if (!(ahead > 1.0e-3f) || lbLengthSquared(lbMulAdd(d, -ahead, fp->toeWs)) > 0.0025f)
		return;
	const float tipPlane = lbPlaneHeightAt(point, n, up, tip);
	const float riseTip = leg->printHeight[lb_soleToeTip] - tipPlane;
	const float riseBeyond = leg->beyondHeight[0] - lbPlaneHeightAt(point, n, up, leg->beyondPointWs[0]);
	if (!(riseBeyond - riseTip <= edgeHeight))
		return;
	const float rise = riseTip + lbMinF(move / ahead, 1.0f) * (riseBeyond - riseTip);
	if (rise > riseTip)
		leg->printHeight[lb_soleToeTip] = tipPlane + rise;
}

static void lbFootKeepPrint(lbFootLegState* leg, const lbFootGround* g, lbVec3 toeWs)
{
	for (int k = 0; k < lb_solePointCount; ++k)
		leg->printHeight[k] = g->height[k];
	leg->printValid = lbFootPrintMask(g);
	leg->printToeWs = toeWs;
}

// How far past a riser's bound (times maxPlantShift) a turned landing keeps its level and may
// slide back (lbFootTurnedHold).
#define LB_FOOT_RISER_HOLD 1.5f

// How far (times maxPlantShift) a landing whose footprint finds no ground in reach may slide back
// onto the rim it last found (lbFootLegState::slideBlind). Past a 0.6 m ledge 2.4 m ahead the
// animation walked on 25 cm past the rim: held to maxPlantShift half the sole stood over the drop;
// held as far as a riser's hold (1.5), the foot lagged the animation so far that when the floor
// below came into reach (a 0.56 m ledge 1.54 m ahead) the goal caught up 12 cm a frame as the body
// fell and the knee popped 15.1 degrees (7.8 held to maxPlantShift, 9.2 at this reach).
#define LB_FOOT_BLIND_HOLD 1.25f

// Whether a landing foot held short of a riser touches down turned from the line its range was
// found along (more than 3 degrees): turning on stairs, the animation carried such a foot past
// its bound along the old line by more than maxPlantShift in the last frames, its level flipped
// to the tread above one or two frames before contact, and the toe went into the riser while the
// goal was still at the tread below (4-10 cm). Held on its level it plants short, up to
// LB_FOOT_RISER_HOLD times maxPlantShift back. Not a foot that met its riser straight: on flights
// walked straight or crossed at an angle without turning, the level above taken at touchdown is
// the step the foot makes (held there too, 48 runs of the terrain sweep broke a limit).
static inline bool lbFootTurnedHold(const lbFootLegState* leg, const lbFootDef* def, const lbFootLegFrame* lf)
{
	return leg->slideHiRiser && lf->soleAboveFloor < 0.5f * def->edgeHeight && lbDot(lf->print.toeWs, leg->slideAxisWs) < 0.99862953f;
}

// Where along the slide axis (world) a landing held short of a riser lets go of its level: the
// animation carried past the bound by 0.95 maxPlantShift, or LB_FOOT_RISER_HOLD times it for a
// turned landing (lbFootTurnedHold). lbFootLandingRange keeps the level short of it, and
// lbFootProbeDue probes again past it.
static inline float lbFootHoldRelease(const lbFootLegState* leg, const lbFootDef* def, const lbFootLegFrame* lf)
{
	return leg->slideHi + (lbFootTurnedHold(leg, def, lf) ? LB_FOOT_RISER_HOLD : 0.95f) * def->maxPlantShift;
}

// The range of places along the foot where a foot probed at `from` (world) stands on one level
// (see lbFootLandingRange); false, the leg unchanged, when there is no ground there.
static bool lbFootLandingRangeFrom(lbFootLegState* leg, const lbFootDef* def, const lbFootSenseInput* in, lbFootFrame* f,
								   const lbFootLegFrame* lf, lbVec3 base, lbVec3 from, const lbQueryInput* centre,
								   const lbFootCast* c, const lbFootGround* g, float* outGroundH, float* outChosenH)
{
	lbFootCast cf = *c;
	lbQueryInput probe = *centre;
	lbFootGround gf = *g;
	if (lbDistance(from, base) > 1.0e-3f)
	{
		probe = lbFootProbe(def, from, f->pelvisWs, f->up, lf->ankleH + def->traceBelow);
		cf = lbFootCastDown(in->query, &probe, f->up, &f->castCount);
		if (!cf.hit)
			return false;
		lbFootSampleGround(in->query, &probe, from, &lf->print, &cf, f->up, &f->castCount, &gf);
		*outGroundH = lbDot(cf.point, f->up);
	}
	float lo, hi, levelH = 1.0e30f;
	bool riser;
	lbFootSlideAt(def, in->query, &probe, from, &lf->print, &cf, &gf, f->up, &f->castCount, leg, false, lf->rimH, lf->deepH, 0.0f, &lo, &hi, &riser,
				  &levelH, outChosenH);
	// No level at all (the footprint finds no ground within its rays' reach, past a drop deeper
	// than that): the range found before holds, and the slide may reach a little further
	// (slideBlind, LB_FOOT_BLIND_HOLD). Let go, the landing slid back to the animation, out past a
	// 0.6 m ledge's edge, and the foot planted with 1 mm of its heel on the top.
	if (!(*outChosenH < 1.0e29f) && leg->sliding && !lbFootPrintMask(&gf))
	{
		leg->slideBlind = in->moveState == lb_footGrounded;
		return false;
	}
	// A pit's floor chosen, no rim being within the longest slide: the caller's pit test sees it
	// and looks for the rims further off (lbFootGapRange).
	*outGroundH = lbMinF(*outGroundH, levelH);
	const float at = lbDot(from, lf->print.toeWs);
	leg->slideAxisWs = lf->print.toeWs;
	leg->slideLo = lo > -1.0e29f ? at + lo : -1.0e30f;
	leg->slideHi = hi < 1.0e29f ? at + hi : 1.0e30f;
	// A riser up from a level tread (within 10 degrees of level): on rocks and slopes a rise
	// ahead of the toe is a flank the foot rolls over, not a face to be held back from.
	leg->slideHiRiser = riser && hi < 1.0e29f && lbDot(cf.normal, f->up) > 0.985f;
	leg->slideGap = false;
	leg->slideBlind = false;
	return true;
}

// The range of places along the foot (world terms, along slideAxisWs) where a landing foot stands
// on one level; kept in world terms so the animation carrying the foot on between probes is held
// back (or moved on) by the same edges, not by a stale offset. The level is chosen from where the
// animation has the foot, not where the slide already put it, so as the animation carries the
// foot on, the choice moves on to the next tread when that is the nearer one. False (and the last
// range kept) when the ground there cannot be probed. *outGroundH (along up) becomes the height of
// the ground the range was found on when that was probed apart from `c`; *outChosenH the height of
// the level the range keeps the foot on when it was found afresh (1e30: kept from before, or none).
static bool lbFootLandingRange(lbFootLegState* leg, const lbFootDef* def, const lbFootSenseInput* in, lbFootFrame* f,
							   const lbFootLegFrame* lf, lbVec3 base, const lbQueryInput* centre, const lbFootCast* c,
							   const lbFootGround* g, float* outGroundH, float* outChosenH)
{
	*outChosenH = 1.0e30f;
	const lbVec3 from = lbSub(base, lbProjectOnPlane(leg->shiftWs, f->up));
	// Once the foot is within half slideHeight of its floor, a landing held short of a riser keeps
	// its level until it plants, unless the animation carries the foot past the riser by nearly the
	// longest slide. Chosen afresh at every probe as the animated foot moves on 5-6 cm a frame, the
	// level flipped to the tread beyond a frame or two before contact, too late to rise a riser's
	// height, and the toe and shin went into the riser.
	if (leg->sliding && leg->slideHiRiser && lf->soleAboveFloor < 0.5f * def->slideHeight)
	{
		const float at = lbDot(from, leg->slideAxisWs);
		if (at > leg->slideLo - def->maxPlantShift && at < lbFootHoldRelease(leg, def, lf))
			return true;
	}
	if (!lbFootLandingRangeFrom(leg, def, in, f, lf, base, from, centre, c, g, outGroundH, outChosenH))
		return leg->sliding;
	return true;
}

// Where the animated foot comes down (world): its horizontal motion until its sole meets its floor,
// at most 0.15 s on. Judged from where the foot is, the near side of a gap wins early in a landing
// and the foot is then carried past it and snaps across.
static lbVec3 lbFootTouchdown(const lbFootFrame* f, const lbFootLegFrame* lf)
{
	const float tLand = lbClampF(lf->soleAboveFloor / lbMaxF(-lf->soleRate, 1.0e-3f), 0.0f, 0.15f);
	return lbMulAdd(lf->animAnkleWs, tLand, lbProjectOnPlane(lf->footVel, f->up));
}

// Out of line and cold (LB_COLD), for what runs only in rare frames (a landing over a gap, the
// character airborne): inline it grew the hot per-leg code around it.

// Most rays each way a gap search casts before its edge rays: 0.96 m at 4 cm, three times the
// default reach (twice maxPlantShift).
#define LB_FOOT_GAP_STEPS 24

// The edge of a gap's platform along the foot line (base + (under + d) toe, world): between `in`,
// where a ray finds ground level with the floor, and `out`, where it does not, by three halvings;
// the last place found on the ground.
static float lbFootGapEdge(const lbSceneQuery* query, const lbQueryInput* centre, lbVec3 base, lbVec3 toe, float under, float in,
						   float out, float floorH, float tol, lbFootFrame* f)
{
	float h;
	for (int k = 0; k < 3; ++k)
	{
		const float mid = 0.5f * (in + out);
		if (lbFootRayHeight(query, centre, lbMulAdd(base, under + mid, toe), base, f->up, &f->castCount, &h) && lbAbsF(h - floorH) <= tol)
			in = mid;
		else
			out = mid;
	}
	return in;
}

// The side of a gap a sliding landing keeps: 1 the far side (no bound ahead), -1 the near side, 0 none.
static inline int lbFootGapSide(const lbFootLegState* leg)
{
	return leg->slideGap && leg->sliding ? (leg->slideHi > 1.0e29f ? 1 : -1) : 0;
}

// The place along the foot for a landing foot with no level within maxPlantShift because a gap
// opens under it: back until the ball stands on the near side, or on until the point under the
// ankle stands on the far side, whichever is nearer, within twice maxPlantShift of the animated
// foot. Rays every 4 cm along the foot line through where the animated foot comes down
// (lbFootTouchdown) find the nearest ground each way and three more place its edge. Sets the leg's range (a bound on one side, none on the other) and
// *outTarget (world, the ankle's probe point there); false, the leg unchanged, when neither side
// is within reach and the foot stays in the air. `narrow`: the landing is over a pit (ground more
// than lbFootPitDepth below the rims' level), which counts as a gap only with both rims found and
// close; *outOverPit then tells such a pit even when neither rim is within reach yet.
// Out of line and cold: it runs only for a landing over a gap.
LB_COLD static bool lbFootGapRange(lbFootLegState* leg, const lbFootDef* def, const lbSceneQuery* query, lbFootFrame* f,
						   const lbFootLegFrame* lf, int kept, bool narrow, float pitFloorH, lbVec3* outTarget, bool* outOverPit)
{
	*outOverPit = false;
	const lbVec3 base = lbFootTouchdown(f, lf);
	const lbQueryInput probe = lbFootProbe(def, base, f->pelvisWs, f->up, lf->ankleH + def->traceBelow);
	const lbQueryInput* centre = &probe;
	const float* a = lf->print.along;
	const lbVec3 toe = lf->print.toeWs;
	const float reach = 2.0f * def->maxPlantShift, step = 0.04f;
	// Reach is judged from the animated foot early in the swing, where the touchdown runs ahead of
	// it, and from the touchdown as the foot comes down (from 10 cm above its floor, wholly at 4
	// cm), where the touchdown has settled: judged from the animated foot alone, a foot coming down
	// 0.19 m past the near edge of a 0.48 m gap had the near side within reach and the far side not
	// until the frame it planted, and its lock then blended across the gap with the foot planted
	// half over it (support 0.1).
	const float settled = lbClampF((0.1f - lf->soleAboveFloor) / 0.06f, 0.0f, 1.0f);
	const float atBase = lbDot(base, toe), refAt = lbLerpF(lbDot(lf->animAnkleWs, toe), atBase, settled);
	// A platform of the gap lies level with the ground the other foot stands on (lf->rimH; the
	// character's floor sinks as it passes over a gap): ground further below is a step or a ledge
	// down, the normal landing's business.
	const float floorH = lf->rimH, tol = def->edgeHeight;
	float h;
	// The side a landing chose is kept a quarter further than reach: held back on the near side,
	// the foot let go of it as the animation carried the touchdown the last few centimetres past
	// reach and swung across the gap to the far side in the frames before the plant (0.5 m in
	// three frames, walking over a 0.41 m gap 1.70 m ahead on mixamo, planted half over the gap).
	const float fwdReach = kept > 0 ? 1.25f * reach : reach, backReach = kept < 0 ? 1.25f * reach : reach;
	// Forward: the first ground ahead of the point under the ankle.
	float fwd = 1.0e30f;
	// At most LB_FOOT_GAP_STEPS rays a way: a touchdown far from the animated foot, or a def's
	// maxPlantShift of kilometres, must not turn the search into millions of casts.
	int n = 0;
	// A pit (`narrow`) is stepped over only when its rims lie within twice reach of each other
	// (below), the near rim behind the point under the ankle and the far one ahead of it: a first
	// ray at the rim level further than that on either side cannot make one, and stairs down, which
	// meet the pit test two treads below the stance, would pay for every ray of both ways.
	const float narrowSpan = narrow ? 2.0f * reach + step + 1.0e-4f : 1.0e30f;
	// Ground ahead falling 0.1 m below a pit's floor (pitFloorH, the ground under the touchdown)
	// is the next tread of a flight down, not the far wall of a pit: the search stops there.
	// A pit whose touchdown still stands on the near rim (the point under the ankle at the rims'
	// level) may be the next tread of a flight down, one riser of more than half pelvisMaxSink
	// below the other foot's: the rays go on past the near rim's edge, and ground falling 0.1 m
	// below the pit's floor before any rim-level ground beyond it makes the flight, no gap. Taken
	// for a pit, the near rim's edge a few millimetres ahead was its far side: the range let the
	// foot slide back over the nose it was leaving while the landing's own range held it onto the
	// tread below, and the two alternated by frames (CMU 01_01 down 0.19-0.2 m risers: support 0.3
	// at the plant).
	const bool onRim = narrow && lbFootRayHeight(query, centre, lbMulAdd(base, a[lb_soleUnderAnkle], toe), base, f->up, &f->castCount, &h) &&
					   lbAbsF(h - floorH) <= tol;
	bool beyondRim = false;
	for (float d = step; n < LB_FOOT_GAP_STEPS && d <= narrowSpan; d += step, ++n)
		if (lbFootRayHeight(query, centre, lbMulAdd(base, a[lb_soleUnderAnkle] + d, toe), base, f->up, &f->castCount, &h))
		{
			if (lbAbsF(h - floorH) <= tol)
			{
				if (fwd > 1.0e29f)
					fwd = lbFootGapEdge(query, centre, base, toe, a[lb_soleUnderAnkle], d, d - step, floorH, tol, f) + def->edgeMargin;
				if (!onRim || beyondRim)
					break;
				continue;
			}
			beyondRim = beyondRim || fwd < 1.0e29f;
			if (narrow && h < pitFloorH - 0.1f)
			{
				if (onRim)
					return false;
				break;
			}
		}
	// Back: the first ground behind the point under the ankle, which the ball may reach.
	const float ball = a[lb_soleBall] - a[lb_soleUnderAnkle];
	float back = -1.0e30f;
	n = 0;
	// Over a pit the near rim is looked for over all the rays too: its width needs both rims.
	// No floor ahead: the search gives up below whatever lies behind, so that is not looked for.
	for (float d = -step; fwd < 1.0e29f && n < LB_FOOT_GAP_STEPS && (narrow ? -d <= narrowSpan : atBase + d - ball - refAt >= -backReach - step);
		 d -= step, ++n)
		if (lbFootRayHeight(query, centre, lbMulAdd(base, a[lb_soleUnderAnkle] + d, toe), base, f->up, &f->castCount, &h) &&
			lbAbsF(h - floorH) <= tol)
		{
			back = lbFootGapEdge(query, centre, base, toe, a[lb_soleUnderAnkle], d, d + step, floorH, tol, f) - def->edgeMargin - ball;
			break;
		}
	// No floor ahead at all: an edge down (a ledge, a drop), not a gap; the normal landing holds
	// the foot on the top or lets it go down. A far side out of reach of the animated foot but
	// within reach of where it comes down is left to the landing too until it comes within reach
	// (the touchdown runs ahead early in a swing); only a far side out of reach of both makes the
	// near side the place to stand. Searched no further than reach, such a gap looked like a
	// ledge, and the foot came down half over it (walking over a 0.43 m gap 1.87 m ahead on the
	// mannequin, support 0.1).
	// A foot coming down (settled) with neither side within reach goes to the nearer within a
	// quarter more than reach rather than plant over the gap: a foot coming down 0.19 m past the
	// near edge of a 0.5 m gap had each side 0.34 m away and planted half over it (support 0.1).
	const float toFwd = lbAbsF(atBase + fwd - refAt), toBack = lbAbsF(atBase + back - refAt);
	const float give = settled >= 0.5f && toFwd > fwdReach && toBack > backReach ? 1.25f : 1.0f;
	const bool fwdOk = toFwd <= give * fwdReach, backOk = toBack <= give * backReach;
	// A pit with both rims found and narrow enough to step over, whichever rim the foot goes to.
	*outOverPit = narrow && fwd < 1.0e29f && back > -1.0e29f && fwd - back - ball - 2.0f * def->edgeMargin <= 2.0f * reach;
	if (fwd > 1.0e29f || (!fwdOk && (!backOk || fwd <= reach)))
		return false;
	// A pit (`narrow`) is a gap only when every place in it lies within reach of a rim: the rims at
	// most twice reach apart (0.64 m by default). A wider one (the 1.2 m trench) is stepped into.
	if (narrow && fwd - back - ball - 2.0f * def->edgeMargin > 2.0f * reach)
		return false;
	// The nearer side to where the foot comes down (judged from the animated foot now, the near
	// side won early in a swing and fell out of reach just before the plant: walking over a 0.31 m
	// gap the foot swung across to the far side in the last frames). The side a landing chose is
	// kept while it stays within reach: near the middle of a gap the nearer side changes with
	// every frame's touchdown and the foot would be pulled to and fro.
	bool onward = fwdOk && (!backOk || lbAbsF(fwd) <= lbAbsF(back));
	if (kept != 0)
		onward = kept > 0 ? fwdOk : !backOk;
	const float d = onward ? fwd : back;
	leg->slideAxisWs = toe;
	leg->slideLo = onward ? atBase + d : -1.0e30f;
	leg->slideHi = onward ? 1.0e30f : atBase + d;
	leg->slideHiRiser = false;
	leg->slideGap = true;
	leg->slideBlind = false;
	*outTarget = lbMulAdd(base, d, toe);
	return true;
}

// No edge under the sole (lbFootLegState::cornerHeight).
static inline void lbFootNoCorner(lbFootLegState* leg)
{
	leg->printValid &= ~LB_FOOT_CORNER_BIT;
}

// The edge under the sole of a foot in the air, between two neighbouring samples of its footprint
// `g` (probed at `base`; `plane`, the ground plane's height under each) whose ground differs by
// more than edgeHeight across the plane: a nose. Its corner, at the higher side's height, lies
// between the samples, where no ray looks: four rays halve the gap to 9 mm, and the corner is
// taken at the lower side's end of what is left (lbFootClearPrint clears it). Kept with the stretch of the sole it passes under until the next probe (the foot moves
// on by half again the animated foot's speed, as the footprint's sweep has it). With the samples
// alone, a foot coming down past a nose toes first cleared it at one sample and the next, and the
// sole between them, where the corner was, could go into it: walking down stairs of other sizes,
// straight and across (the terrain sweep's 3,800 runs), 3,701 held every limit without the
// corner and 3,706 with it. The steepest such edge is kept when there are two.
static void lbFootFindCorner(lbFootLegState* leg, const lbFootDef* def, const lbSceneQuery* query, const lbQueryInput* centre,
							 lbFootFrame* f, const lbFootLegFrame* lf, lbVec3 base, const lbFootGround* g, const float plane[lb_solePointCount])
{
	lbFootNoCorner(leg);
	int pair = -1;
	float most = def->edgeHeight;
	for (int k = 0; k + 1 < lb_solePointCount; ++k)
	{
		if (!g->valid[k] || !g->valid[k + 1])
			continue;
		const float d = lbAbsF((g->height[k] - plane[k]) - (g->height[k + 1] - plane[k + 1]));
		if (d > most)
		{
			most = d;
			pair = k;
		}
	}
	if (pair < 0)
		return;
	const bool backHigh = g->height[pair] - plane[pair] > g->height[pair + 1] - plane[pair + 1];
	const int highK = backHigh ? pair : pair + 1, lowK = backHigh ? pair + 1 : pair;
	const float high = g->height[highK], low = g->height[lowK];
	float atHigh = lf->print.along[highK], atLow = lf->print.along[lowK];
	for (int i = 0; i < 4; ++i)
	{
		const float mid = 0.5f * (atHigh + atLow);
		float h;
		const bool got = lbFootRayHeight(query, centre, lbMulAdd(base, mid, lf->print.toeWs), base, f->up, &f->castCount, &h);
		if (got && lbAbsF(h - high) < lbAbsF(h - low))
			atHigh = mid;
		else
			atLow = mid;
	}
	const float scale = 1.0f / lbMaxF(f->modelToWorld, 1.0e-6f);
	const float move = def->traceRate > 0.0f ? lbDot(lf->footVel, lf->print.toeWs) * 1.5f / def->traceRate : 0.0f;
	leg->cornerHeight = high;
	leg->cornerLo = (atLow - lbMaxF(move, 0.0f)) * scale;
	leg->cornerHi = (atLow + lbMaxF(-move, 0.0f)) * scale;
	leg->printValid |= LB_FOOT_CORNER_BIT;
}

static lbVec3 lbFootSideShift(const lbFootDef* def, const lbSceneQuery* query, const lbQueryInput* proto, lbVec3 base,
							  const lbFootPrint* fp, const lbFootCast* c, const lbFootGround* g, lbVec3 up, int* castCount, float* outRise);

// Step 3, first: whether a leg probes on a trace frame. A foot that has hardly moved since its last probe,
// in the same phase, keeps it (a locked foot, a landing foot coming to rest): the ground under it
// is where it was. At most for 0.1 s, so ground a game removes or moves is still seen. A locked
// foot's probe only asks whether ground is still there: it keeps its answer for that 0.1 s
// wherever the animation carries the ankle meanwhile (unless reuse is off). A probe that is due
// starts a new reuse period.
static bool lbFootProbeDue(lbFootLegState* leg, const lbFootDef* def, const lbFootFrame* f, const lbFootLegFrame* lf)
{
	const float reuse = def->probeReuseDistance, maxAge = 0.1f;
	const lbVec3 from = lbAdd(lf->animAnkleWs, leg->shiftWs);
	const int phase = leg->locked && leg->grounded ? 1
					  : !leg->locked && lf->soleAboveFloor < def->slideHeight && lf->soleRate <= 0.0f ? 3 : 2;
	// A landing held short of a riser probes again once the animation has carried the foot past
	// where the hold lets go (lbFootLandingRange): held at its bound, the probe point barely moves,
	// and walking up 0.18 m risers the animation ran on 21 cm past the bound unprobed; the longest
	// slide dragged the toes onto the nose, the sole was lifted to the tread above with its heel and
	// ball over the tread below, and the level was chosen afresh only as the foot planted (a 6.7 cm
	// jump into the lock).
	const bool heldPast = phase == 3 && leg->sliding && leg->slideHiRiser && !leg->slideGap &&
						  lbDot(lf->animAnkleWs, leg->slideAxisWs) >= lbFootHoldRelease(leg, def, lf);
	if (!f->snap && !heldPast && phase == leg->probePhase && leg->probeAge < maxAge &&
		((phase == 1 && reuse > 0.0f) || lbLengthSquared(lbSub(from, leg->probeFromWs)) < reuse * reuse))
		return false;
	leg->probeFromWs = from;
	leg->probeAge = 0.0f;
	leg->probePhase = phase;
	return true;
}

// How fast (m/s, along up) a sole may rise and still count as coming down (landing): a captured
// foot at rest on its floor rises and sinks by hundredths of a millimetre a frame.
#define LB_FOOT_SOLE_REST_RATE 0.02f

// How far (m, >= 0) along its toe direction a foot in the air stands behind the place it is probed
// at (`base`, world): the prediction ahead, and a goal lagging behind the animation (the goal's
// speed cap, a slide still easing in), measured from last frame's goal carried on by the animation.
// From the prediction alone, the heel of a running foot whose goal lagged behind was still left
// over the nose (3 of the 13 runs above).
static inline float lbFootBehind(const lbFootLegState* leg, const lbFootFrame* f, const lbFootLegFrame* lf, lbVec3 base)
{
	const lbVec3 at = lbAdd(lf->animAnkleWs, leg->goalOffsetWs);
	return lbMaxF(lbDot(lbProjectOnPlane(lbSub(base, at), f->up), lf->print.toeWs), 0.0f);
}

// How far off its own line a foot moving in the air may go (sin^2 of the angle between its path
// and the line from its heel to its toe tip, 30 degrees) before the look-ahead also follows its
// other end (see lbFootProbeLeg).
static const float kFootOffLineSin2 = 0.25f;

// Whether look-ahead point i lies on the path of the foot's other end (lbFootLegState::aheadOtherMask).
static inline bool lbFootAheadOfOther(const lbFootLegState* leg, int i)
{
	return (leg->aheadOtherMask >> i) & 1u;
}

// The look-ahead's samples along `path` (world, horizontal) from `start`, a point of the sole line
// (the lead end, or the other end with `other` set), appended to the leg's kept points with the
// ground height under each. `prevH`: the rise of the ground under `start` above the ground plane
// (-1e30 when none was found); samples past `front` (along the slide axis) are not taken. Inline:
// called out of line, it cost the walking crowd about 120 instructions a character-frame more,
// and the landing's sampling (lbFootSampleLanding) was no longer inlined.
static LB_ALWAYS_INLINE void lbFootLookAlong(lbFootLegState* leg, const lbFootDef* def, const lbSceneQuery* query,
											 const lbQueryInput* centre, lbFootFrame* f, const lbFootCast* c, lbVec3 base,
											 lbVec3 start, float prevH, lbVec3 path, float front, bool other)
{
	// The samples short of `front`, their rays cast as one batch (one call into the scene, not one
	// a sample): no sample's ray depends on another's answer, and a step found between two is
	// bisected below with rays of its own.
	_Static_assert(LB_FOOT_AHEAD <= lb_solePointCount, "lbFootRayHeights casts up to lb_solePointCount rays");
	lbVec3 at[LB_FOOT_AHEAD];
	int n = 0;
	for (int i = 1; i <= LB_FOOT_AHEAD; ++i)
	{
		const lbVec3 ahead = lbMulAdd(start, (float)i / (float)LB_FOOT_AHEAD, path);
		if (lbDot(ahead, leg->slideAxisWs) > front)
			break;
		at[n++] = ahead;
	}
	if (n == 0)
		return;
	float height[LB_FOOT_AHEAD];
	bool valid[LB_FOOT_AHEAD];
	lbFootRayHeights(query, centre, at, n, base, f->up, &f->castCount, height, valid);
	lbVec3 prev = start;
	for (int i = 0; i < n; ++i)
	{
		if (!valid[i])
			continue;
		const float h = height[i];
		const lbVec3 ahead = at[i];
		lbVec3 kept = ahead;
		const float rise = h - lbPlaneHeightAt(c->point, c->normal, f->up, ahead);
		// Only a step (rising more than 1 in 2 between the samples) is worth finding: a rock's
		// flank is ramp enough as sampled.
		if (rise > prevH + lbMaxF(def->edgeHeight, 0.5f * lbDistance(ahead, prev)) && prevH > -1.0e29f)
		{
			lbVec3 lo = prev, hi = ahead;
			for (int k = 0; k < 3; ++k)
			{
				lbVec3 mid = lbLerp(lo, hi, 0.5f);
				float hm;
				if (lbFootRayHeight(query, centre, mid, base, f->up, &f->castCount, &hm) &&
					hm - lbPlaneHeightAt(c->point, c->normal, f->up, mid) > prevH + def->edgeHeight)
					hi = mid;
				else
					lo = mid;
			}
			kept = lo; // the last place still below the rise: the ramp is full there
		}
		leg->aheadOtherMask |= other ? 1u << leg->aheadCount : 0u;
		leg->aheadPointWs[leg->aheadCount] = kept;
		leg->aheadHeight[leg->aheadCount++] = h;
		prev = ahead;
		prevH = rise;
	}
}

// A free foot that skips its probe this frame (the trace rate's off frame, or a probe reused while
// its ankle stays within probeReuseDistance) keeps the footprint's heights, whose sweep
// (lbFootSweepPrint) follows the foot along its line; a foot turning about its ankle swings its toe
// tip sideways over ground no ray sampled. Turning on a flight, CMU 01_01's actor swung a lifting
// foot's tip 1.0-2.0 cm into the riser beside it on those frames; a foot held up and turned on the
// spot beside a step, reusing its probe, put its tip 3.8 cm in. Once the tip has swung
// probeReuseDistance off where the footprint last sampled it, one ray under it where it is now
// raises the kept tip height (and the clearance) to any ground found higher there; lower ground is
// left to the next probe, as the sweep leaves it. Out of line: inlined into the sense stage it cost
// the walking crowd about 100 instructions a character-frame, for a call most frames skip.
static LB_NOINLINE void lbFootTurnedTip(lbFootLegState* leg, const lbFootDef* def, const lbFootSenseInput* in,
										lbFootFrame* f, const lbFootLegFrame* lf)
{
	if (leg->locked || !leg->grounded || !((leg->printValid >> lb_soleToeTip) & 1u) || !def->footprintTraces)
		return;
	const float along = lf->print.along[lb_soleToeTip], reuse = def->probeReuseDistance;
	if (!(lbLengthSquared(lbSub(lf->print.toeWs, leg->printToeWs)) * along * along > reuse * reuse))
		return;
	const lbVec3 base = lbAdd(lf->animAnkleWs, leg->shiftWs);
	const lbQueryInput centre = lbFootProbe(def, base, f->pelvisWs, f->up, lf->ankleH + def->traceBelow);
	const lbVec3 tip = lbMulAdd(base, along, lf->print.toeWs);
	float h;
	if (!lbFootRayHeight(in->query, &centre, tip, base, f->up, &f->castCount, &h) || !(h > leg->printHeight[lb_soleToeTip]))
		return;
	leg->printHeight[lb_soleToeTip] = h;
	leg->clearance = lbMaxF(leg->clearance, h - lbPlaneHeightAt(leg->groundPointWs, leg->groundNormalWs, f->up, tip));
}

// Step 3: probes. The centre cast under the (predicted) ankle gives the ground plane; rays under
// heel, ball and toe tip, and for a swinging foot one ahead along its path, give the footprint's
// clearance over that plane: how far the ground rises into the sole or the swing.
static void lbFootProbeLeg(lbFootLegState* leg, lbFootState* state, const lbFootDef* def, const lbHumanoid* humanoid,
						   const lbFootSenseInput* in, lbFootFrame* f, lbFootLegFrame* lf)
{
	// Prediction: look ahead along the motion so a swinging foot sees the ground it will land on;
	// not when standing, turning, or when this foot swings backwards.
	lbVec3 predict = lbVec3_zero;
	bool swinging = f->speedH > 0.1f && lbDot(lf->footVel, f->velH) >= 0.0f && !leg->locked;
	if (swinging && !f->turnRateKnown)
	{
		lbVec3 f0 = lbIkTransformDirection(&state->prevCharacterWs, humanoid->forwardMs);
		lbVec3 f1 = lbIkTransformDirection(&f->cw, humanoid->forwardMs);
		lbVec3 a = lbNormalize(lbProjectOnPlane(f0, f->up)), b = lbNormalize(lbProjectOnPlane(f1, f->up));
		// The turn this frame is atan2(y, x); within rate * dt of none when (x, y) lies within that
		// angle of +x, which its cosine tells without the arctangent.
		const float y = lbDot(f->up, lbCross(a, b)), x = lbDot(a, b), r = sqrtf(x * x + y * y);
		const float limit = def->predictionMaxTurnRate * f->dt;
		f->turnSlow = limit > 0.0f && (limit > LB_PI || r == 0.0f || x > lbFootCos(f->memo, lb_footMemoTurn, limit) * r);
		f->turnRateKnown = true;
	}
	if (swinging && f->turnSlow)
		predict = lbClampLength(lbMulSV(def->predictionTime, f->velH), def->predictionMax);
	lbVec3 base = lbAdd(lbAdd(lf->animAnkleWs, leg->shiftWs), predict);
	lbQueryInput centre = lbFootProbe(def, base, f->pelvisWs, f->up, lf->ankleH + def->traceBelow);
	// A locked foot stands where its plant probed the footprint: it only checks that there is still
	// ground under it (a game may remove it) until it lifts, which spares most of a walk's casts.
	if (leg->locked && leg->grounded && !f->snap)
	{
		leg->grounded = lbFootGroundStill(in->query, &centre, f->up, &f->castCount);
		leg->beyondValid = 0;
		return;
	}
	// A foot in the air (swinging, or coming down to land) probes the ground under its ankle with a
	// ray, about a third of a sphere's cost, reaching as deep as the sphere's front: its heel and
	// toe rays below tell whether the ground there is one plane, where the sphere would rest inside
	// a face at the ray's height, and where it is not (a nose, a riser, a rock's flank near the
	// foot) the sphere is cast after all (it rests on a nose up to its radius ahead of the ankle).
	// The footprint's and the look-ahead's rays keep the probe's own line. A foot within lockHeight
	// of its floor (standing, about to plant) and a plant keep the sphere.
	const bool landingNow = !leg->locked && lf->soleAboveFloor < def->slideHeight && lf->soleRate <= 0.0f;
	bool rayProbe = ((swinging && !landingNow) || (landingNow && lf->soleAboveFloor > def->lockHeight)) && def->footprintTraces &&
					!def->heelToeTraces && centre.radius > 0.0f;
	lbFootCast c;
	if (rayProbe)
	{
		lbQueryInput ray = centre;
		ray.end = lbMulAdd(ray.end, -ray.radius, lbNormalizeOr(lbSub(ray.end, ray.start), lbNeg(f->up)));
		ray.radius = 0.0f;
		c = lbFootCastDown(in->query, &ray, f->up, &f->castCount);
		// Nothing under the ray (a gap, or a start inside a solid): the sphere says what it says.
		rayProbe = c.hit;
	}
	if (!rayProbe)
		c = lbFootCastDown(in->query, &centre, f->up, &f->castCount);
	// A slide carried over from the last plant (back from a gap's near edge) may hold a foot that
	// lands past the far edge over the gap itself, where it would find nothing and fade out with
	// its toes in the ground beyond: a foot not locked that finds no ground with its slide looks
	// again where the animation has it and drops the slide when there is ground there.
	if (!c.hit && !leg->locked && lbLengthSquared(leg->shiftWs) > 0.0f)
	{
		const lbVec3 plain = lbAdd(lf->animAnkleWs, predict);
		const lbQueryInput again = lbFootProbe(def, plain, f->pelvisWs, f->up, lf->ankleH + def->traceBelow);
		lbFootCast c2 = lbFootCastDown(in->query, &again, f->up, &f->castCount);
		if (c2.hit)
		{
			c = c2;
			base = plain;
			centre = again;
			leg->shiftWs = lbVec3_zero;
			leg->acrossWs = lbVec3_zero;
			leg->acrossRise = 0.0f;
		}
	}
	// A landing foot with a gap under it finds no ground: it slides onto the platform before or
	// beyond the gap where one is within reach (lbFootGapRange), and is probed there.
	bool gapSet = false, rimFloor = false;
	// Ground under the foot more than lbFootPitDepth below the rims' level (lf->rimH) is a
	// pit: a leg reaches it only with the hips sunk, and the body walking on drags the
	// foot locked down there out through the far wall (a 0.42 m gap 0.55 m deep, 1.6 m ahead: sole
	// 0.17 m into it). A pit narrow enough to step over is searched for its rims as a gap is; one
	// too wide (a trench) or with no floor beyond (a ledge, stairs down) is stepped down into.
	// Set here, not only with the footprint below, so the foot is probed on the rim it slides to
	// at once: probed over the pit floor, its ground sank toward it while it slid across to the far
	// rim and the toe went into that rim's corner.
	const bool pitUnder = c.hit && lbDot(c.point, f->up) < lf->rimH - lbFootPitDepth(def);
	if ((!c.hit || pitUnder) && landingNow && def->footprintTraces && !def->heelToeTraces)
	{
		lbVec3 target;
		const int kept = lbFootGapSide(leg);
		bool overPit;
		if (lbFootGapRange(leg, def, in->query, f, lf, kept, pitUnder && kept == 0, lbDot(c.point, f->up), &target, &overPit))
		{
			const lbQueryInput there = lbFootProbe(def, target, f->pelvisWs, f->up, lf->ankleH + def->traceBelow);
			const lbFootCast ct = lbFootCastDown(in->query, &there, f->up, &f->castCount);
			if (ct.hit)
			{
				c = ct;
				base = target;
				centre = there;
				gapSet = true;
			}
		}
		// Over a pit to be stepped over with neither rim within reach yet, the foot comes down
		// toward the rims' level, not the pit's floor: its swing sank into a 0.48 m gap 0.48 m
		// deep and the toe went into the far wall's top.
		else
			rimFloor = overPit;

	}
	if (c.hit && def->heelToeTraces)
	{
		// Heel and ball contacts give the ground's pitch along the foot; the centre cast keeps the roll.
		lbQueryInput heel = centre, ball = centre;
		lbVec3 dh = lbMulSV(lf->print.along[lb_soleHeel], lf->print.toeWs);
		lbVec3 db = lbMulSV(lf->print.along[lb_soleBall], lf->print.toeWs);
		heel.start = lbAdd(centre.start, dh);
		heel.end = lbAdd(centre.end, dh);
		ball.start = lbAdd(centre.start, db);
		ball.end = lbAdd(centre.end, db);
		lbFootCast ch = lbFootCastDown(in->query, &heel, f->up, &f->castCount);
		lbFootCast ct = lbFootCastDown(in->query, &ball, f->up, &f->castCount);
		if (ch.hit && ct.hit)
		{
			lbVec3 along = lbSub(ct.point, ch.point);
			lbVec3 n = lbNormalize(lbProjectOnPlane(c.normal, along));
			if (lbDot(n, f->up) > 0.05f)
			{
				c.normal = n;
				// The plane passes through both contacts: take its point under the ankle line.
				float t = -lf->print.along[lb_soleHeel] / (lf->print.along[lb_soleBall] - lf->print.along[lb_soleHeel]);
				c.point = lbLerp(ch.point, ct.point, t);
			}
		}
	}
	// The ground the last probe found under the ankle (a riser above the ray's: see below).
	const float lastGroundH = leg->grounded ? lbDot(leg->groundPointWs, f->up) : -1.0e30f;
	leg->grounded = c.hit;
	leg->clearance = 0.0f;
	leg->printValid = 0;
	if (!c.hit)
		return;
	leg->groundPointWs = c.point;
	// The bearing point of a locked foot is the one it locked on.
	if (!leg->locked)
		leg->bearingWs = c.touch;
	leg->groundNormalWs = c.normal;
	if (!def->footprintTraces)
		return;
	// A foot coming down to land slides, while still in the air, toward where it will stand on one
	// level (lbFootLandingRange), so the plant itself barely moves it.
	// A sole at rest on its floor (a captured foot's rate within 2 cm/s of none) is still landing,
	// unless it is leaving a lock (the first frames of a lift-off rise that slowly too):
	// a rate of +0.03 mm/s took a landing that had slid forward off the tread above for a swing, its
	// heel ray went where the slide put the heel, not under the goal's heel, and the heel stood 1 cm
	// in the nose behind (running down 0.28 m risers on 0.261 m treads, mixamo).
	const bool landing = landingNow || (!leg->locked && lf->soleAboveFloor < def->slideHeight && !(leg->lockAlpha > 0.0f) &&
										lf->soleRate <= LB_FOOT_SOLE_REST_RATE);
	if (!landing)
		leg->beyondValid = 0;
	lbFootGround g;
	// The centre cast's plane under the footprint samples, made once while the cast stays as it was
	// (a swing's or a landing's samples make it; the edge below may move the cast, the sphere
	// replace it).
	float plane[lb_solePointCount];
	bool planeMade = false;
	if (swinging && !landing)
	{
		// A foot still blending out of its lock leaves the tread it stood on: its heel's ray looks
		// where the goal has the heel, edgeMargin behind, as a landing's does. From the probed heel,
		// a foot leaving a tread whose goal trailed the probe by 1.3 cm found the tread below a frame
		// early, and its heel went 1.1 cm into the nose it was leaving (walking 21.4 degrees off
		// straight down 0.258 m risers on 0.306 m treads, mixamo). In mid-swing the heel stays where
		// it is probed (lbFootHeelBehind).
		const float heelBack = leg->lockAlpha > 0.0f ? lbFootBehind(leg, f, lf, base) + def->edgeMargin : 0.0f;
		lbFootPlaneHeights(c.point, c.normal, f->up, base, lf->print.along, lf->print.toeWs, plane);
		planeMade = true;
		lbFootSampleSwing(in->query, &centre, base, &lf->print, &c, f->up, heelBack, plane, &f->castCount, &g);
	}
	else if (landing)
		planeMade = lbFootSampleLanding(in->query, &centre, base, &lf->print, &c, f->up, def->edgeHeight, lbFootBehind(leg, f, lf, base),
										&f->castCount, &g, plane);
	else
		lbFootSampleGround(in->query, &centre, base, &lf->print, &c, f->up, &f->castCount, &g);
	if (!(swinging && !landing) && lbFootOffEdge(&c, &g, f->up, def->edgeHeight))
	{
		leg->groundPointWs = c.point;
		planeMade = false;
	}
	// Heel and toe tip on the ray's plane: the sphere would have rested inside that face too.
	const int ends[2] = { lb_soleHeel, lb_soleToeTip };
	bool flat = true;
	if (rayProbe)
	{
		if (!planeMade)
			lbFootPlaneHeights(c.point, c.normal, f->up, base, lf->print.along, lf->print.toeWs, plane);
		planeMade = true;
		for (int i = 0; i < 2; ++i)
			flat = flat && g.valid[ends[i]] && lbAbsF(g.height[ends[i]] - plane[ends[i]]) <= 0.25f * def->edgeHeight;
		// A ray finding ground a riser below the last probe's, the whole footprint with it, has
		// crossed an edge along or beside the sole's line: the sphere, as wide as the foot about
		// its line, rests on the nose until the foot's side is past it. A foot swinging along a
		// nose (turning on stairs) came down onto the tread below as soon as the line crossed the
		// nose, with its side still over the tread above, and the side went 2.2 cm into the nose
		// (foot_walk_stairsturn24_mannequin); the terrain sweep's turns on stairs over a limit
		// 19 -> 11 of 200.
		flat = flat && !(swinging && lastGroundH - lbDot(c.point, f->up) > def->edgeHeight);
	}
	if (!flat)
	{
		c = lbFootCastDown(in->query, &centre, f->up, &f->castCount);
		planeMade = false;
		leg->grounded = c.hit;
		if (!c.hit)
			return;
		leg->groundPointWs = c.point;
		leg->bearingWs = c.touch;
		leg->groundNormalWs = c.normal;
		// The samples taken from the centre cast (a landing foot's ball, off the plane, was cast).
		if (landing)
		{
			g.valid[lb_soleUnderAnkle] = true;
			g.height[lb_soleUnderAnkle] = c.faceHeight;
		}
		else
			lbFootSwingBall(&lf->print, &c, &g);
	}
	// The footprint serves until the next probe, one trace period on at most, while the foot moves
	// on: a free foot keeps each sample as high above the plane as the ground of any sample it will
	// pass over by then (lbFootSweepPrint), at half again the animated foot's speed (a landing
	// foot's goal slides onto its tread faster than the animation moves it): 2437 of the terrain
	// sweep's 2560 runs within every limit (2433 without the sweep, 2436 at the animated speed, 2437
	// at twice it).
	lbFootGround print = g;
	if (!leg->locked && def->traceRate > 0.0f)
		lbFootSweepPrint(&g, &lf->print, c.point, c.normal, f->up, base, lbDot(lf->footVel, lf->print.toeWs) * 1.5f / def->traceRate, &print);
	lbFootKeepPrint(leg, &print, lf->print.toeWs);
	if (!planeMade)
		lbFootPlaneHeights(c.point, c.normal, f->up, base, lf->print.along, lf->print.toeWs, plane);
	leg->clearance = lbFootPrintClearance(&print, plane);
	if (!leg->locked)
		lbFootFindCorner(leg, def, in->query, &centre, f, lf, base, &g, plane);
	else
		lbFootNoCorner(leg);
	// Over a pit stepped over, the ground the foot comes down to is the rims' level: the clearance,
	// measured above the pit's floor, is what the rims rise above it, and it is kept only where the
	// footprint rises above the rims too. Kept whole on top of the rims' level, it held the foot a
	// pit's depth above the far rim while it came down onto it, and its knee folded onto the cap (a
	// 0.48 m gap 0.46 m deep: 16 degrees in a frame).
	if (rimFloor)
	{
		const float lift = lf->rimH - lbDot(leg->groundPointWs, f->up);
		leg->groundPointWs = lbMulAdd(leg->groundPointWs, lift, f->up);
		leg->clearance = lbMaxF(leg->clearance - lbMaxF(lift, 0.0f), 0.0f);
	}
	if (gapSet)
		leg->sliding = landing;
	else
	{
		// The side of a gap the landing chose so far (the range below is found afresh over it).
		const int kept = lbFootGapSide(leg);
		float rangeH = lbDot(c.point, f->up);
		float chosenH = 1.0e30f;
		const bool heldRiser = leg->sliding && !leg->slideGap && lbFootTurnedHold(leg, def, lf);
		const lbVec3 heldAxis = leg->slideAxisWs;
		const float heldHi = leg->slideHi;
		leg->sliding = landing && lbFootLandingRange(leg, def, in, f, lf, base, &centre, &c, &g, &rangeH, &chosenH);
		if (landing && !leg->locked && def->traceRate > 0.0f)
			lbFootSweepTipBeyond(leg, lf, c.point, c.normal, f->up, base, lbDot(lf->footVel, lf->print.toeWs) * 1.5f / def->traceRate,
								 def->edgeHeight);
		// A landing foot beside a riser that runs along it comes down clear of it, as its plant
		// will stand (lbFootSideShift, where the level beside the foot rises; not a drop beside
		// it, whose plant moves back onto the tread): a foot turning onto a tread along the riser
		// above came down with its side 3 cm in that riser and moved off it only at the plant.
		// Probed each time from where the foot would be without it, so it follows the riser and
		// ends where none is beside the foot. Only where the landing found an edge along the foot
		// (a riser near it bounds its slide) at this probe or an earlier one, or moves off one
		// already: on open ground the two rays find nothing. An earlier one counts: a foot coming
		// down at 35 degrees to the riser beside it, its heel over the riser's top, had its slide
		// carry it off that level at one probe (where the sides under the ankle are not probed: the
		// sole's line is not on one level) and found no edge along it at the next, its ankle then 3
		// cm from the riser and its calf 2.2-2.6 cm in the nose above until the plant moved it.
		// The edge met is kept through a probe that finds the sole rising a little within
		// slideHeight of its floor (a captured foot's landing pausing): dropped there, CMU 01_03's
		// foot, turning on a flight, came down sideways along the riser above with its side 1.2-2.9
		// cm in it, its earlier bound along the foot gone with the turn (5 runs of the clip sweep).
		const bool edge = leg->sliding && (leg->slideLo > -1.0e29f || leg->slideHi < 1.0e29f);
		leg->slideMetEdge = (landing || lf->soleAboveFloor < def->slideHeight) && (edge || leg->slideMetEdge);
		if (landing && (leg->acrossRise > 0.0f || leg->slideMetEdge))
		{
			float rise;
			lbQueryInput unshifted = centre;
			unshifted.start = lbSub(centre.start, leg->acrossWs);
			unshifted.end = lbSub(centre.end, leg->acrossWs);
			lbVec3 across = lbFootSideShift(def, in->query, &unshifted, lbSub(base, leg->acrossWs), &lf->print, &c, &g, f->up, &f->castCount, &rise);
			// Not where the landing chose the level beside (lbFootLandingRange): the foot goes onto
			// it, and its plant moves it off the drop beside, if any. Moved off it, a captured foot
			// landing along a nose planted on the tread below, and rose from there into the riser.
			if (!(rise > 0.0f) || (chosenH < 1.0e29f && chosenH > g.height[lb_soleBall] + def->edgeHeight))
			{
				across = lbVec3_zero;
				rise = 0.0f;
			}
			leg->shiftWs = lbAdd(leg->shiftWs, lbSub(across, leg->acrossWs));
			leg->acrossWs = across;
			leg->acrossRise = rise;
		}
		// A landing that chose the level above the ground under its probe (the foot goes on past a
		// riser it was held back from, or turns onto the tread above) stands on that level from now
		// on, unless its footprint already holds the sole that high: the footprint and the ground
		// were probed where the slide held the foot back, short of the riser, and the foot came down
		// toward the tread below while the slide carried it forward into the riser until the next
		// probe (walking a turn on stairs: toes 3-7 cm into the riser, shins 2-6 cm; 13 runs of the
		// terrain sweep's turns on stairs now within every limit, no other run changed).
		if (leg->sliding && chosenH < 1.0e29f)
		{
			const float rise = chosenH - lbDot(leg->groundPointWs, f->up);
			if (rise > def->edgeHeight && leg->clearance + def->edgeHeight < rise)
				leg->groundPointWs = lbMulAdd(leg->groundPointWs, rise, f->up);
			// Chosen so after a hold short of the riser below that level, the foot stays where it
			// was held until it has risen to the level (lbFootEaseSlide) and goes into its lock
			// up first: let go at once, the slide carried the foot on 9 cm in a frame while its
			// sole was still 2 cm under the nose, and the toe tip went 1.9 cm into the riser
			// (walking a turn up 0.25 m risers).
			leg->riseHeld = heldRiser && rise > def->edgeHeight;
			if (leg->riseHeld)
			{
				// Where the hold put the foot: this frame's animated foot carried by last frame's
				// slide, no further than the old bound (the slide is relative to the animation, which
				// has moved on since).
				lbVec3 held = lbAdd(lf->animAnkleWs, leg->shiftWs);
				held = lbMulAdd(held, -lbMaxF(lbDot(held, heldAxis) - heldHi, 0.0f), heldAxis);
				leg->riseHoldAt = lbDot(held, leg->slideAxisWs);
				leg->riseHoldH = chosenH;
			}
		}
		// Part of the footprint over nothing and no level the whole foot fits on within
		// maxPlantShift (no bound at all, or one too short for the foot), or a range already set
		// across a gap: the gap's platforms are looked for again from where the animated foot comes
		// down now.
		const unsigned all = (1u << lb_solePointCount) - 1u;
		// Also over a pit (see pitUnder), judged under the slid foot and under the animated one the
		// range was found from: a foot already slid onto a rim finds the whole footprint on level
		// ground there, and the range found afresh clears the gap flag, so the choice of rim was
		// dropped the next probe and the foot went back down into the pit.
		const bool pit = landing && lbMinF(lbDot(c.point, f->up), rangeH) < lf->rimH - lbFootPitDepth(def);
		if (leg->sliding && (leg->slideGap || pit || lbFootPrintMask(&g) != all))
		{
			const float tdAt = lbDot(lbFootTouchdown(f, lf), leg->slideAxisWs);
			const bool none = (leg->slideLo < -1.0e29f && leg->slideHi > 1.0e29f) || leg->slideHi - leg->slideLo < 1.0e-4f ||
							  lbAbsF(lbClampF(tdAt, leg->slideLo, leg->slideHi) - tdAt) > def->maxPlantShift;
			lbVec3 target;
			bool overPit;
			if (leg->slideGap || none || pit)
				lbFootGapRange(leg, def, in->query, f, lf, kept, pit && kept == 0, lbMinF(lbDot(c.point, f->up), rangeH), &target,
							   &overPit);
		}
	}
	// A swinging foot also looks along its path (its own velocity, about twice the body's in the
	// swing), so it rises before a step edge reaches its toe. The points are kept in world terms
	// with their ground heights: every frame, not only probe frames, the sole is held above each
	// less its distance ahead (lbFootAheadFloor), a 42-45 degree ramp that rises smoothly as the foot
	// comes on. A landing foot looks no further than the front of the level it lands on.
	// A foot that moves at 0.5 m/s or more without swinging forward with the body (a captured
	// clip's two-footed jump from a standstill, a boxer's step back, a step on the spot) looks along
	// its own path too, led by the heel when it moves heel first, and does so however low it moves:
	// a boxer's feet shuffle within lockHeight of the ground. The look-ahead ran only for forward
	// swings: a CMU actor jumping up onto a 0.21 m step from just short of its riser put its toes
	// 5.5 cm into the nose, and Boxing_Toes' footwork by a 0.13 m stair a foot 2.4 cm into it; held
	// to feet above lockHeight, a boxer's foot shuffling back from below a 0.33 m drop onto its top
	// slid its heel 8.5 cm into the drop's face before the probe under the ankle found the top.
	// Limber's own gaits step so only as the body comes to a stop (the default scene's walk at the
	// wall, whose last step now lifts its foot earlier).
	// A foot moving back heel first with a body that moves back too (a boxer's step back on its
	// clip's root motion, as a game reports it) steps so as well: taken for a swing, it looked
	// ahead only above lockHeight and from its toe tip, and its heel went 5.1 cm into the face of
	// a 0.33 m drop it was stepping back up onto.
	const lbVec3 velH = lbProjectOnPlane(lf->footVel, f->up);
	const bool heelFirst = lbDot(velH, lf->print.toeWs) < 0.0f;
	const bool stepping = (!swinging || heelFirst) && !leg->locked && lbLengthSquared(velH) > 0.25f;
	if ((!swinging && !stepping) || def->swingLookahead <= 0.0f || (swinging && !stepping && lf->soleAboveFloor <= def->lockHeight))
	{
		leg->aheadCount = 0;
		return;
	}
	lbVec3 path = lbClampLength(lbMulSV(def->swingLookahead, velH), 3.0f * lf->print.along[lb_soleBall]);
	const float reach = lbLength(path);
	const int leadPoint = stepping && heelFirst ? lb_soleHeel : lb_soleToeTip;
	leg->aheadLead = lf->sole.along[leadPoint];
	const lbVec3 tip = lbMulAdd(base, lf->print.along[leadPoint], lf->print.toeWs);
	// The points a swinging foot found ahead last time still serve while the farthest lies within a
	// fifth of the look-ahead of this frame's path and at least 60 % of the look-ahead past the toe
	// tip: looked for again, they would land a frame's travel (about a twelfth of the look-ahead)
	// further on, over ground the kept ramp already reaches, and that ramp is held every frame all
	// the same (lbFootAheadFloor). The path follows the foot's own velocity, whose direction swings
	// from frame to frame: held within a tenth of the look-ahead of it, a foot walking the bench's
	// circles looked again on two frames in five for that alone; at 50 % the ramp up a run of
	// stairs started late. A
	// landing foot held to the front of its level looks every frame: the front moves with the level
	// it lands on.
	if (!(landing && leg->sliding && leg->slideHi < 1.0e29f) && leg->aheadCount > 0 && reach > 0.01f)
	{
		const lbVec3 dir = lbMulSV(1.0f / reach, path);
		for (int i = 0; i < leg->aheadCount; ++i)
		{
			const lbVec3 v = lbProjectOnPlane(lbSub(leg->aheadPointWs[i], tip), f->up);
			const float along = lbDot(v, dir);
			// Near the path itself, not beside it (a turn, or the swing's sway); a point of the
			// other end's path (aheadOtherMask) is beside it by that end's offset.
			if (!lbFootAheadOfOther(leg, i) && along >= 0.6f * reach && lbLengthSquared(lbMulAdd(v, -along, dir)) <= 0.04f * reach * reach)
				return;
		}
	}
	leg->aheadCount = 0;
	leg->aheadOtherMask = 0u;
	const float front = landing && leg->sliding && leg->slideHi < 1.0e29f ? leg->slideHi + lf->print.along[lb_soleToeTip] + def->edgeMargin
																		 : 1.0e30f;
	// Where the ground rises by more than an edge between two samples, the rise is found by
	// bisection and kept at the edge itself: the ramp then reaches the step's full height where the
	// step begins, not a sample spacing later.
	// Heights are compared as rises above the ground plane, so a steady slope is no edge.
	float prevH = g.valid[leadPoint] ? g.height[leadPoint] - lbPlaneHeightAt(c.point, c.normal, f->up, tip) : -1.0e30f;
	// The toe tip already over a higher level than the ankle's (a landing slid or carried onto the
	// next tread, a run's long stride): the riser lies between ankle and tip, and samples ahead of
	// the tip would start the ramp a tip-to-sample length late, the toe in the riser meanwhile. The
	// riser's own place (bisected between ankle and tip) holds the sole at that level now.
	if (prevH > def->edgeHeight && front > 1.0e29f)
	{
		lbVec3 lo = base, hi = tip;
		for (int k = 0; k < 3; ++k)
		{
			lbVec3 mid = lbLerp(lo, hi, 0.5f);
			float hm;
			if (lbFootRayHeight(in->query, &centre, mid, base, f->up, &f->castCount, &hm) &&
				hm - lbPlaneHeightAt(c.point, c.normal, f->up, mid) > def->edgeHeight)
				hi = mid;
			else
				lo = mid;
		}
		leg->aheadPointWs[leg->aheadCount] = lo;
		leg->aheadHeight[leg->aheadCount++] = g.height[leadPoint];
	}
	if (!(reach > 0.01f))
		return;
	lbFootLookAlong(leg, def, in->query, &centre, f, &c, base, tip, prevH, path, front, false);
	// A foot moving more than 30 degrees off its own line (a clip's actor turning on the spot, a
	// side step) sweeps its other end along a path of its own beside the lead's, which the lead's
	// samples do not see: turning on a stair while moving across its nose, a foot's heel came over
	// the riser with its toe tip's path still short of it, and the goal rose the whole riser in one
	// frame (the knee folding 37 degrees; CMU 01_03 walking up 0.19 m risers). That end's path is
	// looked along too, its points measured from that end.
	const int otherPoint = leadPoint == lb_soleHeel ? lb_soleToeTip : lb_soleHeel;
	const lbVec3 other = lbMulAdd(base, lf->print.along[otherPoint], lf->print.toeWs);
	const lbVec3 span = lbSub(tip, other);
	const float spanAlong = lbDot(span, path) / reach;
	if (lbLengthSquared(span) - spanAlong * spanAlong > kFootOffLineSin2 * lbLengthSquared(span))
	{
		leg->aheadOther = lf->sole.along[otherPoint];
		const float otherH = g.valid[otherPoint] ? g.height[otherPoint] - lbPlaneHeightAt(c.point, c.normal, f->up, other) : -1.0e30f;
		lbFootLookAlong(leg, def, in->query, &centre, f, &c, base, other, otherH, path, front, true);
	}
}

// The shallowest approach to the look-ahead's points (lbFootAheadFloor) for a foot faster than
// the goal may rise, as a share of the distance ahead: 0.9, 42 degrees. Shallower still (0.8, 0.7)
// lifted swings running up 0.28-0.30 m stairs so early that the leg popped 15-21 degrees (3 and 9
// runs of the terrain sweep newly over).
#define LB_FOOT_AHEAD_SLOPE_MIN 0.9f

// The lowest sole height (world, along up) the ground ahead of a swinging foot allows now: each
// kept point's ground height less its distance ahead of the toe tip along the foot's horizontal
// motion (a 45-degree approach), -inf with nothing ahead. A foot moving on faster than the goal
// may rise (maxGoalSpeed) approaches more shallowly, at the cap over its speed and no shallower
// than LB_FOOT_AHEAD_SLOPE_MIN, so its capped goal starts rising in time: on the 45-degree ramp a
// running foot reached the top corner of a trench's far wall (0.34-0.49 m high) still rising, its
// toe tip 1.1-1.5 cm inside it, and on running flights up it caught the nose above.
// The toe tip is the goal's (the animated ankle carried by the goal's kept offset across up), not
// the animation's: a foot rising at the goal's speed cap moves on across with only part of the
// animation's travel, so its goal falls behind, and measured from the animated toe tip the ramp
// rose with the treads the animation had reached, ahead of the foot. The rise outran the cap,
// the goal fell further behind, and the swing climbed to hip height against the riser (the
// imported Biped walking up 0.25-0.275 m risers on 0.26 m treads: thigh pops of 89-110 degrees).
static float lbFootAheadFloor(const lbFootLegState* leg, const lbFootDef* def, const lbFootFrame* f, const lbFootLegFrame* lf)
{
	float floorH = -1.0e30f;
	const lbVec3 velH = lbProjectOnPlane(lf->footVel, f->up);
	const lbVec3 dir = lbNormalizeOr(velH, lf->print.toeWs);
	const float speedSq = lbLengthSquared(velH), cap = def->maxGoalSpeed;
	const float slope = cap > 0.0f && speedSq > cap * cap ? lbMaxF(cap / sqrtf(speedSq), LB_FOOT_AHEAD_SLOPE_MIN) : 1.0f;
	const lbVec3 goalH = lbAdd(lf->animAnkleWs, lbProjectOnPlane(leg->goalOffsetWs, f->up));
	const lbVec3 tip = lbMulAdd(goalH, leg->aheadLead * f->modelToWorld, lf->print.toeWs);
	for (int i = 0; i < leg->aheadCount; ++i)
	{
		// A point of the other end's path is measured from that end (aheadOther along the foot).
		const lbVec3 from = lbFootAheadOfOther(leg, i) ? lbMulAdd(tip, (leg->aheadOther - leg->aheadLead) * f->modelToWorld, lf->print.toeWs)
															  : tip;
		float d = lbDot(lbProjectOnPlane(lbSub(leg->aheadPointWs[i], from), f->up), dir);
		// Passed by more than a foot: behind the swing, the footprint's business.
		if (d < -lf->print.along[lb_soleToeTip])
			continue;
		floorH = lbMaxF(floorH, leg->aheadHeight[i] - lbMaxF(d, 0.0f) * slope);
	}
	return floorH;
}

// How fast (m/s, along up, relative to the character) the floor a foot not held by the IK is kept
// above comes down once the ground under it falls away, so a foot leaving a ledge's top comes down
// over a few frames, not in one. At 2.5 the trailing knee of a walk off a 0.58 m ledge unfolded
// 15-19 degrees a frame as the foot passed the edge while the IK faded out for the fall.
#define LB_FOOT_FLOOR_RELEASE 1.5f

// How far across up (m) a posed sole point may lie from where its own floor was measured for that
// floor to hold: at a stair's nose a few centimetres decide which tread lies under it. The IK's
// goal moves a foot away from the animated one; lifted onto the tread the animated toes were over
// while its own toes stood over the one below, a foot blending out on a flight jumped a riser
// (the calf turned 17 degrees in a frame).
#define LB_FOOT_SOLE_FLOOR_REACH 0.02f

// How far (m, along up, >= 0) the deepest of the sole points p[] (world) lies under the floor
// plane (point, normal) or under its own floor soleH[k] (world, along up, measured at at[k]):
// what the pose stage lifts a faded foot by (lbFootKeepAbove). A point's own floor counts within
// LB_FOOT_SOLE_FLOOR_REACH of at[k] across up, and only within `reach` (m) above it: a floor
// higher than a leg is a wall's top beside the foot, not ground it stands over.
static float lbFootDepthUnderFloor(const lbVec3 p[lb_solePointCount], lbVec3 point, lbVec3 normal, lbVec3 up, const float* soleH,
								   const lbVec3* at, float reach)
{
	float depth = 0.0f;
	for (int k = 0; k < lb_solePointCount; ++k)
	{
		const float h = lbDot(p[k], up), own = soleH[k] - h;
		depth = lbMaxF(depth, lbPlaneHeightAt(point, normal, up, p[k]) - h);
		if (own < reach && lbLengthSquared(lbProjectOnPlane(lbSub(p[k], at[k]), up)) <=
							   LB_FOOT_SOLE_FLOOR_REACH * LB_FOOT_SOLE_FLOOR_REACH)
			depth = lbMaxF(depth, own);
	}
	return depth;
}

// Sole point k of a foot at footWs (world; its scale aside): the sole is in model units, so its
// offset from the ankle takes the model-to-world scale (lbSole_PointMs, for a model-space foot,
// applies no scale; a rig in centimetres put these points a hundred times too far out).
static inline lbVec3 lbFootSolePointWs(const lbSole* sole, const lbTransform* footWs, float modelToWorld, lbSolePoint k)
{
	return lbAdd(footWs->p, lbQuatRotate(footWs->q, lbMulSV(modelToWorld, lbMulAdd(sole->under, sole->along[k], sole->toeFlat))));
}

// How far (m, along up) the pose stage lifts the animated foot at animFootWs (world) to keep every
// sole point above the floor the leg keeps (lbFootKeepFloor, lbFootKeepAbove); 0 without one.
LB_COLD static float lbFootFloorLift(const lbFootLegState* leg, const lbSole* sole, lbTransform animFootWs, float modelToWorld,
									lbVec3 up, float reach)
{
	if (!leg->hasFloor)
		return 0.0f;
	lbVec3 p[lb_solePointCount];
	for (int k = 0; k < lb_solePointCount; ++k)
		p[k] = lbFootSolePointWs(sole, &animFootWs, modelToWorld, (lbSolePoint)k);
	return lbFootDepthUnderFloor(p, lbMulAdd(leg->floorPointWs, -leg->floorDrop, up), leg->floorNormalWs, up, leg->floorSoleH,
								 leg->floorSeenWs, reach);
}

// The floor a foot is kept above while the character's IK is out or fading (airborne, landing;
// lbFootTarget::floorPointWs): the ground plane under it, taken at once where it rises, lowered at
// LB_FOOT_FLOOR_RELEASE (relative to the character) where it falls away, measured under the
// animated ankle; none while the IK is fully in, or once the floor has come down a leg's length
// with no ground found.
// Out of line and cold: it runs only while the character is airborne or landing, and kept inline
// it grew the hot per-leg loop around it.
LB_COLD static void lbFootKeepFloor(lbFootLegState* leg, const lbFootState* state, lbFootFrame* f, const lbFootDef* def,
							const lbSceneQuery* query, lbFootIkMode ikMode, const lbFootLegFrame* lf, const lbHumanoid* humanoid,
							int side, lbFootTarget* ft)
{
	const lbVec3 up = f->up;
	const lbSole* sole = &lf->sole;
	const lbTransform animFootWs = lf->animFootWs;
	const bool had = leg->hasFloor;
	// Called only while the character's IK as a whole is out or fading: a grounded leg blending in
	// is the stepping's own business (a floor there moved locked feet on a run down tall stairs).
	// A landing keeps the floor: the foot's goal starts from above it (lbFootGoal).
	if (f->snap && !f->landed)
		leg->hasFloor = false;
	else
	{
		const lbVec3 at = lbFootSolePointWs(sole, &animFootWs, f->modelToWorld, lb_soleUnderAnkle);
		// The floor comes down at the release speed relative to the character, which may itself be
		// falling faster: a foot held at a ledge's height while the body drops past it would hang
		// there until the landing.
		const float sink = state->initialized ? lbDot(lbSub(state->prevCharacterWs.p, f->cw.p), up) : 0.0f;
		const float fall = LB_FOOT_FLOOR_RELEASE * f->dt + lbMaxF(sink, 0.0f);
		if (leg->hasFloor)
		{
			const float kept = lbPlaneHeightAt(leg->floorPointWs, leg->floorNormalWs, up, at) - leg->floorDrop;
			const float next = leg->grounded ? lbPlaneHeightAt(leg->groundPointWs, leg->groundNormalWs, up, at) : -1.0e30f;
			if (next >= kept - fall)
			{
				leg->floorPointWs = leg->groundPointWs;
				leg->floorNormalWs = leg->groundNormalWs;
				leg->floorDrop = 0.0f;
			}
			else
			{
				leg->floorDrop += fall;
				const lbLegAxes* ax = &humanoid->legAxes[side];
				if (!leg->grounded && leg->floorDrop > (ax->thighLength + ax->calfLength) * f->modelToWorld)
					leg->hasFloor = false;
			}
		}
		else if (leg->grounded)
		{
			leg->hasFloor = true;
			leg->floorPointWs = leg->groundPointWs;
			leg->floorNormalWs = leg->groundNormalWs;
			leg->floorDrop = 0.0f;
		}
		// Each sole point's own floor: the plane is the ground under the ankle, and a foot across a
		// stair's nose (CMU 01_03's actor stepping down beside a flight, the IK fading as its body
		// dropped) had its toe tip over the tread above while the plane ran through the one below:
		// the tip stood 1.1-2.6 cm in that tread (5 runs of the clip sweep). A ray under each point
		// of the animated foot, each floor taken and lowered by the plane's rule. Every frame: the
		// pose stage takes a point's floor only near where it was measured, and a foot falling past
		// a ledge moves more than that between probing frames (kept every other frame, the lift came
		// and went and the pop over the edge grew 5.2 -> 7.5 degrees). Only while the IK is fading
		// in or out of a fall, a landing or a climb (its mode lb_footIkEnabled): a clamped IK's alpha
		// stays under 1 for good, and a crowd so clamped would cast eight rays more a frame.
		if (leg->hasFloor)
		{
			const bool look = query && f->active && ikMode == lb_footIkEnabled;
			for (int k = 0; k < lb_solePointCount; ++k)
			{
				// The ground under the point this frame, -1e30 for none.
				float g = -1.0e30f;
				if (look)
				{
					const lbVec3 pk = lbFootSolePointWs(sole, &animFootWs, f->modelToWorld, (lbSolePoint)k);
					leg->floorSeenWs[k] = pk;
					const lbQueryInput probe = lbFootProbe(def, pk, f->pelvisWs, up, lf->ankleH + def->traceBelow);
					// A ray that starts inside a solid (a point beside a wall taller than the probe
					// reaches above it) answers its start's height: no ground the foot stands over.
					float h;
					if (lbFootRayHeight(query, &probe, pk, pk, up, &f->castCount, &h) && h < lbDot(probe.start, up) - 1.0e-4f)
						g = h;
				}
				if (!had || g >= leg->floorSoleH[k] - fall)
					leg->floorSoleH[k] = g;
				else
					leg->floorSoleH[k] -= fall;
			}
		}
	}
	ft->hasFloor = leg->hasFloor;
	ft->floorPointWs = lbMulAdd(leg->floorPointWs, -leg->floorDrop, up);
	ft->floorNormalWs = leg->floorNormalWs;
	for (int k = 0; k < lb_solePointCount; ++k)
	{
		ft->floorSoleH[k] = leg->hasFloor ? leg->floorSoleH[k] : -1.0e30f;
		ft->floorSoleAtWs[k] = leg->floorSeenWs[k];
	}
}

// Step 4: the ground under the ankle (height along up, with the footprint's clearance for a foot
// in the air), the tilt toward the ground normal and whether the ground is steeper than the
// slope limit. Feet keep their full alpha on steep ground: a fading IK would leave the animated
// foot inside the slope; the game reads `steep` and `unsupported` instead.
static void lbFootGroundTargets(lbFootLegState* leg, const lbFootDef* def, const lbFootFrame* f, lbFootLegFrame* lf)
{
	lf->offsetTarget = f->floorH;
	lf->tiltTarget = lbQuat_identity;
	float alphaTarget = 0.0f;
	leg->steep = false;
	if (leg->grounded)
	{
		lf->offsetTarget = lbPlaneHeightAt(leg->groundPointWs, leg->groundNormalWs, f->up, lbAdd(lf->animAnkleWs, leg->shiftWs));
		float slope;
		lf->tiltTarget = lbFootTiltKept(leg, &f->up, &leg->groundNormalWs, def->normalWeight, def->maxFootAngle, &slope);
		leg->steep = slope > def->slopeLimit;
		alphaTarget = 1.0f;
	}
	if (f->snap)
	{
		leg->alpha = alphaTarget;
		return;
	}
	if (leg->alpha != alphaTarget)
	{
		float step = lbFootInterpAlpha(f->memo, lb_footMemoGoal, f->dt, def->goalSpeed);
		leg->alpha = lbClampF(leg->alpha + (alphaTarget - leg->alpha) * step, 0.0f, 1.0f);
	}
}

// The normal of the plane the toes of a foot on the ground bend onto (world, unit): the ground
// normal, leaned back about the ball as far as the last probe found the ground under the toe tip
// risen above the ground plane, beyond any rise under the ball (a rock under the toes, a riser the
// tip reaches), at most 45 degrees. Bent onto the plane under the ankle alone, the toes of a CMU
// actor locked on a rock went 1.1 cm into it. The lean fades out as the rise goes from one to two
// ball-to-tip spans and is none beyond: ground that high over the toes is a riser's top, and toes
// bent up toward it meet its face (leaned 45 degrees toward a 0.16 m drop's upper level, the toes
// of CMU 01_03 locked at its foot, walking backward, bent 2.2 cm into the face and swung between
// bends 100 degrees apart from one frame to the next).
static LB_NOINLINE lbVec3 lbFootToeGroundNormal(const lbFootLegState* leg, const lbFootFrame* f, const lbFootLegFrame* lf)
{
	const lbVec3 n = leg->groundNormalWs, up = f->up;
	const unsigned need = (1u << lb_soleBall) | (1u << lb_soleToeTip);
	const float span = lf->print.along[lb_soleToeTip] - lf->print.along[lb_soleBall];
	if ((leg->printValid & need) != need || !(span > 1.0e-4f))
		return n;
	const lbVec3 ankle = leg->locked ? leg->lockAnkleWs : lbAdd(lf->animAnkleWs, leg->shiftWs);
	const lbVec3 ballAt = lbMulAdd(ankle, lf->print.along[lb_soleBall], lf->print.toeWs);
	const lbVec3 tipAt = lbMulAdd(ankle, lf->print.along[lb_soleToeTip], lf->print.toeWs);
	const float riseBall = leg->printHeight[lb_soleBall] - lbPlaneHeightAt(leg->groundPointWs, n, up, ballAt);
	const float rise = leg->printHeight[lb_soleToeTip] - lbPlaneHeightAt(leg->groundPointWs, n, up, tipAt) - lbMaxF(riseBall, 0.0f);
	if (!(rise > 0.001f) || !(rise < 2.0f * span))
		return n;
	const lbVec3 t = lbNormalizeOr(lbProjectOnPlane(lf->print.toeWs, n), lbVec3_zero);
	if (lbLengthSquared(t) == 0.0f)
		return n;
	return lbNormalize(lbMulAdd(lbMulSV(span, n), -lbMinF(rise, 2.0f * span - rise), t));
}

// Step 5: smoothing of the ground height (a critically damped spring) and the tilt.
static void lbFootSmooth(lbFootLegState* leg, const lbFootDef* def, lbFootFrame* f, const lbFootLegFrame* lf, float target)
{
	// Leaned only for toes that bend (a foot planted, locked or still easing its bend out).
	const lbVec3 n = !leg->grounded ? f->up
				   : lf->planted || leg->locked || leg->toeBend > 0.0f ? lbFootToeGroundNormal(leg, f, lf)
																		 : leg->groundNormalWs;
	// While the bend comes in (its own weight easing the toes in), a lean within 20 degrees of the
	// ground plane (a rock under the tip, not a riser) is taken at once: a landing's footprint saw
	// the rock two frames before the plant, and the eased lean left the plane 1 cm under it as the
	// toes began to bend (walking over 0.45 m rocks). Steeper leans taken at once turned the toes of
	// walks and runs up stairs 15-17 degrees in a frame.
	if (f->snap || lbLengthSquared(leg->toeNormalWs) < 0.5f ||
		((lf->planted || leg->locked) && leg->toeBend < 1.0f && lbDot(n, leg->groundNormalWs) > 0.94f))
		leg->toeNormalWs = n;
	else if (f->dt > 0.0f)
	{
		// The rotation's fraction, shared with the tilt below and the other leg.
		if (f->rotationStep < 0.0f)
			f->rotationStep = lbFootInterpAlpha(f->memo, lb_footMemoRotation, f->dt, def->rotationSpeed);
		leg->toeNormalWs = lbNormalizeOr(lbLerp(leg->toeNormalWs, n, f->rotationStep), n);
	}
	if (f->snap)
	{
		leg->offset = target;
		leg->offsetSpeed = 0.0f;
		leg->tilt = lf->tiltTarget;
		return;
	}
	// Rising ground under a foot is followed twice as fast as falling ground: lagging behind a
	// rising step puts the foot inside it, lagging behind a drop only lets it hover.
	float speed = target > leg->offset ? 2.0f * def->goalSpeed : def->goalSpeed;
	// Critically damped spring (closed-form step, Game Programming Gems 4, 1.10): like the
	// exponential interp-to but starting from the current speed, so a sudden change of the ground
	// under a swinging foot does not jump the foot in its first frame.
	float omega = 2.0f * speed, x = omega * f->dt;
	float decay = 1.0f / (1.0f + x + 0.48f * x * x + 0.235f * x * x * x);
	float change = leg->offset - target;
	float temp = (leg->offsetSpeed + omega * change) * f->dt;
	leg->offsetSpeed = (leg->offsetSpeed - omega * temp) * decay;
	leg->offset = target + (change + temp) * decay;
	const lbQuat t = lf->tiltTarget;
	if (f->dt > 0.0f && (leg->tilt.x != t.x || leg->tilt.y != t.y || leg->tilt.z != t.z || leg->tilt.w != t.w))
	{
		if (f->rotationStep < 0.0f)
			f->rotationStep = lbFootInterpAlpha(f->memo, lb_footMemoRotation, f->dt, def->rotationSpeed);
		leg->tilt = lbQuatSlerp(leg->tilt, t, f->rotationStep);
	}
}

// The share (0..1) of a free foot's shift kept this frame: all of it while the foot lifts off
// below slideHeight, or (a gap's near side) eased out by edgeHeight; else it fades at goalSpeed
// (none across a snap). A foot below its target height keeps it all.
static float lbFootLiftOffHold(const lbFootLegState* leg, const lbFootDef* def, const lbFootFrame* f, const lbFootLegFrame* lf,
							   float smoothTarget)
{
	if (!(leg->offset > smoothTarget - 0.02f))
		return 1.0f;
	float hold = 0.0f;
	if (lf->soleRate > 0.0f && leg->slideGap && leg->slideHi < 1.0e29f)
		hold = lbSmoothStep(lbClampF(1.0f - lf->soleAboveFloor / def->edgeHeight, 0.0f, 1.0f));
	else if (lf->soleRate > 0.0f && lf->soleAboveFloor < def->slideHeight)
		hold = 1.0f;
	if (hold >= 1.0f)
		return 1.0f;
	return f->snap ? 0.0f : 1.0f - (1.0f - hold) * lbFootInterpAlpha(f->memo, lb_footMemoGoal, f->dt, def->goalSpeed);
}

// Step 5b: a landing foot eases toward its slide. A plant's slide carries into the swing and fades
// once the foot has risen clear of what lies ahead, so lifting off never drags the toe back
// into a riser.
static void lbFootEaseSlide(lbFootLegState* leg, const lbFootDef* def, const lbFootFrame* f, const lbFootLegFrame* lf, float smoothTarget)
{
	// A plant's side shift off a riser running beside the foot (lbFootSideShift) holds, whole,
	// until the lifting sole is above the level beside it: dropped at the release (a slide's
	// reset, or faded with the rest of the shift), a foot turning on a flight shuffled back toward
	// the riser it had been moved off and went 2.5 cm into it. Once risen clear it is part of the
	// shift like any other.
	bool keepAcross = false;
	if (!leg->locked && leg->acrossRise > 0.0f)
	{
		// A landing's is probed afresh (lbFootProbeLeg) and holds between its probes while the sole
		// is below the riser's top, rising or not: a captured foot stepping sideways up onto the
		// tread above rose as it came on, the move was let go between two probes, and the foot went
		// over onto the riser's line in a frame, its side 4 cm into the riser (CMU 01_03 up 0.127 m
		// risers). A lift-off's holds while the foot is still about its lock, not through a swing
		// that carries it on along the riser.
		const bool comingDown = !(lf->soleRate > 0.0f) && lf->soleAboveFloor < def->slideHeight;
		const float travel = lbLength(lbProjectOnPlane(lbSub(lf->animAnkleWs, leg->lockAnimAnkleWs), f->up));
		keepAcross = comingDown || (lf->soleAboveFloor < leg->acrossRise + def->edgeMargin && (travel < def->maxPlantShift || leg->sliding));
		if (!keepAcross)
		{
			leg->acrossRise = 0.0f;
			leg->acrossWs = lbVec3_zero;
		}
	}
	// A hold below the tread above (riseHeld) lasts while the landing does, until the smoothed
	// ground is within 5 mm of the tread, and through the blend into a lock.
	if (leg->riseHeld && (leg->locked ? leg->lockAlpha >= 1.0f : !leg->sliding || leg->offset >= leg->riseHoldH - 0.005f))
		leg->riseHeld = false;
	if (!leg->locked && leg->sliding)
	{
		// Where the animated foot is along the slide axis, held within the level's range and no
		// further than the longest slide from the animation. Against a bound the foot's world place
		// eases onto the bound (a fixed edge: no lag however fast the animation moves on); with
		// no bound in the way the slide itself eases back to none.
		const lbVec3 axis = leg->slideAxisWs;
		const float animAt = lbDot(lf->animAnkleWs, axis), at = animAt + lbDot(leg->shiftWs, axis);
		// Past a riser's bound the toe is in the riser: the foot goes back onto the bound at
		// once (the goal's own speed limit still smooths the motion), not eased over frames.
		const bool past = leg->slideHiRiser && at > leg->slideHi;
		const float k = f->snap || past ? 1.0f : lbFootInterpAlpha(f->memo, lb_footMemoGoal2, f->dt, 2.0f * def->goalSpeed);
		float target = lbClampF(animAt, lbMinF(leg->slideLo, leg->slideHi), leg->slideHi);
		if (leg->riseHeld)
			target = lbMinF(target, leg->riseHoldAt);
		float want = target == animAt ? (1.0f - k) * (at - animAt) : lbLerpF(at, target, k) - animAt;
		const float reach = leg->slideGap ? 2.0f * def->maxPlantShift
										  : (lbFootTurnedHold(leg, def, lf) || leg->riseHeld ? LB_FOOT_RISER_HOLD
											 : leg->slideBlind				  ? LB_FOOT_BLIND_HOLD
																			  : 1.0f) *
												def->maxPlantShift;
		want = lbClampF(want, -reach, reach);
		leg->shiftWs = lbMulAdd(keepAcross ? leg->acrossWs : lbVec3_zero, want, axis);
	}
	// Lifting off, the slide holds until the foot is above slideHeight: the foot leaves from
	// where it stood, and an animation carrying it back toward a riser does not drag the heel
	// into it. A foot held back on a gap's near side lets go of it as its sole rises to
	// edgeHeight (the hold eased out over that rise): held to slideHeight, that leg stretched
	// behind while the other foot landed on the far side, and the other foot went 15 mm into the
	// ground (a 0.5 m gap 2.46 m ahead, both rigs); let go on the ground, the toe-off slid the
	// ball out over the gap at the rim's height (a 0.31 m gap 1.92 m ahead on the mannequin:
	// support 0.3); held to edgeHeight and then let go, the calf popped 16 degrees.
	else if (!leg->locked && lbLengthSquared(leg->shiftWs) > 0.0f)
	{
		const float hold = lbFootLiftOffHold(leg, def, f, lf, smoothTarget);
		leg->shiftWs = keepAcross ? lbMulAdd(leg->acrossWs, hold, lbSub(leg->shiftWs, leg->acrossWs)) : lbMulSV(hold, leg->shiftWs);
	}
}

// lbFootSideShift's probe across the sole at `along` (model units along the foot from the point
// under the ankle), of ground height h0 there: the move, zero where no single side is off.
// `w` is half the foot's width (m), `side` the unit direction across it.
static lbVec3 lbFootSideShiftAt(const lbFootDef* def, const lbSceneQuery* query, const lbQueryInput* proto, lbVec3 base,
								const lbFootPrint* fp, const lbFootCast* c, const lbFootGround* g, lbVec3 up, int* castCount,
								float w, lbVec3 side, float along, float h0, float* outRise)
{
	const lbFootPrint across = { { 0.0f, 0.0f, 0.0f, 0.0f }, side };
	lbFootEdgeProbe p = { query, proto, lbMulAdd(base, along, fp->toeWs), up, &across, 0.0f, def->edgeHeight,
						  def->edgeMargin, castCount, def->maxPlantShift, NULL, false, 0.0f, 0.0f, -1.0e30f };
	p.slopeAlong = lbFootRiseAlong(side, c->normal, up);
	int off = 0, offSide = 0;
	float offRise = 0.0f;
	for (int k = -1; k <= 1; k += 2)
	{
		float h = 0.0f;
		const bool valid = lbFootRayHeight(query, proto, lbMulAdd(p.base, (float)k * w, side), base, up, castCount, &h);
		if (lbFootClass(&p, valid, h, h0, (float)k * w, 0.0f) != 0)
		{
			++off;
			offSide = k;
			offRise = valid ? lbMaxF(h - h0, 0.0f) : 0.0f;
		}
	}
	if (off != 1)
		return lbVec3_zero;
	const lbVec3 heel = lbMulAdd(base, fp->along[lb_soleHeel], fp->toeWs);
	float h = 0.0f;
	const bool valid = lbFootRayHeight(query, proto, lbMulAdd(heel, (float)offSide * w, side), base, up, castCount, &h);
	if (lbFootClass(&p, valid, h, g->height[lb_soleHeel], (float)offSide * w, 0.0f) == 0)
		return lbVec3_zero;
	const float edge = lbFootFindEdge(&p, 0.0f, (float)offSide * w, h0, 0.0f);
	*outRise = offRise;
	return lbMulSV(-(float)offSide * lbMaxF(w + def->edgeMargin - lbAbsF(edge), 0.0f), side);
}

// The slide across a plant (world, normal to up and to the foot) that keeps its whole width on the
// level of its centre line where an edge runs along the foot: the footprint's samples lie on that
// line, and a foot set along a nose (walking along a tread, turning on a flight) with its line just
// inside the tread above hung half its width over the drop, or with its line just past the nose
// stood half inside the step. The ground half the foot's width either side of the ball (and, where
// that finds no edge, of the point under the ankle) is probed;
// where one side is off the level (more than edgeHeight from it, or no ground) and so is that side
// of the heel (the edge runs along the foot, not across it as on a flight met at an angle, whose
// bounds along the foot hold it), the edge is found by bisection there and the foot moves away
// from it until that side stands edgeMargin clear. Not where both sides are off the level (a beam
// narrower than the foot): there the foot stays where it is.
static lbVec3 lbFootSideShift(const lbFootDef* def, const lbSceneQuery* query, const lbQueryInput* proto, lbVec3 base,
							  const lbFootPrint* fp, const lbFootCast* c, const lbFootGround* g, lbVec3 up, int* castCount, float* outRise)
{
	*outRise = 0.0f;
	const float w = LB_FOOT_HALF_WIDTH * fp->along[lb_soleBall];
	const lbVec3 side = lbNormalizeOr(lbCross(up, fp->toeWs), lbVec3_zero);
	if (!(w > 0.0f) || lbLengthSquared(side) == 0.0f || !g->valid[lb_soleBall] || !g->valid[lb_soleHeel])
		return lbVec3_zero;
	const lbVec3 atBall = lbFootSideShiftAt(def, query, proto, base, fp, c, g, up, castCount, w, side, fp->along[lb_soleBall],
											 g->height[lb_soleBall], outRise);
	if (lbLengthSquared(atBall) > 0.0f || !g->valid[lb_soleUnderAnkle])
		return atBall;
	// Then under the ankle, where the sole's line lies on the ball's level there (not a foot across
	// a nose, its ankle over the tread below): a foot turned a little away from a riser beside it
	// (turning on a flight) has its ball clear of it and its ankle and heel near it, and the calf
	// rising from the ankle, leaning toward the body, went 2.1-2.5 cm into the riser.
	const float step = g->height[lb_soleUnderAnkle] - g->height[lb_soleBall] + lbFootRiseAlong(fp->toeWs, c->normal, up) * fp->along[lb_soleBall];
	if (!(lbAbsF(step) <= def->edgeHeight))
		return atBall;
	return lbFootSideShiftAt(def, query, proto, base, fp, c, g, up, castCount, w, side, 0.0f, g->height[lb_soleUnderAnkle], outRise);
}

// A plant probed afresh where a slide puts it (`at`, world): the centre cast and the footprint
// there into *c and *g. False, both unchanged, where the cast finds no ground.
static bool lbFootPlantProbeAt(const lbFootDef* def, const lbSceneQuery* query, lbFootFrame* f, const lbFootLegFrame* lf, lbVec3 at,
							   lbFootCast* c, lbFootGround* g)
{
	const lbQueryInput probe = lbFootProbe(def, at, f->pelvisWs, f->up, lf->ankleH + def->traceBelow);
	const lbFootCast hit = lbFootCastDown(query, &probe, f->up, &f->castCount);
	if (!hit.hit)
		return false;
	*c = hit;
	lbFootSampleGround(query, &probe, at, &lf->print, c, f->up, &f->castCount, g);
	lbFootOffEdge(c, g, f->up, def->edgeHeight);
	return true;
}

// Step 6: foot locking. A planted foot locks where it belongs on the ground: slid along the foot
// onto one level (off a stair nose, out of a riser, back from a gap) by fresh probes, cleared
// against the ground under its whole sole; it releases when the animation takes it away.
static LB_ALWAYS_INLINE void lbFootLock(lbFootLegState* leg, const lbFootDef* def, const lbFootSenseInput* in, lbFootFrame* f,
					   lbFootLegFrame* lf)
{
	const lbVec3 up = f->up;
	if (!(def->footLock && f->active && lf->planted))
	{
		leg->locked = false;
		return;
	}
	// Where a planted foot belongs: on the ground itself (the unsmoothed goal), not where the
	// smoothing has got to, and without the animation's small residual lift.
	lbQuat plantRot = lbIkQuatMul(lf->tiltTarget, lf->animRot);
	// A foot planted short of the level its landing chose (held back by the longest slide) leaves
	// that level's range behind: carried into the lift-off, the slide would pull the toe forward
	// into the riser ahead. The riser bound ends with the plant. Not a gap's far side: short of it
	// lies the gap, and the plant goes to the range (below); dropped, the foot planted where its
	// slide had got to (walking over a 0.48 m gap 0.53 m deep, the far side chosen in the frame
	// before the plant: on the pit's floor, the other foot then 12 cm into the far wall). Nor a
	// landing held below the tread above (riseHeld): its plant goes onto that tread's range.
	if (!leg->slideGap && !leg->riseHeld)
	{
		const float atLock = lbDot(lbAdd(lf->animAnkleWs, leg->shiftWs), leg->slideAxisWs);
		if (atLock < leg->slideLo - def->edgeMargin)
			leg->sliding = false;
	}
	// The longest slide the plant keeps: as far as its landing's hold reached (a landing held short
	// of a riser up to LB_FOOT_RISER_HOLD times maxPlantShift back, one with no ground in reach
	// LB_FOOT_BLIND_HOLD). Clamped to maxPlantShift, the plant of a landing turning on 0.237 m
	// risers moved the foot 6.6 cm back toward the animation, its toe tip met the riser ahead, and
	// the sole's clearance lifted the locked foot 19 cm onto the tread above, its heel and ball over
	// the tread below; running up 0.183 m risers, 18 cm with the toe tip 3.5 mm onto the tread.
	const float plantReach = (leg->slideGap				  ? 2.0f
							  : leg->sliding && leg->slideHiRiser ? LB_FOOT_RISER_HOLD
							  : leg->sliding && leg->slideBlind	  ? LB_FOOT_BLIND_HOLD
																  : 1.0f) *
							 def->maxPlantShift;
	leg->slideHiRiser = false;
	// A plant within a few frames of its lock's release (the lock still holds the foot at least
	// half: lockAlpha >= 0.5), the animation still within the release distance and angle of that
	// lock, takes the lock up again instead of locking afresh. Motion capture jitters: a planted
	// foot's speed passes lockSpeed for a frame (0.35 m/s for one frame between 0.06 and 0.18 in a
	// CMU walk), the lock lets go, and a fresh lock the next frame took the animation's rotation and
	// place of that moment, 1.6 cm and 9 degrees from the lock still blended in: the toes turned
	// 16 degrees in the frame. Limber's own gaits never plant again that soon. Not across a snap (a
	// teleport, a landing): the old lock's place is not this frame's ground.
	if (!leg->locked && !f->snap && leg->lockAlpha >= 0.5f &&
		lbLength(lbProjectOnPlane(lbSub(lf->animAnkleWs, leg->lockAnimAnkleWs), up)) <= def->lockReleaseDistance &&
		!lbFootTurnedBeyond(f->memo, plantRot, leg->lockRotWs, def->lockReleaseAngle))
	{
		leg->locked = true;
		return;
	}
	if (!leg->locked)
	{
		// Where the plant goes unless the fresh probes below find better (a foot already locked
		// needs only its rotation, for the release).
		float groundH = lbPlaneHeightAt(leg->groundPointWs, leg->groundNormalWs, up, lf->animAnkleWs);
		lbVec3 plantAnkle = lbAdd(lbMulAdd(lf->animAnkleWs, groundH + lf->ankleH - lbDot(lf->animAnkleWs, up), up),
								  lbMulSV(lf->ankleH, lbSub(lbIkQuatRotate(lf->tiltTarget, up), up)));
		if (in->query && def->footprintTraces)
		{
			// The landing place, probed afresh: slide onto one level, then stand on the ground found
			// there, cleared against the ground under every sole sample.
			// Across a gap the foot plants where its range puts it, not short of it where the
			// slide has got to: the place it has reached may still be over the gap. So does a
			// landing held below the tread above (riseHeld): where it was held, its heel is over
			// the tread below.
			lbVec3 shift0 = lbProjectOnPlane(leg->shiftWs, up);
			if ((leg->slideGap || leg->riseHeld) && leg->sliding)
			{
				const float animAt = lbDot(lf->animAnkleWs, leg->slideAxisWs);
				shift0 = lbMulSV(lbClampF(animAt, lbMinF(leg->slideLo, leg->slideHi), leg->slideHi) - animAt, leg->slideAxisWs);
			}
			const lbVec3 base0 = lbAdd(lf->animAnkleWs, shift0);
			lbVec3 base = base0;
			const lbQueryInput centre = lbFootProbe(def, base, f->pelvisWs, up, lf->ankleH + def->traceBelow);
			lbFootCast c = lbFootCastDown(in->query, &centre, up, &f->castCount);
			if (c.hit)
			{
				lbFootGround g;
				lbFootSampleGround(in->query, &centre, base, &lf->print, &c, up, &f->castCount, &g);
				lbFootOffEdge(&c, &g, up, def->edgeHeight);
				// Where the landing already slid the foot, plus what the fresh probes still ask,
				// within the longest slide.
				float lo, hi, levelH;
				bool riser;
				// The slide already made counts toward the longest (not across a gap, whose slide
				// may reach twice as far).
				const float used = leg->slideGap ? 0.0f : lbDot(lbSub(base0, lf->animAnkleWs), lf->print.toeWs);
				float more = lbFootSlideAt(def, in->query, &centre, base, &lf->print, &c, &g, up, &f->castCount, NULL, true, lf->rimH, lf->deepH, used,
										   &lo, &hi, &riser, &levelH, NULL);
				// Back from a drop ahead (a gap's or a nose's edge the ball would overhang) the plant
				// reaches as far as a riser's hold.
				const float reachHere =
					more < 0.0f && !riser && hi < 1.0e29f ? lbMaxF(plantReach, LB_FOOT_RISER_HOLD * def->maxPlantShift) : plantReach;
				lbVec3 slid = lbClampLength(lbMulAdd(lbSub(base0, lf->animAnkleWs), more, lf->print.toeWs), reachHere);
				base = lbAdd(lf->animAnkleWs, slid);
				if (lbDistance(base, base0) > 1.0e-4f && !lbFootPlantProbeAt(def, in->query, f, lf, base, &c, &g))
					base = base0; // nothing there after all: keep the foot where it was
				// Then across the foot where an edge runs along it (lbFootSideShift): probed there
				// afresh, the plant stands on the level with its whole width. Every plant probes
				// its ball's sides (two rays): gated on an edge found along the foot, five turns on
				// stairs of the terrain sweep and three clip runs stayed over, the foot along a nose
				// with nothing crossing its line.
				{
					float rise;
					const lbVec3 across = lbFootSideShift(def, in->query, &centre, base, &lf->print, &c, &g, up, &f->castCount, &rise);
					if (lbLengthSquared(across) > 0.0f && lbFootPlantProbeAt(def, in->query, f, lf, lbAdd(base, across), &c, &g))
					{
						base = lbAdd(base, across);
						// Off a riser, the lift-off keeps it (lbFootEaseSlide), with the landing's.
						if (rise > 0.0f)
						{
							leg->acrossWs = lbAdd(leg->acrossWs, across);
							leg->acrossRise = lbMaxF(leg->acrossRise, rise);
						}
					}
				}
				leg->groundPointWs = c.point;
				leg->groundNormalWs = c.normal;
				leg->bearingWs = c.touch;
				float slope;
				lf->tiltTarget = lbFootTiltKept(leg, &up, &c.normal, def->normalWeight, def->maxFootAngle, &slope);
				plantRot = lbIkQuatMul(lf->tiltTarget, lf->animRot);
				groundH = lbPlaneHeightAt(c.point, c.normal, up, base);
				plantAnkle = lbAdd(lbMulAdd(base, groundH + lf->ankleH - lbDot(base, up), up),
								   lbMulSV(lf->ankleH, lbSub(lbIkQuatRotate(lf->tiltTarget, up), up)));
				plantAnkle = lbFootClearSole(plantAnkle, plantRot, f->modelToWorld, &lf->planeSole, c.point, c.normal, up);
				if (lf->toeCurl > 0.0f)
					plantAnkle = lbFootClearTip(plantAnkle, plantRot, f->modelToWorld, &lf->sole, c.point, c.normal, up, lf->toeCurl * f->modelToWorld);
				plantAnkle = lbFootClearPrint(plantAnkle, plantRot, f->modelToWorld, &lf->sole, g.height, lbFootPrintMask(&g), NULL, c.point,
											  c.normal, def->edgeHeight, up, 0.0f, lf->toeCurl * f->modelToWorld);
				plantAnkle = lbFootClearUnder(in->query, &centre, plantAnkle, plantRot, f->modelToWorld, &lf->sole, &g, def->edgeHeight, up,
											  &f->castCount);
				// The clearance a foot lifting off keeps until its next probe, over the plane it
				// now stands on: its landing's, measured where the foot came down before the slide
				// moved it, is stale behind the ankle. Lifting off from a trench's floor against its
				// near wall, the landing's heel sample on the rim above raised the released foot
				// toward the rim and its stretched knee folded 30 degrees in a frame. Ground the
				// landing found ahead of the ankle (a riser its toes meet as it lifts) still counts.
				{
					float plane[lb_solePointCount];
					lbFootPlaneHeights(c.point, c.normal, up, base, lf->print.along, lf->print.toeWs, plane);
					float ahead = 0.0f;
					for (int k = lb_soleBall; k <= lb_soleToeTip; ++k)
						if (leg->printValid & (1u << k))
							ahead = lbMaxF(ahead, leg->printHeight[k] - plane[k]);
					leg->clearance = lbMaxF(lbFootPrintClearance(&g, plane), lbMinF(leg->clearance, ahead));
				}
				lbFootKeepPrint(leg, &g, lf->print.toeWs);
				leg->shiftWs = lbProjectOnPlane(lbSub(base, lf->animAnkleWs), up);
				// A plant its fresh probes put outside the range its landing held it in (onto the
				// tread below the level the landing kept it on) ends that landing's slide: carried
				// into the lift-off, the stale range pulled the released foot back toward that
				// level, through the riser between (running down 0.229 m risers on mixamo: the
				// heel 1.8 cm in the riser behind; not across a gap, whose range the plant goes to).
				if (leg->sliding && !leg->slideGap)
				{
					const float at = lbDot(base, leg->slideAxisWs);
					if (at > leg->slideHi + def->edgeMargin || at < leg->slideLo - def->edgeMargin)
						leg->sliding = false;
				}
			}
		}
		else
		{
			plantAnkle = lbFootClearSole(plantAnkle, plantRot, f->modelToWorld, &lf->planeSole, leg->groundPointWs,
										 leg->groundNormalWs, up);
			if (lf->toeCurl > 0.0f)
				plantAnkle = lbFootClearTip(plantAnkle, plantRot, f->modelToWorld, &lf->sole, leg->groundPointWs, leg->groundNormalWs, up,
											lf->toeCurl * f->modelToWorld);
			leg->shiftWs = lbVec3_zero;
			leg->acrossWs = lbVec3_zero;
			leg->acrossRise = 0.0f;
		}
		// Lock there and blend into it quickly: the foot settles on the surface within a few
		// frames and then stays exactly there.
		leg->locked = true;
		leg->lockAnkleWs = plantAnkle;
		leg->lockRotWs = plantRot;
		leg->lockAnimAnkleWs = lf->animAnkleWs;
		if (f->snap)
			leg->lockAlpha = 1.0f;
		return;
	}
	// Release when the animation takes the foot away: lifts it, carries it across the ground or
	// turns it. Travel is measured from where the animation had the foot when it locked, so a plant
	// slid onto a tread does not count as travel. The ground is static (lbSceneQuery has no moving
	// shapes): a new reading under the moving animated foot, which may see the next step, never
	// releases a lock.
	lbVec3 d = lbSub(lf->animAnkleWs, leg->lockAnimAnkleWs);
	if (lbLength(lbProjectOnPlane(d, up)) > def->lockReleaseDistance ||
		lbFootTurnedBeyond(f->memo, plantRot, leg->lockRotWs, def->lockReleaseAngle))
		leg->locked = false;
}

// One frame's move of a goal under the speed cap (m) that goes `across` (world, normal to up) and
// `rise` along up, across first: the move across up to the cap, then what the cap leaves along up.
static inline lbVec3 lbFootCapAcrossFirst(lbVec3 across, float rise, float cap, lbVec3 up)
{
	const lbVec3 move = lbClampLength(across, cap);
	const float left = sqrtf(lbMaxF(cap * cap - lbLengthSquared(move), 0.0f));
	return lbMulAdd(move, lbClampF(rise, -left, left), up);
}

// One frame's move as lbFootCapAcrossFirst, rise first: along up up to the cap, then across with
// what it leaves.
static inline lbVec3 lbFootCapRiseFirst(lbVec3 across, float rise, float cap, lbVec3 up)
{
	const float upPart = lbMinF(rise, cap);
	return lbMulAdd(lbClampLength(across, sqrtf(lbMaxF(cap * cap - upPart * upPart, 0.0f))), upPart, up);
}

// The toe tip's lead over the ground plane (m) for a foot swinging up off level ground at a run
// (lbFootTipLead): the most the pose stage's ankle limit lowers it.
static const float kFootTipLead = 0.015f;

// How far (m, world) a free foot's goal keeps its toe tip above the ground plane (point, n) beyond
// touching it: kFootTipLead for a foot rising off level ground (within 10 degrees; none past 25)
// at 3.5 m/s or more (none under 2), eased between. The pose stage's ankle limit turns a free foot
// whose folded calf pitches it past the limit about a point between its ball and its tip (at most
// 0.3 of the way: further popped the calf), which lowers the tip: running down stairs, the foot
// swinging forward over the nose of the tread it leaves, held by its goal with the tip just on
// that tread, went 1.0-1.6 cm into it (risers 0.24-0.34 m, mostly mixamo). A walk's knee does
// not fold that far; at toe-off, or on a slope, the lead only lifted feet and popped the calf
// (running up 45 degrees 14.0 -> 15.5 degrees).
static float lbFootTipLead(const lbFootFrame* f, const lbFootLegFrame* lf, lbVec3 n)
{
	if (!(lf->soleRate > 0.0f) || !(f->speedH > 2.0f))
		return 0.0f;
	const float cosLevel = 0.98480775f, cosTilted = 0.90630779f; // cos 10 and cos 25 degrees
	return kFootTipLead * lbSmoothStep((f->speedH - 2.0f) / 1.5f) * lbSmoothStep((lbDot(n, f->up) - cosTilted) / (cosLevel - cosTilted));
}

// A leg's knee before and after a goal step (world): the bends from straight (radians) of the knee
// of a leg (thigh a, calf b) reaching from `hip` to goalWas and to goalWas + step, and the law of
// cosines' terms (2ab, a^2 + b^2) for the caps that search a share of the step. False for a leg of
// no length.
typedef struct lbFootKneeMove
{
	float ab2, aa_bb, bend0, bend1;
} lbFootKneeMove;

static inline bool lbFootKneeMoveOf(const lbFootFrame* f, const lbLegAxes* ax, lbVec3 hip, lbVec3 goalWas, lbVec3 step, lbFootKneeMove* out)
{
	const float a = ax->thighLength * f->modelToWorld, b = ax->calfLength * f->modelToWorld;
	out->ab2 = 2.0f * a * b;
	out->aa_bb = a * a + b * b;
	if (!(out->ab2 > 0.0f))
		return false;
	// The knee's bend from straight at hip-to-goal distance d: cos = (d^2 - a^2 - b^2) / 2ab.
	const float d0 = lbDistance(goalWas, hip), d1 = lbDistance(lbAdd(goalWas, step), hip);
	out->bend0 = acosf(lbClampF((d0 * d0 - out->aa_bb) / out->ab2, -1.0f, 1.0f));
	out->bend1 = acosf(lbClampF((d1 * d1 - out->aa_bb) / out->ab2, -1.0f, 1.0f));
	return true;
}

// How fast (radians per second) a running foot's knee may unfold while its lock blends in below
// it (lbFootUnfoldCapped): 12 degrees a 60 Hz frame.
static const float kFootLockUnfoldRate = 720.0f * LB_DEG2RAD;

// A goal step (world) for a foot blending into a lock below it, shortened along up so that the
// knee of the leg reaching from the animated hip to the goal unfolds by no more than
// kFootLockUnfoldRate * dt from where the goal was (goalWas), the move across kept. Running down
// stairs, a swing smoothed toward a tread one riser down locked on the tread below that, and its
// goal came down at the maxGoalSpeed cap (6.7 cm a frame, with the animation's 4 cm) with the leg
// nearly straight: the knee went 50 -> 24 degrees and the thigh turned 16.5 degrees in that frame
// (0.19-0.30 m risers). Near full reach the knee's angle changes fastest per centimetre, so the
// cap on distance alone lets it through. Eased in with the speed from 1 to 2 m/s (w; at w < 1
// the cap gives (1 - w) half turns more): held fully at a walk, the held goal kept locked feet
// off their lock points for frames (stairs up and ledges: 1-17 cm on 40 runs of the sweep), and a
// walk's locks come down at its own pace (at 1.4 m/s the cap gives 129 degrees a frame, none in
// practice). Eased in from 2 to 3 m/s instead, a run the runner slows to 1.6-2 m/s on a steep
// flight straightened its landing knee 23 degrees in a frame as a lock 4-7 cm below blended in
// (running up flights crossed at 40-48 degrees, running down 0.28 m risers: pops 15.1-15.3).
static LB_NOINLINE lbVec3 lbFootUnfoldCapped(const lbFootFrame* f, const lbFootLegFrame* lf, const lbLegAxes* ax, lbVec3 goalWas, lbVec3 step)
{
	const float w = lbSmoothStep(f->speedH - 1.0f);
	lbFootKneeMove k;
	if (!(w > 0.0f) || !lbFootKneeMoveOf(f, ax, lf->animHipWs, goalWas, step, &k))
		return step;
	const float ab2 = k.ab2, aa_bb = k.aa_bb, bend0 = k.bend0, bend1 = k.bend1;
	const float most = kFootLockUnfoldRate * f->dt + (1.0f - w) * LB_PI;
	if (!(bend0 - bend1 > most))
		return step;
	// The longest reach the unfolding allows, and the largest share s of the step's fall within it:
	// the larger root of |v + s u| = dMost (v from the hip to the goal moved across, u the fall),
	// none when the move across alone reaches past it.
	const float dMost = sqrtf(lbMaxF(aa_bb + ab2 * cosf(bend0 - most), 0.0f));
	const float fall = lbDot(step, f->up);
	const lbVec3 across = lbMulAdd(step, -fall, f->up);
	const lbVec3 v = lbSub(lbAdd(goalWas, across), lf->animHipWs), u = lbMulSV(fall, f->up);
	const float qa = lbDot(u, u), qb = lbDot(v, u), qc = lbDot(v, v) - dMost * dMost;
	const float s = qa > 1.0e-12f && qc < 0.0f ? lbClampF((-qb + sqrtf(lbMaxF(qb * qb - qa * qc, 0.0f))) / qa, 0.0f, 1.0f) : 0.0f;
	return lbMulAdd(across, s * fall, f->up);
}

// How fast (radians per second) a nearly straight leg's knee may fold as its foot leaves a lock
// below the hips (lbFootFoldCapped): 12 degrees a 60 Hz frame, as it unfolds into one.
static const float kFootReleaseFoldRate = 720.0f * LB_DEG2RAD;

// A goal step (world) for a foot blending out of its lock, shortened (across and up alike) so that
// the knee of the leg reaching from the hips, where the pelvis state puts them, to the goal folds
// by no more than kFootReleaseFoldRate * dt from where the goal was (goalWas), while that knee is
// bent less than 45 degrees (the cap fades out by 50) and the character moves at 1 to 2.5 m/s
// (faded in from 0.5, out by 3). Walking up 0.31-0.35 m risers the body rides up a riser a step
// and the trailing leg stands straight, the hips sunk to let it reach its tread; at the release
// its goal rose toward the animation at the maxGoalSpeed cap on top of the animation's own rise,
// 11.6 cm a frame, and near full reach the knee folded 24 -> 55 degrees in one (added pops
// 15.1-15.6 degrees). Measured from
// the animated hip, as the unfold cap is, the sunk hips read a leg past its reach and nothing was
// capped. On a bent knee the cap held feet low enough for their toes to catch the riser ahead
// (walking up 0.196-0.216 m risers: 1.1 cm), and running it held them below what the swing must
// clear (every run up a flight and through a trench: toes 1-5 cm into the riser or the far wall).
// A boxer's foot stepping back up onto the level beside a drop or a flight, the body still, was
// held low while the animation carried it back into the face (heels 1.1-6.6 cm in).
static LB_NOINLINE lbVec3 lbFootFoldCapped(const lbFootFrame* f, const lbFootLegFrame* lf, const lbLegAxes* ax, lbVec3 goalWas, lbVec3 step)
{
	const float w = lbSmoothStep((f->speedH - 0.5f) * 2.0f) * (1.0f - lbSmoothStep((f->speedH - 2.5f) * 2.0f));
	const lbVec3 hip = lbAdd(lf->animHipWs, f->hipMoveWs);
	lbFootKneeMove k;
	if (!(w > 0.0f) || !lbFootKneeMoveOf(f, ax, hip, goalWas, step, &k))
		return step;
	const float ab2 = k.ab2, aa_bb = k.aa_bb, bend0 = k.bend0, bend1 = k.bend1;
	const lbVec3 v = lbSub(goalWas, hip);
	const float straight = w * (1.0f - lbSmoothStep((bend0 - 45.0f * LB_DEG2RAD) / (5.0f * LB_DEG2RAD)));
	const float most = kFootReleaseFoldRate * f->dt + (1.0f - straight) * LB_PI;
	if (!(bend1 - bend0 > most) || bend0 + most >= LB_PI)
		return step;
	// The nearest reach the folding allows, and the largest share t of the step within it: the
	// smaller root of |v + t step| = dMin (the step brings the goal nearer the hips).
	const float dMin = sqrtf(lbMaxF(aa_bb + ab2 * cosf(bend0 + most), 0.0f));
	const float qa = lbDot(step, step), qb = lbDot(v, step), qc = lbDot(v, v) - dMin * dMin;
	if (!(qa > 1.0e-12f) || !(qc > 0.0f))
		return lbVec3_zero;
	const float disc = qb * qb - qa * qc;
	const float t = disc > 0.0f ? lbClampF((-qb - sqrtf(disc)) / qa, 0.0f, 1.0f) : 1.0f;
	return lbMulSV(t, step);
}

// The toe tip of a foot turned by `rot` from its ankle (model units: times modelToWorld for
// world): the flat sole's tip, as lbFootClearPrint places it.
static inline lbVec3 lbFootTipOffset(const lbFootLegFrame* lf, lbQuat rot)
{
	const lbSole* sole = &lf->sole;
	return lbMulAdd(lbIkQuatRotate(rot, sole->under), sole->along[lb_soleToeTip], lbIkQuatRotate(rot, sole->toeFlat));
}

// How far (m, along up) the toe tip of a foot turned by `rot` lies below its ankle (lbFootTipOffset).
static inline float lbFootTipDrop(const lbFootLegFrame* lf, lbQuat rot, float scale, lbVec3 up)
{
	return -scale * lbDot(lbFootTipOffset(lf, rot), up);
}

// Last frame's goal as a foot rising first takes it: the animated ankle moved back by its
// horizontal move this frame (`moveH`) and carried by the kept offset.
static inline lbVec3 lbFootGoalWas(const lbFootLegState* leg, const lbFootLegFrame* lf, lbVec3 moveH)
{
	return lbAdd(lbSub(lf->animAnkleWs, moveH), leg->goalOffsetWs);
}

// The move across (world, horizontal) of a foot rising first by upPart: what the cap leaves, or
// 30 % of the animation's own move, whichever is more.
static inline lbVec3 lbFootRiseFirstAcross(lbVec3 across, lbVec3 moveH, float upPart, float cap)
{
	const float left = sqrtf(lbMaxF(cap * cap - upPart * upPart, 0.0f));
	return lbClampLength(lbAdd(across, moveH), lbMaxF(left, 0.3f * lbLength(moveH)));
}

// A move across (world, horizontal) taking the toe tip (from tipWas) no further than the nearest
// look-ahead point whose ground stands above heightTo (world, along up).
static lbVec3 lbFootAheadRoom(const lbFootLegState* leg, lbVec3 world, lbVec3 tipWas, float heightTo, lbVec3 up)
{
	const float worldLen = lbLength(world);
	if (!(worldLen > 1.0e-6f) || leg->aheadCount == 0)
		return world;
	const lbVec3 dir = lbMulSV(1.0f / worldLen, world);
	float room = worldLen;
	// The lead's points only: the other end's (aheadOtherMask) lie on that end's own path.
	for (int i = 0; i < leg->aheadCount; ++i)
		if (leg->aheadHeight[i] > heightTo && !lbFootAheadOfOther(leg, i))
			room = lbMinF(room, lbMaxF(lbDot(lbProjectOnPlane(lbSub(leg->aheadPointWs[i], tipWas), up), dir), 0.0f));
	return lbMulSV(room, dir);
}

// The step (the change of the goal's offset, world) of a foot rising first by as much of `rise` as
// the cap allows: across in the world with what is left or 30 % of the animation's own move
// (lbFootRiseFirstAcross), its toe tip no further than the nearest look-ahead point standing above
// the height it rises to, or, with none kept, short of the riser face a ray from the tip finds.
// `drop`: how far below the ankle the height compared lies (m): a landing's sole under the ankle
// (ankleH), a swing's pitched toe tip (lbFootTipDrop). Out of line: few frames rise so.
static LB_NOINLINE lbVec3 lbFootRiseFirstStep(const lbFootLegState* leg, const lbFootDef* def, const lbFootLegFrame* lf,
											  const lbSceneQuery* query, int* castCount, lbVec3 across, float rise, float cap,
											  lbVec3 up, float drop)
{
	const float upPart = lbMinF(rise, cap);
	const lbVec3 moveH = lbProjectOnPlane(lf->moveWs, up);
	lbVec3 world = lbFootRiseFirstAcross(across, moveH, upPart, cap);
	const lbVec3 goalWas = lbFootGoalWas(leg, lf, moveH);
	const lbVec3 tipWas = lbMulAdd(goalWas, lf->print.along[lb_soleToeTip], lf->print.toeWs);
	const float soleTo = lbDot(goalWas, up) + upPart - drop;
	// Nor does the toe tip move on past a rise kept ahead of it (the look-ahead's points)
	// that stands above the sole it rises to: the level chosen beyond a riser lets go of
	// that riser's bound, and the move across took the toe 15.6 mm into the riser it was
	// still rising past (walking up 0.215 m risers on 0.273 m treads, mixamo).
	const float worldLen = lbLength(world);
	if (worldLen > 1.0e-6f && leg->aheadCount == 0 && query && (leg->beyondValid & 1u) != 0u)
	{
		// With no look-ahead point kept (a landing looks no further than its own level),
		// the ground the landing found past its toe tip says whether a rise stands
		// ahead above the sole: then a ray from the toe tip along the move, at the
		// height the sole rises to, finds the riser's face, and the tip stops short of
		// it. The 30 % kept of the animation's move took the toe 2.4 cm into the riser
		// it was rising past (walking up 0.341 m risers on 0.392 m treads onto the
		// flight, mixamo).
		const lbVec3 dir = lbMulSV(1.0f / worldLen, world);
		if (leg->beyondHeight[0] > soleTo + def->edgeHeight)
		{
			lbQueryInput r;
			r.start = lbMulAdd(tipWas, lbMaxF(soleTo - lbDot(tipWas, up), 0.0f), up);
			r.end = lbMulAdd(r.start, worldLen + def->edgeMargin, dir);
			r.radius = 0.0f;
			r.channelMask = def->channelMask;
			r.ignoreOwnerId = def->ignoreOwnerId;
			lbHit h;
			lbFootRayCast(query, &r, &h);
			*castCount += 1;
			if (h.hit && h.status == lb_ok)
				world = lbMulSV(h.startedInside ? 0.0f
												: lbMaxF(h.fraction * (worldLen + def->edgeMargin) - def->edgeMargin, 0.0f),
								dir);
		}
	}
	else
		world = lbFootAheadRoom(leg, world, tipWas, soleTo, up);
	return lbMulAdd(lbSub(world, moveH), upPart, up);
}

// Whether a swing's capped step (the change of its goal's offset, world), taken whole, carries its
// toe tip past one of the look-ahead's kept points whose ground stands above the height the tip
// reaches (`tipDrop`: how far the goal's toe tip lies below its ankle, m).
static bool lbFootSwingStepMeetsAhead(const lbFootLegState* leg, const lbFootLegFrame* lf, lbVec3 step, lbVec3 up, float tipDrop)
{
	const lbVec3 moveH = lbProjectOnPlane(lf->moveWs, up);
	const lbVec3 goalWas = lbFootGoalWas(leg, lf, moveH);
	const lbVec3 tipWas = lbMulAdd(goalWas, lf->print.along[lb_soleToeTip], lf->print.toeWs);
	const lbVec3 world = lbProjectOnPlane(lbAdd(moveH, step), up);
	const float len = lbLength(world);
	if (!(len > 1.0e-6f))
		return false;
	const lbVec3 dir = lbMulSV(1.0f / len, world);
	const float tipTo = lbDot(goalWas, up) + lbDot(step, up) - tipDrop;
	for (int i = 0; i < leg->aheadCount; ++i)
	{
		const float along = lbDot(lbProjectOnPlane(lbSub(leg->aheadPointWs[i], tipWas), up), dir);
		if (leg->aheadHeight[i] > tipTo && along >= 0.0f && along < len && !lbFootAheadOfOther(leg, i))
			return true;
	}
	return false;
}

// A goal blending into a lock below it cleared against the ground under each sole point (see
// lbFootGoal), the lift kept in the goal's offset so the blend goes on from there. Out of line:
// most frames have no such blend.
static LB_NOINLINE lbVec3 lbFootClearBlend(lbFootLegState* leg, const lbFootDef* def, const lbFootFrame* f, const lbFootLegFrame* lf,
										   const lbSceneQuery* query, lbVec3 ankleGoal, lbQuat footRot, int* castCount)
{
	const lbQueryInput proto = lbFootProbe(def, ankleGoal, f->pelvisWs, f->up, lf->ankleH + def->traceBelow);
	const lbVec3 cleared = lbFootClearUnder(query, &proto, ankleGoal, footRot, f->modelToWorld, &lf->sole, NULL, 0.0f, f->up, castCount);
	leg->goalOffsetWs = lbAdd(leg->goalOffsetWs, lbSub(cleared, ankleGoal));
	return cleared;
}

// A foot in the air whose toe tip stands below the level its sample found under it (the tread
// above a riser it is stepping up onto) after the goal's speed cap held back the rise that clears
// it moves out from the riser's face until the tip is out of it, found by one ray at the tip's
// height from above the ankle toward the tip. The footprint's clearance lifts the goal over that level,
// but the cap lets it rise only so far a frame, and a foot turning toes down as it leaves its lock
// beside a riser swung its tip into that riser (CMU 01_01 stepping up onto the tread behind it
// from a flight it walked down: 1.2-3.4 cm). The move goes into the kept offset, which the cap then
// carries on from, so the foot comes back onto the animation's line as it rises.
static LB_NOINLINE void lbFootBackFromRiser(lbFootLegState* leg, const lbFootDef* def, const lbFootFrame* f, lbFootLegFrame* lf,
											const lbSceneQuery* query, int* castCount)
{
	const lbVec3 ankleGoal = lf->ankleGoal;
	const lbVec3 up = f->up;
	const float scale = f->modelToWorld;
	const lbVec3 tip = lbMulAdd(ankleGoal, scale, lbFootTipOffset(lf, lf->footRot));
	const float below = leg->printHeight[lb_soleToeTip] - (lbDot(tip, up) - lf->toeCurl * scale);
	if (!(below > 1.0e-3f))
		return;
	const lbVec3 ahead = lbProjectOnPlane(lbSub(tip, ankleGoal), up);
	const float reach = lbLength(ahead);
	if (!(reach > 1.0e-4f))
		return;
	const lbVec3 fwd = lbMulSV(1.0f / reach, ahead);
	lbQueryInput qi = lbFootProbe(def, ankleGoal, f->pelvisWs, up, 0.0f);
	qi.start = lbMulAdd(tip, -reach, fwd);
	qi.end = lbMulAdd(tip, def->edgeMargin, fwd);
	qi.radius = 0.0f;
	lbHit hit;
	lbFootRayCast(query, &qi, &hit);
	*castCount += 1;
	// A riser's face: within 15 degrees of upright (a rock's flank under a shuffling foot is left
	// to the footprint's clearance: pushed out along it, a boxer's foot went into the next rock).
	if (!hit.hit || hit.startedInside || hit.status != lb_ok || !(lbAbsF(lbDot(hit.normal, up)) < 0.25881905f))
		return;
	// Out along the face's normal across up (a foot turned along a flight meets its riser at a
	// slant: moved back along its own line, the foot would go three times as far).
	const lbVec3 out = lbNormalizeOr(lbProjectOnPlane(hit.normal, up), lbVec3_zero);
	const float facing = -lbDot(out, fwd);
	if (!(facing > 0.1f))
		return;
	const float depth = (reach + def->edgeMargin - hit.distance) * facing;
	if (!(depth > 0.0f))
		return;
	leg->goalOffsetWs = lbMulAdd(leg->goalOffsetWs, depth, out);
	lf->ankleGoal = lbMulAdd(ankleGoal, depth, out);
}

// Step 7: the ankle goal and foot rotation, and the part of the sole that bears on the ground.
static LB_ALWAYS_INLINE void lbFootGoal(lbFootLegState* leg, const lbFootDef* def, const lbFootFrame* f, lbFootLegFrame* lf,
					   const lbHumanoid* humanoid, int side, float smoothOffset, const lbSceneQuery* query, int* castCount,
					   lbFootTarget* ft)
{
	const lbVec3 up = f->up;
	// Goal: the animated sole's lift above its floor (never below it: a stance foot the base
	// motion holds below a risen capsule is on the ground) added to the ground height, and the
	// ankle above the sole along the tilted foot's up (correct on slopes, not straight above the
	// contact); blended toward the lock. A fully blended lock replaces it outright.
	lbVec3 ankleGoal;
	lbQuat footRot = lbIkQuatMul(leg->tilt, lf->animRot);
	// The sole's terms of footRot on the ground plane (lbFootSoleTilt), made for the clearance below
	// and read again by the bearing sample while footRot and the plane stay as they were.
	lbFootSoleTilt soleTilt = { 0.0f, 0.0f };
	bool soleTiltKept = false;
	if (leg->lockAlpha == 1.0f)
	{
		ankleGoal = leg->lockAnkleWs;
		// The same rotation, on the smoothed rotation's side as a slerp would give it.
		footRot = lbQuatDot(footRot, leg->lockRotWs) < 0.0f ? lbQuatNeg(leg->lockRotWs) : leg->lockRotWs;
	}
	else
	{
		const float lift = lbMaxF(lf->soleAboveFloor, 0.0f);
		lbVec3 tiltedUp = lbIkQuatRotate(leg->tilt, up);
		const lbVec3 ankle = lbAdd(lf->animAnkleWs, leg->shiftWs);
		// Sole height: near the ground the animation's lift stands on the ground under the foot.
		// Higher in the swing it keeps the animation's own height over its floor, and only ground
		// that rises into the swing raises it (to `swingClearance` above that ground): adding a
		// whole swing lift to the upper tread a trailing foot leaves, or to a step the runner
		// bounds past, would fling the foot up to the hip.
		const float onGround = smoothOffset + lift;
		const float inSwing = lbMaxF(f->floorH + lift, lf->swingGround + lbMinF(lift, def->swingClearance));
		const float soleH = lbLerpF(onGround, inSwing, lbClampF(lift / 0.1f, 0.0f, 1.0f));
		const float raise = soleH + lf->ankleH - lbDot(ankle, up);
		ankleGoal = lbAdd(lbMulAdd(ankle, raise, up), lbMulSV(lf->ankleH, lbSub(tiltedUp, up)));
		// Clear the sole against the ground plane at the smoothed height under the ankle, or up to
		// `edgeHeight` above it toward the real ground: a slope the smoothing lags a centimetre or
		// two behind is cleared exactly, a step is still eased into and never jumped. Then against
		// the ground last found under each sole sample where it stands clear of that plane (a
		// riser, a rock), which the sole never enters.
		if (leg->grounded && leg->alpha > 0.0f)
		{
			float clearH = lbMaxF(smoothOffset, lbMinF(lf->offsetTarget, smoothOffset + def->edgeHeight));
			// A lock blending in stands on the plane its plant has just probed where the foot now
			// is (slid onto the next tread): the smoothed height, with the footprint's clearance
			// gone at the plant, sags toward the ground the last swing probe found under the
			// animated ankle (the tread below), and the blend started from under the tread.
			if (leg->locked)
				clearH = lbMaxF(clearH, lbPlaneHeightAt(leg->groundPointWs, leg->groundNormalWs, up, ankle));
			const lbVec3 smoothGround = lbMulAdd(ankle, clearH - lbDot(ankle, up), up);
			// A foot on the ground bends its toes on it (the pose stage); a foot in the air clears
			// its whole sole, toe tip included.
			const lbSole* clearSole = lf->planted || leg->locked ? &lf->planeSole : &lf->sole;
			// The two soles differ only in the toe tip's offset along the foot, which the terms do not read.
			soleTilt = lbFootSoleTiltOf(&lf->sole, footRot, f->modelToWorld, leg->groundNormalWs);
			soleTiltKept = true;
			ankleGoal = lbFootClearSoleTilted(ankleGoal, clearSole, soleTilt, smoothGround, leg->groundNormalWs, up);
			// A free foot's flat toe tip stands clear of that plane by the larger of two heights: a
			// little while it rises at a run (lbFootTipLead), and as deep as the animation curls its
			// toes down below that flat tip (toeCurl): CMU 01_03's actor shuffles on 12-26 degree
			// slopes without planting, toes curled, and their tip went 1.0-1.8 cm into the slope while
			// the flat sole stood clear of it. A planted or locked foot's flat tip may go under (its
			// toes bend onto the ground in the pose stage), but toes the animation curls rest on the
			// ground as curled: cleared only to the ball, a captured foot locked with its curled tip
			// 1.6-3 cm under the ground, the pose bent the toes 30-45 degrees onto it, the goal rose
			// as much when the lock let go, and the toes turned 16-23 degrees in a frame.
			const float curl = lf->toeCurl * f->modelToWorld;
			const float need = !lf->planted && !leg->locked ? lbMaxF(lbFootTipLead(f, lf, leg->groundNormalWs), curl) : curl;
			if (need > 0.0f)
				ankleGoal = lbFootClearTipTilted(ankleGoal, &lf->sole, soleTilt, smoothGround, leg->groundNormalWs, up, need);
			const lbFootCorner corner = { leg->cornerHeight, leg->cornerLo, leg->cornerHi };
			const bool cornerOn = !leg->locked && (leg->printValid & LB_FOOT_CORNER_BIT);
			ankleGoal = lbFootClearPrint(ankleGoal, footRot, f->modelToWorld, &lf->sole, leg->printHeight, leg->printValid,
										 cornerOn ? &corner : NULL, leg->groundPointWs, leg->groundNormalWs, def->edgeHeight, up,
										 1.0f - lbClampF(leg->toeBend, 0.0f, 1.0f), curl);
		}
		if (leg->lockAlpha > 0.0f)
		{
			// Going up, into or out of a lock more than a step edge below the foot (a foot coming over
			// a stair nose onto the tread beyond) the blend moves across ahead of down: across eases out
			// (a (2 - a)), down eases in (a (1 + a) / 2), both smooth at the ends. A straight blend
			// cut the corner of the nose with the toes (running up 0.18 m stairs on mixamo: 12.7 ->
			// 8.9 mm).
			const lbVec3 d = lbSub(leg->lockAnkleWs, ankleGoal);
			const float a = leg->lockAlpha, drop = lbDot(d, up);
			if (f->floorMove > 0.0f && drop < -def->edgeHeight)
			{
				const lbVec3 across = lbMulSV(a * (2.0f - a), lbMulAdd(d, -drop, up));
				ankleGoal = lbAdd(ankleGoal, lbMulAdd(across, 0.5f * a * (1.0f + a) * drop, up));
			}
			// Into a lock more than a step edge below (a foot planting on the tread below, going
			// down) or out of one while the floor falls or onto a level more than a step edge above
			// the lock's: the path turns a corner instead of cutting it. In, the foot moves across at
			// its height over the tread it leaves and then down past the nose; out, it rises off the
			// tread before it swings on. Across runs over the first 0.6 of the blend and down over
			// the last 0.6, each a smoothstep, so the corner is rounded by their overlap. Eased as on
			// the way up, the heel still went through the nose it was passing (walking down 0.187 m
			// risers on 0.327 m treads, 18 -> 0.1 mm; running down 0.30 m on mixamo 22 -> 3.4 mm).
			// Out of a lock on the flat, rising first held a foot at a gap's rim over the gap while
			// the metric counted it planted; out of a lock below the level the foot goes to (a
			// boxer's foot stepping back up from a stair or a drop beside it, the body still), cut
			// straight, the heel went 3.8-4.9 cm into the riser.
			else if ((leg->locked || f->floorMove < 0.0f ||
					  lbDot(leg->lockAnkleWs, up) - lf->ankleH < lbMaxF(smoothOffset, lf->offsetTarget) - def->edgeHeight) &&
					 drop < -def->edgeHeight)
			{
				const float across = lbSmoothStep(lbClampF(a / 0.6f, 0.0f, 1.0f));
				const float down = lbSmoothStep(lbClampF((a - 0.4f) / 0.6f, 0.0f, 1.0f));
				ankleGoal = lbAdd(ankleGoal, lbMulAdd(lbMulSV(across, lbMulAdd(d, -drop, up)), down * drop, up));
			}
			// Going up, a lock less than a step edge above the goal (planted by its toes onto the
			// tread above both the animation's floor and the ground under the animated ankle, the
			// floor not falling) takes its height at once and blends only across: its height was
			// cleared against the ground under the whole sole, while the goal's plane can be a
			// sphere resting on the nose behind, 3 cm low, and blended up from there the sole went
			// 12 mm into the tread it planted on (walking up 0.275 m risers on 0.26 m treads). The
			// gates keep out a foot held back onto a ledge it walks off, where the jump popped the leg.
			else if (drop > 0.0f && drop < def->edgeHeight && f->floorMove >= 0.0f &&
					 lbDot(leg->lockAnkleWs, up) - lf->ankleH > lbMaxF(lf->offsetTarget, f->floorH) + def->edgeHeight)
				ankleGoal = lbAdd(ankleGoal, lbMulAdd(lbMulSV(a, lbMulAdd(d, -drop, up)), drop, up));
			// A landing held below the tread it locks on (riseHeld): up over the first 0.6 of the
			// blend, across over the last 0.6, so the toe rises past the nose before it goes on.
			else if (leg->riseHeld && drop > 0.0f)
			{
				const float rise = lbSmoothStep(lbClampF(a / 0.6f, 0.0f, 1.0f));
				const float across = lbSmoothStep(lbClampF((a - 0.4f) / 0.6f, 0.0f, 1.0f));
				ankleGoal = lbAdd(ankleGoal, lbMulAdd(lbMulSV(across, lbMulAdd(d, -drop, up)), rise * drop, up));
			}
			else
				ankleGoal = lbLerp(ankleGoal, leg->lockAnkleWs, a);
			footRot = lbQuatSlerp(footRot, leg->lockRotWs, leg->lockAlpha);
			soleTiltKept = false;
		}
	}
	// No correction moves the foot faster than maxGoalSpeed against the animation: a slide, a lock
	// blending in, a step edge coming under the foot are spread over frames instead of popping the
	// leg. A snap (first frame, teleport, and a landing foot already on the ground) places it
	// outright.
	{
		lbVec3 offset = lbSub(ankleGoal, lf->animAnkleWs);
		const bool landingInAir = f->landed && !lf->planted;
		if ((f->snap && !landingInAir) || !leg->hasGoal || def->maxGoalSpeed <= 0.0f)
			leg->goalOffsetWs = offset;
		else
		{
			// Landing, a foot not yet on the ground moves on from where the posed foot was, at the
			// capped speed: the IK faded while the character fell and the pose stage kept the foot
			// above its floor (lbFootKeepAbove), so it stood at its air goal's offset times that
			// alpha, lifted off the floor. Placed at once, a trailing foot held on a ledge's top
			// while the body dropped past it came down 0.5 m in a frame (walking off a 0.6 m
			// ledge: 83 degrees at the knee, now 11).
			if (landingInAir)
				leg->goalOffsetWs = lbMulAdd(lbMulSV(lbClampF(f->alphaBefore, 0.0f, 1.0f), leg->goalOffsetWs),
											 lbFootFloorLift(leg, &lf->sole, lf->animFootWs, f->modelToWorld, up,
															 (humanoid->legAxes[side].thighLength + humanoid->legAxes[side].calfLength) *
																 f->modelToWorld),
											 up);
			const float cap = def->maxGoalSpeed * f->dt;
			const lbVec3 want = lbSub(offset, leg->goalOffsetWs);
			lbVec3 step = lbClampLength(want, cap);
			// A landing foot whose goal rises by more than the cap and moves on along its travel
			// (its choice moved on to the tread beyond a frame or two before contact, over a riser)
			// rises first and moves across with what is left, in world terms: the animation
			// carries it on 7-8 cm a frame, and it keeps 30 % of that while it rises, catching up
			// once the rise is within the cap. Scaled together, the move across carried the toes
			// into the nose they were still rising past (running up 0.30 m stairs, 41/47 mm).
			// Held fully in place it stopped dead and the leg popped; rising first also outside a
			// landing (higher in the swing) popped the leg by up to 2 degrees on taller stairs.
			// Along its travel means within 120 degrees of it: a landing catching up across a turn
			// on stairs moves sideways to its travel, and moved across and up together its toe tip
			// went 1.4-2.4 cm into the riser it was rising past (64 degrees on 0.247 m risers).
			const float rise = lbDot(want, up);
			const lbVec3 across = lbMulAdd(want, -rise, up);
			if (leg->sliding && !lf->planted && !leg->locked && rise > 0.0f && lbLengthSquared(want) > cap * cap &&
				lbDot(across, lf->footVel) > -0.5f * lbLength(across) * lf->footSpeed)
			{
				step = lbFootRiseFirstStep(leg, def, lf, query, castCount, across, rise, cap, up, lf->ankleH);
			}
			// A swing rising by more than the cap toward ground the look-ahead kept ahead (running out
			// of a trench onto its far rim) whose capped step, scaled, would carry the toe tip past a
			// kept point standing above the height the tip reaches rises first, and moves on at most
			// as the landing above does and no further than that point: scaled together, the capped
			// goal moved on with the animation while it rose only part of the way, and the toe tip
			// went 1.2-2.2 cm into the far wall's top (a 1.59 m trench 0.48 m deep at 3.5 m/s).
			// (The branches below are for landing or locked feet: none is taken when this one's tests
			// pass and its tip meets no point.)
			else if (!leg->sliding && !lf->planted && !leg->locked && rise > 0.0f && leg->aheadCount > 0 &&
					 lbLengthSquared(want) > cap * cap)
			{
				const float tipDrop = lbFootTipDrop(lf, footRot, f->modelToWorld, up);
				if (lbFootSwingStepMeetsAhead(leg, lf, step, up, tipDrop))
					step = lbFootRiseFirstStep(leg, def, lf, query, castCount, across, rise, cap, up, tipDrop);
			}
			// A landing foot drawn back against the riser bounding its level while its goal also
			// rises (the toe tip's sample already over the tread beyond lifts it) moves back first
			// and rises with what is left: scaled together, the animation carried the foot on past
			// the bound by the part of the cap the rise took, and the toe went into the riser
			// (running up 0.30 m stairs on the mannequin, 19 -> 9.5 mm).
			else if (leg->sliding && leg->slideHiRiser && !lf->planted && !leg->locked && rise > 0.0f &&
					 lbLengthSquared(want) > cap * cap && lbDot(across, lf->footVel) < 0.0f)
			{
				step = lbFootCapAcrossFirst(across, rise, cap, up);
			}
			// A foot blending into a lock above it by more than the cap (planting on the tread above
			// its goal, running up) rises first and moves across with what is left: scaled together,
			// the cap held the foot low while it moved across, and its ball went 2.9 cm into the nose
			// of the tread it planted on for a frame (running up 0.179 m risers on 0.361 m treads,
			// mixamo), which the toes' bend then hid by turning 21 degrees.
			else if (leg->locked && leg->lockAlpha < 1.0f && rise > 0.0f && lbLengthSquared(want) > cap * cap)
			{
				step = lbFootCapRiseFirst(across, rise, cap, up);
			}
			// A foot blending into a lock more than a step edge below it (planting on the tread
			// below) moves across first and comes down with what is left, as the blend's path does:
			// scaled together, the cap held the foot back over the step it was leaving while it came
			// down, and the heel went into that step's nose (running down 0.256 m risers on 0.266 m
			// treads: 40 -> 0 mm).
			else if (leg->locked && leg->lockAlpha < 1.0f && rise < 0.0f && lbLengthSquared(want) > cap * cap &&
					 lbDot(lbSub(leg->lockAnkleWs, lf->animAnkleWs), up) - lbDot(leg->goalOffsetWs, up) < -def->edgeHeight)
			{
				step = lbFootCapAcrossFirst(across, rise, cap, up);
			}
			// So does a foot letting go of its lock whose goal comes down by more than a step edge:
			// a boxer's foot shuffling toward a 0.167 m riser had its landing chosen onto the tread
			// above, then planted and locked on the floor in front of the riser; its lock's blend
			// carried it back across the nose at the tread's height, the lock let go three frames
			// on, and the capped step down and back together put its toe tip 3.2 cm into the riser.
			else if (!leg->locked && leg->lockAlpha > 0.0f && rise < -def->edgeHeight && lbLengthSquared(want) > cap * cap)
			{
				step = lbFootCapAcrossFirst(across, rise, cap, up);
			}
			// A running foot blending into a lock more than a step edge below it unfolds its knee
			// no faster than kFootLockUnfoldRate (lbFootUnfoldCapped); a lock just below (uphill,
			// held off it) slid its locked foot 12-17 mm running up 40 degrees.
			if (leg->locked && leg->lockAlpha < 1.0f && lbDot(step, up) < 0.0f &&
				lbDot(lbSub(leg->lockAnkleWs, lf->animAnkleWs), up) - lbDot(leg->goalOffsetWs, up) < -def->edgeHeight)
				step = lbFootUnfoldCapped(f, lf, &humanoid->legAxes[side], lbAdd(lf->animAnkleWs, leg->goalOffsetWs), step);
			// A foot leaving its lock while the floor does not fall folds a nearly straight knee no
			// faster than kFootReleaseFoldRate (lbFootFoldCapped).
			if (!leg->locked && leg->lockAlpha > 0.0f && lbDot(step, up) > 0.0f && f->floorMove >= 0.0f)
				step = lbFootFoldCapped(f, lf, &humanoid->legAxes[side], lbAdd(lf->animAnkleWs, leg->goalOffsetWs), step);
			// A foot in the air that the ground ahead draws below the animation (downhill, a stair
			// down) comes down at a third of that while its sole is still well above the ground: a
			// swing pulled down early straightens the knee ahead of the animation and dips the toes
			// into the slope, and it loses nothing by landing on the animation's own timing. Near
			// the ground, and for a foot the system raised, the full cap holds.
			const float down = lbDot(step, up), gentle = def->maxGoalSpeed * f->dt / 3.0f;
			if (!lf->planted && !leg->locked && down < -gentle && lbDot(leg->goalOffsetWs, up) < 0.0f &&
				lbDot(lbAdd(lf->animAnkleWs, leg->goalOffsetWs), up) - lf->ankleH - lf->offsetTarget > 0.05f)
				step = lbMulAdd(step, -gentle - down, up);
			// The cap spreads a correction over frames; it does not move a foot on its ground down
			// in the world where its goal neither wants to go nor was: below both the cleared goal
			// and last frame's. A foot landing on a trench's rim while the character's floor falls
			// into the trench at 4 m/s needs its offset from the falling animation to grow by the
			// fall (7 cm a frame), and held to the cap the goal went down with the animation, the
			// sole 1.9 cm into the rim it stood on (running into a 1.01 m trench 0.48 m deep). A
			// foot higher in the air keeps the cap: held up over a nose as the floor stepped down
			// under a walk, a swing slowed to a hover there.
			const lbVec3 offsetWas = leg->goalOffsetWs;
			leg->goalOffsetWs = lbAdd(leg->goalOffsetWs, step);
			if (lf->soleAboveFloor < def->lockHeight)
			{
				const float wasH = lbDot(lbAdd(lbSub(lf->animAnkleWs, lf->moveWs), offsetWas), up);
				const float lowest = lbMinF(lbDot(lbAdd(lf->animAnkleWs, offset), up), wasH);
				const float got = lbDot(lbAdd(lf->animAnkleWs, leg->goalOffsetWs), up);
				if (got < lowest)
					leg->goalOffsetWs = lbMulAdd(leg->goalOffsetWs, lowest - got, up);
			}
		}
		leg->hasGoal = true;
		ankleGoal = lbAdd(lf->animAnkleWs, leg->goalOffsetWs);
		// A foot blending into a lock more than a step edge below it (planting on the tread below,
		// in a trench, off a ledge) is cleared against the ground straight under each of its sole
		// points on the way: the blend's path and its rotation turning from the landing's to the
		// lock's were cleared nowhere but at their ends, and a running foot landing heel first
		// swung its heel through the top corner of the edge it was passing (running into 0.26-0.33 m
		// deep trenches: 13-17 mm). Four rays a frame, only over the few frames of such a blend.
		if (query && leg->locked && leg->lockAlpha < 1.0f && lbDot(lbSub(leg->lockAnkleWs, ankleGoal), up) < -def->edgeHeight)
			ankleGoal = lbFootClearBlend(leg, def, f, lf, query, ankleGoal, footRot, castCount);
	}
	lf->ankleGoal = ankleGoal;
	lf->footRot = footRot;
	// Only a tip whose sample stands a step edge above the ball's (a riser between them). Called
	// on the stored goal: passed the goal and its rotation by value, the call's site alone made the
	// sense's own code 650 instructions a character-frame dearer (callgrind), where it never runs.
	const unsigned tipBall = (1u << lb_soleToeTip) | (1u << lb_soleBall);
	if (query && !leg->locked && !lf->planted && (leg->printValid & tipBall) == tipBall &&
		leg->printHeight[lb_soleToeTip] - leg->printHeight[lb_soleBall] > def->edgeHeight)
	{
		lbFootBackFromRiser(leg, def, f, lf, query, castCount);
		ankleGoal = lf->ankleGoal;
	}
	ft->ankleWs = ankleGoal;
	ft->footRotWs = footRot;
	ft->alpha = leg->alpha;
	ft->locked = leg->locked;
	// Settled once the goal stands at the lock: the goal's speed cap can leave a foot whose lock
	// blended in from a riser above still coming down onto its tread after the blend's end, and
	// the lock's slide measure counted that fall as a slide (the Boxing_Toes rig walking up 0.215 m
	// stairs: 2.5 cm).
	ft->settled = def->footLock ? (leg->locked && leg->lockAlpha >= 0.99f && lbLengthSquared(lbSub(ankleGoal, leg->lockAnkleWs)) <= 1.0e-6f)
								: lf->planted;
	ft->planted = lf->planted;
	float ballLift = 0.0f, bendWant;
	// The toes bend onto the ground only under a planted or locked foot; the bend eases in and out
	// (a 60 Hz frame's worth at 20 /s is a third of the bend). A snap (a first frame, a teleport, a
	// landing) sets half the bend at once: the first frame's plant may last that frame alone (a run
	// spawned on rocks, its foot planted in the first pose and lifting in the next), and set whole
	// the toes turned back 16-19 degrees as it lifted; from none, a captured foot whose toes curl
	// down (CMU 01_03, its toe tip where the file's End Site puts it) stood 11.4 mm into the ground
	// in that first frame.
	{
		bendWant = leg->grounded && (lf->planted || leg->locked) ? 1.0f : 0.0f;
		leg->toeBend = f->snap ? 0.5f * bendWant : lbInterpConstantTo(leg->toeBend, bendWant, f->dt, LB_FOOT_TOE_BEND_RATE);
	}
	ft->toeBend = leg->toeBend;
	// The toes' lead onto the ground (lbFootTarget::toeLead): the frames the sole's ball sample
	// takes to reach the ground plane at the rate it came down over the last frame, 1 within one
	// frame, 0 from three; rising by at most a half and falling by at most a third a 60 Hz frame, so
	// a foot that comes down in one frame or stops short eases in and out. None on ground steeper
	// than the slope limit, where the foot (tilted at most maxFootAngle) meets it on its toes, not
	// flat: walking up 43-45 degree slopes the lead bent the toes 16 degrees in a frame.
	{
		const lbVec3 ballWs = lbMulAdd(ankleGoal, f->modelToWorld,
									   lbIkQuatRotate(footRot, lbMulAdd(lf->sole.under, lf->sole.along[lb_soleBall], lf->sole.toeFlat)));
		const float above = lbDot(lbSub(ballWs, leg->groundPointWs), leg->groundNormalWs);
		const float frames = f->dt * 60.0f, rate = leg->ballAbove - above;
		const float toContact = above > 0.0f && rate > 0.0f ? above / rate : 1.0e9f;
		// Nor for toes the animation curls down: they reach the ground as curled (lbFootGoal), and
		// a lead toward the bend a flat foot's toes would need bent a captured foot's toes in the
		// air, coming down from a jump onto rocks, to turn back 19.6 degrees as the lock took it
		// (CMU 01_01 over 0.44 m rocks).
		const float want = leg->steep || lf->toeCurl > 0.0f ? 0.0f : lbClampF(0.5f * (3.0f - toContact), 0.0f, 1.0f);
		leg->toeLead = f->snap || !leg->grounded ? 0.0f : lbClampF(want, leg->toeLead - frames / 3.0f, leg->toeLead + 0.5f * frames);
		leg->ballAbove = above;
		ft->toeLead = leg->toeLead;
		// While the bend eases out, the toes' plane rises with a ball that rises faster than
		// LB_FOOT_TOE_BALL_RISE (ballLift, added to toeRise below). Not while the toes want their
		// bend: a lock's blend raising the ball onto a tread lifted their plane clear of it, and
		// the toes, left unbent under a plane they were below, bent 20 degrees at once as the
		// plane came back down to them (a boxer up 0.193 m risers).
		const float seen = lbMinF(above, leg->toeBallSeen + LB_FOOT_TOE_BALL_RISE * f->dt);
		ballLift = f->snap || !(leg->toeBend > 0.0f) || bendWant > 0.0f ? 0.0f : lbMaxF(above - seen, 0.0f);
		leg->toeBallSeen = f->snap ? above : seen;
	}
	ft->grounded = leg->grounded;
	ft->steep = leg->steep;
	// The part of the sole that bears on the ground: the sample (heel, under the ankle, ball)
	// nearest the ground plane, or, when the sole lies parallel to it, the point over where the
	// cast touched (a foot on a stair edge stands on its ball).
	const lbSole* sole = &lf->sole;
	lbVec3 soleLocal = sole->under;
	const lbLegAxes* axes = &humanoid->legAxes[side];
	if (leg->grounded)
	{
		float d[lb_solePointCount];
		if (!soleTiltKept)
			soleTilt = lbFootSoleTiltOf(sole, footRot, f->modelToWorld, leg->groundNormalWs);
		lbFootSoleHeightsTilted(sole, soleTilt, ankleGoal, leg->groundPointWs, leg->groundNormalWs, d);
		float best = 1.0e30f, worst = -1.0e30f, bestAlong = 0.0f;
		for (int k = lb_soleHeel; k <= lb_soleBall; ++k)
		{
			worst = lbMaxF(worst, d[k]);
			if (d[k] < best - 1.0e-4f)
				best = d[k], bestAlong = sole->along[k];
		}
		float along = bestAlong;
		if (worst - best < 0.002f)
		{
			lbVec3 toeWs = lbNormalize(lbProjectOnPlane(lbIkQuatRotate(footRot, axes->toe), up));
			along = lbDot(lbSub(leg->bearingWs, ankleGoal), toeWs);
			// Step a centimetre onto the surface that bears the foot, off the very edge.
			if (lbAbsF(along) > 0.5f * def->traceRadius)
				along += along > 0.0f ? 0.01f : -0.01f;
			along /= f->modelToWorld;
		}
		along = lbClampF(along, sole->along[lb_soleHeel], sole->along[lb_soleBall]);
		soleLocal = lbMulAdd(soleLocal, along, sole->toeFlat);
	}
	// soleLocal is in model metres along foot-bone directions; the foot bone's own scale is not
	// applied (the world point is the goal plus the rotated offset times the character's scale).
	ft->soleLocal = soleLocal;
	ft->contactWs = lbAdd(ankleGoal, lbMulSV(f->modelToWorld, lbIkQuatRotate(footRot, soleLocal)));
	ft->normalWs = leg->grounded ? leg->groundNormalWs : up;
	ft->toeNormalWs = leg->toeNormalWs;
	ft->groundPointWs = leg->grounded ? leg->groundPointWs : ft->contactWs;
	// Toes curled down below the sole reach the ground the sole stands on: where the footprint
	// found a rock under the ball 1.5 cm above the ground plane, the toes bent onto a plane through
	// the ground plane's point left their tip 1.3 cm inside it (CMU 01_03 over 0.24 m rocks).
	{
		float want = 0.0f;
		if (lf->toeCurl > 0.0f && leg->grounded && (leg->printValid & (1u << lb_soleBall)))
		{
			const lbVec3 ankle = leg->locked ? leg->lockAnkleWs : lbAdd(lf->animAnkleWs, leg->shiftWs);
			const lbVec3 ballAt = lbMulAdd(ankle, lf->print.along[lb_soleBall], lf->print.toeWs);
			want = lbMaxF(leg->printHeight[lb_soleBall] - lbPlaneHeightAt(leg->groundPointWs, leg->groundNormalWs, up, ballAt), 0.0f);
		}
		if (leg->toeRise != want)
			leg->toeRise = f->snap ? want : lbInterpConstantTo(leg->toeRise, want, f->dt, LB_FOOT_TOE_RISE_RATE);
		ft->toeRise = leg->toeRise + ballLift;
	}
}

// Step 8: how far the hip must come down (along up, world m, >= 0) for this leg to reach its goal
// before the soft-IK band: the smallest t >= 0 with |hip - t up - goal| <= reach. The pose stage
// uses the same figure, so the reach is measured once.
static LB_ALWAYS_INLINE float lbFootReachDrop(const lbFootFrame* f, int side, lbVec3 hipWs, lbVec3 ankleGoal)
{
	const float reach = f->reach[side];
	lbVec3 v = lbSub(hipWs, ankleGoal);
	float along = lbDot(v, f->up), side2 = lbMaxF(lbLengthSquared(v) - along * along, 0.0f);
	if (lbLengthSquared(v) <= reach * reach)
		return 0.0f;
	return side2 < reach * reach ? along - sqrtf(reach * reach - side2) : lbMaxF(along, 0.0f);
}

// The highest elevation (sine and cosine, about up) a free foot's goal may have from the hip before
// the thigh passes hipMaxFlex from hanging straight down: the thigh lies the hip's triangle angle T
// above the hip-to-goal line (a thigh, b calf, len the line), so the limit is hipMaxFlex - pi/2 - T,
// its sine and cosine from the angle-difference formulas, no inverse trigonometry. A goal's
// elevation (in [-pi/2, pi/2]) exceeds it when *outCos is negative or its sine is the larger.
static inline void lbFootHipCapElevation(float a, float b, float len, float cosHip, float sinHip, float* outSin, float* outCos)
{
	// A thigh of next to no length (a degenerate rig's, or one scaled to nothing) makes no triangle:
	// T = 0. Its 2 a len underflowed to 0 and the division by it was a fuzzed rig's undefined behaviour.
	const float den = 2.0f * a * len;
	const float cosT = den > 0.0f ? lbClampF((a * a + len * len - b * b) / den, -1.0f, 1.0f) : 1.0f;
	const float sinT = sqrtf(lbMaxF(1.0f - cosT * cosT, 0.0f));
	*outSin = -(cosHip * cosT + sinHip * sinT);
	*outCos = sinHip * cosT - cosHip * sinT;
}

// The terms of the thigh's rise when leg `side` reaches from the hip at `hipWs` to `ankleGoal`, the
// goal no nearer than the knee cap allows (`dMin`): the hip-to-goal line's elevation sine (*outE)
// and the hip's cosine in the leg's triangle (*outC). False where the thigh has nothing to raise (the
// goal at the hip, or a thigh of next to no length: a degenerate rig's, or one scaled to nothing,
// whose 2 a len underflowed to 0, and the division by it was a fuzzed rig's undefined behaviour).
static LB_ALWAYS_INLINE bool lbFootThighTerms(const lbFootFrame* f, const lbHumanoid* humanoid, int side, lbVec3 hipWs, lbVec3 ankleGoal,
											  float dMin, float* outC, float* outE)
{
	const lbLegAxes* ax = &humanoid->legAxes[side];
	const float a = ax->thighLength * f->modelToWorld, b = ax->calfLength * f->modelToWorld;
	const lbVec3 d = lbSub(ankleGoal, hipWs);
	const float len0 = lbLength(d);
	if (len0 < 1.0e-5f)
		return false;
	const float len = lbMaxF(len0, dMin);
	const float den = 2.0f * a * len;
	if (!(den > 0.0f))
		return false;
	*outC = lbClampF((a * a + len * len - b * b) / den, -1.0f, 1.0f);
	*outE = lbClampF(lbDot(d, f->up) / len0, -1.0f, 1.0f);
	return true;
}

// How far the thigh of leg `side` rises (radians from hanging straight down) when the leg reaches
// from the hip at `hipWs` to `ankleGoal`: the hip-to-goal line's elevation plus the hip's angle in
// the leg's triangle (lbFootThighTerms; 0 where it has nothing to raise). The pose stage turns a
// free foot's goal down about the hip until this is within hipMaxFlex.
static LB_ALWAYS_INLINE float lbFootThighFlex(const lbFootFrame* f, const lbHumanoid* humanoid, int side, lbVec3 hipWs, lbVec3 ankleGoal, float dMin)
{
	float c, e;
	return lbFootThighTerms(f, humanoid, side, hipWs, ankleGoal, dMin, &c, &e) ? 0.5f * LB_PI + asinf(e) + acosf(c) : 0.0f;
}

// Whether lbFootThighFlex(...) <= maxFlex, with its arc sine and arc cosine (about 100 instructions)
// taken only near the limit: the walking crowd's thighs mostly hang well within it. With e the
// goal's elevation sine and c the hip's cosine, the flex is pi - D, D = asin(c) - asin(e), so it is
// within the limit where D is at least pi - maxFlex. cos D = sqrt(1 - c c) sqrt(1 - e e) + c e, and
// D is positive where c > e (the arc sine rises). The test asks for 0.02 rad more than the limit:
// its float roots are off by up to 3.5e-4 each where c or e is near 1, so its cos D by up to 7.2e-4,
// and over that margin the cosine moves by at least 1.6e-3 for limits 0.1 to pi - 0.1 rad short of
// pi (the test is skipped for others). A flex it finds within is 0.01 rad or more within, which
// lbFootThighFlex's floats (within 1e-6 rad) find too: the same answer, bit for bit.
static LB_ALWAYS_INLINE bool lbFootThighWithin(const lbFootFrame* f, const lbHumanoid* humanoid, int side, lbVec3 hipWs, lbVec3 ankleGoal,
											   float dMin, float maxFlex)
{
	float c, e;
	if (!lbFootThighTerms(f, humanoid, side, hipWs, ankleGoal, dMin, &c, &e))
		return 0.0f <= maxFlex;
	const float room = LB_PI - maxFlex;
	if (c > e && room >= 0.1f && room <= LB_PI - 0.1f &&
		sqrtf(1.0f - c * c) * sqrtf(1.0f - e * e) + c * e <= lbFootCos(f->memo, lb_footMemoFlex, room + 0.02f))
		return true;
	return 0.5f * LB_PI + asinf(e) + acosf(c) <= maxFlex;
}

// How far the hip may come down (along up, world m, >= 0) before a free leg's goal would bend its
// knee to `bend` (from straight): the largest t with |hip - t up - goal| no shorter than the
// hip-to-ankle distance at that bend. With a bend 12 degrees short of kneeMaxBend this is the fold
// room the held pelvis keeps. A pelvis held down lower than this would fold a trailing leg
// onto its cap, where the pose stage moves its goal off the ground it asked for and the leg pops
// out again as the cap lets go.
static LB_ALWAYS_INLINE float lbFootFoldRoom(const lbFootFrame* f, const lbHumanoid* humanoid, int side, lbVec3 hipWs, lbVec3 ankleGoal, float bend)
{
	const lbLegAxes* ax = &humanoid->legAxes[side];
	const float a = ax->thighLength * f->modelToWorld, b = ax->calfLength * f->modelToWorld;
	const float dMin2 = lbMaxF(a * a + b * b - 2.0f * a * b * lbFootCos(f->memo, lb_footMemoFold, LB_PI - bend), 0.0f);
	lbVec3 v = lbSub(hipWs, ankleGoal);
	float along = lbDot(v, f->up), side2 = lbMaxF(lbLengthSquared(v) - along * along, 0.0f);
	if (side2 >= dMin2)
		return 1.0e30f;
	return lbMaxF(along - sqrtf(dMin2 - side2), 0.0f);
}

// How high (world, along up, m) the knee of leg `side` stands above that foot's sole when the leg
// reaches from the hip at `hipWs` to `ankleGoal` with the knee bent toward `forward` (horizontal,
// unit): the law of cosines in the plane of hip, ankle and forward. Below zero the shin rises
// backward from the knee, a leg folded under a hip that came down.
static LB_ALWAYS_INLINE float lbFootKneeClearance(const lbFootFrame* f, const lbHumanoid* humanoid, int side, lbVec3 hipWs, lbVec3 ankleGoal,
								 lbVec3 forward)
{
	const lbLegAxes* ax = &humanoid->legAxes[side];
	const float a = ax->thighLength * f->modelToWorld, b = ax->calfLength * f->modelToWorld;
	const lbVec3 v = lbSub(hipWs, ankleGoal);
	const float d = lbLength(v);
	if (d < 1.0e-4f)
		return 0.0f;
	const lbVec3 u = lbMulSV(1.0f / d, v);
	const float c = lbClampF((b * b + d * d - a * a) / (2.0f * b * d), -1.0f, 1.0f);
	const lbVec3 side2 = lbNormalizeOr(lbMulAdd(forward, -lbDot(forward, u), u), lbVec3_zero);
	const lbVec3 knee = lbMulAdd(lbMulAdd(ankleGoal, b * c, u), b * sqrtf(lbMaxF(1.0f - c * c, 0.0f)), side2);
	return lbDot(lbSub(knee, ankleGoal), f->up) + ax->ankleHeight * f->modelToWorld;
}

// The hips' move back on a steep climb (lbFootDef::climbHipShift; world, across up, behind the
// character's facing, or against its way where it faces along up). With the hips where a level
// walk has them, walking up 0.31-0.35 m risers two treads a step the stance leg is straight when
// the swinging foot comes up to its tread 0.25 m under the hips: the leg folds there, its knee
// 0.35-0.4 m ahead of the foot, and it went 3-6 cm into the nose of the tread the foot was
// landing on (20 of the terrain sweep's 42 runs over a limit were such walks and runs); taking one
// tread a step instead, the landing foot comes down under the hips and the same fold put the knee
// 7-13 cm into the step above. 0.1 m back clears both: the folded knee rises over the nose instead
// of running into it (0.08 and 0.15 m held fewer runs of the sweep and of its held-out seeds). The
// grade is the climb rate over the horizontal speed (at least 0.5 m/s, so a character barely
// moving on a rising floor does not lean back), from LB_FOOT_CLIMB_FROM (about 11 degrees: ramps
// and low stairs keep the level posture) to LB_FOOT_CLIMB_FULL (27 degrees and steeper: the whole
// shift). Behind the facing, not the way: the knees bend toward the facing, and a character
// turning on a flight moves its hips with its body, not across it (the sweep holds the same runs
// either way).
static lbVec3 lbFootClimbShift(const lbFootState* state, const lbFootDef* def, const lbFootFrame* f, const lbHumanoid* humanoid)
{
	if (!(def->climbHipShift > 0.0f) || !(state->climbRate > 0.0f) || f->speedH < 1.0e-3f)
		return lbVec3_zero;
	const float grade = state->climbRate / lbMaxF(f->speedH, 0.5f);
	// Faded out below 0.45 m/s (none by 0.15): the climb rate eases, and a character that stops on a
	// flight still reads one for a while after its floor stopped rising. A captured actor crouching
	// to jump on a flight's top, both feet locked, had its hips held 10 cm back and its ankles bent
	// past their range for 16 frames at a time (CMU 01_01 on its root motion's own speed).
	const float w = lbSmoothStep((grade - LB_FOOT_CLIMB_FROM) / (LB_FOOT_CLIMB_FULL - LB_FOOT_CLIMB_FROM)) *
					lbSmoothStep((f->speedH - 0.15f) / 0.3f);
	if (!(w > 0.0f))
		return lbVec3_zero;
	const lbVec3 fwd =
		lbNormalizeOr(lbProjectOnPlane(lbQuatRotate(f->cw.q, humanoid->forwardMs), f->up), lbMulSV(1.0f / f->speedH, f->velH));
	return lbMulSV(-w * def->climbHipShift, fwd);
}

// The hips' move ahead (horizontal, world m) toward a leg whose goal lies far below the other's:
// a foot landing two risers down while the other leaves a tread above. With the hips where the
// animation has them no pelvis height serves both legs (the landing leg needs the hips within its
// reach, the other then folds its knee under its own tread), and the other knee folds and unfolds
// by 15-35 degrees within a few frames. Moving the hips over the landing foot lets the pelvis come
// down without that fold. The move is the smallest (at most half a leg, found by bisection) that
// keeps the other knee within kneeMaxBend - 40 degrees at the drop the landing leg needs, weighted
// by how far that drop exceeds the other leg's fold room at the animated hips (the one the held
// pelvis keeps, 12 degrees short of kneeMaxBend), as a share of the landing leg's length: none up
// to 0.1 of a leg, whole from 0.3, smooth between. On moderate flights (risers to about 0.22 m)
// the need mostly stays under that and a move there only added pops (running down 0.20/0.30 m
// stairs 12.0 -> 15.6 degrees with a ramp from 0.05); on deep ones it is what lets the pelvis come
// down. Only ahead along the way the character goes
// (going up, the lower foot is the one behind) and only while the other foot is in the air and
// past half slideHeight (a foot still on its tread would be dragged by the hips). Eased in and out
// at half pelvisSpeed, so it never switches: the need comes and goes within a few frames as the
// landing goal comes down and the other foot's goal follows, and eased in at the full speed the
// move spiked with it (running down 0.18/0.25 m stairs 15.7 -> 20.5 degrees).
static void lbFootPelvisShift(lbFootState* state, const lbFootDef* def, const lbFootFrame* f, const lbHumanoid* humanoid,
							  const bool counts[2], const lbVec3 goal[2], const lbVec3 hip[2], bool capOn, float holdBend)
{
	lbVec3 target = lbVec3_zero;
	if (def->pelvisMode == lb_footPelvisLowestFoot && capOn && counts[0] && counts[1] && f->speedH > 1.0e-3f)
	{
		const float bend = lbMaxF(def->kneeMaxBend - 40.0f * LB_DEG2RAD, 0.0f);
		for (int s = 0; s < 2; ++s)
		{
			const int o = 1 - s;
			const lbFootLegState* landing = &state->legs[s];
			const lbFootLegState* other = &state->legs[o];
			if (lbDot(lbSub(goal[o], goal[s]), f->up) < 2.0f * def->edgeHeight)
				continue;
			lbVec3 dir = lbProjectOnPlane(lbSub(goal[s], hip[s]), f->up);
			const float len = lbLength(dir);
			if (len < 1.0e-4f || lbDot(dir, f->velH) <= 0.0f)
				continue;
			dir = lbMulSV(1.0f / len, dir);
			const lbLegAxes* ax = &humanoid->legAxes[s];
			const float leg = (ax->thighLength + ax->calfLength) * f->modelToWorld;
			if (other->locked)
				continue;
			const float hs = lbMaxF(def->slideHeight, 1.0e-3f);
			const float air = lbSmoothStep((other->prevSoleAboveFloor - 0.5f * hs) / (0.5f * hs));
			if (air <= 0.0f)
				continue;
			// The other knee kept above its own sole. With the hips come down as far as the landing
			// leg needs, a trailing foot high in its swing folds its leg until the knee is level with
			// the sole or below it, and the thigh turns 15-25 degrees in a frame as it unfolds
			// (running down 36-42 degree slopes and 0.30 m stairs). The hips move ahead until that
			// knee stands a tenth of a leg above the sole: the smallest move, by steps of a twentieth
			// of a leg up to half a leg while the other leg still reaches its goal, then bisection, so
			// that it changes smoothly from frame to frame. Weighted in by how far the knee lies
			// under that height at the animated hips (whole at two tenths of a leg) and, like the
			// move below, by the foot's height in its swing. Not for a foot locked on its level: on a
			// 0.45-0.5 m ledge no move within half a leg lifts that knee clear.
			{
				const lbLegAxes* ox = &humanoid->legAxes[o];
				const float reachO = (ox->thighLength + ox->calfLength) * f->modelToWorld;
				const float clear = 0.1f * leg;
				float below = -1.0f, found = -1.0f, deficit = 0.0f;
				for (int i = 0; i <= 10 && found < 0.0f; ++i)
				{
					const float mid = 0.05f * (float)i * leg;
					const float drop = lbFootReachDrop(f, s, lbMulAdd(hip[s], mid, dir), goal[s]);
					const lbVec3 h = lbMulAdd(lbMulAdd(hip[o], mid, dir), -drop, f->up);
					if (lbDistance(h, goal[o]) > reachO)
						break;
					const float k = lbFootKneeClearance(f, humanoid, o, h, goal[o], dir);
					if (i == 0)
						deficit = clear - k;
					if (k >= clear)
						found = mid;
					else
						below = mid;
				}
				if (found > 0.0f && below >= 0.0f)
				{
					for (int i = 0; i < 6; ++i)
					{
						const float mid = 0.5f * (below + found);
						const float drop = lbFootReachDrop(f, s, lbMulAdd(hip[s], mid, dir), goal[s]);
						const lbVec3 h = lbMulAdd(lbMulAdd(hip[o], mid, dir), -drop, f->up);
						if (lbFootKneeClearance(f, humanoid, o, h, goal[o], dir) >= clear)
							found = mid;
						else
							below = mid;
					}
				}
				if (found > 0.0f)
				{
					const float w = lbSmoothStep(0.5f * deficit / clear);
					const lbVec3 t = lbMulSV(landing->alpha * other->alpha * air * w * found, dir);
					if (lbLengthSquared(t) > lbLengthSquared(target))
						target = t;
				}
			}
			const float excess = lbFootReachDrop(f, s, hip[s], goal[s]) -
								 lbFootFoldRoom(f, humanoid, o, hip[o], goal[o], holdBend);
			const float need = lbSmoothStep((excess / leg - 0.1f) / 0.2f);
			if (need <= 0.0f)
				continue;
			// Bisection: `tooLittle` moves too little, `enough` moves enough.
			float tooLittle = 0.0f, enough = 0.5f * leg;
			for (int i = 0; i < 8; ++i)
			{
				const float mid = 0.5f * (tooLittle + enough);
				if (lbFootReachDrop(f, s, lbMulAdd(hip[s], mid, dir), goal[s]) >
					lbFootFoldRoom(f, humanoid, o, lbMulAdd(hip[o], mid, dir), goal[o], bend))
					tooLittle = mid;
				else
					enough = mid;
			}
			const lbVec3 t = lbMulSV(landing->alpha * other->alpha * air * need * enough, dir);
			if (lbLengthSquared(t) > lbLengthSquared(target))
				target = t;
		}
	}
	const lbVec3 climb = lbFootClimbShift(state, def, f, humanoid);
	target = lbAdd(target, climb);
	if (f->snap)
	{
		state->pelvisShiftWs = target;
		state->climbShiftWs = climb;
	}
	else
	{
		const float a = lbFootInterpAlpha(f->memo, lb_footMemoShift, f->dt, 0.5f * def->pelvisSpeed);
		state->pelvisShiftWs = lbLerp(state->pelvisShiftWs, target, a);
		state->climbShiftWs = lbLerp(state->climbShiftWs, climb, a);
	}
}

// The pelvis drop limit in force (lbFootDef::pelvisMaxSinkSlope): pelvisMaxSink where the ground
// under every grounded foot tilts less than slopeLimit - 10 degrees, pelvisMaxSinkSlope where one
// tilts slopeLimit or more, eased between (in the cosine of the tilt); the limit moves toward that
// at no more than 0.5 m/s, and holds while no foot finds ground (a run's flight). Stair treads are
// level, so a drop down a riser keeps the whole pelvisMaxSink.
static void lbFootSinkLimit(lbFootState* state, const lbFootDef* def, lbFootFrame* f)
{
	const float full = lbMaxF(def->pelvisMaxSink, 0.0f), steep = lbMinF(lbMaxF(def->pelvisMaxSinkSlope, 0.0f), full);
	// w: how steep the steepest ground under a grounded foot is (0 below the ease, 1 at the limit);
	// seen: whether any foot found ground (with no slope sink, every frame counts as seen).
	float w = 0.0f;
	bool seen = steep >= full;
	if (!seen)
	{
		const float c1 = lbFootCos(f->memo, lb_footMemoSlope, def->slopeLimit);
		const float c0 = lbFootCos(f->memo, lb_footMemoSlopeEase, lbMaxF(def->slopeLimit - 10.0f * LB_DEG2RAD, 0.0f));
		for (int s = 0; s < 2; ++s)
		{
			const lbFootLegState* leg = &state->legs[s];
			if (!leg->grounded)
				continue;
			seen = true;
			w = lbMaxF(w, c0 > c1 ? lbSmoothStep((c0 - lbDot(leg->groundNormalWs, f->up)) / (c0 - c1)) : 1.0f);
		}
	}
	const float target = full + w * (steep - full);
	if (!state->initialized || f->snap || !(state->pelvisSinkLimit >= 0.0f))
		state->pelvisSinkLimit = seen ? target : full;
	else if (seen)
		state->pelvisSinkLimit = lbClampF(target, state->pelvisSinkLimit - 0.5f * f->dt, state->pelvisSinkLimit + 0.5f * f->dt);
	state->pelvisSinkLimit = lbMinF(state->pelvisSinkLimit, full);
	f->sinkLimit = state->pelvisSinkLimit;
}

// Step 8b: a free foot whose goal would raise its thigh past hipMaxFlex (running up stairs, a
// swing reaching for a tread two or three risers above the body's floor) lifts the hips: the pose
// stage turns such a goal down about the hip, and the toes went into the riser the goal had
// cleared (running up 0.25/0.30 m stairs, the ankle 10-20 cm under its goal). The smallest lift
// (bisection) that brings the thigh within the limit, no more than pelvisMaxLift, and only while
// that leg needs the pelvis no lower. The other leg bounds it: a foot locked or on the ground
// keeps the hips within its reach; a foot in the air below this one (the trailing foot just off
// the tread it left, its leg stretched) yields instead: it no longer holds the pelvis down, and
// its goal rises as far as keeps it within reach of the hips where the pelvis is (a stronger
// push-off). Out of line: inlined, with lbFootThighWithin's test, the sense stage around it
// compiled to some 650 more instructions a character-frame (the walking crowd's); the call costs
// about 30.
static LB_NOINLINE float lbFootHipLift(const lbFootState* state, const lbFootDef* def, const lbFootFrame* f, const lbHumanoid* humanoid,
						   const bool legCounts[2], const lbVec3 legHip[2], const lbVec3 legGoal[2], const float legDrop[2], bool capOn,
						   int* outYielder)
{
	float lift = 0.0f;
	int yielder = -1;
	if (def->hipMaxFlex > 0.0f && def->hipMaxFlex < LB_PI && def->pelvisMode == lb_footPelvisLowestFoot)
	{
		for (int side = 0; side < 2; ++side)
		{
			const lbFootLegState* leg = &state->legs[side];
			const int o = 1 - side;
			const lbFootLegState* other = &state->legs[o];
			if (leg->locked || !legCounts[side] || legDrop[side] > 0.0f)
				continue;
			const bool yieldO = legCounts[o] && !other->locked && other->prevSoleAboveFloor > def->lockHeight &&
								lbDot(lbSub(legGoal[o], legGoal[side]), f->up) < 0.0f;
			if (legDrop[o] > 0.0f && !yieldO)
				continue;
			const lbLegAxes* ax = &humanoid->legAxes[side];
			const float a = ax->thighLength * f->modelToWorld, b = ax->calfLength * f->modelToWorld;
			const float dMin = capOn ? sqrtf(lbMaxF(a * a + b * b - 2.0f * a * b * lbFootCos(f->memo, lb_footMemoCap, LB_PI - def->kneeMaxBend), 0.0f)) : 0.0f;
			const lbVec3 hip = lbAdd(legHip[side], state->pelvisShiftWs);
			if (lbFootThighWithin(f, humanoid, side, hip, legGoal[side], dMin, def->hipMaxFlex))
				continue;
			const lbVec3 hipO = lbAdd(legHip[o], state->pelvisShiftWs);
			float lo = 0.0f, hi = lbMaxF(def->pelvisMaxLift, 0.0f);
			// No higher than the other leg still reaches.
			if (!yieldO && legCounts[o] && lbFootReachDrop(f, o, lbMulAdd(hipO, hi, f->up), legGoal[o]) > 0.0f)
			{
				float ok = 0.0f, bad = hi;
				for (int i = 0; i < 8; ++i)
				{
					const float mid = 0.5f * (ok + bad);
					if (lbFootReachDrop(f, o, lbMulAdd(hipO, mid, f->up), legGoal[o]) > 0.0f)
						bad = mid;
					else
						ok = mid;
				}
				hi = ok;
			}
			if (lbFootThighFlex(f, humanoid, side, lbMulAdd(hip, hi, f->up), legGoal[side], dMin) > def->hipMaxFlex)
				lo = hi;
			else
				for (int i = 0; i < 8; ++i)
				{
					const float mid = 0.5f * (lo + hi);
					if (lbFootThighFlex(f, humanoid, side, lbMulAdd(hip, mid, f->up), legGoal[side], dMin) > def->hipMaxFlex)
						lo = mid;
					else
						hi = mid;
				}
			if (leg->alpha * lo > lift)
			{
				lift = leg->alpha * lo;
				yielder = yieldO ? o : -1;
			}
		}
	}
	*outYielder = yielder;
	return lift;
}

// Step 8c: the drop the pelvis will need once a swinging foot lands: from the hips to its goal
// put down onto the ground under the animated foot. Only for a foot in the air whose ground lies
// two edge heights below the other foot's goal while the floor falls (stairs, a ledge, a step
// down); on slopes and going up it stays out of the way. Also with the floor level (a clip's root
// still over the top, a game's controller that has not stepped down yet): a foot sliding to land
// on a level two edge heights below both where it last stood locked and where the other foot
// stands locked. Left to the pose stage's reach, the pelvis stayed up until the landing leg was
// straight and then came down with the foot, 3.8 cm in a frame, and the locked leg's knee folded
// 35 degrees in that frame (CMU 01_03 stepping down a 0.42 m drop: 20.1 degrees of added pop,
// 14.1 now). Not over a gap (its foot lands on a rim, not in the pit: eased down for a pit it
// then stepped over, the hips dipped 19 cm), nor for a jump's second foot when the first has
// landed below (the ease came on for a frame and went again: a thigh pop of 16 degrees).
static float lbFootAheadDrop(const lbFootState* state, const lbFootDef* def, const lbFootFrame* f, const bool legCounts[2],
							 const lbVec3 legHip[2], const lbVec3 legGoal[2], const lbVec3 legLand[2], int yielder)
{
	float ahead = 0.0f;
	for (int side = 0; side < 2; ++side)
	{
		const lbFootLegState* leg = &state->legs[side];
		if (leg->locked || !legCounts[side] || side == yielder || leg->prevSoleAboveFloor <= def->lockHeight)
			continue;
		const lbFootLegState* other = &state->legs[1 - side];
		const lbVec3 hip = lbAdd(legHip[side], state->pelvisShiftWs);
		const lbVec3 land = legLand[side];
		const float twoEdges = 2.0f * def->edgeHeight;
		if (lbDot(lbSub(legGoal[1 - side], land), f->up) < twoEdges)
			continue;
		// With the floor level, only a landing below both locks (see above).
		const bool belowLocks = leg->sliding && !leg->slideGap && other->locked &&
								lbDot(lbSub(other->lockAnkleWs, land), f->up) > twoEdges &&
								lbDot(lbSub(leg->lockAnkleWs, land), f->up) > twoEdges;
		if (!(f->floorMove < 0.0f) && !belowLocks)
			continue;
		ahead = lbMaxF(ahead, leg->alpha * lbFootReachDrop(f, side, hip, land));
	}
	return ahead;
}

// Step 9: the pelvis: drop so the lower foot reaches (or follow the weighted mean), within limits,
// smoothed, and eased down ahead of a landing far below (`ahead`); and the landing impulse.
static void lbFootPelvis(lbFootState* state, const lbFootDef* def, const lbFootFrame* f, const lbFootSenseInput* in,
						 const bool counts[2], const float dz[2], const float drop[2], const float room[2], float lift, float ahead)
{
	float target = 0.0f;
	if (counts[0] || counts[1])
	{
		if (def->pelvisMode == lb_footPelvisWeightedAverage)
		{
			int n = (counts[0] ? 1 : 0) + (counts[1] ? 1 : 0);
			target = ((counts[0] ? dz[0] : 0.0f) + (counts[1] ? dz[1] : 0.0f)) / (float)n * def->pelvisWeight;
		}
		else
		{
			// Lowest foot: the pelvis comes down exactly as far as the leg with the lower goal needs
			// to reach it, and no further; the other leg bends. Dropping by the whole foot offset
			// instead would fold the legs on every uphill step.
			target = -lbMaxF(counts[0] ? drop[0] : 0.0f, counts[1] ? drop[1] : 0.0f);
			if (target >= 0.0f)
				target = lift;
		}
	}
	target = lbClampF(target, -f->sinkLimit, lbMaxF(def->pelvisMaxLift, 0.0f));
	const float fold = -lbMinF(room[0], room[1]);
	// A landing ahead far below (`ahead`, the drop the swinging leg will need to reach the ground
	// under it, world m): the pelvis starts down toward 0.7 of it while the foot is still in the
	// air, eased at pelvisSpeed and no lower than a free leg's fold room, instead of coming down the
	// whole drop within the three frames after the lock (walking down 0.25 m stairs the trailing calf
	// turned 15 degrees in that frame). Only eased toward: the floor-falls rule below would take it
	// at once. At 0.75 the trailing leg folds deeper walking down 0.30 m (limb 25 -> 28 mm).
	float easeTarget = target;
	if (ahead > 0.0f && def->pelvisMode != lb_footPelvisWeightedAverage)
		easeTarget = lbMinF(target, lbMaxF(-lbMinF(0.7f * ahead, f->sinkLimit), fold));
	// The pelvis eases toward its target, back up twice as fast as down: a pelvis held low is what
	// folds a trailing leg.
	const float before = state->pelvisOffset;
	if (f->snap)
		state->pelvisOffset = target;
	else if (state->pelvisOffset != easeTarget)
		state->pelvisOffset =
			lbFootInterpTo(f->memo, lb_footMemoPelvis, state->pelvisOffset, easeTarget, f->dt, def->pelvisSpeed * (easeTarget > state->pelvisOffset ? 2.0f : 1.0f));
	// While the floor falls away (down a slope or stairs), the pelvis comes down at once as far as
	// the lower leg needs to reach, which the pose stage would apply anyway, and then eases back up
	// from there: left at the smoothed offset, the pose stage's drop for a landing leg comes and goes
	// unsmoothed (0.2 m and back at 6 cm a frame running down 35 degrees) and the trailing calf pops
	// with it. Held, it is never lower than a free leg's fold room allows, unless a leg needs it.
	if (!f->snap && f->floorMove < 0.0f && def->pelvisMode != lb_footPelvisWeightedAverage)
		state->pelvisOffset = lbMinF(state->pelvisOffset, lbMaxF(target, fold));
	if (state->pelvisOffset < target)
		state->pelvisOffset = lbMaxF(state->pelvisOffset, lbMinF(target, fold));
	// Back up from below the animation (a drop receding: the landing leg's reach, the body coming
	// down after its foot) the pelvis rises in the world at no more than an eighth of maxGoalSpeed:
	// running down stairs the reach a landing lock needs recedes by 2-6 cm a frame while the
	// trailing knee is at or near kneeMaxBend, and a pelvis following it at once turned that leg
	// with it (running down 0.18 m stairs 15.0 -> 14.2 degrees on the mannequin, 0.30 m 21.6 ->
	// 20.7). Only while a free leg has under 0.1 m of fold room left (its knee near the held
	// bend): slowed everywhere, the rise folded the legs on uphill slopes (walking up 30 degrees
	// 8.0 -> 9.8 degrees on mixamo). The state is carried across floor jumps, so its change here is
	// its change in the world. A lift (hipMaxFlex) is not slowed.
	if (!f->snap && before < 0.0f && target <= 0.0f && fold > -0.1f && def->maxGoalSpeed > 0.0f)
		state->pelvisOffset = lbMinF(state->pelvisOffset, lbMaxF(before + 0.125f * def->maxGoalSpeed * f->dt, lbMinF(before, 0.0f)));
	// While the floor falls away, the pose stage lowers the pelvis at once as far as a leg needs to
	// reach (`reachDrop`, unsmoothed), below where the fold room above held the state: the state
	// follows it down there, so when that need recedes (a landing lock blended in, the body coming
	// down after the foot) the pelvis eases back up from where it really is instead of jumping up
	// to the state (running down 0.18 m stairs on mixamo, 5.6 cm in a frame unfolded the trailing
	// knee 14 degrees). Going up, a pelvis held that low folds the legs into the steps.
	if (!f->snap && f->floorMove < 0.0f && def->pelvisMode != lb_footPelvisWeightedAverage)
	{
		const float need = lbMaxF(counts[0] ? drop[0] : 0.0f, counts[1] ? drop[1] : 0.0f);
		state->pelvisOffset = lbMinF(state->pelvisOffset, -lbMinF(need, f->sinkLimit));
	}
	// The landing impulse is a critically damped dip, (A + B t) e^(-k t) at k = landingRelaxSpeed:
	// from none it reaches landingCompression 1/k after the touchdown and relaxes from there. Set
	// at once, it bent legs landing nearly straight by 30 degrees in a frame on top of the IK
	// snapping back in (walking off 0.51-0.56 m ledges, a fall: added pops 17.6-17.8 degrees).
	if (in->landed)
	{
		state->landing = 0.0f;
		state->landingRate = def->landingCompression * def->landingRelaxSpeed * 2.7182818f;
	}
	if ((state->landing != 0.0f || state->landingRate != 0.0f) && f->dt > 0.0f && lbIsValidFloat(f->dt))
	{
		const float k = def->landingRelaxSpeed, decay = 1.0f - lbFootInterpAlpha(f->memo, lb_footMemoLanding, f->dt, k);
		const float x0 = state->landing, b = state->landingRate + k * x0, t = f->dt;
		state->landing = (x0 + b * t) * decay;
		state->landingRate = (state->landingRate - k * b * t) * decay;
		// Relaxed to nothing: stop (a denormal tail would cost every frame).
		if (lbAbsF(state->landing) < 1.0e-6f && lbAbsF(state->landingRate) < 1.0e-5f)
			state->landing = state->landingRate = 0.0f;
	}
}

// A free leg folded near its knee cap (a trailing foot left on a tread above a body that has come
// down the stairs, or swinging through under hips held low for the other leg): its ankle goal passes
// within a few tenths of a metre of the hip at the speed of the body, so the line from the hip to it,
// and with it the thigh, the calf and the foot held at the ankle limit, turned 15-25 degrees in a
// frame (running and walking down 0.18-0.30 m stairs). The pose stage cannot ease that: it keeps no
// state. Here, from the hips where the pose stage will put them (the offset, or lower for a leg that
// needs it, and the move ahead): the goal is put no nearer the hip than the knee 0.5 degrees short of
// kneeMaxBend, and while the knee is within 40 degrees of its cap (and until the goal has caught up
// after) the line from the hip turns at most 10 degrees per 1/60 s and lengthens at most 2.7 m/s, going
// down no faster than 1.1 times the body's ground speed (an unfolding knee let go of the ankle limit
// within a frame). Then two guards, which win over both:
// the goal goes back against the motion (where stairs down rise behind the foot) only while it stays
// above and ahead of where the foot last stood locked, and it goes no lower than it was, or while the
// floor falls, than 2 cm above the ground plane under the foot. The moved goal is kept (goalOffsetWs),
// so maxGoalSpeed eases it back once the leg unfolds.
static void lbFootFoldedGoals(lbFootState* state, const lbFootDef* def, const lbFootFrame* f, const lbFootSenseInput* in,
							  const lbHumanoid* humanoid, const lbVec3 legHip[2], const float legDrop[2], lbFootTargets* out)
{
	const bool capOn = def->kneeMaxBend > 0.0f && def->kneeMaxBend < LB_PI;
	if (!capOn || def->pelvisMode != lb_footPelvisLowestFoot)
		return;
	// The hips where the pose stage puts them: the offset, or lower for a leg that needs it.
	const float offset = state->pelvisOffset + state->landing;
	float drop = offset;
	for (int side = 0; side < 2; ++side)
		if (legDrop[side] > 0.0f)
			drop = lbMinF(drop, -legDrop[side]);
	drop = state->alpha * lbMaxF(drop, lbMinF(offset, -f->sinkLimit));
	const float cosZone = lbFootCos(f->memo, lb_footMemoZone, LB_PI - lbMaxF(def->kneeMaxBend - 40.0f * LB_DEG2RAD, 0.0f));
	const float frames = f->dt * 60.0f, maxTurn = 10.0f * LB_DEG2RAD * frames;
	// The body's motion and the limits below, worked out for the first leg that folds (most frames
	// none does).
	float cosKeep = 0.0f, maxGrowDown = 0.0f;
	lbVec3 vel = lbVec3_zero, fwd = lbVec3_zero;
	bool motionKnown = false;
	for (int side = 0; side < 2; ++side)
	{
		lbFootLegState* leg = &state->legs[side];
		// A leg with room to fold that was not folded last frame is left alone (most frames).
		if (leg->locked || leg->alpha <= 0.0f || f->snap)
		{
			leg->folded = false;
			continue;
		}
		const lbLegAxes* ax = &humanoid->legAxes[side];
		const float a = ax->thighLength * f->modelToWorld, b = ax->calfLength * f->modelToWorld;
		const lbVec3 hip = lbMulAdd(lbAdd(legHip[side], lbMulSV(state->alpha, state->pelvisShiftWs)), drop, f->up);
		const lbVec3 goal = out->feet[side].ankleWs;
		const lbVec3 d = lbSub(goal, hip);
		const float len = lbLength(d);
		const float dZone = sqrtf(lbMaxF(a * a + b * b - 2.0f * a * b * cosZone, 0.0f));
		if (len < 1.0e-4f || (!leg->folded && len >= dZone))
		{
			leg->folded = false;
			continue;
		}
		if (!motionKnown)
		{
			motionKnown = true;
			cosKeep = lbFootCos(f->memo, lb_footMemoKeep, LB_PI - lbMaxF(def->kneeMaxBend - 0.5f * LB_DEG2RAD, 0.0f));
			vel = lbIsValidVec3(in->velocityWs) ? lbProjectOnPlane(in->velocityWs, f->up) : lbVec3_zero;
			fwd = lbNormalizeOr(vel, lbVec3_zero);
			// Going down (the goal below where the foot last stood locked) the line lengthens no faster than
			// the body's ground speed (at least 0.6 m/s, so a standing body still unfolds), and never past 2.7
			// m/s: at 2.7 m/s a walk's trailing knee let go of its cap within two frames and the foot, held at
			// the ankle limit until then, turned 18 degrees in one (walking down 0.30 m stairs 18.4/17.6 ->
			// 16.8/15.9 degrees on the two rigs at 1.1 times the speed; with the free ankle's soft limit, 1.0
			// keeps mixamo's 15.9 where 1.1 let it go to 16.2). At 0.8-0.9 the pops fell further but the
			// trailing sole went 1.5-2 cm into the treads of 0.276 m risers on 0.369 m treads; going up it
			// went 12 mm into a riser, so there the line keeps 2.7 m/s. A run (3.5 m/s) keeps it too.
			maxGrowDown = lbMinF(0.045f * frames, lbMaxF(lbLength(vel), 0.6f) * f->dt);
		}
		const float dKeep = sqrtf(lbMaxF(a * a + b * b - 2.0f * a * b * cosKeep, 0.0f));
		lbVec3 want = lbMulSV(1.0f / len, d);
		// The pose stage turns a free foot's goal down about the hip until the thigh, placed by the
		// hip's triangle angle above the line to the goal, is within hipMaxFlex (lbFootPosePrepare).
		// A running trailing foot behind the hips meets that limit as its leg folds, and the pose
		// stage keeps no state: the turn came and went with the goal's elevation, 7 cm in a frame,
		// and the folded leg turned with it (running down 0.25 m stairs on mixamo, 20 degrees in a
		// frame). At a run's pace the same turn is made here first, on the line this step eases, so
		// the turn limit below spreads it and the pose stage finds the goal within its limit. Not at
		// a walk's: there a goal swinging under the hip whose line turned too far rises (below), and
		// from a line turned down here it rose 24 cm in a frame (walking down 0.28 m risers on
		// 0.26 m treads, a 29-degree pop).
		if (def->hipMaxFlex > 0.0f && def->hipMaxFlex < LB_PI && lbLengthSquared(vel) >= 4.0f)
		{
			float sinMax, cosMax;
			lbFootHipCapElevation(a, b, lbMaxF(len, dKeep), cosf(def->hipMaxFlex), sinf(def->hipMaxFlex), &sinMax, &cosMax);
			if (cosMax < 0.0f || lbDot(want, f->up) > sinMax)
				want = lbNormalizeOr(lbAdd(lbMulSV(cosMax, lbNormalizeOr(lbProjectOnPlane(want, f->up), fwd)), lbMulSV(sinMax, f->up)), want);
		}
		lbVec3 dir = want;
		float newLen = lbMaxF(len, dKeep);
		if (leg->folded)
		{
			const float c = lbClampF(lbDot(leg->foldDirWs, dir), -1.0f, 1.0f);
			if (acosf(c) > maxTurn)
			{
				const lbVec3 perp = lbNormalizeOr(lbMulAdd(dir, -c, leg->foldDirWs), lbVec3_zero);
				dir = lbNormalizeOr(lbAdd(lbMulSV(cosf(maxTurn), leg->foldDirWs), lbMulSV(sinf(maxTurn), perp)), dir);
			}
			newLen = lbMinF(newLen, leg->foldLength + (lbDot(lbSub(goal, leg->lockAnkleWs), f->up) < 0.0f ? maxGrowDown : 0.045f * frames));
		}
		lbVec3 moved = lbMulAdd(hip, newLen, dir);
		// Back against the motion only above and ahead of where the foot last stood locked (the
		// tread it left); else that part of the move is dropped.
		const float back = -lbDot(lbSub(moved, goal), fwd);
		const lbVec3 fromLock = lbSub(moved, leg->lockAnkleWs);
		const bool dropped = back > 0.0f && !(lbDot(fromLock, f->up) >= -0.01f && lbDot(fromLock, fwd) >= 0.0f);
		if (dropped)
			moved = lbMulAdd(moved, back, fwd);
		// Never lower than the goal was; while the floor falls, no lower than 2 cm above the ground
		// under the foot (going up, lowered toward its tread, the foot went deeper into the riser).
		float under = lbDot(lbSub(goal, moved), f->up);
		if (leg->grounded && f->floorMove < 0.0f)
			under -= lbMaxF(lbDot(lbSub(out->feet[side].contactWs, leg->groundPointWs), f->up) - 0.02f, 0.0f);
		if (under > 0.0f)
			moved = lbMulAdd(moved, under, f->up);
		// The guards win over the turn limit: walking down 0.30 m stairs the trailing goal, below the
		// tread it left, dropped its move back and its line went from 22 to 2 degrees behind the hip
		// in a frame; the knee left its cap and the folded leg turned 16 degrees. At a walk's pace
		// (under 2 m/s), past 1.5 times the turn limit such a goal rises (the one move both guards
		// allow) by the least that brings its line within that (bisection), if a rise of up to a
		// fifth of the leg does; if none does and the goal has swung to within the turn limit of
		// straight under the hip, by that fifth when it brings the line nearer its last direction:
		// the knee stays at its cap and the foot passes under the hip instead of dipping. Without
		// that last condition the imported BCN rig's trailing leg popped 28 degrees walking down
		// 0.30 m. A run's trailing foot swings through in fewer frames, and rising it popped the leg
		// (running down 0.25-0.27 m risers, 18-21 degrees in the terrain sweep).
		if (leg->folded && dropped && lbLengthSquared(vel) < 4.0f)
		{
			const lbVec3 p0 = lbSub(moved, hip);
			const float c0 = lbDot(lbNormalizeOr(p0, dir), leg->foldDirWs), cosTurn = cosf(1.5f * maxTurn);
			if (c0 < cosTurn)
			{
				const float riseMax = 0.2f * (a + b);
				const float cMax = lbDot(lbNormalizeOr(lbMulAdd(p0, riseMax, f->up), dir), leg->foldDirWs);
				if (cMax > c0 && (cMax >= cosTurn || lbDot(p0, f->up) < -cosf(maxTurn) * lbLength(p0)))
				{
					float lo = 0.0f, hi = riseMax;
					if (cMax >= cosTurn)
						for (int i = 0; i < 8; ++i)
						{
							const float mid = 0.5f * (lo + hi);
							if (lbDot(lbNormalizeOr(lbMulAdd(p0, mid, f->up), dir), leg->foldDirWs) >= cosTurn)
								hi = mid;
							else
								lo = mid;
						}
					// No nearer the hip than the knee's cap keeps it (dKeep): rising straight up from
					// under the hip, a fifth of the leg took the goal to 4 cm from the hip, where
					// the line's direction, which the pose stage pushes the goal out along, turns
					// at random (walking down 0.285 m risers diagonally, 31 degrees in a frame).
					const float below = lbDot(p0, f->up), disc = below * below - lbLengthSquared(p0) + dKeep * dKeep;
					if (disc > 0.0f)
						hi = lbMinF(hi, lbMaxF(-below - sqrtf(disc), 0.0f));
					moved = lbMulAdd(moved, hi, f->up);
				}
			}
		}
		const lbVec3 shown = lbSub(moved, hip);
		leg->foldDirWs = lbNormalizeOr(shown, dir);
		leg->foldLength = lbLength(shown);
		leg->folded = newLen < dZone || lbDot(leg->foldDirWs, want) < 0.99996192f; // cos 0.5 degrees
		const lbVec3 move = lbSub(moved, goal);
		out->feet[side].ankleWs = moved;
		out->feet[side].contactWs = lbAdd(out->feet[side].contactWs, move);
		leg->goalOffsetWs = lbAdd(leg->goalOffsetWs, move);
	}
}

// A foot standing or landing two risers or more below the other, whose leg would take the hips
// down past the other leg's fold room or fold that leg's knee down to its own sole: walking and
// running down 0.25-0.30 m stairs the stride spans two or three treads, and the trailing knee
// folds onto its cap, below the tread its foot is leaving, while the landing leg stands straight
// with its calf against the nose it passed. The lower foot turns toes-down about its ball, as a
// person stepping down a tall stair stands on the ball with the heel up: the heel's rise lifts the
// ankle and with it the hips that leg needs. The smallest turn (bisection, at most 25 degrees) that
// keeps the hips within the other leg's fold room and the other knee (placed by the leg's lengths,
// bent toward the motion) a tenth of a leg above its sole; none unless the other foot is off the
// ground with that knee under 0.3 of a leg above its sole at the hips the drop would give (higher,
// it still has room). With the fold room alone, the turn came too late for the walk (the knee
// reached its cap before the room ran out: walking down 0.30 m stairs the trailing ball 35 mm into
// its tread, the landing calf 25 mm into the nose). The turn is kept per leg (toePitch) and eased:
// in at 1 degree per 1/60 s plus 1.75 times the turn already made, at most 3 degrees (started at 3,
// the first frame's turn added to the trailing calf's pop in the frame the pelvis drops), and out
// at 6 degrees (at 4, walking down 0.25 m stairs popped 15.4/15.8 degrees on the two rigs).
// `goal` and `drop` are updated with the turned ankle.
static void lbFootToesDown(lbFootState* state, const lbFootDef* def, const lbFootFrame* f, const lbHumanoid* humanoid,
						   const lbSole soles[2], const bool counts[2], const lbVec3 legHip[2], const float room[2],
						   lbVec3 goal[2], float drop[2], lbFootTargets* out)
{
	const float maxPitch = 25.0f * LB_DEG2RAD, frames = f->dt * 60.0f;
	const bool on = def->pelvisMode == lb_footPelvisLowestFoot && def->kneeMaxBend > 0.0f && def->kneeMaxBend < LB_PI;
	for (int s = 0; s < 2; ++s)
	{
		lbFootLegState* leg = &state->legs[s];
		const int o = 1 - s;
		const lbFootLegState* other = &state->legs[o];
		// Most frames: the leg needs the hips no lower, and no turn is easing out.
		if (!(drop[s] > 0.0f) && leg->toePitch <= 0.0f)
			continue;
		const bool need = on && !f->snap && drop[s] > 0.0f && counts[s] && counts[o] && !other->locked &&
						  (leg->locked || leg->prevSoleAboveFloor < def->slideHeight) && other->prevSoleAboveFloor > def->lockHeight &&
						  lbDot(lbSub(goal[o], goal[s]), f->up) >= 2.0f * def->edgeHeight && lbDot(lbSub(goal[s], goal[o]), f->velH) > 0.0f;
		// The other knee, placed by the leg's lengths at the hips the drop gives: the turn is for a
		// knee folded down near its sole. It stands no lower than the hip less the thigh, so most
		// frames need not place it.
		const lbLegAxes* ax = &humanoid->legAxes[o];
		const float legO = (ax->thighLength + ax->calfLength) * f->modelToWorld, kneeMin = 0.1f * legO;
		const lbVec3 hipO = lbAdd(legHip[o], state->pelvisShiftWs);
		const float limit = room[o] * other->alpha;
		const lbVec3 fwd = lbNormalizeOr(f->velH, lbVec3_zero);
		bool asks = false;
		if (need && lbDot(lbSub(hipO, goal[o]), f->up) - drop[s] - (ax->thighLength - ax->ankleHeight) * f->modelToWorld < 0.3f * legO)
		{
			const float knee = lbFootKneeClearance(f, humanoid, o, lbMulAdd(hipO, -drop[s], f->up), goal[o], fwd);
			asks = knee < 0.3f * legO && (drop[s] > limit || knee < kneeMin);
		}
		if (!asks && leg->toePitch <= 0.0f)
			continue;
		lbFootTarget* ft = &out->feet[s];
		const lbVec3 hip = lbAdd(legHip[s], state->pelvisShiftWs);
		const lbSole* sole = &soles[s];
		// The foot turns about the sole's ball where its toes bend flat onto the ground (the pose
		// stage bends them under a planted or locked foot, coming in over a few frames: toeBend),
		// and about a point out toward the toe tip as far as the toes stay unbent this frame (all
		// the way where the rig has no toe bones). About the ball from a landing's first frame, the
		// unbent toe tip of a foot stepping down 0.44 m into a trench went 1.2 cm into its floor.
		const float unbent = humanoid->leg[s].ball >= 0 ? 1.0f - lbClampF(leg->toeBend, 0.0f, 1.0f) : 1.0f;
		const float pivotAlong = sole->along[lb_soleBall] + unbent * (sole->along[lb_soleToeTip] - sole->along[lb_soleBall]);
		const lbVec3 pivot =
			lbAdd(ft->ankleWs, lbMulSV(f->modelToWorld, lbQuatRotate(ft->footRotWs, lbMulAdd(sole->under, pivotAlong, sole->toeFlat))));
		// Toes-down: about the horizontal axis across the foot, turning its toe axis toward -up.
		const lbVec3 axis = lbNormalizeOr(lbCross(f->up, lbProjectOnPlane(lbQuatRotate(ft->footRotWs, sole->toeFlat), f->up)), lbVec3_zero);
		// This frame's turn lies between the most it may ease out and the most it may ease in.
		const float stepIn = lbMinF(3.0f * LB_DEG2RAD, 1.0f * LB_DEG2RAD + 1.75f * leg->toePitch) * frames;
		const float least = lbMaxF(leg->toePitch - 6.0f * LB_DEG2RAD * frames, 0.0f);
		float pitch = least;
		if (asks && lbLengthSquared(axis) > 0.0f)
		{
			// The smallest turn within this frame's range that is enough (the most, if none is), by
			// bisection: the same as easing toward the smallest enough turn of all, in fewer solves.
			const lbVec3 arm = lbSub(ft->ankleWs, pivot);
			float lo = least, hi = lbMinF(leg->toePitch + stepIn, maxPitch);
			for (int i = -2; i < 4 && hi > lo; ++i)
			{
				const float at = i == -2 ? hi : i == -1 ? lo : 0.5f * (lo + hi);
				const float d = lbFootReachDrop(f, s, hip, lbAdd(pivot, lbQuatRotate(lbQuatFromAxisAngle(axis, at), arm))) * leg->alpha;
				const bool enough = d <= limit && lbFootKneeClearance(f, humanoid, o, lbMulAdd(hipO, -d, f->up), goal[o], fwd) >= kneeMin;
				if (i == -2 && !enough)
					lo = hi; // not even the most: the most
				else if (i == -1 && enough)
					hi = lo; // the least is enough
				else if (i >= 0)
				{
					if (enough)
						hi = at;
					else
						lo = at;
				}
			}
			pitch = hi;
		}
		leg->toePitch = f->snap ? 0.0f : pitch;
		if (leg->toePitch <= 0.0f || lbLengthSquared(axis) <= 0.0f)
			continue;
		const lbQuat turn = lbQuatFromAxisAngle(axis, leg->toePitch);
		ft->ankleWs = lbAdd(pivot, lbQuatRotate(turn, lbSub(ft->ankleWs, pivot)));
		ft->footRotWs = lbQuatNormalize(lbQuatMul(turn, ft->footRotWs));
		goal[s] = ft->ankleWs;
		drop[s] = lbFootReachDrop(f, s, hip, goal[s]) * leg->alpha;
		ft->reachDrop = drop[s];
	}
}

// Lock blend (exponential interp-to); a blend already at its end stays there.
static void lbFootLockBlend(lbFootLegState* leg, const lbFootDef* def, const lbFootFrame* f)
{
	if (leg->locked)
	{
		// In at twice the release speed, 1.5 times while the floor falls: a lock far below the
		// landing goal (a stair two risers down) pulls the pelvis down with it, and at twice the
		// speed it did so in two frames, folding the other leg; at 1.5 times running down
		// 0.25/0.30 m stairs sank 1-4 mm less into the steps. Slower still (1 to 0.8 times) the
		// trailing knee at its cap turned faster (running down 0.25 m on mixamo 18.2 -> 18.5-18.7
		// degrees); slower going up too, the toes went into the risers (sweep: walking up 0.25-0.31
		// m stairs 1-2 mm deeper).
		if (leg->lockAlpha != 1.0f)
			leg->lockAlpha = lbMinF(1.0f, lbFootInterpTo(f->memo, lb_footMemoLockIn, leg->lockAlpha, 1.0f, f->dt, (f->floorMove < 0.0f ? 1.5f : 2.0f) * def->lockBlendSpeed) + 1.0e-3f);
	}
	else if (f->snap)
		leg->lockAlpha = 0.0f;
	else if (leg->lockAlpha != 0.0f)
	{
		leg->lockAlpha = lbFootInterpTo(f->memo, lb_footMemoLockOut, leg->lockAlpha, 0.0f, f->dt, def->lockBlendSpeed);
		if (leg->lockAlpha < 1.0e-3f)
			leg->lockAlpha = 0.0f;
	}
}

// The bones the foot system reads (LB_FOOT_READ_BONES), LB_NULL_INDEX where the rig has none.
static void lbFootReadBones(const lbHumanoid* h, int out[LB_FOOT_READ_BONES])
{
	out[0] = h->pelvis;
	for (int s = 0; s < 2; ++s)
	{
		out[1 + 4 * s] = h->leg[s].thigh;
		out[2 + 4 * s] = h->leg[s].calf;
		out[3 + 4 * s] = h->leg[s].foot;
		out[4 + 4 * s] = h->leg[s].ball;
	}
}

static lbFootReadList lbFootReadListOf(const lbHumanoid* h)
{
	int bones[LB_FOOT_READ_BONES];
	lbFootReadBones(h, bones);
	lbFootReadList r;
	r.count = 0;
	for (int i = 0; i < LB_FOOT_READ_BONES; ++i)
		if (bones[i] >= 0)
			r.bone[r.count++] = bones[i];
	r.bone[r.count] = r.count > 0 ? r.bone[r.count - 1] : LB_NULL_INDEX;
	return r;
}

// The rig check at each entry, every frame: a map made for this skeleton (bone count and
// fingerprint), its counts in range, and the bones this system reads and writes (pelvis, thigh,
// calf, foot and ball of each leg) inside it. A map that passes is used only through those; one
// that does not gets the full lbHumanoid_Check, which says what is wrong. The full check walks
// every role, a tenth of a frame's sense stage.
static lbResult lbFootCheckRig(const lbHumanoid* h, const lbSkeleton* s)
{
	if (h && s && h->boneCount == s->boneCount && h->skeletonFingerprint == s->fingerprint && h->spineCount >= 0 &&
		h->spineCount <= LB_MAX_SPINE && h->arm[0].twistCount >= 0 && h->arm[0].twistCount <= 3 && h->arm[1].twistCount >= 0 &&
		h->arm[1].twistCount <= 3)
	{
		int bones[LB_FOOT_READ_BONES];
		lbFootReadBones(h, bones);
		bool inside = true;
		for (int k = 0; k < LB_FOOT_READ_BONES; ++k)
			inside = inside && (bones[k] == LB_NULL_INDEX || (bones[k] >= 0 && bones[k] < s->boneCount));
		if (inside)
			return lb_ok;
	}
	return lbHumanoid_Check(h, s);
}

// Whether the animated pose is finite where the sense stage reads it (the model transforms of the
// pelvis and the legs' bones); the rest of the pose is never read here.
static bool lbFootAnimFinite(const lbPose* pose, const lbFootReadList* read)
{
	const int* bones = read->bone;
#if defined(LB_SIMD_SSE)
	// The common verdict in four lanes with one branch at the end: every position and scale
	// component finite and every rotation component below 2^125 in magnitude (an ordered compare,
	// which NaN fails). Four such components sum without overflow, so the rotation's sum is finite
	// too and the pose passes. A pose outside those bounds takes the exact tests below. Finiteness
	// without compares: x * 0 is a zero for finite x and NaN otherwise, and a sum of zeros stays a
	// zero while one NaN makes it NaN.
	_Static_assert(sizeof(lbTransform) == 40 && offsetof(lbTransform, s) == 28, "lbTransform layout");
	const __m128 abs = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
	const __m128 zero = _mm_setzero_ps(), qMax = _mm_set1_ps(0x1p125f);
	__m128 ok = _mm_castsi128_ps(_mm_set1_epi32(-1)), zeros = zero;
	for (int k = 0; k < read->count; ++k)
	{
		const float* f = &pose->model[bones[k]].p.x;
		// Three overlapping loads: position and q.x, the rotation, q.w and scale. The rotation's
		// components met in the other two loads are held to finiteness there as well.
		zeros = _mm_add_ps(zeros, _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(f), zero), _mm_mul_ps(_mm_loadu_ps(f + 6), zero)));
		ok = _mm_and_ps(ok, _mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(f + 3), abs), qMax));
	}
	if (_mm_movemask_ps(_mm_and_ps(ok, _mm_cmpeq_ps(zeros, zero))) == 0xf)
		return true;
#endif
	for (int k = 0; k < read->count; ++k)
	{
		const lbTransform* t = &pose->model[bones[k]];
		if (!lbIsValidVec3(t->p) || !lbIsValidVec3(t->s) || !lbIsValidFloat(t->q.x + t->q.y + t->q.z + t->q.w))
			return false;
	}
	return true;
}

// lbIsValidTransform(*t): every float finite, the rotation of unit length within 2 % and no scale
// component near zero; with `near`, also its position within 1e6 m of the model origin (a position
// that far out is finite but leaves no precision for a leg: floats there are metres apart, and moving
// the pelvis carries it into the legs). With SSE, three overlapping four-float loads of the ten
// floats serve every test, and the range tests are written so that NaN fails them (an ordered
// compare with NaN is false) and infinity lies outside each range: position below 1e6 m (or below
// infinity), scale above LB_EPSILON and below infinity, squared rotation length in (0.98, 1.02) (a
// non-finite component makes it NaN or infinite, and so does a finite one large enough to overflow).
// No separate finiteness test is needed.
#if defined(LB_SIMD_SSE)
// Running verdicts of lbFootOkAdd: position lanes 0-2 within range, scale lanes 1-3 of the load at
// q.w within range, lane 0 the squared rotation length within range (all-ones lanes where they hold).
typedef struct lbFootOkTotals
{
	__m128 pos, scale, norm;
} lbFootOkTotals;

static inline void lbFootOkAdd(lbFootOkTotals* k, const lbTransform* t, bool near)
{
	const float* f = &t->p.x;
	const __m128 p = _mm_loadu_ps(f), q = _mm_loadu_ps(f + 3), ws = _mm_loadu_ps(f + 6);
	const __m128 abs = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
	const __m128 inf = _mm_set1_ps(INFINITY);
	k->pos = _mm_and_ps(k->pos, _mm_cmplt_ps(_mm_and_ps(p, abs), near ? _mm_set1_ps(1.0e6f) : inf));
	const __m128 sa = _mm_and_ps(ws, abs);
	k->scale = _mm_and_ps(k->scale, _mm_and_ps(_mm_cmpgt_ps(sa, _mm_set1_ps(LB_EPSILON)), _mm_cmplt_ps(sa, inf)));
	const __m128 qq = _mm_mul_ps(q, q);
	const __m128 pairs = _mm_add_ps(qq, _mm_shuffle_ps(qq, qq, _MM_SHUFFLE(2, 3, 0, 1)));
	const __m128 n = _mm_add_ss(pairs, _mm_movehl_ps(pairs, pairs));
	k->norm = _mm_and_ps(k->norm, _mm_and_ps(_mm_cmpgt_ss(n, _mm_set_ss(0.98f)), _mm_cmplt_ss(n, _mm_set_ss(1.02f))));
}

// lbFootOkAdd's tests of the position and the scale alone; the rotation's length goes to
// lbFootOkNorms with others.
static inline void lbFootOkAddPosScale(lbFootOkTotals* k, const lbTransform* t, bool near)
{
	const float* f = &t->p.x;
	const __m128 abs = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
	const __m128 inf = _mm_set1_ps(INFINITY);
	k->pos = _mm_and_ps(k->pos, _mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(f), abs), near ? _mm_set1_ps(1.0e6f) : inf));
	// LB_EPSILON < |s| < infinity in one compare of the magnitudes' bits (which order as the
	// magnitudes do, NaN's above infinity's): bits - lo, taken unsigned, lies below inf - lo exactly
	// in that range, and both sides offset by 2^31 make that SSE2's signed compare.
	uint32_t epsBits, infBits;
	const float eps = LB_EPSILON, infinity = INFINITY;
	memcpy(&epsBits, &eps, sizeof eps);
	memcpy(&infBits, &infinity, sizeof infinity);
	const uint32_t lo = epsBits + 1u;
	const __m128i bits = _mm_and_si128(_mm_castps_si128(_mm_loadu_ps(f + 6)), _mm_set1_epi32(0x7fffffff));
	const __m128i off = _mm_add_epi32(bits, _mm_set1_epi32((int)(0x80000000u - lo)));
	k->scale = _mm_and_ps(k->scale, _mm_castsi128_ps(_mm_cmpgt_epi32(_mm_set1_epi32((int)(0x80000000u + (infBits - lo))), off)));
}

// lbFootOkAdd's rotation test of four rotations at once (x, y, z, w at each of q[0..3]), one per
// lane: the same squares and sums in the same order, (x x + y y) + (z z + w w), so the same lengths
// and verdicts as four calls with one pass instead of four. Each lane of k->norm takes its
// rotation's verdict; lbFootOkNormsDone brings them into lane 0 once after the last pass.
static inline void lbFootOkNorms(lbFootOkTotals* k, const float* const q[4])
{
	__m128 x = _mm_loadu_ps(q[0]), y = _mm_loadu_ps(q[1]), z = _mm_loadu_ps(q[2]), w = _mm_loadu_ps(q[3]);
	_MM_TRANSPOSE4_PS(x, y, z, w);
	const __m128 n = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_add_ps(_mm_mul_ps(z, z), _mm_mul_ps(w, w)));
	k->norm = _mm_and_ps(k->norm, _mm_and_ps(_mm_cmpgt_ps(n, _mm_set1_ps(0.98f)), _mm_cmplt_ps(n, _mm_set1_ps(1.02f))));
}

// All four lanes of lbFootOkNorms' verdicts into lane 0 (an and of all-ones or all-zeros masks).
static inline void lbFootOkNormsDone(lbFootOkTotals* k)
{
	const __m128 ok2 = _mm_and_ps(k->norm, _mm_movehl_ps(k->norm, k->norm));
	k->norm = _mm_and_ps(ok2, _mm_shuffle_ps(ok2, ok2, _MM_SHUFFLE(1, 1, 1, 1)));
}

static inline bool lbFootOkVerdict(const lbFootOkTotals* k)
{
	return (_mm_movemask_ps(k->pos) & 7) == 7 && (_mm_movemask_ps(k->scale) & 0xe) == 0xe && (_mm_movemask_ps(k->norm) & 1) == 1;
}

static inline lbFootOkTotals lbFootOkStart(void)
{
	const __m128 allSet = _mm_castsi128_ps(_mm_set1_epi32(-1));
	return (lbFootOkTotals){ allSet, allSet, allSet };
}
#endif

static inline bool lbFootTransformOk(const lbTransform* t, bool near)
{
#if defined(LB_SIMD_SSE)
	_Static_assert(sizeof(lbTransform) == 40 && offsetof(lbTransform, q) == 12 && offsetof(lbTransform, s) == 28,
				   "lbTransform layout");
	lbFootOkTotals k = lbFootOkStart();
	lbFootOkAdd(&k, t, near);
	return lbFootOkVerdict(&k);
#else
	if (!lbIsValidTransform(*t))
		return false;
	const lbVec3 p = t->p;
	return !near || lbMaxF(lbMaxF(lbAbsF(p.x), lbAbsF(p.y)), lbAbsF(p.z)) < 1.0e6f;
#endif
}

// Whether the pose is fit for the pose stage where it reads it: the local and model transforms of
// the pelvis and the legs' bones (of every bone when `all`) finite, their model positions within
// 1e6 m of the model origin, and each leg's bones of a length the two-bone solve takes.
static LB_ALWAYS_INLINE bool lbFootPoseFinite(const lbPose* pose, const lbHumanoid* h, const lbFootReadList* read, bool all)
{
	const int count = all ? pose->boneCount : read->count;
#if defined(LB_SIMD_SSE)
	if (!all)
	{
		// lbFootTransformOk's tests of each read bone folded into running verdicts, one branch at the
		// end: every transform passes exactly when the totals do. Two bones a pass, their four
		// rotations' lengths in one lbFootOkNorms, straight from the pose (no list of rotations to
		// gather and pad); an odd count's last bone on its own (lbFootOkAdd), which costs about half
		// a pass of two.
		const int* use = read->bone;
		lbFootOkTotals k = lbFootOkStart();
		int i = 0;
		for (; i + 1 < count; i += 2)
		{
			const lbTransform* m0 = &pose->model[use[i]];
			const lbTransform* l0 = &pose->local[use[i]];
			const lbTransform* m1 = &pose->model[use[i + 1]];
			const lbTransform* l1 = &pose->local[use[i + 1]];
			lbFootOkAddPosScale(&k, m0, true);
			lbFootOkAddPosScale(&k, l0, false);
			lbFootOkAddPosScale(&k, m1, true);
			lbFootOkAddPosScale(&k, l1, false);
			const float* const q[4] = { &m0->q.x, &l0->q.x, &m1->q.x, &l1->q.x };
			lbFootOkNorms(&k, q);
		}
		// Lanes 1..3 of the rotations' verdicts folded into lane 0 first: lbFootOkAdd's scalar
		// compares leave those lanes holding other bits.
		lbFootOkNormsDone(&k);
		if (i < count)
		{
			lbFootOkAdd(&k, &pose->model[use[i]], true);
			lbFootOkAdd(&k, &pose->local[use[i]], false);
		}
		if (!lbFootOkVerdict(&k))
			return false;
	}
	else
#endif
		for (int k = 0; k < count; ++k)
		{
			const int b = all ? k : read->bone[k];
			if (!lbFootTransformOk(&pose->model[b], true) || !lbFootTransformOk(&pose->local[b], false))
				return false;
		}
	// Each leg's two bones as the solve meets them: a thigh or calf of zero length would fail the
	// second leg's solve after the pelvis and the first leg had moved.
#if defined(LB_SIMD_SSE)
	// With both legs whole, the four bones' squared lengths in the lanes of one register (the same
	// differences, squares and sums in the same order as lbSub and lbDot).
	const lbLegBones* g0 = &h->leg[0];
	const lbLegBones* g1 = &h->leg[1];
	if ((g0->thigh | g0->calf | g0->foot | g1->thigh | g1->calf | g1->foot) >= 0)
	{
		const lbTransform* m = pose->model;
		const __m128 c0 = _mm_loadu_ps(&m[g0->calf].p.x), c1 = _mm_loadu_ps(&m[g1->calf].p.x);
		// Rows: each leg's thigh and calf; transposed, their x, y and z (w unread).
		__m128 x = _mm_sub_ps(c0, _mm_loadu_ps(&m[g0->thigh].p.x)), y = _mm_sub_ps(_mm_loadu_ps(&m[g0->foot].p.x), c0);
		__m128 z = _mm_sub_ps(c1, _mm_loadu_ps(&m[g1->thigh].p.x)), w = _mm_sub_ps(_mm_loadu_ps(&m[g1->foot].p.x), c1);
		_MM_TRANSPOSE4_PS(x, y, z, w);
		const __m128 n = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
		return _mm_movemask_ps(_mm_cmpgt_ps(n, _mm_set1_ps(1.0e-12f))) == 0xf;
	}
#endif
	for (int s = 0; s < 2; ++s)
	{
		const lbLegBones* g = &h->leg[s];
		if (g->thigh < 0 || g->calf < 0 || g->foot < 0)
			continue;
		const lbVec3 u = lbSub(pose->model[g->calf].p, pose->model[g->thigh].p);
		const lbVec3 l = lbSub(pose->model[g->foot].p, pose->model[g->calf].p);
		if (!(lbDot(u, u) > 1.0e-12f && lbDot(l, l) > 1.0e-12f))
			return false;
	}
	return true;
}

static void lbFootCall_Init(lbFootCall* call, const lbFootDef* def, const lbHumanoid* humanoid)
{
	call->soles[0] = lbHumanoid_GetSole(humanoid, 0);
	call->soles[1] = lbHumanoid_GetSole(humanoid, 1);
	call->read = lbFootReadListOf(humanoid);
	call->up = lbNormalizeOr(def->up, lbVec3_axisZ);
	lbFootMemo_Init(&call->memo);
}

static lbResult lbFootSenseOne(lbFootState* state, const lbFootDef* def, const lbSkeleton* skeleton,
							   const lbHumanoid* humanoid, lbFootCall* call, const lbFootSenseInput* in, lbFootTargets* out);

lbResult lbFootSense(lbFootState* state, const lbFootDef* def, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
					 const lbFootSenseInput* in, lbFootTargets* out)
{
	if (!state || !def || !skeleton || !humanoid || !in || !out || !in->animPose || !in->animPose->model)
		return lbReport(lb_errorNullPointer, "lbFootSense: state, def, skeleton, humanoid, input, pose and output are required");
	if (!in->query || !in->query->sphereCast || !in->query->rayCast)
		return lbReport(lb_errorNullPointer, "lbFootSense: input.query with its sphereCast and rayCast is required");
	lbResult valid = lbFootCheckRig(humanoid, skeleton);
	if (valid == lb_ok)
		valid = lbFootDef_Validate(def);
	if (valid != lb_ok)
		return valid;
	lbFootCall call;
	lbFootCall_Init(&call, def, humanoid);
	return lbFootSenseOne(state, def, skeleton, humanoid, &call, in, out);
}

// One character's sense stage past the checks of the def and the rig, which a crowd makes once;
// `call` is what the caller worked out once for all its characters.
static lbResult lbFootSenseOne(lbFootState* state, const lbFootDef* def, const lbSkeleton* skeleton,
							   const lbHumanoid* humanoid, lbFootCall* call, const lbFootSenseInput* in, lbFootTargets* out)
{
	if (!state || !in || !out || !in->animPose || !in->animPose->model)
		return lbReport(lb_errorNullPointer, "lbFootSense: state, def, skeleton, humanoid, input, pose and output are required");
	if (!in->query || !in->query->sphereCast || !in->query->rayCast)
		return lbReport(lb_errorNullPointer, "lbFootSense: input.query with its sphereCast and rayCast is required");
	if ((unsigned)in->ikMode > (unsigned)lb_footIkClamped || (unsigned)in->moveState > (unsigned)lb_footClimbing)
		return lbReport(lb_errorInvalidArgument, "lbFootSense: input ikMode %d or moveState %d is not known", (int)in->ikMode,
						(int)in->moveState);
	if (in->animPose->boneCount != skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbFootSense: pose has %d bones, skeleton %d", in->animPose->boneCount,
						skeleton->boneCount);
	if (!lbFootAnimFinite(in->animPose, &call->read))
		return lbReport(lb_errorNonFinite, "lbFootSense: the animated pose is not finite");
	lbFootFrame f;
	lbResult result;
	if (!lbFootBeginFrame(state, def, humanoid, in, call, &f, &result))
	{
		// Keep everything; re-issue the last targets faded out so the animation shows through.
		out->alpha = 0.0f;
		out->active = false;
		return lbReport(lb_errorNonFinite, "lbFootSense: character transform is not finite");
	}
	float legDz[2] = { 0.0f, 0.0f }, legDrop[2] = { 0.0f, 0.0f }, legRoom[2] = { 1.0e30f, 1.0e30f };
	lbVec3 legGoal[2], legHip[2], legLand[2];
	bool legCounts[2] = { false, false };
	int grounded = 0, steep = 0;
	for (int side = 0; side < 2; ++side)
	{
		lbFootLegState* leg = &state->legs[side];
		lbFootTarget* ft = &out->feet[side];
		lbFootLegFrame lf;
		lbFootAnimatedLeg(leg, state, &f, skeleton, humanoid, in->animPose, side, &call->soles[side], def, &lf);
		{
			const lbFootLegState* other = &state->legs[1 - side];
			lf.rimH = other->grounded ? lbDot(other->groundPointWs, f.up) : f.floorH;
			lf.deepH = other->grounded ? lf.rimH - 0.5f * f.reach[side] : -1.0e30f;
		}
		if (f.doTrace && lbFootProbeDue(leg, def, &f, &lf))
			lbFootProbeLeg(leg, state, def, humanoid, in, &f, &lf);
		else
		{
			leg->probeAge += f.dt;
			if (!f.active)
				leg->grounded = false;
			else if (in->query)
				lbFootTurnedTip(leg, def, in, &f, &lf);
		}
		lbFootGroundTargets(leg, def, &f, &lf);
		// A locked foot stays planted a little above the height it locked under (1.5 times
		// lockHeight): a clip's foot hovering about the lock height would otherwise let go and lock
		// again frame by frame, its toes and lock snapping each time.
		const float hold = leg->locked ? 1.5f : 1.0f;
		// A captured foot (lbFootRestLift) stays locked up to 1.5 times the speed too: over two
		// frames its speed still came and went about lockSpeed as it shuffled (0.35, 0.26, 0.12,
		// 0.17, 0.39 m/s: CMU 01_03 at the end of its walk) and each release lifted the foot 1.4 cm
		// and turned its toes 20 degrees; held so, the clip sweep went from 99 to 101 of 135 runs.
		// Not limber's own gaits: held a frame longer, their lift-offs popped at the release
		// (walking up 0.27 m stairs 14.8 -> 17.7 degrees).
		// Nor does a captured foot plant while the character falls: CMU 01_03's actor turning on
		// a flight walked off its side, a foot near the clip's own floor planted on the steps below
		// during the 1.5 m fall (the state alpha under 1 %), and at the landing the IK came back
		// with that lock 9 cm from the animation (added pop 17.2 -> 23.3 degrees; 17.2 unlocked).
		const bool captured = leg->restLift > LB_FOOT_REST_LIFT_MIN;
		const float holdSpeed = leg->locked && captured ? 1.5f : 1.0f;
		lf.planted = leg->grounded && state->alpha > 0.0f && lf.plantLift < hold * def->lockHeight &&
					 lf.plantSpeed < holdSpeed * def->lockSpeed && (in->moveState == lb_footGrounded || !captured);
		// A foot in the air keeps its whole sole (and its path) clear of what rises under it.
		const float smoothTarget = lf.offsetTarget + (lf.planted ? 0.0f : leg->clearance);
		// The smoothed height first moves with the ground plane under the foot's motion: only
		// changes of the ground itself (a step, a rock) are eased, never the slope a foot moves
		// along (a swing running up 40 degrees rises 5 m/s; easing that would sink it).
		if (leg->grounded && !f.snap)
		{
			const lbVec3 n = leg->groundNormalWs;
			leg->offset -= lbDot(lbProjectOnPlane(lf.moveWs, f.up), n) / lbMaxF(lbDot(n, f.up), 0.05f);
		}
		lbFootSmooth(leg, def, &f, &lf, smoothTarget);
		// A swinging foot keeps above the ramp the ground ahead of it asks for, frame by frame. The
		// ramp depends on the kept points and the foot's place and motion, none of which changes
		// before the swing's ground below reads it again.
		const float ramp = !lf.planted && leg->aheadCount > 0 ? lbFootAheadFloor(leg, def, &f, &lf) : -1.0e30f;
		if (!lf.planted && leg->aheadCount > 0)
		{
			if (leg->offset < ramp)
			{
				leg->offset = ramp;
				leg->offsetSpeed = lbMaxF(leg->offsetSpeed, 0.0f);
			}
		}
		// While the character's floor goes down, a swinging foot clears the ground under it, not
		// where the smoothing still has a ground that fell away (the tread a foot running
		// downstairs has left): the lag held the swing up to a riser above the ground, folding the
		// trailing knee into its caps. Going up, a falling target is a nose the foot has just
		// passed, which the smoothing keeps it clear of.
		lf.swingGround = leg->offset;
		if (!lf.planted && f.floorMove < 0.0f)
			lf.swingGround = lbMinF(leg->offset, lbMaxF(smoothTarget, ramp));
		// A rim held with no ground in reach is for a character on its feet: falling (the IK
		// fading), the held foot's longer slide changed a faded goal by 4 cm and a captured walk
		// stepping off a flight's side bent its knee 50 degrees in a frame.
		if (in->moveState != lb_footGrounded)
			leg->slideBlind = false;
		lbFootEaseSlide(leg, def, &f, &lf, smoothTarget);
		// The smoothed ground height the goal below stands on (a lock may move the state's value).
		const float smoothOffset = leg->offset;
		lbFootLock(leg, def, in, &f, &lf);
		// While the foot stands locked, the ground it stands on is the smoothed ground too, so a
		// release later starts from where the foot really is.
		if (leg->locked && leg->grounded)
		{
			leg->offset = lbMaxF(lf.offsetTarget, lbDot(leg->lockAnkleWs, f.up) - lf.ankleH);
			leg->offsetSpeed = 0.0f;
		}
		lbFootLockBlend(leg, def, &f);
		lbFootGoal(leg, def, &f, &lf, humanoid, side, smoothOffset, in->query, &f.castCount, ft);
		// Only while the character's IK as a whole is out or fading (nearly every frame skips it).
		if (state->alpha < 1.0f)
			lbFootKeepFloor(leg, state, &f, def, in->query, in->ikMode, &lf, humanoid, side, ft);
		else
			leg->hasFloor = ft->hasFloor = false;
		legDz[side] = lbDot(lbSub(lf.ankleGoal, lf.animAnkleWs), f.up) * leg->alpha;
		legGoal[side] = lf.ankleGoal;
		// Where the goal lands on its ground (lbFootAheadDrop).
		legLand[side] = lbMulAdd(lf.ankleGoal, lf.offsetTarget + lf.ankleH - lbDot(lf.ankleGoal, f.up), f.up);
		legHip[side] = lf.animHipWs;
		legCounts[side] = leg->grounded && leg->alpha > 0.0f;
		grounded += leg->grounded ? 1 : 0;
		steep += leg->grounded && leg->steep ? 1 : 0;
	}
	lbFootSinkLimit(state, def, &f);
	// Reach and fold room from the hips as the pose stage will move them (the shift, not yet the
	// drop, which these measure).
	const bool capOn = def->kneeMaxBend > 0.0f && def->kneeMaxBend < LB_PI;
	// The fold room the held pelvis keeps: the knee 12 degrees short of its cap.
	const float holdBend = lbMaxF(def->kneeMaxBend - 12.0f * LB_DEG2RAD, 0.0f);
	lbFootPelvisShift(state, def, &f, humanoid, legCounts, legGoal, legHip, capOn, holdBend);
	for (int side = 0; side < 2; ++side)
	{
		const lbFootLegState* leg = &state->legs[side];
		const lbVec3 hip = lbAdd(legHip[side], state->pelvisShiftWs);
		legDrop[side] = lbFootReachDrop(&f, side, hip, legGoal[side]) * leg->alpha;
		out->feet[side].reachDrop = legDrop[side];
		// A lock further below the hips than they may sink to reach it (walking down risers
		// taller than the sink limit allows for, 0.33 m on the reference rigs) leaves the foot
		// short of it until the body comes on: it is not at rest there yet. Counted settled, the
		// foot's last centimetre down onto its tread read as a slide of the lock (1.2 cm).
		if (legDrop[side] > state->pelvisSinkLimit + 1.0e-3f)
			out->feet[side].settled = false;
		legRoom[side] = leg->locked || leg->alpha <= 0.0f || !capOn
							? 1.0e30f
							: lbFootFoldRoom(&f, humanoid, side, hip, legGoal[side], holdBend) / leg->alpha;
	}
	// The lower foot on its ball where the hips would otherwise fold the other leg onto its cap
	// (only a leg that needs the hips lower, or a turn still easing out).
	if (legDrop[0] > 0.0f || legDrop[1] > 0.0f || state->legs[0].toePitch > 0.0f || state->legs[1].toePitch > 0.0f)
		lbFootToesDown(state, def, &f, humanoid, call->soles, legCounts, legHip, legRoom, legGoal, legDrop, out);
	int yielder = -1;
	const float lift = lbFootHipLift(state, def, &f, humanoid, legCounts, legHip, legGoal, legDrop, capOn, &yielder);
	if (yielder >= 0)
		legDrop[yielder] = 0.0f;
	const float ahead = lbFootAheadDrop(state, def, &f, legCounts, legHip, legGoal, legLand, yielder);
	lbFootPelvis(state, def, &f, in, legCounts, legDz, legDrop, legRoom, lift, ahead);
	if (yielder >= 0)
	{
		// The other foot, free in the air, rises as far as keeps it within reach of the hips where
		// the pelvis now is, instead of holding them down.
		const lbVec3 hipO = lbMulAdd(lbAdd(legHip[yielder], state->pelvisShiftWs), state->pelvisOffset, f.up);
		const float raise = lbFootReachDrop(&f, yielder, hipO, legGoal[yielder]);
		out->feet[yielder].ankleWs = lbMulAdd(out->feet[yielder].ankleWs, raise, f.up);
		out->feet[yielder].contactWs = lbMulAdd(out->feet[yielder].contactWs, raise, f.up);
		out->feet[yielder].reachDrop = 0.0f;
	}

	lbFootFoldedGoals(state, def, &f, in, humanoid, legHip, legDrop, out);

	out->characterWs = f.cw;
	out->upWs = f.up;
	out->pelvisOffset = state->pelvisOffset + state->landing;
	out->pelvisMaxSink = state->pelvisSinkLimit;
	out->pelvisShiftWs = state->pelvisShiftWs;
	out->climbShiftWs = state->climbShiftWs;
	out->alpha = state->alpha;
	out->castCount = f.castCount;
	out->active = f.active;
	out->keepAbove = f.active && in->ikMode != lb_footIkDisabled;
	out->unsupported = f.active && in->moveState == lb_footGrounded && (grounded == 0 || steep == grounded);
	state->prevCharacterWs = f.cw;
	state->initialized = 1;
	return result;
}

// Where this frame's probes will most likely go (prediction included, its finer conditions not):
// a hint for the scene's prefetch, so an approximation costs only a miss. Returns the casts written.
static int lbFootAnnounce(const lbFootState* state, const lbFootDef* def, const lbHumanoid* humanoid,
						  const lbFootSenseInput* in, lbQueryInput* out)
{
	const lbTransform cw = in->characterWs;
	if (!in->animPose || !in->animPose->model || !lbIkValidTransformExact(&cw))
		return 0;
	float dt = lbIsValidFloat(in->dt) ? in->dt : 0.0f;
	if (state->initialized && def->traceRate > 0.0f && state->traceTimer - dt > 1.0e-5f && !in->landed)
		return 0; // a reduced-rate frame without casts
	const lbVec3 up = lbNormalizeOr(def->up, lbVec3_axisZ);
	const float modelToWorld = lbLength(lbMulVV(cw.s, humanoid->upMs));
	lbVec3 predict = lbVec3_zero;
	if (lbIsValidVec3(in->velocityWs) && (in->velocityWs.x != 0.0f || in->velocityWs.y != 0.0f || in->velocityWs.z != 0.0f))
		predict = lbClampLength(lbMulSV(def->predictionTime, lbProjectOnPlane(in->velocityWs, up)), def->predictionMax);
	const lbVec3 pelvisWs = def->traceOrigin == lb_footTraceFromPelvis ? lbIkTransformPoint(&cw, in->animPose->model[humanoid->pelvis].p)
																		: lbVec3_zero;
	// A foot standing locked on the ground that probed in that phase less than 0.1 s ago keeps its
	// probe (lbFootSenseOne) unless the frame snaps: nothing is cast for it, so nothing is announced
	// (on the bench's rocky mesh about one announced cast in seven, each walked down the tree for
	// nothing).
	const bool keeps = state->initialized && !in->landed && !(dt > 0.25f) && def->probeReuseDistance > 0.0f;
	int n = 0;
	for (int side = 0; side < 2; ++side)
	{
		const lbFootLegState* leg = &state->legs[side];
		if (keeps && leg->locked && leg->grounded && leg->probePhase == 1 && leg->probeAge < 0.1f)
			continue;
		lbVec3 base = lbAdd(lbIkTransformPoint(&cw, in->animPose->model[humanoid->leg[side].foot].p), predict);
		out[n++] = lbFootProbe(def, base, pelvisWs, up, humanoid->legAxes[side].ankleHeight * modelToWorld + def->traceBelow);
	}
	return n;
}

lbResult lbFootSenseMany(lbFootState* states, const lbFootDef* def, const lbSkeleton* skeleton,
						 const lbHumanoid* humanoid, const lbFootSenseInput* inputs, lbFootTargets* outTargets,
						 int count)
{
	if (count < 0 || (count > 0 && (!states || !inputs || !outTargets)))
		return lbReport(lb_errorNullPointer, "lbFootSenseMany: states, inputs and targets are required (count %d)", count);
	if (count == 0)
		return lb_ok;
	if (!def || !skeleton || !humanoid)
		return lbReport(lb_errorNullPointer, "lbFootSenseMany: def, skeleton and humanoid are required");
	// The def and the rig are the same for every character: checked once here.
	lbResult valid = lbFootCheckRig(humanoid, skeleton);
	if (valid == lb_ok)
		valid = lbFootDef_Validate(def);
	if (valid != lb_ok)
		return valid;
	return lbFootSenseManyChecked(states, def, skeleton, humanoid, inputs, outTargets, count);
}

lbResult lbFootSenseManyChecked(lbFootState* states, const lbFootDef* def, const lbSkeleton* skeleton,
								const lbHumanoid* humanoid, const lbFootSenseInput* inputs, lbFootTargets* outTargets,
								int count)
{
	lbFootCall call;
	lbFootCall_Init(&call, def, humanoid);
	lbResult first = lb_ok;
	// Eight characters (sixteen casts) per group: enough overlapping misses to hide most of the
	// latency, few enough that the group's paths still sit in cache when its casts run.
	enum { group = 8 };
	for (int g = 0; g < count; g += group)
	{
		int end = g + group < count ? g + group : count;
		// Consecutive characters on the same scene are announced together.
		lbQueryInput casts[2 * group];
		int n = 0;
		const lbSceneQuery* query = NULL;
		for (int i = g; i < end; ++i)
		{
			const lbSceneQuery* q = inputs[i].query;
			if (!q || !q->prefetch || (inputs[i].animPose && inputs[i].animPose->boneCount != skeleton->boneCount))
				continue;
			if (q != query)
			{
				lbPrefetchCasts(query, casts, n);
				n = 0;
				query = q;
			}
			n += lbFootAnnounce(&states[i], def, humanoid, &inputs[i], &casts[n]);
		}
		lbPrefetchCasts(query, casts, n);
		for (int i = g; i < end; ++i)
		{
			lbResult r = lbFootSenseOne(&states[i], def, skeleton, humanoid, &call, &inputs[i], &outTargets[i]);
			if (first == lb_ok && r != lb_ok)
				first = r;
		}
	}
	return first;
}

// Model units per world metre for a character frame whose scale takes `upMs` (unit, model) to
// world: what the pose stage's thresholds in metres are worth in model space. Exactly 1 for an
// unscaled character, so its thresholds keep their bits.
static inline float lbFootMetreMs(const lbTransform* cw, lbVec3 upMs)
{
	if (cw->s.x == 1.0f && cw->s.y == 1.0f && cw->s.z == 1.0f)
		return 1.0f;
	return 1.0f / lbMaxF(lbLength(lbMulVV(cw->s, upMs)), 1.0e-6f);
}

// A free foot (its knee cap holds) comes onto the ankle limit softly: from kFootFreeAnkleSoft short
// of the limit, the foot is held at limit - soft * exp(-(a - (limit - soft)) / soft) for a solved
// angle a, which leaves the solve's angle with the same slope and nears the limit without reaching
// it. Held hard at the limit, a trailing foot whose calf swings past it followed the calf from one
// frame to the next and was let go in one as the knee unfolded: the foot and ball popped 15-18
// degrees running down 0.25/0.30 m stairs. A zone of 12 degrees: running down 0.30 m the
// mannequin's trailing foot turns 14.8 degrees in its worst frame (15.2 with 10); the 16-seed
// terrain sweep holds 2434 runs of 2560 (2430 with 10), the held-out seeds, the capture clips and
// the other rigs as with 10. Wider zones hold the foot further from the solve's angle: with 20
// the sweep held 2448, but walking up 45 degrees on the imported rigs popped 16 degrees and the
// mannequin's trailing toes walking down 0.30 m went 2.4 cm into the tread (2.2 with 10 and 12).
// Planted and locked feet keep the hard limit (their heel lifts about the ball on the ground).
static const float kFootFreeAnkleSoft = 12.0f * LB_DEG2RAD;

// The cosine of half the angle from which a free foot's ankle is held (the limit less the soft
// zone, no less than none) from cosHalf, the cosine of half the limit: cos(l/2 - s/2) by the
// angle-difference formula, one square root instead of a cosine per leg.
static inline float lbFootFreeAnkleGate(float cosHalf, float limit)
{
	if (limit <= kFootFreeAnkleSoft)
		return 1.0f;
	const float c = 0.99619470f, sn = 0.08715574f; // cos and sin of 5 degrees (half the soft zone)
	return cosHalf * c + sqrtf(lbMaxF(1.0f - cosHalf * cosHalf, 0.0f)) * sn;
}

// How far past kneeMaxBend the knee cap of a free foot's turned goal may give for the ground
// (lbFootCapLifted): the metrics count a knee past 160 degrees as outside its range, and the
// default cap is 150.
static const float kFootKneeCapGive = 6.0f * LB_DEG2RAD;

// The hip-to-ankle distance (model units) at which the knee of a leg (thigh a, calf b) is bent
// kFootKneeCapGive past the bend that minReach keeps: the law of cosines at the knee's inner
// angle, made smaller by the give through the angle-sum formula.
static float lbFootHardReach(float a, float b, float minReach)
{
	const float ab = a * b;
	if (!(ab > 0.0f) || !(minReach > 0.0f))
		return 0.0f;
	const float c0 = lbClampF((a * a + b * b - minReach * minReach) / (2.0f * ab), -1.0f, 1.0f);
	const float s0 = sqrtf(lbMaxF(1.0f - c0 * c0, 0.0f));
	const float c = c0 * cosf(kFootKneeCapGive) + s0 * sinf(kFootKneeCapGive);
	return sqrtf(lbMaxF(a * a + b * b - 2.0f * ab * c, 0.0f));
}

// The knee cap (kneeMaxBend, as reach[0] from the hip) kept for a free foot's goal turned about its
// ball: the goal moves out along the line from the hip, as far along that move as keeps every sole
// point (heel to ball) above the ground plane under the foot (plane: point, normal; NULL: none),
// so the cap fades in and out with the ground instead of switching (switching, the foot turned
// 15-18 degrees in a frame running down stairs). It gives no nearer than reach[1]
// (lbFootHardReach): running down 0.28-0.34 m risers, a trailing foot held above the plane of the
// tread it left bent its knee to 161 degrees for a frame or two (13 runs of the terrain sweep), and
// with the give bounded no sole went deeper on any of them.
static lbVec3 lbFootCapLifted(lbVec3 hip, lbVec3 target, lbQuat rotation, lbVec3 scale, const lbSole* sole, const float reach[2],
							  const lbVec3* plane, float metreMs)
{
	const float minReach = reach[0];
	const lbVec3 d = lbSub(target, hip);
	const float len = lbLength(d);
	if (!(len > 1.0e-5f && len < minReach))
		return target;
	lbTransform capped = lbMakeTransform(lbMulAdd(hip, minReach / len, d), rotation);
	capped.s = scale;
	const lbVec3 move = lbSub(capped.p, target);
	const float eps = 0.002f * lbLength(scale) * metreMs;
	float t = 1.0f;
	for (int k = lb_soleHeel; plane && k <= lb_soleBall; ++k)
	{
		const lbVec3 pt = lbIkTransformPoint(&capped, lbMulAdd(sole->under, sole->along[k], sole->toeFlat));
		const float s1 = lbDot(lbSub(pt, plane[0]), plane[1]), s0 = s1 - lbDot(move, plane[1]);
		if (s1 < -eps)
			t = lbMinF(t, s0 > s1 ? lbMaxF((s0 + eps) / (s0 - s1), 0.0f) : 0.0f);
	}
	if (t < 1.0f && reach[1] > len)
		t = lbMaxF(t, (reach[1] - len) / (minReach - len));
	return lbMulAdd(target, t, move);
}

// A free foot's leg solved toward its goal (goal, goalRotation: model space) turned by `angle` about
// `axis` through `pivot` (the ball, or toward the toe tip for a foot hanging past a nose: see
// lbFootLiftHeelFree), with the knee cap kept (lbFootCapLifted), from the input pose (keepLocal).
// Returns the foot's angle from its rest local rotation (radians) in *outAngle.
static lbResult lbFootSolveTurned(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, int side,
								  lbTwoBoneIkInput* in, lbVec3 goal, lbQuat goalRotation, lbVec3 ball, lbVec3 pivot, lbVec3 axis,
								  float angle, const lbQuat keepLocal[3], const float reach[2], const lbVec3* plane, float metreMs,
								  float* outAngle)
{
	const lbLegBones* b = &humanoid->leg[side];
	const int above = skeleton->parents[b->thigh];
	const lbSole sole = lbHumanoid_GetSole(humanoid, side);
	const lbQuat turn = lbQuatFromAxisAngle(axis, angle);
	const lbVec3 hip = pose->model[b->thigh].p;
	lbVec3 turned = lbAdd(pivot, lbIkQuatRotate(turn, lbSub(goal, pivot)));
	// A pivot moved toward the toe tip brings the goal no nearer the hip than the knee cap, or than
	// the turn about the ball would: past that the knee folded beyond its cap under the nose
	// (walking down 0.335 m risers, 158 -> 163 degrees). The goal goes back toward the ball's turn
	// as far as that needs (the nearer root of |atBall + s d - hip| = floor).
	if (pivot.x != ball.x || pivot.y != ball.y || pivot.z != ball.z)
	{
		const lbVec3 atBall = lbAdd(ball, lbIkQuatRotate(turn, lbSub(goal, ball)));
		const float floorD = lbMinF(reach[0], lbDistance(atBall, hip));
		if (lbDistance(turned, hip) < floorD)
		{
			const lbVec3 d = lbSub(turned, atBall), e = lbSub(atBall, hip);
			const float qa = lbDot(d, d), qb = 2.0f * lbDot(e, d), qc = lbDot(e, e) - floorD * floorD;
			const float disc = lbMaxF(qb * qb - 4.0f * qa * qc, 0.0f);
			const float sAt = qa > 1.0e-12f ? lbClampF((-qb - sqrtf(disc)) / (2.0f * qa), 0.0f, 1.0f) : 0.0f;
			turned = lbMulAdd(atBall, sAt, d);
		}
	}
	in->targetRotationMs = lbQuatNormalize(lbIkQuatMul(turn, goalRotation));
	in->targetMs = lbFootCapLifted(hip, turned, in->targetRotationMs,
								   pose->model[b->foot].s, &sole, reach, plane, metreMs);
	pose->local[b->thigh].q = keepLocal[0];
	pose->local[b->calf].q = keepLocal[1];
	pose->local[b->foot].q = keepLocal[2];
	pose->model[b->thigh] = above >= 0 ? lbTransformMul(pose->model[above], pose->local[b->thigh]) : pose->local[b->thigh];
	lbPose_UpdateSubtree(pose, skeleton, b->thigh);
	const lbResult r = lbPose_SolveLimbIk(pose, skeleton, humanoid, side == 0 ? lb_limbLegL : lb_limbLegR, in, NULL);
	*outAngle = lbQuatAngleBetween(skeleton->restLocal[b->foot].q, lbQuatNormalize(pose->local[b->foot].q));
	return r;
}

// The ankle limit for a free foot (one whose knee cap holds, minReach > 0), already solved once
// past the limit. Turning the goal about the ball moves the ankle, which turns the calf, which moves
// the limit: fixed-point passes (turn by the excess, solve, again) overshot and swung the foot
// 50-75 degrees from one pass to the next with the knee at its cap, and the pass they stopped on
// changed from frame to frame (pops of 15-21 degrees in the foot running down stairs). Instead the
// turn about one axis (the first excess's) is searched for where the solved foot lies at the limit:
// bracketed from the first excess, then bisected, and the leg solved at the bracket's end within
// the limit, so the result moves continuously with the goal.
// A foot that keeps its toes (toesKept: not planted, so the pose stage does not bend them) and hangs
// past a stair nose, its toe tip below the ground plane under it (the tread it is leaving), turns
// about a point moved from the ball toward the toe tip as that tip lies deeper: none down to 2 cm,
// wholly at 6 cm. Turned about the ball, the heel of a foot pitched down in front of the riser
// swings back into the nose it hangs from (walking down 0.25 m stairs the trailing heel went 15 mm
// into it and the shin 42 mm); the tip is the foot's lowest point there, the one a foot rolling
// off an edge keeps. A tip only just past the corner keeps the ball: moved from the first
// millimetre, the trailing calf's turn in the frame the pelvis drops for the landing foot grew
// (walking down 0.257 m risers 14.9 -> 15.6 degrees). A foot being left on a ledge (offLedge, 0..1:
// see lbFootOffLedge) also turns toward its tip when the turn about the ball would take the tip
// into the ground.
static lbResult lbFootLiftHeelFree(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, int side,
								   lbTwoBoneIkInput* in, float limit, const lbQuat keepLocal[3], float minReach, const lbVec3* plane,
								   bool toesKept, float offLedge, float metreMs)
{
	const lbLegBones* b = &humanoid->leg[side];
	const int foot = b->foot, parent = skeleton->parents[foot];
	const lbQuat rest = skeleton->restLocal[foot].q;
	const lbQuat local = lbQuatNormalize(pose->local[foot].q);
	const lbQuat rel = lbQuatCanonical(lbFootQuatIn(rest, local));
	const lbVec3 relAxis = lbNormalize(LB_LITERAL(lbVec3){ rel.x, rel.y, rel.z });
	if (lbLengthSquared(relAxis) == 0.0f || parent < 0)
		return lb_ok;
	// The soft limit (see lbFootFreeAnkleGate): from `soft` short of the limit the foot is held at
	// an angle that bends away from the solve's and never reaches the limit.
	const float soft = lbMinF(kFootFreeAnkleSoft, limit);
	const float angle = lbQuatAngleBetween(rest, local);
	if (angle <= limit - soft)
		return lb_ok;
	limit -= soft * expf((limit - soft - angle) / soft);
	const lbQuat want = lbIkQuatMul(pose->model[parent].q, lbIkQuatMul(rest, lbQuatFromAxisAngle(relAxis, limit)));
	const lbQuat turn0 = lbQuatCanonical(lbQuatNormalize(lbIkQuatMul(want, lbQuatConj(lbQuatNormalize(pose->model[foot].q)))));
	lbVec3 axis;
	const float angle0 = lbQuatToAxisAngle(turn0, &axis);
	if (!(angle0 > 1.0e-6f) || lbLengthSquared(axis) == 0.0f)
		return lb_ok;
	const lbSole sole = lbHumanoid_GetSole(humanoid, side);
	lbTransform goalT = lbMakeTransform(in->targetMs, in->targetRotationMs);
	goalT.s = pose->model[foot].s;
	const lbVec3 ball = lbIkTransformPoint(&goalT, lbMulAdd(sole.under, sole.along[lb_soleBall], sole.toeFlat));
	lbVec3 pivot = ball;
	if (plane && toesKept)
	{
		const lbVec3 tip = lbIkTransformPoint(&goalT, lbMulAdd(sole.under, sole.along[lb_soleToeTip], sole.toeFlat));
		// Centimetres in the foot's model units (its scale's length is sqrt(3) for a unit scale;
		// metreMs for a rig in other units than the world's).
		const float cm = 0.01f * lbLength(goalT.s) * 0.57735027f * metreMs;
		const float tipBelow = -lbDot(lbSub(tip, plane[0]), plane[1]);
		float toTip = tipBelow > 2.0f * cm ? lbSmoothStep((tipBelow - 2.0f * cm) / (4.0f * cm)) : 0.0f;
		// A foot being left on a ledge's top (offLedge: its knee folded as the hips come down for
		// the other foot far below), its tip above the ground or under it by less than 1 cm, that
		// the first excess's turn about the ball would take below it, turns about a point toward the
		// tip too, wholly from 2 cm under: about the ball, walking off a 0.49 m ledge, the trailing
		// toe tip went 12 mm into the top (now 4 mm). Not for tips deeper than that (walking down
		// 0.25 m stairs the trailing calf then turned 14.9 -> 15.1 degrees in a frame).
		// Any other free foot whose tip that turn would take below the ground turns about a point
		// up to 0.3 of the way toward the tip, eased in over the tip's first 3 cm under: running
		// down stairs, the foot leaving the top trails high behind hips already a step lower with
		// its ankle at the limit, and turned about the ball its tip went 1-1.6 cm into the tread
		// just short of the nose (0.23-0.31 m risers). Wholly toward the tip, or eased in over 2 cm,
		// the landing calf popped 15.2-17.4 degrees; gated off with the tip 1 cm under, as on the
		// ledge, the pivot jumped back to the ball and popped the foot.
		const lbVec3 tipTurned = lbAdd(ball, lbIkQuatRotate(turn0, lbSub(tip, ball)));
		const float turnedBelow = -lbDot(lbSub(tipTurned, plane[0]), plane[1]);
		if (offLedge > 0.0f && turnedBelow > 0.0f && tipBelow < 1.0f * cm)
			toTip = lbMaxF(toTip, offLedge * lbSmoothStep(turnedBelow / (2.0f * cm)) * lbSmoothStep((1.0f * cm - tipBelow) / cm));
		if (turnedBelow > 0.0f)
			toTip = lbMaxF(toTip, 0.3f * lbSmoothStep(turnedBelow / (3.0f * cm)));
		if (toTip > 0.0f)
			pivot = lbLerp(ball, tip, toTip);
	}
	const lbVec3 goal = in->targetMs;
	const lbQuat goalRotation = in->targetRotationMs;
	const float reach[2] = { minReach, lbFootHardReach(humanoid->legAxes[side].thighLength, humanoid->legAxes[side].calfLength, minReach) };
	// Bracket: lo past the limit (none turned), hi within it (the first excess, doubled while the
	// foot is still past it, up to a quarter turn).
	float lo = 0.0f, hi = angle0, at = 0.0f;
	lbResult r = lbFootSolveTurned(pose, skeleton, humanoid, side, in, goal, goalRotation, ball, pivot, axis, hi, keepLocal, reach, plane, metreMs, &at);
	for (int k = 0; r == lb_ok && at > limit && hi < 0.5f * LB_PI && k < 3; ++k)
	{
		lo = hi;
		hi = lbMinF(2.0f * hi, 0.5f * LB_PI);
		r = lbFootSolveTurned(pose, skeleton, humanoid, side, in, goal, goalRotation, ball, pivot, axis, hi, keepLocal, reach, plane, metreMs, &at);
	}
	if (r != lb_ok || at > limit)
		return r; // the most turned, the nearest it comes
	bool atHi = true;
	for (int k = 0; k < 8; ++k)
	{
		const float mid = 0.5f * (lo + hi);
		r = lbFootSolveTurned(pose, skeleton, humanoid, side, in, goal, goalRotation, ball, pivot, axis, mid, keepLocal, reach, plane, metreMs, &at);
		if (r != lb_ok)
			return r;
		atHi = at <= limit;
		if (atHi)
			hi = mid;
		else
			lo = mid;
	}
	if (!atHi)
		r = lbFootSolveTurned(pose, skeleton, humanoid, side, in, goal, goalRotation, ball, pivot, axis, hi, keepLocal, reach, plane, metreMs, &at);
	return r;
}

// The ankle limit's passes for one leg already solved once from its input pose (the chain's
// input local rotations in keepLocal: thigh, calf, foot; the solve keeps local positions). A goal high on an uphill slope folds
// the knee and pitches the calf forward while the foot keeps its ground-aligned rotation, which
// bends the ankle beyond what a person's can. A runner lifts the heel instead: while the solved
// foot's local rotation lies more than `limit` from its rest local rotation, the goal (ankle and
// rotation) turns about the ball of the foot by the excess, so the ball stays where the goal put
// it and the heel rises, and the leg is solved again from its input pose (with the same weight).
// The new goal changes the calf, so a few passes. A free foot (minReach > 0: its knee cap holds)
// goes to lbFootLiftHeelFree instead.
static lbResult lbFootLiftHeel(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, int side,
							   lbTwoBoneIkInput* in, float limit, float cosHalf, const lbQuat keepLocal[3], float minReach, const lbVec3* plane,
							   bool toesKept, float offLedge, float metreMs)
{
	if (minReach > 0.0f)
		return lbFootLiftHeelFree(pose, skeleton, humanoid, side, in, limit, keepLocal, minReach, plane, toesKept, offLedge, metreMs);
	const lbLimb limb = side == 0 ? lb_limbLegL : lb_limbLegR;
	const lbLegBones* b = &humanoid->leg[side];
	const int foot = b->foot, parent = skeleton->parents[foot], above = skeleton->parents[b->thigh];
	const lbQuat rest = skeleton->restLocal[foot].q;
	const lbSole sole = lbHumanoid_GetSole(humanoid, side);
	const lbVec3 ballLocal = lbMulAdd(sole.under, sole.along[lb_soleBall], sole.toeFlat);
	for (int pass = 0; pass < 3; ++pass)
	{
		const lbQuat local = lbQuatNormalize(pose->local[foot].q);
		// Done once within the limit.
		if (pass > 0 && lbAbsF(lbQuatDot(rest, local)) >= cosHalf)
			break;
		// The local rotation turned back toward rest until it lies exactly `limit` from it.
		const lbQuat rel = lbQuatCanonical(lbFootQuatIn(rest, local));
		const lbVec3 axis = lbNormalize(LB_LITERAL(lbVec3){ rel.x, rel.y, rel.z });
		if (lbLengthSquared(axis) == 0.0f || parent < 0)
			break;
		const lbQuat want = lbIkQuatMul(pose->model[parent].q, lbIkQuatMul(rest, lbQuatFromAxisAngle(axis, limit)));
		// The model-space turn that takes the solved foot there, applied to the goal about its ball
		// (the sense stage's ball sample: the point under the ankle plus the foot length along the
		// toe axis flattened onto the sole).
		const lbQuat turn = lbQuatNormalize(lbIkQuatMul(want, lbQuatConj(lbQuatNormalize(pose->model[foot].q))));
		lbTransform goal = lbMakeTransform(in->targetMs, in->targetRotationMs);
		goal.s = pose->model[foot].s;
		const lbVec3 ball = lbIkTransformPoint(&goal, ballLocal);
		in->targetMs = lbAdd(ball, lbIkQuatRotate(turn, lbSub(in->targetMs, ball)));
		in->targetRotationMs = lbQuatNormalize(lbIkQuatMul(turn, in->targetRotationMs));
		// Back to the input pose (the pelvis above is unchanged by the solve), then solve again.
		pose->local[b->thigh].q = keepLocal[0];
		pose->local[b->calf].q = keepLocal[1];
		pose->local[foot].q = keepLocal[2];
		pose->model[b->thigh] = above >= 0 ? lbTransformMul(pose->model[above], pose->local[b->thigh]) : pose->local[b->thigh];
		lbPose_UpdateSubtree(pose, skeleton, b->thigh);
		lbResult r = lbPose_SolveLimbIk(pose, skeleton, humanoid, limb, in, NULL);
		if (r != lb_ok)
			return r;
	}
	return lb_ok;
}

// One leg's two-bone solve, then the ankle limit (see lbFootLiftHeel). cosHalf is cos(limit / 2),
// or -1 with the limit off; |rest . local| >= cosHalf is the early-out of every foot within it.
static lbResult lbFootSolveLeg(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, int side,
							   lbTwoBoneIkInput* in, float limit, float cosHalf, float minReach, const lbVec3* plane, bool toesKept,
							   float offLedge, float metreMs)
{
	const lbLimb limb = side == 0 ? lb_limbLegL : lb_limbLegR;
	if (cosHalf < 0.0f)
		return lbPose_SolveLimbIk(pose, skeleton, humanoid, limb, in, NULL);
	// The leg's bones are read above (the pelvis reach) with the same trust in the humanoid map.
	const lbLegBones* b = &humanoid->leg[side];
	const lbQuat keepLocal[3] = { pose->local[b->thigh].q, pose->local[b->calf].q, pose->local[b->foot].q };
	lbResult r = lbPose_SolveLimbIk(pose, skeleton, humanoid, limb, in, NULL);
	const float gate = minReach > 0.0f ? lbFootFreeAnkleGate(cosHalf, limit) : cosHalf;
	if (r != lb_ok || lbAbsF(lbQuatDot(skeleton->restLocal[b->foot].q, pose->local[b->foot].q)) >= gate)
		return r;
	return lbFootLiftHeel(pose, skeleton, humanoid, side, in, limit, cosHalf, keepLocal, minReach, plane, toesKept, offLedge, metreMs);
}

// One leg solved toward an ankle goal and foot rotation (model space) with weight w, the soft-IK
// band and the ankle limit.
static lbResult lbFootSolveLegTo(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, int side,
								 lbVec3 targetMs, lbQuat rotationMs, float w, float soften, float limit, float cosHalf, float minReach, const lbVec3* plane,
								 bool toesKept, float offLedge, float metreMs)
{
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = targetMs;
	in.targetRotationMs = rotationMs;
	in.useTargetRotation = true;
	in.weight = w;
	in.soften = soften;
	return lbFootSolveLeg(pose, skeleton, humanoid, side, &in, limit, cosHalf, minReach, plane, toesKept, offLedge, metreMs);
}

// Whether the toes turned by fraction t of `turn` (model rotation ballQ, parent's parentQ) stay
// within cosHalf (cosine of half the angle) of their rest local rotation.
static LB_ALWAYS_INLINE bool lbFootToesWithin(lbQuat turn, float t, lbQuat ballQ, lbQuat parentQ, lbQuat rest, float cosHalf)
{
	lbQuat q = lbIkQuatMul(lbQuatSlerp(lbQuat_identity, turn, t), ballQ);
	return lbAbsF(lbQuatDot(rest, lbQuatNormalize(lbFootQuatIn(parentQ, q)))) >= cosHalf;
}

// Toes whose tip the pose put below the ground plane (point, normal: model space) bend up at the
// ball joint, as little as brings the tip onto the plane, as a person's do when the heel lifts or
// the foot tilts; a foot in the air keeps its toes. Weight w in [0, 1]; lead in [0, 1] bends them
// ahead of a contact (lbFootTarget::toeLead).
static void lbFootBendToes(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, int side, lbVec3 pointMs,
						   lbVec3 normalMs, float w, float lead, const lbTransform* cw, lbVec3 upMs)
{
	const int ball = humanoid->leg[side].ball;
	if (ball < 0 || w <= 0.0f)
		return;
	const lbTransform b = pose->model[ball];
	const lbVec3 tipOffset = lbIkQuatRotate(b.q, humanoid->legAxes[side].toeTipBall);
	const float length = lbLength(tipOffset);
	if (length < 1.0e-4f)
		return;
	const lbVec3 dir = lbMulSV(1.0f / length, tipOffset);
	// The ball's height over the plane, and the lowest the toes may point for the tip to stay on it.
	// A ball below the plane says the plane is not the ground under the toes (a foot past a stair
	// nose, over the tread below): the toes are left as they are.
	const float ballRaw = lbDot(lbSub(b.p, pointMs), normalMs);
	if (ballRaw < 0.0f && ballRaw < -0.01f * lbFootMetreMs(cw, upMs))
		return;
	const float ballH = lbMaxF(ballRaw, 0.0f);
	const float dip = lbDot(dir, normalMs);
	float allowed = -lbMinF(ballH / length, 1.0f);
	// A foot coming down onto the ground bends its toes ahead of the contact: `lead` of the way from
	// the bend its toes need now to the bend they would need with the ball at its rest height over
	// the ground (the toe tip's depth under the ball joint in the rest pose, along the sole's
	// normal). Bent only once the tip reached the ground, the toes of a foot landing on the tread
	// below at 4-10 cm a frame turned 13-16 degrees in that frame (walking down 0.18-0.34 m stairs).
	if (lead > 0.0f)
	{
		const lbLegAxes* ax = &humanoid->legAxes[side];
		const float rest = -lbDot(lbQuatRotate(skeleton->restLocal[ball].q, ax->toeTipBall), ax->footUp);
		if (rest > 0.0f && ballH > rest)
		{
			const float down = asinf(lbClampF(-dip, -1.0f, 1.0f));
			const float now = lbMaxF(down - asinf(lbMinF(ballH / length, 1.0f)), 0.0f);
			const float there = lbMaxF(down - asinf(lbMinF(rest / length, 1.0f)), 0.0f);
			allowed = -sinf(down - lbLerpF(now, there, lead));
		}
	}
	if (dip >= allowed)
		return;
	const int parent = skeleton->parents[ball];
	const lbQuat parentQ = parent >= 0 ? lbQuatNormalize(pose->model[parent].q) : lbQuat_identity;
	const lbQuat rest = skeleton->restLocal[ball].q;
	// Turn dir in the plane of dir and the normal until its dip is the allowed one. Toes pointing
	// within 11.5 degrees of straight into the ground (a clip's actor on tiptoe) lean no clear way
	// of their own: the way their rest direction on the foot as it stands leans comes in, fully by
	// straight down. Left unbent there, CMU 01_03's toes, bent 35 degrees onto a floor 5 cm under
	// the ball, sprang back for a single frame as they passed 82 degrees down (told the clip's root
	// velocity: a pop of 36 degrees, the tip 3 cm into the floor).
	lbVec3 along = lbProjectOnPlane(dir, normalMs);
	const float lean2 = lbLengthSquared(along), clearLean2 = 0.04f;
	if (lean2 < clearLean2)
	{
		// The rest tip's offset has the toes' length (rotations keep it), so it is scaled by that.
		const lbVec3 restTip = lbIkQuatRotate(parentQ, lbIkQuatRotate(rest, humanoid->legAxes[side].toeTipBall));
		along = lbMulAdd(along, (1.0f - lean2 / clearLean2) / length, lbProjectOnPlane(restTip, normalMs));
		if (!(lbLengthSquared(along) > 1.0e-6f))
			return; // no way to bend at all
	}
	along = lbNormalize(along);
	const lbVec3 want = lbAdd(lbMulSV(sqrtf(1.0f - allowed * allowed), along), lbMulSV(allowed, normalMs));
	lbQuat turn = lbQuatFromTo(dir, want);
	if (w < 1.0f)
		turn = lbQuatSlerp(lbQuat_identity, turn, w);
	// The toes' own range: no further than 65 degrees from their rest rotation relative to the foot
	// (with whatever bend the animation already gave them); past it the tip may touch the ground.
	const float cosHalf = cosf(0.5f * 65.0f * LB_DEG2RAD);
	float t = 1.0f;
	if (!lbFootToesWithin(turn, 1.0f, b.q, parentQ, rest, cosHalf))
	{
		// Past the range: bisect the largest part of the bend that stays within it.
		float lo = 0.0f, hi = 1.0f;
		for (int i = 0; i < 6; ++i)
		{
			float mid = 0.5f * (lo + hi);
			if (lbFootToesWithin(turn, mid, b.q, parentQ, rest, cosHalf))
				lo = mid;
			else
				hi = mid;
		}
		t = lo;
	}
	if (t <= 0.0f)
		return;
	turn = lbQuatSlerp(lbQuat_identity, turn, t);
	lbPose_SetBoneModelRotation(pose, skeleton, ball, lbQuatNormalize(lbIkQuatMul(turn, b.q)), true);
}

// How far (model units, along the unit normal n) the pose put foot s's ball joint above where its
// goal (lbFootTarget::ankleWs, footRotWs) puts it.
LB_COLD static float lbFootReleasedBallRise(const lbFootTargets* targets, int s, const lbPose* pose, int foot, int ball, lbVec3 n)
{
	const lbFootTarget* f = &targets->feet[s];
	if (!lbIsValidVec3(f->ankleWs) || !lbIsValidQuat(f->footRotWs))
		return 0.0f;
	lbTransform goal = lbMakeTransform(lbFootPointIn(&targets->characterWs, f->ankleWs),
									   lbQuatNormalize(lbFootQuatIn(targets->characterWs.q, f->footRotWs)));
	goal.s = pose->model[foot].s;
	const lbVec3 at = lbIkTransformPoint(&goal, pose->local[ball].p);
	return lbDot(lbSub(pose->model[ball].p, at), n);
}

// lbIsValidVec3 of a foot's normalWs, toeNormalWs and groundPointWs, nine consecutive floats, in
// three loads and compares (NaN fails a compare, infinity the bound).
static LB_ALWAYS_INLINE bool lbFootToePlaneFinite(const lbFootTarget* f)
{
#if defined(LB_SIMD_SSE)
	_Static_assert(offsetof(lbFootTarget, toeNormalWs) == offsetof(lbFootTarget, normalWs) + 3 * sizeof(float) &&
					   offsetof(lbFootTarget, groundPointWs) == offsetof(lbFootTarget, normalWs) + 6 * sizeof(float),
				   "normalWs, toeNormalWs and groundPointWs are nine consecutive floats");
	const __m128 abs = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)), inf = _mm_set1_ps(INFINITY);
	const float* v = &f->normalWs.x;
	const __m128 ok = _mm_and_ps(_mm_and_ps(_mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(v), abs), inf), _mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(v + 4), abs), inf)),
								 _mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(v + 5), abs), inf));
	return _mm_movemask_ps(ok) == 0xf;
#else
	return lbIsValidVec3(f->toeNormalWs) && lbIsValidVec3(f->groundPointWs) && lbIsValidVec3(f->normalWs);
#endif
}

static void lbFootBendAllToes(const lbFootTargets* targets, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
							  lbPose* pose, float alpha)
{
	for (int s = 0; s < 2; ++s)
	{
		const lbFootTarget* f = &targets->feet[s];
		// Only a foot on the ground bends its toes on it; a swinging foot clears its whole sole
		// instead (the sense stage), its toes pointing where the animation points them. The bend
		// eases in and out with the plant (toeBend), a locked foot's too: taken at full weight
		// from the frame the lock began, the toes of a foot landing toes first below a ledge
		// turned 22 degrees in that frame.
		const float bend = lbClampF(f->toeBend, 0.0f, 1.0f);
		const int ball = humanoid->leg[s].ball;
		if (!f->grounded || !(bend > 0.0f) || ball < 0 || !lbFootToePlaneFinite(f))
			continue;
		lbVec3 n = lbNormalizeOr(lbFootDirectionIn(&targets->characterWs, f->toeNormalWs), lbVec3_zero);
		// The toes' plane passes through the ground plane's point under the ball joint (along up):
		// leaned back about it (toeNormalWs), it rises under the toes alone.
		// A rise that is not a finite 0-0.5 m (a caller's own targets) is none.
		const bool rise = f->toeRise > 0.0f && f->toeRise <= 0.5f;
		const lbVec3 g = lbFootPointIn(&targets->characterWs, rise ? lbMulAdd(f->groundPointWs, f->toeRise, targets->upWs) : f->groundPointWs);
		const lbVec3 gn = lbNormalizeOr(lbFootDirectionIn(&targets->characterWs, f->normalWs), n);
		const lbVec3 up = lbNormalizeOr(lbFootDirectionIn(&targets->characterWs, targets->upWs), gn);
		const lbVec3 b = pose->model[ball].p;
		lbVec3 p = lbMulAdd(b, -lbDot(lbSub(b, g), gn) / lbMaxF(lbDot(up, gn), 0.05f), up);
		// A foot just let go (its bend easing out) whose ball the pose stage itself raised above the
		// goal's (a free foot's knee cap pushing the heel-lifted goal away from the hip): the plane
		// rises with it, so the toes ease out from the bend they had. The locked foot's heel lifts
		// about the ball; at the release the cap took over, raised the ball 3.4 cm in a frame and
		// the toes turned back 10 degrees at once (turns on 0.236 m risers: 15.5-16.5 degrees of pop
		// at the ball).
		if (bend < 1.0f && !f->planted && !f->locked && skeleton->parents[ball] == humanoid->leg[s].foot)
			p = lbMulAdd(p, lbMaxF(lbFootReleasedBallRise(targets, s, pose, humanoid->leg[s].foot, ball, gn), 0.0f), up);
		lbFootBendToes(pose, skeleton, humanoid, s, p, n, alpha * lbClampF(f->alpha, 0.0f, 1.0f) * bend, lbClampF(f->toeLead, 0.0f, 1.0f),
					   &targets->characterWs, up);
	}
}

lbResult lbFootApplyPose(const lbFootTargets* targets, const lbFootDef* def, const lbSkeleton* skeleton,
						 const lbHumanoid* humanoid, lbFootSolver solver, lbPose* pose, void* workspace,
						 size_t workspaceSize)
{
	if (!targets || !def || !skeleton || !humanoid || !pose || !pose->local || !pose->model)
		return lbReport(lb_errorNullPointer, "lbFootApplyPose: targets, def, skeleton, humanoid and pose are required");
	lbResult valid = lbFootCheckRig(humanoid, skeleton);
	if (valid == lb_ok)
		valid = lbFootDef_Validate(def);
	if (valid != lb_ok)
		return valid;
	if ((unsigned)solver > (unsigned)lb_footSolverFullBody)
		return lbReport(lb_errorInvalidArgument, "lbFootApplyPose: solver %d is not a lbFootSolver", (int)solver);
	return lbFootApplyPoseChecked(targets, def, skeleton, humanoid, solver, pose, workspace, workspaceSize);
}

// One character's two-bone leg solves as the pose stage prepared them (model space): which legs are
// weighted, their goals and weights, the kneeMaxBend reach and whether a ground plane keeps each
// lifted goal of a free foot above it (lbFootPlaneMs of `targets` and upMs, made only for a foot
// past the ankle limit).
typedef struct lbFootPoseLegs
{
	bool solve[2];
	lbVec3 targetMs[2];
	lbQuat rotationMs[2];
	float weight[2], minReach[2];
	bool hasPlane[2];
	const lbFootTargets* targets;
	lbVec3 upMs;
	bool toesKept[2];  // not planted: the toes are not bent onto the ground
	float offLedge[2]; // see lbFootOffLedge
	float soften, limit, cosHalf;
} lbFootPoseLegs;


static lbFootPoseConsts lbFootPoseConstsOf(const lbFootDef* def, const lbHumanoid* humanoid)
{
	lbFootPoseConsts k;
	k.cosHalfLimit = def->ankleLimit > 0.0f && def->ankleLimit < LB_PI ? cosf(0.5f * def->ankleLimit) : -1.0f;
	k.freeAnkleGate = lbFootFreeAnkleGate(k.cosHalfLimit, def->ankleLimit);
	k.kneeCap = def->kneeMaxBend > 0.0f && def->kneeMaxBend < LB_PI;
	k.cosKnee = k.kneeCap ? cosf(LB_PI - def->kneeMaxBend) : 1.0f;
	k.hipCap = def->hipMaxFlex > 0.0f && def->hipMaxFlex < LB_PI;
	k.cosHip = cosf(def->hipMaxFlex);
	k.sinHip = sinf(def->hipMaxFlex);
	for (int s = 0; s < 2; ++s)
	{
		const lbLegAxes* ax = &humanoid->legAxes[s];
		const float a = ax->thighLength, b = ax->calfLength;
		k.minReach[s] = k.kneeCap ? sqrtf(lbMaxF(a * a + b * b - 2.0f * a * b * k.cosKnee, 0.0f)) : 0.0f;
	}
	k.read = lbFootReadListOf(humanoid);
	k.pelvisEnd = -1; // worked out for a crowd (lbFootPoseShared_Init), where it pays
	return k;
}

// A foot the posed leg leaves under its floor (lbFootTarget::floorPointWs: the ground under it,
// lowered gradually where that ground fell away), while its IK is out or fading (the character
// airborne, a leg blending in), is lifted along up by its deepest sole point's depth, its rotation
// kept: walking off a ledge higher than a step, the body falls with the trailing foot still over
// the ledge's top, and the animation alone sank that foot 6-9 cm into it. Nothing happens while
// the IK holds the foot at full weight (it is placed) or when the game turned the IK off
// (targets->keepAbove false).
LB_COLD static lbResult lbFootKeepAbove(const lbFootTargets* targets, const lbFootDef* def, const lbFootPoseConsts* consts,
								const lbSkeleton* skeleton, const lbHumanoid* humanoid, lbPose* pose)
{
	if (!targets->keepAbove)
		return lb_ok;
	const lbTransform* cw = &targets->characterWs;
	for (int s = 0; s < 2; ++s)
	{
		const lbFootTarget* f = &targets->feet[s];
		if (!f->hasFloor || !lbIsValidVec3(f->floorPointWs) || !lbIsValidVec3(f->floorNormalWs))
			continue;
		const int foot = humanoid->leg[s].foot;
		const lbTransform footMs = pose->model[foot];
		// The toe tip where the toes point now (bent, or curled by the animation), as the metrics
		// measure it: taken along the foot, a captured foot's toes curled down stood 1.0-1.4 cm in
		// the tread it was lifted onto (CMU 01_03 walking off the side of a flight).
		lbVec3 p[lb_solePointCount];
		lbHumanoid_GetSolePointsMs(humanoid, pose, s, p);
		for (int k = 0; k < lb_solePointCount; ++k)
			p[k] = lbTransformPoint(*cw, p[k]);
		const lbLegAxes* ax = &humanoid->legAxes[s];
		const lbVec3 upMs = lbNormalizeOr(lbFootDirectionIn(cw, targets->upWs), humanoid->upMs);
		const float modelToWorld = lbMaxF(lbLength(lbIkQuatRotate(cw->q, lbMulVV(cw->s, upMs))), 1.0e-6f);
		const float worldToModel = 1.0f / modelToWorld, legWs = (ax->thighLength + ax->calfLength) * modelToWorld;
		const float depth = lbFootDepthUnderFloor(p, f->floorPointWs, f->floorNormalWs, targets->upWs, f->floorSoleH, f->floorSoleAtWs,
												  legWs);
		// Under a millimetre is the placement's own rounding; a depth past a leg's length is not a
		// foot over that ground: neither is moved.
		if (!(depth > 1.0e-3f && depth < legWs))
			continue;
		lbResult r = lbFootSolveLegTo(pose, skeleton, humanoid, s, lbMulAdd(footMs.p, depth * worldToModel, upMs),
									  lbQuatNormalize(footMs.q), 1.0f, lbClampF(def->legSoften, 0.0f, 0.5f), def->ankleLimit,
									  consts->cosHalfLimit, 0.0f, NULL, true, 0.0f, worldToModel);
		if (r != lb_ok)
			return r;
	}
	return lb_ok;
}

// The pose stage up to the two-bone leg solves: the checks of what belongs to one character, the
// pelvis, and each leg's goal (*outLegs). The full-body solver's path and a faded-out character
// finish here (*outDone).
// The ground point under foot s (model space); a unit-scaled character frame skips
// lbInvTransformPoint's reciprocal scale (1 / 1 and x * 1 are exact).
static inline lbVec3 lbFootGroundMs(const lbFootTargets* targets, int s)
{
	const lbTransform* cw = &targets->characterWs;
	const lbVec3 p = targets->feet[s].groundPointWs;
	return cw->s.x == 1.0f && cw->s.y == 1.0f && cw->s.z == 1.0f ? lbFootRotateBack(cw->q, lbSub(p, cw->p)) : lbFootPointIn(cw, p);
}

// The ground plane under foot s (model space: point, normal), which the ankle limit's lifted goal
// of a free foot is kept above; made only where the limit is met (most legs never reach it).
static void lbFootPlaneMs(const lbFootTargets* targets, int s, lbVec3 upMs, lbVec3 out[2])
{
	out[0] = lbFootGroundMs(targets, s);
	out[1] = lbNormalizeOr(lbFootDirectionIn(&targets->characterWs, targets->feet[s].normalWs), upMs);
}

// How surely a free foot is being left on a ledge's top by hips come down for the other foot far
// below (0..1): the other foot's ground lies more than half its leg's length under this foot's
// (wholly from 0.55: 0.46 m on the mannequin's 0.84 m leg), and the hips have come down more than a
// tenth of that leg (wholly from two tenths). Running down 0.25 m stairs the ground two risers
// down lies that far under a trailing foot too, but the hips stay up there (without that second
// condition the trailing calf turned 15.6 -> 17.5 degrees in a frame there). Model space (the
// ground points under this foot and the other, lbFootGroundMs), pelvisDrop (>= 0). 0 for a planted
// foot (its toes are bent onto the ground, not kept).
static LB_ALWAYS_INLINE float lbFootOffLedge(const lbFootTargets* targets, const lbHumanoid* humanoid, lbVec3 upMs, float pelvisDrop, int side)
{
	const int o = 1 - side;
	const lbLegAxes* ax = &humanoid->legAxes[o];
	const float leg = lbMaxF(ax->thighLength + ax->calfLength, 1.0e-6f);
	// Most frames end here: hips at the animation's height.
	if (pelvisDrop <= 0.1f * leg || targets->feet[side].planted || !targets->feet[side].grounded || !targets->feet[o].grounded)
		return 0.0f;
	const float drop = lbDot(lbSub(lbFootGroundMs(targets, side), lbFootGroundMs(targets, o)), upMs) / leg;
	return lbSmoothStep((drop - 0.5f) / 0.05f) * lbSmoothStep((pelvisDrop / leg - 0.1f) / 0.1f);
}

// A free foot whose goal the hip's limit turned down by `lost` (model m, along up: a swing reaching
// for a tread the body has not climbed yet) turns its toes up about the ankle so that the toe tip
// rises by 0.7 of that, at most 30 degrees and no higher than the ankle: the turned-down ankle kept
// the animation's toe-down swing and the toe tip went into the riser it had cleared (running up
// 0.28 m risers, 10-16 mm). The whole of it turned the foot fast enough to pop the leg (running up
// 0.25 and 0.30 m on mixamo, 15.2-15.8 degrees); half left 0.6 mm in one run.
static LB_NOINLINE lbQuat lbFootToesUpTurn(lbQuat rotMs, const lbHumanoid* humanoid, int side, lbVec3 upMs, float lost)
{
	const lbSole sole = lbHumanoid_GetSole(humanoid, side);
	const lbVec3 tip = lbIkQuatRotate(rotMs, lbMulAdd(sole.under, sole.along[lb_soleToeTip], sole.toeFlat));
	const float len = lbLength(tip);
	const lbVec3 axis = lbNormalizeOr(lbCross(lbProjectOnPlane(tip, upMs), upMs), lbVec3_zero);
	if (len < 1.0e-5f || lbLengthSquared(axis) == 0.0f)
		return rotMs;
	const float sin0 = lbClampF(lbDot(tip, upMs) / len, -1.0f, 1.0f);
	const float sin1 = lbMinF(sin0 + 0.7f * lost / len, 0.0f);
	if (sin1 <= sin0)
		return rotMs;
	const float turn = lbMinF(asinf(sin1) - asinf(sin0), 30.0f * LB_DEG2RAD);
	return lbQuatNormalize(lbQuatMul(lbQuatFromAxisAngle(axis, turn), rotMs));
}

// rotMs, turned (lbFootToesUpTurn) only where the goal lost height: the test in line and the turn
// out of it, since most frames lose none (a call with the rotation's and up's floats unpacked and
// packed again cost about 30 instructions a leg).
static LB_ALWAYS_INLINE lbQuat lbFootToesUp(lbQuat rotMs, const lbHumanoid* humanoid, int side, lbVec3 upMs, float lost)
{
	return lost > 0.0f ? lbFootToesUpTurn(rotMs, humanoid, side, upMs, lost) : rotMs;
}

// The spine leans forward over the hips' move back on a steep climb (lbFootTargets::climbShiftWs):
// about its first bone, by the angle that keeps the neck where the animation has it along the
// move (asin of the move over the first spine bone's distance to the neck, at most 30 degrees).
// Moved back alone, the hips took the whole upper body with them, and the character leaned back
// up the steps it climbed.
static lbResult lbFootLeanOverClimb(const lbFootTargets* targets, const lbHumanoid* humanoid, const lbSkeleton* skeleton,
									 lbPose* pose, lbTransform cw, lbVec3 upMs, float scale)
{
	if (humanoid->spineCount <= 0 || humanoid->neck < 0 || lbLengthSquared(targets->climbShiftWs) <= 1.0e-10f)
		return lb_ok;
	const int root = humanoid->spine[0];
	const lbVec3 moveMs = lbMulSV(scale, lbFootRotateBack(cw.q, targets->climbShiftWs));
	const lbVec3 axis = lbCross(moveMs, upMs);
	const float move = lbLength(axis);
	if (!(move > 1.0e-6f))
		return lb_ok;
	const lbVec3 unit = lbMulSV(1.0f / move, axis);
	const float spine = lbLength(lbProjectOnPlane(lbSub(pose->model[humanoid->neck].p, pose->model[root].p), unit));
	if (!(spine > 1.0e-4f))
		return lb_ok;
	const lbQuat lean = lbQuatFromAxisAngle(unit, asinf(lbMinF(move / spine, 0.5f)));
	return lbPose_SetBoneModelRotation(pose, skeleton, root, lbQuatNormalize(lbQuatMul(lean, pose->model[root].q)), true);
}

// Whether the targets pass lbFootPosePrepare's tests of them one by one, by a test of all their floats
// at once that is only ever stricter: the character's frame as lbIkValidTransformExact takes it,
// and every other float those tests read (the pelvis's offset, sink limit and shifts, the weight,
// each foot's ankle, rotation and weight) below 1e37 in magnitude, so finite, and so are the
// rotations' sums. Targets it turns down go through the tests one by one, which say what is wrong
// (or pass them: a float of 1e37 or more is finite). Seven loads and compares instead of about
// twenty tests and branches a character.
static LB_ALWAYS_INLINE bool lbFootTargetsPlain(const lbFootTargets* t)
{
#if defined(LB_SIMD_SSE)
	_Static_assert(offsetof(lbFootTargets, pelvisMaxSink) == offsetof(lbFootTargets, pelvisOffset) + sizeof(float) &&
					   offsetof(lbFootTargets, pelvisShiftWs) == offsetof(lbFootTargets, pelvisOffset) + 2 * sizeof(float) &&
					   offsetof(lbFootTargets, climbShiftWs) == offsetof(lbFootTargets, pelvisOffset) + 5 * sizeof(float) &&
					   offsetof(lbFootTargets, alpha) == offsetof(lbFootTargets, pelvisOffset) + 8 * sizeof(float),
				   "pelvisOffset to alpha are nine consecutive floats");
	_Static_assert(offsetof(lbFootTarget, footRotWs) == offsetof(lbFootTarget, ankleWs) + 3 * sizeof(float) &&
					   offsetof(lbFootTarget, alpha) == offsetof(lbFootTarget, ankleWs) + 7 * sizeof(float),
				   "ankleWs, footRotWs and alpha are eight consecutive floats");
	const __m128 abs = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)), big = _mm_set1_ps(1.0e37f);
	const float* f = &t->pelvisOffset;
	const float* a = &t->feet[0].ankleWs.x;
	const float* b = &t->feet[1].ankleWs.x;
	// NaN fails each compare.
	__m128 ok = _mm_and_ps(_mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(f), abs), big), _mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(f + 4), abs), big));
	ok = _mm_and_ps(ok, _mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(f + 5), abs), big));
	ok = _mm_and_ps(ok, _mm_and_ps(_mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(a), abs), big), _mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(a + 4), abs), big)));
	ok = _mm_and_ps(ok, _mm_and_ps(_mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(b), abs), big), _mm_cmplt_ps(_mm_and_ps(_mm_loadu_ps(b + 4), abs), big)));
	return _mm_movemask_ps(ok) == 0xf && lbIkValidTransformExact(&t->characterWs);
#else
	(void)t;
	return false;
#endif
}

static lbResult lbFootPosePrepare(const lbFootTargets* targets, const lbFootDef* def, const lbFootPoseConsts* consts,
								  const lbSkeleton* skeleton, const lbHumanoid* humanoid, lbFootSolver solver, lbPose* pose,
								  void* workspace, size_t workspaceSize, lbFootPoseLegs* outLegs, bool* outDone)
{
	*outDone = true;
	if (!targets || !pose || !pose->local || !pose->model)
		return lbReport(lb_errorNullPointer, "lbFootApplyPose: targets and pose are required");
	if (pose->boneCount != skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbFootApplyPose: pose has %d bones, skeleton %d", pose->boneCount,
						skeleton->boneCount);
	const lbTransform cw = targets->characterWs;
	if (!lbFootTargetsPlain(targets))
	{
		if (!lbIkValidTransformExact(&cw) || !lbIsValidFloat(targets->alpha) || !lbIsValidFloat(targets->pelvisOffset) ||
			!lbIsValidFloat(targets->pelvisMaxSink) || !lbIsValidVec3(targets->pelvisShiftWs) ||
			!lbIsValidVec3(targets->climbShiftWs))
			return lbReport(lb_errorNonFinite, "lbFootApplyPose: non-finite targets");
		for (int s = 0; s < 2; ++s)
		{
			const lbFootTarget* f = &targets->feet[s];
			if (!lbIsValidVec3(f->ankleWs) || !lbIsValidFloat(f->alpha) ||
				!lbIsValidFloat(f->footRotWs.x + f->footRotWs.y + f->footRotWs.z + f->footRotWs.w))
				return lbReport(lb_errorNonFinite, "lbFootApplyPose: non-finite %s foot target", s ? "right" : "left");
		}
	}
	if (!lbIsValidFloat(def->ankleLimit))
		return lbReport(lb_errorNonFinite, "lbFootApplyPose: non-finite ankle limit");
	if (solver == lb_footSolverFullBody && (!workspace || workspaceSize < lbGetFullBodyIkWorkspaceSize(skeleton)))
		return lbReport(lb_errorCapacity, "lbFootApplyPose: the full-body solver needs %zu bytes of workspace",
						lbGetFullBodyIkWorkspaceSize(skeleton));
	// The pelvis goes first and each leg after it, so a non-finite transform the second leg reads
	// would fail that leg after the pelvis and the first leg were written: the bones this stage reads
	// are checked before anything is written (all of them for the full-body solver, which reads
	// every bone), so an error leaves the pose as it was.
	// Goals as this stage reads them (model space, where the pose lives): one that is finite in the
	// world but 1e6 m or more from the character leaves no precision for a leg and overflows once
	// its distance is squared, after the pelvis has moved.
	// Kept as each weighted leg's ankle target in model space.
	lbVec3 targetMs[2];
	for (int s = 0; s < 2; ++s)
	{
		const lbVec3 t = lbFootPointIn(&cw, targets->feet[s].ankleWs);
		targetMs[s] = t;
		if (!(lbMaxF(lbMaxF(lbAbsF(t.x), lbAbsF(t.y)), lbAbsF(t.z)) < 1.0e6f))
			return lbReport(lb_errorInvalidArgument, "lbFootApplyPose: the %s foot's target is 1e6 m or more from the character",
							s ? "right" : "left");
	}
	if (!lbFootPoseFinite(pose, humanoid, &consts->read, solver == lb_footSolverFullBody))
		return lbReport(lb_errorNonFinite, "lbFootApplyPose: non-finite or out-of-range transform, or zero-length leg bone, in the pose");
	const float alpha = lbClampF(targets->alpha, 0.0f, 1.0f);
	if (alpha <= 0.0f)
		return lbFootKeepAbove(targets, def, consts, skeleton, humanoid, pose);

	// Pelvis first: the legs then solve from where the hips really are. It comes down by the
	// smoothed offset, or further when a weighted leg still needs it to reach its goal before the
	// soft-IK band (the sense stage measured that once per leg), within the sink limit.
	const lbVec3 upMs = lbNormalizeOr(lbFootDirectionIn(&cw, targets->upWs), humanoid->upMs);
	const float worldToModel = 1.0f / lbMaxF(lbLength(lbIkQuatRotate(cw.q, lbMulVV(cw.s, upMs))), 1.0e-6f);
	const float soften = lbClampF(def->legSoften, 0.0f, 0.5f);
	float offset = alpha * targets->pelvisOffset;
	for (int s = 0; s < 2; ++s)
	{
		const lbFootTarget* f = &targets->feet[s];
		// Only a leg that needs the pelvis lower lowers it further.
		if (lbIsValidFloat(f->reachDrop) && f->reachDrop > 0.0f)
			offset = lbMinF(offset, -alpha * lbClampF(f->alpha, 0.0f, 1.0f) * f->reachDrop);
	}
	const float sinkLimit = lbClampF(targets->pelvisMaxSink, 0.0f, lbMaxF(def->pelvisMaxSink, 0.0f));
	offset = lbMaxF(offset, lbMinF(alpha * targets->pelvisOffset, -sinkLimit));
	// The hips' move ahead (world), turned into model space, with the offset along up.
	const lbVec3 shiftMs = lbMulSV(alpha * worldToModel, lbFootRotateBack(cw.q, targets->pelvisShiftWs));
	const lbVec3 pelvisMoveMs = lbMulAdd(shiftMs, offset * worldToModel, upMs);
	lbResult r = consts->pelvisEnd >= 0 ? lbPoseTranslateRun(pose, skeleton, humanoid->pelvis, consts->pelvisEnd, pelvisMoveMs)
										: lbPose_TranslateBoneModel(pose, skeleton, humanoid->pelvis, pelvisMoveMs);
	if (r != lb_ok)
		return r;
	r = lbFootLeanOverClimb(targets, humanoid, skeleton, pose, cw, upMs, alpha * worldToModel);
	if (r != lb_ok)
		return r;
	// Ankle limit off (0 or less) or never exceeded (half a turn or more): -1 skips it.
	const float cosHalfLimit = consts->cosHalfLimit;
	// A foot not locked to the ground whose goal would fold its knee past kneeMaxBend (a trailing
	// foot left high behind a body that already went down a step) keeps the knee at that bend: its
	// goal moves out along the line from the hip (minReach from it, kept for the ankle limit).
	float minReach[2] = { 0.0f, 0.0f };
	// How far (model m, along up) the hip's limit below turned each free foot's goal down.
	float lost[2] = { 0.0f, 0.0f };
	for (int s = 0; s < 2; ++s)
	{
		const lbFootTarget* f = &targets->feet[s];
		if (f->locked)
			continue;
		const lbLegAxes* ax = &humanoid->legAxes[s];
		const float a = ax->thighLength, b = ax->calfLength;
		const float dMin = consts->minReach[s];
		const lbVec3 hip = pose->model[humanoid->leg[s].thigh].p;
		lbVec3 d = lbSub(targetMs[s], hip);
		float len = lbLength(d);
		if (len < 1.0e-5f)
			continue;
		minReach[s] = dMin;
		if (len < dMin)
		{
			d = lbMulSV(dMin / len, d);
			len = dMin;
		}
		// Nor does a free foot's goal raise the thigh past hipMaxFlex from hanging straight down (a
		// swing lifted over steps the body has not climbed yet): the thigh lies the hip's triangle
		// angle above the hip-to-goal line, so the goal turns down about the hip until the thigh is
		// at the limit.
		// The limit's elevation: lbFootHipCapElevation.
		if (consts->hipCap)
		{
			float sinMax, cosMax;
			lbFootHipCapElevation(a, b, len, consts->cosHip, consts->sinHip, &sinMax, &cosMax);
			const float sinElevation = lbClampF(lbDot(d, upMs) / len, -1.0f, 1.0f);
			if (cosMax < 0.0f || sinElevation > sinMax)
			{
				lbVec3 flat = lbNormalizeOr(lbProjectOnPlane(d, upMs), humanoid->forwardMs);
				const float before = lbDot(d, upMs);
				d = lbMulSV(len, lbAdd(lbMulSV(cosMax, flat), lbMulSV(sinMax, upMs)));
				// The toes turn up for it (lbFootToesUp) only where the goal stands more than 0.1 m above
				// the animated ankle (ground rising above the animation's: going up) and more than
				// 0.15 m ahead of the hip (a swing reaching forward), weighted in over the next 5 and
				// 10 cm so the turn never starts at once. Running down, a foot swung high under hips
				// brought down for the other leg meets the same limit just ahead of the hip, and the
				// turn popped the leg (0.31 m risers, 17 -> 19 degrees).
				const float above = lbDot(lbSub(lbAdd(hip, d), pose->model[humanoid->leg[s].foot].p), upMs);
				const float ahead = lbDot(d, humanoid->forwardMs);
				lost[s] = lbMaxF(before - lbDot(d, upMs), 0.0f) * lbClampF((above - 0.1f * worldToModel) / (0.05f * worldToModel), 0.0f, 1.0f) *
						  lbClampF((ahead - 0.15f * worldToModel) / (0.1f * worldToModel), 0.0f, 1.0f);
			}
		}
		targetMs[s] = lbAdd(hip, d);
	}

	if (solver == lb_footSolverFullBody)
	{
		// Both feet as full-body effectors: the body (pelvis and spine) moves within the def's sink
		// and lift limits so both legs reach, and the legs are solved with their limits.
		lbFullBodyIkDef settings = lbDefaultFullBodyIkDef();
		settings.pelvisMaxSink = sinkLimit * worldToModel;
		settings.pelvisMaxRise = lbMaxF(def->pelvisMaxLift, 0.0f) * worldToModel;
		settings.upMs = upMs;
		lbFullBodyIkEffector effectors[lb_effectorCount];
		for (int e = 0; e < lb_effectorCount; ++e)
			effectors[e] = lbDefaultFullBodyIkEffector();
		for (int s = 0; s < 2; ++s)
		{
			const lbFootTarget* f = &targets->feet[s];
			lbFullBodyIkEffector* e = &effectors[s == 0 ? lb_effectorFootL : lb_effectorFootR];
			e->targetMs = targetMs[s];
			e->targetRotationMs = lbQuatNormalize(lbFootQuatIn(cw.q, f->footRotWs));
			e->positionAlpha = e->rotationAlpha = alpha * lbClampF(f->alpha, 0.0f, 1.0f);
		}
		r = lbSolveFullBodyIk(pose, skeleton, humanoid, &settings, effectors, workspace, workspaceSize, NULL);
		if (r != lb_ok)
			return r;
		// A leg the full-body solve left short of its goal (its joint limits, its iteration count)
		// or with the foot past the ankle limit is solved again toward the same goal from the
		// full-body result, with the ankle limit as on the two-bone path: a foot never stays inside
		// the ground for the body's sake.
		for (int s = 0; s < 2; ++s)
		{
			const lbFootTarget* f = &targets->feet[s];
			float w = alpha * lbClampF(f->alpha, 0.0f, 1.0f);
			const int foot = humanoid->leg[s].foot;
			const float gate = minReach[s] > 0.0f ? lbFootFreeAnkleGate(cosHalfLimit, def->ankleLimit) : cosHalfLimit;
			bool pastLimit = cosHalfLimit >= 0.0f &&
							 lbAbsF(lbQuatDot(skeleton->restLocal[foot].q, lbQuatNormalize(pose->local[foot].q))) < gate;
			const lbQuat wantRot = lbFootToesUp(lbQuatNormalize(lbFootQuatIn(cw.q, f->footRotWs)), humanoid, s, upMs, lost[s]);
			bool short_ = w >= 1.0f && (lbDistance(pose->model[foot].p, targetMs[s]) > 0.002f * worldToModel ||
										lbAbsF(lbQuatDot(lbQuatNormalize(pose->model[foot].q), wantRot)) < 0.99996f);
			if (w <= 0.0f || (!pastLimit && !short_))
				continue;
			lbVec3 plane[2];
			if (f->grounded)
				lbFootPlaneMs(targets, s, upMs, plane);
			r = lbFootSolveLegTo(pose, skeleton, humanoid, s, targetMs[s], wantRot, w, soften, def->ankleLimit, cosHalfLimit, minReach[s], f->grounded ? plane : NULL,
								   !f->planted, lbFootOffLedge(targets, humanoid, upMs, -offset * worldToModel, s), lbFootMetreMs(&cw, upMs));
			if (r != lb_ok)
				return r;
		}
		lbFootBendAllToes(targets, skeleton, humanoid, pose, alpha);
		return lbFootKeepAbove(targets, def, consts, skeleton, humanoid, pose);
	}
	outLegs->soften = soften;
	outLegs->limit = def->ankleLimit;
	outLegs->cosHalf = cosHalfLimit;
	for (int s = 0; s < 2; ++s)
	{
		const lbFootTarget* f = &targets->feet[s];
		const float w = alpha * lbClampF(f->alpha, 0.0f, 1.0f);
		outLegs->solve[s] = w > 0.0f;
		outLegs->weight[s] = w;
		// A leg solved at part weight w moves its foot that part of the way from where the pelvis's
		// move took it to the goal, and 1 - w of the move stays in the foot. Where the leg's own
		// weight (f->alpha, a leg blending in or out) is the part, its goal moves back against
		// the move by 1 - f->alpha, which leaves (1 - f->alpha)^2 of it: none at full weight, all
		// of it at none (where the leg is not solved), smooth between. A foot landing past a gap,
		// its leg fading back in at 0.84-0.95 while the hips sank 7 cm for the other leg, stood 5-8
		// mm under its ground, locked (walking over a 0.46 m gap, mixamo). The character's own
		// weight (airborne) leaves the feet with the body: compensated too, a walk off a 0.58 m
		// ledge folded the trailing knee a degree more a frame as the IK faded for the fall.
		const float legW = lbClampF(f->alpha, 0.0f, 1.0f);
		outLegs->targetMs[s] = legW < 1.0f ? lbMulAdd(targetMs[s], legW - 1.0f, pelvisMoveMs) : targetMs[s];
		outLegs->rotationMs[s] = w > 0.0f ? lbFootToesUp(lbFootQuatInNormalized(cw.q, f->footRotWs), humanoid, s, upMs, lost[s])
										  : lbQuat_identity;
		outLegs->minReach[s] = minReach[s];
		outLegs->hasPlane[s] = f->grounded;
		outLegs->toesKept[s] = !f->planted;
		outLegs->offLedge[s] = lbFootOffLedge(targets, humanoid, upMs, -offset * worldToModel, s);
	}
	outLegs->targets = targets;
	outLegs->upMs = upMs;
	*outDone = false;
	return lb_ok;
}

// Leg `s` of prepared legs solved on its own (the two-bone solve, then the ankle limit).
static lbResult lbFootPoseSolveOne(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
								   const lbFootPoseLegs* legs, int s)
{
	lbVec3 plane[2];
	if (legs->hasPlane[s])
		lbFootPlaneMs(legs->targets, s, legs->upMs, plane);
	return lbFootSolveLegTo(pose, skeleton, humanoid, s, legs->targetMs[s], legs->rotationMs[s], legs->weight[s], legs->soften,
							legs->limit, legs->cosHalf, legs->minReach[s], legs->hasPlane[s] ? plane : NULL, legs->toesKept[s],
							legs->offLedge[s], lbFootMetreMs(&legs->targets->characterWs, legs->upMs));
}

// The pose stage past the checks that hold for a whole crowd (def, rig, solver): the crowd call
// makes those once per batch instead of once per character (about 500 instructions each). Everything
// that belongs to one character (its pose, its targets, the workspace) is still checked here, before
// anything is written.
lbResult lbFootApplyPoseChecked(const lbFootTargets* targets, const lbFootDef* def, const lbSkeleton* skeleton,
								const lbHumanoid* humanoid, lbFootSolver solver, lbPose* pose, void* workspace,
								size_t workspaceSize)
{
	lbFootPoseLegs legs;
	bool done = true;
	const lbFootPoseConsts consts = lbFootPoseConstsOf(def, humanoid);
	lbResult r = lbFootPosePrepare(targets, def, &consts, skeleton, humanoid, solver, pose, workspace, workspaceSize, &legs, &done);
	if (r != lb_ok || done)
		return r;
	for (int s = 0; s < 2; ++s)
	{
		if (!legs.solve[s])
			continue;
		r = lbFootPoseSolveOne(pose, skeleton, humanoid, &legs, s);
		if (r != lb_ok)
			return r;
	}
	lbFootBendAllToes(targets, skeleton, humanoid, pose, lbClampF(targets->alpha, 0.0f, 1.0f));
	return lbFootKeepAbove(targets, def, &consts, skeleton, humanoid, pose);
}

// The bones below `bone` (its subtree without it), parents first: what a solved leg moves, listed
// once for a batch of poses instead of found again for each.
static int lbFootSubtree(const lbSkeleton* skeleton, int bone, int* out)
{
	uint8_t below[LB_MAX_BONES];
	below[0] = 1u;
	int n = 0;
	for (int i = bone + 1; i < skeleton->boneCount; ++i)
	{
		const int q = skeleton->parents[i] - bone; // negative above `bone`
		below[i - bone] = (uint8_t)(q >= 0 && below[q]);
		if (below[i - bone])
			out[n++] = i;
	}
	return n;
}

// A batched leg's solved chain written into the pose: each joint's local transform relative to its
// solved parent, the three joints keeping the solve's model transforms (the products of the locals
// would give them again to rounding), then the rest of the thigh's subtree from the locals (its
// `count` bones `sub`, parents first, without the calf and the foot).
static void lbFootWriteLeg(lbPose* pose, const lbSkeleton* skeleton, const lbLegBones* b, const lbTransform* thigh,
						   const lbTransform* calf, const lbTransform* foot, const int* sub, int count)
{
	const int p = skeleton->parents[b->thigh];
	lbTransform* local = pose->local;
	lbTransform* model = pose->model;
	if (p < 0)
		local[b->thigh] = *thigh;
	else
		lbIkTransformRelativeTo(&local[b->thigh], &model[p], thigh);
	lbIkTransformRelativeTo(&local[b->calf], thigh, calf);
	lbIkTransformRelativeTo(&local[b->foot], calf, foot);
	model[b->thigh] = *thigh;
	model[b->calf] = *calf;
	model[b->foot] = *foot;
	for (int k = 0; k < count; ++k)
		lbIkTransformMulTo(&model[sub[k]], &model[skeleton->parents[sub[k]]], &local[sub[k]]);
}

// in->hingeAxisMs and in->bendHintMs: lbNormalize(lbIkTransformDirection(thigh, axis)) of the knee's
// two axes (lbFootPoseShared's kneeAxes of one side), bit for bit. With SSE2 both are turned by one
// load of the rotation and the scale's signs, normalised in the lanes of one register (the same
// squares summed in the same order, the same root, reciprocal and products) and stored four floats
// each: the pole's fourth lands on in->weight, which the caller sets afterwards.
static inline void lbFootKneeAxes(const lbTransform* thigh, const float axes[2][4], lbTwoBoneIkInput* in)
{
#if LB_IK_SSE2
	const __m128 ws = _mm_loadu_ps(&thigh->q.w);
	const __m128 neg = _mm_and_ps(_mm_cmplt_ps(_mm_shuffle_ps(ws, ws, _MM_SHUFFLE(0, 3, 2, 1)), _mm_setzero_ps()),
								  _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
	const __m128 q = _mm_loadu_ps(&thigh->q.x);
	const __m128 h = lbIkQuatRotate4(q, _mm_xor_ps(_mm_loadu_ps(axes[0]), neg));
	const __m128 p = lbIkQuatRotate4(q, _mm_xor_ps(_mm_loadu_ps(axes[1]), neg));
	// Lane 0 the hinge's (x x + y y) + z z, lane 1 the pole's.
	const __m128 h2 = _mm_mul_ps(h, h), p2 = _mm_mul_ps(p, p);
	const __m128 xy = _mm_unpacklo_ps(h2, p2), zw = _mm_unpackhi_ps(h2, p2);
	const __m128 len = _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(xy, _mm_movehl_ps(xy, xy)), zw));
	// lbNormalizeOr's test: a length above LB_EPSILON and finite, else the zero vector.
	const __m128 ok = _mm_and_ps(_mm_cmpgt_ps(len, _mm_set1_ps(LB_EPSILON)), _mm_cmplt_ps(len, _mm_set1_ps(INFINITY)));
	const __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), len);
	_Static_assert(offsetof(lbTwoBoneIkInput, bendHintMs) == offsetof(lbTwoBoneIkInput, hingeAxisMs) + 3 * sizeof(float) &&
					   offsetof(lbTwoBoneIkInput, weight) == offsetof(lbTwoBoneIkInput, bendHintMs) + 3 * sizeof(float),
				   "hingeAxisMs, bendHintMs and weight are consecutive floats");
	_mm_storeu_ps(&in->hingeAxisMs.x, _mm_and_ps(_mm_mul_ps(_mm_shuffle_ps(inv, inv, _MM_SHUFFLE(0, 0, 0, 0)), h),
												 _mm_shuffle_ps(ok, ok, _MM_SHUFFLE(0, 0, 0, 0))));
	_mm_storeu_ps(&in->bendHintMs.x, _mm_and_ps(_mm_mul_ps(_mm_shuffle_ps(inv, inv, _MM_SHUFFLE(1, 1, 1, 1)), p),
												_mm_shuffle_ps(ok, ok, _MM_SHUFFLE(1, 1, 1, 1))));
#else
	in->hingeAxisMs = lbNormalize(lbIkTransformDirection(thigh, lbMakeVec3(axes[0][0], axes[0][1], axes[0][2])));
	in->bendHintMs = lbNormalize(lbIkTransformDirection(thigh, lbMakeVec3(axes[1][0], axes[1][1], axes[1][2])));
#endif
}

void lbFootPoseShared_Init(lbFootPoseShared* shared, const lbFootDef* def, const lbSkeleton* skeleton,
						   const lbHumanoid* humanoid)
{
	shared->consts = lbFootPoseConstsOf(def, humanoid);
	// The pelvis's subtree lists its bones in order (parents first, lbFootSubtree): it is the run
	// after the pelvis exactly when the last of them is that many bones on.
	if (humanoid->pelvis >= 0)
	{
		int below[LB_MAX_BONES];
		const int m = lbFootSubtree(skeleton, humanoid->pelvis, below);
		if (m == 0 || below[m - 1] == humanoid->pelvis + m)
			shared->consts.pelvisEnd = humanoid->pelvis + m + 1;
	}
	shared->defaults = lbDefaultTwoBoneIkInput();
	for (int s = 0; s < 2; ++s)
	{
		// The thigh's subtree but the two joints lbFootWriteLeg sets from the solve.
		const lbLegBones* b = &humanoid->leg[s];
		const lbVec3 axes[2] = { humanoid->legAxes[s].kneeBendThigh, humanoid->legAxes[s].kneePoleThigh };
		for (int a = 0; a < 2; ++a)
		{
			shared->kneeAxes[s][a][0] = axes[a].x;
			shared->kneeAxes[s][a][1] = axes[a].y;
			shared->kneeAxes[s][a][2] = axes[a].z;
			shared->kneeAxes[s][a][3] = 0.0f;
		}
		shared->chain[s] = b->calf >= 0 && b->foot >= 0 && skeleton->parents[b->calf] == b->thigh && skeleton->parents[b->foot] == b->calf;
		int all[LB_MAX_BONES];
		const int m = b->thigh >= 0 ? lbFootSubtree(skeleton, b->thigh, all) : 0;
		shared->subCount[s] = 0;
		for (int j = 0; j < m; ++j)
			if (all[j] != b->calf && all[j] != b->foot)
				shared->sub[s][shared->subCount[s]++] = all[j];
	}
}

lbResult lbFootApplyPoseBatch(const lbFootTargets* targets, const lbFootDef* def, const lbFootPoseShared* shared,
							  const lbSkeleton* skeleton, const lbHumanoid* humanoid, lbPose* poses, int count,
							  lbResult* outResults)
{
	enum { maxLegs = 2 * LB_FOOT_POSE_BATCH };
	if (count > LB_FOOT_POSE_BATCH)
		return lbReport(lb_errorCapacity, "lbFootApplyPoseBatch: %d characters, at most %d", count, LB_FOOT_POSE_BATCH);
	lbFootPoseLegs legs[LB_FOOT_POSE_BATCH];
	bool live[LB_FOOT_POSE_BATCH];
	// The lanes' chains (model space): thigh, calf and foot, their inputs, whose leg (2 character +
	// side) and the input local rotations the ankle limit's passes go back to.
	lbTransform root[maxLegs], mid[maxLegs], end[maxLegs];
	lbTwoBoneIkInput in[maxLegs];
	int who[maxLegs];
	lbQuat keep[maxLegs][3];
	// The solve's defaults (each lane's input a copy) and what the def and the rig give, once for the crowd.
	const lbTwoBoneIkInput* defaults = &shared->defaults;
	const lbFootPoseConsts* consts = &shared->consts;
	int n = 0;
	for (int i = 0; i < count; ++i)
	{
		bool done = true;
		lbPose* pose = &poses[i];
		outResults[i] = lbFootPosePrepare(&targets[i], def, consts, skeleton, humanoid, lb_footSolverTwoBone, pose, NULL, 0, &legs[i],
										  &done);
		live[i] = outResults[i] == lb_ok && !done;
		for (int s = 0; live[i] && s < 2; ++s)
		{
			if (!legs[i].solve[s])
				continue;
			const lbLegBones* b = &humanoid->leg[s];
			// The lanes take full-weight legs of a direct chain (thigh, calf, foot); a leg fading in or
			// out, or a rig with bones between the joints, is solved on its own.
			if (legs[i].weight[s] < 1.0f || !shared->chain[s])
			{
				outResults[i] = lbFootPoseSolveOne(pose, skeleton, humanoid, &legs[i], s);
				live[i] = outResults[i] == lb_ok;
				continue;
			}
			const lbTransform* m = pose->model;
			lbTwoBoneIkInput* li = &in[n];
			*li = *defaults;
			li->targetMs = legs[i].targetMs[s];
			li->targetRotationMs = legs[i].rotationMs[s];
			li->useTargetRotation = true;
			// The knee's hinge and pole from the thigh as lbPose_SolveLimbIk derives them (before the
			// weight: the pole's store runs into it).
			lbFootKneeAxes(&m[b->thigh], shared->kneeAxes[s], li);
			li->weight = legs[i].weight[s];
			li->soften = legs[i].soften;
			root[n] = m[b->thigh], mid[n] = m[b->calf], end[n] = m[b->foot];
			keep[n][0] = pose->local[b->thigh].q, keep[n][1] = pose->local[b->calf].q, keep[n][2] = pose->local[b->foot].q;
			who[n++] = 2 * i + s;
		}
	}
	// Every input was checked above (finite goals near the character, a finite pose with no
	// zero-length leg bone), so the batch has nothing to refuse; if it does, the legs are solved on
	// their own after all, which names the error for the character it belongs to.
	const bool batched = n == 0 || lbSolveTwoBoneIkBatch(root, mid, end, in, NULL, n) == lb_ok;
	for (int k = 0; k < n; ++k)
	{
		const int i = who[k] / 2, s = who[k] % 2;
		if (!live[i])
			continue;
		lbPose* pose = &poses[i];
		const lbLegBones* b = &humanoid->leg[s];
		if (!batched)
		{
			outResults[i] = lbFootPoseSolveOne(pose, skeleton, humanoid, &legs[i], s);
			live[i] = outResults[i] == lb_ok;
			continue;
		}
		lbFootWriteLeg(pose, skeleton, b, &root[k], &mid[k], &end[k], shared->sub[s], shared->subCount[s]);
		// The ankle limit as after a single solve (lbFootSolveLeg), from the batch's result.
		const lbFootPoseLegs* lg = &legs[i];
		if (lg->cosHalf < 0.0f ||
			lbAbsF(lbQuatDot(skeleton->restLocal[b->foot].q, pose->local[b->foot].q)) >=
				(lg->minReach[s] > 0.0f ? consts->freeAnkleGate : lg->cosHalf))
			continue;
		lbTwoBoneIkInput leg = lbDefaultTwoBoneIkInput();
		leg.targetMs = lg->targetMs[s];
		leg.targetRotationMs = lg->rotationMs[s];
		leg.useTargetRotation = true;
		leg.weight = lg->weight[s];
		leg.soften = lg->soften;
		lbVec3 plane[2];
		if (lg->hasPlane[s])
			lbFootPlaneMs(lg->targets, s, lg->upMs, plane);
		outResults[i] = lbFootLiftHeel(pose, skeleton, humanoid, s, &leg, lg->limit, lg->cosHalf, keep[k], lg->minReach[s],
									   lg->hasPlane[s] ? plane : NULL, lg->toesKept[s], lg->offLedge[s],
									   lbFootMetreMs(&lg->targets->characterWs, lg->upMs));
		live[i] = outResults[i] == lb_ok;
	}
	for (int i = 0; i < count; ++i)
		if (live[i])
		{
			lbFootBendAllToes(&targets[i], skeleton, humanoid, &poses[i], lbClampF(targets[i].alpha, 0.0f, 1.0f));
			if (targets[i].feet[0].hasFloor || targets[i].feet[1].hasFloor)
				outResults[i] = lbFootKeepAbove(&targets[i], def, consts, skeleton, humanoid, &poses[i]);
		}
	return lb_ok;
}
