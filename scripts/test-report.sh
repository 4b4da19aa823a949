#!/usr/bin/env bash
# test-report.sh - `make report` on a fixture: every verdict and total, escaping, a self-contained folder, a screenshot
#
# The fixture (build/tests/report-fixture/) is made by the real graders of two
# labs, run without a GPU (PASS, FAIL and SKIP rows), for each set built here,
# with their consoles kept as check-grades.sh keeps them. Lab 01's sample
# timeline is placed where its grader publishes timeline.csv, so the page has
# its picture; lab 00's is drawn from the run's measurements.csv. One
# results.json gets a hostile reason (<script>, &, quotes) and a RERUN row,
# and one measurements.csv a limit row with markup in its value. A lab named
# but not graded must be listed; a set with nothing graded must be refused;
# a lab whose run wrote no data for its picture (lab 01 without its
# timeline.csv, in a copy of the labs set) shows its measurements instead;
# lab 03, graded in another copy with the sample of its edge warps placed
# where its grader publishes edge_warps.csv, gets that picture alone.
# With Chromium, the page (its folder copied elsewhere, no network) is
# screenshotted to build/tests/report-fixture/screenshot.png and must not be
# blank; without Chromium that check is SKIP, never PASS.
set -u
F=build/tests/report-fixture
LABS_USED="00-device-query 01-block-scheduling"
status=0
pass() { echo "PASS  report: $*"; }
fail() { echo "FAIL  report: $*"; status=1; }
skip() { echo "SKIP  report: $*"; }
if ! command -v python3 >/dev/null 2>&1; then
    skip "python3 not found: make report needs it (sudo apt-get install python3)"; exit 0
fi

rm -rf "$F"
mkdir -p "$F"
sets=labs
[ -x build/solutions/00-device-query/grade ] && sets="labs solutions"
for set in $sets; do
    for lab in $LABS_USED; do
        g=build/$set/$lab/grade
        [ -x "$g" ] || { fail "$g is not built (make all)"; exit 1; }
        # Exit status 1 is a score below full marks; only the files matter here.
        "$g" --set "$set" --report-dir "$F/$set/$lab" >"$F/$set-$lab.log" 2>&1
        [ -s "$F/$set/$lab/results.json" ] || { fail "$g wrote no results.json (log: $F/$set-$lab.log)"; exit 1; }
    done
    cp slides/samples/01-timeline.csv "$F/$set/01-block-scheduling/timeline.csv"
done

# The hostile reason and a RERUN row (labs), and a limit row whose value holds markup.
python3 - "$F/labs" <<'EOF'
import json, sys
d = sys.argv[1]
p = d + "/00-device-query/results.json"
doc = json.load(open(p))
x = doc["tests"][0]["extra_data"]
x["reason"] = "printed </td></tr><script>alert(\"pwned\")</script> & 'quoted' <b>bold</b>"
x["measured"] = "a<b & c>d"
json.dump(doc, open(p, "w"), indent=1)
p = d + "/01-block-scheduling/results.json"
doc = json.load(open(p))
t = doc["tests"][-1]
t["score"] = 0
t["tags"][-1] = "RERUN"
t["extra_data"]["verdict"] = "RERUN"
t["extra_data"]["reason"] = "the GPU was busy while this was timed: grade again when the GPU is idle"
json.dump(doc, open(p, "w"), indent=1)
with open(d + "/00-device-query/measurements.csv", "a") as f:
    f.write("00-device-query,labs,correct.lanes,lanes_ratio,<img src=x onerror=alert(1)>,x,1.25,ge,,1\n")
EOF

# ---- a set with nothing graded is refused, and says to run make grade
out=$(python3 scripts/report.py --root "$F" --set nothing $LABS_USED 2>&1); rc=$?
if [ $rc != 0 ] && grep -q "make grade" <<<"$out" && [ ! -e "$F/nothing/index.html" ]; then
    pass "nothing graded: exit status $rc, \"$out\""
else
    fail "nothing graded: exit status $rc and \"$out\" (wanted non-zero, naming make grade, no page)"
fi

