// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The run's state, shared by the runner (scenario_run.c) and the report writers (report.c).
#pragma once

#include "scenario_internal.h"

struct lbRun
{
	const lbScenario* scenario;
	const lbSystemEntry* systemEntry;
	const lbMotionEntry* motionEntry;
	void* system;
	void* motion;
	lbSkeleton* skeleton;
	// An imported rig owns the skeleton, meshes and clips (NULL for the built-in rigs).
	struct lbImportedRig* imported;
	lbHumanoid humanoid;
	lbPose pose;
	// The base motion's pose of the current frame, copied before the system's pose stage: the
	// metrics charge the system only for what it adds to it.
	lbPose basePose;
	lbRunWorld* world;
	lbMetrics* metrics;
	lbRunContext ctx;
	lbSystemOutput output;
	lbVec3 upWs;
	// Controller state (world).
	lbVec3 position;
	lbVec3 desiredVelocity;
	float verticalSpeed;
	float headingDeg;
	float stateTime;
	bool resetPending;
	// Set while falling with no ground anywhere below (reported once per fall).
	bool fellWithNoGround;
	// Step following (lbFollowGround): the height's offset from the support height, eased out
	// so that the height follows the support's own motion without lag and a jump in it without a
	// pop; invalid after a fall, a teleport or a climb (the next grounded frame starts from the
	// current height).
	float stepOffset;
	float stepTarget;
	bool stepOffsetValid;
	// Riser (m) of the flight up ahead of a walk this frame, 0 for none (lbSteepSpeed):
	// the height rides toward the higher foot's ground on steep ones.
	float flightRiser;
	// Per foot, the motion's support point last frame, where the foot last stood (world) and the
	// ground height there, and whether these hold anything yet.
	lbVec3 supportPrev[2];
	lbVec3 supportLift[2];
	float supportLiftGround[2];
	bool supportValid;
	// The rest soles' height along the model up plus the rest pelvis's place across it (model, m):
	// the base pose is moved back by it (lbRunRestOffset).
	lbVec3 restOffset;
	bool soleFromFirstPose;
	int frame;
	float time;
	int nextEvent;
	lbFrameMetrics lastMetrics;
	lbMetricsSummary summaryAtEnd;
	// Recorded series, one entry per scenario frame.
	lbFrameMetrics* series;
	float* values;
	double* solveUs;
	unsigned char* states;
};
