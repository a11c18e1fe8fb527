// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// limber-viewer: plays a scenario in a window. Orbit/pan/zoom camera, pause, single step, slow
// motion, debug layers, on-screen text with the system's state and live metrics, IK targets
// dragged with the mouse, each system's controls on keyboard or gamepad. `--frames N --out DIR`
// renders N frames (with the text) to PNG without a window manager: a hidden GLFW window when a
// display exists (e.g. under xvfb-run), else EGL surfaceless.
#define _POSIX_C_SOURCE 200809L
#include "render.h"

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LB_FONT "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#define LB_MAX_FILES 256

typedef struct lbViewer
{
	char path[1024];
	char files[LB_MAX_FILES][512];
	int fileCount, fileIndex;
	lbScenario* scenario;
	lbRun* run;
	lbRenderer* renderer;
	lbCamera camera;
	bool cameraFromScenario;
	bool paused, slow, hud;
	int stepRequests;
	uint32_t layers;
	double accumulator;
	// Mouse state.
	double mouseX, mouseY;
	int dragMode; // 0 none, 1 orbit, 2 pan, 3 target
	int dragTarget, hotTarget;
	float dragDepth;
	// Controls.
	int selectedLimb;
	lbVec3 lastStick, lastVelocity;
	bool lastRun;
	unsigned char lastButtons[GLFW_GAMEPAD_BUTTON_LAST + 1];
	char message[256];
	double fps;
	char fpsText[32];
	int width, height;
} lbViewer;

