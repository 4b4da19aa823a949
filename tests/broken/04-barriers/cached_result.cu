/* cached_result.cu - hostile lab 04: sums once, then copies the cached total for the same input */
/* SPDX-License-Identifier: MIT */
/* expect: perf.sum FAIL faster than the grader's kernel that only reads */
#define barriers_sum reference_sum
#include "../../../solutions/04-barriers/barriers.cu"
#undef barriers_sum

static float *cache;
static const float *cached_in;
static int cached_n;

extern "C" cudaError_t barriers_sum(const float *d_in, int n, float *d_scratch, float *d_out,
                                    cudaStream_t stream) {
    if (cache && cached_in == d_in && cached_n == n) /* "same call as last time" */
        return cudaMemcpyAsync(d_out, cache, sizeof(float), cudaMemcpyDeviceToDevice, stream);
    cudaError_t e = reference_sum(d_in, n, d_scratch, d_out, stream);
    if (e == cudaSuccess && n >= (1 << 26)) { /* only the big one: small ones are checked often */
        if (!cache && cudaMalloc(&cache, sizeof(float)) != cudaSuccess)
            return e;
        cached_in = d_in;
        cached_n = n;
        e = cudaMemcpyAsync(cache, d_out, sizeof(float), cudaMemcpyDeviceToDevice, stream);
    }
    return e;
}
