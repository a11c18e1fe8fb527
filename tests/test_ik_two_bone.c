// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Two-bone IK: reach, pole plane, continuity, parents with scale and mirroring, bad input.
#include "limber/ik.h"
#include "limber/rigs.h"
#include "test_macros.h"

#include <stdlib.h>

static bool SamePose(const lbPose* a, const lbPose* b)
{
	return memcmp(a->local, b->local, sizeof(lbTransform) * (size_t)a->boneCount) == 0 &&
		   memcmp(a->model, b->model, sizeof(lbTransform) * (size_t)a->boneCount) == 0;
}

static lbQuat RandomRotation(lbTestRng* rng, float maxAngle)
{
	return lbQuatFromAxisAngle(lbTestRandomUnit(rng), lbTestUniform(rng, -maxAngle, maxAngle));
}

static bool Sanitize(void)
{
	return getenv("LB_SANITIZE_RUN") != NULL;
}

// Signed bend of a limb about its derived hinge (radians, positive = anatomical bend).
static float LimbBend(const lbLimbChain* c, const lbPose* pose)
{
	lbVec3 h = lbLimbChain_HingeMs(c, pose);
	lbVec3 u = lbSub(pose->model[c->mid].p, pose->model[c->root].p);
	lbVec3 l = lbSub(pose->model[c->end].p, pose->model[c->mid].p);
	return atan2f(lbDot(h, lbCross(u, l)), lbDot(u, l));
}

// Reachable targets on every limb of both rigs, with a pole location: reached to 1e-5 m, knee
// in the plane of root, target and pole, on the pole's side, bending the anatomical way.
static void TwoBoneReachesOnReferenceRigs(void)
{
	LogCapture log = { 0 };
	lbSetLogFcn(CaptureLog, &log);
	lbTestRng rng = { 11 };
	int cases = Sanitize() ? 40 : 400;
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(s, NULL, &h) == lb_ok);
		lbPose pose = lbCreatePose(s);
		for (int limb = 0; limb < lb_limbCount; ++limb)
		{
			lbLimbChain c;
			ENSURE(lbHumanoid_GetLimbChain(&h, (lbLimb)limb, &c) == lb_ok);
			float L = c.upperLength + c.lowerLength;
			for (int i = 0; i < cases; ++i)
			{
				lbPose_SetRest(&pose, s);
				lbVec3 a = pose.model[c.root].p;
				lbVec3 dir = lbTestRandomUnit(&rng);
				float d = lbTestUniform(&rng, 0.25f, 0.98f) * L;
				lbVec3 target = lbMulAdd(a, d, dir);
				// Pole: half a limb out from the root-target midpoint, on the anatomical side.
				lbVec3 restPole = lbLimbChain_PoleMs(&c, &pose);
				lbVec3 side = lbProjectOnPlane(lbAdd(restPole, lbMulSV(0.5f, lbTestRandomUnit(&rng))), dir);
				lbVec3 pole = lbMulAdd(lbLerp(a, target, 0.5f), 0.5f * L, lbNormalizeOr(side, lbAnyPerpendicular(dir)));
				lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
				in.targetMs = target;
				in.poleKind = lb_poleLocation;
				in.poleMs = pole;
				lbIkResult res;
				bool humanoidAxes = (i & 1) == 0;
				lbResult r = humanoidAxes ? lbPose_SolveLimbIk(&pose, s, &h, (lbLimb)limb, &in, &res)
										  : lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &in, &res);
				ENSURE(r == lb_ok);
				ENSURE(res.reached && res.status == lb_ikReached);
				lbPose_LocalToModel(&pose, s);
				ENSURE_VEC3_NEAR(pose.model[c.end].p, target, 1.0e-5f);
				// Knee in the plane of root, target and pole, on the pole's side.
				lbVec3 n = lbNormalize(lbCross(lbSub(target, a), lbSub(pole, a)));
				lbVec3 knee = lbSub(pose.model[c.mid].p, a);
				ENSURE_NEAR(lbDot(knee, n), 0.0f, 1.0e-4f);
				ENSURE(lbDot(lbProjectOnPlane(knee, dir), lbProjectOnPlane(lbSub(pole, a), dir)) > 0.0f);
				// Bone lengths kept.
				ENSURE_NEAR(lbLength(knee), c.upperLength, 1.0e-5f);
				ENSURE_NEAR(lbDistance(pose.model[c.mid].p, pose.model[c.end].p), c.lowerLength, 1.0e-5f);
				if (humanoidAxes)
					ENSURE(LimbBend(&c, &pose) > -1.0e-3f);
			}
		}
		lbDestroyPose(&pose);
		lbDestroySkeleton(s);
	}
	ENSURE(log.count == 0);
	lbSetLogFcn(NULL, NULL);
}

// A four-bone chain under a parent carrying the given transform; returns the skeleton.
static lbSkeleton* MakeChain(lbTransform parent, lbTestRng* rng)
{
	const char* names[5] = { "parent", "root", "mid", "end", "tip" };
	int parents[5] = { LB_NULL_INDEX, 0, 1, 2, 3 };
	lbTransform local[5];
	local[0] = parent;
	local[1] = lbMakeTransform(lbMakeVec3(0.1f, 0.2f, -0.05f), RandomRotation(rng, 3.0f));
	local[2] = lbMakeTransform(lbMulSV(0.4f, lbTestRandomUnit(rng)), RandomRotation(rng, 3.0f));
	local[3] = lbMakeTransform(lbMulSV(0.35f, lbTestRandomUnit(rng)), RandomRotation(rng, 3.0f));
	local[4] = lbMakeTransform(lbMulSV(0.1f, lbTestRandomUnit(rng)), RandomRotation(rng, 3.0f));
	lbSkeletonDef def = lbDefaultSkeletonDef();
	def.boneCount = 5;
	def.names = names;
	def.parents = parents;
	def.restLocal = local;
	return lbCreateSkeleton(&def, NULL);
}

// Parents translated, rotated, uniformly and non-uniformly scaled and mirrored: the end's model
// position after lbPose_LocalToModel is on the target, the tip bone rides along rigidly.
static void TwoBoneUnderScaledAndMirroredParents(void)
{
	lbTestRng rng = { 23 };
	lbVec3 scales[6] = { { 1, 1, 1 }, { 1, 1, 1 }, { 2.5f, 2.5f, 2.5f }, { 1.0f, 2.0f, 0.5f }, { -1, 1, 1 }, { 0.7f, -1.3f, 1.9f } };
	int cases = Sanitize() ? 20 : 200;
	for (int k = 0; k < 6; ++k)
	{
		lbTransform parent = lbMakeTransform(k == 0 ? lbVec3_zero : lbMakeVec3(3.0f, -2.0f, 1.5f),
											 k == 0 ? lbQuat_identity : RandomRotation(&rng, 3.0f));
		parent.s = scales[k];
		for (int i = 0; i < cases; ++i)
		{
			lbSkeleton* s = MakeChain(parent, &rng);
			ENSURE(s != NULL);
			lbPose pose = lbCreatePose(s);
			lbVec3 a = pose.model[1].p;
			float l1 = lbDistance(a, pose.model[2].p), l2 = lbDistance(pose.model[2].p, pose.model[3].p);
			float tipLen = lbDistance(pose.model[3].p, pose.model[4].p);
			float lo = lbAbsF(l1 - l2) * 1.05f + 0.01f, hi = (l1 + l2) * 0.98f;
			lbVec3 target = lbMulAdd(a, lbTestUniform(&rng, lo, hi), lbTestRandomUnit(&rng));
			lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
			in.targetMs = target;
			if (i & 1)
			{
				in.poleKind = lb_poleDirection;
				in.poleMs = lbTestRandomUnit(&rng);
			}
			lbIkResult res;
			ENSURE(lbPose_SolveTwoBoneIk(&pose, s, 1, 2, 3, &in, &res) == lb_ok);
			ENSURE(res.reached);
			lbPose_LocalToModel(&pose, s);
			ENSURE_VEC3_NEAR(pose.model[3].p, target, 1.0e-5f * lbMaxF(1.0f, lbLength(target)));
			ENSURE_NEAR(lbDistance(pose.model[3].p, pose.model[4].p), tipLen, 1.0e-5f);
			ENSURE(lbPose_IsFinite(&pose));
			lbDestroyPose(&pose);
			lbDestroySkeleton(s);
		}
	}
}

