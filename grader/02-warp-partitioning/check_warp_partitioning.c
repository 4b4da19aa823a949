/* check_warp_partitioning.c - the grader of lab 02: linear order, warps, lanes, padding, questions
 */
/* SPDX-License-Identifier: MIT */
#include "wb_grader.h"
#include "wb_rng.h"
#include "wb_timing.h"

#include "warp_partitioning.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W WARP_PARTITIONING_WARP_SIZE
#define README_LINEAR "README.md, \"Linear order\""
#define README_WARPS "README.md, \"Cutting into warps\""
#define README_PARTIAL "README.md, \"Partial warps\""
#define README_GPU "README.md, \"Recording on the GPU\""
#define README_PBLOCKS "README.md, \"Processing blocks\""

typedef warp_partitioning_dim dim;

/* ------------------------------------------- the grader's own formulas */

static int ref_valid_block(dim b) {
    return b.x >= 1 && b.x <= 1024 && b.y >= 1 && b.y <= 1024 && b.z >= 1 && b.z <= 64 &&
           (long long)b.x * b.y * b.z <= 1024;
}

static int ref_threads(dim b) {
    return b.x * b.y * b.z;
}

static int ref_linear(dim t, dim b) {
    return t.x + t.y * b.x + t.z * b.x * b.y;
}

static int ref_warps(dim b) {
    return (ref_threads(b) + W - 1) / W;
}

static int ref_idle(dim b) {
    return ref_warps(b) * W - ref_threads(b);
}

/* The thread at linear position i of block b. */
static dim ref_unlinear(int i, dim b) {
    dim t = {i % b.x, (i / b.x) % b.y, i / (b.x * b.y)};
    return t;
}

/* A random valid block shape: 1D, 2D or 3D, often with a partial last warp. */
static dim random_block(wb_rng *g) {
    for (;;) {
        int kind = (int)wb_rng_range(g, 0, 2);
        dim b = {(int)wb_rng_range(g, 1, kind == 0 ? 1024 : 128), 1, 1};
        if (kind >= 1)
            b.y = (int)wb_rng_range(g, 1, 1024 / b.x);
        if (kind == 2)
            b.z = (int)wb_rng_range(g, 1, 64);
        if (ref_valid_block(b))
            return b;
    }
}

/* Calls f(ctx, b) for every valid block shape (25,670 of them). */
static int for_every_block(wb_ctx *ctx, void (*f)(wb_ctx *, dim)) {
    int n = 0;
    for (int z = 1; z <= 64; z++)
        for (int y = 1; y * z <= 1024; y++)
            for (int x = 1; x * y * z <= 1024; x++) {
                dim b = {x, y, z};
                f(ctx, b);
                n++;
            }
    return n;
}

/* ------------------------------------------------------- pure host code */

static void test_linear(wb_ctx *ctx) {
    __typeof__(&warp_partitioning_linear) linear;
    WB_BIND(ctx, linear, warp_partitioning_linear);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    long checked = 0;
    for (int c = 0; c < 3000; c++) {
        dim b = random_block(&g);
        for (int i = 0; i < ref_threads(b); i++) {
            dim t = ref_unlinear(i, b);
            int got = linear(t, b), want = ref_linear(t, b);
            if (got != want)
                wb_fail(ctx,
                        "thread (%d,%d,%d) of a %dx%dx%d block: returned %d, expected %d "
                        "(x fastest, then y, then z; %s)",
                        t.x, t.y, t.z, b.x, b.y, b.z, got, want, README_LINEAR);
            checked++;
        }
    }
    wb_measured(ctx, "%ld threads of 3000 random blocks right", checked);
}

static void test_warp_lane(wb_ctx *ctx) {
    __typeof__(&warp_partitioning_warp) warp;
    __typeof__(&warp_partitioning_lane) lane;
    WB_BIND(ctx, warp, warp_partitioning_warp);
    WB_BIND(ctx, lane, warp_partitioning_lane);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    long checked = 0;
    for (int c = 0; c < 3000; c++) {
        dim b = random_block(&g);
        for (int i = 0; i < ref_threads(b); i++) {
            dim t = ref_unlinear(i, b);
            int gw = warp(t, b), gl = lane(t, b);
            if (gw != i / W || gl != i % W)
                wb_fail(ctx,
                        "thread (%d,%d,%d) of a %dx%dx%d block (linear %d): warp %d lane %d, "
                        "expected warp %d lane %d (%s)",
                        t.x, t.y, t.z, b.x, b.y, b.z, i, gw, gl, i / W, i % W, README_WARPS);
            checked++;
        }
    }
    wb_measured(ctx, "%ld threads of 3000 random blocks right", checked);
}

static void check_warps_one(wb_ctx *ctx, dim b) {
    static __typeof__(&warp_partitioning_warps_per_block) warps;
    if (!warps)
        WB_BIND(ctx, warps, warp_partitioning_warps_per_block);
    int got = warps(b);
    if (got != ref_warps(b))
        wb_fail(ctx, "a %dx%dx%d block (threads: %d): returned %d warps, expected %d (%s)", b.x,
                b.y, b.z, ref_threads(b), got, ref_warps(b), README_PARTIAL);
}

