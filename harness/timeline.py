# SPDX-License-Identifier: GPL-2.0
"""One program instance's timeline in SVG, drawn from its report.json.

report.json is program mode's judge written out (tools/wberr-run/
synctrace_render.c, sc_render_json): the runner's marks, every traced
sync-family call, the errseq cursor moves and sets, each fault of the
plan with its verdict and the calls that saw it.  The text beside it,
timeline.txt, is the same data for a terminal; nothing here reads it.

The drawing: one lane per process (the runner's own calls are left out,
as the judge leaves them out), each call a bar from entry to exit coloured
by its result, the faults and errseq sets on the device lane, an arrow
from each fault to every call that saw it, the runner's phases (program,
recovery, checker) as bands, and the verdicts in a table below.  The time
axis is linear within each burst of events; an idle stretch longer than
a twelfth of the run is cut to a fixed-width break that says how long it
was.
"""
import bisect
import html
import math

LABEL_W = 170       # the lane names
WIDTH = 1150        # the drawing's width before it must scroll
PAD = 8             # either side of a burst
BREAK = 34          # a cut idle stretch
MAX_PX_PER_US = 0.05
MARK_ROW = 14
STRIP = 18          # the phase strip
DEV = 40            # the device lane
LANE = 24           # a process lane
AXIS = 34

GOOD, BAD, GREY, ORANGE = "#2e7d32", "#c62828", "#9e9e9e", "#ef6c00"

LEGEND = (
    '<p class="legend">In each timeline: '
    f'<span style="color:{GOOD}">&#9646; a call that returned 0</span>'
    f'<span style="color:{BAD}">&#9646; a sync-family result that returned an error</span>'
    f'<span style="color:{GREY}">&#9646; an error that is no sync-family result (a pipe, the checker)</span>'
    f'<span style="color:{ORANGE}">&#9633; an error no fault explains</span>'
    f'<span style="color:{BAD}">&#9660; a fault fired</span>'
    '<span style="color:#6a1b9a">&#9670; an errseq set</span>'
    '<span>&#8600; the fault reached that call</span>'
    '<span style="background:#e3edf9">program</span><span style="background:#ffe7c2">recovery</span>'
    '<span style="background:#ececec">checker</span> Hover a mark for its details.</p>')


def esc(s):
    return html.escape("" if s is None else str(s), quote=True)


class Scale:
    """time (us) -> x: linear within bursts, idle stretches cut to BREAK pixels"""

    def __init__(self, times, base):
        ts = sorted(set(times)) or [base]
        self.base = base
        gap = max((ts[-1] - ts[0]) / 12, 50000)
        self.bursts = [[ts[0], ts[0]]]
        for t in ts[1:]:
            if t - self.bursts[-1][1] > gap:
                self.bursts.append([t, t])
            else:
                self.bursts[-1][1] = t
        n = len(self.bursts)
        total = sum(b - a for a, b in self.bursts)
        fixed = (n - 1) * BREAK + n * 2 * PAD
        self.width = max(WIDTH - LABEL_W, fixed + 250)
        self.k = min((self.width - fixed) / total, MAX_PX_PER_US) if total else 0
        self.starts, x = [], LABEL_W
        for a, b in self.bursts:
            self.starts.append(x)
            x += 2 * PAD + (b - a) * self.k + BREAK
        self.width = x - BREAK - LABEL_W
        self.firsts = [a for a, _ in self.bursts]

    def x(self, t):
        i = max(bisect.bisect_right(self.firsts, t) - 1, 0)
        a, b = self.bursts[i]
        return self.starts[i] + PAD + (min(max(t, a), b) - a) * self.k

    def ms(self, t):
        return (t - self.base) / 1000.0


def call_times(c):
    enter = c["enter_us"] or c["exit_us"]
    return enter, (c["exit_us"] or enter)


def describe_call(c, scale, unexplained):
    enter, leave = call_times(c)
    who = f"{c['comm']}[{c['tgid']}/{c['tid']}]" if c["tgid"] and c["tgid"] != c["tid"] else f"{c['comm']}[{c['tid']}]"
    ret = "?" if c["ret"] is None else (f"{c['ret']} {c['errno']}" if c["ret"] < 0 else str(c["ret"]))
    text = f"{scale.ms(enter):+.3f} ms {c['kind']} {who} fd {c['fd']} -> {ret}"
    if c["enter_us"] and c["exit_us"]:
        text += f" ({(leave - enter) / 1000:.3f} ms)"
    if c["phase"] == "check":
        text += " [checker]"
    elif c["ret"] is not None and c["ret"] < 0 and not c.get("sync_result", True):
        text += " [no file's write: not a sync-family result]"
    if c["i"] in unexplained:
        text += " [an error no fault explains]"
    return who, text


