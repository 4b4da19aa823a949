#!/bin/sh
# test-slides.sh - the slides' tests in `make check`: references, rendering, screenshots, plots
# SPDX-License-Identifier: MIT
#
# Both kinds of deck are tested: the concept decks slides/NN-topic.md and,
# where solutions/ exists, the solution decks slides/solutions/NN-topic.md.
# Always: every image a deck references exists (a figure in slides/figures/,
# or a plot that a slides/plots/*.gp script draws), and in the full workbook
# every concept deck has its solution deck and the other way round. With
# Node.js and Marp (slides/node_modules): every deck renders. With Chromium
# too: every slide is shown in headless Chromium, screenshotted to
# build/slides/screenshots/NN-topic/ (solution decks:
# build/slides/screenshots/solutions/NN-topic/), and must have text, load
# every image, and cut nothing off. With gnuplot: every plot script draws its
# plot from its sample. A missing tool is a SKIP line, never a failure;
# nothing is installed or downloaded.
#
# usage: slides/test-slides.sh [DECK.md ...]   (default: as `make slides` picks them)
set -u
MARP=${MARP:-slides/node_modules/.bin/marp}
CHROME_PATH=${CHROME_PATH:-}
GNUPLOT=${GNUPLOT:-gnuplot}
if [ $# -gt 0 ]; then
    decks="$*"
else
    decks=$(ls slides/[0-9][0-9]-*.md 2>/dev/null || true)
    [ -d solutions ] && decks="$decks $(ls slides/solutions/[0-9][0-9]-*.md 2>/dev/null || true)"
fi
fails=0 passes=0 skips=0
pass() { printf '  PASS  %-22s %s\n' "$1" "$2"; passes=$((passes + 1)); }
fail() { printf '  FAIL  %-22s %s\n' "$1" "$2"; fails=$((fails + 1)); }
skip() { printf '  SKIP  %-22s %s\n' "$1" "$2"; skips=$((skips + 1)); }
echo "== slides"

# 1. references: resolved from the deck's own folder (a solution deck's figures
# are ../figures/NAME.svg, its plots ../../build/plots/NAME.svg)
nref=0 bad=0
for deck in $decks; do
    dir=$(dirname "$deck")
    for ref in $(grep -o '!\[[^]]*\]([^) ]*' "$deck" | sed 's/.*](//'); do
        nref=$((nref + 1))
        path=$(realpath -m --relative-to=. "$dir/$ref")
        case $path in
        slides/figures/*.svg) [ -s "$path" ] || { fail slides.images "$deck: $ref does not exist"; bad=1; } ;;
        build/plots/*.svg)
            gp=slides/plots/$(basename "$path" .svg).gp
            [ -s "$gp" ] || { fail slides.images "$deck: $ref is drawn by no $gp"; bad=1; } ;;
        *) fail slides.images "$deck: $ref is neither a figure (slides/figures/) nor a plot (build/plots/)"; bad=1 ;;
        esac
    done
done
[ $bad = 0 ] && pass slides.images "$nref references in $(echo $decks | wc -w) decks, all present"

# 1a. in the full workbook, each lab's concept deck has its solution deck and back
if [ -d solutions ] && [ -d slides/solutions ]; then
    bad=0 npair=0
    for deck in slides/[0-9][0-9]-*.md; do
        [ -e "$deck" ] || continue
        npair=$((npair + 1))
        [ -s "slides/solutions/${deck#slides/}" ] ||
            { fail slides.pairs "$deck has no solution deck slides/solutions/${deck#slides/}"; bad=1; }
    done
    for deck in slides/solutions/[0-9][0-9]-*.md; do
        [ -e "$deck" ] || continue
        [ -s "slides/${deck#slides/solutions/}" ] ||
            { fail slides.pairs "$deck has no concept deck slides/${deck#slides/solutions/}"; bad=1; }
    done
    [ $bad = 0 ] && pass slides.pairs "$npair concept decks, each with its solution deck in slides/solutions/"
fi

# 1b. every plot reads a file its lab's grader writes (the name appears in
# the grader's sources, or in the kit's for measurements.csv, which every
# grader writes), so a renamed output cannot leave a plot on its sample
bad=0 nplot=0
for gp in slides/plots/[0-9][0-9]-*.gp; do
    [ -e "$gp" ] || continue
    nplot=$((nplot + 1))
    csv=$(sed -n 's/^# csv: *\([^ ]*\).*/\1/p' "$gp" | head -n 1)
    lab=$(echo "$csv" | sed -n 's#.*/\([0-9][0-9]-[a-z-]*\)/[^/]*$#\1#p')
    if [ -z "$csv" ] || [ -z "$lab" ] || [ ! -d "grader/$lab" ]; then
        fail slides.plot-inputs "$gp: its '# csv:' line names no lab's file ($csv)"; bad=1; continue
    fi
    writer=grader/$lab
    [ "$(basename "$csv")" = measurements.csv ] && writer=grader/kit
    grep -rqF "$(basename "$csv")" "$writer" ||
        { fail slides.plot-inputs "$gp: $writer never writes $(basename "$csv")"; bad=1; }
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
    # Lab 03's status line judges your layout by its total too: records that each agree with
    # themselves but count no lane (the stub's) are not "right".
    fx=build/slides-test/fx
    rm -rf "$fx" && mkdir -p "$fx/fx/03-divergence"
    grep -v '^uniform' slides/samples/03-warp-passes.csv >"$fx/fx/03-divergence/warp_passes.csv"
    { head -n 1 slides/samples/03-warp-passes.csv
      awk -F, '$1 == "uniform" { z = "00000000000000000000000000000000"
          print $1 "," $2 "," $3 ",0,0," z "," z ",0,0,,,1" }' slides/samples/03-warp-passes.csv
    } >"$fx/fx/03-divergence/warp_passes_uniform.csv"
    REPORT_ROOT=$fx SET=fx PLOTS_OUT=$fx/out GNUPLOT=$GNUPLOT sh slides/plot.sh --own 03-warp-passes >/dev/null 2>&1
    if grep -q "its records count 0 lanes, not the 1003 elements" "$fx/out/03-warp-passes.svg" 2>/dev/null &&
        ! grep -q "every record is right" "$fx/out/03-warp-passes.svg"; then
        pass slides.plot-status "lab 03's picture says when the records of your layout count no lane"
    else
        fail slides.plot-status "lab 03's picture of records that count no lane does not say so (build/slides-test/fx/out/03-warp-passes.svg)"
    fi
    # Lab 03's picture of an image's edge: the sample draws the two images no question asks
    # about and none of a question's, whose picture is its answer; and a warp whose records
    # differ from the grader's own computation is counted in the status line.
    edge=$out/03-edge-warps.svg
    if [ "$(grep -c '[0-9] of [0-9]* warps diverge<' "$edge" 2>/dev/null)" = 2 ] &&
        grep -q '>10 of 48 warps diverge<' "$edge" && grep -q '>23 of 120 warps diverge<' "$edge" &&
        [ "$(grep -c '>question\.divergent_[0-9x]* passes:<' "$edge")" = 3 ]; then
        pass slides.edge-sample "lab 03's sample picture draws 40 x 20 and 70 x 37 and no image of a question"
    else
        fail slides.edge-sample "lab 03's sample picture does not draw exactly the two images no question asks about ($edge)"
    fi
    awk -F, -v OFS=, 'NR == 2 { $9 = 31; $10 = "11111111111111111111111111111110"; $12 = "divergent"; $13 = 0 } { print }' \
        slides/samples/03-edge-warps.csv >"$fx/fx/03-divergence/edge_warps.csv"
    REPORT_ROOT=$fx SET=fx PLOTS_OUT=$fx/out GNUPLOT=$GNUPLOT sh slides/plot.sh --own 03-edge-warps >/dev/null 2>&1
    if grep -q ">1 warp recorded other lanes than the grader computes" "$fx/out/03-edge-warps.svg" 2>/dev/null &&
        grep -q '>11 of 48 warps diverge<' "$fx/out/03-edge-warps.svg" && ! grep -q ">every warp" "$fx/out/03-edge-warps.svg"; then
        pass slides.edge-status "lab 03's picture of the edge warps says when a warp recorded other lanes than computed"
    else
        fail slides.edge-status "lab 03's picture of a warp recorded otherwise does not say so (build/slides-test/fx/out/03-edge-warps.svg)"
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
    if PLOTS_OUT=$plots MARP=$MARP CHROME_PATH=$CHROME_PATH sh slides/render.sh $decks >build/slides-test.render.log 2>&1; then
        pass slides.render "$(grep -c '^  HTML' build/slides-test.render.log) HTML, $(grep -c '^  PDF' build/slides-test.render.log) PDF in build/slides/"
    else
        fail slides.render "$(grep FAIL build/slides-test.render.log | head -n 3)"
    fi
    # 4. screenshots
    if [ -z "$CHROME_PATH" ]; then
        skip slides.screenshots "Chromium not found (sudo apt-get install chromium, or set CHROME_PATH)"
    elif [ ! -d slides/node_modules/puppeteer-core ]; then
        skip slides.screenshots "puppeteer-core not installed (cd slides && npm ci)"
    elif command -v fc-list >/dev/null 2>&1 && ! fc-list 2>/dev/null | grep -q 'Liberation Sans'; then
        # The decks are laid out for this font (slides/theme.css); another one
        # would make the fit test judge the machine's fonts, not the decks.
        skip slides.screenshots "the font Liberation Sans is not installed (sudo apt-get install fonts-liberation)"
    else
        for deck in $decks; do
            case $deck in
            slides/solutions/*) name=solutions/$(basename "$deck" .md) ;;
            *) name=$(basename "$deck" .md) ;;
            esac
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
