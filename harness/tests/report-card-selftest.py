#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host check of harness/report_card.py on a synthetic run, as TAP.

Three program instances, as wberr-run leaves them (results.json listed in
the manifest, each instance's programs/<id>/ with report.json, program.out
and check.out): one whose fault a process saw and whose data survived, one
asserting a finding (check: fail with its why), one whose fault nobody saw;
and a scenario instance, which is no application and gets no row.  The
card must have a row per program instance with who saw the error (process,
call, errno), what the program did, intact and restart, the class of its
status from lib/c's table (wberr-names), the finding and the promise.
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
from taplib import check, done  # noqa: E402  (harness/tests/taplib.py)

HERE = os.path.dirname(os.path.abspath(__file__))
CARD = os.path.join(HERE, "..", "report_card.py")
NAMES = os.path.join(HERE, "..", "..", "build", "lib", "wberr-names")


def program(rdir, iid, report, did, intact, restart):
    d = os.path.join(rdir, "programs", "".join(c if c.isalnum() or c in "._+-" else "_" for c in iid))
    os.makedirs(d)
    with open(os.path.join(d, "report.json"), "w") as f:
        json.dump(report, f)
    with open(os.path.join(d, "program.out"), "w") as f:
        f.write(f"SET k1: OK\ndid: {did}\n")
    with open(os.path.join(d, "check.out"), "w") as f:
        f.write(f"restart: {restart}\nintact: {intact}\n")


def inst(iid, status, verdict, promise, expect, why=None):
    fs, _, rest = iid.partition("/")
    return {"id": iid, "scenario": rest.split("[")[0], "fs": fs, "status": status, "verdict": verdict,
            "secs": 3.5, "reason": "check: exit status 1" if verdict == "fail" else None,
            "statuses": [status], "promise": promise, "why": why, "expect": expect, "checks": []}


def fixture(rdir):
    call = {"comm": "redis-server", "tid": 81, "tgid": 80, "sys": "fdatasync", "kind": "fdatasync", "errno": "EIO"}
    seen = {"calls": [call], "faults": [{"id": 0, "verdict": "seen", "seen_by": [{"call": 0}]}]}
    lost = {"calls": [], "faults": [{"id": 0, "verdict": "lost", "seen_by": []}]}
    program(rdir, "ext4/redis-aof-always[ioerr]", seen, "exit", "yes", "ok")
    program(rdir, "xfs/pg-retry[nospc]", seen, "retry", "no", "ok")
    program(rdir, "xfs/lmdb[timeout]", lost, "continued", "yes", "needs repair")
    program(rdir, "ext4/append-demo[ioerr]", seen, "", "", "")
    ok = {"program": "zero", "check": "pass", "errors": "seen"}
    insts = [inst("ext4/redis-aof-always[ioerr]", "ioerr", "pass", "src/aof.c flushAppendOnlyFile(): exit", ok),
             inst("xfs/pg-retry[nospc]", "nospc", "pass", "fd.c data_sync_elevel(): retry",
                  dict(ok, check="fail"), why="the retry\nloses it"),
             inst("xfs/lmdb[timeout]", "timeout", "fail", "mdb.c mdb_txn_commit(): abort", ok),
             inst("ext4/append-demo[ioerr]", "ioerr", "pass", None, ok),
             {"id": "ext4/all-fds", "scenario": "all-fds", "fs": "ext4", "status": None, "verdict": "pass",
              "steps": []}]
    with open(os.path.join(rdir, "results.json"), "w") as f:
        json.dump({"kernel": {"release": "6.12.118-test"}, "instances": insts}, f)
    with open(os.path.join(rdir, "manifest.txt"), "w") as f:
        f.write("results-json results.json scenarios/001 run\n")


def main():
    tmp = tempfile.mkdtemp()
    rdir = os.path.join(tmp, "results")
    os.makedirs(rdir)
    fixture(rdir)
    md, cs = os.path.join(tmp, "card.md"), os.path.join(tmp, "card.csv")
    run = subprocess.run([sys.executable, CARD, "--results", rdir, "--names", NAMES, "--md", md, "--csv", cs,
                          "--command", "make report-card"], capture_output=True, text=True)
    check(run.returncode == 0, "report_card.py runs", run.stderr)
    rows = list(csv.DictReader(open(cs))) if run.returncode == 0 else []
    check(len(rows) == 4, "a row per program instance, none for a scenario instance", str(len(rows)))
    by = {r["application"]: r for r in rows}
    r = by.get("redis-aof-always", {})
    check(r.get("saw the error") == "redis-server[80] fdatasync EIO", "who saw it: process, call, errno",
          r.get("saw the error", ""))
    check((r.get("class"), r.get("what it did"), r.get("acknowledged data intact"),
           r.get("restarted without repair")) == ("EIO", "exit", "yes", "yes"),
          "class from lib/c's table, did, intact, restart", str(r))
    check(r.get("promise (source)") == "src/aof.c flushAppendOnlyFile(): exit", "the promise cited")
    p = by.get("pg-retry", {})
    check(p.get("finding") == "the retry loses it" and p.get("class") == "ENOSPC",
          "a finding with its why, on one line", str(p))
    m = by.get("lmdb", {})
    check(m.get("saw the error") == "nobody (lost)" and m.get("restarted without repair") == "no"
          and m.get("verdict", "").startswith("fail: check"), "nobody saw it, restart needs repair, the failure",
          str(m))
    text = open(md).read() if os.path.exists(md) else ""
    card, _, rest = text.partition("\n## What each application's source promises")
    promises, _, demos = rest.partition("\n## The harness's own program scenarios")
    check("6.12.118-test" in text and "`make report-card`" in text and card.count("\n| ") == 4
          and "promise" not in next((ln for ln in card.splitlines() if ln.startswith("| application")), "promise"), "the markdown names the kernel and the command, a header "
          "and three application rows, without the promise column", text[:300])
    check(promises.count("src/aof.c flushAppendOnlyFile(): exit") == 1 and promises.count("\n- **") == 3,
          "each application's promise once, after the table", promises)
    check(demos.count("\n| ") == 2 and "append-demo" in demos and "append-demo" not in card,
          "a program that cites no promise is the harness's own, in a table of its own", demos)
    check(run.returncode == 0 and "3 rows, 3 configurations, 1 rows of the harness's own" in run.stdout,
          "it says what it wrote", run.stdout)
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    with open(os.path.join(empty, "manifest.txt"), "w") as f:
        f.write("")
    run = subprocess.run([sys.executable, CARD, "--results", empty, "--names", NAMES, "--md", md, "--csv", cs],
                         capture_output=True, text=True)
    check(run.returncode != 0 and "no program instance" in run.stderr, "a run without programs is refused",
          run.stderr)
    return done()


if __name__ == "__main__":
    sys.exit(main())
