// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Heightfield casts walk the grid instead of building a tree: the cast is clipped to the grid's box,
// then the cells under the cast's footprint (the segment grown by the radius) are visited row by
// row in the direction of travel, like a 2D DDA (Amanatides and Woo, "A Fast Voxel Traversal
// Algorithm", Eurographics 1987) widened by the radius. Each cell's box is tested before its two
// triangles get the exact swept-sphere test, and rows and cells whose entry is beyond the nearest
// hit so far end the walk.
#include "query/cast.h"

#include <float.h>
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

// Slab test of a local cast against [lo, hi] per axis, with the inverse direction component
// precomputed (divisions are slow and there are several slabs per cell). Returns false when missed
// in [tLo, tHi]; otherwise narrows them.
static bool lbClipSlab(double s, double d, double inv, double lo, double hi, double* tLo, double* tHi)
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

// Ternary forms: fmin/fmax are often library calls, and these run for every visited cell.
static inline double lbMinD(double a, double b)
{
	return a < b ? a : b;
}

static inline double lbMaxD(double a, double b)
{
	return a > b ? a : b;
}

static int lbFloorClamp(double x, int lo, int hi)
{
	if (!(x > (double)lo))
		return lo;
	if (x >= (double)hi)
		return hi;
	// x > lo >= 0 here, so truncation is the floor (floor() is a library call without SSE4.1).
	return (int)x;
}

// Corner (0, 0) of cell (i, j) in its tile; +1 steps in i, +4 in j.
static inline const float* lbCellCorners(const lbHeightfield* hf, int i, int j)
{
	int ti = i / 3, tj = j / 3;
	return &hf->tiles[16 * ((size_t)tj * (size_t)hf->tilesX + (size_t)ti) + (size_t)(4 * (j - 3 * tj) + (i - 3 * ti))];
}

