#!/usr/bin/env bash
# gradebook.sh - gather graded submissions into one CSV: student, points per lab, total, GPU, version
#   scripts/gradebook.sh OUTDIR      (OUTDIR/<student>/meta.txt and report/ from grade-submission.sh)
set -u
out=${1:?usage: gradebook.sh OUTDIR}
labs=$(unset LABS MAKEFLAGS MFLAGS; make -s --no-print-directory list-labs)
csv=$out/gradebook.csv
{
    printf 'student'; for l in $labs; do printf ',%s' "$l"; done
    printf ',total,max,gpu,grader_version,status\n'
    for meta in "$out"/*/meta.txt; do
        [ -f "$meta" ] || continue
        d=$(dirname "$meta")
        get() { sed -n "s/^$1=//p" "$meta"; }
        total=0 max=0 row="" status=graded
        for l in $labs; do
            tsv=$(build/tools/wb-summary --tsv "$d/report/$l/results.json" 2>/dev/null)
            if [ -z "$tsv" ]; then row="$row,"; status="missing results"; continue; fi
            p=$(awk -F'\t' '{s += $3} END {print s + 0}' <<<"$tsv")
            m=$(awk -F'\t' '{s += $4} END {print s + 0}' <<<"$tsv")
            grep -q $'\tSKIP\t' <<<"$tsv" && status="some tests skipped"
            grep -q $'\tRERUN\t' <<<"$tsv" && status="inconclusive timings: grade again on an idle GPU"
            row="$row,$p"; total=$((total + p)); max=$((max + m))
        done
        printf '"%s"%s,%d,%d,"%s","%s",%s\n' "$(get student)" "$row" "$total" "$max" "$(get gpu)" \
            "$(get grader_version)" "$status"
    done
} >"$csv"
echo "gradebook: $csv ($(($(wc -l <"$csv") - 1)) students)"
column -s, -t <"$csv" 2>/dev/null || cat "$csv"
