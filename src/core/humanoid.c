// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Humanoid role mapping by name patterns and derivation of anatomical axes from the rest pose.
#include "limber/humanoid.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char* const lbRoleNames[lb_roleCount] = {
	"root",     "pelvis",   "spine1",  "spine2",  "spine3",  "spine4",  "neck",   "head",
	"clavicle_l", "upperarm_l", "forearm_l", "twist1_l", "twist2_l", "twist3_l", "hand_l", "thigh_l",
	"calf_l",   "foot_l",   "ball_l",  "clavicle_r", "upperarm_r", "forearm_r", "twist1_r", "twist2_r",
	"twist3_r", "hand_r",   "thigh_r", "calf_r",  "foot_r",  "ball_r",
};

const char* lbRoleName(lbRole role)
{
	if ((int)role < 0 || role >= lb_roleCount)
		return "unknown";
	return lbRoleNames[role];
}

lbHumanoidDef lbDefaultHumanoidDef(void)
{
	lbHumanoidDef def;
	memset(&def, 0, sizeof def);
	def.ankleHeight = -1.0f;
	def.toeTipLength = -1.0f;
	def.internalValue = LB_SECRET_COOKIE;
	return def;
}

// ---------------------------------------------------------------------------------------------
// Name patterns

typedef enum lbPart
{
	lb_partNone,
	lb_partRoot,
	lb_partPelvis,
	lb_partNeck,
	lb_partHead,
	lb_partClavicle,
	lb_partUpperArm,
	lb_partForeArm,
	lb_partTwist,
	lb_partHand,
	lb_partThigh,
	lb_partCalf,
	lb_partFoot,
	lb_partBall,
	// Named after the joint at the bone's start ("LeftHip", "LeftElbow"), as motion-capture
	// exports often are: the thigh and the forearm, used only where no bone carries the limb's own
	// name (a rig may also have a small "hip" or "elbow" helper beside its thigh or forearm).
	lb_partHipJoint,
	lb_partElbowJoint,
} lbPart;

typedef struct lbNameInfo
{
	lbPart part;
	int side; // -1 none, 0 left, 1 right
} lbNameInfo;

// Splits a bone name (after any "namespace:" prefix) into at most 16 lower-case tokens at
// separators and camel-case humps; returns how many.
static int lbTokenizeName(const char* name, char tokens[16][LB_MAX_NAME])
{
	const char* colon = strrchr(name, ':');
	if (colon)
		name = colon + 1;
	int count = 0;
	size_t len = strlen(name);
	size_t i = 0;
	while (i < len && count < 16)
	{
		while (i < len && !isalnum((unsigned char)name[i]))
			++i;
		if (i >= len)
			break;
		size_t start = i++;
		// A token continues through lower case and digits; an upper-case run ends before an
		// upper+lower pair ("LThumb" -> "L", "Thumb").
		if (isupper((unsigned char)name[start]))
		{
			while (i < len && isupper((unsigned char)name[i]) &&
				   !(i + 1 < len && islower((unsigned char)name[i + 1])))
				++i;
		}
		while (i < len && (islower((unsigned char)name[i]) || isdigit((unsigned char)name[i])))
			++i;
		size_t n = i - start < LB_MAX_NAME - 1 ? i - start : LB_MAX_NAME - 1;
		for (size_t k = 0; k < n; ++k)
			tokens[count][k] = (char)tolower((unsigned char)name[start + k]);
		tokens[count][n] = 0;
		++count;
	}
	return count;
}

// Splits a bone name into tokens (lbTokenizeName), drops prefixes such as "mixamorig:" and
// "Bip01", takes side tokens out, and joins the rest into `body`.
static lbNameInfo lbParseName(const char* name, char* body, size_t bodySize)
{
	lbNameInfo info = { lb_partNone, -1 };
	char tokens[16][LB_MAX_NAME];
	const int count = lbTokenizeName(name, tokens);
	body[0] = 0;
	for (int t = 0; t < count; ++t)
	{
		const char* tok = tokens[t];
		if (strcmp(tok, "l") == 0 || strcmp(tok, "left") == 0)
		{
			info.side = 0;
			continue;
		}
		if (strcmp(tok, "r") == 0 || strcmp(tok, "right") == 0)
		{
			info.side = 1;
			continue;
		}
		if ((strncmp(tok, "bip", 3) == 0 && isdigit((unsigned char)tok[3])) || strcmp(tok, "def") == 0 ||
			strcmp(tok, "org") == 0 || strcmp(tok, "mixamorig") == 0)
			continue;
		if (strlen(body) + strlen(tok) + 1 < bodySize)
			strcat(body, tok);
	}
	return info;
}

static bool lbIn(const char* s, const char* const* list)
{
	for (; *list; ++list)
	{
		if (strcmp(s, *list) == 0)
			return true;
	}
	return false;
}

