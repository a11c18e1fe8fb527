// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The crowd calls give, bit for bit, what the per-character calls give, on both reference rigs:
// the foot system (a walking crowd on a rocky heightfield, every mechanism on; its pose stage's
// batched leg solves to the batch solve's tolerance, every split bit for bit), the prone system (a
// crowd lying on a slope) and the climb system (a row of climbers steering limbs on a wall), run
// through the calling thread, the built-in pool with several threads, and a job system of the
// test's own that runs ranges in reverse order under its own worker numbering. Also: the pool runs
// every item of a batch exactly once, and bad input gives an error with nothing changed.
#include "limber/limber.h"
#include "test_macros.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DT (1.0f / 60.0f)

// ---------------------------------------------------------------------------------------------
// A job system of the test's own: ranges of minRange items, run in reverse order, each with worker
// index (range number mod workerCount); everything runs inside enqueueTask.
typedef struct ReverseJobs
{
	int workerCount;
	int ranges;
} ReverseJobs;

static void* reverseEnqueue(lbTaskFcn* task, int itemCount, int minRange, void* taskContext, void* userContext)
{
	ReverseJobs* j = (ReverseJobs*)userContext;
	int size = minRange < 1 ? 1 : minRange;
	int n = (itemCount + size - 1) / size;
	for (int r = n - 1; r >= 0; --r)
	{
		int b = r * size, e = b + size < itemCount ? b + size : itemCount;
		task(b, e, r % j->workerCount, taskContext);
		j->ranges++;
	}
	return NULL;
}

static lbParallel reverseParallel(ReverseJobs* j)
{
	lbParallel p = { reverseEnqueue, NULL, j->workerCount, j };
	return p;
}

// ---------------------------------------------------------------------------------------------
// The pool: each item of a batch runs once, on a worker index in range, for several batch sizes.
typedef struct CountTask
{
	int* hits;
	int workerCount;
	int badWorker;
} CountTask;

static void countRange(int begin, int end, int worker, void* context)
{
	CountTask* t = (CountTask*)context;
	if (worker < 0 || worker >= t->workerCount)
		t->badWorker = 1;
	for (int i = begin; i < end; ++i)
		t->hits[i]++; // each item belongs to one range, so no two threads write one slot
}

// A task that runs a batch of its own on the same pool (which then runs on the task's thread).
typedef struct NestedTask
{
	lbParallel* par;
	int* hits;
	int inner;
	int workerCount;
	int badWorker;
} NestedTask;

static void nestedRange(int begin, int end, int worker, void* context)
{
	NestedTask* t = (NestedTask*)context;
	for (int i = begin; i < end; ++i)
	{
		CountTask inner = { t->hits + (size_t)i * (size_t)t->inner, t->workerCount, 0 };
		lbParallelFor(t->par, countRange, t->inner, 1, &inner);
		if (inner.badWorker || worker < 0 || worker >= t->workerCount)
			t->badWorker = 1;
	}
}

static int testPoolNested(void)
{
	lbThreadPool* pool = lbCreateThreadPool(3);
	lbParallel par = lbThreadPool_GetParallel(pool);
	enum
	{
		Outer = 40,
		Inner = 17
	};
	int* hits = (int*)calloc(Outer * Inner, sizeof(int));
	NestedTask t = { &par, hits, Inner, 3, 0 };
	lbParallelFor(&par, nestedRange, Outer, 1, &t);
	for (int i = 0; i < Outer * Inner; ++i)
		ENSURE(hits[i] == 1);
	ENSURE(t.badWorker == 0);
	free(hits);
	lbDestroyThreadPool(pool);
	return 0;
}

