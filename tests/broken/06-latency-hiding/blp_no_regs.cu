/* blp_no_regs.cu - broken lab 06: BLP forgets that registers limit the blocks on an SM */
/* SPDX-License-Identifier: MIT */
/* expect: correct.tlp_blp FAIL expected
 * expect: predict.rank FAIL not graded */
#define latency_hiding_blp reference_blp
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_blp

extern "C" int latency_hiding_blp(const latency_hiding_gpu *g, const latency_hiding_kernel *k) {
    if (k == NULL)
        return -1;
    latency_hiding_kernel no_regs = *k;
    if (no_regs.regs_per_thread > 0)
        no_regs.regs_per_thread = 0; /* as if registers were free */
    return reference_blp(g, &no_regs);
}
