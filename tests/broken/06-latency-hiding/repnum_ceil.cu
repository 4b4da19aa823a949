/* repnum_ceil.cu - broken lab 06: RepNum rounded up to whole waves, which the paper does not do */
/* SPDX-License-Identifier: MIT */
/* expect: correct.rep_num FAIL expected
 * expect: predict.rank FAIL not graded */
#define latency_hiding_rep_num reference_rep_num
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_rep_num

extern "C" double latency_hiding_rep_num(const latency_hiding_gpu *g,
                                         const latency_hiding_kernel *k) {
    const double r = reference_rep_num(g, k);
    return r < 0 ? r : ceil(r); /* the waves of lab 01, not the paper's fraction */
}
