/* empty_async_idle_stream.cu - broken lab 08: the timed loop "waits" for a stream it never used */
/* SPDX-License-Identifier: MIT */
/* The loop of empty launches on the legacy stream, followed by a
 * cudaStreamSynchronize of a non-blocking stream of its own, which holds
 * no work and returns at once: the clock stops before the GPU has run the
 * launches. The figure barely moves (the GPU keeps up with empty
 * launches), so only the grader's count of the waits can tell: a stream's
 * wait is one for the launches made on that stream.
 * expect: measure.empty_async FAIL no wait after the last
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_empty_async reference_empty_async
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_empty_async

extern "C" cudaError_t launch_overhead_empty_async(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    cudaStream_t idle;
    cudaError_t e = cudaStreamCreateWithFlags(&idle, cudaStreamNonBlocking);
    if (e != cudaSuccess)
        return e;
    e = warm_up_empty();
    double t0 = now_us();
    for (int i = 0; e == cudaSuccess && i < launches; i++)
        launch_overhead_empty_kernel<<<1, 1>>>();
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(idle); /* waits for nothing that was launched */
    double t1 = now_us();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    cudaStreamDestroy(idle);
    if (e != cudaSuccess)
        return e;
    *us_per_launch = (t1 - t0) / launches;
    return cudaSuccess;
}
