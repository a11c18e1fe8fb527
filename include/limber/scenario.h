// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref scenario group.

/// @defgroup scenario Scenarios: files, runs, reports and pose streams
/// A scenario (a JSON file, format in docs/scenarios.md) names a world, a rig, a system with its
/// configuration, a base motion, a timeline of scripted inputs, a time step, a frame count and a
/// camera. lbLoadScenario parses and validates one; lbCreateRun builds everything it names and
/// lbRun_Step advances it one fixed step at a time, measuring every frame (metrics.h). Runs are
/// deterministic: the same scenario gives the same report bytes (timing figures aside, which are
/// kept in their own `timing` object). Part of the io layer (limber_io).
/// @{

#include "limber/humanoid.h"
#include "limber/metrics.h"
#include "limber/scenes.h"
#include "limber/skeleton.h"

#include <stdio.h>

/// Longest builder, motion, system or rig name including the terminating zero.
#define LB_SCENARIO_NAME 32
/// Longest file path kept in a scenario, including the terminating zero.
#define LB_SCENARIO_PATH 512
/// Most parameters of one world shape.
#define LB_SCENARIO_MAX_PARAMS 24
/// Most world shapes in a scenario.
#define LB_SCENARIO_MAX_SHAPES 32

/// One builder parameter: a number, a string or a 3-vector.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbScenarioParam
{
	/// Parameter name, as the builder knows it.
	char key[LB_SCENARIO_NAME];
	/// 0 number, 1 text, 2 vector.
	int type;
	/// The value when type is 0 (in the builder's units: m, deg...).
	double number;
	/// The value when type is 1.
	char text[LB_SCENARIO_NAME * 2];
	/// The value when type is 2 (world, m for a point).
	lbVec3 vector;
} lbScenarioParam;

/// One world shape: a scene builder by name with its parameters.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbScenarioShape
{
	/// Scene builder name (one of lbScenarioBuilderName).
	char builder[LB_SCENARIO_NAME];
	/// Its parameters; paramCount of them are used.
	lbScenarioParam params[LB_SCENARIO_MAX_PARAMS];
	/// Number of parameters given (0..LB_SCENARIO_MAX_PARAMS).
	int paramCount;
} lbScenarioShape;

/// Scripted input kinds (timeline entries and live input from the viewer).
typedef enum lbInputKind
{
	/// Desired character velocity (world, m/s) in `vector`.
	lb_inputVelocity = 0,
	/// Desired heading (deg about up, 0 = the world reference forward) in `value`.
	lb_inputHeading,
	/// Character state change (lbCharacterState in `state`).
	lb_inputState,
	/// Climb: select limb `limb` (0 hand_l, 1 hand_r, 2 foot_l, 3 foot_r).
	lb_inputSelectLimb,
	/// Climb: stick input x, y in [-1, 1] in `vector.x`, `vector.y`.
	lb_inputStick,
	/// Climb: confirm the selected limb's target.
	lb_inputConfirm,
	/// Climb: release the limb named by `limb`, or the selected one when `limb` is -1.
	lb_inputRelease,
	/// Moves the character to `vector` (world, m) at once.
	lb_inputTeleport,
	/// Jump impulse: upward speed (m/s) in `value`.
	lb_inputJump,
	/// Number of input kinds (not a kind).
	lb_inputCount
} lbInputKind;

/// Character states the runner tracks (the foot system reads them).
typedef enum lbCharacterState
{
	/// On the ground.
	lb_stateGrounded = 0,
	/// Airborne.
	lb_stateFalling,
	/// Touching down after a fall or a jump.
	lb_stateLanding,
	/// Rolling on the ground.
	lb_stateRolling,
	/// On a wall.
	lb_stateClimbing,
	/// Lying on the ground.
	lb_stateProne,
	/// Number of states (not a state).
	lb_stateCount
} lbCharacterState;

/// One scripted input at a time.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbScenarioEvent
{
	/// Time (s from start) at which the input applies; inputs apply at the first frame whose
	/// start time is >= this.
	float time;
	/// Which input; it says which of the fields below it reads.
	lbInputKind kind;
	/// Velocity (world, m/s), stick (x, y in [-1, 1]) or teleport position (world, m).
	lbVec3 vector;
	/// Heading (deg about up) or jump speed (m/s).
	float value;
	/// Limb to select or release (0 hand_l, 1 hand_r, 2 foot_l, 3 foot_r; -1 the selected one).
	int limb;
	/// New character state (lb_inputState).
	lbCharacterState state;
} lbScenarioEvent;

