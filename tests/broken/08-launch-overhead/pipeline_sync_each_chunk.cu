/* pipeline_sync_each_chunk.cu - broken lab 08: a wait after every chunk */
/* SPDX-License-Identifier: MIT */
/* Right results, but a cudaStreamSynchronize after each chunk: the host
 * sits idle while the GPU works, and the next chunk cannot overlap the
 * one before. The call returns only when the GPU is done, which the
 * grader sees with its own work queued ahead on the streams.
 * expect: correct.pipeline_streams FAIL it waited for the GPU
 * expect: perf.pipeline FAIL not graded
 * expect: sanitizer.host FAIL not graded */
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
        cudaStream_t s = streams[k % (size_t)n_streams];
        cudaError_t e = reference_pipeline(h_in + first, h_out + first, d_in + first, d_out + first,
                                           len, len, iters, &s, 1);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(s); /* "to be sure the chunk is done" */
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}
