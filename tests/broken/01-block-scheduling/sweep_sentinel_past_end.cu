/* sweep_sentinel_past_end.cu - broken lab 01: the GPU-wide sweep stops at a sentinel event
 * stored one past the 2n events malloc gave room for */
/* SPDX-License-Identifier: MIT */
/* The analysis is the reference's, but its sweep over all the events at once runs until a
 * sentinel time (~0) instead of counting to 2n, and the sentinel is stored at ev[2 * n], one
 * past the end of the array: room for it was never asked. Only its 8-byte time is written, and
 * glibc hands out 8 bytes more than a multiple of 16 asks (2n events of 16 bytes): the write,
 * and the read that stops the sweep, land in that slack, every figure stays right and nothing
 * the grader hands the analysis is touched. Only AddressSanitizer sees it, and names the line.
 * expect: sanitizer.host FAIL heap-buffer-overflow, a WRITE of size 8 at sweep_sentinel_past_end.cu:58
 */
#define block_scheduling_analyze reference_analyze
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_analyze

extern "C" int block_scheduling_analyze(const block_record *h_records, int n, int sm_count,
                                        int *h_blocks_per_sm, block_scheduling_stats *out) {
    if (n < 1 || sm_count < 1)
        return -1;
    for (int i = 0; i < n; i++)
        if (h_records[i].smid >= (unsigned int)sm_count ||
            h_records[i].end_ns < h_records[i].start_ns)
            return -1;
    memset(h_blocks_per_sm, 0, sizeof(int) * (size_t)sm_count);
    for (int i = 0; i < n; i++)
        h_blocks_per_sm[h_records[i].smid]++;

    sweep_event *ev = (sweep_event *)malloc(sizeof(sweep_event) * 2 * (size_t)n);
    int *first = (int *)malloc(sizeof(int) * ((size_t)sm_count + 1));
    int *fill = (int *)calloc((size_t)sm_count, sizeof(int));
    if (!ev || !first || !fill) {
        free(ev);
        free(first);
        free(fill);
        return -1;
    }
    first[0] = 0;
    for (int s = 0; s < sm_count; s++)
        first[s + 1] = first[s] + 2 * h_blocks_per_sm[s];
    for (int i = 0; i < n; i++) {
        int s = (int)h_records[i].smid, k = first[s] + fill[s];
        ev[k].t = h_records[i].start_ns, ev[k].delta = +1;
        ev[k + 1].t = h_records[i].end_ns, ev[k + 1].delta = -1;
        fill[s] += 2;
    }
    int peak_sm = 0, used = 0;
    for (int s = 0; s < sm_count; s++) {
        int m = first[s + 1] - first[s], cur = 0;
        used += m > 0;
        qsort(ev + first[s], (size_t)m, sizeof *ev, event_order);
        for (int k = first[s]; k < first[s + 1]; k++)
            if ((cur += ev[k].delta) > peak_sm)
                peak_sm = cur;
    }
    int peak_gpu = 0, cur = 0;
    qsort(ev, 2 * (size_t)n, sizeof *ev, event_order);
    /* The sweep runs to a sentinel after the last event: no count to keep. */
    ev[2 * n].t = ~0ULL;
    for (int k = 0; ev[k].t != ~0ULL; k++)
        if ((cur += ev[k].delta) > peak_gpu)
            peak_gpu = cur;
    free(ev);
    free(first);
    free(fill);

    out->n_blocks = n;
    out->sms_used = used;
    out->max_resident_sm = peak_sm;
    out->max_resident_gpu = peak_gpu;
    out->waves = peak_gpu > 0 ? (n + peak_gpu - 1) / peak_gpu : 0;
    return 0;
}
