// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Procedural base motion from the humanoid map only: rest, idle, walk, run, prone, crawl, and
// clip playback with root motion. Every direction comes from the humanoid's derived axes (model
// up/forward/left, per-bone along/hinge/pole/toe axes); no local bone axis is assumed.
//
// Gait model: a phase-driven cycle in which each foot alternates stance and swing. Stride length
// follows Alexander's relative-stride law (R. McN. Alexander, 1984, "The gaits of bipedal and
// quadrupedal animals", Int. J. Robotics Research 3(2)); duty factors and the heel-strike, foot
// flat, heel-off, toe-off sequence follow Perry & Burnfield, "Gait Analysis: Normal and
// Pathological Function" (2010). A planted foot is locked in world space, so it cannot slide;
// legs reach their foot targets with the analytic two-bone solve of the ik layer.
#include "limber/ik.h"
#include "limber/motion.h"

#include <string.h>

// Fixed fractions of stance: heel strike ends (foot flat) and heel-off starts.
#define LB_FOOT_FLAT_U 0.12f
#define LB_HEEL_OFF_U 0.5f
#define LB_RUN_HEEL_OFF_U 0.45f

typedef struct lbBody
{
	lbVec3 up, fwd, left;
	float floorH;     // model height of the floor along up
	float legLength;  // thigh + calf (mean of both sides)
	float hipHeight;  // rest hip joint height above the floor (mean)
	lbTransform restFoot[2];
	lbVec3 heelLocal[2], ballLocal[2], lateralLocal[2];
	lbVec3 neutralAnkle[2]; // rest ankle position (model)
	lbVec3 shoulder[2];     // rest shoulder (upper arm) position (model)
} lbBody;

static void lbBuildBody(const lbHumanoid* h, const lbSkeleton* s, lbBody* b)
{
	b->up = h->upMs;
	b->fwd = h->forwardMs;
	b->left = h->leftMs;
	b->floorH = lbDot(s->restModel[h->pelvis].p, b->up) - h->pelvisHeight;
	b->legLength = 0.5f * (h->legAxes[0].thighLength + h->legAxes[0].calfLength + h->legAxes[1].thighLength +
						   h->legAxes[1].calfLength);
	b->hipHeight = 0.5f * (lbDot(s->restModel[h->leg[0].thigh].p, b->up) + lbDot(s->restModel[h->leg[1].thigh].p, b->up)) -
				   b->floorH;
	for (int side = 0; side < 2; ++side)
	{
		const lbLegAxes* x = &h->legAxes[side];
		lbTransform foot = s->restModel[h->leg[side].foot];
		b->restFoot[side] = foot;
		// Neutral stance: the ankle under the hip joint at its height above the floor. Rest poses
		// with legs spread (motion-capture T-poses) would otherwise walk wide-legged.
		lbVec3 hip = s->restModel[h->leg[side].thigh].p;
		lbVec3 hipGround = lbSub(hip, lbMulSV(lbDot(hip, b->up) - b->floorH, b->up));
		b->neutralAnkle[side] = lbMulAdd(hipGround, x->ankleHeight, b->up);
		lbVec3 toeMs = lbNormalizeOr(lbProjectOnPlane(lbQuatRotate(foot.q, x->toe), b->up), b->fwd);
		float len = x->footLength > 0.0f ? x->footLength : 0.15f * b->legLength;
		lbVec3 ground = lbSub(foot.p, lbMulSV(lbDot(foot.p, b->up) - b->floorH, b->up));
		lbVec3 ball = lbMulAdd(ground, len, toeMs);
		lbVec3 heel = lbMulAdd(ground, -0.3f * len, toeMs);
		b->heelLocal[side] = lbInvTransformPoint(foot, heel);
		b->ballLocal[side] = lbInvTransformPoint(foot, ball);
		b->lateralLocal[side] = lbQuatInvRotate(foot.q, b->left);
		b->shoulder[side] = s->restModel[h->arm[side].upperArm].p;
	}
}

// Foot transform rolled about the heel (roll < 0, toes up) or the ball (roll > 0, heel up).
static lbTransform lbRollFoot(const lbBody* b, int side, lbTransform flat, float roll)
{
	if (roll == 0.0f)
		return flat;
	lbVec3 pivot = roll < 0.0f ? b->heelLocal[side] : b->ballLocal[side];
	lbTransform r = lbTransform_identity;
	r.q = lbQuatFromAxisAngle(b->lateralLocal[side], roll);
	r.p = lbSub(pivot, lbQuatRotate(r.q, pivot));
	return lbTransformMul(flat, r);
}

static lbTransform lbFlatFoot(const lbBody* b, int side, lbVec3 ankleMs, float yaw)
{
	lbTransform f = b->restFoot[side];
	f.p = ankleMs;
	f.q = lbQuatMul(lbQuatFromAxisAngle(b->up, yaw), f.q);
	return f;
}

static lbVec3 lbContactPoint(const lbBody* b, int side, lbTransform foot, float roll)
{
	if (roll < -1.0e-4f)
		return lbTransformPoint(foot, b->heelLocal[side]);
	if (roll > 1.0e-4f)
		return lbTransformPoint(foot, b->ballLocal[side]);
	return lbTransformPoint(foot, lbLerp(b->heelLocal[side], b->ballLocal[side], 0.5f));
}

// ---------------------------------------------------------------------------------------------
// Names and params

static const char* const lbMotionNames[lb_motionCount] = { "rest", "idle", "walk", "run", "prone", "crawl", "clip" };

const char* lbBaseMotionName(lbBaseMotion motion)
{
	return motion >= 0 && motion < lb_motionCount ? lbMotionNames[motion] : NULL;
}

lbBaseMotion lbFindBaseMotion(const char* name)
{
	for (int k = 0; name && k < lb_motionCount; ++k)
	{
		if (strcmp(name, lbMotionNames[k]) == 0)
			return (lbBaseMotion)k;
	}
	return lb_motionCount;
}

lbMotionDef lbDefaultMotionDef(lbBaseMotion motion)
{
	lbMotionDef p;
	memset(&p, 0, sizeof p);
	p.motion = motion >= 0 && motion < lb_motionCount ? motion : lb_motionIdle;
	p.speed = motion == lb_motionWalk ? 1.4f : motion == lb_motionRun ? 3.5f : motion == lb_motionCrawl ? 0.25f : 0.0f;
	p.turnRate = 0.0f;
	p.acceleration = 4.0f;
	p.armSwing = 1.0f;
	p.bodyMotion = 1.0f;
	p.idleSway = 0.025f;
	p.idlePeriod = 4.0f;
	p.footLift = -1.0f;
	p.clip = NULL;
	p.loop = true;
	p.playRate = 1.0f;
	p.rootMotion = true;
	p.internalValue = LB_SECRET_COOKIE;
	return p;
}

