#!/usr/bin/env bash
# grade-submission.sh - grade one student's submission with the pristine grader
#
#   scripts/grade-submission.sh SUBMISSION [OUTDIR]
#
# SUBMISSION is a directory or a tarball (.tar, .tar.gz, .tgz) holding the
# student's labs/NN-topic/topic.cu and labs/NN-topic/answers.txt, at its top
# or one folder down. Only those files are taken, and only as plain files;
# everything else is ignored and listed. The grading runs in a fresh copy of
# this workbook (without solutions/), so nothing the student sent can change
# the grader. OUTDIR (default build/submissions/NAME) receives grade.log,
# ignored.txt, meta.txt and report/ (results.json, TAP, CSV per lab).
set -u
sub=${1:?usage: grade-submission.sh SUBMISSION [OUTDIR]}
name=$(basename "$sub"); name=${name%.tar.gz}; name=${name%.tgz}; name=${name%.tar}
out=${2:-build/submissions/$name}
top=$(pwd)
rm -rf "$out"; mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$out/tree
mkdir -p "$work" "$out/unpacked"

# The pristine workbook: tracked files (or, outside git, all but build/ and
# solutions/), never the instructor's solutions or the broken corpus.
{ git ls-files 2>/dev/null || find . -path ./build -prune -o -type f -print | sed 's|^\./||'; } |
    grep -v -e '^solutions/' -e '^tests/broken/' -e '^build/' | tar -cf - -T - | tar -xf - -C "$work"

# The files a submission may replace: labs/<lab>/<topic>.cu and labs/<lab>/answers.txt.
allowed=()
for lab in $(unset LABS MAKEFLAGS MFLAGS; make -s --no-print-directory list-labs); do # live labs only
    d=labs/$lab/
    for f in "$d"*.cu; do allowed+=("labs/$lab/$(basename "$f")"); done
    allowed+=("labs/$lab/answers.txt")
done
is_allowed() { local a; for a in "${allowed[@]}"; do [ "$a" = "$1" ] && return 0; done; return 1; }

# Lists the submission's entries as "type<TAB>path": f for a plain file.
list_entries() {
    if [ -d "$sub" ]; then
        (cd "$sub" && find . -mindepth 1 \( -type f -printf 'f\t%P\n' \) -o \( ! -type d -printf 'x\t%P\n' \))
    else
        # Same order in both listings: the type from the long one, the name from the short one.
        paste <(tar -tvf "$sub" | cut -c1 | sed 's/-/f/; s/^[^fd]$/x/') <(tar -tf "$sub")
    fi
}

entries=$(list_entries) || { echo "cannot read $sub" | tee "$out/grade.log"; exit 2; }
# The prefix before labs/: "" or one folder.
prefix=$(awk -F'\t' '$1 == "f" && $2 ~ /(^|\/)labs\/[0-9][0-9]-[^/]+\/[^/]+$/ {
    p = $2; sub(/labs\/[0-9][0-9]-[^/]+\/[^/]+$/, "", p); print p; exit }' <<<"$entries")
taken=0
: >"$out/ignored.txt"
while IFS=$'\t' read -r type path; do
    [ -z "$path" ] || [ "$type" = d ] && continue
    rel=${path#./}; rel=${rel#"$prefix"}
    if [ "$type" = f ] && [ "${path#./}" = "$prefix$rel" ] && is_allowed "$rel"; then
        if [ -d "$sub" ]; then
            size=$(stat -c %s "$sub/$path")
        else
            tar -xf "$sub" -C "$out/unpacked" -- "$path" 2>/dev/null
            size=$(stat -c %s "$out/unpacked/$path" 2>/dev/null || echo 0)
        fi
        if [ "$size" -gt 1048576 ]; then
            echo "$path (larger than 1 MiB)" >>"$out/ignored.txt"; continue
        fi
        if [ -d "$sub" ]; then cp -- "$sub/$path" "$work/$rel"; else cp -- "$out/unpacked/$path" "$work/$rel"; fi
        taken=$((taken + 1))
    else
        echo "$path${type/f/}" | sed 's/x$/ (not a plain file)/' >>"$out/ignored.txt"
    fi
done <<<"$entries"

version=$(git describe --always --dirty 2>/dev/null || echo unknown)
{
    echo "submission: $sub"
    echo "files taken: $taken"
    if [ -s "$out/ignored.txt" ]; then
        echo "ignored (only labs/*/<topic>.cu and labs/*/answers.txt are graded):"
        sed 's/^/  /' "$out/ignored.txt"
    fi
} | tee "$out/grade.log"
# The copy is no git checkout: the grader's version is this checkout's.
(cd "$work" && unset LABS MAKEFLAGS MFLAGS && NO_COLOR=1 make --no-print-directory grade SET=labs \
    GRADER_VERSION="$version" ${LAB:+LAB=$LAB}) >>"$out/grade.log" 2>&1
rc=$?
tail -n +1 "$out/grade.log" | sed -n '/^lab  /,$p'
rm -rf "$out/report"; cp -r "$work/build/report/labs" "$out/report" 2>/dev/null
# The GPU, from what the graders recorded (results.json), never from console text.
gpu=$(build/tools/wb-summary --info "$out/report/results.json" gpu 2>/dev/null)
graded_by=$(build/tools/wb-summary --info "$out/report/results.json" grader_version 2>/dev/null)
printf 'student=%s\ngpu=%s\ngrader_version=%s\nexit=%s\nfiles_taken=%s\n' \
    "$name" "${gpu:-unknown}" "${graded_by:-$version}" "$rc" "$taken" >"$out/meta.txt"
rm -rf "$out/unpacked" "$work"
exit $rc
