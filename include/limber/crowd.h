// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref crowd group.

/// @defgroup crowd Crowds on several threads
/// Batch entry points that run the foot, climb and prone systems over many characters, split over a
/// parallel-for the caller provides (an engine's job system) or over the small built-in thread pool.
/// Every character is computed by the same per-character call as when run alone, so the results are
/// bit-identical whatever the number of threads or the way the work is split.
///
/// Thread safety: the scene query's callbacks and the log hook are called from several threads at
/// once (lbWorld's casts are safe for that; a custom log hook must be too). Each character's state,
/// input, targets and pose are touched by one thread only.
/// @{

#include "limber/climb.h"
#include "limber/foot.h"
#include "limber/prone.h"

/// A range of work: items [begin, end) of a batch. `worker` is the index, in [0, workerCount), of
/// the thread running it (two ranges running at once never share a worker index); `taskContext` is
/// passed back unchanged.
typedef void lbTaskFcn(int begin, int end, int worker, void* taskContext);

/// Hands a batch to the engine's job system: run `task` over the items [0, itemCount), split into
/// ranges of at least `minRange` items, on any threads, each with its worker index. Return a handle
/// for lbFinishTaskFcn, or NULL after running every range before returning.
typedef void* lbEnqueueTaskFcn(lbTaskFcn* task, int itemCount, int minRange, void* taskContext, void* userContext);

/// Waits until every range of the batch `userTask` (from lbEnqueueTaskFcn) has run.
typedef void lbFinishTaskFcn(void* userTask, void* userContext);

/// The parallel-for the batch calls use: owned by the caller and passed to each call, never stored.
/// A zero struct, or a NULL pointer, runs everything on the calling thread.
/// Thread-safety: plain data; whether batches may be enqueued from several threads at once is up to
/// the job system behind it.
typedef struct lbParallel
{
	/// Splits a batch over the job system; NULL runs it on the calling thread.
	lbEnqueueTaskFcn* enqueueTask;
	/// Waits for a batch; may be NULL when enqueueTask always returns NULL.
	lbFinishTaskFcn* finishTask;
	/// Number of distinct worker indices the job system passes (>= 1): per-worker scratch memory
	/// (the pose stages' workspaces) is sized by it. Values below 1 count as 1.
	int workerCount;
	/// Passed back unchanged to enqueueTask and finishTask.
	void* userContext;
} lbParallel;

/// The built-in thread pool, for tools and programs without a job system of their own.
/// Thread-safety: one batch at a time: a batch enqueued by a task of the running batch runs on that
/// task's thread, one enqueued from another thread waits for the running batch to finish; destroy
/// it only when no batch is running.
typedef struct lbThreadPool lbThreadPool;

LB_EXTERN_C_BEGIN

/// Creates a pool of `threadCount` workers: the thread calling finishTask and threadCount - 1 threads
/// it starts. 0 or less uses every core (lbGetCoreCount). Returns NULL (logged) when threads cannot
/// be started. The thread that enqueues a batch is its worker 0 (in finishTask).
LB_API lbThreadPool* lbCreateThreadPool(int threadCount);

/// Stops and joins the pool's threads and frees it. NULL is ignored. No batch may be running.
LB_API void lbDestroyThreadPool(lbThreadPool* pool);

/// The parallel-for of a pool (NULL gives the zero struct: the calling thread alone).
LB_API lbParallel lbThreadPool_GetParallel(lbThreadPool* pool);

/// Number of logical processors available to this process (at least 1).
LB_API int lbGetCoreCount(void);

/// Runs `task` over [0, itemCount) through `parallel` (NULL or no enqueueTask: on the calling
/// thread, as one range with worker 0), and waits for it.
LB_API void lbParallelFor(const lbParallel* parallel, lbTaskFcn* task, int itemCount, int minRange, void* taskContext);

