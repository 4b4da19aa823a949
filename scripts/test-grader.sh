#!/usr/bin/env bash
# test-grader.sh - the grader's own verdict rules, on a lab made of framework cases
set -u
out=build/tests/selftest
rm -rf "$out"
build/tests/grader_selftest --set solutions --student /nonexistent.so --answers /dev/null \
    --report-dir "$out" >"$out.log" 2>&1
tsv=$(build/tools/wb-summary --tsv "$out/results.json") || { echo "FAIL  grader self-test wrote no results"; exit 1; }
status=0
gpu=SKIP; grep -q "no GPU" "$out.log" || gpu=PASS
expect() { # id verdict points words
    line=$(grep -P "^\Q$1\E\t" <<<"$tsv")
    v=$(cut -f2 <<<"$line"); p=$(cut -f3 <<<"$line"); r=$(cut -f5 <<<"$line")
    if [ "$v" != "$2" ] || [ "$p" != "$3" ] || ! grep -qiF -- "$4" <<<"$r"; then
        echo "FAIL  grader rule for $1: got $v $p \"$r\", expected $2 $3 with \"$4\""; status=1
    fi
}
expect self.pass PASS 3 ""
expect self.fail FAIL 0 "expected 1, got 2"
expect self.skip_zero_points SKIP 0 "counters unreadable"
expect self.skip_with_points FAIL 0 "counters unreadable"
expect self.exit0 FAIL 0 "exit status 0"
expect self.skipped_with SKIP 0 "not graded: self.probe_skips was skipped: counters unreadable"
expect self.not_skipped_with FAIL 0 "counters unreadable"
expect self.abort FAIL 0 "signal 6"
expect self.gated FAIL 0 "not graded: self.fail must pass first"
expect self.ungated PASS 5 ""
expect self.outdir PASS 1 ""
expect self.publish PASS 1 ""
# A file a test left is published into the report folder, and the next run into that folder
# removes it before anything else (a picture of an earlier run is never taken for this one's),
# and nothing it did not publish.
rm -rf "$out.pub"
sg=(build/tests/grader_selftest --set solutions --student /nonexistent.so --answers /dev/null --report-dir "$out.pub")
"${sg[@]}" --only self.publish >"$out.pub.log" 2>&1
[ -s "$out.pub/left_by_self_publish.csv" ] ||
    { echo "FAIL  grader rule: self.publish's file was not published into $out.pub"; status=1; }
echo keep >"$out.pub/not_published_here.txt"
"${sg[@]}" --only self.pass >>"$out.pub.log" 2>&1
{ [ ! -e "$out.pub/left_by_self_publish.csv" ] && [ -s "$out.pub/not_published_here.txt" ]; } ||
    { echo "FAIL  grader rule: the next run did not remove only what the run before published ($(ls "$out.pub" | tr '\n' ' '))"; status=1; }
expect self.noisy_miss RERUN 0 "grade again when the GPU is idle"
expect self.clear_miss FAIL 0 "speedup 1.40x"
expect self.nan_ratio FAIL 0 "speedup nanx"
expect question.self_question FAIL 0 "has no line"
expect self.prediction FAIL 0 "no prediction"
# Where seccomp refuses setpgid the test cannot leave its group (Check's limit ends it); elsewhere the
# watchdog must kill it past its limit.
if grep -q "system calls filtered" "$out.log"; then
    expect self.pgid_escape FAIL 0 "did not finish within 2 s"
    grep -q "refused: setpgid" "$out/records/"*.out 2>/dev/null ||
        { echo "FAIL  grader rule: the sandbox let a test leave its process group"; status=1; }
else
    expect self.pgid_escape FAIL 0 "left its process group"
fi
expect self.fork_chain PASS 1 ""
expect self.run_under PASS 1 ""
expect self.ncu_read PASS 1 ""
expect self.ncu_family PASS 1 ""
# A body run by hand with --run-body (a student's ncu command line) ends 0 when it completes; run
# by the grader under a tool (WB_TOOL_CHILD) it ends with the kit's own status, 93.
bo=(build/tests/grader_selftest --set solutions --student /nonexistent.so --answers /dev/null --report-dir "$out.body" --run-body self.pass)
"${bo[@]}" >"$out.body.log" 2>&1; st=$?
WB_TOOL_CHILD=1 "${bo[@]}" >>"$out.body.log" 2>&1; st_tool=$?
[ $st = 0 ] && [ $st_tool = 93 ] ||
    { echo "FAIL  grader rule: --run-body self.pass ended $st by hand (expected 0), $st_tool under a tool (expected 93)"; status=1; }
