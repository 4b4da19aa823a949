/* writes_input.cu - broken lab 04: the third level's tile sums stored over the input */
/* SPDX-License-Identifier: MIT */
/* "The input has been read by then": the sum is right once, but d_in is
 * input only, and the next call would add up the wrong numbers. Only sums
 * of three levels or more (n > 512 * 512) have a level that is neither the
 * first nor the last; correct.small reaches one at its largest size.
 * expect: correct.small FAIL d_in was changed
 * expect: correct.sizes FAIL d_in was changed
 * expect: correct.repeat FAIL d_in was changed
 * expect: sanitizer.racecheck FAIL not graded
 * expect: sanitizer.synccheck FAIL not graded
 * expect: perf.sum FAIL not graded */
#define barriers_sum reference_sum
#include "../../../solutions/04-barriers/barriers.cu"
#undef barriers_sum

extern "C" cudaError_t barriers_sum(const float *d_in, int n, float *d_scratch, float *d_out,
                                    cudaStream_t stream) {
    if (d_in == NULL || d_scratch == NULL || d_out == NULL || n < 1 || n > BARRIERS_MAX_N)
        return cudaErrorInvalidValue;
    const float *in = d_in;
    float *next = d_scratch;
    for (int level = 1, m = n;; level++) {
        const int tiles = barriers_tiles(m);
        float *out = tiles == 1 ? d_out : level >= 2 ? (float *)d_in : next;
        const int blocks = (tiles + BARRIERS_TILES_PER_BLOCK - 1) / BARRIERS_TILES_PER_BLOCK;
        barriers_level_kernel<<<blocks, BLOCK, 0, stream>>>(in, m, out, level);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess || tiles == 1)
            return e;
        in = out;
        m = tiles;
        next = out + tiles;
    }
}
