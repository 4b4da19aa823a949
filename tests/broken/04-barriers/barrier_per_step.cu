/* barrier_per_step.cu - broken lab 04: correct barriers all the way down, no warp-level finish */
/* SPDX-License-Identifier: MIT */
/* Both bugs of the stub fixed, but the tree keeps a block barrier for each
 * of its eight steps: right sums, clean sanitizers, too slow.
 * expect: perf.sum FAIL finish the last 64 values inside one warp */
#define barriers_sum reference_sum
#include "../../../solutions/04-barriers/barriers.cu"
#undef barriers_sum

__device__ float step_block_sum(float v, float *s) {
    const int t = threadIdx.x;
    __syncthreads();
    s[t] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    return s[0];
}

#define BROKEN_BLOCK_SUM step_block_sum
#include "broken_driver.h"
