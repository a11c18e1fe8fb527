// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The allocator hook and the library's allocation functions. Every block carries a small header
// just before the pointer handed out: the hook that made it (so a block goes back to the hook that
// made it even if the hook changed since), the hook's block and its size, and the size asked.
// Alignments above malloc's are carved out of a larger block here, which also replaces C11's
// aligned_alloc (absent from the Microsoft C runtime that MinGW uses).
#include "limber/base.h"

#include <stdlib.h>
#include <string.h>

static void* lbDefaultAlloc(size_t size, void* userContext)
{
	(void)userContext;
	return malloc(size);
}

static void lbDefaultFree(void* memory, size_t size, void* userContext)
{
	(void)size;
	(void)userContext;
	free(memory);
}

// The hook set by lbSetAllocator; like the log hook, process state meant to be set once at start-up.
static lbAllocFcn* lbAllocHook = lbDefaultAlloc;
static lbFreeFcn* lbFreeHook = lbDefaultFree;
static void* lbAllocContext = NULL;

typedef struct lbBlockHeader
{
	lbFreeFcn* freeFcn;
	void* userContext;
	void* raw;        // what the hook returned
	size_t rawSize;   // what the hook was asked for
	size_t size;      // what the caller asked for
	size_t alignment; // what the caller asked for
} lbBlockHeader;

// The alignment malloc gives on every platform limber targets; the header size is a multiple of it.
#define LB_MIN_ALIGN ((size_t)16)
_Static_assert(sizeof(lbBlockHeader) % 16 == 0, "the header keeps the block 16-byte aligned");

void lbSetAllocator(lbAllocFcn* allocFcn, lbFreeFcn* freeFcn, void* userContext)
{
	if (!allocFcn || !freeFcn)
	{
		if (allocFcn || freeFcn)
			lbReport(lb_errorNullPointer, "lbSetAllocator: give both functions or neither (malloc and free are back)");
		lbAllocHook = lbDefaultAlloc;
		lbFreeHook = lbDefaultFree;
		lbAllocContext = NULL;
		return;
	}
	lbAllocHook = allocFcn;
	lbFreeHook = freeFcn;
	lbAllocContext = userContext;
}

void* lbAllocAligned(size_t size, size_t alignment)
{
	if (alignment < LB_MIN_ALIGN)
		alignment = LB_MIN_ALIGN;
	if ((alignment & (alignment - 1)) != 0)
	{
		lbReport(lb_errorInvalidArgument, "lbAllocAligned: alignment %zu is not a power of two", alignment);
		return NULL;
	}
	// The hook's block is at least 16-byte aligned; the header and up to alignment - 16 bytes of
	// padding go before the caller's block.
	size_t extra = sizeof(lbBlockHeader) + alignment - LB_MIN_ALIGN;
	if (size > SIZE_MAX - extra)
		return NULL;
	size_t rawSize = size + extra;
	lbFreeFcn* freeFcn = lbFreeHook;
	void* context = lbAllocContext;
	unsigned char* raw = (unsigned char*)lbAllocHook(rawSize, context);
	if (!raw)
		return NULL;
	uintptr_t start = (uintptr_t)raw + sizeof(lbBlockHeader);
	uintptr_t aligned = (start + (uintptr_t)alignment - 1) & ~((uintptr_t)alignment - 1);
	unsigned char* user = raw + (aligned - (uintptr_t)raw);
	lbBlockHeader* h = (lbBlockHeader*)(void*)(user - sizeof(lbBlockHeader));
	LB_ASSERT(user + size <= raw + rawSize);
	h->freeFcn = freeFcn;
	h->userContext = context;
	h->raw = raw;
	h->rawSize = rawSize;
	h->size = size;
	h->alignment = alignment;
	return user;
}

void* lbAlloc(size_t size)
{
	return lbAllocAligned(size, LB_MIN_ALIGN);
}

void* lbAllocZeroed(size_t size)
{
	void* p = lbAllocAligned(size, LB_MIN_ALIGN);
	if (p)
		memset(p, 0, size);
	return p;
}

void lbFree(void* memory)
{
	if (!memory)
		return;
	lbBlockHeader* h = (lbBlockHeader*)(void*)((unsigned char*)memory - sizeof(lbBlockHeader));
	h->freeFcn(h->raw, h->rawSize, h->userContext);
}

void* lbRealloc(void* memory, size_t size)
{
	if (!memory)
		return lbAlloc(size);
	lbBlockHeader* h = (lbBlockHeader*)(void*)((unsigned char*)memory - sizeof(lbBlockHeader));
	void* grown = lbAllocAligned(size, h->alignment);
	if (!grown)
		return NULL;
	memcpy(grown, memory, h->size < size ? h->size : size);
	lbFree(memory);
	return grown;
}
