/* warps_by_threads.cu - broken lab 05: counts thread slots, not warp slots (a partial warp as part
 * of a warp) */
/* SPDX-License-Identifier: MIT */
/* 48-thread blocks: 2048 / 48 = 42 blocks by threads, but each takes two
 * warp slots, so only 32 fit. The worked cases use multiples of 32.
 * expect: correct.calc_random FAIL wrong blocks_per_sm
 * expect: correct.calc_grid FAIL wrong blocks_per_sm
 * expect: correct.calc_factors FAIL wrong limit_warps
 * expect: correct.calc_device FAIL your calculator says
 * expect: measure.sweep FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define occupancy_calc reference_calc
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_calc

extern "C" int occupancy_calc(const occupancy_arch *a, const occupancy_kernel *k,
                              occupancy_result *out) {
    occupancy_result r;
    if (out == NULL || reference_calc(a, k, &r) != 0)
        return -1;
    int warps = warps_per_block(k);
    if (r.limit_warps != 0)
        r.limit_warps = a->max_warps_per_sm * WARP / k->threads_per_block;
    int n = r.limit_warps;
    n = r.limit_regs < n ? r.limit_regs : n;
    n = r.limit_smem < n ? r.limit_smem : n;
    n = r.limit_blocks < n ? r.limit_blocks : n;
    r.blocks_per_sm = n;
    r.limiting = (r.limit_warps == n ? OCCUPANCY_LIMIT_WARPS : 0u) |
                 (r.limit_regs == n ? OCCUPANCY_LIMIT_REGISTERS : 0u) |
                 (r.limit_smem == n ? OCCUPANCY_LIMIT_SHARED : 0u) |
                 (r.limit_blocks == n ? OCCUPANCY_LIMIT_BLOCKS : 0u);
    r.warps_per_sm = n * warps;
    r.occupancy = (double)r.warps_per_sm / a->max_warps_per_sm;
    *out = r;
    return 0;
}
