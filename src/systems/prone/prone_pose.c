// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// Pose stage of the prone system (model space, stateless): seed 002's rotations as capped deltas
// (roll on the root, upper-body pitch on the first spine bone, lower-body pitch on the thighs), then
// what the seed left out: the body lowered or raised until the torso rests on the ground, held
// contacts of hands and feet, and knees and elbows lifted, ankles, toes and wrists bent, out of the
// ground instead of sinking into it.
#include "prone_internal.h"

#include "core/bits.h"
#include "core/frame_internal.h"
#include "ik/ik_internal.h"
#include "limber/ik.h"

#include <stddef.h>
#include <string.h>

// How far (m) the segment a-b comes nearer than `reach` to the contact point c of a probe's sphere
// (normal n, pointing out of the ground), and the parameter of its nearest point along a-b. A point
// of the segment on the ground's side of c counts its distance as depth. 0 when clear.
static float lbProneSegmentDepth(lbVec3 a, lbVec3 b, lbVec3 c, lbVec3 n, float reach, float* outT)
{
	const lbVec3 ab = lbSub(b, a);
	const float len2 = lbLengthSquared(ab);
	const float t = len2 > 1.0e-8f ? lbClampF(lbDot(lbSub(c, a), ab) / len2, 0.0f, 1.0f) : 0.0f;
	const lbVec3 d = lbSub(lbMulAdd(a, t, ab), c);
	const float dist = lbLength(d);
	*outT = t;
	return lbMaxF(reach - (lbDot(d, n) >= 0.0f ? dist : -dist), 0.0f);
}

// Least cosine between up and a contact's normal for the translation fit to take the contact's plane
// for the ground under the torso (53 degrees).
#define LB_PRONE_GROUND_COS 0.6f
// A rise (m) between two neighbouring probes' planes past which a step's edge may lie between them
// (the sense stage's for the thighs' and forearms' probes).
#define LB_PRONE_EDGE_RISE 0.015f
// Two probes' planes within 5 degrees of each other (cos) are the two levels of a step.
#define LB_PRONE_STEP_COS 0.9962f

// A probed ground plane in model space.
typedef struct lbPronePlane
{
	lbVec3 point, normal;
	bool hit;
} lbPronePlane;

// Gap (m) between a segment's surface and the ground: the segment's point above the plane through
// the sphere centre at contact, along the normal, less the clearance. Negative = sinking.
static float lbProneGap(const lbPronePlane* plane, lbVec3 p, float clearance)
{
	return lbDot(lbSub(p, plane->point), plane->normal) - clearance;
}

// lbProneSegmentDepth against a segment probe's contact: the sphere's centre (the plane's point) less
// the segment's radius along the normal, kept a radius and the clearance from the segment a-b.
static inline float lbProneSegmentProbeDepth(const lbPronePlane* plane, float radius, lbVec3 a, lbVec3 b, float clearance,
											 float* outT)
{
	const lbVec3 c = lbMulAdd(plane->point, -radius, plane->normal);
	return lbProneSegmentDepth(a, b, c, plane->normal, radius + clearance, outT);
}

// A probed ground plane in model space. The ground's normal is unit (lbProneGround) and the turn
// into model space keeps its length (within the character rotation's own, which the checks hold
// within 1 % of one, as they hold the points' distances), so it is not normalised again (about
// 20 instructions a plane).
static inline void lbPronePlaneOf(lbPronePlane* out, const lbProneGround* g, const lbProneToModel* toModel)
{
	out->hit = g->hit;
	// The point is followed by the normal, the normal by the radius (a fourth lane not mixed in).
	out->point = lbProneToModelPointIn(toModel, &g->pointWs.x);
	out->normal = lbProneToModelDirectionIn(toModel, &g->normalWs.x);
}

#if LB_IK_SSE2
// lbPronePlaneOf's point and normal for four probes p[0..3] at once, one a lane, with its bits
// (the same products and sums as the one-probe path). Written whether hit or not: a plane not hit
// is never read. Two of these cost about what three single planes did.
static inline void lbPronePlanes4(lbPronePlane* planes, const lbProneGround* grounds, const int* p, const lbProneToModel* m)
{
	__m128 px, py, pz, nx, ny, nz, hit;
	lbProneGround4(grounds, p, &px, &py, &pz, &nx, &ny, &nz, &hit);
	(void)hit;
	const __m128 ux = _mm_shuffle_ps(m->conj, m->conj, _MM_SHUFFLE(0, 0, 0, 0));
	const __m128 uy = _mm_shuffle_ps(m->conj, m->conj, _MM_SHUFFLE(1, 1, 1, 1));
	const __m128 uz = _mm_shuffle_ps(m->conj, m->conj, _MM_SHUFFLE(2, 2, 2, 2));
	const __m128 w = _mm_shuffle_ps(m->conj, m->conj, _MM_SHUFFLE(3, 3, 3, 3));
	// Point: inv (conj (p - cw.p)).
	px = _mm_sub_ps(px, _mm_shuffle_ps(m->p, m->p, _MM_SHUFFLE(0, 0, 0, 0)));
	py = _mm_sub_ps(py, _mm_shuffle_ps(m->p, m->p, _MM_SHUFFLE(1, 1, 1, 1)));
	pz = _mm_sub_ps(pz, _mm_shuffle_ps(m->p, m->p, _MM_SHUFFLE(2, 2, 2, 2)));
	lbProneRotate4(ux, uy, uz, w, &px, &py, &pz);
	px = _mm_mul_ps(_mm_shuffle_ps(m->inv, m->inv, _MM_SHUFFLE(0, 0, 0, 0)), px);
	py = _mm_mul_ps(_mm_shuffle_ps(m->inv, m->inv, _MM_SHUFFLE(1, 1, 1, 1)), py);
	pz = _mm_mul_ps(_mm_shuffle_ps(m->inv, m->inv, _MM_SHUFFLE(2, 2, 2, 2)), pz);
	// Normal: conj n (unit already, lbPronePlaneOf).
	lbProneRotate4(ux, uy, uz, w, &nx, &ny, &nz);
	// Back to one probe a vector: point and the normal's x, then the normal's y and z.
	_MM_TRANSPOSE4_PS(px, py, pz, nx);
	const __m128 yz01 = _mm_unpacklo_ps(ny, nz), yz23 = _mm_unpackhi_ps(ny, nz);
	const __m128 rows[4] = { px, py, pz, nx };
	for (int i = 0; i < 4; ++i)
	{
		lbPronePlane* out = &planes[p[i]];
		_mm_storeu_ps(&out->point.x, rows[i]);
		const __m128 yz = i < 2 ? yz01 : yz23;
		_mm_storel_pi((__m64*)&out->normal.y, (i & 1) ? _mm_movehl_ps(yz, yz) : yz);
	}
}
#endif

_Static_assert(offsetof(lbProneGround, normalWs) == offsetof(lbProneGround, pointWs) + 3 * sizeof(float),
			   "a ground's point and normal are six floats in a row");
_Static_assert(offsetof(lbProneLimbTarget, normalWs) == offsetof(lbProneLimbTarget, endWs) + 3 * sizeof(float) &&
				   offsetof(lbProneLimbTarget, alpha) == offsetof(lbProneLimbTarget, endWs) + 6 * sizeof(float),
			   "a limb target's end, normal and alpha are seven floats in a row");

// The targets' floats the fit reads are finite: the character transform checked in full, the rest
// summed in lanes (lbProneFiniteAdd), a ground's point and normal only where it was hit.
static bool lbProneTargetsFinite(const lbProneTargets* t)
{
	if (!lbIkValidTransformExact(&t->characterWs))
		return false;
	lbProneFiniteSum sum = lbProneFiniteStart();
	_Static_assert(offsetof(lbProneTargets, alpha) == offsetof(lbProneTargets, upWs) + 3 * sizeof(float) &&
					   offsetof(lbProneTargets, roll) == offsetof(lbProneTargets, upWs) + 4 * sizeof(float) &&
					   offsetof(lbProneTargets, upperPitch) == offsetof(lbProneTargets, upWs) + 5 * sizeof(float) &&
					   offsetof(lbProneTargets, lowerPitch) == offsetof(lbProneTargets, upWs) + 6 * sizeof(float),
				   "up, alpha, roll and the two pitches are eight floats in a row");
	sum = lbProneFiniteAddRun(sum, &t->upWs.x, 8);
	// A ground not hit is left out by a branch rather than added masked to zero: the verdict is the
	// same (a +0 added changes no sum's finiteness) at fewer instructions a ground.
	for (int k = 0; k < lb_proneProbeCount; ++k)
		if (t->ground[k].hit)
			sum = lbProneFiniteAddRun(sum, &t->ground[k].pointWs.x, 6);
	// A limb's end, normal and alpha follow one another (asserted below).
	for (int k = 0; k < LB_PRONE_LIMBS; ++k)
		sum = lbProneFiniteAddRun(sum, &t->limbs[k].endWs.x, 7);
	if (t->onFlight)
	{
		_Static_assert(offsetof(lbProneTargets, flightStepWs) == offsetof(lbProneTargets, flightNoseWs) + 3 * sizeof(float),
					   "the flight's nose and step are six floats in a row");
		sum = lbProneFiniteAddRun(sum, &t->flightNoseWs.x, 6);
	}
	return lbProneFiniteEnd(sum);
}

// A bone's model transform from its parent's and its own local one: lbTransformMul's bits, in four
// lanes where the parent's scale is one.
static inline void lbProneCompose(lbPose* pose, const int* parents, int bone)
{
	const int p = parents[bone];
	if (p == LB_NULL_INDEX)
		pose->model[bone] = pose->local[bone];
	else
		lbIkTransformMulTo(&pose->model[bone], &pose->model[p], &pose->local[bone]);
}

