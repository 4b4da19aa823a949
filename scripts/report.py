#!/usr/bin/env python3
# report.py - one HTML page per grading run: build/report/<set>/index.html (`make report`)
# SPDX-License-Identifier: MIT
"""The page of one grading run (`make report [SET=labs|solutions] [LAB=...]`).

Reads what `make grade` left under build/report/<set>/: each lab's results.json
(verdicts and the run's GPU, driver, seed and grader version), measurements.csv
and the data files its tests published. Writes build/report/<set>/index.html
with the run's header, every lab's verdict table with totals, and each plot of
slides/plots/*.gp drawn by slides/plot.sh --own from that run's own data file
(a published file, or measurements.csv itself) into build/report/<set>/plots/;
a lab without a picture shows its measurements as a table. The folder is the
whole report: it opens offline, with no script, and every link and image stays
inside it.

  scripts/report.py [--set SET] [--root DIR] [LAB ...]
    --set   labs (default) or solutions: whose run
    --root  where the runs are (default build/report; the tests use a fixture)
    LAB     the labs this workbook grades (default: the lab folders found);
            a lab named but not graded is listed as such
Run from the workbook's root. Exit status 0 when the page was written, 1 when
no lab of the set was graded (nothing to show: run `make grade` first) or a
plot failed to draw (the page is still written), 2 on a usage error.
Environment: GNUPLOT (as slides/plot.sh).
"""
import csv
import datetime
import html
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.parse

VERDICTS = ("PASS", "FAIL", "SKIP", "RERUN")
# How measurements.csv's comparison column reads as a limit ("ref" rows have none).
COMPARISONS = {"ge": "\u2265", "le": "\u2264", "eq": "=", "in": "\u2248"}
# Files of a lab's folder that every run writes; the others are data its tests published.
RUN_FILES = ("results.json", "check.tap", "measurements.csv")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def esc(text):
    """Text as HTML text or attribute value: nothing a student printed can become markup,
    and control characters (which HTML does not allow) are shown as '?'."""
    return html.escape(CONTROL.sub("?", ANSI.sub("", str(text))), quote=True)


def href(path):
    """A relative link to a file inside the report folder."""
    return esc(urllib.parse.quote(path))


def read_lab(set_dir, lab):
    """What the run left for one lab, or None when it has no readable results.json."""
    folder = os.path.join(set_dir, lab)
    path = os.path.join(folder, "results.json")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            doc = json.load(f)
        rows = [read_row(t) for t in doc["tests"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return {
        "lab": lab,
        "rows": rows,
        "info": doc.get("extra_data") or {},
        "written": os.path.getmtime(path),
        "measurements": read_measurements(os.path.join(folder, "measurements.csv")),
        "files": sorted(n for n in os.listdir(folder)
                        if os.path.isfile(os.path.join(folder, n)) and n not in RUN_FILES),
        # Every file a plot may read: the published data and the run's own files
        # (a plot of measurements.csv draws what every run writes).
        "present": {n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n))},
    }


def read_row(t):
    """One test of results.json: the workbook's fields (extra_data), else Gradescope's own."""
    x = t.get("extra_data") or {}
    verdict = x.get("verdict") or ("PASS" if t.get("status") == "passed" else "FAIL")
    tags = t.get("tags") or []
    return {
        "id": str(x.get("id") or t.get("name", "?")),
        "kind": str(tags[0]) if tags and tags[0] not in VERDICTS else "",
        "verdict": verdict if verdict in VERDICTS else "FAIL",
        "points": int(t.get("score") or 0),
        "max": int(t.get("max_score") or 0),
        "measured": x.get("measured", ""),
        "reason": x.get("reason", "" if x else t.get("output", "")),
        "hint": x.get("hint", ""),
    }


def read_measurements(path):
    try:
        with open(path, newline="", encoding="utf-8", errors="replace") as f:
            return list(csv.DictReader(f))
    except OSError:
        return []


def totals(rows):
    t = {"points": 0, "max": 0, "skipped": 0, "tests": len(rows)}
    for v in VERDICTS:
        t[v] = 0
    for r in rows:
        t["points"] += r["points"]
        t["max"] += r["max"]
        t[r["verdict"]] += 1
        if r["verdict"] == "SKIP":
            t["skipped"] += r["max"]
    return t


