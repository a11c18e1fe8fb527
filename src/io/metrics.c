// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Quality metrics of a pose sequence. The definitions (which bones, which frames, which surface)
// are written out in docs/metrics.md; keep the two in step.
#include "limber/metrics.h"

#include <stdlib.h>
#include <string.h>

typedef struct lbLimitJoint
{
	int bone;
	float maxDeg;
} lbLimitJoint;

#define LB_METRICS_MAX_LIMITS 32

struct lbMetrics
{
	lbMetricsDef def;
	const lbSkeleton* skeleton;
	lbHumanoid humanoid;
	int refBone;
	lbLimitJoint limits[LB_METRICS_MAX_LIMITS];
	int limitCount;
	bool hasPrev;
	lbVec3 prevSole[2];
	lbMetricsSummary summary;
	// Previous frame's bone transforms relative to the reference bone (boneCount entries).
	lbTransform* prevRel;
};

lbMetricsDef lbDefaultMetricsDef(void)
{
	lbMetricsDef d;
	memset(&d, 0, sizeof d);
	d.upWs = lbVec3_axisZ;
	d.plantedSpeed = 0.25f;
	d.probeLift = 0.5f;
	d.probeLength = 1.5f;
	d.inversionToleranceDeg = -2.0f;
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

static void lbAddLimit(lbMetrics* m, int bone, float maxDeg)
{
	if (bone >= 0 && m->limitCount < LB_METRICS_MAX_LIMITS)
		m->limits[m->limitCount++] = (lbLimitJoint){ bone, maxDeg };
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
	if (!lbIsValidVec3(def->upWs) || lbAbsF(lbLength(def->upWs) - 1.0f) > 1.0e-3f || !(def->plantedSpeed >= 0.0f) ||
		!(def->probeLift >= 0.0f) || !(def->probeLength > 0.0f) || !lbIsValidFloat(def->inversionToleranceDeg))
	{
		lbReport(lb_errorInvalidArgument, "lbCreateMetrics: up must be unit, speeds and lengths positive and finite");
		return NULL;
	}
	lbMetrics* m = (lbMetrics*)calloc(1, sizeof(lbMetrics));
	lbTransform* prev = (lbTransform*)calloc((size_t)def->skeleton->boneCount, sizeof(lbTransform));
	if (!m || !prev)
	{
		free(m);
		free(prev);
		lbReport(lb_errorOutOfMemory, "lbCreateMetrics");
		return NULL;
	}
	m->def = *def;
	m->skeleton = def->skeleton;
	m->humanoid = *def->humanoid;
	m->prevRel = prev;
	const lbHumanoid* h = &m->humanoid;
	m->refBone = (h->root >= 0 && h->root != h->pelvis) ? h->root : LB_NULL_INDEX;

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
	m->summary.contactDriftMax = -1.0f;
	m->summary.penetrationMax = -1.0f;
	m->summary.hoverMax = -1.0f;
	m->summary.palmWallAngleMax = -1.0f;
	m->summary.posePopMax = -1.0f;
	m->summary.posePopMaxM = -1.0f;
	return m;
}

void lbDestroyMetrics(lbMetrics* metrics)
{
	if (!metrics)
		return;
	free(metrics->prevRel);
	free(metrics);
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
	lbTransform footWs = lbBoneWs(pose, characterWs, foot);
	const lbLegAxes* ax = &humanoid->legAxes[side];
	// A direction, then a length in metres: independent of any scale on the bone.
	lbVec3 footUpWs = lbNormalize(lbTransformDirection(footWs, ax->footUp));
	return lbMulAdd(footWs.p, -ax->ankleHeight, footUpWs);
}

static bool lbTransformFinite(lbTransform t)
{
	return lbIsValidVec3(t.p) && lbIsValidVec3(t.s) && lbIsValidFloat(t.q.x) && lbIsValidFloat(t.q.y) &&
		   lbIsValidFloat(t.q.z) && lbIsValidFloat(t.q.w);
}

// Signed distance of a point from the surface it should touch: cast from `lift` metres out along
// `outward` back toward the point and beyond; positive above the surface, negative inside.
static bool lbSurfaceDistance(const lbMetrics* m, lbVec3 point, lbVec3 outward, float* outDistance)
{
	if (!m->def.probe)
		return false;
	lbVec3 dir = lbNeg(outward);
	lbVec3 origin = lbMulAdd(point, m->def.probeLift, outward);
	lbVec3 hit, normal;
	if (!m->def.probe(m->def.probeContext, origin, dir, m->def.probeLift + m->def.probeLength, &hit, &normal))
		return false;
	normal = lbNormalizeOr(normal, outward);
	*outDistance = lbDot(lbSub(point, hit), normal);
	return true;
}

static void lbMaxInto(float* acc, float v)
{
	if (v >= 0.0f && v > *acc)
		*acc = v;
}

lbResult lbMetrics_AddFrame(lbMetrics* m, const lbMetricsFrame* frame, lbFrameMetrics* outFrame)
{
	if (!m || !frame || !frame->pose || !frame->pose->model || !frame->pose->local || (frame->contactCount > 0 && !frame->contacts))
		return lbReport(lb_errorNullPointer, "lbMetrics_AddFrame: metrics, frame and pose are required");
	if (frame->pose->boneCount != m->skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbMetrics_AddFrame: pose has %d bones, skeleton %d", frame->pose->boneCount,
						m->skeleton->boneCount);
	lbFrameMetrics fm;
	memset(&fm, 0, sizeof fm);
	fm.contactDrift = fm.penetration = fm.hover = fm.palmWallAngle = fm.posePopDeg = fm.posePopM = -1.0f;
	m->summary.frames++;

	bool finite = lbPose_IsFinite(frame->pose) && lbTransformFinite(frame->characterWs) && lbIsValidFloat(frame->dt);
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
	const float tol = m->def.inversionToleranceDeg;

	// Knees and elbows: signed hinge angle about the derived axis carried by the parent bone.
	int violations = 0;
	for (int s = 0; s < 2; ++s)
	{
		const lbLegBones* leg = &h->leg[s];
		const lbLegAxes* la = &h->legAxes[s];
		if (leg->thigh >= 0 && leg->calf >= 0 && leg->foot >= 0)
		{
			lbTransform thigh = pose->model[leg->thigh];
			lbVec3 hinge = lbTransformDirection(thigh, la->kneeBendThigh);
			lbVec3 hip = thigh.p, knee = pose->model[leg->calf].p, ankle = pose->model[leg->foot].p;
			fm.kneeAngle[s] = lbSignedHingeAngle(hip, knee, ankle, hinge);
			fm.kneeInverted = fm.kneeInverted || fm.kneeAngle[s] < tol;
			float offPlane = asinf(lbClampF(lbAbsF(lbDot(lbNormalize(lbSub(ankle, knee)), lbNormalize(hinge))), 0.0f, 1.0f)) * LB_RAD2DEG;
			violations += (fm.kneeAngle[s] > 160.0f || offPlane > 25.0f) ? 1 : 0;
		}
		const lbArmBones* arm = &h->arm[s];
		const lbArmAxes* aa = &h->armAxes[s];
		if (arm->upperArm >= 0 && arm->foreArm >= 0 && arm->hand >= 0)
		{
			lbTransform upper = pose->model[arm->upperArm];
			lbVec3 hinge = lbTransformDirection(upper, aa->elbowBendUpper);
			lbVec3 shoulder = upper.p, elbow = pose->model[arm->foreArm].p, wrist = pose->model[arm->hand].p;
			fm.elbowAngle[s] = lbSignedHingeAngle(shoulder, elbow, wrist, hinge);
			fm.elbowInverted = fm.elbowInverted || fm.elbowAngle[s] < tol;
			float offPlane = asinf(lbClampF(lbAbsF(lbDot(lbNormalize(lbSub(wrist, elbow)), lbNormalize(hinge))), 0.0f, 1.0f)) * LB_RAD2DEG;
			// Wider than the knee's: a rig whose rest arm is straight gives a guessed hinge axis, and
			// real elbows carry 10-15 degrees off their plane.
			violations += (fm.elbowAngle[s] > 165.0f || offPlane > 35.0f) ? 1 : 0;
		}
	}
	for (int i = 0; i < m->limitCount; ++i)
	{
		int b = m->limits[i].bone;
		float deg = lbQuatAngleBetween(m->skeleton->restLocal[b].q, lbQuatNormalize(pose->local[b].q)) * LB_RAD2DEG;
		violations += deg > m->limits[i].maxDeg ? 1 : 0;
	}
	fm.limitViolations = violations;

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

	// Feet: sole points, planted flags, then penetration and hover.
	lbVec3 sole[2];
	for (int s = 0; s < 2; ++s)
	{
		// A foot the system reports a contact for is measured through that contact instead.
		bool systemFeet = false;
		for (int i = 0; i < frame->contactCount; ++i)
			systemFeet = systemFeet || (frame->contacts[i].kind == lb_contactFoot && frame->contacts[i].bone == h->leg[s].foot);
		sole[s] = lbSolePointWs(h, pose, cw, s);
		float speed = 0.0f;
		if (m->hasPrev && !frame->reset && frame->dt > 0.0f)
			speed = lbDistance(sole[s], m->prevSole[s]) / frame->dt;
		fm.planted[s] = frame->grounded && speed < m->def.plantedSpeed;
		if (!systemFeet && fm.planted[s])
		{
			float d;
			if (lbSurfaceDistance(m, sole[s], m->def.upWs, &d))
			{
				lbMaxInto(&fm.penetration, lbMaxF(-d, 0.0f));
				lbMaxInto(&fm.hover, lbMaxF(d, 0.0f));
			}
			m->summary.plantedFootFrames++;
		}
		m->prevSole[s] = sole[s];
	}

	// System contacts: drift of locked ones, surface distance of touching ones, palm angle.
	bool anyLocked = false;
	for (int i = 0; i < frame->contactCount; ++i)
	{
		const lbContact* c = &frame->contacts[i];
		if (c->bone < 0 || c->bone >= n)
			continue;
		lbTransform boneWs = lbBoneWs(pose, cw, c->bone);
		lbVec3 point = lbTransformPoint(boneWs, c->offsetLocal);
		lbVec3 normal = lbNormalizeOr(c->normalWs, m->def.upWs);
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
		if (c->touching)
		{
			float d;
			if (lbSurfaceDistance(m, point, normal, &d))
			{
				lbMaxInto(&fm.penetration, lbMaxF(-d, 0.0f));
				lbMaxInto(&fm.hover, lbMaxF(d, 0.0f));
			}
			if (c->kind == lb_contactFoot)
				m->summary.plantedFootFrames++;
		}
	}
	m->hasPrev = true;

	lbMetricsSummary* sm = &m->summary;
	lbMaxInto(&sm->contactDriftMax, fm.contactDrift);
	lbMaxInto(&sm->penetrationMax, fm.penetration);
	lbMaxInto(&sm->hoverMax, fm.hover);
	lbMaxInto(&sm->palmWallAngleMax, fm.palmWallAngle);
	lbMaxInto(&sm->posePopMax, fm.posePopDeg);
	lbMaxInto(&sm->posePopMaxM, fm.posePopM);
	sm->kneeInversions += fm.kneeInverted ? 1 : 0;
	sm->elbowInversions += fm.elbowInverted ? 1 : 0;
	sm->limitViolations += fm.limitViolations > 0 ? 1 : 0;
	sm->lockedContactFrames += anyLocked ? 1 : 0;
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
