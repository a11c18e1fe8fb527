// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Humanoid mapping on both reference rigs and on name lists of every supported convention, and
// the derived axes checked against how each rig was built.
#include "limber/humanoid.h"
#include "limber/import.h"
#include "limber/rigs.h"
#include "scaled_rig.h"
#include "test_macros.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static char g_message[512]; // last logged message, captured for the checks below
static lbResult g_code;

static void captureLog(lbLogLevel level, lbResult code, const char* message, void* ctx)
{
	(void)level;
	(void)ctx;
	g_code = code;
	snprintf(g_message, sizeof g_message, "%s", message);
}

static lbVec3 modelDir(const lbSkeleton* s, int bone, lbVec3 local)
{
	return lbTransformDirection(s->restModel[bone], local);
}

static void test_reference_rigs_map_completely(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		ENSURE(s && lbMapHumanoid(s, NULL, &h) == lb_ok);
		if (!s)
			continue;
		bool mannequin = rig == lb_rigMannequin;
		for (int r = 0; r < lb_roleCount; ++r)
		{
			bool optionalAbsent = (r >= lb_roleTwist1L && r <= lb_roleTwist3L) || (r >= lb_roleTwist1R && r <= lb_roleTwist3R) ||
								  r == lb_roleSpine4 || (!mannequin && r == lb_roleRoot);
			int bone = lbHumanoid_GetRoleBone(&h, (lbRole)r);
			if (!optionalAbsent)
				ENSURE(bone != LB_NULL_INDEX);
		}
		ENSURE(h.spineCount == 3);
		ENSURE(h.arm[0].twistCount == (mannequin ? 2 : 0) && h.arm[1].twistCount == (mannequin ? 2 : 0));
		if (mannequin)
		{
			ENSURE(h.root == lbSkeleton_FindBone(s, "root"));
			ENSURE(h.leg[0].thigh == lbSkeleton_FindBone(s, "thigh_l") && h.leg[1].ball == lbSkeleton_FindBone(s, "ball_r"));
			// Twist bones run elbow to wrist: twist_02 is nearer the elbow in this rig.
			ENSURE(h.arm[0].twist[0] == lbSkeleton_FindBone(s, "lowerarm_twist_02_l"));
			ENSURE(h.arm[0].twist[1] == lbSkeleton_FindBone(s, "lowerarm_twist_01_l"));
			ENSURE(lbHumanoid_GetRoleBone(&h, lb_roleTwist1L) == h.arm[0].twist[0]);
		}
		else
		{
			ENSURE(h.root == LB_NULL_INDEX);
			ENSURE(h.leg[0].thigh == lbSkeleton_FindBone(s, "mixamorig:LeftUpLeg"));
			ENSURE(h.arm[1].clavicle == lbSkeleton_FindBone(s, "mixamorig:RightShoulder"));
			ENSURE(h.spine[0] == lbSkeleton_FindBone(s, "mixamorig:Spine"));
		}
		lbDestroySkeleton(s);
	}
}

static void test_derived_axes_match_construction(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		if (!s || lbMapHumanoid(s, NULL, &h) != lb_ok)
		{
			ENSURE(false);
			continue;
		}
		bool mannequin = rig == lb_rigMannequin;
		lbVec3 up = lbReferenceRigUp((lbReferenceRig)rig);
		ENSURE_VEC3_NEAR(h.upMs, up, 1e-5f);
		ENSURE_VEC3_NEAR(h.forwardMs, mannequin ? lbMakeVec3(0, -1, 0) : lbMakeVec3(0, 0, 1), 1e-5f);
		ENSURE_VEC3_NEAR(h.leftMs, lbVec3_axisX, 1e-5f);
		for (int side = 0; side < 2; ++side)
		{
			// How the rigs were built: mannequin +X along bones on the left, -X on the right (mirrored);
			// mixamo +Y along every bone.
			lbVec3 along = mannequin ? (side == 0 ? lbVec3_axisX : lbMakeVec3(-1, 0, 0)) : lbVec3_axisY;
			const lbLegAxes* lx = &h.legAxes[side];
			const lbArmAxes* ax = &h.armAxes[side];
			ENSURE_VEC3_NEAR(lx->thighAlong, along, 1e-4f);
			ENSURE_VEC3_NEAR(lx->calfAlong, along, 1e-4f);
			ENSURE_VEC3_NEAR(ax->upperAlong, along, 1e-4f);
			ENSURE_VEC3_NEAR(ax->foreAlong, along, 1e-4f);

			// Bending the knee about its derived axis moves the ankle back and up; the knee pole faces forward.
			const lbLegBones* g = &h.leg[side];
			lbPose pose = lbCreatePose(s);
			lbVec3 ankle0 = pose.model[g->foot].p;
			pose.local[g->calf].q = lbQuatMul(pose.local[g->calf].q, lbQuatFromAxisAngle(lx->kneeBendCalf, 0.6f));
			lbPose_LocalToModel(&pose, s);
			lbVec3 d = lbSub(pose.model[g->foot].p, ankle0);
			ENSURE(lbDot(d, h.forwardMs) < -0.1f);
			ENSURE(lbDot(d, up) > 0.02f);
			ENSURE(lbAbsF(lbDot(d, h.leftMs)) < 0.01f);
			ENSURE(lbDot(modelDir(s, g->thigh, lx->kneePoleThigh), h.forwardMs) > 0.95f);
			// The hinge seen from the thigh is the same model-space axis as seen from the calf.
			ENSURE_VEC3_NEAR(modelDir(s, g->thigh, lx->kneeBendThigh), modelDir(s, g->calf, lx->kneeBendCalf), 1e-4f);

			// Flexing the elbow brings the wrist forward; the elbow points back.
			const lbArmBones* a = &h.arm[side];
			lbPose_SetRest(&pose, s);
			lbVec3 wrist0 = pose.model[a->hand].p;
			pose.local[a->foreArm].q = lbQuatMul(pose.local[a->foreArm].q, lbQuatFromAxisAngle(ax->elbowBendFore, 0.6f));
			lbPose_LocalToModel(&pose, s);
			ENSURE(lbDot(lbSub(pose.model[a->hand].p, wrist0), h.forwardMs) > 0.1f);
			ENSURE(lbDot(modelDir(s, a->upperArm, ax->elbowPoleUpper), h.forwardMs) < -0.9f);

			// Toe axis is rest ball - rest ankle; foot up is normal to it and upward.
			lbVec3 toeMs = modelDir(s, g->foot, lx->toe);
			ENSURE_VEC3_NEAR(toeMs, lbNormalize(lbSub(s->restModel[g->ball].p, s->restModel[g->foot].p)), 1e-4f);
			lbVec3 footUpMs = modelDir(s, g->foot, lx->footUp);
			ENSURE_VEC3_NEAR(footUpMs, up, 1e-4f);
			ENSURE_NEAR(lx->ankleHeight, 0.09f, 0.01f);
			ENSURE_NEAR(lx->thighLength + lx->calfLength, 0.84f, 0.01f);

			// Finger axis continues the forearm; the palm is normal to it and faces down/in.
			lbVec3 fingerMs = modelDir(s, a->hand, ax->finger);
			ENSURE_VEC3_NEAR(fingerMs, lbNormalize(lbSub(s->restModel[a->hand].p, s->restModel[a->foreArm].p)), 1e-4f);
			lbVec3 palmMs = modelDir(s, a->hand, ax->palm);
			ENSURE_NEAR(lbDot(palmMs, fingerMs), 0.0f, 1e-4f);
			ENSURE(lbDot(palmMs, up) < -0.3f);
			lbVec3 outward = side == 0 ? h.leftMs : lbNeg(h.leftMs);
			ENSURE(lbDot(palmMs, outward) < 0.0f + (mannequin ? 0.0f : 0.01f));
			lbDestroyPose(&pose);
		}
		ENSURE(lbDot(modelDir(s, h.pelvis, h.pelvisUp), up) > 0.999f);
		ENSURE(lbDot(modelDir(s, h.head, h.headForward), h.forwardMs) > 0.999f);
		ENSURE_NEAR(h.height, 1.8f, 0.05f);
		ENSURE_NEAR(h.pelvisHeight, 0.98f, 0.02f);
		lbDestroySkeleton(s);
	}
}

