/* setenv_hang.cu - hostile lab 00: turns off forking and timeouts in its environment, then hangs */
/* SPDX-License-Identifier: MIT */
/* The grader decides fork mode and timeouts in its own process, before any
 * test runs: the test still ends at its time limit and the others run as usual.
 * expect: correct.pick_best FAIL did not finish
 * expect: sanitizer.host FAIL not graded */
#define device_query_pick_best reference_pick_best
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_pick_best

#include <stdlib.h>

extern "C" int device_query_pick_best(const device_query_report *r, int n,
                                      const device_query_need *need) {
    setenv("CK_FORK", "no", 1);
    setenv("CK_DEFAULT_TIMEOUT", "100000", 1);
    setenv("CK_TIMEOUT_MULTIPLIER", "1000", 1);
    for (volatile int spin = 1; spin;) {
    }
    return reference_pick_best(r, n, need);
}
