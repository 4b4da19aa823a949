/* first_limit_only.cu - broken lab 05: reports one limiting resource even when several tie */
/* SPDX-License-Identifier: MIT */
/* The block counts are right; only the limiting bits of ties are wrong
 * (the A100 at 31 registers and 512 threads is limited by warps and
 * registers at once).
 * expect: correct.calc_factors FAIL wrong limiting bits
 * expect: sanitizer.host FAIL not graded */
#define occupancy_calc reference_calc
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_calc

extern "C" int occupancy_calc(const occupancy_arch *a, const occupancy_kernel *k,
                              occupancy_result *out) {
    if (reference_calc(a, k, out) != 0)
        return -1;
    unsigned b = out->limiting;
    out->limiting = b & (0u - b); /* the lowest bit only */
    return 0;
}
