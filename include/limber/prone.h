// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref prone group.

/// @defgroup prone Prone and lying bodies fitted to the ground
/// Fits a body lying on the ground (face down, on its back or on its side; still or crawling) to
/// slopes, steps, rocks, edges and roof ridges. Two stages joined by a plain struct:
/// - sense (world space, per-character lbProneState): a sphere cast down under the body's centre,
///   casts left and right of it (roll), ahead near the arms' support (upper-body pitch) and behind
///   near the feet (lower-body pitch), the pointed-roof lift of the lower body with the hover it
///   leaves, per-segment probes under chest, spine, pelvis, knees, ankles, toes, elbows and hands
///   (and thighs and forearms where an edge may lie between their joints),
///   smoothing, the fit's alpha, and contacts held by planted hands and feet; writes lbProneTargets.
/// - pose (model space, stateless): the roll on the root bone (the pelvis when the rig has no
///   separate root), the upper-body pitch on the first spine bone, the lower-body pitch on both
///   thighs, the body lowered or raised so the torso rests on the ground, then each limb: a planted
///   one held on its contact by two-bone IK (a foot's contact keeps its toes out of the ground too),
///   a free one lifted at the hip or shoulder out of the ground.
/// All lengths in meters, angles in radians, exponential smoothing speeds in 1/s. No bone axis is
/// assumed: every axis comes from lbHumanoid or from the pose itself.
/// @{

#include "limber/humanoid.h"
#include "limber/query.h"
#include "limber/skeleton.h"

/// How the animated body lies (found from the pose each frame; the fit works the same for all).
typedef enum lbPronePosture
{
	/// The torso is not lying (it stands more than about 45 degrees from the ground plane).
	lb_proneNotLying = 0,
	/// Lying face down.
	lb_proneFaceDown,
	/// Lying on the back.
	lb_proneFaceUp,
	/// Lying on a side.
	lb_proneOnSide,
} lbPronePosture;

/// Segment probes: points of the body whose ground is probed each frame.
typedef enum lbProneProbe
{
	///@{
	/// Torso: the pelvis joint, the middle of the pelvis-to-neck axis, the top of the spine (neck joint).
	lb_pronePelvis = 0,
	lb_proneSpine,
	lb_proneChest,
	///@}
	///@{
	/// Per side (left, then right): knee, ankle, toe (the ball joint, or the sole's toe tip), elbow,
	/// wrist.
	lb_proneKneeL,
	lb_proneKneeR,
	lb_proneAnkleL,
	lb_proneAnkleR,
	lb_proneToeL,
	lb_proneToeR,
	lb_proneElbowL,
	lb_proneElbowR,
	lb_proneWristL,
	lb_proneWristR,
	///@}
	///@{
	/// Torso again: a quarter and three quarters of the way from the pelvis to the neck joint, so
	/// that no edge under the torso (a stair's nose) falls between probes wider apart than its radius.
	lb_proneTorsoLow,
	lb_proneTorsoHigh,
	///@}
	///@{
	/// Per side (left, then right): the middle of the thigh (hip to knee) and of the forearm (elbow
	/// to wrist), so that an edge under a limb between its joints (a stair's nose under a forearm, a
	/// roof's ridge under a thigh) is found as the torso's are. Cast only while the ground at the
	/// segment's two ends (pelvis and knee, elbow and wrist) leaves room for an edge between them
	/// (one end's plane, carried to the other end, more than 1.5 cm above that end's own); otherwise
	/// their ground reads as not found.
	lb_proneThighL,
	lb_proneThighR,
	lb_proneForearmL,
	lb_proneForearmR,
	///@}
	/// Number of probes (not a probe).
	lb_proneProbeCount
} lbProneProbe;

/// Limbs that may hold a contact: 0 left hand, 1 right hand, 2 left foot, 3 right foot.
#define LB_PRONE_LIMBS 4

/// Most bones the prone system reads and writes by their roles: root, pelvis, neck, the spine, and
/// each arm's and leg's three bones.
#define LB_PRONE_RIG_BONES (3 + LB_MAX_SPINE + 12)

