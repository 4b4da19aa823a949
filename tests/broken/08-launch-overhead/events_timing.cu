/* events_timing.cu - lab 08, right by the contract: the measurements timed with CUDA events */
/* SPDX-License-Identifier: MIT */
/* Not broken: a control. Events recorded on the legacy stream before and
 * after each whole timed loop measure the interval the host clock does,
 * short of the last synchronisation's return to the host (microseconds,
 * against the milliseconds of a loop): in the loop with a wait after every
 * launch the next launch, and the last event, come only after the host has
 * woken up; in the other the GPU keeps up with the launches, so the last
 * event comes when the host has queued them all. No grader can tell the
 * two clocks apart by the figures they give, so the contract asks for the
 * figure, not the clock (launch_overhead.h, part 1), and this variant must
 * lose nothing. */
#define launch_overhead_empty_async reference_empty_async
#define launch_overhead_empty_sync reference_empty_sync
#define launch_overhead_sweep reference_sweep
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_empty_async
#undef launch_overhead_empty_sync
#undef launch_overhead_sweep

/* Microseconds per launch of `launches` launches of kernel k (0: empty, 1:
 * the wait kernel of `cycles`), a cudaDeviceSynchronize() after each one
 * or one after the loop, timed by two events around the loop. */
static cudaError_t event_loop(int k, long long cycles, int launches, int sync_each, double *us) {
    cudaEvent_t a, b;
    cudaError_t e = cudaEventCreate(&a);
    if (e == cudaSuccess && (e = cudaEventCreate(&b)) != cudaSuccess)
        cudaEventDestroy(a);
    if (e != cudaSuccess)
        return e;
    e = cudaEventRecord(a, 0);
    for (int i = 0; e == cudaSuccess && i < launches; i++) {
        if (k == 0)
            launch_overhead_empty_kernel<<<1, 1>>>();
        else
            launch_overhead_wait_kernel<<<1, 1>>>(cycles, NULL);
        if (sync_each)
            e = cudaDeviceSynchronize();
    }
    if (e == cudaSuccess)
        e = cudaEventRecord(b, 0);
    if (e == cudaSuccess)
        e = cudaEventSynchronize(b);
    if (e == cudaSuccess)
        e = cudaGetLastError();
    float ms = 0;
    if (e == cudaSuccess && (e = cudaEventElapsedTime(&ms, a, b)) == cudaSuccess)
        *us = 1e3 * (double)ms / launches;
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return e;
}

extern "C" cudaError_t launch_overhead_empty_async(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    cudaError_t e = warm_up_empty();
    return e != cudaSuccess ? e : event_loop(0, 0, launches, 0, us_per_launch);
}

extern "C" cudaError_t launch_overhead_empty_sync(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    cudaError_t e = warm_up_empty();
    return e != cudaSuccess ? e : event_loop(0, 0, launches, 1, us_per_launch);
}

extern "C" cudaError_t launch_overhead_sweep(const long long *cycles, int points, int launches,
                                             launch_overhead_point *out) {
    if (cycles == NULL || out == NULL || points < 1 || launches < 1)
        return cudaErrorInvalidValue;
    for (int i = 0; i < points; i++)
        if (cycles[i] < 0)
            return cudaErrorInvalidValue;
    for (int i = 0; i < WARMUP_LAUNCHES; i++)
        launch_overhead_wait_kernel<<<1, 1>>>(0, NULL);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    for (int i = 0; e == cudaSuccess && i < points; i++) {
        out[i].cycles = cycles[i];
        e = event_loop(1, cycles[i], launches, 0, &out[i].async_us);
        if (e == cudaSuccess)
            e = event_loop(1, cycles[i], launches, 1, &out[i].sync_us);
    }
    return e;
}
