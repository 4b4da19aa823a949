/* other_stream.cu - hostile lab 09: launches on a stream of its own, so the timed stream sees
 * nothing */
/* SPDX-License-Identifier: MIT */
/* expect: correct.best FAIL no kernel
 * expect: perf.best FAIL not graded
 * expect: measure.blog FAIL not graded
 * expect: question.my_dram_pct_best FAIL not graded
 * expect: question.my_top_stall_best FAIL not graded */
#define prefetching_best reference_best
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_best

extern "C" cudaError_t prefetching_best(const float *d_in, float *d_out, int n, int blocks,
                                        cudaStream_t stream) {
    static cudaStream_t mine;
    (void)stream;
    if (!mine)
        cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking);
    return reference_best(d_in, d_out, n, blocks, mine); /* never synchronised */
}
