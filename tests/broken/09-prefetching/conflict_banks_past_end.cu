/* conflict_banks_past_end.cu - broken lab 09: the warp's banks filled one element past the
 * array malloc gave them (t <= 32) */
/* SPDX-License-Identifier: MIT */
/* The count is done by hand: the bank of each of the warp's 32 threads goes into a malloc'd
 * array, then the busiest bank's threads are counted. The loop that fills the array runs to
 * t <= 32, so a 33rd bank is written one int past the 128 bytes malloc gave; the count reads
 * the 32 it should. glibc hands out 8 bytes more than the 128 asked: the write lands in that
 * slack, and every count stays right. Only AddressSanitizer sees it, and names the line.
 * expect: sanitizer.host FAIL heap-buffer-overflow, a WRITE of size 4 at conflict_banks_past_end.cu:27
 */
#define prefetching_conflict_ways reference_conflict_ways
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_conflict_ways

#include <stdlib.h>

#define WARP 32

extern "C" int prefetching_conflict_ways(int stride_words) {
    if (stride_words < 1)
        return -1;
    /* Thread t reads word t * stride (from the row's start): its bank is that word % 32. */
    int *bank = (int *)malloc(WARP * sizeof *bank);
    if (bank == NULL)
        return -1;
    for (int t = 0; t <= WARP; t++)
        bank[t] = (int)((long)t * stride_words % WARP);
    /* The 32 words are all different, so threads in one bank take one pass each. */
    int ways = 0;
    for (int b = 0; b < WARP; b++) {
        int threads = 0;
        for (int t = 0; t < WARP; t++)
            threads += bank[t] == b;
        if (threads > ways)
            ways = threads;
    }
    free(bank);
    return ways;
}
