// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Climbing per character per frame, sense + pose, on a bumpy wall mesh (4 x 4 m at 4 cm: 20,000
// triangles in the BVH). 64 characters climb side by side, each cycling its limbs at its own
// phase: every 0.8 s one limb is released, selected, steered up for half a second and confirmed,
// so the frames mix held, searching, candidate and locking limbs as play does. Rows: the whole
// frame (climb.per_character), the sense stage alone, the pose stage alone, and the pose stage
// with the body alphas zeroed (no full-body solve): the difference of the last two is what the
// full-body solve costs.
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "limber/climb.h"
#include "limber/climb_balance.h"
#include "limber/climb_plan.h"
#include "limber/limber.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LB_BENCH_DT (1.0f / 60.0f)
#define LB_WALL_X 0.35f

// A wall facing -X (toward characters standing at x = 0), bumps of +-2 cm.
static lbWorld* lbBenchWallMesh(int* outTriangles)
{
	const int nx = 100, nz = 100;
	const float size = 4.0f;
	lbVec3* v = (lbVec3*)malloc(sizeof(lbVec3) * (size_t)((nx + 1) * (nz + 1)));
	int32_t* idx = (int32_t*)malloc(sizeof(int32_t) * (size_t)(nx * nz * 6));
	for (int j = 0; j <= nz; ++j)
		for (int i = 0; i <= nx; ++i)
		{
			float y = -0.5f * size + size * (float)i / (float)nx, z = size * (float)j / (float)nz;
			float bump = 0.02f * sinf(7.0f * y) * cosf(5.0f * z);
			v[j * (nx + 1) + i] = lbMakeVec3(LB_WALL_X + bump, y, z);
		}
	int t = 0;
	for (int j = 0; j < nz; ++j)
		for (int i = 0; i < nx; ++i)
		{
			int a = j * (nx + 1) + i, b = a + 1, c = a + nx + 1, d = c + 1;
			// Wound so the face normals point to -X, toward the climbers.
			idx[t++] = a, idx[t++] = c, idx[t++] = b;
			idx[t++] = b, idx[t++] = c, idx[t++] = d;
		}
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* w = lbCreateWorld(&wd);
	lbMeshDef md = lbDefaultMeshDef();
	md.vertices = v;
	md.vertexCount = (nx + 1) * (nz + 1);
	md.indices = idx;
	md.triangleCount = t / 3;
	md.channels = LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL;
	lbWorld_AddMesh(w, &md);
	free(v);
	free(idx);
	*outTriangles = t / 3;
	return w;
}

typedef struct lbBenchClimber
{
	lbClimbState state;
	lbClimbTargets targets;
	lbClimbPoseCache cache;
	lbTransform characterWs;
	lbPose pose, last;
	float phase;
} lbBenchClimber;

// One frame of the scripted play of a climber at time t: release, select, steer, confirm.
static void lbBenchClimbInput(lbBenchClimber* c, float t)
{
	float local = fmodf(t + c->phase, 3.2f);
	int limb = (int)(local / 0.8f);
	float in = local - 0.8f * (float)limb;
	const int order[4] = { lb_limbArmR, lb_limbLegL, lb_limbArmL, lb_limbLegR };
	limb = order[limb];
	if (in < LB_BENCH_DT)
	{
		lbClimb_Release(&c->state, limb);
		lbClimb_Select(&c->state, limb);
		lbClimb_SetStick(&c->state, 0.3f, 1.0f);
	}
	else if (in >= 0.5f && in < 0.5f + LB_BENCH_DT)
	{
		lbClimb_SetStick(&c->state, 0.0f, 0.0f);
		lbClimb_Confirm(&c->state);
	}
}

