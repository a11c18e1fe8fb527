// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Heightfield casts walk the grid instead of building a tree: the cast is clipped to the grid's box,
// then the cells under the cast's footprint (the segment grown by the radius) are visited row by
// row in the direction of travel, like a 2D DDA (Amanatides and Woo, "A Fast Voxel Traversal
// Algorithm", Eurographics 1987) widened by the radius. Each cell's box is tested before its two
// triangles get the exact swept-sphere test, and rows and cells whose entry is beyond the nearest
// hit so far end the walk.
#include "query/cast.h"
#include "query/hf_ray.h"
#include "core/simd.h"

#include <float.h>
#include <stddef.h>

#include <stdlib.h>

lbDFrame lbMakeDFrame(lbTransform t)
{
	double x = t.q.x, y = t.q.y, z = t.q.z, w = t.q.w;
	double n = sqrt(x * x + y * y + z * z + w * w);
	n = n > 0.0 ? 1.0 / n : 1.0;
	x *= n, y *= n, z *= n, w *= n;
	lbDFrame f;
	// Columns: images of the local X, Y and Z axes.
	f.m[0] = 1.0 - 2.0 * (y * y + z * z);
	f.m[1] = 2.0 * (x * y + w * z);
	f.m[2] = 2.0 * (x * z - w * y);
	f.m[3] = 2.0 * (x * y - w * z);
	f.m[4] = 1.0 - 2.0 * (x * x + z * z);
	f.m[5] = 2.0 * (y * z + w * x);
	f.m[6] = 2.0 * (x * z + w * y);
	f.m[7] = 2.0 * (y * z - w * x);
	f.m[8] = 1.0 - 2.0 * (x * x + y * y);
	f.p = lbD3(t.p.x, t.p.y, t.p.z);
	return f;
}

// Ternary forms: fmin/fmax are often library calls, and these run for every visited cell.
static inline double lbMinD(double a, double b)
{
	return a < b ? a : b;
}

static inline double lbMaxD(double a, double b)
{
	return a > b ? a : b;
}

bool lbHeightfieldBuildTiles(lbHeightfield* hf)
{
	int cellsX = hf->countX - 1, cellsY = hf->countY - 1;
	int tilesX = (cellsX + 2) / 3, tilesY = (cellsY + 2) / 3;
	const size_t tileBytes = sizeof(float) * 16 * (size_t)tilesX * (size_t)tilesY;
	size_t bytes = tileBytes + sizeof(size_t) * ((size_t)cellsX + (size_t)cellsY);
	hf->tiles = (float*)lbAllocAligned(bytes, 64);
	if (!hf->tiles)
		return false;
	hf->tilesX = tilesX;
	// The cells' places in the tiles (tile (i / 3, j / 3), corner offset 4 (j % 3) + i % 3).
	size_t* column = (size_t*)(void*)((char*)hf->tiles + tileBytes);
	size_t* row = column + cellsX;
	for (int i = 0; i < cellsX; ++i)
		column[i] = 16 * (size_t)(i / 3) + (size_t)(i % 3);
	for (int j = 0; j < cellsY; ++j)
		row[j] = 16 * (size_t)(j / 3) * (size_t)tilesX + 4 * (size_t)(j % 3);
	hf->cellColumn = column;
	hf->cellRow = row;
	hf->cellsX = cellsX;
	hf->cellsY = cellsY;
	const double cs = hf->cellSize;
	hf->invCellSize = 1.0 / cs;
	hf->extentX = cellsX * cs;
	hf->extentY = cellsY * cs;
	const double* m = hf->frame.m;
	hf->flat = m[0] == 1.0 && m[4] == 1.0 && m[8] == 1.0 && m[1] == 0.0 && m[2] == 0.0 && m[3] == 0.0 && m[5] == 0.0 &&
			   m[6] == 0.0 && m[7] == 0.0;
	for (int tj = 0; tj < tilesY; ++tj)
		for (int ti = 0; ti < tilesX; ++ti)
		{
			float* t = &hf->tiles[16 * ((size_t)tj * (size_t)tilesX + (size_t)ti)];
			for (int b = 0; b < 4; ++b)
				for (int a = 0; a < 4; ++a)
				{
					// Samples past the edge repeat the last one; no cell reads them.
					int x = 3 * ti + a, y = 3 * tj + b;
					x = x < hf->countX ? x : hf->countX - 1;
					y = y < hf->countY ? y : hf->countY - 1;
					t[4 * b + a] = hf->heights[(size_t)y * (size_t)hf->countX + (size_t)x];
				}
		}
	return true;
}

lbDVec3 lbHeightfieldFaceNormal(const lbHeightfield* hf, int prim)
{
	int cellsX = hf->countX - 1, cell = prim >> 1;
	if (prim < 0 || cell >= cellsX * (hf->countY - 1))
		return lbD3(0.0, 0.0, 0.0);
	const float* t = lbCellCorners(hf, cell % cellsX, cell / cellsX);
	double h00 = t[0], h10 = t[1], h01 = t[4], h11 = t[5];
	// Triangle 0 is (00, 10, 11), triangle 1 is (00, 11, 01): (-dh/dx, -dh/dy, 1) times the cell size.
	lbDVec3 local = (prim & 1) == 0 ? lbD3(h00 - h10, h10 - h11, hf->cellSize) : lbD3(h01 - h11, h00 - h01, hf->cellSize);
	return hf->flat ? local : lbDFrameDir(&hf->frame, local);
}

static bool lbRecordLocal(const lbHeightfield* hf, lbCastState* st, const lbDContact* local, int shapeId, int prim)
{
	lbDContact c = *local;
	// A flat frame gives the same bits with additions only.
	if (hf->flat)
		c.p = lbDAdd(c.p, hf->frame.p);
	else
	{
		c.n = lbDFrameDir(&hf->frame, c.n);
		c.p = lbDFramePoint(&hf->frame, c.p);
	}
	return lbCastRecord(st, &c, shapeId, prim);
}

// Both triangles of cell (i, j), each culled by its own box first. The one under the cast's entry
// point is tested first: it is usually hit on its face, and that early nearest hit lets the exact
// sweep of the other be rejected cheaply.
typedef struct lbHfRecordUser
{
	const lbHeightfield* hf;
	int shapeId;
} lbHfRecordUser;

static void lbHfRecord(void* user, lbCastState* st, const lbDContact* contact, int prim)
{
	const lbHfRecordUser* u = (const lbHfRecordUser*)user;
	lbRecordLocal(u->hf, st, contact, u->shapeId, prim);
}

// Face stage for one heightfield triangle, written for its shape: in the shape's frame both triangles
// of a cell are right triangles with legs along x and y, so the plane is z = h00 + gx x + gy y in
// cell coordinates (x, y from the cell's corner (0, 0), z from its height h00), its normal is
// (-gx, -gy, 1) / sqrt(1 + gx^2 + gy^2), and whether a point of the plane lies in the triangle is a
// 2D test on its x and y. Same outcomes as lbSweepSphereTriangleFaceD (geom.c), which it falls back to
// when the start sphere reaches the plane (start overlap or edge contact, rare for casts from above).
//   tri 0 = (p00, p10, p11): y >= 0, x <= cs, y <= x.   tri 1 = (p00, p11, p01): x >= 0, y <= cs, x <= y.
// The cell record holds the cast start relative to corner p00, the corner (x0, y0), the cell size and
// the four heights (the 3D corners are built only for the rare fallbacks).
typedef struct lbHfCell
{
	double sx, sy, sz;
	double x0, y0, cs;
	double h00, h10, h01, h11;
} lbHfCell;

// Corners of triangle tri of the cell in the order lbSweepSphereTriangle*D expect (edge e runs from
// corner e to corner e + 1).
static void lbHfCorners(const lbHfCell* cell, int tri, lbDVec3* a, lbDVec3* b, lbDVec3* c)
{
	double x0 = cell->x0, y0 = cell->y0, cs = cell->cs;
	*a = lbD3(x0, y0, cell->h00);
	*b = tri == 0 ? lbD3(x0 + cs, y0, cell->h10) : lbD3(x0 + cs, y0 + cs, cell->h11);
	*c = tri == 0 ? lbD3(x0 + cs, y0 + cs, cell->h11) : lbD3(x0, y0 + cs, cell->h01);
}

