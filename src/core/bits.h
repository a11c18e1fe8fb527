// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Bit tricks and compiler hints shared by the library's internals.
#pragma once

#include <stddef.h>
#include <stdint.h>

// Compiler hints: always inline (a small step taking vectors as arguments, inlined into each caller
// where callgrind counted fewer instructions with it), out of line, and out of line and cold (a rare
// path kept out of the hot code around it).
#if defined(__GNUC__) || defined(__clang__)
#define LB_ALWAYS_INLINE __attribute__((always_inline)) inline
#define LB_NOINLINE __attribute__((noinline))
#define LB_COLD __attribute__((noinline, cold))
#else
#define LB_ALWAYS_INLINE inline
#define LB_NOINLINE
#define LB_COLD
#endif

// Index of the lowest set bit of m != 0.
static inline int lbLowestBit(uint32_t m)
{
#if defined(__GNUC__) || defined(__clang__)
	return __builtin_ctz(m);
#else
	int k = 0;
	while (!(m & 1u))
		m >>= 1, ++k;
	return k;
#endif
}

// Asks for the cache lines of [p, p + bytes) ahead of their use (a hint: no fault, no effect on
// results); `write` for lines about to be written.
static inline void lbPrefetchRange(const void* p, size_t bytes, int write)
{
#if defined(__GNUC__) || defined(__clang__)
	const char* c = (const char*)((uintptr_t)p & ~(uintptr_t)63);
	const char* end = (const char*)p + bytes;
	for (; c < end; c += 64)
	{
		if (write)
			__builtin_prefetch(c, 1);
		else
			__builtin_prefetch(c, 0);
	}
#else
	(void)p;
	(void)bytes;
	(void)write;
#endif
}
