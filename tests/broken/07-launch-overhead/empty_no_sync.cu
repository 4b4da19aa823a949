/* empty_no_sync.cu - broken lab 07: the asynchronous empty launches timed without waiting for them */
/* SPDX-License-Identifier: MIT */
/* "A launch returns at once, so the loop's time is the launches' cost":
 * the clock stops when the last launch is queued, and nothing waits. With
 * thousands of launches the queue fills and the host waits on it anyway,
 * so the time per launch comes out near the right one; what gives it away
 * is a GPU still busy when the function returns.
 * expect: measure.empty_async FAIL still queued on the GPU */
#define launch_overhead_empty_async reference_empty_async
#include "../../../solutions/07-launch-overhead/launch_overhead.cu"
#undef launch_overhead_empty_async

extern "C" cudaError_t launch_overhead_empty_async(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    cudaError_t e = warm_up_empty();
    if (e != cudaSuccess)
        return e;
    double t0 = now_us();
    for (int i = 0; i < launches; i++)
        launch_overhead_empty_kernel<<<1, 1>>>();
    double t1 = now_us();
    e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    *us_per_launch = (t1 - t0) / launches;
    return cudaSuccess;
}
