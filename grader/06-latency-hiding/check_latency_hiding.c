/* check_latency_hiding.c - the grader of lab 06: the model, its parameters, ILP at low occupancy */
/* SPDX-License-Identifier: MIT */
#include "wb_grader.h"
#include "wb_ceiling.h"
#include "wb_rng.h"

#include "latency_hiding.h"
#include "lh_kernels.h"
#include "sim_devices.h"
#include "wb_driver.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W LATENCY_HIDING_WARP
#define R_TLP "README.md, \"TLP, BLP and RepNum\""
#define R_ILP "README.md, \"Basic blocks and ILP\""
#define R_MEM "README.md, \"MemAccLa and MemAccBw\""
#define R_CON "README.md, \"The four cases and LatencyHiddenCon\""
#define R_SYN "README.md, \"LatencyHiddenSyn\""
#define R_TIME "README.md, \"TimeOneRep and TimeTotal\""
#define R_READ "README.md, \"Reading the paper\""
#define R_MM "README.md, \"The matrix multiplies in the model's terms\""
#define R_CHASE "README.md, \"Pointer chasing\""
#define R_BW "README.md, \"Bandwidth and throughput\""
#define R_FILL "README.md, \"Filling the parameters\""
#define R_PRED "README.md, \"Prediction against measurement\""
#define R_ILPTASK "README.md, \"More loads in flight per thread\""
#define R_GRADED "README.md, \"What is graded\""

typedef latency_hiding_gpu gpu_t;
typedef latency_hiding_kernel kern_t;
typedef latency_hiding_block blk_t;

/* ===================================== the grader's own model (reference) */

static int ok_num(double x) {
    return isfinite(x) && x >= 0.0;
}

static int ref_launch_ok(const gpu_t *g, const kern_t *k) {
    return g && k && g->sm_count >= 1 && g->max_threads_per_block >= 1 &&
           g->max_threads_per_sm >= 1 && g->max_warps_per_sm >= 1 && g->max_blocks_per_sm >= 1 &&
           g->regs_per_sm >= 1 && g->smem_per_sm >= 0 && k->threads_per_block >= 1 &&
           k->regs_per_thread >= 0 && k->smem_per_block >= 0;
}

static int ref_tlp(const gpu_t *g, const kern_t *k) {
    if (!ref_launch_ok(g, k))
        return -1;
    int warps = (k->threads_per_block + W - 1) / W;
    if (k->threads_per_block > g->max_threads_per_block ||
        k->threads_per_block > g->max_threads_per_sm || warps > g->max_warps_per_sm ||
        (long long)k->regs_per_thread * W * warps > g->regs_per_sm ||
        k->smem_per_block > g->smem_per_sm)
        return 0;
    return warps;
}

static long long min_ll(long long a, long long b) {
    return a < b ? a : b;
}

static int ref_blp(const gpu_t *g, const kern_t *k) {
    int warps = ref_tlp(g, k);
    if (warps <= 0)
        return warps;
    long long b = g->max_blocks_per_sm;
    b = min_ll(b, g->max_warps_per_sm / warps);
    b = min_ll(b, g->max_threads_per_sm / k->threads_per_block);
    if (k->regs_per_thread > 0)
        b = min_ll(b, g->regs_per_sm / ((long long)k->regs_per_thread * W * warps));
    if (k->smem_per_block > 0)
        b = min_ll(b, g->smem_per_sm / k->smem_per_block);
    return (int)b;
}

static double ref_rep(const gpu_t *g, const kern_t *k) {
    int b = ref_blp(g, k);
    if (b < 1 || k->blocks < 1)
        return -1.0;
    return (double)k->blocks / ((double)b * g->sm_count);
}

static double ref_ilp(const gpu_t *g, const blk_t *b) {
    if (!g || !b || b->compute < 0 || b->global < 0 || b->shared < 0 ||
        !ok_num(g->compute_cycles) || !ok_num(g->global_issue_cycles) ||
        !ok_num(g->shared_issue_cycles))
        return -1.0;
    return b->compute * g->compute_cycles + b->global * g->global_issue_cycles +
           b->shared * g->shared_issue_cycles;
}

static double ref_la(const gpu_t *g, const blk_t *b) {
    if (!g || !b || b->level < 0 || b->level > 2)
        return -1.0;
    double la = b->level == LATENCY_HIDING_GLOBAL   ? g->global_latency
                : b->level == LATENCY_HIDING_SHARED ? g->shared_latency
                                                    : 0.0;
    return ok_num(la) ? la : -1.0;
}

static double ref_bw(const gpu_t *g, const blk_t *b) {
    if (!g || !b || b->level < 0 || b->level > 2 || b->bytes < 0 ||
        (b->bytes > 0 && b->level == LATENCY_HIDING_NONE))
        return -1.0;
    if (b->bytes == 0)
        return 0.0;
    double per_sm = b->level == LATENCY_HIDING_GLOBAL ? g->global_gbps / g->clock_ghz / g->sm_count
                                                      : g->shared_bytes_per_cycle;
    if (!(per_sm > 0.0 && isfinite(per_sm)))
        return -1.0;
    return (double)W * b->bytes / per_sm;
}

static int ref_case(double ilp, double nxt, double bw) {
    if (!ok_num(ilp) || !ok_num(nxt) || !ok_num(bw))
        return -1;
    if (ilp >= bw)
        return nxt >= bw ? 1 : 2;
    return nxt >= bw ? 4 : 3;
}

/* The factor of warp j (sync: LatencyHiddenSyn, else Con); *wait gets its
 * denominator, the whole wait of warp j. -1 for invalid arguments. */
static double ref_factor(double ilp, double nxt, double la, double bw, int tlp, int blp, int j,
                         int sync, double *wait) {
    if (!ok_num(ilp) || !ok_num(nxt) || !ok_num(la) || !ok_num(bw) || tlp < 1 || blp < 1 || j < 1 ||
        (long long)j > (long long)tlp * blp)
        return -1.0;
    long long w = (long long)tlp * blp, m = j - 1;
    double done = sync ? (double)(m / tlp * tlp) : (double)m;
    double queued = sync ? (double)((m + tlp - 1) / tlp * tlp) : (double)m;
    double n = ilp * (double)(w - j) + done * fmin(nxt, fmax(ilp, bw));
    double d = la + bw + queued * fmax(0.0, bw - ilp);
    if (wait)
        *wait = d;
    if (la + bw == 0.0)
        return 0.0;
    return n >= d ? 0.0 : (d - n) / d;
}

/* The four cases of section 2.3 as the paper writes each of them, before
 * merging: a check of the merged formula (ref_factor, sync = 0). */
static double ref_case_formula(double ilp, double nxt, double la, double bw, int tlp, int blp,
                               int j) {
    double w = (double)tlp * blp, a = j - 1, n, d = la + bw;
    switch (ref_case(ilp, nxt, bw)) {
    case 1:
        n = ilp * (w - j) + a * fmin(nxt, ilp);
        break;
    case 2:
        n = ilp * (w - j) + a * nxt;
        break;
    case 3:
        n = ilp * (w - j) + a * nxt;
        d += a * (bw - ilp);
        break;
    default:
        n = ilp * (w - j) + a * bw;
        d += a * (bw - ilp);
        break;
    }
    if (la + bw == 0.0)
        return 0.0;
    return fmax(0.0, 1.0 - n / d);
}

static int ref_blocks_ok(const kern_t *k) {
    if (!k || k->nbb < 1 || !k->bb)
        return 0;
    for (int i = 0; i < k->nbb; i++)
        if (k->bb[i].sync != 0 && k->bb[i].sync != 1)
            return 0;
    return 1;
}

static double ref_one_rep(const gpu_t *g, const kern_t *k, latency_hiding_sum how) {
    if (!ref_launch_ok(g, k) || !ref_blocks_ok(k) ||
        (how != LATENCY_HIDING_PRINTED && how != LATENCY_HIDING_OVERLAPPED))
        return -1.0;
    int tlp = ref_tlp(g, k), blp = ref_blp(g, k);
    if (tlp < 1 || blp < 1)
        return -1.0;
    int w = tlp * blp;
    double t = 0.0;
    for (int i = 0; i < k->nbb; i++) {
        const blk_t *b = &k->bb[i];
        double ilp = ref_ilp(g, b), nxt = ref_ilp(g, &k->bb[(i + 1) % k->nbb]);
        double la = ref_la(g, b), bw = ref_bw(g, b);
        if (ilp < 0 || nxt < 0 || la < 0 || bw < 0)
            return -1.0;
        double sum = 0.0, worst = 0.0;
        for (int j = 1; j <= w; j++) {
            double d = 0.0, f = ref_factor(ilp, nxt, la, bw, tlp, blp, j, b->sync, &d);
            sum += f * d;
            worst = fmax(worst, f * d);
        }
        t += w * ilp + (how == LATENCY_HIDING_PRINTED ? sum : worst);
    }
    return t;
}

static double ref_total(const gpu_t *g, const kern_t *k, latency_hiding_sum how) {
    double one = ref_one_rep(g, k, how), reps = ref_rep(g, k);
    return one < 0 || reps < 0 ? -1.0 : one * reps;
}

/* ========================================================= test vectors */

static int close_to(double got, double want) {
    if (want == -1.0)
        return got == -1.0;
    return fabs(got - want) <= 1e-9 * fabs(want) + 1e-12;
}

/* Limits of one SM: the paper's Tesla C1060, Fermi, and the GPUs this
 * workbook supports (threads/block, threads/SM, warps/SM, blocks/SM,
 * registers/SM, shared bytes/SM). */
static const int sm_limits[][6] = {
    {512, 1024, 32, 8, 16384, 16384},    /* 1.3, Tesla C1060 */
    {1024, 1536, 48, 8, 32768, 49152},   /* 2.0 */
    {1024, 1024, 32, 16, 65536, 65536},  /* 7.5 */
    {1024, 2048, 64, 32, 65536, 167936}, /* 8.0 */
    {1024, 1536, 48, 16, 65536, 102400}, /* 8.6 */
    {1024, 1536, 48, 24, 65536, 102400}, /* 8.9 */
    {1024, 2048, 64, 32, 65536, 233472}, /* 9.0 */
    {1024, 2048, 64, 32, 65536, 233472}, /* 10.0 */
    {1024, 1536, 48, 24, 65536, 102400}, /* 12.0 */
};
#define N_LIMITS ((int)(sizeof sm_limits / sizeof sm_limits[0]))

static void set_limits(gpu_t *g, const int *l) {
    g->max_threads_per_block = l[0];
    g->max_threads_per_sm = l[1];
    g->max_warps_per_sm = l[2];
    g->max_blocks_per_sm = l[3];
    g->regs_per_sm = l[4];
    g->smem_per_sm = l[5];
}

static double uni(wb_rng *r, double lo, double hi) {
    return lo + (hi - lo) * wb_rng_uniform(r);
}

/* A random GPU: a real SM's limits and random measured figures. */
static gpu_t random_gpu(wb_rng *r) {
    gpu_t g;
    memset(&g, 0, sizeof g);
    set_limits(&g, sm_limits[wb_rng_range(r, 0, N_LIMITS - 1)]);
    g.sm_count = (int)wb_rng_range(r, 1, 200);
    g.clock_ghz = uni(r, 0.5, 2.5);
    g.global_latency = uni(r, 100, 1000);
    g.shared_latency = uni(r, 10, 60);
    g.global_gbps = uni(r, 50, 8000);
    g.shared_bytes_per_cycle = uni(r, 16, 256);
    g.compute_cycles = uni(r, 0.125, 8);
    g.global_issue_cycles = wb_rng_range(r, 0, 1) ? g.compute_cycles : uni(r, 0.25, 8);
    g.shared_issue_cycles = wb_rng_range(r, 0, 1) ? g.compute_cycles : uni(r, 0.25, 8);
    return g;
}

static blk_t random_block(wb_rng *r) {
    blk_t b;
    b.compute = (int)wb_rng_range(r, 0, wb_rng_range(r, 0, 3) ? 40 : 400);
    b.global = (int)wb_rng_range(r, 0, 6);
    b.shared = (int)wb_rng_range(r, 0, 40);
    b.level = (int)wb_rng_range(r, 0, 2);
    b.bytes = b.level == LATENCY_HIDING_NONE ? 0 : 4 * (int)wb_rng_range(r, 0, 64);
    b.sync = wb_rng_range(r, 0, 9) < 3;
    return b;
}

