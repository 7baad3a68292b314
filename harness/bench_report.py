#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn `make bench` output into bench.md, bench.json and bench-latency.svg.

Input: build/results-bench/ as harness/bench.sh leaves it
  icount/bench/*.json     fio JSON, null_blk under -icount
  virtio/bench/*.json     fio JSON, virtio disk, wall clock
  boot/boots.txt          one line per boot
  scenarios/timing.txt    wall time of the default suite and its suites

Every ratio is taken inside one round and one engine, against dm-linear of
that same round, then summarised as median [min-max] over rounds.  Under
QEMU -icount shift=S guest time advances 2**S ns per instruction, so
instructions per I/O = (1e9 / IOPS) / 2**S.
"""
import argparse
import glob
import json
import math
import os
import re
import statistics
import sys

LABELS = {
    "raw": "lower device, no dm",
    "lin": "dm-linear",
    "flk": "dm-flakey (up)",
    "wb0": "dm-wberr, no rules",
    "wb1k": "dm-wberr, 1,000 rules over the I/O region (prob=0)",
    "wb1koff": "dm-wberr, 1,000 rules off the I/O region",
}
COLOURS = {"raw": "#888888", "lin": "#1f77b4", "flk": "#ff7f0e", "wb0": "#2ca02c", "wb1k": "#d62728",
           "wb1koff": "#9467bd"}
CHART_PERCENTILES = ["1", "5", "10", "20", "30", "40", "50", "60", "70", "80", "90", "95",
                     "99", "99.5", "99.9", "99.99"]


def pct_key(p):
    return f"{float(p):.6f}"


def load_fio(bench_dir):
    """(engine, target, round) -> iops and clat percentiles in ns."""
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
        runs[(engine, target, rnd)] = {
            "iops": w["iops"],
            "clat_mean_ns": w["clat_ns"]["mean"],
            "clat_pct_ns": {k: v for k, v in w["clat_ns"].get("percentile", {}).items()},
        }
    return runs


def ordered_targets(runs):
    return [t for t in LABELS if any(t == tt for _, tt, _ in runs)]


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def summarise(runs):
    """Per (engine, target): IOPS ratio to dm-linear and latency, over rounds."""
    engines = sorted({e for e, _, _ in runs})
    rounds = sorted({r for _, _, r in runs})
    table = {}
    for e in engines:
        for t in ordered_targets(runs):
            ratios, iops, p50, p99, p999, p99_ratio = [], [], [], [], [], []
            for r in rounds:
                cur, lin = runs.get((e, t, r)), runs.get((e, "lin", r))
                if not cur or not lin:
                    continue
                ratios.append(cur["iops"] / lin["iops"])
                iops.append(cur["iops"])
                pct = cur["clat_pct_ns"]
                if pct_key(50) in pct:
                    p50.append(pct[pct_key(50)] / 1000)
                    p99.append(pct[pct_key(99)] / 1000)
                    p99_ratio.append(pct[pct_key(99)] / lin["clat_pct_ns"][pct_key(99)])
                if pct_key(99.9) in pct:
                    p999.append(pct[pct_key(99.9)] / 1000)
            if not ratios:
                continue
            cell = {"rounds": len(ratios), "iops_ratio": spread(ratios), "iops": spread(iops)}
            if p50:
                cell["clat_p50_us"] = spread(p50)
                cell["clat_p99_us"] = spread(p99)
                cell["clat_p99_ratio"] = spread(p99_ratio)
            if p999:
                cell["clat_p99_9_us"] = spread(p999)
            table[(e, t)] = cell
    return engines, ordered_targets(runs), table


def fmt_spread(s, digits=3):
    return f"{s['median']:.{digits}f} [{s['min']:.{digits}f}-{s['max']:.{digits}f}]"


def read_meta(bench_dir):
    path = os.path.join(bench_dir, "meta.txt")
    return open(path).read().strip() if os.path.exists(path) else ""


def fio_section(runs, heading, intro, meta, columns, row):
    """A markdown table of one fio run set: a row per engine and target.

    row(engine, target, cell) returns the cells after engine and target, and
    extra JSON fields for that summary entry.
    """
    engines, targets, table = summarise(runs)
    lines = [heading, "", *intro, "", "```", meta, "```", "",
             "| " + " | ".join(["engine", "target", *columns]) + " |",
             "|" + "---|" * (len(columns) + 2)]
    out = []
    for e in engines:
        for t in targets:
            c = table.get((e, t))
            if not c:
                continue
            cells, extra = row(e, t, c)
            lines.append("| " + " | ".join([e, LABELS[t], *cells]) + " |")
            out.append({"engine": e, "target": t, **extra, **c})
    return lines, out, engines, targets


def icount_section(runs, shift, meta):
    def row(e, t, c):
        instr = 1e9 / c["iops"]["median"] / (1 << shift)
        return [fmt_spread(c["iops_ratio"]), f"{instr:.0f}", f"{c['iops']['median']:.0f}"], \
            {"instructions_per_io": instr}

    lines, out, _, _ = fio_section(
        runs, "## 1. Instruction-path length (null_blk, QEMU `-icount`)",
        [f"QEMU TCG, `-icount shift={shift},sleep=off`, one vCPU; null_blk (memory_backed=0, irqmode=0);",
         "fio 4k randwrite, O_DIRECT, iodepth 1. Guest time counts instructions, so these ratios are",
         "reproducible to about 0.003; they are instruction counts, not cycles (cache misses, atomics",
         "and lock contention are not modelled)."],
        meta, ["IOPS ratio to dm-linear", "instructions / I/O", "IOPS (guest clock)"], row)
    return lines, out


def virtio_section(runs, meta):
    def row(e, t, c):
        p999 = c.get("clat_p99_9_us", {}).get("median", float("nan"))
        return [fmt_spread(c["iops_ratio"]), f"{c['iops']['median']:.0f}",
                f"{c['clat_p50_us']['median']:.0f}", f"{c['clat_p99_us']['median']:.0f}", f"{p999:.0f}",
                fmt_spread(c["clat_p99_ratio"], 2)], {}

    return fio_section(
        runs, "## 2. Realistic: a virtio disk, wall clock",
        ["fio 4k randwrite, O_DIRECT, through each target over one virtio-blk disk (QEMU `cache=none`:",
         "the backing file is opened with O_DIRECT on the host). Rounds rotate the target order. Wall",
         "clock under TCG on a shared 2-core host: a ratio is only a difference when its [min-max]",
         "range excludes 1.000. Latency is fio's completion latency (clat), median over rounds."],
        meta, ["IOPS ratio to dm-linear", "IOPS", "clat p50 µs", "clat p99 µs", "clat p99.9 µs",
               "p99 ratio to dm-linear"], row)


def latency_curves(runs, engine, target):
    """Median over rounds of each percentile, in µs: [(percentile, µs)]."""
    rounds = sorted({r for e, t, r in runs if e == engine and t == target})
    curve = []
    for p in CHART_PERCENTILES:
        vals = [runs[(engine, target, r)]["clat_pct_ns"].get(pct_key(p)) for r in rounds]
        vals = [v for v in vals if v]
        if vals:
            curve.append((float(p), statistics.median(vals) / 1000))
    return curve


def svg_chart(runs, engines, targets, path):
    """Latency percentile curves, one panel per engine; x in 'nines', y log."""
    pw, ph, ml, mr, mt, mb = 440, 300, 62, 44, 40, 48
    width = ml + len(engines) * (pw + mr) + 240
    height = mt + ph + mb
    all_us = [us for e in engines for t in targets for _, us in latency_curves(runs, e, t)]
    if not all_us:
        return False
    lo = 10 ** math.floor(math.log10(min(all_us)))
    hi = 10 ** math.ceil(math.log10(max(all_us)))

    def nines(p):
        return -math.log10(1 - p / 100)

    xmax = nines(99.99)

    def x_of(panel, p):
        return ml + panel * (pw + mr) + nines(p) / xmax * pw

    def y_of(us):
        return mt + ph - (math.log10(us) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * ph

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
         f'font-family="sans-serif" font-size="11">',
         f'<rect width="{width}" height="{height}" fill="white"/>',
         f'<text x="{ml}" y="16" font-size="13" font-weight="bold">fio completion latency by percentile, '
         f'virtio disk (median over rounds)</text>']
    for i, e in enumerate(engines):
        x0 = ml + i * (pw + mr)
        s.append(f'<text x="{x0 + pw / 2}" y="{mt - 6}" text-anchor="middle" font-weight="bold">{e}</text>')
        s.append(f'<rect x="{x0}" y="{mt}" width="{pw}" height="{ph}" fill="none" stroke="#444"/>')
        for p in ["50", "90", "99", "99.9", "99.99"]:
            x = x_of(i, float(p))
            s.append(f'<line x1="{x:.1f}" y1="{mt}" x2="{x:.1f}" y2="{mt + ph}" stroke="#ddd"/>')
            s.append(f'<text x="{x:.1f}" y="{mt + ph + 14}" text-anchor="middle">p{p}</text>')
        decade = lo
        while decade <= hi:
            for m in (1, 2, 5):
                us = decade * m
                if lo <= us <= hi:
                    y = y_of(us)
                    s.append(f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + pw}" y2="{y:.1f}" stroke="#eee"/>')
                    if i == 0:
                        s.append(f'<text x="{x0 - 4}" y="{y + 4:.1f}" text-anchor="end">{us:g}</text>')
            decade *= 10
        for t in targets:
            pts = latency_curves(runs, e, t)
            if not pts:
                continue
            d = " ".join(f"{x_of(i, p):.1f},{y_of(us):.1f}" for p, us in pts)
            dash = ' stroke-dasharray="4,3"' if t == "raw" else ""
            s.append(f'<polyline points="{d}" fill="none" stroke="{COLOURS[t]}" stroke-width="1.6"{dash}/>')
    s.append(f'<text x="14" y="{mt + ph / 2}" transform="rotate(-90 14 {mt + ph / 2})" '
             f'text-anchor="middle">latency, µs (log scale)</text>')
    s.append(f'<text x="{ml + pw / 2}" y="{height - 8}" text-anchor="middle">percentile '
             f'(x spaced by nines: 90, 99, 99.9 ...)</text>')
    lx = ml + len(engines) * (pw + mr) + 8
    for k, t in enumerate(targets):
        y = mt + 14 + k * 18
        dash = ' stroke-dasharray="4,3"' if t == "raw" else ""
        s.append(f'<line x1="{lx}" y1="{y - 4}" x2="{lx + 22}" y2="{y - 4}" stroke="{COLOURS[t]}" '
                 f'stroke-width="2"{dash}/>')
        s.append(f'<text x="{lx + 28}" y="{y}">{LABELS[t].replace("dm-wberr, ", "wberr, ")}</text>')
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")
    return True


def boot_section(path):
    boots = []
    for line in open(path):
        kv = dict(x.split("=", 1) for x in line.split() if "=" in x)
        if "wall" in kv:
            boots.append({"wall_s": float(kv["wall"]),
                          "init_uptime_s": float(kv["init_uptime"]) if kv.get("init_uptime", "?") != "?" else None,
                          "accel": kv.get("accel", "?")})
    if not boots:
        return [], None
    walls = [b["wall_s"] for b in boots]
    ups = [b["init_uptime_s"] for b in boots if b["init_uptime_s"] is not None]
    summary = {"boots": boots, "wall_s": spread(walls)}
    lines = ["## 3. Guest boot", "",
             "QEMU start to power-off for a guest that boots and runs `true` (`harness/run-guest --cmd true`),",
             "and the kernel's uptime when /init starts.", "",
             "| boots | accel | wall, s | uptime at /init, s |", "|---|---|---|---|"]
    up_txt = "-"
    if ups:
        summary["init_uptime_s"] = spread(ups)
        up_txt = fmt_spread(summary["init_uptime_s"], 2)
    lines.append(f"| {len(boots)} | {boots[0]['accel']} | {fmt_spread(summary['wall_s'], 2)} | {up_txt} |")
    return lines, summary


def scenarios_section(path):
    lines_in = open(path).read().splitlines()
    if not lines_in:
        return [], None
    head = dict(x.split("=", 1) for x in lines_in[0].split() if "=" in x)
    suites = []
    for line in lines_in[1:]:
        m = re.match(r"suite (\S+) rc=(\d+) secs=([\d.]+)", line)
        if m:
            suites.append({"suite": m.group(1), "rc": int(m.group(2)), "secs": float(m.group(3))})
    summary = {"wall_s": float(head["wall"]), "status": int(head["status"]),
               "accel": head.get("accel", "?"), "suites": suites}
    lines = ["## 4. Default scenario suite (`make run`)", "",
             f"One boot, accel {summary['accel']}: {summary['wall_s']:.0f} s wall from QEMU start to "
             f"power-off, exit status {summary['status']}"
             + (" (the suite FAILED: see build/results-bench/scenarios/)" if summary["status"] else "") + ".",
             "", "| suite | exit | seconds in the guest |", "|---|---|---|"]
    for s in suites:
        lines.append(f"| {s['suite']} | {s['rc']} | {s['secs']:.1f} |")
    phases = phase_breakdown(os.path.join(os.path.dirname(path), "results.json"))
    if phases:
        summary["phases"] = phases
        n = phases["instances"]
        lines += ["", f"Where the scenario library's time goes ({n} instances run, wberr-run's "
                  "per-instance phases in results.json; `other` is starting the processes, tracefs "
                  "and evidence):", "",
                  "| phase | seconds | share | per instance |", "|---|---|---|---|"]
        total = sum(phases["secs"].values()) or 1.0
        for name, secs in phases["secs"].items():
            lines.append(f"| {name} | {secs:.1f} | {100 * secs / total:.0f}% | {secs / max(n, 1):.2f} |")
        lines.append(f"| all | {total:.1f} | 100% | {total / max(n, 1):.2f} |")
    return lines, summary


def phase_breakdown(path):
    """Seconds per phase summed over the instances that ran (results.json)."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        doc = json.load(f)
    secs, n = {}, 0
    for inst in doc.get("instances", []):
        ph = inst.get("phases")
        if not ph or inst.get("verdict") == "skip":
            continue
        n += 1
        for name, v in ph.items():
            secs[name] = secs.get(name, 0.0) + float(v)
    return {"instances": n, "secs": secs} if n else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shift", type=int, default=4)
    ap.add_argument("bench_dir", help="build/results-bench")
    ap.add_argument("results_dir", help="where bench.md, bench.json and bench-latency.svg go")
    a = ap.parse_args()
    os.makedirs(a.results_dir, exist_ok=True)
    md = ["# wberr benchmarks", "",
          "Written by `make bench` (harness/bench.sh, harness/bench_report.py). Cells are median [min-max]",
          "over rounds; each ratio is taken within one round against dm-linear of that round.", ""]
    doc = {}

    icount_dir = os.path.join(a.bench_dir, "icount", "bench")
    runs = load_fio(icount_dir) if os.path.isdir(icount_dir) else {}
    if runs:
        lines, out = icount_section(runs, a.shift, read_meta(icount_dir))
        md += lines + [""]
        doc["icount"] = {"shift": a.shift, "summary": out,
                         "runs": [{"engine": e, "target": t, "round": r, **v}
                                  for (e, t, r), v in sorted(runs.items())]}

    virtio_dir = os.path.join(a.bench_dir, "virtio", "bench")
    vruns = load_fio(virtio_dir) if os.path.isdir(virtio_dir) else {}
    if vruns:
        lines, out, engines, targets = virtio_section(vruns, read_meta(virtio_dir))
        svg = os.path.join(a.results_dir, "bench-latency.svg")
        if svg_chart(vruns, engines, targets, svg):
            lines += ["", "![latency percentiles](bench-latency.svg)"]
        md += lines + [""]
        doc["virtio"] = {"summary": out,
                         "runs": [{"engine": e, "target": t, "round": r, **v}
                                  for (e, t, r), v in sorted(vruns.items())]}

    boot_txt = os.path.join(a.bench_dir, "boot", "boots.txt")
    if os.path.exists(boot_txt):
        lines, summary = boot_section(boot_txt)
        if summary:
            md += lines + [""]
            doc["boot"] = summary

    scen_txt = os.path.join(a.bench_dir, "scenarios", "timing.txt")
    if os.path.exists(scen_txt):
        lines, summary = scenarios_section(scen_txt)
        if summary:
            md += lines + [""]
            doc["scenarios"] = summary

    if not doc:
        sys.exit(f"bench: no results under {a.bench_dir}")
    with open(os.path.join(a.results_dir, "bench.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(a.results_dir, "bench.json"), "w") as f:
        json.dump(doc, f, indent=1)
    print("\n".join(md))
    failed = doc.get("scenarios", {}).get("status", 0)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
