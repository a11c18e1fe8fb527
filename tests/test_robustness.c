// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Bad input found by fuzzing and by hand, each kept as a case: a file or a call that once hung,
// read out of bounds, took quadratic time, asked for gigabytes, overflowed, or returned lb_ok
// with a non-finite or silently altered result. Every one must now give a clear error.
#define _POSIX_C_SOURCE 200809L
#include "limber/import.h"
#include "limber/limber.h"
#include "limber/rigs.h"
#include "limber/scenario.h"
#include "limber/scenes.h"
#include "test_macros.h"

#include <float.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

// assimp 5.2 leaks inside its own error paths on some malformed files (blocks allocated and lost
// within libassimp); limber's own memory is still checked.
const char* __lsan_default_suppressions(void);
const char* __lsan_default_suppressions(void)
{
	return "leak:libassimp.so\n";
}

typedef struct lbLogCapture
{
	int errors;
	lbResult last;
	char message[1024];
} lbLogCapture;

static lbLogCapture lbCap;

static void lbCaptureLog(lbLogLevel level, lbResult code, const char* message, void* ctx)
{
	(void)ctx;
	if (level == lb_logError)
	{
		lbCap.errors++;
		lbCap.last = code;
		snprintf(lbCap.message, sizeof lbCap.message, "%s", message);
	}
}

static void lbResetCapture(void)
{
	memset(&lbCap, 0, sizeof lbCap);
}

static char lbTempDir[512];

static const char* lbTempPath(const char* name)
{
	static char buf[8][1024];
	static int slot = 0;
	slot = (slot + 1) % 8;
	snprintf(buf[slot], sizeof buf[slot], "%s/%s", lbTempDir, name);
	return buf[slot];
}

static void lbWriteFile(const char* path, const char* text, size_t length)
{
	FILE* f = fopen(path, "wb");
	if (!f)
		return;
	fwrite(text, 1, length, f);
	fclose(f);
}

// A hang must fail the test, not stall the suite: the watchdog ends the process with a message.
static const char* lbWatchdogWhat = "";
static void lbWatchdog(int sig)
{
	(void)sig;
	static const char msg[] = "  watchdog: a call did not return in time: ";
	if (write(1, msg, sizeof msg - 1) < 0 || write(1, lbWatchdogWhat, strlen(lbWatchdogWhat)) < 0 || write(1, "\n", 1) < 0)
		_exit(3);
	_exit(2);
}

static void lbArmWatchdog(const char* what, unsigned seconds)
{
	lbWatchdogWhat = what;
	signal(SIGALRM, lbWatchdog);
	alarm(seconds);
}

static double lbNow(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1.0e-9 * (double)ts.tv_nsec;
}

// A minimal valid BVH: a root with six channels and a child with three, then `motion` as the data.
static void lbWriteBvh(const char* path, const char* channelsRoot, const char* motion)
{
	char text[4096];
	int n = snprintf(text, sizeof text,
					 "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS %s\n  JOINT Spine\n  {\n    OFFSET 0 10 0\n"
					 "    CHANNELS 3 Zrotation Xrotation Yrotation\n    End Site\n    {\n      OFFSET 0 10 0\n    }\n  }\n}\n"
					 "MOTION\nFrames: 2\nFrame Time: 0.033333\n%s",
					 channelsRoot, motion);
	lbWriteFile(path, text, (size_t)n);
}

static lbWorld* lbCreateWorldDefault(void)
{
	lbWorldDef wd = lbDefaultWorldDef();
	return lbCreateWorld(&wd);
}

// ---------------------------------------------------------------------------------------------
// 1. The BVH pre-scan once looped forever on a vertical tab or form feed before a non-number.

static void TestBvhVerticalTabDoesNotHang(void)
{
	static const char* const cases[] = { "0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\vx\n",
										 "0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0\fx\n",
										 "0 0 0 0 0 0 0 0 0\n\v\v\vjunk\n", "0 0 0 0 0 0 0 0 0\n0 0 0\f\f\n" };
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
	{
		const char* path = lbTempPath("vtab.bvh");
		lbWriteBvh(path, "6 Xposition Yposition Zposition Zrotation Xrotation Yrotation", cases[k]);
		lbImportDef def = lbDefaultImportDef();
		def.requireHumanoid = false;
		def.isolate = false;
		lbImportedRig* rig = NULL;
		lbArmWatchdog("lbImportRig on a BVH line with a vertical tab or form feed", 20);
		lbResult r = lbImportRig(path, &def, &rig);
		alarm(0);
		// Either read (the control characters are white space) or refused; never a hang.
		ENSURE(r == lb_ok || r == lb_errorFileFormat);
		lbDestroyImportedRig(rig);
	}
}

