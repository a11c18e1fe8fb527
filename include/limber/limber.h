// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref limber group.

/// @defgroup limber Umbrella header: includes the whole core API.

#include "limber/base.h"
#include "limber/foot.h"
#include "limber/climb.h"
#include "limber/crowd.h"
#include "limber/humanoid.h"
#include "limber/ik.h"
#include "limber/ik_batch.h"
#include "limber/math.h"
#include "limber/motion.h"
#include "limber/prone.h"
#include "limber/query.h"
#include "limber/rigs.h"
#include "limber/scenes.h"
#include "limber/skeleton.h"