static void test_warps_per_block(wb_ctx *ctx) {
    int n = for_every_block(ctx, check_warps_one);
    wb_measured(ctx, "all %d valid block shapes right", n);
}

static void check_idle_one(wb_ctx *ctx, dim b) {
    static __typeof__(&warp_partitioning_idle_lanes) idle;
    if (!idle)
        WB_BIND(ctx, idle, warp_partitioning_idle_lanes);
    int got = idle(b);
    if (got != ref_idle(b))
        wb_fail(ctx, "a %dx%dx%d block (threads: %d): returned %d idle lanes, expected %d (%s)",
                b.x, b.y, b.z, ref_threads(b), got, ref_idle(b), README_PARTIAL);
}

static void test_idle_lanes(wb_ctx *ctx) {
    int n = for_every_block(ctx, check_idle_one);
    wb_measured(ctx, "all %d valid block shapes right", n);
}

static void test_invalid(wb_ctx *ctx) {
    __typeof__(&warp_partitioning_linear) linear;
    __typeof__(&warp_partitioning_warp) warp;
    __typeof__(&warp_partitioning_lane) lane;
    __typeof__(&warp_partitioning_warps_per_block) warps;
    __typeof__(&warp_partitioning_idle_lanes) idle;
    WB_BIND(ctx, linear, warp_partitioning_linear);
    WB_BIND(ctx, warp, warp_partitioning_warp);
    WB_BIND(ctx, lane, warp_partitioning_lane);
    WB_BIND(ctx, warps, warp_partitioning_warps_per_block);
    WB_BIND(ctx, idle, warp_partitioning_idle_lanes);
    static const dim bad_blocks[] = {
        {0, 1, 1},  {1, 0, 1},   {1, 1, 0},  {-32, 1, 1},     {1025, 1, 1},          {1, 1025, 1},
        {1, 1, 65}, {33, 32, 1}, {8, 8, 17}, {1024, 1024, 1}, {1 << 20, 1 << 20, 64}};
    static const dim ok = {8, 8, 3};
    static const dim bad_threads[] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1},     {8, 0, 0},
                                      {0, 8, 0},  {0, 0, 3},  {100, 100, 100}};
    for (size_t i = 0; i < sizeof bad_blocks / sizeof bad_blocks[0]; i++) {
        dim b = bad_blocks[i], t0 = {0, 0, 0};
        int r[5] = {warps(b), idle(b), linear(t0, b), warp(t0, b), lane(t0, b)};
        static const char *fn[5] = {"warps_per_block", "idle_lanes", "linear", "warp", "lane"};
        for (int k = 0; k < 5; k++)
            if (r[k] != -1)
                wb_fail(ctx,
                        "warp_partitioning_%s for the invalid block %dx%dx%d returned %d, "
                        "expected -1 (README.md, \"Block shapes\")",
                        fn[k], b.x, b.y, b.z, r[k]);
    }
    for (size_t i = 0; i < sizeof bad_threads / sizeof bad_threads[0]; i++) {
        dim t = bad_threads[i];
        int r[3] = {linear(t, ok), warp(t, ok), lane(t, ok)};
        static const char *fn[3] = {"linear", "warp", "lane"};
        for (int k = 0; k < 3; k++)
            if (r[k] != -1)
                wb_fail(ctx,
                        "warp_partitioning_%s for thread (%d,%d,%d), outside the 8x8x3 block, "
                        "returned %d, expected -1 (README.md, \"Block shapes\")",
                        fn[k], t.x, t.y, t.z, r[k]);
    }
    wb_measured(ctx, "%d invalid shapes and %d invalid indices refused",
                (int)(sizeof bad_blocks / sizeof bad_blocks[0]),
                (int)(sizeof bad_threads / sizeof bad_threads[0]));
}

/* Warps and wasted lanes of 1D blocks of 1 .. 1024 threads, from the
 * student's functions; a sample goes to the measurements CSV. */
static void test_waste_table(wb_ctx *ctx) {
    __typeof__(&warp_partitioning_warps_per_block) warps;
    __typeof__(&warp_partitioning_idle_lanes) idle;
    WB_BIND(ctx, warps, warp_partitioning_warps_per_block);
    WB_BIND(ctx, idle, warp_partitioning_idle_lanes);
    static const int sample[] = {1,   16,  31,  32,  33,  48,  64,  80,   96,  100,
                                 128, 192, 200, 250, 256, 500, 513, 1000, 1024};
    double sum = 0;
    for (int n = 1; n <= 1024; n++) {
        dim b = {n, 1, 1};
        int w = warps(b), i = idle(b);
        if (w != ref_warps(b) || i != ref_idle(b))
            wb_fail(ctx, "block of %d threads: %d warps, %d idle lanes; expected %d and %d (%s)", n,
                    w, i, ref_warps(b), ref_idle(b), README_PARTIAL);
        sum += 100.0 * i / (w * W);
    }
    for (size_t k = 0; k < sizeof sample / sizeof sample[0]; k++) {
        dim b = {sample[k], 1, 1};
        char metric[48];
        snprintf(metric, sizeof metric, "idle_lanes_pct_%d_threads", sample[k]);
        wb_record(ctx, metric, 100.0 * idle(b) / (warps(b) * W), "%",
                  100.0 * ref_idle(b) / (ref_warps(b) * W), "ref");
    }
    wb_record(ctx, "idle_lanes_pct_mean_1_to_1024", sum / 1024, "%", sum / 1024, "ref");
    wb_measured(ctx, "1..1024 threads: mean %.1f%% of lanes idle, worst 96.9%% at 1 thread",
                sum / 1024);
}

