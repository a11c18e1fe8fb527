// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Shared by the prone system's def, sense and pose files.
#pragma once

#include "limber/prone.h"

/// Checks a def's values (finite, in range); reports and returns the error, or lb_ok.
lbResult lbProneCheckDef(const lbProneDef* def, const char* caller);

/// Most bones lbProneRigBones lists.
#define LB_PRONE_RIG_BONES (3 + LB_MAX_SPINE + 12)

/// The bones the system reads and writes: root, pelvis, neck, the spine, and each arm's and leg's
/// three bones (LB_NULL_INDEX where the map has none). Returns how many were written.
int lbProneRigBones(const lbHumanoid* humanoid, int out[LB_PRONE_RIG_BONES]);

/// Whether a pose is finite where the pose stage reads and writes it: the model and local transforms
/// of lbProneRigBones, and the model transforms of the parents of the bones whose locals it writes
/// (roll bone, first spine bone, thighs, upper arms). The rig must have passed lbProneCheckRig.
bool lbPronePoseFinite(const lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid);

/// Whether a pose's model transforms are finite where the sense stage reads them (those of
/// lbProneRigBones; the rig must have passed lbProneCheckRig). The whole pose's check cost a
/// twentieth of a character's frame.
bool lbProneModelFinite(const lbPose* pose, const lbHumanoid* humanoid);

/// The rig check of both stages, every frame: a map made for this skeleton (bone count and
/// fingerprint), its counts in range, and the bones the system reads and writes (root, pelvis, neck,
/// spine, and each arm's and leg's three bones) inside it. A map that passes is used only through
/// those; one that does not gets the full lbHumanoid_Check, which says what is wrong (walking every
/// role, it cost a twentieth of a character's frame). Returns lb_ok or that check's error.
lbResult lbProneCheckRig(const lbHumanoid* humanoid, const lbSkeleton* skeleton);

/// Bone the roll goes to: the rig's root when it is a bone of its own, else the pelvis.
int lbProneRollBone(const lbHumanoid* humanoid);

/// Top of the torso line: the neck, or the last spine bone without one.
int lbProneTopBone(const lbHumanoid* humanoid);

/// The body's frame in a pose (model space): `along` runs from the pelvis toward the head in the
/// ground plane (normal to `upMs`), `left` = up x along. Returns the torso's elevation above the
/// ground plane (rad, 0 lying flat, pi/2 upright).
float lbProneBodyFrame(const lbHumanoid* humanoid, const lbPose* pose, lbVec3 upMs, lbVec3* outAlong, lbVec3* outLeft);

/// The torso's probes, and where each lies along the pelvis-to-neck axis (0 pelvis, 1 neck).
#define LB_PRONE_TORSO_PROBES 5
static const lbProneProbe lbProneTorsoProbe[LB_PRONE_TORSO_PROBES] = { lb_pronePelvis, lb_proneTorsoLow, lb_proneSpine,
																	   lb_proneTorsoHigh, lb_proneChest };
static const float lbProneTorsoAt[LB_PRONE_TORSO_PROBES] = { 0.0f, 0.25f, 0.5f, 0.75f, 1.0f };

/// True for a probe under the torso.
static inline bool lbProneIsTorso(int probe)
{
	return probe <= lb_proneChest || probe == lb_proneTorsoLow || probe == lb_proneTorsoHigh;
}

/// What lbProneProbePoint works out from the humanoid and the def on every call, once for a frame's
/// probes: the torso's radius (m), the top of the torso line, each foot's sole (model space, made
/// when a toe probe first needs it).
typedef struct lbProneProbeSetup
{
	float torso;
	int top;
	lbSole sole[2];
	bool soleMade[2];
} lbProneProbeSetup;

void lbProneProbeSetup_Init(lbProneProbeSetup* setup, const lbHumanoid* humanoid, const lbProneDef* def);

/// lbProneProbePoint with its setup made once (the same point and radius); probe in range.
bool lbProneProbeAt(lbProneProbeSetup* setup, const lbHumanoid* humanoid, const lbPose* pose, lbProneProbe probe,
					lbVec3* outPointMs, float* outRadius);

/// End joint and mid joint of limb k (0, 1 arms; 2, 3 legs), and its root bone.
void lbProneLimbBones(const lbHumanoid* humanoid, int limb, int* outRoot, int* outMid, int* outEnd);
