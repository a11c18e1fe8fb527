// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The climbing system's sense stage on its own: steering along the surface, the reach clamp,
// surface search, the locking transition, alphas, body clearance and bad input, on both
// reference rigs and two world up axes.
#include "limber/climb.h"
#include "limber/query.h"
#include "limber/rigs.h"
#include "test_macros.h"

typedef struct Fixture
{
	lbSkeleton* skeleton;
	lbHumanoid humanoid;
	lbPose anim;
	lbWorld* world;
	lbSceneQuery query;
	lbVec3 up, fwd, left;
	lbTransform characterWs;
	lbClimbDef def;
	lbClimbState state;
	// Wall face: a plane through wallPoint with outward normal wallN (facing the character).
	lbVec3 wallPoint, wallN;
} Fixture;

typedef struct RigCase
{
	lbReferenceRig rig;
	lbVec3 up, fwd;
} RigCase;

static const RigCase kCases[] = {
	{ lb_rigMannequin, { 0, 0, 1 }, { 1, 0, 0 } },
	{ lb_rigMixamo, { 0, 1, 0 }, { 0, 0, 1 } },
	{ lb_rigMixamo, { 0, 0, 1 }, { 0, 1, 0 } },
};

static void addBox(lbWorld* w, lbVec3 center, lbVec3 half, lbQuat q, uint32_t channels)
{
	lbBoxDef bd = lbDefaultBoxDef();
	bd.transform = lbMakeTransform(center, q);
	bd.halfExtents = half;
	bd.channels = channels;
	ENSURE(lbWorld_AddBox(w, &bd) >= 0);
}

// A character standing at the origin; a climbable wall `distance` ahead, leaning back from the
// character by `leanDeg` (0 vertical, 20 a 70-degree slab, -20 a 110-degree overhang).
static void fixtureInit(Fixture* f, const RigCase* rc, float distance, float leanDeg)
{
	memset(f, 0, sizeof *f);
	f->skeleton = lbCreateReferenceRig(rc->rig);
	ENSURE(lbMapHumanoid(f->skeleton, NULL, &f->humanoid) == lb_ok);
	f->anim = lbCreatePose(f->skeleton);
	f->up = rc->up;
	f->fwd = rc->fwd;
	f->left = lbCross(f->up, f->fwd);
	lbWorldDef wd = lbDefaultWorldDef();
	wd.up = f->up;
	f->world = lbCreateWorld(&wd);
	f->query = lbWorld_GetQuery(f->world);
	// The model frame stands on the origin (the rest pose's soles are near model height 0).
	f->characterWs = lbMakeTransform(lbVec3_zero, lbQuatFromTwoAxes(f->humanoid.upMs, f->up, f->humanoid.forwardMs, f->fwd));
	// Wall: a thick box whose face passes through (distance along fwd, at height 0), turned about
	// the character's left so its face leans back by leanDeg.
	lbQuat lean = lbQuatFromAxisAngle(f->left, -leanDeg * LB_DEG2RAD);
	lbVec3 n = lbQuatRotate(lean, lbNeg(f->fwd));
	f->wallN = n;
	// The face passes `distance` ahead at shoulder height, so a leaning face is as far from the
	// shoulders as a vertical one.
	f->wallPoint = lbAdd(lbMulSV(distance, f->fwd), lbMulSV(1.4f, f->up));
	lbQuat boxQ = lbQuatFromTwoAxes(lbVec3_axisX, lbNeg(n), lbVec3_axisZ, lbQuatRotate(lean, f->up));
	lbVec3 centre = lbMulAdd(f->wallPoint, -0.5f, n);
	centre = lbMulAdd(centre, 0.6f, lbQuatRotate(lean, f->up));
	addBox(f->world, centre, lbMakeVec3(0.5f, 3.0f, 3.0f), boxQ, LB_CHANNEL_CLIMBABLE | LB_CHANNEL_WALL);
	f->def = lbDefaultClimbDef();
	f->def.up = f->up;
	lbClimbState_Reset(&f->state);
}

static void fixtureFree(Fixture* f)
{
	lbDestroyPose(&f->anim);
	lbDestroyWorld(f->world);
	lbDestroySkeleton(f->skeleton);
}

static lbClimbTargets sense(Fixture* f, float dt)
{
	lbClimbSenseInput in = lbDefaultClimbSenseInput();
	in.query = &f->query;
	in.characterWs = f->characterWs;
	in.animPose = &f->anim;
	in.dt = dt;
	lbClimbTargets t;
	memset(&t, 0, sizeof t);
	ENSURE(lbClimbSense(&f->state, &f->def, f->skeleton, &f->humanoid, &in, &t) == lb_ok);
	return t;
}