/// lbFootSenseMany over a crowd, split into sub-ranges over `parallel`. Results are those of
/// lbFootSense for each character. Returns lb_errorNullPointer for NULL arrays (nothing changes),
/// else the error of the first character (in index order) that had one (every character still runs).
LB_API lbResult lbFootSenseCrowd(lbFootState* states, const lbFootDef* def, const lbSkeleton* skeleton,
								 const lbHumanoid* humanoid, const lbFootSenseInput* inputs, lbFootTargets* outTargets,
								 int count, const lbParallel* parallel);

/// Bytes of workspace lbFootApplyPoseCrowd needs: one lbFootApplyPose workspace per worker (0 for the
/// two-bone solver).
LB_API size_t lbGetFootCrowdWorkspaceSize(const lbSkeleton* skeleton, lbFootSolver solver, const lbParallel* parallel);

/// Pose stage over a crowd: lbFootApplyPose of targets[i] on poses[i] (model space; each holds the
/// animated pose on entry and the result on exit), split over `parallel`. With the two-bone solver
/// full-weight legs go through lbSolveTwoBoneIkBatch, so poses agree with lbFootApplyPose's to that
/// solve's rounding (within 0.1 mm and 1e-3 rad), and bit for bit for any split. `workspace` holds
/// lbGetFootCrowdWorkspaceSize bytes (NULL, 0 for the two-bone solver); each worker uses its own part.
/// Returns the first character's error (that pose unchanged; every character still runs), or
/// lb_errorNullPointer / lb_errorCapacity with nothing changed.
LB_API lbResult lbFootApplyPoseCrowd(const lbFootTargets* targets, const lbFootDef* def, const lbSkeleton* skeleton,
									 const lbHumanoid* humanoid, lbFootSolver solver, lbPose* poses, int count,
									 void* workspace, size_t workspaceSize, const lbParallel* parallel);

/// lbClimbSense for each of `count` characters, split over `parallel`. Errors as lbFootSenseCrowd.
LB_API lbResult lbClimbSenseCrowd(lbClimbState* states, const lbClimbDef* def, const lbSkeleton* skeleton,
								  const lbHumanoid* humanoid, const lbClimbSenseInput* inputs, lbClimbTargets* outTargets,
								  int count, const lbParallel* parallel);

/// Bytes of workspace lbClimbApplyPoseCrowd needs: lbGetClimbWorkspaceSize per worker.
LB_API size_t lbGetClimbCrowdWorkspaceSize(const lbSkeleton* skeleton, const lbParallel* parallel);

/// lbClimbApplyPose for each of `count` characters (caches[i], poses[i]; outResults may be NULL),
/// split over `parallel`. `workspace`: lbGetClimbCrowdWorkspaceSize bytes, aligned for lbTransform.
/// Errors as lbFootSenseCrowd, plus lb_errorCapacity for a short workspace (nothing changed).
LB_API lbResult lbClimbApplyPoseCrowd(const lbClimbTargets* targets, const lbClimbDef* def, const lbSkeleton* skeleton,
									  const lbHumanoid* humanoid, lbClimbPoseCache* caches, lbPose* poses, int count,
									  void* workspace, size_t workspaceSize, lbClimbPoseResult* outResults,
									  const lbParallel* parallel);

/// lbProneSense for each of `count` characters, split over `parallel`. Errors as lbFootSenseCrowd.
LB_API lbResult lbProneSenseCrowd(lbProneState* states, const lbProneDef* def, const lbSkeleton* skeleton,
								  const lbHumanoid* humanoid, const lbProneSenseInput* inputs, lbProneTargets* outTargets,
								  int count, const lbParallel* parallel);

/// lbProneApplyPose for each of `count` characters (outResults may be NULL), split over `parallel`.
/// Errors as lbFootSenseCrowd.
LB_API lbResult lbProneApplyPoseCrowd(const lbProneTargets* targets, const lbProneDef* def, const lbSkeleton* skeleton,
									  const lbHumanoid* humanoid, lbPose* poses, int count, lbProneResult* outResults,
									  const lbParallel* parallel);

LB_EXTERN_C_END

/// @}
