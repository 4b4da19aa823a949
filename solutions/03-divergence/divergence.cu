/* divergence.cu - lab 03: make a branch uniform within each warp; count the passes warps make */
/* SPDX-License-Identifier: MIT */
/*
 * You edit only this file and answers.txt. The contract (what each function
 * must do, and how it is graded) is in divergence.h; README.md explains the
 * background. `make grade LAB=03` grades your work.
 */
#include "divergence.h"

#include <cuda_runtime.h>

#define WARP DIVERGENCE_WARP_SIZE

/* ------------------------------------------------ who handles which element */

/* The element that thread g (its index in the grid: blockIdx.x * blockDim.x
 * + threadIdx.x) handles in your layout. Over the threads of a launch,
 * 0 .. divergence_blocks(n) * DIVERGENCE_BLOCK - 1, it must give every
 * element 0 .. n-1 to exactly one thread; threads that get an element >= n
 * do nothing. divergence_run and the counting kernel both use it. */
__device__ int divergence_uniform_element(int g) {
    /* TODO(03-divergence): give the 32 lanes of each warp elements of one parity only.
     * Hint: README.md, "Warp-aligned branching". */
    /* BEGIN STUDENT CODE */
    /* Cut the elements into chunks of 64, one chunk per pair of warps: the
     * even warp of the pair takes the chunk's 32 even elements, the odd warp
     * its 32 odd ones. Lane l of warp w gets element 64 * (w / 2) + 2 * l +
     * w % 2, so i % 2 == w % 2 for every lane: the branch on i % 2 is the
     * same for the whole warp. Each chunk is served by exactly the 64
     * threads with the same numbers, so this is a permutation of the grid's
     * threads, and a launch of whole blocks of 256 covers every chunk. */
    int w = g / WARP, lane = g % WARP;
    return (w / 2) * (2 * WARP) + 2 * lane + w % 2;
    /* END STUDENT CODE */
}

/* ------------------------------------------------------ the performance task */

/* One element per thread. The branch on the element's parity is the one
 * this lab is about: it diverges or not depending only on which elements
 * the lanes of a warp hold. */
__global__ void divergence_run_kernel(const float *in, float *out, int n) {
    int g = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    int i = divergence_uniform_element(g);
    if (i < 0 || i >= n)
        return;
    if (i % 2 == 0)
        out[i] = divergence_even_value(in[i]);
    else
        out[i] = divergence_odd_value(in[i]);
}

cudaError_t divergence_run(const float *d_in, float *d_out, int n, cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || n < 1 || n > DIVERGENCE_MAX_N)
        return cudaErrorInvalidValue;
    divergence_run_kernel<<<divergence_blocks(n), DIVERGENCE_BLOCK, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}

/* ------------------------------------------------------ the measurement task */

/* Called by every active thread of a warp inside one branch body (body 0:
 * even, 1: odd): records one pass of this warp into counts[its warp in the
 * grid], as divergence.h describes. */
__device__ void divergence_count_pass(divergence_warp_count *counts, int body) {
    /* TODO(03-divergence): record this pass once per warp, from __activemask().
     * Hint: README.md, "Counting passes". */
    /* BEGIN STUDENT CODE */
    /* The lanes running this body right now: inside a diverged branch,
     * only the lanes that took it. Read it once, before anything else can
     * split the warp further. */
    unsigned mask = __activemask();
    /* One lane speaks for the pass: the lowest active one. Blocks are 1D
     * and a multiple of 32 wide, so threadIdx.x % 32 is the lane. */
    int lane = (int)(threadIdx.x % WARP);
    if (lane == __ffs((int)mask) - 1) {
        divergence_warp_count *c = &counts[blockIdx.x * (blockDim.x / WARP) + threadIdx.x / WARP];
        /* Atomics, because the two passes of a diverged warp have different
         * leaders, and since Volta the passes may interleave. */
        atomicAdd(&c->passes, 1);
        atomicAdd(&c->lanes, __popc(mask));
        atomicOr(&c->path_mask[body], mask);
    }
    /* END STUDENT CODE */
}

/* The same work as the layout's own kernel, with one record per pass. The
 * count comes after each body's work, inside the branch: where both bodies
 * began with the same call, the compiler could hoist it above the branch,
 * and it would then see the whole warp. */
__global__ void divergence_count_kernel(const float *in, float *out, int n, int version,
                                        divergence_warp_count *counts) {
    int g = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    int i = version == DIVERGENCE_UNIFORM ? divergence_uniform_element(g) : g;
    if (i < 0 || i >= n)
        return;
    float v = in[i];
    if (i % 2 == 0) {
        v = divergence_even_value(v);
        divergence_count_pass(counts, 0);
    } else {
        v = divergence_odd_value(v);
        divergence_count_pass(counts, 1);
    }
    out[i] = v;
}

cudaError_t divergence_count(const float *d_in, float *d_out, int n, int version,
                             divergence_warp_count *d_counts) {
    if (d_in == NULL || d_out == NULL || d_counts == NULL || n < 1 || n > DIVERGENCE_MAX_N ||
        (version != DIVERGENCE_DIVERGENT && version != DIVERGENCE_UNIFORM))
        return cudaErrorInvalidValue;
    cudaError_t e = cudaMemset(d_counts, 0, (size_t)divergence_warps(n) * sizeof *d_counts);
    if (e != cudaSuccess)
        return e;
    divergence_count_kernel<<<divergence_blocks(n), DIVERGENCE_BLOCK>>>(d_in, d_out, n, version,
                                                                        d_counts);
    e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    return cudaDeviceSynchronize();
}
