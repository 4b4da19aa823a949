# 05-calculator.gp - lab 05: your occupancy calculator against the runtime's occupancy API, by block size and registers per thread
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/05-occupancy/calc_vs_runtime.csv
# sample: slides/samples/05-calculator.csv computed, not measured: cuda_occupancy.h for an H100 (cc 9.0), registers as ptxas gives them for sm_90 (CUDA 13.0), the reference calculator
#
# Input: the CSV that lab 05's correct.calc_device writes, one row per
# kernel and block size (32 .. 1024 threads, as far as the kernel allows):
# kernel,registers,block_size,runtime_blocks,your_blocks,runtime_warps,
# your_warps,max_warps,compared. The kernels are the chase built with
# register budgets from 24 to about 80 (no bounds and __maxnreg__), the
# grader's chase and yours. runtime_*: what
# cudaOccupancyMaxActiveBlocksPerMultiprocessor says; your_*: what your
# occupancy_calc says (-1 where it returned -1); max_warps: the SM's warp
# slots; compared: 0 where the runtime and the toolkit's cuda_occupancy.h
# disagree (not graded). One panel per register count: line, the runtime's
# resident warps per SM; circles, your calculator's; a red cross where they
# differ. Run by slides/plot.sh with csv, out, sample and label set.
if (!exists("csv")) csv = 'slides/samples/05-calculator.csv'
if (!exists("out")) out = 'build/plots/05-calculator.svg'
if (!exists("label")) label = csv

set datafile separator ','
# The register counts in the file, in ascending order (" 24 32 38 ...").
seen = ' '
stats csv every ::1 using (strstrt(seen, sprintf(' %d ', $2)) == 0 ? \
    (seen = seen . sprintf('%d ', $2), 0) : 0) nooutput
regs = ''
do for [r = 0:255] {
    if (strstrt(seen, sprintf(' %d ', r)) > 0) { regs = regs . sprintf(' %d', r) }
}
n = words(regs)
stats csv every ::1 using 8 nooutput
maxw = STATS_max
cases = STATS_records
stats csv every ::1 using (($9 != 0 && $7 != $6) ? 1 : 0):(($9 == 0) ? 1 : 0) nooutput
wrong = int(STATS_sum_x)
apart = int(STATS_sum_y)

# Panels: up to 4 in a row.
ncol = n < 4 ? n : 4
nrow = (n + ncol - 1) / ncol
W = 1200.0
gx = 30.0
gy = 62.0
pw = (W - 110 - 30 - (ncol - 1) * gx) / ncol
ph = 170.0
top = 140.0
H = top + nrow * ph + (nrow - 1) * gy + 175

set terminal svg size W, H font 'DejaVu Sans,16' background '#ffffff'
set output out

set label 11 "Your occupancy calculator against the runtime: resident warps per SM by block size" \
    at screen 0.5, screen 1 - 30 / H center font ',20'
# The label names a file whose name has underscores: print it as it is.
set label 10 label at screen 0.5, screen 1 - 58 / H center font ',13' textcolor '#4b5563' noenhanced
if (wrong == 0) {
    set label 12 sprintf("your calculator gives the runtime's blocks per SM on all %d compared launches%s", \
        cases - apart, apart > 0 ? sprintf(" (%d not compared: driver and header differ)", apart) : "") \
        at screen 0.5, screen 1 - 88 / H center font ',15' textcolor '#047857'
} else {
    set label 12 sprintf("your calculator differs from the runtime on %d of %d compared launches (red ×)", \
        wrong, cases - apart) at screen 0.5, screen 1 - 88 / H center font ',15' textcolor '#dc2626'
}

line = '#2563eb'
calc = '#047857'
red = '#dc2626'
grey = '#9ca3af'
set border 3 lc '#4b5563'
set tics nomirror textcolor '#1f2937' font ',14'
set grid ytics lc '#e5e7eb' lt 1
set xrange [0:1060]
set xtics 0, 256, 1024
set yrange [0:maxw * 1.15]
set ytics 0, maxw / 4, maxw
# Your answer where it lies off the scale: at its edge.
clip(w) = w < 0 ? 0 : (w > maxw * 1.1 ? maxw * 1.1 : w)
unset key

set multiplot
do for [i = 1:n] {
    r = int(word(regs, i))
    col = (i - 1) % ncol
    row = (i - 1) / ncol
    x0 = 110 + col * (pw + gx)
    y0 = top + row * (ph + gy)
    set lmargin at screen x0 / W
    set rmargin at screen (x0 + pw) / W
    set tmargin at screen 1 - y0 / H
    set bmargin at screen 1 - (y0 + ph) / H
    set title sprintf("%d registers per thread", r) font ',16' textcolor '#1f2937' offset 0, -0.6
    set format y (col == 0 ? '%g' : '')
    set format x (row == nrow - 1 || i + ncol > n ? '%g' : '')
    if (col == 0) { set ylabel 'warps per SM' textcolor '#1f2937' offset 1.5, 0 } else { unset ylabel }
    set arrow 1 from graph 0, first maxw to graph 1, first maxw nohead dt 2 lw 1.2 lc rgb grey back
    plot csv every ::1 using ($2 == r ? $3 : NaN):6 smooth unique with linespoints pt 7 ps 0.45 lw 2.5 lc rgb line, \
         csv every ::1 using ($2 == r && $9 != 0 && $7 == $6 ? $3 : NaN):7 with points pt 6 ps 1.1 lw 1.5 lc rgb calc, \
         csv every ::1 using ($2 == r && $9 == 0 ? $3 : NaN):(clip($7)) with points pt 6 ps 1.1 lw 1.5 lc rgb grey, \
         csv every ::1 using ($2 == r && $9 != 0 && $7 != $6 ? $3 : NaN):(clip($7)) with points pt 2 ps 1.8 lw 3 lc rgb red
}
unset arrow 1

set label 13 'threads per block' at screen 0.5, screen 1 - (top + nrow * ph + (nrow - 1) * gy + 48) / H \
    center textcolor '#1f2937'

# The key, under the panels.
unset border
unset tics
unset grid
unset ylabel
unset title
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0.01
set rmargin at screen 0.99
set tmargin at screen 1 - (top + nrow * ph + (nrow - 1) * gy + 70) / H
set bmargin at screen 0.005
set key at screen 0.5, screen 1 - (top + nrow * ph + (nrow - 1) * gy + 72) / H center top vertical Left reverse \
    maxrows 3 samplen 2 width -8 spacing 1.2 font ',15' noenhanced
plot NaN with linespoints pt 7 ps 0.45 lw 2.5 lc rgb line title 'the runtime: cudaOccupancyMaxActiveBlocksPerMultiprocessor', \
     NaN with points pt 6 ps 1.1 lw 1.5 lc rgb calc title 'your occupancy_calc, where it agrees', \
     NaN with points pt 2 ps 1.8 lw 3 lc rgb red title 'your occupancy_calc, where it differs', \
     NaN with points pt 6 ps 1.1 lw 1.5 lc rgb grey title 'not compared (driver and header differ)', \
     NaN with lines dt 2 lw 1.2 lc rgb grey title sprintf('every warp slot of the SM (%d)', maxw)
unset multiplot
