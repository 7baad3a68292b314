#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The results page (harness/page.py) of a recorded run, checked as markup and in a real browser, as TAP.

    page-selftest.py [--screenshot PNG]

The fixture, harness/tests/page-fixture/, is a `make run` recorded in the
guest (README there): ext4, xfs and btrfs errno fidelity, content after
failure, a DAX journal fault, the object-store program on two file systems,
and two scenarios whose claims are false on purpose, so that the page has
failures, evidence and a fault whose verdict is not the plan's.  What the
page must show is counted from the fixture's own files (results.json, the
CSV tables, the manifest), not written down here.

The page is generated into a copy of the fixture, parsed as XML (well-formed,
ids unique, every #link has its target, every relative link a file, nothing
from the network, no script), generated again from the same run merged by
harness/merge-shards.sh (the layout `make test` leaves) and with a
`make compare` beside it.  Then Debian's Chromium (make deps-browser) loads
it headless over the DevTools protocol on a pipe, with the flags this
machine's closed network needs: no console message, exception or failed load
may be logged, and the summary rows, every program's timeline (with its
faults, calls and arrows) and the matrix cells must be in the rendered page
with a size.  The screenshot of the whole page goes to PNG.
"""
import argparse
import base64
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", ".."))
FIXTURE = os.path.join(HERE, "page-fixture")
PAGE = os.path.join(TOP, "harness", "page.py")
CHROMIUM = os.environ.get("WBERR_CHROMIUM", "/usr/bin/chromium")
XHTML = "{http://www.w3.org/1999/xhtml}"
sys.path.insert(0, os.path.join(TOP, "harness"))
import manifest  # noqa: E402  (harness/manifest.py)
from taplib import check, done  # noqa: E402  (harness/tests/taplib.py)



def generate(rdir, *extra):
    p = subprocess.run([sys.executable, PAGE, *extra, rdir], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def expected(rdir):
    """what the page must show, from the run's own files"""
    with open(os.path.join(rdir, "results.json")) as f:
        data = json.load(f)
    groups = {(i["fs"], i.get("guarantee") or i["scenario"]) for i in data["instances"]}
    failed = sorted(i["id"] for i in data["instances"] if i["verdict"] == "fail")
    with open(os.path.join(rdir, "errno-fidelity.csv"), newline="") as f:
        rows = list(csv.reader(f))
    cells = sum(len(r) - 3 for r in rows[1:])
    differs = sum(1 for r in rows[1:] for c in r[3:] if c and c != "absent" and c.split()[0] != r[2])
    programs = [p for k, p, _, _ in manifest.read_manifest(rdir) if k == "program"]
    backends, be_cells, be_fail, head = set(), 0, 0, None
    with open(os.path.join(rdir, "errno-fidelity-backends.csv"), newline="") as f:
        for r in csv.reader(f):
            if r[0] == "backend":
                head = r
                continue
            backends.add(r[0])
            be_cells += len(head) - 6
            be_fail += sum("(x)" in c for c in r[6:])
    return {"rows": len(groups), "failed": failed, "cells": cells, "differs": differs, "programs": len(programs),
            "backends": len(backends), "be_cells": be_cells, "be_fail": be_fail}


def walk(root):
    for el in root.iter():
        yield el.tag.replace(XHTML, "").replace("{http://www.w3.org/2000/svg}", ""), el


