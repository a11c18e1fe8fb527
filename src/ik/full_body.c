// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Full-body IK for a humanoid, in two stages.
//
// 1. Body: the pelvis translation, the pelvis rotation and one spine rotation (spread over the
//    spine bones by their stiffness) form a 9-DoF vector x. x is found by damped least squares
//    (Levenberg-Marquardt; Wampler, "Manipulator inverse kinematic solutions based on vector
//    formulations and damped least-squares methods", IEEE SMC 16(1), 1986; Buss, "Introduction to
//    inverse kinematics with Jacobian transpose, pseudoinverse and damped least squares methods",
//    2004) with per-DoF weights: each active limb contributes a residual when its target lies
//    beyond reachFraction of the limb's length from the shoulder or hip (or closer than the knee
//    or elbow can fold), the head and pelvis effectors contribute their position error, and the
//    stiffness of each DoF pulls x back to the input pose (Tikhonov regularisation). Travel and
//    rotation limits clamp x after every step (projected Gauss-Newton).
// 2. Limbs: each active limb is then solved exactly by the analytic two-bone solver toward its
//    goal, with the knee or elbow hinge taken from lbHumanoid (so it always bends the anatomical
//    way) and a preferred pole carried by the pelvis (legs) or chest (arms). If the thigh or upper
//    arm would leave its rotation limit, the limb is turned about the root-goal line (the swivel
//    angle of Tolani, Goswami and Badler, "Real-time inverse kinematics techniques for
//    anthropomorphic limbs", Graphical Models 62, 2000), which keeps the end on its goal, until
//    it fits (5-degree steps, then a golden-section search within a step); limits are then
//    enforced.
// 3. Held limbs: the body stage's reach residuals know the limb lengths but not the limb limits,
//    so it can settle where no swivel of a limb fits its root's limit (a thigh twist or side
//    angle, say), and the clamp then leaves that limb's end off its goal. Such a limb is held in
//    the next round: its root rotation (3 DoF) and mid bend (1 DoF) join the 9 body unknowns,
//    its end is pulled onto the goal with exact Jacobians, and its rotations are projected back
//    into their limits after each step, with stiff rows against turning further out along a limit
//    it is on (an active set, so steps slide along the limit instead of being clamped back). Body
//    and limb are thus solved together with the limits in the model; the limb stage then only
//    lands the end. Up to LB_FULL_BODY_IK_ROUNDS rounds; the round with the smallest largest limb
//    error is kept.
// When targets are reachable together, the body stage brings every goal within reach, the limb
// stage lands every end on its goal, and the held rounds handle what the limits forbid.
#include "core/rig_key.h"
#include "full_body_internal.h"
#include "ik_internal.h"

#include <stddef.h>
#include <string.h>

enum
{
	LB_FBIK_DOF = 9,        // body unknowns
	LB_FBIK_LIMB_DOF = 4,   // unknowns of a held limb: root rotation and mid bend
	LB_FBIK_MAX_DOF = LB_FBIK_DOF + 4 * LB_FBIK_LIMB_DOF,
	LB_FBIK_MAX_ROWS = 24,
	LB_FBIK_MAX_UPDATE = 64,
	LB_FBIK_MAX_CHAIN = 8,
};

static lbJointLimit lbLimitRanges(float bMin, float bMax, float sMin, float sMax, float tMin, float tMax)
{
	lbJointLimit l = { lb_limitRanges, bMin * LB_DEG2RAD, bMax * LB_DEG2RAD, sMin * LB_DEG2RAD, sMax * LB_DEG2RAD, 0.0f,
					   tMin * LB_DEG2RAD, tMax * LB_DEG2RAD };
	return l;
}

static lbJointLimit lbLimitCone(float swing, float tMin, float tMax)
{
	lbJointLimit l = { lb_limitCone, 0.0f, 0.0f, 0.0f, 0.0f, swing * LB_DEG2RAD, tMin * LB_DEG2RAD, tMax * LB_DEG2RAD };
	return l;
}

lbFullBodyIkDef lbDefaultFullBodyIkDef(void)
{
	lbFullBodyIkDef s;
	memset(&s, 0, sizeof s);
	s.iterations = 20;
	s.tolerance = 1.0e-3f;
	for (int r = 0; r < lb_roleCount; ++r)
		s.stiffness[r] = 0.0f;
	s.stiffness[lb_rolePelvis] = 0.3f;
	for (int r = lb_roleSpine1; r <= lb_roleSpine4; ++r)
		s.stiffness[r] = 0.5f;
	s.pelvisTranslationStiffness = 0.2f;
	for (int side = 0; side < 2; ++side)
	{
		int o = side == 0 ? 0 : (lb_roleClavicleR - lb_roleClavicleL);
		s.limits[lb_roleThighL + o] = lbLimitRanges(-80.0f, 80.0f, -30.0f, 30.0f, -30.0f, 30.0f);
		s.limits[lb_roleCalfL + o] = lbLimitRanges(0.0f, 150.0f, -2.0f, 2.0f, -20.0f, 20.0f);
		s.limits[lb_roleFootL + o] = lbLimitCone(50.0f, -25.0f, 25.0f);
		s.limits[lb_roleUpperArmL + o] = lbLimitCone(130.0f, -90.0f, 90.0f);
		s.limits[lb_roleForeArmL + o] = lbLimitRanges(0.0f, 150.0f, -2.0f, 2.0f, -90.0f, 90.0f);
		s.limits[lb_roleHandL + o] = lbLimitCone(80.0f, -30.0f, 30.0f);
	}
	for (int r = lb_roleSpine1; r <= lb_roleSpine4; ++r)
		s.limits[r] = lbLimitCone(25.0f, -20.0f, 20.0f);
	s.pelvisMaxSink = 0.35f;
	s.pelvisMaxRise = 0.15f;
	s.pelvisMaxHorizontal = 0.35f;
	s.pelvisMaxRotation = 0.7f;
	s.reachFraction = 0.97f;
	s.damping = 1.0e-4f;
	s.upMs = lbVec3_zero;
	s.internalValue = LB_SECRET_COOKIE;
	return s;
}

lbFullBodyIkEffector lbDefaultFullBodyIkEffector(void)
{
	lbFullBodyIkEffector e;
	e.targetMs = lbVec3_zero;
	e.targetRotationMs = lbQuat_identity;
	e.positionAlpha = 0.0f;
	e.rotationAlpha = 0.0f;
	e.poleKind = lb_poleNone;
	e.poleMs = lbVec3_zero;
	return e;
}

// ---------------------------------------------------------------------------------------------
// Limits

// Direction `dirMs` given in model space at rest, in the bone's local frame.
static lbVec3 lbRestLocalDir(const lbSkeleton* s, int bone, lbVec3 dirMs)
{
	return lbNormalize(lbInvTransformDirection(s->restModel[bone], dirMs));
}

bool lbHumanoid_GetLimitAxes(const lbHumanoid* h, const lbSkeleton* s, lbRole role, lbVec3* outAlong, lbVec3* outBend,
							  lbQuat* outReference)
{
	if (!h || !s || (int)role < 0 || role >= lb_roleCount)
		return false;
	int bone = lbHumanoid_GetRoleBone(h, role);
	if (bone < 0 || bone >= s->boneCount)
		return false;
	lbVec3 along, bend;
	int side = role >= lb_roleClavicleR ? 1 : 0;
	const lbLegAxes* lx = &h->legAxes[side];
	const lbArmAxes* ax = &h->armAxes[side];
	switch (role)
	{
		case lb_rolePelvis:
			along = h->pelvisUp;
			bend = lbRestLocalDir(s, bone, h->leftMs);
			break;
		case lb_roleSpine1:
		case lb_roleSpine2:
		case lb_roleSpine3:
		case lb_roleSpine4:
			along = h->spineAlong[role - lb_roleSpine1];
			bend = lbRestLocalDir(s, bone, h->leftMs);
			break;
		case lb_roleThighL:
		case lb_roleThighR:
			along = lx->thighAlong, bend = lx->kneeBendThigh;
			break;
		case lb_roleCalfL:
		case lb_roleCalfR:
			along = lx->calfAlong, bend = lx->kneeBendCalf;
			break;
		case lb_roleFootL:
		case lb_roleFootR:
			// Ankle flexion shares the knee's hinge direction at rest.
			along = lx->toe;
			bend = lbRestLocalDir(s, bone, lbTransformDirection(s->restModel[h->leg[side].calf], lx->kneeBendCalf));
			break;
		case lb_roleUpperArmL:
		case lb_roleUpperArmR:
			along = ax->upperAlong, bend = ax->elbowBendUpper;
			break;
		case lb_roleForeArmL:
		case lb_roleForeArmR:
			along = ax->foreAlong, bend = ax->elbowBendFore;
			break;
		case lb_roleHandL:
		case lb_roleHandR:
			along = ax->finger;
			bend = lbRestLocalDir(s, bone, lbTransformDirection(s->restModel[h->arm[side].foreArm], ax->elbowBendFore));
			break;
		default:
			return false;
	}
	along = lbNormalize(along);
	bend = lbNormalizeOr(lbProjectOnPlane(bend, along), lbAnyPerpendicular(along));
	if (lbLengthSquared(along) == 0.0f)
		return false;
	lbQuat reference = s->restLocal[bone].q;
	bool calf = role == lb_roleCalfL || role == lb_roleCalfR, fore = role == lb_roleForeArmL || role == lb_roleForeArmR;
	if (calf || fore)
	{
		// Rest bend of the knee or elbow (signed about the hinge); undo it so 0 means straight.
		int upper = calf ? h->leg[side].thigh : h->arm[side].upperArm;
		int end = calf ? h->leg[side].foot : h->arm[side].hand;
		lbVec3 hinge = lbTransformDirection(s->restModel[bone], calf ? lx->kneeBendCalf : ax->elbowBendFore);
		lbVec3 u = lbSub(s->restModel[bone].p, s->restModel[upper].p);
		lbVec3 l = lbSub(s->restModel[end].p, s->restModel[bone].p);
		float restBend = atan2f(lbDot(hinge, lbCross(u, l)), lbDot(u, l));
		reference = lbQuatNormalize(lbQuatMul(reference, lbQuatFromAxisAngle(bend, -restBend)));
	}
	if (outAlong)
		*outAlong = along;
	if (outBend)
		*outBend = bend;
	if (outReference)
		*outReference = reference;
	return true;
}

// Bend, side and twist angles of `local` relative to `rest` (see lbJointLimit).
static void lbLimitAngles(lbQuat rest, lbVec3 along, lbVec3 bend, lbQuat local, float* outBend, float* outSide,
						  float* outTwist)
{
	lbVec3 side = lbCross(along, bend);
	lbQuat d = lbQuatMul(lbQuatConj(rest), local);
	lbQuat swing, twist;
	lbQuatSwingTwist(d, along, &swing, &twist);
	*outTwist = 2.0f * atan2f(twist.x * along.x + twist.y * along.y + twist.z * along.z, twist.w);
	if (*outTwist > LB_PI)
		*outTwist -= 2.0f * LB_PI;
	else if (*outTwist < -LB_PI)
		*outTwist += 2.0f * LB_PI;
	lbVec3 sv = { swing.x, swing.y, swing.z };
	float sl = lbLength(sv);
	lbVec3 rot = sl > 1.0e-12f ? lbMulSV(2.0f * atan2f(sl, swing.w) / sl, sv) : lbMulSV(2.0f, sv);
	*outBend = lbDot(rot, bend);
	*outSide = lbDot(rot, side);
}

