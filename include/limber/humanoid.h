// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref humanoid group.

/// @defgroup humanoid Humanoid map and derived anatomical axes
/// Maps a skeleton's bones to humanoid roles (found by name patterns of common rigs, or given
/// explicitly) and derives, from the rest pose, every anatomical axis the solvers need, each in
/// the bone's own local frame. No code in limber assumes a local bone axis; it reads these.
/// @{

#include "limber/skeleton.h"

/// Most spine bones a map holds (those between pelvis and neck); a longer chain is sampled evenly.
#define LB_MAX_SPINE 4
/// Most forearm twist bones a map holds per arm.
#define LB_MAX_TWIST 3

/// Body side. Left is the character's own left.
typedef enum lbSide
{
	/// The character's left.
	lb_left = 0,
	/// The character's right.
	lb_right = 1,
} lbSide;

/// Humanoid roles, for explicit maps and messages.
typedef enum lbRole
{
	/// The rig's root bone.
	lb_roleRoot = 0,
	/// The pelvis (hips) bone.
	lb_rolePelvis,
	///@{
	/// Spine bones, pelvis end first.
	lb_roleSpine1,
	lb_roleSpine2,
	lb_roleSpine3,
	lb_roleSpine4,
	///@}
	/// The neck bone.
	lb_roleNeck,
	/// The head bone.
	lb_roleHead,
	///@{
	/// Left arm and leg: clavicle, upper arm, forearm, forearm twist bones (elbow to wrist), hand,
	/// thigh, calf, foot, ball of the foot (toes).
	lb_roleClavicleL,
	lb_roleUpperArmL,
	lb_roleForeArmL,
	lb_roleTwist1L,
	lb_roleTwist2L,
	lb_roleTwist3L,
	lb_roleHandL,
	lb_roleThighL,
	lb_roleCalfL,
	lb_roleFootL,
	lb_roleBallL,
	///@}
	///@{
	/// Right arm and leg, in the same order as the left.
	lb_roleClavicleR,
	lb_roleUpperArmR,
	lb_roleForeArmR,
	lb_roleTwist1R,
	lb_roleTwist2R,
	lb_roleTwist3R,
	lb_roleHandR,
	lb_roleThighR,
	lb_roleCalfR,
	lb_roleFootR,
	lb_roleBallR,
	///@}
	/// Number of roles (not a role).
	lb_roleCount
} lbRole;

/// Bones of one arm (LB_NULL_INDEX where absent). Twist bones run from elbow to wrist.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbArmBones
{
	///@{
	/// Bone indices of the clavicle, upper arm, forearm and hand.
	int clavicle, upperArm, foreArm, hand;
	///@}
	/// Forearm twist bone indices, elbow to wrist; twistCount of them are used.
	int twist[LB_MAX_TWIST];
	/// Number of twist bones found (0..LB_MAX_TWIST).
	int twistCount;
} lbArmBones;

/// Bones of one leg (LB_NULL_INDEX where absent).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbLegBones
{
	///@{
	/// Bone indices of the thigh, calf, foot and ball of the foot (toes).
	int thigh, calf, foot, ball;
	///@}
} lbLegBones;

/// Axes and measures of one leg derived from the rest pose. Axes are unit, in the named bone's
/// local frame; lengths in meters.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbLegAxes
{
	/// Thigh: along the bone toward the knee.
	lbVec3 thighAlong;
	/// Calf: along the bone toward the ankle.
	lbVec3 calfAlong;
	/// Knee hinge axis in the calf frame: a positive rotation about it bends the knee (heel back).
	lbVec3 kneeBendCalf;
	/// The same hinge axis expressed in the thigh frame.
	lbVec3 kneeBendThigh;
	/// Direction the knee points (the pole direction), in the thigh frame, normal to thighAlong.
	lbVec3 kneePoleThigh;
	/// Foot: toe axis = rest ball - rest ankle (or character forward without a ball bone).
	lbVec3 toe;
	/// Foot: sole normal, i.e. the rest model up in the foot frame (not normal to the toe axis,
	/// which dips toward the ball). Aligning it with a ground normal plants the sole flat.
	lbVec3 footUp;
	/// Rest ankle height above the sole (m).
	float ankleHeight;
	/// Ankle-to-ball distance (m); 0 without a ball bone.
	float footLength;
	/// Tip of the toes (the lb_soleToeTip point at rest) in the ball bone's frame, as a model-space
	/// length (m) along ball-bone directions, so bent toes carry it; zero without a ball bone.
	lbVec3 toeTipBall;
	/// Distance (m) along the sole from the point under the ankle to the tip of the toes when the
	/// rig says where its toes end: the toe end (see lbMapHumanoid) projected on the sole line, or
	/// lbHumanoidDef::toeTipLength when set, kept within 1.05-2.0 ankle-to-ball lengths. Zero
	/// without either: the tip is then 1.4 ankle-to-ball lengths ahead.
	float toeTipLength;
	///@{
	/// Rest lengths (m) of the thigh (hip to knee) and the calf (knee to ankle).
	float thighLength, calfLength;
	///@}
} lbLegAxes;

