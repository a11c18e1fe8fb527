// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Shared by the prone system's def, sense and pose files.
#pragma once

#include "limber/prone.h"

#include <math.h>
#include <string.h>

#include "ik/ik_internal.h"

/// Checks a def's values (finite, in range); reports and returns the error, or lb_ok.
lbResult lbProneCheckDef(const lbProneDef* def, const char* caller);


/// The bones the system reads and writes: root, pelvis, neck, the spine, and each arm's and leg's
/// three bones (LB_NULL_INDEX where the map has none). Returns how many were written.
int lbProneRigBones(const lbHumanoid* humanoid, int out[LB_PRONE_RIG_BONES]);

/// lbProneRigBones' list, as lbProneCheckRig hands it on to the pose checks.
typedef struct lbProneRig
{
	int bones[LB_PRONE_RIG_BONES];
	int count;
} lbProneRig;

/// Works out `plan`'s rig constants (all but the soles, which it marks not made) for a rig that
/// passed lbProneCheckRig (`rig` its list).
void lbProneRigPlan_Make(lbProneRigPlan* plan, const lbSkeleton* skeleton, const lbHumanoid* humanoid, const lbProneRig* rig);

/// Whether `plan` was made for this rig: the skeleton's bone count and fingerprint and the map's
/// bones (`rig`, from lbProneCheckRig) the same.
static inline bool lbProneRigPlan_Matches(const lbProneRigPlan* plan, const lbSkeleton* skeleton, const lbProneRig* rig)
{
	return plan->boneCount == skeleton->boneCount && plan->boneCount > 0 && plan->fingerprint == skeleton->fingerprint &&
		   plan->rigBoneCount == rig->count &&
		   memcmp(plan->rigBones, rig->bones, sizeof(int) * (size_t)rig->count) == 0;
}

/// Whether a leg's measures are those a sole was made from (`from`: toe, foot up, ankle height,
/// foot length, then thigh and calf lengths), bit for bit.
static inline bool lbProneSameLeg(const lbLegAxes* ax, const float from[10])
{
#if LB_IK_SSE2
	const float* toe = &ax->toe.x;
	const __m128i eq = _mm_and_si128(
		_mm_and_si128(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i*)toe), _mm_loadu_si128((const __m128i*)from)),
					  _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i*)(toe + 4)), _mm_loadu_si128((const __m128i*)(from + 4)))),
		_mm_cmpeq_epi32(_mm_loadl_epi64((const __m128i*)&ax->thighLength), _mm_loadl_epi64((const __m128i*)(from + 8))));
	return _mm_movemask_epi8(eq) == 0xFFFF;
#else
	return memcmp(&ax->toe, from, 8 * sizeof(float)) == 0 && memcmp(&ax->thighLength, from + 8, 2 * sizeof(float)) == 0;
#endif
}

/// Whether a pose is finite where the pose stage reads and writes it: the model and local transforms
/// of the rig's bones (from lbProneCheckRig), and the model transforms of the parents of the bones
/// whose locals it writes (roll bone, first spine bone, thighs, upper arms).
bool lbPronePoseFinite(const lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, const lbProneRig* rig);

/// Whether a pose's model transforms are finite where the sense stage reads them (the rig's bones,
/// from lbProneCheckRig). The whole pose's check cost a twentieth of a character's frame.
bool lbProneModelFinite(const lbPose* pose, const lbProneRig* rig);

/// The rig check of both stages, every frame: a map made for this skeleton (bone count and
/// fingerprint), its counts in range, and the bones the system reads and writes (root, pelvis, neck,
/// spine, and each arm's and leg's three bones) inside it. A map that passes is used only through
/// those; one that does not gets the full lbHumanoid_Check, which says what is wrong (walking every
/// role, it cost a twentieth of a character's frame). Returns lb_ok or that check's error; on lb_ok
/// `out` holds lbProneRigBones' list for the pose checks.
lbResult lbProneCheckRig(const lbHumanoid* humanoid, const lbSkeleton* skeleton, lbProneRig* out);

/// Bone the roll goes to: the rig's root when it is a bone of its own, else the pelvis.
int lbProneRollBone(const lbHumanoid* humanoid);