// lbPose_UpdateSubtree's result bit for bit (the same products of the same transforms), at a
// fraction of its cost: no pass over the bones before the subtree ends, four-lane products. While
// every bone from `bone` on belongs to the subtree, the next one does exactly when its parent is not
// above `bone`; past the first that does not, one byte per bone marks the subtree.
static void lbProneUpdateSubtree(lbPose* pose, const lbSkeleton* skeleton, int bone)
{
	const int* parents = skeleton->parents;
	const int n = pose->boneCount;
	lbProneCompose(pose, parents, bone);
	int i = bone + 1;
	for (; i < n && parents[i] >= bone; ++i)
		lbProneCompose(pose, parents, i);
	if (i >= n)
		return;
	uint8_t inSubtree[LB_MAX_BONES];
	memset(inSubtree, 1, (size_t)(i - bone));
	for (; i < n; ++i)
	{
		const int q = parents[i] - bone; // negative above `bone`
		const uint8_t m = (uint8_t)(q >= 0 && inSubtree[q]);
		inSubtree[i - bone] = m;
		if (m)
			lbProneCompose(pose, parents, i);
	}
}

// The bones under the roll bone that the fit neither reads nor turns (head, twist bones, fingers,
// toes: all but the paths from the pelvis, the top of the torso and each hand and foot up to the
// roll bone), composed once when the fit is done instead of at the body's turn and again at each
// limb's. Each is composed last from its parent's last transform and its own unchanged local, so
// its bits are those of the passes it stands for. Used only where each limb root's subtree holds no
// bone the fit reads but its own chain (a limb turned later would move it): the plan's deferSafe.
// The bones are the plan's deferBits.
typedef struct lbProneDeferred
{
	const lbProneRigPlan* plan;
	bool on;
} lbProneDeferred;

// Marks in `core` (the low LB_PRONE_READ_BITS bits non-zero) the bones on the paths from the bones
// the fit reads (pelvis, top, each limb's mid and end joints) up to the root: one pass from the last
// bone to the first, each bone's mask (one bit a read bone) or-ed into its parent's. The three bones
// the body's pass turns (`turned`: the first spine bone and the thighs) get a bit each above those
// (LB_PRONE_TURNED_BIT), so that a bone's mask also tells which of them lie in its subtree (itself
// included). False when a limb root's subtree holds any read bone but its own mid and end joints, or
// not both (deferring is not safe then).
_Static_assert(LB_PRONE_LIMBS <= 4, "lbProneCoreOf's masks hold two bits a limb after two, then three turned bones");
#define LB_PRONE_READ_BITS 0x3FFu
#define LB_PRONE_TURNED_BIT(i) ((uint16_t)(0x400u << (i)))
// `core` has a slot before bone 0 (core[-1]) that takes a root bone's or-ing: the pass needs no test
// of the parent.
static bool lbProneCoreOf(const lbSkeleton* skeleton, const lbHumanoid* h, int top, const int turned[3], uint16_t* core)
{
	const int* parents = skeleton->parents;
	const int n = skeleton->boneCount;
	memset(core - 1, 0, sizeof(uint16_t) * (size_t)(n + 1));
	if (h->pelvis >= 0)
		core[h->pelvis] |= 1u;
	if (top >= 0)
		core[top] |= 2u;
	int roots[LB_PRONE_LIMBS];
	for (int k = 0; k < LB_PRONE_LIMBS; ++k)
	{
		int mid, end;
		lbProneLimbBones(h, k, &roots[k], &mid, &end);
		if (mid >= 0)
			core[mid] |= (uint16_t)(4u << (2 * k));
		if (end >= 0)
			core[end] |= (uint16_t)(8u << (2 * k));
	}
	for (int i = 0; i < 3; ++i)
		if (turned[i] >= 0)
			core[turned[i]] |= LB_PRONE_TURNED_BIT(i);
	_Static_assert(LB_NULL_INDEX == -1, "a root bone's parent is the slot before bone 0");
	for (int i = n - 1; i > 0; --i)
		core[parents[i]] |= core[i];
	bool safe = true;
	for (int k = 0; k < LB_PRONE_LIMBS; ++k)
		safe = safe && (roots[k] < 0 || (core[roots[k]] & LB_PRONE_READ_BITS) == (uint16_t)(12u << (2 * k)));
	return safe;
}

// Composes the bones of a plan's bit set (readBits or deferBits) in index order, parents first.
// Every one lies below the roll bone, so has a parent: no test for a root. The pose's arrays are
// held in locals (the vector stores may alias anything, so pose->model and pose->local were read
// again for every bone otherwise).
static void lbProneComposeBits(lbPose* pose, const int* parents, const lbProneRigPlan* plan, const uint32_t* bits)
{
	if (plan->subtreeEnd <= plan->rollBone + 1)
		return;
	lbTransform* const model = pose->model;
	const lbTransform* const local = pose->local;
	const int last = (plan->subtreeEnd - 1) >> 5;
	for (int w = (plan->rollBone + 1) >> 5; w <= last; ++w)
		for (uint32_t m = bits[w]; m; m &= m - 1u)
		{
			const int b = (w << 5) + lbLowestBit(m);
			lbIkTransformMulTo(&model[b], &model[parents[b]], &local[b]);
		}
}

// The model transforms of the roll bone's subtree from the locals: the roll bone and the bones the
// fit reads now (lbProneUpdateSubtree's bits for them: the same products in the same order), the
// others (the plan's deferBits) left to lbProneDeferredDone. The plan's bits replace a pass over the
// bones that marked the subtree every frame.
static void lbProneUpdateCore(lbPose* pose, const lbSkeleton* skeleton, const lbProneRigPlan* plan)
{
	lbProneCompose(pose, skeleton->parents, plan->rollBone);
	lbProneComposeBits(pose, skeleton->parents, plan, plan->readBits);
}

// The deferred bones from their parents' current transforms (parents first: index order).
static void lbProneDeferredDone(lbPose* pose, const lbSkeleton* skeleton, const lbProneDeferred* defer)
{
	lbProneComposeBits(pose, skeleton->parents, defer->plan, defer->plan->deferBits);
}

// A limb's joints from its root bone down to its end (root first), whose model transforms the limb
// fit reads: a turn of the root moves only these (with the root, about its joint), and the rest of
// the root's subtree (twist bones, fingers, toes) is recomposed from the joints once when the limb
// is done (lbProneChainDone). count 0 (an end not within a few bones under the root) recomposes the
// subtree at every turn.
typedef struct lbProneChain
{
	int bones[8];
	int count;
	bool dirty;
} lbProneChain;

// Fills *c (written in place: returned by value the chain cost a copy of its bones a limb).
static void lbProneChainOf(lbProneChain* c, const lbSkeleton* skeleton, int root, int end)
{
	c->count = 0;
	c->dirty = false;
	// Most limbs: root, mid, end, each the parent of the next.
	const int mid = end >= 0 ? skeleton->parents[end] : LB_NULL_INDEX;
	if (mid >= 0 && skeleton->parents[mid] == root)
	{
		c->bones[0] = root;
		c->bones[1] = mid;
		c->bones[2] = end;
		c->count = 3;
		return;
	}
	int path[8], n = 0;
	for (int b = end; b >= 0 && n < 8; b = skeleton->parents[b])
	{
		path[n++] = b;
		if (b == root)
		{
			for (int k = 0; k < n; ++k)
				c->bones[k] = path[n - 1 - k];
			c->count = n;
			break;
		}
	}
}

// The rest of a dirty chain's subtree from the chain's current joints (lbProneUpdateSubtree's
// products but for the joints, which are already where it would put them within rounding and are
// not composed again).
static void lbProneChainDone(lbPose* pose, const lbSkeleton* skeleton, lbProneChain* chain, const lbProneDeferred* defer)
{
	if (!chain->dirty)
		return;
	chain->dirty = false;
	// The rest of the subtree is deferred (lbProneCoreOf: none of it is read before the end).
	if (defer->on)
		return;
	const int* parents = skeleton->parents;
	const int n = pose->boneCount, root = chain->bones[0];
	uint8_t inSubtree[LB_MAX_BONES];
	inSubtree[0] = 1u;
	int next = 1; // the next chain joint (they come in index order, parents first)
	for (int i = root + 1; i < n; ++i)
	{
		const int q = parents[i] - root; // negative above the root
		const uint8_t m = (uint8_t)(q >= 0 && inSubtree[q]);
		inSubtree[i - root] = m;
		if (next < chain->count && i == chain->bones[next])
			++next;
		else if (m)
			lbProneCompose(pose, parents, i);
	}
}

#if LB_IK_SSE2
// lbQuatNormalize in four lanes: q over its length, the identity where the length is not past
// LB_EPSILON or not finite (a NaN fails both ordered compares).
static inline __m128 lbProneQuatNormalize4(__m128 q)
{
	__m128 d = _mm_mul_ps(q, q);
	d = _mm_add_ps(d, _mm_shuffle_ps(d, d, _MM_SHUFFLE(2, 3, 0, 1)));
	d = _mm_add_ps(d, _mm_shuffle_ps(d, d, _MM_SHUFFLE(1, 0, 3, 2)));
	const __m128 n = _mm_sqrt_ps(d);
	const __m128 ok = _mm_and_ps(_mm_cmpgt_ps(n, _mm_set1_ps(LB_EPSILON)), _mm_cmplt_ps(n, _mm_set1_ps(INFINITY)));
	return _mm_or_ps(_mm_and_ps(ok, _mm_div_ps(q, n)), _mm_andnot_ps(ok, _mm_setr_ps(0.0f, 0.0f, 0.0f, 1.0f)));
}
#endif

