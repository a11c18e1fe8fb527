// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Plug-in tables of the scenario runner. A system, a base motion or a world builder joins the
// runner by adding one entry to its table (scenario_systems.c, scenario_motion.c,
// scenario_world.c); nothing else in the runner names them.
#pragma once

#include "limber/foot.h"
#include "limber/scenario.h"

#include <cjson/cJSON.h>

#define LB_RUN_MAX_CONTACTS 32
#define LB_RUN_MAX_DEBUG 512
#define LB_RUN_MAX_VALUES 24

/// Path-aware error sink used while validating JSON.
typedef struct lbJsonCheck
{
	const char* file;
	char* message;
	int capacity;
	lbResult code;
} lbJsonCheck;

/// Reports "file: path: text" once (the first error wins) and returns false.
bool lbJsonFail(lbJsonCheck* check, lbResult code, const char* path, const char* format, ...)
#if defined(__GNUC__) || defined(__clang__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/// Checks that every key of object `obj` is in the NULL-terminated list `allowed`.
bool lbJsonKeysAllowed(lbJsonCheck* check, const cJSON* obj, const char* path, const char* const* allowed);

/// Reads an optional number at obj[key] into *out (unchanged when absent) within [lo, hi].
bool lbJsonNumber(lbJsonCheck* check, const cJSON* obj, const char* path, const char* key, double lo, double hi,
				  double* out);

/// Reads an optional 3-vector ([x, y, z] of finite numbers) at obj[key].
bool lbJsonVec3(lbJsonCheck* check, const cJSON* obj, const char* path, const char* key, lbVec3* out);

/// Reads an optional boolean at obj[key].
bool lbJsonBool(lbJsonCheck* check, const cJSON* obj, const char* path, const char* key, bool* out);

/// A number key of a system's config: its name, the offset of the float it sets in the system's
/// def, the range a file may give, whether the file gives degrees (stored as radians), and whether
/// it sets a uint32_t instead (channel masks, owner ids).
typedef struct lbConfigNumberKey
{
	const char* name;
	size_t offset;
	double lo, hi;
	bool degrees;
	bool bits;
} lbConfigNumberKey;

/// Checks every key of `keys` present in `config` ("system.config") against its range and, when
/// `def` is given, stores it into the float (or uint32_t) at the key's offset in *def. False (with the message
/// in `check`) on the first bad value.
bool lbJsonReadNumberKeys(lbJsonCheck* check, const cJSON* config, const lbConfigNumberKey* keys, int count, void* def);

/// Height (m, along the model up) of the lower rest sole: where a procedural motion's floor lies
/// in model space (0 for a rig whose rest pose stands on the model origin). The runner moves such
/// a motion's pose down by it, and so does a system that samples a motion of its own.
float lbRunRestSoleHeight(const lbSkeleton* skeleton, const lbHumanoid* h);

/// What the runner moves a procedural motion's pose back by (model, m): lbRunRestSoleHeight along
/// the model up plus the rest pelvis's place across up, so the body stands over the model origin
/// (zero across up for a rig whose rest pelvis is over it). A system that samples a motion of its
/// own moves it the same way.
lbVec3 lbRunRestOffset(const lbSkeleton* skeleton, const lbHumanoid* h);

/// A rest pose whose floor lies within this of the model origin (m) stands on it, for the systems
/// that sample or measure the rest pose themselves: the floor is estimated on a rig without a root
/// on it (3 mm under the mixamo-like rig's origin).
#define LB_RUN_REST_FLOOR_TOLERANCE 0.01f

/// Everything a system or motion sees of the run.
typedef struct lbRunContext
{
	const lbScenario* scenario;
	const lbSkeleton* skeleton;
	const lbHumanoid* humanoid;
	/// Surface probe against the run's world (for systems without a scene query of their own).
	lbSurfaceProbeFcn* probe;
	void* probeContext;
	/// The run's world (an lbWorld).
	void* world;
	/// The base pose of this frame (model space): the motion's output, before the pose stage.
	const lbPose* basePose;
	/// Clips of an imported rig (for the clip motion).
	const struct lbClip* clips;
	int clipCount;
	/// Camera position (world) when a viewer or renderer has one, for distance LOD.
	lbVec3 cameraWs;
	bool hasCamera;
	lbVec3 upWs;
	/// Character state the runner integrates from inputs.
	lbTransform characterWs;
	lbVec3 velocityWs;
	lbCharacterState state;
	float time;
	/// Set by a system's sense stage that placed the character itself in ctx->characterWs (a
	/// hand-over leaving it somewhere new, a climb carrying it): the runner moves its controller
	/// there and starts the base motion again from there (a stepping motion's planted feet would
	/// otherwise stay behind), then clears it.
	bool placed;
	/// Set (to an error, already logged) by a system's sense stage when the run cannot go on as
	/// scripted, e.g. a planned climbing move that never reached its hold: the step returns it, so
	/// the run ends with that message rather than standing still. The runner clears it each frame.
	lbResult failed;
} lbRunContext;

/// Per-frame output a system fills (cleared by the runner each frame).
typedef struct lbSystemOutput
{
	lbContact contacts[LB_RUN_MAX_CONTACTS];
	int contactCount;
	lbDebugItem debug[LB_RUN_MAX_DEBUG];
	int debugCount;
} lbSystemOutput;

/// Adds a debug primitive (world space) to a system's output; nothing once the output is full.
/// A system's values callback's copy-out: the first min(count, capacity) names and values (either
/// array may be NULL). Returns count.
int lbSystemValuesCopy(const char* const* n, const float* v, int count, const char** names, float* values, int capacity);

