// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Motion layer: clip sampling, root motion, procedural base motions on both reference rigs.
#include "limber/limber.h"
#include "limber/motion.h"
#include "limber/rigs.h"
#include "test_macros.h"

#include <stdlib.h>

typedef struct lbLogCapture
{
	int count;
	lbResult last;
} lbLogCapture;

static void lbCaptureLog(lbLogLevel level, lbResult code, const char* message, void* ctx)
{
	(void)level;
	(void)message;
	lbLogCapture* c = (lbLogCapture*)ctx;
	c->count++;
	c->last = code;
}

typedef struct lbRigFixture
{
	lbSkeleton* skel;
	lbHumanoid hum;
	lbPose pose;
} lbRigFixture;

static bool lbMakeFixture(lbReferenceRig rig, lbRigFixture* f)
{
	f->skel = lbCreateReferenceRig(rig);
	if (!f->skel)
		return false;
	if (lbMapHumanoid(f->skel, NULL, &f->hum) != lb_ok)
		return false;
	f->pose = lbCreatePose(f->skel);
	return true;
}

static void lbFreeFixture(lbRigFixture* f)
{
	lbDestroyPose(&f->pose);
	lbDestroySkeleton(f->skel);
}

// Largest change of a joint-to-parent distance; the pelvis is skipped because it translates
// freely relative to a floor-level root bone.
static float lbMaxBoneLengthError(const lbPose* pose, const lbSkeleton* s, int pelvis)
{
	float worst = 0.0f;
	for (int b = 0; b < s->boneCount; ++b)
	{
		int p = s->parents[b];
		if (p < 0 || b == pelvis)
			continue;
		float rest = lbDistance(s->restModel[b].p, s->restModel[p].p);
		float now = lbDistance(pose->model[b].p, pose->model[p].p);
		worst = lbMaxF(worst, lbAbsF(rest - now));
	}
	return worst;
}

// ---------------------------------------------------------------------------------------------
// Clips

static void TestClipSampleKeyed(void)
{
	lbRigFixture f;
	ENSURE(lbMakeFixture(lb_rigMixamo, &f));
	int bone = f.hum.leg[0].calf;
	lbQuat r0 = f.skel->restLocal[bone].q;
	lbQuat r1 = lbQuatMul(r0, lbQuatFromAxisAngle(f.hum.legAxes[0].kneeBendCalf, 1.2f));
	float rt[2] = { 0.0f, 1.0f };
	lbQuat rk[2] = { r0, r1 };
	float pt[3] = { 0.0f, 0.5f, 2.0f };
	lbVec3 pk[3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 2, 0 } };
	lbClipTrack tracks[2];
	memset(tracks, 0, sizeof tracks);
	tracks[0].bone = bone;
	tracks[0].rotationCount = 2;
	tracks[0].rotationTimes = rt;
	tracks[0].rotations = rk;
	tracks[1].bone = f.hum.pelvis;
	tracks[1].positionCount = 3;
	tracks[1].positionTimes = pt;
	tracks[1].positions = pk;
	lbClip clip = { "test", 2.0f, f.skel->boneCount, 2, tracks, 0, 0.0f, NULL };
	ENSURE(lbValidateClip(&clip, f.skel) == lb_ok);
	lbTestRng rng = { 7 };
	for (int i = 0; i < 200; ++i)
	{
		float t = lbTestUniform(&rng, -1.0f, 5.0f);
		ENSURE(lbSampleClip(&clip, f.skel, t, lb_clipClamp, &f.pose) == lb_ok);
		float tc = lbClampF(t, 0.0f, 2.0f);
		ENSURE_QUAT_SAME_ROT(f.pose.local[bone].q, lbQuatSlerp(r0, r1, lbClampF(tc, 0.0f, 1.0f)), 1.0e-4f);
		lbVec3 want = tc < 0.5f ? lbLerp(pk[0], pk[1], tc / 0.5f) : lbLerp(pk[1], pk[2], (tc - 0.5f) / 1.5f);
		ENSURE_VEC3_NEAR(f.pose.local[f.hum.pelvis].p, want, 1.0e-5f);
		// Untracked bones keep their rest, model space is consistent.
		int other = f.hum.head;
		ENSURE_QUAT_SAME_ROT(f.pose.local[other].q, f.skel->restLocal[other].q, 1.0e-6f);
		ENSURE_VEC3_NEAR(f.pose.model[bone].p, lbTransformPoint(f.pose.model[f.skel->parents[bone]], f.pose.local[bone].p), 1.0e-5f);
		// Looping: t and t + duration agree.
		lbTransform a, b;
		lbSampleClip(&clip, f.skel, t, lb_clipLoop, &f.pose);
		a = f.pose.local[f.hum.pelvis];
		lbSampleClip(&clip, f.skel, t + 2.0f, lb_clipLoop, &f.pose);
		b = f.pose.local[f.hum.pelvis];
		ENSURE_VEC3_NEAR(a.p, b.p, 1.0e-4f);
	}
	lbFreeFixture(&f);
}

static void TestClipSampleFrames(void)
{
	lbRigFixture f;
	ENSURE(lbMakeFixture(lb_rigMannequin, &f));
	const int n = f.skel->boneCount, frames = 5;
	lbTransform* data = (lbTransform*)malloc(sizeof(lbTransform) * (size_t)(n * frames));
	int bone = f.hum.arm[1].foreArm;
	for (int k = 0; k < frames; ++k)
	{
		for (int b = 0; b < n; ++b)
			data[k * n + b] = f.skel->restLocal[b];
		data[k * n + bone].q = lbQuatMul(f.skel->restLocal[bone].q, lbQuatFromAxisAngle(f.hum.armAxes[1].elbowBendFore, 0.3f * (float)k));
		data[k * n + f.hum.pelvis].p = lbAdd(f.skel->restLocal[f.hum.pelvis].p, lbMakeVec3(0.1f * (float)k, 0, 0));
	}
	lbClip clip = { NULL, 4.0f / 30.0f, n, 0, NULL, frames, 30.0f, data };
	ENSURE(lbValidateClip(&clip, f.skel) == lb_ok);
	for (int i = 0; i <= 40; ++i)
	{
		float t = (float)i / 300.0f;
		ENSURE(lbSampleClip(&clip, f.skel, t, lb_clipClamp, &f.pose) == lb_ok);
		float fk = t * 30.0f;
		lbQuat want = lbQuatMul(f.skel->restLocal[bone].q, lbQuatFromAxisAngle(f.hum.armAxes[1].elbowBendFore, 0.3f * fk));
		ENSURE_QUAT_SAME_ROT(f.pose.local[bone].q, want, 1.0e-4f);
		ENSURE_NEAR(f.pose.local[f.hum.pelvis].p.x - f.skel->restLocal[f.hum.pelvis].p.x, 0.1f * fk, 1.0e-5f);
	}
	free(data);
	lbFreeFixture(&f);
}

