/* times_int.cu - broken lab 01: the analysis compares %globaltimer readings cut to a signed int */
/* SPDX-License-Identifier: MIT */
/* Right until the clock passes 2^31 ns past a multiple of 2^32 while blocks
 * are resident (every 4.3 s): a trace on the GPU almost never does, so the
 * GPU decides check.timeline.
 * expect: correct.analyze_resident FAIL 2^31 ns past a multiple of 2^32
 * expect: correct.analyze_waves FAIL 2^31 ns past a multiple of 2^32
 * expect: check.timeline ANY
 * expect: sanitizer.host FAIL not graded */
#define block_scheduling_analyze reference_analyze
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_analyze
extern "C" int block_scheduling_analyze(const block_record *r, int n, int sm_count, int *per_sm,
                                        block_scheduling_stats *s) {
    if (n < 1 || sm_count < 1)
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
        int t = (int)r[i].start_ns;
        for (int j = 0; j < n; j++)
            if ((int)r[j].start_ns <= t && t < (int)r[j].end_ns) {
                on_gpu++;
                on_sm += r[j].smid == r[i].smid;
            }
        if (on_sm > s->max_resident_sm)
            s->max_resident_sm = on_sm;
        if (on_gpu > s->max_resident_gpu)
            s->max_resident_gpu = on_gpu;
    }
    s->waves = s->max_resident_gpu > 0 ? (n + s->max_resident_gpu - 1) / s->max_resident_gpu : 0;
    return 0;
}
