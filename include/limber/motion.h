// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref motion group.

/// @defgroup motion Motion: clips as plain data, clip playback with root motion, procedural base motion
/// The base motion the systems (foot, prone, climb) correct. Two sources:
/// - clips: per-bone local tracks (keys with times) or uniformly sampled frames, sampled with
///   interpolation (slerp for rotations), looped or clamped, with root motion extraction so a
///   motion-capture clip moves the character across the world;
/// - procedural motion built from the humanoid map and its derived axes only (no bone axis is
///   assumed): rest, idle with weight shift, walk and run cycles driven by speed and turn rate,
///   a prone pose and a crawl cycle.
///
/// Spaces: poses are in model space (the character's own frame); `characterWs` is the world
/// transform of the model frame, moved by root motion or by the procedural locomotion.
/// @{

#include "limber/humanoid.h"
#include "limber/skeleton.h"

// ---------------------------------------------------------------------------------------------
// Clips

/// Key tracks of one bone, in local space (relative to the parent). Times are seconds,
/// strictly increasing. A component with zero keys keeps the bone's rest value.
/// Thread-safety: read-only once made; any number of threads may read it at once.
typedef struct lbClipTrack
{
	/// Bone index in the clip's skeleton.
	int bone;
	///@{
	/// Position keys (local, m).
	int positionCount;
	const float* positionTimes;
	const lbVec3* positions;
	///@}
	///@{
	/// Rotation keys (local, unit quaternions).
	int rotationCount;
	const float* rotationTimes;
	const lbQuat* rotations;
	///@}
	///@{
	/// Scale keys (local, per axis).
	int scaleCount;
	const float* scaleTimes;
	const lbVec3* scales;
	///@}
} lbClipTrack;

/// An animation clip as plain data on caller (or importer) memory. Either `tracks` (keyed) or
/// `frames` (uniform) is used; when both are set, tracks win. Bones without data keep their rest
/// local transform.
/// Thread-safety: read-only once made; any number of threads may read it at once.
typedef struct lbClip
{
	/// Optional name (may be NULL).
	const char* name;
	/// Length in seconds (> 0 unless the clip has a single frame).
	float duration;
	/// Bone count of the skeleton the clip was made for.
	int boneCount;
	///@{
	/// Keyed form: `trackCount` tracks.
	int trackCount;
	const lbClipTrack* tracks;
	///@}
	/// Uniform form: `frameCount` frames of `boneCount` local transforms each (frame-major),
	/// frame k at time k / frameRate.
	int frameCount;
	/// Frames per second of the uniform form.
	float frameRate;
	/// Uniform form: frameCount * boneCount local transforms (frame-major); NULL for a keyed clip.
	const lbTransform* frames;
} lbClip;

/// How sampling treats times outside [0, duration].
typedef enum lbClipWrap
{
	/// Hold the first / last value.
	lb_clipClamp = 0,
	/// Repeat with period `duration`.
	lb_clipLoop = 1,
} lbClipWrap;

LB_EXTERN_C_BEGIN

/// Checks a clip against a skeleton: bone count, track bone indices, key counts, increasing
/// times, finite values. Returns lb_ok or the first problem: lb_errorNullPointer,
/// lb_errorSkeletonMismatch (bone count), lb_errorBoneNotFound (track bone out of range),
/// lb_errorInvalidArgument (counts, duration, frame rate, times), lb_errorNonFinite (NaN/inf values).
LB_API lbResult lbValidateClip(const lbClip* clip, const lbSkeleton* skeleton);

/// Samples the clip at `time` (s) into `outPose` (local and model): linear interpolation for
/// positions and scales, slerp for rotations. Returns an error and leaves the pose unchanged for
/// a clip that does not match the skeleton or a non-finite time.
LB_API lbResult lbSampleClip(const lbClip* clip, const lbSkeleton* skeleton, float time, lbClipWrap wrap,
							 lbPose* outPose);

/// Root frame of a model-space pose: the pelvis projected onto the ground plane through the model
/// origin (normal `humanoid->upMs`) and the heading of the pelvis' forward about up. The result
/// rotates only about upMs; at rest it is identity rotation. Model space.
LB_API lbTransform lbComputeRootFrame(const lbPose* pose, const lbHumanoid* humanoid);

