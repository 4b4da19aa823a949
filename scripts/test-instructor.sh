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

# 2b. A submission that tries to use the instructor's compiled reference: graded
#     in a copy of the workbook without solutions/, it finds none.
mkdir -p "$t/m/labs/00-device-query"
cat >"$t/m/labs/00-device-query/device_query.cu" <<'SRC'
#define device_query_pick_best own_pick_best
#include "device_query.h"
SRC
sed -n '/^#include <cuda_runtime.h>/,$p' solutions/00-device-query/device_query.cu >>"$t/m/labs/00-device-query/device_query.cu"
cat >>"$t/m/labs/00-device-query/device_query.cu" <<'SRC'
#undef device_query_pick_best
#include <dlfcn.h>
extern "C" int device_query_pick_best(const device_query_report *r, int n,
                                      const device_query_need *need) {
    void *ref = dlopen("build/solutions/00-device-query/libstudent.so", RTLD_NOW);
    void *f = ref ? dlsym(ref, "device_query_pick_best") : NULL;
    return f ? ((int (*)(const device_query_report *, int, const device_query_need *))f)(r, n, need)
             : -1;
}
SRC
LAB=00 scripts/grade-submission.sh "$t/m" "$t/out/mallory" >"$t/mallory.log" 2>&1
v=$(build/tools/wb-summary --tsv "$t/out/mallory/report/00-device-query/results.json" 2>/dev/null |
    awk -F'\t' '$1 == "correct.pick_best" {print $2}')
if [ "$v" = FAIL ]; then
    ok "SUBMISSION=: code that loads the instructor's compiled reference finds none (correct.pick_best FAIL)"
else
    bad "SUBMISSION=: a submission could use the compiled reference (correct.pick_best: ${v:-no result})"
fi

# 3. A class without a scheduler: two students, one gradebook.
mkdir -p "$t/class/bob/labs/00-device-query"
cp labs/00-device-query/device_query.cu "$t/class/bob/labs/00-device-query/"
cp "$t/alice.tar.gz" "$t/class/"
LAB=00 scripts/grade-class.sh "$t/class" "$t/classout" >"$t/class.log" 2>&1
csv=$t/classout/gradebook.csv
if [ -f "$csv" ] && [ "$(wc -l <"$csv")" = 3 ] && grep -q '^"alice",'"$pts"',' "$csv" && grep -q '^"bob",0,' "$csv"; then
    ok "class without Slurm: gradebook of 2 students (alice $pts, bob 0)"
else
    bad "class without Slurm: $(cat "$csv" 2>/dev/null || tail -3 "$t/class.log")"
fi

# 4. A class through Slurm, when it is installed.
scripts/test-slurm.sh || status=1
exit $status