# ---- each set's page; lab 03 is named but was not graded
for set in $sets; do
    page=$F/$set/index.html
    out=$(python3 scripts/report.py --root "$F" --set "$set" $LABS_USED 03-divergence 2>&1); rc=$?
    if [ $rc != 0 ] || [ ! -s "$page" ]; then
        fail "$set: scripts/report.py exit status $rc, no $page: $out"; continue
    fi
    pass "$set: $page written ($(wc -c <"$page") bytes)"
    if grep -q "not graded.*03-divergence" <<<"$out" && grep -q "not graded: no readable results.json" "$page"; then
        pass "$set: the lab not graded (03-divergence) is named on the console and in the page"
    else
        fail "$set: 03-divergence, not graded, is not named (console: $out)"
    fi

    # every test row and every total, counted from results.json by wb-summary
    rows=0 bad=0 all_p=0 all_m=0
    for lab in $LABS_USED; do
        tsv=$(build/tools/wb-summary --tsv "$F/$set/$lab/results.json")
        p=0 m=0
        while IFS=$'\t' read -r id verdict pts max reason; do
            rows=$((rows + 1)) p=$((p + pts)) m=$((m + max))
            grep -qF "data-test=\"$lab/$id\"><td><code>$id</code></td>" "$page" &&
                grep -qF "<tr class=\"row-${verdict,,}\" data-test=\"$lab/$id\">" "$page" ||
                { fail "$set: no $verdict row for $lab $id"; bad=1; }
        done <<<"$tsv"
        grep -qF "data-lab-total=\"$lab\">$p/$m<" "$page" && grep -qF "data-lab=\"$lab\">$p/$m<" "$page" ||
            { fail "$set: $lab's total is not $p/$m"; bad=1; }
        all_p=$((all_p + p)) all_m=$((all_m + m))
    done
    grep -qF "id=total-all>$all_p/$all_m<" "$page" || { fail "$set: the overall total is not $all_p/$all_m"; bad=1; }
    [ $bad = 0 ] && pass "$set: all $rows test rows with their verdicts, each lab's total and the overall $all_p/$all_m"

    # SKIP and RERUN are marked apart from FAIL
    if [ "$set" = labs ]; then
        if grep -q 'class="v v-skip">SKIP<' "$page" && grep -q 'class="v v-rerun">RERUN<' "$page"; then
            pass "$set: SKIP and RERUN rows shown with their own marks"
        else
            fail "$set: SKIP or RERUN rows are not marked apart"
        fi
        # the hostile reason and measurement are text, never markup
        if grep -qi '<script' "$page" || grep -qi '<img src=x' "$page" || grep -q '<b>bold' "$page"; then
            fail "$set: a reason or a measurement became markup"
        elif grep -qF '&lt;/td&gt;&lt;/tr&gt;&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; &amp; &#x27;quoted&#x27;' "$page" &&
            grep -qF 'a&lt;b &amp; c&gt;d' "$page" && grep -qF '&lt;img src=x onerror=alert(1)&gt;' "$page"; then
            pass "$set: a reason with <script>, & and quotes, and a measurement with markup, shown escaped"
        else
            fail "$set: the hostile reason is not shown escaped"
        fi
        if grep -qF '&ge; 1.25 x' "$page" || grep -qF "≥ 1.25 x" "$page"; then
            pass "$set: a test's limit (>= 1.25 x from measurements.csv) shown in its row"
        else
            fail "$set: the limit of correct.lanes (ge 1.25) is not shown"
        fi
    fi

    # every link and image resolves to a file inside the folder; no script; the picture
    refs=$(python3 - "$page" <<'EOF'
import html.parser, os, sys, urllib.parse
page = sys.argv[1]
top = os.path.realpath(os.path.dirname(page))
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.refs = []; self.ids = set(); self.scripts = 0
    def handle_starttag(self, tag, attrs):
        self.scripts += tag == "script"
        for k, v in attrs:
            if k == "id": self.ids.add(v)
            if k in ("src", "href", "srcset", "poster", "data", "action"): self.refs.append((tag, v or ""))
p = P(); p.feed(open(page, encoding="utf-8").read())
bad, imgs = [], []
for tag, ref in p.refs:
    u = urllib.parse.urlsplit(ref)
    if ref.startswith("#"):
        if ref[1:] not in p.ids: bad.append(ref + " (no such anchor)")
        continue
    path = os.path.realpath(os.path.join(top, urllib.parse.unquote(u.path)))
    if u.scheme or u.netloc or ref.startswith("/") or not path.startswith(top + os.sep):
        bad.append(ref + " (outside the folder)")
    elif not os.path.isfile(path):
        bad.append(ref + " (missing)")
    elif tag == "img":
        imgs.append(ref)
        if path.endswith(".svg"):
            svg = open(path, encoding="utf-8").read()
            import re
            for h in re.findall(r'href="([^"]*)"', svg):
                if not h.startswith("#"): bad.append("%s links %s" % (ref, h))
if p.scripts: bad.append("%d <script> element(s)" % p.scripts)
print("%d refs, images: %s" % (len(p.refs), " ".join(imgs) or "none"))
for b in bad: print("BAD " + b)
EOF
)
    if grep -q '^BAD' <<<"$refs"; then
        fail "$set: $(grep '^BAD' <<<"$refs" | head -n 3 | tr '\n' ';')"
    else
        pass "$set: $(head -n 1 <<<"$refs"), all inside $F/$set/, no script"
    fi
    if ! command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
        skip "$set: the pictures need gnuplot (sudo apt-get install gnuplot-nox)"
    elif grep -q 'plots/01-timeline.svg' <<<"$refs" && [ -s "$F/$set/plots/01-timeline.svg" ] &&
        grep -q 'plots/00-device.svg' <<<"$refs" && [ -s "$F/$set/plots/00-device.svg" ] &&
        [ "$(ls "$F/$set/plots/" | tr '\n' ' ')" = "00-device.svg 01-timeline.svg " ] &&
        grep -qF 'href="01-block-scheduling/timeline.csv"' "$page" &&
        grep -qF 'href="00-device-query/measurements.csv">00-device-query/measurements.csv</a> (this run)' "$page"; then
        pass "$set: lab 01's timeline drawn from the run's own timeline.csv, lab 00's picture from its measurements.csv, no other plot (no other data)"
        # without a GPU lab 00's two checks record nothing, and its picture says so
        grep -q "not measured in this run" "$F/$set/plots/00-device.svg" ||
            fail "$set: lab 00's picture of a run whose checks recorded nothing does not say so"
    else
        fail "$set: the picture of lab 00 or lab 01 is missing, or a plot without its run's data was drawn"
    fi
    # lab 00's measurements are still on the page, under its picture (the labs fixture holds one row)
    if [ "$set" != labs ] ||
        grep -qF '<summary>All 1 measurements (measurements.csv)</summary><table class=measurements>' "$page"; then
        pass "$set: lab 00's measurements listed under its picture, or none recorded"
    else
        fail "$set: lab 00's measurements (one row) are not listed under its picture"
    fi