// Renames the mannequin's bones into another convention; bones with no name there keep a neutral one.
typedef struct Convention
{
	const char* label;
	const char* prefix;
	const char* names[27][2]; // mannequin name -> convention name ("%s" gets the side word)
} Convention;

static lbSkeleton* renamed(const lbSkeleton* base, const char* const* newNames)
{
	lbSkeletonDef def = lbDefaultSkeletonDef();
	def.boneCount = base->boneCount;
	def.names = newNames;
	def.parents = base->parents;
	def.restLocal = base->restLocal;
	return lbCreateSkeleton(&def, NULL);
}

static void test_naming_conventions(void)
{
	lbSkeleton* base = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid ref;
	ENSURE(base && lbMapHumanoid(base, NULL, &ref) == lb_ok);
	if (!base)
		return;
	// Per convention: root, pelvis, spine x3, neck, head, then per-side parts with {L}/{R} spelled
	// as the convention does.
	typedef struct
	{
		const char* label;
		const char* central[7];
		const char* sidePattern; // printf pattern with %s side and %s part
		const char* leftWord;
		const char* rightWord;
		const char* parts[8]; // clavicle, upperarm, lowerarm, twist2, twist1, hand, thigh..ball handled below
		const char* legs[4];
		bool sideFirst;
	} Conv;
	static const Conv convs[] = {
		{ "mixamo-prefixed", { "Armature", "mixamorig:Hips", "mixamorig:Spine", "mixamorig:Spine1", "mixamorig:Spine2", "mixamorig:Neck", "mixamorig:Head" },
		  "mixamorig:%s%s", "Left", "Right", { "Shoulder", "Arm", "ForeArm", "ForeArmRollA", "ForeArmRollB", "Hand" }, { "UpLeg", "Leg", "Foot", "ToeBase" }, true },
		{ "mixamo-bare", { "Armature", "Hips", "Spine", "Spine1", "Spine2", "Neck", "Head" },
		  "%s%s", "Left", "Right", { "Shoulder", "Arm", "ForeArm", "ForeArmRollA", "ForeArmRollB", "Hand" }, { "UpLeg", "Leg", "Foot", "ToeBase" }, true },
		{ "cmu-bvh", { "Reference", "Hips", "LowerBack", "Spine", "Spine1", "Neck", "Head" },
		  "%s%s", "Left", "Right", { "Shoulder", "Arm", "ForeArm", "ForeArmRollA", "ForeArmRollB", "Hand" }, { "UpLeg", "Leg", "Foot", "ToeBase" }, true },
		{ "biped", { "Bip01", "Bip01 Pelvis", "Bip01 Spine", "Bip01 Spine1", "Bip01 Spine2", "Bip01 Neck", "Bip01 Head" },
		  "Bip01 %s %s", "L", "R", { "Clavicle", "UpperArm", "Forearm", "ForeTwist", "ForeTwist1", "Hand" }, { "Thigh", "Calf", "Foot", "Toe0" }, true },
		{ "rigify", { "root", "hips", "spine", "spine.001", "chest", "neck", "head" },
		  "%s.%s", "L", "R", { "shoulder", "upper_arm", "forearm", "forearm_twist", "forearm_twist.001", "hand" }, { "thigh", "shin", "foot", "toe" }, false },
		{ "rigify-def", { "root", "DEF-hips", "DEF-spine", "DEF-spine.001", "DEF-chest", "DEF-neck", "DEF-head" },
		  "DEF-%s.%s", "L", "R", { "shoulder", "upper_arm", "forearm", "forearm_twist", "forearm_twist.001", "hand" }, { "thigh", "shin", "foot", "toe" }, false },
		// Bones named after the joint they start at (motion-capture exports such as the Boxing_Toes
		// BVH): "Shoulder" under "Collar" is the upper arm, "Hip" the thigh, "Elbow" the forearm.
		{ "joint-names", { "Reference", "Hips", "Ab", "Chest", "Chest2", "Neck", "Head" },
		  "%s%s", "Left", "Right", { "Collar", "Shoulder", "Elbow", "ElbowRollA", "ElbowRollB", "Wrist" }, { "Hip", "Knee", "Ankle", "Toes" }, true },
	};
	static const char* const ueCentral[7] = { "root", "pelvis", "spine_01", "spine_02", "spine_03", "neck_01", "head" };
	static const char* const ueArm[6] = { "clavicle", "upperarm", "lowerarm", "lowerarm_twist_02", "lowerarm_twist_01", "hand" };
	static const char* const ueLeg[4] = { "thigh", "calf", "foot", "ball" };
	for (size_t c = 0; c < sizeof convs / sizeof convs[0]; ++c)
	{
		const Conv* cv = &convs[c];
		char buf[27][LB_MAX_NAME];
		const char* names[27];
		for (int i = 0; i < base->boneCount; ++i)
		{
			const char* ue = base->names[i];
			snprintf(buf[i], LB_MAX_NAME, "unmapped_%d", i);
			for (int k = 0; k < 7; ++k)
				if (strcmp(ue, ueCentral[k]) == 0)
					snprintf(buf[i], LB_MAX_NAME, "%s", cv->central[k]);
			for (int side = 0; side < 2; ++side)
			{
				const char* word = side ? cv->rightWord : cv->leftWord;
				char ueName[LB_MAX_NAME];
				for (int k = 0; k < 10; ++k)
				{
					const char* uePart = k < 6 ? ueArm[k] : ueLeg[k - 6];
					const char* part = k < 6 ? cv->parts[k] : cv->legs[k - 6];
					snprintf(ueName, sizeof ueName, "%s_%c", uePart, side ? 'r' : 'l');
					if (strcmp(ue, ueName) != 0)
						continue;
					if (cv->sideFirst)
						snprintf(buf[i], LB_MAX_NAME, cv->sidePattern, word, part);
					else
						snprintf(buf[i], LB_MAX_NAME, cv->sidePattern, part, word);
				}
			}
			names[i] = buf[i];
		}
		lbSkeleton* s = renamed(base, names);
		lbHumanoid h;
		lbResult r = s ? lbMapHumanoid(s, NULL, &h) : lb_errorInvalidArgument;
		if (r != lb_ok)
			printf("  convention %s failed: %s\n", cv->label, lbResultString(r));
		ENSURE(r == lb_ok);
		for (int role = 0; role < lb_roleCount && r == lb_ok; ++role)
		{
			bool twist = (role >= lb_roleTwist1L && role <= lb_roleTwist3L) || (role >= lb_roleTwist1R && role <= lb_roleTwist3R);
			bool hasTwist = strstr(cv->parts[3], "wist") != NULL;
			if (twist && !hasTwist)
			{
				ENSURE(lbHumanoid_GetRoleBone(&h, (lbRole)role) == LB_NULL_INDEX);
				continue;
			}
			int got = lbHumanoid_GetRoleBone(&h, (lbRole)role), want = lbHumanoid_GetRoleBone(&ref, (lbRole)role);
			if (got != want)
				printf("  convention %s: role %s got %d want %d\n", cv->label, lbRoleName((lbRole)role), got, want);
			ENSURE(got == want);
		}
		lbDestroySkeleton(s);
	}
	lbDestroySkeleton(base);
}