/// Top of the torso line: the neck, or the last spine bone without one.
int lbProneTopBone(const lbHumanoid* humanoid);

/// Where along the torso (0 pelvis, 1 top of the torso line) its two parts meet: the spine joint
/// nearest it in the rest pose, above the first spine bone, is the bend (lbProneBendBone; the
/// metrics' lbMetricsTorsoParts takes the same joint).
#define LB_PRONE_BEND_AT 0.6f

/// The spine bone whose joint the torso's two parts meet at (LB_PRONE_BEND_AT, from the rest pose:
/// the same bone every frame), or LB_NULL_INDEX with fewer than two spine bones below the top.
int lbProneBendBone(const lbHumanoid* humanoid, const lbSkeleton* skeleton);

/// The body's frame in a pose (model space): `along` runs from the pelvis toward the head in the
/// ground plane (normal to `upMs`), `left` = up x along, and, unless outSinElevation is NULL, the sine
/// of the torso's elevation above the ground plane (0 lying flat, 1 upright or with no length; the
/// caller takes the arc sine only when it needs the angle).
void lbProneBodyFrame(const lbHumanoid* humanoid, const lbPose* pose, lbVec3 upMs, lbVec3* outAlong, lbVec3* outLeft,
					  float* outSinElevation);

/// The torso's probes, and where each lies along the pelvis-to-neck axis (0 pelvis, 1 neck).
#define LB_PRONE_TORSO_PROBES 5
// Where along a limb segment (from its first joint) its own probe lies (lb_proneThighL...).
#define LB_PRONE_SEGMENT_AT 0.5f
static const lbProneProbe lbProneTorsoProbe[LB_PRONE_TORSO_PROBES] = { lb_pronePelvis, lb_proneTorsoLow, lb_proneSpine,
																	   lb_proneTorsoHigh, lb_proneChest };
static const float lbProneTorsoAt[LB_PRONE_TORSO_PROBES] = { 0.0f, 0.25f, 0.5f, 0.75f, 1.0f };

/// What lbProneProbePoint works out from the humanoid and the def on every call, once for a frame's
/// probes: the torso's radius (m), the top of the torso line, each foot's sole (model space, made
/// when a toe probe first needs it).
typedef struct lbProneProbeSetup
{
	float torso;
	int top;
	lbSole sole[2];
	bool soleMade[2];
	// When not NULL, both feet's soles made already (the sense stage keeps them in its state).
	const lbSole* soles;
	// lbProneProbeSetup_Table's: each plain probe's bone and radius (m), LB_PRONE_PROBE_TORSO for the
	// torso axis's points (with the torso's radius and, in `at`, the point's place from the pelvis to
	// the top, 0..1), -2 for the others.
	int bone[lb_proneProbeCount];
	float radius[lb_proneProbeCount];
	float at[lb_proneProbeCount];
} lbProneProbeSetup;

#define LB_PRONE_PROBE_TORSO (-3)

void lbProneProbeSetup_Init(lbProneProbeSetup* setup, const lbHumanoid* humanoid, const lbProneDef* def);

/// lbProneProbePoint with its setup made once (the same point and radius); probe in range.
bool lbProneProbeAt(lbProneProbeSetup* setup, const lbHumanoid* humanoid, const lbPose* pose, lbProneProbe probe,
					lbVec3* outPointMs, float* outRadius);

/// Fills the setup's table for lbProneProbeListed: each probe at a joint (pelvis, chest, knees,
/// ankles, elbows, wrists) with its bone and radius, for a frame that asks for every probe.
void lbProneProbeSetup_Table(lbProneProbeSetup* setup, const lbHumanoid* humanoid);

/// lbProneProbeAt (the same point and radius) through the setup's table (lbProneProbeSetup_Table).
static inline bool lbProneProbeListed(lbProneProbeSetup* setup, const lbHumanoid* humanoid, const lbPose* pose, int probe,
									  lbVec3* outPointMs, float* outRadius)
{
	const int bone = setup->bone[probe];
	if (bone >= 0 && bone < pose->boneCount)
	{
		*outPointMs = pose->model[bone].p;
		*outRadius = setup->radius[probe];
		return true;
	}
	if (bone == LB_PRONE_PROBE_TORSO)
	{
		// lbProneProbeAt's point on the torso's axis (the same lerp), without the call: three probes
		// a frame.
		const int pelvis = humanoid->pelvis, top = setup->top;
		if (pelvis < 0 || top < 0 || pelvis >= pose->boneCount || top >= pose->boneCount)
			return false;
		*outPointMs = lbLerp(pose->model[pelvis].p, pose->model[top].p, setup->at[probe]);
		*outRadius = setup->radius[probe];
		return true;
	}
	return lbProneProbeAt(setup, humanoid, pose, (lbProneProbe)probe, outPointMs, outRadius);
}

