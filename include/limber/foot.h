// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref foot group.

/// @defgroup foot Foot placement on uneven ground
/// Plants a walking, running or standing character's feet on stairs, slopes and rocks. Two
/// stages joined by a plain struct:
/// - sense (world space, per-character lbFootState): sphere casts under each foot, foot goals
///   from the contact and the rig's measured ankle height, foot tilt to the ground normal,
///   slope limit, smoothing of offsets, trace prediction, pelvis offset, landing compression,
///   IK alpha from character state, reduced trace rate, distance LOD and foot locking;
///   writes lbFootTargets.
/// - pose (model space, stateless): pelvis offset, then two-bone IK per leg with the knee
///   hinge from lbHumanoid (knees never invert) and the foot rotation, the heel lifting where the
///   ankle would bend past `ankleLimit`; or the full-body solver.
/// All lengths in meters, angles in radians, speeds of exponential smoothing in 1/s.
/// @{

#include "limber/humanoid.h"
#include "limber/query.h"
#include "limber/skeleton.h"

/// How the pelvis follows the feet.
typedef enum lbFootPelvisMode
{
	/// The pelvis drops as far as the leg with the lower goal needs to reach it (and no further);
	/// the other leg bends.
	lb_footPelvisLowestFoot = 0,
	/// The pelvis moves by the mean of the two foot offsets times `pelvisWeight`.
	lb_footPelvisWeightedAverage,
} lbFootPelvisMode;

/// Where the downward foot casts start.
typedef enum lbFootTraceOrigin
{
	/// `traceAbove` above the animated ankle.
	lb_footTraceFromFoot = 0,
	/// At pelvis height, below the animated ankle: stable when the legs crouch or jump.
	lb_footTraceFromPelvis,
} lbFootTraceOrigin;

/// IK mode requested by the game (enabled, disabled or clamped).
typedef enum lbFootIkMode
{
	/// Full strength.
	lb_footIkEnabled = 0,
	/// Off: the feet follow the animation.
	lb_footIkDisabled,
	/// Reduced strength (`clampedAlpha`), e.g. crouched or hurt.
	lb_footIkClamped,
} lbFootIkMode;

/// Movement state; everything but grounded fades the IK out.
typedef enum lbFootMoveState
{
	/// On the ground: the only state in which the IK is in.
	lb_footGrounded = 0,
	/// Airborne.
	lb_footFalling,
	/// Rolling on the ground.
	lb_footRolling,
	/// Climbing.
	lb_footClimbing,
} lbFootMoveState;

