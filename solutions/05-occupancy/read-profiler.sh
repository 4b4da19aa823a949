#!/usr/bin/env bash
# read-profiler.sh - the profiler reading of lab 05 (question.my_achieved_occupancy) as a student
# takes it on their GPU, with the command of README.md, "Reading the profiler"; prints
# `my_achieved_occupancy = VALUE`, or nothing where ncu cannot read the counters (a value of
# "n/a" is none; thousands separators are dropped). The first launch profiled counts.
set -u
ncu=$(command -v ncu || echo "${CUDA_PATH:-/usr/local/cuda}/bin/ncu")
"$ncu" --clock-control none --kernel-name occ_achieved_kernel \
    --metrics sm__warps_active.avg.pct_of_peak_sustained_active \
    build/solutions/05-occupancy/grade --run-body question.my_achieved_occupancy |
    awk 'function num(v) { gsub(/,/, "", v); return v ~ /^[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)?$/ ? v : "" }
         $1 == "sm__warps_active.avg.pct_of_peak_sustained_active" && !done {
             done = 1; if (num($NF) != "") print "my_achieved_occupancy = " num($NF) }'