static lbNameInfo lbClassify(const char* name)
{
	char body[128];
	lbNameInfo info = lbParseName(name, body, sizeof body);
	// Numbered variants ("spine_01", "Toe0", "neck_01") compare without trailing digits.
	char stem[128];
	snprintf(stem, sizeof stem, "%s", body);
	size_t n = strlen(stem);
	while (n > 0 && isdigit((unsigned char)stem[n - 1]))
		stem[--n] = 0;
	static const char* const root[] = { "root", "armature", NULL };
	static const char* const pelvis[] = { "pelvis", "hips", "hip", NULL };
	static const char* const neck[] = { "neck", NULL };
	static const char* const head[] = { "head", NULL };
	static const char* const clavicle[] = { "clavicle", "shoulder", "collar", "collarbone", NULL };
	static const char* const upperArm[] = { "upperarm", "arm", "uparm", "humerus", NULL };
	static const char* const foreArm[] = { "lowerarm", "forearm", "lowarm", NULL };
	static const char* const hand[] = { "hand", "wrist", NULL };
	static const char* const thigh[] = { "thigh", "upleg", "upperleg", "femur", NULL };
	static const char* const calf[] = { "calf", "leg", "shin", "lowerleg", "lowleg", "knee", NULL };
	static const char* const foot[] = { "foot", "ankle", NULL };
	static const char* const ball[] = { "ball", "toebase", "toe", "toes", NULL };
	static const char* const hipJoint[] = { "hip", NULL };
	static const char* const elbowJoint[] = { "elbow", NULL };
	if (info.side < 0)
	{
		if (lbIn(stem, root))
			info.part = lb_partRoot;
		else if (lbIn(stem, pelvis))
			info.part = lb_partPelvis;
		else if (lbIn(stem, neck))
			info.part = lb_partNeck;
		else if (lbIn(body, head))
			info.part = lb_partHead;
		return info;
	}
	if (strncmp(body, "foretwist", 9) == 0 || strncmp(stem, "lowerarmtwist", 13) == 0 || strncmp(stem, "forearmtwist", 12) == 0 ||
		strncmp(body, "lowerarmtwist", 13) == 0 || strncmp(body, "forearmtwist", 12) == 0)
		info.part = lb_partTwist;
	else if (lbIn(body, clavicle))
		info.part = lb_partClavicle;
	else if (lbIn(body, upperArm))
		info.part = lb_partUpperArm;
	else if (lbIn(body, foreArm))
		info.part = lb_partForeArm;
	else if (lbIn(body, hand))
		info.part = lb_partHand;
	else if (lbIn(body, thigh))
		info.part = lb_partThigh;
	else if (lbIn(body, calf))
		info.part = lb_partCalf;
	else if (lbIn(body, foot))
		info.part = lb_partFoot;
	else if (lbIn(stem, ball))
		info.part = lb_partBall;
	else if (lbIn(body, hipJoint))
		info.part = lb_partHipJoint;
	else if (lbIn(body, elbowJoint))
		info.part = lb_partElbowJoint;
	return info;
}

lbRole lbGuessRole(const char* boneName)
{
	if (!boneName)
		return lb_roleCount;
	lbNameInfo info = lbClassify(boneName);
	int s = info.side == 1 ? (lb_roleClavicleR - lb_roleClavicleL) : 0;
	switch (info.part)
	{
		case lb_partRoot:
			return lb_roleRoot;
		case lb_partPelvis:
			return lb_rolePelvis;
		case lb_partNeck:
			return lb_roleNeck;
		case lb_partHead:
			return lb_roleHead;
		case lb_partClavicle:
			return (lbRole)(lb_roleClavicleL + s);
		case lb_partUpperArm:
			return (lbRole)(lb_roleUpperArmL + s);
		case lb_partForeArm:
		case lb_partElbowJoint:
			return (lbRole)(lb_roleForeArmL + s);
		case lb_partTwist:
			return (lbRole)(lb_roleTwist1L + s);
		case lb_partHand:
			return (lbRole)(lb_roleHandL + s);
		case lb_partThigh:
		case lb_partHipJoint:
			return (lbRole)(lb_roleThighL + s);
		case lb_partCalf:
			return (lbRole)(lb_roleCalfL + s);
		case lb_partFoot:
			return (lbRole)(lb_roleFootL + s);
		case lb_partBall:
			return (lbRole)(lb_roleBallL + s);
		default:
			return lb_roleCount;
	}
}

int lbHumanoid_GetRoleBone(const lbHumanoid* h, lbRole role)
{
	if (!h)
		return LB_NULL_INDEX;
	if (role >= lb_roleClavicleL && role < lb_roleCount)
	{
		int side = role >= lb_roleClavicleR ? 1 : 0;
		int r = (int)role - (side ? lb_roleClavicleR : lb_roleClavicleL);
		const lbArmBones* a = &h->arm[side];
		const lbLegBones* g = &h->leg[side];
		switch (r)
		{
			case 0:
				return a->clavicle;
			case 1:
				return a->upperArm;
			case 2:
				return a->foreArm;
			case 3:
			case 4:
			case 5:
				return r - 3 < a->twistCount ? a->twist[r - 3] : LB_NULL_INDEX;
			case 6:
				return a->hand;
			case 7:
				return g->thigh;
			case 8:
				return g->calf;
			case 9:
				return g->foot;
			case 10:
				return g->ball;
			default:
				return LB_NULL_INDEX;
		}
	}
	switch (role)
	{
		case lb_roleRoot:
			return h->root;
		case lb_rolePelvis:
			return h->pelvis;
		case lb_roleSpine1:
		case lb_roleSpine2:
		case lb_roleSpine3:
		case lb_roleSpine4:
			return (int)(role - lb_roleSpine1) < h->spineCount ? h->spine[role - lb_roleSpine1] : LB_NULL_INDEX;
		case lb_roleNeck:
			return h->neck;
		case lb_roleHead:
			return h->head;
		default:
			return LB_NULL_INDEX;
	}
}

