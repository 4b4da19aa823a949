/* gpu_peak_sum_of_sms.cu - broken lab 01: the GPU-wide peak is the sum of the SMs' own peaks */
/* SPDX-License-Identifier: MIT */
/* Right whenever every SM is full at the same moment, as in a launch of
 * equal blocks; wrong when the SMs are busiest at different times. On a
 * real trace they usually are full together, so the GPU decides
 * check.timeline.
 * expect: correct.analyze_resident FAIL the SMs taking turns
 * expect: correct.analyze_waves FAIL the SMs taking turns
 * expect: check.timeline ANY
 * expect: sanitizer.host FAIL not graded */
#define block_scheduling_analyze reference_analyze
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_analyze
extern "C" int block_scheduling_analyze(const block_record *h_records, int n, int sm_count,
                                        int *h_blocks_per_sm, block_scheduling_stats *out) {
    int rc = reference_analyze(h_records, n, sm_count, h_blocks_per_sm, out);
    if (rc != 0)
        return rc;
    int sum = 0; /* each SM's own peak, at one of its blocks' starts */
    for (int s = 0; s < sm_count; s++) {
        int peak = 0;
        for (int i = 0; i < n; i++) {
            int on = 0;
            for (int j = 0; j < n; j++)
                on += (int)h_records[i].smid == s && h_records[j].smid == h_records[i].smid &&
                      h_records[j].start_ns <= h_records[i].start_ns &&
                      h_records[i].start_ns < h_records[j].end_ns;
            peak = on > peak ? on : peak;
        }
        sum += peak;
    }
    out->max_resident_gpu = sum;
    out->waves = sum > 0 ? (n + sum - 1) / sum : 0;
    return 0;
}