/// Blends two poses of one skeleton bone by bone in local space (positions and scales linearly,
/// rotations by slerp): alpha 0 gives a, 1 gives b (clamped), then recomputes model transforms.
/// For cross-fading between base motions. outPose may be a or b. Returns lb_errorNullPointer,
/// lb_errorSkeletonMismatch or lb_errorNonFinite (alpha), leaving outPose unchanged.
LB_API lbResult lbBlendPoses(const lbPose* a, const lbPose* b, float alpha, const lbSkeleton* skeleton, lbPose* outPose);

/// Signed angle (rad) about `up` from direction `from` to direction `to`, both projected onto the
/// plane normal to up; 0 when either projection is degenerate.
LB_API float lbHeadingAngle(lbVec3 from, lbVec3 to, lbVec3 up);

/// World transform of a character's model frame standing at `positionWs` and facing `headingWs`,
/// for a rig whose up and forward (humanoid->upMs, humanoid->forwardMs, measured from its rest
/// pose) need not be the world's: the rig's up goes onto `upWs` and its forward onto the heading
/// (projected onto the ground plane). A Y-up rig in a Z-up world, or the reverse, needs no hand-made
/// rotation. A heading along up (or zero) keeps the rig's forward turned minimally onto the plane.
/// Returns identity rotation at the position when upWs is zero or a value is non-finite. Thread-safe.
LB_API lbTransform lbCharacterTransform(const lbHumanoid* humanoid, lbVec3 positionWs, lbVec3 headingWs, lbVec3 upWs);

LB_EXTERN_C_END

// ---------------------------------------------------------------------------------------------
// Procedural base motion

/// The base motions limber can play.
typedef enum lbBaseMotion
{
	/// The rest pose, unmoving.
	lb_motionRest = 0,
	/// Standing with a slight sway and breathing, feet planted.
	lb_motionIdle,
	/// Walking gait.
	lb_motionWalk,
	/// Running gait.
	lb_motionRun,
	/// Lying face down on the ground, forearms on the ground, head lifted.
	lb_motionProne,
	/// The lying pose crawling forward, arms and legs in a contralateral cycle.
	lb_motionCrawl,
	/// A keyed or sampled clip (lbClip), e.g. one from a rig file.
	lb_motionClip,
	/// Number of base motions (not a motion).
	lb_motionCount
} lbBaseMotion;

