// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The fuzz targets' input reader: the input as a stream of choices and numbers. A number is NaN,
// an infinity, +-3e38, 0, a tiny value or one in [-4, 4], as its mode byte says.
#pragma once
#include "limber/base.h"
#include "limber/math.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lbFuzzReader
{
	const uint8_t* data;
	size_t size, at;
} lbFuzzReader;

static inline unsigned lbByte(lbFuzzReader* r)
{
	return r->at < r->size ? r->data[r->at++] : 0u;
}

static inline float lbFloat(lbFuzzReader* r)
{
	unsigned mode = lbByte(r);
	const unsigned low = lbByte(r); // (one read per statement: argument order is unspecified in C)
	unsigned bits = low | (lbByte(r) << 8);
	switch (mode & 15u)
	{
		case 0:
			return NAN;
		case 1:
			return (mode & 16u) ? INFINITY : -INFINITY;
		case 2:
			return (mode & 16u) ? 3.0e38f : -3.0e38f;
		case 3:
			return 0.0f;
		case 4:
			return (float)bits * 1.0e-9f; // tiny
		default:
			return ((float)bits / 65535.0f - 0.5f) * 8.0f;
	}
}

static inline lbVec3 lbVec(lbFuzzReader* r)
{
	lbVec3 v;
	v.x = lbFloat(r);
	v.y = lbFloat(r);
	v.z = lbFloat(r);
	return v;
}

// A log hook that drops every message: the targets feed bad input on purpose.
static inline void lbQuiet(lbLogLevel level, lbResult code, const char* message, void* ctx)
{
	(void)level;
	(void)code;
	(void)message;
	(void)ctx;
}
