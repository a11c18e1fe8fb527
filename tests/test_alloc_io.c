// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The allocator hook over the io layer: importing a rig (in process and isolated), baking it back to
// glTF, parsing and running a scenario and printing its report allocate through the hook and give
// every byte back. (assimp and cJSON keep their own allocators.)
#include "test_macros.h"

#include "limber/limber.h"
#include "limber/import.h"
#include "limber/scenario.h"

#include <sys/stat.h>

#define MODELS "/usr/share/assimp/models"

typedef struct lbCounter
{
	long long allocs, frees, liveBytes;
} lbCounter;

static void* lbCountAlloc(size_t size, void* userContext)
{
	lbCounter* c = (lbCounter*)userContext;
	void* p = malloc(size);
	if (p)
	{
		++c->allocs;
		c->liveBytes += (long long)size;
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

static void ImportAndExportReturnEveryByte(void)
{
	struct stat st;
	if (stat(MODELS "/BVH/01_01.bvh", &st) != 0)
	{
		printf("    skipped: " MODELS " missing (apt-get install assimp-testmodels, or make deps)\n");
		return;
	}
	lbCounter c = { 0 };
	lbSetAllocator(lbCountAlloc, lbCountFree, &c);
	for (int isolate = 0; isolate < 2; ++isolate)
	{
		lbImportDef def = lbDefaultImportDef();
		def.isolate = isolate != 0;
#if defined(__SANITIZE_ADDRESS__)
		def.isolateMemory = 0; // ASan reserves terabytes of address space: no address-space limit
#endif
		lbImportedRig* rig = NULL;
		ENSURE(lbImportRig(MODELS "/BVH/01_01.bvh", &def, &rig) == lb_ok && rig);
		if (rig && rig->clipCount > 0)
		{
			int n = rig->skeleton->boneCount, frames = 10;
			lbTransform* local = (lbTransform*)lbAlloc(sizeof(lbTransform) * (size_t)n * (size_t)frames);
			for (int f = 0; f < frames; ++f)
				for (int b = 0; b < n; ++b)
					local[f * n + b] = lbSkeleton_GetRestLocal(rig->skeleton, b);
			lbExportDef ed = lbDefaultExportDef();
			ENSURE(lbExportClip(LB_BINARY_DIR "/alloc_io.gltf", lb_exportGltf, rig->skeleton, local, frames, 30.0f, &ed) == lb_ok);
			lbFree(local);
		}
		lbDestroyImportedRig(rig);
	}
	lbSetAllocator(NULL, NULL, NULL);
	ENSURE(c.allocs > 10);
	ENSURE(c.allocs == c.frees && c.liveBytes == 0);
	printf("    %lld allocations, all returned\n", c.allocs);
}

static void ScenarioRunReturnsEveryByte(void)
{
	const char* names[] = { "foot_idle_stairs_mannequin.json", "climb_wall_mixamo.json", "prone_crawl_flat_mannequin.json" };
	for (int i = 0; i < 3; ++i)
	{
		char path[1024];
		snprintf(path, sizeof path, "%s/scenarios/%s", LB_SOURCE_DIR, names[i]);
		struct stat st;
		if (stat(path, &st) != 0)
			continue;
		lbCounter c = { 0 };
		lbSetAllocator(lbCountAlloc, lbCountFree, &c);
		char msg[512];
		lbScenario* s = lbLoadScenario(path, msg, (int)sizeof msg);
		ENSURE(s != NULL);
		lbResult r = lb_ok;
		lbRun* run = s ? lbCreateRun(s, &r) : NULL;
		ENSURE(run != NULL);
		for (int f = 0; run && f < 20; ++f)
			ENSURE(lbRun_Step(run) == lb_ok);
		char* text = run ? lbRun_ReportJson(run, false) : NULL;
		ENSURE(text != NULL);
		lbFreeText(text);
		lbDestroyRun(run);
		lbDestroyScenario(s);
		lbSetAllocator(NULL, NULL, NULL);
		ENSURE(c.allocs > 3);
		ENSURE(c.allocs == c.frees && c.liveBytes == 0);
		printf("    %s: %lld allocations, all returned\n", names[i], c.allocs);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(ImportAndExportReturnEveryByte);
	RUN_TEST(ScenarioRunReturnsEveryByte);
	TEST_MAIN_END();
}
