/* min_distance_rounds_down.cu - broken lab 09: the prefetch distance rounded down, so loads arrive
 * late */
/* SPDX-License-Identifier: MIT */
/* expect: correct.min_distance FAIL expected
 * expect: sanitizer.host FAIL not graded */
#define prefetching_min_distance reference_min_distance
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_min_distance

extern "C" int prefetching_min_distance(int latency_cycles, int work_cycles) {
    if (latency_cycles < 0 || work_cycles < 1)
        return -1;
    int d = latency_cycles / work_cycles; /* 801 and 200 give 4: 4 x 200 < 801 */
    return d < 1 ? 1 : d;
}
