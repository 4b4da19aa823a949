/* waves_divide_by_zero.cu - broken lab 01: waves = ceil(n / max_resident_gpu) with no care for 0 */
/* SPDX-License-Identifier: MIT */
/* The formula of the README, typed as it reads: when every block ended in
 * the clock tick it started in, none was ever resident, the GPU's peak is 0,
 * and the integer division by it kills the process (SIGFPE).
 * expect: correct.analyze_per_sm FAIL signal 8
 * expect: correct.analyze_resident FAIL signal 8
 * expect: correct.analyze_waves FAIL signal 8
 * expect: sanitizer.host FAIL not graded */
#define block_scheduling_analyze reference_analyze
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_analyze
extern "C" int block_scheduling_analyze(const block_record *h_records, int n, int sm_count,
                                        int *h_blocks_per_sm, block_scheduling_stats *out) {
    int rc = reference_analyze(h_records, n, sm_count, h_blocks_per_sm, out);
    if (rc == 0) {
        volatile int peak = out->max_resident_gpu; /* the division is done, not folded away */
        out->waves = (n + peak - 1) / peak;
    }
    return rc;
}
