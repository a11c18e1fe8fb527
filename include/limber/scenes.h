// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref scenes group.

/// @defgroup scenes Scene builders: parametric, seeded test worlds
/// Builders add shapes to an lbWorld: flat ground, a slope, stairs, rocky terrain, a step-down
/// ledge, a climbing wall, an inside corner, a ledge top, a pointed roof, a raised beam, a gap
/// (or trench) across the way, a plain climbable wall at any angle and a wall of sparse holds.
/// Each has a stable name (for scenario files) and a params struct with defaults; every field can
/// also be set by key with lbSceneDef_Set. Builders are deterministic: the same params (seed included) give the same
/// shapes, bit for bit. Nothing assumes an axis: the scene is laid out in the frame (forward, side,
/// up) given by `up` and `forward`, where side = up x forward.
///
/// Lengths are meters, angles radians. The character is expected to stand at `origin`, facing
/// `forward`; features (first step, wall, drop) lie ahead of it at `distance`.
/// @{

#include "limber/base.h"
#include "limber/math.h"
#include "limber/query.h"

#include <stddef.h>

/// Default memory budget of a scene builder and of a scenario run (bytes): 1 GiB, so that a
/// scenario (or scene params) from an untrusted source cannot make a 2 GB machine swap or die.
/// A builder or run that would need more refuses with lb_errorOutOfMemory and names the figure.
#define LB_DEFAULT_MEMORY_BUDGET ((size_t)1 << 30)

/// Built-in scenes.
typedef enum lbSceneKind
{
	/// No scene (not a valid kind).
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
	/// "wall": ground and one planar climbable wall, a solid box `thickness` thick (CLIMBABLE | WALL;
	/// the ground stays GROUND). Its face starts on the ground at `distance` ahead of the origin, is
	/// `width` wide (centred on the origin's side position) and reaches `height` above the ground;
	/// going up, the face runs along forward * cos(angle) + up * sin(angle), so `angle` is the face's
	/// angle from the ground plane and also the angle between the face's normal (toward the
	/// climber) and up: pi/2 is vertical, less is a slab leaning away from the climber (70 deg),
	/// more an overhang leaning over the climber (110 deg). At height h the face lies
	/// distance + h / tan(angle) ahead of the origin.
	lb_sceneWall,
	/// "holds": ground and a vertical wall that is not climbable (a solid box, WALL only) whose face
	/// lies `distance` ahead, `width` wide and `height` tall, with `hold_count` holds (boxes
	/// `hold_size` square on the wall, sticking out `hold_depth`, CLIMBABLE | WALL) at least
	/// 2 * hold_size apart (centre to centre). The first four are always within reach of a character
	/// standing at the origin: two hand holds 1.55..2.05 m up and two foot holds 0.35..0.65 m up, one
	/// of each 0.15..0.45 m to either side; the rest are spread over the wall by `seed`.
	/// lbSceneHolds gives their centres.
	lb_sceneHolds,
	/// Number of scene kinds (not a kind).
	lb_sceneCount
} lbSceneKind;

/// Parameters of a scene builder. Fields a builder does not use are ignored. Keys for
/// lbSceneDef_Set are given in brackets.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbSceneDef
{
	/// Which builder. Default: the kind passed to lbDefaultSceneDef.
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
	/// Distance from the origin to the feature (first step, drop, wall face (wall: its foot), the
	/// beam's near end, the gap's near edge) (m) [distance]. Defaults: stairs 1, step_down 1,
	/// climb_wall 0.6, inside_corner 0.8, ledge_top 0.6, beam -1, gap 1, wall 0.6, holds 0.6.
	float distance;
	/// Width of the feature across the forward direction (m) [width]. Defaults: slope 6, stairs 2,
	/// step_down 6, climb_wall 4, inside_corner 3 (each wall's length), ledge_top 4, roof 6, beam 0.3,
	/// gap 6, wall 4 (> 0), holds 4 (>= 1.2, so the reach holds fit).
	float width;
	/// Slope angle from the ground plane (rad) [angle]. Defaults: slope 0.349 (20 deg), roof 0.436 (25 deg),
	/// wall 1.5708 (90 deg, vertical; must lie in (0, pi): below pi/2 a slab, above an overhang).
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
	/// Climbing wall and holds: number of holds [hold_count] (integer-valued). climb_wall: 0..4096,
	/// default 30. holds: 4..4096 and at most (width - 2 hold_size) (height - 2 hold_size) /
	/// (4 hold_size)^2 (90 with the defaults), default 60.
	float holdCount;
	/// Climbing wall and holds: hold width (m) [hold_size]. Defaults: climb_wall 0.12, holds 0.1
	/// (holds: a square of that side on the wall, at most 0.15).
	float holdSize;
	/// Climbing wall and holds: how far holds stick out of the wall (m) [hold_depth]. Defaults:
	/// climb_wall 0.05, holds 0.06.
	float holdDepth;
	/// Wall and platform thickness (m; gap: of the floor under the gap) [thickness]. Default 0.3
	/// (wall and holds too).
	float thickness;
	/// Height of walls, the ledge top, the roof ridge and the beam (m) [height]. Defaults:
	/// inside_corner 3, ledge_top 1.8, roof 3, beam 0.5, wall 4 (the face's top edge above the
	/// ground; an overhang's back edge rises up to thickness * |cos(angle)| higher), holds 4 (>= 2.4,
	/// so the reach holds fit).
	float height;
	/// Ledge top: depth of the flat top (m); gap: how far the gap's floor lies below the ground (m)
	/// [depth]. Default 1.5.
	float depth;
	/// Gap: width of the gap along forward (m) [gap]. Default 0.4.
	float gap;
	/// Roof: horizontal run of each slope from the ridge to the eave (m) [run]. Default 4.
	float run;
	/// Most memory the builder may use for this shape (bytes; its own buffers and the world's copy,
	/// estimated before anything is allocated). Above it lbBuildScene refuses with
	/// lb_errorOutOfMemory and names both figures. Default LB_DEFAULT_MEMORY_BUDGET. Not a key.
	size_t memoryBudget;
	/// Used internally to detect valid params. DO NOT SET.
	int internalValue;
} lbSceneDef;

