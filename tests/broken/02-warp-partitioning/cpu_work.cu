/* cpu_work.cu - hostile lab 02: computes the image on the CPU and copies it back */
/* SPDX-License-Identifier: MIT */
/* Right results, so correct.shade passes; the work is not the GPU's, and the
 * performance test shows it: on an H100 one call takes longer than the
 * test's whole time limit.
 * expect: perf.shade FAIL did not finish */
#define warp_partitioning_shade reference_shade
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_shade

#include <stdlib.h>

extern "C" cudaError_t warp_partitioning_shade(const float *d_in, float *d_out, int width,
                                               int height, cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || width < 1 || height < 1)
        return cudaErrorInvalidValue;
    size_t n = (size_t)width * height;
    float *h = (float *)malloc(n * sizeof(float));
    if (!h)
        return cudaErrorMemoryAllocation;
    cudaError_t e = cudaMemcpyAsync(h, d_in, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(stream);
    for (size_t i = 0; e == cudaSuccess && i < n; i++)
        h[i] = warp_partitioning_shade_value(h[i]);
    if (e == cudaSuccess)
        e = cudaMemcpy(d_out, h, n * sizeof(float), cudaMemcpyHostToDevice);
    free(h);
    return e;
}
