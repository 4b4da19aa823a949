#!/usr/bin/env bash
# check-limits.sh - each lab README's "What is graded" table agrees with its grader's own table:
# every test and its points (questions may be one "questions (N) | P" row), and every number of
# every graded limit (`grade --limits`) in that test's row.
#   scripts/check-limits.sh LAB...      (needs build/solutions/LAB/grade, or build/labs/LAB/grade)
set -u
status=0
for lab in "$@"; do
    g=build/solutions/$lab/grade
    [ -x "$g" ] || g=build/labs/$lab/grade
    readme=labs/$lab/README.md
    list=$("$g" --list 2>&1) || { echo "FAIL  $lab: $g --list failed: $list"; status=1; continue; }
    limits=$("$g" --limits --tsv 2>&1) || { echo "FAIL  $lab: $g --limits failed: $limits"; status=1; continue; }
    table=$(awk '/^## What is graded/ { f = 1; next } f && /^## / { exit } f && /^\|/' "$readme")
    bad=0 nq=0 pq=0
    while read -r id kind pts _; do
        [ "$id" = total ] && continue
        if [[ $id == question.* ]] && ! grep -qF "| \`$id\`" <<<"$table"; then
            nq=$((nq + 1)); pq=$((pq + pts)); continue
        fi
        row=$(grep -F "| \`$id\` |" <<<"$table" | head -1)
        if [ -z "$row" ]; then
            echo "FAIL  $lab: $id ($pts points) has no row in $readme, \"What is graded\""; bad=1; continue
        fi
        rpts=$(awk -F'|' '{ gsub(/ /, "", $3); print $3 }' <<<"$row")
        if [ "$rpts" != "$pts" ]; then
            echo "FAIL  $lab: $id is worth $pts points in the grader, $rpts in $readme"; bad=1
        fi
    done <<<"$list"
    if [ "$nq" -gt 0 ]; then
        qrow=$(grep -E '^\| *questions \(' <<<"$table" | head -1)
        want="questions ($nq) | $pq"
        if ! tr -s ' ' <<<"$qrow" | grep -qF "$want"; then
            echo "FAIL  $lab: the grader has $nq questions worth $pq points; $readme says: ${qrow:-no questions row}"; bad=1
        fi
    fi
    # Rows the grader does not have.
    for id in $(grep -oE '^\| `[a-z0-9_]+\.[a-z0-9_]+`' <<<"$table" | tr -d '|` '); do
        grep -qE "^$id " <<<"$list" || { echo "FAIL  $lab: $readme grades $id, which the grader does not have"; bad=1; }
    done
    # Every number of every graded limit stands in its row.
    while IFS=$'\t' read -r id _ text _; do
        [ -z "$id" ] && continue
        row=$(grep -F "| \`$id\` |" <<<"$table" | head -1)
        nums=" $(grep -oE '[0-9]+(\.[0-9]+)?' <<<"$row" | tr '\n' ' ') "
        for num in $(grep -oE '[0-9]+(\.[0-9]+)?' <<<"$text" | sort -u); do
            [[ $nums == *" $num "* ]] ||
                { echo "FAIL  $lab: $id's limit \"$text\": $num is not in its row of $readme"; bad=1; }
        done
    done <<<"$limits"
    [ $bad = 0 ] && echo "PASS  $lab: README's grading table matches the grader (tests, points, limits)"
    [ $bad = 0 ] || status=1
done
exit $status
