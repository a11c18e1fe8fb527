// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Runs a scenario: a simple character controller (position, heading, velocity, state, gravity)
// driven by the timeline, the base motion, the system's sense and pose stages, and the metrics.
#define _POSIX_C_SOURCE 199309L
#include "scenario_run.h"

#include "limber/import.h"
#include "limber/motion.h"
#include "limber/query.h"
#include "limber/rigs.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double lbNowUs(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1.0e6 + (double)ts.tv_nsec * 1.0e-3;
}

// Gravity along -up (m/s^2) and how long the landing state lasts before grounded (s).
#define LB_GRAVITY 9.81f
#define LB_LANDING_TIME 0.2f
// Step height (m) for gaps and walls: a gap's edges within it of the character's height are walked
// across, and a wall higher than it above the ground probe's start holds the character.
#define LB_STEP_HEIGHT 0.35f
// Room (a share of the character's height) under a solid's underside above a start in free air
// that keeps the character on the floor below it: enough for a crouch.
#define LB_START_CROUCH_ROOM 0.5f
// Highest drop a grounded character steps down rather than falls, in leg lengths (thigh + calf):
// with the trailing foot still on the upper level, its knee bent to about 90 degrees lowers the
// hip by about 0.3 leg lengths while the leading leg, nearly straight and reaching down on its
// toes, gives the other 0.3. That is 0.50 m for the reference rigs' 0.84 m legs: people step down
// from a 0.5 m ledge or a table-high platform; higher than that they jump. Never less than
// LB_STEP_HEIGHT. The support (lbSupportHeight) looks across rises up to the same height, so the
// body starts up a high step (out of a trench) as the leading foot heads for it.
#define LB_STEP_DOWN_LEGS 0.6f
// Speed (1/s) at which a grounded character eases out a jump in its support height (a support
// point crossing a step's edge or becoming unsteppable): a whole riser is spread over frames.
#define LB_STEP_SMOOTHING 10.0f
// Steepest climb or descent (rise over run) the height follows at once as the support moves: a
// support height that changes faster than the character's speed times this (plus a margin for
// the gait's own bob, m/s) changes with a jump, which is eased out instead.
#define LB_STEP_FOLLOW_SLOPE 1.2f
#define LB_STEP_FOLLOW_MARGIN 0.6f
// Window (m) along the way of travel over which the ground under a support point is averaged,
// and its samples: a flight of stairs becomes the line through its risers' middles (for treads
// up to about the window), an edge a ramp across the window, so the height moves continuously.
#define LB_SUPPORT_WINDOW 0.3f
#define LB_SUPPORT_SAMPLES 7
// On a flight up with risers from LB_RIDE_FROM to LB_RIDE_FULL leg lengths (0.25-0.30 m for 0.84 m
// legs) and steeper, a walking character's height rides from the mean of its feet's grounds toward the
// higher one's by up to LB_RIDE_WEIGHT, as people climb steep stairs: the body over the leading
// foot, the trailing leg reaching down. At the mean the leading leg folds by half a riser more than
// the gait's own bend, its thigh level and its knee 8-16 cm into the step above (walking up 0.31-0.35
// m risers), and the trailing leg stretches for the other half. A run's height stays at the mean:
// its flight phase lifts it, and riding it moved it 0.19 m off the stair line for 2 of 200 runs
// up fewer over a limit.
#define LB_RIDE_FROM 0.30f
#define LB_RIDE_FULL 0.36f
#define LB_RIDE_WEIGHT 0.75f
// Heading follows the velocity direction at this turn rate (rad/s).
#define LB_TURN_RATE (2.0f * LB_PI)

static lbVec3 lbHeadingDirection(const lbRun* run, float headingDeg)
{
	lbVec3 f = lbWorldReferenceForward(run->upWs);
	return lbQuatRotate(lbQuatFromAxisAngle(run->upWs, headingDeg * LB_DEG2RAD), f);
}

static void lbUpdateCharacterTransform(lbRun* run)
{
	const lbHumanoid* h = &run->humanoid;
	lbQuat q = lbQuatFromTwoAxes(h->upMs, run->upWs, h->forwardMs, lbHeadingDirection(run, run->headingDeg));
	// The model frame sits on the ground at the controller's position; the base pose is shifted
	// so that its soles stand on the model origin (lbShiftToFloor).
	run->ctx.characterWs = lbMakeTransform(run->position, q);
}

// Ground height (along up) near p while moving: the first surface from 1 m above p down to 2 m
// below it, a window wide enough for a riser up or a step down in one frame.
static float lbGroundHeightAt(const lbRun* run, lbVec3 p, bool* outFound)
{
	lbVec3 hit, normal;
	lbVec3 origin = lbMulAdd(p, 1.0f, run->upWs);
	*outFound = lbRunWorldProbe(run->world, origin, lbNeg(run->upWs), 3.0f, &hit, &normal);
	return *outFound ? lbDot(hit, run->upWs) : 0.0f;
}

// Highest and lowest extent of the world's shapes along up (m); false for an empty world.
static bool lbWorldSpanAlongUp(const lbRun* run, float* outTop, float* outBottom)
{
	const lbWorld* world = (const lbWorld*)lbRunWorld_GetQueryWorld(run->world);
	lbVec3 lo, hi;
	lbWorld_GetBounds(world, &lo, &hi);
	if (!(lo.x <= hi.x))
		return false;
	*outTop = -1.0e30f;
	*outBottom = 1.0e30f;
	for (int k = 0; k < 8; ++k)
	{
		lbVec3 c = { (k & 1) ? hi.x : lo.x, (k & 2) ? hi.y : lo.y, (k & 4) ? hi.z : lo.z };
		float h = lbDot(c, run->upWs);
		*outTop = lbMaxF(*outTop, h);
		*outBottom = lbMinF(*outBottom, h);
	}
	return true;
}

// Margin (m) beyond the world's bounds for casts that must see every surface.
#define LB_WORLD_CAST_MARGIN 1.0f

// The first ground met coming down from above the whole world over p's place: where a character
// started at p stands. A start under a slope or inside a box ends up on top of it rather than on
// whatever lies just below the start point.
static float lbTopGroundAt(const lbRun* run, lbVec3 p, bool* outFound)
{
	float top, bottom;
	*outFound = false;
	if (!lbWorldSpanAlongUp(run, &top, &bottom))
		return 0.0f;
	lbVec3 hit, normal;
	lbVec3 origin = lbMulAdd(p, top + LB_WORLD_CAST_MARGIN - lbDot(p, run->upWs), run->upWs);
	float length = top - bottom + 2.0f * LB_WORLD_CAST_MARGIN;
	*outFound = lbRunWorldProbe(run->world, origin, lbNeg(run->upWs), length, &hit, &normal);
	return *outFound ? lbDot(hit, run->upWs) : 0.0f;
}

// The first surface coming down from a start point p's own height (a little above, so a surface p
// lies exactly on counts), for a p in free air under whatever is above it. False when p starts
// inside a solid, less than a character's height under a surface, under an open surface (the
// first surface above it has no solid behind it: a slope's or a terrain's surface seen from
// below), or when nothing lies below it. Under an overhang the first surface above is the
// underside of a solid well over the head, and p stands on the ground below it.
static bool lbStartGroundAt(const lbRun* run, lbVec3 p, float* outHeight)
{
	float top, bottom;
	if (!lbWorldSpanAlongUp(run, &top, &bottom))
		return false;
	const float height = lbDot(p, run->upWs);
	if (height < bottom)
		return false;
	const float above = 0.05f;
	lbQueryInput in = lbDefaultQueryInput();
	in.start = lbMulAdd(p, above, run->upWs);
	in.end = lbMulAdd(in.start, -(height - bottom + above + LB_WORLD_CAST_MARGIN), run->upWs);
	in.channelMask = LB_CHANNEL_ALL & ~LB_CHANNEL_CHARACTER;
	const lbWorld* world = (const lbWorld*)lbRunWorld_GetQueryWorld(run->world);
	if (!world)
		return false;
	const lbHit hit = lbWorld_RayCast(world, &in);
	if (!hit.hit || hit.startedInside)
		return false;
	lbQueryInput upIn = in;
	upIn.end = lbMulAdd(in.start, top - height + LB_WORLD_CAST_MARGIN, run->upWs);
	const lbHit over = lbWorld_RayCast(world, &upIn);
	if (over.hit)
	{
		// Started a little under a surface (less than half a character's height, as under a step or
		// a low slab given from the ground): the character goes on top of it. With room for at
		// least a crouch, the start means the floor: a climber under an overhang whose face leans
		// over its head, lower than the character is tall, still starts on the floor below it.
		if (over.startedInside || lbDistance(over.impactPoint, in.start) < LB_START_CROUCH_ROOM * run->humanoid.height)
			return false;
		// Just past the surface above: inside a solid (an overhang's underside) or not (an open
		// surface seen from below).
		lbQueryInput past = lbDefaultQueryInput();
		past.start = lbMulAdd(over.impactPoint, 0.01f, run->upWs);
		past.end = lbMulAdd(past.start, 0.001f, run->upWs);
		past.channelMask = in.channelMask;
		const lbHit behind = lbWorld_RayCast(world, &past);
		if (!(behind.hit && behind.startedInside))
			return false;
	}
	*outHeight = lbDot(hit.impactPoint, run->upWs);
	return true;
}