// 5. CHANNELS counts summed past INT_MAX once overflowed (signed) before the check.
static void TestBvhChannelOverflow(void)
{
	const char* path = lbTempPath("channels.bvh");
	lbWriteBvh(path, "2147483647 Xposition", "0 0 0\n");
	lbImportDef def = lbDefaultImportDef();
	def.requireHumanoid = false;
	def.isolate = false;
	lbImportedRig* rig = NULL;
	lbResetCapture();
	ENSURE(lbImportRig(path, &def, &rig) == lb_errorFileFormat);
	ENSURE(rig == NULL);
	ENSURE(strstr(lbCap.message, "channel") != NULL);
}

// ---------------------------------------------------------------------------------------------
// 3. A 100,000-entry timeline (the documented maximum) once took about a minute to load.

static void TestLargeTimelineLoadsFast(void)
{
	const int n = 100000;
	size_t cap = (size_t)n * 64 + 256;
	char* text = (char*)malloc(cap);
	ENSURE(text != NULL);
	if (!text)
		return;
	size_t used = (size_t)snprintf(text, cap, "{\"frames\": 100000, \"dt\": 0.01, \"timeline\": [");
	// Times in descending order with repeats: the sort has work to do and must keep file order
	// among equal times.
	for (int i = 0; i < n; ++i)
		used += (size_t)snprintf(text + used, cap - used, "%s{\"t\": %g, \"input\": \"teleport\", \"value\": [%d, 0, 0]}",
								 i ? "," : "", (double)((n - 1 - i) / 2) * 0.01, i);
	snprintf(text + used, cap - used, "]}");
	char msg[512];
	double t0 = lbNow();
	lbArmWatchdog("lbParseScenario on a 100,000-entry timeline", 120);
	lbScenario* s = lbParseScenario(text, NULL, msg, sizeof msg);
	alarm(0);
	double seconds = lbNow() - t0;
	printf("  100000-entry timeline parsed in %.3f s\n", seconds);
	ENSURE(s != NULL);
	if (s)
	{
		ENSURE(s->eventCount == n);
		int unsorted = 0;
		for (int i = 1; i < s->eventCount; ++i)
		{
			const lbScenarioEvent* a = &s->events[i - 1];
			const lbScenarioEvent* b = &s->events[i];
			if (a->time > b->time || (a->time == b->time && !(a->vector.x < b->vector.x)))
				++unsorted;
		}
		ENSURE(unsorted == 0);
		// The file's last two entries (time 0) come first, in file order.
		ENSURE(s->events[0].time == 0.0f && s->events[0].vector.x == (float)(n - 2));
		ENSURE(s->events[1].vector.x == (float)(n - 1));
	}
	// Generous against slow machines and sanitizers; the quadratic version took about a minute.
	ENSURE(seconds < 10.0);
	lbDestroyScenario(s);
	free(text);
}

// ---------------------------------------------------------------------------------------------
// 4. A 100-byte scenario once asked the rocky builder for tens of gigabytes.

static void TestRockyMemoryBudget(void)
{
	lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
	p.size = 1600.0f;
	p.resolution = 0.1f; // 16,000 cells a side: 1 GB of heights alone, 40 GB as a mesh
	p.asMesh = 1.0f;
	lbWorld* w = lbCreateWorldDefault();
	lbResetCapture();
	double t0 = lbNow();
	ENSURE(lbBuildScene(w, &p) == lb_errorOutOfMemory);
	ENSURE(lbNow() - t0 < 1.0); // refused up front, not after trying
	ENSURE(strstr(lbCap.message, "MB") != NULL && strstr(lbCap.message, "budget") != NULL);
	// Within the budget it builds; a smaller budget refuses the same terrain.
	p.size = 20.0f;
	ENSURE(lbBuildScene(w, &p) == lb_ok);
	p.memoryBudget = 1u << 20;
	ENSURE(lbBuildScene(w, &p) == lb_errorOutOfMemory);
	lbDestroyWorld(w);

	// Through a scenario file: the runner refuses with the figure, before allocating.
	static const char text[] = "{\"world\": {\"shapes\": [{\"builder\": \"rocky\", \"params\": "
							   "{\"size\": 1600, \"resolution\": 0.1, \"as_mesh\": 1}}]}, \"frames\": 2}";
	char msg[512];
	lbScenario* s = lbParseScenario(text, NULL, msg, sizeof msg);
	ENSURE(s != NULL);
	if (s)
	{
		ENSURE(s->memoryBudget == LB_DEFAULT_MEMORY_BUDGET);
		lbResult r = lb_ok;
		lbResetCapture();
		lbRun* run = lbCreateRun(s, &r);
		ENSURE(run == NULL && r == lb_errorOutOfMemory);
		ENSURE(strstr(lbCap.message, "budget") != NULL);
		lbDestroyRun(run);
		lbDestroyScenario(s);
	}
}

