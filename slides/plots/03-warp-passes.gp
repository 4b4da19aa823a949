# 03-warp-passes.gp - lab 03: which branch body ran each lane of each warp, as your counting kernel recorded it
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/03-divergence/warp_passes.csv
# sample: slides/samples/03-warp-passes.csv the 32 warps of n = 1003 in a right solution (the same on every GPU), written without a GPU by the grader CSV code: not measured
#
# Input: the CSV that lab 03's correct.count_divergent writes for n = 1003
# (4 blocks, 32 warps, the last holding 11 elements), one row per warp:
# layout,n,warp,passes,lanes,even_lanes,odd_lanes,exp_passes,exp_lanes,
# exp_even_lanes,exp_odd_lanes,agrees. layout: divergent (element g on
# thread g) or uniform (yours); passes, lanes: your record; even_lanes,
# odd_lanes: the masks your record holds for the even and the odd body, as
# 32 digits, lane 0 first; exp_*: what the grader expects (in the uniform
# layout the masks are yours to choose: exp_*_lanes empty); agrees: 1 where
# the warp's record passes the test's rule. correct.count_uniform writes
# the same for your layout to warp_passes_uniform.csv beside it; the sample
# holds both layouts in one file. Left panel: the divergent layout; right
# panel: yours. A row per warp, a cell per lane, coloured by the body that
# ran it; beside each row your passes and lanes; a red outline where a lane
# or a row differs from what the grader expects. Run by slides/plot.sh with
# csv, out, sample and label set.
if (!exists("csv")) csv = 'slides/samples/03-warp-passes.csv'
if (!exists("out")) out = 'build/plots/03-warp-passes.svg'
if (!exists("label")) label = csv
if (!exists("sample")) sample = 1

# Your layout's rows: in the sample, the same file; from a run, the file
# correct.count_uniform writes beside it (absent when that test stopped early).
ucsv = csv
if (!sample) {
    ucsv = csv[1:strlen(csv) - 4] . '_uniform.csv'
    if (system(sprintf("test -s '%s' && echo 1 || echo 0", ucsv)) + 0 == 0) { ucsv = '' }
}

set datafile separator ','
isd(s) = s eq 'divergent'
isu(s) = s eq 'uniform'
stats csv every ::1 using (isd(strcol(1)) ? $4 : 0):(isd(strcol(1)) ? $5 : 0) nooutput
dpasses = STATS_sum_x
dlanes = STATS_sum_y
stats csv every ::1 using (isd(strcol(1)) && $12 == 0 ? 1 : 0):(isd(strcol(1)) ? 1 : 0) nooutput
dwrong = int(STATS_sum_x)
dwarps = int(STATS_sum_y)
stats csv every ::1 using 2 nooutput
n = int(STATS_max)
uwarps = 0
uwrong = 0
upasses = 0
ulanes = 0
if (ucsv ne '') {
    stats ucsv every ::1 using (isu(strcol(1)) ? $4 : 0):(isu(strcol(1)) ? $5 : 0) nooutput
    upasses = STATS_sum_x
    ulanes = STATS_sum_y
    stats ucsv every ::1 using (isu(strcol(1)) && $12 == 0 ? 1 : 0):(isu(strcol(1)) ? 1 : 0) nooutput
    uwrong = int(STATS_sum_x)
    uwarps = int(STATS_sum_y)
}
nw = dwarps > uwarps ? dwarps : uwarps
nw = nw > 0 ? nw : 1
eff(l, p) = p > 0 ? 100.0 * l / (32 * p) : 0

# Square cells; beside each panel two columns of figures (passes, lanes).
W = 1200.0
cw = 620.0 / nw
cw = cw < 13 ? cw : 13
pw = 32 * cw
cols = 110.0
gap = 40.0
left = (W - 2 * (pw + cols) - gap) / 2
top = 170.0
ph = nw * cw
H = top + ph + 190
ext = cols / cw

set terminal svg size W, H font 'DejaVu Sans,16' background '#ffffff'
set output out

set label 11 sprintf("Which body ran each lane: the %d warp records of n = %d, as your counting kernel wrote them", nw, n) \
    at screen 0.5, screen 1 - 30 / H center font ',20'
# The label names a file whose name has underscores: print it as it is.
set label 10 label at screen 0.5, screen 1 - 58 / H center font ',13' textcolor '#4b5563' noenhanced
# Your layout is judged on its records and on its total: every element
# counted once, n lanes in all.
utotal = ucsv eq '' || int(ulanes) == n ? "" : sprintf("; its records count %d lanes, not the %d elements", int(ulanes), n)
if (dwrong + uwrong == 0 && ucsv ne '' && utotal eq '') {
    set label 12 sprintf("every record is right: divergent %.2f passes a warp at %.0f %% of lanes; yours %.2f at %.0f %%", \
        dpasses / dwarps, eff(dlanes, dpasses), upasses / uwarps, eff(ulanes, upasses)) \
        at screen 0.5, screen 1 - 88 / H center font ',15' textcolor '#047857'
} else {
    set label 12 sprintf("records not as the grader expects (red): %d of %d in the divergent layout; %s", \
        dwrong, dwarps, ucsv eq '' ? "none written for your layout" : sprintf("%d of %d in yours%s", uwrong, uwarps, utotal)) \
        at screen 0.5, screen 1 - 88 / H center font ',15' textcolor '#dc2626'
}