def markup_checks(rdir, tag):
    """the page as XML: well-formed, self-contained, every link resolves"""
    path = os.path.join(rdir, "index.html")
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        check(False, f"{tag}: index.html is there and well-formed (XML)", str(e))
        return None
    check(True, f"{tag}: index.html is there and well-formed (XML)")
    ids = [el.get("id") for _, el in walk(root) if el.get("id")]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    check(not dup, f"{tag}: every id is unique", " ".join(dup))
    bad, remote = [], []
    for name, el in walk(root):
        for attr in ("href", "src", "{http://www.w3.org/1999/xlink}href"):
            v = el.get(attr)
            if v is None:
                continue
            if re.match(r"^[a-z]+:|^//", v):
                remote.append(v)
            elif v.startswith("#"):
                if v[1:] not in ids:
                    bad.append(v)
            elif not os.path.exists(os.path.join(rdir, v)):
                bad.append(v)
        if name == "script":
            remote.append("<script>")
    for name, el in walk(root):
        if name in ("path", "rect", "line") and "url(" in (el.get("marker-end") or ""):
            if el.get("marker-end")[5:-1] not in ids:
                bad.append(el.get("marker-end"))
    check(not bad, f"{tag}: every link resolves (a file of the run, or an id of the page)", " ".join(bad[:10]))
    check(not remote, f"{tag}: nothing from the network, no script", " ".join(remote[:10]))
    return root


def count(root, name, cls=None, also=None):
    """elements NAME with class CLS (and class ALSO, when given)"""
    n = 0
    for tag, el in walk(root):
        classes = (el.get("class") or "").split()
        if tag == name and (cls is None or cls in classes) and (also is None or also in classes):
            n += 1
    return n


def text_of(root):
    return " ".join("".join(el.itertext()) for _, el in walk(root) if _ == "body")


def static_checks(tmp):
    rdir = os.path.join(tmp, "run")
    shutil.copytree(FIXTURE, rdir)
    want = expected(rdir)
    rc, out = generate(rdir)
    check(rc == 0 and out.strip() == os.path.join(rdir, "index.html"), "page.py writes RESULTS/index.html", out)
    root = markup_checks(rdir, "the fixture's page")
    if root is None:
        return rdir, want
    check(count(root, "tr", "summary-row") == want["rows"],
          f"a summary row per file system and guarantee ({want['rows']})", str(count(root, "tr", "summary-row")))
    rows = [" ".join("".join(td.itertext()) for td in tr) for _, tr in walk(root)
            if _ == "tr" and "summary-row" in (tr.get("class") or "")]
    check(rows and rows[0] == "ext4 every open fd sees a writeback error exactly once FAILS (1/2) -"
          and "a journal failure is reported and the filesystem stops - holds (1/1)" in rows, "the summary: a failing guarantee in its page-cache cell, a DAX-only one in its "
          "DAX cell", "; ".join(rows))
    failed = sorted("".join(tr[0].itertext()) for _, tr in walk(root)
                    if _ == "tr" and "failed-instance" in (tr.get("class") or ""))
    check(failed == want["failed"], f"every failed instance listed ({len(want['failed'])})", " ".join(failed))
    check(count(root, "td", "fid-cell") == want["cells"] and count(root, "td", "fid-cell", "fid-differs") == want["differs"]
          and want["differs"] > 0, f"the matrix: {want['cells']} cells, the {want['differs']} whose errno is not "
          "the status's own stand out", f"{count(root, 'td', 'fid-cell')} {count(root, 'td', 'fid-cell', 'fid-differs')}")
    check(count(root, "table", "backend-table") == want["backends"] and count(root, "td", "be-cell") == want["be_cells"]
          and count(root, "td", "be-cell") > 0, f"a table per real driver with rows ({want['backends']}), "
          f"{want['be_cells']} cells", f"{count(root, 'table', 'backend-table')} {count(root, 'td', 'be-cell')}")
    be = {tr[0].text: [td for td in tr if "be-cell" in (td.get("class") or "").split()] for _, tr in walk(root)
          if _ == "tr" and any("be-cell" in (td.get("class") or "").split() for td in tr)}
    fails = sum("fid-fail" in (td.get("class") or "") for tds in be.values() for td in tds)
    raw = [td.get("class") for td in be.get("medium-unrecovered", [])]
    check(fails == want["be_fail"] and raw[:1] == ["be-cell fid-same"] and raw[-1:] == ["be-cell fid-differs"],
          "a driver's cells: the chosen status's errno, another (the raw device's EIO) and a failed check "
          "stand out, a read's 0 does not", f"{fails} {raw}")
    check(count(root, "svg", "timeline") == want["programs"], f"one timeline per program instance ({want['programs']})")
    check(count(root, "path", "fault") >= want["programs"] and count(root, "path", "seen") >= want["programs"]
          and count(root, "path", "set") >= want["programs"], "each fault drawn, its sets, an arrow to the call "
          "that saw it", f"{count(root, 'path', 'fault')} {count(root, 'path', 'set')} {count(root, 'path', 'seen')}")
    body = text_of(root)
    check("seen (the plan expects lost)" in body and "recovery" in body and "checker" in body,
          "a verdict that is not the plan's says so; the recovery and checker phases are drawn")
    return rdir, want