// ---------------------------------------------------------------------------------------------
// 5. Float-to-int overflow in the rocky builder and its noise; 6. stairs count truncated.

static void TestRockyExtremeParams(void)
{
	lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
	lbWorld* w = lbCreateWorldDefault();
	p.size = 1.0e30f;
	lbResetCapture();
	ENSURE(lbBuildScene(w, &p) == lb_errorInvalidArgument || lbBuildScene(w, &p) == lb_errorOutOfMemory);
	p = lbDefaultSceneDef(lb_sceneRocky);
	p.resolution = 1.0e-30f;
	ENSURE(lbBuildScene(w, &p) != lb_ok);
	// A tiny scale makes a / scale huge: the height is still finite and within the amplitude.
	p = lbDefaultSceneDef(lb_sceneRocky);
	p.scale = 1.0e-30f;
	float h = lbSceneRockyHeight(&p, 3.0f, -7.0f);
	ENSURE(lbIsValidFloat(h) && fabsf(h) <= p.amplitude);
	h = lbSceneRockyHeight(&p, 1.0e30f, -1.0e30f);
	ENSURE(lbIsValidFloat(h) && fabsf(h) <= p.amplitude);
	p = lbDefaultSceneDef(lb_sceneRocky);
	h = lbSceneRockyHeight(&p, 3.0e38f, -3.0e38f);
	ENSURE(lbIsValidFloat(h) && fabsf(h) <= p.amplitude);
	p.scale = 1.0e-30f;
	ENSURE(lbBuildScene(w, &p) == lb_errorInvalidArgument);
	lbDestroyWorld(w);
}

static void TestStairsCountMustBeWhole(void)
{
	lbSceneDef p = lbDefaultSceneDef(lb_sceneStairs);
	ENSURE(lbSceneDef_Set(&p, "count", 2.5f) == lb_ok); // refused when built, as every range

	lbWorld* w = lbCreateWorldDefault();
	ENSURE(lbBuildScene(w, &p) == lb_errorInvalidArgument);
	p.count = 3.0f;
	ENSURE(lbBuildScene(w, &p) == lb_ok);
	lbDestroyWorld(w);
	char msg[512];
	lbScenario* s = lbParseScenario("{\"world\": {\"shapes\": [{\"builder\": \"stairs\", \"params\": {\"count\": 2.5}}]}}",
									NULL, msg, sizeof msg);
	ENSURE(s == NULL);
	ENSURE(strstr(msg, "count") != NULL);
	lbDestroyScenario(s);
}

// 6. Loading a directory as a scenario once said "file too large or out of memory".
static void TestLoadScenarioDirectory(void)
{
	char msg[512];
	lbScenario* s = lbLoadScenario(lbTempDir, msg, sizeof msg);
	ENSURE(s == NULL);
	ENSURE(strstr(msg, "directory") != NULL);
	ENSURE(strstr(msg, "too large") == NULL);
	lbDestroyScenario(s);
}

// ---------------------------------------------------------------------------------------------
// Isolated import: the same rig as in process; a crash or blow-up in the parser is an error.

#define MODELS "/usr/share/assimp/models"

