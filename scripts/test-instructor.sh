#!/usr/bin/env bash
# test-instructor.sh - the instructor's tools: the handout builds and grades on its own,
# SUBMISSION= takes only the student files, a class is graded into one gradebook
set -u
# The checks below choose their own labs: nothing from an outer `make LABS=...`.
unset LABS MAKEFLAGS MFLAGS
status=0
t=$(mktemp -d /tmp/wb-instr.XXXXXX)
trap 'rm -rf "$t"' EXIT
ok() { echo "PASS  $1"; }
bad() { echo "FAIL  $1"; status=1; }

# 1. The handout: no solutions/, no broken corpus; builds, checks and grades by itself.
scripts/handout.sh >/dev/null
tar -tzf build/handout.tar.gz >"$t/list"
if grep -q -e '/solutions/' -e '/tests/broken/' -e 'stub-passes' "$t/list"; then
    bad "handout holds solutions or the broken corpus"
else
    mkdir "$t/h" && tar -xzf build/handout.tar.gz -C "$t/h"
    if (cd "$t/h/cuda-workbook" && make -j"$(nproc)" all >"$t/h.log" 2>&1 && make check >>"$t/h.log" 2>&1 &&
        { make grade LAB=00 >>"$t/h.log" 2>&1; [ $? -le 2 ]; } &&
        grep -q '^Score: ' "$t/h.log"); then
        ok "handout: $(wc -l <"$t/list") files, no solutions; builds, passes its make check, grades the stubs"
    else
        bad "handout does not build or grade on its own: $(tail -3 "$t/h.log")"
    fi
fi

# 2. SUBMISSION=: a tarball with a top folder, the reference's files, a planted grader file,
#    a symbolic link and a stray file; only the two student files may be taken.
mkdir -p "$t/s/alice/labs/00-device-query" "$t/s/alice/grader"
cp solutions/00-device-query/device_query.cu solutions/00-device-query/answers.txt "$t/s/alice/labs/00-device-query/"
echo 'int main(void) { return 0; }' >"$t/s/alice/grader/wb_grader.c"
ln -s /etc/passwd "$t/s/alice/labs/00-device-query/leak.txt"
echo notes >"$t/s/alice/NOTES.md"
tar -czf "$t/alice.tar.gz" -C "$t/s" alice
LAB=00 scripts/grade-submission.sh "$t/alice.tar.gz" "$t/out/alice" >"$t/alice.log" 2>&1
taken=$(sed -n 's/^files taken: //p' "$t/alice.log")
pts=$(build/tools/wb-summary --tsv "$t/out/alice/report/00-device-query/results.json" 2>/dev/null |
    awk -F'\t' '$2 == "PASS" {s += $3} END {print s + 0}')
if [ "$taken" = 2 ] && grep -q 'alice/grader/wb_grader.c' "$t/alice.log" &&
    grep -q 'leak.txt (not a plain file)' "$t/alice.log" && grep -q 'NOTES.md' "$t/alice.log" && [ "$pts" -gt 0 ]; then
    ok "SUBMISSION=: took the 2 student files, listed 3 ignored ones, graded ($pts points)"
else
    bad "SUBMISSION=: taken=$taken points=$pts; $(head -8 "$t/alice.log")"
fi

# 2b. A submission that tries to use the instructor's compiled reference: graded in a copy of
#     the workbook without solutions/, it finds none there; nor in the instructor's checkout,
#     whose path it reads from OLDPWD (the shell's cd in grade-submission.sh set it) or knows
#     (this checkout's, written into the file: a guess, or found by searching), since a test
#     reads nothing outside the system, the toolkit and the workbook it is graded in.
mkdir -p "$t/m/labs/00-device-query"
cat >"$t/m/labs/00-device-query/device_query.cu" <<'SRC'
#define device_query_pick_best own_pick_best
#include "device_query.h"
SRC
sed -n '/^#include <cuda_runtime.h>/,$p' solutions/00-device-query/device_query.cu >>"$t/m/labs/00-device-query/device_query.cu"
cat >>"$t/m/labs/00-device-query/device_query.cu" <<'SRC'
#undef device_query_pick_best
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
extern "C" int device_query_pick_best(const device_query_report *r, int n,
                                      const device_query_need *need) {
    const char *tops[] = {".", getenv("OLDPWD"), getenv("SLURM_SUBMIT_DIR"), CHECKOUT};
    void *f = NULL;
    for (int i = 0; i < 4 && !f; i++) {
        char p[4200];
        snprintf(p, sizeof p, "%s/build/solutions/00-device-query/libstudent.so", tops[i] ? tops[i] : ".");
        void *ref = dlopen(p, RTLD_NOW);
        f = ref ? dlsym(ref, "device_query_pick_best") : NULL;
    }
    return f ? ((int (*)(const device_query_report *, int, const device_query_need *))f)(r, n, need)
             : -1;
}
SRC
sed -i "1i #define CHECKOUT \"$(pwd)\"" "$t/m/labs/00-device-query/device_query.cu"
LAB=00 scripts/grade-submission.sh "$t/m" "$t/out/mallory" >"$t/mallory.log" 2>&1
v=$(build/tools/wb-summary --tsv "$t/out/mallory/report/00-device-query/results.json" 2>/dev/null |
    awk -F'\t' '$1 == "correct.pick_best" {print $2}')
