/* pf_baseline.cu - lab 09's grader-owned kernels: the plain loop, and what makes it latency-bound
 */
/* SPDX-License-Identifier: MIT */
#include "prefetching.h"

#include <cuda_runtime.h>
#include <stdlib.h>

/* ------------------------------------------------------------ the baseline */

/* The plain grid-stride loop the variants are measured against: one load,
 * then the whole dependent chain of work, then one store, one element at a
 * time. `#pragma unroll 1` and the store between two loads (which may
 * alias the next load, as far as the compiler knows) keep it that way: the
 * next load is issued only after this element is done. */
__global__ void __launch_bounds__(PREFETCHING_BLOCK)
    pf_baseline_kernel(const float *in, float *out, int n) {
    const int first = (int)(blockIdx.x * PREFETCHING_BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * PREFETCHING_BLOCK);
#pragma unroll 1
    for (int i = first; i < n; i += stride)
        out[i] = prefetching_work(in[i]);
}

/* The contract's launch: `blocks` blocks of 256 threads on stream. */
extern "C" int pf_baseline_run(const float *d_in, float *d_out, int n, int blocks, void *stream) {
    pf_baseline_kernel<<<blocks, PREFETCHING_BLOCK, 0, (cudaStream_t)stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}

/* ----------------------------------------- why the baseline is latency-bound */

/* One thread follows a chain of dependent loads through a buffer well
 * beyond the L2 cache: each load's address is the previous load's value,
 * so nothing overlaps and the time per hop is the load latency. __ldcg
 * skips L1. */
__global__ void pf_chase_kernel(const unsigned *next, int hops, unsigned *sink, long long *cycles) {
    unsigned p = 0;
    long long t0 = clock64();
    for (int h = 0; h < hops; h++)
        p = __ldcg(&next[p]);
    long long t1 = clock64();
    *sink = p;
    *cycles = t1 - t0;
}

/* DRAM load latency in SM clock cycles: a random cycle through 65,536
 * nodes 1 KiB apart (64 MiB), 4,096 hops after the L2 has been flushed by
 * writing 128 MiB elsewhere. Returns a cudaError_t value. */
extern "C" int pf_measure_latency(double *cycles_per_load) {
    const int nodes = 65536, spacing = 256, hops = 4096; /* spacing in words: 1 KiB */
    size_t words = (size_t)nodes * spacing;
    unsigned *h = (unsigned *)calloc(words, sizeof(unsigned)), *d = NULL, *sink = NULL;
    int *perm = (int *)malloc(sizeof(int) * nodes);
    long long *d_cycles = NULL, cycles = 0;
    void *flush = NULL;
    if (!h || !perm) {
        free(h);
        free(perm);
        return cudaErrorMemoryAllocation;
    }
    /* Sattolo's shuffle: one cycle through all nodes, in a fixed order. */
    unsigned s = 12345u;
    for (int i = 0; i < nodes; i++)
        perm[i] = i;
    for (int i = nodes - 1; i > 0; i--) {
        s = s * 1664525u + 1013904223u;
        int j = (int)((s >> 8) % (unsigned)i), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 0; i < nodes; i++)
        h[(size_t)i * spacing] = (unsigned)((size_t)perm[i] * spacing);
    cudaError_t e = cudaMalloc((void **)&d, words * sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&sink, sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_cycles, sizeof(long long));
    if (e == cudaSuccess)
        e = cudaMalloc(&flush, (size_t)128 << 20);
    if (e == cudaSuccess)
        e = cudaMemcpy(d, h, words * sizeof(unsigned), cudaMemcpyHostToDevice);
    /* Twice: the first round warms the TLB and instruction cache; the flush
     * before each makes every hop of the second a DRAM access again. */
    for (int round = 0; e == cudaSuccess && round < 2; round++) {
        e = cudaMemset(flush, round, (size_t)128 << 20);
        if (e == cudaSuccess) {
            pf_chase_kernel<<<1, 1>>>(d, hops, sink, d_cycles);
            e = cudaGetLastError();
        }
        if (e == cudaSuccess)
            e = cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost);
    }
    if (e == cudaSuccess)
        *cycles_per_load = (double)cycles / hops;
    cudaFree(d);
    cudaFree(sink);
    cudaFree(d_cycles);
    cudaFree(flush);
    free(h);
    free(perm);
    return e;
}

