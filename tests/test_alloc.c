// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The allocator hook: a counting allocator sees every allocation of the core library (skeletons,
// poses, worlds with every scene builder, meshes and heightfields with their BVH and tiles) and gets
// every byte back; aligned blocks, resizing, changing the hook while blocks are alive; the version.
#include "test_macros.h"

#include "limber/limber.h"

#include <stdint.h>

typedef struct lbCounter
{
	long long allocs, frees;
	long long liveBytes, peakBytes;
	int failAfter; // > 0: the n-th allocation from now fails
} lbCounter;

static void* lbCountAlloc(size_t size, void* userContext)
{
	lbCounter* c = (lbCounter*)userContext;
	if (c->failAfter > 0 && --c->failAfter == 0)
		return NULL;
	void* p = malloc(size);
	if (p)
	{
		++c->allocs;
		c->liveBytes += (long long)size;
		if (c->liveBytes > c->peakBytes)
			c->peakBytes = c->liveBytes;
	}
	return p;
}

static void lbCountFree(void* memory, size_t size, void* userContext)
{
	lbCounter* c = (lbCounter*)userContext;
	++c->frees;
	c->liveBytes -= (long long)size;
	free(memory);
}

static int lbLogged;
static void lbCountLog(lbLogLevel level, lbResult code, const char* message, void* userContext)
{
	(void)level;
	(void)code;
	(void)message;
	(void)userContext;
	++lbLogged;
}

static void VersionMatchesHeader(void)
{
	lbVersion v = lbGetVersion();
	ENSURE(v.major == LB_VERSION_MAJOR && v.minor == LB_VERSION_MINOR && v.revision == LB_VERSION_PATCH);
}

static void CoreReturnsEveryByte(void)
{
	lbCounter c = { 0 };
	lbSetAllocator(lbCountAlloc, lbCountFree, &c);
	for (int r = 0; r < lb_rigCount; ++r)
	{
		lbSkeleton* s = lbCreateReferenceRig((lbReferenceRig)r);
		ENSURE(s != NULL);
		lbPose pose = lbCreatePose(s);
		ENSURE(pose.local != NULL);
		lbDestroyPose(&pose);
		lbDestroySkeleton(s);
	}
	long long afterRigs = c.allocs;
	ENSURE(afterRigs >= 4);
	for (int k = lb_sceneFlat; k < lb_sceneCount; ++k)
	{
		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* w = lbCreateWorld(&wd);
		ENSURE(w != NULL);
		lbSceneDef p = lbDefaultSceneDef((lbSceneKind)k);
		ENSURE(lbBuildScene(w, &p) == lb_ok);
		lbQueryInput in = lbDefaultQueryInput();
		in.start = LB_LITERAL(lbVec3){ 0.5f, 0.25f, 5.0f };
		in.end = LB_LITERAL(lbVec3){ 0.5f, 0.25f, -5.0f };
		(void)lbWorld_RayCast(w, &in);
		lbDestroyWorld(w);
	}
	// The rocky builder as a mesh goes through the BVH, as a heightfield through the tiles.
	for (int asMesh = 0; asMesh < 2; ++asMesh)
	{
		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* w = lbCreateWorld(&wd);
		lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
		ENSURE(lbSceneDef_Set(&p, "as_mesh", (float)asMesh) == lb_ok);
		ENSURE(lbBuildScene(w, &p) == lb_ok);
		lbShapeInfo info;
		ENSURE(lbWorld_GetShapeInfo(w, 0, &info));
		lbDestroyWorld(w);
	}
	lbSetAllocator(NULL, NULL, NULL);
	ENSURE(c.allocs > afterRigs + 2 * (lb_sceneCount - 1));
	ENSURE(c.allocs == c.frees);
	ENSURE(c.liveBytes == 0);
	ENSURE(c.peakBytes > 0);
	printf("    %lld allocations, peak %.1f MB, all returned\n", c.allocs, (double)c.peakBytes / (1 << 20));
}

