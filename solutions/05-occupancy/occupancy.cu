/* occupancy.cu - lab 05: the limits of an SM, an occupancy calculator, and a register cliff */
/* SPDX-License-Identifier: MIT */
/*
 * You edit only this file and answers.txt. The contract (what each function
 * must return, and how it is graded) is in occupancy.h; README.md explains
 * the background. `make grade LAB=05` grades your work.
 */
#include "occupancy.h"

#include <cuda_runtime.h>
#include <stddef.h>

#define WARP OCCUPANCY_WARP_SIZE

/* ------------------------------------- part 1: the limits of an SM */

/* One row per compute capability. */
static const occupancy_arch arch_table[] = {
    /* TODO(05-occupancy): the limits of each of the seven capabilities.
     * Hint: README.md, "The limits of an SM". */
    /* BEGIN STUDENT CODE */
    /* Field order: cc_major, cc_minor, max_threads_per_block,
     * max_warps_per_sm, max_blocks_per_sm, regs_per_sm, regs_per_block,
     * reg_alloc_unit, reg_partitions, smem_per_sm, max_smem_per_block,
     * smem_alloc_unit, smem_reserved_per_block.
     *
     * Every SM since Volta has a 64K-register file split among four warp
     * schedulers, and hands registers out 256 at a time per warp. What
     * differs: the warp and block slots (Turing and the consumer parts keep
     * fewer), how much of the unified L1/shared array may become shared
     * memory, and, from Ampere on, 1 KB the driver keeps in every block and a
     * 128-byte shared-memory granule instead of 256. */
    {7, 5, 1024, 32, 16, 65536, 65536, 256, 4, 64 * 1024, 64 * 1024, 256, 0},       /* Turing */
    {8, 0, 1024, 64, 32, 65536, 65536, 256, 4, 164 * 1024, 163 * 1024, 128, 1024},  /* A100 */
    {8, 6, 1024, 48, 16, 65536, 65536, 256, 4, 100 * 1024, 99 * 1024, 128, 1024},   /* GA10x */
    {8, 9, 1024, 48, 24, 65536, 65536, 256, 4, 100 * 1024, 99 * 1024, 128, 1024},   /* Ada */
    {9, 0, 1024, 64, 32, 65536, 65536, 256, 4, 228 * 1024, 227 * 1024, 128, 1024},  /* Hopper */
    {10, 0, 1024, 64, 32, 65536, 65536, 256, 4, 228 * 1024, 227 * 1024, 128, 1024}, /* B200 */
    {12, 0, 1024, 48, 24, 65536, 65536, 256, 4, 100 * 1024, 99 * 1024, 128, 1024},  /* RTX 50 */
    /* END STUDENT CODE */
};

int occupancy_arch_limits(int major, int minor, occupancy_arch *out) {
    if (out == NULL)
        return -1;
    for (size_t i = 0; i < sizeof arch_table / sizeof arch_table[0]; i++)
        if (arch_table[i].cc_major == major && arch_table[i].cc_minor == minor) {
            *out = arch_table[i];
            return 0;
        }
    return -1;
}

/* ------------------------------------- part 2: the occupancy calculator */

static int round_up(int x, int unit) {
    return (x + unit - 1) / unit * unit;
}

/* Warps of one block: a partial warp is a whole warp (lab 02). */
static int warps_per_block(const occupancy_kernel *k) {
    return round_up(k->threads_per_block, WARP) / WARP;
}

