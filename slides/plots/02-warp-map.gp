# 02-warp-map.gp - lab 02: the warp and lane of every thread of one 3D block, as the recording kernel saw them
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/02-warp-partitioning/warp_map.csv
# sample: slides/samples/02-warp-map.csv the 10 x 6 x 3 block of a right solution (the same on every GPU), written without a GPU by the grader CSV code
#
# Input: the CSV that lab 02's correct.record_hardware writes for the block
# it draws (10 x 6 x 3), one row per slot of d_out in linear order:
# bx,by,bz,x,y,z,warp,lane,your_lane,agrees. bx,by,bz: the block's shape
# (the same on every row); x,y,z: the thread that belongs in the slot; warp:
# the warp number your formula gave it; lane: the lane the hardware ran it
# in (%laneid); your_lane: your formula's lane; agrees: 1 when the slot
# holds its own thread and your lane and warp agree with the hardware.
# A slot never written has -1 for warp and lanes. One panel per z slice
# (the first 4). Colour: your warp number; number in a cell: the
# hardware's lane; thick line: where a new warp starts, from the hardware's
# lanes alone (lane 0 begins a warp; the thread below a row's lane < bx is
# in the next warp). Run by slides/plot.sh with csv, out, sample and label
# set.
if (!exists("csv")) csv = 'slides/samples/02-warp-map.csv'
if (!exists("out")) out = 'build/plots/02-warp-map.svg'
if (!exists("label")) label = csv

set datafile separator ','
stats csv every ::1 using 1:2 nooutput
bx = int(STATS_max_x)
by = int(STATS_max_y)
nthreads = int(STATS_records)
stats csv every ::1 using 3:7 nooutput
bz = int(STATS_max_x)
nwarps = int(STATS_max_y) + 1
stats csv every ::1 using (($7 >= 0 && $10 == 0) ? 1 : 0):(($7 < 0) ? 1 : 0) nooutput
wrong = int(STATS_sum_x)
unwritten = int(STATS_sum_y)
warps = (nthreads + 31) / 32
last = nthreads - 32 * (warps - 1)

# Square cells, as large as the width allows for up to 4 slices side by side.
np = bz < 4 ? bz : 4
gap = 36.0
cw = (1200 - 150 - (np - 1) * gap) / (np * bx)
cw = cw < 560.0 / by ? cw : 560.0 / by
cw = cw < 48 ? cw : 48
pw = cw * bx
ph = cw * by
W = 1200.0
top = 150.0
# Below the panels: the axis, and a key of one row (two with more than 6 warps).
krow = nwarps > 6 ? 30 : 0
H = top + ph + 150 + krow
left = (W - np * pw - (np - 1) * gap) / 2

set terminal svg size W, H font 'DejaVu Sans,16' background '#ffffff'
set output out

set label 11 sprintf("Warps and lanes of one %d × %d × %d block, as your recording kernel saw them", bx, by, bz) \
    at screen 0.5, screen 1 - 30 / H center font ',20'
# The label names a file whose name has underscores: print it as it is.
set label 10 label at screen 0.5, screen 1 - 58 / H center font ',13' textcolor '#4b5563' noenhanced
if (wrong + unwritten == 0) {
    set label 12 sprintf("%d threads in %d warps: %s; your warps and lanes are the hardware's", nthreads, warps, \
        last < 32 ? sprintf("warp %d holds %d threads, its other %d lanes idle", warps - 1, last, 32 - last) : "no lane idle") \
        at screen 0.5, screen 1 - 88 / H center font ',15' textcolor '#047857'
} else {
    set label 12 sprintf("%d threads in %d warps: %d slot(s) never written (grey ?), %d where your formulas disagree with the hardware (red)", \
        nthreads, warps, unwritten, wrong) \
        at screen 0.5, screen 1 - 88 / H center font ',15' textcolor '#dc2626'
}

