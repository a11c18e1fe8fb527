# SPDX-FileCopyrightText: 2026 limber authors
# SPDX-License-Identifier: MIT
"""The loop the size sweeps share (terrain_sweep.py, prone_sweep.py, climb_sweep.py).

A sweep draws sizes of a system's shipped kinds at random from a fixed seed, writes one scenario
per size and rig, runs each with `limber run`, prints the limits each run breaks and how many hold
every one. `run_sweep` takes the draws as (name, build) pairs, build(rig) giving the scenario, and
`broken(summary)` giving the broken limits of a report's summary.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import tempfile

RIGS = ("mannequin", "mixamo")


# The report's "worst_at" entry for a summary key: where to look at a broken limit.
WORST_AT = {"sole_penetration_max": "sole_penetration", "limb_penetration_max": "limb_penetration",
            "support_min": "support", "added_pop_max": "added_pop"}


def where(summary, key):
    """' (frame N, foot point / segment / bone)' for a key the report locates, else ''."""
    at = (summary.get("worst_at") or {}).get(WORST_AT.get(key, ""))
    if not at:
        return ""
    what = " ".join(str(at[k]) for k in ("foot", "point", "segment", "bone") if k in at)
    return f" (frame {at['frame']}{', ' + what if what else ''})"


def limits_broken(summary, limits, optional=()):
    """The (key, limit, sign) limits a summary breaks (sign -1: a lower bound), as key=value and
    where the report found the worst (frame, foot, sole point, segment or bone); a missing value
    breaks its limit unless its key is in `optional`."""
    out = []
    for key, limit, sign in limits:
        value = summary.get(key)
        if value is None:
            if key not in optional:
                out.append(f"{key}=null")
        elif (value - limit) * sign > 1e-9:
            out.append(f"{key}={value:.3g}{where(summary, key)}")
    return out


def run_sweep(doc, draws, broken, what, prefix, width=44, rigs=None, flags=(), adjust=None):
    """Parses the sweep's command line, draws with random.Random(seed) (`draws(rng, per_kind)`
    yields (name, build) pairs), runs every draw whose name starts with a --kinds prefix on every
    rig and reports. `rigs` is a list of (tag, rig) pairs, the tag ending the run's name and the rig
    passed to build (default: the two reference rigs by name). `flags` are (flag, help) pairs of
    the sweep's own on/off options; `adjust(scenario, args)`, when given, changes each scenario
    with them before it is written. Returns the exit status."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("limber", help="the limber command-line runner")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--per-kind", type=int, default=2, help="sizes drawn per kind")
    ap.add_argument("--kinds", help="comma-separated name prefixes: run only those sizes (the draws stay the same)")
    ap.add_argument("--keep", help="write the scenarios and reports here instead of a temporary directory")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a run breaks a limit")
    for flag, text in flags:
        ap.add_argument(flag, action="store_true", help=text)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = args.keep or tempfile.mkdtemp(prefix=prefix)
    os.makedirs(work, exist_ok=True)
    total = held = 0
    prefixes = tuple(k.strip() for k in args.kinds.split(",") if k.strip()) if args.kinds else ()
    for name, build in draws(rng, args.per_kind):
        # Filtered after drawing: every size is drawn, so the same seed gives the same sizes.
        if prefixes and not name.startswith(prefixes):
            continue
        for tag, rig in rigs or [(r, r) for r in RIGS]:
            full = f"{name}_{tag}"
            scenario = build(rig)
            if adjust:
                adjust(scenario, args)
            scenario["name"] = full
            path = os.path.join(work, full + ".json")
            report = os.path.join(work, full + ".report.json")
            with open(path, "w") as f:
                json.dump(scenario, f)
            run = subprocess.run([args.limber, "run", path, "--report", report], capture_output=True, text=True)
            total += 1
            if run.returncode != 0:
                print(f"{full:{width}s} exit {run.returncode}: {run.stderr.strip()[:160]}")
                continue
            with open(report) as f:
                bad = broken(json.load(f)["summary"])
            # Entries starting with "~" are notes on a run that holds its limits, not breaks.
            notes = [b[1:] for b in bad if b.startswith("~")]
            bad = [b for b in bad if not b.startswith("~")]
            if bad or notes:
                print(f"{full:{width}s} {' '.join(bad + notes)}")
            if not bad:
                held += 1
    # A temporary directory goes when the sweep is done (hundreds of sweeps filled /tmp); --keep
    # keeps the scenarios and reports to look at a failing run.
    kept = f"scenarios in {work}" if args.keep else "rerun with --keep DIR to keep the scenarios"
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{held}/{total} runs hold every {what} limit (seed {args.seed}, {kept})")
    return 1 if args.strict and held < total else 0