static void TestClipBadInput(void)
{
	lbRigFixture f;
	ENSURE(lbMakeFixture(lb_rigMixamo, &f));
	lbLogCapture cap = { 0, lb_ok };
	lbSetLogFcn(lbCaptureLog, &cap);
	float times[2] = { 0.0f, 0.0f };
	lbQuat rots[2] = { lbQuat_identity, lbQuat_identity };
	lbClipTrack tr;
	memset(&tr, 0, sizeof tr);
	tr.bone = 0;
	tr.rotationCount = 2;
	tr.rotationTimes = times;
	tr.rotations = rots;
	lbClip clip = { NULL, 1.0f, f.skel->boneCount, 1, &tr, 0, 0.0f, NULL };
	ENSURE(lbValidateClip(&clip, f.skel) == lb_errorInvalidArgument); // times not increasing
	times[1] = 1.0f;
	ENSURE(lbValidateClip(&clip, f.skel) == lb_ok);
	tr.bone = f.skel->boneCount;
	ENSURE(lbValidateClip(&clip, f.skel) == lb_errorBoneNotFound);
	tr.bone = 0;
	rots[1].x = NAN;
	ENSURE(lbValidateClip(&clip, f.skel) == lb_errorNonFinite);
	rots[1] = lbQuat_identity;
	clip.boneCount = 3;
	ENSURE(lbValidateClip(&clip, f.skel) == lb_errorSkeletonMismatch);
	ENSURE(lbSampleClip(&clip, f.skel, 0.5f, lb_clipClamp, &f.pose) == lb_errorSkeletonMismatch);
	clip.boneCount = f.skel->boneCount;
	ENSURE(lbSampleClip(&clip, f.skel, NAN, lb_clipClamp, &f.pose) == lb_errorNonFinite);
	ENSURE(lbSampleClip(NULL, f.skel, 0.0f, lb_clipClamp, &f.pose) == lb_errorNullPointer);
	lbClip empty = { NULL, 1.0f, f.skel->boneCount, 0, NULL, 0, 0.0f, NULL };
	ENSURE(lbValidateClip(&empty, f.skel) == lb_errorInvalidArgument);
	ENSURE(lbSampleClip(&empty, f.skel, 0.0f, lb_clipClamp, &f.pose) == lb_errorInvalidArgument);
	ENSURE(lbPose_IsFinite(&f.pose));
	ENSURE(cap.count >= 9);
	lbSetLogFcn(NULL, NULL);
	lbFreeFixture(&f);
}

// A synthetic clip: the pelvis travels forward at `speed` and turns at `turn`, bobbing.
typedef struct lbTravelClip
{
	float times[61];
	lbVec3 pos[61];
	lbQuat rot[61];
	lbClipTrack track;
	lbClip clip;
} lbTravelClip;

static void lbMakeTravelClip(const lbRigFixture* f, float speed, float turn, lbTravelClip* c)
{
	int pelvis = f->hum.pelvis;
	int parent = f->skel->parents[pelvis];
	lbTransform parentRest = parent >= 0 ? f->skel->restModel[parent] : lbTransform_identity;
	lbVec3 heading = f->hum.forwardMs;
	lbVec3 p = f->skel->restModel[pelvis].p;
	float yaw = 0.0f;
	for (int k = 0; k <= 60; ++k)
	{
		float t = (float)k / 30.0f;
		c->times[k] = t;
		lbTransform model;
		model.q = lbQuatMul(lbQuatFromAxisAngle(f->hum.upMs, yaw), f->skel->restModel[pelvis].q);
		model.p = lbMulAdd(p, 0.02f * sinf(6.0f * t), f->hum.upMs);
		model.s = lbVec3_one;
		lbTransform local = lbTransformRelative(parentRest, model);
		c->pos[k] = local.p;
		c->rot[k] = local.q;
		p = lbMulAdd(p, speed / 30.0f, lbQuatRotate(lbQuatFromAxisAngle(f->hum.upMs, yaw), heading));
		yaw += turn / 30.0f;
	}
	memset(&c->track, 0, sizeof c->track);
	c->track.bone = pelvis;
	c->track.positionCount = 61;
	c->track.positionTimes = c->times;
	c->track.positions = c->pos;
	c->track.rotationCount = 61;
	c->track.rotationTimes = c->times;
	c->track.rotations = c->rot;
	lbClip clip = { "travel", 2.0f, f->skel->boneCount, 1, &c->track, 0, 0.0f, NULL };
	c->clip = clip;
}

