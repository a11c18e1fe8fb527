// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Climbing, sense stage (world space, owns the state): steering a guide point along the surface,
// the continuous reach clamp, surface search casts, animated targets, alphas, body clearance and
// the climbing frame. The steps are named functions below, in the order lbClimbSense calls them.
#include "limber/climb.h"
#include "core/frame_internal.h"
#include "core/simd.h"

#include <math.h>
#include <string.h>

// Longest step the limb updates take at once: a long frame is split so the constant-speed follow
// and the locking transition behave the same at any frame rate.
#define LB_CLIMB_MAX_STEP (1.0f / 30.0f)
// How far beside the pelvis the side probes look for a wall (m): past where a knee swung out to
// the side reaches.
#define LB_CLIMB_SIDE_REACH 0.8f
// How far a released limb's target first moves off the surface it held (m), and how near the
// animated limb end it travels before its IK fades out (m).
#define LB_CLIMB_RELEASE_LIFT 0.1f
#define LB_CLIMB_RELEASE_NEAR 0.05f
// The torso a released hand goes round (lbClimbRoundTorso): its radius over the body's height (the
// metrics' torso capsule, docs/metrics.md), and how far clear of it and the forearm's capsule the
// hand passes (m). Passing just clear, the elbow had less room to come round: the ledge climb
// (mannequin) read 0.121 m (0.094 now), five overhang climbs 0.122-0.128 (0.097-0.116).
#define LB_CLIMB_TORSO_CLEAR 0.055f
#define LB_CLIMB_TORSO_MARGIN 0.02f
// Height above the surface of the ray that looks for a wall across a steering move (m).
#define LB_CLIMB_CORNER_LIFT 0.12f
// How far past a steered guide's next step the look for an inside corner's other wall reaches (m).
// At 0.05 m the guide met the wall with the hand still facing the old one, its fingers at the
// corner: as the target went onto the new wall's preview the wrist came within 1.3 cm of that wall
// (forearm 2.06 cm into it, corners 0.31-0.32 m away, the mannequin).
#define LB_CLIMB_CORNER_AHEAD 0.10f
// A hand over an edge: how far out of the wall face and above the top the arm passes the lip (m;
// the forearm's and upper arm's capsules are 3.4 and 4.4 cm thick on an adult), and how far under
// the top's level the ray that finds the lip runs (m).
#define LB_CLIMB_WRAP_CLEAR 0.05f
#define LB_CLIMB_WRAP_BELOW 0.02f
// How far off the held walls' plane the frame keeps the toe tip of a foot still in the animation
// (m): the tip itself, the foot's flesh lying above and behind it. Kept 1.5-3 cm off, the frame
// stayed back long enough on the planned slab climb that it came in later and faster, and a held
// foot's knee swung more (39 -> 53-69 frames over 10 degrees on mixamo).
#define LB_CLIMB_FREE_FOOT_CLEAR 0.0f

// What one frame reads from the poses, in world space.
typedef struct lbClimbFrame
{
	const lbClimbDef* def;
	const lbHumanoid* humanoid;
	const lbSceneQuery* query;
	lbVec3 up;
	// Reach centre (shoulder or hip) and limb end (wrist or toe tip) per limb, from the last pose.
	lbVec3 centreWs[4], endWs[4];
	// The limbs' roots in the animation (world): what a searching limb's body alpha is measured
	// from. Measured from the last pose, the body that alpha moves moves the root it is measured
	// from, and the two chase each other (the body a few centimetres back and forth a frame).
	lbVec3 animCentreWs[4];
	// The animated limb end and its bone rotation (world), followed by free limbs.
	lbVec3 animEndWs[4];
	lbQuat animRotWs[4];
	float reach[4];
	int casts;
	float dt;
} lbClimbFrame;

static bool lbClimbHeld(lbClimbLimbMode m)
{
	return m == lb_climbLocking || m == lb_climbLocked;
}

// A limb's end point in model space: the wrist joint for a hand, the toe tip for a foot.
static lbVec3 lbClimbLimbEndMs(const lbHumanoid* h, const lbPose* pose, int limb)
{
	if (limb < 2)
		return pose->model[h->arm[limb].hand].p;
	// A foot with a ball bone: its toe tip as lbHumanoid_GetSolePointsMs gives it, without the
	// rest of the sole.
	const lbLegBones* leg = &h->leg[limb - 2];
	if (leg->foot >= 0 && leg->foot < pose->boneCount && leg->ball >= 0 && leg->ball < pose->boneCount)
	{
		const lbTransform ball = pose->model[leg->ball];
		return lbAdd(ball.p, lbQuatRotate(ball.q, h->legAxes[limb - 2].toeTipBall));
	}
	lbVec3 sole[lb_solePointCount];
	lbHumanoid_GetSolePointsMs(h, pose, limb - 2, sole);
	return sole[lb_soleToeTip];
}

static void lbClimbChainBones(const lbHumanoid* h, int limb, int* root, int* mid, int* end)
{
	if (limb < 2)
	{
		*root = h->arm[limb].upperArm;
		*mid = h->arm[limb].foreArm;
		*end = h->arm[limb].hand;
	}
	else
	{
		*root = h->leg[limb - 2].thigh;
		*mid = h->leg[limb - 2].calf;
		*end = h->leg[limb - 2].foot;
	}
}

// Surface-up and surface-right for steering on a surface of normal n (world, unit, outward).
// Up is world up projected on the surface; on a surface facing up or down (a ledge top, a
// ceiling) that vanishes, and the character's forward projected on it takes its place. Right is
// up x n: with n facing the climber it points to the climber's right.
static void lbClimbSurfaceAxes(lbVec3 n, lbVec3 up, lbVec3 forward, lbVec3* outUp, lbVec3* outRight)
{
	lbVec3 su = lbProjectOnPlane(up, n);
	if (lbLength(su) < 0.2f)
	{
		lbVec3 f = lbNormalizeOr(lbProjectOnPlane(forward, n), lbAnyPerpendicular(n));
		su = lbNormalizeOr(lbAdd(su, lbMulSV(0.2f, f)), f);
	}
	else
		su = lbNormalize(su);
	*outUp = su;
	*outRight = lbNormalizeOr(lbCross(su, n), lbAnyPerpendicular(n));
}

