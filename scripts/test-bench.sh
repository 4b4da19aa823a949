#!/usr/bin/env bash
# test-bench.sh - the bench's arithmetic on a fixed sample: medians, worst margins on the right
# side of each limit, verdict flips, grading times; the ledger entry it writes and what it says
# of a GPU model not listed, listed, listed in a malformed file or benched under load
set -u
t=$(mktemp -d /tmp/wb-bench-test.XXXXXX)
trap 'rm -rf "$t"' EXIT
cp tests/bench-sample/raw.csv tests/bench-sample/times.csv tests/bench-sample/config.txt "$t/"
mkdir "$t/ledger"
LEDGER_DIR=$t/ledger scripts/bench.sh --report "$t" >"$t/out" 2>&1
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

# ---- the ledger entry: config.txt's settings, the runs, the labs, then bench.csv as it is.
s0=$status
for line in "# gpu=NVIDIA Fixture GPU 40GB" "# sms=40" "# cc=8.6" "# driver=000.00.00" "# cuda_runtime=13.0" \
    "# date=2026-01-02" "# restricted_sms=0" "# runs=3" "# labs=01-y 02-x"; do
    grep -qxF -- "$line" "$t/ledger-entry.csv" || { echo "FAIL  ledger entry: no line \"$line\" in ledger-entry.csv"; status=1; }
done
grep -q '^# load=' "$t/ledger-entry.csv" && { echo "FAIL  ledger entry: holds config.txt's load= (an entry is never made under load)"; status=1; }
diff <(grep -v '^#' "$t/ledger-entry.csv") "$t/bench.csv" >/dev/null ||
    { echo "FAIL  ledger entry: its table is not bench.csv as written"; status=1; }
entry=$t/ledger-entry.csv
file=$t/ledger/nvidia-fixture-gpu-40gb.csv
# Not listed: each limit against the 25 % target, and the command that adds the entry.
expect "Ledger: NVIDIA Fixture GPU 40GB is not in $t/ledger/ (no $file): each limit against the 25 % target" report.md
expect "  SHORT  02-x perf.shade shade_speedup ge 1.5: reference worst +23.3 % (need >= +25 %); stub worst +0.7 % (need <= -25 %), passed 1 of 3 runs" report.md
expect "  ok     01-y check.staircase staircase_flat le 1.5: reference worst +36.4 % (need >= +25 %); stub not measured" report.md
expect "1 of 2 limits flagged (SHORT: short of the 25 % target here)." report.md
expect "1 test flipped between runs, first labs 02-x perf.shade: 1 passes, 2 fails in 3 runs." report.md
expect "To add this GPU model to the ledger: cp $entry $file" out
[ $status = "$s0" ] && echo "PASS  bench ledger: the entry is config.txt's settings and bench.csv; an unlisted GPU model is judged limit by limit against the 25 % target"

# Listed (its name in other case and spacing): compared with the listed figures. The listed
# reference cleared 01-y by 45 % (here 36.4: LOWER), 03-z is not measured here (GONE).
s0=$status
sed -e 's/^# gpu=.*/# gpu=nvidia  fixture gpu 40GB/' -e 's/^# date=.*/# date=2025-12-01/' \
    -e 's/^\(solutions,01-y,check.staircase,staircase_flat,1.5,le,2,1.055,1.01,1.1,\)36.4/\145.0/' "$entry" >"$file"