/* ------------------------------------------------------------ on the GPU */

typedef warp_partitioning_thread rec;

/* Records of guard space after d_out, in the same allocation: poisoned with
 * 0xFF like d_out and checked unchanged after every call. A block's worth,
 * so that any index up to twice the thread count lands in it. */
#define REC_GUARD 1024

/* Runs the student's recording kernel on block b into a poisoned buffer and
 * returns the records in host memory (the caller frees them). */
static rec *run_record(wb_ctx *ctx, dim b) {
    __typeof__(&warp_partitioning_record) record;
    WB_BIND(ctx, record, warp_partitioning_record);
    size_t n = (size_t)ref_threads(b), bytes = (n + REC_GUARD) * sizeof(rec);
    rec *d = NULL, *h = (rec *)malloc(bytes);
    if (!h)
        wb_fail(ctx, "out of host memory");
    WB_CUDA(ctx, cudaMalloc((void **)&d, bytes));
    WB_CUDA(ctx, cudaMemset(d, 0xFF, bytes));
    int e = record(b.x, b.y, b.z, d);
    if (e != cudaSuccess)
        wb_fail(ctx, "warp_partitioning_record(%d, %d, %d) returned %s, expected cudaSuccess", b.x,
                b.y, b.z, cudaGetErrorName((cudaError_t)e));
    wb_wait(ctx, NULL, "the recording kernel (%dx%dx%d block)", b.x, b.y, b.z);
    WB_CUDA(ctx, cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost));
    const unsigned char *p = (const unsigned char *)(h + n);
    for (size_t k = 0; k < REC_GUARD * sizeof(rec); k++)
        if (p[k] != 0xFF)
            wb_fail(ctx,
                    "%dx%dx%d block: the kernel wrote past the %zu records of d_out: record %zu, "
                    "in the %d poisoned (0xFF) records after them, changed; expected every "
                    "thread to write d_out[its linear position] and nothing else (%s)",
                    b.x, b.y, b.z, n, n + k / sizeof(rec), REC_GUARD, README_GPU);
    WB_CUDA(ctx, cudaFree(d));
    return h;
}

/* Every slot i holds the record of the thread at linear position i, with
 * that thread's warp and lane: each thread written exactly once. */
static void check_records(wb_ctx *ctx, dim b, const rec *h) {
    for (int i = 0; i < ref_threads(b); i++) {
        dim t = ref_unlinear(i, b);
        const rec *r = &h[i];
        if (r->tx == -1 && r->ty == -1 && r->linear == -1)
            wb_fail(ctx,
                    "%dx%dx%d block: record %d was never written (still 0xFF); thread "
                    "(%d,%d,%d) belongs there (%s)",
                    b.x, b.y, b.z, i, t.x, t.y, t.z, README_GPU);
        if (r->tx != t.x || r->ty != t.y || r->tz != t.z)
            wb_fail(ctx,
                    "%dx%dx%d block: record %d holds thread (%d,%d,%d), expected (%d,%d,%d); "
                    "each thread writes d_out[its linear position] (%s)",
                    b.x, b.y, b.z, i, r->tx, r->ty, r->tz, t.x, t.y, t.z, README_LINEAR);
        if (r->linear != i || r->warp != i / W || r->lane != i % W)
            wb_fail(ctx,
                    "%dx%dx%d block, thread (%d,%d,%d): linear %d warp %d lane %d, "
                    "expected %d, %d, %d (%s)",
                    b.x, b.y, b.z, t.x, t.y, t.z, r->linear, r->warp, r->lane, i, i / W, i % W,
                    README_GPU);
    }
}

static const dim named_shapes[] = {{40, 1, 1}, {40, 2, 1}, {8, 8, 3},    {16, 16, 1}, {1024, 1, 1},
                                   {33, 1, 1}, {1, 1, 1},  {31, 1, 1},   {32, 1, 1},  {4, 8, 2},
                                   {1, 1, 64}, {3, 5, 7},  {1, 1024, 1}, {2, 2, 64},  {17, 3, 5}};
#define N_NAMED ((int)(sizeof named_shapes / sizeof named_shapes[0]))

static void test_record_shapes(wb_ctx *ctx) {
    long n = 0;
    for (int s = 0; s < N_NAMED; s++) {
        rec *h = run_record(ctx, named_shapes[s]);
        check_records(ctx, named_shapes[s], h);
        n += ref_threads(named_shapes[s]);
        free(h);
    }
    wb_measured(ctx, "%d shapes, %ld records, each thread recorded exactly once", N_NAMED, n);
}