// Corners of triangle k of a block pass, whose per-triangle arrays hold its cell's origin and
// corner heights (triangle k lies in cell entry k, triangle k & 1 of that cell).
static inline void lbHfBlockCorners(const double* cx, const double* cy, double cs, const double* h00, const double* h10,
									const double* h01, const double* h11, int k, lbDVec3* a, lbDVec3* b, lbDVec3* c)
{
	lbHfCell cell;
	cell.x0 = cx[k];
	cell.y0 = cy[k];
	cell.cs = cs;
	cell.h00 = h00[k], cell.h10 = h10[k], cell.h01 = h01[k], cell.h11 = h11[k];
	lbHfCorners(&cell, k & 1, a, b, c);
}

// The sphere first touches the plane of triangle tri at time t, at cell point (qx, qy), outside the
// triangle: an edge or vertex contact needs the centre's projection on the plane to come within r of
// the triangle. Its in-plane distance is at least the largest distance to the line of an edge whose
// half-plane q violates; for a point of the plane at 2D offset a across the edge with 2D direction
// (ex, ey), that 3D distance is a |n| / |(ex, ey, gx ex + gy ey)| (legs: (1, 0, gx) and (0, 1, gy);
// diagonal (1, 1, gx + gy)). The projection moves at |d_par| per meter. Usually the distance is
// within r and the bound is just t; the roots are taken only otherwise. False when no contact can come
// by tMax; else *outLow is the lower bound on its time.
static bool lbHfEdgeBound(int tri, double qx, double qy, double cs, double gx, double gy, double nl, double fd, double r,
						  double t, double tMax, double* outLow)
{
	double a0, a1, a2;
	if (tri == 0)
		a0 = -qy, a1 = qx - cs, a2 = qy - qx;
	else
		a0 = qy - cs, a1 = -qx, a2 = qx - qy;
	double g2 = nl * nl;
	double m0 = 1.0 + gx * gx, m1 = 1.0 + gy * gy, m2 = 2.0 + (gx + gy) * (gx + gy), rr = r * r;
	bool far0 = a0 > 0.0 && a0 * a0 * g2 > rr * m0, far1 = a1 > 0.0 && a1 * a1 * g2 > rr * m1,
		 far2 = a2 > 0.0 && a2 * a2 * g2 > rr * m2;
	double low = t;
	if (far0 || far1 || far2)
	{
		double delta = 0.0;
		if (far0)
			delta = a0 / sqrt(m0);
		if (far1)
			delta = lbMaxD(delta, a1 / sqrt(m1));
		if (far2)
			delta = lbMaxD(delta, a2 / sqrt(m2));
		delta *= nl;
		double vn = fd / nl;
		double speed = sqrt(lbMaxD(1.0 - vn * vn, 0.0));
		if (delta - r > speed * (tMax - t))
			return false;
		if (delta > r)
			low = t + (delta - r) / speed;
	}
	*outLow = low;
	return true;
}

static lbSweepStage lbHfFace(const lbDCast* lc, const lbHfCell* cell, int tri, double gx, double gy, double tMax,
							 lbDContact* out, double* outLowerBound)
{
	const lbDVec3 d = lc->d;
	// f = height of a point above the plane (along local z); it changes by fd per meter of the cast.
	double f0 = cell->sz - gx * cell->sx - gy * cell->sy;
	double fd = d.z - gx * d.x - gy * d.y;
	double g2 = 1.0 + gx * gx + gy * gy;
	double r = lc->r;
	*outLowerBound = 0.0;
	// Divisions and square roots are the slow instructions here: the common rejections come first
	// and do without them.
	if (!(r > 0.0))
	{
		// Ray: a ray in the plane (|d . n| <= 1e-14) has no area facing it. The plane is crossed at
		// t = -f0 / fd, which must lie in [0, tMax].
		if (!(fd * fd > 1e-28 * g2) || f0 * fd > 0.0 || fabs(f0) > tMax * fabs(fd))
			return lb_sweepMiss;
		double t = -f0 / fd;
		if (!(t >= 0.0 && t <= tMax))
			return lb_sweepMiss;
		if (!lbHfInside(tri, cell->sx + t * d.x, cell->sy + t * d.y, cell->cs))
			return lb_sweepMiss;
		double s = (fd > 0.0 ? -1.0 : 1.0) / sqrt(g2);
		out->kind = lb_contactHit;
		out->t = t;
		out->depth = 0.0;
		out->n = lbD3(-gx * s, -gy * s, s);
		out->p = lbDMulAdd(lc->s, t, d);
		return lb_sweepDone;
	}
	double nl = sqrt(g2);
	double af0 = fabs(f0), rn = r * nl;
	if (!(af0 >= rn))
	{
		// The start sphere reaches the plane: start overlap, or only edges and vertices later.
		lbDVec3 a, b, c;
		lbHfCorners(cell, tri, &a, &b, &c);
		return lbSweepSphereTriangleFaceD(lc, a, b, c, tMax, out, outLowerBound);
	}
	// Approach speed toward the plane (m of f per m of cast) must be positive, and the plane reached
	// by tMax.
	double sgn = f0 > 0.0 ? 1.0 : -1.0, closing = -sgn * fd, gap = af0 - rn;
	if (!(closing > 0.0) || gap > tMax * closing)
		return lb_sweepMiss;
	double t = gap / closing;
	if (t > tMax)
		return lb_sweepMiss;
	// Contact point on the plane: the centre at t moved by r against the normal facing the start.
	double s = sgn / nl, k = r * s;
	double qx = cell->sx + t * d.x + k * gx, qy = cell->sy + t * d.y + k * gy;
	double cs = cell->cs;
	if (lbHfInside(tri, qx, qy, cs))
	{
		out->kind = lb_contactHit;
		out->t = t;
		out->depth = 0.0;
		out->n = lbD3(-gx * s, -gy * s, s);
		out->p = lbD3(lc->s.x + t * d.x + k * gx, lc->s.y + t * d.y + k * gy, lc->s.z + t * d.z - k);
		return lb_sweepDone;
	}
	return lbHfEdgeBound(tri, qx, qy, cs, gx, gy, nl, fd, r, t, tMax, outLowerBound) ? lb_sweepEdges : lb_sweepMiss;
}

// One cast against one heightfield, in the shape's frame.
typedef struct lbHfQuery
{
	const lbHeightfield* hf;
	lbCastState* st;
	lbDCast lc;
	double inv[3];
	/// Radius plus rounding slop, and the same times sqrt(2) for the diagonal test.
	double grow, reach;
	double cs, invCs;
	int shapeId, cellsX, cellsY;
	/// Nearest face hit of this shape so far (shape frame), moved into the state once at the end.
	bool hasBest;
	int bestPrim;
	lbDContact best;
	lbDeferred deferred;
} lbHfQuery;

static void lbHfKeep(lbHfQuery* q, const lbDContact* c, int prim)
{
	if (c->kind == lb_contactHit)
	{
		// Same rule as lbCastRecord: the first of equal times stays; hits after an overlap are moot.
		if (q->st->inside || (q->hasBest && !(c->t < q->best.t)))
			return;
		q->hasBest = true;
		q->best = *c;
		q->bestPrim = prim;
		q->st->bestT = c->t;
	}
	else
		lbRecordLocal(q->hf, q->st, c, q->shapeId, prim);
}

static void lbHfCommit(lbHfQuery* q)
{
	// Only face stages keep a best hit (edge and vertex contacts are recorded as they are found),
	// so a best the state takes has its triangle's plane for its normal.
	if (q->hasBest && lbRecordLocal(q->hf, q->st, &q->best, q->shapeId, q->bestPrim))
		q->st->hitOnFace = true;
	q->hasBest = false;
}

// Entry of the cast into the height range [zLo - zGrow, zHi + zGrow] within [tLo, tHi] (the cell's x and
// y slabs), or a negative value when it is missed there.
static inline double lbHfZEntry(const lbHfQuery* q, double tLo, double tHi, double zLo, double zHi, double zGrow)
{
	if (!lbClipSlab(q->lc.s.z, q->lc.d.z, q->inv[2], zLo - zGrow, zHi + zGrow, &tLo, &tHi))
		return -1.0;
	return tLo;
}

// Whether the cast reaches the whole height range of the cell whose corner (0, 0) is t, within the
// cell's x and y slabs [xyLo, xyHi]: a long cast passes over most cells, and a vertical short one misses
// most side cells of its footprint, so callers ask this before anything else about the cell.
static inline bool lbHfCellReached(const lbHfQuery* q, const float* t, double xyLo, double xyHi, double zGrow)
{
	double h00 = t[0], h10 = t[1], h01 = t[4], h11 = t[5];
	double d0 = lbMinD(h00, h11), d1 = lbMaxD(h00, h11);
	return lbHfZEntry(q, xyLo, xyHi, lbMinD(d0, lbMinD(h10, h01)), lbMaxD(d1, lbMaxD(h10, h01)), zGrow) >= 0.0;
}