// The body's pass's rotations go through lbIkQ (four lanes with SSE2: a product of lbQuat values
// went through memory at each step, about a third of the pass's cost). Their normalisation is the
// pass's own: four lanes summed pairwise (not lbQuatNormalize's bits) with SSE2.
static inline lbIkQ lbProneQNormalize(lbIkQ q)
{
#if LB_IK_SSE2
	return lbProneQuatNormalize4(q);
#else
	return lbQuatNormalize(q);
#endif
}

// Turns `bone` about `axisMs` through its joint by `angle`: its model rotation (normalised) and its
// local one made from it, then the model transforms below it: given the chain rooted at it, the
// chain's joints turned with it about the joint (the rest of the subtree left to lbProneChainDone),
// else the subtree recomposed from the locals. Turned by hand, a joint's model transform agrees
// with its parent's and its own unchanged local to a rounding (recomposing the chain from the locals
// cost about 70 instructions a joint more, the root's own recomposition another 70 a turn).
static void lbProneTurnChain(lbPose* pose, const lbSkeleton* skeleton, int bone, lbVec3 axisMs, float angle,
							 lbProneChain* chain)
{
	if (bone < 0 || lbAbsF(angle) < 1.0e-7f)
		return;
	lbTransform* const model = pose->model;
	const int* parents = skeleton->parents;
	const int p = parents[bone];
#if LB_IK_SSE2
	// lbIsValidVec3 of both in two compares: x - x is +0 for a finite x and NaN for the rest (the
	// lanes of p.x..q.x and q.w..s.z that are not p's or s's are left out of the masks).
	const __m128 pq = _mm_loadu_ps(&model[bone].p.x), qs = _mm_loadu_ps(&model[bone].q.w), zero = _mm_setzero_ps();
	if ((_mm_movemask_ps(_mm_cmpeq_ps(_mm_sub_ps(pq, pq), zero)) & 0x7) != 0x7 ||
		(_mm_movemask_ps(_mm_cmpeq_ps(_mm_sub_ps(qs, qs), zero)) & 0xE) != 0xE)
		return;
	// Every caller's axis is unit already (the body's along and side axes, a limb's swivel axis made
	// by lbNormalizeOr, a lift's axis divided by its length), and the product is normalized.
	const lbQuat r = lbProneQuatFromUnitAxisAngle(axisMs, angle);
	const __m128 turn = _mm_loadu_ps(&r.x);
	_mm_storeu_ps(&model[bone].q.x, lbProneQuatNormalize4(lbIkQuatMul4(turn, _mm_loadu_ps(&model[bone].q.x))));
#else
	if (!lbIsValidVec3(model[bone].p) || !lbIsValidVec3(model[bone].s))
		return;
	const lbQuat r = lbProneQuatFromUnitAxisAngle(axisMs, angle);
	model[bone].q = lbQuatNormalize(lbIkQuatMul(r, model[bone].q));
#endif
	if (p == LB_NULL_INDEX)
		pose->local[bone] = model[bone];
	else
		lbIkTransformRelativeTo(&pose->local[bone], &model[p], &model[bone]);
	if (chain && chain->count > 0 && chain->bones[0] == bone)
	{
		// Each joint past the root turns about the root's joint: p' = pivot + r (p - pivot), q' = r q.
#if LB_IK_SSE2
		for (int k = 1; k < chain->count; ++k)
		{
			lbTransform* const j = &model[chain->bones[k]];
			const __m128 jp = _mm_loadu_ps(&j->p.x), jq = _mm_loadu_ps(&j->q.x), jws = _mm_loadu_ps(&j->q.w);
			lbIkStoreTransform(j, _mm_add_ps(pq, lbIkQuatRotate4(turn, _mm_sub_ps(jp, pq))), lbIkQuatMul4(turn, jq), jws);
		}
#else
		const lbVec3 pivot = model[bone].p;
		for (int k = 1; k < chain->count; ++k)
		{
			lbTransform* const j = &model[chain->bones[k]];
			j->p = lbAdd(pivot, lbQuatRotate(r, lbSub(j->p, pivot)));
			j->q = lbQuatMul(r, j->q);
		}
#endif
		chain->dirty = true;
	}
	else
		lbProneUpdateSubtree(pose, skeleton, bone);
}

static void lbProneTurn(lbPose* pose, const lbSkeleton* skeleton, int bone, lbVec3 axisMs, float angle)
{
	lbProneTurnChain(pose, skeleton, bone, axisMs, angle, NULL);
}

// The held limb's two-bone solve on its chain of direct parents, as lbPose_SolveLimbIk solves it
// (the limb's own hinge and bend axes where the input leaves them zero, the same core), the solved
// transforms kept as the joints' model transforms and their locals made from them (recomposing the
// model transforms from those locals gives the same within rounding, at three transform products a
// solve), the rest of the subtree left to lbProneChainDone. Returns false when the chain is not
// root, mid, end of direct parents (the caller solves through lbPose_SolveLimbIk then).
// `c`'s root, mid and end and its axes in the root's frame (hingeRoot, poleRoot) are read, nothing
// else of it. `in` is the caller's, its hinge axis and bend hint filled in here where zero.
//
// The pose was checked (finite where the fit reads it) and so were the targets, and the input is
// made here: of the public call's checks only the joints' (lbIkSolveLimbModelTrusted) and the
// target's are left. The target comes from the targets, finite, but a huge one may overflow on its
// way into model space: then the public call reports it and refuses, and the pose stays as it was.
static bool lbProneSolveChain(lbPose* pose, const lbSkeleton* skeleton, const lbLimbChain* c, lbTwoBoneIkInput* in,
							  lbProneChain* chain)
{
	const int* parents = skeleton->parents;
	if (chain->count != 3 || parents[c->mid] != c->root || parents[c->end] != c->mid)
		return false;
	if (!lbIsValidVec3(in->targetMs))
	{
		lbTransform r = pose->model[c->root], m = pose->model[c->mid], e = pose->model[c->end];
		(void)lbSolveTwoBoneIk(&r, &m, &e, in, NULL);
		return true;
	}
	// Refused (a joint's check, reported): the pose stays as it was, as lbPose_SolveLimbIk leaves it.
	if (lbIkSolveLimbModelTrusted(pose, skeleton, c, in))
		chain->dirty = true;
	return true;
}

// How far (m) a held forearm's elbow must rise to keep the forearm (elbow `a`, wrist `b`, model)
// clear of a step's nose its probe did not meet: its probe's contact (`fp`, radius `fr`) on a level
// more than LB_PRONE_EDGE_RISE under the plane of the hand's ground (`wg`), the two parallel, puts
// the nose at that plane's height from the contact on toward the hand; the forearm is kept its radius
// and the clearance over that plane at the contact's place along it, the elbow rising by the depth
// there over its share (1 - t) of the elbow's move. 0 when nothing is in the way; *ioN gets the plane's
// normal when the rise is more than `than`.
static float lbProneForearmStepRise(const lbPronePlane* fp, float fr, const lbProneGround* wg, const lbProneToModel* toModel,
									lbVec3 a, lbVec3 b, float clearance, lbVec3* ioN, float than)
{
	lbPronePlane wp;
	lbPronePlaneOf(&wp, wg, toModel);
	if (lbDot(wp.normal, fp->normal) < LB_PRONE_STEP_COS)
		return 0.0f;
	const lbVec3 cf = lbMulAdd(fp->point, -fr, fp->normal), cw = lbMulAdd(wp.point, -wg->radius, wp.normal);
	if (lbDot(lbSub(cw, cf), wp.normal) <= LB_PRONE_EDGE_RISE)
		return 0.0f;
	const lbVec3 ab = lbProjectOnPlane(lbSub(b, a), wp.normal);
	const float len2 = lbLengthSquared(ab);
	if (!(len2 > 1.0e-8f))
		return 0.0f;
	const float t = lbClampF(lbDot(lbSub(cf, a), ab) / len2, 0.0f, 1.0f);
	const float depth = fr + clearance - lbDot(lbSub(lbLerp(a, b, t), cw), wp.normal);
	if (!(depth > 0.0f))
		return 0.0f;
	const float rise = depth / lbMaxF(1.0f - t, 0.2f);
	if (rise > than)
		*ioN = wp.normal;
	return rise;
}

// Angle (rad) that turns point p about the joint at `pivot` far enough to raise it by `rise` along
// `normal`, and the axis to turn about; 0 when p lies on the normal through the pivot.
static float lbProneLiftAngle(lbVec3 pivot, lbVec3 p, lbVec3 normal, float rise, lbVec3* outAxis)
{
	lbVec3 v = lbSub(p, pivot);
	lbVec3 axis = lbCross(v, normal);
	float lever = lbLength(axis);
	if (lever < 1.0e-4f)
		return 0.0f;
	*outAxis = lbMulSV(1.0f / lever, axis);
	// The point rises by lever * sin(angle) at most; cap at 60 degrees.
	return asinf(lbClampF(rise / lever, 0.0f, 0.866f));
}

// The torso's axis a-b across `up`, made once for its probes' lifts (lbProneAxisLift): the axis
// ab, its squared length, its direction d and up's part across it u (with u . u).
typedef struct lbProneAxis
{
	lbVec3 a, ab, d, u;
	float len2, uu;
	bool ok;
} lbProneAxis;

