// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref climb group.

/// @defgroup climb Limb-by-limb climbing
/// The player (or an NPC's planner) picks a hand or a foot, steers its target along a climbable
/// surface and confirms the hold; held limbs stay where they are while the body, elbows, knees,
/// palms and toes follow. Two stages joined by a plain struct:
/// - sense (world space, per-character lbClimbState): limb states (free, searching, candidate,
///   locking, locked), steering along the surface, continuous reach clamp, surface search casts,
///   animated targets at constant speed, IK and body alphas, body clearance from the wall, and the
///   climbing frame the character is carried by; writes lbClimbTargets.
/// - pose (model space, no state but a small caller-owned cache): body clearance offset, full-body
///   IK with the pelvis as root, the body held to every locked limb at once, two-bone IK per limb,
///   fingers along the wall and palm twist over the forearm twist bones, knee side and pole, toe
///   direction and the ankle moved so the ball stays on its hold.
/// All lengths in meters, angles in radians, constant speeds in m/s or rad/s, exponential
/// smoothing speeds in 1/s. No bone axis is assumed: every axis comes from lbHumanoid.
/// @{

#include "limber/humanoid.h"
#include "limber/ik.h"
#include "limber/query.h"
#include "limber/skeleton.h"

/// How far past a searching limb's reach the sense stage looks for the surface it cannot reach,
/// to say how far off it is (m; lbClimbLimbTarget.beyondReach).
#define LB_CLIMB_BEYOND_RANGE 3.0f

/// State of one limb.
typedef enum lbClimbLimbMode
{
	/// Not held, not steered: the limb follows the animation (IK alpha 0).
	lb_climbFree = 0,
	/// Selected and steered; no surface found under the guide point yet.
	lb_climbSearching,
	/// Selected and steered; the target previews a surface point at the search offset.
	lb_climbCandidate,
	/// Confirmed: the target moves from the search offset to the lock offset over `lockTime`.
	lb_climbLocking,
	/// Held: the contact point stays put whatever the body does.
	lb_climbLocked,
} lbClimbLimbMode;