expect self.forge PASS 1 ""
expect self.forged FAIL 0 "expected 1, got 2"
# Its own verdict forged (self.forge_own: "done" into every pipe it holds, then the kit's exit
# status, before anything is checked): the "done" line lacks the test's key, and it fails.
expect self.forge_own FAIL 0 "a \"done\" line the grader did not write"
# Points that rest on ncu's counters, skipped with a 0-point probe that has ncu read one
# (.skip_with): SKIP here whatever ncu there is (none, or a real one that knows no metric m.x);
# then a stand-in ncu first on PATH, as the probe finds the counters: closed (ERR_NVGPUCTRPERM),
# the probe SKIP with the fix and the tests SKIP unrun with it; broken (an error), nokernel (none
# profiled), partial (an error and a reading of another metric) and plain (a reading in ncu's
# plain tables, which the probe does not read), SKIP with what ncu said; open, the tests run (and
# a failing one fails). Never PASS without running. --only names the graded tests alone: the
# probe runs with them.
expect self.ncu_probe SKIP 0 ""
expect self.counters SKIP 0 ""
expect self.counters_fail SKIP 0 ""
expect self.ncu_top SKIP 0 ""
expect self.ncu_top_low SKIP 0 ""
# ncu's log holds readings that may be a question's answer: wb_ncu_keep_log publishes a log only
# where it holds none (self.ncu_keep: each layout of ncu's results kept back, messages alone
# published as written; the last of them, ncu's refusal, left published).
expect self.ncu_keep PASS 1 ""
grep -qs ERR_NVGPUCTRPERM "$out/self.ncu_keep.ncu.log" ||
    { echo "FAIL  grader rule: self.ncu_keep: ncu's refusal not published as self.ncu_keep.ncu.log"; status=1; }
left=$(grep -rl 'held_kernel' "$out" 2>/dev/null | tr '\n' ' ')
[ -z "$left" ] || { echo "FAIL  grader rule: self.ncu_keep: readings of ncu's published in $left"; status=1; }
mkdir -p "$out.bin"
cat >"$out.bin/ncu" <<'NCU'
#!/bin/sh
# a stand-in for ncu: writes to its --log-file what WB_FAKE_NCU says
log=/dev/stdout
while [ $# -gt 0 ]; do [ "$1" = --log-file ] && log=$2; shift; done
header='"ID","Process ID","Kernel Name","Metric Name","Metric Unit","Metric Value"'
case $WB_FAKE_NCU in
closed) echo "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0." >"$log"; exit 1 ;;
open) { echo "$header"; echo '"0","1","probe_kernel(long long, int *)","m.x","%","12.5"'; } >"$log" ;;
partial) { echo "==ERROR== Failed to profile kernel"; echo "$header"
           echo '"0","1","probe_kernel(long long, int *)","m.y","%","87.5"'; } >"$log"; exit 1 ;;
plain) { echo "==PROF== Connected to process 1"; echo "  probe_kernel(long long, int *) (1, 1, 1)x(32, 1, 1), Context 1, Stream 7"
         echo "    Metric Name  Metric Unit Metric Value"; echo "    m.x                    %        12.5"; } >"$log" ;;