static bool lbWithinLimit(const lbJointLimit* l, lbQuat rest, lbVec3 along, lbVec3 bend, lbQuat local, float slack)
{
	if (l->kind == lb_limitNone)
		return true;
	float b, sd, t;
	lbLimitAngles(rest, along, bend, local, &b, &sd, &t);
	if (t < l->twistMin - slack || t > l->twistMax + slack)
		return false;
	if (l->kind == lb_limitCone)
		return sqrtf(b * b + sd * sd) <= l->swingMax + slack;
	return b >= l->bendMin - slack && b <= l->bendMax + slack && sd >= l->sideMin - slack && sd <= l->sideMax + slack;
}

// How far (rad, summed over the axes) a rotation lies outside a limit; 0 inside.
static float lbLimitExcess(const lbJointLimit* l, lbQuat rest, lbVec3 along, lbVec3 bend, lbQuat local)
{
	if (l->kind == lb_limitNone)
		return 0.0f;
	float b, sd, t;
	lbLimitAngles(rest, along, bend, local, &b, &sd, &t);
	float e = lbMaxF(l->twistMin - t, 0.0f) + lbMaxF(t - l->twistMax, 0.0f);
	if (l->kind == lb_limitCone)
		return e + lbMaxF(sqrtf(b * b + sd * sd) - l->swingMax, 0.0f);
	return e + lbMaxF(l->bendMin - b, 0.0f) + lbMaxF(b - l->bendMax, 0.0f) + lbMaxF(l->sideMin - sd, 0.0f) +
		   lbMaxF(sd - l->sideMax, 0.0f);
}

// atan2(y, x) for y >= 0, x >= 0 (a minimax polynomial, error under 1e-5 rad); (0, 0) gives 0.
static float lbFastAtan2Quadrant(float y, float x)
{
	const float m = lbMaxF(x, y);
	if (!(m > 0.0f))
		return 0.0f;
	const float a = lbMinF(x, y) / m, s = a * a;
	float r = a * (0.99997726f + s * (-0.33262347f + s * (0.19354346f + s * (-0.11643287f + s * (0.05265332f + s * -0.01172120f)))));
	return y > x ? 0.5f * LB_PI - r : r;
}

// Whether `local` is inside the limit by more than LB_LIMIT_FAST_MARGIN on every axis, by the
// angles of lbLimitAngles worked out in closed form with a polynomial arctangent. The swing of
// the decomposition has scalar part |twist| exactly (the twist being q's vector part projected on
// the axis, with q's scalar part), so no second product and no libm call is needed. A rotation
// it passes is one lbClampToJointLimit returns unchanged (the margin is far above the
// approximation's error), which is what almost every clamp of a solve finds, at a fifth of the
// cost; any other rotation takes the exact path.
#define LB_LIMIT_FAST_MARGIN 1.0e-3f
static bool lbClearlyWithinLimit(const lbJointLimit* l, lbQuat rest, lbVec3 along, lbVec3 bend, lbQuat local)
{
	lbQuat d = lbQuatMul(lbQuatConj(rest), local);
	const float n2 = lbQuatDot(d, d);
	if (!(n2 > 0.5f && n2 < 2.0f))
		return false;
	const float inv = 1.0f / sqrtf(n2);
	d = lbMakeQuat(d.x * inv, d.y * inv, d.z * inv, d.w * inv);
	if (d.w < 0.0f)
		d = lbMakeQuat(-d.x, -d.y, -d.z, -d.w);
	const float p = d.x * along.x + d.y * along.y + d.z * along.z;
	const float tn = sqrtf(p * p + d.w * d.w);
	// Near a half turn of twist or of swing the decomposition's choices of sign matter: exact path.
	if (!(tn > 1.0e-2f) || !(d.w > 1.0e-2f))
		return false;
	const float m = LB_LIMIT_FAST_MARGIN;
	const float twist = (p >= 0.0f ? 2.0f : -2.0f) * lbFastAtan2Quadrant(lbAbsF(p), d.w);
	if (!(twist >= l->twistMin + m && twist <= l->twistMax - m))
		return false;
	// swing = d * conj(twist) with twist = (along p, d.w) / tn.
	const lbVec3 dv = { d.x, d.y, d.z };
	const lbVec3 tv = lbMulSV(p, along);
	const lbVec3 sv = lbMulSV(1.0f / tn, lbAdd(lbSub(lbMulSV(d.w, dv), lbMulSV(d.w, tv)), lbCross(tv, dv)));
	const float sl = lbLength(sv);
	const float ang = 2.0f * lbFastAtan2Quadrant(sl, tn);
	const lbVec3 rot = sl > 1.0e-12f ? lbMulSV(ang / sl, sv) : lbMulSV(2.0f, sv);
	const float b = lbDot(rot, bend), sd = lbDot(rot, lbCross(along, bend));
	if (l->kind == lb_limitCone)
		return sqrtf(b * b + sd * sd) <= l->swingMax - m;
	return b >= l->bendMin + m && b <= l->bendMax - m && sd >= l->sideMin + m && sd <= l->sideMax - m;
}

// The axes lbClampToJointLimit works with: `along` unit, `bend` made unit across it; false when
// `along` vanishes (the clamp then changes nothing).
static bool lbLimitUnitAxes(lbVec3 along, lbVec3 bend, lbVec3* outAlong, lbVec3* outBend)
{
	*outAlong = lbNormalize(along);
	*outBend = lbNormalizeOr(lbProjectOnPlane(bend, *outAlong), lbAnyPerpendicular(*outAlong));
	return lbLengthSquared(*outAlong) != 0.0f;
}

// lbClampToJointLimit with its axes already made by lbLimitUnitAxes (kept with the rig).
static lbQuat lbClampUnitAxes(const lbJointLimit* limit, lbQuat restLocal, lbVec3 along, lbVec3 bend, lbQuat local);

lbQuat lbClampToJointLimit(const lbJointLimit* limit, lbQuat restLocal, lbVec3 along, lbVec3 bend, lbQuat local)
{
	if (!limit || limit->kind == lb_limitNone)
		return local;
	if (!lbLimitUnitAxes(along, bend, &along, &bend))
		return local;
	return lbClampUnitAxes(limit, restLocal, along, bend, local);
}

static lbQuat lbClampUnitAxes(const lbJointLimit* limit, lbQuat restLocal, lbVec3 along, lbVec3 bend, lbQuat local)
{
	if (lbClearlyWithinLimit(limit, restLocal, along, bend, local))
		return local;
	float b, sd, t;
	lbLimitAngles(restLocal, along, bend, local, &b, &sd, &t);
	float b2 = b, s2 = sd, t2 = lbClampF(t, limit->twistMin, limit->twistMax);
	if (limit->kind == lb_limitCone)
	{
		float m = sqrtf(b * b + sd * sd);
		if (m > limit->swingMax && m > 0.0f)
			b2 = b * limit->swingMax / m, s2 = sd * limit->swingMax / m;
	}
	else
	{
		b2 = lbClampF(b, limit->bendMin, limit->bendMax);
		s2 = lbClampF(sd, limit->sideMin, limit->sideMax);
	}
	if (b2 == b && s2 == sd && t2 == t)
		return local;
	lbVec3 side = lbCross(along, bend);
	lbVec3 rot = lbAdd(lbMulSV(b2, bend), lbMulSV(s2, side));
	float ang = lbLength(rot);
	lbQuat swing = ang > 0.0f ? lbQuatFromAxisAngle(rot, ang) : lbQuat_identity;
	lbQuat twist = lbQuatFromAxisAngle(along, t2);
	return lbQuatNormalize(lbQuatMul(restLocal, lbQuatMul(swing, twist)));
}

// ---------------------------------------------------------------------------------------------
// Solver

typedef struct lbFbikLimb
{
	int root, mid, end;
	lbRole rootRole, midRole, endRole;
	lbEffectorSlot slot;
	bool arm;
	lbVec3 hingeRoot;  // hinge in the root bone's frame
	int poleFrame;     // bone carrying the preferred pole
	lbVec3 poleFrameLocal; // preferred pole in that bone's frame
	lbVec3 restDirFrameLocal; // rest root-to-end direction in that bone's frame
	float l1, l2;      // model-space bone lengths of the input pose
	int chain[LB_FBIK_MAX_CHAIN]; // bones from the root to the end, root first
	int chainCount;
} lbFbikLimb;

typedef struct lbFbikBody
{
	int pelvis, pelvisParent;
	lbTransform pelvisInput;
	int spine[LB_MAX_SPINE];
	lbTransform spineLocal[LB_MAX_SPINE];
	float spineShare[LB_MAX_SPINE];
	int spineCount;
	int update[LB_FBIK_MAX_UPDATE];
	int updateSpine[LB_FBIK_MAX_UPDATE]; // index into spine[] of each update bone, -1 if none
	int updateCount;
	lbVec3 up;
	float spineMax; // largest spine rotation the spine cones allow (rad)
} lbFbikBody;

// A role's limit axes (lbHumanoid_GetLimitAxes), which depend on the skeleton and humanoid alone.
typedef struct lbFbikAxes
{
	lbVec3 along, bend;
	lbQuat reference;
	bool valid;
	// The axes as lbClampToJointLimit makes them (lbLimitUnitAxes), and whether along is usable.
	lbVec3 unitAlong, unitBend;
	bool unitValid;
} lbFbikAxes;

static bool lbFbikGetAxes(const lbFbikAxes* axes, lbRole role, lbVec3* outAlong, lbVec3* outBend, lbQuat* outReference)
{
	const lbFbikAxes* a = &axes[role];
	*outAlong = a->along, *outBend = a->bend, *outReference = a->reference;
	return a->valid;
}

// What the solve derives from the skeleton, the humanoid and the settings alone: their checks, the
// limbs' chains and rest directions, the body's bones and the limit axes. It is kept at the start
// of the workspace next to copies of what it was derived from, so a caller that solves the same
// character again with the same workspace skips the checks and the set-up (they were 25% of a
// call); anything else in those bytes (another skeleton, humanoid or settings, or memory never
// used by the solver) does not match and the rig is made again. The settings' up is read on every
// call (a character's up in model space may turn from frame to frame).
#define LB_FBIK_RIG_MAGIC 0x6b6962664c524947ull
typedef struct lbFbikRig
{
	lbRigKey key;
	lbFullBodyIkDef settings;
	lbFbikLimb limbs[4];   // l1 and l2 are the input pose's: set per call
	lbFbikBody body;       // pelvisInput, spineLocal and up are set per call
	float reg[LB_FBIK_DOF]; // stiffness weights of the body unknowns
	lbFbikAxes axes[lb_roleCount];
	// The pelvis and every bone below it, parents first (what lbPose_UpdateSubtree of the pelvis
	// carries), and which of them a body-only solve leaves: those below a limb's root that are not
	// on its way to the limb's end (twist bones beside it, what hangs below the end), which the
	// limb's own solve carries again before anything reads them.
	int carryCount;
	uint16_t carry[LB_MAX_BONES];
	uint8_t carryOff[LB_MAX_BONES];
} lbFbikRig;

