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

static void whole_file_regs_limit(const occupancy_arch *a, const occupancy_kernel *k, int warps,
                                  occupancy_result *r) {
    int per_warp = round_up(k->regs_per_thread * WARP, a->reg_alloc_unit);
    if (r->limit_regs != 0 && per_warp > 0)
        r->limit_regs = a->regs_per_sm / per_warp / warps; /* "65536 registers, one pool" */
}

#define BROKEN_CALC_LIMIT whole_file_regs_limit
#include "calc_driver.h"