static bool lbHaveFile(const char* path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static void TestIsolatedImportMatches(void)
{
	static const char* const files[] = { MODELS "/BVH/01_01.bvh", MODELS "/X/BCN_Epileptic.X",
										 MODELS "/glTF2/simple_skin/simple_skin.gltf" };
	for (size_t k = 0; k < sizeof files / sizeof files[0]; ++k)
	{
		if (!lbHaveFile(files[k]))
		{
			printf("  skipped %s (assimp-testmodels not installed)\n", files[k]);
			continue;
		}
		lbImportDef def = lbDefaultImportDef();
		def.requireHumanoid = false;
		lbImportedRig *a = NULL, *b = NULL;
		ENSURE(lbImportRig(files[k], &def, &a) == lb_ok);
		def.isolate = true;
		ENSURE(lbImportRig(files[k], &def, &b) == lb_ok);
		if (!a || !b)
			continue;
		const lbSkeleton *sa = a->skeleton, *sb = b->skeleton;
		ENSURE(sa->boneCount == sb->boneCount && sa->fingerprint == sb->fingerprint);
		ENSURE(memcmp(sa->restModel, sb->restModel, sizeof(lbTransform) * (size_t)sa->boneCount) == 0);
		// Bone ends (01_01's toes, fingers and head) come back as they were.
		ENSURE((sa->ends == NULL) == (sb->ends == NULL));
		ENSURE(!sa->ends || !sb->ends || memcmp(sa->ends, sb->ends, sizeof(lbVec3) * (size_t)sa->boneCount) == 0);
		ENSURE(a->humanoidResult != lb_ok || memcmp(&a->humanoid, &b->humanoid, sizeof a->humanoid) == 0);
		ENSURE(memcmp(a->inverseBind, b->inverseBind, sizeof(lbTransform) * (size_t)sa->boneCount) == 0);
		ENSURE(a->humanoidResult == b->humanoidResult);
		ENSURE(b->humanoidResult != lb_ok || lbHumanoid_Check(&b->humanoid, sb) == lb_ok);
		ENSURE(a->meshCount == b->meshCount && a->clipCount == b->clipCount);
		for (int m = 0; m < a->meshCount && m < b->meshCount; ++m)
		{
			ENSURE(a->meshes[m].vertexCount == b->meshes[m].vertexCount && a->meshes[m].indexCount == b->meshes[m].indexCount);
			ENSURE(memcmp(a->meshes[m].positions, b->meshes[m].positions, sizeof(lbVec3) * (size_t)a->meshes[m].vertexCount) == 0);
			ENSURE(strcmp(a->meshes[m].name, b->meshes[m].name) == 0);
		}
		for (int c = 0; c < a->clipCount && c < b->clipCount; ++c)
		{
			ENSURE(a->clips[c].trackCount == b->clips[c].trackCount && a->clips[c].duration == b->clips[c].duration);
			for (int t = 0; t < a->clips[c].trackCount; ++t)
			{
				const lbClipTrack *ta = &a->clips[c].tracks[t], *tb = &b->clips[c].tracks[t];
				ENSURE(ta->bone == tb->bone && ta->rotationCount == tb->rotationCount);
				ENSURE(memcmp(ta->rotations, tb->rotations, sizeof(lbQuat) * (size_t)ta->rotationCount) == 0);
			}
		}
		ENSURE(strcmp(a->report, b->report) == 0 && strcmp(a->format, b->format) == 0);
		lbDestroyImportedRig(a);
		lbDestroyImportedRig(b);
	}
	// Errors come back with their code and message.
	lbImportDef def = lbDefaultImportDef();
	def.isolate = true;
	lbImportedRig* rig = NULL;
	const char* path = lbTempPath("bad.bvh");
	lbWriteBvh(path, "6 Xposition Yposition Zposition Zrotation Xrotation Yrotation", "1 2 3\n4 5 6 7 8\n1 1\n");
	lbResetCapture();
	ENSURE(lbImportRig(path, &def, &rig) == lb_errorFileFormat && rig == NULL);
	ENSURE(strstr(lbCap.message, "values") != NULL);
}

// A Collada instance_node cycle: assimp 5.2 recurses until the stack overflows.
static void lbWriteColladaCycle(const char* path)
{
	static const char text[] =
		"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
		"<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
		"  <asset><unit name=\"meter\" meter=\"1\"/><up_axis>Y_UP</up_axis></asset>\n"
		"  <library_nodes>\n"
		"    <node id=\"a\" name=\"a\"><instance_node url=\"#b\"/></node>\n"
		"    <node id=\"b\" name=\"b\"><instance_node url=\"#a\"/></node>\n"
		"  </library_nodes>\n"
		"  <library_visual_scenes><visual_scene id=\"Scene\" name=\"Scene\">\n"
		"    <node id=\"root\" name=\"root\"><instance_node url=\"#a\"/></node>\n"
		"  </visual_scene></library_visual_scenes>\n"
		"  <scene><instance_visual_scene url=\"#Scene\"/></scene>\n"
		"</COLLADA>\n";
	lbWriteFile(path, text, sizeof text - 1);
}

static void TestIsolatedParserCrash(void)
{
	const char* path = lbTempPath("cycle.dae");
	lbWriteColladaCycle(path);
	lbImportDef def = lbDefaultImportDef();
	def.isolate = true;
	lbImportedRig* rig = NULL;
	lbResetCapture();
	lbArmWatchdog("isolated import of a Collada instance_node cycle", 120);
	lbResult r = lbImportRig(path, &def, &rig);
	alarm(0);
	ENSURE(r == lb_errorFileFormat && rig == NULL);
	ENSURE(strstr(lbCap.message, "parser") != NULL || strstr(lbCap.message, "cycle") != NULL);
	printf("  %s\n", lbCap.message);
}

// ---------------------------------------------------------------------------------------------
// Files that crashed assimp 5.2 or came back with lb_ok and non-finite data (tests/data/import):
// each is refused by a pre-check or by the importer's own checks, in process and isolated. The
// .X file declares 2e9 vertices: only the isolated parser's memory limit stops it. Found by fuzzing
// the importer in process, each of these crashed, hung or overflowed inside assimp.

typedef struct lbBadFile
{
	const char* name;
	lbResult expect;
	const char* says;  // words the message must hold
	bool isolatedOnly; // the in-process parser would allocate tens of GB
	// Other words the same refusal may give, or NULL. Under AddressSanitizer the isolated parser
	// has no address-space limit (the sanitizer reserves terabytes up front): whether the .X file's
	// 2e9 vertices fail to allocate or run into the CPU limit first depends on the machine's memory.
	const char* orSays;
} lbBadFile;

static const lbBadFile lbBadFiles[] = {
	{ "gltf_skin_joints_over_matrices.gltf", lb_errorFileFormat, "one matrix per joint", false, NULL },
	{ "gltf_sparse_past_view.gltf", lb_errorFileFormat, "sparse", false, NULL },
	{ "gltf_count_2e9.gltf", lb_errorFileFormat, "count of 2000000000", false, NULL },
	// A component type past int's range (the pre-scan converted it to int: undefined behaviour).
	{ "gltf_component_type_huge.gltf", lb_errorFileFormat, "accessor 3 has a bad type", false, NULL },
	{ "gltf_sparse_component_type_huge.gltf", lb_errorFileFormat, "sparse", false, NULL },
	{ "collada_nan_matrix.dae", lb_errorFileFormat, "non-finite", false, NULL },
	{ "collada_1e39_matrix.dae", lb_errorFileFormat, "non-finite", false, NULL },
	{ "collada_instance_cycle.dae", lb_errorFileFormat, "cycle", false, NULL },
	// A letter among a triangle list's indices: assimp 5.2's parser never returned.
	{ "collada_index_not_a_number.dae", lb_errorFileFormat, "index list (<p>) holds 'x'", false, NULL },
	// A skin's vertex_weights declaring 1 vertex over 3 listed: assimp 5.2 read past its tables.
	{ "collada_weights_count_mismatch.dae", lb_errorFileFormat, "declares 1 vertices, its <vcount> lists 3", false, NULL },
	// A polylist polygon of 0 corners: assimp 5.2's triangulation failed an internal assert and
	// aborted the process.
	{ "collada_polygon_no_corners.dae", lb_errorFileFormat, "polygon of 0 corners", false, NULL },
	{ "x_count_2e9.x", lb_errorFileFormat, "could not be read", true, "ran out of its CPU time limit" },
};

static void TestBadFilesRefused(void)
{
	const bool sanitized = getenv("LB_SANITIZE_RUN") != NULL;
	for (size_t k = 0; k < sizeof lbBadFiles / sizeof lbBadFiles[0]; ++k)
	{
		const lbBadFile* bf = &lbBadFiles[k];
		char path[1024];
		snprintf(path, sizeof path, "%s/tests/data/import/%s", LB_SOURCE_DIR, bf->name);
		for (int isolate = bf->isolatedOnly ? 1 : 0; isolate < 2; ++isolate)
		{
			// Sanitizers reserve terabytes of address space: the isolated child's memory limit cannot apply.
			if (isolate && sanitized)
				continue;
			lbImportDef def = lbDefaultImportDef();
			def.requireHumanoid = false;
			def.isolate = isolate != 0;
			lbImportedRig* rig = (lbImportedRig*)&def; // must come back NULL
			lbResetCapture();
			lbArmWatchdog(bf->name, 120);
			lbResult r = lbImportRig(path, &def, &rig);
			alarm(0);
			printf("  %s%s: %s\n", bf->name, isolate ? " (isolated)" : "", lbCap.message);
			ENSURE(r == bf->expect);
			ENSURE(rig == NULL);
			ENSURE(strstr(lbCap.message, bf->name) != NULL);
			ENSURE(strstr(lbCap.message, bf->says) != NULL || (bf->orSays && strstr(lbCap.message, bf->orSays) != NULL));
			lbDestroyImportedRig(rig == (lbImportedRig*)&def ? NULL : rig);
		}
	}
}

// The same node-matrix check keeps a file whose matrices are finite and sane loading.
static void TestFiniteColladaStillLoads(void)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/data/import/collada_nan_matrix.dae", LB_SOURCE_DIR);
	size_t size = 0;
	FILE* f = fopen(path, "rb");
	ENSURE(f != NULL);
	if (!f)
		return;
	static char text[16384];
	size = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[size] = 0;
	char* nan = strstr(text, "nan");
	ENSURE(nan != NULL);
	if (!nan)
		return;
	memcpy(nan, "0.5", 3); // the same file with a finite translation
	const char* fixed = lbTempPath("finite.dae");
	lbWriteFile(fixed, text, size);
	lbImportDef def = lbDefaultImportDef();
	def.requireHumanoid = false;
	lbImportedRig* rig = NULL;
	ENSURE(lbImportRig(fixed, &def, &rig) == lb_ok);
	if (!rig)
		return;
	ENSURE(rig->skeleton->boneCount >= 1 && rig->meshCount == 1);
	for (int v = 0; v < rig->meshes[0].vertexCount; ++v)
		ENSURE(lbIsValidVec3(rig->meshes[0].positions[v]));
	ENSURE_NEAR(rig->skeleton->restModel[0].p.x, 0.5f, 1.0e-5f);
	lbDestroyImportedRig(rig);
}

