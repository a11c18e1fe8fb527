// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Topping out on a ledge, on both reference rigs (different world up axes): a character standing
// at a ledge gets on it (lbClimbTransition_SeedClimb), climbs with the hold planner until its
// hands are below the lip, tops out (lbClimbTopOut_*: hands onto the top, body up, feet onto the
// top, standing up), hands back to the foot system on the top and walks on. The metrics
// accumulator watches every frame with the climbing system's contacts: no held contact drifts,
// no pop added to the base motion above 15 degrees, no limb through the ledge, no NaN.
#include "limber/climb_plan.h"
#include "limber/climb_transition.h"
#include "limber/metrics.h"
#include "limber/motion.h"
#include "limber/query.h"
#include "limber/rigs.h"
#include "limber/scenes.h"
#include "rig_cases.h"
#include "test_macros.h"


// The climbing system's held limbs as metric contacts (as the scenario runner reports them).
static int climbContacts(const lbClimbTargets* ct, const lbClimbDef* cd, const lbHumanoid* h, lbContact* out)
{
	int n = 0;
	for (int i = 0; i < 4; ++i)
	{
		const lbClimbLimbTarget* t = &ct->limbs[i];
		if (!t->hasSurface || !t->locked)
			continue;
		lbContact* c = &out[n++];
		memset(c, 0, sizeof *c);
		c->normalWs = t->normalWs;
		c->locked = t->mode == lb_climbLocked;
		if (i < 2)
		{
			c->kind = lb_contactHand;
			c->bone = h->arm[i].hand;
			c->offsetLocal = lbMulSV(cd->lockOffset[0], h->armAxes[i].palm);
			c->targetWs = t->surfaceWs;
			c->touching = true;
		}
		else
		{
			const int s = i - 2;
			c->kind = lb_contactFoot;
			c->bone = h->leg[s].ball >= 0 ? h->leg[s].ball : h->leg[s].foot;
			if (h->leg[s].ball >= 0)
				c->offsetLocal = h->legAxes[s].toeTipBall;
			else
			{
				lbSole sole = lbHumanoid_GetSole(h, s);
				c->offsetLocal = lbMulAdd(sole.under, sole.along[lb_soleToeTip], sole.toeFlat);
			}
			c->targetWs = t->targetWs;
		}
	}
	return n;
}

