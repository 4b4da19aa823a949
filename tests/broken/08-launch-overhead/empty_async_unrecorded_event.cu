/* empty_async_unrecorded_event.cu - broken lab 08: the timed loop "waits" for an event never
 * recorded */
/* SPDX-License-Identifier: MIT */
/* The loop of empty launches followed by a cudaEventSynchronize of an
 * event that was created but never recorded: it returns at once, so the
 * clock stops before the GPU has run the launches, and the figure barely
 * moves. The grader's count of the waits tells: an event's wait is one
 * for the launches before the event was recorded, and this one never was.
 * expect: measure.empty_async FAIL no wait after the last
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_empty_async reference_empty_async
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_empty_async

extern "C" cudaError_t launch_overhead_empty_async(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    cudaEvent_t never;
    cudaError_t e = cudaEventCreate(&never);
    if (e != cudaSuccess)
        return e;
    e = warm_up_empty();
    double t0 = now_us();
    for (int i = 0; e == cudaSuccess && i < launches; i++)
        launch_overhead_empty_kernel<<<1, 1>>>();
    if (e == cudaSuccess)
        e = cudaEventSynchronize(never); /* never recorded: returns at once */
    double t1 = now_us();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    cudaEventDestroy(never);
    if (e != cudaSuccess)
        return e;
    *us_per_launch = (t1 - t0) / launches;
    return cudaSuccess;
}
