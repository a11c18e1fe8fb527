// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The lying-torso metrics (docs/metrics.md) on stairs, against a brute-force reference on both
// reference rigs: the procedural prone pose is pitched and placed over a flight of stairs at a fixed
// clearance from the ground, then measured. The reference casts rays down every 5 mm under the torso
// capsule and under each of its two parts (lbMetricsTorsoParts), finds the support lines under each
// one's middle by trying every pair of ground samples (the line through them with no sample above
// it): each part's error is the smaller against its own ground's line or the whole torso's, the
// metric the larger part's. The height is the smallest distance from a ground sample to the torso's
// axis less its radius. A torso resting on the stair noses reads no pitch error; one pitched away
// from them reads its angle to the line it rests against.
#include "limber/limber.h"
#include "limber/metrics.h"
#include "test_macros.h"

#define REF_STEP 0.005f
#define REF_MAX 400

typedef struct Profile
{
	int n;
	float s[REF_MAX], z[REF_MAX];
	lbVec3 p[REF_MAX];
} Profile;

static float segmentDistance(lbVec3 a, lbVec3 b, lbVec3 q)
{
	lbVec3 ab = lbSub(b, a);
	float t = lbClampF(lbDot(lbSub(q, a), ab) / lbLengthSquared(ab), 0.0f, 1.0f);
	return lbDistance(q, lbMulAdd(a, t, ab));
}

// Height of the ground under (x, y) (world), or -1e9 where none.
static float groundAt(const lbSceneQuery* query, float x, float y)
{
	lbQueryInput in = lbDefaultQueryInput();
	in.start = lbMakeVec3(x, y, 5.0f);
	in.end = lbMakeVec3(x, y, -2.0f);
	lbHit hit = lbRayCast(query, &in);
	return hit.hit ? hit.impactPoint.z : -1.0e9f;
}

// Ground under the capsule pelvis-neck of radius r, end caps included (r either side of the joints),
// about every REF_STEP along the horizontal axis (from the pelvis). Under an end cap, ground above
// the axis's line (a riser ahead of the head) faces the cap's end and is left out. With `neckCap`
// (the whole torso) the ground under the neck's cap bears on its sphere: each sample, and where the
// ground steps up between two samples the step's edge (found by bisection on rays down), gives the
// height the neck would rest at on it; the highest, less the underside's depth under the axis,
// enters at the neck.
static void groundProfile(const lbSceneQuery* query, lbVec3 pelvis, lbVec3 neck, float r, bool neckCap, Profile* out)
{
	lbVec3 axis = lbNormalize(lbMakeVec3(neck.x - pelvis.x, neck.y - pelvis.y, 0.0f));
	const float run = lbDot(lbSub(neck, pelvis), axis), slope = (neck.z - pelvis.z) / run;
	const float under = r * sqrtf(1.0f + slope * slope);
	float s0 = -r, s1 = run + r;
	int count = (int)ceilf((s1 - s0) / REF_STEP);
	out->n = 0;
	bool cap = false, have = false;
	float capZ = 0.0f, lastS = 0.0f, lastZ = 0.0f;
	for (int k = 0; k <= count && out->n < REF_MAX - 1; ++k)
	{
		float s = s0 + (s1 - s0) * (float)k / (float)count;
		lbVec3 x = lbMulAdd(pelvis, s, axis);
		const float gz = groundAt(query, x.x, x.y);
		if (gz < -1.0e8f)
			continue;
		if ((s < 0.0f || s > run) && gz > pelvis.z + s * slope)
			continue;
		if (neckCap && s > run)
		{
			float edge = s;
			if (have && gz > lastZ + 1.0e-3f)
			{
				float lo = lastS, hi = s;
				for (int it = 0; it < 30; ++it)
				{
					const float mid = 0.5f * (lo + hi);
					const lbVec3 q = lbMulAdd(pelvis, mid, axis);
					if (groundAt(query, q.x, q.y) > lastZ + 1.0e-3f)
						hi = mid;
					else
						lo = mid;
				}
				edge = hi;
			}
			const float dx = edge - run;
			const float zr = gz - pelvis.z + sqrtf(lbMaxF(r * r - dx * dx, 0.0f)) - under;
			capZ = cap ? lbMaxF(capZ, zr) : zr;
			cap = true;
		}
		have = true;
		lastS = s;
		lastZ = gz;
		if (neckCap && s > run)
			continue;
		out->s[out->n] = s;
		out->z[out->n] = gz - pelvis.z;
		out->p[out->n] = lbMakeVec3(x.x, x.y, gz);
		++out->n;
	}
	if (cap)
	{
		out->s[out->n] = run;
		out->z[out->n] = capZ;
		out->p[out->n] = lbMakeVec3(neck.x, neck.y, pelvis.z + capZ);
		++out->n;
	}
}