/* A random kernel (nbb 1..12) into bb[0..11]; fits most of the time. */
static kern_t random_kernel(wb_rng *r, blk_t *bb) {
    kern_t k;
    int mult = (int)wb_rng_range(r, 0, 4);
    k.threads_per_block = mult ? 32 * (int)wb_rng_range(r, 1, 32) : (int)wb_rng_range(r, 1, 1024);
    k.regs_per_thread = wb_rng_range(r, 0, 7) ? (int)wb_rng_range(r, 8, 96) : 0;
    k.smem_per_block = wb_rng_range(r, 0, 1) ? (int)wb_rng_range(r, 0, 65536) : 0;
    k.blocks = wb_rng_range(r, 1, 1000000);
    k.nbb = (int)wb_rng_range(r, 1, 12);
    for (int i = 0; i < k.nbb; i++)
        bb[i] = random_block(r);
    k.bb = bb;
    return k;
}

static void fmt_kernel(char *buf, size_t cap, const kern_t *k) {
    snprintf(buf, cap, "%d threads/block, %d regs/thread, %d B shared/block, %lld blocks, NBB %d",
             k->threads_per_block, k->regs_per_thread, k->smem_per_block, k->blocks, k->nbb);
}

static void fmt_limits(char *buf, size_t cap, const gpu_t *g) {
    snprintf(buf, cap,
             "SM limits %d threads/block, %d threads, %d warps, %d blocks, %d regs, %d B shared",
             g->max_threads_per_block, g->max_threads_per_sm, g->max_warps_per_sm,
             g->max_blocks_per_sm, g->regs_per_sm, g->smem_per_sm);
}

/* ============================================================ host tests */

static void check_occupancy_one(wb_ctx *ctx, const gpu_t *g, const kern_t *k, const char *what) {
    __typeof__(&latency_hiding_tlp) tlp;
    __typeof__(&latency_hiding_blp) blp;
    WB_BIND(ctx, tlp, latency_hiding_tlp);
    WB_BIND(ctx, blp, latency_hiding_blp);
    int gt = tlp(g, k), gb = blp(g, k), wt = ref_tlp(g, k), wbb = ref_blp(g, k);
    if (gt != wt || gb != wbb) {
        char kb[200], lb[200];
        fmt_kernel(kb, sizeof kb, k);
        fmt_limits(lb, sizeof lb, g);
        wb_fail(ctx, "%s (%s; %s): TLP %d, BLP %d; expected TLP %d, BLP %d (%s)", what, kb, lb, gt,
                gb, wt, wbb, R_TLP);
    }
}

static void test_tlp_blp(wb_ctx *ctx) {
    gpu_t g;
    memset(&g, 0, sizeof g);
    /* The paper's Table 3 on the C1060: naive 8x8 and 16x16 (10 registers):
     * 8 and 4 blocks; CUBLAS 1.1 8x8 and 16x16 (13 registers, 560 and
     * 2096 bytes): 8 and 4. Then the limits of an H100 SM, one at a time. */
    static const struct {
        int lim, threads, regs, smem;
        const char *what;
    } named[] = {
        {0, 64, 10, 0, "the paper's naive 8x8 on the C1060"},
        {0, 256, 10, 0, "the paper's naive 16x16 on the C1060"},
        {0, 64, 13, 560, "the paper's CUBLAS 1.1 8x8 on the C1060"},
        {0, 256, 13, 2096, "the paper's CUBLAS 1.1 16x16 on the C1060"},
        {6, 256, 32, 0, "256 threads, 32 registers, sm_90"},
        {6, 64, 32, 0, "64 threads (the block limit), sm_90"},
        {6, 33, 16, 0, "33 threads (2 warps), sm_90"},
        {6, 256, 64, 0, "256 threads at 64 registers (the register limit), sm_90"},
        {6, 128, 0, 49152, "48 KB of shared memory per block, sm_90"},
        {6, 1024, 64, 0, "1024 threads at 64 registers: does not fit, sm_90"},
        {6, 128, 32, 300000, "more shared memory than an SM has, sm_90"},
        {0, 768, 8, 0, "768 threads, more than a C1060 block may have"},
        {2, 1024, 32, 0, "1024 threads on a 7.5 SM (1024 per SM)"},
        {4, 768, 40, 0, "768 threads at 40 registers, sm_86"},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
        set_limits(&g, sm_limits[named[i].lim]);
        g.sm_count = 30;
        kern_t k = {named[i].threads, named[i].regs, named[i].smem, 1000, 0, NULL};
        check_occupancy_one(ctx, &g, &k, named[i].what);
    }
    wb_rng r;
    wb_rng_seed(&r, wb_seed(ctx));
    blk_t bb[12];
    for (int c = 0; c < 20000; c++) {
        g = random_gpu(&r);
        kern_t k = random_kernel(&r, bb);
        check_occupancy_one(ctx, &g, &k, "a random kernel");
    }
    /* invalid arguments */
    __typeof__(&latency_hiding_tlp) tlp;
    __typeof__(&latency_hiding_blp) blp;
    WB_BIND(ctx, tlp, latency_hiding_tlp);
    WB_BIND(ctx, blp, latency_hiding_blp);
    set_limits(&g, sm_limits[6]);
    kern_t k = {0, 32, 0, 10, 0, NULL};
    if (tlp(&g, &k) != -1 || blp(&g, &k) != -1 || tlp(NULL, &k) != -1 || blp(&g, NULL) != -1)
        wb_fail(ctx, "TLP and BLP of a block of 0 threads, or of NULL, must be -1 (the contract)");
    wb_measured(ctx, "the paper's Table 3 occupancies, %d named cases, 20000 random kernels",
                (int)(sizeof named / sizeof named[0]));
}

static void test_rep_num(wb_ctx *ctx) {
    __typeof__(&latency_hiding_rep_num) rep;
    WB_BIND(ctx, rep, latency_hiding_rep_num);
    gpu_t g;
    memset(&g, 0, sizeof g);
    set_limits(&g, sm_limits[0]);
    g.sm_count = 30;
    /* the naive 16x16 multiply at WA = 1056 on the C1060: 66 x 66 blocks */
    kern_t k = {256, 10, 0, 66 * 66, 0, NULL};
    double got = rep(&g, &k), want = ref_rep(&g, &k);
    if (!close_to(got, want))
        wb_fail(ctx,
                "the naive 16x16 multiply at WA = 1056 on the C1060 (4356 blocks, BLP 4, 30 "
                "SMs): RepNum %.6g, expected %.6g, a real number (%s)",
                got, want, R_TLP);
    const double named = want;
    wb_rng r;
    wb_rng_seed(&r, wb_seed(ctx));
    blk_t bb[12];
    for (int c = 0; c < 20000; c++) {
        g = random_gpu(&r);
        k = random_kernel(&r, bb);
        if (wb_rng_range(&r, 0, 19) == 0)
            k.blocks = wb_rng_range(&r, -3, 0);
        got = rep(&g, &k);
        want = ref_rep(&g, &k);
        if (!close_to(got, want)) {
            char kb[200];
            fmt_kernel(kb, sizeof kb, &k);
            wb_fail(ctx, "%s on %d SMs (BLP %d): RepNum %.9g, expected %.9g (%s)", kb, g.sm_count,
                    ref_blp(&g, &k), got, want, want < 0 ? "-1 when it cannot run; " R_TLP : R_TLP);
        }
    }
    wb_measured(ctx, "the paper's naive 16x16 at WA = 1056 (%.2f rounds), 20000 random kernels",
                named);
}

static void test_ilp_mem(wb_ctx *ctx) {
    __typeof__(&latency_hiding_ilp) ilp;
    __typeof__(&latency_hiding_mem_la) mla;
    __typeof__(&latency_hiding_mem_bw) mbw;
    WB_BIND(ctx, ilp, latency_hiding_ilp);
    WB_BIND(ctx, mla, latency_hiding_mem_la);
    WB_BIND(ctx, mbw, latency_hiding_mem_bw);
    wb_rng r;
    wb_rng_seed(&r, wb_seed(ctx));
    for (int c = 0; c < 50000; c++) {
        gpu_t g = random_gpu(&r);
        blk_t b = random_block(&r);
        int bad = (int)wb_rng_range(&r, 0, 24);
        if (bad == 0)
            b.level = (int)wb_rng_range(&r, 3, 9);
        else if (bad == 1)
            b.bytes = -4;
        else if (bad == 2 && b.level == LATENCY_HIDING_NONE)
            b.bytes = 8;
        else if (bad == 3)
            g.global_latency = -1;
        else if (bad == 4)
            g.clock_ghz = 0;
        else if (bad == 5)
            g.shared_bytes_per_cycle = NAN;
        else if (bad == 6)
            b.compute = -1;
        else if (bad == 7)
            g.compute_cycles = INFINITY;
        double v[3] = {ilp(&g, &b), mla(&g, &b), mbw(&g, &b)};
        double want[3] = {ref_ilp(&g, &b), ref_la(&g, &b), ref_bw(&g, &b)};
        static const char *name[3] = {"ILP", "MemAccLa", "MemAccBw"};
        static const char *where[3] = {R_ILP, R_MEM, R_MEM};
        for (int q = 0; q < 3; q++)
            if (!close_to(v[q], want[q]))
                wb_fail(ctx,
                        "block {compute %d, global %d, shared %d, level %d, %d bytes}, "
                        "throughputs %.3g/%.3g/%.3g cycles, latencies %.1f/%.1f, %.1f GB/s at "
                        "%.2f GHz on %d SMs, shared %.1f B/cycle: %s %.9g, expected %.9g (%s)",
                        b.compute, b.global, b.shared, b.level, b.bytes, g.compute_cycles,
                        g.global_issue_cycles, g.shared_issue_cycles, g.global_latency,
                        g.shared_latency, g.global_gbps, g.clock_ghz, g.sm_count,
                        g.shared_bytes_per_cycle, name[q], v[q], want[q], where[q]);
    }
    wb_measured(ctx, "50000 random blocks and GPUs, invalid ones among them");
}

static void test_case(wb_ctx *ctx) {
    __typeof__(&latency_hiding_case) cs;
    WB_BIND(ctx, cs, latency_hiding_case);
    static const double v[][3] = {{50, 60, 40},    {60, 50, 40}, {20, 30, 40}, {20, 60, 40},
                                  {40, 40, 40},    {40, 39, 40}, {39, 40, 40}, {0, 0, 0},
                                  {0, 5, 0},       {5, 0, 7},    {-1, 5, 5},   {5, NAN, 5},
                                  {5, 5, INFINITY}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        int got = cs(v[i][0], v[i][1], v[i][2]), want = ref_case(v[i][0], v[i][1], v[i][2]);
        if (got != want)
            wb_fail(ctx,
                    "ILP_i %g, ILP_i+1 %g, MemAccBw_i %g: case %d, expected %d (%s; "
                    "\"at least\" is >=, and -1 for a negative or non-finite time)",
                    v[i][0], v[i][1], v[i][2], got, want, R_CON);
    }
    wb_rng r;
    wb_rng_seed(&r, wb_seed(ctx));
    for (int c = 0; c < 20000; c++) {
        double a = (double)wb_rng_range(&r, 0, 20), b = (double)wb_rng_range(&r, 0, 20),
               bw = (double)wb_rng_range(&r, 0, 20);
        if (cs(a, b, bw) != ref_case(a, b, bw))
            wb_fail(ctx, "ILP_i %g, ILP_i+1 %g, MemAccBw_i %g: case %d, expected %d (%s)", a, b, bw,
                    cs(a, b, bw), ref_case(a, b, bw), R_CON);
    }
    wb_measured(ctx, "13 named triples (every case, the boundaries, invalid ones), 20000 random");
}

/* Random factor arguments: integer-valued times so that boundaries (ILP_i
 * equal to MemAccBw_i) come up often. */
static void random_factor_args(wb_rng *r, double *a) {
    a[0] = (double)wb_rng_range(r, 0, 120);
    a[1] = (double)wb_rng_range(r, 0, 120);
    a[2] = wb_rng_range(r, 0, 9) ? (double)wb_rng_range(r, 0, 1000) : 0.0;
    a[3] = wb_rng_range(r, 0, 9) ? (double)wb_rng_range(r, 0, 150) : 0.0;
    a[4] = (double)wb_rng_range(r, 1, 16);
    a[5] = (double)wb_rng_range(r, 1, 16);
    long long w = (long long)a[4] * (long long)a[5];
    int pick = (int)wb_rng_range(r, 0, 5);
    a[6] = pick == 0 ? 1.0 : pick == 1 ? (double)w : (double)wb_rng_range(r, 1, w);
}

