/* global_bw_time_below.cu - broken lab 06: the warm-up run's time is stored below the array of
 * timings (ms[r - 1] at r = 0), as the mutant of the timing loop that survived */
/* SPDX-License-Identifier: MIT */
/* The loop stores every run's time, the warm-up's too, at ms[r - 1]: run 0 writes ms[-1], a
 * double below the array on the stack, where the frame has room; runs 1..11 fill ms[0..10] as
 * they should, so the median and the figure are right. No measurement or correctness test
 * notices, and memcheck sees device code only. AddressSanitizer does, and names the variable.
 * The run under it needs a GPU (the loop runs after the device is queried): without one, this
 * variant is built only.
 * expect: sanitizer.host FAIL a WRITE of size 8 at global_bw_time_below.cu:50 in latency_hiding_global_gbps; stack variable 'ms'
 */
#define latency_hiding_global_gbps reference_global_gbps
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_global_gbps

extern "C" cudaError_t latency_hiding_global_gbps(double *gbps) {
    if (gbps == NULL)
        return cudaErrorInvalidValue;
    size_t bytes;
    int sms;
    cudaError_t e = beyond_l2_bytes(&bytes);
    if (e == cudaSuccess)
        e = sm_count_of_device(&sms);
    if (e != cudaSuccess)
        return e;
    uint4 *d_in = NULL;
    unsigned *d_sink = NULL;
    cudaEvent_t a = NULL, b = NULL;
    double ms[LH_RUNS];
    e = cudaMalloc((void **)&d_in, bytes);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_sink, sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMemset(d_in, 1, bytes);
    if (e == cudaSuccess)
        e = cudaEventCreate(&a);
    if (e == cudaSuccess)
        e = cudaEventCreate(&b);
    for (int r = 0; r <= LH_RUNS && e == cudaSuccess; r++) {
        cudaEventRecord(a);
        lh_read_kernel<<<sms * 8, 256>>>(d_in, bytes / sizeof(uint4), d_sink);
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
    if (e == cudaSuccess)
        *gbps = (double)bytes / (median_of(ms, LH_RUNS) * 1e-3) / 1e9;
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaFree(d_in);
    cudaFree(d_sink);
    return e;
}