static lbProneAxis lbProneAxisOf(lbVec3 a, lbVec3 b, lbVec3 up)
{
	lbProneAxis x;
	x.a = a;
	x.ab = lbSub(b, a);
	x.len2 = lbLengthSquared(x.ab);
	x.ok = x.len2 >= 1.0e-8f;
	if (!x.ok)
		return x;
	x.d = lbMulSV(1.0f / sqrtf(x.len2), x.ab);
	x.u = lbSub(up, lbMulSV(lbDot(up, x.d), x.d));
	x.uu = lbLengthSquared(x.u);
	x.ok = x.uu >= 1.0e-6f;
	return x;
}

// Lift t (m, along `up`) that puts the segment a-b at least `reach` from the point s, with the segment
// above it: the largest root of |w0 - t u| = reach, where w0 is s's offset from the line and u is up's
// part across it. -1e9 when the line never comes within `reach` of s or s lies beyond either end
// (the end points are probed by themselves).
static inline float lbProneAxisLift(const lbProneAxis* x, lbVec3 s, float reach)
{
	if (!x->ok)
		return -1.0e9f;
	lbVec3 v = lbSub(s, x->a);
	float f = lbDot(v, x->ab) / x->len2;
	if (f < 0.0f || f > 1.0f)
		return -1.0e9f;
	lbVec3 w0 = lbSub(v, lbMulSV(lbDot(v, x->d), x->d));
	float wu = lbDot(w0, x->u);
	float disc = wu * wu - x->uu * (lbLengthSquared(w0) - reach * reach);
	if (disc < 0.0f)
		return -1.0e9f;
	return (wu + sqrtf(disc)) / x->uu;
}

#if LB_IK_SSE2
// Each lane of a where mask is set, of b elsewhere.
static inline __m128 lbProneSelect4(__m128 mask, __m128 a, __m128 b)
{
	return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

// lbProneAxisLift and the plane's own lift (-lbProneGap / kn where kn >= LB_PRONE_GROUND_COS) of the
// first four torso probes, their larger in tOf and each plane's kn (up . normal) in knOf, one probe
// a lane with the scalar code's operations in its order: each lane's bits are the scalar code's. A
// plane not hit gives a value never read.
static inline void lbProneTorsoLifts4(const lbPronePlane* planes, const lbProneProbe* probes, const lbVec3* torsoP,
									  const lbProneAxis* x, lbVec3 upMs, float torsoR, float clearance, float* tOf, float* knOf)
{
	__m128 r[4], nr[4];
	for (int i = 0; i < 4; ++i)
	{
		const lbPronePlane* pl = &planes[probes[i]];
		r[i] = _mm_loadu_ps(&pl->point.x); // point, normal.x
		nr[i] = _mm_setr_ps(pl->normal.y, pl->normal.z, 0.0f, 0.0f);
	}
	_MM_TRANSPOSE4_PS(r[0], r[1], r[2], r[3]);
	const __m128 px = r[0], py = r[1], pz = r[2], nx = r[3];
	const __m128 ny = _mm_unpacklo_ps(_mm_unpacklo_ps(nr[0], nr[2]), _mm_unpacklo_ps(nr[1], nr[3]));
	const __m128 nz = _mm_unpackhi_ps(_mm_unpacklo_ps(nr[0], nr[2]), _mm_unpacklo_ps(nr[1], nr[3]));
	const __m128 sx = _mm_setr_ps(torsoP[0].x, torsoP[1].x, torsoP[2].x, torsoP[3].x);
	const __m128 sy = _mm_setr_ps(torsoP[0].y, torsoP[1].y, torsoP[2].y, torsoP[3].y);
	const __m128 sz = _mm_setr_ps(torsoP[0].z, torsoP[1].z, torsoP[2].z, torsoP[3].z);
	// kn = up . n; the plane's lift -((p - point) . n - clearance) / kn, or -1e9 past the ground's cosine.
	const __m128 kn = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_set1_ps(upMs.x), nx), _mm_mul_ps(_mm_set1_ps(upMs.y), ny)),
								 _mm_mul_ps(_mm_set1_ps(upMs.z), nz));
	const __m128 gap = _mm_sub_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_sub_ps(sx, px), nx), _mm_mul_ps(_mm_sub_ps(sy, py), ny)),
											 _mm_mul_ps(_mm_sub_ps(sz, pz), nz)),
								  _mm_set1_ps(clearance));
	const __m128 neg = _mm_set1_ps(-0.0f), far = _mm_set1_ps(-1.0e9f);
	const __m128 ground = _mm_cmpge_ps(kn, _mm_set1_ps(LB_PRONE_GROUND_COS));
	const __m128 t1 = lbProneSelect4(ground, _mm_div_ps(_mm_xor_ps(gap, neg), kn), far);
	// The contact a radius in from the plane's point: point + (-torsoR) n.
	const __m128 nR = _mm_set1_ps(-torsoR);
	const __m128 cx = _mm_add_ps(px, _mm_mul_ps(nR, nx)), cy = _mm_add_ps(py, _mm_mul_ps(nR, ny)),
				 cz = _mm_add_ps(pz, _mm_mul_ps(nR, nz));
	__m128 t2 = far;
	if (x->ok)
	{
		const float reach = torsoR + clearance;
		const __m128 vx = _mm_sub_ps(cx, _mm_set1_ps(x->a.x)), vy = _mm_sub_ps(cy, _mm_set1_ps(x->a.y)),
					 vz = _mm_sub_ps(cz, _mm_set1_ps(x->a.z));
		const __m128 f = _mm_div_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(vx, _mm_set1_ps(x->ab.x)), _mm_mul_ps(vy, _mm_set1_ps(x->ab.y))),
											   _mm_mul_ps(vz, _mm_set1_ps(x->ab.z))),
									_mm_set1_ps(x->len2));
		const __m128 vd = _mm_add_ps(_mm_add_ps(_mm_mul_ps(vx, _mm_set1_ps(x->d.x)), _mm_mul_ps(vy, _mm_set1_ps(x->d.y))),
									 _mm_mul_ps(vz, _mm_set1_ps(x->d.z)));
		const __m128 wx = _mm_sub_ps(vx, _mm_mul_ps(vd, _mm_set1_ps(x->d.x))), wy = _mm_sub_ps(vy, _mm_mul_ps(vd, _mm_set1_ps(x->d.y))),
					 wz = _mm_sub_ps(vz, _mm_mul_ps(vd, _mm_set1_ps(x->d.z)));
		const __m128 wu = _mm_add_ps(_mm_add_ps(_mm_mul_ps(wx, _mm_set1_ps(x->u.x)), _mm_mul_ps(wy, _mm_set1_ps(x->u.y))),
									 _mm_mul_ps(wz, _mm_set1_ps(x->u.z)));
		const __m128 ww = _mm_add_ps(_mm_add_ps(_mm_mul_ps(wx, wx), _mm_mul_ps(wy, wy)), _mm_mul_ps(wz, wz));
		const __m128 uu = _mm_set1_ps(x->uu);
		const __m128 disc =
			_mm_sub_ps(_mm_mul_ps(wu, wu), _mm_mul_ps(uu, _mm_sub_ps(ww, _mm_set1_ps(reach * reach))));
		// Inside the segment (not f < 0, not f > 1) and a real root (not disc < 0): NaN lanes pass as
		// the scalar tests let them.
		const __m128 out = _mm_or_ps(_mm_or_ps(_mm_cmplt_ps(f, _mm_setzero_ps()), _mm_cmpgt_ps(f, _mm_set1_ps(1.0f))),
									 _mm_cmplt_ps(disc, _mm_setzero_ps()));
		t2 = lbProneSelect4(out, far, _mm_div_ps(_mm_add_ps(wu, _mm_sqrt_ps(disc)), uu));
	}
	// lbMaxF(t1, t2): t1 > t2 ? t1 : t2.
	_mm_storeu_ps(tOf, lbProneSelect4(_mm_cmpgt_ps(t1, t2), t1, t2));
	_mm_storeu_ps(knOf, kn);
}
#endif


// Lift (m, along up) that keeps the torso's axis a radius (and the clearance) from a step's nose
// between two neighbouring torso probes whose ground planes a and b are parallel (a stair's treads;
// a contact on a nose or a rock's side has a tilted plane that, carried on, rises far above any
// ground), b's normal's part along up kb. When one lies higher than the other by more than
// LB_PRONE_EDGE_RISE, the nose lies between the two casts: at least a cast radius `castR` along the
// body (`along`) from the lower cast's line, which would have met it nearer, and no further than the
// higher cast's line, whose sphere rests on the higher tread (a plane's point lies over its cast's
// line on a tread). It is taken in the middle of that span, on the higher plane: at the span's near
// end the torso across 0.238 x 0.395 m stairs was held 3.4 cm over the real nose; at its far end it
// would sink up to half the span's rise. `radius` is the torso's (the planes' points lie that far out
// from the ground); `riseN` is b's plane's height over a's along b's normal, which the caller has
// found past LB_PRONE_EDGE_RISE. -1e9 when there is no step. Out of line: a step is rare (none on the
// crawling bench).
LB_COLD static float lbProneStepLift(const lbProneAxis* axis, const lbPronePlane* a, const lbPronePlane* b,
										   float kb, float riseN, lbVec3 along, float castR, lbVec3 up, float radius,
										   float clearance)
{
	if (lbDot(a->normal, b->normal) < LB_PRONE_STEP_COS)
		return -1.0e9f;
	const lbVec3 ab = lbSub(b->point, a->point);
	const float span = lbDot(ab, along) - castR, rise = riseN / kb;
	if (span <= 0.0f)
		return -1.0e9f;
	// Up: from a's point toward b's, on b's plane; down: from b's point back toward a's, on a's.
	const lbVec3 q =
		rise > 0.0f ? lbMulAdd(a->point, castR + 0.5f * span, along) : lbMulAdd(b->point, -castR - 0.5f * span, along);
	const lbVec3 g = lbMulAdd(q, lbAbsF(rise) - radius / kb, up);
	return lbProneAxisLift(axis, g, radius + clearance);
}