// The pitch errors (deg) of a part pitched `pitch` (deg) against every support line of g (two
// samples, none above the line through them) spanning [lo, hi]; returns how many (at most max).
static int supportErrors(const Profile* g, float lo, float hi, float pitch, float* errs, int max)
{
	int n = 0;
	for (int i = 0; i < g->n; ++i)
		for (int j = i + 1; j < g->n && n < max; ++j)
		{
			if (g->s[i] > hi || g->s[j] < lo)
				continue;
			float k = (g->z[j] - g->z[i]) / (g->s[j] - g->s[i]);
			bool below = true;
			for (int m = 0; m < g->n && below; ++m)
				below = g->z[m] <= g->z[i] + k * (g->s[m] - g->s[i]) + 1.0e-5f;
			if (!below)
				continue;
			float err = lbAbsF(pitch - atanf(k) * LB_RAD2DEG);
			errs[n++] = err > 90.0f ? 180.0f - err : err; // a line's angle, as the metric wraps it
		}
	return n;
}

#define REF_ERRS 64

// Every support line of g spanning [lo, hi]: true when one of them is within tol (deg) of
// `pitchErr` as measured against `pitch` (deg).
static bool supportMatches(const Profile* g, float lo, float hi, float pitch, float pitchErr, float tol, float* outNearest)
{
	float errs[REF_ERRS * 16];
	const int n = supportErrors(g, lo, hi, pitch, errs, REF_ERRS * 16);
	float nearest = 1.0e9f;
	for (int i = 0; i < n; ++i)
		if (lbAbsF(errs[i] - pitchErr) < lbAbsF(nearest - pitchErr))
			nearest = errs[i];
	*outNearest = nearest;
	return lbAbsF(nearest - pitchErr) <= tol;
}

// A part's possible errors: each against its own ground's lines (own) or the whole torso's (whole),
// whichever is nearer: every min(own, whole), and each alone.
static int partErrors(const float* own, int nOwn, const float* whole, int nWhole, float* out)
{
	int n = 0;
	for (int i = 0; i < nOwn; ++i)
	{
		out[n++] = own[i];
		for (int j = 0; j < nWhole; ++j)
			out[n++] = lbMinF(own[i], whole[j]);
	}
	for (int j = 0; j < nWhole; ++j)
		out[n++] = whole[j];
	return n;
}

// One frame of the lying torso measured: the pose placed by `characterWs`, a touching body contact
// at the pelvis (the system says the torso rests).
static lbFrameMetrics measureLying(lbMetrics* metrics, const lbHumanoid* h, const lbPose* pose, lbTransform characterWs,
								   lbVec3 pelvis)
{
	lbContact contact;
	memset(&contact, 0, sizeof contact);
	contact.kind = lb_contactBody;
	contact.bone = h->pelvis;
	contact.targetWs = pelvis;
	contact.normalWs = lbVec3_axisZ;
	contact.touching = true;
	lbMetricsFrame frame;
	memset(&frame, 0, sizeof frame);
	frame.pose = pose;
	frame.characterWs = characterWs;
	frame.contacts = &contact;
	frame.contactCount = 1;
	frame.grounded = true;
	frame.reset = true;
	frame.dt = 1.0f / 60.0f;
	lbFrameMetrics fm;
	ENSURE(lbMetrics_AddFrame(metrics, &frame, &fm) == lb_ok);
	return fm;
}

