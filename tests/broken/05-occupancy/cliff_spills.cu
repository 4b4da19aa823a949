/* cliff_spills.cu - broken lab 05: keeps a per-thread array that ptxas must place in local memory
 * (indexed at run time), so the kernel has local memory like one that spills */
/* SPDX-License-Identifier: MIT */
/* Results stay right; the kernel's localSizeBytes is not 0.
 * expect: correct.cliff_resources FAIL local memory
 * expect: perf.cliff FAIL local memory */
#define occupancy_cliff reference_cliff
#define occupancy_cliff_config reference_cliff_config
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_cliff
#undef occupancy_cliff_config

__global__ void spill_kernel(const unsigned *next, const uint4 *table, const unsigned *start,
                             unsigned *out, int n_chains) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned c = t / WARP, lane = t % WARP;
    if (c >= (unsigned)n_chains)
        return;
    volatile unsigned stash[16]; /* indexed by a run-time value: local memory */
    for (int i = 0; i < 16; i++)
        stash[i] = c + (unsigned)i;
    unsigned r = occupancy_cliff_chain(next, table, start[c], c, lane);
    out[(size_t)c * WARP + lane] = r + stash[lane % 16] - (c + lane % 16);
}

extern "C" cudaError_t occupancy_cliff(const unsigned *d_next, const unsigned *d_table,
                                       const unsigned *d_start, unsigned *d_out, int n_chains,
                                       cudaStream_t stream) {
    if (d_next == NULL || d_table == NULL || d_start == NULL || d_out == NULL || n_chains < 1)
        return cudaErrorInvalidValue;
    unsigned grid = (unsigned)(((long long)n_chains * WARP + 255) / 256);
    spill_kernel<<<grid, 256, 0, stream>>>(d_next, (const uint4 *)d_table, d_start, d_out,
                                           n_chains);
    return cudaGetLastError();
}

extern "C" int occupancy_cliff_config(int *block_size, const void **kernel) {
    if (block_size == NULL || kernel == NULL)
        return -1;
    *block_size = 256;
    *kernel = (const void *)spill_kernel;
    return 0;
}
