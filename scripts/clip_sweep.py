#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 limber authors
# SPDX-License-Identifier: MIT
"""Foot placement under motion-capture clips on terrains of the shipped kinds.

The terrain sweep (terrain_sweep.py) drives the reference rigs with limber's procedural gaits, whose
steps the foot system knows to the frame. A game's character plays its own clips: their steps
come when the actor took them, their root wanders, they jump and turn. This script plays every
clip of Debian's assimp-testmodels BVH set (CMU 01_01, a walk with forward jumps and turns; 01_03,
its first 200 frames, a walk that turns, before the actor climbs onto playground equipment that no
world here has; Boxing_Toes, boxing on the spot) with its own skeleton and root motion over
terrains drawn at random (fixed seed): stairs up and down across the clip's path,
slopes, rocks and a drop, each placed at a random distance so a step meets an edge at any phase.
It prints the foot limits each run breaks (those of terrain_sweep.py; joint-range frames beyond the
clip's own), then how many runs hold every limit.

    python3 scripts/clip_sweep.py build/limber [--seed N] [--per-kind N] [--kinds K,...] [--keep DIR] [--strict]
                                             [--root-velocity]

--kinds runs only the draws whose names start with one of the given prefixes (stairs_up,
stairs_down, slope, rocks, drop). --root-velocity tells the foot system the velocity the clip's
root motion carries the character at (`"root_velocity": true`), as a game on root motion does;
without it the system is told none, the runner's controller standing still. It measures; it is
not a test.
"""

import os
import sys

from sweep import limits_broken, run_sweep
from terrain_sweep import LIMITS as FOOT_LIMITS

BVH = "/usr/share/assimp/models/BVH"
# (tag, file, frames played): 01_03's actor climbs from its frame 206 on.
CLIPS = (("cmu0101", "01_01.bvh", 600), ("cmu0103", "01_03.bvh", 200), ("boxing", "Boxing_Toes.bvh", 600))
# The terrain sweep's limits; joint-range frames are counted beyond the clip's own (broken below).
LIMITS = tuple(limit for limit in FOOT_LIMITS if limit[0] != "limit_violations")


def broken(summary):
    out = limits_broken(summary, LIMITS)
    # A clip's own joint-range frames (an actor's knee past the metrics' range) are not the system's.
    added = (summary.get("limit_violations") or 0) - (summary.get("source_limit_violations") or 0)
    if added > 0:
        out.append(f"limit_violations=+{added}")
    slide = summary.get("system", {}).get("locked_slide_max", {}).get("max")
    if slide is not None and slide > 0.01:
        out.append(f"locked_slide={slide:.3g}")
    return out


def scenario(shapes, clip, position=None, heading=None):
    s = {
        "world": {"shapes": shapes},
        "rig": {"file": os.path.join(BVH, clip[1])},
        "motion": {"name": "clip", "loop": True},
        "system": "foot",
        "dt": 1.0 / 60.0,
        "frames": clip[2],
    }
    if position is not None:
        s["character"] = {"position": position, "heading_deg": heading}
    return s


def kinds(rng, per_kind):
    """Yields (name, shapes, position, heading) for every draw (position None: the clip's own start)."""
    for _ in range(per_kind):
        riser, tread = round(rng.uniform(0.12, 0.22), 3), round(rng.uniform(0.26, 0.36), 3)
        start = round(rng.uniform(0.2, 1.4), 2)
        tag = f"{int(riser * 1000)}_{int(tread * 1000)}_{int(start * 100)}"
        n = 12
        stairs = {"riser": riser, "tread": tread, "count": n, "distance": 1.0}
        # Up: the first riser `start` m ahead of the clip's start. Down: the clip starts on the top
        # landing, `start` m back from the first nose, turned to walk down the flight.
        yield (f"stairs_up_{tag}", [{"builder": "stairs", "params": dict(stairs, landing=8.0)}], [1.0 - start, 0, 0], 0)
        yield (f"stairs_down_{tag}", [{"builder": "stairs", "params": dict(stairs, landing=4.0)}],
               [1.0 + n * tread + start, 0, 0], 180)
    for _ in range(per_kind):
        angle = round(rng.uniform(10.0, 30.0), 1)
        turn = rng.choice((0, 90, 180))
        slope = {"angle_deg": angle, "length": 9, "width": 20}
        # Up, across or down the slope, from its middle.
        yield (f"slope_{turn}_{angle}", [{"builder": "slope", "params": slope}], [3.0, 0, 0], turn)
    for _ in range(per_kind):
        amplitude, seed = round(rng.uniform(0.15, 0.45), 2), rng.randrange(1, 1000)
        yield (f"rocks_{amplitude}_{seed}",
               [{"builder": "rocky", "params": {"amplitude": amplitude, "scale": 1.5, "size": 30, "seed": seed}}], None, None)
    for _ in range(per_kind):
        drop, start = round(rng.uniform(0.15, 0.45), 2), round(rng.uniform(0.4, 2.2), 2)
        yield (f"drop_{drop}_{int(start * 100)}",
               [{"builder": "step_down", "params": {"drop": drop, "distance": start, "width": 12}}], None, None)


def draws(rng, per_kind):
    for name, shapes, position, heading in kinds(rng, per_kind):
        yield name, (lambda clip, a=(shapes, position, heading): scenario(a[0], clip, a[1], a[2]))


def root_velocity(scenario, args):
    if args.root_velocity:
        scenario["motion"]["root_velocity"] = True


if __name__ == "__main__":
    rigs = [(c[0], c) for c in CLIPS]
    sys.exit(run_sweep(__doc__, draws, broken, "foot", "limber-clip-sweep-", width=40, rigs=rigs,
                       flags=(("--root-velocity", "tell the foot system the clip's root velocity, as a game on root motion does"),),
                       adjust=root_velocity))
