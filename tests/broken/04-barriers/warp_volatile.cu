/* warp_volatile.cu - broken lab 04: the last 64 values added in shared memory by warp 0, without
 * __syncwarp */
/* SPDX-License-Identifier: MIT */
/* The pre-Volta idiom: a volatile pointer and faith that a warp runs in
 * lockstep. Since Volta the lanes of a warp are not guaranteed to stay
 * together, so each step races with the next.
 * expect: sanitizer.racecheck FAIL Race */
#define barriers_sum reference_sum
#include "../../../solutions/04-barriers/barriers.cu"
#undef barriers_sum

__device__ float volatile_block_sum(float v, float *s) {
    const int t = threadIdx.x;
    __syncthreads();
    s[t] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride >= 64; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        volatile float *vs = s;
        for (int stride = 32; stride > 0; stride /= 2)
            vs[t] += vs[t + stride];
    }
    return s[0];
}

#define BROKEN_BLOCK_SUM volatile_block_sum
#include "broken_driver.h"