static void TestRootMotion(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbRigFixture f;
		ENSURE(lbMakeFixture((lbReferenceRig)rig, &f));
		static lbTravelClip c;
		lbMakeTravelClip(&f, 1.2f, 0.4f, &c);
		lbPose ref = lbCreatePose(f.skel);
		lbMotionState st;
		lbTransform start = lbMakeTransform(lbMakeVec3(3, -2, 0.5f), lbQuatFromAxisAngle(lbVec3_axisZ, 0.7f));
		ENSURE(lbMotionState_Init(&st, f.skel, &f.hum, start) == lb_ok);
		lbMotionDef p = lbDefaultMotionDef(lb_motionClip);
		p.clip = &c.clip;
		p.loop = false;
		const float dt = 1.0f / 60.0f;
		lbTransform anchor = lb_ok == lbMotion_Sample(&st, f.skel, &f.hum, &p, dt, &f.pose) ? st.characterWs : start;
		lbSampleClip(&c.clip, f.skel, 0.0f, lb_clipClamp, &ref);
		lbTransform ref0 = lbComputeRootFrame(&ref, &f.hum);
		lbTransform worldFromClip = lbTransformMul(anchor, lbTransformInverse(ref0));
		for (int i = 1; i <= 100; ++i)
		{
			ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, dt, &f.pose) == lb_ok);
			float t = (float)i * dt;
			lbSampleClip(&c.clip, f.skel, t, lb_clipClamp, &ref);
			// World pose equals the clip anchored at its start, for every bone.
			for (int b = 0; b < f.skel->boneCount; ++b)
			{
				lbVec3 w = lbTransformPoint(st.characterWs, f.pose.model[b].p);
				lbVec3 wRef = lbTransformPoint(worldFromClip, ref.model[b].p);
				ENSURE_VEC3_NEAR(w, wRef, 1.0e-3f);
			}
			// In place: the pelvis stays over the model origin and faces forward.
			lbTransform rf = lbComputeRootFrame(&f.pose, &f.hum);
			ENSURE(lbLength(rf.p) < 1.0e-3f);
			ENSURE(lbQuatAngle(rf.q) < 1.0e-3f);
		}
		// The character turned by the clip's turn (0.4 rad/s for 100 frames at 60 Hz).
		lbVec3 up = lbTransformDirection(start, f.hum.upMs);
		float turned = lbHeadingAngle(lbTransformDirection(start, f.hum.forwardMs), lbTransformDirection(st.characterWs, f.hum.forwardMs), up);
		ENSURE_NEAR(turned, 0.4f * 100.0f * dt, 0.02f);
		// Looping: travel keeps accumulating across the seam without a jump.
		ENSURE(lbMotionState_Init(&st, f.skel, &f.hum, lbTransform_identity) == lb_ok);
		p.loop = true;
		lbMotionDef pStraight = p;
		lbMakeTravelClip(&f, 1.2f, 0.0f, &c);
		lbVec3 prev = lbVec3_zero;
		float maxStep = 0.0f;
		for (int i = 0; i < 400; ++i)
		{
			ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &pStraight, dt, &f.pose) == lb_ok);
			lbVec3 w = lbTransformPoint(st.characterWs, f.pose.model[f.hum.pelvis].p);
			if (i > 0)
				maxStep = lbMaxF(maxStep, lbDistance(lbProjectOnPlane(w, f.hum.upMs), lbProjectOnPlane(prev, f.hum.upMs)));
			prev = w;
		}
		ENSURE(maxStep < 1.2f * dt * 1.5f);
		float travelled = lbLength(lbProjectOnPlane(st.characterWs.p, f.hum.upMs));
		ENSURE_NEAR(travelled, 1.2f * 399.0f * dt, 0.05f);
		lbDestroyPose(&ref);
		lbFreeFixture(&f);
	}
}

// ---------------------------------------------------------------------------------------------
// Procedural gait

typedef struct lbGaitStats
{
	float boneErr, minSeparation, maxSlide, maxFlatSlide, maxJointStep;
	int kneeInversions;
	// Largest rotation of a foot from its rest local rotation (deg): an ankle cannot turn much.
	float maxFootTurn;
	int touchdowns[2], alternationErrors, nanFrames;
	float travelled, turned;
} lbGaitStats;

static void lbRunGait(lbRigFixture* f, lbBaseMotion motion, float speed, float turn, float seconds, lbGaitStats* out)
{
	memset(out, 0, sizeof *out);
	out->minSeparation = 1.0e9f;
	lbMotionState st;
	lbTransform start = lbMakeTransform(lbMakeVec3(1, 2, 0), lbQuat_identity);
	ENSURE(lbMotionState_Init(&st, f->skel, &f->hum, start) == lb_ok);
	lbMotionDef p = lbDefaultMotionDef(motion);
	p.speed = speed;
	p.turnRate = turn;
	const float dt = 1.0f / 120.0f;
	const int frames = (int)(seconds / dt);
	// Independent contact points: heel and ball on the ground under the rest foot.
	lbVec3 heelL[2], ballL[2];
	for (int side = 0; side < 2; ++side)
	{
		lbTransform foot = f->skel->restModel[f->hum.leg[side].foot];
		lbVec3 up = f->hum.upMs;
		float floorH = lbDot(f->skel->restModel[f->hum.pelvis].p, up) - f->hum.pelvisHeight;
		lbVec3 ground = lbSub(foot.p, lbMulSV(lbDot(foot.p, up) - floorH, up));
		lbVec3 toe = lbNormalize(lbProjectOnPlane(lbQuatRotate(foot.q, f->hum.legAxes[side].toe), up));
		float len = f->hum.legAxes[side].footLength;
		heelL[side] = lbInvTransformPoint(foot, lbMulAdd(ground, -0.3f * len, toe));
		ballL[side] = lbInvTransformPoint(foot, lbMulAdd(ground, len, toe));
	}
	static lbVec3 prevWs[LB_MAX_BONES];
	bool wasPlanted[2] = { true, true };
	int stanceIndex[2] = { 0, 0 };
	lbVec3 heelAnchor[2], ballAnchor[2], ankleAnchor[2];
	bool heelSet[2] = { false, false }, ballSet[2] = { false, false }, ankleSet[2] = { false, false };
	int lastTouch = -1;
	for (int i = 0; i < frames; ++i)
	{
		ENSURE(lbMotion_Sample(&st, f->skel, &f->hum, &p, dt, &f->pose) == lb_ok);
		if (!lbPose_IsFinite(&f->pose) || !lbIsValidTransform(st.characterWs))
			out->nanFrames++;
		out->boneErr = lbMaxF(out->boneErr, lbMaxBoneLengthError(&f->pose, f->skel, f->hum.pelvis));
		// Knees bend the anatomical way: the calf turns positively about the derived hinge.
		for (int side = 0; side < 2; ++side)
		{
			const lbLegBones* g = &f->hum.leg[side];
			lbVec3 hip = f->pose.model[g->thigh].p, knee = f->pose.model[g->calf].p, ankle = f->pose.model[g->foot].p;
			lbVec3 hinge = lbQuatRotate(f->pose.model[g->thigh].q, f->hum.legAxes[side].kneeBendThigh);
			if (lbDot(lbCross(lbSub(knee, hip), lbSub(ankle, knee)), hinge) < -1.0e-4f)
				out->kneeInversions++;
			float footTurn = lbQuatAngleBetween(f->skel->restLocal[g->foot].q, f->pose.local[g->foot].q) * LB_RAD2DEG;
			out->maxFootTurn = lbMaxF(out->maxFootTurn, footTurn);
		}
		// No joint jumps between frames (world space).
		for (int b = 0; b < f->skel->boneCount; ++b)
		{
			lbVec3 w = lbTransformPoint(st.characterWs, f->pose.model[b].p);
			if (i > 0)
				out->maxJointStep = lbMaxF(out->maxJointStep, lbDistance(w, prevWs[b]));
			prevWs[b] = w;
		}
		lbVec3 al = f->pose.model[f->hum.leg[0].foot].p, ar = f->pose.model[f->hum.leg[1].foot].p;
		out->minSeparation = lbMinF(out->minSeparation, lbDot(lbSub(al, ar), f->hum.leftMs));
		for (int side = 0; side < 2; ++side)
		{
			const lbFootPhase* fp = &st.feet[side];
			if (fp->planted && !wasPlanted[side])
			{
				out->touchdowns[side]++;
				stanceIndex[side]++;
				heelSet[side] = ballSet[side] = ankleSet[side] = false;
				if (lastTouch == side)
					out->alternationErrors++;
				lastTouch = side;
			}
			wasPlanted[side] = fp->planted;
			if (!fp->planted || stanceIndex[side] < 2)
				continue;
			lbTransform footWs = lbTransformMul(st.characterWs, f->pose.model[f->hum.leg[side].foot]);
			lbVec3 heel = lbTransformPoint(footWs, heelL[side]), ball = lbTransformPoint(footWs, ballL[side]);
			if (motion == lb_motionWalk && fp->phase <= 0.5f)
			{
				if (!heelSet[side])
					heelAnchor[side] = heel, heelSet[side] = true;
				out->maxSlide = lbMaxF(out->maxSlide, lbDistance(heel, heelAnchor[side]));
			}
			if (fp->phase >= (motion == lb_motionWalk ? 0.12f : 0.0f))
			{
				if (!ballSet[side])
					ballAnchor[side] = ball, ballSet[side] = true;
				out->maxSlide = lbMaxF(out->maxSlide, lbDistance(ball, ballAnchor[side]));
			}
			if (fp->phase >= 0.12f && fp->phase <= (motion == lb_motionWalk ? 0.5f : 0.45f))
			{
				if (!ankleSet[side])
					ankleAnchor[side] = footWs.p, ankleSet[side] = true;
				out->maxFlatSlide = lbMaxF(out->maxFlatSlide, lbDistance(footWs.p, ankleAnchor[side]));
				// The locked target is where the foot is.
				ENSURE_VEC3_NEAR(fp->targetWs, ankleAnchor[side], 1.0e-3f);
			}
		}
	}
	out->travelled = lbDistance(st.characterWs.p, start.p);
	lbVec3 upWs = lbTransformDirection(start, f->hum.upMs);
	out->turned = lbHeadingAngle(lbTransformDirection(start, f->hum.forwardMs), lbTransformDirection(st.characterWs, f->hum.forwardMs), upWs);
}

