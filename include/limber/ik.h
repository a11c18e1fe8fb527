// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
#pragma once

/// @file
/// Declarations of the @ref ik group.

/// @defgroup ik IK solvers: two-bone, FABRIK chain, full-body, aim and distribute rotation
/// Stateless solvers on caller memory; none allocates. All positions and rotations are in model
/// space (the character's space) unless a name says otherwise; lengths in meters, angles in
/// radians. Bone local axes are never assumed: bend axes and poles come from the bone positions,
/// from lbHumanoid or from the caller. Bad input (NULL, NaN/inf, zero-length bones, bad indices,
/// an input struct not made by its lbDefault* function) returns an error code, reports it through
/// the log hook and leaves every output untouched. "Unreachable" and "did not converge" are normal
/// outcomes reported in lbIkResult.
/// @{

#include "limber/humanoid.h"
#include "limber/math.h"
#include "limber/skeleton.h"

/// Outcome of a solve (lbIkResult::status). 0 means "not solved" (an error occurred).
typedef enum lbIkStatus
{
	/// The solver did not run (bad input); the pose is unchanged.
	lb_ikNotSolved = 0,
	/// The end effector(s) reached the target(s) within tolerance.
	lb_ikReached,
	/// A target lies outside what the chain can reach (or inside its minimum reach): best pose given.
	lb_ikUnreachable,
	/// The iteration cap was hit before the tolerance was met: best pose given.
	lb_ikNotConverged,
} lbIkStatus;

/// What a solve achieved.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbIkResult
{
	/// See lbIkStatus.
	lbIkStatus status;
	/// True when every weighted target was reached within tolerance.
	bool reached;
	/// Largest distance left between an end effector and its target after the solve (m, model
	/// space). Weights below 1 leave a distance by design.
	float remainingDistance;
	/// Iterations used (iterative solvers; 1 for the analytic two-bone solve).
	int iterations;
} lbIkResult;

/// How a pole is given.
typedef enum lbPoleKind
{
	/// No pole: the limb keeps its current bend plane (turned minimally toward the target).
	lb_poleNone = 0,
	/// The pole is a point (model space, m); the mid joint bends toward it.
	lb_poleLocation,
	/// The pole is a direction (model space); the mid joint bends that way.
	lb_poleDirection,
} lbPoleKind;

