/* cliff_block_too_big.cu - broken lab 05: launches 1024-thread blocks of a kernel bounded to 256 */
/* SPDX-License-Identifier: MIT */
/* __launch_bounds__(256, ...) promises ptxas no block is larger; a launch
 * of 1024 threads then fails, and the error must reach the caller.
 * expect: correct.cliff FAIL expected cudaSuccess
 * expect: correct.cliff_resources FAIL accepts at most
 * expect: perf.cliff FAIL not graded */
#define occupancy_cliff reference_cliff
#define occupancy_cliff_config reference_cliff_config
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_cliff
#undef occupancy_cliff_config

extern "C" cudaError_t occupancy_cliff(const unsigned *d_next, const unsigned *d_table,
                                       const unsigned *d_start, unsigned *d_out, int n_chains,
                                       cudaStream_t stream) {
    if (d_next == NULL || d_table == NULL || d_start == NULL || d_out == NULL || n_chains < 1)
        return cudaErrorInvalidValue;
    unsigned grid = (unsigned)(((long long)n_chains * WARP + 1023) / 1024);
    occupancy_cliff_kernel<<<grid, 1024, 0, stream>>>(d_next, (const uint4 *)d_table, d_start,
                                                      d_out, n_chains);
    return cudaGetLastError();
}

extern "C" int occupancy_cliff_config(int *block_size, const void **kernel) {
    if (block_size == NULL || kernel == NULL)
        return -1;
    *block_size = 1024;
    *kernel = (const void *)occupancy_cliff_kernel;
    return 0;
}