bool lbHeightfieldBuildTiles(lbHeightfield* hf)
{
	int cellsX = hf->countX - 1, cellsY = hf->countY - 1;
	int tilesX = (cellsX + 2) / 3, tilesY = (cellsY + 2) / 3;
	size_t bytes = sizeof(float) * 16 * (size_t)tilesX * (size_t)tilesY;
	hf->tiles = (float*)aligned_alloc(64, bytes);
	if (!hf->tiles)
		return false;
	hf->tilesX = tilesX;
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

static void lbRecordLocal(const lbHeightfield* hf, lbCastState* st, lbDContact c, int shapeId, int prim)
{
	c.n = lbDFrameDir(&hf->frame, c.n);
	c.p = lbDFramePoint(&hf->frame, c.p);
	lbCastRecord(st, &c, shapeId, prim);
}

// Entry time of the cast into the height range [zLo, zHi] grown by `grow` within [tLo, tHi] (the
// cell's x and y slabs), or a negative value when it is missed there.
static inline double lbZEntry(const lbDCast* lc, const double* inv, double tLo, double tHi, double zLo, double zHi,
							  double grow)
{
	if (!lbClipSlab(lc->s.z, lc->d.z, inv[2], zLo - grow, zHi + grow, &tLo, &tHi))
		return -1.0;
	return tLo;
}

static double lbMin3(double a, double b, double c)
{
	return lbMinD(a, lbMinD(b, c));
}

static double lbMax3(double a, double b, double c)
{
	return lbMaxD(a, lbMaxD(b, c));
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
	lbRecordLocal(u->hf, st, *contact, u->shapeId, prim);
}

// Face stage for one heightfield triangle, written for its shape: in the shape's frame both triangles
// of a cell are right triangles with legs along x and y, so the plane is z = h00 + gx x + gy y in
// cell coordinates (x, y from the cell's corner (0, 0), z from its height h00), its normal is
// (-gx, -gy, 1) / sqrt(1 + gx^2 + gy^2), and whether a point of the plane lies in the triangle is a
// 2D test on its x and y. Same outcomes as lbSweepSphereTriangleFaceD (geom.c), which it falls back to
// when the start sphere reaches the plane (start overlap or edge contact, rare for casts from above).
//   tri 0 = (p00, p10, p11): y >= 0, x <= cs, y <= x.   tri 1 = (p00, p11, p01): x >= 0, y <= cs, x <= y.
// The cell record holds the cast start relative to corner p00 and the corners (for the fallback).
typedef struct lbHfCell
{
	double sx, sy, sz;
	double x0, y0, cs;
	lbDVec3 p00, p10, p01, p11;
} lbHfCell;

static inline bool lbHfInside(int tri, double qx, double qy, double cs)
{
	return tri == 0 ? (qy >= 0.0 && qx <= cs && qy <= qx) : (qx >= 0.0 && qy <= cs && qx <= qy);
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
	if (!(r > 0.0))
	{
		// Ray: a ray in the plane (|d . n| <= 1e-14) has no area facing it.
		if (!(fd * fd > 1e-28 * g2))
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
		lbDVec3 b = tri == 0 ? cell->p10 : cell->p11, c = tri == 0 ? cell->p11 : cell->p01;
		return lbSweepSphereTriangleFaceD(lc, cell->p00, b, c, tMax, out, outLowerBound);
	}
	// Approach speed toward the plane (m of f per m of cast) must be positive.
	double sgn = f0 > 0.0 ? 1.0 : -1.0, closing = -sgn * fd;
	if (!(closing > 0.0))
		return lb_sweepMiss;
	double t = (af0 - rn) / closing;
	if (t > tMax)
		return lb_sweepMiss;
	// Contact point on the plane: the centre at t moved by r against the normal facing the start.
	double k = sgn * r / nl;
	double qx = cell->sx + t * d.x + k * gx, qy = cell->sy + t * d.y + k * gy;
	double cs = cell->cs;
	if (lbHfInside(tri, qx, qy, cs))
	{
		double s = sgn / nl;
		out->kind = lb_contactHit;
		out->t = t;
		out->depth = 0.0;
		out->n = lbD3(-gx * s, -gy * s, s);
		out->p = lbD3(lc->s.x + t * d.x + k * gx, lc->s.y + t * d.y + k * gy, lc->s.z + t * d.z - k);
		return lb_sweepDone;
	}
	// Touched outside the face: an edge or vertex contact needs the centre's projection on the plane to
	// come within r of the triangle. Its in-plane distance is at least the largest distance to the line
	// of an edge whose half-plane q violates; for a point (x, y) of the plane at 2D offset a across the
	// edge with 2D direction (ex, ey), that 3D distance is a |n| / |(ex, ey, gx ex + gy ey)| (legs:
	// (1, 0, gx) and (0, 1, gy); diagonal (1, 1, gx + gy)). The projection moves at |d_par| per meter.
	double a0, a1, a2;
	if (tri == 0)
		a0 = -qy, a1 = qx - cs, a2 = qy - qx;
	else
		a0 = qy - cs, a1 = -qx, a2 = qx - qy;
	double delta = 0.0;
	if (a0 > 0.0)
		delta = a0 / sqrt(1.0 + gx * gx);
	if (a1 > 0.0)
		delta = lbMaxD(delta, a1 / sqrt(1.0 + gy * gy));
	if (a2 > 0.0)
		delta = lbMaxD(delta, a2 / sqrt(2.0 + (gx + gy) * (gx + gy)));
	delta *= nl;
	double low = t;
	if (delta > r)
	{
		double vn = fd / nl;
		double speed = sqrt(lbMaxD(1.0 - vn * vn, 0.0));
		if (delta - r > speed * (tMax - t))
			return lb_sweepMiss;
		low = t + (delta - r) / speed;
	}
	*outLowerBound = low;
	return lb_sweepEdges;
}

// Returns the triangles (bit tri) whose edge stage was deferred.
static unsigned lbTestCell(const lbHeightfield* hf, const lbDCast* lc, const double* inv, lbCastState* st, int i, int j,
						   double grow, int shapeId, lbDeferred* deferred)
{
	int nx = hf->countX;
	double cs = hf->cellSize;
	const float* t = lbCellCorners(hf, i, j);
	double h00 = t[0], h10 = t[1], h01 = t[4], h11 = t[5];
	double x0 = i * cs, y0 = j * cs;
	// Both triangles share the cell's x and y slabs; only their height ranges differ.
	double xyLo = 0.0, xyHi = st->bestT;
	if (!lbClipSlab(lc->s.x, lc->d.x, inv[0], x0 - grow, x0 + cs + grow, &xyLo, &xyHi) ||
		!lbClipSlab(lc->s.y, lc->d.y, inv[1], y0 - grow, y0 + cs + grow, &xyLo, &xyHi))
		return 0u;
	double e0 = lbZEntry(lc, inv, xyLo, xyHi, lbMin3(h00, h10, h11), lbMax3(h00, h10, h11), grow);
	double e1 = lbZEntry(lc, inv, xyLo, xyHi, lbMin3(h00, h11, h01), lbMax3(h00, h11, h01), grow);
	// The diagonal from (x0, y0) splits the cell: triangle 0 lies where u = (x - x0) - (y - y0) >= 0,
	// triangle 1 where u <= 0. A swept sphere whose centre keeps u below -r sqrt(2) (or above) over the
	// part of the cast that can still matter is farther than r from the other triangle's footprint.
	// u is linear in t, so its two end values bound it. Most short casts touch only one half of a cell.
	double du = lc->d.x - lc->d.y, u0 = (lc->s.x - x0) - (lc->s.y - y0), reach = 1.4142136 * grow;
	if (e0 >= 0.0 && lbMaxD(u0 + e0 * du, u0 + st->bestT * du) < -reach)
		e0 = -1.0;
	if (e1 >= 0.0 && lbMinD(u0 + e1 * du, u0 + st->bestT * du) > reach)
		e1 = -1.0;
	if (e0 < 0.0 && e1 < 0.0)
		return 0u;
	lbHfCell cell;
	cell.sx = lc->s.x - x0;
	cell.sy = lc->s.y - y0;
	cell.sz = lc->s.z - h00;
	cell.x0 = x0;
	cell.y0 = y0;
	cell.cs = cs;
	cell.p00 = lbD3(x0, y0, h00);
	cell.p10 = lbD3(x0 + cs, y0, h10);
	cell.p01 = lbD3(x0, y0 + cs, h01);
	cell.p11 = lbD3(x0 + cs, y0 + cs, h11);
	double invCs = 1.0 / cs;
	int cellIndex = j * (nx - 1) + i;
	double entry = lbMaxD(e0 < 0.0 ? e1 : (e1 < 0.0 ? e0 : lbMinD(e0, e1)), 0.0);
	double px = cell.sx + entry * lc->d.x, py = cell.sy + entry * lc->d.y;
	int first = py > px ? 1 : 0;
	unsigned pending = 0u;
	for (int k = 0; k < 2; ++k)
	{
		int tri = k == 0 ? first : 1 - first;
		double triEntry = tri == 0 ? e0 : e1;
		if (triEntry < 0.0 || triEntry > st->bestT)
			continue;
		lbDContact c;
		double low;
		double gx = tri == 0 ? (h10 - h00) * invCs : (h11 - h01) * invCs;
		double gy = tri == 0 ? (h11 - h10) * invCs : (h01 - h00) * invCs;
		lbSweepStage stage = lbHfFace(lc, &cell, tri, gx, gy, st->bestT, &c, &low);
		if (stage == lb_sweepDone)
			lbRecordLocal(hf, st, c, shapeId, 2 * cellIndex + tri);
		else if (stage == lb_sweepEdges)
		{
			lbHfRecordUser user = { hf, shapeId };
			lbDVec3 b = tri == 0 ? cell.p10 : cell.p11, cc = tri == 0 ? cell.p11 : cell.p01;
			lbDefer(deferred, cell.p00, b, cc, low, 2 * cellIndex + tri, lc, st, lbHfRecord, &user);
			pending |= 1u << tri;
		}
	}
	return pending;
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
	if (i < 0 || j < 0 || i >= rg->cellsX || j >= rg->cellsY)
		return true;
	int li = i - rg->iFirst, lj = j - rg->jFirst;
	if (li < 0 || lj < 0 || li >= rg->width || lj >= rg->height)
		return false;
	return (rg->pending >> (2 * (lj * rg->width + li) + tri)) & 1u;
}

// Edge stage of the deferred triangles of a short cast, nearest lower bound first, each limited to the
// edges and vertices no completed neighbour covers.
static void lbHfFlushRegion(const lbHeightfield* hf, lbHfRegion* rg, lbDeferred* d, const lbDCast* lc, lbCastState* st,
							int shapeId)
{
	for (int a = 1; a < d->count; ++a)
		for (int b = a; b > 0 && d->tris[b].lowerBound < d->tris[b - 1].lowerBound; --b)
		{
			lbDeferredTri tmp = d->tris[b];
			d->tris[b] = d->tris[b - 1];
			d->tris[b - 1] = tmp;
		}
	int cellsX = hf->countX - 1;
	for (int k = 0; k < d->count; ++k)
	{
		const lbDeferredTri* t = &d->tris[k];
		if (t->lowerBound > st->bestT)
			break;
		int cell = t->prim >> 1, tri = t->prim & 1;
		int i = cell % cellsX, j = cell / cellsX;
		// Edge e of the triangle runs from vertex e to vertex e + 1 (lbSweepSphereTriangleFeaturesD).
		// Triangle 0 is (p00, p10, p11): bottom edge, right edge, diagonal. Triangle 1 is (p00, p11,
		// p01): diagonal, top edge, left edge.
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
		// A vertex is covered by a skipped edge that ends at it.
		unsigned features = (e0 ? 1u : 0u) | (e1 ? 2u : 0u) | (e2 ? 4u : 0u) | (e0 && e2 ? 8u : 0u) |
							(e0 && e1 ? 16u : 0u) | (e1 && e2 ? 32u : 0u);
		if (features)
		{
			lbDContact c;
			if (lbSweepSphereTriangleFeaturesD(lc, t->a, t->b, t->c, st->bestT, features, &c))
				lbRecordLocal(hf, st, c, shapeId, t->prim);
		}
		int li = i - rg->iFirst, lj = j - rg->jFirst;
		if (li >= 0 && lj >= 0 && li < rg->width && lj < rg->height)
			rg->pending &= ~(1ull << (2 * (lj * rg->width + li) + tri));
	}
	d->count = 0;
}

void lbHeightfieldCast(const lbHeightfield* hf, lbCastState* st, int shapeId)
{
	lbDCast lc = st->cast;
	lc.s = lbDFrameInvPoint(&hf->frame, st->cast.s);
	lc.d = lbDFrameInvDir(&hf->frame, st->cast.d);
	const double inv[3] = { fabs(lc.d.x) < 1e-300 ? 0.0 : 1.0 / lc.d.x, fabs(lc.d.y) < 1e-300 ? 0.0 : 1.0 / lc.d.y,
							fabs(lc.d.z) < 1e-300 ? 0.0 : 1.0 / lc.d.z };
	double cs = hf->cellSize;
	int cellsX = hf->countX - 1, cellsY = hf->countY - 1;
	// The narrow phase is exact; the grow only keeps cells from being skipped by rounding.
	double grow = lc.r + 1e-9 * (1.0 + fabs(lc.s.x) + fabs(lc.s.y) + fabs(lc.s.z));

	double t0 = 0.0, t1 = st->bestT;
	if (!lbClipSlab(lc.s.z, lc.d.z, inv[2], hf->minHeight - grow, hf->maxHeight + grow, &t0, &t1) ||
		!lbClipSlab(lc.s.x, lc.d.x, inv[0], -grow, cellsX * cs + grow, &t0, &t1) ||
		!lbClipSlab(lc.s.y, lc.d.y, inv[1], -grow, cellsY * cs + grow, &t0, &t1))
		return;
	lbDeferred deferred;
	deferred.count = 0;
	lbHfRecordUser user = { hf, shapeId };

	double ya = lc.s.y + t0 * lc.d.y, yb = lc.s.y + t1 * lc.d.y;
	int jFirst = lbFloorClamp((lbMinD(ya, yb) - grow) / cs, 0, cellsY - 1);
	int jLast = lbFloorClamp((lbMaxD(ya, yb) + grow) / cs, 0, cellsY - 1);

	// Short casts (foot traces) cover a few cells. The cell under the point where the cast enters the
	// height range (for a foot trace, the cell it lands in) goes first: its face hit then lets the
	// per-triangle box tests of the others reject them.
	{
		double xa = lc.s.x + t0 * lc.d.x, xb = lc.s.x + t1 * lc.d.x;
		int iFirst = lbFloorClamp((lbMinD(xa, xb) - grow) / cs, 0, cellsX - 1);
		int iLast = lbFloorClamp((lbMaxD(xa, xb) + grow) / cs, 0, cellsX - 1);
		if ((iLast - iFirst + 1) * (jLast - jFirst + 1) <= 16)
		{
			lbHfRegion rg = { iFirst, jFirst, iLast - iFirst + 1, jLast - jFirst + 1, cellsX, cellsY, 0u };
			int iu = lbFloorClamp(xa / cs, iFirst, iLast), ju = lbFloorClamp(ya / cs, jFirst, jLast);
			// A full deferred list flushes itself with every feature tested; those triangles keep their
			// pending bit, which only makes their neighbours test more.
			rg.pending |= (uint64_t)lbTestCell(hf, &lc, inv, st, iu, ju, grow, shapeId, &deferred)
						  << (2 * ((ju - jFirst) * rg.width + (iu - iFirst)));
			for (int j = jFirst; j <= jLast; ++j)
				for (int i = iFirst; i <= iLast; ++i)
					if (i != iu || j != ju)
						rg.pending |= (uint64_t)lbTestCell(hf, &lc, inv, st, i, j, grow, shapeId, &deferred)
									  << (2 * ((j - jFirst) * rg.width + (i - iFirst)));
			lbHfFlushRegion(hf, &rg, &deferred, &lc, st, shapeId);
			return;
		}
	}
	bool yMoves = fabs(lc.d.y) > 1e-12;
	bool xMoves = fabs(lc.d.x) > 1e-12;
	int jStep = lc.d.y < 0.0 ? -1 : 1;
	int jStart = jStep > 0 ? jFirst : jLast, jEnd = jStep > 0 ? jLast : jFirst;
	for (int j = jStart;; j += jStep)
	{
		// Portion of the clipped segment whose y lies in this row's band grown by the radius.
		double bandLo = j * cs - grow, bandHi = (j + 1) * cs + grow;
		double ra = t0, rb = lbMinD(t1, st->bestT);
		if (yMoves)
		{
			double u1 = (bandLo - lc.s.y) * inv[1], u2 = (bandHi - lc.s.y) * inv[1];
			double lo = lbMinD(u1, u2), hi = lbMaxD(u1, u2);
			// Rows come in travel order, so a row entered after the nearest hit ends the walk.
			if (lo > st->bestT)
				break;
			ra = lbMaxD(ra, lo);
			rb = lbMinD(rb, hi);
		}
		if (ra <= rb)
		{
			double xa = lc.s.x + ra * lc.d.x, xb = lc.s.x + rb * lc.d.x;
			int iFirst = lbFloorClamp((lbMinD(xa, xb) - grow) / cs, 0, cellsX - 1);
			int iLast = lbFloorClamp((lbMaxD(xa, xb) + grow) / cs, 0, cellsX - 1);
			int iStep = lc.d.x < 0.0 ? -1 : 1;
			int iStart = iStep > 0 ? iFirst : iLast, iEnd = iStep > 0 ? iLast : iFirst;
			for (int i = iStart;; i += iStep)
			{
				if (xMoves)
				{
					double cellLo = i * cs - grow, cellHi = (i + 1) * cs + grow;
					double entry = lbMinD((cellLo - lc.s.x) * inv[0], (cellHi - lc.s.x) * inv[0]);
					if (entry > st->bestT)
						break;
				}
				lbTestCell(hf, &lc, inv, st, i, j, grow, shapeId, &deferred);
				if (i == iEnd)
					break;
			}
		}
		if (j == jEnd)
			break;
	}
	lbFlushDeferred(&deferred, &lc, st, lbHfRecord, &user);
}
