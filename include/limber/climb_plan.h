// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref climb_plan group.

/// @defgroup climb_plan Hold planner and driver for the climbing system
/// Plans a climb to a goal point as a sequence of single-limb moves from hold to hold, then
/// drives the climbing system (lbClimb_Select, lbClimb_SetStick, lbClimb_Confirm,
/// lbClimb_Release) one frame at a time, as a player with a stick would.
/// - Holds: a list of points on climbable surfaces (world space) with their outward normals. A
///   sparse-hold wall gives them directly (lbSceneHolds); a continuous wall is sampled with
///   lbClimbSampleHolds, which casts on the climbable channel through an lbSceneQuery.
/// - The plan keeps three limbs held while the fourth moves (once all four are on the wall), keeps
///   every held limb within reach of a body placed between its holds, prefers comfortable reaches
///   (each limb near its def's comfort fraction of its reach) and alternating limbs.
/// - The driver steers each limb's guide point straight to its hold, waits for the target to
///   arrive, confirms, waits for the lock, and goes on with the next move.
/// All lengths in meters, times in seconds, world space unless named otherwise.
/// @{

#include "limber/climb.h"

/// A place a hand or a foot can hold (world space).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbHold
{
	/// Point on the climbable surface (m, world).
	lbVec3 pointWs;
	/// Outward unit normal of the surface there (world).
	lbVec3 normalWs;
	///@{
	/// How many surface samples lbClimbSampleHolds merged into it (0 for a caller's hold), and the
	/// first of them (world), which later samples are measured against.
	int samples;
	lbVec3 firstSampleWs;
	///@}
} lbClimbHold;

/// Body measures the planner places a climber with, measured from a rig (lbClimbPlanBodyFromRig).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbPlanBody
{
	/// Each limb's root (shoulders L, R, hips L, R) from the pelvis in the character's rest frame:
	/// x forward, y left, z up (m).
	lbVec3 rootFromPelvis[4];
	/// Effective reach of each limb, root to hold (m): the sense stage's reach (segment lengths
	/// minus the margin, capped by maxReach).
	float reach[4];
	/// Shortest fraction of the reach a hold may lie from the root (the def's minReach per kind).
	float minReach[4];
} lbClimbPlanBody;

