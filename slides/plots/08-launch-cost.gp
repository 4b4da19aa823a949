# 08-launch-cost.gp - lab 08: microseconds per launch against the work per kernel (the Handbook's figure 6-2 on your GPU)
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/08-launch-overhead/launch_sweep.csv
# sample: slides/samples/08-launch-cost.csv NVIDIA H100 80GB HBM3, reference solution, 2026-11-22, CUDA 13.0
#
# Input: the CSV that lab 08's measure.sweep writes, one row per busy-wait:
# cycles,async_us,sync_us,grader_async_us,grader_sync_us,
# busy_wait_us_at_peak_clock,two_empty_async_us (times per launch in
# microseconds; the last column is twice the grader's empty asynchronous
# launch, the same in every row). The break-even point is computed here as
# launch_overhead_break_even does: the first point of your asynchronous curve
# at or above the threshold, interpolated from the point before it. Left:
# the whole sweep; right: its first quarter, where the bend is. Run by
# slides/plot.sh with csv, out, sample and label set.
if (!exists("csv")) csv = 'slides/samples/08-launch-cost.csv'
if (!exists("out")) out = 'build/plots/08-launch-cost.svg'
if (!exists("label")) label = csv

set terminal svg size 1200,600 font 'DejaVu Sans,17' background '#ffffff'
set output out
set datafile separator ','

stats csv every ::1 using 7 nooutput
thr = STATS_max
stats csv every ::1 using 1 nooutput
cmax = STATS_max
stats csv every ::1 using (($6 > 0) ? $1 / $6 : NaN) nooutput
mhz = STATS_records > 0 ? STATS_mean : 0
ymax = thr * 1.15
do for [c = 2:5] {
    stats csv every ::1 using c nooutput
    ymax = STATS_max > ymax ? STATS_max : ymax
}
# 12447.3 -> "12,447"
commas(x) = (x >= 1000) ? sprintf("%d,%03d", int(x + 0.5) / 1000, int(x + 0.5) % 1000) : sprintf("%d", int(x + 0.5))
# The break-even point of your asynchronous curve (-1: it never reaches the threshold).
be = -1
found = 0
pc = -1
pa = 0
stats csv every ::1 using ((found == 0 && thr > 0 && $2 >= thr) ? \
    (found = 1, be = (pc < 0 ? $1 : pc + ($1 - pc) * (thr - pa) / ($2 - pa))) : 0, \
    pc = $1, pa = $2, $1) nooutput
# The quarter panel: up to a quarter of the sweep, and past the break-even point.
zmax = cmax / 4
zmax = (be > zmax * 0.85) ? cmax : zmax
stats csv every ::1 using (($1 <= zmax) ? ($3 > $5 ? $3 : $5) : NaN) nooutput
zy = (STATS_max > thr * 1.15 ? STATS_max : thr * 1.15) * 1.08

set label 11 "Microseconds per launch against the busy-wait in each kernel" at screen 0.5, screen 0.955 center font ',20'
# The label names a file whose name has underscores: print it as it is.
set label 12 label at screen 0.5, screen 0.91 center font ',14' textcolor '#4b5563' noenhanced
if (be >= 0) {
    set label 13 sprintf("break-even: %s cycles%s, where an asynchronous launch takes twice an empty one", \
        commas(be), mhz > 0 ? sprintf(" = %.2f µs at %s MHz", be / mhz, commas(mhz)) : "") \
        at screen 0.5, screen 0.865 center font ',15' textcolor '#047857'
} else {
    set label 13 sprintf("no break-even point: your asynchronous times never reach %.2f µs (twice an empty launch)", thr) \
        at screen 0.5, screen 0.865 center font ',15' textcolor '#dc2626'
}

set border 3 lc '#4b5563'
set tics nomirror textcolor '#1f2937'
set grid xtics ytics lc '#e5e7eb' lt 1
set format x '%g'
set xlabel 'busy-wait per kernel (thousands of SM clock cycles)' textcolor '#1f2937'
set style line 1 lc '#2563eb' lw 2.5 pt 7 ps 0.7
set style line 2 lc '#dc2626' lw 2.5 pt 7 ps 0.7
set style line 3 lc '#9ca3af' lw 1.5 dt 2
set style line 4 lc '#6b7280' lw 1.5 dt 3
set style line 5 lc '#047857' lw 1.5 dt 2

set multiplot
set tmargin at screen 0.80
set bmargin at screen 0.29
unset key

# Left: the whole sweep.
set lmargin at screen 0.075
set rmargin at screen 0.475
set ylabel 'microseconds per launch' textcolor '#1f2937'
set xrange [0:cmax / 1000]
set yrange [0:ymax * 1.05]
set xtics 0, 32
set label 1 sprintf("2 × empty launch: %.2f µs", thr) at graph 0.98, first thr right offset 0,0.7 textcolor '#047857' font ',14'
plot thr with lines ls 5, \
     csv every ::1 using ($1/1000):6 with lines ls 4, \
     csv every ::1 using ($1/1000):5 with lines ls 3, \
     csv every ::1 using ($1/1000):4 with lines ls 3, \
     csv every ::1 using ($1/1000):3 with linespoints ls 2, \
     csv every ::1 using ($1/1000):2 with linespoints ls 1
unset label 1

# Right: the first quarter, where the bend and the break-even point are.
set lmargin at screen 0.575
set rmargin at screen 0.975
set ylabel ' '
set xrange [0:zmax / 1000]
set yrange [0:zy]
set xtics 0, (zmax > 64000 ? 32 : 8)
if (be >= 0 && be <= zmax) {
    set arrow 2 from first be / 1000, graph 0 to first be / 1000, first thr nohead lw 1.5 lc '#047857'
    set label 2 sprintf("break-even\n%s cycles", commas(be)) at first be / 1000, graph 0 left offset 0.6,2.2 textcolor '#047857' font ',14'
}
plot thr with lines ls 5, \
     csv every ::1 using ($1/1000):6 with lines ls 4, \
     csv every ::1 using ($1/1000):5 with lines ls 3, \
     csv every ::1 using ($1/1000):4 with lines ls 3, \
     csv every ::1 using ($1/1000):3 with linespoints ls 2, \
     csv every ::1 using ($1/1000):2 with linespoints ls 1

# The legend, under both panels.
unset border
unset tics
unset grid
unset xlabel
unset ylabel
unset arrow
unset label
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0.02
set rmargin at screen 0.98
set tmargin at screen 0.16
set bmargin at screen 0.01
set key at screen 0.5, screen 0.155 center top horizontal Left reverse samplen 2.5 spacing 1.25 width 2 maxcols 2 font ',15'
plot NaN with linespoints ls 1 title 'yours: one synchronisation after the loop', \
     NaN with linespoints ls 2 title 'yours: a synchronisation after every launch', \
     NaN with lines ls 3 title "the grader's, both ways", \
     NaN with lines ls 4 title 'the busy-wait alone, at the peak SM clock', \
     NaN with lines ls 5 title 'twice an empty asynchronous launch'
unset multiplot
