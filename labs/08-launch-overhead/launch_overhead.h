/* launch_overhead.h - the contract of lab 08: launch costs, fewer launches, overlapping copies */
/* SPDX-License-Identifier: MIT */
#ifndef LAUNCH_OVERHEAD_H
#define LAUNCH_OVERHEAD_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- part 1: the three measurements (elapsed time) ----
 *
 * Host time is the subject here. Each of these functions: launches its
 * kernel a few times and waits (a warm-up: the first launch of a kernel
 * loads its code, which costs far more than a launch), reads the clock,
 * launches `launches` kernels of one block of one thread on the legacy
 * default stream through the runtime (<<<1, 1>>>, or cudaLaunchKernel; not
 * the driver API's cuLaunchKernel), synchronises with
 * cudaDeviceSynchronize() as described, reads the clock again, and reports
 * the elapsed time divided by `launches`, in microseconds. The clock meant
 * is the host's, clock_gettime(CLOCK_MONOTONIC) (the given now_us()). What
 * is graded is the figure, not the clock that took it: CUDA events recorded
 * on the legacy stream just before and just after the whole loop span the
 * same interval, short of the last synchronisation's return to the host, a
 * few microseconds in a loop of milliseconds, and no measurement can tell
 * the two apart (README.md, "Measuring host time").
 *
 * They return cudaErrorInvalidValue (and measure nothing: the output is not
 * written) for launches < 1 or a NULL output pointer, else the first error
 * of a launch or of a CUDA call, else cudaSuccess with the result written
 * and nothing else.
 *
 * The grader measures the same with its own kernels in the same process,
 * alternating its runs with yours, and compares medians: yours must be
 * within 30 % of its own (README.md, "What is graded", says why 30 %). It
 * also records, in order, while your function runs, the runtime's
 * launches, the calls that wait for the GPU and the clock readings
 * (clock_gettime: now_us(), std::chrono) of your code (README.md, "How the
 * grader sees the waits"), and whatever the figure, fails a call that
 * shows fewer launches than it was asked to time, a timed loop whose last
 * launch is not followed by a wait, a synchronised loop with a launch not
 * followed by one, and a call whose last clock reading comes after its
 * last launch but before the wait for it. */

/* Microseconds per launch of an empty kernel, with ONE cudaDeviceSynchronize()
 * after the loop, before the clock is read again. Graded with 20,000
 * launches, 5 runs. */
cudaError_t launch_overhead_empty_async(int launches, double *us_per_launch);

/* Microseconds per launch of an empty kernel, with a cudaDeviceSynchronize()
 * after EVERY launch, inside the timed loop. Graded with 10,000 launches,
 * 5 runs. */
cudaError_t launch_overhead_empty_sync(int launches, double *us_per_launch);

/* One point of the sweep. */
typedef struct launch_overhead_point {
    long long cycles; /* busy-wait of each kernel, in SM clock cycles (clock64) */
    double async_us;  /* per launch: `launches` launches, one synchronisation after the loop */
    double sync_us;   /* per launch: a synchronisation after every launch */
} launch_overhead_point;

/* The sweep: for each i < points, a kernel of one thread that busy-waits
 * until clock64() has advanced by at least cycles[i], timed as in
 * launch_overhead_empty_async (async_us) and as in launch_overhead_empty_sync
 * (sync_us), `launches` launches each; out[i].cycles = cycles[i], and
 * nothing is written past out[points - 1]. Returns cudaErrorInvalidValue
 * for NULL pointers, points < 1, launches < 1 or a negative cycles[i] (out
 * untouched), else as above. Graded on 20 points
 * from 0 to 128,000 cycles with 500 launches, 3 runs: every time within
 * 30 % of the grader's own sweep, and at the largest point no time below
 * 90 % of what the busy-wait alone takes at the GPU's peak SM clock (so the
 * kernel really waits, and the clock is read after the GPU finished). */
cudaError_t launch_overhead_sweep(const long long *cycles, int points, int launches,
                                  launch_overhead_point *out);

/* The break-even point of a sweep: the busy-wait, in cycles, at which an
 * asynchronous launch first takes at least twice an empty one
 * (threshold = 2 * empty_async_us). pts[0 .. points) must have strictly
 * increasing cycles. Let i be the first point with async_us >= threshold
 * (a point exactly at the threshold reaches it): for i == 0 the result is
 * pts[0].cycles; otherwise the straight line between points i-1 and i is
 * interpolated, and the result is the cycles at which it reaches the
 * threshold. Returns -1 when no point reaches the threshold, and for
 * invalid arguments (pts NULL, points < 1, empty_async_us <= 0 or not
 * finite, cycles not strictly increasing). Pure host code, graded without
 * a GPU on named cases (points exactly at the threshold among them) and
 * synthetic sweeps (to a relative 1e-6). */
double launch_overhead_break_even(const launch_overhead_point *pts, int points,
                                  double empty_async_us);

/* ---- part 2: many small dependent kernels ---- */

/* The largest state the chain accepts, in words. */
#define LAUNCH_OVERHEAD_MAX_N (1 << 20)

#ifdef __CUDACC__
#define LAUNCH_OVERHEAD_HD __host__ __device__
#else
#define LAUNCH_OVERHEAD_HD
#endif
/* One step of the chain for one word, given: its new value from its own
 * old value and its two neighbours' (the state is a ring: the left
 * neighbour of word 0 is word n-1, the right neighbour of word n-1 is word
 * 0). Integer arithmetic, so every correct order of work gives the same
 * bits; the grader's CPU reference calls this same function. */
static LAUNCH_OVERHEAD_HD inline uint32_t
launch_overhead_step_value(uint32_t left, uint32_t self, uint32_t right, uint32_t step) {
    uint32_t x = (self ^ ((left << 7) | (left >> 25))) + (right ^ (step * 0x9E3779B9u + 1u));
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    return x;
}

/* The chain: state_0 = d_in[0 .. n); for s = 0 .. steps-1, word i of
 * state_{s+1} is launch_overhead_step_value(state_s[i-1], state_s[i],
 * state_s[i+1], s), indices taken around the ring. At the end d_out[0 .. n)
 * holds state_steps. Each step needs all of the previous one, so the steps
 * cannot overlap. d_in, d_out and d_work are device arrays of n words that
 * do not overlap; d_in is not changed; d_work is scratch (its contents
 * afterwards are unspecified); nothing past word n - 1 of any of them is
 * read or written (the grader puts a guard zone after d_out and d_work).
 *
 * All work goes on `stream` (it may be the legacy default stream 0): the
 * caller waits for `stream` before it reads d_out, and the function may
 * return before the work is done. Returns cudaErrorInvalidValue for a NULL
 * pointer, n < 1, n > LAUNCH_OVERHEAD_MAX_N or steps < 1 (nothing
 * launched), else the first error of a launch or a CUDA call.
 *
 * Graded on sizes from 1 to 65,536 words and 1 to 1,000 steps (exact bits,
 * d_out and d_work poisoned, their guard zones untouched, d_in unchanged,
 * nothing launched for invalid arguments, the same buffers reused with
 * new contents and other step counts), on a non-blocking stream behind the
 * grader's own work, and then timed at n = 4096, steps = 4096 against the
 * grader's naive chain (one kernel per step and a cudaStreamSynchronize
 * after each): the speedup must reach the limit of README.md, "What is
 * graded". The stub is that naive chain: correct, and slow. */
cudaError_t launch_overhead_chain(const uint32_t *d_in, uint32_t *d_out, uint32_t *d_work, int n,
                                  int steps, cudaStream_t stream);

/* ---- part 3: copies that overlap kernels ---- */

/* The most streams the pipeline accepts. */
#define LAUNCH_OVERHEAD_MAX_STREAMS 16
/* The most elements the pipeline accepts (4 GiB of input). */
#define LAUNCH_OVERHEAD_MAX_ELEMS ((size_t)1 << 30)

/* The work on one element: `iters` rounds of integer mixing, each needing
 * the one before. Integer arithmetic, so every correct order of work gives
 * the same bits; the grader's CPU reference and its own kernel call this
 * same function. Its cost grows with iters, which the grader picks. */
static LAUNCH_OVERHEAD_HD inline uint32_t launch_overhead_work_value(uint32_t x, int iters) {
    for (int k = 0; k < iters; k++) {
        x ^= x >> 16;
        x *= 0x7FEB352Du;
        x ^= x >> 15;
        x += (uint32_t)k | 1u;
    }
    return x;
}

/* The pipeline: for every i < n, h_out[i] = launch_overhead_work_value(
 * h_in[i], iters), computed on the GPU: the input copied from h_in into
 * d_in, the work done by kernels that read d_in and write d_out (the given
 * launch_overhead_work_kernel, or one of yours that computes the same), the
 * output copied from d_out into h_out. h_in and h_out are pinned host
 * memory (cudaMallocHost), d_in and d_out device memory (cudaMalloc), all
 * allocated by the caller, n elements each, not overlapping. Afterwards
 * d_in[0 .. n) holds the input and d_out[0 .. n) and h_out[0 .. n) the
 * output; h_in is not changed; nothing past element n - 1 of h_out, d_in
 * or d_out is written (the grader puts guard zones there). The output must
 * equal, bit for bit, the serial version's: everything copied in, one
 * kernel over all of it, everything copied out.
 *
 * `chunk` is the number of elements per piece of the pipeline (the last
 * piece holds what is left): while the kernel works on one chunk, the next
 * is copied in and the one before copied out. It is a tuning parameter the
 * caller picks; the result does not depend on it, and only the result and
 * the time are graded.
 *
 * streams[0 .. n_streams) are the caller's (non-blocking). Every copy and
 * kernel must come after the work the caller queued on them before the
 * call, and be finished when they are: queue them on those streams. Work
 * on the legacy default stream 0, or on a stream of your own that no event
 * ties to them, does neither. The function only queues the work and returns
 * without waiting for the GPU: no cudaDeviceSynchronize,
 * cudaStreamSynchronize, cudaEventSynchronize or cudaMemcpy, no copy to or
 * from pageable memory (malloc), no cudaFree or cudaFreeHost, all of which
 * wait. The caller waits for every stream of streams[] before it reads
 * h_out, d_in or d_out. Returns cudaErrorInvalidValue for a NULL pointer
 * (h_in, h_out, d_in, d_out or streams), n < 1, n > LAUNCH_OVERHEAD_MAX_ELEMS,
 * chunk < 1, iters < 0, n_streams < 1 or n_streams >
 * LAUNCH_OVERHEAD_MAX_STREAMS (nothing queued), else the first error of a
 * CUDA call.
 *
 * Graded on sizes from 1 to 524,288 elements, one chunk to 5,000 chunks,
 * sizes that are not a multiple of the chunk, 1 to 16 streams (exact bits,
 * h_out, d_in and d_out poisoned and their guard zones untouched, h_in
 * unchanged, nothing queued for invalid arguments, the same buffers reused
 * with new input and another iters); on streams whose input the grader
 * writes into h_in only after 200 ms of its own work queued ahead on them
 * (the result must be right, and the call must return while that work is
 * still running); and then timed, 32 chunks on 4 streams, against the
 * grader's serial version, with n (2^24 elements or more) and iters chosen
 * on this GPU so that the kernel over all n elements takes as long as both
 * copies together: the speedup must reach the limit of README.md, "What is
 * graded". The stub is that serial version: correct, and slow. */
cudaError_t launch_overhead_pipeline(const uint32_t *h_in, uint32_t *h_out, uint32_t *d_in,
                                     uint32_t *d_out, size_t n, size_t chunk, int iters,
                                     const cudaStream_t *streams, int n_streams);

#ifdef __cplusplus
}
#endif
#endif
