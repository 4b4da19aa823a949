/* pipeline_legacy_stream.cu - broken lab 08: the chunks go on the legacy default stream 0 */
/* SPDX-License-Identifier: MIT */
/* Right whenever the caller waits for the whole device. But the legacy
 * stream runs its work in order, so nothing overlaps, and it does not
 * wait for work queued on the caller's non-blocking streams: with the
 * input arriving late on those streams, it copies in what h_in held
 * before.
 * expect: correct.pipeline_streams FAIL never on stream 0
 * expect: perf.pipeline FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_pipeline reference_pipeline
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_pipeline

extern "C" cudaError_t launch_overhead_pipeline(const uint32_t *h_in, uint32_t *h_out,
                                                uint32_t *d_in, uint32_t *d_out, size_t n,
                                                size_t chunk, int iters,
                                                const cudaStream_t *streams, int n_streams) {
    if (streams == NULL || n_streams < 1 || n_streams > LAUNCH_OVERHEAD_MAX_STREAMS)
        return cudaErrorInvalidValue;
    const cudaStream_t legacy[1] = {0}; /* "the default stream is simplest" */
    return reference_pipeline(h_in, h_out, d_in, d_out, n, chunk, iters, legacy, 1);
}
