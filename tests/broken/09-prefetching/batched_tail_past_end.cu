/* batched_tail_past_end.cu - broken lab 09: the batched variant's last, partial batch loads one
 * element past the end */
/* SPDX-License-Identifier: MIT */
/* The reference's batched loop with the partial batch's bound off by one:
 * cur <= n. The thread whose sequence reaches index n loads in[n], 4 bytes
 * past the input, and never uses it: every result is right and nothing is
 * written past the end, so in the correctness tests only compute-sanitizer
 * sees it. The whole batches have no branch and stay fast. In the sweep the
 * input ends on a page boundary (its size is a power of two) and the read
 * faults, as regs_reads_past_end.cu's does there; in perf.batched, on
 * buffers of the same size allocated in another order, it faults or, if
 * the page after the input happens to be mapped, passes: its verdict
 * depends on the memory map, not on the code's speed.
 * expect: sanitizer.tails FAIL memcheck found errors
 * expect: perf.batched ANY
 * expect: measure.sweep FAIL cudaErrorIllegalAddress */
#define prefetching_batched reference_batched
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_batched

template <int DIST>
__global__ void __launch_bounds__(BLOCK)
    overreading_batched_kernel(const float *in, float *out, int n) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    float v[DIST];
    int i = first;
    for (; i + (DIST - 1) * stride < n; i += DIST * stride) {
#pragma unroll
        for (int k = 0; k < DIST; k++)
            v[k] = in[i + k * stride];
#pragma unroll
        for (int k = 0; k < DIST; k++)
            out[i + k * stride] = prefetching_work(v[k]);
    }
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int cur = i + k * stride;
        v[k] = cur <= n ? in[cur] : 0.0f; /* off by one: reads in[n] */
    }
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int cur = i + k * stride;
        if (cur < n)
            out[cur] = prefetching_work(v[k]);
    }
}

static const prefetching_regs_fn overreading[] = PREFETCHING_TABLE(overreading_batched_kernel);

extern "C" cudaError_t prefetching_batched(const float *d_in, float *d_out, int n, int distance,
                                           int padding, int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    overreading[distance - 1]<<<blocks, BLOCK, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}
