#!/bin/sh
# test-slides.sh - the slides' tests in `make check`: references, rendering, screenshots, plots
# SPDX-License-Identifier: MIT
#
# Always: every image a deck references exists (a figure in slides/figures/,
# or a plot that a slides/plots/*.gp script draws). With Node.js and Marp
# (slides/node_modules): every deck renders. With Chromium too: every slide
# is shown in headless Chromium, screenshotted to build/slides/screenshots/,
# and must have text, load every image, and cut nothing off. With gnuplot:
# every plot script draws its plot from its sample. A missing tool is a SKIP
# line, never a failure; nothing is installed or downloaded.
set -u
MARP=${MARP:-slides/node_modules/.bin/marp}
CHROME_PATH=${CHROME_PATH:-}
GNUPLOT=${GNUPLOT:-gnuplot}
decks=$(ls slides/[0-9][0-9]-*.md)
fails=0 passes=0 skips=0
pass() { printf '  PASS  %-22s %s\n' "$1" "$2"; passes=$((passes + 1)); }
fail() { printf '  FAIL  %-22s %s\n' "$1" "$2"; fails=$((fails + 1)); }
skip() { printf '  SKIP  %-22s %s\n' "$1" "$2"; skips=$((skips + 1)); }
echo "== slides"

# 1. references
nref=0 bad=0
for deck in $decks; do
    for ref in $(grep -o '!\[[^]]*\]([^) ]*' "$deck" | sed 's/.*](//'); do
        nref=$((nref + 1))
        case $ref in
        figures/*) [ -s "slides/$ref" ] || { fail slides.images "$deck: $ref does not exist"; bad=1; } ;;
        ../build/plots/*.svg)
            gp=slides/plots/$(basename "$ref" .svg).gp
            [ -s "$gp" ] || { fail slides.images "$deck: $ref is drawn by no $gp"; bad=1; } ;;
        *) fail slides.images "$deck: $ref is neither figures/*.svg nor ../build/plots/*.svg"; bad=1 ;;
        esac
    done
done
[ $bad = 0 ] && pass slides.images "$nref references in $(echo $decks | wc -w) decks, all present"

# 1b. every plot reads a file its lab's grader writes (the name appears in
# the grader's sources), so a renamed output cannot leave a plot on its sample
bad=0 nplot=0
for gp in slides/plots/[0-9][0-9]-*.gp; do
    [ -e "$gp" ] || continue
    nplot=$((nplot + 1))
    csv=$(sed -n 's/^# csv: *\([^ ]*\).*/\1/p' "$gp" | head -n 1)
    lab=$(echo "$csv" | sed -n 's#.*/\([0-9][0-9]-[a-z-]*\)/[^/]*$#\1#p')
    if [ -z "$csv" ] || [ -z "$lab" ] || [ ! -d "grader/$lab" ]; then
        fail slides.plot-inputs "$gp: its '# csv:' line names no lab's file ($csv)"; bad=1; continue
    fi
    grep -rqF "$(basename "$csv")" "grader/$lab" ||
        { fail slides.plot-inputs "$gp: grader/$lab never writes $(basename "$csv")"; bad=1; }
done
[ $bad = 0 ] && pass slides.plot-inputs "$nplot plot scripts, each reads a file its lab's grader writes"

# 2. plots from the samples
if command -v "$GNUPLOT" >/dev/null 2>&1; then
    out=build/slides-test/plots
    rm -rf "$out"
    mkdir -p build
    if SET=none PLOTS_OUT=$out GNUPLOT=$GNUPLOT sh slides/plot.sh >build/slides-test.plots.log 2>&1; then
        n=$(ls $out/*.svg 2>/dev/null | wc -l)
        pass slides.plots "$n plot(s) drawn from the samples"
    else
        fail slides.plots "slides/plot.sh failed: $(tail -n 3 build/slides-test.plots.log)"
    fi
else
    skip slides.plots "gnuplot not found (sudo apt-get install gnuplot-nox)"
fi

# 3. rendering
if ! command -v node >/dev/null 2>&1; then
    skip slides.render "Node.js not found (sudo apt-get install nodejs npm; cd slides && npm ci)"
    skip slides.screenshots "needs Node.js and Marp"
elif [ ! -x "$MARP" ]; then
    skip slides.render "Marp CLI not installed (cd slides && npm ci)"
    skip slides.screenshots "needs Marp"
else
    mkdir -p build
    # Your own plots where `make plots` drew them, else the ones just drawn from the samples.
    plots=build/plots
    [ -d build/plots ] || plots=build/slides-test/plots
    if PLOTS_OUT=$plots MARP=$MARP CHROME_PATH=$CHROME_PATH sh slides/render.sh >build/slides-test.render.log 2>&1; then
        pass slides.render "$(grep -c '^  HTML' build/slides-test.render.log) HTML, $(grep -c '^  PDF' build/slides-test.render.log) PDF in build/slides/"
    else
        fail slides.render "$(grep FAIL build/slides-test.render.log | head -n 3)"
    fi
    # 4. screenshots
    if [ -z "$CHROME_PATH" ]; then
        skip slides.screenshots "Chromium not found (sudo apt-get install chromium, or set CHROME_PATH)"
    elif [ ! -d slides/node_modules/puppeteer-core ]; then
        skip slides.screenshots "puppeteer-core not installed (cd slides && npm ci)"
    else
        for deck in $decks; do
            name=$(basename "$deck" .md)
            if res=$(CHROME_PATH=$CHROME_PATH node slides/test-slides.js "build/slides/$name.html" \
                "build/slides/screenshots/$name" 2>&1); then
                pass "slides.$name" "$res"
            else
                fail "slides.$name" "$res"
            fi
        done
    fi
fi
echo "slides: $passes passed, $fails failed, $skips skipped"
[ $fails = 0 ]
