// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Full-body IK on both reference rigs: jointly reachable targets (from FK of random valid poses)
// reached together, three held effectors stay put while a fourth moves, rotation limits kept,
// knees and elbows never inverted, pelvis travel limited, twist bones untouched, bit-identical
// repeats, bad input.
#include "limber/ik.h"
#include "limber/rigs.h"
#include "test_macros.h"

#include <stdlib.h>

static int Cases(int n)
{
	return getenv("LB_SANITIZE_RUN") ? (n / 10 > 2 ? n / 10 : 2) : n;
}

typedef struct Rig
{
	lbSkeleton* s;
	lbHumanoid h;
	lbPose pose;
	void* ws;
	size_t wsSize;
} Rig;

static Rig MakeRig(lbReferenceRig which)
{
	Rig r;
	r.s = lbCreateReferenceRig(which);
	lbMapHumanoid(r.s, NULL, &r.h);
	r.pose = lbCreatePose(r.s);
	r.wsSize = lbGetFullBodyIkWorkspaceSize(r.s);
	r.ws = malloc(r.wsSize);
	return r;
}

static void FreeRig(Rig* r)
{
	free(r->ws);
	lbDestroyPose(&r->pose);
	lbDestroySkeleton(r->s);
}

// Local rotation of `role` as rest * swing(bend, side) * twist, in the role's anatomical axes.
static void SetAnatomical(Rig* r, lbRole role, float bend, float side, float twist)
{
	lbVec3 along, b;
	lbQuat ref;
	int bone = lbHumanoid_GetRoleBone(&r->h, role);
	ENSURE(lbHumanoid_GetLimitAxes(&r->h, r->s, role, &along, &b, &ref));
	lbVec3 c = lbCross(along, b);
	lbVec3 rot = lbAdd(lbMulSV(bend, b), lbMulSV(side, c));
	lbQuat swing = lbLength(rot) > 0.0f ? lbQuatFromAxisAngle(rot, lbLength(rot)) : lbQuat_identity;
	r->pose.local[bone].q = lbQuatMul(ref, lbQuatMul(swing, lbQuatFromAxisAngle(along, twist)));
}

// A random pose inside the default limits: pelvis moved and turned within its travel limits,
// spine bent, limbs posed with knees and elbows bent 10..100 degrees.
static void RandomValidPose(Rig* r, lbTestRng* rng, float scale)
{
	const float d = LB_DEG2RAD * scale;
	lbPose_SetRest(&r->pose, r->s);
	int pelvis = r->h.pelvis;
	lbVec3 move = lbMulSV(0.06f * scale, lbTestRandomUnit(rng));
	lbTransform pm = r->pose.model[pelvis];
	pm.p = lbAdd(pm.p, move);
	pm.q = lbQuatMul(lbQuatFromAxisAngle(lbTestRandomUnit(rng), lbTestUniform(rng, 0.0f, 0.25f * scale)), pm.q);
	lbPose_SetBoneModel(&r->pose, r->s, pelvis, pm, true);
	for (int k = 0; k < r->h.spineCount; ++k)
		SetAnatomical(r, (lbRole)(lb_roleSpine1 + k), lbTestUniform(rng, -10, 10) * d, lbTestUniform(rng, -8, 8) * d,
					  lbTestUniform(rng, -10, 10) * d);
	for (int side = 0; side < 2; ++side)
	{
		int o = side ? lb_roleClavicleR - lb_roleClavicleL : 0;
		SetAnatomical(r, (lbRole)(lb_roleThighL + o), lbTestUniform(rng, -40, 50) * d, lbTestUniform(rng, -15, 15) * d,
					  lbTestUniform(rng, -15, 15) * d);
		SetAnatomical(r, (lbRole)(lb_roleCalfL + o), lbTestUniform(rng, 10, 100) * d, 0.0f, 0.0f);
		SetAnatomical(r, (lbRole)(lb_roleUpperArmL + o), lbTestUniform(rng, -50, 50) * d, lbTestUniform(rng, -50, 50) * d,
					  lbTestUniform(rng, -40, 40) * d);
		SetAnatomical(r, (lbRole)(lb_roleForeArmL + o), lbTestUniform(rng, 10, 110) * d, 0.0f,
					  lbTestUniform(rng, -40, 40) * d);
	}
	lbPose_LocalToModel(&r->pose, r->s);
}

static const lbRole kLimitedRoles[] = { lb_roleSpine1,    lb_roleSpine2,   lb_roleSpine3,   lb_roleThighL, lb_roleCalfL,
										lb_roleFootL,     lb_roleUpperArmL, lb_roleForeArmL, lb_roleHandL,  lb_roleThighR,
										lb_roleCalfR,     lb_roleFootR,    lb_roleUpperArmR, lb_roleForeArmR, lb_roleHandR };

