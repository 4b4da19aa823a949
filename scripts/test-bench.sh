#!/usr/bin/env bash
# test-bench.sh - the bench's arithmetic on a fixed sample: medians, worst margins on the right
# side of each limit, verdict flips, grading times
set -u
t=$(mktemp -d /tmp/wb-bench-test.XXXXXX)
trap 'rm -rf "$t"' EXIT
cp tests/bench-sample/raw.csv tests/bench-sample/times.csv "$t/"
scripts/bench.sh --report "$t" >"$t/out" 2>&1
status=0
expect() { grep -qF -- "$1" "$t/$2" || { echo "FAIL  bench report: no \"$1\" in $2"; status=1; }; }
expect "| 02-x | perf.shade | shade_speedup | ge 1.5 | 1.89 (1.85..1.91) | 23.3% | 1.02 (1..1.51) | 0.7% |" report.md
expect "| 01-y | check.staircase | staircase_flat | le 1.5 | 1.055 (1.01..1.1) | 36.4% | not reached | - |" report.md
expect "1 flip(s)" report.md
expect "- labs 02-x perf.shade: 1 passes, 2 fails" report.md
expect "1 inconclusive verdict(s)" report.md
expect "| 02-x | 3.2 | 2.1 |" report.md
expect "solutions,02-x,perf.shade,shade_speedup,1.5,ge,3,1.89,1.85,1.91,23.3,3,0,0" bench.csv
[ $status = 0 ] && echo "PASS  bench report: medians, worst margins, flips, inconclusive runs and times from a fixed sample"
# Bad settings are refused with exit status 2 and the variable's name, before anything runs.
refused() {
    local out rc
    out=$(env "$@" 2>&1 </dev/null); rc=$?
    if [ $rc != 2 ] || ! grep -qF -- "${1%%=*}" <<<"$out"; then
        echo "FAIL  bench: $* was not refused by name with status 2 (status $rc: $out)"; status=1
    fi
}
refused SMS=abc scripts/bench.sh 01-x
refused SMS=0 scripts/bench.sh 01-x
refused APPEND=yes scripts/bench.sh 01-x
refused SMS_LIST="16 x" scripts/bench-restricted.sh 01-x
[ $status = 0 ] && echo "PASS  bench: SMS, APPEND and SMS_LIST checked before anything runs"
exit $status