static void lbCollectScenarios(lbViewer* v, const char* dir)
{
	DIR* d = opendir(dir);
	if (!d)
		return;
	struct dirent* e;
	while ((e = readdir(d)) && v->fileCount < LB_MAX_FILES)
	{
		size_t len = strlen(e->d_name);
		if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0)
			snprintf(v->files[v->fileCount++], sizeof v->files[0], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(v->files, (size_t)v->fileCount, sizeof v->files[0], (int (*)(const void*, const void*))strcmp);
}

typedef struct lbViewerError
{
	char message[640];
} lbViewerError;

static void lbViewerCaptureError(lbLogLevel level, lbResult code, const char* message, void* userContext)
{
	(void)code;
	lbViewerError* e = (lbViewerError*)userContext;
	if (level == lb_logError && !e->message[0])
		snprintf(e->message, sizeof e->message, "%s", message);
}

static bool lbOpen(lbViewer* v, const char* path)
{
	char msg[640];
	lbScenario* s = lbLoadScenario(path, msg, (int)sizeof msg);
	if (!s)
	{
		snprintf(v->message, sizeof v->message, "%.250s", msg);
		fprintf(stderr, "limber-viewer: %s\n", msg);
		return false;
	}
	lbResult r;
	s->isolateImport = true; // a crash in the file parser must not end the viewer
	// The run's error names the file, what is wrong and the fix; show that, not just the code.
	lbViewerError error = { "" };
	lbLogFcn* previous;
	void* previousContext;
	lbGetLogFcn(&previous, &previousContext);
	lbSetLogFcn(lbViewerCaptureError, &error);
	lbRun* run = lbCreateRun(s, &r);
	lbSetLogFcn(previous, previousContext);
	if (!run)
	{
		if (error.message[0])
			snprintf(v->message, sizeof v->message, "%.*s", (int)sizeof v->message - 1, error.message);
		else
			snprintf(v->message, sizeof v->message, "%s: %s", path, lbResultString(r));
		fprintf(stderr, "limber-viewer: %s\n", error.message[0] ? error.message : v->message);
		lbDestroyScenario(s);
		return false;
	}
	lbDestroyRun(v->run);
	lbDestroyScenario(v->scenario);
	if (v->renderer)
		lbRenderer_ResetWorld(v->renderer);
	v->scenario = s;
	v->run = run;
	snprintf(v->path, sizeof v->path, "%s", path);
	v->cameraFromScenario = true;
	v->accumulator = 0.0;
	v->lastStick = v->lastVelocity = lbVec3_zero;
	v->message[0] = 0;
	lbRun_Step(v->run);
	lbRunView view = lbRun_GetView(v->run);
	v->camera = lbScenarioCameraNow(&view);
	return true;
}

static bool lbUsesStick(const lbViewer* v)
{
	const char* sys = v->scenario->system;
	return strcmp(sys, "climb") == 0;
}

static void lbApply(lbViewer* v, lbInputKind kind, lbVec3 vector, float value, int limb)
{
	lbScenarioEvent e;
	memset(&e, 0, sizeof e);
	e.kind = kind;
	e.vector = vector;
	e.value = value;
	e.limb = limb;
	lbRun_ApplyInput(v->run, &e);
}

// Reads keyboard (and gamepad) into stick or velocity inputs, sent only when they change.
static void lbPollControls(lbViewer* v, GLFWwindow* win)
{
	float x = 0.0f, y = 0.0f;
	bool run = false, haveInput = false;
	if (win)
	{
		x = (float)((glfwGetKey(win, GLFW_KEY_D) == GLFW_PRESS || glfwGetKey(win, GLFW_KEY_RIGHT) == GLFW_PRESS) -
					(glfwGetKey(win, GLFW_KEY_A) == GLFW_PRESS || glfwGetKey(win, GLFW_KEY_LEFT) == GLFW_PRESS));
		y = (float)((glfwGetKey(win, GLFW_KEY_W) == GLFW_PRESS || glfwGetKey(win, GLFW_KEY_UP) == GLFW_PRESS) -
					(glfwGetKey(win, GLFW_KEY_S) == GLFW_PRESS || glfwGetKey(win, GLFW_KEY_DOWN) == GLFW_PRESS));
		run = glfwGetKey(win, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS || glfwGetKey(win, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
		GLFWgamepadstate pad;
		if (glfwJoystickIsGamepad(GLFW_JOYSTICK_1) && glfwGetGamepadState(GLFW_JOYSTICK_1, &pad))
		{
			float gx = pad.axes[GLFW_GAMEPAD_AXIS_LEFT_X], gy = -pad.axes[GLFW_GAMEPAD_AXIS_LEFT_Y];
			if (gx * gx + gy * gy > 0.04f)
			{
				x = gx;
				y = gy;
			}
			run = run || pad.axes[GLFW_GAMEPAD_AXIS_RIGHT_TRIGGER] > 0.5f;
			// Buttons act on press: A confirms (climb) or jumps, B releases, the bumpers
			// cycle the selected limb, Start pauses.
			for (int b = 0; b <= GLFW_GAMEPAD_BUTTON_LAST; ++b)
			{
				bool pressed = pad.buttons[b] == GLFW_PRESS && v->lastButtons[b] != GLFW_PRESS;
				v->lastButtons[b] = pad.buttons[b];
				if (!pressed)
					continue;
				if (b == GLFW_GAMEPAD_BUTTON_A)
				{
					if (lbUsesStick(v))
						lbApply(v, lb_inputConfirm, lbVec3_zero, 0.0f, 0);
					else
						lbApply(v, lb_inputJump, lbVec3_zero, 3.2f, 0);
				}
				else if (b == GLFW_GAMEPAD_BUTTON_B)
					lbApply(v, lb_inputRelease, lbVec3_zero, 0.0f, -1);
				else if (b == GLFW_GAMEPAD_BUTTON_LEFT_BUMPER || b == GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER)
				{
					v->selectedLimb = (v->selectedLimb + (b == GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER ? 1 : 3)) % 4;
					lbApply(v, lb_inputSelectLimb, lbVec3_zero, 0.0f, v->selectedLimb);
				}
				else if (b == GLFW_GAMEPAD_BUTTON_START)
					v->paused = !v->paused;
			}
			float rx = pad.axes[GLFW_GAMEPAD_AXIS_RIGHT_X], ry = pad.axes[GLFW_GAMEPAD_AXIS_RIGHT_Y];
			if (rx * rx + ry * ry > 0.04f)
			{
				v->camera.yawDeg -= rx * 2.0f;
				v->camera.pitchDeg = lbClampF(v->camera.pitchDeg + ry * 1.5f, -80.0f, 85.0f);
				v->cameraFromScenario = false;
			}
		}
		haveInput = true;
	}
	if (!haveInput)
		return;
	if (lbUsesStick(v))
	{
		lbVec3 stick = lbMakeVec3(lbClampF(x, -1.0f, 1.0f), lbClampF(y, -1.0f, 1.0f), 0.0f);
		if (lbDistance(stick, v->lastStick) > 1.0e-3f)
		{
			lbApply(v, lb_inputStick, stick, 0.0f, 0);
			v->lastStick = stick;
		}
		return;
	}
	// Locomotion: camera-relative velocity; walk 1.4 m/s, run 3.5 m/s (crawl 0.4 m/s when prone).
	lbRunView view = lbRun_GetView(v->run);
	lbVec3 up = view.upWs;
	lbVec3 eye = lbCameraEye(&v->camera);
	lbVec3 fwd = lbNormalizeOr(lbProjectOnPlane(lbSub(v->camera.target, eye), up), lbVec3_axisX);
	lbVec3 right = lbCross(fwd, up);
	float speed = view.state == lb_stateProne ? 0.4f : (run ? 3.5f : 1.4f);
	lbVec3 dir = lbClampLength(lbAdd(lbMulSV(y, fwd), lbMulSV(x, right)), 1.0f);
	lbVec3 vel = lbMulSV(speed, dir);
	if (lbDistance(vel, v->lastVelocity) > 1.0e-3f || run != v->lastRun)
	{
		lbApply(v, lb_inputVelocity, vel, 0.0f, 0);
		v->lastVelocity = vel;
		v->lastRun = run;
	}
}

static void lbKey(GLFWwindow* win, int key, int scancode, int action, int mods)
{
	(void)scancode;
	(void)mods;
	lbViewer* v = (lbViewer*)glfwGetWindowUserPointer(win);
	if (action != GLFW_PRESS)
		return;
	switch (key)
	{
		case GLFW_KEY_ESCAPE:
		case GLFW_KEY_Q:
			glfwSetWindowShouldClose(win, 1);
			break;
		case GLFW_KEY_P:
			v->paused = !v->paused;
			break;
		case GLFW_KEY_N:
		case GLFW_KEY_PERIOD:
			v->paused = true;
			v->stepRequests++;
			break;
		case GLFW_KEY_M:
			v->slow = !v->slow;
			break;
		case GLFW_KEY_H:
			v->hud = !v->hud;
			break;
		case GLFW_KEY_C:
			v->cameraFromScenario = true;
			break;
		case GLFW_KEY_BACKSPACE:
			lbOpen(v, v->path);
			break;
		case GLFW_KEY_PAGE_UP:
		case GLFW_KEY_PAGE_DOWN:
			if (v->fileCount > 0)
			{
				v->fileIndex = (v->fileIndex + (key == GLFW_KEY_PAGE_DOWN ? 1 : v->fileCount - 1)) % v->fileCount;
				lbOpen(v, v->files[v->fileIndex]);
			}
			break;
		case GLFW_KEY_F1:
		case GLFW_KEY_F2:
		case GLFW_KEY_F3:
		case GLFW_KEY_F4:
		case GLFW_KEY_F5:
		case GLFW_KEY_F6:
			v->layers ^= 1u << (key - GLFW_KEY_F1);
			break;
		case GLFW_KEY_1:
		case GLFW_KEY_2:
		case GLFW_KEY_3:
		case GLFW_KEY_4:
			v->selectedLimb = key - GLFW_KEY_1;
			lbApply(v, lb_inputSelectLimb, lbVec3_zero, 0.0f, v->selectedLimb);
			break;
		case GLFW_KEY_SPACE:
			if (lbUsesStick(v))
				lbApply(v, lb_inputConfirm, lbVec3_zero, 0.0f, 0);
			else
				lbApply(v, lb_inputJump, lbVec3_zero, 3.2f, 0);
			break;
		case GLFW_KEY_R:
			lbApply(v, lb_inputRelease, lbVec3_zero, 0.0f, -1);
			break;
		case GLFW_KEY_Z:
		case GLFW_KEY_X:
		{
			// Down to prone (WASD then crawls) and back up to standing.
			lbScenarioEvent e;
			memset(&e, 0, sizeof e);
			e.kind = lb_inputState;
			e.state = key == GLFW_KEY_Z ? lb_stateProne : lb_stateGrounded;
			e.limb = -1;
			lbRun_ApplyInput(v->run, &e);
			break;
		}
		default:
			break;
	}
}

static void lbDrop(GLFWwindow* win, int count, const char** paths)
{
	lbViewer* v = (lbViewer*)glfwGetWindowUserPointer(win);
	if (count > 0)
		lbOpen(v, paths[0]);
}

static int lbPickTarget(lbViewer* v, double mx, double my, float* outDepth)
{
	lbDragTarget targets[16];
	int n = lbRun_GetDragTargets(v->run, targets, 16);
	int best = -1;
	float bestD = 14.0f;
	for (int i = 0; i < n && i < 16; ++i)
	{
		float x, y;
		if (!lbCameraProject(&v->camera, v->width, v->height, targets[i].positionWs, &x, &y))
			continue;
		float d = sqrtf((x - (float)mx) * (x - (float)mx) + (y - (float)my) * (y - (float)my));
		if (d < bestD)
		{
			bestD = d;
			best = i;
			*outDepth = lbDistance(lbCameraEye(&v->camera), targets[i].positionWs);
		}
	}
	return best;
}

static void lbMouseButton(GLFWwindow* win, int button, int action, int mods)
{
	lbViewer* v = (lbViewer*)glfwGetWindowUserPointer(win);
	if (action == GLFW_RELEASE)
	{
		v->dragMode = 0;
		v->dragTarget = -1;
		return;
	}
	glfwGetCursorPos(win, &v->mouseX, &v->mouseY);
	if (button == GLFW_MOUSE_BUTTON_LEFT)
	{
		float depth = 0.0f;
		int t = lbPickTarget(v, v->mouseX, v->mouseY, &depth);
		if (t >= 0 && !(mods & GLFW_MOD_ALT))
		{
			v->dragMode = 3;
			v->dragTarget = t;
			v->dragDepth = depth;
		}
		else
			v->dragMode = (mods & GLFW_MOD_SHIFT) ? 2 : 1;
	}
	else
		v->dragMode = 2;
}

static void lbCursor(GLFWwindow* win, double x, double y)
{
	lbViewer* v = (lbViewer*)glfwGetWindowUserPointer(win);
	double dx = x - v->mouseX, dy = y - v->mouseY;
	v->mouseX = x;
	v->mouseY = y;
	if (v->dragMode == 1)
	{
		v->camera.yawDeg -= (float)dx * 0.3f;
		v->camera.pitchDeg = lbClampF(v->camera.pitchDeg + (float)dy * 0.3f, -80.0f, 85.0f);
		v->cameraFromScenario = false;
	}
	else if (v->dragMode == 2)
	{
		lbVec3 o, d0, d1;
		lbCameraPixelRay(&v->camera, v->width, v->height, (float)(x - dx), (float)(y - dy), &o, &d0);
		lbCameraPixelRay(&v->camera, v->width, v->height, (float)x, (float)y, &o, &d1);
		v->camera.target = lbMulAdd(v->camera.target, -v->camera.distance, lbSub(d1, d0));
		v->cameraFromScenario = false;
	}
	else if (v->dragMode == 3 && v->dragTarget >= 0)
	{
		lbVec3 o, d;
		lbCameraPixelRay(&v->camera, v->width, v->height, (float)x, (float)y, &o, &d);
		lbRun_SetDragTarget(v->run, v->dragTarget, lbMulAdd(o, v->dragDepth, d));
	}
	else
	{
		float depth;
		v->hotTarget = lbPickTarget(v, x, y, &depth);
	}
}

static void lbScroll(GLFWwindow* win, double dx, double dy)
{
	(void)dx;
	lbViewer* v = (lbViewer*)glfwGetWindowUserPointer(win);
	v->camera.distance = lbClampF(v->camera.distance * powf(0.9f, (float)dy), 0.5f, 200.0f);
	v->cameraFromScenario = false;
}

static void lbAdvance(lbViewer* v, double realDt)
{
	float dt = v->scenario->dt;
	if (v->stepRequests > 0)
	{
		lbRun_Step(v->run);
		v->stepRequests--;
		return;
	}
	if (v->paused)
		return;
	v->accumulator += realDt * (v->slow ? 0.2 : 1.0);
	int steps = 0;
	while (v->accumulator >= dt && steps < 8)
	{
		lbRun_Step(v->run);
		v->accumulator -= dt;
		++steps;
	}
	if (steps == 8)
		v->accumulator = 0.0;
}

static float lbFontSize(int width)
{
	return lbClampF((float)width / 75.0f, 12.0f, 18.0f);
}

static void lbDrawHud(lbViewer* v)
{
	float fs = lbFontSize(v->width);
	if (!v->hud)
		return;
	lbRunView view = lbRun_GetView(v->run);
	const lbFrameMetrics* m = &view.metrics;
	if (v->fps > 0.0)
		snprintf(v->fpsText, sizeof v->fpsText, "   %.0f fps", v->fps);
	else
		v->fpsText[0] = 0;
	const lbMetricsSummary* s = &view.summary;
	// Support is only measured on planted feet: "-" while none is planted.
	char support[16], supportMin[16];
	snprintf(support, sizeof support, m->support < 0.0f ? "-" : "%.2f", (double)m->support);
	snprintf(supportMin, sizeof supportMin, s->supportMin < 0.0f ? "-" : "%.2f", (double)s->supportMin);
	char text[2048];
	// The same definitions as the report (docs/metrics.md): this frame, then the run so far.
	int n = snprintf(text, sizeof text,
					 "%s   system %s   motion %s   rig %s\n"
					 "frame %d/%d  t %.2f s  state %s  speed %.2f m/s%s%s%s\n"
					 "sole pen %.3f m  limb pen %.3f m  support %s  hover %.3f m  float %.3f m  drift %.4f m  "
					 "added pop %.1f deg (source %.1f)  knee cross %.3f m  self pen %.3f m\n"
					 "max: sole pen %.3f  limb pen %.3f  support min %s  hover %.3f  floating %.3f m for %.2f s  "
					 "added pop %.1f  drift %.4f  knee inv %d  elbow inv %d  limits %d  nan %d  unmeasured %d%s%s\n",
					 view.scenario->name, view.scenario->system, view.scenario->motion, view.scenario->rig, view.frame,
					 view.scenario->frames, (double)view.time, lbCharacterStateName(view.state), (double)lbLength(view.velocityWs),
					 v->paused ? "  PAUSED" : "", v->slow ? "  SLOW x0.2" : "", v->fpsText,
					 (double)lbMaxF(m->solePenetration, 0.0f), (double)lbMaxF(m->limbPenetration, 0.0f),
					 support, (double)lbMaxF(m->hover, 0.0f),
					 (double)lbMaxF(m->floatHeight, 0.0f), (double)lbMaxF(m->contactDrift, 0.0f),
					 (double)lbMaxF(m->addedPopDeg, 0.0f), (double)lbMaxF(m->sourcePopDeg, 0.0f), (double)m->kneeCross,
					 (double)m->selfPenetration,
					 (double)lbMaxF(s->solePenetrationMax, 0.0f), (double)lbMaxF(s->limbPenetrationMax, 0.0f),
					 supportMin, (double)lbMaxF(s->hoverMax, 0.0f),
					 (double)s->floatingMax, (double)s->floatingTime, (double)lbMaxF(s->addedPopMax, 0.0f),
					 (double)lbMaxF(s->contactDriftMax, 0.0f), s->kneeInversions, s->elbowInversions, s->limitViolations,
					 s->nanFrames, s->unmeasuredFrames, s->unmeasuredFrames > 0 ? ": " : "",
					 s->unmeasuredFrames > 0 && s->unmeasuredReason ? s->unmeasuredReason : "");
	const char* names[16];
	float values[16];
	int count = lbRun_GetSystemValues(v->run, names, values, 16);
	for (int i = 0; i < count && i < 16 && n < (int)sizeof text - 64; ++i)
		n += snprintf(text + n, sizeof text - (size_t)n, "%s%s %.3g", i ? "  " : "", names[i], (double)values[i]);
	if (count > 0 && n < (int)sizeof text - 2)
		n += snprintf(text + n, sizeof text - (size_t)n, "\n");
	static const char* const layerNames[lb_layerCount] = { "casts", "normals", "targets", "poles", "reach", "contacts" };
	n += snprintf(text + n, sizeof text - (size_t)n, "layers:");
	for (int i = 0; i < lb_layerCount; ++i)
		n += snprintf(text + n, sizeof text - (size_t)n, " F%d %s%s", i + 1, layerNames[i], (v->layers >> i) & 1 ? "*" : "");
	int lines = 1;
	for (const char* c = text; *c; ++c)
		lines += *c == '\n';
	lbRenderer_DrawRect(v->renderer, v->width, v->height, 4.0f, 4.0f, lbRenderer_TextWidth(v->renderer, text) + 18.0f,
						(float)lines * fs * 1.2f + 10.0f, 0xFFFFFF90u);
	lbRenderer_DrawText(v->renderer, v->width, v->height, 12.0f, 8.0f, text, 0x1A1E26FFu);
	lbDragTarget targets[1];
	bool drag = lbRun_GetDragTargets(v->run, targets, 1) > 0;
	const char* help = lbUsesStick(v) ? "1-4 limb  WASD/arrows steer  Space confirm  R release"
									  : "WASD/arrows walk (crawl when prone)  Shift run  Space jump  Z down  X stand";
	char line[512];
	snprintf(line, sizeof line,
			 "%s%s\nP pause  N step  M slow  mouse: orbit / Shift or right: pan / wheel: zoom  C camera  PgUp/PgDn scenario  "
			 "Backspace restart  H text",
			 help, drag ? "  drag targets with the mouse" : "");
	float boxH = 2.0f * fs * 1.2f + 8.0f;
	lbRenderer_DrawRect(v->renderer, v->width, v->height, 4.0f, (float)v->height - boxH - 4.0f,
						lbRenderer_TextWidth(v->renderer, line) + 18.0f, boxH, 0xFFFFFF90u);
	lbRenderer_DrawText(v->renderer, v->width, v->height, 12.0f, (float)v->height - boxH - 2.0f, line, 0x1A1E26E0u);
	if (v->message[0])
		lbRenderer_DrawText(v->renderer, v->width, v->height, 12.0f, (float)v->height - 3.0f * fs * 1.2f - 14.0f, v->message,
							0xB02020FFu);
}

static void lbRenderFrame(lbViewer* v)
{
	if (v->cameraFromScenario)
	{
		lbRunView view = lbRun_GetView(v->run);
		v->camera = lbScenarioCameraNow(&view);
	}
	lbRun_SetCameraPosition(v->run, lbCameraEye(&v->camera));
	lbDrawOptions o = { v->layers, v->hotTarget, false };
	lbRenderer_Draw(v->renderer, v->run, &v->camera, v->width, v->height, &o);
	lbDrawHud(v);
}

static bool lbMakeDir(const char* path)
{
	char tmp[1024];
	snprintf(tmp, sizeof tmp, "%s", path);
	for (char* p = tmp + 1; *p; ++p)
		if (*p == '/')
		{
			*p = 0;
			mkdir(tmp, 0755);
			*p = '/';
		}
	return mkdir(tmp, 0755) == 0 || errno == EEXIST;
}

// Renders `frames` frames to PNG files in `outDir` with no visible window.
static int lbHeadlessFrames(lbViewer* v, int frames, const char* outDir)
{
	if (!lbMakeDir(outDir))
	{
		fprintf(stderr, "limber-viewer: cannot create %s\n", outDir);
		return 1;
	}
	GLFWwindow* win = NULL;
	lbHeadless* egl = NULL;
	lbPinGlDriver();
	if (glfwInit())
	{
		glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
		glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
		glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
		glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
		glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
		win = glfwCreateWindow(v->width, v->height, "limber-viewer", NULL, NULL);
		if (win)
			glfwMakeContextCurrent(win);
	}
	if (!win)
	{
		char why[256];
		egl = lbCreateHeadless(v->width, v->height, why, (int)sizeof why);
		if (!egl)
		{
			fprintf(stderr, "limber-viewer: no display and no EGL: %s\n", why);
			glfwTerminate();
			return 1;
		}
	}
	int status = 0;
	v->renderer = lbCreateRenderer();
	uint8_t* pixels = (uint8_t*)malloc((size_t)v->width * (size_t)v->height * 4);
	if (!v->renderer || !pixels)
		status = 1;
	else
		lbRenderer_LoadFont(v->renderer, LB_FONT, lbFontSize(v->width));
	for (int i = 0; i < frames && status == 0; ++i)
	{
		if (i > 0)
			lbRun_Step(v->run);
		v->fps = 0.0;
		if (egl)
			lbHeadless_Bind(egl);
		else
		{
			glBindFramebuffer(GL_FRAMEBUFFER, 0);
			int fw, fh;
			glfwGetFramebufferSize(win, &fw, &fh);
			v->width = fw;
			v->height = fh;
		}
		lbRenderFrame(v);
		glFinish();
		lbReadPixels(v->width, v->height, pixels);
		char path[1200];
		snprintf(path, sizeof path, "%s/frame_%05d.png", outDir, i);
		if (!lbWritePng(path, v->width, v->height, pixels))
		{
			fprintf(stderr, "limber-viewer: cannot write %s\n", path);
			status = 1;
		}
	}
	printf("limber-viewer: %d frames of %s written to %s (%s)\n", status ? 0 : frames, v->scenario->name, outDir,
		   egl ? "EGL surfaceless" : "hidden window");
	free(pixels);
	lbDestroyRenderer(v->renderer);
	v->renderer = NULL;
	if (win)
		glfwDestroyWindow(win);
	lbDestroyHeadless(egl);
	glfwTerminate();
	return status;
}

static int lbInteractive(lbViewer* v)
{
	lbPinGlDriver();
	if (!glfwInit())
	{
		fprintf(stderr, "limber-viewer: no display (use --frames N --out DIR to render without one)\n");
		return 1;
	}
	glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
	glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
	glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
	glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
	glfwWindowHint(GLFW_SAMPLES, 4);
	GLFWwindow* win = glfwCreateWindow(v->width, v->height, "limber-viewer", NULL, NULL);
	if (!win)
	{
		fprintf(stderr, "limber-viewer: cannot open an OpenGL 3.3 core window\n");
		glfwTerminate();
		return 1;
	}
	glfwMakeContextCurrent(win);
	glfwSwapInterval(1);
	glfwSetWindowUserPointer(win, v);
	glfwSetKeyCallback(win, lbKey);
	glfwSetMouseButtonCallback(win, lbMouseButton);
	glfwSetCursorPosCallback(win, lbCursor);
	glfwSetScrollCallback(win, lbScroll);
	glfwSetDropCallback(win, lbDrop);
	v->renderer = lbCreateRenderer();
	if (!v->renderer)
	{
		fprintf(stderr, "limber-viewer: renderer set-up failed\n");
		glfwDestroyWindow(win);
		glfwTerminate();
		return 1;
	}
	if (!lbRenderer_LoadFont(v->renderer, LB_FONT, lbFontSize(v->width)))
		fprintf(stderr, "limber-viewer: font %s not found (install fonts-dejavu-core); no on-screen text\n", LB_FONT);
	glEnable(GL_MULTISAMPLE);
	double last = glfwGetTime(), fpsTime = last;
	int fpsFrames = 0;
	while (!glfwWindowShouldClose(win))
	{
		glfwPollEvents();
		double now = glfwGetTime();
		lbPollControls(v, win);
		lbAdvance(v, now - last);
		last = now;
		glfwGetFramebufferSize(win, &v->width, &v->height);
		glBindFramebuffer(GL_FRAMEBUFFER, 0);
		lbRenderFrame(v);
		glfwSwapBuffers(win);
		++fpsFrames;
		if (now - fpsTime > 0.5)
		{
			v->fps = fpsFrames / (now - fpsTime);
			fpsTime = now;
			fpsFrames = 0;
		}
	}
	lbDestroyRenderer(v->renderer);
	v->renderer = NULL;
	glfwDestroyWindow(win);
	glfwTerminate();
	return 0;
}

static void lbUsage(FILE* f)
{
	fprintf(f, "usage: limber-viewer [SCENARIO.json] [--size WxH] [--frames N --out DIR]\n"
			   "  With --frames, renders N frames (with the on-screen text) to DIR/frame_NNNNN.png and exits;\n"
			   "  no visible window is needed (a hidden GLFW window, or EGL surfaceless without a display).\n"
			   "  Keys: P pause, N step, M slow motion, F1-F6 debug layers, 1-4 select limb, WASD/arrows,\n"
			   "  Shift run, Space confirm/jump, R release, Z down to prone (WASD crawls), X stand up,\n"
			   "  PgUp/PgDn next scenario, Backspace restart, Esc quit.\n");
}

int main(int argc, char** argv)
{
	static lbViewer viewer;
	lbViewer* v = &viewer;
	v->hud = true;
	v->hotTarget = -1;
	v->dragTarget = -1;
	v->width = 1280;
	v->height = 720;
	v->layers = (1u << lb_layerContacts) | (1u << lb_layerTargets);
	const char* file = NULL;
	const char* outDir = NULL;
	int frames = 0;
	for (int i = 1; i < argc; ++i)
	{
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
		{
			lbUsage(stdout);
			return 0;
		}
		else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
		{
			frames = atoi(argv[++i]);
			if (frames < 1 || frames > 100000)
			{
				fprintf(stderr, "limber-viewer: --frames expects a whole number >= 1\n");
				return 1;
			}
		}
		else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
			outDir = argv[++i];
		else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc)
		{
			char tail;
			if (sscanf(argv[++i], "%dx%d%c", &v->width, &v->height, &tail) != 2 || v->width < 16 || v->height < 16 ||
				v->width > 8192 || v->height > 8192)
			{
				fprintf(stderr, "limber-viewer: --size expects WxH, 16..8192 pixels per side\n");
				return 1;
			}
		}
		else if (argv[i][0] == '-')
		{
			fprintf(stderr, "limber-viewer: unknown option \"%s\" (see --help)\n", argv[i]);
			return 1;
		}
		else
			file = argv[i];
	}
	if (frames > 0 && !outDir)
	{
		fprintf(stderr, "limber-viewer: --frames needs --out DIR\n");
		return 1;
	}
	lbSetLogFcn(NULL, NULL);
	lbCollectScenarios(v, LB_SCENARIO_DIR);
	char fallback[1024];
	snprintf(fallback, sizeof fallback, "%s/%s", LB_SCENARIO_DIR, LB_DEFAULT_SCENARIO);
	if (!file)
		file = fallback;
	for (int i = 0; i < v->fileCount; ++i)
		if (strstr(v->files[i], file) || strstr(file, v->files[i]))
			v->fileIndex = i;
	if (!lbOpen(v, file))
		return 1;
	int status = frames > 0 ? lbHeadlessFrames(v, frames, outDir) : lbInteractive(v);
	lbDestroyRun(v->run);
	lbDestroyScenario(v->scenario);
	return status;
}