static float planeDistance(const Fixture* f, lbVec3 p)
{
	return lbDot(lbSub(p, f->wallPoint), f->wallN);
}

static bool finiteTargets(const lbClimbTargets* t)
{
	bool ok = lbIsValidTransform(t->characterWs) && lbIsValidVec3(t->bodyOffsetWs);
	for (int i = 0; i < 4; ++i)
		ok = ok && lbIsValidVec3(t->limbs[i].targetWs) && lbIsValidQuat(t->limbs[i].targetRotWs) &&
			 lbIsValidVec3(t->limbs[i].guideWs) && lbIsValidFloat(t->limbs[i].ikAlpha) &&
			 lbIsValidFloat(t->limbs[i].bodyAlpha);
	return ok;
}

// Selecting a hand finds the wall in front of it; the stick moves the guide to the character's
// right and up along the wall; the target follows at no more than the follow speed.
static void test_steer_search_follow(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		for (int lean = -20; lean <= 20; lean += 20)
		{
			Fixture f;
			fixtureInit(&f, &kCases[c], 0.3f, (float)lean);
			const float dt = 1.0f / 60.0f;
			sense(&f, dt);
			ENSURE(lbClimb_Select(&f.state, lb_limbArmR) == lb_ok);
			lbClimbTargets t = sense(&f, dt);
			// Start the guide in front of the shoulder, well inside the reach.
			lbVec3 sh = t.limbs[lb_limbArmR].reachCentreWs;
			f.state.limbs[lb_limbArmR].guideWs = lbMulAdd(sh, -planeDistance(&f, sh), f.wallN);
			t = sense(&f, dt);
			ENSURE(t.limbs[lb_limbArmR].mode == lb_climbCandidate);
			ENSURE(fabsf(planeDistance(&f, t.limbs[lb_limbArmR].surfaceWs)) < 1e-3f);
			ENSURE(lbDot(t.limbs[lb_limbArmR].normalWs, f.wallN) > 0.999f);
			lbVec3 g0 = t.limbs[lb_limbArmR].guideWs;
			// Right: -left. Half a second at 0.6 m/s.
			ENSURE(lbClimb_SetStick(&f.state, 1.0f, 0.0f) == lb_ok);
			lbVec3 prevTarget = t.limbs[lb_limbArmR].targetWs;
			float maxStep = 0.0f;
			for (int i = 0; i < 30; ++i)
			{
				t = sense(&f, dt);
				maxStep = lbMaxF(maxStep, lbDistance(prevTarget, t.limbs[lb_limbArmR].targetWs));
				prevTarget = t.limbs[lb_limbArmR].targetWs;
			}
			lbVec3 g1 = t.limbs[lb_limbArmR].guideWs;
			float right = lbDot(lbSub(g1, g0), lbNeg(f.left));
			ENSURE(right > 0.1f && right < 0.3f + 1e-3f);
			ENSURE(fabsf(lbDot(lbSub(g1, g0), f.up)) < 0.02f);
			ENSURE(fabsf(planeDistance(&f, g1)) < 1e-3f);
			ENSURE(maxStep <= f.def.followSpeed * dt + 1e-4f);
			// Up along the wall (surface-up): the height grows, the guide stays on the wall.
			ENSURE(lbClimb_SetStick(&f.state, 0.0f, 1.0f) == lb_ok);
			for (int i = 0; i < 20; ++i)
				t = sense(&f, dt);
			lbVec3 g2 = t.limbs[lb_limbArmR].guideWs;
			ENSURE(lbDot(lbSub(g2, g1), f.up) > 0.1f);
			ENSURE(fabsf(planeDistance(&f, g2)) < 1e-3f);
			// The preview sits the search offset off the wall; the target converges there.
			ENSURE(lbClimb_SetStick(&f.state, 0.0f, 0.0f) == lb_ok);
			for (int i = 0; i < 60; ++i)
				t = sense(&f, dt);
			ENSURE(fabsf(planeDistance(&f, t.limbs[lb_limbArmR].targetWs) - f.def.searchOffset[0]) < 2e-3f);
			ENSURE(t.limbs[lb_limbArmR].ikAlpha > 0.9f);
			ENSURE(t.limbs[lb_limbArmL].ikAlpha == 0.0f && t.limbs[lb_limbArmL].mode == lb_climbFree);
			ENSURE(finiteTargets(&t));
			fixtureFree(&f);
		}
	}
}