/// End joint and mid joint of limb k (0, 1 arms; 2, 3 legs), and its root bone (inline: both stages
/// ask for each limb's several times a frame).
static inline void lbProneLimbBones(const lbHumanoid* h, int limb, int* outRoot, int* outMid, int* outEnd)
{
	int side = limb & 1;
	if (limb < 2)
	{
		*outRoot = h->arm[side].upperArm;
		*outMid = h->arm[side].foreArm;
		*outEnd = h->arm[side].hand;
	}
	else
	{
		*outRoot = h->leg[side].thigh;
		*outMid = h->leg[side].calf;
		*outEnd = h->leg[side].foot;
	}
}

// A running sum over transforms' floats: a NaN or an infinity anywhere leaves it non-finite (times
// 0 it is NaN then, 0 otherwise; a sum of finite values that overflows is no pose either). With SSE2
// a transform's ten floats go in as three overlapping lanes of four (p.x..q.x, q.y..s.x, q.w..s.z).
#if LB_IK_SSE2
typedef __m128 lbProneFiniteSum;
static inline lbProneFiniteSum lbProneFiniteStart(void)
{
	return _mm_setzero_ps();
}
static inline lbProneFiniteSum lbProneFiniteAdd(lbProneFiniteSum acc, const lbTransform* t)
{
	const float* f = &t->p.x;
	return _mm_add_ps(acc, _mm_add_ps(_mm_add_ps(_mm_loadu_ps(f), _mm_loadu_ps(f + 4)), _mm_loadu_ps(f + 6)));
}
// Adds n (4 to 8) consecutive floats from f: two overlapping lanes of four.
static inline lbProneFiniteSum lbProneFiniteAddRun(lbProneFiniteSum acc, const float* f, int n)
{
	return _mm_add_ps(acc, _mm_add_ps(_mm_loadu_ps(f), _mm_loadu_ps(f + n - 4)));
}
static inline bool lbProneFiniteEnd(lbProneFiniteSum acc)
{
	const __m128 z = _mm_mul_ps(acc, _mm_setzero_ps());
	return _mm_movemask_ps(_mm_cmpeq_ps(z, z)) == 0xF;
}
#else
typedef float lbProneFiniteSum;
static inline lbProneFiniteSum lbProneFiniteStart(void)
{
	return 0.0f;
}
static inline lbProneFiniteSum lbProneFiniteAdd(lbProneFiniteSum acc, const lbTransform* t)
{
	return acc + (t->p.x + t->p.y + t->p.z + t->q.x + t->q.y + t->q.z + t->q.w + t->s.x + t->s.y + t->s.z);
}
static inline lbProneFiniteSum lbProneFiniteAddRun(lbProneFiniteSum acc, const float* f, int n)
{
	for (int i = 0; i < n; ++i)
		acc += f[i];
	return acc;
}
static inline bool lbProneFiniteEnd(lbProneFiniteSum acc)
{
	return lbIsValidFloat(acc * 0.0f);
}
#endif

