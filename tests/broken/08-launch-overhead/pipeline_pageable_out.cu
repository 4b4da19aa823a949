/* pipeline_pageable_out.cu - broken lab 08: each chunk copied out through a malloc buffer */
/* SPDX-License-Identifier: MIT */
/* A staging buffer of pageable memory for the output: cudaMemcpyAsync
 * into pageable memory returns only once the copy has completed, so each
 * chunk's copy out waits for its kernel and for everything queued before
 * it on that stream. Right results, but the call returns only when the
 * GPU is done, which the grader sees with its own work queued ahead.
 * expect: correct.pipeline_streams FAIL it waited for the GPU
 * expect: perf.pipeline FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#include <stdlib.h>
#include <string.h>
#define launch_overhead_pipeline reference_pipeline
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_pipeline

extern "C" cudaError_t launch_overhead_pipeline(const uint32_t *h_in, uint32_t *h_out,
                                                uint32_t *d_in, uint32_t *d_out, size_t n,
                                                size_t chunk, int iters,
                                                const cudaStream_t *streams, int n_streams) {
    if (h_in == NULL || h_out == NULL || d_in == NULL || d_out == NULL || streams == NULL ||
        n < 1 || n > LAUNCH_OVERHEAD_MAX_ELEMS || chunk < 1 || iters < 0 || n_streams < 1 ||
        n_streams > LAUNCH_OVERHEAD_MAX_STREAMS)
        return cudaErrorInvalidValue;
    const size_t chunks = n / chunk + (n % chunk != 0);
    for (size_t k = 0; k < chunks; k++) {
        const size_t first = k * chunk, len = n - first < chunk ? n - first : chunk;
        const size_t bytes = len * sizeof(uint32_t);
        cudaStream_t s = streams[k % (size_t)n_streams];
        uint32_t *staging = (uint32_t *)malloc(bytes); /* pageable */
        if (staging == NULL)
            return cudaErrorMemoryAllocation;
        cudaError_t e =
            cudaMemcpyAsync(d_in + first, h_in + first, bytes, cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess)
            e = enqueue_work(d_in + first, d_out + first, len, iters, s);
        if (e == cudaSuccess) /* returns once the copy has completed */
            e = cudaMemcpyAsync(staging, d_out + first, bytes, cudaMemcpyDeviceToHost, s);
        if (e == cudaSuccess)
            memcpy(h_out + first, staging, bytes);
        free(staging);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}
