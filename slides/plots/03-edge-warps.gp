# 03-edge-warps.gp - lab 03: which warps of an image kernel diverge at its bounds check, as the warps recorded it
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/03-divergence/edge_warps.csv
# sample: slides/samples/03-edge-warps.csv 40 x 20 and 70 x 37, images no question asks about, computed without a GPU by the grader CSV code from the masks it expects: not measured
#
# Input: the CSV that lab 03's measure.edge_warps writes: the grader's own
# kernel, one thread per pixel in 16 x 16 blocks, run over five images, its
# warps recording which lanes pass if (x < width && y < height). One row per
# warp: image,width,height,block_x,block_y,warp,first_x,first_row,
# lanes_inside,inside_lanes,exp_inside_lanes,state,agrees. warp: the warp in
# its block (0..7), two rows of 16 threads: columns first_x .. first_x + 15
# of rows first_row and first_row + 1; inside_lanes: the lanes that ran the
# if body (__activemask() there), 32 digits, lane 0 first; lanes_inside:
# their number; state: inside (all 32), divergent (some) or outside (none);
# exp_inside_lanes: the lanes the grader computes; agrees: 1 where the
# warp's records are those. The images are the grader's (dv_edge_images in
# grader/03-divergence/dv_edge.c): 40 x 20 and 70 x 37 always; 100 x 45,
# 62 x 76 and 200 x 150, the images of the questions, only where the answer
# to that question was right: the picture of such an image is its answer
# (the sample holds none of them). One panel per
# image, all to one scale: a cell per warp, coloured by its state; the
# blocks outlined; the image's edge a thick line; a red outline where a
# warp's records differ from the grader's; the panel of an image the CSV
# does not hold says why. Run by slides/plot.sh with csv, out, sample and
# label set.
if (!exists("csv")) csv = 'slides/samples/03-edge-warps.csv'
if (!exists("out")) out = 'build/plots/03-edge-warps.svg'
if (!exists("label")) label = csv

set datafile separator ','
# The grader's images in its order, the question that asks about each ('-':
# none) and a word on each.
names = "40x20 70x37 100x45 62x76 200x150"
keys = "- - divergent_100x45 divergent_62x76 divergent_200x150"
N = words(names)
iw(i) = word(names, i)[1:strstrt(word(names, i), 'x') - 1] + 0
ih(i) = word(names, i)[strstrt(word(names, i), 'x') + 1:] + 0
gw(i) = 16 * int((iw(i) + 15) / 16)
gh(i) = 16 * int((ih(i) + 15) / 16)
about(i) = i == 1 ? "the chapter's example" : i == 2 ? "an odd height" : "a question"

# Warps, divergent warps and warps recorded otherwise, per image (a file of
# its header alone, from a run stopped early, holds none: stats would stop).
rows = 0
bad = 0
shown = 0
array nw[N]
array nd[N]
do for [i = 1:N] {
    nw[i] = 0
    nd[i] = 0
}
lines = int(system(sprintf("wc -l < '%s'", csv)))
do for [i = 1:(lines > 1 ? N : 0)] {
    nm = word(names, i)
    stats csv every ::1 using (strcol(1) eq nm ? 1 : 0):(strcol(1) eq nm && strcol(12) eq 'divergent' ? 1 : 0) nooutput
    nw[i] = int(STATS_sum_x)
    nd[i] = int(STATS_sum_y)
    stats csv every ::1 using (strcol(1) eq nm && $13 == 0 ? 1 : 0) nooutput
    bad = bad + int(STATS_sum)
    rows = rows + nw[i]
    shown = shown + (nw[i] > 0 && word(keys, i) ne '-' ? 1 : 0)
}

# One scale for every panel: three images in the first row, two in the second.
W = 1200.0
gap = 60.0
side = 80.0
s1 = (W - 2 * side - 2 * gap) / (gw(1) + gw(2) + gw(3))
s2 = (W - 2 * side - gap) / (gw(4) + gw(5))
sc = s1 < s2 ? s1 : s2
top = 150.0
ttl = 58.0
h1 = sc * (gh(1) > gh(2) ? (gh(1) > gh(3) ? gh(1) : gh(3)) : (gh(2) > gh(3) ? gh(2) : gh(3)))
h2 = sc * (gh(4) > gh(5) ? gh(4) : gh(5))
below = 34.0
H = top + ttl + h1 + below + ttl + h2 + below + 96
rowy(i) = i <= 3 ? top + ttl : top + ttl + h1 + below + ttl
rowx1 = (W - sc * (gw(1) + gw(2) + gw(3)) - 2 * gap) / 2
rowx2 = (W - sc * (gw(4) + gw(5)) - gap) / 2
colx(i) = i == 1 ? rowx1 : i == 2 ? rowx1 + sc * gw(1) + gap : i == 3 ? rowx1 + sc * (gw(1) + gw(2)) + 2 * gap : \
          i == 4 ? rowx2 : rowx2 + sc * gw(4) + gap

set terminal svg size W, H font 'DejaVu Sans,16' background '#ffffff'
set output out

set label 11 "Which warps diverge at if (x < width && y < height): one thread a pixel, 16 × 16 blocks, a warp = two rows of 16" \
    at screen 0.5, screen 1 - 30 / H center font ',19' noenhanced
# The label names a file whose name has underscores: print it as it is.
set label 10 label at screen 0.5, screen 1 - 58 / H center font ',13' textcolor '#4b5563' noenhanced
held = N - 2 - shown
heldwords = held == 0 ? "" : held == 1 ? "; one question's image drawn once its answer is right" : \
    sprintf("; %d questions' images drawn once their answers are right", held)
