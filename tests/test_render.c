// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Headless rendering (EGL surfaceless, Mesa llvmpipe: no GPU, no display) of a known scene, checked
// by pixels: background where nothing is, the character's silhouette where it stands, debug layers
// drawn where their items are, PNG output readable.
#include "render.h"

#include "test_macros.h"

#include <stdlib.h>

#define W 320
#define H 240

typedef struct lbScene
{
	lbScenario* scenario;
	lbRun* run;
	lbHeadless* gl;
	lbRenderer* renderer;
	lbCamera camera;
} lbScene;

static bool lbSceneInit(lbScene* s, const char* json)
{
	memset(s, 0, sizeof *s);
	char why[256] = "";
	s->gl = lbCreateHeadless(W, H, why, (int)sizeof why);
	if (!s->gl)
		printf("  headless GL: %s\n", why);
	ENSURE(s->gl != NULL);
	s->renderer = s->gl ? lbCreateRenderer() : NULL;
	ENSURE(s->renderer != NULL);
	s->scenario = lbParseScenario(json, "render.json", NULL, 0);
	ENSURE(s->scenario != NULL);
	s->run = s->scenario ? lbCreateRun(s->scenario, NULL) : NULL;
	ENSURE(s->run != NULL);
	if (!s->run || !s->renderer)
		return false;
	lbRun_Step(s->run);
	lbRunView v = lbRun_GetView(s->run);
	s->camera = lbScenarioCameraNow(&v);
	return true;
}

static void lbSceneFree(lbScene* s)
{
	lbDestroyRenderer(s->renderer);
	lbDestroyHeadless(s->gl);
	lbDestroyRun(s->run);
	lbDestroyScenario(s->scenario);
}

static void lbDraw(lbScene* s, uint32_t layers, bool hideCharacter, uint8_t* out)
{
	lbDrawOptions o = { layers, -1, hideCharacter };
	lbHeadless_Bind(s->gl);
	lbRenderer_Draw(s->renderer, s->run, &s->camera, W, H, &o);
	lbReadPixels(W, H, out);
}

static int lbPixelDiff(const uint8_t* a, const uint8_t* b, int x, int y)
{
	const uint8_t* p = a + ((size_t)y * W + (size_t)x) * 4;
	const uint8_t* q = b + ((size_t)y * W + (size_t)x) * 4;
	return abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2]);
}

static const char* const lbKnownScene =
	"{\"rig\": \"mannequin\", \"frames\": 2, \"camera\": {\"target\": [0, 0, 0.9], \"yaw_deg\": 0, \"pitch_deg\": 5,"
	" \"distance\": 4, \"fov_deg\": 40, \"follow\": false}}";

static void SilhouetteWhereTheCharacterStands(void)
{
	lbScene s;
	if (!lbSceneInit(&s, lbKnownScene))
	{
		lbSceneFree(&s);
		return;
	}
	uint8_t* with = (uint8_t*)malloc(W * H * 4);
	uint8_t* without = (uint8_t*)malloc(W * H * 4);
	lbDraw(&s, 0, false, with);
	lbDraw(&s, 0, true, without);
	lbRunView v = lbRun_GetView(s.run);
	const lbHumanoid* h = v.humanoid;
	// Joints of the body project onto pixels the character covers.
	int bones[] = { h->pelvis, h->spine[h->spineCount - 1], h->head, h->leg[0].calf, h->leg[1].calf };
	for (int i = 0; i < 5; ++i)
	{
		lbVec3 p = lbTransformPoint(v.characterWs, v.pose->model[bones[i]].p);
		float x, y;
		ENSURE(lbCameraProject(&s.camera, W, H, p, &x, &y));
		ENSURE(x > 0 && x < W && y > 0 && y < H);
		if (x > 0 && x < W && y > 0 && y < H)
			ENSURE(lbPixelDiff(with, without, (int)x, (int)y) > 60);
	}
	// Far from the character nothing changes, and the sky is the sky.
	int quiet[4][2] = { { 4, 4 }, { W - 5, 4 }, { 10, H - 10 }, { W - 10, H - 10 } };
	for (int i = 0; i < 4; ++i)
		ENSURE(lbPixelDiff(with, without, quiet[i][0], quiet[i][1]) < 8);
	const uint8_t* sky = with + 4 * ((size_t)4 * W + W / 2);
	ENSURE(sky[2] > sky[0] + 30 && sky[2] > 150);
	// The silhouette (pixels that differ) sits around the character: its box holds the projected
	// head and both feet and is no wider than the body's projection plus a margin.
	int minX = W, maxX = -1, minY = H, maxY = -1, count = 0;
	for (int y = 0; y < H; ++y)
		for (int x = 0; x < W; ++x)
			if (lbPixelDiff(with, without, x, y) > 30)
			{
				minX = x < minX ? x : minX;
				maxX = x > maxX ? x : maxX;
				minY = y < minY ? y : minY;
				maxY = y > maxY ? y : maxY;
				++count;
			}
	ENSURE(count > 500);
	float hx, hy, fx, fy;
	lbCameraProject(&s.camera, W, H, lbTransformPoint(v.characterWs, v.pose->model[h->head].p), &hx, &hy);
	lbCameraProject(&s.camera, W, H, lbSolePointWs(h, v.pose, v.characterWs, 0), &fx, &fy);
	ENSURE(minY < hy && maxY > fy - 4);
	ENSURE(maxX - minX < W / 2);
	free(with);
	free(without);
	lbSceneFree(&s);
}

