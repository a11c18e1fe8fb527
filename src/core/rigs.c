// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The two built-in reference rigs. Both share one body, laid out in a canonical frame (lateral
// toward the character's left, forward, up; meters, soles at 0), and differ in everything a rig
// can differ in: names, model up axis, facing, local bone axes, mirroring, A- versus T-pose,
// bent versus straight rest limbs, and twist bones.
#include "limber/rigs.h"

#include <stdio.h>
#include <string.h>

typedef struct lbRigJoint
{
	const char* name;   // base name; sides get a suffix or prefix per rig
	const char* parent; // base name of the parent, NULL for the first bone
	int sided;          // 1 = one per side (canonical position is the left one)
	float l, f, u;      // canonical joint position (m)
	int toward;         // index of the joint the bone points at, -1 = use `dir`
	float dl, df, du;   // along-bone direction for leaf bones (canonical)
} lbRigJoint;

enum
{
	J_ROOT,
	J_PELVIS,
	J_SPINE1,
	J_SPINE2,
	J_SPINE3,
	J_NECK,
	J_HEAD,
	J_CLAV,
	J_UPPERARM,
	J_LOWERARM,
	J_TWIST2,
	J_TWIST1,
	J_HAND,
	J_THIGH,
	J_CALF,
	J_FOOT,
	J_BALL,
	J_COUNT
};

static void lbRigCanonical(lbReferenceRig rig, lbRigJoint* j)
{
	const bool apose = rig == lb_rigMannequin;
	// clang-format off
	const lbRigJoint base[J_COUNT] = {
		[J_ROOT]     = { "root",      NULL,       0, 0.0f,  0.0f,   0.0f,  J_PELVIS, 0, 0, 0 },
		[J_PELVIS]   = { "pelvis",    "root",     0, 0.0f,  0.0f,   0.98f, J_SPINE1, 0, 0, 0 },
		[J_SPINE1]   = { "spine1",    "pelvis",   0, 0.0f, -0.01f,  1.05f, J_SPINE2, 0, 0, 0 },
		[J_SPINE2]   = { "spine2",    "spine1",   0, 0.0f, -0.015f, 1.17f, J_SPINE3, 0, 0, 0 },
		[J_SPINE3]   = { "spine3",    "spine2",   0, 0.0f, -0.01f,  1.30f, J_NECK,   0, 0, 0 },
		[J_NECK]     = { "neck",      "spine3",   0, 0.0f,  0.0f,   1.49f, J_HEAD,   0, 0, 0 },
		[J_HEAD]     = { "head",      "neck",     0, 0.0f,  0.01f,  1.59f, -1,       0, 0.05f, 1 },
		[J_CLAV]     = { "clavicle",  "spine3",   1, 0.03f, 0.0f,   1.44f, J_UPPERARM, 0, 0, 0 },
		[J_UPPERARM] = { "upperarm",  "clavicle", 1, 0.17f, -0.01f, 1.45f, J_LOWERARM, 0, 0, 0 },
		[J_LOWERARM] = { "lowerarm",  "upperarm", 1, 0, 0, 0,               J_HAND,     0, 0, 0 },
		[J_TWIST2]   = { "twist2",    "lowerarm", 1, 0, 0, 0,               J_HAND,     0, 0, 0 },
		[J_TWIST1]   = { "twist1",    "lowerarm", 1, 0, 0, 0,               J_HAND,     0, 0, 0 },
		[J_HAND]     = { "hand",      "lowerarm", 1, 0, 0, 0,               -1,         0, 0, 0 },
		[J_THIGH]    = { "thigh",     "pelvis",   1, 0.09f, 0.0f,   0.93f, J_CALF, 0, 0, 0 },
		[J_CALF]     = { "calf",      "thigh",    1, 0.09f, 0.0f,   0.50f, J_FOOT, 0, 0, 0 },
		[J_FOOT]     = { "foot",      "calf",     1, 0.09f, 0.0f,   0.09f, J_BALL, 0, 0, 0 },
		[J_BALL]     = { "ball",      "foot",     1, 0.09f, 0.125f, 0.025f, -1,    0, 1, 0 },
	};
	// clang-format on
	memcpy(j, base, sizeof base);
	lbVec3 shoulder = { j[J_UPPERARM].l, j[J_UPPERARM].f, j[J_UPPERARM].u };
	lbVec3 upperDir, foreDir;
	if (apose)
	{
		// A-pose, elbow slightly back and forearm slightly forward: a rest bend to derive from.
		upperDir = lbNormalize(lbMakeVec3(0.70f, -0.03f, -0.70f));
		foreDir = lbNormalize(lbMakeVec3(0.66f, 0.12f, -0.74f));
		// A slightly bent knee (forward) as real rigs often have.
		j[J_CALF].f = 0.012f;
		j[J_FOOT].f = -0.015f;
	}
	else
	{
		// T-pose with straight arms and legs: bend axes must come from the character's forward.
		upperDir = lbVec3_axisX;
		foreDir = lbVec3_axisX;
	}
	lbVec3 elbow = lbMulAdd(shoulder, 0.29f, upperDir);
	lbVec3 wrist = lbMulAdd(elbow, 0.26f, foreDir);
	lbVec3 t2 = lbLerp(elbow, wrist, 1.0f / 3.0f), t1 = lbLerp(elbow, wrist, 2.0f / 3.0f);
	j[J_LOWERARM].l = elbow.x, j[J_LOWERARM].f = elbow.y, j[J_LOWERARM].u = elbow.z;
	j[J_TWIST2].l = t2.x, j[J_TWIST2].f = t2.y, j[J_TWIST2].u = t2.z;
	j[J_TWIST1].l = t1.x, j[J_TWIST1].f = t1.y, j[J_TWIST1].u = t1.z;
	j[J_HAND].l = wrist.x, j[J_HAND].f = wrist.y, j[J_HAND].u = wrist.z;
	j[J_HAND].dl = foreDir.x, j[J_HAND].df = foreDir.y, j[J_HAND].du = foreDir.z;
}

