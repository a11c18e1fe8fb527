// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The renderer: every frame builds world-space triangles on the CPU (capsules per bone, debug
// shapes) and draws them with one lit shader; the ground and world shapes get a procedural grid;
// the character casts a planar shadow on flat ground (stencilled so overlaps do not darken twice).
#include "render.h"

#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stb_truetype.h>

#include "limber/import.h"

#define LB_SHADOW_SIZE 2048

typedef struct lbVertex
{
	float p[3];
	float n[3];
	float c[4];
} lbVertex;

typedef struct lbBatch
{
	lbVertex* v;
	int count, capacity;
} lbBatch;

struct lbRenderer
{
	GLuint litProgram, skyProgram, textProgram;
	GLint uViewProj, uEye, uLightDir, uGrid, uUp, uFogColor, uShadow, uLightViewProj, uUseShadow, uShadowMap;
	GLuint shadowFbo, shadowTexture;
	// World triangles do not change during a run: uploaded once, keyed by the run's triangle array.
	GLuint staticVao, staticVbo;
	int staticCount;
	const lbVec3* staticKey;
	int staticKeyCount;
	GLuint vao, vbo;
	GLuint skyVao;
	GLuint textVao, textVbo, fontTexture;
	stbtt_bakedchar glyphs[96];
	float fontHeight;
	bool hasFont;
	lbBatch world, body, debug, lines;
};

static const char* const lbLitVs =
	"#version 330 core\n"
	"layout(location=0) in vec3 aPos; layout(location=1) in vec3 aNormal; layout(location=2) in vec4 aColor;\n"
	"uniform mat4 uViewProj;\n"
	"out vec3 vPos; out vec3 vNormal; out vec4 vColor;\n"
	"void main(){ vPos = aPos; vNormal = aNormal; vColor = aColor; gl_Position = uViewProj * vec4(aPos, 1.0); }\n";

static const char* const lbLitFs =
	"#version 330 core\n"
	"in vec3 vPos; in vec3 vNormal; in vec4 vColor; out vec4 fragColor;\n"
	"uniform vec3 uEye; uniform vec3 uLightDir; uniform int uGrid; uniform vec3 uUp; uniform vec3 uFogColor; uniform int uShadow;\n"
	"uniform mat4 uLightViewProj; uniform sampler2DShadow uShadowMap; uniform int uUseShadow;\n"
	"float shadowFactor(vec3 n){ if (uUseShadow == 0) return 1.0; vec4 lp = uLightViewProj * vec4(vPos + n * 0.01, 1.0); vec3 c = lp.xyz / lp.w * 0.5 + 0.5;\n"
	"  if (c.x <= 0.0 || c.x >= 1.0 || c.y <= 0.0 || c.y >= 1.0 || c.z >= 1.0) return 1.0;\n"
	"  vec2 texel = 1.0 / vec2(textureSize(uShadowMap, 0));\n"
	"  float s = texture(uShadowMap, vec3(c.xy + vec2(-0.6, -0.6) * texel, c.z - 0.0015)) + texture(uShadowMap, vec3(c.xy + vec2(0.6, 0.6) * texel, c.z - 0.0015));\n"
	"  return s * 0.5; }\n"
	"float gridLine(float x, float w){ float d = abs(fract(x - 0.5) - 0.5); float fw = fwidth(x); return 1.0 - smoothstep(w * fw, (w + 1.0) * fw, d); }\n"
	"void main(){\n"
	"  if (uShadow != 0) { fragColor = vColor; return; }\n"
	"  vec3 n = normalize(vNormal); vec3 v = normalize(uEye - vPos);\n"
	"  if (dot(n, v) < 0.0) n = -n;\n"
	"  vec3 base = vColor.rgb;\n"
	"  if (uGrid != 0) {\n"
	"    vec3 an = abs(n); float g = 0.0;\n"
	"    g = max(g, gridLine(vPos.x, 0.6) * (1.0 - an.x)); g = max(g, gridLine(vPos.y, 0.6) * (1.0 - an.y)); g = max(g, gridLine(vPos.z, 0.6) * (1.0 - an.z));\n"
	"    float g10 = 0.0; g10 = max(g10, gridLine(vPos.x * 0.2, 0.9) * (1.0 - an.x)); g10 = max(g10, gridLine(vPos.y * 0.2, 0.9) * (1.0 - an.y)); g10 = max(g10, gridLine(vPos.z * 0.2, 0.9) * (1.0 - an.z));\n"
	"    base = mix(base, base * 0.78, g); base = mix(base, base * 0.66, g10);\n"
	"  }\n"
	"  float hemi = 0.5 + 0.5 * dot(n, uUp);\n"
	"  vec3 ambient = mix(vec3(0.30, 0.28, 0.26), vec3(0.55, 0.60, 0.68), hemi);\n"
	"  float diff = max(dot(n, -uLightDir), 0.0) * mix(0.25, 1.0, shadowFactor(n));\n"
	"  vec3 h = normalize(v - uLightDir); float spec = pow(max(dot(n, h), 0.0), 48.0) * 0.25 * (uGrid != 0 ? 0.2 : 1.0);\n"
	"  float rim = pow(1.0 - max(dot(n, v), 0.0), 3.0) * 0.18;\n"
	"  vec3 col = base * (ambient * 0.9 + diff * vec3(1.0, 0.96, 0.9) * 0.75) + vec3(spec + rim);\n"
	"  float dist = length(uEye - vPos); float fog = clamp((dist - 25.0) / 60.0, 0.0, 1.0);\n"
	"  col = mix(col, uFogColor, fog);\n"
	"  fragColor = vec4(pow(col, vec3(1.0 / 1.1)), vColor.a);\n"
	"}\n";