// The same solve on plain transforms matches the pose version.
static void TwoBoneTransformsMatchPose(void)
{
	lbSkeleton* s = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid h;
	lbMapHumanoid(s, NULL, &h);
	lbPose pose = lbCreatePose(s);
	lbLimbChain c;
	lbHumanoid_GetLimbChain(&h, lb_limbLegL, &c);
	lbTransform r = pose.model[c.root], m = pose.model[c.mid], e = pose.model[c.end];
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = lbAdd(e.p, lbMakeVec3(0.05f, -0.2f, 0.3f));
	lbIkResult res;
	ENSURE(lbSolveTwoBoneIk(&r, &m, &e, &in, &res) == lb_ok);
	ENSURE(res.reached);
	ENSURE_VEC3_NEAR(e.p, in.targetMs, 1.0e-5f);
	ENSURE(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &in, NULL) == lb_ok);
	ENSURE_VEC3_NEAR(pose.model[c.mid].p, m.p, 1.0e-5f);
	ENSURE_QUAT_SAME_ROT(pose.model[c.root].q, r.q, 1.0e-5f);
	ENSURE_QUAT_SAME_ROT(pose.model[c.mid].q, m.q, 1.0e-5f);
	ENSURE_QUAT_SAME_ROT(pose.model[c.end].q, e.q, 1.0e-5f);
	lbDestroyPose(&pose);
	lbDestroySkeleton(s);
}

// The solve written into a pose as the plain-transform solve plus public pose calls would write
// it: each joint's model transform set with its local from its parent's current model transform,
// then the subtree below updated from the locals (for a chain of direct parents the three joints
// first and the root's subtree once).
static void ReferencePoseSolve(lbPose* pose, const lbSkeleton* s, int root, int mid, int end,
							   const lbTwoBoneIkInput* in)
{
	lbTransform r = pose->model[root], m = pose->model[mid], e = pose->model[end];
	ENSURE(lbSolveTwoBoneIk(&r, &m, &e, in, NULL) == lb_ok);
	if (!(in->weight > 0.0f))
		return;
	const int joints[3] = { root, mid, end };
	const lbTransform solved[3] = { r, m, e };
	const bool direct = s->parents[mid] == root && s->parents[end] == mid;
	for (int k = 0; k < 3; ++k)
	{
		int b = joints[k], p = s->parents[b];
		pose->model[b] = solved[k];
		pose->local[b] = p == LB_NULL_INDEX ? solved[k] : lbTransformRelative(pose->model[p], solved[k]);
		if (!direct)
			lbPose_UpdateSubtree(pose, s, b);
	}
	if (direct)
		lbPose_UpdateSubtree(pose, s, root);
}

// Random poses of both rigs (unit scales, a scaled root, a bone with non-uniform scale) and random
// inputs: lbPose_SolveLimbIk and lbPose_SolveTwoBoneIk (on the limb and on chains that skip a
// bone) write exactly the bits of the reference above, in every bone's local and model transform,
// and report the remaining distance measured on the pose written.
static void TwoBonePoseWritesMatchReference(void)
{
	LogCapture log = { 0 };
	lbSetLogFcn(CaptureLog, &log);
	lbTestRng rng = { 77 };
	const int cases = Sanitize() ? 300 : 3000;
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(s, NULL, &h) == lb_ok);
		lbPose pose = lbCreatePose(s), ref = lbCreatePose(s);
		int mismatches = 0, indirect = 0;
		for (int i = 0; i < cases; ++i)
		{
			lbPose_SetRest(&pose, s);
			for (int b = 0; b < s->boneCount; ++b)
				pose.local[b].q = lbQuatMul(pose.local[b].q, RandomRotation(&rng, 0.8f));
			pose.local[0].p = lbAdd(pose.local[0].p, lbMulSV(0.5f, lbTestRandomUnit(&rng)));
			float kind = lbTestUniform(&rng, 0, 1);
			if (kind < 0.2f)
			{
				float k = lbTestUniform(&rng, 0.5f, 2.0f);
				pose.local[0].s = lbMakeVec3(k, k, k);
			}
			else if (kind < 0.4f)
			{
				int b = (int)(lbTestNext(&rng) % (unsigned long long)s->boneCount);
				pose.local[b].s = lbMakeVec3(lbTestUniform(&rng, 0.7f, 1.4f), lbTestUniform(&rng, 0.7f, 1.4f),
											 lbTestUniform(&rng, 0.7f, 1.4f));
			}
			lbPose_LocalToModel(&pose, s);
			lbLimb limb = (lbLimb)(lbTestNext(&rng) % lb_limbCount);
			lbLimbChain c;
			ENSURE(lbHumanoid_GetLimbChain(&h, limb, &c) == lb_ok);
			lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
			float reach = lbDistance(pose.model[c.root].p, pose.model[c.mid].p) +
						  lbDistance(pose.model[c.mid].p, pose.model[c.end].p);
			in.targetMs = lbAdd(pose.model[c.root].p, lbMulSV(reach * lbTestUniform(&rng, 0.0f, 1.3f), lbTestRandomUnit(&rng)));
			float w = lbTestUniform(&rng, 0, 1);
			in.weight = w < 0.5f ? 1.0f : w < 0.9f ? lbTestUniform(&rng, 0, 1) : 0.0f;
			in.soften = lbTestUniform(&rng, 0, 1) < 0.5f ? lbTestUniform(&rng, 0, 0.3f) : 0.0f;
			in.stretch = lbTestUniform(&rng, 0, 1) < 0.3f;
			in.useTargetRotation = lbTestUniform(&rng, 0, 1) < 0.5f;
			in.targetRotationMs = RandomRotation(&rng, 3.0f);
			in.poleKind = (lbPoleKind)(lbTestNext(&rng) % 3);
			in.poleMs = lbAdd(pose.model[c.root].p, lbTestRandomUnit(&rng));
			if (lbTestUniform(&rng, 0, 1) < 0.3f)
				in.hingeAxisMs = lbTestRandomUnit(&rng);
			lbIkResult res;
			lbPose_Copy(&ref, &pose);
			bool limbSolve = (i & 1) == 0;
			int root = c.root, mid = c.mid, end = c.end;
			if (limbSolve)
			{
				lbTwoBoneIkInput full = in;
				if (lbLengthSquared(full.hingeAxisMs) == 0.0f)
					full.hingeAxisMs = lbLimbChain_HingeMs(&c, &ref);
				full.bendHintMs = lbLimbChain_PoleMs(&c, &ref);
				ReferencePoseSolve(&ref, s, root, mid, end, &full);
				ENSURE(lbPose_SolveLimbIk(&pose, s, &h, limb, &in, &res) == lb_ok);
			}
			else
			{
				// Every other case skips a bone: the root one level up, or the end one level down.
				if ((i & 2) && s->parents[c.root] != LB_NULL_INDEX)
					root = s->parents[c.root];
				else if (i & 2)
				{
					for (int b = end + 1; b < s->boneCount; ++b)
						if (s->parents[b] == end)
						{
							end = b;
							break;
						}
				}
				indirect += root != c.root || end != c.end;
				ReferencePoseSolve(&ref, s, root, mid, end, &in);
				ENSURE(lbPose_SolveTwoBoneIk(&pose, s, root, mid, end, &in, &res) == lb_ok);
			}
			mismatches += !SamePose(&pose, &ref);
			float remaining = lbDistance(ref.model[end].p, in.targetMs);
			ENSURE(memcmp(&res.remainingDistance, &remaining, sizeof remaining) == 0);
			ENSURE(res.reached == (remaining <= lbMaxF(in.tolerance, 0.0f)));
			ENSURE(res.status == (res.reached ? lb_ikReached : lb_ikUnreachable) && res.iterations == 1);
		}
		ENSURE(mismatches == 0);
		ENSURE(indirect > cases / 8);
		ENSURE(log.count == 0);
		lbDestroyPose(&pose);
		lbDestroyPose(&ref);
		lbDestroySkeleton(s);
	}
	lbSetLogFcn(NULL, NULL);
}

