// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// What a solver keeps in a caller's workspace between calls is derived from one skeleton and one
// humanoid map; this key says which. It is kept next to the derived data: a workspace used again
// for the same character matches and skips the set-up, anything else in those bytes (another
// skeleton or humanoid, one changed, or memory never used) does not, and the data is made again.
// The skeleton is compared by its arrays' addresses (a skeleton's rest arrays changed in place
// need a zeroed workspace; the public headers say so), the humanoid byte for byte. Matching those is
// not enough: a workspace freed and handed out again by the allocator can hold a matching key above
// data overwritten since (the allocator's own bookkeeping, another allocation's bytes), so the key
// also keeps a sum of the data, which the solver checks before trusting it.
#ifndef LIMBER_CORE_RIG_KEY_H
#define LIMBER_CORE_RIG_KEY_H

#include "core/simd.h"
#include "limber/humanoid.h"
#include "limber/skeleton.h"
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct lbRigKey
{
	uint64_t magic; // which solver's data follows (each has its own value)
	const lbSkeleton* skeleton;
	const int* parents;
	const lbTransform* restLocal;
	const lbTransform* restModel;
	const lbHumanoid* humanoidPtr;
	int boneCount;
	lbHumanoid humanoid;
	uint64_t sum; // lbRigKey_Sum of the derived data, set with lbRigKey_Seal
} lbRigKey;

// A sum of size bytes at data, chained from seed (several ranges can be summed one after another).
// Four independent 64-bit additions, so it costs about one instruction per eight bytes: it is only
// there to catch bytes that changed at random, not to resist a crafted change.
static inline uint64_t lbRigKey_Sum(uint64_t seed, const void* data, size_t size)
{
	const unsigned char* b = (const unsigned char*)data;
	uint64_t a0 = seed, a1 = size, a2 = 0u, a3 = 0u;
	size_t i = 0;
#if defined(LB_SIMD_SSE)
	// The same four lanes two to a register (integer adds: the same sum to the bit), 64 bytes a
	// round in two pairs of registers folded together after; half the instructions of the scalar
	// loop below.
	if (size >= 64u)
	{
		__m128i v01 = _mm_set_epi64x((long long)a1, (long long)a0), v23 = _mm_setzero_si128();
		__m128i u01 = _mm_setzero_si128(), u23 = _mm_setzero_si128();
		for (; i + 64u <= size; i += 64u)
		{
			v01 = _mm_add_epi64(v01, _mm_loadu_si128((const __m128i*)(const void*)(b + i)));
			v23 = _mm_add_epi64(v23, _mm_loadu_si128((const __m128i*)(const void*)(b + i + 16u)));
			u01 = _mm_add_epi64(u01, _mm_loadu_si128((const __m128i*)(const void*)(b + i + 32u)));
			u23 = _mm_add_epi64(u23, _mm_loadu_si128((const __m128i*)(const void*)(b + i + 48u)));
		}
		if (i + 32u <= size)
		{
			v01 = _mm_add_epi64(v01, _mm_loadu_si128((const __m128i*)(const void*)(b + i)));
			v23 = _mm_add_epi64(v23, _mm_loadu_si128((const __m128i*)(const void*)(b + i + 16u)));
			i += 32u;
		}
		v01 = _mm_add_epi64(v01, u01);
		v23 = _mm_add_epi64(v23, u23);
		uint64_t lanes[4];
		_mm_storeu_si128((__m128i*)(void*)lanes, v01);
		_mm_storeu_si128((__m128i*)(void*)(lanes + 2), v23);
		a0 = lanes[0], a1 = lanes[1], a2 = lanes[2], a3 = lanes[3];
	}
#endif
	// One 8-byte load per word (a copy into an array of four spills it to the stack and back).
	for (; i + 32u <= size; i += 32u)
	{
		uint64_t w0, w1, w2, w3;
		memcpy(&w0, b + i, 8u), memcpy(&w1, b + i + 8u, 8u), memcpy(&w2, b + i + 16u, 8u), memcpy(&w3, b + i + 24u, 8u);
		a0 += w0, a1 += w1, a2 += w2, a3 += w3;
	}
	// The tail: whole words, then bytes (a short range is mostly tail).
	for (; i + 8u <= size; i += 8u)
	{
		uint64_t w;
		memcpy(&w, b + i, 8u);
		a2 += w;
	}
	for (; i < size; ++i)
		a3 += (uint64_t)b[i] << (8u * (i & 7u));
	// Mixed so a change in one lane cannot be undone by the same change in another.
	return (a0 * 0x9e3779b97f4a7c15ull) ^ (a1 * 0xc2b2ae3d27d4eb4full) ^ (a2 * 0x165667b19e3779f9ull) ^
		   (a3 * 0x27d4eb2f165667c5ull);
}

// Records the skeleton and humanoid the data beside the key was just made from, and the data's sum.
static inline void lbRigKey_Set(lbRigKey* key, uint64_t magic, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
								uint64_t sum)
{
	key->sum = sum;
	key->skeleton = skeleton;
	key->parents = skeleton->parents;
	key->restLocal = skeleton->restLocal;
	key->restModel = skeleton->restModel;
	key->boneCount = skeleton->boneCount;
	key->humanoidPtr = humanoid;
	memcpy(&key->humanoid, humanoid, sizeof *humanoid);
	key->magic = magic;
}

// Whether the data beside the key was made by this solver for this skeleton and humanoid (the
// caller then compares the data's sum with key->sum: only worth doing once this holds).
static inline bool lbRigKey_Matches(const lbRigKey* key, uint64_t magic, const lbSkeleton* skeleton,
									const lbHumanoid* humanoid)
{
	return key->magic == magic && key->skeleton == skeleton && key->parents == skeleton->parents &&
		   key->restLocal == skeleton->restLocal && key->restModel == skeleton->restModel &&
		   key->boneCount == skeleton->boneCount && key->humanoidPtr == humanoid &&
		   memcmp(&key->humanoid, humanoid, sizeof *humanoid) == 0;
}

#endif
