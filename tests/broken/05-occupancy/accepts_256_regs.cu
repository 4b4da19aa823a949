/* accepts_256_regs.cu - broken lab 05: accepts more registers per thread than any thread can have
 */
/* SPDX-License-Identifier: MIT */
/* expect: correct.invalid FAIL 256 registers
 * expect: sanitizer.host FAIL not graded */
#define occupancy_calc reference_calc
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_calc

extern "C" int occupancy_calc(const occupancy_arch *a, const occupancy_kernel *k,
                              occupancy_result *out) {
    if (a != NULL && k != NULL && out != NULL &&
        k->regs_per_thread > OCCUPANCY_MAX_REGS_PER_THREAD && k->regs_per_thread <= 256) {
        occupancy_kernel capped = *k;
        capped.regs_per_thread = OCCUPANCY_MAX_REGS_PER_THREAD; /* "close enough" */
        return reference_calc(a, &capped, out);
    }
    return reference_calc(a, k, out);
}
