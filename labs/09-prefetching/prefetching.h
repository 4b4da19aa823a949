/* prefetching.h - the contract of lab 09: software prefetching into registers and shared memory */
/* SPDX-License-Identifier: MIT */
#ifndef PREFETCHING_H
#define PREFETCHING_H

#include <cuda_runtime_api.h>
#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the workload ----
 *
 * Every variant computes d_out[i] = prefetching_work(d_in[i]) for i in
 * 0 .. n-1 with a grid-stride loop: thread t of block b handles the
 * elements first, first + stride, first + 2*stride, ... where
 * first = b * PREFETCHING_BLOCK + t and stride = blocks * PREFETCHING_BLOCK.
 * Each element is one 4-byte load followed by a dependent chain of
 * PREFETCHING_WORK_FMAS multiply-adds, and one store.
 *
 * The launch is fixed, the same for the grader's baseline and for every
 * variant, so that all of them run at the same occupancy: exactly one
 * kernel of `blocks` blocks of PREFETCHING_BLOCK threads on `stream`, with
 * at most PREFETCHING_MAX_SMEM bytes of dynamic shared memory. The grader
 * passes blocks = the number of SMs for its timings: one block, 8 warps,
 * per SM, far too few warps to hide a load's latency by switching warps.
 * The lab's launch code (outside the student regions of prefetching.cu)
 * does this; the grader checks every launch by capturing it into a CUDA
 * graph and reading the kernel node's grid, block and shared memory. */

/* Threads per block of every launch. */
#define PREFETCHING_BLOCK 256
/* Multiply-adds per element in prefetching_work. */
#define PREFETCHING_WORK_FMAS 64
/* Limits of the parameters (README.md, "The contract"). */
#define PREFETCHING_MAX_DISTANCE 16
#define PREFETCHING_MAX_PADDING 16
#define PREFETCHING_MAX_BLOCKS 4096
#define PREFETCHING_MAX_N (1 << 28)
/* The largest dynamic shared memory a launch may ask for: distance 16 plus
 * padding 16 floats for each of the 256 threads (32 KiB). */
#define PREFETCHING_MAX_SMEM                                                                       \
    ((PREFETCHING_MAX_DISTANCE + PREFETCHING_MAX_PADDING) * PREFETCHING_BLOCK * 4)

#ifdef __CUDACC__
#define PREFETCHING_HD __host__ __device__
#else
#define PREFETCHING_HD
#endif
/* The per-element work, given: one dependent chain, so each element costs
 * about PREFETCHING_WORK_FMAS times the multiply-add latency whatever the
 * GPU's throughput. The grader's CPU reference calls this same function;
 * results must match it exactly (fmaf rounds once on the CPU and the GPU). */
static PREFETCHING_HD inline float prefetching_work(float x) {
    float a = x;
    for (int k = 0; k < PREFETCHING_WORK_FMAS; k++)
        a = fmaf(a, 0.9990f, 0.0005f);
    return a;
}

/* ---- the four variants (README.md, "Tasks") ----
 *
 * Each computes d_out[i] = prefetching_work(d_in[i]) for every i < n with
 * the fixed launch above, asynchronously on stream (a stream of the
 * grader's, never the legacy default stream when timed). d_in and d_out
 * are device arrays of n floats; d_in is not changed, and nothing outside
 * d_in[0 .. n-1] is read and nothing outside d_out[0 .. n-1] written (the
 * grader allocates exactly n floats of input, runs compute-sanitizer
 * memcheck over every distance, and follows the n floats of output with a
 * guard zone that must stay untouched).
 *
 * distance (1 .. 16): how many elements ahead of the one being computed
 * each thread loads (for the batched variant, how many elements each batch
 * loads at once). padding (0 .. 16): extra floats after each thread's
 * `distance` slots of shared memory, against bank conflicts; the two
 * register variants have no shared buffer and ignore it (but still check
 * its range). The dynamic shared memory of the smem and async launches is
 * (distance + padding) * PREFETCHING_BLOCK * sizeof(float) bytes, that of
 * the two register launches 0; the grader reads both from the launch. How a
 * kernel lays its rows out inside that memory it cannot see, and padding
 * moves this loop's speed by a few per cent at most, so the row layout is
 * advice (README.md, "Padding against bank conflicts"), not graded.
 *
 * Returns cudaErrorInvalidValue, launching nothing, when n < 0 or
 * n > PREFETCHING_MAX_N, when distance, padding or blocks (1 .. 4096) is out
 * of range, or when n > 0 and a pointer is NULL; cudaSuccess without a
 * launch when n == 0; else the launch's error. Graded on sizes from 1 to
 * about 300,000, most of them not multiples of distance * stride, with the
 * output poisoned first and every element compared with the CPU.
 *
 * Three of them are also timed, at n = 2^25 with blocks = the number of
 * SMs against the grader's plain loop, each against a limit of its own
 * (README.md, "What is graded"): prefetching_batched at distance 8,
 * prefetching_regs at distance 8, and prefetching_async at distance 8,
 * padding 1 (from compute capability 8.0 on; below it the copies are plain
 * and it is graded for correctness only). prefetching_smem is not timed:
 * its plain loads run at most one iteration ahead whatever the distance, so
 * it cannot beat the plain loop by a margin a limit could rest on on every
 * GPU. prefetching_async is also timed at distance 6 with the blog's
 * padding, beside prefetching_best, for the blog's headline result
 * (measure.blog: reported, never graded). */

