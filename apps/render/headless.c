// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Headless OpenGL 3.3 core through EGL on Mesa's surfaceless platform: no display server and no
// GPU needed (llvmpipe). Drawing goes to a 4x multisampled framebuffer, resolved for read-back.
#if defined(LB_PIN_GL_DRIVER)
#define _GNU_SOURCE
#include <dlfcn.h>
#endif
#include "render.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_image_write.h>

struct lbHeadless
{
	EGLDisplay display;
	EGLContext context;
	int width, height;
	GLuint msFbo, msColor, msDepth;
	GLuint fbo, color;
};

static bool lbHeadlessFail(char* msg, int cap, const char* text)
{
	if (msg && cap > 0)
		snprintf(msg, (size_t)cap, "%s", text);
	return false;
}

void lbPinGlDriver(void)
{
#if defined(LB_PIN_GL_DRIVER)
	// Sanitizer builds only: Mesa unloads its driver at exit, after which LeakSanitizer can no
	// longer see the driver's globals and reports everything they hold as leaked. Keeping the
	// driver mapped (RTLD_NODELETE) makes those allocations reachable again, so real leaks in
	// limber still show and Mesa's do not.
	static const char* const paths[] = {
		"/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so", "/usr/lib/aarch64-linux-gnu/dri/swrast_dri.so",
		"/usr/lib64/dri/swrast_dri.so", "/usr/lib/dri/swrast_dri.so",
	};
	for (int i = 0; i < (int)(sizeof paths / sizeof paths[0]); ++i)
		if (dlopen(paths[i], RTLD_NOW | RTLD_NODELETE))
			break;
#endif
}

lbHeadless* lbCreateHeadless(int width, int height, char* msg, int cap)
{
	lbPinGlDriver();
	if (width < 1 || height < 1)
	{
		lbHeadlessFail(msg, cap, "bad frame size");
		return NULL;
	}
	if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless"))
	{
		lbHeadlessFail(msg, cap, "EGL_MESA_platform_surfaceless is not available (install libegl-mesa0)");
		return NULL;
	}
	EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLint major = 0, minor = 0;
	if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor))
	{
		lbHeadlessFail(msg, cap, "cannot initialise an EGL surfaceless display");
		return NULL;
	}
	if (!eglBindAPI(EGL_OPENGL_API))
	{
		eglTerminate(dpy);
		lbHeadlessFail(msg, cap, "EGL cannot bind the OpenGL API");
		return NULL;
	}
	const EGLint configAttribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE };
	EGLConfig config = NULL;
	EGLint count = 0;
	// Surfaceless contexts need no config on Mesa; use one when offered.
	if (!eglChooseConfig(dpy, configAttribs, &config, 1, &count) || count < 1)
		config = NULL;
	const EGLint ctxAttribs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
								  EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
	EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctxAttribs);
	if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
	{
		if (ctx != EGL_NO_CONTEXT)
			eglDestroyContext(dpy, ctx);
		eglTerminate(dpy);
		lbHeadlessFail(msg, cap, "cannot create an OpenGL 3.3 core context through EGL");
		return NULL;
	}
	lbHeadless* h = (lbHeadless*)calloc(1, sizeof(lbHeadless));
	if (!h)
	{
		eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
		eglDestroyContext(dpy, ctx);
		eglTerminate(dpy);
		lbHeadlessFail(msg, cap, "out of memory");
		return NULL;
	}
	h->display = dpy;
	h->context = ctx;
	h->width = width;
	h->height = height;
	glGenFramebuffers(1, &h->msFbo);
	glGenRenderbuffers(1, &h->msColor);
	glGenRenderbuffers(1, &h->msDepth);
	glBindRenderbuffer(GL_RENDERBUFFER, h->msColor);
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_RGBA8, width, height);
	glBindRenderbuffer(GL_RENDERBUFFER, h->msDepth);
	glRenderbufferStorageMultisample(GL_RENDERBUFFER, 4, GL_DEPTH24_STENCIL8, width, height);
	glBindFramebuffer(GL_FRAMEBUFFER, h->msFbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, h->msColor);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, h->msDepth);
	bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
	glGenFramebuffers(1, &h->fbo);
	glGenRenderbuffers(1, &h->color);
	glBindRenderbuffer(GL_RENDERBUFFER, h->color);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
	glBindFramebuffer(GL_FRAMEBUFFER, h->fbo);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, h->color);
	ok = ok && glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
	if (!ok)
	{
		lbDestroyHeadless(h);
		lbHeadlessFail(msg, cap, "cannot create an offscreen framebuffer");
		return NULL;
	}
	lbHeadless_Bind(h);
	return h;
}

void lbDestroyHeadless(lbHeadless* h)
{
	if (!h)
		return;
	glDeleteFramebuffers(1, &h->msFbo);
	glDeleteFramebuffers(1, &h->fbo);
	glDeleteRenderbuffers(1, &h->msColor);
	glDeleteRenderbuffers(1, &h->msDepth);
	glDeleteRenderbuffers(1, &h->color);
	eglMakeCurrent(h->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(h->display, h->context);
	eglTerminate(h->display);
	eglReleaseThread();
	free(h);
}

void lbHeadless_Bind(lbHeadless* h)
{
	glBindFramebuffer(GL_FRAMEBUFFER, h->msFbo);
	glViewport(0, 0, h->width, h->height);
	// Reads resolve the multisampled image first.
	glBindFramebuffer(GL_READ_FRAMEBUFFER, h->msFbo);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, h->msFbo);
}

void lbReadPixels(int width, int height, uint8_t* rgba)
{
	GLint drawFbo = 0;
	glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &drawFbo);
	GLint samples = 0;
	glGetIntegerv(GL_SAMPLES, &samples);
	GLuint resolveFbo = 0, resolveColor = 0;
	if (samples > 0)
	{
		// Resolve into a single-sample buffer of the same size.
		glGenFramebuffers(1, &resolveFbo);
		glGenRenderbuffers(1, &resolveColor);
		glBindRenderbuffer(GL_RENDERBUFFER, resolveColor);
		glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
		glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolveFbo);
		glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, resolveColor);
		glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)drawFbo);
		glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
		glBindFramebuffer(GL_READ_FRAMEBUFFER, resolveFbo);
	}
	else
		glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)drawFbo);
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
	if (resolveFbo)
	{
		glDeleteFramebuffers(1, &resolveFbo);
		glDeleteRenderbuffers(1, &resolveColor);
	}
	glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)drawFbo);
	glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)drawFbo);
	// OpenGL rows run bottom-up; images run top-down.
	size_t row = (size_t)width * 4;
	uint8_t tmp[4 * 8192];
	for (int y = 0; y < height / 2; ++y)
	{
		uint8_t* a = rgba + (size_t)y * row;
		uint8_t* b = rgba + (size_t)(height - 1 - y) * row;
		for (size_t off = 0; off < row; off += sizeof tmp)
		{
			size_t n = row - off < sizeof tmp ? row - off : sizeof tmp;
			memcpy(tmp, a + off, n);
			memcpy(a + off, b + off, n);
			memcpy(b + off, tmp, n);
		}
	}
}

bool lbWritePng(const char* path, int width, int height, const uint8_t* rgba)
{
	return stbi_write_png(path, width, height, 4, rgba, width * 4) != 0;
}