// Reads the reach centres and limb ends from the last pose (where the body really is) and the
// animated ends from the base pose, and measures each limb's effective reach.
// True when every bone the sense stage reads from a pose is finite.
static bool lbClimbPoseFinite(const lbHumanoid* h, const lbPose* pose)
{
	int bones[2 + 4 * 4];
	int n = 0;
	bones[n++] = h->pelvis;
	bones[n++] = h->spineCount > 0 ? h->spine[h->spineCount - 1] : h->pelvis;
	for (int i = 0; i < 4; ++i)
	{
		lbClimbChainBones(h, i, &bones[n], &bones[n + 1], &bones[n + 2]);
		n += 3;
		// A foot's ball bone too (its toe tip is read from it).
		if (i >= 2 && h->leg[i - 2].ball >= 0)
			bones[n++] = h->leg[i - 2].ball;
	}
	for (int k = 0; k < n; ++k)
		if (bones[k] < 0 || bones[k] >= pose->boneCount)
			return false;
	// lbIsValidTransform of each without a branch per value: x - x is 0 for a finite x and NaN
	// otherwise, and a sum holding a NaN stays NaN, so the sum over every value read is 0 exactly
	// when all are finite; the unit rotation and the scale are compared as lbIsValidTransform does.
	// (The test one value at a time was a fifth of the stage.)
	_Static_assert(sizeof(lbTransform) == 10 * sizeof(float), "lbTransform is ten floats");
	bool ok = true;
	float z = 0.0f;
	int k = 0;
#if defined(LB_SIMD_SSE)
	// Four transforms a round: the finite sum over three overlapping loads covering all ten values,
	// the rotations' squared norms on lanes after a transpose (each lane the scalar sum's order, so
	// the same comparisons), the scales' magnitudes (lanes 1-3 of the last load) against
	// LB_EPSILON.
	const __m128 zero = _mm_setzero_ps(), absMask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
	const __m128 eps = _mm_set1_ps(LB_EPSILON), lo = _mm_set1_ps(0.98f), hi = _mm_set1_ps(1.02f);
	const __m128 notScale = _mm_castsi128_ps(_mm_set_epi32(0, 0, 0, -1));
	__m128 lanes = zero, good = _mm_castsi128_ps(_mm_set1_epi32(-1));
	for (; k + 4 <= n; k += 4)
	{
		__m128 q[4];
		for (int j = 0; j < 4; ++j)
		{
			const float* f = &pose->model[bones[k + j]].p.x;
			const __m128 a = _mm_loadu_ps(f), b = _mm_loadu_ps(f + 4), c = _mm_loadu_ps(f + 6);
			lanes = _mm_add_ps(lanes, _mm_add_ps(_mm_add_ps(_mm_sub_ps(a, a), _mm_sub_ps(b, b)), _mm_sub_ps(c, c)));
			good = _mm_and_ps(good, _mm_or_ps(notScale, _mm_cmpgt_ps(_mm_and_ps(c, absMask), eps)));
			q[j] = _mm_loadu_ps(f + 3);
		}
		_MM_TRANSPOSE4_PS(q[0], q[1], q[2], q[3]);
		const __m128 qn = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(q[0], q[0]), _mm_mul_ps(q[1], q[1])), _mm_mul_ps(q[2], q[2])),
									 _mm_mul_ps(q[3], q[3]));
		good = _mm_and_ps(good, _mm_and_ps(_mm_cmpgt_ps(qn, lo), _mm_cmplt_ps(qn, hi)));
	}
	ok &= _mm_movemask_ps(_mm_and_ps(good, _mm_cmpeq_ps(lanes, zero))) == 0xf;
#endif
	for (; k < n; ++k)
	{
		const lbTransform* t = &pose->model[bones[k]];
		const float* f = &t->p.x;
		for (int j = 0; j < 10; ++j)
			z += f[j] - f[j];
		const float qn = t->q.x * t->q.x + t->q.y * t->q.y + t->q.z * t->q.z + t->q.w * t->q.w;
		ok &= (qn > 0.98f) & (qn < 1.02f) & (lbAbsF(t->s.x) > LB_EPSILON) & (lbAbsF(t->s.y) > LB_EPSILON) &
			  (lbAbsF(t->s.z) > LB_EPSILON);
	}
	return ok && z == 0.0f;
}

static void lbClimbReadPoses(lbClimbFrame* f, const lbClimbState* state, const lbClimbSenseInput* in)
{
	const lbHumanoid* h = f->humanoid;
	const lbPose* last = in->lastPose ? in->lastPose : in->animPose;
	lbTransform frame = state->frameWs;
	for (int i = 0; i < 4; ++i)
	{
		int root, mid, end;
		lbClimbChainBones(h, i, &root, &mid, &end);
		f->centreWs[i] = lbTransformPoint(frame, last->model[root].p);
		f->animCentreWs[i] = lbTransformPoint(frame, in->animPose->model[root].p);
		f->endWs[i] = lbTransformPoint(frame, lbClimbLimbEndMs(h, last, i));
		f->animEndWs[i] = lbTransformPoint(frame, lbClimbLimbEndMs(h, in->animPose, i));
		f->animRotWs[i] = lbQuatNormalize(lbQuatMul(frame.q, in->animPose->model[end].q));
		// Segment lengths measured on the pose (world), as the seed measures them on the mesh (a
		// hand's end is its wrist joint, already transformed).
		lbVec3 a = f->centreWs[i];
		lbVec3 b = lbTransformPoint(frame, last->model[mid].p);
		lbVec3 c = i < 2 ? f->endWs[i] : lbTransformPoint(frame, last->model[end].p);
		float len = lbDistance(a, b) + lbDistance(b, c);
		// A foot's end is its toe tip, beyond the ankle: the reach from the hip grows by the part
		// of the foot that points along the leg when the toes rest on a wall (about half of it).
		if (i >= 2)
			len += 0.5f * lbDistance(c, f->endWs[i]);
		f->reach[i] = lbMaxF(lbMinF(len - f->def->reachMargin, f->def->maxReach[i >= 2]), 0.05f);
	}
}

// A search cast: a ray, or with `radius` > 0 (and a scene that sweeps spheres) a sphere, whose
// impact point is the surface point.
static bool lbClimbCastRadius(lbClimbFrame* f, lbVec3 start, lbVec3 end, float radius, lbHit* hit)
{
	lbQueryInput q = lbDefaultQueryInput();
	q.start = start;
	q.end = end;
	q.channelMask = f->def->channelMask;
	q.ignoreOwnerId = f->def->ignoreOwnerId;
	*hit = lbEmptyHit();
	if (radius > 0.0f && f->query->sphereCast)
	{
		q.radius = radius;
		f->query->sphereCast(f->query->context, &q, hit);
	}
	else
		f->query->rayCast(f->query->context, &q, hit);
	++f->casts;
	return hit->hit && !hit->startedInside && lbIsValidVec3(hit->impactPoint);
}

static bool lbClimbCast(lbClimbFrame* f, lbVec3 start, lbVec3 end, lbHit* hit)
{
	return lbClimbCastRadius(f, start, end, 0.0f, hit);
}

// Surface search: a cast from outside the guide point into the surface along its normal. A hit
// gives the candidate point and the new normal; a miss keeps the last candidate.
static void lbClimbSearch(lbClimbFrame* f, lbClimbLimbState* l, lbVec3 n, lbVec3 surfUp)
{
	const lbClimbDef* def = f->def;
	if (!f->query->rayCast)
		return;
	lbHit hit;
	lbVec3 dir = n;
	const lbVec3 from = lbMulAdd(l->guideWs, def->traceOut, n), to = lbMulAdd(l->guideWs, -def->traceIn, n);
	// A ray first (the common case, a surface right under the guide); the capture sphere only when
	// it finds nothing there to hold, which is where a small hold beside the guide may be.
	bool found = lbClimbCast(f, from, to, &hit) &&
				 lbDot(lbNormalizeOr(lbLengthSquared(hit.faceNormal) > 0.5f ? hit.faceNormal : hit.normal, n), n) >= 0.5f;
	if (!found && def->captureRadius > 0.0f)
		found = lbClimbCastRadius(f, from, to, def->captureRadius, &hit);
	if (!found)
	{
		// Over the edge: look back down along surface-up just behind the surface plane, where the
		// top of a ledge or of a hold lies once the guide has gone past it.
		if (!(def->wrapIn > 0.0f))
			return;
		lbVec3 base = lbMulAdd(l->guideWs, -def->wrapIn, n);
		if (!lbClimbCast(f, lbMulAdd(base, def->traceOut, surfUp), lbMulAdd(base, -def->wrapIn, surfUp), &hit))
			return;
		dir = surfUp;
	}
	lbVec3 hn = lbLengthSquared(hit.faceNormal) > 0.5f ? hit.faceNormal : hit.normal;
	hn = lbNormalizeOr(hn, dir);
	// A face turned away from the cast (the back or the side of a hold) is no place to hold: the
	// surface must face the cast within 60 degrees.
	if (lbDot(hn, dir) < 0.5f)
		return;
	l->surfaceWs = hit.impactPoint;
	l->normalWs = hn;
	l->hasSurface = true;
	// The guide rides on the surface it found (onto its plane, so steering follows the surface as
	// it turns) but keeps its own place on it: a hold captured beside the guide does not pull the
	// guide onto its edge, and steering carries on past it.
	l->guideWs = lbMulAdd(l->guideWs, -lbDot(lbSub(l->guideWs, hit.impactPoint), hn), hn);
}