/* Batched prefetch into registers, the blog's first variant: each thread
 * works through its elements in batches of `distance`; it loads all the
 * elements of a batch into registers first, then works on them one per
 * iteration, and loads the next batch only after that. The loads of a
 * batch overlap each other, but every batch waits for its first load
 * (README.md, "Batched prefetch into registers"). No dynamic shared memory;
 * padding is checked and ignored. Its last batch is usually partial: it
 * loads only the elements below n, and nothing past the end. */
cudaError_t prefetching_batched(const float *d_in, float *d_out, int n, int distance, int padding,
                                int blocks, cudaStream_t stream);

/* Rolling prefetch into registers: each thread keeps the next `distance`
 * elements of its own sequence in registers and loads a new one each
 * iteration (README.md, "Rolling prefetch into registers"). */
cudaError_t prefetching_regs(const float *d_in, float *d_out, int n, int distance, int padding,
                             int blocks, cudaStream_t stream);

/* Rolling prefetch into shared memory with plain loads: the same, with the
 * prefetched values in a per-thread row of shared memory of
 * distance + padding floats (README.md, "Rolling prefetch into shared memory"). */
cudaError_t prefetching_smem(const float *d_in, float *d_out, int n, int distance, int padding,
                             int blocks, cudaStream_t stream);

/* Rolling prefetch into shared memory with asynchronous copies
 * (__pipeline_memcpy_async, __pipeline_commit, __pipeline_wait_prior from
 * <cuda_pipeline.h>). Its kernel is named prefetching_async_kernel: where
 * cuobjdump is present the grader checks that its machine code for compute
 * capability 8.0 and newer issues LDGSTS (asynchronous global-to-shared
 * copies). Below 8.0 the copies are plain and this variant is graded for
 * correctness only (README.md, "Asynchronous copies"). */
cudaError_t prefetching_async(const float *d_in, float *d_out, int n, int distance, int padding,
                              int blocks, cudaStream_t stream);

/* Your fastest variant, distance and padding on your GPU (pick them from
 * the grader's sweep, prefetch_sweep.csv), with the same fixed launch:
 * one kernel, `blocks` blocks of PREFETCHING_BLOCK threads, at most
 * PREFETCHING_MAX_SMEM bytes of dynamic shared memory. Same errors and the
 * same bounds as above (it also runs under compute-sanitizer memcheck).
 * Timed at n = 2^25 with blocks = the number of SMs against the grader's
 * plain loop at the same launch: the speedup must reach the limit of
 * README.md, "What is graded". */
cudaError_t prefetching_best(const float *d_in, float *d_out, int n, int blocks,
                             cudaStream_t stream);

/* ---- calculators, pure host code, graded without a GPU ---- */

/* Shared memory has 32 banks of 4-byte words; word w lies in bank w % 32.
 * The 32 threads of a warp each access one float of their own row of a
 * buffer whose rows are stride_words floats apart (thread t reads word
 * k + t * stride_words, the same k for all). Returns the number of threads
 * that fall into the busiest bank, i.e. how many passes the access takes
 * (1 = no conflict, 32 = all in one bank); -1 when stride_words < 1.
 * (README.md, "Padding against bank conflicts") */
int prefetching_conflict_ways(int stride_words);

/* The smallest rolling prefetch distance whose loads arrive in time: a
 * load issued distance iterations ahead has distance * work_cycles to
 * arrive, and must cover latency_cycles. At least 1. Returns -1 when
 * latency_cycles < 0 or work_cycles < 1. (README.md, "A model of the loop") */
int prefetching_min_distance(int latency_cycles, int work_cycles);

/* The model's speedup of a rolling prefetch at this distance over the
 * plain loop: (latency + work) / max(work, latency / distance). Returns
 * -1 when latency_cycles < 0, work_cycles <= 0 or distance < 1. Graded to a
 * relative 1e-9. (README.md, "A model of the loop") */
double prefetching_model_speedup(double latency_cycles, double work_cycles, int distance);

#ifdef __cplusplus
}
#endif
#endif