// Large reproducers, written by the test.

// A text buffer that grows (the generated files run to megabytes).
typedef struct lbText
{
	char* data;
	size_t size, cap;
} lbText;

static void lbTextAdd(lbText* t, const char* format, ...)
{
	char line[512];
	va_list args;
	va_start(args, format);
	int n = vsnprintf(line, sizeof line, format, args);
	va_end(args);
	if (n < 0)
		return;
	if (t->size + (size_t)n + 1 > t->cap)
	{
		size_t cap = (t->cap ? t->cap * 2 : 65536) + (size_t)n;
		char* grown = (char*)realloc(t->data, cap);
		if (!grown)
			return;
		t->data = grown;
		t->cap = cap;
	}
	memcpy(t->data + t->size, line, (size_t)n + 1);
	t->size += (size_t)n;
}

static lbResult lbImportGenerated(const char* name, const lbText* t, lbImportedRig** outRig)
{
	const char* path = lbTempPath(name);
	lbWriteFile(path, t->data, t->size);
	lbImportDef def = lbDefaultImportDef();
	def.requireHumanoid = false;
	lbResetCapture();
	lbArmWatchdog(name, 120);
	lbResult r = lbImportRig(path, &def, outRig);
	alarm(0);
	printf("  %s: %s\n", name, r == lb_ok ? "loaded" : lbCap.message);
	return r;
}

