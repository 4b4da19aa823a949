/* lo_baseline.cu - lab 08 grader-owned kernels: launch measurements, naive chain, serial copies */
/* SPDX-License-Identifier: MIT */
/* Compiled into the grader, so the student's file can change neither the
 * measurements the student's are compared with nor the baseline of the
 * performance tasks. The asynchronous empty launch is common/wb_ceiling.cu's
 * wb_measure_empty_launch_us. */
#include "launch_overhead.h"

#include <cuda_runtime.h>
#include <time.h>

#define LO_WARMUP 100
#define LO_STEP_THREADS 256
#define LO_WORK_THREADS 256

static double lo_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

__global__ void lo_empty_kernel(void) {}

/* One empty launch and its wait: the grader counts it to learn whether the
 * runtime's launches for <<<...>>>, built by this nvcc as the student's
 * are, reach its counters (grader/sim/sim_waits.c) at all. */
extern "C" int lo_probe_launch(void) {
    lo_empty_kernel<<<1, 1>>>();
    cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaDeviceSynchronize();
}

/* Microseconds per empty launch with a cudaDeviceSynchronize after each. */
extern "C" int lo_empty_sync_us(int launches, double *us) {
    for (int i = 0; i < LO_WARMUP; i++)
        lo_empty_kernel<<<1, 1>>>();
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    double t0 = lo_now_us();
    for (int i = 0; i < launches && e == cudaSuccess; i++) {
        lo_empty_kernel<<<1, 1>>>();
        e = cudaDeviceSynchronize();
    }
    double t1 = lo_now_us();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e == cudaSuccess)
        *us = (t1 - t0) / launches;
    return e;
}

/* The Handbook's busy-wait, on the 64-bit cycle counter. */
__global__ void lo_wait_kernel(long long cycles, long long *d_spent) {
    long long start = clock64(), now;
    do {
        now = clock64();
    } while (now - start < cycles);
    if (d_spent != NULL)
        *d_spent = now - start;
}

/* Microseconds per launch of the wait kernel: one synchronisation after the
 * loop, or (sync_each) one after every launch. */
extern "C" int lo_wait_us(long long cycles, int launches, int sync_each, double *us) {
    cudaError_t e = cudaSuccess;
    double t0 = lo_now_us();
    for (int i = 0; i < launches && e == cudaSuccess; i++) {
        lo_wait_kernel<<<1, 1>>>(cycles, NULL);
        if (sync_each)
            e = cudaDeviceSynchronize();
    }
    if (e == cudaSuccess && !sync_each)
        e = cudaDeviceSynchronize();
    double t1 = lo_now_us();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e == cudaSuccess)
        *us = (t1 - t0) / launches;
    return e;
}

/* The grader's sweep: the same points and loops as launch_overhead_sweep.
 * with_sync = 0 measures the asynchronous loop only (sync_us set to 0). */
extern "C" int lo_sweep(const long long *cycles, int points, int launches, int with_sync,
                        launch_overhead_point *out) {
    for (int i = 0; i < LO_WARMUP; i++)
        lo_wait_kernel<<<1, 1>>>(0, NULL);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    for (int i = 0; e == cudaSuccess && i < points; i++) {
        out[i].cycles = cycles[i];
        out[i].sync_us = 0;
        e = (cudaError_t)lo_wait_us(cycles[i], launches, 0, &out[i].async_us);
        if (e == cudaSuccess && with_sync)
            e = (cudaError_t)lo_wait_us(cycles[i], launches, 1, &out[i].sync_us);
    }
    return e;
}

/* The lab's step kernel, line for line. */
__global__ void lo_step_kernel(const uint32_t *in, uint32_t *out, int n, uint32_t step) {
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n)
        return;
    uint32_t left = in[i == 0 ? n - 1 : i - 1], right = in[i == n - 1 ? 0 : i + 1];
    out[i] = launch_overhead_step_value(left, in[i], right, step);
}

/* The naive chain: one kernel per step and a cudaStreamSynchronize after
 * each, as the stub does. */
extern "C" int lo_naive_chain(const uint32_t *d_in, uint32_t *d_out, uint32_t *d_work, int n,
                              int steps, void *stream) {
    cudaStream_t s = (cudaStream_t)stream;
    const unsigned blocks = (unsigned)((n + LO_STEP_THREADS - 1) / LO_STEP_THREADS);
    const uint32_t *src = d_in;
    for (int k = 0; k < steps; k++) {
        uint32_t *dst = (steps - 1 - k) % 2 == 0 ? d_out : d_work;
        lo_step_kernel<<<blocks, LO_STEP_THREADS, 0, s>>>(src, dst, n, (uint32_t)k);
        cudaError_t e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(s);
        if (e != cudaSuccess)
            return e;
        src = dst;
    }
    return cudaSuccess;
}

/* Busy-waits ns nanoseconds of the GPU's global timer. */
__global__ void lo_spin_kernel(long long ns) {
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < (unsigned long long)ns);
}

/* Queues on stream: a wait of ns nanoseconds, then the copy of the real
 * input over d_in. Work queued after this on the same stream sees the real
 * input; work on another stream may run during the wait and see the old. */
extern "C" int lo_delayed_copy(uint32_t *d_in, const uint32_t *d_src, size_t n, long long ns,
                               void *stream) {
    lo_spin_kernel<<<1, 1, 0, (cudaStream_t)stream>>>(ns);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    return cudaMemcpyAsync(d_in, d_src, n * sizeof(uint32_t), cudaMemcpyDeviceToDevice,
                           (cudaStream_t)stream);
}

/* Queues on stream a wait of ns nanoseconds (one thread, the GPU's global
 * timer): work queued behind it on that stream starts that much later. */
extern "C" int lo_spin(long long ns, void *stream) {
    lo_spin_kernel<<<1, 1, 0, (cudaStream_t)stream>>>(ns);
    return cudaGetLastError();
}

/* The lab's work kernel, line for line. */
__global__ void lo_work_kernel(const uint32_t *in, uint32_t *out, size_t n, int iters) {
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = launch_overhead_work_value(in[i], iters);
}

/* The work kernel over d_in[0 .. n) into d_out, on stream. */
extern "C" int lo_work(const uint32_t *d_in, uint32_t *d_out, size_t n, int iters, void *stream) {
    const unsigned blocks = (unsigned)((n + LO_WORK_THREADS - 1) / LO_WORK_THREADS);
    lo_work_kernel<<<blocks, LO_WORK_THREADS, 0, (cudaStream_t)stream>>>(d_in, d_out, n, iters);
    return cudaGetLastError();
}

/* The serial version, as the stub does it: all of h_in into d_in, the
 * kernel over all of it into d_out, all of d_out into h_out, one after
 * another on stream. */
extern "C" int lo_pipe_serial(const uint32_t *h_in, uint32_t *h_out, uint32_t *d_in,
                              uint32_t *d_out, size_t n, int iters, void *stream) {
    cudaStream_t s = (cudaStream_t)stream;
    const size_t bytes = n * sizeof(uint32_t);
    cudaError_t e = cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess)
        e = (cudaError_t)lo_work(d_in, d_out, n, iters, stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, s);
    return e;
}