/* The work of one element with no load before it, at the baseline's
 * occupancy: each element's chain starts from the last one's result, as
 * the baseline's chains follow one another. */
__global__ void __launch_bounds__(PREFETCHING_BLOCK)
    pf_work_kernel(int elements, float *sink, long long *cycles) {
    float x = threadIdx.x * 1e-3f;
    long long t0 = clock64();
#pragma unroll 1
    for (int k = 0; k < elements; k++)
        x = prefetching_work(x);
    long long t1 = clock64();
    sink[blockIdx.x * PREFETCHING_BLOCK + threadIdx.x] = x;
    if (threadIdx.x == 0)
        cycles[blockIdx.x] = t1 - t0;
}

static int cmp_ll(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* SM cycles per element of the work chain with `blocks` blocks of 256
 * threads (the median over blocks). Returns a cudaError_t value. */
extern "C" int pf_measure_work(int blocks, double *cycles_per_element) {
    const int elements = 512;
    float *sink = NULL;
    long long *d = NULL, *h = (long long *)malloc(sizeof(long long) * (size_t)blocks);
    if (!h)
        return cudaErrorMemoryAllocation;
    cudaError_t e = cudaMalloc((void **)&sink, sizeof(float) * (size_t)blocks * PREFETCHING_BLOCK);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d, sizeof(long long) * (size_t)blocks);
    for (int round = 0; e == cudaSuccess && round < 2; round++) {
        pf_work_kernel<<<blocks, PREFETCHING_BLOCK>>>(elements, sink, d);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaMemcpy(h, d, sizeof(long long) * (size_t)blocks, cudaMemcpyDeviceToHost);
    }
    if (e == cudaSuccess) {
        qsort(h, (size_t)blocks, sizeof *h, cmp_ll);
        *cycles_per_element = (double)h[blocks / 2] / elements;
    }
    cudaFree(sink);
    cudaFree(d);
    free(h);
    return e;
}

__global__ void pf_spin_kernel(long long cycles, long long *out) {
    long long t0 = clock64(), t = t0;
    while (t - t0 < cycles)
        t = clock64();
    *out = t - t0;
}

/* The SM clock while a kernel runs, in MHz: clock64 cycles of a spinning
 * kernel over its CUDA-event time, so that cycles and milliseconds can be
 * compared. Returns a cudaError_t value. */
extern "C" int pf_measure_clock(double *mhz) {
    long long *d = NULL, cycles = 0;
    cudaEvent_t a = NULL, b = NULL;
    float ms = 0;
    cudaError_t e = cudaMalloc((void **)&d, sizeof(long long));
    if (e == cudaSuccess)
        e = cudaEventCreate(&a);
    if (e == cudaSuccess)
        e = cudaEventCreate(&b);
    for (int round = 0; e == cudaSuccess && round < 2; round++) {
        cudaEventRecord(a, 0);
        pf_spin_kernel<<<1, 1>>>(20000000LL, d);
        cudaEventRecord(b, 0);
        e = cudaEventSynchronize(b);
        if (e == cudaSuccess)
            e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&ms, a, b);
        if (e == cudaSuccess)
            e = cudaMemcpy(&cycles, d, sizeof cycles, cudaMemcpyDeviceToHost);
    }
    if (e == cudaSuccess)
        *mhz = ms > 0 ? (double)cycles / (ms * 1e3) : 0;
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaFree(d);
    return e;
}
