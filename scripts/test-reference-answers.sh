#!/usr/bin/env bash
# test-reference-answers.sh - the reference's profiler readings (solutions/LAB/read-profiler.sh,
# scripts/reference-answers.sh) read from ncu's default output by a stand-in ncu: the first launch
# of each kernel, thousands separators dropped, "n/a" no reading, the largest stall reason of
# prefetching_best's kernel but selected, and only the `my_` lines of answers.txt that were read
# replaced. Nothing to test in a handout (no solutions/).
set -u
[ -x solutions/09-prefetching/read-profiler.sh ] && [ -x solutions/05-occupancy/read-profiler.sh ] ||
    { echo "SKIP  reference answers: no solutions/ here"; exit 0; }
bin=build/tests/refanswers.bin
rm -rf "$bin" && mkdir -p "$bin"
printf '#!/bin/sh\nexit 0\n' >"$bin/nvidia-smi"
cat >"$bin/ncu" <<'NCU'
#!/bin/sh
# a stand-in for ncu: its default output for lab 05's or lab 09's command
case "$*" in
*occ_achieved_kernel*) cat <<'OUT'
==PROF== Connected to process 4242 (grade)
wb-ncu: occ_achieved_kernel
==PROF== Disconnected from process 4242
[4242] grade@127.0.0.1
  occ_achieved_kernel(float *, int) (1,320, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0
    Section: Command line profiler metrics
    ---------------------------------------------------- ----------- ------------
    Metric Name                                          Metric Unit Metric Value
    ---------------------------------------------------- ----------- ------------
    sm__warps_active.avg.pct_of_peak_sustained_active              %        21.57
    ---------------------------------------------------- ----------- ------------

  occ_achieved_kernel(float *, int) (1,320, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0
    Section: Command line profiler metrics
    sm__warps_active.avg.pct_of_peak_sustained_active              %        99.99
OUT
;;
*) cat <<'OUT'
==PROF== Connected to process 4243 (grade)
wb-ncu: the plain loop and prefetching_best at n = 33554432, 132 blocks of 256 threads
[4243] grade@127.0.0.1
  pf_baseline_kernel(const float *, float *, int) (132, 1, 1)x(256, 1, 1), Context 1, Stream 13, Device 0, CC 9.0
    Section: Command line profiler metrics
    ------------------------------------------------------------------------ ----------- ------------
    Metric Name                                                              Metric Unit Metric Value
    ------------------------------------------------------------------------ ----------- ------------
    dram__throughput.avg.pct_of_peak_sustained_elapsed                                 %        12.34
    smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio                             0.00
    smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio                 1,010.34
    smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio                        0.02
    smsp__average_warps_issue_stalled_selected_per_issue_active.ratio                            1.00
    smsp__average_warps_issue_stalled_wait_per_issue_active.ratio                                3.50
    ------------------------------------------------------------------------ ----------- ------------

  pf_baseline_kernel(const float *, float *, int) (132, 1, 1)x(256, 1, 1), Context 1, Stream 13, Device 0, CC 9.0
    Section: Command line profiler metrics
    dram__throughput.avg.pct_of_peak_sustained_elapsed                                 %        77.00
    smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio                     7.00

  void prefetching_async_kernel<8>(const float *, float *, int) (132, 1, 1)x(256, 1, 1), Context 1, Stream 13, Device 0, CC 9.0
    Section: Command line profiler metrics
    dram__throughput.avg.pct_of_peak_sustained_elapsed                                 %          n/a
    smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio                              n/a
    smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio                     0.31
    smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio                        0.91
    smsp__average_warps_issue_stalled_selected_per_issue_active.ratio                            1.00
    smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio                    0.85
    smsp__average_warps_issue_stalled_wait_per_issue_active.ratio                                0.62

  void prefetching_async_kernel<8>(const float *, float *, int) (132, 1, 1)x(256, 1, 1), Context 1, Stream 13, Device 0, CC 9.0
    Section: Command line profiler metrics
    smsp__average_warps_issue_stalled_wait_per_issue_active.ratio                                5.00
OUT
;;
esac
NCU
chmod +x "$bin/ncu" "$bin/nvidia-smi"
status=0
check() { # what got want
    [ "$2" = "$3" ] || { printf 'FAIL  reference answers: %s\n  got:  %s\n  want: %s\n' "$1" "$2" "$3"; status=1; }
}
got=$(PATH="$PWD/$bin:$PATH" solutions/09-prefetching/read-profiler.sh | tr '\n' ';')
check "lab 09's readings" "$got" "my_dram_pct_plain = 12.34;my_long_scoreboard_plain = 1010.34;my_top_stall_best = mio_throttle 0.91;"
got=$(PATH="$PWD/$bin:$PATH" solutions/05-occupancy/read-profiler.sh | tr '\n' ';')
check "lab 05's reading" "$got" "my_achieved_occupancy = 21.57;"
# The answers file: the lines read replaced (my_top_stall_best's placeholder too), my_dram_pct_best
# (n/a) and every other line kept.
ans=$(PATH="$PWD/$bin:$PATH" scripts/reference-answers.sh 09-prefetching)
check "lab 09's answers file" "$ans" "build/answers/09-prefetching/answers.txt"
got=$(diff solutions/09-prefetching/answers.txt "$ans" | grep '^>' | tr '\n' ';')
check "lab 09's answers changed" "$got" "> my_dram_pct_plain = 12.34;> my_long_scoreboard_plain = 1010.34;> my_top_stall_best = mio_throttle 0.91;"
check "lab 09's answers, lines" "$(wc -l <"$ans")" "$(wc -l <solutions/09-prefetching/answers.txt)"
# Without a GPU (nvidia-smi fails) the reference's file as it is.
printf '#!/bin/sh\nexit 9\n' >"$bin/nvidia-smi"
ans=$(PATH="$PWD/$bin:$PATH" scripts/reference-answers.sh 05-occupancy)
check "no GPU" "$ans" "solutions/05-occupancy/answers.txt"
[ $status = 0 ] && echo "PASS  reference answers: ncu's default output read (first launch of each kernel, thousands separators, n/a no reading, the largest stall reason but selected), only the my_ lines read replaced, the reference's file as it is without a GPU"
exit $status
