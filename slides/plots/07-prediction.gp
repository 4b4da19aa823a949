# 07-prediction.gp - lab 07: the time your model predicts for each matrix multiply against the time measured
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/07-latency-model/prediction.tsv
# sample: slides/samples/07-prediction.tsv predict.rank of the reference on an NVIDIA H100 80GB HBM3, 2026-11-27, CUDA 13.0 (times rounded to 2-3 figures)
#
# Input: the table that lab 07's predict.rank writes (tab-separated, one
# row per kernel and size): kernel,bs,n,measured_ms,predicted_ms,
# relative_error. kernel: naive, tiled or volkov; bs: the block side (8
# or 16; 16 for volkov, whose blocks are 16 x 4); n: the matrix side
# (256 .. 2048; volkov 1024 .. 4096); measured_ms: the grader's median time;
# predicted_ms: your latency_model_time_total (overlapped) in cycles over
# the grader's clock_ghz (-1 or 0 where your model gave no time); relative_error:
# |predicted - measured| / measured. One point per row on log axes, a line
# through the sizes of each kernel, the diagonal where prediction equals
# measurement. A model that ranks right keeps each line rising left to
# right, the tiled 16x16 line below the naive one and the volkov line
# below the tiled one wherever they are measured 1.3x apart. A table
# without volkov rows (a run before that kernel) draws the other four. Run by slides/plot.sh with csv, out, sample and
# label set.
if (!exists("csv")) csv = 'slides/samples/07-prediction.tsv'
if (!exists("out")) out = 'build/plots/07-prediction.svg'
if (!exists("label")) label = csv

set datafile separator '\t'
ok(p) = p > 0 && p < 1e30
stats csv every ::1 using 4 nooutput
mlo = STATS_min
mhi = STATS_max
rows = STATS_records
stats csv every ::1 using (ok($5) ? $5 : mlo):(ok($5) ? 0 : 1) nooutput
plo = STATS_min_x
phi = STATS_max_x
none = int(STATS_sum_y)
stats csv every ::1 using 6 nooutput
mre = STATS_mean
lo = (mlo < plo ? mlo : plo) / 2.5
hi = (mhi > phi ? mhi : phi) * 2.5
# A kernel with no positive prediction: drawn on the bottom edge.
py(p) = ok(p) ? p : lo * 1.15

set terminal svg size 1200,720 font 'DejaVu Sans,17' background '#ffffff'
set output out

set label 11 "Your model against the GPU: predicted and measured time of each matrix multiply" \
    at screen 0.5, screen 0.955 center font ',20'
# The label names a file whose name has underscores: print it as it is.
set label 10 label at screen 0.5, screen 0.918 center font ',13' textcolor '#4b5563' noenhanced
if (none == 0) {
    set label 12 sprintf("%d kernels and sizes: mean relative error %.2f (paper: 0.19 on a Tesla C1060); points above the diagonal are predicted slower than measured", rows, mre) \
        at screen 0.5, screen 0.878 center font ',14' textcolor '#1f2937'
} else {
    set label 12 sprintf("%d of %d kernels and sizes get no positive time from your model (red, on the bottom edge)", none, rows) \
        at screen 0.5, screen 0.878 center font ',14' textcolor '#dc2626'
}

set logscale xy
set xrange [lo:hi]
set yrange [lo:hi]
set format x '%g'
set format y '%g'
set border 3 lc '#4b5563'
set tics nomirror textcolor '#1f2937'
set grid xtics ytics lc '#e5e7eb' lt 1
set tmargin at screen 0.84
set bmargin at screen 0.12
set lmargin at screen 0.09
set rmargin at screen 0.97
set xlabel 'measured time (ms, median of the grader runs)' textcolor '#1f2937'
set ylabel 'predicted time (ms, TimeTotal overlapped / clock)' textcolor '#1f2937'
set key inside right bottom vertical Left reverse samplen 2.5 spacing 1.25 font ',15' noenhanced \
    box lc rgb '#e5e7eb' opaque title 'kernel (point labels: n)'

set arrow 1 from lo, lo to hi, hi nohead dt 2 lw 1.5 lc '#6b7280' back
set label 1 'predicted = measured' at hi / 1.5, hi / 7 right textcolor '#6b7280' font ',13'

# kernel name, block side, colour and marker of each series
array K[5] = ['naive', 'naive', 'tiled', 'tiled', 'volkov']
array B[5] = [16, 8, 16, 8, 16]
array T[5] = ['naive 16x16', 'naive 8x8', 'tiled 16x16', 'tiled 8x8', 'Volkov 16x4']
array C[5] = ['#dc6b19', '#f0a868', '#2563eb', '#7fa8f0', '#059669']
array P[5] = [7, 5, 9, 11, 13]
# where each series writes n beside its points (in characters). Volkov's
# points lie just below and right of the naive 8x8 ones (on the H100 its
# n = 4096 beside naive 8x8's 2048): naive 8x8 writes above right of its
# points, Volkov's below right, so neither label lands on the other's point
array OX[5] = [-1.8, 1.8, -1.8, 1.8, 1.8]
array OY[5] = [0.7, 0.7, 0.7, -0.7, -0.7]
sel(k, b, i) = (strcol(1) eq K[i] && int($2) == B[i])
plot for [i = 1:5] csv every ::1 using (sel(1, 2, i) ? $4 : NaN):(sel(1, 2, i) ? py($5) : NaN) \
         with linespoints lw 2.5 pt P[i] ps 1.5 lc rgb C[i] title T[i], \
     for [i = 1:5] csv every ::1 using (sel(1, 2, i) ? $4 : NaN):(sel(1, 2, i) ? py($5) : NaN):(sprintf('%d', $3)) \
         with labels offset char OX[i], char OY[i] font ',11' textcolor rgb '#374151' notitle, \
     csv every ::1 using (ok($5) ? NaN : $4):(py($5)) with points pt 2 ps 2 lw 3 lc rgb '#dc2626' \
         title 'no positive prediction'
