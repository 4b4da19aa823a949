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
    /* Thread t hits word k + t*s, bank (k + t*s) % 32. Two threads t, u
     * share a bank when (t - u)*s is a multiple of 32, that is when t - u
     * is a multiple of 32 / gcd(s, 32). So the 32 threads fall into
     * 32 / gcd(s, 32) banks, gcd(s, 32) threads in each, all at different
     * words: the access takes gcd(s, 32) passes. Any odd stride is
     * conflict-free; a stride of 8 (distance 8, no padding) takes 8. */
    int a = stride_words, b = 32;
    while (b != 0) {
        int r = a % b;
        a = b;
        b = r;
    }
    return a;
    /* END STUDENT CODE */
}

int prefetching_min_distance(int latency_cycles, int work_cycles) {
    if (latency_cycles < 0 || work_cycles < 1)
        return -1;
    /* TODO(09-prefetching): the smallest distance whose loads arrive in time.
     * Hint: README.md, "A model of the loop". */
    /* BEGIN STUDENT CODE */
    /* A value loaded `distance` iterations ahead has distance * work cycles
     * to arrive: ceil(latency / work) iterations are enough. Integer
     * ceiling, so no rounding can make 800 / 200 come out as 5; quotient
     * plus one for a remainder, since latency + work - 1 can pass INT_MAX. */
    int d = latency_cycles / work_cycles + (latency_cycles % work_cycles != 0);
    return d < 1 ? 1 : d;
    /* END STUDENT CODE */
}

double prefetching_model_speedup(double latency_cycles, double work_cycles, int distance) {
    if (latency_cycles < 0 || work_cycles <= 0 || distance < 1)
        return -1;
    /* TODO(09-prefetching): the model's time per iteration, plain and prefetched.
     * Hint: README.md, "A model of the loop". */
    /* BEGIN STUDENT CODE */
    /* Plain loop: every iteration waits for its load, then computes.
     * Prefetched: each iteration computes (work), and the loads in flight,
     * `distance` of them per thread, each taking `latency`, deliver one
     * value per latency / distance cycles; the slower of the two sets the
     * pace. From distance >= latency / work on, only the work is left. */
    double plain = latency_cycles + work_cycles;
    double per_load = latency_cycles / distance;
    double prefetched = work_cycles > per_load ? work_cycles : per_load;
    return plain / prefetched;
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
    /* A batch is DIST elements of this thread's sequence: i, i + stride,
     * ..., i + (DIST - 1) * stride. Its DIST loads go out back to back into
     * DIST registers (v[k], k a compile-time constant in the unrolled
     * loops: no local memory) before any of them is used, so they overlap
     * and the batch waits once, about one latency, for DIST elements. The
     * next batch's loads come after this batch's stores, which for all the
     * compiler knows may write what they read: so every batch waits again,
     * and no load ever overlaps work. That is what a rolling prefetch
     * fixes (prefetching_regs_kernel below). */
    float v[DIST];
    int i = first;
    /* Whole batches: every element exists, so no load needs a condition. */
    for (; i + (DIST - 1) * stride < n; i += DIST * stride) {
#pragma unroll
        for (int k = 0; k < DIST; k++)
            v[k] = in[i + k * stride];
#pragma unroll
        for (int k = 0; k < DIST; k++)
            out[i + k * stride] = prefetching_work(v[k]);
    }
    /* The last, partial batch (none, when the thread's count is a multiple
     * of DIST): load only the elements below n, never past the end. */
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int cur = i + k * stride;
        v[k] = cur < n ? in[cur] : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int cur = i + k * stride;
        if (cur < n)
            out[cur] = prefetching_work(v[k]);
    }
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
    /* v[k] holds the element this thread computes k steps from now (a
     * rolling buffer). Registers cannot be indexed at run time, so the loop
     * walks DIST elements per pass with the slot k a compile-time constant
     * in the unrolled inner loop: v stays in registers. */
    float v[DIST];
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int j = first + k * stride;
        v[k] = j < n ? in[j] : 0.0f;
    }
    /* Whole passes: all DIST elements of the pass exist, so the body has
     * no branch. A refill under a condition makes the compiler load into a
     * spare register and copy it into the slot where the branches meet, and
     * that copy waits for the load: the prefetch is gone. Past the end the
     * refill index is clamped to the last element (read, never used). */
    int i = first;
    for (; i + (DIST - 1) * stride < n; i += DIST * stride) {
#pragma unroll
        for (int k = 0; k < DIST; k++) {
            int cur = i + k * stride;
            float x = v[k];
            v[k] = in[min(cur + DIST * stride, n - 1)];
            out[cur] = prefetching_work(x);
        }
    }
    /* The last, partial pass: its elements are already in registers. */
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int cur = i + k * stride;
        if (cur < n)
            out[cur] = prefetching_work(v[k]);
    }
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
    /* This thread's row: DIST slots, then `padding` unused floats, so that
     * rows are DIST + padding words apart. With an odd row length the 32
     * threads of a warp touch 32 different banks (README, "Padding against
     * bank conflicts"). Slots are private: no thread reads another's, so no
     * barrier is needed. */
    float *mine = prefetching_slots + threadIdx.x * (DIST + padding);
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int j = first + k * stride;
        if (j < n)
            mine[k] = in[j];
    }
    int slot = 0;