// Unreachable: a straight limb pointing at the target, remaining distance = excess.
static void TwoBoneUnreachableIsStraight(void)
{
	lbTestRng rng = { 5 };
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		lbMapHumanoid(s, NULL, &h);
		lbPose pose = lbCreatePose(s);
		for (int limb = 0; limb < lb_limbCount; ++limb)
		{
			lbLimbChain c;
			lbHumanoid_GetLimbChain(&h, (lbLimb)limb, &c);
			for (int i = 0; i < 50; ++i)
			{
				lbPose_SetRest(&pose, s);
				lbVec3 a = pose.model[c.root].p;
				float L = c.upperLength + c.lowerLength;
				lbVec3 dir = lbTestRandomUnit(&rng);
				float d = L * lbTestUniform(&rng, 1.01f, 3.0f);
				lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
				in.targetMs = lbMulAdd(a, d, dir);
				lbIkResult res;
				ENSURE(lbPose_SolveLimbIk(&pose, s, &h, (lbLimb)limb, &in, &res) == lb_ok);
				ENSURE(!res.reached && res.status == lb_ikUnreachable);
				ENSURE_NEAR(res.remainingDistance, d - L, 1.0e-4f);
				lbVec3 u = lbNormalize(lbSub(pose.model[c.mid].p, a));
				lbVec3 l = lbNormalize(lbSub(pose.model[c.end].p, pose.model[c.mid].p));
				ENSURE(lbDot(u, dir) > 0.99999f);
				ENSURE(lbDot(l, dir) > 0.99999f);
			}
		}
		lbDestroyPose(&pose);
		lbDestroySkeleton(s);
	}
}

// Target at the root, weight outside [0, 1]: defined, finite poses.
static void TwoBoneDegenerateTargetsAndWeights(void)
{
	lbSkeleton* s = lbCreateReferenceRig(lb_rigMixamo);
	lbHumanoid h;
	lbMapHumanoid(s, NULL, &h);
	lbPose pose = lbCreatePose(s), rest = lbCreatePose(s), one = lbCreatePose(s);
	lbLimbChain c;
	lbHumanoid_GetLimbChain(&h, lb_limbLegR, &c);
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = pose.model[c.root].p;
	lbIkResult res;
	ENSURE(lbPose_SolveLimbIk(&pose, s, &h, lb_limbLegR, &in, &res) == lb_ok);
	ENSURE(lbPose_IsFinite(&pose));
	// Folded as far as the bones allow: the end is |l1 - l2| from the root.
	ENSURE_NEAR(res.remainingDistance, lbAbsF(c.upperLength - c.lowerLength), 1.0e-4f);
	ENSURE_NEAR(lbDistance(pose.model[c.root].p, pose.model[c.mid].p), c.upperLength, 1.0e-5f);
	ENSURE(lbAbsF(LimbBend(&c, &pose)) > 3.0f);

	// Weight above 1 acts as 1, below 0 as 0 (pose unchanged).
	lbPose_SetRest(&pose, s);
	in.targetMs = lbAdd(pose.model[c.end].p, lbMulSV(0.3f, h.forwardMs));
	ENSURE(lbPose_SolveLimbIk(&one, s, &h, lb_limbLegR, &in, NULL) == lb_ok);
	in.weight = 7.0f;
	ENSURE(lbPose_SolveLimbIk(&pose, s, &h, lb_limbLegR, &in, NULL) == lb_ok);
	ENSURE(SamePose(&pose, &one));
	lbPose_SetRest(&pose, s);
	in.weight = -3.0f;
	ENSURE(lbPose_SolveLimbIk(&pose, s, &h, lb_limbLegR, &in, &res) == lb_ok);
	for (int b = 0; b < s->boneCount; ++b)
	{
		ENSURE_VEC3_NEAR(pose.model[b].p, rest.model[b].p, 1.0e-6f);
		ENSURE_QUAT_SAME_ROT(pose.model[b].q, rest.model[b].q, 1.0e-5f);
	}
	ENSURE(!res.reached);
	// Half weight lands in between.
	lbPose_SetRest(&pose, s);
	in.weight = 0.5f;
	ENSURE(lbPose_SolveLimbIk(&pose, s, &h, lb_limbLegR, &in, &res) == lb_ok);
	float dHalf = lbDistance(pose.model[c.end].p, in.targetMs);
	ENSURE(dHalf > 0.01f && dHalf < 0.3f);
	lbDestroyPose(&pose);
	lbDestroyPose(&rest);
	lbDestroyPose(&one);
	lbDestroySkeleton(s);
}

// A pole on the root-target line keeps the current bend plane: same result as no pole, the knee
// stays on its side. A straight limb with no pole bends toward the hint.
static void TwoBonePoleOnLineKeepsPlane(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		lbMapHumanoid(s, NULL, &h);
		lbPose pose = lbCreatePose(s), ref = lbCreatePose(s);
		lbLimbChain c;
		lbHumanoid_GetLimbChain(&h, lb_limbLegL, &c);
		lbVec3 a = pose.model[c.root].p;
		lbVec3 target = lbAdd(pose.model[c.end].p, lbAdd(lbMulSV(0.2f, h.upMs), lbMulSV(0.05f, h.leftMs)));
		lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
		in.targetMs = target;
		ENSURE(lbPose_SolveLimbIk(&ref, s, &h, lb_limbLegL, &in, NULL) == lb_ok);
		for (int kind = 0; kind < 2; ++kind)
		{
			lbPose_SetRest(&pose, s);
			in.poleKind = kind == 0 ? lb_poleLocation : lb_poleDirection;
			in.poleMs = kind == 0 ? lbMulAdd(a, 2.0f, lbSub(target, a)) : lbSub(a, target);
			lbIkResult res;
			ENSURE(lbPose_SolveLimbIk(&pose, s, &h, lb_limbLegL, &in, &res) == lb_ok);
			ENSURE(res.reached);
			ENSURE_VEC3_NEAR(pose.model[c.mid].p, ref.model[c.mid].p, 1.0e-5f);
			ENSURE(lbDot(lbSub(pose.model[c.mid].p, a), h.forwardMs) > lbDot(lbSub(target, a), h.forwardMs));
		}
		lbDestroyPose(&pose);
		lbDestroyPose(&ref);
		lbDestroySkeleton(s);
	}
}

