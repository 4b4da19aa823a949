/* shared_bw_no_barrier.cu - broken lab 06: the shared-memory bandwidth kernel reads words that
 * other warps of its block write, with no barrier between the writes and the reads. The loads
 * take as long whatever they find, so the figure is as good as the reference's: only racecheck
 * sees the race. */
/* SPDX-License-Identifier: MIT */
/* expect: sanitizer.shared_bw FAIL compute-sanitizer racecheck found errors */
#define latency_hiding_shared_bytes_per_cycle reference_shared_bytes_per_cycle
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_shared_bytes_per_cycle

__global__ void __launch_bounds__(SMEM_BW_THREADS)
    racy_shared_bw_kernel(int reps, long long *cycles, unsigned *sink) {
    __shared__ uint4 s[SMEM_BW_THREADS];
    const unsigned t = threadIdx.x;
    s[t] = make_uint4(t, t * 3u, ~t, blockIdx.x);
    /* the barrier that belongs here is missing */
    uint4 acc = make_uint4(0, 0, 0, 0);
    const long long c0 = clock64();
#pragma unroll 8
    for (int r = 0; r < reps; r++) {
        const uint4 v = s[(t + 32u * (unsigned)r) & (SMEM_BW_THREADS - 1)];
        acc.x ^= v.x;
        acc.y += v.y;
        acc.z ^= v.z;
        acc.w += v.w;
    }
    __syncthreads();
    const long long c1 = clock64();
    if (t == 0)
        cycles[blockIdx.x] = c1 - c0;
    if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9e3779b9u)
        *sink = 1;
}

#define BROKEN_SHARED_BW_KERNEL racy_shared_bw_kernel
#include "shared_bw_driver.h"
