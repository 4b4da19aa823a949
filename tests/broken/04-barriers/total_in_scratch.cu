/* total_in_scratch.cu - broken lab 04: every level kept in the scratch, the total copied out */
/* SPDX-License-Identifier: MIT */
/* "Keep every level in d_scratch, then copy the last sum to d_out": the
 * sums are right, but barriers_scratch_floats(n) has room for every level
 * but the last, so the total lands one float past the end of d_scratch
 * (when there are two levels or more; a single tile fits its one float).
 * Past the end of a cudaMalloc'd buffer there is usually padding, so nothing
 * shows but the grader's guard.
 * expect: correct.small FAIL past the end of its
 * expect: correct.sizes FAIL past the end of its
 * expect: correct.repeat FAIL past the end of its
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
    float *out = d_scratch;
    for (int m = n, level = 1;; level++) {
        const int tiles = barriers_tiles(m);
        const int blocks = (tiles + BARRIERS_TILES_PER_BLOCK - 1) / BARRIERS_TILES_PER_BLOCK;
        barriers_level_kernel<<<blocks, BLOCK, 0, stream>>>(in, m, out, level);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            return e;
        if (tiles == 1) /* the total is out[0] */
            return cudaMemcpyAsync(d_out, out, sizeof(float), cudaMemcpyDeviceToDevice, stream);
        in = out;
        m = tiles;
        out += tiles;
    }
}