echo "solutions,03-z,perf.gone,gone_speedup,2,ge,3,3,3,3,50,3,0,0" >>"$file"
LEDGER_DIR=$t/ledger scripts/bench.sh --report "$t" >"$t/out" 2>&1
expect "Ledger: NVIDIA Fixture GPU 40GB is listed in $file (3 runs, 2025-12-01, driver 000.00.00, CUDA 13.0)" report.md
expect "  SHORT  02-x perf.shade shade_speedup ge 1.5: reference worst +23.3 % (need >= +25 %); stub worst +0.7 % (need <= -25 %), passed 1 of 3 runs; listed: reference +23.3 %, stub +0.7 %" report.md
expect "  LOWER  01-y check.staircase staircase_flat le 1.5: reference worst +36.4 % (need >= +25 %); stub not measured; listed: reference +45.0 %, stub not measured" report.md
expect "  GONE   03-z perf.gone gone_speedup ge 2: listed (reference +50.0 %, stub not measured) but not measured here" report.md
expect "3 of 3 limits flagged (SHORT: short of the 25 % target here; LOWER: a worst margin 5 points or more worse than listed; LIMIT: changed since the entry; NEW: not listed; GONE: listed, not measured here)." report.md
expect "To replace the listed entry with this bench: cp $entry $file" out
# The same limit listed with another value: LIMIT.
sed -i 's/^solutions,01-y,check.staircase,staircase_flat,1.5,le/solutions,01-y,check.staircase,staircase_flat,1.4,le/' "$file"
LEDGER_DIR=$t/ledger scripts/bench.sh --report "$t" >"$t/out" 2>&1
expect "  LIMIT  01-y check.staircase staircase_flat le 1.5: reference worst +36.4 % (need >= +25 %); stub not measured; listed with le 1.4: the limit changed since the entry" report.md
# A sample whose limits all hold (the reference 2.0x, the stub 1.0x failing every run), listed
# as it is: nothing flagged; listed without 01-y: NEW, and no warning about the verdicts.
ok=$t/ok
mkdir -p "$ok/ledger" && cp tests/bench-sample/times.csv tests/bench-sample/config.txt "$ok/"
{
    head -1 tests/bench-sample/raw.csv
    for r in 1 2 3; do
        echo "$r,solutions,02-x,perf.shade,shade_speedup,2.0,1.5,ge,PASS"
        echo "$r,solutions,02-x,perf.shade,verdict,,,,PASS"
        echo "$r,labs,02-x,perf.shade,shade_speedup,1.0,1.5,ge,FAIL"
        echo "$r,labs,02-x,perf.shade,verdict,,,,FAIL"
    done
    grep ',01-y,' tests/bench-sample/raw.csv
} >"$ok/raw.csv"
LEDGER_DIR=$ok/ledger scripts/bench.sh --report "$ok" >/dev/null 2>&1
cp "$ok/ledger-entry.csv" "$ok/ledger/nvidia-fixture-gpu-40gb.csv"
LEDGER_DIR=$ok/ledger scripts/bench.sh --report "$ok" >"$ok/out" 2>&1
expect_ok() { grep -qF -- "$1" "$ok/$2" || { echo "FAIL  bench ledger: no \"$1\" in $2 (all limits hold)"; status=1; }; }
expect_ok "  ok     02-x perf.shade shade_speedup ge 1.5: reference worst +33.3 % (need >= +25 %); stub worst -33.3 % (need <= -25 %); listed: reference +33.3 %, stub -33.3 %" report.md
expect_ok "0 of 2 limits flagged." report.md
grep -qF "may not hold" "$ok/report.md" && { echo "FAIL  bench ledger: a warning about the verdicts where every limit holds"; status=1; }
grep -v '^solutions,01-y' "$ok/ledger-entry.csv" >"$ok/ledger/nvidia-fixture-gpu-40gb.csv"
LEDGER_DIR=$ok/ledger scripts/bench.sh --report "$ok" >"$ok/out" 2>&1
expect_ok "  NEW    01-y check.staircase staircase_flat le 1.5: reference worst +36.4 % (need >= +25 %); stub not measured; not in the listed entry" report.md
expect_ok "This bench and the listed entry differ: replace the entry if this bench is the better record" report.md
# The reference failing a test in every run (a test without a limit): said with the test,
# and the verdicts on this GPU may not hold, though every limit holds.
s1=$status
for r in 1 2 3; do echo "$r,solutions,01-y,correct.z,verdict,,,,FAIL"; done >>"$ok/raw.csv"
LEDGER_DIR=$ok/ledger scripts/bench.sh --report "$ok" >"$ok/out" 2>&1
expect_ok "The reference failed 1 test in every run, first 01-y correct.z: 3 fails in 3 runs" report.md
expect_ok "A verdict on this GPU may not hold" report.md
[ $status = "$s1" ] && echo "PASS  bench ledger: a test the reference fails in every run is reported, though no limit shows it"
[ $status = "$s0" ] && echo "PASS  bench ledger: a listed GPU model (any case and spacing) is compared limit by limit with its entry: SHORT, LOWER, LIMIT, GONE, NEW, and nothing where all holds"

