/* cases_seen_past_end.cu - broken lab 07: which cases a kernel's blocks reach, marked at
 * seen[case] in an array of four, writes one int past a malloc'd block */
/* SPDX-License-Identifier: MIT */
/* TimeOneRep is the reference's, and right. Beside it, the cases the blocks reach are marked
 * (for a print behind LM_DEBUG, left in) at seen[case]: the cases are 1..4, the array's
 * elements 0..3, so a block in case 4 writes the int just past the 16 bytes calloc gave.
 * glibc hands out 24 usable bytes for 16: the write lands in that slack, no figure changes and
 * no host test notices. Only AddressSanitizer sees it, and names the line.
 * expect: sanitizer.host FAIL heap-buffer-overflow, a WRITE of size 4 at cases_seen_past_end.cu:29
 */
#define latency_model_time_one_rep reference_time_one_rep
#include "../../../solutions/07-latency-model/latency_model.cu"
#undef latency_model_time_one_rep

#include <stdio.h>

extern "C" double latency_model_time_one_rep(const latency_model_gpu *g,
                                             const latency_model_kernel *k, latency_model_sum how) {
    const double t = reference_time_one_rep(g, k, how);
    if (t < 0)
        return t;
    int *seen = (int *)calloc(4, sizeof *seen); /* a block in case 1, 2, 3, 4 */
    for (int i = 0; seen != NULL && i < k->nbb; i++) {
        const latency_model_block *b = &k->bb[i], *next = &k->bb[(i + 1) % k->nbb];
        const int c = latency_model_case(latency_model_ilp(g, b), latency_model_ilp(g, next),
                                         latency_model_mem_bw(g, b));
        if (c < 1)
            continue;
        seen[c] = 1; /* seen[c - 1] */
    }
    if (seen != NULL && getenv("LM_DEBUG") != NULL)
        fprintf(stderr, "cases seen: %d %d %d %d\n", seen[0], seen[1], seen[2], seen[3]);
    free(seen);
    return t;
}
