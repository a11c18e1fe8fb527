// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @defgroup scenes Scene builders: parametric, seeded test worlds
/// Builders add shapes to an lbWorld: flat ground, a slope, stairs, rocky terrain, a step-down
/// ledge, a climbing wall, an inside corner, a ledge top, a pointed roof, a raised beam and a gap
/// (or trench) across the way. Each has a stable name
/// (for scenario files) and a params struct with defaults; every field can also be set by key with
/// lbSceneParams_Set. Builders are deterministic: the same params (seed included) give the same
/// shapes, bit for bit. Nothing assumes an axis: the scene is laid out in the frame (forward, side,
/// up) given by `up` and `forward`, where side = up x forward.
///
/// Lengths are meters, angles radians. The character is expected to stand at `origin`, facing
/// `forward`; features (first step, wall, drop) lie ahead of it at `distance`.
/// @{

#include "limber/base.h"
#include "limber/math.h"
#include "limber/query.h"

/// Built-in scenes.
typedef enum lbSceneKind
{
	lb_sceneNone = 0,
	/// "flat": ground only.
	lb_sceneFlat,
	/// "slope": ground, then a plane rising at `angle` over `length` (GROUND).
	lb_sceneSlope,
	/// "stairs": ground, then `count` steps of `riser` x `tread` (boxes, GROUND), a `landing` on top.
	lb_sceneStairs,
	/// "rocky": fractal value-noise terrain of `amplitude` and feature `scale` over `size`, sampled
	/// every `resolution`, as a heightfield or (`as_mesh` = 1) a triangle mesh (GROUND).
	lb_sceneRocky,
	/// "step_down": a platform the character stands on, ending at `distance` with a `drop` (GROUND).
	lb_sceneStepDown,
	/// "climb_wall": ground and a wall of three stacked panels (vertical, inclined back by
	/// `incline_angle`, overhanging by `overhang_angle`), with `hold_count` box holds
	/// (CLIMBABLE | WALL).
	lb_sceneClimbWall,
	/// "inside_corner": ground and two walls meeting at a right angle ahead of the character
	/// (CLIMBABLE | WALL).
	lb_sceneInsideCorner,
	/// "ledge_top": ground and a block of `height` whose flat top is `depth` deep (GROUND | CLIMBABLE |
	/// WALL).
	lb_sceneLedgeTop,
	/// "roof": two slopes of `angle` meeting at a ridge `height` above the origin, running along the
	/// side axis (ROOF | GROUND), over ground.
	lb_sceneRoof,
	/// "beam": ground and a narrow raised beam along forward, `width` wide and `height` high, from
	/// `distance` (negative: behind the character, who then starts on it) over `length` (a solid
	/// box, GROUND).
	lb_sceneBeam,
	/// "gap": a platform the character stands on, ending at `distance`, then a gap `gap` wide whose
	/// floor lies `depth` below, then the platform again (solid boxes, GROUND). A shallow, wide gap
	/// (depth 0.4, gap 1.2) is a trench to step down into and out of.
	lb_sceneGap,
	lb_sceneCount
} lbSceneKind;