static const char* const lbSkyVs = "#version 330 core\n"
								   "out vec2 vUv; void main(){ vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);\n"
								   "  vUv = p; gl_Position = vec4(p * 2.0 - 1.0, 0.999, 1.0); }\n";

static const char* const lbSkyFs = "#version 330 core\n"
								   "in vec2 vUv; out vec4 fragColor;\n"
								   "void main(){ float t = clamp(vUv.y, 0.0, 1.0);\n"
								   "  vec3 top = vec3(0.47, 0.60, 0.76); vec3 hor = vec3(0.86, 0.89, 0.92);\n"
								   "  fragColor = vec4(mix(hor, top, smoothstep(0.3, 1.0, t)), 1.0); }\n";

static const char* const lbTextVs = "#version 330 core\n"
									"layout(location=0) in vec2 aPos; layout(location=1) in vec2 aUv; uniform vec2 uScreen; out vec2 vUv;\n"
									"void main(){ vUv = aUv; gl_Position = vec4(aPos.x / uScreen.x * 2.0 - 1.0, 1.0 - aPos.y / uScreen.y * 2.0, 0.0, 1.0); }\n";

static const char* const lbTextFs = "#version 330 core\n"
									"in vec2 vUv; uniform sampler2D uFont; uniform vec4 uColor; uniform int uSolid; out vec4 fragColor;\n"
									"void main(){ float a = uSolid != 0 ? 1.0 : texture(uFont, vUv).r; fragColor = vec4(uColor.rgb, uColor.a * a); }\n";

static GLuint lbCompile(GLenum type, const char* src)
{
	GLuint s = glCreateShader(type);
	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	GLint ok = 0;
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok)
	{
		char log[1024];
		glGetShaderInfoLog(s, sizeof log, NULL, log);
		fprintf(stderr, "limber render: shader: %s\n", log);
		glDeleteShader(s);
		return 0;
	}
	return s;
}

static GLuint lbLink(const char* vs, const char* fs)
{
	GLuint v = lbCompile(GL_VERTEX_SHADER, vs), f = lbCompile(GL_FRAGMENT_SHADER, fs);
	if (!v || !f)
		return 0;
	GLuint p = glCreateProgram();
	glAttachShader(p, v);
	glAttachShader(p, f);
	glLinkProgram(p);
	glDeleteShader(v);
	glDeleteShader(f);
	GLint ok = 0;
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok)
	{
		glDeleteProgram(p);
		return 0;
	}
	return p;
}

lbRenderer* lbCreateRenderer(void)
{
	lbRenderer* r = (lbRenderer*)calloc(1, sizeof(lbRenderer));
	if (!r)
		return NULL;
	r->litProgram = lbLink(lbLitVs, lbLitFs);
	r->skyProgram = lbLink(lbSkyVs, lbSkyFs);
	r->textProgram = lbLink(lbTextVs, lbTextFs);
	if (!r->litProgram || !r->skyProgram || !r->textProgram)
	{
		lbDestroyRenderer(r);
		return NULL;
	}
	r->uViewProj = glGetUniformLocation(r->litProgram, "uViewProj");
	r->uEye = glGetUniformLocation(r->litProgram, "uEye");
	r->uLightDir = glGetUniformLocation(r->litProgram, "uLightDir");
	r->uGrid = glGetUniformLocation(r->litProgram, "uGrid");
	r->uUp = glGetUniformLocation(r->litProgram, "uUp");
	r->uFogColor = glGetUniformLocation(r->litProgram, "uFogColor");
	r->uShadow = glGetUniformLocation(r->litProgram, "uShadow");
	r->uLightViewProj = glGetUniformLocation(r->litProgram, "uLightViewProj");
	r->uUseShadow = glGetUniformLocation(r->litProgram, "uUseShadow");
	r->uShadowMap = glGetUniformLocation(r->litProgram, "uShadowMap");
	glGenTextures(1, &r->shadowTexture);
	glBindTexture(GL_TEXTURE_2D, r->shadowTexture);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, LB_SHADOW_SIZE, LB_SHADOW_SIZE, 0, GL_DEPTH_COMPONENT, GL_FLOAT, NULL);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
	glGenFramebuffers(1, &r->shadowFbo);
	glBindFramebuffer(GL_FRAMEBUFFER, r->shadowFbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r->shadowTexture, 0);
	glDrawBuffer(GL_NONE);
	glReadBuffer(GL_NONE);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glGenVertexArrays(1, &r->vao);
	glGenBuffers(1, &r->vbo);
	glBindVertexArray(r->vao);
	glBindBuffer(GL_ARRAY_BUFFER, r->vbo);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(lbVertex), (void*)offsetof(lbVertex, p));
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(lbVertex), (void*)offsetof(lbVertex, n));
	glEnableVertexAttribArray(2);
	glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, sizeof(lbVertex), (void*)offsetof(lbVertex, c));
	glGenVertexArrays(1, &r->staticVao);
	glGenBuffers(1, &r->staticVbo);
	glBindVertexArray(r->staticVao);
	glBindBuffer(GL_ARRAY_BUFFER, r->staticVbo);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(lbVertex), (void*)offsetof(lbVertex, p));
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, sizeof(lbVertex), (void*)offsetof(lbVertex, n));
	glEnableVertexAttribArray(2);
	glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, sizeof(lbVertex), (void*)offsetof(lbVertex, c));
	glGenVertexArrays(1, &r->skyVao);
	glGenVertexArrays(1, &r->textVao);
	glGenBuffers(1, &r->textVbo);
	glBindVertexArray(r->textVao);
	glBindBuffer(GL_ARRAY_BUFFER, r->textVbo);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), (void*)0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), (void*)(2 * sizeof(float)));
	glBindVertexArray(0);
	return r;
}