# Lane colours: the even body, the odd body, both (a lane runs one body: an
# impossible record), neither (no element for the lane).
cE = 0x60a5fa
cO = 0xfbbf24
cB = 0xdc2626
cN = 0xf3f4f6
bit(s, l) = strlen(s) > l ? substr(s, l + 1, l + 1) eq '1' : 0
cell(e, o, l) = bit(e, l) ? (bit(o, l) ? cB : cE) : (bit(o, l) ? cO : cN)
# A lane whose bodies differ from the expected masks (only where given).
off(e, o, x, y, l) = strlen(x) == 32 && (bit(e, l) != bit(x, l) || bit(o, l) != bit(y, l))
fs = cw > 11 ? 12 : 9

set style fill solid 1.0 border lc rgb '#ffffff'
unset key
set border 0
set tics scale 0 textcolor '#1f2937' font ',13'
set xrange [-0.5:31.5 + ext]
set yrange [nw - 0.5:-0.5]
set xtics ('0' 0, '8' 8, '16' 16, '24' 24, '31' 31)
set ytics 0, (nw > 16 ? 4 : 1), nw - 1
set xlabel 'lane' textcolor '#1f2937' offset -ext / 2, 0.3

set multiplot
set tmargin at screen 1 - top / H
set bmargin at screen 1 - (top + ph) / H
do for [p = 0:1] {
    f = p == 0 ? csv : ucsv
    lay = p == 0 ? 'divergent' : 'uniform'
    x0 = left + p * (pw + cols + gap)
    set lmargin at screen x0 / W
    set rmargin at screen (x0 + pw + cols) / W
    set title (p == 0 ? "element g on thread g (the divergent layout)" : "your layout (DIVERGENCE_UNIFORM)") \
        font ',15' textcolor '#1f2937' offset -ext / 2, 0.2 noenhanced
    if (p == 0) {
        set ylabel 'warp (blockIdx.x * 8 + threadIdx.x / 32)' textcolor '#1f2937' offset 1, 0
        set ytics format '%g'
    } else {
        unset ylabel
        set ytics format ''
    }
    set label 21 'passes' at first 32.3 + ext * 0.25, first -0.9 center font ',12' textcolor '#1f2937' front
    set label 22 'lanes' at first 32.3 + ext * 0.7, first -0.9 center font ',12' textcolor '#1f2937' front
    if (f eq '') {
        set label 23 "correct.count_uniform wrote no records\n(it stopped before n = 1003, or did not run)" \
            at first 15.5, first nw / 2.0 center font ',14' textcolor '#dc2626' noenhanced
        plot NaN
        unset label 23
    } else {
        plot for [l = 0:31] f every ::1 using (strcol(1) eq lay ? l : NaN):3:(0.5):(0.5):(cell(strcol(6), strcol(7), l)) \
                 with boxxyerror lc rgb variable, \
             for [l = 0:31] f every ::1 using (strcol(1) eq lay && off(strcol(6), strcol(7), strcol(10), strcol(11), l) ? l : NaN):3:(0.38):(0.38) \
                 with boxxyerror fs empty lc rgb '#991b1b' lw 2, \
             f every ::1 using (strcol(1) eq lay && $12 == 0 ? 15.5 + ext / 2 : NaN):3:(16 + ext / 2 - 0.1):(0.5) \
                 with boxxyerror fs empty lc rgb '#dc2626' lw 2, \
             f every ::1 using (strcol(1) eq lay ? 32.3 + ext * 0.25 : NaN):3:($4 == $8 ? sprintf('%d', $4) : sprintf('%d≠%d', $4, $8)) \
                 with labels font sprintf(',%d', fs) textcolor rgb '#111827', \
             f every ::1 using (strcol(1) eq lay ? 32.3 + ext * 0.7 : NaN):3:($5 == $9 ? sprintf('%d', $5) : sprintf('%d≠%d', $5, $9)) \
                 with labels font sprintf(',%d', fs) textcolor rgb '#111827'
    }
}
unset label 21
unset label 22

# The key, under the panels.
unset title
unset xlabel
unset ylabel
unset tics
set xrange [0:1]
set yrange [0:1]
set lmargin at screen 0.02
set rmargin at screen 0.98
set tmargin at screen 1 - (top + ph + 60) / H
set bmargin at screen 0.005
set key at screen 0.5, screen 1 - (top + ph + 62) / H center top vertical Left reverse \
    samplen 1.2 width -8 maxrows 3 font ',14' noenhanced
set style fill solid 1.0 border lc rgb '#ffffff'
plot NaN with boxes lc rgb cE title 'the even body ran the lane', \
     NaN with boxes lc rgb cO title 'the odd body ran the lane', \
     NaN with boxes lc rgb cN title 'neither (no element for the lane)', \
     NaN with boxes lc rgb cB title 'both: impossible, a lane runs one body', \
     NaN with boxes fs empty lc rgb '#dc2626' lw 2 title "not what the grader expects (figures: yours≠expected)"
unset multiplot
