/* regs_block_limit_sm.cu - broken lab 05: a block's registers checked against the SM's register
 * file, not regs_per_block */
/* SPDX-License-Identifier: MIT */
/* The two are equal on all seven capabilities of the table; a made-up SM
 * whose blocks may hold only half its register file (as on capabilities
 * 3.2 and 5.3) shows the difference.
 * expect: correct.calc_random FAIL regs_per_block 32768
 * expect: correct.calc_factors FAIL regs_per_block 32768
 * expect: measure.sweep FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define occupancy_calc reference_calc
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_calc

static void sm_file_regs_limit(const occupancy_arch *a, const occupancy_kernel *k, int warps,
                               occupancy_result *r) {
    int per_warp = round_up(k->regs_per_thread * WARP, a->reg_alloc_unit);
    long long assumed = (long long)per_warp * round_up(warps, a->reg_partitions);
    if (per_warp > 0) {
        if (assumed > a->regs_per_sm || per_warp * warps > a->regs_per_sm)
            r->limit_regs = 0;
        else
            r->limit_regs =
                a->regs_per_sm / a->reg_partitions / per_warp * a->reg_partitions / warps;
    }
}

#define BROKEN_CALC_LIMIT sm_file_regs_limit
#include "calc_driver.h"