# Malformed, another model's, or not a CSV at all: said, with the line, and judged as unlisted;
# the bench still ends with status 0 and a whole report.
s0=$status
check_bad() { # WHAT EXPECTED-TEXT: the ledger file holds something bad
    local rc
    LEDGER_DIR=$t/ledger scripts/bench.sh --report "$t" >"$t/out" 2>&1; rc=$?
    [ $rc = 0 ] || { echo "FAIL  bench ledger, $1: bench.sh ended with status $rc: $(tail -3 "$t/out")"; status=1; }
    expect "$2" report.md
    expect "; so NVIDIA Fixture GPU 40GB is judged as not listed: each limit against the 25 % target" report.md
    expect "  SHORT  02-x perf.shade shade_speedup ge 1.5" report.md
    expect "1 of 2 limits flagged (SHORT: short of the 25 % target here)." report.md
    expect "To replace the $3 entry with this bench: cp $entry $file" out
}
{ grep '^#' "$entry"; grep -v '^#' "$entry" | head -2; echo "solutions,02-x,perf.shade"; } >"$file"
check_bad "a short row" "Ledger: $file is malformed: line 15: expected 14 comma-separated fields (set,lab,test,metric,limit,comparison,runs,median,min,max,worst_margin_pct,passes,fails,flips), found 3" malformed
sed 's/^# gpu=.*/# gpu=NVIDIA Fixture GPU 40GB PCIe/' "$entry" >"$file"
check_bad "another model" "Ledger: $file is another model's entry: it is for \"NVIDIA Fixture GPU 40GB PCIe\" with SMS=0, not \"NVIDIA Fixture GPU 40GB\" with SMS=0" "other model's"
printf '\177ELF\002\001\001\000\000\000\n\000\377\376' >"$file"
check_bad "a binary file" "Ledger: $file is malformed: line 1: expected the column header \"set,lab,test,metric,limit,comparison,runs,median,min,max,worst_margin_pct,passes,fails,flips\", found \"?ELF??????\"" malformed
rm -f "$file"
[ $status = "$s0" ] && echo "PASS  bench ledger: a malformed entry (a short row, another model, a binary file) is reported by line and judged as unlisted, status 0"

# Under LOAD=1, or without config.txt: no entry, and the report says why.
s0=$status
sed -i 's/^load=0/load=1/' "$t/config.txt"
LEDGER_DIR=$t/ledger scripts/bench.sh --report "$t" >"$t/out" 2>&1
expect "No ledger entry: this bench ran with LOAD=1 (a shared GPU)" report.md
[ -e "$entry" ] && { echo "FAIL  bench ledger: an entry was written under LOAD=1"; status=1; }
rm "$t/config.txt"
LEDGER_DIR=$t/ledger scripts/bench.sh --report "$t" >"$t/out" 2>&1
expect "No ledger entry: $t/config.txt is missing" report.md
[ $status = "$s0" ] && echo "PASS  bench ledger: no entry under LOAD=1 or without config.txt, and the report says why"
# REPLACE=1: the labs named are graded again into runs 1..3 of the bench there; the other labs'
# rows stay as they were, and config.txt says what was replaced. The graders here are stand-ins
# that record one measurement (2.5) of 02-x's limit.
s0=$status
fk=$t/replace
mkdir -p "$fk/build/bench" && ln -s "$PWD/scripts" "$fk/scripts" && ln -s "$PWD/build/tools" "$fk/build/tools"
cp tests/bench-sample/raw.csv tests/bench-sample/times.csv tests/bench-sample/config.txt "$fk/build/bench/"
for set in solutions labs; do
    mkdir -p "$fk/build/$set/02-x"
    cat >"$fk/build/$set/02-x/grade" <<'GRADER'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = --report-dir ] && d=$2; shift; done
mkdir -p "$d"
printf '{"extra_data":{"gpu":"NVIDIA Fixture GPU 40GB","grader_version":"NEWVER"},"tests":[{"name":"02-x: perf.shade","status":"passed","extra_data":{"lab":"02-x","id":"perf.shade","verdict":"PASS"}}]}' >"$d/results.json"
printf 'lab,set,test,metric,value,unit,limit,comparison,gpu,seed\n02-x,x,perf.shade,shade_speedup,2.5,x,1.5,ge,x,1\n' >"$d/measurements.csv"
GRADER
    chmod +x "$fk/build/$set/02-x/grade"
