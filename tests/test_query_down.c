// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Heightfield casts straight down the height axis take their own expansion of the small-footprint
// path; it must give the same result as the path written for any direction, to the bit. Fixed-seed
// property test over random grids (noise, cliffs, spikes, flat runs, pits), the rocky builder's
// terrain, flat and turned frames, and casts aimed at grid lines, corners, diagonals and the grid's
// border, starting high above, just above and below the ground, radius 0 (a ray) up to a cell.
#include "limber/limber.h"
#include "query/cast.h"
#include "query/heightfield_down.h"
#include "test_macros.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct Rng
{
	uint64_t s;
} Rng;

static double Uni(Rng* r, double lo, double hi)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return lo + (hi - lo) * ((double)(z >> 11) * (1.0 / 9007199254740992.0));
}

static bool MakeField(lbHeightfield* hf, int count, float cs, lbTransform t, float* heights)
{
	hf->heights = heights;
	hf->countX = hf->countY = count;
	hf->cellSize = cs;
	hf->minHeight = hf->maxHeight = heights[0];
	for (int k = 0; k < count * count; ++k)
	{
		hf->minHeight = fminf(hf->minHeight, heights[k]);
		hf->maxHeight = fmaxf(hf->maxHeight, heights[k]);
	}
	hf->transform = t;
	hf->frame = lbMakeDFrame(t);
	return lbHeightfieldBuildTiles(hf);
}

// Same bits, except that a zero may differ in sign (== treats them as equal).
static bool SameContact(const lbDContact* a, const lbDContact* b)
{
	return a->t == b->t && a->depth == b->depth && a->n.x == b->n.x && a->n.y == b->n.y && a->n.z == b->n.z &&
		   a->p.x == b->p.x && a->p.y == b->p.y && a->p.z == b->p.z;
}

typedef struct Tally
{
	int casts, hits, inside, features, mismatches;
} Tally;

// Random downward casts over the field, compared with the general path.
static void CastMany(const lbHeightfield* hf, Rng* rng, int count, Tally* tally)
{
	double cs = hf->cellSize, span = (hf->countX - 1) * cs;
	lbDVec3 up = lbDFrameDir(&hf->frame, lbD3(0.0, 0.0, 1.0));
	for (int n = 0; n < count; ++n)
	{
		double kindR = Uni(rng, 0.0, 1.0);
		double r = kindR < 0.1 ? 0.0 : (kindR < 0.8 ? Uni(rng, 0.001, 0.1) * cs * 4.0 : Uni(rng, 0.1, 1.0) * cs);
		// Local x, y: anywhere (also past the border), or on a grid line, corner or diagonal plus a
		// small offset (none, an ulp-sized one, about r).
		double x = Uni(rng, -2.0 * cs, span + 2.0 * cs), y = Uni(rng, -2.0 * cs, span + 2.0 * cs);
		int aim = (int)Uni(rng, 0.0, 5.0);
		double off[4] = { 0.0, 1e-7, r, 0.5 * r };
		double ox = off[(int)Uni(rng, 0.0, 4.0)] * (Uni(rng, 0.0, 1.0) < 0.5 ? -1.0 : 1.0);
		double oy = off[(int)Uni(rng, 0.0, 4.0)] * (Uni(rng, 0.0, 1.0) < 0.5 ? -1.0 : 1.0);
		if (aim == 1 || aim == 3)
			x = floor(x / cs) * cs + ox;
		if (aim == 2 || aim == 3)
			y = floor(y / cs) * cs + oy;
		if (aim == 4)
		{
			double u = Uni(rng, 0.0, cs);
			x = floor(x / cs) * cs + u + ox;
			y = floor(y / cs) * cs + u;
		}
		// Height: high above, just above the highest sample nearby, or below the surface.
		double top = hf->maxHeight;
		int ci = (int)floor(x / cs), cj = (int)floor(y / cs);
		if (ci >= 0 && cj >= 0 && ci + 1 < hf->countX && cj + 1 < hf->countY)
		{
			const float* h = hf->heights;
			int c = hf->countX;
			top = fmax(fmax(h[cj * c + ci], h[cj * c + ci + 1]), fmax(h[(cj + 1) * c + ci], h[(cj + 1) * c + ci + 1]));
		}
		double z, hz = Uni(rng, 0.0, 1.0);
		if (hz < 0.4)
			z = hf->maxHeight + r + Uni(rng, 0.01, 1.0);
		else if (hz < 0.8)
			z = top + r + Uni(rng, 0.0, 1e-3);
		else
			z = top + Uni(rng, -0.3, 0.05);
		double len = Uni(rng, 0.05, 2.0);
		lbDVec3 s = lbDFramePoint(&hf->frame, lbD3(x, y, z));
		lbDVec3 e = lbDSub(s, lbDScale(up, len));
		lbVec3 start = lbMakeVec3((float)s.x, (float)s.y, (float)s.z), end = lbMakeVec3((float)e.x, (float)e.y, (float)e.z);
		lbCastState a, b;
		if (!lbCastInit(&a, start, end, (float)r) || !lbCastInit(&b, start, end, (float)r))
			continue;
		lbHeightfieldCast(hf, &a, 3);
		lbHeightfieldCastGeneral(hf, &b, 3);
		++tally->casts;
		bool same = a.hasHit == b.hasHit && a.inside == b.inside && a.bestT == b.bestT;
		if (same && a.hasHit)
			same = SameContact(&a.hit, &b.hit) && a.hitPrim == b.hitPrim && a.hitShape == b.hitShape;
		if (same && a.inside)
			same = SameContact(&a.deepest, &b.deepest) && a.insidePrim == b.insidePrim;
		if (!same)
		{
			if (tally->mismatches < 5)
				printf("  mismatch: start (%.9g %.9g %.9g) r %.9g len %.9g: hit %d/%d t %.17g/%.17g prim %d/%d\n", s.x, s.y,
					   s.z, r, len, a.hasHit, b.hasHit, a.hit.t, b.hit.t, a.hitPrim, b.hitPrim);
			++tally->mismatches;
		}
		tally->hits += a.hasHit && !a.inside;
		tally->inside += a.inside;
		if (a.hasHit && !a.inside && r > 0.0)
		{
			lbDVec3 fn = lbHeightfieldFaceNormal(hf, a.hitPrim);
			tally->features += fabs(lbDDot(fn, a.hit.n)) < (1.0 - 1e-9) * lbDLen(fn);
		}
	}
}

