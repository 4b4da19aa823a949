/* pipeline_serial.cu - broken lab 08: the serial version: all in, one kernel, all out */
/* SPDX-License-Identifier: MIT */
/* Correct, on the streams given, and it never waits, so only the timing
 * tells: the copy engines and the SMs take turns, and the time is that of
 * the grader's own serial version (about 1.00x against a limit of 1.4x).
 * expect: perf.pipeline FAIL still take turns */
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
    const size_t bytes = n * sizeof(uint32_t);
    cudaError_t e = cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, streams[0]);
    if (e == cudaSuccess)
        e = enqueue_work(d_in, d_out, n, iters, streams[0]);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(h_out, d_out, bytes, cudaMemcpyDeviceToHost, streams[0]);
    return e;
}