size_t lbGetFullBodyIkWorkspaceSize(const lbSkeleton* skeleton)
{
	// The rig (with room to align it), then the input pose and the best pose of the rounds so far
	// (local and model transforms each).
	return skeleton && skeleton->boneCount > 0
			   ? sizeof(lbFbikRig) + _Alignof(lbFbikRig) + 4u * (size_t)skeleton->boneCount * sizeof(lbTransform)
			   : 0u;
}

// Sets the body DoFs x on the pose: pelvis, spine and the bones up to hips, shoulders and head.
// `withLocals` false leaves the pelvis's and spine bones' locals as they were: the residuals read
// model transforms only, and the pose is finished by lbFbikApplyLocals (the models are made from
// the parents' models, never from these locals, so they come out the same either way).
static void lbFbikApply(lbPose* pose, const lbSkeleton* s, const lbFbikBody* b, const float* x, bool withLocals)
{
	lbTransform pm = b->pelvisInput;
	pm.p = lbAdd(pm.p, lbMakeVec3(x[0], x[1], x[2]));
	lbVec3 wp = { x[3], x[4], x[5] };
	float ap = lbLength(wp);
	if (ap > 0.0f)
		pm.q = lbQuatNormalize(lbQuatMul(lbQuatFromAxisAngle(wp, ap), pm.q));
	if (withLocals)
		lbIkSetModel(pose, s, b->pelvis, pm);
	else
		pose->model[b->pelvis] = pm;
	lbVec3 ws = { x[6], x[7], x[8] };
	float as = lbLength(ws);
	for (int i = 0; i < b->updateCount; ++i)
	{
		int bone = b->update[i], p = s->parents[bone];
		const int k = b->updateSpine[i];
		if (k >= 0)
		{
			lbTransform m;
			lbIkTransformMulTo(&m, &pose->model[p], &b->spineLocal[k]);
			if (as > 0.0f && b->spineShare[k] > 0.0f)
				m.q = lbQuatNormalize(lbQuatMul(lbQuatFromAxisAngle(ws, as * b->spineShare[k]), m.q));
			if (withLocals)
				lbIkSetModel(pose, s, bone, m);
			else
				pose->model[bone] = m;
		}
		else
			lbIkTransformMulTo(&pose->model[bone], &pose->model[p], &pose->local[bone]);
	}
}

// lbPose_UpdateSubtree of the pelvis from the rig's list of the bones below it (the same products
// in the same order); `bodyOnly` leaves the bones the rig marks off.
static void lbFbikCarryBody(lbPose* pose, const lbSkeleton* s, const lbFbikRig* rig, bool bodyOnly)
{
	for (int k = 0; k < rig->carryCount; ++k)
	{
		if (bodyOnly && rig->carryOff[k])
			continue;
		const int i = rig->carry[k], p = s->parents[i];
		if (p == LB_NULL_INDEX)
			pose->model[i] = pose->local[i];
		else
			lbIkTransformMulTo(&pose->model[i], &pose->model[p], &pose->local[i]);
	}
}

// The locals lbFbikApply(..., false) left out, from the models it set (the same values
// lbFbikApply(..., true) would have written).
static void lbFbikApplyLocals(lbPose* pose, const lbSkeleton* s, const lbFbikBody* b)
{
	lbIkSetModel(pose, s, b->pelvis, pose->model[b->pelvis]);
	for (int i = 0; i < b->updateCount; ++i)
		if (b->updateSpine[i] >= 0)
			lbIkSetModel(pose, s, b->update[i], pose->model[b->update[i]]);
}

// Solves the symmetric positive definite n x n system A y = g in place (Cholesky); false if not PD.
static inline bool lbCholeskySolve(float* A, float* g, int n)
{
	for (int j = 0; j < n; ++j)
	{
		float d = A[j * n + j];
		for (int k = 0; k < j; ++k)
			d -= A[j * n + k] * A[j * n + k];
		if (!(d > 1.0e-20f))
			return false;
		d = sqrtf(d);
		A[j * n + j] = d;
		for (int i = j + 1; i < n; ++i)
		{
			float v = A[i * n + j];
			for (int k = 0; k < j; ++k)
				v -= A[i * n + k] * A[j * n + k];
			A[i * n + j] = v / d;
		}
	}
	for (int i = 0; i < n; ++i)
	{
		float v = g[i];
		for (int k = 0; k < i; ++k)
			v -= A[i * n + k] * g[k];
		g[i] = v / A[i * n + i];
	}
	for (int i = n - 1; i >= 0; --i)
	{
		float v = g[i];
		for (int k = i + 1; k < n; ++k)
			v -= A[k * n + i] * g[k];
		g[i] = v / A[i * n + i];
	}
	return true;
}

// Adds one residual row (value e, weight w, Jacobian row J) to the normal equations.
static inline void lbAddRowN(float* A, float* g, const float* J, float e, float w, int n)
{
	for (int i = 0; i < n; ++i)
	{
		if (J[i] == 0.0f)
			continue;
		float wi = w * J[i];
		g[i] += wi * e;
		for (int k = 0; k < n; ++k)
			A[i * n + k] += wi * J[k];
	}
}

static void lbAddRow(float* A, float* g, float* cost, const float* J, float e, float w, int n)
{
	*cost += w * e * e;
	if (n == LB_FBIK_DOF) // the body alone (almost every solve): a size the compiler can unroll
		lbAddRowN(A, g, J, e, w, LB_FBIK_DOF);
	else
		lbAddRowN(A, g, J, e, w, n);
}

// Jacobian row of a point p's displacement along unit direction u: translation, pelvis rotation
// about its joint c0 and (when spineFactor) spine rotation about the spine centre c1.
static void lbPointRow(float* J, lbVec3 u, lbVec3 p, lbVec3 c0, lbVec3 c1, bool spine)
{
	J[0] = u.x, J[1] = u.y, J[2] = u.z;
	lbVec3 r0 = lbCross(lbSub(p, c0), u); // u . (w x a) = w . (a x u)
	J[3] = r0.x, J[4] = r0.y, J[5] = r0.z;
	lbVec3 r1 = spine ? lbCross(lbSub(p, c1), u) : lbVec3_zero;
	J[6] = r1.x, J[7] = r1.y, J[8] = r1.z;
}

static float lbStiffWeight(float stiffness, float scale)
{
	stiffness = lbClampF(stiffness, 0.0f, 1.0f);
	if (stiffness >= 1.0f)
		return 1.0e9f;
	return scale * stiffness / (1.0f - stiffness);
}

// Checks of the skeleton (against the pose's bone count), the humanoid and the settings: made once
// per rig.
static lbResult lbCheckFbikRig(const lbSkeleton* s, const lbHumanoid* h, const lbFullBodyIkDef* st)
{
	static const char fn[] = "lbSolveFullBodyIk";
	lbResult r = lbHumanoid_Check(h, s);
	if (r != lb_ok)
		return r;
	if (st->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "%s: settings not initialised with lbDefaultFullBodyIkDef()", fn);
	if (st->iterations < 1)
		return lbReport(lb_errorInvalidArgument, "%s: iterations %d < 1", fn, st->iterations);
	bool finite = lbIsValidFloat(st->tolerance) && lbIsValidFloat(st->pelvisTranslationStiffness) &&
				  lbIsValidFloat(st->pelvisMaxSink) && lbIsValidFloat(st->pelvisMaxRise) &&
				  lbIsValidFloat(st->pelvisMaxHorizontal) && lbIsValidFloat(st->pelvisMaxRotation) &&
				  lbIsValidFloat(st->reachFraction) && lbIsValidFloat(st->damping);
	for (int k = 0; k < lb_roleCount && finite; ++k)
	{
		const lbJointLimit* l = &st->limits[k];
		finite = lbIsValidFloat(st->stiffness[k]) && lbIsValidFloat(l->bendMin) && lbIsValidFloat(l->bendMax) &&
				 lbIsValidFloat(l->sideMin) && lbIsValidFloat(l->sideMax) && lbIsValidFloat(l->swingMax) &&
				 lbIsValidFloat(l->twistMin) && lbIsValidFloat(l->twistMax);
		if (finite && (unsigned)l->kind > (unsigned)lb_limitCone)
			return lbReport(lb_errorInvalidArgument, "%s: unknown limit kind %d for role %s", fn, (int)l->kind,
							lbRoleName((lbRole)k));
	}
	if (!finite)
		return lbReport(lb_errorNonFinite, "%s: non-finite setting", fn);
	bool negative = st->tolerance < 0.0f || st->pelvisTranslationStiffness < 0.0f || st->pelvisMaxSink < 0.0f ||
					st->pelvisMaxRise < 0.0f || st->pelvisMaxHorizontal < 0.0f || st->pelvisMaxRotation < 0.0f ||
					st->damping < 0.0f;
	for (int k = 0; k < lb_roleCount; ++k)
		negative = negative || st->stiffness[k] < 0.0f;
	if (negative)
		return lbReport(lb_errorInvalidArgument,
						"%s: tolerance, stiffness, pelvis limits and damping must be >= 0 (damping %g, sink %g, rise %g)", fn,
						(double)st->damping, (double)st->pelvisMaxSink, (double)st->pelvisMaxRise);
	if (!(st->reachFraction > 0.0f) || st->reachFraction > 1.0f)
		return lbReport(lb_errorInvalidArgument, "%s: reachFraction %g outside (0, 1]", fn, (double)st->reachFraction);
	int need[] = { h->pelvis, h->head, h->arm[0].upperArm, h->arm[0].foreArm, h->arm[0].hand, h->arm[1].upperArm,
				   h->arm[1].foreArm, h->arm[1].hand, h->leg[0].thigh, h->leg[0].calf, h->leg[0].foot,
				   h->leg[1].thigh, h->leg[1].calf, h->leg[1].foot };
	for (size_t k = 0; k < sizeof need / sizeof need[0]; ++k)
	{
		if (!lbIkValidBone(s, need[k]))
			return lbReport(lb_errorSkeletonMismatch, "%s: humanoid map does not fit the skeleton", fn);
	}
	if (h->spineCount < 1 || h->spineCount > LB_MAX_SPINE)
		return lbReport(lb_errorSkeletonMismatch, "%s: humanoid has %d spine bones", fn, h->spineCount);
	for (int k = 0; k < h->spineCount; ++k)
	{
		if (!lbIkValidBone(s, h->spine[k]) || !lbSkeleton_IsAncestor(s, h->pelvis, h->spine[k]))
			return lbReport(lb_errorSkeletonMismatch, "%s: spine bone %d is not below the pelvis", fn, h->spine[k]);
	}
	return lb_ok;
}