// How far a surface the limb cannot reach lies beyond its reach: a ray from the reach centre
// toward the wall (against `n`) up to LB_CLIMB_BEYOND_RANGE past reach, the gap measured square to
// the surface it meets (exact for a plane, whatever the angle of the ray to it). 0 when nothing
// lies there or what it meets is within reach (a hold the search missed beside the guide).
static float lbClimbBeyondReach(lbClimbFrame* f, lbVec3 centre, float reach, lbVec3 n)
{
	lbHit hit;
	if (!f->query->rayCast || !lbClimbCast(f, centre, lbMulAdd(centre, -(reach + LB_CLIMB_BEYOND_RANGE), n), &hit))
		return 0.0f;
	const lbVec3 hn = lbNormalizeOr(lbLengthSquared(hit.faceNormal) > 0.5f ? hit.faceNormal : hit.normal, n);
	return lbMaxF(lbDot(lbSub(centre, hit.impactPoint), hn) - reach, 0.0f);
}

// A hand over an edge: a top found by a hand whose shoulder lies below the top's plane (a ledge's
// top reached from the wall under it) is held around the edge, not through it. The arm runs from
// the shoulder up past the lip (the corner point `LB_CLIMB_WRAP_CLEAR` out from the wall face and
// above the top, where the forearm and upper arm stay clear of the block) and on to the wrist on
// the top, and that path, not the straight line (which passes through the block), must be within
// reach. The edge is found by a ray from under the shoulder just beneath the top's level back
// toward the surface point (on the solids the body keeps out of), so it holds for a top of any
// height or depth. A top farther past the edge is drawn back along the top toward it; one the
// path cannot reach at all is a miss. False when there is no edge between (the shoulder above the
// top, nothing under the top's level in front of it).
static bool lbClimbWrapEdge(lbClimbFrame* f, lbClimbLimbState* l, lbVec3 centre, float reach, float lockOffset)
{
	const lbClimbDef* def = f->def;
	const lbVec3 n = l->normalWs, s = l->surfaceWs;
	const float h = lbDot(lbSub(centre, s), n);
	if (h > LB_CLIMB_WRAP_CLEAR)
		return true;
	// Back toward the surface point along the top, from under the shoulder.
	const lbVec3 from = lbMulAdd(centre, -h - LB_CLIMB_WRAP_BELOW, n), to = lbMulAdd(s, -LB_CLIMB_WRAP_BELOW, n);
	lbVec3 along = lbSub(to, from);
	const float span = lbLength(along);
	if (span < 1e-3f)
		return true;
	along = lbMulSV(1.0f / span, along);
	lbQueryInput q = lbDefaultQueryInput();
	q.start = from;
	q.end = to;
	q.channelMask = def->bodyChannelMask;
	q.ignoreOwnerId = def->ignoreOwnerId;
	lbHit hit = lbEmptyHit();
	f->query->rayCast(f->query->context, &q, &hit);
	++f->casts;
	if (!hit.hit || hit.startedInside || !lbIsValidVec3(hit.impactPoint))
		return true;
	lbVec3 wn = lbNormalizeOr(lbLengthSquared(hit.faceNormal) > 0.5f ? hit.faceNormal : hit.normal, lbNeg(along));
	// The lip: the wall face's point back on the top's level; the corner the arm passes round, out
	// of the face and above the top.
	const lbVec3 edge = lbMulAdd(hit.impactPoint, LB_CLIMB_WRAP_BELOW, n);
	const lbVec3 corner = lbAdd(edge, lbMulSV(LB_CLIMB_WRAP_CLEAR, lbAdd(wn, n)));
	const float toCorner = lbDistance(centre, corner);
	const lbVec3 wrist = lbMulAdd(s, lockOffset, n);
	// The path is held a lock offset short of the reach: a palm not yet flat on the top (the
	// forearm's roll or the wrist's range keeping it turned the way the hand reaches) puts the
	// wrist up to that much farther back along the palm, and a path as long as the reach then asked
	// the arm past its length; straight, it passed under the lip (a 97.2-degree overhang's top
	// 0.88 m away, the mannequin's forearm 4.1 cm into it).
	reach -= lockOffset;
	const float left = reach - toCorner;
	if (toCorner + lbDistance(corner, wrist) <= reach)
		return true;
	// How far past the edge (along the top, from the lip toward the surface point) the wrist may
	// lie: the corner-to-wrist leg is `left` long, its rise the corner's height above the wrist.
	const lbVec3 onTop = lbNormalizeOr(lbProjectOnPlane(lbSub(s, edge), n), along);
	const lbVec3 c = lbSub(corner, lbMulAdd(edge, lockOffset, n));
	const float rise = lbDot(c, n), back = lbDot(c, onTop);
	const float flat = left * left - rise * rise;
	if (left <= 0.0f || flat <= 0.0f)
		return false;
	const float past = back + sqrtf(flat);
	if (past < 0.0f)
		return false;
	l->surfaceWs = lbMulAdd(edge, past, onTop);
	l->guideWs = l->surfaceWs;
	return true;
}

// The target rotation a surface gives: +X along the wall from the reach centre toward the target,
// +Y along the outward normal, composed with the limb's offset (applied in the surface frame).
static lbQuat lbClimbSurfaceRotation(const lbClimbDef* def, int limb, lbVec3 centre, lbVec3 preview, lbVec3 n,
									 lbVec3 surfUp)
{
	lbVec3 x = lbNormalizeOr(lbProjectOnPlane(lbSub(preview, centre), n), surfUp);
	return lbQuatNormalize(lbQuatMul(lbQuatMakeFromXY(x, n), def->searchRotationOffset[limb]));
}

// p less its closest point on the segment from `base` along `axis` (len2: the axis's squared length).
static inline lbVec3 lbClimbFromSegment(lbVec3 p, lbVec3 base, lbVec3 axis, float len2)
{
	return lbSub(p, lbMulAdd(base, lbClampF(lbDot(lbSub(p, base), axis) / len2, 0.0f, 1.0f), axis));
}

