// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The heightfield's cell arithmetic a vertical ray needs, shared by the grid's own cast and the
// world's ray path for grids alone (which tests each grid in line, without the cast's state record).
#pragma once

#include "query/cast.h"
#include "core/bits.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>


// Slab test of a local cast against [lo, hi] per axis, with the inverse direction component
// precomputed (divisions are slow and there are several slabs per cell). Returns false when missed
// in [tLo, tHi]; otherwise narrows them.
static inline bool lbClipSlab(double s, double d, double inv, double lo, double hi, double* tLo, double* tHi)
{
	if (fabs(d) < 1e-300)
		return s >= lo && s <= hi;
	double t1 = (lo - s) * inv, t2 = (hi - s) * inv;
	if (t1 > t2)
	{
		double tmp = t1;
		t1 = t2;
		t2 = tmp;
	}
	*tLo = t1 > *tLo ? t1 : *tLo;
	*tHi = t2 < *tHi ? t2 : *tHi;
	return *tLo <= *tHi;
}

static inline int lbFloorClamp(double x, int lo, int hi)
{
	if (!(x > (double)lo))
		return lo;
	if (x >= (double)hi)
		return hi;
	// x > lo >= 0 here, so truncation is the floor (floor() is a library call without SSE4.1).
	return (int)x;
}

// Whether lbFloorClamp(hi, 0, last) is `first`, given first = lbFloorClamp(lo, 0, last) with
// lo <= hi, without the second clamp: always at `last` (hi >= lo clamps there too); below it
// exactly when hi < first + 1 (hi lies above first, and from first + 1 on it truncates or clamps
// to more).
static inline bool lbFloorClampSame(double hi, int first, int last)
{
	return first == last || hi < (double)(first + 1);
}

// Corner (0, 0) of cell (i, j) in its tile (from the grid's cell tables); +1 steps in i, +4 in j.
static inline const float* lbCellCorners(const lbHeightfield* hf, int i, int j)
{
	return &hf->tiles[hf->cellRow[j] + hf->cellColumn[i]];
}

// Whether cell point (qx, qy) of the plane lies in triangle tri (boundary included).
static inline bool lbHfInside(int tri, double qx, double qy, double cs)
{
	return tri == 0 ? (qy >= 0.0) & (qx <= cs) & (qy <= qx) : (qx >= 0.0) & (qy <= cs) & (qx <= qy);
}

// The triangle of cell (bi, bj) under a vertical ray's start (sx, sy, sz: cell-local x and y, the
// grid's z; off the diagonal) and where the ray (dx, dy, dz) meets its plane: the two vertical-ray
// paths' shared arithmetic, in the block pass's order. Returns false when the ray does not hit it
// before maxT (a ray in the plane, |d . n| <= 1e-14, has no area facing it); else the contact with
// its point from the start (px, py, sz) in the caller's frame, and the triangle's index in *outTri.
static LB_ALWAYS_INLINE bool lbHfVerticalTriangleHit(const lbHeightfield* hf, int bi, int bj, double invCs, double cs,
												 double sx, double sy, double px, double py, double sz, double dx,
												 double dy, double dz, double maxT, lbDContact* out, int* outTri)
{
	const int tri = sy < sx ? 0 : 1;
	const float* c = lbCellCorners(hf, bi, bj);
	const double h00 = c[0], h10 = c[1], h01 = c[4], h11 = c[5];
	const double gx = tri == 0 ? (h10 - h00) * invCs : (h11 - h01) * invCs;
	const double gy = tri == 0 ? (h11 - h10) * invCs : (h01 - h00) * invCs;
	const double f0 = (sz - h00) - gx * sx - gy * sy;
	const double fd = dz - gx * dx - gy * dy;
	const double g2 = 1.0 + gx * gx + gy * gy;
	const double t = -f0 / fd;
	if (!(fd * fd > 1e-28 * g2 && t >= 0.0 && t <= maxT && lbHfInside(tri, sx + t * dx, sy + t * dy, cs)))
		return false;
	const double sg = (fd > 0.0 ? -1.0 : 1.0) / sqrt(g2), kk = 0.0 * sg;
	out->kind = lb_contactHit;
	out->t = t;
	out->depth = 0.0;
	out->n = lbD3(-gx * sg, -gy * sg, sg);
	out->p = lbD3(px + t * dx + kk * gx, py + t * dy + kk * gy, sz + t * dz - kk);
	*outTri = tri;
	return true;
}

