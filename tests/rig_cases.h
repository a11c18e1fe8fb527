// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The two reference rigs the climbing tests run on, each with its own world up and forward (the
// mannequin Z-up facing +X, mixamo Y-up facing +Z), and the frame time they step at.
#pragma once
#include "limber/math.h"
#include "limber/rigs.h"

#define DT (1.0f / 60.0f)

typedef struct RigCase
{
	lbReferenceRig rig;
	lbVec3 up, fwd;
} RigCase;

static const RigCase kRigs[] = {
	{ lb_rigMannequin, { 0, 0, 1 }, { 1, 0, 0 } },
	{ lb_rigMixamo, { 0, 1, 0 }, { 0, 0, 1 } },
};