// Pushing the stick outward for seconds: the guide never leaves the reach sphere and, at its
// boundary, still slides sideways when the stick turns.
static void test_reach_clamp_slides(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		Fixture f;
		fixtureInit(&f, &kCases[c], 0.45f, 0.0f);
		const float dt = 1.0f / 60.0f;
		sense(&f, dt);
		lbClimb_Select(&f.state, lb_limbArmL);
		lbClimb_SetStick(&f.state, 0.0f, 1.0f);
		lbClimbTargets t;
		float worst = 0.0f;
		for (int i = 0; i < 300; ++i)
		{
			t = sense(&f, dt);
			const lbClimbLimbTarget* l = &t.limbs[lb_limbArmL];
			worst = lbMaxF(worst, lbDistance(l->guideWs, l->reachCentreWs) - l->reach);
		}
		ENSURE(worst < 1e-4f);
		const lbClimbLimbTarget* l = &t.limbs[lb_limbArmL];
		ENSURE(l->reach <= f.def.maxReach[0] + 1e-5f);
		ENSURE(lbDistance(l->guideWs, l->reachCentreWs) > 0.97f * l->reach);
		lbVec3 atTop = l->guideWs;
		lbClimb_SetStick(&f.state, -1.0f, 0.3f);
		for (int i = 0; i < 30; ++i)
			t = sense(&f, dt);
		// Moved left along the boundary instead of sticking.
		ENSURE(lbDot(lbSub(t.limbs[lb_limbArmL].guideWs, atTop), f.left) > 0.05f);
		ENSURE(lbDistance(t.limbs[lb_limbArmL].guideWs, t.limbs[lb_limbArmL].reachCentreWs) <=
			   t.limbs[lb_limbArmL].reach + 1e-4f);
		fixtureFree(&f);
	}
}

// Confirm moves the same surface point from the search offset to the lock offset over the lock
// time without a jump, then holds it whatever the stick does; release frees the limb.
static void test_confirm_lock_release(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		Fixture f;
		fixtureInit(&f, &kCases[c], 0.45f, 0.0f);
		const float dt = 1.0f / 60.0f;
		sense(&f, dt);
		// Nothing selected or no surface yet: confirm refuses and changes nothing.
		lbClimbState before = f.state;
		ENSURE(lbClimb_Confirm(&f.state) == lb_errorInvalidArgument);
		ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
		lbClimb_Select(&f.state, lb_limbLegL);
		before = f.state;
		ENSURE(lbClimb_Confirm(&f.state) == lb_errorUnsupported);
		ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
		lbClimbTargets t = sense(&f, dt);
		ENSURE(t.limbs[lb_limbLegL].hasSurface);
		for (int i = 0; i < 60; ++i)
			t = sense(&f, dt);
		lbVec3 surface = t.limbs[lb_limbLegL].surfaceWs;
		ENSURE(lbClimb_Confirm(&f.state) == lb_ok);
		lbVec3 prev = t.limbs[lb_limbLegL].targetWs;
		float travel = fabsf(f.def.searchOffset[1] - f.def.lockOffset[1]);
		float maxStep = 0.0f;
		int lockedAt = -1;
		for (int i = 0; i < 40; ++i)
		{
			t = sense(&f, dt);
			maxStep = lbMaxF(maxStep, lbDistance(prev, t.limbs[lb_limbLegL].targetWs));
			prev = t.limbs[lb_limbLegL].targetWs;
			if (lockedAt < 0 && t.limbs[lb_limbLegL].mode == lb_climbLocked)
				lockedAt = i;
		}
		// Smoothstep over lockTime: the largest step is 1.5 x the mean step.
		float frames = f.def.lockTime / dt;
		ENSURE(maxStep <= 1.6f * travel / frames + 1e-4f);
		ENSURE(lockedAt >= (int)frames - 2 && lockedAt <= (int)frames + 1);
		lbVec3 lock = lbMulAdd(surface, f.def.lockOffset[1], f.wallN);
		ENSURE(lbDistance(t.limbs[lb_limbLegL].targetWs, lock) < 1e-5f);
		ENSURE(t.limbs[lb_limbLegL].locked);
		// Held: the stick and a new selection change nothing.
		lbClimb_Select(&f.state, lb_limbLegL);
		lbClimb_SetStick(&f.state, 1.0f, 1.0f);
		for (int i = 0; i < 30; ++i)
			t = sense(&f, dt);
		ENSURE(lbDistance(t.limbs[lb_limbLegL].targetWs, lock) < 1e-5f);
		ENSURE(t.limbs[lb_limbLegL].bodyAlpha > 0.9f);
		ENSURE(lbClimb_Release(&f.state, lb_limbLegL) == lb_ok);
		t = sense(&f, dt);
		ENSURE(t.limbs[lb_limbLegL].mode == lb_climbFree);
		for (int i = 0; i < 60; ++i)
			t = sense(&f, dt);
		ENSURE(t.limbs[lb_limbLegL].ikAlpha < 0.01f);
		ENSURE(lbClimb_Release(&f.state, 7) == lb_errorInvalidArgument);
		fixtureFree(&f);
	}
}

