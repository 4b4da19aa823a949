/* analyze_drops_instant.cu - broken lab 01: records that end in the tick they start in skipped */
/* SPDX-License-Identifier: MIT */
/* The student takes a block with end_ns == start_ns for a bogus record and
 * leaves it out of the analysis. It was never resident, so the peaks are
 * right, but it ran on its SM: the block counts, n_blocks and the waves
 * come out short.
 * expect: correct.analyze_per_sm FAIL blocks on SM 2 = 0, expected 1
 * expect: correct.analyze_waves FAIL waves = 1, expected 2
 * expect: sanitizer.host FAIL not graded */
#include <stdlib.h>
#include <string.h>
#define block_scheduling_analyze reference_analyze
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_analyze
extern "C" int block_scheduling_analyze(const block_record *h_records, int n, int sm_count,
                                        int *h_blocks_per_sm, block_scheduling_stats *out) {
    if (n <= 0 || sm_count <= 0 || h_records == NULL)
        return reference_analyze(h_records, n, sm_count, h_blocks_per_sm, out);
    block_record *kept = (block_record *)malloc(sizeof *kept * (size_t)n);
    if (kept == NULL)
        return -1;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (h_records[i].end_ns != h_records[i].start_ns)
            kept[m++] = h_records[i];
    int rc;
    if (m > 0) {
        rc = reference_analyze(kept, m, sm_count, h_blocks_per_sm, out);
    } else { /* nothing left: nothing counted */
        memset(h_blocks_per_sm, 0, sizeof(int) * (size_t)sm_count);
        memset(out, 0, sizeof *out);
        rc = 0;
    }
    free(kept);
    return rc;
}