// 7. A 20,000-joint file was matched node by node (quadratic) before the bone limit was checked.
// BVH and glTF joints are counted by the pre-scan; other formats are matched through a sorted
// name table and refused once the count is known.
static void TestManyJointsRefused(void)
{
	enum { N = 20000 };
	lbText t = { NULL, 0, 0 };
	lbTextAdd(&t, "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n");
	for (int k = 0; k < N; ++k)
		lbTextAdd(&t, " JOINT j%d\n {\n  OFFSET 0 1 0\n  CHANNELS 0\n  End Site\n  {\n   OFFSET 0 1 0\n  }\n }\n", k);
	lbTextAdd(&t, "}\nMOTION\nFrames: 1\nFrame Time: 0.0333\n0 0 0\n");
	lbImportedRig* rig = NULL;
	ENSURE(lbImportGenerated("joints20k.bvh", &t, &rig) == lb_errorBoneCount && rig == NULL);
	ENSURE(strstr(lbCap.message, "20001 joints") != NULL);

	// glTF: one skin naming 20,000 nodes.
	t.size = 0;
	lbTextAdd(&t, "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"skins\":[{\"joints\":[0");
	for (int k = 1; k < N; ++k)
		lbTextAdd(&t, ",%d", k);
	lbTextAdd(&t, "]}],\"nodes\":[{\"name\":\"r\",\"children\":[1");
	for (int k = 2; k < N; ++k)
		lbTextAdd(&t, ",%d", k);
	lbTextAdd(&t, "]}");
	for (int k = 1; k < N; ++k)
		lbTextAdd(&t, ",{\"name\":\"j%d\"}", k);
	lbTextAdd(&t, "]}");
	ENSURE(lbImportGenerated("joints20k.gltf", &t, &rig) == lb_errorBoneCount && rig == NULL);
	ENSURE(strstr(lbCap.message, "20000 joints") != NULL);

	// DirectX .X (no pre-scan): frames animated by name, at the limit and past it.
	static const int counts[2] = { 1000, 3000 };
	for (int c = 0; c < 2; ++c)
	{
		t.size = 0;
		lbTextAdd(&t, "xof 0303txt 0032\nFrame Root {\n FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,"
					  "0.0,0.0,0.0,1.0;; }\n");
		for (int k = 0; k < counts[c]; ++k)
			lbTextAdd(&t, " Frame j%d { FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,%d.0,0.0,1.0;; } }\n",
					  k, k % 7);
		lbTextAdd(&t, " Mesh m { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;; }\n}\nAnimationSet take {\n");
		for (int k = counts[c] - 1; k >= 0; --k)
			lbTextAdd(&t, " Animation { {j%d} AnimationKey { 0; 2; 0;4;1.0,0.0,0.0,0.0;;, 1;4;1.0,0.0,0.0,0.0;;; } }\n", k);
		lbTextAdd(&t, "}\n");
		lbResult r = lbImportGenerated(c == 0 ? "frames1k.x" : "frames3k.x", &t, &rig);
		if (c == 0)
		{
			// Every channel (listed in reverse) lands on the bone of its own name.
			ENSURE(r == lb_ok && rig != NULL);
			if (!rig)
				continue;
			ENSURE(rig->skeleton->boneCount == counts[c] && rig->clipCount == 1);
			const lbClip* clip = rig->clipCount > 0 ? &rig->clips[0] : NULL;
			ENSURE(clip && clip->trackCount == counts[c]);
			int matched = 0;
			for (int k = 0; clip && k < clip->trackCount; ++k)
			{
				char want[32];
				snprintf(want, sizeof want, "j%d", counts[c] - 1 - k);
				matched += strcmp(rig->skeleton->names[clip->tracks[k].bone], want) == 0;
				if (strcmp(rig->skeleton->names[clip->tracks[k].bone], want) == 0)
				{
					int j = atoi(want + 1);
					ENSURE_NEAR(lbLength(rig->skeleton->restLocal[clip->tracks[k].bone].p), (float)(j % 7) * rig->unitScale, 1.0e-4f);
				}
			}
			ENSURE(matched == counts[c]);
			lbDestroyImportedRig(rig);
			rig = NULL;
		}
		else
		{
			ENSURE(r == lb_errorBoneCount && rig == NULL);
			ENSURE(strstr(lbCap.message, "3000 bones") != NULL);
		}
	}
	free(t.data);
}

