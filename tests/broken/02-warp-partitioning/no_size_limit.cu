/* no_size_limit.cu - broken lab 02: each dimension checked, but not the 1024-thread total */
/* SPDX-License-Identifier: MIT */
/* expect: correct.invalid FAIL expected -1
 * expect: sanitizer.host FAIL not graded */
#define warp_partitioning_warps_per_block reference_warps_per_block
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_warps_per_block

extern "C" int warp_partitioning_warps_per_block(warp_partitioning_dim b) {
    if (b.x < 1 || b.x > 1024 || b.y < 1 || b.y > 1024 || b.z < 1 || b.z > 64)
        return -1;
    return (b.x * b.y * b.z + WARP_PARTITIONING_WARP_SIZE - 1) / WARP_PARTITIONING_WARP_SIZE;
}