def console_header(root, set_name, lab, seed):
    """The first lines the lab's console printed (GPU, clocks, sandbox, seed), where a log of
    the run is kept (make check writes build/report/<set>-<lab>.log) and is of this very run:
    its seed line must name the seed results.json records."""
    path = os.path.join(root, "%s-%s.log" % (set_name, lab))
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None, None
    head = []
    for line in lines:
        if re.match(r"\s*(PASS|FAIL|SKIP|RERUN)\s", ANSI.sub("", line)):
            break
        head.append(line)
    if not seed or not any(re.search(r"\bseed %s\b" % re.escape(str(seed)), l) for l in head):
        return None, None
    return path, head


def clocks_of(lab):
    """The clocks the run recorded: the GPU's clocks and the NVML line from the console where
    it was kept, and the lowest clocks measurements.csv holds for the timed tests."""
    parts = []
    for line in lab.get("console") or []:
        s = line.strip()
        m = re.search(r"SM clock (\d+) MHz, memory clock (\d+) MHz", s)
        if m:
            parts.append("SM %s MHz, memory %s MHz (the device's)" % m.groups())
        elif s.startswith("clocks"):
            parts.append(s)

    def lowest(metric):
        vals = []
        for m in lab["measurements"]:
            if m.get("metric") == metric:
                try:
                    vals.append(float(m.get("value", "")))
                except ValueError:
                    pass
        return min(vals) if vals else None
    sm, mem, top = lowest("clock_sm_mhz_min"), lowest("clock_mem_mhz_min"), lowest("clock_sm_mhz_max_gpu")
    if sm is not None:
        text = "lowest during the timed tests: SM %.0f MHz" % sm
        if top:
            text += " (of %.0f)" % top
        if mem is not None:
            text += ", memory %.0f MHz" % mem
        parts.append(text)
    return "; ".join(parts)


def plot_scripts():
    """slides/plots/*.gp: name, what it shows (its first line) and the data file it reads,
    with the lab that file belongs to."""
    plots = []
    folder = "slides/plots"
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not re.match(r"[0-9][0-9]-.*\.gp$", name):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            text = f.read()
        first = text.splitlines()[0] if text else ""
        about = first.split(" - ", 1)[1] if " - " in first else name
        m = re.search(r"^# csv: *(\S+)", text, re.M)
        csv_path = m.group(1) if m else ""
        lm = re.match(r"build/report/\{set\}/([0-9][0-9]-[^/]+)/([^/]+)$", csv_path)
        if lm:
            plots.append({"name": name[:-3], "about": about, "lab": lm.group(1), "file": lm.group(2)})
    return plots


