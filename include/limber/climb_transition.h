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
/// - lbClimbTopOut_Begin / lbClimbTopOut_Step / lbClimbTopOut_Carry: topping out on a ledge, the
///   hands onto its lip, the body up, the hands onto the top, a foot high on the wall under the
///   lip, the body stepping up on it, the feet onto the top, the body standing up over them; then
///   StandingTransform / SeedFoot walk on from the top.
/// - lbClimbTransition_StandingTransform / lbClimbTransition_SeedFoot: once every limb has let go,
///   the upright transform on the ground below the climbing frame, and a foot state that lands
///   there; lbClimbDrop_Begin / lbClimbDrop_Step: the short fall down to it.
/// Both systems blend their limbs in and out over their own alpha times, and the base pose is the
/// same on both sides, so the hand-over itself adds no rotation to any bone.
/// World space, meters.
/// @{

#include "limber/climb.h"
#include "limber/climb_plan.h"
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

/// Where a top-out is.
typedef enum lbClimbTopOutPhase
{
	/// The hands take the lip, just below its edge on the wall, one at a time (the other three
	/// limbs hold).
	lb_topOutHands = 0,
	/// The feet let go of the wall, one at a time: the body hangs on its hands.
	lb_topOutFeetOff,
	/// The body rises until the hips are `crouchBelow` under the lip, the shoulders above it (the
	/// climbing frame carried).
	lb_topOutRise,
	/// The hands go from the lip onto the top, one at a time.
	lb_topOutPress,
	/// The press-up: on the hands held on the top, the body rises until the hips are
	/// `mantleAbove` over the lip and leans `mantleLean` in over it (the climbing frame carried and
	/// turned about the pelvis).
	lb_topOutMantle,
	/// The first foot steps high onto the wall, `highStepBelow` under the lip (its knee bent up
	/// toward the lip and out to its side).
	lb_topOutFeet,
	/// Once the first foot is confirmed (its lock completing meanwhile), the hands let go and the
	/// body steps up on it: the hips rise to `stepUpAbove` over the lip and the lean eases to
	/// `stepUpLean` (the climbing frame carried).
	lb_topOutStepUp,
	/// The second foot goes onto the top.
	lb_topOutSecondFoot,
	/// The first foot leaves the wall for its place on the top.
	lb_topOutFirstFootUp,
	/// The body stands up over the feet.
	lb_topOutStand,
	/// The feet go back to the animation, standing on the top.
	lb_topOutRelease,
	/// Nothing held, standing on the top: hand over to the foot system.
	lb_topOutDone,
	/// A limb could not reach its place (logged); the climbing state is left as it is.
	lb_topOutFailed,
} lbClimbTopOutPhase;

