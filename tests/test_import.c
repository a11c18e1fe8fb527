// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Rig and clip import/export through assimp: every supported format from the test models, bad
// files written at runtime into a temporary directory, unit and axis conversion, CMU motion
// capture played with root motion, and export round trips on both reference rigs.
#define _POSIX_C_SOURCE 200809L
#include "limber/import.h"
#include "limber/limber.h"
#include "limber/rigs.h"
#include "test_macros.h"

#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#define MODELS "/usr/share/assimp/models"

// assimp 5.2 leaks inside its own error path on one of the truncated files below (the leaked
// blocks are allocated and lost within libassimp); limber's memory is still checked.
const char* __lsan_default_suppressions(void);
const char* __lsan_default_suppressions(void)
{
	return "leak:libassimp.so\n";
}

typedef struct lbLogCapture
{
	int errors, warnings, frameWarnings;
	lbResult last;
	char message[1024];
} lbLogCapture;

static lbLogCapture lbCap;

static void lbCaptureLog(lbLogLevel level, lbResult code, const char* message, void* ctx)
{
	(void)ctx;
	if (level == lb_logError)
		lbCap.errors++;
	else
		lbCap.warnings++;
	if (level != lb_logError && strstr(message, "frames"))
		lbCap.frameWarnings++;
	lbCap.last = code;
	snprintf(lbCap.message, sizeof lbCap.message, "%s", message);
}

static void lbResetCapture(void)
{
	memset(&lbCap, 0, sizeof lbCap);
}

static char lbTempDir[512];

static const char* lbTempPath(const char* name)
{
	static char buf[8][1024];
	static int slot = 0;
	slot = (slot + 1) % 8;
	snprintf(buf[slot], sizeof buf[slot], "%s/%s", lbTempDir, name);
	return buf[slot];
}

static void lbWriteText(const char* path, const char* text, size_t length)
{
	FILE* f = fopen(path, "wb");
	if (!f)
		return;
	fwrite(text, 1, length, f);
	fclose(f);
}

static bool lbHaveModels(void)
{
	struct stat st;
	return stat(MODELS "/BVH/01_01.bvh", &st) == 0;
}

// Checks a loaded rig's data for consistency: finite skeleton, valid clips, meshes with indices
// and weights in range.
static void lbCheckRig(const lbImportedRig* r)
{
	ENSURE(r->skeleton && r->skeleton->boneCount > 0);
	for (int b = 0; b < r->skeleton->boneCount; ++b)
	{
		ENSURE(lbIsValidTransform(r->skeleton->restModel[b]));
		ENSURE(lbIsValidTransform(r->inverseBind[b]));
	}
	for (int c = 0; c < r->clipCount; ++c)
		ENSURE(lbValidateClip(&r->clips[c], r->skeleton) == lb_ok);
	for (int m = 0; m < r->meshCount; ++m)
	{
		const lbSkinnedMesh* mesh = &r->meshes[m];
		ENSURE(mesh->indexCount % 3 == 0);
		for (int i = 0; i < mesh->indexCount; ++i)
			ENSURE(mesh->indices[i] < (uint32_t)mesh->vertexCount);
		for (int v = 0; v < mesh->vertexCount; ++v)
		{
			ENSURE(lbIsValidVec3(mesh->positions[v]));
			ENSURE_NEAR(lbLength(mesh->normals[v]), 1.0f, 1.0e-3f);
			float sum = 0.0f;
			for (int k = 0; k < 4; ++k)
			{
				ENSURE(mesh->boneIndices[4 * v + k] >= 0 && mesh->boneIndices[4 * v + k] < r->skeleton->boneCount);
				ENSURE(mesh->boneWeights[4 * v + k] >= 0.0f);
				sum += mesh->boneWeights[4 * v + k];
			}
			ENSURE_NEAR(sum, 1.0f, 1.0e-4f);
		}
	}
}

// Largest distance between a mesh's vertices and the same vertices skinned by the rest pose.
static float lbRestSkinError(const lbImportedRig* r)
{
	float worst = 0.0f;
	for (int m = 0; m < r->meshCount; ++m)
	{
		const lbSkinnedMesh* mesh = &r->meshes[m];
		for (int v = 0; v < mesh->vertexCount; ++v)
		{
			lbVec3 sum = lbVec3_zero;
			for (int k = 0; k < 4; ++k)
			{
				int b = mesh->boneIndices[4 * v + k];
				lbTransform skin = lbTransformMul(r->skeleton->restModel[b], r->inverseBind[b]);
				sum = lbMulAdd(sum, mesh->boneWeights[4 * v + k], lbTransformPoint(skin, mesh->positions[v]));
			}
			worst = lbMaxF(worst, lbDistance(sum, mesh->positions[v]));
		}
	}
	return worst;
}

static lbImportedRig* lbLoad(const char* path, bool humanoid, lbResult* outResult)
{
	lbImportDef def = lbDefaultImportDef();
	def.requireHumanoid = humanoid;
	lbImportedRig* r = NULL;
	lbResult res = lbImportRig(path, &def, &r);
	if (outResult)
		*outResult = res;
	return r;
}

// ---------------------------------------------------------------------------------------------

static void TestImportEachFormat(void)
{
	if (!lbHaveModels())
	{
		printf("  assimp test models missing; skipped\n");
		return;
	}
	const char* files[] = { MODELS "/FBX/animation_with_skeleton.fbx", MODELS "/FBX/huesitos.fbx",
							MODELS "/glTF2/simple_skin/simple_skin.gltf", MODELS "/Collada/box_nested_animation.dae",
							MODELS "/X/anim_test.x", MODELS "/X/BCN_Epileptic.X", MODELS "/BVH/01_01.bvh" };
	const char* formats[] = { "fbx", "fbx", "gltf", "collada", "x", "x", "bvh" };
	for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k)
	{
		lbResult res;
		lbImportedRig* r = lbLoad(files[k], false, &res);
		ENSURE(res == lb_ok && r != NULL);
		if (!r)
		{
			printf("  %s failed: %s\n", files[k], lbCap.message);
			continue;
		}
		printf("  %s\n", r->report);
		ENSURE(strcmp(r->format, formats[k]) == 0);
		ENSURE(r->clipCount >= 1);
		lbCheckRig(r);
		ENSURE(lbDot(lbQuatRotate(r->axisRotation, r->sourceUp), lbVec3_axisZ) > 0.9999f);
		if (r->meshCount > 0)
		{
			float err = lbRestSkinError(r);
			printf("    rest-pose skinning error %.2g m\n", (double)err);
			// These two files are bound in their rest pose: skinning the rest pose gives the mesh back.
			if (strstr(files[k], "huesitos") || strstr(files[k], "BCN_Epileptic"))
				ENSURE(err < 1.0e-4f);
		}
		lbDestroyImportedRig(r);
	}
}

// assimp stays silent unless its log is routed; routed lines arrive through the limber hook.
static void TestImporterLog(void)
{
	if (!lbHaveModels())
		return;
	lbImportDef def = lbDefaultImportDef();
	def.requireHumanoid = false;
	lbImportedRig* r = NULL;
	lbResetCapture();
	ENSURE(lbImportRig(MODELS "/FBX/huesitos.fbx", &def, &r) == lb_ok);
	lbDestroyImportedRig(r);
	int quiet = lbCap.warnings;
	def.routeImporterLog = true;
	lbResetCapture();
	ENSURE(lbImportRig(MODELS "/FBX/huesitos.fbx", &def, &r) == lb_ok);
	lbDestroyImportedRig(r);
	printf("    %d warnings without routing, %d with (last: %.60s)\n", quiet, lbCap.warnings, lbCap.message);
	ENSURE(lbCap.warnings > quiet);
	// Detached again afterwards.
	def.routeImporterLog = false;
	lbResetCapture();
	ENSURE(lbImportRig(MODELS "/FBX/huesitos.fbx", &def, &r) == lb_ok);
	lbDestroyImportedRig(r);
	ENSURE(lbCap.warnings == quiet);
}

// Names the bones of roles (role name, bone name pairs) in a def's role map.
static void lbSetRoles(lbImportDef* def, const char* (*map)[2], size_t count)
{
	for (size_t k = 0; k < count; ++k)
		for (int role = 0; role < lb_roleCount; ++role)
			if (strcmp(lbRoleName((lbRole)role), map[k][0]) == 0)
				def->humanoid.roleNames[role] = map[k][1];
}

static void lbSetBcnRoles(lbImportDef* def)
{
	const char* map[][2] = { { "pelvis", "B_Root_Pelvis_L" },  { "spine1", "B_Spine1" },         { "spine2", "B_Spine2" },
							 { "spine3", "B_Spine3" },         { "spine4", "B_Spine4" },         { "neck", "B_Root_Neck_H" },
							 { "head", "B_Neck" },             { "clavicle_l", "B_Clavicle_Left" }, { "upperarm_l", "B_UpperArm_Left" },
							 { "forearm_l", "B_ForeArm_Left" }, { "hand_l", "B_Hand_Left" },      { "thigh_l", "B_Hip_Left" },
							 { "calf_l", "B_Knee_Left" },      { "foot_l", "B_Ankle_Left" },     { "ball_l", "B_Toe_Left" },
							 { "clavicle_r", "B_Clavicle_Right" }, { "upperarm_r", "B_UpperArm_Right" }, { "forearm_r", "B_ForeArm_Right" },
							 { "hand_r", "B_Hand_Right" },     { "thigh_r", "B_Hip_Right" },     { "calf_r", "B_Knee_Right" },
							 { "foot_r", "B_Ankle_Right" },    { "ball_r", "B_Toe_Right" } };
	lbSetRoles(def, map, sizeof map / sizeof map[0]);
}

// The 3ds Max Biped's role map (MotionCaptureROM.ase, German bone names).
static void lbSetBipedRoles(lbImportDef* def)
{
	const char* map[][2] = { { "pelvis", "Bip01 Becken" },          { "spine1", "Bip01 Wirbels_ule" },
							 { "spine2", "Bip01 Wirbels_ule1" },     { "spine3", "Bip01 Wirbels_ule2" },
							 { "neck", "Bip01 Hals" },              { "head", "Bip01 Kopf" },
							 { "clavicle_l", "Bip01 L Schl_sselbein" }, { "upperarm_l", "Bip01 L Oberarm" },
							 { "forearm_l", "Bip01 L Unterarm" },    { "hand_l", "Bip01 L Hand" },
							 { "thigh_l", "Bip01 L Oberschenkel" },  { "calf_l", "Bip01 L Unterschenkel" },
							 { "foot_l", "Bip01 L Fu_" },           { "ball_l", "Bip01 L Zeh0" },
							 { "clavicle_r", "Bip01 R Schl_sselbein" }, { "upperarm_r", "Bip01 R Oberarm" },
							 { "forearm_r", "Bip01 R Unterarm" },    { "hand_r", "Bip01 R Hand" },
							 { "thigh_r", "Bip01 R Oberschenkel" },  { "calf_r", "Bip01 R Unterschenkel" },
							 { "foot_r", "Bip01 R Fu_" },           { "ball_r", "Bip01 R Zeh0" } };
	lbSetRoles(def, map, sizeof map / sizeof map[0]);
}

