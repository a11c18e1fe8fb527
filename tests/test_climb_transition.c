// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The hand-over between foot placement and climbing, the whole way round on both reference rigs
// (different world up axes): a character walks (procedural walk, foot system) toward a wall until
// lbClimbTransition_FindWall says it is close enough, stops, hands over to the climbing system
// (lbClimbTransition_SeedClimb), gets on and climbs with the hold planner, lets go limb by limb,
// and drops to the ground below (StandingTransform, lbClimbDrop_*: a fall under gravity) where the
// foot system takes over (SeedFoot).
// The metrics accumulator watches every frame: no pop added to the base motion above 15 degrees,
// no NaN; the climb held four limbs at once, and the character ends standing on the ground.
#include "limber/climb_plan.h"
#include "limber/climb_transition.h"
#include "limber/metrics.h"
#include "limber/motion.h"
#include "limber/query.h"
#include "limber/rigs.h"
#include "limber/scenes.h"
#include "rig_cases.h"
#include "test_macros.h"


static void test_walk_climb_drop(void)
{
	for (size_t r = 0; r < sizeof kRigs / sizeof kRigs[0]; ++r)
	{
		const RigCase* rc = &kRigs[r];
		lbSkeleton* sk = lbCreateReferenceRig(rc->rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(sk, NULL, &h) == lb_ok);
		lbPose base = lbCreatePose(sk), pose = lbCreatePose(sk), last = lbCreatePose(sk);
		lbWorldDef wd = lbDefaultWorldDef();
		wd.up = rc->up;
		lbWorld* world = lbCreateWorld(&wd);
		lbSceneParams sp = lbDefaultSceneParams(lb_sceneWall);
		sp.up = rc->up;
		sp.forward = rc->fwd;
		sp.distance = 2.0f;
		ENSURE(lbBuildScene(world, &sp) == lb_ok);
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
		size_t wsSize = lbGetClimbWorkspaceSize(sk);
		void* ws = malloc(wsSize);
		lbClimbHold* holds = (lbClimbHold*)malloc(sizeof(lbClimbHold) * 2048);
		lbClimbPlanMove moves[128];
		lbClimbPlanResult plan;
		memset(&plan, 0, sizeof plan);
		lbClimbDriver driver;
		lbClimbDriver_Reset(&driver);
		lbClimbDriverDef dd = lbDefaultClimbDriverDef();
		int holdCount = 0;

		// 0 walking, 1 stopping, 2 climbing, 3 letting go, 4 standing again.
		int phase = 0, phaseFrames = 0, heldMax = 0, released = 0;
		lbTransform characterWs = ms.characterWs;
		float wallDistance = 0.0f;
		float phasePop[6] = { 0, 0, 0, 0, 0, 0 };
		// The most an elbow folds (deg, the metrics' hinge angle) while climbing and letting go.
		float elbowMax = 0.0f;
		int lastReleased = 0, dropFrames = 0;
		lbClimbDrop drop;
		memset(&drop, 0, sizeof drop);
		float dropHeight = -1.0f;
		for (int frame = 0; frame < 60 * 60 && phase < 5; ++frame, ++phaseFrames)
		{
			const lbMotionDef* md2 = phase == 0 ? &walk : &idle;
			ENSURE(lbMotion_Sample(&ms, sk, &h, md2, DT, &base) == lb_ok);
			if (phase <= 1)
				characterWs = ms.characterWs;
			lbPose_Copy(&pose, &base);
			bool landedNow = false;
			if (phase == 4 && !drop.landed)
			{
				// Falling from where the climb let go to the ground below.
				landedNow = lbClimbDrop_Step(&drop, 9.81f, DT);
				characterWs = drop.characterWs;
				dropFrames++;
			}
			if (phase <= 1 || phase == 4)
			{
				lbFootSenseInput in = lbDefaultFootSenseInput();
				in.moveState = phase == 4 && !drop.landed ? lb_footFalling : lb_footGrounded;
				// The touchdown: the foot system's landing (in.landed on that frame), its dip building
				// up and relaxing, while the feet's IK blends back in from the fall.
				in.landed = landedNow;
				in.query = &query;
				in.characterWs = characterWs;
				in.animPose = &base;
				in.velocityWs = phase == 0 ? ms.velocityWs : lbVec3_zero;
				in.dt = DT;
				ENSURE(lbFootSense(&fs, &fd, sk, &h, &in, &ft) == lb_ok);
				ENSURE(lbFootApplyPose(&ft, &fd, sk, &h, lb_footSolverTwoBone, &pose, NULL, 0) == lb_ok);
				lbClimbWallAhead ahead;
				ENSURE(lbClimbTransition_FindWall(&query, LB_CHANNEL_CLIMBABLE, LB_NO_OWNER, &h, characterWs, rc->up, 1.2f, 3.0f,
												  0.45f, &ahead) == lb_ok);
				if (phase == 0 && ahead.ready)
				{
					// Close enough: stop walking.
					phase = 1;
					phaseFrames = 0;
					wallDistance = ahead.distance;
				}
				else if (phase == 1 && phaseFrames > 40)
				{
					// Standing still at the wall: hand over to the climbing system.
					ENSURE(ahead.found);
					ENSURE(lbClimbTransition_SeedClimb(&cs, characterWs, ahead.normalWs) == lb_ok);
					holdCount = lbClimbSampleHolds(&query, LB_CHANNEL_CLIMBABLE, LB_NO_OWNER, ahead.pointWs, ahead.normalWs,
												   rc->up, 1.2f, -1.1f, 1.6f, 0.6f, 0.05f, 0.15f, holds, 2048);
					ENSURE(holdCount > 20 && holdCount <= 2048);
					lbClimbPlanBody body;
					ENSURE(lbClimbPlanBodyFromRig(sk, &h, &cd, &body) == lb_ok);
					lbClimbPlanDef pd = lbDefaultClimbPlanDef();
					pd.up = rc->up;
					lbClimbPlanInput pin;
					memset(&pin, 0, sizeof pin);
					pin.holds = holds;
					pin.holdCount = holdCount;
					pin.pelvisWs = lbTransformPoint(characterWs, base.model[h.pelvis].p);
					pin.wallNormalWs = ahead.normalWs;
					pin.goalWs = lbAdd(ahead.pointWs, lbMulSV(2.2f - lbDot(ahead.pointWs, rc->up), rc->up));
					size_t size = lbGetClimbPlanWorkspaceSize(&pd, holdCount);
					void* pws = malloc(size);
					ENSURE(lbPlanClimb(&pd, &body, &pin, pws, size, moves, 128, &plan) == lb_ok);
					free(pws);
					ENSURE(plan.status == lb_climbPlanReached);
					phase = 2;
					phaseFrames = 0;
				}
			}
			if (phase == 2 || phase == 3)
			{
				if (phase == 2 && !lbClimbDrive(&driver, &dd, &cs, &cd, holds, holdCount, moves, plan.moveCount, DT) &&
					phaseFrames > 30)
				{
					ENSURE(!driver.stuck);
					phase = 3;
					phaseFrames = 0;
				}
				if (phase == 3 && released < 4 && (released == 0 || ct.limbs[lastReleased].ikAlpha <= 0.0f))
				{
					// Let go one limb at a time, each once the last is back in the animation: the feet
					// first, then the hands.
					const int order[4] = { lb_limbLegL, lb_limbLegR, lb_limbArmL, lb_limbArmR };
					lastReleased = order[released];
					ENSURE(lbClimb_Release(&cs, order[released++]) == lb_ok);
				}
				lbClimbSenseInput in = lbDefaultClimbSenseInput();
				in.query = &query;
				in.characterWs = characterWs;
				in.animPose = &base;
				in.lastPose = phaseFrames > 0 || phase == 3 ? &last : NULL;
				in.dt = DT;
				ENSURE(lbClimbSense(&cs, &cd, sk, &h, &in, &ct) == lb_ok);
				characterWs = ct.characterWs;
				ENSURE(lbClimbApplyPose(&ct, &cd, sk, &h, &cache, &pose, ws, wsSize, NULL) == lb_ok);
				int held = 0;
				float alpha = 0.0f;
				for (int i = 0; i < 4; ++i)
				{
					held += ct.limbs[i].locked;
					alpha = lbMaxF(alpha, ct.limbs[i].ikAlpha);
				}
				heldMax = held > heldMax ? held : heldMax;
				if (phase == 3 && released == 4 && alpha <= 0.0f && lbClimbTransition_PoseDistance(&pose, &base) < 1.0f * LB_DEG2RAD)
				{
					// Every limb is back in the animation: hand back to the foot system, standing
					// on the ground below.
					lbTransform standing;
					ENSURE(lbClimbTransition_StandingTransform(&cs, &h, &query, LB_CHANNEL_GROUND, rc->up, 1.0f, 3.0f, &standing) ==
						   lb_ok);
					ENSURE(lbClimbDrop_Begin(&drop, &cs, standing, rc->up) == lb_ok);
					dropHeight = drop.height;
					ENSURE(lbClimbTransition_SeedFoot(&fs, drop.characterWs) == lb_ok);
					if (getenv("TRANSITION_DEBUG"))
						printf("    hand back: frame turns %.1f deg, moves %.3f m; frame p (%.2f %.2f %.2f) standing (%.2f %.2f %.2f)\n",
							   (double)(lbQuatAngleBetween(characterWs.q, standing.q) * LB_RAD2DEG),
							   (double)lbDistance(characterWs.p, standing.p), (double)characterWs.p.x, (double)characterWs.p.y,
							   (double)characterWs.p.z, (double)standing.p.x, (double)standing.p.y, (double)standing.p.z);
					characterWs = drop.characterWs;
					phase = 4;
					phaseFrames = 0;
				}
			}
			if (phase == 4 && drop.landed && phaseFrames > dropFrames + 60)
				phase = 5;
			lbMetricsFrame mf;
			memset(&mf, 0, sizeof mf);
			mf.pose = &pose;
			mf.characterWs = characterWs;
			mf.basePose = &base;
			mf.dt = DT;
			mf.grounded = phase != 2 && phase != 3 && (phase != 4 || drop.landed);
			lbFrameMetrics fm;
			ENSURE(lbMetrics_AddFrame(metrics, &mf, &fm) == lb_ok);
			phasePop[phase] = lbMaxF(phasePop[phase], fm.addedPopDeg);
			if (phase == 2 || phase == 3)
				elbowMax = lbMaxF(elbowMax, lbMaxF(fm.elbowAngle[0], fm.elbowAngle[1]));
			if (fm.addedPopDeg > 15.0f && getenv("TRANSITION_DEBUG"))
				printf("    frame %d phase %d (+%d): added pop %.1f deg\n", frame, phase, phaseFrames, (double)fm.addedPopDeg);
			lbPose_Copy(&last, &pose);
		}
		lbMetricsSummary sum = lbMetrics_GetSummary(metrics);
		float standHeight = lbDot(characterWs.p, rc->up);
		printf("  rig %d: stopped %.2f m from the wall, %d moves, held %d at once, ended in phase %d at height %.3f m; "
			   "added pop %.1f deg (base %.1f): walking %.1f, stopping %.1f, getting on and climbing %.1f, letting go %.1f, "
			   "dropping %.2f m and standing again %.1f (%d frames falling); nan %d\n",
			   (int)r, (double)wallDistance, plan.moveCount, heldMax, phase, (double)standHeight, (double)sum.addedPopMax,
			   (double)sum.sourcePopMax, (double)phasePop[0], (double)phasePop[1], (double)phasePop[2], (double)phasePop[3],
			   (double)dropHeight, (double)phasePop[4], dropFrames, sum.nanFrames);
		printf("  rig %d: elbows folded up to %.1f degrees climbing and letting go\n", (int)r, (double)elbowMax);
		ENSURE(phase == 5);
		ENSURE(heldMax == 4);
		// No elbow past its range (docs/metrics.md: 165 degrees), a hand let go overhead included.
		ENSURE(elbowMax <= 165.0f);
		// A fall, not a teleport: from the height the climb let go at, frames in the air, a landing.
		ENSURE(dropHeight > 0.2f && drop.landed);
		ENSURE(dropFrames >= (int)(0.8f * sqrtf(2.0f * dropHeight / 9.81f) / DT));
		ENSURE(fabsf(standHeight) < 0.01f);
		ENSURE(sum.nanFrames == 0);
		// Both hand-overs add no pop: walking up to the wall, getting on and climbing, and standing
		// again on the ground; nor does letting go of every limb, one after another, until none
		// holds (each foot turns back to the animation within the turn limit).
		ENSURE(phasePop[0] <= 15.0f && phasePop[1] <= 15.0f && phasePop[2] <= 15.0f && phasePop[3] <= 15.0f &&
			   phasePop[4] <= 15.0f);
		free(holds);
		free(ws);
		lbDestroyMetrics(metrics);
		lbDestroyWorld(world);
		lbDestroyPose(&base);
		lbDestroyPose(&pose);
		lbDestroyPose(&last);
		lbDestroySkeleton(sk);
	}
}

static void test_transition_bad_input(void)
{
	lbClimbWallAhead w;
	memset(&w, 0x5a, sizeof w);
	lbClimbWallAhead before = w;
	ENSURE(lbClimbTransition_FindWall(NULL, 0, 0, NULL, lbTransform_identity, lbVec3_axisZ, 1, 1, 1, &w) == lb_errorNullPointer);
	ENSURE(memcmp(&w, &before, sizeof w) == 0);
	lbClimbState cs;
	lbClimbState_Reset(&cs);
	lbTransform bad = lbTransform_identity;
	bad.p.x = NAN;
	ENSURE(lbClimbTransition_SeedClimb(&cs, bad, lbVec3_axisX) == lb_errorNonFinite);
	ENSURE(cs.initialized == 0);
	lbFootState fs;
	ENSURE(lbClimbTransition_SeedFoot(&fs, bad) == lb_errorNonFinite);
	ENSURE(lbClimbTransition_SeedFoot(NULL, lbTransform_identity) == lb_errorNullPointer);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_walk_climb_drop);
	RUN_TEST(test_transition_bad_input);
	TEST_MAIN_END();
}