void lbDestroyRenderer(lbRenderer* r)
{
	if (!r)
		return;
	if (r->litProgram)
		glDeleteProgram(r->litProgram);
	if (r->skyProgram)
		glDeleteProgram(r->skyProgram);
	if (r->textProgram)
		glDeleteProgram(r->textProgram);
	glDeleteVertexArrays(1, &r->vao);
	glDeleteVertexArrays(1, &r->skyVao);
	glDeleteVertexArrays(1, &r->staticVao);
	glDeleteBuffers(1, &r->staticVbo);
	glDeleteVertexArrays(1, &r->textVao);
	glDeleteBuffers(1, &r->vbo);
	glDeleteBuffers(1, &r->textVbo);
	if (r->fontTexture)
		glDeleteTextures(1, &r->fontTexture);
	if (r->shadowTexture)
		glDeleteTextures(1, &r->shadowTexture);
	if (r->shadowFbo)
		glDeleteFramebuffers(1, &r->shadowFbo);
	free(r->world.v);
	free(r->body.v);
	free(r->debug.v);
	free(r->lines.v);
	free(r);
}

// ---------------------------------------------------------------------------------------------
// Geometry on the CPU

static void lbPush(lbBatch* b, lbVec3 p, lbVec3 n, const float c[4])
{
	if (b->count == b->capacity)
	{
		int cap = b->capacity ? b->capacity * 2 : 4096;
		lbVertex* nv = (lbVertex*)realloc(b->v, (size_t)cap * sizeof(lbVertex));
		if (!nv)
			return;
		b->v = nv;
		b->capacity = cap;
	}
	lbVertex* v = &b->v[b->count++];
	v->p[0] = p.x;
	v->p[1] = p.y;
	v->p[2] = p.z;
	v->n[0] = n.x;
	v->n[1] = n.y;
	v->n[2] = n.z;
	memcpy(v->c, c, sizeof v->c);
}

// Capsule from a to b with radius r: a cylinder plus two hemispheres, as triangles.
static void lbCapsule(lbBatch* b, lbVec3 a, lbVec3 c, float r, const float color[4])
{
	enum
	{
		SEG = 14,
		RINGS = 5
	};
	lbVec3 axis = lbSub(c, a);
	float len = lbLength(axis);
	lbVec3 z = len > 1.0e-6f ? lbMulSV(1.0f / len, axis) : lbVec3_axisZ;
	lbVec3 x = lbAnyPerpendicular(z);
	lbVec3 y = lbCross(z, x);
	// Profile: latitude from -90 (at a) to +90 (at c); the equator is split between the two ends.
	lbVec3 pts[2 * RINGS + 2][SEG + 1];
	lbVec3 nrm[2 * RINGS + 2][SEG + 1];
	int rows = 0;
	for (int half = 0; half < 2; ++half)
	{
		for (int i = 0; i <= RINGS; ++i)
		{
			float lat = half == 0 ? (-0.5f * LB_PI + 0.5f * LB_PI * (float)i / RINGS) : (0.5f * LB_PI * (float)i / RINGS);
			lbVec3 centre = half == 0 ? a : c;
			float cl = cosf(lat), sl = sinf(lat);
			for (int j = 0; j <= SEG; ++j)
			{
				float lon = 2.0f * LB_PI * (float)j / SEG;
				lbVec3 n = lbAdd(lbMulSV(cl * cosf(lon), x), lbAdd(lbMulSV(cl * sinf(lon), y), lbMulSV(sl, z)));
				nrm[rows][j] = n;
				pts[rows][j] = lbMulAdd(centre, r, n);
			}
			++rows;
		}
	}
	for (int i = 0; i + 1 < rows; ++i)
		for (int j = 0; j < SEG; ++j)
		{
			lbPush(b, pts[i][j], nrm[i][j], color);
			lbPush(b, pts[i][j + 1], nrm[i][j + 1], color);
			lbPush(b, pts[i + 1][j + 1], nrm[i + 1][j + 1], color);
			lbPush(b, pts[i][j], nrm[i][j], color);
			lbPush(b, pts[i + 1][j + 1], nrm[i + 1][j + 1], color);
			lbPush(b, pts[i + 1][j], nrm[i + 1][j], color);
		}
}

static void lbSphere(lbBatch* b, lbVec3 c, float r, const float color[4])
{
	lbCapsule(b, c, c, r, color);
}