// Both triangles of cell (i, j), with corner (0, 0) at t and whose x and y slabs give [xyLo, xyHi],
// once lbHfCellReached passed it, each culled by its own height range and the cell's diagonal first.
// The one under the cast's entry point is tested first: it is usually hit on its face, and that early
// nearest hit lets the other be rejected cheaply. Returns the triangles (bit tri) whose edge stage was
// deferred. zGrow is how far above or below the cell's heights the centre can touch it: the grow, or
// less for a vertical cast beside the cell, whose squared horizontal distance from the cell is then
// o2 (negative for other casts).
static unsigned lbHfTestCellIn(lbHfQuery* q, int i, int j, const float* t, double xyLo, double xyHi, double zGrow,
							   double o2)
{
	const lbDCast* lc = &q->lc;
	lbCastState* st = q->st;
	lbHfCell cell;
	cell.h00 = t[0], cell.h10 = t[1], cell.h01 = t[4], cell.h11 = t[5];
	double h00 = cell.h00, h10 = cell.h10, h01 = cell.h01, h11 = cell.h11;
	double d0 = lbMinD(h00, h11), d1 = lbMaxD(h00, h11);
	double cs = q->cs;
	cell.x0 = i * cs;
	cell.y0 = j * cs;
	cell.cs = cs;
	cell.sx = lc->s.x - cell.x0;
	cell.sy = lc->s.y - cell.y0;
	// The diagonal from (x0, y0) splits the cell: triangle 0 lies where u = (x - x0) - (y - y0) >= 0,
	// triangle 1 where u <= 0. A swept sphere whose centre keeps u below -r sqrt(2) (or above) over the
	// part of the cast that can still matter is farther than r from the other triangle's footprint.
	// u is linear in t, so its two end values bound it. Most short casts touch only one half of a cell.
	double du = lc->d.x - lc->d.y, u0 = cell.sx - cell.sy, uBest = u0 + st->bestT * du;
	// A vertical cast's centre stays at least |u0| / sqrt(2) from the footprint of the triangle across
	// the diagonal, as well as sqrt(o2) from the cell's: each triangle's heights get the reach that its
	// own horizontal distance leaves (side cells often have only one triangle near enough).
	double zGrow0 = zGrow, zGrow1 = zGrow;
	if (o2 >= 0.0)
	{
		double w = 0.5 * u0 * u0, rr = q->grow * q->grow;
		if (u0 < 0.0 && w > o2)
			zGrow0 = sqrt(lbMaxD(rr - w, 0.0));
		if (u0 > 0.0 && w > o2)
			zGrow1 = sqrt(lbMaxD(rr - w, 0.0));
	}
	double e0 = lbHfZEntry(q, xyLo, xyHi, lbMinD(d0, h10), lbMaxD(d1, h10), zGrow0);
	double e1 = lbHfZEntry(q, xyLo, xyHi, lbMinD(d0, h01), lbMaxD(d1, h01), zGrow1);
	if (e0 < 0.0 && e1 < 0.0)
		return 0u;
	if (e0 >= 0.0 && lbMaxD(u0 + e0 * du, uBest) < -q->reach)
		e0 = -1.0;
	if (e1 >= 0.0 && lbMinD(u0 + e1 * du, uBest) > q->reach)
		e1 = -1.0;
	if (e0 < 0.0 && e1 < 0.0)
		return 0u;
	cell.sz = lc->s.z - h00;
	int cellIndex = j * q->cellsX + i;
	double entry = lbMaxD(e0 < 0.0 ? e1 : (e1 < 0.0 ? e0 : lbMinD(e0, e1)), 0.0);
	int first = u0 + entry * du < 0.0 ? 1 : 0;
	unsigned pending = 0u;
	for (int k = 0; k < 2; ++k)
	{
		int tri = k == 0 ? first : 1 - first;
		double triEntry = tri == 0 ? e0 : e1;
		if (triEntry < 0.0 || triEntry > st->bestT)
			continue;
		lbDContact c;
		double low;
		double gx = tri == 0 ? (h10 - h00) * q->invCs : (h11 - h01) * q->invCs;
		double gy = tri == 0 ? (h11 - h10) * q->invCs : (h01 - h00) * q->invCs;
		lbSweepStage stage = lbHfFace(lc, &cell, tri, gx, gy, st->bestT, &c, &low);
		if (stage == lb_sweepDone)
			lbHfKeep(q, &c, 2 * cellIndex + tri);
		else if (stage == lb_sweepEdges)
		{
			// A full list flushes itself; the face hits kept so far must be in the state first.
			if (q->deferred.count == LB_DEFERRED_MAX)
				lbHfCommit(q);
			lbHfRecordUser user = { q->hf, q->shapeId };
			lbDVec3 a, b, cc;
			lbHfCorners(&cell, tri, &a, &b, &cc);
			lbDefer(&q->deferred, a, b, cc, low, 2 * cellIndex + tri, lc, st, lbHfRecord, &user);
			pending |= 1u << tri;
		}
	}
	return pending;
}

// Cell (i, j) for the long walk: its x and y slabs first.
static void lbHfTestCell(lbHfQuery* q, int i, int j)
{
	const lbDCast* lc = &q->lc;
	double cs = q->cs, grow = q->grow, x0 = i * cs, y0 = j * cs;
	double xyLo = 0.0, xyHi = q->st->bestT;
	if (!lbClipSlab(lc->s.x, lc->d.x, q->inv[0], x0 - grow, x0 + cs + grow, &xyLo, &xyHi) ||
		!lbClipSlab(lc->s.y, lc->d.y, q->inv[1], y0 - grow, y0 + cs + grow, &xyLo, &xyHi))
		return;
	const float* t = lbCellCorners(q->hf, i, j);
	if (lbHfCellReached(q, t, xyLo, xyHi, grow))
		lbHfTestCellIn(q, i, j, t, xyLo, xyHi, grow, -1.0);
}

// The cells a short cast can touch, with one bit per triangle whose edge stage is still pending.
typedef struct lbHfRegion
{
	int iFirst, jFirst, width, height, cellsX, cellsY;
	uint64_t pending;
} lbHfRegion;

// Whether the feature shared with triangle (i, j, tri) must still be tested. Triangles of the grid
// outside the region cannot be touched at all, and a triangle whose test is complete (box rejected,
// face stage finished or missed, or edge stage run) already accounts for every contact with its
// edges and vertices before the best time: the capsule of a shared edge and the spheres at its ends
// lie inside that triangle's swept volume. Only edges on the grid's border have no such neighbour.
static bool lbHfNeedShared(const lbHfRegion* rg, int i, int j, int tri)
{
	// Unsigned compares fold the two sides of each range test into one.
	bool inGrid = ((unsigned)i < (unsigned)rg->cellsX) & ((unsigned)j < (unsigned)rg->cellsY);
	unsigned li = (unsigned)(i - rg->iFirst), lj = (unsigned)(j - rg->jFirst);
	bool inRegion = (li < (unsigned)rg->width) & (lj < (unsigned)rg->height);
	unsigned bit = (2u * (lj * (unsigned)rg->width + li) + (unsigned)tri) & 63u;
	return (!inGrid) | (inRegion & (bool)((rg->pending >> bit) & 1u));
}

// The features (lbSweepSphereTriangleFeaturesD bits) of triangle (i, j, tri) that no completed
// neighbour covers. Edge e of the triangle runs from vertex e to vertex e + 1: triangle 0 is (p00, p10,
// p11) with bottom edge, right edge, diagonal; triangle 1 is (p00, p11, p01) with diagonal, top edge,
// left edge. A vertex is covered by a skipped edge that ends at it.
static unsigned lbHfFeatures(const lbHfRegion* rg, int i, int j, int tri)
{
	bool e0, e1, e2;
	if (tri == 0)
	{
		e0 = lbHfNeedShared(rg, i, j - 1, 1);
		e1 = lbHfNeedShared(rg, i + 1, j, 1);
		e2 = lbHfNeedShared(rg, i, j, 1);
	}
	else
	{
		e0 = lbHfNeedShared(rg, i, j, 0);
		e1 = lbHfNeedShared(rg, i, j + 1, 0);
		e2 = lbHfNeedShared(rg, i - 1, j, 0);
	}
	unsigned a = e0, b = e1, c = e2;
	return a | (b << 1) | (c << 2) | ((a & c) << 3) | ((a & b) << 4) | ((b & c) << 5);
}

