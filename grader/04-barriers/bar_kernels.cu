/* bar_kernels.cu - lab 04's grader-owned kernels: the barrier-per-step baseline, input fill, stream
 * check */
/* SPDX-License-Identifier: MIT */
#include "barriers.h"

#include <cuda_runtime.h>
#include <stdint.h>

/* The lab's sum with a block sum that is correct but keeps a barrier for
 * every step down to one value: what a student has after fixing the two
 * barrier bugs and before finishing at warp level. Compiled into the grader,
 * so the student's file cannot change it. */
__device__ static float bar_step_block_sum(float v, float *s) {
    const int t = threadIdx.x;
    __syncthreads();
    s[t] = v;
    __syncthreads();
    for (int stride = BARRIERS_BLOCK / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    return s[0];
}

/* The same levels, tiles, loads and order as the lab's
 * barriers_level_kernel. With STEP, each tile is added up by the
 * barrier-per-step block sum. Without, there is no block sum at all: each
 * tile's "sum" is thread 0's own two elements. That is not a sum; its time
 * is how fast the lab's tiles can be read, the floor under any sum that
 * reads every element. */
template <bool STEP> __global__ void bar_level_kernel(const float *in, int m, float *out) {
    __shared__ float s[STEP ? BARRIERS_BLOCK : 1];
    const int tiles = barriers_tiles(m);
    for (int k = 0; k < BARRIERS_TILES_PER_BLOCK; k++) {
        const int tile = (int)blockIdx.x + k * (int)gridDim.x;
        if (tile >= tiles)
            break;
        const size_t first = (size_t)tile * BARRIERS_TILE + threadIdx.x;
        float v = 0.0f;
#pragma unroll
        for (int i = 0; i < BARRIERS_ITEMS; i++) {
            const size_t j = first + (size_t)i * BARRIERS_BLOCK;
            if (j < (size_t)m)
                v += in[j];
        }
        if (STEP) {
            v = bar_step_block_sum(v, s);
            if (threadIdx.x == 0)
                out[tile] = v;
        } else if (threadIdx.x == 0 || v < 0.0f) {
            /* v < 0 never holds for inputs in [0, 1), but the compiler
             * cannot know: every thread's loads stay. */
            out[tile] = v;
        }
    }
}

/* Launches the levels as the lab's barriers_sum does, one kernel a level. */
template <bool STEP>
static int bar_levels(const float *d_in, int n, float *d_scratch, float *d_out, void *stream) {
    const float *in = d_in;
    float *next = d_scratch;
    for (int m = n;;) {
        const int tiles = barriers_tiles(m);
        float *out = tiles == 1 ? d_out : next;
        const int blocks = (tiles + BARRIERS_TILES_PER_BLOCK - 1) / BARRIERS_TILES_PER_BLOCK;
        bar_level_kernel<STEP><<<blocks, BARRIERS_BLOCK, 0, (cudaStream_t)stream>>>(in, m, out);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || tiles == 1)
            return e;
        in = out;
        m = tiles;
        next = out + tiles;
    }
}

extern "C" int bar_baseline_sum(const float *d_in, int n, float *d_scratch, float *d_out,
                                void *stream) {
    return bar_levels<true>(d_in, n, d_scratch, d_out, stream);
}

extern "C" int bar_loads_only(const float *d_in, int n, float *d_scratch, float *d_out,
                              void *stream) {
    return bar_levels<false>(d_in, n, d_scratch, d_out, stream);
}

/* Uniform floats in [0, 1) from a hash of the index: 24 random bits each,
 * so a large input is made on the device in a moment, and never zeros. */
__global__ void bar_fill_kernel(float *x, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint32_t h = (uint32_t)i * 2654435761u ^ (uint32_t)(i >> 32) * 40503u ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        h *= 3266489917u;
        h ^= h >> 16;
        x[i] = (float)(h >> 8) * (1.0f / 16777216.0f);
    }
}

extern "C" int bar_fill(float *d_x, size_t n, uint32_t seed) {
    bar_fill_kernel<<<4096, 256>>>(d_x, n, seed);
    cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

/* Busy-waits ns nanoseconds of the GPU's global timer. */
__global__ void bar_spin_kernel(long long ns) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < (unsigned long long)ns);
}

/* Queues on stream: a wait of ns nanoseconds, then the copy of the real
 * input over d_in. Work queued after this on the same stream sees the real
 * input; work launched on another stream may run during the wait. */
extern "C" int bar_delayed_copy(float *d_in, const float *d_src, size_t n, long long ns,
                                void *stream) {
    bar_spin_kernel<<<1, 1, 0, (cudaStream_t)stream>>>(ns);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    return cudaMemcpyAsync(d_in, d_src, n * sizeof(float), cudaMemcpyDeviceToDevice,
                           (cudaStream_t)stream);
}
