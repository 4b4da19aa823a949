/* capacity_literal_sms.cu - broken lab 01: the grading GPU's SM count typed in, not queried */
/* SPDX-License-Identifier: MIT */
/* The occupancy API asked as it should be, then multiplied by the 132 SMs
 * of the H100 the code was written on. Right on an H100 or H200; wrong on
 * a simulated A100 (and on any real GPU of another SM count).
 * expect: correct.capacity FAIL the SM count must come from the runtime
 * check.staircase times the capacity, right on a GPU of 132 SMs only: its
 * verdict depends on the GPU that grades.
 * expect: check.staircase ANY */
#define block_scheduling_capacity reference_capacity
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_capacity

extern "C" cudaError_t block_scheduling_capacity(const void *kernel, int threads_per_block,
                                                 size_t smem_bytes, int *per_sm, int *capacity) {
    int n = 0, sms = 132; /* "the H100 has 132 SMs" */
    cudaError_t e =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads_per_block, smem_bytes);
    if (e != cudaSuccess)
        return e;
    *per_sm = n;
    *capacity = n * sms;
    return cudaSuccess;
}
