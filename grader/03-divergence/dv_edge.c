/* dv_edge.c - lab 03's edge warps computed without a GPU, and their CSV for the picture */
/* SPDX-License-Identifier: MIT */
#include "dv_edge.h"

#include <string.h>

#define LANES 32

const dv_edge_image dv_edge_images[] = {
    {40, 20, NULL, 0},
    {70, 37, NULL, 0},
    {100, 45, "divergent_100x45", DV_HASH_DIVERGENT_100X45},
    {62, 76, "divergent_62x76", DV_HASH_DIVERGENT_62X76},
    {200, 150, "divergent_200x150", DV_HASH_DIVERGENT_200X150},
};
const int dv_edge_n_images = (int)(sizeof dv_edge_images / sizeof dv_edge_images[0]);

int dv_edge_blocks_x(int width) {
    return (width + DV_EDGE_BLOCK - 1) / DV_EDGE_BLOCK;
}

int dv_edge_blocks_y(int height) {
    return (height + DV_EDGE_BLOCK - 1) / DV_EDGE_BLOCK;
}

int dv_edge_warps(int width, int height) {
    return dv_edge_blocks_x(width) * dv_edge_blocks_y(height) * DV_EDGE_WARPS_PER_BLOCK;
}

/* Where warp w lies: its block and its first column and row. */
static void warp_place(int width, int w, int *bx, int *by, int *k, int *x0, int *y0) {
    int block = w / DV_EDGE_WARPS_PER_BLOCK;
    *k = w % DV_EDGE_WARPS_PER_BLOCK;
    *bx = block % dv_edge_blocks_x(width);
    *by = block / dv_edge_blocks_x(width);
    *x0 = *bx * DV_EDGE_BLOCK;
    *y0 = *by * DV_EDGE_BLOCK + 2 * *k;
}

/* Thread by thread, as the kernel's own check decides: no shortcut by
 * regions, so that this is plainly what the if computes. */
unsigned dv_edge_expected(int width, int height, int w) {
    int bx, by, k, x0, y0;
    warp_place(width, w, &bx, &by, &k, &x0, &y0);
    unsigned m = 0;
    for (int l = 0; l < LANES; l++) {
        int x = x0 + l % DV_EDGE_BLOCK, y = y0 + l / DV_EDGE_BLOCK;
        if (x < width && y < height)
            m |= 1u << l;
    }
    return m;
}

const char *dv_edge_state(unsigned inside) {
    return inside == 0xFFFFFFFFu ? "inside" : inside == 0 ? "outside" : "divergent";
}

int dv_edge_divergent(int width, int height) {
    int n = 0;
    for (int w = 0; w < dv_edge_warps(width, height); w++)
        n += strcmp(dv_edge_state(dv_edge_expected(width, height, w)), "divergent") == 0;
    return n;
}

int dv_edge_agrees(int width, int height, int w, const dv_edge_record *r) {
    unsigned e = dv_edge_expected(width, height, w);
    return r->present == 0xFFFFFFFFu && r->ballot == e && r->active == e;
}

static void lane_digits(unsigned m, char out[LANES + 1]) {
    for (int l = 0; l < LANES; l++)
        out[l] = (m >> l) & 1u ? '1' : '0';
    out[LANES] = '\0';
}

void dv_edge_csv_header(FILE *f) {
    fprintf(f, "image,width,height,block_x,block_y,warp,first_x,first_row,lanes_inside,"
               "inside_lanes,exp_inside_lanes,state,agrees\n");
}

int dv_edge_csv_rows(FILE *f, int width, int height, const dv_edge_record *rec) {
    int differ = 0;
    for (int w = 0; w < dv_edge_warps(width, height); w++) {
        int bx, by, k, x0, y0, ok = dv_edge_agrees(width, height, w, &rec[w]);
        char got[LANES + 1], want[LANES + 1];
        warp_place(width, w, &bx, &by, &k, &x0, &y0);
        lane_digits(rec[w].active, got);
        lane_digits(dv_edge_expected(width, height, w), want);
        fprintf(f, "%dx%d,%d,%d,%d,%d,%d,%d,%d,%d,%s,%s,%s,%d\n", width, height, width, height, bx,
                by, k, x0, y0, __builtin_popcount(rec[w].active), got, want,
                dv_edge_state(rec[w].active), ok);
        differ += !ok;
    }
    return differ;
}
