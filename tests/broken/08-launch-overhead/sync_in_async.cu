/* sync_in_async.cu - broken lab 08: the "asynchronous" loop waits after every launch */
/* SPDX-License-Identifier: MIT */
/* The Handbook's second program passed off as its first: the time per
 * launch is the round trip, about 2.6 times what the grader measures for
 * an asynchronous launch (H200 trial: 9.5 against 3.6 us).
 * expect: measure.empty_async FAIL too slow
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_empty_async reference_empty_async
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_empty_async

extern "C" cudaError_t launch_overhead_empty_async(int launches, double *us_per_launch) {
    return launch_overhead_empty_sync(launches, us_per_launch);
}
