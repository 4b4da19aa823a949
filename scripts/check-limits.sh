#!/usr/bin/env bash
# check-limits.sh - each lab README's "What is graded" table agrees with its grader's own table:
# every test and its points (questions may be one "questions (N) | P" row), and every number of
# every graded limit (`grade --limits`) in that test's row.
#   scripts/check-limits.sh LAB...      (needs build/solutions/LAB/grade, or build/labs/LAB/grade)
#   scripts/check-limits.sh --readme FILE LAB    checks FILE in place of labs/LAB/README.md
set -u
status=0
readme_given=
if [ "${1-}" = --readme ]; then readme_given=$2; shift 2; fi
for lab in "$@"; do
    g=build/solutions/$lab/grade
    [ -x "$g" ] || g=build/labs/$lab/grade
    readme=${readme_given:-labs/$lab/README.md}
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
    # Every number of every graded limit stands in its row's "limit" cell (the column headed
    # "limit"), not merely somewhere in the row.
    col=$(head -1 <<<"$table" | awk -F'|' '{ for (i = 2; i <= NF; i++) { c = $i; gsub(/^ +| +$/, "", c); if (c == "limit") { print i; exit } } }')
    [ -z "$col" ] && { echo "FAIL  $lab: the table of $readme, \"What is graded\", has no column headed \"limit\""; bad=1; col=0; }
    while IFS=$'\t' read -r id _ text _; do
        [ -z "$id" ] && continue
        row=$(grep -F "| \`$id\` |" <<<"$table" | head -1)
        cell=$(awk -F'|' -v c="$col" '{ print $c }' <<<"$row")
        nums=" $(grep -oE '[0-9]+(\.[0-9]+)?' <<<"$cell" | tr '\n' ' ') "
        for num in $(grep -oE '[0-9]+(\.[0-9]+)?' <<<"$text" | sort -u); do
            [[ $nums == *" $num "* ]] ||
                { echo "FAIL  $lab: $id's limit \"$text\": $num is not in the limit column of its row of $readme"; bad=1; }
        done
    done <<<"$limits"
    [ $bad = 0 ] && echo "PASS  $lab: README's grading table matches the grader (tests, points, limits)"
    [ $bad = 0 ] || status=1
done
exit $status
