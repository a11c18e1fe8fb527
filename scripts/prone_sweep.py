#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 limber authors
# SPDX-License-Identifier: MIT
"""Prone bodies on grounds of the shipped kinds with other dimensions.

The shipped prone scenarios fix one size per kind (10/20/30-degree slopes, 0.18 m stairs, a
20-degree roof, rocks of 8 cm, ...); a system tuned on them can pass them and still fail a
26-degree slope or 0.22 m steps. This script draws sizes at random (fixed seed) within each kind's
range, writes one scenario per size, rig and posture, runs each with `limber run`, and prints the
prone limits each run breaks (docs/metrics.md: limb penetration <= 0.02 m, torso height <= 0.03 m,
torso roll and pitch errors <= 5 degrees, added pop <= 15 degrees, no NaN, nothing unmeasured),
then how many runs hold every limit.

    python3 scripts/prone_sweep.py build/limber [--seed N] [--per-kind N] [--kinds K,...] [--keep DIR] [--strict]

--kinds runs only the sizes whose names start with one of the given prefixes (slope, back_slope,
crawl_slope, stairs, roof, rocks, crawl_rocks, trench); the sizes drawn stay those of the whole
sweep at that seed. It measures; it is not a test (the shipped scenarios and
tests/test_prone_scenarios.c are). With --strict the exit status is 1 when a run breaks a limit.
"""
from sweep import limits_broken, run_sweep

LIMITS = (
    ("limb_penetration_max", 0.02, 1),
    ("torso_height_max", 0.03, 1),
    ("torso_roll_error_max", 5.0, 1),
    ("torso_pitch_error_max", 5.0, 1),
    ("added_pop_max", 15.0, 1),
    ("nan_frames", 0, 1),
    ("unmeasured_frames", 0, 1),
)


def scenario(name, shapes, rig, motion, position, heading, frames=150, velocity=None, posture=None):
    system = {"name": "prone", "config": {"posture": posture}} if posture else "prone"
    return {
        "name": name,
        "world": {"shapes": shapes},
        "character": {"position": position, "heading_deg": heading},
        "rig": rig,
        "motion": motion,
        "system": system,
        "timeline": [{"t": 0.0, "input": "velocity", "value": velocity}] if velocity else [],
        "dt": 1.0 / 60.0,
        "frames": frames,
    }


def kinds(rng, per_kind):
    """Yields (name, shapes, motion, position, heading, frames, velocity, posture) for every drawn size."""
    for _ in range(per_kind):
        angle = round(rng.uniform(5.0, 30.0), 1)
        slope = [{"builder": "slope", "params": {"angle_deg": angle, "length": 8}}]
        for way, heading in (("up", 0), ("down", 180), ("across", 90)):
            yield (f"slope_{way}_{angle}", slope, "prone", [3.5, 0, 0], heading, 150, None, None)
        yield (f"back_slope_{angle}", slope, "prone", [3.5, 0, 0], 0, 150, None, "back")
        yield (f"crawl_slope_{angle}", slope, "crawl", [2.5, 0, 0], 0, 240, [0.25, 0, 0], None)
    for _ in range(per_kind):
        riser, tread = round(rng.uniform(0.12, 0.24), 3), round(rng.uniform(0.25, 0.40), 3)
        stairs = [{"builder": "stairs", "params": {"riser": riser, "tread": tread, "count": 10}}]
        yield (f"stairs_{riser}_{tread}", stairs, "prone", [1.0 + 4.5 * tread, 0, 0], 0, 150, None, None)
    for _ in range(per_kind):
        angle = round(rng.uniform(10.0, 30.0), 1)
        roof = [{"builder": "roof", "params": {"angle_deg": angle, "height": 1.5}}]
        yield (f"roof_{angle}", roof, "prone", [-0.35, 0, 1.4], 180, 150, None, None)
    for _ in range(per_kind):
        amplitude, scale, seed = round(rng.uniform(0.04, 0.12), 3), round(rng.uniform(1.2, 2.5), 2), rng.randrange(1, 1000)
        rocks = [{"builder": "rocky", "params": {"amplitude": amplitude, "scale": scale, "seed": seed}}]
        yield (f"rocks_{amplitude}_{seed}", rocks, "prone", [0, 0, 0], rng.uniform(0, 360), 150, None, None)
        yield (f"crawl_rocks_{amplitude}_{seed}", rocks, "crawl", [0, 0, 0], 0, 240, [0.25, 0, 0], None)
    for _ in range(per_kind):
        depth, side = round(rng.uniform(0.25, 0.6), 2), round(rng.uniform(-0.4, 0.15), 2)
        trench = [{"builder": "gap", "params": {"gap": 1.2, "depth": depth, "distance": 1.5, "width": 12}}]
        yield (f"trench_{depth}_{side}", trench, "prone", [1.3 + side, 0, 0], 90, 150, None, None)


def broken(summary):
    # The torso limits are measured only while the torso rests (torso_frames); a run in which it
    # never does breaks that instead.
    out = limits_broken(summary, LIMITS, optional=("torso_height_max", "torso_roll_error_max", "torso_pitch_error_max"))
    if summary.get("torso_frames", 0) == 0:
        out.append("torso_frames=0")
    return out


def draws(rng, per_kind):
    for name, shapes, motion, position, heading, frames, velocity, posture in kinds(rng, per_kind):
        yield name, (lambda rig, a=(shapes, motion, position, heading, frames, velocity, posture):
                     scenario(None, a[0], rig, *a[1:]))


if __name__ == "__main__":
    raise SystemExit(run_sweep(__doc__, draws, broken, "prone", "limber-prone-sweep-", 40))
