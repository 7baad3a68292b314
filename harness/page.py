#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The results page: RESULTS_DIR/index.html, one self-contained page per run.

    page.py [--compare COMPARE_JSON] RESULTS_DIR

What is there comes from RESULTS_DIR/manifest.txt (harness/manifest.py;
a merged `make test` directory through each shard's own manifest), never
from file names: the scenario runner's results.json (the summary, the
failed instances), errno-fidelity.csv and content-after-failure.csv (the
tables as wberr-run made them), each program instance's report.json (its
timeline, drawn in SVG), junit.xml (report.sh's totals per suite), and
compare.py's compare.json when `make compare` names one.  Every other
artifact the manifest lists is linked.  No script, no style sheet or font
from elsewhere: the page works as a CI artifact opened from disk.
"""
import argparse
import csv
import html
import json
import os
import sys
import xml.etree.ElementTree as ET

import manifest  # harness/manifest.py: the results manifest, as lib/sh/manifest.sh reads it
import timeline  # harness/timeline.py: a program instance's report.json in SVG

CSS = """
body { font: 14px/1.4 "DejaVu Sans", sans-serif; margin: 0 24px 40px; color: #1b1b1b; max-width: 1500px; }
h1 { font-size: 22px; margin: 18px 0 4px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #ccc; }
h3 { font-size: 15px; margin: 20px 0 6px; }
nav a { margin-right: 14px; } code, .mono { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; }
table { border-collapse: collapse; margin: 6px 0; } th, td { border: 1px solid #ccc; padding: 2px 7px; text-align: left; vertical-align: top; }
th { background: #f1f1f1; font-weight: 600; }
.totals { font-size: 18px; font-weight: 600; margin: 8px 0; }
.pass, .holds { background: #e3f4e1; } .fail, .fails { background: #fbdada; font-weight: 600; } .skip, .skipped { background: #eee; color: #555; }
.badge { padding: 0 6px; border-radius: 3px; font-size: 12px; font-weight: 600; }
.fid-same { background: #e3f4e1; } .fid-differs { background: #ffd27a; font-weight: 700; }
.fid-absent { background: #ddd; color: #666; } .fid-fail { outline: 2px solid #c62828; outline-offset: -2px; }
.ct-new { background: #e3f4e1; } .ct-old { background: #dbe9fb; } .ct-zero { background: #ffe0b2; }
.ct-mixed { background: #e9d7f5; } .ct-errno { background: #fbdada; } .ct-fail { outline: 2px solid #c62828; outline-offset: -2px; }
.reason { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; white-space: pre-wrap; max-width: 900px; }
.scroll { overflow-x: auto; border: 1px solid #ddd; margin: 6px 0; }
.legend span { display: inline-block; margin-right: 10px; padding: 0 6px; }
.muted { color: #666; }
"""


def esc(s):
    return html.escape("" if s is None else str(s), quote=True)


def link(rdir, path, text=None):
    """A relative link to PATH (relative to the page); the bare text when the run left no such file."""
    text = path if text is None else text
    if path and os.path.exists(os.path.join(rdir, path)):
        return f'<a href="{esc(path)}">{esc(text)}</a>'
    return f'{esc(text)} <span class="muted">(not there)</span>'


class Run:
    """What the manifest lists, read once."""

    def __init__(self, rdir):
        self.rdir = rdir
        self.entries = manifest.entries(rdir)
        self.instances = {}     # id -> instance of results.json, with "_json" (its path)
        self.kernel = None
        self.suite_of = {path: suite for _, path, suite, _ in self.entries}
        for path in self.paths("results-json"):
            self._read_results(path)
        # evidence and program directories by their instance's name (manifest.evidence_name)
        self.evidence = {os.path.basename(p): p for p in self.paths("evidence")}
        self.programs = {os.path.basename(p): p for p in self.paths("program")}

    def _read_results(self, path):
        try:
            with open(os.path.join(self.rdir, path)) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            print(f"page: {path}: {e}", file=sys.stderr)
            return
        self.kernel = self.kernel or data.get("kernel")
        for inst in data.get("instances", []):
            inst["_json"] = path
            self.instances[inst["id"]] = inst

    def paths(self, *kinds):
        """the paths of those kinds (a KIND ending in /* is a family, as manifest_lines takes it);
        every kind this page reads is asked for here, by name (harness/tests/channel-selftest.sh)"""
        return [p for k, p, _, _ in self.entries if k in kinds or any(
            x.endswith("/*") and k.startswith(x[:-1]) for x in kinds)]

    def tap_of(self, path):
        """the TAP file of the group whose test wrote PATH (suite scenarios/001: scenarios.tap), the
        one beside it first (a merged directory lists each shard's copy and the shard's own)"""
        group = self.suite_of.get(path, "-").split("/")[0]
        taps = [p for p in self.paths("tap/*") if self.suite_of[p] == group]
        near = [p for p in taps if os.path.dirname(p) == os.path.dirname(path)]
        return (near or taps or [None])[0]

    def tap_of_suite(self):
        """junit.xml's suite name (a TAP file's name without .tap) -> the TAP file"""
        return {os.path.basename(p)[:-4]: p for p in self.paths("tap/*") if p.endswith(".tap")}


def junit(run):
    """report.sh's junit.xml: totals, one row per suite, every failed test."""
    path = os.path.join(run.rdir, "junit.xml")
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    suites, failed = [], []
    for s in root.findall("testsuite"):
        n, f, k = (int(s.get(a, 0)) for a in ("tests", "failures", "skipped"))
        suites.append((s.get("name"), n - f - k, f, k))
        for c in s.findall("testcase"):
            fl = c.find("failure")
            if fl is not None:
                failed.append((s.get("name"), c.get("name"), fl.get("message"), (fl.text or "").strip()))
    t = {a: int(root.get(a, 0)) for a in ("tests", "failures", "skipped")}
    return {"passed": t["tests"] - t["failures"] - t["skipped"], "failed": t["failures"],
            "skipped": t["skipped"], "suites": suites, "failures": failed}


def section_head(run, ju):
    k = run.kernel or {}
    series = {True: "with kernel/patches", False: "without kernel/patches"}.get(k.get("series"), "")
    out = [f"<h1>wberr results: kernel {esc(k.get('release') or 'unknown')} {esc(series)}</h1>"]
    if ju:
        cls = "fail" if ju["failed"] else "pass"
        out.append(f'<p class="totals {cls}" id="totals">{ju["passed"]} passed, {ju["failed"]} failed, '
                   f'{ju["skipped"]} skipped</p>')
    else:
        out.append('<p class="totals fail" id="totals">no junit.xml: report.sh did not total this run</p>')
    out.append('<nav><a href="#summary">summary</a><a href="#failures">failures</a>'
               '<a href="#fidelity">errno fidelity</a><a href="#backends">real drivers</a><a href="#content">content after failure</a>'
               '<a href="#programs">program timelines</a><a href="#compare">kernels compared</a>'
               '<a href="#suites">suites</a><a href="#files">files</a></nav>')
    return out


def guarantee_rows(run):
    """report.c report_summary()'s grouping: per fs, one row per guarantee, page cache and DAX apart."""
    rows, order, fss = {}, [], []
    for inst in run.instances.values():
        if inst["fs"] not in fss:
            fss.append(inst["fs"])
        fs, g = inst["fs"], inst.get("guarantee") or inst["scenario"]
        if (fs, g) not in rows:
            rows[(fs, g)] = [[0, 0, 0], [0, 0, 0]]
            order.append((fs, g))
        col = rows[(fs, g)][1 if inst.get("dax") else 0]
        col[("pass", "fail", "skip").index(inst["verdict"])] += 1
    order.sort(key=lambda k: fss.index(k[0]))     # stable: a file system's guarantees in their order
    return rows, order


def summary_cell(c, present):
    if not present:
        return '<td class="muted">-</td>'
    p, f, s = c
    word = "FAILS" if f else "holds" if p else "skipped"
    return f'<td class="{word.lower()}">{word} ({p}/{p + f})</td>'


def section_summary(run):
    out = ['<h2 id="summary">Which guarantees hold, per file system</h2>']
    if not run.instances:
        return out + ["<p>No results.json in this run's manifest: the scenario runner did not finish "
                      "(see the console logs below).</p>"]
    v = [i["verdict"] for i in run.instances.values()]
    out.append(f"<p>{len(v)} instances: {v.count('pass')} passed, {v.count('fail')} failed, "
               f"{v.count('skip')} skipped.</p>")
    rows, order = guarantee_rows(run)
    dax = any(i.get("dax") for i in run.instances.values())
    seen = {(i["fs"], i.get("guarantee") or i["scenario"], bool(i.get("dax"))) for i in run.instances.values()}
    out.append('<table id="summary-table"><tr><th>file system</th><th>guarantee</th><th>page cache</th>'
               + ("<th>DAX</th>" if dax else "") + "</tr>")
    for fs, g in order:
        cells = summary_cell(rows[(fs, g)][0], (fs, g, False) in seen)
        if dax:
            cells += summary_cell(rows[(fs, g)][1], (fs, g, True) in seen)
        n = sum(1 for f, _ in order if f == fs)
        head = f'<th rowspan="{n}">{esc(fs)}</th>' if (fs, g) == next(k for k in order if k[0] == fs) else ""
        out.append(f'<tr class="summary-row">{head}<td>{esc(g)}</td>{cells}</tr>')
    return out + ["</table>"]


def instance_links(run, inst):
    name = manifest.evidence_name(inst["id"])
    links = []
    if name in run.evidence:
        links.append(link(run.rdir, run.evidence[name], "evidence"))
    if name in run.programs:
        links.append(f'<a href="#prog-{esc(name)}">timeline</a>')
        links.append(link(run.rdir, run.programs[name], "program directory"))
    tap = run.tap_of(inst["_json"])
    if tap:
        links.append(link(run.rdir, tap, "TAP"))
    return " ".join(links)


def section_failures(run, ju):
    out = ['<h2 id="failures">Failures</h2>']
    bad = [i for i in run.instances.values() if i["verdict"] == "fail"]
    out.append(f"<h3>Failed instances ({len(bad)})</h3>")
    if bad:
        out.append('<table id="failed-instances"><tr><th>instance</th><th>reason</th><th>evidence</th></tr>')
        for i in bad:
            out.append(f'<tr class="failed-instance"><td>{esc(i["id"])}</td>'
                       f'<td class="reason">{esc(i.get("reason") or "failed")}</td>'
                       f"<td>{instance_links(run, i)}</td></tr>")
        out.append("</table>")
    else:
        out.append("<p>None.</p>")
    fails = ju["failures"] if ju else []
    out.append(f"<h3>Every failed TAP result, all suites ({len(fails)})</h3>")
    if fails:
        taps = run.tap_of_suite()
        out.append('<table id="failed-tests"><tr><th>suite</th><th>test</th><th>why</th></tr>')
        for suite, name, msg, text in fails:
            where = link(run.rdir, taps[suite], suite) if suite in taps else esc(suite)
            first, _, rest = (text or msg or "").strip().partition("\n")
            why = (f"<details><summary>{esc(first)}</summary>{esc(rest[:4000])}</details>" if rest
                   else esc(first))
            out.append(f'<tr><td>{where}</td><td>{esc(name)}</td><td class="reason">{why}</td></tr>')
        out.append("</table>")
    return out


def read_csv(run, paths):
    """the rows of each CSV (one per shard), as lists"""
    tables = []
    for p in paths:
        try:
            with open(os.path.join(run.rdir, p), newline="") as f:
                tables.append((p, list(csv.reader(f))))
        except OSError:
            pass
    return [(p, t) for p, t in tables if t]


def merge_tables(tables, nkey):
    """several shards' tables of one kind as one: the columns in first-seen
    order, a row by its first NKEY cells, a cell from whichever shard has one"""
    cols, rows = [], {}
    for _, t in tables:
        head = t[0]
        for c in head[nkey:]:
            if c not in cols:
                cols.append(c)
        for r in t[1:]:
            key = tuple(r[:nkey])
            cells = rows.setdefault(key, {})
            for c, v in zip(head[nkey:], r[nkey:]):
                if v and not cells.get(c):
                    cells[c] = v
    return tables[0][1][0][:nkey] if tables else [], cols, rows


def fid_class(cell, own):
    """errno-fidelity.csv's cell: 'ERRNO', 'ERRNO =' (the status's own errno), '(x)' a failed check, 'absent'"""
    if not cell:
        return "", "-"
    if cell == "absent":
        return "fid-absent", "absent"
    errno = cell.split()[0]
    cls = "fid-same" if errno == own else "fid-differs"
    if "(x)" in cell:
        cls += " fid-fail"
    return cls, errno


def section_fidelity(run):
    out = ['<h2 id="fidelity">Errno fidelity: what each call returned for each injected BLK_STS_*</h2>']
    tables = read_csv(run, run.paths("fidelity-csv"))
    if not tables:
        return out + ["<p>This run made no errno-fidelity table (no fidelity scenario ran).</p>"]
    head, cols, rows = merge_tables(tables, 3)
    fss = []
    for c in cols:
        fs = c.split(" ", 1)[0]
        if fs not in fss:
            fss.append(fs)
    out.append('<p class="legend"><span class="fid-same">the status\'s own errno '
               '(blk_status_to_errno)</span><span class="fid-differs">another errno</span>'
               '<span class="fid-fail">a failed check</span><span class="fid-absent">a status this kernel '
               f'lacks</span> From {" ".join(link(run.rdir, p) for p, _ in tables)}.</p>')
    out.append('<div class="scroll"><table id="fidelity-matrix"><tr><th rowspan="2">status</th>'
               '<th rowspan="2">BLK_STS</th><th rowspan="2">its errno</th>')
    for fs in fss:
        n = sum(1 for c in cols if c.split(" ", 1)[0] == fs)
        out.append(f'<th colspan="{n}">{esc(fs)}</th>')
    out.append("</tr><tr>")
    ordered = [c for fs in fss for c in cols if c.split(" ", 1)[0] == fs]
    out.extend(f"<th>{esc(c.split(' ', 1)[1] if ' ' in c else c)}</th>" for c in ordered)
    out.append("</tr>")
    for key, cells in rows.items():
        status, blk, own = key
        out.append(f"<tr><th>{esc(status)}</th><td>{esc(blk or '-')}</td><td>{esc(own)}</td>")
        for c in ordered:
            cls, text = fid_class(cells.get(c, ""), own)
            title = f"{status} on {c}: {cells.get(c) or 'not run'}"
            out.append(f'<td class="fid-cell {cls}" title="{esc(title)}">{esc(text)}</td>')
        out.append("</tr>")
    return out + ["</table></div>"]


def backend_tables(run):
    """errno-fidelity-backends.csv (one per shard): a table per real driver,
    each starting at its own header row (its columns are its scenarios'),
    as {backend: [(path, rows)]} for merge_tables"""
    per = {}
    for path, rows in read_csv(run, run.paths("backends-fidelity-csv")):
        head = None
        for r in rows:
            if r and r[0] == "backend":
                head = r
            elif r and head:
                per.setdefault(r[0], {}).setdefault(path, [head]).append(r)
    return {bk: list(d.items()) for bk, d in per.items()}


def status_errnos(run):
    """status name -> its own errno, from the dm-wberr matrix's rows"""
    out = {}
    for _, rows in read_csv(run, run.paths("fidelity-csv")):
        for r in rows[1:]:
            if len(r) > 2:
                out.setdefault(r[0], r[2])
    return out


def section_backends(run):
    out = ['<h2 id="backends">Errno per real driver: each status a driver made, the BLK_STS_* '
           'the kernel chose, what each call returned</h2>']
    tables = backend_tables(run)
    if not tables:
        return out + ["<p>This run used no real driver (scenarios/realdev, docs/real-drivers.md).</p>"]
    own = status_errnos(run)
    out.append('<p class="legend"><span class="fid-same">the chosen status\'s own errno</span>'
               '<span class="fid-differs">another errno</span><span class="fid-fail">a failed check</span> '
               "Each row: the driver's status, the BLK_STS_* its source maps it to and the one the "
               "kernel completed the failed write with, the tries the source makes and the commands "
               "the injector failed per request. From "
               f'{" ".join(link(run.rdir, p) for p in sorted({p for t in tables.values() for p, _ in t}))}.</p>')
    for bk in sorted(tables):
        _, cols, rows = merge_tables(tables[bk], 6)
        out.append(f'<h3>{esc(bk)}</h3><div class="scroll"><table class="backend-table" id="backend-{esc(bk)}">'
                   "<tr><th>status</th><th>source maps to</th><th>kernel chose</th><th>tries</th>"
                   "<th>failed / requests</th>" + "".join(f"<th>{esc(c)}</th>" for c in cols) + "</tr>")
        for key, cells in rows.items():
            _, status, blk, chosen, tries, failed = key
            out.append(f"<tr><th>{esc(status)}</th><td>{esc(blk)}</td><td>{esc(chosen)}</td>"
                       f"<td>{esc(tries)}</td><td>{esc(failed)}</td>")
            for c in cols:
                cell = cells.get(c, "")
                # a labelled read's 0 is no errno to compare: only an error is coloured
                error = cell and cell.split()[0] not in ("0", "absent")
                cls = fid_class(cell, own[chosen])[0] if error and own.get(chosen) else ""
                if "(x)" in cell and "fid-fail" not in cls:
                    cls += " fid-fail"
                out.append(f'<td class="be-cell {cls.strip()}" title="{esc(status + " on " + c)}">'
                           f"{esc(cell or '-')}</td>")
            out.append("</tr>")
        out.append("</table></div>")
    return out


def content_class(cell):
    if not cell:
        return "", "-"
    word = cell.split()[0]
    cls = f"ct-{word}" if word in ("new", "old", "zero", "mixed") else "ct-errno"
    return cls + (" ct-fail" if "(x)" in cell else ""), cell


def section_content(run):
    out = ['<h2 id="content">What a file holds after its write-back failed</h2>']
    tables = read_csv(run, run.paths("content-csv"))
    if not tables:
        return out + ["<p>This run made no content-after-failure table.</p>"]
    _, cols, rows = merge_tables(tables, 2)
    out.append('<p class="legend"><span class="ct-new">new: the data whose write-back failed</span>'
               '<span class="ct-old">old: what the disk held before</span><span class="ct-zero">zero</span>'
               '<span class="ct-mixed">mixed</span><span class="ct-errno">the read failed</span>'
               '<span class="ct-fail">a failed expect_content</span> From '
               f'{" ".join(link(run.rdir, p) for p, _ in tables)}.</p>')
    out.append('<table id="content-table"><tr><th>scenario</th><th>fs</th>'
               + "".join(f"<th>{esc(c)}</th>" for c in cols) + "</tr>")
    for (sc, fs), cells in rows.items():
        out.append(f"<tr><td>{esc(sc)}</td><td>{esc(fs)}</td>")
        for c in cols:
            cls, text = content_class(cells.get(c, ""))
            out.append(f'<td class="content-cell {cls}">{esc(text)}</td>')
        out.append("</tr>")
    return out + ["</table>"]


def read_meta(path):
    meta = {}
    try:
        with open(path) as f:
            for line in f:
                k, sep, v = line.rstrip("\n").partition("=")
                if sep:
                    meta[k] = v
    except OSError:
        pass
    return meta


def dir_links(run, d):
    """the files of one directory the manifest lists (an instance's evidence or program directory)"""
    try:
        names = sorted(os.listdir(os.path.join(run.rdir, d)))
    except OSError:
        return esc(d) + ' <span class="muted">(not there)</span>'
    return " ".join(link(run.rdir, os.path.join(d, n), n) for n in names)


def section_programs(run):
    out = ['<h2 id="programs">Program timelines</h2>']
    if not run.programs:
        return out + ["<p>No program instance ran.</p>"]
    out.append(timeline.LEGEND)
    for name, d in run.programs.items():
        meta = read_meta(os.path.join(run.rdir, d, "meta.txt"))
        inst = run.instances.get(meta.get("id"), {})
        verdict = inst.get("verdict", "unknown")
        out.append(f'<section class="program" id="prog-{esc(name)}"><h3>{esc(meta.get("id", name))} '
                   f'<span class="badge {esc(verdict)}">{esc(verdict)}</span></h3>')
        if inst.get("reason"):
            out.append(f'<p class="reason">{esc(inst["reason"])}</p>')
        try:
            with open(os.path.join(run.rdir, d, "report.json")) as f:
                rep = json.load(f)
        except (OSError, ValueError) as e:
            out.append(f"<p>No timeline: report.json unreadable ({esc(e)}).</p>")
        else:
            out.extend(timeline.render(rep, meta, name))
        out.append(f'<p class="mono">{dir_links(run, d)}</p></section>')
    return out


def section_compare(run, path):
    out = ['<h2 id="compare">Kernels compared (make compare)</h2>']
    if not path:
        return out + ["<p>Not part of this run: <code>make compare</code> adds it.</p>"]
    with open(path) as f:
        cmp_ = json.load(f)
    base = os.path.dirname(os.path.abspath(path))
    rel = lambda p: os.path.relpath(os.path.join(base, p), os.path.abspath(run.rdir)) if p else None
    names = [k["name"] for k in cmp_["kernels"]]
    out.append("<table><tr><th>kernel</th><th>release</th><th>kernel/patches</th><th>results</th></tr>")
    for k in cmp_["kernels"]:
        series = {True: "yes", False: "no"}.get(k.get("series"), "unknown")
        out.append(f"<tr><td>{esc(k['name'])}</td><td>{esc(k.get('release'))}</td><td>{series}</td>"
                   f"<td>{link(run.rdir, rel(k.get('results')), 'results.json')}</td></tr>")
    out.append("</table>")
    diff = [r for r in cmp_["instances"] if r["differs"]]
    out.append(f"<h3>Instances that differ ({len(diff)} of {len(cmp_['instances'])})</h3>")
    if diff:
        out.append('<table id="compare-instances"><tr><th>instance</th>'
                   + "".join(f"<th>{esc(n)}</th>" for n in names) + "</tr>")
        for r in diff:
            out.append(f'<tr class="compare-row"><td>{esc(r["id"])}</td>')
            for n in names:
                c = r["cells"].get(n)
                if not c:
                    out.append('<td class="skip">not run</td>')
                    continue
                text = c["verdict"] + (": " + " ".join(c["calls"]) if c["calls"] else "")
                ev = f" {link(run.rdir, rel(c['evidence']), 'evidence')}" if c.get("evidence") else ""
                why = f'<div class="reason">{esc(c["reason"][:300])}</div>' if c.get("reason") else ""
                out.append(f'<td class="{esc(c["verdict"])}">{esc(text)}{ev}{why}</td>')
            out.append("</tr>")
        out.append("</table>")
    fdiff = [r for r in cmp_["fidelity"] if r["differs"]]
    out.append(f"<h3>Errno fidelity cells that differ ({len(fdiff)} of {len(cmp_['fidelity'])})</h3>")
    if fdiff:
        out.append("<table><tr><th>fs</th><th>status</th><th>call</th>"
                   + "".join(f"<th>{esc(n)}</th>" for n in names) + "</tr>")
        for r in fdiff:
            out.append(f"<tr><td>{esc(r['fs'])}</td><td>{esc(r['status'])}</td><td>{esc(r['call'])}</td>"
                       + "".join(f'<td class="fid-differs">{esc(r["cells"].get(n) or "not run")}</td>'
                                 for n in names) + "</tr>")
        out.append("</table>")
    return out


def section_suites(run, ju):
    out = ['<h2 id="suites">Suites</h2>']
    if not ju:
        return out + ["<p>No junit.xml.</p>"]
    taps = run.tap_of_suite()
    out.append('<table id="suites-table"><tr><th>suite</th><th>passed</th><th>failed</th><th>skipped</th></tr>')
    for name, p, f, s in ju["suites"]:
        cell = link(run.rdir, taps[name], name) if name in taps else esc(name)
        out.append(f'<tr class="{"fail" if f else "pass"}"><td>{cell}</td><td>{p}</td><td>{f}</td><td>{s}</td></tr>')
    return out + ["</table>"]


def section_files(run):
    out = ['<h2 id="files">Every file the run left</h2>',
           f'<p>{link(run.rdir, "junit.xml")} (report.sh), {link(run.rdir, "manifest.txt")} '
           '(what each file is: docs/architecture.md, "results/").</p>',
           '<table id="files-table"><tr><th>kind</th><th>path</th><th>suite</th><th>boot</th></tr>']
    for kind, path, suite, boot in run.entries:
        out.append(f"<tr><td>{esc(kind)}</td><td>{link(run.rdir, path)}</td>"
                   f"<td>{esc(suite)}</td><td>{esc(boot)}</td></tr>")
    return out + ["</table>"]


def page(run, compare_json):
    ju = junit(run)
    body = (section_head(run, ju) + section_summary(run) + section_failures(run, ju)
            + section_fidelity(run) + section_backends(run) + section_content(run) + section_programs(run)
            + section_compare(run, compare_json) + section_suites(run, ju) + section_files(run))
    return ('<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head>'
            '<meta charset="utf-8"/><title>wberr results</title>'
            f"<style>{CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--compare", metavar="COMPARE_JSON", help="make compare's compare.json, to put beside")
    ap.add_argument("results", metavar="RESULTS_DIR")
    a = ap.parse_args()
    if manifest.read_manifest(a.results) is None:
        print(f"page: no manifest.txt in {a.results}, which lists what the run left "
              "(lib/sh/manifest.sh)", file=sys.stderr)
        return 1
    out = os.path.join(a.results, "index.html")
    text = page(Run(a.results), a.compare)
    with open(out + ".tmp", "w") as f:
        f.write(text)
    os.replace(out + ".tmp", out)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
