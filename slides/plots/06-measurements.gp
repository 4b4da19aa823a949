# 06-measurements.gp - lab 06: your latencies, bandwidths and FMA rate against the grader's own, and your ILP speedup
# SPDX-License-Identifier: MIT
# csv: build/report/{set}/06-latency-hiding/measurements.csv
# sample: slides/samples/06-measurements.csv NVIDIA H100 80GB HBM3, reference solution, 2026-11-27, CUDA 13.0
#
# Input: the measurements.csv that every grader writes into the run's report
# folder (lab,set,test,metric,value,unit,limit,comparison,gpu,seed); only
# the rows named below are read, by metric, so the other tests' rows and
# the header change nothing. Top: one row per figure a measure test
# compares (global_latency_cycles and _ns of measure.chase_global,
# shared_latency_cycles and _ns of measure.chase_shared, global_gbps,
# shared_bytes_per_cycle, fma_gflops): value is yours, limit the grader's
# own figure measured on the same GPU in the same run (comparison "in"),
# drawn as their ratio. A figure passes within +-tol of the grader's; the
# bands are not in the file, so they are copied here from
# check_latency_hiding.c: TOL_CHASE 0.30 (both chases, cycles and ns),
# TOL_GBPS 0.25, TOL_SMEM 0.11, TOL_FMA 0.20. (A test can still fail on
# something else: too few hops, a footprint that fits in a cache, a rate
# above 1.1 x peak; the verdict table says.) A value of 0, below 0 or not
# a number is "nothing measured", as check_near calls it (the stub's), and
# sits at the left edge. Bottom: perf.ilp's ilp_speedup against its limit
# (comparison "ge"), with ilp_student_ms, ilp_baseline_ms,
# ilp_student_gbps and, where answers.txt held one, ilp_speedup_predicted.
# Run by slides/plot.sh with csv, out, sample and label set.
if (!exists("csv")) csv = 'slides/samples/06-measurements.csv'
if (!exists("out")) out = 'build/plots/06-measurements.svg'
if (!exists("label")) label = csv
if (!exists("sample")) sample = 0

set terminal svg size 1200,760 font 'DejaVu Sans,17' background '#ffffff'
set output out
set datafile separator ','

# The rows, top to bottom: metric, band (the grader's constant), name, test, unit if none is recorded.
N = 7
metrics = 'global_latency_cycles global_latency_ns shared_latency_cycles shared_latency_ns global_gbps shared_bytes_per_cycle fma_gflops'
array TOL[N] = [0.30, 0.30, 0.30, 0.30, 0.25, 0.11, 0.20]
array NAME[N] = ['global latency, cycles', 'global latency, ns', 'shared latency, cycles', \
                 'shared latency, ns', 'global bandwidth', 'shared bandwidth per SM', 'FMA throughput']
array TEST[N] = ['measure.chase\_global', 'measure.chase\_global', 'measure.chase\_shared', \
                 'measure.chase\_shared', 'measure.global\_bw', 'measure.shared\_bw', 'measure.fma']
array UNIT[N] = ['cycles', 'ns', 'cycles', 'ns', 'GB/s', 'B/cycle', 'GFLOP/s']

# One metric's row: found (0/1), value, limit and unit. The header counts
# as a record whose metric matches nothing, so stats never runs empty.
gpu = ''
array F[N]
array V[N]
array L[N]
do for [i = 1:N] {
    m = word(metrics, i)
    found = 0
    v = NaN
    l = NaN
    u = ''
    stats csv using (strcol(4) eq m ? (found = 1, v = $5, l = $7, u = strcol(6), gpu = strcol(9), 1) : 0) nooutput
    F[i] = found
    V[i] = v
    L[i] = l
    if (u ne '') { UNIT[i] = u }
}
ilp = 'ilp_speedup ilp_student_ms ilp_baseline_ms ilp_student_gbps ilp_speedup_predicted'
array IF[5]
array IV[5]
array IL[5]
do for [i = 1:5] {
    m = word(ilp, i)
    found = 0
    v = NaN
    l = NaN
    stats csv using (strcol(4) eq m ? (found = 1, v = $5, l = $7, gpu = strcol(9), 1) : 0) nooutput
    IF[i] = found
    IV[i] = v
    IL[i] = l
}

# 65201 -> "65,201", 690.9 -> "691", 23.0024 -> "23.0", 0.4356 -> "0.436"
commas(x) = (x >= 1000) ? sprintf("%d,%03d", int(x + 0.5) / 1000, int(x + 0.5) % 1000) : sprintf("%d", int(x + 0.5))
fmt(x) = (x != x) ? 'not a number' : (x == 0) ? '0' : (abs(x) >= 1e6 || abs(x) < 0.01) ? sprintf("%.3g", x) : \
         (x >= 1000) ? commas(x) : (abs(x) >= 100) ? sprintf("%.0f", x) : (abs(x) >= 10) ? sprintf("%.1f", x) : \
         (abs(x) >= 1) ? sprintf("%.2f", x) : sprintf("%.3f", x)

green = '#047857'
red = '#dc2626'
grey = '#6b7280'
blue = '#2563eb'
ink = '#1f2937'
XMAX = 2.0

set label 1 "Your measurements against the grader's own, on the same GPU" at screen 0.5, screen 0.965 center font ',21'
# The label names a file whose name has underscores: print it as it is.
set label 2 label.(gpu ne '' && !sample ? '  ('.gpu.')' : '') at screen 0.5, screen 0.928 center font ',13' textcolor '#4b5563' noenhanced

set border 3 lc '#4b5563'
# Text over a band or a line (labels marked boxed) is shown on white.
set style textbox opaque fillcolor rgb '#ffffff' noborder margins 1,1
set tics nomirror textcolor rgb ink
unset key
set multiplot