// The procedural prone pose of a reference rig, and metrics measuring it against `world`.
static lbMetrics* lyingSetUp(lbReferenceRig rig, lbWorld* world, lbSkeleton** outSkel, lbHumanoid* h, lbPose* pose)
{
	lbSkeleton* skel = lbCreateReferenceRig(rig);
	ENSURE(lbMapHumanoid(skel, NULL, h) == lb_ok);
	*pose = lbCreatePose(skel);
	lbMotionState ms;
	lbMotionState_Init(&ms, skel, h, lbTransform_identity);
	lbMotionDef mp = lbDefaultMotionDef(lb_motionProne);
	ENSURE(lbMotion_Sample(&ms, skel, h, &mp, 1.0f / 60.0f, pose) == lb_ok);
	lbMetricsDef md = lbDefaultMetricsDef();
	md.skeleton = skel;
	md.humanoid = h;
	md.query = lbWorld_GetQuery(world);
	lbMetrics* metrics = lbCreateMetrics(&md);
	ENSURE(metrics != NULL);
	*outSkel = skel;
	return metrics;
}

// A world of ten stairs of the given riser and tread (m); *outSp gets the stairs' scene def.
static lbWorld* stairsWorld(float riser, float tread, lbSceneDef* outSp)
{
	lbWorldDef wd = lbDefaultWorldDef();
	lbWorld* world = lbCreateWorld(&wd);
	*outSp = lbDefaultSceneDef(lb_sceneStairs);
	outSp->riser = riser;
	outSp->tread = tread;
	outSp->count = 10.0f;
	ENSURE(lbBuildScene(world, outSp) == lb_ok);
	return world;
}