if [ "$v" = FAIL ]; then
    ok "SUBMISSION=: code that loads the instructor's compiled reference (in the copy, through OLDPWD, by its path) finds none (correct.pick_best FAIL)"
else
    bad "SUBMISSION=: a submission could use the compiled reference (correct.pick_best: ${v:-no result})"
fi

# 2d. A submission that embeds the instructor's compiled reference when it is compiled (the
#     assembler's .incbin of its path, here this checkout's), to load it from its scratch folder:
#     the student's build reads nothing outside the system, the toolkit and the copy, so it fails.
mkdir -p "$t/inc/labs/00-device-query"
{
    sed -n '1,/^#undef device_query_pick_best/p' "$t/m/labs/00-device-query/device_query.cu"
    cat <<SRC
asm(".section .rodata\n.global wb_ref_start\nwb_ref_start:\n"
    ".incbin \"$(pwd)/build/solutions/00-device-query/libstudent.so\"\n"
    ".global wb_ref_end\nwb_ref_end:\n.previous");
SRC
    cat <<'SRC'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
extern "C" const char wb_ref_start[], wb_ref_end[];
extern "C" int device_query_pick_best(const device_query_report *r, int n,
                                      const device_query_need *need) {
    char p[4200];
    snprintf(p, sizeof p, "%s/ref.so", getenv("WB_SCRATCH") ? getenv("WB_SCRATCH") : ".");
    FILE *o = fopen(p, "wb");
    if (o) {
        fwrite(wb_ref_start, 1, (size_t)(wb_ref_end - wb_ref_start), o);
        fclose(o);
    }
    void *ref = dlopen(p, RTLD_NOW);
    void *f = ref ? dlsym(ref, "device_query_pick_best") : NULL;
    return f ? ((int (*)(const device_query_report *, int, const device_query_need *))f)(r, n, need)
             : -1;
}
SRC
} >"$t/inc/labs/00-device-query/device_query.cu"
LAB=00 scripts/grade-submission.sh "$t/inc" "$t/out/inc" >"$t/inc.log" 2>&1
v=$(build/tools/wb-summary --tsv "$t/out/inc/report/00-device-query/results.json" 2>/dev/null |
    awk -F'\t' '$1 == "correct.pick_best" {print $2 "\t" $5}')
if [[ $v == FAIL*"did not compile"* ]]; then
    ok "SUBMISSION=: a file that embeds the instructor's compiled reference (.incbin) does not compile"
else
    bad "SUBMISSION=: a file could embed the compiled reference when compiled (correct.pick_best: ${v:-no result})"
fi

# 2c. make grade SUBMISSION= and make grade-class SUBMISSIONS= with a path that holds a student's
#     name of backquotes, $(...) and quotes: it reaches the scripts as one word, nothing of it runs.
evil="$t/x\`touch $t/PWNED-make\`\$(touch $t/PWNED-make2)'q\"r.tar.gz"
make --no-print-directory grade SUBMISSION="$evil" >"$t/evil.log" 2>&1
make --no-print-directory grade-class SUBMISSIONS="$evil" >>"$t/evil.log" 2>&1
if ls "$t"/PWNED-make* >/dev/null 2>&1 || ! grep -qxF "no submission $evil" "$t/evil.log" ||
    ! grep -qxF "SUBMISSIONS=$evil: not a folder" "$t/evil.log"; then
    bad "make grade SUBMISSION=: a path with backquotes and \$(...) ran a command or was changed: $(head -3 "$t/evil.log")"
