/* invalid_zero_only.cu - broken lab 01: the analysis rejects n == 0 and sm_count == 0, not negative
 * ones */
/* SPDX-License-Identifier: MIT */
/* The contract says n < 1 and sm_count < 1; a test of == 0 lets -1 through
 * (this analysis then returns 0 with nothing analysed).
 * expect: correct.analyze_invalid FAIL with n = -1 it returned 0
 * expect: sanitizer.host FAIL not graded */
#define block_scheduling_analyze reference_analyze
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_analyze
/* quadratic analysis; rejects n == 0 and sm_count == 0 only */
extern "C" int block_scheduling_analyze(const block_record *r, int n, int sm_count, int *per_sm,
                                        block_scheduling_stats *s) {
    if (n == 0 || sm_count == 0)
        return -1;
    for (int i = 0; i < n; i++)
        if (r[i].smid >= (unsigned)sm_count || r[i].end_ns < r[i].start_ns)
            return -1;
    for (int k = 0; k < sm_count; k++)
        per_sm[k] = 0;
    memset(s, 0, sizeof *s);
    s->n_blocks = n;
    for (int i = 0; i < n; i++)
        per_sm[r[i].smid]++;
    for (int k = 0; k < sm_count; k++)
        s->sms_used += per_sm[k] > 0;
    for (int i = 0; i < n; i++) {
        int on_sm = 0, on_gpu = 0;
        for (int j = 0; j < n; j++)
            if (r[j].start_ns <= r[i].start_ns && r[i].start_ns < r[j].end_ns) {
                on_gpu++;
                on_sm += r[j].smid == r[i].smid;
            }
        if (on_sm > s->max_resident_sm)
            s->max_resident_sm = on_sm;
        if (on_gpu > s->max_resident_gpu)
            s->max_resident_gpu = on_gpu;
    }
    s->waves = s->max_resident_gpu ? (n + s->max_resident_gpu - 1) / s->max_resident_gpu : 0;
    return 0;
}
