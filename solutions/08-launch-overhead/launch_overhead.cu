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
    double t0 = now_us();
    for (int i = 0; i < launches; i++)
        launch_overhead_empty_kernel<<<1, 1>>>();
    /* Each launch above returned as soon as the driver had queued it. The
     * GPU may still be working through the queue: without this wait the
     * clock would stop early and leave out launches that were asked for.
     * One wait for the whole loop costs one round trip, shared by all. */
    e = cudaDeviceSynchronize();
    double t1 = now_us();
    if (e == cudaSuccess)
        e = cudaGetLastError(); /* a failed launch, reported once for the loop */
    if (e != cudaSuccess)
        return e;
    *us_per_launch = (t1 - t0) / launches;
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
    double t0 = now_us();
    for (int i = 0; i < launches && e == cudaSuccess; i++) {
        launch_overhead_empty_kernel<<<1, 1>>>();
        /* The host now waits for the GPU to run the kernel and to report
         * back before it may queue the next one: every launch pays the
         * driver, the trip to the GPU, the kernel and the trip back. */
        e = cudaDeviceSynchronize();
    }
    double t1 = now_us();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    *us_per_launch = (t1 - t0) / launches;
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
    /* clock64() reads the SM's cycle counter; it is volatile to the
     * compiler, so the loop cannot be folded away. */
    long long start = clock64(), now;
    do {
        now = clock64();
    } while (now - start < cycles);
    /* The store depends on the loop's result and on an argument the
     * compiler cannot know (the sweep passes NULL), so the loop must run
     * in full: the Handbook's trick against a loop optimised out. */
    if (d_spent != NULL)
        *d_spent = now - start;
    /* END STUDENT CODE */
}

/* Microseconds per launch of the wait kernel busy-waiting `cycles`:
 * `launches` launches, with a synchronisation after each one when
 * sync_each is set, else one after the loop. */