static void TestWalkAndRun(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbRigFixture f;
		ENSURE(lbMakeFixture((lbReferenceRig)rig, &f));
		const float speeds[4] = { 0.8f, 1.4f, 2.0f, 3.5f };
		for (int k = 0; k < 4; ++k)
		{
			lbBaseMotion m = k == 3 ? lb_motionRun : lb_motionWalk;
			lbGaitStats g;
			lbRunGait(&f, m, speeds[k], 0.0f, 6.0f, &g);
			printf("  %s %s %.1f m/s: bone err %.2g m, min foot separation %.3f m, slide %.4f m (flat %.4f), steps %d/%d, travel %.2f m, max joint step %.3f m\n",
				   lbReferenceRigName((lbReferenceRig)rig), lbBaseMotionName(m), (double)speeds[k], (double)g.boneErr,
				   (double)g.minSeparation, (double)g.maxSlide, (double)g.maxFlatSlide, g.touchdowns[0], g.touchdowns[1],
				   (double)g.travelled, (double)g.maxJointStep);
			ENSURE(g.nanFrames == 0);
			ENSURE(g.boneErr < 1.0e-4f);
			ENSURE(g.minSeparation > 0.03f);
			ENSURE(g.maxSlide <= 0.01f);
			ENSURE(g.maxFlatSlide <= 0.01f);
			ENSURE(g.alternationErrors == 0);
			ENSURE(g.kneeInversions == 0);
			// At 120 Hz no joint moves more than 8 cm per frame (a swinging foot at twice the run speed).
			ENSURE(g.maxJointStep < 0.08f);
			ENSURE(g.touchdowns[0] >= 4 && g.touchdowns[1] >= 4);
			ENSURE(abs(g.touchdowns[0] - g.touchdowns[1]) <= 1);
			// Speed is reached after the ramp: at least 85% of speed * time.
			ENSURE(g.travelled > 0.85f * speeds[k] * 6.0f && g.travelled < 1.01f * speeds[k] * 6.0f);
		}
		// Turning on the spot: the feet keep stepping (no hold) and stay apart.
		lbGaitStats spot;
		lbRunGait(&f, lb_motionWalk, 0.0f, 1.0f, 4.0f, &spot);
		ENSURE(spot.nanFrames == 0 && spot.alternationErrors == 0);
		ENSURE(spot.touchdowns[0] >= 2 && spot.touchdowns[1] >= 2);
		ENSURE(spot.minSeparation > 0.02f);
		ENSURE(spot.maxSlide <= 0.01f);
		printf("  %s turn on the spot: turned %.2f rad, min foot separation %.3f m, steps %d/%d, foot turn %.1f deg\n",
			   lbReferenceRigName((lbReferenceRig)rig), (double)spot.turned, (double)spot.minSeparation, spot.touchdowns[0],
			   spot.touchdowns[1], (double)spot.maxFootTurn);
		// A stance foot held in the world while the body turns: the hip takes the twist (the knee
		// follows the toes), the ankle stays within its range.
		ENSURE(spot.maxFootTurn < 50.0f);
		// Turning walk: heading follows the turn rate, feet stay locked and apart.
		lbGaitStats g;
		lbRunGait(&f, lb_motionWalk, 1.2f, 0.5f, 5.0f, &g);
		ENSURE(g.nanFrames == 0);
		ENSURE(g.maxFootTurn < 50.0f);
		// A sharp turn while walking, both ways.
		for (int sign = -1; sign <= 1; sign += 2)
		{
			lbGaitStats sharp;
			lbRunGait(&f, lb_motionWalk, 1.0f, 1.6f * (float)sign, 4.0f, &sharp);
			printf("  %s sharp turn %+d: foot turn %.1f deg, knee inversions %d\n", lbReferenceRigName((lbReferenceRig)rig),
				   sign, (double)sharp.maxFootTurn, sharp.kneeInversions);
			ENSURE(sharp.nanFrames == 0 && sharp.kneeInversions == 0);
			ENSURE(sharp.maxFootTurn < 50.0f);
		}
		ENSURE(g.maxSlide <= 0.01f);
		ENSURE(g.minSeparation > 0.02f);
		ENSURE(g.alternationErrors == 0);
		float expectTurn = 0.5f * 5.0f - 0.5f / 4.0f; // minus the ramp-in lag of 1/acceleration
		float diff = remainderf(g.turned - expectTurn, 2.0f * LB_PI);
		ENSURE(lbAbsF(diff) < 0.1f);
		lbFreeFixture(&f);
	}
}