// Independent check of a limit: decomposes local relative to rest with the test's own math.
static bool WithinLimit(const Rig* r, const lbFullBodyIkDef* st, lbRole role, float slack)
{
	int bone = lbHumanoid_GetRoleBone(&r->h, role);
	const lbJointLimit* l = &st->limits[role];
	lbVec3 along, b;
	lbQuat ref;
	if (bone < 0 || l->kind == lb_limitNone || !lbHumanoid_GetLimitAxes(&r->h, r->s, role, &along, &b, &ref))
		return true;
	lbQuat d = lbQuatMul(lbQuatConj(ref), r->pose.local[bone].q);
	d = lbQuatCanonical(d);
	// twist = projection of the vector part on `along`; swing = d * conj(twist).
	float p = d.x * along.x + d.y * along.y + d.z * along.z;
	lbQuat tw = lbQuatNormalize(lbMakeQuat(along.x * p, along.y * p, along.z * p, d.w));
	double twist = 2.0 * atan2((double)(tw.x * along.x + tw.y * along.y + tw.z * along.z), (double)tw.w);
	if (twist > LB_PI)
		twist -= 2.0 * LB_PI;
	if (twist < -LB_PI)
		twist += 2.0 * LB_PI;
	lbQuat sw = lbQuatCanonical(lbQuatMul(d, lbQuatConj(tw)));
	lbVec3 v = { sw.x, sw.y, sw.z };
	double sl = lbLength(v), ang = 2.0 * atan2(sl, (double)sw.w);
	lbVec3 rot = sl > 1e-9 ? lbMulSV((float)(ang / sl), v) : lbVec3_zero;
	double bend = lbDot(rot, b), side = lbDot(rot, lbCross(along, b));
	bool ok = twist >= l->twistMin - slack && twist <= l->twistMax + slack;
	if (l->kind == lb_limitCone)
		ok = ok && sqrt(bend * bend + side * side) <= l->swingMax + slack;
	else
		ok = ok && bend >= l->bendMin - slack && bend <= l->bendMax + slack && side >= l->sideMin - slack &&
			 side <= l->sideMax + slack;
	return ok;
}

// Signed knee or elbow bend about the derived hinge (radians, positive = anatomical).
static float LimbBend(const Rig* r, lbLimb limb)
{
	lbLimbChain c;
	lbHumanoid_GetLimbChain(&r->h, limb, &c);
	lbVec3 hinge = lbLimbChain_HingeMs(&c, &r->pose);
	lbVec3 u = lbSub(r->pose.model[c.mid].p, r->pose.model[c.root].p);
	lbVec3 l = lbSub(r->pose.model[c.end].p, r->pose.model[c.mid].p);
	return atan2f(lbDot(hinge, lbCross(u, l)), lbDot(u, l));
}

static const int kEndOf[4] = { lb_effectorHandL, lb_effectorHandR, lb_effectorFootL, lb_effectorFootR };

static int EndBone(const Rig* r, int slot)
{
	switch (slot)
	{
		case lb_effectorHandL:
			return r->h.arm[0].hand;
		case lb_effectorHandR:
			return r->h.arm[1].hand;
		case lb_effectorFootL:
			return r->h.leg[0].foot;
		case lb_effectorFootR:
			return r->h.leg[1].foot;
		case lb_effectorHead:
			return r->h.head;
		default:
			return r->h.pelvis;
	}
}

// Checks shared by the solves below.
static void CheckOutput(const Rig* r, const lbFullBodyIkDef* st, int* limitFailures, int* inversions)
{
	for (size_t k = 0; k < sizeof kLimitedRoles / sizeof kLimitedRoles[0]; ++k)
	{
		if (!WithinLimit(r, st, kLimitedRoles[k], 2.0e-3f))
		{
			++*limitFailures;
			printf("  limit exceeded: %s\n", lbRoleName(kLimitedRoles[k]));
		}
	}
	for (int limb = 0; limb < lb_limbCount; ++limb)
	{
		if (LimbBend(r, (lbLimb)limb) < -1.0e-3f)
			++*inversions;
	}
	ENSURE(lbPose_IsFinite(&r->pose));
}

