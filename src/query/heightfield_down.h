// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Heightfield casts straight down the height axis (foot traces in the shape's own frame) take an
// expansion of the small-footprint path with the cast's x and y steps known to be zero. It gives the
// same bits as the path for any direction; this entry point runs that path alone, so tests can compare
// the two.
#pragma once

#include "query/cast.h"

/// lbHeightfieldCast without the straight-down expansion: the same cast (world space, m) through the
/// path written for any direction. For tests.
void lbHeightfieldCastGeneral(const lbHeightfield* hf, lbCastState* st, int shapeId);
