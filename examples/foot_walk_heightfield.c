// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
/*******************************************************************************************
 *
 *   limber example - a character walking over a heightfield with its feet placed
 *
 *   The frame of a game that embeds limber: the game owns the world (here limber's own lbWorld
 *   with a rolling heightfield), the character's controller and every piece of memory; each frame
 *   it moves the character (here limber's procedural walk), puts it on the ground (a ray down under
 *   the character: the controller's job, not limber's), then runs the foot system's two stages:
 *   sense (world casts, state) and pose (two-bone IK on the legs). It prints how high each foot's
 *   sole is above the ground under it, before and after the correction.
 *
 ********************************************************************************************/
#include <limber/limber.h>

#include <math.h>
#include <stdio.h>

#define GRID 64

// Ground height under a point: what a game's character controller keeps its capsule on.
static float GroundHeight(const lbWorld* world, float x, float y, bool* found)
{
	lbQueryInput ray = lbDefaultQueryInput();
	ray.start = lbMakeVec3(x, y, 50.0f);
	ray.end = lbMakeVec3(x, y, -50.0f);
	lbHit hit = lbWorld_RayCast(world, &ray);
	*found = hit.hit;
	return hit.hit ? hit.impactPoint.z : 0.0f;
}

int main(void)
{
	// Initialization ---------------------------------------------------------------------------
	// The world: a 32 m heightfield of gentle hills (+Z up, the default).
	static float heights[GRID * GRID];
	for (int j = 0; j < GRID; ++j)
		for (int i = 0; i < GRID; ++i)
			heights[j * GRID + i] = 0.25f * sinf(0.45f * (float)i) + 0.15f * cosf(0.6f * (float)j + 0.3f * (float)i);
	lbWorldDef worldDef = lbDefaultWorldDef();
	lbWorld* world = lbCreateWorld(&worldDef);
	lbHeightfieldDef field = lbDefaultHeightfieldDef();
	field.heights = heights; // copied
	field.countX = field.countY = GRID;
	field.cellSize = 0.5f;
	field.transform.p = lbMakeVec3(-16.0f, -16.0f, 0.0f);
	if (!world || lbWorld_AddHeightfield(world, &field) < 0)
		return 1;
	lbSceneQuery query = lbWorld_GetQuery(world); // a game routes this to its own physics instead

	// The character: a built-in rig, its humanoid map, a pose buffer, the walk and the foot state.
	lbSkeleton* rig = lbCreateReferenceRig(lb_rigMannequin);
	lbHumanoid humanoid;
	if (!rig || lbMapHumanoid(rig, NULL, &humanoid) != lb_ok)
		return 1;
	lbPose pose = lbCreatePose(rig);
	lbMotionState walk;
	bool found;
	lbTransform start = lbCharacterTransform(&humanoid, lbMakeVec3(-6.0f, 0.3f, GroundHeight(world, -6.0f, 0.3f, &found)),
											 lbVec3_axisX, lbVec3_axisZ);
	lbMotionState_Init(&walk, rig, &humanoid, start);
	lbMotionDef walkParams = lbDefaultMotionDef(lb_motionWalk); // 1.4 m/s
	lbFootDef footDef = lbDefaultFootDef();
	lbFootState footState;
	lbFootState_Reset(&footState);

	const float dt = 1.0f / 60.0f;
	float worstBefore = 0.0f, worstAfter = 0.0f;
	printf("frame   x (m)   left sole above ground: animated -> placed   right: animated -> placed (m)\n");
	for (int frame = 0; frame < 480; ++frame)
	{
		// Update ---------------------------------------------------------------------------------
		// 1. The base motion moves the character and writes the animated pose (model space).
		lbMotion_Sample(&walk, rig, &humanoid, &walkParams, dt, &pose);
		// 2. The controller puts the character on the ground: limber places feet relative to the
		//    character, so the character itself must stand on the ground every frame.
		lbTransform characterWs = walk.characterWs;
		characterWs.p.z = GroundHeight(world, characterWs.p.x, characterWs.p.y, &found);
		walk.characterWs = characterWs;
		// Animated sole heights, for the printout.
		float before[2], after[2];
		for (int side = 0; side < 2; ++side)
		{
			lbVec3 sole = lbTransformPoint(characterWs, lbTransformPoint(pose.model[humanoid.leg[side].foot], lbFootSoleLocal(&humanoid, side)));
			before[side] = sole.z - GroundHeight(world, sole.x, sole.y, &found);
		}
		// 3. Sense: casts under the feet, smoothing, locking (world space; owns footState).
		lbFootSenseInput in = lbDefaultFootSenseInput();
		in.query = &query;
		in.characterWs = characterWs;
		in.animPose = &pose;
		in.velocityWs = walk.velocityWs;
		in.dt = dt;
		lbFootTargets targets;
		if (lbFootSense(&footState, &footDef, rig, &humanoid, &in, &targets) != lb_ok)
			return 1;
		// 4. Pose: pelvis offset and two-bone IK per leg (model space; could run on another thread).
		if (lbFootApplyPose(&targets, &footDef, rig, &humanoid, lb_footSolverTwoBone, &pose, NULL, 0) != lb_ok)
			return 1;

		// Draw (here: print) ---------------------------------------------------------------------
		for (int side = 0; side < 2; ++side)
		{
			lbVec3 sole = lbTransformPoint(characterWs, lbTransformPoint(pose.model[humanoid.leg[side].foot], lbFootSoleLocal(&humanoid, side)));
			after[side] = sole.z - GroundHeight(world, sole.x, sole.y, &found);
			if (targets.feet[side].planted && frame >= 60)
			{
				worstBefore = fmaxf(worstBefore, fabsf(before[side]));
				worstAfter = fmaxf(worstAfter, fabsf(after[side]));
			}
		}
		if (frame % 40 == 0)
			printf("%5d  %6.2f   %+.3f -> %+.3f %s   %+.3f -> %+.3f %s\n", frame, (double)characterWs.p.x, (double)before[0],
				   (double)after[0], targets.feet[0].planted ? "planted" : "swing  ", (double)before[1], (double)after[1],
				   targets.feet[1].planted ? "planted" : "swing  ");
	}
	printf("planted feet, largest distance from the ground: animated %.3f m, placed %.3f m\n", (double)worstBefore,
		   (double)worstAfter);

	// De-Initialization ------------------------------------------------------------------------
	lbDestroyPose(&pose);
	lbDestroySkeleton(rig);
	lbDestroyWorld(world);
	return worstAfter < worstBefore && worstAfter < 0.05f ? 0 : 1;
}
