#!/usr/bin/env bash
# read-profiler.sh - the profiler readings of lab 09 (question.my_dram_pct_plain and the three
# after it) as a student takes them on their GPU, with the command of README.md, "Reading the
# profiler"; prints their `key = VALUE` lines, or nothing where ncu cannot read the counters.
# ncu's default output: a line with two leading spaces names each kernel profiled, the metrics'
# lines under it have four; a value may carry thousands separators ("1,234.5"), or be "n/a",
# which is no reading. The first launch of each kernel counts, as the grader reads it.
# my_top_stall_best: the stall reason of prefetching_best's kernel with the most cycles per
# issued instruction, selected left out (the issue itself, not a stall), among those ncu read.
set -u
ncu=$(command -v ncu || echo "${CUDA_PATH:-/usr/local/cuda}/bin/ncu")
"$ncu" --clock-control none \
    --metrics 'dram__throughput.avg.pct_of_peak_sustained_elapsed,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    -k regex:'pf_baseline_kernel|prefetching_' \
    build/solutions/09-prefetching/grade --run-body question.my_dram_pct_best |
    awk 'function num(v) { gsub(/,/, "", v); return v ~ /^[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)?$/ ? v : "" }
         /^  [^ ]/ { who = /pf_baseline_kernel/ ? "plain" : (/prefetching_/ ? "best" : ""); seen[who]++ }
         who != "" && seen[who] == 1 && num($NF) != "" {
             if ($1 == "dram__throughput.avg.pct_of_peak_sustained_elapsed") d[who] = num($NF)
             r = $1
             if (sub(/^smsp__average_warps_issue_stalled_/, "", r) && sub(/_per_issue_active[.]ratio$/, "", r) && r != "") {
                 if (who == "plain" && r == "long_scoreboard") l = num($NF)
                 if (who == "best" && r != "selected" && (top == "" || num($NF) + 0 > most + 0)) {
                     top = r; most = num($NF) } } }
         END { if ("plain" in d) print "my_dram_pct_plain = " d["plain"]
               if (l != "") print "my_long_scoreboard_plain = " l
               if ("best" in d) print "my_dram_pct_best = " d["best"]
               if (top != "") print "my_top_stall_best = " top " " most }'
