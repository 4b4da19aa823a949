#!/usr/bin/env bash
# grade-submission.sh - grade one student's submission with the pristine grader
#
#   scripts/grade-submission.sh SUBMISSION [OUTDIR]
#   scripts/grade-submission.sh --folder SUBMISSION    (prints the name of its default folder)
#
# SUBMISSION is a directory or a tarball (.tar, .tar.gz, .tgz) holding the
# student's labs/NN-topic/topic.cu and labs/NN-topic/answers.txt, at its top
# or one folder down. Only those files are taken, and only as plain files of
# at most 1 MiB, each named once; everything else is ignored and listed. A
# tarball is never unpacked to disk: each file taken is piped out of it and
# cut at the limit. The grading runs in a fresh copy of this workbook (without
# solutions/), so nothing the student sent can change the grader. Unless
# SEED= is given, the grading draws a fresh seed, which the student cannot
# have seen. OUTDIR (default build/submissions/FOLDER, FOLDER made from the
# student's name, safe for any shell or make) receives grade.log, ignored.txt,
# meta.txt (student, seed, GPU, grader version, exit status), report/
# (results.json, TAP, CSV per lab) and feedback/: grade.log, ignored.txt and
# report/ with the seed withheld, what to hand back to the student.
set -u
export LC_ALL=C # tar's listings, patterns and sort orders byte by byte
limit=$((1 << 20))
unpack_s=300 # each pass of tar over a tarball: a decompression bomb costs this much, not hours
# A submission holds a few files: one with more entries, or more bytes of names listed, is not
# read at all (a tarball of a million empty files is 10 MB, and each entry costs time here and a
# line in the logs).
max_entries=10000 max_listing=$((4 << 20))

# The student's name: the submission's last path component, less .tar.gz, .tgz or .tar for a file.
student_name() {
    local p=$1
    while [ "$p" != "${p%/}" ] && [ "${p%/}" != "" ]; do p=${p%/}; done
    name=${p##*/}
    if [ ! -d "$p" ]; then
        case $name in *.tar.gz) name=${name%.tar.gz} ;; *.tgz) name=${name%.tgz} ;; *.tar) name=${name%.tar} ;; esac
    fi
}
# A folder name safe in any shell, make rule or CSV: the name itself when it is plain (letters,
# digits, . _ -, not first . or -), else a cleaned form, ~ and a hash of the name. No plain name
# holds a ~, so two different names never share a folder.
folder_of() {
    if [[ $1 =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ ]]; then
        printf '%s\n' "$1"
    else
        local s=${1//[^A-Za-z0-9._-]/_}
        s=${s:0:48}
        [[ $s =~ ^[A-Za-z0-9] ]] || s=_$s
        printf '%s~%s\n' "$s" "$(printf '%s' "$1" | sha256sum | cut -c1-16)"
    fi
}
# A name as the console and logs show it: control characters (newlines, escapes) quoted.
shown() { if [[ $1 == *[[:cntrl:]]* ]]; then printf '%q' "$1"; else printf '%s' "$1"; fi; }

if [ "${1-}" = --folder ]; then
    student_name "${2:?usage: grade-submission.sh --folder SUBMISSION}"
    folder_of "$name"
    exit 0
fi
sub=${1:?usage: grade-submission.sh SUBMISSION [OUTDIR]}
case $sub in /*) ;; *) sub=$PWD/$sub ;; esac # never read as an option, wherever it is used
[ -e "$sub" ] || { echo "no submission $(shown "$sub")"; exit 2; }
student_name "$sub"
out=${2:-build/submissions/$(folder_of "$name")}

# The seed: SEED= when given, else a fresh one (ten digits), drawn here and shown to no one but
# the instructor (grade.log, meta.txt, the gradebook; feedback/ withholds it).
if [ -n "${SEED-}" ]; then
    [[ $SEED =~ ^[0-9]{1,19}$ ]] || { echo "SEED=$SEED: expected a whole number"; exit 2; }
    seed=$SEED seed_from="given: SEED=$SEED"
else
    seed=$((1000000000 + $(od -An -N4 -tu4 /dev/urandom | tr -d ' ')))
    seed_from="drawn for this grading"
fi

rm -rf -- "$out"; mkdir -p -- "$out"
out=$(cd -- "$out" && pwd)
# The tree graded is a private temporary folder outside this checkout and outside $out, so that
# no path relative to where the student's code runs leads to the instructor's checkout, to this
# student's report or to another student's; the reports are copied out once grading is over.
work=$(mktemp -d "${TMPDIR:-/tmp}/wb-grade.XXXXXX") || { echo "cannot make a private folder in ${TMPDIR:-/tmp}"; exit 2; }
trap 'rm -rf -- "$work"' EXIT
mkdir -p "$out/unpacked/scratch"

# The pristine workbook: tracked files (or, outside git, all but build/ and
# solutions/), never the instructor's solutions or the broken corpus.
{ git ls-files 2>/dev/null || find . -path ./build -prune -o -type f -print | sed 's|^\./||'; } |
    grep -v -e '^solutions/' -e '^tests/broken/' -e '^build/' | tar -cf - -T - | tar -xf - -C "$work"

# The files a submission may replace: labs/<lab>/<topic>.cu and labs/<lab>/answers.txt.
allowed=()
for lab in $(unset LABS MAKEFLAGS MFLAGS; make -s --no-print-directory list-labs); do # live labs only
    for f in labs/$lab/*.cu; do allowed+=("labs/$lab/${f##*/}"); done
    allowed+=("labs/$lab/answers.txt")
