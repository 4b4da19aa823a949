/* exit0.cu - broken lab 00: exit(0) in the middle of device_query_pick_best */
/* SPDX-License-Identifier: MIT */
/* expect: correct.pick_best FAIL exit status 0
 * expect: sanitizer.host FAIL not graded */
#define device_query_pick_best reference_pick_best
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_pick_best

#include <stdlib.h>

extern "C" int device_query_pick_best(const device_query_report *r, int n,
                                      const device_query_need *need) {
    if (n > 3)
        exit(0); /* hoping an early, clean exit reads as a pass */
    return reference_pick_best(r, n, need);
}