def merged_checks(tmp, want):
    """make test's layout: harness/merge-shards.sh's directory, each shard's artifacts in shard-I/"""
    one = os.path.join(tmp, "shard")
    shutil.copytree(FIXTURE, one)
    with open(os.path.join(one, "shard"), "w") as f:
        f.write("1/1\n")
    out = os.path.join(tmp, "merged")
    subprocess.run([os.path.join(TOP, "harness", "merge-shards.sh"), out, one], capture_output=True)
    root = markup_checks(out, "the merged run's page")
    if root is None:
        return
    check(count(root, "tr", "summary-row") == want["rows"] and count(root, "tr", "failed-instance") ==
          len(want["failed"]) and count(root, "svg", "timeline") == want["programs"] and
          count(root, "td", "fid-cell") == want["cells"], "merged: the same summary, failures, timelines and matrix, "
          "found through shard-1's manifest")


def compare_checks(tmp, rdir):
    """make compare's compare.json beside the page: the one instance a second 'kernel' changed"""
    other = os.path.join(tmp, "other")
    shutil.copytree(FIXTURE, other)
    path = os.path.join(other, "results.json")
    with open(path) as f:
        data = json.load(f)
    inst = next(i for i in data["instances"] if i["id"] == "ext4/errno-fidelity[timeout]")
    for s in inst["steps"]:
        if s.get("label") == "buffered-fsync":
            s["errno"] = "EIO"
    with open(path, "w") as f:
        json.dump(data, f)
    cdir = os.path.join(tmp, "compare")
    subprocess.run([sys.executable, os.path.join(TOP, "harness", "compare.py"), "--out", cdir,
                    f"recorded={rdir}", f"changed={other}"], capture_output=True)
    rc, out = generate(rdir, "--compare", os.path.join(cdir, "compare.json"))
    root = markup_checks(rdir, "the page with make compare") if rc == 0 else None
    check(root is not None and count(root, "tr", "compare-row") == 1 and
          "ext4/errno-fidelity[timeout]" in text_of(root), "compare: the one differing instance, side by side", out)
    generate(rdir)


