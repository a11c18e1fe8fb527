// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Rig and clip import through assimp's C API. The skeleton is the set of nodes that meshes bind
// to or clips animate, plus their ancestors below the scene root; a leaf node that is a bone's
// only child and no bone itself (a BVH End Site, a 3ds Max Nub) is kept as that bone's end
// (lbSkeleton::ends). Units and up axis are converted by one similarity transform:
// model = unitScale * R(sourceUp -> up) * file world.
#define _POSIX_C_SOURCE 200809L
#include "import_internal.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define LB_IMPORT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LB_IMPORT_ASAN 1
#endif
#endif
#ifndef LB_IMPORT_ASAN
#define LB_IMPORT_ASAN 0
#endif

// Owner of everything an imported rig points to.
typedef struct lbRigStore
{
	lbImportedRig rig;
	void** blocks;
	int blockCount, blockCapacity;
} lbRigStore;

// assimp log lines end with a newline; the hook gets them without.
static void lbImporterLog(const char* message, char* user)
{
	(void)user;
	size_t n = message ? strlen(message) : 0;
	while (n > 0 && (message[n - 1] == '\n' || message[n - 1] == '\r'))
		--n;
	lbWarn(lb_ok, "assimp: %.*s", (int)n, message ? message : "");
}

static void* lbStoreAlloc(lbRigStore* st, size_t bytes)
{
	if (st->blockCount == st->blockCapacity)
	{
		int cap = st->blockCapacity ? st->blockCapacity * 2 : 64;
		void** grown = (void**)lbRealloc(st->blocks, sizeof(void*) * (size_t)cap);
		if (!grown)
			return NULL;
		st->blocks = grown;
		st->blockCapacity = cap;
	}
	void* p = lbAllocZeroed(bytes ? bytes : 1);
	if (p)
		st->blocks[st->blockCount++] = p;
	return p;
}

void lbDestroyImportedRig(lbImportedRig* rig)
{
	if (!rig)
		return;
	lbRigStore* st = (lbRigStore*)rig;
	lbDestroySkeleton(st->rig.skeleton);
	for (int k = 0; k < st->blockCount; ++k)
		lbFree(st->blocks[k]);
	lbFree(st->blocks);
	lbFree(st);
}

// Motion-capture takes often open with one calibration pose that the take leaves in a single
// step (CMU's BVH files start with a T-pose frame). The test is made per bone, on the big arm and
// leg bones only (`big`): a first rotation step of more than 30 degrees on one of them that is over
// four times that bone's own largest step later in the clip is such a lead-in. A finger or a toe
// that flips somewhere in the take (common in motion capture) no longer hides it, as it did when
// the first step was compared with every track's later steps. The first key of every track goes
// and the later keys move back by one key interval, so the clip starts with the take. Only for
// clips whose animated tracks share their first two key times (uniformly sampled takes); anything
// else is left as it is. Returns true when a key was dropped.
static void lbShiftKeyTimes(float* times, int count, float shift)
{
	for (int k = 0; k < count; ++k)
		times[k] -= shift;
}

static bool lbDropLeadInPose(lbClipTrack* tracks, int trackCount, const bool* big, float* ioDuration)
{
	float t0 = 1.0e30f, t1 = 1.0e30f;
	for (int i = 0; i < trackCount; ++i)
	{
		const lbClipTrack* tr = &tracks[i];
		const int counts[3] = { tr->positionCount, tr->rotationCount, tr->scaleCount };
		const float* times[3] = { tr->positionTimes, tr->rotationTimes, tr->scaleTimes };
		for (int c = 0; c < 3; ++c)
		{
			if (counts[c] >= 2)
			{
				t0 = lbMinF(t0, times[c][0]);
				t1 = lbMinF(t1, times[c][1]);
			}
		}
	}
	if (!(t1 > t0) || t1 >= 1.0e30f)
		return false;
	bool leadIn = false;
	for (int i = 0; i < trackCount; ++i)
	{
		const lbClipTrack* tr = &tracks[i];
		const int counts[3] = { tr->positionCount, tr->rotationCount, tr->scaleCount };
		const float* times[3] = { tr->positionTimes, tr->rotationTimes, tr->scaleTimes };
		for (int c = 0; c < 3; ++c)
		{
			// Every animated component starts at t0 with its second key at t1; constants may start anywhere.
			if (counts[c] >= 2 && (times[c][0] != t0 || times[c][1] != t1))
				return false;
		}
		if (tr->rotationCount < 3 || !big[tr->bone])
			continue;
		const float jump = lbQuatAngleBetween(tr->rotations[0], tr->rotations[1]);
		float later = 0.0f;
		for (int k = 1; k + 1 < tr->rotationCount; ++k)
			later = lbMaxF(later, lbQuatAngleBetween(tr->rotations[k], tr->rotations[k + 1]));
		leadIn = leadIn || (jump > 30.0f * LB_DEG2RAD && jump > 4.0f * later);
	}
	if (!leadIn)
		return false;
	const float shift = t1 - t0;
	for (int i = 0; i < trackCount; ++i)
	{
		// The key arrays are this importer's own (writable) memory.
		lbClipTrack* tr = &tracks[i];
		if (tr->positionCount >= 2)
		{
			lbShiftKeyTimes((float*)tr->positionTimes + 1, tr->positionCount - 1, shift);
			tr->positionTimes++, tr->positions++, tr->positionCount--;
		}
		if (tr->rotationCount >= 2)
		{
			lbShiftKeyTimes((float*)tr->rotationTimes + 1, tr->rotationCount - 1, shift);
			tr->rotationTimes++, tr->rotations++, tr->rotationCount--;
		}
		if (tr->scaleCount >= 2)
		{
			lbShiftKeyTimes((float*)tr->scaleTimes + 1, tr->scaleCount - 1, shift);
			tr->scaleTimes++, tr->scales++, tr->scaleCount--;
		}
	}
	*ioDuration = lbMaxF(*ioDuration - shift, 0.0f);
	return true;
}

// Every assimp format that carries a skeleton (bones or a node hierarchy with skinning or
// skeletal animation), by extension; the name is the rig's `format`.
static const char* const lbImportFormats[][2] = {
	{ "fbx", "fbx" },       { "gltf", "gltf" }, { "glb", "glb" }, { "bvh", "bvh" },   { "dae", "collada" },
	{ "x", "x" },           { "ase", "ase" },   { "ask", "ase" }, { "md5mesh", "md5" }, { "iqm", "iqm" },
	{ "smd", "smd" },       { "vta", "smd" },   { "ms3d", "ms3d" }, { "b3d", "b3d" }, { "ogex", "ogex" },
	{ "mdl", "mdl" },
};
#define LB_IMPORT_EXTENSIONS                                                                                 \
	".fbx, .gltf, .glb, .bvh, .dae, .x, .ase, .ask, .md5mesh, .iqm, .smd, .vta, .ms3d, .b3d, .ogex, .mdl"

static const char* lbImportFormatOf(const char* ext)
{
	for (size_t k = 0; k < sizeof lbImportFormats / sizeof lbImportFormats[0]; ++k)
		if (strcmp(ext, lbImportFormats[k][0]) == 0)
			return lbImportFormats[k][1];
	return NULL;
}

lbImportDef lbDefaultImportDef(void)
{
	lbImportDef d;
	memset(&d, 0, sizeof d);
	d.up = lbVec3_axisZ;
	d.sourceUp = lbVec3_zero;
	d.unitScale = 0.0f;
	d.loadMeshes = true;
	d.loadClips = true;
	d.dropLeadInPose = true;
	d.requireHumanoid = true;
	d.routeImporterLog = false;
	d.isolate = false;
	d.isolateMemory = (size_t)2 << 30;
	d.isolateSeconds = 60.0f;
	d.isolateStack = (size_t)64 << 20;
	d.humanoid = lbDefaultHumanoidDef();
	d.internalValue = LB_SECRET_COOKIE;
	return d;
}

static void lbAppendReport(lbImportedRig* rig, const char* format, const char* text)
{
	size_t used = strlen(rig->report);
	if (used + 1 < sizeof rig->report)
		snprintf(rig->report + used, sizeof rig->report - used, format, text);
}

static lbTransform lbFromAiMatrix(const struct aiMatrix4x4* m)
{
	struct aiVector3D s, p;
	struct aiQuaternion q;
	aiDecomposeMatrix(m, &s, &q, &p);
	lbTransform t;
	t.p = lbMakeVec3(p.x, p.y, p.z);
	t.q = lbQuatNormalize(lbMakeQuat(q.x, q.y, q.z, q.w));
	t.s = lbMakeVec3(s.x, s.y, s.z);
	if (!lbIsValidTransform(t))
		t = lbTransform_identity;
	return t;
}

// Global (file world) transform of a node: product from the scene root down, root included.
static struct aiMatrix4x4 lbNodeGlobal(const struct aiNode* node)
{
	struct aiMatrix4x4 m;
	aiIdentityMatrix4(&m);
	for (const struct aiNode* n = node; n; n = n->mParent)
	{
		struct aiMatrix4x4 t = n->mTransformation;
		aiMultiplyMatrix4(&t, &m); // t = t * m
		m = t;
	}
	return m;
}

// Every node of the scene in depth-first order, with each node's parent as an index and a
// name table sorted for binary search: matching bones and channels to nodes costs O(log n) each,
// so a file with tens of thousands of nodes is counted and refused in O(n log n), not O(n^2).
typedef struct lbNamedNode
{
	const char* name;
	int index;
} lbNamedNode;