class Drawing:
    def __init__(self, rep, meta, name):
        self.rep, self.meta, self.name = rep, meta, name
        self.calls = [c for c in rep["calls"] if not c["excluded"]]
        self.by_i = {c["i"]: c for c in rep["calls"]}
        self.unexplained = set(rep.get("unexplained", []))
        self.lanes = self._lanes()
        times = [rep["base_us"]] + [m["us"] for m in rep["marks"]] + [s["us"] for s in rep["sets"]]
        for c in self.calls:
            times.extend(t for t in call_times(c) if t)
        for f in rep["faults"]:
            times.extend(t for t in (f["fired_us"], f["last_us"]) if t)
        times.extend(c["us"] for c in self._loose_cursors())
        self.scale = Scale(times, rep["base_us"])
        self.marks = self._mark_groups()
        self.top = MARK_ROW * max(1, self.mark_rows) + 8
        self.dev_y = self.top + STRIP
        self.lanes_y = self.dev_y + DEV
        self.height = self.lanes_y + LANE * len(self.lanes) + AXIS

    def _loose_cursors(self):
        """cursor moves that consumed an error outside any traced call, the runner's left out"""
        self_pid = self.rep.get("self")
        return [c for c in self.rep["cursors"] if c["call"] is None and c["consumed"] not in (None, "0")
                and self_pid not in (c["tid"], c["tgid"])]

    def _lanes(self):
        lanes = {}
        for c in sorted(self.calls, key=lambda c: call_times(c)[0]):
            key = c["tgid"] or c["tid"]
            lane = lanes.setdefault(key, {"comm": c["comm"], "check": True})
            lane["check"] &= c["phase"] == "check"
        for c in self._loose_cursors():
            lanes.setdefault(c["tgid"] or c["tid"], {"comm": "pid", "check": False})
        return {k: dict(v, row=n) for n, (k, v) in enumerate(lanes.items())}

    def lane_y(self, tid, tgid):
        lane = self.lanes[tgid or tid]
        return self.lanes_y + LANE * lane["row"] + LANE / 2

    def _mark_groups(self):
        """the runner's marks; those a few pixels apart share a label, labels stagger in rows"""
        groups = []
        for m in self.rep["marks"]:
            x = self.scale.x(m["us"])
            if groups and x - groups[-1]["x"] < 4:
                groups[-1]["texts"].append(m["text"])
            else:
                groups.append({"x": x, "us": m["us"], "texts": [m["text"]]})
        ends = []
        for g in groups:
            g["label"] = g["texts"][0] + "".join(", " + t.replace("recover ", "") for t in g["texts"][1:])
            row = next((r for r, e in enumerate(ends) if e < g["x"]), None)
            if row is None and len(ends) < 4:
                row = len(ends)
                ends.append(0)
            elif row is None:
                row = ends.index(min(ends))
            ends[row] = g["x"] + len(g["label"]) * 6.2 + 8
            g["row"] = row
        self.mark_rows = len(ends)
        return groups

    def phases(self):
        """(name, first us, last us, what): the program, the recovery, the checker, from the runner's marks"""
        at = {}
        for m in self.rep["marks"]:
            at.setdefault(m["text"], m["us"])
        rec = [m for m in self.rep["marks"] if m["text"].startswith("recover ")]
        out = []
        if "program start" in at and "program end" in at:
            out.append(("program", at["program start"], at["program end"], "the program runs"))
        if rec:
            end = at.get("check start", rec[-1]["us"])
            out.append(("recovery", rec[0]["us"], end, "recovery: " + ", ".join(m["text"][8:] for m in rec)))
        if "check start" in at and "check end" in at:
            out.append(("checker", at["check start"], at["check end"], "the checker runs"))
        return out


