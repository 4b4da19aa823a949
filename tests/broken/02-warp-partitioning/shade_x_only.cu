/* shade_x_only.cu - broken lab 02: the shading kernel checks x against the width but not y */
/* SPDX-License-Identifier: MIT */
/* Every pixel of the image is right; the threads of the last row of blocks
 * below the image write rows past its end, which only a guard after the
 * output shows (the first image, 1 x 1 in 32 x 8 blocks, writes 7 floats
 * past it).
 * expect: correct.shade FAIL wrote past the end of d_out
 * expect: perf.shade FAIL not graded */
#define warp_partitioning_shade reference_shade
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_shade

/* "The width is the awkward one": only the right edge is checked. */
__global__ void x_only_kernel(const float *in, float *out, int width, int height) {
    int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
    (void)height;
    if (x < width)
        out[(size_t)y * width + x] = warp_partitioning_shade_value(in[(size_t)y * width + x]);
}

extern "C" cudaError_t warp_partitioning_shade(const float *d_in, float *d_out, int width,
                                               int height, cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || width < 1 || height < 1)
        return cudaErrorInvalidValue;
    dim3 block(32, 8);
    dim3 grid((unsigned)((width + 31) / 32), (unsigned)((height + 7) / 8));
    x_only_kernel<<<grid, block, 0, stream>>>(d_in, d_out, width, height);
    return cudaGetLastError();
}