// True when some surface lies anywhere below p (down to the bottom of the world), or p is just on one.
static bool lbAnyGroundBelow(const lbRun* run, lbVec3 p)
{
	float top, bottom;
	if (!lbWorldSpanAlongUp(run, &top, &bottom))
		return false;
	float height = lbDot(p, run->upWs);
	if (height < bottom)
		return false;
	// Start a little above p so a surface the character stands exactly on still counts.
	const float above = 0.05f;
	lbVec3 hit, normal;
	lbVec3 origin = lbMulAdd(p, above, run->upWs);
	float length = height - bottom + above + LB_WORLD_CAST_MARGIN;
	return lbRunWorldProbe(run->world, origin, lbNeg(run->upWs), length, &hit, &normal);
}

// Shortest reach (m) over a gap, for a character stepping in place or slower than its gait's
// minimum cadence: about one short step.
#define LB_GAP_MIN_REACH 0.35f

// The character's leg length (m, thigh + calf), which the controller's steps are measured in.
static float lbRunLegLength(const lbRun* run)
{
	const lbLegAxes* leg = &run->humanoid.legAxes[0];
	return leg->thighLength + leg->calfLength;
}

// How far (m) a character moving at `speed` (m/s) reaches over a gap in one step: half its stride
// at that speed (lbGaitStride, a walk or a run by the motion's name), at least LB_GAP_MIN_REACH.
static float lbStepReach(const lbRun* run, float speed)
{
	float stride = 0.0f;
	lbGaitStride(speed, lbRunLegLength(run), strcmp(run->motionEntry->name, "run") == 0, &stride, NULL);
	return lbMaxF(LB_GAP_MIN_REACH, 0.5f * stride);
}

// When the ground under the character's centre drops away, true if there is ground it can step
// on (within a step of `height`) both ahead and behind along `dir` within `reach`: a gap its feet
// straddle, which a walker crosses at its height instead of dipping into it. *outGround is the
// mean height of the two edges.
static bool lbBridgesGap(const lbRun* run, lbVec3 dir, float reach, float height, float* outGround)
{
	// Probes every 5 cm at most; this runs only on frames where the ground drops away.
	int n = (int)ceilf(reach / 0.05f);
	n = n < 1 ? 1 : (n > 32 ? 32 : n);
	float edge[2];
	for (int side = 0; side < 2; ++side)
	{
		bool got = false;
		for (int i = 1; i <= n && !got; ++i)
		{
			float along = (side == 0 ? 1.0f : -1.0f) * reach * (float)i / (float)n;
			bool found;
			float g = lbGroundHeightAt(run, lbMulAdd(run->position, along, dir), &found);
			if (found && lbAbsF(g - height) <= LB_STEP_HEIGHT)
			{
				edge[side] = g;
				got = true;
			}
		}
		if (!got)
			return false;
	}
	*outGround = 0.5f * (edge[0] + edge[1]);
	return true;
}

// Highest drop (m) the character steps down rather than falls, and highest rise its support looks
// across (LB_STEP_DOWN_LEGS).
static float lbStepDownHeight(const lbRun* run)
{
	return lbMaxF(LB_STEP_HEIGHT, LB_STEP_DOWN_LEGS * lbRunLegLength(run));
}

// True when the ground along the straight path from `from` to `to` (world, probed every 0.1 m
// at most) has no rise or drop higher than lbStepDownHeight; *outGround is the ground height at
// `to`.
static bool lbSteppableTo(const lbRun* run, lbVec3 from, float groundFrom, lbVec3 to, float* outGround)
{
	lbVec3 d = lbProjectOnPlane(lbSub(to, from), run->upWs);
	int n = (int)ceilf(lbLength(d) / 0.1f);
	n = n < 1 ? 1 : (n > 24 ? 24 : n);
	const float down = lbStepDownHeight(run);
	float prev = groundFrom;
	for (int i = 1; i <= n; ++i)
	{
		bool found;
		float g = lbGroundHeightAt(run, lbMulAdd(from, (float)i / (float)n, d), &found);
		if (!found || g - prev > down || prev - g > down)
			return false;
		prev = g;
	}
	*outGround = prev;
	return true;
}

// Ground height at p for lbGroundAround: *outUsed is false where there is no ground or it is further
// from `ground` than lbStepDownHeight (a gap, a wall, a ledge to fall from).
static float lbWindowGround(const lbRun* run, lbVec3 p, float ground, float down, bool* outUsed)
{
	bool found;
	float g = lbGroundHeightAt(run, p, &found);
	*outUsed = found && g - ground <= down && ground - g <= down;
	return g;
}

// Ground height (along up) at p averaged over LB_SUPPORT_WINDOW along `way`, leaving out ground
// that is missing or further from `ground` (the height at p itself) than a step. The ground is
// sampled every few cm and taken as constant between a step's edges, which are found by bisection,
// so the average moves continuously as p moves (a flight of stairs gives the line through its
// risers' middles, an edge a ramp across the window) rather than in jumps of a sample's share of a
// riser. p is at the character's height.
static float lbGroundAround(const lbRun* run, lbVec3 p, float ground, lbVec3 way)
{
	const float down = lbStepDownHeight(run);
	const int n = LB_SUPPORT_SAMPLES - 1;
	const float spacing = LB_SUPPORT_WINDOW / (float)n;
	lbVec3 first = lbMulAdd(p, -0.5f * LB_SUPPORT_WINDOW, way);
	float sum = 0.0f, length = 0.0f;
	bool usedA;
	float a = lbWindowGround(run, first, ground, down, &usedA);
	for (int i = 0; i < n; ++i)
	{
		lbVec3 start = lbMulAdd(first, spacing * (float)i, way);
		bool usedB;
		float b = lbWindowGround(run, lbMulAdd(start, spacing, way), ground, down, &usedB);
		if (usedA && usedB && lbAbsF(a - b) <= 0.02f)
		{
			// Even or gently sloping ground: the trapezoid.
			sum += 0.5f * (a + b) * spacing;
			length += spacing;
		}
		else if (usedA || usedB)
		{
			// An edge between the samples: bisect for it (to under 5 mm), then each side keeps
			// its sample's height.
			float lo = 0.0f, hi = spacing;
			for (int k = 0; k < 4; ++k)
			{
				float mid = 0.5f * (lo + hi);
				bool usedM;
				float m = lbWindowGround(run, lbMulAdd(start, mid, way), ground, down, &usedM);
				bool likeA = usedM == usedA && (!usedM || !usedB || lbAbsF(m - a) <= lbAbsF(m - b));
				if (likeA)
					lo = mid;
				else
					hi = mid;
			}
			float edge = 0.5f * (lo + hi);
			if (usedA)
			{
				sum += a * edge;
				length += edge;
			}
			if (usedB)
			{
				sum += b * (spacing - edge);
				length += spacing - edge;
			}
		}
		a = b;
		usedA = usedB;
	}
	return length > 1.0e-4f ? sum / length : ground;
}

// Ground a support point stands for: the ground around it (lbGroundAround) when the character
// can step there from where it is, else the ground under the character.
static float lbSupportGround(const lbRun* run, lbVec3 point, float groundBelow, lbVec3 way)
{
	float height = lbDot(run->position, run->upWs);
	lbVec3 p = lbMulAdd(point, height - lbDot(point, run->upWs), run->upWs);
	float g;
	if (!lbSteppableTo(run, run->position, groundBelow, p, &g))
		return groundBelow;
	return lbGroundAround(run, p, g, way);
}