static void test_guess_role(void)
{
	struct
	{
		const char* name;
		lbRole role;
	} cases[] = {
		{ "mixamorig:LeftUpLeg", lb_roleThighL }, { "LeftUpLeg", lb_roleThighL },   { "RightLeg", lb_roleCalfR },
		{ "LeftToeBase", lb_roleBallL },        { "Bip01 R Calf", lb_roleCalfR },  { "Bip01 L Toe0", lb_roleBallL },
		{ "thigh.L", lb_roleThighL },           { "shin.R", lb_roleCalfR },         { "upper_arm.L", lb_roleUpperArmL },
		{ "DEF-forearm.L", lb_roleForeArmL },   { "lowerarm_twist_01_l", lb_roleTwist1L }, { "Hips", lb_rolePelvis },
		{ "pelvis", lb_rolePelvis },            { "Head", lb_roleHead },            { "neck_01", lb_roleNeck },
		{ "RightShoulder", lb_roleClavicleR },  { "clavicle_r", lb_roleClavicleR }, { "foot_l", lb_roleFootL },
		{ "LHipJoint", lb_roleCount },          { "RightHandIndex1", lb_roleCount }, { "HeadTop_End", lb_roleCount },
		{ "LThumb", lb_roleCount },             { "LeftToe_End", lb_roleCount },    { "", lb_roleCount },
		{ "LeftHip", lb_roleThighL },           { "RightElbow", lb_roleForeArmR },  { "RightWrist", lb_roleHandR },
		{ "LeftKnee", lb_roleCalfL },           { "RightAnkle", lb_roleFootR },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i)
	{
		lbRole got = lbGuessRole(cases[i].name);
		if (got != cases[i].role)
			printf("  '%s' -> %s, want %s\n", cases[i].name, lbRoleName(got), lbRoleName(cases[i].role));
		ENSURE(got == cases[i].role);
	}
	ENSURE(lbGuessRole(NULL) == lb_roleCount);
	ENSURE(strcmp(lbRoleName(lb_roleThighL), "thigh_l") == 0 && strcmp(lbRoleName((lbRole)-1), "unknown") == 0);
}

static void test_missing_and_explicit_roles(void)
{
	lbSetLogFcn(captureLog, NULL);
	lbSkeleton* base = lbCreateReferenceRig(lb_rigMannequin);
	if (!base)
	{
		ENSURE(false);
		return;
	}
	const char* names[27];
	char buf[27][LB_MAX_NAME];
	for (int i = 0; i < base->boneCount; ++i)
	{
		snprintf(buf[i], LB_MAX_NAME, "%s", base->names[i]);
		if (strcmp(base->names[i], "calf_l") == 0)
			snprintf(buf[i], LB_MAX_NAME, "knee_joint_thing_left");
		if (strcmp(base->names[i], "hand_r") == 0)
			snprintf(buf[i], LB_MAX_NAME, "paw_r");
		names[i] = buf[i];
	}
	lbSkeleton* s = renamed(base, names);
	lbHumanoid h;
	// Missing roles are reported by name: both of them.
	ENSURE(lbMapHumanoid(s, NULL, &h) == lb_errorMissingRole);
	ENSURE(g_code == lb_errorMissingRole);
	ENSURE(strstr(g_message, "calf_l") != NULL && strstr(g_message, "hand_r") != NULL);
	// Given explicitly, they map, and the result equals the reference map.
	lbHumanoidDef def = lbDefaultHumanoidDef();
	def.roleNames[lb_roleCalfL] = "knee_joint_thing_left";
	def.roleNames[lb_roleHandR] = "paw_r";
	lbHumanoid ref;
	ENSURE(lbMapHumanoid(s, &def, &h) == lb_ok);
	ENSURE(lbMapHumanoid(base, NULL, &ref) == lb_ok);
	ENSURE(h.leg[0].calf == ref.leg[0].calf && h.arm[1].hand == ref.arm[1].hand);
	ENSURE_VEC3_NEAR(h.legAxes[0].kneeBendCalf, ref.legAxes[0].kneeBendCalf, 1e-6f);
	// An explicit name that does not exist is its own error, naming the bone.
	def.roleNames[lb_roleHead] = "no_such_bone";
	ENSURE(lbMapHumanoid(s, &def, &h) == lb_errorBoneNotFound);
	ENSURE(strstr(g_message, "no_such_bone") != NULL);
	// An uninitialised def and NULL arguments are refused.
	lbHumanoidDef raw;
	memset(&raw, 0, sizeof raw);
	ENSURE(lbMapHumanoid(base, &raw, &h) == lb_errorDefNotInitialized);
	ENSURE(lbMapHumanoid(NULL, NULL, &h) == lb_errorNullPointer);
	ENSURE(lbMapHumanoid(base, NULL, NULL) == lb_errorNullPointer);
	// An explicit ankle height overrides the measured one.
	lbHumanoidDef ank = lbDefaultHumanoidDef();
	ank.ankleHeight = 0.12f;
	ENSURE(lbMapHumanoid(base, &ank, &h) == lb_ok && lbAbsF(h.legAxes[1].ankleHeight - 0.12f) < 1e-6f);
	lbDestroySkeleton(s);
	lbDestroySkeleton(base);
	lbSetLogFcn(NULL, NULL);
}

static void test_degenerate_limb(void)
{
	lbSetLogFcn(captureLog, NULL);
	// A rig whose left calf has zero length (knee on the ankle) is refused with a clear code.
	lbSkeleton* base = lbCreateReferenceRig(lb_rigMixamo);
	int foot = lbSkeleton_FindBone(base, "mixamorig:LeftFoot");
	lbTransform rest[22];
	memcpy(rest, base->restLocal, sizeof(lbTransform) * 22);
	rest[foot].p = lbVec3_zero;
	lbSkeletonDef def = lbDefaultSkeletonDef();
	def.boneCount = base->boneCount;
	def.names = base->names;
	def.parents = base->parents;
	def.restLocal = rest;
	lbSkeleton* s = lbCreateSkeleton(&def, NULL);
	lbHumanoid h;
	ENSURE(s && lbMapHumanoid(s, NULL, &h) == lb_errorDegenerate);
	ENSURE(strstr(g_message, "left") != NULL);
	lbDestroySkeleton(s);
	lbDestroySkeleton(base);
	lbSetLogFcn(NULL, NULL);
}

// The shared sole: on both rigs at rest every sole point lies on the floor under the rest soles
// (the model origin's height for these rigs), the heel behind the ankle and the toe tip ahead,
// along the character's forward, in the order heel, under the ankle, ball, toe tip.
static void test_sole_points_at_rest(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		ENSURE(s && lbMapHumanoid(s, NULL, &h) == lb_ok);
		if (!s)
			continue;
		for (int side = 0; side < 2; ++side)
		{
			lbSole sole = lbHumanoid_GetSole(&h, side);
			lbTransform foot = s->restModel[h.leg[side].foot];
			float prev = -1.0e9f;
			for (int k = 0; k < lb_solePointCount; ++k)
			{
				lbVec3 p = lbSole_PointMs(&sole, foot, (lbSolePoint)k);
				// The floor sits ankleHeight under the ankle.
				ENSURE_NEAR(lbDot(lbSub(p, foot.p), h.upMs), -h.legAxes[side].ankleHeight, 1.0e-4);
				float ahead = lbDot(lbSub(p, foot.p), h.forwardMs);
				ENSURE(ahead > prev);
				prev = ahead;
			}
			// In a pose the toe tip rides on the ball bone: at rest where the foot frame puts it,
			// and bent up with the toes.
			lbPose pose = lbCreatePose(s);
			lbPose_SetRest(&pose, s);
			lbVec3 pts[lb_solePointCount];
			lbHumanoid_GetSolePointsMs(&h, &pose, side, pts);
			for (int k = 0; k < lb_solePointCount; ++k)
				ENSURE_VEC3_NEAR(pts[k], lbSole_PointMs(&sole, foot, (lbSolePoint)k), 1.0e-5f);
			int ball = h.leg[side].ball;
			lbQuat bend = lbQuatFromAxisAngle(h.leftMs, -0.5f); // toes up
			lbPose_SetBoneModelRotation(&pose, s, ball, lbQuatMul(bend, pose.model[ball].q), true);
			lbHumanoid_GetSolePointsMs(&h, &pose, side, pts);
			lbVec3 tipRel = lbSub(pts[lb_soleToeTip], pose.model[ball].p);
			lbVec3 restRel = lbSub(lbSole_PointMs(&sole, foot, lb_soleToeTip), pose.model[ball].p);
			ENSURE_VEC3_NEAR(tipRel, lbQuatRotate(bend, restRel), 1.0e-4f);
			ENSURE(lbDot(tipRel, h.upMs) > lbDot(restRel, h.upMs) + 0.01f);
			lbDestroyPose(&pose);
			// Heel to toe tip: an adult foot, 1.7 ankle-to-ball lengths.
			float len = lbDistance(lbSole_PointMs(&sole, foot, lb_soleHeel), lbSole_PointMs(&sole, foot, lb_soleToeTip));
			ENSURE_NEAR(len, 1.7f * h.legAxes[side].footLength, 1.0e-4);
			ENSURE(len > 0.18f && len < 0.32f);
		}
		// No ball bone: a foot length from the leg.
		lbHumanoid noBall = h;
		noBall.legAxes[0].footLength = 0.0f;
		lbSole sole = lbHumanoid_GetSole(&noBall, 0);
		ENSURE_NEAR(sole.along[lb_soleBall], 0.15f * (h.legAxes[0].thighLength + h.legAxes[0].calfLength), 1.0e-5);
		lbSole bad = lbHumanoid_GetSole(&h, 2);
		ENSURE(bad.along[lb_soleToeTip] == 0.0f && lbHumanoid_GetSole(NULL, 0).along[lb_soleBall] == 0.0f);
		lbDestroySkeleton(s);
	}
}

