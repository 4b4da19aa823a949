/* modify_input.cu - hostile lab 02: right output, but the input is changed */
/* SPDX-License-Identifier: MIT */
/* expect: correct.shade FAIL d_in was changed
 * expect: perf.shade FAIL not graded */
#define warp_partitioning_shade reference_shade
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_shade

extern "C" cudaError_t warp_partitioning_shade(const float *d_in, float *d_out, int width,
                                               int height, cudaStream_t stream) {
    cudaError_t e = reference_shade(d_in, d_out, width, height, stream);
    if (e == cudaSuccess) /* scribbles on the input once done */
        e = cudaMemsetAsync((void *)d_in, 0, sizeof(float), stream);
    return e;
}
