// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// OpenGL 3.3 core renderer shared by the command-line tool and the viewer: world shapes with a
// ground grid, the character as shaded capsules per bone, debug layers. Headless contexts come
// from EGL surfaceless (Mesa llvmpipe: no display, no GPU) and frames are written as PNG.
#pragma once

#include "limber/scenario.h"

#include <stdint.h>

/// Orbit camera (world): looks at `target` from `distance` at yaw/pitch (deg) about `up`.
typedef struct lbCamera
{
	lbVec3 target;
	float yawDeg, pitchDeg, distance, fovDeg;
	lbVec3 up;
} lbCamera;

/// Camera of a scenario at the run's current frame (follows the character when asked).
lbCamera lbScenarioCameraNow(const lbRunView* view);

/// Eye position of an orbit camera (world).
lbVec3 lbCameraEye(const lbCamera* camera);

/// Column-major 4x4 view-projection matrix for an aspect ratio (width / height).
void lbCameraViewProjection(const lbCamera* camera, float aspect, float outMatrix[16]);

/// Pixel (x right, y down) where a world point appears; false when behind the camera.
bool lbCameraProject(const lbCamera* camera, int width, int height, lbVec3 pointWs, float* outX, float* outY);

/// World ray through a pixel (x right, y down, in [0, width) x [0, height)).
void lbCameraPixelRay(const lbCamera* camera, int width, int height, float x, float y, lbVec3* outOrigin,
					  lbVec3* outDirection);

typedef struct lbRenderer lbRenderer;

/// Creates GL resources in the current context (OpenGL 3.3 core). NULL on failure.
lbRenderer* lbCreateRenderer(void);
void lbDestroyRenderer(lbRenderer* renderer);

/// Forgets the uploaded world geometry (call when switching to another run).
void lbRenderer_ResetWorld(lbRenderer* renderer);

/// Draw options.
typedef struct lbDrawOptions
{
	/// Bit i set = debug layer i (lbDebugLayer) drawn.
	uint32_t layers;
	/// Drag target to draw highlighted (-1 none).
	int hotTarget;
	/// Leave the character out (tests compare against it).
	bool hideCharacter;
} lbDrawOptions;

/// Draws the run's world and character into the current framebuffer (width x height pixels).
void lbRenderer_Draw(lbRenderer* renderer, const lbRun* run, const lbCamera* camera, int width, int height,
					 const lbDrawOptions* options);

/// Screen-space text: draws UTF-8 (ASCII) text at pixel (x, y) of the top-left origin with a
/// TTF font loaded by lbRenderer_LoadFont; returns false when no font is loaded.
bool lbRenderer_LoadFont(lbRenderer* renderer, const char* ttfPath, float pixelHeight);
bool lbRenderer_DrawText(lbRenderer* renderer, int width, int height, float x, float y, const char* text, uint32_t rgba);

/// Screen-space filled rectangle (pixels, top-left origin), blended.
void lbRenderer_DrawRect(lbRenderer* renderer, int width, int height, float x, float y, float w, float h, uint32_t rgba);

/// Width in pixels of the widest line of `text` in the loaded font (0 without a font).
float lbRenderer_TextWidth(const lbRenderer* renderer, const char* text);

/// A headless OpenGL context with an offscreen framebuffer (EGL surfaceless).
typedef struct lbHeadless lbHeadless;

/// Creates a headless context of width x height and makes it current; NULL with a one-line
/// reason in outMessage when EGL or GL 3.3 core is unavailable.
lbHeadless* lbCreateHeadless(int width, int height, char* outMessage, int capacity);
void lbDestroyHeadless(lbHeadless* headless);

/// Binds the offscreen framebuffer for drawing.
void lbHeadless_Bind(lbHeadless* headless);

/// Sanitizer builds: keeps Mesa's driver loaded so LeakSanitizer does not take its globals for
/// leaks (see headless.c). Does nothing in other builds. Call before creating a GL context.
void lbPinGlDriver(void);

/// Reads the framebuffer into rgba (width * height * 4 bytes, top row first).
void lbReadPixels(int width, int height, uint8_t* outRgba);

/// Writes rgba pixels (top row first) as a PNG file.
bool lbWritePng(const char* path, int width, int height, const uint8_t* rgba);
