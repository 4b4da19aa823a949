/* check_barriers.c - the grader of lab 04: a block sum checked for races, barrier misuse, speed */
/* SPDX-License-Identifier: MIT */
#include "wb_grader.h"
#include "wb_alias.h"
#include "wb_rng.h"
#include "wb_timing.h"

#include "barriers.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define README_RACE "README.md, \"A missing barrier is a race\""
#define README_SAME "README.md, \"Every thread, the same barrier\""
#define README_REUSE "README.md, \"Reusing shared memory\""
#define README_WARP "README.md, \"The last 32: warp-level steps\""
#define README_CONTRACT "README.md, \"The contract\""

typedef __typeof__(&barriers_sum) sum_fn;

/* Floats of guard space after d_in, d_scratch and d_out, in the same
 * allocation: poisoned with NaN (0xFF bytes), which no sum of inputs in
 * [0, 1) ever is, and checked unchanged after every call. A sum that writes
 * past its scratch or its one output float changes a guard; one that reads
 * past the end of d_in adds NaN into its total. */
#define GUARD 256

/* Grader-owned kernels (bar_kernels.cu). */
int bar_baseline_sum(const float *d_in, int n, float *d_scratch, float *d_out, void *stream);
int bar_fill(float *d_x, size_t n, uint32_t seed);
int bar_loads_only(const float *d_in, int n, float *d_scratch, float *d_out, void *stream);
int bar_delayed_copy(float *d_in, const float *d_src, size_t n, long long ns, void *stream);

/* ------------------------------------------------- one size, its buffers */

typedef struct sum_case {
    int n, tiles;   /* tiles of level 1 */
    size_t scratch; /* floats of d_scratch */
    float *h_in;    /* the input, host copy */
    float *d_in, *d_scratch, *d_out;
    double ref_total; /* exact enough: double sums of floats in [0, 1) */
    double *ref_tiles;
    float *h_tiles; /* level-1 tile sums of the last run */
} sum_case;

static void case_open(wb_ctx *ctx, sum_case *c, int n) {
    memset(c, 0, sizeof *c);
    c->n = n;
    c->tiles = barriers_tiles(n);
    c->scratch = barriers_scratch_floats(n);
    c->h_in = (float *)malloc((size_t)n * sizeof(float));
    c->ref_tiles = (double *)malloc((size_t)c->tiles * sizeof(double));
    c->h_tiles = (float *)malloc((size_t)c->tiles * sizeof(float));
    if (!c->h_in || !c->ref_tiles || !c->h_tiles)
        wb_fail(ctx, "out of host memory");
    WB_CUDA(ctx, cudaMalloc((void **)&c->d_in, ((size_t)n + GUARD) * sizeof(float)));
    WB_CUDA(ctx, cudaMalloc((void **)&c->d_scratch, (c->scratch + GUARD) * sizeof(float)));
    WB_CUDA(ctx, cudaMalloc((void **)&c->d_out, (1 + GUARD) * sizeof(float)));
    WB_CUDA(ctx, cudaMemset(c->d_in + n, 0xFF, GUARD * sizeof(float)));
}

/* Fails when any of the GUARD floats after the `count` floats of d_buf (a
 * device buffer named `name`) is no longer the poison, naming the first. */
static void guard_check(wb_ctx *ctx, const float *d_buf, size_t count, const char *name, int n,
                        const char *why) {
    unsigned g[GUARD];
    WB_CUDA(ctx, cudaMemcpy(g, d_buf + count, sizeof g, cudaMemcpyDeviceToHost));
    for (int k = 0; k < GUARD; k++)
        if (g[k] != 0xFFFFFFFFu)
            wb_fail(ctx,
                    "n = %d: float %zu of %s, %d past the end of its %zu (%s), was changed to "
                    "0x%08x; expected the grader's poison 0xffffffff left alone: nothing may be "
                    "written past the buffers barriers.h gives (%s)",
                    n, count + (size_t)k, name, k + 1, count, why, g[k], README_CONTRACT);
}

/* The guards after d_scratch and d_out, after a call. */
static void case_check_guards(wb_ctx *ctx, const sum_case *c) {
    guard_check(ctx, c->d_scratch, c->scratch, "d_scratch", c->n, "barriers_scratch_floats(n)");
    guard_check(ctx, c->d_out, 1, "d_out", c->n, "one float");
}

static void case_close(sum_case *c) {
    cudaFree(c->d_in);
    cudaFree(c->d_scratch);
    cudaFree(c->d_out);
    free(c->h_in);
    free(c->ref_tiles);
    free(c->h_tiles);
}

