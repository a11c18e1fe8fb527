// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The parallel-for the crowd calls run on, and the built-in thread pool. The pool is a mutex, two
// condition variables and a range counter: batches are a few dozen ranges of hundreds of
// characters, so taking a lock per range costs nothing measurable and needs no atomics. Threads
// come from POSIX threads, or from the Win32 API on Windows (so limber.dll needs no extra runtime).
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 200809L
#endif
#include "limber/crowd.h"

#include <stdbool.h>

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
typedef SRWLOCK lbMutex;
typedef CONDITION_VARIABLE lbCond;
typedef HANDLE lbThread;
typedef DWORD lbThreadId;
static lbThreadId lbThreadSelf(void)
{
	return GetCurrentThreadId();
}
static bool lbThreadSame(lbThreadId a, lbThreadId b)
{
	return a == b;
}
static void lbMutexInit(lbMutex* m)
{
	InitializeSRWLock(m);
}
static void lbMutexDestroy(lbMutex* m)
{
	(void)m;
}
static void lbMutexLock(lbMutex* m)
{
	AcquireSRWLockExclusive(m);
}
static void lbMutexUnlock(lbMutex* m)
{
	ReleaseSRWLockExclusive(m);
}
static void lbCondInit(lbCond* c)
{
	InitializeConditionVariable(c);
}
static void lbCondDestroy(lbCond* c)
{
	(void)c;
}
static void lbCondWait(lbCond* c, lbMutex* m)
{
	SleepConditionVariableSRW(c, m, INFINITE, 0);
}
static void lbCondBroadcast(lbCond* c)
{
	WakeAllConditionVariable(c);
}
#else
#include <pthread.h>
#include <unistd.h>
typedef pthread_mutex_t lbMutex;
typedef pthread_cond_t lbCond;
typedef pthread_t lbThread;
typedef pthread_t lbThreadId;
static lbThreadId lbThreadSelf(void)
{
	return pthread_self();
}
static bool lbThreadSame(lbThreadId a, lbThreadId b)
{
	return pthread_equal(a, b) != 0;
}
static void lbMutexInit(lbMutex* m)
{
	pthread_mutex_init(m, NULL);
}
static void lbMutexDestroy(lbMutex* m)
{
	pthread_mutex_destroy(m);
}
static void lbMutexLock(lbMutex* m)
{
	pthread_mutex_lock(m);
}
static void lbMutexUnlock(lbMutex* m)
{
	pthread_mutex_unlock(m);
}
static void lbCondInit(lbCond* c)
{
	pthread_cond_init(c, NULL);
}
static void lbCondDestroy(lbCond* c)
{
	pthread_cond_destroy(c);
}
static void lbCondWait(lbCond* c, lbMutex* m)
{
	pthread_cond_wait(c, m);
}
static void lbCondBroadcast(lbCond* c)
{
	pthread_cond_broadcast(c);
}
#endif

int lbGetCoreCount(void)
{
#if defined(_WIN32)
	SYSTEM_INFO info;
	GetSystemInfo(&info);
	return info.dwNumberOfProcessors > 0 ? (int)info.dwNumberOfProcessors : 1;
#else
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (n > 1024 ? 1024 : (int)n) : 1;
#endif
}

void lbParallelFor(const lbParallel* parallel, lbTaskFcn* task, int itemCount, int minRange, void* taskContext)
{
	if (!task || itemCount <= 0)
		return;
	if (!parallel || !parallel->enqueueTask)
	{
		task(0, itemCount, 0, taskContext);
		return;
	}
	void* handle = parallel->enqueueTask(task, itemCount, minRange > 0 ? minRange : 1, taskContext, parallel->userContext);
	if (handle && parallel->finishTask)
		parallel->finishTask(handle, parallel->userContext);
}

typedef struct lbPoolWorker
{
	lbThreadPool* pool;
	int index;
	lbThread thread;
	lbThreadId id;
} lbPoolWorker;

