# 00-device.gp - lab 00: the peaks your device query computed against the rates the grader measured on the GPU
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/00-device-query/measurements.csv
# sample: slides/samples/00-device.csv NVIDIA H100 80GB HBM3, reference solution, 2026-11-27, CUDA 13.0
#
# Input: the measurements.csv that every grader writes into the run's report
# folder (lab,set,test,metric,value,unit,limit,comparison,gpu,seed); only
# the rows named below are read, by metric, so other rows and the header
# change nothing. check.fp32_vs_measured records fma_throughput (value: the
# FMA rate the grader measured; limit: your peak_fp32_gflops) and
# fma_over_peak (their ratio, limit 0.5, "ge"); check.dram_vs_measured
# records copy_bandwidth and copy_over_peak the same way. The upper ends of
# the pass bands are not in the file, so they are copied here from
# check_device_query.c: test_fp32_vs_measured passes 0.50 to 1.20 of your
# peak, test_dram_vs_measured 0.50 to 1.05. Both checks run only once
# correct.fields passes (and on a GPU): until then the file holds neither,
# and the panels say so. One panel per check: your peak, and the rate
# measured with its pass band. Run by slides/plot.sh with csv, out, sample
# and label set.
if (!exists("csv")) csv = 'slides/samples/00-device.csv'
if (!exists("out")) out = 'build/plots/00-device.svg'
if (!exists("label")) label = csv
if (!exists("sample")) sample = 0

set terminal svg size 1200,600 font 'DejaVu Sans,17' background '#ffffff'
set output out
set datafile separator ','

# One panel per check: the rate's metric, the band (the grader's), the name and test.
array METRIC[2] = ['fma_throughput', 'copy_bandwidth']
array LO[2] = [0.50, 0.50]
array HI[2] = [1.20, 1.05]
array TITLE[2] = ['FP32: FMA throughput', 'DRAM: copy bandwidth']
array TEST[2] = ['check.fp32\_vs\_measured', 'check.dram\_vs\_measured']
array WHAT[2] = ['the grader’s FMA loop', 'the grader’s copy']
array UNIT[2] = ['GFLOP/s', 'GB/s']

# The rows, by metric. The header counts as a record whose metric matches
# nothing, so stats never runs empty.
gpu = ''
array F[2]
array V[2]
array P[2]
do for [i = 1:2] {
    found = 0
    v = NaN
    p = NaN
    u = ''
    stats csv using (strcol(4) eq METRIC[i] ? (found = 1, v = $5, p = $7, u = strcol(6), gpu = strcol(9), 1) : 0) nooutput
    F[i] = found
    V[i] = v
    P[i] = p
    if (u ne '') { UNIT[i] = u }
}

# 66908.2 -> "66,908"
commas(x) = (x >= 1000) ? sprintf("%d,%03d", int(x + 0.5) / 1000, int(x + 0.5) % 1000) : sprintf("%d", int(x + 0.5))
fmt(x) = (x != x) ? 'not a number' : (x == 0) ? '0' : (abs(x) >= 1e6 || abs(x) < 0.01) ? sprintf("%.3g", x) : \
         (x >= 1000) ? commas(x) : (abs(x) >= 100) ? sprintf("%.0f", x) : sprintf("%.1f", x)

green = '#047857'
red = '#dc2626'
grey = '#6b7280'
blue = '#2563eb'
ink = '#1f2937'

set border 3 lc '#4b5563'
set tics nomirror textcolor rgb ink
set grid ytics lc '#e5e7eb' lt 1
set style textbox opaque fillcolor rgb '#ffffff' noborder margins 1,1
unset key
set multiplot
set tmargin at screen 0.78
set bmargin at screen 0.20
set xrange [-0.6:1.95]
set xtics scale 0 font ',15' offset 0,-0.2
do for [i = 1:2] {
    unset object
    unset label
    unset arrow
    set lmargin at screen (i == 1 ? 0.10 : 0.595)
    set rmargin at screen (i == 1 ? 0.475 : 0.97)
    set xtics ("your peak\n{/*0.8 device\\_query\\_fill}" 0, sprintf("measured\n{/*0.8 %s}", WHAT[i]) 1)
    set ylabel UNIT[i] textcolor rgb ink offset 1,0
    if (i == 1) {
        set label 11 "The peaks your device query computed, against what the GPU reached" at screen 0.5, screen 0.955 center font ',21'
        # The label names a file whose name has underscores: print it as it is.
        set label 12 label.(gpu ne '' && !sample ? '  ('.gpu.')' : '') at screen 0.5, screen 0.91 center font ',13' textcolor rgb '#4b5563' noenhanced
    }
    set label 1 sprintf("%s {/*0.8 (%s)}", TITLE[i], TEST[i]) at graph 0.5, graph 1 center offset 0,1.2 font ',17'
    v = V[i]
    p = P[i]
    top = 1
    if (F[i] && p == p && p > 0) { top = p * HI[i] * 1.12 }
    if (F[i] && v == v && v * 1.2 > top) { top = v * 1.2 }
    set yrange [0:top]
    set format y (top >= 10000 ? '%.0s%c' : '%g')
    set ytics
    set grid ytics
    if (!F[i]) {
        unset ytics
        unset grid
        set label 2 sprintf("not measured in this run: %s runs\non a GPU, once correct.fields passes", TEST[i]) \
            at graph 0.5, graph 0.5 center boxed front font ',14' textcolor rgb grey
    } else {
        if (p == p && p > 0) {
            set object 1 rect from first -0.3, first 0 to first 0.3, first p fc rgb blue fillstyle solid 0.35 border lc rgb blue
            set object 2 rect from first 0.55, first LO[i] * p to first 1.45, first HI[i] * p \
                fc rgb '#d1fae5' fillstyle solid 1.0 noborder behind
            set label 3 sprintf("%d %%", int(HI[i] * 100 + 0.5)) at first 1.47, first HI[i] * p left font ',13' textcolor rgb green
            set label 4 sprintf("%d %%", int(LO[i] * 100 + 0.5)) at first 1.47, first LO[i] * p left font ',13' textcolor rgb green
            set label 5 "pass" at first 1.47, first (LO[i] + HI[i]) / 2 * p left font ',13' textcolor rgb green
        }
        set label 6 sprintf("%s %s", fmt(p), UNIT[i]) at first 0, first (p == p && p > 0 ? p : 0) center offset 0,0.8 font ',15' textcolor rgb blue
        if (!(p == p && p > 0)) {
            set label 7 "your peak is 0:\nnothing to compare" at first 0, graph 0.5 center boxed front font ',14' textcolor rgb red
        }
        if (v == v && v > 0) {
            ok = (p == p && p > 0 && v >= LO[i] * p && v <= HI[i] * p)
            c = ok ? green : red
            set object 3 rect from first 0.7, first 0 to first 1.3, first v fc rgb c fillstyle solid 0.45 border lc rgb c
            set label 8 sprintf("%s %s%s", fmt(v), UNIT[i], (p == p && p > 0) ? sprintf("\n%.0f %% of your peak", 100 * v / p) : '') \
                at first 1, first v center offset 0,(p == p && p > 0 ? 1.3 : 0.8) boxed front font ',15' textcolor rgb c
        } else {
            set label 8 "nothing measured" at first 1, graph 0.1 center font ',14' textcolor rgb red
        }
    }
    plot NaN notitle
}
unset multiplot