static void DebugLayersDrawWhereTheirItemsAre(void)
{
	lbScene s;
	if (!lbSceneInit(&s, lbKnownScene))
	{
		lbSceneFree(&s);
		return;
	}
	uint8_t* off = (uint8_t*)malloc(W * H * 4);
	uint8_t* on = (uint8_t*)malloc(W * H * 4);
	lbDraw(&s, 0, true, off);
	lbDraw(&s, 1u << lb_layerCasts, true, on);
	// The sole probes' hit points are drawn on the casts layer.
	lbRunView v = lbRun_GetView(s.run);
	int hits = 0;
	for (int i = 0; i < v.debugCount; ++i)
	{
		if (v.debug[i].layer != lb_layerCasts || v.debug[i].shape != lb_debugPoint)
			continue;
		float x, y;
		ENSURE(lbCameraProject(&s.camera, W, H, v.debug[i].a, &x, &y));
		ENSURE(lbPixelDiff(on, off, (int)x, (int)y) > 60);
		++hits;
	}
	ENSURE(hits == 2);
	ENSURE(lbPixelDiff(on, off, 4, 4) == 0);
	free(off);
	free(on);
	lbSceneFree(&s);
}

static void PngIsWritten(void)
{
	uint8_t px[16 * 8 * 4];
	for (int i = 0; i < 16 * 8 * 4; ++i)
		px[i] = (uint8_t)(i * 7);
	char path[1024];
	snprintf(path, sizeof path, "%s/test_render.png", LB_BINARY_DIR);
	ENSURE(lbWritePng(path, 16, 8, px));
	FILE* f = fopen(path, "rb");
	ENSURE(f != NULL);
	unsigned char sig[8] = { 0 };
	if (f)
	{
		ENSURE(fread(sig, 1, 8, f) == 8);
		fclose(f);
	}
	ENSURE(sig[0] == 0x89 && sig[1] == 'P' && sig[2] == 'N' && sig[3] == 'G');
	remove(path);
	ENSURE(!lbWritePng("/nonexistent-dir/x.png", 16, 8, px));
}

static void CameraRaysMatchProjection(void)
{
	lbCamera c = { { 1, 2, 1 }, 30, 20, 5, 45, { 0, 0, 1 } };
	lbTestRng rng = { 7 };
	for (int i = 0; i < 1000; ++i)
	{
		float x = lbTestUniform(&rng, 0, W), y = lbTestUniform(&rng, 0, H);
		lbVec3 o, d;
		lbCameraPixelRay(&c, W, H, x, y, &o, &d);
		float px, py;
		ENSURE(lbCameraProject(&c, W, H, lbMulAdd(o, lbTestUniform(&rng, 1, 20), d), &px, &py));
		ENSURE_NEAR(px, x + 0.5f, 1e-2);
		ENSURE_NEAR(py, y + 0.5f, 1e-2);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	lbSetLogFcn(NULL, NULL);
	RUN_TEST(SilhouetteWhereTheCharacterStands);
	RUN_TEST(DebugLayersDrawWhereTheirItemsAre);
	RUN_TEST(PngIsWritten);
	RUN_TEST(CameraRaysMatchProjection);
	TEST_MAIN_END();
}