// Checks of what may change from call to call: the up, the effectors and the pose (every bone
// finite with a unit rotation, no zero-length limb bone). The rig's checks have passed.
// `boneChecks` false skips the per-bone pass (a caller that has already checked and normalised the
// pose, see lbSolveFullBodyIkBody); the limb bones' lengths are still checked.
static lbResult lbCheckFbikCall(const lbPose* pose, const lbSkeleton* s, const lbHumanoid* h, const lbFullBodyIkDef* st,
								const lbFullBodyIkEffector* eff, bool boneChecks)
{
	static const char fn[] = "lbSolveFullBodyIk";
	if (!lbIsValidVec3(st->upMs))
		return lbReport(lb_errorNonFinite, "%s: non-finite setting", fn);
	for (int k = 0; k < lb_effectorCount; ++k)
	{
		const lbFullBodyIkEffector* e = &eff[k];
		if (!lbIsValidVec3(e->targetMs) || !lbIsValidFloat(e->positionAlpha) || !lbIsValidFloat(e->rotationAlpha) ||
			(e->rotationAlpha > 0.0f && !lbIsValidQuat(e->targetRotationMs)) ||
			(e->poleKind != lb_poleNone && !lbIsValidVec3(e->poleMs)))
			return lbReport(lb_errorNonFinite, "%s: effector %d has a non-finite target, alpha or pole", fn, k);
		if ((unsigned)e->poleKind > (unsigned)lb_poleDirection)
			return lbReport(lb_errorInvalidArgument, "%s: effector %d has an unknown pole kind", fn, k);
	}
	// Every bone without a branch per bone; the one to name is looked for only on failure.
	bool ok = true;
	for (int b = 0; b < pose->boneCount && boneChecks; ++b)
		ok &= (int)lbIkValidTransformFast(&pose->local[b]) & (int)lbIkValidTransformFast(&pose->model[b]);
	if (!ok)
	{
		for (int b = 0; b < pose->boneCount; ++b)
		{
			if (!lbIkValidTransformFast(&pose->local[b]) || !lbIkValidTransformFast(&pose->model[b]))
				return lbReport(lb_errorNonFinite, "%s: bone '%s' has a non-finite transform", fn, s->names[b]);
		}
	}
	for (int side = 0; side < 2; ++side)
	{
		const int c[6] = { h->arm[side].upperArm, h->arm[side].foreArm, h->arm[side].hand,
						   h->leg[side].thigh,    h->leg[side].calf,    h->leg[side].foot };
		for (int k = 0; k < 6; k += 3)
		{
			if (!(lbDistance(pose->model[c[k]].p, pose->model[c[k + 1]].p) > 1.0e-5f) ||
				!(lbDistance(pose->model[c[k + 1]].p, pose->model[c[k + 2]].p) > 1.0e-5f))
				return lbReport(lb_errorDegenerate, "%s: zero-length limb bone at '%s'", fn, s->names[c[k + 1]]);
		}
	}
	return lb_ok;
}

static void lbFbikSetupLimbs(const lbSkeleton* s, const lbHumanoid* h, lbFbikLimb* limbs)
{
	const int chest = h->spine[h->spineCount - 1];
	for (int i = 0; i < 4; ++i)
	{
		lbFbikLimb* L = &limbs[i];
		int side = i & 1;
		L->arm = i < 2;
		if (L->arm)
		{
			L->root = h->arm[side].upperArm, L->mid = h->arm[side].foreArm, L->end = h->arm[side].hand;
			L->rootRole = side ? lb_roleUpperArmR : lb_roleUpperArmL;
			L->midRole = side ? lb_roleForeArmR : lb_roleForeArmL;
			L->endRole = side ? lb_roleHandR : lb_roleHandL;
			L->slot = side ? lb_effectorHandR : lb_effectorHandL;
			L->hingeRoot = h->armAxes[side].elbowBendUpper;
			L->poleFrame = chest;
			// Elbows point back and down: well defined for reaching forward, up or sideways.
			lbVec3 pole = lbTransformDirection(s->restModel[L->root], h->armAxes[side].elbowPoleUpper);
			pole = lbNormalize(lbAdd(lbNormalize(lbProjectOnPlane(pole, h->upMs)), lbNeg(h->upMs)));
			L->poleFrameLocal = lbRestLocalDir(s, chest, pole);
		}
		else
		{
			L->root = h->leg[side].thigh, L->mid = h->leg[side].calf, L->end = h->leg[side].foot;
			L->rootRole = side ? lb_roleThighR : lb_roleThighL;
			L->midRole = side ? lb_roleCalfR : lb_roleCalfL;
			L->endRole = side ? lb_roleFootR : lb_roleFootL;
			L->slot = side ? lb_effectorFootR : lb_effectorFootL;
			L->hingeRoot = h->legAxes[side].kneeBendThigh;
			L->poleFrame = h->pelvis;
			lbVec3 pole = lbTransformDirection(s->restModel[L->root], h->legAxes[side].kneePoleThigh);
			L->poleFrameLocal = lbRestLocalDir(s, h->pelvis, pole);
		}
		L->restDirFrameLocal = lbRestLocalDir(s, L->poleFrame, lbSub(s->restModel[L->end].p, s->restModel[L->root].p));
		// Path from the root to the end (0 when longer than the room for it: never held then).
		int count = 0;
		for (int bone = L->end; bone != LB_NULL_INDEX && count < LB_FBIK_MAX_CHAIN; bone = s->parents[bone])
		{
			L->chain[count++] = bone;
			if (bone == L->root)
				break;
		}
		if (L->chain[count - 1] != L->root)
			count = 0;
		for (int k = 0; k < count / 2; ++k)
		{
			int t = L->chain[k];
			L->chain[k] = L->chain[count - 1 - k];
			L->chain[count - 1 - k] = t;
		}
		L->chainCount = count;
	}
}

static void lbFbikSetupBody(const lbSkeleton* s, const lbHumanoid* h, const lbFullBodyIkDef* st, lbFbikBody* b)
{
	b->pelvis = h->pelvis;
	b->pelvisParent = s->parents[h->pelvis];
	b->spineCount = h->spineCount;
	float total = 0.0f;
	for (int k = 0; k < h->spineCount; ++k)
	{
		b->spine[k] = h->spine[k];
		b->spineShare[k] = 1.0f - lbClampF(st->stiffness[lb_roleSpine1 + k], 0.0f, 1.0f);
		total += b->spineShare[k];
	}
	for (int k = 0; k < h->spineCount; ++k)
		b->spineShare[k] = total > 0.0f ? b->spineShare[k] / total : 0.0f;
	// Bones between the pelvis and the hips, shoulders and head, parents first.
	bool mark[LB_MAX_BONES];
	memset(mark, 0, sizeof(bool) * (size_t)s->boneCount);
	const int ends[5] = { h->leg[0].thigh, h->leg[1].thigh, h->arm[0].upperArm, h->arm[1].upperArm, h->head };
	for (int k = 0; k < 5; ++k)
	{
		for (int bone = ends[k]; bone != LB_NULL_INDEX && bone != h->pelvis; bone = s->parents[bone])
			mark[bone] = true;
	}
	b->updateCount = 0;
	for (int bone = h->pelvis + 1; bone < s->boneCount && b->updateCount < LB_FBIK_MAX_UPDATE; ++bone)
	{
		if (mark[bone])
		{
			int k = -1;
			for (int j = 0; j < b->spineCount; ++j)
				k = b->spine[j] == bone ? j : k;
			b->updateSpine[b->updateCount] = k;
			b->update[b->updateCount++] = bone;
		}
	}
	float maxSpine = 1.0e9f;
	for (int k = 0; k < b->spineCount; ++k)
	{
		const lbJointLimit* l = &st->limits[lb_roleSpine1 + k];
		if (l->kind == lb_limitCone && b->spineShare[k] > 0.0f)
			maxSpine = lbMinF(maxSpine, l->swingMax / b->spineShare[k]);
		else if (l->kind == lb_limitRanges && b->spineShare[k] > 0.0f)
			maxSpine = lbMinF(maxSpine, lbMinF(-l->bendMin, l->bendMax) / b->spineShare[k]);
	}
	b->spineMax = lbMaxF(maxSpine, 0.0f);
}

// Makes the rig for a skeleton, humanoid and settings that passed lbCheckFbikRig.
// The sum of what the rig derived: everything after its key and settings (those are compared
// byte for byte with the caller's) up to the carry lists, and the lists' used entries (a count out
// of range, in memory the solver never wrote, sums to nothing it made).
static uint64_t lbFbikRigSum(const lbFbikRig* rig)
{
	const int n = rig->carryCount;
	uint64_t sum = lbRigKey_Sum(LB_FBIK_RIG_MAGIC, &rig->limbs, offsetof(lbFbikRig, carry) - offsetof(lbFbikRig, limbs));
	if (n < 0 || n > LB_MAX_BONES)
		return ~sum;
	sum = lbRigKey_Sum(sum, rig->carry, (size_t)n * sizeof rig->carry[0]);
	return lbRigKey_Sum(sum, rig->carryOff, (size_t)n * sizeof rig->carryOff[0]);
}

static void lbFbikPrepareRig(lbFbikRig* rig, const lbSkeleton* s, const lbHumanoid* h, const lbFullBodyIkDef* st)
{
	lbFbikSetupLimbs(s, h, rig->limbs);
	lbFbikSetupBody(s, h, st, &rig->body);
	float wt = lbStiffWeight(st->pelvisTranslationStiffness, 1.0f);
	// Rotations weigh as the motion of a point 0.3 m away (about a torso's half length).
	float wr = lbStiffWeight(st->stiffness[lb_rolePelvis], 0.09f);
	float spineStiff = 0.0f;
	for (int k = 0; k < h->spineCount; ++k)
		spineStiff += lbClampF(st->stiffness[lb_roleSpine1 + k], 0.0f, 1.0f) / (float)h->spineCount;
	float ws = lbStiffWeight(spineStiff, 0.09f);
	for (int i = 0; i < 3; ++i)
		rig->reg[i] = wt, rig->reg[3 + i] = wr, rig->reg[6 + i] = ws;
	for (int r = 0; r < lb_roleCount; ++r)
	{
		lbFbikAxes* a = &rig->axes[r];
		a->valid = lbHumanoid_GetLimitAxes(h, s, (lbRole)r, &a->along, &a->bend, &a->reference);
		a->unitValid = a->valid && lbLimitUnitAxes(a->along, a->bend, &a->unitAlong, &a->unitBend);
	}
	uint8_t below[LB_MAX_BONES], off[LB_MAX_BONES];
	memset(below, 0, sizeof(uint8_t) * (size_t)s->boneCount);
	memset(off, 0, sizeof(uint8_t) * (size_t)s->boneCount);
	for (int k = 0; k < 4; ++k)
	{
		const lbFbikLimb* L = &rig->limbs[k];
		for (int i = L->root + 1; i < s->boneCount; ++i)
			off[i] |= (uint8_t)(lbSkeleton_IsAncestor(s, L->root, i) && i != L->end && !lbSkeleton_IsAncestor(s, i, L->end));
	}
	rig->carryCount = 0;
	for (int i = h->pelvis; i < s->boneCount; ++i)
	{
		const int p = s->parents[i];
		below[i] = (uint8_t)(i == h->pelvis || (p != LB_NULL_INDEX && p >= h->pelvis && below[p]));
		if (!below[i])
			continue;
		rig->carry[rig->carryCount] = (uint16_t)i;
		rig->carryOff[rig->carryCount++] = off[i];
	}
	memcpy(&rig->settings, st, sizeof *st);
	lbRigKey_Set(&rig->key, LB_FBIK_RIG_MAGIC, s, h, lbFbikRigSum(rig));
}

