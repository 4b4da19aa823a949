/* latency_model.h - the contract of lab 07: the latency-hidden-factor model and its predictions */
/* SPDX-License-Identifier: MIT */
#ifndef LATENCY_MODEL_H
#define LATENCY_MODEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per warp on every GPU this workbook supports; the model uses this
 * constant, not a device query, so it runs without a GPU. */
#define LATENCY_MODEL_WARP 32

/* ====================================================================
 * Part 1: the model (Yuan et al. 2010), pure host code, graded without
 * a GPU against the grader's own implementation (README.md, "The
 * latency-hidden-factor model" and "Reading the paper"). Times are in
 * SM clock cycles. Results must match the grader's to a relative 1e-9.
 * ==================================================================== */

/* Where a basic block's memory access goes. */
typedef enum latency_model_level {
    LATENCY_MODEL_NONE = 0,   /* the block waits for no memory */
    LATENCY_MODEL_GLOBAL = 1, /* global memory: MemAccLa = global_latency */
    LATENCY_MODEL_SHARED = 2  /* shared memory: MemAccLa = shared_latency */
} latency_model_level;

/* How TimeOneRep combines the exposed waits of the warps of one basic
 * block (README.md, "TimeOneRep and TimeTotal"). */
typedef enum latency_model_sum {
    LATENCY_MODEL_PRINTED = 0,   /* the paper's formula as printed: their sum over the warps */
    LATENCY_MODEL_OVERLAPPED = 1 /* the stalls overlap: the largest of them */
} latency_model_sum;

/* The model's parameters for one GPU: its limits (from the runtime) and
 * the figures of the paper's Table 2 (the latencies, bandwidths and
 * throughputs lab 06 measures). For predict.rank the grader fills it on
 * the GPU you grade on with its own measurements; the host tests build
 * their own. The fields are those of lab 06's latency_hiding_gpu. */
typedef struct latency_model_gpu {
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
} latency_model_gpu;

/* One basic block of a thread: the instructions between two points where
 * its warp may have to wait (README.md, "Basic blocks and ILP"). */
typedef struct latency_model_block {
    int compute; /* arithmetic, control and barrier instructions */
    int global;  /* global load and store instructions */
    int shared;  /* shared load and store instructions */
    int level;   /* latency_model_level of the data the block ends waiting for */
    int bytes;   /* DataSize / 32: bytes one thread moves at that level in the block */
    int sync;    /* 1: the block ends in __syncthreads (LatencyHiddenSyn), else 0 */
} latency_model_block;

/* A kernel in the model's terms: its launch and its basic blocks. */
typedef struct latency_model_kernel {
    int threads_per_block;
    int regs_per_thread;
    int smem_per_block;            /* bytes */
    long long blocks;              /* NB: blocks in the grid */
    int nbb;                       /* NBB: basic blocks per thread */
    const latency_model_block *bb; /* bb[0 .. nbb-1], in program order */
} latency_model_kernel;

/* TLP: the warps of one block, ceil(threads_per_block / 32), when one
 * block fits on an SM (threads <= max_threads_per_block and
 * max_threads_per_sm, warps <= max_warps_per_sm, regs_per_thread x 32 x
 * warps <= regs_per_sm, smem_per_block <= smem_per_sm); 0 when it does
 * not. -1 for NULL, threads_per_block < 1, regs_per_thread or
 * smem_per_block < 0, sm_count or a limit of g below 1 (smem_per_sm below
 * 0). The checks for -1 are given in the stub. */
int latency_model_tlp(const latency_model_gpu *g, const latency_model_kernel *k);

/* BLP: blocks resident on one SM at once: the smallest of
 * max_blocks_per_sm, max_warps_per_sm / warps, max_threads_per_sm /
 * threads, regs_per_sm / (regs_per_thread x 32 x warps) (when
 * regs_per_thread > 0) and smem_per_sm / smem_per_block (when
 * smem_per_block > 0), in integer division; 0 when a block does not fit,
 * -1 as for latency_model_tlp. No allocation granularity (lab 05). */
int latency_model_blp(const latency_model_gpu *g, const latency_model_kernel *k);

/* RepNum = NB / (BLP x NSM), a real number (no rounding). -1 when BLP is
 * 0 or -1, blocks < 1 or sm_count < 1. */
double latency_model_rep_num(const latency_model_gpu *g, const latency_model_kernel *k);

/* ILP_i in cycles: compute x compute_cycles + global x global_issue_cycles
 * + shared x shared_issue_cycles. -1 for NULL, a negative count or a
 * negative or non-finite throughput. */
double latency_model_ilp(const latency_model_gpu *g, const latency_model_block *b);

/* MemAccLa_i in cycles: 0 for LATENCY_MODEL_NONE, global_latency or
 * shared_latency for the others. -1 for NULL, an unknown level, or a
 * negative or non-finite latency. */
double latency_model_mem_la(const latency_model_gpu *g, const latency_model_block *b);