/// Input of the two-bone solver (analytic: law of cosines about a hinge). Make it with lbDefaultTwoBoneIkInput().
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbTwoBoneIkInput
{
	/// Target of the end joint (model space, m). Default zero.
	lbVec3 targetMs;
	/// Rotation given to the end bone (model space) when useTargetRotation. Default identity.
	lbQuat targetRotationMs;
	/// Whether the end bone takes targetRotationMs (blended by weight); otherwise it keeps its
	/// rotation relative to the mid bone. Default false.
	bool useTargetRotation;
	/// Pole kind. Default lb_poleNone.
	lbPoleKind poleKind;
	/// Pole location (m) or direction, model space, by poleKind. Default zero.
	lbVec3 poleMs;
	/// Hinge axis of the mid joint (model space): a positive rotation about it bends the limb. Zero
	/// = derive from the current bone positions (or from the pole when the limb is straight).
	/// lbPose_SolveLimbIk fills it from lbHumanoid. Default zero.
	lbVec3 hingeAxisMs;
	/// Direction the mid joint should point when the limb is straight and neither hinge axis nor
	/// pole is given (model space). Default zero (then any perpendicular is used).
	lbVec3 bendHintMs;
	/// Blend between the input pose (0) and the solved pose (1); clamped to [0, 1]. Default 1.
	float weight;
	/// Soft IK: fraction of the maximum reach (clamped to [0, 0.5]) over which the end approaches
	/// full extension smoothly instead of popping straight: beyond `D - s*D` the solved distance is
	/// `D - s*D + s*D*(1 - exp(-(d - D + s*D) / (s*D)))` (d target distance, D maximum reach).
	/// Targets inside that band are then not reached exactly. Default 0 (off).
	float soften;
	/// Allow the bones to lengthen (translating the mid and end joints) to reach. Default false.
	bool stretch;
	/// Largest stretch ratio (>= 1), used when stretch is on. Default 1.1.
	float maxStretch;
	/// Distance under which the target counts as reached (m). Default 1e-4.
	float tolerance;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbTwoBoneIkInput;

/// Most joints a FABRIK chain may have (bones + 1).
#define LB_FABRIK_MAX_JOINTS 64

/// Most rounds of a full-body solve: the first solves the body, each further one (run only while a
/// limb misses its goal) solves the body together with the limbs the rotation limits kept from
/// their goals.
#define LB_FULL_BODY_IK_ROUNDS 4

/// Input of the FABRIK chain solver. Make it with lbDefaultFabrikInput().
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbFabrikInput
{
	/// Target of the last joint (model space, m). Default zero.
	lbVec3 targetMs;
	/// Distance at which the target counts as reached and iterations stop (m). Default 1e-3.
	float tolerance;
	/// Iteration cap (one backward and one forward pass each), >= 1. Default 20.
	int maxIterations;
	/// Optional bend hint: lb_poleLocation (a point the inner joints bend toward) or
	/// lb_poleDirection. Default lb_poleNone.
	lbPoleKind bendHintKind;
	/// Bend hint location (m) or direction, model space. Default zero.
	lbVec3 bendHintMs;
	/// Whether the last joint takes targetRotationMs; otherwise it keeps its rotation relative to
	/// the bone before it. Default false.
	bool useTargetRotation;
	/// Rotation of the last joint (model space) when useTargetRotation. Default identity.
	lbQuat targetRotationMs;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbFabrikInput;

/// How a joint's rotation is limited (lbJointLimit::kind).
typedef enum lbJointLimitKind
{
	/// No limit.
	lb_limitNone = 0,
	/// Per-axis ranges: swing about the bend axis, swing about the side axis, twist.
	lb_limitRanges,
	/// Swing cone (half-angle swingMax) and a twist range.
	lb_limitCone,
} lbJointLimitKind;

/// Rotation limit of one joint, in the bone's anatomical axes derived from lbHumanoid (never raw
/// bone axes): `along` (the bone's direction), `bend` (the hinge or flexion axis: knee and elbow
/// hinge, the character's left for the spine) and `side` = along x bend. The rotation measured is
/// the bone's local rotation relative to its rest local rotation, split as swing * twist about
/// `along`; the swing's rotation vector gives the bend and side angles. Radians.
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbJointLimit
{
	/// Limit kind. lb_limitNone disables the limit.
	lbJointLimitKind kind;
	///@{
	/// Range of the swing about the bend axis (rad, lb_limitRanges); positive bends the joint.
	float bendMin, bendMax;
	///@}
	///@{
	/// Range of the swing about the side axis (rad, lb_limitRanges).
	float sideMin, sideMax;
	///@}
	/// Swing cone half-angle (rad, lb_limitCone).
	float swingMax;
	///@{
	/// Range of the twist about the along axis (rad, both kinds).
	float twistMin, twistMax;
	///@}
} lbJointLimit;

/// Effector slots of the full-body solver.
typedef enum lbEffectorSlot
{
	/// Left hand.
	lb_effectorHandL = 0,
	/// Right hand.
	lb_effectorHandR,
	/// Left foot.
	lb_effectorFootL,
	/// Right foot.
	lb_effectorFootR,
	/// Head.
	lb_effectorHead,
	/// Pelvis.
	lb_effectorPelvis,
	/// Number of effector slots (not a slot).
	lb_effectorCount
} lbEffectorSlot;

/// One full-body effector. Make it with lbDefaultFullBodyIkEffector() (off: both alphas 0).
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbFullBodyIkEffector
{
	/// Target position of the bone's joint (model space, m).
	lbVec3 targetMs;
	/// Target rotation of the bone (model space).
	lbQuat targetRotationMs;
	/// How far the bone goes from its input position toward targetMs, [0, 1] (clamped); the body
	/// moves as needed for the limbs to get there. 0 = effector off. Default 0.
	float positionAlpha;
	/// Blend of the bone's rotation toward targetRotationMs, [0, 1] (clamped). Default 0.
	float rotationAlpha;
	/// Limbs only: pole overriding the preferred bend direction. Default lb_poleNone.
	lbPoleKind poleKind;
	/// Pole location (m) or direction, model space.
	lbVec3 poleMs;
} lbFullBodyIkEffector;

/// Full-body solver settings. Make them with lbDefaultFullBodyIkDef().
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbFullBodyIkDef
{
	/// Body iterations (damped least squares steps) per round, >= 1; a round stops early once
	/// converged. At most LB_FULL_BODY_IK_ROUNDS rounds. Default 20.
	int iterations;
	/// Distance at which an effector counts as reached (m). Default 1e-3.
	float tolerance;
	/// Stiffness per role in [0, 1]: how much a body bone resists rotating (1 = never rotates).
	/// Used for lb_rolePelvis (rotation) and the spine roles. Limb bones are solved exactly and
	/// twist bones, clavicles, neck and ball bones never take rotation. Defaults: pelvis 0.3,
	/// spine 0.5.
	float stiffness[lb_roleCount];
	/// Stiffness of the pelvis translation, [0, 1] (1 = the pelvis never moves). Default 0.2.
	float pelvisTranslationStiffness;
	/// Rotation limit per role, relative to the rest pose, in anatomical axes. Defaults: thigh
	/// bend +-80 deg, side +-30, twist +-30 (a hip's comfortable range); calf bend 0..150 deg (never
	/// inverted), side +-2, twist +-20; foot cone 50 deg, twist +-25; upper arm cone 130 deg, twist
	/// +-90; forearm bend 0..150 deg, side +-2, twist +-90; hand cone 80 deg, twist +-30; each spine
	/// bone cone 25 deg, twist +-20. Others none.
	lbJointLimit limits[lb_roleCount];
	///@{
	/// Pelvis travel relative to its input position: largest drop along up (m; 0.02
	/// keeps it nearly level), largest rise, largest horizontal move. Defaults 0.35, 0.15, 0.35.
	float pelvisMaxSink, pelvisMaxRise, pelvisMaxHorizontal;
	///@}
	/// Largest pelvis rotation relative to its input (rad). Default 0.7.
	float pelvisMaxRotation;
	/// Fraction of a limb's length the body keeps each effector within, so limbs are never forced
	/// straight (the last bit is left to the analytic limb solve). Default 0.97.
	float reachFraction;
	/// Damping of the least-squares step (m^2). Default 1e-4.
	float damping;
	/// Model-space up for the pelvis travel limits; zero = the humanoid's up. Default zero.
	lbVec3 upMs;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbFullBodyIkDef;

/// Deprecated name of lbFullBodyIkDef (before 0.3); will be removed in 0.4.
typedef lbFullBodyIkDef lbFullBodyIkSettings;
/// Deprecated name of lbDefaultFullBodyIkDef (before 0.3); will be removed in 0.4.
#define lbDefaultFullBodyIkSettings lbDefaultFullBodyIkDef

/// Input of lbPose_AimBone (lbAimRotation applied to a bone). Make it with lbDefaultAimInput().
/// Thread-safety: plain data with no hidden state; a thread may use its own copy freely and share
/// one only for reading.
typedef struct lbAimInput
{
	/// Bone axis to aim, in the bone's local frame (for example lbLegAxes::toe). Default +X.
	lbVec3 primaryAxis;
	/// How primaryTargetMs is read: lb_poleDirection (default) or lb_poleLocation (a point to aim at).
	lbPoleKind primaryKind;
	/// Aim direction or point (model space). Default +X.
	lbVec3 primaryTargetMs;
	/// Secondary bone axis (local), turned about the primary as close as possible to its target;
	/// zero = no secondary (the shortest swing is used). Default zero.
	lbVec3 secondaryAxis;
	/// How secondaryTargetMs is read: lb_poleDirection (default) or lb_poleLocation.
	lbPoleKind secondaryKind;
	/// Secondary direction or point (model space). Default zero.
	lbVec3 secondaryTargetMs;
	/// Blend from the current rotation (0) to the aimed one (1); clamped to [0, 1]. Default 1.
	float weight;
	/// Whether the bone's descendants move with it (true, default) or stay where they are in model space.
	bool propagate;
	/// Used internally to detect a valid definition. DO NOT SET.
	int internalValue;
} lbAimInput;

/// How lbPose_DistributeRotation spreads a rotation along its bones.
typedef enum lbDistributeCurve
{
	/// Share grows linearly from 0 at the first bone to 1 at the last.
	lb_distributeLinear = 0,
	/// Smoothstep of the linear share (eased at both ends).
	lb_distributeEaseInOut,
	/// Share squared (small near the first bone).
	lb_distributeEaseIn,
	/// 1 - (1 - share)^2 (large early).
	lb_distributeEaseOut,
} lbDistributeCurve;

LB_EXTERN_C_BEGIN

/// Default two-bone input: weight 1, no pole, no soften, no stretch (max 1.1), tolerance 1e-4 m.
LB_API lbTwoBoneIkInput lbDefaultTwoBoneIkInput(void);

/// Two-bone IK on three model-space joint transforms (root, mid, end), updated in place. The mid
/// joint turns about its hinge axis to get the distance right (law of cosines generalised to a
/// hinge), then the root swings the chain onto the target and twists it about the root-target
/// line toward the pole. Unreachable targets give a straight limb pointing at the target; a target
/// at the root folds the limb without swinging it (a pole still twists it); a pole on the root-target line
/// keeps the current bend plane. Scale is kept (model-space bone lengths are the distances
/// between the joints). Returns lb_errorNullPointer, lb_errorDefNotInitialized, lb_errorNonFinite
/// or lb_errorDegenerate (a bone of zero length, or of 1e9 m or more), leaving the transforms
/// unchanged; outResult may be NULL. Thread-safe on distinct data.
LB_API lbResult lbSolveTwoBoneIk(lbTransform* rootMs, lbTransform* midMs, lbTransform* endMs,
								 const lbTwoBoneIkInput* input, lbIkResult* outResult);

/// Two-bone IK on a pose: `root` must be an ancestor of `mid` and `mid` of `end` (bones between
/// them are carried along). Model and local transforms of the bones and their descendants are
/// updated. Errors as lbSolveTwoBoneIk plus lb_errorSkeletonMismatch, lb_errorBoneNotFound and
/// lb_errorInvalidArgument (`root` 1e15 m or more from its parent in the model pose); the pose is
/// unchanged on error.
LB_API lbResult lbPose_SolveTwoBoneIk(lbPose* pose, const lbSkeleton* skeleton, int root, int mid, int end,
									  const lbTwoBoneIkInput* input, lbIkResult* outResult);

/// Hinge axis (model space, unit) of a limb in a pose: the derived hinge carried by the root bone.
LB_API lbVec3 lbLimbChain_HingeMs(const lbLimbChain* chain, const lbPose* pose);

/// Pole direction (model space, unit) of a limb in a pose: where the elbow/knee points.
LB_API lbVec3 lbLimbChain_PoleMs(const lbLimbChain* chain, const lbPose* pose);

/// Two-bone IK on a humanoid limb: as lbPose_SolveTwoBoneIk with the limb's bones, and with the
/// hinge axis (when input->hingeAxisMs is zero) and bend hint (when zero) taken from lbHumanoid,
/// so the knee or elbow always bends the anatomical way.
LB_API lbResult lbPose_SolveLimbIk(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid, lbLimb limb,
								   const lbTwoBoneIkInput* input, lbIkResult* outResult);

/// Default FABRIK input: tolerance 1 mm, 20 iterations, no bend hint, end keeps its local rotation.
LB_API lbFabrikInput lbDefaultFabrikInput(void);

/// FABRIK (Aristidou and Lasenby 2011) on `jointCount` model-space joint transforms, joint i + 1
/// being the child of joint i; joint 0 stays in place. Bone lengths are the distances between
/// joints and are kept. The passes start from an initial guess: the chain turned rigidly about its
/// root toward the target, with its bend scaled (by bisection) so its end is as far from the root
/// as the target; they then iterate until the last joint is within tolerance (early exit; 0
/// iterations when the guess is already there) or the cap. A target beyond the chain's length
/// gives a straight chain toward it in one pass. Rotations are rebuilt from the new joint
/// positions with the shortest swing from each bone's old direction to its new one, so each bone
/// keeps its twist. jointCount in [3, LB_FABRIK_MAX_JOINTS]. Returns lb_errorNullPointer,
/// lb_errorInvalidArgument, lb_errorDefNotInitialized, lb_errorNonFinite or lb_errorDegenerate
/// (a bone of zero length, or of 1e9 m or more), leaving the joints unchanged. outResult (may be
/// NULL) gets the iterations (backward + forward passes) and the final error (at most FLT_MAX).
LB_API lbResult lbSolveFabrik(lbTransform* jointsMs, int jointCount, const lbFabrikInput* input, lbIkResult* outResult);

/// FABRIK on a pose: `bones` lists `count` bones from the chain root to the end, each an ancestor
/// of the next (bones in between are carried along). Errors as lbSolveFabrik plus
/// lb_errorSkeletonMismatch and lb_errorBoneNotFound; the pose is unchanged on error.
LB_API lbResult lbPose_SolveFabrik(lbPose* pose, const lbSkeleton* skeleton, const int* bones, int count,
								   const lbFabrikInput* input, lbIkResult* outResult);

/// Default full-body settings (see each field).
LB_API lbFullBodyIkDef lbDefaultFullBodyIkDef(void);

/// An effector that is off (alphas 0, identity rotation, no pole).
LB_API lbFullBodyIkEffector lbDefaultFullBodyIkEffector(void);

/// Bytes of workspace lbSolveFullBodyIk needs for this skeleton.
LB_API size_t lbGetFullBodyIkWorkspaceSize(const lbSkeleton* skeleton);

/// Full-body IK for a humanoid (root = pelvis). `effectors` has lb_effectorCount entries (hands,
/// feet, head, pelvis). The body (pelvis translation and rotation, spine bending distributed by
/// stiffness) is solved by damped least squares so every active limb effector ends within reach
/// of its shoulder or hip, the head and pelvis effectors are pulled to their targets, and the body
/// stays as close to the input pose as stiffness asks; then each active limb is solved exactly by
/// two-bone IK with the knee or elbow bending its anatomical way toward the preferred pole, the
/// swivel angle chosen to respect the rotation limits, and the limits enforced. A limb the limits
/// keep from its goal is then held: its root rotation and mid bend join the body's unknowns, kept
/// inside their limits, and body and limb are solved again together (up to
/// LB_FULL_BODY_IK_ROUNDS rounds; the round with the smallest largest limb error is kept).
/// Effectors at alpha 1 whose targets are reachable together are reached together. outResult
/// iterations: body steps summed over the rounds. Deterministic. The workspace
/// (lbGetFullBodyIkWorkspaceSize bytes, aligned for lbTransform, e.g. from malloc) is caller
/// memory; nothing is allocated. Besides scratch it keeps what the solve derives from the
/// skeleton, humanoid and settings, made again when those differ from the last call's, so give
/// each character (or thread) its own workspace and reuse it every frame; zero it after changing
/// a skeleton's rest arrays in place (or freeing one and making another at the same addresses). Returns lb_errorNullPointer, lb_errorDefNotInitialized, lb_errorNonFinite,
/// lb_errorInvalidArgument (also a misaligned workspace), lb_errorCapacity (workspace too small), lb_errorSkeletonMismatch or
/// lb_errorDegenerate (zero-length limb bone); the pose is unchanged on error.
LB_API lbResult lbSolveFullBodyIk(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* humanoid,
								  const lbFullBodyIkDef* settings, const lbFullBodyIkEffector* effectors,
								  void* workspace, size_t workspaceSize, lbIkResult* outResult);

/// Clamps a bone's local rotation to a limit. `reference` is the local rotation the limit is
/// measured from and along and bend the anatomical axes in the bone's frame (all from
/// lbHumanoid_GetLimitAxes). Returns `local` unchanged when it is within the limit.
LB_API lbQuat lbClampToJointLimit(const lbJointLimit* limit, lbQuat reference, lbVec3 along, lbVec3 bend,
								  lbQuat local);

/// Default aim input: aim local +X along model +X, no secondary, weight 1, children follow.
LB_API lbAimInput lbDefaultAimInput(void);

/// Rotates a bone (about its joint) so its local primary axis points along the target direction
/// (or at the target point) and its secondary axis turns toward the secondary target, blended by
/// weight; wraps lbAimRotation. Mirrored (negatively scaled) bones are handled: the local axes are
/// taken as they appear in model space. Returns lb_errorNullPointer, lb_errorDefNotInitialized,
/// lb_errorSkeletonMismatch, lb_errorBoneNotFound, lb_errorNonFinite, lb_errorInvalidArgument (unknown
/// kind, the bone 1e15 m or more from its parent in the model pose, or without `propagate` a child so
/// far from the bone that its new local transform would not be finite) or lb_errorDegenerate (zero
/// primary axis or target direction); the pose is unchanged then.
LB_API lbResult lbPose_AimBone(lbPose* pose, const lbSkeleton* skeleton, int bone, const lbAimInput* input);

/// Spreads a local rotation over an ordered list of bones (for example forearm twist 02, twist 01,
/// hand): bone i of n gets the fraction f(i / (n - 1)) * weight of `rotationLocal` (slerp from
/// identity; f from `curve`, 0 at the first bone and 1 at the last; a single bone gets it all),
/// applied in its own local frame after its current local rotation, so an axis-angle rotation about
/// a bone-local axis turns each bone about that axis. Model transforms of the bones and their
/// descendants are updated. Bones need not be a chain. Returns lb_errorNullPointer,
/// lb_errorSkeletonMismatch, lb_errorBoneNotFound, lb_errorInvalidArgument (count < 1 or unknown
/// curve) or lb_errorNonFinite; the pose is unchanged then.
LB_API lbResult lbPose_DistributeRotation(lbPose* pose, const lbSkeleton* skeleton, const int* bones, int count,
										  lbQuat rotationLocal, lbDistributeCurve curve, float weight);

LB_EXTERN_C_END

/// @}
