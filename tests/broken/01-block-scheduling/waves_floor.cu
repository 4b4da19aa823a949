/* waves_floor.cu - broken lab 01: waves rounded down, so a partial last wave is not counted */
/* SPDX-License-Identifier: MIT */
/* expect: correct.analyze_waves FAIL waves = 1, expected 2 (ceil(3 / 2)
 * expect: check.timeline FAIL your analysis gives
 * expect: sanitizer.host FAIL not graded */
#define block_scheduling_analyze reference_analyze
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_analyze

extern "C" int block_scheduling_analyze(const block_record *h_records, int n, int sm_count,
                                        int *h_blocks_per_sm, block_scheduling_stats *out) {
    int rc = reference_analyze(h_records, n, sm_count, h_blocks_per_sm, out);
    if (rc == 0 && out->max_resident_gpu > 0)
        out->waves = n / out->max_resident_gpu; /* 1000 / 432 = 2: the tail is lost */
    return rc;
}
