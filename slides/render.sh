#!/bin/sh
# render.sh - render the decks to HTML, and to PDF where Chromium is present (`make slides`)
# SPDX-License-Identifier: MIT
#
# Two kinds of deck: the concept decks slides/NN-topic.md (no graded code; they
# ship in the handout) render to build/slides/NN-topic.html; the solution decks
# slides/solutions/NN-topic.md (instructors only) render to
# build/slides/solutions/NN-topic.html, and only where solutions/ exists.
# The decks are staged in the output folder with the figures in
# build/slides/figures/ and the plots of build/plots/ in build/slides/plots/,
# so the output folder is self-contained: copy it to the lecture machine and
# open NN-topic.html. A deck refers to a plot as ../build/plots/NAME.svg
# (../../build/plots/NAME.svg from slides/solutions/), right from its own
# folder once `make plots` has run; a plot not drawn yet is replaced by a
# notice saying so.
#
# usage: slides/render.sh [slides/NN-topic.md | slides/solutions/NN-topic.md ...]
#   (no arguments: every concept deck, and every solution deck where solutions/ exists)
# Environment: MARP, CHROME_PATH (empty: HTML only), SLIDES_OUT, PLOTS_OUT, NO_PDF=1.
set -eu
MARP=${MARP:-slides/node_modules/.bin/marp}
CHROME_PATH=${CHROME_PATH:-}
OUT=${SLIDES_OUT:-build/slides}
PLOTS_OUT=${PLOTS_OUT:-build/plots}
if [ $# -gt 0 ]; then
    decks="$*"
else
    decks=$(ls slides/[0-9][0-9]-*.md 2>/dev/null || true)
    if [ -d solutions ]; then
        decks="$decks $(ls slides/solutions/[0-9][0-9]-*.md 2>/dev/null || true)"
    fi
fi

if ! command -v node >/dev/null 2>&1; then
    echo "slides: Node.js not found. Install Node.js 18 or newer and Marp CLI:"
    echo "          sudo apt-get install nodejs npm && (cd slides && npm ci)"
    exit 1
fi
if [ ! -x "$MARP" ]; then
    echo "slides: Marp CLI not installed (the version is pinned in slides/package.json). Install it:"
    echo "          (cd slides && npm ci)"
    exit 1
fi

mkdir -p "$OUT/figures" "$OUT/plots"
cp slides/figures/*.svg "$OUT/figures/"
status=0
for deck in $decks; do
    # A solution deck sits one folder deeper, in the sources and in the output:
    # its figures are ../figures/, its plots ../../build/plots/ -> ../plots/.
    case $deck in
    slides/solutions/*) sub=solutions/ up=../ ;;
    *) sub='' up='' ;;
    esac
    name=$sub$(basename "$deck" .md)
    mkdir -p "$OUT/$sub"
    sed "s#\.\./${up}build/plots/#${up}plots/#g" "$deck" >"$OUT/$name.md"
    for p in $(grep -o "(${up}plots/[^) ]*\.svg" "$OUT/$name.md" | sed 's/^(.*plots\///' | sort -u); do
        if [ -s "$PLOTS_OUT/$p" ]; then
            cp "$PLOTS_OUT/$p" "$OUT/plots/$p"
        else
            cp slides/figures/plot-missing.svg "$OUT/plots/$p"
            echo "  NOTE  $name: $PLOTS_OUT/$p not drawn (make plots, with gnuplot): shows a notice instead"
        fi
    done
    if "$MARP" --no-stdin --html --theme-set slides/theme.css -o "$OUT/$name.html" "$OUT/$name.md" \
        >"$OUT/$name.log" 2>&1; then
        echo "  HTML  $OUT/$name.html"
    else
        echo "  FAIL  $name: marp could not render it:"
        sed 's/^/        /' "$OUT/$name.log"
        status=1
        continue
    fi
    [ -n "$CHROME_PATH" ] && [ "${NO_PDF:-0}" != 1 ] || continue
    if CHROME_PATH=$CHROME_PATH CHROME_NO_SANDBOX=1 CHROME_DISABLE_GPU=1 \
        "$MARP" --no-stdin --html --theme-set slides/theme.css --pdf --allow-local-files \
        -o "$OUT/$name.pdf" "$OUT/$name.md" >>"$OUT/$name.log" 2>&1; then
        echo "  PDF   $OUT/$name.pdf"
    else
        echo "  FAIL  $name: marp could not print the PDF with $CHROME_PATH (log: $OUT/$name.log)"
        status=1
    fi
done
if [ -z "$CHROME_PATH" ]; then
    echo "slides: HTML only; for PDF install Chromium (sudo apt-get install chromium) or set CHROME_PATH"
fi
exit $status
