/* other_stream.cu - hostile lab 02: launches on a stream of its own, so the timed stream sees
 * nothing */
/* SPDX-License-Identifier: MIT */
/* expect: perf.shade FAIL faster than the GPU's peak */
#define warp_partitioning_shade reference_shade
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_shade

extern "C" cudaError_t warp_partitioning_shade(const float *d_in, float *d_out, int width,
                                               int height, cudaStream_t stream) {
    static cudaStream_t mine;
    (void)stream;
    if (!mine)
        cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking);
    return reference_shade(d_in, d_out, width, height, mine); /* never synchronised */
}
