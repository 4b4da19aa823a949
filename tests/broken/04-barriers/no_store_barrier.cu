/* no_store_barrier.cu - broken lab 04: no barrier between storing the values and the first step of
 * the tree */
/* SPDX-License-Identifier: MIT */
/* Thread t reads s[t + 128], stored by a thread of another warp that may
 * not have stored it yet (read after write): sums go wrong (on the H100
 * about half of each tile went missing, in every run).
 * expect: correct.small FAIL the sum of tile
 * expect: correct.sizes FAIL the sum of tile
 * expect: correct.repeat FAIL the sum of tile
 * expect: sanitizer.racecheck FAIL not graded
 * expect: sanitizer.synccheck FAIL not graded
 * expect: perf.sum FAIL not graded */
#define barriers_sum reference_sum
#include "../../../solutions/04-barriers/barriers.cu"
#undef barriers_sum

__device__ float no_store_block_sum(float v, float *s) {
    const int t = threadIdx.x;
    __syncthreads();
    s[t] = v;
    for (int stride = BLOCK / 2; stride >= 64; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        v = s[t] + s[t + 32];
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    return v;
}

#define BROKEN_BLOCK_SUM no_store_block_sum
#include "broken_driver.h"
