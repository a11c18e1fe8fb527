// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The climbing system's scenario keys, for the tests that hold every lbClimbDef field to a key.
#pragma once

#include "scenario_internal.h"

#include "limber/climb.h"

/// The number keys of the climbing system's config (each sets one float, or one uint32_t / int, of
/// lbClimbDef) and the four per-limb rotation keys (hand_l, hand_r, foot_l, foot_r: a rotation
/// vector in degrees setting searchRotationOffset). Returns the number of number keys.
int lbClimbConfigKeys(const lbConfigNumberKey** outKeys, const char* const** outRotationKeys);

/// Appends the climbing targets' held limbs (locked or locking on a surface) to out's contacts, as
/// the metrics measure them: a palm at `lockOffset` below the wrist along the palm's normal, a toe
/// tip (on the ball bone where the rig has one) at its target.
void lbClimbRunContacts(const lbClimbTargets* targets, const lbClimbDef* def, const lbHumanoid* h, lbSystemOutput* out);

/// Reads a climbing config ("system.config") into *def as a scenario does; false with the message
/// (and *def unchanged) when a key is unknown or a value refused.
bool lbClimbConfigRead(const cJSON* config, lbClimbDef* def, char* message, int capacity, lbResult* outCode);