// Height (world, along up) a grounded character stands at: the mean of its two feet's support
// heights when the motion steps, else the ground under the character. A planted foot's support
// is the ground where it stands; a swinging foot's moves from the ground it lifted from to the
// ground where it will land as the foot travels between them, so the height changes continuously
// when a foot lifts (its support point leaps a stride ahead) and when it lands. Each ground is
// averaged over a window along the way (lbGroundAround), so the height runs along the line of a
// flight of stairs at the rate the support climbs it, with no lag, and a step down starts as the
// leading foot heads for the lower level. A support point beyond an edge higher than a step (a
// wall, a gap, a ledge to fall from) is not stepped on: the ground under the character counts
// instead. `motionWs` is the motion's character transform of this frame (its feet in `run->pose`).
static float lbSupportHeight(lbRun* run, float groundBelow, lbTransform motionWs, lbVec3 way)
{
	lbVec3 support[2];
	if (!run->motionEntry->support || !run->motionEntry->support(run->motion, support))
	{
		run->supportValid = false;
		return groundBelow;
	}
	const lbVec3 up = run->upWs;
	// The motion places its support points for its own pose; the runner moved that pose across by
	// the rest pelvis's offset (lbShiftToFloor), and the points move with it.
	const lbVec3 across = lbQuatRotate(motionWs.q, lbProjectOnPlane(run->restOffset, run->humanoid.upMs));
	float sum = 0.0f, ground[2];
	for (int side = 0; side < 2; ++side)
	{
		support[side] = lbSub(support[side], across);
		// A planted foot's support point holds still across the ground plane; a swinging foot's
		// moves with the character (its landing place) and leaps ahead when the foot lifts.
		lbVec3 moved = lbProjectOnPlane(lbSub(support[side], run->supportPrev[side]), up);
		bool planted = !run->supportValid || lbLength(moved) < 1.0e-3f;
		float g = lbSupportGround(run, support[side], groundBelow, way);
		if (planted)
		{
			run->supportLift[side] = support[side];
			run->supportLiftGround[side] = g;
		}
		else
		{
			// Progress of the swing: the foot's place between where it lifted and where it lands.
			int foot = run->humanoid.leg[side].foot;
			lbVec3 footWs = lbTransformPoint(motionWs, run->pose.model[foot].p);
			lbVec3 span = lbProjectOnPlane(lbSub(support[side], run->supportLift[side]), up);
			lbVec3 done = lbProjectOnPlane(lbSub(footWs, run->supportLift[side]), up);
			float span2 = lbDot(span, span);
			float k = span2 > 1.0e-4f ? lbClampF(lbDot(done, span) / span2, 0.0f, 1.0f) : 1.0f;
			g = lbLerpF(run->supportLiftGround[side], g, k);
		}
		run->supportPrev[side] = support[side];
		ground[side] = g;
		sum += g;
	}
	run->supportValid = true;
	// On a steep flight up the body rides toward the higher foot's ground (LB_RIDE_WEIGHT), as the
	// ground ahead rises.
	const float steep = lbClampF((run->flightRiser / lbRunLegLength(run) - LB_RIDE_FROM) / (LB_RIDE_FULL - LB_RIDE_FROM), 0.0f, 1.0f);
	if (steep > 0.0f)
	{
		bool foundAhead, foundBehind;
		const float ahead = lbGroundHeightAt(run, lbMulAdd(run->position, 0.5f, way), &foundAhead);
		const float behind = lbGroundHeightAt(run, lbMulAdd(run->position, -0.5f, way), &foundBehind);
		const float rising = foundAhead && foundBehind ? lbClampF((ahead - behind) / 0.5f, 0.0f, 1.0f) : 0.0f;
		return lbLerpF(0.5f * sum, lbMaxF(ground[0], ground[1]), LB_RIDE_WEIGHT * steep * rising);
	}
	return 0.5f * sum;
}

lbResult lbRun_ApplyInput(lbRun* run, const lbScenarioEvent* in)
{
	if (!run || !in)
		return lbReport(lb_errorNullPointer, "lbRun_ApplyInput: run and input are required");
	if (!lbIsValidVec3(in->vector) || !lbIsValidFloat(in->value))
		return lbReport(lb_errorNonFinite, "lbRun_ApplyInput: non-finite %s input ignored", lbInputKindName(in->kind));
	switch (in->kind)
	{
		case lb_inputVelocity:
			run->desiredVelocity = lbProjectOnPlane(in->vector, run->upWs);
			break;
		case lb_inputHeading:
			run->headingDeg = in->value;
			break;
		case lb_inputState:
			if ((int)in->state < 0 || in->state >= lb_stateCount)
				return lbReport(lb_errorInvalidArgument, "lbRun_ApplyInput: bad state %d", (int)in->state);
			run->ctx.state = in->state;
			run->stateTime = 0.0f;
			break;
		case lb_inputTeleport:
			run->position = in->vector;
			run->verticalSpeed = 0.0f;
			run->resetPending = true;
			run->stepOffsetValid = false;
			run->supportValid = false;
			break;
		case lb_inputJump:
			if (run->ctx.state == lb_stateGrounded || run->ctx.state == lb_stateLanding)
			{
				run->verticalSpeed = in->value;
				run->ctx.state = lb_stateFalling;
				run->stateTime = 0.0f;
			}
			break;
		case lb_inputSelectLimb:
		case lb_inputStick:
		case lb_inputConfirm:
		case lb_inputRelease:
		default:
			break;
	}
	if ((int)in->kind < 0 || in->kind >= lb_inputCount)
		return lbReport(lb_errorInvalidArgument, "lbRun_ApplyInput: bad input kind %d", (int)in->kind);
	if (run->systemEntry->input)
		run->systemEntry->input(run->system, &run->ctx, in);
	return lb_ok;
}

static float lbPoseSoleHeight(const lbPose* pose, const lbHumanoid* h);
static lbVec3 lbRestOffsetOf(const lbTransform* model, const lbHumanoid* h, float soleHeight);

// Moves the base pose so that the motion's floor (its soles at rest, or in its first pose) is the
// model origin and its pelvis stands over it: the model frame then stands on the ground where the
// controller puts it, as the systems expect. Only root bones move; the rest follows.
static void lbShiftToFloor(lbRun* run)
{
	if (lbLengthSquared(run->restOffset) < 1.0e-12f)
		return;
	lbVec3 shift = lbNeg(run->restOffset);
	for (int b = 0; b < run->skeleton->boneCount; ++b)
		if (run->skeleton->parents[b] < 0)
			run->pose.local[b].p = lbAdd(run->pose.local[b].p, shift);
	lbPose_LocalToModel(&run->pose, run->skeleton);
}

// Heading (deg about up from the reference forward) of a character transform.
static float lbHeadingOf(const lbRun* run, lbTransform characterWs)
{
	lbVec3 up = run->upWs;
	lbVec3 f = lbWorldReferenceForward(up);
	lbVec3 side = lbCross(up, f);
	lbVec3 fwd = lbQuatRotate(characterWs.q, run->humanoid.forwardMs);
	return atan2f(lbDot(fwd, side), lbDot(fwd, f)) * LB_RAD2DEG;
}