/// atan2(y, x) (rad, in [-pi, pi], IEEE's signed zeros), within about 3 ulp and 3e-7 rad (libm's
/// within 1.5 ulp): the ratio of the smaller to the larger magnitude, above tan(pi/8) taken to
/// (t - 1) / (t + 1) about pi/4, then an odd polynomial fitted for the least largest relative error
/// on [0, tan(pi/8)]. libm's cost about 140 instructions a call (its error handling, the atanf it
/// calls), a fifth of a character-frame's six arc tangents.
static inline float lbProneAtan2(float y, float x)
{
	const float ax = lbAbsF(x), ay = lbAbsF(y);
	const bool swap = ay > ax;
	const float num = swap ? ax : ay, den = swap ? ay : ax;
	float t = den > 0.0f ? num / den : 0.0f;
	float base = 0.0f;
	if (t > 0.41421356f)
	{
		t = (t - 1.0f) / (t + 1.0f);
		base = 0.78539816f;
	}
	const float z = t * t;
	float r = base + (t + t * z * (((8.053722943e-2f * z - 1.387767882e-1f) * z + 1.997771004e-1f) * z - 3.333294914e-1f));
	if (swap)
		r = 1.57079633f - r;
	if (signbit(x))
		r = 3.14159265f - r;
	return signbit(y) ? -r : r;
}

/// sin(x) and cos(x) of an angle x (rad) into *outSin and *outCos. Within pi/4 of zero (every
/// half angle a turn takes in lbProneQuatFromUnitAxisAngle, the torso line's angle), each is its
/// Taylor series to the x^9 and x^10 terms, whose first term left out stays under 2e-9 there: a
/// few ulp from libm's (rounding of the sums) without its argument reduction, about 100
/// instructions a character-frame less on the crawling bench. Beyond pi/4 libm's.
static inline void lbProneSinCos(float x, float* outSin, float* outCos)
{
	if (!(lbAbsF(x) <= 0.78539816f))
	{
		*outSin = sinf(x);
		*outCos = cosf(x);
		return;
	}
	// Below 1e-10 the series gives x and 1 to the bit, and its square goes denormal below 1e-19:
	// crawling on the flat, turns of a rounding residue (1e-20 rad) took two denormal operations a
	// frame, every frame.
	if (lbAbsF(x) < 1.0e-10f)
	{
		*outSin = x;
		*outCos = 1.0f;
		return;
	}
	const float z = x * x;
	// 1/3!, 1/5!, ... and 1/2!, 1/4!, ... with alternating signs, Horner's scheme from the smallest.
	*outSin = x + x * z * (-1.66666667e-1f + z * (8.33333333e-3f + z * (-1.98412698e-4f + z * 2.75573192e-6f)));
	*outCos = 1.0f + z * (-0.5f + z * (4.16666667e-2f + z * (-1.38888889e-3f + z * (2.48015873e-5f + z * -2.75573192e-7f))));
}

/// lbQuatFromAxisAngle for an axis already of unit length (made by lbNormalize, or turned from one)
/// and a finite angle (rad): its normalization and checks left out (about 20 instructions a call, a
/// few calls a frame); the quaternion's length is one within a few ulp, and every rotation made from
/// it is normalized where it becomes a bone's.
static inline lbQuat lbProneQuatFromUnitAxisAngle(lbVec3 axis, float angle)
{
	float s, c;
	lbProneSinCos(0.5f * angle, &s, &c);
	return LB_LITERAL(lbQuat){ axis.x * s, axis.y * s, axis.z * s, c };
}

#include <stddef.h>

_Static_assert(sizeof(lbProneGround) == 8 * sizeof(float) && offsetof(lbProneGround, radius) == 6 * sizeof(float) &&
				   offsetof(lbProneGround, hit) == 7 * sizeof(float),
			   "a ground is its point, normal and radius, then its hit flag in the eighth float's first byte");

#if LB_IK_SSE2
// Four grounds (of probes p[0..3]) in lanes: point, normal and hit (all bits set when hit).
static inline void lbProneGround4(const lbProneGround* grounds, const int* p, __m128* px, __m128* py, __m128* pz, __m128* nx,
								  __m128* ny, __m128* nz, __m128* hit)
{
	__m128 a0 = _mm_loadu_ps(&grounds[p[0]].pointWs.x), a1 = _mm_loadu_ps(&grounds[p[1]].pointWs.x),
		   a2 = _mm_loadu_ps(&grounds[p[2]].pointWs.x), a3 = _mm_loadu_ps(&grounds[p[3]].pointWs.x);
	__m128 b0 = _mm_loadu_ps(&grounds[p[0]].normalWs.y), b1 = _mm_loadu_ps(&grounds[p[1]].normalWs.y),
		   b2 = _mm_loadu_ps(&grounds[p[2]].normalWs.y), b3 = _mm_loadu_ps(&grounds[p[3]].normalWs.y);
	_MM_TRANSPOSE4_PS(a0, a1, a2, a3);
	_MM_TRANSPOSE4_PS(b0, b1, b2, b3);
	*px = a0, *py = a1, *pz = a2, *nx = a3, *ny = b0, *nz = b1;
	// The flag's byte only (the other three are padding).
	const __m128i flag = _mm_and_si128(_mm_castps_si128(b3), _mm_set1_epi32(0xFF));
	*hit = _mm_castsi128_ps(_mm_xor_si128(_mm_cmpeq_epi32(flag, _mm_setzero_si128()), _mm_set1_epi32(-1)));
}

