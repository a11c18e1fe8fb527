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