void lbGaitStride(float speed, float legLength, bool run, float* outStrideLength, float* outCycleRate)
{
	float v = lbIsValidFloat(speed) ? lbMaxF(speed, 0.0f) : 0.0f;
	float l = lbIsValidFloat(legLength) && legLength > 0.01f ? legLength : 0.9f;
	const float g = 9.81f;
	float froude = v * v / (g * l);
	float stride = 2.3f * powf(froude, 0.3f) * l;
	// Walks are capped near 1.6 leg lengths per stride (longer strides need a run); cadence rises instead.
	if (!run)
		stride = lbMinF(stride, 1.65f * l);
	else
		stride = lbMinF(stride, 3.0f * l);
	// A minimum cadence so low speeds step in place rather than freeze mid-swing.
	float minRate = run ? 1.2f : 0.75f;
	float rate = stride > 1.0e-4f ? v / stride : minRate;
	if (rate < minRate)
	{
		rate = minRate;
		stride = v / rate;
	}
	if (outStrideLength)
		*outStrideLength = stride;
	if (outCycleRate)
		*outCycleRate = rate;
}

float lbGaitSpeedForStride(float strideLength, float legLength, bool run)
{
	if (!lbIsValidFloat(strideLength) || strideLength <= 0.0f)
		return 0.0f;
	// The stride grows with the speed (the law, its cap, the minimum cadence), so bisection finds
	// the speed, within 0.1 mm/s, from the same function the gait uses: the two never disagree.
	float lo = 0.0f, hi = run ? 12.0f : 3.0f;
	for (int i = 0; i < 18; ++i)
	{
		float mid = 0.5f * (lo + hi), stride;
		lbGaitStride(mid, legLength, run, &stride, NULL);
		if (stride <= strideLength)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

// ---------------------------------------------------------------------------------------------
// State

static void lbPlantAtRest(lbMotionState* st, const lbBody* b, const lbHumanoid* h, const lbSkeleton* s)
{
	for (int side = 0; side < 2; ++side)
	{
		lbTransform flat = lbFlatFoot(b, side, b->neutralAnkle[side], 0.0f);
		st->plantWs[side] = lbTransformMul(st->characterWs, flat);
		st->swingStartMs[side] = flat;
		st->limbPlanted[side] = true;
		lbTransform hand = s->restModel[h->arm[side].hand];
		st->plantWs[2 + side] = lbTransformMul(st->characterWs, hand);
		st->swingStartMs[2 + side] = hand;
		st->limbPlanted[2 + side] = true;
		lbFootPhase* f = &st->feet[side];
		f->planted = true;
		f->phase = 0.0f;
		f->timeToSwitch = 0.0f;
		f->roll = 0.0f;
		f->targetMs = flat.p;
		f->targetWs = st->plantWs[side].p;
		f->targetRotWs = st->plantWs[side].q;
		f->contactWs = lbTransformPoint(st->characterWs, lbContactPoint(b, side, flat, 0.0f));
	}
}

lbResult lbMotionState_Init(lbMotionState* st, const lbSkeleton* s, const lbHumanoid* h, lbTransform characterWs)
{
	if (!st || !h || !s)
		return lbReport(lb_errorNullPointer, "lbMotionState_Init: state, humanoid and skeleton are required");
	if (!lbIsValidTransform(characterWs))
		return lbReport(lb_errorNonFinite, "lbMotionState_Init: characterWs is not a finite transform with non-zero scale");
	if (h->pelvis < 0 || h->pelvis >= s->boneCount || h->leg[0].foot < 0 || h->leg[1].foot >= s->boneCount ||
		h->leg[1].foot < 0 || h->leg[0].foot >= s->boneCount || h->head < 0 || h->head >= s->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbMotionState_Init: humanoid map does not fit the skeleton");
	memset(st, 0, sizeof *st);
	characterWs.q = lbQuatNormalize(characterWs.q);
	st->characterWs = characterWs;
	st->motion = lb_motionRest;
	st->clipRootPrev = lbTransform_identity;
	lbBody b;
	lbBuildBody(h, s, &b);
	lbPlantAtRest(st, &b, h, s);
	st->initialized = 1;
	return lb_ok;
}

// ---------------------------------------------------------------------------------------------
// Upper body: spine counter-rotation and lean, head stabilised, arms hanging with swing.

typedef struct lbUpperBody
{
	float pelvisYaw;  // rad about up
	float chestYaw;   // rad about up, relative to the model frame
	float lean;       // rad about left, positive = forward
	float armSwing[2]; // rad, positive = arm forward
	float elbowFlex[2]; // rad of elbow flexion
	float armOut;      // rad of abduction from hanging straight down
} lbUpperBody;

static void lbPoseUpperBody(lbPose* pose, const lbSkeleton* s, const lbHumanoid* h, const lbBody* b, const lbUpperBody* u)
{
	const int n = h->spineCount;
	for (int k = 0; k < n; ++k)
	{
		int bone = h->spine[k];
		float f = (float)(k + 1) / (float)n;
		float yaw = lbLerpF(u->pelvisYaw, u->chestYaw, f);
		// Rotating about the left axis by a positive angle tips forward onto -up; lean forward = +.
		lbQuat d = lbQuatMul(lbQuatFromAxisAngle(b->up, yaw), lbQuatFromAxisAngle(b->left, u->lean * f));
		lbPose_SetBoneModelRotation(pose, s, bone, lbQuatMul(d, s->restModel[bone].q), true);
	}
	// Head level and looking along the heading.
	lbPose_SetBoneModelRotation(pose, s, h->head, s->restModel[h->head].q, true);
	for (int side = 0; side < 2; ++side)
	{
		const lbArmBones* a = &h->arm[side];
		const lbArmAxes* x = &h->armAxes[side];
		lbVec3 out = side == lb_left ? b->left : lbNeg(b->left);
		lbVec3 hang = lbNormalize(lbAdd(lbNeg(b->up), lbMulSV(tanf(u->armOut), out)));
		// Positive rotation about left moves -up toward -forward (backward); a forward swing is negative.
		lbVec3 dir = lbQuatRotate(lbQuatFromAxisAngle(b->left, -u->armSwing[side]), hang);
		dir = lbQuatRotate(lbQuatFromAxisAngle(b->up, u->chestYaw), dir);
		lbQuat cur = pose->model[a->upperArm].q;
		lbVec3 curDir = lbQuatRotate(cur, x->upperAlong);
		lbPose_SetBoneModelRotation(pose, s, a->upperArm, lbQuatMul(lbQuatFromTo(curDir, dir), cur), true);
		// Elbow flexion relative to the rest bend, about the derived hinge.
		lbVec3 ru = lbQuatRotate(s->restModel[a->upperArm].q, x->upperAlong);
		lbVec3 rf = lbQuatRotate(s->restModel[a->foreArm].q, x->foreAlong);
		float restFlex = acosf(lbClampF(lbDot(ru, rf), -1.0f, 1.0f));
		float delta = u->elbowFlex[side] - restFlex;
		lbQuat fq = lbQuatMul(pose->model[a->foreArm].q, lbQuatFromAxisAngle(x->elbowBendFore, delta));
		lbPose_SetBoneModelRotation(pose, s, a->foreArm, fq, true);
	}
}

static void lbSolveLimb(lbPose* pose, const lbSkeleton* s, const lbHumanoid* h, lbLimb limb, lbVec3 targetMs, lbVec3 poleMs)
{
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = targetMs;
	in.poleKind = lb_poleDirection;
	in.poleMs = poleMs;
	lbPose_SolveLimbIk(pose, s, h, limb, &in, NULL);
}

// Knees track over the toes: a foot turned about up from its rest heading (a stance foot held in
// the world while the body turns) turns the knee's pole with it, so the hip takes the twist instead
// of the ankle. The share the hip takes is capped at 60 degrees either way.
static lbVec3 lbKneePole(const lbSkeleton* s, const lbHumanoid* h, int side, lbQuat footMs, lbVec3 poleMs)
{
	const lbVec3 up = h->upMs, toe = h->legAxes[side].toe;
	lbVec3 rest = lbNormalize(lbProjectOnPlane(lbQuatRotate(s->restModel[h->leg[side].foot].q, toe), up));
	lbVec3 now = lbNormalize(lbProjectOnPlane(lbQuatRotate(footMs, toe), up));
	if (lbLengthSquared(rest) < 0.25f || lbLengthSquared(now) < 0.25f)
		return poleMs;
	float yaw = atan2f(lbDot(up, lbCross(rest, now)), lbDot(rest, now));
	return lbQuatRotate(lbQuatFromAxisAngle(up, lbClampF(yaw, -LB_PI / 3.0f, LB_PI / 3.0f)), poleMs);
}

static void lbSolveLeg(lbPose* pose, const lbSkeleton* s, const lbHumanoid* h, int side, lbTransform footMs, lbVec3 poleMs)
{
	lbSolveLimb(pose, s, h, side == lb_left ? lb_limbLegL : lb_limbLegR, footMs.p, lbKneePole(s, h, side, footMs.q, poleMs));
	lbPose_SetBoneModelRotation(pose, s, h->leg[side].foot, footMs.q, true);
}

static void lbSetPelvis(lbPose* pose, const lbSkeleton* s, const lbHumanoid* h, const lbBody* b, lbVec3 offset, float yaw,
						float roll, float pitch)
{
	lbTransform p = s->restModel[h->pelvis];
	p.p = lbAdd(p.p, offset);
	lbQuat d = lbQuatMul(lbQuatFromAxisAngle(b->up, yaw),
						 lbQuatMul(lbQuatFromAxisAngle(b->fwd, roll), lbQuatFromAxisAngle(b->left, pitch)));
	p.q = lbQuatMul(d, p.q);
	lbPose_SetBoneModel(pose, s, h->pelvis, p, true);
}

static void lbUpdateFootInfo(lbMotionState* st, const lbBody* b, int side, lbTransform footMs, float roll, bool planted,
							 float phase, float timeToSwitch, lbTransform targetFlatMs)
{
	lbFootPhase* f = &st->feet[side];
	f->planted = planted;
	f->phase = phase;
	f->timeToSwitch = timeToSwitch;
	f->roll = roll;
	lbTransform tw = planted ? st->plantWs[side] : lbTransformMul(st->characterWs, targetFlatMs);
	f->targetWs = tw.p;
	f->targetRotWs = tw.q;
	f->targetMs = lbInvTransformPoint(st->characterWs, tw.p);
	f->contactWs = lbTransformPoint(st->characterWs, lbContactPoint(b, side, footMs, roll));
}

// A planted limb holds its place in the world across the ground plane, but rides along the up
// axis with the character: the base motion knows no terrain, its ground is the model floor, so
// when the caller raises or lowers the character (a controller easing up a stair or a slope) a
// foot held at the old height would leave the leg hanging below the floor (the pelvis then drops
// to reach it and jumps back at lift-off). Putting the limb on the surface is the foot system's
// job. heightMs is the limb's planted height along the model up.
static lbTransform lbCarryPlant(lbMotionState* st, const lbBody* b, int limb, float heightMs)
{
	lbTransform ms = lbTransformMul(lbTransformInverse(st->characterWs), st->plantWs[limb]);
	ms.p = lbMulAdd(ms.p, heightMs - lbDot(ms.p, b->up), b->up);
	st->plantWs[limb] = lbTransformMul(st->characterWs, ms);
	return ms;
}

// Moves the character frame along its forward and turns it about its up (world).
static void lbAdvanceCharacter(lbMotionState* st, const lbBody* b, float dt)
{
	lbVec3 upWs = lbTransformDirection(st->characterWs, b->up);
	float dYaw = st->turnRate * dt;
	lbQuat half = lbQuatFromAxisAngle(upWs, 0.5f * dYaw);
	lbVec3 fwdWs = lbQuatRotate(half, lbTransformDirection(st->characterWs, b->fwd));
	st->characterWs.p = lbMulAdd(st->characterWs.p, st->speed * dt, fwdWs);
	st->characterWs.q = lbQuatNormalize(lbQuatMul(lbQuatFromAxisAngle(upWs, dYaw), st->characterWs.q));
}

// ---------------------------------------------------------------------------------------------
// Idle

static void lbSampleIdle(lbMotionState* st, const lbHumanoid* h, const lbSkeleton* s, const lbBody* b,
						 const lbMotionDef* p, lbPose* pose)
{
	lbPose_SetRest(pose, s);
	float period = p->idlePeriod > 0.1f ? p->idlePeriod : 4.0f;
	float w = 2.0f * LB_PI * st->time / period;
	float sway = p->idleSway * sinf(w);
	// The pelvis dips slightly as weight passes between the feet, and sits a little lower than
	// rest so the knees are soft.
	float dip = 0.012f + 0.006f * (0.5f - 0.5f * cosf(2.0f * w));
	lbVec3 off = lbAdd(lbMulSV(sway, b->left), lbMulSV(-dip, b->up));
	lbSetPelvis(pose, s, h, b, off, 0.03f * sinf(w), -0.02f * sinf(w), 0.0f);
	float breathe = 0.012f * sinf(2.0f * LB_PI * st->time / 4.5f);
	lbUpperBody u = { 0.03f * sinf(w), 0.0f, breathe, { 0.0f, 0.0f }, { 0.2f, 0.2f }, 6.0f * LB_DEG2RAD };
	lbPoseUpperBody(pose, s, h, b, &u);
	for (int side = 0; side < 2; ++side)
	{
		lbTransform foot = lbCarryPlant(st, b, side, lbDot(b->neutralAnkle[side], b->up));
		lbVec3 pole = b->fwd;
		lbSolveLeg(pose, s, h, side, foot, pole);
		lbUpdateFootInfo(st, b, side, foot, 0.0f, true, 0.0f, 0.0f, foot);
	}
}

// ---------------------------------------------------------------------------------------------
// Walk and run

static void lbSampleGait(lbMotionState* st, const lbHumanoid* h, const lbSkeleton* s, const lbBody* b,
						 const lbMotionDef* p, float dt, bool run, lbPose* pose)
{
	float target = lbClampF(p->speed, 0.0f, run ? 12.0f : 3.0f);
	st->speed = lbInterpTo(st->speed, target, dt, p->acceleration);
	st->turnRate = lbInterpTo(st->turnRate, lbClampF(p->turnRate, -6.0f, 6.0f), dt, p->acceleration);
	float stride, rate;
	lbGaitStride(st->speed, b->legLength, run, &stride, &rate);
	st->strideLength = stride;
	st->cycleRate = rate;
	// Walking stance shortens from ~62% to ~56% of the cycle with speed; running spends ~35%.
	float duty = run ? lbRemapClamped(st->speed, 2.0f, 6.0f, 0.42f, 0.32f) : lbRemapClamped(st->speed, 0.5f, 2.2f, 0.62f, 0.56f);
	st->dutyFactor = duty;
	lbAdvanceCharacter(st, b, dt);
	// Stopping a walk: once slow, the cycle holds in the next double support (both feet down)
	// instead of stepping in place; it resumes when a speed is asked for again.
	float half = st->cyclePhase - 0.5f * floorf(2.0f * st->cyclePhase);
	bool hold = !run && target < 0.05f && st->speed < 0.1f && lbAbsF(p->turnRate) < 0.05f && lbAbsF(st->turnRate) < 0.1f &&
				half > 0.02f && half < duty - 0.5f - 0.02f;
	if (!hold)
	{
		st->cyclePhase += rate * dt;
		st->cyclePhase -= floorf(st->cyclePhase);
	}

	const float legL = b->legLength;
	const float stanceHalf = 0.5f * duty * stride; // foot travel relative to the hip during stance / 2
	float lift = (p->footLift >= 0.0f ? p->footLift : (run ? 0.25f : 0.12f)) * legL;
	lift *= lbClampF(st->speed / 0.6f, 0.35f, 1.0f);
	const float heelStrike = run ? 0.0f : -20.0f * LB_DEG2RAD * lbClampF(st->speed / 1.2f, 0.3f, 1.0f);
	const float toeOff = (run ? 30.0f : 40.0f) * LB_DEG2RAD * lbClampF(st->speed / 1.2f, 0.3f, 1.0f);
	const float width = run ? 0.55f : 0.9f;

	// Feet first: locked in world space during stance, on their swing curve otherwise.
	lbTransform feet[2], flatTargets[2];
	lbTransform landing[2];
	float rolls[2], phases[2], switchTimes[2];
	bool plantedNow[2];
	for (int side = 0; side < 2; ++side)
	{
		float phi = st->cyclePhase - (side == lb_left ? 0.0f : 0.5f);
		phi -= floorf(phi);
		lbVec3 neutral = b->neutralAnkle[side];
		float lat = lbDot(neutral, b->left);
		neutral = lbMulAdd(neutral, (width - 1.0f) * lat, b->left);
		// The heel and forefoot rockers carry the ankle forward by part of a foot length during
		// stance; the flat target sits that much behind half the stance travel.
		float rocker = run ? 0.0f : 0.25f * lbMaxF(h->legAxes[side].footLength, 0.15f * legL) * lbClampF(st->speed / 1.2f, 0.0f, 1.0f);
		lbTransform flatTarget = lbFlatFoot(b, side, lbMulAdd(neutral, stanceHalf - rocker, b->fwd), 0.0f);
		bool planted = phi < duty;
		float roll;
		lbTransform foot;
		float phase, timeToSwitch;
		landing[side] = flatTarget;
		if (planted)
		{
			float uS = phi / duty;
			if (!st->limbPlanted[side])
			{
				st->plantWs[side] = lbTransformMul(st->characterWs, flatTarget);
				st->limbPlanted[side] = true;
			}
			if (run)
				roll = uS > LB_RUN_HEEL_OFF_U ? toeOff * lbSmoothStep((uS - LB_RUN_HEEL_OFF_U) / (1.0f - LB_RUN_HEEL_OFF_U)) : 0.0f;
			else if (uS < LB_FOOT_FLAT_U)
				roll = heelStrike * (1.0f - lbSmoothStep(uS / LB_FOOT_FLAT_U));
			else if (uS > LB_HEEL_OFF_U)
				roll = toeOff * lbSmoothStep((uS - LB_HEEL_OFF_U) / (1.0f - LB_HEEL_OFF_U));
			else
				roll = 0.0f;
			foot = lbRollFoot(b, side, lbCarryPlant(st, b, side, lbDot(flatTarget.p, b->up)), roll);
			phase = uS;
			timeToSwitch = (duty - phi) / rate;
		}
		else
		{
			float w = (phi - duty) / (1.0f - duty);
			if (st->limbPlanted[side])
			{
				// Lift-off: start the swing from where the foot is now (model space).
				st->swingStartMs[side] = lbRollFoot(b, side, lbCarryPlant(st, b, side, lbDot(flatTarget.p, b->up)), toeOff);
				st->limbPlanted[side] = false;
			}
			lbTransform end = lbRollFoot(b, side, flatTarget, heelStrike);
			landing[side] = end;
			lbTransform start = st->swingStartMs[side];
			float k = lbSmoothStep(w);
			foot.p = lbLerp(start.p, end.p, k);
			foot.p = lbMulAdd(foot.p, lift * sinf(LB_PI * w), b->up);
			// Swing the foot out around the stance leg a little so the feet never cross.
			foot.p = lbMulAdd(foot.p, (side == lb_left ? 1.0f : -1.0f) * 0.01f * sinf(LB_PI * w), b->left);
			foot.q = lbQuatNormalize(lbQuatSlerp(start.q, end.q, k));
			foot.s = start.s;
			roll = lbLerpF(toeOff, heelStrike, k);
			phase = w;
			timeToSwitch = (1.0f - phi) / rate;
		}
		feet[side] = foot;
		flatTargets[side] = flatTarget;
		rolls[side] = roll;
		phases[side] = phase;
		switchTimes[side] = timeToSwitch;
		plantedNow[side] = planted;
	}

	// Pelvis: sway toward the stance foot, turn with the swinging leg, and sit as high as the
	// legs allow (a soft knee at mid-stance). Walking vaults over the stance leg, so the height
	// limit from the feet gives the dip at double support; running adds its own bob (lowest at
	// mid-stance).
	float phiMid = st->cyclePhase - 0.5f * duty; // 0 at left mid-stance
	float sway = (run ? 0.012f : 0.025f) * p->bodyMotion * cosf(2.0f * LB_PI * phiMid) * lbClampF(1.6f - 0.4f * st->speed, 0.3f, 1.0f);
	float pelvisYaw = 6.0f * LB_DEG2RAD * p->bodyMotion * lbClampF(st->speed / 1.4f, 0.0f, 1.3f) * -cosf(2.0f * LB_PI * st->cyclePhase);
	float pelvisRoll = -3.0f * LB_DEG2RAD * p->bodyMotion * cosf(2.0f * LB_PI * phiMid);
	float pelvisPitch = (run ? 6.0f : 2.0f) * LB_DEG2RAD;
	float crouch = (run ? 0.06f : 0.015f) * legL;
	float bob = run ? -0.035f * p->bodyMotion * lbClampF(st->speed / 3.0f, 0.2f, 1.3f) * cosf(4.0f * LB_PI * phiMid) : 0.0f;
	float height = bob - crouch;
	lbTransform pelvisRest = s->restModel[h->pelvis];
	lbQuat pelvisQ = lbQuatMul(lbQuatFromAxisAngle(b->up, pelvisYaw),
							   lbQuatMul(lbQuatFromAxisAngle(b->fwd, pelvisRoll), lbQuatFromAxisAngle(b->left, pelvisPitch)));
	pelvisQ = lbQuatMul(pelvisQ, pelvisRest.q);
	lbTransform pelvisAt0 = lbMakeTransform(lbMulAdd(pelvisRest.p, sway, b->left), pelvisQ);
	for (int side = 0; side < 2; ++side)
	{
		// A running swing leg may fold under a high pelvis; it bounds the height only as it nears
		// its landing, so the pelvis sinks into the touchdown instead of dropping at it.
		float slack = 0.0f;
		lbVec3 footP = feet[side].p;
		if (run && !plantedNow[side])
		{
			footP = landing[side].p;
			slack = 0.3f * legL * (1.0f - lbSmoothStep(phases[side]));
		}
		lbVec3 hipLocal = lbInvTransformPoint(pelvisRest, s->restModel[h->leg[side].thigh].p);
		lbVec3 d = lbSub(lbTransformPoint(pelvisAt0, hipLocal), footP);
		float dv = lbDot(d, b->up);
		float dh2 = lbLengthSquared(lbProjectOnPlane(d, b->up));
		float r = 0.995f * (h->legAxes[side].thighLength + h->legAxes[side].calfLength);
		// A run's pelvis passes from the reach limit of the landing leg to its own bob early in
		// stance; a hard minimum kinks there and snaps the knee by over 12 degrees in a frame at
		// 3.5 m/s. A smooth minimum (never above the limit) rounds the corner. A walk's vault over
		// the stance leg is the limit itself and stays exact.
		if (dh2 < r * r)
			height = lbSmoothMinF(height, sqrtf(r * r - dh2) - dv + slack, run ? 0.07f * legL : 0.0f);
	}
	lbPose_SetRest(pose, s);
	lbSetPelvis(pose, s, h, b, lbAdd(lbMulSV(height, b->up), lbMulSV(sway, b->left)), pelvisYaw, pelvisRoll, pelvisPitch);
	float armA = (run ? 25.0f : 18.0f) * LB_DEG2RAD * p->armSwing * lbClampF(st->speed / 1.4f, 0.0f, 1.3f);
	float armL = -armA * cosf(2.0f * LB_PI * st->cyclePhase); // left arm back when the left heel strikes
	float flexBase = run ? 1.4f : 0.25f;
	lbUpperBody u = { pelvisYaw, -0.8f * pelvisYaw, (run ? 8.0f : 2.0f) * LB_DEG2RAD,
					  { armL, -armL },
					  { flexBase + 0.3f * lbMaxF(armL, 0.0f), flexBase + 0.3f * lbMaxF(-armL, 0.0f) },
					  6.0f * LB_DEG2RAD };
	lbPoseUpperBody(pose, s, h, b, &u);

	for (int side = 0; side < 2; ++side)
	{
		lbVec3 pole = lbQuatRotate(lbQuatFromAxisAngle(b->up, pelvisYaw), b->fwd);
		lbSolveLeg(pose, s, h, side, feet[side], pole);
		// Heel-off bends the toes at the ball joint so they stay flat on the ground; the bend
		// relaxes during the first third of the swing instead of snapping back at lift-off.
		float toeBend = plantedNow[side] ? lbMaxF(rolls[side], 0.0f) : toeOff * (1.0f - lbSmoothStep(lbMinF(phases[side] / 0.3f, 1.0f)));
		if (toeBend > 0.0f && h->leg[side].ball != LB_NULL_INDEX)
		{
			int ball = h->leg[side].ball;
			lbVec3 lateralMs = lbQuatRotate(pose->model[h->leg[side].foot].q, b->lateralLocal[side]);
			lbQuat q = lbQuatMul(lbQuatFromAxisAngle(lateralMs, -toeBend), pose->model[ball].q);
			lbPose_SetBoneModelRotation(pose, s, ball, q, true);
		}
		lbUpdateFootInfo(st, b, side, feet[side], rolls[side], plantedNow[side], phases[side], switchTimes[side], flatTargets[side]);
	}
}

// ---------------------------------------------------------------------------------------------
// Prone and crawl

static void lbSampleProne(lbMotionState* st, const lbHumanoid* h, const lbSkeleton* s, const lbBody* b,
						  const lbMotionDef* p, float dt, bool crawl, lbPose* pose)
{
	float speed = 0.0f;
	float rate = 0.0f;
	if (crawl)
	{
		st->speed = lbInterpTo(st->speed, lbClampF(p->speed, 0.0f, 1.0f), dt, p->acceleration);
		st->turnRate = lbInterpTo(st->turnRate, lbClampF(p->turnRate, -2.0f, 2.0f), dt, p->acceleration);
		speed = st->speed;
		// A crawl cycle advances about a third of a leg length; a minimum rate keeps limbs moving.
		st->strideLength = lbMaxF(0.33f * b->legLength, 0.05f);
		rate = lbMaxF(speed / st->strideLength, 0.4f);
		st->strideLength = speed / rate;
		st->cycleRate = rate;
		st->dutyFactor = 0.6f;
		lbAdvanceCharacter(st, b, dt);
		st->cyclePhase += rate * dt;
		st->cyclePhase -= floorf(st->cyclePhase);
	}
	else
	{
		st->speed = 0.0f;
		st->turnRate = 0.0f;
		st->cycleRate = 0.0f;
		st->strideLength = 0.0f;
		st->dutyFactor = 1.0f;
	}
	lbPose_SetRest(pose, s);
	// Lay the body face down: a quarter turn about the character's left takes up to forward.
	const float pelvisAbove = 0.06f * h->height;
	float phi = st->cyclePhase;
	float sway = crawl ? 0.03f * sinf(2.0f * LB_PI * phi) : 0.0f;
	float yaw = crawl ? 6.0f * LB_DEG2RAD * sinf(2.0f * LB_PI * phi) : 0.0f;
	lbTransform pel = s->restModel[h->pelvis];
	lbVec3 pelGround = lbSub(pel.p, lbMulSV(lbDot(pel.p, b->up) - b->floorH, b->up));
	lbTransform laid;
	laid.q = lbQuatMul(lbQuatFromAxisAngle(b->up, yaw), lbQuatMul(lbQuatFromAxisAngle(b->left, 0.5f * LB_PI), pel.q));
	laid.p = lbAdd(lbMulAdd(pelGround, pelvisAbove, b->up), lbMulSV(sway, b->left));
	laid.s = pel.s;
	lbPose_SetBoneModel(pose, s, h->pelvis, laid, true);
	// Chest counter-turns; the head lifts to look ahead.
	for (int k = 0; k < h->spineCount; ++k)
	{
		int bone = h->spine[k];
		float f = (float)(k + 1) / (float)h->spineCount;
		lbQuat d = lbQuatMul(lbQuatFromAxisAngle(b->up, yaw * (1.0f - 1.8f * f)), lbQuatFromAxisAngle(b->left, 0.5f * LB_PI));
		lbPose_SetBoneModelRotation(pose, s, bone, lbQuatMul(d, s->restModel[bone].q), true);
	}
	lbVec3 face = lbNormalize(lbAdd(lbMulSV(0.8f, b->fwd), lbMulSV(-0.6f, b->up)));
	lbVec3 crown = lbNormalize(lbAdd(lbMulSV(0.6f, b->fwd), lbMulSV(0.8f, b->up)));
	lbPose_SetBoneModelRotation(pose, s, h->head, lbQuatFromTwoAxes(h->headForward, face, h->headUp, crown), true);

	const float halfStep = 0.5f * st->strideLength * 0.6f;
	// Limbs 0,1 = legs, 2,3 = arms. Contralateral pairs move together: left arm with right leg.
	for (int limb = 0; limb < 4; ++limb)
	{
		bool arm = limb >= 2;
		int side = limb & 1;
		lbVec3 out = side == lb_left ? b->left : lbNeg(b->left);
		const lbVec3 hip = pose->model[arm ? h->arm[side].upperArm : h->leg[side].thigh].p;
		lbVec3 hipGround = lbSub(hip, lbMulSV(lbDot(hip, b->up) - b->floorH, b->up));
		lbTransform neutral;
		lbVec3 pole;
		if (arm)
		{
			const lbArmAxes* x = &h->armAxes[side];
			float reach = x->upperLength + x->foreLength;
			lbVec3 pos = lbAdd(hipGround, lbAdd(lbMulSV(0.45f * reach, b->fwd), lbMulSV(0.3f * reach, out)));
			pos = lbMulAdd(pos, 0.05f, b->up);
			neutral = lbMakeTransform(pos, lbQuat_identity);
			pole = lbNormalize(lbAdd(out, lbMulSV(-0.3f, b->up)));
		}
		else
		{
			// Legs lie nearly straight back, slightly apart; the rest of the reach is horizontal so
			// the knee does not dip into the floor. Crawling knees bend outward.
			float reach = 0.995f * b->legLength;
			float ankleH = 0.6f * h->legAxes[side].ankleHeight;
			float dv = lbDot(hip, b->up) - b->floorH - ankleH;
			float lat = 0.18f * reach;
			float back = sqrtf(lbMaxF(reach * reach - dv * dv - lat * lat, 0.25f * reach * reach));
			if (crawl)
				back -= halfStep;
			lbVec3 pos = lbAdd(hipGround, lbAdd(lbMulSV(-back, b->fwd), lbMulSV(lat, out)));
			pos = lbMulAdd(pos, ankleH, b->up);
			neutral = lbMakeTransform(pos, lbQuat_identity);
			pole = crawl ? lbNormalize(lbAdd(out, lbMulSV(-0.1f, b->up))) : lbNormalize(lbAdd(lbMulSV(-0.3f, b->up), out));
		}
		float lphi = phi - ((limb == 2 || limb == 1) ? 0.0f : 0.5f);
		lphi -= floorf(lphi);
		const float duty = 0.6f;
		lbVec3 targetMs = neutral.p;
		bool planted = true;
		float phase = 0.0f, tts = 0.0f;
		if (crawl)
		{
			// The leg's knee draws up toward the hip while it swings forward.
			lbTransform fwdTarget = neutral;
			fwdTarget.p = lbMulAdd(neutral.p, halfStep * (arm ? 1.0f : 1.0f), b->fwd);
			if (lphi < duty)
			{
				if (!st->limbPlanted[limb])
				{
					st->plantWs[limb] = lbTransformMul(st->characterWs, fwdTarget);
					st->limbPlanted[limb] = true;
				}
				targetMs = lbCarryPlant(st, b, limb, lbDot(fwdTarget.p, b->up)).p;
				phase = lphi / duty;
				tts = (duty - lphi) / rate;
			}
			else
			{
				float w = (lphi - duty) / (1.0f - duty);
				if (st->limbPlanted[limb])
				{
					st->swingStartMs[limb] = lbMakeTransform(lbCarryPlant(st, b, limb, lbDot(fwdTarget.p, b->up)).p, lbQuat_identity);
					st->limbPlanted[limb] = false;
				}
				float k = lbSmoothStep(w);
				targetMs = lbLerp(st->swingStartMs[limb].p, fwdTarget.p, k);
				targetMs = lbMulAdd(targetMs, 0.05f * sinf(LB_PI * w), b->up);
				planted = false;
				phase = w;
				tts = (1.0f - lphi) / rate;
			}
		}
		else
		{
			st->plantWs[limb] = lbTransformMul(st->characterWs, neutral);
			st->limbPlanted[limb] = true;
		}
		if (arm)
		{
			const lbArmBones* a = &h->arm[side];
			const lbArmAxes* x = &h->armAxes[side];
			lbSolveLimb(pose, s, h, side == lb_left ? lb_limbArmL : lb_limbArmR, targetMs, pole);
			// Palm down on the ground, fingers forward.
			lbQuat hq = lbQuatFromTwoAxes(x->finger, lbNormalize(lbAdd(b->fwd, lbMulSV(-0.3f, out))), x->palm, lbNeg(b->up));
			lbPose_SetBoneModelRotation(pose, s, a->hand, hq, true);
		}
		else
		{
			const lbLegAxes* x = &h->legAxes[side];
			const lbLegBones* g = &h->leg[side];
			lbSolveLimb(pose, s, h, side == lb_left ? lb_limbLegL : lb_limbLegR, targetMs, pole);
			// Toes point back and down, the top of the foot toward the ground.
			lbVec3 toeDir = lbNormalize(lbAdd(lbNeg(b->fwd), lbMulSV(-0.35f, b->up)));
			lbQuat fq = lbQuatFromTwoAxes(x->toe, toeDir, x->footUp, lbNeg(b->up));
			lbPose_SetBoneModelRotation(pose, s, g->foot, fq, true);
			lbTransform footMs = pose->model[g->foot];
			lbFootPhase* f = &st->feet[side];
			f->planted = planted;
			f->phase = phase;
			f->timeToSwitch = tts;
			f->roll = 0.0f;
			lbTransform tw = lbTransformMul(st->characterWs, lbMakeTransform(targetMs, footMs.q));
			f->targetWs = tw.p;
			f->targetRotWs = tw.q;
			f->targetMs = targetMs;
			f->contactWs = lbTransformPoint(st->characterWs, footMs.p);
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Clip with root motion

static void lbSampleClipMotion(lbMotionState* st, const lbHumanoid* h, const lbSkeleton* s, const lbBody* b,
							   const lbMotionDef* p, float dt, bool fresh, lbPose* pose)
{
	const lbClip* clip = p->clip;
	lbClipWrap wrap = p->loop ? lb_clipLoop : lb_clipClamp;
	float dur = clip->duration;
	if (fresh)
	{
		st->clipTime = 0.0f;
		lbSampleClip(clip, s, 0.0f, wrap, pose);
		st->clipRootPrev = lbComputeRootFrame(pose, h);
	}
	float prevRaw = st->clipTime;
	float t = prevRaw + (fresh ? 0.0f : dt * p->playRate);
	bool wrapped = false;
	if (p->loop && dur > 0.0f)
	{
		while (t >= dur)
		{
			t -= dur;
			wrapped = true;
		}
		while (t < 0.0f)
		{
			t += dur;
			wrapped = true;
		}
	}
	else
	{
		t = lbClampF(t, 0.0f, dur);
	}
	lbTransform delta = lbTransform_identity;
	if (wrapped)
	{
		// Carry the travel across the loop seam: previous -> end, then start -> now.
		bool forward = p->playRate >= 0.0f;
		lbSampleClip(clip, s, forward ? dur : 0.0f, lb_clipClamp, pose);
		lbTransform edgeA = lbComputeRootFrame(pose, h);
		lbSampleClip(clip, s, forward ? 0.0f : dur, lb_clipClamp, pose);
		lbTransform edgeB = lbComputeRootFrame(pose, h);
		delta = lbTransformMul(lbTransformInverse(st->clipRootPrev), edgeA);
		st->clipRootPrev = edgeB;
	}
	lbSampleClip(clip, s, t, lb_clipClamp, pose);
	st->clipTime = t;
	lbTransform ref = lbComputeRootFrame(pose, h);
	if (p->rootMotion)
	{
		delta = lbTransformMul(delta, lbTransformMul(lbTransformInverse(st->clipRootPrev), ref));
		st->characterWs = lbTransformMul(st->characterWs, delta);
		st->characterWs.q = lbQuatNormalize(st->characterWs.q);
		// Play in place: remove the root frame from every root bone.
		lbTransform inv = lbTransformInverse(ref);
		for (int k = 0; k < s->boneCount; ++k)
		{
			if (s->parents[k] == LB_NULL_INDEX)
				pose->local[k] = lbTransformMul(inv, pose->local[k]);
		}
		lbPose_LocalToModel(pose, s);
	}
	st->clipRootPrev = ref;
	// Feet: planted when low and nearly still in world space.
	for (int side = 0; side < 2; ++side)
	{
		lbTransform foot = pose->model[h->leg[side].foot];
		lbVec3 ws = lbTransformPoint(st->characterWs, foot.p);
		lbFootPhase* f = &st->feet[side];
		float height = lbDot(foot.p, b->up) - b->floorH - h->legAxes[side].ankleHeight;
		float moved = fresh ? 0.0f : lbDistance(ws, f->targetWs) / lbMaxF(dt, 1.0e-4f);
		bool planted = height < 0.05f && moved < 0.5f;
		f->phase = planted == f->planted ? f->phase : 0.0f;
		f->planted = planted;
		f->timeToSwitch = 0.0f;
		f->roll = 0.0f;
		f->targetWs = ws;
		f->targetRotWs = lbQuatMul(st->characterWs.q, foot.q);
		f->targetMs = foot.p;
		f->contactWs = lbTransformPoint(st->characterWs, lbContactPoint(b, side, foot, 0.0f));
	}
}

// ---------------------------------------------------------------------------------------------

lbResult lbMotion_Sample(lbMotionState* st, const lbSkeleton* s, const lbHumanoid* h, const lbMotionDef* p, float dt,
						 lbPose* pose)
{
	if (!st || !h || !s || !p || !pose || !pose->local || !pose->model)
		return lbReport(lb_errorNullPointer, "lbMotion_Sample: state, humanoid, skeleton, params and pose are required");
	if (p->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbMotion_Sample: params not initialised with lbDefaultMotionDef()");
	if (!st->initialized)
		return lbReport(lb_errorInvalidArgument, "lbMotion_Sample: state not initialised with lbMotionState_Init()");
	if (pose->boneCount != s->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbMotion_Sample: pose has %d bones, skeleton %d", pose->boneCount,
						s->boneCount);
	if (!lbIsValidFloat(dt) || dt <= 0.0f || dt > 1.0f)
		return lbReport(lb_errorInvalidArgument, "lbMotion_Sample: dt %g must be in (0, 1] s", (double)dt);
	if (p->motion < 0 || p->motion >= lb_motionCount)
		return lbReport(lb_errorInvalidArgument, "lbMotion_Sample: unknown motion %d", (int)p->motion);
	if (!lbIsValidFloat(p->speed) || !lbIsValidFloat(p->turnRate) || !lbIsValidFloat(p->acceleration) ||
		!lbIsValidFloat(p->armSwing) || !lbIsValidFloat(p->bodyMotion) || !lbIsValidFloat(p->idleSway) ||
		!lbIsValidFloat(p->idlePeriod) || !lbIsValidFloat(p->footLift) || !lbIsValidFloat(p->playRate))
		return lbReport(lb_errorNonFinite, "lbMotion_Sample: a parameter is NaN or infinite");
	if (p->motion == lb_motionClip)
	{
		if (!p->clip)
			return lbReport(lb_errorNullPointer, "lbMotion_Sample: motion \"clip\" needs params.clip");
		if (p->motion != st->motion || p->clip != (const lbClip*)st->clipSeen)
		{
			lbResult r = lbValidateClip(p->clip, s);
			if (r != lb_ok)
				return r;
		}
	}
	lbVec3 startWs = st->characterWs.p;
	lbBody b;
	lbBuildBody(h, s, &b);
	bool fresh = p->motion != st->motion || (p->motion == lb_motionClip && p->clip != (const lbClip*)st->clipSeen);
	if (fresh)
	{
		lbBaseMotion prev = st->motion;
		st->motion = p->motion;
		st->time = 0.0f;
		st->cyclePhase = 0.0f;
		if (prev == lb_motionProne || prev == lb_motionCrawl || p->motion == lb_motionProne || p->motion == lb_motionCrawl)
		{
			for (int k = 0; k < 4; ++k)
				st->limbPlanted[k] = false;
		}
		else
		{
			lbPlantAtRest(st, &b, h, s);
			// The walk starts with the right foot already planted and the left about to strike.
			st->limbPlanted[lb_left] = false;
			st->swingStartMs[lb_left] = lbFlatFoot(&b, lb_left, b.neutralAnkle[lb_left], 0.0f);
		}
		st->clipSeen = p->motion == lb_motionClip ? (const void*)p->clip : NULL;
		// Walk and run start with the left foot lifting off and the right one planted.
		if (p->motion == lb_motionWalk)
			st->cyclePhase = 0.62f;
		else if (p->motion == lb_motionRun)
			st->cyclePhase = 0.42f;
	}
	else
	{
		st->time += dt;
	}
	switch (p->motion)
	{
		case lb_motionRest:
			lbPose_SetRest(pose, s);
			for (int side = 0; side < 2; ++side)
			{
				lbTransform foot = pose->model[h->leg[side].foot];
				lbUpdateFootInfo(st, &b, side, foot, 0.0f, true, 0.0f, 0.0f, foot);
			}
			break;
		case lb_motionIdle:
			if (fresh)
				lbPlantAtRest(st, &b, h, s);
			lbSampleIdle(st, h, s, &b, p, pose);
			break;
		case lb_motionWalk:
		case lb_motionRun:
			lbSampleGait(st, h, s, &b, p, dt, p->motion == lb_motionRun, pose);
			break;
		case lb_motionProne:
		case lb_motionCrawl:
			lbSampleProne(st, h, s, &b, p, dt, p->motion == lb_motionCrawl, pose);
			break;
		case lb_motionClip:
			lbSampleClipMotion(st, h, s, &b, p, dt, fresh, pose);
			break;
		default:
			break;
	}
	st->velocityWs = lbMulSV(1.0f / dt, lbSub(st->characterWs.p, startWs));
	return lb_ok;
}

lbTransform lbCharacterTransform(const lbHumanoid* humanoid, lbVec3 positionWs, lbVec3 headingWs, lbVec3 upWs)
{
	lbVec3 up = lbNormalize(upWs);
	if (!humanoid || !lbIsValidVec3(positionWs) || !lbIsValidVec3(headingWs) || lbLengthSquared(up) == 0.0f)
		return lbMakeTransform(lbIsValidVec3(positionWs) ? positionWs : lbVec3_zero, lbQuat_identity);
	lbQuat upOnly = lbQuatFromTo(humanoid->upMs, up);
	lbVec3 heading = lbProjectOnPlane(headingWs, up);
	if (lbLengthSquared(heading) < 1e-12f)
		return lbMakeTransform(positionWs, upOnly);
	return lbMakeTransform(positionWs, lbQuatFromTwoAxes(humanoid->upMs, up, humanoid->forwardMs, heading));
}