// Edge stage of the deferred triangles of a short cast, nearest lower bound first, each limited to the
// edges and vertices no completed neighbour covers.
static void lbHfFlushRegion(lbHfQuery* q, lbHfRegion* rg)
{
	lbDeferred* d = &q->deferred;
	lbCastState* st = q->st;
	// The same stable insertion sort as moving the entries, on their indices (an entry is 11 words).
	int order[LB_DEFERRED_MAX];
	for (int a = 0; a < d->count; ++a)
	{
		int b = a;
		for (; b > 0 && d->tris[a].lowerBound < d->tris[order[b - 1]].lowerBound; --b)
			order[b] = order[b - 1];
		order[b] = a;
	}
	int cellsX = q->cellsX;
	for (int k = 0; k < d->count; ++k)
	{
		const lbDeferredTri* t = &d->tris[order[k]];
		if (t->lowerBound > st->bestT)
			break;
		int cell = t->prim >> 1, tri = t->prim & 1;
		int i = cell % cellsX, j = cell / cellsX;
		unsigned features = lbHfFeatures(rg, i, j, tri);
		if (features)
		{
			lbDContact c;
			if (lbSweepSphereTriangleFeaturesD(&q->lc, t->a, t->b, t->c, st->bestT, features, &c))
				lbRecordLocal(q->hf, st, &c, q->shapeId, t->prim);
		}
		int li = i - rg->iFirst, lj = j - rg->jFirst;
		if (li >= 0 && lj >= 0 && li < rg->width && lj < rg->height)
			rg->pending &= ~(1ull << (2 * (lj * rg->width + li) + tri));
	}
	d->count = 0;
}

// Interval of t where coordinate s + t d lies in [lo, hi] (all t when d is 0 and s inside; empty when
// d is 0 and s outside).
static inline void lbSlabRange(double s, double d, double inv, double lo, double hi, double* outLo, double* outHi)
{
	if (fabs(d) < 1e-300)
	{
		bool in = s >= lo && s <= hi;
		*outLo = in ? -DBL_MAX : DBL_MAX;
		*outHi = in ? DBL_MAX : -DBL_MAX;
		return;
	}
	double t1 = (lo - s) * inv, t2 = (hi - s) * inv;
	*outLo = lbMinD(t1, t2);
	*outHi = lbMaxD(t1, t2);
}

// Bit of block triangle k (block w cells wide) in the 4 x 4-cell pending mask around the block.
static inline int lbHfExtBit(int k, int w)
{
	int c = k >> 1, ci = w == 2 ? c & 1 : 0, cj = w == 2 ? c >> 1 : c;
	return 2 * ((cj + 1) * 4 + ci + 1) + (k & 1);
}

// lbHfFeatures for block cell (ci, cj) with the 4 x 4-cell pending mask.
static inline unsigned lbHfExtFeatures(uint32_t ext, int ci, int cj, int tri)
{
	int x = ci + 1, y = cj + 1;
	unsigned a, b, c;
	if (tri == 0)
	{
		a = (ext >> (2 * ((y - 1) * 4 + x) + 1)) & 1u;
		b = (ext >> (2 * (y * 4 + x + 1) + 1)) & 1u;
		c = (ext >> (2 * (y * 4 + x) + 1)) & 1u;
	}
	else
	{
		a = (ext >> (2 * (y * 4 + x))) & 1u;
		b = (ext >> (2 * ((y + 1) * 4 + x))) & 1u;
		c = (ext >> (2 * (y * 4 + x - 1))) & 1u;
	}
	return a | (b << 1) | (c << 2) | ((a & c) << 3) | ((a & b) << 4) | ((b & c) << 5);
}

