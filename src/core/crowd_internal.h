// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// What the crowd calls share: a crowd is cut into at most LB_CROWD_MAX_BLOCKS blocks of consecutive
// characters, the unit handed to the parallel-for. Each block writes its own result slot (on the
// caller's stack), so the first error in index order is found without shared state, and the
// split never changes a character's result: each is computed by its own per-character call.
#pragma once

#include "limber/crowd.h"

#define LB_CROWD_MAX_BLOCKS 256

typedef struct lbCrowdBlocks
{
	int count, blockSize, blockCount;
	lbResult results[LB_CROWD_MAX_BLOCKS];
} lbCrowdBlocks;

// Blocks of at least `minBlock` characters (the sense stage announces casts per group of 8).
static inline void lbCrowdBlocks_Init(lbCrowdBlocks* b, int count, int minBlock)
{
	int blocks = (count + minBlock - 1) / minBlock;
	blocks = blocks > LB_CROWD_MAX_BLOCKS ? LB_CROWD_MAX_BLOCKS : (blocks < 1 ? 1 : blocks);
	b->count = count;
	b->blockSize = count > 0 ? (count + blocks - 1) / blocks : 0;
	b->blockCount = count > 0 ? (count + b->blockSize - 1) / b->blockSize : 0;
	for (int i = 0; i < b->blockCount; ++i)
		b->results[i] = lb_ok;
}

// Characters [*lo, *hi) of block k.
static inline void lbCrowdBlocks_Range(const lbCrowdBlocks* b, int k, int* lo, int* hi)
{
	*lo = k * b->blockSize;
	*hi = *lo + b->blockSize < b->count ? *lo + b->blockSize : b->count;
}

static inline lbResult lbCrowdBlocks_First(const lbCrowdBlocks* b)
{
	for (int i = 0; i < b->blockCount; ++i)
		if (b->results[i] != lb_ok)
			return b->results[i];
	return lb_ok;
}

static inline int lbCrowdWorkerCount(const lbParallel* p)
{
	return p && p->enqueueTask && p->workerCount > 1 ? p->workerCount : 1;
}

// Runs fn over the blocks through the parallel-for.
static inline void lbCrowdRun(lbCrowdBlocks* b, const lbParallel* p, lbTaskFcn* fn, void* context)
{
	lbParallelFor(p, fn, b->blockCount, 1, context);
}

// One character's work in a crowd call: character `i`, on worker `worker`.
typedef lbResult lbCrowdOneFcn(void* context, int i, int worker);

typedef struct lbCrowdEach
{
	lbCrowdBlocks* blocks;
	lbCrowdOneFcn* one;
	void* context;
	const char* fn;  // the crowd call, named when a worker index is out of range
	int workerCount; // worker indices the per-worker scratch memory is cut for; 0 when none is used
} lbCrowdEach;

static inline void lbCrowdEachRange(int begin, int end, int worker, void* context)
{
	const lbCrowdEach* e = (const lbCrowdEach*)context;
	if (e->workerCount > 0 && (worker < 0 || worker >= e->workerCount))
	{
		// A job system passing more worker indices than it declared would share scratch memory.
		for (int k = begin; k < end; ++k)
			e->blocks->results[k] = lbReport(lb_errorInvalidArgument, "%s: worker %d outside the parallel's %d workers",
											 e->fn, worker, e->workerCount);
		return;
	}
	for (int k = begin; k < end; ++k)
	{
		int lo, hi;
		lbCrowdBlocks_Range(e->blocks, k, &lo, &hi);
		lbResult first = lb_ok;
		for (int i = lo; i < hi; ++i)
		{
			const lbResult r = e->one(e->context, i, worker);
			if (first == lb_ok)
				first = r;
		}
		e->blocks->results[k] = first;
	}
}

// Runs `one` for every character of [0, count) through the parallel-for, in blocks of at least
// `minBlock`, and returns the first error in index order (every character still runs).
static inline lbResult lbCrowdRunEach(int count, int minBlock, const lbParallel* p, lbCrowdOneFcn* one, void* context,
									  const char* fn, int workerCount)
{
	lbCrowdBlocks blocks;
	lbCrowdBlocks_Init(&blocks, count, minBlock);
	lbCrowdEach e = { &blocks, one, context, fn, workerCount };
	lbParallelFor(p, lbCrowdEachRange, blocks.blockCount, 1, &e);
	return lbCrowdBlocks_First(&blocks);
}
