// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Orbit camera maths: eye position, view-projection matrix (column-major, OpenGL clip space)
// and pixel rays for picking.
#include "render.h"

#include <math.h>
#include <string.h>

static lbVec3 lbReferenceForward(lbVec3 up)
{
	lbVec3 f = lbProjectOnPlane(lbVec3_axisX, up);
	if (lbLength(f) < 0.5f)
		f = lbProjectOnPlane(lbVec3_axisY, up);
	return lbNormalize(f);
}

lbCamera lbScenarioCameraNow(const lbRunView* view)
{
	lbCamera c;
	const lbScenarioCamera* sc = &view->scenario->camera;
	c.up = view->upWs;
	c.target = sc->target;
	if (sc->follow)
	{
		// Follow the character's horizontal position; keep the camera's height steady.
		lbVec3 p = view->characterWs.p;
		lbVec3 horizontal = lbProjectOnPlane(p, view->upWs);
		c.target = lbAdd(sc->target, horizontal);
		float ground = lbDot(view->characterWs.p, view->upWs);
		c.target = lbMulAdd(c.target, ground, view->upWs);
	}
	c.yawDeg = sc->yawDeg;
	c.pitchDeg = sc->pitchDeg;
	c.distance = sc->distance;
	c.fovDeg = sc->fovDeg;
	return c;
}

lbVec3 lbCameraEye(const lbCamera* c)
{
	lbVec3 up = lbNormalizeOr(c->up, lbVec3_axisZ);
	lbVec3 f = lbReferenceForward(up);
	lbVec3 s = lbCross(up, f);
	float yaw = c->yawDeg * LB_DEG2RAD, pitch = c->pitchDeg * LB_DEG2RAD;
	lbVec3 dir = lbAdd(lbMulSV(cosf(pitch), lbAdd(lbMulSV(cosf(yaw), f), lbMulSV(sinf(yaw), s))), lbMulSV(sinf(pitch), up));
	return lbMulAdd(c->target, c->distance, dir);
}

static void lbMatMul(const float a[16], const float b[16], float out[16])
{
	float r[16];
	for (int col = 0; col < 4; ++col)
		for (int row = 0; row < 4; ++row)
		{
			float v = 0.0f;
			for (int k = 0; k < 4; ++k)
				v += a[k * 4 + row] * b[col * 4 + k];
			r[col * 4 + row] = v;
		}
	memcpy(out, r, sizeof r);
}

static void lbCameraBasis(const lbCamera* c, lbVec3* eye, lbVec3* fwd, lbVec3* right, lbVec3* upv)
{
	lbVec3 up = lbNormalizeOr(c->up, lbVec3_axisZ);
	*eye = lbCameraEye(c);
	*fwd = lbNormalizeOr(lbSub(c->target, *eye), lbNeg(up));
	*right = lbNormalizeOr(lbCross(*fwd, up), lbAnyPerpendicular(*fwd));
	*upv = lbCross(*right, *fwd);
}

void lbCameraViewProjection(const lbCamera* c, float aspect, float out[16])
{
	lbVec3 eye, f, r, u;
	lbCameraBasis(c, &eye, &f, &r, &u);
	float view[16] = {
		r.x, u.x, -f.x, 0.0f, r.y, u.y, -f.y, 0.0f, r.z, u.z, -f.z, 0.0f, -lbDot(r, eye), -lbDot(u, eye), lbDot(f, eye), 1.0f,
	};
	float n = 0.05f, fa = 500.0f;
	float t = 1.0f / tanf(0.5f * c->fovDeg * LB_DEG2RAD);
	float proj[16] = { 0 };
	proj[0] = t / (aspect > 0.0f ? aspect : 1.0f);
	proj[5] = t;
	proj[10] = -(fa + n) / (fa - n);
	proj[11] = -1.0f;
	proj[14] = -2.0f * fa * n / (fa - n);
	lbMatMul(proj, view, out);
}

void lbCameraPixelRay(const lbCamera* c, int width, int height, float x, float y, lbVec3* outOrigin, lbVec3* outDirection)
{
	lbVec3 eye, f, r, u;
	lbCameraBasis(c, &eye, &f, &r, &u);
	float t = tanf(0.5f * c->fovDeg * LB_DEG2RAD);
	float aspect = height > 0 ? (float)width / (float)height : 1.0f;
	float nx = (2.0f * (x + 0.5f) / (float)width - 1.0f) * t * aspect;
	float ny = (1.0f - 2.0f * (y + 0.5f) / (float)height) * t;
	*outOrigin = eye;
	*outDirection = lbNormalize(lbAdd(f, lbAdd(lbMulSV(nx, r), lbMulSV(ny, u))));
}

bool lbCameraProject(const lbCamera* c, int width, int height, lbVec3 p, float* outX, float* outY)
{
	float m[16];
	lbCameraViewProjection(c, height > 0 ? (float)width / (float)height : 1.0f, m);
	float x = m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12];
	float y = m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13];
	float w = m[3] * p.x + m[7] * p.y + m[11] * p.z + m[15];
	if (!(w > 1.0e-6f))
		return false;
	*outX = (x / w * 0.5f + 0.5f) * (float)width;
	*outY = (0.5f - y / w * 0.5f) * (float)height;
	return true;
}
