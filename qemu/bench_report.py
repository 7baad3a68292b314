#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest's fio JSON files into bench.md, bench.json and a latency chart.

Each ratio is taken inside one round and one engine, against dm-linear of
that same round, then summarised as median [min-max] over rounds.  Under
QEMU -icount shift=S guest time advances 2**S ns per instruction, so
instructions per I/O = (1e9 / IOPS) / 2**S.
"""
import argparse
import glob
import json
import os
import re
import statistics
import sys

LABELS = {
    "raw": "raw null_blk",
    "lin": "dm-linear",
    "flk": "dm-flakey (up)",
    "wb0": "dm-wberr, no rules",
    "wb1k": "dm-wberr, 1,000 non-matching rules",
}


def load(bench_dir):
    runs = {}
    for path in glob.glob(os.path.join(bench_dir, "*.json")):
        m = re.match(r"(.+)-(\w+)-r(\d+)\.json$", os.path.basename(path))
        if not m:
            continue
        engine, target, rnd = m.group(1), m.group(2), int(m.group(3))
        with open(path) as f:
            text = f.read()
        # fio may print notes before the JSON object.
        data = json.loads(text[text.index("{"):])
        job = data["jobs"][0]
        if job.get("error"):
            sys.exit(f"bench: fio error {job['error']} in {path}")
        w = job["write"]
        pct = w["clat_ns"].get("percentile", {})
        runs[(engine, target, rnd)] = {
            "iops": w["iops"],
            "clat_p50_ns": pct.get("50.000000"),
            "clat_p99_ns": pct.get("99.000000"),
            "clat_mean_ns": w["clat_ns"]["mean"],
        }
    return runs


def summarise(runs, shift):
    engines = sorted({e for e, _, _ in runs})
    targets = [t for t in LABELS if any(t == tt for _, tt, _ in runs)]
    rounds = sorted({r for _, _, r in runs})
    table = {}
    for e in engines:
        for t in targets:
            ratios, iops, instr = [], [], []
            for r in rounds:
                if (e, t, r) not in runs or (e, "lin", r) not in runs:
                    continue
                x = runs[(e, t, r)]["iops"]
                ratios.append(x / runs[(e, "lin", r)]["iops"])
                iops.append(x)
                instr.append(1e9 / x / (1 << shift))
            if not ratios:
                continue
            table[(e, t)] = {
                "ratio_median": statistics.median(ratios),
                "ratio_min": min(ratios),
                "ratio_max": max(ratios),
                "iops_median": statistics.median(iops),
                "instructions_per_io": statistics.median(instr),
                "rounds": len(ratios),
            }
    return engines, targets, table


def write_md(path, engines, targets, table, shift, meta):
    lines = [
        "# dm-wberr benchmark: instruction-path-length ratios to dm-linear",
        "",
        f"QEMU TCG, `-icount shift={shift},sleep=off`, one vCPU; null_blk (memory_backed=0, irqmode=0);",
        "fio 4k randwrite, O_DIRECT, iodepth 1. Each ratio is taken within one round against dm-linear of that round;",
        "cells give the median over rounds and [min-max]. These are instruction counts, not cycles: cache misses,",
        "atomics and lock contention are not modelled.",
        "",
        meta.strip(),
        "",
        "| engine | target | ratio to dm-linear | instructions / I/O | IOPS (guest clock) |",
        "|---|---|---|---|---|",
    ]
    for e in engines:
        for t in targets:
            c = table.get((e, t))
            if c:
                lines.append(
                    f"| {e} | {LABELS[t]} | {c['ratio_median']:.3f} [{c['ratio_min']:.3f}-{c['ratio_max']:.3f}] "
                    f"| {c['instructions_per_io']:.0f} | {c['iops_median']:.0f} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shift", type=int, default=4)
    ap.add_argument("bench_dir")
    ap.add_argument("results_dir")
    a = ap.parse_args()
    runs = load(a.bench_dir)
    if not runs:
        sys.exit(f"bench: no fio results in {a.bench_dir}")
    engines, targets, table = summarise(runs, a.shift)
    meta = ""
    meta_path = os.path.join(a.bench_dir, "meta.txt")
    if os.path.exists(meta_path):
        meta = open(meta_path).read()
    os.makedirs(a.results_dir, exist_ok=True)
    text = write_md(os.path.join(a.results_dir, "bench.md"), engines, targets, table, a.shift, meta)
    with open(os.path.join(a.results_dir, "bench.json"), "w") as f:
        json.dump({"shift": a.shift,
                   "runs": [{"engine": e, "target": t, "round": r, **v} for (e, t, r), v in sorted(runs.items())],
                   "summary": [{"engine": e, "target": t, **v} for (e, t), v in table.items()]}, f, indent=1)
    print(text)


if __name__ == "__main__":
    main()
