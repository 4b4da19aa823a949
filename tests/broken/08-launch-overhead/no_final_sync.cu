/* no_final_sync.cu - broken lab 08: the sweep's asynchronous loop reads the clock without waiting
 */
/* SPDX-License-Identifier: MIT */
/* The mistake the Handbook's listing guards against: the clock stops as
 * soon as the last launch is queued. Once kernels are longer than a launch,
 * hundreds of them are still queued then, so the asynchronous time stays
 * near one launch's cost however long the kernels are; the synchronised
 * loop is right, which tells the two causes apart.
 * expect: measure.sweep FAIL synchronise after the loop
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_sweep reference_sweep
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_sweep

static cudaError_t hasty_time(long long cycles, int launches, int sync_each, double *us) {
    cudaError_t e = cudaSuccess;
    double t0 = now_us();
    for (int i = 0; i < launches && e == cudaSuccess; i++) {
        launch_overhead_wait_kernel<<<1, 1>>>(cycles, NULL);
        if (sync_each)
            e = cudaDeviceSynchronize();
    }
    double t1 = now_us(); /* before the GPU has finished */
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize(); /* only so the next point starts from an idle GPU */
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
    for (int i = 0; i < WARMUP_LAUNCHES; i++)
        launch_overhead_wait_kernel<<<1, 1>>>(0, NULL);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    for (int i = 0; e == cudaSuccess && i < points; i++) {
        out[i].cycles = cycles[i];
        e = hasty_time(cycles[i], launches, 0, &out[i].async_us);
        if (e == cudaSuccess)
            e = hasty_time(cycles[i], launches, 1, &out[i].sync_us);
    }
    return e;
}
