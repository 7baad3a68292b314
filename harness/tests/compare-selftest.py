#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host check of harness/compare.py on two synthetic results.json files, as TAP.

The "6.1" run differs from the "6.12" one in exactly three places: one
instance's judged calls (EIO where 6.12 returns ETIMEDOUT), one instance
skipped (a status 6.1 lacks) and one fidelity cell; a fourth instance is
the same on both.  The comparison must find those three and no others.
Each results directory says what it holds in its manifest.txt, as a run
writes it; compare.py finds results.json, TAP and evidence there only.
"""
import json
import os
import subprocess
import sys
import tempfile
from taplib import check, done  # noqa: E402  (harness/tests/taplib.py)

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "..", "compare.py")


def step(n, op, errno, label=None, checked=True, ran=True):
    return {"n": n, "line": n, "op": op, "label": label, "ran": ran, "errno": errno,
            "checked": checked, "expected": errno, "pass": True, "msg": None}


def inst(iid, status, verdict, steps, fidelity=False, reason=None):
    fs, _, rest = iid.partition("/")
    return {"id": iid, "scenario": rest.split("[")[0], "file": "x.yaml", "guarantee": "g",
            "fs": fs, "status": status, "fidelity": fidelity, "verdict": verdict,
            "secs": 1.0, "reason": reason, "steps": steps}


def listed(rdir, kind, path, suite="scenarios/001"):
    """A line of rdir's manifest.txt (lib/sh/manifest.sh), as the guest writes it."""
    with open(os.path.join(rdir, "manifest.txt"), "a") as f:
        f.write(f"{kind} {path} {suite} run\n")


def results_json(path, release, series, statuses, instances):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "results.json"), "w") as f:
        json.dump({"kernel": {"release": release, "series": series, "statuses": statuses},
                   "instances": instances}, f)
    listed(path, "results-json", "results.json")
    with open(os.path.join(path, "scenarios.tap"), "w") as f:
        f.write("TAP version 14\n")
    listed(path, "tap/group", "scenarios.tap", "scenarios")


def main():
    tmp = tempfile.mkdtemp()
    same = inst("xfs/all-fds[timeout]", "timeout", "pass",
                [step(3, "fsync", "ETIMEDOUT"), step(4, "fsync", "0")])
    a = os.path.join(tmp, "a")
    b = os.path.join(tmp, "b")
    results_json(a, "6.12.118", True, {"timeout": 2, "inval": 19}, [
        same,
        inst("ext4/o-dsync[timeout]", "timeout", "pass", [step(7, "pwrite", "ETIMEDOUT")]),
        inst("ext4/fid[inval]", "inval", "pass",
             [step(2, "fsync", "EINVAL", label="buffered-fsync")], fidelity=True),
        inst("ext4/fid[timeout]", "timeout", "pass",
             [step(2, "fsync", "ETIMEDOUT", label="buffered-fsync")], fidelity=True),
    ])
    results_json(b, "6.1.0-57-amd64", False, {"timeout": 2}, [
        same,
        inst("ext4/o-dsync[timeout]", "timeout", "fail", [step(7, "pwrite", "EIO")],
             reason="step 7 returned EIO"),
        inst("ext4/fid[inval]", "inval", "skip", [step(2, "fsync", None, label="buffered-fsync",
                                                       ran=False)],
             fidelity=True, reason="status 'inval' does not exist in 6.1.0-57-amd64"),
        inst("ext4/fid[timeout]", "timeout", "pass",
             [step(2, "fsync", "EIO", label="buffered-fsync")], fidelity=True),
    ])
    os.makedirs(os.path.join(b, "evidence", "ext4_o-dsync_timeout_"))
    listed(b, "evidence", "evidence/ext4_o-dsync_timeout_")
    # on disk but not in the manifest: not the run's, not linked
    os.makedirs(os.path.join(a, "evidence", "ext4_o-dsync_timeout_"))
    # program mode's results.json, in a boot of its own: not the scenarios'
    os.makedirs(os.path.join(b, "apps"))
    with open(os.path.join(b, "apps", "results.json"), "w") as f:
        f.write("{}")
    listed(b, "results-json", "apps/results.json", "apps/002")
    out = os.path.join(tmp, "out")
    p = subprocess.run([sys.executable, COMPARE, "--out", out, f"6.12={tmp}/a", f"6.1={tmp}/b"],
                       capture_output=True, text=True)
    check(p.returncode == 0, "compare.py exits 0", p.stderr)
    check("4 instances, 3 differ" in p.stdout, "summary line counts the differences", p.stdout)
    with open(os.path.join(out, "compare.json")) as f:
        data = json.load(f)
    diff = sorted(r["id"] for r in data["instances"] if r["differs"])
    check(diff == ["ext4/fid[inval]", "ext4/fid[timeout]", "ext4/o-dsync[timeout]"],
          "exactly the three differing instances", str(diff))
    fid = {(r["status"], r["call"]): r for r in data["fidelity"]}
    check(fid[("inval", "buffered-fsync")]["cells"] == {"6.12": "EINVAL", "6.1": "absent"},
          "a status the kernel lacks is 'absent' in the fidelity matrix",
          str(fid[("inval", "buffered-fsync")]))
    check(fid[("timeout", "buffered-fsync")]["differs"], "EIO vs ETIMEDOUT is a fidelity difference")
    cells = {r["id"]: r["cells"] for r in data["instances"]}["ext4/o-dsync[timeout]"]
    check(cells["6.12"]["evidence"] is None and cells["6.1"]["evidence"] == "../b/evidence/ext4_o-dsync_timeout_",
          "evidence only where the manifest lists it (a directory it does not list is not the run's)", str(cells))
    check([k["release"] for k in data["kernels"]] == ["6.12.118", "6.1.0-57-amd64"],
          "kernels in the order given, with their releases")
    with open(os.path.join(out, "compare.md")) as f:
        md = f.read()
    check("| ext4/o-dsync[timeout] | **pass `ETIMEDOUT`** | **[FAIL `EIO`: step 7 returned EIO]"
          "(../b/evidence/ext4_o-dsync_timeout_)** |" in md,
          "a differing row: bold cells, the failure's reason linked to its evidence (the manifest's)", md)
    check([k["tap"] for k in data["kernels"]] == ["../a/scenarios.tap", "../b/scenarios.tap"],
          "each kernel's scenario TAP, from its manifest", str([k["tap"] for k in data["kernels"]]))
    check("| ext4 | timeout | buffered-fsync | **ETIMEDOUT** | **EIO** |" in md,
          "the fidelity row in bold")
    check("- xfs/all-fds[timeout]: pass `ETIMEDOUT 0`" in md, "the same row listed once, not bold")
    os.makedirs(os.path.join(tmp, "nothing"))
    bad = subprocess.run([sys.executable, COMPARE, "--out", out, f"x={tmp}/nothing"],
                         capture_output=True, text=True)
    check(bad.returncode != 0 and "no manifest.txt" in bad.stderr,
          "a directory without a manifest is an error that says so", bad.stderr)
    listed(os.path.join(tmp, "nothing"), "tap/group", "scenarios.tap", "scenarios")
    bad = subprocess.run([sys.executable, COMPARE, "--out", out, f"x={tmp}/nothing"],
                         capture_output=True, text=True)
    check(bad.returncode != 0 and "no results.json" in bad.stderr,
          "a directory whose manifest lists no results.json is an error that says so", bad.stderr)
    return done()


if __name__ == "__main__":
    sys.exit(main())
