// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Quality metrics of a pose sequence. The definitions (which bones, which frames, which surface)
// are written out in docs/metrics.md; keep the two in step.
#include "limber/metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lbLimitJoint
{
	int bone;
	float maxDeg;
} lbLimitJoint;

#define LB_METRICS_MAX_LIMITS 32
// Most points a capsule axis is sampled at (a 3.2 m segment at 5 cm).
#define LB_METRICS_MAX_SAMPLES 64
#define LB_METRICS_MAX_SUPPORT 64
// Capsule penetrations deeper than this (m) are refined between samples; shallower ones (a foot
// resting on the ground) are not worth the queries.
#define LB_METRICS_REFINE 1.0e-3f

struct lbMetrics
{
	lbMetricsDef def;
	const lbSkeleton* skeleton;
	lbHumanoid humanoid;
	lbSole sole[2];
	float segmentRadius[lb_segmentCount][2];
	// The lying torso's bend (lbMetricsTorsoParts): its spine bone (LB_NULL_INDEX for none) and the
	// bend point in that bone's frame.
	int torsoBend;
	lbVec3 torsoBendLocal;
	bool hasQuery;
	int refBone;
	lbLimitJoint limits[LB_METRICS_MAX_LIMITS];
	int limitCount;
	bool hasPrev;
	bool hasPrevBase;
	lbVec3 prevSole[2][lb_solePointCount];
	// How long each foot has been slow (s), and how long for support's settling, which a frame
	// without a speed (the first, a reset) starts settled (s).
	float slowTime[2];
	float settleTime[2];
	// Floating span in progress: its length (s) and the highest lowest-sole height in it (m).
	float floatSpan;
	float floatSpanMax;
	int reasonCounts[lb_unmeasuredReasonCount];
	lbMetricsSummary summary;
	// Previous frame's bone transforms relative to the reference bone (boneCount entries).
	lbTransform* prevRel;
	// Previous frame's world rotations of the final and of the base pose (boneCount entries each).
	lbQuat* prevFinalWs;
	lbQuat* prevBaseWs;
};