static void TestImportExplicitRoleMap(void)
{
	if (!lbHaveModels())
		return;
	lbImportDef def = lbDefaultImportDef();
	lbImportedRig* r = NULL;
	// Automatic naming does not recognise this rig: a clear error naming the missing roles.
	lbResetCapture();
	ENSURE(lbImportRig(MODELS "/X/BCN_Epileptic.X", &def, &r) == lb_errorNotHumanoid);
	ENSURE(r == NULL);
	ENSURE(strstr(lbCap.message, "missing") != NULL && strstr(lbCap.message, "thigh_l") != NULL);
	// With an explicit role map it maps and derives its axes.
	lbSetBcnRoles(&def);
	ENSURE(lbImportRig(MODELS "/X/BCN_Epileptic.X", &def, &r) == lb_ok);
	if (!r)
		return;
	ENSURE(r->humanoidResult == lb_ok);
	ENSURE(r->humanoid.leg[0].thigh == lbSkeleton_FindBone(r->skeleton, "B_Hip_Left"));
	ENSURE_VEC3_NEAR(r->humanoid.upMs, lbVec3_axisZ, 1.0e-3f);
	ENSURE(r->humanoid.height > 1.0f && r->humanoid.height < 2.5f);
	printf("    BCN_Epileptic: height %.2f m, pelvis %.2f m\n", (double)r->humanoid.height, (double)r->humanoid.pelvisHeight);
	lbDestroyImportedRig(r);
}

// A 3ds Max Biped with German bone names (Becken, Oberschenkel, Unterschenkel, Fuß, Zeh0) exported
// as ASE in inches, with no unit in the file: the unit guessed from its 59-unit span is the inch,
// so it stands an adult's height (as centimetres it stood 0.6 m). Biped hangs its thighs off the
// first spine bone, not the pelvis: the legs still map and measure.
static void TestBipedInInches(void)
{
	if (!lbHaveModels())
		return;
	struct stat st;
	if (stat(MODELS "/ASE/MotionCaptureROM.ase", &st) != 0)
		return;
	lbImportDef def = lbDefaultImportDef();
	lbSetBipedRoles(&def);
	lbImportedRig* r = NULL;
	lbResetCapture();
	ENSURE(lbImportRig(MODELS "/ASE/MotionCaptureROM.ase", &def, &r) == lb_ok);
	if (!r)
		return;
	printf("    %s\n", r->report);
	ENSURE(r->humanoidResult == lb_ok);
	ENSURE_NEAR(r->unitScale, 0.0254f, 1.0e-6f);
	ENSURE(strstr(r->report, "inches") != NULL);
	ENSURE(r->humanoid.height > 1.5f && r->humanoid.height < 1.9f);
	// No warning about an implausible height.
	ENSURE(r->warningCount == 0);
	const lbSkeleton* s = r->skeleton;
	for (int side = 0; side < 2; ++side)
	{
		const lbLegBones* leg = &r->humanoid.leg[side];
		ENSURE(leg->thigh >= 0 && leg->calf >= 0 && leg->foot >= 0 && leg->ball >= 0);
		ENSURE(s->parents[leg->thigh] == r->humanoid.spine[0]);
		const float len = r->humanoid.legAxes[side].thighLength + r->humanoid.legAxes[side].calfLength;
		ENSURE(len > 0.40f * r->humanoid.height && len < 0.60f * r->humanoid.height);
	}
	// The explicit unit still wins.
	lbDestroyImportedRig(r);
	def.unitScale = 0.01f;
	ENSURE(lbImportRig(MODELS "/ASE/MotionCaptureROM.ase", &def, &r) == lb_ok);
	if (r)
	{
		// ... and a 0.6 m human is flagged.
		ENSURE(r->humanoid.height < 0.7f);
		ENSURE(r->warningCount >= 1 && strstr(r->report, "not a human's") != NULL);
	}
	lbDestroyImportedRig(r);
}

// The unit of a file without one, from its skeleton's toes-to-head span: a two-bone BVH whose head
// stands `span` units over its hips. Metres up to 3, CMU's units (1/0.45 inch) for a BVH of 12-40,
// inches for 40-100 (an adult of 1-2.5 m), centimetres for 100-300; the boundaries fall where the
// rule says, and the report names the guess.
static void TestUnitGuessedFromSpan(void)
{
	static const struct
	{
		float span, unit;
		const char* why;
	} cases[] = { { 1.7f, 1.0f, "units tall)" },         { 25.0f, 0.056444f, "CMU" },   { 39.9f, 0.056444f, "CMU" },
				  { 40.0f, 0.0254f, "inches" },             { 66.0f, 0.0254f, "inches" }, { 99.9f, 0.0254f, "inches" },
				  { 100.0f, 0.01f, "units tall)" },         { 175.0f, 0.01f, "units tall)" } };
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
	{
		char text[640];
		snprintf(text, sizeof text,
				 "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
				 "  JOINT Head\n  {\n    OFFSET 0 %g 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
				 "    End Site\n    {\n      OFFSET 0 1 0\n    }\n  }\n}\nMOTION\nFrames: 2\nFrame Time: 0.033333\n"
				 "0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\n",
				 (double)cases[k].span);
		lbWriteText(lbTempPath("span.bvh"), text, strlen(text));
		lbResult res;
		lbImportedRig* r = lbLoad(lbTempPath("span.bvh"), false, &res);
		ENSURE(res == lb_ok && r);
		if (!r)
			continue;
		ENSURE_NEAR(r->unitScale, cases[k].unit, 1.0e-7f);
		ENSURE(strstr(r->report, cases[k].why) != NULL);
		const int head = lbSkeleton_FindBone(r->skeleton, "Head"), hips = lbSkeleton_FindBone(r->skeleton, "Hips");
		ENSURE(head >= 0 && hips >= 0);
		if (head >= 0 && hips >= 0)
			ENSURE_NEAR(lbDistance(r->skeleton->restModel[head].p, r->skeleton->restModel[hips].p), cases[k].span * cases[k].unit,
						1.0e-4f);
		lbDestroyImportedRig(r);
	}
}

// The CMU clip: roles, constant bone lengths, root motion, feet on the floor in contact frames.
// A rig whose bones are named after the joints they start at (Boxing_Toes.bvh: Hips, Ab, Chest,
// LeftCollar, LeftShoulder, LeftElbow, LeftWrist, LeftHip, LeftKnee, LeftAnkle, LeftToes) maps
// without a role table, each limb bone to the bone that starts at its joint, and its clip plays
// with both knees bending forward about the derived hinges.
static void TestJointNamedBvh(void)
{
	if (!lbHaveModels())
		return;
	lbResult res;
	lbImportedRig* r = lbLoad(MODELS "/BVH/Boxing_Toes.bvh", true, &res);
	ENSURE(res == lb_ok && r);
	if (!r)
		return;
	const lbSkeleton* s = r->skeleton;
	const lbHumanoid* h = &r->humanoid;
	static const struct
	{
		lbRole role;
		const char* bone;
	} want[] = {
		{ lb_rolePelvis, "Hips" },          { lb_roleHead, "Head" },           { lb_roleClavicleL, "LeftCollar" },
		{ lb_roleUpperArmL, "LeftShoulder" }, { lb_roleForeArmL, "LeftElbow" }, { lb_roleHandL, "LeftWrist" },
		{ lb_roleThighL, "LeftHip" },       { lb_roleCalfL, "LeftKnee" },      { lb_roleFootL, "LeftAnkle" },
		{ lb_roleBallL, "LeftToes" },       { lb_roleClavicleR, "RightCollar" }, { lb_roleUpperArmR, "RightShoulder" },
		{ lb_roleForeArmR, "RightElbow" },  { lb_roleHandR, "RightWrist" },    { lb_roleThighR, "RightHip" },
		{ lb_roleCalfR, "RightKnee" },      { lb_roleFootR, "RightAnkle" },    { lb_roleBallR, "RightToes" },
	};
	for (size_t k = 0; k < sizeof want / sizeof want[0]; ++k)
	{
		int got = lbHumanoid_GetRoleBone(h, want[k].role);
		if (got != lbSkeleton_FindBone(s, want[k].bone))
			printf("  %s -> %s, want %s\n", lbRoleName(want[k].role), got >= 0 ? s->names[got] : "(none)", want[k].bone);
		ENSURE(got >= 0 && got == lbSkeleton_FindBone(s, want[k].bone));
	}
	ENSURE(h->spineCount >= 1);
	ENSURE(r->clipCount == 1);
	if (r->clipCount != 1)
	{
		lbDestroyImportedRig(r);
		return;
	}
	lbPose pose = lbCreatePose(s);
	lbMotionState st;
	ENSURE(lbMotionState_Init(&st, s, h, lbTransform_identity) == lb_ok);
	lbMotionDef p = lbDefaultMotionDef(lb_motionClip);
	p.clip = &r->clips[0];
	int bentForward = 0, frames = 0;
	for (float t = 0.0f; t < r->clips[0].duration; t += 0.1f, ++frames)
	{
		ENSURE(lbMotion_Sample(&st, s, h, &p, 0.1f, &pose) == lb_ok);
		for (int side = 0; side < 2; ++side)
		{
			const lbLegBones* g = &h->leg[side];
			lbVec3 hip = pose.model[g->thigh].p, knee = pose.model[g->calf].p, ankle = pose.model[g->foot].p;
			lbVec3 hinge = lbTransformDirection(pose.model[g->thigh], h->legAxes[side].kneeBendThigh);
			// The knee bends about its hinge the way the derived axis says (positive), never back.
			bentForward += lbDot(lbCross(lbSub(knee, hip), lbSub(ankle, knee)), hinge) >= -1.0e-4f ? 1 : 0;
		}
	}
	ENSURE(frames > 100 && bentForward == 2 * frames);
	lbDestroyPose(&pose);
	lbDestroyImportedRig(r);
}

