/* no_round_up.cu - broken lab 02: warps per block rounded down, so a partial warp is not counted */
/* SPDX-License-Identifier: MIT */
/* expect: correct.warps_per_block FAIL expected
 * expect: measure.waste_table FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define warp_partitioning_warps_per_block reference_warps_per_block
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_warps_per_block

extern "C" int warp_partitioning_warps_per_block(warp_partitioning_dim b) {
    if (reference_warps_per_block(b) < 0)
        return -1;
    return b.x * b.y * b.z / WARP_PARTITIONING_WARP_SIZE; /* 40x2 gives 2, not 3 */
}