static void TestStrideFromLegLength(void)
{
	float s1, r1, s2, r2;
	lbGaitStride(1.4f, 0.9f, false, &s1, &r1);
	ENSURE_NEAR(s1 * r1, 1.4f, 1.0e-4f);
	// Adult walking at 1.4 m/s: stride 1.2-1.6 m, cadence 0.8-1.2 strides/s.
	ENSURE(s1 > 1.2f && s1 < 1.6f && r1 > 0.8f && r1 < 1.2f);
	// A longer leg takes longer strides at the same speed.
	lbGaitStride(1.4f, 1.1f, false, &s2, &r2);
	ENSURE(s2 > s1 && r2 < r1);
	lbGaitStride(0.0f, 0.9f, false, &s1, &r1);
	ENSURE(s1 == 0.0f && r1 > 0.5f);
	lbGaitStride(NAN, NAN, true, &s1, &r1);
	ENSURE(lbIsValidFloat(s1) && lbIsValidFloat(r1));
}

// lbGaitSpeedForStride inverts lbGaitStride: over 2000 random legs, gaits and speeds (fixed seed),
// the speed it gives for a speed's stride has that stride (to 1 mm, never longer), and a shorter
// stride asks for a speed no faster; strides past a walk's cap allow its fastest speed, and no
// stride, or not a number, 0.
static void TestSpeedForStride(void)
{
	lbTestRng rng = { 20261205ull };
	for (int i = 0; i < 2000; ++i)
	{
		const float leg = lbTestUniform(&rng, 0.5f, 1.3f), v = lbTestUniform(&rng, 0.05f, 2.9f);
		const bool run = (i & 1) != 0;
		float stride, back;
		lbGaitStride(v, leg, run, &stride, NULL);
		const float u = lbGaitSpeedForStride(stride, leg, run);
		lbGaitStride(u, leg, run, &back, NULL);
		ENSURE(lbIsValidFloat(u) && u >= 0.0f);
		ENSURE_NEAR(back, stride, 1.0e-3f);
		ENSURE(back <= stride + 1.0e-5f);
		ENSURE(lbGaitSpeedForStride(0.9f * stride, leg, run) <= u);
	}
	ENSURE(lbGaitSpeedForStride(10.0f, 0.9f, false) >= 2.99f);
	ENSURE(lbGaitSpeedForStride(0.0f, 0.9f, false) == 0.0f);
	ENSURE(lbGaitSpeedForStride(-1.0f, 0.9f, true) == 0.0f);
	ENSURE(lbGaitSpeedForStride(NAN, 0.9f, false) == 0.0f);
	ENSURE(lbIsValidFloat(lbGaitSpeedForStride(1.0f, NAN, false)));
}

// A caller that raises the character while it walks or runs (a controller easing up stairs or a
// slope) carries the stance foot along up: across the ground it stays where it was planted, along
// up it stays on the model floor. On flat ground and climbing, no leg bone turns 12 degrees or
// more in a 60 Hz frame (the foot scenarios' pop bar is 15).
static void TestClimbingCharacter(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbRigFixture f;
		ENSURE(lbMakeFixture((lbReferenceRig)rig, &f));
		for (int c = 0; c < 4; ++c)
		{
			const int run = c & 1;
			const bool climbing = c >= 2;
			lbMotionState st;
			ENSURE(lbMotionState_Init(&st, f.skel, &f.hum, lbTransform_identity) == lb_ok);
			lbMotionDef p = lbDefaultMotionDef(run ? lb_motionRun : lb_motionWalk);
			// Walk up a 40 degree slope; run up 0.18 m risers on 0.28 m treads.
			const float climb = !climbing ? 0.0f : run ? p.speed * 0.18f / 0.28f : p.speed * tanf(40.0f * LB_DEG2RAD);
			const float dt = 1.0f / 60.0f;
			const lbVec3 upWs = lbTransformDirection(st.characterWs, f.hum.upMs);
			lbQuat prevQ[64];
			bool wasPlanted[2] = { false, false };
			lbVec3 anchorWs[2] = { lbVec3_zero, lbVec3_zero };
			float anchorH[2] = { 0.0f, 0.0f };
			float maxTurn = 0.0f, maxSlide = 0.0f, maxSink = 0.0f;
			int checked = 0;
			for (int i = 0; i < 180; ++i)
			{
				ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, dt, &f.pose) == lb_ok);
				for (int side = 0; side < 2; ++side)
				{
					const lbLegBones* g = &f.hum.leg[side];
					const int bones[3] = { g->thigh, g->calf, g->foot };
					for (int k = 0; k < 3; ++k)
					{
						lbQuat q = f.pose.model[bones[k]].q;
						if (i > 0)
							maxTurn = lbMaxF(maxTurn, lbQuatAngleBetween(prevQ[bones[k]], q) * LB_RAD2DEG);
						prevQ[bones[k]] = q;
					}
					const lbFootPhase* fp = &st.feet[side];
					lbTransform footMs = f.pose.model[g->foot];
					lbVec3 footWs = lbTransformPoint(st.characterWs, footMs.p);
					bool flat = fp->planted && fp->phase >= 0.12f && fp->phase <= 0.45f;
					if (flat && !wasPlanted[side])
					{
						anchorWs[side] = footWs;
						anchorH[side] = lbDot(footMs.p, f.hum.upMs);
					}
					if (flat)
					{
						maxSlide = lbMaxF(maxSlide, lbLength(lbProjectOnPlane(lbSub(footWs, anchorWs[side]), upWs)));
						maxSink = lbMaxF(maxSink, lbAbsF(lbDot(footMs.p, f.hum.upMs) - anchorH[side]));
						++checked;
					}
					wasPlanted[side] = flat;
				}
				st.characterWs.p = lbMulAdd(st.characterWs.p, climb * dt, upWs);
			}
			printf("  %s %s climbing %.2f m/s: max leg bone turn %.1f deg/frame, stance slide %.5f m, stance height change %.5f m\n",
				   lbReferenceRigName((lbReferenceRig)rig), run ? "run" : "walk", (double)climb, (double)maxTurn,
				   (double)maxSlide, (double)maxSink);
			ENSURE(checked > 20);
			ENSURE(maxTurn < 12.0f);
			ENSURE(maxSlide < 1.0e-3f);
			ENSURE(maxSink < 1.0e-3f);
		}
		lbFreeFixture(&f);
	}
}