/// Camera of a scenario: orbit around a target.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbScenarioCamera
{
	/// Point looked at (world, m), relative to the character when `follow` is set.
	lbVec3 target;
	///@{
	/// Orbit yaw about up (deg; 0 puts the camera on the world reference forward side of the
	/// target, looking back), pitch above the horizon (deg), distance (m), vertical fov (deg).
	float yawDeg, pitchDeg, distance, fovDeg;
	///@}
	/// Follow the character.
	bool follow;
} lbScenarioCamera;

/// A parsed, validated scenario. Free with lbDestroyScenario.
/// Thread-safety: read-only once made; any number of threads may read it at once.
typedef struct lbScenario
{
	///@{
	/// File it came from ("" when parsed from memory) and its directory (for relative paths).
	char path[LB_SCENARIO_PATH];
	char directory[LB_SCENARIO_PATH];
	///@}
	/// Name: the file's "name", else the file name without directory and extension.
	char name[LB_SCENARIO_NAME * 2];
	/// The file's "description" ("" when absent).
	char description[256];
	/// World up (unit). Default +Z.
	lbVec3 upWs;
	/// World shapes, built in order; shapeCount of them are used.
	lbScenarioShape shapes[LB_SCENARIO_MAX_SHAPES];
	/// Number of world shapes (0..LB_SCENARIO_MAX_SHAPES).
	int shapeCount;
	/// Built-in rig name ("mannequin", "mixamo") or "" when rigFile is set.
	char rig[LB_SCENARIO_NAME];
	/// Rig file (resolved against the scenario's directory) or "".
	char rigFile[LB_SCENARIO_PATH];
	///@{
	/// Rig file options: explicit bone name per humanoid role ("" = found by name patterns),
	/// meters per file unit (0 = automatic) and the toe tip's distance along the sole (m,
	/// lbHumanoidDef::toeTipLength; -1 = from the rig's toe end).
	char roleNames[lb_roleCount][LB_SCENARIO_NAME * 2];
	float rigUnitScale;
	float rigToeTipLength;
	///@}
	///@{
	/// Character start position (world, m) and heading (deg about up).
	lbVec3 position;
	float headingDeg;
	///@}
	///@{
	/// Base motion name ("rest", ...) and its speed (m/s; negative = the motion's own).
	char motion[LB_SCENARIO_NAME];
	float motionSpeed;
	///@}
	/// Whether the runner's controller slows a walk or a run on steep flights to whole treads a
	/// step (docs/scenarios.md); false keeps the asked speed, as a game's controller that does not.
	bool slowOnFlights;
	/// Whether the systems are told the velocity the motion moved the character at this frame (its
	/// root's, along the ground: a clip's root motion, a gait as it speeds up) instead of the
	/// controller's, which for a clip is none (docs/scenarios.md). False by default.
	bool rootVelocity;
	///@{
	/// Clip motion: which clip of the rig file, playback rate, looping.
	int clipIndex;
	float playRate;
	bool loop;
	///@}
	///@{
	/// System name ("none", ...) and its config overrides as JSON text (owned; may be NULL).
	char system[LB_SCENARIO_NAME];
	char* systemConfig;
	///@}
	///@{
	/// Timeline, sorted by time (owned), and its event count.
	lbScenarioEvent* events;
	int eventCount;
	///@}
	///@{
	/// Fixed step (s) and number of frames.
	float dt;
	int frames;
	///@}
	/// Camera the viewer and the frame renderer start with.
	lbScenarioCamera camera;
	/// Most memory lbCreateRun may use for the world and the per-frame records (bytes; estimated
	/// before anything is built). Above it lbCreateRun refuses with lb_errorOutOfMemory and names
	/// both figures. Default LB_DEFAULT_MEMORY_BUDGET; an embedder may change it after parsing.
	size_t memoryBudget;
	/// Import the rig file in a child process (lbImportDef::isolate): a parser crash becomes an
	/// error. Default false; the command-line tool and the viewer set it.
	bool isolateImport;
} lbScenario;

