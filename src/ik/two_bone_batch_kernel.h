// SPDX-FileCopyrightText: 2026 limber authors
// SPDX-License-Identifier: MIT
// The batch two-bone kernel, written once against core/simd.h's operations and included by
// two_bone_batch.c once per path: LBK(Op) names the operation (lbSimdOp or lbScalarOp), LBK_T the
// lane type, LBK_W its width and LBK_NAME the function made. It is lbTwoBoneCore's solve for the
// cases the batch takes (no pole, full weight, no stretch; hinge given, or derived from a bent
// start): the same formulas, in lanes. An end that takes the target rotation gets it afterwards.
// No include guard: included once per path.

// Returns the lanes that need the single solve as bits (lane k, bit k).
static int LBK_NAME(lbTwoBoneLanes* L)
{
	int fallbackBits = 0;
	LBK_KDECL
	for (int o = 0; o < LB_TB_LANES; o += LBK_W)
	{
#define LD(arr) LBK(LoadA)(&(arr)[o])
		const LBK_T zero = LBK(Set1)(0.0f), one = LBK_K(One), two = LBK_K(Two), half = LBK_K(Half);
		const LBK_T ax = LD(L->a[0]), ay = LD(L->a[1]), az = LD(L->a[2]);
		const LBK_T wx = LBK(Sub)(LD(L->m[0]), ax), wy = LBK(Sub)(LD(L->m[1]), ay), wz = LBK(Sub)(LD(L->m[2]), az);
		const LBK_T vx = LBK(Sub)(LD(L->e[0]), LD(L->m[0])), vy = LBK(Sub)(LD(L->e[1]), LD(L->m[1])),
					vz = LBK(Sub)(LD(L->e[2]), LD(L->m[2]));
#define DOT(ax_, ay_, az_, bx_, by_, bz_) LBK(Add)(LBK(Add)(LBK(Mul)(ax_, bx_), LBK(Mul)(ay_, by_)), LBK(Mul)(az_, bz_))
		const LBK_T ww = DOT(wx, wy, wz, wx, wy, wz), vv = DOT(vx, vy, vz, vx, vy, vz);
		// c = w x v
		const LBK_T cx = LBK(Sub)(LBK(Mul)(wy, vz), LBK(Mul)(wz, vy)), cy = LBK(Sub)(LBK(Mul)(wz, vx), LBK(Mul)(wx, vz)),
					cz = LBK(Sub)(LBK(Mul)(wx, vy), LBK(Mul)(wy, vx));
		const LBK_T cc = DOT(cx, cy, cz, cx, cy, cz);

		// Lanes the single solve must take after all (it also reports what is wrong): a number that is
		// not finite, a rotation off unit, a bone or the target distance too short, a given hinge too
		// short to normalise, a start too straight to give one. The numbers and the rotations are
		// tested at the end, beside the products that read the rotations (fewer values held).
		const LBK_T tiny = LBK_K(Tiny);
		LBK_T valid = LBK(And)(LBK(Gt)(ww, tiny), LBK(Gt)(vv, tiny));

		// Hinge: given (normalised), else from the bend (the caller sent straight starts elsewhere).
		// A group whose lanes all have the same kind computes only that kind's geometry.
		const LBK_T gx = LD(L->hinge[0]), gy = LD(L->hinge[1]), gz = LD(L->hinge[2]);
		const LBK_T gg = DOT(gx, gy, gz, gx, gy, gz);
		const LBK_T given = LBK(Gt)(gg, zero);
		const int givenBits = LBK(MaskBits)(given);
		const bool anyGiven = givenBits != 0, anyDerived = givenBits != (1 << LBK_W) - 1;
		// given ? a : b, with no mask work when every lane's hinge is given (the common case).
#define LBK_GIVEN(a_, b_) (anyDerived ? LBK(Select)(given, a_, b_) : (a_))
		// The bend's normal (c, cc) is worked out only where some lane derives its hinge from it.
		valid = LBK(And)(valid, LBK_GIVEN(LBK(Gt)(gg, LBK_K(Hinge)),
										  LBK(Gt)(cc, LBK(Mul)(LBK_K(Straight), LBK(Mul)(ww, vv)))));
		LBK_T hx = zero, hy = zero, hz = zero, cLen = zero, invCwv = zero, wv = zero;
		if (anyDerived)
		{
			cLen = LBK(Sqrt)(cc);
			wv = LBK(Sqrt)(LBK(Mul)(ww, vv));
			invCwv = LBK(Div)(one, LBK(Select)(given, one, LBK(Mul)(cLen, wv)));
			const LBK_T hd = LBK(Mul)(wv, invCwv);
			hx = LBK(Mul)(hd, cx), hy = LBK(Mul)(hd, cy), hz = LBK(Mul)(hd, cz);
		}
		if (anyGiven)
		{
			const LBK_T invG = LBK(Div)(one, LBK(Sqrt)(LBK_GIVEN(gg, one)));
			hx = LBK_GIVEN(LBK(Mul)(invG, gx), hx);
			hy = LBK_GIVEN(LBK(Mul)(invG, gy), hy);
			hz = LBK_GIVEN(LBK(Mul)(invG, gz), hz);
		}

		// Target line.
		const LBK_T tx = LBK(Sub)(LD(L->t[0]), ax), ty = LBK(Sub)(LD(L->t[1]), ay), tz = LBK(Sub)(LD(L->t[2]), az);
		const LBK_T dist2 = DOT(tx, ty, tz, tx, ty, tz);
		valid = LBK(And)(valid, LBK(Gt)(dist2, tiny));
		const LBK_T dist = LBK(Sqrt)(dist2);
		const LBK_T invDist = LBK(Div)(one, LBK(Max)(dist, LBK_K(Floor)));
		const LBK_T axx = LBK(Mul)(invDist, tx), axy = LBK(Mul)(invDist, ty), axz = LBK(Mul)(invDist, tz);

		// Hinge geometry: |w + R(theta) v|^2 = base + cross2 cos(theta + bend0).
		const LBK_T vh = DOT(vx, vy, vz, hx, hy, hz);
		LBK_T base = zero, cross2 = zero, cos0 = one, sin0 = zero;
		if (anyDerived)
		{
			const LBK_T invWv = LBK(Mul)(cLen, invCwv);
			base = LBK(Add)(ww, vv);
			cross2 = LBK(Mul)(two, wv);
			cos0 = LBK(Mul)(DOT(wx, wy, wz, vx, vy, vz), invWv);
			sin0 = LBK(Mul)(cLen, invWv);
		}
		if (anyGiven)
		{
			// The parts along the hinge from g (v.g / g.g) g: one division, where the unit hinge
			// waits on a square root and a division.
			const LBK_T wg = DOT(wx, wy, wz, hx, hy, hz), vg = vh;
			const LBK_T vParx = LBK(Mul)(vg, hx), vPary = LBK(Mul)(vg, hy), vParz = LBK(Mul)(vg, hz);
			const LBK_T vPerpx = LBK(Sub)(vx, vParx), vPerpy = LBK(Sub)(vy, vPary), vPerpz = LBK(Sub)(vz, vParz);
			const LBK_T wPerpx = LBK(Sub)(wx, LBK(Mul)(wg, hx)), wPerpy = LBK(Sub)(wy, LBK(Mul)(wg, hy)),
						wPerpz = LBK(Sub)(wz, LBK(Mul)(wg, hz));
			const LBK_T wvpx = LBK(Add)(wx, vParx), wvpy = LBK(Add)(wy, vPary), wvpz = LBK(Add)(wz, vParz);
			const LBK_T vPerp2 = DOT(vPerpx, vPerpy, vPerpz, vPerpx, vPerpy, vPerpz);
			const LBK_T baseG = LBK(Add)(DOT(wvpx, wvpy, wvpz, wvpx, wvpy, wvpz), vPerp2);
			const LBK_T cross2G =
				LBK(Mul)(two, LBK(Sqrt)(LBK(Mul)(DOT(wPerpx, wPerpy, wPerpz, wPerpx, wPerpy, wPerpz), vPerp2)));
			const LBK_T bentG = LBK(Gt)(cross2G, LBK_K(Tiny));
			const LBK_T invG2 = LBK(Div)(two, LBK(Select)(bentG, cross2G, one));
			const LBK_T pcx = LBK(Sub)(LBK(Mul)(wPerpy, vPerpz), LBK(Mul)(wPerpz, vPerpy));
			const LBK_T pcy = LBK(Sub)(LBK(Mul)(wPerpz, vPerpx), LBK(Mul)(wPerpx, vPerpz));
			const LBK_T pcz = LBK(Sub)(LBK(Mul)(wPerpx, vPerpy), LBK(Mul)(wPerpy, vPerpx));
			const LBK_T cos0G = LBK(Select)(bentG, LBK(Mul)(DOT(wPerpx, wPerpy, wPerpz, vPerpx, vPerpy, vPerpz), invG2), one);
			const LBK_T sin0G = LBK(Select)(bentG, LBK(Mul)(DOT(hx, hy, hz, pcx, pcy, pcz), invG2), zero);
			base = LBK_GIVEN(baseG, base), cross2 = LBK_GIVEN(cross2G, cross2);
			cos0 = LBK_GIVEN(cos0G, cos0), sin0 = LBK_GIVEN(sin0G, sin0);
		}

		// Soft IK: beyond dMax - band the distance approaches dMax along an exponential. expf per
		// lane: the paths must agree, and the band is rarely entered. The band test compares squares
		// (dist^2 > dMax^2 (1 - soften)^2), so that a group with no lane in it waits on no root of
		// dMax^2: its distances are below dMax and stay as they are.
		const LBK_T soften = LBK(Min)(LBK(Max)(LD(L->soften), zero), half);
		const LBK_T dMax2 = LBK(Add)(base, cross2), keep = LBK(Sub)(one, soften);
		const LBK_T softened = LBK(Gt)(soften, zero);
		const LBK_T inBand = LBK(And)(softened, LBK(Gt)(dist2, LBK(Mul)(dMax2, LBK(Mul)(keep, keep))));
		LBK_T dReach = dist;
		const int bandBits = LBK(MaskBits)(inBand);
		if (bandBits)
		{
			const LBK_T dMax = LBK(Sqrt)(dMax2);
			const LBK_T band = LBK(Mul)(soften, dMax), start = LBK(Sub)(dMax, band);
			// expf only where a lane is in the band (the others' values are not used).
			float x[LBK_W], e[LBK_W];
			LBK(Store)(x, LBK(Div)(LBK(Sub)(dist, start), LBK(Select)(inBand, band, one)));
			for (int k = 0; k < LBK_W; ++k)
				e[k] = (bandBits >> k) & 1 ? expf(-x[k]) : 0.0f;
			const LBK_T soft = LBK(Add)(start, LBK(Mul)(band, LBK(Sub)(one, LBK(Load)(e))));
			dReach = LBK(Select)(inBand, LBK(Min)(soft, dMax), dist);
		}
		const LBK_T dSolve = dReach;
		const LBK_T dSolve2 = LBK(Select)(softened, LBK(Mul)(dReach, dReach), dist2);

		// Bend giving that distance, clamped at the reach limits.
		const LBK_T hasCross = LBK(Gt)(cross2, LBK_K(Tiny));
		const LBK_T c1 = LBK(Div)(LBK(Sub)(dSolve2, base), LBK(Select)(hasCross, cross2, one));
		const LBK_T minus1 = LBK_K(Minus1);
		const LBK_T cos1 = LBK(Select)(hasCross, LBK(Min)(LBK(Max)(c1, minus1), one), one);
		const LBK_T inReach = LBK(And)(hasCross, LBK(And)(LBK(Gt)(c1, minus1), LBK(Gt)(one, c1)));
		const LBK_T sin1 = LBK(Sqrt)(LBK(Max)(LBK(Sub)(one, LBK(Mul)(cos1, cos1)), zero));
		const LBK_T exact = LBK(And)(inReach, LBK(Gt)(dSolve, LBK_K(Short)));
		LBK_T len = dSolve;
		const int allLanes = (1 << LBK_W) - 1;
		const bool allExact = LBK(MaskBits)(exact) == allLanes;
		if (!allExact)
			len = LBK(Select)(exact, dSolve, LBK(Sqrt)(LBK(Max)(LBK(Add)(base, LBK(Mul)(cos1, cross2)), zero)));
		const LBK_T cosD =
			LBK(Min)(LBK(Max)(LBK(Add)(LBK(Mul)(cos1, cos0), LBK(Mul)(sin1, sin0)), minus1), one);
		const LBK_T sinD = LBK(Sub)(LBK(Mul)(sin1, cos0), LBK(Mul)(cos1, sin0));

		// End joint: on the target line at the solved distance. The joints are written as soon as they are
		// known, so that the root, the target line and the upper bone are not held through what follows.
		LBK(Store)(&L->oep[0][o], LBK(Add)(ax, LBK(Mul)(len, axx)));
		LBK(Store)(&L->oep[1][o], LBK(Add)(ay, LBK(Mul)(len, axy)));
		LBK(Store)(&L->oep[2][o], LBK(Add)(az, LBK(Mul)(len, axz)));
		// Mid turn as a quaternion: (h sin D, 1 + cos D) up to scale away from a half turn, the
		// half-angle form near it.
		const LBK_T far = LBK(Gt)(cosD, LBK_K(Far));
		const bool nearHalfTurn = LBK(MaskBits)(far) != allLanes;
		LBK_T s1 = sinD, pw = LBK(Add)(one, cosD);
		if (nearHalfTurn)
		{
			const LBK_T sgn = LBK(Select)(LBK(Gt)(zero, sinD), minus1, one);
			const LBK_T hs = LBK(Mul)(LBK(Sqrt)(LBK(Mul)(half, LBK(Sub)(one, cosD))), sgn);
			s1 = LBK(Select)(far, sinD, hs);
			pw = LBK(Select)(far, pw, LBK(Sqrt)(LBK(Mul)(half, pw)));
		}
		const LBK_T pxm = LBK(Mul)(hx, s1), pym = LBK(Mul)(hy, s1), pzm = LBK(Mul)(hz, s1);
		// |h| is one (to rounding): the quaternion's squared norm is s1^2 + pw^2.
		const LBK_T invPm = LBK(Div)(one, LBK(Sqrt)(LBK(Add)(LBK(Mul)(s1, s1), LBK(Mul)(pw, pw))));
		const LBK_T mqx = LBK(Mul)(pxm, invPm), mqy = LBK(Mul)(pym, invPm), mqz = LBK(Mul)(pzm, invPm),
					mqw = LBK(Mul)(pw, invPm);

		// The lower bone bent: Rodrigues' formula away from a half turn, the rotation near it.
		const LBK_T hxvx = LBK(Sub)(LBK(Mul)(hy, vz), LBK(Mul)(hz, vy)), hxvy = LBK(Sub)(LBK(Mul)(hz, vx), LBK(Mul)(hx, vz)),
					hxvz = LBK(Sub)(LBK(Mul)(hx, vy), LBK(Mul)(hy, vx));
		const LBK_T along = anyGiven ? LBK_GIVEN(LBK(Mul)(LBK(Sub)(one, cosD), vh), zero) : zero;
		LBK_T bx = LBK(Add)(LBK(Add)(LBK(Mul)(cosD, vx), LBK(Mul)(sinD, hxvx)), LBK(Mul)(along, hx));
		LBK_T by = LBK(Add)(LBK(Add)(LBK(Mul)(cosD, vy), LBK(Mul)(sinD, hxvy)), LBK(Mul)(along, hy));
		LBK_T bz = LBK(Add)(LBK(Add)(LBK(Mul)(cosD, vz), LBK(Mul)(sinD, hxvz)), LBK(Mul)(along, hz));
		if (nearHalfTurn)
		{
			// v' = v + 2 (w (q x v) + q x (q x v)) for the unit mid rotation q.
			const LBK_T qvx = LBK(Sub)(LBK(Mul)(mqy, vz), LBK(Mul)(mqz, vy)), qvy = LBK(Sub)(LBK(Mul)(mqz, vx), LBK(Mul)(mqx, vz)),
						qvz = LBK(Sub)(LBK(Mul)(mqx, vy), LBK(Mul)(mqy, vx));
			const LBK_T qqx = LBK(Sub)(LBK(Mul)(mqy, qvz), LBK(Mul)(mqz, qvy)),
						qqy = LBK(Sub)(LBK(Mul)(mqz, qvx), LBK(Mul)(mqx, qvz)),
						qqz = LBK(Sub)(LBK(Mul)(mqx, qvy), LBK(Mul)(mqy, qvx));
			const LBK_T rx = LBK(Add)(vx, LBK(Mul)(two, LBK(Add)(LBK(Mul)(mqw, qvx), qqx)));
			const LBK_T ry = LBK(Add)(vy, LBK(Mul)(two, LBK(Add)(LBK(Mul)(mqw, qvy), qqy)));
			const LBK_T rz = LBK(Add)(vz, LBK(Mul)(two, LBK(Add)(LBK(Mul)(mqw, qvz), qqz)));
			bx = LBK(Select)(far, bx, rx), by = LBK(Select)(far, by, ry), bz = LBK(Select)(far, bz, rz);
		}

		// Root swing taking the bent chain onto the target line (lbIkFromTo).
		const LBK_T sx = LBK(Add)(wx, bx), sy = LBK(Add)(wy, by), sz = LBK(Add)(wz, bz);
		const LBK_T ss = DOT(sx, sy, sz, sx, sy, sz);
		// |s| |axis| with |axis| = 1. Where the solve distance was met exactly, |s| is that distance
		// (the law of cosines above) to rounding, known long before s: no square root on this path.
		LBK_T ab = dSolve;
		if (!allExact)
			ab = LBK(Select)(exact, dSolve, LBK(Sqrt)(ss));
		const LBK_T d = DOT(sx, sy, sz, axx, axy, axz);
		const LBK_T rcx = LBK(Sub)(LBK(Mul)(sy, axz), LBK(Mul)(sz, axy)), rcy = LBK(Sub)(LBK(Mul)(sz, axx), LBK(Mul)(sx, axz)),
					rcz = LBK(Sub)(LBK(Mul)(sx, axy), LBK(Mul)(sy, axx));
		const LBK_T rcc = DOT(rcx, rcy, rcz, rcx, rcy, rcz);
		const LBK_T ahead = LBK(Ge)(d, zero);
		const LBK_T f = LBK(Select)(ahead, one, LBK(Sub)(ab, d));
		const LBK_T rqx = LBK(Mul)(rcx, f), rqy = LBK(Mul)(rcy, f), rqz = LBK(Mul)(rcz, f);
		const LBK_T rqw = LBK(Select)(ahead, LBK(Add)(ab, d), rcc);
		// Nearly opposite (lbIkFromTo's own fallback) is left to the single solve.
		const LBK_T opposite = LBK(Not)(LBK(Or)(ahead, LBK(Gt)(rcc, LBK(Mul)(LBK_K(Tiny), ss))));
		// The swing and the mid turn enter the products up to scale, and their 1 / |q| join the output
		// scales: the square roots and divisions run beside the products instead of before them.
		const LBK_T rq2 = LBK(Max)(LBK(Add)(DOT(rqx, rqy, rqz, rqx, rqy, rqz), LBK(Mul)(rqw, rqw)), LBK_K(Floor));
		// Mid joint: the root plus the upper bone turned by the swing, w + 2 (qw (q x w) + q x (q x w))
		// for the unit q = rq / |rq|, the factor 2 / |rq|^2 taken once.
		const LBK_T k2 = LBK(Div)(two, rq2);
		const LBK_T tvx = LBK(Mul)(k2, LBK(Sub)(LBK(Mul)(rqy, wz), LBK(Mul)(rqz, wy)));
		const LBK_T tvy = LBK(Mul)(k2, LBK(Sub)(LBK(Mul)(rqz, wx), LBK(Mul)(rqx, wz)));
		const LBK_T tvz = LBK(Mul)(k2, LBK(Sub)(LBK(Mul)(rqx, wy), LBK(Mul)(rqy, wx)));
		const LBK_T mwx = LBK(Add)(LBK(Add)(wx, LBK(Mul)(rqw, tvx)), LBK(Sub)(LBK(Mul)(rqy, tvz), LBK(Mul)(rqz, tvy)));
		const LBK_T mwy = LBK(Add)(LBK(Add)(wy, LBK(Mul)(rqw, tvy)), LBK(Sub)(LBK(Mul)(rqz, tvx), LBK(Mul)(rqx, tvz)));
		const LBK_T mwz = LBK(Add)(LBK(Add)(wz, LBK(Mul)(rqw, tvz)), LBK(Sub)(LBK(Mul)(rqx, tvy), LBK(Mul)(rqy, tvx)));
		LBK(Store)(&L->omp[0][o], LBK(Add)(ax, mwx));
		LBK(Store)(&L->omp[1][o], LBK(Add)(ay, mwy));
		LBK(Store)(&L->omp[2][o], LBK(Add)(az, mwz));
		const LBK_T invR = LBK(Div)(one, LBK(Sqrt)(rq2));
		const LBK_T invChain = LBK(Mul)(invR, invPm);

		// Hamilton product a b.
#define QMUL(ox, oy, oz, ow, a_x, a_y, a_z, a_w, b_x, b_y, b_z, b_w)                                                  \
	do                                                                                                               \
	{                                                                                                                \
		ox = LBK(Add)(LBK(Sub)(LBK(Add)(LBK(Mul)(a_w, b_x), LBK(Mul)(a_x, b_w)), LBK(Mul)(a_z, b_y)), LBK(Mul)(a_y, b_z)); \
		oy = LBK(Add)(LBK(Sub)(LBK(Add)(LBK(Mul)(a_w, b_y), LBK(Mul)(a_y, b_w)), LBK(Mul)(a_x, b_z)), LBK(Mul)(a_z, b_x)); \
		oz = LBK(Add)(LBK(Sub)(LBK(Add)(LBK(Mul)(a_w, b_z), LBK(Mul)(a_z, b_w)), LBK(Mul)(a_y, b_x)), LBK(Mul)(a_x, b_y)); \
		ow = LBK(Sub)(LBK(Sub)(LBK(Sub)(LBK(Mul)(a_w, b_w), LBK(Mul)(a_x, b_x)), LBK(Mul)(a_y, b_y)), LBK(Mul)(a_z, b_z)); \
	} while (0)
// A product of the swing and mid turn up to scale with an input rotation, scaled by their 1 / |q|
// and the input's unit factor: unit to rounding.
#define QSTORE_SCALED(dst, qx_, qy_, qz_, qw_, scale_)                                                                 \
	do                                                                                                               \
	{                                                                                                                \
		LBK(Store)(&(dst)[0][o], LBK(Mul)(qx_, scale_));                                                               \
		LBK(Store)(&(dst)[1][o], LBK(Mul)(qy_, scale_));                                                               \
		LBK(Store)(&(dst)[2][o], LBK(Mul)(qz_, scale_));                                                               \
		LBK(Store)(&(dst)[3][o], LBK(Mul)(qw_, scale_));                                                               \
	} while (0)
		// Finite: the sum of the positions, target, hinge, soften and scales (made as they were gathered)
		// times 0 is 0 when every one is finite and NaN otherwise (a sum that overflows, from numbers
		// near 1e38, also sends the lane to the single solve, which takes such numbers); a rotation's
		// finiteness is its norm test's (NaN and inf fail it).
		valid = LBK(And)(valid, LBK(Ge)(LBK(Mul)(LD(L->sum), zero), zero));
		// Scales: no component within LB_EPSILON of zero (the least square made as they were gathered;
		// a NaN is caught above).
		valid = LBK(And)(valid, LBK(Gt)(LD(L->scale2), LBK_K(Scale2)));
		// Each input rotation's squared norm n, read with the product that turns it: the checks' band,
		// and the scale that makes the output rotation unit to rounding: 1 / sqrt(n) as the cubic
		// 1 + e (-1/2 + e (3/8 - 5/16 e)) in e = n - 1 (exact for unit input, within 5e-8 in the
		// checks' band), no square root or division.
#define UNITQ(out_, qx_, qy_, qz_, qw_)                                                                                \
	do                                                                                                               \
	{                                                                                                                \
		const LBK_T n_ = LBK(Add)(DOT(qx_, qy_, qz_, qx_, qy_, qz_), LBK(Mul)(qw_, qw_));                               \
		valid = LBK(And)(valid, LBK(And)(LBK(Gt)(n_, LBK_K(NormLo)), LBK(Gt)(LBK_K(NormHi), n_)));                \
		const LBK_T e_ = LBK(Sub)(n_, one);                                                                           \
		const LBK_T f_ = LBK(Add)(LBK_K(C1), LBK(Mul)(e_, LBK(Sub)(LBK_K(C2), LBK(Mul)(LBK_K(C3), e_)))); \
		out_ = LBK(Add)(one, LBK(Mul)(e_, f_));                                                                       \
	} while (0)
		LBK_T ox, oy, oz, ow, chx, chy, chz, chw, unit;
		{
			const LBK_T qx = LD(L->qa[0]), qy = LD(L->qa[1]), qz = LD(L->qa[2]), qw = LD(L->qa[3]);
			UNITQ(unit, qx, qy, qz, qw);
			QMUL(ox, oy, oz, ow, rqx, rqy, rqz, rqw, qx, qy, qz, qw);
			QSTORE_SCALED(L->oqa, ox, oy, oz, ow, LBK(Mul)(invR, unit));
		}
		QMUL(chx, chy, chz, chw, rqx, rqy, rqz, rqw, pxm, pym, pzm, pw);
		{
			const LBK_T qx = LD(L->qm[0]), qy = LD(L->qm[1]), qz = LD(L->qm[2]), qw = LD(L->qm[3]);
			UNITQ(unit, qx, qy, qz, qw);
			QMUL(ox, oy, oz, ow, chx, chy, chz, chw, qx, qy, qz, qw);
			QSTORE_SCALED(L->oqm, ox, oy, oz, ow, LBK(Mul)(invChain, unit));
		}
		{
			const LBK_T qx = LD(L->qe[0]), qy = LD(L->qe[1]), qz = LD(L->qe[2]), qw = LD(L->qe[3]);
			UNITQ(unit, qx, qy, qz, qw);
			QMUL(ox, oy, oz, ow, chx, chy, chz, chw, qx, qy, qz, qw);
			QSTORE_SCALED(L->oqe, ox, oy, oz, ow, LBK(Mul)(invChain, unit));
		}
#undef UNITQ

		// A chain folded nearly shut (the end within a quarter of the reach: the single solve's invLen
		// 0) is left to the single solve too: the law of cosines subtracts nearly equal squares there,
		// and the end placed at its length along the target line left the lower bone 3.7e-4 of its
		// length off, where the single solve takes the bent chain's own length.
		const LBK_T folded = LBK(Gt)(LBK(Mul)(LBK_K(Sixteenth), base), dSolve2);
		const LBK_T fallback = LBK(Or)(LBK(Or)(opposite, folded), LBK(Not)(valid));
		LBK(Store)(&L->fallback[o], LBK(Select)(fallback, one, zero));
		fallbackBits |= LBK(MaskBits)(fallback) << o;
#undef QSTORE_SCALED
#undef QMUL
#undef LBK_GIVEN
#undef DOT
#undef LD
	}
	return fallbackBits;
}