// A walker going down a steep flight takes short steps: the drop from one foot's tread to the
// other's is at most this many leg lengths (thigh + calf), 0.42 m for the reference rigs' 0.84 m
// legs. At a stride of 1.3 m (1.4 m/s) a flight of 0.3 m risers on 0.3 m treads puts two treads
// between the feet, 0.6 m, and the trailing leg folds into a full squat with its toes in the tread
// it leaves; slowed to steps of one tread it walks down as people do on steep stairs.
#define LB_DESCENT_DROP_LEGS 0.5f
// Going up a steep flight a run takes whole treads a step, rising at most this many leg lengths a
// step (0.67 m for 0.84 m legs: two treads a step on 0.23-0.33 m risers). At 3.5 m/s a run's step
// spans three or four 0.26 m treads, a metre up 0.33 m risers: the swinging shin went 16 cm into the
// noses and the planted sole 12 cm into a riser.
#define LB_ASCENT_RUN_LEGS 0.8f
// Going down a steep flight a run takes whole treads a step too, dropping at most this many leg
// lengths a step (two treads a step on 0.23-0.33 m risers). At 3.5 m/s its step spans three or four
// treads: the landing sole went 1.2-3.7 cm into the tread below's nose and the support under a
// plant fell to 0.1 (running down 0.27-0.35 m risers). Only flights: slowed by the mean grade too,
// runs down 35-45 degree slopes dropped their pelvis.
#define LB_DESCENT_RUN_LEGS 0.8f
// A walk's steps up keep within this many leg lengths of rise (1.0 m: three treads a step
// up to 0.33 m risers), which slows it only up the steepest flights, where its step would span more.
// Slowed further (0.7-1.0 leg lengths) the foot swinging two risers up met the nose between them:
// 22 -> 36 of 200 walks up 0.15-0.35 m risers over a limit at 0.7, and walking up the shipped
// 0.30 m flight popped 22.7 degrees at 1.0.
#define LB_ASCENT_WALK_LEGS 1.2f
// How far ahead (m) and how finely the controller reads the ground for a flight: far enough to
// slow before the first step down from a landing at a walk, and to see three risers.
#define LB_DESCENT_LOOK 1.5f
#define LB_DESCENT_SPACING 0.05f
// Lowest drop (m) between two samples that makes a riser, and most risers read.
#define LB_DESCENT_RISER 0.04f
#define LB_DESCENT_MAX_RISERS 8

// How far (m, >= 0) the feet of the base pose stand apart across the character (along its left).
static float lbFootSpacing(const lbRun* run)
{
	const lbHumanoid* h = &run->humanoid;
	if (run->pose.boneCount <= 0)
		return 0.0f;
	lbVec3 d = lbSub(run->pose.model[h->leg[0].foot].p, run->pose.model[h->leg[1].foot].p);
	return lbAbsF(lbDot(d, h->leftMs));
}

// The step (m) a walk or a run going down (`sign` 1) or up (`sign` -1) the ground ahead along `way`
// (from the character's place, ground height `ground`) may take, 1e30 for no limit; *outFlight (if
// given) gets the riser of a flight that way ahead, 0 for none. A flight (two or more
// risers that way at even spacing ahead, each found to 3 mm) gets whole treads: as many as keep the
// drop (or rise) within `maxDrop` (m), at least one, so every step lands on a tread at the same place along it
// and a step of 1.4 treads does not alternate between one tread and two. A flight crossed at an
// angle (the riser's face, found by a ray back at it, turned from the way) puts the feet, apart
// across the body, one ahead of the other across the treads: the stride is cut, a tread at a time,
// until the leading foot's advance across the treads stays within those treads (walking 47-55
// degrees off straight down 0.24-0.26 m risers the leading foot otherwise came down two risers
// below the other and the hips dived 0.3 m as the other let go, 27-32 degrees of pop). With
// `graded`, other ground down gets the step whose mean drop is within that height over the window. The window ends at a
// riser the other way, at ground missing or at a drop or rise higher than a step down (a gap, a
// ledge to fall from, a wall).
static float lbFlightStep(const lbRun* run, lbVec3 way, float ground, float maxDrop, float sign, bool graded, float* outFlight)
{
	if (outFlight)
		*outFlight = 0.0f;
	const float down = lbStepDownHeight(run);
	const int n = (int)(LB_DESCENT_LOOK / LB_DESCENT_SPACING + 0.5f);
	float edgeAt[LB_DESCENT_MAX_RISERS], edgeDrop[LB_DESCENT_MAX_RISERS];
	int edges = 0;
	float prev = ground, last = ground, lastAt = 0.0f;
	for (int i = 1; i <= n; ++i)
	{
		const float d = LB_DESCENT_SPACING * (float)i;
		bool found;
		float g = lbGroundHeightAt(run, lbMulAdd(run->position, d, way), &found);
		// A gap, a drop or rise too high or a riser the other way: the flight (if any) ends before it.
		const float fall = sign * (prev - g);
		if (!found || lbAbsF(prev - g) > down || -fall > LB_DESCENT_RISER)
			break;
		if (fall > LB_DESCENT_RISER && edges < LB_DESCENT_MAX_RISERS)
		{
			// The riser's face, between the samples: four halvings place it to 3 mm.
			float lo = d - LB_DESCENT_SPACING, hi = d;
			for (int k = 0; k < 4; ++k)
			{
				float mid = 0.5f * (lo + hi);
				bool got;
				float m = lbGroundHeightAt(run, lbMulAdd(run->position, mid, way), &got);
				if (got && lbAbsF(m - prev) < lbAbsF(m - g))
					lo = mid;
				else
					hi = mid;
			}
			edgeAt[edges] = 0.5f * (lo + hi);
			edgeDrop[edges] = fall;
			edges += 1;
		}
		prev = g;
		last = g;
		lastAt = d;
	}
	if (edges >= 2)
	{
		const float tread = (edgeAt[edges - 1] - edgeAt[0]) / (float)(edges - 1);
		float riser = 0.0f;
		for (int e = 0; e < edges; ++e)
			riser += edgeDrop[e] / (float)edges;
		bool even = tread > 0.1f;
		for (int e = 1; e < edges && even; ++e)
			even = lbAbsF(edgeAt[e] - edgeAt[e - 1] - tread) <= 0.25f * tread && lbAbsF(edgeDrop[e] - riser) <= 0.3f * riser;
		if (even && outFlight)
			*outFlight = riser;
		if (even)
		{
			// Treads a step may take, and how far (in treads) the feet stand apart across them.
			const float most = lbMaxF(1.0f, floorf(maxDrop / riser));
			// The first riser's face, from 5 cm past it at half its height.
			lbVec3 from = lbMulAdd(run->position, edgeAt[0] + 0.05f, way);
			from = lbMulAdd(from, ground - sign * 0.5f * edgeDrop[0] - lbDot(from, run->upWs), run->upWs);
			lbVec3 hit, normal;
			float apart = 0.0f;
			if (lbRunWorldProbe(run->world, from, lbNeg(way), 0.1f, &hit, &normal))
			{
				const lbVec3 face = lbNormalizeOr(lbProjectOnPlane(normal, run->upWs), way);
				const float c = lbClampF(lbAbsF(lbDot(face, way)), 0.2f, 1.0f);
				apart = lbFootSpacing(run) * sqrtf(1.0f - c * c) / (tread * c);
			}
			// A stride (both steps) of whole treads, so each foot comes down at the same place on
			// its tread every time; the most whose leading step, the feet's spacing included,
			// stays within `most` treads and a quarter (a foot's slide takes the quarter).
			const float m = lbMaxF(1.0f, floorf(2.0f * (most + 0.25f - apart)));
			return 0.5f * m * tread;
		}
	}
	// Not a flight: the mean grade down over the window, as far as it reaches. A single drop (a
	// ledge) is a step down, taken at any speed, not a grade: spread over a window of at least
	// 1 m it asks for no shorter step than a step down does.
	if (sign <= 0.0f || !graded)
		return 1.0e30f;
	const float grade = lastAt >= 0.5f * LB_DESCENT_LOOK ? (ground - last) / lbMaxF(lastAt, 1.0f) : 0.0f;
	return grade > 1.0e-3f ? maxDrop / grade : 1.0e30f;
}

// Speed (m/s) the controller allows at `speed` toward `way` (unit) over the ground ahead: the speed
// whose gait step (lbGaitSpeedForStride) is the step lbFlightStep allows there: down a flight or a
// grade for a walk (LB_DESCENT_DROP_LEGS), down a flight for a run (LB_DESCENT_RUN_LEGS), up a
// flight for either (LB_ASCENT_WALK_LEGS, LB_ASCENT_RUN_LEGS); the asked speed where the scenario
// keeps it (lbScenario::slowOnFlights). What slows a climb is the climber. Keeps the riser of a
// flight up ahead of a walk in run->flightRiser (0 for none), for the height (lbSupportHeight).
static float lbSteepSpeed(lbRun* run, float speed, lbVec3 way, float ground)
{
	const bool walk = strcmp(run->motionEntry->name, "walk") == 0, runs = strcmp(run->motionEntry->name, "run") == 0;
	if (speed <= 0.05f || !(walk || runs))
		return speed;
	const float legLength = lbRunLegLength(run);
	const float rise = (walk ? LB_ASCENT_WALK_LEGS : LB_ASCENT_RUN_LEGS) * legLength;
	float riser;
	float step = lbFlightStep(run, way, ground, rise, -1.0f, false, &riser);
	if (walk)
		run->flightRiser = riser;
	if (!run->scenario->slowOnFlights)
		return speed;
	const float drop = (walk ? LB_DESCENT_DROP_LEGS : LB_DESCENT_RUN_LEGS) * legLength;
	step = lbMinF(step, lbFlightStep(run, way, ground, drop, 1.0f, walk, NULL));
	return step < 1.0e29f ? lbMinF(speed, lbGaitSpeedForStride(2.0f * step, legLength, runs)) : speed;
}