static void test_prone_metrics_torso_on_stairs(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSceneDef sp;
		lbWorld* world = stairsWorld(0.18f, 0.28f, &sp);
		lbSceneQuery query = lbWorld_GetQuery(world);
		lbSkeleton* skel;
		lbHumanoid h;
		lbPose pose;
		lbMetrics* metrics = lyingSetUp((lbReferenceRig)rig, world, &skel, &h, &pose);
		const float r = lbMetricsSegmentRadius(&h, lb_segmentTorso, 0);
		// Face down, head along +X (up the stairs).
		const lbQuat q0 = lbQuatFromTwoAxes(h.upMs, lbVec3_axisZ, h.forwardMs, lbVec3_axisX);
		const lbVec3 p0 = lbQuatRotate(q0, pose.model[h.pelvis].p), n0 = lbQuatRotate(q0, pose.model[h.neck].p);
		const float e0 = atan2f(n0.z - p0.z, n0.x - p0.x);
		Profile* g = (Profile*)malloc(sizeof(Profile));
		uint64_t seed = 0x5eedu + (uint64_t)rig;
		int checked = 0, offNose = 0;
		for (int c = 0; c < 40; ++c)
		{
			// The first case rests on the noses' line; the others are pitched, placed and lifted at random.
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			float u0 = (float)((seed >> 40) & 0xffff) / 65535.0f;
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			float u1 = (float)((seed >> 40) & 0xffff) / 65535.0f;
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			float u2 = (float)((seed >> 40) & 0xffff) / 65535.0f;
			const float noseLine = atanf(sp.riser / sp.tread);
			float pitch = c == 0 ? noseLine : (10.0f + 30.0f * u0) * LB_DEG2RAD;
			float middleX = c == 0 ? 2.0f : 1.5f + 1.2f * u1;
			float lift = c == 0 ? 0.005f : 0.04f * u2;
			lbQuat q = lbQuatMul(lbQuatFromAxisAngle(lbVec3_axisY, -(pitch - e0)), q0);
			lbVec3 pw = lbQuatRotate(q, pose.model[h.pelvis].p), nw = lbQuatRotate(q, pose.model[h.neck].p);
			lbVec3 t = lbMakeVec3(middleX - 0.5f * (pw.x + nw.x), -0.5f * (pw.y + nw.y), 3.0f);
			// Lowered until the capsule is `lift` from the nearest ground sample (bisection on its height).
			float lo = -2.0f, hi = 3.0f;
			for (int it = 0; it < 40; ++it)
			{
				float z = 0.5f * (lo + hi);
				lbVec3 a = lbAdd(pw, lbMakeVec3(t.x, t.y, z)), b = lbAdd(nw, lbMakeVec3(t.x, t.y, z));
				groundProfile(&query, a, b, r, false, g);
				// A ground sample above the axis's line: the torso is in the ground.
				const float slope = (b.z - a.z) / lbLength(lbMakeVec3(b.x - a.x, b.y - a.y, 0.0f));
				float gap = 1.0e9f;
				for (int i = 0; i < g->n; ++i)
					gap = lbMinF(gap, g->z[i] > g->s[i] * slope ? -1.0f : segmentDistance(a, b, g->p[i]) - r);
				if (gap > lift)
					hi = z;
				else
					lo = z;
			}
			t.z = hi;
			lbVec3 pelvis = lbAdd(pw, t), neck = lbAdd(nw, t);
			groundProfile(&query, pelvis, neck, r, false, g);
			ENSURE(g->n > 10);
			float gap = 1.0e9f;
			for (int i = 0; i < g->n; ++i)
				gap = lbMinF(gap, segmentDistance(pelvis, neck, g->p[i]) - r);

			const lbFrameMetrics fm = measureLying(metrics, &h, &pose, lbMakeTransform(t, q), pelvis);
			ENSURE(fm.torsoPitchError >= 0.0f && fm.torsoHeight >= 0.0f);
			// The metric's samples lie 1.25 cm apart: a nose is found up to that far past its edge.
			ENSURE_NEAR(fm.torsoHeight, lbMaxF(gap, 0.0f), 0.008);
			// Each part (pelvis to the bend, the bend to the neck) against its own ground and the whole
			// torso's, under each one's middle; the metric is the larger part's.
			lbVec3 parts[3];
			const int count = lbMetricsTorsoParts(metrics, &pose, lbMakeTransform(t, q), parts);
			ENSURE(count == 3);
			const float middle = 0.5f * lbLength(lbMakeVec3(neck.x - pelvis.x, neck.y - pelvis.y, 0.0f));
			float cand[2][REF_ERRS * (REF_ERRS + 2)];
			int nCand[2];
			float actualPitch = 0.0f;
			for (int i = 0; i < 2; ++i)
			{
				const lbVec3 a = parts[i], b = parts[i + 1];
				const float run = lbLength(lbMakeVec3(b.x - a.x, b.y - a.y, 0.0f));
				const float pitchDeg = atan2f(b.z - a.z, run) * LB_RAD2DEG;
				actualPitch = lbMaxF(actualPitch, pitchDeg);
				float own[REF_ERRS], whole[REF_ERRS];
				groundProfile(&query, a, b, r, false, g);
				const int nOwn = supportErrors(g, 0.5f * run - 0.02f, 0.5f * run + 0.02f, pitchDeg, own, REF_ERRS);
				groundProfile(&query, pelvis, neck, r, true, g);
				const int nWhole = supportErrors(g, middle - 0.02f, middle + 0.02f, pitchDeg, whole, REF_ERRS);
				nCand[i] = partErrors(own, nOwn, whole, nWhole, cand[i]);
			}
			bool match = false;
			float nearest = 1.0e9f;
			for (int i = 0; i < nCand[0]; ++i)
				for (int j = 0; j < nCand[1]; ++j)
				{
					const float e = lbMaxF(cand[0][i], cand[1][j]);
					if (lbAbsF(e - fm.torsoPitchError) < lbAbsF(nearest - fm.torsoPitchError))
						nearest = e;
					match = match || lbAbsF(e - fm.torsoPitchError) <= 1.5f;
				}
			if (!match)
				printf("  rig %d case %d: pitch %.2f deg, metric %.2f deg, nearest reference %.2f deg\n", rig, c,
					   (double)actualPitch, (double)fm.torsoPitchError, (double)nearest);
			ENSURE(match);
			if (c == 0)
			{
				// On the noses: no pitch error, the height is the lift.
				ENSURE(fm.torsoPitchError < 1.5f);
				ENSURE_NEAR(fm.torsoHeight, 0.005, 0.008);
			}
			offNose += lbAbsF(pitch - noseLine) > 5.0f * LB_DEG2RAD ? 1 : 0;
			++checked;
		}
		// The random cases cover pitches away from the noses' line.
		ENSURE(checked == 40 && offNose > 10);
		free(g);
		lbDestroyMetrics(metrics);
		lbDestroyWorld(world);
		lbDestroyPose(&pose);
		lbDestroySkeleton(skel);
	}
}