static void TestCmuClipWithRootMotion(void)
{
	if (!lbHaveModels())
		return;
	lbResult res;
	lbImportedRig* r = lbLoad(MODELS "/BVH/01_01.bvh", true, &res);
	ENSURE(res == lb_ok && r);
	if (!r)
		return;
	const lbSkeleton* s = r->skeleton;
	const lbHumanoid* h = &r->humanoid;
	for (int role = 0; role < lb_roleCount; ++role)
	{
		bool optional = role == lb_roleRoot || (role >= lb_roleTwist1L && role <= lb_roleTwist3L) ||
						(role >= lb_roleTwist1R && role <= lb_roleTwist3R) || role == lb_roleSpine4;
		if (!optional && lbHumanoid_GetRoleBone(h, (lbRole)role) == LB_NULL_INDEX)
		{
			printf("  role %s not mapped\n", lbRoleName((lbRole)role));
			ENSURE(false);
		}
	}
	ENSURE(r->clipCount == 1);
	ENSURE_NEAR(r->unitScale, 0.056444f, 1.0e-6f);
	const lbClip* clip = &r->clips[0];
	ENSURE(clip->duration > 20.0f);
	lbPose pose = lbCreatePose(s);
	lbMotionState st;
	ENSURE(lbMotionState_Init(&st, s, h, lbTransform_identity) == lb_ok);
	lbMotionDef p = lbDefaultMotionDef(lb_motionClip);
	p.clip = clip;
	p.loop = false;
	const float dt = 1.0f / 60.0f;
	const int frames = (int)(clip->duration / dt);
	float lenErr = 0.0f;
	float* contactH = (float*)malloc(sizeof(float) * (size_t)frames * 2);
	float floorH = 1.0e9f;
	int contactFrames = 0;
	lbVec3 prevFoot[2] = { lbVec3_zero, lbVec3_zero };
	lbVec3 start = lbVec3_zero;
	float maxTravel = 0.0f;
	for (int i = 0; i < frames; ++i)
	{
		ENSURE(lbMotion_Sample(&st, s, h, &p, dt, &pose) == lb_ok);
		if (i == 0)
			start = st.characterWs.p;
		maxTravel = lbMaxF(maxTravel, lbDistance(lbProjectOnPlane(st.characterWs.p, lbVec3_axisZ), lbProjectOnPlane(start, lbVec3_axisZ)));
		for (int b = 0; b < s->boneCount; ++b)
		{
			int par = s->parents[b];
			if (par < 0)
				continue;
			lenErr = lbMaxF(lenErr, lbAbsF(lbDistance(pose.model[b].p, pose.model[par].p) - lbDistance(s->restModel[b].p, s->restModel[par].p)));
		}
		// Sole under the toe joint: the joint sits about a fifth of the foot length above it.
		// Contact: the toe nearly still in world space.
		for (int side = 0; side < 2; ++side)
		{
			int toe = h->leg[side].ball;
			lbVec3 w = lbTransformPoint(st.characterWs, pose.model[toe].p);
			float sole = w.z - 0.2f * h->legAxes[side].footLength;
			floorH = lbMinF(floorH, sole);
			float speed = i > 0 ? lbDistance(w, prevFoot[side]) / dt : 1.0e9f;
			prevFoot[side] = w;
			if (speed < 0.1f && contactH)
				contactH[contactFrames++] = sole;
		}
		ENSURE(lbPose_IsFinite(&pose));
	}
	// Every contact lies on one floor plane (the median contact height) within a few
	// centimetres: no drift or tilt from units, axes or root motion.
	for (int i = 1; i < contactFrames; ++i)
	{
		for (int k = i; k > 0 && contactH[k] < contactH[k - 1]; --k)
		{
			float t = contactH[k];
			contactH[k] = contactH[k - 1];
			contactH[k - 1] = t;
		}
	}
	floorH = contactFrames > 0 ? contactH[contactFrames / 2] : 0.0f;
	float worstContact = 0.0f;
	for (int k = 0; k < contactFrames; ++k)
		worstContact = lbMaxF(worstContact, lbAbsF(contactH[k] - floorH));
	free(contactH);
	printf("    CMU 01_01: %d frames, bone length error %.2g m, %d contact frames on a floor at z = %.3f m, worst contact "
		   "%.3f m from it, travel %.2f m\n",
		   frames, (double)lenErr, contactFrames, (double)floorH, (double)worstContact, (double)maxTravel);
	ENSURE(lenErr < 1.0e-4f);
	ENSURE(contactFrames > 100);
	ENSURE(worstContact < 0.04f);
	ENSURE(lbAbsF(floorH) < 0.1f);
	ENSURE(maxTravel > 1.0f);
	lbDestroyPose(&pose);
	lbDestroyImportedRig(r);
}

// Procedural motions on imported rigs: they use only the humanoid map and its derived axes, so
// a motion-capture skeleton (legs spread at rest) and a game rig with face bones walk as well.
static void TestProceduralOnImportedRigs(void)
{
	if (!lbHaveModels())
		return;
	const char* files[2] = { MODELS "/BVH/01_01.bvh", MODELS "/X/BCN_Epileptic.X" };
	for (int k = 0; k < 2; ++k)
	{
		lbImportDef def = lbDefaultImportDef();
		if (k == 1)
			lbSetBcnRoles(&def);
		lbImportedRig* r = NULL;
		ENSURE(lbImportRig(files[k], &def, &r) == lb_ok && r);
		if (!r)
			continue;
		const lbSkeleton* s = r->skeleton;
		const lbHumanoid* h = &r->humanoid;
		lbPose pose = lbCreatePose(s);
		float floorH = lbDot(s->restModel[h->pelvis].p, h->upMs) - h->pelvisHeight;
		for (int m = lb_motionIdle; m <= lb_motionCrawl; ++m)
		{
			lbMotionState st;
			ENSURE(lbMotionState_Init(&st, s, h, lbTransform_identity) == lb_ok);
			lbMotionDef p = lbDefaultMotionDef((lbBaseMotion)m);
			float lenErr = 0.0f, minSep = 1.0e9f, lowest = 1.0e9f;
			int bad = 0;
			for (int i = 0; i < 360; ++i)
			{
				ENSURE(lbMotion_Sample(&st, s, h, &p, 1.0f / 120.0f, &pose) == lb_ok);
				bad += lbPose_IsFinite(&pose) ? 0 : 1;
				for (int b = 0; b < s->boneCount; ++b)
				{
					lowest = lbMinF(lowest, lbDot(pose.model[b].p, h->upMs) - floorH);
					int par = s->parents[b];
					if (par < 0 || b == h->pelvis)
						continue;
					lenErr = lbMaxF(lenErr, lbAbsF(lbDistance(pose.model[b].p, pose.model[par].p) -
												   lbDistance(s->restModel[b].p, s->restModel[par].p)));
				}
				minSep = lbMinF(minSep, lbDot(lbSub(pose.model[h->leg[0].foot].p, pose.model[h->leg[1].foot].p), h->leftMs));
			}
			printf("    %s %s: bone length error %.2g m, feet at least %.3f m apart, lowest joint %.3f m, travel %.2f m\n",
				   k == 0 ? "CMU" : "BCN", lbBaseMotionName((lbBaseMotion)m), (double)lenErr, (double)minSep, (double)lowest,
				   (double)lbLength(st.characterWs.p));
			ENSURE(bad == 0);
			ENSURE(lenErr < 1.0e-4f);
			ENSURE(minSep > 0.05f);
			ENSURE(lowest > -0.03f);
			if (m == lb_motionWalk || m == lb_motionRun || m == lb_motionCrawl)
				ENSURE(lbLength(st.characterWs.p) > 0.5f * p.speed * 3.0f);
		}
		lbDestroyPose(&pose);
		lbDestroyImportedRig(r);
	}
}

// ---------------------------------------------------------------------------------------------
// Bad files

static const char* lbBvhSmall(int frames, int lines, bool cutLast)
{
	static char text[4096];
	int n = snprintf(text, sizeof text,
					 "HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
					 "\tJOINT Spine\n\t{\n\t\tOFFSET 0 10 0\n\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
					 "\t\tEnd Site\n\t\t{\n\t\t\tOFFSET 0 10 0\n\t\t}\n\t}\n}\nMOTION\nFrames: %d\nFrame Time: 0.033333\n",
					 frames);
	for (int k = 0; k < lines; ++k)
	{
		if (cutLast && k == lines - 1)
			n += snprintf(text + n, sizeof text - (size_t)n, "%d 90 0 0\n", k);
		else
			n += snprintf(text + n, sizeof text - (size_t)n, "%d 90 0 0 %d 0 0 0 0\n", k, k);
	}
	return text;
}

// A two-bone BVH whose hips turn about X by the given angles (degrees), one frame each.
static const char* lbBvhTurning(const float* degrees, int frames)
{
	static char text[4096];
	int n = snprintf(text, sizeof text,
					 "HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
					 "\tJOINT Spine\n\t{\n\t\tOFFSET 0 10 0\n\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
					 "\t\tEnd Site\n\t\t{\n\t\t\tOFFSET 0 10 0\n\t\t}\n\t}\n}\nMOTION\nFrames: %d\nFrame Time: 0.033333\n",
					 frames);
	for (int k = 0; k < frames; ++k)
		n += snprintf(text + n, sizeof text - (size_t)n, "%d 90 0 0 %g 0 0 0 0\n", k, (double)degrees[k]);
	return text;
}

static const lbClipTrack* lbTrackOf(const lbImportedRig* r, const char* bone)
{
	int b = lbSkeleton_FindBone(r->skeleton, bone);
	for (int t = 0; r->clipCount > 0 && t < r->clips[0].trackCount; ++t)
	{
		if (r->clips[0].tracks[t].bone == b)
			return &r->clips[0].tracks[t];
	}
	return NULL;
}

// Largest rotation (rad) between the first two keys of any track.
static float lbFirstStep(const lbClip* clip)
{
	float m = 0.0f;
	for (int t = 0; t < clip->trackCount; ++t)
	{
		const lbClipTrack* tr = &clip->tracks[t];
		if (tr->rotationCount >= 2)
			m = lbMaxF(m, lbQuatAngleBetween(tr->rotations[0], tr->rotations[1]));
	}
	return m;
}

