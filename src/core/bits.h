// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Bit tricks shared by the library's internals.
#pragma once

#include <stdint.h>

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
