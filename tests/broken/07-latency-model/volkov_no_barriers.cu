/* volkov_no_barriers.cu - broken lab 07: Volkov's multiply without its barriers */
/* SPDX-License-Identifier: MIT */
/* expect: correct.describe_volkov FAIL blocks ending in a barrier
 * expect: predict.rank FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_model_describe_volkov reference_describe_volkov
#include "../../../solutions/07-latency-model/latency_model.cu"
#undef latency_model_describe_volkov

extern "C" int latency_model_describe_volkov(int n, int regs_per_thread, latency_model_kernel *k,
                                             latency_model_block *bb, int cap) {
    const int nbb = reference_describe_volkov(n, regs_per_thread, k, bb, cap);
    for (int i = 0; i < nbb; i++)
        if (bb[i].sync) { /* the barrier dropped, and its instruction with it */
            bb[i].sync = 0;
            bb[i].compute--;
        }
    return nbb;
}