static void lbQuad(lbBatch* b, lbVec3 p0, lbVec3 p1, lbVec3 p2, lbVec3 p3, lbVec3 n, const float color[4])
{
	lbPush(b, p0, n, color);
	lbPush(b, p1, n, color);
	lbPush(b, p2, n, color);
	lbPush(b, p0, n, color);
	lbPush(b, p2, n, color);
	lbPush(b, p3, n, color);
}

static void lbLine(lbBatch* b, lbVec3 a, lbVec3 c, const float color[4])
{
	lbPush(b, a, lbVec3_zero, color);
	lbPush(b, c, lbVec3_zero, color);
}

static void lbCircle(lbBatch* b, lbVec3 centre, lbVec3 u, lbVec3 v, float r, const float color[4])
{
	enum
	{
		N = 48
	};
	for (int i = 0; i < N; ++i)
	{
		float a0 = 2.0f * LB_PI * (float)i / N, a1 = 2.0f * LB_PI * (float)(i + 1) / N;
		lbVec3 p0 = lbAdd(centre, lbAdd(lbMulSV(r * cosf(a0), u), lbMulSV(r * sinf(a0), v)));
		lbVec3 p1 = lbAdd(centre, lbAdd(lbMulSV(r * cosf(a1), u), lbMulSV(r * sinf(a1), v)));
		lbLine(b, p0, p1, color);
	}
}

static lbVec3 lbWorldForwardOf(lbVec3 up)
{
	lbVec3 f = lbProjectOnPlane(lbVec3_axisX, up);
	if (lbLength(f) < 0.5f)
		f = lbProjectOnPlane(lbVec3_axisY, up);
	return lbNormalize(f);
}

static const float lbColTorso[4] = { 0.58f, 0.62f, 0.70f, 1.0f };
static const float lbColLeft[4] = { 0.40f, 0.58f, 0.86f, 1.0f };
static const float lbColRight[4] = { 0.90f, 0.58f, 0.36f, 1.0f };
static const float lbColSkin[4] = { 0.93f, 0.80f, 0.68f, 1.0f };
static const float lbColJoint[4] = { 0.30f, 0.32f, 0.36f, 1.0f };

static lbVec3 lbBoneP(const lbRunView* v, int bone)
{
	return lbTransformPoint(v->characterWs, v->pose->model[bone].p);
}

static lbVec3 lbBoneDir(const lbRunView* v, int bone, lbVec3 local)
{
	lbTransform ws = lbTransformMul(v->characterWs, v->pose->model[bone]);
	return lbNormalize(lbTransformDirection(ws, local));
}

static void lbSeg(lbBatch* b, const lbRunView* v, int from, int to, float r, const float* color)
{
	if (from < 0 || to < 0)
		return;
	lbCapsule(b, lbBoneP(v, from), lbBoneP(v, to), r, color);
}

static void lbBuildCharacter(lbBatch* b, const lbRunView* v)
{
	const lbHumanoid* h = v->humanoid;
	float scale = h->height > 0.1f ? h->height / 1.8f : 1.0f;
	// Torso: pelvis through the spine to the neck, a hip bar, the head.
	int prev = h->pelvis;
	for (int i = 0; i < h->spineCount; ++i)
	{
		lbSeg(b, v, prev, h->spine[i], (i == h->spineCount - 1 ? 0.125f : 0.115f) * scale, lbColTorso);
		prev = h->spine[i];
	}
	lbSeg(b, v, prev, h->neck >= 0 ? h->neck : h->head, 0.10f * scale, lbColTorso);
	if (h->neck >= 0)
		lbSeg(b, v, h->neck, h->head, 0.05f * scale, lbColSkin);
	lbSeg(b, v, h->leg[0].thigh, h->leg[1].thigh, 0.10f * scale, lbColTorso);
	if (h->head >= 0)
	{
		lbVec3 up = lbBoneDir(v, h->head, h->headUp);
		lbVec3 fwd = lbBoneDir(v, h->head, h->headForward);
		lbVec3 c = lbMulAdd(lbBoneP(v, h->head), 0.09f * scale, up);
		lbSphere(b, c, 0.105f * scale, lbColSkin);
		// A nose so the facing reads at a glance.
		lbSphere(b, lbMulAdd(lbMulAdd(c, 0.10f * scale, fwd), -0.01f * scale, up), 0.022f * scale, lbColSkin);
	}
	for (int s = 0; s < 2; ++s)
	{
		const float* col = s == 0 ? lbColLeft : lbColRight;
		const lbArmBones* arm = &h->arm[s];
		const lbLegBones* leg = &h->leg[s];
		const lbLegAxes* la = &h->legAxes[s];
		if (arm->clavicle >= 0)
			lbSeg(b, v, arm->clavicle, arm->upperArm, 0.055f * scale, lbColTorso);
		lbSeg(b, v, arm->upperArm, arm->foreArm, 0.055f * scale, col);
		lbSeg(b, v, arm->foreArm, arm->hand, 0.045f * scale, col);
		if (arm->hand >= 0)
		{
			lbVec3 hp = lbBoneP(v, arm->hand);
			lbVec3 fing = lbBoneDir(v, arm->hand, h->armAxes[s].finger);
			lbCapsule(b, lbMulAdd(hp, 0.03f * scale, fing), lbMulAdd(hp, 0.10f * scale, fing), 0.04f * scale, lbColSkin);
		}
		lbSeg(b, v, leg->thigh, leg->calf, 0.078f * scale, col);
		lbSeg(b, v, leg->calf, leg->foot, 0.058f * scale, col);
		if (leg->foot >= 0)
		{
			// The foot drawn on the sole points the systems place and the metrics judge (heel, ball
			// and toe tip, the tip carried by the toe bone), its underside on the sole line, so a
			// picture shows the toes where the figures measure them, bent where the pose bends them.
			lbVec3 ankle = lbBoneP(v, leg->foot);
			lbVec3 footUp = lbBoneDir(v, leg->foot, la->footUp);
			lbVec3 pts[lb_solePointCount];
			lbHumanoid_GetSolePointsMs(h, v->pose, s, pts);
			for (int k = 0; k < lb_solePointCount; ++k)
				pts[k] = lbTransformPoint(v->characterWs, pts[k]);
			float r = lbMinF(0.04f * scale, 0.5f * la->ankleHeight);
			lbVec3 sole = pts[lb_soleUnderAnkle];
			lbVec3 toe = lbNormalizeOr(lbSub(pts[lb_soleBall], pts[lb_soleHeel]), lbVec3_axisX);
			lbVec3 heel = lbMulAdd(lbMulAdd(pts[lb_soleHeel], r, footUp), r, toe);
			lbVec3 ball = lbMulAdd(pts[lb_soleBall], r, footUp);
			lbCapsule(b, heel, ball, r, lbColJoint);
			// The toes: from the ball to the tip, as thick as the foot at the ball and thinner at the
			// tip, their underside on the line from ball to tip.
			lbVec3 along = lbSub(pts[lb_soleToeTip], pts[lb_soleBall]);
			float toeLen = lbLength(along);
			if (toeLen > 1.0e-3f)
			{
				lbVec3 d = lbMulSV(1.0f / toeLen, along);
				lbVec3 upT = lbNormalizeOr(lbProjectOnPlane(footUp, d), footUp);
				float rt = lbMinF(0.7f * r, 0.5f * toeLen);
				lbCapsule(b, lbMulAdd(pts[lb_soleBall], rt, upT), lbMulAdd(lbMulAdd(pts[lb_soleToeTip], rt, upT), -rt, d), rt, lbColJoint);
			}
			lbCapsule(b, ankle, lbMulAdd(sole, 1.5f * r, footUp), 0.048f * scale, lbColJoint);
		}
	}
}

