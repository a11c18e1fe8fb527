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
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
LIMITS = (
    ("contact_drift_max", 0.001),
    ("knee_inversions", 0),
    ("elbow_inversions", 0),
    ("palm_wall_angle_max", 20.0),
    ("limb_penetration_max", 0.02),
    ("added_pop_max", 15.0),
    ("nan_frames", 0),
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
    out = []
    for key, limit in LIMITS:
        value = summary.get(key)
        if value is None:
            if key == "palm_wall_angle_max":
                continue
            out.append(f"{key}=null")
        elif value - limit > 1e-9:
            out.append(f"{key}={value:.3g}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("limber", help="the limber command-line runner")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--per-kind", type=int, default=2, help="sizes drawn per kind")
    ap.add_argument("--kinds", help="comma-separated name prefixes: run only those sizes (the draws stay the same)")
    ap.add_argument("--keep", help="write the scenarios and reports here instead of a temporary directory")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a run breaks a limit")
    args = ap.parse_args()
    cs = climb_script()
    rng = random.Random(args.seed)
    work = args.keep or tempfile.mkdtemp(prefix="limber-climb-sweep-")
    os.makedirs(work, exist_ok=True)
    prefixes = tuple(k.strip() for k in args.kinds.split(",") if k.strip()) if args.kinds else ()
    total = held = 0
    for name, world, shape, start in worlds(rng, args.per_kind, cs):
        if prefixes and not name.startswith(prefixes):
            continue
        cs.WORLDS[world] = (shape, start)
        for rig in ("mannequin", "mixamo"):
            _, sc = cs.scenario(world, rig)
            full = f"{name}_{rig}"
            sc["name"] = full
            sc.pop("description", None)
            path = os.path.join(work, full + ".json")
            report = os.path.join(work, full + ".report.json")
            with open(path, "w") as f:
                json.dump(sc, f)
            run = subprocess.run([args.limber, "run", path, "--report", report], capture_output=True, text=True)
            total += 1
            if run.returncode != 0:
                print(f"{full:36s} exit {run.returncode}: {run.stderr.strip()[:160]}")
                continue
            with open(report) as f:
                bad = broken(json.load(f)["summary"])
            if bad:
                print(f"{full:36s} {' '.join(bad)}")
            else:
                held += 1
    print(f"{held}/{total} runs hold every climbing limit (seed {args.seed}, scenarios in {work})")
    return 1 if args.strict and held < total else 0


if __name__ == "__main__":
    raise SystemExit(main())