// Whether the rig in the workspace was made for this skeleton, humanoid and settings (the up aside).
static bool lbFbikRigMatches(const lbFbikRig* rig, const lbSkeleton* s, const lbHumanoid* h, const lbFullBodyIkDef* st)
{
	return lbRigKey_Matches(&rig->key, LB_FBIK_RIG_MAGIC, s, h) &&
		   memcmp(&rig->settings, st, offsetof(lbFullBodyIkDef, upMs)) == 0 &&
		   rig->settings.internalValue == st->internalValue && rig->key.sum == lbFbikRigSum(rig);
}

// Keeps x inside the pelvis travel and rotation limits and the spine's cones.
static void lbFbikClamp(float* x, const lbFbikBody* b, const lbFullBodyIkDef* st)
{
	lbVec3 t = { x[0], x[1], x[2] };
	float v = lbClampF(lbDot(t, b->up), -lbMaxF(st->pelvisMaxSink, 0.0f), lbMaxF(st->pelvisMaxRise, 0.0f));
	lbVec3 hz = lbClampLength(lbProjectOnPlane(t, b->up), st->pelvisMaxHorizontal);
	t = lbMulAdd(hz, v, b->up);
	x[0] = t.x, x[1] = t.y, x[2] = t.z;
	lbVec3 wp = lbClampLength(lbMakeVec3(x[3], x[4], x[5]), st->pelvisMaxRotation);
	x[3] = wp.x, x[4] = wp.y, x[5] = wp.z;
	lbVec3 ws = lbClampLength(lbMakeVec3(x[6], x[7], x[8]), b->spineMax);
	x[6] = ws.x, x[7] = ws.y, x[8] = ws.z;
}

// Clamps a bone's local rotation to its role's limit (if any) and refreshes its model transform.
static bool lbFbikClampBone(lbPose* pose, const lbSkeleton* s, const lbFbikAxes* axes, const lbFullBodyIkDef* st,
							lbRole role, int bone)
{
	const lbJointLimit* l = &st->limits[role];
	const lbFbikAxes* a = &axes[role];
	if (l->kind == lb_limitNone || !a->valid || !a->unitValid)
		return false;
	lbQuat q = lbClampUnitAxes(l, a->reference, a->unitAlong, a->unitBend, pose->local[bone].q);
	if (memcmp(&q, &pose->local[bone].q, sizeof q) == 0)
		return false;
	pose->local[bone].q = q;
	int p = s->parents[bone];
	if (p == LB_NULL_INDEX)
		pose->model[bone] = pose->local[bone];
	else
		lbIkTransformMulTo(&pose->model[bone], &pose->model[p], &pose->local[bone]);
	return true;
}

// lbPose_UpdateSubtree of `from` (the limb's root or mid) for a body-only solve with a direct chain:
// the same products for the chain's bones from `from` to the end, nothing else below them (the
// caller poses the limb again).
static void lbFbikCarryLimb(lbPose* pose, const lbSkeleton* s, const lbFbikLimb* L, int from, bool bodyOnly)
{
	if (!bodyOnly || s->parents[L->mid] != L->root || s->parents[L->end] != L->mid)
	{
		lbPose_UpdateSubtree(pose, s, from);
		return;
	}
	const int bones[3] = { L->root, L->mid, L->end };
	for (int k = from == L->root ? 0 : 1; k < 3; ++k)
	{
		const int i = bones[k], p = s->parents[i];
		if (p == LB_NULL_INDEX)
			pose->model[i] = pose->local[i];
		else
			lbIkTransformMulTo(&pose->model[i], &pose->model[p], &pose->local[i]);
	}
}

// Solves one limb toward its goal and fits it into the limits (see the file comment). A body-only
// solve (`bodyOnly`, whose caller vouches for the pose and poses the limbs again) takes the
// two-bone solve without the public call's checks and carries only the limb's chain.
static void lbFbikSolveLimb(lbPose* pose, const lbSkeleton* s, const lbFbikAxes* axes, const lbFullBodyIkDef* st,
							const lbFbikLimb* L, const lbFullBodyIkEffector* e, lbVec3 goal, bool held, bool bodyOnly)
{
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = goal;
	in.hingeAxisMs = lbNormalize(lbTransformDirection(pose->model[L->root], L->hingeRoot));
	// A held limb keeps its bend plane (no pole: the shortest swing), so it stays at the pose the
	// body was placed for, which is within its limits.
	if (held)
		in.poleKind = lb_poleNone;
	else if (e->poleKind != lb_poleNone)
	{
		in.poleKind = e->poleKind;
		in.poleMs = e->poleMs;
	}
	else
	{
		in.poleKind = lb_poleDirection;
		in.poleMs = lbNormalize(lbQuatRotate(pose->model[L->poleFrame].q, L->poleFrameLocal));
	}
	if (bodyOnly ? !lbIkSolveTwoBoneTrusted(pose, s, L->root, L->mid, L->end, &in, true)
				 : lbPose_SolveTwoBoneIk(pose, s, L->root, L->mid, L->end, &in, NULL) != lb_ok)
		return;
	// Swivel the limb about the root-goal line until the root bone is within its limit.
	bool swivelled = false;
	const lbJointLimit* rl = &st->limits[L->rootRole];
	lbVec3 along, bend;
	lbQuat rest;
	// The root clearly within its limit, as its clamp below would first find it (the same test on
	// the same local): neither the swivel nor the clamp has anything to do.
	const lbFbikAxes* ra = &axes[L->rootRole];
	const bool rootClear = rl->kind != lb_limitNone && ra->valid && ra->unitValid &&
						   lbClearlyWithinLimit(rl, ra->reference, ra->unitAlong, ra->unitBend, pose->local[L->root].q);
	if (!rootClear && rl->kind != lb_limitNone && lbFbikGetAxes(axes, L->rootRole, &along, &bend, &rest))
	{
		int p = s->parents[L->root];
		lbQuat parentQ = p == LB_NULL_INDEX ? lbQuat_identity : pose->model[p].q;
		lbQuat rootQ = pose->model[L->root].q;
		const lbQuat rootLocal = lbQuatMul(lbQuatConj(parentQ), rootQ);
		if (!lbClearlyWithinLimit(rl, rest, along, bend, rootLocal) && !lbWithinLimit(rl, rest, along, bend, rootLocal, 0.0f))
		{
			lbVec3 axis = lbNormalize(lbSub(pose->model[L->end].p, pose->model[L->root].p));
			// Nearest swivel first (5-degree steps, both ways, all round); if none fits, the one
			// that exceeds the limit least, which the clamp below then corrects.
			float bestExcess = lbLimitExcess(rl, rest, along, bend, lbQuatMul(lbQuatConj(parentQ), rootQ));
			lbQuat best = rootQ;
			float bestAngle = 0.0f;
			for (int k = 1; k <= 72 && lbLengthSquared(axis) > 0.0f && bestExcess > 0.0f; ++k)
			{
				float ang = (float)((k + 1) / 2) * (5.0f * LB_DEG2RAD) * ((k & 1) ? 1.0f : -1.0f);
				lbQuat turned = lbQuatMul(lbQuatFromAxisAngle(axis, ang), rootQ);
				float excess = lbLimitExcess(rl, rest, along, bend, lbQuatMul(lbQuatConj(parentQ), turned));
				if (excess < bestExcess)
				{
					bestExcess = excess;
					best = turned;
					bestAngle = ang;
				}
			}
			// No step fits: the window that does (if any) is narrower than a step. Golden-section
			// search for the least excess within a step either side.
			if (bestExcess > 0.0f && lbLengthSquared(axis) > 0.0f)
			{
				const float gr = 0.618034f;
				float lo = bestAngle - 5.0f * LB_DEG2RAD, hi = bestAngle + 5.0f * LB_DEG2RAD;
				for (int it = 0; it < 24 && bestExcess > 0.0f; ++it)
				{
					float m1 = hi - gr * (hi - lo), m2 = lo + gr * (hi - lo);
					lbQuat t1 = lbQuatMul(lbQuatFromAxisAngle(axis, m1), rootQ);
					lbQuat t2 = lbQuatMul(lbQuatFromAxisAngle(axis, m2), rootQ);
					float e1 = lbLimitExcess(rl, rest, along, bend, lbQuatMul(lbQuatConj(parentQ), t1));
					float e2 = lbLimitExcess(rl, rest, along, bend, lbQuatMul(lbQuatConj(parentQ), t2));
					if (e1 < bestExcess)
						bestExcess = e1, best = t1;
					if (e2 < bestExcess)
						bestExcess = e2, best = t2;
					if (e1 <= e2)
						hi = m2;
					else
						lo = m1;
				}
			}
			pose->local[L->root].q = lbQuatNormalize(lbQuatMul(lbQuatConj(parentQ), best));
			pose->model[L->root].q = lbQuatNormalize(best);
			swivelled = true;
		}
	}
	// The two-bone solve leaves every model below the root its parent's times its local, so the
	// subtree is carried again only when the swivel or the clamp changed the root.
	if ((!rootClear && lbFbikClampBone(pose, s, axes, st, L->rootRole, L->root)) || swivelled)
		lbFbikCarryLimb(pose, s, L, L->root, bodyOnly);
	if (lbFbikClampBone(pose, s, axes, st, L->midRole, L->mid))
		lbFbikCarryLimb(pose, s, L, L->mid, bodyOnly);
}

// A limb held in the body solve (its limits kept it from its goal): its root rotation and mid
// bend become unknowns next to the body's, kept inside their limits, and its end is pulled onto
// the goal. Increments are taken from a base re-set after every accepted step, so the Jacobian is
// exact at the current pose.
typedef struct lbFbikHold
{
	bool on;
	int col;          // first of its LB_FBIK_LIMB_DOF columns
	lbQuat rootBase;  // root local rotation at increment zero
	lbQuat midBase;   // mid local rotation at increment zero
	lbVec3 hingeMidParent; // knee or elbow hinge in the mid bone's parent frame
} lbFbikHold;

// Context of one body solve: everything the residual rows read.
typedef struct lbFbikContext
{
	lbPose* pose;
	const lbSkeleton* s;
	const lbHumanoid* h;
	const lbFullBodyIkDef* st;
	const lbFbikAxes* axes;
	const lbFbikBody* body;
	const lbFbikLimb* limbs;
	const float* alpha;
	const lbVec3* goal;
	lbFbikHold* hold;
	int n; // unknowns: LB_FBIK_DOF plus LB_FBIK_LIMB_DOF per held limb
	lbQuat pelvisGoalQ;
	float pelvisRotAlpha;
	const float* reg;
} lbFbikContext;

// Rotation vector of a unit quaternion (angle up to pi).
static lbVec3 lbFbikLog(lbQuat q)
{
	lbVec3 axis;
	float ang = lbQuatToAxisAngle(q, &axis);
	return lbMulSV(ang, axis);
}

static lbQuat lbFbikExp(lbVec3 w)
{
	float a = lbLength(w);
	return a > 0.0f ? lbQuatFromAxisAngle(w, a) : lbQuat_identity;
}

// Sets a held limb's root and mid local rotations from its increments and updates its chain.
static void lbFbikApplyHold(lbPose* pose, const lbSkeleton* s, const lbFbikLimb* L, const lbFbikHold* hd, const float* x)
{
	const float* xl = x + hd->col;
	pose->local[L->root].q = lbQuatNormalize(lbQuatMul(lbFbikExp(lbMakeVec3(xl[0], xl[1], xl[2])), hd->rootBase));
	pose->local[L->mid].q = lbQuatNormalize(lbQuatMul(lbFbikExp(lbMulSV(xl[3], hd->hingeMidParent)), hd->midBase));
	for (int k = 0; k < L->chainCount; ++k)
	{
		int bone = L->chain[k], p = s->parents[bone];
		if (p == LB_NULL_INDEX)
			pose->model[bone] = pose->local[bone];
		else
			lbIkTransformMulTo(&pose->model[bone], &pose->model[p], &pose->local[bone]);
	}
}