/// Drawing layers of the debug view.
typedef enum lbDebugLayer
{
	/// Casts and probes against the world.
	lb_layerCasts = 0,
	/// Surface normals found.
	lb_layerNormals,
	/// IK targets.
	lb_layerTargets,
	/// Knee and elbow pole directions.
	lb_layerPoles,
	/// Reach spheres of the limbs.
	lb_layerReach,
	/// Contacts with the world.
	lb_layerContacts,
	/// Number of layers (not a layer).
	lb_layerCount
} lbDebugLayer;

/// Debug primitive shapes.
typedef enum lbDebugShape
{
	/// Line from a to b.
	lb_debugLine = 0,
	/// Point at a.
	lb_debugPoint,
	/// Sphere of the item's radius at a.
	lb_debugSphere,
	/// Arrow from a to b.
	lb_debugArrow,
} lbDebugShape;

/// One debug primitive (world space).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbDebugItem
{
	/// Layer it is drawn on (each can be shown or hidden).
	lbDebugLayer layer;
	/// What to draw.
	lbDebugShape shape;
	///@{
	/// Line/arrow from a to b; point/sphere at a.
	lbVec3 a, b;
	///@}
	/// Sphere or point radius (m).
	float radius;
	/// Drawn highlighted (a locked contact, a hit).
	bool highlight;
} lbDebugItem;

/// An IK target a user may drag (world, m).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbDragTarget
{
	/// Name of the target, for display.
	char name[LB_SCENARIO_NAME];
	/// Its current position (world, m).
	lbVec3 positionWs;
} lbDragTarget;

/// The run (opaque).
/// Thread-safety: one thread at a time.
typedef struct lbRun lbRun;

/// Where a run's world shapes come from, for renderers: boxes and triangles in world space.
/// Thread-safety: one thread at a time.
typedef struct lbRunWorldView
{
	///@{
	/// Backdrop for drawing: an endless plane through `groundPointWs` with normal up, just below the
	/// ground the character starts on (not part of the world's collision).
	bool groundPlane;
	lbVec3 groundPointWs;
	///@}
	///@{
	/// Triangle soup of every world shape (world, m): 3 vertices per triangle, may be NULL; and the
	/// triangle count.
	const lbVec3* triangles;
	int triangleCount;
	///@}
} lbRunWorldView;

/// Read-only view of a run's current frame.
/// Thread-safety: one thread at a time.
typedef struct lbRunView
{
	/// The scenario the run plays.
	const lbScenario* scenario;
	/// The character's skeleton.
	const lbSkeleton* skeleton;
	/// The character's humanoid map.
	const lbHumanoid* humanoid;
	/// Current pose (model space).
	const lbPose* pose;
	/// Model-to-world transform of the character.
	lbTransform characterWs;
	/// World up (unit), the scenario's.
	lbVec3 upWs;
	/// The character's velocity this frame (world, m/s), vertical speed included.
	lbVec3 velocityWs;
	/// The character's state.
	lbCharacterState state;
	///@{
	/// Frames done so far and the time reached (s).
	int frame;
	float time;
	///@}
	///@{
	/// Contacts the system reports this frame and their count.
	const lbContact* contacts;
	int contactCount;
	///@}
	///@{
	/// Debug primitives the system drew this frame (world) and their count.
	const lbDebugItem* debug;
	int debugCount;
	///@}
	///@{
	/// Skinned meshes of an imported rig (model space at bind time) and the inverse bind
	/// transform per bone; meshCount 0 for the built-in rigs.
	int meshCount;
	const struct lbSkinnedMesh* meshes;
	const lbTransform* inverseBind;
	///@}
	///@{
	/// Last frame's metrics and the running summary.
	lbFrameMetrics metrics;
	lbMetricsSummary summary;
	///@}
} lbRunView;

LB_EXTERN_C_BEGIN

/// Parses a scenario from JSON text. `fileName` is used in messages and to resolve relative
/// paths (may be NULL). On error returns NULL, writes a one-line message "file: key.path: what was
/// expected" to outMessage (capacity bytes, may be NULL) and reports it through the log hook
/// with lb_errorParse (syntax, unknown key, wrong type, bad value) or lb_errorUnsupported (a
/// system, motion, rig or builder this build does not have).
LB_API lbScenario* lbParseScenario(const char* json, const char* fileName, char* outMessage, int capacity);

/// Loads and parses a scenario file (see lbParseScenario); lb_errorFileNotFound when unreadable.
LB_API lbScenario* lbLoadScenario(const char* path, char* outMessage, int capacity);

/// Frees a scenario (NULL allowed).
LB_API void lbDestroyScenario(lbScenario* scenario);

