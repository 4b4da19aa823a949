/* min_distance_int_overflow.cu - broken lab 09: ceil(latency / work) as (latency + work - 1) /
 * work, in an int */
/* SPDX-License-Identifier: MIT */
/* The usual integer ceiling, right for every latency a GPU has, but the
 * contract takes any int latency from 0: near INT_MAX, latency + work - 1
 * overflows, and the quotient of the negative sum comes out below 1.
 * expect: correct.min_distance FAIL does it overflow an int
 * expect: sanitizer.host FAIL not graded */
#define prefetching_min_distance reference_min_distance
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_min_distance
extern "C" int prefetching_min_distance(int latency_cycles, int work_cycles) {
    if (latency_cycles < 0 || work_cycles < 1)
        return -1;
    volatile int sum = latency_cycles + work_cycles - 1; /* wraps past INT_MAX, as int does */
    int d = sum / work_cycles;
    return d < 1 ? 1 : d;
}