/* Computes the exact sums of the host input and copies it to the device. */
static void case_upload(wb_ctx *ctx, sum_case *c) {
    c->ref_total = 0;
    for (int k = 0; k < c->tiles; k++) {
        double s = 0;
        int end = (k + 1) * BARRIERS_TILE < c->n ? (k + 1) * BARRIERS_TILE : c->n;
        for (int i = k * BARRIERS_TILE; i < end; i++)
            s += c->h_in[i];
        c->ref_tiles[k] = s;
        c->ref_total += s;
    }
    WB_CUDA(ctx,
            cudaMemcpy(c->d_in, c->h_in, (size_t)c->n * sizeof(float), cudaMemcpyHostToDevice));
}

static void case_random(wb_ctx *ctx, sum_case *c, wb_rng *g) {
    wb_rng_fill_float(g, c->h_in, (size_t)c->n, 0.0f, 1.0f);
    case_upload(ctx, c);
}

static void case_ones(wb_ctx *ctx, sum_case *c) {
    for (int i = 0; i < c->n; i++)
        c->h_in[i] = 1.0f;
    case_upload(ctx, c);
}

/* Poisons the outputs and every SM's shared memory (a tile summed from
 * words the block never wrote is NaN, never what an earlier sum left), runs
 * the student's sum on the legacy default stream, waits, and returns the
 * total; the level-1 tile sums land in c->h_tiles (when there are several
 * tiles; else the total is the one tile sum). */
static float case_run(wb_ctx *ctx, sum_case *c, sum_fn sum) {
    float total;
    WB_CUDA(ctx, cudaMemset(c->d_scratch, 0xFF, (c->scratch + GUARD) * sizeof(float)));
    WB_CUDA(ctx, cudaMemset(c->d_out, 0xFF, (1 + GUARD) * sizeof(float)));
    wb_poison_shared(ctx);
    int e = sum(c->d_in, c->n, c->d_scratch, c->d_out, 0);
    if (e != cudaSuccess)
        wb_fail(ctx, "barriers_sum(n = %d) returned %s, expected cudaSuccess", c->n,
                cudaGetErrorName((cudaError_t)e));
    wb_wait(ctx, NULL, "the kernels of barriers_sum (n = %d)", c->n);
    WB_CUDA(ctx, cudaMemcpy(&total, c->d_out, sizeof total, cudaMemcpyDeviceToHost));
    if (c->tiles > 1)
        WB_CUDA(ctx, cudaMemcpy(c->h_tiles, c->d_scratch, (size_t)c->tiles * sizeof(float),
                                cudaMemcpyDeviceToHost));
    else
        c->h_tiles[0] = total;
    case_check_guards(ctx, c);
    return total;
}

/* Within BARRIERS_REL_TOL (1e-5) of the exact sum, or exact. An fp32 tree
 * adds each element through at most 27 roundings at n = 2^27 (9 levels of
 * the block sum per level of tiles), so the reference's relative error stays
 * under 27 x 2^-24, about 1.6e-6, on any GPU: 6x inside. The nearest wrong
 * sums are a lost or repeated element or partial sum: at least about 1/512
 * of a tile sum on average, far outside for the tile sums checked, and
 * exactly 1 off for an input of ones, which is compared exactly. */
static int close_enough(double got, double want, int exact) {
    if (exact)
        return got == want;
    return fabs(got - want) <= BARRIERS_REL_TOL * fabs(want) + 1e-30;
}

/* Checks the tile sums and the total of the last run against the exact
 * sums; `what` names the input. Exact comparison for an input of ones. */
static void case_check(wb_ctx *ctx, const sum_case *c, float total, const char *what, int exact) {
    for (int k = 0; k < c->tiles; k++) {
        double got = c->h_tiles[k], want = c->ref_tiles[k];
        int lo = k * BARRIERS_TILE;
        int hi = (k + 1) * BARRIERS_TILE < c->n ? (k + 1) * BARRIERS_TILE : c->n;
        if (isnan(got))
            wb_fail(ctx,
                    "n = %d, %s: the sum of tile %d (elements %d..%d) is NaN, expected %.9g: "
                    "either never written (the grader's poison is NaN) or it added elements "
                    "past the end of d_in (the grader keeps NaN there); every tile must be "
                    "added up, and only elements 0..n-1 (%s)",
                    c->n, what, k, lo, hi - 1, want, README_CONTRACT);
        if (!close_enough(got, want, exact))
            wb_fail(ctx,
                    "n = %d, %s: the sum of tile %d (elements %d..%d) is %.9g, expected %.9g "
                    "(%s); the block sum loses or repeats values: check every barrier (%s)",
                    c->n, what, k, lo, hi - 1, got, want,
                    exact ? "exactly, for ones" : "to a relative 1e-5", README_RACE);
    }
    if (isnan(total))
        wb_fail(ctx,
                "n = %d, %s: *d_out is NaN, expected %.9g: never written (the grader's poison), "
                "or a sum over values past the end of its input (%s)",
                c->n, what, c->ref_total, README_CONTRACT);
    if (!close_enough(total, c->ref_total, exact))
        wb_fail(ctx,
                "n = %d, %s: the sum is %.9g, expected %.9g (%s), although every tile sum of "
                "level 1 is right: the later levels go wrong (%s)",
                c->n, what, total, c->ref_total, exact ? "exactly" : "to a relative 1e-5",
                README_RACE);
}