/// Systems this build can run: count, name and a one-line summary ("none" is always index 0).
LB_API int lbScenarioSystemCount(void);
/// Name of system `index` (0..lbScenarioSystemCount() - 1), or NULL outside that range.
LB_API const char* lbScenarioSystemName(int index);
/// One-line summary of system `index`, or NULL outside 0..lbScenarioSystemCount() - 1.
LB_API const char* lbScenarioSystemSummary(int index);

/// Base motions this build can play: count and name ("rest" is always index 0).
LB_API int lbScenarioMotionCount(void);
/// Name of base motion `index` (0..lbScenarioMotionCount() - 1), or NULL outside that range.
LB_API const char* lbScenarioMotionName(int index);

/// World shape builders scenarios may use: count and name.
LB_API int lbScenarioBuilderCount(void);
/// Name of builder `index` (0..lbScenarioBuilderCount() - 1), or NULL outside that range.
LB_API const char* lbScenarioBuilderName(int index);

/// Readable name of an input kind ("velocity", "select_limb"...) or of a state ("falling"...).
LB_API const char* lbInputKindName(lbInputKind kind);
/// Readable name of a character state ("grounded", "falling"...), "unknown" out of range.
LB_API const char* lbCharacterStateName(lbCharacterState state);

/// Builds the world, rig, motion and system a scenario names. The scenario must outlive the run.
/// Returns NULL on failure with the reason in *outResult (may be NULL) and through the log hook.
LB_API lbRun* lbCreateRun(const lbScenario* scenario, lbResult* outResult);

/// Frees a run (NULL allowed).
LB_API void lbDestroyRun(lbRun* run);

/// Advances one fixed step: applies due timeline inputs, moves the character, samples the base
/// motion, runs the system's sense and pose stages, measures the frame. After the scenario's
/// last frame further steps keep running (for the viewer) but are not recorded in the report.
LB_API lbResult lbRun_Step(lbRun* run);

/// Advances by `dt` seconds instead of the scenario's step (viewer slow motion). Not recorded.
LB_API lbResult lbRun_StepBy(lbRun* run, float dt);

/// True once the scenario's frame count is reached.
LB_API bool lbRun_IsDone(const lbRun* run);

/// Applies an input now (viewer controls), exactly as a timeline entry would.
LB_API lbResult lbRun_ApplyInput(lbRun* run, const lbScenarioEvent* input);

/// Tells the systems where the viewer's camera is (world, m), for their distance LOD. Runs
/// without a camera (the default; `limber run`) never fade out by distance.
LB_API lbResult lbRun_SetCameraPosition(lbRun* run, lbVec3 cameraWs);

/// The current frame.
LB_API lbRunView lbRun_GetView(const lbRun* run);

/// World geometry for drawing (pointers valid for the run's lifetime).
LB_API lbRunWorldView lbRun_GetWorldView(const lbRun* run);

/// The active system's named values of the current frame (state, alphas...): writes up to
/// `capacity` names and values, returns how many there are.
LB_API int lbRun_GetSystemValues(const lbRun* run, const char** outNames, float* outValues, int capacity);

/// IK targets of the active system that a user may drag; returns how many (<= capacity).
LB_API int lbRun_GetDragTargets(const lbRun* run, lbDragTarget* outTargets, int capacity);

/// Moves drag target `index` to a world position.
LB_API lbResult lbRun_SetDragTarget(lbRun* run, int index, lbVec3 positionWs);

/// The report as JSON text (caller frees with lbFreeText). With `withTiming` the `timing`
/// object (solve_us_median...) is included; without, the text depends only on the scenario.
LB_API char* lbRun_ReportJson(const lbRun* run, bool withTiming);

/// Writes the report to a file (see lbRun_ReportJson).
LB_API lbResult lbRun_WriteReport(const lbRun* run, const char* path, bool withTiming);

/// Writes the pose stream's first line: format version, up, rig, bone names and parents.
LB_API lbResult lbRun_WritePoseHeader(const lbRun* run, FILE* file);

/// Writes the current frame as one JSON line: frame, time, character transform, every bone's
/// model transform, the system's targets and contacts (format in docs/scenarios.md).
LB_API lbResult lbRun_WritePoseLine(const lbRun* run, FILE* file);

/// Frees text returned by this module.
LB_API void lbFreeText(char* text);

LB_EXTERN_C_END

/// @}
