/* empty_stream_sync.cu - lab 08, right by the contract: waits through the legacy stream's own calls
 */
/* SPDX-License-Identifier: MIT */
/* Not broken: a control. The empty launches go to the legacy stream, as
 * the contract asks; the waits are cudaStreamSynchronize(0) after the
 * asynchronous loop and cudaStreamSynchronize(cudaStreamLegacy) after each
 * launch of the synchronised one, which wait for the same work as
 * cudaDeviceSynchronize() there. The grader's count of the waits must see
 * them as waits for those launches, and this variant must lose nothing. */
#define launch_overhead_empty_async reference_empty_async
#define launch_overhead_empty_sync reference_empty_sync
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_empty_async
#undef launch_overhead_empty_sync

static cudaError_t stream_loop(int launches, int sync_each, double *us) {
    cudaError_t e = warm_up_empty();
    double t0 = now_us();
    for (int i = 0; e == cudaSuccess && i < launches; i++) {
        launch_overhead_empty_kernel<<<1, 1>>>();
        if (sync_each)
            e = cudaStreamSynchronize(cudaStreamLegacy);
    }
    if (e == cudaSuccess && !sync_each)
        e = cudaStreamSynchronize(0);
    double t1 = now_us();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    *us = (t1 - t0) / launches;
    return cudaSuccess;
}

extern "C" cudaError_t launch_overhead_empty_async(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    return stream_loop(launches, 0, us_per_launch);
}

extern "C" cudaError_t launch_overhead_empty_sync(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    return stream_loop(launches, 1, us_per_launch);
}
