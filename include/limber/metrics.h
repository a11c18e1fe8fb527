// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref metrics group.

/// @defgroup metrics Quality metrics
/// Measures how good a sequence of poses looks against the world: sole and limb penetration,
/// support under planted feet, hover, floating, contact drift, knee and elbow inversions, joint
/// limit violations, pose pops (added by the system and the source's own), palm-to-wall angle, a
/// lying torso's height and roll and pitch errors against the ground, and non-finite frames. Every metric is defined precisely in docs/metrics.md. Feed one frame at a
/// time with lbMetrics_AddFrame; read per-frame values from its output and the running summary
/// with lbMetrics_GetSummary. The accumulator owns no world: it sees one through the lbSceneQuery
/// given in its def, independently of anything a system sensed.
/// @{

#include "limber/humanoid.h"
#include "limber/query.h"
#include "limber/skeleton.h"

/// What a contact is held by.
typedef enum lbContactKind
{
	/// A foot.
	lb_contactFoot = 0,
	/// A hand.
	lb_contactHand = 1,
	/// Another part of the body, e.g. a lying torso.
	lb_contactBody = 2,
} lbContactKind;

/// A contact a system keeps with the world in one frame.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbContact
{
	/// Kind of limb or probe.
	lbContactKind kind;
	/// Bone that holds the contact.
	int bone;
	/// Contact point on the bone, in the bone's local frame (m). The metric compares
	/// bone * offsetLocal with targetWs.
	lbVec3 offsetLocal;
	/// Where the contact should be (world, m).
	lbVec3 targetWs;
	/// Surface normal at the target (world, unit, pointing away from the surface).
	lbVec3 normalWs;
	/// True while the contact is locked (held in place): counts toward contact drift and, for
	/// hands, the palm-to-wall angle.
	bool locked;
	/// True when the point should touch the surface: counts toward penetration and hover.
	bool touching;
} lbContact;

/// Surface probe: casts from `originWs` along the unit direction `dirWs` up to `maxDistance` (m)
/// and returns true with the surface point and its unit normal (world) on a hit.
typedef bool lbSurfaceProbeFcn(void* context, lbVec3 originWs, lbVec3 dirWs, float maxDistance, lbVec3* outPointWs,
							   lbVec3* outNormalWs);