#pragma unroll 1
    for (int i = first; i < n; i += stride) {
        float x = mine[slot];
        int next = i + DIST * stride;
        /* A plain copy to shared memory goes through a register, and the
         * store cannot happen before the load has arrived. Storing it right
         * away would stall here for the whole latency; storing it after the
         * work lets one iteration's work hide it, and no more: whatever
         * DIST is, the load only ever runs one iteration ahead. (With a
         * __syncthreads in the loop it could not even do that.) That is
         * what asynchronous copies fix. */
        float y = next < n ? in[next] : 0.0f;
        out[i] = prefetching_work(x);
        if (next < n)
            mine[slot] = y;
        slot = slot + 1 < DIST ? slot + 1 : 0;
    }
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
    float *mine = prefetching_slots + threadIdx.x * (DIST + padding);
    /* Fill: one batch (commit) per slot, so that "all but the newest
     * DIST - 1 batches" below always means "up to the one I need now". */
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int j = first + k * stride;
        if (j < n)
            __pipeline_memcpy_async(&mine[k], &in[j], sizeof(float));
        __pipeline_commit();
    }
    int slot = 0;
#pragma unroll 1
    for (int i = first; i < n; i += stride) {
        /* The copy into this slot was committed DIST batches ago. */
        __pipeline_wait_prior(DIST - 1);
        float x = mine[slot];
        int next = i + DIST * stride;
        /* The copy goes from global to shared memory without a register
         * (LDGSTS on compute capability 8.0 and newer): nothing waits for it
         * until the wait_prior DIST iterations from now. */
        if (next < n)
            __pipeline_memcpy_async(&mine[slot], &in[next], sizeof(float));
        /* Commit every iteration, even with nothing copied near the end:
         * an empty batch keeps the count, so wait_prior(DIST - 1) still
         * waits for the right copy in the last DIST - 1 iterations. */
        __pipeline_commit();
        out[i] = prefetching_work(x);
        slot = slot + 1 < DIST ? slot + 1 : 0;
    }
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
    /* Asynchronous copies where the hardware has them (8.0 and newer),
     * registers elsewhere. Distance 8 covers a DRAM latency of up to about
     * eight times the work of one element (README, "A model of the loop");
     * padding 1 makes the row 9 floats, odd, so conflict-free.
     * On an H100 this gives 3.03-3.07x (H200: 3.00x), within 1 % of the
     * best asynchronous point of the sweep. Since the register variant's
     * hot loop lost its branches it is faster there (4.1-4.4x at distance
     * 11-16): pick from your own sweep. */
    int dev = 0, major = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e != cudaSuccess)
        return e;
    if (major >= 8)
        return prefetching_async(d_in, d_out, n, 8, 1, blocks, stream);
    return prefetching_regs(d_in, d_out, n, 8, 0, blocks, stream);
    /* END STUDENT CODE */
}