done
is_allowed() { local a; for a in "${allowed[@]}"; do [ "$a" = "$1" ] && return 0; done; return 1; }

# The submission's entries, each "type<TAB>size<TAB>path<NUL>": type f for a plain file. A
# tarball's paths are as tar lists them (one line each: control characters and backslashes
# escaped), which tar reads back as the same names. Returns 1 when it cannot be read, 3 when its
# listing passes max_listing bytes (the listing stops there).
list_entries() {
    local cut=$((max_listing + 1)) st
    if [ -d "$sub" ]; then
        (cd -- "$sub" && find . -mindepth 1 -printf '%y\t%s\t%P\0') | head -c $cut >"$out/unpacked/folder"
        [ "$(stat -c %s "$out/unpacked/folder")" -gt "$max_listing" ] && return 3
        cat "$out/unpacked/folder"
    else
        timeout $unpack_s tar -tvf "$sub" --numeric-owner --quoting-style=escape | head -c $cut >"$out/unpacked/long"
        st=${PIPESTATUS[0]}
        [ "$(stat -c %s "$out/unpacked/long")" -gt "$max_listing" ] && return 3
        [ "$st" = 0 ] || return 1
        timeout $unpack_s tar -tf "$sub" --quoting-style=escape >"$out/unpacked/short" &&
            [ "$(wc -l <"$out/unpacked/long")" = "$(wc -l <"$out/unpacked/short")" ] || return 1
        # Same order in both listings: type and size from the long one, the name from the short one.
        paste <(awk '{ t = substr($1, 1, 1); print (t == "-" ? "f" : t) "\t" $3 }' "$out/unpacked/long") \
            "$out/unpacked/short" | tr '\n' '\0'
    fi
}
# The name tar would write a path to: no leading / or ./, no // or /./ inside.
norm() {
    local n=$1
    while :; do case $n in ./*) n=${n#./} ;; /*) n=${n#/} ;; *) break ;; esac; done
    while [[ $n == *//* ]]; do n=${n//\/\//\/}; done
    while [[ $n == */./* ]]; do n=${n//\/.\//\/}; done
    key=${n:-.}
}

# One that cannot be read (not a tarball, cut short) is graded with no file taken.
problem=""
list_entries >"$out/unpacked/entries" 2>"$out/unpacked/list.err"
listed=$?
if [ $listed = 3 ] || [ "$(tr -cd '\0' <"$out/unpacked/entries" | wc -c)" -gt $max_entries ]; then
    problem="the submission holds more than $max_entries entries or $((max_listing >> 20)) MiB of names: nothing taken"
    : >"$out/unpacked/entries"
elif [ $listed != 0 ]; then
    why=$(head -c 300 "$out/unpacked/list.err" | grep -m 1 .)
    problem="cannot read the submission: ${why:-tar listed nothing whole in $unpack_s s}"
    : >"$out/unpacked/entries"
fi
types=() sizes=() paths=()
declare -A seen
prefix="" found=0
while IFS=$'\t' read -r -d '' type size path; do
    types+=("$type") sizes+=("$size") paths+=("$path")
    norm "$path"; seen[$key]=$((${seen[$key]:-0} + 1))
    # The prefix before labs/: "" or the folders before the first file a submission may replace.
    if [ "$found" = 0 ] && [ "$type" = f ] && [[ $path =~ ^(.*/)?(labs/[0-9][0-9]-[^/]+/[^/]+)$ ]] &&
        is_allowed "${BASH_REMATCH[2]}"; then
        prefix=${BASH_REMATCH[1]} found=1
    fi