// Roll across a trench's rim: the prone pose lies face down with its axis along the rim (+Y), rolled
// and placed across it at random, on both rigs. The reference casts rays down every 5 mm across the
// torso's middle, 0.15 m either side, and tries every pair of samples for a line with none above it
// spanning the middle; the metric's roll error must match the torso's shoulder-line roll against
// one of them. A torso lying level on the rim, however near its edge, reads no roll error (against
// the line between the two outer points it read the rim-to-floor slope, about 55 degrees).
static void test_prone_metrics_roll_at_a_rim(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* world = lbCreateWorld(&wd);
		lbSceneDef sp = lbDefaultSceneDef(lb_sceneGap);
		sp.distance = 1.5f; // the rim along X = 1.5, the floor 0.45 m down beyond it
		sp.gap = 1.2f;
		sp.depth = 0.45f;
		ENSURE(lbBuildScene(world, &sp) == lb_ok);
		lbSceneQuery query = lbWorld_GetQuery(world);
		lbSkeleton* skel;
		lbHumanoid h;
		lbPose pose;
		lbMetrics* metrics = lyingSetUp((lbReferenceRig)rig, world, &skel, &h, &pose);
		const float r = lbMetricsSegmentRadius(&h, lb_segmentTorso, 0);
		// Face down, head along +Y: the torso's left is -X, its right +X (toward the gap).
		const lbQuat q0 = lbQuatFromTwoAxes(h.upMs, lbVec3_axisZ, h.forwardMs, lbVec3_axisY);
		uint64_t seed = 0x0711u + (uint64_t)rig;
		int checked = 0, level = 0;
		for (int c = 0; c < 40; ++c)
		{
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			float u0 = (float)((seed >> 40) & 0xffff) / 65535.0f;
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			float u1 = (float)((seed >> 40) & 0xffff) / 65535.0f;
			// Every fourth case lies level (the pose's own roll); the others rolled up to 40 degrees.
			const bool flat = (c % 4) == 0;
			const float roll = flat ? 0.0f : (-40.0f + 80.0f * u0) * LB_DEG2RAD;
			const float middleX = 1.5f - 0.3f + 0.4f * u1; // 0.3 m on the rim to 0.1 m over the gap
			lbQuat q = lbQuatMul(lbQuatFromAxisAngle(lbVec3_axisY, roll), q0);
			lbVec3 pw = lbQuatRotate(q, pose.model[h.pelvis].p), nw = lbQuatRotate(q, pose.model[h.neck].p);
			// The torso's middle a radius (and 5 mm) over the rim's top.
			lbVec3 t = lbMakeVec3(middleX - 0.5f * (pw.x + nw.x), -0.5f * (pw.y + nw.y), r + 0.005f - 0.5f * (pw.z + nw.z));
			lbVec3 pelvis = lbAdd(pw, t), neck = lbAdd(nw, t);
			lbVec3 mid = lbLerp(pelvis, neck, 0.5f);
			lbVec3 axis = lbNormalize(lbMakeVec3(neck.x - pelvis.x, neck.y - pelvis.y, 0.0f));
			lbVec3 side = lbNormalize(lbCross(lbVec3_axisZ, axis));
			lbVec3 sl = lbAdd(lbQuatRotate(q, pose.model[h.arm[lb_left].upperArm].p), t);
			lbVec3 sr = lbAdd(lbQuatRotate(q, pose.model[h.arm[lb_right].upperArm].p), t);
			const float torsoRoll = atan2f(sl.z - sr.z, lbDot(lbSub(sl, sr), side)) * LB_RAD2DEG;
			// Reference profile across the middle, right (-side) to left.
			Profile* g = (Profile*)malloc(sizeof(Profile));
			g->n = 0;
			for (float o = -0.15f; o <= 0.15f + 1.0e-4f && g->n < REF_MAX; o += REF_STEP)
			{
				lbVec3 x = lbMulAdd(mid, o, side);
				lbQueryInput in = lbDefaultQueryInput();
				in.start = lbMakeVec3(x.x, x.y, 5.0f);
				in.end = lbMakeVec3(x.x, x.y, -2.0f);
				lbHit hit = lbRayCast(&query, &in);
				if (!hit.hit)
					continue;
				g->s[g->n] = o;
				g->z[g->n] = hit.impactPoint.z;
				g->p[g->n] = hit.impactPoint;
				++g->n;
			}
			ENSURE(g->n > 50);

			const lbFrameMetrics fm = measureLying(metrics, &h, &pose, lbMakeTransform(t, q), pelvis);
			ENSURE(fm.torsoRollError >= 0.0f);
			float nearest;
			bool match = supportMatches(g, -0.015f, 0.015f, torsoRoll, fm.torsoRollError, 1.5f, &nearest);
			if (!match)
				printf("  rig %d case %d: roll %.2f deg at x %.3f, metric %.2f deg, nearest reference %.2f deg\n", rig, c,
					   (double)torsoRoll, (double)middleX, (double)fm.torsoRollError, (double)nearest);
			ENSURE(match);
			// Level with its middle on the rim (a sample spacing from its edge): no roll error.
			if (flat && middleX < 1.5f - 0.0125f)
			{
				ENSURE(fm.torsoRollError < 1.5f);
				++level;
			}
			free(g);
			++checked;
		}
		ENSURE(checked == 40 && level >= 3);
		lbDestroyMetrics(metrics);
		lbDestroyWorld(world);
		lbDestroyPose(&pose);
		lbDestroySkeleton(skel);
	}
}

