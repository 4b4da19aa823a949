/* wide_grid.cu - hostile lab 09: hides the latency with four times the blocks instead of
 * prefetching */
/* SPDX-License-Identifier: MIT */
/* expect: correct.best FAIL launched a grid
 * expect: perf.best FAIL not graded
 * expect: measure.blog FAIL not graded
 * expect: question.my_dram_pct_best FAIL not graded
 * expect: question.my_top_stall_best FAIL not graded */
#define prefetching_best reference_best
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_best

extern "C" cudaError_t prefetching_best(const float *d_in, float *d_out, int n, int blocks,
                                        cudaStream_t stream) {
    /* More warps per SM: occupancy, not prefetching, and not the baseline's launch. */
    int wide = blocks * 4 <= PREFETCHING_MAX_BLOCKS ? blocks * 4 : PREFETCHING_MAX_BLOCKS;
    return prefetching_regs(d_in, d_out, n, 1, 0, blocks < 1 ? blocks : wide, stream);
}
