/* compile_bomb.cu - hostile lab 00: its build reads /dev/zero, which never ends and grows the
 * compiler's memory without bound */
/* SPDX-License-Identifier: MIT */
/* The student's file is compiled before any sandbox exists: the build's memory limit
 * (scripts/student-build.sh) ends it within seconds, and the lab's code tests fail with the
 * compiler's words; the questions are graded as usual.
 * expect-code: FAIL out of memory */
#include "device_query.h"
#include "/dev/zero"
