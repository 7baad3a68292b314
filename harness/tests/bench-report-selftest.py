#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host check of harness/bench_report.py on synthetic fio output, as TAP.

The numbers are chosen so every ratio, spread and instruction count has
one right answer; a report that averages instead of taking the median, or
compares across rounds, gets a different one.
"""
import json
import os
import subprocess
import sys
import tempfile
from taplib import check, done  # noqa: E402  (harness/tests/taplib.py)

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "bench_report.py")


def fio_json(iops, p50_ns, p99_ns, error=0):
    pct = {f"{p:.6f}": p50_ns if p <= 50 else p99_ns for p in (1, 50, 90, 99, 99.9)}
    return json.dumps({"jobs": [{"error": error, "write": {
        "iops": iops, "clat_ns": {"mean": p50_ns, "percentile": pct}}}]})


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def run(bench, out):
    p = subprocess.run([sys.executable, REPORT, "--shift", "4", bench, out],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def main():
    with tempfile.TemporaryDirectory() as tmp:
        bench = os.path.join(tmp, "bench")
        # icount: dm-linear 10000/8000/12500 IOPS, wb0 exactly 0.99/0.98/0.97 of it.
        lin = {1: 10000.0, 2: 8000.0, 3: 12500.0}
        wb0 = {1: 0.99, 2: 0.98, 3: 0.97}
        for r in lin:
            write(f"{bench}/icount/bench/psync-lin-r{r}.json", "note: fio chatter\n" + fio_json(lin[r], 1, 1))
            write(f"{bench}/icount/bench/psync-wb0-r{r}.json", fio_json(lin[r] * wb0[r], 1, 1))
        # virtio: two engines, one with an iodepth suffix; latencies in µs*1000.
        for r in (1, 2):
            for eng in ("psync", "io_uring-qd16"):
                write(f"{bench}/virtio/bench/{eng}-lin-r{r}.json", fio_json(2000, 100_000, 400_000))
                write(f"{bench}/virtio/bench/{eng}-wb1k-r{r}.json", fio_json(1000 * r, 200_000, 800_000))
        write(f"{bench}/boot/boots.txt", "boot 1 wall=4.0 init_uptime=2.0 accel=tcg\n"
              "boot 2 wall=6.0 init_uptime=2.2 accel=tcg\nboot 3 wall=5.0 init_uptime=2.1 accel=tcg\n")
        write(f"{bench}/scenarios/timing.txt", "wall=480.5 status=0 accel=tcg\n"
              "suite errseq-pipeline rc=0 secs=6.1\nsuite guest-scenarios rc=0 secs=458.9\n")
        write(f"{bench}/scenarios/results.json", json.dumps({"instances": [
            {"id": "ext4/a", "verdict": "pass", "phases": {"device": 0.5, "mkfs": 2.0, "steps": 1.0}},
            {"id": "xfs/a", "verdict": "fail", "phases": {"device": 0.5, "mkfs": 1.0, "steps": 3.0}},
            {"id": "btrfs/a", "verdict": "skip", "phases": {"device": 9.0, "mkfs": 9.0, "steps": 9.0}}]}))
        out = os.path.join(tmp, "out")
        rc, text = run(bench, out)
        check(rc == 0, "report exits 0 on good input", text[-300:])
        doc = json.load(open(os.path.join(out, "bench.json")))
        ic = {c["target"]: c for c in doc["icount"]["summary"]}
        r = ic["wb0"]["iops_ratio"]
        check(abs(r["median"] - 0.98) < 1e-9 and abs(r["min"] - 0.97) < 1e-9 and abs(r["max"] - 0.99) < 1e-9,
              "icount ratio is the per-round median [min-max] against the same round's dm-linear", str(r))
        check(abs(ic["lin"]["instructions_per_io"] - 1e9 / 10000 / 16) < 1e-6,
              "instructions per I/O = 1e9 / IOPS / 2^shift", str(ic["lin"]["instructions_per_io"]))
        vt = {(c["engine"], c["target"]): c for c in doc["virtio"]["summary"]}
        check(("io_uring-qd16", "wb1k") in vt, "engine names keep their iodepth suffix", str(sorted(vt)))
        c = vt[("psync", "wb1k")]
        check(abs(c["iops_ratio"]["min"] - 0.5) < 1e-9 and abs(c["iops_ratio"]["max"] - 1.0) < 1e-9,
              "virtio ratio spread spans the rounds", str(c["iops_ratio"]))
        check(abs(c["clat_p99_us"]["median"] - 800) < 1e-9 and abs(c["clat_p99_ratio"]["median"] - 2) < 1e-9,
              "latency percentiles in µs and p99 ratio to dm-linear", str(c["clat_p99_us"]))
        svg = open(os.path.join(out, "bench-latency.svg")).read()
        check(svg.count("<polyline") == 4, "chart draws one curve per engine and target", str(svg.count("<polyline")))
        check(abs(doc["boot"]["wall_s"]["median"] - 5.0) < 1e-9 and doc["boot"]["wall_s"]["max"] == 6.0,
              "boot wall time median [min-max]", str(doc["boot"]["wall_s"]))
        check(doc["scenarios"]["wall_s"] == 480.5 and len(doc["scenarios"]["suites"]) == 2,
              "scenario suite wall time and its suites", str(doc["scenarios"]))
        ph = doc["scenarios"].get("phases", {})
        check(ph.get("instances") == 2 and ph.get("secs") == {"device": 1.0, "mkfs": 3.0, "steps": 4.0},
              "phases summed over the instances that ran (a skipped one left out)", str(ph))
        md = open(os.path.join(out, "bench.md")).read()
        check("| mkfs | 3.0 | 38% | 1.50 |" in md and "| all | 8.0 | 100% | 4.00 |" in md,
              "bench.md: a row per phase with its share and mean, and the total", md[-600:])
        md = open(os.path.join(out, "bench.md")).read()
        check("0.980 [0.970-0.990]" in md, "bench.md shows the icount cell", "")

        # A failed default suite makes the report (and so make bench) fail.
        write(f"{bench}/scenarios/timing.txt", "wall=30.0 status=1 accel=tcg\nsuite guest-scenarios rc=1 secs=20.0\n")
        rc, text = run(bench, out)
        check(rc == 1 and "FAILED" in open(os.path.join(out, "bench.md")).read(),
              "a failed scenario suite fails the report and says so", text[-200:])
        # A fio error is refused, not averaged in.
        write(f"{bench}/icount/bench/psync-wb0-r1.json", fio_json(1, 1, 1, error=5))
        rc, text = run(bench, out)
        check(rc != 0 and "fio error 5" in text, "a fio run with an error is refused", text[-200:])
        rc, text = run(os.path.join(tmp, "empty"), out)
        check(rc != 0 and "no results" in text, "no input is an error", text[-200:])

    return done()


if __name__ == "__main__":
    sys.exit(main())