// Moves the character horizontally (controller or motion), samples the base motion, then
// applies gravity or follows the ground.
// Moves the character one frame and samples the base motion. Returns an error (logged once per
// fall) while the character falls with no ground anywhere below it: it would fall forever.
static lbResult lbMoveAndSample(lbRun* run, float dt)
{
	lbVec3 up = run->upWs;
	lbVec3 v = run->desiredVelocity;
	lbVec3 before = run->position;
	float speed = lbLength(v);
	// Steep flights ahead slow a walk or a run (lbSteepSpeed).
	run->flightRiser = 0.0f;
	if (speed > 0.05f && (run->ctx.state == lb_stateGrounded || run->ctx.state == lb_stateLanding))
	{
		bool found;
		float ground = lbGroundHeightAt(run, run->position, &found);
		float slowed = found ? lbSteepSpeed(run, speed, lbMulSV(1.0f / speed, v), ground) : speed;
		v = lbMulSV(slowed / speed, v);
		speed = slowed;
	}
	// Heading steers toward the velocity direction (proportional, at most one turn per second).
	float turnDeg = 0.0f;
	if (speed > 0.05f)
	{
		lbVec3 f = lbWorldReferenceForward(up);
		lbVec3 side = lbCross(up, f);
		float target = atan2f(lbDot(v, side), lbDot(v, f)) * LB_RAD2DEG;
		float diff = fmodf(target - run->headingDeg + 540.0f, 360.0f) - 180.0f;
		turnDeg = lbClampF(diff * 4.0f, -LB_TURN_RATE * LB_RAD2DEG, LB_TURN_RATE * LB_RAD2DEG);
		if (lbAbsF(diff) < lbAbsF(turnDeg) * dt)
			turnDeg = diff / dt;
	}
	// Locomotion keeps playing (and carrying the character) through a fall; gravity only
	// changes the height below.
	lbTransform motionWs = run->ctx.characterWs;
	if (run->motionEntry->drivesRoot)
	{
		lbTransform xf = run->ctx.characterWs;
		if (run->motionEntry->sample(run->motion, &run->ctx, dt, speed, turnDeg * LB_DEG2RAD, &xf, &run->pose) == lb_ok)
		{
			run->headingDeg = lbHeadingOf(run, xf);
			run->position = xf.p;
			motionWs = xf;
		}
	}
	else
	{
		run->position = lbMulAdd(run->position, dt, v);
		run->headingDeg += turnDeg * dt;
		lbUpdateCharacterTransform(run);
		lbTransform xf = run->ctx.characterWs;
		run->motionEntry->sample(run->motion, &run->ctx, dt, 0.0f, 0.0f, &xf, &run->pose);
	}
	run->headingDeg = fmodf(run->headingDeg + 540.0f, 360.0f) - 180.0f;
	// Standing motions on an imported rig may not stand on the model origin: on the first frame
	// the soles of the motion's own pose set where the ground is.
	if (run->frame == 0 && run->soleFromFirstPose)
		run->restOffset = lbRestOffsetOf(run->pose.model, &run->humanoid, lbPoseSoleHeight(&run->pose, &run->humanoid));
	lbShiftToFloor(run);

	run->stateTime += dt;
	bool found;
	float ground = lbGroundHeightAt(run, run->position, &found);
	float height = lbDot(run->position, up);
	// Walked into a wall taller than the ground probe's reach above (the probe starts inside it):
	// the character is held where it was, as a capsule would be, instead of sinking into the wall.
	if (!found && run->ctx.state != lb_stateClimbing)
	{
		bool any;
		float top = lbTopGroundAt(run, run->position, &any);
		if (any && top > height + LB_STEP_HEIGHT)
		{
			run->position = lbMulAdd(before, height - lbDot(before, up), up);
			ground = lbGroundHeightAt(run, run->position, &found);
		}
	}
	const float stepDown = lbStepDownHeight(run);
	if (run->ctx.state == lb_stateFalling)
	{
		run->stepOffsetValid = false;
		run->supportValid = false;
		run->verticalSpeed -= LB_GRAVITY * dt;
		float next = height + run->verticalSpeed * dt;
		if (found && next <= ground && run->verticalSpeed <= 0.0f)
		{
			next = ground;
			run->verticalSpeed = 0.0f;
			run->ctx.state = lb_stateLanding;
			run->stateTime = 0.0f;
			lbScenarioEvent landing;
			memset(&landing, 0, sizeof landing);
			landing.kind = lb_inputState;
			landing.state = lb_stateLanding;
			if (run->systemEntry->input)
				run->systemEntry->input(run->system, &run->ctx, &landing);
		}
		run->position = lbMulAdd(run->position, next - height, up);
	}
	else if (run->ctx.state == lb_stateClimbing)
	{
		run->stepOffsetValid = false;
		run->supportValid = false;
	}
	else
	{
		if (run->ctx.state == lb_stateLanding && run->stateTime >= LB_LANDING_TIME)
			run->ctx.state = lb_stateGrounded;
		// Walking off an edge makes the character fall, unless it steps down (a drop up to
		// lbStepDownHeight) or its feet straddle a gap narrower than a step (ground a step away
		// both ahead and behind): then it walks across at its height. Otherwise it follows the
		// ground. An edge is where the ground itself drops more than a step down since the last
		// frame's place: the height runs ahead of or behind the ground under the centre on a
		// steep flight (it follows the feet's support) without anything having been walked off.
		lbVec3 way = speed > 0.05f ? lbMulSV(1.0f / speed, v) : lbHeadingDirection(run, run->headingDeg);
		float target = ground;
		bool steps = found && height - ground <= stepDown;
		bool bridged = !steps && lbBridgesGap(run, way, lbStepReach(run, speed), height, &target);
		if (!steps && !bridged && found)
		{
			bool foundBefore;
			float groundBefore = lbGroundHeightAt(run, before, &foundBefore);
			steps = foundBefore && groundBefore - ground <= stepDown;
		}
		if (steps)
			target = lbSupportHeight(run, ground, motionWs, way);
		else
			run->supportValid = false;
		steps = steps || bridged;
		if (!steps)
		{
			run->ctx.state = lb_stateFalling;
			run->stateTime = 0.0f;
			run->stepOffsetValid = false;
		}
		else
		{
			// The height is the support height plus an offset that eases out (as character
			// controllers smooth stairs): the support's own motion, up to the steepest climb a
			// stepper makes at its speed, carries the height at once, so there is no lag that grows
			// with the vertical speed; a faster change (a jump: a support point crossing an edge or
			// becoming unsteppable, the ground after a landing) goes into the offset, which eases out
			// at LB_STEP_SMOOTHING, so the height never jumps a riser in one frame.
			if (!run->stepOffsetValid)
			{
				run->stepTarget = target;
				run->stepOffset = height - target;
				run->stepOffsetValid = true;
			}
			float change = target - run->stepTarget;
			float carried = (LB_STEP_FOLLOW_SLOPE * speed + LB_STEP_FOLLOW_MARGIN) * dt;
			run->stepOffset -= change - lbClampF(change, -carried, carried);
			run->stepOffset *= 1.0f - lbInterpAlpha(dt, LB_STEP_SMOOTHING);
			if (lbAbsF(run->stepOffset) < 0.002f)
				run->stepOffset = 0.0f;
			run->stepTarget = target;
			run->position = lbMulAdd(run->position, target + run->stepOffset - height, up);
		}
	}
	// Asked for (motion.root_velocity), the systems are told how fast the motion carried the
	// character along the ground this frame, as a game on root motion tells them its root's
	// velocity, rather than the controller's, which for a clip is none.
	if (run->scenario->rootVelocity && run->motionEntry->drivesRoot && dt > 0.0f)
		v = lbMulSV(1.0f / dt, lbProjectOnPlane(lbSub(run->position, before), up));
	run->ctx.velocityWs = lbMulAdd(v, run->verticalSpeed, up);
	lbUpdateCharacterTransform(run);
	// A fall with nothing below never ends: say so (once per fall) instead of running on silently.
	if (run->ctx.state != lb_stateFalling || found || lbAnyGroundBelow(run, run->position))
	{
		run->fellWithNoGround = false;
		return lb_ok;
	}
	lbVec3 p = run->position;
	if (run->fellWithNoGround)
		return lb_errorInvalidArgument;
	run->fellWithNoGround = true;
	return lbReport(lb_errorInvalidArgument, "%s: the character fell with no ground below at (%.2f, %.2f, %.2f) m, frame %d",
					run->scenario->path, (double)p.x, (double)p.y, (double)p.z, run->frame);
}

