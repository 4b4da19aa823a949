/* latency_hiding.h - the contract of lab 06: latency, bandwidth and throughput measured, ILP */
/* SPDX-License-Identifier: MIT */
#ifndef LATENCY_HIDING_H
#define LATENCY_HIDING_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per warp on every GPU this workbook supports. */
#define LATENCY_HIDING_WARP 32

/* The parameters of the latency-hidden-factor model (Yuan et al. 2010,
 * lab 07) for one GPU: its limits (from the runtime) and the figures of
 * the paper's Table 2 (from your microbenchmarks below). Times are in SM
 * clock cycles. latency_hiding_fill_gpu fills it on the GPU you grade on. */
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

/* ====================================================================
 * Part 1: microbenchmarks for the model's parameters, on the current
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
 * Part 2: more independent loads per thread at a fixed, low occupancy.
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