done

# ---- a lab whose run wrote no data for its picture shows its measurements as a table:
# lab 01 without its timeline.csv, one measurement added, in a copy of the labs set
rm -rf "$F/bare"
cp -r "$F/labs" "$F/bare"
rm -rf "$F/bare/plots" "$F/bare/index.html" "$F/bare/01-block-scheduling/timeline.csv"
echo "01-block-scheduling,labs,check.timeline,waves,3,waves,3,eq,,1" >>"$F/bare/01-block-scheduling/measurements.csv"
python3 scripts/report.py --root "$F" --set bare $LABS_USED >"$F/bare.log" 2>&1
lab01=$(python3 -c '
import re, sys
m = re.search(r"<section id=\"01-block-scheduling\">.*?</section>", open(sys.argv[1], encoding="utf-8").read(), re.S)
print(m.group(0) if m else "")' "$F/bare/index.html" 2>/dev/null)
if grep -q '<h3>Measurements</h3>' <<<"$lab01" && grep -q '<table class=measurements>' <<<"$lab01" &&
    grep -qF 'this run wrote no 01-block-scheduling/timeline.csv' <<<"$lab01" &&
    ! grep -q '<img' <<<"$lab01" && [ ! -e "$F/bare/plots/01-timeline.svg" ]; then
    pass "bare: lab 01 without its timeline.csv shows no picture, says why, and lists its measurements as a table"
else
    fail "bare: lab 01 without its timeline.csv does not list its measurements as a table (page: $F/bare/index.html)"
fi

# ---- lab 03's picture of an image's edge, drawn from the run's own edge_warps.csv (the sample
# placed where measure.edge_warps publishes it, in a copy of the labs set with lab 03 graded
# here): linked to its data, no other picture of lab 03 (its run wrote no other data), and
# the images of the questions, which the sample does not hold, not drawn
rm -rf "$F/edge"
cp -r "$F/labs" "$F/edge"
rm -rf "$F/edge/plots" "$F/edge/index.html"
build/labs/03-divergence/grade --set labs --report-dir "$F/edge/03-divergence" >"$F/edge-03-divergence.log" 2>&1
cp slides/samples/03-edge-warps.csv "$F/edge/03-divergence/edge_warps.csv"
python3 scripts/report.py --root "$F" --set edge $LABS_USED 03-divergence >"$F/edge.log" 2>&1
lab03=$(python3 -c '
import re, sys
m = re.search(r"<section id=\"03-divergence\">.*?</section>", open(sys.argv[1], encoding="utf-8").read(), re.S)
print(m.group(0) if m else "")' "$F/edge/index.html" 2>/dev/null)
if ! command -v "${GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
    skip "edge: lab 03's picture needs gnuplot (sudo apt-get install gnuplot-nox)"
elif grep -qF '<img src="plots/03-edge-warps.svg"' <<<"$lab03" &&
    grep -qF 'href="03-divergence/edge_warps.csv">03-divergence/edge_warps.csv</a> (this run)' <<<"$lab03" &&
    grep -qF 'this run wrote no 03-divergence/warp_passes.csv' <<<"$lab03" &&
    [ "$(ls "$F/edge/plots/" | grep '^03-' | tr '\n' ' ')" = "03-edge-warps.svg " ] &&
    [ "$(grep -c '[0-9] of [0-9]* warps diverge<' "$F/edge/plots/03-edge-warps.svg")" = 2 ] &&
    grep -qF 'question.divergent_200x150 passes' "$F/edge/plots/03-edge-warps.svg"; then
    pass "edge: lab 03's picture of its edge warps drawn from the run's edge_warps.csv, its two images alone, no other picture of lab 03"
else
    fail "edge: lab 03's picture of its edge warps is missing, draws an image the file does not hold, or another lab 03 plot was drawn (page: $F/edge/index.html)"
fi

# ---- the page in headless Chromium: copied elsewhere (the folder is the whole report),
# no network, a fresh profile; laid out 1280 pixels wide and shot at half scale, so that
# the whole page fits in one picture small enough to check here
chrome=${CHROME_PATH:-}
if [ -z "$chrome" ]; then
    for c in chromium chromium-browser google-chrome google-chrome-stable; do
        chrome=$(command -v "$c" 2>/dev/null) && break
    done
fi
if [ -z "$chrome" ]; then
    skip "screenshot: Chromium not found (sudo apt-get install chromium, or set CHROME_PATH)"
else
    t=$(mktemp -d /tmp/wb-report-test.XXXXXX)
    cp -r "$F/labs" "$t/report"
    shot=$F/screenshot.png
    rm -f "$shot"
    timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
        --no-default-browser-check --disable-background-networking --disable-extensions \
        --disable-sync --proxy-server=127.0.0.1:9 \
        --user-data-dir="$t/profile" --force-device-scale-factor=0.5 --window-size=1280,4400 --screenshot="$(realpath "$shot")" \
        "file://$(realpath "$t/report/index.html")" >"$F/chromium.log" 2>&1
    rm -rf "$t"
    look=$(python3 - "$shot" 2>/dev/null <<'EOF'
import struct, sys, zlib
# A PNG's pixels with the standard library: 8-bit RGB or RGBA, not interlaced (Chromium's).
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype, _, _, lace = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6) and lace == 0, "PNG kind %d/%d" % (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, rows, i = bytearray(stride), [], 0
for _ in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line)); prev = line
colours, ink, n = set(), 0, 0
for r in rows[::4]:
    for x in range(0, stride, 4 * bpp):
        px = r[x:x + 3]; colours.add(px); n += 1
        ink += sum(px) < 600
print("%dx%d, %d colours, %.1f%% ink" % (w, h, len(colours), 100.0 * ink / n))
EOF
    )
    size=$(stat -c %s "$shot" 2>/dev/null || echo 0)
    colours=$(sed -n 's/.*, \([0-9]*\) colours.*/\1/p' <<<"$look")
    ink=$(sed -n 's/.*colours, \([0-9]*\)\..*/\1/p' <<<"$look")
    if [ "$size" -gt 20000 ] && [ "${colours:-0}" -gt 16 ] && [ "${ink:-0}" -ge 2 ]; then
        pass "screenshot: $shot, $size bytes, $look (Chromium, no network, the folder copied out of build/)"
    else
        fail "screenshot: $shot looks blank: $size bytes, ${look:-not a PNG} (log: $F/chromium.log)"
    fi
fi
exit $status
