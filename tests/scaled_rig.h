// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// A skeleton in other units: every rest translation and bone end of `s` times k (k = 100 is the rig
// in centimetres), with the same names, parents and rotations. A character on it whose
// characterWs scales by 1 / k is the same body in the world.
#pragma once
#include "limber/skeleton.h"

#include <stdlib.h>

static inline lbSkeleton* createScaledRig(const lbSkeleton* s, float k)
{
	lbTransform* rest = (lbTransform*)malloc(sizeof(lbTransform) * (size_t)s->boneCount);
	lbVec3* ends = s->ends ? (lbVec3*)malloc(sizeof(lbVec3) * (size_t)s->boneCount) : NULL;
	if (!rest || (s->ends && !ends))
	{
		free(rest);
		free(ends);
		return NULL;
	}
	for (int i = 0; i < s->boneCount; ++i)
	{
		rest[i] = s->restLocal[i];
		rest[i].p = lbMulSV(k, rest[i].p);
		if (ends)
			ends[i] = lbMulSV(k, s->ends[i]);
	}
	lbSkeletonDef d = lbDefaultSkeletonDef();
	d.boneCount = s->boneCount;
	d.names = s->names;
	d.parents = s->parents;
	d.restLocal = rest;
	d.ends = ends;
	lbSkeleton* out = lbCreateSkeleton(&d, NULL);
	free(rest);
	free(ends);
	return out;
}

// The pose `src` of the rig `s` moved onto its copy in other units (createScaledRig(s, k)):
// translations times k, rotations and scales as they are.
static inline void scalePoseUnits(const lbPose* src, float k, lbPose* dst)
{
	for (int b = 0; b < src->boneCount; ++b)
	{
		dst->local[b] = src->local[b];
		dst->local[b].p = lbMulSV(k, src->local[b].p);
		dst->model[b] = src->model[b];
		dst->model[b].p = lbMulSV(k, src->model[b].p);
	}
}