# Eight colours for the warps, repeated past warp 7; grey for an unwritten slot.
array C[8] = [0x93c5fd, 0xfcd34d, 0x86efac, 0xc4b5fd, 0x5eead4, 0xf9a8d4, 0xfdba74, 0xbef264]
wc(w) = w < 0 ? 0xe5e7eb : C[int(w) % 8 + 1]
fs = cw > 40 ? 14 : (cw > 28 ? 12 : 9)

set style fill solid 1.0 border lc rgb '#ffffff'
unset key
set border 0
set tics scale 0 textcolor '#1f2937' font ',13'
set xrange [-0.5:bx - 0.5]
set yrange [by - 0.5:-0.5]
set xtics 0, (bx > 16 ? 4 : 1), bx - 1
set ytics 0, (by > 16 ? 4 : 1), by - 1

set multiplot
set tmargin at screen 1 - top / H
set bmargin at screen 1 - (top + ph) / H
do for [z = 0:np - 1] {
    x0 = left + z * (pw + gap)
    set lmargin at screen x0 / W
    set rmargin at screen (x0 + pw) / W
    set title sprintf("threadIdx.z = %d%s", z, (z == np - 1 && bz > np) ? sprintf(" (of 0 .. %d)", bz - 1) : "") \
        font ',15' textcolor '#1f2937' offset 0, -0.4
    if (z == 0) {
        set ylabel 'threadIdx.y' textcolor '#1f2937' offset 1, 0
        set ytics format '%g'
    } else {
        unset ylabel
        set ytics format ''
    }
    set xlabel 'threadIdx.x' textcolor '#1f2937' offset 0, 0.3
    plot csv every ::1 using ($6 == z ? $4 : NaN):5:(0.5):(0.5):(wc($7)) with boxxyerror lc rgb variable, \
         csv every ::1 using ($6 == z && $7 >= 0 && $10 == 0 ? $4 : NaN):5:(0.42):(0.42) \
             with boxxyerror fs empty lc rgb '#dc2626' lw 3, \
         csv every ::1 using ($6 == z && $8 == 0 && $4 > 0 ? $4 - 0.5 : NaN):($5 - 0.5):(0):(1) \
             with vectors nohead lw 4 lc rgb '#111827', \
         csv every ::1 using ($6 == z && $8 >= 0 && $8 < bx && $5 > 0 ? $4 - 0.5 : NaN):($5 - 0.5):(1):(0) \
             with vectors nohead lw 4 lc rgb '#111827', \
         csv every ::1 using ($6 == z ? $4 : NaN):5:($7 < 0 ? '?' : ($10 != 0 ? sprintf('%d', $8) : sprintf('%d/%d', $8, $9))) \
             with labels font sprintf(',%d', fs) textcolor rgb '#111827'
}

# The key, under the panels: a swatch per colour (warps 8 apart share one), then the lines.
unset title
unset xlabel
unset ylabel
unset tics
set border 0
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0.02
set rmargin at screen 0.98
set tmargin at screen 1 - (top + ph + 70) / H
set bmargin at screen 0.005
set key at screen 0.5, screen 1 - (top + ph + 70) / H center top horizontal Left reverse \
    samplen 1.2 width 1 maxrows 1 font ',14'
set style fill solid 1.0 border lc rgb '#ffffff'
nk = nwarps < 8 ? nwarps : 8
if (nk > 0) {
    plot for [w = 0:nk - 1] NaN with boxes lc rgb wc(w) \
        title sprintf("warp %d%s%s", w, nwarps > 8 && w < nwarps - 8 ? sprintf(", %d", w + 8) : "", \
                      nwarps > 16 && w < nwarps - 16 ? ", …" : "")
} else {
    plot NaN with boxes lc rgb wc(-1) title 'no warp recorded'
}
set key at screen 0.5, screen 1 - (top + ph + 104 + krow) / H
plot NaN with lines lw 4 lc rgb '#111827' title "where a new warp starts (from the hardware's lanes)", \
     NaN with boxes fs empty lc rgb '#dc2626' lw 3 title "the hardware's lane / yours, where they disagree"
unset multiplot
