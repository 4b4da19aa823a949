/* divergence.h - the contract of lab 03: control divergence and warp-aligned branching */
/* SPDX-License-Identifier: MIT */
#ifndef DIVERGENCE_H
#define DIVERGENCE_H

#include <cuda_runtime_api.h>
#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per warp on every GPU this workbook supports. */
#define DIVERGENCE_WARP_SIZE 32
/* Threads per block of every kernel in this lab; a multiple of 64, so a
 * block holds whole pairs of warps. */
#define DIVERGENCE_BLOCK 256
/* Iterations of each branch body below (4 multiply-adds each). */
#define DIVERGENCE_ITERS 128

#ifdef __CUDACC__
#define DIVERGENCE_HD __host__ __device__
#else
#define DIVERGENCE_HD
#endif
/* On the GPU the bodies are unrolled completely: straight-line code, so
 * the only branches a warp meets are the ones this lab is about (a loop's
 * own back-edge branch would be counted by ncu as a uniform branch). */
#ifdef __CUDA_ARCH__
#define DIVERGENCE_UNROLL _Pragma("unroll")
#else
#define DIVERGENCE_UNROLL
#endif

/* The work for an even element: four independent chains of multiply-adds
 * (512 in all). Long on purpose: the compiler turns only very short
 * branches into predicated code, and this one must stay a real branch. */
static DIVERGENCE_HD inline float divergence_even_value(float v) {
    float a = v, b = v * 0.5f, c = v * 0.25f, d = v * 0.125f;
    DIVERGENCE_UNROLL
    for (int k = 0; k < DIVERGENCE_ITERS; k++) {
        a = fmaf(a, 0.9999f, 0.0001f);
        b = fmaf(b, 0.9998f, 0.0002f);
        c = fmaf(c, 0.9997f, 0.0003f);
        d = fmaf(d, 0.9996f, 0.0004f);
    }
    return a + b + c + d;
}

/* The work for an odd element: two pairs of coupled multiply-adds, each
 * pair a small rotation (512 in all): as long as the even body, but other
 * instructions, so the two bodies cannot be merged into one. */
static DIVERGENCE_HD inline float divergence_odd_value(float v) {
    float p = v, q = 1.0f - v, r = v * 0.5f, s = 0.5f;
    DIVERGENCE_UNROLL
    for (int k = 0; k < DIVERGENCE_ITERS; k++) {
        p = fmaf(q, -0.0078125f, p);
        q = fmaf(p, 0.0078125f, q);
        r = fmaf(s, -0.015625f, r);
        s = fmaf(r, 0.015625f, s);
    }
    return p + q + r + s;
}

/* The result every element i (0 <= i < n) must hold: the even body for an
 * even i, the odd body for an odd i. The grader's CPU reference calls this
 * same function; results must match it to a relative 1e-6. */
static DIVERGENCE_HD inline float divergence_value(int i, float v) {
    return i % 2 == 0 ? divergence_even_value(v) : divergence_odd_value(v);
}

/* Blocks and warps of the lab's launches for n elements: ceil(n / 256)
 * blocks of DIVERGENCE_BLOCK threads, 8 warps each. */
static inline int divergence_blocks(int n) {
    return (n + DIVERGENCE_BLOCK - 1) / DIVERGENCE_BLOCK;
}
static inline int divergence_warps(int n) {
    return divergence_blocks(n) * (DIVERGENCE_BLOCK / DIVERGENCE_WARP_SIZE);
}

/* Largest n any function below accepts. */
#define DIVERGENCE_MAX_N (1 << 28)

/* Computes d_out[i] = divergence_value(i, d_in[i]) for every i in [0, n)
 * (device arrays of n floats; d_in is not changed; nothing is written
 * outside d_out[0 .. n)), asynchronously on stream. Which thread computes
 * which element is yours to choose: the grader's baseline gives element g
 * to thread g, so the lanes of every warp alternate even, odd, even, ...
 * and every warp runs both bodies. Returns cudaErrorInvalidValue for a NULL
 * pointer or n outside [1, DIVERGENCE_MAX_N] (nothing launched), else the
 * launch's error. Graded on several sizes with d_out poisoned first, then
 * timed at n = 2^24 against that baseline: the speedup must reach 1.45x
 * (README.md, "What is graded"). */
cudaError_t divergence_run(const float *d_in, float *d_out, int n, cudaStream_t stream);

/* The two thread layouts divergence_count can measure. */
#define DIVERGENCE_DIVERGENT 0 /* thread g handles element g (the baseline's layout) */
#define DIVERGENCE_UNIFORM 1   /* your layout, the one divergence_run uses */

/* What one warp reports about its passes through the even/odd branch. */
typedef struct divergence_warp_count {
    int passes;            /* times the warp ran a branch body, either one */
    int lanes;             /* active lanes of those passes, added up */
    unsigned path_mask[2]; /* active lanes seen in the even body [0] and odd body [1] */
} divergence_warp_count;

/* Runs the lab's counting kernel for n elements with the given layout:
 * divergence_blocks(n) blocks of DIVERGENCE_BLOCK threads; each thread
 * computes the same element as in that layout (d_out as divergence_run
 * writes it), and in the body it runs, each warp records, with
 * __activemask(), one pass into d_counts[w] (w = the warp's index in the
 * grid, blockIdx.x * 8 + threadIdx.x / 32): passes + 1, lanes + the active
 * lane count, path_mask[body] |= the active mask. d_counts is a device array
 * of divergence_warps(n) records; this function zeroes it first, waits for
 * the kernel and returns its first error; cudaErrorInvalidValue (nothing
 * launched) for a NULL pointer, n outside [1, DIVERGENCE_MAX_N] or another
 * version. Graded exactly on the GPU: for DIVERGENCE_DIVERGENT, 2 passes in
 * every warp with two or more elements, 1 in a warp with one, 0 in a warp
 * with none, masks as the parity of its elements; for DIVERGENCE_UNIFORM, at
 * most 1 pass and one body in every warp, all n lanes accounted for. */
cudaError_t divergence_count(const float *d_in, float *d_out, int n, int version,
                             divergence_warp_count *d_counts);

#ifdef __cplusplus
}
#endif

#endif