// Skinned meshes of an imported rig, skinned on the CPU (linear blend skinning: each vertex is
// the weighted sum of its bones' pose * inverse-bind transforms).
static void lbBuildSkinned(lbBatch* b, const lbRunView* v)
{
	static const float skin[4] = { 0.78f, 0.74f, 0.70f, 1.0f };
	int bones = v->pose->boneCount;
	lbTransform* xf = (lbTransform*)malloc((size_t)bones * sizeof(lbTransform));
	if (!xf)
		return;
	for (int i = 0; i < bones; ++i)
		xf[i] = lbTransformMul(v->characterWs, lbTransformMul(v->pose->model[i], v->inverseBind[i]));
	for (int m = 0; m < v->meshCount; ++m)
	{
		const lbSkinnedMesh* mesh = &v->meshes[m];
		for (int t = 0; t + 2 < mesh->indexCount; t += 3)
		{
			for (int k = 0; k < 3; ++k)
			{
				uint32_t vi = mesh->indices[t + k];
				if ((int)vi >= mesh->vertexCount)
					continue;
				lbVec3 p = lbVec3_zero, n = lbVec3_zero;
				for (int w = 0; w < 4; ++w)
				{
					float weight = mesh->boneWeights[4 * vi + (uint32_t)w];
					int bone = mesh->boneIndices[4 * vi + (uint32_t)w];
					if (weight <= 0.0f || bone < 0 || bone >= bones)
						continue;
					p = lbMulAdd(p, weight, lbTransformPoint(xf[bone], mesh->positions[vi]));
					n = lbMulAdd(n, weight, lbTransformDirection(xf[bone], mesh->normals[vi]));
				}
				lbPush(b, p, lbNormalizeOr(n, v->upWs), skin);
			}
		}
	}
	free(xf);
}

static const float lbColLayer[lb_layerCount][4] = {
	{ 0.95f, 0.85f, 0.20f, 1.0f }, // casts
	{ 0.20f, 0.85f, 0.95f, 1.0f }, // normals
	{ 0.95f, 0.20f, 0.60f, 1.0f }, // targets
	{ 0.55f, 0.30f, 0.95f, 1.0f }, // poles
	{ 0.30f, 0.75f, 0.35f, 0.6f }, // reach
	{ 0.25f, 0.90f, 0.40f, 1.0f }, // contacts
};
static const float lbColHot[4] = { 1.0f, 0.25f, 0.15f, 1.0f };