/// Options of the climbing system. Fill with lbDefaultClimbDef(); every default is listed here.
/// Index 0 of a per-kind pair is for hands, 1 for feet.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbDef
{
	/// World up (unit). Default +Z.
	lbVec3 up;
	/// Channels the surface search and body probes see. Default LB_CHANNEL_CLIMBABLE.
	uint32_t channelMask;
	/// Channels the body probes see: everything solid the body must stay out of, climbable or not.
	/// Default LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL.
	uint32_t bodyChannelMask;
	/// Owner id of the character's own shapes, ignored by every cast. Default LB_NO_OWNER.
	uint32_t ignoreOwnerId;
	/// Speed at which the stick moves a guide point along the surface (m/s). Default 0.6, 0.5.
	float moveSpeed[2];
	/// Constant speed at which the animated target follows its preview (m/s). Default 1.2.
	float followSpeed;
	/// Constant angular speed at which the target rotation follows its preview, and the fastest the
	/// pose stage turns a hand or swings a knee toward a new goal (rad/s). Default 6.
	float rotationSpeed;
	/// Configured largest reach from the shoulder or hip (m); the effective reach is the smaller of
	/// this and the measured upper + lower segment lengths minus `reachMargin`. Default 0.9, 1.1.
	float maxReach[2];
	/// Nor may a guide come closer to the shoulder or hip than this fraction of the effective reach:
	/// a human knee or elbow folds only so far. Default 0.25, 0.4.
	float minReach[2];
	/// Kept below a fully straight limb (m). Default 0.005.
	float reachMargin;
	/// Surface search cast: starts this far outside the guide point along the surface normal (m).
	/// Default 0.25.
	float traceOut;
	/// ... and ends this far inside it (m). Default 2.0.
	float traceIn;
	/// The search sweeps a sphere of this radius instead of a ray (m): a guide passing within it of
	/// a small hold finds the hold, as a player aiming a stick expects; on a plain wall it finds the
	/// same point as a ray. 0 = a ray. Default 0.06.
	float captureRadius;
	/// When the search ray misses (the guide went past an edge: the top of a ledge, the lip of a
	/// hold), a second ray looks over the edge: it starts this far behind the surface plane and
	/// `traceOut` ahead along surface-up, and runs back along surface-up for `traceOut` + this (m).
	/// 0 turns it off. Default 0.12.
	float wrapIn;
	/// Distance of a searching target off the surface, along the normal (m). Default 0.06, 0.08.
	float searchOffset[2];
	/// Distance of a held target off the surface (m): the wrist joint above the palm's contact, the
	/// toe tip above the hold. Default 0.035, 0.02.
	float lockOffset[2];
	/// Duration of the locking transition (s). Default 0.25.
	float lockTime;
	/// Per-limb rotation offset composed with the surface rotation of a searching target (hands
	/// L, R, feet L, R; world-independent, applied in the surface frame). Default identity.
	lbQuat searchRotationOffset[4];
	/// Time the IK and body alphas take to go from 0 to 1 (or back), as a smoothstep: a limb blends
	/// in and out without a jump in speed. Default 0.4 s.
	float alphaTime;
	///@{
	/// Body alpha of a searching or candidate limb rises from 0 to 1 as its target's distance from
	/// the reach centre goes from bodyReachStart to bodyReachFull of the effective reach (see
	/// docs/climb.md). Defaults 0.55, 0.95.
	float bodyReachStart, bodyReachFull;
	///@}
	/// Body alpha of a locking or locked limb. Default 1.
	float bodyAlphaLocked;
	/// Body clearance: probe sphere radii at the pelvis and the upper chest (m). Default 0.14, 0.16.
	float probeRadius[2];
	/// Body clearance: each probe sweeps from this far outside the probe along the wall normal ...
	/// (m). Default 0.6.
	float probeOut;
	/// ... to this far inside it (m). Default 0.4.
	float probeIn;
	/// Exponential speed of the body clearance offset. Default 6 /s.
	float clearanceSpeed;
	/// Distance from the wall the climbing frame keeps the animated pelvis at (m, along the wall
	/// normal). Default 0.3.
	float bodyWallDistance;
	/// Exponential speed at which the climbing frame follows the body (1/s). Default 3.
	float frameSpeed;
	/// How far the climbing body leans with the wall, from upright (0) to parallel to it (1): onto a
	/// slab, back under an overhang. Default 0.8.
	float wallLean;
	/// Where the body goes: each held limb wants its shoulder this fraction of its reach below its
	/// hand, or its hip this fraction above its foot, along the surface. Default 0.75, 0.7.
	float comfortReach[2];
	/// Body constraint to locked limbs: shoulders and hips stay within the rest segment lengths
	/// minus this of their locks (m). Default 0.01.
	float bodyMargin;
	/// Most rounds of the joint body constraint (every locked limb projected each round). Default 16.
	int bodyIterations;
	///@{
	/// Hand: length of the unit forearm direction projected on the wall (0..1, no unit) mapped to a
	/// reliability of 0..1 over this range. Default 0.15, 0.35.
	float reliabilityStart, reliabilityFull;
	///@}
	/// Hand: surfaces whose normal is within this angle of up (rad) are ledge tops: the hand lies
	/// flat with fingers along the character's forward. Default 40 degrees.
	float ledgeAngle;
	///@{
	/// Leg: sideways offset of a foot from the hip centre (m along the wall's horizontal) over
	/// which the negative side builds (0.20..0.40) and the positive side (0.10..0.30). Defaults
	/// 0.20, 0.40, 0.10, 0.30.
	float sideNegStart, sideNegFull, sidePosStart, sidePosFull;
	///@}
	///@{
	/// Leg: the side choice is cached only while reach ratio lies in (sideCacheMin, sideCacheMax),
	/// the foot is not locked and its IK alpha is above sideCacheAlpha. Default 0.35, 0.94, 0.1.
	float sideCacheMin, sideCacheMax, sideCacheAlpha;
	///@}
	///@{
	/// Leg: the side blend fades out as reach ratio goes 0.90 -> 0.97 (extension) and in as it goes
	/// 0.30 -> 0.40 (fold). Defaults 0.90, 0.97, 0.30, 0.40.
	float extendFadeStart, extendFadeEnd, foldFadeStart, foldFadeEnd;
	///@}
	/// Leg: knee pole base offset sideways from the hip-foot midpoint, out toward the leg's own
	/// side (m). Default 0.25.
	float poleBase;
	/// Leg: extra sideways pole distance at a full side blend (m), toward the body's middle for a
	/// crossed foot and out for one out to the side. Default 0.6.
	float poleSide;
	/// Leg: clearance the knee keeps from the wall (m). Default 0.08 (0.06 to the knee joint
	/// leaves the calf's flesh on the wall).
	float kneeClearance;
	///@{
	/// Leg: toe direction gains: side, lower leg, up along the wall. Default 1.0, 0.35, 0.5.
	float toeSideGain, toeLegGain, toeUpGain;
	///@}
	/// Full-body solver settings used by the pose stage. Default lbDefaultFullBodyIkDef() with
	/// wide pelvis travel (0.6 m each way).
	lbFullBodyIkDef fullBody;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbClimbDef;

/// Per-limb state of the sense stage.
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbClimbLimbState
{
	/// Where the limb is in its free, searching, candidate, locking, locked cycle.
	lbClimbLimbMode mode;
	/// Guide point the stick moves (world).
	lbVec3 guideWs;
	///@{
	/// Surface point last found under the guide point (world) and its normal (unit, outward).
	lbVec3 surfaceWs, normalWs;
	///@}
	/// True once a surface point has been found since the limb was selected.
	bool hasSurface;
	///@{
	/// Animated target (world): the hand or foot contact point, and its rotation.
	lbVec3 targetWs;
	lbQuat targetRotWs;
	///@}
	///@{
	/// Locking transition: where the target started (world) and the time spent (s).
	lbVec3 lockFromWs;
	float lockTimer;
	///@}
	///@{
	/// Smoothed IK and body alphas, in [0, 1].
	float ikAlpha, bodyAlpha;
	///@}
	/// Effective reach measured last frame (m).
	float reach;
	/// How far the surface in front of the reach centre lies beyond reach (m) while searching
	/// without a surface: 0 once a surface is within reach or when nothing lies in front.
	float beyondReach;
} lbClimbLimbState;

/// Per-character state of the climbing system: small and contiguous, owned by the caller.
/// Initialise with lbClimbState_Reset.
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbClimbState
{
	/// Hands L, R, feet L, R (lbLimb order).
	lbClimbLimbState limbs[4];
	/// The selected limb (lbLimb), or -1.
	int selected;
	///@{
	/// Stick input held for the selected limb (x right, y up along the surface, each -1..1).
	float stickX, stickY;
	///@}
	/// Smoothed body clearance offset (world displacement, m).
	lbVec3 bodyOffsetWs;
	/// The climbing frame: the model-to-world transform the character is carried by.
	lbTransform frameWs;
	/// Wall normal the frame faces (world, unit).
	lbVec3 wallNormalWs;
	/// How much the body stands on its free feet, in [0, 1]: 1 while no limb holds, ramped over
	/// alphaTime as holds lock and let go.
	float stand;
	/// Nonzero once a frame has been sensed.
	int initialized;
} lbClimbState;

/// What the game tells the sense stage each frame.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbSenseInput
{
	/// The world, seen through the scene-query interface. Required.
	const lbSceneQuery* query;
	/// The character's model-to-world transform this frame (used to start the climbing frame on the
	/// first frame or after lbClimbState_Reset; later frames carry their own).
	lbTransform characterWs;
	/// The animated (base) pose, model space. Required.
	const lbPose* animPose;
	/// The last pose the pose stage produced (model space, in last frame's targets.characterWs), for
	/// the reach centres and body probes; NULL uses animPose.
	const lbPose* lastPose;
	/// Frame time (s). <= 0 keeps the state; larger steps are split into steps of at most 1/30 s.
	float dt;
} lbClimbSenseInput;

/// Per-limb output of the sense stage (world space).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbLimbTarget
{
	/// The limb's mode this frame (from its state).
	lbClimbLimbMode mode;
	/// Target of the hand's joint (the wrist) or of the foot's toe tip (lb_soleToeTip, the point of
	/// the foot that touches the hold) (world, m).
	lbVec3 targetWs;
	/// Target rotation (world): the surface frame with the limb's offset.
	lbQuat targetRotWs;
	///@{
	/// Surface point and outward normal under the target (world); valid when hasSurface. Without a
	/// surface the normal is the wall's, except for a limb let go and still fading back to the
	/// animation (free, ikAlpha > 0): the normal of what it held. A free limb's surface (given by the
	/// sense stage to a hand let go of a top while it fades back, or by the caller,
	/// lbClimbTopOut_Carry) is where a top lies, not a hold: the pose stage then lets a knee over the
	/// lip above it and keeps that hand's elbow out of the block under it.
	lbVec3 surfaceWs, normalWs;
	bool hasSurface;
	///@}
	///@{
	/// Two-bone IK weight and full-body position alpha, in [0, 1].
	float ikAlpha, bodyAlpha;
	///@}
	/// True while held (locked), for the rotation cache.
	bool locked;
	///@{
	/// Guide point and reach centre (world) and effective reach (m), for debug drawing.
	lbVec3 guideWs, reachCentreWs;
	float reach;
	///@}
	/// While the limb searches and finds nothing it can hold: how far the surface in front of its
	/// reach centre (shoulder or hip) lies beyond its reach, measured square to that surface (m),
	/// up to LB_CLIMB_BEYOND_RANGE past it; 0 when a surface is within reach or none lies in front.
	/// A game walks the character that much closer (the system does not move it on the ground).
	float beyondReach;
} lbClimbLimbTarget;

/// The plain struct that joins the two stages.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbTargets
{
	/// World transform of the model frame the targets were made for: the climbing frame. A game
	/// moves its character (capsule, mesh) to it.
	lbTransform characterWs;
	/// World up.
	lbVec3 upWs;
	/// Body clearance offset (world displacement, m) the pose stage adds to the pelvis.
	lbVec3 bodyOffsetWs;
	/// Hands L, R, feet L, R.
	lbClimbLimbTarget limbs[4];
	///@{
	/// Body probes this frame (world): pelvis and chest probe centres and the push each asked for.
	lbVec3 probeWs[2];
	float probePush[2];
	///@}
	///@{
	/// Walls beside the body that the side probes found this frame (world): a point on each and its
	/// outward normal (unit), `sideWallCount` of them (0-2; zero-initialised targets have none). The
	/// pose stage keeps the knees off them as off the walls a limb holds: an inside corner's other
	/// wall, which no limb may hold.
	lbVec3 sideWallPointWs[2], sideWallNormalWs[2];
	int sideWallCount;
	///@}
	/// How much the body stands on its free feet, in [0, 1] (1 while no limb holds): the pose
	/// stage keeps the pelvis where the animation stands it by this much, so the body reaches
	/// with its spine and arms and a free foot never leaves the floor or sinks into it.
	float standWeight;
	/// Casts made this frame.
	int castCount;
	/// Frame time the targets were made for (s): the pose stage limits how fast the hands and knees
	/// turn by it (0: no limit).
	float dt;
} lbClimbTargets;

/// Small cache the pose stage keeps between frames (caller memory, one per character; zero it
/// or call lbClimbPoseCache_Reset before the first frame). World space, so it survives the
/// climbing frame moving.
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbClimbPoseCache
{
	/// Hand rotation (world) cached while unlocked, settled toward the palm flat on the wall while
	/// locking, and used while locked.
	lbQuat handRotWs[2];
	/// Cached leg side blend (-1..1), updated only inside the reach-ratio window.
	float legSide[2];
	///@{
	/// Each hand's rotation and each knee's direction (from the middle of its circle about the
	/// hip-ankle line) as last posed (world): their goals turn from there at no more than the
	/// def's rotationSpeed, so a new goal (a limb selected, released, a knee changing sides) never
	/// pops.
	lbQuat lastHandWs[2];
	lbVec3 lastKneeWs[2];
	///@}
	/// Each elbow's direction from the middle of its circle about the shoulder-wrist line (world).
	lbVec3 lastElbowWs[2];
	/// Each foot's rotation as last posed (world).
	lbQuat lastFootWs[2];
	/// Each hand's whole turn about its forearm last frame (rad, unwrapped): picks the forearm's
	/// roll branch so it passes half a turn without flipping.
	float lastHandTwist[2];
	/// The pelvis's and each spine bone's rotation as last posed (world, pelvis first): the body the
	/// full-body solve gives turns from there no faster than the def's rotationSpeed, nor than
	/// carries the shoulders at its followSpeed, so an effector fading in or out never jerks the
	/// torso.
	lbQuat lastBodyWs[1 + LB_MAX_SPINE];
	/// Each arm's upper arm, forearm and twist bones' rotations as last posed (world): an arm that
	/// is not held swings from there no faster than twice the def's rotationSpeed per bone, so the
	/// elbow's swivel and the forearm's roll, each within its own limit, never add up to a pop.
	lbQuat lastArmWs[2][2 + LB_MAX_TWIST];
	/// Each leg's thigh and calf rotations as last posed (world), limited the same way while the
	/// foot is not held.
	lbQuat lastLegWs[2][2];
	/// How far the full-body solve moved the pelvis last frame (world, m): the move changes from
	/// there no faster than the def's followSpeed, so the solve settling elsewhere for a frame
	/// never throws the body.
	lbVec3 lastBodyShiftWs;
	/// Which way each held foot's knee was turning about its hip-ankle line last frame while still
	/// on its way to its goal (+1 or -1 about the hip-to-ankle axis; 0 when it arrived or the foot
	/// was not held): a knee on its way keeps going the same way round.
	float kneeWay[2];
	/// Nonzero once the entries are valid.
	int valid;
} lbClimbPoseCache;

/// What the pose stage did.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbPoseResult
{
	/// Largest distance (m) a shoulder or hip stayed beyond its allowed reach from its lock after
	/// the joint body constraint: 0 when every locked limb could hold together.
	float constraintExcess;
	/// Rounds the joint body constraint used.
	int constraintRounds;
	/// Largest distance (m) a limb end stayed from its target after the limb solves (IK alpha 1).
	float remainingMax;
	///@{
	/// Hand orientation reliability per hand (0..1), knee side blend per leg (-1..1).
	float handReliability[2];
	float legSide[2];
	///@}
	/// Knee pole per leg (model space), for debug drawing.
	lbVec3 kneePoleMs[2];
} lbClimbPoseResult;

LB_EXTERN_C_BEGIN

/// Default climb def (see each field).
LB_API lbClimbDef lbDefaultClimbDef(void);

/// Default sense input (everything zero/NULL).
LB_API lbClimbSenseInput lbDefaultClimbSenseInput(void);

/// Resets a state: every limb free, nothing selected, the frame taken from the next sense input.
LB_API void lbClimbState_Reset(lbClimbState* state);

/// Resets a pose cache.
LB_API void lbClimbPoseCache_Reset(lbClimbPoseCache* cache);

/// Selects a limb (lbLimb) to steer; a locked or locking limb stays held until released. Selecting
/// a free limb starts its search from where the limb is. Returns lb_errorInvalidArgument for a
/// bad limb, lb_errorNullPointer, and lb_errorUnsupported (nothing changes) for a free foot while
/// the other foot is off the ground and no limb holds: lifting it would leave the body standing on
/// nothing.
LB_API lbResult lbClimb_Select(lbClimbState* state, int limb);

/// Sets the stick for the selected limb (x right, y up along the surface; clamped to the unit
/// disc). Non-finite input is rejected (lb_errorNonFinite) and the stick kept.
LB_API lbResult lbClimb_SetStick(lbClimbState* state, float x, float y);

/// Confirms the selected limb's candidate: it moves to the lock offset and locks. Returns
/// lb_errorInvalidArgument (nothing selected) or lb_errorUnsupported (no surface found yet), and
/// changes nothing then.
LB_API lbResult lbClimb_Confirm(lbClimbState* state);

/// Releases a limb (lbLimb; -1 = the selected one): it becomes free and blends back into the
/// animation. Returns lb_errorInvalidArgument for a bad limb, and lb_errorUnsupported (nothing
/// changes) for a hand that is the last limb holding while neither foot is free (on the ground):
/// the body would hang on nothing. Let the feet go first, or lbClimbState_Reset to drop off.
LB_API lbResult lbClimb_Release(lbClimbState* state, int limb);

/// Sense stage. Reads the animated (and last) pose and the world; updates `state`; writes
/// `outTargets`. Returns lb_ok, lb_errorNullPointer / lb_errorDefNotInitialized /
/// lb_errorSkeletonMismatch (nothing changes), or lb_errorNonFinite for a non-finite character
/// transform (state kept, previous targets re-issued).
LB_API lbResult lbClimbSense(lbClimbState* state, const lbClimbDef* def, const lbSkeleton* skeleton,
							 const lbHumanoid* humanoid, const lbClimbSenseInput* input, lbClimbTargets* outTargets);

/// Bytes of workspace lbClimbApplyPose needs for this skeleton.
LB_API size_t lbGetClimbWorkspaceSize(const lbSkeleton* skeleton);

/// Pose stage (model space): `pose` holds the animated pose (in targets->characterWs) on entry
/// and the climbing pose on exit. `cache` is updated (hand rotations, leg sides). `workspace`
/// holds at least lbGetClimbWorkspaceSize bytes, aligned for lbTransform (caller memory; nothing
/// is allocated); it also keeps what the stage derives from the skeleton and humanoid between
/// calls, so use one per character (or thread), reused every frame, and zero it after changing a
/// skeleton's rest arrays in place (see lbSolveFullBodyIk). outResult may be NULL. Returns an error and leaves pose and cache unchanged on
/// bad input.
LB_API lbResult lbClimbApplyPose(const lbClimbTargets* targets, const lbClimbDef* def, const lbSkeleton* skeleton,
								 const lbHumanoid* humanoid, lbClimbPoseCache* cache, lbPose* pose, void* workspace,
								 size_t workspaceSize, lbClimbPoseResult* outResult);

LB_EXTERN_C_END

/// @}
