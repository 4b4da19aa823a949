/* wrong_stream.cu - broken lab 04: the levels launched on the default stream, not on the stream
 * given */
/* SPDX-License-Identifier: MIT */
/* Right sums when the caller waits for the whole device, wrong when it
 * waits for its own stream only; timed on the grader's stream, its kernels
 * would escape the timer.
 * expect: correct.sizes FAIL every kernel must go on the stream argument
 * expect: perf.sum FAIL not graded */
#define barriers_sum reference_sum
#include "../../../solutions/04-barriers/barriers.cu"
#undef barriers_sum

extern "C" cudaError_t barriers_sum(const float *d_in, int n, float *d_scratch, float *d_out,
                                    cudaStream_t stream) {
    (void)stream; /* "the default stream will do" */
    if (d_in == NULL || d_scratch == NULL || d_out == NULL || n < 1 || n > BARRIERS_MAX_N)
        return cudaErrorInvalidValue;
    const float *in = d_in;
    float *next = d_scratch;
    for (int m = n, level = 1;; level++) {
        const int tiles = barriers_tiles(m);
        float *out = tiles == 1 ? d_out : next;
        const int blocks = (tiles + BARRIERS_TILES_PER_BLOCK - 1) / BARRIERS_TILES_PER_BLOCK;
        barriers_level_kernel<<<blocks, BLOCK>>>(in, m, out, level);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || tiles == 1)
            return e;
        in = out;
        m = tiles;
        next = out + tiles;
    }
}
