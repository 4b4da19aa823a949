/* no_wait.cu - broken lab 08: the sweep's kernel returns at once instead of busy-waiting */
/* SPDX-License-Identifier: MIT */
/* What the Handbook warns of when the compiler removes the delay loop:
 * every point of the sweep costs an empty launch, and at 128,000 cycles
 * even the synchronised launches are far shorter than the wait alone.
 * expect: measure.sweep FAIL the kernel does not wait
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_sweep reference_sweep
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_sweep

__global__ void lazy_wait_kernel(long long cycles, long long *d_spent) {
    if (d_spent != NULL) /* "the loop is only there to waste time" */
        *d_spent = cycles;
}

static cudaError_t lazy_time(long long cycles, int launches, int sync_each, double *us) {
    cudaError_t e = cudaSuccess;
    double t0 = now_us();
    for (int i = 0; i < launches && e == cudaSuccess; i++) {
        lazy_wait_kernel<<<1, 1>>>(cycles, NULL);
        if (sync_each)
            e = cudaDeviceSynchronize();
    }
    if (e == cudaSuccess && !sync_each)
        e = cudaDeviceSynchronize();
    double t1 = now_us();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e == cudaSuccess)
        *us = (t1 - t0) / launches;
    return e;
}

extern "C" cudaError_t launch_overhead_sweep(const long long *cycles, int points, int launches,
                                             launch_overhead_point *out) {
    if (cycles == NULL || out == NULL || points < 1 || launches < 1)
        return cudaErrorInvalidValue;
    for (int i = 0; i < points; i++)
        if (cycles[i] < 0)
            return cudaErrorInvalidValue;
    cudaError_t e = cudaSuccess;
    for (int i = 0; e == cudaSuccess && i < points; i++) {
        out[i].cycles = cycles[i];
        e = lazy_time(cycles[i], launches, 0, &out[i].async_us);
        if (e == cudaSuccess)
            e = lazy_time(cycles[i], launches, 1, &out[i].sync_us);
    }
    return e;
}