static void Report(const char* name, const Tally* t)
{
	printf("  %s: %d casts, %d hits (%d at edges or vertices), %d start overlaps, %d mismatches\n", name, t->casts,
		   t->hits, t->features, t->inside, t->mismatches);
}

static void DownRandomFields(void)
{
	Rng rng = { 77 };
	const float sizes[3] = { 0.25f, 0.1f, 0.5f };
	const int count = 20;
	float* heights = (float*)malloc(sizeof(float) * count * count);
	for (int f = 0; f < 6; ++f)
	{
		// Noise, with cliffs, spikes, flat runs (heights quantised) and pits.
		for (int j = 0; j < count; ++j)
			for (int i = 0; i < count; ++i)
			{
				double h = Uni(&rng, -0.05, 0.05);
				if (i > count / 2)
					h += 0.6; // a cliff between two columns
				if (Uni(&rng, 0.0, 1.0) < 0.05)
					h += Uni(&rng, -0.8, 0.8); // spikes and pits
				if (f % 2 == 1 && j < count / 2)
					h = floor(h * 8.0) / 8.0; // flat runs
				heights[j * count + i] = (float)h;
			}
		lbTransform t = lbTransform_identity;
		t.p = lbMakeVec3((float)Uni(&rng, -50.0, 50.0), (float)Uni(&rng, -50.0, 50.0), (float)Uni(&rng, -2.0, 2.0));
		// A frame turned about the height axis keeps a downward cast exactly vertical in the shape's
		// frame (f = 4); a tilted one does not (f = 5, the general path then answers both).
		if (f == 4)
			t.q = lbQuatFromAxisAngle(lbMakeVec3(0.0f, 0.0f, 1.0f), 1.5707963f);
		if (f == 5)
			t.q = lbQuatFromAxisAngle(lbMakeVec3(0.6f, 0.8f, 0.0f), 0.3f);
		lbHeightfield hf = { 0 };
		ENSURE(MakeField(&hf, count, sizes[f % 3], t, heights));
		Tally tally = { 0 };
		CastMany(&hf, &rng, 40000, &tally);
		Report("random field", &tally);
		ENSURE(tally.mismatches == 0);
		ENSURE(tally.hits > tally.casts / 3);
		ENSURE(tally.features > tally.hits / 50);
		ENSURE(tally.inside > 0);
		lbFree(hf.tiles);
	}
	free(heights);
}

static void DownRockyTerrain(void)
{
	Rng rng = { 5 };
	lbSceneDef p = lbDefaultSceneDef(lb_sceneRocky);
	const int count = 64;
	float* heights = (float*)malloc(sizeof(float) * count * count);
	for (int j = 0; j < count; ++j)
		for (int i = 0; i < count; ++i)
			heights[j * count + i] = lbSceneRockyHeight(&p, 0.1f * (float)i, 0.1f * (float)j);
	lbHeightfield hf = { 0 };
	lbTransform t = lbTransform_identity;
	t.p = lbMakeVec3(-3.2f, -3.2f, 0.0f);
	ENSURE(MakeField(&hf, count, 0.1f, t, heights));
	Tally tally = { 0 };
	CastMany(&hf, &rng, 100000, &tally);
	Report("rocky terrain", &tally);
	ENSURE(tally.mismatches == 0);
	ENSURE(tally.hits > tally.casts / 3);
	ENSURE(tally.features > tally.hits / 100);
	lbFree(hf.tiles);
	free(heights);
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(DownRandomFields);
	RUN_TEST(DownRockyTerrain);
	TEST_MAIN_END();
}
