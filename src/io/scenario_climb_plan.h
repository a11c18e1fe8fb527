// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The hold planner in the scenario runner: `"planner": {"goal": [x, y, z]}` in a climb system's
// config samples the climbable surface in front of the character, plans a climb to the goal and
// drives the climbing system's calls every frame, planning again from where the climber is when
// a move stalls.
#pragma once

#include "scenario_internal.h"

#include "limber/climb_plan.h"

typedef struct lbClimbRunPlanner lbClimbRunPlanner;

/// Checks config.planner (absent is fine); writes whether it is there and its goal (world, m).
bool lbClimbRunPlanner_Read(lbJsonCheck* check, const cJSON* config, bool* outPresent, lbVec3* outGoal);

/// Samples the holds and plans from the character standing at ctx->characterWs. NULL with
/// *outResult set (and logged) when the goal cannot be reached or memory runs out.
lbClimbRunPlanner* lbCreateClimbRunPlanner(const lbRunContext* ctx, const lbClimbDef* def, const lbSceneQuery* query,
										   lbVec3 goalWs, lbResult* outResult);

/// lbCreateClimbRunPlanner planning with `planDef` (up set from `def`) instead of the default.
lbClimbRunPlanner* lbCreateClimbRunPlannerWith(const lbRunContext* ctx, const lbClimbDef* def,
											   const lbClimbPlanDef* planDef, const lbSceneQuery* query, lbVec3 goalWs,
											   lbResult* outResult);

void lbDestroyClimbRunPlanner(lbClimbRunPlanner* planner);

/// One frame before the sense stage: drives `state` toward the current move's hold; replans from
/// the state (pelvis at pelvisWs) when a move stalls.
void lbClimbRunPlanner_Step(lbClimbRunPlanner* planner, lbClimbState* state, const lbClimbDef* def, lbVec3 pelvisWs,
							float dt);

/// lb_ok while the plan plays (or once every move is played); otherwise the error logged when a
/// move's limb did not reach its hold (it stalled and planning again from there failed, or it
/// took longer than the per-move bound): the run must not carry on as if climbing.
lbResult lbClimbRunPlanner_Failure(const lbClimbRunPlanner* planner);

/// Move being played and moves planned, for the report.
void lbClimbRunPlanner_Progress(const lbClimbRunPlanner* planner, int* outMove, int* outMoveCount);

/// The hold the current move goes to (world); false when done.
bool lbClimbRunPlanner_NextHold(const lbClimbRunPlanner* planner, lbVec3* outHoldWs);