// Sparse holds: the search sees only the climbable channel; moving the guide off a hold keeps
// the last candidate.
static void test_miss_keeps_candidate(void)
{
	const RigCase* rc = &kCases[0];
	Fixture f;
	fixtureInit(&f, rc, 0.45f, 0.0f);
	// Replace the world: a non-climbable wall and one hold in front of the right hand.
	lbDestroyWorld(f.world);
	lbWorldDef wd = lbDefaultWorldDef();
	wd.up = f.up;
	f.world = lbCreateWorld(&wd);
	f.query = lbWorld_GetQuery(f.world);
	addBox(f.world, lbMakeVec3(0.95f, 0.0f, 2.0f), lbMakeVec3(0.5f, 3.0f, 3.0f), lbQuat_identity, LB_CHANNEL_WALL);
	const float dt = 1.0f / 60.0f;
	sense(&f, dt);
	lbClimb_Select(&f.state, lb_limbArmR);
	lbClimbTargets t = sense(&f, dt);
	ENSURE(t.limbs[lb_limbArmR].mode == lb_climbSearching && !t.limbs[lb_limbArmR].hasSurface);
	lbVec3 sh = t.limbs[lb_limbArmR].reachCentreWs;
	lbVec3 guide = lbMakeVec3(0.39f, sh.y, sh.z - 0.1f);
	f.state.limbs[lb_limbArmR].guideWs = guide;
	addBox(f.world, lbMakeVec3(0.42f, guide.y, guide.z), lbMakeVec3(0.03f, 0.05f, 0.05f), lbQuat_identity,
		   LB_CHANNEL_CLIMBABLE);
	t = sense(&f, dt);
	ENSURE(t.limbs[lb_limbArmR].mode == lb_climbCandidate);
	ENSURE(fabsf(t.limbs[lb_limbArmR].surfaceWs.x - 0.39f) < 1e-3f);
	lbVec3 hold = t.limbs[lb_limbArmR].surfaceWs;
	lbClimb_SetStick(&f.state, 1.0f, 0.0f);
	for (int i = 0; i < 30; ++i)
		t = sense(&f, dt);
	ENSURE(lbDistance(t.limbs[lb_limbArmR].surfaceWs, hold) < 0.09f);
	ENSURE(t.limbs[lb_limbArmR].mode == lb_climbCandidate);
	fixtureFree(&f);
}

// Steering up a face past its top edge finds the top (the search looks over the edge), and on a
// surface facing up the stick's up moves along the character's forward.
static void test_ledge_top_axes(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		Fixture f;
		fixtureInit(&f, &kCases[c], 0.45f, 0.0f);
		lbDestroyWorld(f.world);
		lbWorldDef wd = lbDefaultWorldDef();
		wd.up = f.up;
		f.world = lbCreateWorld(&wd);
		f.query = lbWorld_GetQuery(f.world);
		// A block whose top is at 1.4 m, its face 0.3 m ahead.
		lbVec3 centre = lbAdd(lbMulSV(1.3f, f.fwd), lbMulSV(0.7f, f.up));
		lbQuat q = lbQuatFromTwoAxes(lbVec3_axisX, f.fwd, lbVec3_axisZ, f.up);
		addBox(f.world, centre, lbMakeVec3(1.0f, 2.0f, 0.7f), q, LB_CHANNEL_CLIMBABLE);
		const float dt = 1.0f / 60.0f;
		sense(&f, dt);
		lbClimb_Select(&f.state, lb_limbArmL);
		lbClimbTargets t = sense(&f, dt);
		f.state.limbs[lb_limbArmL].guideWs = lbAdd(lbMulSV(0.3f, f.fwd), lbMulSV(1.25f, f.up));
		t = sense(&f, dt);
		ENSURE(t.limbs[lb_limbArmL].hasSurface);
		ENSURE(lbDot(t.limbs[lb_limbArmL].normalWs, lbNeg(f.fwd)) > 0.999f);
		lbClimb_SetStick(&f.state, 0.0f, 1.0f);
		bool onTop = false;
		for (int i = 0; i < 40 && !onTop; ++i)
		{
			t = sense(&f, dt);
			onTop = lbDot(t.limbs[lb_limbArmL].normalWs, f.up) > 0.999f;
		}
		ENSURE(onTop);
		ENSURE(fabsf(lbDot(t.limbs[lb_limbArmL].surfaceWs, f.up) - 1.4f) < 1e-3f);
		lbVec3 g0 = t.limbs[lb_limbArmL].guideWs;
		for (int i = 0; i < 10; ++i)
			t = sense(&f, dt);
		lbVec3 d = lbSub(t.limbs[lb_limbArmL].guideWs, g0);
		ENSURE(lbDot(d, f.fwd) > 0.03f);
		ENSURE(fabsf(lbDot(d, f.up)) < 1e-3f);
		ENSURE(finiteTargets(&t));
		fixtureFree(&f);
	}
}

