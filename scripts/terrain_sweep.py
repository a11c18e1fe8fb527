#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 limber authors
# SPDX-License-Identifier: MIT
"""Foot placement on terrains of the shipped kinds with other dimensions.

The shipped foot scenarios fix one size per kind (0.25 m risers on 0.28 m treads, a 40-degree
slope, ...); a system tuned on them can pass them and still fail a flight of 0.21 m risers. This
script draws sizes at random (fixed seed) within each kind's range, writes one scenario per size,
rig and gait, runs each with `limber run`, and prints the foot limits each run breaks
(docs/metrics.md: sole penetration <= 0.01 m, limb penetration <= 0.02 m, support >= 0.6, no knee
inversion, no joint-limit frame, added pop <= 15 degrees, no NaN, nothing unmeasured, locked
slide <= 0.01 m), then how many runs hold every limit.

    python3 scripts/terrain_sweep.py build/limber [--seed N] [--per-kind N] [--kinds K,...] [--keep DIR] [--strict]
                                                  [--asked-speed]

--kinds runs only the sizes whose names start with one of the given prefixes (stairs_up,
stairs_down, stairs_angled, slope_up, slope_down, slope_across, rocks, gap, ledge, beam, trench, stairs_turn,
or finer: stairs_up_run);
the sizes drawn stay those of the whole sweep at that seed, so a run keeps its name and figures.
--asked-speed keeps every gait's speed on steep flights (`"slow_on_flights": false`), as a game's
controller that does not slow: the foot system at 1.4 and 3.5 m/s on every flight.

It measures; it is not a test (the shipped scenarios and tests/test_foot_scenarios.c are). With
--strict the exit status is 1 when a run breaks a limit.
"""
import math
import random
import sys

from sweep import limits_broken, run_sweep

GAITS = (("walk", 1.4, 240), ("run", 3.5, 180))
LIMITS = (
    ("sole_penetration_max", 0.01, 1),
    ("limb_penetration_max", 0.02, 1),
    ("support_min", 0.6, -1),
    ("knee_inversions", 0, 1),
    ("limit_violations", 0, 1),
    ("added_pop_max", 15.0, 1),
    ("nan_frames", 0, 1),
    ("unmeasured_frames", 0, 1),
)


def scenario(name, shapes, rig, motion, velocity, frames, position=None, heading=None, timeline=None):
    s = {
        "name": name,
        "world": {"shapes": shapes},
        "rig": rig,
        "motion": motion,
        "system": "foot",
        "timeline": timeline or [{"t": 0.0, "input": "velocity", "value": velocity}],
        "dt": 1.0 / 60.0,
        "frames": frames,
    }
    if position is not None:
        s["character"] = {"position": position, "heading_deg": heading}
    return s