struct lbThreadPool
{
	lbMutex mutex;
	lbCond wake; // a batch arrived, or the pool stops
	lbCond done; // the batch's last range finished, or the pool became free
	lbPoolWorker* workers; // threadCount - 1 started threads (worker indices 1..)
	int threadCount;
	int startedCount;
	bool stop;
	// The batch being run (busy): ranges of rangeSize items, nextRange handed out, doneRanges run.
	bool busy;
	lbThreadId owner; // the thread that enqueued the batch (worker 0 in lbPoolFinish)
	lbTaskFcn* task;
	void* taskContext;
	int itemCount, rangeSize, rangeCount, nextRange, doneRanges;
};

// Runs ranges of the current batch as `worker` until none is left; called and returns with the
// mutex held.
static void lbPoolDrain(lbThreadPool* pool, int worker)
{
	while (pool->busy && pool->nextRange < pool->rangeCount)
	{
		const int r = pool->nextRange++;
		const int begin = r * pool->rangeSize;
		const int end = begin + pool->rangeSize < pool->itemCount ? begin + pool->rangeSize : pool->itemCount;
		// Ranges are handed out once each and cover the items exactly.
		LB_ASSERT(begin < end && end <= pool->itemCount && pool->doneRanges < pool->rangeCount);
		lbTaskFcn* task = pool->task;
		void* context = pool->taskContext;
		lbMutexUnlock(&pool->mutex);
		task(begin, end, worker, context);
		lbMutexLock(&pool->mutex);
		if (++pool->doneRanges == pool->rangeCount)
			lbCondBroadcast(&pool->done);
	}
}

static void lbPoolWorkerLoop(lbPoolWorker* w)
{
	lbThreadPool* pool = w->pool;
	lbMutexLock(&pool->mutex);
	w->id = lbThreadSelf();
	for (;;)
	{
		while (!pool->stop && !(pool->busy && pool->nextRange < pool->rangeCount))
			lbCondWait(&pool->wake, &pool->mutex);
		if (pool->stop)
			break;
		lbPoolDrain(pool, w->index);
	}
	lbMutexUnlock(&pool->mutex);
}

#if defined(_WIN32)
static DWORD WINAPI lbPoolThreadMain(LPVOID arg)
{
	lbPoolWorkerLoop((lbPoolWorker*)arg);
	return 0;
}
#else
static void* lbPoolThreadMain(void* arg)
{
	lbPoolWorkerLoop((lbPoolWorker*)arg);
	return NULL;
}
#endif

static void* lbPoolEnqueue(lbTaskFcn* task, int itemCount, int minRange, void* taskContext, void* userContext)
{
	lbThreadPool* pool = (lbThreadPool*)userContext;
	if (itemCount <= 0)
		return NULL;
	if (pool->threadCount <= 1)
	{
		task(0, itemCount, 0, taskContext);
		return NULL;
	}
	// About four ranges per worker: enough to even out uneven ranges, few enough to keep the
	// handing-out cheap.
	int rangeSize = (itemCount + 4 * pool->threadCount - 1) / (4 * pool->threadCount);
	rangeSize = rangeSize < minRange ? minRange : rangeSize;
	lbMutexLock(&pool->mutex);
	if (pool->busy)
	{
		// A task of the running batch enqueuing another: waiting would never end, so the batch
		// runs here, under the worker index this thread already holds.
		const lbThreadId self = lbThreadSelf();
		int worker = lbThreadSame(self, pool->owner) ? 0 : -1;
		for (int i = 0; worker < 0 && i < pool->startedCount; ++i)
			if (lbThreadSame(self, pool->workers[i].id))
				worker = pool->workers[i].index;
		if (worker >= 0)
		{
			lbMutexUnlock(&pool->mutex);
			task(0, itemCount, worker, taskContext);
			return NULL;
		}
		// Another thread's batch: wait for it to finish.
		while (pool->busy)
			lbCondWait(&pool->done, &pool->mutex);
	}
	pool->busy = true;
	pool->owner = lbThreadSelf();
	pool->task = task;
	pool->taskContext = taskContext;
	pool->itemCount = itemCount;
	pool->rangeSize = rangeSize;
	pool->rangeCount = (itemCount + rangeSize - 1) / rangeSize;
	pool->nextRange = 0;
	pool->doneRanges = 0;
	lbCondBroadcast(&pool->wake);
	lbMutexUnlock(&pool->mutex);
	return pool;
}