static void test_topout(void)
{
	for (size_t r = 0; r < sizeof kRigs / sizeof kRigs[0]; ++r)
	{
		const RigCase* rc = &kRigs[r];
		lbSkeleton* sk = lbCreateReferenceRig(rc->rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(sk, NULL, &h) == lb_ok);
		lbPose base = lbCreatePose(sk), pose = lbCreatePose(sk), last = lbCreatePose(sk), lastBase = lbCreatePose(sk);
		lbTransform lastCw = lbTransform_identity;
		lbWorldDef wd = lbDefaultWorldDef();
		wd.up = rc->up;
		lbWorld* world = lbCreateWorld(&wd);
		lbSceneDef sp = lbDefaultSceneDef(lb_sceneLedgeTop);
		sp.up = rc->up;
		sp.forward = rc->fwd;
		sp.distance = 0.4f;
		sp.height = 2.0f;
		sp.depth = 3.0f;
		ENSURE(lbBuildScene(world, &sp) == lb_ok);
		const float topH = 2.0f;
		lbSceneQuery query = lbWorld_GetQuery(world);
		lbMetricsDef md = lbDefaultMetricsDef();
		md.skeleton = sk;
		md.humanoid = &h;
		md.upWs = rc->up;
		md.query = query;
		lbMetrics* metrics = lbCreateMetrics(&md);
		ENSURE(metrics != NULL);

		lbMotionState ms;
		ENSURE(lbMotionState_Init(&ms, sk, &h, lbCharacterTransform(&h, lbVec3_zero, rc->fwd, rc->up)) == lb_ok);
		lbMotionDef walk = lbDefaultMotionDef(lb_motionWalk), idle = lbDefaultMotionDef(lb_motionIdle);
		lbFootDef fd = lbDefaultFootDef();
		fd.up = rc->up;
		lbFootState fs;
		lbFootState_Reset(&fs);
		lbFootTargets ft;
		lbClimbDef cd = lbDefaultClimbDef();
		cd.up = rc->up;
		lbClimbState cs;
		lbClimbState_Reset(&cs);
		lbClimbPoseCache cache;
		lbClimbPoseCache_Reset(&cache);
		lbClimbTargets ct;
		memset(&ct, 0, sizeof ct);
		size_t wsSize = lbGetClimbWorkspaceSize(sk);
		void* ws = malloc(wsSize);
		lbClimbHold* holds = (lbClimbHold*)malloc(sizeof(lbClimbHold) * 2048);
		lbClimbPlanMove moves[128];
		lbClimbPlanResult plan;
		memset(&plan, 0, sizeof plan);
		lbClimbDriver driver;
		lbClimbDriver_Reset(&driver);
		lbClimbDriverDef dd = lbDefaultClimbDriverDef();
		lbClimbTopOutDef td = lbDefaultClimbTopOutDef();
		td.up = rc->up;
		lbClimbTopOut top;
		memset(&top, 0, sizeof top);
		int holdCount = 0;

		// 0 standing at the ledge, 1 climbing, 2 topping out, 3 walking on, 4 done.
		int phase = 0, phaseFrames = 0, topPhase = -1;
		lbTransform characterWs = ms.characterWs;
		float phasePop[5] = { 0 }, phaseDrift[5] = { 0 }, phasePen[5] = { 0 };
		float topOutPop[lb_topOutFailed + 1] = { 0 }, topOutDrift[lb_topOutFailed + 1] = { 0 },
			  topOutPen[lb_topOutFailed + 1] = { 0 };
		int topOutLimits[lb_topOutFailed + 1] = { 0 };
		int phaseLimits[5] = { 0 };
		lbVec3 walkFrom = lbVec3_zero;
		bool onTop[4] = { false, false, false, false };
		for (int frame = 0; frame < 60 * 90 && phase < 4; ++frame, ++phaseFrames)
		{
			ENSURE(lbMotion_Sample(&ms, sk, &h, phase == 3 ? &walk : &idle, DT, &base) == lb_ok);
			if (phase == 0 || phase == 3)
				characterWs = ms.characterWs;
			lbPose_Copy(&pose, &base);
			lbContact contacts[4];
			int contactCount = 0;
			if (phase == 0 || phase == 3)
			{
				lbFootSenseInput in = lbDefaultFootSenseInput();
				in.query = &query;
				in.characterWs = characterWs;
				in.animPose = &base;
				in.velocityWs = phase == 3 ? ms.velocityWs : lbVec3_zero;
				in.dt = DT;
				ENSURE(lbFootSense(&fs, &fd, sk, &h, &in, &ft) == lb_ok);
				ENSURE(lbFootApplyPose(&ft, &fd, sk, &h, lb_footSolverTwoBone, &pose, NULL, 0) == lb_ok);
				if (phase == 0 && phaseFrames > 30)
				{
					lbClimbWallAhead ahead;
					ENSURE(lbClimbTransition_FindWall(&query, LB_CHANNEL_CLIMBABLE, LB_NO_OWNER, &h, characterWs, rc->up, 1.2f,
													  3.0f, 0.45f, &ahead) == lb_ok);
					ENSURE(ahead.ready);
					ENSURE(lbClimbTransition_SeedClimb(&cs, characterWs, ahead.normalWs) == lb_ok);
					// Holds on the face, up to a hand's width below the lip.
					holdCount = lbClimbSampleHolds(&query, LB_CHANNEL_CLIMBABLE, LB_NO_OWNER, ahead.pointWs, ahead.normalWs,
												   rc->up, 1.0f, -1.1f, topH - 0.08f - 1.2f, 0.6f, 0.05f, 0.15f, holds, 2048);
					ENSURE(holdCount > 20 && holdCount <= 2048);
					lbClimbPlanBody body;
					ENSURE(lbClimbPlanBodyFromRig(sk, &h, &cd, &body) == lb_ok);
					lbClimbPlanDef pd = lbDefaultClimbPlanDef();
					pd.up = rc->up;
					pd.goalRadius = 0.1f;
					lbClimbPlanInput pin;
					memset(&pin, 0, sizeof pin);
					pin.holds = holds;
					pin.holdCount = holdCount;
					pin.pelvisWs = lbTransformPoint(characterWs, base.model[h.pelvis].p);
					pin.wallNormalWs = ahead.normalWs;
					pin.goalWs = lbAdd(ahead.pointWs, lbMulSV(topH - 0.12f - lbDot(ahead.pointWs, rc->up), rc->up));
					size_t size = lbGetClimbPlanWorkspaceSize(&pd, holdCount);
					void* pws = malloc(size);
					ENSURE(lbPlanClimb(&pd, &body, &pin, pws, size, moves, 128, &plan) == lb_ok);
					free(pws);
					ENSURE(plan.status == lb_climbPlanReached);
					phase = 1;
					phaseFrames = 0;
				}
			}
			if (phase == 1 || phase == 2)
			{
				if (phase == 1 && !lbClimbDrive(&driver, &dd, &cs, &cd, holds, holdCount, moves, plan.moveCount, DT) &&
					phaseFrames > 30)
				{
					ENSURE(!driver.stuck);
					ENSURE(lbClimbTopOut_Begin(&top, &td, &cs, &query) == lb_ok);
					ENSURE(fabsf(lbDot(top.lipWs, rc->up) - topH) < 0.01f);
					phase = 2;
					phaseFrames = 0;
				}
				if (phase == 2)
				{
					topPhase = lbClimbTopOut_Step(&top, &td, &cs, &cd, DT);
					ENSURE(topPhase != lb_topOutFailed);
				}
				lbClimbSenseInput in = lbDefaultClimbSenseInput();
				in.query = &query;
				in.characterWs = characterWs;
				in.animPose = &base;
				in.lastPose = &last;
				in.dt = DT;
				// Topping out, the frame's def: the feet step up at the top-out's speed.
				lbClimbDef frameDef = cd;
				if (phase == 2)
					ENSURE(lbClimbTopOut_FrameDef(&top, &td, &cd, &frameDef) == lb_ok);
				ENSURE(frameDef.moveSpeed[1] == (phase == 2 && (top.phase == lb_topOutFeet || top.phase == lb_topOutSecondFoot || top.phase == lb_topOutFirstFootUp) ? td.feetMoveSpeed : cd.moveSpeed[1]));
				ENSURE(frameDef.moveSpeed[0] == cd.moveSpeed[0]);
				ENSURE(lbClimbSense(&cs, &frameDef, sk, &h, &in, &ct) == lb_ok);
				if (phase == 2)
					ENSURE(lbClimbTopOut_Carry(&top, &td, &h, &base, DT, &cs, &ct) == lb_ok);
				characterWs = ct.characterWs;
				if (phase == 2)
					ENSURE(lbClimbTopOut_HangLegs(&top, &cs, sk, &h, &pose) == lb_ok);
				ENSURE(lbClimbApplyPose(&ct, &cd, sk, &h, &cache, &pose, ws, wsSize, NULL) == lb_ok);
				contactCount = climbContacts(&ct, &cd, &h, contacts);
				for (int i = 0; i < 4 && phase == 2; ++i)
					if (cs.limbs[i].mode == lb_climbLocked && lbDot(cs.limbs[i].normalWs, rc->up) > 0.9f &&
						lbDot(lbSub(cs.limbs[i].surfaceWs, top.lipWs), top.wallNormalWs) < -0.05f)
						onTop[i] = true;
				if (phase == 2 && topPhase == lb_topOutDone && lbClimbTransition_PoseDistance(&pose, &base) < 1.0f * LB_DEG2RAD)
				{
					lbTransform standing;
					ENSURE(lbClimbTransition_StandingTransform(&cs, &h, &query, LB_CHANNEL_GROUND, rc->up, 0.5f, 1.0f, &standing) ==
						   lb_ok);
					ENSURE(lbClimbTransition_SeedFoot(&fs, standing) == lb_ok);
					characterWs = standing;
					ms.characterWs = standing;
					walkFrom = standing.p;
					phase = 3;
					phaseFrames = 0;
				}
			}
			if (phase == 3 && phaseFrames > 120)
				phase = 4;
			lbMetricsFrame mf;
			memset(&mf, 0, sizeof mf);
			mf.pose = &pose;
			mf.characterWs = characterWs;
			mf.basePose = &base;
			mf.contacts = contacts;
			mf.contactCount = contactCount;
			mf.dt = DT;
			mf.grounded = phase == 0 || phase >= 3;
			lbFrameMetrics fm;
			ENSURE(lbMetrics_AddFrame(metrics, &mf, &fm) == lb_ok);
			const int p = phase < 4 ? phase : 3;
			phasePop[p] = lbMaxF(phasePop[p], fm.addedPopDeg);
			phaseDrift[p] = lbMaxF(phaseDrift[p], fm.contactDrift);
			phasePen[p] = lbMaxF(phasePen[p], fm.limbPenetration);
			phaseLimits[p] += fm.limitViolations > 0;
			if (phase == 2 && topPhase >= 0 && topPhase < lb_topOutDone)
			{
				topOutPop[topPhase] = lbMaxF(topOutPop[topPhase], fm.addedPopDeg);
				topOutDrift[topPhase] = lbMaxF(topOutDrift[topPhase], fm.contactDrift);
				topOutPen[topPhase] = lbMaxF(topOutPen[topPhase], fm.limbPenetration);
				topOutLimits[topPhase] += fm.limitViolations > 0;
			}
			if (getenv("TOPOUT_DEBUG") && (fm.addedPopDeg > 15.0f || fm.contactDrift > 0.001f || fm.limbPenetration > 0.02f))
				printf("    t %.2f rel %d frame %d phase %d/%d (+%d) legs %d %.3f %d %.3f: pop %.1f drift %.4f pen %.3f\n", (double)top.timer, top.released, frame, phase, topPhase, phaseFrames, ct.limbs[2].mode, (double)ct.limbs[2].ikAlpha, ct.limbs[3].mode, (double)ct.limbs[3].ikAlpha,
					   (double)fm.addedPopDeg, (double)fm.contactDrift, (double)fm.limbPenetration);
			if (getenv("TOPOUT_DEBUG") && (fm.addedPopDeg > 15.0f || (getenv("TOPOUT_JITTER") && fm.limbPenetration > 0.02f)) && frame > 0)
			{
				// Which bones pop: world rotation change beyond the base motion's.
				for (int b = 0; b < sk->boneCount; ++b)
				{
					lbQuat now = lbQuatMul(characterWs.q, pose.model[b].q), was = lbQuatMul(lastCw.q, last.model[b].q);
					lbQuat bnow = lbQuatMul(characterWs.q, base.model[b].q), bwas = lbQuatMul(lastCw.q, lastBase.model[b].q);
					float d = lbQuatAngleBetween(now, was) * LB_RAD2DEG, bd = lbQuatAngleBetween(bnow, bwas) * LB_RAD2DEG;
					if (d - bd > (getenv("TOPOUT_JITTER") ? 2.0f : 10.0f))
						printf("      bone %d %s: %.1f (base %.1f)\n", b, sk->names ? sk->names[b] : "", (double)d, (double)bd);
				}
			}
			if (getenv("TOPOUT_FEET") && r == 0 && phase == 2 && (topPhase == lb_topOutFeet || topPhase == lb_topOutSecondFoot) && frame % 6 == 0)
				printf("    feet frame %d: move %d phase %d foot_l mode %d surf (%.3f %.3f %.3f) n (%.2f %.2f %.2f) guide (%.3f %.3f %.3f) foot_r mode %d surf (%.3f %.3f %.3f) n (%.2f %.2f %.2f)\n",
					   frame, top.driver.move, top.driver.phase, cs.limbs[2].mode, (double)cs.limbs[2].surfaceWs.x,
					   (double)cs.limbs[2].surfaceWs.y, (double)cs.limbs[2].surfaceWs.z, (double)cs.limbs[2].normalWs.x,
					   (double)cs.limbs[2].normalWs.y, (double)cs.limbs[2].normalWs.z, (double)cs.limbs[2].guideWs.x,
					   (double)cs.limbs[2].guideWs.y, (double)cs.limbs[2].guideWs.z, cs.limbs[3].mode,
					   (double)cs.limbs[3].surfaceWs.x, (double)cs.limbs[3].surfaceWs.y, (double)cs.limbs[3].surfaceWs.z,
					   (double)cs.limbs[3].normalWs.x, (double)cs.limbs[3].normalWs.y, (double)cs.limbs[3].normalWs.z);
			if (getenv("TOPOUT_RELEASE") && r == 0 && phase == 2 && topPhase >= lb_topOutRelease)
			{
				const lbVec3 ball = lbTransformPoint(characterWs, pose.model[h.leg[1].ball].p);
				const lbVec3 ankle = lbTransformPoint(characterWs, pose.model[h.leg[1].foot].p);
				const lbVec3 bball = lbTransformPoint(characterWs, base.model[h.leg[1].ball].p);
				printf("    rel frame %d: foot_r mode %d alpha %.3f target (%.3f %.3f %.3f) ankle (%.3f %.3f %.3f) ball (%.3f %.3f %.3f) base ball (%.3f %.3f %.3f) frame (%.3f %.3f %.3f) pen %.3f\n",
					   frame, ct.limbs[3].mode, (double)ct.limbs[3].ikAlpha, (double)ct.limbs[3].targetWs.x,
					   (double)ct.limbs[3].targetWs.y, (double)ct.limbs[3].targetWs.z, (double)ankle.x, (double)ankle.y,
					   (double)ankle.z, (double)ball.x, (double)ball.y, (double)ball.z, (double)bball.x, (double)bball.y,
					   (double)bball.z, (double)characterWs.p.x, (double)characterWs.p.y, (double)characterWs.p.z,
					   (double)fm.limbPenetration);
			}
			lastCw = characterWs;
			lbPose_Copy(&lastBase, &base);
			lbPose_Copy(&last, &pose);
		}
		lbMetricsSummary sum = lbMetrics_GetSummary(metrics);
		const float endHeight = lbDot(characterWs.p, rc->up);
		const float walked = lbLength(lbProjectOnPlane(lbSub(characterWs.p, walkFrom), rc->up));
		static const char* const phaseNames[] = { "hands",	  "feet off", "rise",  "press",	 "mantle",
													"high step", "step up",  "second foot", "first foot up", "stand", "release" };
		printf("  rig %d: %d moves, ended in phase %d (top-out %d) at height %.3f m, walked %.2f m on the top; "
			   "pop standing %.1f climbing %.1f topping out %.1f walking %.1f; drift %.4f m; limb penetration %.3f m "
			   "(topping out %.3f); joint-limit frames %d; nan %d\n",
			   (int)r, plan.moveCount, phase, topPhase, (double)endHeight, (double)walked, (double)phasePop[0],
			   (double)phasePop[1], (double)phasePop[2], (double)phasePop[3], (double)sum.contactDriftMax,
			   (double)sum.limbPenetrationMax, (double)phasePen[2], sum.limitViolations, sum.nanFrames);
		printf("    by top-out phase: pop (deg) / drift (m) / limb penetration (m) / joint-limit frames:");
		for (int k = lb_topOutHands; k <= lb_topOutRelease; ++k)
			printf(" %s %.1f/%.4f/%.3f/%d", phaseNames[k], (double)topOutPop[k], (double)topOutDrift[k], (double)topOutPen[k],
				   topOutLimits[k]);
		printf("\n");
		ENSURE(phase == 4);
		// The hands took the lip on the wall, then hands and feet went onto the top, in from the lip,
		// and each held there (the surface it locked on faces up).
		for (int i = 0; i < 2; ++i)
			ENSURE(fabsf(lbDot(lbSub(top.holds[i].pointWs, top.lipWs), rc->up) + td.gripBelow) < 0.01f);
		for (int i = 2; i < 6; ++i)
		{
			ENSURE(fabsf(lbDot(top.holds[i].pointWs, rc->up) - topH) < 0.01f);
			ENSURE(lbDot(lbSub(top.holds[i].pointWs, top.lipWs), top.wallNormalWs) < -0.05f);
		}
		for (int i = 0; i < 4; ++i)
			ENSURE(onTop[i]);
		// Standing and walking on the top.
		ENSURE(fabsf(endHeight - topH) < 0.05f);
		ENSURE(walked > 0.5f);
		ENSURE(sum.nanFrames == 0);
		// Within the limits: standing, climbing, every phase of the top-out, and walking on. The
		// mantle (hips over the lip before the feet come up) keeps the shins off the lip.
		ENSURE(phasePop[0] <= 15.0f && phasePop[1] <= 15.0f && phasePop[2] <= 15.0f && phasePop[3] <= 15.0f);
		// The first foot's high step on the wall under the lip keeps every joint within its range; stepped up on it, the body is high enough that
		// none leaves its range while the second foot comes up onto the top, the first follows and
		// the body stands (both rigs: 0 frames from the high step on; 26-27 with the first foot put
		// straight onto the top from the press-up, its thigh folded 150-180 degrees from rest).
		for (int k = lb_topOutFeet; k <= lb_topOutRelease; ++k)
			ENSURE(topOutLimits[k] == 0);
		// Standing and walking on keep every joint within its range. The climb to the lip does not
		// yet: on the mannequin the left upper arm turns past its range (150 degrees from rest) with
		// its elbow raised above the shoulder while that hand reaches for or holds a hold across in
		// front of the face; on both rigs the right thigh turns half a turn about itself (and its
		// foot after it) while that foot moves to a hold with its knee bent 105-113 degrees. Ceilings
		// at this code's counts (mannequin 159 and 4 while the hands take the lip, mixamo 47 and 0),
		// so that neither grows unseen. Mixamo's were 34 before the elbow's swivel kept the arm out
		// of the chest (lbClimbElbowInTorso): the elbow held out turns the upper arm past its range
		// in 13 more frames, where the forearm lay inside the torso.
		ENSURE(phaseLimits[0] == 0 && phaseLimits[3] == 0);
		ENSURE(phaseLimits[1] <= (rc->rig == lb_rigMannequin ? 159 : 47));
		ENSURE(topOutLimits[lb_topOutHands] <= (rc->rig == lb_rigMannequin ? 4 : 0));
		for (int k = lb_topOutFeetOff; k < lb_topOutFeet; ++k)
			ENSURE(topOutLimits[k] == 0);
		// The high step: on the wall, the def's distance under the lip.
		ENSURE(fabsf(lbDot(lbSub(top.holds[6].pointWs, top.lipWs), rc->up) + td.highStepBelow) < 0.01f);
		ENSURE(fabsf(lbDot(lbSub(top.holds[6].pointWs, top.lipWs), top.wallNormalWs)) < 0.05f);
		for (int k = lb_topOutHands; k <= lb_topOutRelease; ++k)
		{
			ENSURE(topOutPop[k] <= 15.0f);
			ENSURE(topOutDrift[k] <= 0.001f);
			ENSURE(topOutPen[k] <= 0.02f);
		}
		free(holds);
		free(ws);
		lbDestroyMetrics(metrics);
		lbDestroyWorld(world);
		lbDestroyPose(&base);
		lbDestroyPose(&pose);
		lbDestroyPose(&last);
		lbDestroyPose(&lastBase);
		lbDestroySkeleton(sk);
	}
}

