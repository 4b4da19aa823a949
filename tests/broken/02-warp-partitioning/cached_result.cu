/* cached_result.cu - hostile lab 02: computes once, then returns the cached image */
/* SPDX-License-Identifier: MIT */
/* expect: perf.shade FAIL faster than the GPU's peak */
#define warp_partitioning_shade reference_shade
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_shade

static float *cache;
static const float *cached_in;
static size_t cached_n;

extern "C" cudaError_t warp_partitioning_shade(const float *d_in, float *d_out, int width,
                                               int height, cudaStream_t stream) {
    size_t n = (size_t)width * height;
    if (cache && cached_in == d_in && cached_n == n) /* "same call as last time" */
        return cudaMemcpyAsync(d_out, cache, n * sizeof(float), cudaMemcpyDeviceToDevice, stream);
    cudaError_t e = reference_shade(d_in, d_out, width, height, stream);
    cudaFree(cache);
    if (e == cudaSuccess && cudaMalloc(&cache, n * sizeof(float)) == cudaSuccess) {
        cached_in = d_in;
        cached_n = n;
        e = cudaMemcpyAsync(cache, d_out, n * sizeof(float), cudaMemcpyDeviceToDevice, stream);
    }
    return e;
}
