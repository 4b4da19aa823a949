/* empty_async_clock_before_wait.cu - broken lab 08: the asynchronous loop reads the clock before
 * its wait */
/* SPDX-License-Identifier: MIT */
/* The reference's loop of empty launches with its cudaDeviceSynchronize()
 * moved after the second reading of the clock: the clock stops when the
 * last launch is queued, not when the GPU has run it, and the wait only
 * leaves the GPU idle for the grader's cudaStreamQuery. For empty kernels
 * the figure barely moves (the GPU keeps up with the launches), and the
 * count of the waits is right, one after the last launch; only the order
 * the grader sees tells: the last clock read came before that wait.
 * expect: measure.empty_async FAIL read the clock for the last time before the wait
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_empty_async reference_empty_async
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
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
    double t1 = now_us();        /* the launches are queued, not yet run */
    e = cudaDeviceSynchronize(); /* too late for the clock */
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    *us_per_launch = (t1 - t0) / launches;
    return cudaSuccess;
}
