/* lane_from_x.cu - broken lab 02: the lane taken from threadIdx.x alone, as if every block were 1D
 */
/* SPDX-License-Identifier: MIT */
/* expect: correct.warp_lane FAIL expected warp
 * expect: sanitizer.host FAIL not graded */
#define warp_partitioning_lane reference_lane
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_lane

extern "C" int warp_partitioning_lane(warp_partitioning_dim t, warp_partitioning_dim b) {
    if (reference_lane(t, b) < 0)
        return -1;
    return t.x % WARP_PARTITIONING_WARP_SIZE; /* right only when b.x is a multiple of 32 */
}