// Collada nodes nested 50,000 deep: assimp 5.2 recursed until its stack overflowed.
static void TestDeepColladaRefused(void)
{
	enum { N = 50000 };
	lbText t = { NULL, 0, 0 };
	lbTextAdd(&t, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" "
				  "version=\"1.4.1\">\n<library_visual_scenes><visual_scene id=\"S\" name=\"S\">\n");
	for (int k = 0; k < N; ++k)
		lbTextAdd(&t, "<node id=\"n%d\" name=\"n%d\">", k, k);
	for (int k = 0; k < N; ++k)
		lbTextAdd(&t, "</node>");
	lbTextAdd(&t, "\n</visual_scene></library_visual_scenes>\n<scene><instance_visual_scene url=\"#S\"/></scene>\n</COLLADA>\n");
	lbImportedRig* rig = NULL;
	ENSURE(lbImportGenerated("deep.dae", &t, &rig) == lb_errorFileFormat && rig == NULL);
	ENSURE(strstr(lbCap.message, "deep") != NULL);
	// Instances that fan out (each node instancing the next twice, 40 levels) expand to 2^40 nodes.
	t.size = 0;
	lbTextAdd(&t, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" "
				  "version=\"1.4.1\">\n<library_nodes>\n");
	for (int k = 0; k < 40; ++k)
		lbTextAdd(&t, "<node id=\"f%d\" name=\"f%d\"><instance_node url=\"#f%d\"/><instance_node url=\"#f%d\"/></node>\n", k, k, k + 1,
				  k + 1);
	lbTextAdd(&t, "<node id=\"f40\" name=\"f40\"/>\n</library_nodes>\n<library_visual_scenes><visual_scene id=\"S\" name=\"S\">"
				  "<node id=\"root\" name=\"root\"><instance_node url=\"#f0\"/></node></visual_scene></library_visual_scenes>\n"
				  "<scene><instance_visual_scene url=\"#S\"/></scene>\n</COLLADA>\n");
	ENSURE(lbImportGenerated("fanout.dae", &t, &rig) == lb_errorFileFormat && rig == NULL);
	ENSURE(strstr(lbCap.message, "expands") != NULL);
	free(t.data);
}

// ---------------------------------------------------------------------------------------------
// One error text for a rig file that fails, whoever shows it: the library (through the log hook,
// from lbCreateRun), the command-line tool and the viewer print the same line, naming the
// scenario, the file, what is wrong and the fix.