static cudaError_t time_wait(long long cycles, int launches, int sync_each, double *us) {
    /* TODO(08-launch-overhead): both timed loops of the sweep.
     * Hint: README.md, "How much work hides a launch". */
    /* BEGIN STUDENT CODE */
    cudaError_t e = cudaSuccess;
    double t0 = now_us();
    for (int i = 0; i < launches && e == cudaSuccess; i++) {
        launch_overhead_wait_kernel<<<1, 1>>>(cycles, NULL);
        if (sync_each)
            e = cudaDeviceSynchronize();
    }
    /* Asynchronous loop: the host queued the kernels faster than the GPU
     * ran them once they are long enough, so most of them are still
     * waiting here; the clock must stop only after the last one. */
    if (e == cudaSuccess && !sync_each)
        e = cudaDeviceSynchronize();
    double t1 = now_us();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    *us = (t1 - t0) / launches;
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
    if (pts == NULL || points < 1 || !(empty_async_us > 0) || !isfinite(empty_async_us))
        return -1.0;
    for (int i = 1; i < points; i++)
        if (pts[i].cycles <= pts[i - 1].cycles)
            return -1.0;
    const double threshold = 2.0 * empty_async_us;
    for (int i = 0; i < points; i++) {
        if (!(pts[i].async_us >= threshold))
            continue;
        if (i == 0)
            return (double)pts[0].cycles;
        /* The first crossing: point i-1 is below the threshold, point i at or
         * above it, so a1 > a0 and the division is safe. Between the two
         * measured points, the line through them is the best guess. */
        const double c0 = (double)pts[i - 1].cycles, c1 = (double)pts[i].cycles;
        const double a0 = pts[i - 1].async_us, a1 = pts[i].async_us;
        return c0 + (c1 - c0) * (threshold - a0) / (a1 - a0);
    }
    return -1.0; /* never reached: the sweep stops short of the break-even point */
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
    /* The steps cannot overlap, so the GPU's time per step is one small
     * kernel. What can go is the host's part: the wait after each step (a
     * round trip per step) and the driver's work for each launch. A CUDA
     * graph removes both. The steps are recorded once by stream capture
     * (launches on a capturing stream are recorded, not run), the graph is
     * instantiated once (the driver checks and packs every launch then),
     * and each call is then one cudaGraphLaunch: one host call for all
     * `steps` kernels, which the GPU runs back to back, still in order.
     *
     * A graph's kernel nodes hold their arguments, the pointers included,
     * so the instantiated graph serves only calls with the same pointers,
     * size and step count; any other call builds a new one. (Other ways to
     * the same end: fusing all steps into one kernel that loops over them
     * with a grid-wide barrier, or several steps per launch.) */
    static struct {
        const uint32_t *in;
        uint32_t *out, *work;
        int n, steps;
        cudaGraphExec_t exec;
    } cache;
    static cudaStream_t capture; /* capture needs a stream of its own: never the legacy stream */
    cudaError_t e;
    if (capture == NULL &&
        (e = cudaStreamCreateWithFlags(&capture, cudaStreamNonBlocking)) != cudaSuccess)
        return e;
    if (cache.exec == NULL || cache.in != d_in || cache.out != d_out || cache.work != d_work ||
        cache.n != n || cache.steps != steps) {
        if (cache.exec != NULL)
            cudaGraphExecDestroy(cache.exec);
        cache.exec = NULL;
        cudaGraph_t graph = NULL;
        /* Thread-local mode: only this thread's calls are checked for use
         * that capture forbids (a synchronisation, for one). */
        if ((e = cudaStreamBeginCapture(capture, cudaStreamCaptureModeThreadLocal)) != cudaSuccess)
            return e;
        cudaError_t queued = enqueue_steps(d_in, d_out, d_work, n, steps, capture, 0);
        e = cudaStreamEndCapture(capture, &graph); /* always end a capture that began */
        if (queued != cudaSuccess || e != cudaSuccess) {
            if (graph != NULL)
                cudaGraphDestroy(graph);
            return queued != cudaSuccess ? queued : e;
        }
        e = cudaGraphInstantiate(&cache.exec, graph, 0);
        cudaGraphDestroy(graph); /* the executable graph keeps its own copy */
        if (e != cudaSuccess) {
            cache.exec = NULL;
            return e;
        }
        cache.in = d_in;
        cache.out = d_out;
        cache.work = d_work;
        cache.n = n;
        cache.steps = steps;
    }
    /* Launched on the caller's stream, behind whatever it queued before. */
    return cudaGraphLaunch(cache.exec, stream);
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
    /* Three stages per chunk: copy in (a copy engine, host to device),
     * the kernel (the SMs), copy out (a copy engine, device to host). In
     * the serial version each stage waits for the whole of the one before,
     * and two of the three kinds of hardware idle at any moment. Cut into
     * chunks, chunk k needs only its own copy in before its kernel, and its
     * own kernel before its copy out, so while the SMs work on chunk k, a
     * copy engine can bring chunk k+1 in and take chunk k-1 out.
     *
     * A stream runs its work in order, so the three stages of one chunk go
     * on one stream, in order: that is every dependency there is. Chunks
     * on different streams have no order between them, and the GPU runs
     * them as soon as their engine is free. Streams are reused round robin:
     * chunk k waits, on its stream, behind chunk k - n_streams, which is
     * long done when the pipeline is full. Where a chunk's kernel takes at
     * least as long as its two copies together (as in the timed problem),
     * two streams already keep the SMs busy: chunk k+1's kernel runs while
     * chunk k is copied out and chunk k+2 copied in on the other stream.
     * More streams give the GPU more to choose from when it is not so.
     *
     * Nothing here waits: each call only queues work and returns, so the
     * whole pipeline is queued in microseconds and the host is free while
     * the GPU works (the CUDA Handbook's CPU/GPU concurrency). The copies
     * are asynchronous only because h_in and h_out are pinned: the copy
     * engines read and write them directly. From pageable memory the
     * driver would stage the data through a pinned buffer of its own, and
     * a copy out would return only once it had finished. */
    const size_t chunks = n / chunk + (n % chunk != 0); /* no n + chunk - 1: chunk may be huge */
    for (size_t k = 0; k < chunks; k++) {
        const size_t first = k * chunk, len = n - first < chunk ? n - first : chunk;
        const size_t bytes = len * sizeof(uint32_t); /* the last chunk holds only the rest */
        cudaStream_t s = streams[k % (size_t)n_streams];
        cudaError_t e =
            cudaMemcpyAsync(d_in + first, h_in + first, bytes, cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess)
            e = enqueue_work(d_in + first, d_out + first, len, iters, s);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(h_out + first, d_out + first, bytes, cudaMemcpyDeviceToHost, s);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
    /* END STUDENT CODE */
}
