// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Hold planner: a weighted A* search over stances (which hold each limb is on), one limb moving
// per step, so three limbs hold while the fourth moves once all four are on the wall. Each stance
// gets a body: the pelvis is placed on a plane in front of the wall where every held limb's root
// (shoulder or hip) sits as near its comfortable reach from its hold as can be (Gauss-Newton on
// the squared reach errors); a stance whose body leaves a limb beyond its reach, or folded closer
// than its minimum, is not taken. Moves cost 1 plus the stance's discomfort plus a price for
// moving the same limb (or kind of limb) again; the estimate to the goal counts hand moves.
// See docs/climb.md, "Planner". Nothing here allocates: the search lives in caller memory.
#include "limber/climb_plan.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// Fit iterations per stance; the pelvis starts at the parent stance's, so a few suffice.
#define LB_PLAN_FIT_ITERATIONS 6
// Most candidate holds per limb and move (the def's candidatesPerLimb is capped by it).
#define LB_PLAN_MAX_CANDIDATES 32
// How far the body may shift in one move when holds are filtered (m): beyond the reach plus this
// a hold cannot be taken whatever the fit does.
#define LB_PLAN_BODY_SHIFT 0.6f
// Hands stay above their shoulders less this, feet below their hips plus this (m, along the wall):
// a hand held low turns the palm away from the wall, a foot high by the hip folds the knee into it.
#define LB_PLAN_HAND_BELOW 0.35f
#define LB_PLAN_FOOT_ABOVE -0.1f
// Each limb holds on its own side of the body's centre line, give or take this (m).
#define LB_PLAN_SIDE 0.1f
// A hand held above its shoulder is out to its side of the centre line by this much before the
// def's overheadInsideCost starts, and the cost grows to full over LB_PLAN_OVERHEAD_RAMP (m).
#define LB_PLAN_OVERHEAD_SIDE 0.15f
#define LB_PLAN_OVERHEAD_RAMP 0.1f
// Left and right limbs of a kind may cross by this much before the stance is refused (m).
#define LB_PLAN_CROSS 0.1f
// Fraction of the usable reach while getting on the wall.
#define LB_PLAN_MOUNT_REACH 1.0f