// Planning a 5 m climb on a wall of 200 holds (4 x 7.2 m, 8 cm holds, seed 3): from standing in
// front of it to the hold nearest 6.8 m up the middle. Thread CPU time per plan, median of the
// repeats (each the mean of several plans).
static void lbBenchClimbPlanner(const lbBenchOptions* options)
{
	if (!lbBenchSelected(options, "climb.planner"))
		return;
	lbSceneDef sp = lbDefaultSceneDef(lb_sceneHolds);
	sp.distance = 0.35f;
	sp.width = 4.0f;
	sp.height = 7.2f;
	sp.holdSize = 0.08f;
	sp.holdCount = 200.0f;
	sp.seed = 3;
	lbVec3 centres[200];
	if (lbSceneHolds(&sp, centres, 200) != 200)
		return;
	lbClimbHold holds[200];
	lbVec3 goal = centres[0];
	for (int i = 0; i < 200; ++i)
	{
		holds[i].pointWs = centres[i];
		holds[i].normalWs = lbMakeVec3(-1.0f, 0.0f, 0.0f);
		holds[i].samples = 0;
		holds[i].firstSampleWs = centres[i];
		if (lbDistance(centres[i], lbMakeVec3(0.3f, 0.0f, 6.8f)) < lbDistance(goal, lbMakeVec3(0.3f, 0.0f, 6.8f)))
			goal = centres[i];
	}
	lbSkeleton* skel = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid h;
	lbMapHumanoid(skel, NULL, &h);
	lbClimbDef def = lbDefaultClimbDef();
	lbClimbPlanBody body;
	lbClimbPlanBodyFromRig(skel, &h, &def, &body);
	lbClimbPlanDef pd = lbDefaultClimbPlanDef();
	lbClimbPlanInput in;
	memset(&in, 0, sizeof in);
	in.holds = holds;
	in.holdCount = 200;
	in.pelvisWs = lbSkeleton_GetRestModel(skel, h.pelvis).p;
	in.pelvisWs = lbMakeVec3(0.0f, 0.0f, lbDot(in.pelvisWs, h.upMs));
	in.wallNormalWs = lbMakeVec3(-1.0f, 0.0f, 0.0f);
	in.goalWs = goal;
	size_t size = lbGetClimbPlanWorkspaceSize(&pd, 200);
	void* ws = malloc(size);
	lbClimbPlanMove moves[256];
	lbClimbPlanResult res;
	memset(&res, 0, sizeof res);
	const int plans = options->smoke ? 1 : 20;
	double* us = (double*)malloc(sizeof(double) * (size_t)options->repeats);
	for (int r = 0; r < options->repeats; ++r)
	{
		uint64_t t0 = lbBenchThreadNs();
		for (int k = 0; k < plans; ++k)
			lbPlanClimb(&pd, &body, &in, ws, size, moves, 256, &res);
		us[r] = (double)(lbBenchThreadNs() - t0) * 1.0e-3 / (double)plans;
		lbBenchSink(moves);
	}
	lbBenchReport(options, "climb.planner", lbBenchMedian(us, options->repeats), "us");
	if (!options->smoke)
		printf("# climb.planner: status %d, %d moves, %d nodes expanded, %.2f m climbed\n", (int)res.status, res.moveCount,
			   res.nodesExpanded, (double)(goal.z - 1.8f));
	free(us);
	free(ws);
	lbDestroySkeleton(skel);
}

// The balance step alone (centre of mass of a pose, the support of four held contacts, the shift),
// per character: added to climb.per_character when balance is on.
static void lbBenchClimbBalance(const lbBenchOptions* options)
{
	if (!lbBenchSelected(options, "climb.balance"))
		return;
	lbSkeleton* skel = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid h;
	lbMapHumanoid(skel, NULL, &h);
	lbPose pose = lbCreatePose(skel);
	lbClimbBalanceDef bd = lbDefaultClimbBalanceDef();
	lbClimbBalanceState bs;
	lbClimbBalanceState_Reset(&bs);
	lbClimbTargets t;
	memset(&t, 0, sizeof t);
	t.characterWs = lbTransform_identity;
	const lbVec3 holds[4] = { { 0.35f, 0.3f, 1.9f }, { 0.35f, -0.3f, 1.8f }, { 0.35f, 0.2f, 0.5f }, { 0.35f, -0.2f, 0.4f } };
	for (int i = 0; i < 4; ++i)
	{
		t.limbs[i].locked = true;
		t.limbs[i].hasSurface = true;
		t.limbs[i].surfaceWs = t.limbs[i].targetWs = holds[i];
		t.limbs[i].normalWs = lbMakeVec3(-1.0f, 0.0f, 0.0f);
	}
	const int calls = options->smoke ? 10 : 20000;
	double* us = (double*)malloc(sizeof(double) * (size_t)options->repeats);
	for (int r = 0; r < options->repeats; ++r)
	{
		uint64_t t0 = lbBenchThreadNs();
		for (int k = 0; k < calls; ++k)
		{
			t.bodyOffsetWs = lbVec3_zero;
			lbClimbBalance(&bs, &bd, &h, &pose, LB_BENCH_DT, &t, NULL);
		}
		us[r] = (double)(lbBenchThreadNs() - t0) * 1.0e-3 / (double)calls;
		lbBenchSink(&t);
	}
	lbBenchReport(options, "climb.balance", lbBenchMedian(us, options->repeats), "us");
	free(us);
	lbDestroyPose(&pose);
	lbDestroySkeleton(skel);
}

