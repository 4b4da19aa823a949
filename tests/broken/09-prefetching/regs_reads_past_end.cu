/* regs_reads_past_end.cu - broken lab 09: the register variant loads one element past the end */
/* SPDX-License-Identifier: MIT */
/* expect: sanitizer.tails FAIL memcheck found errors
 * expect: perf.regs FAIL the plain loop
 * expect: measure.sweep FAIL cudaErrorIllegalAddress */
/* The results stay right (the extra value is never used) and the read is
 * only 4 bytes past the allocation, so in the correctness tests only
 * compute-sanitizer sees it. The sweep's buffer ends on a page boundary
 * (its size is a power of two), so there the read faults; in perf.regs,
 * on buffers of the same size, it faults too or, if the page after the
 * input happens to be mapped, the refills under a condition leave it about
 * as slow as the plain loop (regs_branch_refill.cu): either way it fails
 * against the plain loop. */
#define prefetching_regs reference_regs
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_regs

template <int DIST>
__global__ void __launch_bounds__(BLOCK)
    overreading_regs_kernel(const float *in, float *out, int n) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    float v[DIST];
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int j = first + k * stride;
        v[k] = j < n ? in[j] : 0.0f;
    }
    for (int i = first; i < n; i += DIST * stride) {
#pragma unroll
        for (int k = 0; k < DIST; k++) {
            int cur = i + k * stride;
            if (cur < n) {
                float x = v[k];
                int next = cur + DIST * stride;
                if (next <= n) /* off by one: reads in[n] */
                    v[k] = in[next];
                out[cur] = prefetching_work(x);
            }
        }
    }
}

static const prefetching_regs_fn overreading[] = PREFETCHING_TABLE(overreading_regs_kernel);

extern "C" cudaError_t prefetching_regs(const float *d_in, float *d_out, int n, int distance,
                                        int padding, int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    overreading[distance - 1]<<<blocks, BLOCK, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}