/// Options of a top-out. Fill with lbDefaultClimbTopOutDef(); every default is listed here.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbTopOutDef
{
	/// World up (unit). Default +Z.
	lbVec3 up;
	/// Channels the ledge is found on. Default LB_CHANNEL_CLIMBABLE.
	uint32_t channelMask;
	///@{
	/// Hands on the top: how far in from the lip and how far to each side of the body (m). Default
	/// 0.2, 0.3.
	float handInset, handSpread;
	///@}
	///@{
	/// Feet on the top (their toe tips): how far in from the lip and to each side (m). Default 0.3,
	/// 0.12.
	float footInset, footSpread;
	///@}
	/// The hands' grips on the lip: this far below its edge on the wall (m). Default 0.03.
	float gripBelow;
	/// The first foot's high step: on the wall this far below the lip's edge (m, > 0), its knee
	/// bent up toward the lip; the body steps up on it before any foot goes onto the top. Default
	/// 0.3 (a foot put straight onto the top from the press-up folded its thigh 150-180 degrees
	/// from rest against the leaning torso, the knee up beside the chest).
	float highStepBelow;
	/// Hips below the lip at the top of the rise, as far out as the climbing frame keeps them (m).
	/// Default 0.45 (higher, the wrists bend past their range as the hands go onto the top).
	float crouchBelow;
	/// Top of the press-up: the hips this far above the lip (m; lower where the held hands could
	/// not reach, the arms then straight). Default 0.35.
	float mantleAbove;
	/// Top of the press-up: the body leans in over the lip by this angle about the pelvis (rad,
	/// 0 to 1.2). Default 1.0 (about 57 degrees; at 0.6 a foot landing on the top touches the lip,
	/// at 0.8 a knee folds past its range as its foot comes up the wall).
	float mantleLean;
	///@{
	/// Stepping up on the first foot's high step (the hands let go), the hips rise straight up to
	/// this height over the lip (m), and the body's lean in over it eases to this (rad, 0 to
	/// mantleLean). Default 0.55, 0.3 (the second foot then comes over the lip with its knee in
	/// front; with the hips 0.45 over the lip, or a lean of 0.5, its thigh passes its range; upright,
	/// the body stands on the step without leaning into the wall).
	float stepUpAbove, stepUpLean;
	///@}
	/// Standing up, the hips first come in over the feet into a crouch this high above the lip (or
	/// as high as they are, if higher), then rise straight up (m). Default 0.6 (lower, the knees
	/// come forward past the toes and the leg solve swings them round behind).
	float standAbove;
	/// Standing on the top, the body stands over its feet (the animation's toe tips on the held
	/// ones); with no foot held, the pelvis over this point, this far in from the lip (m). Default
	/// 0.15.
	float standInset;
	///@{
	/// Duration of the rise, of the press-up and of standing up (s; each
	/// leg of the path eased in and out). Default 1.2, 1.4, 1.4.
	float riseTime, mantleTime, standTime;
	/// Duration of the step up on the first foot (s, eased in and out). Default 0.4 (the first
	/// thigh is folded past its range until the body has righted itself: 0.7 kept it 4-5 frames
	/// longer, 1.0 another 9).
	float stepUpTime;
	///@}
	/// Highest the top may lie above the hands' holds, and farthest in front of the wall (m).
	/// Default 0.6.
	float searchHeight;
	/// How the limbs are steered onto the top (the hold planner's driver). Default
	/// lbDefaultClimbDriverDef().
	lbClimbDriverDef driver;
	/// How fast a foot's guide moves on its way onto the top (m/s), in place of the climbing def's
	/// leg speed (lbClimbTopOut_FrameDef). Default 1.4 (at 1.1, the first thigh stayed folded past
	/// its range against the leaning torso 8-9 frames longer, at the climbing def's 0.5 about 100;
	/// at 1.5, a foot passing the lip grazes it, 8-13 mm).
	float feetMoveSpeed;
	/// How the feet are steered onto the top. Default the driver's with a settle time of 0.1 s and
	/// no pause after a lock (with 0.3 and 0.15, each foot held up over its place kept its thigh
	/// folded past its range against the leaning torso about 40 frames longer).
	lbClimbDriverDef feetDriver;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbClimbTopOutDef;

/// A top-out in progress (caller memory, one per character; filled by lbClimbTopOut_Begin).
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbClimbTopOut
{
	/// Where it is.
	lbClimbTopOutPhase phase;
	/// Point on the lip in front of the body (world): the edge between the wall and the top.
	lbVec3 lipWs;
	///@{
	/// Outward normal of the wall below the lip and of the top (world, unit).
	lbVec3 wallNormalWs, topNormalWs;
	///@}
	///@{
	/// The places (world): the hands' grips on the lip (L, R), the hands' places on the top (L, R),
	/// the feet's (L, R) and the first foot's high step on the wall; and the moves that take the
	/// limbs there: the hands to the lip, the hands onto the top, the first foot to its high step,
	/// the second foot onto the top, the first foot onto the top.
	lbClimbHold holds[7];
	lbClimbPlanMove moves[7];
	///@}
	/// Plays the moves of the current phase.
	lbClimbDriver driver;
	/// Time in the current phase (s).
	float timer;
	/// Limbs let go so far in the current phase.
	int released;
	///@{
	/// The pelvis's positions (world) along the current carry: where it started, the waypoints it
	/// passes and where it ends; `carryLegs` (1..3) legs of equal time, each eased in and out; and
	/// the climbing frame's rotation at the start and the end (turned about the pelvis along the
	/// way). Standing up, the hips first come in over the feet into a crouch (no lower than they
	/// are, so never closer to the feet than the legs fold), then rise straight up.
	lbVec3 carryWs[4];
	int carryLegs;
	lbQuat carryQ[2];
	///@}
	///@{
	/// The pelvis in the climbing frame during the carry (model space), and the frame's upright
	/// rotation before the press-up leaned it (world).
	lbVec3 pivotMs;
	lbQuat uprightQ;
	///@}
	/// Nonzero while the frame is carried (from the rise to standing up).
	int carrying;
} lbClimbTopOut;

/// A short fall from the wall to the ground below after letting go of every hold (caller memory;
/// lbClimbDrop_Begin fills it). World space.
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbClimbDrop
{
	/// The character as it falls (world).
	lbTransform characterWs;
	///@{
	/// Where it lands (world) and its rotation where it let go.
	lbTransform groundWs;
	lbQuat startQ;
	///@}
	/// World up (unit).
	lbVec3 up;
	///@{
	/// Height to fall at the start (m) and downward speed now (m/s).
	float height, speed;
	///@}
	/// True from the frame it lands.
	bool landed;
} lbClimbDrop;

LB_EXTERN_C_BEGIN

/// Default top-out def (see each field).
LB_API lbClimbTopOutDef lbDefaultClimbTopOutDef(void);

/// Starts a top-out from a climbing state with both hands held near a ledge: finds the top (a
/// surface facing up within the def's searchHeight above the held hands, casts on its
/// channelMask) and the lip in front of the body, the hands' grips on the lip and the places for
/// hands and feet on the top.
/// Returns lb_errorNullPointer, lb_errorDefNotInitialized, lb_errorNonFinite,
/// lb_errorInvalidArgument (a hand not held) or lb_errorUnsupported (no ledge top there); *topOut
/// unchanged then.
LB_API lbResult lbClimbTopOut_Begin(lbClimbTopOut* topOut, const lbClimbTopOutDef* def, const lbClimbState* state,
									const lbSceneQuery* query);

/// One frame of a top-out, called before lbClimbSense: drives the climbing state's limbs through
/// lbClimb_Select / SetStick / Confirm / Release (the hold planner's driver) for the current
/// phase, and moves on to the next phase once it is done. `dt` is the frame time (s). Returns the
/// phase (lb_topOutDone once nothing is held and the body stands on the top).
LB_API lbClimbTopOutPhase lbClimbTopOut_Step(lbClimbTopOut* topOut, const lbClimbTopOutDef* def,
											 lbClimbState* state, const lbClimbDef* climbDef, float dt);

/// The climbing def to run this frame of a top-out with (lbClimbTopOut_Step does so itself; pass
/// the same to lbClimbSense): `climbDef` with the legs' guide speed set to the def's feetMoveSpeed
/// while the feet step up onto the top, unchanged otherwise. Returns lb_errorNullPointer or
/// lb_errorNonFinite (a non-finite feetMoveSpeed); *outDef is then a copy of `climbDef` (if any).
LB_API lbResult lbClimbTopOut_FrameDef(const lbClimbTopOut* topOut, const lbClimbTopOutDef* def,
									   const lbClimbDef* climbDef, lbClimbDef* outDef);

/// Called after lbClimbSense: while the body rises, presses up, steps up or stands up, carries the climbing
/// frame (state->frameWs and targets->characterWs, position and rotation) along the top-out's
/// path; the held limbs stay where they hold, the pose stage bends them. `animPose` is the base pose (model space), for the
/// pelvis's height. Once the hands have let go of the top, each released hand's target keeps its
/// place there as a surface (free, hasSurface, the top's normal): the pose stage reads it as where
/// the wall ends, for the knees coming over the lip. Returns lb_errorNullPointer or
/// lb_errorNonFinite (nothing changed).
LB_API lbResult lbClimbTopOut_Carry(lbClimbTopOut* topOut, const lbClimbTopOutDef* def, const lbHumanoid* humanoid,
									const lbPose* animPose, float dt, lbClimbState* state, lbClimbTargets* targets);

/// Called on the base pose (model space) before lbClimbApplyPose while topping out: turns each
/// thigh (its leg with it) back by the lean the carry gave the climbing frame (`state->frameWs`
/// against the upright rotation it started from), so the legs hang as the animation has them
/// under an upright body instead of swinging out behind a body leaning in over the lip, and a
/// knee bends forward and up onto the top, not down under it. Nothing changes before the first
/// carry or with the frame upright. Returns lb_errorNullPointer, lb_errorNonFinite (a non-finite
/// frame) or a pose error (nothing changed).
LB_API lbResult lbClimbTopOut_HangLegs(const lbClimbTopOut* topOut, const lbClimbState* state, const lbSkeleton* skeleton,
									   const lbHumanoid* humanoid, lbPose* pose);

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

/// Seeds a fall after letting go: *drop starts at the climbing frame's height, upright and over
/// the ground below it, `standingWs` (lbClimbTransition_StandingTransform) being where it lands,
/// not moving. Returns lb_errorNullPointer, lb_errorInvalidArgument (a limb still held) or
/// lb_errorNonFinite; *drop unchanged then.
LB_API lbResult lbClimbDrop_Begin(lbClimbDrop* drop, const lbClimbState* state, lbTransform standingWs, lbVec3 up);

/// One frame of the fall: the character drops under `gravity` (m/s^2, along -up) for `dt` s, its
/// rotation turning from the frame's to the standing one as it goes, until it reaches the ground.
/// Returns true on the frame it lands (drop->landed stays true after; the foot system wants
/// lbFootSenseInput.landed on that frame). Bad input (NULL, dt or gravity not positive and
/// finite) returns false and changes nothing.
LB_API bool lbClimbDrop_Step(lbClimbDrop* drop, float gravity, float dt);

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
