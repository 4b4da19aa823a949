# 03-branch-length.gp - lab 03: what a warp-uniform layout gains, by the length of the branch bodies
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/03-divergence/branch_length.csv
# sample: slides/samples/03-branch-length.csv measure.branch_length of the reference on an NVIDIA H100 80GB HBM3, 2026-11-22, CUDA 13.0
#
# Input: fma_per_body,divergent_ms,uniform_ms; one row per body length (the
# multiply-adds in each of the two branch bodies), with the divergent and the
# warp-uniform layout's times. Lab 03's measure.branch_length writes it from
# the grader's own kernels (4 to 512 multiply-adds); the sample holds the H100
# figures of its README (1 and 32 multiply-adds: a side measurement in a loop;
# 512: the lab's perf.run). Run by slides/plot.sh with csv, out, sample and
# label set.
if (!exists("csv")) csv = 'slides/samples/03-branch-length.csv'
if (!exists("out")) out = 'build/plots/03-branch-length.svg'
if (!exists("label")) label = csv

set terminal svg size 1200,560 font 'DejaVu Sans,18' background '#ffffff'
set output out
set datafile separator ','

stats csv every ::1 using ($2/$3) nooutput
top = STATS_max > 2.0 ? STATS_max : 2.0

set label 11 "Speedup of the warp-uniform layout over the divergent one" at screen 0.5, screen 0.95 center font ',20'
# The label names a file whose name has underscores: print it as it is.
set label 10 label at screen 0.5, screen 0.895 center font ',14' textcolor '#4b5563' noenhanced
set border 3 lc '#4b5563'
set tics nomirror textcolor '#1f2937'
set grid ytics lc '#e5e7eb' lt 1
set lmargin 12
set rmargin 16
set tmargin at screen 0.83
set bmargin at screen 0.19
set xlabel 'multiply-adds in each branch body (divergent vs uniform time)' textcolor '#1f2937' offset 0,-0.6
set ylabel 'speedup (× faster)' textcolor '#1f2937'
set yrange [0:top*1.15]
set ytics 0, 0.5
set format y '%.1f'
set style fill solid 1.0 noborder
set boxwidth 0.55
set xrange [-0.6:STATS_records - 0.4]
unset key

# Two equal bodies: a uniform warp issues half the instructions, so 2x is the ideal.
set arrow 1 from graph 0, first 2.0 to graph 1, first 2.0 nohead dt 2 lw 1.5 lc '#047857'
set label 1 'ideal 2×' at graph 1.01, first 2.0 left textcolor '#047857'
set arrow 2 from graph 0, first 1.0 to graph 1, first 1.0 nohead dt 3 lw 1.5 lc '#9ca3af'
set label 2 'no gain' at graph 1.01, first 1.0 left textcolor '#6b7280'

# Under each bar: the two times it comes from (with many bars, only the
# body length: the times are in the CSV).
if (STATS_records > 4) {
    plot csv every ::1 using 0:($2/$3):xtic(sprintf("%d", $1)) with boxes lc '#2563eb', \
         csv every ::1 using 0:($2/$3):(sprintf('%.2f×', $2/$3)) with labels offset 0,-1.1 \
             font ',15' textcolor '#ffffff'
} else {
    plot csv every ::1 using 0:($2/$3):xtic(sprintf("%d\n{/*0.75 %.3f vs %.3f ms}", $1, $2, $3)) \
             with boxes lc '#2563eb', \
         csv every ::1 using 0:($2/$3):(sprintf('%.2f×', $2/$3)) with labels offset 0,-1.1 \
             font ',22' textcolor '#ffffff'
}