// The flight's noses (targets->flightNoseWs and flightStepWs, into model space) under the torso's axis
// a-b: each one's lift (lbProneAxisLift, `reach` from the axis) into *ioNeed (taken as it is while
// *ioAny is false). False when the step is too short to count along the axis. Out of line: only on
// a flight.
LB_COLD static bool lbProneFlightLift(const lbProneTargets* targets, const lbProneToModel* toModel, const lbProneAxis* axis,
											lbVec3 a, lbVec3 b, float reach, float* ioNeed, bool* ioAny)
{
	const lbVec3 nose = lbProneToModelPointIn(toModel, &targets->flightNoseWs.x);
	const lbVec3 next = lbAdd(targets->flightNoseWs, targets->flightStepWs);
	const lbVec3 step = lbSub(lbProneToModelPoint(toModel, next), nose);
	const float ss = lbLengthSquared(step);
	if (!(ss > 1.0e-4f))
		return false;
	// The noses whose place along the step lies within the axis's reach, one past each end.
	const float ka = lbDot(lbSub(a, nose), step) / ss, kb = lbDot(lbSub(b, nose), step) / ss;
	const float k0 = floorf(lbMinF(ka, kb)) - 1.0f, k1 = ceilf(lbMaxF(ka, kb)) + 1.0f;
	for (float k = k0; k <= k1 && k <= k0 + 8.0f; k += 1.0f)
	{
		const float t = lbProneAxisLift(axis, lbMulAdd(nose, k, step), reach);
		if (t <= -1.0e8f)
			continue;
		*ioNeed = *ioAny ? lbMaxF(*ioNeed, t) : t;
		*ioAny = true;
	}
	return true;
}

// Puts the body's turns into the pose: `roll` (angle `rollAngle` about `along`) on the roll bone rb
// with the translation `shiftMs`, `turn` about `side` on the first spine bone and `thighTurn` about
// `side` on both thighs, each about its own joint. On the usual hierarchy (spine and thighs under the
// roll bone, none under another turned bone) the turned bones' local rotations are set and the
// skeleton is updated once; a bone's new local rotation is inv(qr q_parent) Q qr q_bone, its parent
// having turned by the roll alone. Otherwise the turns go one after the other.
static void lbProneTurnBody(lbPose* pose, const lbSkeleton* skeleton, const lbHumanoid* h, const lbProneRigPlan* plan,
							lbQuat roll, lbVec3 along, float rollAngle, lbVec3 side, float turn, lbQuat turnQuat,
							float thighTurn, float bendAngle, lbQuat bendQuat, lbVec3 shiftMs, lbProneDeferred* defer)
{
	const int rb = plan->rollBone, bendBone = plan->bendBone;
	defer->plan = plan;
	defer->on = false;
	const int bones[3] = { h->spine[0], h->leg[0].thigh, h->leg[1].thigh };
	const float angles[3] = { turn, thighTurn, thighTurn };
	if (!plan->onePass)
	{
		lbProneTurn(pose, skeleton, rb, along, rollAngle);
		for (int i = 0; i < 3; ++i)
			lbProneTurn(pose, skeleton, bones[i], side, angles[i]);
		lbProneTurn(pose, skeleton, bendBone, side, bendAngle);
		lbPose_TranslateBoneModel(pose, skeleton, rb, shiftMs);
		return;
	}
	// The thighs share their turn and, mostly, their parent: each made once.
	int lastParent = LB_NULL_INDEX;
	float lastAngle = 0.0f;
	bool made = false;
	const lbIkQ rollQ = lbIkQLoad(&roll);
	lbIkQ parentInv = lbIkQLoad(&lbQuat_identity), turnQ = parentInv;
	for (int i = 0; i < 3; ++i)
	{
		const int b = bones[i];
		if (b < 0)
			continue;
		const int p = skeleton->parents[b];
		if (!made || p != lastParent)
		{
			// The conjugate for the inverse: a product of unit rotations is unit within rounding, and
			// the local rotation made with it is normalized.
			parentInv = lbIkQConj(lbIkQMul(rollQ, lbIkQLoad(&pose->model[p].q)));
			lastParent = p;
		}
		if (i == 0)
		{
			turnQ = lbIkQLoad(&turnQuat);
			lastAngle = angles[i];
		}
		else if (!made || angles[i] != lastAngle)
		{
			const lbQuat q = lbProneQuatFromUnitAxisAngle(side, angles[i]);
			turnQ = lbIkQLoad(&q);
			lastAngle = angles[i];
		}
		made = true;
		const lbIkQ modelQ = lbIkQMul(turnQ, lbIkQMul(rollQ, lbIkQLoad(&pose->model[b].q)));
		lbIkQStore(&pose->local[b].q, lbProneQNormalize(lbIkQMul(parentInv, modelQ)));
		if (i == 0 && bendBone >= 0 && lbAbsF(bendAngle) > 1.0e-7f)
		{
			// The bend bone: its parent turned by the first spine bone's turn and the roll, itself by
			// the bend after them (read before the pass changes the model transforms).
			const lbIkQ turnRoll = lbIkQMul(turnQ, rollQ);
			const int bp = skeleton->parents[bendBone];
			const lbIkQ bendParentInv = lbIkQConj(lbIkQMul(turnRoll, lbIkQLoad(&pose->model[bp].q)));
			const lbIkQ bendQ =
				lbIkQMul(lbIkQLoad(&bendQuat), lbIkQMul(turnRoll, lbIkQLoad(&pose->model[bendBone].q)));
			lbIkQStore(&pose->local[bendBone].q, lbProneQNormalize(lbIkQMul(bendParentInv, bendQ)));
		}
	}
	lbTransform m = pose->model[rb];
	lbIkQStore(&m.q, lbProneQNormalize(lbIkQMul(rollQ, lbIkQLoad(&m.q))));
	m.p = lbAdd(m.p, shiftMs);
	const int parent = skeleton->parents[rb];
	pose->local[rb] = parent < 0 ? m : lbTransformRelative(pose->model[parent], m);
	if (plan->deferSafe)
	{
		defer->on = true;
		lbProneUpdateCore(pose, skeleton, plan);
	}
	else
		lbProneUpdateSubtree(pose, skeleton, rb);
}

void lbProneRigPlan_Make(lbProneRigPlan* plan, const lbSkeleton* skeleton, const lbHumanoid* h, const lbProneRig* rig)
{
	memset(plan, 0, sizeof *plan);
	plan->fingerprint = skeleton->fingerprint;
	plan->boneCount = skeleton->boneCount;
	memcpy(plan->rigBones, rig->bones, sizeof(int) * (size_t)rig->count);
	plan->rigBoneCount = rig->count;
	const int rb = lbProneRollBone(h), top = lbProneTopBone(h), bendBone = lbProneBendBone(h, skeleton);
	plan->rollBone = rb, plan->topBone = top, plan->bendBone = bendBone;
	const int spine0 = h->spineCount > 0 ? h->spine[0] : LB_NULL_INDEX;
	// The bend bone's turn joins the one pass when the first spine bone lies above it with no other
	// turned bone between (its parent then turns by the first spine bone's turn and the roll).
	bool bendDirect = bendBone >= 0 && bendBone != spine0;
	if (bendDirect)
	{
		int b = skeleton->parents[bendBone];
		while (b >= 0 && b != spine0 && b != rb && b != h->leg[0].thigh && b != h->leg[1].thigh)
			b = skeleton->parents[b];
		bendDirect = b == spine0;
	}
	// Direct when each turned bone lies under rb with no other turned bone between, read from the
	// masks of lbProneCoreOf: bone i lies under rb when rb's mask holds its bit and it is not rb;
	// another turned bone j lies between them when it lies under rb too and its own mask holds i's
	// bit (a bone given twice is not between itself).
	const int bones[3] = { spine0, h->leg[0].thigh, h->leg[1].thigh };
	uint16_t coreSlots[LB_MAX_BONES + 1];
	uint16_t* core = coreSlots + 1;
	plan->deferSafe = lbProneCoreOf(skeleton, h, top, bones, core);
	bool direct = rb >= 0;
	for (int i = 0; i < 3 && direct; ++i)
	{
		if (bones[i] < 0)
			continue;
		direct = bones[i] != rb && (core[rb] & LB_PRONE_TURNED_BIT(i));
		for (int j = 0; j < 3 && direct; ++j)
			direct = j == i || bones[j] < 0 || bones[j] == bones[i] || bones[j] == rb ||
					 !(core[rb] & LB_PRONE_TURNED_BIT(j)) || !(core[bones[j]] & LB_PRONE_TURNED_BIT(i));
	}
	plan->onePass = direct && (bendBone < 0 || bendDirect);
	// The roll bone's subtree below it (bones after it whose parent is in it), each bone read or not.
	plan->subtreeEnd = rb + 1;
	if (rb >= 0)
	{
		uint8_t inSubtree[LB_MAX_BONES];
		inSubtree[0] = 1u;
		for (int i = rb + 1; i < skeleton->boneCount; ++i)
		{
			const int q = skeleton->parents[i] - rb; // negative above rb
			inSubtree[i - rb] = (uint8_t)(q >= 0 && inSubtree[q]);
			if (!inSubtree[i - rb])
				continue;
			uint32_t* bits = (core[i] & LB_PRONE_READ_BITS) ? plan->readBits : plan->deferBits;
			bits[i >> 5] |= 1u << (i & 31);
			plan->subtreeEnd = i + 1;
		}
	}
	for (int k = 0; k < LB_PRONE_LIMBS; ++k)
	{
		int root, mid, end;
		lbProneLimbBones(h, k, &root, &mid, &end);
		lbProneChain c;
		lbProneChainOf(&c, skeleton, root, end);
		memcpy(plan->chain[k], c.bones, sizeof(int) * (size_t)c.count);
		plan->chainCount[k] = c.count;
	}
}