int lbSystemValuesCopy(const char* const* n, const float* v, int count, const char** names, float* values, int capacity)
{
	for (int i = 0; i < count && i < capacity; ++i)
	{
		if (names)
			names[i] = n[i];
		if (values)
			values[i] = v[i];
	}
	return count;
}

void lbSystemOutput_AddDebug(lbSystemOutput* out, lbDebugLayer layer, lbDebugShape shape, lbVec3 a, lbVec3 b, float radius,
							 bool highlight)
{
	if (out->debugCount >= LB_RUN_MAX_DEBUG)
		return;
	lbDebugItem* d = &out->debug[out->debugCount++];
	d->layer = layer;
	d->shape = shape;
	d->a = a;
	d->b = b;
	d->radius = radius;
	d->highlight = highlight;
}

// Debug items every run shows: the sole probes the metrics cast, limb reach spheres, knee and
// elbow pole directions, the system's contacts and drag targets.
static void lbAddRunDebug(lbRun* run, lbSystemOutput* out)
{
	const lbHumanoid* h = &run->humanoid;
	const lbPose* pose = &run->pose;
	lbTransform cw = run->ctx.characterWs;
	lbVec3 up = run->upWs;
	for (int s = 0; s < 2; ++s)
	{
		lbVec3 sole = lbSolePointWs(h, pose, cw, s);
		lbVec3 origin = lbMulAdd(sole, 0.5f, up);
		lbVec3 hit, normal;
		bool got = lbRunWorldProbe(run->world, origin, lbNeg(up), 2.0f, &hit, &normal);
		lbSystemOutput_AddDebug(out, lb_layerCasts, lb_debugLine, origin, got ? hit : lbMulAdd(origin, -2.0f, up), 0.0f, false);
		if (got)
		{
			lbSystemOutput_AddDebug(out, lb_layerCasts, lb_debugPoint, hit, hit, 0.02f, true);
			lbSystemOutput_AddDebug(out, lb_layerNormals, lb_debugArrow, hit, lbMulAdd(hit, 0.25f, normal), 0.0f, false);
		}
		const lbLegBones* leg = &h->leg[s];
		const lbArmBones* arm = &h->arm[s];
		if (leg->thigh >= 0 && leg->calf >= 0)
		{
			lbTransform thighWs = lbTransformMul(cw, pose->model[leg->thigh]);
			lbVec3 knee = lbTransformPoint(cw, pose->model[leg->calf].p);
			lbVec3 pole = lbNormalize(lbTransformDirection(thighWs, h->legAxes[s].kneePoleThigh));
			lbSystemOutput_AddDebug(out, lb_layerPoles, lb_debugArrow, knee, lbMulAdd(knee, 0.3f, pole), 0.0f, false);
			lbSystemOutput_AddDebug(out, lb_layerReach, lb_debugSphere, thighWs.p, thighWs.p,
					   h->legAxes[s].thighLength + h->legAxes[s].calfLength, false);
		}
		if (arm->upperArm >= 0 && arm->foreArm >= 0)
		{
			lbTransform upperWs = lbTransformMul(cw, pose->model[arm->upperArm]);
			lbVec3 elbow = lbTransformPoint(cw, pose->model[arm->foreArm].p);
			lbVec3 pole = lbNormalize(lbTransformDirection(upperWs, h->armAxes[s].elbowPoleUpper));
			lbSystemOutput_AddDebug(out, lb_layerPoles, lb_debugArrow, elbow, lbMulAdd(elbow, 0.3f, pole), 0.0f, false);
			lbSystemOutput_AddDebug(out, lb_layerReach, lb_debugSphere, upperWs.p, upperWs.p,
					   h->armAxes[s].upperLength + h->armAxes[s].foreLength, false);
		}
	}
	for (int i = 0; i < out->contactCount; ++i)
	{
		const lbContact* c = &out->contacts[i];
		lbSystemOutput_AddDebug(out, lb_layerContacts, lb_debugSphere, c->targetWs, c->targetWs, 0.06f, c->locked);
		lbSystemOutput_AddDebug(out, lb_layerNormals, lb_debugArrow, c->targetWs, lbMulAdd(c->targetWs, 0.2f, c->normalWs), 0.0f, false);
	}
	lbDragTarget targets[8];
	int n = lbRun_GetDragTargets(run, targets, 8);
	for (int i = 0; i < n && i < 8; ++i)
		lbSystemOutput_AddDebug(out, lb_layerTargets, lb_debugPoint, targets[i].positionWs, targets[i].positionWs, 0.035f, false);
}

// Height (m, along the model up) of the lower sole of a pose's model transforms.
static float lbSoleHeightOf(const lbTransform* model, const lbHumanoid* h)
{
	float lowest = 1.0e9f;
	for (int s = 0; s < 2; ++s)
	{
		lbTransform f = model[h->leg[s].foot];
		lbVec3 upF = lbNormalize(lbTransformDirection(f, h->legAxes[s].footUp));
		lowest = lbMinF(lowest, lbDot(lbMulAdd(f.p, -h->legAxes[s].ankleHeight, upF), h->upMs));
	}
	return lowest;
}

static float lbPoseSoleHeight(const lbPose* pose, const lbHumanoid* h)
{
	return lbSoleHeightOf(pose->model, h);
}

float lbRunRestSoleHeight(const lbSkeleton* skeleton, const lbHumanoid* h)
{
	return lbSoleHeightOf(skeleton->restModel, h);
}

// The pelvis's place across up (model) plus `soleHeight` along up, in a pose's model transforms. A
// pelvis within a millimetre of the origin's up line is over it: a rig built centred (the reference
// rigs, to rounding) is not moved across.
static lbVec3 lbRestOffsetOf(const lbTransform* model, const lbHumanoid* h, float soleHeight)
{
	lbVec3 across = lbProjectOnPlane(model[h->pelvis].p, h->upMs);
	if (lbLengthSquared(across) < 1.0e-6f)
		across = lbVec3_zero;
	return lbMulAdd(across, soleHeight, h->upMs);
}

lbVec3 lbRunRestOffset(const lbSkeleton* skeleton, const lbHumanoid* h)
{
	return lbRestOffsetOf(skeleton->restModel, h, lbRunRestSoleHeight(skeleton, h));
}

typedef struct lbImportLog
{
	lbLogFcn* fcn;
	void* context;
	char message[400];
} lbImportLog;

static void lbImportLogCapture(lbLogLevel level, lbResult code, const char* message, void* userContext)
{
	lbImportLog* c = (lbImportLog*)userContext;
	if (level == lb_logError)
	{
		if (!c->message[0])
			snprintf(c->message, sizeof c->message, "%s", message);
		return;
	}
	if (c->fcn)
		c->fcn(level, code, message, c->context);
}

