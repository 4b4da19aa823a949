/* describe_fits_after.cu - broken lab 07: the tiled blocks written first, cap checked after */
/* SPDX-License-Identifier: MIT */
/* "Describe the blocks, then see whether they fit": it returns -1 when cap
 * is too small, as the contract asks, but only after writing every block,
 * past the end of the caller's array. The grader's array is longer than
 * the cap it passes, so the blocks land in its guard zone.
 * expect: correct.describe_tiled FAIL past the room it was given
 * expect: predict.rank FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_model_describe_tiled reference_describe_tiled
#include "../../../solutions/07-latency-model/latency_model.cu"
#undef latency_model_describe_tiled

#include <limits.h>

extern "C" int latency_model_describe_tiled(int n, int bs, int regs_per_thread,
                                            latency_model_kernel *k, latency_model_block *bb,
                                            int cap) {
    const int nbb = reference_describe_tiled(n, bs, regs_per_thread, k, bb, INT_MAX);
    return nbb > cap ? -1 : nbb; /* "fits?" asked after the writes */
}
