/* fma_time_below.cu - broken lab 06: the warm-up run's time is stored below the array of
 * timings (ms[r - 1] at r = 0) in the FMA throughput's loop, as the second site of the mutant
 * of the timing loop that survived */
/* SPDX-License-Identifier: MIT */
/* As global_bw_time_below.cu, in latency_hiding_fma_gflops: run 0 writes ms[-1], below the
 * array, where the frame has room; the median of runs 1..11 is right, so no test but
 * AddressSanitizer's notices. Needs a GPU to run: without one, built only.
 * expect: sanitizer.host FAIL a WRITE of size 8 at fma_time_below.cu:45 in latency_hiding_fma_gflops; stack variable 'ms'
 */
#define latency_hiding_fma_gflops reference_fma_gflops
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_fma_gflops

extern "C" cudaError_t latency_hiding_fma_gflops(double *gflops) {
    if (gflops == NULL)
        return cudaErrorInvalidValue;
    int sms, dev, threads_per_sm;
    cudaError_t e = sm_count_of_device(&sms);
    if (e == cudaSuccess)
        e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    if (e != cudaSuccess)
        return e;
    const int block = 256, blocks = sms * (threads_per_sm / block) * 4;
    float *d_sink = NULL;
    cudaEvent_t a = NULL, b = NULL;
    double ms[LH_RUNS];
    e = cudaMalloc((void **)&d_sink, sizeof(float));
    if (e == cudaSuccess)
        e = cudaEventCreate(&a);
    if (e == cudaSuccess)
        e = cudaEventCreate(&b);
    for (int r = 0; r <= LH_RUNS && e == cudaSuccess; r++) {
        cudaEventRecord(a);
        lh_fma_kernel<<<blocks, block>>>(FMA_ITERS, d_sink);
        cudaEventRecord(b);
        e = cudaEventSynchronize(b);
        float t = 0;
        if (e == cudaSuccess)
            e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&t, a, b);
        if (r >= 0)
            ms[r - 1] = t; /* the warm-up (r = 0) too */
    }
    if (e == cudaSuccess) {
        const double flop = 2.0 * FMA_CHAINS * FMA_ITERS * (double)blocks * block;
        *gflops = flop / (median_of(ms, LH_RUNS) * 1e-3) / 1e9;
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaFree(d_sink);
    return e;
}
