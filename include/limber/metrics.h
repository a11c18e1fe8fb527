// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @defgroup metrics Quality metrics
/// Measures how good a sequence of poses is: contact drift, foot penetration and hover, knee and
/// elbow inversions, joint limit violations, pose pops, palm-to-wall angle and non-finite frames.
/// Every metric is defined precisely in docs/metrics.md. Feed one frame at a time with
/// lbMetrics_AddFrame; read per-frame values from its output and the running summary with
/// lbMetrics_GetSummary. The accumulator owns no world: surface distances come from a caller
/// probe function, so any scene query (or an analytic plane in tests) can answer.
/// @{

#include "limber/humanoid.h"
#include "limber/skeleton.h"

/// What a contact is held by.
typedef enum lbContactKind
{
	lb_contactFoot = 0,
	lb_contactHand = 1,
	lb_contactBody = 2,
} lbContactKind;

/// A contact a system keeps with the world in one frame.
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
typedef struct lbMetricsDef
{
	/// Skeleton of the poses (not copied; must outlive the accumulator). Default NULL (required).
	const lbSkeleton* skeleton;
	/// Humanoid map of the skeleton (copied). Default NULL (required).
	const lbHumanoid* humanoid;
	/// World up (unit). Default +Z.
	lbVec3 upWs;
	/// Surface probe for penetration and hover; NULL disables those two metrics. Default NULL.
	lbSurfaceProbeFcn* probe;
	/// Context passed to the probe. Default NULL.
	void* probeContext;
	/// A foot counts as planted while its sole point moves slower than this (world, m/s). Default 0.25.
	float plantedSpeed;
	/// Probe casts start this far above the sole point along the surface side (m). Default 0.5.
	float probeLift;
	/// Probe cast length (m). Default 1.5.
	float probeLength;
	/// Signed hinge angle below which a knee or elbow counts as inverted (deg, <= 0). Default -2.
	float inversionToleranceDeg;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbMetricsDef;

/// One frame handed to the accumulator.
typedef struct lbMetricsFrame
{
	/// Pose of the character (model space); must match the skeleton.
	const lbPose* pose;
	/// Model-to-world transform of the character.
	lbTransform characterWs;
	/// Contacts the active system reports this frame (may be NULL with count 0).
	const lbContact* contacts;
	int contactCount;
	/// False while the character is airborne or rolling: feet are then never "planted".
	bool grounded;
	/// True when the character was placed anew this frame (teleport, reset): pose pop and foot
	/// speed skip this frame.
	bool reset;
	/// Frame time step (s, > 0).
	float dt;
} lbMetricsFrame;

/// Per-frame values. Distances in m, angles in degrees; -1 means "not measured this frame".
typedef struct lbFrameMetrics
{
	float contactDrift;
	float penetration;
	float hover;
	float palmWallAngle;
	float posePopDeg;
	float posePopM;
	/// Signed knee and elbow hinge angles (deg, positive = anatomical flexion), left then right.
	float kneeAngle[2];
	float elbowAngle[2];
	bool kneeInverted;
	bool elbowInverted;
	/// Number of joints outside their limits this frame.
	int limitViolations;
	/// True when any input value (pose, transform, contact) is non-finite.
	bool nonFinite;
	/// Planted flag per foot (left, right).
	bool planted[2];
} lbFrameMetrics;

/// Summary over all frames added so far. Maxima of metrics never measured are -1.
typedef struct lbMetricsSummary
{
	int frames;
	float contactDriftMax;
	float penetrationMax;
	float hoverMax;
	float palmWallAngleMax;
	float posePopMax;
	float posePopMaxM;
	int kneeInversions;
	int elbowInversions;
	int limitViolations;
	int nanFrames;
	int plantedFootFrames;
	int lockedContactFrames;
} lbMetricsSummary;

/// The accumulator (opaque).
typedef struct lbMetrics lbMetrics;

LB_EXTERN_C_BEGIN

/// Default def: +Z up, no probe, planted below 0.25 m/s, probe from 0.5 m above over 1.5 m,
/// inversion tolerance -2 degrees.
LB_API lbMetricsDef lbDefaultMetricsDef(void);

/// Creates an accumulator; NULL on bad input (missing skeleton or humanoid, missing cookie,
/// non-unit up), reported through the log hook. No reference to the def is kept.
LB_API lbMetrics* lbCreateMetrics(const lbMetricsDef* def);

/// Frees an accumulator (NULL allowed).
LB_API void lbDestroyMetrics(lbMetrics* metrics);

/// Measures one frame, writes its values to outFrame (may be NULL) and updates the summary.
/// A non-finite frame counts in nan_frames and is otherwise skipped (the previous frame stays the
/// reference for pose pops). Returns lb_errorNullPointer / lb_errorSkeletonMismatch on bad input.
LB_API lbResult lbMetrics_AddFrame(lbMetrics* metrics, const lbMetricsFrame* frame, lbFrameMetrics* outFrame);

/// Summary of every frame added so far.
LB_API lbMetricsSummary lbMetrics_GetSummary(const lbMetrics* metrics);

/// Signed hinge angle (deg) of a three-joint chain a-b-c (world or model points) about `hingeAxis`:
/// the angle from direction b-a to direction c-b, positive when the turn is a positive rotation
/// about the axis. 0 for a straight chain.
LB_API float lbSignedHingeAngle(lbVec3 a, lbVec3 b, lbVec3 c, lbVec3 hingeAxis);

/// World position of a foot's sole point: the ankle moved down its derived foot-up axis by the
/// derived ankle height. `side` is lb_left or lb_right.
LB_API lbVec3 lbSolePointWs(const lbHumanoid* humanoid, const lbPose* pose, lbTransform characterWs, int side);

LB_EXTERN_C_END

/// @}
