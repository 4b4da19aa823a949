/* best_untested_branch.cu - broken lab 09: prefetching_best chooses its variant by compute
 * capability, and the branch the grading GPU never takes launches on the default stream */
/* SPDX-License-Identifier: MIT */
/* expect: correct.best FAIL Tesla T4
 * expect: perf.best FAIL not graded
 * expect: measure.blog FAIL not graded
 * expect: question.my_dram_pct_best FAIL not graded
 * expect: question.my_top_stall_best FAIL not graded */
#define prefetching_best reference_best
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_best

/* Right on the 8.0-and-newer GPU it was written on; on a 7.5 part (a T4)
 * the register variant goes to stream 0, not the stream the grader times. */
extern "C" cudaError_t prefetching_best(const float *d_in, float *d_out, int n, int blocks,
                                        cudaStream_t stream) {
    int dev = 0, major = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (e != cudaSuccess)
        return e;
    if (major >= 8)
        return prefetching_async(d_in, d_out, n, 8, 1, blocks, stream);
    return prefetching_regs(d_in, d_out, n, 8, 0, blocks, 0);
}