class Browser:
    """Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: fd 3 in, fd 4 out)"""

    FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--remote-debugging-pipe"]

    def __init__(self, profile):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        cmd = " ".join([CHROMIUM] + self.FLAGS + [f"--user-data-dir={profile}"])
        self.proc = subprocess.Popen(["sh", "-c", f"exec {cmd} 3<&{to_r} 4>&{from_w}"], pass_fds=(to_r, from_w),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buf, self.next_id, self.events, self.session = b"", 0, [], None

    def _read(self, deadline):
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self.from_r, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, timeout=60, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, timeout=60):
        deadline = time.time() + timeout
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self._read(deadline))

    def open(self, url):
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(domain + ".enable")
        self.send("Emulation.setDeviceMetricsOverride", width=1400, height=900, deviceScaleFactor=1, mobile=False)
        self.send("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def eval(self, expr):
        r = self.send("Runtime.evaluate", expression=expr, returnByValue=True)
        return r.get("result", {}).get("value")

    def problems(self):
        """every console message, exception and failed load the page logged"""
        out = []
        for m in self.events:
            p = m.get("params", {})
            if m.get("method") == "Runtime.consoleAPICalled":
                out.append(f"console.{p.get('type')}: " + " ".join(str(a.get("value")) for a in p.get("args", [])))
            elif m.get("method") == "Runtime.exceptionThrown":
                out.append("exception: " + str(p.get("exceptionDetails", {}).get("text")))
            elif m.get("method") == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
                out.append(f"log {p['entry']['level']}: {p['entry'].get('text')} {p['entry'].get('url', '')}")
        return out

    def close(self):
        try:
            self.session = None
            self.send("Browser.close", timeout=10)
        except (OSError, RuntimeError, TimeoutError, EOFError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_w)
        os.close(self.from_r)


BROWSER_COUNTS = """JSON.stringify({
  rows: document.querySelectorAll('#summary-table tr.summary-row').length,
  shownRows: [...document.querySelectorAll('#summary-table tr.summary-row')].filter(r => r.getBoundingClientRect().height > 0).length,
  timelines: [...document.querySelectorAll('svg.timeline')].map(s => ({w: s.getBoundingClientRect().width,
      h: s.getBoundingClientRect().height, calls: s.querySelectorAll('rect.call').length,
      faults: s.querySelectorAll('path.fault').length, arrows: s.querySelectorAll('path.seen').length})),
  cells: document.querySelectorAll('#fidelity-matrix td.fid-cell').length,
  differs: [...document.querySelectorAll('#fidelity-matrix td.fid-differs')].map(td => getComputedStyle(td).backgroundColor),
  same: [...document.querySelectorAll('#fidelity-matrix td.fid-same')].map(td => getComputedStyle(td).backgroundColor),
  height: document.documentElement.scrollHeight
})"""


def browser_checks(rdir, want, shot, tmp):
    if not check(os.access(CHROMIUM, os.X_OK), f"Chromium is installed ({CHROMIUM}; make deps-browser installs it)"):
        return
    b = Browser(os.path.join(tmp, "profile"))
    try:
        b.open("file://" + os.path.join(rdir, "index.html"))
        got = json.loads(b.eval(BROWSER_COUNTS))
        check(got["rows"] == want["rows"] and got["shownRows"] == want["rows"],
              f"Chromium: the {want['rows']} summary rows are laid out", str(got["rows"]))
        tl = got["timelines"]
        check(len(tl) == want["programs"] and all(t["w"] > 600 and t["h"] > 100 and t["calls"] > 0 and t["faults"] > 0
                                                  and t["arrows"] > 0 for t in tl),
              f"Chromium: {want['programs']} timelines drawn, each with calls, a fault and an arrow", json.dumps(tl))
        check(got["cells"] == want["cells"] and len(got["differs"]) == want["differs"] and got["differs"] and
              set(got["differs"]).isdisjoint(got["same"]),
              "Chromium: the matrix cells, those that differ in a colour of their own",
              f"{got['cells']} {set(got['differs'])} {set(got['same'])}")
        b.send("Emulation.setDeviceMetricsOverride", width=1400, height=min(got["height"], 16000),
               deviceScaleFactor=1, mobile=False)
        png = base64.b64decode(b.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"])
        problems = b.problems()
        check(not problems, "Chromium: no console message, exception or failed load", "; ".join(problems[:10]))
    except (OSError, RuntimeError, TimeoutError, EOFError, ValueError) as e:
        check(False, "Chromium: the page loads over the DevTools pipe", repr(e))
        return
    finally:
        b.close()
    check(png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 50000, f"a screenshot of the whole page ({len(png)} bytes)")
    if shot:
        with open(shot, "wb") as f:
            f.write(png)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--screenshot", help="where to keep the screenshot (make test: build/results/page-fixture.png)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rdir, want = static_checks(tmp)
        merged_checks(tmp, want)
        compare_checks(tmp, rdir)
        browser_checks(rdir, want, a.screenshot, tmp)
    return done()


if __name__ == "__main__":
    sys.exit(main())