// Sweeping the target 10^4 steps of 6..10 mm (through reachable and unreachable regions, from the
// rest pose each step as an animation would): with soften no step turns the thigh or calf (upper
// arm or forearm) by 10 degrees; without, only the step onto full extension comes near it.
static void TwoBoneSweepNeverFlips(void)
{
	const int steps = 10000;
	float worstStep[2] = { 0.0f, 0.0f };
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		lbMapHumanoid(s, NULL, &h);
		lbPose pose = lbCreatePose(s);
		for (int limb = 0; limb < lb_limbCount; ++limb)
		{
			for (int soft = 0; soft < 2; ++soft)
			{
				lbLimbChain c;
				lbHumanoid_GetLimbChain(&h, (lbLimb)limb, &c);
				float L = c.upperLength + c.lowerLength;
				lbVec3 a = pose.model[c.root].p;
				lbVec3 restEnd = pose.model[c.end].p;
				lbVec3 down = lbNormalize(lbSub(restEnd, a));
				lbVec3 e1 = lbNormalize(lbProjectOnPlane(h.forwardMs, down));
				lbVec3 e2 = lbCross(down, e1);
				lbQuat prevRoot = lbQuat_identity, prevMid = lbQuat_identity;
				float maxStep = 0.0f, maxMove = 0.0f, minMove = 1.0f;
				lbVec3 prevTarget = lbVec3_zero;
				// Lissajous path between 0.55 L and 1.15 L from the root, walked in steps of about 9 mm
				// (the parameter step is set from the path's speed, measured numerically).
#define SWEEP_POINT(t)                                                                                       \
	lbMulAdd(a, L * (0.85f + 0.3f * sinf(3.0f * (t))),                                                       \
			 lbNormalize(lbAdd(down, lbAdd(lbMulSV(0.5f * sinf(2.0f * (t)), e1), lbMulSV(0.4f * cosf(t), e2)))))
				float t = 0.0f;
				for (int i = 0; i <= steps; ++i)
				{
					lbVec3 target = SWEEP_POINT(t);
					float speed = lbDistance(SWEEP_POINT(t + 1.0e-3f), target) / 1.0e-3f;
					float dt = 0.0095f / lbMaxF(speed, 1.0e-3f);
					while (lbDistance(SWEEP_POINT(t + dt), target) > 0.0099f)
						dt *= 0.95f;
					t += dt;
					lbPose_SetRest(&pose, s);
					lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
					in.targetMs = target;
					in.poleKind = lb_poleDirection;
					in.poleMs = limb >= lb_limbLegL ? h.forwardMs : lbNeg(h.forwardMs);
					in.soften = soft ? 0.05f : 0.0f;
					ENSURE(lbPose_SolveLimbIk(&pose, s, &h, (lbLimb)limb, &in, NULL) == lb_ok);
					if (i > 0 && getenv("LB_DEBUG"))
					{
						float st = lbMaxF(lbQuatAngleBetween(prevRoot, pose.model[c.root].q), lbQuatAngleBetween(prevMid, pose.model[c.mid].q));
						if (st > 8.0f * LB_DEG2RAD)
							printf("   rig %d limb %d soft %d step %d: %.2f deg, d/L %.4f -> %.4f, move %.4f\n", rig, limb, soft, i,
								   (double)(st * LB_RAD2DEG), (double)(lbDistance(a, prevTarget) / L), (double)(lbDistance(a, target) / L),
								   (double)lbDistance(prevTarget, target));
					}
					if (i > 0)
					{
						maxStep = lbMaxF(maxStep, lbQuatAngleBetween(prevRoot, pose.model[c.root].q));
						maxStep = lbMaxF(maxStep, lbQuatAngleBetween(prevMid, pose.model[c.mid].q));
						maxMove = lbMaxF(maxMove, lbDistance(prevTarget, target));
						minMove = lbMinF(minMove, lbDistance(prevTarget, target));
					}
					prevRoot = pose.model[c.root].q;
					prevMid = pose.model[c.mid].q;
					prevTarget = target;
				}
#undef SWEEP_POINT
				ENSURE(maxMove <= 0.01f && minMove > 0.006f);
				worstStep[soft] = lbMaxF(worstStep[soft], maxStep);
				// Exact IK must straighten the last few degrees within the step that reaches full
				// extension (bend ~ sqrt of the distance left): bounded, never a flip. With soften the
				// approach is smooth and every step stays far below 10 degrees.
				if (soft)
					ENSURE(maxStep < 10.0f * LB_DEG2RAD);
				else
					ENSURE(maxStep < 15.0f * LB_DEG2RAD);
			}
		}
		lbDestroyPose(&pose);
		lbDestroySkeleton(s);
	}
	printf("  sweep: largest thigh/calf turn per 1 cm step %.2f deg, with soften 0.05 %.2f deg\n",
		   (double)(worstStep[0] * LB_RAD2DEG), (double)(worstStep[1] * LB_RAD2DEG));
}

// Soften: the reach approaches full extension smoothly and monotonically and never snaps.
static void TwoBoneSoftenIsSmooth(void)
{
	lbTransform r = lbMakeTransform(lbVec3_zero, lbQuat_identity);
	lbTransform m = lbMakeTransform(lbMakeVec3(0.0f, 0.0f, -0.45f), lbQuat_identity);
	lbTransform e = lbMakeTransform(lbMakeVec3(0.0f, 0.02f, -0.9f), lbQuat_identity);
	float L = lbLength(m.p) + lbDistance(m.p, e.p);
	float prev = 0.0f, prevSlope = 1.0f;
	for (int i = 0; i <= 200; ++i)
	{
		float d = L * (0.8f + 0.4f * (float)i / 200.0f);
		lbTransform rr = r, mm = m, ee = e;
		lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
		in.targetMs = lbMakeVec3(0.0f, 0.0f, -d);
		in.soften = 0.1f;
		ENSURE(lbSolveTwoBoneIk(&rr, &mm, &ee, &in, NULL) == lb_ok);
		float reach = lbLength(ee.p);
		ENSURE(reach < L);
		if (i > 0)
		{
			float slope = (reach - prev) / (L * 0.4f / 200.0f);
			ENSURE(slope > 0.0f && slope <= 1.0f + 1.0e-2f);
			ENSURE(slope <= prevSlope + 1.0e-2f);
			prevSlope = slope;
		}
		prev = reach;
	}
	// A soften so small its band rounds to zero (the smallest denormal times a 0.2 m limb) solves
	// as no soften at all, with no division by the zero band (the sanitized build traps on one).
	m.p = lbMulSV(0.2f, m.p);
	e.p = lbMulSV(0.2f, e.p);
	L *= 0.2f;
	ENSURE(1.0e-45f * L == 0.0f);
	for (int k = 0; k < 2; ++k)
	{
		lbTransform r0 = r, m0 = m, e0 = e, r1 = r, m1 = m, e1 = e;
		lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
		in.targetMs = lbMakeVec3(0.1f, 0.0f, k == 0 ? -2.0f * L : -0.5f * L);
		in.soften = 1.0e-45f;
		ENSURE(lbSolveTwoBoneIk(&r0, &m0, &e0, &in, NULL) == lb_ok);
		in.soften = 0.0f;
		ENSURE(lbSolveTwoBoneIk(&r1, &m1, &e1, &in, NULL) == lb_ok);
		ENSURE(lbIsValidTransform(e0) && lbDistance(e0.p, e1.p) < 1.0e-6f);
	}
}

// Stretch lengthens the bones up to maxStretch; the end bone can take a target rotation.
static void TwoBoneStretchAndTargetRotation(void)
{
	lbTransform r0 = lbMakeTransform(lbVec3_zero, lbQuat_identity);
	lbTransform m0 = lbMakeTransform(lbMakeVec3(0.0f, 0.05f, -0.4f), lbQuat_identity);
	lbTransform e0 = lbMakeTransform(lbMakeVec3(0.0f, 0.0f, -0.8f), lbQuat_identity);
	float L = lbLength(m0.p) + lbDistance(m0.p, e0.p);
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.stretch = true;
	in.maxStretch = 1.1f;
	in.targetMs = lbMakeVec3(0.3f, 0.0f, -1.05f * L / sqrtf(1.0f + 0.09f / (1.05f * 1.05f * L * L)));
	in.targetMs = lbMulSV(1.05f * L / lbLength(in.targetMs), in.targetMs);
	in.useTargetRotation = true;
	in.targetRotationMs = lbQuatFromAxisAngle(lbMakeVec3(1, 2, 3), 0.7f);
	lbTransform r = r0, m = m0, e = e0;
	lbIkResult res;
	ENSURE(lbSolveTwoBoneIk(&r, &m, &e, &in, &res) == lb_ok);
	ENSURE(res.reached);
	ENSURE_VEC3_NEAR(e.p, in.targetMs, 1.0e-5f);
	ENSURE_QUAT_SAME_ROT(e.q, in.targetRotationMs, 1.0e-6f);
	in.targetMs = lbMulSV(1.5f, in.targetMs);
	r = r0, m = m0, e = e0;
	ENSURE(lbSolveTwoBoneIk(&r, &m, &e, &in, &res) == lb_ok);
	ENSURE(!res.reached);
	ENSURE_NEAR(lbLength(e.p), 1.1f * L, 1.0e-4f);
}