// A body too close to the wall is pushed out along the normal; one inside the wall gets a
// bounded, finite push; an inside corner pushes off both walls.
static void test_body_clearance(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		Fixture f;
		// The pelvis a few centimetres from the wall face.
		fixtureInit(&f, &kCases[c], 0.08f, 0.0f);
		const float dt = 1.0f / 60.0f;
		lbClimbTargets t;
		for (int i = 0; i < 120; ++i)
			t = sense(&f, dt);
		float push = lbDot(t.bodyOffsetWs, f.wallN);
		ENSURE(push > 0.05f);
		ENSURE(lbLength(lbProjectOnPlane(t.bodyOffsetWs, f.wallN)) < 1e-3f);
		ENSURE(t.probePush[0] > 0.0f || t.probePush[1] > 0.0f);
		fixtureFree(&f);
		// Deep inside the wall: still finite and bounded by the sweep plus the overlap.
		fixtureInit(&f, &kCases[c], -0.3f, 0.0f);
		for (int i = 0; i < 120; ++i)
			t = sense(&f, dt);
		ENSURE(finiteTargets(&t));
		ENSURE(lbDot(t.bodyOffsetWs, f.wallN) > 0.2f && lbLength(t.bodyOffsetWs) < 3.0f);
		// Inside corner: a second wall on the character's left, held by the left hand.
		fixtureFree(&f);
		fixtureInit(&f, &kCases[c], 0.3f, 0.0f);
		lbQuat q = lbQuatFromTwoAxes(lbVec3_axisX, f.left, lbVec3_axisZ, f.up);
		addBox(f.world, lbAdd(lbMulSV(0.6f, f.left), lbMulSV(2.0f, f.up)), lbMakeVec3(0.5f, 3.0f, 3.0f), q,
			   LB_CHANNEL_CLIMBABLE);
		sense(&f, dt);
		lbClimb_Select(&f.state, lb_limbArmL);
		f.state.limbs[lb_limbArmL].normalWs = lbNeg(f.left);
		f.state.limbs[lb_limbArmL].hasSurface = true;
		f.state.limbs[lb_limbArmL].surfaceWs = lbAdd(lbMulSV(0.1f, f.left), lbMulSV(1.5f, f.up));
		f.state.limbs[lb_limbArmL].lockTimer = 0.0f;
		f.state.limbs[lb_limbArmL].guideWs = f.state.limbs[lb_limbArmL].surfaceWs;
		for (int i = 0; i < 120; ++i)
			t = sense(&f, dt);
		ENSURE(lbDot(t.bodyOffsetWs, lbNeg(f.left)) > 0.02f);
		ENSURE(lbDot(t.bodyOffsetWs, f.wallN) > 0.0f);
		fixtureFree(&f);
	}
}

// A long frame is split into steps: one 0.3 s frame ends where ten 0.03 s frames end.
static void test_long_frame_split(void)
{
	Fixture a, b;
	fixtureInit(&a, &kCases[0], 0.45f, 0.0f);
	fixtureInit(&b, &kCases[0], 0.45f, 0.0f);
	sense(&a, 0.03f);
	sense(&b, 0.03f);
	lbClimb_Select(&a.state, lb_limbArmR);
	lbClimb_Select(&b.state, lb_limbArmR);
	lbClimb_SetStick(&a.state, 0.5f, 0.5f);
	lbClimb_SetStick(&b.state, 0.5f, 0.5f);
	lbClimbTargets ta = sense(&a, 0.3f), tb;
	for (int i = 0; i < 10; ++i)
		tb = sense(&b, 0.03f);
	ENSURE(lbDistance(ta.limbs[lb_limbArmR].guideWs, tb.limbs[lb_limbArmR].guideWs) < 1e-3f);
	ENSURE(lbDistance(ta.limbs[lb_limbArmR].targetWs, tb.limbs[lb_limbArmR].targetWs) < 1e-3f);
	fixtureFree(&a);
	fixtureFree(&b);
}