typedef struct lbNodeList
{
	const struct aiNode** nodes;
	int* parent;         // index of each node's parent in the list; -1 for the root
	lbNamedNode* byName; // sorted by name, then index
	int count, capacity;
	bool tooDeep;        // a subtree lies deeper than LB_IMPORT_MAX_DEPTH (not collected)
	bool noMemory;
} lbNodeList;

static void lbNodeListFree(lbNodeList* l)
{
	lbFree((void*)l->nodes);
	lbFree(l->parent);
	lbFree(l->byName);
	memset(l, 0, sizeof *l);
}

static bool lbListPush(lbNodeList* l, const struct aiNode* n, int parent)
{
	if (l->count == l->capacity)
	{
		int cap = l->capacity ? l->capacity * 2 : 64;
		const struct aiNode** grown = (const struct aiNode**)lbRealloc((void*)l->nodes, sizeof(*grown) * (size_t)cap);
		if (grown)
			l->nodes = grown;
		int* grownParent = (int*)lbRealloc(l->parent, sizeof(int) * (size_t)cap);
		if (grownParent)
			l->parent = grownParent;
		if (!grown || !grownParent)
			return false;
		l->capacity = cap;
	}
	l->nodes[l->count] = n;
	l->parent[l->count] = parent;
	l->count++;
	return true;
}

static int lbCompareNamedNode(const void* a, const void* b)
{
	const lbNamedNode* x = (const lbNamedNode*)a;
	const lbNamedNode* y = (const lbNamedNode*)b;
	int c = strcmp(x->name, y->name);
	return c != 0 ? c : (x->index > y->index) - (x->index < y->index);
}

// Depth-first, children in order (the order bones get), with an explicit stack: a file's depth
// must not become this process's recursion depth.
static void lbCollectNodes(const struct aiNode* root, lbNodeList* all)
{
	typedef struct
	{
		const struct aiNode* node;
		int parent, depth;
	} lbPending;
	int stackCap = 256, top = 0;
	lbPending* stack = (lbPending*)lbAlloc(sizeof(lbPending) * (size_t)stackCap);
	if (!stack)
	{
		all->noMemory = true;
		return;
	}
	if (root)
		stack[top++] = (lbPending){ root, -1, 0 };
	while (top > 0 && !all->noMemory)
	{
		lbPending p = stack[--top];
		if (!p.node)
			continue;
		if (p.depth > LB_IMPORT_MAX_DEPTH)
		{
			all->tooDeep = true;
			continue;
		}
		int self = all->count;
		if (!lbListPush(all, p.node, p.parent))
		{
			all->noMemory = true;
			break;
		}
		unsigned nc = p.node->mNumChildren;
		if ((size_t)top + nc > (size_t)stackCap)
		{
			size_t cap = ((size_t)top + nc) * 2;
			lbPending* grown = cap < (size_t)INT32_MAX ? (lbPending*)lbRealloc(stack, sizeof(lbPending) * cap) : NULL;
			if (!grown)
			{
				all->noMemory = true;
				break;
			}
			stack = grown;
			stackCap = (int)cap;
		}
		for (unsigned c = nc; c-- > 0;)
			stack[top++] = (lbPending){ p.node->mChildren[c], self, p.depth + 1 };
	}
	lbFree(stack);
	if (all->noMemory || all->count == 0)
		return;
	all->byName = (lbNamedNode*)lbAlloc(sizeof(lbNamedNode) * (size_t)all->count);
	if (!all->byName)
	{
		all->noMemory = true;
		return;
	}
	for (int k = 0; k < all->count; ++k)
		all->byName[k] = (lbNamedNode){ all->nodes[k]->mName.data, k };
	qsort(all->byName, (size_t)all->count, sizeof(lbNamedNode), lbCompareNamedNode);
}

