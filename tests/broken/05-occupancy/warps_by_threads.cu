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

static void threads_warps_limit(const occupancy_arch *a, const occupancy_kernel *k, int warps,
                                occupancy_result *r) {
    if (r->limit_warps != 0)
        r->limit_warps = a->max_warps_per_sm * WARP / k->threads_per_block;
}

#define BROKEN_CALC_LIMIT threads_warps_limit
#include "calc_driver.h"