// Bad input: an error, and nothing changes.
static void test_bad_input(void)
{
	Fixture f;
	fixtureInit(&f, &kCases[0], 0.45f, 0.0f);
	sense(&f, 1.0f / 60.0f);
	lbClimb_Select(&f.state, lb_limbArmR);
	sense(&f, 1.0f / 60.0f);
	lbClimbState before = f.state;
	lbClimbTargets t;
	memset(&t, 0, sizeof t);
	lbClimbSenseInput in = lbDefaultClimbSenseInput();
	in.query = &f.query;
	in.characterWs = f.characterWs;
	in.animPose = &f.anim;
	in.dt = 1.0f / 60.0f;
	ENSURE(lbClimbSense(NULL, &f.def, f.skeleton, &f.humanoid, &in, &t) == lb_errorNullPointer);
	ENSURE(lbClimbSense(&f.state, &f.def, f.skeleton, &f.humanoid, NULL, &t) == lb_errorNullPointer);
	lbClimbSenseInput noQuery = in;
	noQuery.query = NULL;
	ENSURE(lbClimbSense(&f.state, &f.def, f.skeleton, &f.humanoid, &noQuery, &t) == lb_errorNullPointer);
	lbClimbDef raw;
	memset(&raw, 0, sizeof raw);
	ENSURE(lbClimbSense(&f.state, &raw, f.skeleton, &f.humanoid, &in, &t) == lb_errorDefNotInitialized);
	lbClimbSenseInput nan = in;
	nan.characterWs.p.x = NAN;
	ENSURE(lbClimbSense(&f.state, &f.def, f.skeleton, &f.humanoid, &nan, &t) == lb_errorNonFinite);
	lbClimbSenseInput nanDt = in;
	nanDt.dt = INFINITY;
	ENSURE(lbClimbSense(&f.state, &f.def, f.skeleton, &f.humanoid, &nanDt, &t) == lb_errorNonFinite);
	// A scaled model frame (a rig in centimetres under 0.01, a character at 0.8 of its size) is
	// refused: the system measures the rig in metres. Rounding within 1e-3 of 1 is taken.
	const float scales[3] = { 0.01f, 0.8f, 1.002f };
	for (int k = 0; k < 3; ++k)
	{
		lbClimbSenseInput scaled = in;
		scaled.characterWs.s = lbMakeVec3(scales[k], scales[k], scales[k]);
		ENSURE(lbClimbSense(&f.state, &f.def, f.skeleton, &f.humanoid, &scaled, &t) == lb_errorInvalidArgument);
		scaled.characterWs.s = lbMakeVec3(1.0f, 1.0f, scales[k]);
		ENSURE(lbClimbSense(&f.state, &f.def, f.skeleton, &f.humanoid, &scaled, &t) == lb_errorInvalidArgument);
	}
	ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
	{
		lbClimbState near = f.state;
		lbClimbTargets nt;
		lbClimbSenseInput rounded = in;
		rounded.characterWs.s = lbMakeVec3(0.9995f, 1.0f, 1.0004f);
		ENSURE(lbClimbSense(&near, &f.def, f.skeleton, &f.humanoid, &rounded, &nt) == lb_ok);
	}
	lbPose shortPose = f.anim;
	shortPose.boneCount -= 1;
	lbClimbSenseInput mismatch = in;
	mismatch.animPose = &shortPose;
	ENSURE(lbClimbSense(&f.state, &f.def, f.skeleton, &f.humanoid, &mismatch, &t) == lb_errorSkeletonMismatch);
	// A non-finite animated pose is refused; a non-finite last pose is replaced by the animated one.
	lbPose broken = lbCreatePose(f.skeleton);
	lbPose_Copy(&broken, &f.anim);
	broken.model[f.humanoid.arm[1].hand].p.y = NAN;
	lbClimbSenseInput badAnim = in;
	badAnim.animPose = &broken;
	ENSURE(lbClimbSense(&f.state, &f.def, f.skeleton, &f.humanoid, &badAnim, &t) == lb_errorNonFinite);
	ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
	// Any one of the ten values of any bone read (first, middle and last of the list), a rotation
	// off unit or a vanishing scale is refused as well.
	const int probe[3] = { f.humanoid.pelvis, f.humanoid.arm[0].hand, f.humanoid.leg[1].foot };
	for (int b = 0; b < 3; ++b)
	{
		for (int j = 0; j < 12; ++j)
		{
			lbPose_Copy(&broken, &f.anim);
			float* v = &broken.model[probe[b]].p.x;
			if (j < 10)
				v[j] = (j % 2) ? INFINITY : NAN;
			else if (j == 10)
				broken.model[probe[b]].q = lbMakeQuat(0.0f, 0.0f, 0.0f, 1.05f);
			else
				broken.model[probe[b]].s.z = 0.0f;
			ENSURE(lbClimbSense(&f.state, &f.def, f.skeleton, &f.humanoid, &badAnim, &t) == lb_errorNonFinite);
		}
	}
	lbPose_Copy(&broken, &f.anim);
	broken.model[f.humanoid.arm[1].hand].p.y = NAN;
	ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
	lbClimbState keep = f.state;
	lbClimbSenseInput badLast = in;
	badLast.lastPose = &broken;
	ENSURE(lbClimbSense(&f.state, &f.def, f.skeleton, &f.humanoid, &badLast, &t) == lb_ok);
	ENSURE(finiteTargets(&t));
	f.state = keep;
	lbDestroyPose(&broken);
	ENSURE(lbClimb_Select(&f.state, -1) == lb_errorInvalidArgument);
	ENSURE(lbClimb_Select(&f.state, 4) == lb_errorInvalidArgument);
	ENSURE(lbClimb_SetStick(&f.state, NAN, 0.0f) == lb_errorNonFinite);
	ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
	ENSURE(lbClimb_Select(NULL, 0) == lb_errorNullPointer);
	// A stick beyond the unit disc is clamped onto it.
	ENSURE(lbClimb_SetStick(&f.state, 3.0f, 4.0f) == lb_ok);
	ENSURE(fabsf(f.state.stickX - 0.6f) < 1e-6f && fabsf(f.state.stickY - 0.8f) < 1e-6f);
	// dt 0 keeps everything but still writes targets.
	lbClimbState held = f.state;
	lbClimbSenseInput zero = in;
	zero.dt = 0.0f;
	ENSURE(lbClimbSense(&f.state, &f.def, f.skeleton, &f.humanoid, &zero, &t) == lb_ok);
	ENSURE(lbDistance(held.limbs[lb_limbArmR].guideWs, f.state.limbs[lb_limbArmR].guideWs) < 1e-6f);
	ENSURE(finiteTargets(&t));
	fixtureFree(&f);
}

