/* conflict_ways_int_overflow.cu - broken lab 09: the warp's banks simulated with t * stride in an
 * int */
/* SPDX-License-Identifier: MIT */
/* Counting the threads per bank by hand is right for every stride shared
 * memory can hold, but the contract takes any stride from 1: from about
 * 2^26 words on, thread 31's word t * stride overflows an int, its
 * remainder comes out negative, and count[bank] is read and written before
 * the array. What the overflow gives in the plain build is the compiler's
 * choice (with gcc the stray counts happen to leave every answer right);
 * AddressSanitizer, which runs correct.conflict_ways again, names the line.
 * expect: sanitizer.host FAIL stack-buffer-underflow */
#define prefetching_conflict_ways reference_conflict_ways
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_conflict_ways
extern "C" int prefetching_conflict_ways(int stride_words) {
    if (stride_words < 1)
        return -1;
    int count[32] = {0}, most = 0;
    for (int t = 0; t < 32; t++) {
        int bank = (t * stride_words) % 32;
        if (++count[bank] > most)
            most = count[bank];
    }
    return most;
}