// A walk asked to stop settles with both feet planted and stops stepping; it starts again.
static void TestWalkStop(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbRigFixture f;
		ENSURE(lbMakeFixture((lbReferenceRig)rig, &f));
		lbMotionState st;
		ENSURE(lbMotionState_Init(&st, f.skel, &f.hum, lbTransform_identity) == lb_ok);
		lbMotionDef p = lbDefaultMotionDef(lb_motionWalk);
		const float dt = 1.0f / 60.0f;
		for (int i = 0; i < 180; ++i)
			lbMotion_Sample(&st, f.skel, &f.hum, &p, dt, &f.pose);
		p.speed = 0.0f;
		for (int i = 0; i < 180; ++i)
			lbMotion_Sample(&st, f.skel, &f.hum, &p, dt, &f.pose);
		float phase = st.cyclePhase;
		lbVec3 ankles[2];
		for (int side = 0; side < 2; ++side)
			ankles[side] = lbTransformPoint(st.characterWs, f.pose.model[f.hum.leg[side].foot].p);
		lbVec3 where = st.characterWs.p;
		for (int i = 0; i < 60; ++i)
		{
			ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, dt, &f.pose) == lb_ok);
			ENSURE(st.feet[0].planted && st.feet[1].planted);
			for (int side = 0; side < 2; ++side)
				ENSURE_VEC3_NEAR(lbTransformPoint(st.characterWs, f.pose.model[f.hum.leg[side].foot].p), ankles[side], 0.01f);
		}
		ENSURE(st.cyclePhase == phase);
		ENSURE(lbDistance(st.characterWs.p, where) < 0.01f);
		// Feet stand apart, near the rest stance width, after stopping.
		float width = lbDot(lbSub(f.pose.model[f.hum.leg[0].foot].p, f.pose.model[f.hum.leg[1].foot].p), f.hum.leftMs);
		ENSURE(width > 0.1f);
		p.speed = 1.0f;
		for (int i = 0; i < 60; ++i)
			lbMotion_Sample(&st, f.skel, &f.hum, &p, dt, &f.pose);
		ENSURE(st.cyclePhase != phase);
		ENSURE(lbDistance(st.characterWs.p, where) > 0.2f);
		lbFreeFixture(&f);
	}
}

static void TestIdle(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbRigFixture f;
		ENSURE(lbMakeFixture((lbReferenceRig)rig, &f));
		lbMotionState st;
		ENSURE(lbMotionState_Init(&st, f.skel, &f.hum, lbTransform_identity) == lb_ok);
		lbMotionDef p = lbDefaultMotionDef(lb_motionIdle);
		lbVec3 foot0[2];
		float minSway = 1.0f, maxSway = -1.0f;
		for (int i = 0; i < 600; ++i)
		{
			ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, 1.0f / 100.0f, &f.pose) == lb_ok);
			ENSURE(lbMaxBoneLengthError(&f.pose, f.skel, f.hum.pelvis) < 1.0e-4f);
			for (int side = 0; side < 2; ++side)
			{
				lbVec3 a = f.pose.model[f.hum.leg[side].foot].p;
				if (i == 0)
					foot0[side] = a;
				ENSURE_VEC3_NEAR(a, foot0[side], 2.0e-3f);
				ENSURE(st.feet[side].planted);
			}
			float sway = lbDot(lbSub(f.pose.model[f.hum.pelvis].p, f.skel->restModel[f.hum.pelvis].p), f.hum.leftMs);
			minSway = lbMinF(minSway, sway);
			maxSway = lbMaxF(maxSway, sway);
		}
		// Weight shifts side to side by about the configured amount, the character stays put.
		ENSURE(maxSway > 0.02f && minSway < -0.02f && maxSway < 0.03f);
		ENSURE(lbLength(st.characterWs.p) < 1.0e-6f);
		lbFreeFixture(&f);
	}
}

