/* no_reservation.cu - broken lab 05: forgets the 1 KB the driver reserves in every block */
/* SPDX-License-Identifier: MIT */
/* Only kernels whose shared memory limits them change, so the exhaustive
 * grid (no shared memory: the limit never binds) and the worked cases
 * still pass.
 * expect: correct.calc_random FAIL wrong blocks_per_sm
 * expect: correct.calc_factors FAIL wrong smem_per_block
 * expect: correct.calc_device FAIL your calculator says
 * expect: measure.sweep FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define occupancy_calc reference_calc
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_calc

extern "C" int occupancy_calc(const occupancy_arch *a, const occupancy_kernel *k,
                              occupancy_result *out) {
    occupancy_result check;
    if (out == NULL || reference_calc(a, k, &check) != 0)
        return -1;
    occupancy_arch no_reserve = *a;
    no_reserve.smem_reserved_per_block = 0;
    return reference_calc(&no_reserve, k, out);
}
