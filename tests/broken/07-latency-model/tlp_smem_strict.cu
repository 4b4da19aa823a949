/* tlp_smem_strict.cu - broken lab 07: a block that needs all of an SM's shared memory taken for one
 * that does not fit */
/* SPDX-License-Identifier: MIT */
/* smem_per_block < smem_per_sm where the contract has <=. Random kernels
 * almost never ask for exactly the SM's shared memory; a named case does.
 * expect: correct.tlp_blp FAIL all of an SM's shared memory
 * expect: predict.rank FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_model_tlp reference_tlp
#include "../../../solutions/07-latency-model/latency_model.cu"
#undef latency_model_tlp
extern "C" int latency_model_tlp(const latency_model_gpu *g, const latency_model_kernel *k) {
    int t = reference_tlp(g, k);
    if (t > 0 && k->smem_per_block >= g->smem_per_sm)
        return 0;
    return t;
}
