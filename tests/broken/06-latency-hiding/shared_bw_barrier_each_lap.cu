/* shared_bw_barrier_each_lap.cu - broken lab 06: the shared-memory bandwidth kernel waits at a
 * barrier in every lap of its loop, as if each load needed the block to agree. Nothing races, so
 * no sanitizer objects; but the pipe to shared memory runs dry while the block gathers at each
 * barrier (about 20 cycles in a lap of 128 on every capability), and the figure reads about 16 %
 * low on an H100 (106.3 against 126.9 bytes per cycle), outside the band of +-11 %; what needs
 * that figure is not graded. */
/* SPDX-License-Identifier: MIT */
/* expect: measure.shared_bw FAIL shared bandwidth per SM */
/* expect: correct.fill_gpu FAIL not graded */
/* expect: sanitizer.shared_bw FAIL not graded */
/* expect: sanitizer.shared_bw_sync FAIL not graded */
/* expect: sanitizer.host FAIL not graded */
#define latency_hiding_shared_bytes_per_cycle reference_shared_bytes_per_cycle
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_shared_bytes_per_cycle

__global__ void __launch_bounds__(SMEM_BW_THREADS)
    lap_barrier_shared_bw_kernel(int reps, long long *cycles, unsigned *sink) {
    __shared__ uint4 s[SMEM_BW_THREADS];
    const unsigned t = threadIdx.x;
    s[t] = make_uint4(t, t * 3u, ~t, blockIdx.x);
    __syncthreads();
    uint4 acc = make_uint4(0, 0, 0, 0);
    const long long c0 = clock64();
#pragma unroll 8
    for (int r = 0; r < reps; r++) {
        const uint4 v = s[(t + 32u * (unsigned)r) & (SMEM_BW_THREADS - 1)];
        acc.x ^= v.x;
        acc.y += v.y;
        acc.z ^= v.z;
        acc.w += v.w;
        __syncthreads(); /* the mistake: a barrier in every lap */
    }
    __syncthreads();
    const long long c1 = clock64();
    if (t == 0)
        cycles[blockIdx.x] = c1 - c0;
    if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9e3779b9u)
        *sink = 1;
}

#define BROKEN_SHARED_BW_KERNEL lap_barrier_shared_bw_kernel
#include "shared_bw_driver.h"