def draw_plots(root, set_name, set_dir, wanted):
    """Draws the wanted plots with slides/plot.sh --own into <set_dir>/plots/. Returns the names
    drawn, the ones that failed, and a note when gnuplot is missing."""
    out = os.path.join(set_dir, "plots")
    shutil.rmtree(out, ignore_errors=True)  # a plot of an older run must not stay
    if not wanted:
        return set(), set(), ""
    gnuplot = os.environ.get("GNUPLOT", "gnuplot")
    if not shutil.which(gnuplot):
        return set(), set(), "gnuplot not found, so no plot was drawn (sudo apt-get install gnuplot-nox)"
    env = dict(os.environ, SET=set_name, PLOTS_OUT=out, REPORT_ROOT=root, GNUPLOT=gnuplot)
    p = subprocess.run(["sh", "slides/plot.sh", "--own"] + sorted(wanted), env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(p.stdout)
    drawn = {n for n in wanted if os.path.isfile(os.path.join(out, n + ".svg"))
             and os.path.getsize(os.path.join(out, n + ".svg")) > 0}
    return drawn, set(wanted) - drawn, ""


def when(ts):
    return datetime.datetime.fromtimestamp(ts).astimezone().strftime("%Y-%m-%d %H:%M %Z")


def same_or_per_lab(labs, key, fmt=str):
    vals = {fmt(l["info"].get(key, "")) for l in labs}
    if len(vals) == 1:
        v = vals.pop()
        return esc(v) if v else "<span class=na>not recorded</span>"
    return "<span class=na>differs between labs: see the table below</span>"


def page_header(root, set_name, labs, missing):
    gpus = {(l["info"].get("gpu", ""), l["info"].get("arch", ""), l["info"].get("sm_count", 0)) for l in labs}
    if len(gpus) == 1:
        gpu, arch, sms = gpus.pop()
        gpu_html = esc(gpu or "not recorded")
        extra = ", ".join(x for x in (arch, "%s SMs" % sms if sms else "") if x)
        if extra:
            gpu_html += " (%s)" % esc(extra)
    else:
        gpu_html = "<span class=na>differs between labs: see the table below</span>"
    clocks = {c for c in (l["clocks"] for l in labs) if c}
    if not clocks:
        clocks_html = ("<span class=na>not recorded in this run (the grader prints them on its "
                       "console; results.json does not keep them)</span>")
    elif len(clocks) == 1:
        clocks_html = esc(clocks.pop())
    else:
        clocks_html = "<span class=na>per lab, in each lab's section</span>"
    seeds = {str(l["info"].get("seed", "")) for l in labs}
    if len(seeds) == 1:
        seed_html = esc(seeds.pop()) + " (SEED=n repeats a run)"
    else:
        seed_html = "one per lab, in the table below (SEED=n with LAB=NN repeats one)"
    first, last = min(l["written"] for l in labs), max(l["written"] for l in labs)
    date = when(first) if when(first) == when(last) else "%s to %s" % (when(first), when(last))
    rows = [
        ("Set", esc(set_name) + (" (your work)" if set_name == "labs" else
                                 " (the reference)" if set_name == "solutions" else "")),
        ("GPU", gpu_html),
        ("Driver", same_or_per_lab(labs, "driver")),
        ("Clocks", clocks_html),
        ("Seed", seed_html),
        ("Grader version", same_or_per_lab(labs, "grader_version")),
        ("Date", esc(date) + " <span class=na>(when results.json was written)</span>"),
        ("Labs graded", "%d: %s" % (len(labs), esc(" ".join(l["lab"] for l in labs)))),
    ]
    if missing:
        rows.append(("Not graded", "<span class=warn>%s</span> (make grade LAB=NN)" % esc(" ".join(missing))))
    busy = [l["lab"] for l in labs if int(l["info"].get("other_processes") or 0) > 0]
    if busy:
        rows.append(("Warning", "<span class=warn>other processes were using the GPU when %s began"
                     "; timings may be off</span>" % esc(", ".join(busy))))
    return "<table class=run>\n%s\n</table>" % "\n".join(
        "<tr><th>%s</th><td>%s</td></tr>" % (k, v) for k, v in rows)


def summary_table(labs, missing):
    out = ["<table class=summary>",
           "<thead><tr><th>Lab</th><th>Points</th><th>Pass</th><th>Fail</th><th>Skip</th>"
           "<th>Rerun</th><th>Tests</th><th>GPU</th><th>Seed</th><th>Written</th></tr></thead><tbody>"]
    for l in labs:
        t = l["totals"]
        out.append("<tr><td><a href=\"#%s\">%s</a></td><td class=num data-lab=\"%s\">%d/%d</td>"
                   "<td class=num>%d</td><td class=num>%d</td><td class=num>%d</td><td class=num>%d</td>"
                   "<td class=num>%d</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
                       esc(l["lab"]), esc(l["lab"]), esc(l["lab"]), t["points"], t["max"], t["PASS"],
                       t["FAIL"], t["SKIP"], t["RERUN"], t["tests"], esc(l["info"].get("gpu", "")),
                       esc(l["info"].get("seed", "")), esc(when(l["written"]))))
    for lab in missing:
        out.append("<tr class=missing><td>%s</td><td colspan=9>not graded: no readable results.json "
                   "(make grade LAB=%s)</td></tr>" % (esc(lab), esc(lab[:2])))
    t = totals([r for l in labs for r in l["rows"]])
    out.append("</tbody><tfoot><tr><th>Total</th><td class=num id=total-all>%d/%d</td><td class=num>%d</td>"
               "<td class=num>%d</td><td class=num>%d</td><td class=num>%d</td><td class=num>%d</td>"
               "<td colspan=3>%s</td></tr></tfoot></table>" % (
                   t["points"], t["max"], t["PASS"], t["FAIL"], t["SKIP"], t["RERUN"], t["tests"],
                   esc(not_graded_note(t))))
    return "\n".join(out)


