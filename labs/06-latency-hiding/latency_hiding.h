/* latency_hiding.h - the contract of lab 06: ILP, TLP, BLP and the latency-hidden-factor model */
/* SPDX-License-Identifier: MIT */
#ifndef LATENCY_HIDING_H
#define LATENCY_HIDING_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per warp on every GPU this workbook supports; the model uses this
 * constant, not a device query, so it runs without a GPU. */
#define LATENCY_HIDING_WARP 32

/* ====================================================================
 * Part 1: the model (Yuan et al. 2010), pure host code, graded without
 * a GPU against the grader's own implementation (README.md, "The
 * latency-hidden-factor model" and "Reading the paper"). Times are in
 * SM clock cycles. Results must match the grader's to a relative 1e-9.
 * ==================================================================== */

/* Where a basic block's memory access goes. */
typedef enum latency_hiding_level {
    LATENCY_HIDING_NONE = 0,   /* the block waits for no memory */
    LATENCY_HIDING_GLOBAL = 1, /* global memory: MemAccLa = global_latency */
    LATENCY_HIDING_SHARED = 2  /* shared memory: MemAccLa = shared_latency */
} latency_hiding_level;

/* How TimeOneRep combines the exposed waits of the warps of one basic
 * block (README.md, "TimeOneRep and TimeTotal"). */
typedef enum latency_hiding_sum {
    LATENCY_HIDING_PRINTED = 0,   /* the paper's formula as printed: their sum over the warps */
    LATENCY_HIDING_OVERLAPPED = 1 /* the stalls overlap: the largest of them */
} latency_hiding_sum;

/* The model's parameters for one GPU: its limits (from the runtime) and
 * the figures of the paper's Table 2 (from your microbenchmarks).
 * latency_hiding_fill_gpu fills it on the GPU you grade on; the host tests
 * build their own. */
typedef struct latency_hiding_gpu {
    /* limits of one SM and of the GPU (cudaDeviceGetAttribute) */
    int sm_count;              /* NSM */
    int max_threads_per_block; /* cudaDevAttrMaxThreadsPerBlock */
    int max_threads_per_sm;    /* cudaDevAttrMaxThreadsPerMultiProcessor */
    int max_warps_per_sm;      /* max_threads_per_sm / 32 */
    int max_blocks_per_sm;     /* cudaDevAttrMaxBlocksPerMultiprocessor */
    int regs_per_sm;           /* cudaDevAttrMaxRegistersPerMultiprocessor */
    int smem_per_sm;           /* cudaDevAttrMaxSharedMemoryPerMultiprocessor, bytes */
    /* measured (Table 2) */
    double clock_ghz;              /* SM clock while measuring: cycles per ns of the global chase */
    double global_latency;         /* cycles: MemAccLa of a global access (pointer chase) */
    double shared_latency;         /* cycles: MemAccLa of a shared access (pointer chase) */
    double global_gbps;            /* global memory bandwidth of the whole GPU, 1e9 bytes/s */
    double shared_bytes_per_cycle; /* shared memory bandwidth of one SM, bytes per cycle */
    /* Throughput(instruction): cycles one SM spends issuing it for one warp */
    double compute_cycles;      /* an arithmetic, control or barrier instruction */
    double global_issue_cycles; /* a global load or store */
    double shared_issue_cycles; /* a shared load or store */
} latency_hiding_gpu;

/* One basic block of a thread: the instructions between two points where
 * its warp may have to wait (README.md, "Basic blocks and ILP"). */
typedef struct latency_hiding_block {
    int compute; /* arithmetic, control and barrier instructions */
    int global;  /* global load and store instructions */
    int shared;  /* shared load and store instructions */
    int level;   /* latency_hiding_level of the data the block ends waiting for */
    int bytes;   /* DataSize / 32: bytes one thread moves at that level in the block */
    int sync;    /* 1: the block ends in __syncthreads (LatencyHiddenSyn), else 0 */
} latency_hiding_block;

/* A kernel in the model's terms: its launch and its basic blocks. */
typedef struct latency_hiding_kernel {
    int threads_per_block;
    int regs_per_thread;
    int smem_per_block;             /* bytes */
    long long blocks;               /* NB: blocks in the grid */
    int nbb;                        /* NBB: basic blocks per thread */
    const latency_hiding_block *bb; /* bb[0 .. nbb-1], in program order */
} latency_hiding_kernel;

/* TLP: the warps of one block, ceil(threads_per_block / 32), when one
 * block fits on an SM (threads <= max_threads_per_block and
 * max_threads_per_sm, warps <= max_warps_per_sm, regs_per_thread x 32 x
 * warps <= regs_per_sm, smem_per_block <= smem_per_sm); 0 when it does
 * not. -1 for NULL, threads_per_block < 1, regs_per_thread or
 * smem_per_block < 0, sm_count or a limit of g below 1 (smem_per_sm below
 * 0). The checks for -1 are given in the stub. */
int latency_hiding_tlp(const latency_hiding_gpu *g, const latency_hiding_kernel *k);

