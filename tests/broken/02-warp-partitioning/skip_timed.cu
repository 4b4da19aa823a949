/* skip_timed.cu - hostile lab 02: does half the work at the size it guesses is timed */
/* SPDX-License-Identifier: MIT */
/* expect: perf.shade FAIL never written */
#define warp_partitioning_shade reference_shade
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_shade

extern "C" cudaError_t warp_partitioning_shade(const float *d_in, float *d_out, int width,
                                               int height, cudaStream_t stream) {
    if (width == 1000 && height > 4096) /* "the benchmark": only the top half */
        height /= 2;
    return reference_shade(d_in, d_out, width, height, stream);
}