static void TestProneAndCrawl(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbRigFixture f;
		ENSURE(lbMakeFixture((lbReferenceRig)rig, &f));
		float floorH = lbDot(f.skel->restModel[f.hum.pelvis].p, f.hum.upMs) - f.hum.pelvisHeight;
		for (int m = lb_motionProne; m <= lb_motionCrawl; ++m)
		{
			lbMotionState st;
			ENSURE(lbMotionState_Init(&st, f.skel, &f.hum, lbTransform_identity) == lb_ok);
			lbMotionDef p = lbDefaultMotionDef((lbBaseMotion)m);
			int plantedChanges = 0;
			bool prevPlanted = true;
			float maxHeight = 0.0f, minHeight = 1.0f;
			for (int i = 0; i < 400; ++i)
			{
				ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, 1.0f / 100.0f, &f.pose) == lb_ok);
				ENSURE(lbPose_IsFinite(&f.pose));
				ENSURE(lbMaxBoneLengthError(&f.pose, f.skel, f.hum.pelvis) < 1.0e-4f);
				for (int b = 0; b < f.skel->boneCount; ++b)
				{
					if (b == f.hum.root)
						continue;
					float hgt = lbDot(f.pose.model[b].p, f.hum.upMs) - floorH;
					maxHeight = lbMaxF(maxHeight, hgt);
					minHeight = lbMinF(minHeight, hgt);
				}
				if (st.feet[0].planted != prevPlanted)
					plantedChanges++;
				prevPlanted = st.feet[0].planted;
			}
			// Lying: every joint between the floor and a low height; the head points forward.
			ENSURE(maxHeight < 0.35f * f.hum.height);
			ENSURE(minHeight > -0.01f);
			lbVec3 headDir = lbSub(f.pose.model[f.hum.head].p, f.pose.model[f.hum.pelvis].p);
			ENSURE(lbDot(lbNormalize(headDir), f.hum.forwardMs) > 0.85f);
			if (m == lb_motionCrawl)
			{
				ENSURE(plantedChanges >= 2);
				ENSURE(lbDot(st.characterWs.p, lbTransformDirection(lbTransform_identity, f.hum.forwardMs)) > 0.5f);
			}
			else
			{
				ENSURE(plantedChanges == 0);
				ENSURE(lbLength(st.characterWs.p) < 1.0e-6f);
			}
		}
		lbFreeFixture(&f);
	}
}

static void TestMotionBadInput(void)
{
	lbRigFixture f;
	ENSURE(lbMakeFixture(lb_rigMannequin, &f));
	lbLogCapture cap = { 0, lb_ok };
	lbSetLogFcn(lbCaptureLog, &cap);
	lbMotionState st;
	memset(&st, 0, sizeof st);
	lbMotionDef p = lbDefaultMotionDef(lb_motionWalk);
	ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, 0.01f, &f.pose) == lb_errorInvalidArgument); // not initialised
	lbTransform bad = lbTransform_identity;
	bad.p.x = NAN;
	ENSURE(lbMotionState_Init(&st, f.skel, &f.hum, bad) == lb_errorNonFinite);
	ENSURE(lbMotionState_Init(&st, f.skel, &f.hum, lbTransform_identity) == lb_ok);
	for (int i = 0; i < 50; ++i)
		ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, 0.01f, &f.pose) == lb_ok);
	lbMotionState saved = st;
	lbTransform savedPelvis = f.pose.model[f.hum.pelvis];
	ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, 0.0f, &f.pose) == lb_errorInvalidArgument);
	ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, -1.0f, &f.pose) == lb_errorInvalidArgument);
	ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, 5.0f, &f.pose) == lb_errorInvalidArgument);
	ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, NAN, &f.pose) == lb_errorInvalidArgument);
	lbMotionDef q = p;
	q.speed = INFINITY;
	ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &q, 0.01f, &f.pose) == lb_errorNonFinite);
	q = p;
	q.turnRate = NAN;
	ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &q, 0.01f, &f.pose) == lb_errorNonFinite);
	q = p;
	q.internalValue = 0;
	ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &q, 0.01f, &f.pose) == lb_errorDefNotInitialized);
	q = p;
	q.motion = lb_motionClip;
	ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &q, 0.01f, &f.pose) == lb_errorNullPointer);
	q.motion = (lbBaseMotion)42;
	ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &q, 0.01f, &f.pose) == lb_errorInvalidArgument);
	ENSURE(lbMotion_Sample(NULL, f.skel, &f.hum, &p, 0.01f, &f.pose) == lb_errorNullPointer);
	lbPose small = f.pose;
	small.boneCount = 3;
	ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, 0.01f, &small) == lb_errorSkeletonMismatch);
	ENSURE(memcmp(&saved, &st, sizeof st) == 0);
	ENSURE_VEC3_NEAR(savedPelvis.p, f.pose.model[f.hum.pelvis].p, 0.0f);
	// Huge speeds and turn rates are clamped, never produce NaN.
	q = p;
	q.speed = 1.0e6f;
	q.turnRate = -1.0e6f;
	for (int i = 0; i < 100; ++i)
		ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &q, 0.01f, &f.pose) == lb_ok);
	ENSURE(lbPose_IsFinite(&f.pose));
	ENSURE(cap.count >= 12);
	lbSetLogFcn(NULL, NULL);
	lbFreeFixture(&f);
}

static void TestBlendPoses(void)
{
	lbRigFixture f;
	ENSURE(lbMakeFixture(lb_rigMannequin, &f));
	lbPose walk = lbCreatePose(f.skel), prone = lbCreatePose(f.skel);
	lbMotionState st;
	lbMotionState_Init(&st, f.skel, &f.hum, lbTransform_identity);
	lbMotionDef p = lbDefaultMotionDef(lb_motionWalk);
	for (int i = 0; i < 40; ++i)
		lbMotion_Sample(&st, f.skel, &f.hum, &p, 1.0f / 60.0f, &walk);
	p = lbDefaultMotionDef(lb_motionProne);
	lbMotion_Sample(&st, f.skel, &f.hum, &p, 1.0f / 60.0f, &prone);
	ENSURE(lbBlendPoses(&walk, &prone, 0.0f, f.skel, &f.pose) == lb_ok);
	for (int b = 0; b < f.skel->boneCount; ++b)
		ENSURE_VEC3_NEAR(f.pose.model[b].p, walk.model[b].p, 1.0e-5f);
	ENSURE(lbBlendPoses(&walk, &prone, 1.0f, f.skel, &f.pose) == lb_ok);
	for (int b = 0; b < f.skel->boneCount; ++b)
		ENSURE_VEC3_NEAR(f.pose.model[b].p, prone.model[b].p, 1.0e-5f);
	// Halfway: every local rotation is the slerp midpoint; bone lengths kept.
	ENSURE(lbBlendPoses(&walk, &prone, 0.5f, f.skel, &f.pose) == lb_ok);
	for (int b = 0; b < f.skel->boneCount; ++b)
		ENSURE_QUAT_SAME_ROT(f.pose.local[b].q, lbQuatSlerp(walk.local[b].q, prone.local[b].q, 0.5f), 1.0e-4f);
	ENSURE(lbMaxBoneLengthError(&f.pose, f.skel, f.hum.pelvis) < 1.0e-4f);
	// Aliasing the output with an input works.
	ENSURE(lbBlendPoses(&walk, &prone, 1.0f, f.skel, &walk) == lb_ok);
	ENSURE_VEC3_NEAR(walk.model[f.hum.head].p, prone.model[f.hum.head].p, 1.0e-5f);
	lbSetLogFcn(NULL, NULL);
	ENSURE(lbBlendPoses(&walk, &prone, NAN, f.skel, &f.pose) == lb_errorNonFinite);
	ENSURE(lbBlendPoses(NULL, &prone, 0.5f, f.skel, &f.pose) == lb_errorNullPointer);
	lbPose small = prone;
	small.boneCount = 2;
	ENSURE(lbBlendPoses(&walk, &small, 0.5f, f.skel, &f.pose) == lb_errorSkeletonMismatch);
	lbDestroyPose(&walk);
	lbDestroyPose(&prone);
	lbFreeFixture(&f);
}

