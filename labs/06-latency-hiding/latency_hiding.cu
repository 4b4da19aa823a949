/* latency_hiding.cu - lab 06: the latency-hidden-factor model, its parameters, ILP */
/* SPDX-License-Identifier: MIT */
/*
 * You edit only this file and answers.txt. The contract (what each function
 * must return, and how it is graded) is in latency_hiding.h; README.md
 * explains the model and the measurements. `make grade LAB=06` grades your
 * work.
 */
#include "latency_hiding.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WARP LATENCY_HIDING_WARP

/* ================================================= part 1: the model */

/* ---- argument checks (given): the contract's -1 cases that are not the model */

static int finite_nonneg(double x) {
    return x >= 0.0 && x < INFINITY; /* false for NaN, negative and infinite values */
}

static int valid_limits(const latency_hiding_gpu *g) {
    return g != NULL && g->sm_count >= 1 && g->max_threads_per_block >= 1 &&
           g->max_threads_per_sm >= 1 && g->max_warps_per_sm >= 1 && g->max_blocks_per_sm >= 1 &&
           g->regs_per_sm >= 1 && g->smem_per_sm >= 0;
}

static int valid_launch(const latency_hiding_gpu *g, const latency_hiding_kernel *k) {
    return valid_limits(g) && k != NULL && k->threads_per_block >= 1 && k->regs_per_thread >= 0 &&
           k->smem_per_block >= 0;
}

static int valid_level(const latency_hiding_gpu *g, const latency_hiding_block *b) {
    return g != NULL && b != NULL && b->level >= LATENCY_HIDING_NONE &&
           b->level <= LATENCY_HIDING_SHARED;
}

static int valid_factor_args(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                             int j) {
    return finite_nonneg(ilp) && finite_nonneg(ilp_next) && finite_nonneg(la) &&
           finite_nonneg(bw) && tlp >= 1 && blp >= 1 && j >= 1 &&
           (long long)j <= (long long)tlp * blp;
}

/* ---- TLP, BLP, RepNum */

int latency_hiding_tlp(const latency_hiding_gpu *g, const latency_hiding_kernel *k) {
    if (!valid_launch(g, k))
        return -1;
    /* TODO(06-latency-hiding): how many warps does one block have, and does it fit on an SM at all?
     * Hint: README.md, "TLP, BLP and RepNum". */
    /* BEGIN STUDENT CODE */
    return 0;
    /* END STUDENT CODE */
}

int latency_hiding_blp(const latency_hiding_gpu *g, const latency_hiding_kernel *k) {
    if (!valid_launch(g, k))
        return -1;
    /* TODO(06-latency-hiding): how many blocks does the scarcest resource of an SM leave room for?
     * Hint: README.md, "TLP, BLP and RepNum". */
    /* BEGIN STUDENT CODE */
    return 0;
    /* END STUDENT CODE */
}

double latency_hiding_rep_num(const latency_hiding_gpu *g, const latency_hiding_kernel *k) {
    if (!valid_launch(g, k))
        return -1.0;
    /* TODO(06-latency-hiding): rounds of BLP blocks on every SM.
     * Hint: README.md, "TLP, BLP and RepNum". */
    /* BEGIN STUDENT CODE */
    return 0.0;
    /* END STUDENT CODE */
}

/* ---- one basic block: ILP_i, MemAccLa_i, MemAccBw_i */

double latency_hiding_ilp(const latency_hiding_gpu *g, const latency_hiding_block *b) {
    if (g == NULL || b == NULL || b->compute < 0 || b->global < 0 || b->shared < 0 ||
        !finite_nonneg(g->compute_cycles) || !finite_nonneg(g->global_issue_cycles) ||
        !finite_nonneg(g->shared_issue_cycles))
        return -1.0;
    /* TODO(06-latency-hiding): one warp's issue time for the block, from each instruction's
     * throughput. Hint: README.md, "Basic blocks and ILP". */
    /* BEGIN STUDENT CODE */
    return 0.0;
    /* END STUDENT CODE */
}

double latency_hiding_mem_la(const latency_hiding_gpu *g, const latency_hiding_block *b) {
    if (!valid_level(g, b))
        return -1.0;
    /* TODO(06-latency-hiding): the latency of the level the block waits on.
     * Hint: README.md, "MemAccLa and MemAccBw". */
    /* BEGIN STUDENT CODE */
    return 0.0;
    /* END STUDENT CODE */
}

