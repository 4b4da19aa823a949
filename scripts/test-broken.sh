#!/usr/bin/env bash
# test-broken.sh - grade deliberately broken labs and check that each loses
# exactly the tests it should, with the reason it should, and nothing else.
#
# Each tests/broken/LAB/NAME.cu states its expectations in lines like
#   expect: correct.pick_best FAIL signal 11
# (test id, verdict, words the reason must contain; the verdict ANY accepts
# either, for a test whose verdict on this variant depends on the GPU's
# timing). Every other test must get the reference solution's verdict.
# Without a GPU, tests that need one are SKIP for both, and are reported as
# skipped.
#   scripts/test-broken.sh [LAB...]      (BROKEN_ONLY="name ..." runs only those variants)
set -u
export CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-0.5}
status=0
declare -A ref_done
labs=${*:-$(unset LABS MAKEFLAGS MFLAGS; make -s --no-print-directory list-labs)}
for src in $(for l in $labs; do ls tests/broken/"$l"/*.cu 2>/dev/null; done); do
    lab=$(basename "$(dirname "$src")"); name=$(basename "$src" .cu)
    if [ -n "${BROKEN_ONLY:-}" ] && [[ " $BROKEN_ONLY " != *" $name "* ]]; then continue; fi
    so=build/tests/broken/$lab/$name.so
    out=build/tests/broken-report/$lab
    mkdir -p "$out"
    if [ -z "${ref_done[$lab]+x}" ]; then
        build/solutions/$lab/grade --set solutions --report-dir "$out/reference" >"$out.reference.log" 2>&1 ||
            true
        ref_done[$lab]=1
    fi
    ref=$(build/tools/wb-summary --tsv "$out/reference/results.json") || {
        echo "FAIL  broken/$lab: the reference run wrote no results"; status=1; continue; }
    log_opt=()
    if [[ $name == compile_* ]]; then # must not build; graded with the compiler's log
        # Its standard input a pipe that stays open (compile_hang reads it), and a short time limit.
        exec {hold}< <(sleep 600)
        holder=$!
        STUDENT_BUILD_TIMEOUT=10 ${MAKE:-make} --no-print-directory "$so" <&"$hold" >"$out/$name.build.log" 2>&1
        built=$?
        kill "$holder" 2>/dev/null
        exec {hold}<&-
        [ $built = 0 ] && { echo "FAIL  broken/$lab/$name: it compiled"; status=1; continue; }
        log_opt=(--build-log "$out/$name.build.log")
    fi
    rm -rf "${out:?}/$name" # a fresh report folder: nothing of an earlier run is counted, or taken for results
    build/solutions/$lab/grade --set solutions --student "$so" "${log_opt[@]}" \
        --answers solutions/$lab/answers.txt --report-dir "$out/$name" >"$out/$name.log" 2>&1
    got=$(build/tools/wb-summary --tsv "$out/$name/results.json") || {
        echo "FAIL  broken/$lab/$name: the grader did not finish (log: $out/$name.log)"; status=1; continue; }
    bad=0 skipped=0 checked=0
    while IFS=$'\t' read -r id rverdict _; do
        exp=$(sed -n "s/.*expect: $id \([A-Z]*\) *\(.*\)/\1\t\2/p" "$src" | sed 's/ *\*\/$//' | head -1)
        want=${exp%%$'\t'*}; words=${exp#*$'\t'}
        if [ -z "$exp" ] && [[ $id != question.* ]]; then # "expect-code: VERDICT words" covers code tests
            exp=$(sed -n "s/.*expect-code: \([A-Z]*\) *\(.*\)/\1\t\2/p" "$src" | sed 's/ *\*\/$//' | head -1)
            want=${exp%%$'\t'*}; words=${exp#*$'\t'}
        fi
        [ -z "$exp" ] && { want=$rverdict; words=""; }
        line=$(grep -P "^\Q$id\E\t" <<<"$got")
        gverdict=$(cut -f2 <<<"$line"); reason=$(cut -f5 <<<"$line")
        if [ "$rverdict" = SKIP ]; then
            [ -n "$exp" ] && skipped=$((skipped+1))
            want=SKIP; words=""
        fi
        [ -n "$exp" ] && [ "$rverdict" != SKIP ] && checked=$((checked+1))
        if [ "$want" = ANY ]; then # a verdict the GPU's timing decides (the variant says why)
            :
        elif [ "$gverdict" != "$want" ]; then
            echo "FAIL  broken/$lab/$name: $id is $gverdict, expected $want${reason:+ ($reason)}"; bad=1
        elif [ -n "$words" ] && ! grep -qiF -- "$words" <<<"$reason"; then
            echo "FAIL  broken/$lab/$name: $id failed, but its reason lacks \"$words\": $reason"; bad=1
        fi
    done <<<"$ref"
    # Directives beyond verdicts: text the grader's console must not show, files that must not appear.
    # (a line of the console that begins with the words, leading blanks aside)
    while read -r words; do
        [ -n "$words" ] && awk -v w="$words" '{ sub(/^[ \t]+/, "") } index($0, w) == 1 { f = 1 } END { exit !f }' \
            "$out/$name.log" && { echo "FAIL  broken/$lab/$name: the grader's console has a line \"$words\""; bad=1; }
    done < <(sed -n 's/.*expect-log-lacks: *\(.*\)/\1/p' "$src" | sed 's/ *\*\/$//')
    # What the run left in its report folder, records and published copies together, in MiB.
    under=$(sed -n 's/.*expect-report-under: *\([0-9]*\).*/\1/p' "$src")
    if [ -n "$under" ]; then
        used=$(du -sm "$out/$name" | cut -f1)
        [ "$used" -lt "$under" ] || { echo "FAIL  broken/$lab/$name: its report folder holds $used MiB (at most $under expected)"; bad=1; }
    fi
    nofile=$(sed -n 's/.*expect-no-file: *\([^ ]*\).*/\1/p' "$src")
    if [ -n "$nofile" ]; then
        sleep 3
        [ -e "$nofile" ] && { echo "FAIL  broken/$lab/$name: a process it left behind wrote $nofile"; bad=1; rm -f "$nofile"; }
    fi
    if [ $bad = 1 ]; then
        status=1
    elif [ $checked = 0 ] && [ $skipped -gt 0 ]; then
        echo "SKIP  broken/$lab/$name: its broken part needs a GPU (other tests unchanged)"
    else
        echo "PASS  broken/$lab/$name: loses exactly what it should"
    fi
done
exit $status