static int testPoolRunsEveryItemOnce(void)
{
	const int sizes[] = { 1, 2, 7, 64, 1000, 4099 };
	for (int threads = 1; threads <= 5; threads += 2)
	{
		lbThreadPool* pool = lbCreateThreadPool(threads);
		ENSURE(pool != NULL);
		lbParallel par = lbThreadPool_GetParallel(pool);
		ENSURE(par.workerCount == threads);
		for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
		{
			int* hits = (int*)calloc((size_t)sizes[s], sizeof(int));
			CountTask t = { hits, threads, 0 };
			for (int rep = 0; rep < 3; ++rep)
				lbParallelFor(&par, countRange, sizes[s], 3, &t);
			for (int i = 0; i < sizes[s]; ++i)
				ENSURE(hits[i] == 3);
			ENSURE(t.badWorker == 0);
			free(hits);
		}
		lbDestroyThreadPool(pool);
	}
	ENSURE(lbGetCoreCount() >= 1);
	lbParallel none = lbThreadPool_GetParallel(NULL);
	ENSURE(none.enqueueTask == NULL && none.workerCount == 1);
	lbDestroyThreadPool(NULL);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Shared fixture: a rig, its humanoid map, poses per character.
typedef struct Rig
{
	lbReferenceRig id;
	lbSkeleton* skel;
	lbHumanoid h;
} Rig;

static void rigInit(Rig* r, lbReferenceRig id)
{
	r->id = id;
	r->skel = lbCreateReferenceRig(id);
	ENSURE(r->skel != NULL);
	ENSURE(lbMapHumanoid(r->skel, NULL, &r->h) == lb_ok);
}

static lbPose* makePoses(const Rig* r, int n)
{
	lbPose* p = (lbPose*)calloc((size_t)n, sizeof(lbPose));
	for (int i = 0; i < n; ++i)
		p[i] = lbCreatePose(r->skel);
	return p;
}

static void freePoses(lbPose* p, int n)
{
	for (int i = 0; i < n; ++i)
		lbDestroyPose(&p[i]);
	free(p);
}

static bool posesEqual(const lbPose* a, const lbPose* b, int n)
{
	for (int i = 0; i < n; ++i)
	{
		size_t bytes = sizeof(lbTransform) * (size_t)a[i].boneCount;
		if (a[i].boneCount != b[i].boneCount || memcmp(a[i].local, b[i].local, bytes) != 0 ||
			memcmp(a[i].model, b[i].model, bytes) != 0)
			return false;
	}
	return true;
}

// The same rotation (q and -q alike) to within tol radians, from the vector part of conj(a) b (an
// arc cosine of the dot loses the small angles).
static bool sameRotation(lbQuat a, lbQuat b, float tol)
{
	const double x = (double)a.w * b.x - (double)a.x * b.w - (double)a.y * b.z + (double)a.z * b.y;
	const double y = (double)a.w * b.y + (double)a.x * b.z - (double)a.y * b.w - (double)a.z * b.x;
	const double z = (double)a.w * b.z - (double)a.x * b.y + (double)a.y * b.x - (double)a.z * b.w;
	const double w = (double)a.w * b.w + (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z;
	return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w)) <= (double)tol;
}

// Every bone's model and local transform of a[i] within posTol (m) and rotTol (radians) of b[i].
static bool posesClose(const lbPose* a, const lbPose* b, int n, float posTol, float rotTol)
{
	for (int i = 0; i < n; ++i)
	{
		if (a[i].boneCount != b[i].boneCount)
			return false;
		for (int k = 0; k < a[i].boneCount; ++k)
		{
			const lbTransform *m0 = &a[i].model[k], *m1 = &b[i].model[k], *l0 = &a[i].local[k], *l1 = &b[i].local[k];
			if (!(lbDistance(m0->p, m1->p) <= posTol && lbDistance(l0->p, l1->p) <= posTol &&
				  sameRotation(m0->q, m1->q, rotTol) && sameRotation(l0->q, l1->q, rotTol)))
				return false;
		}
	}
	return true;
}

// Model up on world +Z, model forward on heading `yaw`, at p.
static lbTransform placeZUp(const Rig* r, float yaw, lbVec3 p)
{
	lbVec3 heading = lbMakeVec3(cosf(yaw), sinf(yaw), 0.0f);
	return lbMakeTransform(p, lbQuatFromTwoAxes(r->h.upMs, lbVec3_axisZ, r->h.forwardMs, heading));
}

