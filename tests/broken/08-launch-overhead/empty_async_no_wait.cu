/* empty_async_no_wait.cu - broken lab 08: the asynchronous loop reads the clock without waiting */
/* SPDX-License-Identifier: MIT */
/* The loop of empty launches, timed without its cudaDeviceSynchronize():
 * the clock stops when the last launch is queued, not when the GPU has run
 * it. For empty kernels the figure barely moves (the GPU keeps up with the
 * launches, so a kernel or two is unfinished at most), and the GPU is often
 * idle again before the grader asks, so neither the band nor the grader's
 * cudaStreamQuery can tell; the grader's count of the calls that wait for
 * the GPU can: none comes after the timed launches.
 * expect: measure.empty_async FAIL no wait after the last
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
    double t1 = now_us(); /* the launches are queued, not yet run */
    e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    *us_per_launch = (t1 - t0) / launches;
    return cudaSuccess;
}
