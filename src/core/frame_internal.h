// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The climb and prone systems measure the rig in the world's metres: their model frame must not
// scale. A character transform that does (a rig in centimetres under a 0.01 scale, a child scaled to
// 0.8) is refused with a clear error rather than posed in the wrong units; the foot system takes
// such a frame (its lengths carry the model-to-world scale).
#pragma once

#include "limber/math.h"

#include <stdbool.h>

// Every scale component within 1e-3 of 1 (an engine's transform rounding), NaN refused.
static inline bool lbFrameUnscaled(const lbTransform* t)
{
	return lbAbsF(t->s.x - 1.0f) <= 1.0e-3f && lbAbsF(t->s.y - 1.0f) <= 1.0e-3f && lbAbsF(t->s.z - 1.0f) <= 1.0e-3f;
}
