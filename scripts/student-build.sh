#!/usr/bin/env bash
# student-build.sh - one build of student code under limits: scripts/student-build.sh COMMAND...
#
# The student's file is compiled by the grading account before any sandbox exists. A file that
# includes /dev/zero or a pipe, expands a macro 2^40 times or evaluates templates for hours would
# otherwise take the machine's memory or hold a whole class's grading. The Makefile runs every
# build of a student's file through here (a lab's libstudent.so, the broken variants, the
# mutants): at most STUDENT_BUILD_TIMEOUT seconds (300), STUDENT_BUILD_MEMORY_MB of address space
# per process (4096; the reference of the largest lab needs about 250 MiB) and
# STUDENT_BUILD_FILE_MB per file written (256; lab 08's reference, built for five
# architectures without a GPU, writes a 34 MB intermediate file). A limit already lower stays.
set -u
t=${STUDENT_BUILD_TIMEOUT:-300} mem=${STUDENT_BUILD_MEMORY_MB:-4096} file=${STUDENT_BUILD_FILE_MB:-256}
lower() { # option, KiB (bash's unit for -v and -f): lowered to the value, never raised
    cur=$(ulimit "$1")
    if [ "$cur" = unlimited ] || [ "$cur" -gt "$2" ]; then ulimit "$1" "$2"; fi
}
lower -v $((mem * 1024)) && lower -f $((file * 1024)) ||
    { echo "error: the limits of the build could not be set"; exit 2; }
timeout -k 10 "$t" "$@"
rc=$?
case $rc in
124 | 137) echo "error: the build of the student's code passed its time limit of $t s (STUDENT_BUILD_TIMEOUT)" ;;
153) echo "error: the build of the student's code wrote a file larger than $file MiB (STUDENT_BUILD_FILE_MB)" ;;
esac
exit $rc