lbRun* lbCreateRun(const lbScenario* scenario, lbResult* outResult)
{
	lbResult dummy;
	if (!outResult)
		outResult = &dummy;
	if (!scenario)
	{
		*outResult = lbReport(lb_errorNullPointer, "lbCreateRun: scenario is NULL");
		return NULL;
	}
	const lbSystemEntry* sys = lbFindSystemEntry(scenario->system);
	const lbMotionEntry* mot = lbFindMotionEntry(scenario->motion);
	if (!sys || !mot)
	{
		*outResult = lbReport(lb_errorUnsupported, "%s: system \"%s\" or motion \"%s\" is not available", scenario->path,
							  scenario->system, scenario->motion);
		return NULL;
	}
	// The memory budget is checked before anything is built: the world's shapes and the records
	// kept per frame.
	const double perFrame = (double)(sizeof(lbFrameMetrics) + LB_RUN_MAX_VALUES * sizeof(float) + sizeof(double) + 1);
	const double need = lbRunWorldMemoryEstimate(scenario) + perFrame * (double)(scenario->frames > 0 ? scenario->frames : 0);
	if (need > (double)scenario->memoryBudget)
	{
		*outResult = lbReport(lb_errorOutOfMemory,
							  "%s: the run needs about %.0f MB (world shapes and per-frame records), over the memory budget of %.0f MB",
							  scenario->path, need / 1048576.0, (double)scenario->memoryBudget / 1048576.0);
		return NULL;
	}
	lbRun* run = (lbRun*)lbAllocZeroed(sizeof(lbRun));
	if (!run)
	{
		*outResult = lbReport(lb_errorOutOfMemory, "lbCreateRun");
		return NULL;
	}
	run->scenario = scenario;
	run->systemEntry = sys;
	run->motionEntry = mot;
	run->upWs = scenario->upWs;
	if (scenario->rigFile[0])
	{
		lbImportDef def = lbDefaultImportDef();
		def.unitScale = scenario->rigUnitScale;
		def.humanoid.toeTipLength = scenario->rigToeTipLength;
		def.loadClips = strcmp(scenario->motion, "clip") == 0;
		def.isolate = scenario->isolateImport;
		for (int r = 0; r < lb_roleCount; ++r)
			def.humanoid.roleNames[r] = scenario->roleNames[r][0] ? scenario->roleNames[r] : NULL;
		// The importer's error is told once, with the scenario's own fix added (rig.roles, rig.file,
		// rig.unit_scale) rather than the API's; its warnings pass through as they are.
		lbImportLog capture = { NULL, NULL, "" };
		lbGetLogFcn(&capture.fcn, &capture.context);
		lbSetLogFcn(lbImportLogCapture, &capture);
		*outResult = lbImportRig(scenario->rigFile, &def, &run->imported);
		lbSetLogFcn(capture.fcn, capture.context);
		if (*outResult != lb_ok || !run->imported)
		{
			const char* fix = "";
			if (*outResult == lb_errorNotHumanoid)
				fix = "; in the scenario, name the missing bones under rig.roles, e.g. \"roles\": {\"thigh_l\": \"LeftUpLeg\"} "
					  "(role names: docs/import.md)";
			else if (*outResult == lb_errorFileNotFound)
				fix = "; check rig.file (a relative path is read from the scenario's folder)";
			else if (*outResult == lb_errorNoSkeleton)
				fix = "; rig.file must hold a skinned or animated skeleton (re-export it, e.g. as glTF or FBX)";
			else if (*outResult == lb_errorFileFormat)
				fix = "; the file was refused for the reason given (re-exporting it, e.g. as glTF or FBX, may mend it)";
			*outResult = lbReport(*outResult, "%s: rig.file: %s%s", scenario->path,
								  capture.message[0] ? capture.message : lbResultString(*outResult), fix);
			lbDestroyRun(run);
			return NULL;
		}
		run->skeleton = run->imported->skeleton;
		run->humanoid = run->imported->humanoid;
		run->ctx.clips = run->imported->clips;
		run->ctx.clipCount = run->imported->clipCount;
	}
	else
	{
		lbReferenceRig rig = lbFindReferenceRig(scenario->rig);
		run->skeleton = rig < lb_rigCount ? lbCreateReferenceRig(rig) : NULL;
		if (!run->skeleton)
		{
			*outResult = lbReport(lb_errorUnsupported, "%s: rig \"%s\" cannot be built", scenario->path, scenario->rig);
			lbDestroyRun(run);
			return NULL;
		}
		*outResult = lbMapHumanoid(run->skeleton, NULL, &run->humanoid);
		if (*outResult != lb_ok)
		{
			lbDestroyRun(run);
			return NULL;
		}
	}
	run->pose = lbCreatePose(run->skeleton);
	run->basePose = lbCreatePose(run->skeleton);
	run->series = (lbFrameMetrics*)lbAllocZeroed((size_t)scenario->frames * sizeof(lbFrameMetrics));
	run->values = (float*)lbAllocZeroed((size_t)scenario->frames * LB_RUN_MAX_VALUES * sizeof(float));
	run->solveUs = (double*)lbAllocZeroed((size_t)scenario->frames * sizeof(double));
	run->states = (unsigned char*)lbAllocZeroed((size_t)scenario->frames);
	if (!run->pose.local || !run->basePose.local || !run->series || !run->values || !run->solveUs || !run->states)
	{
		*outResult = lbReport(lb_errorOutOfMemory, "lbCreateRun");
		lbDestroyRun(run);
		return NULL;
	}
	run->world = lbCreateRunWorld(scenario, outResult);
	if (!run->world)
	{
		lbDestroyRun(run);
		return NULL;
	}
	// A clip's floor is its model origin (root motion projects the pelvis onto it); other motions
	// stand the rest soles on the ground with the rest pelvis over the origin (a 3ds Max Biped
	// rests half a metre behind its origin: the controller's ground probe found a ledge's drop half a
	// metre ahead of its feet, and the body fell with both feet still on the top).
	run->restOffset = strcmp(mot->name, "clip") == 0 ? lbVec3_zero : lbRunRestOffset(run->skeleton, &run->humanoid);
	run->soleFromFirstPose = run->imported && !mot->drivesRoot && strcmp(mot->name, "prone") != 0;
	lbShiftToFloor(run);
	run->position = scenario->position;
	run->headingDeg = scenario->headingDeg;
	// The character stands on the first ground below its start when the start is in free air with
	// room above it for at least a crouch, half the character's height (a start under an overhang
	// stays under it, even where the leaning face passes lower than the head); otherwise
	// (a start under a slope's surface, inside a box, a little under a roof or a step) on the first
	// ground met coming down from above the whole world, on top of it; with none, it falls and
	// the first step reports it.
	bool found;
	float ground = lbTopGroundAt(run, run->position, &found);
	float below = 0.0f;
	if (lbStartGroundAt(run, run->position, &below) && (!found || ground - below > LB_START_CROUCH_ROOM * run->humanoid.height))
	{
		ground = below;
		found = true;
	}
	if (found)
		run->position = lbMulAdd(run->position, ground - lbDot(run->position, run->upWs), run->upWs);

	run->ctx.scenario = scenario;
	run->ctx.skeleton = run->skeleton;
	run->ctx.humanoid = &run->humanoid;
	run->ctx.basePose = &run->pose;
	run->ctx.probe = lbRunWorldProbe;
	run->ctx.probeContext = run->world;
	run->ctx.world = lbRunWorld_GetQueryWorld(run->world);
	run->ctx.upWs = run->upWs;
	run->ctx.state = lb_stateGrounded;
	lbUpdateCharacterTransform(run);

	lbMetricsDef md = lbDefaultMetricsDef();
	md.skeleton = run->skeleton;
	md.humanoid = &run->humanoid;
	md.upWs = run->upWs;
	// The metrics see the run's world directly (every channel but the character's own), not
	// through anything a system sensed.
	md.query = lbWorld_GetQuery((const lbWorld*)lbRunWorld_GetQueryWorld(run->world));
	md.channelMask = LB_CHANNEL_ALL & ~LB_CHANNEL_CHARACTER;
	run->metrics = lbCreateMetrics(&md);
	if (!run->metrics)
	{
		*outResult = lb_errorInvalidArgument;
		lbDestroyRun(run);
		return NULL;
	}
	run->motion = mot->create(&run->ctx, outResult);
	if (!run->motion)
	{
		lbDestroyRun(run);
		return NULL;
	}
	// Locomotion walks ahead at its speed until the timeline says otherwise.
	if (mot->drivesRoot)
	{
		float speed = scenario->motionSpeed >= 0.0f ? scenario->motionSpeed : mot->defaultSpeed(run->motion);
		run->desiredVelocity = lbMulSV(speed, lbHeadingDirection(run, run->headingDeg));
	}
	if (strcmp(mot->name, "prone") == 0 || strcmp(mot->name, "crawl") == 0)
		run->ctx.state = lb_stateProne;
	cJSON* config = scenario->systemConfig ? cJSON_Parse(scenario->systemConfig) : NULL;
	run->system = sys->create(&run->ctx, config, outResult);
	cJSON_Delete(config);
	if (!run->system)
	{
		lbDestroyRun(run);
		return NULL;
	}
	*outResult = lb_ok;
	return run;
}