// ---------------------------------------------------------------------------------------------
// Foot: a walking crowd on a rocky heightfield.
enum
{
	kFootCount = 150,
	kFootFrames = 12,
	kWalkPoses = 24
};

// The ways a crowd is run: 0 the per-character calls (reference), 1 crowd calls on the calling
// thread, 2 the built-in pool of 3 threads, 3 the reverse job system with 4 workers.
static lbParallel modeParallel(int mode, lbThreadPool* pool, ReverseJobs* jobs)
{
	if (mode == 2)
		return lbThreadPool_GetParallel(pool);
	if (mode == 3)
		return reverseParallel(jobs);
	lbParallel p = { NULL, NULL, 1, NULL };
	return p;
}

typedef struct FootRun
{
	lbPose* poses;          // final poses
	lbFootTargets* targets; // final targets
	lbResult firstError;
} FootRun;

static void runFootCrowd(const Rig* r, lbWorld* world, const lbPose* walk, int mode, int badCharacter, FootRun* out)
{
	lbThreadPool* pool = lbCreateThreadPool(3);
	ReverseJobs jobs = { 4, 0 };
	lbParallel par = modeParallel(mode, pool, &jobs);
	lbSceneQuery q = lbWorld_GetQuery(world);
	lbFootDef def = lbDefaultFootDef();
	def.traceRate = 0.0f; // cast every frame
	def.heelToeTraces = true;
	lbFootState* states = (lbFootState*)calloc(kFootCount, sizeof(lbFootState));
	lbFootSenseInput* inputs = (lbFootSenseInput*)calloc(kFootCount, sizeof(lbFootSenseInput));
	out->targets = (lbFootTargets*)calloc(kFootCount, sizeof(lbFootTargets));
	out->poses = makePoses(r, kFootCount);
	out->firstError = lb_ok;
	for (int i = 0; i < kFootCount; ++i)
	{
		lbFootState_Reset(&states[i]);
		lbFootState_SetTracePhase(&states[i], (float)i / kFootCount);
	}
	for (int f = 0; f < kFootFrames; ++f)
	{
		for (int i = 0; i < kFootCount; ++i)
		{
			// Each walks its own line at 1.3 m/s, at its own point of the gait cycle.
			float yaw = 0.37f * (float)i;
			lbVec3 dir = lbMakeVec3(cosf(yaw), sinf(yaw), 0.0f);
			lbVec3 p = lbMakeVec3(-12.0f + 1.6f * (float)(i % 15), -12.0f + 1.6f * (float)(i / 15), 0.0f);
			p = lbMulAdd(p, 1.3f * DT * (float)f, dir);
			lbHit hit;
			lbQueryInput qi = lbDefaultQueryInput();
			qi.start = lbMakeVec3(p.x, p.y, 5.0f);
			qi.end = lbMakeVec3(p.x, p.y, -5.0f);
			hit = lbWorld_RayCast(world, &qi);
			p.z = hit.hit ? hit.location.z : 0.0f;
			lbFootSenseInput* in = &inputs[i];
			*in = lbDefaultFootSenseInput();
			in->query = &q;
			in->characterWs = placeZUp(r, yaw, p);
			if (i == badCharacter && f == kFootFrames / 2)
				in->characterWs.p.x = NAN;
			in->animPose = &walk[(i * 5 + f) % kWalkPoses];
			in->velocityWs = lbMulSV(1.3f, dir);
			in->dt = DT;
			lbPose_Copy(&out->poses[i], in->animPose);
		}
		lbResult r1 = lb_ok, r2 = lb_ok;
		if (mode == 0)
		{
			for (int i = 0; i < kFootCount; ++i)
			{
				lbResult e = lbFootSense(&states[i], &def, r->skel, &r->h, &inputs[i], &out->targets[i]);
				r1 = r1 == lb_ok ? e : r1;
			}
			for (int i = 0; i < kFootCount; ++i)
			{
				lbResult e = lbFootApplyPose(&out->targets[i], &def, r->skel, &r->h, lb_footSolverTwoBone, &out->poses[i], NULL, 0);
				r2 = r2 == lb_ok ? e : r2;
			}
		}
		else
		{
			r1 = lbFootSenseCrowd(states, &def, r->skel, &r->h, inputs, out->targets, kFootCount, &par);
			r2 = lbFootApplyPoseCrowd(out->targets, &def, r->skel, &r->h, lb_footSolverTwoBone, out->poses, kFootCount, NULL, 0,
									  mode == 1 ? NULL : &par);
		}
		if (out->firstError == lb_ok)
			out->firstError = r1 != lb_ok ? r1 : r2;
	}
	if (mode == 3)
		ENSURE(jobs.ranges > 0);
	free(inputs);
	free(states);
	lbDestroyThreadPool(pool);
}

