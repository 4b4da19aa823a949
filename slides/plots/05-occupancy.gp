# 05-occupancy.gp - lab 05: occupancy and time of the chase against block size and registers per thread
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/05-occupancy/occupancy_sweep.csv
# sample: slides/samples/05-occupancy.csv NVIDIA H100 80GB HBM3, reference solution, 2026-11-22, CUDA 13.0
#
# Input: the CSV that lab 05's measure.sweep writes, one row per kernel and
# launch: series,kernel,block_size,registers,local_bytes,blocks_per_sm,
# occupancy_pct,predicted_pct,time_ms,speedup. Series `baseline` (the
# grader's configuration), `block` (no bounds, 32 .. 1024 threads),
# `registers` (256 threads, builds capped with __maxnreg__; its `no bounds`
# row repeats the block series and is left out here) and `yours`.
# predicted_pct is -1 where the calculator was not compared. Bars: the
# runtime's occupancy; circles: the student's calculator; line: the time.
# Run by slides/plot.sh with csv, out, sample and label set.
if (!exists("csv")) csv = 'slides/samples/05-occupancy.csv'
if (!exists("out")) out = 'build/plots/05-occupancy.svg'
if (!exists("label")) label = csv

set terminal svg size 1200,600 font 'DejaVu Sans,18' background '#ffffff'
set output out
set datafile separator ','

# One table per panel, in the order the grader wrote the rows:
# x-label value, occupancy, prediction, time, local bytes, block size.
set table $blk separator comma
plot csv every ::1 using 3:7:8:9:5:4 with table if (strcol(1) eq 'block')
unset table
set table $reg separator comma
plot csv every ::1 using 4:7:8:9:5:3 with table if (strcol(1) eq 'baseline'), \
     csv every ::1 using 4:7:8:9:5:3 with table if (strcol(1) eq 'registers' && strcol(2) ne 'no bounds'), \
     csv every ::1 using 4:7:8:9:5:3 with table if (strcol(1) eq 'yours')
unset table
stats csv every ::1 using 9 nooutput
tmax = STATS_max
# (A series missing from the file gives 0 here, never an empty stats.)
stats csv every ::1 using (strcol(1) eq 'baseline' ? $9 : 0) nooutput
base_ms = STATS_max > 0 ? STATS_max : NaN
stats csv every ::1 using (strcol(1) eq 'block' ? $4 : 0) nooutput
block_regs = int(STATS_max)
stats csv every ::1 using (strcol(1) eq 'yours' ? 1 : 0) nooutput
has_yours = STATS_sum > 0
stats $blk using 1 nooutput
nblk = STATS_records
stats $reg using 1 nooutput
nreg = STATS_records

set label 11 "Occupancy and time of the chase: block size, and registers per thread" at screen 0.5, screen 0.955 center font ',21'
# The label names a file whose name has underscores: print it as it is.
set label 10 label at screen 0.5, screen 0.905 center font ',14' textcolor '#4b5563' noenhanced

bar = '#2563eb'
tline = '#1f2937'
calc = '#047857'
red = '#dc2626'
set border 3 lc '#4b5563'
set tics nomirror textcolor '#1f2937'
set grid ytics lc '#e5e7eb' lt 1
set style fill solid 0.30 border
set boxwidth 0.62
unset key
# Panels: two columns (block size, registers), occupancy above, time below.
L1 = 0.085; R1 = 0.475; L2 = 0.555; R2 = 0.945
T1 = 0.785; B1 = 0.575; T2 = 0.52; B2 = 0.25
# The first register row is the grader's 512-thread configuration, the last (if any) yours.
is_end(i) = i == 0 || (has_yours && i == nreg - 1)
regtic(i, r, b) = i == 0 ? sprintf("%d\n{/*0.8 grader's}\n{/*0.8 %d thr}", r, b) : \
                  (has_yours && i == nreg - 1 ? sprintf("%d\n{/*0.8 yours}\n{/*0.8 %d thr}", r, b) : sprintf('%d', r))
rowcolor(i) = i == 0 ? 0xdc2626 : (has_yours && i == nreg - 1 ? 0x047857 : 0x2563eb)
spill(l) = l > 0 ? "\n{/*0.8 spills}" : ""

set multiplot

# Top left: occupancy of the kernel without bounds at every block size.
set lmargin at screen L1; set rmargin at screen R1
set tmargin at screen T1; set bmargin at screen B1
set label 1 sprintf("block size (no bounds: %d registers)", block_regs) at graph 0.5, graph 1.1 center font ',18'
set xrange [-0.6:nblk-0.4]
set yrange [0:110]
set ytics 0, 25, 100
set ylabel 'occupancy (%)' offset 1,0
set xtics 1 format ''
plot $blk using 0:2 with boxes lc rgb bar, \
     $blk using 0:($3 >= 0 ? $3 : NaN) with points pt 6 ps 1.3 lw 2 lc rgb calc
unset label 1

# Top right: the grader's configuration, builds capped at fewer registers, yours.
set lmargin at screen L2; set rmargin at screen R2
set label 1 'registers per thread (256 threads)' at graph 0.5, graph 1.1 center font ',18'
unset ylabel
set xrange [-0.6:nreg-0.4]
plot $reg using 0:2:(rowcolor(int($0))) with boxes lc rgb variable, \
     $reg using 0:($3 >= 0 ? $3 : NaN) with points pt 6 ps 1.3 lw 2 lc rgb calc
unset label 1

# Bottom: time, on one scale for both; dashed: the grader's configuration.
set yrange [0:tmax*1.15]
set ytics 0, (tmax > 0.8 ? 0.2 : 0.1)
set format y '%.1f'
set xtics format '%g' font ',16'
if (base_ms == base_ms) {
    set arrow 1 from graph 0, first base_ms to graph 1, first base_ms nohead dt 2 lw 1.5 lc rgb red back
}
set lmargin at screen L1; set rmargin at screen R1
set tmargin at screen T2; set bmargin at screen B2
set ylabel 'time (ms)' offset 1,0
set xrange [-0.6:nblk-0.4]
plot $blk using 0:4:xtic(sprintf('%d', $1)) with linespoints pt 7 ps 1.0 lw 2.5 lc rgb tline
set lmargin at screen L2; set rmargin at screen R2
unset ylabel
set xrange [-0.6:nreg-0.4]
plot $reg using 0:(is_end(int($0)) ? NaN : $4):xtic(regtic(int($0), $1, $6).spill($5)) \
         with linespoints pt 7 ps 1.0 lw 2.5 lc rgb tline, \
     $reg using 0:(is_end(int($0)) ? $4 : NaN):(rowcolor(int($0))) with points pt 7 ps 1.4 lc rgb variable
unset arrow 1

# One key for all four panels, under them.
unset border
unset tics
unset grid
unset ylabel
set lmargin at screen 0.01; set rmargin at screen 0.99
set tmargin at screen 0.06; set bmargin at screen 0.005
set xrange [0:1]
set yrange [0:1]
set key horizontal center center maxcols 4 samplen 2 width -2 font ',16'
plot NaN with boxes lc rgb bar title 'occupancy (runtime)', \
     NaN with points pt 6 ps 1.3 lw 2 lc rgb calc title 'your calculator', \
     NaN with linespoints pt 7 lw 2.5 lc rgb tline title 'time', \
     NaN with lines dt 2 lw 1.5 lc rgb red title "grader's configuration"
unset multiplot
