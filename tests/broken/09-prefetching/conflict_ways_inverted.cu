/* conflict_ways_inverted.cu - broken lab 09: counts the banks a warp uses, not the threads per bank
 */
/* SPDX-License-Identifier: MIT */
/* expect: correct.conflict_ways FAIL expected
 * expect: sanitizer.host FAIL not graded */
#define prefetching_conflict_ways reference_conflict_ways
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_conflict_ways

extern "C" int prefetching_conflict_ways(int stride_words) {
    int g = reference_conflict_ways(stride_words);
    return g < 0 ? -1 : 32 / g; /* stride 8: "4 banks" instead of 8 threads in each */
}
