/* pipeline_one_stream.cu - broken lab 08: the chunks, all on the first stream */
/* SPDX-License-Identifier: MIT */
/* "Chunks are what makes it a pipeline": but one stream runs its work in
 * order, so chunk k+1's copy in waits for chunk k's copy out, and the
 * stages still take turns, each chunk now paying its own start-up: no
 * faster than the serial version.
 * expect: perf.pipeline FAIL still take turns */
#define launch_overhead_pipeline reference_pipeline
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_pipeline

extern "C" cudaError_t launch_overhead_pipeline(const uint32_t *h_in, uint32_t *h_out,
                                                uint32_t *d_in, uint32_t *d_out, size_t n,
                                                size_t chunk, int iters,
                                                const cudaStream_t *streams, int n_streams) {
    const int one = n_streams < 1 || n_streams > LAUNCH_OVERHEAD_MAX_STREAMS ? n_streams : 1;
    return reference_pipeline(h_in, h_out, d_in, d_out, n, chunk, iters, streams, one);
}
