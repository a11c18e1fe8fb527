// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Bit tricks and compiler hints shared by the library's internals.
#pragma once

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
