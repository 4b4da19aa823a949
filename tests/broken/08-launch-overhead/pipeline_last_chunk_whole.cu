/* pipeline_last_chunk_whole.cu - broken lab 08: the last chunk is copied and computed whole */
/* SPDX-License-Identifier: MIT */
/* Every chunk is taken to be `chunk` elements long, the last one too:
 * when n is not a multiple of the chunk, its copy in reads past h_in, its
 * kernel writes past d_out and its copy out writes past h_out. Every
 * element below n is right; the guard zones show the rest.
 * expect: correct.pipeline FAIL past the end
 * expect: correct.pipeline_streams FAIL past the end
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
    const size_t bytes = chunk * sizeof(uint32_t); /* "every chunk is a chunk" */
    for (size_t k = 0; k < chunks; k++) {
        const size_t first = k * chunk;
        cudaStream_t s = streams[k % (size_t)n_streams];
        cudaError_t e =
            cudaMemcpyAsync(d_in + first, h_in + first, bytes, cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess)
            e = enqueue_work(d_in + first, d_out + first, chunk, iters, s);
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(h_out + first, d_out + first, bytes, cudaMemcpyDeviceToHost, s);
        if (e != cudaSuccess)
            return e;
    }
    return cudaSuccess;
}