// Four effectors at alpha 1 on targets from FK of a random valid pose: all within 1 mm, limits
// kept, no inversion, repeats bit-identical; from the rest pose and from another random pose.
// 2000 cases per rig (the seed includes cases where the body placement of the first round leaves
// no swivel of a leg inside the thigh limit, which the held-limb rounds then solve).
static void FullBodyReachesJointlyReachableTargets(void)
{
	lbTestRng rng = { 2024 };
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		Rig r = MakeRig((lbReferenceRig)rig);
		lbFullBodyIkDef st = lbDefaultFullBodyIkDef();
		lbPose start = lbCreatePose(r.s), first = lbCreatePose(r.s);
		int cases = Cases(2000), limitFailures = 0, inversions = 0, misses = 0, maxIterations = 0;
		float worst = 0.0f;
		for (int c = 0; c < cases; ++c)
		{
			RandomValidPose(&r, &rng, 1.0f);
			lbFullBodyIkEffector eff[lb_effectorCount];
			for (int k = 0; k < lb_effectorCount; ++k)
				eff[k] = lbDefaultFullBodyIkEffector();
			for (int k = 0; k < 4; ++k)
			{
				eff[kEndOf[k]].targetMs = r.pose.model[EndBone(&r, kEndOf[k])].p;
				eff[kEndOf[k]].positionAlpha = 1.0f;
			}
			if (c & 1)
				RandomValidPose(&r, &rng, 0.7f);
			else
				lbPose_SetRest(&r.pose, r.s);
			lbPose_Copy(&start, &r.pose);
			lbIkResult res, res2;
			ENSURE(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res) == lb_ok);
			// Same input, same output, bit for bit.
			lbPose_Copy(&first, &r.pose);
			lbPose_Copy(&r.pose, &start);
			ENSURE(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res2) == lb_ok);
			ENSURE(memcmp(r.pose.local, first.local, sizeof(lbTransform) * (size_t)r.s->boneCount) == 0);
			ENSURE(memcmp(r.pose.model, first.model, sizeof(lbTransform) * (size_t)r.s->boneCount) == 0);
			ENSURE(res.iterations == res2.iterations &&
				   memcmp(&res.remainingDistance, &res2.remainingDistance, sizeof(float)) == 0);
			maxIterations = res.iterations > maxIterations ? res.iterations : maxIterations;
			// Model transforms agree with local ones.
			lbTransform solved[64];
			memcpy(solved, r.pose.model, sizeof(lbTransform) * (size_t)r.s->boneCount);
			lbPose_LocalToModel(&r.pose, r.s);
			for (int b = 0; b < r.s->boneCount; ++b)
			{
				if (lbDistance(solved[b].p, r.pose.model[b].p) > 1.0e-5f && getenv("LB_DEBUG"))
					printf("   bone %s moved %g\n", r.s->names[b], (double)lbDistance(solved[b].p, r.pose.model[b].p));
				ENSURE_VEC3_NEAR(solved[b].p, r.pose.model[b].p, 1.0e-5f);
			}
			float caseWorst = 0.0f;
			for (int k = 0; k < 4; ++k)
				caseWorst = lbMaxF(caseWorst, lbDistance(r.pose.model[EndBone(&r, kEndOf[k])].p, eff[kEndOf[k]].targetMs));
			worst = lbMaxF(worst, caseWorst);
			misses += caseWorst > 1.0e-3f;
			if (caseWorst > 1.0e-3f && getenv("LB_DEBUG"))
			{
				for (int k = 0; k < 4; ++k)
				{
					lbLimbChain lc;
					lbHumanoid_GetLimbChain(&r.h, (lbLimb)k, &lc);
					float dist = lbDistance(r.pose.model[lc.root].p, eff[kEndOf[k]].targetMs);
					printf("   case %d limb %d err %.4f dist/L %.4f bend %.1f\n", c, k,
						   (double)lbDistance(r.pose.model[EndBone(&r, kEndOf[k])].p, eff[kEndOf[k]].targetMs),
						   (double)(dist / (lc.upperLength + lc.lowerLength)), (double)(LimbBend(&r, (lbLimb)k) * LB_RAD2DEG));
				}
			}
			ENSURE(res.reached == (res.remainingDistance <= st.tolerance));
			// At most LB_FULL_BODY_IK_ROUNDS rounds of at most st.iterations body steps each.
			ENSURE(res.iterations >= 1 && res.iterations <= LB_FULL_BODY_IK_ROUNDS * st.iterations);
			CheckOutput(&r, &st, &limitFailures, &inversions);
		}
		printf("  %s: %d cases, worst effector error %.3g mm, misses %d, limit failures %d, inversions %d, "
			   "most body steps %d\n",
			   lbReferenceRigName((lbReferenceRig)rig), cases, (double)worst * 1e3, misses, limitFailures, inversions,
			   maxIterations);
		ENSURE(misses == 0);
		ENSURE(limitFailures == 0);
		ENSURE(inversions == 0);
		lbDestroyPose(&start);
		lbDestroyPose(&first);
		FreeRig(&r);
	}
}

static void FourEffectors(const Rig* r, lbFullBodyIkEffector* eff)
{
	for (int k = 0; k < lb_effectorCount; ++k)
		eff[k] = lbDefaultFullBodyIkEffector();
	for (int k = 0; k < 4; ++k)
	{
		eff[kEndOf[k]].targetMs = r->pose.model[EndBone(r, kEndOf[k])].p;
		eff[kEndOf[k]].positionAlpha = 1.0f;
	}
}

