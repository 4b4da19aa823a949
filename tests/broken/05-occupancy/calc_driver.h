/* calc_driver.h - lab 05's calculator around a broken variant's limit (define BROKEN_CALC_LIMIT
 * first) */
/* SPDX-License-Identifier: MIT */
/* occupancy_calc as the reference computes it, except that
 * BROKEN_CALC_LIMIT(a, k, warps, &r) then replaces one of its limits.
 * Include it after the solution (included with occupancy_calc renamed
 * reference_calc) and the variant's limit. */
#ifndef BROKEN_CALC_LIMIT
#error "define BROKEN_CALC_LIMIT before including calc_driver.h"
#endif

static int min4(int a, int b, int c, int d) {
    int m = a < b ? a : b;
    m = m < c ? m : c;
    return m < d ? m : d;
}

/* The reference's figures with one limit replaced: the least limit, the
 * bits and the occupancy worked out again. */
static void recombine(const occupancy_arch *a, int warps, occupancy_result *r) {
    int n = min4(r->limit_warps, r->limit_regs, r->limit_smem, r->limit_blocks);
    r->blocks_per_sm = n;
    r->limiting = (r->limit_warps == n ? OCCUPANCY_LIMIT_WARPS : 0u) |
                  (r->limit_regs == n ? OCCUPANCY_LIMIT_REGISTERS : 0u) |
                  (r->limit_smem == n ? OCCUPANCY_LIMIT_SHARED : 0u) |
                  (r->limit_blocks == n ? OCCUPANCY_LIMIT_BLOCKS : 0u);
    r->warps_per_sm = n * warps;
    r->occupancy = (double)r->warps_per_sm / a->max_warps_per_sm;
}

extern "C" int occupancy_calc(const occupancy_arch *a, const occupancy_kernel *k,
                              occupancy_result *out) {
    occupancy_result r;
    if (out == NULL || reference_calc(a, k, &r) != 0)
        return -1;
    int warps = warps_per_block(k);
    BROKEN_CALC_LIMIT(a, k, warps, &r);
    recombine(a, warps, &r);
    *out = r;
    return 0;
}
