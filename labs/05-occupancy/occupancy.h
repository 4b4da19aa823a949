/* occupancy.h - the contract of lab 05: how an SM's resources are divided among resident blocks */
/* SPDX-License-Identifier: MIT */
#ifndef OCCUPANCY_H
#define OCCUPANCY_H

#include <cuda_runtime_api.h>
#include <limits.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per warp on every GPU this workbook supports. */
#define OCCUPANCY_WARP_SIZE 32
/* The most registers one thread may use (what nvcc ever assigns). */
#define OCCUPANCY_MAX_REGS_PER_THREAD 255
/* A per-resource limit that does not bind: the resource is not used. */
#define OCCUPANCY_UNLIMITED INT_MAX
/* The largest block and shared-memory request occupancy_calc accepts as
 * input (far beyond any GPU, small enough that no product overflows). */
#define OCCUPANCY_MAX_THREADS_INPUT (1 << 20)
#define OCCUPANCY_MAX_SMEM_INPUT (1 << 30)

/* ---- part 1: the limits of one SM, per compute capability (no GPU) ---- */

/* What an SM of one compute capability holds and how it hands it out.
 * Every field is a positive integer except smem_reserved_per_block (0 or
 * more). README.md, "The limits of an SM", explains each one. */
typedef struct occupancy_arch {
    int cc_major, cc_minor;      /* compute capability, e.g. 8 and 0 */
    int max_threads_per_block;   /* threads one block may have */
    int max_warps_per_sm;        /* warp slots of one SM */
    int max_blocks_per_sm;       /* block slots of one SM */
    int regs_per_sm;             /* 32-bit registers in one SM's register file */
    int regs_per_block;          /* registers one block may hold */
    int reg_alloc_unit;          /* a warp's registers are handed out in multiples of this */
    int reg_partitions;          /* the register file is split evenly among this many
                                    sub-partitions (one per warp scheduler); a warp's
                                    registers all come from one of them */
    int smem_per_sm;             /* bytes of shared memory one SM can give to blocks
                                    (the largest shared-memory carveout) */
    int max_smem_per_block;      /* bytes one block may ask for (with the opt-in
                                    cudaFuncAttributeMaxDynamicSharedMemorySize) */
    int smem_alloc_unit;         /* a block's shared memory is handed out in multiples of this */
    int smem_reserved_per_block; /* bytes the CUDA driver reserves in every block */
} occupancy_arch;

/* Fills *out with the limits of compute capability major.minor and returns
 * 0, for exactly these seven: 7.5, 8.0, 8.6, 8.9, 9.0, 10.0 and 12.0. Returns
 * -1 for any other capability or a NULL out (and writes nothing). Pure host
 * code. Graded without a GPU field by field against the values the grader
 * derives from the toolkit's cuda_occupancy.h for a device of that
 * capability, and with a GPU against the properties of the GPU graded on
 * (README.md, "The limits of an SM"). */
int occupancy_arch_limits(int major, int minor, occupancy_arch *out);

/* ---- part 2: the occupancy calculator (no GPU) ---- */

/* What one block of a kernel asks for. */
typedef struct occupancy_kernel {
    int threads_per_block; /* 1 .. OCCUPANCY_MAX_THREADS_INPUT */
    int regs_per_thread;   /* 0 .. OCCUPANCY_MAX_REGS_PER_THREAD, as cudaFuncGetAttributes
                              reports it (numRegs) */
    int smem_per_block;    /* bytes, 0 .. OCCUPANCY_MAX_SMEM_INPUT: static plus dynamic
                              shared memory, without the driver's reservation */
} occupancy_kernel;

/* Which resources bind: the limits equal to the number of resident blocks
 * (several when they tie). The same bits as cuda_occupancy.h's OCC_LIMIT_*. */
#define OCCUPANCY_LIMIT_WARPS 0x1     /* warp (thread) slots */
#define OCCUPANCY_LIMIT_REGISTERS 0x2 /* the register file */
#define OCCUPANCY_LIMIT_SHARED 0x4    /* shared memory */
#define OCCUPANCY_LIMIT_BLOCKS 0x8    /* block slots */