// Where a released hand (arm `i`) heads on its way back: a hand on the far side of the torso from
// its animated end (let go of a hold across the body) first crosses in front of the chest, out
// from the wall only as far as the chest's front, then goes the usual way (`aim`, world; `out`:
// its way out from the wall, along `wn`, to the animated end's depth) once past the torso's side.
// Out first and then straight across, the wall climb's left hand let go to the right of the body
// went through the chest (self_penetration 0.13 m); a hand on a ledge's top still crosses above it
// and goes out over the lip before going down. The torso is the line from the hips' middle to the
// shoulders', as thick as the metrics' torso and forearm capsules together.
static lbVec3 lbClimbRoundTorso(const lbClimbFrame* f, int i, lbVec3 target, lbVec3 aim, lbVec3 wn, float out)
{
	const lbVec3 base = lbLerp(f->centreWs[2], f->centreWs[3], 0.5f);
	const lbVec3 axis = lbSub(lbLerp(f->centreWs[0], f->centreWs[1], 0.5f), base);
	const float len2 = lbDot(axis, axis);
	const lbVec3 side = lbNormalizeOr(lbCross(axis, wn), lbVec3_zero);
	if (len2 < 1.0e-6f || lbLengthSquared(side) < 0.5f)
		return aim;
	const float r = LB_CLIMB_TORSO_CLEAR * f->humanoid->height + 0.13f * f->humanoid->armAxes[i].foreLength + LB_CLIMB_TORSO_MARGIN;
	const lbVec3 end = f->animEndWs[i];
	const lbVec3 toT = lbClimbFromSegment(target, base, axis, len2), toE = lbClimbFromSegment(end, base, axis, len2);
	// An animated end in front of the chest (not beside it) is reached the usual way.
	const float endSide = lbDot(toE, side);
	if (lbAbsF(endSide) < r)
		return aim;
	const float sign = endSide > 0.0f ? 1.0f : -1.0f, across = sign * lbDot(toT, side);
	if (across >= r)
		return aim;
	// Across to the torso's side (or the animated end's, farther out), and out toward the chest's
	// front, no farther than the animated end's depth.
	const float front = lbClampF(-r - lbDot(toT, wn), 0.0f, lbMaxF(out, 0.0f));
	return lbAdd(target, lbAdd(lbMulSV(sign * (lbMaxF(r, sign * endSide) - across), side), lbMulSV(front, wn)));
}

// One step of one limb's state: steering, reach clamp, search, preview, follow, locking.
static void lbClimbStepLimb(lbClimbFrame* f, lbClimbState* state, int i, float dt, lbVec3 forwardWs)
{
	const lbClimbDef* def = f->def;
	lbClimbLimbState* l = &state->limbs[i];
	int kind = i >= 2;
	lbVec3 centre = f->centreWs[i];
	float reach = f->reach[i];
	l->reach = reach;
	l->beyondReach = 0.0f;
	if (l->mode == lb_climbFree)
	{
		// Free limbs go back to the animation: the target travels to the animated limb end at the
		// follow speed while the IK alpha fades, so a released limb never jumps; once the alpha is
		// out it simply is the animated end.
		if (l->ikAlpha > 0.0f && l->lockTimer >= 0.0f && l->lockTimer < LB_CLIMB_RELEASE_LIFT)
		{
			// Just let go: first off the surface along its normal, so the limb never drags through
			// the edge it held (the lip of a ledge) on its way back.
			const float step = lbMinF(def->followSpeed * dt, LB_CLIMB_RELEASE_LIFT - l->lockTimer);
			l->targetWs = lbMulAdd(l->targetWs, step, lbNormalizeOr(l->normalWs, state->wallNormalWs));
			l->lockTimer += step;
		}
		else if (l->ikAlpha > 0.0f)
		{
			// Then out from the wall as far as the animated end before going to it, so the way back
			// never cuts through the wall's lip (from a ledge top down to the hip).
			const lbVec3 wn = state->wallNormalWs;
			const float out = lbDot(lbSub(f->animEndWs[i], l->targetWs), wn);
			lbVec3 aim = out > 0.01f ? lbMulAdd(l->targetWs, out, wn) : f->animEndWs[i];
			if (i < 2)
				aim = lbClimbRoundTorso(f, i, l->targetWs, aim, wn, out);
			l->targetWs = lbVInterpConstantTo(l->targetWs, aim, dt, def->followSpeed);
			l->targetRotWs = lbQInterpConstantTo(l->targetRotWs, f->animRotWs[i], dt, def->rotationSpeed);
		}
		else
		{
			l->targetWs = f->animEndWs[i];
			l->targetRotWs = f->animRotWs[i];
		}
		l->guideWs = f->endWs[i];
		return;
	}
	lbVec3 n = l->hasSurface ? l->normalWs : state->wallNormalWs;
	if (l->mode == lb_climbSearching || l->mode == lb_climbCandidate)
	{
		// A limb just selected starts its search where it is.
		if (l->lockTimer < 0.0f)
		{
			l->lockTimer = 0.0f;
			l->guideWs = f->endWs[i];
			l->targetWs = f->endWs[i];
			l->targetRotWs = f->animRotWs[i];
		}
		lbVec3 surfUp, surfRight;
		lbClimbSurfaceAxes(n, f->up, forwardWs, &surfUp, &surfRight);
		bool turned = false;
		if (state->selected == i && (state->stickX != 0.0f || state->stickY != 0.0f))
		{
			lbVec3 move = lbAdd(lbMulSV(state->stickX, surfRight), lbMulSV(state->stickY, surfUp));
			lbVec3 next = lbMulAdd(l->guideWs, def->moveSpeed[kind] * dt, move);
			// Steering into an inside corner meets the other wall on the way: the guide stops on it
			// and takes its normal, so the limb carries on along the new wall. It looks
			// LB_CLIMB_CORNER_AHEAD past its next step, so a hand turns onto the new wall before
			// its fingers, pointing into the corner, reach it.
			lbHit hit;
			// Lifted higher off the surface than holds stand out of it, so only a wall turns it.
			lbVec3 lift = lbMulSV(LB_CLIMB_CORNER_LIFT, n);
			if (l->hasSurface && f->query->rayCast &&
				lbClimbCast(f, lbAdd(l->guideWs, lift), lbAdd(lbMulAdd(next, LB_CLIMB_CORNER_AHEAD, lbNormalizeOr(move, n)), lift), &hit))
			{
				lbVec3 hn = lbNormalizeOr(lbLengthSquared(hit.faceNormal) > 0.5f ? hit.faceNormal : hit.normal, n);
				if (lbDot(hn, n) < 0.9f && lbDistance(hit.impactPoint, centre) <= reach)
				{
					l->surfaceWs = lbMulAdd(hit.impactPoint, -LB_CLIMB_CORNER_LIFT, n);
					l->normalWs = hn;
					l->guideWs = l->surfaceWs;
					turned = true;
				}
			}
			if (!turned)
				l->guideWs = next;
		}
		// Continuous clamp around the reach centre: at the boundary the guide slides along it. Nor
		// may it come closer than the limb folds (a foot at the hip would fold the knee flat).
		lbVec3 rel = lbClampLength(lbSub(l->guideWs, centre), reach);
		const float inner = def->minReach[kind] * reach, len = lbLength(rel);
		if (len < inner)
			rel = lbMulSV(inner, lbNormalizeOr(rel, lbNormalizeOr(lbSub(l->targetWs, centre), n)));
		l->guideWs = lbAdd(centre, rel);
		if (turned)
		{
			// Re-read the surface along the new normal (the corner point lies on the new wall).
			n = l->normalWs;
			lbClimbSurfaceAxes(n, f->up, forwardWs, &surfUp, &surfRight);
			l->guideWs = lbMulAdd(l->guideWs, 0.06f, lbNormalizeOr(lbProjectOnPlane(lbSub(centre, l->guideWs), n), n));
		}
		lbVec3 keepSurface = l->surfaceWs, keepNormal = l->normalWs;
		bool keepHas = l->hasSurface;
		lbVec3 clampedGuide = l->guideWs;
		lbClimbSearch(f, l, l->hasSurface ? l->normalWs : n, surfUp);
		if (l->hasSurface && lbDistance(l->surfaceWs, centre) > reach + 1e-4f)
		{
			// The surface found behind a guide on the reach sphere can lie beyond reach: clamp on the
			// surface plane instead (to the circle where the sphere cuts it) and search again there.
			lbVec3 sn = l->normalWs;
			float h = lbDot(lbSub(centre, l->surfaceWs), sn);
			lbVec3 foot = lbMulAdd(centre, -h, sn);
			float r = sqrtf(lbMaxF(reach * reach - h * h, 0.0f));
			l->guideWs = lbAdd(foot, lbClampLength(lbSub(l->surfaceWs, foot), 0.999f * r));
			lbVec3 su, sr;
			lbClimbSurfaceAxes(sn, f->up, forwardWs, &su, &sr);
			lbClimbSearch(f, l, sn, su);
		}
		if (l->hasSurface && i < 2 && f->query->rayCast && !lbClimbWrapEdge(f, l, centre, reach, def->lockOffset[0]))
			l->surfaceWs = lbMulAdd(centre, 2.0f * reach, n); // no way round the edge: a miss (below)
		if (l->hasSurface && (lbDistance(l->surfaceWs, centre) > reach + 1e-3f ||
							  lbDistance(l->surfaceWs, centre) < def->minReach[kind] * reach - 1e-3f))
		{
			// Still out of reach (the surface lies beyond the sphere): as good as a miss.
			l->surfaceWs = keepSurface;
			l->normalWs = keepNormal;
			l->hasSurface = keepHas;
			l->guideWs = clampedGuide;
		}
		if (l->hasSurface)
			l->mode = lb_climbCandidate;
		else
			l->beyondReach = lbClimbBeyondReach(f, centre, reach, n);
		n = l->hasSurface ? l->normalWs : n;
		lbClimbSurfaceAxes(n, f->up, forwardWs, &surfUp, &surfRight);
		lbVec3 preview = l->hasSurface ? lbMulAdd(l->surfaceWs, def->searchOffset[kind], n) : l->guideWs;
		lbQuat previewRot = lbClimbSurfaceRotation(def, i, centre, preview, n, surfUp);
		// Round an edge, not across it: a target going onto a top (from a ledge's face) below the
		// preview's level, or behind the plane of any surface it goes to (over an edge the other
		// way), first goes straight out of that plane to the preview's level, then along it.
		// Straight across, the wrist cut the lip's corner and the forearm behind it went into the
		// lip (2-3 cm over ledges and overhang tops). Not on walls within the preview's offset: near
		// an inside corner a target comes that close to the other wall, and sent out of it first,
		// an arm popped 15.6 degrees.
		lbVec3 aim = preview;
		if (l->hasSurface)
		{
			const float below = lbDot(lbSub(l->targetWs, preview), n);
			if (below < -1e-3f &&
				(lbAbsF(lbDot(n, f->up)) >= cosf(def->ledgeAngle) || lbDot(lbSub(l->targetWs, l->surfaceWs), n) < 0.0f))
				aim = lbMulAdd(l->targetWs, -below, n);
		}
		l->targetWs = lbVInterpConstantTo(l->targetWs, aim, dt, def->followSpeed);
		l->targetRotWs = lbQInterpConstantTo(l->targetRotWs, previewRot, dt, def->rotationSpeed);
		return;
	}
	// Locking and locked: the same surface point, at the lock offset.
	lbVec3 lockWs = lbMulAdd(l->surfaceWs, def->lockOffset[kind], l->normalWs);
	if (l->mode == lb_climbLocking)
	{
		l->lockTimer += dt;
		float t = def->lockTime > 0.0f ? lbClampF(l->lockTimer / def->lockTime, 0.0f, 1.0f) : 1.0f;
		l->targetWs = lbLerp(l->lockFromWs, lockWs, lbSmoothStep(t));
		if (t >= 1.0f)
			l->mode = lb_climbLocked;
	}
	else
		l->targetWs = lockWs;
}