#endif

#if LB_IK_SSE2
// Lanes 0..3: u x v, one pair of vectors a lane, lbCross's products and differences.
static inline void lbProneCross4(__m128 ux, __m128 uy, __m128 uz, __m128 vx, __m128 vy, __m128 vz, __m128* cx, __m128* cy,
								 __m128* cz)
{
	*cx = _mm_sub_ps(_mm_mul_ps(uy, vz), _mm_mul_ps(uz, vy));
	*cy = _mm_sub_ps(_mm_mul_ps(uz, vx), _mm_mul_ps(ux, vz));
	*cz = _mm_sub_ps(_mm_mul_ps(ux, vy), _mm_mul_ps(uy, vx));
}

// v rotated by the quaternion (ux, uy, uz, w) in place, one of each a lane: lbQuatRotate's steps
// (t = 2 (u x v), v + w t + u x t), lbIkQuatRotate4's bits.
static inline void lbProneRotate4(__m128 ux, __m128 uy, __m128 uz, __m128 w, __m128* vx, __m128* vy, __m128* vz)
{
	__m128 tx, ty, tz, cx, cy, cz;
	lbProneCross4(ux, uy, uz, *vx, *vy, *vz, &tx, &ty, &tz);
	const __m128 two = _mm_set1_ps(2.0f);
	tx = _mm_mul_ps(two, tx), ty = _mm_mul_ps(two, ty), tz = _mm_mul_ps(two, tz);
	lbProneCross4(ux, uy, uz, tx, ty, tz, &cx, &cy, &cz);
	*vx = _mm_add_ps(_mm_add_ps(*vx, _mm_mul_ps(w, tx)), cx);
	*vy = _mm_add_ps(_mm_add_ps(*vy, _mm_mul_ps(w, ty)), cy);
	*vz = _mm_add_ps(_mm_add_ps(*vz, _mm_mul_ps(w, tz)), cz);
}
#endif

/// World to model space for a frame's many points and directions: lbInvTransformPoint's and
/// lbQuatInvRotate's bits, the reciprocal scale (three divisions) and the conjugate made once.
typedef struct lbProneToModel
{
	lbTransform cw;
	lbVec3 invScale;
#if LB_IK_SSE2
	__m128 conj, p, inv;
#endif
} lbProneToModel;

static inline void lbProneToModel_Init(lbProneToModel* m, const lbTransform* cw)
{
	m->cw = *cw;
	m->invScale = lbSafeRecip3(cw->s);
#if LB_IK_SSE2
	// The conjugate's x, y and z are negated exactly, so rotating by it is lbQuatInvRotate.
	m->conj = _mm_xor_ps(_mm_loadu_ps(&cw->q.x), _mm_setr_ps(-0.0f, -0.0f, -0.0f, 0.0f));
	m->p = _mm_setr_ps(cw->p.x, cw->p.y, cw->p.z, 0.0f);
	m->inv = _mm_setr_ps(m->invScale.x, m->invScale.y, m->invScale.z, 0.0f);
#endif
}

/// lbInvTransformPoint(cw, p).
static inline lbVec3 lbProneToModelPoint(const lbProneToModel* m, lbVec3 p)
{
#if LB_IK_SSE2
	float r[4];
	_mm_storeu_ps(r, _mm_mul_ps(m->inv, lbIkQuatRotate4(m->conj, _mm_sub_ps(_mm_setr_ps(p.x, p.y, p.z, 0.0f), m->p))));
	return LB_LITERAL(lbVec3){ r[0], r[1], r[2] };
#else
	return lbMulVV(m->invScale, lbQuatInvRotate(m->cw.q, lbSub(p, m->cw.p)));
#endif
}

