// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// What a solver keeps in a caller's workspace between calls is derived from one skeleton and one
// humanoid map; this key says which. It is kept next to the derived data: a workspace used again
// for the same character matches and skips the set-up, anything else in those bytes (another
// skeleton or humanoid, one changed, or memory never used) does not, and the data is made again.
// The skeleton is compared by its arrays' addresses (a skeleton's rest arrays changed in place
// need a zeroed workspace; the public headers say so), the humanoid byte for byte.
#ifndef LIMBER_CORE_RIG_KEY_H
#define LIMBER_CORE_RIG_KEY_H

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
} lbRigKey;

// Records the skeleton and humanoid the data beside the key was just made from.
static inline void lbRigKey_Set(lbRigKey* key, uint64_t magic, const lbSkeleton* skeleton, const lbHumanoid* humanoid)
{
	key->skeleton = skeleton;
	key->parents = skeleton->parents;
	key->restLocal = skeleton->restLocal;
	key->restModel = skeleton->restModel;
	key->boneCount = skeleton->boneCount;
	key->humanoidPtr = humanoid;
	memcpy(&key->humanoid, humanoid, sizeof *humanoid);
	key->magic = magic;
}

// Whether the data beside the key was made by this solver for this skeleton and humanoid.
static inline bool lbRigKey_Matches(const lbRigKey* key, uint64_t magic, const lbSkeleton* skeleton,
									const lbHumanoid* humanoid)
{
	return key->magic == magic && key->skeleton == skeleton && key->parents == skeleton->parents &&
		   key->restLocal == skeleton->restLocal && key->restModel == skeleton->restModel &&
		   key->boneCount == skeleton->boneCount && key->humanoidPtr == humanoid &&
		   memcmp(&key->humanoid, humanoid, sizeof *humanoid) == 0;
}

#endif