# Top: one row per figure, yours over the grader's, the pass band shaded.
set lmargin at screen 0.215
set rmargin at screen 0.63
set tmargin at screen 0.855
set bmargin at screen 0.375
set xrange [0:XMAX]
set yrange [0.45:N + 0.55]
set xtics 0, 0.25 format '%g'
set mxtics 1
set grid xtics lc '#e5e7eb' lt 1
set xlabel "yours ÷ the grader's: 1 is the same figure; shaded, within the test's tolerance" textcolor rgb ink offset 0,0.2 font ',15'
set ytics () scale 0 font ',15'
set label 3 "yours / the grader's, the tolerance" at screen 0.655, screen 0.875 left font ',14' textcolor rgb grey
set arrow 1 from first 1, graph 0 to first 1, graph 1 nohead back lc rgb green lw 1.5 dt 2
do for [i = 1:N] {
    y = N + 1 - i
    set ytics add (sprintf("%s\n{/*0.75 %s}", NAME[i], TEST[i]) y)
    set object 10 + i rect from first 1 - TOL[i], first y - 0.32 to first 1 + TOL[i], first y + 0.32 \
        fc rgb '#d1fae5' fillstyle solid 1.0 noborder behind
    figures = sprintf("%s / %s %s, ±%d %%", fmt(V[i]), fmt(L[i]), UNIT[i], int(TOL[i] * 100 + 0.5))
    if (!F[i]) {
        set label 20 + i "not recorded in this run: see the test's verdict" at first 0.03, first y left boxed front font ',13' textcolor rgb grey
        figures = sprintf("—, ±%d %%", int(TOL[i] * 100 + 0.5))
    } else {
        if (V[i] != V[i] || V[i] <= 0) {
            set label 20 + i "nothing measured" at first 0, first y left point pt 7 ps 1.6 lc rgb red offset 1.2,-0.1 font ',14' textcolor rgb red
        } else {
            if (!(L[i] > 0)) {
                set label 20 + i "the grader's figure is missing" at first 0.03, first y left boxed front font ',13' textcolor rgb grey
            } else {
                r = V[i] / L[i]
                c = abs(r - 1) <= TOL[i] ? green : red
                if (r > XMAX) {
                    set label 20 + i sprintf("%.3g× off the scale", r) at first XMAX, first y right point pt 7 ps 1.6 lc rgb c offset -1.2,0 font ',14' textcolor rgb c
                } else {
                    set label 20 + i "" at first r, first y point pt 7 ps 1.6 lc rgb c
                }
            }
        }
    }
    set label 40 + i figures at screen 0.655, first y left font ',15' textcolor rgb ink
}
plot NaN notitle
unset object
unset arrow
unset label

# Bottom: perf.ilp, your speedup over the one-load-at-a-time loop, and its limit.
set tmargin at screen 0.225
set bmargin at screen 0.115
s = IV[1]
need = IF[1] && IL[1] > 0 ? IL[1] : 4
smax = 8
if (IF[1] && s == s && s * 1.12 > smax) { smax = ceil(s * 1.12) }
if (IF[5] && IV[5] == IV[5] && IV[5] * 1.12 > smax) { smax = ceil(IV[5] * 1.12) }
smax = smax > 64 ? 64 : smax
set xrange [0:smax]
set yrange [0.5:1.5]
set xtics 0, (smax > 40 ? 8 : smax > 20 ? 4 : smax > 10 ? 2 : 1) format '%g×'
set ytics ("ILP sum, speedup\n{/*0.75 perf.ilp}" 1) scale 0 font ',15'
set xlabel "your latency\\_hiding\\_ilp\\_sum against the grader's one-load-at-a-time loop, n = 2^{26}" textcolor rgb ink offset 0,0.2 font ',15'
set arrow 1 from first need, graph 0 to first need, graph 1 nohead back lc rgb ink lw 2 dt 2
set label 1 sprintf("need ≥ %g×", need) at first need, graph 1 center offset 0,0.7 font ',13' textcolor rgb ink
if (!IF[1]) {
    set label 2 "not timed: perf.ilp runs once correct.ilp\\_sum passes" at first 0.1, first 1 left boxed front font ',14' textcolor rgb grey
    timing = '—'
} else {
    c = (s >= need) ? green : red
    if (s == s && s > 0) {
        set object 1 rect from first 0, first 0.72 to first (s > smax ? smax : s), first 1.28 fc rgb c fillstyle solid 0.35 border lc rgb c behind
        set label 2 sprintf("%.2f×", s) at first (s > smax ? smax : s), first 1 left boxed front offset 0.5,0 font ',15' textcolor rgb c
    } else {
        set label 2 "nothing timed" at first 0, first 1 left point pt 7 ps 1.6 lc rgb red offset 1.2,-0.1 font ',14' textcolor rgb red
    }
    timing = sprintf("%s / %s ms, %s GB/s read", IF[2] ? fmt(IV[2]) : '?', IF[3] ? fmt(IV[3]) : '?', IF[4] ? fmt(IV[4]) : '?')
}
if (IF[5] && IV[5] == IV[5]) {
    set label 3 "" at first (IV[5] > smax ? smax : IV[5]), first 1.28 point pt 11 ps 1.6 lc rgb blue
    set label 5 sprintf("▼ you predicted %g×", IV[5]) at screen 0.655, first 1 left offset 0,-0.75 font ',15' textcolor rgb blue
    set label 4 timing at screen 0.655, first 1 left offset 0,0.6 font ',15' textcolor rgb ink
} else {
    set label 4 timing at screen 0.655, first 1 left font ',15' textcolor rgb ink
}
plot NaN notitle
unset multiplot
