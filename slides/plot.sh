#!/bin/sh
# plot.sh - turn the CSV files the labs write into SVG plots with gnuplot (`make plots`)
# SPDX-License-Identifier: MIT
#
# Every slides/plots/NN-name.gp becomes build/plots/NN-name.svg. A script
# names its input in two header lines:
#   # csv: build/{set}/01-block-scheduling/timeline.csv      ({set} is $SET)
#   # sample: slides/samples/01-timeline.csv  what the sample is
# The first is what the student's own run writes; while it does not exist the
# plot is drawn from the sample and says so. The script gets the gnuplot
# variables csv, out, sample (0 or 1) and label (where the data came from).
#
# usage: slides/plot.sh [--optional] [--own] [NN-name ...]
#   --optional: without gnuplot, say so and succeed (used by `make slides`).
#   --own: draw a plot only from the run's own file, never from the sample
#          (`make report`: a report shows what its run measured, or nothing).
# Environment: SET (labs|solutions, default labs), GNUPLOT, PLOTS_OUT (the
# folder drawn into), REPORT_ROOT (where the runs are, default build/report:
# it replaces the build/report/ that starts a script's csv line).
set -eu
optional=0 own=0
while [ $# -gt 0 ]; do
    case $1 in
    --optional) optional=1 ;;
    --own) own=1 ;;
    *) break ;;
    esac
    shift
done
SET=${SET:-labs}
GNUPLOT=${GNUPLOT:-gnuplot}
PLOTS_OUT=${PLOTS_OUT:-build/plots}
REPORT_ROOT=${REPORT_ROOT:-build/report}

if ! command -v "$GNUPLOT" >/dev/null 2>&1; then
    echo "plots: gnuplot not found; install it to draw plots from your runs:"
    echo "         sudo apt-get install gnuplot-nox     (macOS: brew install gnuplot)"
    [ "$optional" = 1 ] && exit 0
    exit 1
fi

if [ $# -gt 0 ]; then
    scripts=$(for n in "$@"; do echo "slides/plots/$n.gp"; done)
else
    scripts=$(ls slides/plots/[0-9][0-9]-*.gp 2>/dev/null || true)
fi
mkdir -p "$PLOTS_OUT"
status=0
for gp in $scripts; do
    name=$(basename "$gp" .gp)
    out="$PLOTS_OUT/$name.svg"
    csv=$(sed -n 's/^# csv: *\([^ ]*\).*/\1/p' "$gp" | head -n 1 | sed "s/{set}/$SET/g")
    case $csv in build/report/*) csv=$REPORT_ROOT/${csv#build/report/} ;; esac
    sample=$(sed -n 's/^# sample: *\([^ ]*\).*/\1/p' "$gp" | head -n 1)
    about=$(sed -n 's/^# sample: *[^ ]* *//p' "$gp" | head -n 1)
    if [ -n "$csv" ] && [ -s "$csv" ]; then
        src=$csv is_sample=0 label="your run: $csv"
    elif [ "$own" = 0 ] && [ -n "$sample" ] && [ -s "$sample" ]; then
        src=$sample is_sample=1 label="sample data: $about"
    else
        echo "  SKIP  $out: no data (${csv:-no csv named in $gp})"
        continue
    fi
    if "$GNUPLOT" -e "csv='$src'; out='$out.tmp'; sample=$is_sample; label='$label'" "$gp" \
        && [ -s "$out.tmp" ]; then
        mv "$out.tmp" "$out"
        if [ "$is_sample" = 1 ]; then
            echo "  PLOT  $out   from the sample $src ($csv not written yet)"
        else
            echo "  PLOT  $out   from $src"
        fi
    else
        rm -f "$out.tmp"
        echo "  FAIL  $out: gnuplot failed on $gp"
        status=1
    fi
done
exit $status
