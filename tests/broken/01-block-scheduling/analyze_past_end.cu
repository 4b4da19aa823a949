/* analyze_past_end.cu - broken lab 01: the analysis clears one count more than there are SMs */
/* SPDX-License-Identifier: MIT */
/* Every figure it returns is right; the extra count lands just past
 * h_blocks_per_sm, in memory that belongs to someone else, which only a
 * guard after the array shows.
 * expect: correct.analyze_per_sm FAIL wrote past the end of h_blocks_per_sm
 * expect: correct.analyze_resident FAIL wrote past the end of h_blocks_per_sm
 * expect: correct.analyze_waves FAIL wrote past the end of h_blocks_per_sm
 * expect: correct.analyze_invalid FAIL wrote past the end of h_blocks_per_sm
 * expect: check.timeline FAIL wrote past the end of h_blocks_per_sm
 * expect: sanitizer.host FAIL not graded */
#define block_scheduling_analyze reference_analyze
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_analyze

extern "C" int block_scheduling_analyze(const block_record *h_records, int n, int sm_count,
                                        int *h_blocks_per_sm, block_scheduling_stats *out) {
    for (int s = 0; s <= sm_count; s++) /* "SMs 0 to sm_count": one too many */
        h_blocks_per_sm[s] = 0;
    return reference_analyze(h_records, n, sm_count, h_blocks_per_sm, out);
}
