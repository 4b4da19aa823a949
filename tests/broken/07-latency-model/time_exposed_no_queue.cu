/* time_exposed_no_queue.cu - broken lab 07: a warp's exposed wait is its factor times La + Bw,
 * without the queue ahead of it */
/* SPDX-License-Identifier: MIT */
/* The factor is a share of the warp's whole wait, its denominator: La +
 * Bw plus the transfers queued ahead of it when a transfer outlasts a
 * warp's compute. (TimeTotal here still calls the reference's TimeOneRep.)
 * expect: correct.time_printed FAIL expected
 * expect: correct.time_overlapped FAIL expected
 * expect: predict.rank FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_model_time_one_rep reference_time_one_rep
#include "../../../solutions/07-latency-model/latency_model.cu"
#undef latency_model_time_one_rep
extern "C" double latency_model_time_one_rep(const latency_model_gpu *g,
                                             const latency_model_kernel *k, latency_model_sum how) {
    if (!valid_launch(g, k) || k->nbb < 1 || k->bb == NULL ||
        (how != LATENCY_MODEL_PRINTED && how != LATENCY_MODEL_OVERLAPPED))
        return -1.0;
    for (int i = 0; i < k->nbb; i++)
        if (k->bb[i].sync != 0 && k->bb[i].sync != 1)
            return -1.0;
    const int tlp = latency_model_tlp(g, k), blp = latency_model_blp(g, k);
    if (tlp < 1 || blp < 1)
        return -1.0;
    const int w = tlp * blp;
    double total = 0.0;
    for (int i = 0; i < k->nbb; i++) {
        const latency_model_block *b = &k->bb[i];
        const latency_model_block *next = &k->bb[(i + 1) % k->nbb]; /* ILP_{NBB+1} = ILP_1 */
        const double ilp = latency_model_ilp(g, b), ilp_next = latency_model_ilp(g, next);
        const double la = latency_model_mem_la(g, b), bw = latency_model_mem_bw(g, b);
        if (ilp < 0 || ilp_next < 0 || la < 0 || bw < 0)
            return -1.0;
        /* Each warp's exposed wait is its factor times the wait the factor
         * is a share of (the factor's denominator). */
        double exposed = 0.0;
        for (int j = 1; j <= w; j++) {
            double factor;
            if (b->sync) {
                factor = latency_model_syn(ilp, ilp_next, la, bw, tlp, blp, j);
            } else {
                factor = latency_model_con(ilp, ilp_next, la, bw, tlp, blp, j);
            }
            const double e = factor * (la + bw);
            /* the queue ahead left out */
            /* As printed, every warp's exposed wait adds to the SM's time.
             * But the warps wait at the same time: a stall that delays warp
             * 1 delays all the warps behind it too, so the SM idles only as
             * long as the worst-covered warp (README.md, "TimeOneRep and
             * TimeTotal"). */
            exposed = how == LATENCY_MODEL_PRINTED ? exposed + e : fmax(exposed, e);
        }
        /* SMComputeTime_i: the SM issues block i once for each of its W warps. */
        total += w * ilp + exposed;
    }
    return total;
}
