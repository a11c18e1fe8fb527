// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The `limber` command-line tool as a user runs it: help and list succeed; every bad input exits
// non-zero with one line naming the problem; two runs of a file give identical reports (timing
// left out); --poses writes a header and one line per frame; --frames writes PNGs; --bake writes
// a clip that re-imports to the same motion; a character falling with no ground below ends the run
// with an error.
#define _POSIX_C_SOURCE 200809L
#include "limber/import.h"
#include "limber/motion.h"

#include "test_macros.h"

#include <stdlib.h>

#define TOOL LB_BINARY_DIR "/limber"
#define OUT LB_BINARY_DIR "/test_cli_out"

static int lbRunTool(const char* args, const char* stderrFile)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>'%s'", TOOL, args, stderrFile);
	int rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static int lbLines(const char* text)
{
	int n = 0;
	for (const char* c = text; c && *c; ++c)
		n += *c == '\n';
	return n;
}

static void HelpAndList(void)
{
	ENSURE(system("mkdir -p '" OUT "'") == 0);
	ENSURE(lbRunTool("--help", OUT "/err.txt") == 0);
	ENSURE(lbRunTool("list", OUT "/err.txt") == 0);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s' list > '%s/list.txt'", LB_SOURCE_DIR, TOOL, OUT);
	ENSURE(system(cmd) == 0);
	char* list = lbTestReadFile(OUT "/list.txt", NULL);
	ENSURE(list && strstr(list, "demo.json") && strstr(list, "foot") && strstr(list, "stairs") && strstr(list, "mixamo"));
	free(list);
}

static void VersionIsTheLibrarys(void)
{
	ENSURE(system("mkdir -p '" OUT "'") == 0);
	ENSURE(system("'" TOOL "' --version > '" OUT "/version.txt'") == 0);
	char* text = lbTestReadFile(OUT "/version.txt", NULL);
	char expected[64];
	lbVersion v = lbGetVersion();
	snprintf(expected, sizeof expected, "limber %d.%d.%d\n", v.major, v.minor, v.revision);
	ENSURE(text && strcmp(text, expected) == 0);
	free(text);
}

static void BadInputOneLineNonZero(void)
{
	FILE* f = NULL;
	struct
	{
		const char* args;
		int code;
		const char* mention;
	} cases[] = {
		{ "", 2, "usage" },
		{ "frobnicate", 1, "frobnicate" },
		{ "run", 1, "scenario file" },
		{ "run " OUT "/missing.json", 1, "missing.json" },
		{ "run " LB_SOURCE_DIR "/scenarios/demo.json --every 0", 1, "--every" },
		{ "run " LB_SOURCE_DIR "/scenarios/demo.json --size 10x10", 1, "--size" },
		{ "run " LB_SOURCE_DIR "/scenarios/demo.json --layers sparkles", 1, "--layers" },
		{ "run " LB_SOURCE_DIR "/scenarios/demo.json --report", 1, "--report" },
		{ "run " LB_SOURCE_DIR "/scenarios/demo.json --bake x.fbx", 1, "x.fbx" },
		{ "run " LB_SOURCE_DIR "/scenarios/demo.json --wobble", 1, "--wobble" },
		{ "run " OUT "/bad.json", 1, "timeline[0].input" },
		{ "run " LB_SOURCE_DIR "/scenarios/demo.json --report /nonexistent-dir/r.json", 1, "/nonexistent-dir/r.json" },
		// A rig file that is not a humanoid: the file, what is missing and the scenario's fix.
		{ "run " OUT "/notahuman.json", 1, "anim_test.x' is not a humanoid" },
		{ "run " OUT "/notahuman.json", 1, "rig.roles" },
		{ "run " OUT "/notahuman.json", 1, "missing pelvis" },
	};
	f = fopen(OUT "/notahuman.json", "wb");
	ENSURE(f != NULL);
	if (f)
	{
		fputs("{\"rig\": {\"file\": \"/usr/share/assimp/models/X/anim_test.x\"}, \"frames\": 2}", f);
		fclose(f);
	}
	f = fopen(OUT "/bad.json", "wb");
	ENSURE(f != NULL);
	if (f)
	{
		fputs("{\"timeline\": [{\"t\": 0, \"input\": \"dance\"}]}", f);
		fclose(f);
	}
	for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); ++i)
	{
		int rc = lbRunTool(cases[i].args, OUT "/err.txt");
		char* err = lbTestReadFile(OUT "/err.txt", NULL);
		if (rc != cases[i].code || !err || !strstr(err, cases[i].mention))
			printf("  case \"%s\": exit %d, stderr: %s\n", cases[i].args, rc, err ? err : "(none)");
		ENSURE(rc == cases[i].code);
		ENSURE(err && strstr(err, cases[i].mention));
		// One line for errors (the usage text is longer).
		if (cases[i].code == 1)
			ENSURE(err && lbLines(err) == 1);
		free(err);
	}
}

