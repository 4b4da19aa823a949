/* warp_partitioning.h - the contract of lab 02: how a block of threads is cut into warps */
/* SPDX-License-Identifier: MIT */
#ifndef WARP_PARTITIONING_H
#define WARP_PARTITIONING_H

#include <cuda_runtime_api.h>
#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per warp on every GPU this workbook supports. The functions below
 * use this constant, not a device query, so they run without a GPU. */
#define WARP_PARTITIONING_WARP_SIZE 32

/* A block shape or a thread index, in plain ints so that C code can build
 * one (CUDA's dim3 and uint3 are C++ types). */
typedef struct warp_partitioning_dim {
    int x, y, z;
} warp_partitioning_dim;

/* A block shape is valid when 1 <= x <= 1024, 1 <= y <= 1024, 1 <= z <= 64
 * and x*y*z <= 1024 (the limits of every GPU this workbook supports). A
 * thread index t is valid for block b when 0 <= t.x < b.x, 0 <= t.y < b.y
 * and 0 <= t.z < b.z. Every function below returns -1 when a shape or an
 * index is not valid, and never reads outside its arguments.
 *
 * All of them are pure host code: they call no CUDA function and are graded
 * without a GPU, on every valid block shape or on thousands of random ones,
 * and on invalid ones. */

/* The position of thread t in the block's linear order: x varies fastest,
 * then y, then z (t.x + t.y*b.x + t.z*b.x*b.y). 0 .. x*y*z-1, or -1. */
int warp_partitioning_linear(warp_partitioning_dim t, warp_partitioning_dim b);

/* The warp of thread t: its linear position divided by the warp size
 * (0 .. warps-1), or -1. */
int warp_partitioning_warp(warp_partitioning_dim t, warp_partitioning_dim b);

/* The lane of thread t within its warp: its linear position modulo the
 * warp size (0 .. 31), or -1. */
int warp_partitioning_lane(warp_partitioning_dim t, warp_partitioning_dim b);

/* Warps the hardware gives block b: the thread count divided by the warp
 * size, rounded up (1 .. 32), or -1. */
int warp_partitioning_warps_per_block(warp_partitioning_dim b);

/* Lanes of those warps that hold no thread of block b (the padding of the
 * last, partial warp): warps x 32 - threads (0 .. 31), or -1. */
int warp_partitioning_idle_lanes(warp_partitioning_dim b);

/* What one thread of the recording kernel writes (see below). */
typedef struct warp_partitioning_thread {
    int tx, ty, tz;       /* its threadIdx */
    int linear;           /* warp_partitioning_linear_dev() */
    int warp;             /* warp_partitioning_warp_dev() */
    int lane;             /* warp_partitioning_lane_dev() */
    unsigned active_mask; /* __activemask() read as the kernel's first statement */
    /* Filled by the lab's code after yours, from the hardware itself: */
    int hw_lane;         /* %laneid: the lane the hardware ran this thread in */
    unsigned warp_mates; /* __match_any_sync: the lanes of this hardware warp whose
                            warp_partitioning_warp_dev() equals this thread's */
} warp_partitioning_thread;

/* Launches one block of shape (bx, by, bz) of the lab's recording kernel, in
 * which every thread computes its linear position, warp and lane with the
 * device functions below and writes one warp_partitioning_thread to
 * d_out[linear]. d_out is device memory with room for bx*by*bz records.
 * Waits for the kernel and returns the first error of the launch or the
 * kernel; returns cudaErrorInvalidValue without launching when the shape
 * is not valid (see above) or d_out is NULL. Needs a GPU: graded on
 * shapes from 1 to 1024 threads, 1D, 2D and 3D, with d_out filled with
 * 0xFF bytes first, every record checked against the host formulas, and
 * each warp's active mask checked against the threads it holds (the mask
 * has one bit per real thread, lanes 0 .. n-1, and padding lanes are not
 * active), and your formulas checked against the hardware: your lane must
 * be the lane the hardware ran the thread in (hw_lane), and the threads the
 * hardware put in one warp must all get the same warp number from your
 * formula (warp_mates == active_mask). No performance is asked of it. */
cudaError_t warp_partitioning_record(int bx, int by, int bz, warp_partitioning_thread *d_out);

/* ---- the performance task: a 2D image whose width is no multiple of 32 ---- */

/* Multiply-adds per pixel in warp_partitioning_shade_value (4 chains). */
#define WARP_PARTITIONING_SHADE_ITERS 256

#ifdef __CUDACC__
#define WARP_PARTITIONING_HD __host__ __device__
#else
#define WARP_PARTITIONING_HD
#endif
/* The per-pixel work, given: compute-bound, so a warp costs the same time
 * however many of its lanes hold a pixel. The grader's CPU reference calls
 * this same function; results must match it to a relative 1e-6. */
static WARP_PARTITIONING_HD inline float warp_partitioning_shade_value(float v) {
    float a = v, b = v * 0.5f, c = v * 0.25f, d = v * 0.125f;
    for (int i = 0; i < WARP_PARTITIONING_SHADE_ITERS; i++) {
        a = fmaf(a, 0.9999f, 0.0001f);
        b = fmaf(b, 0.9998f, 0.0002f);
        c = fmaf(c, 0.9997f, 0.0003f);
        d = fmaf(d, 0.9996f, 0.0004f);
    }
    return a + b + c + d;
}

/* d_out[y*width + x] = warp_partitioning_shade_value(d_in[y*width + x]) for
 * every pixel of a width x height image (device arrays; d_in is not
 * changed), launched asynchronously on stream with a 2D grid of 2D blocks
 * whose shape you choose. Returns cudaErrorInvalidValue for a NULL pointer
 * or a size below 1 (nothing launched), else the launch's error. Graded on
 * several sizes, outputs poisoned first, and then timed at 1000 x 8192
 * against the grader's launch of the same kernel with 33x1 blocks (two
 * warps per block, 31 of their 64 lanes idle): the speedup must reach 1.45x
 * (README.md, "What is graded"). */
cudaError_t warp_partitioning_shade(const float *d_in, float *d_out, int width, int height,
                                    cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* The device versions, for the calling thread, from the built-in threadIdx
 * and blockDim: the same numbers as the host functions above. Defined in
 * warp_partitioning.cu and graded through warp_partitioning_record. */
__device__ int warp_partitioning_linear_dev(void);
__device__ int warp_partitioning_warp_dev(void);
__device__ int warp_partitioning_lane_dev(void);
#endif

#endif