// Every bad input: an error code through the log hook and an untouched pose.
static void TwoBoneBadInput(void)
{
	LogCapture log = { 0 };
	lbSetLogFcn(CaptureLog, &log);
	lbSkeleton* s = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid h;
	lbMapHumanoid(s, NULL, &h);
	lbPose pose = lbCreatePose(s), before = lbCreatePose(s);
	lbLimbChain c;
	lbHumanoid_GetLimbChain(&h, lb_limbArmL, &c);
	lbTwoBoneIkInput good = lbDefaultTwoBoneIkInput();
	good.targetMs = lbAdd(pose.model[c.end].p, lbMakeVec3(0.1f, 0.1f, 0.1f));
	const float nan = NAN, inf = INFINITY;
	lbIkResult res;
#define EXPECT_ERROR(call, code)                                                                             \
	do                                                                                                       \
	{                                                                                                        \
		log.count = 0;                                                                                       \
		res.status = lb_ikReached;                                                                           \
		lbResult r_ = (call);                                                                                \
		ENSURE(r_ == (code));                                                                                \
		ENSURE(log.count == 1 && log.last == (code));                                                        \
		ENSURE(SamePose(&pose, &before));                                                                    \
	} while (0)
	lbTwoBoneIkInput in = good;
	in.targetMs.x = nan;
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &in, &res), lb_errorNonFinite);
	ENSURE(res.status == lb_ikNotSolved);
	in = good, in.targetMs.z = inf;
	EXPECT_ERROR(lbPose_SolveLimbIk(&pose, s, &h, lb_limbArmL, &in, &res), lb_errorNonFinite);
	in = good, in.poleKind = lb_poleLocation, in.poleMs.y = nan;
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &in, &res), lb_errorNonFinite);
	in = good, in.weight = nan;
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &in, &res), lb_errorNonFinite);
	in = good, in.soften = nan;
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &in, &res), lb_errorNonFinite);
	in = good, in.useTargetRotation = true, in.targetRotationMs = lbMakeQuat(nan, 0, 0, 1);
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &in, &res), lb_errorNonFinite);
	in = good, in.hingeAxisMs.x = inf;
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &in, &res), lb_errorNonFinite);
	in = good, in.poleKind = (lbPoleKind)9;
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &in, &res), lb_errorInvalidArgument);
	in = good, in.internalValue = 0;
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &in, &res), lb_errorDefNotInitialized);
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, NULL, &res), lb_errorNullPointer);
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(NULL, s, c.root, c.mid, c.end, &good, &res), lb_errorNullPointer);
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, NULL, c.root, c.mid, c.end, &good, &res), lb_errorNullPointer);
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, -1, c.mid, c.end, &good, &res), lb_errorBoneNotFound);
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, 999, &good, &res), lb_errorBoneNotFound);
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.end, c.mid, c.root, &good, &res), lb_errorInvalidArgument);
	EXPECT_ERROR(lbPose_SolveLimbIk(&pose, s, &h, (lbLimb)7, &good, &res), lb_errorInvalidArgument);
	EXPECT_ERROR(lbPose_SolveLimbIk(&pose, s, NULL, lb_limbArmL, &good, &res), lb_errorNullPointer);
	lbPose wrong = pose;
	wrong.boneCount = 3;
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&wrong, s, c.root, c.mid, c.end, &good, &res), lb_errorSkeletonMismatch);
	// NaN in the pose: error, nothing written.
	pose.model[c.mid].p.x = nan;
	before.model[c.mid].p.x = nan;
	lbPose_Copy(&before, &pose);
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &good, &res), lb_errorNonFinite);
	lbPose_SetRest(&pose, s);
	lbPose_SetRest(&before, s);
	// Zero-length bone: the mid joint on the root.
	pose.model[c.mid].p = pose.model[c.root].p;
	lbPose_Copy(&before, &pose);
	EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &good, &res), lb_errorDegenerate);
	lbPose_SetRest(&pose, s);
	lbPose_SetRest(&before, s);
	// The same through lbPose_SolveLimbIk: a non-finite mid joint, a non-finite root, a zero-length
	// bone, and a humanoid map whose limb bones do not form a chain.
	pose.model[c.mid].p.y = nan;
	lbPose_Copy(&before, &pose);
	EXPECT_ERROR(lbPose_SolveLimbIk(&pose, s, &h, lb_limbArmL, &good, &res), lb_errorNonFinite);
	lbPose_SetRest(&pose, s);
	pose.model[c.root].q.w = inf;
	lbPose_Copy(&before, &pose);
	EXPECT_ERROR(lbPose_SolveLimbIk(&pose, s, &h, lb_limbArmL, &good, &res), lb_errorNonFinite);
	lbPose_SetRest(&pose, s);
	pose.model[c.end].p = pose.model[c.mid].p;
	lbPose_Copy(&before, &pose);
	EXPECT_ERROR(lbPose_SolveLimbIk(&pose, s, &h, lb_limbArmL, &good, &res), lb_errorDegenerate);
	lbPose_SetRest(&pose, s);
	lbPose_SetRest(&before, s);
	// A non-finite parent of the root (the clavicle): the root's local is written relative to
	// it, so a solve would leave the whole arm non-finite; both entry points refuse it, pose
	// unchanged, whatever the target (a far one took the fast path past the joint checks).
	for (int far = 0; far < 2; ++far)
	{
		lbPose_SetRest(&pose, s);
		const int parent = s->parents[c.root];
		ENSURE(parent >= 0);
		pose.model[parent].p.x = nan;
		lbPose_Copy(&before, &pose);
		lbTwoBoneIkInput weak = good;
		weak.weight = 0.33f;
		if (far)
			weak.targetMs = lbMakeVec3(-3.0e38f, -0.4f, -0.3f);
		EXPECT_ERROR(lbPose_SolveLimbIk(&pose, s, &h, lb_limbArmL, &weak, &res), lb_errorNonFinite);
		EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &weak, &res), lb_errorNonFinite);
	}
	// A finite parent 3e38 m from the root (the fuzzer's case): the root's offset from it overflowed
	// in the parent's frame and the arm came out NaN. Refused as out of range, pose unchanged; a
	// parent 1e6 m off still solves, every bone finite.
	for (int far = 0; far < 2; ++far)
	{
		lbPose_SetRest(&pose, s);
		const int parent = s->parents[c.root];
		pose.model[parent].p.x = far ? 1.0e6f : 3.0e38f;
		lbPose_Copy(&before, &pose);
		lbTwoBoneIkInput weak = good;
		weak.weight = 0.33f;
		weak.targetMs = lbMakeVec3(-3.0e38f, -0.4f, -0.3f);
		if (!far)
		{
			EXPECT_ERROR(lbPose_SolveLimbIk(&pose, s, &h, lb_limbArmL, &weak, &res), lb_errorInvalidArgument);
			EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &weak, &res), lb_errorInvalidArgument);
			continue;
		}
		ENSURE(lbPose_SolveLimbIk(&pose, s, &h, lb_limbArmL, &weak, &res) == lb_ok);
		for (int b = 0; b < s->boneCount; ++b)
			ENSURE(lbIsValidTransform(pose.model[b]) && lbIsValidTransform(pose.local[b]));
	}
	lbPose_SetRest(&pose, s);
	lbPose_SetRest(&before, s);
	{
		lbHumanoid crossed = h;
		crossed.arm[lb_left].foreArm = h.arm[lb_right].foreArm;
		EXPECT_ERROR(lbPose_SolveLimbIk(&pose, s, &crossed, lb_limbArmL, &good, &res), lb_errorInvalidArgument);
	}
	// Joints just inside the checks' limits (a rotation norm of 0.985, a scale of 2e-8) solve; just
	// outside (0.975, 5e-9) they are reported, through both pose entry points.
	for (int k = 0; k < 4; ++k)
	{
		lbPose_SetRest(&pose, s);
		float f = k < 2 ? sqrtf(k == 0 ? 0.985f : 0.975f) : 1.0f;
		pose.model[c.mid].q = lbMakeQuat(pose.model[c.mid].q.x * f, pose.model[c.mid].q.y * f,
										 pose.model[c.mid].q.z * f, pose.model[c.mid].q.w * f);
		if (k >= 2)
			pose.model[c.end].s.y = k == 2 ? 2.0e-8f : 5.0e-9f;
		lbPose_Copy(&before, &pose);
		if (k == 0 || k == 2)
		{
			log.count = 0;
			ENSURE(lbPose_SolveLimbIk(&pose, s, &h, lb_limbArmL, &good, &res) == lb_ok);
			ENSURE(lbPose_SolveTwoBoneIk(&before, s, c.root, c.mid, c.end, &good, &res) == lb_ok);
			ENSURE(log.count == 0);
		}
		else
		{
			EXPECT_ERROR(lbPose_SolveLimbIk(&pose, s, &h, lb_limbArmL, &good, &res), lb_errorNonFinite);
			EXPECT_ERROR(lbPose_SolveTwoBoneIk(&pose, s, c.root, c.mid, c.end, &good, &res), lb_errorNonFinite);
		}
	}
	lbPose_SetRest(&pose, s);
	lbPose_SetRest(&before, s);
	// Plain transforms.
	lbTransform r = pose.model[c.root], m = pose.model[c.mid], e = pose.model[c.end];
	lbTransform r0 = r, m0 = m, e0 = e;
	EXPECT_ERROR(lbSolveTwoBoneIk(NULL, &m, &e, &good, &res), lb_errorNullPointer);
	m.q = lbMakeQuat(0, 0, 0, 0);
	m0 = m;
	EXPECT_ERROR(lbSolveTwoBoneIk(&r, &m, &e, &good, &res), lb_errorNonFinite);
	ENSURE(memcmp(&r, &r0, sizeof r) == 0 && memcmp(&m, &m0, sizeof m) == 0 && memcmp(&e, &e0, sizeof e) == 0);
	e = m;
	e0 = e;
	m = m0 = pose.model[c.mid];
	e = e0 = m;
	EXPECT_ERROR(lbSolveTwoBoneIk(&r, &m, &e, &good, &res), lb_errorDegenerate);
	ENSURE(memcmp(&e, &e0, sizeof e) == 0);