// Casts whose footprint fits in 2 x 2 cells (foot traces, rays and spheres) take all the triangles of
// those cells at once: the face stage of each is a few multiplications, and computing all of them in
// straight, vectorisable loops costs less than the branches that would pick which ones to skip
// (unpredictable, since a trace lands anywhere in a cell). Every triangle's face stage is exact, so
// testing extra ones never changes the answer; the culls of the general path only save work. Then the
// nearest face hit is kept, and the triangles touched outside their face before it get the edge bound
// and, when it allows a contact before the nearest hit, the deferred edge stage.
static LB_ALWAYS_INLINE void lbHfBlockCastWH(lbHfQuery* q, int bi, int bj, int w, int h, bool ray)
{
	const lbDCast* lc = &q->lc;
	lbCastState* st = q->st;
	double cs = q->cs, invCs = q->invCs, r = ray ? 0.0 : lc->r;
	const double dx = lc->d.x, dy = lc->d.y, dz = lc->d.z;
	// Triangle k lies in cell (bi + ci, bj + cj) of the block with cell = k / 2 = cj * w + ci; tri = k % 2.
	int n = 2 * w * h;
	double h00[8], h10[8], h01[8], h11[8], cx[8], cy[8];
	// Cell (i, j) sits at corner offset 4 (j % 3) + i % 3 of tile (i / 3, j / 3); the next cell in x is
	// one float on, or in the next tile when i % 3 == 2 (and likewise in y, one tile row on).
	const float* t00 = lbCellCorners(q->hf, bi, bj);
	ptrdiff_t stepX = bi % 3 == 2 ? 16 - 2 : 1, stepY = bj % 3 == 2 ? 16 * (ptrdiff_t)q->hf->tilesX - 8 : 4;
	for (int c = 0; c < w * h; ++c)
	{
		int ci = w == 2 ? c & 1 : 0, cj = w == 2 ? c >> 1 : c;
		const float* t = t00 + ci * stepX + cj * stepY;
		for (int k = 2 * c; k < 2 * c + 2; ++k)
		{
			h00[k] = t[0], h10[k] = t[1], h01[k] = t[4], h11[k] = t[5];
			cx[k] = (bi + ci) * cs;
			cy[k] = (bj + cj) * cs;
		}
	}
	double gx[8], gy[8], sx[8], sy[8], f0[8], fd[8], g2[8];
	for (int k = 0; k < n; k += 2)
	{
		// Triangle 0 = (p00, p10, p11), triangle 1 = (p00, p11, p01).
		gx[k] = (h10[k] - h00[k]) * invCs;
		gy[k] = (h11[k] - h10[k]) * invCs;
		gx[k + 1] = (h11[k] - h01[k]) * invCs;
		gy[k + 1] = (h01[k] - h00[k]) * invCs;
	}
	for (int k = 0; k < n; ++k)
	{
		sx[k] = lc->s.x - cx[k];
		sy[k] = lc->s.y - cy[k];
		f0[k] = (lc->s.z - h00[k]) - gx[k] * sx[k] - gy[k] * sy[k];
		fd[k] = dz - gx[k] * dx - gy[k] * dy;
		g2[k] = 1.0 + gx[k] * gx[k] + gy[k] * gy[k];
	}
	// Per triangle: nl = |(-gx, -gy, 1)|, the plane time tt, the contact point (qx, qy) in cell
	// coordinates, sn = the normal's z facing the caster (normal = (-gx, -gy, 1) * sn), and two signed
	// margins: okM >= 0 when the start sphere is clear of the plane, valM > 0 when the plane is reached
	// within tMax.
	double nl[8], tt[8], qx[8], qy[8], sn[8], okM[8], valM[8];
	double tMax = st->bestT;
	if (r > 0.0)
	{
		for (int k = 0; k < n; ++k)
		{
			double l = sqrt(g2[k]), af0 = fabs(f0[k]), rn = r * l;
			double sgn = f0[k] > 0.0 ? 1.0 : -1.0, closing = -sgn * fd[k];
			double t = (af0 - rn) / closing, s = sgn / l, kk = r * s;
			nl[k] = l;
			sn[k] = s;
			okM[k] = af0 - rn;
			valM[k] = closing > 0.0 && t <= tMax ? 1.0 : -1.0;
			tt[k] = t;
			qx[k] = sx[k] + t * dx + kk * gx[k];
			qy[k] = sy[k] + t * dy + kk * gy[k];
		}
	}
	else
	{
		for (int k = 0; k < n; ++k)
		{
			double l = sqrt(g2[k]), t = -f0[k] / fd[k];
			nl[k] = l;
			sn[k] = (fd[k] > 0.0 ? -1.0 : 1.0) / l;
			okM[k] = 0.0;
			// A ray in the plane (|d . n| <= 1e-14) has no area facing it.
			valM[k] = fd[k] * fd[k] > 1e-28 * g2[k] && t >= 0.0 && t <= tMax ? 1.0 : -1.0;
			tt[k] = t;
			qx[k] = sx[k] + t * dx;
			qy[k] = sy[k] + t * dy;
		}
	}
	// Nearest face hit (the first of equal times).
	unsigned inside = 0u;
#if defined(LB_SIMD_SSE)
	// A cell's two triangles as the two lanes of a vector: lbHfInside's tests are triangle 0's with x
	// and y swapped in lane 1, so (u, v) = (qy, qx) in lane 0 and (qx, qy) in lane 1 serve both; the
	// same comparisons, so the same bits.
	const __m128d zero2 = _mm_setzero_pd(), cs2 = _mm_set1_pd(cs);
	for (int k = 0; k < n; k += 2)
	{
		const __m128d x = _mm_loadu_pd(&qx[k]), y = _mm_loadu_pd(&qy[k]);
		const __m128d u = _mm_shuffle_pd(y, x, 2), v = _mm_shuffle_pd(x, y, 2);
		const __m128d face = _mm_and_pd(_mm_and_pd(_mm_cmpge_pd(u, zero2), _mm_cmple_pd(v, cs2)), _mm_cmple_pd(u, v));
		const __m128d valid = _mm_and_pd(_mm_cmpge_pd(_mm_loadu_pd(&okM[k]), zero2), _mm_cmpgt_pd(_mm_loadu_pd(&valM[k]), zero2));
		inside |= (unsigned)_mm_movemask_pd(_mm_and_pd(face, valid)) << k;
	}
#else
	for (int k = 0; k < n; ++k)
	{
		bool in = lbHfInside(k & 1, qx[k], qy[k], cs) & (okM[k] >= 0.0) & (valM[k] > 0.0);
		inside |= (unsigned)in << k;
	}
#endif
	int best = -1;
	double bestT = tMax;
	for (unsigned m = inside; m; m &= m - 1u)
	{
		int k = lbLowestBit(m);
		if (best < 0 || tt[k] < bestT)
			best = k, bestT = tt[k];
	}
	int cellBase = bj * q->cellsX + bi;
	if (best >= 0)
	{
		int k = best, c = k >> 1;
		double s = sn[k], kk = r * s, t = tt[k];
		lbDContact contact;
		contact.kind = lb_contactHit;
		contact.t = t;
		contact.depth = 0.0;
		contact.n = lbD3(-gx[k] * s, -gy[k] * s, s);
		contact.p = lbD3(lc->s.x + t * dx + kk * gx[k], lc->s.y + t * dy + kk * gy[k], lc->s.z + t * dz - kk);
		int ci = w == 2 ? c & 1 : 0, cj = w == 2 ? c >> 1 : c;
		lbHfKeep(q, &contact, 2 * (cellBase + cj * q->cellsX + ci) + (k & 1));
	}
	if (r == 0.0)
	{
		lbHfCommit(q);
		return;
	}
	// Which of the others can still be touched before the best time. The centre's x and y start at
	// footprint distance D from a triangle (at least its largest signed distance to an edge line) and
	// move at |d_xy| per meter, so no contact comes before (D - r) / |d_xy|: for a near-vertical trace
	// that rules out every triangle whose footprint stays beyond r. (The grow keeps rounding from
	// ruling out a grazing contact.)
	double dxy = sqrt(dx * dx + dy * dy), bestNow = st->bestT, grow = q->grow;
	unsigned rest = 0u;
#if defined(LB_SIMD_SSE)
	// Both triangles of a cell at once, as the inside test above: lane 0 triangle 0's edge terms, lane
	// 1 triangle 1's, each the scalar form's operations (a negation, one subtraction), and _mm_max_pd
	// is lbMaxD (a > b ? a : b), so the same gaps and bits.
	{
		const __m128d zero = _mm_setzero_pd(), cs0 = _mm_setr_pd(cs, 0.0), cs1 = _mm_setr_pd(0.0, cs);
		const __m128d neg0 = _mm_setr_pd(-0.0, 0.0), neg1 = _mm_setr_pd(0.0, -0.0);
		const __m128d grow2 = _mm_set1_pd(grow), best2 = _mm_set1_pd(bestNow), reach2 = _mm_set1_pd(bestNow * dxy);
		const __m128d half = _mm_set1_pd(0.70710678118654752);
		for (int k = 0; k < n; k += 2)
		{
			const __m128d x = _mm_loadu_pd(&sx[k]), y = _mm_loadu_pd(&sy[k]);
			const __m128d e0 = _mm_sub_pd(_mm_xor_pd(y, neg0), cs1), e1 = _mm_sub_pd(_mm_xor_pd(x, neg1), cs0);
			const __m128d e2 = _mm_mul_pd(_mm_sub_pd(_mm_shuffle_pd(y, x, 2), _mm_shuffle_pd(x, y, 2)), half);
			const __m128d gap = _mm_sub_pd(_mm_max_pd(_mm_max_pd(e0, e1), e2), grow2);
			const __m128d reachable = _mm_or_pd(_mm_cmpngt_pd(gap, zero), _mm_cmple_pd(gap, reach2));
			const __m128d okv = _mm_loadu_pd(&okM[k]);
			const __m128d touched = _mm_and_pd(_mm_cmpgt_pd(_mm_loadu_pd(&valM[k]), zero), _mm_cmple_pd(_mm_loadu_pd(&tt[k]), best2));
			const __m128d need = _mm_and_pd(reachable, _mm_or_pd(_mm_cmpnge_pd(okv, zero), touched));
			rest |= (unsigned)_mm_movemask_pd(need) << k;
		}
		rest &= ~inside;
	}
#else
	for (int k = 0; k < n; ++k)
	{
		double x = sx[k], y = sy[k];
		double e0 = (k & 1) ? y - cs : -y, e1 = (k & 1) ? -x : x - cs, e2 = ((k & 1) ? x - y : y - x) * 0.70710678118654752;
		double gap = lbMaxD(lbMaxD(e0, e1), e2) - grow;
		bool reachable = !(gap > 0.0) | (gap <= bestNow * dxy);
		bool ok = okM[k] >= 0.0;
		bool touched = (valM[k] > 0.0) & (tt[k] <= bestNow);
		bool need = !((inside >> k) & 1u) & reachable & (!ok | touched);
		rest |= (unsigned)need << k;
	}
#endif
	// The rest: start overlaps (general face stage) and touches outside the face before the best time.
	// Every triangle not among them is complete: it cannot be touched before the best time, so the
	// edges it shares need no test. The others count as pending until their own test ends, and a
	// triangle whose every edge is covered by complete neighbours needs no edge stage at all.
	// Pending bits live in a 4 x 4-cell mask around the block (cell (x, y) = block cell (x - 1, y - 1),
	// bit 2 (4 y + x) + tri): cells outside the grid have both bits set (a border edge has no
	// neighbour to cover it), other cells outside the block none (the footprint cannot reach them).
	uint32_t ext = 0u;
	// Only blocks at the grid's border have cells outside it (rare: skip the mask building otherwise).
	if ((bi < 1) | (bi + 2 >= q->cellsX) | (bj < 1) | (bj + 2 >= q->cellsY))
	{
		unsigned colOut = (unsigned)(bi < 1) | ((unsigned)(bi + 1 >= q->cellsX) << 2) | ((unsigned)(bi + 2 >= q->cellsX) << 3);
		unsigned rowOut = (unsigned)(bj < 1) | ((unsigned)(bj + 1 >= q->cellsY) << 2) | ((unsigned)(bj + 2 >= q->cellsY) << 3);
		uint32_t colBits = 0u;
		for (int x = 0; x < 4; ++x)
			colBits |= ((colOut >> x) & 1u) * (3u << (2 * x));
		for (int y = 0; y < 4; ++y)
			ext |= (((rowOut >> y) & 1u) ? 0xffu : colBits) << (8 * y);
	}
	double lowK[8];
	unsigned deferred = 0u;
	for (unsigned m = rest; m; m &= m - 1u)
		ext |= 1u << lbHfExtBit(lbLowestBit(m), w);
	for (; rest; rest &= rest - 1u)
	{
		int k = lbLowestBit(rest);
		int c = k >> 1, tri = k & 1;
		int ci = w == 2 ? c & 1 : 0, cj = w == 2 ? c >> 1 : c;
		ext &= ~(1u << lbHfExtBit(k, w));
		if (okM[k] >= 0.0 && tt[k] > st->bestT)
			continue;
		double low;
		if (!(okM[k] >= 0.0))
		{
			lbDVec3 a, b, cc;
			lbHfBlockCorners(cx, cy, cs, h00, h10, h01, h11, k, &a, &b, &cc);
			lbDContact contact;
			lbSweepStage stage = lbSweepSphereTriangleFaceD(lc, a, b, cc, st->bestT, &contact, &low);
			if (stage == lb_sweepDone)
			{
				lbHfKeep(q, &contact, 2 * (cellBase + cj * q->cellsX + ci) + tri);
				continue;
			}
			if (stage == lb_sweepMiss)
				continue;
		}
		else
		{
			if (lbHfExtFeatures(ext, ci, cj, tri) == 0u)
				continue;
			if (!lbHfEdgeBound(tri, qx[k], qy[k], cs, gx[k], gy[k], nl[k], fd[k], r, tt[k], st->bestT, &low))
				continue;
		}
		if (low > st->bestT)
			continue;
		lowK[k] = low;
		deferred |= 1u << k;
		ext |= 1u << lbHfExtBit(k, w);
	}
	lbHfCommit(q);
	// Edge stages, nearest lower bound first, each limited to the features no complete neighbour
	// covers; a triangle is complete once its edge stage ran.
	while (deferred)
	{
		int k = lbLowestBit(deferred);
		for (unsigned m = deferred & (deferred - 1u); m; m &= m - 1u)
		{
			int j = lbLowestBit(m);
			k = lowK[j] < lowK[k] ? j : k;
		}
		if (lowK[k] > st->bestT)
			break;
		deferred &= ~(1u << k);
		int c = k >> 1, tri = k & 1;
		int ci = w == 2 ? c & 1 : 0, cj = w == 2 ? c >> 1 : c;
		ext &= ~(1u << lbHfExtBit(k, w));
		unsigned features = lbHfExtFeatures(ext, ci, cj, tri);
		if (!features)
			continue;
		lbDVec3 a, b, cc;
		lbHfBlockCorners(cx, cy, cs, h00, h10, h01, h11, k, &a, &b, &cc);
		lbDContact contact;
		if (lbSweepSphereTriangleFeaturesD(lc, a, b, cc, st->bestT, features, &contact))
			lbRecordLocal(q->hf, st, &contact, q->shapeId, 2 * (cellBase + cj * q->cellsX + ci) + tri);
	}
}