/// Planner options. Fill with lbDefaultClimbPlanDef(); every default is listed here.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbPlanDef
{
	/// World up (unit). Default +Z.
	lbVec3 up;
	/// Preferred distance of a hold from its limb's root, as a fraction of the reach: hands,
	/// feet. Default 0.75, 0.7 (the climbing def's comfortReach).
	float comfort[2];
	/// Largest fraction of the reach a plan uses, so a limb held at the plan's edge is still well
	/// inside what the climbing system allows. Default 0.9.
	float reachUse;
	/// Distance of the pelvis from the wall plane (m). Default 0.3.
	float bodyDistance;
	/// The goal is reached when a hand holds a hold within this distance of it (m). Default 0.25.
	float goalRadius;
	/// Cost of a move: each move costs 1, plus this times the sum over held limbs of the squared
	/// difference between reach fraction and comfort. Default 4.
	float comfortCost;
	/// Added to a move of the limb that moved last. Default 1.5.
	float repeatCost;
	/// Added to a move of the same kind (hand, foot) as the last. Default 0.3.
	float sameKindCost;
	/// Weight of the distance-to-goal estimate (>= 1; larger plans faster, less evenly).
	/// Default 2.5.
	float greed;
	/// Discomfort added to a stance for each hand held above its shoulder less than 0.15 m out to
	/// its side of the body's centre line, growing to this 0.1 m further in (an arm raised
	/// overhead toward the head turns the upper arm past its range, 150 degrees; >= 0). Default 0,
	/// off: on in every planned climb, the plans it changes go over other limits in 4 of the 10
	/// planner scenarios (docs/climb.md); the story system plans with 3.
	float overheadInsideCost;
	/// Largest number of search nodes, each a stance reached by one move (sizes the workspace:
	/// about 70 bytes a node). Default 16384 (1.1 MB): a rig with shorter arms than the reference
	/// rigs takes more moves, and 8192 ran out on a 3 m wall.
	int maxNodes;
	/// Holds a limb considers per move, the nearest to where it would sit most comfortably after
	/// the body moves toward the goal. Default 8.
	int candidatesPerLimb;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbClimbPlanDef;

/// Where a plan starts and where it goes.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbPlanInput
{
	///@{
	/// Holds (world) and their count. Required; not retained.
	const lbClimbHold* holds;
	int holdCount;
	///@}
	///@{
	/// Held limbs' contact points (world) and which limbs hold (hands L, R, feet L, R). A held limb
	/// starts on its contact; a free one is placed on a hold first, hands before feet.
	lbVec3 contactWs[4];
	bool held[4];
	///@}
	/// Pelvis position (world) while nothing holds; with holds the body is placed between them.
	lbVec3 pelvisWs;
	/// Outward normal of the wall the climber faces (world, unit).
	lbVec3 wallNormalWs;
	/// Goal point (world).
	lbVec3 goalWs;
} lbClimbPlanInput;

/// One move of a plan: `limb` (lbLimb) goes to hold `hold` (an index into the input's holds).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbPlanMove
{
	/// The limb that moves (lbLimb: hands L, R, feet L, R).
	int limb;
	/// The hold it goes to: an index into lbClimbPlanInput::holds.
	int hold;
	/// Pelvis (world) the plan expects once the move is done, for debug drawing.
	lbVec3 pelvisWs;
} lbClimbPlanMove;

/// Outcome of a plan.
typedef enum lbClimbPlanStatus
{
	/// A plan reaches the goal.
	lb_climbPlanReached = 0,
	/// No sequence of moves over these holds reaches the goal (message logged saying why).
	lb_climbPlanUnreachable,
	/// The search ran out of nodes (maxNodes) or of move capacity before reaching the goal.
	lb_climbPlanOutOfBudget,
} lbClimbPlanStatus;

/// What lbPlanClimb found.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbPlanResult
{
	/// Whether the plan reaches the goal, and if not, why.
	lbClimbPlanStatus status;
	/// Moves written (the whole plan when reached; else the moves to the closest approach).
	int moveCount;
	/// Search nodes expanded.
	int nodesExpanded;
	/// Distance from the goal of the closest hand hold the plan reaches (m).
	float goalDistance;
} lbClimbPlanResult;

/// Per-frame state of the driver that plays a plan into an lbClimbState. Zero it or call
/// lbClimbDriver_Reset.
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbClimbDriver
{
	/// Index of the move being played; moveCount once done.
	int move;
	/// 0 select, 1 steer, 2 settle, 3 wait for the lock, 4 pause.
	int phase;
	/// Time in the current phase (s).
	float timer;
	///@{
	/// Closest in-plane distance of the guide from its hold during this move (m), and when it last
	/// improved (s), to notice a move that no longer progresses.
	float bestDistance, bestTime;
	///@}
	/// Nonzero once a move could not be carried out (its limb stopped short of the hold).
	int stuck;
} lbClimbDriver;

/// Options of the driver.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbDriverDef
{
	/// In-plane distance at which the guide counts as over its hold (m). Default 0.01.
	float arriveDistance;
	/// The found surface point must lie this close to the hold (m). Default 0.08.
	float surfaceDistance;
	///@{
	/// The animated target must be this close to its preview before confirming (m), and the guide
	/// rest over the hold this long (s), so the hand has turned to the wall when it locks. Default
	/// 0.01 m, 0.3 s.
	float settleDistance;
	float settleTime;
	///@}
	/// Pause between a lock and the next move (s). Default 0.15.
	float pause;
	/// A move whose guide comes no closer for this long is stuck (s). Default 1.5.
	float stallTime;
	/// ... unless the surface found under the guide lies within this of the hold (m): the limb then
	/// takes that surface (the body would not let it nearer). Default 0.15.
	float stallAccept;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbClimbDriverDef;

LB_EXTERN_C_BEGIN

/// Default planner def (see each field).
LB_API lbClimbPlanDef lbDefaultClimbPlanDef(void);

/// Default driver def (see each field).
LB_API lbClimbDriverDef lbDefaultClimbDriverDef(void);

/// Measures a rig for the planner: shoulder and hip offsets from the pelvis in the rest pose, and
/// each limb's effective reach as the climbing def computes it. Returns lb_errorNullPointer,
/// lb_errorDefNotInitialized or lb_errorInvalidArgument (a limb of zero length); outBody is
/// unchanged then.
LB_API lbResult lbClimbPlanBodyFromRig(const lbSkeleton* skeleton, const lbHumanoid* humanoid, const lbClimbDef* climbDef,
									   lbClimbPlanBody* outBody);

/// Fills a plan input's start from a climbing state: the held limbs' contacts and, when a limb
/// holds, the wall normal the climbing frame faces; `pelvisWs` is left for the caller. Returns lb_errorNullPointer.
LB_API lbResult lbClimbPlanInput_FromState(const lbClimbState* state, lbClimbPlanInput* input);

/// Samples a climbable surface into holds: rays along -normalWs over a grid on the plane through
/// `originWs` (spacing m; `halfWidth` to each side along the plane's horizontal, `heightLo` to
/// `heightHi` along up projected on the plane), from `depth` in front of the plane to `depth`
/// behind it, on `channelMask`. Hits within `mergeRadius` of a hold's first sample merge into it
/// (their mean), so a small hold gives one point and a continuous wall a grid at about that
/// spacing. Writes at most `capacity` holds; returns how many there are (more than capacity means
/// some were dropped), or -1 on bad input (logged). Casts at most (2 halfWidth / spacing + 1) x
/// ((heightHi - heightLo) / spacing + 1) rays; nothing is allocated.
LB_API int lbClimbSampleHolds(const lbSceneQuery* query, uint32_t channelMask, uint32_t ignoreOwnerId, lbVec3 originWs,
							  lbVec3 normalWs, lbVec3 up, float halfWidth, float heightLo, float heightHi, float depth,
							  float spacing, float mergeRadius, lbClimbHold* outHolds, int capacity);

/// Bytes of workspace lbPlanClimb needs for this many holds.
LB_API size_t lbGetClimbPlanWorkspaceSize(const lbClimbPlanDef* def, int holdCount);

/// Plans a climb: writes up to `capacity` moves to outMoves (caller memory) and the outcome to
/// outResult. `workspace` holds at least lbGetClimbPlanWorkspaceSize bytes aligned for a pointer;
/// nothing is allocated. Returns lb_ok whatever the plan's status (an unreachable goal is a normal
/// outcome, reported in outResult and logged with the reason); lb_errorNullPointer,
/// lb_errorDefNotInitialized, lb_errorInvalidArgument or lb_errorNonFinite on bad input, with
/// nothing written.
LB_API lbResult lbPlanClimb(const lbClimbPlanDef* def, const lbClimbPlanBody* body, const lbClimbPlanInput* input,
							void* workspace, size_t workspaceSize, lbClimbPlanMove* outMoves, int capacity,
							lbClimbPlanResult* outResult);

/// Resets a driver to the first move.
LB_API void lbClimbDriver_Reset(lbClimbDriver* driver);

/// One frame of the driver, called before lbClimbSense: reads `state` (the guide points, found
/// surfaces and limb modes the last sense wrote) and drives it through lbClimb_Select,
/// lbClimb_SetStick, lbClimb_Confirm and lbClimb_Release toward the current move's hold. `dt` is
/// the frame time the next sense will step (s). Returns true while moves remain; false once the
/// plan is done or a move got stuck (driver->stuck, logged).
LB_API bool lbClimbDrive(lbClimbDriver* driver, const lbClimbDriverDef* driverDef, lbClimbState* state,
						 const lbClimbDef* climbDef, const lbClimbHold* holds, int holdCount,
						 const lbClimbPlanMove* moves, int moveCount, float dt);

LB_EXTERN_C_END

/// @}