/// Deprecated name of lbSceneDef (before 0.3); will be removed in 0.4.
typedef lbSceneDef lbSceneParams;
/// Deprecated names of lbDefaultSceneDef, lbSceneDef_Validate, lbSceneDef_Set, lbSceneDef_Get and
/// lbSceneDefKeys (before 0.3); will be removed in 0.4.
#define lbDefaultSceneParams lbDefaultSceneDef
/// @copydoc lbDefaultSceneParams
#define lbSceneParams_Validate lbSceneDef_Validate
/// @copydoc lbDefaultSceneParams
#define lbSceneParams_Set lbSceneDef_Set
/// @copydoc lbDefaultSceneParams
#define lbSceneParams_Get lbSceneDef_Get
/// @copydoc lbDefaultSceneParams
#define lbSceneParamKeys lbSceneDefKeys

LB_EXTERN_C_BEGIN

/// Checks params as lbBuildScene does, without building or logging: lb_ok, or the error
/// lbBuildScene would return with its reason written to outMessage (capacity bytes; may be NULL).
LB_API lbResult lbSceneDef_Validate(const lbSceneDef* params, char* outMessage, size_t capacity);

/// Estimated peak memory (bytes) lbBuildScene needs for these params, as compared with
/// params->memoryBudget; 0 for NULL or invalid params.
LB_API size_t lbSceneMemoryEstimate(const lbSceneDef* params);

/// Builder by stable name ("flat", "slope", "stairs", "rocky", "step_down", "climb_wall",
/// "inside_corner", "ledge_top", "roof", "beam", "gap", "wall", "holds"); lb_sceneNone when unknown
/// or NULL.
LB_API lbSceneKind lbSceneBuilderByName(const char* name);

/// Stable name of a builder ("" for lb_sceneNone or out of range).
LB_API const char* lbSceneBuilderName(lbSceneKind kind);

/// Params of `kind` with every default filled in.
LB_API lbSceneDef lbDefaultSceneDef(lbSceneKind kind);

/// Keys `kind` accepts (common keys first). Returns the count; *outKeys points to static strings.
LB_API int lbSceneDefKeys(lbSceneKind kind, const char* const** outKeys);

/// Sets a parameter by key. Unknown keys, keys the builder does not use and non-finite values give
/// lb_errorInvalidArgument (logged) and change nothing.
LB_API lbResult lbSceneDef_Set(lbSceneDef* params, const char* key, float value);

/// Reads a parameter by key (same keys as lbSceneDef_Set).
LB_API lbResult lbSceneDef_Get(const lbSceneDef* params, const char* key, float* outValue);

/// Adds the scene's shapes to `world`. Bad params (missing cookie, out-of-range values, zero up)
/// give an error code (logged) and add nothing.
LB_API lbResult lbBuildScene(lbWorld* world, const lbSceneDef* params);

/// Height of the rocky terrain's noise at planar coordinates (a, b) (m, along forward and side from
/// the origin), as the rocky builder samples it. Lets tests and tools predict the surface.
LB_API float lbSceneRockyHeight(const lbSceneDef* params, float a, float b);

/// Hold centres of a "holds" scene, as lbBuildScene places them: the centre of each hold's face
/// toward the climber (world space, m), `hold_depth` in front of the wall's face. Deterministic from
/// the params (seed included); the first four are the reach holds (left hand, right hand, left
/// foot, right foot; left = +side = up x forward). Writes at most `capacity` points to
/// `outCentres` (NULL allowed when capacity is 0) and returns the number of holds, or -1 (logged)
/// when params is not a valid "holds" scene.
LB_API int lbSceneHolds(const lbSceneDef* params, lbVec3* outCentres, int capacity);

LB_EXTERN_C_END

/// @}