double latency_hiding_mem_bw(const latency_hiding_gpu *g, const latency_hiding_block *b) {
    if (!valid_level(g, b) || b->bytes < 0 || (b->bytes > 0 && b->level == LATENCY_HIDING_NONE))
        return -1.0;
    if (b->bytes == 0)
        return 0.0;
    /* TODO(06-latency-hiding): the time a warp's data takes at its SM's share of the bandwidth.
     * Hint: README.md, "MemAccLa and MemAccBw". */
    /* BEGIN STUDENT CODE */
    return 0.0;
    /* END STUDENT CODE */
}

/* ---- the latency-hidden factors */

int latency_hiding_case(double ilp, double ilp_next, double bw) {
    if (!finite_nonneg(ilp) || !finite_nonneg(ilp_next) || !finite_nonneg(bw))
        return -1;
    /* TODO(06-latency-hiding): which of the four cases of section 2.3?
     * Hint: README.md, "The four cases and LatencyHiddenCon". */
    /* BEGIN STUDENT CODE */
    return 0;
    /* END STUDENT CODE */
}

double latency_hiding_con(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                          int j) {
    if (!valid_factor_args(ilp, ilp_next, la, bw, tlp, blp, j))
        return -1.0;
    /* TODO(06-latency-hiding): the merged formula of the four cases.
     * Hint: README.md, "The four cases and LatencyHiddenCon". */
    /* BEGIN STUDENT CODE */
    return 0.0;
    /* END STUDENT CODE */
}

double latency_hiding_syn(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                          int j) {
    if (!valid_factor_args(ilp, ilp_next, la, bw, tlp, blp, j))
        return -1.0;
    /* TODO(06-latency-hiding): the factor when a barrier ends the block.
     * Hint: README.md, "LatencyHiddenSyn". */
    /* BEGIN STUDENT CODE */
    return 0.0;
    /* END STUDENT CODE */
}

/* ---- the time of one repetition, and of the kernel */

double latency_hiding_time_one_rep(const latency_hiding_gpu *g, const latency_hiding_kernel *k,
                                   latency_hiding_sum how) {
    if (!valid_launch(g, k) || k->nbb < 1 || k->bb == NULL ||
        (how != LATENCY_HIDING_PRINTED && how != LATENCY_HIDING_OVERLAPPED))
        return -1.0;
    for (int i = 0; i < k->nbb; i++)
        if (k->bb[i].sync != 0 && k->bb[i].sync != 1)
            return -1.0;
    /* TODO(06-latency-hiding): compute time and exposed waits of every basic block, for one round.
     * Hint: README.md, "TimeOneRep and TimeTotal". */
    /* BEGIN STUDENT CODE */
    return 0.0;
    /* END STUDENT CODE */
}

double latency_hiding_time_total(const latency_hiding_gpu *g, const latency_hiding_kernel *k,
                                 latency_hiding_sum how) {
    /* TODO(06-latency-hiding): the time of all rounds.
     * Hint: README.md, "TimeOneRep and TimeTotal". */
    /* BEGIN STUDENT CODE */
    (void)g;
    (void)k;
    (void)how;
    return 0.0;
    /* END STUDENT CODE */
}

/* ======================= part 2: the matrix multiplies in the model's terms */

static int valid_mm_args(int n, int bs, int regs_per_thread, const latency_hiding_kernel *k,
                         const latency_hiding_block *bb) {
    return k != NULL && bb != NULL && bs >= 1 && bs <= 32 && n >= bs && n % bs == 0 &&
           regs_per_thread >= 0;
}

/* One block, in the order of the struct's fields. */
[[maybe_unused]] static latency_hiding_block mm_block(int compute, int global, int shared,
                                                      int level, int bytes, int sync) {
    latency_hiding_block b = {compute, global, shared, level, bytes, sync};
    return b;
}

int latency_hiding_describe_naive(int n, int bs, int regs_per_thread, latency_hiding_kernel *k,
                                  latency_hiding_block *bb, int cap) {
    if (!valid_mm_args(n, bs, regs_per_thread, k, bb))
        return -1;
    /* TODO(06-latency-hiding): the naive kernel's basic blocks, and its launch.
     * Hint: README.md, "The matrix multiplies in the model's terms". */
    /* BEGIN STUDENT CODE */
    (void)cap;
    return 0;
    /* END STUDENT CODE */
}