// Reference rig `rig` and its map in *out; NULL, a check failed, when either cannot be made.
static lbSkeleton* referenceMapped(int rig, lbHumanoid* out)
{
	lbSkeleton* ref = lbCreateReferenceRig((lbReferenceRig)rig);
	const bool mapped = ref && lbMapHumanoid(ref, NULL, out) == lb_ok;
	ENSURE(mapped);
	if (ref && !mapped)
	{
		lbDestroySkeleton(ref);
		return NULL;
	}
	return ref;
}

// lbMapHumanoid with the log hook capturing into *log (cleared first), and put back after.
static lbResult mapLogged(const lbSkeleton* s, const lbHumanoidDef* def, lbHumanoid* out, LogCapture* log)
{
	memset(log, 0, sizeof *log);
	lbSetLogFcn(CaptureLog, log);
	const lbResult r = lbMapHumanoid(s, def, out);
	lbSetLogFcn(NULL, NULL);
	return r;
}

// A skeleton of n bones from its names, parents, rest local transforms and ends.
static lbSkeleton* skeletonOf(int n, const char* const* names, const int* parents, const lbTransform* rest, const lbVec3* ends)
{
	lbSkeletonDef def = lbDefaultSkeletonDef();
	def.boneCount = n;
	def.names = names;
	def.parents = parents;
	def.restLocal = rest;
	def.ends = ends;
	return lbCreateSkeleton(&def, NULL);
}

// The base rig again with extra bones appended (names, parents, model-space rest positions; no
// turn in model space) and optional ends per bone (NULL: none).
static lbSkeleton* withBones(const lbSkeleton* base, int extra, const char* const* names, const int* parents,
							 const lbVec3* restMs, const lbVec3* ends)
{
	const int n = base->boneCount + extra;
	const char* allNames[64];
	int allParents[64];
	lbTransform rest[64], model[64];
	lbVec3 allEnds[64];
	for (int b = 0; b < n; ++b)
	{
		const bool old = b < base->boneCount;
		allNames[b] = old ? base->names[b] : names[b - base->boneCount];
		allParents[b] = old ? base->parents[b] : parents[b - base->boneCount];
		model[b] = old ? base->restModel[b] : lbMakeTransform(restMs[b - base->boneCount], lbQuat_identity);
		rest[b] = old ? base->restLocal[b] : lbTransformRelative(model[allParents[b]], model[b]);
		allEnds[b] = ends ? ends[b] : lbVec3_zero;
	}
	return skeletonOf(n, allNames, allParents, rest, allEnds);
}

// Where the toe end `along` ankle-to-ball lengths ahead on the sole, `lift` above it and `aside`
// to the character's left lies, in model space.
static lbVec3 toeEndMs(const lbHumanoid* h, const lbSkeleton* s, int side, float along, float lift, float aside)
{
	const lbSole sole = lbHumanoid_GetSole(h, side);
	const lbTransform foot = s->restModel[h->leg[side].foot];
	const lbVec3 under = lbSole_PointMs(&sole, foot, lb_soleUnderAnkle);
	const lbVec3 toe = lbQuatRotate(foot.q, sole.toeFlat);
	return lbAdd(lbMulAdd(under, along * h->legAxes[side].footLength, toe), lbAdd(lbMulSV(lift, h->upMs), lbMulSV(aside, h->leftMs)));
}