lbClimbPlanDef lbDefaultClimbPlanDef(void)
{
	lbClimbPlanDef d;
	memset(&d, 0, sizeof d);
	d.up = lbVec3_axisZ;
	d.comfort[0] = 0.75f;
	d.comfort[1] = 0.7f;
	d.reachUse = 0.85f;
	d.bodyDistance = 0.3f;
	d.goalRadius = 0.25f;
	d.comfortCost = 4.0f;
	d.repeatCost = 1.5f;
	d.sameKindCost = 0.3f;
	d.greed = 2.5f;
	d.maxNodes = 16384;
	d.candidatesPerLimb = 8;
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

lbResult lbClimbPlanBodyFromRig(const lbSkeleton* skeleton, const lbHumanoid* h, const lbClimbDef* climbDef,
								lbClimbPlanBody* outBody)
{
	if (!skeleton || !h || !climbDef || !outBody)
		return lbReport(lb_errorNullPointer, "lbClimbPlanBodyFromRig: an argument is NULL");
	if (climbDef->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbClimbPlanBodyFromRig: def not initialised with lbDefaultClimbDef()");
	lbClimbPlanBody b;
	memset(&b, 0, sizeof b);
	const lbVec3 pelvis = lbSkeleton_GetRestModel(skeleton, h->pelvis).p;
	// The character's rest frame: forward, left, up (model space, unit).
	const lbVec3 fw = h->forwardMs, lf = h->leftMs, up = h->upMs;
	for (int i = 0; i < 4; ++i)
	{
		int root = i < 2 ? h->arm[i].upperArm : h->leg[i - 2].thigh;
		int mid = i < 2 ? h->arm[i].foreArm : h->leg[i - 2].calf;
		int end = i < 2 ? h->arm[i].hand : h->leg[i - 2].foot;
		if (root < 0 || mid < 0 || end < 0)
			return lbReport(lb_errorInvalidArgument, "lbClimbPlanBodyFromRig: limb %d is not mapped", i);
		lbVec3 a = lbSkeleton_GetRestModel(skeleton, root).p, m = lbSkeleton_GetRestModel(skeleton, mid).p;
		lbTransform e = lbSkeleton_GetRestModel(skeleton, end);
		float len = lbDistance(a, m) + lbDistance(m, e.p);
		if (i >= 2)
		{
			// As the sense stage measures it: a foot's end is its toe tip, and about half the foot
			// lies along the leg when the toes rest on a wall.
			lbSole sole = lbHumanoid_GetSole(h, i - 2);
			len += 0.5f * lbDistance(e.p, lbSole_PointMs(&sole, e, lb_soleToeTip));
		}
		if (!(len > 1.0e-3f))
			return lbReport(lb_errorInvalidArgument, "lbClimbPlanBodyFromRig: limb %d has zero length", i);
		lbVec3 d = lbSub(a, pelvis);
		b.rootFromPelvis[i] = lbMakeVec3(lbDot(d, fw), lbDot(d, lf), lbDot(d, up));
		b.reach[i] = lbMaxF(lbMinF(len - climbDef->reachMargin, climbDef->maxReach[i >= 2]), 0.05f);
		b.minReach[i] = climbDef->minReach[i >= 2];
	}
	*outBody = b;
	return lb_ok;
}

lbResult lbClimbPlanInput_FromState(const lbClimbState* state, lbClimbPlanInput* input)
{
	if (!state || !input)
		return lbReport(lb_errorNullPointer, "lbClimbPlanInput_FromState: state or input is NULL");
	for (int i = 0; i < 4; ++i)
	{
		const lbClimbLimbState* l = &state->limbs[i];
		input->held[i] = (l->mode == lb_climbLocked || l->mode == lb_climbLocking) && l->hasSurface;
		input->contactWs[i] = input->held[i] ? l->surfaceWs : lbVec3_zero;
	}
	// The climbing frame faces the held walls; before anything holds it is only the character's
	// facing, and the caller's normal is kept.
	bool any = input->held[0] || input->held[1] || input->held[2] || input->held[3];
	if (any && lbLengthSquared(state->wallNormalWs) > 0.5f)
		input->wallNormalWs = state->wallNormalWs;
	return lb_ok;
}

int lbClimbSampleHolds(const lbSceneQuery* query, uint32_t channelMask, uint32_t ignoreOwnerId, lbVec3 originWs,
					   lbVec3 normalWs, lbVec3 up, float halfWidth, float heightLo, float heightHi, float depth,
					   float spacing, float mergeRadius, lbClimbHold* outHolds, int capacity)
{
	if (!query || (capacity > 0 && !outHolds))
	{
		lbReport(lb_errorNullPointer, "lbClimbSampleHolds: query or outHolds is NULL");
		return -1;
	}
	if (!lbIsValidVec3(originWs) || !lbIsValidVec3(normalWs) || !lbIsValidVec3(up) || !lbIsValidFloat(halfWidth) ||
		!lbIsValidFloat(heightLo) || !lbIsValidFloat(heightHi) || !lbIsValidFloat(depth) || !lbIsValidFloat(spacing) ||
		!lbIsValidFloat(mergeRadius))
	{
		lbReport(lb_errorNonFinite, "lbClimbSampleHolds: a non-finite argument");
		return -1;
	}
	const lbVec3 n = lbNormalizeOr(normalWs, lbVec3_zero);
	lbVec3 u = lbProjectOnPlane(up, n);
	if (lbLengthSquared(n) < 0.5f || lbLengthSquared(u) < 1.0e-4f)
	{
		lbReport(lb_errorInvalidArgument, "lbClimbSampleHolds: the normal is zero or along up");
		return -1;
	}
	if (!(spacing > 1.0e-3f) || !(halfWidth >= 0.0f) || !(heightHi >= heightLo) || !(depth > 0.0f) ||
		!(mergeRadius >= 0.0f) || (2.0f * halfWidth / spacing + 1.0f) * ((heightHi - heightLo) / spacing + 1.0f) > 1.0e7f)
	{
		lbReport(lb_errorInvalidArgument, "lbClimbSampleHolds: spacing %g, width %g, heights %g..%g, depth %g give no grid",
				 (double)spacing, (double)halfWidth, (double)heightLo, (double)heightHi, (double)depth);
		return -1;
	}
	u = lbNormalize(u);
	const lbVec3 s = lbNormalize(lbCross(u, n));
	const int ns = (int)floorf(2.0f * halfWidth / spacing) + 1, nh = (int)floorf((heightHi - heightLo) / spacing) + 1;
	lbQueryInput q = lbDefaultQueryInput();
	q.channelMask = channelMask;
	q.ignoreOwnerId = ignoreOwnerId;
	int count = 0;
	const float merge2 = mergeRadius * mergeRadius;
	for (int j = 0; j < nh; ++j)
		for (int i = 0; i < ns; ++i)
		{
			lbVec3 p = lbAdd(originWs, lbAdd(lbMulSV(-halfWidth + (float)i * spacing, s), lbMulSV(heightLo + (float)j * spacing, u)));
			q.start = lbMulAdd(p, depth, n);
			q.end = lbMulAdd(p, -depth, n);
			lbHit hit = lbCallQuery(query, query->rayCast, &q);
			if (!hit.hit || hit.startedInside)
				continue;
			lbVec3 hn = lbNormalizeOr(lbLengthSquared(hit.faceNormal) > 0.5f ? hit.faceNormal : hit.normal, n);
			// Only faces toward the climber can be held (not a hold's side seen at a glance).
			if (lbDot(hn, n) < 0.5f)
				continue;
			int k = 0;
			const int stored = count < capacity ? count : capacity;
			// A hold is measured from its first sample (the mean would creep along a continuous
			// wall and swallow it whole); its point is the mean of its samples.
			while (k < stored && lbLengthSquared(lbSub(hit.impactPoint, outHolds[k].firstSampleWs)) > merge2)
				++k;
			if (k < stored)
			{
				lbClimbHold* o = &outHolds[k];
				o->samples += 1;
				o->pointWs = lbAdd(o->pointWs, lbMulSV(1.0f / (float)o->samples, lbSub(hit.impactPoint, o->pointWs)));
				o->normalWs = lbNormalizeOr(lbAdd(lbMulSV((float)(o->samples - 1), o->normalWs), hn), hn);
				continue;
			}
			if (count < capacity)
			{
				lbClimbHold* o = &outHolds[count];
				o->pointWs = o->firstSampleWs = hit.impactPoint;
				o->normalWs = hn;
				o->samples = 1;
			}
			++count;
		}
	return count;
}

// One searched stance.
typedef struct lbPlanNode
{
	// Hold per limb (index into the holds, -1 free), the pelvis on the body plane (side, height).
	int hold[4];
	float s, t;
	// Cost so far, cost + weighted estimate.
	float g, f;
	int parent;
	int limb;
	// Distance of the nearest hand hold from the goal (m).
	float goalDistance;
	// Nonzero once the stance's body has been fitted and its discomfort priced.
	int fitted;
} lbPlanNode;

// A hold's height along the wall, for the sorted list.
typedef struct lbPlanSortedHold
{
	float t;
	int index;
} lbPlanSortedHold;

static int lbPlanCompareHeight(const void* a, const void* b)
{
	float x = ((const lbPlanSortedHold*)a)->t, y = ((const lbPlanSortedHold*)b)->t;
	return x < y ? -1 : (x > y ? 1 : 0);
}

// The search's memory (inside the caller's workspace).
typedef struct lbPlanWork
{
	lbPlanNode* nodes;
	int* heap;
	uint64_t* keys;
	int keyMask;
	// The holds sorted by height along the wall.
	lbPlanSortedHold* sorted;
	int nodeCount, heapCount, capacity;
} lbPlanWork;

// The wall frame a plan works in (world, unit axes).
typedef struct lbPlanFrame
{
	lbVec3 n, u, l, f;
	// Body plane origin: on the wall plane's normal line through the world origin, at the body
	// distance in front.
	lbVec3 origin;
	float wallD;
	const lbClimbPlanDef* def;
	const lbClimbPlanBody* body;
	const lbClimbHold* holds;
	int holdCount;
	// Root offsets from the pelvis in the wall frame (world).
	lbVec3 rootOff[4];
	// The same offsets while a foot is still on the ground: onto a slab the body stands upright
	// (up, and forward level toward the wall), not leaned along it, so a shoulder sits over the
	// pelvis. A standing stance must also keep its holds within reach of these (a first hold
	// beyond them would leave the climber on the ground); its comfort is still from the leaned roots.
	lbVec3 standOff[4];
	// Pelvis while a foot is free (the body still stands where it is), and its place on the body
	// plane.
	lbVec3 anchorWs;
	float anchorS, anchorT;
	lbVec3 goal;
	// How far below a hand on the goal the feet hold (m along the wall).
	float footSpan;
} lbPlanFrame;

static size_t lbAlignUp(size_t n)
{
	return (n + 15u) & ~(size_t)15u;
}

static int lbPlanKeyCapacity(int maxNodes)
{
	int c = 16;
	while (c < 2 * maxNodes)
		c *= 2;
	return c;
}

size_t lbGetClimbPlanWorkspaceSize(const lbClimbPlanDef* def, int holdCount)
{
	if (!def || def->maxNodes <= 0 || holdCount < 0)
		return 0;
	const size_t n = (size_t)def->maxNodes;
	return lbAlignUp(sizeof(lbPlanNode) * n) + lbAlignUp(sizeof(int) * n) +
		   lbAlignUp(sizeof(uint64_t) * (size_t)lbPlanKeyCapacity(def->maxNodes)) +
		   lbAlignUp(sizeof(lbPlanSortedHold) * (size_t)holdCount);
}

static lbVec3 lbPlanPelvis(const lbPlanFrame* fr, const int hold[4], float s, float t)
{
	if (hold[2] < 0 || hold[3] < 0)
		return fr->anchorWs;
	return lbAdd(fr->origin, lbAdd(lbMulSV(s, fr->l), lbMulSV(t, fr->u)));
}

// Places the pelvis for a stance (leaving out limb `skip`, -1 for none): starting at (s, t), Gauss-Newton on each held limb's distance
// from its comfortable reach, with steep walls at the reach limits and, while a foot is free, a
// pull toward where the body stands. Returns the stance's discomfort, or FLT_MAX when a held limb
// cannot be kept within its reach (or keeps a hand low or a foot high, or crosses its pair).
static float lbPlanFit(const lbPlanFrame* fr, const int hold[4], int skip, float* s, float* t)
{
	const lbClimbPlanDef* def = fr->def;
	const lbClimbPlanBody* b = fr->body;
	// While a foot is still on the ground the body stands where it is: the limbs going on the wall
	// must reach from there.
	bool footFree = hold[2] < 0 || hold[3] < 0;
	// Getting on, the body is not yet carried by the wall and sits less predictably: a shorter
	// reach keeps each hold within what the climbing system will let the limb reach.
	const bool mounting = footFree || hold[0] < 0 || hold[1] < 0;
	const float use = mounting ? LB_PLAN_MOUNT_REACH * def->reachUse : def->reachUse;
	float ps = footFree ? fr->anchorS : *s, pt = footFree ? fr->anchorT : *t;
	for (int it = 0; it < (footFree ? 0 : LB_PLAN_FIT_ITERATIONS); ++it)
	{
		float a11 = 1.0e-3f, a12 = 0.0f, a22 = 1.0e-3f, g1 = 0.0f, g2 = 0.0f;
		if (hold[0] < 0 || hold[1] < 0)
		{
			// A hand still off the wall: the feet alone leave the body free along a line; as the
			// climbing frame does, it rises over the feet but stays where it stood sideways.
			const float w = 4.0f;
			a11 += w;
			g1 += w * (ps - fr->anchorS);
		}
		lbVec3 p = lbPlanPelvis(fr, hold, ps, pt);
		for (int i = 0; i < 4; ++i)
		{
			if (hold[i] < 0 || i == skip)
				continue;
			const float r = b->reach[i];
			lbVec3 d = lbSub(lbAdd(p, fr->rootOff[i]), fr->holds[hold[i]].pointWs);
			float len = lbLength(d);
			if (len < 1.0e-6f)
				continue;
			lbVec3 dir = lbMulSV(1.0f / len, d);
			float j1 = lbDot(dir, fr->l), j2 = lbDot(dir, fr->u);
			float want = def->comfort[i >= 2] * r;
			float w = 1.0f / (r * r), e = len - want;
			// Past the usable reach or inside the fold limit the error weighs much more.
			if (len > use * r || len < 1.1f * b->minReach[i] * r)
				w *= 50.0f;
			a11 += w * j1 * j1;
			a12 += w * j1 * j2;
			a22 += w * j2 * j2;
			g1 += w * j1 * e;
			g2 += w * j2 * e;
		}
		float det = a11 * a22 - a12 * a12;
		if (!(det > 1.0e-12f))
			break;
		float ds = -(a22 * g1 - a12 * g2) / det, dt = -(a11 * g2 - a12 * g1) / det;
		// A step of at most 0.3 m keeps the iteration in the region its linearisation describes.
		float step = sqrtf(ds * ds + dt * dt);
		if (step > 0.3f)
		{
			ds *= 0.3f / step;
			dt *= 0.3f / step;
		}
		ps += ds;
		pt += dt;
		if (step < 1.0e-4f)
			break;
	}
	*s = ps;
	*t = pt;
	lbVec3 p = lbPlanPelvis(fr, hold, ps, pt);
	float cost = 0.0f;
	for (int i = 0; i < 4; ++i)
	{
		if (hold[i] < 0 || i == skip)
			continue;
		const float r = b->reach[i];
		const lbVec3 root = lbAdd(p, fr->rootOff[i]);
		const lbVec3 h = fr->holds[hold[i]].pointWs;
		float len = lbDistance(root, h);
		if (len > use * r + 1.0e-3f || len < b->minReach[i] * r * 1.05f)
			return FLT_MAX;
		// Standing, the limb must also reach its hold from where the standing body has its root,
		// by the climbing system's own reach test (the full reach): a hold beyond it leaves the
		// climber on the ground.
		if (footFree && lbDistance(lbAdd(p, fr->standOff[i]), h) > r)
			return FLT_MAX;
		float along = lbDot(lbSub(h, root), fr->u);
		if (i < 2 && along < -LB_PLAN_HAND_BELOW)
			return FLT_MAX;
		if (i >= 2 && along > LB_PLAN_FOOT_ABOVE)
			return FLT_MAX;
		const float side = lbDot(lbSub(h, p), fr->l) * (b->rootFromPelvis[i].y >= 0.0f ? 1.0f : -1.0f);
		if (side < -LB_PLAN_SIDE)
			return FLT_MAX;
		// Overhead toward the head, the upper arm turns past its range.
		if (i < 2 && along > 0.0f && side < LB_PLAN_OVERHEAD_SIDE)
			cost += def->overheadInsideCost * lbMinF(1.0f, (LB_PLAN_OVERHEAD_SIDE - side) / LB_PLAN_OVERHEAD_RAMP);
		float x = len / r - def->comfort[i >= 2];
		cost += x * x;
	}
	// Left limbs stay on the left of their right partners (no crossed arms or legs), and the hands
	// above the feet.
	for (int k = 0; k < 4; k += 2)
		if (hold[k] >= 0 && hold[k + 1] >= 0 && skip != k && skip != k + 1 &&
			lbDot(lbSub(fr->holds[hold[k]].pointWs, fr->holds[hold[k + 1]].pointWs), fr->l) < -LB_PLAN_CROSS)
			return FLT_MAX;
	return cost;
}

static uint64_t lbPlanKey(const int hold[4])
{
	uint64_t k = 0;
	for (int i = 0; i < 4; ++i)
		k |= (uint64_t)(uint16_t)(hold[i] + 1) << (16 * i);
	return k;
}

static uint64_t lbPlanHash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

// Marks a stance seen; false when it was already.
static bool lbPlanVisit(lbPlanWork* w, uint64_t key)
{
	// Key 0 would be "every limb on hold -1", which is never stored: 0 marks an empty slot.
	uint64_t i = lbPlanHash(key) & (uint64_t)w->keyMask;
	while (w->keys[i] != 0)
	{
		if (w->keys[i] == key)
			return false;
		i = (i + 1) & (uint64_t)w->keyMask;
	}
	w->keys[i] = key;
	return true;
}

static void lbPlanPush(lbPlanWork* w, int node)
{
	int i = w->heapCount++;
	const float f = w->nodes[node].f;
	while (i > 0)
	{
		int p = (i - 1) / 2;
		if (w->nodes[w->heap[p]].f <= f)
			break;
		w->heap[i] = w->heap[p];
		i = p;
	}
	w->heap[i] = node;
}

static int lbPlanPop(lbPlanWork* w)
{
	int top = w->heap[0];
	int last = w->heap[--w->heapCount];
	int i = 0;
	const float f = w->nodes[last].f;
	for (;;)
	{
		int c = 2 * i + 1;
		if (c >= w->heapCount)
			break;
		if (c + 1 < w->heapCount && w->nodes[w->heap[c + 1]].f < w->nodes[w->heap[c]].f)
			++c;
		if (w->nodes[w->heap[c]].f >= f)
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (w->heapCount > 0)
		w->heap[i] = last;
	return top;
}

static float lbPlanGoalDistance(const lbPlanFrame* fr, const int hold[4])
{
	float best = FLT_MAX;
	for (int i = 0; i < 2; ++i)
		if (hold[i] >= 0)
			best = lbMinF(best, lbDistance(fr->holds[hold[i]].pointWs, fr->goal));
	return best;
}

// Estimate of the moves left: each limb still has to get near where it would be with a hand on
// the goal (the feet a body's span below it), about half a reach per move of its own.
static float lbPlanEstimate(const lbPlanFrame* fr, const int hold[4])
{
	float moves = 0.0f;
	for (int i = 0; i < 4; ++i)
	{
		const float step = 0.5f * fr->body->reach[i];
		if (hold[i] < 0)
		{
			moves += 1.0f + 10.0f / step;
			continue;
		}
		lbVec3 want = i < 2 ? fr->goal : lbMulAdd(fr->goal, -fr->footSpan, fr->u);
		float d = lbMaxF(lbDistance(fr->holds[hold[i]].pointWs, want) - fr->def->goalRadius - (i < 2 ? 0.0f : 0.3f), 0.0f);
		moves += d / step;
	}
	return fr->def->greed * moves;
}

// Adds the stance `hold` reached from `parent` by moving `limb`, if it holds together and is new.
static void lbPlanTry(lbPlanWork* w, const lbPlanFrame* fr, int parent, int limb, const int hold[4])
{
	if (w->nodeCount >= w->capacity)
		return;
	if (!lbPlanVisit(w, lbPlanKey(hold)))
		return;
	const lbPlanNode* pn = &w->nodes[parent];
	const lbClimbPlanDef* def = fr->def;
	// The stance is fitted only when it comes off the heap (most children never do); until then
	// it is priced without its discomfort, which only adds.
	float g = pn->g + 1.0f;
	if (pn->limb == limb)
		g += def->repeatCost;
	else if (pn->limb >= 0 && (pn->limb >= 2) == (limb >= 2))
		g += def->sameKindCost;
	lbPlanNode* nd = &w->nodes[w->nodeCount];
	memcpy(nd->hold, hold, sizeof nd->hold);
	nd->s = pn->s;
	nd->t = pn->t;
	nd->g = g;
	nd->goalDistance = lbPlanGoalDistance(fr, hold);
	nd->f = g + lbPlanEstimate(fr, hold);
	nd->parent = parent;
	nd->limb = limb;
	nd->fitted = 0;
	lbPlanPush(w, w->nodeCount++);
}

// Expands a stance: while a limb is free, only free limbs move, in any order; after that each limb
// in turn tries the holds nearest where it would sit comfortably with the body a step toward the
// goal.
static void lbPlanExpand(lbPlanWork* w, const lbPlanFrame* fr, int index)
{
	const lbClimbPlanDef* def = fr->def;
	const lbClimbPlanBody* b = fr->body;
	const lbPlanNode node = w->nodes[index];
	int firstFree = -1;
	for (int i = 0; i < 4 && firstFree < 0; ++i)
		if (node.hold[i] < 0)
			firstFree = i;
	// The body a step toward the goal along the wall.
	lbVec3 p = lbPlanPelvis(fr, node.hold, node.s, node.t);
	lbVec3 toGoal = lbSub(fr->goal, p);
	toGoal = lbSub(toGoal, lbMulSV(lbDot(toGoal, fr->n), fr->n));
	// Getting on, the body stands where it is.
	const float step = firstFree >= 0 ? 0.0f : 0.3f;
	lbVec3 ahead = lbMulAdd(p, step, lbNormalizeOr(toGoal, fr->u));
	// Getting on, every hold in reach is worth a look (the body cannot move to make one fit).
	const int kWant = firstFree >= 0 ? 3 : def->candidatesPerLimb;
	const int kMax = kWant < LB_PLAN_MAX_CANDIDATES ? kWant : LB_PLAN_MAX_CANDIDATES;
	for (int limb = 0; limb < 4; ++limb)
	{
		if (firstFree >= 0)
		{
			// Getting on: the next free hand (right first) and the next free foot, so hands-first
			// and feet-first (a slab) are both tried without trying every order.
			const int order[2][2] = { { 1, 0 }, { 3, 2 } };
			const int* o = order[limb >= 2];
			int next = node.hold[o[0]] < 0 ? o[0] : (node.hold[o[1]] < 0 ? o[1] : -1);
			if (limb != next)
				continue;
		}
		const float r = b->reach[limb];
		const lbVec3 root = lbAdd(p, fr->rootOff[limb]);
		// Comfortable spot: the comfort reach straight up from a shoulder, down from a hip, a little
		// out to the limb's side.
		float side = b->rootFromPelvis[limb].y >= 0.0f ? 0.25f : -0.25f;
		lbVec3 dir = lbNormalize(lbAdd(lbMulSV(limb < 2 ? 1.0f : -1.0f, fr->u), lbMulSV(side, fr->l)));
		lbVec3 ideal = lbMulAdd(lbAdd(ahead, fr->rootOff[limb]), def->comfort[limb >= 2] * r, dir);
		const float reachMax = def->reachUse * r + (firstFree >= 0 ? 0.0f : LB_PLAN_BODY_SHIFT), reach2 = reachMax * reachMax;
		int cand[LB_PLAN_MAX_CANDIDATES];
		float candD[LB_PLAN_MAX_CANDIDATES];
		int n = 0;
		// Only the band of holds whose height along the wall lies within reach (they are sorted by
		// it): a binary search for its bottom, then up to its top.
		const float rootT = lbDot(lbSub(root, fr->origin), fr->u);
		int lo = 0, hi = fr->holdCount;
		while (lo < hi)
		{
			int mid = (lo + hi) / 2;
			if (w->sorted[mid].t < rootT - reachMax)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (int o = lo; o < fr->holdCount && w->sorted[o].t <= rootT + reachMax; ++o)
		{
			const int h = w->sorted[o].index;
			if (h == node.hold[0] || h == node.hold[1] || h == node.hold[2] || h == node.hold[3])
				continue;
			const lbVec3 hp = fr->holds[h].pointWs;
			if (lbLengthSquared(lbSub(hp, root)) > reach2)
				continue;
			float d2 = lbLengthSquared(lbSub(hp, ideal));
			if (n == kMax && d2 >= candD[n - 1])
				continue;
			// Insertion into the sorted short list.
			int k = n < kMax ? n++ : n - 1;
			while (k > 0 && candD[k - 1] > d2)
			{
				cand[k] = cand[k - 1];
				candD[k] = candD[k - 1];
				--k;
			}
			cand[k] = h;
			candD[k] = d2;
		}
		for (int c = 0; c < n; ++c)
		{
			int hold[4];
			memcpy(hold, node.hold, sizeof hold);
			hold[limb] = cand[c];
			lbPlanTry(w, fr, index, limb, hold);
		}
	}
}

lbResult lbPlanClimb(const lbClimbPlanDef* def, const lbClimbPlanBody* body, const lbClimbPlanInput* input,
					 void* workspace, size_t workspaceSize, lbClimbPlanMove* outMoves, int capacity,
					 lbClimbPlanResult* outResult)
{
	if (!def || !body || !input || !workspace || !outResult || (capacity > 0 && !outMoves))
		return lbReport(lb_errorNullPointer, "lbPlanClimb: a required argument is NULL");
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbPlanClimb: def not initialised with lbDefaultClimbPlanDef()");
	if (!input->holds || input->holdCount <= 0 || input->holdCount >= 65535 - 4 || capacity < 0)
		return lbReport(lb_errorInvalidArgument, "lbPlanClimb: %d holds (1..65530 wanted), capacity %d", input->holdCount,
						capacity);
	if (workspaceSize < lbGetClimbPlanWorkspaceSize(def, input->holdCount))
		return lbReport(lb_errorInvalidArgument, "lbPlanClimb: workspace of %zu bytes, %zu needed", workspaceSize,
						lbGetClimbPlanWorkspaceSize(def, input->holdCount));
	if (!lbIsValidVec3(input->goalWs) || !lbIsValidVec3(input->pelvisWs) || !lbIsValidVec3(input->wallNormalWs) ||
		!lbIsValidVec3(def->up))
		return lbReport(lb_errorNonFinite, "lbPlanClimb: goal, pelvis, wall normal or up is not finite");
	for (int i = 0; i < 4; ++i)
		if (input->held[i] && !lbIsValidVec3(input->contactWs[i]))
			return lbReport(lb_errorNonFinite, "lbPlanClimb: contact %d is not finite", i);
	for (int h = 0; h < input->holdCount; ++h)
		if (!lbIsValidVec3(input->holds[h].pointWs))
			return lbReport(lb_errorNonFinite, "lbPlanClimb: hold %d is not finite", h);
	for (int i = 0; i < 4; ++i)
		if (!(body->reach[i] > 0.0f) || !lbIsValidVec3(body->rootFromPelvis[i]))
			return lbReport(lb_errorInvalidArgument, "lbPlanClimb: body limb %d has no reach", i);
	if (!(def->reachUse > 0.0f && def->reachUse <= 1.0f) || !(def->greed >= 1.0f) || def->candidatesPerLimb <= 0 ||
		!(def->overheadInsideCost >= 0.0f) || !lbIsValidFloat(def->overheadInsideCost))
		return lbReport(lb_errorInvalidArgument,
						"lbPlanClimb: reachUse in (0, 1], greed >= 1, candidatesPerLimb > 0, overheadInsideCost finite >= 0");
	lbPlanFrame fr;
	memset(&fr, 0, sizeof fr);
	fr.n = lbNormalizeOr(input->wallNormalWs, lbVec3_zero);
	lbVec3 up = lbNormalizeOr(def->up, lbVec3_zero);
	fr.u = lbNormalizeOr(lbProjectOnPlane(up, fr.n), lbVec3_zero);
	if (lbLengthSquared(fr.n) < 0.5f || lbLengthSquared(fr.u) < 0.5f)
		return lbReport(lb_errorInvalidArgument, "lbPlanClimb: the wall normal is zero or along up");
	fr.f = lbNeg(fr.n);
	fr.l = lbNormalize(lbCross(fr.u, fr.f));
	fr.def = def;
	fr.body = body;
	fr.goal = input->goalWs;
	// Each held contact is the hold nearest it (within 0.1 m: a capture sphere may have taken the
	// hold off its centre); a contact no hold is near is refused.
	int start[4];
	for (int i = 0; i < 4; ++i)
	{
		start[i] = -1;
		if (!input->held[i])
			continue;
		float best = 0.1f * 0.1f;
		for (int h = 0; h < input->holdCount; ++h)
		{
			float d2 = lbLengthSquared(lbSub(input->holds[h].pointWs, input->contactWs[i]));
			if (d2 < best)
			{
				best = d2;
				start[i] = h;
			}
		}
		if (start[i] < 0)
			return lbReport(lb_errorInvalidArgument, "lbPlanClimb: limb %d holds a contact with no hold within 0.1 m", i);
	}
	// The standing frame: up, and forward level toward the wall. As the climbing frame does, the
	// body stays upright while standing onto a slab (a wall facing up) and leans with a wall that
	// faces down.
	const bool slab = lbDot(fr.n, up) > 0.0f;
	const lbVec3 standF = slab ? lbNormalizeOr(lbProjectOnPlane(fr.f, up), fr.f) : fr.f;
	const lbVec3 standU = slab ? up : fr.u;
	const lbVec3 standL = lbNormalizeOr(lbCross(standU, standF), fr.l);
	for (int i = 0; i < 4; ++i)
	{
		const lbVec3 o = body->rootFromPelvis[i];
		fr.rootOff[i] = lbAdd(lbAdd(lbMulSV(o.x, fr.f), lbMulSV(o.y, fr.l)), lbMulSV(o.z, fr.u));
		fr.standOff[i] = lbAdd(lbAdd(lbMulSV(o.x, standF), lbMulSV(o.y, standL)), lbMulSV(o.z, standU));
	}
	// The wall plane: the mean of the holds' offsets along the normal, of those facing the climber.
	double sumD = 0.0;
	int nD = 0;
	for (int h = 0; h < input->holdCount; ++h)
		if (lbDot(input->holds[h].normalWs, fr.n) > 0.85f)
		{
			sumD += (double)lbDot(input->holds[h].pointWs, fr.n);
			++nD;
		}
	fr.wallD = nD > 0 ? (float)(sumD / nD) : lbDot(input->holds[0].pointWs, fr.n);
	fr.origin = lbMulSV(fr.wallD + def->bodyDistance, fr.n);
	// Feet below the hands: shoulder-to-hip height plus both kinds' comfortable reach, as the
	// body hangs straight.
	fr.footSpan = 0.5f * (body->rootFromPelvis[0].z + body->rootFromPelvis[1].z - body->rootFromPelvis[2].z -
						  body->rootFromPelvis[3].z) +
				  def->comfort[0] * body->reach[0] + def->comfort[1] * body->reach[2];
	fr.holds = input->holds;
	fr.holdCount = input->holdCount;
	{
		fr.anchorWs = input->pelvisWs;
		lbVec3 rel = lbSub(input->pelvisWs, fr.origin);
		fr.anchorS = lbDot(rel, fr.l);
		fr.anchorT = lbDot(rel, fr.u);
	}
	// Workspace.
	lbPlanWork w;
	memset(&w, 0, sizeof w);
	char* mem = (char*)workspace;
	const size_t n = (size_t)def->maxNodes;
	w.nodes = (lbPlanNode*)mem;
	mem += lbAlignUp(sizeof(lbPlanNode) * n);
	w.heap = (int*)mem;
	mem += lbAlignUp(sizeof(int) * n);
	const int keyCap = lbPlanKeyCapacity(def->maxNodes);
	w.keys = (uint64_t*)mem;
	memset(w.keys, 0, sizeof(uint64_t) * (size_t)keyCap);
	w.keyMask = keyCap - 1;
	mem += lbAlignUp(sizeof(uint64_t) * (size_t)keyCap);
	w.sorted = (lbPlanSortedHold*)mem;
	for (int h = 0; h < input->holdCount; ++h)
	{
		w.sorted[h].t = lbDot(lbSub(input->holds[h].pointWs, fr.origin), fr.u);
		w.sorted[h].index = h;
	}
	qsort(w.sorted, (size_t)input->holdCount, sizeof(lbPlanSortedHold), lbPlanCompareHeight);
	w.capacity = def->maxNodes;
	memset(outResult, 0, sizeof *outResult);
	// A goal no hold lies near cannot be reached whatever the moves.
	float nearest = FLT_MAX;
	for (int h = 0; h < input->holdCount; ++h)
		nearest = lbMinF(nearest, lbDistance(input->holds[h].pointWs, input->goalWs));
	// The start stance.
	lbPlanNode* s0 = &w.nodes[0];
	memcpy(s0->hold, start, sizeof start);
	s0->s = fr.anchorS;
	s0->t = fr.anchorT;
	if (start[0] >= 0 || start[1] >= 0 || start[2] >= 0 || start[3] >= 0)
		(void)lbPlanFit(&fr, start, -1, &s0->s, &s0->t);
	s0->g = 0.0f;
	s0->goalDistance = lbPlanGoalDistance(&fr, start);
	s0->f = lbPlanEstimate(&fr, start);
	s0->parent = -1;
	s0->limb = -1;
	s0->fitted = 1;
	w.nodeCount = 1;
	if (lbPlanKey(start) != 0)
		lbPlanVisit(&w, lbPlanKey(start));
	lbPlanPush(&w, 0);
	int found = -1, best = 0;
	if (nearest > def->goalRadius)
	{
		outResult->status = lb_climbPlanUnreachable;
		outResult->goalDistance = s0->goalDistance == FLT_MAX ? nearest : s0->goalDistance;
		lbReport(lb_errorInvalidArgument,
				 "lbPlanClimb: goal (%g, %g, %g) cannot be reached: the nearest hold is %g m from it (goalRadius %g m)",
				 (double)input->goalWs.x, (double)input->goalWs.y, (double)input->goalWs.z, (double)nearest,
				 (double)def->goalRadius);
		return lb_ok;
	}
	while (w.heapCount > 0)
	{
		int cur = lbPlanPop(&w);
		lbPlanNode* c = &w.nodes[cur];
		if (!c->fitted)
		{
			float discomfort = lbPlanFit(&fr, c->hold, -1, &c->s, &c->t);
			if (discomfort == FLT_MAX)
				continue;
			c->fitted = 1;
			c->g += def->comfortCost * discomfort;
			c->f += def->comfortCost * discomfort;
			// Priced higher now: back in line unless it still comes first.
			if (w.heapCount > 0 && w.nodes[w.heap[0]].f < c->f)
			{
				lbPlanPush(&w, cur);
				continue;
			}
		}
		bool allHeld = c->hold[0] >= 0 && c->hold[1] >= 0 && c->hold[2] >= 0 && c->hold[3] >= 0;
		if (allHeld && c->goalDistance < w.nodes[best].goalDistance)
			best = cur;
		if (allHeld && c->goalDistance <= def->goalRadius)
		{
			found = cur;
			break;
		}
		outResult->nodesExpanded++;
		if (w.nodeCount >= w.capacity)
			break;
		lbPlanExpand(&w, &fr, cur);
	}
	int last = found >= 0 ? found : best;
	outResult->status = found >= 0 ? lb_climbPlanReached
									: (w.nodeCount >= w.capacity ? lb_climbPlanOutOfBudget : lb_climbPlanUnreachable);
	outResult->goalDistance = w.nodes[last].goalDistance;
	// The path, root to `last`: count it, then write it backwards.
	int len = 0;
	for (int k = last; w.nodes[k].parent >= 0; k = w.nodes[k].parent)
		++len;
	if (len > capacity && outResult->status == lb_climbPlanReached)
		outResult->status = lb_climbPlanOutOfBudget;
	int k = last;
	for (int m = len - 1; m >= 0; --m, k = w.nodes[k].parent)
	{
		if (m >= capacity)
			continue;
		outMoves[m].limb = w.nodes[k].limb;
		outMoves[m].hold = w.nodes[k].hold[w.nodes[k].limb];
		outMoves[m].pelvisWs = lbPlanPelvis(&fr, w.nodes[k].hold, w.nodes[k].s, w.nodes[k].t);
	}
	outResult->moveCount = len < capacity ? len : capacity;
	if (outResult->status == lb_climbPlanUnreachable)
		lbReport(lb_errorInvalidArgument,
				 "lbPlanClimb: goal (%g, %g, %g) cannot be reached from these holds: every stance that keeps the held limbs "
				 "in reach was tried (%d); the closest hand hold is %g m from it",
				 (double)input->goalWs.x, (double)input->goalWs.y, (double)input->goalWs.z, outResult->nodesExpanded,
				 (double)outResult->goalDistance);
	else if (outResult->status == lb_climbPlanOutOfBudget)
		lbReport(lb_errorCapacity, "lbPlanClimb: out of search nodes (%d) or move capacity (%d) before the goal; closest %g m",
				 def->maxNodes, capacity, (double)outResult->goalDistance);
	return lb_ok;
}

lbClimbDriverDef lbDefaultClimbDriverDef(void)
{
	lbClimbDriverDef d;
	memset(&d, 0, sizeof d);
	d.arriveDistance = 0.01f;
	d.surfaceDistance = 0.08f;
	d.settleDistance = 0.01f;
	d.settleTime = 0.3f;
	d.pause = 0.15f;
	d.stallTime = 1.5f;
	d.stallAccept = 0.15f;
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

void lbClimbDriver_Reset(lbClimbDriver* driver)
{
	if (!driver)
		return;
	memset(driver, 0, sizeof *driver);
}

enum
{
	lb_drivePhaseSelect = 0,
	lb_drivePhaseSteer,
	lb_drivePhaseSettle,
	lb_drivePhaseLock,
	lb_drivePhasePause,
};

bool lbClimbDrive(lbClimbDriver* d, const lbClimbDriverDef* dd, lbClimbState* state, const lbClimbDef* def,
				  const lbClimbHold* holds, int holdCount, const lbClimbPlanMove* moves, int moveCount, float dt)
{
	if (!d || !dd || !state || !def || (moveCount > 0 && (!moves || !holds)))
	{
		lbReport(lb_errorNullPointer, "lbClimbDrive: a required argument is NULL");
		return false;
	}
	if (dd->internalValue != LB_SECRET_COOKIE || def->internalValue != LB_SECRET_COOKIE)
	{
		lbReport(lb_errorDefNotInitialized, "lbClimbDrive: a def was not initialised with its lbDefault*Def()");
		return false;
	}
	if (d->stuck || d->move >= moveCount || d->move < 0)
		return false;
	if (!(dt > 0.0f) || !lbIsValidFloat(dt))
		return true;
	const lbClimbPlanMove* mv = &moves[d->move];
	if (mv->limb < 0 || mv->limb >= 4 || mv->hold < 0 || mv->hold >= holdCount)
	{
		lbReport(lb_errorInvalidArgument, "lbClimbDrive: move %d (limb %d, hold %d) is out of range", d->move, mv->limb,
				 mv->hold);
		d->stuck = 1;
		return false;
	}
	const int limb = mv->limb, kind = limb >= 2;
	const lbClimbHold* hold = &holds[mv->hold];
	lbClimbLimbState* l = &state->limbs[limb];
	d->timer += dt;
	switch (d->phase)
	{
	case lb_drivePhaseSelect:
		if (l->mode == lb_climbLocked || l->mode == lb_climbLocking)
			lbClimb_Release(state, limb);
		lbClimb_Select(state, limb);
		d->phase = lb_drivePhaseSteer;
		d->timer = 0.0f;
		d->bestDistance = FLT_MAX;
		d->bestTime = 0.0f;
		break;
	case lb_drivePhaseSteer:
	{
		if (state->selected != limb)
			lbClimb_Select(state, limb);
		// The sense stage seeds the guide from the pose on its first step after the selection.
		if (l->lockTimer < 0.0f)
			break;
		lbVec3 n = l->hasSurface ? l->normalWs
								 : (lbLengthSquared(state->wallNormalWs) > 0.5f ? state->wallNormalWs : hold->normalWs);
		n = lbNormalizeOr(n, hold->normalWs);
		// The stick's axes as the sense stage makes them: surface-up (world up on the surface) and
		// surface-up x normal.
		lbVec3 su = lbProjectOnPlane(def->up, n);
		if (lbLength(su) < 0.2f)
			su = lbAdd(su, lbMulSV(0.2f, lbNormalizeOr(lbProjectOnPlane(lbNeg(state->wallNormalWs), n), lbAnyPerpendicular(n))));
		su = lbNormalizeOr(su, lbAnyPerpendicular(n));
		lbVec3 sr = lbNormalizeOr(lbCross(su, n), lbAnyPerpendicular(n));
		lbVec3 delta = lbProjectOnPlane(lbSub(hold->pointWs, l->guideWs), n);
		float dist = lbLength(delta);
		bool onHold = l->hasSurface && lbDistance(l->surfaceWs, hold->pointWs) <= dd->surfaceDistance;
		if (dist <= dd->arriveDistance && onHold)
		{
			lbClimb_SetStick(state, 0.0f, 0.0f);
			d->phase = lb_drivePhaseSettle;
			d->timer = 0.0f;
			break;
		}
		// Full stick until the last frame's worth of travel, then just enough to land on the hold.
		float full = lbMaxF(def->moveSpeed[kind] * dt, 1.0e-6f);
		float x = lbDot(delta, sr) / full, y = lbDot(delta, su) / full;
		lbClimb_SetStick(state, x, y);
		if (dist < d->bestDistance - 0.005f)
		{
			d->bestDistance = dist;
			d->bestTime = d->timer;
		}
		else if (d->timer - d->bestTime > dd->stallTime && l->hasSurface &&
				 lbDistance(l->surfaceWs, hold->pointWs) <= dd->stallAccept)
		{
			// The body lets the guide no nearer, but it holds a surface near the hold: take that.
			lbClimb_SetStick(state, 0.0f, 0.0f);
			d->phase = lb_drivePhaseSettle;
			d->timer = 0.0f;
		}
		else if (d->timer - d->bestTime > dd->stallTime)
		{
			lbReport(lb_errorUnsupported, "lbClimbDrive: move %d stalled %g m short of its hold (limb %d, hold %d)", d->move,
					 (double)dist, limb, mv->hold);
			lbClimb_SetStick(state, 0.0f, 0.0f);
			d->stuck = 1;
			return false;
		}
		break;
	}
	case lb_drivePhaseSettle:
	{
		// Confirm once the animated target has caught up with its preview, so the lock starts from
		// where the hand or foot already is.
		lbVec3 preview = lbMulAdd(l->surfaceWs, def->searchOffset[kind], l->normalWs);
		if ((lbDistance(l->targetWs, preview) <= dd->settleDistance && d->timer >= dd->settleTime) || d->timer > 1.5f)
		{
			if (lbClimb_Confirm(state) == lb_ok)
			{
				d->phase = lb_drivePhaseLock;
				d->timer = 0.0f;
			}
			else
				d->phase = lb_drivePhaseSteer;
		}
		break;
	}
	case lb_drivePhaseLock:
		if (l->mode == lb_climbLocked)
		{
			d->phase = lb_drivePhasePause;
			d->timer = 0.0f;
		}
		break;
	default:
		if (d->timer >= dd->pause)
		{
			d->move++;
			d->phase = lb_drivePhaseSelect;
			d->timer = 0.0f;
		}
		break;
	}
	return d->move < moveCount;
}