static void freeFootRun(FootRun* run)
{
	freePoses(run->poses, kFootCount);
	free(run->targets);
}

// The parts of the targets that are numbers (the structs also hold padding).
static bool footTargetsEqual(const lbFootTargets* a, const lbFootTargets* b, int n)
{
	for (int i = 0; i < n; ++i)
	{
		if (memcmp(&a[i].characterWs, &b[i].characterWs, sizeof a[i].characterWs) != 0 ||
			a[i].pelvisOffset != b[i].pelvisOffset || a[i].alpha != b[i].alpha || a[i].castCount != b[i].castCount ||
			a[i].active != b[i].active)
			return false;
		for (int s = 0; s < 2; ++s)
		{
			const lbFootTarget *x = &a[i].feet[s], *y = &b[i].feet[s];
			if (memcmp(&x->ankleWs, &y->ankleWs, sizeof x->ankleWs) != 0 ||
				memcmp(&x->footRotWs, &y->footRotWs, sizeof x->footRotWs) != 0 || x->alpha != y->alpha ||
				x->locked != y->locked || x->planted != y->planted || x->reachDrop != y->reachDrop)
				return false;
		}
	}
	return true;
}

static void makeWalk(const Rig* r, lbPose* walk)
{
	lbMotionState ms;
	lbMotionState_Init(&ms, r->skel, &r->h, lbTransform_identity);
	lbMotionDef mp = lbDefaultMotionDef(lb_motionWalk);
	lbPose scratch = lbCreatePose(r->skel);
	for (int i = 0; i < 120; ++i)
		lbMotion_Sample(&ms, r->skel, &r->h, &mp, DT, &scratch);
	lbDestroyPose(&scratch);
	for (int i = 0; i < kWalkPoses; ++i)
	{
		walk[i] = lbCreatePose(r->skel);
		// Two frames apart: the 24 poses span most of a gait cycle.
		lbMotion_Sample(&ms, r->skel, &r->h, &mp, DT, &walk[i]);
		lbMotion_Sample(&ms, r->skel, &r->h, &mp, DT, &walk[i]);
	}
}

