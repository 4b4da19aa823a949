/* sim_waits.c - the runtime's launches and waits for the GPU, counted while student code runs */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "sim_waits.h"
#include "sim_devices.h"

#include <cuda_runtime_api.h>
#include <stddef.h>

/* A grader links this file only where its lab's exports.list names
 * cudaDeviceSynchronize (the Makefile), which exports these runtime
 * functions, so that the student's library calls them here, as the
 * simulated GPUs' queries are (sim_devices.c). Each passes the call to the
 * runtime's own function unchanged; between wb_sim_waits_begin and
 * wb_sim_waits_end it also counts it, in the order the calls come. The
 * grader's own calls land here too: a grader counts only around its call of
 * the student's function.
 *
 * What counts as a launch: cudaLaunchKernel, cudaLaunchKernelExC,
 * cudaLaunchCooperativeKernel, cudaGraphLaunch, __cudaLaunchKernel (the
 * runtime function that nvcc 13's code for <<<...>>> calls; older
 * toolkits call cudaLaunchKernel), and their per-thread default stream
 * variants (_ptsz, what code built with CUDA_API_PER_THREAD_DEFAULT_STREAM
 * calls). Each call counts, whether or not the launch succeeds, with the
 * stream it was made on (0 is the legacy stream, or in a _ptsz variant the
 * per-thread one).
 *
 * What counts as a wait for the GPU, and which launches it waits for:
 * - cudaDeviceSynchronize, whatever it returns: all of them;
 * - cudaMemcpy and cudaMemcpy_ptds of at least one byte, of every kind but
 *   DeviceToDevice and HostToHost: all of them (a copy that touches host
 *   memory waits for the legacy stream's earlier work, and the legacy
 *   stream for every blocking stream's). A copy between device buffers
 *   does not wait for the GPU; one from host to host or of 0 bytes need
 *   not, so neither counts (no correct timed loop relies on one to wait);
 *   cudaMemcpyDefault is taken to wait, wherever its pointers live;
 * - cudaStreamSynchronize whatever it returns, cudaStreamQuery only when it
 *   returns cudaSuccess (the last lap of a loop that polls; NotReady is no
 *   wait): the launches since the last wait when they were all made on
 *   that stream, else none;
 * - cudaEventSynchronize whatever it returns, cudaEventQuery only when it
 *   returns cudaSuccess: the launches made before the event was last
 *   recorded (cudaEventRecord, cudaEventRecordWithFlags, and their _ptsz
 *   variants) in the counting window, when they were all made on the
 *   stream it was recorded on; none for an event not recorded in the
 *   window (an idle stream's query, an unrecorded event's: they return at
 *   once without waiting for anything).
 * A wait that waits for none of the launches since the last one still
 * counts as a wait (waits), not as one after new launches (waited).
 *
 * Not counted, so not a way to satisfy a grader: cudaFree and cudaFreeHost
 * (they do synchronise, but no timed loop frees anything), asynchronous
 * copies from pageable memory, host callbacks and the driver API.
 *
 * The counts are plain integers: the contracts graded this way launch and
 * wait from one host thread. */

/* Events remembered per window; past that, an event not found is taken to
 * wait for everything (no correct call fails for the grader's memory). */
#define EVENTS 64

typedef struct recorded {
    cudaEvent_t ev;
    long upto; /* launches it waits for: those numbered up to upto */
} recorded;

static int counting;
static wb_sim_waits counts;
static long seq, done_upto;      /* launches so far; all up to done_upto waited for */
static cudaStream_t pend_stream; /* stream of the launches after done_upto ... */
static int pend_mixed;           /* ... unless they were made on more than one */
static recorded events[EVENTS];
static int n_events, events_lost;

void wb_sim_waits_begin(void) {
    counts = (wb_sim_waits){0, 0, 0, 0};
    seq = done_upto = 0;
    pend_stream = NULL;
    pend_mixed = 0;
    n_events = events_lost = 0;
    counting = 1;
}