void lbBenchClimb(const lbBenchOptions* options);
void lbBenchClimb(const lbBenchOptions* options)
{
	lbBenchClimbPlanner(options);
	lbBenchClimbBalance(options);
	// Any of the rows below selects the run; the pass without the full-body solve only when its row
	// is selected, so `--bench=climb.per_character` under callgrind counts exactly the timed frame.
	const bool flatPass = lbBenchSelected(options, "climb.pose.no_full_body");
	if (!flatPass && !lbBenchSelected(options, "climb.per_character") && !lbBenchSelected(options, "climb.sense") &&
		!lbBenchSelected(options, "climb.pose") && !lbBenchSelected(options, "climb.casts_per_frame") &&
		!lbBenchSelected(options, "climb.held_limbs"))
		return;
	int triangles = 0;
	lbWorld* world = lbBenchWallMesh(&triangles);
	lbSceneQuery query = lbWorld_GetQuery(world);
	lbSkeleton* skel = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid h;
	lbMapHumanoid(skel, NULL, &h);
	lbPose anim = lbCreatePose(skel);
	lbClimbDef def = lbDefaultClimbDef();
	const int count = options->smoke ? 2 : 64;
	lbBenchClimber* cs = (lbBenchClimber*)calloc((size_t)count, sizeof(lbBenchClimber));
	size_t wsSize = lbGetClimbWorkspaceSize(skel);
	void* ws = malloc(wsSize);
	lbQuat face = lbQuatFromTwoAxes(h.upMs, lbVec3_axisZ, h.forwardMs, lbVec3_axisX);
	for (int i = 0; i < count; ++i)
	{
		lbClimbState_Reset(&cs[i].state);
		lbClimbPoseCache_Reset(&cs[i].cache);
		cs[i].characterWs = lbMakeTransform(lbMakeVec3(0.0f, -1.5f + 3.0f * (float)i / (float)count, 0.0f), face);
		cs[i].pose = lbCreatePose(skel);
		cs[i].last = lbCreatePose(skel);
		cs[i].phase = 3.2f * (float)i / (float)count;
	}
	// Settle: every character gets all four limbs on the wall first (not timed).
	const int warm = options->smoke ? 30 : 240, frames = options->smoke ? 10 : 240;
	double* total = (double*)malloc(sizeof(double) * (size_t)options->repeats);
	double* sense = (double*)malloc(sizeof(double) * (size_t)options->repeats);
	double* pose = (double*)malloc(sizeof(double) * (size_t)options->repeats);
	double* noBody = (double*)malloc(sizeof(double) * (size_t)options->repeats);
	lbClimbTargets* flatTargets = (lbClimbTargets*)malloc(sizeof(lbClimbTargets) * (size_t)count);
	lbClimbPoseCache* flatCaches = (lbClimbPoseCache*)malloc(sizeof(lbClimbPoseCache) * (size_t)count);
	float t = 0.0f;
	for (int r = -1; r < options->repeats; ++r)
	{
		int n = r < 0 ? warm : frames;
		uint64_t senseNs = 0, poseNs = 0, noBodyNs = 0;
		for (int k = 0; k < n; ++k, t += LB_BENCH_DT)
		{
			// The clock is read around the whole crowd's sense, then its pose stage, as the prone
			// bench does: a thread-time read is a system call that costs a microsecond or more on
			// some VMs, and read around every call it was counted into every character's frame.
			for (int i = 0; i < count; ++i)
				lbBenchClimbInput(&cs[i], t);
			uint64_t t0 = lbBenchThreadNs();
			for (int i = 0; i < count; ++i)
			{
				lbBenchClimber* c = &cs[i];
				lbClimbSenseInput in = lbDefaultClimbSenseInput();
				in.query = &query;
				in.characterWs = c->characterWs;
				in.animPose = &anim;
				in.lastPose = t > 0.0f ? &c->last : NULL;
				in.dt = LB_BENCH_DT;
				lbClimbSense(&c->state, &def, skel, &h, &in, &c->targets);
			}
			uint64_t t1 = lbBenchThreadNs();
			for (int i = 0; i < count; ++i)
			{
				lbBenchClimber* c = &cs[i];
				lbPose_Copy(&c->pose, &anim);
				lbClimbApplyPose(&c->targets, &def, skel, &h, &c->cache, &c->pose, ws, wsSize, NULL);
			}
			uint64_t t2 = lbBenchThreadNs();
			senseNs += t1 - t0;
			poseNs += t2 - t1;
			for (int i = 0; i < count; ++i)
				lbPose_Copy(&cs[i].last, &cs[i].pose);
			if (!flatPass)
				continue;
			// The same pose stage without the full-body solve, on scratch copies of the targets and
			// caches (the characters' poses are kept in `last` already).
			for (int i = 0; i < count; ++i)
			{
				flatTargets[i] = cs[i].targets;
				for (int l = 0; l < 4; ++l)
					flatTargets[i].limbs[l].bodyAlpha = 0.0f;
				flatCaches[i] = cs[i].cache;
			}
			uint64_t t3 = lbBenchThreadNs();
			for (int i = 0; i < count; ++i)
			{
				lbPose_Copy(&cs[i].pose, &anim);
				lbClimbApplyPose(&flatTargets[i], &def, skel, &h, &flatCaches[i], &cs[i].pose, ws, wsSize, NULL);
			}
			noBodyNs += lbBenchThreadNs() - t3;
			lbBenchSink(cs[0].pose.model);
		}
		if (r < 0)
			continue;
		double per = 1.0e-3 / ((double)n * (double)count);
		sense[r] = (double)senseNs * per;
		pose[r] = (double)poseNs * per;
		total[r] = sense[r] + pose[r];
		noBody[r] = (double)noBodyNs * per;
	}
	lbBenchReport(options, "climb.per_character", lbBenchMedian(total, options->repeats), "us");
	lbBenchReport(options, "climb.sense", lbBenchMedian(sense, options->repeats), "us");
	lbBenchReport(options, "climb.pose", lbBenchMedian(pose, options->repeats), "us");
	if (flatPass)
		lbBenchReport(options, "climb.pose.no_full_body", lbBenchMedian(noBody, options->repeats), "us");
	int held = 0, casts = 0;
	for (int i = 0; i < count; ++i)
	{
		casts += cs[i].targets.castCount;
		for (int l = 0; l < 4; ++l)
			held += cs[i].targets.limbs[l].locked;
	}
	lbBenchReport(options, "climb.casts_per_frame", (double)casts / (double)count, "casts");
	lbBenchReport(options, "climb.held_limbs", (double)held / (double)count, "limbs");
	if (!options->smoke)
		printf("# climb wall mesh: %d triangles, %d characters\n", triangles, count);
	for (int i = 0; i < count; ++i)
	{
		lbDestroyPose(&cs[i].pose);
		lbDestroyPose(&cs[i].last);
	}
	free(cs);
	free(ws);
	free(total);
	free(sense);
	free(pose);
	free(noBody);
	free(flatTargets);
	free(flatCaches);
	lbDestroyPose(&anim);
	lbDestroySkeleton(skel);
	lbDestroyWorld(world);
}