static void case_check_input(wb_ctx *ctx, const sum_case *c) {
    float *h = (float *)malloc((size_t)c->n * sizeof(float));
    if (!h)
        wb_fail(ctx, "out of host memory");
    WB_CUDA(ctx, cudaMemcpy(h, c->d_in, (size_t)c->n * sizeof(float), cudaMemcpyDeviceToHost));
    if (memcmp(h, c->h_in, (size_t)c->n * sizeof(float)) != 0)
        wb_fail(ctx, "n = %d: d_in was changed; it is input only (%s)", c->n, README_CONTRACT);
    free(h);
    guard_check(ctx, c->d_in, (size_t)c->n, "d_in", c->n, "n floats, input only");
}

/* Runs a random input `runs` times (same bits every time, within the
 * tolerance), checks the input is unchanged, then, when `ones`, an input of
 * ones (exact). */
static void check_size(wb_ctx *ctx, sum_fn sum, int n, int runs, int ones, wb_rng *g) {
    sum_case c;
    case_open(ctx, &c, n);
    case_random(ctx, &c, g);
    float first = 0;
    float *first_tiles = (float *)malloc((size_t)c.tiles * sizeof(float));
    if (!first_tiles)
        wb_fail(ctx, "out of host memory");
    for (int r = 0; r < runs; r++) {
        float total = case_run(ctx, &c, sum);
        case_check(ctx, &c, total, "random input in [0, 1)", 0);
        if (r == 0) {
            case_check_input(ctx, &c);
            first = total;
            memcpy(first_tiles, c.h_tiles, (size_t)c.tiles * sizeof(float));
        } else if (memcmp(&total, &first, sizeof total) != 0 ||
                   memcmp(first_tiles, c.h_tiles, (size_t)c.tiles * sizeof(float)) != 0) {
            wb_fail(ctx,
                    "n = %d: run %d gave the sum %.9g, run 1 gave %.9g for the same input: a "
                    "result that changes from run to run is the mark of a race (%s)",
                    n, r + 1, total, first, README_RACE);
        }
    }
    if (ones && n <= (1 << 24)) {
        case_ones(ctx, &c);
        float total = case_run(ctx, &c, sum);
        case_check(ctx, &c, total, "all ones", 1);
    }
    free(first_tiles);
    case_close(&c);
}

/* ------------------------------------------------------------ the tests */

/* The sizes of correct.small, which the sanitizers run too, so they reach
 * every path of the lab's code: one element, partial warps and tiles, a
 * tile exactly, four tiles in one block, several blocks of four tiles
 * (10,007: 20 tiles), and DEEP_N, where level 1 has 586 tiles in 147 blocks
 * (145 of four tiles, 2 of three), level 2 has two tiles (the second
 * partial) in one block that reuses its shared memory, and level 3 adds up
 * those two: three levels, a partial tile at each, a block that stops
 * early. Below 512 x 512 elements there is no third level, and the level
 * after the first has a single tile, so no block of it calls the block sum
 * twice. */
#define DEEP_N 300007
static const int small_sizes[] = {1,
                                  2,
                                  31,
                                  33,
                                  BARRIERS_BLOCK - 1,
                                  BARRIERS_BLOCK + 1,
                                  BARRIERS_TILE - 1,
                                  BARRIERS_TILE,
                                  BARRIERS_TILE + 1,
                                  1000,
                                  3 * BARRIERS_TILE + 17,
                                  10007,
                                  DEEP_N};

static void test_small(wb_ctx *ctx) {
    sum_fn sum;
    WB_BIND(ctx, sum, barriers_sum);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    int n_sizes = (int)(sizeof small_sizes / sizeof small_sizes[0]);
    /* Under a sanitizer, one run of random input for each size: the tool
     * examines every access of it, and an input of ones takes the same
     * paths; racecheck slows the deep size down most. Runs that differ are
     * for the plain runs of this test, correct.sizes and correct.repeat to
     * find. */
    int tool = wb_under_tool(ctx), runs = tool ? 1 : 3;
    for (int k = 0; k < n_sizes; k++)
        check_size(ctx, sum, small_sizes[k], runs, !tool, &g);
    wb_measured(ctx,
                "%d sizes from 1 to %d (up to three levels), %d run%s each%s: sums right, same "
                "bits, nothing written past the buffers",
                n_sizes, small_sizes[n_sizes - 1], runs, runs > 1 ? "s" : "",
                tool ? "" : " plus ones");
}

