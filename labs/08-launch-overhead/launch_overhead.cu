/* launch_overhead.cu - lab 08: what a launch costs, launching less often, overlapping copies */
/* SPDX-License-Identifier: MIT */
/*
 * You edit only this file and answers.txt. The contract (what each function
 * must return, and how it is graded) is in launch_overhead.h; README.md
 * explains the background. `make grade LAB=08` grades your work.
 */
#include "launch_overhead.h"

#include <cuda_runtime.h>
#include <math.h>
#include <time.h>

/* Untimed launches before each measurement. */
#define WARMUP_LAUNCHES 100
/* Threads per block of the chain's step kernel. */
#define STEP_THREADS 256
/* Threads per block of the pipeline's work kernel. */
#define WORK_THREADS 256

/* ------------------------------------------------- the host clock */

/* Microseconds on the host's monotonic clock (never set back, unlike the
 * time of day). [[maybe_unused]]: the stub does not call it yet. */
[[maybe_unused]] static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* ------------------------------------------------- part 1: empty launches */

/* Does nothing: all it costs is its launch. */
__global__ void launch_overhead_empty_kernel(void) {}

/* A few untimed launches and a wait, so that loading the kernel's code and
 * the first launch's set-up are not in the timed loop. */
static cudaError_t warm_up_empty(void) {
    for (int i = 0; i < WARMUP_LAUNCHES; i++)
        launch_overhead_empty_kernel<<<1, 1>>>();
    cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

cudaError_t launch_overhead_empty_async(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    cudaError_t e = warm_up_empty();
    if (e != cudaSuccess)
        return e;
    /* TODO(08-launch-overhead): time `launches` empty launches with one
     * synchronisation after the loop.
     * Hint: README.md, "Measuring host time". */
    /* BEGIN STUDENT CODE */
    *us_per_launch = 0.0; /* not measured yet */
    return cudaSuccess;
    /* END STUDENT CODE */
}

cudaError_t launch_overhead_empty_sync(int launches, double *us_per_launch) {
    if (launches < 1 || us_per_launch == NULL)
        return cudaErrorInvalidValue;
    cudaError_t e = warm_up_empty();
    if (e != cudaSuccess)
        return e;
    /* TODO(08-launch-overhead): the same, with a synchronisation after every launch.
     * Hint: README.md, "Waiting after every launch". */
    /* BEGIN STUDENT CODE */
    *us_per_launch = 0.0; /* not measured yet */
    return cudaSuccess;
    /* END STUDENT CODE */
}

/* ------------------------------------------------- part 1: the sweep */

/* One thread spins until clock64() has advanced by at least `cycles`. When
 * d_spent is not NULL it receives the cycles actually spent. */
__global__ void launch_overhead_wait_kernel(long long cycles, long long *d_spent) {
    /* TODO(08-launch-overhead): busy-wait `cycles` SM clock cycles, in a way
     * the compiler cannot remove.
     * Hint: README.md, "How much work hides a launch". */
    /* BEGIN STUDENT CODE */
    (void)cycles;
    (void)d_spent;
    /* END STUDENT CODE */
}

/* Microseconds per launch of the wait kernel busy-waiting `cycles`:
 * `launches` launches, with a synchronisation after each one when
 * sync_each is set, else one after the loop. */
static cudaError_t time_wait(long long cycles, int launches, int sync_each, double *us) {
    /* TODO(08-launch-overhead): both timed loops of the sweep.
     * Hint: README.md, "How much work hides a launch". */
    /* BEGIN STUDENT CODE */
    (void)cycles;
    (void)launches;
    (void)sync_each;
    *us = 0.0; /* not measured yet */
    return cudaSuccess;
    /* END STUDENT CODE */
}

cudaError_t launch_overhead_sweep(const long long *cycles, int points, int launches,
                                  launch_overhead_point *out) {
    if (cycles == NULL || out == NULL || points < 1 || launches < 1)
        return cudaErrorInvalidValue;
    for (int i = 0; i < points; i++)
        if (cycles[i] < 0)
            return cudaErrorInvalidValue;
    for (int i = 0; i < WARMUP_LAUNCHES; i++)
        launch_overhead_wait_kernel<<<1, 1>>>(0, NULL);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    for (int i = 0; e == cudaSuccess && i < points; i++) {
        out[i].cycles = cycles[i];
        e = time_wait(cycles[i], launches, 0, &out[i].async_us);
        if (e == cudaSuccess)
            e = time_wait(cycles[i], launches, 1, &out[i].sync_us);
    }
    return e;
}

double launch_overhead_break_even(const launch_overhead_point *pts, int points,
                                  double empty_async_us) {
    /* TODO(08-launch-overhead): where the asynchronous time first reaches
     * twice an empty launch, interpolated between two points.
     * Hint: README.md, "The break-even point". */
    /* BEGIN STUDENT CODE */
    (void)pts;
    (void)points;
    (void)empty_async_us;
    return -1.0;
    /* END STUDENT CODE */
}

/* ------------------------------------------------- part 2: the chain */

/* One step: every word from its old value and its two neighbours' on the ring. */
__global__ void launch_overhead_step_kernel(const uint32_t *in, uint32_t *out, int n,
                                            uint32_t step) {
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n)
        return;
    uint32_t left = in[i == 0 ? n - 1 : i - 1], right = in[i == n - 1 ? 0 : i + 1];
    out[i] = launch_overhead_step_value(left, in[i], right, step);
}