/// Options of the foot system. Fill with lbDefaultFootDef(); every default is listed here.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbFootDef
{
	/// World up (unit). Default +Z.
	lbVec3 up;
	/// Sphere cast radius. Default 0.03 m.
	float traceRadius;
	/// Cast origin. Default lb_footTraceFromFoot.
	lbFootTraceOrigin traceOrigin;
	/// Start height above the animated ankle (lb_footTraceFromFoot). Default 0.5 m.
	float traceAbove;
	/// How far below the animated sole the cast reaches (steps down, slopes). Default 0.6 m.
	float traceBelow;
	/// Channels the casts see. Default LB_CHANNEL_GROUND.
	uint32_t channelMask;
	/// Owner id of the character's own shapes, ignored by the casts. Default LB_NO_OWNER.
	uint32_t ignoreOwnerId;
	/// Two more casts per foot, at heel and ball, giving the foot's pitch from two contacts.
	/// Default false.
	bool heelToeTraces;
	/// Fraction of the ground-normal tilt given to the foot. Default 0.7.
	float normalWeight;
	/// Largest foot tilt. Default 40 degrees.
	float maxFootAngle;
	/// Ground slope above which a foot reports `steep` (and both feet together `unsupported`), so a
	/// game can switch to sliding or climbing. The IK keeps its strength on steep ground: fading it
	/// out would leave the animated foot inside the slope. Default 35 degrees.
	float slopeLimit;
	/// Exponential smoothing speed of foot offsets. Default 13 /s (12-15 looks natural).
	float goalSpeed;
	/// Smoothing speed of foot tilt. Default 18 /s (the offset speed + 5: the tilt settles a little ahead of the height).
	float rotationSpeed;
	/// Trace prediction: the cast start moves along the horizontal velocity by speed x this
	/// time. Default 0.02 s.
	float predictionTime;
	/// Longest prediction offset. Default 0.20 m.
	float predictionMax;
	/// Turn rate above which prediction is zero (rad/s). Default 1.5.
	float predictionMaxTurnRate;
	/// Pelvis mode. Default lb_footPelvisLowestFoot.
	lbFootPelvisMode pelvisMode;
	/// Weight of the mean foot offset in lb_footPelvisWeightedAverage. Default 0.3.
	float pelvisWeight;
	/// Largest pelvis drop. Default 0.35 m (0.02 m keeps the pelvis nearly level, a stiffer look).
	float pelvisMaxSink;
	/// Largest pelvis drop (m, world, along up) on ground as steep as slopeLimit or steeper; from 10
	/// degrees less steep it eases in from pelvisMaxSink, and the limit in force moves at no more than
	/// 0.5 m/s (lbFootState::pelvisSinkLimit). A stair's drop needs the whole riser; a steady slope
	/// does not, and there the drop a landing leg asked for came and went within a stride and turned
	/// the other leg 15-16 degrees a frame running down 42-45 degrees. Default 0.15 m.
	float pelvisMaxSinkSlope;
	/// Largest pelvis rise (m, world, along up): weighted-average mode; the lift for a free foot whose
	/// goal would raise its thigh past hipMaxFlex (lowest-foot mode); and how far above the animation
	/// the pelvis may stay when the floor drops away under it. Default 0.05 m.
	float pelvisMaxLift;
	/// How far the hips move back (m, world, across up, behind the character's facing) on a
	/// steep climb, as people climb steep stairs and slopes: hips back, knees clear of the step
	/// ahead. None while the character's floor rises at less than 0.2 of its horizontal speed, all
	/// from 0.5 (lbFootState::climbRate), eased with the pelvis shift. 0 turns it off. Default 0.1 m.
	float climbHipShift;
	/// Pose stage: a foot not locked to the ground whose goal would bend its knee further than this
	/// (radians from straight) has its goal moved out along the line from the hip until the knee bends
	/// exactly this much. 0 or half a turn turns it off. Default 150 degrees.
	float kneeMaxBend;
	/// Pose stage: nor does a free foot's goal raise the thigh further than this from hanging
	/// straight down (radians); the goal turns down about the hip (the sense stage first lifts the
	/// pelvis, within pelvisMaxLift, as far as that brings the thigh within it). 0 or half a turn
	/// turns it off. Default 120 degrees.
	float hipMaxFlex;
	/// Smoothing speed of the pelvis offset. Default 13 /s.
	float pelvisSpeed;
	/// Deepest pelvis dip of the landing impulse (m along up, negative = down), reached
	/// 1 / landingRelaxSpeed after the touchdown. Default -0.06 m.
	float landingCompression;
	/// Rate of the landing impulse (1/s): a critically damped dip, landingCompression * k t e^(1 - k t)
	/// at t seconds after the touchdown. Default 8 /s.
	float landingRelaxSpeed;
	/// Speed at which the IK alpha follows the state. Default 10 /s.
	float alphaSpeed;
	/// IK alpha in lb_footIkClamped. Default 0.3.
	float clampedAlpha;
	/// Casts per second; 0 casts every frame. Between casts the last ground plane under each foot
	/// is re-evaluated at the foot's current position. Default 30 Hz.
	float traceRate;
	/// Beyond this camera distance the system fades out and casts nothing; 0 = never. Default 8 m.
	float lodDistance;
	/// Foot locking: hold a planted foot's world position. Default true.
	bool footLock;
	/// A foot counts as planted while its animated speed is below this. Default 0.3 m/s.
	float lockSpeed;
	/// ... and its animated sole is within this height of the animation's floor. Default 0.04 m.
	float lockHeight;
	/// The lock releases when the planted goal strays this far from the lock across the ground
	/// (horizontally), or the ground rises 2 cm into it. Default 0.10 m.
	float lockReleaseDistance;
	/// ... or turns this far from the locked rotation. Default 30 degrees.
	float lockReleaseAngle;
	/// Speed at which a released lock blends out; a new lock blends in twice as fast (1.5 times while
	/// the floor falls). Default 15 /s.
	float lockBlendSpeed;
	/// A character moving more than this in one frame has teleported: state resets. Default 1 m.
	float teleportDistance;
	/// Soft-IK band of the legs as a fraction of leg length (see lbTwoBoneIkInput::soften).
	/// Default 0.02.
	float legSoften;
	/// Ankle limit of the two-bone solver (radians): when a leg's solve leaves the foot bone's
	/// local rotation (relative to its parent, the calf) further than this from its rest local
	/// rotation, the foot goal turns about the ball of the foot (heel up, ball kept on the ground)
	/// and the leg is solved again, as a runner's heel lifts on a steep uphill step. A free foot
	/// (not locked) comes onto it softly, from 10 degrees short of it, and stays just within it.
	/// 0 or less turns it off; non-finite is refused by lbFootApplyPose. Default 65 degrees.
	float ankleLimit;
	/// Footprint probes: rays under heel, ball and toe tip (and, for a swinging foot, ahead along its
	/// path) keep the whole sole and the swing clear of steps, rocks and ledges, and a planting foot
	/// slides along its length onto one level (off a stair nose, out of a riser, back from a gap).
	/// Default true.
	bool footprintTraces;
	/// A change of ground height under the foot larger than this (beyond the ground's slope) is a
	/// step edge. Default 0.04 m.
	float edgeHeight;
	/// How far from an edge a planting foot keeps its toe tip (a riser ahead), ball (a drop ahead) or
	/// heel (a wall behind). Default 0.015 m.
	float edgeMargin;
	/// Longest slide of a plant along the foot. Default 0.16 m.
	float maxPlantShift;
	/// A swinging foot also probes the ground ahead of its toe tip along its own horizontal velocity,
	/// this far in time (at most three ankle-to-ball lengths), so it rises before a step edge reaches
	/// it. Default 0.2 s.
	float swingLookahead;
	/// Height a swinging foot keeps above ground that rises into its path (a step it climbs, a rock);
	/// over lower ground it keeps the animation's own swing height. Default 0.08 m.
	float swingClearance;
	/// A foot coming down within this height of its floor already slides toward the level it will
	/// land on (see maxPlantShift), so the plant itself barely moves it. Default 0.15 m.
	float slideHeight;
	/// Fastest the ankle goal moves against the animated ankle (m/s): every correction (a slide, a
	/// lock blending in, a step edge under a swinging foot) is spread over frames at most this fast,
	/// so no correction pops the leg; 0 turns the cap off. Snaps (first frame, landing, teleport)
	/// place the goal outright. Default 4 m/s.
	float maxGoalSpeed;
	/// A foot that has moved less than this (m, world) since its last probe, in the same phase
	/// (swinging, landing), keeps that probe instead of casting again, for at most 0.1 s: one coming
	/// to rest on its landing place finds the same ground. A locked foot, whose probe only asks
	/// whether ground is still under it, keeps its probe for the 0.1 s however far its animated
	/// ankle moved. 0 probes on every trace frame. Default 0.01 m.
	float probeReuseDistance;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbFootDef;

/// Per-foot state of the sense stage (world space).
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbFootLegState
{
	///@{
	/// Smoothed height (world, along up) of the ground under the foot (m), and its rate (m/s).
	float offset, offsetSpeed;
	///@}
	/// Smoothed tilt (world rotation applied on top of the animated foot rotation).
	lbQuat tilt;
	/// Smoothed per-foot IK alpha (ground found).
	float alpha;
	/// Height (m, world) the footprint's ground rises above the ground plane under the ankle, from
	/// the last probe: what a foot in the air must clear.
	float clearance;
	/// The ground under the foot is steeper than the slope limit.
	bool steep;
	/// The ground normal eased at rotationSpeed (world, unit).
	lbVec3 toeNormalWs;
	///@{
	/// Ground heights (world, along up) under heel, under the ankle, ball and toe tip from the last
	/// probe (bit k of printValid set where ground was found).
	float printHeight[lb_solePointCount];
	unsigned printValid;
	///@}
	///@{
	/// An edge under the sole of a foot in the air from the last probe (a nose between two of its
	/// samples): the higher side's ground (world, along up) and the stretch of the sole it lies under
	/// until the next probe, as distances along the foot from the point under the ankle (model
	/// units, as lbSole::along); held only while bit lb_solePointCount of printValid is set.
	float cornerHeight, cornerLo, cornerHi;
	///@}
	///@{
	/// Ground ahead of a foot in the air from the last probe, along its path: points (world) and the
	/// ground height (world, along up) under each; aheadCount of them.
	lbVec3 aheadPointWs[5];
	float aheadHeight[5];
	int aheadCount;
	/// The sole point those points lie ahead of, as its distance along the foot from the point under
	/// the ankle (model units, as lbSole::along): the toe tip's for a foot swinging forward with the
	/// body or moving toes first, the heel's for a foot moving heel first.
	float aheadLead;
	/// Bit i set: point i lies ahead of the foot's other end (the heel when aheadLead is the toe
	/// tip's, else the toe tip), whose path is looked along too when the foot moves more than 30
	/// degrees off its own line; aheadOther is that end's distance along the foot (model units).
	unsigned aheadOtherMask;
	float aheadOther;
	///@}
	///@{
	/// The ankle goal's offset from the animated ankle last frame (world, m), for maxGoalSpeed, and
	/// whether it holds one (false until the first goal and after a teleport, when the goal is placed
	/// outright).
	lbVec3 goalOffsetWs;
	bool hasGoal;
	///@}
	/// Horizontal offset (world, m) of the foot from the animated foot: set by a plant that slid
	/// onto a tread, kept through the lock and carried into the next swing, where it fades once the
	/// foot has risen clear of what is ahead.
	lbVec3 shiftWs;
	///@{
	/// The part of shiftWs (world, m) that moves the foot sideways off a riser running beside it (a
	/// landing's, found afresh at each probe, and its plant's), and how far that riser rises above
	/// the foot's level (m): a foot lifting off keeps it until its sole is above the riser or it has
	/// moved maxPlantShift from its lock. Both zero when there is none.
	lbVec3 acrossWs;
	float acrossRise;
	///@}
	///@{
	/// Landing: the foot is coming down within slideHeight of its floor; it is held, along
	/// slideAxisWs (world, unit), between slideLo and slideHi (world coordinates along that axis,
	/// m, of the point under the ankle) so that it lands on one level.
	bool sliding;
	/// Whether this landing's slide has met an edge along the foot at one of its probes.
	bool slideMetEdge;
	lbVec3 slideAxisWs;
	float slideLo, slideHi;
	/// Whether slideHi is set by a riser rising ahead of the toe tip (not a nose the ball may
	/// overhang): a foot past it has its toe in the riser.
	bool slideHiRiser;
	/// Whether the range was set across a gap under the foot (lbFootGapRange): the slide may then
	/// reach twice maxPlantShift, onto the platform before or beyond the gap.
	bool slideGap;
	/// Whether the range is held from an earlier probe because the footprint then found no ground
	/// at all (past a drop deeper than its rays reach): the slide may then reach 1.25 times
	/// maxPlantShift, to keep the foot on the rim.
	bool slideBlind;
	///@}
	///@{
	/// A landing held short of a riser whose level was chosen afresh on the tread above it (the
	/// animation carried the foot on past the hold) while the foot was still below that tread: it
	/// stays at riseHoldAt (world, m along slideAxisWs: where it was held) until its smoothed ground
	/// (offset) has come within 5 mm of riseHoldH (world, along up: the tread's height), and blends
	/// into a lock up first and across after. Let go once the foot is above the tread, the lock
	/// has blended in, or the landing ends.
	bool riseHeld;
	float riseHoldAt, riseHoldH;
	///@}
	///@{
	/// Last ground plane under the foot (world): a point and its unit normal; valid when grounded.
	lbVec3 groundPointWs, groundNormalWs;
	///@}
	///@{
	/// Where the cast touched the ground (world): the edge a foot rests on, for instance.
	lbVec3 bearingWs;
	bool grounded;
	///@}
	///@{
	/// Foot lock: active flag, blend in [0, 1], locked ankle position and foot rotation (world).
	bool locked;
	float lockAlpha;
	lbVec3 lockAnkleWs;
	lbQuat lockRotWs;
	///@}
	/// The animated ankle (world) when the lock began: the lock releases when the animation carries
	/// the foot away from there.
	lbVec3 lockAnimAnkleWs;
	///@{
	/// Animated ankle position last frame (world), for the foot's animated speed, and the animated
	/// sole's height over its floor (m), for its rate.
	lbVec3 prevAnimAnkleWs;
	float prevSoleAboveFloor;
	///@}
	///@{
	/// How high (m, world, along up, 0 to 0.1) the animation itself holds this foot's sole under
	/// the ankle above its floor when the foot stands: the lowest height while the foot moved
	/// slower than lockSpeed, no higher than 1.5 cm above the other foot, in its last stand of 0.1 s
	/// or more. Over 5 mm (a captured clip whose foot stands pitched heel up, toes curled onto the
	/// floor) the foot plants by the lowest point of its sole and by its speed over two frames.
	/// standMin and standTime: the lowest height and the time (s) of the stand going on; standLift:
	/// the height this frame (m).
	float restLift, standMin, standTime, standLift;
	/// The animated foot's velocity last frame (world, m/s).
	lbVec3 prevFootVel;
	/// The rise the toes' plane keeps (lbFootTarget::toeRise, m), eased at 0.3 m/s.
	float toeRise;
	///@}
	///@{
	/// Where the foot's last probe was made from (world: the animated ankle moved by its slide),
	/// how long ago (s) and in which phase (0 none yet, 1 locked, 2 swinging, 3 landing or
	/// standing): a foot that has moved less than probeReuseDistance since, in the same phase,
	/// reuses it (a locked foot however far it moved).
	lbVec3 probeFromWs;
	float probeAge;
	int probePhase;
	///@}
	/// The footprint's forward (world, unit, normal to up) when its rays last sampled the ground
	/// (zero before): a free foot turned well off it since is sampled again under its toe tip.
	lbVec3 printToeWs;
	///@{
	/// The ground a landing foot found one step past its toe tip (0) and its heel (1), where a riser
	/// or a wall beyond the sole would bound its slide: the ray's point (world, m) and the ground's
	/// height there (world, along up, m); bit k of beyondValid set where ground was found, bit k + 2
	/// where point k is held. Cleared when the foot is not landing.
	lbVec3 beyondPointWs[2];
	float beyondHeight[2];
	unsigned beyondValid;
	///@}
	///@{
	/// A free leg folded near kneeMaxBend: the direction (world, unit) from the hip to its ankle
	/// goal last frame and that distance (m), whose change per frame is limited, and whether it
	/// holds them.
	lbVec3 foldDirWs;
	float foldLength;
	bool folded;
	///@}
	/// Weight of the toes' bend onto the ground in [0, 1] (lbFootTarget::toeBend).
	float toeBend;
	/// Height (m, world) of the sole's ball sample above the ground plane in the last frame's goal
	/// (lbFootTarget::toeLead).
	float ballAbove;
	/// The toes' lead onto the ground in the last frame (lbFootTarget::toeLead).
	float toeLead;
	/// The ball sample's height (m, world, over the ground plane) the toes bent for in the last
	/// frame: ballAbove, risen at most 0.3 m/s (lbFootTarget::toeRise lifts their plane by the rest).
	float toeBallSeen;
	///@{
	/// The floor a foot the IK does not hold at full weight is kept above (lbFootTarget::floorPointWs):
	/// the ground plane under it (world point, unit normal), lowered by floorDrop (m, along up) at
	/// LB_FOOT_FLOOR_RELEASE m/s once the ground under the foot fell away, and whether it holds one.
	lbVec3 floorPointWs, floorNormalWs;
	float floorDrop;
	bool hasFloor;
	///@}
	///@{
	/// Each sole point's own floor while hasFloor (m, world, along up; -1e30 where none): the
	/// ground straight under that point of the animated foot (probed at floorSeenWs, world), taken
	/// and lowered as the floor plane is (lbFootTarget::floorSoleH).
	float floorSoleH[lb_solePointCount];
	lbVec3 floorSeenWs[lb_solePointCount];
	///@}
	/// How far (radians, >= 0) a foot standing far below the other is turned toes-down about its
	/// ball, eased in and out: it raises the ankle so the hips need not come down below the other
	/// leg's fold room.
	float toePitch;
	///@{
	/// The tilt target last worked out (world rotation toward the ground) with the slope it found
	/// (radians), and what it was made from: ground normal, up, normalWeight and maxFootAngle. A
	/// foot whose ground and def are the same (a kept probe, the same face) reuses it; zeroed by
	/// lbFootState_Reset (a zero normal is no ground's).
	lbQuat tiltTargetWs;
	float tiltSlope;
	lbVec3 tiltNormalWs, tiltUpWs;
	float tiltWeight, tiltMaxAngle;
	///@}
} lbFootLegState;

/// Per-character state of the foot system: small and contiguous, owned by the caller.
/// Initialise with lbFootState_Reset.
/// Thread-safety: one per character; the calls that update it must not run on two threads at once
/// for the same state (different states are independent).
typedef struct lbFootState
{
	/// Per leg (lbSide): its state.
	lbFootLegState legs[2];
	///@{
	/// Smoothed pelvis offset along up (m), the landing impulse (m) and its rate (m/s).
	float pelvisOffset, landing, landingRate;
	///@}
	/// Smoothed IK alpha from the character state.
	float alpha;
	/// The pelvis drop limit in force (m, world): pelvisMaxSink on level ground and stairs, moving
	/// toward pelvisMaxSinkSlope on steep ground (lbFootDef::pelvisMaxSinkSlope).
	float pelvisSinkLimit;
	/// Smoothed horizontal move of the hips (world, m): toward a leg landing far below the other,
	/// and back on a steep climb (lbFootDef::climbHipShift).
	lbVec3 pelvisShiftWs;
	/// The steep climb's part of pelvisShiftWs (world, m), eased with it.
	lbVec3 climbShiftWs;
	/// Seconds until the next cast (reduced trace rate).
	float traceTimer;
	/// Where this character's casts fall within the trace period, in [0, 1): after a frame that
	/// snaps (the first, a landing, a teleport) the next cast comes (1 - tracePhase) periods later,
	/// then one every period. Characters of a crowd given phases spread over [0, 1) cast on
	/// different frames, so each frame costs about the same. Set with lbFootState_SetTracePhase;
	/// lbFootState_Reset sets 0 (every character casts on the same frames).
	float tracePhase;
	/// How fast the character's floor rises (m/s along up; negative going down), smoothed over
	/// about half a second: the climb lbFootDef::climbHipShift moves the hips back for.
	float climbRate;
	/// Character transform last frame (world), for teleports, turn rate and prediction.
	lbTransform prevCharacterWs;
	/// Nonzero once a frame has been sensed.
	int initialized;
} lbFootState;

/// What the game tells the sense stage each frame.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbFootSenseInput
{
	/// The world, seen through the scene-query interface. Required.
	const lbSceneQuery* query;
	/// World transform of the model frame this frame.
	lbTransform characterWs;
	/// The animated (base) pose, model space. Required.
	const lbPose* animPose;
	/// Character velocity (world, m/s); non-finite counts as zero (and is reported).
	lbVec3 velocityWs;
	/// Frame time (s). <= 0 keeps the state; above 0.25 s the goals snap as on landing.
	float dt;
	/// IK mode. Default lb_footIkEnabled.
	lbFootIkMode ikMode;
	/// Movement state. Default lb_footGrounded.
	lbFootMoveState moveState;
	/// True on the frame the character lands: goals snap, the pelvis gets the landing impulse, and
	/// the state alpha (faded while falling) blends back in at alphaSpeed rather than snapping.
	bool landed;
	///@{
	/// Camera position (world) for the distance LOD; ignored unless hasCamera.
	lbVec3 cameraWs;
	bool hasCamera;
	///@}
} lbFootSenseInput;

/// Per-foot output of the sense stage.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbFootTarget
{
	///@{
	/// Ankle goal (world, m) and foot bone rotation (world).
	lbVec3 ankleWs;
	lbQuat footRotWs;
	///@}
	/// Foot IK alpha in [0, 1] (ground found).
	float alpha;
	/// The ground under the foot is steeper than the def's slope limit.
	bool steep;
	/// How far (world m along up, >= 0, alpha applied) the pelvis must come down for this leg to
	/// reach its goal before the soft-IK band; the pose stage lowers the pelvis at least this far.
	float reachDrop;
	/// Whether the foot is locked (held in place in the world).
	bool locked;
	/// Whether the foot counts as planted on the ground this frame.
	bool planted;
	/// Weight in [0, 1] of the toes' bend onto the ground: it rises while the foot is planted or
	/// locked on ground and falls otherwise, over 50 ms either way, so a plant that flickers for a
	/// frame (a clip's foot shuffling at the lock speed) turns the toes by a third of their bend,
	/// not all, and a lock that begins bends them over three 60 Hz frames.
	float toeBend;
	/// How far in [0, 1] the toes of a foot coming down onto the ground bend ahead of the contact:
	/// 1 when its ball reaches the ground in the next frame at its present rate, 0 three frames
	/// out or more, easing in and out. The pose stage bends the toes that share of the way from the
	/// bend they need now toward the bend they would need with the ball at rest on the ground.
	float toeLead;
	/// Planted and at rest on the ground: locked, fully blended into its lock and with the goal at
	/// the lock (within 1 mm; the goal's speed cap may still be bringing it there) and within the
	/// leg's reach with the hips sunk no further than pelvisMaxSink, with locking on; planted, with
	/// locking off. The first frames of a plant settle the foot.
	bool settled;
	///@{
	/// Ground contact under the foot (world) and its normal; valid when grounded.
	bool grounded;
	lbVec3 contactWs, normalWs;
	///@}
	///@{
	/// The normal the toes bend onto (world, unit): the ground normal, leaned back about the ball
	/// where the ground under the toe tip rises above the ground plane (a rock under the toes; not
	/// a riser's top two ball-to-tip spans or more above it), eased at rotationSpeed; and a point of the ground plane under the foot (world). Toes the
	/// pose turned below the plane with that normal through the ground plane's point under the
	/// ball bend up at the ball until their tip is on it.
	lbVec3 toeNormalWs, groundPointWs;
	///@}
	/// How far (m, world, along up, 0 or more) the toes' plane passes above groundPointWs: for toes
	/// the animation curls down below the sole, the rise of the ground the footprint found under
	/// the ball above the ground plane (a rock under the ball), 0 for other toes; plus, while the
	/// bend eases out after a release, how far the ball rose faster than 0.3 m/s (the toes unbend
	/// over frames, not in the one the ball leaves the ground in).
	float toeRise;
	/// The sole point that bears on the ground, in the foot bone's frame: under the ankle, or
	/// toward the ball (heel) when the support lies there, e.g. a foot on a stair edge.
	lbVec3 soleLocal;
	///@{
	/// While the IK does not hold this foot at full weight (the character airborne, the leg blending
	/// in) and lbFootTargets::keepAbove: a plane (world point, unit normal) no sole point of the
	/// posed foot may lie under; the pose stage lifts the foot along up onto it. The ground under
	/// the foot, lowered gradually once that ground falls away, so a foot leaving a ledge's top
	/// comes down over a few frames instead of dropping to the animation in one.
	bool hasFloor;
	lbVec3 floorPointWs, floorNormalWs;
	///@}
	///@{
	/// With hasFloor: the height (m, world, along up) no sole point k (lbSolePoint) of the posed
	/// foot may lie under either, -1e30 for none: the ground straight under floorSoleAtWs[k] (world),
	/// where the animated foot had that point, lowered as the plane is. It holds for a posed point
	/// within 2 cm of there across up. A foot across a stair's nose has its toes over the tread
	/// above the one under its ankle, which the plane under the ankle runs through.
	float floorSoleH[lb_solePointCount];
	lbVec3 floorSoleAtWs[lb_solePointCount];
	///@}
} lbFootTarget;

/// The plain struct that joins the two stages.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbFootTargets
{
	/// World transform of the model frame the targets were made for.
	lbTransform characterWs;
	/// World up.
	lbVec3 upWs;
	/// Pelvis offset along up (m, world length), landing impulse included.
	float pelvisOffset;
	/// How far the pose stage may lower the pelvis below the animation (m, world, along up, >= 0):
	/// the sense stage's limit in force (lbFootState::pelvisSinkLimit).
	float pelvisMaxSink;
	/// Horizontal move of the pelvis (world, m): the hips ahead of the animation over a foot landing
	/// far below the other, so the other leg does not fold under its own step, and back on a steep
	/// climb (climbShiftWs). Zero elsewhere.
	lbVec3 pelvisShiftWs;
	/// The steep climb's part of pelvisShiftWs (world, m; lbFootDef::climbHipShift): the pose stage
	/// leans the spine forward over it, so the chest stays where the animation has it while the
	/// hips go back.
	lbVec3 climbShiftWs;
	/// Overall alpha (state, LOD) in [0, 1]; the pose stage does nothing at 0.
	float alpha;
	/// Per foot (lbSide): its target.
	lbFootTarget feet[2];
	/// Casts made this frame.
	int castCount;
	/// False when the LOD turned the system off this frame.
	bool active;
	/// True unless the LOD or the game (lb_footIkDisabled) turned the IK off: while the IK is out or
	/// fading (airborne, a leg blending in), the pose stage still lifts a foot the pose leaves inside
	/// the ground sensed under it out onto that ground.
	bool keepAbove;
	/// True while grounded when no foot finds ground or every foot that does stands on ground
	/// steeper than the slope limit: a game may switch to sliding, falling or climbing.
	bool unsupported;
} lbFootTargets;

/// Which solver the pose stage uses.
typedef enum lbFootSolver
{
	/// Two-bone IK per leg (default).
	lb_footSolverTwoBone = 0,
	/// The full-body solver on both feet, with the pelvis free within the def's sink/lift limits.
	lb_footSolverFullBody,
} lbFootSolver;

LB_EXTERN_C_BEGIN

/// Default foot def (each field's comment gives its value).
LB_API lbFootDef lbDefaultFootDef(void);

/// Checks every field of a def (finite, in its documented range, enums known, up non-zero).
/// Returns lb_ok, lb_errorNullPointer, lb_errorDefNotInitialized, lb_errorNonFinite or
/// lb_errorInvalidArgument, reported with the field's name. lbFootSense and lbFootApplyPose call it
/// first.
LB_API lbResult lbFootDef_Validate(const lbFootDef* def);

/// Default sense input (everything zero/NULL, enabled, grounded).
LB_API lbFootSenseInput lbDefaultFootSenseInput(void);

/// Resets a state: no offsets, no locks, alpha 0 (the IK fades in).
LB_API void lbFootState_Reset(lbFootState* state);

/// Sets the state's trace phase (fraction of the trace period, wrapped into [0, 1)): for a crowd of
/// n characters, character i with phase i / n spreads the casts evenly over the frames. Returns
/// lb_ok, lb_errorNullPointer or lb_errorNonFinite (the phase is kept).
LB_API lbResult lbFootState_SetTracePhase(lbFootState* state, float phase);

/// Sense stage. Reads the animated pose and the world; updates `state`; writes `outTargets`.
/// Returns lb_ok, or lb_errorNullPointer / lb_errorDefNotInitialized (nothing changes), or
/// lb_errorNonFinite for a non-finite character transform (state kept, previous targets
/// re-issued at alpha 0) or velocity (treated as zero; the frame still runs).
LB_API lbResult lbFootSense(lbFootState* state, const lbFootDef* def, const lbSkeleton* skeleton,
							const lbHumanoid* humanoid, const lbFootSenseInput* input, lbFootTargets* outTargets);

/// Sense stage for `count` characters sharing a def, skeleton and humanoid: exactly the results of
/// calling lbFootSense for each in order, but the casts of each group of characters are announced
/// to their scene first (lbSceneQuery.prefetch), so a crowd's cache misses overlap instead of
/// adding up. Returns lb_errorNullPointer for NULL arrays (nothing changes), else the first
/// character's error, if any (every character still runs).
LB_API lbResult lbFootSenseMany(lbFootState* states, const lbFootDef* def, const lbSkeleton* skeleton,
								const lbHumanoid* humanoid, const lbFootSenseInput* inputs, lbFootTargets* outTargets,
								int count);

/// Pose stage (model space, stateless): applies the pelvis offset and solves both legs toward
/// the targets, blending by their alphas. `pose` holds the animated pose on entry and the result
/// on exit. lb_footSolverFullBody needs caller memory: `workspace` of at least
/// lbGetFullBodyIkWorkspaceSize(skeleton) bytes (the two-bone solver takes NULL, 0). Returns an
/// error and leaves the pose unchanged on bad input (lb_errorCapacity for a missing or short
/// workspace).
LB_API lbResult lbFootApplyPose(const lbFootTargets* targets, const lbFootDef* def, const lbSkeleton* skeleton,
								const lbHumanoid* humanoid, lbFootSolver solver, lbPose* pose, void* workspace,
								size_t workspaceSize);

/// Sole point of a foot in the foot bone's local frame: the rest point under the ankle.
LB_API lbVec3 lbFootSoleLocal(const lbHumanoid* humanoid, int side);

LB_EXTERN_C_END

/// @}
