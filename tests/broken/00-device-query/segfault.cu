/* segfault.cu - broken lab 00: a host segfault in device_query_pick_best */
/* SPDX-License-Identifier: MIT */
/* expect: correct.pick_best FAIL signal 11
 * expect: sanitizer.host FAIL not graded */
#define device_query_pick_best reference_pick_best
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_pick_best

extern "C" int device_query_pick_best(const device_query_report *r, int n,
                                      const device_query_need *need) {
    volatile int *p = NULL;
    *p = n;
    return reference_pick_best(r, n, need);
}
