#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 limber authors
# SPDX-License-Identifier: MIT
"""Plays the shipped climbing, prone and foot scenarios on another rig.

Every shipped scenario of the mannequin (scenarios/climb_*_mannequin.json,
scenarios/prone_*_mannequin.json and scenarios/foot_*_mannequin.json, or those whose names start with a --only prefix) is played with
its "rig" entry replaced by that of a rig scenario (by default scenarios/climb_wall_bcn.json: the
imported BCN rig and its bone roles), and the run is held to the limits of its system (those of
scripts/climb_sweep.py, a planned climb's moves and holds with them, scripts/prone_sweep.py and
scripts/terrain_sweep.py). It prints the limits each run breaks, with the
frames in which a joint passes the range the metrics allow (limit_violations) as a note, then how
many runs hold every limit. It measures; it is not a test. With --strict the exit status is 1 when
a run breaks a limit.

    python3 scripts/rig_swap.py build/limber [--rig SCENARIO.json] [--only PREFIX,...] [--keep DIR] [--strict]
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import tempfile

from climb_sweep import broken as climb_broken, plan_broken
from prone_sweep import broken as prone_broken
from terrain_sweep import broken as foot_broken

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.path.join(HERE, "..", "scenarios")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("limber", help="the limber command-line runner")
    ap.add_argument("--rig", default=os.path.join(SCENARIOS, "climb_wall_bcn.json"),
                    help="a scenario whose \"rig\" entry is played")
    ap.add_argument("--only", help="comma-separated name prefixes (climb_, prone_stairs, foot_walk, ...)")
    ap.add_argument("--keep", help="write the scenarios and reports here instead of a temporary directory")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a run breaks a limit")
    args = ap.parse_args()
    with open(args.rig) as f:
        rig = json.load(f)["rig"]
    tag = os.path.splitext(os.path.basename(str(rig.get("file", "rig"))))[0].split("_")[0].lower()
    work = args.keep or tempfile.mkdtemp(prefix="limber-rig-swap-")
    os.makedirs(work, exist_ok=True)
    prefixes = tuple(p.strip() for p in args.only.split(",") if p.strip()) if args.only else ("climb_", "prone_", "foot_")
    total = held = 0
    for path in sorted(glob.glob(os.path.join(SCENARIOS, "*_mannequin.json"))):
        base = os.path.basename(path)[: -len("_mannequin.json")]
        if not base.startswith(prefixes) or not base.startswith(("climb_", "prone_", "foot_")):
            continue
        with open(path) as f:
            scenario = json.load(f)
        scenario["rig"] = rig
        full = f"{base}_{tag}"
        scenario["name"] = full
        out = os.path.join(work, full + ".json")
        report = os.path.join(work, full + ".report.json")
        with open(out, "w") as f:
            json.dump(scenario, f, indent=1)
        run = subprocess.run([args.limber, "run", out, "--report", report], capture_output=True, text=True)
        total += 1
        if run.returncode != 0:
            print(f"{full:40s} exit {run.returncode}: {run.stderr.strip()[:160]}")
            continue
        with open(report) as f:
            summary = json.load(f)["summary"]
        if base.startswith("climb_plan"):
            bad = plan_broken(summary)
        elif base.startswith("climb_"):
            bad = climb_broken(summary)
        elif base.startswith("foot_"):
            bad = foot_broken(summary)
        else:
            bad = prone_broken(summary)
        # Entries starting with "~" are notes on a run that holds its limits (a wall out of reach).
        notes = [b[1:] for b in bad if b.startswith("~")]
        bad = [b for b in bad if not b.startswith("~")]
        if summary.get("limit_violations"):
            notes.append(f"(limit_violations {summary['limit_violations']})")
        if bad or notes:
            print(f"{full:40s} {' '.join(bad + notes)}")
        if not bad:
            held += 1
    # A temporary directory goes when the run is done; --keep keeps the scenarios and reports.
    kept = f"scenarios in {work}" if args.keep else "rerun with --keep DIR to keep the scenarios"
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{held}/{total} runs hold every limit of their system on {tag} ({kept})")
    return 1 if args.strict and held < total else 0


if __name__ == "__main__":
    raise SystemExit(main())