// Alphas: IK 1 unless free; body alpha by state, and for a searching limb by how far its target
// lies from the reach centre (a near target moves only the limb, a far one brings the body).
static void lbClimbStepAlphas(const lbClimbFrame* f, lbClimbLimbState* l, int i, float dt)
{
	const lbClimbDef* def = f->def;
	float ik = l->mode == lb_climbFree ? 0.0f : 1.0f;
	// A released limb stays under IK while its target travels back to the animated limb end (at
	// the follow speed), and fades out only once it is there: the blend then runs between two
	// nearly equal poses instead of swinging the whole limb.
	if (l->mode == lb_climbFree && l->ikAlpha > 0.0f &&
		(l->lockTimer < LB_CLIMB_RELEASE_LIFT || lbDistance(l->targetWs, f->animEndWs[i]) > LB_CLIMB_RELEASE_NEAR))
		ik = 1.0f;
	float body = 0.0f;
	if (lbClimbHeld(l->mode))
		body = def->bodyAlphaLocked;
	else if (l->mode != lb_climbFree)
	{
		float ratio = lbDistance(l->targetWs, f->animCentreWs[i]) / lbMaxF(f->reach[i], 1e-3f);
		body = lbRemapClamped(ratio, def->bodyReachStart, def->bodyReachFull, 0.0f, 1.0f);
	}
	// Linear ramps, given out through a smoothstep (lbClimbWriteTargets): no jump in speed at
	// either end of a blend.
	float rate = def->alphaTime > 0.0f ? 1.0f / def->alphaTime : 1.0e9f;
	l->ikAlpha = lbClampF(lbInterpConstantTo(l->ikAlpha, ik, dt, rate), 0.0f, 1.0f);
	l->bodyAlpha = lbClampF(lbInterpConstantTo(l->bodyAlpha, body, dt, rate), 0.0f, 1.0f);
}

// Whether a probe's sphere touches anything (true when the scene has no overlap test): a probe
// clear of everything needs no push along any normal (a sweep would stop past it), so one overlap
// test per probe settles the common case of a body off the wall, and the sweeps run only when it
// touches.
static bool lbClimbProbeTouches(lbClimbFrame* f, lbVec3 probe, float radius)
{
	if (!f->query->sphereCast || !f->query->sphereOverlap)
		return true;
	lbQueryInput q = lbDefaultQueryInput();
	q.start = q.end = probe;
	q.radius = radius;
	q.channelMask = f->def->bodyChannelMask;
	q.ignoreOwnerId = f->def->ignoreOwnerId;
	lbHit over = lbEmptyHit();
	f->query->sphereOverlap(f->query->context, &q, &over);
	++f->casts;
	return over.hit;
}