static void SameFileSameReportBytes(void)
{
	const char* file = LB_SOURCE_DIR "/scenarios/stairs_foot.json";
	char args[2048];
	snprintf(args, sizeof args, "run '%s' --no-timing --report '%s/a.json' --poses '%s/a.jsonl'", file, OUT, OUT);
	ENSURE(lbRunTool(args, OUT "/err.txt") == 0);
	snprintf(args, sizeof args, "run '%s' --no-timing --report '%s/b.json'", file, OUT);
	ENSURE(lbRunTool(args, OUT "/err.txt") == 0);
	size_t na = 0, nb = 0;
	char* a = lbTestReadFile(OUT "/a.json", &na);
	char* b = lbTestReadFile(OUT "/b.json", &nb);
	ENSURE(a && b && na == nb && na > 1000 && memcmp(a, b, (size_t)na) == 0);
	ENSURE(a && strstr(a, "\"timing\"") == NULL);
	char* poses = lbTestReadFile(OUT "/a.jsonl", NULL);
	// Header plus one line per frame (stairs_foot has 180 frames).
	ENSURE(poses && lbLines(poses) == 181);
	free(a);
	free(b);
	free(poses);
	// With timing, the timing object is there.
	snprintf(args, sizeof args, "run '%s' --report '%s/c.json'", file, OUT);
	ENSURE(lbRunTool(args, OUT "/err.txt") == 0);
	char* c = lbTestReadFile(OUT "/c.json", NULL);
	ENSURE(c && strstr(c, "\"solve_us_median\""));
	free(c);
}

static void FramesAreWritten(void)
{
	char args[2048];
	snprintf(args, sizeof args, "run '%s/scenarios/rest_mannequin.json' --frames '%s/png' --every 25 --size 64x48", LB_SOURCE_DIR, OUT);
	ENSURE(lbRunTool(args, OUT "/err.txt") == 0);
	// 60 frames, every 25th plus the last: 0, 25, 50, 59.
	const char* expect[] = { "frame_00000.png", "frame_00025.png", "frame_00050.png", "frame_00059.png" };
	for (int i = 0; i < 4; ++i)
	{
		char path[1024];
		snprintf(path, sizeof path, "%s/png/%s", OUT, expect[i]);
		FILE* f = fopen(path, "rb");
		ENSURE(f != NULL);
		if (f)
			fclose(f);
	}
	char path[1024];
	snprintf(path, sizeof path, "%s/png/frame_00001.png", OUT);
	FILE* f = fopen(path, "rb");
	ENSURE(f == NULL);
	if (f)
		fclose(f);
}

