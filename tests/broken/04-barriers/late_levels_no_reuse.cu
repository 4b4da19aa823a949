/* late_levels_no_reuse.cu - broken lab 04: no barrier before s is reused, in the levels after the
 * first */
/* SPDX-License-Identifier: MIT */
/* "After the first level there are only a few hundred tile sums left: one
 * tile per block, so the block sum never runs twice on the same s and the
 * barrier at its start protects nothing there." True up to 512 x 512
 * elements, where the second level is a single tile. Above, the second
 * level has two tiles or more per block, and warp 0 still reads s[0 .. 63]
 * of one tile while the other warps may store the next (write after read).
 * They must load that tile first, so the sums come out right: only
 * racecheck over an input of three levels sees the race.
 * expect: sanitizer.racecheck FAIL Race reported */
#define barriers_sum reference_sum
#include "../../../solutions/04-barriers/barriers.cu"
#undef barriers_sum

__device__ float late_block_sum(float v, float *s) {
    const int t = threadIdx.x;
    s[t] = v; /* no barrier before: "one tile per block at these levels" */
    __syncthreads();
    for (int stride = BLOCK / 2; stride >= 64; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        v = s[t] + s[t + 32];
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(FULL_MASK, v, offset);
    }
    return v;
}

/* barriers_level_kernel with the block sum above. */
__global__ void late_level_kernel(const float *in, int m, float *out) {
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
        v = late_block_sum(v, s);
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
    for (int m = n, level = 1;; level++) {
        const int tiles = barriers_tiles(m);
        float *out = tiles == 1 ? d_out : next;
        const int blocks = (tiles + BARRIERS_TILES_PER_BLOCK - 1) / BARRIERS_TILES_PER_BLOCK;
        if (in == d_in)
            barriers_level_kernel<<<blocks, BLOCK, 0, stream>>>(in, m, out, level);
        else
            late_level_kernel<<<blocks, BLOCK, 0, stream>>>(in, m, out);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || tiles == 1)
            return e;
        in = out;
        m = tiles;
        next = out + tiles;
    }
}
