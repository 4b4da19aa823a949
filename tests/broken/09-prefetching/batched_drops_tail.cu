/* batched_drops_tail.cu - broken lab 09: the batched variant runs whole batches only, as if every
 * thread's count were a multiple of the distance */
/* SPDX-License-Identifier: MIT */
/* The blog's batched example assumes, "for convenience", that each thread's
 * number of iterations divides by the batch. Here that assumption is code:
 * whole batches, no partial last batch, so the last count % DIST elements
 * of a thread are never written. Distance 1 has no partial batch and
 * passes; every other distance loses elements on sizes that are not
 * multiples of distance x stride.
 * expect: correct.batched FAIL never written
 * expect: correct.tails FAIL never written
 * expect: sanitizer.tails FAIL not graded
 * expect: perf.batched FAIL not graded
 * expect: measure.sweep FAIL not graded */
#define prefetching_batched reference_batched
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_batched

template <int DIST>
__global__ void __launch_bounds__(BLOCK) whole_batches_kernel(const float *in, float *out, int n) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    float v[DIST];
    for (int i = first; i + (DIST - 1) * stride < n; i += DIST * stride) {
#pragma unroll
        for (int k = 0; k < DIST; k++)
            v[k] = in[i + k * stride];
#pragma unroll
        for (int k = 0; k < DIST; k++)
            out[i + k * stride] = prefetching_work(v[k]);
    }
}

static const prefetching_regs_fn whole_batches[] = PREFETCHING_TABLE(whole_batches_kernel);

extern "C" cudaError_t prefetching_batched(const float *d_in, float *d_out, int n, int distance,
                                           int padding, int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    whole_batches[distance - 1]<<<blocks, BLOCK, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}
