# 01-timeline.gp - lab 01: which block ran when, and how many were resident at once
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/01-block-scheduling/timeline.csv
# sample: slides/samples/01-timeline.csv NVIDIA H100 80GB HBM3, reference solution, 2026-11-22, CUDA 13.0
#
# Input: the CSV that lab 01's check.timeline writes into the run's report
# folder, build/report/<set>/01-block-scheduling/timeline.csv
# (block,smid,start_us,end_us; one row per block, times from the first start);
# without it, the sample. Run by slides/plot.sh with csv, out, sample and
# label set.
if (!exists("csv")) csv = 'slides/samples/01-timeline.csv'
if (!exists("out")) out = 'build/plots/01-timeline.svg'
if (!exists("label")) label = csv

set terminal svg size 1200,660 font 'DejaVu Sans,17' background '#ffffff'
set output out
set datafile separator ','

# Start events (+1) and end events (-1); an end is moved a hair earlier so
# that a block ending when another starts on its slot does not count twice.
set table $events separator comma
plot csv every ::1 using 3:(1) with table, csv every ::1 using ($4-1e-4):(-1) with table
unset table
set table $resident
plot $events using 1:2 smooth cumulative
unset table
set datafile separator whitespace
stats $resident using 2 nooutput
set datafile separator comma
peak = int(STATS_max)
stats csv every ::1 using 1:2 nooutput
nblocks = int(STATS_records)
nsm = int(STATS_max_y) + 1
waves = ceil(1.0 * nblocks / peak)
stats csv every ::1 using 4 nooutput
tend = STATS_max

set multiplot title sprintf("Block timeline: %d blocks, at most %d resident at once = %d waves\n{/*0.8 %s}", nblocks, peak, waves, label)
set border 3 lc '#4b5563'
set tics nomirror textcolor '#1f2937'
set grid xtics lc '#e5e7eb' lt 1
set xrange [0:tend*1.02]
set lmargin 12
set rmargin 14

# Top: one horizontal line per block, from its start to its end, coloured by SM.
set tmargin at screen 0.84
set bmargin at screen 0.40
set ylabel 'block index' textcolor '#1f2937'
set yrange [0:nblocks]
set format x ''
set palette defined (0 '#2563eb', 1 '#10b981', 2 '#f59e0b', 3 '#dc2626', 4 '#8b5cf6')
set cbrange [0:nsm-1]
set cblabel 'SM id' textcolor '#1f2937'
set cbtics 0, (nsm > 64 ? 32 : 8)
set colorbox user origin screen 0.895, screen 0.40 size screen 0.018, screen 0.44
unset key
plot csv every ::1 using 3:1:($4-$3):(0):2 with vectors nohead lw 1 lc palette

# Bottom: blocks resident on the whole GPU over time.
set datafile separator whitespace
unset colorbox
set tmargin at screen 0.36
set bmargin at screen 0.13
set format x '%g'
set xlabel 'time since the first block started (µs)' textcolor '#1f2937'
set ylabel 'resident' textcolor '#1f2937'
set yrange [0:peak*1.25]
set ytics 0, (peak > 400 ? 200 : (peak > 40 ? 20 : 2))
set label 1 sprintf("%d", peak) at graph 0.005, first peak*1.12 textcolor '#dc2626'
plot $resident using 1:2 with steps lw 2.5 lc '#dc2626', \
     peak with lines dt 2 lw 1 lc '#9ca3af'
unset multiplot
