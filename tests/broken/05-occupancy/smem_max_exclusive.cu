/* smem_max_exclusive.cu - broken lab 05: a block asking for exactly max_smem_per_block is refused
 * (>= for >) */
/* SPDX-License-Identifier: MIT */
/* Random kernels hit the maximum exactly only now and then; the grader
 * asks for it, and for one byte more, on every architecture. On the GPU the
 * driver decides whether the full opt-in is granted, and with it whether
 * correct.calc_device asks for exactly the maximum.
 * expect: correct.calc_random FAIL wrong blocks_per_sm
 * expect: correct.calc_factors FAIL wrong limit_smem
 * expect: correct.calc_device ANY
 * expect: measure.sweep FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define occupancy_calc reference_calc
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_calc

static void exclusive_smem_limit(const occupancy_arch *a, const occupancy_kernel *k, int warps,
                                 occupancy_result *r) {
    if (k->smem_per_block >= a->max_smem_per_block)
        r->limit_smem = 0;
}

#define BROKEN_CALC_LIMIT exclusive_smem_limit
#include "calc_driver.h"