// The block pass compiled for the block sizes foot traces give: a vertical ray lands in one cell, a
// foot's sphere in one to four. With the size known its loops unroll and the cell lookups fold (the
// same operations in the same order, so the same hits).
static void lbHfBlockCast(lbHfQuery* q, int bi, int bj, int w, int h)
{
	if (w == 1 && h == 1)
	{
		if (q->lc.r == 0.0)
			lbHfBlockCastWH(q, bi, bj, 1, 1, true);
		else
			lbHfBlockCastWH(q, bi, bj, 1, 1, false);
	}
	else if (w == 2 && h == 2)
		lbHfBlockCastWH(q, bi, bj, 2, 2, false);
	else
		lbHfBlockCastWH(q, bi, bj, w, h, false);
}

// Cell (li, lj) of a short walk's region, with corner (0, 0) at t, its x and y slabs giving [xyLo, xyHi],
// and the start's distances ox and oy from its sides: culled by the distance it can be reached at, then
// by its heights, then its triangles tested.
static LB_ALWAYS_INLINE void lbHfShortVisit(lbHfQuery* q, lbHfRegion* rg, int li, int lj, const float* t, double xyLo,
										double xyHi, double reach, double ox, double oy, bool vertical)
{
	double o2 = ox * ox + oy * oy;
	if (xyLo <= xyHi && o2 <= reach * reach)
	{
		double grow = q->grow, zGrow = vertical ? sqrt(lbMaxD(grow * grow - o2, 0.0)) : grow;
		if (lbHfCellReached(q, t, xyLo, xyHi, zGrow))
			rg->pending |= (uint64_t)lbHfTestCellIn(q, rg->iFirst + li, rg->jFirst + lj, t, xyLo, xyHi, zGrow,
																vertical ? o2 : -1.0)
						   << (2 * (lj * rg->width + li));
	}
}

// Short casts (foot traces) cover at most 16 cells. Their column and row slabs are clipped once, and
// the cell under the point where the cast enters the height range (for a foot trace, the cell it lands
// in) goes first: its face hit then lets the height and plane tests of the others reject them.
// `straight` is a constant in each caller (the cast's x and y directions are zero): a column's or a
// row's slab is then all of time or none, so only whether the start lies in it is kept, and what the
// general form computes from the slabs (0 and the best time for each cell's range, no reach gained
// by moving) is written as those values.
static LB_ALWAYS_INLINE void lbHfShortCastIn(lbHfQuery* q, lbHfRegion* rg, int iu, int ju, bool straight)
{
	const lbDCast* lc = &q->lc;
	double cs = q->cs, grow = q->grow;
	// Per column and row: the slab, and the start's distance from the cell's side (ox, oy below).
	double colLo[16], colHi[16], rowLo[16], rowHi[16], colO[16], rowO[16];
	for (int k = 0; k < rg->width; ++k)
	{
		double x0 = (rg->iFirst + k) * cs;
		if (straight)
		{
			// lbSlabRange's zero-direction case: (-DBL_MAX, DBL_MAX) inside, empty outside.
			bool in = lc->s.x >= x0 - grow && lc->s.x <= x0 + cs + grow;
			colLo[k] = in ? 0.0 : DBL_MAX;
		}
		else
			lbSlabRange(lc->s.x, lc->d.x, q->inv[0], x0 - grow, x0 + cs + grow, &colLo[k], &colHi[k]);
		colO[k] = lbMaxD(lbMaxD(x0 - lc->s.x, lc->s.x - x0 - cs), 0.0);
	}
	for (int k = 0; k < rg->height; ++k)
	{
		double y0 = (rg->jFirst + k) * cs;
		if (straight)
		{
			bool in = lc->s.y >= y0 - grow && lc->s.y <= y0 + cs + grow;
			rowLo[k] = in ? 0.0 : DBL_MAX;
		}
		else
			lbSlabRange(lc->s.y, lc->d.y, q->inv[1], y0 - grow, y0 + cs + grow, &rowLo[k], &rowHi[k]);
		rowO[k] = lbMaxD(lbMaxD(y0 - lc->s.y, lc->s.y - y0 - cs), 0.0);
	}
	int lu = iu - rg->iFirst, mu = ju - rg->jFirst;
	// The slabs pass every cell of the footprint's bounding box, but a steep cast's footprint is nearly
	// a disc: a corner cell of it lies farther than the radius from the centre's path. The centre's x
	// and y start at distance D from the cell and move at |d_xy| per meter, so no part of the cell is
	// within grow before D - grow = |d_xy| t: beyond xyHi, the cell cannot be touched (and counts as
	// complete, like a cell the slabs reject).
	const double dxy = straight ? 0.0 : sqrt(lc->d.x * lc->d.x + lc->d.y * lc->d.y);
	// A vertical cast's centre stays at the horizontal distance D from a cell it starts beside: a sphere
	// of radius grow reaches sqrt(grow^2 - D^2) above and below its centre there, so only heights
	// within that of the centre's can be touched (prone probes, spheres two cells wide, skip most of
	// the side cells below the landing cell's hit this way).
	const bool vertical = straight || (lc->d.x == 0.0 && lc->d.y == 0.0);
	// Corner (0, 0) of region cell (li, lj) is t00 + colOff[li] + rowOff[lj]: the next cell in x is one
	// float on, or in the next tile when i % 3 == 2 (likewise in y, one tile row on), as in the block pass.
	const float* t00 = lbCellCorners(q->hf, rg->iFirst, rg->jFirst);
	ptrdiff_t colOff[16], rowOff[16];
	colOff[0] = 0, rowOff[0] = 0;
	for (int k = 1; k < rg->width; ++k)
		colOff[k] = colOff[k - 1] + ((rg->iFirst + k - 1) % 3 == 2 ? 16 - 2 : 1);
	for (int k = 1; k < rg->height; ++k)
		rowOff[k] = rowOff[k - 1] + ((rg->jFirst + k - 1) % 3 == 2 ? 16 * (ptrdiff_t)q->hf->tilesX - 8 : 4);
	if (straight)
	{
		// The landing cell, then the others row by row, as below; for a vertical cast a cell's slab range
		// is 0 to the best time when the start lies in both its slabs, else empty (colLo, rowLo hold 0
		// or DBL_MAX). A downward cast's centre is at zBest at the best time: a cell whose highest
		// corner lies more than zGrow below that cannot be touched before it, which lbHfCellReached
		// would find with more work. The margin, far above rounding and far below the grow's slop, keeps
		// this from rejecting a cell lbHfCellReached accepts, so the same cells are tested.
		lbHfShortVisit(q, rg, lu, mu, t00 + colOff[lu] + rowOff[mu], lbMaxD(colLo[lu], rowLo[mu]), q->st->bestT, grow,
					   colO[lu], rowO[mu], true);
		const double gg = grow * grow, down = lc->d.z < 0.0 ? 1.0 : 0.0;
		const double margin = 1e-12 * (1.0 + fabs(lc->s.z) + q->st->bestT);
		for (int lj = 0; lj < rg->height; ++lj)
			for (int li = 0; li < rg->width; ++li)
			{
				if (li == lu && lj == mu)
					continue;
				const float* t = t00 + colOff[li] + rowOff[lj];
				const double o2 = colO[li] * colO[li] + rowO[lj] * rowO[lj];
				if (!(o2 <= gg))
					continue;
				if (down > 0.0)
				{
					const float top = lbMaxF(lbMaxF(t[0], t[1]), lbMaxF(t[4], t[5]));
					const double zBest = lc->s.z + q->st->bestT * lc->d.z;
					if ((double)top + sqrt(gg - o2) < zBest - margin)
						continue;
				}
				lbHfShortVisit(q, rg, li, lj, t, lbMaxD(colLo[li], rowLo[lj]), q->st->bestT, grow, colO[li], rowO[lj],
							   true);
			}
		lbHfCommit(q);
		lbHfFlushRegion(q, rg);
		return;
	}
	for (int n = -1, li = lu, lj = mu; lj < rg->height;)
	{
		double xyLo = lbMaxD(lbMaxD(colLo[li], rowLo[lj]), 0.0);
		double xyHi = lbMinD(lbMinD(colHi[li], rowHi[lj]), q->st->bestT);
		lbHfShortVisit(q, rg, li, lj, t00 + colOff[li] + rowOff[lj], xyLo, xyHi, grow + xyHi * dxy, colO[li], rowO[lj],
					   vertical);
		// The landing cell first, then the others row by row.
		do
		{
			if (++n == 0)
				li = 0, lj = 0;
			else if (++li == rg->width)
				li = 0, ++lj;
		} while (lj < rg->height && li == lu && lj == mu);
	}
	lbHfCommit(q);
	lbHfFlushRegion(q, rg);
}