typedef struct occupancy_result {
    int blocks_per_sm;  /* resident blocks of the kernel on one SM: the least of the four
                           limits below; 0 when the kernel cannot run at all */
    int warps_per_sm;   /* blocks_per_sm x warps per block */
    double occupancy;   /* warps_per_sm / max_warps_per_sm, in 0 .. 1 */
    unsigned limiting;  /* OCCUPANCY_LIMIT_* bits of every limit equal to blocks_per_sm */
    int limit_warps;    /* blocks the warp slots allow (0 when the block has more threads
                           than max_threads_per_block) */
    int limit_regs;     /* blocks the register file allows (0 when one block does not fit;
                           OCCUPANCY_UNLIMITED when the kernel uses no register) */
    int limit_smem;     /* blocks shared memory allows (0 when one block asks for more than
                           max_smem_per_block; OCCUPANCY_UNLIMITED when a block is given
                           no shared memory at all) */
    int limit_blocks;   /* blocks the block slots allow: max_blocks_per_sm */
    int regs_per_block; /* registers given to one block: per warp, threads x registers
                           rounded up to reg_alloc_unit; times the warps of the block */
    int smem_per_block; /* bytes given to one block: its shared memory plus the driver's
                           reservation, rounded up to smem_alloc_unit */
} occupancy_result;

/* Computes how many blocks of kernel k one SM of architecture a holds at
 * once, which resource stops it holding more, and what each block is given,
 * under the rules of README.md, "Resource partitioning" (the rules of the
 * toolkit's cuda_occupancy.h with the default shared-memory carveout and the
 * per-block opt-in). Returns 0 and fills *out; a kernel that cannot run
 * (too many threads, registers or shared memory for one block) is not an
 * error: it gets blocks_per_sm = 0. Returns -1 and writes nothing when a, k
 * or out is NULL, a field of a is not positive (smem_reserved_per_block:
 * negative), or a field of k is outside the range its comment gives
 * (threads_per_block 1 .. OCCUPANCY_MAX_THREADS_INPUT, regs_per_thread
 * 0 .. OCCUPANCY_MAX_REGS_PER_THREAD, smem_per_block 0 ..
 * OCCUPANCY_MAX_SMEM_INPUT). Pure host code.
 *
 * Graded without a GPU against cudaOccMaxActiveBlocksPerMultiprocessor of
 * cuda_occupancy.h on at least 10,000 random kernels per capability of the
 * table, on every block size 1 .. 1024 with every register count 0 .. 255,
 * and on the worked A100 cases of README.md; every field of *out is
 * checked. With a GPU, against cudaOccupancyMaxActiveBlocksPerMultiprocessor
 * for real kernels whose registers come from cudaFuncGetAttributes. */
int occupancy_calc(const occupancy_arch *a, const occupancy_kernel *k, occupancy_result *out);

/* ---- part 3: the register cliff, measured (GPU) ---- */

/* The work: a pointer chase through device memory. Chain c (one warp, 32
 * threads) starts at line d_start[c] of d_next and takes
 * OCCUPANCY_CLIFF_STEPS steps of OCCUPANCY_CLIFF_HOPS dependent hops; a hop
 * reads the first word of the chain's current 128-byte line (every word of
 * a line holds the index of the next line), and each step also folds one
 * row of the small table d_table into two running words. No hop can start
 * before the load of the hop before returns, so the time is the memory
 * latency times the hops, divided by the warps the SMs keep in flight: a
 * latency-bound kernel. */
#define OCCUPANCY_CLIFF_LINE_WORDS 32 /* words of one line of d_next */
#define OCCUPANCY_CLIFF_STEPS 8       /* steps of one chain */
#define OCCUPANCY_CLIFF_HOPS 8        /* dependent hops in one step */
#define OCCUPANCY_CLIFF_ROWS 64       /* rows of d_table; a step uses row (line % ROWS) */
#define OCCUPANCY_CLIFF_ROW_VECS 16   /* 16-byte vectors in a row (64 words) */
#define OCCUPANCY_CLIFF_TABLE_WORDS (OCCUPANCY_CLIFF_ROWS * OCCUPANCY_CLIFF_ROW_VECS * 4)