// The torso's parts on both rigs (lbMetricsTorsoParts): the bend point lies on the rest pose's
// pelvis-to-neck line 0.5-0.7 of the way up it (the spine joint nearest 0.6, above the first spine
// bone), carried by its spine bone: turning that bone moves it, turning the neck does not.
static void test_prone_metrics_torso_parts(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbWorldDef wd = lbDefaultWorldDef();
		lbWorld* world = lbCreateWorld(&wd);
		lbSkeleton* skel = lbCreateReferenceRig((lbReferenceRig)rig);
		lbHumanoid h;
		ENSURE(lbMapHumanoid(skel, NULL, &h) == lb_ok);
		lbMetricsDef md = lbDefaultMetricsDef();
		md.skeleton = skel;
		md.humanoid = &h;
		md.query = lbWorld_GetQuery(world);
		lbMetrics* metrics = lbCreateMetrics(&md);
		ENSURE(metrics != NULL);
		lbPose pose = lbCreatePose(skel);
		lbVec3 parts[3];
		ENSURE(lbMetricsTorsoParts(metrics, &pose, lbTransform_identity, parts) == 3);
		const lbVec3 line = lbSub(parts[2], parts[0]);
		const float at = lbDot(lbSub(parts[1], parts[0]), line) / lbLengthSquared(line);
		ENSURE(at > 0.5f && at < 0.7f);
		ENSURE(lbDistance(parts[1], lbMulAdd(parts[0], at, line)) < 1.0e-4f);
		// Which spine bone carries it: the one whose turn moves it.
		int carrier = -1;
		for (int i = 0; i < h.spineCount; ++i)
		{
			lbPose turned = lbCreatePose(skel);
			ENSURE(lbPose_SetBoneModelRotation(&turned, skel, h.spine[i],
											   lbQuatMul(lbQuatFromAxisAngle(lbVec3_axisX, 0.3f), turned.model[h.spine[i]].q),
											   true) == lb_ok);
			lbVec3 moved[3];
			ENSURE(lbMetricsTorsoParts(metrics, &turned, lbTransform_identity, moved) == 3);
			if (lbDistance(moved[1], parts[1]) > 1.0e-3f)
				carrier = i;
			lbDestroyPose(&turned);
		}
		// The last spine bone whose turn moves it is its own (a turn of any bone below moves it too);
		// the neck's turn leaves it, and moves the top.
		ENSURE(carrier >= 1);
		ENSURE(lbDistance(pose.model[h.spine[carrier]].p, parts[1]) < 0.05f);
		lbPose neckTurned = lbCreatePose(skel);
		ENSURE(lbPose_SetBoneModelRotation(&neckTurned, skel, h.neck,
										   lbQuatMul(lbQuatFromAxisAngle(lbVec3_axisX, 0.3f), neckTurned.model[h.neck].q),
										   true) == lb_ok);
		lbVec3 moved[3];
		ENSURE(lbMetricsTorsoParts(metrics, &neckTurned, lbTransform_identity, moved) == 3);
		ENSURE(lbDistance(moved[1], parts[1]) < 1.0e-5f);
		lbDestroyPose(&neckTurned);
		lbDestroyPose(&pose);
		lbDestroyMetrics(metrics);
		lbDestroySkeleton(skel);
		lbDestroyWorld(world);
	}
}

