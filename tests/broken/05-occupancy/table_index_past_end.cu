/* table_index_past_end.cu - broken lab 05: the capabilities indexed by 10 * major + minor in
 * an array of 120 entries, one short of capability 12.0's */
/* SPDX-License-Identifier: MIT */
/* The limits are the reference's table, found through an index built on the first call: one
 * short per capability 10 * major + minor, the row's number or -1. 12.0 is the newest, so the
 * index was given 120 entries, and 12.0's own, at 120, goes one past the end. glibc hands out
 * 8 bytes more than the 240 bytes asked: the write, and the read that finds the row, land in
 * that slack, and every field stays right. Only AddressSanitizer sees it, and names the line.
 * expect: sanitizer.host FAIL heap-buffer-overflow, a WRITE of size 2 at table_index_past_end.cu:29
 */
#define occupancy_arch_limits reference_limits
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_arch_limits

#include <stdlib.h>
#include <string.h>

#define NEWEST_CC (10 * 12 + 0) /* capability 12.0 */

extern "C" int occupancy_arch_limits(int major, int minor, occupancy_arch *out) {
    static short *row_of_cc; /* built once: the row of capability 10 * major + minor */
    const int rows = (int)(sizeof arch_table / sizeof arch_table[0]);
    if (row_of_cc == NULL) {
        short *index = (short *)malloc(NEWEST_CC * sizeof *index); /* capabilities 0.0 .. 12.0 */
        if (index == NULL)
            return -1;
        memset(index, -1, NEWEST_CC * sizeof *index); /* every short -1 */
        for (int i = 0; i < rows; i++)
            index[10 * arch_table[i].cc_major + arch_table[i].cc_minor] = (short)i;
        row_of_cc = index;
    }
    if (out == NULL || major < 0 || minor < 0 || minor > 9 || 10 * major + minor > NEWEST_CC)
        return -1;
    const int row = row_of_cc[10 * major + minor];
    if (row < 0)
        return -1;
    *out = arch_table[row];
    return 0;
}