lbResult lbProneApplyPose(const lbProneTargets* targets, const lbProneDef* def, const lbSkeleton* skeleton,
						  const lbHumanoid* h, lbPose* pose, lbProneResult* outResult)
{
	if (!targets || !def || !skeleton || !h || !pose || !pose->model || !pose->local)
		return lbReport(lb_errorNullPointer, "lbProneApplyPose: targets, def, skeleton, humanoid and pose are required");
	lbProneRig rig;
	if (lbProneCheckRig(h, skeleton, &rig) != lb_ok)
		return lb_errorSkeletonMismatch;
	lbResult r = lbProneCheckDef(def, "lbProneApplyPose");
	if (r != lb_ok)
		return r;
	if (pose->boneCount != skeleton->boneCount)
		return lbReport(lb_errorSkeletonMismatch, "lbProneApplyPose: pose has %d bones, skeleton %d", pose->boneCount,
						skeleton->boneCount);
	if (h->pelvis < 0 || h->pelvis >= pose->boneCount || h->spineCount < 1 || lbProneTopBone(h) < 0)
		return lbReport(lb_errorMissingRole, "lbProneApplyPose: the humanoid has no pelvis or spine");
	if (!lbProneTargetsFinite(targets))
		return lbReport(lb_errorNonFinite, "lbProneApplyPose: non-finite targets");
	if (!lbFrameUnscaled(&targets->characterWs))
		return lbReport(lb_errorInvalidArgument, "lbProneApplyPose: the targets' character transform scales by (%g, %g, %g); the "
						"prone system takes an unscaled model frame in metres", (double)targets->characterWs.s.x,
						(double)targets->characterWs.s.y, (double)targets->characterWs.s.z);
	if (!lbPronePoseFinite(pose, skeleton, h, &rig))
		return lbReport(lb_errorNonFinite, "lbProneApplyPose: non-finite pose (a bone the fit reads or writes)");
	lbProneResult res;
	memset(&res, 0, sizeof res);
	res.torsoGap = -1.0f;
	// The def's values the limb loop reads again and again, read once (its stores to the pose could
	// alias them).
	const float clearance = def->clearance;
	const bool fitLimbs = def->fitLimbs;
	const float a = lbClampF(targets->alpha, 0.0f, 1.0f);
	if (a <= 0.0f)
	{
		if (outResult)
			*outResult = res;
		return lb_ok;
	}
	// The rig's constants: the targets' when made for this rig (by the sense stage, once), else worked
	// out here.
	const lbProneRigPlan* plan = &targets->rig;
	lbProneRigPlan madeHere;
	if (!lbProneRigPlan_Matches(plan, skeleton, &rig))
	{
		lbProneRigPlan_Make(&madeHere, skeleton, h, &rig);
		plan = &madeHere;
	}
	const lbTransform cw = targets->characterWs;
	lbProneToModel toModel;
	lbProneToModel_Init(&toModel, &cw);
	const lbVec3 upMs = lbProneToModelUnit(&toModel, targets->upWs, h->upMs);
	lbVec3 along, left;
	lbProneBodyFrame(h, pose, upMs, &along, &left, NULL);

	// Seed step 8: the rotations as deltas: roll about the body's axis on the root, pitch on the first
	// spine bone and on the thighs. They and the translation fit are found on the few points they
	// need (turned here by hand) and put into the pose in one pass over the skeleton.
	const int rb = plan->rollBone, top = plan->topBone;
	const lbVec3 rootP = pose->model[rb].p;
	const lbQuat roll = lbProneQuatFromUnitAxisAngle(along, targets->roll * a);
	const lbVec3 side = lbIkQuatRotate(roll, left);
	const lbVec3 pelvis = lbAdd(rootP, lbIkQuatRotate(roll, lbSub(pose->model[h->pelvis].p, rootP)));
	const lbVec3 pivot = lbAdd(rootP, lbIkQuatRotate(roll, lbSub(pose->model[h->spine[0]].p, rootP)));
	const lbVec3 arm0 = lbIkQuatRotate(roll, lbSub(pose->model[top].p, pose->model[h->spine[0]].p));
	// Pitch: a positive turn about the left axis tips the head end down, so the pitches go negated.
	// The seed turns the first spine bone by the ground's pitch and accepts that the torso line
	// (pelvis to neck) then pitches less, the turn being about the spine's root; here the turn is the
	// one that gives the torso line the ground's pitch. In the plane across `side` (x along, y up)
	// the top point runs on the circle of radius |a| about the pivot c (both from the pelvis); the
	// line from the pelvis at the wanted angle (unit u) meets it at lambda u, with
	// |lambda u - c| = |a|: lambda = u.c + sqrt((u.c)^2 - |c|^2 + |a|^2) (the far root: the top lies
	// ahead of the pivot). The turn takes a to lambda u - c; a turn about `side` runs from up toward
	// along, so it is the plane angle negated.
	// With a bend bone (lbProneBendBone) the torso is two parts, pelvis to the bend and the bend to
	// the top, each given the ground's pitch beyond its own in the animation: the first spine
	// bone's turn gives it to the lower part (the torso line's point at the bend runs on the circle
	// about the pivot), and the bend bone's turn gives the chest part the rest (the first turn,
	// about a pivot above the pelvis, tips the chest more than the lower part: on 0.128 x 0.264 m
	// stairs 30.4 against 23.7 degrees). Without one, the line from the pelvis to the top.
	const int bendBone = plan->bendBone;
	float turn = 0.0f, bend = 0.0f;
	// Each turn's rotation about `side`, made once for the points here and the pose's pass.
	lbQuat turnQuat, bendQuat = lbQuat_identity;
	lbVec3 topP = lbAdd(pivot, arm0);
	{
		const lbVec3 sideUp = lbCross(along, side);
		lbVec3 arm = arm0, bendP = topP;
		if (bendBone >= 0)
		{
			bendP = lbAdd(rootP, lbIkQuatRotate(roll, lbSub(pose->model[bendBone].p, rootP)));
			const lbVec3 line = lbSub(topP, pelvis);
			const float len2 = lbLengthSquared(line);
			const float at = len2 > 1.0e-8f ? lbClampF(lbDot(lbSub(bendP, pelvis), line) / len2, 0.05f, 0.95f) : 1.0f;
			arm = lbSub(lbLerp(pelvis, topP, at), pivot);
		}
		const lbVec3 d = lbAdd(arm, lbSub(pivot, pelvis));
		const float want = lbProneAtan2(lbDot(d, sideUp), lbDot(d, along)) + targets->upperPitch * a;
		const lbVec3 c = lbSub(pivot, pelvis);
		const float cx = lbDot(c, along), cy = lbDot(c, sideUp);
		const float ax = lbDot(arm, along), ay = lbDot(arm, sideUp);
		float ux, uy;
		lbProneSinCos(want, &uy, &ux);
		const float uc = ux * cx + uy * cy;
		const float lambda = uc + sqrtf(lbMaxF(uc * uc - (cx * cx + cy * cy) + (ax * ax + ay * ay), 0.0f));
		const float bx = lambda * ux - cx, by = lambda * uy - cy;
		turn = -lbProneAtan2(ax * by - ay * bx, ax * bx + ay * by);
		turnQuat = lbProneQuatFromUnitAxisAngle(side, turn);
		if (bendBone >= 0)
		{
			// The chest part turns with the first spine bone by the turn's plane angle (-turn); it is
			// to turn by the ground's pitch, the bend (positive tips the head end down) the rest.
			bend = -turn - targets->upperPitch * a;
			bendQuat = lbProneQuatFromUnitAxisAngle(side, bend);
			bendP = lbAdd(pivot, lbIkQuatRotate(turnQuat, lbSub(bendP, pivot)));
			const lbVec3 turned = lbAdd(pivot, lbIkQuatRotate(turnQuat, arm0));
			topP = lbAdd(bendP, lbIkQuatRotate(bendQuat, lbSub(turned, bendP)));
		}
		else if (lbAbsF(turn) > 1.0e-7f)
			topP = lbAdd(pivot, lbIkQuatRotate(turnQuat, arm0));
	}
	const float thighTurn = -targets->lowerPitch * a;

	// The probed planes in model space; a hand's or foot's own (wrist, ankle, toes) only when its
	// limb is fitted (not while it is fully held), so they are made there.
	// (The probes other than the ends listed, rather than each probe tested for being one.)
	static const unsigned char bodyProbes[] = { lb_pronePelvis,	lb_proneSpine,	  lb_proneChest,	lb_proneKneeL,
												lb_proneKneeR,	lb_proneElbowL,	  lb_proneElbowR,	lb_proneTorsoLow,
												lb_proneTorsoHigh, lb_proneThighL, lb_proneThighR, lb_proneForearmL,
												lb_proneForearmR };
	_Static_assert(sizeof bodyProbes + 6 == lb_proneProbeCount, "every probe but the six ends' is listed");
	lbPronePlane planes[lb_proneProbeCount];
	planes[lb_proneWristL].hit = planes[lb_proneWristR].hit = planes[lb_proneAnkleL].hit = false;
	planes[lb_proneAnkleR].hit = planes[lb_proneToeL].hit = planes[lb_proneToeR].hit = false;
	size_t first = 0;
#if LB_IK_SSE2
	// The torso's, knees' and elbows' probes (the first eight), mostly hit, four at a time.
	static const int bodyProbes4[8] = { lb_pronePelvis, lb_proneSpine,	lb_proneChest,	 lb_proneKneeL,
										lb_proneKneeR,	lb_proneElbowL, lb_proneElbowR, lb_proneTorsoLow };
	lbPronePlanes4(planes, targets->ground, bodyProbes4, &toModel);
	lbPronePlanes4(planes, targets->ground, bodyProbes4 + 4, &toModel);
	for (; first < 8; ++first)
		planes[bodyProbes[first]].hit = targets->ground[bodyProbes[first]].hit;
#endif
	for (size_t i = first; i < sizeof bodyProbes; ++i)
	{
		const int k = bodyProbes[i];
		planes[k].hit = targets->ground[k].hit;
		if (planes[k].hit)
			lbPronePlaneOf(&planes[k], &targets->ground[k], &toModel);
	}

	// Translation fit: the body moves along up until the torso rests on its highest support (every
	// torso probe on or above its ground, the tightest touching). The torso probes lie along the
	// pelvis-to-neck axis (lbProneProbePoint), as turned above.
	const float torsoR = def->torsoRadius >= 0.0f ? def->torsoRadius : 0.055f * h->height;
	lbVec3 torsoP[LB_PRONE_TORSO_PROBES];
	for (int i = 0; i < LB_PRONE_TORSO_PROBES; ++i)
		torsoP[i] = lbLerp(pelvis, topP, lbProneTorsoAt[i]);
	float shift = 0.0f;
	if (def->fitTranslation)
	{
		bool any = false;
		float need = 0.0f;
		const lbProneAxis axis = lbProneAxisOf(pelvis, topP, upMs);
		// The cast sphere of a torso probe (sphereProbes; a ray has none), for the edges between probes.
		const float castR = def->sphereProbes ? lbMinF(torsoR, def->probeCastRadius) : 0.0f;
		// Each torso probe's normal's part along up where its plane is ground under the torso (0
		// otherwise), for the steps between neighbours below.
		float knOf[LB_PRONE_TORSO_PROBES] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
		int firstTorso = 0;
#if LB_IK_SSE2
		// The first four probes' lifts in lanes (the loop below's operations in its order, so each
		// lane's lift has its bits), taken into `need` in the probes' order; the fifth by the loop.
		{
			_Static_assert(LB_PRONE_TORSO_PROBES >= 4, "four torso probes to a vector");
			float tOf[4], knL[4];
			lbProneTorsoLifts4(planes, lbProneTorsoProbe, torsoP, &axis, upMs, torsoR, clearance, tOf, knL);
			for (int i = 0; i < 4; ++i)
			{
				const int k = lbProneTorsoProbe[i];
				if (!planes[k].hit || knL[i] < 0.2f)
					continue;
				if (knL[i] >= LB_PRONE_GROUND_COS)
					knOf[i] = knL[i];
				need = any ? lbMaxF(need, tOf[i]) : tOf[i];
				any = true;
			}
			firstTorso = 4;
		}
#endif
		for (int i = firstTorso; i < LB_PRONE_TORSO_PROBES; ++i)
		{
			const int k = lbProneTorsoProbe[i];
			if (!planes[k].hit)
				continue;
			float kn = lbDot(upMs, planes[k].normal);
			if (kn < 0.2f)
				continue;
			// The plane through a contact stands for the ground near it, which holds while the torso
			// lies along that plane. A contact whose normal leans more than 53 degrees from up (past
			// any ground the body lies along: the pitches stop at 45, the roll at 35) is the side of an edge,
			// a stair's nose met beside the probe's point, and its plane, as steep as a wall, is no
			// ground under the torso: on 0.127 m risers it held the torso 9 cm over the noses. Such a
			// contact bounds the torso by itself (below) only.
			float t = kn >= LB_PRONE_GROUND_COS ? -lbProneGap(&planes[k], torsoP[i], clearance) / kn : -1.0e9f;
			// Pitched against a contact's plane (across a stair's nose, over a rock's crest) the
			// capsule dips toward the contact beside the probe's point: the contact itself must also
			// stay a radius (and the clearance) from the torso's axis.
			t = lbMaxF(t, lbProneAxisLift(&axis, lbMulAdd(planes[k].point, -torsoR, planes[k].normal), torsoR + clearance));
			if (kn >= LB_PRONE_GROUND_COS)
				knOf[i] = kn;
			need = any ? lbMaxF(need, t) : t;
			any = true;
		}
		// A stair's nose between two neighbouring probes, which neither sphere met (on 0.149 x 0.342 m
		// stairs the torso went 2 cm into one): lbProneStepLift. A pass of its own: within the loop
		// above it cost 240 instructions a frame on the crawling bench, here 160.
		// On a flight the noses are known: the torso keeps a radius and the clearance from each one
		// under it, instead of a nose guessed in the middle of where it may lie between two probes
		// (which sank the torso up to half that span's rise: 2.6 cm into the nose on 0.20-0.23 x
		// 0.30-0.31 m stairs).
		const bool flight = targets->onFlight && lbProneFlightLift(targets, &toModel, &axis, pelvis, topP, torsoR + clearance, &need, &any);
		for (int i = 1; i < LB_PRONE_TORSO_PROBES && !flight; ++i)
		{
			if (knOf[i] <= 0.0f || knOf[i - 1] <= 0.0f)
				continue;
			const lbPronePlane* pa = &planes[lbProneTorsoProbe[i - 1]];
			const lbPronePlane* pb = &planes[lbProneTorsoProbe[i]];
			const float riseN = lbDot(lbSub(pb->point, pa->point), pb->normal);
			if (lbAbsF(riseN) > LB_PRONE_EDGE_RISE * knOf[i])
				need = lbMaxF(need,
							  lbProneStepLift(&axis, pa, pb, knOf[i], riseN, along, castR, upMs, torsoR, clearance));
		}
		if (any)
		{
			res.shiftClamped = lbAbsF(need) > def->maxShift;
			shift = lbClampF(need, -def->maxShift, def->maxShift) * a;
			res.shift = shift;
		}
	}
	lbProneDeferred defer;
	lbProneTurnBody(pose, skeleton, h, plan, roll, along, targets->roll * a, side, turn, turnQuat, thighTurn, bend, bendQuat,
					lbMulSV(shift, upMs), &defer);
	// The torso's gap is the result's alone: measured only for a caller that asks for the result.
	for (int i = 0; outResult && i < LB_PRONE_TORSO_PROBES; ++i)
	{
		const int k = lbProneTorsoProbe[i];
		if (planes[k].hit)
		{
			float gap = lbProneGap(&planes[k], lbMulAdd(torsoP[i], shift, upMs), 0.0f);
			res.torsoGap = res.torsoGap < 0.0f ? lbMaxF(gap, 0.0f) : lbMinF(res.torsoGap, lbMaxF(gap, 0.0f));
		}
	}

	// Limbs: held contacts by two-bone IK, then lift or bend out of the ground.
	lbProneProbeSetup probeSetup;
	lbProneProbeSetup_Init(&probeSetup, h, def);
	// The soles the toe probes stand on: the plan's while the leg measures they were made from stay,
	// read in place when both feet's are (copied, the two cost about thirty instructions a frame).
	bool bothSoles = true;
	for (int foot = 0; foot < 2; ++foot)
		if ((plan->soleMade & (1u << foot)) && lbProneSameLeg(&h->legAxes[foot], plan->soleFrom[foot]))
			probeSetup.soleMade[foot] = true;
		else
			bothSoles = false;
	if (bothSoles)
		probeSetup.soles = plan->sole;
	else
		for (int foot = 0; foot < 2; ++foot)
			if (probeSetup.soleMade[foot])
				probeSetup.sole[foot] = plan->sole[foot];
	// One solver input for the four limbs: each solve sets its target and weight, and the limb's hinge
	// axis and bend hint go back to zero (the solve fills them in from the limb); the rest stays the
	// default. No pole: the limb keeps its own bend plane, so the solve stays continuous as its
	// weight blends in.
	lbTwoBoneIkInput in = lbDefaultTwoBoneIkInput();
	in.poleKind = lb_poleNone;
	for (int k = 0; k < LB_PRONE_LIMBS; ++k)
	{
		int root, mid, end;
		lbProneLimbBones(h, k, &root, &mid, &end);
		if (root < 0 || mid < 0 || end < 0)
			continue;
		const int midProbe = k < 2 ? lb_proneElbowL + k : lb_proneKneeL + (k - 2);
		const int endProbes[2] = { k < 2 ? lb_proneWristL + k : lb_proneAnkleL + (k - 2),
								   k < 2 ? -1 : lb_proneToeL + (k - 2) };
		// The segment with a probe between its joints: the forearm (elbow to wrist), the thigh (hip
		// to knee).
		const int segProbe = k < 2 ? lb_proneForearmL + k : lb_proneThighL + (k - 2);
		const int segA = k < 2 ? mid : root, segB = k < 2 ? end : mid;
		lbLimbChain chain;
		const lbProneLimbTarget* lt = &targets->limbs[k];
		float w = lbClampF(lt->alpha, 0.0f, 1.0f) * a;
		lbProneChain joints;
		joints.count = plan->chainCount[k];
		joints.dirty = false;
		memcpy(joints.bones, plan->chain[k], sizeof joints.bones);
		// The limb's chain only for a hold to solve: lbHumanoid_GetLimbChain's bones (all mapped, as
		// found above) and axes, read straight from the humanoid (the call cost a tenth of a solve).
		if (w > 0.0f)
		{
			chain.root = root, chain.mid = mid, chain.end = end;
			const int sd = k & 1;
			chain.hingeRoot = k < 2 ? h->armAxes[sd].elbowBendUpper : h->legAxes[sd].kneeBendThigh;
			chain.poleRoot = k < 2 ? h->armAxes[sd].elbowPoleUpper : h->legAxes[sd].kneePoleThigh;
			in.targetMs = lbProneToModelPointIn(&toModel, &lt->endWs.x);
			in.weight = w;
			in.hingeAxisMs = lbVec3_zero;
			in.bendHintMs = lbVec3_zero;
			if (!lbProneSolveChain(pose, skeleton, &chain, &in, &joints))
			{
				lbProneChainDone(pose, skeleton, &joints, &defer);
				// lbPose_SolveLimbIk may read any bone of the limb: all current first.
				if (defer.on)
					lbProneDeferredDone(pose, skeleton, &defer);
				lbPose_SolveLimbIk(pose, skeleton, h, (lbLimb)k, &in, NULL);
			}
			// A held limb whose knee or elbow would sink swivels it up about the line from the hip or
			// shoulder to the held end, which stays where it is.
			lbVec3 p;
			if (fitLimbs && (planes[midProbe].hit || planes[segProbe].hit))
			{
				// The knee's or elbow's probe point is the mid joint's (lbProneProbeAt; its radius is
				// not read here).
				p = pose->model[mid].p;
				float rise = planes[midProbe].hit ? -lbProneGap(&planes[midProbe], p, clearance) : 0.0f;
				lbVec3 swivelN = planes[midProbe].normal;
				// An edge under the thigh or forearm (a stair's nose under a held hand's forearm, a
				// roof's ridge under a held foot's thigh): a point a fraction t of the way from the
				// forearm's elbow moves by 1 - t of what the elbow does (the hand stays), one a fraction
				// t from the thigh's hip by t of what the knee does (the hip stays), so the joint rises
				// by the depth over that (at most five times it).
				if (planes[segProbe].hit)
				{
					float t;
					const float depth = lbProneSegmentProbeDepth(&planes[segProbe], targets->ground[segProbe].radius,
																 pose->model[segA].p, pose->model[segB].p, clearance, &t);
					const float share = k < 2 ? 1.0f - t : t;
					const float segRise = depth / lbMaxF(share, 0.2f);
					if (segRise > rise || !planes[midProbe].hit)
						swivelN = planes[segProbe].normal;
					rise = lbMaxF(rise, segRise);
					// A forearm whose probe met the lower level of a step up toward the held hand (its
					// contact more than LB_PRONE_EDGE_RISE under the plane of the hand's tread, the two
					// parallel): the nose lies at the hand's tread's height somewhere from that contact
					// on toward the hand, which the probe did not see. Kept clear of it at the nearest
					// place it may lie (the elbow rising by the depth there over its share of the elbow's
					// move; nearer the hand the share and the depth shrink together, the forearm rising
					// toward the held hand). On 0.226-0.239 x 0.377-0.381 m stairs, the torso at the 35
					// degree cap, the forearms went 2.4-2.5 cm into the nose.
					const lbProneGround* wg = &targets->ground[endProbes[0]];
					if (k < 2 && wg->hit)
						rise = lbMaxF(rise, lbProneForearmStepRise(&planes[segProbe], targets->ground[segProbe].radius, wg,
																   &toModel, pose->model[segA].p, pose->model[segB].p,
																   def->clearance, &swivelN, rise));
				}
				lbVec3 root0 = pose->model[root].p;
				lbVec3 u = lbNormalizeOr(lbSub(pose->model[end].p, root0), lbVec3_zero);
				if (rise > 0.0f && lbLength(u) > 0.5f)
				{
					lbVec3 v = lbProjectOnPlane(lbSub(p, root0), u);
					const lbVec3 n = swivelN;
					float A = lbDot(v, n), B = lbDot(lbCross(u, v), n);
					float R = sqrtf(A * A + B * B);
					if (R > 1.0e-4f)
					{
						float phi0 = lbProneAtan2(B, A);
						float c = acosf(lbClampF((rise + A) / R, -1.0f, 1.0f));
						// phi0 in [-pi, pi] and c in [0, pi]: each root is at most one turn out of
						// [-pi, pi], and is brought back by one turn (no arc tangent of its sine and cosine).
						float p1 = phi0 - c, p2 = phi0 + c;
						if (p1 < -LB_PI)
							p1 += 2.0f * LB_PI;
						if (p2 > LB_PI)
							p2 -= 2.0f * LB_PI;
						float phi = lbClampF(lbAbsF(p1) < lbAbsF(p2) ? p1 : p2, -1.0f, 1.0f);
						lbProneTurnChain(pose, skeleton, root, u, phi * w, &joints);
						res.limbLift = lbMaxF(res.limbLift, lbAbsF(phi * w));
					}
				}
				// A limb nearly straight across an edge (a leg over a roof's ridge, its foot held on the
				// far side) cannot swivel its knee out: what is left of the segment's depth lifts the
				// limb at the hip or shoulder, the end leaving its hold by as much, rather than the limb
				// passing through. A lift about the hip turns the segment along the contact's normal,
				// which leans at an edge: measured again after it, up to three times. (The knee or
				// elbow alone is left to the swivel, as without an edge.)
				for (int pass = 0; pass < 3 && planes[segProbe].hit; ++pass)
				{
					float t;
					const lbVec3 m0 = pose->model[segA].p, e0 = pose->model[segB].p;
					const float depth =
						lbProneSegmentProbeDepth(&planes[segProbe], targets->ground[segProbe].radius, m0, e0, clearance, &t);
					lbVec3 axis;
					const float ang = depth > 1.0e-4f ? lbProneLiftAngle(pose->model[root].p, lbLerp(m0, e0, t),
																		  planes[segProbe].normal, depth, &axis)
													  : 0.0f;
					if (ang <= 0.0f)
						break;
					lbProneTurnChain(pose, skeleton, root, axis, ang * w, &joints);
					res.limbLift = lbMaxF(res.limbLift, ang * w);
				}
			}
		}
		// A held limb rests on its contact: the lift and bend fade out as the hold blends in.
		const float fit = a * (1.0f - lbClampF(lt->alpha, 0.0f, 1.0f));
		if (!fitLimbs || fit <= 0.0f)
		{
			lbProneChainDone(pose, skeleton, &joints, &defer);
			continue;
		}
		// Knee or elbow sinking: the limb lifts at the hip or shoulder.
		lbVec3 p;
		float radius;
		if (planes[midProbe].hit)
		{
			p = pose->model[mid].p;
			float gap = lbProneGap(&planes[midProbe], p, clearance);
			lbVec3 axis;
			float ang = gap < 0.0f ? lbProneLiftAngle(pose->model[root].p, p, planes[midProbe].normal, -gap, &axis) : 0.0f;
			if (ang > 0.0f)
			{
				lbProneTurnChain(pose, skeleton, root, axis, ang * fit, &joints);
				res.limbLift = lbMaxF(res.limbLift, ang * fit);
			}
		}
		// The thigh or forearm sinking (an edge between its joints: a stair's nose under the forearm,
		// a ridge under the thigh, which neither joint's probe finds): the same lift.
		if (planes[segProbe].hit)
		{
			float t;
			const lbVec3 m0 = pose->model[segA].p, e0 = pose->model[segB].p;
			const float depth =
				lbProneSegmentProbeDepth(&planes[segProbe], targets->ground[segProbe].radius, m0, e0, clearance, &t);
			p = lbLerp(m0, e0, t);
			lbVec3 axis;
			float ang = depth > 0.0f ? lbProneLiftAngle(pose->model[root].p, p, planes[segProbe].normal, depth, &axis) : 0.0f;
			if (ang > 0.0f)
			{
				lbProneTurnChain(pose, skeleton, root, axis, ang * fit, &joints);
				res.limbLift = lbMaxF(res.limbLift, ang * fit);
			}
		}
		// Ankle, toes or wrist sinking: the limb lifts at the hip or shoulder too (one rule for every
		// pose, so no frame switches between a bend and a lift).
		for (int e = 0; e < 2; ++e)
		{
			int probe = endProbes[e];
			if (probe < 0 || !targets->ground[probe].hit)
				continue;
			lbPronePlaneOf(&planes[probe], &targets->ground[probe], &toModel);
			// A wrist's or ankle's point is the end joint's; the toes' lie on the sole.
			if (e == 0)
				p = pose->model[end].p;
			else if (!lbProneProbeAt(&probeSetup, h, pose, (lbProneProbe)probe, &p, &radius))
				continue;
			float gap = lbProneGap(&planes[probe], p, clearance);
			if (gap >= 0.0f)
				continue;
			lbVec3 axis;
			float ang = lbProneLiftAngle(pose->model[root].p, p, planes[probe].normal, -gap, &axis);
			lbProneTurnChain(pose, skeleton, root, axis, ang * fit, &joints);
			res.limbLift = lbMaxF(res.limbLift, ang * fit);
		}
		lbProneChainDone(pose, skeleton, &joints, &defer);
	}
	if (defer.on)
		lbProneDeferredDone(pose, skeleton, &defer);
	if (outResult)
		*outResult = res;
	return lb_ok;
}