nokernel) { echo "==PROF== Disconnected from process 1"; echo "==WARNING== No kernels were profiled."; } >"$log" ;;
stalls) # the stall reasons of launches of three kernels, for self.ncu_top (m.x for the probe)
    r() { echo "\"$1\",\"1\",\"$2(const float *, float *, int)\",\"$3\",\"\",\"$4\""; }
    s=smsp__average_warps_issue_stalled_ x=_per_issue_active.ratio p=smsp__warp_issue_stalled_ y=_per_warp_active.pct
    { echo "$header"; echo '"0","1","probe_kernel(long long, int *)","m.x","%","12.5"'
      r 1 plain_kernel "${s}long_scoreboard$x" 10.34; r 1 plain_kernel "${s}wait$x" 1.52
      r 1 plain_kernel "${s}selected$x" 1; r 1 plain_kernel "${s}not_selected$x" 0.04
      r 1 plain_kernel "${s}lg_throttle$x" 0.21; r 1 plain_kernel "${p}long_scoreboard$y" 62.58
      r 1 plain_kernel "${p}wait$y" 9.14
      r 2 best_kernel "${s}wait$x" 2.43; r 2 best_kernel "${s}lg_throttle$x" 2.17
      r 2 best_kernel "${s}long_scoreboard$x" 0.61; r 2 best_kernel "${s}math_pipe_throttle$x" 1.21
      r 2 best_kernel "${s}not_selected$x" 0.33; r 2 best_kernel "${s}selected$x" 1
      r 2 best_kernel "${s}tex_throttle$x" n/a; r 2 best_kernel "${p}wait$y" 35.71
      r 2 best_kernel "${p}lg_throttle$y" 31.90; r 2 best_kernel "${p}long_scoreboard$y" 8.77
      r 3 best_kernel "${s}long_scoreboard$x" 9.87; r 3 best_kernel "${s}wait$x" 0.12
      r 4 low_kernel "${s}selected$x" 1; r 4 low_kernel "${s}wait$x" 0.91
      r 4 low_kernel "${s}lg_throttle$x" 0.76; r 4 low_kernel "${s}long_scoreboard$x" 0.18
      r 4 low_kernel "${s}math_pipe_throttle$x" 0.47; r 4 low_kernel "${p}wait$y" 13.3; } >"$log" ;;
*) echo "==ERROR== Failed to profile kernel" >"$log"; exit 1 ;;
esac
NCU
chmod +x "$out.bin/ncu"
for mode in closed broken nokernel partial plain open; do
    rm -rf "$out.c$mode"
    WB_FAKE_NCU=$mode PATH="$PWD/$out.bin:$PATH" build/tests/grader_selftest --set solutions \
        --student /nonexistent.so --answers /dev/null --report-dir "$out.c$mode" \
        --only self.counters,self.counters_fail >"$out.c$mode.log" 2>&1
    got=$(build/tools/wb-summary --tsv "$out.c$mode/results.json" | cut -f1-3,5 | tr '\t\n' '|;')
    skipped="self.counters|SKIP|0|not graded: self.ncu_probe was skipped: *;self.counters_fail|SKIP|0|not graded: self.ncu_probe was skipped: *"
    case $mode in
    closed) want="self.ncu_probe|SKIP|0|*ERR_NVGPUCTRPERM*NVreg_RestrictProfilingToAdminUsers=0*;self.counters|SKIP|0|not graded: self.ncu_probe was skipped: *ERR_NVGPUCTRPERM*;self.counters_fail|SKIP|0|not graded: self.ncu_probe was skipped: *ERR_NVGPUCTRPERM*"
        kept="ERR_NVGPUCTRPERM" ;;
    broken) want="self.ncu_probe|SKIP|0|*no reading of m.x*Failed to profile*self.ncu_probe.ncu.log;self.counters|SKIP|0|*self.ncu_probe was skipped*Failed to profile*;self.counters_fail|SKIP|0|*self.ncu_probe was skipped*"
        kept="Failed to profile" ;;
    nokernel) want="self.ncu_probe|SKIP|0|*no reading of m.x*ncu's log: *self.ncu_probe.ncu.log;$skipped"
        kept="No kernels were profiled" ;;
    partial) want="self.ncu_probe|SKIP|0|*no reading of m.x*Failed to profile*ncu's log: not kept (it holds*;$skipped" kept= ;;
    plain) want="self.ncu_probe|SKIP|0|*no reading of m.x*ncu's log: not kept (it holds*;$skipped" kept= ;;
    open) want="self.ncu_probe|PASS|0|*;self.counters|PASS|2|*;self.counters_fail|FAIL|0|*expected 1, got 2*" kept= ;;
    esac
    # shellcheck disable=SC2053
    [[ $got == $want ]] || { echo "FAIL  grader rule: counters $mode: got $got"; status=1; }
    # ncu's log holds readings that may be a question's answer: nothing of it outlives the test
    # (records/ncu-t<idx>.log removed, no copy published, even where the probe names it through
    # wb_ncu_keep_log), except a log of ncu's messages alone (the counters closed, an error, no
    # kernel profiled), published for the message that names it.
    left=$(grep -rl 'probe_kernel' "$out.c$mode" 2>/dev/null | tr '\n' ' ')
    [ -z "$left" ] || { echo "FAIL  grader rule: counters $mode: ncu's readings left in $left"; status=1; }
    left=$(find "$out.c$mode" -name 'ncu-t*.log' | tr '\n' ' ')
    [ -z "$left" ] || { echo "FAIL  grader rule: counters $mode: ncu's log outlived its test: $left"; status=1; }
    if [ -n "$kept" ] && ! grep -qsF "$kept" "$out.c$mode/self.ncu_probe.ncu.log"; then
        echo "FAIL  grader rule: counters $mode: ncu's log (\"$kept\") not published as self.ncu_probe.ncu.log"; status=1
    elif [ -z "$kept" ] && [ -e "$out.c$mode/self.ncu_probe.ncu.log" ]; then
        echo "FAIL  grader rule: counters $mode: ncu's log with readings published as self.ncu_probe.ncu.log"; status=1
    fi
    if [ $mode = open ] && ! grep -qF "ncu's log: not kept (it holds" "$out.c$mode/results.json"; then
        echo "FAIL  grader rule: counters open: the probe's message does not say ncu's log is not kept"; status=1
    fi