def draw_frame(d, out):
    w = LABEL_W + d.scale.width + PAD
    fills = {"program": "#e3edf9", "recovery": "#ffe7c2", "checker": "#ececec"}
    for name, a, b, what in d.phases():
        x0, x1 = d.scale.x(a), d.scale.x(b)
        out.append(f'<rect class="phase" x="{x0:.1f}" y="{d.top}" width="{max(x1 - x0, 2):.1f}" '
                   f'height="{d.height - AXIS - d.top}" fill="{fills[name]}" opacity="0.8">'
                   f"<title>{esc(what)}</title></rect>")
        if x1 - x0 >= len(name) * 6.5 + 4:    # else the marks name it
            out.append(f'<text x="{x0 + 3:.1f}" y="{d.top + 13}" font-size="11" font-style="italic">{esc(name)}</text>')
    out.append(f'<text x="4" y="{d.dev_y + DEV / 2 + 4}" font-size="12" font-weight="bold">device '
               f"{esc(d.meta.get('dev', ''))}</text>")
    out.append(f'<line x1="{LABEL_W}" x2="{w}" y1="{d.dev_y + DEV / 2}" y2="{d.dev_y + DEV / 2}" stroke="#bbb"/>')
    for key, lane in d.lanes.items():
        y = d.lanes_y + LANE * lane["row"]
        if lane["row"] % 2:
            out.append(f'<rect x="0" y="{y}" width="{w}" height="{LANE}" fill="#000" opacity="0.035"/>')
        label = f"{lane['comm']}[{key}]" + (" checker" if lane["check"] else "")
        out.append(f'<text class="lane" x="4" y="{y + LANE / 2 + 4}" font-size="12">{esc(label)}</text>')
        out.append(f'<line x1="{LABEL_W}" x2="{w}" y1="{y + LANE / 2}" y2="{y + LANE / 2}" stroke="#ddd"/>')
    for g in d.marks:
        y = MARK_ROW * (g["row"] + 1)
        out.append(f'<line x1="{g["x"]:.1f}" x2="{g["x"]:.1f}" y1="{y + 2}" y2="{d.height - AXIS}" '
                   'stroke="#555" stroke-dasharray="3,3"/>')
        tip = f"{d.scale.ms(g['us']):+.3f} ms: " + "; ".join(g["texts"])
        right = g["x"] + len(g["label"]) * 6.2 > w    # a label past the right edge ends at its line
        out.append(f'<text class="mark" x="{g["x"] + (-2 if right else 2):.1f}" y="{y}" font-size="11"'
                   f'{" text-anchor=" + chr(34) + "end" + chr(34) if right else ""}>{esc(g["label"])}'
                   f"<title>{esc(tip)}</title></text>")


def draw_axis(d, out):
    s, y = d.scale, d.height - AXIS
    out.append(f'<line x1="{LABEL_W}" x2="{LABEL_W + s.width}" y1="{y}" y2="{y}" stroke="#333"/>')
    out.append(f'<text x="4" y="{y + 15}" font-size="11">ms from the first mark</text>')
    for i, (a, b) in enumerate(s.bursts):
        span_px = max((b - a) * s.k, 1)
        step = next(st for st in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500,
                                  1000, 2000, 5000, 10000, 60000, 600000) if st * 1000 * s.k >= 80 or
                    st * 1000 >= (b - a) + 1)
        dec = max(0, -math.floor(math.log10(step)))
        v = math.ceil(s.ms(a) / step) * step
        while v <= s.ms(b) + 1e-9 or (span_px <= 1 and v == math.ceil(s.ms(a) / step) * step):
            x = s.x(s.base + v * 1000)
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y}" y2="{y + 4}" stroke="#333"/>'
                       f'<text x="{x:.1f}" y="{y + 15}" font-size="10" text-anchor="middle">{v:+.{dec}f}</text>')
            v += step
            if span_px <= 1:
                break
        if i + 1 < len(s.bursts):
            x = s.starts[i + 1] - BREAK / 2
            gap = (s.bursts[i + 1][0] - b) / 1000
            txt = f"{gap / 1000:.1f} s" if gap >= 1000 else f"{gap:.0f} ms"
            out.append(f'<path d="M{x - 5:.1f},{d.top} l6,-6 M{x + 1:.1f},{d.top} l6,-6 M{x - 5:.1f},{y} l6,-6 '
                       f'M{x + 1:.1f},{y} l6,-6" stroke="#333"/><text x="{x:.1f}" y="{y + 28}" font-size="10" '
                       f'text-anchor="middle">&#8230;{esc(txt)}&#8230;</text>')


