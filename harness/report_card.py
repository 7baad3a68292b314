#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The fsync report card: real applications under write-back faults, side by side.

Input: a results directory of a run of program-mode scenarios (`make
report-card` runs scenarios/programs; `make run SCENARIOS=...` leaves the
same), which its manifest.txt lists (lib/sh/manifest.sh): the results.json
wberr-run wrote (tools/wberr-run/report.c: each instance's verdict, the
statuses its plan told the device, its checks, and the program's promise
and finding from its YAML) and each instance's evidence under
programs/<id>/ (meta.txt, plan.txt, report.json, timeline.txt, and the
program's and the checker's output).

Output: one row per application configuration x file system x status
class (the errno the status maps to, from lib/c's table through
wberr-names: EIO, ENOSPC, ETIMEDOUT, ...), as markdown and CSV: which
process saw the error through which call and errno (report.json's
verdicts), what the application did (run.sh's last "did:" line), whether
what it acknowledged was intact after the recovery and whether it
restarted without repair (check.sh's "intact:" and "restart:" lines), the
instance's verdict against its YAML (a finding is asserted there with its
why), and the application's own promise with the source it cites.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import read_manifest  # noqa: E402
from manifest import evidence_name  # noqa: E402

COLUMNS = ["application", "fs", "class", "status", "saw the error", "what it did",
           "acknowledged data intact", "restarted without repair", "verdict", "finding", "promise (source)"]


def status_errnos(names):
    """status name -> errno name, from lib/c's table (wberr-names statuses: name blk_sts ERRNAME errno)."""
    out = subprocess.run([names, "statuses"], check=True, capture_output=True, text=True).stdout
    return {w[0]: w[2] for w in (line.split() for line in out.splitlines()) if len(w) >= 4}


def read_text(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def last_value(text, key):
    """The value of the last "key: value" line of text, or None."""
    found = None
    for line in text.splitlines():
        if line.startswith(key + ":"):
            found = line[len(key) + 1:].strip()
    return found


def seers(report):
    """'comm[pid] call errno' for each process that saw a fault, from report.json, in order, once."""
    calls = report.get("calls", [])
    out = []
    for fault in report.get("faults", []):
        for s in fault.get("seen_by", []):
            c = calls[s["call"]] if 0 <= s.get("call", -1) < len(calls) else None
            if c is None:
                text = "a task outside any traced call"
            else:
                text = f"{c['comm']}[{c['tgid'] or c['tid']}] {c['sys'] or c['kind']} {c['errno'] or '0'}"
            if text not in out:
                out.append(text)
    return out


def saw_cell(report, verdicts):
    """The 'saw the error' cell: who, or the fault's verdict when nobody did."""
    who = seers(report)
    if who:
        return "; ".join(who[:3]) + (f" (+{len(who) - 3})" if len(who) > 3 else "")
    return "nobody (" + ", ".join(verdicts or ["no fault judged"]) + ")"


def row_of(rdir, inst, errnos):
    """One card row for a program instance of results.json, from its evidence directory."""
    pdir = os.path.join(rdir, "programs", evidence_name(inst["id"]))
    report = json.loads(read_text(os.path.join(pdir, "report.json")) or "{}")
    verdicts = [f["verdict"] for f in report.get("faults", [])]
    out, chk = read_text(os.path.join(pdir, "program.out")), read_text(os.path.join(pdir, "check.out"))
    status = inst.get("status") or ",".join(inst.get("statuses", [])) or "-"
    finding = inst.get("why") if inst.get("expect", {}).get("check") == "fail" or \
        inst.get("expect", {}).get("errors") not in (None, "seen") else None
    return {
        "application": inst["scenario"], "fs": inst["fs"], "status": status,
        "class": errnos.get(status, "?"),
        "saw the error": saw_cell(report, verdicts) if report else "no report.json",
        "what it did": last_value(out, "did") or "?",
        "acknowledged data intact": last_value(chk, "intact") or "?",
        "restarted without repair": {"ok": "yes", "needs repair": "no"}.get(last_value(chk, "restart"), "?"),
        "verdict": inst["verdict"] + ("" if inst["verdict"] != "fail" else f": {(inst.get('reason') or '')[:160]}"),
        "finding": " ".join((finding or "").split()) or "-",
        "promise (source)": " ".join((inst.get("promise") or "none given").split()),
        "_dir": os.path.relpath(pdir, rdir), "_secs": inst.get("secs", 0.0),
    }


def load(rdir, names):
    """Every program instance of the run's results.json files, as card rows, in card order."""
    rows, errnos = [], status_errnos(names)
    for kind, path, _, _ in read_manifest(rdir):
        if kind != "results-json":
            continue
        for inst in json.loads(read_text(os.path.join(rdir, path))).get("instances", []):
            if "checks" in inst and inst["verdict"] != "skip":
                rows.append(row_of(rdir, inst, errnos))
    if not rows:
        raise SystemExit(f"report-card: no program instance ran in {rdir} (its manifest lists no results.json "
                         "with one): run `make report-card`")
    return sorted(rows, key=lambda r: (r["application"], r["fs"], r["class"]))


def md_cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


PROMISE = "promise (source)"
DEMO_COLUMNS = ["application", "fs", "class", "status", "saw the error", "verdict"]


def write_table(f, rows, columns):
    f.write("| " + " | ".join(columns) + " |\n|" + "---|" * len(columns) + "\n")
    for r in rows:
        f.write("| " + " | ".join(md_cell(r[c]) for c in columns) + " |\n")


def write_md(path, rows, command, kernel):
    """The card: the applications' table, each one's promise once, and the
    program scenarios that cite no promise (the harness's own demonstrations,
    not applications) in a short table of their own."""
    apps = [r for r in rows if r[PROMISE] != "none given"]
    demos = [r for r in rows if r[PROMISE] == "none given"]
    promises = {r["application"]: r[PROMISE] for r in apps}
    n_fail = sum(r["verdict"].startswith("fail") for r in rows)
    with open(path, "w") as f:
        f.write("# The fsync report card\n\n")
        f.write("Real applications from Debian 12's packages under write-back faults on a real kernel "
                f"({kernel}), one row per application configuration x file system x status class.  "
                f"Generated by `{command}` (harness/report_card.py) from the run's results.json and each "
                "instance's evidence (build/results-card/programs/<instance>/: timeline.txt, report.json, "
                "plan.txt, meta.txt); do not edit by hand.  docs/report-card.csv has the same rows, each "
                "with its promise, its evidence directory and its time.\n\n")
        f.write(f"{len(apps)} rows, {len(promises)} configurations, {n_fail} of {len(rows)} program "
                "instances failing their YAML's expectation.  "
                "Columns: who saw the error (process, call, errno: the sync-family call whose errseq cursor "
                "consumed it), what the application did (its run script's `did:` line), whether every "
                "acknowledged item was intact after the operator's recovery (kill, clear the fault, drop "
                "caches, restart) and whether it restarted without manual repair (its checker's `intact:` "
                "and `restart:` lines), the verdict against the scenario's YAML, and the finding asserted "
                "there with its why.  What each application's own source promises follows the table.\n\n")
        write_table(f, apps, [c for c in COLUMNS if c != PROMISE])
        f.write("\n## What each application's source promises on a failed fsync\n\n")
        for app in sorted(promises):
            f.write(f"- **{app}**: {promises[app]}\n")
        if demos:
            f.write("\n## The harness's own program scenarios (no application, no promise)\n\n")
            write_table(f, demos, DEMO_COLUMNS)


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS + ["evidence", "secs"])
        for r in rows:
            w.writerow([r[c] for c in COLUMNS] + [r["_dir"], f"{r['_secs']:.1f}"])


def kernel_of(rdir):
    for kind, path, _, _ in read_manifest(rdir):
        if kind == "results-json":
            k = json.loads(read_text(os.path.join(rdir, path))).get("kernel") or {}
            return k.get("release") or "unknown kernel"
    return "unknown kernel"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", required=True, help="the run's results directory")
    ap.add_argument("--md", required=True, help="the markdown card to write")
    ap.add_argument("--csv", required=True, help="the CSV to write")
    ap.add_argument("--names", required=True, help="lib/c's wberr-names (the status table)")
    ap.add_argument("--command", default="make report-card", help="the command the card names")
    a = ap.parse_args()
    rows = load(a.results, a.names)
    write_md(a.md, rows, a.command, kernel_of(a.results))
    write_csv(a.csv, rows)
    apps = [r for r in rows if r[PROMISE] != "none given"]
    print(f"[report-card] {a.md}, {a.csv}: {len(apps)} rows, "
          f"{len({r['application'] for r in apps})} configurations, "
          f"{len(rows) - len(apps)} rows of the harness's own program scenarios")


if __name__ == "__main__":
    main()