/* 1 when a and k describe something the calculator can judge, else 0. */
static int valid_input(const occupancy_arch *a, const occupancy_kernel *k) {
    /* TODO(05-occupancy): which architectures and kernels are valid?
     * Hint: README.md, "The contract". */
    /* BEGIN STUDENT CODE */
    /* Every unit and capacity is a divisor or a divisor's numerator
     * somewhere below: a zero would divide by zero, a negative would
     * turn a limit negative. Only the driver's reservation may be 0. */
    if (a->max_threads_per_block <= 0 || a->max_warps_per_sm <= 0 || a->max_blocks_per_sm <= 0 ||
        a->regs_per_sm <= 0 || a->regs_per_block <= 0 || a->reg_alloc_unit <= 0 ||
        a->reg_partitions <= 0 || a->smem_per_sm <= 0 || a->max_smem_per_block <= 0 ||
        a->smem_alloc_unit <= 0 || a->smem_reserved_per_block < 0)
        return 0;
    return k->threads_per_block >= 1 && k->threads_per_block <= OCCUPANCY_MAX_THREADS_INPUT &&
           k->regs_per_thread >= 0 && k->regs_per_thread <= OCCUPANCY_MAX_REGS_PER_THREAD &&
           k->smem_per_block >= 0 && k->smem_per_block <= OCCUPANCY_MAX_SMEM_INPUT;
    /* END STUDENT CODE */
}

/* Blocks the SM's warp slots hold; warps: the warps of one block. */
static int blocks_by_warps(const occupancy_arch *a, const occupancy_kernel *k, int warps) {
    /* TODO(05-occupancy): how many blocks fit in the warp slots?
     * Hint: README.md, "Thread and block slots". */
    /* BEGIN STUDENT CODE */
    /* A block too large to launch at all fits zero times. Otherwise the
     * slots are counted in whole warps: a partial warp takes a full slot. */
    if (k->threads_per_block > a->max_threads_per_block)
        return 0;
    return a->max_warps_per_sm / warps;
    /* END STUDENT CODE */
}

/* Blocks the register file holds; *regs_out: registers one block is given. */
static int blocks_by_registers(const occupancy_arch *a, const occupancy_kernel *k, int warps,
                               int *regs_out) {
    /* TODO(05-occupancy): how many blocks fit in the register file?
     * Hint: README.md, "Registers". */
    /* BEGIN STUDENT CODE */
    /* Registers go to warps, not threads, in whole allocation units. */
    int per_warp = round_up(k->regs_per_thread * WARP, a->reg_alloc_unit);
    *regs_out = per_warp * warps;
    /* The launch check counts a block's warps as if spread over every
     * partition (rounded up to a multiple of the partitions). */
    long long assumed = (long long)per_warp * round_up(warps, a->reg_partitions);
    if (assumed > a->regs_per_block || *regs_out > a->regs_per_block)
        return 0;
    if (per_warp == 0)
        return OCCUPANCY_UNLIMITED;
    /* A warp's registers come from one partition: count whole warps per
     * partition first, then blocks, so the leftovers of four partitions
     * never add up to one more warp. */
    int warps_per_partition = a->regs_per_sm / a->reg_partitions / per_warp;
    return warps_per_partition * a->reg_partitions / warps;
    /* END STUDENT CODE */
}

/* Blocks shared memory holds; *smem_out: bytes one block is given. */
static int blocks_by_shared(const occupancy_arch *a, const occupancy_kernel *k, int *smem_out) {
    /* TODO(05-occupancy): how many blocks fit in shared memory?
     * Hint: README.md, "Shared memory". */
    /* BEGIN STUDENT CODE */
    /* The driver's reservation comes with every block, even one that asks
     * for nothing, and the sum is rounded up to the allocation unit. */
    *smem_out = round_up(k->smem_per_block + a->smem_reserved_per_block, a->smem_alloc_unit);
    if (k->smem_per_block > a->max_smem_per_block)
        return 0;
    if (*smem_out == 0)
        return OCCUPANCY_UNLIMITED;
    return a->smem_per_sm / *smem_out;
    /* END STUDENT CODE */
}

