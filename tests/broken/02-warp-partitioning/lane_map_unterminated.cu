/* lane_map_unterminated.cu - broken lab 02: idle lanes counted in a string of the block's
 * lanes whose terminating NUL is written one past the bytes malloc gave */
/* SPDX-License-Identifier: MIT */
/* The warps are the reference's. The idle lanes are counted in a map of the block's lanes,
 * warp after warp, one character a lane ('#' a thread, '.' an idle lane), kept as a string
 * for a print behind WP_DEBUG (left in): malloc is asked for one byte a lane and none for the
 * NUL, which goes one past the end. The block has a whole number of warps, so its lanes are a
 * multiple of 32 bytes, and glibc hands out 8 bytes more than that: the NUL, and the read that
 * ends the count there, land in that slack, and every count stays right. Only
 * AddressSanitizer sees it, and names the line.
 * expect: sanitizer.host FAIL heap-buffer-overflow, a WRITE of size 1 at lane_map_unterminated.cu:30
 */
#define warp_partitioning_idle_lanes reference_idle_lanes
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_idle_lanes

#include <stdio.h>
#include <stdlib.h>

extern "C" int warp_partitioning_idle_lanes(warp_partitioning_dim b) {
    const int warps = warp_partitioning_warps_per_block(b);
    if (warps < 0)
        return -1;
    const int lanes = warps * WARP, threads = b.x * b.y * b.z;
    char *map = (char *)malloc((size_t)lanes); /* one byte a lane */
    if (map == NULL)
        return -1;
    for (int i = 0; i < lanes; i++)
        map[i] = i < threads ? '#' : '.';
    map[lanes] = '\0';
    if (getenv("WP_DEBUG") != NULL)
        fprintf(stderr, "%dx%dx%d: %s\n", b.x, b.y, b.z, map);
    int idle = 0;
    for (const char *c = map; *c != '\0'; c++)
        idle += *c == '.';
    free(map);
    return idle;
}