#ifdef __CUDACC__
#define OCCUPANCY_HD __host__ __device__
#else
#define OCCUPANCY_HD
#endif

/* One 16-byte vector (x, y, z, w) of a table row folded into a running word.
 * The grader's CPU reference uses this same function. */
static OCCUPANCY_HD inline unsigned occupancy_cliff_fold(unsigned s, unsigned x, unsigned y,
                                                         unsigned z, unsigned w) {
    return (s ^ x ^ y) + z + w;
}

/* What a chain writes: its two running words combined. */
static OCCUPANCY_HD inline unsigned occupancy_cliff_result(unsigned s0, unsigned s1) {
    return s0 * 31u + s1;
}

/* Launches the lab's chase kernel on stream for chains 0 .. n_chains-1: one
 * warp per chain (global thread t works for chain t / 32, lane t % 32), with
 * the block size and __launch_bounds__ you choose. Every thread of chain c
 * writes the chain's result to d_out[c * 32 + lane]. Device pointers: d_next
 * (lines x 32 words), d_table (OCCUPANCY_CLIFF_TABLE_WORDS words, 16-byte
 * aligned), d_start (n_chains words), d_out (n_chains x 32 words). Inputs
 * are not changed. Returns cudaErrorInvalidValue for a NULL pointer or
 * n_chains < 1 (nothing launched), else the launch's error.
 *
 * Graded with a GPU: results against the CPU at several sizes; then the
 * kernel's registers and local memory (cudaFuncGetAttributes) must show no
 * spill and an occupancy above the grader's configuration (512-thread
 * blocks, __launch_bounds__(512, 1)); then the speedup over that
 * configuration on 4 waves of chains must reach the limit of README.md,
 * "What is graded". */
cudaError_t occupancy_cliff(const unsigned *d_next, const unsigned *d_table,
                            const unsigned *d_start, unsigned *d_out, int n_chains,
                            cudaStream_t stream);

/* The block size occupancy_cliff launches with, and (in *kernel) the
 * address of the kernel it launches, for cudaFuncGetAttributes and
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor. Returns 0, or -1 for a
 * NULL argument. */
int occupancy_cliff_config(int *block_size, const void **kernel);

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* The chase of one chain, given: the lab's kernel and the grader's kernels
 * all run this same code, so only the launch configuration and the
 * register budget differ between them. */
static __device__ __forceinline__ unsigned occupancy_cliff_chain(const unsigned *__restrict__ next,
                                                                 const uint4 *__restrict__ table,
                                                                 unsigned line, unsigned chain,
                                                                 unsigned lane) {
    unsigned s0 = chain, s1 = chain + 1u;
    (void)lane;
    for (int step = 0; step < OCCUPANCY_CLIFF_STEPS; step++) {
        /* The dependent loads: where the chain goes next (every lane reads
         * the same word, so each hop is one 32-byte sector from memory). */
        unsigned v = line;
        for (int h = 0; h < OCCUPANCY_CLIFF_HOPS; h++)
            v = next[(size_t)v * OCCUPANCY_CLIFF_LINE_WORDS];
        /* Sixteen independent loads of one table row (the same address in
         * every lane, so each is one cached broadcast). The compiler may
         * issue them all at once, holding 64 words in registers, or a few at
         * a time: that choice is the register budget. */
        const uint4 *row = table + (line % OCCUPANCY_CLIFF_ROWS) * OCCUPANCY_CLIFF_ROW_VECS;
        uint4 q[OCCUPANCY_CLIFF_ROW_VECS];
#pragma unroll
        for (int j = 0; j < OCCUPANCY_CLIFF_ROW_VECS; j++)
            q[j] = __ldg(row + j);
#pragma unroll
        for (int j = 0; j < OCCUPANCY_CLIFF_ROW_VECS; j += 2) {
            s0 = occupancy_cliff_fold(s0, q[j].x, q[j].y, q[j].z, q[j].w);
            s1 = occupancy_cliff_fold(s1, q[j + 1].x, q[j + 1].y, q[j + 1].z, q[j + 1].w);
        }
        line = v;
    }
    return occupancy_cliff_result(s0, s1);
}
#endif

#endif