// The first node (in depth-first order) with this name, or -1.
static int lbFindNode(const lbNodeList* all, const char* name)
{
	int lo = 0, hi = all->count;
	while (lo < hi)
	{
		int mid = lo + (hi - lo) / 2;
		if (strcmp(all->byName[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < all->count && strcmp(all->byName[lo].name, name) == 0 ? all->byName[lo].index : -1;
}

static bool lbMatrixFinite(const struct aiMatrix4x4* m)
{
	const ai_real* f = &m->a1;
	for (int k = 0; k < 16; ++k)
	{
		if (!isfinite(f[k]))
			return false;
	}
	return true;
}

static const char* lbMetaString(const struct aiScene* sc, const char* key, char* buf, size_t size)
{
	buf[0] = 0;
	const struct aiMetadata* md = sc->mMetaData;
	for (unsigned k = 0; md && k < md->mNumProperties; ++k)
	{
		if (strcmp(md->mKeys[k].data, key) == 0 && md->mValues[k].mType == AI_AISTRING)
			snprintf(buf, size, "%.*s", (int)size - 1, ((const struct aiString*)md->mValues[k].mData)->data);
	}
	return buf;
}

static bool lbMetaNumber(const struct aiScene* sc, const char* key, double* out)
{
	const struct aiMetadata* md = sc->mMetaData;
	for (unsigned k = 0; md && k < md->mNumProperties; ++k)
	{
		if (strcmp(md->mKeys[k].data, key) != 0)
			continue;
		const void* v = md->mValues[k].mData;
		switch (md->mValues[k].mType)
		{
			case AI_INT32:
				*out = *(const int32_t*)v;
				return true;
			case AI_FLOAT:
				*out = *(const float*)v;
				return true;
			case AI_DOUBLE:
				*out = *(const double*)v;
				return true;
			default:
				return false;
		}
	}
	return false;
}

// Conversion from file world to model space.
typedef struct lbConversion
{
	float unit; // meters per file unit
	lbQuat rot; // source up -> target up
} lbConversion;

static lbVec3 lbConvertPoint(const lbConversion* c, lbVec3 p)
{
	return lbMulSV(c->unit, lbQuatRotate(c->rot, p));
}

typedef struct lbBoneInfo
{
	int node;        // index into the node list
	int parent;      // skeleton index or -1
	lbTransform top; // top-level bones: the ancestors' transform (file world of the parent)
	float scale;     // uniform scale a top-level bone's subtree carries (file units)
	int top_;        // skeleton index of this bone's top-level ancestor
} lbBoneInfo;

static lbResult lbFail(lbRigStore* st, const struct aiScene* sc, lbPrescan* scan, lbResult r)
{
	if (sc)
		aiReleaseImport(sc);
	lbPrescanCleanup(scan);
	lbDestroyImportedRig(&st->rig);
	return r;
}

static lbResult lbImportRigIsolated(const char* path, const lbImportDef* def, lbImportedRig** outRig);

lbResult lbImportRig(const char* path, const lbImportDef* def, lbImportedRig** outRig)
{
	if (outRig)
		*outRig = NULL;
	if (!path || !outRig)
		return lbReport(lb_errorNullPointer, "lbImportRig: path and outRig are required");
	lbImportDef defaults = lbDefaultImportDef();
	if (!def)
		def = &defaults;
	if (def->internalValue != LB_SECRET_COOKIE)
		return lbReport(lb_errorDefNotInitialized, "lbImportRig: def not initialised with lbDefaultImportDef()");
	if (!lbIsValidVec3(def->up) || lbLength(def->up) < 1.0e-6f || !lbIsValidVec3(def->sourceUp) ||
		!lbIsValidFloat(def->unitScale) || def->unitScale < 0.0f)
		return lbReport(lb_errorInvalidArgument, "lbImportRig: up must be a non-zero finite vector and unitScale >= 0");
	struct stat info;
	if (stat(path, &info) != 0 || !S_ISREG(info.st_mode))
		return lbReport(lb_errorFileNotFound, "lbImportRig: '%s' does not exist or is not a regular file", path);
	if (info.st_size == 0)
		return lbReport(lb_errorFileFormat, "lbImportRig: '%s' is empty", path);
	char ext[16];
	lbPathExtension(path, ext, sizeof ext);
	const char* format = lbImportFormatOf(ext);
	if (def->isolate)
		return lbImportRigIsolated(path, def, outRig);
	if (!format)
		return lbReport(lb_errorUnsupported,
						"lbImportRig: '%s': the extension '%s' is not a format that carries a skeleton; use one of %s", path,
						ext, LB_IMPORT_EXTENSIONS);

	lbPrescan scan;
	memset(&scan, 0, sizeof scan);
	snprintf(scan.importPath, sizeof scan.importPath, "%s", path);
	lbResult r = lb_ok;
	if (strcmp(format, "gltf") == 0 || strcmp(format, "glb") == 0)
		r = lbPrescanGltf(path, format[2] == 'b', &scan);
	else if (strcmp(format, "bvh") == 0)
		r = lbPrescanBvh(path, &scan);
	else if (strcmp(format, "collada") == 0)
		r = lbPrescanCollada(path, &scan);
	if (r != lb_ok)
	{
		lbPrescanCleanup(&scan);
		return r;
	}

	lbRigStore* st = (lbRigStore*)lbAllocZeroed(sizeof *st);
	if (!st)
	{
		lbPrescanCleanup(&scan);
		return lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
	}
	lbImportedRig* rig = &st->rig;
	rig->format = format;
	rig->warningCount = scan.warningCount;

	// assimp's default logger is the null logger: nothing is printed unless asked. Validation rejects
	// out-of-range indices; pivots are folded so FBX rigs have no helper nodes.
	struct aiLogStream logStream = { lbImporterLog, NULL };
	if (def->routeImporterLog)
		aiAttachLogStream(&logStream);
	struct aiPropertyStore* props = aiCreatePropertyStore();
	aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 0);
	aiSetImportPropertyInteger(props, AI_CONFIG_PP_LBW_MAX_WEIGHTS, 4);
	// Collada ids are mangled names (':' and such replaced); the name attribute is the bone's name.
	aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_COLLADA_USE_COLLADA_NAMES, 1);
	unsigned flags = aiProcess_Triangulate | aiProcess_LimitBoneWeights | aiProcess_ValidateDataStructure |
					 aiProcess_GenSmoothNormals | aiProcess_JoinIdenticalVertices;
	const struct aiScene* sc = aiImportFileExWithProperties(scan.importPath, flags, NULL, props);
	aiReleasePropertyStore(props);
	if (def->routeImporterLog)
		aiDetachLogStream(&logStream);
	if (!sc || !sc->mRootNode)
	{
		const char* why = aiGetErrorString();
		return lbFail(st, sc, &scan,
					  lbReport(lb_errorFileFormat, "lbImportRig: '%s' could not be read: %s", path, why && why[0] ? why : "unknown reason"));
	}
	char sourceFormat[128];
	lbMetaString(sc, "SourceAsset_Format", sourceFormat, sizeof sourceFormat);
	const bool isBvh = strcmp(format, "bvh") == 0;

	// Bone nodes: bound by a mesh bone or animated by a channel, plus their ancestors.
	lbNodeList all;
	memset(&all, 0, sizeof all);
	lbCollectNodes(sc->mRootNode, &all);
	if (all.noMemory)
	{
		lbNodeListFree(&all);
		return lbFail(st, sc, &scan, lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory"));
	}
	if (all.tooDeep)
	{
		lbNodeListFree(&all);
		return lbFail(st, sc, &scan,
					  lbReport(lb_errorFileFormat, "lbImportRig: '%s' nests nodes more than %d deep; no skeleton needs that (flatten the node tree)",
							   path, LB_IMPORT_MAX_DEPTH));
	}
	bool* isBone = (bool*)lbAllocZeroed(((size_t)all.count + 1) * sizeof(bool));
	if (!isBone)
	{
		lbNodeListFree(&all);
		return lbFail(st, sc, &scan, lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory"));
	}
	for (unsigned m = 0; !isBvh && m < sc->mNumMeshes; ++m)
	{
		const struct aiMesh* mesh = sc->mMeshes[m];
		for (unsigned b = 0; b < mesh->mNumBones; ++b)
		{
			int k = lbFindNode(&all, mesh->mBones[b]->mName.data);
			if (k < 0)
			{
				// Its weights are dropped below; the vertices fall back to other bones.
				lbWarn(lb_errorBoneNotFound, "lbImportRig: '%s': mesh bone '%s' has no node; its weights are ignored", path,
					   mesh->mBones[b]->mName.data);
				rig->warningCount++;
				continue;
			}
			isBone[k] = true;
		}
	}
	for (unsigned a = 0; a < sc->mNumAnimations; ++a)
	{
		for (unsigned c = 0; c < sc->mAnimations[a]->mNumChannels; ++c)
		{
			int k = lbFindNode(&all, sc->mAnimations[a]->mChannels[c]->mNodeName.data);
			if (k >= 0)
				isBone[k] = true;
		}
	}
	// Ancestors below the scene root (index 0). Nodes come parents first, so a walk stops at the
	// first ancestor already marked: its own ancestors are marked too, and the whole pass is O(n).
	int boneCount = 0;
	for (int k = 1; k < all.count; ++k)
	{
		if (!isBone[k])
			continue;
		for (int p = all.parent[k]; p > 0 && !isBone[p]; p = all.parent[p])
			isBone[p] = true;
	}
	for (int k = 0; k < all.count; ++k)
		boneCount += isBone[k] ? 1 : 0;
	if (boneCount == 0)
	{
		lbFree(isBone);
		lbNodeListFree(&all);
		return lbFail(st, sc, &scan, lbReport(lb_errorNoSkeleton, "lbImportRig: '%s' holds no skeleton (no bones, no animated nodes)", path));
	}
	if (boneCount > LB_MAX_BONES)
	{
		lbFree(isBone);
		lbNodeListFree(&all);
		return lbFail(st, sc, &scan, lbReport(lb_errorBoneCount, "lbImportRig: '%s' has %d bones, more than %d", path, boneCount, LB_MAX_BONES));
	}
	// A NaN or infinite matrix (or one past float range, such as 1e39) anywhere above a bone
	// would make its rest pose and every skinned vertex non-finite.
	for (int k = 0; k < all.count; ++k)
	{
		if (!lbMatrixFinite(&all.nodes[k]->mTransformation))
		{
			const char* nm = all.nodes[k]->mName.data;
			lbFree(isBone);
			lbNodeListFree(&all);
			return lbFail(st, sc, &scan,
						  lbReport(lb_errorFileFormat,
								   "lbImportRig: '%s': node '%.64s' has a non-finite transform (NaN, infinity or a value beyond "
								   "float range); fix the node's matrix in the file",
								   path, nm[0] ? nm : "(unnamed)"));
		}
	}

	// Source up and units.
	lbVec3 srcUp = lbVec3_axisY;
	const char* upWhy = "format convention";
	if (lbLengthSquared(def->sourceUp) > 0.0f)
	{
		srcUp = lbNormalize(def->sourceUp);
		upWhy = "given";
	}
	else if (strcmp(format, "fbx") == 0)
	{
		double axis, sign;
		if (lbMetaNumber(sc, "UpAxis", &axis) && lbMetaNumber(sc, "UpAxisSign", &sign) && axis >= 0 && axis <= 2)
		{
			float s = sign < 0 ? -1.0f : 1.0f;
			srcUp = axis == 0 ? lbMakeVec3(s, 0, 0) : axis == 1 ? lbMakeVec3(0, s, 0) : lbMakeVec3(0, 0, s);
			upWhy = "FBX header";
		}
	}
	lbVec3 up = lbNormalize(def->up);
	lbConversion conv = { 1.0f, lbQuatFromTo(srcUp, up) };

	int* boneOfNode = (int*)lbAlloc(sizeof(int) * (size_t)all.count);
	lbBoneInfo* info2 = (lbBoneInfo*)lbAllocZeroed((size_t)boneCount * sizeof(lbBoneInfo));
	lbTransform* fileModel = (lbTransform*)lbAllocZeroed((size_t)boneCount * sizeof(lbTransform));
	if (!boneOfNode || !info2 || !fileModel)
	{
		lbFree(boneOfNode);
		lbFree(info2);
		lbFree(fileModel);
		lbFree(isBone);
		lbNodeListFree(&all);
		return lbFail(st, sc, &scan, lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory"));
	}
	int n = 0;
	for (int k = 0; k < all.count; ++k)
	{
		boneOfNode[k] = -1;
		if (!isBone[k])
			continue;
		const struct aiNode* node = all.nodes[k];
		boneOfNode[k] = n;
		info2[n].node = k;
		int pk = all.parent[k];
		info2[n].parent = pk >= 0 ? boneOfNode[pk] : -1;
		if (info2[n].parent < 0)
		{
			struct aiMatrix4x4 g = lbNodeGlobal(node);
			lbTransform w = lbFromAiMatrix(&g);
			struct aiMatrix4x4 pg;
			if (node->mParent)
				pg = lbNodeGlobal(node->mParent);
			else
				aiIdentityMatrix4(&pg);
			info2[n].top = lbFromAiMatrix(&pg);
			info2[n].scale = (lbAbsF(w.s.x) + lbAbsF(w.s.y) + lbAbsF(w.s.z)) / 3.0f;
			info2[n].top_ = n;
			fileModel[n] = w;
		}
		else
		{
			int p = info2[n].parent;
			info2[n].scale = info2[p].scale;
			info2[n].top_ = info2[p].top_;
			fileModel[n] = lbTransformMul(fileModel[p], lbFromAiMatrix(&node->mTransformation));
		}
		++n;
	}
	lbFree(isBone);

	// Unit: explicit, format metadata, or guessed from the skeleton's height.
	float span;
	{
		float lo = 1.0e30f, hi = -1.0e30f;
		for (int b = 0; b < boneCount; ++b)
		{
			float hgt = lbDot(fileModel[b].p, srcUp);
			lo = lbMinF(lo, hgt);
			hi = lbMaxF(hi, hgt);
		}
		span = hi - lo;
	}
	char unitWhy[160];
	double usf;
	if (def->unitScale > 0.0f)
	{
		conv.unit = def->unitScale;
		snprintf(unitWhy, sizeof unitWhy, "given");
	}
	else if (strcmp(format, "gltf") == 0 || strcmp(format, "glb") == 0 || strcmp(format, "collada") == 0)
	{
		conv.unit = 1.0f;
		snprintf(unitWhy, sizeof unitWhy, "%s is in meters", format);
	}
	else if (strcmp(format, "fbx") == 0 && lbMetaNumber(sc, "UnitScaleFactor", &usf) && usf > 0.0)
	{
		conv.unit = (float)(usf * 0.01);
		snprintf(unitWhy, sizeof unitWhy, "FBX UnitScaleFactor %g cm", usf);
	}
	else
	{
		// A standing human skeleton spans roughly 1.4-1.9 m from toes to head joint: 55-75 units in
		// inches (3ds Max's default unit, so its ASE and X exports), 140-190 in centimetres. A span of
		// 40-100 units is an adult in inches (1.0-2.5 m) rather than a doll in centimetres (0.4-1 m):
		// a 3ds Max Biped exported in inches, 59 units tall, stood 0.6 m tall taken as centimetres.
		if (span >= 0.3f && span <= 3.0f)
			conv.unit = 1.0f;
		else if (span >= 40.0f && span < 100.0f)
			conv.unit = 0.0254f;
		else if (span >= 100.0f && span <= 300.0f)
			conv.unit = 0.01f;
		else if (span >= 12.0f && span < 40.0f && isBvh)
			conv.unit = 0.056444f; // CMU motion capture: 1 unit = 1/0.45 inch
		else
			conv.unit = 1.0f;
		snprintf(unitWhy, sizeof unitWhy, "guessed from a skeleton %.3g units tall%s", (double)span,
				 conv.unit == 0.056444f ? " (CMU motion-capture units)"
				 : conv.unit == 0.0254f ? " (inches)"
										: (conv.unit == 1.0f && !(span >= 0.3f && span <= 3.0f) ? "; not a human size, kept as meters" : ""));
	}
	rig->unitScale = conv.unit;
	rig->sourceUp = srcUp;
	rig->axisRotation = conv.rot;

	// Skeleton in model space.
	const char** names = (const char**)lbAllocZeroed((size_t)boneCount * sizeof(char*));
	char(*nameBuf)[LB_MAX_NAME] = (char(*)[LB_MAX_NAME])lbAllocZeroed((size_t)boneCount * LB_MAX_NAME);
	int* parents = (int*)lbAllocZeroed((size_t)boneCount * sizeof(int));
	lbTransform* restLocal = (lbTransform*)lbAllocZeroed((size_t)boneCount * sizeof(lbTransform));
	lbVec3* ends = (lbVec3*)lbAllocZeroed((size_t)boneCount * sizeof(lbVec3));
	lbTransform* inverseBind = (lbTransform*)lbStoreAlloc(st, sizeof(lbTransform) * (size_t)boneCount);
	if (!names || !nameBuf || !parents || !restLocal || !ends || !inverseBind)
	{
		lbFree((void*)names);
		lbFree(nameBuf);
		lbFree(parents);
		lbFree(restLocal);
		lbFree(ends);
		lbFree(boneOfNode);
		lbFree(info2);
		lbFree(fileModel);
		lbNodeListFree(&all);
		return lbFail(st, sc, &scan, lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory"));
	}
	// The first bone whose end is not finite after the unit scale, reported once the buffers are freed.
	int endBone = -1;
	char endName[LB_MAX_NAME] = "", endBoneName[LB_MAX_NAME] = "";
	for (int b = 0; b < boneCount; ++b)
	{
		const struct aiNode* node = all.nodes[info2[b].node];
		const char* nm = node->mName.data;
		if (!nm[0])
			snprintf(nameBuf[b], LB_MAX_NAME, "bone_%d", b);
		else
			snprintf(nameBuf[b], LB_MAX_NAME, "%.*s", LB_MAX_NAME - 1, nm);
		if (strlen(nm) >= LB_MAX_NAME)
		{
			lbWarn(lb_errorNameTooLong, "lbImportRig: '%s': bone name '%.40s...' shortened", path, nm);
			rig->warningCount++;
		}
		// Duplicate names get a numeric suffix.
		for (int o = 0; o < b; ++o)
		{
			if (strcmp(nameBuf[o], nameBuf[b]) == 0)
			{
				char tmp[LB_MAX_NAME];
				snprintf(tmp, sizeof tmp, "%.50s_%d", nameBuf[b], b);
				memcpy(nameBuf[b], tmp, LB_MAX_NAME);
				lbWarn(lb_errorDuplicateName, "lbImportRig: '%s': duplicate bone name renamed to '%s'", path, tmp);
				rig->warningCount++;
				break;
			}
		}
		names[b] = nameBuf[b];
		parents[b] = info2[b].parent;
		lbTransform loc;
		if (parents[b] < 0)
		{
			lbTransform w = fileModel[b];
			float g = info2[b].scale > 1.0e-12f ? info2[b].scale : 1.0f;
			loc.p = lbConvertPoint(&conv, w.p);
			loc.q = lbQuatNormalize(lbQuatMul(conv.rot, w.q));
			loc.s = lbMulSV(1.0f / g, w.s);
		}
		else
		{
			loc = lbFromAiMatrix(&node->mTransformation);
			loc.p = lbMulSV(conv.unit * info2[info2[b].top_].scale, loc.p);
		}
		restLocal[b] = loc;
		inverseBind[b] = lbTransform_identity;
		// Where the bone ends, when the file says: its only child is a leaf that is no bone and
		// holds no mesh (a BVH End Site, a 3ds Max Nub, Mixamo's _End nodes). It is data on the
		// bone, not a bone of its own, so bone counts, clips, bakes and retargeting by name stay as
		// they were. Scaled like a child bone's translation. Children come right after their node.
		const int k = info2[b].node;
		const struct aiNode* end = node->mNumChildren == 1 ? node->mChildren[0] : NULL;
		if (end && k + 1 < all.count && all.nodes[k + 1] == end && boneOfNode[k + 1] < 0 && end->mNumChildren == 0 &&
			end->mNumMeshes == 0)
		{
			ends[b] = lbMulSV(conv.unit * info2[info2[b].top_].scale, lbFromAiMatrix(&end->mTransformation).p);
			if (!lbIsValidVec3(ends[b]) && endBone < 0)
			{
				// The names are copied now: the buffers holding the bone's go before the report.
				snprintf(endName, sizeof endName, "%.*s", LB_MAX_NAME - 1, end->mName.data);
				memcpy(endBoneName, nameBuf[b], LB_MAX_NAME);
				endBone = b;
			}
		}
	}
	lbSkeletonDef sdef = lbDefaultSkeletonDef();
	sdef.boneCount = boneCount;
	sdef.names = names;
	sdef.parents = parents;
	sdef.restLocal = restLocal;
	sdef.ends = ends;
	lbResult sr = lb_ok;
	rig->skeleton = endBone < 0 ? lbCreateSkeleton(&sdef, &sr) : NULL;
	lbFree((void*)names);
	lbFree(nameBuf);
	lbFree(parents);
	lbFree(restLocal);
	lbFree(ends);
	lbFree(fileModel);
	if (!rig->skeleton)
	{
		lbFree(boneOfNode);
		lbFree(info2);
		lbNodeListFree(&all);
		if (endBone >= 0)
			return lbFail(st, sc, &scan,
						  lbReport(lb_errorFileFormat,
								   "lbImportRig: '%s': end node '%s' of bone '%s' is not finite after the unit scale (beyond "
								   "float range); fix its offset in the file or the unit",
								   path, endName[0] ? endName : "(unnamed)", endBoneName));
		return lbFail(st, sc, &scan, lbReport(sr, "lbImportRig: '%s': the skeleton is invalid", path));
	}
	const lbSkeleton* skel = rig->skeleton;

	// Skinned meshes.
	int meshTotal = 0;
	for (unsigned m = 0; def->loadMeshes && !isBvh && m < sc->mNumMeshes; ++m)
		meshTotal += sc->mMeshes[m]->mNumBones > 0 ? 1 : 0;
	lbSkinnedMesh* meshes = (lbSkinnedMesh*)lbStoreAlloc(st, sizeof(lbSkinnedMesh) * (size_t)(meshTotal ? meshTotal : 1));
	// The first node (depth-first) holding each mesh, found in one pass over the nodes.
	int* holderOf = meshTotal > 0 ? (int*)lbAlloc(sizeof(int) * (size_t)sc->mNumMeshes) : NULL;
	lbResult meshErr = meshes && (meshTotal == 0 || holderOf) ? lb_ok : lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
	for (unsigned m = 0; holderOf && m < sc->mNumMeshes; ++m)
		holderOf[m] = -1;
	for (int k = 0; holderOf && k < all.count; ++k)
	{
		for (unsigned i = 0; i < all.nodes[k]->mNumMeshes; ++i)
		{
			unsigned m = all.nodes[k]->mMeshes[i];
			if (m < sc->mNumMeshes && holderOf[m] < 0)
				holderOf[m] = k;
		}
	}
	for (unsigned m = 0; meshErr == lb_ok && meshTotal > 0 && m < sc->mNumMeshes; ++m)
	{
		const struct aiMesh* am = sc->mMeshes[m];
		if (am->mNumBones == 0)
			continue;
		// The node holding this mesh gives mesh space -> file world.
		const int holderIndex = holderOf[m];
		const struct aiNode* holder = holderIndex >= 0 ? all.nodes[holderIndex] : NULL;
		// Offset matrices map mesh space (the mesh node's frame) to bone space at bind time, as
		// assimp documents. Its DirectX importer instead gives them in the scene space under the
		// root node (checked on BCN_Epileptic.X: rest-pose skinning then reproduces the mesh).
		struct aiMatrix4x4 gm;
		if (holder && strcmp(format, "x") != 0)
			gm = lbNodeGlobal(holder);
		else
			gm = sc->mRootNode->mTransformation;
		lbTransform g = lbFromAiMatrix(&gm);
		lbSkinnedMesh* out = &meshes[rig->meshCount];
		int nv = (int)am->mNumVertices;
		lbVec3* pos = (lbVec3*)lbStoreAlloc(st, sizeof(lbVec3) * (size_t)nv);
		lbVec3* nor = (lbVec3*)lbStoreAlloc(st, sizeof(lbVec3) * (size_t)nv);
		int* bi = (int*)lbStoreAlloc(st, sizeof(int) * 4 * (size_t)nv);
		float* bw = (float*)lbStoreAlloc(st, sizeof(float) * 4 * (size_t)nv);
		int triCount = 0;
		for (unsigned f = 0; f < am->mNumFaces; ++f)
			triCount += am->mFaces[f].mNumIndices == 3 ? 1 : 0;
		uint32_t* idx = (uint32_t*)lbStoreAlloc(st, sizeof(uint32_t) * 3 * (size_t)(triCount ? triCount : 1));
		char* nm = (char*)lbStoreAlloc(st, strlen(am->mName.data) + 1);
		if (!pos || !nor || !bi || !bw || !idx || !nm)
		{
			meshErr = lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
			break;
		}
		memcpy(nm, am->mName.data, strlen(am->mName.data) + 1);
		for (int v = 0; v < nv; ++v)
		{
			lbVec3 p = lbMakeVec3(am->mVertices[v].x, am->mVertices[v].y, am->mVertices[v].z);
			pos[v] = lbConvertPoint(&conv, lbTransformPoint(g, p));
			lbVec3 nn = am->mNormals ? lbMakeVec3(am->mNormals[v].x, am->mNormals[v].y, am->mNormals[v].z) : up;
			nor[v] = lbNormalizeOr(lbQuatRotate(conv.rot, lbTransformDirection(g, nn)), up);
			// Checked after the conversion: finite inputs can still overflow on the way.
			if (!lbIsValidVec3(pos[v]))
			{
				meshErr = lbReport(lb_errorFileFormat,
								   "lbImportRig: '%s' mesh '%s' vertex %d is not finite after its node's transform and the unit "
								   "scale (NaN, infinity or beyond float range); fix the vertex or the matrices above it",
								   path, nm, v);
				break;
			}
		}
		int t = 0;
		for (unsigned f = 0; f < am->mNumFaces && meshErr == lb_ok; ++f)
		{
			const struct aiFace* face = &am->mFaces[f];
			if (face->mNumIndices != 3)
				continue;
			for (int c = 0; c < 3; ++c)
			{
				if (face->mIndices[c] >= (unsigned)nv)
				{
					meshErr = lbReport(lb_errorFileFormat, "lbImportRig: '%s' mesh '%s' face %u uses vertex %u of %d", path, nm,
									   f, face->mIndices[c], nv);
					break;
				}
				idx[t++] = face->mIndices[c];
			}
		}
		for (unsigned b = 0; b < am->mNumBones && meshErr == lb_ok; ++b)
		{
			const struct aiBone* ab = am->mBones[b];
			int node = lbFindNode(&all, ab->mName.data);
			int bone = node >= 0 ? boneOfNode[node] : -1;
			if (bone < 0)
				continue;
			// Bind pose of the bone in file world: mesh global * inverse(offset).
			lbTransform offset = lbFromAiMatrix(&ab->mOffsetMatrix);
			lbTransform bindW = lbTransformMul(g, lbTransformInverse(offset));
			lbTransform bindM;
			bindM.p = lbConvertPoint(&conv, bindW.p);
			bindM.q = lbQuatNormalize(lbQuatMul(conv.rot, bindW.q));
			bindM.s = skel->restModel[bone].s;
			inverseBind[bone] = lbTransformInverse(bindM);
			if (!lbIsValidTransform(inverseBind[bone]) || !lbMatrixFinite(&ab->mOffsetMatrix))
			{
				meshErr = lbReport(lb_errorFileFormat,
								   "lbImportRig: '%s' bone '%s' has a non-finite bind matrix (NaN, infinity or beyond float "
								   "range); fix its inverse bind matrix in the file",
								   path, ab->mName.data);
				break;
			}
			for (unsigned w = 0; w < ab->mNumWeights; ++w)
			{
				unsigned v = ab->mWeights[w].mVertexId;
				float wt = ab->mWeights[w].mWeight;
				if (v >= (unsigned)nv || !lbIsValidFloat(wt))
				{
					meshErr = lbReport(lb_errorFileFormat, "lbImportRig: '%s' bone '%s' weights vertex %u of %d", path,
									   ab->mName.data, v, nv);
					break;
				}
				// Keep the four largest weights.
				int slot = 0;
				for (int k = 1; k < 4; ++k)
				{
					if (bw[4 * v + k] < bw[4 * v + slot])
						slot = k;
				}
				if (wt > bw[4 * v + slot])
				{
					bw[4 * v + slot] = wt;
					bi[4 * v + slot] = bone;
				}
			}
		}
		if (meshErr != lb_ok)
			break;
		int fallback = holderIndex >= 0 ? boneOfNode[holderIndex] : -1;
		for (int v = 0; v < nv; ++v)
		{
			float sum = bw[4 * v] + bw[4 * v + 1] + bw[4 * v + 2] + bw[4 * v + 3];
			if (sum <= 1.0e-8f)
			{
				bi[4 * v] = fallback >= 0 ? fallback : 0;
				bw[4 * v] = 1.0f;
				continue;
			}
			for (int k = 0; k < 4; ++k)
				bw[4 * v + k] /= sum;
		}
		out->name = nm;
		out->vertexCount = nv;
		out->positions = pos;
		out->normals = nor;
		out->indexCount = t;
		out->indices = idx;
		out->boneIndices = bi;
		out->boneWeights = bw;
		rig->meshCount++;
	}
	lbFree(holderOf);
	rig->meshes = meshes;
	if (meshErr != lb_ok)
	{
		lbFree(boneOfNode);
		lbFree(info2);
		lbNodeListFree(&all);
		return lbFail(st, sc, &scan, meshErr);
	}
	rig->inverseBind = inverseBind;

	// Clips: keys converted like the rest pose; times in seconds, strictly increasing.
	int clipTotal = def->loadClips ? (int)sc->mNumAnimations : 0;
	lbClip* clips = (lbClip*)lbStoreAlloc(st, sizeof(lbClip) * (size_t)(clipTotal ? clipTotal : 1));
	lbResult clipErr = clips ? lb_ok : lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
	int skipped = 0, leadIns = 0;
	for (int a = 0; clipErr == lb_ok && a < clipTotal; ++a)
	{
		const struct aiAnimation* an = sc->mAnimations[a];
		double tps = an->mTicksPerSecond > 0.0 ? an->mTicksPerSecond : 25.0;
		lbClipTrack* tracks = (lbClipTrack*)lbStoreAlloc(st, sizeof(lbClipTrack) * (size_t)(an->mNumChannels + 1));
		char* cname = (char*)lbStoreAlloc(st, strlen(an->mName.data) + 1);
		if (!tracks || !cname)
		{
			clipErr = lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
			break;
		}
		memcpy(cname, an->mName.data, strlen(an->mName.data) + 1);
		int trackCount = 0;
		float lastKey = 0.0f;
		for (unsigned c = 0; c < an->mNumChannels && clipErr == lb_ok; ++c)
		{
			const struct aiNodeAnim* ch = an->mChannels[c];
			int node = lbFindNode(&all, ch->mNodeName.data);
			int bone = node >= 0 ? boneOfNode[node] : -1;
			if (bone < 0)
			{
				++skipped;
				continue;
			}
			const bool top = info2[bone].parent < 0;
			const lbTransform above = info2[bone].top;
			const float g = info2[info2[bone].top_].scale > 1.0e-12f ? info2[info2[bone].top_].scale : 1.0f;
			lbClipTrack* tr = &tracks[trackCount];
			memset(tr, 0, sizeof *tr);
			tr->bone = bone;
			unsigned np = ch->mNumPositionKeys, nr = ch->mNumRotationKeys, ns = ch->mNumScalingKeys;
			float* pt = (float*)lbStoreAlloc(st, sizeof(float) * (np + 1));
			lbVec3* pv = (lbVec3*)lbStoreAlloc(st, sizeof(lbVec3) * (np + 1));
			float* rt = (float*)lbStoreAlloc(st, sizeof(float) * (nr + 1));
			lbQuat* rv = (lbQuat*)lbStoreAlloc(st, sizeof(lbQuat) * (nr + 1));
			float* stt = (float*)lbStoreAlloc(st, sizeof(float) * (ns + 1));
			lbVec3* sv = (lbVec3*)lbStoreAlloc(st, sizeof(lbVec3) * (ns + 1));
			if (!pt || !pv || !rt || !rv || !stt || !sv)
			{
				clipErr = lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
				break;
			}
			int k = 0;
			for (unsigned i = 0; i < np; ++i)
			{
				float t = (float)(ch->mPositionKeys[i].mTime / tps);
				struct aiVector3D v = ch->mPositionKeys[i].mValue;
				lbVec3 p = lbMakeVec3(v.x, v.y, v.z);
				if (!lbIsValidFloat(t) || !lbIsValidVec3(p) || (k > 0 && !(t > pt[k - 1])))
					continue;
				pt[k] = t;
				pv[k] = top ? lbConvertPoint(&conv, lbTransformPoint(above, p)) : lbMulSV(conv.unit * g, p);
				lastKey = lbMaxF(lastKey, t);
				++k;
			}
			tr->positionCount = k;
			tr->positionTimes = pt;
			tr->positions = pv;
			k = 0;
			for (unsigned i = 0; i < nr; ++i)
			{
				float t = (float)(ch->mRotationKeys[i].mTime / tps);
				struct aiQuaternion v = ch->mRotationKeys[i].mValue;
				lbQuat q = lbMakeQuat(v.x, v.y, v.z, v.w);
				if (!lbIsValidFloat(t) || !lbIsValidQuat(q) || lbQuatDot(q, q) < 1.0e-12f || (k > 0 && !(t > rt[k - 1])))
					continue;
				q = lbQuatNormalize(q);
				rt[k] = t;
				rv[k] = top ? lbQuatNormalize(lbQuatMul(conv.rot, lbQuatMul(above.q, q))) : q;
				lastKey = lbMaxF(lastKey, t);
				++k;
			}
			tr->rotationCount = k;
			tr->rotationTimes = rt;
			tr->rotations = rv;
			k = 0;
			for (unsigned i = 0; i < ns; ++i)
			{
				float t = (float)(ch->mScalingKeys[i].mTime / tps);
				struct aiVector3D v = ch->mScalingKeys[i].mValue;
				lbVec3 sc3 = lbMakeVec3(v.x, v.y, v.z);
				if (!lbIsValidFloat(t) || !lbIsValidVec3(sc3) || (k > 0 && !(t > stt[k - 1])))
					continue;
				stt[k] = t;
				sv[k] = top ? lbMulSV(1.0f / g, lbMulVV(above.s, sc3)) : sc3;
				++k;
			}
			tr->scaleCount = k;
			tr->scaleTimes = stt;
			tr->scales = sv;
			++trackCount;
		}
		lbClip* clip = &clips[rig->clipCount];
		clip->name = cname;
		clip->duration = lbMaxF((float)(an->mDuration / tps), lastKey);
		clip->boneCount = skel->boneCount;
		clip->trackCount = trackCount;
		clip->tracks = tracks;
		if (clipErr == lb_ok && trackCount > 0 && lbValidateClip(clip, skel) == lb_ok)
			rig->clipCount++;
	}
	rig->clips = clips;
	lbFree(boneOfNode);
	lbFree(info2);
	lbNodeListFree(&all);
	aiReleaseImport(sc);
	sc = NULL;
	if (clipErr != lb_ok)
		return lbFail(st, sc, &scan, clipErr);
	if (skipped > 0)
	{
		lbWarn(lb_errorBoneNotFound, "lbImportRig: '%s': %d animation channels name no node and were skipped", path, skipped);
		rig->warningCount++;
	}

	// Humanoid map.
	lbHumanoidDef hdef = def->humanoid;
	if (hdef.internalValue != LB_SECRET_COOKIE)
		hdef = lbDefaultHumanoidDef();
	hdef.upHint = up;
	rig->humanoidResult = lbMapHumanoid(skel, &hdef, &rig->humanoid);
	if (rig->humanoidResult != lb_ok && def->requireHumanoid)
	{
		char missing[256] = "";
		for (int role = 0; role < lb_roleCount; ++role)
		{
			static const lbRole required[] = { lb_rolePelvis, lb_roleSpine1, lb_roleHead, lb_roleUpperArmL, lb_roleForeArmL,
											   lb_roleHandL, lb_roleThighL, lb_roleCalfL, lb_roleFootL, lb_roleUpperArmR,
											   lb_roleForeArmR, lb_roleHandR, lb_roleThighR, lb_roleCalfR, lb_roleFootR };
			bool req = false;
			for (size_t q = 0; q < sizeof required / sizeof required[0]; ++q)
				req = req || required[q] == (lbRole)role;
			if (req && lbHumanoid_GetRoleBone(&rig->humanoid, (lbRole)role) == LB_NULL_INDEX)
			{
				size_t used = strlen(missing);
				snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "", lbRoleName((lbRole)role));
			}
		}
		lbResult hr = rig->humanoidResult;
		return lbFail(st, NULL, &scan,
					  lbReport(lb_errorNotHumanoid, "lbImportRig: '%s' is not a humanoid (%s%s%s); give role names in lbImportDef.humanoid",
							   path, lbResultString(hr), missing[0] ? ": missing " : "", missing));
	}

	// Lead-in poses, judged on the big arm and leg bones: the mapped upper arms, forearms, thighs
	// and calves, or without a humanoid map every bone at least a tenth of the skeleton's height
	// long (fingers and toes are far shorter).
	if (def->dropLeadInPose && rig->clipCount > 0)
	{
		bool* big = (bool*)lbAllocZeroed((size_t)skel->boneCount * sizeof(bool));
		if (!big)
			return lbFail(st, NULL, &scan, lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory"));
		if (rig->humanoidResult == lb_ok)
		{
			static const lbRole limbs[] = { lb_roleUpperArmL, lb_roleForeArmL, lb_roleUpperArmR, lb_roleForeArmR,
											lb_roleThighL,    lb_roleCalfL,    lb_roleThighR,    lb_roleCalfR };
			for (size_t k = 0; k < sizeof limbs / sizeof limbs[0]; ++k)
			{
				int b = lbHumanoid_GetRoleBone(&rig->humanoid, limbs[k]);
				if (b >= 0 && b < skel->boneCount)
					big[b] = true;
			}
		}
		else
		{
			float lo = 1.0e30f, hi = -1.0e30f;
			for (int b = 0; b < skel->boneCount; ++b)
			{
				lo = lbMinF(lo, lbDot(skel->restModel[b].p, up));
				hi = lbMaxF(hi, lbDot(skel->restModel[b].p, up));
			}
			for (int b = 0; b < skel->boneCount; ++b)
			{
				int p = skel->parents[b];
				if (p >= 0 && lbLength(lbSub(skel->restModel[b].p, skel->restModel[p].p)) >= 0.1f * (hi - lo))
					big[p] = true;
			}
		}
		for (int c = 0; c < rig->clipCount; ++c)
		{
			// The clips and their keys are this importer's own (writable) memory.
			lbClip* clip = (lbClip*)&rig->clips[c];
			if (lbDropLeadInPose((lbClipTrack*)clip->tracks, clip->trackCount, big, &clip->duration))
				++leadIns;
		}
		lbFree(big);
	}

	// A human is about 1.5-2 m tall; far outside that (a child stands 0.9 m and up), the unit is
	// most likely wrong.
	float tall = rig->humanoidResult == lb_ok ? rig->humanoid.height : span * conv.unit;
	bool implausible = rig->humanoidResult == lb_ok && (tall < 0.9f || tall > 3.0f);
	char tallText[512] = "";
	if (implausible)
	{
		snprintf(tallText, sizeof tallText,
				 "the rig is %.3g m tall with %.6g m per file unit (%s), not a human's 1.5-2 m: set lbImportDef.unitScale "
				 "(e.g. %.3g)",
				 (double)tall, (double)conv.unit, unitWhy, (double)(conv.unit * 1.75f / tall));
		lbWarn(lb_errorFileFormat, "lbImportRig: '%s': %s", path, tallText);
		++rig->warningCount;
	}

	float angle = lbQuatAngle(conv.rot) * LB_RAD2DEG;
	snprintf(rig->report, sizeof rig->report,
			 "%s (%s): %d bones, %d skinned meshes, %d clips; unit %.6g m per file unit (%s); up (%g %g %g) -> (%g %g %g), "
			 "rotated %.1f deg (%s)",
			 format, sourceFormat, skel->boneCount, rig->meshCount, rig->clipCount, (double)conv.unit, unitWhy,
			 (double)srcUp.x, (double)srcUp.y, (double)srcUp.z, (double)up.x, (double)up.y, (double)up.z, (double)angle, upWhy);
	if (leadIns > 0)
	{
		char text[32];
		snprintf(text, sizeof text, "%d clip(s)", leadIns);
		lbAppendReport(rig, "; lead-in pose dropped from %s", text);
	}
	if (rig->humanoidResult != lb_ok)
		lbAppendReport(rig, "; %s", "not a humanoid");
	if (implausible)
		lbAppendReport(rig, "; %s", tallText);
	if (scan.warnings[0])
		lbAppendReport(rig, "; warnings: %s", scan.warnings);
	lbPrescanCleanup(&scan);
	*outRig = rig;
	return lb_ok;
}

// ---------------------------------------------------------------------------------------------
// Isolated import: the parser runs in a child process with resource limits; the rig comes back
// through a pipe as a flat byte stream (sizes first, then arrays) and is rebuilt in this process.

typedef struct lbByteBuf
{
	unsigned char* data;
	size_t size, cap;
	bool failed;
} lbByteBuf;

static void lbPut(lbByteBuf* b, const void* p, size_t n)
{
	if (b->failed || n == 0)
		return;
	if (b->size + n > b->cap)
	{
		size_t cap = b->cap ? b->cap : 65536;
		while (cap < b->size + n)
			cap *= 2;
		unsigned char* grown = (unsigned char*)lbRealloc(b->data, cap);
		if (!grown)
		{
			b->failed = true;
			return;
		}
		b->data = grown;
		b->cap = cap;
	}
	memcpy(b->data + b->size, p, n);
	b->size += n;
}

static void lbPutInt(lbByteBuf* b, int v)
{
	lbPut(b, &v, sizeof v);
}

static void lbPutString(lbByteBuf* b, const char* s)
{
	int n = s ? (int)strlen(s) : 0;
	lbPutInt(b, n);
	lbPut(b, s, (size_t)n);
}

static void lbSerializeRig(lbByteBuf* b, const lbImportedRig* rig)
{
	const lbSkeleton* s = rig->skeleton;
	int n = s->boneCount;
	lbPutInt(b, n);
	for (int i = 0; i < n; ++i)
		lbPutString(b, s->names[i]);
	lbPut(b, s->parents, sizeof(int) * (size_t)n);
	lbPut(b, s->restLocal, sizeof(lbTransform) * (size_t)n);
	lbPut(b, s->restModel, sizeof(lbTransform) * (size_t)n);
	lbPutInt(b, s->ends ? 1 : 0);
	if (s->ends)
		lbPut(b, s->ends, sizeof(lbVec3) * (size_t)n);
	lbPut(b, &s->fingerprint, sizeof s->fingerprint);
	lbPut(b, &rig->humanoid, sizeof rig->humanoid);
	lbPutInt(b, (int)rig->humanoidResult);
	lbPut(b, rig->inverseBind, sizeof(lbTransform) * (size_t)n);
	lbPutInt(b, rig->meshCount);
	for (int m = 0; m < rig->meshCount; ++m)
	{
		const lbSkinnedMesh* mesh = &rig->meshes[m];
		lbPutString(b, mesh->name);
		lbPutInt(b, mesh->vertexCount);
		lbPutInt(b, mesh->indexCount);
		size_t nv = (size_t)mesh->vertexCount;
		lbPut(b, mesh->positions, sizeof(lbVec3) * nv);
		lbPut(b, mesh->normals, sizeof(lbVec3) * nv);
		lbPut(b, mesh->indices, sizeof(uint32_t) * (size_t)mesh->indexCount);
		lbPut(b, mesh->boneIndices, sizeof(int) * 4 * nv);
		lbPut(b, mesh->boneWeights, sizeof(float) * 4 * nv);
	}
	lbPutInt(b, rig->clipCount);
	for (int c = 0; c < rig->clipCount; ++c)
	{
		const lbClip* clip = &rig->clips[c];
		lbPutString(b, clip->name);
		lbPut(b, &clip->duration, sizeof clip->duration);
		lbPutInt(b, clip->trackCount);
		for (int t = 0; t < clip->trackCount; ++t)
		{
			const lbClipTrack* tr = &clip->tracks[t];
			lbPutInt(b, tr->bone);
			lbPutInt(b, tr->positionCount);
			lbPutInt(b, tr->rotationCount);
			lbPutInt(b, tr->scaleCount);
			lbPut(b, tr->positionTimes, sizeof(float) * (size_t)tr->positionCount);
			lbPut(b, tr->positions, sizeof(lbVec3) * (size_t)tr->positionCount);
			lbPut(b, tr->rotationTimes, sizeof(float) * (size_t)tr->rotationCount);
			lbPut(b, tr->rotations, sizeof(lbQuat) * (size_t)tr->rotationCount);
			lbPut(b, tr->scaleTimes, sizeof(float) * (size_t)tr->scaleCount);
			lbPut(b, tr->scales, sizeof(lbVec3) * (size_t)tr->scaleCount);
		}
	}
	lbPut(b, &rig->unitScale, sizeof rig->unitScale);
	lbPut(b, &rig->sourceUp, sizeof rig->sourceUp);
	lbPut(b, &rig->axisRotation, sizeof rig->axisRotation);
	lbPutString(b, rig->format);
	lbPutInt(b, rig->warningCount);
	lbPut(b, rig->report, sizeof rig->report);
}

typedef struct lbByteReader
{
	const unsigned char* data;
	size_t size, at;
	bool failed;
} lbByteReader;

static bool lbGet(lbByteReader* r, void* out, size_t n)
{
	if (r->failed || n > r->size - r->at)
	{
		r->failed = true;
		if (out && n)
			memset(out, 0, n);
		return false;
	}
	if (n)
		memcpy(out, r->data + r->at, n);
	r->at += n;
	return true;
}

static int lbGetCount(lbByteReader* r, int most)
{
	int v = 0;
	lbGet(r, &v, sizeof v);
	if (v < 0 || v > most)
	{
		r->failed = true;
		return 0;
	}
	return v;
}

// Array of count elements of `size` bytes copied into the rig's store.
static void* lbGetArray(lbByteReader* r, lbRigStore* st, size_t count, size_t size)
{
	if (r->failed || (count && size > (r->size - r->at) / count))
	{
		r->failed = true;
		return NULL;
	}
	void* p = lbStoreAlloc(st, count * size);
	if (!p)
	{
		r->failed = true;
		return NULL;
	}
	lbGet(r, p, count * size);
	return p;
}

// A string of at most `most` characters, zero-terminated in the store ("" on failure).
static char* lbGetString(lbByteReader* r, lbRigStore* st, int most)
{
	int n = lbGetCount(r, most);
	char* s = r->failed ? NULL : (char*)lbStoreAlloc(st, (size_t)n + 1);
	if (!s)
	{
		r->failed = true;
		return (char*)"";
	}
	lbGet(r, s, (size_t)n); // the store's block is zeroed: s[n] terminates it
	return s;
}

static lbResult lbDeserializeRig(lbByteReader* r, lbImportedRig** outRig)
{
	lbRigStore* st = (lbRigStore*)lbAllocZeroed(sizeof *st);
	if (!st)
		return lbReport(lb_errorOutOfMemory, "lbImportRig: out of memory");
	lbImportedRig* rig = &st->rig;
	int n = lbGetCount(r, LB_MAX_BONES);
	const char** names = (const char**)lbStoreAlloc(st, sizeof(char*) * (size_t)(n ? n : 1));
	if (!names)
		r->failed = true;
	for (int i = 0; i < n && !r->failed; ++i)
		names[i] = lbGetString(r, st, LB_MAX_NAME - 1);
	int* parents = (int*)lbGetArray(r, st, (size_t)n, sizeof(int));
	lbTransform* restLocal = (lbTransform*)lbGetArray(r, st, (size_t)n, sizeof(lbTransform));
	lbTransform* restModel = (lbTransform*)lbGetArray(r, st, (size_t)n, sizeof(lbTransform));
	const lbVec3* ends = lbGetCount(r, 1) ? (const lbVec3*)lbGetArray(r, st, (size_t)n, sizeof(lbVec3)) : NULL;
	uint64_t fingerprint = 0;
	lbGet(r, &fingerprint, sizeof fingerprint);
	lbGet(r, &rig->humanoid, sizeof rig->humanoid);
	int hr = 0;
	lbGet(r, &hr, sizeof hr);
	rig->humanoidResult = (lbResult)hr;
	rig->inverseBind = (const lbTransform*)lbGetArray(r, st, (size_t)n, sizeof(lbTransform));
	if (!r->failed)
	{
		lbSkeletonDef sd = lbDefaultSkeletonDef();
		sd.boneCount = n;
		sd.names = names;
		sd.parents = parents;
		sd.restLocal = restLocal;
		sd.ends = ends;
		lbResult sr = lb_ok;
		rig->skeleton = lbCreateSkeleton(&sd, &sr);
		if (!rig->skeleton)
			r->failed = true;
		else
		{
			// Bit for bit the child's skeleton (creating it again re-normalises the rotations), so
			// the child's humanoid map and fingerprint hold.
			lbSkeleton* made = rig->skeleton;
			memcpy((void*)made->restLocal, restLocal, sizeof(lbTransform) * (size_t)n);
			memcpy((void*)made->restModel, restModel, sizeof(lbTransform) * (size_t)n);
			made->fingerprint = fingerprint;
			rig->humanoid.boneCount = made->boneCount;
			rig->humanoid.skeletonFingerprint = fingerprint;
		}
	}
	rig->meshCount = lbGetCount(r, 1 << 20);
	lbSkinnedMesh* meshes = (lbSkinnedMesh*)lbStoreAlloc(st, sizeof(lbSkinnedMesh) * (size_t)(rig->meshCount ? rig->meshCount : 1));
	if (!meshes)
		r->failed = true;
	for (int m = 0; m < rig->meshCount && !r->failed; ++m)
	{
		lbSkinnedMesh* mesh = &meshes[m];
		mesh->name = lbGetString(r, st, 1 << 20);
		mesh->vertexCount = lbGetCount(r, INT32_MAX);
		mesh->indexCount = lbGetCount(r, INT32_MAX);
		size_t nv = (size_t)mesh->vertexCount;
		mesh->positions = (const lbVec3*)lbGetArray(r, st, nv, sizeof(lbVec3));
		mesh->normals = (const lbVec3*)lbGetArray(r, st, nv, sizeof(lbVec3));
		mesh->indices = (const uint32_t*)lbGetArray(r, st, (size_t)mesh->indexCount, sizeof(uint32_t));
		mesh->boneIndices = (const int*)lbGetArray(r, st, nv * 4, sizeof(int));
		mesh->boneWeights = (const float*)lbGetArray(r, st, nv * 4, sizeof(float));
	}
	rig->meshes = meshes;
	rig->clipCount = lbGetCount(r, 1 << 20);
	lbClip* clips = (lbClip*)lbStoreAlloc(st, sizeof(lbClip) * (size_t)(rig->clipCount ? rig->clipCount : 1));
	if (!clips)
		r->failed = true;
	for (int c = 0; c < rig->clipCount && !r->failed; ++c)
	{
		lbClip* clip = &clips[c];
		clip->name = lbGetString(r, st, 1 << 20);
		lbGet(r, &clip->duration, sizeof clip->duration);
		clip->boneCount = n;
		clip->trackCount = lbGetCount(r, LB_MAX_BONES * 4);
		lbClipTrack* tracks = (lbClipTrack*)lbStoreAlloc(st, sizeof(lbClipTrack) * (size_t)(clip->trackCount ? clip->trackCount : 1));
		if (!tracks)
		{
			r->failed = true;
			break;
		}
		for (int t = 0; t < clip->trackCount && !r->failed; ++t)
		{
			lbClipTrack* tr = &tracks[t];
			tr->bone = lbGetCount(r, n - 1);
			tr->positionCount = lbGetCount(r, INT32_MAX);
			tr->rotationCount = lbGetCount(r, INT32_MAX);
			tr->scaleCount = lbGetCount(r, INT32_MAX);
			tr->positionTimes = (const float*)lbGetArray(r, st, (size_t)tr->positionCount, sizeof(float));
			tr->positions = (const lbVec3*)lbGetArray(r, st, (size_t)tr->positionCount, sizeof(lbVec3));
			tr->rotationTimes = (const float*)lbGetArray(r, st, (size_t)tr->rotationCount, sizeof(float));
			tr->rotations = (const lbQuat*)lbGetArray(r, st, (size_t)tr->rotationCount, sizeof(lbQuat));
			tr->scaleTimes = (const float*)lbGetArray(r, st, (size_t)tr->scaleCount, sizeof(float));
			tr->scales = (const lbVec3*)lbGetArray(r, st, (size_t)tr->scaleCount, sizeof(lbVec3));
		}
		clip->tracks = tracks;
		if (!r->failed && rig->skeleton && lbValidateClip(clip, rig->skeleton) != lb_ok)
			r->failed = true;
	}
	rig->clips = clips;
	lbGet(r, &rig->unitScale, sizeof rig->unitScale);
	lbGet(r, &rig->sourceUp, sizeof rig->sourceUp);
	lbGet(r, &rig->axisRotation, sizeof rig->axisRotation);
	char format[16] = "";
	int fl = lbGetCount(r, (int)sizeof format - 1);
	lbGet(r, format, (size_t)fl);
	rig->format = lbImportFormats[0][1];
	for (size_t k = 0; k < sizeof lbImportFormats / sizeof lbImportFormats[0]; ++k)
		if (strcmp(format, lbImportFormats[k][1]) == 0)
			rig->format = lbImportFormats[k][1];
	rig->warningCount = lbGetCount(r, INT32_MAX);
	lbGet(r, rig->report, sizeof rig->report);
	rig->report[sizeof rig->report - 1] = 0;
	if (r->failed || r->at != r->size)
	{
		lbDestroyImportedRig(rig);
		return lbReport(lb_errorFileFormat, "lbImportRig: the isolated parser sent back a malformed rig (%zu of %zu bytes read)",
						r->at, r->size);
	}
	*outRig = rig;
	return lb_ok;
}

// The child's last error, sent back with its code.
typedef struct lbChildLog
{
	lbResult code;
	char message[768];
} lbChildLog;

static void lbChildLogFcn(lbLogLevel level, lbResult code, const char* message, void* ctx)
{
	lbChildLog* log = (lbChildLog*)ctx;
	if (level == lb_logError)
	{
		log->code = code;
		snprintf(log->message, sizeof log->message, "%s", message ? message : "");
	}
}

static bool lbWriteAll(int fd, const void* data, size_t size)
{
	const unsigned char* p = (const unsigned char*)data;
	while (size > 0)
	{
		ssize_t k = write(fd, p, size);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		size -= (size_t)k;
	}
	return true;
}

static lbResult lbImportRigIsolated(const char* path, const lbImportDef* def, lbImportedRig** outRig)
{
	int fds[2];
	if (pipe(fds) != 0)
		return lbReport(lb_errorIo, "lbImportRig: cannot create a pipe for the isolated parser");
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
	{
		close(fds[0]);
		close(fds[1]);
		return lbReport(lb_errorIo, "lbImportRig: cannot start the isolated parser (fork failed)");
	}
	if (pid == 0)
	{
		// Child: limits, the import itself, then everything down the pipe.
		close(fds[0]);
		signal(SIGPIPE, SIG_DFL);
		struct rlimit lim;
		lim.rlim_cur = lim.rlim_max = 0;
		setrlimit(RLIMIT_CORE, &lim);
		// Not under AddressSanitizer: it reserves terabytes of address space up front, so any
		// address-space limit makes every allocation in the child fail.
		if (def->isolateMemory > 0 && !LB_IMPORT_ASAN)
		{
			lim.rlim_cur = lim.rlim_max = (rlim_t)def->isolateMemory;
			setrlimit(RLIMIT_AS, &lim);
		}
		if (def->isolateSeconds > 0.0f)
		{
			lim.rlim_cur = (rlim_t)ceilf(def->isolateSeconds);
			lim.rlim_max = lim.rlim_cur + 1;
			setrlimit(RLIMIT_CPU, &lim);
		}
		if (def->isolateStack > 0)
		{
			lim.rlim_cur = lim.rlim_max = (rlim_t)def->isolateStack;
			setrlimit(RLIMIT_STACK, &lim);
		}
		lbChildLog log;
		memset(&log, 0, sizeof log);
		lbSetLogFcn(lbChildLogFcn, &log);
		lbImportDef inner = *def;
		inner.isolate = false;
		lbImportedRig* rig = NULL;
		lbResult r = lbImportRig(path, &inner, &rig);
		lbByteBuf b = { NULL, 0, 0, false };
		uint32_t magic = 0x6C62726Fu;
		lbPut(&b, &magic, sizeof magic);
		lbPutInt(&b, (int)r);
		lbPutString(&b, r == lb_ok ? "" : log.message);
		if (r == lb_ok)
			lbSerializeRig(&b, rig);
		uint64_t size = b.size;
		bool ok = !b.failed && lbWriteAll(fds[1], &size, sizeof size) && lbWriteAll(fds[1], b.data, b.size);
		close(fds[1]);
		_exit(ok ? 0 : 3);
	}
	close(fds[1]);
	// Parent: read until the child closes the pipe, within a wall-clock limit (a hang in the
	// parser that does not burn CPU time is caught here).
	lbByteBuf in = { NULL, 0, 0, false };
	const double wallSeconds = def->isolateSeconds > 0.0f ? 2.0 * (double)def->isolateSeconds + 5.0 : 1.0e9;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	bool timedOut = false;
	unsigned char chunk[65536];
	for (;;)
	{
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double left = wallSeconds - ((double)(now.tv_sec - t0.tv_sec) + 1.0e-9 * (double)(now.tv_nsec - t0.tv_nsec));
		if (left <= 0.0)
		{
			timedOut = true;
			break;
		}
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		int pr = poll(&pfd, 1, left > 1.0e6 ? -1 : (int)(left * 1000.0) + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			continue;
		ssize_t k = read(fds[0], chunk, sizeof chunk);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		lbPut(&in, chunk, (size_t)k);
	}
	close(fds[0]);
	if (timedOut)
		kill(pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
	{
	}
	lbResult result;
	if (timedOut)
		result = lbReport(lb_errorFileFormat, "lbImportRig: '%s': the parser did not finish within %.0f s (killed)", path,
						  wallSeconds);
	else if (WIFSIGNALED(status))
	{
		int sig = WTERMSIG(status);
		const char* what = sig == SIGXCPU ? "ran out of its CPU time limit"
						   : sig == SIGABRT ? "aborted (a failed assertion or an allocation over the memory limit)"
						   : sig == SIGSEGV ? "crashed (segmentation fault or stack overflow)"
						   : sig == SIGBUS	? "crashed (bus error)"
						   : sig == SIGFPE	? "crashed (arithmetic exception)"
						   : sig == SIGKILL ? "was killed (memory or time limit)"
											: "was ended by a signal";
		result = lbReport(lb_errorFileFormat, "lbImportRig: '%s': the parser %s (signal %d); the file is malformed or hostile",
						  path, what, sig);
	}
	else if (in.failed)
		result = lbReport(lb_errorOutOfMemory, "lbImportRig: '%s': out of memory reading the isolated parser's result", path);
	else
	{
		lbByteReader rd = { in.data, in.size, 0, false };
		uint64_t size = 0;
		uint32_t magic = 0;
		int code = 0;
		lbGet(&rd, &size, sizeof size);
		lbGet(&rd, &magic, sizeof magic);
		lbGet(&rd, &code, sizeof code);
		if (rd.failed || magic != 0x6C62726Fu || size != in.size - sizeof size || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
			result = lbReport(lb_errorFileFormat, "lbImportRig: '%s': the parser exited (status %d) without a result", path,
							  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		else if (code != lb_ok)
		{
			int len = lbGetCount(&rd, 767);
			char msg[768] = "";
			lbGet(&rd, msg, (size_t)len);
			msg[len] = 0;
			result = lbReport((lbResult)code, "%s", msg[0] ? msg : "lbImportRig: the import failed");
		}
		else
		{
			int len = lbGetCount(&rd, 767);
			rd.at += (size_t)len;
			result = lbDeserializeRig(&rd, outRig);
		}
	}
	lbFree(in.data);
	return result;
}
