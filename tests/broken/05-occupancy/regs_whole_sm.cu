/* regs_whole_sm.cu - broken lab 05: divides the whole register file among warps, ignoring its four
 * partitions */
/* SPDX-License-Identifier: MIT */
/* At 40 registers a warp takes 1280 registers: the whole file holds 51
 * such warps, but each partition holds only 12 (48 in all). The worked
 * A100 cases happen to agree; random and exhaustive kernels do not.
 * expect: correct.calc_random FAIL wrong blocks_per_sm
 * expect: correct.calc_grid FAIL wrong blocks_per_sm
 * expect: correct.calc_factors FAIL wrong limit_regs
 * expect: correct.calc_device FAIL your calculator says
 * expect: measure.sweep FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define occupancy_calc reference_calc
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_calc

static int min4(int a, int b, int c, int d) {
    int m = a < b ? a : b;
    m = m < c ? m : c;
    return m < d ? m : d;
}

extern "C" int occupancy_calc(const occupancy_arch *a, const occupancy_kernel *k,
                              occupancy_result *out) {
    occupancy_result r;
    if (out == NULL || reference_calc(a, k, &r) != 0)
        return -1;
    int warps = warps_per_block(k);
    int per_warp = round_up(k->regs_per_thread * WARP, a->reg_alloc_unit);
    if (r.limit_regs != 0 && per_warp > 0)
        r.limit_regs = a->regs_per_sm / per_warp / warps; /* "65536 registers, one pool" */
    int n = min4(r.limit_warps, r.limit_regs, r.limit_smem, r.limit_blocks);
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