/// Axes and measures of one arm derived from the rest pose (unit axes in the named bone's frame).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbArmAxes
{
	/// Upper arm: along the bone toward the elbow.
	lbVec3 upperAlong;
	/// Forearm: along the bone toward the wrist.
	lbVec3 foreAlong;
	/// Elbow hinge axis in the forearm frame: a positive rotation about it flexes the elbow.
	lbVec3 elbowBendFore;
	/// The same hinge axis in the upper-arm frame.
	lbVec3 elbowBendUpper;
	/// Direction the elbow points (pole direction), in the upper-arm frame, normal to upperAlong.
	lbVec3 elbowPoleUpper;
	/// Hand: finger axis (continuation of the forearm at rest).
	lbVec3 finger;
	/// Hand: palm normal (out of the palm), normal to the finger axis.
	lbVec3 palm;
	///@{
	/// Rest lengths (m) of the upper arm (shoulder to elbow) and the forearm (elbow to wrist).
	float upperLength, foreLength;
	///@}
} lbArmAxes;

/// A humanoid map with derived axes. Filled by lbMapHumanoid; plain data, copy freely.
/// Thread-safety: read-only once made; any number of threads may read it at once.
typedef struct lbHumanoid
{
	///@{
	/// Bone indices of the rig's root and of the pelvis.
	int root, pelvis;
	///@}
	/// Spine bone indices, pelvis end first; spineCount of them are used.
	int spine[LB_MAX_SPINE];
	/// Number of spine bones mapped (0..LB_MAX_SPINE).
	int spineCount;
	///@{
	/// Bone indices of the neck and the head.
	int neck, head;
	///@}
	/// Arm bones per side (lbSide).
	lbArmBones arm[2];
	/// Leg bones per side (lbSide).
	lbLegBones leg[2];
	/// Arm axes and lengths per side (lbSide), from the rest pose.
	lbArmAxes armAxes[2];
	/// Leg axes and lengths per side (lbSide), from the rest pose.
	lbLegAxes legAxes[2];
	///@{
	/// Character frame at rest in model space (unit): up, forward, and the character's left.
	lbVec3 upMs, forwardMs, leftMs;
	///@}
	///@{
	/// Pelvis frame: character up and forward expressed in the pelvis' local frame.
	lbVec3 pelvisUp, pelvisForward;
	///@}
	/// Each spine bone's along-bone axis (local), toward the next joint up.
	lbVec3 spineAlong[LB_MAX_SPINE];
	///@{
	/// Head: character forward and up in the head's local frame.
	lbVec3 headForward, headUp;
	///@}
	///@{
	/// Rest pelvis height above the soles (m), and standing height (sole to top of head estimate, m).
	float pelvisHeight, height;
	///@}
	///@{
	/// The skeleton the map was made for: its bone count and fingerprint (lbSkeleton::fingerprint).
	int boneCount;
	uint64_t skeletonFingerprint;
	///@}
} lbHumanoid;

