/* no_reuse_barrier.cu - broken lab 04: no barrier before s is overwritten by the block's next tile
 */
/* SPDX-License-Identifier: MIT */
/* Warp 0 still reads s[0 .. 63] while the other warps may already store
 * their next tile's values there (write after read). They must first load
 * that tile from memory, so in practice they are always late and the sums
 * come out right: only racecheck sees the race.
 * expect: sanitizer.racecheck FAIL Race reported */
#define barriers_sum reference_sum
#include "../../../solutions/04-barriers/barriers.cu"
#undef barriers_sum

__device__ float no_reuse_block_sum(float v, float *s) {
    const int t = threadIdx.x;
    s[t] = v; /* "the barrier after the last step protects this" - not across calls */
    __syncthreads();
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

#define BROKEN_BLOCK_SUM no_reuse_block_sum
#include "broken_driver.h"