// Directions (in the root's parent frame) in which turning a held limb's root would take it
// further out of a limit it is on: up to three, orthonormal. The solve turns it only normal to
// them, so a step slides along the limit instead of being clamped back onto it (active set).
static int lbFbikActiveLimitDirs(const lbFbikContext* ctx, const lbFbikLimb* L, lbQuat local, lbVec3* outDirs)
{
	const lbJointLimit* l = &ctx->st->limits[L->rootRole];
	lbVec3 along, bend;
	lbQuat ref;
	if (l->kind == lb_limitNone || !lbFbikGetAxes(ctx->axes, L->rootRole, &along, &bend, &ref))
		return 0;
	const float slack = 1.0e-4f, eps = 1.0e-3f;
	float a0[3];
	lbLimitAngles(ref, along, bend, local, &a0[0], &a0[1], &a0[2]);
	bool active[3] = { false, false, false };
	bool cone = l->kind == lb_limitCone;
	float swing0 = sqrtf(a0[0] * a0[0] + a0[1] * a0[1]);
	if (cone)
		active[0] = swing0 >= l->swingMax - slack;
	else
	{
		active[0] = a0[0] <= l->bendMin + slack || a0[0] >= l->bendMax - slack;
		active[1] = a0[1] <= l->sideMin + slack || a0[1] >= l->sideMax - slack;
	}
	active[2] = a0[2] <= l->twistMin + slack || a0[2] >= l->twistMax - slack;
	if (!active[0] && !active[1] && !active[2])
		return 0;
	// Gradients of the active angles by forward differences.
	lbVec3 grad[3] = { lbVec3_zero, lbVec3_zero, lbVec3_zero };
	const lbVec3 axes[3] = { lbVec3_axisX, lbVec3_axisY, lbVec3_axisZ };
	for (int j = 0; j < 3; ++j)
	{
		float a1[3];
		lbLimitAngles(ref, along, bend, lbQuatMul(lbQuatFromAxisAngle(axes[j], eps), local), &a1[0], &a1[1], &a1[2]);
		if (cone)
			a1[0] = sqrtf(a1[0] * a1[0] + a1[1] * a1[1]), a1[1] = 0.0f;
		float d0 = cone ? swing0 : a0[0];
		(&grad[0].x)[j] = (a1[0] - d0) / eps;
		(&grad[1].x)[j] = (a1[1] - a0[1]) / eps;
		(&grad[2].x)[j] = (a1[2] - a0[2]) / eps;
	}
	int count = 0;
	for (int c = 0; c < 3; ++c)
	{
		if (!active[c])
			continue;
		lbVec3 d = grad[c];
		for (int k = 0; k < count; ++k)
			d = lbMulAdd(d, -lbDot(d, outDirs[k]), outDirs[k]);
		if (lbLengthSquared(d) > 1.0e-6f)
			outDirs[count++] = lbNormalize(d);
	}
	return count;
}

// Keeps a held limb's increments inside the root and mid rotation limits (projection).
static void lbFbikClampHold(const lbFbikContext* ctx, const lbFbikLimb* L, const lbFbikHold* hd, float* x)
{
	const lbFullBodyIkDef* st = ctx->st;
	float* xl = x + hd->col;
	lbVec3 along, bend;
	lbQuat ref;
	if (st->limits[L->rootRole].kind != lb_limitNone &&
		lbFbikGetAxes(ctx->axes, L->rootRole, &along, &bend, &ref))
	{
		lbQuat q = lbQuatNormalize(lbQuatMul(lbFbikExp(lbMakeVec3(xl[0], xl[1], xl[2])), hd->rootBase));
		lbQuat c = lbClampToJointLimit(&st->limits[L->rootRole], ref, along, bend, q);
		if (memcmp(&c, &q, sizeof q) != 0)
		{
			lbVec3 w = lbFbikLog(lbQuatMul(c, lbQuatConj(hd->rootBase)));
			xl[0] = w.x, xl[1] = w.y, xl[2] = w.z;
		}
	}
	const lbJointLimit* ml = &st->limits[L->midRole];
	if (ml->kind == lb_limitRanges && lbFbikGetAxes(ctx->axes, L->midRole, &along, &bend, &ref))
	{
		// The increment turns about the hinge, which is the limit's bend axis: a few corrections
		// by the bend's excess land it on the range.
		for (int it = 0; it < 3; ++it)
		{
			lbQuat q = lbQuatMul(lbFbikExp(lbMulSV(xl[3], hd->hingeMidParent)), hd->midBase);
			float b, sd, t;
			lbLimitAngles(ref, along, bend, lbQuatNormalize(q), &b, &sd, &t);
			float fix = b < ml->bendMin ? ml->bendMin - b : (b > ml->bendMax ? ml->bendMax - b : 0.0f);
			if (fix == 0.0f)
				break;
			xl[3] += fix;
		}
	}
}

// Applies x and builds the normal equations (A, g) of the weighted residuals and the stiffness
// terms; returns the cost (half the squared weighted norm, up to a factor) and the active rows.
static float lbFbikBuild(const lbFbikContext* ctx, const float* x, float* A, float* g, int* outRows)
{
	const int n = ctx->n;
	lbPose* pose = ctx->pose;
	const lbSkeleton* s = ctx->s;
	const lbHumanoid* h = ctx->h;
	const lbFullBodyIkDef* st = ctx->st;
	const lbFbikBody* bodyp = ctx->body;
	const lbFbikLimb* limbs = ctx->limbs;
	const float* alpha = ctx->alpha;
	const lbVec3* goal = ctx->goal;
	const lbFbikHold* hold = ctx->hold;
	const lbQuat pelvisGoalQ = ctx->pelvisGoalQ;
	const float pelvisRotAlpha = ctx->pelvisRotAlpha;
	const float* reg = ctx->reg;
	float costValue = 0.0f;
	float* cost = &costValue;
	memset(A, 0, sizeof(float) * (size_t)(n * n));
	memset(g, 0, sizeof(float) * (size_t)n);
	lbFbikApply(pose, s, bodyp, x, false);
#define body (*bodyp)
	const lbVec3 c0 = pose->model[body.pelvis].p;
	lbVec3 c1 = lbVec3_zero;
	for (int k = 0; k < body.spineCount; ++k)
		c1 = lbMulAdd(c1, body.spineShare[k], pose->model[body.spine[k]].p);
	int rows = 0;
	float J[LB_FBIK_MAX_DOF] = { 0 };
	for (int i = 0; i < 4; ++i)
	{
		const lbFbikLimb* L = &limbs[i];
		float a = alpha[L->slot];
		if (!(a > 0.0f))
			continue;
		if (hold[i].on)
		{
			// The end onto the goal, moved by the body (carrying the limb) and by the limb's own
			// root rotation (about axes of the root's parent frame) and mid bend (about the hinge).
			const lbFbikHold* hd = &hold[i];
			lbFbikApplyHold(pose, s, L, hd, x);
			lbVec3 p = pose->model[L->end].p, err = lbSub(p, goal[L->slot]);
			lbVec3 fromRoot = lbSub(p, pose->model[L->root].p), fromMid = lbSub(p, pose->model[L->mid].p);
			int rp = s->parents[L->root], mp = s->parents[L->mid];
			lbQuat rootParentQ = rp == LB_NULL_INDEX ? lbQuat_identity : pose->model[rp].q;
			lbVec3 hingeMs = lbQuatRotate(pose->model[mp].q, hd->hingeMidParent);
			lbVec3 dirs[3];
			int active = lbFbikActiveLimitDirs(ctx, L, pose->local[L->root].q, dirs);
			// The mid bend on an end of its range only turns back inward: left to the next round.
			bool midActive = false;
			{
				const lbJointLimit* ml = &st->limits[L->midRole];
				lbVec3 along, bend;
				lbQuat ref;
				if (ml->kind == lb_limitRanges && lbFbikGetAxes(ctx->axes, L->midRole, &along, &bend, &ref))
				{
					float b, sd, t;
					lbLimitAngles(ref, along, bend, pose->local[L->mid].q, &b, &sd, &t);
					midActive = b <= ml->bendMin + 1.0e-4f || b >= ml->bendMax - 1.0e-4f;
				}
			}
			const lbVec3 axes[3] = { lbVec3_axisX, lbVec3_axisY, lbVec3_axisZ };
			for (int k = 0; k < 3; ++k)
			{
				lbPointRow(J, axes[k], p, c0, c1, L->arm);
				// e_k . (w x r) = w . (r x e_k), w in the parent frame.
				lbVec3 jr = lbQuatRotate(lbQuatConj(rootParentQ), lbCross(fromRoot, axes[k]));
				J[hd->col] = jr.x, J[hd->col + 1] = jr.y, J[hd->col + 2] = jr.z;
				J[hd->col + 3] = lbDot(hingeMs, lbCross(fromMid, axes[k]));
				lbAddRow(A, g, cost, J, (&err.x)[k], 1.0e4f * a, n);
				for (int c = 0; c < LB_FBIK_LIMB_DOF; ++c)
					J[hd->col + c] = 0.0f;
			}
			// Stiff rows against turning along an active limit direction (zero residual): the step
			// slides along the limit. Rows, not a projection of the Jacobian, keep the system well
			// conditioned.
			float Jl[LB_FBIK_MAX_DOF] = { 0 };
			for (int c = 0; c < active; ++c)
			{
				Jl[hd->col] = dirs[c].x, Jl[hd->col + 1] = dirs[c].y, Jl[hd->col + 2] = dirs[c].z;
				lbAddRow(A, g, cost, Jl, 0.0f, 1.0e4f * a, n);
			}
			if (midActive)
			{
				memset(Jl, 0, sizeof Jl);
				Jl[hd->col + 3] = 1.0f;
				lbAddRow(A, g, cost, Jl, 0.0f, 1.0e4f * a, n);
			}
			++rows;
			continue;
		}
		lbVec3 root = pose->model[L->root].p;
		lbVec3 toGoal = lbSub(goal[L->slot], root);
		float d = lbLength(toGoal);
		if (!(d > 1.0e-6f))
			continue;
		lbVec3 u = lbMulSV(1.0f / d, toGoal);
		float full = L->l1 + L->l2;
		float reach = full * st->reachFraction;
		float bendMax = st->limits[L->midRole].kind == lb_limitRanges ? st->limits[L->midRole].bendMax : LB_PI;
		float fold =
			sqrtf(lbMaxF(L->l1 * L->l1 + L->l2 * L->l2 - 2.0f * L->l1 * L->l2 * cosf(LB_PI - bendMax), 0.0f));
		float nearest = lbMinF(fold * 1.05f + 0.01f, 0.5f * reach);
		// d grows when the root moves against u: dd/dx = -u . dRoot/dx.
		lbPointRow(J, lbNeg(u), root, c0, c1, L->arm);
		if (d > reach)
		{
			lbAddRow(A, g, cost, J, d - reach, a, n);
			++rows;
			// Beyond full length the limb cannot reach at all: weigh that far more.
			if (d > full * 0.999f)
				lbAddRow(A, g, cost, J, d - full * 0.999f, 1.0e3f * a, n);
		}
		else if (d < nearest)
		{
			lbAddRow(A, g, cost, J, d - nearest, a, n);
			++rows;
		}
	}
	if (alpha[lb_effectorHead] > 0.0f)
	{
		lbVec3 p = pose->model[h->head].p, err = lbSub(p, goal[lb_effectorHead]);
		const lbVec3 axes[3] = { lbVec3_axisX, lbVec3_axisY, lbVec3_axisZ };
		for (int k = 0; k < 3; ++k)
		{
			lbPointRow(J, axes[k], p, c0, c1, true);
			lbAddRow(A, g, cost, J, (&err.x)[k], 100.0f * alpha[lb_effectorHead], n);
		}
		++rows;
	}
	if (alpha[lb_effectorPelvis] > 0.0f)
	{
		lbVec3 err = lbSub(c0, goal[lb_effectorPelvis]);
		for (int k = 0; k < 3; ++k)
		{
			float Jp[LB_FBIK_MAX_DOF] = { 0 };
			Jp[k] = 1.0f;
			lbAddRow(A, g, cost, Jp, (&err.x)[k], 100.0f * alpha[lb_effectorPelvis], n);
		}
		++rows;
	}
	if (pelvisRotAlpha > 0.0f)
	{
		lbVec3 axis;
		float ang = lbQuatToAxisAngle(lbQuatMul(pose->model[body.pelvis].q, lbQuatConj(pelvisGoalQ)), &axis);
		lbVec3 err = lbMulSV(ang, axis);
		for (int k = 0; k < 3; ++k)
		{
			float Jr[LB_FBIK_MAX_DOF] = { 0 };
			Jr[3 + k] = 1.0f;
			lbAddRow(A, g, cost, Jr, (&err.x)[k], 0.09f, n);
		}
		++rows;
	}
	// Travel and rotation bounds as stiff penalties from 90% of each bound, so the step uses
	// the other DoFs instead of running into a clamp (the clamp below stays exact).
	{
		lbVec3 t = { x[0], x[1], x[2] };
		float v = lbDot(t, body.up);
		float sink = lbMaxF(st->pelvisMaxSink, 0.0f), rise = lbMaxF(st->pelvisMaxRise, 0.0f);
		float Jb[LB_FBIK_MAX_DOF] = { 0 };
		if (v < -0.9f * sink || v > 0.9f * rise)
		{
			Jb[0] = body.up.x, Jb[1] = body.up.y, Jb[2] = body.up.z;
			lbAddRow(A, g, cost, Jb, v < 0.0f ? v + 0.9f * sink : v - 0.9f * rise, 100.0f, n);
		}
		lbVec3 hz = lbProjectOnPlane(t, body.up);
		float hl = lbLength(hz);
		if (hl > 0.9f * st->pelvisMaxHorizontal && hl > 0.0f)
		{
			lbVec3 dir = lbMulSV(1.0f / hl, hz);
			float Jh[LB_FBIK_MAX_DOF] = { dir.x, dir.y, dir.z };
			lbAddRow(A, g, cost, Jh, hl - 0.9f * st->pelvisMaxHorizontal, 100.0f, n);
		}
		for (int blk = 1; blk < 3; ++blk)
		{
			lbVec3 w = { x[3 * blk], x[3 * blk + 1], x[3 * blk + 2] };
			float wl = lbLength(w), bound = blk == 1 ? st->pelvisMaxRotation : body.spineMax;
			if (wl > 0.9f * bound && wl > 0.0f)
			{
				float Jw[LB_FBIK_MAX_DOF] = { 0 };
				Jw[3 * blk] = w.x / wl, Jw[3 * blk + 1] = w.y / wl, Jw[3 * blk + 2] = w.z / wl;
				lbAddRow(A, g, cost, Jw, (wl - 0.9f * bound) * 0.3f, 100.0f, n);
			}
		}
	}
	// Stiffness pulls x toward the input pose; damping keeps the step well conditioned.
	for (int i = 0; i < LB_FBIK_DOF; ++i)
	{
		A[i * n + i] += reg[i] + lbMaxF(st->damping, 1.0e-9f);
		g[i] += reg[i] * x[i];
	}
	for (int i = LB_FBIK_DOF; i < n; ++i)
		A[i * n + i] += lbMaxF(st->damping, 1.0e-9f);
#undef body
	*outRows = rows;
	return costValue;
}