def not_graded_note(t):
    notes = []
    if t["skipped"]:
        notes.append("%d points not graded (skipped)" % t["skipped"])
    if t["RERUN"]:
        notes.append("%d test(s) to grade again on an idle GPU (RERUN)" % t["RERUN"])
    return "; ".join(notes)


def limits_by_test(measurements):
    """The limits measurements.csv records per test: '>= 1.5 x' and the like."""
    out = {}
    for m in measurements:
        cmp = COMPARISONS.get(m.get("comparison", ""))
        if not cmp:
            continue
        unit = m.get("unit", "")
        text = "%s %s%s" % (cmp, m.get("limit", ""), " " + unit if unit else "")
        out.setdefault(m.get("test", ""), []).append((m.get("metric", ""), text, m.get("value", "")))
    return out


def verdict_table(lab):
    limits = limits_by_test(lab["measurements"])
    out = ["<table class=verdicts>",
           "<thead><tr><th>Test</th><th>Kind</th><th>Verdict</th><th>Points</th><th>Limit</th>"
           "<th>Measured, reason, hint</th></tr></thead><tbody>"]
    for r in lab["rows"]:
        lim = "<br>".join("<span title=\"%s: measured %s\">%s</span>" % (esc(m), esc(v), esc(t))
                          for m, t, v in limits.get(r["id"], []))
        text = []
        if r["measured"]:
            text.append("<div>%s</div>" % esc(r["measured"]))
        if r["reason"]:
            text.append("<div>%s</div>" % esc(r["reason"]))
        if r["hint"]:
            text.append("<div class=hint>hint: %s</div>" % esc(r["hint"]))
        v = r["verdict"]
        out.append("<tr class=\"row-%s\" data-test=\"%s/%s\"><td><code>%s</code></td><td>%s</td>"
                   "<td><span class=\"v v-%s\">%s</span></td><td class=num>%d/%d</td><td class=limit>%s</td>"
                   "<td>%s</td></tr>" % (
                       v.lower(), esc(lab["lab"]), esc(r["id"]), esc(r["id"]), esc(r["kind"]),
                       v.lower(), v, r["points"], r["max"], lim, "".join(text)))
    t = lab["totals"]
    counts = ", ".join("%d %s" % (t[v], v) for v in VERDICTS if t[v])
    note = not_graded_note(t)
    out.append("</tbody><tfoot><tr><th colspan=3>Total: %s</th><td class=num data-lab-total=\"%s\">%d/%d</td>"
               "<td colspan=2>%s</td></tr></tfoot></table>" % (
                   esc(counts), esc(lab["lab"]), t["points"], t["max"], esc(note)))
    return "\n".join(out)


def measurements_table(lab):
    ms = [m for m in lab["measurements"] if m.get("metric")]
    if not ms:
        return "<p class=na>No measurements recorded in this run (measurements.csv holds none).</p>"
    out = ["<table class=measurements><thead><tr><th>Test</th><th>Metric</th><th>Value</th>"
           "<th>Unit</th><th>Limit</th></tr></thead><tbody>"]
    for m in ms:
        cmp = COMPARISONS.get(m.get("comparison", ""))
        lim = "%s %s" % (cmp, m.get("limit", "")) if cmp else "<span class=na>reference</span>"
        out.append("<tr><td><code>%s</code></td><td>%s</td><td class=num>%s</td><td>%s</td><td>%s</td></tr>" % (
            esc(m.get("test", "")), esc(m.get("metric", "")), esc(m.get("value", "")),
            esc(m.get("unit", "")), esc(lim) if cmp else lim))
    out.append("</tbody></table>")
    return "\n".join(out)