// One sphere sweep along -n toward the wall from outside a probe: how far the probe must move out
// along n to clear the surface by the radius. A sweep that starts inside (the probe deep in the
// wall) asks for the whole sweep length plus the overlap.
static float lbClimbProbePush(lbClimbFrame* f, lbVec3 probe, lbVec3 n, float radius)
{
	const lbClimbDef* def = f->def;
	if (!f->query->sphereCast)
		return 0.0f;
	lbQueryInput q = lbDefaultQueryInput();
	q.start = lbMulAdd(probe, def->probeOut, n);
	q.end = lbMulAdd(probe, -def->probeIn, n);
	q.radius = radius;
	q.channelMask = def->bodyChannelMask;
	q.ignoreOwnerId = def->ignoreOwnerId;
	lbHit hit = lbEmptyHit();
	f->query->sphereCast(f->query->context, &q, &hit);
	++f->casts;
	if (!hit.hit)
		return 0.0f;
	if (hit.startedInside)
	{
		float along = lbMaxF(lbDot(hit.normal, n), 0.25f);
		return def->probeOut + hit.penetrationDepth / along;
	}
	return lbMaxF(lbDot(lbSub(hit.location, probe), n), 0.0f);
}

// Body clearance: pelvis and upper-chest probes, measured without the offset already applied,
// swept along each distinct wall normal the held limbs touch (two at an inside corner). The
// offset meets every push along its own normal; the larger probe push per normal wins.
static lbVec3 lbClimbClearance(lbClimbFrame* f, const lbClimbState* state, const lbClimbSenseInput* in,
							   lbClimbTargets* out)
{
	const lbClimbDef* def = f->def;
	const lbHumanoid* h = f->humanoid;
	const lbPose* last = in->lastPose ? in->lastPose : in->animPose;
	int bones[2] = { h->pelvis, h->spineCount > 0 ? h->spine[h->spineCount - 1] : h->pelvis };
	lbVec3 probe[2];
	for (int k = 0; k < 2; ++k)
	{
		probe[k] = lbSub(lbTransformPoint(state->frameWs, last->model[bones[k]].p), state->bodyOffsetWs);
		out->probeWs[k] = probe[k];
		out->probePush[k] = 0.0f;
	}
	// Walls beside the body: a ray each way along the wall's horizontal from the pelvis probe. A wall
	// no limb holds (an inside corner's other wall) is otherwise unknown to the pose stage, and a
	// knee the side blend swings out went into it.
	out->sideWallCount = 0;
	const lbVec3 side = lbNormalize(lbCross(f->up, state->wallNormalWs));
	if (f->query->rayCast && lbLengthSquared(side) > 0.0f)
		for (int k = 0; k < 2; ++k)
		{
			lbQueryInput q = lbDefaultQueryInput();
			q.start = probe[0];
			q.end = lbMulAdd(probe[0], k == 0 ? LB_CLIMB_SIDE_REACH : -LB_CLIMB_SIDE_REACH, side);
			q.channelMask = def->bodyChannelMask;
			q.ignoreOwnerId = def->ignoreOwnerId;
			lbHit hit = lbEmptyHit();
			f->query->rayCast(f->query->context, &q, &hit);
			++f->casts;
			if (hit.hit && !hit.startedInside && lbIsValidVec3(hit.impactPoint) &&
				lbDot(hit.normal, state->wallNormalWs) < 0.8f && lbAbsF(lbDot(hit.normal, f->up)) < cosf(def->ledgeAngle))
			{
				out->sideWallPointWs[out->sideWallCount] = hit.impactPoint;
				out->sideWallNormalWs[out->sideWallCount] = lbNormalizeOr(hit.normal, lbNeg(side));
				++out->sideWallCount;
			}
		}
	// Distinct normals of the surfaces held or previewed.
	lbVec3 normals[2];
	int count = 0;
	normals[count++] = state->wallNormalWs;
	for (int i = 0; i < 4 && count < 2; ++i)
	{
		const lbClimbLimbState* l = &state->limbs[i];
		if (l->mode == lb_climbFree || !l->hasSurface || lbAbsF(lbDot(l->normalWs, f->up)) >= cosf(def->ledgeAngle))
			continue;
		if (lbDot(l->normalWs, normals[0]) < 0.8f)
			normals[count++] = l->normalWs;
	}
	bool touches[2];
	for (int k = 0; k < 2; ++k)
		touches[k] = lbClimbProbeTouches(f, probe[k], def->probeRadius[k]);
	lbVec3 offset = lbVec3_zero;
	for (int j = 0; j < count; ++j)
	{
		lbVec3 n = normals[j];
		float push = 0.0f;
		for (int k = 0; k < 2; ++k)
		{
			float p = touches[k] ? lbClimbProbePush(f, probe[k], n, def->probeRadius[k]) : 0.0f;
			out->probePush[k] = lbMaxF(out->probePush[k], p);
			push = lbMaxF(push, p);
		}
		// Add only what the offset so far lacks along this normal, moving along the part of n
		// that leaves the earlier normals' pushes unchanged.
		float lack = push - lbDot(offset, n);
		if (lack > 0.0f)
		{
			lbVec3 dir = n;
			if (j > 0)
			{
				lbVec3 ortho = lbProjectOnPlane(n, normals[0]);
				float len = lbLength(ortho);
				dir = len > 0.3f ? lbMulSV(1.0f / (len * len), ortho) : n;
			}
			offset = lbMulAdd(offset, lack, dir);
		}
	}
	return offset;
}

