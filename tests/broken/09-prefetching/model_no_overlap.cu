/* model_no_overlap.cu - broken lab 09: a model in which each load still waits out its latency */
/* SPDX-License-Identifier: MIT */
/* expect: correct.model FAIL expected
 * expect: sanitizer.host FAIL not graded */
#define prefetching_model_speedup reference_model_speedup
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_model_speedup

extern "C" double prefetching_model_speedup(double latency_cycles, double work_cycles,
                                            int distance) {
    if (latency_cycles < 0 || work_cycles <= 0 || distance < 1)
        return -1;
    /* (latency + work) / distance per element: distance 1 gains nothing,
     * though the load of the next element already overlaps this one's work. */
    double per = (latency_cycles + work_cycles) / distance;
    return (latency_cycles + work_cycles) / (per > work_cycles ? per : work_cycles);
}