// A take that opens with a calibration pose left in one big step loses that key (and starts at
// time 0 with the take); a first step that is small, or no bigger than the take's own steps, stays.
static void TestLeadInPose(void)
{
	lbImportDef def = lbDefaultImportDef();
	def.requireHumanoid = false;
	ENSURE(def.dropLeadInPose);
	const float leadIn[5] = { 0, 60, 61, 62, 63 };
	const float fastTake[5] = { 0, 60, 61, 100, 101 };
	const float smallStep[5] = { 0, 20, 21, 22, 23 };
	const float* cases[3] = { leadIn, fastTake, smallStep };
	const int expect[3] = { 4, 5, 5 };
	for (int c = 0; c < 3; ++c)
	{
		const char* text = lbBvhTurning(cases[c], 5);
		lbWriteText(lbTempPath("leadin.bvh"), text, strlen(text));
		for (int keep = 0; keep < 2; ++keep)
		{
			lbImportDef d = def;
			d.dropLeadInPose = keep == 0;
			lbImportedRig* r = NULL;
			ENSURE(lbImportRig(lbTempPath("leadin.bvh"), &d, &r) == lb_ok && r);
			const lbClipTrack* hips = r ? lbTrackOf(r, "Hips") : NULL;
			ENSURE(hips != NULL);
			if (!hips)
			{
				lbDestroyImportedRig(r);
				continue;
			}
			int n = keep ? 5 : expect[c];
			ENSURE(hips->rotationCount == n && hips->positionCount == n);
			ENSURE_NEAR(hips->rotationTimes[0], 0.0f, 1.0e-6f);
			ENSURE_NEAR(hips->positionTimes[0], 0.0f, 1.0e-6f);
			ENSURE_NEAR(r->clips[0].duration, 0.033333f * (float)(n - 1), 1.0e-4f);
			ENSURE(lbValidateClip(&r->clips[0], r->skeleton) == lb_ok);
			// The first key is the take's first frame: hips at x = 1 file unit after the drop.
			float firstX = lbLength(lbSub(hips->positions[1], hips->positions[0]));
			ENSURE(firstX > 0.0f);
			ENSURE_NEAR(lbFirstStep(&r->clips[0]) * LB_RAD2DEG, cases[c][5 - n + 1] - cases[c][5 - n], 0.05f);
			ENSURE((strstr(r->report, "lead-in") != NULL) == (n == 4));
			lbDestroyImportedRig(r);
		}
	}
	// The same lead-in with a short end bone (a finger) that flips by 170 degrees later in the take,
	// as captured fingers do: the flip is not a big bone's, so the lead-in still goes. The test
	// once compared the first step with every track's later steps, and the flip kept the lead-in.
	{
		static char text[4096];
		int n = snprintf(text, sizeof text,
						 "HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0 0\n\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation "
						 "Yrotation\n\tJOINT Spine\n\t{\n\t\tOFFSET 0 10 0\n\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
						 "\t\tJOINT Finger\n\t\t{\n\t\t\tOFFSET 0 10 0\n\t\t\tCHANNELS 3 Zrotation Xrotation Yrotation\n"
						 "\t\t\tEnd Site\n\t\t\t{\n\t\t\t\tOFFSET 0 0.5 0\n\t\t\t}\n\t\t}\n\t}\n}\nMOTION\nFrames: 5\n"
						 "Frame Time: 0.033333\n");
		const float finger[5] = { 0, 0, 0, 170, 170 };
		for (int k = 0; k < 5; ++k)
			n += snprintf(text + n, sizeof text - (size_t)n, "%d 90 0 0 %g 0 0 0 0 0 %g 0\n", k, (double)leadIn[k],
						  (double)finger[k]);
		lbWriteText(lbTempPath("leadin_finger.bvh"), text, (size_t)n);
		lbImportedRig* r = NULL;
		ENSURE(lbImportRig(lbTempPath("leadin_finger.bvh"), &def, &r) == lb_ok && r);
		const lbClipTrack* hips = r ? lbTrackOf(r, "Hips") : NULL;
		const lbClipTrack* tip = r ? lbTrackOf(r, "Finger") : NULL;
		ENSURE(hips && tip && hips->rotationCount == 4 && tip->rotationCount == 4);
		ENSURE(r && strstr(r->report, "lead-in") != NULL);
		lbDestroyImportedRig(r);
	}
	if (!lbHaveModels())
		return;
	// CMU 01_03 opens with a T-pose frame too, but some small bone turns fast later in the take,
	// which hid the lead-in from the all-track test; the per-bone test drops it (4511 frames in the
	// file, 4510 in the take).
	for (int keep = 0; keep < 2; ++keep)
	{
		lbImportDef d = lbDefaultImportDef();
		d.dropLeadInPose = keep == 0;
		lbImportedRig* r = NULL;
		ENSURE(lbImportRig(MODELS "/BVH/01_03.bvh", &d, &r) == lb_ok && r && r->clipCount == 1);
		const lbClipTrack* hips = r ? lbTrackOf(r, "Hips") : NULL;
		ENSURE(hips != NULL);
		if (hips)
		{
			ENSURE(hips->rotationCount == (keep ? 4511 : 4510));
			float first = lbFirstStep(&r->clips[0]) * LB_RAD2DEG;
			printf("    01_03.bvh %s: first key step %.1f deg\n", keep ? "kept" : "dropped", (double)first);
			ENSURE(keep ? first > 90.0f : first < 5.0f);
		}
		lbDestroyImportedRig(r);
	}
	// CMU 01_01 opens with a T-pose frame: 2752 frames in the file, 2751 in the take.
	for (int keep = 0; keep < 2; ++keep)
	{
		lbImportDef d = lbDefaultImportDef();
		d.dropLeadInPose = keep == 0;
		lbImportedRig* r = NULL;
		ENSURE(lbImportRig(MODELS "/BVH/01_01.bvh", &d, &r) == lb_ok && r && r->clipCount == 1);
		const lbClipTrack* hips = r ? lbTrackOf(r, "Hips") : NULL;
		ENSURE(hips != NULL);
		if (hips)
		{
			ENSURE(hips->rotationCount == (keep ? 2752 : 2751));
			float first = lbFirstStep(&r->clips[0]) * LB_RAD2DEG;
			printf("    01_01.bvh %s: first key step %.1f deg\n", keep ? "kept" : "dropped", (double)first);
			ENSURE(keep ? first > 90.0f : first < 5.0f);
		}
		lbDestroyImportedRig(r);
	}
}

static int lbCountImportTempDirs(void)
{
	DIR* d = opendir(lbTempDir);
	int n = 0;
	for (struct dirent* e = d ? readdir(d) : NULL; e; e = readdir(d))
		n += strncmp(e->d_name, "limber-import-", 14) == 0 ? 1 : 0;
	if (d)
		closedir(d);
	return n;
}