static const char* lbMannequinName(int joint, int side, char* buf, size_t size)
{
	static const char* const names[J_COUNT] = { "root",      "pelvis",   "spine_01",           "spine_02",
												"spine_03",  "neck_01",  "head",               "clavicle",
												"upperarm",  "lowerarm", "lowerarm_twist_02", "lowerarm_twist_01",
												"hand",      "thigh",    "calf",               "foot",
												"ball" };
	if (side < 0)
		snprintf(buf, size, "%s", names[joint]);
	else
		snprintf(buf, size, "%s_%c", names[joint], side == 0 ? 'l' : 'r');
	return buf;
}

static const char* lbMixamoName(int joint, int side, char* buf, size_t size)
{
	static const char* const names[J_COUNT] = { NULL,       "Hips",    "Spine",   "Spine1",  "Spine2", "Neck",
												"Head",     "Shoulder", "Arm",    "ForeArm", NULL,     NULL,
												"Hand",     "UpLeg",   "Leg",     "Foot",    "ToeBase" };
	if (side < 0)
		snprintf(buf, size, "mixamorig:%s", names[joint]);
	else
		snprintf(buf, size, "mixamorig:%s%s", side == 0 ? "Left" : "Right", names[joint]);
	return buf;
}

const char* lbReferenceRigName(lbReferenceRig rig)
{
	switch (rig)
	{
		case lb_rigMannequin:
			return "mannequin";
		case lb_rigMixamo:
			return "mixamo";
		default:
			return NULL;
	}
}

lbReferenceRig lbFindReferenceRig(const char* name)
{
	for (int r = 0; r < lb_rigCount; ++r)
	{
		if (name && strcmp(name, lbReferenceRigName((lbReferenceRig)r)) == 0)
			return (lbReferenceRig)r;
	}
	return lb_rigCount;
}

lbVec3 lbReferenceRigUp(lbReferenceRig rig)
{
	return rig == lb_rigMixamo ? lbVec3_axisY : lbVec3_axisZ;
}