void lbSystemOutput_AddDebug(lbSystemOutput* out, lbDebugLayer layer, lbDebugShape shape, lbVec3 a, lbVec3 b, float radius,
							 bool highlight);

/// A system: sense (world space, owns state) then pose (model space, timed for solve_us).
typedef struct lbSystemEntry
{
	const char* name;
	const char* summary;
	/// Validates the "config" object (may be NULL when absent) without building anything.
	bool (*checkConfig)(lbJsonCheck* check, const cJSON* config);
	/// Creates the system's state; NULL with *outResult on failure.
	void* (*create)(const lbRunContext* ctx, const cJSON* config, lbResult* outResult);
	void (*destroy)(void* system);
	/// A scripted or live input.
	void (*input)(void* system, const lbRunContext* ctx, const lbScenarioEvent* input);
	/// World-space stage: traces, state, smoothing; may adjust ctx->characterWs.
	void (*sense)(void* system, lbRunContext* ctx, float dt, lbSystemOutput* out);
	/// Model-space stage on the base pose.
	void (*pose)(void* system, const lbRunContext* ctx, lbPose* pose, lbSystemOutput* out);
	/// Named values for reports and on-screen text (may be NULL).
	int (*values)(const void* system, const char** names, float* values, int capacity);
	/// Drag targets (may be NULL).
	int (*dragTargets)(const void* system, lbDragTarget* targets, int capacity);
	lbResult (*setDragTarget)(void* system, int index, lbVec3 positionWs);
} lbSystemEntry;

/// A base motion: writes the pose after advancing dt at the controller's speed and turn rate.
typedef struct lbMotionEntry
{
	const char* name;
	/// True when the motion moves the character itself (locomotion with planted feet); otherwise
	/// the runner's controller moves it.
	bool drivesRoot;
	void* (*create)(const lbRunContext* ctx, lbResult* outResult);
	void (*destroy)(void* motion);
	/// Speed (m/s) the motion plays at when the scenario gives none.
	float (*defaultSpeed)(const void* motion);
	/// Samples: speed (m/s), turn rate (rad/s, positive toward the character's left); the
	/// character transform goes in and, for root-driving motions, comes out moved.
	lbResult (*sample)(void* motion, const lbRunContext* ctx, float dt, float speed, float turnRate,
					   lbTransform* ioCharacterWs, lbPose* pose);
	/// Where the feet bear (world): a planted foot's place, a swinging foot's landing place.
	/// Returns false when the motion has no stepping feet.
	bool (*support)(const void* motion, lbVec3 outWs[2]);
} lbMotionEntry;

const lbSystemEntry* lbFindSystemEntry(const char* name);

/// Systems with adapters in their own files.
extern const lbSystemEntry lbSystemFoot;
extern const lbSystemEntry lbSystemClimb;
extern const lbSystemEntry lbSystemProne;
extern const lbSystemEntry lbSystemStory;

/// Kinds of the foot system's config keys.
typedef enum lbFootKeyKind
{
	lb_footKeyNumber = 0,
	lb_footKeyInteger,
	lb_footKeyFlag,
	lb_footKeyChoice,
} lbFootKeyKind;

/// One key of the foot system's config as the runner reads it (tests check that the keys cover
/// every field of lbFootDef).
typedef struct lbFootConfigKey
{
	const char* name;
	lbFootKeyKind kind;
	/// Offset of the field in lbFootDef (a float, uint32_t, bool or int-sized enum), or (size_t)-1 for
	/// a key of the run (solver, ik_mode).
	size_t offset;
	/// Numbers and integers: the accepted range in the file's units; numbers the file gives in degrees.
	double lo, hi;
	bool degrees;
	/// Choices: the names in enum order.
	const char* const* choices;
	int choiceCount;
} lbFootConfigKey;

/// Lists the foot system's config keys into out (up to capacity); returns how many there are.
int lbFootConfigKeys(lbFootConfigKey* out, int capacity);

/// Reads a foot system's "config" object into *def (keys it gives replace the fields; *def is left
/// unchanged on failure) exactly as the runner does; the solver and IK mode (lbFootSolver,
/// lbFootIkMode; two_bone and enabled when absent) into *outSolver and *outIkMode when given. On
/// failure returns false with the message ("foot config: system.config.<key>: ...") and code.
bool lbFootConfigRead(const cJSON* config, lbFootDef* def, int* outSolver, int* outIkMode, char* message, int capacity,
					  lbResult* outCode);
const lbMotionEntry* lbFindMotionEntry(const char* name);

/// World builders: validate the params of a shape; build the world.
bool lbIsWorldBuilder(const char* name);
bool lbCheckWorldShape(lbJsonCheck* check, const lbScenarioShape* shape, const char* path);

/// The run's world: built from the scenario's shapes, answers probes, gives triangles to draw.
typedef struct lbRunWorld lbRunWorld;
lbRunWorld* lbCreateRunWorld(const lbScenario* scenario, lbResult* outResult);
/// Estimated peak bytes of building the scenario's world shapes (lbSceneMemoryEstimate summed).
double lbRunWorldMemoryEstimate(const lbScenario* scenario);
void lbDestroyRunWorld(lbRunWorld* world);
bool lbRunWorldProbe(void* world, lbVec3 originWs, lbVec3 dirWs, float maxDistance, lbVec3* outPointWs,
					 lbVec3* outNormalWs);
lbRunWorldView lbRunWorld_GetView(const lbRunWorld* world);
void* lbRunWorld_GetQueryWorld(const lbRunWorld* world);

/// Reference forward direction (heading 0) for a world up.
lbVec3 lbWorldReferenceForward(lbVec3 upWs);