done
# The largest of a family of ncu's readings, named and read (wb_ncu_judge_top, set up as lab 09's
# question.my_top_stall_best): self.ncu_top asks for best_kernel's largest stall reason and its
# cycles, self.ncu_top_low for low_kernel's, from the stand-in's "stalls" log. The name passes
# within 20 % of the largest (any spelling: ncu's metric, its section's label, case), the cycles
# within 20 % or 0.3 of ncu's reading of the reason named; "selected" is left out, even where it
# reads the most; only the first launch of a kernel counts. A failure names the nearest wrong
# answer (the plain kernel's largest reason or its reading: the kernels swapped; a percent), and
# shows no reading of ncu's.
top_case() { # self_top verdict words self_top_low verdict words
    printf 'self_top = %s\nself_top_low = %s\n' "$1" "$4" >"$out.top.answers"
    rm -rf "$out.top"
    WB_FAKE_NCU=stalls PATH="$PWD/$out.bin:$PATH" build/tests/grader_selftest --set solutions \
        --student /nonexistent.so --answers "$out.top.answers" --report-dir "$out.top" \
        --only self.ncu_top,self.ncu_top_low >"$out.top.log" 2>&1
    local tsv line v r left
    tsv=$(build/tools/wb-summary --tsv "$out.top/results.json")
    left=$(grep -rlE 'best_kernel|low_kernel' "$out.top" 2>/dev/null | tr '\n' ' ')
    [ -z "$left" ] || { echo "FAIL  grader rule: self.ncu_top: ncu's readings left in $left"; status=1; }
    for q in 0 3; do
        local id=self.ncu_top answer=$1 want=$2 words=$3
        [ $q = 3 ] && id=self.ncu_top_low answer=$4 want=$5 words=$6
        line=$(grep -P "^\Q$id\E\t" <<<"$tsv"); v=$(cut -f2 <<<"$line"); r=$(cut -f5 <<<"$line")
        # a pass's words are its measured line, on the console
        [ "$v" = PASS ] && r=$(grep -P "^  PASS  \Q$id\E " "$out.top.log")
        if [ "$v" != "$want" ] || ! grep -qiF -- "$words" <<<"$r"; then
            echo "FAIL  grader rule: $id = $answer: got $v \"$r\", expected $want with \"$words\""; status=1
        elif [ "$v" = FAIL ] && grep -qE '2\.43|2\.17|0\.61|1\.21|0\.33|10\.34|1\.52|35\.71|31\.9|8\.77|62\.58|9\.14|9\.87|0\.12|0\.91|0\.76|0\.18|0\.47|13\.3' <<<"$r"; then
            echo "FAIL  grader rule: $id = $answer: the failure shows a reading of ncu's: $r"; status=1
        fi
    done
}
top_case "wait 2.4" PASS "ncu here: wait 2.43 cycles, the largest of the 6 it read, selected left out" \
    "wait 0.9" PASS "ncu here: wait 0.91 cycles, the largest of the 5 it read, selected left out"