typedef double (*factor_fn)(double, double, double, double, int, int, int);

static void check_factor(wb_ctx *ctx, factor_fn f, int sync, const double *a, const char *what) {
    double got = f(a[0], a[1], a[2], a[3], (int)a[4], (int)a[5], (int)a[6]);
    double want = ref_factor(a[0], a[1], a[2], a[3], (int)a[4], (int)a[5], (int)a[6], sync, NULL);
    if (!close_to(got, want))
        wb_fail(ctx,
                "%s(ILP_i %g, ILP_i+1 %g, La %g, Bw %g, TLP %d, BLP %d, j %d) [%s, case %d]: "
                "%.9g, expected %.9g (%s)",
                sync ? "latency_hiding_syn" : "latency_hiding_con", a[0], a[1], a[2], a[3],
                (int)a[4], (int)a[5], (int)a[6], what, ref_case(a[0], a[1], a[3]), got, want,
                want < 0 ? "-1 for invalid arguments"
                : sync   ? R_SYN
                         : R_CON);
}

/* Named vectors: each case of section 2.3 (1 with ILP_i+1 >= ILP_i and
 * below, 2, 3, 4), the first and last warp, the clamp at 0, no memory. */
static const double named_factor[][7] = {
    {40, 60, 550, 20, 4, 2, 3}, {60, 40, 550, 20, 4, 2, 5},  {60, 10, 550, 20, 4, 2, 6},
    {10, 8, 550, 30, 8, 4, 17}, {10, 50, 550, 30, 8, 4, 17}, {20, 60, 500, 40, 4, 2, 6},
    {20, 60, 500, 40, 4, 2, 1}, {20, 60, 500, 40, 4, 2, 8},  {100, 100, 300, 10, 8, 8, 40},
    {4, 4, 0, 0, 2, 2, 3},      {12, 12, 550, 98, 8, 4, 32}, {0, 0, 36, 2, 1, 1, 1},
    {30, 30, 30, 30, 3, 5, 15}, {5, 7, 400, 2, 1, 8, 8},
};
#define N_NAMED_FACTOR ((int)(sizeof named_factor / sizeof named_factor[0]))