done
# an earlier grader's folder of a lab not named, as a bench leaves it
mkdir -p "$fk/build/bench/runs/1/solutions/01-y"
printf '{"extra_data":{"gpu":"NVIDIA Fixture GPU 40GB","grader_version":"OLDVER"},"tests":[]}' >"$fk/build/bench/runs/1/solutions/01-y/results.json"
(cd "$fk" && LEDGER_DIR=$t/ledger REPLACE=1 scripts/bench.sh 02-x >out 2>&1) || { echo "FAIL  bench REPLACE=1: bench.sh failed: $(tail -3 "$fk/out")"; status=1; }
b=$fk/build/bench
[ "$(grep -c ',01-y,' "$b/raw.csv")" = "$(grep -c ',01-y,' tests/bench-sample/raw.csv)" ] ||
    { echo "FAIL  bench REPLACE=1: the rows of 01-y, not named, changed"; status=1; }
[ "$(grep ',02-x,perf.shade,shade_speedup,' "$b/raw.csv" | cut -d, -f1,2,6 | sort | tr '\n' ' ')" = "1,labs,2.5 1,solutions,2.5 2,labs,2.5 2,solutions,2.5 3,labs,2.5 3,solutions,2.5 " ] ||
    { echo "FAIL  bench REPLACE=1: expected 02-x measured 2.5 in runs 1..3 of both sets alone, found: $(grep ',02-x,perf.shade,shade_speedup,' "$b/raw.csv" | tr '\n' ' ')"; status=1; }
[ "$(grep -c ',02-x,' "$b/times.csv")" = 6 ] || { echo "FAIL  bench REPLACE=1: expected 6 grading times of 02-x (3 runs, 2 sets), found $(grep -c ',02-x,' "$b/times.csv")"; status=1; }
grep -q '^replaced=02-x benched again .* by grader NEWVER, into a bench last written 2026-01-02 by grader ' "$b/config.txt" ||
    { echo "FAIL  bench REPLACE=1: config.txt does not say 02-x was replaced by grader NEWVER: $(cat "$b/config.txt")"; status=1; }
grep -qx 'grader_version=NEWVER' "$b/config.txt" ||
    { echo "FAIL  bench REPLACE=1: config.txt's grader_version is not the grader that ran now (NEWVER; 01-y's folder is OLDVER's): $(grep grader_version "$b/config.txt")"; status=1; }
grep -q '^solutions,02-x,perf.shade,shade_speedup,1.5,ge,3,2.5,2.5,2.5,' "$b/bench.csv" ||
    { echo "FAIL  bench REPLACE=1: bench.csv does not hold 02-x's 3 new runs: $(grep ',02-x,' "$b/bench.csv" | head -2)"; status=1; }
# A run added later keeps the record of what was replaced.
(cd "$fk" && LEDGER_DIR=$t/ledger APPEND=1 RUNS=1 scripts/bench.sh 02-x >out 2>&1)
grep -q '^replaced=02-x benched again' "$b/config.txt" ||
    { echo "FAIL  bench APPEND=1 after REPLACE=1: config.txt lost its replaced= line"; status=1; }
# bench-restricted with REPLACE=1 and no RUNS: as many runs as the bench there has (2 here).
mkdir -p "$b/sms-16"
for f in raw.csv times.csv; do awk -F, 'NR == 1 || $1 <= 2' tests/bench-sample/$f >"$b/sms-16/$f"; done
cp tests/bench-sample/config.txt "$b/sms-16/"
(cd "$fk" && LEDGER_DIR=$t/ledger REPLACE=1 SMS_LIST=16 scripts/bench-restricted.sh 02-x >out 2>&1)
[ "$(grep -c ',02-x,' "$b/sms-16/times.csv")" = 4 ] ||
    { echo "FAIL  bench-restricted REPLACE=1: expected 02-x graded in the 2 runs there (4 times), found $(grep -c ',02-x,' "$b/sms-16/times.csv")"; status=1; }
[ $status = "$s0" ] && echo "PASS  bench REPLACE=1: the labs named are graded again into the runs there (bench-restricted too), the other labs' rows kept, the replacement recorded by the grader that ran and kept by later runs"

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
refused REPLACE=yes scripts/bench.sh 01-x
refused REPLACE=1 APPEND=1 scripts/bench.sh 01-x
# no earlier bench to replace a lab in (SMS=999: a folder no bench has written)
refused REPLACE=1 SMS=999 scripts/bench.sh 01-x
[ -e build/bench/sms-999 ] && { echo "FAIL  bench: REPLACE=1 without an earlier bench wrote build/bench/sms-999"; status=1; }
[ $status = 0 ] && echo "PASS  bench: SMS, APPEND, REPLACE and SMS_LIST checked before anything runs"
exit $status