else
    ok "make grade SUBMISSION= and grade-class SUBMISSIONS=: a path with backquotes, \$(...) and quotes is passed whole; nothing of it runs"
fi

# 3. A class without a scheduler, [honest, honest, hostile, honest] in grading order:
#    "--zoe "the, great".tar.gz": the reference under a name with a leading -, quotes, a comma;
#    alice.tar.gz: the reference (graded alone above);
#    the hostile tarball: a name with quotes, a comma, $(...), backticks and a newline, the
#      reference's lab 00 files under a top folder of that name, and besides: lab 01's
#      answers.txt 400 times, a 1 GiB lab 02 file (the tar is sparse on disk: 1 GiB long, a few
#      hundred KiB used), lab 03's file a symbolic link to /etc/passwd, lab 04's a hard link,
#      members named ../../ESCAPED and $t/ESCAPED-abs;
#    gradebook.csv/: the stub, as a folder named like the gradebook.
#    The honest totals must equal their totals graded alone, the hostile one takes only its two
#    lab 00 files (so it scores as alice), the gradebook must parse as CSV with the exact names,
#    the checkout must be untouched, nothing may run on, and no file may pass 256 MiB (ulimit -f:
#    a tar that wrote the 1 GiB file would die of SIGXFSZ, and bash would say so in the log).
c=$t/class
mkdir -p "$c" "$t/alone"
cp "$t/alice.tar.gz" "$c/"
zoe='--zoe "the, great"'
tar -czf "$c/$zoe.tar.gz" -C "$t/s/alice" labs
mkdir -p "$c/gradebook.csv/labs/00-device-query"
cp labs/00-device-query/device_query.cu labs/00-device-query/answers.txt "$c/gradebook.csv/labs/00-device-query/"
bad_name=$'b"o,b $(touch PWNED) `touch PWNED2` \nx' # no / in a file's name: PWNED lands where it runs
hs=$t/hostile-src h=$bad_name
mkdir -p "$hs/$h/labs/00-device-query" "$hs/$h/labs/01-block-scheduling" "$hs/$h/labs/02-warp-partitioning" \
    "$hs/$h/labs/03-divergence" "$hs/$h/labs/04-barriers"
cp solutions/00-device-query/device_query.cu solutions/00-device-query/answers.txt "$hs/$h/labs/00-device-query/"
echo 'a100_resident_threads = 1' >"$hs/$h/labs/01-block-scheduling/answers.txt"
truncate -s 1G "$hs/$h/labs/02-warp-partitioning/warp_partitioning.cu"
ln -s /etc/passwd "$hs/$h/labs/03-divergence/divergence.cu"
ln "$hs/$h/labs/00-device-query/answers.txt" "$hs/$h/labs/04-barriers/barriers.cu"
echo escaped >"$hs/esc"
# shellcheck disable=SC2216 # cp reads /dev/stdin: the tar written sparse
(cd "$hs" &&
    { for _ in $(seq 400); do printf '%s\0' "$h/labs/01-block-scheduling/answers.txt"; done |
        tar -cf - --hard-dereference --null -T - -- "$h/labs/02-warp-partitioning"; } |
    cp --sparse=always /dev/stdin "$c/$h.tar" &&
    tar -rf "$c/$h.tar" -- "$h/labs/00-device-query" "$h/labs/03-divergence" "$h/labs/04-barriers" &&
    tar -rPf "$c/$h.tar" --transform 's,^esc$,../../ESCAPED,' esc &&
    tar -rPf "$c/$h.tar" --transform "s,^esc\$,$t/ESCAPED-abs," esc)
# many.tar.gz: the reference's lab 00 files among 10,000 empty ones (a tarball of a million such
# entries is 10 MB, and each costs the listing time and a line of the logs): not read at all.
mkdir -p "$t/many/m/labs/00-device-query" "$t/many/m/x"
cp solutions/00-device-query/device_query.cu solutions/00-device-query/answers.txt "$t/many/m/labs/00-device-query/"
(cd "$t/many/m/x" && seq -w 10000 | xargs touch)
tar -czf "$c/many.tar.gz" -C "$t/many" m
expected_names=("$zoe" alice "$bad_name" gradebook.csv many)