/// The points limber measures a sole by, heel to toe tip. Systems place feet with them and the
/// metrics judge feet with them: one definition for both.
typedef enum lbSolePoint
{
	/// Back of the heel: 0.3 ankle-to-ball lengths behind the point under the ankle.
	lb_soleHeel = 0,
	/// Straight under the ankle, `ankleHeight` down the foot-up axis.
	lb_soleUnderAnkle,
	/// Under the ball of the foot: one ankle-to-ball length ahead of the point under the ankle.
	lb_soleBall,
	/// Tip of the toes: where the rig's toe end projects on the sole (lbLegAxes::toeTipLength,
	/// 1.05-2.0 ankle-to-ball lengths ahead), or 1.4 ankle-to-ball lengths ahead without one.
	lb_soleToeTip,
	/// Number of sole points (not a point).
	lb_solePointCount
} lbSolePoint;

/// A foot's sole as a line in the foot bone's frame: point k is `under + along[k] * toeFlat`.
/// `toeFlat` is the toe axis flattened onto the sole (unit, foot bone's local frame); `under` and
/// `along` are model-space lengths (m) along foot-bone directions, so a sole point in model space
/// is `footMs.p + rotate(footMs.q, point)`, whatever scale the foot bone carries.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbSole
{
	/// The sole point under the ankle: ankleHeight below the ankle along the foot's up (foot bone's
	/// frame, model-space m).
	lbVec3 under;
	/// The toe axis flattened onto the sole (unit, foot bone's local frame).
	lbVec3 toeFlat;
	/// Each sole point's distance from `under` along toeFlat (m): heel -0.3, under the ankle 0,
	/// ball 1, toe tip 1.4 ankle-to-ball lengths (or lbLegAxes::toeTipLength where the rig has a
	/// toe end).
	float along[lb_solePointCount];
} lbSole;