// Canonical (lateral, forward, up) to model space, per rig.
static lbVec3 lbRigToModel(lbReferenceRig rig, float l, float f, float u)
{
	if (rig == lb_rigMixamo)
		return lbMakeVec3(l, u, f); // left +X, up +Y, forward +Z
	return lbMakeVec3(l, -f, u);    // left +X, forward -Y, up +Z
}

lbSkeleton* lbCreateReferenceRig(lbReferenceRig rig)
{
	if (rig != lb_rigMannequin && rig != lb_rigMixamo)
	{
		lbReport(lb_errorInvalidArgument, "lbCreateReferenceRig: unknown rig %d", (int)rig);
		return NULL;
	}
	lbRigJoint j[J_COUNT];
	lbRigCanonical(rig, j);
	const bool mixamo = rig == lb_rigMixamo;
	lbVec3 up = lbRigToModel(rig, 0, 0, 1), fwd = lbRigToModel(rig, 0, 1, 0);

	enum { MAXB = 2 * J_COUNT };
	char nameBuf[MAXB][LB_MAX_NAME];
	const char* names[MAXB];
	int parents[MAXB];
	lbTransform model[MAXB], local[MAXB];
	int index[J_COUNT][2];
	int n = 0;
	for (int k = 0; k < J_COUNT; ++k)
	{
		index[k][0] = index[k][1] = LB_NULL_INDEX;
		bool skip = mixamo && (k == J_ROOT || k == J_TWIST1 || k == J_TWIST2);
		if (skip)
			continue;
		int sides = j[k].sided ? 2 : 1;
		for (int s = 0; s < sides; ++s)
		{
			int side = j[k].sided ? s : -1;
			float mirror = s == 1 ? -1.0f : 1.0f;
			if (mixamo)
				lbMixamoName(k, side, nameBuf[n], LB_MAX_NAME);
			else
				lbMannequinName(k, side, nameBuf[n], LB_MAX_NAME);
			names[n] = nameBuf[n];
			// Parent: same side if sided, else the single bone. Mixamo has no root.
			int pk = LB_NULL_INDEX;
			for (int q = 0; q < J_COUNT && j[k].parent; ++q)
			{
				if (strcmp(j[q].name, j[k].parent) == 0)
					pk = q;
			}
			int parent = LB_NULL_INDEX;
			if (pk != LB_NULL_INDEX)
				parent = j[pk].sided ? index[pk][s] : index[pk][0];
			parents[n] = parent;
			lbVec3 pos = lbRigToModel(rig, mirror * j[k].l, j[k].f, j[k].u);
			lbVec3 along;
			if (j[k].toward >= 0)
			{
				const lbRigJoint* t = &j[j[k].toward];
				along = lbSub(lbRigToModel(rig, mirror * t->l, t->f, t->u), pos);
			}
			else
			{
				along = lbRigToModel(rig, mirror * j[k].dl, j[k].df, j[k].du);
			}
			along = lbNormalizeOr(along, up);
			// Secondary axis: the character's forward, or up when the bone itself points forward.
			lbVec3 hint = lbAbsF(lbDot(along, fwd)) > 0.8f ? up : fwd;
			lbQuat q;
			if (mixamo)
				q = lbQuatFromTwoAxes(lbVec3_axisY, along, lbVec3_axisZ, hint);
			else if (s == 1)
				q = lbQuatFromTwoAxes(lbMakeVec3(-1, 0, 0), along, lbMakeVec3(0, -1, 0), hint); // mirrored
			else
				q = lbQuatFromTwoAxes(lbVec3_axisX, along, lbVec3_axisY, hint);
			model[n] = lbMakeTransform(pos, q);
			local[n] = parent == LB_NULL_INDEX ? model[n] : lbTransformRelative(model[parent], model[n]);
			index[k][s] = n;
			++n;
		}
	}
	lbSkeletonDef def = lbDefaultSkeletonDef();
	def.boneCount = n;
	def.names = names;
	def.parents = parents;
	def.restLocal = local;
	return lbCreateSkeleton(&def, NULL);
}