static int footCrowdOnRig(lbReferenceRig id)
{
	Rig r;
	rigInit(&r, id);
	lbPose walk[kWalkPoses];
	makeWalk(&r, walk);
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* world = lbCreateWorld(&wd);
	lbSceneDef sp = lbDefaultSceneDef(lb_sceneRocky);
	lbSceneDef_Set(&sp, "size", 40.0f);
	lbSceneDef_Set(&sp, "amplitude", 0.15f);
	ENSURE(lbBuildScene(world, &sp) == lb_ok);

	for (int bad = -1; bad <= 77; bad += 78)
	{
		FootRun ref;
		runFootCrowd(&r, world, walk, 0, bad, &ref);
		ENSURE(ref.firstError == (bad < 0 ? lb_ok : lb_errorNonFinite));
		// The crowd's feet found the ground and the pose stage moved them.
		int grounded = 0;
		for (int i = 0; i < kFootCount; ++i)
			grounded += ref.targets[i].feet[0].grounded + ref.targets[i].feet[1].grounded;
		ENSURE(grounded > kFootCount);
		// The crowd's pose stage solves full-weight legs through the batch two-bone solve, which
		// agrees with the single solve to its own tolerance (tests/test_ik_batch.c: 0.1 mm, 1e-3
		// rad); the sense stage gives the same bits. Every split of the crowd gives the same bits.
		FootRun one;
		runFootCrowd(&r, world, walk, 1, bad, &one);
		ENSURE(one.firstError == ref.firstError);
		ENSURE(footTargetsEqual(ref.targets, one.targets, kFootCount));
		ENSURE(posesClose(ref.poses, one.poses, kFootCount, 1.0e-4f, 1.0e-3f));
		for (int mode = 2; mode <= 3; ++mode)
		{
			FootRun run;
			runFootCrowd(&r, world, walk, mode, bad, &run);
			ENSURE(run.firstError == ref.firstError);
			ENSURE(posesEqual(one.poses, run.poses, kFootCount));
			ENSURE(footTargetsEqual(ref.targets, run.targets, kFootCount));
			freeFootRun(&run);
		}
		freeFootRun(&one);
		freeFootRun(&ref);
	}
	for (int i = 0; i < kWalkPoses; ++i)
		lbDestroyPose(&walk[i]);
	lbDestroyWorld(world);
	lbDestroySkeleton(r.skel);
	return 0;
}

static int testFootCrowdMannequin(void)
{
	return footCrowdOnRig(lb_rigMannequin);
}

static int testFootCrowdMixamo(void)
{
	return footCrowdOnRig(lb_rigMixamo);
}

// Bad input: an error, and nothing changed.
static int testFootCrowdBadInput(void)
{
	Rig r;
	rigInit(&r, lb_rigMannequin);
	lbFootDef def = lbDefaultFootDef();
	lbFootState states[3];
	lbFootTargets targets[3];
	lbFootSenseInput inputs[3];
	lbPose poses[3];
	for (int i = 0; i < 3; ++i)
	{
		lbFootState_Reset(&states[i]);
		inputs[i] = lbDefaultFootSenseInput();
		poses[i] = lbCreatePose(r.skel);
	}
	memset(targets, 0x5a, sizeof targets);
	lbFootState before[3];
	memcpy(before, states, sizeof states);
	lbFootTargets targetsBefore[3];
	memcpy(targetsBefore, targets, sizeof targets);
	ENSURE(lbFootSenseCrowd(NULL, &def, r.skel, &r.h, inputs, targets, 3, NULL) == lb_errorNullPointer);
	ENSURE(lbFootSenseCrowd(states, &def, r.skel, &r.h, inputs, targets, -1, NULL) == lb_errorNullPointer);
	ENSURE(lbFootSenseCrowd(states, &def, r.skel, &r.h, inputs, targets, 0, NULL) == lb_ok);
	lbFootDef raw = def;
	raw.internalValue = 0;
	ENSURE(lbFootSenseCrowd(states, &raw, r.skel, &r.h, inputs, targets, 3, NULL) == lb_errorDefNotInitialized);
	ENSURE(memcmp(before, states, sizeof states) == 0);
	ENSURE(memcmp(targetsBefore, targets, sizeof targets) == 0);
	ENSURE(lbFootApplyPoseCrowd(targets, &def, r.skel, &r.h, lb_footSolverTwoBone, NULL, 3, NULL, 0, NULL) ==
		   lb_errorNullPointer);
	ENSURE(lbFootApplyPoseCrowd(targets, &def, r.skel, &r.h, (lbFootSolver)7, poses, 3, NULL, 0, NULL) ==
		   lb_errorInvalidArgument);
	// The full-body solver needs one workspace per worker.
	lbThreadPool* pool = lbCreateThreadPool(2);
	lbParallel par = lbThreadPool_GetParallel(pool);
	size_t one = lbGetFullBodyIkWorkspaceSize(r.skel);
	ENSURE(lbGetFootCrowdWorkspaceSize(r.skel, lb_footSolverFullBody, &par) == 2 * one);
	ENSURE(lbGetFootCrowdWorkspaceSize(r.skel, lb_footSolverTwoBone, &par) == 0);
	void* ws = malloc(2 * one);
	ENSURE(lbFootApplyPoseCrowd(targets, &def, r.skel, &r.h, lb_footSolverFullBody, poses, 3, ws, one, &par) ==
		   lb_errorCapacity);
	free(ws);
	lbDestroyThreadPool(pool);
	for (int i = 0; i < 3; ++i)
		lbDestroyPose(&poses[i]);
	lbDestroySkeleton(r.skel);
	return 0;
}