// Whether any float of `count` transforms is NaN or infinite (as lbPose_IsFinite asks): the
// exponent field plus one carries into the sign bit exactly when it is all ones. One loop over the
// floats with no branch, which the compiler runs on vectors.
_Static_assert(sizeof(lbTransform) == 10 * sizeof(float), "lbTransform is ten floats");
static bool lbFbikNonFinite(const float* f, int count)
{
	uint32_t acc = 0u;
	for (size_t i = 0; i < (size_t)count * 10u; ++i)
	{
		uint32_t u;
		memcpy(&u, &f[i], sizeof u);
		acc |= (u & 0x7F800000u) + 0x00800000u;
	}
	return (acc & 0x80000000u) != 0u;
}

// `bodyOnly`: the caller has checked the pose (finite, unit rotations) and puts every limb back
// itself after the solve (lbSolveFullBodyIkBody), so the per-bone checks, the copy of the input
// kept to restore from and the check of the result are its own, and what the limb stage does
// below a limb's mid bone (the end's limit clamp and what hangs below it, which no later round
// reads: a held limb's rows read its root, its mid and its end's position) is left out, as is
// carrying the bones beside a limb's chain with the body (lbFbikRig::carryOff).
static lbResult lbFbikSolve(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
							const lbFullBodyIkDef* settings, const lbFullBodyIkEffector* effectors, void* workspace,
							size_t workspaceSize, lbIkResult* outResult, bool bodyOnly)
{
	lbIkResult res = { lb_ikNotSolved, false, 0.0f, 0 };
	if (outResult)
		*outResult = res;
	static const char fn[] = "lbSolveFullBodyIk";
	lbResult r = lbIkCheckPose(fn, pose, skeleton);
	if (r != lb_ok)
		return r;
	if (!humanoid || !settings || !effectors)
		return lbReport(lb_errorNullPointer, "%s: humanoid, settings or effectors is NULL", fn);
	if (!workspace)
		return lbReport(lb_errorNullPointer, "%s: workspace is NULL", fn);
	if (((uintptr_t)workspace % _Alignof(lbTransform)) != 0)
		return lbReport(lb_errorInvalidArgument, "%s: workspace is not aligned for lbTransform", fn);
	if (workspaceSize < lbGetFullBodyIkWorkspaceSize(skeleton))
		return lbReport(lb_errorCapacity, "%s: workspace of %zu bytes, %zu needed", fn, workspaceSize,
						lbGetFullBodyIkWorkspaceSize(skeleton));
	const lbSkeleton* s = skeleton;
	const lbHumanoid* h = humanoid;
	const lbFullBodyIkDef* st = settings;
	lbFbikRig* rig = (lbFbikRig*)((unsigned char*)workspace +
								  (_Alignof(lbFbikRig) - (uintptr_t)workspace % _Alignof(lbFbikRig)) % _Alignof(lbFbikRig));
	if (!lbFbikRigMatches(rig, s, h, st))
	{
		rig->key.magic = 0u;
		r = lbCheckFbikRig(s, h, st);
		if (r != lb_ok)
			return r;
		lbFbikPrepareRig(rig, s, h, st);
	}
	r = lbCheckFbikCall(pose, s, h, st, effectors, !bodyOnly);
	if (r != lb_ok)
		return r;
	const int n = pose->boneCount;
	// The input pose, kept to restore should anything go non-finite.
	lbTransform* inLocal = (lbTransform*)(rig + 1);
	lbTransform* inModel = inLocal + n;
	if (!bodyOnly)
	{
		memcpy(inLocal, pose->local, sizeof(lbTransform) * (size_t)n);
		memcpy(inModel, pose->model, sizeof(lbTransform) * (size_t)n);
	}
	lbTransform* bestLocal = inModel + n;
	lbTransform* bestModel = bestLocal + n;
	// The rig and the four arrays are what lbGetFullBodyIkWorkspaceSize counts (checked against
	// workspaceSize).
	LB_ASSERT((size_t)((char*)(bestModel + n) - (char*)workspace) <= lbGetFullBodyIkWorkspaceSize(s));
	float bestError = 0.0f;

	lbFbikLimb limbs[4];
	memcpy(limbs, rig->limbs, sizeof limbs);
	for (int i = 0; i < 4; ++i)
	{
		lbFbikLimb* L = &limbs[i];
		L->l1 = lbDistance(pose->model[L->root].p, pose->model[L->mid].p);
		L->l2 = lbDistance(pose->model[L->mid].p, pose->model[L->end].p);
	}
	lbFbikBody body = rig->body;
	body.pelvisInput = pose->model[h->pelvis];
	for (int k = 0; k < body.spineCount; ++k)
		body.spineLocal[k] = pose->local[body.spine[k]];
	body.up = lbLengthSquared(st->upMs) > 0.0f ? lbNormalize(st->upMs) : h->upMs;

	// Goals: from the input position toward the target by the position alpha.
	lbVec3 goal[lb_effectorCount];
	float alpha[lb_effectorCount];
	const int effBone[lb_effectorCount] = { h->arm[0].hand, h->arm[1].hand, h->leg[0].foot, h->leg[1].foot, h->head,
											h->pelvis };
	for (int k = 0; k < lb_effectorCount; ++k)
	{
		alpha[k] = lbClampF(effectors[k].positionAlpha, 0.0f, 1.0f);
		goal[k] = lbLerp(pose->model[effBone[k]].p, effectors[k].targetMs, alpha[k]);
	}
	const float pelvisRotAlpha = lbClampF(effectors[lb_effectorPelvis].rotationAlpha, 0.0f, 1.0f);
	// Read only when the pelvis's rotation alpha is above 0.
	lbQuat pelvisGoalQ =
		pelvisRotAlpha > 0.0f
			? lbQuatSlerp(body.pelvisInput.q, lbQuatNormalize(effectors[lb_effectorPelvis].targetRotationMs), pelvisRotAlpha)
			: body.pelvisInput.q;

	// Stage 1: body.
	const float* reg = rig->reg;
	const bool anyBody = alpha[0] > 0.0f || alpha[1] > 0.0f || alpha[2] > 0.0f || alpha[3] > 0.0f ||
						 alpha[lb_effectorHead] > 0.0f || alpha[lb_effectorPelvis] > 0.0f || pelvisRotAlpha > 0.0f;
	float x[LB_FBIK_MAX_DOF] = { 0 };
	int iterations = 0;
	// Round 0 solves the body alone. A limb its limits then keep from its goal is held: its root
	// rotation and mid bend join the unknowns (inside their limits) and its end is pulled onto the
	// goal, so body and limb are solved together (at most LB_FULL_BODY_IK_ROUNDS - 1 more rounds).
	lbFbikHold hold[4];
	memset(hold, 0, sizeof hold);
	lbFbikContext ctx = { pose, s, h, st, rig->axes, &body, limbs, alpha, goal, hold, LB_FBIK_DOF, pelvisGoalQ, pelvisRotAlpha, reg };
	for (int round = 0; round < LB_FULL_BODY_IK_ROUNDS; ++round)
	{
		int dof = LB_FBIK_DOF;
		for (int i = 0; i < 4; ++i)
		{
			lbFbikHold* hd = &hold[i];
			if (!hd->on)
				continue;
			const lbFbikLimb* L = &limbs[i];
			hd->col = dof;
			hd->rootBase = pose->local[L->root].q;
			hd->midBase = pose->local[L->mid].q;
			lbVec3 hingeMs = lbQuatRotate(pose->model[L->root].q, L->hingeRoot);
			hd->hingeMidParent = lbNormalize(lbQuatRotate(lbQuatConj(pose->model[s->parents[L->mid]].q), hingeMs));
			for (int c = 0; c < LB_FBIK_LIMB_DOF; ++c)
				x[dof + c] = 0.0f;
			dof += LB_FBIK_LIMB_DOF;
		}
		ctx.n = dof;
		int budget = st->iterations;
		// Levenberg-Marquardt: a step is kept only when it lowers the cost; otherwise the damping
		// grows and the step shrinks. This also stops one-sided rows (reach, bounds) from making
		// Gauss-Newton cycle.
		float A[LB_FBIK_MAX_DOF * LB_FBIK_MAX_DOF], g[LB_FBIK_MAX_DOF];
		int rows = 0;
		float cost = anyBody ? lbFbikBuild(&ctx, x, A, g, &rows) : 0.0f;
		// Whether the pose's body models are lbFbikApply's of x (the last residuals were x's): then
		// the apply after the loop only has the locals left to write. Held limbs' increments are
		// zeroed after a step, so with holds the body is applied again.
		bool applied = anyBody && dof == LB_FBIK_DOF;
		float lambda = lbMaxF(st->damping, 1.0e-9f);
		// Nothing to move (no residual row, no bound's penalty, x at the input pose): the gradient
		// is zero, the first step would be zero and converge, and the body stays as it is. That
		// step is counted and not taken (it would apply the same x again).
		if (anyBody && dof == LB_FBIK_DOF && rows == 0 && budget > 0)
		{
			bool flatStart = true;
			for (int i = 0; i < dof; ++i)
				flatStart = flatStart && g[i] == 0.0f;
			if (flatStart)
			{
				++iterations;
				budget = 0;
			}
		}
		for (int it = 0; anyBody && it < budget; ++it)
		{
			++iterations;
			float M[LB_FBIK_MAX_DOF * LB_FBIK_MAX_DOF], step[LB_FBIK_MAX_DOF];
			memcpy(M, A, sizeof(float) * (size_t)(dof * dof));
			memcpy(step, g, sizeof(float) * (size_t)dof);
			for (int i = 0; i < dof; ++i)
				M[i * dof + i] += lambda * (1.0f + A[i * dof + i]);
			// (The body alone, almost every solve, with a size the compiler can unroll.)
			if (!(dof == LB_FBIK_DOF ? lbCholeskySolve(M, step, LB_FBIK_DOF) : lbCholeskySolve(M, step, dof)))
				break;
			// Trust region: at most 5 cm and 0.1 rad per step.
			float tl = lbLength(lbMakeVec3(step[0], step[1], step[2]));
			float rl = lbMaxF(lbLength(lbMakeVec3(step[3], step[4], step[5])), lbLength(lbMakeVec3(step[6], step[7], step[8])));
			for (int c = LB_FBIK_DOF; c < dof; c += LB_FBIK_LIMB_DOF)
				rl = lbMaxF(rl, lbMaxF(lbLength(lbMakeVec3(step[c], step[c + 1], step[c + 2])), lbAbsF(step[c + 3])));
			float scale = lbMinF(1.0f, lbMinF(0.05f / lbMaxF(tl, 1.0e-12f), 0.1f / lbMaxF(rl, 1.0e-12f)));
			float xn[LB_FBIK_MAX_DOF], stepMax = 0.0f;
			for (int i = 0; i < dof; ++i)
			{
				xn[i] = x[i] - scale * step[i];
				stepMax = lbMaxF(stepMax, lbAbsF(scale * step[i]));
			}
			lbFbikClamp(xn, &body, st);
			for (int i = 0; i < 4; ++i)
			{
				if (hold[i].on)
					lbFbikClampHold(&ctx, &limbs[i], &hold[i], xn);
			}
			float An[LB_FBIK_MAX_DOF * LB_FBIK_MAX_DOF], gn[LB_FBIK_MAX_DOF];
			int rowsN = 0;
			float costN = lbFbikBuild(&ctx, xn, An, gn, &rowsN);
			// With held limbs the end rows are exact: also stop once a step gains next to nothing.
			bool flat = dof > LB_FBIK_DOF && costN <= cost && cost - costN <= 1.0e-3f * cost;
			applied = costN <= cost && dof == LB_FBIK_DOF;
			if (costN <= cost)
			{
				memcpy(x, xn, sizeof(float) * (size_t)dof);
				memcpy(A, An, sizeof(float) * (size_t)(dof * dof));
				memcpy(g, gn, sizeof(float) * (size_t)dof);
				cost = costN;
				rows = rowsN;
				lambda = lbMaxF(lambda * 0.3f, lbMaxF(st->damping, 1.0e-9f));
				// Held limbs: the accepted rotations become the new base (increments back to zero).
				for (int i = 0; i < 4; ++i)
				{
					lbFbikHold* hd = &hold[i];
					if (!hd->on)
						continue;
					hd->rootBase = pose->local[limbs[i].root].q;
					hd->midBase = pose->local[limbs[i].mid].q;
					for (int c = 0; c < LB_FBIK_LIMB_DOF; ++c)
						x[hd->col + c] = 0.0f;
				}
			}
			else
				lambda *= 10.0f;
			// Converged: an accepted step below 10 micrometres / 10 microradians changes nothing visible.
			if ((costN <= cost && stepMax < 1.0e-5f) || flat || (stepMax < 1.0e-6f && rows == 0) || lambda > 1.0e6f)
				break;
		}
		for (int i = 0; i < 4; ++i)
		{
			if (hold[i].on)
			{
				pose->local[limbs[i].root].q = hold[i].rootBase;
				pose->local[limbs[i].mid].q = hold[i].midBase;
			}
		}
		if (applied)
			lbFbikApplyLocals(pose, s, &body);
		else
			lbFbikApply(pose, s, &body, x, true);
		lbFbikCarryBody(pose, s, rig, bodyOnly);
		bool spineClamped = false;
		for (int k = 0; k < body.spineCount; ++k)
			spineClamped |= lbFbikClampBone(pose, s, rig->axes, st, (lbRole)(lb_roleSpine1 + k), body.spine[k]);
		if (spineClamped)
			lbFbikCarryBody(pose, s, rig, bodyOnly);

		// Stage 2: limbs, then end rotations.
		bool again = false;
		float roundError = 0.0f;
		for (int i = 0; i < 4; ++i)
		{
			const lbFbikLimb* L = &limbs[i];
			const lbFullBodyIkEffector* e = &effectors[L->slot];
			if (alpha[L->slot] > 0.0f)
			{
				lbFbikSolveLimb(pose, s, rig->axes, st, L, e, goal[L->slot], hold[i].on, bodyOnly);
				float err = lbDistance(pose->model[L->end].p, goal[L->slot]);
				roundError = lbMaxF(roundError, err);
				if (err > 0.5f * lbMaxF(st->tolerance, 0.0f) && L->chainCount > 0)
				{
					hold[i].on = true;
					again = true;
				}
			}
			float ra = lbClampF(e->rotationAlpha, 0.0f, 1.0f);
			if (ra > 0.0f || (alpha[L->slot] > 0.0f && !bodyOnly))
			{
				if (ra > 0.0f)
				{
					lbTransform m = pose->model[L->end];
					m.q = lbQuatSlerp(m.q, lbQuatNormalize(e->targetRotationMs), ra);
					lbIkSetModel(pose, s, L->end, m);
				}
				// What hangs below the end is current unless its rotation or its clamp moved it.
				if (lbFbikClampBone(pose, s, rig->axes, st, L->endRole, L->end) || ra > 0.0f)
					lbPose_UpdateSubtree(pose, s, L->end);
			}
		}
		// The result is the round with the smallest largest limb error (a round may trade one
		// limb's error for another's on the way).
		bool last = !again || !anyBody || round + 1 == LB_FULL_BODY_IK_ROUNDS;
		if (round > 0 && !(roundError < bestError))
		{
			if (last)
			{
				memcpy(pose->local, bestLocal, sizeof(lbTransform) * (size_t)n);
				memcpy(pose->model, bestModel, sizeof(lbTransform) * (size_t)n);
			}
		}
		else if (!last)
		{
			bestError = roundError;
			memcpy(bestLocal, pose->local, sizeof(lbTransform) * (size_t)n);
			memcpy(bestModel, pose->model, sizeof(lbTransform) * (size_t)n);
		}
		if (last)
			break;
	}
	float headRot = lbClampF(effectors[lb_effectorHead].rotationAlpha, 0.0f, 1.0f);
	if (headRot > 0.0f)
	{
		lbTransform m = pose->model[h->head];
		m.q = lbQuatSlerp(m.q, lbQuatNormalize(effectors[lb_effectorHead].targetRotationMs), headRot);
		lbIkSetModel(pose, s, h->head, m);
		lbPose_UpdateSubtree(pose, s, h->head);
	}

	// Both checks always run (no branch between them); the int casts say the bitwise or is meant.
	if (!bodyOnly && ((int)lbFbikNonFinite(&pose->local[0].p.x, n) | (int)lbFbikNonFinite(&pose->model[0].p.x, n)))
	{
		memcpy(pose->local, inLocal, sizeof(lbTransform) * (size_t)n);
		memcpy(pose->model, inModel, sizeof(lbTransform) * (size_t)n);
		return lbReport(lb_errorNonFinite, "lbSolveFullBodyIk: the solve produced a non-finite pose; input kept");
	}
	float worst = 0.0f;
	for (int k = 0; k < lb_effectorCount; ++k)
	{
		if (alpha[k] > 0.0f)
			worst = lbMaxF(worst, lbDistance(pose->model[effBone[k]].p, goal[k]));
	}
	res.iterations = iterations;
	res.remainingDistance = worst;
	res.reached = worst <= lbMaxF(st->tolerance, 0.0f);
	res.status = res.reached ? lb_ikReached : lb_ikUnreachable;
	if (outResult)
		*outResult = res;
	return lb_ok;
}

lbResult lbSolveFullBodyIk(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
						   const lbFullBodyIkDef* settings, const lbFullBodyIkEffector* effectors, void* workspace,
						   size_t workspaceSize, lbIkResult* outResult)
{
	return lbFbikSolve(pose, skeleton, humanoid, settings, effectors, workspace, workspaceSize, outResult, false);
}

lbResult lbSolveFullBodyIkBody(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
							   const lbFullBodyIkDef* settings, const lbFullBodyIkEffector* effectors, void* workspace,
							   size_t workspaceSize, lbIkResult* outResult)
{
	return lbFbikSolve(pose, skeleton, humanoid, settings, effectors, workspace, workspaceSize, outResult, true);
}