def kinds(rng, per_kind):
    """Yields (name, shapes, motion, velocity, frames, position, heading) for every drawn size."""
    for _ in range(per_kind):
        riser, tread = round(rng.uniform(0.15, 0.35), 3), round(rng.uniform(0.25, 0.40), 3)
        n = 16
        for motion, v, frames in GAITS:
            tag = f"{int(riser * 1000)}_{int(tread * 1000)}"
            stairs = {"riser": riser, "tread": tread, "count": n, "distance": 1.0}
            # The start anywhere over a whole walking stride (1.4 m) before the first edge, so the
            # feet meet the flight at every phase of the step (which treads a stride spans, where
            # the last foot on the landing stands). Drawn from a generator of its own, seeded by the
            # flight's size, so the other kinds keep their draws.
            down, up = (round(random.Random(f"stairs {way} {riser} {tread} {motion}").uniform(0.0, 1.4), 2)
                        for way in ("down", "up"))
            yield (f"stairs_down_{motion}_{tag}_{down}", [{"builder": "stairs", "params": dict(stairs, landing=4.0)}],
                   motion, [-v, 0, 0], frames, [1.0 + n * tread + 0.3 + down, 0, 0], 180)
            yield (f"stairs_up_{motion}_{tag}_{up}", [{"builder": "stairs", "params": dict(stairs, landing=10.0)}],
                   motion, [v, 0, 0], frames, [-up, 0, 0], 0)
    for _ in range(per_kind):
        angle = round(rng.uniform(30.0, 45.0), 1)
        slope = {"angle_deg": angle, "length": 9, "width": 20}
        yield (f"slope_up_walk_{angle}", [{"builder": "slope", "params": slope}], "walk", [1.4, 0, 0], 240, None, None)
        yield (f"slope_down_run_{angle}", [{"builder": "slope", "params": slope}], "run", [-3.5, 0, 0], 180,
               [8.0, 0, 0], 180)
        yield (f"slope_across_walk_{angle}", [{"builder": "slope", "params": dict(slope, length=6)}], "walk",
               [0, 1.4, 0], 240, [3.0, -2.0, 0], 90)
    for _ in range(per_kind):
        amplitude, seed = round(rng.uniform(0.3, 0.6), 2), rng.randrange(1, 1000)
        for motion, v, frames in GAITS:
            rocks = {"amplitude": amplitude, "scale": round(rng.uniform(2.0, 3.0), 2), "size": 30, "seed": seed}
            yield (f"rocks_{motion}_{amplitude}_{seed}", [{"builder": "rocky", "params": rocks}], motion, [v, 0, 0],
                   frames, None, None)
    for _ in range(per_kind):
        gap, depth = round(rng.uniform(0.3, 0.5), 2), round(rng.uniform(0.3, 1.5), 2)
        # The near edge anywhere over a whole walking stride (1.4 m) from 1.3 m on, so the edge meets
        # every phase of the step (a foot coming down over the gap itself among them). Drawn from a
        # generator of its own, seeded by the gap's size, so the other kinds keep their draws.
        distance = round(random.Random(f"gap {gap} {depth}").uniform(1.3, 2.7), 2)
        yield (f"gap_walk_{gap}_{depth}_{distance}", [{"builder": "gap", "params": {"gap": gap, "depth": depth,
                                                                                      "distance": distance, "width": 12}}],
               "walk", [1.4, 0, 0], 200, None, None)
        drop = round(rng.uniform(0.3, 0.6), 2)
        # The edge anywhere over a stride from 1.2 m on, as for the gap: a foot reaches it at every
        # phase of the step (landing toes first below it among them). Its own generator, seeded by
        # the drop, so the other kinds keep their draws.
        ledge = round(random.Random(f"ledge {drop}").uniform(1.2, 2.6), 2)
        yield (f"ledge_walk_{drop}_{ledge}", [{"builder": "step_down", "params": {"drop": drop, "distance": ledge,
                                                                                  "width": 12}}],
               "walk", [1.4, 0, 0], 200, None, None)
        width = round(rng.uniform(0.25, 0.4), 2)
        yield (f"beam_walk_{width}", [{"builder": "beam", "params": {"width": width, "height": 0.5, "length": 8,
                                                                     "distance": -1}}], "walk", [1.4, 0, 0], 180, None, None)
    # Flights crossed at an angle (15-60 degrees off straight up or down) on wide stairs: the feet
    # meet the noses obliquely and the toes point across the treads. Drawn last, so the kinds above
    # keep their draws at a seed.
    for _ in range(per_kind):
        riser, tread = round(rng.uniform(0.15, 0.30), 3), round(rng.uniform(0.25, 0.38), 3)
        angle = round(rng.uniform(15.0, 60.0), 1)
        a, n = math.radians(angle), 16
        stairs = {"riser": riser, "tread": tread, "count": n, "distance": 1.0, "width": 30}
        tag = f"{int(riser * 1000)}_{int(tread * 1000)}_{angle}"
        for motion, v, frames in GAITS:
            yield (f"stairs_angled_up_{motion}_{tag}", [{"builder": "stairs", "params": dict(stairs, landing=10.0)}],
                   motion, [v * math.cos(a), v * math.sin(a), 0], frames, [0.0, -6.0, 0], angle)
            yield (f"stairs_angled_down_{motion}_{tag}", [{"builder": "stairs", "params": dict(stairs, landing=4.0)}],
                   motion, [-v * math.cos(a), v * math.sin(a), 0], frames, [1.0 + n * tread + 0.3, -6.0, 0], 180.0 - angle)
    # Trenches (gaps wider than a step, 0.7-2.0 m, and 0.2-0.5 m deep: stepped down into and out of)
    # walked and run, the near edge anywhere over a stride; and turns on wide stairs (onto the flight,
    # diagonally up at 35-65 degrees, along a tread, diagonally down), the turn started anywhere over
    # a stride. Drawn after every kind above, so those keep their draws at a seed.
    for _ in range(per_kind):
        width, depth = round(rng.uniform(0.7, 2.0), 2), round(rng.uniform(0.2, 0.5), 2)
        distance = round(rng.uniform(1.3, 2.7), 2)
        trench = {"gap": width, "depth": depth, "distance": distance, "width": 12}
        for motion, v, frames in GAITS:
            # Run frames end short of the ground's far end (12 m).
            yield (f"trench_{motion}_{width}_{depth}_{distance}", [{"builder": "gap", "params": trench}], motion,
                   [v, 0, 0], min(frames, 170), None, None)
    for _ in range(per_kind):
        riser, tread = round(rng.uniform(0.15, 0.25), 3), round(rng.uniform(0.26, 0.36), 3)
        angle, start = round(rng.uniform(35.0, 65.0), 1), round(rng.uniform(1.3, 2.3), 2)
        a, v = math.radians(angle), 1.4
        turn = [{"t": 0.0, "input": "velocity", "value": [v, 0, 0]},
                {"t": start, "input": "velocity", "value": [v * math.cos(a), v * math.sin(a), 0]},
                {"t": start + 1.2, "input": "velocity", "value": [0, v, 0]},
                {"t": start + 2.2, "input": "velocity", "value": [-v * math.cos(a), v * math.sin(a), 0]}]
        stairs = {"riser": riser, "tread": tread, "count": 12, "distance": 1.0, "width": 10}
        yield (f"stairs_turn_walk_{int(riser * 1000)}_{int(tread * 1000)}_{angle}_{start}",
               [{"builder": "stairs", "params": stairs}], "walk", turn, 300, None, None)


def broken(summary):
    out = limits_broken(summary, LIMITS)
    slide = summary.get("system", {}).get("locked_slide_max", {}).get("max")
    if slide is not None and slide > 0.01:
        out.append(f"locked_slide={slide:.3g}")
    return out


def draws(rng, per_kind):
    for name, shapes, motion, velocity, frames, position, heading in kinds(rng, per_kind):
        # A list of timeline entries in place of a velocity (the turns) is the scenario's timeline.
        timeline = velocity if isinstance(velocity[0], dict) else None
        yield name, (lambda rig, a=(shapes, motion, velocity, frames, position, heading), tl=timeline:
                     scenario(None, a[0], rig, *a[1:], timeline=tl))


def asked_speed(scenario, args):
    if args.asked_speed:
        scenario["motion"] = {"name": scenario["motion"], "slow_on_flights": False}


if __name__ == "__main__":
    sys.exit(run_sweep(__doc__, draws, broken, "foot", "limber-sweep-",
                       flags=(("--asked-speed", "keep each gait's speed on steep flights, as a game's controller that does not slow"),),
                       adjust=asked_speed))