top_case "Stall LG Throttle 2.2 cycles" PASS "lg_throttle 2.17 cycles, within 20 % of the largest, wait 2.43, of the 6" \
    "selected 1" FAIL "selected is 1 cycle per issued instruction by definition"
top_case "selected 1" FAIL "selected is 1 cycle per issued instruction by definition" \
    "0" FAIL "names nothing"
top_case "long_scoreboard 0.6" FAIL "it is the plain kernel's largest (the two kernels swapped" \
    "LG_THROTTLE: 0.8" PASS "within 20 % of the largest"
top_case "0" FAIL "names nothing" \
    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio 1.0" PASS "ncu here: wait"
top_case "math_pipe_throttle 1.2" FAIL "not the largest, nor within 20 % of it (two that close would both be right)" \
    "tex_throttle 1" FAIL "ncu read nothing of that name"
top_case "wait 35.7" FAIL "the reason is right, but its value is not within 20 % (or 0.3 cycles)" \
    "wait" FAIL "the reason is right; write after it its value"
top_case "wait 35.7" FAIL "your value is a percent of active cycles" \
    "math_pipe_throttle 0.5" FAIL "not the largest"
top_case "wait 1.5" FAIL "your value is the plain kernel's reading of it (the two kernels swapped)" \
    "wait 13" FAIL "your value is a percent"
top_case "WAIT 2.0" PASS "" "Stall Wait 1.15 cycles" PASS ""
top_case "wait 2.9" PASS "" "wait 1.3" FAIL "the reason is right, but its value is not within 20 % (or 0.3 cycles)"
top_case "wait 3.5" FAIL "of ncu's reading of wait in the same launch just now (not shown" \
    "tex_throttle 1" FAIL "the names it read: selected, wait, lg_throttle"
# Text the code under test wrote (self.raw_text: a screen-clearing escape and a fake verdict line,
# an 8-bit CSI, a bidirectional override, bytes that are not UTF-8) or answered (answers.txt's
# value, echoed in the measured line) reaches no report raw: no control character on the
# console, results.json and measurements.csv valid UTF-8, five fields on each line of the TSV.
expect self.raw_text FAIL 0 "PASS  self.raw_text 9/9"
printf 'self_question = \033[2J\033[1A  PASS  question.self_question 2/2 \302\233 \377\n' >"$out.hostile"
build/tests/grader_selftest --set solutions --student /nonexistent.so --answers "$out.hostile" \
    --report-dir "$out.h" --only self.raw_text,question.self_question >"$out.h.log" 2>&1
for f in "$out.log" "$out.h.log" "$out.h/results.json" "$out.h/measurements.csv" "$out/results.json"; do
    if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$f" || ! iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 ||
        LC_ALL=C grep -q $'\xc2[\x80-\x9f]' "$f"; then
        echo "FAIL  grader rule: text of the code under test reached $f raw (a control character or bytes that are not UTF-8)"
        status=1
    fi
done
grep -q 'self_question = .*PASS  question.self_question 2' "$out.h/results.json" ||
    { echo "FAIL  grader rule: the hostile answer is not shown (cleaned) in results.json"; status=1; }
build/tools/wb-summary --tsv "$out.h/results.json" | awk -F'\t' 'NF != 5 { bad = 1 } END { exit bad }' ||
    { echo "FAIL  grader rule: a line of wb-summary --tsv has other than five fields"; status=1; }
# A figure recorded without a unit keeps its empty column in measurements.csv (lab, set, test,
# metric, value, unit, limit, comparison, GPU, seed): nothing shifts.
expect self.no_unit PASS 1 ""
grep -q '^99-selftest,solutions,self.no_unit,count_no_unit,16,,0,ref,' "$out/measurements.csv" ||
    { echo "FAIL  grader rule: a figure without a unit shifted the columns of measurements.csv: $(grep -F count_no_unit "$out/measurements.csv")"; status=1; }
