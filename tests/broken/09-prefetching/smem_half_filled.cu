/* smem_half_filled.cu - broken lab 09: the shared-memory variant fills only the first half of each
 * thread's row before its loop (the fill loop's bound halved), so the first pass works on slots
 * never filled: what an earlier call left there, the right value only where that call left the
 * same elements in the same row. The grader fills every SM's shared memory with 0xFFF7F7F7 words
 * (a NaN as a float) before each call of the variant, so such an element comes out NaN every
 * time: at distance 1 the only slot is never filled. */
/* SPDX-License-Identifier: MIT */
/* expect: correct.smem FAIL slot never filled
 * expect: correct.tails FAIL slot never filled
 * expect: sanitizer.tails FAIL not graded
 * expect: measure.sweep FAIL not graded */
#define prefetching_smem reference_smem
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_smem

/* The reference's prefetching_smem_kernel but for the fill loop's bound. */
template <int DIST>
__global__ void __launch_bounds__(BLOCK)
    half_filled_smem_kernel(const float *in, float *out, int n, int padding) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    float *mine = prefetching_slots + threadIdx.x * (DIST + padding);
#pragma unroll
    for (int k = 0; k < (DIST) / 2; k++) { /* the mistake */
        int j = first + k * stride;
        if (j < n)
            mine[k] = in[j];
    }
    int slot = 0;
#pragma unroll 1
    for (int i = first; i < n; i += stride) {
        float x = mine[slot];
        int next = i + DIST * stride;
        float y = next < n ? in[next] : 0.0f;
        out[i] = prefetching_work(x);
        if (next < n)
            mine[slot] = y;
        slot = slot + 1 < DIST ? slot + 1 : 0;
    }
}

static const prefetching_slots_fn half_filled[] = PREFETCHING_TABLE(half_filled_smem_kernel);

extern "C" cudaError_t prefetching_smem(const float *d_in, float *d_out, int n, int distance,
                                        int padding, int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    half_filled[distance - 1]<<<blocks, BLOCK, slot_bytes(distance, padding), stream>>>(
        d_in, d_out, n, padding);
    return cudaGetLastError();
}
