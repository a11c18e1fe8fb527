// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
/*******************************************************************************************
 *
 *   limber example - load a BVH clip, place its feet on stairs and bake the result to glTF
 *
 *   Uses the io layer (limber::io): lbImportRig loads a motion-capture take (default: CMU 01_01
 *   from Debian's assimp-testmodels; or the file given as argv[1]) in meters with +Z up, maps
 *   the skeleton as a humanoid and keeps its clip. The clip plays with its root motion over
 *   a few stairs built by a scene builder; the controller puts the character on the ground
 *   each frame, the foot system corrects the legs, and every corrected pose is baked into
 *   io_bvh_to_gltf.gltf (+ .bin), which any DCC tool or engine can load.
 *
 ********************************************************************************************/
#include <limber/import.h>
#include <limber/limber.h>

#include <stdio.h>
#include <stdlib.h>

#define MAX_FRAMES 600

static float GroundHeight(const lbWorld* world, lbVec3 p)
{
	lbQueryInput ray = lbDefaultQueryInput();
	ray.start = lbMakeVec3(p.x, p.y, p.z + 1.0f);
	ray.end = lbMakeVec3(p.x, p.y, p.z - 2.0f);
	lbHit hit = lbWorld_RayCast(world, &ray);
	return hit.hit ? hit.impactPoint.z : p.z;
}

int main(int argc, char** argv)
{
	// Initialization ---------------------------------------------------------------------------
	const char* path = argc > 1 ? argv[1] : "/usr/share/assimp/models/BVH/01_01.bvh";
	FILE* probe = fopen(path, "rb");
	if (!probe)
	{
		printf("skipped: %s not found (apt-get install assimp-testmodels, or give a BVH file)\n", path);
		return 0;
	}
	fclose(probe);
	lbImportDef importDef = lbDefaultImportDef(); // +Z up, meters, clips loaded
	importDef.loadMeshes = false;
	lbImportedRig* rig = NULL;
	if (lbImportRig(path, &importDef, &rig) != lb_ok || rig->clipCount == 0)
	{
		printf("%s: no rig with a clip (see the log line above)\n", path);
		lbDestroyImportedRig(rig);
		return 1;
	}
	const lbSkeleton* skeleton = rig->skeleton;
	const lbHumanoid* humanoid = &rig->humanoid;
	printf("%s: %d bones, clip %.1f s; %s\n", path, skeleton->boneCount, (double)rig->clips[0].duration, rig->report);

	lbWorldDef worldDef = lbDefaultWorldDef();
	lbWorld* world = lbCreateWorld(&worldDef);
	lbSceneDef stairs = lbDefaultSceneDef(lb_sceneStairs);
	if (!world || lbBuildScene(world, &stairs) != lb_ok)
		return 1;
	lbSceneQuery query = lbWorld_GetQuery(world);

	lbMotionState motion;
	lbMotionState_Init(&motion, skeleton, humanoid, lbCharacterTransform(humanoid, lbMakeVec3(-1.0f, 0.0f, 0.0f), lbVec3_axisX, lbVec3_axisZ));
	lbMotionDef play = lbDefaultMotionDef(lb_motionClip);
	play.clip = &rig->clips[0];
	play.loop = false;
	lbFootDef footDef = lbDefaultFootDef();
	lbFootState footState;
	lbFootState_Reset(&footState);
	const float fps = 30.0f, dt = 1.0f / fps;
	int frames = (int)(rig->clips[0].duration * fps);
	frames = frames < 1 ? 1 : frames > MAX_FRAMES ? MAX_FRAMES : frames;
	lbPose* baked = (lbPose*)calloc((size_t)frames, sizeof(lbPose));
	float lowest = 1e9f, highest = -1e9f;

	for (int f = 0; f < frames; ++f)
	{
		// Update ---------------------------------------------------------------------------------
		baked[f] = lbCreatePose(skeleton);
		lbMotion_Sample(&motion, skeleton, humanoid, &play, dt, &baked[f]);
		motion.characterWs.p.z = GroundHeight(world, motion.characterWs.p); // the controller's job
		lbFootSenseInput in = lbDefaultFootSenseInput();
		in.query = &query;
		in.characterWs = motion.characterWs;
		in.animPose = &baked[f];
		in.velocityWs = motion.velocityWs;
		in.dt = dt;
		lbFootTargets targets;
		lbPose animated = lbCreatePose(skeleton);
		lbPose_Copy(&animated, &baked[f]);
		in.animPose = &animated;
		if (lbFootSense(&footState, &footDef, skeleton, humanoid, &in, &targets) != lb_ok ||
			lbFootApplyPose(&targets, &footDef, skeleton, humanoid, lb_footSolverTwoBone, &baked[f], NULL, 0) != lb_ok)
			return 1;
		lbDestroyPose(&animated);
		// The baked clip is in world space: put the model frame's transform into the root bone.
		int root = 0;
		baked[f].local[root] = lbTransformMul(motion.characterWs, baked[f].local[root]);
		lbPose_LocalToModel(&baked[f], skeleton);
		lowest = lbMinF(lowest, motion.characterWs.p.z);
		highest = lbMaxF(highest, motion.characterWs.p.z);
	}

	// Draw (here: write the file) ----------------------------------------------------------------
	lbExportDef exportDef = lbDefaultExportDef(); // +Z up in, glTF's +Y up out
	lbResult written = lbExportPoses("io_bvh_to_gltf.gltf", lb_exportGltf, skeleton, baked, frames, fps, &exportDef);
	printf("%d frames over ground from %.2f to %.2f m baked to io_bvh_to_gltf.gltf: %s\n", frames, (double)lowest,
		   (double)highest, lbResultString(written));

	// De-Initialization ------------------------------------------------------------------------
	for (int f = 0; f < frames; ++f)
		lbDestroyPose(&baked[f]);
	free(baked);
	lbDestroyWorld(world);
	lbDestroyImportedRig(rig);
	return written == lb_ok ? 0 : 1;
}