/* The lanes __activemask() saw in each warp: exactly its real threads,
 * lanes 0 .. n-1, so the padding of a partial warp never runs. */
static void test_record_activemask(wb_ctx *ctx) {
    int partial = 0;
    for (int s = 0; s < N_NAMED; s++) {
        dim b = named_shapes[s];
        rec *h = run_record(ctx, b);
        check_records(ctx, b, h);
        int threads = ref_threads(b);
        for (int w = 0; w < ref_warps(b); w++) {
            int real = threads - w * W < W ? threads - w * W : W;
            unsigned want = real == W ? 0xFFFFFFFFu : (1u << real) - 1u;
            partial += real < W;
            for (int i = w * W; i < w * W + real; i++)
                if (h[i].active_mask != want || __builtin_popcount(h[i].active_mask) != real)
                    wb_fail(ctx,
                            "%dx%dx%d block, warp %d (%d real threads): lane %d recorded "
                            "active mask 0x%08x, expected 0x%08x; read __activemask() first, "
                            "before any branch (%s)",
                            b.x, b.y, b.z, w, real, i % W, h[i].active_mask, want, README_GPU);
        }
        free(h);
    }
    wb_measured(ctx, "every warp's active mask matches its real threads (%d partial warps)",
                partial);
}

static void test_record_random(wb_ctx *ctx) {
    __typeof__(&warp_partitioning_record) record;
    WB_BIND(ctx, record, warp_partitioning_record);
    /* Invalid shapes are refused before any launch, and nothing is written. */
    static const int bad[][3] = {{0, 1, 1}, {1025, 1, 1}, {33, 32, 1}, {1, 1, 65}, {-1, 4, 4}};
    rec *d = NULL, *probe = (rec *)malloc(1024 * sizeof(rec));
    if (!probe)
        wb_fail(ctx, "out of host memory");
    WB_CUDA(ctx, cudaMalloc((void **)&d, 1024 * sizeof(rec)));
    WB_CUDA(ctx, cudaMemset(d, 0xFF, 1024 * sizeof(rec)));
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        int e = record(bad[k][0], bad[k][1], bad[k][2], d);
        if (e != cudaErrorInvalidValue)
            wb_fail(ctx,
                    "warp_partitioning_record(%d, %d, %d) returned %s, expected "
                    "cudaErrorInvalidValue for an invalid shape (warp_partitioning.h)",
                    bad[k][0], bad[k][1], bad[k][2], cudaGetErrorName((cudaError_t)e));
    }
    if (record(32, 1, 1, NULL) != cudaErrorInvalidValue)
        wb_fail(ctx, "warp_partitioning_record(32, 1, 1, NULL) must return cudaErrorInvalidValue");
    WB_CUDA(ctx, cudaDeviceSynchronize());
    WB_CUDA(ctx, cudaMemcpy(probe, d, 1024 * sizeof(rec), cudaMemcpyDeviceToHost));
    const unsigned char *p = (const unsigned char *)probe;
    for (size_t k = 0; k < 1024 * sizeof(rec); k++)
        if (p[k] != 0xFF)
            wb_fail(ctx,
                    "an invalid shape still wrote records: record %zu of d_out changed, expected "
                    "nothing written without a launch (warp_partitioning.h)",
                    k / sizeof(rec));
    free(probe);
    WB_CUDA(ctx, cudaFree(d));

    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    long n = 0;
    for (int c = 0; c < 40; c++) {
        dim b = random_block(&g);
        rec *h = run_record(ctx, b);
        check_records(ctx, b, h);
        n += ref_threads(b);
        free(h);
    }
    wb_measured(ctx, "40 random shapes, %ld records right; invalid shapes refused", n);
}

/* Your formulas against the hardware: every thread's lane is the lane the
 * hardware ran it in (%laneid), and the threads the hardware grouped into
 * one warp all got one warp number from your formula. `where` ends every
 * failure (where the picture of the plotted block is). */
static void check_hardware(wb_ctx *ctx, dim b, const rec *h, const char *where) {
    for (int i = 0; i < ref_threads(b); i++) {
        const rec *r = &h[i];
        if (r->tx == -1 && r->ty == -1 && r->linear == -1)
            wb_fail(ctx, "%dx%dx%d block: record %d was never written (still 0xFF) (%s)%s", b.x,
                    b.y, b.z, i, README_GPU, where);
        if (r->hw_lane != r->lane)
            wb_fail(ctx,
                    "%dx%dx%d block, thread (%d,%d,%d): the hardware ran it in lane %d "
                    "(%%laneid), your formula says lane %d (%s)%s",
                    b.x, b.y, b.z, r->tx, r->ty, r->tz, r->hw_lane, r->lane, README_GPU, where);
        if (r->warp_mates != r->active_mask)
            wb_fail(ctx,
                    "%dx%dx%d block, thread (%d,%d,%d): the hardware warp holds lanes 0x%08x, "
                    "but only lanes 0x%08x got your warp number %d: your formula splits a "
                    "hardware warp (%s)%s",
                    b.x, b.y, b.z, r->tx, r->ty, r->tz, r->active_mask, r->warp_mates, r->warp,
                    README_GPU, where);
    }
}