/* MemAccBw_i in cycles: DataSize_i / BandwidthPerSM with DataSize_i =
 * 32 x bytes; BandwidthPerSM = global_gbps / clock_ghz / sm_count bytes
 * per cycle for global memory, shared_bytes_per_cycle for shared memory.
 * 0 when bytes is 0. -1 for NULL, an unknown level, bytes < 0, bytes > 0
 * with LATENCY_MODEL_NONE, or bytes > 0 with a bandwidth (or clock, or
 * sm_count) that is not positive and finite. */
double latency_model_mem_bw(const latency_model_gpu *g, const latency_model_block *b);

/* The case (1-4) of section 2.3 for ILP_i = ilp, ILP_{i+1} = ilp_next and
 * MemAccBw_i = bw: 1 when ilp >= bw and ilp_next >= bw, 2 when ilp >= bw
 * > ilp_next, 3 when both are below bw, 4 when ilp < bw <= ilp_next. -1
 * when any argument is negative or not finite. */
int latency_model_case(double ilp, double ilp_next, double bw);

/* LatencyHiddenCon_{i,j}: the share of warp j's wait in basic block i that
 * no other work covers, from the merged formula of the four cases, with
 * W = tlp x blp warps on the SM and the warp's place 1 <= j <= W:
 *
 *   1 - [ilp (W - j) + (j - 1) min(ilp_next, max(ilp, bw))]
 *       / [la + bw + (j - 1) max(0, bw - ilp)],  at least 0.
 *
 * 0 when la + bw is 0 (nothing to wait for). -1 when tlp or blp < 1, j is
 * outside 1..W, or a time is negative or not finite. */
double latency_model_con(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                         int j);

/* LatencyHiddenSyn_{i,j}: the same for a block that ends in __syncthreads,
 * with NT = tlp warps per thread block (README.md, "Reading the paper"):
 *
 *   1 - [ilp (W - j) + floor((j-1)/NT) NT min(ilp_next, max(ilp, bw))]
 *       / [la + bw + ceil((j-1)/NT) NT max(0, bw - ilp)],  at least 0.
 *
 * Fails like latency_model_con. Equal to it when NT is 1. */
double latency_model_syn(double ilp, double ilp_next, double la, double bw, int tlp, int blp,
                         int j);

/* TimeOneRep in cycles: the sum over the basic blocks i = 1..NBB of
 * SMComputeTime_i = W x ILP_i and of the exposed waits of the W warps,
 * warp j's being LatencyHidden_{i,j} x MemAccessLatency_{i,j} (the factor
 * of latency_model_con, or _syn when the block has sync set, times its
 * own denominator), either summed over j (LATENCY_MODEL_PRINTED) or the
 * largest over j (LATENCY_MODEL_OVERLAPPED). ILP_{NBB+1} is ILP_1. -1 for
 * an invalid gpu, kernel or block (as the functions above), a sync that
 * is not 0 or 1, an unknown how, or a kernel whose block does not fit. */
double latency_model_time_one_rep(const latency_model_gpu *g, const latency_model_kernel *k,
                                  latency_model_sum how);

/* TimeTotal = TimeOneRep x RepNum, in cycles. -1 when either is -1. */
double latency_model_time_total(const latency_model_gpu *g, const latency_model_kernel *k,
                                latency_model_sum how);

/* ====================================================================
 * Part 2: the three matrix multiplies of the paper in the model's terms.
 * Pure host code. The kernels are the grader's (README.md, "The matrix
 * multiplies in the model's terms"): C = A B for n x n row-major floats;
 * the naive and tiled ones with bs x bs threads per block, one thread per
 * element of C.
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
int latency_model_describe_naive(int n, int bs, int regs_per_thread, latency_model_kernel *k,
                                 latency_model_block *bb, int cap);

/* The same for the tiled kernel (CUBLAS 1.1 style: per tile of bs columns,
 * each thread stores one element of A and one of B into shared memory, a
 * barrier, bs multiply-adds from shared memory, a barrier). */
int latency_model_describe_tiled(int n, int bs, int regs_per_thread, latency_model_kernel *k,
                                 latency_model_block *bb, int cap);

/* The same for Volkov and Demmel's kernel (2008; README.md, "Volkov's
 * matrix multiply"): blocks of 16 x 4 threads, each thread 16 elements of
 * C in registers; per step of 16 along k, the block stages a 16 x 16 tile
 * in shared memory (4 elements a thread), a barrier, then 16 times one
 * element from global memory into a register and 16 multiply-adds with a
 * row of the tile, a barrier; at the end 16 stores of C. The block shape
 * is fixed, so there is no bs. Returns NBB, or -1 when a pointer is NULL,
 * n is not a positive multiple of 64, regs_per_thread < 0, or cap is too
 * small. Graded like the other two. */
int latency_model_describe_volkov(int n, int regs_per_thread, latency_model_kernel *k,
                                  latency_model_block *bb, int cap);

#ifdef __cplusplus
}
#endif
#endif