def lab_section(lab, plots, drawn, failed):
    t = lab["totals"]
    out = ["<section id=\"%s\">" % esc(lab["lab"]),
           "<h2>%s <span class=score>%d/%d</span></h2>" % (esc(lab["lab"]), t["points"], t["max"])]
    info = lab["info"]
    out.append("<p class=meta>seed %s, grader %s, on %s%s; written %s</p>" % (
        esc(info.get("seed", "?")), esc(info.get("grader_version", "?")), esc(info.get("gpu", "?")),
        ", clocks: " + esc(lab["clocks"]) if lab["clocks"] else "", esc(when(lab["written"]))))
    out.append(verdict_table(lab))
    mine = [p for p in plots if p["lab"] == lab["lab"]]
    pictures = 0
    for p in mine:
        data = "%s/%s" % (lab["lab"], p["file"])
        if p["name"] in drawn:
            pictures += 1
            out.append("<figure><img src=\"%s\" alt=\"%s\">"
                       "<figcaption>%s. Data: <a href=\"%s\">%s</a> (this run), drawn by slides/plots/%s.gp."
                       "</figcaption></figure>" % (
                           href("plots/%s.svg" % p["name"]), esc(p["about"]), esc(p["about"][:1].upper() + p["about"][1:]),
                           href(data), esc(data), esc(p["name"])))
        elif p["name"] in failed:
            out.append("<p class=warn>No picture: gnuplot failed on slides/plots/%s.gp with %s.</p>" % (
                esc(p["name"]), esc(data)))
        elif p["file"] in lab["present"]:
            out.append("<p class=na>No picture of %s: plots were not drawn.</p>" % esc(data))
        else:
            out.append("<p class=na>No picture: this run wrote no %s (drawn by slides/plots/%s.gp).</p>" % (
                esc(data), esc(p["name"])))
    n = len([m for m in lab["measurements"] if m.get("metric")])
    if pictures and n:
        out.append("<details><summary>All %d measurements (measurements.csv)</summary>%s</details>" % (
            n, measurements_table(lab)))
    elif not pictures:
        out.append("<h3>Measurements</h3>")
        out.append(measurements_table(lab))
    files = ["results.json", "check.tap", "measurements.csv"] + lab["files"]
    out.append("<p class=files>Files of this run: %s</p>" % ", ".join(
        "<a href=\"%s\">%s</a>" % (href("%s/%s" % (lab["lab"], f)), esc(f)) for f in files))
    if lab.get("console"):
        out.append("<details><summary>Console header (kept in %s)</summary><pre>%s</pre></details>" % (
            esc(lab["console_path"]), esc("\n".join(lab["console"]))))
    out.append("</section>")
    return "\n".join(out)


STYLE = """
body { font: 15px/1.45 "DejaVu Sans", Arial, sans-serif; color: #1b1f24; background: #fff;
       max-width: 1200px; margin: 1.5em auto; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .3em; }
h2 { border-bottom: 2px solid #76b900; padding-bottom: .15em; margin-top: 2em; }
h2 .score { float: right; font-weight: normal; }
table { border-collapse: collapse; margin: .6em 0; }
th, td { border: 1px solid #d0d7de; padding: .25em .5em; text-align: left; vertical-align: top; }
thead th, tfoot th, tfoot td { background: #f3f5f7; }
table.run th { background: #f3f5f7; width: 9em; }
table.verdicts, table.summary { width: 100%; }
td.num, td.limit { white-space: nowrap; }
td.num { text-align: right; }
td div { overflow-wrap: anywhere; }
.hint { color: #57606a; }
.v { display: inline-block; min-width: 4.2em; text-align: center; font-weight: bold; border-radius: 3px; padding: 0 .3em; }
.v-pass { background: #dafbe1; color: #116329; }
.v-fail { background: #ffebe9; color: #a40e26; }
.v-skip { background: #eaeef2; color: #57606a; border: 1px dashed #8c959f; }
.v-rerun { background: #fff1c2; color: #7d4e00; border: 1px solid #d4a72c; }
tr.row-skip td { color: #57606a; }
tr.row-rerun td { background: #fffbea; }
tr.missing td { color: #7d4e00; background: #fffbea; }
.na { color: #6e7781; }
.warn { color: #a40e26; }
.meta { color: #57606a; margin-top: -.5em; }
figure { margin: 1em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #d0d7de; }
figcaption { color: #57606a; font-size: .93em; }
pre { background: #f6f8fa; padding: .6em; overflow-x: auto; }
code { font-family: "DejaVu Sans Mono", monospace; }
@media print { details { display: block; } h2 { break-before: auto; } }
"""


