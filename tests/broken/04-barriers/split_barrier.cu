/* split_barrier.cu - broken lab 04: the tree's barrier in both branches of the if (the seed's
 * figure 4.4) */
/* SPDX-License-Identifier: MIT */
/* Two __syncthreads() in two branches are two barriers. Here the branches
 * split the block at warp boundaries (t < 128, t < 64); on the H100 both
 * barriers are barrier 0, whole warps arrive at one or the other, and the
 * sums come out right, so only synccheck sees the error. (Split inside a
 * warp, the same pattern hung on the H100.)
 * expect: sanitizer.synccheck FAIL Divergent thread */
#define barriers_sum reference_sum
#include "../../../solutions/04-barriers/barriers.cu"
#undef barriers_sum

__device__ float split_block_sum(float v, float *s) {
    const int t = threadIdx.x;
    __syncthreads();
    s[t] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride >= 64; stride /= 2) {
        if (t < stride) {
            s[t] += s[t + stride];
            __syncthreads();
        } else {
            __syncthreads();
        }
    }
    if (t < 32) {
        v = s[t] + s[t + 32];
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    return v;
}

#define BROKEN_BLOCK_SUM split_block_sum
#include "broken_driver.h"
