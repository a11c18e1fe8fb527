// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Baking pose sequences into clip files through assimp's exporter. The scene is built in plain C
// memory: a node per bone (rest pose), one animation with a key per frame for every bone, and an
// unanimated leaf node past each bone that has a marked end (lbSkeleton::ends), which importing
// the file again reads back as that bone's end.
#include "import_internal.h"

#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lbExportDef lbDefaultExportDef(void)
{
	lbExportDef d;
	memset(&d, 0, sizeof d);
	d.up = lbVec3_axisZ;
	d.clipName = "limber";
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

lbExportFormat lbExportFormatFromPath(const char* path)
{
	if (!path)
		return lb_exportFormatCount;
	char ext[16];
	lbPathExtension(path, ext, sizeof ext);
	if (strcmp(ext, "gltf") == 0)
		return lb_exportGltf;
	if (strcmp(ext, "glb") == 0)
		return lb_exportGlb;
	if (strcmp(ext, "dae") == 0)
		return lb_exportCollada;
	return lb_exportFormatCount;
}

static void lbSetAiString(struct aiString* s, const char* text)
{
	size_t n = strlen(text);
	if (n >= sizeof s->data)
		n = sizeof s->data - 1;
	memcpy(s->data, text, n);
	s->data[n] = 0;
	s->length = (ai_uint32)n;
}

static struct aiMatrix4x4 lbToAiMatrix(lbTransform t)
{
	lbVec3 x = lbMulSV(t.s.x, lbQuatAxisX(t.q)), y = lbMulSV(t.s.y, lbQuatAxisY(t.q)), z = lbMulSV(t.s.z, lbQuatAxisZ(t.q));
	struct aiMatrix4x4 m;
	m.a1 = x.x, m.a2 = y.x, m.a3 = z.x, m.a4 = t.p.x;
	m.b1 = x.y, m.b2 = y.y, m.b3 = z.y, m.b4 = t.p.y;
	m.c1 = x.z, m.c2 = y.z, m.c3 = z.z, m.c4 = t.p.z;
	m.d1 = 0.0f, m.d2 = 0.0f, m.d3 = 0.0f, m.d4 = 1.0f;
	return m;
}

// Everything the scene points to is allocated here and freed by lbFreeExportScene.
typedef struct lbExportScene
{
	struct aiScene scene;
	struct aiNode* nodes;       // [boneCount + 1 + ends]: 0 = scene root, then the bones, then the ends
	struct aiNode*** children;  // per node, its child pointer array
	struct aiMaterial material;
	struct aiMaterial* materialList[1];
	struct aiAnimation animation;
	struct aiAnimation* animationList[1];
	struct aiNodeAnim* channels;
	struct aiNodeAnim** channelList;
	struct aiVectorKey* positionKeys;
	struct aiQuatKey* rotationKeys;
	struct aiVectorKey* scaleKeys;
	int boneCount;
} lbExportScene;

static void lbFreeExportScene(lbExportScene* e)
{
	if (!e)
		return;
	if (e->children)
	{
		for (int k = 0; k <= e->boneCount; ++k)
			lbFree(e->children[k]);
	}
	lbFree(e->children);
	lbFree(e->nodes);
	lbFree(e->channels);
	lbFree(e->channelList);
	lbFree(e->positionKeys);
	lbFree(e->rotationKeys);
	lbFree(e->scaleKeys);
	lbFree(e);
}

lbResult lbExportClip(const char* path, lbExportFormat format, const lbSkeleton* skeleton, const lbTransform* frames,
					  int frameCount, float fps, const lbExportDef* def)
{
	if (!path || !skeleton || !frames)
		return lbReport(lb_errorNullPointer, "lbExportClip: path, skeleton and frames are required");
	lbExportDef defaults = lbDefaultExportDef();
	if (!def)
		def = &defaults;
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbExportClip: def not initialised with lbDefaultExportDef()");
	if (format < 0 || format >= lb_exportFormatCount)
		return lbReport(lb_errorInvalidArgument, "lbExportClip: unknown format %d (gltf, glb, dae)", (int)format);
	if (frameCount < 1 || !lbIsValidFloat(fps) || fps <= 0.0f || fps > 10000.0f)
		return lbReport(lb_errorInvalidArgument, "lbExportClip: need at least one frame and 0 < fps <= 10000 (got %d, %g)",
						frameCount, (double)fps);
	if (!lbIsValidVec3(def->up) || lbLength(def->up) < 1.0e-6f)
		return lbReport(lb_errorInvalidArgument, "lbExportClip: up must be a non-zero finite vector");
	const int n = skeleton->boneCount;
	const long total = (long)n * frameCount;
	for (long k = 0; k < total; ++k)
	{
		if (!lbIsValidTransform(frames[k]))
			return lbReport(lb_errorNonFinite, "lbExportClip: frame %ld bone %s is not a finite transform", k / n,
							skeleton->names[k % n]);
	}
	lbExportScene* e = (lbExportScene*)lbAllocZeroed(sizeof *e);
	if (!e)
		return lbReport(lb_errorOutOfMemory, "lbExportClip: out of memory");
	e->boneCount = n;
	int endCount = 0;
	for (int b = 0; b < n; ++b)
		endCount += lbSkeleton_GetBoneEnd(skeleton, b, NULL) ? 1 : 0;
	e->nodes = (struct aiNode*)lbAllocZeroed(((size_t)n + 1 + (size_t)endCount) * sizeof(struct aiNode));
	e->children = (struct aiNode***)lbAllocZeroed(((size_t)n + 1) * sizeof(struct aiNode**));
	e->channels = (struct aiNodeAnim*)lbAllocZeroed((size_t)n * sizeof(struct aiNodeAnim));
	e->channelList = (struct aiNodeAnim**)lbAllocZeroed((size_t)n * sizeof(struct aiNodeAnim*));
	e->positionKeys = (struct aiVectorKey*)lbAllocZeroed((size_t)total * sizeof(struct aiVectorKey));
	e->rotationKeys = (struct aiQuatKey*)lbAllocZeroed((size_t)total * sizeof(struct aiQuatKey));
	e->scaleKeys = (struct aiVectorKey*)lbAllocZeroed((size_t)total * sizeof(struct aiVectorKey));
	if (!e->nodes || !e->children || !e->channels || !e->channelList || !e->positionKeys || !e->rotationKeys || !e->scaleKeys)
	{
		lbFreeExportScene(e);
		return lbReport(lb_errorOutOfMemory, "lbExportClip: out of memory");
	}
	// Files are written +Y up; top-level bones carry the rotation from the model's up.
	const lbQuat toFile = lbQuatFromTo(lbNormalize(def->up), lbVec3_axisY);
	int* childCount = (int*)lbAllocZeroed(((size_t)n + 1) * sizeof(int));
	if (!childCount)
	{
		lbFreeExportScene(e);
		return lbReport(lb_errorOutOfMemory, "lbExportClip: out of memory");
	}
	for (int b = 0; b < n; ++b)
	{
		childCount[skeleton->parents[b] + 1]++;
		childCount[b + 1] += lbSkeleton_GetBoneEnd(skeleton, b, NULL) ? 1 : 0;
	}
	bool oom = false;
	for (int k = 0; k <= n; ++k)
	{
		e->children[k] = (struct aiNode**)lbAllocZeroed(((size_t)childCount[k] + 1) * sizeof(struct aiNode*));
		oom = oom || !e->children[k];
		childCount[k] = 0;
	}
	if (oom)
	{
		lbFree(childCount);
		lbFreeExportScene(e);
		return lbReport(lb_errorOutOfMemory, "lbExportClip: out of memory");
	}
	struct aiNode* root = &e->nodes[0];
	lbSetAiString(&root->mName, "limber_scene");
	aiIdentityMatrix4(&root->mTransformation);
	root->mChildren = e->children[0];
	for (int b = 0; b < n; ++b)
	{
		struct aiNode* node = &e->nodes[b + 1];
		int p = skeleton->parents[b];
		lbSetAiString(&node->mName, skeleton->names[b]);
		lbTransform rest = skeleton->restLocal[b];
		if (p < 0)
		{
			rest.p = lbQuatRotate(toFile, rest.p);
			rest.q = lbQuatMul(toFile, rest.q);
		}
		node->mTransformation = lbToAiMatrix(rest);
		node->mParent = &e->nodes[p + 1];
		node->mChildren = e->children[b + 1];
		struct aiNode* parent = &e->nodes[p + 1];
		parent->mChildren[childCount[p + 1]++] = node;
		parent->mNumChildren = (unsigned)childCount[p + 1];

		struct aiNodeAnim* ch = &e->channels[b];
		lbSetAiString(&ch->mNodeName, skeleton->names[b]);
		ch->mNumPositionKeys = ch->mNumRotationKeys = ch->mNumScalingKeys = (unsigned)frameCount;
		ch->mPositionKeys = e->positionKeys + (long)b * frameCount;
		ch->mRotationKeys = e->rotationKeys + (long)b * frameCount;
		ch->mScalingKeys = e->scaleKeys + (long)b * frameCount;
		lbQuat prev = lbQuat_identity;
		for (int f = 0; f < frameCount; ++f)
		{
			lbTransform x = frames[(long)f * n + b];
			if (p < 0)
			{
				x.p = lbQuatRotate(toFile, x.p);
				x.q = lbQuatMul(toFile, x.q);
			}
			x.q = lbQuatNormalize(x.q);
			// Keep consecutive keys on the same hemisphere so linear blending in tools is sane.
			if (f > 0 && lbQuatDot(prev, x.q) < 0.0f)
				x.q = lbQuatNeg(x.q);
			prev = x.q;
			// Times in seconds with one tick per second: the Collada exporter ignores mTicksPerSecond.
			const double time = (double)f / (double)fps;
			ch->mPositionKeys[f].mTime = time;
			ch->mPositionKeys[f].mValue.x = x.p.x, ch->mPositionKeys[f].mValue.y = x.p.y, ch->mPositionKeys[f].mValue.z = x.p.z;
			ch->mRotationKeys[f].mTime = time;
			ch->mRotationKeys[f].mValue.w = x.q.w, ch->mRotationKeys[f].mValue.x = x.q.x;
			ch->mRotationKeys[f].mValue.y = x.q.y, ch->mRotationKeys[f].mValue.z = x.q.z;
			ch->mScalingKeys[f].mTime = time;
			ch->mScalingKeys[f].mValue.x = x.s.x, ch->mScalingKeys[f].mValue.y = x.s.y, ch->mScalingKeys[f].mValue.z = x.s.z;
		}
		e->channelList[b] = ch;
	}
	// Bone ends: a leaf node named after the bone ("_end", numbered past any bone of that name),
	// at the end's rest offset, after the bone's own children.
	for (int b = 0, j = 0; b < n; ++b)
	{
		if (!lbSkeleton_GetBoneEnd(skeleton, b, NULL))
			continue;
		struct aiNode* node = &e->nodes[n + 1 + j++];
		char name[LB_MAX_NAME + 16];
		snprintf(name, sizeof name, "%s_end", skeleton->names[b]);
		for (int k = 2; lbSkeleton_FindBone(skeleton, name) != LB_NULL_INDEX; ++k)
			snprintf(name, sizeof name, "%s_end%d", skeleton->names[b], k);
		lbSetAiString(&node->mName, name);
		lbTransform offset = lbTransform_identity;
		offset.p = skeleton->ends[b];
		node->mTransformation = lbToAiMatrix(offset);
		struct aiNode* parent = &e->nodes[b + 1];
		node->mParent = parent;
		parent->mChildren[childCount[b + 1]++] = node;
		parent->mNumChildren = (unsigned)childCount[b + 1];
	}
	lbFree(childCount);
	lbSetAiString(&e->animation.mName, def->clipName ? def->clipName : "limber");
	e->animation.mTicksPerSecond = 1.0;
	e->animation.mDuration = (double)(frameCount - 1) / (double)fps;
	e->animation.mNumChannels = (unsigned)n;
	e->animation.mChannels = e->channelList;
	e->animationList[0] = &e->animation;
	e->materialList[0] = &e->material;
	// A single-rooted skeleton is the scene itself, so no extra node shows up as a bone on import.
	int roots = 0;
	for (int b = 0; b < n; ++b)
		roots += skeleton->parents[b] < 0 ? 1 : 0;
	if (roots == 1 && root->mNumChildren == 1)
	{
		root = root->mChildren[0];
		root->mParent = NULL;
	}
	e->scene.mRootNode = root;
	e->scene.mNumAnimations = 1;
	e->scene.mAnimations = e->animationList;
	e->scene.mNumMaterials = 1;
	e->scene.mMaterials = e->materialList;
	static const char* const ids[lb_exportFormatCount] = { "gltf2", "glb2", "collada" };
	enum aiReturn r = aiExportScene(&e->scene, ids[format], path, 0);
	lbFreeExportScene(e);
	if (r != aiReturn_SUCCESS)
	{
		const char* why = aiGetErrorString();
		return lbReport(lb_errorIo, "lbExportClip: assimp could not write '%s': %s", path, why && why[0] ? why : "unknown reason");
	}
	return lb_ok;
}

lbResult lbExportPoses(const char* path, lbExportFormat format, const lbSkeleton* skeleton, const lbPose* poses, int frameCount,
					   float fps, const lbExportDef* def)
{
	if (!skeleton || !poses)
		return lbReport(lb_errorNullPointer, "lbExportPoses: skeleton and poses are required");
	if (frameCount < 1)
		return lbReport(lb_errorInvalidArgument, "lbExportPoses: need at least one frame");
	const int n = skeleton->boneCount;
	lbTransform* frames = (lbTransform*)lbAlloc(sizeof(lbTransform) * (size_t)n * (size_t)frameCount);
	if (!frames)
		return lbReport(lb_errorOutOfMemory, "lbExportPoses: out of memory");
	for (int f = 0; f < frameCount; ++f)
	{
		if (poses[f].boneCount != n || !poses[f].local)
		{
			lbFree(frames);
			return lbReport(lb_errorSkeletonMismatch, "lbExportPoses: pose %d does not match the skeleton", f);
		}
		memcpy(frames + (long)f * n, poses[f].local, sizeof(lbTransform) * (size_t)n);
	}
	lbResult r = lbExportClip(path, format, skeleton, frames, frameCount, fps, def);
	lbFree(frames);
	return r;
}