/// Parameters of lbMotion_Sample. Fill with lbDefaultMotionDef().
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbMotionDef
{
	/// Which motion. Default lb_motionIdle.
	lbBaseMotion motion;
	/// Target forward speed (m/s) of walk, run and crawl; negative is clamped to 0. Default 0
	/// (lbDefaultMotionDef gives 1.4 for walk, 3.5 for run, 0.25 for crawl).
	float speed;
	/// Turn rate about the character's up (rad/s, positive turns toward the character's left). Default 0.
	float turnRate;
	/// How fast the actual speed follows the target (1/s, exponential). Default 4.
	float acceleration;
	/// Arm swing scale (1 = natural). Default 1.
	float armSwing;
	/// Pelvis bob and sway scale (1 = natural). Default 1.
	float bodyMotion;
	/// Idle weight-shift amplitude (m, lateral pelvis travel). Default 0.025.
	float idleSway;
	/// Idle weight-shift period (s). Default 4.
	float idlePeriod;
	/// Foot lift during swing as a fraction of leg length; negative = automatic (walk 0.12, run 0.25). Default -1.
	float footLift;
	/// Clip to play for lb_motionClip (not retained between calls beyond its pointer). Default NULL.
	const lbClip* clip;
	/// Loop the clip. Default true.
	bool loop;
	/// Clip playback rate (1 = real time). Default 1.
	float playRate;
	/// Move characterWs by the clip's root motion (pose played in place). Default true.
	bool rootMotion;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbMotionDef;

/// Deprecated name of lbMotionDef (before 0.3); will be removed in 0.4.
typedef lbMotionDef lbMotionParams;
/// Deprecated name of lbDefaultMotionDef (before 0.3); will be removed in 0.4.
#define lbDefaultMotionParams lbDefaultMotionDef

/// Contact state of one foot, for foot locking by the foot system.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbFootPhase
{
	/// True while the foot is on the ground (stance); false in swing.
	bool planted;
	/// Progress through the current stance or swing, [0, 1).
	float phase;
	/// Seconds until the foot lifts (planted) or touches down (swing); estimate at current speed.
	float timeToSwitch;
	/// Heel-to-toe roll of the foot about the character's lateral axis (rad): negative = toes up
	/// (heel strike), positive = heel up (toe-off). 0 = flat.
	float roll;
	/// Flat-foot ankle target in world space: where the planted foot is locked, or where the
	/// swinging foot will land (m).
	lbVec3 targetWs;
	/// Flat-foot rotation of the foot bone in world space for targetWs.
	lbQuat targetRotWs;
	/// Same target in model space at the time of sampling (m).
	lbVec3 targetMs;
	/// Ground contact point in world space: heel, sole or ball depending on the roll (m).
	lbVec3 contactWs;
} lbFootPhase;

/// State of a character's base motion: small, contiguous, caller-owned. Initialise with
/// lbMotionState_Init; then call lbMotion_Sample every frame.
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbMotionState
{
	/// Motion played at the last sample.
	lbBaseMotion motion;
	/// Seconds since the motion started.
	float time;
	/// Gait cycle phase [0, 1): 0 = left heel strike (walk/run), left hand reach (crawl).
	float cyclePhase;
	///@{
	/// Current forward speed (m/s) and turn rate (rad/s).
	float speed, turnRate;
	///@}
	///@{
	/// Current stride (two steps) length (m) and cycle frequency (Hz).
	float strideLength, cycleRate;
	///@}
	/// Fraction of the cycle each foot is on the ground.
	float dutyFactor;
	/// World transform of the model frame (moved by locomotion and root motion).
	lbTransform characterWs;
	/// Velocity of the model frame over the last sample (world, m/s): how far characterWs moved,
	/// divided by dt. Zero after lbMotionState_Init. This is what lbFootSenseInput.velocityWs wants
	/// when the base motion moves the character.
	lbVec3 velocityWs;
	/// Per foot (lbSide): contact state and targets.
	lbFootPhase feet[2];
	///@{
	/// Internal: per limb (left foot, right foot, left hand, right hand), the swing start (model
	/// space) and the planted flat transform of the end bone (world).
	lbTransform swingStartMs[4];
	lbTransform plantWs[4];
	///@}
	/// Internal: per limb, planted at the last sample.
	bool limbPlanted[4];
	///@{
	/// Internal: clip playback time (s) and the previous root frame (model space).
	float clipTime;
	lbTransform clipRootPrev;
	///@}
	/// Internal: the clip played at the last sample (compared, never dereferenced).
	const void* clipSeen;
	/// Internal: nonzero once initialised.
	int initialized;
} lbMotionState;

LB_EXTERN_C_BEGIN

/// Default parameters for a motion (speed: walk 1.4, run 3.5, crawl 0.25 m/s, else 0).
LB_API lbMotionDef lbDefaultMotionDef(lbBaseMotion motion);

/// Stable name of a motion ("rest", "idle", "walk", "run", "prone", "crawl", "clip"); NULL when bad.
LB_API const char* lbBaseMotionName(lbBaseMotion motion);

/// Motion by name, or lb_motionCount when unknown.
LB_API lbBaseMotion lbFindBaseMotion(const char* name);

/// Resets a state: no time elapsed, both feet planted at the rest stance, character at
/// `characterWs` (world transform of the model frame; must be finite with non-zero scale).
LB_API lbResult lbMotionState_Init(lbMotionState* state, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
								   lbTransform characterWs);

/// Advances the base motion by dt (s, in (0, 1]) and writes the pose (local and model) for the
/// new time into outPose. Moves state->characterWs (world) and updates state->feet. Changing
/// params->motion restarts the motion's cycle from the current character transform. Errors
/// (NULL, bad def cookie, bad dt, NaN params, mismatched pose, missing clip) leave state and pose
/// unchanged. Allocates nothing.
LB_API lbResult lbMotion_Sample(lbMotionState* state, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
								const lbMotionDef* params, float dt, lbPose* outPose);

/// Stride length (two steps, m) and cycle frequency (Hz) of the walk/run cycle at a speed (m/s)
/// for a leg of length legLength (m): stride from Alexander's relative stride law
/// lambda = 2.3 (v^2 / g L)^0.3, with a minimum cadence so the character steps in place at low speed.
LB_API void lbGaitStride(float speed, float legLength, bool run, float* outStrideLength, float* outCycleRate);

/// Fastest speed (m/s) whose lbGaitStride stride (two steps, m) is at most strideLength, for a
/// leg of length legLength (m): what a controller slows to when the ground asks for short steps
/// (a steep flight, where a step of two treads drops further than the legs reach). 0 for a
/// stride of 0 or less or not a number.
LB_API float lbGaitSpeedForStride(float strideLength, float legLength, bool run);

LB_EXTERN_C_END

/// @}