// Three effectors held at alpha 1 while the fourth moves: the three stay within 1 mm. Repeat
// runs are bit-identical. Twist bones never take rotation.
static void FullBodyHeldEffectorsStayAndRepeatIsIdentical(void)
{
	lbTestRng rng = { 77 };
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		Rig r = MakeRig((lbReferenceRig)rig);
		lbFullBodyIkDef st = lbDefaultFullBodyIkDef();
		lbPose first = lbCreatePose(r.s);
		int cases = Cases(2000), worstMoves = 0;
		float worst = 0.0f;
		for (int c = 0; c < cases; ++c)
		{
			RandomValidPose(&r, &rng, 1.0f);
			lbFullBodyIkEffector eff[lb_effectorCount];
			FourEffectors(&r, eff);
			// Move one effector: the same body with that limb posed again (so the four targets stay
			// reachable together).
			int moving = kEndOf[c % 4];
			{
				int side = (c % 4) & 1, o = side ? lb_roleClavicleR - lb_roleClavicleL : 0;
				const float d = LB_DEG2RAD;
				if (c % 4 < 2)
				{
					SetAnatomical(&r, (lbRole)(lb_roleUpperArmL + o), lbTestUniform(&rng, -50, 50) * d,
								  lbTestUniform(&rng, -50, 50) * d, lbTestUniform(&rng, -40, 40) * d);
					SetAnatomical(&r, (lbRole)(lb_roleForeArmL + o), lbTestUniform(&rng, 10, 110) * d, 0.0f, 0.0f);
				}
				else
				{
					SetAnatomical(&r, (lbRole)(lb_roleThighL + o), lbTestUniform(&rng, -40, 50) * d,
								  lbTestUniform(&rng, -15, 15) * d, lbTestUniform(&rng, -15, 15) * d);
					SetAnatomical(&r, (lbRole)(lb_roleCalfL + o), lbTestUniform(&rng, 10, 100) * d, 0.0f, 0.0f);
				}
				lbPose_LocalToModel(&r.pose, r.s);
				eff[moving].targetMs = r.pose.model[EndBone(&r, moving)].p;
			}
			lbPose_SetRest(&r.pose, r.s);
			lbIkResult res1, res2;
			ENSURE(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res1) == lb_ok);
			lbPose_Copy(&first, &r.pose);
			for (int k = 0; k < 4; ++k)
			{
				if (kEndOf[k] == moving)
					continue;
				float d = lbDistance(r.pose.model[EndBone(&r, kEndOf[k])].p, eff[kEndOf[k]].targetMs);
				worst = lbMaxF(worst, d);
				worstMoves += d > 1.0e-3f;
				if (d > 1.0e-3f && getenv("LB_DEBUG"))
				{
					lbLimbChain lc;
					lbHumanoid_GetLimbChain(&r.h, (lbLimb)k, &lc);
					printf("   case %d limb %d moving %d err %.4f dist/L %.4f\n", c, k, moving, (double)d,
						   (double)(lbDistance(r.pose.model[lc.root].p, eff[kEndOf[k]].targetMs) / (lc.upperLength + lc.lowerLength)));
				}
			}
			int limitFailures = 0, inversions = 0;
			CheckOutput(&r, &st, &limitFailures, &inversions);
			ENSURE(limitFailures == 0 && inversions == 0);
			// Twist bones keep their local rotation.
			for (int side = 0; side < 2; ++side)
			{
				for (int t = 0; t < r.h.arm[side].twistCount; ++t)
				{
					int b = r.h.arm[side].twist[t];
					ENSURE(memcmp(&r.pose.local[b], &r.s->restLocal[b], sizeof(lbTransform)) == 0);
				}
			}
			// Same input, same output, bit for bit.
			lbPose_SetRest(&r.pose, r.s);
			ENSURE(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res2) == lb_ok);
			ENSURE(memcmp(r.pose.local, first.local, sizeof(lbTransform) * (size_t)r.s->boneCount) == 0);
			ENSURE(memcmp(r.pose.model, first.model, sizeof(lbTransform) * (size_t)r.s->boneCount) == 0);
			ENSURE(res1.status == res2.status && res1.reached == res2.reached && res1.iterations == res2.iterations &&
				   memcmp(&res1.remainingDistance, &res2.remainingDistance, sizeof(float)) == 0);
		}
		printf("  %s: held effectors worst %.3g mm, over 1 mm %d of %d\n", lbReferenceRigName((lbReferenceRig)rig),
			   (double)worst * 1e3, worstMoves, cases * 3);
		ENSURE(worstMoves == 0);
		lbDestroyPose(&first);
		FreeRig(&r);
	}
}

// Knees and elbows start bent the wrong way: they come out bent the anatomical way.
static void FullBodyFixesInvertedStart(void)
{
	lbTestRng rng = { 8 };
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		Rig r = MakeRig((lbReferenceRig)rig);
		lbFullBodyIkDef st = lbDefaultFullBodyIkDef();
		for (int c = 0; c < Cases(50); ++c)
		{
			RandomValidPose(&r, &rng, 1.0f);
			lbFullBodyIkEffector eff[lb_effectorCount];
			FourEffectors(&r, eff);
			lbPose_SetRest(&r.pose, r.s);
			for (int side = 0; side < 2; ++side)
			{
				int o = side ? lb_roleClavicleR - lb_roleClavicleL : 0;
				SetAnatomical(&r, (lbRole)(lb_roleCalfL + o), -lbTestUniform(&rng, 10, 60) * LB_DEG2RAD, 0.0f, 0.0f);
				SetAnatomical(&r, (lbRole)(lb_roleForeArmL + o), -lbTestUniform(&rng, 10, 60) * LB_DEG2RAD, 0.0f, 0.0f);
			}
			lbPose_LocalToModel(&r.pose, r.s);
			for (int limb = 0; limb < lb_limbCount; ++limb)
				ENSURE(LimbBend(&r, (lbLimb)limb) < 0.0f);
			ENSURE(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, NULL) == lb_ok);
			int limitFailures = 0, inversions = 0;
			CheckOutput(&r, &st, &limitFailures, &inversions);
			ENSURE(inversions == 0);
			ENSURE(limitFailures == 0);
			for (int k = 0; k < 4; ++k)
				ENSURE_VEC3_NEAR(r.pose.model[EndBone(&r, kEndOf[k])].p, eff[kEndOf[k]].targetMs, 1.0e-3f);
		}
		FreeRig(&r);
	}
}

