/* driver_api_launches.cu - broken lab 08: the timed launches go through the driver API */
/* SPDX-License-Identifier: MIT */
/* The reference's three timed measurements with every timed launch made by
 * cuLaunchKernel, found through the runtime (cudaGetDriverEntryPoint...,
 * as code built without -lcuda must) on the kernel cudaGetFuncBySymbol
 * gives: the same kernels on the same legacy stream, so the figures are
 * right. But the contract launches through the runtime (<<<1, 1>>>), and
 * the grader sees only the runtime's launches: with the timed ones unseen,
 * its rules on the waits and the clock would have nothing to judge (a
 * missing wait after such a loop would pass). Each call shows the grader
 * only the given warm-up's 100 launches, fewer than it asked for.
 * expect: measure.empty_async FAIL fewer than the 20000 it was asked for
 * expect: measure.empty_sync FAIL fewer than the 10000 it was asked for
 * expect: measure.sweep FAIL fewer than the 20000 it was asked for
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_empty_async reference_empty_async
#define launch_overhead_empty_sync reference_empty_sync
#define launch_overhead_sweep reference_sweep
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_empty_async
#undef launch_overhead_empty_sync
#undef launch_overhead_sweep

#include <cuda.h>

typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, CUstream, void **, void **);

/* The driver's cuLaunchKernel, looked up once. */
static cudaError_t driver_launcher(launch_fn *out) {
    static launch_fn launch;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    cudaError_t e = cudaSuccess;
    if (launch == NULL) {
#if CUDART_VERSION >= 12050
        e = cudaGetDriverEntryPointByVersion("cuLaunchKernel", (void **)&launch, 12000,
                                             cudaEnableDefault, &q);
#else
        e = cudaGetDriverEntryPoint("cuLaunchKernel", (void **)&launch, cudaEnableDefault, &q);
#endif
        if (e == cudaSuccess && (q != cudaDriverEntryPointSuccess || launch == NULL))
            e = cudaErrorNotSupported;
    }
    *out = launch;
    return e;
}

/* One block of one thread of `kernel` on the legacy stream, by the driver. */
static cudaError_t driver_launch(const void *kernel, void **args) {
    launch_fn launch;
    cudaFunction_t f;
    cudaError_t e = driver_launcher(&launch);
    if (e == cudaSuccess)
        e = cudaGetFuncBySymbol(&f, kernel);
    if (e != cudaSuccess)
        return e;
    return launch((CUfunction)f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS
               ? cudaSuccess
               : cudaErrorLaunchFailure;
}

/* The reference's timed loops, launching by the driver: kernel k (0 empty,
 * 1 the wait kernel of `cycles`), a wait after each launch or one after all. */
static cudaError_t driver_loop(int k, long long cycles, int launches, int sync_each, double *us) {
    long long *none = NULL;
    void *wait_args[] = {&cycles, &none};
    const void *kernel = k == 0 ? (const void *)launch_overhead_empty_kernel
                                : (const void *)launch_overhead_wait_kernel;
    cudaError_t e = cudaSuccess;
    double t0 = now_us();
    for (int i = 0; i < launches && e == cudaSuccess; i++) {
        e = driver_launch(kernel, k == 0 ? NULL : wait_args);
        if (e == cudaSuccess && sync_each)
            e = cudaDeviceSynchronize();
    }
    if (e == cudaSuccess && !sync_each)
        e = cudaDeviceSynchronize();
    double t1 = now_us();
    if (e != cudaSuccess)
        return e;
    *us = (t1 - t0) / launches;
    return cudaSuccess;
}

extern "C" cudaError_t launch_overhead_empty_async(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    cudaError_t e = warm_up_empty();
    return e != cudaSuccess ? e : driver_loop(0, 0, launches, 0, us_per_launch);
}

extern "C" cudaError_t launch_overhead_empty_sync(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    cudaError_t e = warm_up_empty();
    return e != cudaSuccess ? e : driver_loop(0, 0, launches, 1, us_per_launch);
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
        e = driver_loop(1, cycles[i], launches, 0, &out[i].async_us);
        if (e == cudaSuccess)
            e = driver_loop(1, cycles[i], launches, 1, &out[i].sync_us);
    }
    return e;
}