// First line a command writes (stdout and stderr), without the trailing newline.
static bool lbFirstLineOf(const char* command, char* out, size_t size)
{
	out[0] = 0;
	FILE* p = popen(command, "r");
	if (!p)
		return false;
	bool got = fgets(out, (int)size, p) != NULL;
	while (fgetc(p) != EOF)
	{
	}
	int status = pclose(p);
	out[strcspn(out, "\n")] = 0;
	return got && status != 0;
}

static void TestRigErrorSameEverywhere(void)
{
	static const struct
	{
		const char* rig;
		const char* says[3];
	} cases[] = {
		{ LB_SOURCE_DIR "/tests/data/import/collada_nan_matrix.dae", { "collada_nan_matrix.dae", "non-finite", "fix the node's matrix" } },
		{ "/usr/share/assimp/models/X/anim_test.x", { "anim_test.x", "missing pelvis", "rig.roles" } },
	};
	char tool[1024], viewer[1024];
	snprintf(tool, sizeof tool, "%s/limber", LB_BINARY_DIR);
	snprintf(viewer, sizeof viewer, "%s/limber-viewer", LB_BINARY_DIR);
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
	{
		if (!lbHaveFile(cases[k].rig))
		{
			printf("  skipped %s (not installed)\n", cases[k].rig);
			continue;
		}
		const char* path = lbTempPath("badrig.json");
		char text[1200];
		int n = snprintf(text, sizeof text, "{\"rig\": {\"file\": \"%s\"}, \"frames\": 2}", cases[k].rig);
		lbWriteFile(path, text, (size_t)n);
		char msg[512];
		lbScenario* s = lbLoadScenario(path, msg, (int)sizeof msg);
		ENSURE(s != NULL);
		if (!s)
			continue;
		s->isolateImport = true; // as the tool and the viewer do
		lbResetCapture();
		lbResult r = lb_ok;
		lbRun* run = lbCreateRun(s, &r);
		ENSURE(run == NULL && r != lb_ok);
		lbDestroyRun(run);
		lbDestroyScenario(s);
		const char* library = lbCap.message;
		for (int w = 0; w < 3; ++w)
			ENSURE(strstr(library, cases[k].says[w]) != NULL);
		printf("  %s\n", library);
		static const char* const prefixes[2] = { "limber: ", "limber-viewer: " };
		for (int app = 0; app < 2; ++app)
		{
			const char* exe = app == 0 ? tool : viewer;
			if (!lbHaveFile(exe))
			{
				printf("  skipped %s (not built)\n", exe);
				continue;
			}
			char command[3200], line[2048];
			if (app == 0)
				snprintf(command, sizeof command, "'%s' run '%s' 2>&1", exe, path);
			else
				snprintf(command, sizeof command, "'%s' '%s' --frames 1 --out '%s' 2>&1", exe, path, lbTempDir);
			ENSURE(lbFirstLineOf(command, line, sizeof line)); // fails, with a message
			size_t pre = strlen(prefixes[app]);
			ENSURE(strncmp(line, prefixes[app], pre) == 0);
			ENSURE(strcmp(line + (strncmp(line, prefixes[app], pre) == 0 ? pre : 0), library) == 0);
		}
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	snprintf(lbTempDir, sizeof lbTempDir, "%s/limber-test-robust-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(lbTempDir))
	{
		printf("cannot create a temporary directory\n");
		return 1;
	}
	setenv("TMPDIR", lbTempDir, 1);
	lbSetLogFcn(lbCaptureLog, NULL);
	RUN_TEST(TestBvhVerticalTabDoesNotHang);
	RUN_TEST(TestBvhChannelOverflow);
	RUN_TEST(TestLargeTimelineLoadsFast);
	RUN_TEST(TestRockyMemoryBudget);
	RUN_TEST(TestRockyExtremeParams);
	RUN_TEST(TestStairsCountMustBeWhole);
	RUN_TEST(TestLoadScenarioDirectory);
	RUN_TEST(TestBadFilesRefused);
	RUN_TEST(TestFiniteColladaStillLoads);
	RUN_TEST(TestManyJointsRefused);
	RUN_TEST(TestDeepColladaRefused);
	// Sanitizers reserve terabytes of address space: the isolated child's memory limit cannot apply.
	if (!getenv("LB_SANITIZE_RUN"))
	{
		RUN_TEST(TestIsolatedImportMatches);
		RUN_TEST(TestIsolatedParserCrash);
		RUN_TEST(TestRigErrorSameEverywhere);
	}
	lbSetLogFcn(NULL, NULL);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", lbTempDir);
	if (system(cmd) != 0)
		printf("could not remove the temporary directory\n");
	TEST_MAIN_END();
}