done <"$out/unpacked/entries"

# What is taken, and why the rest is not: one line per entry in ignored.txt.
: >"$out/ignored.txt"
want=() want_rel=() want_size=()
declare -A told
for i in "${!paths[@]}"; do
    type=${types[$i]} path=${paths[$i]}
    [ "$type" = d ] && continue
    rel=${path#"$prefix"}
    norm "$path"; n=${seen[$key]}
    if [ "$prefix$rel" = "$path" ] && is_allowed "$rel"; then
        if [ "$n" -gt 1 ]; then
            [ -n "${told[$key]+x}" ] && continue
            told[$key]=1
            echo "$(shown "$path") (named $n times: none of them taken)" >>"$out/ignored.txt"
        elif [ "$type" != f ]; then
            echo "$(shown "$path") (not a plain file)" >>"$out/ignored.txt"
        else
            want+=("$path") want_rel+=("$rel") want_size+=("${sizes[$i]}")
        fi
    elif [ "$type" != f ]; then
        echo "$(shown "$path") (not a plain file)" >>"$out/ignored.txt"
    else
        shown "$path" >>"$out/ignored.txt"; echo >>"$out/ignored.txt"
    fi
done

# Each file wanted goes to unpacked/labs/<lab>/<file>, cut at limit + 1 bytes while it is read:
# nothing larger ever reaches the disk. From a tarball, tar pipes each one to a command
# (--to-command) and writes nothing itself: no link, device or path outside this folder.
dest=$out/unpacked
if [ "${#want[@]}" -gt 0 ]; then
    if [ -d "$sub" ]; then
        for i in "${!want[@]}"; do
            mkdir -p "$dest/${want_rel[$i]%/*}"
            [ -f "$sub/${want[$i]}" ] && [ ! -L "$sub/${want[$i]}" ] &&
                head -c $((limit + 1)) <"$sub/${want[$i]}" >"$dest/${want_rel[$i]}"
        done
    else
        # The command sees the member's name in TAR_FILENAME; it takes only the files wanted, once.
        # shellcheck disable=SC2016
        take='nl="
"; f=$TAR_FILENAME; b=${f##*/}; d=${f%/*}; l=${d##*/}; r=labs/$l/$b
case "$nl$WB_WANT$nl" in *"$nl$r$nl"*) ;; *) exit 0 ;; esac
case $r in *"$nl"*) exit 0 ;; esac
if [ -e "$WB_DEST/$r" ]; then : >"$WB_DEST/$r.again"; exit 0; fi
mkdir -p "$WB_DEST/labs/$l" && exec head -c "$WB_TAKE" >"$WB_DEST/$r"'
        WB_WANT=$(printf '%s\n' "${want_rel[@]}") WB_DEST=$dest WB_TAKE=$((limit + 1)) \
            timeout $unpack_s tar -xf "$sub" -C "$dest/scratch" --no-recursion --no-wildcards --anchored \
            --to-command="$take" -- "${want[@]}" 2>"$dest/tar.err"
        # tar's status is not trusted either way: each file is judged by what came out.
    fi