void lbDestroyRun(lbRun* run)
{
	if (!run)
		return;
	if (run->system && run->systemEntry)
		run->systemEntry->destroy(run->system);
	if (run->motion && run->motionEntry)
		run->motionEntry->destroy(run->motion);
	lbDestroyMetrics(run->metrics);
	lbDestroyRunWorld(run->world);
	lbDestroyPose(&run->pose);
	lbDestroyPose(&run->basePose);
	if (run->imported)
		lbDestroyImportedRig(run->imported);
	else
		lbDestroySkeleton(run->skeleton);
	lbFree(run->series);
	lbFree(run->values);
	lbFree(run->solveUs);
	lbFree(run->states);
	lbFree(run);
}

static lbResult lbRunAdvance(lbRun* run, float dt, bool record)
{
	// Inputs due at or before this frame's start time.
	const lbScenario* s = run->scenario;
	while (run->nextEvent < s->eventCount && s->events[run->nextEvent].time <= run->time + 0.25f * s->dt)
		lbRun_ApplyInput(run, &s->events[run->nextEvent++]);

	run->ctx.time = run->time;
	// A fall into nothing is an error, but the frame still runs, so the run reaches its end.
	lbResult moved = lbMoveAndSample(run, dt);
	lbSystemOutput* out = &run->output;
	out->contactCount = 0;
	out->debugCount = 0;
	run->ctx.failed = lb_ok;
	if (run->systemEntry->sense)
		run->systemEntry->sense(run->system, &run->ctx, dt, out);
	if (run->ctx.placed)
	{
		// The system placed the character (see lbRunContext::placed): the controller follows, and
		// the motion restarts there for the next frame.
		run->ctx.placed = false;
		run->position = run->ctx.characterWs.p;
		run->headingDeg = lbHeadingOf(run, run->ctx.characterWs);
		run->verticalSpeed = 0.0f;
		run->stepOffsetValid = false;
		run->supportValid = false;
		lbResult made = lb_ok;
		void* motion = run->motionEntry->create(&run->ctx, &made);
		if (motion)
		{
			run->motionEntry->destroy(run->motion);
			run->motion = motion;
		}
	}
	// The base motion's pose before the system changes it, for the added-pop metric.
	lbPose_Copy(&run->basePose, &run->pose);
	double t0 = lbNowUs();
	if (run->systemEntry->pose)
		run->systemEntry->pose(run->system, &run->ctx, &run->pose, out);
	double solve = lbNowUs() - t0;
	lbAddRunDebug(run, out);

	lbMetricsFrame mf;
	memset(&mf, 0, sizeof mf);
	mf.pose = &run->pose;
	mf.characterWs = run->ctx.characterWs;
	mf.contacts = out->contacts;
	mf.contactCount = out->contactCount;
	mf.grounded = run->ctx.state == lb_stateGrounded || run->ctx.state == lb_stateLanding;
	mf.reset = run->resetPending;
	mf.dt = dt;
	mf.basePose = &run->basePose;
	run->resetPending = false;
	lbResult r = lbMetrics_AddFrame(run->metrics, &mf, &run->lastMetrics);
	if (record && run->frame < s->frames)
	{
		run->series[run->frame] = run->lastMetrics;
		run->solveUs[run->frame] = solve;
		run->states[run->frame] = (unsigned char)run->ctx.state;
		const char* names[LB_RUN_MAX_VALUES];
		float values[LB_RUN_MAX_VALUES];
		int n = lbRun_GetSystemValues(run, names, values, LB_RUN_MAX_VALUES);
		for (int i = 0; i < n && i < LB_RUN_MAX_VALUES; ++i)
			run->values[(size_t)run->frame * LB_RUN_MAX_VALUES + (size_t)i] = values[i];
		run->summaryAtEnd = lbMetrics_GetSummary(run->metrics);
	}
	run->frame++;
	run->time += dt;
	if (moved != lb_ok)
		return moved;
	return run->ctx.failed != lb_ok ? run->ctx.failed : r;
}

lbResult lbRun_Step(lbRun* run)
{
	if (!run)
		return lbReport(lb_errorNullPointer, "lbRun_Step: run is NULL");
	return lbRunAdvance(run, run->scenario->dt, true);
}

lbResult lbRun_StepBy(lbRun* run, float dt)
{
	if (!run)
		return lbReport(lb_errorNullPointer, "lbRun_StepBy: run is NULL");
	if (!(dt > 0.0f) || !(dt <= 0.25f))
		return lbReport(lb_errorInvalidArgument, "lbRun_StepBy: dt %g outside (0, 0.25] s", (double)dt);
	return lbRunAdvance(run, dt, false);
}

bool lbRun_IsDone(const lbRun* run)
{
	return !run || run->frame >= run->scenario->frames;
}

lbRunView lbRun_GetView(const lbRun* run)
{
	lbRunView v;
	memset(&v, 0, sizeof v);
	if (!run)
		return v;
	v.scenario = run->scenario;
	v.skeleton = run->skeleton;
	v.humanoid = &run->humanoid;
	v.pose = &run->pose;
	v.characterWs = run->ctx.characterWs;
	v.upWs = run->upWs;
	v.velocityWs = run->ctx.velocityWs;
	v.state = run->ctx.state;
	v.frame = run->frame;
	v.time = run->time;
	v.contacts = run->output.contacts;
	v.contactCount = run->output.contactCount;
	v.debug = run->output.debug;
	v.debugCount = run->output.debugCount;
	if (run->imported)
	{
		v.meshCount = run->imported->meshCount;
		v.meshes = run->imported->meshes;
		v.inverseBind = run->imported->inverseBind;
	}
	v.metrics = run->lastMetrics;
	v.summary = lbMetrics_GetSummary(run->metrics);
	return v;
}

lbRunWorldView lbRun_GetWorldView(const lbRun* run)
{
	lbRunWorldView v;
	memset(&v, 0, sizeof v);
	return run ? lbRunWorld_GetView(run->world) : v;
}

int lbRun_GetSystemValues(const lbRun* run, const char** outNames, float* outValues, int capacity)
{
	if (!run || !run->systemEntry->values || capacity < 0)
		return 0;
	const char* names[LB_RUN_MAX_VALUES];
	float values[LB_RUN_MAX_VALUES];
	int n = run->systemEntry->values(run->system, names, values, LB_RUN_MAX_VALUES);
	n = n < LB_RUN_MAX_VALUES ? n : LB_RUN_MAX_VALUES;
	for (int i = 0; i < n && i < capacity; ++i)
	{
		if (outNames)
			outNames[i] = names[i];
		if (outValues)
			outValues[i] = values[i];
	}
	return n;
}

int lbRun_GetDragTargets(const lbRun* run, lbDragTarget* outTargets, int capacity)
{
	if (!run || !run->systemEntry->dragTargets || !outTargets || capacity <= 0)
		return 0;
	return run->systemEntry->dragTargets(run->system, outTargets, capacity);
}

lbResult lbRun_SetDragTarget(lbRun* run, int index, lbVec3 positionWs)
{
	if (!run)
		return lbReport(lb_errorNullPointer, "lbRun_SetDragTarget: run is NULL");
	if (!lbIsValidVec3(positionWs))
		return lbReport(lb_errorNonFinite, "lbRun_SetDragTarget: non-finite position");
	if (!run->systemEntry->setDragTarget)
		return lbReport(lb_errorUnsupported, "lbRun_SetDragTarget: system \"%s\" has no drag targets", run->systemEntry->name);
	return run->systemEntry->setDragTarget(run->system, index, positionWs);
}

lbResult lbRun_SetCameraPosition(lbRun* run, lbVec3 cameraWs)
{
	if (!run)
		return lbReport(lb_errorNullPointer, "lbRun_SetCameraPosition: run is NULL");
	if (!lbIsValidVec3(cameraWs))
		return lbReport(lb_errorNonFinite, "lbRun_SetCameraPosition: non-finite position");
	run->ctx.cameraWs = cameraWs;
	run->ctx.hasCamera = true;
	return lb_ok;
}