void wb_sim_waits_end(wb_sim_waits *out) {
    counting = 0;
    if (out)
        *out = counts;
}

/* A stream handle as the runtime reads it: 0 is the legacy stream, or in a
 * _ptsz call the calling thread's default stream. */
static cudaStream_t legacy(cudaStream_t s) {
    return s ? s : cudaStreamLegacy;
}
static cudaStream_t per_thread(cudaStream_t s) {
    return s ? s : cudaStreamPerThread;
}

static void launched(cudaStream_t s) {
    if (!counting)
        return;
    counts.launches++;
    if (seq++ == done_upto) { /* the first launch since the last wait */
        pend_stream = s;
        pend_mixed = 0;
    } else if (s != pend_stream)
        pend_mixed = 1;
    counts.pending = seq - done_upto;
}

/* A wait for the launches numbered up to upto. */
static void waited_upto(long upto) {
    if (!counting)
        return;
    counts.waits++;
    if (upto > done_upto) {
        counts.waited++;
        done_upto = upto;
    }
    counts.pending = seq - done_upto;
}

/* The launches so far, where every launch since the last wait was made on
 * stream s; else only those already waited for. */
static long upto_on(cudaStream_t s) {
    return !pend_mixed && pend_stream == s ? seq : done_upto;
}

static void waited_all(void) {
    waited_upto(seq);
}

static void waited_stream(cudaStream_t s) {
    if (counting)
        waited_upto(upto_on(s));
}

static void recorded_event(cudaEvent_t ev, cudaStream_t s) {
    if (!counting)
        return;
    int i = 0;
    while (i < n_events && events[i].ev != ev)
        i++;
    if (i == EVENTS) { /* full: forget the oldest */
        events_lost = 1;
        for (i = 1; i < EVENTS; i++)
            events[i - 1] = events[i];
        i = EVENTS - 1;
    } else if (i == n_events)
        n_events++;
    events[i] = (recorded){ev, upto_on(s)};
}

static void waited_event(cudaEvent_t ev) {
    if (!counting)
        return;
    for (int i = 0; i < n_events; i++)
        if (events[i].ev == ev) {
            waited_upto(events[i].upto);
            return;
        }
    waited_upto(events_lost ? seq : done_upto);
}

/* Whether a cudaMemcpy waits for the GPU: one of at least one byte with
 * host memory on one side. A cudaMemcpyDefault copy is taken to (asking
 * the runtime where its pointers live would change what the student's
 * cudaGetLastError returns where the query fails). */
static int copy_waits(size_t count, enum cudaMemcpyKind kind) {
    return count > 0 && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyHostToHost;
}

/* The runtime's own `name`, looked up once: these calls are timed, and a
 * lookup per call would add to every launch the grader measures. */
#define NEXT(name)                                                                                 \
    static __typeof__(&name) next_;                                                                \
    if (!next_ && !(next_ = (__typeof__(&name))wb_sim_next(#name)))                                \
        return cudaErrorNotSupported;

cudaError_t cudaDeviceSynchronize(void) {
    NEXT(cudaDeviceSynchronize)
    cudaError_t e = next_();
    waited_all();
    return e;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
    NEXT(cudaStreamSynchronize)
    cudaError_t e = next_(s);
    waited_stream(legacy(s));
    return e;
}

cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s);
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t s) {
    NEXT(cudaStreamSynchronize_ptsz)
    cudaError_t e = next_(s);
    waited_stream(per_thread(s));
    return e;
}

cudaError_t cudaStreamQuery(cudaStream_t s) {
    NEXT(cudaStreamQuery)
    cudaError_t e = next_(s);
    if (e == cudaSuccess)
        waited_stream(legacy(s));
    return e;
}

cudaError_t cudaStreamQuery_ptsz(cudaStream_t s);
cudaError_t cudaStreamQuery_ptsz(cudaStream_t s) {
    NEXT(cudaStreamQuery_ptsz)
    cudaError_t e = next_(s);
    if (e == cudaSuccess)
        waited_stream(per_thread(s));
    return e;
}

cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s) {
    NEXT(cudaEventRecord)
    recorded_event(ev, legacy(s));
    return next_(ev, s);
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t ev, cudaStream_t s);
cudaError_t cudaEventRecord_ptsz(cudaEvent_t ev, cudaStream_t s) {
    NEXT(cudaEventRecord_ptsz)
    recorded_event(ev, per_thread(s));
    return next_(ev, s);
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t ev, cudaStream_t s, unsigned int flags) {
    NEXT(cudaEventRecordWithFlags)
    recorded_event(ev, legacy(s));
    return next_(ev, s, flags);
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t ev, cudaStream_t s, unsigned int flags);
cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t ev, cudaStream_t s, unsigned int flags) {
    NEXT(cudaEventRecordWithFlags_ptsz)
    recorded_event(ev, per_thread(s));
    return next_(ev, s, flags);
}