static void test_topout_bad_input(void)
{
	lbSkeleton* sk = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid h;
	ENSURE(lbMapHumanoid(sk, NULL, &h) == lb_ok);
	lbPose base = lbCreatePose(sk);
	lbPose_SetRest(&base, sk);
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* world = lbCreateWorld(&wd);
	lbSceneDef sp = lbDefaultSceneDef(lb_sceneFlat);
	ENSURE(lbBuildScene(world, &sp) == lb_ok);
	lbSceneQuery query = lbWorld_GetQuery(world);
	lbClimbTopOutDef td = lbDefaultClimbTopOutDef();
	lbClimbState cs;
	lbClimbState_Reset(&cs);
	lbClimbTopOut t, before;
	memset(&t, 0x5a, sizeof t);
	before = t;
	// NULLs, an uninitialised def, a non-finite def, no hands held, no ledge: each a clear error
	// with nothing written.
	ENSURE(lbClimbTopOut_Begin(NULL, &td, &cs, &query) == lb_errorNullPointer);
	ENSURE(lbClimbTopOut_Begin(&t, NULL, &cs, &query) == lb_errorNullPointer);
	ENSURE(lbClimbTopOut_Begin(&t, &td, NULL, &query) == lb_errorNullPointer);
	ENSURE(lbClimbTopOut_Begin(&t, &td, &cs, NULL) == lb_errorNullPointer);
	lbClimbTopOutDef raw;
	memset(&raw, 0, sizeof raw);
	ENSURE(lbClimbTopOut_Begin(&t, &raw, &cs, &query) == lb_errorDefNotInitialized);
	// The feet's driver is checked like the hands' (a def copied over only in part).
	raw = td;
	memset(&raw.feetDriver, 0, sizeof raw.feetDriver);
	ENSURE(lbClimbTopOut_Begin(&t, &raw, &cs, &query) == lb_errorDefNotInitialized);
	lbClimbTopOutDef nan = td;
	nan.riseTime = NAN;
	ENSURE(lbClimbTopOut_Begin(&t, &nan, &cs, &query) == lb_errorNonFinite);
	// The press-up's options: a lean past 1.2 rad (the body face down), a negative or non-finite
	// time or height.
	lbClimbTopOutDef bad = td;
	bad.mantleLean = 1.5f;
	ENSURE(lbClimbTopOut_Begin(&t, &bad, &cs, &query) == lb_errorNonFinite);
	bad = td;
	bad.mantleLean = -0.1f;
	ENSURE(lbClimbTopOut_Begin(&t, &bad, &cs, &query) == lb_errorNonFinite);
	bad = td;
	bad.mantleTime = -1.0f;
	ENSURE(lbClimbTopOut_Begin(&t, &bad, &cs, &query) == lb_errorNonFinite);
	bad = td;
	bad.mantleAbove = INFINITY;
	ENSURE(lbClimbTopOut_Begin(&t, &bad, &cs, &query) == lb_errorNonFinite);
	// The step up's: a lean past the mantle's, a negative time, a non-finite height.
	bad = td;
	bad.stepUpLean = td.mantleLean + 0.1f;
	ENSURE(lbClimbTopOut_Begin(&t, &bad, &cs, &query) == lb_errorNonFinite);
	bad = td;
	bad.stepUpTime = -0.5f;
	ENSURE(lbClimbTopOut_Begin(&t, &bad, &cs, &query) == lb_errorNonFinite);
	bad = td;
	bad.stepUpAbove = NAN;
	ENSURE(lbClimbTopOut_Begin(&t, &bad, &cs, &query) == lb_errorNonFinite);
	// The high step: under the lip (above it or at it, no step), finite.
	bad = td;
	bad.highStepBelow = 0.0f;
	ENSURE(lbClimbTopOut_Begin(&t, &bad, &cs, &query) == lb_errorNonFinite);
	bad.highStepBelow = NAN;
	ENSURE(lbClimbTopOut_Begin(&t, &bad, &cs, &query) == lb_errorNonFinite);
	cs.wallNormalWs = lbMakeVec3(-1, 0, 0);
	ENSURE(lbClimbTopOut_Begin(&t, &td, &cs, &query) == lb_errorInvalidArgument);
	// Both hands held on a flat world: there is no ledge top above them.
	for (int i = 0; i < 2; ++i)
	{
		cs.limbs[i].mode = lb_climbLocked;
		cs.limbs[i].hasSurface = true;
		cs.limbs[i].surfaceWs = lbMakeVec3(0.5f, i ? -0.2f : 0.2f, 1.8f);
		cs.limbs[i].normalWs = lbMakeVec3(-1, 0, 0);
	}
	ENSURE(lbClimbTopOut_Begin(&t, &td, &cs, &query) == lb_errorUnsupported);
	ENSURE(memcmp(&t, &before, sizeof t) == 0);
	// Step and Carry: NULLs and non-finite input change nothing.
	lbClimbDef cd = lbDefaultClimbDef();
	lbClimbTargets ct;
	memset(&ct, 0, sizeof ct);
	memset(&t, 0, sizeof t);
	t.phase = lb_topOutRise;
	lbClimbState keep = cs;
	ENSURE(lbClimbTopOut_Step(&t, NULL, &cs, &cd, DT) == lb_topOutRise);
	ENSURE(lbClimbTopOut_Step(&t, &td, &cs, &cd, NAN) == lb_topOutRise && t.timer == 0.0f);
	ENSURE(lbClimbTopOut_Step(NULL, &td, &cs, &cd, DT) == lb_topOutFailed);
	// FrameDef: a copy of the climbing def but for the feet's speed while they step up; bad input
	// gives the copy unchanged.
	lbClimbDef fd;
	t.phase = lb_topOutFeet;
	ENSURE(lbClimbTopOut_FrameDef(&t, &td, &cd, &fd) == lb_ok && fd.moveSpeed[1] == td.feetMoveSpeed &&
		   fd.moveSpeed[0] == cd.moveSpeed[0] && fd.followSpeed == cd.followSpeed);
	t.phase = lb_topOutSecondFoot;
	ENSURE(lbClimbTopOut_FrameDef(&t, &td, &cd, &fd) == lb_ok && fd.moveSpeed[1] == td.feetMoveSpeed);
	t.phase = lb_topOutFirstFootUp;
	ENSURE(lbClimbTopOut_FrameDef(&t, &td, &cd, &fd) == lb_ok && fd.moveSpeed[1] == td.feetMoveSpeed);
	t.phase = lb_topOutStepUp;
	ENSURE(lbClimbTopOut_FrameDef(&t, &td, &cd, &fd) == lb_ok && memcmp(&fd, &cd, sizeof fd) == 0);
	t.phase = lb_topOutStand;
	ENSURE(lbClimbTopOut_FrameDef(&t, &td, &cd, &fd) == lb_ok && memcmp(&fd, &cd, sizeof fd) == 0);
	t.phase = lb_topOutFeet;
	bad = td;
	bad.feetMoveSpeed = NAN;
	ENSURE(lbClimbTopOut_FrameDef(&t, &bad, &cd, &fd) == lb_errorNonFinite && memcmp(&fd, &cd, sizeof fd) == 0);
	bad.feetMoveSpeed = 0.0f;
	ENSURE(lbClimbTopOut_FrameDef(&t, &bad, &cd, &fd) == lb_errorNonFinite && memcmp(&fd, &cd, sizeof fd) == 0);
	ENSURE(lbClimbTopOut_FrameDef(NULL, &td, &cd, &fd) == lb_errorNullPointer && memcmp(&fd, &cd, sizeof fd) == 0);
	ENSURE(lbClimbTopOut_FrameDef(&t, &td, &cd, NULL) == lb_errorNullPointer);
	ENSURE(lbClimbTopOut_Begin(&t, &bad, &cs, &query) == lb_errorNonFinite);
	memset(&t, 0, sizeof t);
	t.phase = lb_topOutRise;
	ENSURE(lbClimbTopOut_Carry(&t, &td, &h, NULL, DT, &cs, &ct) == lb_errorNullPointer);
	ENSURE(lbClimbTopOut_Carry(&t, &td, &h, &base, NAN, &cs, &ct) == lb_errorNonFinite);
	ENSURE(lbClimbTopOut_Carry(&t, &nan, &h, &base, DT, &cs, &ct) == lb_errorNonFinite);
	t.phase = lb_topOutMantle;
	ENSURE(lbClimbTopOut_Carry(&t, &bad, &h, &base, DT, &cs, &ct) == lb_errorNonFinite);
	t.phase = lb_topOutRise;
	ENSURE(memcmp(&cs, &keep, sizeof cs) == 0 && t.carrying == 0);
	lbDestroyWorld(world);
	lbDestroyPose(&base);
	lbDestroySkeleton(sk);
}

