/* cached_result.cu - hostile lab 09: computes the timed size once, then copies the cached result */
/* SPDX-License-Identifier: MIT */
/* expect: perf.best FAIL other operations
 * expect: measure.blog FAIL other operations */
#define prefetching_best reference_best
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_best

static float *cache;
static const float *cached_in;
static int cached_n;

extern "C" cudaError_t prefetching_best(const float *d_in, float *d_out, int n, int blocks,
                                        cudaStream_t stream) {
    if (n < (1 << 24)) /* small sizes, "the correctness tests": honest */
        return reference_best(d_in, d_out, n, blocks, stream);
    if (cache && cached_in == d_in && cached_n == n) /* "same call as last time" */
        return cudaMemcpyAsync(d_out, cache, sizeof(float) * (size_t)n, cudaMemcpyDeviceToDevice,
                               stream);
    cudaError_t e = reference_best(d_in, d_out, n, blocks, stream);
    if (e == cudaSuccess && !cache &&
        cudaMalloc(&cache, sizeof(float) * (size_t)n) == cudaSuccess) {
        cached_in = d_in;
        cached_n = n;
        e = cudaMemcpyAsync(cache, d_out, sizeof(float) * (size_t)n, cudaMemcpyDeviceToDevice,
                            stream);
    }
    return e;
}