// ---------------------------------------------------------------------------------------------
// Prone: a crowd lying on a slope, each at its own place and heading.
enum
{
	kProneCount = 60,
	kProneFrames = 8
};

static void runProneCrowd(const Rig* r, lbWorld* world, const lbPose* anim, int mode, lbPose* poses, lbProneTargets* targets)
{
	lbThreadPool* pool = lbCreateThreadPool(3);
	ReverseJobs jobs = { 4, 0 };
	lbParallel par = modeParallel(mode, pool, &jobs);
	lbSceneQuery q = lbWorld_GetQuery(world);
	lbProneDef def = lbDefaultProneDef();
	lbProneState* states = (lbProneState*)calloc(kProneCount, sizeof(lbProneState));
	lbProneSenseInput* inputs = (lbProneSenseInput*)calloc(kProneCount, sizeof(lbProneSenseInput));
	lbProneResult* results = (lbProneResult*)calloc(kProneCount, sizeof(lbProneResult));
	for (int i = 0; i < kProneCount; ++i)
		lbProneState_Reset(&states[i]);
	for (int f = 0; f < kProneFrames; ++f)
	{
		for (int i = 0; i < kProneCount; ++i)
		{
			float yaw = 0.61f * (float)i;
			lbVec3 p = lbMakeVec3(-6.0f + 2.0f * (float)(i % 6), -8.0f + 1.6f * (float)(i / 6), 0.0f);
			lbQueryInput qi = lbDefaultQueryInput();
			qi.start = lbMakeVec3(p.x, p.y, 10.0f);
			qi.end = lbMakeVec3(p.x, p.y, -10.0f);
			lbHit hit = lbWorld_RayCast(world, &qi);
			p.z = hit.hit ? hit.location.z : 0.0f;
			inputs[i] = lbDefaultProneSenseInput();
			inputs[i].query = &q;
			inputs[i].characterWs = placeZUp(r, yaw, p);
			inputs[i].animPose = anim;
			inputs[i].dt = DT;
			lbPose_Copy(&poses[i], anim);
		}
		if (mode == 0)
			for (int i = 0; i < kProneCount; ++i)
			{
				ENSURE(lbProneSense(&states[i], &def, r->skel, &r->h, &inputs[i], &targets[i]) == lb_ok);
				ENSURE(lbProneApplyPose(&targets[i], &def, r->skel, &r->h, &poses[i], &results[i]) == lb_ok);
			}
		else
		{
			ENSURE(lbProneSenseCrowd(states, &def, r->skel, &r->h, inputs, targets, kProneCount, &par) == lb_ok);
			ENSURE(lbProneApplyPoseCrowd(targets, &def, r->skel, &r->h, poses, kProneCount, results, &par) == lb_ok);
		}
	}
	free(results);
	free(inputs);
	free(states);
	lbDestroyThreadPool(pool);
}