// A rig that says where its toes end: the toe tip is that end projected on the sole line, at rest
// and with the toes bent (the ball bone carries it), and nothing else of the map changes. Without
// an end (both reference rigs as built, or ends all zero) the map is what it was, byte for byte, the
// tip 1.4 ankle-to-ball lengths ahead. An end outside 1.05-2.0 lengths is clamped with a warning.
static void test_toe_end_sets_toe_tip(void)
{
	LogCapture log;
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbHumanoid h0;
		lbSkeleton* ref = referenceMapped(rig, &h0);
		if (!ref)
			continue;
		for (int side = 0; side < 2; ++side)
		{
			ENSURE(h0.legAxes[side].toeTipLength == 0.0f);
			ENSURE(lbHumanoid_GetSole(&h0, side).along[lb_soleToeTip] == 1.4f * h0.legAxes[side].footLength);
		}
		// The rig made again from its rest pose (its rotations normalised once more) is what the
		// skeletons with ends, made the same way, are compared with.
		lbSkeleton* s = withBones(ref, 0, NULL, NULL, NULL, NULL);
		ENSURE(s && lbMapHumanoid(s, NULL, &h0) == lb_ok);
		if (!s)
		{
			lbDestroySkeleton(ref);
			continue;
		}
		const int n = s->boneCount;
		// Ends all zero: the same skeleton and the same map.
		lbVec3 ends[64];
		for (int b = 0; b < n; ++b)
			ends[b] = lbVec3_zero;
		lbSkeleton* zero = withBones(ref, 0, NULL, NULL, NULL, ends);
		lbHumanoid hz;
		ENSURE(zero && zero->ends == NULL && lbMapHumanoid(zero, NULL, &hz) == lb_ok);
		ENSURE(memcmp(&hz, &h0, sizeof hz) == 0);
		lbDestroySkeleton(zero);

		// Toe ends 1.6 (left) and 1.2 (right) lengths ahead, 2 cm above the sole and 5 mm aside.
		const float along[2] = { 1.6f, 1.2f };
		for (int side = 0; side < 2; ++side)
		{
			const int ball = h0.leg[side].ball;
			ends[ball] = lbInvTransformPoint(s->restModel[ball], toeEndMs(&h0, s, side, along[side], 0.02f, 0.005f));
		}
		lbSkeleton* e = withBones(ref, 0, NULL, NULL, NULL, ends);
		lbHumanoid h;
		ENSURE(e && lbMapHumanoid(e, NULL, &h) == lb_ok);
		if (!e)
		{
			lbDestroySkeleton(s);
			lbDestroySkeleton(ref);
			continue;
		}
		lbPose pose = lbCreatePose(e);
		for (int side = 0; side < 2; ++side)
		{
			const lbLegAxes* x = &h.legAxes[side];
			const int ball = h.leg[side].ball;
			ENSURE_NEAR(x->toeTipLength, along[side] * x->footLength, 1.0e-4f);
			const lbSole sole = lbHumanoid_GetSole(&h, side);
			ENSURE(sole.along[lb_soleToeTip] == x->toeTipLength);
			const lbTransform foot = e->restModel[h.leg[side].foot];
			const lbVec3 toeMs = lbQuatRotate(foot.q, sole.toeFlat);
			lbVec3 end;
			ENSURE(lbSkeleton_GetBoneEnd(e, ball, &end));
			// At rest: on the sole, level with the end along the toes.
			lbPose_SetRest(&pose, e);
			lbVec3 pts[lb_solePointCount];
			lbHumanoid_GetSolePointsMs(&h, &pose, side, pts);
			ENSURE_VEC3_NEAR(pts[lb_soleToeTip], lbSole_PointMs(&sole, foot, lb_soleToeTip), 1.0e-5f);
			ENSURE_NEAR(lbDot(lbSub(pts[lb_soleToeTip], end), toeMs), 0.0f, 1.0e-3f);
			ENSURE_NEAR(lbDot(lbSub(pts[lb_soleToeTip], foot.p), h.upMs), -x->ankleHeight, 1.0e-4f);
			// Toes bent up and down at the ball: the tip stays level with the end the ball carries.
			const float bends[2] = { -0.5f, 0.35f };
			for (int k = 0; k < 2; ++k)
			{
				lbPose_SetRest(&pose, e);
				const lbQuat bend = lbQuatFromAxisAngle(h.leftMs, bends[k]);
				lbPose_SetBoneModelRotation(&pose, e, ball, lbQuatMul(bend, pose.model[ball].q), true);
				lbHumanoid_GetSolePointsMs(&h, &pose, side, pts);
				const lbVec3 endPosed = lbTransformPoint(pose.model[ball], e->ends[ball]);
				ENSURE_NEAR(lbDot(lbSub(pts[lb_soleToeTip], endPosed), lbQuatRotate(bend, toeMs)), 0.0f, 1.0e-3f);
				ENSURE(lbDistance(endPosed, end) > 0.01f);
			}
			// Everything else as without the end.
			ENSURE(x->footLength == h0.legAxes[side].footLength && x->ankleHeight == h0.legAxes[side].ankleHeight);
		}
		lbHumanoid same = h;
		for (int side = 0; side < 2; ++side)
		{
			same.legAxes[side].toeTipLength = 0.0f;
			same.legAxes[side].toeTipBall = h0.legAxes[side].toeTipBall;
		}
		same.skeletonFingerprint = h0.skeletonFingerprint;
		ENSURE(memcmp(&same, &h0, sizeof same) == 0);
		lbDestroyPose(&pose);
		lbDestroySkeleton(e);

		// Absurd ends are clamped, with a warning naming the side: 10 lengths ahead, behind the
		// heel, and 1e30 m off (finite, the sum overflows).
		const float far[3] = { 10.0f, -1.0f, 1.0e30f };
		const float kept[3] = { 2.0f, 1.05f, 2.0f };
		for (int k = 0; k < 3; ++k)
		{
			const int ball = h0.leg[0].ball;
			for (int b = 0; b < n; ++b)
				ends[b] = lbVec3_zero;
			ends[ball] = k < 2 ? lbInvTransformPoint(s->restModel[ball], toeEndMs(&h0, s, 0, far[k], 0.0f, 0.0f))
							   : lbMulSV(far[k], lbInvTransformDirection(s->restModel[ball], h0.forwardMs));
			lbSkeleton* bad = withBones(ref, 0, NULL, NULL, NULL, ends);
			ENSURE(bad && mapLogged(bad, NULL, &h, &log) == lb_ok);
			ENSURE_NEAR(h.legAxes[0].toeTipLength, kept[k] * h.legAxes[0].footLength, 1.0e-6f);
			ENSURE(h.legAxes[1].toeTipLength == 0.0f);
			ENSURE(log.count == 1 && strstr(log.message, "left toe end") != NULL && strstr(log.message, "1.05-2.0") != NULL);
			lbVec3 pts[lb_solePointCount];
			lbPose rest = lbCreatePose(bad);
			lbHumanoid_GetSolePointsMs(&h, &rest, 0, pts);
			ENSURE(lbIsValidVec3(pts[lb_soleToeTip]));
			lbDestroyPose(&rest);
			lbDestroySkeleton(bad);
		}
		lbDestroySkeleton(s);
		lbDestroySkeleton(ref);
	}
}

// The def's toeTipLength takes the place of a toe end (kept within 1.05-2.0 ankle-to-ball lengths,
// with a warning past them), on both reference rigs and over a skeleton whose ends say otherwise;
// a def whose toeTipLength or ankleHeight is not finite is refused and the map is left as it was.
static void test_toe_tip_length_from_the_def(void)
{
	LogCapture log;
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbHumanoid h0;
		lbSkeleton* ref = referenceMapped(rig, &h0);
		if (!ref)
			continue;
		const float len = h0.legAxes[0].footLength;
		// Within the range, at its ends, and past them (clamped, one warning a side).
		const float asked[4] = { 1.2f * len, 1.9f * len, 0.5f * len, 3.0f * len };
		const float kept[4] = { 1.2f * len, 1.9f * len, 1.05f * len, 2.0f * len };
		for (int k = 0; k < 4; ++k)
		{
			lbHumanoidDef def = lbDefaultHumanoidDef();
			def.toeTipLength = asked[k];
			lbHumanoid h;
			ENSURE(mapLogged(ref, &def, &h, &log) == lb_ok);
			ENSURE(log.count == (k < 2 ? 0 : 2));
			lbPose pose = lbCreatePose(ref);
			for (int side = 0; side < 2; ++side)
			{
				ENSURE_NEAR(h.legAxes[side].toeTipLength, kept[k], 1.0e-6f);
				const lbSole sole = lbHumanoid_GetSole(&h, side);
				ENSURE(sole.along[lb_soleToeTip] == h.legAxes[side].toeTipLength);
				// At rest the tip the toes carry lies that far along the sole from under the ankle.
				lbVec3 pts[lb_solePointCount];
				lbHumanoid_GetSolePointsMs(&h, &pose, side, pts);
				ENSURE_NEAR(lbDistance(pts[lb_soleToeTip], pts[lb_soleUnderAnkle]), kept[k], 1.0e-4f);
				// Nothing else moves.
				ENSURE(h.legAxes[side].footLength == h0.legAxes[side].footLength &&
					   h.legAxes[side].ankleHeight == h0.legAxes[side].ankleHeight);
			}
			lbDestroyPose(&pose);
		}
		// Over a toe end the skeleton records, the def wins.
		lbSkeleton* s = withBones(ref, 0, NULL, NULL, NULL, NULL);
		lbVec3 ends[64];
		for (int b = 0; s && b < s->boneCount; ++b)
			ends[b] = lbVec3_zero;
		for (int side = 0; s && side < 2; ++side)
			ends[h0.leg[side].ball] = lbInvTransformPoint(s->restModel[h0.leg[side].ball], toeEndMs(&h0, s, side, 1.7f, 0.0f, 0.0f));
		lbSkeleton* e = s ? withBones(ref, 0, NULL, NULL, NULL, ends) : NULL;
		lbHumanoidDef def = lbDefaultHumanoidDef();
		def.toeTipLength = 1.3f * len;
		lbHumanoid h;
		ENSURE(e && lbMapHumanoid(e, &def, &h) == lb_ok);
		if (e)
			ENSURE_NEAR(h.legAxes[0].toeTipLength, 1.3f * len, 1.0e-6f);
		// Not finite: refused, the map untouched.
		const float bad[3] = { NAN, INFINITY, -INFINITY };
		for (int k = 0; k < 3; ++k)
		{
			for (int field = 0; field < 2; ++field)
			{
				lbHumanoidDef d = lbDefaultHumanoidDef();
				if (field == 0)
					d.toeTipLength = bad[k];
				else
					d.ankleHeight = bad[k];
				lbHumanoid kept0 = h0;
				ENSURE(mapLogged(ref, &d, &kept0, &log) == lb_errorInvalidArgument);
				ENSURE(log.count == 1 && strstr(log.message, "must be finite") != NULL);
				ENSURE(memcmp(&kept0, &h0, sizeof h0) == 0);
			}
		}
		lbDestroySkeleton(e);
		lbDestroySkeleton(s);
		lbDestroySkeleton(ref);
	}
}