static void BakedClipReimports(void)
{
	char args[2048];
	snprintf(args, sizeof args, "run '%s/scenarios/stairs_walk.json' --bake '%s/demo.gltf' --poses '%s/demo.jsonl'", LB_SOURCE_DIR, OUT, OUT);
	ENSURE(lbRunTool(args, OUT "/err.txt") == 0);
	lbSetLogFcn(NULL, NULL);
	lbImportDef def = lbDefaultImportDef();
	lbImportedRig* rig = NULL;
	ENSURE(lbImportRig(OUT "/demo.gltf", &def, &rig) == lb_ok);
	if (!rig)
		return;
	ENSURE(rig->clipCount == 1);
	// The last frame's pelvis, in the world, as the pose stream has it.
	char* poses = lbTestReadFile(OUT "/demo.jsonl", NULL);
	const char* last = poses ? strrchr(poses, '{') : NULL;
	while (last && last > poses && strncmp(last, "{\"frame\"", 8) != 0)
		--last;
	float c[10], m[10];
	const char* cs = last ? strstr(last, "\"character\":[") : NULL;
	const char* ms = last ? strstr(last, "\"model\":[[") : NULL;
	ENSURE(cs && ms);
	if (cs && ms && rig->clipCount == 1)
	{
		sscanf(cs + 13, "%f,%f,%f,%f,%f,%f,%f,%f,%f,%f", &c[0], &c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7], &c[8], &c[9]);
		// Bone 1 of the mannequin is the pelvis (bone 0 the root).
		const char* second = strstr(ms + 9, "],[");
		ENSURE(second != NULL);
		if (second)
		{
			sscanf(second + 3, "%f,%f,%f", &m[0], &m[1], &m[2]);
			lbTransform cw = { { c[0], c[1], c[2] }, { c[3], c[4], c[5], c[6] }, { c[7], c[8], c[9] } };
			lbVec3 pelvisWs = lbTransformPoint(cw, lbMakeVec3(m[0], m[1], m[2]));
			lbPose pose = lbCreatePose(rig->skeleton);
			const lbClip* clip = &rig->clips[0];
			ENSURE(lbSampleClip(clip, rig->skeleton, clip->duration, lb_clipClamp, &pose) == lb_ok);
			int pelvis = lbSkeleton_FindBone(rig->skeleton, "pelvis");
			ENSURE(pelvis >= 0);
			if (pelvis >= 0)
				ENSURE_VEC3_NEAR(pose.model[pelvis].p, pelvisWs, 1.0e-3);
			lbDestroyPose(&pose);
		}
	}
	free(poses);
	lbDestroyImportedRig(rig);
}

// A character that walks off the end of the world falls with nothing below: the run stops with
// exit status 1 and one line saying where; the same walk over a gap with a floor exits 0.
static void FallWithNoGroundFails(void)
{
	const char* files[2] = { OUT "/void.json", OUT "/gap.json" };
	const char* worlds[2] = { "{\"builder\": \"flat\", \"params\": {\"ground_size\": 3}}",
							  "{\"builder\": \"gap\", \"params\": {\"gap\": 1.0, \"distance\": 1.0}}" };
	for (int k = 0; k < 2; ++k)
	{
		FILE* f = fopen(files[k], "wb");
		ENSURE(f != NULL);
		if (!f)
			return;
		fprintf(f,
				"{\"world\": {\"shapes\": [%s]}, \"motion\": \"walk\", \"frames\": 180,"
				" \"timeline\": [{\"t\": 0, \"input\": \"velocity\", \"value\": [1.4, 0, 0]}]}",
				worlds[k]);
		fclose(f);
		char args[2048];
		snprintf(args, sizeof args, "run '%s' --report '%s/fall.json'", files[k], OUT);
		int rc = lbRunTool(args, OUT "/err.txt");
		char* err = lbTestReadFile(OUT "/err.txt", NULL);
		if (k == 0)
		{
			if (rc != 1 || !err || !strstr(err, "no ground below"))
				printf("  walking off the world: exit %d, stderr: %s\n", rc, err ? err : "(none)");
			ENSURE(rc == 1);
			ENSURE(err && strstr(err, "fell with no ground below at (") && strstr(err, "void.json"));
			ENSURE(err && lbLines(err) == 1);
		}
		else
			ENSURE(rc == 0);
		free(err);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(HelpAndList);
	RUN_TEST(VersionIsTheLibrarys);
	RUN_TEST(BadInputOneLineNonZero);
	RUN_TEST(SameFileSameReportBytes);
	RUN_TEST(FramesAreWritten);
	RUN_TEST(BakedClipReimports);
	RUN_TEST(FallWithNoGroundFails);
	system("rm -rf '" OUT "'");
	TEST_MAIN_END();
}
