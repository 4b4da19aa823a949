# 04-tree.gp - lab 04: the levels of the sum as kernels, and the warps of one block waiting at its barriers
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/04-barriers/tree.csv
# sample: slides/samples/04-tree.csv NVIDIA H100 80GB HBM3, reference solution, 2026-11-27, CUDA 13.0: the run of correct.sizes, n = 2^{22}
#
# Input: the CSV that lab 04's correct.sizes writes into the run's report
# folder, build/report/<set>/04-barriers/tree.csv, from one sum of 2^22
# values with the level kernel's stamps on (barriers_trace, given code):
# kind,level,block,smid,tile,warp,start,end,last. "block" rows: every block
# of every level, start and end in microseconds from the first block's
# start; "warp" rows: block 0 of level 1, each warp's call of
# barriers_block_sum for each of its tiles, in SM cycles from the first
# call, and when the tile's last warp called it. Top: one line per block,
# one band per level (a level is a kernel: it starts once the last block of
# the level before has ended, the barrier between blocks). Bottom: the
# warps of one block, tile after tile; light, the time a warp waits at the
# first barrier for the tile's last warp; solid, the rest of its block sum
# (the tree's steps, and warp 0's shuffles). Run by slides/plot.sh with
# csv, out, sample and label set.
if (!exists("csv")) csv = 'slides/samples/04-tree.csv'
if (!exists("out")) out = 'build/plots/04-tree.svg'
if (!exists("label")) label = csv

set terminal svg size 1200,700 font 'DejaVu Sans,17' background '#ffffff'
set output out
set datafile separator ','

isblock(l) = strcol(1) eq 'block' ? l : NaN
iswarp(l) = strcol(1) eq 'warp' ? l : NaN

stats csv every ::1 using (isblock($2)) nooutput
levels = int(STATS_max)
array nb[levels]
do for [L = 1:levels] {
    stats csv every ::1 using (strcol(1) eq 'block' && $2 == L ? $3 : NaN) nooutput
    nb[L] = int(STATS_max) + 1
}
stats csv every ::1 using (isblock($8)) nooutput
tend = STATS_max
nblocks = 0
do for [L = 1:levels] { nblocks = nblocks + nb[L] }

set multiplot title sprintf("Your barriers\\_sum of 2^{22} values: %d levels, %d blocks, %.1f µs\n{/*0.8 %s}", levels, nblocks, tend, label)
set border 3 lc '#4b5563'
set tics nomirror textcolor '#1f2937'
set grid xtics lc '#e5e7eb' lt 1
set lmargin 12
set rmargin 4
unset key

# Top: each level a band, each block a line from its start to its end.
set tmargin at screen 0.86
set bmargin at screen 0.56
set xrange [0:tend * 1.02]
set yrange [0.45:levels + 0.55]
set ytics 1
set ylabel 'level' textcolor '#1f2937'
set xlabel 'µs from the first block’s start: a level (a kernel) starts once the level before has ended' textcolor '#1f2937' offset 0,0.3
set palette defined (1 '#2563eb', 2 '#f59e0b', 3 '#10b981', 4 '#dc2626', 5 '#8b5cf6')
set cbrange [1:5]
unset colorbox
band(L, b) = L - 0.4 + 0.8 * (b + 0.5) / nb[int(L)]
plot csv every ::1 using (isblock($7)):(band($2, $3)):($8 - $7):(0):2 with vectors nohead lw 1.5 lc palette

# Bottom: block 0 of level 1, its warps tile after tile.
set tmargin at screen 0.42
set bmargin at screen 0.09
set autoscale
stats csv every ::1 using (iswarp($8)) nooutput
cend = STATS_max
set xrange [0:cend * 1.02]
set yrange [-0.6:7.6]
set ytics 0, 1, 7
set ylabel 'warp' textcolor '#1f2937'
set xlabel 'SM cycles, block 0 of level 1, tile after tile: light = waiting for the tile’s last warp' textcolor '#1f2937' offset 0,0.3
set palette defined (0 '#2563eb', 1 '#10b981', 2 '#8b5cf6', 3 '#f59e0b')
set cbrange [0:3]
plot csv every ::1 using (iswarp($7)):6:($9 > $7 ? $9 - $7 : 0):(0) with vectors nohead lw 9 lc rgb '#d1d5db', \
     csv every ::1 using (iswarp($9 > $7 ? $9 : $7)):6:($8 - ($9 > $7 ? $9 : $7)):(0):5 with vectors nohead lw 9 lc palette
unset multiplot