// The base rig with its ball bones renamed out of reach of the name patterns (a rig without toe
// bones: the feet end the legs) and optional ends per bone (NULL: none).
static lbSkeleton* withoutBalls(const lbSkeleton* base, const lbHumanoid* h, const lbVec3* ends)
{
	const char* names[64];
	int parents[64];
	lbVec3 allEnds[64];
	for (int b = 0; b < base->boneCount; ++b)
	{
		names[b] = b == h->leg[0].ball ? "spur_l" : b == h->leg[1].ball ? "spur_r" : base->names[b];
		parents[b] = base->parents[b];
		allEnds[b] = ends ? ends[b] : lbVec3_zero;
	}
	return skeletonOf(base->boneCount, names, parents, base->restLocal, allEnds);
}

// A rig without toe bones: its foot bone's end (a BVH foot's End Site) or the def's toeTipLength
// sets the toe tip, measured against the stand-in ankle-to-ball length (0.15 of the leg) and kept
// within 1.05-2.0 of it with a warning; the tip turns with the foot. Without either, 1.4 lengths.
static void test_toe_tip_without_ball_bones(void)
{
	LogCapture log;
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbHumanoid h0;
		lbSkeleton* ref = referenceMapped(rig, &h0);
		if (!ref)
			continue;
		lbSkeleton* bare = withoutBalls(ref, &h0, NULL);
		lbHumanoid hb;
		ENSURE(bare && lbMapHumanoid(bare, NULL, &hb) == lb_ok);
		if (!bare)
		{
			lbDestroySkeleton(ref);
			continue;
		}
		const float len = 0.15f * (hb.legAxes[0].thighLength + hb.legAxes[0].calfLength);
		for (int side = 0; side < 2; ++side)
		{
			ENSURE(hb.leg[side].ball == LB_NULL_INDEX && hb.legAxes[side].footLength == 0.0f);
			ENSURE(hb.legAxes[side].toeTipLength == 0.0f);
			ENSURE_NEAR(lbHumanoid_GetSole(&hb, side).along[lb_soleToeTip], 1.4f * len, 1.0e-6f);
		}
		// Foot ends 1.3 (left) and 1.75 (right) stand-in lengths ahead on the sole, 3 cm above it.
		const float along[2] = { 1.3f, 1.75f };
		lbVec3 ends[64];
		for (int b = 0; b < bare->boneCount; ++b)
			ends[b] = lbVec3_zero;
		for (int side = 0; side < 2; ++side)
		{
			const lbSole sole = lbHumanoid_GetSole(&hb, side);
			const lbTransform foot = bare->restModel[hb.leg[side].foot];
			const lbVec3 at = lbMulAdd(lbMulAdd(lbSole_PointMs(&sole, foot, lb_soleUnderAnkle), along[side] * len,
												 lbQuatRotate(foot.q, sole.toeFlat)),
									   0.03f, hb.upMs);
			ends[hb.leg[side].foot] = lbInvTransformPoint(foot, at);
		}
		lbSkeleton* e = withoutBalls(ref, &h0, ends);
		lbHumanoid h;
		ENSURE(e && mapLogged(e, NULL, &h, &log) == lb_ok);
		ENSURE(log.count == 0);
		if (e)
		{
			lbPose pose = lbCreatePose(e);
			for (int side = 0; side < 2; ++side)
			{
				ENSURE_NEAR(h.legAxes[side].toeTipLength, along[side] * len, 1.0e-4f);
				const lbSole sole = lbHumanoid_GetSole(&h, side);
				ENSURE(sole.along[lb_soleToeTip] == h.legAxes[side].toeTipLength);
				// At rest the tip lies on the sole under the end; with the foot pitched 30 degrees
				// toes down it stays that far from the point under the ankle, turned with the foot.
				lbVec3 pts[lb_solePointCount];
				lbPose_SetRest(&pose, e);
				lbHumanoid_GetSolePointsMs(&h, &pose, side, pts);
				lbVec3 end;
				ENSURE(lbSkeleton_GetBoneEnd(e, h.leg[side].foot, &end));
				ENSURE_NEAR(lbDot(lbSub(end, pts[lb_soleToeTip]), h.upMs), 0.03f, 1.0e-4f);
				ENSURE_NEAR(lbDistance(pts[lb_soleToeTip], pts[lb_soleUnderAnkle]), along[side] * len, 1.0e-4f);
				const int foot = h.leg[side].foot;
				const lbQuat pitch = lbQuatFromAxisAngle(h.leftMs, 30.0f * LB_DEG2RAD);
				lbPose_SetBoneModelRotation(&pose, e, foot, lbQuatMul(pitch, pose.model[foot].q), true);
				lbVec3 bent[lb_solePointCount];
				lbHumanoid_GetSolePointsMs(&h, &pose, side, bent);
				ENSURE_NEAR(lbDistance(bent[lb_soleToeTip], bent[lb_soleUnderAnkle]), along[side] * len, 1.0e-4f);
				ENSURE(lbDistance(bent[lb_soleToeTip], pts[lb_soleToeTip]) > 0.02f);
				ENSURE(h.legAxes[side].ankleHeight == hb.legAxes[side].ankleHeight);
			}
			lbDestroyPose(&pose);
		}
		// The def's length wins over the end; past the range it is clamped with a warning a side.
		const float asked[2] = { 1.6f * len, 2.5f * len }, kept[2] = { 1.6f * len, 2.0f * len };
		for (int k = 0; e && k < 2; ++k)
		{
			lbHumanoidDef def = lbDefaultHumanoidDef();
			def.toeTipLength = asked[k];
			ENSURE(mapLogged(e, &def, &h, &log) == lb_ok);
			ENSURE(log.count == (k == 0 ? 0 : 2));
			for (int side = 0; side < 2; ++side)
				ENSURE_NEAR(h.legAxes[side].toeTipLength, kept[k], 1.0e-5f);
		}
		// An end behind the heel: kept 1.05 lengths ahead, with a warning naming the foot's end.
		for (int b = 0; b < bare->boneCount; ++b)
			ends[b] = lbVec3_zero;
		const lbTransform foot0 = bare->restModel[hb.leg[0].foot];
		ends[hb.leg[0].foot] = lbInvTransformPoint(foot0, lbMulAdd(foot0.p, -0.2f, hb.forwardMs));
		lbSkeleton* back = withoutBalls(ref, &h0, ends);
		ENSURE(back && mapLogged(back, NULL, &h, &log) == lb_ok);
		if (back)
		{
			ENSURE_NEAR(h.legAxes[0].toeTipLength, 1.05f * len, 1.0e-5f);
			ENSURE(h.legAxes[1].toeTipLength == 0.0f);
			ENSURE(log.count == 1 && strstr(log.message, "left toe end") != NULL && strstr(log.message, back->names[hb.leg[0].foot]) != NULL);
		}
		lbDestroySkeleton(back);
		lbDestroySkeleton(e);
		lbDestroySkeleton(bare);
		lbDestroySkeleton(ref);
	}
}