/// Parameters of a scene builder. Fields a builder does not use are ignored. Keys for
/// lbSceneParams_Set are given in brackets.
typedef struct lbSceneParams
{
	/// Which builder.
	lbSceneKind kind;
	/// World up [up_x, up_y, up_z]. Default (0, 0, 1).
	lbVec3 up;
	/// Direction the character faces; projected onto the plane normal to up [forward_x, forward_y,
	/// forward_z]. Default (1, 0, 0) (or any horizontal axis when that is parallel to up).
	lbVec3 forward;
	/// Where the character stands, on the ground surface [origin_x, origin_y, origin_z]. Default 0.
	lbVec3 origin;
	/// Random seed [seed] (integer-valued). Default 1.
	uint32_t seed;
	/// Side of the square ground plate around the origin (m), 0 = none [ground_size]. Default 20
	/// (rocky and step_down have their own ground: size).
	float groundSize;
	/// Distance from the origin to the feature (first step, drop, wall face, the beam's near end, the
	/// gap's near edge) (m) [distance]. Defaults: stairs 1, step_down 1, climb_wall 0.6,
	/// inside_corner 0.8, ledge_top 0.6, beam -1, gap 1.
	float distance;
	/// Width of the feature across the forward direction (m) [width]. Defaults: slope 6, stairs 2,
	/// step_down 6, climb_wall 4, inside_corner 3 (each wall's length), ledge_top 4, roof 6, beam 0.3,
	/// gap 6.
	float width;
	/// Slope angle from the ground plane (rad) [angle]. Defaults: slope 0.349 (20 deg), roof 0.436 (25 deg).
	float angle;
	/// Length of the slope or the beam along forward (m) [length]. Defaults: slope 8, beam 6.
	float length;
	/// Stair riser height (m) [riser]. Default 0.18.
	float riser;
	/// Stair tread depth (m) [tread]. Default 0.28.
	float tread;
	/// Number of steps [count] (integer-valued, 1..256). Default 8.
	float count;
	/// Depth of the stairs' top landing (m) [landing]. Default 2.
	float landing;
	/// Rocky terrain: peak deviation from the mean height (m) [amplitude]. Default 0.25.
	float amplitude;
	/// Rocky terrain: size of the largest bumps (m) [scale]. Default 2.
	float scale;
	/// Rocky terrain, step_down and gap: side of the square patch (m) [size]. Default 20.
	float size;
	/// Rocky terrain: distance between height samples (m) [resolution]. Default 0.1.
	float resolution;
	/// Rocky terrain: 0 = heightfield, 1 = triangle mesh [as_mesh]. Default 0.
	float asMesh;
	/// Step-down: height of the drop (m) [drop]. Default 0.3.
	float drop;
	/// Climbing wall: height of each panel (m) [panel_height]. Default 2.
	float panelHeight;
	/// Climbing wall: how far the middle panel leans away from the climber (rad) [incline_angle].
	/// Default 0.262 (15 deg).
	float inclineAngle;
	/// Climbing wall: how far the top panel leans over the climber (rad) [overhang_angle]. Default
	/// 0.349 (20 deg).
	float overhangAngle;
	/// Climbing wall: number of holds [hold_count] (integer-valued, 0..4096). Default 30.
	float holdCount;
	/// Climbing wall: hold width (m) [hold_size]. Default 0.12.
	float holdSize;
	/// Climbing wall: how far holds stick out of the wall (m) [hold_depth]. Default 0.05.
	float holdDepth;
	/// Wall and platform thickness (m; gap: of the floor under the gap) [thickness]. Default 0.3.
	float thickness;
	/// Height of walls, the ledge top, the roof ridge and the beam (m) [height]. Defaults:
	/// inside_corner 3, ledge_top 1.8, roof 3, beam 0.5.
	float height;
	/// Ledge top: depth of the flat top (m); gap: how far the gap's floor lies below the ground (m)
	/// [depth]. Default 1.5.
	float depth;
	/// Gap: width of the gap along forward (m) [gap]. Default 0.4.
	float gap;
	/// Roof: horizontal run of each slope from the ridge to the eave (m) [run]. Default 4.
	float run;
	/// Used internally to detect valid params. DO NOT SET.
	int internalValue;
} lbSceneParams;

LB_EXTERN_C_BEGIN

/// Builder by stable name ("flat", "slope", "stairs", "rocky", "step_down", "climb_wall",
/// "inside_corner", "ledge_top", "roof", "beam", "gap"); lb_sceneNone when unknown or NULL.
LB_API lbSceneKind lbSceneBuilderByName(const char* name);

/// Stable name of a builder ("" for lb_sceneNone or out of range).
LB_API const char* lbSceneBuilderName(lbSceneKind kind);

/// Params of `kind` with every default filled in.
LB_API lbSceneParams lbDefaultSceneParams(lbSceneKind kind);

/// Keys `kind` accepts (common keys first). Returns the count; *outKeys points to static strings.
LB_API int lbSceneParamKeys(lbSceneKind kind, const char* const** outKeys);

/// Sets a parameter by key. Unknown keys, keys the builder does not use and non-finite values give
/// lb_errorInvalidArgument (logged) and change nothing.
LB_API lbResult lbSceneParams_Set(lbSceneParams* params, const char* key, float value);

/// Reads a parameter by key (same keys as lbSceneParams_Set).
LB_API lbResult lbSceneParams_Get(const lbSceneParams* params, const char* key, float* outValue);

/// Adds the scene's shapes to `world`. Bad params (missing cookie, out-of-range values, zero up)
/// give an error code (logged) and add nothing.
LB_API lbResult lbBuildScene(lbWorld* world, const lbSceneParams* params);

/// Height of the rocky terrain's noise at planar coordinates (a, b) (m, along forward and side from
/// the origin), as the rocky builder samples it. Lets tests and tools predict the surface.
LB_API float lbSceneRockyHeight(const lbSceneParams* params, float a, float b);

LB_EXTERN_C_END

/// @}
