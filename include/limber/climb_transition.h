// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref climb_transition group.

/// @defgroup climb_transition Hand-over between foot placement and climbing
/// The foot system and the climbing system stay independent; these calls read one system's state
/// and seed the other's, so a character walks up to a wall, gets on it, and drops back to standing:
/// - lbClimbTransition_FindWall: is a climbable wall close enough ahead to get on (world casts)?
/// - lbClimbTransition_SeedClimb: a climbing state that starts where the walking character stands,
///   facing that wall, nothing held (the limbs then go on one by one: the hold planner, or a player).
/// - lbClimbTransition_StandingTransform / lbClimbTransition_SeedFoot: once every limb has let go,
///   the upright transform on the ground below the climbing frame, and a foot state that lands
///   there.
/// Both systems blend their limbs in and out over their own alpha times, and the base pose is the
/// same on both sides, so the hand-over itself adds no rotation to any bone.
/// World space, meters.
/// @{

#include "limber/climb.h"
#include "limber/foot.h"

/// What lbClimbTransition_FindWall found.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbWallAhead
{
	/// A climbable surface lies ahead within the search distance.
	bool found;
	/// ... and within `mountDistance` of the character, facing it: time to get on.
	bool ready;
	///@{
	/// Surface point and outward unit normal (world), and its horizontal distance from the
	/// character (m).
	lbVec3 pointWs, normalWs;
	float distance;
	///@}
} lbClimbWallAhead;

LB_EXTERN_C_BEGIN

/// Looks for a climbable wall ahead of a character: a ray from the character's chest height
/// (`chestHeight` m above its origin along up) along its forward (humanoid forwardMs through
/// characterWs, flattened on up), `searchDistance` long, on `channelMask`. `ready` when the hit
/// lies within `mountDistance` horizontally and its normal faces the character within 60 degrees
/// of horizontal. Returns lb_errorNullPointer or lb_errorNonFinite (out unchanged).
LB_API lbResult lbClimbTransition_FindWall(const lbSceneQuery* query, uint32_t channelMask, uint32_t ignoreOwnerId,
										   const lbHumanoid* humanoid, lbTransform characterWs, lbVec3 up, float chestHeight,
										   float searchDistance, float mountDistance, lbClimbWallAhead* out);

/// Seeds a climbing state from a walking character: every limb free, nothing selected, the
/// climbing frame at `characterWs`, facing the wall of normal `wallNormalWs`. Returns
/// lb_errorNullPointer or lb_errorNonFinite (state unchanged).
LB_API lbResult lbClimbTransition_SeedClimb(lbClimbState* state, lbTransform characterWs, lbVec3 wallNormalWs);

/// The upright character transform for walking on once nothing is held: the climbing frame's
/// position carried down (a ray along -up from `castAbove` m above it, `castBelow` m below) onto
/// the ground (`groundMask`), facing the wall it climbed (the frame's wall normal, reversed and
/// flattened); the frame's own height when no ground is found. Returns lb_errorNullPointer or
/// lb_errorInvalidArgument (a limb still held); *outWs unchanged then.
LB_API lbResult lbClimbTransition_StandingTransform(const lbClimbState* state, const lbHumanoid* humanoid,
													const lbSceneQuery* query, uint32_t groundMask, lbVec3 up,
													float castAbove, float castBelow, lbTransform* outWs);

/// Largest rotation (rad) between the same bone of two poses (model space): the climbing system
/// has given a character back to its base motion when this is about 0 against the base pose, and
/// only then is the hand-over to the foot system free of pops. -1 for NULL or mismatched poses.
LB_API float lbClimbTransition_PoseDistance(const lbPose* a, const lbPose* b);

/// Seeds a foot state for a character standing at `standingWs` after climbing: reset, with that
/// transform as last frame's, so no teleport is seen and the feet's IK blends in from nothing (a
/// landing snap would pop). Returns lb_errorNullPointer or lb_errorNonFinite.
LB_API lbResult lbClimbTransition_SeedFoot(lbFootState* state, lbTransform standingWs);

LB_EXTERN_C_END

/// @}