# A prediction is read when answers.txt has it, and never fails a test by itself.
printf 'predict_x_speedup = 2.5x\n' >"$out.answers"
build/tests/grader_selftest --set solutions --student /nonexistent.so --answers "$out.answers" \
    --report-dir "$out.p" --only self.prediction >"$out.p.log" 2>&1
grep -qF 'prediction 2.5 from \"2.5x\"' "$out.p/results.json" ||
    { echo "FAIL  grader rule: the prediction in answers.txt was not read"; status=1; }
# --first-fail: after the first FAIL, the selected tests after it fail without running.
build/tests/grader_selftest --set solutions --student /nonexistent.so --answers /dev/null \
    --report-dir "$out.f" --only self.pass,self.fail,self.ungated,self.outdir --first-fail >"$out.f.log" 2>&1
ff=$(build/tools/wb-summary --tsv "$out.f/results.json" | cut -f1,2,5 | tr '\t\n' '|;')
case $ff in
"self.pass|PASS|;self.fail|FAIL|"*";self.ungated|FAIL|not run: self.fail failed first (--first-fail);self.outdir|FAIL|not run: self.fail failed first (--first-fail);") ;;
*) echo "FAIL  grader rule: --first-fail ran tests after the first failure: $ff"; status=1 ;;
esac
# --no-sandbox (for measuring the sandbox's cost): said in the header and in results.json, and the
# tests really run unconfined (a test may then leave its process group; the watchdog reports it).
build/tests/grader_selftest --set solutions --student /nonexistent.so --answers /dev/null \
    --report-dir "$out.n" --only self.pass,self.outdir,self.pgid_escape --no-sandbox >"$out.n.log" 2>&1
grep -q "sandbox: OFF (--no-sandbox" "$out.n.log" && grep -q "sandbox OFF (--no-sandbox)" "$out.n/results.json" ||
    { echo "FAIL  grader rule: --no-sandbox is not said in the header and results.json"; status=1; }
ns=$(build/tools/wb-summary --tsv "$out.n/results.json" | cut -f1,2 | tr '\t\n' '|;')
[ "$ns" = "self.pass|PASS;self.outdir|PASS;self.pgid_escape|FAIL;" ] &&
    grep -q "left its process group" "$out.n/results.json" ||
    { echo "FAIL  grader rule: under --no-sandbox the tests were not run unconfined: $ns"; status=1; }
if grep -q "other process(es) use a GPU" "$out.log"; then
    expect self.disagree RERUN 0 "figure off, but"
else
    expect self.disagree FAIL 0 "figure off, on a GPU that 0 other"