// First bone (lowest index) of the given part and side that lies below `ancestor` (any bone when
// ancestor is LB_NULL_INDEX).
static int lbFindPart(const lbSkeleton* s, const lbNameInfo* infos, lbPart part, int side, int ancestor)
{
	for (int i = 0; i < s->boneCount; ++i)
	{
		if (infos[i].part != part || infos[i].side != side)
			continue;
		if (ancestor == LB_NULL_INDEX || (i != ancestor && lbSkeleton_IsAncestor(s, ancestor, i)))
			return i;
	}
	return LB_NULL_INDEX;
}

static void lbSetRoleBone(lbHumanoid* h, lbRole role, int bone)
{
	if (role >= lb_roleClavicleL)
	{
		int side = role >= lb_roleClavicleR ? 1 : 0;
		int r = (int)role - (side ? lb_roleClavicleR : lb_roleClavicleL);
		lbArmBones* a = &h->arm[side];
		lbLegBones* g = &h->leg[side];
		int* slots[] = { &a->clavicle, &a->upperArm, &a->foreArm, &a->twist[0], &a->twist[1], &a->twist[2],
						 &a->hand,     &g->thigh,    &g->calf,    &g->foot,     &g->ball };
		*slots[r] = bone;
		if (r >= 3 && r <= 5 && a->twistCount < r - 2)
			a->twistCount = r - 2;
		return;
	}
	switch (role)
	{
		case lb_roleRoot:
			h->root = bone;
			break;
		case lb_rolePelvis:
			h->pelvis = bone;
			break;
		case lb_roleNeck:
			h->neck = bone;
			break;
		case lb_roleHead:
			h->head = bone;
			break;
		default:
			h->spine[role - lb_roleSpine1] = bone;
			if (h->spineCount < (int)(role - lb_roleSpine1) + 1)
				h->spineCount = (int)(role - lb_roleSpine1) + 1;
			break;
	}
}

