#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 limber authors
# SPDX-License-Identifier: MIT
"""Limb-by-limb climbing on walls of the shipped kinds with other dimensions.

The shipped climbing scenarios (scripts/climb_scenarios.py) fix one size per world: a vertical wall
0.35 m away, a 70-degree slab, a 110-degree overhang, an inside corner, a ledge 1.9 m high. This
script draws sizes at random (fixed seed) within each world's range, plays the same scripted climb
(each limb in turn, crossing hands, a foot high by the hip, a reach to the limit, over a ledge's
edge, releases) on one scenario per size and rig with `limber run`, and prints the climbing limits
each breaks (docs/metrics.md, tests/test_climb_scenarios.c: locked drift <= 0.001 m, no knee or
elbow inversion, palm angle <= 20 degrees, limb penetration <= 0.02 m, added pop <= 15 degrees, no
NaN), then how many runs hold every limit.

    python3 scripts/climb_sweep.py build/limber [--seed N] [--per-kind N] [--kinds K,...] [--keep DIR] [--strict]

--kinds runs only the sizes whose names start with one of the given prefixes (wall, slab, overhang,
corner, ledge); the sizes drawn stay those of the whole sweep at that seed. It measures; it is not a
test. With --strict the exit status is 1 when a run breaks a limit.
"""
import os
import sys
import types

from sweep import limits_broken, run_sweep

HERE = os.path.dirname(os.path.abspath(__file__))
LIMITS = (
    ("contact_drift_max", 0.001, 1),
    ("knee_inversions", 0, 1),
    ("elbow_inversions", 0, 1),
    ("palm_wall_angle_max", 20.0, 1),
    ("limb_penetration_max", 0.02, 1),
    ("added_pop_max", 15.0, 1),
    ("nan_frames", 0, 1),
)


def climb_script():
    """The scripted climb of scripts/climb_scenarios.py (its definitions, without writing files)."""
    src = open(os.path.join(HERE, "climb_scenarios.py")).read()
    src = src[: src.index("todo = [(w, r)")]
    mod = types.ModuleType("climb_scenarios")
    argv = sys.argv
    sys.argv = [argv[0], os.path.join(HERE, "..", "scenarios")]
    try:
        exec(compile(src, "climb_scenarios.py", "exec"), mod.__dict__)
    finally:
        sys.argv = argv
    return mod


def worlds(rng, per_kind, cs):
    for _ in range(per_kind):
        d = round(rng.uniform(0.25, 0.45), 2)
        yield f"wall_{d}", "wall", {"builder": "wall", "params": {"distance": d}}, cs.GET_ON_HANDS_FIRST
        a, d = round(rng.uniform(60.0, 85.0), 1), round(rng.uniform(0.18, 0.30), 2)
        yield (f"slab_{a}_{d}", "slab", {"builder": "wall", "params": {"distance": d, "angle_deg": a}},
               cs.GET_ON_FEET_FIRST)
        a, d = round(rng.uniform(95.0, 115.0), 1), round(rng.uniform(0.8, 1.1), 2)
        yield (f"overhang_{a}_{d}", "overhang",
               {"builder": "wall", "params": {"distance": d, "angle_deg": a, "height": 2.4}}, cs.GET_ON_HANDS_FIRST)
        d = round(rng.uniform(0.30, 0.50), 2)
        yield f"corner_{d}", "corner", {"builder": "inside_corner", "params": {"distance": d}}, cs.GET_ON_HANDS_FIRST
        h = round(rng.uniform(1.75, 2.05), 2)
        yield (f"ledge_{h}", "ledge", {"builder": "ledge_top", "params": {"distance": 0.35, "height": h}},
               cs.GET_ON_HANDS_FIRST)


def broken(summary):
    # No palm angle without a held hand.
    return limits_broken(summary, LIMITS, optional=("palm_wall_angle_max",))


def draws(rng, per_kind):
    cs = climb_script()
    for name, world, shape, start in worlds(rng, per_kind, cs):
        def build(rig, world=world, shape=shape, start=start):
            cs.WORLDS[world] = (shape, start)
            sc = cs.scenario(world, rig)[1]
            sc.pop("description", None)
            return sc
        yield name, build


if __name__ == "__main__":
    raise SystemExit(run_sweep(__doc__, draws, broken, "climbing", "limber-climb-sweep-", 36))