static void TestBadFiles(void)
{
	const int tempDirsBefore = lbCountImportTempDirs();
	lbImportDef def = lbDefaultImportDef();
	lbImportedRig* r = (lbImportedRig*)1;
	lbResetCapture();
	ENSURE(lbImportRig(lbTempPath("missing.gltf"), &def, &r) == lb_errorFileNotFound && r == NULL);
	ENSURE(lbCap.errors == 1 && strstr(lbCap.message, "missing.gltf"));
	ENSURE(lbImportRig(NULL, &def, &r) == lb_errorNullPointer);
	lbImportDef noCookie = def;
	noCookie.internalValue = 0;
	ENSURE(lbImportRig(lbTempPath("missing.gltf"), &noCookie, &r) == lb_errorDefNotInitialized);
	ENSURE(lbImportRig(lbTempDir, &def, &r) == lb_errorFileNotFound);

	lbWriteText(lbTempPath("empty.fbx"), "", 0);
	ENSURE(lbImportRig(lbTempPath("empty.fbx"), &def, &r) == lb_errorFileFormat && r == NULL);
	lbWriteText(lbTempPath("rig.obj"), "v 0 0 0\n", 8);
	ENSURE(lbImportRig(lbTempPath("rig.obj"), &def, &r) == lb_errorUnsupported);

	// Truncated copies of real files: half of each.
	if (lbHaveModels())
	{
		const char* srcs[] = { MODELS "/FBX/animation_with_skeleton.fbx", MODELS "/BVH/01_01.bvh", MODELS "/X/BCN_Epileptic.X",
							   MODELS "/Collada/box_nested_animation.dae", MODELS "/glTF2/simple_skin/simple_skin.gltf" };
		const char* names[] = { "cut.fbx", "cut.bvh", "cut.x", "cut.dae", "cut.gltf" };
		for (int k = 0; k < 5; ++k)
		{
			size_t size = 0;
			char* data = lbTestReadFile(srcs[k], &size);
			ENSURE(data != NULL);
			if (!data)
				continue;
			lbWriteText(lbTempPath(names[k]), data, size / 2);
			free(data);
			lbResetCapture();
			lbImportDef loose = lbDefaultImportDef();
			loose.requireHumanoid = false;
			r = NULL;
			lbResult res = lbImportRig(lbTempPath(names[k]), &loose, &r);
			printf("    truncated %s: %s%s%s\n", names[k], lbResultString(res), r ? " (" : "", r ? r->report : "");
			// A truncated BVH keeps its complete frames (with a warning); the others are refused.
			if (k == 1)
				ENSURE(res == lb_ok && r && r->warningCount >= 1);
			else
				ENSURE(res == lb_errorFileFormat && r == NULL && lbCap.errors >= 1);
			lbDestroyImportedRig(r);
		}
		// Not a humanoid: a clear error naming what is missing.
		lbResetCapture();
		r = NULL;
		ENSURE(lbImportRig(MODELS "/FBX/huesitos.fbx", &def, &r) == lb_errorNotHumanoid && r == NULL);
		ENSURE(strstr(lbCap.message, "missing") && strstr(lbCap.message, "pelvis"));
		// No skeleton.
		ENSURE(lbImportRig(MODELS "/FBX/box.fbx", &def, &r) == lb_errorNoSkeleton && r == NULL);
	}

	// glTF: a skin without inverseBindMatrices (assimp 5.2 would crash), out-of-range indices.
	const char* gltfBase =
		"{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],"
		"\"nodes\":[{\"name\":\"skin_mesh\",\"mesh\":0,\"skin\":0},{\"name\":\"hips\",\"children\":[2]},{\"name\":\"spine\",\"translation\":[0,0.5,0]}],"
		"\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d}}]}],"
		"\"skins\":[{\"joints\":[1,%d]%s}],"
		"\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"max\":[1,1,0],\"min\":[0,0,0]}],"
		"\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
		"\"buffers\":[{\"byteLength\":36,\"uri\":\"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA\"}]}";
	char gltf[4096];
	// A skin without inverseBindMatrices loads (identity matrices, as the spec says) with a
	// warning, from a .gltf with an embedded buffer, one with an external .bin, and a .glb.
	{
		lbImportDef skinDef = lbDefaultImportDef();
		skinDef.requireHumanoid = false;
		snprintf(gltf, sizeof gltf, gltfBase, 0, 2, "");
		lbWriteText(lbTempPath("noibm.gltf"), gltf, strlen(gltf));
		// External buffer: the same 36 bytes in noibm.bin.
		static const float tri[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
		lbWriteText(lbTempPath("noibm.bin"), (const char*)tri, sizeof tri);
		char ext[4096];
		snprintf(ext, sizeof ext, "%s", gltf);
		char* uri = strstr(ext, "data:application");
		char* end = uri ? strchr(uri, '"') : NULL;
		if (uri && end)
			memmove(uri + strlen("noibm.bin"), end, strlen(end) + 1), memcpy(uri, "noibm.bin", strlen("noibm.bin"));
		lbWriteText(lbTempPath("noibm_ext.gltf"), ext, strlen(ext));
		// GLB: JSON chunk (buffer without uri) plus BIN chunk.
		char json[4096];
		snprintf(json, sizeof json, "%s", gltf);
		char* b = strstr(json, ",\"uri\":");
		char* e = b ? strchr(b + 8, '"') : NULL;
		if (b && e)
			memmove(b, e + 1, strlen(e + 1) + 1);
		size_t jl = strlen(json);
		while (jl % 4)
			json[jl++] = ' ';
		json[jl] = 0;
		unsigned char glb[8192];
		uint32_t total = (uint32_t)(12 + 8 + jl + 8 + 36);
		uint32_t hdr[5] = { 0x46546C67u, 2u, total, (uint32_t)jl, 0x4E4F534Au };
		memcpy(glb, hdr, 20);
		memcpy(glb + 20, json, jl);
		uint32_t bh[2] = { 36u, 0x004E4942u };
		memcpy(glb + 20 + jl, bh, 8);
		memcpy(glb + 28 + jl, tri, 36);
		lbWriteText(lbTempPath("noibm.glb"), (const char*)glb, total);
		const char* variants[3] = { "noibm.gltf", "noibm_ext.gltf", "noibm.glb" };
		for (int v = 0; v < 3; ++v)
		{
			lbResetCapture();
			r = NULL;
			lbResult res = lbImportRig(lbTempPath(variants[v]), &skinDef, &r);
			printf("    %s: %s%s%s\n", variants[v], lbResultString(res), r ? ": " : "", r ? r->report : lbCap.message);
			ENSURE(res == lb_ok && r);
			if (!r)
				continue;
			ENSURE(strstr(r->report, "inverseBindMatrices") != NULL && r->warningCount >= 1);
			ENSURE(r->skeleton->boneCount == 2 && r->meshCount == 1);
			if (r->meshCount == 1)
			{
				ENSURE(r->meshes[0].vertexCount == 3);
				// Identity inverse bind: the second vertex (1, 0, 0) in glTF axes is (1, 0, 0) in +Z-up model space.
				ENSURE_VEC3_NEAR(r->meshes[0].positions[1], lbMakeVec3(1, 0, 0), 1.0e-6f);
				ENSURE_VEC3_NEAR(r->meshes[0].positions[2], lbMakeVec3(0, 0, 1), 1.0e-6f);
			}
			lbDestroyImportedRig(r);
		}
	}
	// The corrected copies are removed again.
	ENSURE(lbCountImportTempDirs() == tempDirsBefore);
	snprintf(gltf, sizeof gltf, gltfBase, 0, 7, ",\"inverseBindMatrices\":0");
	lbWriteText(lbTempPath("badjoint.gltf"), gltf, strlen(gltf));
	ENSURE(lbImportRig(lbTempPath("badjoint.gltf"), &def, &r) == lb_errorFileFormat && r == NULL);
	ENSURE(strstr(lbCap.message, "joint") != NULL);
	snprintf(gltf, sizeof gltf, gltfBase, 5, 2, ",\"inverseBindMatrices\":0");
	lbWriteText(lbTempPath("badaccessor.gltf"), gltf, strlen(gltf));
	ENSURE(lbImportRig(lbTempPath("badaccessor.gltf"), &def, &r) == lb_errorFileFormat && r == NULL);
	ENSURE(strstr(lbCap.message, "accessor") != NULL);
	lbWriteText(lbTempPath("cut.glb"), "glTF\x02\0\0\0\xff\xff\0\0", 12);
	ENSURE(lbImportRig(lbTempPath("cut.glb"), &def, &r) == lb_errorFileFormat && r == NULL);
	if (lbHaveModels())
	{
		// assimp's own out-of-range index sample.
		lbImportDef loose = lbDefaultImportDef();
		loose.requireHumanoid = false;
		lbResult res = lbImportRig(MODELS "/glTF2/IndexOutOfRange/IndexOutOfRange.gltf", &loose, &r);
		printf("    IndexOutOfRange.gltf: %s\n", lbResultString(res));
		ENSURE(res != lb_ok && r == NULL);
	}

	// BVH: header and data lines disagree -> loads with a warning; garbage -> error.
	lbImportDef loose = lbDefaultImportDef();
	loose.requireHumanoid = false;
	const int cases[3][3] = { { 4, 5, 0 }, { 6, 4, 0 }, { 5, 5, 1 } };
	for (int k = 0; k < 3; ++k)
	{
		const char* text = lbBvhSmall(cases[k][0], cases[k][1], cases[k][2] != 0);
		lbWriteText(lbTempPath("frames.bvh"), text, strlen(text));
		lbResetCapture();
		r = NULL;
		ENSURE(lbImportRig(lbTempPath("frames.bvh"), &loose, &r) == lb_ok);
		ENSURE(lbCap.frameWarnings == 1);
		if (!r)
			continue;
		int expect = cases[k][1] - cases[k][2];
		ENSURE(r->warningCount >= 1 && strstr(r->report, "warnings"));
		ENSURE(r->clipCount == 1);
		// The hips' x travel is 0, 1, 2... file units per frame; the last frame's key sits at the last line.
		const lbClipTrack* hips = NULL;
		for (int t = 0; t < r->clips[0].trackCount; ++t)
		{
			if (r->clips[0].tracks[t].bone == lbSkeleton_FindBone(r->skeleton, "Hips"))
				hips = &r->clips[0].tracks[t];
		}
		ENSURE(hips && hips->positionCount == expect);
		lbDestroyImportedRig(r);
	}
	const char* good = lbBvhSmall(3, 3, false);
	lbWriteText(lbTempPath("ok.bvh"), good, strlen(good));
	lbResetCapture();
	ENSURE(lbImportRig(lbTempPath("ok.bvh"), &loose, &r) == lb_ok && r && r->warningCount == 0 && lbCap.frameWarnings == 0);
	lbDestroyImportedRig(r);
	char broken[4096];
	snprintf(broken, sizeof broken, "%s", lbBvhSmall(3, 3, false));
	char* line = strstr(broken, "1 90 0 0 1");
	if (line)
		memcpy(line, "1 9x", 4);
	lbWriteText(lbTempPath("garbage.bvh"), broken, strlen(broken));
	ENSURE(lbImportRig(lbTempPath("garbage.bvh"), &loose, &r) == lb_errorFileFormat && r == NULL);
	lbWriteText(lbTempPath("nomotion.bvh"), "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n}\n", 38);
	ENSURE(lbImportRig(lbTempPath("nomotion.bvh"), &loose, &r) == lb_errorFileFormat && r == NULL);
	// No temporary copies are left behind.
	ENSURE(lbCap.errors >= 1);
	ENSURE(lbCountImportTempDirs() == tempDirsBefore);
}

// ---------------------------------------------------------------------------------------------
// Units and axes: a Y-up centimetre file and a Z-up metre file give the same skeleton in metres.

static void lbWriteCollada(const char* path, bool zUpMeters)
{
	// Joint positions (Y-up, metres) of a small chain: hips, spine, head, thigh.
	const float joints[4][3] = { { 0.0f, 1.0f, 0.1f }, { 0.0f, 0.3f, -0.02f }, { 0.0f, 0.5f, 0.05f }, { 0.1f, -0.05f, 0.0f } };
	const char* names[4] = { "hips", "spine", "head", "thigh" };
	char nodes[4][256];
	for (int k = 0; k < 4; ++k)
	{
		float x = joints[k][0], y = joints[k][1], z = joints[k][2];
		float s = zUpMeters ? 1.0f : 100.0f;
		// Y-up (x, y, z) is Z-up (x, -z, y).
		float a = x * s, b = zUpMeters ? -z * s : y * s, c = zUpMeters ? y * s : z * s;
		snprintf(nodes[k], sizeof nodes[k], "<node id=\"%s\" sid=\"%s\" name=\"%s\" type=\"JOINT\"><matrix sid=\"transform\">1 0 0 %g 0 1 0 %g 0 0 1 %g 0 0 0 1</matrix>",
				 names[k], names[k], names[k], (double)a, (double)b, (double)c);
	}
	float s = zUpMeters ? 1.0f : 100.0f;
	float hy = zUpMeters ? -0.1f : 1.0f * s, hz = zUpMeters ? 1.0f : 0.1f * s;
	char text[8192];
	snprintf(text, sizeof text,
			 "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
			 "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
			 "<asset><unit name=\"%s\" meter=\"%s\"/><up_axis>%s</up_axis></asset>\n"
			 "<library_animations><animation id=\"move\">"
			 "<source id=\"in\"><float_array id=\"in-a\" count=\"2\">0 1</float_array><technique_common><accessor source=\"#in-a\" count=\"2\" stride=\"1\"><param name=\"TIME\" type=\"float\"/></accessor></technique_common></source>"
			 "<source id=\"out\"><float_array id=\"out-a\" count=\"32\">1 0 0 0 0 1 0 %g 0 0 1 %g 0 0 0 1 1 0 0 0 0 1 0 %g 0 0 1 %g 0 0 0 1</float_array><technique_common><accessor source=\"#out-a\" count=\"2\" stride=\"16\"><param name=\"TRANSFORM\" type=\"float4x4\"/></accessor></technique_common></source>"
			 "<source id=\"ip\"><Name_array id=\"ip-a\" count=\"2\">LINEAR LINEAR</Name_array><technique_common><accessor source=\"#ip-a\" count=\"2\" stride=\"1\"><param name=\"INTERPOLATION\" type=\"name\"/></accessor></technique_common></source>"
			 "<sampler id=\"smp\"><input semantic=\"INPUT\" source=\"#in\"/><input semantic=\"OUTPUT\" source=\"#out\"/><input semantic=\"INTERPOLATION\" source=\"#ip\"/></sampler>"
			 "<channel source=\"#smp\" target=\"hips/transform\"/></animation></library_animations>\n"
			 "<library_visual_scenes><visual_scene id=\"scene\">%s%s%s</node></node>%s</node></node></visual_scene></library_visual_scenes>\n"
			 "<scene><instance_visual_scene url=\"#scene\"/></scene></COLLADA>\n",
			 zUpMeters ? "meter" : "centimeter", zUpMeters ? "1" : "0.01", zUpMeters ? "Z_UP" : "Y_UP", (double)hy, (double)hz,
			 (double)hy, (double)hz, nodes[0], nodes[1], nodes[2], nodes[3]);
	lbWriteText(path, text, strlen(text));
}

static void TestUnitsAndAxes(void)
{
	lbWriteCollada(lbTempPath("yup_cm.dae"), false);
	lbWriteCollada(lbTempPath("zup_m.dae"), true);
	lbResult ra, rb;
	lbImportedRig* a = lbLoad(lbTempPath("yup_cm.dae"), false, &ra);
	lbImportedRig* b = lbLoad(lbTempPath("zup_m.dae"), false, &rb);
	ENSURE(ra == lb_ok && rb == lb_ok && a && b);
	if (a && b)
	{
		printf("    %s\n    %s\n", a->report, b->report);
		ENSURE(a->skeleton->boneCount == b->skeleton->boneCount);
		for (int k = 0; k < a->skeleton->boneCount && k < b->skeleton->boneCount; ++k)
		{
			ENSURE(strcmp(a->skeleton->names[k], b->skeleton->names[k]) == 0);
			// Joint positions agree; joint frames are each file's own (identity in its axes), so they
			// legitimately differ by the axis change and are not compared.
			ENSURE_VEC3_NEAR(a->skeleton->restModel[k].p, b->skeleton->restModel[k].p, 1.0e-4f);
		}
		// Metres, +Z up: the hips 1 m above the origin, the head above the hips.
		int hips = lbSkeleton_FindBone(a->skeleton, "hips"), head = lbSkeleton_FindBone(a->skeleton, "head");
		ENSURE(hips >= 0 && head >= 0);
		if (hips >= 0 && head >= 0)
		{
			ENSURE_NEAR(a->skeleton->restModel[hips].p.z, 1.0f, 1.0e-4f);
			ENSURE_NEAR(a->skeleton->restModel[head].p.z, 1.8f, 1.0e-4f);
		}
		// Clips agree too.
		lbPose pa = lbCreatePose(a->skeleton), pb = lbCreatePose(b->skeleton);
		for (int i = 0; i <= 10; ++i)
		{
			float t = 0.1f * (float)i;
			ENSURE(lbSampleClip(&a->clips[0], a->skeleton, t, lb_clipClamp, &pa) == lb_ok);
			ENSURE(lbSampleClip(&b->clips[0], b->skeleton, t, lb_clipClamp, &pb) == lb_ok);
			for (int k = 0; k < a->skeleton->boneCount; ++k)
				ENSURE_VEC3_NEAR(pa.model[k].p, pb.model[k].p, 1.0e-4f);
		}
		lbDestroyPose(&pa);
		lbDestroyPose(&pb);
	}
	lbDestroyImportedRig(a);
	lbDestroyImportedRig(b);
	// A configured +Y up gives the same skeleton rotated.
	lbImportDef yDef = lbDefaultImportDef();
	yDef.up = lbVec3_axisY;
	yDef.requireHumanoid = false;
	lbImportedRig* c = NULL;
	ENSURE(lbImportRig(lbTempPath("zup_m.dae"), &yDef, &c) == lb_ok && c);
	if (c)
	{
		int head = lbSkeleton_FindBone(c->skeleton, "head");
		ENSURE(head >= 0 && lbAbsF(c->skeleton->restModel[head].p.y - 1.8f) < 1.0e-4f);
		lbDestroyImportedRig(c);
	}
}

// ---------------------------------------------------------------------------------------------
// Export round trip on both reference rigs: re-importing reproduces the poses within 1e-4 m.

static void TestExportRoundTrip(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(s, NULL, &h) == lb_ok);
		const int frames = 24;
		const float fps = 30.0f;
		lbTransform* local = (lbTransform*)malloc(sizeof(lbTransform) * (size_t)(frames * s->boneCount));
		lbTransform* model = (lbTransform*)malloc(sizeof(lbTransform) * (size_t)(frames * s->boneCount));
		lbMotionState st;
		lbMotionState_Init(&st, s, &h, lbTransform_identity);
		lbMotionDef p = lbDefaultMotionDef(lb_motionWalk);
		lbPose pose = lbCreatePose(s);
		for (int f = 0; f < frames; ++f)
		{
			lbMotion_Sample(&st, s, &h, &p, 1.0f / fps, &pose);
			// Carry the travel in the root so the file moves too.
			int root = 0;
			pose.local[root] = lbTransformMul(st.characterWs, pose.local[root]);
			lbPose_LocalToModel(&pose, s);
			memcpy(local + f * s->boneCount, pose.local, sizeof(lbTransform) * (size_t)s->boneCount);
			memcpy(model + f * s->boneCount, pose.model, sizeof(lbTransform) * (size_t)s->boneCount);
		}
		lbExportDef ed = lbDefaultExportDef();
		ed.up = lbReferenceRigUp((lbReferenceRig)rig);
		const char* outs[lb_exportFormatCount] = { "bake.gltf", "bake.glb", "bake.dae" };
		for (int fmt = 0; fmt < lb_exportFormatCount; ++fmt)
		{
			const char* path = lbTempPath(outs[fmt]);
			ENSURE(lbExportFormatFromPath(path) == (lbExportFormat)fmt);
			ENSURE(lbExportClip(path, (lbExportFormat)fmt, s, local, frames, fps, &ed) == lb_ok);
			lbImportDef id = lbDefaultImportDef();
			id.up = ed.up;
			lbImportedRig* r = NULL;
			lbResult res = lbImportRig(path, &id, &r);
			ENSURE(res == lb_ok && r);
			if (!r)
			{
				printf("  %s %s: %s\n", lbReferenceRigName((lbReferenceRig)rig), outs[fmt], lbCap.message);
				continue;
			}
			ENSURE(r->humanoidResult == lb_ok);
			ENSURE(r->clipCount == 1);
			ENSURE_NEAR(r->clips[0].duration, (float)(frames - 1) / fps, 1.0e-4f);
			lbPose back = lbCreatePose(r->skeleton);
			float worst = 0.0f;
			int matched = 0;
			for (int f = 0; f < frames && r->clipCount == 1; ++f)
			{
				lbSampleClip(&r->clips[0], r->skeleton, (float)f / fps, lb_clipClamp, &back);
				for (int b = 0; b < s->boneCount; ++b)
				{
					int rb = lbSkeleton_FindBone(r->skeleton, s->names[b]);
					if (rb < 0)
						continue;
					matched += f == 0;
					worst = lbMaxF(worst, lbDistance(back.model[rb].p, model[f * s->boneCount + b].p));
				}
			}
			printf("    %s -> %s: %d/%d bones matched, worst position error %.2g m\n", lbReferenceRigName((lbReferenceRig)rig),
				   outs[fmt], matched, s->boneCount, (double)worst);
			ENSURE(matched == s->boneCount);
			ENSURE(worst <= 1.0e-4f);
			lbDestroyPose(&back);
			lbDestroyImportedRig(r);
		}
		// Bad export input.
		lbResetCapture();
		ENSURE(lbExportClip(lbTempPath("x.gltf"), lb_exportGltf, s, local, 0, fps, &ed) == lb_errorInvalidArgument);
		ENSURE(lbExportClip(lbTempPath("x.gltf"), lb_exportGltf, s, local, frames, 0.0f, &ed) == lb_errorInvalidArgument);
		ENSURE(lbExportClip(lbTempPath("x.gltf"), lb_exportFormatCount, s, local, frames, fps, &ed) == lb_errorInvalidArgument);
		ENSURE(lbExportClip(NULL, lb_exportGltf, s, local, frames, fps, &ed) == lb_errorNullPointer);
		local[3].q.x = NAN;
		ENSURE(lbExportClip(lbTempPath("x.gltf"), lb_exportGltf, s, local, frames, fps, &ed) == lb_errorNonFinite);
		ENSURE(lbExportClip(lbTempPath("nodir/x.gltf"), lb_exportGltf, s, model, frames, fps, &ed) == lb_errorIo);
		ENSURE(lbExportFormatFromPath("a.fbx") == lb_exportFormatCount);
		lbDestroyPose(&pose);
		free(local);
		free(model);
		lbDestroySkeleton(s);
	}
}

