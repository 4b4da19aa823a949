/* shade_truncated_grid.cu - broken lab 02: 32x8 blocks, but the grid rounds down and misses the
 * edge */
/* SPDX-License-Identifier: MIT */
/* expect: correct.shade FAIL never written
 * expect: perf.shade FAIL not graded */
#define warp_partitioning_shade reference_shade
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_shade

extern "C" cudaError_t warp_partitioning_shade(const float *d_in, float *d_out, int width,
                                               int height, cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || width < 1 || height < 1)
        return cudaErrorInvalidValue;
    dim3 block(32, 8);
    dim3 grid((unsigned)(width / 32 > 0 ? width / 32 : 1), (unsigned)((height + 7) / 8));
    warp_partitioning_shade_kernel<<<grid, block, 0, stream>>>(d_in, d_out, width, height);
    return cudaGetLastError();
}