static void lbPoolFinish(void* userTask, void* userContext)
{
	lbThreadPool* pool = (lbThreadPool*)userContext;
	if (!userTask)
		return;
	lbMutexLock(&pool->mutex);
	// The waiting thread is worker 0 and works too.
	lbPoolDrain(pool, 0);
	while (pool->doneRanges < pool->rangeCount)
		lbCondWait(&pool->done, &pool->mutex);
	pool->busy = false;
	lbCondBroadcast(&pool->done); // another thread may wait to enqueue
	lbMutexUnlock(&pool->mutex);
}

static void lbPoolStop(lbThreadPool* pool)
{
	lbMutexLock(&pool->mutex);
	pool->stop = true;
	lbCondBroadcast(&pool->wake);
	lbMutexUnlock(&pool->mutex);
	for (int i = 0; i < pool->startedCount; ++i)
	{
#if defined(_WIN32)
		WaitForSingleObject(pool->workers[i].thread, INFINITE);
		CloseHandle(pool->workers[i].thread);
#else
		pthread_join(pool->workers[i].thread, NULL);
#endif
	}
	pool->startedCount = 0;
}

lbThreadPool* lbCreateThreadPool(int threadCount)
{
	if (threadCount <= 0)
		threadCount = lbGetCoreCount();
	// Far more threads than any machine has cores only costs memory and switches.
	if (threadCount > 256)
		threadCount = 256;
	lbThreadPool* pool = (lbThreadPool*)lbAllocZeroed(sizeof(lbThreadPool));
	if (!pool)
	{
		lbReport(lb_errorOutOfMemory, "lbCreateThreadPool: out of memory");
		return NULL;
	}
	pool->threadCount = threadCount;
	lbMutexInit(&pool->mutex);
	lbCondInit(&pool->wake);
	lbCondInit(&pool->done);
	if (threadCount > 1)
	{
		pool->workers = (lbPoolWorker*)lbAllocZeroed(sizeof(lbPoolWorker) * (size_t)(threadCount - 1));
		if (!pool->workers)
		{
			lbReport(lb_errorOutOfMemory, "lbCreateThreadPool: out of memory");
			lbDestroyThreadPool(pool);
			return NULL;
		}
		for (int i = 0; i < threadCount - 1; ++i)
		{
			lbPoolWorker* w = &pool->workers[i];
			w->pool = pool;
			w->index = i + 1;
#if defined(_WIN32)
			w->thread = CreateThread(NULL, 0, lbPoolThreadMain, w, 0, NULL);
			const bool started = w->thread != NULL;
#else
			const bool started = pthread_create(&w->thread, NULL, lbPoolThreadMain, w) == 0;
#endif
			if (!started)
			{
				lbReport(lb_errorUnsupported, "lbCreateThreadPool: could not start thread %d of %d", i + 2, threadCount);
				lbDestroyThreadPool(pool);
				return NULL;
			}
			pool->startedCount = i + 1;
		}
	}
	return pool;
}

void lbDestroyThreadPool(lbThreadPool* pool)
{
	if (!pool)
		return;
	lbPoolStop(pool);
	lbCondDestroy(&pool->done);
	lbCondDestroy(&pool->wake);
	lbMutexDestroy(&pool->mutex);
	lbFree(pool->workers);
	lbFree(pool);
}

lbParallel lbThreadPool_GetParallel(lbThreadPool* pool)
{
	lbParallel p = { NULL, NULL, 1, NULL };
	if (!pool)
		return p;
	p.enqueueTask = lbPoolEnqueue;
	p.finishTask = lbPoolFinish;
	p.workerCount = pool->threadCount;
	p.userContext = pool;
	return p;
}
