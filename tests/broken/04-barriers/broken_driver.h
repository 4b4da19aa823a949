/* broken_driver.h - lab 04's levels around a broken variant's block sum (define BROKEN_BLOCK_SUM
 * first) */
/* SPDX-License-Identifier: MIT */
/* The solution's barriers_level_kernel and barriers_sum, line for line,
 * except that the kernel calls BROKEN_BLOCK_SUM. Include it after the
 * solution (included with barriers_sum renamed) and the variant's block sum. */
#ifndef BROKEN_BLOCK_SUM
#error "define BROKEN_BLOCK_SUM before including broken_driver.h"
#endif

__global__ void broken_level_kernel(const float *in, int m, float *out) {
    __shared__ float s[BLOCK];
    const int tiles = barriers_tiles(m);
    for (int k = 0; k < BARRIERS_TILES_PER_BLOCK; k++) {
        const int tile = (int)blockIdx.x + k * (int)gridDim.x;
        if (tile >= tiles)
            break;
        const size_t first = (size_t)tile * BARRIERS_TILE + threadIdx.x;
        float v = 0.0f;
#pragma unroll
        for (int i = 0; i < BARRIERS_ITEMS; i++) {
            const size_t j = first + (size_t)i * BLOCK;
            if (j < (size_t)m)
                v += in[j];
        }
        v = BROKEN_BLOCK_SUM(v, s);
        if (threadIdx.x == 0)
            out[tile] = v;
    }
}

extern "C" cudaError_t barriers_sum(const float *d_in, int n, float *d_scratch, float *d_out,
                                    cudaStream_t stream) {
    if (d_in == NULL || d_scratch == NULL || d_out == NULL || n < 1 || n > BARRIERS_MAX_N)
        return cudaErrorInvalidValue;
    const float *in = d_in;
    float *next = d_scratch;
    for (int m = n;;) {
        const int tiles = barriers_tiles(m);
        float *out = tiles == 1 ? d_out : next;
        const int blocks = (tiles + BARRIERS_TILES_PER_BLOCK - 1) / BARRIERS_TILES_PER_BLOCK;
        broken_level_kernel<<<blocks, BLOCK, 0, stream>>>(in, m, out);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || tiles == 1)
            return e;
        in = out;
        m = tiles;
        next = out + tiles;
    }
}