static int proneCrowdOnRig(lbReferenceRig id)
{
	Rig r;
	rigInit(&r, id);
	lbPose anim = lbCreatePose(r.skel);
	lbMotionState ms;
	lbMotionState_Init(&ms, r.skel, &r.h, lbTransform_identity);
	lbMotionDef mp = lbDefaultMotionDef(lb_motionProne);
	lbMotion_Sample(&ms, r.skel, &r.h, &mp, DT, &anim);
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* world = lbCreateWorld(&wd);
	lbSceneDef sp = lbDefaultSceneDef(lb_sceneSlope);
	sp.angle = 15.0f * LB_DEG2RAD;
	ENSURE(lbBuildScene(world, &sp) == lb_ok);
	lbPose* refPoses = makePoses(&r, kProneCount);
	lbProneTargets* refTargets = (lbProneTargets*)calloc(kProneCount, sizeof(lbProneTargets));
	runProneCrowd(&r, world, &anim, 0, refPoses, refTargets);
	// The fit changed the poses (the slope turns the bodies).
	int changed = 0;
	for (int i = 0; i < kProneCount; ++i)
		changed += memcmp(refPoses[i].model, anim.model, sizeof(lbTransform) * (size_t)anim.boneCount) != 0;
	ENSURE(changed == kProneCount);
	for (int mode = 1; mode <= 3; ++mode)
	{
		lbPose* poses = makePoses(&r, kProneCount);
		lbProneTargets* targets = (lbProneTargets*)calloc(kProneCount, sizeof(lbProneTargets));
		runProneCrowd(&r, world, &anim, mode, poses, targets);
		ENSURE(posesEqual(refPoses, poses, kProneCount));
		freePoses(poses, kProneCount);
		free(targets);
	}
	freePoses(refPoses, kProneCount);
	free(refTargets);
	lbDestroyPose(&anim);
	lbDestroyWorld(world);
	lbDestroySkeleton(r.skel);
	return 0;
}

static int testProneCrowdMannequin(void)
{
	return proneCrowdOnRig(lb_rigMannequin);
}

static int testProneCrowdMixamo(void)
{
	return proneCrowdOnRig(lb_rigMixamo);
}

// ---------------------------------------------------------------------------------------------
// Climb: a row of climbers facing one long wall, each steering its own limb its own way.
enum
{
	kClimbCount = 24,
	kClimbFrames = 20
};

static void runClimbCrowd(const Rig* r, lbWorld* world, const lbPose* anim, int mode, lbPose* poses)
{
	lbThreadPool* pool = lbCreateThreadPool(3);
	ReverseJobs jobs = { 4, 0 };
	lbParallel par = modeParallel(mode, pool, &jobs);
	lbSceneQuery q = lbWorld_GetQuery(world);
	lbClimbDef def = lbDefaultClimbDef();
	lbClimbState* states = (lbClimbState*)calloc(kClimbCount, sizeof(lbClimbState));
	lbClimbPoseCache* caches = (lbClimbPoseCache*)calloc(kClimbCount, sizeof(lbClimbPoseCache));
	lbClimbSenseInput* inputs = (lbClimbSenseInput*)calloc(kClimbCount, sizeof(lbClimbSenseInput));
	lbClimbTargets* targets = (lbClimbTargets*)calloc(kClimbCount, sizeof(lbClimbTargets));
	lbPose* last = makePoses(r, kClimbCount);
	size_t wsSize = lbGetClimbCrowdWorkspaceSize(r->skel, &par);
	void* ws = malloc(wsSize);
	for (int i = 0; i < kClimbCount; ++i)
	{
		lbClimbState_Reset(&states[i]);
		lbClimbPoseCache_Reset(&caches[i]);
		lbPose_Copy(&last[i], anim);
		ENSURE(lbClimb_Select(&states[i], i % 4) == lb_ok);
		ENSURE(lbClimb_SetStick(&states[i], 0.8f * sinf(0.9f * (float)i), 0.8f * cosf(0.9f * (float)i)) == lb_ok);
	}
	for (int f = 0; f < kClimbFrames; ++f)
	{
		for (int i = 0; i < kClimbCount; ++i)
		{
			if (f == kClimbFrames / 2 && i % 3 == 0)
				ENSURE(lbClimb_Confirm(&states[i]) == lb_ok);
			inputs[i] = lbDefaultClimbSenseInput();
			inputs[i].query = &q;
			// Facing +X, 0.45 m from the wall face at x = 0.45, spaced along y.
			inputs[i].characterWs = placeZUp(r, 0.0f, lbMakeVec3(0.0f, -18.0f + 1.5f * (float)i, 0.0f));
			inputs[i].animPose = anim;
			inputs[i].lastPose = &last[i];
			inputs[i].dt = DT;
			lbPose_Copy(&poses[i], anim);
		}
		if (mode == 0)
			for (int i = 0; i < kClimbCount; ++i)
			{
				ENSURE(lbClimbSense(&states[i], &def, r->skel, &r->h, &inputs[i], &targets[i]) == lb_ok);
				ENSURE(lbClimbApplyPose(&targets[i], &def, r->skel, &r->h, &caches[i], &poses[i], ws,
										lbGetClimbWorkspaceSize(r->skel), NULL) == lb_ok);
			}
		else
		{
			ENSURE(lbClimbSenseCrowd(states, &def, r->skel, &r->h, inputs, targets, kClimbCount, &par) == lb_ok);
			ENSURE(lbClimbApplyPoseCrowd(targets, &def, r->skel, &r->h, caches, poses, kClimbCount, ws, wsSize, NULL, &par) ==
				   lb_ok);
		}
		for (int i = 0; i < kClimbCount; ++i)
			lbPose_Copy(&last[i], &poses[i]);
	}
	if (mode != 0)
		ENSURE(lbClimbApplyPoseCrowd(targets, &def, r->skel, &r->h, caches, poses, kClimbCount, ws, wsSize - 1, NULL, &par) ==
			   lb_errorCapacity);
	free(ws);
	freePoses(last, kClimbCount);
	free(targets);
	free(inputs);
	free(caches);
	free(states);
	lbDestroyThreadPool(pool);
}

