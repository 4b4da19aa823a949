/* empty_sync_wait_before.cu - broken lab 08: a wait before each launch, none after the last */
/* SPDX-License-Identifier: MIT */
/* Every launch but the last is waited for, by the wait before the next
 * one, so the figure is right to one launch in 10,000; the last kernel is
 * still queued when the clock stops. The grader's count of the calls that
 * wait for the GPU sees the last launch without a wait after it.
 * expect: measure.empty_sync FAIL no wait after the last
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_empty_sync reference_empty_sync
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_empty_sync

extern "C" cudaError_t launch_overhead_empty_sync(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    cudaError_t e = warm_up_empty();
    if (e != cudaSuccess)
        return e;
    double t0 = now_us();
    for (int i = 0; i < launches && e == cudaSuccess; i++) {
        e = cudaDeviceSynchronize(); /* for the launch before: none after the last */
        launch_overhead_empty_kernel<<<1, 1>>>();
    }
    double t1 = now_us();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    *us_per_launch = (t1 - t0) / launches;
    return cudaSuccess;
}
