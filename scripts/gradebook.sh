#!/usr/bin/env bash
# gradebook.sh - gather graded submissions into one CSV: student, points per lab, total, GPU, version, seed
#   scripts/gradebook.sh OUTDIR
# OUTDIR is grade-class.sh's: submissions.list (one "folder<TAB>submission" record per student,
# NUL-terminated, in grading order) and students/<folder>/ (meta.txt and report/ from
# grade-submission.sh). One row per submission listed, graded or not. Fields follow RFC 4180:
# text fields quoted, quotes inside doubled, so a name with commas, quotes or newlines is one field.
set -u
export LC_ALL=C
out=${1:?usage: gradebook.sh OUTDIR}
[ -f "$out/submissions.list" ] || { echo "no $out/submissions.list: grade the class with grade-class.sh"; exit 2; }
labs=$(unset LABS MAKEFLAGS MFLAGS; make -s --no-print-directory list-labs)
csv=$out/gradebook.csv
# A text field: no terminal escape, valid UTF-8 (wb-summary --clean; line breaks kept), quoted.
clean() { local v; v=$(printf '%s' "$1" | build/tools/wb-summary --clean; printf x); printf '%s' "${v%x}"; }
q() { local v; v=$(clean "$1"; printf x); v=${v%x}; printf '"%s"' "${v//\"/\"\"}"; }
shown() { if [[ $1 == *[[:cntrl:]]* ]]; then printf '%q' "$1"; else printf '%s' "$1"; fi; }
tmp=$(mktemp "$out/.gradebook.XXXXXX")
view=$(mktemp "$out/.view.XXXXXX")
{
    printf 'student'; for l in $labs; do printf ',%s' "$l"; done
    printf ',total,max,gpu,grader_version,seed,status\n'
    { printf 'student'; for l in $labs; do printf '\t%s' "${l%%-*}"; done; printf '\ttotal\tmax\tstatus\n'; } >&3
    while IFS= read -r -d '' rec; do
        folder=${rec%%$'\t'*} sub=${rec#*$'\t'}
        d=$out/students/$folder meta=$out/students/$folder/meta.txt
        get() { sed -n "s/^$1=//p" "$meta" | head -n 1; }
        row="" vrow="" total=0 max=0
        if [ -f "$meta" ]; then
            printf -v name '%b' "$(get student)" # written with \ and newlines escaped
            gpu=$(get gpu) version=$(get grader_version) seed=$(get seed)
            missing="" rerun="" skipped=""
            for l in $labs; do
                tsv=$(build/tools/wb-summary --tsv "$d/report/$l/results.json" 2>/dev/null)
                if [ -z "$tsv" ]; then row="$row," vrow="$vrow"$'\t-'; missing=1; continue; fi
                p=$(awk -F'\t' '{s += $3} END {print s + 0}' <<<"$tsv")
                m=$(awk -F'\t' '{s += $4} END {print s + 0}' <<<"$tsv")
                # The verdict column itself: no text of a test's (its reason) can set a status.
                verdicts=$(cut -f2 <<<"$tsv")
                grep -qx SKIP <<<"$verdicts" && skipped=1
                grep -qx RERUN <<<"$verdicts" && rerun=1
                row="$row,$p" vrow="$vrow"$'\t'"$p"; total=$((total + p)); max=$((max + m))
            done
            # The gravest first: a submission not read (or not whole), a lab without results,
            # timings to grade again, tests not graded here; no later lab's hides an earlier's.
            status=$(get problem)
            [ -z "$status" ] && [ -n "$missing" ] && status="missing results"
            [ -z "$status" ] && [ -n "$rerun" ] && status="inconclusive timings: grade again on an idle GPU"
            [ -z "$status" ] && [ -n "$skipped" ] && status="some tests skipped"
            [ -z "$status" ] && status=graded
        else
            # Never graded (a Slurm task that did not run or died): the name from the file's.
            name=${sub%/}; name=${name##*/}
            case $name in *.tar.gz) name=${name%.tar.gz} ;; *.tgz) name=${name%.tgz} ;; *.tar) name=${name%.tar} ;; esac
            status="not graded: no $folder/meta.txt" gpu="" version="" seed=""
            for l in $labs; do row="$row," vrow="$vrow"$'\t-'; done
            total="" max=""
        fi
        printf '%s%s,%s,%s,%s,%s,%s,%s\n' "$(q "$name")" "$row" "$total" "$max" "$(q "$gpu")" \
            "$(q "$version")" "$seed" "$(q "$status")"
        printf '%s%s\t%s\t%s\t%s\n' "$(shown "$name")" "$vrow" "${total:--}" "${max:--}" "$(clean "$status")" >&3
    done <"$out/submissions.list"
} >"$tmp" 3>"$view"
mv -f -- "$tmp" "$csv"
echo "gradebook: $csv ($(($(wc -l <"$view") - 1)) students)"
column -s $'\t' -t <"$view" 2>/dev/null || cat "$view"
rm -f -- "$view"
