/* regs_typed_in.cu - broken lab 05: the register file's 65536 registers and 256-register unit typed
 * in, not read from *a */
/* SPDX-License-Identifier: MIT */
/* Right on all seven capabilities of the table (every one has 65536); the
 * calculator is for the SM it is given, and a made-up SM with half the
 * register file shows the difference. (The 256-register unit typed in is
 * right on every capability cuda_occupancy.h knows, so the grader cannot
 * tell it apart; the 65536 it can.)
 * expect: correct.calc_random FAIL take every figure from *a
 * expect: correct.calc_factors FAIL take every figure from *a
 * expect: measure.sweep FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define occupancy_calc reference_calc
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_calc

static void typed_in_regs_limit(const occupancy_arch *a, const occupancy_kernel *k, int warps,
                                occupancy_result *r) {
    int per_warp = round_up(k->regs_per_thread * WARP, 256);
    if (r->limit_regs != 0 && per_warp > 0)
        r->limit_regs = 65536 / a->reg_partitions / per_warp * a->reg_partitions / warps;
}

#define BROKEN_CALC_LIMIT typed_in_regs_limit
#include "calc_driver.h"
