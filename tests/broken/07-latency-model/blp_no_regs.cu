/* blp_no_regs.cu - broken lab 07: BLP forgets that registers limit the blocks on an SM */
/* SPDX-License-Identifier: MIT */
/* expect: correct.tlp_blp FAIL expected
 * expect: predict.rank FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_model_blp reference_blp
#include "../../../solutions/07-latency-model/latency_model.cu"
#undef latency_model_blp

extern "C" int latency_model_blp(const latency_model_gpu *g, const latency_model_kernel *k) {
    if (k == NULL)
        return -1;
    latency_model_kernel no_regs = *k;
    if (no_regs.regs_per_thread > 0)
        no_regs.regs_per_thread = 0; /* as if registers were free */
    return reference_blp(g, &no_regs);
}
