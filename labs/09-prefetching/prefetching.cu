/* prefetching.cu - lab 09: load the elements of a latency-bound loop before they are needed */
/* SPDX-License-Identifier: MIT */
/*
 * You edit only this file and answers.txt. The contract (what each function
 * must compute, how it is launched and how it is graded) is in
 * prefetching.h; README.md explains the background. `make grade LAB=09`
 * grades your work.
 *
 * Each variant is a kernel template over the prefetch distance DIST, with
 * one student region for its loop. The launches below it are given: they
 * are the same for every variant and for the grader's baseline, so that
 * all of them run at one block of 256 threads per SM.
 */
#include "prefetching.h"

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#define BLOCK PREFETCHING_BLOCK

/* The launch's dynamic shared memory: (DIST + padding) floats per thread
 * for the smem and async variants. */
extern __shared__ float prefetching_slots[];

/* ------------------------------------------------------ on the host: models */

int prefetching_conflict_ways(int stride_words) {
    if (stride_words < 1)
        return -1;
    /* TODO(09-prefetching): how many threads of a warp land in the busiest bank?
     * Hint: README.md, "Padding against bank conflicts". */
    /* BEGIN STUDENT CODE */
    return 0;
    /* END STUDENT CODE */
}

int prefetching_min_distance(int latency_cycles, int work_cycles) {
    if (latency_cycles < 0 || work_cycles < 1)
        return -1;
    /* TODO(09-prefetching): the smallest distance whose loads arrive in time.
     * Hint: README.md, "A model of the loop". */
    /* BEGIN STUDENT CODE */
    return 0;
    /* END STUDENT CODE */
}

double prefetching_model_speedup(double latency_cycles, double work_cycles, int distance) {
    if (latency_cycles < 0 || work_cycles <= 0 || distance < 1)
        return -1;
    /* TODO(09-prefetching): the model's time per iteration, plain and prefetched.
     * Hint: README.md, "A model of the loop". */
    /* BEGIN STUDENT CODE */
    return 1.0;
    /* END STUDENT CODE */
}

/* ------------------------------------------------- on the GPU: the variants */

/* Thread `first` handles elements first, first + stride, ... < n. */
template <int DIST>
__global__ void __launch_bounds__(BLOCK)
    prefetching_batched_kernel(const float *in, float *out, int n) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    /* TODO(09-prefetching): load this thread's elements DIST at a time into registers,
     * all of a batch before any is used, then work on them one by one.
     * Hint: README.md, "Batched prefetch into registers". */
    /* BEGIN STUDENT CODE */
    /* The plain loop, as the grader's baseline runs it: each iteration
     * waits for its own load before it can compute. */
#pragma unroll 1
    for (int i = first; i < n; i += stride)
        out[i] = prefetching_work(in[i]);
    /* END STUDENT CODE */
}

template <int DIST>
__global__ void __launch_bounds__(BLOCK)
    prefetching_regs_kernel(const float *in, float *out, int n) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    /* TODO(09-prefetching): keep the next DIST elements of this thread in registers.
     * Hint: README.md, "Rolling prefetch into registers". */
    /* BEGIN STUDENT CODE */
    /* The plain loop, as the grader's baseline runs it: each iteration
     * waits for its own load before it can compute. */
#pragma unroll 1
    for (int i = first; i < n; i += stride)
        out[i] = prefetching_work(in[i]);
    /* END STUDENT CODE */
}

template <int DIST>
__global__ void __launch_bounds__(BLOCK)
    prefetching_smem_kernel(const float *in, float *out, int n, int padding) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    /* TODO(09-prefetching): keep the next DIST elements in this thread's row of
     * prefetching_slots, DIST + padding floats wide, loaded with plain loads.
     * Hint: README.md, "Rolling prefetch into shared memory". */
    /* BEGIN STUDENT CODE */
    (void)padding;