/* The block whose records `make plots` draws (slides/plots/02-warp-map.gp):
 * rows of 10 threads, so that warps wrap from row to row and from one z
 * slice to the next, and 180 threads, so that the last of its 6 warps is
 * partial (20 threads, 12 idle lanes). No question of answers.txt is about
 * this shape. */
static const dim map_shape = {10, 6, 3};

/* Writes the records of block b as CSV for `make plots`, one row per slot
 * of d_out in linear order: the block's shape (bx,by,bz), the thread that
 * belongs in the slot (x,y,z), the warp number your formula gave it, the
 * lane the hardware ran it in (%laneid), your lane, and agrees: 1 when the
 * slot holds its own thread, your lane is the hardware's and your warp
 * number is the same on every lane of its hardware warp, else 0. A slot
 * never written has -1 for warp and lanes. Not graded: a file that cannot
 * be written costs no points. */
static void write_map_csv(const char *path, dim b, const rec *h) {
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "bx,by,bz,x,y,z,warp,lane,your_lane,agrees\n");
    for (int i = 0; i < ref_threads(b); i++) {
        dim t = ref_unlinear(i, b);
        const rec *r = &h[i];
        int written = !(r->tx == -1 && r->ty == -1 && r->linear == -1);
        int agrees = written && r->tx == t.x && r->ty == t.y && r->tz == t.z &&
                     r->hw_lane == r->lane && r->warp_mates == r->active_mask;
        fprintf(f, "%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n", b.x, b.y, b.z, t.x, t.y, t.z,
                written ? r->warp : -1, written ? r->hw_lane : -1, written ? r->lane : -1, agrees);
    }
    fclose(f);
}

static void test_record_hardware(wb_ctx *ctx) {
    /* The plotted block first, written before it is judged, so that a
     * wrong formula gets its picture too. */
    char csv[4200], where[4400];
    snprintf(csv, sizeof csv, "%s/warp_map.csv", wb_out_dir(ctx));
    snprintf(where, sizeof where,
             "; the %dx%dx%d block's records: %s (make plots draws build/plots/02-warp-map.svg)",
             map_shape.x, map_shape.y, map_shape.z, csv);
    rec *h = run_record(ctx, map_shape);
    write_map_csv(csv, map_shape, h);
    check_hardware(ctx, map_shape, h, where);
    free(h);
    long n = ref_threads(map_shape);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    for (int c = 0; c < N_NAMED + 40; c++) {
        dim b = c < N_NAMED ? named_shapes[c] : random_block(&g);
        h = run_record(ctx, b);
        check_hardware(ctx, b, h, where);
        n += ref_threads(b);
        free(h);
    }
    wb_measured(ctx,
                "%d shapes, %ld threads: lanes equal %%laneid, warps as the hardware made them; "
                "the %dx%dx%d block's records in %s (make plots draws "
                "build/plots/02-warp-map.svg)",
                N_NAMED + 41, n, map_shape.x, map_shape.y, map_shape.z, csv);
}

/* ------------------------------------------------- the performance task */

int wp_baseline_shade(const float *d_in, float *d_out, int width, int height, void *stream);

#define PERF_W 1000
#define PERF_H 8192
#define README_SHAPE "README.md, \"Choosing a block shape\""

typedef struct shade_args {
    __typeof__(&warp_partitioning_shade) student;
    const float *in;
    float *out;
    int w, h;
} shade_args;

static int run_student_shade(void *p, void *stream) {
    shade_args *a = (shade_args *)p;
    return a->student(a->in, a->out, a->w, a->h, (cudaStream_t)stream);
}

static int run_baseline_shade(void *p, void *stream) {
    shade_args *a = (shade_args *)p;
    return wp_baseline_shade(a->in, a->out, a->w, a->h, stream);
}

/* Floats of guard space after every image the code under test writes, in
 * the same allocation: poisoned (0xFF bytes, a NaN that no shading gives)
 * and checked unchanged after every call. A kernel that checks x but not y
 * writes up to blockDim.y - 1 rows past the image, one that checks y but
 * not x up to blockDim.x - 1 floats past its last row; 1024 rows and 1024
 * floats hold either for any legal block. */
static size_t shade_guard(int w) {
    return (size_t)1024 * w + 1024;
}

