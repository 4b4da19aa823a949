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
    /* cc_major, cc_minor, then the eleven limits in the order of
     * occupancy_arch (occupancy.h); 0 means "not filled in yet". */
    {7, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},  /* Turing */
    {8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},  /* A100 */
    {8, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},  /* GA10x */
    {8, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},  /* Ada */
    {9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},  /* Hopper */
    {10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, /* B200 */
    {12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, /* RTX 50 */
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
    (void)a;
    (void)k;
    return 1;
    /* END STUDENT CODE */
}

/* Blocks the SM's warp slots hold; warps: the warps of one block. */
static int blocks_by_warps(const occupancy_arch *a, const occupancy_kernel *k, int warps) {
    /* TODO(05-occupancy): how many blocks fit in the warp slots?
     * Hint: README.md, "Thread and block slots". */
    /* BEGIN STUDENT CODE */
    (void)a;
    (void)k;
    (void)warps;
    return 0;
    /* END STUDENT CODE */
}

/* Blocks the register file holds; *regs_out: registers one block is given. */
static int blocks_by_registers(const occupancy_arch *a, const occupancy_kernel *k, int warps,
                               int *regs_out) {
    /* TODO(05-occupancy): how many blocks fit in the register file?
     * Hint: README.md, "Registers". */
    /* BEGIN STUDENT CODE */
    (void)a;
    (void)k;
    (void)warps;
    *regs_out = 0;
    return 0;
    /* END STUDENT CODE */
}

/* Blocks shared memory holds; *smem_out: bytes one block is given. */
static int blocks_by_shared(const occupancy_arch *a, const occupancy_kernel *k, int *smem_out) {
    /* TODO(05-occupancy): how many blocks fit in shared memory?
     * Hint: README.md, "Shared memory". */
    /* BEGIN STUDENT CODE */
    (void)a;
    (void)k;
    *smem_out = 0;
    return 0;
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
    r.blocks_per_sm = 0;
    r.limiting = 0;
    r.warps_per_sm = 0;
    r.occupancy = 0.0;
    /* END STUDENT CODE */
    *out = r;
    return 0;
}

/* ------------------------------------- part 3: the register cliff */

/* TODO(05-occupancy): the block size and the register budget of the chase.
 * Hint: README.md, "The register cliff". */
/* BEGIN STUDENT CODE */
/* The grader's configuration: 512-thread blocks, and a promise to the
 * compiler that one block per SM is enough. */
#define CLIFF_BLOCK 512
#define CLIFF_BOUNDS __launch_bounds__(512, 1)
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
