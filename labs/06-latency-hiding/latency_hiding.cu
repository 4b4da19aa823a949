/* latency_hiding.cu - lab 06: latency, bandwidth and throughput measured; ILP at low occupancy */
/* SPDX-License-Identifier: MIT */
/*
 * You edit only this file and answers.txt. The contract (what each function
 * must return, and how it is graded) is in latency_hiding.h; README.md
 * explains the measurements and the ILP task. `make grade LAB=06` grades
 * your work.
 */
#include "latency_hiding.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WARP LATENCY_HIDING_WARP

/* =============================== part 1: microbenchmarks for the parameters */

/* %globaltimer: a nanosecond clock shared by all SMs (given). */
[[maybe_unused]] static __device__ __forceinline__ unsigned long long lh_globaltimer(void) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* A small random generator for the host (xorshift64*), given. */
[[maybe_unused]] static unsigned long long lh_random(unsigned long long *state) {
    unsigned long long x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1dULL;
}

/* ---- pointer chasing: global memory */

/* TODO(06-latency-hiding): global-memory latency: one thread, a random cycle larger than the
 * L2; the permutation, the chasing kernel, what they need, and latency_hiding_chase_global
 * (its NULL check is given). Hint: README.md, "Pointer chasing". */
/* BEGIN STUDENT CODE */
/* (your kernels and helpers) */

cudaError_t latency_hiding_chase_global(latency_hiding_chase *out) {
    if (out == NULL)
        return cudaErrorInvalidValue;
    memset(out, 0, sizeof *out);
    return cudaSuccess;
}
/* END STUDENT CODE */

/* ---- pointer chasing: shared memory */

/* TODO(06-latency-hiding): shared-memory latency: one thread, a random cycle in shared
 * memory; the chasing kernel and latency_hiding_chase_shared (its NULL check is given).
 * Hint: README.md, "Pointer chasing". */
/* BEGIN STUDENT CODE */
/* (your kernel) */

cudaError_t latency_hiding_chase_shared(latency_hiding_chase *out) {
    if (out == NULL)
        return cudaErrorInvalidValue;
    memset(out, 0, sizeof *out);
    return cudaSuccess;
}
/* END STUDENT CODE */

/* ---- bandwidth: global memory, whole GPU */

/* TODO(06-latency-hiding): bytes read per second by the whole GPU, from a buffer no cache
 * holds: a streaming kernel and latency_hiding_global_gbps (its NULL check is given).
 * Hint: README.md, "Bandwidth and throughput". */
/* BEGIN STUDENT CODE */
/* (your kernel and helpers) */

cudaError_t latency_hiding_global_gbps(double *gbps) {
    if (gbps == NULL)
        return cudaErrorInvalidValue;
    *gbps = 0.0;
    return cudaSuccess;
}
/* END STUDENT CODE */

/* ---- bandwidth: shared memory, one SM */

/* TODO(06-latency-hiding): shared-memory bytes per cycle of one SM: a kernel that keeps
 * every SM's shared memory busy and latency_hiding_shared_bytes_per_cycle (its NULL check
 * is given). Hint: README.md, "Bandwidth and throughput". */
/* BEGIN STUDENT CODE */
/* (your kernel) */

cudaError_t latency_hiding_shared_bytes_per_cycle(double *bytes_per_cycle) {
    if (bytes_per_cycle == NULL)
        return cudaErrorInvalidValue;
    *bytes_per_cycle = 0.0;
    return cudaSuccess;
}
/* END STUDENT CODE */

/* ---- arithmetic throughput */

/* TODO(06-latency-hiding): FP32 FMA throughput of the whole GPU: a kernel of independent
 * FMAs and latency_hiding_fma_gflops (its NULL check is given).
 * Hint: README.md, "Bandwidth and throughput". */
/* BEGIN STUDENT CODE */
/* (your kernel) */

cudaError_t latency_hiding_fma_gflops(double *gflops) {
    if (gflops == NULL)
        return cudaErrorInvalidValue;
    *gflops = 0.0;
    return cudaSuccess;
}
/* END STUDENT CODE */

/* ---- all of it, into the model's parameters */

cudaError_t latency_hiding_fill_gpu(latency_hiding_gpu *g) {
    if (g == NULL)
        return cudaErrorInvalidValue;
    /* TODO(06-latency-hiding): the model's parameters for this GPU, from your measurements.
     * Hint: README.md, "Filling the parameters". */
    /* BEGIN STUDENT CODE */
    memset(g, 0, sizeof *g);
    return cudaSuccess;
    /* END STUDENT CODE */
}

/* ================ part 2: more loads in flight per thread, at low occupancy */

/* Thread t adds up d_in[t], d_in[t + T], d_in[t + 2T], ... (T threads in
 * all). With two warps per SM, the memory sees only as many requests at a
 * time as the threads keep in flight. */
__global__ void latency_hiding_ilp_kernel(const unsigned *in, size_t n, unsigned *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned sum = 0;
/* TODO(06-latency-hiding): keep more loads in flight per thread.
 * Hint: README.md, "More loads in flight per thread". */
/* BEGIN STUDENT CODE */
#pragma unroll 1
    for (size_t i = t; i < n; i += stride)
        sum += in[i]; /* one load in flight: the warp waits for each */
    /* END STUDENT CODE */
    out[t] = sum;
}

cudaError_t latency_hiding_ilp_sum(const unsigned *d_in, size_t n, unsigned *d_out,
                                   cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || n == 0)
        return cudaErrorInvalidValue;
    int dev, sms;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess)
        return e;
    /* The occupancy is fixed: one block of 64 threads per SM, two warps. */
    latency_hiding_ilp_kernel<<<sms, LATENCY_HIDING_ILP_THREADS, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
