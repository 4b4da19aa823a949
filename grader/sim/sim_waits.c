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
 * What counts as a launch: cudaLaunchKernel, cudaLaunchKernelExC, and
 * __cudaLaunchKernel, the runtime function that nvcc 13's code for
 * <<<...>>> calls (older toolkits call cudaLaunchKernel). Each call counts,
 * whether or not the launch succeeds.
 *
 * What counts as a wait for the GPU: every call that returns only once work
 * queued before it has finished. cudaDeviceSynchronize,
 * cudaStreamSynchronize and cudaEventSynchronize, whatever they return;
 * cudaMemcpy of every kind but cudaMemcpyDeviceToDevice (a copy that
 * touches host memory waits for the legacy stream's earlier work; a copy
 * between device buffers does not wait); cudaStreamQuery and cudaEventQuery
 * only when they return cudaSuccess, the last lap of a loop that polls
 * until the work is done (cudaErrorNotReady is no wait). Which stream or
 * event is waited for is not looked at: a timed function waits for the
 * legacy stream it launches on, and one that waits for something else is
 * caught by the grader's own cudaStreamQuery after it returns.
 *
 * Not counted, so not a way to satisfy a grader: cudaFree and cudaFreeHost
 * (they do synchronise, but no timed loop frees anything), asynchronous
 * copies from pageable memory, host callbacks, the driver API, and the
 * per-thread default stream's variants (_ptsz, _ptds) of the calls above.
 *
 * The counts are plain integers: the contracts graded this way launch and
 * wait from one host thread. */

static int counting;
static wb_sim_waits counts;

void wb_sim_waits_begin(void) {
    counts = (wb_sim_waits){0, 0, 0, 0};
    counting = 1;
}

void wb_sim_waits_end(wb_sim_waits *out) {
    counting = 0;
    if (out)
        *out = counts;
}

static void launched(void) {
    if (counting) {
        counts.launches++;
        counts.pending++;
    }
}

static void waited(void) {
    if (counting) {
        counts.waits++;
        counts.waited += counts.pending > 0;
        counts.pending = 0;
    }
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
    waited();
    return e;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
    NEXT(cudaStreamSynchronize)
    cudaError_t e = next_(s);
    waited();
    return e;
}

cudaError_t cudaEventSynchronize(cudaEvent_t ev) {
    NEXT(cudaEventSynchronize)
    cudaError_t e = next_(ev);
    waited();
    return e;
}

cudaError_t cudaStreamQuery(cudaStream_t s) {
    NEXT(cudaStreamQuery)
    cudaError_t e = next_(s);
    if (e == cudaSuccess)
        waited();
    return e;
}

cudaError_t cudaEventQuery(cudaEvent_t ev) {
    NEXT(cudaEventQuery)
    cudaError_t e = next_(ev);
    if (e == cudaSuccess)
        waited();
    return e;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    NEXT(cudaMemcpy)
    cudaError_t e = next_(dst, src, count, kind);
    if (kind != cudaMemcpyDeviceToDevice)
        waited();
    return e;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem,
                             cudaStream_t s) {
    NEXT(cudaLaunchKernel)
    launched();
    return next_(func, grid, block, args, smem, s);
}

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
    NEXT(cudaLaunchKernelExC)
    launched();
    return next_(config, func, args);
}

/* No header declares it for C: its first argument is a cudaKernel_t, a
 * pointer. Absent from runtimes whose <<<...>>> calls cudaLaunchKernel,
 * where nothing calls it. */
cudaError_t __cudaLaunchKernel(void *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                               cudaStream_t s);
cudaError_t __cudaLaunchKernel(void *kernel, dim3 grid, dim3 block, void **args, size_t smem,
                               cudaStream_t s) {
    NEXT(__cudaLaunchKernel)
    launched();
    return next_(kernel, grid, block, args, smem, s);
}