/* The sum must be queued on the stream it is given: the grader queues the
 * real input behind a 20 ms wait on a non-blocking stream, then the sum. */
static void check_stream(wb_ctx *ctx, sum_fn sum, wb_rng *g) {
    const int n = 300007;
    sum_case c;
    case_open(ctx, &c, n);
    case_random(ctx, &c, g);
    float *d_src, total;
    cudaStream_t s;
    WB_CUDA(ctx, cudaMalloc((void **)&d_src, (size_t)n * sizeof(float)));
    WB_CUDA(ctx, cudaMemcpy(d_src, c.d_in, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice));
    WB_CUDA(ctx, cudaMemset(c.d_in, 0, (size_t)n * sizeof(float)));
    WB_CUDA(ctx, cudaMemset(c.d_scratch, 0xFF, (c.scratch + GUARD) * sizeof(float)));
    WB_CUDA(ctx, cudaMemset(c.d_out, 0xFF, (1 + GUARD) * sizeof(float)));
    /* Before the grader's work is queued: poisoning waits for the device. */
    wb_poison_shared(ctx);
    WB_CUDA(ctx, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    WB_CUDA(ctx, bar_delayed_copy(c.d_in, d_src, (size_t)n, 20000000LL, s));
    int e = sum(c.d_in, n, c.d_scratch, c.d_out, s);
    if (e != cudaSuccess)
        wb_fail(ctx, "barriers_sum(n = %d, on a stream) returned %s", n,
                cudaGetErrorName((cudaError_t)e));
    WB_CUDA(ctx, cudaMemcpyAsync(&total, c.d_out, sizeof total, cudaMemcpyDeviceToHost, s));
    wb_wait(ctx, s, "the kernels of barriers_sum (n = %d)", n);
    WB_CUDA(ctx, cudaDeviceSynchronize());
    if (!close_enough(total, c.ref_total, 0))
        wb_fail(ctx,
                "n = %d, launched on a stream behind the grader's work: the sum is %.9g, "
                "expected %.9g; every kernel must go on the stream argument (%s)",
                n, total, c.ref_total, README_CONTRACT);
    case_check_guards(ctx, &c);
    cudaStreamDestroy(s);
    cudaFree(d_src);
    case_close(&c);
}

/* The picture of the student's run (slides/plots/04-tree.gp, README.md,
 * "Your run, drawn"; not graded): one sum of TREE_N random values with the
 * level kernel's stamps on (barriers_trace, given code), before the sizes
 * are checked, so that a wrong tree is drawn too; written to tree.csv in
 * the report folder:
 *   kind,level,block,smid,tile,warp,start,end,last
 * "block" rows: each block of each level, start and end in microseconds
 * from the first block's start (%globaltimer); "warp" rows: block 0 of
 * level 1, each warp's call of barriers_block_sum for each of its tiles, in
 * SM cycles from the first call (clock64), and when the tile's last warp
 * called it (until then the others wait at its first barrier). The line it returns in `note`
 * says what the picture shows, or why there is none. */
#define TREE_N (1 << 22)
typedef cudaError_t (*trace_fn)(unsigned long long *, int);

static void draw_tree(wb_ctx *ctx, sum_fn sum, wb_rng *g, char *note, size_t cap) {
    trace_fn trace = (trace_fn)wb_student_sym_opt(ctx, "barriers_trace");
    if (!trace) {
        snprintf(note, cap, "; no picture: barriers.cu has no barriers_trace (given code of a "
                            "newer handout)");
        return;
    }
    sum_case c;
    case_open(ctx, &c, TREE_N);
    case_random(ctx, &c, g);
    int blocks = 0;
    for (int m = TREE_N;; m = barriers_tiles(m)) {
        int t = barriers_tiles(m);
        blocks += (t + BARRIERS_TILES_PER_BLOCK - 1) / BARRIERS_TILES_PER_BLOCK;
        if (t == 1)
            break;
    }
    const int words = BARRIERS_TRACE_HEAD + BARRIERS_TRACE_REC * (blocks + 64);
    unsigned long long *d_tr = NULL, *h_tr = (unsigned long long *)calloc(words, 8);
    if (!h_tr)
        wb_fail(ctx, "out of host memory");
    WB_CUDA(ctx, cudaMalloc((void **)&d_tr, (size_t)words * 8));
    WB_CUDA(ctx, cudaMemset(d_tr, 0, (size_t)words * 8));
    case_run(ctx, &c, sum); /* a warm-up: the module is loaded, the caches filled */
    WB_CUDA(ctx, (cudaError_t)trace(d_tr, words));
    case_run(ctx, &c, sum); /* checked by the sizes that follow, not here: a wrong tree is drawn too */
    WB_CUDA(ctx, (cudaError_t)trace(NULL, 0));
    WB_CUDA(ctx, cudaMemcpy(h_tr, d_tr, (size_t)words * 8, cudaMemcpyDeviceToHost));
    cudaFree(d_tr);
    case_close(&c);
    unsigned long long n = h_tr[0];
    if (n > (unsigned long long)(words - BARRIERS_TRACE_HEAD) / BARRIERS_TRACE_REC)
        n = (unsigned long long)(words - BARRIERS_TRACE_HEAD) / BARRIERS_TRACE_REC;
    if (n == 0) {
        snprintf(note, cap, "; no picture: the level kernel wrote no stamps (its given code was "
                            "changed?)");
        free(h_tr);
        return;
    }
    unsigned long long t0 = ~0ULL, c0 = ~0ULL;
    int levels = 0;
    for (unsigned long long i = 0; i < n; i++) {
        const unsigned long long *r = h_tr + BARRIERS_TRACE_HEAD + i * BARRIERS_TRACE_REC;
        t0 = r[3] < t0 ? r[3] : t0;
        levels = (int)r[0] > levels ? (int)r[0] : levels;
    }
    for (int k = 0; k < BARRIERS_TILES_PER_BLOCK * BARRIERS_TRACE_WARPS; k++)
        if (h_tr[1 + 2 * k] && h_tr[1 + 2 * k] < c0)
            c0 = h_tr[1 + 2 * k];
    char path[4200];
    snprintf(path, sizeof path, "%s/tree.csv", wb_out_dir(ctx));
    FILE *f = fopen(path, "w");
    if (!f)
        wb_fail(ctx, "cannot write %s", path);
    fprintf(f, "kind,level,block,smid,tile,warp,start,end,last\n");
    double t_end = 0;
    for (unsigned long long i = 0; i < n; i++) {
        const unsigned long long *r = h_tr + BARRIERS_TRACE_HEAD + i * BARRIERS_TRACE_REC;
        double s = (double)(r[3] - t0) * 1e-3, e = (double)(r[4] - t0) * 1e-3;
        t_end = e > t_end ? e : t_end;
        fprintf(f, "block,%llu,%llu,%llu,,,%.3f,%.3f,\n", r[0], r[1], r[2], s, e);
    }
    double wait = 0, busy = 0;
    for (int k = 0; k < BARRIERS_TILES_PER_BLOCK && c0 != ~0ULL; k++) {
        unsigned long long last = 0;
        for (int w = 0; w < BARRIERS_TRACE_WARPS; w++) {
            unsigned long long a = h_tr[1 + 2 * (k * BARRIERS_TRACE_WARPS + w)];
            last = a > last ? a : last;
        }
        for (int w = 0; w < BARRIERS_TRACE_WARPS; w++) {
            const unsigned long long *p = h_tr + 1 + 2 * (k * BARRIERS_TRACE_WARPS + w);
            if (!p[0] || p[1] < p[0])
                continue;
            fprintf(f, "warp,1,0,,%d,%d,%llu,%llu,%llu\n", k, w, p[0] - c0, p[1] - c0, last - c0);
            wait += (double)(last - p[0]);
            busy += (double)(p[1] - p[0]);
        }
    }
    fclose(f);
    free(h_tr);
    snprintf(note, cap,
             "; the picture's run (n = 2^22, tree.csv, make report draws it): %d levels, %llu "
             "blocks, %.1f us from the first block's start to the last one's end; in block 0 "
             "of level 1 the warps spent %.0f %% of their block sums waiting for the block's "
             "last warp to arrive",
             levels, n, t_end, busy > 0 ? 100.0 * wait / busy : 0.0);
}

static void test_sizes(wb_ctx *ctx) {
    sum_fn sum;
    WB_BIND(ctx, sum, barriers_sum);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    int sizes[10] = {(1 << 20) + 3, 3000017, (1 << 24) - 1, (1 << 24)};
    for (int k = 4; k < 10; k++)
        sizes[k] = (int)wb_rng_range(&g, 2, 1 << 22);
    char note[600];
    draw_tree(ctx, sum, &g, note, sizeof note);
    for (int k = 0; k < 10; k++)
        check_size(ctx, sum, sizes[k], 3, 1, &g);
    check_stream(ctx, sum, &g);
    float *d = NULL;
    WB_CUDA(ctx, cudaMalloc((void **)&d, 16));
    int bad[4] = {sum(NULL, 8, d, d, 0), sum(d, 8, NULL, d, 0), sum(d, 0, d, d, 0),
                  sum(d, -5, d, d, 0)};
    for (int k = 0; k < 4; k++)
        if (bad[k] != cudaErrorInvalidValue)
            wb_fail(ctx,
                    "barriers_sum with a NULL pointer or n < 1 returned %s, expected "
                    "cudaErrorInvalidValue (%s)",
                    cudaGetErrorName((cudaError_t)bad[k]), README_CONTRACT);
    cudaFree(d);
    wb_measured(ctx,
                "10 sizes up to 2^24 (6 random), 3 runs each plus ones; on a stream; "
                "invalid arguments refused%s",
                note);
}

#define REPEAT_N ((1 << 20) + 3)
#define REPEAT_RUNS 100

/* The same input many times: every tile sum must come out with the same
 * bits every time. A race shows up here as a few runs that differ. */
static void test_repeat(wb_ctx *ctx) {
    sum_fn sum;
    WB_BIND(ctx, sum, barriers_sum);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    sum_case c;
    case_open(ctx, &c, REPEAT_N);
    case_random(ctx, &c, &g);
    float *first = (float *)malloc((size_t)c.tiles * sizeof(float)), first_total = 0;
    if (!first)
        wb_fail(ctx, "out of host memory");
    int differ = 0, first_run = 0, first_tile = -1;
    float a = 0, b = 0;
    for (int r = 0; r < REPEAT_RUNS; r++) {
        float total = case_run(ctx, &c, sum);
        if (r == 0) {
            case_check(ctx, &c, total, "random input in [0, 1)", 0);
            case_check_input(ctx, &c);
            memcpy(first, c.h_tiles, (size_t)c.tiles * sizeof(float));
            first_total = total;
            continue;
        }
        int k = 0;
        while (k < c.tiles && memcmp(&first[k], &c.h_tiles[k], sizeof(float)) == 0)
            k++;
        if (k < c.tiles || memcmp(&total, &first_total, sizeof total) != 0) {
            if (differ++ == 0) {
                first_run = r + 1;
                first_tile = k < c.tiles ? k : -1;
                a = k < c.tiles ? c.h_tiles[k] : total;
                b = k < c.tiles ? first[k] : first_total;
            }
        }
    }
    wb_record(ctx, "runs_that_differed", differ, "runs", 0, "le");
    wb_measured(ctx, "%d runs of n = %d: %d differed from run 1", REPEAT_RUNS, REPEAT_N, differ);
    if (differ > 0) {
        if (first_tile >= 0)
            wb_fail(ctx,
                    "%d of %d runs of the same input differed from run 1 (first: run %d, tile "
                    "%d gave %.9g instead of %.9g): a race; expected the same bits every "
                    "time (%s)",
                    differ, REPEAT_RUNS - 1, first_run, first_tile, a, b, README_RACE);
        wb_fail(ctx,
                "%d of %d runs of the same input gave a different total from run 1 (run %d: "
                "%.9g instead of %.9g): a race in a later level (%s)",
                differ, REPEAT_RUNS - 1, first_run, a, b, README_RACE);
    }
    free(first);
    case_close(&c);
}

/* ------------------------------------------------- the performance task */

#define PERF_N (1 << 27)
#define PERF_LIMIT 1.35 /* over the barrier-per-step sum; README.md, "What is graded" */

/* The timed input: 2^27 floats (512 MiB of addresses) that all map one
 * physical block of at most half the L2 (wb_alias.h). Every GPU then serves
 * the loads from its L2 at a rate well above what the block sums consume,
 * so the time is the SMs' own work and the barriers a sum keeps show on
 * every GPU, whatever its DRAM; from DRAM, a GPU with little bandwidth per
 * SM would hide them (README.md, "What is graded"). */
typedef struct perf_state {
    sum_fn student;
    wb_alias in;
    float *d_scratch, *d_out;
    double want; /* the exact sum of the n elements */
} perf_state;

static perf_state perf;

static int run_student(void *p, void *stream) {
    perf_state *a = (perf_state *)p;
    return a->student((const float *)a->in.ptr, PERF_N, a->d_scratch, a->d_out,
                      (cudaStream_t)stream);
}

static int run_baseline(void *p, void *stream) {
    perf_state *a = (perf_state *)p;
    return bar_baseline_sum((const float *)a->in.ptr, PERF_N, a->d_scratch, a->d_out, stream);
}

static int run_loads(void *p, void *stream) {
    perf_state *a = (perf_state *)p;
    return bar_loads_only((const float *)a->in.ptr, PERF_N, a->d_scratch, a->d_out, stream);
}

static void perf_open(wb_ctx *ctx, wb_perf_run *run) {
    perf_state *a = &perf;
    memset(a, 0, sizeof *a);
    WB_BIND(ctx, a->student, barriers_sum);
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    size_t bytes = (size_t)PERF_N * sizeof(float);
    WB_CUDA(ctx, wb_alias_open(&a->in, bytes, gpu->l2_bytes / 2));
    size_t scratch = barriers_scratch_floats(PERF_N);
    WB_CUDA(ctx, cudaMalloc((void **)&a->d_scratch, (scratch + GUARD) * sizeof(float)));
    WB_CUDA(ctx, cudaMalloc((void **)&a->d_out, (1 + GUARD) * sizeof(float)));
    /* The guards stay poisoned through every timed call and are checked
     * after the checked one (perf_check). */
    WB_CUDA(ctx, cudaMemset(a->d_scratch + scratch, 0xFF, GUARD * sizeof(float)));
    WB_CUDA(ctx, cudaMemset(a->d_out + 1, 0xFF, GUARD * sizeof(float)));
    /* The block's elements, random in [0, 1); element i of the input is
     * element i % block of it. */
    size_t block = (a->in.mapped ? a->in.chunk : bytes) / sizeof(float);
    WB_CUDA(ctx, bar_fill((float *)a->in.ptr, block, (uint32_t)wb_seed(ctx)));
    float *h = (float *)malloc(block * sizeof(float));
    if (!h)
        wb_fail(ctx, "out of host memory");
    WB_CUDA(ctx, cudaMemcpy(h, a->in.ptr, block * sizeof(float), cudaMemcpyDeviceToHost));
    size_t whole = (size_t)PERF_N / block, rest = (size_t)PERF_N % block;
    double all = 0, head = 0;
    for (size_t i = 0; i < block; i++) {
        if (i == rest)
            head = all;
        all += h[i];
    }
    if (rest == 0)
        head = 0;
    a->want = (double)whole * all + head;
    free(h);
    run->baseline = run_baseline;
    run->candidate = run_student;
    run->arg = a;
    /* The floor: the grader's kernel that reads the same tiles with the same
     * grid and adds nothing up. A sum that reads every element cannot be
     * much faster; one that is has not read them (a result kept from an
     * earlier call, work on another stream). */
    double spread = 0;
    WB_CUDA(ctx, wb_time_one(run_loads, a, &run->opts, &run->floor_ms, &spread));
    run->floor_share = 0.5;
    run->floor_why = "the grader's kernel that only reads the same tiles with the same grid";
    run->floor_advice = "every element must be read by the launches on the stream given (" README_CONTRACT ")";
}

static void perf_poison(wb_ctx *ctx, void *arg) {
    perf_state *a = (perf_state *)arg;
    WB_CUDA(ctx, cudaMemset(a->d_out, 0xFF, sizeof(float)));
}

static void perf_check(wb_ctx *ctx, void *arg) {
    perf_state *a = (perf_state *)arg;
    float got;
    WB_CUDA(ctx, cudaMemcpy(&got, a->d_out, sizeof got, cudaMemcpyDeviceToHost));
    if (!close_enough(got, a->want, 0))
        wb_fail(ctx, "n = 2^27: the sum is %.9g, expected %.9g (to a relative 1e-5) (%s)", got,
                a->want, README_RACE);
    guard_check(ctx, a->d_scratch, barriers_scratch_floats(PERF_N), "d_scratch", PERF_N,
                "barriers_scratch_floats(n)");
    guard_check(ctx, a->d_out, 1, "d_out", PERF_N, "one float");
}

static void perf_describe(wb_ctx *ctx, void *arg, const wb_ratio *r, char *buf, size_t cap) {
    perf_state *a = (perf_state *)arg;
    double gbps = (double)PERF_N * sizeof(float) / (r->cand_ms * 1e-3) / 1e9;
    wb_record(ctx, "sum_read_gbps", gbps, "GB/s", 0, "ref");
    wb_record(ctx, "sum_l2_block_mib", a->in.mapped ? a->in.chunk / 1048576.0 : 0, "MiB", 0, "ref");
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    if (a->in.mapped && a->in.chunk <= gpu->l2_bytes)
        snprintf(buf, cap, "input served from the L2 (a %.0f MiB block mapped over 512 MiB)",
                 a->in.chunk / 1048576.0);
    else if (a->in.mapped)
        snprintf(buf, cap, "a %.0f MiB block mapped over 512 MiB is more than this GPU's L2: "
                           "partly from DRAM, where the limit's margin is smaller",
                 a->in.chunk / 1048576.0);
    else
        snprintf(buf, cap, "input read from DRAM (no virtual memory management here), where "
                           "the limit's margin is smaller");
}

static void perf_close(void *arg) {
    perf_state *a = (perf_state *)arg;
    wb_alias_close(&a->in);
    cudaFree(a->d_scratch);
    cudaFree(a->d_out);
}

static const wb_perf perf_sum = {
    .metric = "sum",
    .limit = PERF_LIMIT,
    .baseline = "the grader's sum with a barrier per step",
    .size = "n = 2^27, served from the L2",
    .derivation =
        "the input is one block of at most half the L2 mapped over 512 MiB, so every GPU serves "
        "it from the L2 and the time is the SMs' own work: the same loads, grid and occupancy "
        "with 4 barriers and 5 shuffles per tile instead of 10 barriers, so the warp-level finish "
        "is about 2x on any GPU, and the barrier-per-step sum, which is the baseline, gets 1.0x",
    .figures = "H100 80GB HBM3 (2026-11-23): reference graded 1.81x and 1.92x, 1.95x, 1.97x "
               "and 1.95x confined to 16, 32 and 64 SMs, 1.92-1.98x in the design experiment; "
               "H200: graded 1.91x, 1.92-1.94x in the experiment; the tree to 32 then shuffles "
               "1.66-1.69x; barrier per step 1.00x; read from DRAM instead, the reference is only "
               "1.56x on the H100",
    .advice = "the block spends its time in barriers: finish the last 64 values inside one "
              "warp (" README_WARP ")",
    .open = perf_open,
    .poison = perf_poison,
    .check = perf_check,
    .describe = perf_describe,
    .close = perf_close,
};

/* ----------------------------------------------------------- the table */

/* Each question's answer is one of three words; README "Questions" says
 * which means what. */
#define ASKS(key) "legal, racy or deadlock for " key " of README \"Questions\""

static const wb_test tests[] = {
    WB_GPU("correct.small", 15, test_small, .timeout_s = 60,
           .hint = "a barrier between writing s and reading another thread's slot; one barrier "
                   "that all threads reach (" README_SAME ")"),
    WB_GPU("correct.sizes", 10, test_sizes, .timeout_s = 120, .hint = README_RACE),
    WB_GPU("correct.repeat", 10, test_repeat, .timeout_s = 60,
           .hint = "results that change between runs: a race; look for a missing barrier, also "
                   "before s is overwritten (" README_REUSE ")"),
    WB_SANITIZER_OF("sanitizer.racecheck", 10, "racecheck", "correct.small"),
    WB_SANITIZER_OF("sanitizer.synccheck", 10, "synccheck", "correct.small"),
    WB_PERF("perf.sum", 25, perf_sum, .timeout_s = 120,
            .requires = "correct.small correct.sizes correct.repeat", .hint = README_WARP),
    WB_QUESTION_HASH("fragment_a", 1, 0x9e1cec708595a481ULL, ASKS("fragment_a")),
    WB_QUESTION_HASH("fragment_b", 1, 0x20621e39197d1e44ULL, ASKS("fragment_b")),
    WB_QUESTION_HASH("fragment_c", 2, 0x009e49e4c7797337ULL, ASKS("fragment_c")),
    WB_QUESTION_HASH("fragment_d", 2, 0x4f0e8fa259c4e094ULL, ASKS("fragment_d")),
    WB_QUESTION_HASH("fragment_e", 2, 0xce9cdb160f388835ULL, ASKS("fragment_e")),
    WB_QUESTION_HASH("fragment_f", 2, 0x12f270329b96fb82ULL, ASKS("fragment_f")),
    WB_QUESTION_HASH("fragment_g", 2, 0x6486d8c5000b18bfULL, ASKS("fragment_g")),
    WB_QUESTION_HASH("fragment_h", 2, 0x0e4b354c667079f2ULL, ASKS("fragment_h")),
    WB_QUESTION_HASH("fragment_i", 2, 0x403576fce85698f9ULL, ASKS("fragment_i")),
    WB_QUESTION_HASH("fragment_j", 2, 0x148af7bcaeca3296ULL, ASKS("fragment_j")),
    WB_QUESTION_HASH("barrier_wait_share", 2, 0x013ad6a65b5c8fafULL,
                     "percent of the warps' time spent waiting at the two barriers of README "
                     "\"Questions\""),
};

WB_LAB_MAIN(tests)
