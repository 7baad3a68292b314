#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Put the scenario results of several kernels side by side: compare.md, compare.json.

Input: one results directory per kernel, as `make run KERNEL=...` leaves it
(build/results, build/results-debian-6.12, ...), each holding the
results.json wberr-run writes (tools/wberr-run/report.c: the kernel, its
statuses, every instance with its verdict and what each step returned).
Which files are there, the results.json, the TAP files and the instances'
evidence, comes from the directory's manifest.txt (lib/sh/manifest.sh).

A row is a scenario instance (fs/name[status]) or, for the errno-fidelity
matrix, an fs x status x labelled call; a column is a kernel.  An
instance's outcome on a kernel is its verdict and the errno of every call
the oracle judged, in order; a row differs when two kernels that ran it
disagree, or when one skipped it (a status that kernel lacks).  Differing
cells are in bold, and each failed or skipped cell says why and links to
its evidence (the TAP file, and the instance's evidence directory when the
run kept one).
"""
import argparse
import json
import os
import sys

import manifest  # harness/manifest.py: the results manifest, as lib/sh/manifest.sh reads it


def read_manifest(rdir):
    """RESULTS_DIR/manifest.txt: (kind, path, suite, boot) rows, a path once (its last line)."""
    rows = manifest.read_manifest(rdir)
    if rows is None:
        raise SystemExit(f"compare: no manifest.txt in {rdir}, which lists its results "
                         "(run `make run KERNEL=...` first)")
    return rows


def find_results(rdir, rows):
    """The scenario suite's results.json (program mode writes one too, in another boot)."""
    found = [(suite, path) for kind, path, suite, _ in rows if kind == "results-json"]
    if not found:
        raise SystemExit(f"compare: no results.json in {rdir}'s manifest (run `make run KERNEL=...` first)")
    scen = [path for suite, path in found if suite.startswith("scenarios")]
    return os.path.join(rdir, (scen or [found[0][1]])[0])


def outcome(inst):
    """(verdict, the errnos of the judged calls and what each classified read found, in order)."""
    calls = []
    for s in inst.get("steps", []):
        if not s.get("ran"):
            continue
        if s.get("checked"):
            calls.append(s.get("errno") or "?")
        if s.get("content"):
            calls.append("read:" + s["content"])
    return inst["verdict"], tuple(calls)


def load(name, rdir, out_dir):
    rows = read_manifest(rdir)
    rpath = find_results(rdir, rows)
    with open(rpath) as f:
        data = json.load(f)
    # the scenario suite's own TAP first
    taps = sorted((os.path.join(rdir, path) for kind, path, _, _ in rows if kind.startswith("tap/")),
                  key=lambda p: (os.path.basename(p) != "scenarios.tap", p))
    evidence = {os.path.basename(path): os.path.join(rdir, path)
                for kind, path, _, _ in rows if kind == "evidence"}
    rel = lambda p: os.path.relpath(p, out_dir)
    kern = {"name": name, "results": rel(rpath), "tap": rel(taps[0]) if taps else None,
            "release": data["kernel"].get("release"), "series": data["kernel"].get("series"),
            "statuses": data["kernel"].get("statuses"), "instances": {}}
    for inst in data["instances"]:
        ev = evidence.get(manifest.evidence_name(inst["id"]))
        inst["evidence"] = rel(ev) if ev else None
        kern["instances"][inst["id"]] = inst
    return kern


def cell_text(inst):
    if inst is None:
        return "not run"
    verdict, calls = outcome(inst)
    mark = {"pass": "pass", "fail": "FAIL", "skip": "skip"}[verdict]
    text = mark
    if calls:
        text += " `" + " ".join(calls) + "`"
    return text


def compare(kernels):
    ids = []
    for k in kernels:
        for i in k["instances"]:
            if i not in ids:
                ids.append(i)
    rows = []
    for i in ids:
        cells = {k["name"]: k["instances"].get(i) for k in kernels}
        outs = {n: outcome(c) if c else None for n, c in cells.items()}
        differs = len(set(outs.values())) > 1
        first = next(c for c in cells.values() if c)
        rows.append({"id": i, "scenario": first["scenario"], "fs": first["fs"],
                     "status": first["status"], "guarantee": first.get("guarantee"),
                     "differs": differs, "cells": {
                         n: None if c is None else {
                             "verdict": c["verdict"], "calls": list(outcome(c)[1]),
                             "reason": c.get("reason"), "evidence": c.get("evidence")}
                         for n, c in cells.items()}})
    fid = {}
    for k in kernels:
        for inst in k["instances"].values():
            if not inst.get("fidelity") or not inst.get("status"):
                continue
            for s in inst.get("steps", []):
                if not s.get("label"):
                    continue
                key = (inst["fs"], inst["status"], s["label"])
                row = fid.setdefault(key, {})
                if inst["verdict"] == "skip":
                    row[k["name"]] = "absent"
                elif s.get("ran"):
                    row[k["name"]] = s.get("errno") or "?"
    fidelity = []
    for (fs, status, label), cells in fid.items():
        vals = [cells.get(k["name"]) for k in kernels]
        fidelity.append({"fs": fs, "status": status, "call": label,
                         "differs": len(set(vals)) > 1,
                         "cells": {k["name"]: cells.get(k["name"]) for k in kernels}})
    return rows, fidelity