/* BLP: blocks resident on one SM at once: the smallest of
 * max_blocks_per_sm, max_warps_per_sm / warps, max_threads_per_sm /
 * threads, regs_per_sm / (regs_per_thread x 32 x warps) (when
 * regs_per_thread > 0) and smem_per_sm / smem_per_block (when
 * smem_per_block > 0), in integer division; 0 when a block does not fit,
 * -1 as for latency_hiding_tlp. No allocation granularity (lab 05). */
int latency_hiding_blp(const latency_hiding_gpu *g, const latency_hiding_kernel *k);

/* RepNum = NB / (BLP x NSM), a real number (no rounding). -1 when BLP is
 * 0 or -1, blocks < 1 or sm_count < 1. */
double latency_hiding_rep_num(const latency_hiding_gpu *g, const latency_hiding_kernel *k);

/* ILP_i in cycles: compute x compute_cycles + global x global_issue_cycles
 * + shared x shared_issue_cycles. -1 for NULL, a negative count or a
 * negative or non-finite throughput. */
double latency_hiding_ilp(const latency_hiding_gpu *g, const latency_hiding_block *b);

/* MemAccLa_i in cycles: 0 for LATENCY_HIDING_NONE, global_latency or
 * shared_latency for the others. -1 for NULL, an unknown level, or a
 * negative or non-finite latency. */
double latency_hiding_mem_la(const latency_hiding_gpu *g, const latency_hiding_block *b);

/* MemAccBw_i in cycles: DataSize_i / BandwidthPerSM with DataSize_i =
 * 32 x bytes; BandwidthPerSM = global_gbps / clock_ghz / sm_count bytes
 * per cycle for global memory, shared_bytes_per_cycle for shared memory.
 * 0 when bytes is 0. -1 for NULL, an unknown level, bytes < 0, bytes > 0
 * with LATENCY_HIDING_NONE, or bytes > 0 with a bandwidth (or clock, or
 * sm_count) that is not positive and finite. */
double latency_hiding_mem_bw(const latency_hiding_gpu *g, const latency_hiding_block *b);

/* The case (1-4) of section 2.3 for ILP_i = ilp, ILP_{i+1} = ilp_next and
 * MemAccBw_i = bw: 1 when ilp >= bw and ilp_next >= bw, 2 when ilp >= bw
 * > ilp_next, 3 when both are below bw, 4 when ilp < bw <= ilp_next. -1
 * when any argument is negative or not finite. */
int latency_hiding_case(double ilp, double ilp_next, double bw);

/* LatencyHiddenCon_{i,j}: the share of warp j's wait in basic block i that
 * no other work covers, from the merged formula of the four cases, with
 * W = tlp x blp warps on the SM and the warp's place 1 <= j <= W:
 *
 *   1 - [ilp (W - j) + (j - 1) min(ilp_next, max(ilp, bw))]
 *       / [la + bw + (j - 1) max(0, bw - ilp)],  at least 0.
 *
 * 0 when la + bw is 0 (nothing to wait for). -1 when tlp or blp < 1, j is
 * outside 1..W, or a time is negative or not finite. */
double latency_hiding_con(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                          int j);

/* LatencyHiddenSyn_{i,j}: the same for a block that ends in __syncthreads,
 * with NT = tlp warps per thread block (README.md, "Reading the paper"):
 *
 *   1 - [ilp (W - j) + floor((j-1)/NT) NT min(ilp_next, max(ilp, bw))]
 *       / [la + bw + ceil((j-1)/NT) NT max(0, bw - ilp)],  at least 0.
 *
 * Fails like latency_hiding_con. Equal to it when NT is 1. */
double latency_hiding_syn(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                          int j);

/* TimeOneRep in cycles: the sum over the basic blocks i = 1..NBB of
 * SMComputeTime_i = W x ILP_i and of the exposed waits of the W warps,
 * warp j's being LatencyHidden_{i,j} x MemAccessLatency_{i,j} (the factor
 * of latency_hiding_con, or _syn when the block has sync set, times its
 * own denominator), either summed over j (LATENCY_HIDING_PRINTED) or the
 * largest over j (LATENCY_HIDING_OVERLAPPED). ILP_{NBB+1} is ILP_1. -1 for
 * an invalid gpu, kernel or block (as the functions above), a sync that
 * is not 0 or 1, an unknown how, or a kernel whose block does not fit. */
double latency_hiding_time_one_rep(const latency_hiding_gpu *g, const latency_hiding_kernel *k,
                                   latency_hiding_sum how);

/* TimeTotal = TimeOneRep x RepNum, in cycles. -1 when either is -1. */
double latency_hiding_time_total(const latency_hiding_gpu *g, const latency_hiding_kernel *k,
                                 latency_hiding_sum how);

/* ====================================================================
 * Part 2: the matrix multiplies of the paper in the model's terms. Pure
 * host code. The kernels are the grader's (README.md, "The matrix
 * multiplies in the model's terms"): C = A B for n x n row-major floats,
 * bs x bs threads per block, one thread per element of C.
 * ==================================================================== */