static int climbCrowdOnRig(lbReferenceRig id)
{
	Rig r;
	rigInit(&r, id);
	// The rest pose, as the climb tests use it.
	lbPose anim = lbCreatePose(r.skel);
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* world = lbCreateWorld(&wd);
	lbBoxDef bd = lbDefaultBoxDef();
	bd.transform = lbMakeTransform(lbMakeVec3(0.95f, 0.0f, 2.0f), lbQuat_identity);
	bd.halfExtents = lbMakeVec3(0.5f, 20.0f, 3.0f);
	bd.channels = LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL;
	ENSURE(lbWorld_AddBox(world, &bd) >= 0);
	lbPose* ref = makePoses(&r, kClimbCount);
	runClimbCrowd(&r, world, &anim, 0, ref);
	int changed = 0;
	for (int i = 0; i < kClimbCount; ++i)
		changed += memcmp(ref[i].model, anim.model, sizeof(lbTransform) * (size_t)anim.boneCount) != 0;
	ENSURE(changed == kClimbCount);
	for (int mode = 1; mode <= 3; ++mode)
	{
		lbPose* poses = makePoses(&r, kClimbCount);
		runClimbCrowd(&r, world, &anim, mode, poses);
		ENSURE(posesEqual(ref, poses, kClimbCount));
		freePoses(poses, kClimbCount);
	}
	freePoses(ref, kClimbCount);
	lbDestroyPose(&anim);
	lbDestroyWorld(world);
	lbDestroySkeleton(r.skel);
	return 0;
}

static int testClimbCrowdMannequin(void)
{
	return climbCrowdOnRig(lb_rigMannequin);
}

static int testClimbCrowdMixamo(void)
{
	return climbCrowdOnRig(lb_rigMixamo);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(testPoolRunsEveryItemOnce);
	RUN_TEST(testPoolNested);
	RUN_TEST(testFootCrowdMannequin);
	RUN_TEST(testFootCrowdMixamo);
	RUN_TEST(testFootCrowdBadInput);
	RUN_TEST(testProneCrowdMannequin);
	RUN_TEST(testProneCrowdMixamo);
	RUN_TEST(testClimbCrowdMannequin);
	RUN_TEST(testClimbCrowdMixamo);
	TEST_MAIN_END();
}
