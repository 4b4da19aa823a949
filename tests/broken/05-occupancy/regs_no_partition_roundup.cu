/* regs_no_partition_roundup.cu - broken lab 05: the launch check counts the block's warps as they
 * are, not rounded up to the partitions */
/* SPDX-License-Identifier: MIT */
/* Where a block may hold the whole register file, the per-partition count
 * already gives 0 whenever the rounded-up check fails, so all seven
 * capabilities of the table agree; on a made-up SM whose blocks may hold
 * half of it, a block of 10 warps of 2816 registers (28160, under 32768)
 * is refused by the hardware's check (12 x 2816 = 33792).
 * expect: correct.calc_random FAIL regs_per_block 32768
 * expect: correct.calc_factors FAIL regs_per_block 32768
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
    int per_warp = round_up(k->regs_per_thread * WARP, a->reg_alloc_unit);
    if (per_warp > 0) {
        if (per_warp * warps > a->regs_per_block)
            r.limit_regs = 0;
        else
            r.limit_regs =
                a->regs_per_sm / a->reg_partitions / per_warp * a->reg_partitions / warps;
    }
    recombine(a, warps, &r);
    *out = r;
    return 0;
}