static LB_NOINLINE void lbHfShortCast(lbHfQuery* q, lbHfRegion* rg, int iu, int ju)
{
	lbHfShortCastIn(q, rg, iu, ju, false);
}

// A vertical cast's short walk (a prone probe's sphere, as wide as a cell, on its 3 x 3 cells).
static LB_NOINLINE void lbHfVerticalShortCast(lbHfQuery* q, lbHfRegion* rg, int iu, int ju)
{
	lbHfShortCastIn(q, rg, iu, ju, true);
}

// Long casts walk the footprint row by row in the direction of travel. Kept out of line so the
// foot-trace path above compiles the same whatever changes here.
static LB_NOINLINE void lbHfLongCast(lbHfQuery* q, double t0, double t1, int jFirst, int jLast)
{
	const lbHeightfield* hf = q->hf;
	lbCastState* st = q->st;
	const lbDCast* lc = &q->lc;
	const double* inv = q->inv;
	double cs = q->cs, grow = q->grow;
	int cellsX = q->cellsX, shapeId = q->shapeId;
	bool yMoves = fabs(lc->d.y) > 1e-12;
	bool xMoves = fabs(lc->d.x) > 1e-12;
	int jStep = lc->d.y < 0.0 ? -1 : 1;
	int jStart = jStep > 0 ? jFirst : jLast, jEnd = jStep > 0 ? jLast : jFirst;
	for (int j = jStart;; j += jStep)
	{
		// Portion of the clipped segment whose y lies in this row's band grown by the radius.
		double bandLo = j * cs - grow, bandHi = (j + 1) * cs + grow;
		double ra = t0, rb = lbMinD(t1, st->bestT);
		if (yMoves)
		{
			double u1 = (bandLo - lc->s.y) * inv[1], u2 = (bandHi - lc->s.y) * inv[1];
			double lo = lbMinD(u1, u2), hi = lbMaxD(u1, u2);
			// Rows come in travel order, so a row entered after the nearest hit ends the walk.
			if (lo > st->bestT)
				break;
			ra = lbMaxD(ra, lo);
			rb = lbMinD(rb, hi);
		}
		if (ra <= rb)
		{
			double xa = lc->s.x + ra * lc->d.x, xb = lc->s.x + rb * lc->d.x;
			int iFirst = lbFloorClamp((lbMinD(xa, xb) - grow) * q->invCs, 0, cellsX - 1);
			int iLast = lbFloorClamp((lbMaxD(xa, xb) + grow) * q->invCs, 0, cellsX - 1);
			int iStep = lc->d.x < 0.0 ? -1 : 1;
			int iStart = iStep > 0 ? iFirst : iLast, iEnd = iStep > 0 ? iLast : iFirst;
			for (int i = iStart;; i += iStep)
			{
				if (xMoves)
				{
					double cellLo = i * cs - grow, cellHi = (i + 1) * cs + grow;
					double entry = lbMinD((cellLo - lc->s.x) * inv[0], (cellHi - lc->s.x) * inv[0]);
					if (entry > st->bestT)
						break;
				}
				lbHfTestCell(q, i, j);
				if (i == iEnd)
					break;
			}
		}
		if (j == jEnd)
			break;
	}
	lbHfCommit(q);
	lbHfRecordUser user = { hf, shapeId };
	lbFlushDeferred(&q->deferred, lc, st, lbHfRecord, &user);
}

// A cast along the grid's up axis (a foot's probe line on an upright heightfield), with q's frame,
// cast and 1 / cs set: the set-up below with the terms of a zero horizontal direction left out (no x
// or y slab narrows it, its footprint is the cells around its start), the same values otherwise, so
// the same hits as the general path. False when it misses the grid's box; else the footprint's
// first and last cells.
static LB_ALWAYS_INLINE bool lbHfVerticalSetup(lbHfQuery* q, const lbHeightfield* hf, double cs, int* iFirst, int* iLast,
										   int* jFirst, int* jLast)
{
	const lbDCast* lc = &q->lc;
	lbCastState* st = q->st;
	const int cellsX = hf->cellsX, cellsY = hf->cellsY;
	q->cs = cs;
	q->cellsX = cellsX;
	q->cellsY = cellsY;
	q->inv[0] = q->inv[1] = 0.0;
	q->inv[2] = fabs(lc->d.z) < 1e-300 ? 0.0 : 1.0 / lc->d.z;
	const double grow = lc->r + 1e-9 * (1.0 + fabs(lc->s.x) + fabs(lc->s.y) + fabs(lc->s.z));
	q->grow = grow;
	q->reach = 1.4142136 * grow;
	q->hasBest = false;
	q->deferred.count = 0;
	double t0 = 0.0, t1 = st->bestT;
	const double x = lc->s.x, y = lc->s.y;
	if (!lbClipSlab(lc->s.z, lc->d.z, q->inv[2], hf->minHeight - grow, hf->maxHeight + grow, &t0, &t1) ||
		!(x >= -grow && x <= hf->extentX + grow) || !(y >= -grow && y <= hf->extentY + grow))
		return false;
	*iFirst = lbFloorClamp((x - grow) * q->invCs, 0, cellsX - 1);
	*iLast = lbFloorClamp((x + grow) * q->invCs, 0, cellsX - 1);
	*jFirst = lbFloorClamp((y - grow) * q->invCs, 0, cellsY - 1);
	*jLast = lbFloorClamp((y + grow) * q->invCs, 0, cellsY - 1);
	return true;
}

