// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The viewer's headless frame mode: `limber-viewer SCENARIO --frames N --out DIR` run without a
// display (EGL surfaceless) and, when xvfb-run exists, under a virtual X display (hidden GLFW
// window). The PNGs must exist, have the requested size, show the on-screen text over the sky and
// the character in the middle of the picture.
#define _POSIX_C_SOURCE 200809L
#include "limber/base.h"

#include "test_macros.h"

#include <stb_image.h>
#include <stdlib.h>

#define W 480
#define H 270

static bool lbHaveXvfb(void)
{
	return system("command -v xvfb-run >/dev/null 2>&1") == 0;
}

static int lbDarkPixels(const unsigned char* img, int x0, int y0, int x1, int y1)
{
	int n = 0;
	for (int y = y0; y < y1; ++y)
		for (int x = x0; x < x1; ++x)
		{
			const unsigned char* p = img + ((size_t)y * W + (size_t)x) * 4;
			n += (p[0] + p[1] + p[2]) < 200;
		}
	return n;
}

static void lbCheckFrames(const char* dir, int frames)
{
	for (int i = 0; i < frames; ++i)
	{
		char path[1200];
		snprintf(path, sizeof path, "%s/frame_%05d.png", dir, i);
		int w = 0, h = 0, c = 0;
		unsigned char* img = stbi_load(path, &w, &h, &c, 4);
		ENSURE(img != NULL);
		if (!img)
			continue;
		ENSURE(w == W && h == H);
		if (w == W && h == H)
		{
			// Text: dark glyph pixels in the top-left block, over a sky that has none of its own.
			ENSURE(lbDarkPixels(img, 0, 0, W / 2, 40) > 100);
			ENSURE(lbDarkPixels(img, W - 60, 0, W, 30) == 0);
			// The character stands in the middle: its colours differ from sky and ground there.
			int coloured = 0;
			for (int y = H / 4; y < 3 * H / 4; ++y)
				for (int x = 2 * W / 5; x < 3 * W / 5; ++x)
				{
					const unsigned char* p = img + ((size_t)y * W + (size_t)x) * 4;
					int maxc = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
					int minc = p[0] < p[1] ? (p[0] < p[2] ? p[0] : p[2]) : (p[1] < p[2] ? p[1] : p[2]);
					coloured += maxc - minc > 70;
				}
			ENSURE(coloured > 200);
		}
		stbi_image_free(img);
		remove(path);
	}
}

static void lbRunViewer(const char* prefix, const char* outDir)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && %s '%s/limber-viewer' '%s/scenarios/rest_mannequin.json' --size %dx%d --frames 3 --out '%s' >/dev/null",
			 outDir, prefix, LB_BINARY_DIR, LB_SOURCE_DIR, W, H, outDir);
	int rc = system(cmd);
	ENSURE(rc == 0);
	if (rc == 0)
		lbCheckFrames(outDir, 3);
	char missing[1200];
	snprintf(missing, sizeof missing, "%s/frame_00003.png", outDir);
	FILE* f = fopen(missing, "rb");
	ENSURE(f == NULL);
	if (f)
		fclose(f);
}

static void HeadlessFramesWithoutDisplay(void)
{
	lbRunViewer("env -u DISPLAY -u WAYLAND_DISPLAY", LB_BINARY_DIR "/test_viewer_egl");
}

static void HeadlessFramesUnderXvfb(void)
{
	if (!lbHaveXvfb())
	{
		printf("  xvfb-run not installed: virtual display case skipped\n");
		return;
	}
	lbRunViewer("xvfb-run -a", LB_BINARY_DIR "/test_viewer_x11");
}

static void BadArgumentsFail(void)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "env -u DISPLAY '%s/limber-viewer' --frames 0 --out /tmp 2>/dev/null", LB_BINARY_DIR);
	ENSURE(system(cmd) != 0);
	snprintf(cmd, sizeof cmd, "env -u DISPLAY '%s/limber-viewer' --frames 2 2>/dev/null", LB_BINARY_DIR);
	ENSURE(system(cmd) != 0);
	snprintf(cmd, sizeof cmd, "env -u DISPLAY '%s/limber-viewer' '%s/no_such.json' --frames 1 --out /tmp 2>/dev/null",
			 LB_BINARY_DIR, LB_BINARY_DIR);
	ENSURE(system(cmd) != 0);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(HeadlessFramesWithoutDisplay);
	RUN_TEST(HeadlessFramesUnderXvfb);
	RUN_TEST(BadArgumentsFail);
	TEST_MAIN_END();
}