fi
# Every limit is checked in the form that fails a ratio that is not a number:
# "if (!(x >= LIMIT)) fail", never "if (x < LIMIT) fail".
if bad=$(grep -nE 'if \((r|q)\.ratio < |if \([a-z_]+ < [A-Z_]*LIMIT\)|ratio < p->limit' grader/*/*.c); then
    echo "FAIL  grader rule: a limit compared so that NaN passes: $bad"; status=1
fi
grep -q "points inconclusive" "$out.log" || {
    echo "FAIL  grader rule: the summary does not say which points were inconclusive"; status=1; }
# The run itself is recorded in results.json: GPU and, in a git checkout, the grader's version.
info_gpu=$(build/tools/wb-summary --info "$out/results.json" gpu)
info_version=$(build/tools/wb-summary --info "$out/results.json" grader_version)
if [ "$gpu" = SKIP ] && [ "$info_gpu" != "no GPU" ]; then
    echo "FAIL  grader rule: results.json records GPU \"$info_gpu\" on a machine without one"; status=1
fi
if git rev-parse --git-dir >/dev/null 2>&1 && { [ -z "$info_version" ] || [ "$info_version" = unknown ]; }; then
    echo "FAIL  grader rule: results.json records no grader version (\"$info_version\")"; status=1
fi
expect self.gpu "$gpu" "$([ $gpu = PASS ] && echo 1 || echo 0)" ""
# AddressSanitizer over host code (WB_ASAN_OF), on a library of host code alone
# (tests/asan_fixture.c, and its build for ASan beside it): the clean body passes; the write
# past a heap block and the one below a stack array, harmless without ASan, fail with the kind,
# the access and the fixture's line; over several bodies the first that errs is named; the
# report is published. Without the runtime (WB_LIBASAN naming none) or with the address space
# limited (ulimit -v), every such test is SKIP with the fix, unrun: never PASS.
asan_only=self.host_clean,self.host_heap,self.host_stack,self.asan_clean,self.asan_heap,self.asan_stack,self.asan_all
asan_run() { # report folder, then more arguments or nothing
    local dir=$1; shift
    build/tests/grader_selftest --set solutions --student build/tests/asan_fixture.so --answers /dev/null \
        --report-dir "$dir" --only "$asan_only" "$@" >"$dir.log" 2>&1
    tsv=$(build/tools/wb-summary --tsv "$dir/results.json") || { echo "FAIL  grader rule: asan run $dir wrote no results"; status=1; }
}
asan=PASS
if [ -f build/tests/asan_fixture.asan.so ]; then
    asan_run "$out.asan"
    expect self.host_heap PASS 1 ""
    expect self.host_stack PASS 1 ""
    expect self.asan_clean PASS 1 ""
    # ASan's runtime says "0 bytes to the right of" (gcc 12) or "0 bytes after" (gcc 13): either.
    expect self.asan_heap FAIL 0 "heap-buffer-overflow, a WRITE of size 4 at asan_fixture.c:25 in fixture_heap_past_end; 0 bytes "
    expect self.asan_heap FAIL 0 " 16-byte region, allocated at asan_fixture.c:22"
    expect self.asan_stack FAIL 0 "stack-buffer-underflow, a WRITE of size 8 at asan_fixture.c:39 in fixture_stack_below; stack variable 'ms'"
    expect self.asan_all FAIL 0 "AddressSanitizer stopped self.host_heap: heap-buffer-overflow"
    grep -q "^== self.host_heap (exit status 87)" "$out.asan/self.asan_all.log" &&
        grep -q "ERROR: AddressSanitizer: heap-buffer-overflow" "$out.asan/self.asan_all.log" ||
        { echo "FAIL  grader rule: the ASan report was not published in $out.asan/self.asan_all.log"; status=1; }
else
    asan=SKIP
    echo "SKIP  grader rule: AddressSanitizer runs: no libasan here (build/tests/asan_fixture.asan.so not built)"
fi
WB_LIBASAN=/nonexistent/libasan.so asan_run "$out.noasan"
expect self.asan_clean SKIP 0 "libasan (AddressSanitizer's runtime) not found"
expect self.asan_heap SKIP 0 "sudo apt-get install libasan8"
(ulimit -v $((16 << 20)) || exit 1
    asan_run "$out.asanvm"
    expect self.asan_clean SKIP 0 "ulimit -v"
    expect self.asan_heap SKIP 0 "address space is limited"
    exit $status) || status=1
sleep 3
if [ -e "$out/escaped-child" ] || [ -e "$out/escaped-chain" ]; then
    echo "FAIL  grader rule: a process forked by the code under test outlived its test"; status=1
fi
if grep -q "PASS  fake" "$out.log"; then
    echo "FAIL  grader rule: output of the code under test reached the grader's console"; status=1
fi
[ $status = 0 ] && echo "PASS  grader rules: pass, fail, self-skip only at 0 points, AddressSanitizer over host code ($asan: heap and stack writes named with their line; SKIP without libasan or with ulimit -v), SKIP with a 0-point test that skipped (never PASS), early exit, abort, gating, captured output, forked children killed (a chain 100 deep too), a body run again under a tool (and by hand with --run-body, ending 0), ncu's CSV read (one metric, and one launch's family of metrics), the largest of a family named and read (any spelling, selected left out, the nearest wrong answer named, no reading shown), ncu's log published only where it holds no reading (every layout of its results kept back, whoever names it) and never left in records/, points on ncu's counters SKIP unrun where the 0-point probe they are skipped with finds them closed (and run when open, the probe run with them under --only), a test that left its process group killed past its limit, RERUN only for a noisy near miss, --first-fail, NaN fails, question rows, predictions, the run recorded in results.json, a figure off the grader's fails on an idle GPU, text of the code under test (record and answers) cleaned in every report"
exit $status