// Pelvis travel limits (seed 001's 2 cm sink), stiffness 1 locks the spine, alpha 0 effectors
// leave their limb's local rotations alone, head and pelvis effectors pull the body.
static void FullBodyPelvisLimitsStiffnessAndHeadPelvisEffectors(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		Rig r = MakeRig((lbReferenceRig)rig);
		lbFullBodyIkDef st = lbDefaultFullBodyIkDef();
		st.pelvisMaxSink = 0.02f;
		st.pelvisMaxHorizontal = 0.05f;
		for (int k = lb_roleSpine1; k <= lb_roleSpine4; ++k)
			st.stiffness[k] = 1.0f;
		lbFullBodyIkEffector eff[lb_effectorCount];
		FourEffectors(&r, eff);
		// Hands pulled far down: the body would crouch and lean, the limits stop it.
		for (int k = 0; k < 2; ++k)
			eff[kEndOf[k]].targetMs = lbMulAdd(eff[kEndOf[k]].targetMs, -0.6f, r.h.upMs);
		eff[lb_effectorFootR].positionAlpha = 0.0f;
		lbVec3 pelvis0 = r.pose.model[r.h.pelvis].p;
		lbTransform calfLocal = r.pose.local[r.h.leg[1].calf];
		ENSURE(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, NULL) == lb_ok);
		lbVec3 move = lbSub(r.pose.model[r.h.pelvis].p, pelvis0);
		ENSURE(lbDot(move, r.h.upMs) >= -0.02f - 1.0e-5f);
		ENSURE(lbLength(lbProjectOnPlane(move, r.h.upMs)) <= 0.05f + 1.0e-5f);
		for (int k = 0; k < r.h.spineCount; ++k)
			ENSURE_QUAT_SAME_ROT(r.pose.local[r.h.spine[k]].q, r.s->restLocal[r.h.spine[k]].q, 1.0e-6f);
		ENSURE(memcmp(&r.pose.local[r.h.leg[1].calf], &calfLocal, sizeof calfLocal) == 0);
		// Hands did go down as far as the arms allow.
		lbVec3 handRest = r.s->restModel[r.h.arm[0].hand].p;
		ENSURE(lbDot(lbSub(r.pose.model[r.h.arm[0].hand].p, handRest), r.h.upMs) < -0.1f);

		// Pelvis effector: the pelvis goes to its target (feet held, within the default travel).
		lbPose_SetRest(&r.pose, r.s);
		st = lbDefaultFullBodyIkDef();
		FourEffectors(&r, eff);
		eff[lb_effectorHandL].positionAlpha = eff[lb_effectorHandR].positionAlpha = 0.0f;
		lbVec3 pelvisGoal = lbAdd(pelvis0, lbAdd(lbMulSV(-0.12f, r.h.upMs), lbMulSV(0.06f, r.h.forwardMs)));
		eff[lb_effectorPelvis].targetMs = pelvisGoal;
		eff[lb_effectorPelvis].positionAlpha = 1.0f;
		lbIkResult res;
		ENSURE(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res) == lb_ok);
		ENSURE_NEAR(lbDistance(r.pose.model[r.h.pelvis].p, pelvisGoal), 0.0f, 0.02f);
		for (int k = 2; k < 4; ++k)
			ENSURE_VEC3_NEAR(r.pose.model[EndBone(&r, kEndOf[k])].p, eff[kEndOf[k]].targetMs, 1.0e-3f);

		// Head effector: the head moves most of the way to a target 15 cm forward.
		lbPose_SetRest(&r.pose, r.s);
		FourEffectors(&r, eff);
		lbVec3 head0 = r.pose.model[r.h.head].p;
		eff[lb_effectorHead].targetMs = lbMulAdd(head0, 0.15f, r.h.forwardMs);
		eff[lb_effectorHead].positionAlpha = 1.0f;
		eff[lb_effectorHead].rotationAlpha = 1.0f;
		eff[lb_effectorHandL].positionAlpha = eff[lb_effectorHandR].positionAlpha = 0.0f;
		eff[lb_effectorHead].targetRotationMs = lbQuatMul(lbQuatFromAxisAngle(r.h.upMs, 0.4f), r.pose.model[r.h.head].q);
		ENSURE(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res) == lb_ok);
		ENSURE_NEAR(lbDistance(r.pose.model[r.h.head].p, eff[lb_effectorHead].targetMs), 0.0f, 0.05f);
		ENSURE_QUAT_SAME_ROT(r.pose.model[r.h.head].q, eff[lb_effectorHead].targetRotationMs, 1.0e-4f);
		for (int k = 2; k < 4; ++k)
			ENSURE_VEC3_NEAR(r.pose.model[EndBone(&r, kEndOf[k])].p, eff[kEndOf[k]].targetMs, 1.0e-3f);

		// Rotation alpha on a hand: the hand takes the target rotation (its limit switched off here:
		// the arm is re-solved, so a model-space target may leave the wrist range).
		lbPose_SetRest(&r.pose, r.s);
		st.limits[lb_roleHandL].kind = lb_limitNone;
		FourEffectors(&r, eff);
		eff[lb_effectorHandL].rotationAlpha = 1.0f;
		eff[lb_effectorHandL].targetRotationMs =
			lbQuatMul(lbQuatFromAxisAngle(r.h.forwardMs, 0.3f), r.pose.model[r.h.arm[0].hand].q);
		ENSURE(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res) == lb_ok);
		ENSURE_QUAT_SAME_ROT(r.pose.model[r.h.arm[0].hand].q, eff[lb_effectorHandL].targetRotationMs, 1.0e-4f);
		FreeRig(&r);
	}
}

