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
NaN), then how many runs hold every limit. A run that never holds anything (a wall drawn out of reach
from where the climber stands) holds its limits only by standing on the floor (no floating) and
saying how far beyond reach the wall lies (the runner's `beyond_reach`).

    python3 scripts/climb_sweep.py build/limber [--plan] [--seed N] [--per-kind N] [--kinds K,...] [--keep DIR] [--strict]

With --plan it draws planned climbs instead (PLAN_WORLDS of scripts/climb_scenarios.py: no timeline,
the hold planner drives the limbs to a goal on the wall): walls, slabs, overhangs, inside corners
and holds of other sizes, the goal moved with the wall so it stays on its surface at the shipped
height. A planned run also breaks a limit when it does not play every planned move (plan_move short
of plan_moves, fewer than 4 moves) or ends without all four limbs held
(tests/test_climb_plan_runner.c).

--kinds runs only the sizes whose names start with one of the given prefixes (wall, slab, overhang,
corner, ledge); the sizes drawn stay those of the whole sweep at that seed. It measures; it is not a
test. With --strict the exit status is 1 when a run breaks a limit.
"""
import math
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
    """The scripted and planned climbs of scripts/climb_scenarios.py (their definitions, without
    writing files)."""
    text = open(os.path.join(HERE, "climb_scenarios.py")).read()
    plan = text.index("# Planner scenarios")
    src = text[: text.index("todo = [(w, r)")] + text[plan: text.index("PLAN_SET = ", plan)]
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


def plan_worlds(rng, per_kind):
    """Planned climbs of other sizes: (name, shape, goal). The goal sits on the wall's surface at the
    height of the shipped planned climb of its kind (3 m; 2.6 m under an overhang 3 m high), on a
    corner's first wall as far from the corner line as there (0.9 m), on the holds world at the
    same hold (the holds' places do not depend on the distance, only on the seed)."""
    def on_wall(d, a, z):
        # The wall's face leans away by z / tan(angle) at height z (toward the climber past 90 deg).
        return round(d + z / math.tan(math.radians(a)), 3)
    for _ in range(per_kind):
        d = round(rng.uniform(0.25, 0.45), 2)
        yield f"wall_{d}", {"builder": "wall", "params": {"distance": d}}, [d, 0.0, 3.0]
        a, d = round(rng.uniform(60.0, 85.0), 1), round(rng.uniform(0.18, 0.30), 2)
        yield (f"slab_{a}_{d}", {"builder": "wall", "params": {"distance": d, "angle_deg": a}},
               [on_wall(d, a, 3.0), 0.0, 3.0])
        a, d = round(rng.uniform(95.0, 115.0), 1), round(rng.uniform(0.8, 1.1), 2)
        yield (f"overhang_{a}_{d}", {"builder": "wall", "params": {"distance": d, "angle_deg": a, "height": 3.0}},
               [on_wall(d, a, 2.6), 0.0, 2.6])
        d = round(rng.uniform(0.30, 0.50), 2)
        yield f"corner_{d}", {"builder": "inside_corner", "params": {"distance": d}}, [d, round(d - 0.9, 3), 3.0]
        d = round(rng.uniform(0.28, 0.42), 2)
        yield f"holds_{d}", {"builder": "holds", "params": {"distance": d}}, [round(d - 0.06, 3), 0.22, 2.25]


def broken(summary):
    system = summary.get("system") or {}
    held = (system.get("held") or {}).get("max")
    if held == 0:
        # Nothing ever held: the wall is out of reach from where the climber stands (an overhang
        # far back, say). No contact drifts then; what the run must do instead is stay on its feet
        # and say how far the wall lies beyond reach, so a game can walk it closer.
        bad = limits_broken(summary, LIMITS, optional=("palm_wall_angle_max", "contact_drift_max"))
        beyond = (system.get("beyond_reach") or {}).get("max") or 0.0
        if not beyond > 0.0:
            bad.append("beyond_reach=0 (nothing held, and no distance given)")
        if (summary.get("floating_max") or 0.0) > 0.0:
            bad.append(f"floating_max={summary['floating_max']:.3g} (stood on nothing)")
        return bad + [f"~out of reach by {beyond:.2f} m: nothing held, stood on the floor"]
    # No palm angle without a held hand.
    return limits_broken(summary, LIMITS, optional=("palm_wall_angle_max",))


def plan_broken(summary):
    bad = broken(summary)
    system = summary.get("system") or {}
    last = lambda key: (system.get(key) or {}).get("last")
    move, moves, held = last("plan_move"), last("plan_moves"), last("held")
    if moves is None or moves < 4 or move != moves:
        bad.append(f"plan_move={move}/{moves}")
    if held != 4:
        bad.append(f"held_at_end={held}")
    return bad


def plan_draws(rng, per_kind):
    cs = climb_script()
    for name, shape, goal in plan_worlds(rng, per_kind):
        def build(rig, name=name, shape=shape, goal=goal):
            frames = cs.PLAN_WORLDS["wall"][2]
            cs.PLAN_WORLDS[name] = (shape, goal, frames)
            sc = cs.plan_scenario(name, rig)[1]
            sc.pop("description", None)
            return sc
        yield name, build


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
    if "--plan" in sys.argv[1:]:
        sys.argv.remove("--plan")
        raise SystemExit(run_sweep(__doc__, plan_draws, plan_broken, "planned climbing", "limber-climb-plan-sweep-", 40))
    raise SystemExit(run_sweep(__doc__, draws, broken, "climbing", "limber-climb-sweep-", 36))
