/* dv_edge.h - lab 03: which warps of an image kernel diverge at its bounds check */
/* SPDX-License-Identifier: MIT */
#ifndef DV_EDGE_H
#define DV_EDGE_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The launch of README.md, "Boundary checks": one thread per pixel, blocks
 * of 16 x 16 threads (x along the width), as many blocks as cover the image.
 * A block's 256 threads make 8 warps of two rows of 16: lane l of warp k
 * is thread (l % 16, 2k + l / 16) of its block. */
#define DV_EDGE_BLOCK 16
#define DV_EDGE_WARPS_PER_BLOCK 8

/* The stored answer hashes of the image questions (WB_QUESTION_HASH rows of
 * check_divergence.c; build/tools/wb-hash prints them). */
#define DV_HASH_DIVERGENT_100X45 0x28875ddf8d8777a5ULL
#define DV_HASH_DIVERGENT_62X76 0xbead70d356dc164eULL
#define DV_HASH_DIVERGENT_200X150 0x74a86130c7cc42daULL

/* An image of measure.edge_warps. question: the key of answers.txt that
 * asks for its divergent warps, with the hash of the right answer; NULL for
 * an image no question asks about (its picture gives nothing away). */
typedef struct dv_edge_image {
    int width, height;
    const char *question;
    uint64_t hash;
} dv_edge_image;

/* The images, in the order the picture lays them out
 * (slides/plots/03-edge-warps.gp): the chapter's 40 x 20, a 70 x 37 of odd
 * height, then the three of the questions. */
extern const dv_edge_image dv_edge_images[];
extern const int dv_edge_n_images;

/* What the grader's kernel records for one warp: present, the lanes that
 * ran at all (__ballot_sync of every lane: all 32 in a whole block); ballot,
 * the lanes whose pixel passes the check (__ballot_sync on it); active, the
 * lanes that ran the if body, as __activemask() there says (OR-ed by each
 * pass's first lane, so a body run in several passes still gives them all). */
typedef struct dv_edge_record {
    unsigned present, ballot, active;
} dv_edge_record;

/* Blocks of the grid along x and y, and warps of the whole launch. */
int dv_edge_blocks_x(int width);
int dv_edge_blocks_y(int height);
int dv_edge_warps(int width, int height);

/* The lanes of warp w (its number in the launch: (blockIdx.y * blocks_x +
 * blockIdx.x) * 8 + the warp in its block) whose pixel lies inside a width
 * x height image, bit l for lane l: what the kernel must record. */
unsigned dv_edge_expected(int width, int height, int w);
/* "inside" (all 32 lanes), "outside" (none) or "divergent" (some) for the
 * lanes of a mask that pass the check. */
const char *dv_edge_state(unsigned inside);
/* Warps of the launch whose lanes disagree at the check, as computed. */
int dv_edge_divergent(int width, int height);

/* The CSV of measure.edge_warps (edge_warps.csv), read by
 * slides/plots/03-edge-warps.gp. The header, then one row per warp of one
 * image from its records (rec: dv_edge_warps() of them):
 *   image,width,height,block_x,block_y,warp,first_x,first_row,
 *   lanes_inside,inside_lanes,exp_inside_lanes,state,agrees
 * warp: the warp in its block (0..7), covering columns first_x ..
 * first_x + 15 of rows first_row and first_row + 1; inside_lanes: the lanes
 * that ran the if body as 32 digits, lane 0 first (the first row's 16
 * threads, then the second's), lanes_inside their number and state what
 * they make of the warp; exp_inside_lanes: the lanes dv_edge_expected
 * gives; agrees: 1 where all three of the warp's records are what they must
 * be. Returns the warps whose records differ from that (0: all agree). */
void dv_edge_csv_header(FILE *f);
int dv_edge_csv_rows(FILE *f, int width, int height, const dv_edge_record *rec);
/* 1 where one warp's records are what they must be: every lane present, and
 * both the vote and the lanes of the body as dv_edge_expected gives. */
int dv_edge_agrees(int width, int height, int w, const dv_edge_record *r);

#ifdef __cplusplus
}
#endif
#endif