static void FullBodyBadInput(void)
{
	LogCapture log = { 0 };
	lbSetLogFcn(CaptureLog, &log);
	Rig r = MakeRig(lb_rigMannequin);
	lbPose before = lbCreatePose(r.s);
	lbFullBodyIkDef good = lbDefaultFullBodyIkDef();
	lbFullBodyIkEffector eff[lb_effectorCount];
	FourEffectors(&r, eff);
	eff[0].targetMs.x += 0.1f;
	lbIkResult res;
#define EXPECT_ERROR(call, code)                                                                             \
	do                                                                                                       \
	{                                                                                                        \
		log.count = 0;                                                                                       \
		res.status = lb_ikReached;                                                                           \
		ENSURE((call) == (code));                                                                            \
		ENSURE(log.count == 1 && log.last == (code));                                                        \
		ENSURE(res.status == lb_ikNotSolved);                                                                \
		ENSURE(memcmp(r.pose.local, before.local, sizeof(lbTransform) * (size_t)r.s->boneCount) == 0);       \
		ENSURE(memcmp(r.pose.model, before.model, sizeof(lbTransform) * (size_t)r.s->boneCount) == 0);       \
	} while (0)
	lbFullBodyIkDef st = good;
	EXPECT_ERROR(lbSolveFullBodyIk(NULL, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res), lb_errorNullPointer);
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, NULL, &st, eff, r.ws, r.wsSize, &res), lb_errorNullPointer);
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, NULL, r.ws, r.wsSize, &res), lb_errorNullPointer);
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, NULL, r.wsSize, &res), lb_errorNullPointer);
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize - 1, &res), lb_errorCapacity);
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, (char*)r.ws + 1, r.wsSize - 4, &res),
				 lb_errorInvalidArgument);
	st.internalValue = 0;
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res), lb_errorDefNotInitialized);
	st = good, st.iterations = 0;
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res), lb_errorInvalidArgument);
	st = good, st.reachFraction = 1.5f;
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res), lb_errorInvalidArgument);
	st = good, st.stiffness[lb_roleSpine2] = NAN;
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res), lb_errorNonFinite);
	st = good, st.limits[lb_roleThighL].twistMax = INFINITY;
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res), lb_errorNonFinite);
	st = good, st.limits[lb_roleThighL].kind = (lbJointLimitKind)7;
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res), lb_errorInvalidArgument);
	st = good, st.pelvisMaxSink = NAN;
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res), lb_errorNonFinite);
	st = good;
	lbFullBodyIkEffector e2[lb_effectorCount];
	memcpy(e2, eff, sizeof eff);
	e2[lb_effectorFootL].targetMs.z = NAN;
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, e2, r.ws, r.wsSize, &res), lb_errorNonFinite);
	memcpy(e2, eff, sizeof eff);
	e2[lb_effectorHandR].positionAlpha = NAN;
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, e2, r.ws, r.wsSize, &res), lb_errorNonFinite);
	memcpy(e2, eff, sizeof eff);
	e2[lb_effectorHead].rotationAlpha = 1.0f, e2[lb_effectorHead].targetRotationMs = lbMakeQuat(0, 0, 0, 0);
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, e2, r.ws, r.wsSize, &res), lb_errorNonFinite);
	memcpy(e2, eff, sizeof eff);
	e2[lb_effectorHandL].poleKind = (lbPoleKind)4;
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, e2, r.ws, r.wsSize, &res), lb_errorInvalidArgument);
	lbPose wrong = r.pose;
	wrong.boneCount = 5;
	EXPECT_ERROR(lbSolveFullBodyIk(&wrong, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res), lb_errorSkeletonMismatch);
	lbHumanoid bad = r.h;
	bad.leg[0].calf = 500;
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &bad, &st, eff, r.ws, r.wsSize, &res), lb_errorSkeletonMismatch);
	// Non-finite pose and a zero-length limb bone.
	r.pose.local[r.h.spine[1]].p.y = NAN;
	lbPose_Copy(&before, &r.pose);
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res), lb_errorNonFinite);
	lbPose_SetRest(&r.pose, r.s);
	r.pose.model[r.h.leg[0].calf].p = r.pose.model[r.h.leg[0].thigh].p;
	lbPose_Copy(&before, &r.pose);
	EXPECT_ERROR(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res), lb_errorDegenerate);
