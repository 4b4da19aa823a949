#!/usr/bin/env bash
# check-grades.sh - grade both sets of every lab and check the verdicts:
# the solutions lose no point that was graded, the stubs earn none they leave
# undone. Tests that need a GPU are SKIP without one, and are counted as such.
set -u
status=0
mkdir -p build/report
for lab in "$@"; do
    for set in ${SETS:-solutions labs}; do
        g=build/$set/$lab/grade
        ans=$set/$lab/answers.txt
        # the reference's profiler readings taken on this GPU (scripts/reference-answers.sh)
        [ "$set" = solutions ] && ans=$(scripts/reference-answers.sh "$lab")
        "$g" --set "$set" --answers "$ans" >build/report/$set-$lab.log 2>&1
        tsv=$(build/tools/wb-summary --tsv build/report/$set/$lab/results.json) || {
            echo "FAIL  $set/$lab: the grader wrote no results (log: build/report/$set-$lab.log)"
            status=1; continue; }
        gpu=$(build/tools/wb-summary --info build/report/$set/$lab/results.json gpu)
        allowed=""
        [ "$set" = labs ] && [ -f grader/$lab/stub-passes ] && allowed=$(grep -v '^#' grader/$lab/stub-passes)
        pass=0 fail=0 skip=0 bad=0
        while IFS=$'\t' read -r id verdict pts max reason; do
            case $verdict in PASS) pass=$((pass+1));; FAIL|RERUN) fail=$((fail+1));; SKIP) skip=$((skip+1));; esac
            if [ "$set" = solutions ] && [ "$verdict" = RERUN ]; then
                echo "FAIL  solutions/$lab $id inconclusive (a busy GPU?): $reason"; bad=1; continue
            fi
            if [ "$set" = solutions ] && [ "$verdict" = FAIL ]; then
                # Questions about "your GPU" are answered for the GPUs the workbook is tested on.
                if [[ $id == question.my_* ]] && [[ $gpu != *H100* && $gpu != *H200* ]]; then
                    echo "NOTE  solutions/$lab $id: answered for H100/H200, graded on $gpu"; continue
                fi
                echo "FAIL  solutions/$lab $id lost $max points: $reason"; bad=1
            fi
            # In a handout (no solutions/) the labs are the student's own work: report only.
            if [ "$set" = labs ] && [[ ${SETS:-solutions} == *solutions* ]] && [ "$verdict" = PASS ] && ! grep -qx "$id" <<<"$allowed"; then
                echo "FAIL  labs/$lab $id: the stub passed a test it leaves undone"; bad=1
            fi
            if [ "$set" = solutions ] && [ "$verdict" = SKIP ] && [ "$gpu" != "no GPU" ]; then
                echo "NOTE  solutions/$lab $id skipped on $gpu: $reason"
            fi
        done <<<"$tsv"
        note=""
        [ $skip -gt 0 ] && note=" ($skip skipped: ${gpu:-no GPU}; skipped is never counted as passed)"
        if [ $bad = 0 ] && [[ ${SETS:-solutions} != *solutions* ]]; then
            echo "PASS  $set/$lab graded: $pass passed, $fail failed$note"
        elif [ $bad = 0 ]; then
            echo "PASS  $set/$lab: $pass passed, $fail failed as expected$note"
        else
            status=1
        fi
    done
done
exit $status