def page(root, set_name, labs, missing, plots, drawn, failed, gnuplot_note):
    parts = ["<!DOCTYPE html>", "<html lang=en><head><meta charset=utf-8>",
             "<meta name=viewport content=\"width=device-width, initial-scale=1\">",
             "<title>Grading report: %s</title>" % esc(set_name), "<style>%s</style>" % STYLE,
             "</head><body>", "<h1>Grading report: set %s</h1>" % esc(set_name),
             page_header(root, set_name, labs, missing)]
    if gnuplot_note:
        parts.append("<p class=warn>%s; each lab shows its measurements instead.</p>" % esc(gnuplot_note))
    parts.append("<h2>Summary</h2>")
    parts.append(summary_table(labs, missing))
    for lab in labs:
        parts.append(lab_section(lab, plots, drawn, failed))
    parts.append("<p class=na>Written by make report from %s/%s/; this folder is the whole report "
                 "(copy it as it is).</p>" % (esc(root), esc(set_name)))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def main(argv):
    set_name, root, labs_named = "labs", "build/report", []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("--set", "--root") and args:
            if a == "--set":
                set_name = args.pop(0)
            else:
                root = args.pop(0)
        elif a.startswith("-"):
            sys.stderr.write(__doc__)
            return 2
        else:
            labs_named.append(a)
    if not re.match(r"^[A-Za-z0-9_-]+$", set_name):
        sys.stderr.write("report: SET=%s is not a set's name (labs or solutions)\n" % set_name)
        return 2
    root = os.path.normpath(root)
    set_dir = os.path.join(root, set_name)
    if not labs_named and os.path.isdir(set_dir):
        labs_named = sorted(d for d in os.listdir(set_dir)
                            if re.match(r"[0-9][0-9]-", d) and os.path.isdir(os.path.join(set_dir, d)))
    labs, missing = [], []
    for name in labs_named:
        lab = read_lab(set_dir, name)
        if lab is None:
            missing.append(name)
            if os.path.exists(os.path.join(set_dir, name, "results.json")):
                print("report: %s/%s/results.json cannot be read: shown as not graded" % (set_dir, name))
            continue
        lab["totals"] = totals(lab["rows"])
        lab["console_path"], lab["console"] = console_header(root, set_name, name, lab["info"].get("seed"))
        lab["clocks"] = clocks_of(lab)
        labs.append(lab)
    if not labs:
        # A page of an older run would be mistaken for this one.
        if os.path.exists(os.path.join(set_dir, "index.html")):
            os.remove(os.path.join(set_dir, "index.html"))
        shutil.rmtree(os.path.join(set_dir, "plots"), ignore_errors=True)
        print("report: no lab of set %s was graded (no results.json under %s/): run `make grade%s` first"
              % (set_name, set_dir, "" if set_name == "labs" else " SET=" + set_name))
        return 1
    plots = plot_scripts()
    graded = {l["lab"]: l for l in labs}
    wanted = [p["name"] for p in plots if p["lab"] in graded and p["file"] in graded[p["lab"]]["present"]
              and os.path.getsize(os.path.join(set_dir, p["lab"], p["file"])) > 0]
    drawn, failed, note = draw_plots(root, set_name, set_dir, wanted)
    out = os.path.join(set_dir, "index.html")
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write(page(root, set_name, labs, missing, plots, drawn, failed, note))
    os.replace(out + ".tmp", out)
    t = totals([r for l in labs for r in l["rows"]])
    print("report: %s  (%d/%d points; %d of %d labs graded, %d picture(s))" % (
        out, t["points"], t["max"], len(labs), len(labs) + len(missing), len(drawn)))
    if missing:
        print("report: not graded in this run: %s (make grade LAB=NN%s)" % (
            " ".join(missing), "" if set_name == "labs" else " SET=" + set_name))
    if note:
        print("report: " + note)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