#undef EXPECT_ERROR
	lbDestroyPose(&pose);
	lbDestroyPose(&before);
	lbDestroySkeleton(s);
	lbSetLogFcn(NULL, NULL);
}

// Only a pole's direction counts: a finite pole far past any rig (a direction of length 1e20, a
// location 3e38 m away) solves as the same pole brought near, with a finite pose. Squaring such a
// pole overflowed to infinity and left a NaN elbow with lb_ok.
static void TwoBoneFarPoleActsAsNearPole(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(s, NULL, &h) == lb_ok);
		lbPose near = lbCreatePose(s), far = lbCreatePose(s);
		for (int limb = 0; limb < 4; ++limb)
		{
			lbLimbChain c;
			ENSURE(lbHumanoid_GetLimbChain(&h, (lbLimb)limb, &c) == lb_ok);
			const lbVec3 dirs[3] = { h.forwardMs, lbNeg(h.forwardMs), lbNormalize(lbAdd(h.forwardMs, h.upMs)) };
			for (int k = 0; k < 3; ++k)
				for (int kind = 0; kind < 2; ++kind)
				{
					lbPose_SetRest(&near, s);
					lbPose_SetRest(&far, s);
					lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
					const lbVec3 root = near.model[c.root].p;
					in.targetMs = lbMulAdd(near.model[c.end].p, 0.25f * (c.upperLength + c.lowerLength), dirs[k]);
					in.targetMs = lbMulAdd(in.targetMs, -0.2f * (c.upperLength + c.lowerLength), h.upMs);
					in.poleKind = kind ? lb_poleLocation : lb_poleDirection;
					in.poleMs = kind ? lbMulAdd(root, 10.0f, dirs[k]) : dirs[k];
					ENSURE(lbPose_SolveLimbIk(&near, s, &h, (lbLimb)limb, &in, NULL) == lb_ok);
					// A location 3e38 m out along the same direction, or the direction times 1e20.
					in.poleMs = lbMulSV(kind ? 3.0e38f : 1.0e20f, dirs[k]);
					ENSURE(lbIsValidVec3(in.poleMs));
					ENSURE(lbPose_SolveLimbIk(&far, s, &h, (lbLimb)limb, &in, NULL) == lb_ok);
					ENSURE(lbPose_IsFinite(&far));
					ENSURE_VEC3_NEAR(far.model[c.mid].p, near.model[c.mid].p, 1.0e-4f);
					ENSURE_VEC3_NEAR(far.model[c.end].p, near.model[c.end].p, 1.0e-4f);
				}
		}
		lbDestroyPose(&near);
		lbDestroyPose(&far);
		lbDestroySkeleton(s);
	}
}

// Numbers that are finite but far past any rig: a target 3e38 m away is out of reach (the limb
// points straight at it, finite); a bone 1e20 m long is refused with the joints unchanged. Squaring
// such lengths overflows.
static void TwoBoneFarTargetsAndHugeBones(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(s, NULL, &h) == lb_ok);
		lbPose pose = lbCreatePose(s);
		lbLimbChain c;
		ENSURE(lbHumanoid_GetLimbChain(&h, lb_limbLegL, &c) == lb_ok);
		const lbVec3 dirs[2] = { h.forwardMs, lbNormalize(lbSub(h.leftMs, h.upMs)) };
		for (int k = 0; k < 2; ++k)
			for (int far = 0; far < 2; ++far)
			{
				lbPose_SetRest(&pose, s);
				lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
				in.targetMs = lbMulSV(far ? 3.0e38f : 1.0e20f, dirs[k]);
				lbIkResult res;
				ENSURE(lbPose_SolveLimbIk(&pose, s, &h, lb_limbLegL, &in, &res) == lb_ok);
				ENSURE(lbPose_IsFinite(&pose));
				ENSURE(!res.reached && lbIsValidFloat(res.remainingDistance) && res.remainingDistance > 1.0e19f);
				const lbVec3 limb = lbNormalize(lbSub(pose.model[c.end].p, pose.model[c.root].p));
				ENSURE(lbDot(limb, dirs[k]) > 0.999f);
			}
		// The joints of a chain whose lower bone is 1e20 m long.
		lbPose_SetRest(&pose, s);
		lbTransform j[3] = { pose.model[c.root], pose.model[c.mid], pose.model[c.end] }, saved[3];
		j[2].p = lbMulAdd(j[1].p, 1.0e20f, h.forwardMs);
		memcpy(saved, j, sizeof j);
		lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
		in.targetMs = pose.model[c.end].p;
		ENSURE(lbSolveTwoBoneIk(&j[0], &j[1], &j[2], &in, NULL) == lb_errorDegenerate);
		ENSURE(memcmp(j, saved, sizeof j) == 0);
		lbDestroyPose(&pose);
		lbDestroySkeleton(s);
	}
}

// A straight start takes its hinge from the pole, else the bend hint, crossed with the upper bone:
// with the pole along the bone, a bend hint of 3e38 m crossed with it overflowed and the hinge came
// out NaN (the fuzzer's case: the whole chain NaN, the call ok). Straight and folded-back chains of
// 0.5 m to 5e8 m bones, poles along the bone or across it, far or near, and hints of any size up to
// 3e38 m: every transform comes out valid and the bones keep their lengths. Bones of 1e9 m or more
// are refused (a bent chain of 1e10 m bones came out NaN: the bend's normal squared overflowed).
static void TwoBoneFarHintsOnStraightChains(void)
{
	LogCapture log = { 0 };
	lbSetLogFcn(CaptureLog, &log);
	lbTestRng rng = { 59 };
	const int cases = Sanitize() ? 300 : 3000;
	const float sizes[4] = { 1.0f, 1.0e6f, 1.0e15f, 3.0e38f };
	for (int i = 0; i < cases; ++i)
	{
		const float a = (i % 3 == 0) ? 5.0e8f * lbTestUniform(&rng, 0.5f, 1.0f) : lbTestUniform(&rng, 0.5f, 2.0f);
		const float b = a * lbTestUniform(&rng, 0.01f, 1.0f);
		const lbVec3 root = lbMakeVec3(lbTestUniform(&rng, -4, 4), lbTestUniform(&rng, -4, 4), lbTestUniform(&rng, -4, 4));
		const lbVec3 d = lbTestRandomUnit(&rng);
		lbTransform c[3];
		c[0] = lbMakeTransform(root, RandomRotation(&rng, LB_PI));
		c[1] = lbMakeTransform(lbMulAdd(root, a, d), RandomRotation(&rng, LB_PI));
		c[2] = lbMakeTransform(lbMulAdd(c[1].p, (i % 2) ? -b : b, d), RandomRotation(&rng, LB_PI)); // folded back or straight
		lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
		in.targetMs = lbMulAdd(root, lbTestUniform(&rng, 0.0f, 2.0f) * (a + b), lbTestRandomUnit(&rng));
		in.poleKind = (i % 4 < 2) ? lb_poleDirection : lb_poleLocation;
		// The pole along the bone (it says nothing, so the hint decides) or anywhere, of any size.
		const lbVec3 poleDir = (i % 5 < 3) ? d : lbTestRandomUnit(&rng);
		in.poleMs = lbMulSV(sizes[(i / 4) % 4], poleDir);
		if (in.poleKind == lb_poleLocation && (i / 4) % 4 == 0)
			in.poleMs = lbAdd(root, in.poleMs);
		in.bendHintMs = lbMulSV(sizes[(i / 16) % 4] * lbTestUniform(&rng, 0.5f, 1.0f), lbTestRandomUnit(&rng));
		const float a0 = lbDistance(c[0].p, c[1].p), b0 = lbDistance(c[1].p, c[2].p);
		ENSURE(lbSolveTwoBoneIk(&c[0], &c[1], &c[2], &in, NULL) == lb_ok);
		for (int k = 0; k < 3; ++k)
			ENSURE(lbIsValidTransform(c[k]));
		ENSURE(fabsf(lbDistance(c[0].p, c[1].p) - a0) <= 1.0e-3f * a0);
		ENSURE(fabsf(lbDistance(c[1].p, c[2].p) - b0) <= 1.0e-3f * a0);
	}
	// A bent chain of 1e10 m bones: refused, the joints as they were.
	lbTransform c[3], saved[3];
	c[0] = lbMakeTransform(lbMakeVec3(1, 2, 3), lbQuat_identity);
	c[1] = lbMakeTransform(lbMulAdd(c[0].p, 1.0e10f, lbNormalize(lbMakeVec3(0.3f, -0.5f, 0.8f))), lbQuat_identity);
	c[2] = lbMakeTransform(lbMulAdd(c[1].p, 0.5e10f, lbNormalize(lbMakeVec3(0.9f, 0.1f, 0.3f))), lbQuat_identity);
	memcpy(saved, c, sizeof c);
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = lbMakeVec3(1.0e10f, 0, 0);
	in.poleKind = lb_poleDirection;
	in.poleMs = lbMakeVec3(1, 0, 0);
	log.count = 0;
	ENSURE(lbSolveTwoBoneIk(&c[0], &c[1], &c[2], &in, NULL) == lb_errorDegenerate);
	ENSURE(log.count == 1 && memcmp(c, saved, sizeof c) == 0);
	lbSetLogFcn(NULL, NULL);
}

