/* analyze_rejects_instant.cu - broken lab 01: a record with end_ns == start_ns taken for invalid */
/* SPDX-License-Identifier: MIT */
/* The trace is graded on start < end, and the student carries that over to
 * the analysis; the contract rejects only end_ns < start_ns (a block may end
 * in the clock tick it started in).
 * expect: correct.analyze_per_sm FAIL only end_ns < start_ns is invalid
 * expect: correct.analyze_resident FAIL only end_ns < start_ns is invalid
 * expect: correct.analyze_waves FAIL only end_ns < start_ns is invalid
 * expect: correct.analyze_invalid FAIL only end_ns < start_ns is invalid
 * expect: sanitizer.host FAIL not graded */
#define block_scheduling_analyze reference_analyze
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_analyze
extern "C" int block_scheduling_analyze(const block_record *h_records, int n, int sm_count,
                                        int *h_blocks_per_sm, block_scheduling_stats *out) {
    for (int i = 0; i < n; i++)
        if (h_records[i].end_ns <=
            h_records[i].start_ns) /* the trace's start < end, taken for the rule */
            return -1;
    return reference_analyze(h_records, n, sm_count, h_blocks_per_sm, out);
}