// A vertical ray on an unrotated grid (a foot's probe and footprint rays on upright ground) whose
// footprint is one cell and whose start is off that cell's diagonal: lbHfVerticalSetup and
// lbHfVerticalRayCell with the query record, its copy of the cast and the kept-hit round trip left
// out, the same operations in the same order, so the same hit to the bit. `sw` is the start (world),
// (dx, dy, dz) the unit direction (dx = dy = 0), r the radius (0), maxT the nearest hit's time so
// far. Returns -1, with nothing done, where only the full path can tell (a footprint of more cells,
// a start on the diagonal); 0 where the ray finds nothing before maxT (beside the grid too: the full
// path's set-up finds nothing either); 1 with the contact (its point relative to the grid's origin)
// in *out and its primitive in *outPrim. `skip`: an earlier overlap makes hits moot (lbHfKeep's
// rule), so none is looked for.
static LB_ALWAYS_INLINE int lbHfFlatVerticalCell(const lbHeightfield* hf, lbDVec3 sw, double dz, double r, double maxT, lbDVec3* outS,
											 int* outI, int* outJ, double* outX, double* outY)
{
	const lbDVec3 s = lbDSub(sw, hf->frame.p);
	const double cs = hf->cellSize, invCs = hf->invCellSize;
	const int cellsX = hf->cellsX, cellsY = hf->cellsY;
	const double grow = r + 1e-9 * (1.0 + fabs(s.x) + fabs(s.y) + fabs(s.z));
	const double x = s.x, y = s.y;
	if (!(x >= -grow && x <= hf->extentX + grow) || !(y >= -grow && y <= hf->extentY + grow))
		return 0;
	const int bi = lbFloorClamp((x - grow) * invCs, 0, cellsX - 1), bj = lbFloorClamp((y - grow) * invCs, 0, cellsY - 1);
	if (!lbFloorClampSame((x + grow) * invCs, bi, cellsX - 1) || !lbFloorClampSame((y + grow) * invCs, bj, cellsY - 1))
		return -1;
	const double sx = s.x - bi * cs, sy = s.y - bj * cs;
	if (!(sx != sy))
		return -1;
	double t0 = 0.0, t1 = maxT;
	const double invZ = fabs(dz) < 1e-300 ? 0.0 : 1.0 / dz;
	if (!lbClipSlab(s.z, dz, invZ, hf->minHeight - grow, hf->maxHeight + grow, &t0, &t1))
		return 0; // misses the grid's height range: no hit, as on the full path
	*outS = s;
	*outI = bi;
	*outJ = bj;
	*outX = sx;
	*outY = sy;
	return 1;
}

static LB_ALWAYS_INLINE int lbHfFlatVerticalHit(const lbHeightfield* hf, lbDVec3 sw, double dx, double dy, double dz, double r,
											double maxT, bool skip, lbDContact* out, int* outPrim)
{
	lbDVec3 s;
	int bi, bj, tri;
	double sx, sy;
	const int cell = lbHfFlatVerticalCell(hf, sw, dz, r, maxT, &s, &bi, &bj, &sx, &sy);
	if (cell <= 0)
		return cell;
	if (skip || !lbHfVerticalTriangleHit(hf, bi, bj, hf->invCellSize, hf->cellSize, sx, sy, s.x, s.y, s.z, dx, dy, dz, maxT,
										 out, &tri))
		return 0;
	*outPrim = 2 * (bj * hf->cellsX + bi) + tri;
	return 1;
}

// lbHfFlatVerticalHit for a ray (r = 0) whose direction is exactly (0, 0, dz), as the world's ray
// path has it, with the terms that zero direction makes zero left out, so the same answers with
// less arithmetic: the plane's closing rate dz - gx 0 - gy 0 is dz (which is not 0: |dz| is 1 to
// rounding); the cell point the ray meets is the start's (t, finite wherever it is looked at, times
// 0 adds a zero, and no comparison in lbHfInside tells a zero's sign); and only the time and the
// normal are made (the world writes a ray's hit point from its start and the time). Returns as
// lbHfFlatVerticalHit, with the time, the unit normal facing the ray (grid frame = world, the grid
// being unrotated; not made when outN is NULL) and the primitive.
static LB_ALWAYS_INLINE int lbHfVerticalRayHit(const lbHeightfield* hf, lbDVec3 sw, double dz, double maxT, double* outT,
										   lbDVec3* outN, int* outPrim)
{
	lbDVec3 s;
	int bi, bj;
	double sx, sy;
	const int cell = lbHfFlatVerticalCell(hf, sw, dz, 0.0, maxT, &s, &bi, &bj, &sx, &sy);
	if (cell <= 0)
		return cell;
	// lbHfVerticalTriangleHit's numbers.
	const double invCs = hf->invCellSize;
	const int tri = sy < sx ? 0 : 1;
	const float* c = lbCellCorners(hf, bi, bj);
	const double h00 = c[0], h10 = c[1], h01 = c[4], h11 = c[5];
	const double gx = tri == 0 ? (h10 - h00) * invCs : (h11 - h01) * invCs;
	const double gy = tri == 0 ? (h11 - h10) * invCs : (h01 - h00) * invCs;
	const double f0 = (s.z - h00) - gx * sx - gy * sy;
	const double g2 = 1.0 + gx * gx + gy * gy;
	const double t = -f0 / dz;
	if (!(dz * dz > 1e-28 * g2 && t >= 0.0 && t <= maxT && lbHfInside(tri, sx, sy, hf->cellSize)))
		return 0;
	*outT = t;
	// A caller that wants only where the ray stops passes no normal (NULL) and skips its root.
	if (outN)
	{
		const double sg = (dz > 0.0 ? -1.0 : 1.0) / sqrt(g2);
		*outN = lbD3(-gx * sg, -gy * sg, sg);
	}
	*outPrim = 2 * (bj * hf->cellsX + bi) + tri;
	return 1;
}