#undef EXPECT_ERROR
	// Alphas outside [0, 1] are clamped, not errors.
	lbPose_SetRest(&r.pose, r.s);
	FourEffectors(&r, eff);
	eff[lb_effectorHandL].positionAlpha = 3.0f;
	eff[lb_effectorHandR].positionAlpha = -2.0f;
	log.count = 0;
	ENSURE(lbSolveFullBodyIk(&r.pose, r.s, &r.h, &st, eff, r.ws, r.wsSize, &res) == lb_ok);
	ENSURE(log.count == 0 && res.reached);
	lbDestroyPose(&before);
	FreeRig(&r);
	lbSetLogFcn(NULL, NULL);
}

// The workspace keeps what the solve derived from the skeleton, humanoid and settings, for the next
// call: a solve with a workspace last used for the other rig, for other settings, or never used
// (filled with bytes that are no rig) gives the same pose bit for bit as a repeat with the same
// workspace, and a humanoid or settings changed in place after a good solve is still refused.
static void FullBodyWorkspaceRigFollowsItsInputs(void)
{
	lbTestRng rng = { 31 };
	Rig rigs[lb_rigCount];
	for (int k = 0; k < lb_rigCount; ++k)
		rigs[k] = MakeRig((lbReferenceRig)k);
	size_t wsSize = 0;
	for (int k = 0; k < lb_rigCount; ++k)
		wsSize = rigs[k].wsSize > wsSize ? rigs[k].wsSize : wsSize;
	void* shared = malloc(wsSize);
	void* fresh = malloc(wsSize);
	lbFullBodyIkDef st = lbDefaultFullBodyIkDef(), soft = st;
	soft.stiffness[lb_rolePelvis] = 0.1f;
	for (int c = 0; c < Cases(60); ++c)
	{
		Rig* r = &rigs[c % lb_rigCount];
		const lbFullBodyIkDef* use = (c / lb_rigCount) % 2 ? &soft : &st;
		RandomValidPose(r, &rng, 1.0f);
		lbFullBodyIkEffector eff[lb_effectorCount];
		FourEffectors(r, eff);
		RandomValidPose(r, &rng, 0.5f);
		lbPose a = lbCreatePose(r->s), b = lbCreatePose(r->s);
		lbPose_Copy(&a, &r->pose);
		lbPose_Copy(&b, &r->pose);
		memset(fresh, c & 0xff, wsSize);
		// The shared workspace was last used for the other rig or other settings (or this one).
		ENSURE(lbSolveFullBodyIk(&a, r->s, &r->h, use, eff, shared, wsSize, NULL) == lb_ok);
		ENSURE(lbSolveFullBodyIk(&b, r->s, &r->h, use, eff, fresh, wsSize, NULL) == lb_ok);
		ENSURE(memcmp(a.local, b.local, sizeof(lbTransform) * (size_t)r->s->boneCount) == 0);
		ENSURE(memcmp(a.model, b.model, sizeof(lbTransform) * (size_t)r->s->boneCount) == 0);
		lbDestroyPose(&a);
		lbDestroyPose(&b);
	}
	for (int k = 0; k < lb_rigCount; ++k)
	{
		Rig* r = &rigs[k];
		lbFullBodyIkEffector eff[lb_effectorCount];
		lbPose_SetRest(&r->pose, r->s);
		FourEffectors(r, eff);
		ENSURE(lbSolveFullBodyIk(&r->pose, r->s, &r->h, &st, eff, shared, wsSize, NULL) == lb_ok);
		lbPose before = lbCreatePose(r->s);
		lbPose_Copy(&before, &r->pose);
		lbFullBodyIkDef changed = st;
		ENSURE(lbSolveFullBodyIk(&r->pose, r->s, &r->h, &changed, eff, shared, wsSize, NULL) == lb_ok);
		lbPose_Copy(&r->pose, &before);
		changed.limits[lb_roleCalfL].bendMax = NAN;
		ENSURE(lbSolveFullBodyIk(&r->pose, r->s, &r->h, &changed, eff, shared, wsSize, NULL) == lb_errorNonFinite);
		changed = st, changed.upMs = lbMakeVec3(0.0f, NAN, 0.0f);
		ENSURE(lbSolveFullBodyIk(&r->pose, r->s, &r->h, &changed, eff, shared, wsSize, NULL) == lb_errorNonFinite);
		ENSURE(lbSolveFullBodyIk(&r->pose, r->s, &r->h, &st, eff, shared, wsSize, NULL) == lb_ok);
		lbPose_Copy(&r->pose, &before);
		const int calf = r->h.leg[1].calf;
		r->h.leg[1].calf = r->s->boneCount + 3;
		ENSURE(lbSolveFullBodyIk(&r->pose, r->s, &r->h, &st, eff, shared, wsSize, NULL) == lb_errorSkeletonMismatch);
		ENSURE(memcmp(r->pose.local, before.local, sizeof(lbTransform) * (size_t)r->s->boneCount) == 0);
		ENSURE(memcmp(r->pose.model, before.model, sizeof(lbTransform) * (size_t)r->s->boneCount) == 0);
		r->h.leg[1].calf = calf;
		ENSURE(lbSolveFullBodyIk(&r->pose, r->s, &r->h, &st, eff, shared, wsSize, NULL) == lb_ok);
		lbDestroyPose(&before);
	}
	free(shared);
	free(fresh);
	for (int k = 0; k < lb_rigCount; ++k)
		FreeRig(&rigs[k]);
}

