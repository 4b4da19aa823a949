/* compile_hang.cu - hostile lab 00: its build reads a pipe that is never closed (its standard
 * input, held open by scripts/test-broken.sh; any FIFO the grading account can read would do) */
/* SPDX-License-Identifier: MIT */
/* Nothing ends such a build but its time limit (scripts/student-build.sh; test-broken.sh sets
 * it to 10 s): then the lab's code tests fail with that reason, the questions are graded as
 * usual, and the grading goes on.
 * expect-code: FAIL passed its time limit */
#include "device_query.h"
#include "/dev/stdin"