// The climbing frame: once something is held the system carries the character. It turns to face
// the held surfaces, keeps the animated pelvis `bodyWallDistance` off them, and follows in the
// surface plane where the last solve took the pelvis, so the full-body solve never runs out of
// pelvis travel on a long climb.
static void lbClimbStepFrame(lbClimbFrame* f, lbClimbState* state, const lbClimbSenseInput* in, float dt)
{
	const lbClimbDef* def = f->def;
	const lbHumanoid* h = f->humanoid;
	// The wall the body faces: the held surfaces that are walls. A foot on top of a hold or a hand
	// on a ledge top holds the body but does not turn it; with only such tops held, the wall stays.
	lbVec3 nSum = lbVec3_zero, pSum = lbVec3_zero, pAll = lbVec3_zero;
	int held = 0, walls = 0;
	const float topCos = cosf(def->ledgeAngle);
	for (int i = 0; i < 4; ++i)
	{
		const lbClimbLimbState* l = &state->limbs[i];
		if (!lbClimbHeld(l->mode))
			continue;
		pAll = lbAdd(pAll, l->surfaceWs);
		++held;
		if (lbAbsF(lbDot(l->normalWs, f->up)) >= topCos)
			continue;
		nSum = lbAdd(nSum, l->normalWs);
		pSum = lbAdd(pSum, l->surfaceWs);
		++walls;
	}
	if (held == 0)
	{
		// Nothing held: the game moves the character; the wall ahead is the one it faces.
		state->frameWs = in->characterWs;
		return;
	}
	lbVec3 n = walls > 0 ? lbNormalizeOr(nSum, state->wallNormalWs) : state->wallNormalWs;
	lbVec3 p0 = walls > 0 ? lbMulSV(1.0f / (float)walls, pSum) : lbMulSV(1.0f / (float)held, pAll);
	state->wallNormalWs = lbNormalizeOr(lbVInterpTo(state->wallNormalWs, n, dt, def->frameSpeed), n);
	// Orientation: face into the wall, the body leaning with it (`wallLean` of the way from upright
	// to parallel: onto a slab, back under an overhang); a wall facing up keeps the orientation.
	lbVec3 wallUp, wallRight;
	lbClimbSurfaceAxes(state->wallNormalWs, f->up, lbQuatRotate(state->frameWs.q, h->forwardMs), &wallUp, &wallRight);
	if (lbLength(lbProjectOnPlane(state->wallNormalWs, f->up)) > 0.2f)
	{
		// Onto a slab, a foot still standing on the floor in the animation keeps the body upright:
		// leant with the slab, the whole character turns, that foot with it, its toes into the
		// floor at the slab's foot (a hand first on a 79.6-degree slab, the planner's climb: 2.9-3
		// cm on both rigs). Under an overhang the lean stays: kept upright there too, the shipped
		// overhang climb on the mannequin popped 19.6 degrees and went 2.9 cm into the wall.
		bool standing = false;
		for (int i = 2; i < 4; ++i)
			standing = standing || (state->limbs[i].mode == lb_climbFree && !(state->limbs[i].ikAlpha > 0.0f));
		const float lean = standing && lbDot(state->wallNormalWs, f->up) > 0.0f ? 0.0f : def->wallLean;
		lbVec3 bodyUp = lbNormalizeOr(lbLerp(f->up, wallUp, lean), f->up);
		lbVec3 fwd = lbProjectOnPlane(lbNeg(state->wallNormalWs), bodyUp);
		lbQuat target = lbQuatFromTwoAxes(h->upMs, bodyUp, h->forwardMs, lbNormalizeOr(fwd, lbNeg(state->wallNormalWs)));
		if (lbQuatDot(target, state->frameWs.q) < 0.0f)
			target = lbQuatNeg(target);
		state->frameWs.q = lbQuatNormalize(lbQInterpTo(state->frameWs.q, target, dt, def->frameSpeed));
	}
	// Position, in the surface's axes (up along it, right, out). Along surface-up the body hangs as
	// low as its holds allow: each foot held pushes the hip up to a comfortable reach above it, each
	// hand pulls the shoulder up to a comfortable reach below it (a searching limb by its body
	// alpha), and no foot lets the hip go further than its reach above it. Sideways the body
	// centres between its contacts. Out of the surface the pelvis keeps `bodyWallDistance`. While
	// no foot holds, the body does not sink below where the game stands it.
	lbVec3 u, r;
	lbClimbSurfaceAxes(state->wallNormalWs, f->up, lbQuatRotate(state->frameWs.q, h->forwardMs), &u, &r);
	lbVec3 pelvisWs = lbTransformPoint(state->frameWs, in->animPose->model[h->pelvis].p);
	float nowU = lbDot(pelvisWs, u);
	float lower = -1.0e30f, upper = 1.0e30f, side = 0.0f, wsum = 0.0f;
	bool footHeld = false;
	for (int i = 0; i < 4; ++i)
	{
		const lbClimbLimbState* l = &state->limbs[i];
		if (l->mode == lb_climbFree || !l->hasSurface)
			continue;
		bool isHeld = lbClimbHeld(l->mode);
		float w = isHeld ? 1.0f : l->bodyAlpha;
		if (!(w > 1e-3f))
			continue;
		footHeld |= i >= 2 && isHeld;
		int root, mid, end;
		lbClimbChainBones(h, i, &root, &mid, &end);
		lbVec3 attachOffset = lbSub(lbTransformPoint(state->frameWs, in->animPose->model[root].p), pelvisWs);
		float c = lbDot(l->targetWs, u) - lbDot(attachOffset, u);
		float along = def->comfortReach[i >= 2] * f->reach[i];
		float want = i < 2 ? c - along : c + along;
		if (!isHeld)
			want = nowU + w * (want - nowU);
		lower = lbMaxF(lower, want);
		if (i >= 2 && isHeld)
			upper = lbMinF(upper, c + 0.95f * f->reach[i]);
		side += w * (lbDot(l->targetWs, r) - lbDot(attachOffset, r));
		wsum += w;
	}
	if (!(wsum > 1e-3f))
		return;
	if (!footHeld)
	{
		// Standing on the floor the game keeps the character on.
		float standU = lbDot(lbTransformPoint(in->characterWs, in->animPose->model[h->pelvis].p), u);
		lower = lbMaxF(lower, standU);
	}
	float wantU = lbMinF(lower, upper);
	float wantR = side / wsum;
	float nowR = lbDot(pelvisWs, r);
	float offN = lbDot(lbSub(pelvisWs, p0), state->wallNormalWs) - def->bodyWallDistance;
	lbVec3 move = lbAdd(lbAdd(lbMulSV(wantU - nowU, u), lbMulSV(wantR - nowR, r)), lbMulSV(-offN, state->wallNormalWs));
	move = lbMulSV(lbInterpAlpha(dt, def->frameSpeed), move);
	// A foot still in the animation (standing on the floor while the other holds) goes where the
	// frame takes it: toward a slab, whose plane runs back over the floor under the body, it went
	// through the slab's foot (7.6 cm on a 61-degree slab). The frame comes no nearer the held
	// walls' plane than keeps such a foot's toe tip on it (nor pushes it out: the held limbs set
	// where the body is).
	const float toward = lbDot(move, state->wallNormalWs);
	float allowed = toward;
	for (int i = 2; i < 4; ++i)
	{
		const lbClimbLimbState* l = &state->limbs[i];
		if (l->mode != lb_climbFree || l->ikAlpha > 0.0f)
			continue;
		const float gap = lbDot(lbSub(f->animEndWs[i], p0), state->wallNormalWs) - LB_CLIMB_FREE_FOOT_CLEAR;
		allowed = lbMaxF(allowed, lbMinF(-gap, 0.0f));
	}
	if (allowed > toward)
		move = lbMulAdd(move, allowed - toward, state->wallNormalWs);
	state->frameWs.p = lbAdd(state->frameWs.p, move);
}

// A bone field of a humanoid map that is LB_NULL_INDEX or a bone of n: one unsigned comparison.
static inline bool lbClimbBoneOrNone(int b, unsigned n)
{
	return (unsigned)(b + 1) <= n;
}

// A humanoid map lbHumanoid_Check accepts, in a few comparisons: made for this skeleton, its counts
// in range, and every bone field a role can name LB_NULL_INDEX or a bone of the skeleton. Every
// field is tested, also the spine and twist entries past their counts that lbHumanoid_Check does
// not read, so this never passes a map that check refuses; false sends the map to it for its
// verdict and message. (Role by role, the check was a twelfth of the stage.)
static bool lbClimbHumanoidFits(const lbHumanoid* h, const lbSkeleton* s)
{
	_Static_assert(LB_NULL_INDEX == -1, "a missing bone is -1");
	if (h->boneCount != s->boneCount || h->skeletonFingerprint != s->fingerprint || s->boneCount < 0 ||
		h->spineCount < 0 || h->spineCount > LB_MAX_SPINE)
		return false;
	const unsigned n = (unsigned)s->boneCount;
	bool ok = lbClimbBoneOrNone(h->root, n) & lbClimbBoneOrNone(h->pelvis, n) & lbClimbBoneOrNone(h->neck, n) &
			  lbClimbBoneOrNone(h->head, n);
	for (int k = 0; k < LB_MAX_SPINE; ++k)
		ok &= lbClimbBoneOrNone(h->spine[k], n);
	for (int side = 0; side < 2; ++side)
	{
		const lbArmBones* a = &h->arm[side];
		const lbLegBones* g = &h->leg[side];
		ok &= a->twistCount >= 0 && a->twistCount <= 3;
		ok &= lbClimbBoneOrNone(a->clavicle, n) & lbClimbBoneOrNone(a->upperArm, n) & lbClimbBoneOrNone(a->foreArm, n) &
			  lbClimbBoneOrNone(a->hand, n);
		for (int k = 0; k < LB_MAX_TWIST; ++k)
			ok &= lbClimbBoneOrNone(a->twist[k], n);
		ok &= lbClimbBoneOrNone(g->thigh, n) & lbClimbBoneOrNone(g->calf, n) & lbClimbBoneOrNone(g->foot, n) &
			  lbClimbBoneOrNone(g->ball, n);
	}
	return ok;
}