static void TestMotionNames(void)
{
	for (int m = 0; m < lb_motionCount; ++m)
		ENSURE(lbFindBaseMotion(lbBaseMotionName((lbBaseMotion)m)) == (lbBaseMotion)m);
	ENSURE(lbFindBaseMotion("moonwalk") == lb_motionCount);
	ENSURE(lbFindBaseMotion(NULL) == lb_motionCount);
	ENSURE(lbBaseMotionName(lb_motionCount) == NULL);
	// Switching motions keeps a finite pose on every transition.
	lbRigFixture f;
	ENSURE(lbMakeFixture(lb_rigMixamo, &f));
	lbMotionState st;
	ENSURE(lbMotionState_Init(&st, f.skel, &f.hum, lbTransform_identity) == lb_ok);
	for (int m = 0; m < lb_motionClip; ++m)
	{
		lbMotionDef p = lbDefaultMotionDef((lbBaseMotion)m);
		for (int i = 0; i < 30; ++i)
			ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, 1.0f / 30.0f, &f.pose) == lb_ok);
		ENSURE(lbPose_IsFinite(&f.pose));
		ENSURE(st.motion == (lbBaseMotion)m);
	}
	lbFreeFixture(&f);
}

// The walk's velocity comes out of the state: after the speed has settled it is the walking
// speed along the character's facing, level with the ground.
static void TestWalkVelocity(void)
{
	for (int r = 0; r < lb_rigCount; ++r)
	{
		lbRigFixture f;
		ENSURE(lbMakeFixture((lbReferenceRig)r, &f));
		lbMotionState st;
		lbVec3 headingWs = lbMakeVec3(0.6f, 0.8f, 0.0f);
		lbTransform start = lbCharacterTransform(&f.hum, lbMakeVec3(1.0f, 2.0f, 0.0f), headingWs, lbVec3_axisZ);
		ENSURE(lbMotionState_Init(&st, f.skel, &f.hum, start) == lb_ok);
		ENSURE(lbLengthSquared(st.velocityWs) == 0.0f);
		lbMotionDef p = lbDefaultMotionDef(lb_motionWalk);
		for (int i = 0; i < 300; ++i)
			ENSURE(lbMotion_Sample(&st, f.skel, &f.hum, &p, 1.0f / 60.0f, &f.pose) == lb_ok);
		ENSURE_NEAR(lbLength(st.velocityWs), p.speed, 0.05);
		ENSURE_NEAR(lbDot(lbNormalize(st.velocityWs), headingWs), 1.0, 1e-3);
		ENSURE_NEAR(st.velocityWs.z, 0.0, 1e-4);
		lbFreeFixture(&f);
	}
}

// A rig whose up is not the world's: the helper turns its up onto the world's and its forward
// onto the heading, for both reference rigs (Z-up) into a Y-up world and back.
static void TestCharacterTransformAcrossUpAxes(void)
{
	for (int r = 0; r < lb_rigCount; ++r)
	{
		lbRigFixture f;
		ENSURE(lbMakeFixture((lbReferenceRig)r, &f));
		lbVec3 ups[2] = { lbVec3_axisY, lbVec3_axisZ };
		lbVec3 headings[2] = { lbMakeVec3(0.0f, 0.3f, -1.0f), lbMakeVec3(1.0f, 1.0f, 0.2f) };
		for (int k = 0; k < 2; ++k)
		{
			lbVec3 pos = lbMakeVec3(3.0f, -1.0f, 2.0f);
			lbTransform t = lbCharacterTransform(&f.hum, pos, headings[k], ups[k]);
			ENSURE_VEC3_NEAR(t.p, pos, 1e-6);
			ENSURE_VEC3_NEAR(lbQuatRotate(t.q, f.hum.upMs), ups[k], 1e-5);
			lbVec3 flat = lbNormalize(lbProjectOnPlane(headings[k], ups[k]));
			ENSURE_VEC3_NEAR(lbQuatRotate(t.q, f.hum.forwardMs), flat, 1e-4);
		}
		// Degenerate input: identity rotation, never NaN.
		lbTransform bad = lbCharacterTransform(&f.hum, lbVec3_zero, lbVec3_axisX, lbVec3_zero);
		ENSURE(lbIsValidTransform(bad));
		lbTransform straightUp = lbCharacterTransform(&f.hum, lbVec3_zero, lbVec3_axisZ, lbVec3_axisZ);
		ENSURE(lbIsValidTransform(straightUp));
		lbFreeFixture(&f);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(TestClipSampleKeyed);
	RUN_TEST(TestClipSampleFrames);
	RUN_TEST(TestClipBadInput);
	RUN_TEST(TestRootMotion);
	RUN_TEST(TestStrideFromLegLength);
	RUN_TEST(TestSpeedForStride);
	RUN_TEST(TestWalkAndRun);
	RUN_TEST(TestWalkStop);
	RUN_TEST(TestClimbingCharacter);
	RUN_TEST(TestIdle);
	RUN_TEST(TestProneAndCrawl);
	RUN_TEST(TestMotionBadInput);
	RUN_TEST(TestBlendPoses);
	RUN_TEST(TestMotionNames);
	RUN_TEST(TestWalkVelocity);
	RUN_TEST(TestCharacterTransformAcrossUpAxes);
	TEST_MAIN_END();
}