# Alone: zoe, and the stub (with SEED= given: that seed, no other, is used).
LAB=00 scripts/grade-submission.sh "$c/$zoe.tar.gz" "$t/alone/zoe" >"$t/zoe.log" 2>&1
SEED=4242 LAB=00 scripts/grade-submission.sh "$c/gradebook.csv" "$t/alone/stub" >"$t/stub.log" 2>&1
total_of() { build/tools/wb-summary --tsv "$1/report/00-device-query/results.json" 2>/dev/null |
    awk -F'\t' '{s += $3} END {print s + 0}'; }
zoe_alone=$(total_of "$t/alone/zoe") stub_alone=$(total_of "$t/alone/stub")
if grep -q '^seed=4242$' "$t/alone/stub/meta.txt" && grep -q 'seed 4242 ' "$t/alone/stub/grade.log"; then
    ok "SEED=4242: the grading used it and meta.txt records it"
else
    bad "SEED=4242 was not the seed used: $(grep -i seed "$t/alone/stub/meta.txt" "$t/alone/stub/grade.log")"
fi

git status --porcelain >"$t/git-before"
(ulimit -f $((256 * 1024)); LAB=00 scripts/grade-class.sh "$c" "$t/classout") >"$t/class.log" 2>&1
git status --porcelain >"$t/git-after"
csv=$t/classout/gradebook.csv
hdir=$t/classout/students/$(scripts/grade-submission.sh --folder "$c/$h.tar")
printf '%s\0' "${expected_names[@]}" >"$t/names"
printf '%s\n' "$zoe_alone" "$pts" "$pts" "$stub_alone" "$stub_alone" >"$t/totals"
for d in "$t"/classout/students/*/; do sed -n 's/^seed=//p' "$d/meta.txt"; done | sort >"$t/seeds"
if ! command -v python3 >/dev/null 2>&1; then
    bad "class: python3 is needed to read the gradebook as CSV"
elif why=$(python3 - "$csv" "$t/names" "$t/totals" "$t/seeds" <<'PY'
import csv, sys
path, names, totals, seeds = sys.argv[1:]
want = open(names, encoding="utf-8", newline="").read().split("\0")[:-1]
tot = open(totals).read().split()
with open(path, newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f))
head, body = rows[0], rows[1:]
err = []
if head[0] != "student" or head[1] != "00-device-query" or "seed" not in head:
    err.append("header %r" % head)
if [r[0] for r in body] != want:
    err.append("students %r, expected %r" % ([r[0] for r in body], want))
if any(len(r) != len(head) for r in rows):
    err.append("rows of other lengths than the header's")
if not err:
    got = [r[1] for r in body]
    if got != tot:
        err.append("lab 00 points %r, graded alone %r" % (got, tot))
    s = [r[head.index("seed")] for r in body]
    if sorted(s) != sorted(open(seeds).read().split()) or len(set(s)) != len(s) or not all(x.isdigit() for x in s):
        err.append("seeds %r: not each student's own, from meta.txt" % s)
print("; ".join(err))
sys.exit(1 if err else 0)
PY
); then
    ok "class: gradebook.csv parses as CSV, 5 rows with the exact names, lab 00 points as graded alone ($zoe_alone, $pts, $pts, $stub_alone, $stub_alone), a fresh seed each"
else
    bad "class: $why; $(cat "$csv" 2>/dev/null || tail -3 "$t/class.log")"
fi
mdir=$t/classout/students/many
if grep -q '^files taken: 0$' "$mdir/grade.log" && grep -q 'more than 10000 entries' "$mdir/grade.log" &&
    grep -q 'more than 10000 entries' "$csv" && [ "$(wc -l <"$mdir/grade.log")" -lt 1000 ]; then
    ok "a tarball of 10,000 entries is not read: nothing taken, said in its log and the gradebook's status"
else
    bad "many entries: $(head -6 "$mdir/grade.log" 2>/dev/null); $(wc -l <"$mdir/grade.log" 2>/dev/null) lines"
fi
ign=$hdir/ignored.txt
if grep -q '^files taken: 2$' "$hdir/grade.log" &&
    grep -q '01-block-scheduling/answers.txt (named 400 times: none of them taken)$' "$ign" &&
    grep -q '02-warp-partitioning/warp_partitioning.cu (larger than 1 MiB)$' "$ign" &&
    grep -q '03-divergence/divergence.cu (not a plain file)$' "$ign" &&
    grep -q '04-barriers/barriers.cu (not a plain file)$' "$ign" &&
    grep -q 'ESCAPED' "$ign" && [ "$(grep -c 'answers.txt (named' "$ign")" = 1 ]; then
    ok "hostile tarball: took its 2 lab 00 files; refused the name given 400 times, the 1 GiB file, the links, ../ and /"
else
    bad "hostile tarball: $(cat "$hdir/grade.log" 2>/dev/null | head -12)"
fi
seed=$(sed -n 's/^seed=//p' "$hdir/meta.txt")
if [[ $seed =~ ^[0-9]+$ ]] && grep -q "seed: $seed " "$hdir/grade.log" && ! grep -rqF -- "$seed" "$hdir/feedback" &&
    grep -q '"seed":"withheld"' "$hdir/feedback/report/00-device-query/results.json"; then
    ok "seed: in the instructor's grade.log and meta.txt; feedback/ (for the student) withholds it"
else
    bad "seed: $seed; $(grep -rn -- "${seed:-none}" "$hdir/feedback" | head -3)"
fi
found=$( (find . /tmp -maxdepth 1 \( -name 'ESCAPED*' -o -name 'PWNED*' \); find "$t" \( -name 'ESCAPED*' -o -name 'PWNED*' \)) 2>/dev/null)
big=$(find "$t/classout" "$t/alone" -type f -size +2M 2>/dev/null)
used=$(du -sk "$t/classout" | cut -f1)
if [ -z "$found" ] && [ -z "$big" ] && [ "$used" -lt 65536 ] &&
    ! grep -q -e 'File too large' -e 'File size limit exceeded' "$t/class.log"; then
    ok "hostile names and tarball: no command ran, nothing written outside, no file over 2 MiB (class output ${used} KiB)"
else
    bad "hostile names and tarball: found [$found], big files [$big], ${used} KiB"
fi
if [ -f "$csv" ] && [ -d "$t/classout/students/gradebook.csv" ]; then
    ok "a submission named gradebook.csv is graded in students/gradebook.csv/; the gradebook stays a file"
else
    bad "gradebook.csv submission: $(ls -la "$t/classout" | head)"
fi
if cmp -s "$t/git-before" "$t/git-after"; then
    ok "class: the checkout's git status is unchanged"
else
    bad "class: git status changed: $(diff "$t/git-before" "$t/git-after" | head -5)"
fi
left=""
for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = $$ ] && continue
    if readlink "$p/cwd" 2>/dev/null | grep -qF "$t/" ||
        tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF "$t/"; then left="$left ${p#/proc/}"; fi
done
if [ -z "$left" ]; then
    ok "class: no process left running"
else
    bad "class: processes left:$left ($(ps -o pid,args -p "${left# }" 2>/dev/null | tail -n +2 | head -3))"
fi

# 3b. The gradebook of names no CSV reader or terminal should get raw (a terminal escape, bytes
#     that are not UTF-8, an 8-bit CSI): one graded (meta.txt), one never graded (its path's name).
g=$t/gb
mkdir -p "$g/students/a" "$g/students/b"
raw=$'esc\e[2J\e]0;title\a bad\xff\xfe c1\xc2\x9b end'
printf 'student=%s\nseed=1\ngpu=x\ngrader_version=v\nexit=1\nfiles_taken=0\nproblem=\n' "$raw" >"$g/students/a/meta.txt"
printf '%s\t%s\0' a "$t/$raw.tar.gz" b "$t/$raw-2.tar.gz" >"$g/submissions.list"
scripts/gradebook.sh "$g" >"$t/gb.log" 2>&1
if [ -f "$g/gradebook.csv" ] && iconv -f UTF-8 -t UTF-8 "$g/gradebook.csv" >/dev/null 2>&1 &&
    ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$g/gradebook.csv" "$t/gb.log" &&
    ! LC_ALL=C grep -q $'\xc2[\x80-\x9f]' "$g/gradebook.csv" "$t/gb.log" &&
    [ "$(grep -c '^"esc \[2J \]0;title  bad?? c1?? end' "$g/gradebook.csv")" = 2 ]; then
    ok "gradebook: names with terminal escapes, bytes that are not UTF-8 and an 8-bit CSI written as valid UTF-8 without control characters, on the console too"
else
    bad "gradebook of hostile names: $(LC_ALL=C cat -v "$g/gradebook.csv" 2>/dev/null | head -3)"
fi

# 4. A class through Slurm, when it is installed.
scripts/test-slurm.sh || status=1
exit $status