static void lbBuildDebug(lbRenderer* r, const lbRunView* v, const lbRun* run, const lbDrawOptions* o)
{
	lbVec3 up = v->upWs;
	for (int i = 0; i < v->debugCount; ++i)
	{
		const lbDebugItem* d = &v->debug[i];
		if (!(o->layers & (1u << d->layer)))
			continue;
		const float* col = d->highlight ? lbColHot : lbColLayer[d->layer];
		switch (d->shape)
		{
			case lb_debugLine:
				lbCapsule(&r->debug, d->a, d->b, 0.006f, col);
				break;
			case lb_debugPoint:
				lbSphere(&r->debug, d->a, d->radius > 0.0f ? d->radius : 0.02f, col);
				break;
			case lb_debugArrow:
			{
				lbVec3 dir = lbSub(d->b, d->a);
				float len = lbLength(dir);
				lbCapsule(&r->debug, d->a, d->b, 0.007f, col);
				if (len > 1.0e-4f)
					lbSphere(&r->debug, d->b, 0.018f, col);
				break;
			}
			case lb_debugSphere:
				if (d->layer == lb_layerReach)
				{
					lbVec3 f = lbWorldForwardOf(up);
					lbVec3 s = lbCross(up, f);
					lbCircle(&r->lines, d->a, f, s, d->radius, col);
					lbCircle(&r->lines, d->a, f, up, d->radius, col);
					lbCircle(&r->lines, d->a, s, up, d->radius, col);
				}
				else
					lbSphere(&r->debug, d->a, d->radius, col);
				break;
		}
	}
	(void)run;
}

static void lbBuildWorld(lbRenderer* r, const lbRun* run, const lbCamera* cam)
{
	lbRunWorldView w = lbRun_GetWorldView(run);
	lbRunView v = lbRun_GetView(run);
	lbVec3 up = v.upWs;
	static const float ground[4] = { 0.78f, 0.78f, 0.77f, 1.0f };
	static const float shape[4] = { 0.80f, 0.76f, 0.69f, 1.0f };
	if (w.groundPlane)
	{
		// A large quad centred under the camera target (the grid comes from the shader).
		lbVec3 f = lbWorldForwardOf(up), s = lbCross(up, f);
		lbVec3 c = lbAdd(lbProjectOnPlane(cam->target, up), lbMulSV(lbDot(w.groundPointWs, up), up));
		float e = 150.0f;
		lbVec3 p0 = lbAdd(c, lbAdd(lbMulSV(-e, f), lbMulSV(-e, s)));
		lbVec3 p1 = lbAdd(c, lbAdd(lbMulSV(e, f), lbMulSV(-e, s)));
		lbVec3 p2 = lbAdd(c, lbAdd(lbMulSV(e, f), lbMulSV(e, s)));
		lbVec3 p3 = lbAdd(c, lbAdd(lbMulSV(-e, f), lbMulSV(e, s)));
		lbQuad(&r->world, p0, p1, p2, p3, up, ground);
	}
	if (w.triangles == r->staticKey && w.triangleCount == r->staticKeyCount)
		return;
	lbBatch tris = { NULL, 0, 0 };
	for (int i = 0; i < w.triangleCount; ++i)
	{
		lbVec3 a = w.triangles[3 * i], b = w.triangles[3 * i + 1], c = w.triangles[3 * i + 2];
		lbVec3 n = lbNormalizeOr(lbCross(lbSub(b, a), lbSub(c, a)), up);
		lbPush(&tris, a, n, shape);
		lbPush(&tris, b, n, shape);
		lbPush(&tris, c, n, shape);
	}
	glBindBuffer(GL_ARRAY_BUFFER, r->staticVbo);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)tris.count * sizeof(lbVertex)), tris.v, GL_STATIC_DRAW);
	r->staticCount = tris.count;
	r->staticKey = w.triangles;
	r->staticKeyCount = w.triangleCount;
	free(tris.v);
}

void lbRenderer_ResetWorld(lbRenderer* r)
{
	r->staticKey = NULL;
	r->staticKeyCount = -1;
}

static void lbDrawStaticWorld(lbRenderer* r)
{
	if (r->staticCount <= 0)
		return;
	glBindVertexArray(r->staticVao);
	glDrawArrays(GL_TRIANGLES, 0, r->staticCount);
	glBindVertexArray(r->vao);
}

// Orthographic light view-projection (column-major) covering a cube of half size `radius` around
// `centre`, looking along `dir`.
static void lbLightMatrix(lbVec3 centre, lbVec3 dir, lbVec3 up, float radius, float out[16])
{
	lbVec3 fw = lbNormalize(dir);
	lbVec3 rt = lbNormalizeOr(lbCross(fw, up), lbAnyPerpendicular(fw));
	lbVec3 uv = lbCross(rt, fw);
	lbVec3 eye = lbMulAdd(centre, -4.0f * radius, fw);
	float n = 0.1f, fa = 8.0f * radius;
	float sx = 1.0f / radius, sz = -2.0f / (fa - n);
	float m[16] = {
		sx * rt.x, sx * uv.x, sz * -fw.x, 0.0f, sx * rt.y, sx * uv.y, sz * -fw.y, 0.0f, sx * rt.z, sx * uv.z, sz * -fw.z, 0.0f,
		-sx * lbDot(rt, eye), -sx * lbDot(uv, eye), sz * lbDot(fw, eye) - (fa + n) / (fa - n), 1.0f,
	};
	memcpy(out, m, sizeof m);
}

static void lbUpload(lbRenderer* r, const lbBatch* b)
{
	glBindBuffer(GL_ARRAY_BUFFER, r->vbo);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)b->count * sizeof(lbVertex)), b->v, GL_STREAM_DRAW);
}

static void lbDrawBatch(lbRenderer* r, const lbBatch* b, GLenum mode)
{
	if (b->count == 0)
		return;
	lbUpload(r, b);
	glDrawArrays(mode, 0, b->count);
}