// Removes the test's directory and every file in it (the tests write files only, no
// subdirectories): a fixed list of names left the files it missed behind after every run.
static void lbRemoveTree(const char* dir)
{
	DIR* d = opendir(dir);
	if (d)
	{
		struct dirent* e;
		while ((e = readdir(d)) != NULL)
		{
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			char p[1024];
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			remove(p);
		}
		closedir(d);
	}
	if (rmdir(dir) != 0)
		printf("    could not remove %s\n", dir);
}

// Formats beyond the first six: every assimp format that carries a skeleton is accepted and loads
// its bones; an extension without one is refused with the list of those that work.
static void TestMoreFormats(void)
{
	if (!lbHaveModels())
		return;
	const char* files[] = { MODELS "/IQM/mrfixit.iqm", MODELS "/B3D/WusonBlitz.b3d", MODELS "/MS3D/Wuson.ms3d",
							MODELS "/MD5/SimpleCube.md5mesh", MODELS "/ASE/MotionCaptureROM.ase" };
	const char* formats[] = { "iqm", "b3d", "ms3d", "md5", "ase" };
	for (int k = 0; k < 5; ++k)
	{
		struct stat st;
		if (stat(files[k], &st) != 0)
			continue;
		lbImportDef d = lbDefaultImportDef();
		d.requireHumanoid = false;
		lbImportedRig* r = NULL;
		lbResetCapture();
		lbResult res = lbImportRig(files[k], &d, &r);
		printf("    %s: %s: %s\n", files[k] + strlen(MODELS) + 1, lbResultString(res), r ? r->report : lbCap.message);
		ENSURE(res != lb_errorUnsupported);
		ENSURE(res == lb_ok || res == lb_errorNoSkeleton);
		if (r)
		{
			ENSURE(strcmp(r->format, formats[k]) == 0);
			ENSURE(r->skeleton && r->skeleton->boneCount >= 1);
		}
		lbDestroyImportedRig(r);
	}
	lbResetCapture();
	lbImportedRig* r = NULL;
	ENSURE(lbImportRig(MODELS "/OBJ/box.obj", NULL, &r) == lb_errorUnsupported && r == NULL);
	ENSURE(strstr(lbCap.message, "box.obj") && strstr(lbCap.message, ".iqm") && strstr(lbCap.message, "skeleton"));
}

