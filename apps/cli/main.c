// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// `limber`: runs scenarios headless, writes reports, pose streams and PNG frames; lists what the
// build offers. Bad input ends with a one-line reason and a non-zero exit.
#define _POSIX_C_SOURCE 200809L
#include "render.h"

#include "limber/import.h"
#include "limber/rigs.h"
#include "limber/scenario.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char lbLastError[640];

static void lbCaptureLog(lbLogLevel level, lbResult code, const char* message, void* user)
{
	(void)user;
	(void)code;
	if (level == lb_logError && !lbLastError[0])
		snprintf(lbLastError, sizeof lbLastError, "%s", message);
}

static int lbFail(const char* format, const char* arg)
{
	fprintf(stderr, "limber: ");
	fprintf(stderr, format, arg);
	fputc('\n', stderr);
	return 1;
}

static void lbUsage(FILE* f)
{
	fprintf(f,
			"usage: limber run FILE [options]   run a scenario headless\n"
			"       limber list                 scenarios, systems, motions, rigs and scene builders\n"
			"       limber --version            the library's version\n"
			"       limber --help               this text\n"
			"\n"
			"run options:\n"
			"  --report OUT.json   write the report (per-frame series + summary + timing)\n"
			"  --poses OUT.jsonl   write every frame's bone transforms, character transform,\n"
			"                      targets and contacts (one JSON object per line)\n"
			"  --frames DIR        render frames as PNG into DIR (frame_00000.png ...)\n"
			"  --every N           render every Nth frame (default 1); the last frame is always rendered\n"
			"  --size WxH          frame size in pixels (default 960x540)\n"
			"  --no-timing         leave the timing object out of the report\n"
			"  --layers LIST       debug layers drawn in frames: comma-separated casts, normals, targets,\n"
			"                      poles, reach, contacts, or all / none (default targets,contacts)\n"
			"  --bake OUT.gltf     bake the frames into a clip file\n"
			"Scenario format: docs/scenarios.md. Metrics: docs/metrics.md.\n");
}

static double lbSeconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1.0e-9;
}

static bool lbMakeDir(const char* path)
{
	char tmp[1024];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char* p = tmp + 1; *p; ++p)
	{
		if (*p == '/')
		{
			*p = 0;
			mkdir(tmp, 0755);
			*p = '/';
		}
	}
	return mkdir(tmp, 0755) == 0 || errno == EEXIST;
}

static int lbCompareNames(const void* a, const void* b)
{
	return strcmp(*(const char* const*)a, *(const char* const*)b);
}

static void lbListScenarios(const char* dir)
{
	DIR* d = opendir(dir);
	if (!d)
		return;
	char* names[512];
	int n = 0;
	struct dirent* e;
	while ((e = readdir(d)) && n < 512)
	{
		size_t len = strlen(e->d_name);
		if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0)
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], lbCompareNames);
	printf("scenarios (%s):\n", dir);
	int width = 0;
	for (int i = 0; i < n; ++i)
		width = (int)strlen(names[i]) > width ? (int)strlen(names[i]) : width;
	for (int i = 0; i < n; ++i)
	{
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		lbLogFcn* none = NULL;
		lbSetLogFcn(none, NULL);
		lbScenario* s = lbLoadScenario(path, NULL, 0);
		printf("  %-*s  %s\n", width, names[i], s ? s->description : "(does not load in this build)");
		lbDestroyScenario(s);
		free(names[i]);
	}
	lbSetLogFcn(lbCaptureLog, NULL);
}

static int lbList(void)
{
	if (access("scenarios", F_OK) == 0)
		lbListScenarios("scenarios");
	else
		lbListScenarios(LB_SCENARIO_DIR);
	printf("systems:\n");
	for (int i = 0; i < lbScenarioSystemCount(); ++i)
		printf("  %-12s %s\n", lbScenarioSystemName(i), lbScenarioSystemSummary(i));
	printf("motions:\n ");
	for (int i = 0; i < lbScenarioMotionCount(); ++i)
		printf(" %s", lbScenarioMotionName(i));
	printf("\nrigs:\n ");
	for (int i = 0; i < lb_rigCount; ++i)
		printf(" %s", lbReferenceRigName((lbReferenceRig)i));
	printf("\nscene builders:\n ");
	for (int i = 0; i < lbScenarioBuilderCount(); ++i)
		printf(" %s", lbScenarioBuilderName(i));
	printf("\n");
	return 0;
}

typedef struct lbRunOptions
{
	const char* file;
	const char* report;
	const char* poses;
	const char* frames;
	const char* bake;
	int every;
	int width, height;
	bool timing;
	uint32_t layers;
} lbRunOptions;