cudaError_t cudaEventSynchronize(cudaEvent_t ev) {
    NEXT(cudaEventSynchronize)
    cudaError_t e = next_(ev);
    waited_event(ev);
    return e;
}

cudaError_t cudaEventQuery(cudaEvent_t ev) {
    NEXT(cudaEventQuery)
    cudaError_t e = next_(ev);
    if (e == cudaSuccess)
        waited_event(ev);
    return e;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    NEXT(cudaMemcpy)
    cudaError_t e = next_(dst, src, count, kind);
    if (copy_waits(count, kind))
        waited_all();
    return e;
}

cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    NEXT(cudaMemcpy_ptds)
    cudaError_t e = next_(dst, src, count, kind);
    if (copy_waits(count, kind))
        waited_all();
    return e;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                             cudaStream_t s) {
    NEXT(cudaLaunchKernel)
    launched(legacy(s));
    return next_(func, grid, block, args, smem, s);
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                                  cudaStream_t s);
cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                                  cudaStream_t s) {
    NEXT(cudaLaunchKernel_ptsz)
    launched(per_thread(s));
    return next_(func, grid, block, args, smem, s);
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
    NEXT(cudaLaunchKernelExC)
    launched(legacy(config ? config->stream : 0));
    return next_(config, func, args);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                     void **args);
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                     void **args) {
    NEXT(cudaLaunchKernelExC_ptsz)
    launched(per_thread(config ? config->stream : 0));
    return next_(config, func, args);
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                        size_t smem, cudaStream_t s) {
    NEXT(cudaLaunchCooperativeKernel)
    launched(legacy(s));
    return next_(func, grid, block, args, smem, s);
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                             size_t smem, cudaStream_t s);
cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                             size_t smem, cudaStream_t s) {
    NEXT(cudaLaunchCooperativeKernel_ptsz)
    launched(per_thread(s));
    return next_(func, grid, block, args, smem, s);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t g, cudaStream_t s) {
    NEXT(cudaGraphLaunch)
    launched(legacy(s));
    return next_(g, s);
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t g, cudaStream_t s);
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t g, cudaStream_t s) {
    NEXT(cudaGraphLaunch_ptsz)
    launched(per_thread(s));
    return next_(g, s);
}

/* No header declares these for C: their first argument is a cudaKernel_t, a
 * pointer. Absent from runtimes whose <<<...>>> calls cudaLaunchKernel,
 * where nothing calls them. */
cudaError_t __cudaLaunchKernel(void *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                               cudaStream_t s);
cudaError_t __cudaLaunchKernel(void *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                               cudaStream_t s) {
    NEXT(__cudaLaunchKernel)
    launched(legacy(s));
    return next_(kernel, grid, block, args, smem, s);
}

cudaError_t __cudaLaunchKernel_ptsz(void *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                                    cudaStream_t s);
cudaError_t __cudaLaunchKernel_ptsz(void *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                                    cudaStream_t s) {
    NEXT(__cudaLaunchKernel_ptsz)
    launched(per_thread(s));
    return next_(kernel, grid, block, args, smem, s);
}
