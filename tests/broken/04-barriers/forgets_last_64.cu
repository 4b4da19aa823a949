/* forgets_last_64.cu - broken lab 04: the barriers fixed, but the warp-level finish left out */
/* SPDX-License-Identifier: MIT */
/* The tree stops at 64 partial sums and thread 0 returns only the first.
 * expect: correct.small FAIL the sum of tile 0
 * expect: correct.sizes FAIL the sum of tile 0
 * expect: correct.repeat FAIL the sum of tile 0
 * expect: sanitizer.racecheck FAIL not graded
 * expect: sanitizer.synccheck FAIL not graded
 * expect: perf.sum FAIL not graded */
#define barriers_sum reference_sum
#include "../../../solutions/04-barriers/barriers.cu"
#undef barriers_sum

__device__ float forgets_block_sum(float v, float *s) {
    const int t = threadIdx.x;
    __syncthreads();
    s[t] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride >= 64; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    return s[0];
}

#define BROKEN_BLOCK_SUM forgets_block_sum
#include "broken_driver.h"