static void AlignedResizedAndZeroed(void)
{
	lbCounter c = { 0 };
	lbSetAllocator(lbCountAlloc, lbCountFree, &c);
	size_t aligns[] = { 1, 16, 64, 4096, (size_t)2 << 20 };
	for (int i = 0; i < 5; ++i)
	{
		unsigned char* p = (unsigned char*)lbAllocAligned(1000, aligns[i]);
		ENSURE(p != NULL && ((uintptr_t)p % (aligns[i] < 16 ? 16 : aligns[i])) == 0);
		memset(p, 0xab, 1000);
		lbFree(p);
	}
	int* z = (int*)lbAllocZeroed(256 * sizeof(int));
	int sum = 0;
	for (int i = 0; i < 256; ++i)
		sum += z[i];
	ENSURE(sum == 0);
	for (int i = 0; i < 256; ++i)
		z[i] = i;
	z = (int*)lbRealloc(z, 1024 * sizeof(int));
	ENSURE(z != NULL && z[255] == 255 && z[17] == 17);
	z = (int*)lbRealloc(z, 8 * sizeof(int));
	ENSURE(z != NULL && z[7] == 7);
	lbFree(z);
	lbFree(NULL);
	lbLogged = 0;
	lbSetLogFcn(lbCountLog, NULL);
	ENSURE(lbAllocAligned(16, 48) == NULL && lbLogged == 1); // not a power of two
	lbSetLogFcn(NULL, NULL);
	lbSetAllocator(NULL, NULL, NULL);
	ENSURE(c.allocs == c.frees && c.liveBytes == 0);
}

static void BlocksGoBackToTheirHook(void)
{
	lbCounter a = { 0 }, b = { 0 };
	lbSetAllocator(lbCountAlloc, lbCountFree, &a);
	lbSkeleton* s = lbCreateReferenceRig(lb_rigMixamo);
	lbSetAllocator(lbCountAlloc, lbCountFree, &b);
	lbPose pose = lbCreatePose(s);
	lbSetAllocator(NULL, NULL, NULL);
	lbDestroySkeleton(s);
	lbDestroyPose(&pose);
	ENSURE(a.allocs == 1 && a.frees == 1 && a.liveBytes == 0);
	ENSURE(b.allocs == 1 && b.frees == 1 && b.liveBytes == 0);
	// Half a hook is refused (reported) and leaves malloc and free in place.
	lbLogged = 0;
	lbSetLogFcn(lbCountLog, NULL);
	lbSetAllocator(lbCountAlloc, NULL, &a);
	lbSetLogFcn(NULL, NULL);
	ENSURE(lbLogged == 1);
	void* p = lbAlloc(10);
	lbFree(p);
	ENSURE(a.allocs == 1);
}

static void OutOfMemoryIsReported(void)
{
	lbCounter c = { 0 };
	lbSetLogFcn(NULL, NULL);
	// Every allocation of a world with a rocky mesh fails in turn; each failure is a clean refusal.
	for (int n = 1; n < 40; ++n)
	{
		c.failAfter = n;
		lbSetAllocator(lbCountAlloc, lbCountFree, &c);
		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* w = lbCreateWorld(&wd);
		if (w)
		{
			lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
			(void)lbSceneDef_Set(&p, "as_mesh", 1.0f);
			(void)lbBuildScene(w, &p);
			lbDestroyWorld(w);
		}
		lbSetAllocator(NULL, NULL, NULL);
		ENSURE(c.allocs == c.frees && c.liveBytes == 0);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(VersionMatchesHeader);
	RUN_TEST(CoreReturnsEveryByte);
	RUN_TEST(AlignedResizedAndZeroed);
	RUN_TEST(BlocksGoBackToTheirHook);
	RUN_TEST(OutOfMemoryIsReported);
	TEST_MAIN_END();
}