/* Describes the naive kernel (each thread reads a row of A and a column of
 * B from global memory, one element of each per step) for size n and
 * block side bs into *k, its basic blocks into bb[0 .. cap-1]; k->bb
 * points to bb. regs_per_thread is the compiled kernel's (the grader
 * passes cudaFuncGetAttributes' numRegs). Returns NBB, or -1 when a
 * pointer is NULL, bs is not in 1..32, n is not a positive multiple of
 * bs, regs_per_thread < 0, or cap is too small. Graded on what every
 * honest description shares: global instructions and bytes, shared ones,
 * barriers, FMAs, the launch (README.md, "What is graded"). */
int latency_hiding_describe_naive(int n, int bs, int regs_per_thread, latency_hiding_kernel *k,
                                  latency_hiding_block *bb, int cap);

/* The same for the tiled kernel (CUBLAS 1.1 style: per tile of bs columns,
 * each thread stores one element of A and one of B into shared memory, a
 * barrier, bs multiply-adds from shared memory, a barrier). */
int latency_hiding_describe_tiled(int n, int bs, int regs_per_thread, latency_hiding_kernel *k,
                                  latency_hiding_block *bb, int cap);

/* ====================================================================
 * Part 3: microbenchmarks for the model's parameters, on the current
 * device. Each returns the first CUDA error, cudaSuccess otherwise
 * (cudaErrorInvalidValue for a NULL pointer) and waits for its kernels. It
 * should free what it allocated; that is not graded (the driver's own
 * allocations at a kernel's first launch hide a leak from any check the
 * grader could make). The grader runs its own benchmarks in the same
 * process and checks your figures within the tolerances of README.md,
 * "What is graded".
 * ==================================================================== */

/* One pointer-chasing measurement: a single thread follows a random
 * cyclic permutation, each load's address being the value the previous
 * load returned. */
typedef struct latency_hiding_chase {
    double cycles_per_hop;  /* clock64() cycles over the timed hops / hops */
    double ns_per_hop;      /* %globaltimer nanoseconds over the timed hops / hops */
    long long hops;         /* dependent loads timed */
    size_t footprint_bytes; /* bytes of memory the permutation spreads over */
} latency_hiding_chase;

/* Global memory: a footprint of at least 4 times the L2 cache (each hop
 * lands on a different line), at least 100,000 timed hops. */
cudaError_t latency_hiding_chase_global(latency_hiding_chase *out);

/* Shared memory: a permutation of 4 KB to 48 KB held in shared memory, at
 * least 100,000 timed hops. */
cudaError_t latency_hiding_chase_shared(latency_hiding_chase *out);

/* Global memory bandwidth of the whole GPU in GB/s (1e9 bytes/s) of bytes
 * read, streaming over a buffer of at least 4 times the L2 cache. */
cudaError_t latency_hiding_global_gbps(double *gbps);

/* Shared memory bandwidth of one SM in bytes per SM clock cycle, read by
 * enough warps on every SM at once to saturate it. In the grader's
 * sanitizer runs of it (sanitizer.shared_bw, shared_bw_sync) the runtime
 * reports at most 8 SMs: a grid sized by the SM count is then 8 blocks,
 * each checked like any other, and the run is shorter. */
cudaError_t latency_hiding_shared_bytes_per_cycle(double *bytes_per_cycle);

/* FP32 fused multiply-add throughput of the whole GPU in GFLOP/s (one FMA
 * is 2 FLOP), enough warps and independent FMAs to saturate it. */
cudaError_t latency_hiding_fma_gflops(double *gflops);

/* Fills *g for the current device: its limits from the runtime, clock_ghz
 * = cycles_per_hop / ns_per_hop of your global chase, the two latencies,
 * the two bandwidths, and the three throughputs by the paper's general
 * rule, ThreadsPerWarp / CoresPerSM, with CoresPerSM = FMAs per cycle per
 * SM from your FMA throughput: compute_cycles = global_issue_cycles =
 * shared_issue_cycles = 64 x sm_count x clock_ghz / gflops. */
cudaError_t latency_hiding_fill_gpu(latency_hiding_gpu *g);

/* ====================================================================
 * Part 4: more independent loads per thread at a fixed, low occupancy.
 * ==================================================================== */

/* Threads per block of the ILP task; the grid is one block per SM. */
#define LATENCY_HIDING_ILP_THREADS 64

/* With T = sm_count x 64 threads, thread t writes d_out[t] = the sum,
 * modulo 2^32, of d_in[t + k T] for every k >= 0 with t + k T < n.
 * Device pointers: d_in (n values, not changed), d_out (T values).
 * Launched asynchronously on stream with one block of 64 threads per SM
 * (the launch is given). Returns cudaErrorInvalidValue for a NULL pointer
 * or n = 0 (nothing launched), else the launch's error. Timed at n = 2^26
 * against the grader's kernel that keeps one load in flight per thread:
 * the speedup must reach the limit of README.md, "What is graded". */
cudaError_t latency_hiding_ilp_sum(const unsigned *d_in, size_t n, unsigned *d_out,
                                   cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
