/* con_unmerged.cu - broken lab 07: LatencyHiddenCon from case 1's formula, no bandwidth queue */
/* SPDX-License-Identifier: MIT */
/* expect: correct.con FAIL expected
 * expect: predict.rank FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_model_con reference_con
#include "../../../solutions/07-latency-model/latency_model.cu"
#undef latency_model_con

extern "C" double latency_model_con(double ilp, double ilp_next, double la, double bw, int tlp,
                                    int blp, int j) {
    if (reference_con(ilp, ilp_next, la, bw, tlp, blp, j) < 0)
        return -1.0;
    if (la + bw == 0.0)
        return 0.0;
    const int w = tlp * blp; /* right only while ILP_i >= MemAccBw_i (cases 1 and 2) */
    return fmax(0.0, 1.0 - (ilp * (w - j) + (j - 1) * fmin(ilp_next, ilp)) / (la + bw));
}