// A foot's toe tip against the end its rig records for the ball bone: the tip lies on the sole,
// level with the end along the toes (within a millimetre), at rest and with the toes bent up and
// down at the ball. Returns the toe tip's distance ahead of the point under the ankle in
// ankle-to-ball lengths.
static float lbCheckToeTipAtEnd(const lbImportedRig* r, int side)
{
	const lbSkeleton* s = r->skeleton;
	const lbHumanoid* h = &r->humanoid;
	const int ball = h->leg[side].ball, foot = h->leg[side].foot;
	lbVec3 end;
	ENSURE(ball >= 0 && lbSkeleton_GetBoneEnd(s, ball, &end));
	if (ball < 0 || !s->ends)
		return 0.0f;
	const lbSole sole = lbHumanoid_GetSole(h, side);
	const lbVec3 toeMs = lbQuatRotate(s->restModel[foot].q, sole.toeFlat);
	lbPose pose = lbCreatePose(s);
	lbVec3 pts[lb_solePointCount];
	const float bends[3] = { 0.0f, -0.6f, 0.4f };
	for (int k = 0; k < 3; ++k)
	{
		lbPose_SetRest(&pose, s);
		const lbQuat bend = lbQuatFromAxisAngle(h->leftMs, bends[k]);
		lbPose_SetBoneModelRotation(&pose, s, ball, lbQuatMul(bend, pose.model[ball].q), true);
		lbHumanoid_GetSolePointsMs(h, &pose, side, pts);
		const lbVec3 endPosed = lbTransformPoint(pose.model[ball], s->ends[ball]);
		ENSURE_NEAR(lbDot(lbSub(pts[lb_soleToeTip], endPosed), lbQuatRotate(bend, toeMs)), 0.0f, 1.0e-3f);
		if (k == 0)
			ENSURE_NEAR(lbDot(lbSub(pts[lb_soleToeTip], s->restModel[foot].p), h->upMs), -h->legAxes[side].ankleHeight, 1.0e-4f);
	}
	lbDestroyPose(&pose);
	return sole.along[lb_soleToeTip] / sole.along[lb_soleBall];
}

// Toe ends from the files: the importer keeps a leaf node past a bone (the Biped's Zeh0Nub, a BVH
// End Site) as that bone's end, not as a bone (the bone counts are what they were), at the file's
// offset; the humanoid map takes each toe tip from the ball's end. The Biped's made-up tip (1.4
// ankle-to-ball lengths) overshot its toes by about 5 cm. BCN_Epileptic has no end under its toes
// and keeps 1.4.
static void TestToeEndsFromFiles(void)
{
	if (!lbHaveModels())
	{
		printf("  assimp test models missing; skipped\n");
		return;
	}
	struct stat st;
	static const struct
	{
		const char* file;
		int bones;
		const char* ball[2];
		float offset[2]; // each end's distance from its ball joint in the file (file units)
	} cases[] = {
		{ MODELS "/ASE/MotionCaptureROM.ase", 25, { "Bip01 L Zeh0", "Bip01 R Zeh0" }, { 2.70211f, 2.70225f } },
		{ MODELS "/BVH/01_01.bvh", 31, { "LeftToeBase", "RightToeBase" }, { 1.18966f, 1.21082f } },
		{ MODELS "/BVH/Boxing_Toes.bvh", 21, { "LeftToes", "RightToes" }, { 10.0f, 10.0f } },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c)
	{
		if (stat(cases[c].file, &st) != 0)
			continue;
		lbImportDef def = lbDefaultImportDef();
		if (strstr(cases[c].file, ".ase"))
			lbSetBipedRoles(&def);
		lbImportedRig* r = NULL;
		lbResetCapture();
		ENSURE(lbImportRig(cases[c].file, &def, &r) == lb_ok && r);
		if (!r)
			continue;
		const lbSkeleton* s = r->skeleton;
		ENSURE(s->boneCount == cases[c].bones);
		ENSURE(lbSkeleton_FindBone(s, "Bip01 L Zeh0Nub") < 0 && lbSkeleton_FindBone(s, "EndSite_LeftToes") < 0);
		for (int side = 0; side < 2; ++side)
		{
			const int ball = r->humanoid.leg[side].ball;
			ENSURE(ball == lbSkeleton_FindBone(s, cases[c].ball[side]));
			lbVec3 end;
			ENSURE(ball >= 0 && lbSkeleton_GetBoneEnd(s, ball, &end));
			if (ball < 0)
				continue;
			ENSURE_NEAR(lbDistance(end, s->restModel[ball].p), cases[c].offset[side] * r->unitScale, 1.0e-5f);
			const float tip = lbCheckToeTipAtEnd(r, side);
			const float len = r->humanoid.legAxes[side].footLength;
			printf("    %s %s: toe end %.3f ankle-to-ball lengths ahead (%.1f mm %s 1.4)\n", cases[c].file + strlen(MODELS) + 1,
				   side ? "right" : "left", (double)tip, (double)(1000.0f * lbAbsF(tip - 1.4f) * len), tip < 1.4f ? "short of" : "past");
			ENSURE(tip > 1.05f && tip < 2.0f);
			ENSURE_NEAR(r->humanoid.legAxes[side].toeTipLength, tip * len, 1.0e-5f);
			if (c == 0)
				ENSURE((1.4f - tip) * len > 0.04f && (1.4f - tip) * len < 0.06f);
		}
		ENSURE(lbCap.warnings == 0 || strstr(lbCap.message, "toe end") == NULL);
		lbDestroyImportedRig(r);
	}
	// No end under the toes: 1.4 lengths as before.
	lbImportDef def = lbDefaultImportDef();
	lbSetBcnRoles(&def);
	lbImportedRig* r = NULL;
	ENSURE(lbImportRig(MODELS "/X/BCN_Epileptic.X", &def, &r) == lb_ok && r);
	for (int side = 0; r && side < 2; ++side)
	{
		ENSURE(!lbSkeleton_GetBoneEnd(r->skeleton, r->humanoid.leg[side].ball, NULL));
		ENSURE(r->humanoid.legAxes[side].toeTipLength == 0.0f);
		ENSURE(lbHumanoid_GetSole(&r->humanoid, side).along[lb_soleToeTip] == 1.4f * r->humanoid.legAxes[side].footLength);
	}
	lbDestroyImportedRig(r);
}

// Boxing_Toes.bvh with its left toes' End Site offset replaced by `offset` (text), written to `name`.
static const char* lbBoxingWithToeEnd(const char* name, const char* offset)
{
	size_t size = 0;
	char* text = lbTestReadFile(MODELS "/BVH/Boxing_Toes.bvh", &size);
	if (!text)
		return NULL;
	const char* joint = strstr(text, "JOINT LeftToes");
	char* line = joint ? strstr(strstr(joint, "End Site"), "OFFSET") : NULL;
	const char* path = lbTempPath(name);
	FILE* f = line ? fopen(path, "wb") : NULL;
	if (f)
	{
		fwrite(text, 1, (size_t)(line - text), f);
		fprintf(f, "OFFSET %s", offset);
		const char* rest = strchr(line, '\n');
		fwrite(rest, 1, size - (size_t)(rest - text), f);
		fclose(f);
	}
	free(text);
	return f ? path : NULL;
}

// Boxing_Toes.bvh without its toe joints, written to `name`: each toes joint becomes an End Site
// of the ankle at the toes' end (the joint's offset plus its own End Site's), and its three
// channels leave every motion line. NULL when the file is not as expected.
static const char* lbBoxingWithoutToes(const char* name)
{
	size_t size = 0;
	char* text = lbTestReadFile(MODELS "/BVH/Boxing_Toes.bvh", &size);
	char* motion = text ? strstr(text, "MOTION") : NULL;
	const char* path = lbTempPath(name);
	FILE* f = motion ? fopen(path, "wb") : NULL;
	if (!f)
	{
		free(text);
		return NULL;
	}
	// The hierarchy: copied up to each toes joint, which is replaced; channels counted on the way.
	int skip[2], skipped = 0, channels = 0;
	const char* at = text;
	for (const char* joint; (joint = strstr(at, "JOINT ")) != NULL && joint < motion;)
	{
		const char* next = strstr(joint + 1, "JOINT ");
		const char* stop = next && next < motion ? next : motion;
		for (const char* c = at; (c = strstr(c, "CHANNELS ")) != NULL && c < joint; ++c)
			channels += atoi(c + 9);
		const char* eol = strchr(joint, '\n');
		const bool toes = eol && (size_t)(eol - joint) < 64 && strstr(joint, "Toes") && strstr(joint, "Toes") < eol;
		if (!toes || skipped == 2)
		{
			fwrite(at, 1, (size_t)(joint + 6 - at), f);
			at = joint + 6;
			continue;
		}
		float o[3], e[3];
		const char* off = strstr(joint, "OFFSET");
		const char* end = off ? strstr(off + 6, "OFFSET") : NULL;
		if (!end || end > stop || sscanf(off + 6, "%f %f %f", &o[0], &o[1], &o[2]) != 3 ||
			sscanf(end + 6, "%f %f %f", &e[0], &e[1], &e[2]) != 3)
			break;
		fwrite(at, 1, (size_t)(joint - at), f);
		fprintf(f, "End Site\n{\nOFFSET %f %f %f\n}\n", o[0] + e[0], o[1] + e[1], o[2] + e[2]);
		skip[skipped++] = channels;
		channels += 3;
		// Past the joint's block: its End Site's closing brace, then its own.
		const char* close = strchr(strchr(end, '}') + 1, '}');
		at = close + 1;
	}
	fwrite(at, 1, (size_t)(motion - at), f);
	// The motion: the header lines as they are, then each line without the skipped columns.
	const char* line = motion;
	for (int k = 0; k < 3 && line; ++k)
	{
		const char* eol = strchr(line, '\n');
		fwrite(line, 1, eol ? (size_t)(eol + 1 - line) : strlen(line), f);
		line = eol ? eol + 1 : NULL;
	}
	while (line && *line)
	{
		int column = 0;
		char* cur = (char*)line;
		for (;;)
		{
			while (*cur == ' ' || *cur == '\t')
				++cur;
			if (*cur == '\n' || *cur == '\r' || *cur == 0)
				break;
			char* tok = cur;
			while (*cur && *cur != ' ' && *cur != '\t' && *cur != '\n' && *cur != '\r')
				++cur;
			const bool drop = skipped == 2 && ((column >= skip[0] && column < skip[0] + 3) || (column >= skip[1] && column < skip[1] + 3));
			if (!drop)
				fprintf(f, "%.*s ", (int)(cur - tok), tok);
			++column;
		}
		fputc('\n', f);
		const char* eol = strchr(cur, '\n');
		line = eol ? eol + 1 : NULL;
	}
	fclose(f);
	free(text);
	return skipped == 2 ? path : NULL;
}