static void test_con(wb_ctx *ctx) {
    factor_fn con;
    WB_BIND(ctx, con, latency_hiding_con);
    int seen[5] = {0};
    for (int i = 0; i < N_NAMED_FACTOR; i++) {
        const double *a = named_factor[i];
        /* the grader's merged formula against each case's own formula */
        double merged =
            ref_factor(a[0], a[1], a[2], a[3], (int)a[4], (int)a[5], (int)a[6], 0, NULL);
        double own = ref_case_formula(a[0], a[1], a[2], a[3], (int)a[4], (int)a[5], (int)a[6]);
        if (!close_to(merged, own))
            wb_fail(ctx, "grader error: merged formula %.9g != case formula %.9g", merged, own);
        seen[ref_case(a[0], a[1], a[3])]++;
        check_factor(ctx, con, 0, a, "a named vector");
    }
    wb_rng r;
    wb_rng_seed(&r, wb_seed(ctx));
    double a[7];
    for (int c = 0; c < 200000; c++) {
        random_factor_args(&r, a);
        double merged =
            ref_factor(a[0], a[1], a[2], a[3], (int)a[4], (int)a[5], (int)a[6], 0, NULL);
        double own = ref_case_formula(a[0], a[1], a[2], a[3], (int)a[4], (int)a[5], (int)a[6]);
        if (!close_to(merged, own))
            wb_fail(ctx, "grader error: the merged formula %.9g differs from case %d's %.9g",
                    merged, ref_case(a[0], a[1], a[3]), own);
        seen[ref_case(a[0], a[1], a[3])]++;
        check_factor(ctx, con, 0, a, "a random vector");
    }
    static const double bad[][7] = {{-1, 5, 5, 5, 2, 2, 1}, {5, 5, 5, NAN, 2, 2, 1},
                                    {5, 5, 5, 5, 0, 2, 1},  {5, 5, 5, 5, 2, 2, 0},
                                    {5, 5, 5, 5, 2, 2, 5},  {5, 5, INFINITY, 5, 2, 2, 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        check_factor(ctx, con, 0, bad[i], "invalid arguments");
    if (!seen[1] || !seen[2] || !seen[3] || !seen[4])
        wb_fail(ctx, "grader error: a case was not reached");
    wb_measured(ctx, "cases 1/2/3/4 reached %d/%d/%d/%d times, the clamp at 0, invalid arguments",
                seen[1], seen[2], seen[3], seen[4]);
}

static void test_syn(wb_ctx *ctx) {
    factor_fn syn;
    WB_BIND(ctx, syn, latency_hiding_syn);
    for (int i = 0; i < N_NAMED_FACTOR; i++)
        check_factor(ctx, syn, 1, named_factor[i], "a named vector");
    wb_rng r;
    wb_rng_seed(&r, wb_seed(ctx));
    double a[7];
    int seen[5] = {0};
    for (int c = 0; c < 200000; c++) {
        random_factor_args(&r, a);
        seen[ref_case(a[0], a[1], a[3])]++;
        check_factor(ctx, syn, 1, a, "a random vector");
        if (c % 8 == 0) { /* one warp per thread block: nothing to wait for but itself */
            a[4] = 1;
            a[6] = (double)wb_rng_range(&r, 1, (int64_t)a[5]);
            double s = syn(a[0], a[1], a[2], a[3], 1, (int)a[5], (int)a[6]);
            double k = ref_factor(a[0], a[1], a[2], a[3], 1, (int)a[5], (int)a[6], 0, NULL);
            if (!close_to(s, k))
                wb_fail(ctx,
                        "with one warp per block (NT = 1) Syn must equal Con: Syn %.9g, Con "
                        "%.9g for ILP_i %g, ILP_i+1 %g, La %g, Bw %g, BLP %d, j %d (%s)",
                        s, k, a[0], a[1], a[2], a[3], (int)a[5], (int)a[6], R_SYN);
        }
    }
    static const double bad[][7] = {{5, 5, 5, 5, 2, 0, 1}, {5, -2, 5, 5, 2, 2, 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        check_factor(ctx, syn, 1, bad[i], "invalid arguments");
    wb_measured(ctx, "cases 1/2/3/4 reached %d/%d/%d/%d times with a barrier; NT = 1 equals Con",
                seen[1], seen[2], seen[3], seen[4]);
}

static int count_sync(const kern_t *k) {
    int n = 0;
    for (int i = 0; i < k->nbb; i++)
        n += k->bb[i].sync != 0;
    return n;
}

/* TimeOneRep on random kernels and GPUs, one of the two sums; counts the
 * (case, barrier) pairs the vectors reached in seen[2][5]. */
static void check_times(wb_ctx *ctx, latency_hiding_sum how, int total, int seen[2][5]) {
    __typeof__(&latency_hiding_time_one_rep) one;
    __typeof__(&latency_hiding_time_total) tot;
    WB_BIND(ctx, one, latency_hiding_time_one_rep);
    WB_BIND(ctx, tot, latency_hiding_time_total);
    wb_rng r;
    wb_rng_seed(&r, wb_seed(ctx) ^ (uint64_t)how);
    blk_t bb[12];
    for (int c = 0; c < 3000; c++) {
        gpu_t g = random_gpu(&r);
        kern_t k = random_kernel(&r, bb);
        if (c % 50 == 7)
            bb[0].sync = 2; /* invalid */
        double got = total ? tot(&g, &k, how) : one(&g, &k, how);
        double want = total ? ref_total(&g, &k, how) : ref_one_rep(&g, &k, how);
        for (int i = 0; i < k.nbb && want >= 0; i++) {
            double bw = ref_bw(&g, &bb[i]);
            int cs = ref_case(ref_ilp(&g, &bb[i]), ref_ilp(&g, &bb[(i + 1) % k.nbb]), bw);
            if (cs > 0 && ref_la(&g, &bb[i]) + bw > 0)
                seen[bb[i].sync][cs]++;
        }
        if (!close_to(got, want)) {
            char kb[200];
            fmt_kernel(kb, sizeof kb, &k);
            wb_fail(ctx,
                    "%s (%s), TLP %d, BLP %d, %d barrier blocks: %s %.9g cycles, expected "
                    "%.9g (%s)",
                    kb, how == LATENCY_HIDING_PRINTED ? "printed sum" : "overlapped",
                    ref_tlp(&g, &k), ref_blp(&g, &k), count_sync(&k),
                    total ? "TimeTotal" : "TimeOneRep", got, want,
                    want < 0 ? "-1 when invalid or when it cannot run; " R_TIME : R_TIME);
        }
    }
    latency_hiding_sum bad_how = (latency_hiding_sum)7;
    kern_t k = random_kernel(&r, bb);
    gpu_t g = random_gpu(&r);
    if ((total ? tot(&g, &k, bad_how) : one(&g, &k, bad_how)) != -1.0)
        wb_fail(ctx, "an unknown `how` must give -1 (the contract)");
}

static void test_time_one_rep(wb_ctx *ctx, latency_hiding_sum how) {
    int seen[2][5] = {{0}};
    check_times(ctx, how, 0, seen);
    for (int s = 0; s < 2; s++)
        for (int c = 1; c <= 4; c++)
            if (!seen[s][c])
                wb_fail(ctx, "grader error: case %d %s a barrier not reached", c,
                        s ? "with" : "without");
    wb_measured(ctx,
                "3000 random kernels; blocks in cases 1/2/3/4: %d/%d/%d/%d without a barrier, "
                "%d/%d/%d/%d with one",
                seen[0][1], seen[0][2], seen[0][3], seen[0][4], seen[1][1], seen[1][2], seen[1][3],
                seen[1][4]);
}

static void test_time_printed(wb_ctx *ctx) {
    test_time_one_rep(ctx, LATENCY_HIDING_PRINTED);
}

static void test_time_overlapped(wb_ctx *ctx) {
    test_time_one_rep(ctx, LATENCY_HIDING_OVERLAPPED);
}

static void test_time_total(wb_ctx *ctx) {
    int seen[2][5] = {{0}};
    check_times(ctx, LATENCY_HIDING_PRINTED, 1, seen);
    check_times(ctx, LATENCY_HIDING_OVERLAPPED, 1, seen);
    wb_measured(ctx, "6000 random kernels, both sums, including ones that cannot run");
}

/* ------------------------------------------------------ the descriptions */

typedef struct mm_expect {
    long long global_instr, global_bytes, shared_instr, shared_bytes;
    int sync_blocks, min_compute, min_global_waits, threads, smem;
    long long blocks;
} mm_expect;

static mm_expect expect_naive(int n, int bs) {
    mm_expect e = {2LL * n + 1, 4LL * (2 * n + 1), 0, 0, 0, n, n, bs * bs, 0, 0};
    e.blocks = (long long)(n / bs) * (n / bs);
    return e;
}

static mm_expect expect_tiled(int n, int bs) {
    int t = n / bs;
    mm_expect e = {2LL * t + 1,
                   4LL * (2 * t + 1),
                   2LL * t + 2LL * n,
                   4LL * (2 * t + 2 * n),
                   2 * t,
                   n + 2 * t,
                   t,
                   bs * bs,
                   2 * bs * bs * 4,
                   0};
    e.blocks = (long long)t * t;
    return e;
}

static void check_description(wb_ctx *ctx, int tiled, int n, int bs) {
    __typeof__(&latency_hiding_describe_naive) desc;
    if (tiled)
        WB_BIND(ctx, desc, latency_hiding_describe_tiled);
    else
        WB_BIND(ctx, desc, latency_hiding_describe_naive);
    const char *name = tiled ? "tiled" : "naive";
    int cap = 2 * n + 64, regs = 20 + n % 13;
    blk_t *bb = (blk_t *)malloc((size_t)cap * sizeof(blk_t));
    if (!bb)
        wb_fail(ctx, "out of host memory");
    memset(bb, 0xA5, (size_t)cap * sizeof(blk_t));
    kern_t k;
    memset(&k, 0xA5, sizeof k);
    int nbb = desc(n, bs, regs, &k, bb, cap);
    mm_expect e = tiled ? expect_tiled(n, bs) : expect_naive(n, bs);
    if (nbb < 1 || nbb > cap || k.nbb != nbb || k.bb != bb)
        wb_fail(ctx,
                "describe_%s(n %d, bs %d): returned %d with k->nbb %d; expected the number of "
                "basic blocks (1..%d), equal to k->nbb, and k->bb pointing to bb (%s)",
                name, n, bs, nbb, k.nbb, cap, R_MM);
    if (k.threads_per_block != e.threads || k.regs_per_thread != regs ||
        k.smem_per_block != e.smem || k.blocks != e.blocks)
        wb_fail(ctx,
                "describe_%s(n %d, bs %d, regs %d): launch %d threads, %d regs, %d B shared, "
                "%lld blocks; expected %d, %d, %d, %lld (%s)",
                name, n, bs, regs, k.threads_per_block, k.regs_per_thread, k.smem_per_block,
                k.blocks, e.threads, regs, e.smem, e.blocks, R_MM);
    long long gi = 0, gb = 0, si = 0, sb = 0, comp = 0;
    int syncs = 0, gwaits = 0;
    for (int i = 0; i < nbb; i++) {
        const blk_t *b = &bb[i];
        if (b->compute < 0 || b->global < 0 || b->shared < 0 || b->level < 0 || b->level > 2 ||
            b->bytes < 0 || (b->sync != 0 && b->sync != 1) ||
            (b->level == LATENCY_HIDING_NONE && b->bytes) ||
            (b->global && b->level != LATENCY_HIDING_GLOBAL) ||
            (b->shared && b->level != LATENCY_HIDING_SHARED))
            wb_fail(ctx,
                    "describe_%s(n %d, bs %d): block %d {compute %d, global %d, shared %d, "
                    "level %d, %d bytes, sync %d} is not valid: one level per block, the "
                    "block's memory instructions all at that level (%s)",
                    name, n, bs, i, b->compute, b->global, b->shared, b->level, b->bytes, b->sync,
                    R_MM);
        gi += b->global;
        si += b->shared;
        comp += b->compute;
        syncs += b->sync;
        if (b->level == LATENCY_HIDING_GLOBAL) {
            gb += b->bytes;
            gwaits++;
        } else if (b->level == LATENCY_HIDING_SHARED) {
            sb += b->bytes;
        }
    }
    struct {
        const char *what;
        long long got, want;
        int at_least;
    } c[] = {
        {"global load/store instructions", gi, e.global_instr, 0},
        {"bytes per thread at global level", gb, e.global_bytes, 0},
        {"shared load/store instructions", si, e.shared_instr, 0},
        {"bytes per thread at shared level", sb, e.shared_bytes, 0},
        {"blocks ending in a barrier", syncs, e.sync_blocks, 0},
        {"compute instructions (an FMA per step, barriers)", comp, e.min_compute, 1},
        {"blocks waiting on global memory", gwaits, e.min_global_waits, 1},
    };
    for (size_t q = 0; q < sizeof c / sizeof c[0]; q++)
        if (c[q].at_least ? c[q].got < c[q].want : c[q].got != c[q].want)
            wb_fail(ctx, "describe_%s(n %d, bs %d): %lld %s in all; expected %s%lld (%s)", name, n,
                    bs, c[q].got, c[q].what, c[q].at_least ? "at least " : "", c[q].want, R_MM);
    /* the grader's model must be able to run it on an H100-like SM */
    gpu_t g;
    memset(&g, 0, sizeof g);
    set_limits(&g, sm_limits[6]);
    g.sm_count = 132;
    g.clock_ghz = 1.98;
    g.global_latency = 800;
    g.shared_latency = 30;
    g.global_gbps = 3000;
    g.shared_bytes_per_cycle = 128;
    g.compute_cycles = g.global_issue_cycles = g.shared_issue_cycles = 0.25;
    if (!(ref_total(&g, &k, LATENCY_HIDING_OVERLAPPED) > 0))
        wb_fail(ctx, "describe_%s(n %d, bs %d): the model cannot run this description (%s)", name,
                n, bs, R_MM);
    /* Room for one block too few: -1, and nothing written past that room.
     * The grader's array is longer, and its rest is poisoned (a guard zone):
     * a description that writes its blocks first and compares with cap
     * afterwards returns -1 too, having written past the caller's array. */
    size_t past_bytes = (size_t)(cap - nbb + 1) * sizeof(blk_t);
    memset(bb + nbb - 1, 0xA5, past_bytes);
    if (desc(n, bs, regs, &k, bb, nbb - 1) != -1)
        wb_fail(ctx, "describe_%s(n %d, bs %d) with room for %d blocks (one too few): expected -1",
                name, n, bs, nbb - 1);
    const unsigned char *past = (const unsigned char *)(bb + nbb - 1);
    for (size_t q = 0; q < past_bytes; q++)
        if (past[q] != 0xA5)
            wb_fail(ctx,
                    "describe_%s(n %d, bs %d) with room for %d blocks (cap %d) returned -1 but "
                    "wrote block %zu, past the room it was given: expected nothing written "
                    "beyond bb[cap - 1]; compare with cap before writing (latency_hiding.h; %s)",
                    name, n, bs, nbb - 1, nbb - 1, (size_t)(nbb - 1) + q / sizeof(blk_t), R_MM);
    if (desc(n + 1, bs, regs, &k, bb, cap) != -1 || desc(n, 0, regs, &k, bb, cap) != -1)
        wb_fail(ctx, "describe_%s with n not a multiple of bs, or bs 0: expected -1", name);
    free(bb);
}

static void test_describe(wb_ctx *ctx, int tiled) {
    static const int cases[][2] = {{8, 8},    {16, 16}, {64, 8},    {256, 16},
                                   {272, 16}, {512, 8}, {1024, 16}, {2048, 16}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_description(ctx, tiled, cases[i][0], cases[i][1]);
    wb_measured(ctx, "8 sizes from 8 to 2048, bs 8 and 16: launch and totals right");
}

static void test_describe_naive(wb_ctx *ctx) {
    test_describe(ctx, 0);
}

static void test_describe_tiled(wb_ctx *ctx) {
    test_describe(ctx, 1);
}

/* ====================================================== GPU: parameters */

/* The tolerances of the measure tests against the grader's own figures,
 * each against the nearest wrong figure (README.md, "Why the limits hold on
 * every GPU"; the figures are the .limit of each row of the table):
 * - TOL_CHASE, both chases and the clock: two honest global chases differ
 *   by about 10 % (L2 hits over 4 against 8 x the L2), two shared chases by
 *   one integer instruction in a hop of 20-30 cycles, the clock (cycles over
 *   ns of the same loop) by under 1 %. A chase in a cache is 2x or more off
 *   (the L2 at about 0.4 of DRAM's latency); a figure in the wrong unit is
 *   off by the clock in GHz, outside unless the SMs run at 0.77-1.3 GHz;
 *   a clock in MHz is 1000x off, one in ns per cycle off by its square.
 * - TOL_GBPS: kernel shapes differ by 10-20 %; bits are 8x, bytes read and
 *   written 2x; a buffer in the L2 meets the 1.1 x peak cap. GiB/s (0.93x)
 *   is inside: no bandwidth band can tell it from a slower kernel.
 * - TOL_SMEM: the reference is within 1 %, but a rolled loop may be
 *   integer-bound on 7.5-9.0 (about 11 % low, estimated), so a barrier in
 *   every lap (16 % low on the H100) cannot be failed with margin and
 *   passes; a 2-way bank conflict is 0.5x, bytes per GPU are x SMs, bytes
 *   per ns x the clock in GHz.
 * - TOL_FMA: a rolled loop costs about 14 %; 1 FLOP per FMA is 0.5x; FMAs
 *   that never ran exceed the 1.1 x peak cap. */
#define TOL_CHASE 0.30 /* both chases */
/* The SM count the sanitizers' runs of the shared bandwidth show (test_shared_bw). */
#define TOOL_SMS 8
/* The SMs the shared bandwidth is measured on a second time, the GPU
 * restricted to them and the runtime showing that many (test_shared_bw). */
#define SMALL_SMS 16
#define TOL_GBPS 0.25
#define TOL_SMEM 0.30
/* correct.fill_gpu's band for the shared bandwidth it filled: a second,
 * single measurement that checks the figure reached the struct in its unit
 * (bytes per GPU miss by the SM count, bytes per ns by the clock in GHz);
 * kept apart from TOL_SMEM so that tightening that one cannot let one noisy
 * sample here fail fill_gpu and, through it, predict.rank. */
#define TOL_SMEM_FILL 0.30
#define TOL_FMA 0.20

static void check_near(wb_ctx *ctx, const char *what, double got, double ref, double tol,
                       const char *unit, const char *where) {
    double ratio = ref > 0 ? got / ref : INFINITY;
    if (fabs(ratio - 1.0) <= tol)
        return;
    /* Nothing measured (0, negative, not a number) fails whatever the load. */
    if (got > 0 && isfinite(got))
        wb_rerun_if_shared(ctx, "%s: yours %.4g %s, the grader's %.4g %s (need within +-%.0f%%)",
                           what, got, unit, ref, unit, tol * 100);
    wb_fail(ctx, "%s: yours %.4g %s, the grader's %.4g %s (ratio %.2f), need within +-%.0f%% (%s)",
            what, got, unit, ref, unit, ratio, tol * 100, where);
}

static void test_chase_global(wb_ctx *ctx) {
    __typeof__(&latency_hiding_chase_global) chase;
    WB_BIND(ctx, chase, latency_hiding_chase_global);
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    latency_hiding_chase s;
    memset(&s, 0, sizeof s);
    int e = chase(&s);
    if (e != cudaSuccess)
        wb_fail(ctx, "latency_hiding_chase_global returned %s", cudaGetErrorName((cudaError_t)e));
    if (wb_under_tool(ctx))
        return; /* a sanitizer's run: the accesses are what it checks, not the figures */
    if (chase(NULL) != cudaErrorInvalidValue)
        wb_fail(ctx, "latency_hiding_chase_global(NULL) must return cudaErrorInvalidValue");
    double c = 0, ns = 0;
    size_t bytes = 0;
    WB_CUDA(ctx, lh_ref_chase_global(&c, &ns, &bytes));
    wb_record(ctx, "global_latency_cycles", s.cycles_per_hop, "cycles", c, "in");
    wb_record(ctx, "global_latency_ns", s.ns_per_hop, "ns", ns, "in");
    wb_measured(ctx,
                "%.0f cycles = %.0f ns per hop over %.0f MB, %lld hops; the grader's %.0f cycles "
                "= %.0f ns over %.0f MB (within +-%.0f%%)",
                s.cycles_per_hop, s.ns_per_hop, s.footprint_bytes / 1e6, s.hops, c, ns, bytes / 1e6,
                TOL_CHASE * 100);
    if (s.hops < 100000)
        wb_fail(ctx, "%lld hops timed; need at least 100,000 (%s)", s.hops, R_CHASE);
    if (s.footprint_bytes < 4 * gpu->l2_bytes)
        wb_fail(ctx,
                "the permutation spans %.1f MB; need at least 4 x the L2 (%.1f MB), or it "
                "measures the cache, not the memory (%s)",
                s.footprint_bytes / 1e6, 4.0 * gpu->l2_bytes / 1e6, R_CHASE);
    check_near(ctx, "global latency in cycles (clock64)", s.cycles_per_hop, c, TOL_CHASE, "cycles",
               R_CHASE);
    check_near(ctx, "global latency in ns (%globaltimer)", s.ns_per_hop, ns, TOL_CHASE, "ns",
               R_CHASE);
}

static void test_chase_shared(wb_ctx *ctx) {
    __typeof__(&latency_hiding_chase_shared) chase;
    WB_BIND(ctx, chase, latency_hiding_chase_shared);
    latency_hiding_chase s;
    memset(&s, 0, sizeof s);
    int e = chase(&s);
    if (e != cudaSuccess)
        wb_fail(ctx, "latency_hiding_chase_shared returned %s", cudaGetErrorName((cudaError_t)e));
    if (wb_under_tool(ctx))
        return; /* a sanitizer's run: the accesses are what it checks, not the figures */
    double c = 0, ns = 0;
    WB_CUDA(ctx, lh_ref_chase_shared(&c, &ns));
    wb_record(ctx, "shared_latency_cycles", s.cycles_per_hop, "cycles", c, "in");
    wb_record(ctx, "shared_latency_ns", s.ns_per_hop, "ns", ns, "in");
    wb_measured(ctx,
                "%.1f cycles = %.1f ns per hop over %zu B, %lld hops; the grader's %.1f cycles = "
                "%.1f ns (within +-%.0f%%)",
                s.cycles_per_hop, s.ns_per_hop, s.footprint_bytes, s.hops, c, ns, TOL_CHASE * 100);
    if (s.hops < 100000)
        wb_fail(ctx, "%lld hops timed; need at least 100,000 (%s)", s.hops, R_CHASE);
    if (s.footprint_bytes < 4096 || s.footprint_bytes > 49152)
        wb_fail(ctx, "the permutation spans %zu bytes; need 4 KB to 48 KB of shared memory (%s)",
                s.footprint_bytes, R_CHASE);
    check_near(ctx, "shared latency in cycles (clock64)", s.cycles_per_hop, c, TOL_CHASE, "cycles",
               R_CHASE);
    check_near(ctx, "shared latency in ns (%globaltimer)", s.ns_per_hop, ns, TOL_CHASE, "ns",
               R_CHASE);
}

static void test_global_bw(wb_ctx *ctx) {
    __typeof__(&latency_hiding_global_gbps) bw;
    WB_BIND(ctx, bw, latency_hiding_global_gbps);
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    double got = 0, ref = 0;
    int e = bw(&got);
    if (e != cudaSuccess)
        wb_fail(ctx, "latency_hiding_global_gbps returned %s", cudaGetErrorName((cudaError_t)e));
    WB_CUDA(ctx, lh_ref_read_gbps(&ref));
    wb_record(ctx, "global_gbps", got, "GB/s", ref, "in");
    wb_measured(ctx, "%.0f GB/s read; the grader's %.0f GB/s, peak %.0f GB/s (within +-%.0f%%)",
                got, ref, gpu->peak_dram_gbps, TOL_GBPS * 100);
    if (gpu->peak_dram_gbps > 0 && got > 1.1 * gpu->peak_dram_gbps)
        wb_fail(ctx,
                "%.0f GB/s is more than the GPU's peak DRAM bandwidth (%.0f GB/s): the buffer "
                "must be larger than the L2, and every byte counted read (%s)",
                got, gpu->peak_dram_gbps, R_BW);
    check_near(ctx, "global bandwidth", got, ref, TOL_GBPS, "GB/s", R_BW);
}

static void test_shared_bw(wb_ctx *ctx) {
    __typeof__(&latency_hiding_shared_bytes_per_cycle) bw;
    WB_BIND(ctx, bw, latency_hiding_shared_bytes_per_cycle);
    double got = 0, ref = 0;
    /* A sanitizer's run shows the student's code at most TOOL_SMS SMs: one
     * block per SM of a large GPU under racecheck takes over half a minute
     * (132 SMs), a few take a second, and the tool checks every block's
     * shared-memory accesses alike. */
    if (wb_under_tool(ctx))
        wb_sim_show_sms(TOOL_SMS);
    int e = bw(&got);
    if (e != cudaSuccess)
        wb_fail(ctx, "latency_hiding_shared_bytes_per_cycle returned %s",
                cudaGetErrorName((cudaError_t)e));
    if (wb_under_tool(ctx))
        return; /* a sanitizer's run: the accesses are what it checks, not the figures */
    WB_CUDA(ctx, lh_ref_shared_bytes_per_cycle(&ref));
    wb_record(ctx, "shared_bytes_per_cycle", got, "B/cycle", ref, "in");
    wb_measured(ctx, "%.1f bytes per cycle per SM; the grader's %.1f (within +-%.0f%%)", got, ref,
                TOL_SMEM * 100);
    check_near(ctx, "shared bandwidth per SM", got, ref, TOL_SMEM, "B/cycle", R_BW);
    /* Once more on a smaller GPU: this one restricted to SMALL_SMS SMs (a
     * green context) and the runtime showing that many. A figure per SM
     * must not change. Code that sizes its grid by an SM count typed in
     * (the grading GPU's) puts two 1,024-thread blocks on each SM of the
     * smaller GPU where they fit (2,048 threads per SM), and each then
     * times half the SM's bandwidth: on a GPU of fewer SMs than the one it
     * was typed from, its figure would be half. Where the GPU cannot be
     * restricted (no green contexts, or no more SMs than SMALL_SMS), the
     * measured line says so and this part is not graded. */
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    char why[256] = "";
    int small_sms = 0;
    double small = 0;
    if (gpu->sm_count <= SMALL_SMS)
        snprintf(why, sizeof why, "this GPU has no more than %d SMs", SMALL_SMS);
    else if (wb_green_restrict(gpu->index, SMALL_SMS, &small_sms, why, sizeof why) == 0 &&
             small_sms >= gpu->sm_count)
        snprintf(why, sizeof why, "the driver gave all %d SMs", small_sms);
    if (why[0]) {
        wb_measured(ctx,
                    "%.1f bytes per cycle per SM; the grader's %.1f (within +-%.0f%%); not measured "
                    "again on fewer SMs (%s)",
                    got, ref, TOL_SMEM * 100, why);
        return;
    }
    wb_sim_show_sms(small_sms);
    e = bw(&small);
    wb_sim_show_sms(0);
    wb_measured(ctx,
                "%.1f bytes per cycle per SM, %.1f with the GPU restricted to %d SMs; the grader's "
                "%.1f (within +-%.0f%%)",
                got, small, small_sms, ref, TOL_SMEM * 100);
    if (e != cudaSuccess)
        wb_fail(ctx,
                "latency_hiding_shared_bytes_per_cycle returned %s with the GPU restricted to %d "
                "SMs (and the runtime saying so)",
                cudaGetErrorName((cudaError_t)e), small_sms);
    char what[96];
    snprintf(what, sizeof what, "shared bandwidth per SM on a GPU of %d SMs", small_sms);
    check_near(ctx, what, small, ref, TOL_SMEM, "B/cycle",
               "the grid from the SM count the runtime reports, one block per SM; " R_BW);
}

static void test_fma(wb_ctx *ctx) {
    __typeof__(&latency_hiding_fma_gflops) fma;
    WB_BIND(ctx, fma, latency_hiding_fma_gflops);
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    double got = 0;
    int e = fma(&got);
    if (e != cudaSuccess)
        wb_fail(ctx, "latency_hiding_fma_gflops returned %s", cudaGetErrorName((cudaError_t)e));
    wb_ceiling c;
    WB_CUDA(ctx, wb_measure_fma_gflops(&c));
    wb_record(ctx, "fma_gflops", got, "GFLOP/s", c.value, "in");
    wb_measured(ctx, "%.0f GFLOP/s; the grader's %.0f, peak %.0f (within +-%.0f%%)", got, c.value,
                gpu->peak_fp32_gflops, TOL_FMA * 100);
    if (gpu->peak_fp32_gflops > 0 && got > 1.1 * gpu->peak_fp32_gflops)
        wb_fail(ctx,
                "%.0f GFLOP/s is more than the GPU's peak (%.0f): count 2 FLOP per FMA, "
                "and only FMAs that ran (%s)",
                got, gpu->peak_fp32_gflops, R_BW);
    check_near(ctx, "FMA throughput", got, c.value, TOL_FMA, "GFLOP/s", R_BW);
}

/* The grader's own figures, as a latency_hiding_gpu; *gflops gets its FMA
 * rate, the figure compute_cycles is derived from. */
static void grader_gpu(wb_ctx *ctx, gpu_t *g, double *gflops) {
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    int v[4];
    WB_CUDA(ctx, cudaDeviceGetAttribute(&v[0], cudaDevAttrMaxThreadsPerBlock, gpu->index));
    WB_CUDA(ctx, cudaDeviceGetAttribute(&v[1], cudaDevAttrMaxBlocksPerMultiprocessor, gpu->index));
    WB_CUDA(ctx,
            cudaDeviceGetAttribute(&v[2], cudaDevAttrMaxRegistersPerMultiprocessor, gpu->index));
    WB_CUDA(ctx,
            cudaDeviceGetAttribute(&v[3], cudaDevAttrMaxSharedMemoryPerMultiprocessor, gpu->index));
    memset(g, 0, sizeof *g);
    g->sm_count = gpu->sm_count;
    g->max_threads_per_block = v[0];
    g->max_threads_per_sm = gpu->max_threads_per_sm;
    g->max_warps_per_sm = gpu->max_threads_per_sm / W;
    g->max_blocks_per_sm = v[1];
    g->regs_per_sm = v[2];
    g->smem_per_sm = v[3];
    double c, ns, sc, sns;
    size_t bytes;
    WB_CUDA(ctx, lh_ref_chase_global(&c, &ns, &bytes));
    WB_CUDA(ctx, lh_ref_chase_shared(&sc, &sns));
    WB_CUDA(ctx, lh_ref_read_gbps(&g->global_gbps));
    WB_CUDA(ctx, lh_ref_shared_bytes_per_cycle(&g->shared_bytes_per_cycle));
    wb_ceiling f;
    WB_CUDA(ctx, wb_measure_fma_gflops(&f));
    g->clock_ghz = c / ns;
    g->global_latency = c;
    g->shared_latency = sc;
    g->compute_cycles = 64.0 * g->sm_count * g->clock_ghz / f.value;
    g->global_issue_cycles = g->shared_issue_cycles = g->compute_cycles;
    *gflops = f.value;
}

/* compute_cycles is ThreadsPerWarp / CoresPerSM = 64 x sm_count x
 * clock_ghz / GFLOP/s (2 FLOP per FMA). Read back with the struct's own SM
 * count and clock, it gives the FMA rate the student's fill used, which
 * must be within TOL_FMA of the grader's, as measure.fma asks of the same
 * benchmark (the reference is 2.5-3 % below it). A factor 2 anywhere in
 * the formula (an FMA counted as one FLOP: 32 for 64) puts it at 0.5x or
 * 2x, outside on every GPU. Compared as cycles instead, within the clock's
 * and the FMA rate's bands added (+-50 %), 0.5x would sit on the edge. */
static void check_compute_cycles(wb_ctx *ctx, const gpu_t *s, double grader_gflops) {
    double implied = s->compute_cycles > 0 && isfinite(s->compute_cycles)
                         ? 64.0 * s->sm_count * s->clock_ghz / s->compute_cycles
                         : 0.0;
    check_near(ctx,
               "the FMA rate compute_cycles stands for (64 x sm_count x clock_ghz / "
               "compute_cycles: 32 threads per warp over FMAs per cycle per SM, 2 FLOP per FMA)",
               implied, grader_gflops, TOL_FMA, "GFLOP/s", R_FILL);
}

static void test_fill_gpu(wb_ctx *ctx) {
    __typeof__(&latency_hiding_fill_gpu) fill;
    WB_BIND(ctx, fill, latency_hiding_fill_gpu);
    gpu_t s, r;
    double gflops;
    memset(&s, 0xA5, sizeof s);
    int e = fill(&s);
    if (e != cudaSuccess)
        wb_fail(ctx, "latency_hiding_fill_gpu returned %s", cudaGetErrorName((cudaError_t)e));
    grader_gpu(ctx, &r, &gflops);
    struct {
        const char *f;
        int got, want;
    } ints[] = {{"sm_count", s.sm_count, r.sm_count},
                {"max_threads_per_block", s.max_threads_per_block, r.max_threads_per_block},
                {"max_threads_per_sm", s.max_threads_per_sm, r.max_threads_per_sm},
                {"max_warps_per_sm", s.max_warps_per_sm, r.max_warps_per_sm},
                {"max_blocks_per_sm", s.max_blocks_per_sm, r.max_blocks_per_sm},
                {"regs_per_sm", s.regs_per_sm, r.regs_per_sm},
                {"smem_per_sm", s.smem_per_sm, r.smem_per_sm}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (ints[i].got != ints[i].want)
            wb_fail(ctx, "%s: %d, expected %d from the runtime (%s)", ints[i].f, ints[i].got,
                    ints[i].want, R_FILL);
    check_near(ctx, "clock_ghz (cycles per ns of the global chase)", s.clock_ghz, r.clock_ghz,
               TOL_CHASE, "GHz", R_FILL);
    check_near(ctx, "global_latency", s.global_latency, r.global_latency, TOL_CHASE, "cycles",
               R_FILL);
    check_near(ctx, "shared_latency", s.shared_latency, r.shared_latency, TOL_CHASE, "cycles",
               R_FILL);
    check_near(ctx, "global_gbps", s.global_gbps, r.global_gbps, TOL_GBPS, "GB/s", R_FILL);
    check_near(ctx, "shared_bytes_per_cycle", s.shared_bytes_per_cycle, r.shared_bytes_per_cycle,
               TOL_SMEM_FILL, "B/cycle", R_FILL);
    check_compute_cycles(ctx, &s, gflops);
    if (!close_to(s.global_issue_cycles, s.compute_cycles) ||
        !close_to(s.shared_issue_cycles, s.compute_cycles))
        wb_fail(ctx,
                "global_issue_cycles %.4g and shared_issue_cycles %.4g must equal "
                "compute_cycles %.4g (the paper's general rule; %s)",
                s.global_issue_cycles, s.shared_issue_cycles, s.compute_cycles, R_FILL);
    wb_record(ctx, "clock_ghz", s.clock_ghz, "GHz", r.clock_ghz, "in");
    wb_record(ctx, "compute_cycles", s.compute_cycles, "cycles", r.compute_cycles, "in");
    wb_measured(ctx,
                "%d SMs at %.2f GHz; La %.0f/%.1f cycles, %.0f GB/s, %.0f B/cycle shared, "
                "%.3f cycles per warp instruction",
                s.sm_count, s.clock_ghz, s.global_latency, s.shared_latency, s.global_gbps,
                s.shared_bytes_per_cycle, s.compute_cycles);
}

/* ================================================ GPU: prediction vs measured */

/* The pairs ranked are the sizes of each of the four kernels and the naive
 * and tiled 16x16 kernels at each size; a pair whose measured times differ
 * by at least this factor must be predicted in the same order (why 1.3x:
 * the .limit of predict.rank). The tiled kernel is 1.0-2x faster than the
 * naive one on H100-class GPUs, whose L1 serves most of the naive kernel's
 * loads, which the model predicts 5-10x too slow. */
#define RANK_MIN_RATIO 1.3
#define N_SIZES 4
static const int mm_sizes[N_SIZES] = {256, 512, 1024, 2048};

typedef struct mm_cfg {
    int tiled, bs, n;
    double measured_ms, predicted_ms;
} mm_cfg;

static const char *cfg_name(const mm_cfg *c, char *buf, size_t cap) {
    snprintf(buf, cap, "%s %dx%d n=%d", c->tiled ? "tiled" : "naive", c->bs, c->bs, c->n);
    return buf;
}

static void test_predict(wb_ctx *ctx) {
    __typeof__(&latency_hiding_fill_gpu) fill;
    __typeof__(&latency_hiding_describe_naive) dn, dt;
    __typeof__(&latency_hiding_time_total) tot;
    WB_BIND(ctx, fill, latency_hiding_fill_gpu);
    WB_BIND(ctx, dn, latency_hiding_describe_naive);
    WB_BIND(ctx, dt, latency_hiding_describe_tiled);
    WB_BIND(ctx, tot, latency_hiding_time_total);
    gpu_t g;
    int e = fill(&g);
    if (e != cudaSuccess)
        wb_fail(ctx, "latency_hiding_fill_gpu returned %s", cudaGetErrorName((cudaError_t)e));
    mm_cfg cfg[16];
    char bad[600] = ""; /* the first kernel given no positive time */
    int nc = 0;
    int cap = 2 * mm_sizes[N_SIZES - 1] + 64;
    blk_t *bb = (blk_t *)malloc((size_t)cap * sizeof(blk_t));
    if (!bb)
        wb_fail(ctx, "out of host memory");
    for (int bs = 16; bs >= 8; bs -= 8)
        for (int tiled = 0; tiled < 2; tiled++)
            for (int s = 0; s < N_SIZES; s++) {
                mm_cfg *c = &cfg[nc++];
                c->tiled = tiled;
                c->bs = bs;
                c->n = mm_sizes[s];
                int regs = 0;
                double err = 0;
                char nm[64];
                WB_CUDA(ctx, lh_mm_measure(tiled, bs, c->n, wb_seed(ctx) + (uint64_t)nc,
                                           &c->measured_ms, &regs, &err));
                if (!(err < 1e-4))
                    wb_fail(ctx, "grader error: %s computed C wrong (relative error %.3g)",
                            cfg_name(c, nm, sizeof nm), err);
                kern_t k;
                int nbb = (tiled ? dt : dn)(c->n, bs, regs, &k, bb, cap);
                double cycles = nbb > 0 ? tot(&g, &k, LATENCY_HIDING_OVERLAPPED) : -1.0;
                c->predicted_ms = cycles > 0 ? cycles / (g.clock_ghz * 1e6) : -1.0;
                /* Judged after the table is written, so that a model with
                 * no time for some kernels still gets its picture. */
                if (!(c->predicted_ms > 0 && isfinite(c->predicted_ms)) && !bad[0])
                    snprintf(bad, sizeof bad,
                             "%s: your model predicts %.4g ms (NBB %d, TimeTotal %.4g cycles at "
                             "%.3g GHz); expected a positive time (%s)",
                             cfg_name(c, nm, sizeof nm), c->predicted_ms, nbb, cycles, g.clock_ghz,
                             R_PRED);
            }
    free(bb);
    /* the table, for the student and for `make plots`
     * (slides/plots/06-prediction.gp) */
    char path[4200];
    snprintf(path, sizeof path, "%s/prediction.tsv", wb_out_dir(ctx));
    FILE *f = fopen(path, "w");
    double err_all = 0, err16 = 0;
    if (f)
        fprintf(f, "kernel\tbs\tn\tmeasured_ms\tpredicted_ms\trelative_error\n");
    for (int i = 0; i < nc; i++) {
        double re = fabs(cfg[i].predicted_ms - cfg[i].measured_ms) / cfg[i].measured_ms;
        err_all += re / nc;
        if (cfg[i].bs == 16)
            err16 += re / (nc / 2);
        if (f)
            fprintf(f, "%s\t%d\t%d\t%.6g\t%.6g\t%.4f\n", cfg[i].tiled ? "tiled" : "naive",
                    cfg[i].bs, cfg[i].n, cfg[i].measured_ms, cfg[i].predicted_ms, re);
        char metric[64];
        snprintf(metric, sizeof metric, "%s%d_n%d_measured_ms", cfg[i].tiled ? "tiled" : "naive",
                 cfg[i].bs, cfg[i].n);
        wb_record(ctx, metric, cfg[i].measured_ms, "ms", 0, "ref");
        snprintf(metric, sizeof metric, "%s%d_n%d_predicted_ms", cfg[i].tiled ? "tiled" : "naive",
                 cfg[i].bs, cfg[i].n);
        wb_record(ctx, metric, cfg[i].predicted_ms, "ms", 0, "ref");
    }
    if (f)
        fclose(f);
    if (bad[0])
        wb_fail(ctx, "%s; table: %s (make plots draws build/plots/06-prediction.svg)", bad, path);
    wb_record(ctx, "mean_relative_error", err_all, "ratio", 0.19, "ref");
    wb_record(ctx, "mean_relative_error_16x16", err16, "ratio", 0.19, "ref");
    /* The ranking: the sizes of each kernel, and the two 16x16 kernels at
     * each size (the 8x8 ones are reported, not ranked against others). */
    int pairs = 0, agree = 0;
    for (int a = 0; a < nc; a++)
        for (int b = a + 1; b < nc; b++) {
            const mm_cfg *ca = &cfg[a], *cb = &cfg[b];
            int same_kernel = ca->tiled == cb->tiled && ca->bs == cb->bs;
            int same_size_16 = ca->n == cb->n && ca->bs == 16 && cb->bs == 16;
            if (!same_kernel && !same_size_16)
                continue;
            double ma = ca->measured_ms, mb = cb->measured_ms;
            if (fmax(ma, mb) < RANK_MIN_RATIO * fmin(ma, mb))
                continue;
            pairs++;
            double pa = ca->predicted_ms, pb = cb->predicted_ms;
            if ((ma < mb && pa < pb) || (ma > mb && pa > pb)) {
                agree++;
                continue;
            }
            char na[64], nb[64];
            wb_measured(ctx, "mean relative error %.2f over 16 runs (paper: 0.19 on a Tesla C1060)",
                        err_all);
            wb_fail(ctx,
                    "%s measured %.3f ms, predicted %.3f ms; %s measured %.3f ms, predicted "
                    "%.3f ms: the model ranks them the other way (table: %s, make plots "
                    "draws build/plots/06-prediction.svg; %s)",
                    cfg_name(ca, na, sizeof na), ma, pa, cfg_name(cb, nb, sizeof nb), mb, pb, path,
                    R_PRED);
        }
    /* A share, not a count: how many pairs differ by 1.3x changes from run
     * to run, and every one of them must be ranked right. */
    wb_record(ctx, "ranked_share", pairs > 0 ? (double)agree / pairs : 1.0, "share", 1.0, "ge");
    wb_record(ctx, "ranked_pairs", agree, "pairs", 0, "ref");
    wb_measured(ctx,
                "%d of %d pairs (measured >= %.1fx apart) ranked as measured; mean "
                "relative error %.2f (16x16: %.2f; paper: 0.19 on a Tesla C1060); table in %s "
                "(make plots draws build/plots/06-prediction.svg)",
                agree, pairs, RANK_MIN_RATIO, err_all, err16, path);
}

/* ============================================================ GPU: ILP */

/* The size perf.ilp times (its limit: perf_ilp, below). */
#define ILP_PERF_N ((size_t)1 << 26)
/* Words of guard space after d_out, in the same allocation: poisoned with
 * 0xA5 bytes and checked unchanged after every call. The launch is given
 * (one thread per word of d_out), so only a kernel that writes at another
 * index than its own thread's reaches it. */
#define ILP_GUARD 256
#define ILP_POISON 0xA5A5A5A5u

static void ilp_guard_check(wb_ctx *ctx, const unsigned *d_out, size_t threads, size_t n) {
    unsigned g[ILP_GUARD];
    WB_CUDA(ctx, cudaMemcpy(g, d_out + threads, sizeof g, cudaMemcpyDeviceToHost));
    for (int k = 0; k < ILP_GUARD; k++)
        if (g[k] != ILP_POISON)
            wb_fail(ctx,
                    "n = %zu: d_out[%zu], %d past the end of its %zu words (T = 64 x SMs), was "
                    "changed to 0x%08x; expected the grader's poison 0x%08x left alone: thread t "
                    "writes d_out[t] only (latency_hiding.h; %s)",
                    n, threads + (size_t)k, k + 1, threads, g[k], ILP_POISON, R_ILPTASK);
}

typedef __typeof__(&latency_hiding_ilp_sum) ilp_fn;

static unsigned *random_uints(wb_rng *r, size_t n) {
    unsigned *h = (unsigned *)malloc(n * sizeof(unsigned));
    if (h)
        for (size_t i = 0; i < n; i++)
            h[i] = (unsigned)wb_rng_u64(r);
    return h;
}

static void ref_sums(const unsigned *h, size_t n, unsigned *out, size_t threads) {
    memset(out, 0, threads * sizeof(unsigned));
    for (size_t i = 0; i < n; i++)
        out[i % threads] += h[i];
}

static void check_sums(wb_ctx *ctx, const unsigned *got, const unsigned *want, size_t threads,
                       size_t n, const char *how) {
    for (size_t t = 0; t < threads; t++)
        if (got[t] != want[t])
            wb_fail(ctx,
                    "n = %zu%s: d_out[%zu] = %u, expected %u (the sum of d_in[%zu + k x %zu] "
                    "modulo 2^32%s; %s)",
                    n, how, t, got[t], want[t], t, threads,
                    got[t] == 0xFFFFFFFFu ? ", never written: still poisoned" : "", R_ILPTASK);
}

/* Fails when the kernels of latency_hiding_ilp_sum(n) failed (e: the wait's
 * status), naming the function: the call text alone would not. */
static void ilp_wait(wb_ctx *ctx, int e, size_t n) {
    if (e != cudaSuccess)
        wb_fail(ctx, "latency_hiding_ilp_sum(n = %zu): its kernel failed: %s (%s) (%s)", n,
                cudaGetErrorName((cudaError_t)e), cudaGetErrorString((cudaError_t)e),
                "README.md, \"Debugging\"");
}

static void ilp_case(wb_ctx *ctx, ilp_fn f, wb_rng *r, size_t n, size_t threads, int on_stream) {
    unsigned *h = random_uints(r, n), *want = (unsigned *)malloc(threads * sizeof(unsigned));
    unsigned *got = (unsigned *)malloc(threads * sizeof(unsigned));
    unsigned *after = (unsigned *)malloc(n * sizeof(unsigned));
    if (!h || !want || !got || !after)
        wb_fail(ctx, "out of host memory");
    ref_sums(h, n, want, threads);
    unsigned *d_in, *d_src = NULL, *d_out;
    WB_CUDA(ctx, cudaMalloc((void **)&d_in, n * sizeof(unsigned)));
    WB_CUDA(ctx, cudaMalloc((void **)&d_out, (threads + ILP_GUARD) * sizeof(unsigned)));
    WB_CUDA(ctx, cudaMemset(d_out, 0xFF, threads * sizeof(unsigned)));
    WB_CUDA(ctx, cudaMemset(d_out + threads, 0xA5, ILP_GUARD * sizeof(unsigned)));
    cudaStream_t s = 0;
    if (on_stream) {
        /* the data arrives on the stream, behind 20 ms of the grader's work */
        WB_CUDA(ctx, cudaMalloc((void **)&d_src, n * sizeof(unsigned)));
        WB_CUDA(ctx, cudaMemcpy(d_src, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
        WB_CUDA(ctx, cudaMemset(d_in, 0, n * sizeof(unsigned)));
        WB_CUDA(ctx, cudaDeviceSynchronize());
        WB_CUDA(ctx, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        WB_CUDA(ctx, lh_delayed_copy(d_in, d_src, n, 20000000LL, s));
    } else {
        WB_CUDA(ctx, cudaMemcpy(d_in, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    }
    int e = f(d_in, n, d_out, s);
    if (e != cudaSuccess)
        wb_fail(ctx, "latency_hiding_ilp_sum(n = %zu) returned %s", n,
                cudaGetErrorName((cudaError_t)e));
    if (on_stream) {
        WB_CUDA(ctx, cudaMemcpyAsync(got, d_out, threads * sizeof(unsigned),
                                     cudaMemcpyDeviceToHost, s));
        ilp_wait(ctx, cudaStreamSynchronize(s), n);
    }
    ilp_wait(ctx, cudaDeviceSynchronize(), n);
    WB_CUDA(ctx, cudaMemcpy(got, d_out, threads * sizeof(unsigned), cudaMemcpyDeviceToHost));
    check_sums(ctx, got, want, threads, n,
               on_stream ? ", launched on a stream behind the grader's work (every launch "
                           "goes on the stream argument)"
                         : "");
    ilp_guard_check(ctx, d_out, threads, n);
    WB_CUDA(ctx, cudaMemcpy(after, d_in, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    if (memcmp(after, h, n * sizeof(unsigned)) != 0)
        wb_fail(ctx, "n = %zu: d_in was changed; it is input only (latency_hiding.h)", n);
    if (s)
        cudaStreamDestroy(s);
    cudaFree(d_in);
    cudaFree(d_src);
    cudaFree(d_out);
    free(h);
    free(want);
    free(got);
    free(after);
}

static void test_ilp_sum(wb_ctx *ctx) {
    ilp_fn f;
    WB_BIND(ctx, f, latency_hiding_ilp_sum);
    size_t T = (size_t)wb_ctx_gpu(ctx)->sm_count * LATENCY_HIDING_ILP_THREADS;
    size_t sizes[] = {1,
                      31,
                      T - 1,
                      T,
                      T + 1,
                      16 * T - 1,
                      16 * T,
                      16 * T + 5,
                      37 * T + 11,
                      100 * T + 17 * T / 2,
                      (1 << 20) + 3,
                      (1 << 22) + 7};
    wb_rng r;
    wb_rng_seed(&r, wb_seed(ctx));
    int ns = (int)(sizeof sizes / sizeof sizes[0]);
    for (int i = 0; i < ns; i++)
        ilp_case(ctx, f, &r, sizes[i], T, 0);
    ilp_case(ctx, f, &r, 300007, T, 1);
    unsigned *d = NULL;
    WB_CUDA(ctx, cudaMalloc((void **)&d, T * sizeof(unsigned)));
    if (f(NULL, 8, d, 0) != cudaErrorInvalidValue || f(d, 0, d, 0) != cudaErrorInvalidValue ||
        f(d, 8, NULL, 0) != cudaErrorInvalidValue)
        wb_fail(ctx, "a NULL pointer or n = 0 must give cudaErrorInvalidValue (latency_hiding.h)");
    cudaFree(d);
    wb_measured(ctx,
                "%d sizes from 1 to 2^22+7 (T = %zu threads), one on a stream; input unchanged",
                ns + 1, T);
}

/* perf.ilp: n = 2^26 random values, T = 64 x SMs sums, against the
 * grader's one-load-at-a-time loop (the stub's). */
typedef struct ilp_perf {
    ilp_fn student;
    unsigned *d_in, *d_out, *want, *got;
    size_t threads;
} ilp_perf;

static ilp_perf perf;

static int run_student_ilp(void *p, void *stream) {
    ilp_perf *a = (ilp_perf *)p;
    return a->student(a->d_in, ILP_PERF_N, a->d_out, (cudaStream_t)stream);
}

static int run_baseline_ilp(void *p, void *stream) {
    ilp_perf *a = (ilp_perf *)p;
    return lh_ilp_baseline(a->d_in, ILP_PERF_N, a->d_out, stream);
}

static void perf_open(wb_ctx *ctx, wb_perf_run *run) {
    WB_BIND(ctx, perf.student, latency_hiding_ilp_sum);
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    size_t T = (size_t)gpu->sm_count * LATENCY_HIDING_ILP_THREADS;
    wb_rng r;
    wb_rng_seed(&r, wb_seed(ctx));
    unsigned *h = random_uints(&r, ILP_PERF_N);
    perf.threads = T;
    perf.want = (unsigned *)malloc(T * sizeof(unsigned));
    perf.got = (unsigned *)malloc(T * sizeof(unsigned));
    if (!h || !perf.want || !perf.got)
        wb_fail(ctx, "out of host memory");
    ref_sums(h, ILP_PERF_N, perf.want, T);
    WB_CUDA(ctx, cudaMalloc((void **)&perf.d_in, ILP_PERF_N * sizeof(unsigned)));
    WB_CUDA(ctx, cudaMalloc((void **)&perf.d_out, (T + ILP_GUARD) * sizeof(unsigned)));
    /* Poisoned once: the guard must survive every timed call too. */
    WB_CUDA(ctx, cudaMemset(perf.d_out + T, 0xA5, ILP_GUARD * sizeof(unsigned)));
    WB_CUDA(ctx, cudaMemcpy(perf.d_in, h, ILP_PERF_N * sizeof(unsigned), cudaMemcpyHostToDevice));
    free(h);
    run->baseline = run_baseline_ilp;
    run->candidate = run_student_ilp;
    run->arg = &perf;
    /* Every element is read once: no launch reads them faster than the
     * GPU's peak DRAM bandwidth; fail above 1.1x that rate, as before. */
    double bytes = ILP_PERF_N * 4.0;
    run->floor_ms = gpu->peak_dram_gbps > 0 ? bytes / (gpu->peak_dram_gbps * 1e9) * 1e3 : 0;
    run->floor_why = "the GPU's peak DRAM bandwidth allows for reading every element";
    run->floor_advice = "every element must be read by the launch on the stream given";
    run->floor_share = 1.0 / 1.1;
}

static void perf_poison(wb_ctx *ctx, void *arg) {
    ilp_perf *a = (ilp_perf *)arg;
    WB_CUDA(ctx, cudaMemset(a->d_out, 0xFF, a->threads * sizeof(unsigned)));
}

static void perf_check(wb_ctx *ctx, void *arg) {
    ilp_perf *a = (ilp_perf *)arg;
    WB_CUDA(ctx, cudaMemcpy(a->got, a->d_out, a->threads * sizeof(unsigned),
                            cudaMemcpyDeviceToHost));
    check_sums(ctx, a->got, a->want, a->threads, ILP_PERF_N, "");
    ilp_guard_check(ctx, a->d_out, a->threads, ILP_PERF_N);
}

static void perf_close(void *arg) {
    ilp_perf *a = (ilp_perf *)arg;
    cudaFree(a->d_in);
    cudaFree(a->d_out);
    free(a->want);
    free(a->got);
}

/* The read bandwidth the student's kernel reached, as the chapter compares it. */
static void perf_describe(wb_ctx *ctx, void *arg, const wb_ratio *r, char *buf, size_t cap) {
    (void)arg;
    double gbps = r->cand_ms > 0 ? ILP_PERF_N * 4.0 / (r->cand_ms * 1e6) : 0;
    wb_record(ctx, "ilp_student_gbps", gbps, "GB/s", 0, "ref");
    snprintf(buf, cap, "%.0f GB/s read", gbps);
}

static const wb_perf perf_ilp = {
    .metric = "ilp",
    .limit = 4.0,
    .baseline = "the grader's one-load-at-a-time kernel",
    .size = "n = 2^26",
    .derivation = "by Little's law at two warps per SM, one 128-byte load in flight per warp "
                  "moves at most about 0.4 B/cycle per SM against a DRAM latency of ~700 cycles "
                  "or more, and batches of 16 wait once per batch (2.3 single latencies on the "
                  "H100: 7x), both latencies whose length cancels on any GPU, while DRAM "
                  "bandwidth, 2.4-27 B/cycle per SM across the supported GPUs, caps the "
                  "reference no lower than about 5x, so it stays 25 % clear of 4.0x wherever a "
                  "batch takes under 3.2 single latencies, and the stub, which is the "
                  "baseline's loop, gets 1.0x",
    .figures = "H100 80GB HBM3 (2026-11-22, CUDA 13.0): reference 7.02-7.09x (0.427-0.429 ms vs "
               "3.012-3.013 ms, 626-629 GB/s), stub 1.00x (89 GB/s); H200 (2026-11-22): "
               "reference 7.03-7.04x (0.431-0.432 ms vs 3.034 ms, 621-623 GB/s), stub 1.00x "
               "(88 GB/s)",
    .describe = perf_describe,
    .advice = "too few loads in flight: at two warps per SM, each thread must issue several "
              "independent loads before it uses any of them",
    .open = perf_open,
    .poison = perf_poison,
    .check = perf_check,
    .close = perf_close,
};

/* ============================================================ questions */

/* The README's example loop: one warp per block, one basic block (ILP 4,
 * MemAccBw 2), BLP warps per SM; the question asks for MemAccLa 600 (the
 * README's table shows 400). */
static double example_time(int blp, double la, latency_hiding_sum how) {
    gpu_t g;
    memset(&g, 0, sizeof g);
    g.sm_count = 1;
    g.max_threads_per_block = 1024;
    g.max_threads_per_sm = 2048;
    g.max_warps_per_sm = 64;
    g.max_blocks_per_sm = blp;
    g.regs_per_sm = 65536;
    g.smem_per_sm = 65536;
    g.clock_ghz = 1;
    g.shared_latency = la;
    g.shared_bytes_per_cycle = 64;
    g.compute_cycles = g.global_issue_cycles = g.shared_issue_cycles = 1;
    blk_t b = {4, 0, 0, LATENCY_HIDING_SHARED, 4, 0};
    kern_t k = {32, 0, 0, blp, 1, &b};
    return ref_one_rep(&g, &k, how);
}

/* Asked to 3 decimals, so 0.5 % (1 % for the ratio) takes any rounding.
 * The nearest wrong answers: warp 5 for warp 6 (Con 0.645 for 0.625, 3 %
 * off; Syn 0.645 for 0.714, 10 %), Con's formula for Syn (12 %), Syn as
 * printed in the paper (0.857, 20 %), and for the ratio the README table's
 * MemAccLa of 400 for 600 (3.76 for 3.84, 2 %) or the overlapped sum (1.0). */
static void test_q_con(wb_ctx *ctx) {
    wb_question_number(ctx, "con_example", ref_factor(20, 60, 500, 40, 4, 2, 6, 0, NULL), 0.005,
                       "LatencyHiddenCon of the README's example, warp 6 (to 3 decimals)");
}

static void test_q_syn(wb_ctx *ctx) {
    wb_question_number(ctx, "syn_example", ref_factor(20, 60, 500, 40, 4, 2, 6, 1, NULL), 0.005,
                       "LatencyHiddenSyn of the README's example, warp 6 (to 3 decimals)");
}

static void test_q_printed(wb_ctx *ctx) {
    wb_question_number(
        ctx, "printed_ratio_8_vs_2",
        example_time(8, 600, LATENCY_HIDING_PRINTED) / example_time(2, 600, LATENCY_HIDING_PRINTED),
        0.01, "TimeOneRep with 8 warps over TimeOneRep with 2, MemAccLa 600, printed sum");
}

/* ============================================================ the suite */

#define MODEL_TESTS                                                                                \
    "correct.tlp_blp correct.rep_num correct.ilp_mem correct.con correct.syn "                     \
    "correct.time_overlapped correct.time_total"

/* The host tests keep the 60 s they always had (20,000-200,000 vectors each). */
static const wb_test tests[] = {
    WB_HOST("correct.tlp_blp", 4, test_tlp_blp, .timeout_s = 60,
            .hint = "TLP is the block's warps; BLP the smallest quotient of the SM's limits "
                    "(" R_TLP ")"),
    WB_HOST("correct.rep_num", 2, test_rep_num, .timeout_s = 60, .hint = R_TLP),
    WB_HOST("correct.ilp_mem", 4, test_ilp_mem, .timeout_s = 60,
            .hint = "MemAccBw counts a warp's data (32 x bytes); global bandwidth is the GPU's, "
                    "split over the SMs (" R_MEM ")"),
    WB_HOST("correct.case", 2, test_case, .timeout_s = 60, .hint = R_CON),
    WB_HOST("correct.con", 8, test_con, .timeout_s = 60, .hint = R_CON),
    WB_HOST("correct.syn", 6, test_syn, .timeout_s = 60,
            .hint = "round the warps ahead to whole thread blocks of NT = TLP warps (" R_READ ")"),
    WB_HOST("correct.time_printed", 3, test_time_printed, .timeout_s = 60, .hint = R_TIME),
    WB_HOST("correct.time_overlapped", 3, test_time_overlapped, .timeout_s = 60, .hint = R_TIME),
    WB_HOST("correct.time_total", 2, test_time_total, .timeout_s = 60, .hint = R_TIME),
    WB_HOST("correct.describe_naive", 4, test_describe_naive, .timeout_s = 60, .hint = R_MM),
    WB_HOST("correct.describe_tiled", 4, test_describe_tiled, .timeout_s = 60, .hint = R_MM),
    WB_GPU("measure.chase_global", 3, test_chase_global, .timeout_s = 120, .hint = R_CHASE,
           .limit = {
               .text = "footprint >= 4 x the L2 and >= 100,000 hops; cycles and ns per hop each "
                       "within +-30% of the grader's own chase (8 x L2, 200,000 hops)",
               .derivation = "both chases run on the same GPU, so its latency cancels, and two "
                             "honest chases over 4-8 x the L2 differ by L2 hits on at most a "
                             "quarter against an eighth of their hops (about 10 %) and by TLB "
                             "reach, which is not yet measured where a small L2 lets a legal "
                             "chase be 8-24 MB against the grader's 256 MB, while a chase that "
                             "fits in a cache fails the footprint check or lands at the L2's "
                             "latency, a figure in the wrong unit is off by the clock in GHz "
                             "(outside for one of the two figures unless the SMs run at "
                             "0.77-1.3 GHz), and the stub's 0 measures nothing",
               .figures = "H100 80GB HBM3 (2026-11-22): reference 684-688 cycles = 345-346 ns per "
                          "hop over 419 MB, the grader's the same to 1 cycle; H200 (2026-11-22): "
                          "686-687 cycles = 347 ns over 503 MB, the grader's 686 cycles = 346 "
                          "ns; the stub fails (0)",
           }),
    WB_GPU("measure.chase_shared", 3, test_chase_shared, .timeout_s = 120, .hint = R_CHASE,
           .limit = {
               .text = "4-48 KB of shared memory, >= 100,000 hops; cycles and ns per hop each "
                       "within +-30% of the grader's chase",
               .derivation = "two honest shared-memory chases on the same GPU differ by at most "
                             "one dependent integer instruction per hop (indices instead of byte "
                             "offsets), a few cycles in a hop of 20-30 cycles, inside 30 % on "
                             "any capability, while a chase that adds a timer read, a global "
                             "access or a barrier per hop is off by far more, and the stub's 0 "
                             "measures nothing",
               .figures = "H100 80GB HBM3 and H200 (2026-11-22): reference 23.0 cycles = "
                          "11.5-11.6 ns per hop over 16 KB, the grader's the same; the stub "
                          "fails (0)",
           }),
    WB_GPU("measure.global_bw", 3, test_global_bw, .timeout_s = 120, .hint = R_BW,
           .unrestricted = "the contract sizes your read kernel's grid from the runtime's SM "
                           "count, which a green context does not change",
           .limit = {
               .text = "within +-25% of the grader's read kernel; not above 1.1 x peak DRAM",
               .derivation = "the grader's kernel keeps up to 128 KB per SM in flight, more than "
                             "any supported memory needs, and an honest read with one 16-byte "
                             "load per thread at full occupancy (32 KB per SM) keeps within a "
                             "few per cent of it where bandwidth per SM times latency is under "
                             "about 35 KB (every GDDR part, the H100, the H200) but could fall "
                             "to 0.7 of it on a B200 (not yet measured), while a buffer "
                             "that fits in the L2 meets the 1.1 x peak cap, bits or bytes read "
                             "and written are off by 2x or more, and the stub's 0 measures "
                             "nothing",
               .figures = "H100 80GB HBM3 (2026-11-22): reference 2963-2988 GB/s, the grader's "
                          "2981-2995 (peak 3352); H200 (2026-11-22): 4235-4261 against "
                          "4375-4390 (peak 4814); the stub fails (0)",
           }),
    WB_GPU("measure.shared_bw", 2, test_shared_bw, .timeout_s = 120, .hint = R_BW,
           .limit = {
               .text = "bytes per cycle per SM within +-30% of the grader's, again with the GPU "
                       "restricted to 16 SMs",
               .derivation = "every capability has 32 banks of 4 bytes, both figures are per "
                             "SM clock and the contract fixes the kernel's shape, so "
                             "conflict-free reads reach the grader's figure on any GPU (the "
                             "reference within 1 %; a rolled loop may read about 11 % low on "
                             "7.5-9.0, so a barrier in every lap, 16 % low on the H100, passes), "
                             "while a 2-way bank conflict halves it, bytes per GPU are off by "
                             "the SM count and bytes per ns by the clock in GHz (outside above "
                             "1.3 GHz), and the stub's 0 "
                             "measures nothing; restricted to 16 SMs (a green context, the "
                             "runtime showing 16), a figure per SM is the same, while a grid "
                             "sized by the grading GPU's SM count typed in puts two blocks on "
                             "each SM that holds two and halves it (not graded where the GPU "
                             "cannot be restricted)",
               .figures = "H100 80GB HBM3 (2026-11-22): reference 126.9-127.0 B/cycle, the "
                          "grader's 126.9-127.0; H200 (2026-11-22): 127.0, the grader's 126.9; "
                          "H100 (2026-11-27): 126.7 and 127.1 on 16 SMs; a barrier every lap "
                          "106.3 against 126.9 (passes); the stub fails (0)",
           }),
    WB_GPU("measure.fma", 2, test_fma, .timeout_s = 120, .hint = R_BW,
           .limit = {
               .text = "within +-20% of wb_measure_fma_gflops; not above 1.1 x peak",
               .derivation = "FMA latency is 4 cycles on every capability, so honest FMA loops "
                             "on the same GPU differ by loop overhead (a rolled loop costs about "
                             "14 %), inside 20 %, and stay under 1.1 x the peak except on "
                             "GeForce cards that boost more than about 13 % above their reported "
                             "clock (an RTX 4090 reaches about 1.06 x, not yet shown beyond), "
                             "while counting 1 FLOP per FMA halves the figure, counting FMAs "
                             "that never ran exceeds the cap, and the stub's 0 measures "
                             "nothing",
               .figures = "H100 80GB HBM3 (2026-11-22): reference 63539-63663 GFLOP/s, the "
                          "grader's 65240-65607 (peak 66908); H200 (2026-11-22): 63278-63283 "
                          "against 65182-65192; the stub fails (0)",
           }),
    WB_GPU("correct.fill_gpu", 2, test_fill_gpu, .timeout_s = 180,
           .requires = "measure.chase_global measure.chase_shared measure.global_bw "
                       "measure.shared_bw measure.fma",
           .hint = R_FILL),
    WB_GPU("predict.rank", 8, test_predict, .timeout_s = 300,
           .requires = MODEL_TESTS " correct.describe_naive correct.describe_tiled "
                                   "correct.fill_gpu",
           .hint = R_PRED,
           .limit = {
               .text = "every pair measured >= 1.3x apart predicted in the same order "
                       "(ranked_share must be 1)",
               .derivation = "each doubling of n is 8x the work and the two 16x16 kernels at a "
                             "size are ranked only when measured 1.3x apart, so a model that "
                             "counts the work and the waits orders every pair on any GPU where "
                             "the tiled kernel is not 1.3x slower than the naive one, which "
                             "keeps up only through its L1 hits and falls further behind on "
                             "GPUs with smaller L1s than the H100's (the reference ranks all "
                             "pairs though it is far off in absolute terms), while a model "
                             "that gives no positive time (the stub) or the wrong order fails",
               .figures = "H100 80GB HBM3 (2026-11-22): 27 of 27 pairs ranked, mean relative "
                          "error 3.13-3.19 (16x16: 3.84-3.95), tiled 16x16 1.29-1.50x faster than "
                          "naive; H200 (2026-11-22): 27 of 27, 2.40 (16x16: 2.98-2.99), "
                          "1.21-1.51x; the stub fails",
           }),
    WB_GPU("correct.ilp_sum", 4, test_ilp_sum, .timeout_s = 120, .hint = R_ILPTASK),
    WB_PERF("perf.ilp", 12, perf_ilp, .timeout_s = 180, .requires = "correct.ilp_sum",
            .hint = R_ILPTASK),
    WB_SANITIZER_OF("sanitizer.ilp_sum", 2, "memcheck", "correct.ilp_sum"),
    /* The measurements' own kernels, each run once under the tool (the body
     * skips the comparisons there): a chase setup that writes past its
     * buffer, a chase or a bandwidth kernel that reads shared memory before
     * the block's writes are done, or a barrier that not every thread of a
     * block reaches, measures about the same times, so only the tools see
     * it. */
    WB_SANITIZER_OF("sanitizer.chase_global", 1, "memcheck", "measure.chase_global"),
    WB_SANITIZER_OF("sanitizer.chase_shared", 1, "racecheck", "measure.chase_shared"),
    WB_SANITIZER_OF("sanitizer.chase_shared_sync", 1, "synccheck", "measure.chase_shared"),
    WB_SANITIZER_OF("sanitizer.shared_bw", 1, "racecheck", "measure.shared_bw"),
    WB_SANITIZER_OF("sanitizer.shared_bw_sync", 1, "synccheck", "measure.shared_bw"),
    WB_QUESTION_HASH("cc86_threads_per_core", 1, 0xb8e2f559cf1c0683ULL,
                     "resident threads per FP32 lane of an SM with 128 lanes and 1536 threads"),
    WB_QUESTION_HASH("switch_overhead_cycles", 1, 0x900a87d23ef3bdddULL,
                     "idle cycles an SM loses when it switches between resident warps"),
    WB_QUESTION_HASH("why_more_warps", 1, 0x3976a995fe4719e8ULL,
                     "the letter of the reason an SM holds more warps than it can issue"),
    WB_QUESTION_HASH("warp_state", 1, 0x08bb80eb82103f19ULL,
                     "the letter of where a waiting warp's registers are kept"),
    WB_QUESTION_HASH("raises_smem_carveout", 1, 0xe706521479cbda02ULL,
                     "ilp, tlp or blp for a larger shared-memory carveout, so 4 blocks per SM "
                     "instead of 2"),
    WB_QUESTION_HASH("raises_16x16_blocks", 1, 0xd9d483b0f6458c73ULL,
                     "ilp, tlp or blp for 16 x 16 instead of 8 x 8 blocks, 2 blocks per SM"),
    WB_QUESTION_HASH("raises_prefetch_next", 1, 0xba588b53f01c8e50ULL,
                     "ilp, tlp or blp for loading the next iteration's element before using the "
                     "current one"),
    WB_QUESTION_HASH("raises_two_outputs", 1, 0x707a34defd49ea66ULL,
                     "ilp, tlp or blp for two interleaved outputs per thread"),
    WB_QUESTION_HASH("case_example", 1, 0x8e0b0c28ef16f741ULL,
                     "the case (1-4) of the README's example block"),
    /* The model's numbers, computed by the grader's own model. */
    WB_QUESTION_FN("question.con_example", 1, test_q_con),
    WB_QUESTION_FN("question.syn_example", 1, test_q_syn),
    WB_QUESTION_FN("question.printed_ratio_8_vs_2", 1, test_q_printed),
};

WB_LAB_MAIN(tests)