static bool lbParseLayers(const char* text, uint32_t* out)
{
	static const char* const names[lb_layerCount] = { "casts", "normals", "targets", "poles", "reach", "contacts" };
	*out = 0;
	if (strcmp(text, "all") == 0)
	{
		*out = (1u << lb_layerCount) - 1u;
		return true;
	}
	if (strcmp(text, "none") == 0)
		return true;
	char buf[256];
	snprintf(buf, sizeof buf, "%s", text);
	for (char* tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
	{
		int found = -1;
		for (int i = 0; i < lb_layerCount; ++i)
			if (strcmp(tok, names[i]) == 0)
				found = i;
		if (found < 0)
			return false;
		*out |= 1u << found;
	}
	return true;
}

static int lbParseRunOptions(int argc, char** argv, lbRunOptions* o)
{
	memset(o, 0, sizeof *o);
	o->every = 1;
	o->width = 960;
	o->height = 540;
	o->timing = true;
	o->layers = (1u << lb_layerContacts) | (1u << lb_layerTargets);
	for (int i = 2; i < argc; ++i)
	{
		const char* a = argv[i];
		bool hasValue = i + 1 < argc;
		if (strcmp(a, "--report") == 0 || strcmp(a, "--poses") == 0 || strcmp(a, "--frames") == 0 ||
			strcmp(a, "--every") == 0 || strcmp(a, "--size") == 0 || strcmp(a, "--bake") == 0 || strcmp(a, "--layers") == 0)
		{
			if (!hasValue)
				return lbFail("%s needs a value (see limber --help)", a);
			const char* v = argv[++i];
			if (strcmp(a, "--report") == 0)
				o->report = v;
			else if (strcmp(a, "--poses") == 0)
				o->poses = v;
			else if (strcmp(a, "--frames") == 0)
				o->frames = v;
			else if (strcmp(a, "--bake") == 0)
				o->bake = v;
			else if (strcmp(a, "--layers") == 0)
			{
				if (!lbParseLayers(v, &o->layers))
					return lbFail("--layers expects casts, normals, targets, poles, reach, contacts, all or none, got \"%s\"", v);
			}
			else if (strcmp(a, "--every") == 0)
			{
				char* end;
				long n = strtol(v, &end, 10);
				if (*end || n < 1 || n > 100000)
					return lbFail("--every expects a whole number >= 1, got \"%s\"", v);
				o->every = (int)n;
			}
			else
			{
				int w = 0, h = 0;
				char tail;
				if (sscanf(v, "%dx%d%c", &w, &h, &tail) != 2 || w < 16 || h < 16 || w > 8192 || h > 8192)
					return lbFail("--size expects WxH with 16..8192 pixels per side, got \"%s\"", v);
				o->width = w;
				o->height = h;
			}
		}
		else if (strcmp(a, "--no-timing") == 0)
			o->timing = false;
		else if (a[0] == '-')
			return lbFail("unknown option \"%s\" (see limber --help)", a);
		else if (!o->file)
			o->file = a;
		else
			return lbFail("more than one scenario file given (\"%s\")", a);
	}
	if (!o->file)
		return lbFail("%s", "run needs a scenario file (see limber --help)");
	return 0;
}

static int lbRunCommand(int argc, char** argv)
{
	lbRunOptions o;
	if (lbParseRunOptions(argc, argv, &o))
		return 1;
	if (o.bake && lbExportFormatFromPath(o.bake) == lb_exportFormatCount)
		return lbFail("--bake: unknown clip format \"%s\" (use .gltf, .glb or .dae)", o.bake);
	char message[640];
	lbScenario* scenario = lbLoadScenario(o.file, message, (int)sizeof message);
	if (!scenario)
		return lbFail("%s", message);
	lbLastError[0] = 0;
	lbResult result;
	scenario->isolateImport = true; // a crash in the file parser must not end the tool
	lbRun* run = lbCreateRun(scenario, &result);
	if (!run)
	{
		lbFail("%s", lbLastError[0] ? lbLastError : lbResultString(result));
		lbDestroyScenario(scenario);
		return 1;
	}
	FILE* poses = NULL;
	if (o.poses)
	{
		poses = fopen(o.poses, "wb");
		if (!poses)
		{
			lbFail("cannot write %s", o.poses);
			lbDestroyRun(run);
			lbDestroyScenario(scenario);
			return 1;
		}
		lbRun_WritePoseHeader(run, poses);
	}
	lbHeadless* gl = NULL;
	lbRenderer* renderer = NULL;
	uint8_t* pixels = NULL;
	int status = 0;
	if (o.frames)
	{
		char why[256];
		if (!lbMakeDir(o.frames))
			status = lbFail("cannot create the frames directory %s", o.frames);
		else if (!(gl = lbCreateHeadless(o.width, o.height, why, (int)sizeof why)))
			status = lbFail("cannot render frames: %s", why);
		else if (!(renderer = lbCreateRenderer()))
			status = lbFail("%s", "cannot render frames: renderer set-up failed");
		pixels = (uint8_t*)malloc((size_t)o.width * (size_t)o.height * 4);
		if (!status && !pixels)
			status = lbFail("%s", "out of memory");
	}
	// Baking keeps every frame's local transforms, with the character's world transform folded
	// into the root bones so the clip carries the root motion (world space, world up).
	lbTransform* baked = NULL;
	int bakedFrames = 0;
	lbRunView first = lbRun_GetView(run);
	int boneCount = first.skeleton->boneCount;
	if (!status && o.bake)
	{
		baked = (lbTransform*)malloc((size_t)scenario->frames * (size_t)boneCount * sizeof(lbTransform));
		if (!baked)
			status = lbFail("%s", "out of memory");
	}
	bool progress = isatty(2) != 0;
	double start = lbSeconds(), lastShown = 0.0;
	int written = 0;
	while (!status && !lbRun_IsDone(run))
	{
		// A step that fails (the character fell with no ground below it, ...) ends the run with its
		// message and a non-zero exit; the message logged by this step, not an earlier one, is shown.
		lbLastError[0] = 0;
		lbResult stepped = lbRun_Step(run);
		if (stepped != lb_ok)
		{
			status = lbFail("%s", lbLastError[0] ? lbLastError : lbResultString(stepped));
			break;
		}
		lbRunView view = lbRun_GetView(run);
		int frame = view.frame - 1;
		if (poses)
			lbRun_WritePoseLine(run, poses);
		if (baked && bakedFrames < scenario->frames)
		{
			lbTransform* dst = baked + (size_t)bakedFrames * (size_t)boneCount;
			for (int b = 0; b < boneCount; ++b)
				dst[b] = view.skeleton->parents[b] < 0 ? lbTransformMul(view.characterWs, view.pose->local[b]) : view.pose->local[b];
			++bakedFrames;
		}
		if (renderer && (frame % o.every == 0 || lbRun_IsDone(run)))
		{
			lbCamera cam = lbScenarioCameraNow(&view);
			lbDrawOptions draw = { o.layers, -1, false };
			lbHeadless_Bind(gl);
			lbRenderer_Draw(renderer, run, &cam, o.width, o.height, &draw);
			lbReadPixels(o.width, o.height, pixels);
			char path[1200];
			snprintf(path, sizeof path, "%s/frame_%05d.png", o.frames, frame);
			if (!lbWritePng(path, o.width, o.height, pixels))
				status = lbFail("cannot write %s", path);
			++written;
		}
		double now = lbSeconds() - start;
		if (progress && (now - lastShown > 0.1 || lbRun_IsDone(run)))
		{
			fprintf(stderr, "\rframe %d/%d  %.1f s", view.frame, scenario->frames, now);
			lastShown = now;
		}
	}
	if (progress)
		fputc('\n', stderr);
	if (!status && baked)
	{
		lbExportDef def = lbDefaultExportDef();
		def.up = scenario->upWs;
		def.clipName = scenario->name;
		lbLastError[0] = 0;
		if (lbExportClip(o.bake, lbExportFormatFromPath(o.bake), first.skeleton, baked, bakedFrames, 1.0f / scenario->dt, &def) !=
			lb_ok)
			status = lbFail("--bake: %s", lbLastError[0] ? lbLastError : "export failed");
	}
	free(baked);
	if (!status && o.report && lbRun_WriteReport(run, o.report, o.timing) != lb_ok)
		status = lbFail("cannot write the report %s", o.report);
	if (poses && fclose(poses) != 0 && !status)
		status = lbFail("cannot write %s", o.poses);
	if (!status && progress)
	{
		lbRunView v = lbRun_GetView(run);
		fprintf(stderr, "%s: %d frames, nan_frames %d, knee_inversions %d", scenario->name, v.frame, v.summary.nanFrames,
				v.summary.kneeInversions);
		if (written)
			fprintf(stderr, ", %d PNG frames in %s", written, o.frames);
		fputc('\n', stderr);
	}
	free(pixels);
	lbDestroyRenderer(renderer);
	lbDestroyHeadless(gl);
	lbDestroyRun(run);
	lbDestroyScenario(scenario);
	return status;
}

int main(int argc, char** argv)
{
	lbSetLogFcn(lbCaptureLog, NULL);
	if (argc < 2)
	{
		lbUsage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)
	{
		lbUsage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0)
	{
		lbVersion v = lbGetVersion();
		printf("limber %d.%d.%d\n", v.major, v.minor, v.revision);
		return 0;
	}
	if (strcmp(argv[1], "list") == 0)
		return argc == 2 ? lbList() : lbFail("%s", "list takes no arguments");
	if (strcmp(argv[1], "run") == 0)
		return lbRunCommand(argc, argv);
	return lbFail("unknown command \"%s\" (expected run, list or --help)", argv[1]);
}