/// Options of a metrics accumulator.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbMetricsDef
{
	/// Skeleton of the poses (not copied; must outlive the accumulator). Default NULL (required).
	const lbSkeleton* skeleton;
	/// Humanoid map of the skeleton (copied). Default NULL (required).
	const lbHumanoid* humanoid;
	/// World up (unit). Default +Z.
	lbVec3 upWs;
	/// The world the metrics measure against (copied; its context must outlive the accumulator).
	/// Needs rayCast and sphereOverlap; without them every world metric is unmeasured and each
	/// frame counts in unmeasured_frames. Default all NULL.
	lbSceneQuery query;
	/// Channels the metrics see (world shapes). Default every channel but LB_CHANNEL_CHARACTER.
	uint32_t channelMask;
	/// A foot counts as planted while the slowest of its sole points moves slower than this
	/// (world, m/s) in a grounded frame, and it is near the ground or has been slow a while (below).
	/// Default 0.25.
	float plantedSpeed;
	/// ... near the ground: its lowest sole point at most this high above the ground under it (m).
	/// Default 0.10.
	float plantedNear;
	/// ... or slow for at least this long (s): a foot pausing at the top of its swing is not
	/// planted, a foot standing on air or hovering through a stance is. Default 0.2 (a run's swing
	/// can slow for 0.1 s off the ground, going down stairs).
	float plantedTime;
	/// Downward probes start this far above the point they measure (world, along up, m). Default 0.5.
	float probeLift;
	/// Downward probes reach this far below the point they measure (m): ground further down is
	/// "no ground". Default 1.5.
	float probeLength;
	/// Support: ground more than this below both the sole and the lowered sole line leaves that
	/// part of the sole unsupported (m, along up). Default 0.05.
	float supportDrop;
	/// Support: points sampled along the heel-to-ball line (2..64). Default 10.
	int supportSamples;
	/// Support: a planted foot touching the ground is measured once it has been slow this long (s):
	/// a swing whose toe skims a stair nose for a frame or two bears no weight. Default 0.05.
	float supportSettle;
	/// Limb capsules are tested at points this far apart along their axis at most (m). Default 0.05.
	float limbSpacing;
	/// Floating: a frame touches the ground while the lowest sole point is at most this high above
	/// it (m); support: a planted foot bears on the ground (and its support is measured) while its
	/// lowest sole point is. Default 0.03.
	float floatContactHeight;
	/// Floating: a span with nothing touching counts once it lasts longer than this (s, the length of
	/// a jump). Default 0.6.
	float floatTime;
	/// Signed hinge angle below which a knee or elbow counts as inverted (deg, <= 0). Default -2.
	float inversionToleranceDeg;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbMetricsDef;

/// One frame handed to the accumulator.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbMetricsFrame
{
	/// Pose of the character (model space); must match the skeleton.
	const lbPose* pose;
	/// Model-to-world transform of the character.
	lbTransform characterWs;
	///@{
	/// Contacts the active system reports this frame and their count (may be NULL with count 0).
	const lbContact* contacts;
	int contactCount;
	///@}
	/// False while the character is airborne or rolling: feet are then never "planted".
	bool grounded;
	/// True when the character was placed anew this frame (teleport, reset): pose pop and foot
	/// speed skip this frame.
	bool reset;
	/// Frame time step (s, > 0).
	float dt;
	/// Optional: the base motion's pose of this frame before the system changed it (model space,
	/// same character transform). Added pops subtract what it does; NULL charges every pop to
	/// the final pose and leaves source_pop unmeasured.
	const lbPose* basePose;
} lbMetricsFrame;

/// Body segments measured as capsules by limb_penetration.
typedef enum lbMetricsSegment
{
	///@{
	/// A capsule per limb segment (each side) and one for the torso.
	lb_segmentThigh = 0,
	lb_segmentCalf,
	lb_segmentFoot,
	lb_segmentUpperArm,
	lb_segmentForeArm,
	lb_segmentTorso,
	///@}
	/// Number of segments (not a segment).
	lb_segmentCount
} lbMetricsSegment;

/// Why a world metric could not be measured in a frame (most common one in the summary).
typedef enum lbUnmeasuredReason
{
	/// Everything was measured.
	lb_unmeasuredNone = 0,
	/// The def has no scene query (rayCast and sphereOverlap): nothing in the world can be measured.
	lb_unmeasuredNoQuery,
	/// A planted foot has no ground under any of its sole points within probeLength.
	lb_unmeasuredNoGroundUnderPlantedFoot,
	/// A touching contact of a system has no surface along its normal within reach.
	lb_unmeasuredNoSurfaceAtContact,
	/// Number of reasons (not a reason).
	lb_unmeasuredReasonCount
} lbUnmeasuredReason;

/// Per-frame values. Distances in m (world), angles in degrees; -1 means "not measured this frame".
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbFrameMetrics
{
	/// Largest distance of a locked contact's point from its target (m).
	float contactDrift;
	/// Deepest of the sole points and the touching body/hand contacts inside a solid (m).
	float penetration;
	/// Highest planted foot (lowest sole point) or touching body/hand contact above its surface (m).
	float hover;
	/// Largest angle between a locked hand's palm normal and the held surface's inward normal (deg).
	float palmWallAngle;
	///@{
	/// Largest rotation (deg) and translation (m) change of a bone relative to the reference bone.
	float posePopDeg;
	float posePopM;
	///@}
	/// Deepest of the 8 sole points (heel, under-ankle, ball, toe tip of each foot) inside a solid (m).
	float solePenetration;
	/// Deepest penetration of any limb or torso capsule into the world (m).
	float limbPenetration;
	/// limbPenetration per segment kind, lbMetricsSegment order, both sides' deepest (m; -1 when
	/// not measured this frame).
	float limbPenetrationBySegment[lb_segmentCount];
	/// Lowest support share (0..1) over the planted feet; -1 when no foot is planted.
	float support;
	/// Largest world-rotation change of a bone beyond the base motion's own change (deg).
	float addedPopDeg;
	/// Largest world-rotation change of a bone in the base motion (deg).
	float sourcePopDeg;
	///@{
	/// Where this frame's worst values are: the foot (0 left, 1 right) and lbSolePoint of the
	/// deepest sole point (solePenetration above 0), the least supported planted foot (support),
	/// and the bone of addedPopDeg (above 0); -1 where there is none.
	int solePenetrationFoot, solePenetrationPoint;
	int supportFoot;
	int addedPopBone;
	///@}
	/// Lowest sole point's height above the ground under it (m); 0 when a foot or a body/hand
	/// contact touches; -1 without a query.
	float floatHeight;
	///@{
	/// Signed knee and elbow hinge angles (deg, positive = anatomical flexion), left then right.
	float kneeAngle[2];
	float elbowAngle[2];
	///@}
	/// How far the knees lie crossed (m, world): the right knee's lead over the left one across
	/// the body, along the line from the right hip to the left; 0 when each knee is on its own side.
	float kneeCross;
	/// Deepest overlap (m) of the body with itself: a forearm's capsule in the torso's, a calf's in
	/// the other leg's thigh or calf (the radii of limbPenetration's capsules); 0 when none overlap.
	float selfPenetration;
	/// A knee bends backward: its angle is below the def's inversionToleranceDeg.
	bool kneeInverted;
	/// An elbow bends backward: its angle is below the def's inversionToleranceDeg.
	bool elbowInverted;
	/// Number of joints outside their limits this frame.
	int limitViolations;
	/// Number of joints of the base pose alone outside their limits this frame (-1 without a base
	/// pose with local transforms): what the source motion brings, which the system did not add.
	int sourceLimitViolations;
	/// True when any input value (pose, base pose, transform, contact) is non-finite.
	bool nonFinite;
	/// Planted flag per foot (left, right), by the metrics' own definition.
	bool planted[2];
	/// Support share per foot (0..1), -1 while the foot is not planted.
	float footSupport[2];
	/// Why something was not measured this frame (lb_unmeasuredNone when everything was).
	lbUnmeasuredReason unmeasured;
	///@{
	/// Lying torso (frames with a touching body contact; -1 otherwise): the torso capsule's lowest
	/// height above the ground under it (m, >= 0), and its roll and pitch errors against the ground
	/// under it (deg, >= 0).
	float torsoHeight;
	float torsoRollError;
	float torsoPitchError;
	///@}
} lbFrameMetrics;

/// Summary over all frames added so far. Maxima of metrics never measured are -1.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbMetricsSummary
{
	/// Frames added.
	int frames;
	/// Largest contactDrift (m).
	float contactDriftMax;
	/// Max of solePenetrationMax and touching body/hand contacts' penetration (m).
	float penetrationMax;
	/// Largest hover (m).
	float hoverMax;
	/// Largest palmWallAngle (deg).
	float palmWallAngleMax;
	/// Largest posePopDeg (deg).
	float posePopMax;
	/// Largest posePopM (m).
	float posePopMaxM;
	/// Deepest sole point inside a solid over all frames (m).
	float solePenetrationMax;
	/// Deepest limb or torso capsule penetration over all frames (m).
	float limbPenetrationMax;
	/// limbPenetrationMax per segment kind, lbMetricsSegment order (m; -1 when never measured).
	float limbPenetrationBySegmentMax[lb_segmentCount];
	/// Lowest support share of a planted foot over all frames (0..1); -1 when no foot was planted.
	float supportMin;
	///@{
	/// Largest added world-rotation pop (deg) and the base motion's own largest (deg).
	float addedPopMax;
	float sourcePopMax;
	///@}
	///@{
	/// Where the worst values were met, to look at them (frames count from 0 in the order added):
	/// the deepest sole point's frame, foot (0 left, 1 right) and lbSolePoint; the deepest limb
	/// penetration's frame and lbMetricsSegment; the least support's frame and foot; the largest
	/// added pop's frame and bone. The first frame that reached each value; -1 while it was never
	/// above 0 (the support: never measured).
	int solePenetrationMaxFrame, solePenetrationMaxFoot, solePenetrationMaxPoint;
	int limbPenetrationMaxFrame, limbPenetrationMaxSegment;
	int supportMinFrame, supportMinFoot;
	int addedPopMaxFrame, addedPopMaxBone;
	///@}
	///@{
	/// Highest lowest-sole height in a span longer than floatTime with nothing touching (m), and
	/// the longest such span (s); 0 and 0 when there is none.
	float floatingMax;
	float floatingTime;
	///@}
	/// Frames with a knee inverted (kneeInverted).
	int kneeInversions;
	///@{
	/// Largest kneeCross (m; 0 when the knees never crossed) and the frames with the knees crossed.
	float kneeCrossMax;
	int kneeCrossFrames;
	///@}
	/// Largest selfPenetration (m; 0 when the body never overlapped itself).
	float selfPenetrationMax;
	/// Frames with an elbow inverted (elbowInverted).
	int elbowInversions;
	/// Frames with at least one joint outside its limits.
	int limitViolations;
	/// Frames in which the base pose alone has a joint outside its limits (sourceLimitViolations).
	int sourceLimitViolations;
	/// Frames with a non-finite input value (nonFinite): nothing else is measured in them.
	int nanFrames;
	/// Planted feet summed over the frames (a frame with both feet planted counts 2).
	int plantedFootFrames;
	/// Frames with at least one locked contact.
	int lockedContactFrames;
	/// Frames in which some world metric could not be measured, and the most common reason
	/// (a static string, "" when none).
	int unmeasuredFrames;
	/// The most common reason a world metric was not measured (a static string, "" when none).
	const char* unmeasuredReason;
	///@{
	/// Lying torso: the largest torso height above the ground (m) and roll and pitch errors (deg)
	/// over the frames with a touching body contact (-1 when there were none), and their count.
	float torsoHeightMax;
	float torsoRollErrorMax;
	float torsoPitchErrorMax;
	int torsoFrames;
	///@}
} lbMetricsSummary;

/// The accumulator (opaque).
/// Thread-safety: one thread at a time.
typedef struct lbMetrics lbMetrics;

LB_EXTERN_C_BEGIN

/// Default def: +Z up, no query, every channel but the character's, planted below 0.25 m/s,
/// probes from 0.5 m above to 1.5 m below, support within 0.05 m over 10 samples, limb samples
/// every 0.05 m, floating above 0.03 m for longer than 0.6 s, inversion tolerance -2 degrees.
LB_API lbMetricsDef lbDefaultMetricsDef(void);

/// Creates an accumulator; NULL on bad input (missing skeleton or humanoid, missing cookie,
/// non-unit up, non-finite or out-of-range numbers), reported through the log hook. No reference to the def is kept.
LB_API lbMetrics* lbCreateMetrics(const lbMetricsDef* def);

/// Frees an accumulator (NULL allowed).
LB_API void lbDestroyMetrics(lbMetrics* metrics);

/// Measures one frame, writes its values to outFrame (may be NULL) and updates the summary.
/// A non-finite frame counts in nan_frames and is otherwise skipped (the previous frame stays the
/// reference for pose pops). Returns lb_errorNullPointer / lb_errorSkeletonMismatch (pose or base
/// pose) / lb_errorInvalidArgument (dt not > 0) on bad input, without counting the frame.
LB_API lbResult lbMetrics_AddFrame(lbMetrics* metrics, const lbMetricsFrame* frame, lbFrameMetrics* outFrame);

/// Summary of every frame added so far.
LB_API lbMetricsSummary lbMetrics_GetSummary(const lbMetrics* metrics);

/// Signed hinge angle (deg) of a three-joint chain a-b-c (world or model points) about `hingeAxis`:
/// the angle from direction b-a to direction c-b, positive when the turn is a positive rotation
/// about the axis. 0 for a straight chain.
LB_API float lbSignedHingeAngle(lbVec3 a, lbVec3 b, lbVec3 c, lbVec3 hingeAxis);

/// World position of a foot's sole point under the ankle (lb_soleUnderAnkle of lbHumanoid_GetSole).
/// `side` is lb_left or lb_right; zero for bad input.
LB_API lbVec3 lbSolePointWs(const lbHumanoid* humanoid, const lbPose* pose, lbTransform characterWs, int side);

/// Readable text of an unmeasured reason ("" for lb_unmeasuredNone).
LB_API const char* lbUnmeasuredReasonText(lbUnmeasuredReason reason);

/// Radius (m) of a body segment's capsule, from the rig's measured lengths (docs/metrics.md). `side`
/// is lb_left or lb_right (ignored by the torso). 0 for bad input.
LB_API float lbMetricsSegmentRadius(const lbHumanoid* humanoid, lbMetricsSegment segment, int side);

/// The lying torso's parts as the metrics measure them (world space, m): the pelvis joint, the bend
/// point, the top joint (neck, or the last spine bone). The bend point is the point of the rest
/// pose's pelvis-to-top line nearest the spine joint 0.6 of the way up it (above the first spine
/// bone), carried by that spine bone. Writes out[0..2] and returns 3, or writes the pelvis and top
/// joints and returns 2 when the rig has no such spine bone; 0 on bad input.
LB_API int lbMetricsTorsoParts(const lbMetrics* metrics, const lbPose* pose, lbTransform characterWs, lbVec3 out[3]);

LB_EXTERN_C_END

/// @}