void lbRenderer_Draw(lbRenderer* r, const lbRun* run, const lbCamera* cam, int width, int height, const lbDrawOptions* o)
{
	lbDrawOptions defaults = { 0, -1, false };
	if (!o)
		o = &defaults;
	r->world.count = r->body.count = r->debug.count = r->lines.count = 0;
	lbRunView v = lbRun_GetView(run);
	lbVec3 up = v.upWs;
	lbBuildWorld(r, run, cam);
	if (!o->hideCharacter && v.meshCount > 0 && v.inverseBind)
		lbBuildSkinned(&r->body, &v);
	else if (!o->hideCharacter)
		lbBuildCharacter(&r->body, &v);
	lbBuildDebug(r, &v, run, o);
	lbDragTarget targets[16];
	int tc = lbRun_GetDragTargets(run, targets, 16);
	for (int i = 0; i < tc && i < 16; ++i)
		if (i == o->hotTarget)
			lbSphere(&r->debug, targets[i].positionWs, 0.045f, lbColHot);

	// Key light from above, in front and to the side of the reference forward.
	lbVec3 f = lbWorldForwardOf(up), s = lbCross(up, f);
	lbVec3 light = lbNormalize(lbAdd(lbAdd(lbMulSV(-1.0f, up), lbMulSV(-0.45f, f)), lbMulSV(0.35f, s)));

	// Shadow map: orthographic depth from the light around the character.
	GLint target = 0;
	glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
	float lightVp[16];
	lbVec3 centre = v.characterWs.p;
	lbLightMatrix(centre, light, up, 7.0f, lightVp);
	glBindFramebuffer(GL_FRAMEBUFFER, r->shadowFbo);
	glViewport(0, 0, LB_SHADOW_SIZE, LB_SHADOW_SIZE);
	glClear(GL_DEPTH_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_LEQUAL);
	glUseProgram(r->litProgram);
	glUniformMatrix4fv(r->uViewProj, 1, GL_FALSE, lightVp);
	glUniform1i(r->uShadow, 1);
	glUniform1i(r->uUseShadow, 0);
	glBindVertexArray(r->vao);
	glEnable(GL_POLYGON_OFFSET_FILL);
	glPolygonOffset(2.0f, 4.0f);
	lbDrawBatch(r, &r->body, GL_TRIANGLES);
	lbDrawBatch(r, &r->world, GL_TRIANGLES);
	lbDrawStaticWorld(r);
	glDisable(GL_POLYGON_OFFSET_FILL);
	glBindFramebuffer(GL_FRAMEBUFFER, (GLuint)target);

	glViewport(0, 0, width, height);
	glClearColor(0.86f, 0.89f, 0.92f, 1.0f);
	glClearStencil(0);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
	glDisable(GL_CULL_FACE);
	glDisable(GL_DEPTH_TEST);
	glUseProgram(r->skyProgram);
	glBindVertexArray(r->skyVao);
	glDrawArrays(GL_TRIANGLES, 0, 3);

	float vp[16];
	lbCameraViewProjection(cam, (float)width / (float)(height > 0 ? height : 1), vp);
	lbVec3 eye = lbCameraEye(cam);
	glUseProgram(r->litProgram);
	glUniformMatrix4fv(r->uLightViewProj, 1, GL_FALSE, lightVp);
	glUniform1i(r->uUseShadow, 1);
	glUniform1i(r->uShadowMap, 1);
	glActiveTexture(GL_TEXTURE1);
	glBindTexture(GL_TEXTURE_2D, r->shadowTexture);
	glActiveTexture(GL_TEXTURE0);
	glUniformMatrix4fv(r->uViewProj, 1, GL_FALSE, vp);
	glUniform3f(r->uEye, eye.x, eye.y, eye.z);
	glUniform3f(r->uLightDir, light.x, light.y, light.z);
	glUniform3f(r->uUp, up.x, up.y, up.z);
	glUniform3f(r->uFogColor, 0.86f, 0.89f, 0.92f);
	glUniform1i(r->uShadow, 0);
	glBindVertexArray(r->vao);
	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_LEQUAL);
	glUniform1i(r->uGrid, 1);
	lbDrawBatch(r, &r->world, GL_TRIANGLES);
	lbDrawStaticWorld(r);

	glUniform1i(r->uGrid, 0);
	lbDrawBatch(r, &r->body, GL_TRIANGLES);
	// Debug shapes show through the body a little: drawn after, with depth test.
	lbDrawBatch(r, &r->debug, GL_TRIANGLES);
	if (r->lines.count > 0)
	{
		glUniform1i(r->uShadow, 1);
		glEnable(GL_BLEND);
		glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
		lbDrawBatch(r, &r->lines, GL_LINES);
		glDisable(GL_BLEND);
		glUniform1i(r->uShadow, 0);
	}
	glBindVertexArray(0);
	glUseProgram(0);
}

