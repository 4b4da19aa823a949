/* batched_waits_each.cu - broken lab 09: the batched variant loads each element just before its
 * work */
/* SPDX-License-Identifier: MIT */
/* The batch is there, unrolled over DIST with constant indices, but each
 * element is loaded right before its own work, after the store of the
 * element before it. That store may write what the next load reads, as far
 * as the compiler knows, so the load cannot move up: every element waits
 * for its own load, as in the plain loop (about 1.0x whatever the
 * distance). Every result is right and nothing is read past the end.
 * expect: perf.batched FAIL the loads of a batch do not overlap */
#define prefetching_batched reference_batched
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_batched

template <int DIST>
__global__ void __launch_bounds__(BLOCK)
    waiting_batched_kernel(const float *in, float *out, int n) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    for (int i = first; i < n; i += DIST * stride) {
#pragma unroll
        for (int k = 0; k < DIST; k++) {
            int cur = i + k * stride;
            if (cur < n) {
                float x = in[cur]; /* loaded here, used at once: nothing in flight */
                out[cur] = prefetching_work(x);
            }
        }
    }
}

static const prefetching_regs_fn waiting[] = PREFETCHING_TABLE(waiting_batched_kernel);

extern "C" cudaError_t prefetching_batched(const float *d_in, float *d_out, int n, int distance,
                                           int padding, int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    waiting[distance - 1]<<<blocks, BLOCK, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}
