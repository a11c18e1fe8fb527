// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref climb_balance group.

/// @defgroup climb_balance Balance for the climbing system
/// With gravity along -up, the climbing body shifts so its centre of mass moves toward the support
/// of the held contacts: when a hand lets go the body swings under the holds that remain, and with
/// both feet on a slab the hips come over the feet. Called between lbClimbSense and
/// lbClimbApplyPose: it adds a smoothed shift to the targets' body offset, which the pose stage
/// applies to the pelvis before it holds the body to every locked limb, so the shift goes only as
/// far as the locked limbs allow and no locked contact moves.
///
/// Segment masses and centres are the adjusted Zatsiorsky-Seluyanov parameters of P. de Leva,
/// "Adjustments to Zatsiorsky-Seluyanov's segment inertia parameters", J. Biomech. 29(9), 1996,
/// Table 4 (male), applied to the rig's own joints (so its measured segment lengths).
/// World space, meters, seconds.
/// @{

#include "limber/climb.h"

/// Balance options. Fill with lbDefaultClimbBalanceDef(); every default is listed here.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbBalanceDef
{
	/// World up (unit); gravity acts along -up. Default +Z.
	lbVec3 up;
	/// Share of the centre of mass's horizontal distance from the support that the body shifts
	/// each frame's target by, 0 (off) to 1. Default 1.
	float weight;
	/// Largest shift (m). Default 0.25.
	float maxShift;
	/// Exponential speed at which the shift follows its target (1/s). Default 3.
	float speed;
	/// Largest part of the shift toward the wall, along its horizontal normal (m): on a vertical wall
	/// the support lies in the wall's plane, where the body cannot go. Default 0.05.
	float maxIntoWall;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbClimbBalanceDef;

/// Per-character balance state (caller memory); zero it or call lbClimbBalanceState_Reset.
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbClimbBalanceState
{
	/// Current shift of the body (world displacement, m, horizontal).
	lbVec3 shiftWs;
} lbClimbBalanceState;

/// What one balance step measured.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbClimbBalanceResult
{
	/// Centre of mass of the pose it was given (world, m).
	lbVec3 comWs;
	/// Horizontal distance (m) from the centre of mass to the support region (the convex hull of the
	/// held contacts seen from above); 0 inside it or with nothing held.
	float supportDistance;
	/// Held contacts that made the support.
	int supportCount;
} lbClimbBalanceResult;

LB_EXTERN_C_BEGIN

/// Default balance def (see each field).
LB_API lbClimbBalanceDef lbDefaultClimbBalanceDef(void);

/// Resets a balance state (no shift).
LB_API void lbClimbBalanceState_Reset(lbClimbBalanceState* state);

/// Centre of mass of a humanoid pose (model space in, world out through `characterWs`), from de
/// Leva's segment mass fractions and centre positions on the pose's joints: head, trunk, upper
/// arms, forearms, hands, thighs, shanks, feet. Returns lb_errorNullPointer or
/// lb_errorSkeletonMismatch (a pose with fewer bones than the map names); *outComWs unchanged then.
LB_API lbResult lbHumanoidCentreOfMass(const lbHumanoid* humanoid, const lbPose* pose, lbTransform characterWs,
									   lbVec3* outComWs);

/// One balance step: measures the centre of mass of `pose` (the last pose the pose stage made, in
/// targets->characterWs; NULL keeps the shift and adds it), moves the shift toward bringing it over
/// the support of the held limbs (`weight` of the way, at most `maxShift`, smoothed at `speed`) and
/// adds it to targets->bodyOffsetWs. With nothing held the shift eases back to zero. Returns
/// lb_errorNullPointer, lb_errorDefNotInitialized, or lb_errorNonFinite (nothing changed).
LB_API lbResult lbClimbBalance(lbClimbBalanceState* state, const lbClimbBalanceDef* def, const lbHumanoid* humanoid,
							   const lbPose* pose, float dt, lbClimbTargets* targets, lbClimbBalanceResult* outResult);

LB_EXTERN_C_END

/// @}