static void lbMapByName(const lbSkeleton* s, lbHumanoid* h)
{
	lbNameInfo infos[LB_MAX_BONES];
	for (int i = 0; i < s->boneCount; ++i)
		infos[i] = lbClassify(s->names[i]);
	if (h->pelvis == LB_NULL_INDEX)
		h->pelvis = lbFindPart(s, infos, lb_partPelvis, -1, LB_NULL_INDEX);
	if (h->root == LB_NULL_INDEX)
	{
		h->root = lbFindPart(s, infos, lb_partRoot, -1, LB_NULL_INDEX);
		// A root must be above the pelvis; an unnamed parent of the pelvis (Bip01) serves as one.
		if (h->root != LB_NULL_INDEX && h->pelvis != LB_NULL_INDEX && !lbSkeleton_IsAncestor(s, h->root, h->pelvis))
			h->root = LB_NULL_INDEX;
		if (h->root == LB_NULL_INDEX && h->pelvis != LB_NULL_INDEX && s->parents[h->pelvis] != LB_NULL_INDEX &&
			infos[s->parents[h->pelvis]].side < 0)
			h->root = s->parents[h->pelvis];
	}
	int top = h->pelvis;
	if (h->head == LB_NULL_INDEX)
		h->head = lbFindPart(s, infos, lb_partHead, -1, top);
	if (h->neck == LB_NULL_INDEX)
		h->neck = lbFindPart(s, infos, lb_partNeck, -1, top);
	for (int side = 0; side < 2; ++side)
	{
		lbArmBones* a = &h->arm[side];
		lbLegBones* g = &h->leg[side];
		if (a->clavicle == LB_NULL_INDEX)
			a->clavicle = lbFindPart(s, infos, lb_partClavicle, side, top);
		if (a->upperArm == LB_NULL_INDEX)
			a->upperArm = lbFindPart(s, infos, lb_partUpperArm, side, a->clavicle != LB_NULL_INDEX ? a->clavicle : top);
		// Joint names: "Collar" then "Shoulder", where the shoulder joint starts the upper arm.
		// A second clavicle-named bone under the clavicle is the upper arm only when the arm's
		// elbow or hand hangs below it.
		if (a->upperArm == LB_NULL_INDEX && a->clavicle != LB_NULL_INDEX)
		{
			int u = lbFindPart(s, infos, lb_partClavicle, side, a->clavicle);
			if (u != LB_NULL_INDEX && (lbFindPart(s, infos, lb_partElbowJoint, side, u) != LB_NULL_INDEX ||
									   lbFindPart(s, infos, lb_partForeArm, side, u) != LB_NULL_INDEX ||
									   lbFindPart(s, infos, lb_partHand, side, u) != LB_NULL_INDEX))
				a->upperArm = u;
		}
		if (a->foreArm == LB_NULL_INDEX)
			a->foreArm = lbFindPart(s, infos, lb_partForeArm, side, a->upperArm);
		if (a->foreArm == LB_NULL_INDEX && a->upperArm != LB_NULL_INDEX)
			a->foreArm = lbFindPart(s, infos, lb_partElbowJoint, side, a->upperArm);
		if (a->hand == LB_NULL_INDEX)
			a->hand = lbFindPart(s, infos, lb_partHand, side, a->foreArm);
		if (a->twistCount == 0 && a->foreArm != LB_NULL_INDEX)
		{
			for (int i = 0; i < s->boneCount && a->twistCount < LB_MAX_TWIST; ++i)
			{
				if (infos[i].part == lb_partTwist && infos[i].side == side && lbSkeleton_IsAncestor(s, a->foreArm, i))
					a->twist[a->twistCount++] = i;
			}
		}
		if (g->thigh == LB_NULL_INDEX)
			g->thigh = lbFindPart(s, infos, lb_partThigh, side, top);
		if (g->thigh == LB_NULL_INDEX)
			g->thigh = lbFindPart(s, infos, lb_partHipJoint, side, top);
		if (g->calf == LB_NULL_INDEX)
			g->calf = lbFindPart(s, infos, lb_partCalf, side, g->thigh);
		if (g->foot == LB_NULL_INDEX)
			g->foot = lbFindPart(s, infos, lb_partFoot, side, g->calf);
		if (g->ball == LB_NULL_INDEX && g->foot != LB_NULL_INDEX)
			g->ball = lbFindPart(s, infos, lb_partBall, side, g->foot);
	}
	// Spine: the bones strictly between pelvis and neck (or the clavicles' common parent, or the
	// head), found from the hierarchy so any naming works. More than LB_MAX_SPINE are sampled
	// evenly, keeping the first and the last.
	if (h->spineCount == 0 && h->pelvis != LB_NULL_INDEX)
	{
		int upper = h->neck;
		if (upper == LB_NULL_INDEX && h->arm[0].clavicle != LB_NULL_INDEX)
			upper = h->arm[0].clavicle;
		if (upper == LB_NULL_INDEX)
			upper = h->head;
		if (upper != LB_NULL_INDEX && lbSkeleton_IsAncestor(s, h->pelvis, upper))
		{
			int chain[LB_MAX_BONES];
			int n = 0;
			for (int k = s->parents[upper]; k != h->pelvis && k != LB_NULL_INDEX; k = s->parents[k])
			{
				LB_ASSERT(n < s->boneCount); // parents come before children: the walk ends
				chain[n++] = k;
			}
			// chain is top-down; reverse into bottom-up order
			for (int a = 0, b = n - 1; a < b; ++a, --b)
			{
				int t = chain[a];
				chain[a] = chain[b];
				chain[b] = t;
			}
			if (n <= LB_MAX_SPINE)
			{
				for (int k = 0; k < n; ++k)
					h->spine[k] = chain[k];
				h->spineCount = n;
			}
			else
			{
				for (int k = 0; k < LB_MAX_SPINE; ++k)
					h->spine[k] = chain[(k * (n - 1)) / (LB_MAX_SPINE - 1)];
				h->spineCount = LB_MAX_SPINE;
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Axes

static lbVec3 lbRestPos(const lbSkeleton* s, int bone)
{
	return s->restModel[bone].p;
}

// Direction `dirMs` (model space) expressed in the bone's local frame at rest.
static lbVec3 lbToLocalDir(const lbSkeleton* s, int bone, lbVec3 dirMs)
{
	return lbNormalize(lbInvTransformDirection(s->restModel[bone], dirMs));
}

// Hinge axis of a two-bone limb in model space: from the rest bend when there is one, else from
// the pole direction the joint should point to (knee forward, elbow back).
static lbVec3 lbHingeAxis(lbVec3 a, lbVec3 b, lbVec3 c, lbVec3 poleWhenStraight, lbVec3* outPole)
{
	lbVec3 u = lbNormalize(lbSub(b, a)), l = lbNormalize(lbSub(c, b));
	lbVec3 cr = lbCross(u, l);
	// The rest bend is trusted only when clearly bent (> ~3 degrees).
	if (lbLength(cr) > 0.05f)
	{
		lbVec3 axis = lbNormalize(cr);
		// Pole: the joint's offset from the root-end line, i.e. where the joint points.
		lbVec3 ac = lbSub(c, a);
		*outPole = lbNormalizeOr(lbProjectOnPlane(lbSub(b, a), ac), lbNormalize(lbCross(axis, u)));
		// Bending must move the joint toward the expected side; a rest bend the wrong way (rare)
		// would otherwise teach the solver to invert the joint.
		if (lbDot(*outPole, poleWhenStraight) < 0.0f)
		{
			*outPole = lbNormalizeOr(lbProjectOnPlane(poleWhenStraight, u), *outPole);
			axis = lbNormalize(lbCross(*outPole, u));
		}
		return axis;
	}
	*outPole = lbNormalizeOr(lbProjectOnPlane(poleWhenStraight, u), lbAnyPerpendicular(u));
	return lbNormalize(lbCross(*outPole, u));
}

// True when a bone's name reads as the end of a chain, as exporters name the node they add past a
// chain's last joint: a token "end", "nub" or "tip" ("LeftToe_End", "Bip01 L Toe0Nub", "toe_tip").
static bool lbNameReadsAsEnd(const char* name)
{
	char tokens[16][LB_MAX_NAME];
	const int count = lbTokenizeName(name, tokens);
	for (int t = 0; t < count; ++t)
	{
		if (strcmp(tokens[t], "end") == 0 || strcmp(tokens[t], "nub") == 0 || strcmp(tokens[t], "tip") == 0)
			return true;
	}
	return false;
}

// Where a leg's toes end at rest (model space), when the rig says: the end the skeleton records
// for the ball bone (a file's end node, which is no bone), else the ball's only child bone when
// that bone has no children and is named as an end (an end node a clip animates or a mesh binds
// is imported as a bone). `outFrom` names what gave it, for messages.
static bool lbFindToeEnd(const lbSkeleton* s, int ball, lbVec3* outEndMs, char* outFrom, size_t fromSize)
{
	if (lbSkeleton_GetBoneEnd(s, ball, outEndMs))
	{
		snprintf(outFrom, fromSize, "the end of '%s'", s->names[ball]);
		return true;
	}
	int child = LB_NULL_INDEX, children = 0;
	for (int i = ball + 1; i < s->boneCount; ++i)
	{
		if (s->parents[i] == ball)
		{
			child = i;
			++children;
		}
	}
	if (children != 1 || !lbNameReadsAsEnd(s->names[child]))
		return false;
	for (int i = child + 1; i < s->boneCount; ++i)
	{
		if (s->parents[i] == child)
			return false;
	}
	*outEndMs = s->restModel[child].p;
	snprintf(outFrom, fromSize, "bone '%s'", s->names[child]);
	return true;
}

static lbResult lbDeriveAxes(const lbSkeleton* s, const lbHumanoidDef* def, lbHumanoid* h)
{
	lbVec3 pelvis = lbRestPos(s, h->pelvis), head = lbRestPos(s, h->head);
	lbVec3 up = lbLengthSquared(def->upHint) > 0.0f ? lbNormalize(def->upHint) : lbNormalize(lbSub(head, pelvis));
	if (lbLengthSquared(up) == 0.0f)
		return lbReport(lb_errorDegenerate, "lbMapHumanoid: pelvis and head coincide; cannot find up");
	// Rigs are authored with up on a model axis; a head a little forward of the pelvis should not
	// tilt the whole character frame, so snap to the nearest axis when within 10 degrees.
	if (lbLengthSquared(def->upHint) == 0.0f)
	{
		lbVec3 axes[3] = { lbVec3_axisX, lbVec3_axisY, lbVec3_axisZ };
		for (int k = 0; k < 3; ++k)
		{
			float d = lbDot(up, axes[k]);
			if (lbAbsF(d) > 0.985f)
				up = d > 0.0f ? axes[k] : lbNeg(axes[k]);
		}
	}
	lbVec3 left = lbProjectOnPlane(lbSub(lbRestPos(s, h->leg[0].thigh), lbRestPos(s, h->leg[1].thigh)), up);
	left = lbAdd(left, lbProjectOnPlane(lbSub(lbRestPos(s, h->arm[0].upperArm), lbRestPos(s, h->arm[1].upperArm)), up));
	left = lbNormalize(left);
	if (lbLengthSquared(left) == 0.0f)
		return lbReport(lb_errorDegenerate, "lbMapHumanoid: left and right limbs coincide; cannot find the sides");
	// Right-handed: forward = left x up.
	lbVec3 fwd = lbNormalize(lbCross(left, up));
	h->upMs = up;
	h->leftMs = left;
	h->forwardMs = fwd;

	float sole = 1.0e30f;
	for (int side = 0; side < 2; ++side)
	{
		const lbLegBones* g = &h->leg[side];
		sole = lbMinF(sole, lbDot(lbRestPos(s, g->foot), up));
		if (g->ball != LB_NULL_INDEX)
			sole = lbMinF(sole, lbDot(lbRestPos(s, g->ball), up));
	}
	// The ball joint sits above the sole by about a quarter of the ankle-to-ball length; with no
	// ball bone, assume the ankle is 8% of leg length above the floor (typical adult proportion).
	for (int side = 0; side < 2; ++side)
	{
		const lbLegBones* g = &h->leg[side];
		lbVec3 hip = lbRestPos(s, g->thigh), knee = lbRestPos(s, g->calf), ankle = lbRestPos(s, g->foot);
		float thighLen = lbDistance(hip, knee), calfLen = lbDistance(knee, ankle);
		if (thighLen < 1.0e-4f || calfLen < 1.0e-4f)
			return lbReport(lb_errorDegenerate, "lbMapHumanoid: zero-length leg bone on the %s side",
							side ? "right" : "left");
		lbLegAxes* x = &h->legAxes[side];
		x->thighLength = thighLen;
		x->calfLength = calfLen;
		x->thighAlong = lbToLocalDir(s, g->thigh, lbSub(knee, hip));
		x->calfAlong = lbToLocalDir(s, g->calf, lbSub(ankle, knee));
		lbVec3 pole;
		lbVec3 hinge = lbHingeAxis(hip, knee, ankle, fwd, &pole);
		x->kneeBendCalf = lbToLocalDir(s, g->calf, hinge);
		x->kneeBendThigh = lbToLocalDir(s, g->thigh, hinge);
		x->kneePoleThigh = lbToLocalDir(s, g->thigh, pole);
		lbVec3 toe;
		if (g->ball != LB_NULL_INDEX)
		{
			lbVec3 ball = lbRestPos(s, g->ball);
			x->footLength = lbDistance(ball, ankle);
			toe = lbNormalizeOr(lbSub(ball, ankle), fwd);
		}
		else
		{
			x->footLength = 0.0f;
			toe = fwd;
		}
		x->toe = lbToLocalDir(s, g->foot, toe);
		x->footUp = lbToLocalDir(s, g->foot, up);
		x->toeTipBall = lbVec3_zero;
	}
	float soleOffset;
	{
		const lbLegAxes* x0 = &h->legAxes[0];
		soleOffset = h->leg[0].ball != LB_NULL_INDEX ? 0.2f * x0->footLength : 0.08f * (x0->thighLength + x0->calfLength);
	}
	float floorH = sole - soleOffset;
	// If the rig has a root at or below the feet (the usual "origin on the floor"), that is the floor.
	// "Below" reaches 0.3 leg lengths (0.25 m on a human), in the rig's own units: held at 0.25 units,
	// the same rig in centimetres took its floor from the sole instead and stood 6 mm higher.
	if (h->root != LB_NULL_INDEX)
	{
		const lbLegAxes* x0 = &h->legAxes[0];
		float rootH = lbDot(lbRestPos(s, h->root), up);
		if (rootH <= sole && rootH > sole - 0.3f * (x0->thighLength + x0->calfLength))
			floorH = rootH;
	}
	for (int side = 0; side < 2; ++side)
	{
		float ankleH = lbDot(lbRestPos(s, h->leg[side].foot), up) - floorH;
		h->legAxes[side].ankleHeight = def->ankleHeight >= 0.0f ? def->ankleHeight : lbMaxF(ankleH, 0.0f);
	}
	// The toe tip at rest in the ball bone's frame: where the rig's toe end projects on the sole
	// line, or 1.4 ankle-to-ball lengths ahead on the sole without one (a rig without ball bones
	// keeps the tip as a length along the foot's sole only). The tip stays on the sole
	// (an end node sits inside the toes, above the ground they touch), and within 1.05-2.0
	// ankle-to-ball lengths, so a bad file cannot make a foot of absurd length.
	for (int side = 0; side < 2; ++side)
	{
		const int ball = h->leg[side].ball, footBone = h->leg[side].foot;
		lbLegAxes* x = &h->legAxes[side];
		lbVec3 endMs = lbVec3_zero;
		char from[LB_MAX_NAME + 32];
		const bool given = def->toeTipLength >= 0.0f;
		if (given)
			snprintf(from, sizeof from, "the def's toeTipLength");
		// A foot without toe bones ends at its toes: its own end (a BVH foot's End Site) stands
		// for the toe end, measured against the stand-in ankle-to-ball length.
		bool found = given;
		if (!found && ball != LB_NULL_INDEX)
			found = lbFindToeEnd(s, ball, &endMs, from, sizeof from);
		else if (!found && lbSkeleton_GetBoneEnd(s, footBone, &endMs))
		{
			snprintf(from, sizeof from, "the end of '%s'", s->names[footBone]);
			found = true;
		}
		if (found)
		{
			const lbSole plain = lbHumanoid_GetSole(h, side);
			const lbTransform foot = s->restModel[h->leg[side].foot];
			const lbVec3 under = lbSole_PointMs(&plain, foot, lb_soleUnderAnkle);
			const float along = given ? def->toeTipLength : lbDot(lbSub(endMs, under), lbQuatRotate(foot.q, plain.toeFlat));
			const float len = plain.along[lb_soleBall], lo = 1.05f * len, hi = 2.0f * len;
			x->toeTipLength = lbClampF(along, lo, hi);
			if (!(along >= lo && along <= hi))
				lbWarn(lb_errorDegenerate,
					   "lbMapHumanoid: the %s toe end (%s) lies %.3g ankle-to-ball lengths ahead on the sole, outside "
					   "1.05-2.0; the toe tip is kept %.3g lengths ahead",
					   side ? "right" : "left", from, (double)(along / len), (double)(x->toeTipLength / len));
		}
		// Without a ball bone the tip turns with the foot (lbHumanoid_GetSolePointsMs).
		if (ball == LB_NULL_INDEX)
			continue;
		lbSole soleDef = lbHumanoid_GetSole(h, side);
		lbTransform foot = s->restModel[h->leg[side].foot], ballMs = s->restModel[ball];
		lbVec3 tip = lbSole_PointMs(&soleDef, foot, lb_soleToeTip);
		x->toeTipBall = lbQuatInvRotate(lbQuatNormalize(ballMs.q), lbSub(tip, ballMs.p));
	}
	h->pelvisHeight = lbDot(pelvis, up) - floorH;
	// Head joint to crown is about 0.12 of body height in adults; height = headH / 0.88.
	h->height = (lbDot(head, up) - floorH) / 0.88f;

	for (int side = 0; side < 2; ++side)
	{
		const lbArmBones* a = &h->arm[side];
		lbVec3 sh = lbRestPos(s, a->upperArm), el = lbRestPos(s, a->foreArm), wr = lbRestPos(s, a->hand);
		float ul = lbDistance(sh, el), fl = lbDistance(el, wr);
		if (ul < 1.0e-4f || fl < 1.0e-4f)
			return lbReport(lb_errorDegenerate, "lbMapHumanoid: zero-length arm bone on the %s side",
							side ? "right" : "left");
		lbArmAxes* x = &h->armAxes[side];
		x->upperLength = ul;
		x->foreLength = fl;
		x->upperAlong = lbToLocalDir(s, a->upperArm, lbSub(el, sh));
		x->foreAlong = lbToLocalDir(s, a->foreArm, lbSub(wr, el));
		lbVec3 pole;
		lbVec3 hinge = lbHingeAxis(sh, el, wr, lbNeg(fwd), &pole);
		x->elbowBendFore = lbToLocalDir(s, a->foreArm, hinge);
		x->elbowBendUpper = lbToLocalDir(s, a->upperArm, hinge);
		x->elbowPoleUpper = lbToLocalDir(s, a->upperArm, pole);
		lbVec3 finger = lbNormalizeOr(lbSub(wr, el), lbVec3_axisX);
		x->finger = lbToLocalDir(s, a->hand, finger);
		// Palm: faces down in a T-pose and toward the body with arms down; both are "down and in",
		// which stays well defined for any arm direction between the two.
		lbVec3 sideOut = side == 0 ? left : lbNeg(left);
		lbVec3 palm = lbProjectOnPlane(lbSub(lbNeg(up), sideOut), finger);
		palm = lbNormalizeOr(palm, lbNormalizeOr(lbProjectOnPlane(lbNeg(up), finger), lbAnyPerpendicular(finger)));
		x->palm = lbToLocalDir(s, a->hand, palm);
	}
	h->pelvisUp = lbToLocalDir(s, h->pelvis, up);
	h->pelvisForward = lbToLocalDir(s, h->pelvis, fwd);
	for (int k = 0; k < h->spineCount; ++k)
	{
		int b = h->spine[k];
		int next = k + 1 < h->spineCount ? h->spine[k + 1] : (h->neck != LB_NULL_INDEX ? h->neck : h->head);
		h->spineAlong[k] = lbToLocalDir(s, b, lbNormalizeOr(lbSub(lbRestPos(s, next), lbRestPos(s, b)), up));
	}
	h->headForward = lbToLocalDir(s, h->head, fwd);
	h->headUp = lbToLocalDir(s, h->head, up);
	// Twist bones ordered elbow to wrist by rest distance from the elbow.
	for (int side = 0; side < 2; ++side)
	{
		lbArmBones* a = &h->arm[side];
		lbVec3 el = lbRestPos(s, a->foreArm);
		for (int i = 1; i < a->twistCount; ++i)
		{
			for (int k = i; k > 0 && lbDistance(lbRestPos(s, a->twist[k]), el) < lbDistance(lbRestPos(s, a->twist[k - 1]), el); --k)
			{
				int t = a->twist[k];
				a->twist[k] = a->twist[k - 1];
				a->twist[k - 1] = t;
			}
		}
	}
	return lb_ok;
}

lbResult lbHumanoid_Check(const lbHumanoid* h, const lbSkeleton* s)
{
	if (!h || !s)
		return lbReport(lb_errorNullPointer, "humanoid map and skeleton are required");
	if (h->boneCount != s->boneCount || h->skeletonFingerprint != s->fingerprint)
		return lbReport(lb_errorSkeletonMismatch,
						"the humanoid map was made for another skeleton (%d bones, fingerprint %016llx; this one has %d, "
						"%016llx): map this skeleton with lbMapHumanoid",
						h->boneCount, (unsigned long long)h->skeletonFingerprint, s->boneCount,
						(unsigned long long)s->fingerprint);
	if (h->spineCount < 0 || h->spineCount > LB_MAX_SPINE || h->arm[0].twistCount < 0 || h->arm[0].twistCount > 3 ||
		h->arm[1].twistCount < 0 || h->arm[1].twistCount > 3)
		return lbReport(lb_errorSkeletonMismatch, "the humanoid map's spine or twist count is out of range (corrupted map)");
	for (int r = 0; r < lb_roleCount; ++r)
	{
		int b = lbHumanoid_GetRoleBone(h, (lbRole)r);
		if (b != LB_NULL_INDEX && (b < 0 || b >= s->boneCount))
			return lbReport(lb_errorSkeletonMismatch, "the humanoid map gives role %s bone %d, outside the skeleton's %d bones",
							lbRoleName((lbRole)r), b, s->boneCount);
	}
	return lb_ok;
}

lbResult lbMapHumanoid(const lbSkeleton* skeleton, const lbHumanoidDef* def, lbHumanoid* out)
{
	if (!skeleton || !out)
		return lbReport(lb_errorNullPointer, "lbMapHumanoid: skeleton and output are required");
	lbHumanoidDef defaults = lbDefaultHumanoidDef();
	if (!def)
		def = &defaults;
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbMapHumanoid: def not initialised with lbDefaultHumanoidDef()");
	if (!lbIsValidFloat(def->ankleHeight) || !lbIsValidFloat(def->toeTipLength))
		return lbReport(lb_errorInvalidArgument, "lbMapHumanoid: the def's ankleHeight (%g) and toeTipLength (%g) must be finite",
						(double)def->ankleHeight, (double)def->toeTipLength);
	lbHumanoid* h = out;
	memset(h, 0, sizeof *h);
	h->boneCount = skeleton->boneCount;
	h->skeletonFingerprint = skeleton->fingerprint;
	h->root = h->pelvis = h->neck = h->head = LB_NULL_INDEX;
	for (int k = 0; k < LB_MAX_SPINE; ++k)
		h->spine[k] = LB_NULL_INDEX;
	for (int side = 0; side < 2; ++side)
	{
		lbArmBones* a = &h->arm[side];
		a->clavicle = a->upperArm = a->foreArm = a->hand = LB_NULL_INDEX;
		a->twist[0] = a->twist[1] = a->twist[2] = LB_NULL_INDEX;
		lbLegBones* g = &h->leg[side];
		g->thigh = g->calf = g->foot = g->ball = LB_NULL_INDEX;
	}
	for (int r = 0; r < lb_roleCount; ++r)
	{
		const char* name = def->roleNames[r];
		if (!name)
			continue;
		int bone = lbSkeleton_FindBone(skeleton, name);
		if (bone == LB_NULL_INDEX)
			return lbReport(lb_errorBoneNotFound, "lbMapHumanoid: role %s names bone '%s', which is not in the skeleton",
							lbRoleName((lbRole)r), name);
		lbSetRoleBone(h, (lbRole)r, bone);
	}
	lbMapByName(skeleton, h);

	static const lbRole required[] = { lb_rolePelvis,    lb_roleSpine1, lb_roleHead,     lb_roleUpperArmL,
									   lb_roleForeArmL,  lb_roleHandL,  lb_roleThighL,   lb_roleCalfL,
									   lb_roleFootL,     lb_roleUpperArmR, lb_roleForeArmR, lb_roleHandR,
									   lb_roleThighR,    lb_roleCalfR,  lb_roleFootR };
	char missing[256] = "";
	for (size_t k = 0; k < sizeof required / sizeof required[0]; ++k)
	{
		if (lbHumanoid_GetRoleBone(h, required[k]) == LB_NULL_INDEX)
		{
			if (missing[0])
				strncat(missing, ", ", sizeof missing - strlen(missing) - 1);
			strncat(missing, lbRoleName(required[k]), sizeof missing - strlen(missing) - 1);
		}
	}
	if (missing[0])
		return lbReport(lb_errorMissingRole, "lbMapHumanoid: missing roles: %s", missing);
	return lbDeriveAxes(skeleton, def, h);
}

lbSole lbHumanoid_GetSole(const lbHumanoid* humanoid, int side)
{
	lbSole f;
	memset(&f, 0, sizeof f);
	if (!humanoid || side < 0 || side > 1)
		return f;
	const lbLegAxes* ax = &humanoid->legAxes[side];
	f.under = lbMulSV(-ax->ankleHeight, lbNormalizeOr(ax->footUp, lbVec3_axisZ));
	// The toe axis dips toward the ball; along the sole it runs flat.
	f.toeFlat = lbNormalizeOr(lbProjectOnPlane(ax->toe, ax->footUp), lbVec3_zero);
	// Ankle to ball is about 0.15 of the leg in adults: the stand-in when the rig has no ball bone.
	float len = ax->footLength > 0.0f ? ax->footLength : 0.15f * (ax->thighLength + ax->calfLength);
	f.along[lb_soleHeel] = -0.3f * len;
	f.along[lb_soleUnderAnkle] = 0.0f;
	f.along[lb_soleBall] = len;
	f.along[lb_soleToeTip] = ax->toeTipLength > 0.0f ? ax->toeTipLength : 1.4f * len;
	return f;
}

void lbHumanoid_GetSolePointsMs(const lbHumanoid* humanoid, const lbPose* pose, int side, lbVec3 out[lb_solePointCount])
{
	for (int k = 0; out && k < lb_solePointCount; ++k)
		out[k] = lbVec3_zero;
	if (!humanoid || !pose || !pose->model || !out || side < 0 || side > 1)
		return;
	const lbLegBones* leg = &humanoid->leg[side];
	if (leg->foot < 0 || leg->foot >= pose->boneCount)
		return;
	lbSole sole = lbHumanoid_GetSole(humanoid, side);
	lbTransform foot = pose->model[leg->foot];
	for (int k = 0; k < lb_solePointCount; ++k)
		out[k] = lbSole_PointMs(&sole, foot, (lbSolePoint)k);
	if (leg->ball >= 0 && leg->ball < pose->boneCount)
	{
		lbTransform ball = pose->model[leg->ball];
		out[lb_soleToeTip] = lbAdd(ball.p, lbQuatRotate(ball.q, humanoid->legAxes[side].toeTipBall));
	}
}
