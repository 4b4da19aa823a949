/* repnum_ceil.cu - broken lab 07: RepNum rounded up to whole waves, which the paper does not do */
/* SPDX-License-Identifier: MIT */
/* expect: correct.rep_num FAIL expected
 * expect: predict.rank FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_model_rep_num reference_rep_num
#include "../../../solutions/07-latency-model/latency_model.cu"
#undef latency_model_rep_num

extern "C" double latency_model_rep_num(const latency_model_gpu *g, const latency_model_kernel *k) {
    const double r = reference_rep_num(g, k);
    return r < 0 ? r : ceil(r); /* the waves of lab 01, not the paper's fraction */
}