// HangLegs: with the climbing frame leaned against its upright rotation, each thigh's world rotation
// becomes what it was under the upright frame (both rigs, any lean), the rest of the body is left
// alone; before the first carry, upright, or with bad input, the pose does not change.
static void test_topout_hang_legs(void)
{
	for (size_t r = 0; r < sizeof kRigs / sizeof kRigs[0]; ++r)
	{
		const RigCase* rc = &kRigs[r];
		lbSkeleton* sk = lbCreateReferenceRig(rc->rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(sk, NULL, &h) == lb_ok);
		lbPose pose = lbCreatePose(sk), before = lbCreatePose(sk);
		lbPose_SetRest(&pose, sk);
		lbPose_Copy(&before, &pose);
		lbClimbTopOut t;
		memset(&t, 0, sizeof t);
		t.phase = lb_topOutFeet;
		lbClimbState cs;
		lbClimbState_Reset(&cs);
		const lbQuat upright = lbCharacterTransform(&h, lbVec3_zero, rc->fwd, rc->up).q;
		cs.frameWs = lbMakeTransform(lbMakeVec3(1, 2, 3), upright);
		// Before the first carry: nothing.
		ENSURE(lbClimbTopOut_HangLegs(&t, &cs, sk, &h, &pose) == lb_ok);
		ENSURE(memcmp(pose.model, before.model, sizeof(lbTransform) * (size_t)sk->boneCount) == 0);
		t.carryLegs = 1;
		t.uprightQ = upright;
		const lbVec3 left = lbNormalize(lbCross(rc->up, rc->fwd));
		for (int k = 1; k <= 4; ++k)
		{
			lbPose_Copy(&pose, &before);
			cs.frameWs.q = lbQuatNormalize(lbQuatMul(lbQuatFromAxisAngle(left, 0.25f * (float)k), upright));
			ENSURE(lbClimbTopOut_HangLegs(&t, &cs, sk, &h, &pose) == lb_ok);
			for (int s = 0; s < 2; ++s)
			{
				const int b = h.leg[s].thigh;
				const lbQuat want = lbQuatMul(upright, before.model[b].q), got = lbQuatMul(cs.frameWs.q, pose.model[b].q);
				ENSURE(lbQuatAngleBetween(want, got) < 1.0e-3f);
				// The hip stays where it is; the knee swings with the thigh.
				ENSURE(lbDistance(pose.model[b].p, before.model[b].p) < 1.0e-5f);
				ENSURE(lbDistance(pose.model[h.leg[s].calf].p, before.model[h.leg[s].calf].p) > 0.01f);
			}
			ENSURE(lbQuatAngleBetween(pose.model[h.pelvis].q, before.model[h.pelvis].q) < 1.0e-6f);
			ENSURE(lbQuatAngleBetween(pose.model[h.head].q, before.model[h.head].q) < 1.0e-6f);
		}
		// Bad input: a clear error, the pose unchanged.
		lbPose_Copy(&pose, &before);
		ENSURE(lbClimbTopOut_HangLegs(NULL, &cs, sk, &h, &pose) == lb_errorNullPointer);
		ENSURE(lbClimbTopOut_HangLegs(&t, NULL, sk, &h, &pose) == lb_errorNullPointer);
		ENSURE(lbClimbTopOut_HangLegs(&t, &cs, NULL, &h, &pose) == lb_errorNullPointer);
		ENSURE(lbClimbTopOut_HangLegs(&t, &cs, sk, NULL, &pose) == lb_errorNullPointer);
		ENSURE(lbClimbTopOut_HangLegs(&t, &cs, sk, &h, NULL) == lb_errorNullPointer);
		lbClimbState bad = cs;
		bad.frameWs.q.x = NAN;
		ENSURE(lbClimbTopOut_HangLegs(&t, &bad, sk, &h, &pose) == lb_errorNonFinite);
		lbClimbTopOut badTop = t;
		badTop.uprightQ = lbMakeQuat(0, 0, 0, 0);
		ENSURE(lbClimbTopOut_HangLegs(&badTop, &cs, sk, &h, &pose) == lb_errorNonFinite);
		ENSURE(memcmp(pose.model, before.model, sizeof(lbTransform) * (size_t)sk->boneCount) == 0);
		lbDestroyPose(&pose);
		lbDestroyPose(&before);
		lbDestroySkeleton(sk);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_topout);
	RUN_TEST(test_topout_bad_input);
	RUN_TEST(test_topout_hang_legs);
	TEST_MAIN_END();
}