fi
taken=0
for i in "${!want[@]}"; do
    rel=${want_rel[$i]} f=$dest/${want_rel[$i]}
    size=$(stat -c %s "$f" 2>/dev/null || echo none)
    if [ -e "$f.again" ]; then
        why="named more than once: not taken"
    elif [ "$size" = none ]; then
        why="could not be read"
    elif [ "$size" -gt "$limit" ]; then
        why="larger than 1 MiB"
    elif [ "$size" != "${want_size[$i]}" ]; then
        why="could not be read whole: $size of ${want_size[$i]} bytes"
    else
        cp -- "$f" "$work/$rel"
        taken=$((taken + 1))
        continue
    fi
    echo "$(shown "${want[$i]}") ($why)" >>"$out/ignored.txt"
done

version=$(git describe --always --dirty 2>/dev/null || echo unknown)
{
    echo "submission: $(shown "$sub")"
    echo "student: $(shown "$name")"
    echo "seed: $seed ($seed_from)"
    [ -n "$problem" ] && echo "$problem"
    echo "files taken: $taken"
    if [ -s "$out/ignored.txt" ]; then
        echo "ignored (only labs/*/<topic>.cu and labs/*/answers.txt are graded):"
        sed 's/^/  /' "$out/ignored.txt"
    fi
} | tee "$out/grade.log"
# The copy is no git checkout: the grader's version is this checkout's.
# Nothing in the grading's environment names this checkout (cd sets OLDPWD; Slurm sets SLURM_SUBMIT_DIR).
# The student's files are built with their reads confined to the system, the toolkit and the
# copy (WB_CONFINE_BUILD: scripts/student-build.sh).
(cd "$work" && unset LABS MAKEFLAGS MFLAGS OLDPWD SLURM_SUBMIT_DIR && SEED=$seed NO_COLOR=1 WB_CONFINE_BUILD=1 \
    make --no-print-directory grade SET=labs \
    GRADER_VERSION="$version" ${LAB:+LAB=$LAB}) >>"$out/grade.log" 2>&1 </dev/null
rc=$?
sed -n '/^lab  /,$p' "$out/grade.log"
rm -rf "$out/report"; cp -r "$work/build/report/labs" "$out/report" 2>/dev/null
# The GPU, from what the graders recorded (results.json), never from console text.
gpu=$(build/tools/wb-summary --info "$out/report/results.json" gpu 2>/dev/null)
graded_by=$(build/tools/wb-summary --info "$out/report/results.json" grader_version 2>/dev/null)
# One line per field; the name with \ and newlines escaped (gradebook.sh reads it back with %b).
esc=${name//\\/\\\\}; esc=${esc//$'\n'/\\n}
printf 'student=%s\nseed=%s\ngpu=%s\ngrader_version=%s\nexit=%s\nfiles_taken=%s\nproblem=%s\n' \
    "$esc" "$seed" "${gpu:-unknown}" "${graded_by:-$version}" "$rc" "$taken" "${problem//$'\n'/ }" >"$out/meta.txt"

# What the student gets back: the log, the ignored list and the reports, the seed withheld in each
# (the grader prints it as "seed N", "SEED=N", "seed":"N" and the last field of measurements.csv).
mkdir -p "$out/feedback"
cp "$out/grade.log" "$out/ignored.txt" "$out/feedback/"
[ -d "$out/report" ] && cp -r "$out/report" "$out/feedback/report" && find "$out/feedback/report" -name records -prune -exec rm -rf {} +
find "$out/feedback" -type f -exec sed -i -E "s/((seed|SEED)\"?[ :=]*\"?)$seed([^0-9]|\$)/\\1withheld\\3/g" {} +
find "$out/feedback" -type f -name '*.csv' -exec sed -i -E "s/,\"?$seed\"?\$/,withheld/" {} +
rm -rf "$out/unpacked" "$work"
exit $rc