/// What the pose stage needs of a rig (skeleton and humanoid map) that stays the same from frame to
/// frame: worked out by the sense stage when the rig changes (kept in lbProneState::rig) and handed to
/// the pose stage in lbProneTargets::rig, so that the stateless pose call does not work it out again
/// every frame. The pose stage uses it only for the rig it was made for (the skeleton's bone count
/// and fingerprint, and the map's bones listed in `rigBones`, the same) and each sole only while the
/// leg measures it was made from stay; otherwise it works out what it needs itself. Its other fields
/// are taken as the sense stage wrote them (not checked again): leave them as they come.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbProneRigPlan
{
	///@{
	/// The skeleton it was made for (lbSkeleton::fingerprint and bone count); boneCount 0 until made.
	uint64_t fingerprint;
	int boneCount;
	///@}
	///@{
	/// The map's bones the system reads and writes, as it was made from (root, pelvis, neck, the
	/// mapped spine, each arm's and leg's three bones).
	int rigBones[LB_PRONE_RIG_BONES];
	int rigBoneCount;
	///@}
	///@{
	/// The bone the roll turns, the top of the torso line, and the spine bone the torso bends at
	/// (LB_NULL_INDEX without one).
	int rollBone, topBone, bendBone;
	///@}
	/// The body's turns (roll, pitches, bend) go into the pose in one pass over the roll bone's subtree:
	/// each turned bone lies under the roll bone with no other turned bone between.
	bool onePass;
	/// The bones of that subtree that no fit reads may be composed once when the fit is done: no
	/// limb root's subtree holds a bone the fit reads but its own mid and end joints.
	bool deferSafe;
	///@{
	/// Each limb's joints from its root bone down to its end (root first; LB_PRONE_LIMBS order) and
	/// how many; 0 when the end does not lie under the root or the chain has more than eight bones.
	int chain[LB_PRONE_LIMBS][8];
	int chainCount[LB_PRONE_LIMBS];
	///@}
	/// One past the last bone of the roll bone's subtree.
	int subtreeEnd;
	///@{
	/// One bit a bone (bone i: word i / 32, bit i % 32) below the roll bone in its subtree: on a path
	/// to a bone the fit reads (readBits), or not (deferBits).
	uint32_t readBits[LB_MAX_BONES / 32];
	uint32_t deferBits[LB_MAX_BONES / 32];
	///@}
	///@{
	/// Each foot's sole (lbHumanoid_GetSole) and the leg measures it was made from (as
	/// lbProneState::soleFrom); soleMade has bit `side` set when that foot's is there.
	lbSole sole[2];
	float soleFrom[2][10];
	uint8_t soleMade;
	///@}
	/// Which of its state's plans it is (counted up from 1 each time the state's plan is made or its
	/// soles change): the sense stage copies the state's plan into targets that hold another.
	uint32_t stamp;
} lbProneRigPlan;