def draw_device(d, out):
    s, y = d.scale, d.dev_y + DEV / 2
    buckets = {}
    for st in d.rep["sets"]:
        buckets.setdefault(round(s.x(st["us"]) / 5), []).append(st)
    for group in buckets.values():
        x = s.x(group[0]["us"])
        first = group[0]
        tip = "; ".join(f"{s.ms(g['us']):+.3f} ms errseq set on {g['dev']} ino {g['ino']} {g['path'] or ''} "
                        f"{g['errno']} by {g['comm']}[{g['tid']}]"
                        + (f", from fault #{g['fault']}" if g["fault"] is not None else ", no fault of the plan")
                        for g in group[:12]) + (f"; and {len(group) - 12} more" if len(group) > 12 else "")
        fill = "#6a1b9a" if first["fault"] is not None else GREY
        out.append(f'<path class="set" d="M{x:.1f},{y + 3} l5,7 l-5,7 l-5,-7 z" fill="{fill}"><title>{esc(tip)}</title></path>')
        if len(group) > 1:
            out.append(f'<text x="{x + 6:.1f}" y="{y + 16}" font-size="9">&#215;{len(group)}</text>')
    expect = d.meta.get("expect")
    for f in d.rep["faults"]:
        if f["fired_us"] is None:
            continue
        x0, x1 = s.x(f["fired_us"]), s.x(f["last_us"])
        ok = expect is None or f["verdict"] == expect
        tip = (f"{s.ms(f['fired_us']):+.3f} ms fault #{f['id']} fired: {f['bios']} bio(s), expects "
               f"{f['expected']}; verdict {f['verdict']}" + ("" if ok else f" (expected {expect})"))
        if x1 - x0 > 1:
            out.append(f'<rect x="{x0:.1f}" y="{y - 9}" width="{x1 - x0:.1f}" height="3" fill="{BAD}"/>')
        out.append(f'<path class="fault" d="M{x0 - 6:.1f},{y - 14} h12 l-6,12 z" fill="{BAD}"><title>{esc(tip)}</title></path>')
        out.append(f'<text x="{x0 + 8:.1f}" y="{y - 6}" font-size="11" font-weight="bold" fill="{GOOD if ok else BAD}">'
                   f"#{esc(f['id'])} {esc(f['expected'])} {esc(f['verdict'])}</text>")


def draw_calls(d, out):
    s = d.scale
    for c in d.calls:
        enter, leave = call_times(c)
        x0, x1 = s.x(enter), s.x(leave)
        y = d.lane_y(c["tid"], c["tgid"])
        _, tip = describe_call(c, s, d.unexplained)
        failed = c["ret"] is not None and c["ret"] < 0
        if c["ret"] is None:
            fill = "#fff"
        elif not failed:
            fill = GOOD
        else:
            fill = BAD if c.get("sync_result") and c["phase"] != "check" else GREY
        stroke = ORANGE if c["i"] in d.unexplained else "#333" if c["ret"] is None else "none"
        out.append(f'<rect class="call" x="{x0 - 1.5:.1f}" y="{y - 5}" width="{max(x1 - x0, 0) + 3:.1f}" height="10" '
                   f'fill="{fill}" stroke="{stroke}" stroke-width="2"><title>{esc(tip)}</title></rect>')
        if failed or c["ret"] is None:
            out.append(f'<text x="{x1 + 3:.1f}" y="{y + 4}" font-size="10" fill="{fill if failed else "#333"}">'
                       f"{esc(c['errno'] if failed else '?')}</text>")
    for cur in d._loose_cursors():
        x, y = s.x(cur["us"]), d.lane_y(cur["tid"], cur["tgid"])
        tip = f"{s.ms(cur['us']):+.3f} ms cursor of file {cur['file']} consumed {cur['consumed']} outside any traced call"
        out.append(f'<circle class="cursor" cx="{x:.1f}" cy="{y}" r="4" fill="{BAD}"><title>{esc(tip)}</title></circle>')


def seer_target(d, seer):
    """(x, y) of the call that saw a fault, else of its cursor move; None when neither was drawn"""
    c = d.by_i.get(seer["call"]) if seer["call"] is not None else None
    if c is not None and not c["excluded"]:
        return d.scale.x(call_times(c)[1]), d.lane_y(c["tid"], c["tgid"])
    if seer["cursor"] is not None:
        cur = d.rep["cursors"][seer["cursor"]]
        if (cur["tgid"] or cur["tid"]) in d.lanes:
            return d.scale.x(cur["us"]), d.lane_y(cur["tid"], cur["tgid"])
    return None