// Fixed-seed random steering over a random wall: no output is ever non-finite and the guide is
// always within reach.
static void test_random_steering_property(void)
{
	uint32_t seed = 12345u;
	for (int run = 0; run < 24; ++run)
	{
		Fixture f;
		seed = seed * 1664525u + 1013904223u;
		float lean = (float)((int)(seed >> 16) % 50 - 25);
		fixtureInit(&f, &kCases[run % 3], 0.3f + 0.01f * (float)(run % 20), lean);
		const float dt = 1.0f / 60.0f;
		bool ok = true;
		float worst = 0.0f;
		for (int i = 0; i < 240; ++i)
		{
			seed = seed * 1664525u + 1013904223u;
			if (i % 40 == 0)
				lbClimb_Select(&f.state, (int)((seed >> 8) % 4));
			if (i % 40 == 35)
				lbClimb_Confirm(&f.state);
			if (i % 90 == 89)
				lbClimb_Release(&f.state, (int)((seed >> 4) % 4));
			float x = (float)((seed >> 8) & 255) / 127.5f - 1.0f, y = (float)((seed >> 16) & 255) / 127.5f - 1.0f;
			lbClimb_SetStick(&f.state, x, y);
			lbClimbTargets t = sense(&f, dt);
			ok = ok && finiteTargets(&t);
			for (int l = 0; l < 4; ++l)
				if (t.limbs[l].mode == lb_climbSearching || t.limbs[l].mode == lb_climbCandidate)
					worst = lbMaxF(worst, lbDistance(t.limbs[l].guideWs, t.limbs[l].reachCentreWs) - t.limbs[l].reach);
		}
		ENSURE(ok);
		ENSURE(worst < 1e-3f);
		fixtureFree(&f);
	}
}

