/* table_blocks_86.cu - broken lab 05: gives compute capability 8.6 the A100's 32 block slots */
/* SPDX-License-Identifier: MIT */
/* expect: correct.table FAIL capability 8.6: max_blocks_per_sm = 32, expected 16
 * expect: sanitizer.host FAIL not graded */
#define occupancy_arch_limits reference_limits
#include "../../../solutions/05-occupancy/occupancy.cu"
#undef occupancy_arch_limits

extern "C" int occupancy_arch_limits(int major, int minor, occupancy_arch *out) {
    int rc = reference_limits(major, minor, out);
    if (rc == 0 && major == 8 && minor == 6)
        out->max_blocks_per_sm = 32; /* "Ampere is Ampere" */
    return rc;
}
