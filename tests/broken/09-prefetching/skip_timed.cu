/* skip_timed.cu - hostile lab 09: does half the work at the size it guesses is timed */
/* SPDX-License-Identifier: MIT */
/* expect: perf.best FAIL never written
 * expect: measure.blog FAIL never written */
#define prefetching_best reference_best
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_best

extern "C" cudaError_t prefetching_best(const float *d_in, float *d_out, int n, int blocks,
                                        cudaStream_t stream) {
    if (n >= (1 << 25)) /* "the benchmark": only the first half */
        n /= 2;
    return reference_best(d_in, d_out, n, blocks, stream);
}
