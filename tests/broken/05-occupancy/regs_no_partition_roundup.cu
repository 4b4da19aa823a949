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

static void unrounded_regs_limit(const occupancy_arch *a, const occupancy_kernel *k, int warps,
                                 occupancy_result *r) {
    int per_warp = round_up(k->regs_per_thread * WARP, a->reg_alloc_unit);
    if (per_warp > 0) {
        if (per_warp * warps > a->regs_per_block)
            r->limit_regs = 0;
        else
            r->limit_regs =
                a->regs_per_sm / a->reg_partitions / per_warp * a->reg_partitions / warps;
    }
}

#define BROKEN_CALC_LIMIT unrounded_regs_limit
#include "calc_driver.h"