/// Options of the prone system. Fill with lbDefaultProneDef(); every default is listed here.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbProneDef
{
	/// World up (unit). Default +Z.
	lbVec3 up;
	/// Channels the casts see. Default LB_CHANNEL_GROUND | LB_CHANNEL_ROOF.
	uint32_t channelMask;
	/// Owner id of the character's own shapes, ignored by the casts. Default LB_NO_OWNER.
	uint32_t ignoreOwnerId;
	/// Centre, ahead and behind casts: sphere radius. Default 0.05 m.
	float traceRadius;
	/// They start this far above the point they probe. The ahead and behind casts start and reach
	/// further where ground as steep as their pitch cap (at most 60 degrees) at their distance along
	/// the body, a 0.25 m riser off that line, lies beyond: upperExtent or lowerExtent times the
	/// cap's tangent, plus 0.25 m (1.0 m behind with the default caps). Default 0.6 m.
	float traceUp;
	/// ... and reach this far below it (the ahead and behind casts as for traceUp). Default 0.6 m.
	float traceDown;
	/// Side casts: distance left and right of the centre contact. Default 0.15 m (a wider base than
	/// 0.05 m: it reads the ground's roll under the whole chest, not a pebble).
	float sideOffset;
	/// Side casts: start and end this far above and below the centre contact.
	/// Default 0.25 m.
	float sideExtent;
	/// Side casts: sphere radius. Default 0.03 m.
	float sideRadius;
	/// Ahead cast: distance along the body from the centre, near the arms' support. Default 0.55 m.
	float upperExtent;
	/// Behind cast: distance along the body from the centre, near the feet. Default 0.75 m.
	float lowerExtent;
	/// Largest roll given to the root. Default 35 degrees.
	float maxRoll;
	/// Largest pitch given to the first spine bone. Default 45 degrees (past the steepest flight a
	/// body lies along, 0.24 m risers on 0.25 m treads, 43.8 degrees; the caps are against pops,
	/// not against real ground).
	float maxUpperPitch;
	/// Largest pitch given to each thigh. Default 45 degrees.
	float maxLowerPitch;
	/// Pointed-roof lift: when the behind (or ahead) contact lies below the centre contact's plane and
	/// the two planes' normals diverge by more than `roofAngle`, the contact is lifted along up onto
	/// the centre plane: that end of the body stays in line with the centre instead of bending over the
	/// ridge, and hovers. Default true.
	bool roofLift;
	/// Smallest divergence of the normals for the roof lift. Default 5 degrees.
	float roofAngle;
	/// Lower-body hover above which lbProneTargets::tooHigh is set, so a game can switch to crouching.
	/// Default 0.25 m.
	float hoverLimit;
	/// Smoothing speed of roll and pitches. Default 12 /s.
	float rotationSpeed;
	/// Smoothing speed of the probes' ground heights. Default 15 /s.
	float heightSpeed;
	/// Translation fit: the body is lowered or raised along up so that the torso rests on the ground.
	/// Default true.
	bool fitTranslation;
	/// Gap kept between the torso (and each limb segment) and the ground. Default 0.005 m.
	float clearance;
	/// Largest translation of the body along up. Default 0.35 m.
	float maxShift;
	/// Torso radius: the flesh around the pelvis-to-neck line. Negative = 0.055 x the rig's height
	/// (the torso capsule of docs/metrics.md; 0.099 m for a 1.8 m body). Default -1.
	float torsoRadius;
	/// Segment probes start this far above their point and reach as far below it. Default 0.3 m.
	float probeReach;
	/// Segment probes as sphere casts (they then see a step's edge or a crest beside the point) instead
	/// of rays straight down (the ground's plane under the point, which misses an edge beside it: a
	/// knee by the crest of a slope down sinks into it). Either way the segment's point rests on the
	/// plane of the contact one segment radius out along its normal. Default true.
	bool sphereProbes;
	/// Largest radius a segment probe's sphere is cast with: the torso's 0.1 m sphere costs about three
	/// times a 0.05 m one and finds the same plane on ground whose features are wider than 0.05 m.
	/// Default 0.05 m.
	float probeCastRadius;
	/// Limb fit: a limb not held whose knee or elbow, ankle, toes or wrist would sink is lifted out at
	/// the hip or shoulder; radii are the rig's limb capsules of docs/metrics.md.
	/// Default true.
	bool fitLimbs;
	/// Planted hands and feet hold their contacts (like locked feet): a limb whose animated end moves
	/// slower than `lockSpeed` is held at its ground contact until the animation carries it
	/// `lockReleaseDistance` away. Default true.
	bool limbLock;
	/// Default 0.15 m/s.
	float lockSpeed;
	/// Default 0.15 m.
	float lockReleaseDistance;
	/// Speed at which a lock blends in and out. Default 10 /s.
	float lockBlendSpeed;
	/// Speed at which the fit's alpha follows lbProneSenseInput::active (a constant rate). Default 1.5 /s:
	/// the fit leaves over about 0.7 s as a get-up starts, while the body still lies; faster, the
	/// animation's knees and hands sink into the ground before the body has risen off it.
	float alphaSpeed;
	/// The fit fades in as the animated torso comes down: full when its axis lies within `lieAngle`
	/// of the ground plane, none beyond twice that. Default 25 degrees.
	float lieAngle;
	/// A character moving more than this in one frame has teleported: state resets. Default 1 m.
	float teleportDistance;
	/// Casts per second; 0 casts every frame. Between casts the ground last found by each cast and
	/// probe (its contact plane) is re-evaluated where the cast would go this frame, and smoothing,
	/// locks and the fit run every frame. A lying or crawling body moves little between casts.
	/// Default 8 Hz (every seventh or eighth frame at 60 Hz).
	float traceRate;
	/// A cast whose start has moved less than this since it was last made is not made again on a
	/// trace frame: the ground it found is re-evaluated instead (a body lying still casts nothing after
	/// its first frame; a crawl's planted hands and feet cast nothing while they stay). After a hit the
	/// move across up counts (along the cast's own line the re-evaluation is exact), after a miss any
	/// move. A cast that found the plane its last cast predicted there (within 1 mm and 5 degrees)
	/// is trusted twice as far. The ground is taken as still: set 0 where it moves. Default 0.04 m,
	/// under the probes' sphere radii (3.4-5 cm): a sphere moved less than its radius still rests on
	/// the ground it touched, whose plane the re-evaluation follows (a crawl at 0.25 m/s moves 3 cm a
	/// trace period, so each cast is made every other period, every third on even ground).
	float recastDistance;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbProneDef;

/// Ground under one probe (world): the sphere centre where the cast touched and the contact normal.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbProneGround
{
	/// Sphere centre at the contact, smoothed along up (world, m); the segment's point must stay on
	/// the normal's side of the plane through it.
	lbVec3 pointWs;
	/// Contact normal (world, unit, facing up).
	lbVec3 normalWs;
	/// Radius the probe was cast with (m).
	float radius;
	/// The cast hit ground; when false, pointWs is where the cast started and normalWs is up.
	bool hit;
} lbProneGround;

/// Per-limb state of the sense stage (world space).
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbProneLimbState
{
	///@{
	/// The contact is held; its blend in [0, 1]; the held end joint (wrist or ankle, world).
	bool locked;
	float lockAlpha;
	lbVec3 lockWs;
	///@}
	/// The held ground's normal (world).
	lbVec3 lockNormalWs;
	/// Animated end joint last frame (world), for its speed.
	lbVec3 prevAnimWs;
	/// How far (world, m, across up) a held foot was moved from where it rested when it was held, its
	/// leg turned up about the hip off a step's nose its toes hung across; zero for a hand or a foot
	/// held where it rested.
	lbVec3 lockShiftWs;
} lbProneLimbState;

/// Per-character state of the prone system: small and contiguous, owned by the caller.
/// Initialise with lbProneState_Reset.
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbProneState
{
	///@{
	/// Smoothed roll, upper-body pitch, lower-body pitch (rad) and hover (m).
	float roll, upperPitch, lowerPitch, hover;
	///@}
	/// Smoothed alpha of the fit (from the input's active flag).
	float alpha;
	/// Probed ground per segment (world).
	lbProneGround ground[lb_proneProbeCount];
	/// Contact state of each limb that may hold (LB_PRONE_LIMBS order: hands L, R, feet L, R).
	lbProneLimbState limbs[LB_PRONE_LIMBS];
	///@{
	/// Ground last found by the casts (centre, left, right, ahead, behind: the contact point
	/// and normal) and by the segment probes (the sphere's centre at the contact and the normal),
	/// before smoothing: re-evaluated between casts (reduced trace rate).
	lbProneGround castGround[5];
	lbProneGround probeGround[lb_proneProbeCount];
	///@}
	/// Where each of them was cast from (world).
	lbVec3 castFromWs[5 + lb_proneProbeCount];
	/// How far each of them may move before it is cast again, in units of
	/// lbProneDef::recastDistance (0 or 1: that distance; 2 when its last cast found the plane the
	/// cast before had predicted there, see lbProneDef::recastDistance).
	uint8_t recastSpan[5 + lb_proneProbeCount];
	/// Seconds until the next cast (reduced trace rate).
	float traceTimer;
	/// Where this character's casts fall within the trace period, in [0, 1): after a frame that
	/// snaps (the first, a teleport) the next cast comes (1 - tracePhase) periods later, then one
	/// every period. Characters of a crowd given phases spread over [0, 1) cast on different frames,
	/// so each frame costs about the same. Set with lbProneState_SetTracePhase; lbProneState_Reset
	/// sets 0.
	float tracePhase;
	/// Character transform last frame (world).
	lbTransform prevCharacterWs;
	///@{
	/// Each foot's sole (lbHumanoid_GetSole), kept from frame to frame, and the humanoid's leg
	/// measures it was made from (toe, foot up, ankle height, foot length, thigh and calf lengths:
	/// a change makes it again); soleMade has bit `side` set once that foot's has been made.
	lbSole sole[2];
	float soleFrom[2][10];
	uint8_t soleMade;
	///@}
	///@{
	/// The easings of a frame (the turns' at rotationSpeed, the heights' falling and rising at
	/// heightSpeed and three times that) as last worked out, and the dt (s), rotationSpeed and
	/// heightSpeed they were worked out for: made again when one changes.
	float ease[3], easeFrom[3];
	///@}
	///@{
	/// The flight of steps last found under the body (world, m): one step's nose, the step from that
	/// nose to the next one up the flight (the tread across up plus the riser along up), and the
	/// body's ground point where the flight was last looked for (looked for again on a trace frame
	/// after it moves lbProneDef::recastDistance).
	lbVec3 flightNoseWs, flightStepWs, flightFromWs;
	/// 1 when the flight above was found, 0 when none was; flightLooked is 0 until it is looked for
	/// (both 0 again while the fit is faded out).
	uint8_t flightFound, flightLooked;
	/// The torso's pitch on the flight (rad, the turn about the body's left axis that raises the head
	/// along the body; 0 when no flight is under the body): the slope of the line through the step
	/// noses (and the treads' ends) the torso rests on under its middle, before the caps and easing.
	float flightPitch;
	///@}
	/// Nonzero once a frame has been sensed.
	int initialized;
	/// The pose stage's constants of the rig last sensed (made again when the rig changes), copied
	/// into each frame's targets.
	lbProneRigPlan rig;
} lbProneState;

/// What the game tells the sense stage each frame.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbProneSenseInput
{
	/// The world, seen through the scene-query interface. Required.
	const lbSceneQuery* query;
	/// World transform of the model frame this frame.
	lbTransform characterWs;
	/// The animated (base) pose, model space. Required.
	const lbPose* animPose;
	/// Frame time (s). <= 0 keeps the state and leaves the targets as they were (the last frame's);
	/// above 0.25 s values snap.
	float dt;
	/// Whether the body should be fitted (the character is prone or down). The alpha eases toward it.
	/// Default true.
	bool active;
} lbProneSenseInput;

/// A limb's contact, as the sense stage hands it to the pose stage.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbProneLimbTarget
{
	///@{
	/// Held end joint position (world) and the ground normal there.
	lbVec3 endWs, normalWs;
	///@}
	/// Blend of the hold in [0, 1] (0 = the animation's limb).
	float alpha;
	/// Held (the lock is on).
	bool locked;
} lbProneLimbTarget;

/// The plain struct that joins the two stages.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbProneTargets
{
	/// World transform of the model frame the targets were made for.
	lbTransform characterWs;
	/// World up.
	lbVec3 upWs;
	/// Overall alpha in [0, 1] (active, and the animated torso lying); the pose does nothing at 0.
	float alpha;
	///@{
	/// Roll about the body's axis (rad, positive lifts the body's left side), upper-body pitch and
	/// lower-body pitch (rad, positive raises the head end), capped and smoothed.
	float roll, upperPitch, lowerPitch;
	///@}
	///@{
	/// Centre contact (world) and its normal; centreHit false when the cast missed and the centre is
	/// the body's own ground point.
	lbVec3 centreWs, centreNormalWs;
	bool centreHit;
	///@}
	///@{
	/// Left and right, ahead and behind contacts (world), with their hit flags.
	lbVec3 leftWs, rightWs, upperWs, lowerWs;
	bool leftHit, rightHit, upperHit, lowerHit;
	///@}
	///@{
	/// How far the lower body hovers above the ground behind it (m, >= 0): the roof lift, where the
	/// upper body's fit wins. Also the upper end's, when the ridge lies ahead.
	float hover, upperHover;
	///@}
	/// The lower body hovers more than the def's hoverLimit: a game may switch to crouching.
	bool tooHigh;
	/// The roof lift was applied this frame.
	bool roofLift;
	/// How the animated body lies.
	lbPronePosture posture;
	/// Ground under each segment (world).
	lbProneGround ground[lb_proneProbeCount];
	/// Held contacts of hands and feet.
	lbProneLimbTarget limbs[LB_PRONE_LIMBS];
	/// Casts made this frame (0 between casts at a reduced trace rate).
	int castCount;
	/// How far (m, along up, >= 0) the eased ground under the torso still lies above the ground the
	/// probes found: the body is being lowered onto it (it came down from standing, or ground was found
	/// again under it). 0 once it rests.
	float settle;
	///@{
	/// The flight of steps under the body, when the pitches came from one (lbProneState::flightFound
	/// and the contacts on its steps): one step's nose and the step to the next nose up (world, m).
	/// The pose stage keeps the torso clear of every nose under it. onFlight false otherwise.
	lbVec3 flightNoseWs, flightStepWs;
	bool onFlight;
	///@}
	/// The rig's constants (lbProneState::rig) for the pose stage; one not made for the rig the pose
	/// is given (boneCount 0: zeroed targets) is not used, the pose stage then working them out itself.
	lbProneRigPlan rig;
} lbProneTargets;

/// What the pose stage reports.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbProneResult
{
	/// Translation given to the body along up (m, model length; negative lowers it).
	float shift;
	/// The translation reached maxShift: the torso could not be brought onto the ground.
	bool shiftClamped;
	/// Torso gap to the ground after the fit (m): the smallest over the torso probes that hit (the
	/// def's clearance when resting); -1 when no torso probe found ground.
	float torsoGap;
	/// Largest lift or bend applied to a limb (rad).
	float limbLift;
} lbProneResult;

LB_EXTERN_C_BEGIN

/// Default prone def (each field's comment gives its value).
LB_API lbProneDef lbDefaultProneDef(void);

/// Default sense input (everything zero/NULL, identity transform, active).
LB_API lbProneSenseInput lbDefaultProneSenseInput(void);

/// Resets a state: no rotations, no locks, alpha 0 (the fit fades in), trace phase 0.
LB_API void lbProneState_Reset(lbProneState* state);

/// Sets where this character's casts fall within the trace period (lbProneState::tracePhase);
/// `phase` is wrapped into [0, 1). Returns lb_errorNullPointer or lb_errorNonFinite on bad input.
LB_API lbResult lbProneState_SetTracePhase(lbProneState* state, float phase);

/// Sense stage. Reads the animated pose and the world; updates `state`; writes `outTargets`.
/// Returns lb_ok, or lb_errorNullPointer / lb_errorDefNotInitialized / lb_errorInvalidArgument (a
/// def value out of range) / lb_errorNonFinite (a non-finite transform, or a pose non-finite where the
/// stage reads it: the model transforms of the mapped root, pelvis, neck, spine, arm and leg bones)
/// with the state and the targets unchanged.
LB_API lbResult lbProneSense(lbProneState* state, const lbProneDef* def, const lbSkeleton* skeleton,
							 const lbHumanoid* humanoid, const lbProneSenseInput* input, lbProneTargets* outTargets);

/// Pose stage (model space, stateless): applies the roll, the pitches, the translation fit and the
/// limb fit to `pose`, which holds the animated pose on entry and the result on exit. Needs no
/// workspace and allocates nothing. `outResult` may be NULL. Returns an error and leaves the pose
/// unchanged on bad input (NULL, missing cookie, a pose of another skeleton, non-finite targets, a pose
/// non-finite where the fit reads or writes it: the mapped root, pelvis, neck, spine, arm and leg bones).
LB_API lbResult lbProneApplyPose(const lbProneTargets* targets, const lbProneDef* def, const lbSkeleton* skeleton,
								 const lbHumanoid* humanoid, lbPose* pose, lbProneResult* outResult);

/// The point a probe measures in a pose (model space) and its radius (m), as the sense and pose
/// stages use them. Returns false for a bad probe or missing bone.
LB_API bool lbProneProbePoint(const lbHumanoid* humanoid, const lbProneDef* def, const lbPose* pose, lbProneProbe probe,
							  lbVec3* outPointMs, float* outRadius);

LB_EXTERN_C_END

/// @}