/* Queues the chain's steps on stream, one kernel per step, alternating
 * between d_work and d_out so that the last step writes d_out (step 0
 * reads d_in). With sync_each, waits for every step before it launches the
 * next: what a program does when it checks each result, or simply by habit. */
static cudaError_t enqueue_steps(const uint32_t *d_in, uint32_t *d_out, uint32_t *d_work, int n,
                                 int steps, cudaStream_t stream, int sync_each) {
    const unsigned blocks = (unsigned)((n + STEP_THREADS - 1) / STEP_THREADS);
    const uint32_t *src = d_in;
    for (int s = 0; s < steps; s++) {
        uint32_t *dst = (steps - 1 - s) % 2 == 0 ? d_out : d_work;
        launch_overhead_step_kernel<<<blocks, STEP_THREADS, 0, stream>>>(src, dst, n, (uint32_t)s);
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess && sync_each)
            e = cudaStreamSynchronize(stream);
        if (e != cudaSuccess)
            return e;
        src = dst;
    }
    return cudaSuccess;
}

cudaError_t launch_overhead_chain(const uint32_t *d_in, uint32_t *d_out, uint32_t *d_work, int n,
                                  int steps, cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || d_work == NULL || n < 1 || n > LAUNCH_OVERHEAD_MAX_N ||
        steps < 1)
        return cudaErrorInvalidValue;
    /* TODO(08-launch-overhead): the same steps, without paying a launch and a
     * round trip to the host for each one.
     * Hint: README.md, "CUDA graphs". */
    /* BEGIN STUDENT CODE */
    return enqueue_steps(d_in, d_out, d_work, n, steps, stream, 1);
    /* END STUDENT CODE */
}

/* ------------------------------------------------- part 3: copies that overlap kernels */

/* Every element of in[0 .. n) through the work, into out[0 .. n). The
 * threads of the rounded-up last block that have no element store nothing. */
__global__ void launch_overhead_work_kernel(const uint32_t *in, uint32_t *out, size_t n,
                                            int iters) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = launch_overhead_work_value(in[i], iters);
}

/* Queues the work kernel over n elements on stream s: d_in and d_out may
 * point into the middle of the caller's buffers (a chunk). */
static cudaError_t enqueue_work(const uint32_t *d_in, uint32_t *d_out, size_t n, int iters,
                                cudaStream_t s) {
    const unsigned blocks = (unsigned)((n + WORK_THREADS - 1) / WORK_THREADS);
    launch_overhead_work_kernel<<<blocks, WORK_THREADS, 0, s>>>(d_in, d_out, n, iters);
    return cudaGetLastError();
}

cudaError_t launch_overhead_pipeline(const uint32_t *h_in, uint32_t *h_out, uint32_t *d_in,
                                     uint32_t *d_out, size_t n, size_t chunk, int iters,
                                     const cudaStream_t *streams, int n_streams) {
    if (h_in == NULL || h_out == NULL || d_in == NULL || d_out == NULL || streams == NULL ||
        n < 1 || n > LAUNCH_OVERHEAD_MAX_ELEMS || chunk < 1 || iters < 0 || n_streams < 1 ||
        n_streams > LAUNCH_OVERHEAD_MAX_STREAMS)
        return cudaErrorInvalidValue;
    /* TODO(08-launch-overhead): cut the work into chunks and spread them over
     * the streams, so that copies in, kernels and copies out overlap.
     * Hint: README.md, "Copies that overlap kernels". */
    /* BEGIN STUDENT CODE */
    /* The serial version: all of the input in, one kernel, all of the
     * output out, one after another on one stream. Correct, and slow. */
    const size_t bytes = n * sizeof(uint32_t);
    cudaError_t e = cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, streams[0]);
    if (e == cudaSuccess)
        e = enqueue_work(d_in, d_out, n, iters, streams[0]);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, streams[0]);
    return e;
    /* END STUDENT CODE */
}