#pragma unroll 1
    for (int i = first; i < n; i += stride)
        out[i] = prefetching_work(in[i]);
    /* END STUDENT CODE */
}

template <int DIST>
__global__ void __launch_bounds__(BLOCK)
    prefetching_async_kernel(const float *in, float *out, int n, int padding) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    /* TODO(09-prefetching): the same with asynchronous copies into shared memory:
     * __pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior.
     * Hint: README.md, "Asynchronous copies". */
    /* BEGIN STUDENT CODE */
    (void)padding;
#pragma unroll 1
    for (int i = first; i < n; i += stride)
        out[i] = prefetching_work(in[i]);
    /* END STUDENT CODE */
}

/* ------------------------------------------------------------ the launches */

/* One instantiation per distance, 1 .. 16: the distance must be known at
 * compile time for the registers to stay registers. */
#define PREFETCHING_TABLE(k)                                                                       \
    {                                                                                              \
        k<1>, k<2>, k<3>, k<4>, k<5>, k<6>, k<7>, k<8>, k<9>, k<10>, k<11>, k<12>, k<13>, k<14>,   \
            k<15>, k<16>                                                                           \
    }

typedef void (*prefetching_regs_fn)(const float *, float *, int);
typedef void (*prefetching_slots_fn)(const float *, float *, int, int);

static const prefetching_regs_fn batched_kernels[] = PREFETCHING_TABLE(prefetching_batched_kernel);
static const prefetching_regs_fn regs_kernels[] = PREFETCHING_TABLE(prefetching_regs_kernel);
static const prefetching_slots_fn smem_kernels[] = PREFETCHING_TABLE(prefetching_smem_kernel);
static const prefetching_slots_fn async_kernels[] = PREFETCHING_TABLE(prefetching_async_kernel);

/* cudaErrorInvalidValue for arguments outside the contract, else success. */
static cudaError_t check_args(const float *d_in, const float *d_out, int n, int distance,
                              int padding, int blocks) {
    if (n < 0 || n > PREFETCHING_MAX_N || distance < 1 || distance > PREFETCHING_MAX_DISTANCE ||
        padding < 0 || padding > PREFETCHING_MAX_PADDING || blocks < 1 ||
        blocks > PREFETCHING_MAX_BLOCKS || (n > 0 && (d_in == NULL || d_out == NULL)))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

static size_t slot_bytes(int distance, int padding) {
    return (size_t)(distance + padding) * BLOCK * sizeof(float);
}

cudaError_t prefetching_batched(const float *d_in, float *d_out, int n, int distance, int padding,
                                int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    batched_kernels[distance - 1]<<<blocks, BLOCK, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}

cudaError_t prefetching_regs(const float *d_in, float *d_out, int n, int distance, int padding,
                             int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    regs_kernels[distance - 1]<<<blocks, BLOCK, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}

cudaError_t prefetching_smem(const float *d_in, float *d_out, int n, int distance, int padding,
                             int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    smem_kernels[distance - 1]<<<blocks, BLOCK, slot_bytes(distance, padding), stream>>>(
        d_in, d_out, n, padding);
    return cudaGetLastError();
}

cudaError_t prefetching_async(const float *d_in, float *d_out, int n, int distance, int padding,
                              int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    async_kernels[distance - 1]<<<blocks, BLOCK, slot_bytes(distance, padding), stream>>>(
        d_in, d_out, n, padding);
    return cudaGetLastError();
}

cudaError_t prefetching_best(const float *d_in, float *d_out, int n, int blocks,
                             cudaStream_t stream) {
    /* TODO(09-prefetching): call your fastest variant with the distance and
     * padding your sweep (prefetch_sweep.csv) found best on your GPU.
     * Hint: README.md, "Choosing the best". */
    /* BEGIN STUDENT CODE */
    return prefetching_regs(d_in, d_out, n, 1, 0, blocks, stream);
    /* END STUDENT CODE */
}