/* Random input of w x h pixels on the device; the host copy in *h_in. */
static float *random_image(wb_ctx *ctx, wb_rng *g, int w, int h, float **h_in) {
    size_t n = (size_t)w * h;
    float *d = NULL;
    *h_in = (float *)malloc(n * sizeof(float));
    if (!*h_in)
        wb_fail(ctx, "out of host memory");
    wb_rng_fill_float(g, *h_in, n, -1.0f, 1.0f);
    WB_CUDA(ctx, cudaMalloc((void **)&d, n * sizeof(float)));
    WB_CUDA(ctx, cudaMemcpy(d, *h_in, n * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

/* The guard after a w x h image (h_out holds both) untouched. */
static void check_shade_guard(wb_ctx *ctx, const float *h_out, int w, int h) {
    const unsigned *guard = (const unsigned *)(h_out + (size_t)w * h);
    for (size_t k = 0; k < shade_guard(w); k++)
        if (guard[k] != 0xFFFFFFFFu)
            wb_fail(ctx,
                    "%dx%d image: wrote past the end of d_out: float %zu past the last pixel "
                    "(where row %zu, column %zu would be), the first of the %zu poisoned floats "
                    "after the image that changed; expected nothing written there: a thread "
                    "whose (x, y) lies outside the image must write nothing, so check both x < "
                    "width and y < height (%s)",
                    w, h, k, (size_t)h + k / (size_t)w, k % (size_t)w, shade_guard(w),
                    README_SHAPE);
}

/* Checks out against the CPU reference at every pixel, or at `stride` steps.
 * Host and device run the same fmaf chains, so a right pixel is equal or
 * within rounding of the sum; 1e-6 relative is far below the nearest wrong
 * answer (255 or 257 iterations of the chains move the result by about
 * 1e-4), and the poison, NaN, compares false. */
static void check_shade(wb_ctx *ctx, const float *h_in, const float *h_out, int w, int h,
                        size_t stride) {
    for (size_t i = 0; i < (size_t)w * h; i += stride) {
        float want = warp_partitioning_shade_value(h_in[i]), got = h_out[i];
        if (!(fabsf(got - want) <= 1e-6f * fabsf(want) + 1e-12f))
            wb_fail(ctx, "%dx%d image, pixel (%zu,%zu): got %.9g, expected %.9g%s (%s)", w, h,
                    i % (size_t)w, i / (size_t)w, got, want,
                    isnan(got) ? " (never written: still poisoned)" : "", README_SHAPE);
    }
}

static void test_shade(wb_ctx *ctx) {
    __typeof__(&warp_partitioning_shade) shade;
    WB_BIND(ctx, shade, warp_partitioning_shade);
    static const int sizes[][2] = {{1, 1}, {33, 5}, {1000, 37}, {1024, 64}, {31, 257}, {4099, 3}};
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        size_t bytes = (size_t)w * h * sizeof(float), all = bytes + shade_guard(w) * sizeof(float);
        float *h_in, *h_out = (float *)malloc(all), *h_after = (float *)malloc(bytes), *d_out;
        if (!h_out || !h_after)
            wb_fail(ctx, "out of host memory");
        float *d_in = random_image(ctx, &g, w, h, &h_in);
        WB_CUDA(ctx, cudaMalloc((void **)&d_out, all));
        WB_CUDA(ctx, cudaMemset(d_out, 0xFF, all));
        int e = shade(d_in, d_out, w, h, 0);
        if (e != cudaSuccess)
            wb_fail(ctx, "warp_partitioning_shade(%dx%d) returned %s, expected cudaSuccess", w, h,
                    cudaGetErrorName((cudaError_t)e));
        wb_wait(ctx, NULL, "the shading kernel (%dx%d image)", w, h);
        WB_CUDA(ctx, cudaMemcpy(h_out, d_out, all, cudaMemcpyDeviceToHost));
        WB_CUDA(ctx, cudaMemcpy(h_after, d_in, bytes, cudaMemcpyDeviceToHost));
        if (memcmp(h_after, h_in, bytes) != 0)
            wb_fail(ctx, "%dx%d image: d_in was changed; it is input only (warp_partitioning.h)", w,
                    h);
        check_shade(ctx, h_in, h_out, w, h, 1);
        check_shade_guard(ctx, h_out, w, h);
        cudaFree(d_in);
        cudaFree(d_out);
        free(h_in);
        free(h_out);
        free(h_after);
    }
    if (shade(NULL, NULL, 8, 8, 0) != cudaErrorInvalidValue)
        wb_fail(ctx, "warp_partitioning_shade(NULL, ...) must return cudaErrorInvalidValue");
    wb_measured(ctx, "6 image sizes, every pixel right, input unchanged");
}

/* The timed problem: a PERF_W x PERF_H random image; the baseline and the
 * student's launch read and write the same buffers. */
typedef struct shade_state {
    shade_args a;
    float *h_in, *h_out;
} shade_state;

static shade_state shade_perf;

/* The image and its guard (shade_guard), in floats. */
static size_t shade_perf_floats(const shade_state *st) {
    return (size_t)st->a.w * st->a.h + shade_guard(st->a.w);
}

static void shade_poison(wb_ctx *ctx, void *arg) {
    shade_state *st = (shade_state *)arg;
    WB_CUDA(ctx, cudaMemset(st->a.out, 0xFF, shade_perf_floats(st) * sizeof(float)));
}

static void shade_open(wb_ctx *ctx, wb_perf_run *run) {
    shade_state *st = &shade_perf;
    WB_BIND(ctx, st->a.student, warp_partitioning_shade);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    st->a.in = random_image(ctx, &g, PERF_W, PERF_H, &st->h_in);
    st->a.w = PERF_W;
    st->a.h = PERF_H;
    size_t bytes = shade_perf_floats(st) * sizeof(float);
    st->h_out = (float *)malloc(bytes);
    if (!st->h_out)
        wb_fail(ctx, "out of host memory");
    WB_CUDA(ctx, cudaMalloc((void **)&st->a.out, bytes));
    shade_poison(ctx, st);
    run->baseline = run_baseline_shade;
    run->candidate = run_student_shade;
    run->arg = st; /* the two runs read its first member, the shade_args */
    /* No launch can beat the GPU's peak FP32 rate: a faster time means the
     * work was not done in the timed launch (a cached result, another
     * stream, work skipped for this size). */
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    double flops = 2.0 * 4 * WARP_PARTITIONING_SHADE_ITERS * (double)PERF_W * PERF_H;
    run->floor_ms = gpu->peak_fp32_gflops > 0 ? flops / (gpu->peak_fp32_gflops * 1e9) * 1e3 : 0;
    run->floor_why = "the GPU's peak FP32 rate allows for this work";
    run->floor_advice = "every pixel must be computed by the launch on the stream given";
}

static void shade_check(wb_ctx *ctx, void *arg) {
    shade_state *st = (shade_state *)arg;
    size_t bytes = shade_perf_floats(st) * sizeof(float);
    WB_CUDA(ctx, cudaMemcpy(st->h_out, st->a.out, bytes, cudaMemcpyDeviceToHost));
    check_shade(ctx, st->h_in, st->h_out, st->a.w, st->a.h, 97);
    check_shade_guard(ctx, st->h_out, st->a.w, st->a.h);
}

static void shade_close(void *arg) {
    shade_state *st = (shade_state *)arg;
    cudaFree((void *)st->a.in);
    cudaFree(st->a.out);
    free(st->h_in);
    free(st->h_out);
}

static const wb_perf perf_shade = {
    .metric = "shade",
    .limit = 1.45,
    .baseline = "33x1 blocks",
    .size = "1000 x 8192",
    .derivation = "warps are 32 lanes and take one issue slot per instruction on every "
                  "capability, and the shading is bound by that issue on any GPU (1 byte of DRAM "
                  "per SM per clock at most, under half of the least-fed part's), so a 1,000-pixel "
                  "row costs 62 warps in 33x1 blocks against 32 in a width that is a multiple of "
                  "32: up to 1.94x whatever the SM count or clock, 1.88-1.90x measured, while the "
                  "stub, which keeps 33x1, gets 1.0x",
    .figures = "reference 1.88-1.90x on H100 (10 runs; 0.299 vs 0.566 ms) and 1.89-1.90x on "
               "H200 (4 runs); stub 1.00x on both (2026-11-22, CUDA 13.0)",
    .advice = "too many idle lanes: a 33-wide block pays two warps for 33 pixels; pick a block "
              "whose width is a multiple of 32",
    .open = shade_open,
    .poison = shade_poison,
    .check = shade_check,
    .close = shade_close,
};

/* ------------------------------------------------------------- questions */

/* Answers that are a thread index "x y" or "x y z": every integer of the
 * answer, in order, whatever separates them, as "t<x> <y> [<z>]", within 64
 * characters as when the stored hashes were made. Refuses nothing: an answer
 * of another form hashes to a wrong one. */
static const char *canon_tuple(const char *answer, char *buf, size_t cap) {
    size_t lim = cap < 64 ? cap : 64, k = 1;
    snprintf(buf, lim, "t");
    for (const char *p = answer; *p && k + 12 < lim;) {
        if (*p >= '0' && *p <= '9') {
            long n = strtol(p, (char **)&p, 10);
            k += (size_t)snprintf(buf + k, lim - k, "%s%ld", k > 1 ? " " : "", n);
        } else {
            p++;
        }
    }
    return buf;
}

#define Q36 "the 36x3x1 block of README \"Questions\""
/* The tuple questions' failure message says how the answer is written. */
#define AS_TUPLE ", written as x y or x y z"

/* ----------------------------------------------------------- the table */

static const wb_test tests[] = {
    WB_HOST("correct.linear", 8, test_linear, .timeout_s = 60, .hint = README_LINEAR),
    WB_HOST("correct.warp_lane", 8, test_warp_lane, .timeout_s = 60,
            .hint = "the lane comes from the linear position, not from threadIdx.x alone "
                    "(" README_WARPS ")"),
    WB_HOST("correct.warps_per_block", 6, test_warps_per_block, .timeout_s = 60,
            .hint = "round up: a partial warp is still a whole warp (" README_PARTIAL ")"),
    WB_HOST("correct.idle_lanes", 6, test_idle_lanes, .timeout_s = 60, .hint = README_PARTIAL),
    WB_HOST("correct.invalid", 2, test_invalid, .timeout_s = 60,
            .hint = "README.md, \"Block shapes\""),
    WB_HOST("measure.waste_table", 2, test_waste_table, .timeout_s = 60,
            .requires = "correct.warps_per_block correct.idle_lanes", .hint = README_PARTIAL,
            .limit = {.text = "1D blocks of 1 to 1024 threads: warps and idle lanes exact",
                      .derivation = "host arithmetic with one answer per block size, the same for "
                                    "every GPU (warps are 32 lanes on all of them): the "
                                    "reference's counts equal the grader's, and a count that does "
                                    "not round a partial warp up differs",
                      .figures = "reference: all exact, mean idle share 6.1 % (2026-11-22, host "
                                 "code, no GPU needed)"}),
    /* The host tests' bodies again, the library built for AddressSanitizer: a write one past
     * an array the host functions allocate (the allocator's slack) or declare (the frame's
     * padding) changes no count the tests above check. Without a GPU, like them. */
    WB_ASAN_OF("sanitizer.host", 2,
               "correct.linear correct.warp_lane correct.warps_per_block correct.idle_lanes "
               "correct.invalid measure.waste_table"),
    WB_GPU("correct.record_shapes", 10, test_record_shapes, .timeout_s = 60, .hint = README_GPU),
    WB_GPU("correct.record_activemask", 6, test_record_activemask, .timeout_s = 60,
           .hint = "read __activemask() before any branch, and record it unchanged (" README_GPU
                   ")"),
    WB_GPU("correct.record_random", 5, test_record_random, .timeout_s = 60, .hint = README_GPU),
    WB_GPU("correct.record_hardware", 6, test_record_hardware, .timeout_s = 60,
           .hint = README_GPU),
    WB_SANITIZER_OF("sanitizer.record", 3, "memcheck", "correct.record_shapes"),
    WB_GPU("correct.shade", 6, test_shade, .timeout_s = 60, .hint = README_SHAPE),
    WB_PERF("perf.shade", 15, perf_shade, .timeout_s = 120, .requires = "correct.shade",
            .hint = README_SHAPE),
    WB_QUESTION_HASH("warps_36x3", 1, 0xb12896760d9c5db1ULL, "warps in " Q36),
    WB_QUESTION_HASH("idle_lanes_36x3", 1, 0xa591e8958153c1b6ULL, "idle lanes in " Q36),
    WB_QUESTION_HASH("hw_threads_36x3", 1, 0xeadd314268f2152eULL,
                     "hardware threads (lanes) the warps of " Q36 " occupy"),
    WB_QUESTION_HASH("warps_8x8x3", 1, 0x8c982bdd1a3ac460ULL, "warps in an 8x8x3 block"),
    WB_QUESTION_HASH("warp_of_3_2_1", 1, 0x145782d798864e6cULL,
                     "the warp of thread (3,2,1) in an 8x8x3 block"),
    WB_QUESTION_HASH("lane_of_3_2_1", 1, 0x98e94c25cc8389b8ULL,
                     "the lane of thread (3,2,1) in an 8x8x3 block"),
    WB_QUESTION_HASH("warp0_last_12x6", 1, 0x860b1f1b08018655ULL,
                     "threadIdx of the last thread of warp 0 in a 12x6 block" AS_TUPLE,
                     .canon = canon_tuple),
    WB_QUESTION_HASH("warp1_first_12x6", 1, 0x666fd75cc057e4c1ULL,
                     "threadIdx of the first thread of warp 1 in a 12x6 block" AS_TUPLE,
                     .canon = canon_tuple),
    WB_QUESTION_HASH("warp0_last_4x4x4", 1, 0x23f79ec59daff188ULL,
                     "threadIdx of the last thread of warp 0 in a 4x4x4 block" AS_TUPLE,
                     .canon = canon_tuple),
    WB_QUESTION_HASH("warp1_first_4x4x4", 1, 0x164aef29eff44632ULL,
                     "threadIdx of the first thread of warp 1 in a 4x4x4 block" AS_TUPLE,
                     .canon = canon_tuple),
    WB_QUESTION_HASH("idle_lanes_150", 1, 0x1e6bbbe0118fd96fULL,
                     "idle lanes of a block of 150 threads"),
    WB_QUESTION_HASH("most_waste", 1, 0x4ff6dbba681db176ULL,
                     "the letter of the shape with the largest share of idle lanes"),
    WB_QUESTION_HASH("lanes_1000_blocks_of_33", 1, 0x0907d53405253d7aULL,
                     "lanes occupied by 1000 blocks of 33 threads, idle ones included"),
    WB_QUESTION_HASH("claim_24x4", 1, 0x33599c0aca796a17ULL,
                     "the letter that judges the claim about 24x4 and 96x1 blocks"),
    WB_QUESTION_HASH("a100_fp32_cycles_per_warp", 1, 0x6bcb75be40d6dba4ULL,
                     "cycles the 16 FP32 cores of one A100 processing block take for one FP32 "
                     "instruction of a full warp; see " README_PBLOCKS),
    WB_QUESTION_HASH("a100_warps_per_scheduler", 1, 0x30f7925503654f38ULL,
                     "warps each of the four schedulers of an A100 SM holds when the SM holds two "
                     "blocks of 768 threads; see " README_PBLOCKS),
    WB_QUESTION_HASH("issue_slots_36x3", 1, 0x3878e525e67b4c27ULL,
                     "warp instructions the SM's four schedulers issue in all for a 36x3x1 block "
                     "whose every thread runs the same 100 instructions; see " README_PBLOCKS),
};

WB_LAB_MAIN(tests)