if (rows == 0) {
    set label 12 "no warp records in this file (measure.edge_warps stopped before it wrote any)" \
        at screen 0.5, screen 1 - 88 / H center font ',15' textcolor '#dc2626' noenhanced
} else {
    if (bad == 0) {
        set label 12 sprintf("every warp's lanes at the check are the ones the grader computes%s", heldwords) \
            at screen 0.5, screen 1 - 88 / H center font ',15' textcolor '#047857' noenhanced
    } else {
        set label 12 sprintf("%d warp%s recorded other lanes than the grader computes (outlined in red)%s", bad, bad == 1 ? "" : "s", heldwords) \
            at screen 0.5, screen 1 - 88 / H center font ',15' textcolor '#dc2626' noenhanced
    }
}
set label 13 "A warp diverges only where the edge cuts it: a right edge cuts every warp it touches, a bottom edge only one whose two rows it parts." \
    at screen 0.5, screen 1 - 116 / H center font ',13' textcolor '#1f2937' noenhanced

cI = 0x93c5fd
cD = 0xf97316
cO = 0xe5e7eb
col(s) = s eq 'inside' ? cI : s eq 'divergent' ? cD : cO

set style fill solid 1.0 border lc rgb '#ffffff'
unset key
set border 0
unset tics

set multiplot
do for [i = 1:N] {
    nm = word(names, i)
    x0 = colx(i)
    y0 = rowy(i)
    set lmargin at screen x0 / W
    set rmargin at screen (x0 + sc * gw(i)) / W
    set tmargin at screen 1 - y0 / H
    set bmargin at screen 1 - (y0 + sc * gh(i)) / H
    set xrange [0:gw(i)]
    set yrange [gh(i):0]
    if (nw[i] > 0) {
        set title sprintf("%d × %d, %s\n%d of %d warps diverge", iw(i), ih(i), about(i), nd[i], nw[i]) \
            font ',14' textcolor '#1f2937' offset 0, -0.2 noenhanced
        set arrow 1 from iw(i), 0 to iw(i), ih(i) nohead lw 3 lc rgb '#111827' front
        set arrow 2 from 0, ih(i) to iw(i), ih(i) nohead lw 3 lc rgb '#111827' front
        set label 20 sprintf("x = %d", iw(i)) at first iw(i), first gh(i) center offset 0, -0.8 font ',11' textcolor '#111827'
        set label 21 sprintf("y = %d", ih(i)) at first 0, first ih(i) right offset -0.4, 0 font ',11' textcolor '#111827'
        plot csv every ::1 using (strcol(1) eq nm ? $7 + 8 : NaN):($8 + 1):(8):(1):(col(strcol(12))) \
                 with boxxyerror lc rgb variable, \
             csv every ::1 using (strcol(1) eq nm && $6 == 0 ? $7 + 8 : NaN):($8 + 8):(8):(8) \
                 with boxxyerror fs empty lc rgb '#374151' lw 1.5, \
             csv every ::1 using (strcol(1) eq nm && $13 == 0 ? $7 + 8 : NaN):($8 + 1):(7.5):(0.75) \
                 with boxxyerror fs empty lc rgb '#991b1b' lw 2.5
        unset arrow 1
        unset arrow 2
        unset label 20
        unset label 21
    } else {
        q = word(keys, i)
        set title sprintf("%d × %d, %s", iw(i), ih(i), about(i)) font ',14' textcolor '#1f2937' offset 0, -0.2 noenhanced
        set object 1 rect from 0, 0 to gw(i), gh(i) fc rgb '#f9fafb' fs solid 1.0 border lc rgb '#9ca3af' dt 2 behind
        if (q eq '-') {
            set label 22 "no records of this image\n(measure.edge_warps stopped early)" at first gw(i) / 2.0, first gh(i) / 2.0 \
                center font ',12' textcolor '#dc2626' noenhanced
        } else {
            set label 22 sprintf("drawn from your run once\nquestion.%s passes:\ncount them yourself first", q) \
                at first gw(i) / 2.0, first gh(i) / 2.0 center font ',12' textcolor '#4b5563' noenhanced
        }
        plot NaN
        unset object 1
        unset label 22
    }
    # The page's labels are drawn with the first panel, and once only.
    if (i == 1) {
        unset label 10
        unset label 11
        unset label 12
        unset label 13
    }
}

# The key, under the panels.
unset title
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0.02
set rmargin at screen 0.98
set tmargin at screen 1 - (H - 92) / H
set bmargin at screen 0.005
set key at screen 0.5, screen 1 - (H - 94) / H center top vertical Left reverse \
    samplen 1.5 width -6 maxrows 3 font ',13' noenhanced
plot NaN with boxes lc rgb cI title 'inside: all 32 lanes pass the check, one path', \
     NaN with boxes lc rgb cD title 'divergent: some lanes inside, some outside', \
     NaN with boxes lc rgb cO title 'outside: all 32 lanes fail it together, no divergence', \
     NaN with lines lw 3 lc rgb '#111827' title "the image's edge: x = width, y = height", \
     NaN with boxes fs empty lc rgb '#374151' lw 1.5 title 'a 16 × 16 block (8 warps)', \
     NaN with boxes fs empty lc rgb '#991b1b' lw 2.5 title 'recorded otherwise than the grader computes'
unset multiplot
