/* thread_indexed_counts.cu - broken lab 03: indexes the warp records by thread, not by warp */
/* SPDX-License-Identifier: MIT */
/* expect: correct.count_divergent FAIL wrote past
 * expect: correct.count_uniform FAIL wrote past
 * expect: sanitizer.count FAIL not graded */
#define divergence_count reference_count
#include "../../../solutions/03-divergence/divergence.cu"
#undef divergence_count

/* counts[g] instead of counts[g / 32]: the odd pass of warp 0 lands in
 * record 1, and thread 32 onwards write records past the grid's own (at
 * n = 1003, the first size run, record 32 is in the guard zone after the 32
 * records), in both layouts. */
__device__ void record_by_thread(divergence_warp_count *counts, int body) {
    unsigned mask = __activemask();
    if ((int)(threadIdx.x % WARP) == __ffs((int)mask) - 1) {
        divergence_warp_count *c = &counts[blockIdx.x * blockDim.x + threadIdx.x];
        atomicAdd(&c->passes, 1);
        atomicAdd(&c->lanes, __popc(mask));
        atomicOr(&c->path_mask[body], mask);
    }
}

__global__ void broken_count_kernel(const float *in, float *out, int n, int version,
                                    divergence_warp_count *counts) {
    int g = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    int i = version == DIVERGENCE_UNIFORM ? divergence_uniform_element(g) : g;
    if (i < 0 || i >= n)
        return;
    float v = in[i];
    if (i % 2 == 0) {
        v = divergence_even_value(v);
        record_by_thread(counts, 0);
    } else {
        v = divergence_odd_value(v);
        record_by_thread(counts, 1);
    }
    out[i] = v;
}

extern "C" cudaError_t divergence_count(const float *d_in, float *d_out, int n, int version,
                                        divergence_warp_count *d_counts) {
    if (d_in == NULL || d_out == NULL || d_counts == NULL || n < 1 || n > DIVERGENCE_MAX_N)
        return cudaErrorInvalidValue;
    cudaMemset(d_counts, 0, (size_t)divergence_warps(n) * sizeof *d_counts);
    broken_count_kernel<<<divergence_blocks(n), DIVERGENCE_BLOCK>>>(d_in, d_out, n, version,
                                                                    d_counts);
    cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaDeviceSynchronize();
}
