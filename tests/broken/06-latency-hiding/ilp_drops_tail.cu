/* ilp_drops_tail.cu - broken lab 06: the batched sum drops the last, partial batch */
/* SPDX-License-Identifier: MIT */
/* expect: correct.ilp_sum FAIL expected
 * expect: perf.ilp FAIL not graded
 * expect: sanitizer.ilp_sum FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_hiding_ilp_sum reference_ilp_sum
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_ilp_sum

__global__ void batches_only_kernel(const unsigned *in, size_t n, unsigned *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned sum = 0;
    for (size_t i = t; i + 7 * stride < n; i += 8 * stride) {
        unsigned v[8];
#pragma unroll
        for (int u = 0; u < 8; u++)
            v[u] = in[i + u * stride];
#pragma unroll
        for (int u = 0; u < 8; u++)
            sum += v[u];
    }
    out[t] = sum; /* no loop for the last, partial batch */
}

extern "C" cudaError_t latency_hiding_ilp_sum(const unsigned *d_in, size_t n, unsigned *d_out,
                                              cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || n == 0)
        return cudaErrorInvalidValue;
    int dev, sms;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    batches_only_kernel<<<sms, LATENCY_HIDING_ILP_THREADS, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