// A wall out of reach: every search misses, and each searching limb says how far the wall lies
// beyond its reach, measured square to the wall (checked against the plane's distance from the
// limb's reach centre, on a vertical wall and on a leaning one). The body stands: the last free
// foot may not be lifted, nor the last hold let go with both feet off the ground, until a limb
// holds; the stand weight is 1 while nothing holds and fades once a limb does.
static void test_out_of_reach_stands(void)
{
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
		for (int lean = 0; lean < 2; ++lean)
		{
			Fixture f;
			fixtureInit(&f, &kCases[c], 1.6f, lean ? -6.0f : 0.0f);
			const float dt = 1.0f / 60.0f;
			lbClimbTargets t = sense(&f, dt);
			ENSURE(t.standWeight > 0.999f);
			for (int i = 0; i < 4; ++i)
				ENSURE(t.limbs[i].beyondReach == 0.0f); // nothing searches
			ENSURE(lbClimb_Select(&f.state, lb_limbArmR) == lb_ok);
			ENSURE(lbClimb_Select(&f.state, lb_limbArmL) == lb_ok);
			ENSURE(lbClimb_Select(&f.state, lb_limbLegR) == lb_ok);
			// The other foot is the body's last footing.
			lbClimbState before = f.state;
			ENSURE(lbClimb_Select(&f.state, lb_limbLegL) == lb_errorUnsupported);
			ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
			lbClimb_SetStick(&f.state, 0.0f, 1.0f);
			for (int k = 0; k < 30; ++k)
				t = sense(&f, dt);
			for (int i = 0; i < 3; ++i)
			{
				const lbClimbLimbTarget* l = &t.limbs[i == 2 ? lb_limbLegR : i];
				ENSURE(l->mode == lb_climbSearching && !l->hasSurface);
				const float expect = lbDot(lbSub(l->reachCentreWs, f.wallPoint), f.wallN) - l->reach;
				ENSURE(expect > 0.3f);
				ENSURE(fabsf(l->beyondReach - expect) < 2e-3f);
			}
			ENSURE(t.limbs[lb_limbLegL].beyondReach == 0.0f && t.limbs[lb_limbLegL].mode == lb_climbFree);
			ENSURE(lbClimb_Confirm(&f.state) == lb_errorUnsupported);
			ENSURE(t.standWeight > 0.999f);
			fixtureFree(&f);
		}
	// Within reach: a hand holds, then both feet may leave the floor; the hand, the last hold with
	// both feet off it, stays until a foot is let go.
	for (size_t c = 0; c < sizeof kCases / sizeof kCases[0]; ++c)
	{
		Fixture f;
		fixtureInit(&f, &kCases[c], 0.45f, 0.0f);
		const float dt = 1.0f / 60.0f;
		lbClimbTargets t = sense(&f, dt);
		lbClimb_Select(&f.state, lb_limbArmR);
		for (int k = 0; k < 30; ++k)
			t = sense(&f, dt);
		ENSURE(t.limbs[lb_limbArmR].hasSurface && t.limbs[lb_limbArmR].beyondReach == 0.0f);
		ENSURE(lbClimb_Confirm(&f.state) == lb_ok);
		float prevStand = t.standWeight;
		for (int k = 0; k < 60; ++k)
		{
			t = sense(&f, dt);
			ENSURE(t.standWeight <= prevStand + 1e-6f); // fades, never jumps back
			prevStand = t.standWeight;
		}
		ENSURE(t.standWeight < 1e-3f);
		ENSURE(lbClimb_Select(&f.state, lb_limbLegR) == lb_ok);
		ENSURE(lbClimb_Select(&f.state, lb_limbLegL) == lb_ok);
		lbClimbState before = f.state;
		ENSURE(lbClimb_Release(&f.state, lb_limbArmR) == lb_errorUnsupported);
		ENSURE(memcmp(&before, &f.state, sizeof before) == 0);
		ENSURE(lbClimb_Release(&f.state, lb_limbLegL) == lb_ok);
		ENSURE(lbClimb_Release(&f.state, lb_limbArmR) == lb_ok);
		for (int k = 0; k < 60; ++k)
			t = sense(&f, dt);
		ENSURE(t.standWeight > 0.999f);
		fixtureFree(&f);
	}
}

int main(int argc, char** argv)
{
	TEST_MAIN_BEGIN(argc, argv);
	RUN_TEST(test_steer_search_follow);
	RUN_TEST(test_reach_clamp_slides);
	RUN_TEST(test_confirm_lock_release);
	RUN_TEST(test_miss_keeps_candidate);
	RUN_TEST(test_ledge_top_axes);
	RUN_TEST(test_body_clearance);
	RUN_TEST(test_long_frame_split);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_random_steering_property);
	RUN_TEST(test_out_of_reach_stands);
	TEST_MAIN_END();
}