// A toe end kept as a bone (an end node a clip animates, such as Mixamo's LeftToe_End): the ball's
// only child, itself without children, named as an end. A leaf named otherwise, an "end" with a
// child of its own, or one of two children is no toe end.
static void test_toe_end_bone(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h0;
		ENSURE(s && lbMapHumanoid(s, NULL, &h0) == lb_ok);
		if (!s)
			continue;
		const bool mixamo = rig == lb_rigMixamo;
		const int ball = h0.leg[0].ball, n = s->boneCount;
		const lbVec3 at = toeEndMs(&h0, s, 0, 1.5f, 0.015f, 0.0f), past = toeEndMs(&h0, s, 0, 1.8f, 0.015f, 0.0f);
		const char* end = mixamo ? "mixamorig:LeftToe_End" : "ball_l_end";
		static const struct
		{
			int count;
			const char* names[2];
			int parentIsEnd[2];
			bool found;
		} cases[] = {
			{ 1, { NULL, NULL }, { 0, 0 }, true },            // the end itself
			{ 1, { "toe_pad_l", NULL }, { 0, 0 }, false }, // not named as an end
			{ 2, { NULL, "toe_nail_l" }, { 0, 1 }, false },   // the end has a child
			{ 2, { NULL, "toe_tip_l" }, { 0, 0 }, false },    // two children
		};
		for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c)
		{
			const char* names[2] = { cases[c].names[0] ? cases[c].names[0] : end, cases[c].names[1] };
			int parents[2] = { ball, cases[c].parentIsEnd[1] ? n : ball };
			lbVec3 restMs[2] = { at, past };
			lbSkeleton* e = withBones(s, cases[c].count, names, parents, restMs, NULL);
			lbHumanoid h;
			ENSURE(e && lbMapHumanoid(e, NULL, &h) == lb_ok);
			if (!e)
				continue;
			ENSURE(h.leg[0].ball == ball);
			if (cases[c].found)
				ENSURE_NEAR(h.legAxes[0].toeTipLength, 1.5f * h.legAxes[0].footLength, 1.0e-4f);
			else
				ENSURE(h.legAxes[0].toeTipLength == 0.0f);
			ENSURE(h.legAxes[1].toeTipLength == 0.0f);
			lbDestroySkeleton(e);
		}
		lbDestroySkeleton(s);
	}
}

// Angle in degrees between two directions.
static float angleDeg(lbVec3 a, lbVec3 b)
{
	return acosf(lbClampF(lbDot(lbNormalize(a), lbNormalize(b)), -1.0f, 1.0f)) * LB_RAD2DEG;
}

// The derived palm normals of the two hands are mirror images of each other across the body's
// sagittal plane (normal: the character's left) on both reference rigs, which are built symmetric:
// a check of the derivation per side that does not use how the rigs were built.
static void test_palms_mirror_each_other(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		if (!s || lbMapHumanoid(s, NULL, &h) != lb_ok)
		{
			ENSURE(false);
			lbDestroySkeleton(s);
			continue;
		}
		lbVec3 palm[2], finger[2];
		for (int side = 0; side < 2; ++side)
		{
			palm[side] = modelDir(s, h.arm[side].hand, h.armAxes[side].palm);
			finger[side] = modelDir(s, h.arm[side].hand, h.armAxes[side].finger);
		}
		lbVec3 mirroredPalm = lbSub(palm[0], lbMulSV(2.0f * lbDot(palm[0], h.leftMs), h.leftMs));
		lbVec3 mirroredFinger = lbSub(finger[0], lbMulSV(2.0f * lbDot(finger[0], h.leftMs), h.leftMs));
		printf("    %s: left palm mirrored is %.2f deg from the right palm\n", rig == lb_rigMannequin ? "mannequin" : "mixamo",
			   (double)angleDeg(mirroredPalm, palm[1]));
		ENSURE(angleDeg(mirroredPalm, palm[1]) < 2.0f);
		ENSURE(angleDeg(mirroredFinger, finger[1]) < 2.0f);
		lbDestroySkeleton(s);
	}
}

// Palm normal of an imported hand measured on its skin: the hand and finger vertices (each by the
// bone weighing most on it; the thumb left out, it stands off the palm) form a flat slab whose
// thinnest direction is the palm's normal, up to sign. Power iteration on (trace - covariance)
// finds that direction. Returns the vertex count used.
static int meshPalmAxis(const lbImportedRig* r, const char* const* prefixes, int prefixCount, const char* suffix, lbVec3* outAxis)
{
	double c[3] = { 0, 0, 0 }, m[3][3] = { { 0 } };
	int n = 0;
	for (int pass = 0; pass < 2; ++pass)
	{
		for (int k = 0; k < r->meshCount; ++k)
		{
			const lbSkinnedMesh* me = &r->meshes[k];
			for (int v = 0; v < me->vertexCount; ++v)
			{
				int best = 0;
				for (int j = 1; j < 4; ++j)
					if (me->boneWeights[4 * v + j] > me->boneWeights[4 * v + best])
						best = j;
				const char* name = r->skeleton->names[me->boneIndices[4 * v + best]];
				bool in = false;
				for (int q = 0; q < prefixCount; ++q)
					in = in || (strncmp(name, prefixes[q], strlen(prefixes[q])) == 0 && strstr(name, suffix) != NULL);
				if (!in)
					continue;
				double p[3] = { me->positions[v].x, me->positions[v].y, me->positions[v].z };
				if (pass == 0)
				{
					for (int i = 0; i < 3; ++i)
						c[i] += p[i];
					++n;
				}
				else
				{
					for (int i = 0; i < 3; ++i)
						for (int j = 0; j < 3; ++j)
							m[i][j] += (p[i] - c[i]) * (p[j] - c[j]);
				}
			}
		}
		if (pass == 0 && n > 0)
			for (int i = 0; i < 3; ++i)
				c[i] /= n;
	}
	double tr = m[0][0] + m[1][1] + m[2][2], x[3] = { 0.577, 0.577, 0.577 };
	for (int it = 0; it < 500; ++it)
	{
		double y[3];
		for (int i = 0; i < 3; ++i)
			y[i] = tr * x[i] - (m[i][0] * x[0] + m[i][1] * x[1] + m[i][2] * x[2]);
		double len = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
		if (len <= 0.0)
			break;
		for (int i = 0; i < 3; ++i)
			x[i] = y[i] / len;
	}
	*outAxis = lbMakeVec3((float)x[0], (float)x[1], (float)x[2]);
	return n;
}

