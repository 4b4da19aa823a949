/* pipeline_kernel_offset.cu - broken lab 08: every chunk's kernel works on the first chunk */
/* SPDX-License-Identifier: MIT */
/* The copies use each chunk's offset, the kernel is given d_in and d_out
 * as they are: every kernel computes the first chunk's elements again
 * (racing with the first chunk's own copies on other streams), and the
 * other chunks copy out the poison that d_out held. Right whenever there
 * is only one chunk.
 * expect: correct.pipeline FAIL must be launch_overhead_work_value
 * expect: correct.pipeline_streams FAIL must be launch_overhead_work_value
 * expect: sanitizer.pipeline FAIL not graded
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
        const size_t bytes = len * sizeof(uint32_t);
        cudaStream_t s = streams[k % (size_t)n_streams];
        cudaError_t e =
            cudaMemcpyAsync(d_in + first, h_in + first, bytes, cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess)
            e = enqueue_work(d_in, d_out, len, iters, s); /* the chunk's offset forgotten */
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(h_out + first, d_out + first, bytes, cudaMemcpyDeviceToHost, s);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}