lbMetricsDef lbDefaultMetricsDef(void)
{
	lbMetricsDef d;
	memset(&d, 0, sizeof d);
	d.upWs = lbVec3_axisZ;
	d.channelMask = LB_CHANNEL_ALL & ~LB_CHANNEL_CHARACTER;
	d.plantedSpeed = 0.25f;
	d.plantedNear = 0.10f;
	d.plantedTime = 0.2f;
	d.probeLift = 0.5f;
	d.probeLength = 1.5f;
	d.supportDrop = 0.05f;
	d.supportSamples = 10;
	d.supportSettle = 0.05f;
	d.limbSpacing = 0.05f;
	d.floatContactHeight = 0.03f;
	d.floatTime = 0.6f;
	d.inversionToleranceDeg = -2.0f;
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

const char* lbUnmeasuredReasonText(lbUnmeasuredReason reason)
{
	switch (reason)
	{
		case lb_unmeasuredNoQuery: return "no scene query: world metrics cannot be measured";
		case lb_unmeasuredNoGroundUnderPlantedFoot: return "planted foot with no ground under it within reach";
		case lb_unmeasuredNoSurfaceAtContact: return "touching contact with no surface along its normal within reach";
		case lb_unmeasuredNone:
		default: return "";
	}
}

float lbMetricsSegmentRadius(const lbHumanoid* h, lbMetricsSegment segment, int side)
{
	if (!h || side < 0 || side > 1)
		return 0.0f;
	const lbLegAxes* leg = &h->legAxes[side];
	const lbArmAxes* arm = &h->armAxes[side];
	// Fractions of the measured segment lengths (adult anthropometry, rounded down so a capsule
	// that touches means the flesh touches): a 0.43 m thigh gives 6 cm, a 0.41 m calf 4.5 cm,
	// a 0.29 m upper arm 4.4 cm, a 0.26 m forearm 3.4 cm, a 1.8 m body a 10 cm torso. The foot's
	// is 0.4 of the ankle height, so the calf's end sphere (at the ankle) stays above a flat sole.
	switch (segment)
	{
		case lb_segmentThigh: return 0.14f * leg->thighLength;
		case lb_segmentCalf: return lbMinF(0.11f * leg->calfLength, 0.6f * leg->ankleHeight);
		case lb_segmentFoot: return 0.4f * leg->ankleHeight;
		case lb_segmentUpperArm: return 0.15f * arm->upperLength;
		case lb_segmentForeArm: return 0.13f * arm->foreLength;
		case lb_segmentTorso: return 0.055f * h->height;
		case lb_segmentCount:
		default: return 0.0f;
	}
}

static void lbAddLimit(lbMetrics* m, int bone, float maxDeg)
{
	if (bone >= 0 && m->limitCount < LB_METRICS_MAX_LIMITS)
		m->limits[m->limitCount++] = (lbLimitJoint){ bone, maxDeg };
}

static bool lbPositiveFinite(float v)
{
	return lbIsValidFloat(v) && v > 0.0f;
}

lbMetrics* lbCreateMetrics(const lbMetricsDef* def)
{
	if (!def || !def->skeleton || !def->humanoid)
	{
		lbReport(lb_errorNullPointer, "lbCreateMetrics: def, skeleton and humanoid are required");
		return NULL;
	}
	if (def->internalValue != LB_SECRET_COOKIE)
	{
		lbReport(lb_errorDefNotInitialized, "lbCreateMetrics: def not initialised with lbDefaultMetricsDef()");
		return NULL;
	}
	if (!lbIsValidVec3(def->upWs) || lbAbsF(lbLength(def->upWs) - 1.0f) > 1.0e-3f)
	{
		lbReport(lb_errorInvalidArgument, "lbCreateMetrics: up must be a finite unit vector");
		return NULL;
	}
	if (!(lbIsValidFloat(def->plantedSpeed) && def->plantedSpeed >= 0.0f) || !(lbIsValidFloat(def->probeLift) && def->probeLift >= 0.0f) ||
		!(lbIsValidFloat(def->plantedNear) && def->plantedNear >= 0.0f) || !(lbIsValidFloat(def->plantedTime) && def->plantedTime >= 0.0f) ||
		!lbPositiveFinite(def->probeLength) || !lbPositiveFinite(def->supportDrop) || !lbPositiveFinite(def->limbSpacing) ||
		!(lbIsValidFloat(def->floatContactHeight) && def->floatContactHeight >= 0.0f) ||
		!(lbIsValidFloat(def->floatTime) && def->floatTime >= 0.0f) || !lbIsValidFloat(def->inversionToleranceDeg) ||
		!(lbIsValidFloat(def->supportSettle) && def->supportSettle >= 0.0f))
	{
		lbReport(lb_errorInvalidArgument,
				 "lbCreateMetrics: speeds, lengths and times must be finite and not negative (probe length, support drop "
				 "and limb spacing > 0)");
		return NULL;
	}
	if (def->supportSamples < 2 || def->supportSamples > LB_METRICS_MAX_SUPPORT)
	{
		lbReport(lb_errorInvalidArgument, "lbCreateMetrics: supportSamples %d outside 2..%d", def->supportSamples,
				 LB_METRICS_MAX_SUPPORT);
		return NULL;
	}
	size_t n = (size_t)def->skeleton->boneCount;
	lbMetrics* m = (lbMetrics*)lbAllocZeroed(sizeof(lbMetrics));
	lbTransform* prev = (lbTransform*)lbAllocZeroed((size_t)n * sizeof(lbTransform));
	lbQuat* prevQ = (lbQuat*)lbAllocZeroed((size_t)(2 * n) * sizeof(lbQuat));
	if (!m || !prev || !prevQ)
	{
		lbFree(m);
		lbFree(prev);
		lbFree(prevQ);
		lbReport(lb_errorOutOfMemory, "lbCreateMetrics");
		return NULL;
	}
	m->def = *def;
	m->skeleton = def->skeleton;
	m->humanoid = *def->humanoid;
	m->prevRel = prev;
	m->prevFinalWs = prevQ;
	m->prevBaseWs = prevQ + n;
	m->hasQuery = def->query.rayCast != NULL && def->query.sphereOverlap != NULL;
	const lbHumanoid* h = &m->humanoid;
	for (int s = 0; s < 2; ++s)
	{
		m->sole[s] = lbHumanoid_GetSole(h, s);
		for (int g = 0; g < lb_segmentCount; ++g)
			m->segmentRadius[g][s] = lbMetricsSegmentRadius(h, (lbMetricsSegment)g, s);
	}
	m->refBone = (h->root >= 0 && h->root != h->pelvis) ? h->root : LB_NULL_INDEX;
	// The torso's bend: the spine joint nearest 0.6 of the way up the rest pose's pelvis-to-top line
	// (not the first spine bone, nor the top), and the line's point nearest it, kept in its frame.
	m->torsoBend = LB_NULL_INDEX;
	{
		const int top = h->neck >= 0 ? h->neck : (h->spineCount > 0 ? h->spine[h->spineCount - 1] : LB_NULL_INDEX);
		const lbTransform* rest = m->skeleton ? m->skeleton->restModel : NULL;
		if (rest && h->pelvis >= 0 && top >= 0)
		{
			const lbVec3 a = rest[h->pelvis].p, ab = lbSub(rest[top].p, a);
			const float len2 = lbLengthSquared(ab);
			float bestOff = 0.0f;
			for (int i = 1; i < h->spineCount && len2 > 1.0e-8f; ++i)
			{
				const int b = h->spine[i];
				if (b < 0 || b == top)
					continue;
				const float t = lbDot(lbSub(rest[b].p, a), ab) / len2;
				if (m->torsoBend < 0 || lbAbsF(t - 0.6f) < bestOff)
				{
					m->torsoBend = b;
					bestOff = lbAbsF(t - 0.6f);
					m->torsoBendLocal = lbInvTransformPoint(rest[b], lbMulAdd(a, lbClampF(t, 0.0f, 1.0f), ab));
				}
			}
		}
	}

	// Rotation-from-rest cones (deg) of the joints that are not hinges; docs/metrics.md lists them.
	for (int i = 0; i < h->spineCount; ++i)
		lbAddLimit(m, h->spine[i], 50.0f);
	lbAddLimit(m, h->neck, 60.0f);
	lbAddLimit(m, h->head, 70.0f);
	for (int s = 0; s < 2; ++s)
	{
		lbAddLimit(m, h->arm[s].clavicle, 45.0f);
		lbAddLimit(m, h->arm[s].upperArm, 150.0f);
		lbAddLimit(m, h->arm[s].hand, 95.0f);
		lbAddLimit(m, h->leg[s].thigh, 130.0f);
		lbAddLimit(m, h->leg[s].foot, 70.0f);
		lbAddLimit(m, h->leg[s].ball, 70.0f);
	}
	lbMetricsSummary* sm = &m->summary;
	sm->contactDriftMax = sm->penetrationMax = sm->hoverMax = sm->palmWallAngleMax = -1.0f;
	sm->posePopMax = sm->posePopMaxM = sm->solePenetrationMax = sm->limbPenetrationMax = -1.0f;
	sm->supportMin = sm->addedPopMax = sm->sourcePopMax = -1.0f;
	sm->solePenetrationMaxFrame = sm->solePenetrationMaxFoot = sm->solePenetrationMaxPoint = -1;
	sm->limbPenetrationMaxFrame = sm->limbPenetrationMaxSegment = -1;
	sm->supportMinFrame = sm->supportMinFoot = sm->addedPopMaxFrame = sm->addedPopMaxBone = -1;
	sm->torsoHeightMax = sm->torsoRollErrorMax = sm->torsoPitchErrorMax = -1.0f;
	for (int k = 0; k < lb_segmentCount; ++k)
		sm->limbPenetrationBySegmentMax[k] = -1.0f;
	sm->floatingMax = sm->floatingTime = 0.0f;
	sm->unmeasuredReason = "";
	return m;
}

void lbDestroyMetrics(lbMetrics* metrics)
{
	if (!metrics)
		return;
	lbFree(metrics->prevRel);
	lbFree(metrics->prevFinalWs);
	lbFree(metrics);
}

float lbSignedHingeAngle(lbVec3 a, lbVec3 b, lbVec3 c, lbVec3 hingeAxis)
{
	lbVec3 d1 = lbNormalize(lbSub(b, a));
	lbVec3 d2 = lbNormalize(lbSub(c, b));
	lbVec3 axis = lbNormalize(hingeAxis);
	return atan2f(lbDot(lbCross(d1, d2), axis), lbDot(d1, d2)) * LB_RAD2DEG;
}

static lbTransform lbBoneWs(const lbPose* pose, lbTransform characterWs, int bone)
{
	return lbTransformMul(characterWs, pose->model[bone]);
}

lbVec3 lbSolePointWs(const lbHumanoid* humanoid, const lbPose* pose, lbTransform characterWs, int side)
{
	if (!humanoid || !pose || side < 0 || side > 1)
		return lbVec3_zero;
	int foot = humanoid->leg[side].foot;
	if (foot < 0 || foot >= pose->boneCount)
		return lbVec3_zero;
	lbSole sole = lbHumanoid_GetSole(humanoid, side);
	return lbTransformPoint(characterWs, lbSole_PointMs(&sole, pose->model[foot], lb_soleUnderAnkle));
}

static bool lbTransformFinite(lbTransform t)
{
	return lbIsValidVec3(t.p) && lbIsValidVec3(t.s) && lbIsValidFloat(t.q.x) && lbIsValidFloat(t.q.y) &&
		   lbIsValidFloat(t.q.z) && lbIsValidFloat(t.q.w);
}

// ---------------------------------------------------------------------------------------------
// Seeing the world. Boxes are solid; triangles (meshes, heightfields) are surfaces whose inside is
// what lies under the first surface found from above.

static lbHit lbMetricsRay(const lbMetrics* m, lbVec3 from, lbVec3 to)
{
	lbQueryInput in = lbDefaultQueryInput();
	in.start = from;
	in.end = to;
	in.channelMask = m->def.channelMask;
	return lbRayCast(&m->def.query, &in);
}

static lbHit lbMetricsOverlap(const lbMetrics* m, lbVec3 centre, float radius)
{
	lbQueryInput in = lbDefaultQueryInput();
	in.start = centre;
	in.end = centre;
	in.radius = radius;
	in.channelMask = m->def.channelMask;
	return lbSphereOverlap(&m->def.query, &in);
}

// What lies at and under a point.
typedef struct lbGroundProbe
{
	// A surface was found above-and-through or under the point within reach.
	bool found;
	// The point is inside a solid (under the first surface from above, or inside a box).
	bool inside;
	// True depth inside (m, >= 0): the smaller of the vertical depth and the distance to the
	// nearest surface.
	float depth;
	// Signed height of the point above the ground under it (m, along up; negative inside).
	float height;
	// Signed distance from the ground's plane at the hit, along its normal (m; negative inside).
	float distance;
	lbVec3 groundWs;
	lbVec3 normalWs;
} lbGroundProbe;

// Depth of a point known to lie `vertical` metres under a surface: one overlap of that radius
// finds the nearest surface; a box that holds the centre reports radius + its gap to the box's
// nearest face (so a depth above the radius means "inside a box, gap = depth - radius").
static float lbTrueDepth(const lbMetrics* m, lbVec3 p, float vertical)
{
	lbHit ov = lbMetricsOverlap(m, p, vertical);
	if (!ov.hit)
		return vertical;
	float d = ov.penetrationDepth;
	float nearest = d > vertical ? d - vertical : vertical - d;
	return lbClampF(nearest, 0.0f, vertical);
}

// True when a point lies inside a solid box (a zero-radius overlap only reports boxes).
static bool lbInsideBox(const lbMetrics* m, lbVec3 p)
{
	lbHit ov = lbMetricsOverlap(m, p, 0.0f);
	return ov.hit && ov.penetrationDepth > 0.0f;
}

// A point, then a point this far (m) under a surface hit from above: inside a box when the
// surface is a box's top, outside when it is a triangle surface's.
#define LB_METRICS_BOX_TEST 2.0e-3f

// What lies at and under point `p` (world): a ray down from probeLift above it to probeLength
// below. Found under the first surface from above, the point is inside, unless that surface is
// the top of a box that does not hold the point (the point is then under an overhang).
static lbGroundProbe lbProbePoint(const lbMetrics* m, lbVec3 p)
{
	lbGroundProbe g;
	memset(&g, 0, sizeof g);
	const lbVec3 up = m->def.upWs;
	lbVec3 below = lbMulAdd(p, -m->def.probeLength, up);
	lbHit hit = lbMetricsRay(m, lbMulAdd(p, m->def.probeLift, up), below);
	if (hit.hit && hit.startedInside)
	{
		// The probe starts inside a box: either the point is inside one too (a zero-radius overlap
		// gives its gap to the nearest face), or it lies under an overhang and its ground is found
		// from the point itself.
		lbHit ov = lbMetricsOverlap(m, p, 0.0f);
		if (ov.hit && ov.penetrationDepth > 0.0f)
		{
			g.found = g.inside = true;
			g.depth = ov.penetrationDepth;
			g.height = g.distance = -g.depth;
			g.groundWs = ov.impactPoint;
			g.normalWs = up;
			return g;
		}
		hit = lbMetricsRay(m, p, below);
		if (hit.startedInside)
			hit.hit = false;
	}
	if (!hit.hit)
		return g;
	// The box test steps into the surface against its normal, not straight down: an overhang's
	// face or edge can lean so that a point just below the impact lies outside its box.
	if (lbDot(lbSub(p, hit.impactPoint), up) < 0.0f && !lbInsideBox(m, p) &&
		lbInsideBox(m, lbMulAdd(hit.impactPoint, -LB_METRICS_BOX_TEST, lbNormalizeOr(hit.normal, up))))
	{
		// The surface found above is the top of a box whose underside is above the point (an
		// overhang): the point is outside; its ground is under it.
		hit = lbMetricsRay(m, p, below);
		if (!hit.hit || hit.startedInside)
			return g;
	}
	g.found = true;
	g.groundWs = hit.impactPoint;
	g.normalWs = lbDot(hit.normal, up) < 0.0f ? lbNeg(hit.normal) : hit.normal;
	g.height = lbDot(lbSub(p, hit.impactPoint), up);
	g.distance = lbDot(lbSub(p, hit.impactPoint), g.normalWs);
	if (g.height < 0.0f)
	{
		g.inside = true;
		g.depth = lbTrueDepth(m, p, -g.height);
		g.distance = -g.depth;
	}
	return g;
}

// Penetration (m) of a sphere at `centre` of `radius`: the overlap's depth, or radius + the
// centre's own depth when the centre is inside. *outMissed is set when no surface is within the
// radius (the centre may still lie deep under a surface; the caller decides whether to look).
static float lbSphereDepth(const lbMetrics* m, lbVec3 centre, float radius, bool* outMissed, bool* outInside)
{
	*outMissed = false;
	*outInside = false;
	lbHit ov = lbMetricsOverlap(m, centre, radius);
	if (!ov.hit)
	{
		*outMissed = true;
		return 0.0f;
	}
	if (ov.penetrationDepth > radius)
	{
		// Only a box holding the centre reports more than the radius.
		*outInside = true;
		return ov.penetrationDepth;
	}
	lbGroundProbe g = lbProbePoint(m, centre);
	if (g.inside)
	{
		*outInside = true;
		return radius + g.depth;
	}
	return ov.penetrationDepth;
}

// Deepest penetration (m) of the capsule a-b of `radius` into the world.
static float lbCapsuleDepth(const lbMetrics* m, lbVec3 a, lbVec3 b, float radius)
{
	float len = lbDistance(a, b);
	lbVec3 mid = lbLerp(a, b, 0.5f);
	lbHit broad = lbMetricsOverlap(m, mid, 0.5f * len + radius);
	bool buried = false;
	if (!broad.hit)
	{
		// Nothing within the bounding sphere: the capsule is in the air, or all of it lies under a
		// surface further than its radius.
		lbGroundProbe g = lbProbePoint(m, mid);
		if (!g.inside)
			return 0.0f;
		buried = true;
	}
	int n = (int)ceilf(len / m->def.limbSpacing) + 1;
	n = n < 2 ? 2 : (n > LB_METRICS_MAX_SAMPLES ? LB_METRICS_MAX_SAMPLES : n);
	bool missed[LB_METRICS_MAX_SAMPLES];
	bool anyInside = buried;
	float best = 0.0f;
	int bestAt = 0;
	for (int i = 0; i < n; ++i)
	{
		bool inside;
		float d = lbSphereDepth(m, lbLerp(a, b, (float)i / (float)(n - 1)), radius, &missed[i], &inside);
		anyInside = anyInside || inside;
		bestAt = d > best ? i : bestAt;
		best = lbMaxF(best, d);
	}
	// The deepest point may lie between samples (a tilted shin over a stair nose): look a quarter
	// and half a step to either side of the deepest sample.
	for (int k = 0; best > LB_METRICS_REFINE && k < 4; ++k)
	{
		static const float offsets[4] = { -0.5f, -0.25f, 0.25f, 0.5f };
		float t = ((float)bestAt + offsets[k]) / (float)(n - 1);
		if (t < 0.0f || t > 1.0f)
			continue;
		bool miss, inside;
		best = lbMaxF(best, lbSphereDepth(m, lbLerp(a, b, t), radius, &miss, &inside));
	}
	// Samples with no surface within the radius next to samples inside may be deep under a
	// surface (a shin through a rock): measure their centres.
	for (int i = 0; anyInside && i < n; ++i)
	{
		if (!missed[i])
			continue;
		lbGroundProbe g = lbProbePoint(m, lbLerp(a, b, (float)i / (float)(n - 1)));
		if (g.inside)
			best = lbMaxF(best, radius + g.depth);
	}
	return best;
}

static void lbMaxInto(float* acc, float v)
{
	if (v >= 0.0f && v > *acc)
		*acc = v;
}

// Signed distance of a contact point from the surface it should touch: a ray from `probeLift`
// out along `outward` back through the point; positive above the surface, negative inside.
static bool lbContactDistance(const lbMetrics* m, lbVec3 point, lbVec3 outward, float* outDistance)
{
	lbHit hit = lbMetricsRay(m, lbMulAdd(point, m->def.probeLift, outward), lbMulAdd(point, -m->def.probeLength, outward));
	if (!hit.hit || hit.startedInside)
		return false;
	lbVec3 normal = lbNormalizeOr(hit.normal, outward);
	*outDistance = lbDot(lbSub(point, hit.impactPoint), normal);
	return true;
}

static void lbNoteUnmeasured(lbFrameMetrics* fm, lbUnmeasuredReason reason)
{
	if (fm->unmeasured == lb_unmeasuredNone)
		fm->unmeasured = reason;
}

// Share (0..1) of a planted foot's heel-to-ball line with ground under it. A sample is supported
// where its ground lies at most supportDrop below the sample itself, or below the ground plane under
// the bearing point: of the samples and the four sole points, the one nearest its ground (the sole
// line turned about it onto that plane). Ground further down than both, or none within reach, leaves
// the sample unsupported. A heel lifted about the ball over a slope keeps its ground on the plane; a
// sole past a stair nose or over a gap has it far below both. The sole points take part because a
// foot resting only on its ball, the ball just over a nose and every sample short of it, bears on the
// upper tread: chosen among the samples alone the bearing plane was the lower tread 25 cm under the
// sole, and that read 1. The sample's own ground counts because a bearing point on a crest has the
// far side's plane: a boxer on his toes at the top of a rise on rocks (toe tip 2 mm over the crest's
// far face, ball 1.6 cm and heel 5 cm over the rise behind it) read 0.2, the far face's plane
// passing 5-10 cm over the rise under his sole.
static float lbFootSupport(const lbMetrics* m, const lbVec3 sole[lb_solePointCount])
{
	const lbVec3 up = m->def.upWs;
	const int n = m->def.supportSamples;
	lbGroundProbe g[LB_METRICS_MAX_SUPPORT + lb_solePointCount];
	lbVec3 p[LB_METRICS_MAX_SUPPORT + lb_solePointCount];
	int bearing = -1;
	for (int i = 0; i < n + lb_solePointCount; ++i)
	{
		// Midpoints of n equal pieces: the supported count over n is the supported length share.
		p[i] = i < n ? lbLerp(sole[lb_soleHeel], sole[lb_soleBall], ((float)i + 0.5f) / (float)n) : sole[i - n];
		g[i] = lbProbePoint(m, p[i]);
		if (g[i].found && (bearing < 0 || lbAbsF(g[i].height) < lbAbsF(g[bearing].height)))
			bearing = i;
	}
	if (bearing < 0)
		return 0.0f;
	lbVec3 normal = g[bearing].normalWs;
	// A wall-like face under the bearing point has no useful plane to lower the sole onto.
	if (lbDot(normal, up) < 0.25f)
		normal = up;
	float cosUp = lbDot(normal, up);
	int supported = 0;
	for (int i = 0; i < n; ++i)
	{
		if (!g[i].found)
			continue;
		// Height of the sample above the bearing plane, along up; the ground under it lies
		// `drop` below that plane.
		float abovePlane = lbDot(lbSub(p[i], g[bearing].groundWs), normal) / cosUp;
		float drop = g[i].height - abovePlane;
		supported += drop <= m->def.supportDrop || g[i].height <= m->def.supportDrop ? 1 : 0;
	}
	return (float)supported / (float)n;
}

// Deepest penetration (m) of the body's capsules: thighs, calves, feet, upper arms, forearms
// and the torso (pelvis to neck); each segment kind's deepest (both sides) into bySegment.
static float lbLimbPenetration(const lbMetrics* m, const lbPose* pose, lbTransform cw, float bySegment[lb_segmentCount])
{
	const lbHumanoid* h = &m->humanoid;
	for (int k = 0; k < lb_segmentCount; ++k)
		bySegment[k] = 0.0f;
	for (int s = 0; s < 2; ++s)
	{
		const lbLegBones* leg = &h->leg[s];
		const lbArmBones* arm = &h->arm[s];
		lbVec3 hip = lbTransformPoint(cw, pose->model[leg->thigh].p);
		lbVec3 knee = lbTransformPoint(cw, pose->model[leg->calf].p);
		lbVec3 ankle = lbTransformPoint(cw, pose->model[leg->foot].p);
		bySegment[lb_segmentThigh] = lbMaxF(bySegment[lb_segmentThigh], lbCapsuleDepth(m, hip, knee, m->segmentRadius[lb_segmentThigh][s]));
		bySegment[lb_segmentCalf] = lbMaxF(bySegment[lb_segmentCalf], lbCapsuleDepth(m, knee, ankle, m->segmentRadius[lb_segmentCalf][s]));
		// The foot lies on its sole: heel to ball (the toes bend at the ball; their tip is a sole
		// point), raised by its radius along the foot's up and pulled in by it at both ends, so its
		// underside is the sole line itself.
		lbTransform footMs = pose->model[leg->foot];
		const lbSole* sole = &m->sole[s];
		float r = m->segmentRadius[lb_segmentFoot][s];
		lbVec3 upW = lbNormalizeOr(lbQuatRotate(cw.q, lbQuatRotate(footMs.q, lbNeg(sole->under))), m->def.upWs);
		lbVec3 toeW = lbNormalizeOr(lbQuatRotate(cw.q, lbQuatRotate(footMs.q, sole->toeFlat)), lbVec3_zero);
		lbVec3 heel = lbTransformPoint(cw, lbSole_PointMs(sole, footMs, lb_soleHeel));
		lbVec3 tip = lbTransformPoint(cw, lbSole_PointMs(sole, footMs, lb_soleBall));
		float len = lbDistance(heel, tip);
		float inset = lbMinF(r, 0.5f * len);
		lbVec3 fa = lbMulAdd(lbMulAdd(heel, inset, toeW), r, upW);
		lbVec3 fb = lbMulAdd(lbMulAdd(tip, -inset, toeW), r, upW);
		bySegment[lb_segmentFoot] = lbMaxF(bySegment[lb_segmentFoot], lbCapsuleDepth(m, fa, fb, r));
		if (arm->upperArm >= 0 && arm->foreArm >= 0 && arm->hand >= 0)
		{
			lbVec3 shoulder = lbTransformPoint(cw, pose->model[arm->upperArm].p);
			lbVec3 elbow = lbTransformPoint(cw, pose->model[arm->foreArm].p);
			lbVec3 wrist = lbTransformPoint(cw, pose->model[arm->hand].p);
			bySegment[lb_segmentUpperArm] = lbMaxF(bySegment[lb_segmentUpperArm],
												   lbCapsuleDepth(m, shoulder, elbow, m->segmentRadius[lb_segmentUpperArm][s]));
			bySegment[lb_segmentForeArm] = lbMaxF(bySegment[lb_segmentForeArm],
												  lbCapsuleDepth(m, elbow, wrist, m->segmentRadius[lb_segmentForeArm][s]));
		}
	}
	// The torso: two capsules meeting at its bend (a straight one from the pelvis to the neck of a
	// torso bent over a stair's nose passes through the nose).
	lbVec3 torso[3];
	const int parts = lbMetricsTorsoParts(m, pose, cw, torso);
	for (int i = 0; i + 1 < parts; ++i)
		bySegment[lb_segmentTorso] =
			lbMaxF(bySegment[lb_segmentTorso], lbCapsuleDepth(m, torso[i], torso[i + 1], m->segmentRadius[lb_segmentTorso][0]));
	float best = 0.0f;
	for (int k = 0; k < lb_segmentCount; ++k)
		best = lbMaxF(best, bySegment[k]);
	return best;
}

// Deepest overlap (m) of the body with itself (lbFrameMetrics::selfPenetration): each forearm against
// the torso's capsules, each calf against the other leg's thigh and the two calves, with the radii
// of the world penetration's capsules. The upper arms and thighs meet the torso and each other at
// their joints by construction and are left out. hip, knee, ankle: each leg's joints (world).
static float lbSelfPenetration(const lbMetrics* m, const lbPose* pose, lbTransform cw, const lbVec3 hip[2], const lbVec3 knee[2],
							   const lbVec3 ankle[2])
{
	const lbHumanoid* h = &m->humanoid;
	lbVec3 torso[3];
	const int parts = lbMetricsTorsoParts(m, pose, cw, torso);
	const float rt = m->segmentRadius[lb_segmentTorso][0];
	float deepest = 0.0f;
	for (int s = 0; s < 2; ++s)
	{
		const lbArmBones* arm = &h->arm[s];
		if (arm->foreArm >= 0 && arm->hand >= 0)
		{
			const lbVec3 elbow = lbTransformPoint(cw, pose->model[arm->foreArm].p);
			const lbVec3 wrist = lbTransformPoint(cw, pose->model[arm->hand].p);
			const float rf = m->segmentRadius[lb_segmentForeArm][s];
			for (int i = 0; i + 1 < parts; ++i)
				deepest = lbMaxF(deepest, rf + rt - lbSegmentDistance(elbow, lbSub(wrist, elbow), torso[i], lbSub(torso[i + 1], torso[i])));
		}
		const int o = 1 - s;
		deepest = lbMaxF(deepest, m->segmentRadius[lb_segmentCalf][s] + m->segmentRadius[lb_segmentThigh][o] -
									  lbSegmentDistance(knee[s], lbSub(ankle[s], knee[s]), hip[o], lbSub(knee[o], hip[o])));
	}
	deepest = lbMaxF(deepest, m->segmentRadius[lb_segmentCalf][0] + m->segmentRadius[lb_segmentCalf][1] -
								  lbSegmentDistance(knee[0], lbSub(ankle[0], knee[0]), knee[1], lbSub(ankle[1], knee[1])));
	return deepest;
}

int lbMetricsTorsoParts(const lbMetrics* m, const lbPose* pose, lbTransform cw, lbVec3 out[3])
{
	if (!m || !pose || !pose->model || !out)
		return 0;
	const lbHumanoid* h = &m->humanoid;
	const int top = h->neck >= 0 ? h->neck : (h->spineCount > 0 ? h->spine[h->spineCount - 1] : LB_NULL_INDEX);
	if (h->pelvis < 0 || top < 0 || h->pelvis >= pose->boneCount || top >= pose->boneCount)
		return 0;
	out[0] = lbTransformPoint(cw, pose->model[h->pelvis].p);
	if (m->torsoBend < 0 || m->torsoBend >= pose->boneCount)
	{
		out[1] = lbTransformPoint(cw, pose->model[top].p);
		return 2;
	}
	out[1] = lbTransformPoint(cw, lbTransformPoint(pose->model[m->torsoBend], m->torsoBendLocal));
	out[2] = lbTransformPoint(cw, pose->model[top].p);
	return 3;
}

// Angle wrapped into [-90, 90] degrees (a line's direction, not a vector's).
static float lbWrapLineDeg(float deg)
{
	while (deg > 90.0f)
		deg -= 180.0f;
	while (deg < -90.0f)
		deg += 180.0f;
	return deg;
}

// Angle (deg) of the line through a and b in the vertical plane along `dir` (horizontal, unit).
static float lbLineSlopeDeg(lbVec3 a, lbVec3 b, lbVec3 up, lbVec3 dir)
{
	lbVec3 d = lbSub(b, a);
	return atan2f(lbDot(d, up), lbDot(d, dir)) * LB_RAD2DEG;
}

// Most ground points of a lying torso's profile (docs/metrics.md): 1.25 cm apart over a 1.6 m span.
#define LB_METRICS_TORSO_SAMPLES 128

// Slope (rad) of the upper convex hull of ground points (s[i], z[i]) (s increasing: distance along
// the torso's axis, z: height) under s = mid: the line a rigid body laid on the points rests on
// there. `near` is how close (along s) to a hull corner the middle counts as lying over it (balanced
// on it, resting along either side): the side nearer in slope to `pitch` is taken. False with fewer
// than two points or none on either side of the middle.
static bool lbSupportSlope(const float* s, const float* z, int n, float mid, float near, float pitch, float* outSlope)
{
	// Andrew's monotone chain, upper part: a point that does not turn the chain clockwise is dropped.
	int hull[LB_METRICS_TORSO_SAMPLES];
	int k = 0;
	for (int i = 0; i < n; ++i)
	{
		while (k >= 2)
		{
			const int a = hull[k - 2], b = hull[k - 1];
			float cross = (s[b] - s[a]) * (z[i] - z[a]) - (z[b] - z[a]) * (s[i] - s[a]);
			if (cross < 0.0f)
				break;
			--k;
		}
		hull[k++] = i;
	}
	if (k < 2 || s[hull[0]] > mid || s[hull[k - 1]] < mid)
		return false;
	bool any = false;
	float best = 0.0f;
	for (int e = 0; e + 1 < k; ++e)
	{
		const int a = hull[e], b = hull[e + 1];
		if (s[b] < mid - near || s[a] > mid + near || s[b] - s[a] <= 0.0f)
			continue;
		float slope = atan2f(z[b] - z[a], s[b] - s[a]);
		if (!any || lbAbsF(slope - pitch) < lbAbsF(best - pitch))
			best = slope;
		any = true;
	}
	*outSlope = best;
	return any;
}

// The ground profile under a lying torso's capsule a-b of radius r (docs/metrics.md): the ground
// points seen from the side (distance along the capsule's axis turned onto the ground plane from a,
// height along up from a), and the capsule's lowest height above the ground into *ioLowest (the
// smaller, once *ioAny). With `ends` (the whole torso, b its neck) the ground under the neck's end
// cap enters as the cap rests on it. False when no ground was found under it.
typedef struct lbTorsoProfile
{
	float s[LB_METRICS_TORSO_SAMPLES], z[LB_METRICS_TORSO_SAMPLES];
	int n;
	lbVec3 a, axis;
	float pitch, middle;
} lbTorsoProfile;

static bool lbTorsoProfileOf(const lbMetrics* m, lbVec3 pelvis, lbVec3 neck, float r, bool ends, lbTorsoProfile* out,
							 float* ioLowest, bool* ioAny)
{
	out->n = 0;
	const lbVec3 up = m->def.upWs;
	const float len = lbDistance(pelvis, neck);
	if (len < 1.0e-4f)
		return false;
	const lbVec3 dir = lbMulSV(1.0f / len, lbSub(neck, pelvis));
	const lbVec3 axis = lbNormalizeOr(lbProjectOnPlane(dir, up), lbAnyPerpendicular(up));
	// The ground under the capsule, end caps included (a radius either side of the joints along the
	// ground plane), at a quarter of limbSpacing: the corners the torso rests on (stair noses) are
	// found within that. The samples lie on the axis's line, extended past the joints.
	const float along = lbMaxF(lbDot(dir, axis), 0.5f);
	const float t0 = -r / along, span = len + 2.0f * r / along;
	int n = (int)ceilf(span / (0.25f * m->def.limbSpacing)) + 1;
	n = n < 2 ? 2 : (n > LB_METRICS_TORSO_SAMPLES ? LB_METRICS_TORSO_SAMPLES : n);
	float* gs = out->s;
	float* gz = out->z;
	int found = 0;
	// The neck's place along the ground plane (the pelvis at 0), the underside's depth under the
	// axis's line along up (a radius over the cosine of the pitch) and the neck cap's point.
	const float endS = lbDot(lbSub(neck, pelvis), axis), under = r / along;
	float capZ = 0.0f, lastS = 0.0f, lastZ = 0.0f;
	bool capAny = false, haveLast = false;
	float lowest = 0.0f;
	bool any = false;
	for (int i = 0; i < n; ++i)
	{
		const float t = t0 + span * (float)i / (float)(n - 1);
		const lbVec3 p = lbMulAdd(pelvis, t, dir);
		lbGroundProbe g = lbProbePoint(m, p);
		if (!g.found)
			continue;
		// The ground under the sample (over it when the sample is inside).
		const lbVec3 ground = lbMulAdd(p, -g.height, up);
		// Height: the smaller of the ground point's distance from the axis (exact at a corner under a
		// pitched torso, a stair's nose) and, between the joints, the sample's distance from the
		// ground's plane under it (along its normal: exact on a plane, a slope across the torso
		// included; a face steeper than 60 degrees, a riser hit at its edge, is no plane the torso lies
		// on), less the radius. A sample inside the ground within the capsule: the torso is in it.
		const float c = lbClampF(lbDot(lbSub(ground, pelvis), dir), 0.0f, len);
		float above = lbDistance(ground, lbMulAdd(pelvis, c, dir));
		if (t >= 0.0f && t <= len && lbDot(g.normalWs, up) >= 0.5f)
			above = lbMinF(above, g.distance);
		if (g.inside && (t >= 0.0f && t <= len ? 0.0f : (t < 0.0f ? -t : t - len)) <= r)
			above = lbMinF(above, g.distance);
		above -= r;
		lowest = any ? lbMinF(lowest, above) : above;
		any = true;
		// The profile, along the ground plane from the pelvis. Past a joint (under an end cap) ground
		// over the axis's line faces the cap's end, not its underside: the next riser ahead of a chest
		// lying level on a tread, which as a hull corner read as a 25 degree support line.
		if ((t < 0.0f || t > len) && lbDot(lbSub(ground, p), up) > 0.0f)
			continue;
		const float gsi = lbDot(lbSub(p, pelvis), axis), gzi = lbDot(lbSub(ground, pelvis), up);
		if (ends && t > len)
		{
			// Under the neck's end cap the ground bears on the cap's sphere, not on the underside's
			// line: a nose there holds the neck joint at most a radius from it. The point enters the
			// profile at the joint, on the underside's line of a joint resting on it (the joint's
			// height so held less the underside's depth under the axis); the highest of the cap's
			// points counts. A torso resting on one nose and touching the next with its end cap reads
			// no error (as a corner the next nose read the noses' line: 6-7 degrees on 0.15 x 0.39 m
			// stairs, the torso pitched 7 degrees less to reach it with its cap); on a plane the point
			// is the ground under the joint. (The pelvis's end goes on into the hips and thighs, which
			// bear on the ground under it as the torso's underside does.)
			float dx = gsi - endS;
			// A step up since the last point: its nose lies at the riser's face, up to a sample
			// spacing before this point, which near the cap's edge holds the joint much higher (found
			// by a ray along the ground plane just under the upper ground).
			if (haveLast && gzi > lastZ + 1.0e-3f)
			{
				const lbVec3 from = lbMulAdd(lbMulAdd(pelvis, lastS, axis), gzi - 1.0e-3f, up);
				const lbHit riser = lbMetricsRay(m, from, lbMulAdd(from, gsi - lastS, axis));
				if (riser.hit && !riser.startedInside)
					dx = lbDot(lbSub(riser.impactPoint, pelvis), axis) - endS;
			}
			const float zr = gzi + sqrtf(lbMaxF(r * r - dx * dx, 0.0f)) - under;
			capZ = capAny ? lbMaxF(capZ, zr) : zr;
			capAny = true;
		}
		haveLast = true;
		lastS = gsi;
		lastZ = gzi;
		if (ends && t > len)
			continue;
		gs[found] = gsi;
		gz[found] = gzi;
		++found;
	}
	if (capAny)
	{
		gs[found] = endS;
		gz[found] = capZ;
		++found;
	}
	out->n = found;
	out->a = pelvis;
	out->axis = axis;
	out->pitch = lbLineSlopeDeg(pelvis, neck, up, axis);
	out->middle = 0.5f * lbDot(lbSub(neck, pelvis), axis);
	if (!any || found == 0)
		return false;
	*ioLowest = *ioAny ? lbMinF(*ioLowest, lowest) : lowest;
	*ioAny = true;
	return true;
}

// A lying torso against the ground under it (docs/metrics.md): its capsules' lowest height above
// the ground, each part's pitch (pelvis to the bend, the bend to the neck; lbMetricsTorsoParts),
// beyond its pitch in the base pose, against the line it rests on (the upper hull of the ground
// under that part), and its roll (shoulder line, beyond the base pose's own) against the ground's.
// False when no ground was found under it.
static bool lbTorsoOnGround(const lbMetrics* m, const lbMetricsFrame* frame, lbFrameMetrics* fm)
{
	const lbHumanoid* h = &m->humanoid;
	const lbPose* pose = frame->pose;
	const lbTransform cw = frame->characterWs;
	const lbVec3 up = m->def.upWs;
	lbVec3 parts[3];
	const int count = lbMetricsTorsoParts(m, pose, cw, parts);
	if (count < 2)
		return false;
	const lbVec3 pelvis = parts[0], neck = parts[count - 1];
	if (lbDistance(pelvis, neck) < 1.0e-4f)
		return false;
	const lbVec3 dir = lbNormalize(lbSub(neck, pelvis));
	lbVec3 axis = lbNormalizeOr(lbProjectOnPlane(dir, up), lbAnyPerpendicular(up));
	lbVec3 side = lbNormalize(lbCross(up, axis));
	const float r = m->segmentRadius[lb_segmentTorso][0];
	// Each part's pitch beyond its own in the base pose (the base pose's part taken against its own
	// torso line, so a base pose still standing, coming down, adds the spine's own shape only),
	// against the line it rests on: the whole torso's (the upper hull of the ground under the
	// pelvis-to-neck line, under its middle: a rigid torso across stair noses) or its own
	// (the hull of the ground under that part: a torso bent over a deep tread's nose, its chest on
	// the tread), whichever it lies nearer. Against the pelvis-to-neck line alone a torso bent over
	// a nose read 25-33 degrees; against each part's own ground alone, a straight one on the noses of
	// 0.18 x 0.28 m stairs read 13 (its chest part spans one nose).
	lbVec3 baseParts[3];
	const int baseCount = frame->basePose ? lbMetricsTorsoParts(m, frame->basePose, cw, baseParts) : 0;
	float lowest = 0.0f, pitchError = 0.0f, wholeLowest = 0.0f;
	bool any = false, wholeAny = false;
	lbTorsoProfile whole, own;
	const bool hasWhole = lbTorsoProfileOf(m, pelvis, neck, r, true, &whole, &wholeLowest, &wholeAny);
	const float near = 0.25f * m->def.limbSpacing;
	for (int i = 0; i + 1 < count; ++i)
	{
		float base = 0.0f;
		if (baseCount == count && count > 2)
		{
			const lbVec3 bd = lbSub(baseParts[count - 1], baseParts[0]);
			const lbVec3 baseAxis = lbNormalizeOr(lbProjectOnPlane(bd, up), axis);
			base = lbWrapLineDeg(lbLineSlopeDeg(baseParts[i], baseParts[i + 1], up, baseAxis) -
								 lbLineSlopeDeg(baseParts[0], baseParts[count - 1], up, baseAxis));
		}
		if (!lbTorsoProfileOf(m, parts[i], parts[i + 1], r, false, &own, &lowest, &any))
			return false;
		const float pitch = own.pitch - base;
		float support, err = -1.0f;
		if (lbSupportSlope(own.s, own.z, own.n, own.middle, near, pitch * LB_DEG2RAD, &support))
			err = lbAbsF(pitch - support * LB_RAD2DEG);
		if (hasWhole && lbSupportSlope(whole.s, whole.z, whole.n, whole.middle, near, pitch * LB_DEG2RAD, &support))
		{
			const float e = lbAbsF(pitch - support * LB_RAD2DEG);
			err = err < 0.0f ? e : lbMinF(err, e);
		}
		if (err < 0.0f)
			return false;
		pitchError = lbMaxF(pitchError, err);
	}
	fm->torsoHeight = lbMaxF(lowest, 0.0f);
	fm->torsoPitchError = pitchError;
	float gs[LB_METRICS_TORSO_SAMPLES], gz[LB_METRICS_TORSO_SAMPLES];
	// Roll: the ground across the torso's middle, 0.15 m either side, as the pitch's: the line a
	// rigid body laid across it rests on (the upper hull's edge under the middle). Against the line
	// between the two outer points, a torso lying flat by a trench's rim read the rim-to-floor slope.
	const lbVec3 mid = lbLerp(pelvis, neck, 0.5f);
	int la = h->arm[lb_left].upperArm >= 0 ? h->arm[lb_left].upperArm : h->leg[lb_left].thigh;
	int ra = h->arm[lb_right].upperArm >= 0 ? h->arm[lb_right].upperArm : h->leg[lb_right].thigh;
	if (la >= 0 && ra >= 0)
	{
		float rollFinal = lbLineSlopeDeg(lbTransformPoint(cw, pose->model[ra].p), lbTransformPoint(cw, pose->model[la].p), up, side);
		float rollBase = 0.0f;
		if (frame->basePose)
			rollBase = lbLineSlopeDeg(lbTransformPoint(cw, frame->basePose->model[ra].p),
									  lbTransformPoint(cw, frame->basePose->model[la].p), up, side);
		const float rollTorso = lbWrapLineDeg(rollFinal - rollBase);
		// Right (-side) to left, a quarter of limbSpacing apart (25 points at the default 5 cm).
		const float halfWidth = 0.15f, step = 0.25f * m->def.limbSpacing;
		int across = (int)ceilf(2.0f * halfWidth / step) + 1;
		across = across < 3 ? 3 : (across > LB_METRICS_TORSO_SAMPLES ? LB_METRICS_TORSO_SAMPLES : across);
		int got = 0;
		for (int i = 0; i < across; ++i)
		{
			const float o = -halfWidth + 2.0f * halfWidth * (float)i / (float)(across - 1);
			lbGroundProbe g = lbProbePoint(m, lbMulAdd(mid, o, side));
			if (!g.found)
				continue;
			gs[got] = o;
			gz[got] = lbDot(lbSub(g.groundWs, mid), up);
			++got;
		}
		float rollGround;
		if (lbSupportSlope(gs, gz, got, 0.0f, 2.0f * halfWidth / (float)(across - 1), rollTorso * LB_DEG2RAD, &rollGround))
			fm->torsoRollError = lbAbsF(lbWrapLineDeg(rollTorso - rollGround * LB_RAD2DEG));
	}
	return true;
}

// World rotation pops: per bone, the change of its world rotation since the previous frame beyond
// the base motion's own change in the same bone (max(0, |final| - |base|)), and the base's own.
static void lbWorldPops(lbMetrics* m, const lbMetricsFrame* frame, lbFrameMetrics* fm)
{
	const lbPose* pose = frame->pose;
	const lbPose* base = frame->basePose;
	const lbQuat cq = lbQuatNormalize(frame->characterWs.q);
	const bool measure = m->hasPrev && !frame->reset;
	float added = 0.0f, source = 0.0f;
	int addedBone = -1;
	for (int b = 0; b < pose->boneCount; ++b)
	{
		lbQuat fq = lbQuatNormalize(lbQuatMul(cq, pose->model[b].q));
		float df = measure ? lbQuatAngleBetween(m->prevFinalWs[b], fq) * LB_RAD2DEG : 0.0f;
		float db = 0.0f;
		if (base)
		{
			lbQuat bq = lbQuatNormalize(lbQuatMul(cq, base->model[b].q));
			if (measure && m->hasPrevBase)
				db = lbQuatAngleBetween(m->prevBaseWs[b], bq) * LB_RAD2DEG;
			m->prevBaseWs[b] = bq;
		}
		m->prevFinalWs[b] = fq;
		if (df - db > added)
		{
			added = df - db;
			addedBone = b;
		}
		source = lbMaxF(source, db);
	}
	if (measure)
	{
		fm->addedPopDeg = added;
		fm->addedPopBone = addedBone;
		if (base && m->hasPrevBase)
			fm->sourcePopDeg = source;
	}
	m->hasPrevBase = base != NULL;
}

// 1 when the hinge joint of the chain root-mid-end (knee, elbow) bends past maxDeg or its lower
// bone leaves the hinge plane (axisRoot, in the root bone's frame) by more than maxOffDeg; its
// signed hinge angle (deg) into outAngle.
static int lbHingeOutOfRange(const lbPose* pose, int root, int mid, int end, lbVec3 axisRoot, float maxDeg, float maxOffDeg,
							 float* outAngle)
{
	const lbTransform r = pose->model[root];
	const lbVec3 hinge = lbTransformDirection(r, axisRoot);
	const lbVec3 a = r.p, b = pose->model[mid].p, c = pose->model[end].p;
	const float angle = lbSignedHingeAngle(a, b, c, hinge);
	const float offPlane = asinf(lbClampF(lbAbsF(lbDot(lbNormalize(lbSub(c, b)), lbNormalize(hinge))), 0.0f, 1.0f)) * LB_RAD2DEG;
	*outAngle = angle;
	return (angle > maxDeg || offPlane > maxOffDeg) ? 1 : 0;
}

// Joints of `pose` outside their ranges (docs/metrics.md, limit_violations). With `fm`, also
// its knee and elbow hinge angles and inversions.
static int lbMetricsJointLimits(const lbMetrics* m, const lbPose* pose, lbFrameMetrics* fm)
{
	const lbHumanoid* h = &m->humanoid;
	const float tol = m->def.inversionToleranceDeg;
	int violations = 0;
	for (int s = 0; s < 2; ++s)
	{
		const lbLegBones* leg = &h->leg[s];
		const lbArmBones* arm = &h->arm[s];
		float angle;
		if (leg->thigh >= 0 && leg->calf >= 0 && leg->foot >= 0)
		{
			violations += lbHingeOutOfRange(pose, leg->thigh, leg->calf, leg->foot, h->legAxes[s].kneeBendThigh, 160.0f, 25.0f, &angle);
			if (fm)
			{
				fm->kneeAngle[s] = angle;
				fm->kneeInverted = fm->kneeInverted || angle < tol;
			}
		}
		// The elbow's plane is wider than the knee's: a rig whose rest arm is straight gives a
		// guessed hinge axis, and real elbows carry 10-15 degrees off their plane.
		if (arm->upperArm >= 0 && arm->foreArm >= 0 && arm->hand >= 0)
		{
			violations += lbHingeOutOfRange(pose, arm->upperArm, arm->foreArm, arm->hand, h->armAxes[s].elbowBendUpper, 165.0f, 35.0f, &angle);
			if (fm)
			{
				fm->elbowAngle[s] = angle;
				fm->elbowInverted = fm->elbowInverted || angle < tol;
			}
		}
	}
	for (int i = 0; i < m->limitCount; ++i)
	{
		int b = m->limits[i].bone;
		float deg = lbQuatAngleBetween(m->skeleton->restLocal[b].q, lbQuatNormalize(pose->local[b].q)) * LB_RAD2DEG;
		violations += deg > m->limits[i].maxDeg ? 1 : 0;
	}
	return violations;
}

lbResult lbMetrics_AddFrame(lbMetrics* m, const lbMetricsFrame* frame, lbFrameMetrics* outFrame)
{
	if (!m || !frame || !frame->pose || !frame->pose->model || !frame->pose->local || (frame->contactCount > 0 && !frame->contacts))
		return lbReport(lb_errorNullPointer, "lbMetrics_AddFrame: metrics, frame and pose are required");
	if (frame->pose->boneCount != m->skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbMetrics_AddFrame: pose has %d bones, skeleton %d", frame->pose->boneCount,
						m->skeleton->boneCount);
	if (frame->basePose && (!frame->basePose->model || frame->basePose->boneCount != m->skeleton->boneCount))
		return lbReport(lb_errorSkeletonMismatch, "lbMetrics_AddFrame: base pose has %d bones, skeleton %d",
						frame->basePose->boneCount, m->skeleton->boneCount);
	if (lbIsValidFloat(frame->dt) && !(frame->dt > 0.0f))
		return lbReport(lb_errorInvalidArgument, "lbMetrics_AddFrame: dt %g must be > 0 s", (double)frame->dt);
	lbFrameMetrics fm;
	memset(&fm, 0, sizeof fm);
	fm.contactDrift = fm.penetration = fm.hover = fm.palmWallAngle = fm.posePopDeg = fm.posePopM = -1.0f;
	fm.solePenetration = fm.limbPenetration = fm.support = fm.addedPopDeg = fm.sourcePopDeg = fm.floatHeight = -1.0f;
	fm.footSupport[0] = fm.footSupport[1] = -1.0f;
	fm.solePenetrationFoot = fm.solePenetrationPoint = fm.supportFoot = fm.addedPopBone = -1;
	fm.torsoHeight = fm.torsoRollError = fm.torsoPitchError = -1.0f;
	for (int k = 0; k < lb_segmentCount; ++k)
		fm.limbPenetrationBySegment[k] = -1.0f;
	m->summary.frames++;

	bool finite = lbPose_IsFinite(frame->pose) && lbTransformFinite(frame->characterWs) && lbIsValidFloat(frame->dt);
	if (finite && frame->basePose)
	{
		for (int b = 0; finite && b < frame->basePose->boneCount; ++b)
			finite = lbTransformFinite(frame->basePose->model[b]);
	}
	for (int i = 0; finite && i < frame->contactCount; ++i)
	{
		const lbContact* c = &frame->contacts[i];
		finite = lbIsValidVec3(c->targetWs) && lbIsValidVec3(c->normalWs) && lbIsValidVec3(c->offsetLocal);
	}
	if (!finite)
	{
		fm.nonFinite = true;
		m->summary.nanFrames++;
		if (outFrame)
			*outFrame = fm;
		return lb_ok;
	}

	const lbPose* pose = frame->pose;
	const lbHumanoid* h = &m->humanoid;
	const lbTransform cw = frame->characterWs;
	const int n = pose->boneCount;

	// Knees and elbows: signed hinge angles, inversions and joint limits, of the pose and of the
	// base motion alone, so that a source clip's own out-of-range joints are told apart.
	fm.limitViolations = lbMetricsJointLimits(m, pose, &fm);
	fm.sourceLimitViolations = frame->basePose && frame->basePose->local ? lbMetricsJointLimits(m, frame->basePose, NULL) : -1;
	// The legs' joints (world; thigh, calf and foot are roles every map has), read once for the
	// crossed knees and the body's overlap with itself.
	{
		lbVec3 hip[2], knee[2], ankle[2];
		for (int s = 0; s < 2; ++s)
		{
			hip[s] = lbTransformPoint(cw, pose->model[h->leg[s].thigh].p);
			knee[s] = lbTransformPoint(cw, pose->model[h->leg[s].calf].p);
			ankle[s] = lbTransformPoint(cw, pose->model[h->leg[s].foot].p);
		}
		// Crossed knees: the right knee past the left across the body (a climber's knees drawn
		// between the legs, which no angle of either knee shows).
		const lbVec3 across = lbNormalizeOr(lbSub(hip[0], hip[1]), lbVec3_zero);
		fm.kneeCross = lbMaxF(lbDot(lbSub(knee[1], knee[0]), across), 0.0f);
		fm.selfPenetration = lbSelfPenetration(m, pose, cw, hip, knee, ankle);
	}

	// Pose pop: change of each bone relative to the reference bone (or model space) since the
	// previous measured frame.
	lbTransform ref = m->refBone >= 0 ? pose->model[m->refBone] : lbTransform_identity;
	float popDeg = 0.0f, popM = 0.0f;
	for (int b = 0; b < n; ++b)
	{
		lbTransform rel;
		rel.q = lbQuatMul(lbQuatConj(ref.q), pose->model[b].q);
		rel.p = lbQuatInvRotate(ref.q, lbSub(pose->model[b].p, ref.p));
		rel.s = lbVec3_one;
		if (m->hasPrev && !frame->reset)
		{
			popDeg = lbMaxF(popDeg, lbQuatAngleBetween(m->prevRel[b].q, rel.q) * LB_RAD2DEG);
			popM = lbMaxF(popM, lbDistance(m->prevRel[b].p, rel.p));
		}
		m->prevRel[b] = rel;
	}
	if (m->hasPrev && !frame->reset)
	{
		fm.posePopDeg = popDeg;
		fm.posePopM = popM;
	}

	lbWorldPops(m, frame, &fm);

	// Feet: the four sole points of each foot and the metrics' own planted flags.
	lbVec3 sole[2][lb_solePointCount];
	for (int s = 0; s < 2; ++s)
	{
		float speed = 0.0f;
		lbVec3 soleMs[lb_solePointCount];
		// The toe tip rides on the ball bone where the rig has one: bent toes are followed.
		lbHumanoid_GetSolePointsMs(h, pose, s, soleMs);
		for (int k = 0; k < lb_solePointCount; ++k)
		{
			sole[s][k] = lbTransformPoint(cw, soleMs[k]);
			// The slowest sole point: a foot rolling over its ball or heel still bears weight.
			if (m->hasPrev && !frame->reset)
			{
				float v = lbDistance(sole[s][k], m->prevSole[s][k]) / frame->dt;
				speed = k == 0 ? v : lbMinF(speed, v);
			}
			m->prevSole[s][k] = sole[s][k];
		}
		fm.planted[s] = frame->grounded && speed < m->def.plantedSpeed;
		m->slowTime[s] = fm.planted[s] ? m->slowTime[s] + frame->dt : 0.0f;
		// A run starts, or resumes after a teleport, with its feet where they stand.
		const bool noSpeed = !m->hasPrev || frame->reset;
		m->settleTime[s] = !fm.planted[s] ? 0.0f
						   : noSpeed	  ? lbMaxF(m->settleTime[s] + frame->dt, m->def.supportSettle)
										  : m->settleTime[s] + frame->dt;
	}

	bool touches = false;
	if (!m->hasQuery)
	{
		lbNoteUnmeasured(&fm, lb_unmeasuredNoQuery);
		for (int s = 0; s < 2; ++s)
		{
			fm.planted[s] = fm.planted[s] && m->slowTime[s] >= m->def.plantedTime - 1.0e-6f;
			m->summary.plantedFootFrames += fm.planted[s] ? 1 : 0;
		}
	}
	else
	{
		// Every sole point, planted or swinging: its depth inside a solid and its height.
		float deepest = 0.0f, lowest = m->def.probeLength;
		for (int s = 0; s < 2; ++s)
		{
			bool footFound = false;
			float footLowest = 0.0f;
			for (int k = 0; k < lb_solePointCount; ++k)
			{
				lbGroundProbe g = lbProbePoint(m, sole[s][k]);
				if (!g.found)
					continue;
				if (g.inside && g.depth > deepest)
				{
					deepest = g.depth;
					fm.solePenetrationFoot = s;
					fm.solePenetrationPoint = k;
				}
				footLowest = footFound ? lbMinF(footLowest, g.distance) : g.distance;
				footFound = true;
			}
			if (footFound)
				lowest = lbMinF(lowest, footLowest);
			// Slow and near the ground, or slow for a while: a swing pausing high is not planted.
			fm.planted[s] = fm.planted[s] && ((footFound && footLowest <= m->def.plantedNear) ||
											  m->slowTime[s] >= m->def.plantedTime - 1.0e-6f);
			if (!fm.planted[s])
			{
				m->settleTime[s] = 0.0f;
				continue;
			}
			if (footFound)
				lbMaxInto(&fm.hover, lbMaxF(footLowest, 0.0f));
			else
				lbNoteUnmeasured(&fm, lb_unmeasuredNoGroundUnderPlantedFoot);
			// A foot bears on the ground while a sole point touches it (floatContactHeight, the
			// floating metric's touch) and it has been slow a little while (supportSettle): its
			// support is then measured. A foot slow near the ground but touching nothing (a swing
			// easing over a stair nose, a heel-off lifting the ball, a boxer's foot held off the
			// floor), or touching for a frame or two (a swing's toe skimming a nose), bears on
			// nothing, and its support is left unmeasured in that frame (its height is hover's).
			// One standing on air (no ground within plantedNear, or none at all) counts 0, however
			// level the ground below it (turned onto a pit's floor it read 1).
			const bool touching = footFound && footLowest <= m->def.floatContactHeight;
			if (touching)
			{
				if (m->settleTime[s] < m->def.supportSettle - 1.0e-6f)
					continue;
				fm.footSupport[s] = lbFootSupport(m, sole[s]);
			}
			else if (!footFound || footLowest > m->def.plantedNear)
				fm.footSupport[s] = 0.0f;
			else
				continue;
			if (fm.support < 0.0f || fm.footSupport[s] < fm.support)
			{
				fm.support = fm.footSupport[s];
				fm.supportFoot = s;
			}
		}
		fm.solePenetration = deepest;
		fm.penetration = deepest;
		m->summary.plantedFootFrames += (fm.planted[0] ? 1 : 0) + (fm.planted[1] ? 1 : 0);
		fm.limbPenetration = lbLimbPenetration(m, pose, cw, fm.limbPenetrationBySegment);
		touches = lowest <= m->def.floatContactHeight;
		fm.floatHeight = lbMaxF(lowest, 0.0f);
	}

	// System contacts: drift of locked ones, palm angle of locked hands, surface distance of
	// touching hands and body probes (feet are measured by their soles above, whatever the system says).
	bool anyLocked = false;
	for (int i = 0; i < frame->contactCount; ++i)
	{
		const lbContact* c = &frame->contacts[i];
		if (c->bone < 0 || c->bone >= n)
			continue;
		lbTransform boneWs = lbBoneWs(pose, cw, c->bone);
		lbVec3 point = lbTransformPoint(boneWs, c->offsetLocal);
		lbVec3 normal = lbNormalizeOr(c->normalWs, m->def.upWs);
		// A held hand or foot is support while the world is there (within floatContactHeight of a
		// surface along its normal): a climber's foot on a wall hold holds the body up as a hand
		// does, and a contact the system holds in the air does not. A lying body is measured below.
		float d = 0.0f;
		const bool measured = (c->locked || c->touching) && m->hasQuery && lbContactDistance(m, point, normal, &d);
		touches = touches || (c->kind != lb_contactBody && measured && d <= m->def.floatContactHeight);
		if (c->locked)
		{
			anyLocked = true;
			lbMaxInto(&fm.contactDrift, lbDistance(point, c->targetWs));
			for (int s = 0; s < 2; ++s)
			{
				if (c->kind == lb_contactHand && c->bone == h->arm[s].hand)
				{
					lbVec3 palm = lbNormalize(lbTransformDirection(boneWs, h->armAxes[s].palm));
					float ang = acosf(lbClampF(lbDot(palm, lbNeg(normal)), -1.0f, 1.0f)) * LB_RAD2DEG;
					lbMaxInto(&fm.palmWallAngle, ang);
				}
			}
		}
		if (c->touching && c->kind != lb_contactFoot && m->hasQuery)
		{
			if (measured)
			{
				fm.penetration = lbMaxF(fm.penetration, lbMaxF(-d, 0.0f));
				fm.hover = lbMaxF(fm.hover, lbMaxF(d, 0.0f));
			}
			else
				lbNoteUnmeasured(&fm, lb_unmeasuredNoSurfaceAtContact);
		}
	}
	m->hasPrev = true;

	// A lying torso, in frames where the system says the body rests on the ground.
	bool bodyTouching = false;
	for (int i = 0; i < frame->contactCount; ++i)
		bodyTouching = bodyTouching || (frame->contacts[i].kind == lb_contactBody && frame->contacts[i].touching);
	if (bodyTouching && m->hasQuery && !lbTorsoOnGround(m, frame, &fm))
		lbNoteUnmeasured(&fm, lb_unmeasuredNoSurfaceAtContact);
	// A lying body is support where its torso lies on the ground (torso_height): its contact's
	// point may stand over a stair's tread beside the nose the torso rests on.
	touches = touches || (bodyTouching && fm.torsoHeight >= 0.0f && fm.torsoHeight <= m->def.floatContactHeight);

	lbMetricsSummary* sm = &m->summary;
	// Floating: a span of frames in which nothing touches; it counts once longer than a jump.
	if (fm.floatHeight >= 0.0f)
	{
		if (touches)
		{
			fm.floatHeight = 0.0f;
			m->floatSpan = m->floatSpanMax = 0.0f;
		}
		else
		{
			m->floatSpan += frame->dt;
			m->floatSpanMax = lbMaxF(m->floatSpanMax, fm.floatHeight);
			if (m->floatSpan > m->def.floatTime)
			{
				sm->floatingMax = lbMaxF(sm->floatingMax, m->floatSpanMax);
				sm->floatingTime = lbMaxF(sm->floatingTime, m->floatSpan);
			}
		}
	}
	lbMaxInto(&sm->contactDriftMax, fm.contactDrift);
	lbMaxInto(&sm->penetrationMax, fm.penetration);
	lbMaxInto(&sm->hoverMax, fm.hover);
	lbMaxInto(&sm->palmWallAngleMax, fm.palmWallAngle);
	lbMaxInto(&sm->posePopMax, fm.posePopDeg);
	lbMaxInto(&sm->posePopMaxM, fm.posePopM);
	// Where each worst value was first met (frames from 0): kept when a frame goes past it.
	const int at = sm->frames - 1;
	if (fm.solePenetration > 0.0f && fm.solePenetration > sm->solePenetrationMax)
	{
		sm->solePenetrationMaxFrame = at;
		sm->solePenetrationMaxFoot = fm.solePenetrationFoot;
		sm->solePenetrationMaxPoint = fm.solePenetrationPoint;
	}
	if (fm.limbPenetration > 0.0f && fm.limbPenetration > sm->limbPenetrationMax)
	{
		sm->limbPenetrationMaxFrame = at;
		for (int k = 0; k < lb_segmentCount; ++k)
			if (fm.limbPenetrationBySegment[k] == fm.limbPenetration)
			{
				sm->limbPenetrationMaxSegment = k;
				break;
			}
	}
	if (fm.addedPopDeg > 0.0f && fm.addedPopDeg > sm->addedPopMax)
	{
		sm->addedPopMaxFrame = at;
		sm->addedPopMaxBone = fm.addedPopBone;
	}
	if (fm.support >= 0.0f && (sm->supportMin < 0.0f || fm.support < sm->supportMin))
	{
		sm->supportMinFrame = at;
		sm->supportMinFoot = fm.supportFoot;
	}
	lbMaxInto(&sm->solePenetrationMax, fm.solePenetration);
	lbMaxInto(&sm->limbPenetrationMax, fm.limbPenetration);
	for (int k = 0; k < lb_segmentCount; ++k)
		lbMaxInto(&sm->limbPenetrationBySegmentMax[k], fm.limbPenetrationBySegment[k]);
	lbMaxInto(&sm->addedPopMax, fm.addedPopDeg);
	lbMaxInto(&sm->sourcePopMax, fm.sourcePopDeg);
	lbMaxInto(&sm->torsoHeightMax, fm.torsoHeight);
	lbMaxInto(&sm->torsoRollErrorMax, fm.torsoRollError);
	lbMaxInto(&sm->torsoPitchErrorMax, fm.torsoPitchError);
	sm->torsoFrames += fm.torsoHeight >= 0.0f ? 1 : 0;
	if (fm.support >= 0.0f)
		sm->supportMin = sm->supportMin < 0.0f ? fm.support : lbMinF(sm->supportMin, fm.support);
	sm->kneeInversions += fm.kneeInverted ? 1 : 0;
	sm->kneeCrossMax = lbMaxF(sm->kneeCrossMax, fm.kneeCross);
	sm->kneeCrossFrames += fm.kneeCross > 0.0f ? 1 : 0;
	sm->selfPenetrationMax = lbMaxF(sm->selfPenetrationMax, fm.selfPenetration);
	sm->elbowInversions += fm.elbowInverted ? 1 : 0;
	sm->limitViolations += fm.limitViolations > 0 ? 1 : 0;
	sm->sourceLimitViolations += fm.sourceLimitViolations > 0 ? 1 : 0;
	sm->lockedContactFrames += anyLocked ? 1 : 0;
	if (fm.unmeasured != lb_unmeasuredNone)
	{
		sm->unmeasuredFrames++;
		m->reasonCounts[fm.unmeasured]++;
		int most = 1;
		for (int r = 2; r < lb_unmeasuredReasonCount; ++r)
			most = m->reasonCounts[r] > m->reasonCounts[most] ? r : most;
		sm->unmeasuredReason = lbUnmeasuredReasonText((lbUnmeasuredReason)most);
	}
	if (outFrame)
		*outFrame = fm;
	return lb_ok;
}

lbMetricsSummary lbMetrics_GetSummary(const lbMetrics* metrics)
{
	lbMetricsSummary s;
	memset(&s, 0, sizeof s);
	if (!metrics)
		return s;
	return metrics->summary;
}
