/* cliff_clamps_chain.cu - broken lab 05: threads past the last chain redo the last chain and store
 * at their own index */
/* SPDX-License-Identifier: MIT */
/* "No early return, so every warp runs the same code: clamp the chain
 * index instead." The clamped threads compute the last chain again, right,
 * but store it at their own place, t, past the n_chains x 32 words of
 * d_out, whenever the chains do not fill the last 256-thread block. Every
 * chain's own words are right, and past the end of the buffer there is
 * usually padding, so only the guard after d_out shows it.
 * expect: correct.cliff FAIL past the end of its
 * expect: perf.cliff FAIL not graded */
#define occupancy_cliff reference_cliff
#define occupancy_cliff_config reference_cliff_config
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_cliff
#undef occupancy_cliff_config

__global__ void CLIFF_BOUNDS clamp_kernel(const unsigned *next, const uint4 *table,
                                          const unsigned *start, unsigned *out, int n_chains) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned c = min(t / WARP, (unsigned)n_chains - 1u), lane = t % WARP;
    out[t] = occupancy_cliff_chain(next, table, start[c], c, lane);
}

extern "C" cudaError_t occupancy_cliff(const unsigned *d_next, const unsigned *d_table,
                                       const unsigned *d_start, unsigned *d_out, int n_chains,
                                       cudaStream_t stream) {
    if (d_next == NULL || d_table == NULL || d_start == NULL || d_out == NULL || n_chains < 1)
        return cudaErrorInvalidValue;
    long long threads = (long long)n_chains * WARP;
    unsigned grid = (unsigned)((threads + CLIFF_BLOCK - 1) / CLIFF_BLOCK);
    clamp_kernel<<<grid, CLIFF_BLOCK, 0, stream>>>(d_next, (const uint4 *)d_table, d_start, d_out,
                                                   n_chains);
    return cudaGetLastError();
}

extern "C" int occupancy_cliff_config(int *block_size, const void **kernel) {
    if (block_size == NULL || kernel == NULL)
        return -1;
    *block_size = CLIFF_BLOCK;
    *kernel = (const void *)clamp_kernel;
    return 0;
}