def draw_arrows(d, out):
    y0 = d.dev_y + DEV / 2 - 2
    for f in d.rep["faults"]:
        if f["fired_us"] is None:
            continue
        x0 = d.scale.x(f["fired_us"])
        for seer in f["seen_by"]:
            at = seer_target(d, seer)
            if at is None:
                continue
            x1, y1 = at
            mid = (y0 + y1) / 2
            out.append(f'<path class="seen" d="M{x0:.1f},{y0:.1f} C{x0:.1f},{mid:.1f} {x1:.1f},{mid:.1f} '
                       f'{x1:.1f},{y1 - 7:.1f}" fill="none" stroke="{BAD}" stroke-width="1.5" '
                       f'marker-end="url(#arrow-{esc(d.name)})"><title>fault #{esc(f["id"])} seen here</title></path>')


def verdict_table(d):
    expect = d.meta.get("expect")
    out = ['<table class="verdicts"><tr><th>fault</th><th>expects</th><th>fired</th><th>errseq sets</th>'
           '<th>verdict</th><th>seen by</th></tr>']
    for f in d.rep["faults"]:
        fired = "never" if f["fired_us"] is None else (
            f"{d.scale.ms(f['fired_us']):+.3f} ms, {f['bios']} bio(s), {f['bios_on_known_data']} on a known file's data")
        seers = []
        for s in f["seen_by"]:
            c = d.by_i.get(s["call"]) if s["call"] is not None else None
            who = describe_call(c, d.scale, d.unexplained)[1] if c else "an untraced path"
            how = ("via the super block" if s["via"] == "super block" else
                   f"via file {s['file']}, " + {True: "errno as recorded", False: "errno differs from recorded",
                                                None: "return not known"}[s["match"]])
            seers.append(f"{esc(who)} ({esc(how)})")
        cls = "pass" if expect is None or f["verdict"] == expect else "fail"
        out.append(f'<tr><td>#{esc(f["id"])}</td><td>{esc(f["expected"])}</td><td>{esc(fired)}</td>'
                   f'<td>{len(f["sets"])}</td><td class="{cls}">{esc(f["verdict"])}'
                   + (f" (the plan expects {esc(expect)})" if cls == "fail" else "")
                   + f'</td><td class="mono">{"<br/>".join(seers) or "-"}</td></tr>')
    out.append("</table>")
    if d.unexplained:
        out.append("<p>Errors no fault explains:</p><ul>" + "".join(
            f'<li class="mono">{esc(describe_call(d.by_i[i], d.scale, d.unexplained)[1])}</li>'
            for i in sorted(d.unexplained) if i in d.by_i) + "</ul>")
    return out


def render(rep, meta, name):
    """report.json and meta.txt of one program instance -> HTML: a line of counts, the SVG, the verdicts"""
    d = Drawing(rep, meta, name)
    w = LABEL_W + d.scale.width + PAD
    nerr = sum(1 for c in d.calls if c["ret"] is not None and c["ret"] < 0 and c.get("sync_result"))
    lost = rep.get("lost_events", 0)
    out = [f'<p>{len(d.calls)} traced calls in {len(d.lanes)} processes, {nerr} sync-family results that '
           f'returned an error; {len(rep["faults"])} fault(s) in the plan, {len(rep["sets"])} errseq set(s)'
           + (f'; <strong class="fail">{lost} trace events lost</strong>' if lost else "") + ".</p>",
           f'<div class="scroll"><svg xmlns="http://www.w3.org/2000/svg" class="timeline" '
           f'id="timeline-{esc(name)}" width="{w:.0f}" height="{d.height:.0f}" '
           f'viewBox="0 0 {w:.0f} {d.height:.0f}" role="img" aria-label="timeline of {esc(meta.get("id", name))}">',
           f'<defs><marker id="arrow-{esc(name)}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" '
           f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{BAD}"/></marker></defs>']
    draw_frame(d, out)
    draw_axis(d, out)
    draw_device(d, out)
    draw_calls(d, out)
    draw_arrows(d, out)
    out.append("</svg></div>")
    return out + verdict_table(d)