static bool lbClimbInputValid(const lbClimbSenseInput* in)
{
	return lbIsValidTransform(in->characterWs) && lbIsValidFloat(in->dt);
}

static void lbClimbWriteTargets(const lbClimbFrame* f, const lbClimbState* state, lbClimbTargets* out)
{
	out->characterWs = state->frameWs;
	out->upWs = f->up;
	out->bodyOffsetWs = state->bodyOffsetWs;
	for (int i = 0; i < 4; ++i)
	{
		const lbClimbLimbState* l = &state->limbs[i];
		lbClimbLimbTarget* t = &out->limbs[i];
		t->mode = l->mode;
		t->targetWs = l->targetWs;
		t->targetRotWs = l->targetRotWs;
		// A limb let go keeps the normal of what it held while it fades back to the animation: the
		// pose stage still plans it as on that surface (a foot on a ledge top stays flat instead of
		// turning its toes into the wall and its heel through the top).
		const bool fading = l->mode == lb_climbFree && l->ikAlpha > 0.0f && lbLengthSquared(l->normalWs) > 0.5f;
		// A hand let go of a top also tells where that top is (a free limb's surface is only known,
		// not held): the pose stage keeps its elbow out of the block under it, not out of a plane
		// that follows the hand down past the lip.
		const bool knownTop = fading && i < 2 && !l->hasSurface && lbAbsF(lbDot(l->normalWs, f->up)) >= cosf(f->def->ledgeAngle);
		t->hasSurface = l->hasSurface || knownTop;
		t->surfaceWs = t->hasSurface ? l->surfaceWs : l->targetWs;
		t->normalWs = l->hasSurface || fading ? l->normalWs : state->wallNormalWs;
		t->ikAlpha = lbSmoothStep(l->ikAlpha);
		t->bodyAlpha = lbSmoothStep(l->bodyAlpha);
		t->locked = l->mode == lb_climbLocked || l->mode == lb_climbLocking;
		t->guideWs = l->guideWs;
		t->reachCentreWs = f->centreWs[i];
		t->reach = f->reach[i];
		t->beyondReach = l->beyondReach;
	}
	out->standWeight = lbSmoothStep(state->stand);
	out->castCount = f->casts;
	out->dt = f->dt;
}

lbResult lbClimbSense(lbClimbState* state, const lbClimbDef* def, const lbSkeleton* skeleton,
					  const lbHumanoid* humanoid, const lbClimbSenseInput* in, lbClimbTargets* out)
{
	if (!state || !def || !skeleton || !humanoid || !in || !out || !in->query || !in->animPose)
		return lbReport(lb_errorNullPointer, "lbClimbSense: state, def, skeleton, humanoid, input, input query, "
											 "input animPose and targets are required");
	if (!lbClimbHumanoidFits(humanoid, skeleton) && lbHumanoid_Check(humanoid, skeleton) != lb_ok)
		return lb_errorSkeletonMismatch;
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbClimbSense: def not initialised with lbDefaultClimbDef()");
	int boneCount = skeleton->boneCount;
	if (in->animPose->boneCount != boneCount || (in->lastPose && in->lastPose->boneCount != boneCount))
		return lbReport(lb_errorSkeletonMismatch, "lbClimbSense: pose has %d bones, skeleton %d",
						in->lastPose && in->lastPose->boneCount != boneCount ? in->lastPose->boneCount
																		   : in->animPose->boneCount,
						boneCount);
	if (!lbClimbPoseFinite(humanoid, in->animPose))
		return lbReport(lb_errorNonFinite, "lbClimbSense: the animated pose is not finite (or the map does not fit it)");
	lbClimbSenseInput safe = *in;
	if (in->lastPose && !lbClimbPoseFinite(humanoid, in->lastPose))
	{
		// A broken last pose is not worth stopping for: the animated pose stands in for it.
		lbReport(lb_errorNonFinite, "lbClimbSense: the last pose is not finite; the animated pose is used");
		safe.lastPose = NULL;
	}
	in = &safe;
	lbClimbFrame f;
	memset(&f, 0, sizeof f);
	f.def = def;
	f.humanoid = humanoid;
	f.query = in->query;
	f.up = lbNormalizeOr(def->up, lbVec3_axisZ);
	if (!lbClimbInputValid(in))
		return lbReport(lb_errorNonFinite, "lbClimbSense: character transform or dt is not finite");
	if (!lbFrameUnscaled(&in->characterWs))
		return lbReport(lb_errorInvalidArgument,
						"lbClimbSense: the character transform scales by (%g, %g, %g); the climb system takes an unscaled "
						"model frame in metres (scale the rig's rest pose instead)",
						(double)in->characterWs.s.x, (double)in->characterWs.s.y, (double)in->characterWs.s.z);
	if (!state->initialized)
	{
		state->frameWs = in->characterWs;
		state->wallNormalWs = lbNeg(lbQuatRotate(in->characterWs.q, humanoid->forwardMs));
		state->bodyOffsetWs = lbVec3_zero;
		state->stand = 1.0f;
		for (int i = 0; i < 4; ++i)
			if (lbClimbHeld(state->limbs[i].mode))
				state->stand = 0.0f;
		state->initialized = 1;
	}
	float dt = in->dt > 0.0f ? in->dt : 0.0f;
	f.dt = dt;
	lbVec3 forwardWs = lbQuatRotate(state->frameWs.q, humanoid->forwardMs);
	// The wall ahead while nothing is held: the first surface a limb finds.
	bool anyHeld = false;
	for (int i = 0; i < 4; ++i)
		anyHeld |= lbClimbHeld(state->limbs[i].mode);
	if (!anyHeld)
	{
		for (int i = 0; i < 4; ++i)
			if (state->limbs[i].hasSurface && state->limbs[i].mode != lb_climbFree)
			{
				state->wallNormalWs = state->limbs[i].normalWs;
				break;
			}
	}
	int steps = dt > LB_CLIMB_MAX_STEP ? (int)ceilf(lbMinF(dt / LB_CLIMB_MAX_STEP, 64.0f)) : 1;
	float h = dt / (float)steps;
	lbClimbReadPoses(&f, state, in);
	for (int s = 0; s < steps; ++s)
		for (int i = 0; i < 4; ++i)
		{
			lbClimbStepLimb(&f, state, i, h, forwardWs);
			lbClimbStepAlphas(&f, &state->limbs[i], i, h);
		}
	// The body stands on its free feet until a limb holds, and is let go over the alpha time.
	bool heldNow = false;
	for (int i = 0; i < 4; ++i)
		heldNow |= lbClimbHeld(state->limbs[i].mode);
	state->stand = lbClampF(lbInterpConstantTo(state->stand, heldNow ? 0.0f : 1.0f, dt,
											   def->alphaTime > 0.0f ? 1.0f / def->alphaTime : 1.0e9f),
							0.0f, 1.0f);
	lbVec3 raw = lbClimbClearance(&f, state, in, out);
	state->bodyOffsetWs = lbVInterpTo(state->bodyOffsetWs, raw, dt, def->clearanceSpeed);
	lbClimbStepFrame(&f, state, in, dt);
	lbClimbWriteTargets(&f, state, out);
	return lb_ok;
}