// On an imported rig with skinned hands (the Debian-shipped BCN_Epileptic.X, arms hanging, a
// mitten hand of one finger chain and a thumb), the derived palm normal lies along the palm of
// the mesh, measured on its skin, within the climbing limit on the palm (20 degrees) on each
// side. Its thumb bones lie in and forward of the finger bones, the thumb standing off the palm:
// a palm taken across from the thumb would be about 50 degrees off.
static void test_imported_palm_matches_its_mesh(void)
{
	const char* path = "/usr/share/assimp/models/X/BCN_Epileptic.X";
	FILE* file = fopen(path, "rb");
	if (!file)
	{
		printf("    skipped: %s is not installed\n", path);
		return;
	}
	fclose(file);
	const char* map[][2] = { { "pelvis", "B_Root_Pelvis_L" },      { "spine1", "B_Spine1" },
							 { "spine2", "B_Spine2" },             { "spine3", "B_Spine3" },
							 { "spine4", "B_Spine4" },             { "neck", "B_Root_Neck_H" },
							 { "head", "B_Neck" },                 { "clavicle_l", "B_Clavicle_Left" },
							 { "upperarm_l", "B_UpperArm_Left" },  { "forearm_l", "B_ForeArm_Left" },
							 { "hand_l", "B_Hand_Left" },          { "thigh_l", "B_Hip_Left" },
							 { "calf_l", "B_Knee_Left" },          { "foot_l", "B_Ankle_Left" },
							 { "ball_l", "B_Toe_Left" },           { "clavicle_r", "B_Clavicle_Right" },
							 { "upperarm_r", "B_UpperArm_Right" }, { "forearm_r", "B_ForeArm_Right" },
							 { "hand_r", "B_Hand_Right" },         { "thigh_r", "B_Hip_Right" },
							 { "calf_r", "B_Knee_Right" },         { "foot_r", "B_Ankle_Right" },
							 { "ball_r", "B_Toe_Right" } };
	lbImportDef def = lbDefaultImportDef();
	for (size_t k = 0; k < sizeof map / sizeof map[0]; ++k)
		for (int role = 0; role < lb_roleCount; ++role)
			if (strcmp(lbRoleName((lbRole)role), map[k][0]) == 0)
				def.humanoid.roleNames[role] = map[k][1];
	lbImportedRig* r = NULL;
	ENSURE(lbImportRig(path, &def, &r) == lb_ok && r && r->humanoidResult == lb_ok);
	if (!r)
		return;
	const lbSkeleton* s = r->skeleton;
	const lbHumanoid* h = &r->humanoid;
	const char* prefixes[2] = { "B_Hand_", "B_Finger" };
	const char* suffixes[2] = { "_Left", "_Right" };
	for (int side = 0; side < 2; ++side)
	{
		lbVec3 meshAxis;
		int n = meshPalmAxis(r, prefixes, 2, suffixes[side], &meshAxis);
		ENSURE(n > 50);
		lbVec3 palm = modelDir(s, h->arm[side].hand, h->armAxes[side].palm);
		float off = angleDeg(palm, lbDot(palm, meshAxis) < 0.0f ? lbNeg(meshAxis) : meshAxis);
		// Across from the thumb: the thumb's first bone off the finger's, across the finger axis.
		lbVec3 finger = modelDir(s, h->arm[side].hand, h->armAxes[side].finger);
		char thumbName[32], fingerName[32];
		snprintf(thumbName, sizeof thumbName, "B_Thumb1%s", suffixes[side]);
		snprintf(fingerName, sizeof fingerName, "B_Finger1%s", suffixes[side]);
		int thumb = lbSkeleton_FindBone(s, thumbName), finger1 = lbSkeleton_FindBone(s, fingerName);
		ENSURE(thumb != LB_NULL_INDEX && finger1 != LB_NULL_INDEX);
		if (thumb == LB_NULL_INDEX || finger1 == LB_NULL_INDEX)
			continue;
		lbVec3 across = lbNormalize(lbProjectOnPlane(lbSub(s->restModel[thumb].p, s->restModel[finger1].p), finger));
		lbVec3 thumbPalm = side == 0 ? lbCross(finger, across) : lbCross(across, finger);
		float thumbOff = angleDeg(thumbPalm, lbDot(thumbPalm, meshAxis) < 0.0f ? lbNeg(meshAxis) : meshAxis);
		printf("    BCN_Epileptic %s hand: %d skin vertices; derived palm %.1f deg off the skin's, a palm across "
			   "from the thumb %.1f deg off\n",
			   side ? "right" : "left", n, (double)off, (double)thumbOff);
		ENSURE(lbAbsF(lbDot(palm, finger)) < 1.0e-3f);
		ENSURE(off < 20.0f);
		ENSURE(off < thumbOff);
	}
	lbDestroyImportedRig(r);
}

static bool nearRel(float a, float b, float rel)
{
	return fabsf(a - b) <= rel * fmaxf(fabsf(a), fabsf(b)) + 1.0e-7f;
}

static bool nearVec(lbVec3 a, lbVec3 b, float tol)
{
	return lbDistance(a, b) <= tol;
}

// The same rig in centimetres, in inches and a hundredth of its size maps to the same humanoid:
// every length k times the metre rig's, every direction the same. The floor under a root bone was
// found within 0.25 rig units of the soles, so the mannequin in centimetres (its root 2.5 units
// below its soles) took the floor from its soles and its ankles stood 5.9 mm higher.
static void test_a_rig_in_other_units_maps_alike(void)
{
	const float ks[] = { 100.0f, 39.37f, 0.01f };
	for (int r = 0; r < 2; ++r)
	{
		lbSkeleton* s1 = lbCreateReferenceRig(r ? lb_rigMixamo : lb_rigMannequin);
		lbHumanoid h1;
		ENSURE(lbMapHumanoid(s1, NULL, &h1) == lb_ok);
		for (size_t q = 0; q < sizeof ks / sizeof ks[0]; ++q)
		{
			const float k = ks[q];
			lbSkeleton* s2 = createScaledRig(s1, k);
			ENSURE(s2 != NULL);
			if (!s2)
				continue;
			lbHumanoid h2;
			ENSURE(lbMapHumanoid(s2, NULL, &h2) == lb_ok);
			const float rel = 1.0e-4f;
			ENSURE(nearRel(h2.height, k * h1.height, rel));
			ENSURE(nearRel(h2.pelvisHeight, k * h1.pelvisHeight, rel));
			ENSURE(nearVec(h2.upMs, h1.upMs, 1.0e-5f) && nearVec(h2.forwardMs, h1.forwardMs, 1.0e-5f));
			for (int side = 0; side < 2; ++side)
			{
				const lbLegAxes *a = &h1.legAxes[side], *b = &h2.legAxes[side];
				ENSURE(nearRel(b->ankleHeight, k * a->ankleHeight, rel));
				ENSURE(nearRel(b->footLength, k * a->footLength, rel));
				ENSURE(nearRel(b->toeTipLength, k * a->toeTipLength, rel));
				ENSURE(nearRel(b->thighLength, k * a->thighLength, rel));
				ENSURE(nearRel(b->calfLength, k * a->calfLength, rel));
				ENSURE(nearVec(lbMulSV(1.0f / k, b->toeTipBall), a->toeTipBall, 1.0e-5f));
				ENSURE(nearVec(b->toe, a->toe, 1.0e-5f) && nearVec(b->footUp, a->footUp, 1.0e-5f));
				ENSURE(nearVec(b->kneePoleThigh, a->kneePoleThigh, 1.0e-5f));
				const lbArmAxes *c = &h1.armAxes[side], *d = &h2.armAxes[side];
				ENSURE(nearRel(d->upperLength, k * c->upperLength, rel));
				ENSURE(nearRel(d->foreLength, k * c->foreLength, rel));
				ENSURE(nearVec(d->palm, c->palm, 1.0e-5f) && nearVec(d->elbowPoleUpper, c->elbowPoleUpper, 1.0e-5f));
				// The sole, the one definition the systems and the metrics share.
				lbVec3 p1[lb_solePointCount], p2[lb_solePointCount];
				lbPose r1 = lbCreatePose(s1), r2 = lbCreatePose(s2);
				lbPose_SetRest(&r1, s1);
				lbPose_SetRest(&r2, s2);
				lbHumanoid_GetSolePointsMs(&h1, &r1, side, p1);
				lbHumanoid_GetSolePointsMs(&h2, &r2, side, p2);
				lbDestroyPose(&r1);
				lbDestroyPose(&r2);
				for (int i = 0; i < lb_solePointCount; ++i)
					ENSURE(nearVec(lbMulSV(1.0f / k, p2[i]), p1[i], 1.0e-5f));
			}
			lbDestroySkeleton(s2);
		}
		lbDestroySkeleton(s1);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_reference_rigs_map_completely);
	RUN_TEST(test_derived_axes_match_construction);
	RUN_TEST(test_naming_conventions);
	RUN_TEST(test_guess_role);
	RUN_TEST(test_missing_and_explicit_roles);
	RUN_TEST(test_degenerate_limb);
	RUN_TEST(test_sole_points_at_rest);
	RUN_TEST(test_toe_end_sets_toe_tip);
	RUN_TEST(test_toe_end_bone);
	RUN_TEST(test_toe_tip_length_from_the_def);
	RUN_TEST(test_toe_tip_without_ball_bones);
	RUN_TEST(test_palms_mirror_each_other);
	RUN_TEST(test_imported_palm_matches_its_mesh);
	RUN_TEST(test_a_rig_in_other_units_maps_alike);
	TEST_MAIN_END();
}
