/* sum_not_max.cu - broken lab 07: the overlapped TimeOneRep adds up the warps' stalls */
/* SPDX-License-Identifier: MIT */
/* expect: correct.time_overlapped FAIL expected
 * expect: predict.rank FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_model_time_one_rep reference_time_one_rep
#include "../../../solutions/07-latency-model/latency_model.cu"
#undef latency_model_time_one_rep

extern "C" double latency_model_time_one_rep(const latency_model_gpu *g,
                                             const latency_model_kernel *k, latency_model_sum how) {
    if (how == LATENCY_MODEL_OVERLAPPED)
        how = LATENCY_MODEL_PRINTED; /* stalls that overlap counted once per warp */
    return reference_time_one_rep(g, k, how);
}