// How far (rad) a rotation lies inside a limit on its nearest axis (negative outside), from the
// test's own swing-twist decomposition in double precision.
static double LimitInsideMargin(const lbJointLimit* l, lbQuat ref, lbVec3 along, lbVec3 b, lbQuat local)
{
	lbQuat d = lbQuatCanonical(lbQuatNormalize(lbQuatMul(lbQuatConj(ref), local)));
	double p = (double)d.x * along.x + (double)d.y * along.y + (double)d.z * along.z;
	double tn = sqrt(p * p + (double)d.w * d.w);
	double twist = 2.0 * atan2(p, (double)d.w);
	// swing = d * conj(twist): vector part (w d.v - w t.v + t.v x d.v) / |t|, scalar part |t|.
	double tv[3] = { along.x * p, along.y * p, along.z * p }, dv[3] = { d.x, d.y, d.z }, w = d.w;
	double sv[3] = { (w * dv[0] - w * tv[0] + tv[1] * dv[2] - tv[2] * dv[1]) / tn,
					 (w * dv[1] - w * tv[1] + tv[2] * dv[0] - tv[0] * dv[2]) / tn,
					 (w * dv[2] - w * tv[2] + tv[0] * dv[1] - tv[1] * dv[0]) / tn };
	double sl = sqrt(sv[0] * sv[0] + sv[1] * sv[1] + sv[2] * sv[2]), ang = 2.0 * atan2(sl, tn);
	double k = sl > 1e-12 ? ang / sl : 2.0;
	lbVec3 c = lbCross(along, b);
	double bend = k * (sv[0] * b.x + sv[1] * b.y + sv[2] * b.z), side = k * (sv[0] * c.x + sv[1] * c.y + sv[2] * c.z);
	double m = fmin(twist - l->twistMin, l->twistMax - twist);
	if (l->kind == lb_limitCone)
		return fmin(m, l->swingMax - sqrt(bend * bend + side * side));
	return fmin(m, fmin(fmin(bend - l->bendMin, l->bendMax - bend), fmin(side - l->sideMin, l->sideMax - side)));
}

// Limits: clamping leaves rotations inside untouched and brings those outside to the boundary.
static void JointLimitClamp(void)
{
	lbTestRng rng = { 4 };
	lbJointLimit cone = { lb_limitCone, 0, 0, 0, 0, 0.5f, -0.2f, 0.3f };
	lbJointLimit ranges = { lb_limitRanges, -0.1f, 1.2f, -0.3f, 0.2f, 0.0f, -0.4f, 0.4f };
	lbVec3 along = lbNormalize(lbMakeVec3(0.3f, -1.0f, 0.2f));
	lbVec3 bend = lbNormalize(lbProjectOnPlane(lbMakeVec3(1, 0, 0), along));
	lbQuat ref = lbQuatFromAxisAngle(lbMakeVec3(0, 0, 1), 0.7f);
	int inside = 0, outside = 0;
	for (int i = 0; i < 2000; ++i)
	{
		const lbJointLimit* l = (i & 1) ? &cone : &ranges;
		lbQuat q = lbQuatMul(ref, lbQuatFromAxisAngle(lbTestRandomUnit(&rng), lbTestUniform(&rng, 0.0f, 2.5f)));
		lbQuat c = lbClampToJointLimit(l, ref, along, bend, q);
		ENSURE(lbIsValidQuat(c));
		lbQuat again = lbClampToJointLimit(l, ref, along, bend, c);
		ENSURE_QUAT_SAME_ROT(again, c, 2.0e-3f);
		if (lbQuatAngleBetween(q, c) < 1.0e-6f)
			ENSURE(memcmp(&q, &c, sizeof q) == 0);
		// Inside by more than rounding: returned as it is (bit for bit); outside: moved.
		double margin = LimitInsideMargin(l, ref, along, bend, q);
		if (margin > 1.0e-4)
			ENSURE(memcmp(&q, &c, sizeof q) == 0);
		else if (margin < -1.0e-4)
			ENSURE(lbQuatAngleBetween(q, c) > 1.0e-5f);
		inside += margin > 1.0e-4, outside += margin < -1.0e-4;
	}
	// Both kinds of rotation were met (the draw spans the limits).
	ENSURE(inside > 200 && outside > 200);
	lbJointLimit none = { lb_limitNone, 0, 0, 0, 0, 0, 0, 0 };
	lbQuat q = lbQuatFromAxisAngle(lbVec3_axisY, 2.0f);
	ENSURE(memcmp(&q, &(lbQuat){ 0 }, 0) == 0);
	lbQuat c = lbClampToJointLimit(&none, ref, along, bend, q);
	ENSURE(memcmp(&q, &c, sizeof q) == 0);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(FullBodyReachesJointlyReachableTargets);
	RUN_TEST(FullBodyHeldEffectorsStayAndRepeatIsIdentical);
	RUN_TEST(FullBodyFixesInvertedStart);
	RUN_TEST(FullBodyPelvisLimitsStiffnessAndHeadPelvisEffectors);
	RUN_TEST(FullBodyBadInput);
	RUN_TEST(FullBodyWorkspaceRigFollowsItsInputs);
	RUN_TEST(JointLimitClamp);
	TEST_MAIN_END();
}