int latency_hiding_describe_tiled(int n, int bs, int regs_per_thread, latency_hiding_kernel *k,
                                  latency_hiding_block *bb, int cap) {
    if (!valid_mm_args(n, bs, regs_per_thread, k, bb))
        return -1;
    /* TODO(06-latency-hiding): the tiled kernel's basic blocks, and its launch.
     * Hint: README.md, "The matrix multiplies in the model's terms". */
    /* BEGIN STUDENT CODE */
    (void)cap;
    return 0;
    /* END STUDENT CODE */
}

/* =============================== part 3: microbenchmarks for the parameters */

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

/* TODO(06-latency-hiding): the permutation, the chasing kernel and what they need.
 * Hint: README.md, "Pointer chasing". */
/* BEGIN STUDENT CODE */
/* (your kernels and helpers) */
/* END STUDENT CODE */

cudaError_t latency_hiding_chase_global(latency_hiding_chase *out) {
    if (out == NULL)
        return cudaErrorInvalidValue;
    /* TODO(06-latency-hiding): global-memory latency: one thread, a random cycle larger than the
     * L2. Hint: README.md, "Pointer chasing". */
    /* BEGIN STUDENT CODE */
    memset(out, 0, sizeof *out);
    return cudaSuccess;
    /* END STUDENT CODE */
}

/* ---- pointer chasing: shared memory */

/* TODO(06-latency-hiding): the shared-memory chasing kernel.
 * Hint: README.md, "Pointer chasing". */
/* BEGIN STUDENT CODE */
/* (your kernel) */
/* END STUDENT CODE */

cudaError_t latency_hiding_chase_shared(latency_hiding_chase *out) {
    if (out == NULL)
        return cudaErrorInvalidValue;
    /* TODO(06-latency-hiding): shared-memory latency: one thread, a random cycle in shared memory.
     * Hint: README.md, "Pointer chasing". */
    /* BEGIN STUDENT CODE */
    memset(out, 0, sizeof *out);
    return cudaSuccess;
    /* END STUDENT CODE */
}

/* ---- bandwidth: global memory, whole GPU */

/* TODO(06-latency-hiding): a kernel that streams through global memory.
 * Hint: README.md, "Bandwidth and throughput". */
/* BEGIN STUDENT CODE */
/* (your kernel and helpers) */
/* END STUDENT CODE */

cudaError_t latency_hiding_global_gbps(double *gbps) {
    if (gbps == NULL)
        return cudaErrorInvalidValue;
    /* TODO(06-latency-hiding): bytes read per second by the whole GPU, from a buffer no cache
     * holds. Hint: README.md, "Bandwidth and throughput". */
    /* BEGIN STUDENT CODE */
    *gbps = 0.0;
    return cudaSuccess;
    /* END STUDENT CODE */
}

/* ---- bandwidth: shared memory, one SM */

/* TODO(06-latency-hiding): a kernel that keeps every SM's shared memory busy.
 * Hint: README.md, "Bandwidth and throughput". */
/* BEGIN STUDENT CODE */
/* (your kernel) */
/* END STUDENT CODE */

cudaError_t latency_hiding_shared_bytes_per_cycle(double *bytes_per_cycle) {
    if (bytes_per_cycle == NULL)
        return cudaErrorInvalidValue;
    /* TODO(06-latency-hiding): shared-memory bytes per cycle of one SM.
     * Hint: README.md, "Bandwidth and throughput". */
    /* BEGIN STUDENT CODE */
    *bytes_per_cycle = 0.0;
    return cudaSuccess;
    /* END STUDENT CODE */
}

/* ---- arithmetic throughput */

/* TODO(06-latency-hiding): a kernel of independent FMAs.
 * Hint: README.md, "Bandwidth and throughput". */
/* BEGIN STUDENT CODE */
/* (your kernel) */
/* END STUDENT CODE */

cudaError_t latency_hiding_fma_gflops(double *gflops) {
    if (gflops == NULL)
        return cudaErrorInvalidValue;
    /* TODO(06-latency-hiding): FP32 FMA throughput of the whole GPU.
     * Hint: README.md, "Bandwidth and throughput". */
    /* BEGIN STUDENT CODE */
    *gflops = 0.0;
    return cudaSuccess;
    /* END STUDENT CODE */
}

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

/* ================ part 4: more loads in flight per thread, at low occupancy */

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
