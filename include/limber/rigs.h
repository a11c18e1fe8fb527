// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref rigs group.

/// @defgroup rigs Built-in reference rigs
/// Two humanoids of about 1.8 m whose names, up axes and bone axes differ, so that every rig
/// feature is exercised on both:
/// - `mannequin`: UE5 mannequin names, +Z up, facing -Y, character left at +X; local +X along
///   each bone on the left side and the spine, -X on the right side (mirrored); A-pose rest.
/// - `mixamo`: Mixamo names with the `mixamorig:` prefix, +Y up, facing +Z, character left at
///   +X; local +Y along every bone; T-pose rest; no twist bones.
/// @{

#include "limber/skeleton.h"

/// Which reference rig.
typedef enum lbReferenceRig
{
	/// UE5 mannequin names, +Z up, A-pose rest.
	lb_rigMannequin = 0,
	/// Mixamo names, +Y up, T-pose rest, no twist bones.
	lb_rigMixamo = 1,
	/// Number of reference rigs (not a rig).
	lb_rigCount
} lbReferenceRig;

LB_EXTERN_C_BEGIN

/// Stable name of a reference rig ("mannequin", "mixamo"), or NULL for a bad value.
LB_API const char* lbReferenceRigName(lbReferenceRig rig);

/// Rig by name, or lb_rigCount when unknown.
LB_API lbReferenceRig lbFindReferenceRig(const char* name);

/// Model-space up axis of a reference rig (unit).
LB_API lbVec3 lbReferenceRigUp(lbReferenceRig rig);

/// Creates the skeleton of a reference rig (free with lbDestroySkeleton); NULL on a bad value.
LB_API lbSkeleton* lbCreateReferenceRig(lbReferenceRig rig);

LB_EXTERN_C_END

/// @}