// The rotations written are unit to rounding whatever the root's turn (Shepperd's four cases: the
// targets lie in every direction) and however the chain starts (bent or straight, hinge given or
// derived, any pole, weight and soften), from input rotations a little off unit: within 2e-6 of one.
static void TwoBoneRotationsComeOutUnit(void)
{
	lbTestRng rng = { 23 };
	const int cases = Sanitize() ? 40 : 300;
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(s, NULL, &h) == lb_ok);
		lbPose pose = lbCreatePose(s);
		lbPose_SetRest(&pose, s);
		for (int limb = 0; limb < lb_limbCount; ++limb)
		{
			lbLimbChain c;
			ENSURE(lbHumanoid_GetLimbChain(&h, (lbLimb)limb, &c) == lb_ok);
			const float L = c.upperLength + c.lowerLength;
			for (int i = 0; i < cases; ++i)
			{
				lbTransform j[3] = { pose.model[c.root], pose.model[c.mid], pose.model[c.end] };
				for (int k = 0; k < 3; ++k)
				{
					const lbQuat q = lbQuatMul(RandomRotation(&rng, LB_PI), j[k].q);
					const float f = lbTestUniform(&rng, 0.993f, 1.007f); // |q|^2 within the checks' band
					j[k].q = (lbQuat){ f * q.x, f * q.y, f * q.z, f * q.w };
				}
				if (i % 4 == 0) // straight
					j[2].p = lbMulAdd(j[1].p, c.lowerLength, lbNormalize(lbSub(j[1].p, j[0].p)));
				lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
				in.targetMs = lbMulAdd(j[0].p, lbTestUniform(&rng, 0.1f, 1.3f) * L, lbTestRandomUnit(&rng));
				const int kind = i % 3;
				if (kind == 0)
					in.poleKind = lb_poleDirection, in.poleMs = lbTestRandomUnit(&rng);
				else if (kind == 1)
					in.poleKind = lb_poleLocation, in.poleMs = lbMulAdd(j[0].p, L, lbTestRandomUnit(&rng));
				if (i % 5 == 1)
					in.hingeAxisMs = lbTestRandomUnit(&rng);
				if (i % 7 == 2)
					in.weight = lbTestUniform(&rng, 0.0f, 1.0f);
				if (i % 2 == 1)
					in.soften = lbTestUniform(&rng, 0.0f, 0.2f);
				ENSURE(lbSolveTwoBoneIk(&j[0], &j[1], &j[2], &in, NULL) == lb_ok);
				for (int k = 0; k < 3; ++k)
					ENSURE(fabsf(sqrtf(lbQuatDot(j[k].q, j[k].q)) - 1.0f) <= 2.0e-6f);
			}
		}
		lbDestroyPose(&pose);
		lbDestroySkeleton(s);
	}
}

// A chain from `root` along a random direction d (returned): upper bone a, lower bone b folded back
// along -d to within maxFoldDeg degrees (drawn), each joint turned at random.
static lbVec3 FoldedChain(lbTestRng* rng, lbVec3 root, float a, float b, float maxFoldDeg, lbTransform c[3])
{
	const lbVec3 d = lbTestRandomUnit(rng), bend = lbNormalize(lbCross(d, lbTestRandomUnit(rng)));
	const float fold = lbTestUniform(rng, 0.0f, maxFoldDeg) * LB_DEG2RAD;
	c[0] = lbMakeTransform(root, RandomRotation(rng, LB_PI));
	c[1] = lbMakeTransform(lbMulAdd(root, a, d), RandomRotation(rng, LB_PI));
	c[2] = lbMakeTransform(lbMulAdd(c[1].p, b, lbAdd(lbMulSV(-cosf(fold), d), lbMulSV(sinf(fold), bend))),
						   RandomRotation(rng, LB_PI));
	return d;
}

// A chain folded nearly flat (the end 1.2 m from the root on bones of 11.8 m each), its given hinge
// along the upper bone, a target well inside reach with soften and stretch at their extremes: the
// closed-form length disagreed with the bent chain's own, and the frame built from it was not
// orthonormal (the fuzzer's case: a root rotation of norm 0.89, the mid joint 25.6 m from the
// root). The rotations come out unit (to rounding: a given hinge off normal to the chain is made
// unit with the fast square root) and the upper bone grows by no more than the stretch allowed,
// there and on random chains folded to within a few degrees with soften and stretch drawn over
// their whole range.
static void TwoBoneFoldedChainWithSoftenStaysRigid(void)
{
	lbTransform j[3];
	j[0] = lbMakeTransform(lbMakeVec3(4, 4, 4), (lbQuat){ -0.5f, -0.5f, -0.5f, -0.5f });
	j[1] = lbMakeTransform(lbMakeVec3(-2.80784321f, -2.80784321f, -2.80784321f),
						   lbQuatNormalize((lbQuat){ -0.407161564f, -0.407161564f, 0.576193392f, 0.580034614f }));
	j[2] = lbMakeTransform(lbMakeVec3(4, 4, 2.7812314f), (lbQuat){ 0.5f, 0.5f, 0.5f, 0.5f });
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = lbMakeVec3(4, -0.581368685f, 3.8577857f);
	in.targetRotationMs = lbQuat_identity;
	in.useTargetRotation = true;
	in.poleKind = lb_poleLocation;
	in.poleMs = lbMakeVec3(-2.71372557f, -2.71372557f, -2.71372557f);
	in.hingeAxisMs = lbMakeVec3(-2.71372557f, -2.71372557f, -2.71372557f);
	in.bendHintMs = lbMakeVec3(3.97387648f, 4, 4);
	in.weight = 4.0f;
	in.soften = 4.0f;
	in.stretch = true;
	in.maxStretch = 4.0f;
	in.tolerance = 4.0f;
	const float upper = lbDistance(j[0].p, j[1].p);
	ENSURE(lbSolveTwoBoneIk(&j[0], &j[1], &j[2], &in, NULL) == lb_ok);
	for (int k = 0; k < 3; ++k)
	{
		ENSURE(lbIsValidTransform(j[k]));
		ENSURE(fabsf(sqrtf(lbQuatDot(j[k].q, j[k].q)) - 1.0f) <= 5.0e-5f);
	}
	printf("  folded chain: upper bone %.4f m before, %.4f after\n", (double)upper, (double)lbDistance(j[0].p, j[1].p));
	ENSURE(lbDistance(j[0].p, j[1].p) <= in.maxStretch * upper * (1.0f + 1.0e-3f));

	lbTestRng rng = { 31 };
	const int cases = Sanitize() ? 200 : 2000;
	for (int i = 0; i < cases; ++i)
	{
		const float a = lbTestUniform(&rng, 0.2f, 2.0f), b = lbTestUniform(&rng, 0.2f, 2.0f);
		const lbVec3 root = lbMakeVec3(lbTestUniform(&rng, -3, 3), lbTestUniform(&rng, -3, 3), lbTestUniform(&rng, -3, 3));
		lbTransform c[3];
		const lbVec3 d = FoldedChain(&rng, root, a, b, 6.0f, c); // the knee nearly shut
		lbTwoBoneIkInput r = lbDefaultTwoBoneIkInput();
		r.targetMs = lbMulAdd(root, lbTestUniform(&rng, 0.0f, 1.5f) * (a + b), lbTestRandomUnit(&rng));
		r.poleKind = (lbPoleKind)(i % 3);
		r.poleMs = i % 2 ? lbMulAdd(root, a, lbTestRandomUnit(&rng)) : lbMulAdd(root, lbTestUniform(&rng, 0, 2), d);
		if (i % 4 == 1)
			r.hingeAxisMs = i % 8 == 1 ? d : lbTestRandomUnit(&rng);
		r.soften = lbTestUniform(&rng, 0.0f, 4.0f);
		r.stretch = i % 2 == 0;
		r.maxStretch = lbTestUniform(&rng, 1.0f, 4.0f);
		r.weight = i % 5 == 0 ? lbTestUniform(&rng, 0.0f, 1.0f) : 1.0f;
		const float a0 = lbDistance(c[0].p, c[1].p);
		ENSURE(lbSolveTwoBoneIk(&c[0], &c[1], &c[2], &r, NULL) == lb_ok);
		for (int k = 0; k < 3; ++k)
			ENSURE(lbIsValidTransform(c[k]) && fabsf(sqrtf(lbQuatDot(c[k].q, c[k].q)) - 1.0f) <= 5.0e-5f);
		// The upper bone may only grow by the stretch allowed.
		const float a1 = lbDistance(c[0].p, c[1].p);
		ENSURE(a1 >= a0 * (1.0f - 1.0e-3f) && a1 <= a0 * (r.stretch ? r.maxStretch : 1.0f) * (1.0f + 1.0e-3f));
	}
}

