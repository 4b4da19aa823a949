/* shared_bw_rolled.cu - lab 06, right by the contract: the shared-memory bandwidth kernel with its
 * loop rolled */
/* SPDX-License-Identifier: MIT */
/* Not broken: a control. The reference's kernel with #pragma unroll 1: every lap issues the
 * loop's counter, compare and branch and the address arithmetic besides its one 16-byte load
 * and four checksum operations, about 9 integer instructions a load. The contract fixes the
 * kernel's shape, not its unrolling. Where an SM partition runs integer instructions at 16
 * lanes a cycle (7.5 to 9.0), 32 warps of 9 such instructions take about as many cycles as the
 * lap's 16 KB takes at 128 bytes a cycle: the slowest honest kernel. On the H100 (9.0) it reads
 * 5.7 % low (119.8 against 127.0 bytes per cycle), inside measure.shared_bw's +-11 %
 * (README.md, "Why the limits hold on every GPU"): it must lose nothing. */
#define latency_hiding_shared_bytes_per_cycle reference_shared_bytes_per_cycle
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_shared_bytes_per_cycle

__global__ void __launch_bounds__(SMEM_BW_THREADS)
    rolled_shared_bw_kernel(int reps, long long *cycles, unsigned *sink) {
    __shared__ uint4 s[SMEM_BW_THREADS];
    const unsigned t = threadIdx.x;
    s[t] = make_uint4(t, t * 3u, ~t, blockIdx.x);
    __syncthreads();
    uint4 acc = make_uint4(0, 0, 0, 0);
    const long long c0 = clock64();
#pragma unroll 1 /* rolled: the loop's own instructions in every lap */
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

#define BROKEN_SHARED_BW_KERNEL rolled_shared_bw_kernel
#include "shared_bw_driver.h"
