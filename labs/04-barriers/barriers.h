/* barriers.h - the contract of lab 04: a block-level sum in shared memory with correct barriers */
/* SPDX-License-Identifier: MIT */
#ifndef BARRIERS_H
#define BARRIERS_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per block of every kernel of the lab, and elements each thread of
 * a block adds up in registers before the block combines them: one block
 * turns a tile of BARRIERS_TILE consecutive elements into one sum. */
#define BARRIERS_BLOCK 256
#define BARRIERS_ITEMS 2
#define BARRIERS_TILE (BARRIERS_BLOCK * BARRIERS_ITEMS)
/* Tiles one block handles in turn (tile b, b + gridDim.x, ...): a block
 * calls its block sum several times on the same shared memory. */
#define BARRIERS_TILES_PER_BLOCK 4
/* Largest n barriers_sum accepts. */
#define BARRIERS_MAX_N (1 << 30)
/* Results must lie within this relative distance of the exact sum, for
 * inputs in [0, 1) (README.md, "What is graded"). */
#define BARRIERS_REL_TOL 1e-5

#ifdef __CUDACC__
#define BARRIERS_HD __host__ __device__
#else
#define BARRIERS_HD
#endif

/* Tiles of m elements: ceil(m / BARRIERS_TILE). On the host and the device. */
static BARRIERS_HD inline int barriers_tiles(int m) {
    return (int)(((long long)m + BARRIERS_TILE - 1) / BARRIERS_TILE);
}

/* Floats of scratch barriers_sum needs for n elements: the tile sums of
 * every level but the last (level k+1 adds up the tile sums of level k,
 * until one tile is left). At least 1, so a buffer of this size is never
 * empty. */
static inline size_t barriers_scratch_floats(int n) {
    size_t total = 0;
    for (int m = n; m > BARRIERS_TILE; m = barriers_tiles(m))
        total += (size_t)barriers_tiles(m);
    return total > 0 ? total : 1;
}

/* Sums the n floats of d_in into *d_out, asynchronously on stream.
 *
 * d_in, d_scratch and d_out are device pointers: n floats (input only: not
 * changed), barriers_scratch_floats(n) floats of scratch, and one float.
 * The lab's code launches one kernel per level: level 1 writes the sum of
 * tile k of d_in (elements k*BARRIERS_TILE .. k*BARRIERS_TILE+TILE-1, fewer
 * in the last tile) to d_scratch[k]; each later level sums the tiles of the
 * level before; the level with a single tile writes *d_out. Each tile is
 * added up by one block, with barriers_block_sum (barriers.cu), which is the
 * student's part.
 *
 * Returns cudaErrorInvalidValue for a NULL pointer, n < 1 or
 * n > BARRIERS_MAX_N (nothing launched), else the first launch error.
 *
 * Graded (README.md, "What is graded"): on sizes from 1 to 2^24 that are
 * mostly not multiples of the block or the tile, with d_scratch and d_out
 * poisoned (NaN) first: *d_out and the tile sums of level 1 within
 * BARRIERS_REL_TOL of the exact sums of random inputs in [0, 1), exactly n
 * for an input of n ones, d_in unchanged, and the same bits on every run
 * of the same input (no atomics, no races). Then under compute-sanitizer
 * racecheck and synccheck, which must report nothing; then timed at
 * n = 2^27 on the grader's stream, with the input served from the L2 (one
 * block of memory mapped over the 512 MiB; README.md, "What is graded"):
 * at least 1.35x faster than the grader's sum with a barrier per step. */
cudaError_t barriers_sum(const float *d_in, int n, float *d_scratch, float *d_out,
                         cudaStream_t stream);

/* The picture of your run (README.md, "Your run, drawn"; not graded).
 * While d_trace is not NULL, barriers_sum launches a copy of the lab's
 * level kernel (given code in barriers.cu) that stamps what it does into
 * that device buffer of `capacity` words; barriers_trace(NULL, 0) stops it,
 * and the kernel timed has none of the stamps' code. The layout:
 *   [0]                      the number of block records written
 *   [1 .. BARRIERS_TRACE_HEAD) block 0 of level 1, for each of its tiles k
 *                            and warps w: the SM clock (clock64) when the
 *                            warp called barriers_block_sum, at
 *                            1 + 2 * (k * BARRIERS_TRACE_WARPS + w), and
 *                            when it returned, one word further
 *   then one record of BARRIERS_TRACE_REC words per block of every level:
 *                            level (1, 2, ...), block index, SM id, and
 *                            %globaltimer (ns) when the block started and
 *                            when it ended; records past `capacity` are
 *                            dropped (the count still counts them). */
#define BARRIERS_TRACE_WARPS (BARRIERS_BLOCK / 32)
#define BARRIERS_TRACE_HEAD (1 + 2 * BARRIERS_TILES_PER_BLOCK * BARRIERS_TRACE_WARPS)
#define BARRIERS_TRACE_REC 5
cudaError_t barriers_trace(unsigned long long *d_trace, int capacity);

#ifdef __cplusplus
}
#endif
#endif