bool lbRenderer_LoadFont(lbRenderer* r, const char* path, float pixelHeight)
{
	FILE* f = fopen(path, "rb");
	if (!f)
		return false;
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fseek(f, 0, SEEK_SET);
	if (size <= 0 || size > (32 << 20))
	{
		fclose(f);
		return false;
	}
	unsigned char* ttf = (unsigned char*)malloc((size_t)size);
	bool ok = ttf && fread(ttf, 1, (size_t)size, f) == (size_t)size;
	fclose(f);
	enum
	{
		ATLAS = 512
	};
	unsigned char* bitmap = ok ? (unsigned char*)calloc(ATLAS * ATLAS, 1) : NULL;
	ok = ok && bitmap && stbtt_BakeFontBitmap(ttf, 0, pixelHeight, bitmap, ATLAS, ATLAS, 32, 96, r->glyphs) > 0;
	if (ok)
	{
		if (!r->fontTexture)
			glGenTextures(1, &r->fontTexture);
		glBindTexture(GL_TEXTURE_2D, r->fontTexture);
		glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, ATLAS, ATLAS, 0, GL_RED, GL_UNSIGNED_BYTE, bitmap);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
		r->fontHeight = pixelHeight;
		r->hasFont = true;
	}
	free(bitmap);
	free(ttf);
	return ok;
}

bool lbRenderer_DrawText(lbRenderer* r, int width, int height, float x, float y, const char* text, uint32_t rgba)
{
	if (!r->hasFont || !text)
		return false;
	size_t n = strlen(text);
	float* verts = (float*)malloc(n * 6 * 4 * sizeof(float));
	if (!verts)
		return false;
	int count = 0;
	float px = x, py = y + r->fontHeight * 0.8f;
	for (const char* c = text; *c; ++c)
	{
		if (*c == '\n')
		{
			px = x;
			py += r->fontHeight * 1.2f;
			continue;
		}
		int ch = (unsigned char)*c;
		if (ch < 32 || ch >= 128)
			ch = '?';
		stbtt_aligned_quad q;
		stbtt_GetBakedQuad(r->glyphs, 512, 512, ch - 32, &px, &py, &q, 1);
		float quad[6][4] = { { q.x0, q.y0, q.s0, q.t0 }, { q.x1, q.y0, q.s1, q.t0 }, { q.x1, q.y1, q.s1, q.t1 },
							 { q.x0, q.y0, q.s0, q.t0 }, { q.x1, q.y1, q.s1, q.t1 }, { q.x0, q.y1, q.s0, q.t1 } };
		memcpy(verts + (size_t)count * 4, quad, sizeof quad);
		count += 6;
	}
	glUseProgram(r->textProgram);
	glUniform2f(glGetUniformLocation(r->textProgram, "uScreen"), (float)width, (float)height);
	glUniform4f(glGetUniformLocation(r->textProgram, "uColor"), (float)((rgba >> 24) & 255) / 255.0f,
				(float)((rgba >> 16) & 255) / 255.0f, (float)((rgba >> 8) & 255) / 255.0f, (float)(rgba & 255) / 255.0f);
	glUniform1i(glGetUniformLocation(r->textProgram, "uFont"), 0);
	glUniform1i(glGetUniformLocation(r->textProgram, "uSolid"), 0);
	glActiveTexture(GL_TEXTURE0);
	glBindTexture(GL_TEXTURE_2D, r->fontTexture);
	glBindVertexArray(r->textVao);
	glBindBuffer(GL_ARRAY_BUFFER, r->textVbo);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)count * 4 * sizeof(float)), verts, GL_STREAM_DRAW);
	glDisable(GL_DEPTH_TEST);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	glDrawArrays(GL_TRIANGLES, 0, count);
	glDisable(GL_BLEND);
	glBindVertexArray(0);
	glUseProgram(0);
	free(verts);
	return true;
}

void lbRenderer_DrawRect(lbRenderer* r, int width, int height, float x, float y, float w, float h, uint32_t rgba)
{
	float quad[6][4] = { { x, y, 0, 0 }, { x + w, y, 0, 0 }, { x + w, y + h, 0, 0 },
						 { x, y, 0, 0 }, { x + w, y + h, 0, 0 }, { x, y + h, 0, 0 } };
	glUseProgram(r->textProgram);
	glUniform2f(glGetUniformLocation(r->textProgram, "uScreen"), (float)width, (float)height);
	glUniform4f(glGetUniformLocation(r->textProgram, "uColor"), (float)((rgba >> 24) & 255) / 255.0f,
				(float)((rgba >> 16) & 255) / 255.0f, (float)((rgba >> 8) & 255) / 255.0f, (float)(rgba & 255) / 255.0f);
	glUniform1i(glGetUniformLocation(r->textProgram, "uSolid"), 1);
	glBindVertexArray(r->textVao);
	glBindBuffer(GL_ARRAY_BUFFER, r->textVbo);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)sizeof quad, quad, GL_STREAM_DRAW);
	glDisable(GL_DEPTH_TEST);
	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	glDrawArrays(GL_TRIANGLES, 0, 6);
	glDisable(GL_BLEND);
	glBindVertexArray(0);
	glUseProgram(0);
}

float lbRenderer_TextWidth(const lbRenderer* r, const char* text)
{
	if (!r->hasFont || !text)
		return 0.0f;
	float best = 0.0f, x = 0.0f, y = 0.0f;
	for (const char* c = text; *c; ++c)
	{
		if (*c == '\n')
		{
			best = lbMaxF(best, x);
			x = 0.0f;
			continue;
		}
		int ch = (unsigned char)*c;
		if (ch < 32 || ch >= 128)
			ch = '?';
		stbtt_aligned_quad q;
		stbtt_GetBakedQuad(r->glyphs, 512, 512, ch - 32, &x, &y, &q, 1);
	}
	return lbMaxF(best, x);
}
