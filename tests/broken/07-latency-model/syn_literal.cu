/* syn_literal.cu - broken lab 07: LatencyHiddenSyn as typeset, not as the prose says */
/* SPDX-License-Identifier: MIT */
/* expect: correct.syn FAIL expected
 * expect: predict.rank FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_model_syn reference_syn
#include "../../../solutions/07-latency-model/latency_model.cu"
#undef latency_model_syn

extern "C" double latency_model_syn(double ilp, double ilp_next, double la, double bw, int tlp,
                                    int blp, int j) {
    if (reference_syn(ilp, ilp_next, la, bw, tlp, blp, j) < 0)
        return -1.0;
    if (la + bw == 0.0)
        return 0.0;
    const int w = tlp * blp, nt = tlp, m = j - 1;
    /* floor((j-1)/NT) and (ceil((j-1)/NT) - (j-1) % NT), as typeset: a count
     * of blocks where warps are meant, and a multiplier that goes negative */
    const double done = (double)(m / nt), queued = (double)((m + nt - 1) / nt - m % nt);
    const double covered = ilp * (w - j) + done * fmin(ilp_next, fmax(ilp, bw));
    const double wait = la + bw + queued * fmax(0.0, bw - ilp);
    return wait > 0.0 ? fmax(0.0, 1.0 - covered / wait) : 0.0;
}
