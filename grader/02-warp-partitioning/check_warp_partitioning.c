/* check_warp_partitioning.c - the grader of lab 02: linear order, warps, lanes, padding, questions
 */
/* SPDX-License-Identifier: MIT */
#include "wb_grader.h"
#include "wb_rng.h"
#include "wb_timing.h"
#include "wb_answers.h"

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
#define Q36 "the 36x3x1 block of README \"Questions\""

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

/* Runs the student's recording kernel on block b into a poisoned buffer and
 * returns the records in host memory (the caller frees them). */
static rec *run_record(wb_ctx *ctx, dim b) {
    __typeof__(&warp_partitioning_record) record;
    WB_BIND(ctx, record, warp_partitioning_record);
    size_t n = (size_t)ref_threads(b), bytes = n * sizeof(rec);
    rec *d = NULL, *h = (rec *)malloc(bytes);
    if (!h)
        wb_fail(ctx, "out of host memory");
    /* One record of slack past the end, so an overrun shows as a CUDA error
     * under compute-sanitizer rather than as silent corruption of the grader. */
    wb_cuda(ctx, cudaMalloc((void **)&d, bytes + sizeof(rec)), "cudaMalloc");
    wb_cuda(ctx, cudaMemset(d, 0xFF, bytes + sizeof(rec)), "cudaMemset (poison)");
    int e = record(b.x, b.y, b.z, d);
    if (e != cudaSuccess)
        wb_fail(ctx, "warp_partitioning_record(%d, %d, %d) returned %s, expected cudaSuccess", b.x,
                b.y, b.z, cudaGetErrorName((cudaError_t)e));
    wb_cuda(ctx, cudaDeviceSynchronize(), "the recording kernel");
    wb_cuda(ctx, cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    rec tail;
    wb_cuda(ctx, cudaMemcpy(&tail, d + n, sizeof tail, cudaMemcpyDeviceToHost), "cudaMemcpy");
    unsigned char *p = (unsigned char *)&tail;
    for (size_t k = 0; k < sizeof tail; k++)
        if (p[k] != 0xFF)
            wb_fail(ctx, "%dx%dx%d block: the kernel wrote past the %zu records of d_out (%s)", b.x,
                    b.y, b.z, n, README_GPU);
    wb_cuda(ctx, cudaFree(d), "cudaFree");
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
    rec *d = NULL, probe;
    wb_cuda(ctx, cudaMalloc((void **)&d, 1024 * sizeof(rec)), "cudaMalloc");
    wb_cuda(ctx, cudaMemset(d, 0xFF, 1024 * sizeof(rec)), "cudaMemset (poison)");
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
    wb_cuda(ctx, cudaMemcpy(&probe, d, sizeof probe, cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (probe.tx != -1)
        wb_fail(ctx, "an invalid shape still wrote records (warp_partitioning.h)");
    wb_cuda(ctx, cudaFree(d), "cudaFree");

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
 * one warp all got one warp number from your formula. */
static void check_hardware(wb_ctx *ctx, dim b, const rec *h) {
    for (int i = 0; i < ref_threads(b); i++) {
        const rec *r = &h[i];
        if (r->tx == -1 && r->ty == -1 && r->linear == -1)
            wb_fail(ctx, "%dx%dx%d block: record %d was never written (still 0xFF) (%s)", b.x, b.y,
                    b.z, i, README_GPU);
        if (r->hw_lane != r->lane)
            wb_fail(ctx,
                    "%dx%dx%d block, thread (%d,%d,%d): the hardware ran it in lane %d "
                    "(%%laneid), your formula says lane %d (%s)",
                    b.x, b.y, b.z, r->tx, r->ty, r->tz, r->hw_lane, r->lane, README_GPU);
        if (r->warp_mates != r->active_mask)
            wb_fail(ctx,
                    "%dx%dx%d block, thread (%d,%d,%d): the hardware warp holds lanes 0x%08x, "
                    "but only lanes 0x%08x got your warp number %d: your formula splits a "
                    "hardware warp (%s)",
                    b.x, b.y, b.z, r->tx, r->ty, r->tz, r->active_mask, r->warp_mates, r->warp,
                    README_GPU);
    }
}

static void test_record_hardware(wb_ctx *ctx) {
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    long n = 0;
    for (int c = 0; c < N_NAMED + 40; c++) {
        dim b = c < N_NAMED ? named_shapes[c] : random_block(&g);
        rec *h = run_record(ctx, b);
        check_hardware(ctx, b, h);
        n += ref_threads(b);
        free(h);
    }
    wb_measured(ctx,
                "%d shapes, %ld threads: lanes equal %%laneid, warps as the hardware made them",
                N_NAMED + 40, n);
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

/* Random input of w x h pixels on the device; the host copy in *h_in. */
static float *random_image(wb_ctx *ctx, wb_rng *g, int w, int h, float **h_in) {
    size_t n = (size_t)w * h;
    float *d = NULL;
    *h_in = (float *)malloc(n * sizeof(float));
    if (!*h_in)
        wb_fail(ctx, "out of host memory");
    wb_rng_fill_float(g, *h_in, n, -1.0f, 1.0f);
    wb_cuda(ctx, cudaMalloc((void **)&d, n * sizeof(float)), "cudaMalloc");
    wb_cuda(ctx, cudaMemcpy(d, *h_in, n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
    return d;
}

/* Checks out against the CPU reference at every pixel, or at `stride` steps. */
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
        size_t bytes = (size_t)w * h * sizeof(float);
        float *h_in, *h_out = (float *)malloc(bytes), *h_after = (float *)malloc(bytes), *d_out;
        float *d_in = random_image(ctx, &g, w, h, &h_in);
        wb_cuda(ctx, cudaMalloc((void **)&d_out, bytes), "cudaMalloc");
        wb_cuda(ctx, cudaMemset(d_out, 0xFF, bytes), "cudaMemset (poison: NaN)");
        int e = shade(d_in, d_out, w, h, 0);
        if (e != cudaSuccess)
            wb_fail(ctx, "warp_partitioning_shade(%dx%d) returned %s, expected cudaSuccess", w, h,
                    cudaGetErrorName((cudaError_t)e));
        wb_cuda(ctx, cudaDeviceSynchronize(), "the shading kernel");
        wb_cuda(ctx, cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
        wb_cuda(ctx, cudaMemcpy(h_after, d_in, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
        if (memcmp(h_after, h_in, bytes) != 0)
            wb_fail(ctx, "%dx%d image: d_in was changed; it is input only (warp_partitioning.h)", w,
                    h);
        check_shade(ctx, h_in, h_out, w, h, 1);
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

static void test_perf_shade(wb_ctx *ctx) {
    shade_args a;
    WB_BIND(ctx, a.student, warp_partitioning_shade);
    size_t bytes = (size_t)PERF_W * PERF_H * sizeof(float);
    float *h_in, *h_out = (float *)malloc(bytes), *d_out;
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    a.in = random_image(ctx, &g, PERF_W, PERF_H, &h_in);
    wb_cuda(ctx, cudaMalloc((void **)&d_out, bytes), "cudaMalloc");
    wb_cuda(ctx, cudaMemset(d_out, 0xFF, bytes), "cudaMemset (poison: NaN)");
    a.out = d_out;
    a.w = PERF_W;
    a.h = PERF_H;
    const double limit = 1.45;
    wb_time_opts o = wb_time_defaults();
    wb_ratio r;
    wb_cuda(ctx, wb_time_speedup(run_baseline_shade, &a, run_student_shade, &a, limit, &o, &r),
            "timing the shading kernels");
    /* The last run was the student's or the baseline's; run the student's
     * once more so the output checked is its own. */
    wb_cuda(ctx, cudaMemset(d_out, 0xFF, bytes), "cudaMemset (poison: NaN)");
    wb_cuda(ctx, run_student_shade(&a, NULL), "warp_partitioning_shade");
    wb_cuda(ctx, cudaDeviceSynchronize(), "the shading kernel");
    wb_cuda(ctx, cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    check_shade(ctx, h_in, h_out, PERF_W, PERF_H, 97);
    /* No launch can beat the GPU's peak FP32 rate: a faster time means the
     * work was not done in the timed launch (a cached result, another
     * stream, work skipped for this size). */
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    double flops = 2.0 * 4 * WARP_PARTITIONING_SHADE_ITERS * (double)PERF_W * PERF_H;
    double floor_ms = gpu->peak_fp32_gflops > 0 ? flops / (gpu->peak_fp32_gflops * 1e9) * 1e3 : 0;
    if (r.cand_ms < 0.9 * floor_ms)
        wb_fail(ctx,
                "%.3f ms is faster than the GPU's peak FP32 rate allows for this work (%.3f ms): "
                "every pixel must be computed by the launch on the stream given",
                r.cand_ms, floor_ms);
    wb_record(ctx, "shade_speedup", r.ratio, "x", limit, "ge");
    wb_record(ctx, "shade_baseline_ms", r.base_ms, "ms", 0, "ref");
    wb_record(ctx, "shade_student_ms", r.cand_ms, "ms", 0, "ref");
    wb_measured(
        ctx, "speedup %.2fx over 33x1 blocks (%.3f ms vs %.3f ms, %d pairs%s), need >= %.2fx",
        r.ratio, r.cand_ms, r.base_ms, r.trials, r.remeasured ? ", re-measured" : "", limit);
    wb_rerun_if_inconclusive(ctx, &r, limit);
    if (!(r.ratio >= limit))
        wb_fail(ctx, "too many idle lanes: a 33-wide block pays two warps for 33 pixels; pick a "
                     "block whose width is a multiple of 32");
    cudaFree((void *)a.in);
    cudaFree(d_out);
    free(h_in);
    free(h_out);
}

/* ------------------------------------------------------------- questions */

/* Questions whose answer is a thread index "x y" or "x y z": every integer
 * of the answer, in order, whatever separates them. */
static void question_tuple(wb_ctx *ctx, const char *key, uint64_t expected, const char *what) {
    const char *v = wb_answer(ctx, key);
    char canon[64] = "t";
    size_t k = 1;
    for (const char *p = v; *p && k + 12 < sizeof canon;) {
        if (*p >= '0' && *p <= '9') {
            long n = strtol(p, (char **)&p, 10);
            k += (size_t)snprintf(canon + k, sizeof canon - k, "%s%ld", k > 1 ? " " : "", n);
        } else {
            p++;
        }
    }
    wb_measured(ctx, "%s = %s", key, v);
    if (wb_answer_hash(wb_salt(ctx), key, canon) != expected)
        wb_fail(ctx,
                "%s = %s is not the expected answer; asked: %s, written as x y or x y z "
                "(README, \"Questions\")",
                key, v, what);
}

WB_HASH_QUESTION(test_q_hw_threads_36x3, "hw_threads_36x3", 0xeadd314268f2152eULL,
                 "hardware threads (lanes) the warps of " Q36 " occupy")

WB_HASH_QUESTION(test_q_idle_150, "idle_lanes_150", 0x1e6bbbe0118fd96fULL,
                 "idle lanes of a block of 150 threads")

static void test_q_w0_last_8x8(wb_ctx *ctx) {
    question_tuple(ctx, "warp0_last_8x8", 0x3434b2c6ea7bb51bULL,
                   "threadIdx of the last thread of warp 0 in an 8x8 block");
}

static void test_q_w1_first_8x8(wb_ctx *ctx) {
    question_tuple(ctx, "warp1_first_8x8", 0x9065bb9c4ceda074ULL,
                   "threadIdx of the first thread of warp 1 in an 8x8 block");
}

static void test_q_w0_last_4x4x4(wb_ctx *ctx) {
    question_tuple(ctx, "warp0_last_4x4x4", 0x23f79ec59daff188ULL,
                   "threadIdx of the last thread of warp 0 in a 4x4x4 block");
}

static void test_q_w1_first_4x4x4(wb_ctx *ctx) {
    question_tuple(ctx, "warp1_first_4x4x4", 0x164aef29eff44632ULL,
                   "threadIdx of the first thread of warp 1 in a 4x4x4 block");
}

WB_HASH_QUESTION(test_q_warps_36x3, "warps_36x3", 0xb12896760d9c5db1ULL, "warps in " Q36)

WB_HASH_QUESTION(test_q_idle_36x3, "idle_lanes_36x3", 0xa591e8958153c1b6ULL, "idle lanes in " Q36)

WB_HASH_QUESTION(test_q_warps_8x8x3, "warps_8x8x3", 0x8c982bdd1a3ac460ULL,
                 "warps in an 8x8x3 block")

WB_HASH_QUESTION(test_q_warp_321, "warp_of_3_2_1", 0x145782d798864e6cULL,
                 "the warp of thread (3,2,1) in an 8x8x3 block")

WB_HASH_QUESTION(test_q_lane_321, "lane_of_3_2_1", 0x98e94c25cc8389b8ULL,
                 "the lane of thread (3,2,1) in an 8x8x3 block")

WB_HASH_QUESTION(test_q_most_waste, "most_waste", 0x4ff6dbba681db176ULL,
                 "the letter of the shape with the largest share of idle lanes")

WB_HASH_QUESTION(test_q_grid_lanes, "lanes_1000_blocks_of_33", 0x0907d53405253d7aULL,
                 "lanes occupied by 1000 blocks of 33 threads, idle ones included")

/* ----------------------------------------------------------- the suite */

#define HOST(id, pts, fn, req, hint)                                                               \
    { id, WB_CORRECTNESS, pts, 0, 1, 60, fn, req, NULL, NULL, NULL, hint }
#define GPU(id, pts, secs, fn, req, hint)                                                          \
    { id, WB_CORRECTNESS, pts, 1, 1, secs, fn, req, NULL, NULL, NULL, hint }
#define QUESTION(id, pts, fn)                                                                      \
    { id, WB_QUESTION, pts, 0, 0, 20, fn, NULL, NULL, NULL, NULL, "README.md, \"Questions\"" }

static const wb_test tests[] = {
    HOST("correct.linear", 8, test_linear, NULL, README_LINEAR),
    HOST("correct.warp_lane", 8, test_warp_lane, NULL,
         "the lane comes from the linear position, not from threadIdx.x alone (" README_WARPS ")"),
    HOST("correct.warps_per_block", 6, test_warps_per_block, NULL,
         "round up: a partial warp is still a whole warp (" README_PARTIAL ")"),
    HOST("correct.idle_lanes", 6, test_idle_lanes, NULL, README_PARTIAL),
    HOST("correct.invalid", 2, test_invalid, NULL, "README.md, \"Block shapes\""),
    HOST("measure.waste_table", 2, test_waste_table, "correct.warps_per_block correct.idle_lanes",
         README_PARTIAL),
    GPU("correct.record_shapes", 10, 60, test_record_shapes, NULL, README_GPU),
    GPU("correct.record_activemask", 6, 60, test_record_activemask, NULL,
        "read __activemask() before any branch, and record it unchanged (" README_GPU ")"),
    GPU("correct.record_random", 5, 60, test_record_random, NULL, README_GPU),
    GPU("correct.record_hardware", 6, 60, test_record_hardware, NULL, README_GPU),
    {"sanitizer.record", WB_SANITIZER, 3, 1, 1, 300, NULL, "correct.record_shapes",
     "compute-sanitizer", "correct.record_shapes", "memcheck", "README.md, \"Debugging\""},
    GPU("correct.shade", 6, 60, test_shade, NULL, README_SHAPE),
    {"perf.shade", WB_PERFORMANCE, 15, 1, 1, 120, test_perf_shade, "correct.shade", NULL, NULL,
     NULL, README_SHAPE},
    QUESTION("question.warps_36x3", 2, test_q_warps_36x3),
    QUESTION("question.idle_lanes_36x3", 2, test_q_idle_36x3),
    QUESTION("question.hw_threads_36x3", 2, test_q_hw_threads_36x3),
    QUESTION("question.warps_8x8x3", 1, test_q_warps_8x8x3),
    QUESTION("question.warp_of_3_2_1", 1, test_q_warp_321),
    QUESTION("question.lane_of_3_2_1", 1, test_q_lane_321),
    QUESTION("question.warp0_last_8x8", 1, test_q_w0_last_8x8),
    QUESTION("question.warp1_first_8x8", 1, test_q_w1_first_8x8),
    QUESTION("question.warp0_last_4x4x4", 1, test_q_w0_last_4x4x4),
    QUESTION("question.warp1_first_4x4x4", 1, test_q_w1_first_4x4x4),
    QUESTION("question.idle_lanes_150", 2, test_q_idle_150),
    QUESTION("question.most_waste", 1, test_q_most_waste),
    QUESTION("question.lanes_1000_blocks_of_33", 1, test_q_grid_lanes),
};

static const wb_lab lab = {"02-warp-partitioning", "warp_partitioning.cu",
                           "02-warp-partitioning/v1", tests, (int)(sizeof tests / sizeof tests[0])};

Suite *warp_partitioning_suite(void) {
    return wb_build_suite(&lab);
}

int main(int argc, char **argv) {
    return wb_grader_main(argc, argv, warp_partitioning_suite);
}