def md_cell(text, bold, link=None):
    t = text.replace("|", "\\|")
    if link:
        t = f"[{t}]({link})"
    return f"**{t}**" if bold else t


def write_md(f, kernels, rows, fidelity):
    names = [k["name"] for k in kernels]
    f.write("# What fsync reports, kernel by kernel\n\n")
    f.write("Generated by `make compare` (harness/compare.py) from each kernel's `results.json`. "
            "A cell is the instance's verdict and the errno of every call the oracle judged, in "
            "order, with `read:new|old|zero|mixed` for each classified read; **bold** marks a "
            "row whose kernels disagree.\n\n")
    f.write("| kernel | release | kernel/patches | statuses | pass | fail | skip | results |\n")
    f.write("|---|---|---|---|---|---|---|---|\n")
    for k in kernels:
        v = [i["verdict"] for i in k["instances"].values()]
        st = k["statuses"]
        series = {True: "yes", False: "no", None: "unknown"}[k["series"]]
        link = f"[results.json]({k['results']})" + (f", [TAP]({k['tap']})" if k["tap"] else "")
        f.write(f"| {k['name']} | {k['release']} | {series} | "
                f"{len(st) if st else 'not read'} | {v.count('pass')} | {v.count('fail')} | "
                f"{v.count('skip')} | {link} |\n")
    diff = [r for r in rows if r["differs"]]
    f.write(f"\n## Scenario instances that differ ({len(diff)} of {len(rows)})\n\n")
    if diff:
        f.write("| instance | " + " | ".join(names) + " |\n")
        f.write("|---|" + "---|" * len(names) + "\n")
        for r in diff:
            cells = []
            for n in names:
                c = r["cells"][n]
                inst = kernels[names.index(n)]["instances"].get(r["id"])
                text = cell_text(inst)
                if c and c["verdict"] != "pass" and c["reason"]:
                    text += ": " + c["reason"][:160]
                link = (c or {}).get("evidence") or (kernels[names.index(n)]["tap"]
                                                   if c and c["verdict"] == "fail" else None)
                cells.append(md_cell(text, True, link))
            f.write(f"| {r['id']} | " + " | ".join(cells) + " |\n")
    fdiff = [r for r in fidelity if r["differs"]]
    f.write(f"\n## Errno fidelity: fs x status x call ({len(fdiff)} of {len(fidelity)} cells differ)\n\n")
    if fdiff:
        f.write("| fs | status | call | " + " | ".join(names) + " |\n")
        f.write("|---|---|---|" + "---|" * len(names) + "\n")
        for r in fdiff:
            cells = [md_cell(r["cells"][n] or "not run", True) for n in names]
            f.write(f"| {r['fs']} | {r['status']} | {r['call']} | " + " | ".join(cells) + " |\n")
    same = sorted({(r["fs"], r["call"]) for r in fidelity if not r["differs"]})
    if same:
        f.write(f"\nThe same on every kernel ({len(fidelity) - len(fdiff)} cells; every cell is in "
                "compare.json): " + ", ".join(f"{fs} {call}" for fs, call in same) +
                " for the statuses not listed above.\n")
    same = [r for r in rows if not r["differs"]]
    f.write(f"\n## The same on every kernel ({len(same)})\n\n")
    for r in same:
        c = next(v for v in r["cells"].values() if v)
        f.write(f"- {r['id']}: {c['verdict']}" + (f" `{' '.join(c['calls'])}`" if c["calls"] else "") + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="directory for compare.md and compare.json")
    ap.add_argument("kernels", nargs="+", metavar="NAME=RESULTS_DIR")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    kernels = []
    for spec in a.kernels:
        name, sep, path = spec.partition("=")
        if not sep or not name or not path:
            ap.error(f"'{spec}': expected NAME=RESULTS_DIR")
        kernels.append(load(name, path, a.out))
    rows, fidelity = compare(kernels)
    with open(os.path.join(a.out, "compare.json"), "w") as f:
        json.dump({"kernels": [{k: v for k, v in kern.items() if k != "instances"} for kern in kernels],
                   "instances": rows, "fidelity": fidelity}, f, indent=1)
        f.write("\n")
    with open(os.path.join(a.out, "compare.md"), "w") as f:
        write_md(f, kernels, rows, fidelity)
    ndiff = sum(r["differs"] for r in rows)
    nfail = sum(1 for k in kernels for i in k["instances"].values() if i["verdict"] == "fail")
    print(f"compare: {len(kernels)} kernels, {len(rows)} instances, {ndiff} differ, "
          f"{sum(r['differs'] for r in fidelity)} of {len(fidelity)} fidelity cells differ, "
          f"{nfail} failed; {os.path.join(a.out, 'compare.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
