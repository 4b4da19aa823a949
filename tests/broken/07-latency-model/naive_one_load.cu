/* naive_one_load.cu - broken lab 07: the naive multiply described with one global load per step */
/* SPDX-License-Identifier: MIT */
/* expect: correct.describe_naive FAIL global load/store instructions
 * expect: predict.rank FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_model_describe_naive reference_describe_naive
#include "../../../solutions/07-latency-model/latency_model.cu"
#undef latency_model_describe_naive

extern "C" int latency_model_describe_naive(int n, int bs, int regs_per_thread,
                                            latency_model_kernel *k, latency_model_block *bb,
                                            int cap) {
    const int nbb = reference_describe_naive(n, bs, regs_per_thread, k, bb, cap);
    for (int i = 0; i < nbb; i++)
        if (bb[i].global == 2) { /* B's element forgotten */
            bb[i].global = 1;
            bb[i].bytes = 4;
        }
    return nbb;
}