int occupancy_calc(const occupancy_arch *a, const occupancy_kernel *k, occupancy_result *out) {
    if (a == NULL || k == NULL || out == NULL || !valid_input(a, k))
        return -1;
    occupancy_result r;
    int warps = warps_per_block(k);
    r.limit_warps = blocks_by_warps(a, k, warps);
    r.limit_regs = blocks_by_registers(a, k, warps, &r.regs_per_block);
    r.limit_smem = blocks_by_shared(a, k, &r.smem_per_block);
    r.limit_blocks = a->max_blocks_per_sm;
    /* TODO(05-occupancy): resident blocks and warps, occupancy, and the
     * limiting resources. Hint: README.md, "Putting the limits together". */
    /* BEGIN STUDENT CODE */
    /* Every resource must hold every resident block: the least limit wins,
     * and each limit equal to it is a reason the SM holds no more. */
    int n = r.limit_warps;
    if (r.limit_regs < n)
        n = r.limit_regs;
    if (r.limit_smem < n)
        n = r.limit_smem;
    if (r.limit_blocks < n)
        n = r.limit_blocks;
    r.blocks_per_sm = n;
    r.limiting = (r.limit_warps == n ? OCCUPANCY_LIMIT_WARPS : 0u) |
                 (r.limit_regs == n ? OCCUPANCY_LIMIT_REGISTERS : 0u) |
                 (r.limit_smem == n ? OCCUPANCY_LIMIT_SHARED : 0u) |
                 (r.limit_blocks == n ? OCCUPANCY_LIMIT_BLOCKS : 0u);
    r.warps_per_sm = n * warps;
    r.occupancy = (double)r.warps_per_sm / a->max_warps_per_sm;
    /* END STUDENT CODE */
    *out = r;
    return 0;
}

/* ------------------------------------- part 3: the register cliff */

/* TODO(05-occupancy): the block size and the register budget of the chase.
 * Hint: README.md, "The register cliff". */
/* BEGIN STUDENT CODE */
/* 256-thread blocks, and as many of them per SM as the SM has thread slots
 * for: __launch_bounds__(256, B) makes ptxas fit 65536 / (256 B) registers
 * per thread, 32 on a 2048-thread SM, 42 (it uses 40 or fewer) on a
 * 1536-thread one. The chase needs about 30 without spilling: ptxas just
 * issues the table loads a few at a time instead of all sixteen at once,
 * which costs nothing next to the chase's own latency. Asking for more
 * blocks than an SM can hold is ignored, with a warning, so B follows the
 * capability being compiled for. */
#define CLIFF_BLOCK 256
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define CLIFF_MIN_BLOCKS 4 /* 1024 threads per SM */
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 ||                   \
                                 __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
#define CLIFF_MIN_BLOCKS 6 /* 1536 threads per SM */
#else
#define CLIFF_MIN_BLOCKS 8 /* 2048 threads per SM */
#endif
#define CLIFF_BOUNDS __launch_bounds__(CLIFF_BLOCK, CLIFF_MIN_BLOCKS)
/* END STUDENT CODE */

/* One warp per chain; a thread past the last chain does nothing. */
__global__ void CLIFF_BOUNDS occupancy_cliff_kernel(const unsigned *next, const uint4 *table,
                                                    const unsigned *start, unsigned *out,
                                                    int n_chains) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned c = t / WARP, lane = t % WARP;
    if (c >= (unsigned)n_chains)
        return;
    out[(size_t)c * WARP + lane] = occupancy_cliff_chain(next, table, start[c], c, lane);
}

cudaError_t occupancy_cliff(const unsigned *d_next, const unsigned *d_table,
                            const unsigned *d_start, unsigned *d_out, int n_chains,
                            cudaStream_t stream) {
    if (d_next == NULL || d_table == NULL || d_start == NULL || d_out == NULL || n_chains < 1)
        return cudaErrorInvalidValue;
    long long threads = (long long)n_chains * WARP;
    unsigned grid = (unsigned)((threads + CLIFF_BLOCK - 1) / CLIFF_BLOCK);
    occupancy_cliff_kernel<<<grid, CLIFF_BLOCK, 0, stream>>>(d_next, (const uint4 *)d_table,
                                                             d_start, d_out, n_chains);
    return cudaGetLastError();
}

int occupancy_cliff_config(int *block_size, const void **kernel) {
    if (block_size == NULL || kernel == NULL)
        return -1;
    *block_size = CLIFF_BLOCK;
    *kernel = (const void *)occupancy_cliff_kernel;
    return 0;
}