// A vertical ray inside one cell: the block pass's one-cell ray with only the triangle that can hold
// the hit. The ray's x and y stay the start's (t times a zero direction adds zero), so the triangle
// is known before any plane: tri 0 below the diagonal (y < x), tri 1 above it; a start on the
// diagonal, in both, takes the block pass. The candidate's numbers are the block pass's, in the
// same order, so the same hit to the bit.
static LB_ALWAYS_INLINE void lbHfVerticalRayCell(lbHfQuery* q, int bi, int bj)
{
	const lbDCast* lc = &q->lc;
	const double cs = q->cs, invCs = q->invCs, dx = lc->d.x, dy = lc->d.y, dz = lc->d.z;
	const double sx = lc->s.x - bi * cs, sy = lc->s.y - bj * cs;
	if (!(sx != sy))
	{
		lbHfBlockCastWH(q, bi, bj, 1, 1, true);
		return;
	}
	lbDContact contact;
	int tri;
	if (lbHfVerticalTriangleHit(q->hf, bi, bj, invCs, cs, sx, sy, lc->s.x, lc->s.y, lc->s.z, dx, dy, dz, q->st->bestT,
								&contact, &tri))
		lbHfKeep(q, &contact, 2 * (bj * q->cellsX + bi) + tri);
	lbHfCommit(q);
}

// A vertical ray: the cell under its start (two on a cell border) straight into the block pass.
static void lbHfVerticalRay(lbHfQuery* q, const lbHeightfield* hf, double cs)
{
	int iFirst, iLast, jFirst, jLast;
	if (!lbHfVerticalSetup(q, hf, cs, &iFirst, &iLast, &jFirst, &jLast))
		return;
	if (iFirst == iLast && jFirst == jLast)
		lbHfVerticalRayCell(q, iFirst, jFirst);
	else
		lbHfBlockCast(q, iFirst, jFirst, iLast - iFirst + 1, jLast - jFirst + 1);
}

// A vertical sphere whose footprint fits in 2 x 2 cells (a foot's probe) into the block pass, and one
// in up to 4 x 4 (a prone probe, as wide as a cell: 3 x 3) into the short walk with the set-up done
// here, which is the general path's for a zero horizontal direction (the same footprint and landing
// cell: the start's x and y plus a time times zero); false, with nothing found, for a wider one (the
// general path's long walk).
static LB_NOINLINE bool lbHfVerticalSphereWide(lbHfQuery* q, const lbHeightfield* hf, int iFirst, int iLast, int jFirst,
											   int jLast)
{
	if (iLast - iFirst > 3 || jLast - jFirst > 3)
		return false;
	lbHfRegion rg = { iFirst, jFirst, iLast - iFirst + 1, jLast - jFirst + 1, hf->cellsX, hf->cellsY, 0u };
	lbHfVerticalShortCast(q, &rg, lbFloorClamp(q->lc.s.x * q->invCs, iFirst, iLast),
						  lbFloorClamp(q->lc.s.y * q->invCs, jFirst, jLast));
	return true;
}

static bool lbHfVerticalSphere(lbHfQuery* q, const lbHeightfield* hf, double cs)
{
	int iFirst, iLast, jFirst, jLast;
	if (!lbHfVerticalSetup(q, hf, cs, &iFirst, &iLast, &jFirst, &jLast))
		return true;
	// The wider footprints out of line, so a foot's probe compiles as before.
	if (iLast - iFirst > 1 || jLast - jFirst > 1)
		return lbHfVerticalSphereWide(q, hf, iFirst, iLast, jFirst, jLast);
	lbHfBlockCast(q, iFirst, jFirst, iLast - iFirst + 1, jLast - jFirst + 1);
	return true;
}

// lbHfFlatVerticalHit folded into the cast's state: false where only the full path can tell.
static LB_ALWAYS_INLINE bool lbHfFlatVerticalRay(const lbHeightfield* hf, lbCastState* st, int shapeId)
{
	lbDContact contact;
	int prim;
	const int found = lbHfFlatVerticalHit(hf, st->cast.s, st->cast.d.x, st->cast.d.y, st->cast.d.z, st->cast.r, st->bestT,
										  st->inside, &contact, &prim);
	if (found < 0)
		return false;
	// lbCastRecord keeps the first of equal times.
	if (found > 0)
	{
		contact.p = lbDAdd(contact.p, hf->frame.p);
		lbCastRecord(st, &contact, shapeId, prim);
	}
	return true;
}

void lbHeightfieldCast(const lbHeightfield* hf, lbCastState* st, int shapeId)
{
	if (hf->flat && st->cast.d.x == 0.0 && st->cast.d.y == 0.0 && st->cast.r == 0.0 && lbHfFlatVerticalRay(hf, st, shapeId))
		return;
	lbHfQuery q;
	q.hf = hf;
	q.st = st;
	q.shapeId = shapeId;
	q.lc = st->cast;
	if (hf->flat)
		q.lc.s = lbDSub(st->cast.s, hf->frame.p);
	else
	{
		q.lc.s = lbDFrameInvPoint(&hf->frame, st->cast.s);
		q.lc.d = lbDFrameInvDir(&hf->frame, st->cast.d);
	}
	const lbDCast* lc = &q.lc;
	double cs = hf->cellSize;
	q.invCs = hf->invCellSize;
	if (lc->d.x == 0.0 && lc->d.y == 0.0)
	{
		if (lc->r == 0.0)
		{
			lbHfVerticalRay(&q, hf, cs);
			return;
		}
		if (lbHfVerticalSphere(&q, hf, cs))
			return;
	}
#if defined(__GNUC__)
	// A random trace's first cell is a cache miss: ask for its tile line now, so the miss overlaps the
	// setup below (for a short cast it is the cell under the start).
	{
		double fx = lc->s.x * q.invCs, fy = lc->s.y * q.invCs;
		if (fx >= 0.0 && fy >= 0.0 && fx < (double)(hf->countX - 1) && fy < (double)(hf->countY - 1))
			__builtin_prefetch(lbCellCorners(hf, (int)fx, (int)fy));
	}
#endif
	q.inv[0] = fabs(lc->d.x) < 1e-300 ? 0.0 : 1.0 / lc->d.x;
	q.inv[1] = fabs(lc->d.y) < 1e-300 ? 0.0 : 1.0 / lc->d.y;
	q.inv[2] = fabs(lc->d.z) < 1e-300 ? 0.0 : 1.0 / lc->d.z;
	const double* inv = q.inv;
	int cellsX = hf->countX - 1, cellsY = hf->countY - 1;
	q.cs = cs;
	q.cellsX = cellsX;
	q.cellsY = cellsY;
	// The narrow phase is exact; the grow only keeps cells from being skipped by rounding.
	double grow = lc->r + 1e-9 * (1.0 + fabs(lc->s.x) + fabs(lc->s.y) + fabs(lc->s.z));
	q.grow = grow;
	q.reach = 1.4142136 * grow;
	q.hasBest = false;
	q.deferred.count = 0;

	double t0 = 0.0, t1 = st->bestT;
	if (!lbClipSlab(lc->s.z, lc->d.z, inv[2], hf->minHeight - grow, hf->maxHeight + grow, &t0, &t1) ||
		!lbClipSlab(lc->s.x, lc->d.x, inv[0], -grow, cellsX * cs + grow, &t0, &t1) ||
		!lbClipSlab(lc->s.y, lc->d.y, inv[1], -grow, cellsY * cs + grow, &t0, &t1))
		return;

	double ya = lc->s.y + t0 * lc->d.y, yb = lc->s.y + t1 * lc->d.y;
	int jFirst = lbFloorClamp((lbMinD(ya, yb) - grow) * q.invCs, 0, cellsY - 1);
	int jLast = lbFloorClamp((lbMaxD(ya, yb) + grow) * q.invCs, 0, cellsY - 1);
	{
		double xa = lc->s.x + t0 * lc->d.x, xb = lc->s.x + t1 * lc->d.x;
		int iFirst = lbFloorClamp((lbMinD(xa, xb) - grow) * q.invCs, 0, cellsX - 1);
		int iLast = lbFloorClamp((lbMaxD(xa, xb) + grow) * q.invCs, 0, cellsX - 1);
		if ((iLast - iFirst + 1) * (jLast - jFirst + 1) <= 16)
		{
			if (iLast - iFirst <= 1 && jLast - jFirst <= 1)
			{
				lbHfBlockCast(&q, iFirst, jFirst, iLast - iFirst + 1, jLast - jFirst + 1);
				return;
			}
			lbHfRegion rg = { iFirst, jFirst, iLast - iFirst + 1, jLast - jFirst + 1, cellsX, cellsY, 0u };
			int iu = lbFloorClamp(xa * q.invCs, iFirst, iLast), ju = lbFloorClamp(ya * q.invCs, jFirst, jLast);
			lbHfShortCast(&q, &rg, iu, ju);
			return;
		}
	}
	lbHfLongCast(&q, t0, t1, jFirst, jLast);
}