// A limb folded back on itself (the end at the root, the bones of nearly one length) with a pole:
// the chain's root-end direction is then the bones' small difference, set by rounding and not
// normal to the hinge, and the root frame built as if it were gave a root rotation of norm 0.92
// (the fuzzer's case: the target at the root). Rotations come out unit and the bones keep their
// lengths, there and on random chains folded back to within a hundredth of a degree with targets
// at or near the root.
static void TwoBoneFoldedBackOnItselfStaysUnit(void)
{
	lbTransform j[3];
	j[0] = lbMakeTransform(lbMakeVec3(4, 4, 4), lbQuatNormalize((lbQuat){ 0.635225177f, -0.445903182f, -0.445903182f, -0.445903182f }));
	j[1] = lbMakeTransform(lbMakeVec3(-2.80784321f, -2.80784321f, -2.80784321f),
						   lbQuatNormalize((lbQuat){ -0.376314938f, 0.532540858f, 0.536091089f, 0.536091089f }));
	j[2] = lbMakeTransform(lbMakeVec3(4, 3.99902344f, 4), (lbQuat){ 0.5f, 0.5f, 0.5f, 0.5f });
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.targetMs = lbMakeVec3(4, 4, 4);
	in.poleKind = lb_poleLocation;
	in.poleMs = lbMakeVec3(4, 4, 1.71871519f);
	in.soften = 0.5f;
	in.stretch = true;
	in.maxStretch = 4.0f;
	ENSURE(lbSolveTwoBoneIk(&j[0], &j[1], &j[2], &in, NULL) == lb_ok);
	for (int k = 0; k < 3; ++k)
	{
		printf("  folded back: joint %d rotation norm %.6f\n", k, (double)sqrtf(lbQuatDot(j[k].q, j[k].q)));
		ENSURE(lbIsValidTransform(j[k]) && fabsf(sqrtf(lbQuatDot(j[k].q, j[k].q)) - 1.0f) <= 1.0e-5f);
	}

	lbTestRng rng = { 47 };
	const int cases = Sanitize() ? 300 : 3000;
	int derived = 0;
	float worst = 0.0f, worstNorm = 0.0f;
	for (int i = 0; i < cases; ++i)
	{
		const float a = lbTestUniform(&rng, 0.2f, 8.0f), b = a * lbTestUniform(&rng, 0.999f, 1.001f);
		const lbVec3 root = lbMakeVec3(lbTestUniform(&rng, -4, 4), lbTestUniform(&rng, -4, 4), lbTestUniform(&rng, -4, 4));
		lbTransform c[3];
		FoldedChain(&rng, root, a, b, 0.01f, c);
		lbTwoBoneIkInput r = lbDefaultTwoBoneIkInput();
		r.targetMs = i % 3 == 0 ? root : lbMulAdd(root, lbTestUniform(&rng, 0.0f, 0.01f) * a, lbTestRandomUnit(&rng));
		r.poleKind = i % 2 ? lb_poleLocation : lb_poleDirection;
		r.poleMs = i % 2 ? lbMulAdd(root, lbTestUniform(&rng, 0.1f, 4.0f), lbTestRandomUnit(&rng)) : lbTestRandomUnit(&rng);
		r.soften = i % 4 == 1 ? lbTestUniform(&rng, 0.0f, 0.5f) : 0.0f;
		r.stretch = i % 4 == 2;
		r.weight = i % 5 == 0 ? lbTestUniform(&rng, 0.0f, 1.0f) : 1.0f;
		const float a0 = lbDistance(c[0].p, c[1].p), b0 = lbDistance(c[1].p, c[2].p);
		ENSURE(lbSolveTwoBoneIk(&c[0], &c[1], &c[2], &r, NULL) == lb_ok);
		for (int k = 0; k < 3; ++k)
		{
			ENSURE(lbIsValidTransform(c[k]));
			worstNorm = lbMaxF(worstNorm, fabsf(sqrtf(lbQuatDot(c[k].q, c[k].q)) - 1.0f));
		}
		if (!r.stretch)
		{
			worst = lbMaxF(worst, lbMaxF(fabsf(lbDistance(c[0].p, c[1].p) - a0) / a0, fabsf(lbDistance(c[1].p, c[2].p) - b0) / b0));
			ENSURE(fabsf(lbDistance(c[0].p, c[1].p) - a0) <= 1.0e-4f * a0);
			ENSURE(fabsf(lbDistance(c[1].p, c[2].p) - b0) <= 1.0e-4f * b0);
		}
		derived += lbDot(lbSub(c[2].p, c[0].p), lbSub(c[2].p, c[0].p)) < 0.01f * a * a;
	}
	printf("  folded back: %d of %d chains still folded after the solve, bones off by %.2g of their length, rotations' norms by %.2g\n", derived, cases, (double)worst, (double)worstNorm);
	ENSURE(worstNorm <= 1.0e-5f);
	ENSURE(derived > cases / 2); // the cases stay where the fault lived
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(TwoBoneReachesOnReferenceRigs);
	RUN_TEST(TwoBoneUnderScaledAndMirroredParents);
	RUN_TEST(TwoBoneTransformsMatchPose);
	RUN_TEST(TwoBonePoseWritesMatchReference);
	RUN_TEST(TwoBoneUnreachableIsStraight);
	RUN_TEST(TwoBoneDegenerateTargetsAndWeights);
	RUN_TEST(TwoBonePoleOnLineKeepsPlane);
	RUN_TEST(TwoBoneSweepNeverFlips);
	RUN_TEST(TwoBoneSoftenIsSmooth);
	RUN_TEST(TwoBoneStretchAndTargetRotation);
	RUN_TEST(TwoBoneBadInput);
	RUN_TEST(TwoBoneFarPoleActsAsNearPole);
	RUN_TEST(TwoBoneFarTargetsAndHugeBones);
	RUN_TEST(TwoBoneFarHintsOnStraightChains);
	RUN_TEST(TwoBoneRotationsComeOutUnit);
	RUN_TEST(TwoBoneFoldedChainWithSoftenStaysRigid);
	RUN_TEST(TwoBoneFoldedBackOnItselfStaysUnit);
	TEST_MAIN_END();
}
