#!/usr/bin/env bash
# student-build.sh - one build of student code under limits: scripts/student-build.sh COMMAND...
#
# The student's file is compiled by the grading account before any sandbox exists. A file that
# includes /dev/zero or a pipe, expands a macro 2^40 times or evaluates templates for hours would
# otherwise take the machine's memory or hold a whole class's grading. The Makefile runs every
# build of a student's file through here (a lab's libstudent.so, the broken variants, the
# mutants): at most STUDENT_BUILD_TIMEOUT seconds (300), STUDENT_BUILD_MEMORY_MB of address space
# per process (4096; the reference of the largest lab needs about 250 MiB) and
# STUDENT_BUILD_FILE_MB per file written (256; lab 09's reference, built for five
# architectures without a GPU, writes a 34 MB intermediate file). A limit already lower stays.
# With WB_CONFINE_BUILD=1 (grade-submission.sh sets it) and build/tools/wb-confine built, the
# build also reads only the system's folders, the CUDA Toolkit, the installations of nvcc and
# the host compiler, and this workbook, and writes only build/ and a temporary folder of its
# own: a file that includes or .incbin's an instructor's built reference by its path no longer
# compiles. (Not by default: a student's own compiler may live anywhere.)
set -u
t=${STUDENT_BUILD_TIMEOUT:-300} mem=${STUDENT_BUILD_MEMORY_MB:-4096} file=${STUDENT_BUILD_FILE_MB:-256}
lower() { # option, KiB (bash's unit for -v and -f): lowered to the value, never raised
    cur=$(ulimit "$1")
    if [ "$cur" = unlimited ] || [ "$cur" -gt "$2" ]; then ulimit "$1" "$2"; fi
}
lower -v $((mem * 1024)) && lower -f $((file * 1024)) ||
    { echo "error: the limits of the build could not be set"; exit 2; }
# The installation a program of PATH belongs to (/apps/gcc/12 for /apps/gcc/12/bin/g++), for
# --read; nothing for one directly under / or in the home folder itself.
prefix_of() {
    local p
    p=$(command -v "$1" 2>/dev/null) && p=$(readlink -f -- "$p") || return 0
    p=${p%/*} p=${p%/*}
    [[ $p == /*/* ]] && [ "$p" != "${HOME:-}" ] && printf '%s\n' "$p"
}
confine=()
if [ "${WB_CONFINE_BUILD:-0}" = 1 ] && [ -x build/tools/wb-confine ]; then
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/wb-build.XXXXXX") || { echo "error: no temporary folder for the build"; exit 2; }
    trap 'rm -rf -- "$tmp"' EXIT
    export TMPDIR=$tmp
    confine=(build/tools/wb-confine --read "$PWD" --write "$PWD/build" --write "$tmp")
    for prog in "$1" "${CC:-cc}" gcc g++ c++; do
        while read -r dir; do confine+=(--read "$dir"); done < <(prefix_of "$prog")
    done
    confine+=(--)
fi
timeout -k 10 "$t" "${confine[@]}" "$@"
rc=$?
case $rc in
124 | 137) echo "error: the build of the student's code passed its time limit of $t s (STUDENT_BUILD_TIMEOUT)" ;;
153) echo "error: the build of the student's code wrote a file larger than $file MiB (STUDENT_BUILD_FILE_MB)" ;;
esac
exit $rc