#if LB_IK_SSE2
// Lanes 0..2 of r made unit (the length's sum in lbDot's order), or fallback when too short.
static inline lbVec3 lbProneUnitLanes(__m128 r, lbVec3 fallback)
{
	const __m128 sq = _mm_mul_ps(r, r);
	const __m128 dot = _mm_add_ss(_mm_add_ss(sq, _mm_shuffle_ps(sq, sq, _MM_SHUFFLE(1, 1, 1, 1))),
								  _mm_shuffle_ps(sq, sq, _MM_SHUFFLE(2, 2, 2, 2)));
	const float len = _mm_cvtss_f32(_mm_sqrt_ss(dot));
	if (!(len > LB_EPSILON) || !lbIsValidFloat(len))
		return fallback;
	float out[4];
	_mm_storeu_ps(out, _mm_mul_ps(_mm_set1_ps(1.0f / len), r));
	return LB_LITERAL(lbVec3){ out[0], out[1], out[2] };
}
#endif

/// lbNormalizeOr(lbQuatInvRotate(cw.q, v), fallback): the length's sum in lbDot's order.
static inline lbVec3 lbProneToModelUnit(const lbProneToModel* m, lbVec3 v, lbVec3 fallback)
{
#if LB_IK_SSE2
	return lbProneUnitLanes(lbIkQuatRotate4(m->conj, _mm_setr_ps(v.x, v.y, v.z, 0.0f)), fallback);
#else
	return lbNormalizeOr(lbQuatInvRotate(m->cw.q, v), fallback);
#endif
}

#if LB_IK_SSE2
// lbProneToModelPoint and lbProneToModelUnit of a point or direction in memory with a float after
// it (read into lane 3, which lanes 0..2 never mix with).
static inline lbVec3 lbProneToModelPointIn(const lbProneToModel* m, const float* p)
{
	float r[4];
	_mm_storeu_ps(r, _mm_mul_ps(m->inv, lbIkQuatRotate4(m->conj, _mm_sub_ps(_mm_loadu_ps(p), m->p))));
	return LB_LITERAL(lbVec3){ r[0], r[1], r[2] };
}
static inline lbVec3 lbProneToModelUnitIn(const lbProneToModel* m, const float* v, lbVec3 fallback)
{
	return lbProneUnitLanes(lbIkQuatRotate4(m->conj, _mm_loadu_ps(v)), fallback);
}
// lbQuatInvRotate(cw.q, v) of a direction in memory with a float after it.
static inline lbVec3 lbProneToModelDirectionIn(const lbProneToModel* m, const float* v)
{
	float r[4];
	_mm_storeu_ps(r, lbIkQuatRotate4(m->conj, _mm_loadu_ps(v)));
	return LB_LITERAL(lbVec3){ r[0], r[1], r[2] };
}
#else
static inline lbVec3 lbProneToModelPointIn(const lbProneToModel* m, const float* p)
{
	return lbProneToModelPoint(m, LB_LITERAL(lbVec3){ p[0], p[1], p[2] });
}
static inline lbVec3 lbProneToModelDirectionIn(const lbProneToModel* m, const float* v)
{
	return lbQuatInvRotate(m->cw.q, LB_LITERAL(lbVec3){ v[0], v[1], v[2] });
}
static inline lbVec3 lbProneToModelUnitIn(const lbProneToModel* m, const float* v, lbVec3 fallback)
{
	return lbProneToModelUnit(m, LB_LITERAL(lbVec3){ v[0], v[1], v[2] }, fallback);
}
#endif

/// lbQuatInvRotate(cw.q, v).
static inline lbVec3 lbProneToModelDirection(const lbProneToModel* m, lbVec3 v)
{
#if LB_IK_SSE2
	float r[4];
	_mm_storeu_ps(r, lbIkQuatRotate4(m->conj, _mm_setr_ps(v.x, v.y, v.z, 0.0f)));
	return LB_LITERAL(lbVec3){ r[0], r[1], r[2] };
#else
	return lbQuatInvRotate(m->cw.q, v);
#endif
}