// A torso resting on a deep tread's nose with its middle past it, tipped forward until its neck's
// end cap meets the next nose (0.155 x 0.394 m stairs, both rigs): the cap, not the underside's
// line, bears on that nose, so the torso lies 5 or more degrees under the noses' line and reads no
// pitch error; the brute-force reference agrees; lifted off the nose by 3 cm it reads one.
static void test_prone_metrics_neck_cap_on_a_nose(void)
{
	for (int rig = 0; rig < lb_rigCount; ++rig)
	{
		lbSceneDef sp;
		lbWorld* world = stairsWorld(0.155f, 0.394f, &sp);
		lbSceneQuery query = lbWorld_GetQuery(world);
		lbSkeleton* skel;
		lbHumanoid h;
		lbPose pose;
		lbMetrics* metrics = lyingSetUp((lbReferenceRig)rig, world, &skel, &h, &pose);
		const float r = lbMetricsSegmentRadius(&h, lb_segmentTorso, 0);
		const lbQuat q0 = lbQuatFromTwoAxes(h.upMs, lbVec3_axisZ, h.forwardMs, lbVec3_axisX);
		const lbVec3 p0 = lbQuatRotate(q0, pose.model[h.pelvis].p), n0 = lbQuatRotate(q0, pose.model[h.neck].p);
		const float e0 = atan2f(n0.z - p0.z, n0.x - p0.x), len = lbDistance(p0, n0);
		// Nose A (box 3's front top edge) and the next, B; the middle past A by as much as lets the
		// level torso's cap reach 1 cm into B's riser (about 5 cm: the cap then meets B itself, its
		// neck over B's height).
		const float xA = sp.distance + 3.0f * sp.tread, zA = 4.0f * sp.riser;
		const float xB = xA + sp.tread, zB = zA + sp.riser;
		const float d = sp.tread + 0.01f - r - 0.5f * len;
		ENSURE(d > 0.03f);
		lbQuat q = q0;
		lbVec3 t = lbVec3_zero, pelvis = lbVec3_zero, neck = lbVec3_zero;
		// The pitch at which the cap touches B, the underside on A (bisection).
		float lo = 0.0f, hi = atanf(sp.riser / sp.tread);
		for (int it = 0; it < 40; ++it)
		{
			const float pitch = 0.5f * (lo + hi);
			q = lbQuatMul(lbQuatFromAxisAngle(lbVec3_axisY, -(pitch - e0)), q0);
			const lbVec3 pw = lbQuatRotate(q, pose.model[h.pelvis].p), nw = lbQuatRotate(q, pose.model[h.neck].p);
			const lbVec3 mid = lbLerp(pw, nw, 0.5f);
			t = lbMakeVec3(xA + d - mid.x, -mid.y, zA + r / cosf(pitch) + d * tanf(pitch) - mid.z);
			pelvis = lbAdd(pw, t);
			neck = lbAdd(nw, t);
			// Clear of B: pitched too far up.
			if (lbDistance(neck, lbMakeVec3(xB, neck.y, zB)) > r)
				hi = pitch;
			else
				lo = pitch;
		}
		const float pitchDeg = atan2f(neck.z - pelvis.z, neck.x - pelvis.x) * LB_RAD2DEG;
		ENSURE(neck.z > zB && neck.x < xB);
		ENSURE(atanf(sp.riser / sp.tread) * LB_RAD2DEG - pitchDeg > 5.0f);
		const lbFrameMetrics fm = measureLying(metrics, &h, &pose, lbMakeTransform(t, q), pelvis);
		ENSURE(fm.torsoPitchError < 1.5f);
		ENSURE(fm.torsoHeight < 0.01f);
		// The reference's whole-torso line under the middle has the torso's pitch.
		Profile* g = (Profile*)malloc(sizeof(Profile));
		groundProfile(&query, pelvis, neck, r, true, g);
		const float middle = 0.5f * (neck.x - pelvis.x);
		float errs[REF_ERRS];
		const int n = supportErrors(g, middle - 0.02f, middle + 0.02f, pitchDeg, errs, REF_ERRS);
		ENSURE(n > 0);
		float best = 1.0e9f;
		for (int i = 0; i < n; ++i)
			best = lbMinF(best, errs[i]);
		ENSURE(best < 1.0f);
		// Tipped 4 degrees about A, up (its cap off B, nothing holding its end up) or down (its cap
		// into B's riser), it reads at least 3.
		for (int k = 0; k < 2; ++k)
		{
			const float tipped = (pitchDeg + (k == 0 ? 4.0f : -4.0f)) * LB_DEG2RAD;
			const lbQuat qt = lbQuatMul(lbQuatFromAxisAngle(lbVec3_axisY, -(tipped - e0)), q0);
			const lbVec3 pt = lbQuatRotate(qt, pose.model[h.pelvis].p), nt = lbQuatRotate(qt, pose.model[h.neck].p);
			const lbVec3 mt = lbLerp(pt, nt, 0.5f);
			const lbVec3 tt = lbMakeVec3(xA + d - mt.x, -mt.y, zA + r / cosf(tipped) + d * tanf(tipped) - mt.z);
			const lbFrameMetrics fmt = measureLying(metrics, &h, &pose, lbMakeTransform(tt, qt), lbAdd(pt, tt));
			ENSURE(fmt.torsoPitchError > 3.0f);
		}
		free(g);
		lbDestroyMetrics(metrics);
		lbDestroyWorld(world);
		lbDestroyPose(&pose);
		lbDestroySkeleton(skel);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_prone_metrics_torso_on_stairs);
	RUN_TEST(test_prone_metrics_roll_at_a_rim);
	RUN_TEST(test_prone_metrics_torso_parts);
	RUN_TEST(test_prone_metrics_neck_cap_on_a_nose);
	TEST_MAIN_END();
}