// A file whose feet have no toe joints (a BVH foot ending in an End Site): the importer keeps the
// End Site as the foot's end, and the map takes the toe tip from it, as far ahead as the toes'
// end of the file it was made from.
static void TestToeTipWithoutToeJoints(void)
{
	if (!lbHaveModels())
		return;
	const char* bare = lbBoxingWithoutToes("no_toes.bvh");
	ENSURE(bare != NULL);
	lbImportedRig* toes = NULL;
	lbImportedRig* r = NULL;
	ENSURE(lbImportRig(MODELS "/BVH/Boxing_Toes.bvh", NULL, &toes) == lb_ok && toes);
	ENSURE(bare && lbImportRig(bare, NULL, &r) == lb_ok && r);
	if (r && toes)
	{
		ENSURE(r->skeleton->boneCount == toes->skeleton->boneCount - 2);
		for (int side = 0; side < 2; ++side)
		{
			const lbHumanoid* h = &r->humanoid;
			ENSURE(h->leg[side].ball == LB_NULL_INDEX && h->legAxes[side].footLength == 0.0f);
			ENSURE(lbSkeleton_GetBoneEnd(r->skeleton, h->leg[side].foot, NULL));
			// The toes' end of the file with toes lies 25 cm ahead of the ankle: so does this tip.
			ENSURE_NEAR(h->legAxes[side].toeTipLength, toes->humanoid.legAxes[side].toeTipLength, 2.0e-3f);
			ENSURE_NEAR(h->legAxes[side].toeTipLength, 0.25f, 5.0e-3f);
			ENSURE(lbHumanoid_GetSole(h, side).along[lb_soleToeTip] == h->legAxes[side].toeTipLength);
		}
	}
	lbDestroyImportedRig(r);
	lbDestroyImportedRig(toes);
}

// Bad toe ends in a file: one absurdly far ahead is clamped to 2.0 ankle-to-ball lengths with a
// warning naming the side and where the end came from; one that overflows with the unit is
// refused, naming the end node and its bone.
static void TestBadToeEnds(void)
{
	if (!lbHaveModels())
		return;
	const char* far = lbBoxingWithToeEnd("toe_far.bvh", "0 0 1000");
	ENSURE(far != NULL);
	if (!far)
		return;
	lbImportedRig* r = NULL;
	lbResetCapture();
	ENSURE(lbImportRig(far, NULL, &r) == lb_ok && r);
	if (r)
	{
		ENSURE(strstr(lbCap.message, "left toe end") && strstr(lbCap.message, "LeftToes") && strstr(lbCap.message, "1.05-2.0"));
		printf("    %s\n", lbCap.message);
		ENSURE_NEAR(r->humanoid.legAxes[0].toeTipLength, 2.0f * r->humanoid.legAxes[0].footLength, 1.0e-6f);
		ENSURE(r->humanoid.legAxes[1].toeTipLength > 1.05f * r->humanoid.legAxes[1].footLength &&
			   r->humanoid.legAxes[1].toeTipLength < 2.0f * r->humanoid.legAxes[1].footLength);
	}
	lbDestroyImportedRig(r);
	const char* huge = lbBoxingWithToeEnd("toe_huge.bvh", "0 0 1e37");
	lbImportDef def = lbDefaultImportDef();
	def.unitScale = 100.0f;
	r = NULL;
	lbResetCapture();
	ENSURE(huge && lbImportRig(huge, &def, &r) == lb_errorFileFormat && r == NULL);
	ENSURE(strstr(lbCap.message, "EndSite_LeftToes") && strstr(lbCap.message, "'LeftToes'") && strstr(lbCap.message, "not finite"));
	printf("    %s\n", lbCap.message);
	// The isolated parser gives the same answer.
	def.isolate = true;
	lbResetCapture();
	ENSURE(huge && lbImportRig(huge, &def, &r) == lb_errorFileFormat && r == NULL);
	ENSURE(strstr(lbCap.message, "EndSite_LeftToes") != NULL);
}

// Bone ends survive a bake: each is written as a leaf node past its bone ("Bip01 L Zeh0_end"), so
// the Biped baked and imported again keeps its toe tips. glTF reads the node back as the bone's
// end; assimp's Collada reader binds every node of a file without meshes to a skeleton mesh, so
// there the node comes back as a bone of its own, which the humanoid map takes as the toe end.
// Isolated import keeps the ends too.
static void TestToeEndsSurviveBake(void)
{
	struct stat st;
	if (!lbHaveModels() || stat(MODELS "/ASE/MotionCaptureROM.ase", &st) != 0)
		return;
	lbImportDef def = lbDefaultImportDef();
	lbSetBipedRoles(&def);
	lbImportedRig* r = NULL;
	ENSURE(lbImportRig(MODELS "/ASE/MotionCaptureROM.ase", &def, &r) == lb_ok && r);
	if (!r)
		return;
	const lbSkeleton* s = r->skeleton;
	def.isolate = true;
	lbImportedRig* iso = NULL;
	ENSURE(lbImportRig(MODELS "/ASE/MotionCaptureROM.ase", &def, &iso) == lb_ok && iso);
	if (iso)
	{
		ENSURE(iso->skeleton->ends && memcmp(iso->skeleton->ends, s->ends, sizeof(lbVec3) * (size_t)s->boneCount) == 0);
		ENSURE(memcmp(&iso->humanoid, &r->humanoid, sizeof r->humanoid) == 0);
	}
	lbDestroyImportedRig(iso);
	def.isolate = false;
	lbTransform frames[2 * 64];
	for (int f = 0; f < 2; ++f)
		memcpy(frames + f * s->boneCount, s->restLocal, sizeof(lbTransform) * (size_t)s->boneCount);
	lbExportDef ed = lbDefaultExportDef();
	const char* outs[lb_exportFormatCount] = { "biped.gltf", "biped.glb", "biped.dae" };
	for (int fmt = 0; fmt < lb_exportFormatCount; ++fmt)
	{
		const char* path = lbTempPath(outs[fmt]);
		ENSURE(lbExportClip(path, (lbExportFormat)fmt, s, frames, 2, 30.0f, &ed) == lb_ok);
		lbImportedRig* back = NULL;
		ENSURE(lbImportRig(path, &def, &back) == lb_ok && back);
		if (!back)
			continue;
		const bool collada = fmt == lb_exportCollada;
		int ends = 0;
		for (int b = 0; b < s->boneCount; ++b)
		{
			lbVec3 want, got = lbVec3_zero;
			if (!lbSkeleton_GetBoneEnd(s, b, &want))
				continue;
			++ends;
			char endName[LB_MAX_NAME + 8];
			snprintf(endName, sizeof endName, "%s_end", s->names[b]);
			const int bb = lbSkeleton_FindBone(back->skeleton, s->names[b]), eb = lbSkeleton_FindBone(back->skeleton, endName);
			ENSURE(bb >= 0 && (collada ? eb >= 0 && back->skeleton->parents[eb] == bb : lbSkeleton_GetBoneEnd(back->skeleton, bb, &got)));
			if (collada && eb >= 0)
				got = back->skeleton->restModel[eb].p;
			ENSURE_VEC3_NEAR(got, want, 1.0e-4f);
		}
		ENSURE(ends == 3); // both toes and the head
		ENSURE(back->skeleton->boneCount == s->boneCount + (collada ? ends : 0));
		for (int side = 0; side < 2; ++side)
			ENSURE_NEAR(back->humanoid.legAxes[side].toeTipLength, r->humanoid.legAxes[side].toeTipLength, 1.0e-4f);
		lbDestroyImportedRig(back);
	}
	lbDestroyImportedRig(r);
}

// A rig that comes in far taller or shorter than a human warns with the height, the unit used and
// the fix.
static void TestImplausibleHeightWarns(void)
{
	if (!lbHaveModels())
		return;
	lbImportDef d = lbDefaultImportDef();
	lbImportedRig* r = NULL;
	lbResetCapture();
	ENSURE(lbImportRig(MODELS "/BVH/01_01.bvh", &d, &r) == lb_ok && r);
	ENSURE(r && !strstr(r->report, "tall with"));
	int before = r ? r->warningCount : 0;
	lbDestroyImportedRig(r);
	const float units[2] = { 2.5f, 0.001f };
	for (int k = 0; k < 2; ++k)
	{
		d.unitScale = units[k];
		lbResetCapture();
		r = NULL;
		ENSURE(lbImportRig(MODELS "/BVH/01_01.bvh", &d, &r) == lb_ok && r);
		ENSURE(r && r->warningCount == before + 1);
		ENSURE(strstr(lbCap.message, "01_01.bvh") && strstr(lbCap.message, "m tall") && strstr(lbCap.message, "unitScale"));
		ENSURE(r && strstr(r->report, "unitScale"));
		printf("    %s\n", lbCap.message);
		lbDestroyImportedRig(r);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	snprintf(lbTempDir, sizeof lbTempDir, "%s/limber-test-import-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(lbTempDir))
	{
		printf("cannot create a temporary directory\n");
		return 1;
	}
	// The importer's corrected copies go under this test's own directory, so counting them is
	// not disturbed by other processes importing at the same time.
	setenv("TMPDIR", lbTempDir, 1);
	lbSetLogFcn(lbCaptureLog, NULL);
	RUN_TEST(TestImportEachFormat);
	RUN_TEST(TestImporterLog);
	RUN_TEST(TestImportExplicitRoleMap);
	RUN_TEST(TestBipedInInches);
	RUN_TEST(TestUnitGuessedFromSpan);
	RUN_TEST(TestCmuClipWithRootMotion);
	RUN_TEST(TestJointNamedBvh);
	RUN_TEST(TestLeadInPose);
	RUN_TEST(TestProceduralOnImportedRigs);
	RUN_TEST(TestBadFiles);
	RUN_TEST(TestUnitsAndAxes);
	RUN_TEST(TestExportRoundTrip);
	RUN_TEST(TestMoreFormats);
	RUN_TEST(TestImplausibleHeightWarns);
	RUN_TEST(TestToeEndsFromFiles);
	RUN_TEST(TestBadToeEnds);
	RUN_TEST(TestToeTipWithoutToeJoints);
	RUN_TEST(TestToeEndsSurviveBake);
	lbSetLogFcn(NULL, NULL);
	lbRemoveTree(lbTempDir);
	TEST_MAIN_END();
}