/// Options for lbMapHumanoid.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbHumanoidDef
{
	/// Explicit bone name per role; NULL entries are found by name patterns. Default all NULL.
	const char* roleNames[lb_roleCount];
	/// Model-space up hint used to orient the character; zero = derive (pelvis to head). Default zero.
	lbVec3 upHint;
	/// Ankle height above the sole (m); negative = measure from the rest pose. Default -1.
	float ankleHeight;
	/// Distance (m) along the sole from the point under the ankle to the tip of the toes, for a rig
	/// whose toe end is missing or not at its toes; kept within 1.05-2.0 ankle-to-ball lengths (the
	/// stand-in length on a rig without ball bones).
	/// Negative = from the rig's toe end where it has one, else 1.4 ankle-to-ball lengths. Default -1.
	float toeTipLength;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbHumanoidDef;

/// The four limbs of a humanoid.
typedef enum lbLimb
{
	/// Left arm.
	lb_limbArmL = 0,
	/// Right arm.
	lb_limbArmR,
	/// Left leg.
	lb_limbLegL,
	/// Right leg.
	lb_limbLegR,
	/// Number of limbs (not a limb).
	lb_limbCount
} lbLimb;

/// A humanoid limb as a two-bone chain with its derived axes.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbLimbChain
{
	///@{
	/// Root (upper arm / thigh), mid (forearm / calf) and end (hand / foot) bone indices.
	int root, mid, end;
	///@}
	/// Hinge axis in the root bone's local frame: positive rotation bends the limb (elbow, knee).
	lbVec3 hingeRoot;
	/// Direction the mid joint points (elbow back, knee forward) in the root bone's local frame.
	lbVec3 poleRoot;
	///@{
	/// Rest lengths of the upper and lower bone (m).
	float upperLength, lowerLength;
	///@}
} lbLimbChain;

LB_EXTERN_C_BEGIN

/// Default humanoid def: automatic mapping, derived up, measured ankle height.
LB_API lbHumanoidDef lbDefaultHumanoidDef(void);

/// Readable role name ("thigh_l", "spine1"...); "unknown" for an invalid role.
LB_API const char* lbRoleName(lbRole role);

/// Bone index mapped to a role in a filled map, or LB_NULL_INDEX.
LB_API int lbHumanoid_GetRoleBone(const lbHumanoid* humanoid, lbRole role);

/// Guesses the role of a single bone name from the naming conventions limber knows (UE
/// mannequin, Mixamo with or without prefix, CMU BVH, 3ds Max Biped, Blender Rigify-like, and
/// bones named after their starting joint: "LeftHip" the thigh, "LeftElbow" the forearm).
/// Spine bones are found from the hierarchy, not by name, and return lb_roleCount here, as do
/// names with no role.
LB_API lbRole lbGuessRole(const char* boneName);

/// Maps roles and derives axes. `def` may be NULL for defaults. Required roles: pelvis, at least
/// one spine bone, head, and per side upper arm, forearm, hand, thigh, calf and foot. A leg's toe
/// end, where the rig has one, sets where its toes end (lbLegAxes::toeTipLength): the end the
/// skeleton records for the ball bone (lbSkeleton::ends), else the ball bone's only child when
/// that bone has no children and its name reads as an end ("LeftToe_End", "Toe0Nub", "toe_tip":
/// a token end, nub or tip); on a rig without ball bones, the end the skeleton records for the
/// foot bone (a BVH foot's End Site), against the stand-in ankle-to-ball length; a toe end that projects outside 1.05-2.0 ankle-to-ball lengths
/// ahead is clamped to that range with a warning through the log hook. A def's toeTipLength of 0
/// or more takes the place of the toe end. On failure returns lb_errorInvalidArgument (a def's
/// ankleHeight or toeTipLength not finite; *outHumanoid is left as it was), lb_errorMissingRole (the message names every missing role), lb_errorBoneNotFound (an
/// explicit name that is not in the skeleton) or lb_errorDegenerate (zero-length limb bones);
/// *outHumanoid is then left with whatever was found and should not be used for solving.
LB_API lbResult lbMapHumanoid(const lbSkeleton* skeleton, const lbHumanoidDef* def, lbHumanoid* outHumanoid);

/// Limb chain of a mapped humanoid (bones, hinge and pole axes in the root bone's frame, lengths).
LB_API lbResult lbHumanoid_GetLimbChain(const lbHumanoid* humanoid, lbLimb limb, lbLimbChain* outChain);

/// Anatomical axes (unit, in the bone's local frame) used by the rotation limit of a role: along
/// and bend (see lbJointLimit), and the reference local rotation the limit is measured from: the
/// rest local rotation, straightened about the hinge for calves and forearms so that bend 0 is a
/// straight knee or elbow whatever the rest pose. Any output may be NULL. Returns false for roles
/// without limits or unmapped bones.
LB_API bool lbHumanoid_GetLimitAxes(const lbHumanoid* humanoid, const lbSkeleton* skeleton, lbRole role,
									lbVec3* outAlong, lbVec3* outBend, lbQuat* outReference);

/// Checks a humanoid map against the skeleton it is used with: made by lbMapHumanoid for this
/// skeleton (same bone count and fingerprint), every role's bone inside it, counts in range. Every
/// system entry calls it, so a map made for another rig or a corrupted one is an error, never an
/// out-of-bounds read. Returns lb_ok, lb_errorNullPointer, or lb_errorSkeletonMismatch (reported
/// with the reason).
LB_API lbResult lbHumanoid_Check(const lbHumanoid* humanoid, const lbSkeleton* skeleton);

/// The sole of one foot (`side` lb_left or lb_right) from the derived leg axes. A rig without a ball
/// bone gets a foot length of 0.15 leg lengths; the toe tip is at the rig's toe end where it has
/// one (lbLegAxes::toeTipLength). Zero for a NULL humanoid or a bad side.
LB_API lbSole lbHumanoid_GetSole(const lbHumanoid* humanoid, int side);

/// The sole points of one foot in a pose (model space, m): heel, under the ankle and ball carried
/// by the foot bone, the toe tip by the ball bone where the rig has one, so toes bent at the ball
/// joint (heel-off) are followed. Zero points for a NULL argument or a bad side.
LB_API void lbHumanoid_GetSolePointsMs(const lbHumanoid* humanoid, const lbPose* pose, int side,
									   lbVec3 outPoints[lb_solePointCount]);

/// One sole point in model space (m) for the foot's model transform `footMs`, all carried by the
/// foot bone (rigid toes): for a foot goal before the toes are posed.
LB_INLINE lbVec3 lbSole_PointMs(const lbSole* sole, lbTransform footMs, lbSolePoint k)
{
	return lbAdd(footMs.p, lbQuatRotate(footMs.q, lbMulAdd(sole->under, sole->along[k], sole->toeFlat)));
}

LB_EXTERN_C_END

/// @}
