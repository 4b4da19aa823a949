/* check_block_scheduling.c - the grader of lab 01: traces, waves, capacity, the tail effect */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "wb_grader.h"
#include "wb_gpu.h"
#include "wb_rng.h"
#include "wb_timing.h"

#include "block_scheduling.h"
#include "sim_devices.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define README_TRACE "README.md, \"Tracing blocks\""
#define README_WAVES "README.md, \"From records to waves\""
#define README_FIT "README.md, \"How many blocks fit\""
#define README_TAIL "README.md, \"The tail effect\""

/* grader-owned kernels (bs_kernels.cu) */
const void *bs_probe_kernel(int which);
int bs_truth_capacity(const void *kernel, int threads, size_t smem, int *per_sm, int *capacity);
int bs_baseline_capacity(int *capacity);
int bs_baseline_threads(void);
int bs_baseline_process(const unsigned int *d_in, unsigned int *d_out, int n, long long item_ns,
                        void *stream);

/* -------------------------------------------------- the grader's analysis */

/* The grader's own figures, by a different method from the sweep the
 * README describes: the most blocks resident at once is reached at some
 * block's start, so count, for each block, the blocks whose interval
 * [start, end) contains that start. Quadratic, which is fine here. */
static void reference_analyze(const block_record *r, int n, int sm_count, int *per_sm,
                              block_scheduling_stats *s) {
    memset(per_sm, 0, sizeof(int) * (size_t)sm_count);
    memset(s, 0, sizeof *s);
    s->n_blocks = n;
    for (int i = 0; i < n; i++)
        per_sm[r[i].smid]++;
    for (int k = 0; k < sm_count; k++)
        s->sms_used += per_sm[k] > 0;
    for (int i = 0; i < n; i++) {
        int on_sm = 0, on_gpu = 0;
        for (int j = 0; j < n; j++) {
            if (r[j].start_ns <= r[i].start_ns && r[i].start_ns < r[j].end_ns) {
                on_gpu++;
                on_sm += r[j].smid == r[i].smid;
            }
        }
        if (on_sm > s->max_resident_sm)
            s->max_resident_sm = on_sm;
        if (on_gpu > s->max_resident_gpu)
            s->max_resident_gpu = on_gpu;
    }
    if (s->max_resident_gpu > 0)
        s->waves = (n + s->max_resident_gpu - 1) / s->max_resident_gpu;
}

/* A made-up schedule: sms SMs with slots blocks each; blocks are dispatched
 * in a random order, each to the slot that frees first; durations equal
 * (exact ties between an end and the next start) or random. SM numbers are
 * shuffled, and some SMs of the sm_count may stay idle. With late, the
 * first half of the blocks run one at a time before the rest are
 * dispatched, so the most blocks at once come after more than half of the
 * 2n start and end events (an analysis that stops early misses them). */
static void simulate(wb_rng *g, int n, int sms, int slots, int equal, int late, block_record *r) {
    int ns = sms * slots;
    unsigned long long *free_at = calloc((size_t)ns, sizeof *free_at);
    int *order = malloc(sizeof(int) * (size_t)n), *sm_of = malloc(sizeof(int) * (size_t)sms);
    unsigned long long t0 =
        1700000000000000000ULL + (unsigned long long)wb_rng_range(g, 0, 1 << 30);
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; i > 0; i--) { /* mostly in order, as real hardware: swap near neighbours */
        int j = i - (int)wb_rng_range(g, 0, i < 40 ? i : 40);
        int t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (int k = 0; k < sms; k++)
        sm_of[k] = k;
    for (int k = sms - 1; k > 0; k--) {
        int j = (int)wb_rng_range(g, 0, k), t = sm_of[k];
        sm_of[k] = sm_of[j], sm_of[j] = t;
    }
    unsigned long long d = (unsigned long long)wb_rng_range(g, 1000, 100000);
    for (int i = 0; i < ns; i++)
        free_at[i] = t0 + (equal ? 0 : (unsigned long long)wb_rng_range(g, 0, 2000));
    int q = 0;
    for (unsigned long long t = t0; late && q < n / 2; q++) { /* one at a time, on one SM */
        int b = order[q];
        r[b].block = (unsigned int)b;
        r[b].smid = (unsigned int)sm_of[0];
        r[b].start_ns = t;
        r[b].end_ns = t + d / 4;
        t = r[b].end_ns + 100;
        for (int i = 0; i < ns; i++)
            free_at[i] = t;
    }
    for (; q < n; q++) {
        int best = 0, off = (int)wb_rng_range(g, 0, ns - 1);
        for (int k = 1; k < ns; k++) {
            int c = (off + k) % ns;
            if (free_at[c] < free_at[(off + best) % ns])
                best = k;
        }
        int slot = (off + best) % ns, b = order[q];
        unsigned long long gap = equal ? 0 : (unsigned long long)wb_rng_range(g, 0, 3) * 500;
        unsigned long long len = equal ? d : d / 2 + (unsigned long long)wb_rng_range(g, 0, (int)d);
        r[b].block = (unsigned int)b;
        r[b].smid = (unsigned int)sm_of[slot / slots];
        r[b].start_ns = free_at[slot] + gap;
        r[b].end_ns = r[b].start_ns + len;
        free_at[slot] = r[b].end_ns;
    }
    free(free_at);
    free(order);
    free(sm_of);
}

/* A schedule in which the SMs take turns: SM k runs its slots x per
 * blocks (per after each other on each slot, equal durations) in a window
 * of its own, after SM k-1's has ended. Each SM is full in its window, yet
 * the GPU never holds more than one SM's worth: the GPU-wide peak is not
 * the sum of the SMs' peaks. */
static void take_turns(wb_rng *g, int sms, int slots, int per, block_record *r) {
    unsigned long long t0 =
        1700000000000000000ULL + (unsigned long long)wb_rng_range(g, 0, 1 << 30);
    unsigned long long d = (unsigned long long)wb_rng_range(g, 1000, 100000);
    for (int b = 0; b < sms * slots * per; b++) {
        int sm = b / (slots * per), round = (b / slots) % per;
        r[b].block = (unsigned int)b;
        r[b].smid = (unsigned int)(sms - 1 - sm); /* not in SM order */
        r[b].start_ns =
            t0 + (unsigned long long)sm * (per * d + 500) + (unsigned long long)round * d;
        r[b].end_ns = r[b].start_ns + d;
    }
}

/* Moves the whole schedule r[0 .. n) in time so that a multiple of 2^32 ns
 * (wrap 1), or a point halfway between two (wrap 2), falls just after the
 * first start at which the most blocks are resident: the blocks of the
 * busiest moment start before it and end after it. Times kept in 32 bits,
 * unsigned or signed, then run out of order right there. The %globaltimer
 * of a real GPU passes such a point every 4.3 s. */
static void straddle(block_record *r, int n, int wrap) {
    int peak = 0;
    unsigned long long at = r[0].start_ns;
    for (int i = 0; i < n; i++) {
        int on = 0;
        for (int j = 0; j < n; j++)
            on += r[j].start_ns <= r[i].start_ns && r[i].start_ns < r[j].end_ns;
        if (on > peak || (on == peak && r[i].start_ns < at))
            peak = on, at = r[i].start_ns;
    }
    unsigned long long target = (at & ~0xFFFFFFFFULL) + (wrap == 2 ? 0x80000000ULL : 0);
    for (int i = 0; i < n; i++) { /* at + 1 lands on target */
        r[i].start_ns = r[i].start_ns - at - 1 + target;
        r[i].end_ns = r[i].end_ns - at - 1 + target;
    }
}

/* turns: SMs take turns (take_turns, slots x turns blocks on each SM);
 * wrap: the schedule straddles a 32-bit boundary of the clock (straddle). */
typedef struct sim_case {
    int n, sms, slots, sm_count, equal, late, turns, wrap;
} sim_case;

/* The made-up schedules every analysis test runs: small, tied, with idle
 * SMs, one SM, one block, a large random one, ones whose busiest moment
 * comes late, one whose SMs are busy at different times, and two across a
 * 32-bit boundary of the clock. */
static int sim_cases(wb_rng *g, sim_case *c) {
    int k = 0;
    c[k++] = (sim_case){1000, 108, 4, 108, 1, 0, 0, 0};
    c[k++] = (sim_case){1000, 108, 4, 108, 0, 0, 0, 0};
    c[k++] = (sim_case){37, 4, 3, 10, 1, 0, 0, 0};
    c[k++] = (sim_case){1, 1, 1, 1, 0, 0, 0, 0};
    c[k++] = (sim_case){50, 1, 6, 1, 1, 0, 0, 0};
    c[k++] = (sim_case){2113, 132, 8, 132, 1, 0, 0, 0};
    c[k++] = (sim_case){600, 40, 8, 40, 1, 1, 0, 0};
    c[k++] = (sim_case){301, 16, 4, 20, 0, 1, 0, 0};
    c[k++] = (sim_case){5 * 4 * 3, 5, 4, 6, 1, 0, 3, 0};
    c[k++] = (sim_case){300, 40, 8, 40, 1, 1, 0, 1};
    c[k++] = (sim_case){100, 16, 4, 20, 0, 1, 0, 2};
    for (int i = 0; i < 6; i++) {
        int sms = (int)wb_rng_range(g, 1, 64), slots = (int)wb_rng_range(g, 1, 16);
        c[k++] =
            (sim_case){(int)wb_rng_range(g, 1, 1500), sms, slots, sms + (int)wb_rng_range(g, 0, 3),
                       (int)wb_rng_range(g, 0, 1),    0,   0,     0};
    }
    return k;
}

typedef int (*analyze_fn)(const block_record *, int, int, int *, block_scheduling_stats *);

/* Guard space after the analysis's two outputs, in the same allocation:
 * HOST_GUARD ints after h_blocks_per_sm and HOST_GUARD bytes after *out,
 * poisoned with 0xA5 bytes (an int of them is negative, so no count) and
 * checked unchanged after every call. */
#define HOST_GUARD 64
#define GUARD_INT ((int)0xA5A5A5A5u)

typedef struct stats_slot {
    block_scheduling_stats s;
    unsigned char guard[HOST_GUARD];
} stats_slot;

/* h_blocks_per_sm for sm_count SMs (0 or more), each count poisoned with
 * -7, then HOST_GUARD guard ints. */
static int *per_sm_alloc(wb_ctx *ctx, int sm_count) {
    int m = sm_count > 0 ? sm_count : 0;
    int *p = malloc(sizeof(int) * ((size_t)m + HOST_GUARD));
    if (!p)
        wb_fail(ctx, "out of host memory");
    for (int k = 0; k < m + HOST_GUARD; k++)
        p[k] = k < m ? -7 : GUARD_INT;
    return p;
}

/* Fails when the analysis wrote past h_blocks_per_sm[sm_count - 1] or past
 * *out; what names the call. */
static void check_host_guards(wb_ctx *ctx, const char *what, const int *per_sm, int sm_count,
                              const stats_slot *st) {
    int m = sm_count > 0 ? sm_count : 0;
    for (int k = 0; k < HOST_GUARD; k++)
        if (per_sm[m + k] != GUARD_INT)
            wb_fail(ctx,
                    "%s: block_scheduling_analyze wrote past the end of h_blocks_per_sm: element "
                    "%d, the first of the %d poisoned ints after its %d counts (one per SM) that "
                    "changed, holds %d; expected nothing written there (block_scheduling.h)",
                    what, m + k, HOST_GUARD, m, per_sm[m + k]);
    for (int k = 0; k < HOST_GUARD; k++)
        if (st->guard[k] != 0xA5)
            wb_fail(ctx,
                    "%s: block_scheduling_analyze wrote past the end of *out: byte %d after the "
                    "block_scheduling_stats struct changed (0x%02x, poisoned 0xa5); expected that "
                    "one struct written and nothing after it (block_scheduling.h)",
                    what, k, st->guard[k]);
}

#define CASE_FMT "%d blocks, sm_count %d (%d SMs busy, %d at once each%s%s%s%s)"
#define CASE_ARGS(c)                                                                               \
    (c)->n, (c)->sm_count, (c)->sms, (c)->slots, (c)->equal ? ", equal durations" : "",            \
        (c)->late ? ", the first half one at a time" : "",                                         \
        (c)->turns ? ", the SMs taking turns: the GPU holds one SM's worth at a time" : "",        \
        (c)->wrap == 1   ? ", the clock passing a multiple of 2^32 ns: keep times in 64 bits"      \
        : (c)->wrap == 2 ? ", the clock passing 2^31 ns past a multiple of 2^32: keep times in "   \
                           "64 bits"                                                               \
                         : ""

/* One comparison of the student's analysis of a trace with the grader's:
 * what describes the trace in messages, sm_count is its SM count. */
typedef void (*check_fn)(wb_ctx *ctx, const char *what, int sm_count, const int *want,
                         const int *got, const block_scheduling_stats *ws,
                         const block_scheduling_stats *gs);

/* Runs the student's analysis on one trace of valid records and hands the
 * result with the grader's to check(). */
static void check_trace(wb_ctx *ctx, analyze_fn analyze, const block_record *r, int n,
                        int sm_count, const char *what, check_fn check) {
    int *want = malloc(sizeof(int) * (size_t)sm_count);
    int *got = per_sm_alloc(ctx, sm_count); /* an SM left unwritten cannot pass */
    block_scheduling_stats ws;
    stats_slot gs;
    reference_analyze(r, n, sm_count, want, &ws);
    memset(&gs, 0xa5, sizeof gs);
    int rc = analyze(r, n, sm_count, got, &gs.s);
    if (rc != 0)
        wb_fail(ctx,
                "%s: returned %d for valid records, expected 0; only end_ns < start_ns is "
                "invalid (block_scheduling.h)",
                what, rc);
    check_host_guards(ctx, what, got, sm_count, &gs);
    check(ctx, what, sm_count, want, got, &ws, &gs.s);
    free(want);
    free(got);
}

/* Blocks that end in the clock tick they start in, which no simulated
 * schedule holds: a block is resident on [start_ns, end_ns), so such a block
 * counts on its SM but is never resident. The first trace has one among
 * blocks that are (code that takes the interval closed, or a start before
 * an end at the same instant, counts 3 at once, not 2; code that drops it
 * counts 2 blocks on 2 SMs, not 3 on 3); the second has nothing else, so
 * both peaks are 0 and so are the waves (ceil(n / 0) is no answer: a
 * division by zero). */
static void instant_traces(wb_ctx *ctx, analyze_fn analyze, check_fn check) {
    static const struct {
        const char *what;
        int sms;
        block_record r[3];
    } t[] = {{"3 records on 3 SMs, the one on SM 2 ending in the clock tick it starts in (150 ns) "
              "while the other two are resident",
              3,
              {{0, 0, 100, 200}, {1, 1, 100, 300}, {2, 2, 150, 150}}},
             {"3 records on 2 SMs that each end in the clock tick they start in (never resident)",
              2,
              {{0, 0, 100, 100}, {1, 1, 100, 100}, {2, 0, 250, 250}}}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        check_trace(ctx, analyze, t[i].r, 3, t[i].sms, t[i].what, check);
}

/* Runs the student's analysis on the traces above and every simulated case,
 * and hands each result with the grader's to check(). */
static void for_each_case(wb_ctx *ctx, check_fn check) {
    analyze_fn analyze;
    WB_BIND(ctx, analyze, block_scheduling_analyze);
    instant_traces(ctx, analyze, check);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    sim_case c[20];
    int nc = sim_cases(&g, c);
    for (int i = 0; i < nc; i++) {
        block_record *r = malloc(sizeof *r * (size_t)c[i].n);
        if (c[i].turns)
            take_turns(&g, c[i].sms, c[i].slots, c[i].turns, r);
        else
            simulate(&g, c[i].n, c[i].sms, c[i].slots, c[i].equal, c[i].late, r);
        if (c[i].wrap)
            straddle(r, c[i].n, c[i].wrap);
        char what[320];
        snprintf(what, sizeof what, CASE_FMT, CASE_ARGS(&c[i]));
        check_trace(ctx, analyze, r, c[i].n, c[i].sm_count, what, check);
        free(r);
    }
    wb_measured(ctx, "%d simulated schedules and 2 traces of instantaneous blocks right", nc);
}

static void check_per_sm(wb_ctx *ctx, const char *what, int sm_count, const int *want,
                         const int *got, const block_scheduling_stats *ws,
                         const block_scheduling_stats *gs) {
    for (int k = 0; k < sm_count; k++)
        if (got[k] != want[k])
            wb_fail(ctx, "%s: blocks on SM %d = %d, expected %d (%s)", what, k, got[k], want[k],
                    README_WAVES);
    if (gs->n_blocks != ws->n_blocks || gs->sms_used != ws->sms_used)
        wb_fail(ctx, "%s: n_blocks %d and sms_used %d, expected %d and %d (%s)", what,
                gs->n_blocks, gs->sms_used, ws->n_blocks, ws->sms_used, README_WAVES);
}

static void check_resident(wb_ctx *ctx, const char *what, int sm_count, const int *want,
                           const int *got, const block_scheduling_stats *ws,
                           const block_scheduling_stats *gs) {
    (void)sm_count, (void)want, (void)got;
    if (gs->max_resident_sm != ws->max_resident_sm)
        wb_fail(ctx, "%s: max_resident_sm = %d, expected %d%s (%s)", what, gs->max_resident_sm,
                ws->max_resident_sm,
                gs->max_resident_sm > ws->max_resident_sm
                    ? "; a block ending at t and one starting at t are not resident together"
                    : "",
                README_WAVES);
    if (gs->max_resident_gpu != ws->max_resident_gpu)
        wb_fail(ctx, "%s: max_resident_gpu = %d, expected %d%s (%s)", what, gs->max_resident_gpu,
                ws->max_resident_gpu,
                gs->max_resident_gpu > ws->max_resident_gpu
                    ? "; a block is resident on [start_ns, end_ns): one that ends in the tick it "
                      "starts in never is"
                    : "",
                README_WAVES);
}

static void check_waves(wb_ctx *ctx, const char *what, int sm_count, const int *want,
                        const int *got, const block_scheduling_stats *ws,
                        const block_scheduling_stats *gs) {
    (void)sm_count, (void)want, (void)got;
    if (gs->waves != ws->waves)
        wb_fail(ctx, "%s: waves = %d, expected %d (ceil(%d / %d); 0 when the peak is 0) (%s)", what,
                gs->waves, ws->waves, ws->n_blocks, ws->max_resident_gpu, README_WAVES);
}

static void test_analyze_per_sm(wb_ctx *ctx) {
    for_each_case(ctx, check_per_sm);
}

static void test_analyze_resident(wb_ctx *ctx) {
    for_each_case(ctx, check_resident);
}

static void test_analyze_waves(wb_ctx *ctx) {
    for_each_case(ctx, check_waves);
}

static void test_analyze_invalid(wb_ctx *ctx) {
    analyze_fn analyze;
    WB_BIND(ctx, analyze, block_scheduling_analyze);
    block_record r[3] = {{0, 0, 100, 200}, {1, 1, 100, 300}, {2, 2, 150, 250}};
    struct {
        const char *what;
        int n, sms, field, value;
    } bad[] = {{"a record's smid equal to sm_count", 3, 3, 2, 3},
               {"a record that ends before it starts", 3, 4, 1, 50},
               {"n = 0", 0, 4, -1, 0},
               {"n = -1", -1, 4, -1, 0},
               {"sm_count = 0", 3, 0, -1, 0},
               {"sm_count = -1", 3, -1, -1, 0}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        block_record c[3];
        memcpy(c, r, sizeof r);
        if (bad[i].field == 2)
            c[2].smid = (unsigned int)bad[i].value;
        if (bad[i].field == 1)
            c[1].end_ns = (unsigned long long)bad[i].value;
        int *per_sm = per_sm_alloc(ctx, bad[i].sms);
        stats_slot st;
        memset(&st, 0xa5, sizeof st);
        int rc = analyze(c, bad[i].n, bad[i].sms, per_sm, &st.s);
        if (rc != -1)
            wb_fail(ctx, "with %s it returned %d, expected -1 (block_scheduling.h)", bad[i].what,
                    rc);
        /* The outputs are unspecified then, but only within their bounds. */
        check_host_guards(ctx, bad[i].what, per_sm, bad[i].sms, &st);
        free(per_sm);
    }
    /* Only a record that ends before it starts is invalid: one that ends in
     * the clock tick it started in is a block resident for no time at all. */
    block_record z[3] = {{0, 0, 100, 200}, {1, 1, 100, 300}, {2, 2, 150, 150}};
    int *got = per_sm_alloc(ctx, 3);
    stats_slot st;
    memset(&st, 0xa5, sizeof st);
    int rc = analyze(z, 3, 3, got, &st.s);
    if (rc != 0)
        wb_fail(ctx,
                "a record with end_ns == start_ns (a block that ended in the clock tick it "
                "started in) was rejected: returned %d, expected 0; only end_ns < start_ns is "
                "invalid (block_scheduling.h)",
                rc);
    check_host_guards(ctx, "a record with end_ns == start_ns", got, 3, &st);
    free(got);
    wb_measured(ctx, "6 invalid inputs rejected, an instantaneous block accepted");
}

/* ------------------------------------------------------------ on the GPU */

typedef __typeof__(&block_scheduling_trace) trace_fn;

/* Records of guard space after every records array the trace writes, in
 * the same allocation: poisoned with 0xFF bytes like the records and
 * checked unchanged after the call. 1024 records hold a write indexed by
 * the thread instead of the block for the first few blocks. */
#define REC_GUARD 1024

/* The REC_GUARD records after the n records of a trace untouched. */
static void check_record_guard(wb_ctx *ctx, const block_record *guard, int n, const char *what) {
    const unsigned char *p = (const unsigned char *)guard;
    for (size_t k = 0; k < REC_GUARD * sizeof *guard; k++)
        if (p[k] != 0xff)
            wb_fail(ctx,
                    "%s: the trace wrote past the end of d_records: record %zu, in the %d "
                    "poisoned (0xFF) records after the %d of the grid, changed; expected block i "
                    "to write records[i] only (%s)",
                    what, (size_t)n + k / sizeof *guard, REC_GUARD, n, README_TRACE);
}

/* Runs the student's trace and copies the records back into h (n records);
 * checks the guard after them. */
static void run_trace(wb_ctx *ctx, trace_fn trace, int n, int threads, size_t smem,
                      long long spin_ns, block_record *h) {
    block_record *d = NULL, guard[REC_GUARD];
    size_t bytes = sizeof *d * ((size_t)n + REC_GUARD);
    WB_CUDA(ctx, cudaMalloc((void **)&d, bytes));
    WB_CUDA(ctx, cudaMemset(d, 0xff, bytes));
    int e = trace(n, threads, smem, spin_ns, d, 0);
    if (e != cudaSuccess)
        wb_fail(ctx, "block_scheduling_trace(%d blocks, %d threads, %zu B) returned %s", n, threads,
                smem, cudaGetErrorName((cudaError_t)e));
    wb_wait(ctx, NULL, "the trace kernel (%d blocks, %d threads, %zu B)", n, threads, smem);
    WB_CUDA(ctx, cudaMemcpy(h, d, sizeof *h * (size_t)n, cudaMemcpyDeviceToHost));
    WB_CUDA(ctx, cudaMemcpy(guard, d + n, sizeof guard, cudaMemcpyDeviceToHost));
    char what[96];
    snprintf(what, sizeof what, "%d blocks of %d threads", n, threads);
    check_record_guard(ctx, guard, n, what);
    cudaFree(d);
}

/* A right block is busy at least spin_ns between its two readings (the
 * contract's words). SPIN_SLACK_NS allows for a start read just after the
 * reading the spin counts from, on a timer that steps in whole
 * microseconds. The nearest wrong trace, a spin of spin_ns clock cycles
 * (clock64) instead of nanoseconds, lasts spin_ns / f at an SM clock of
 * f GHz: below the limit, 0.9 x spin_ns at the shortest spin checked
 * (20 us), on any GPU that clocks its SMs above 1.1 GHz while it spins
 * (the H100 and H200 run at 1.98 GHz: 0.51 x). */
#define SPIN_SLACK_NS 2000

/* Every record written by its own block, on a real SM, in a sane interval. */
static void check_records(wb_ctx *ctx, const block_record *h, int n, long long spin_ns) {
    int sms = wb_ctx_gpu(ctx)->sm_count;
    for (int i = 0; i < n; i++) {
        if (h[i].block == 0xffffffffu && h[i].start_ns == ~0ULL)
            wb_fail(ctx,
                    "record %d of %d was never written: every block writes "
                    "records[blockIdx.x] (%s)",
                    i, n, README_TRACE);
        if (h[i].block != (unsigned int)i)
            wb_fail(ctx, "record %d holds block %u: block i writes record i (%s)", i, h[i].block,
                    README_TRACE);
        if (h[i].smid >= (unsigned int)sms)
            wb_fail(ctx, "record %d: smid %u, but the GPU has %d SMs (read %%smid, %s)", i,
                    h[i].smid, sms, README_TRACE);
        if (h[i].end_ns <= h[i].start_ns)
            wb_fail(ctx, "record %d: end_ns %llu is not after start_ns %llu (%s)", i, h[i].end_ns,
                    h[i].start_ns, README_TRACE);
        if ((long long)(h[i].end_ns - h[i].start_ns) < spin_ns - SPIN_SLACK_NS)
            wb_fail(ctx,
                    "record %d: the block ran %llu ns from start_ns to end_ns, expected at least "
                    "spin_ns = %lld (less %d for the timer's step): the whole block spins "
                    "spin_ns of %%globaltimer nanoseconds between its two readings; a spin "
                    "counted in clock cycles (clock64) is shorter on any GPU clocked above "
                    "1 GHz (%s)",
                    i, h[i].end_ns - h[i].start_ns, spin_ns, SPIN_SLACK_NS, README_TRACE);
        if ((h[i].end_ns - h[i].start_ns) > 60000000000ULL)
            wb_fail(ctx,
                    "record %d: the block ran %.1f s; are both times %%globaltimer "
                    "readings? (%s)",
                    i, (h[i].end_ns - h[i].start_ns) * 1e-9, README_TRACE);
    }
}

static const void *trace_kernel(wb_ctx *ctx) {
    const void *(*ptr)(void);
    WB_BIND(ctx, ptr, block_scheduling_trace_kernel_ptr);
    const void *k = ptr();
    if (!k)
        wb_fail(ctx, "block_scheduling_trace_kernel_ptr() returned NULL");
    return k;
}

/* No SM held more blocks of the trace at once than fit (per_sm, from the
 * occupancy API): a limit of the hardware that a right trace never
 * exceeds however its blocks were scheduled, since each SM's records come
 * from one clock and a block starts in a slot only after the block before
 * it there has read its end. A trace whose threads leave before the spin
 * ends can exceed it, on a GPU that hands the thread slots of finished
 * warps to new blocks before their block ends. */
static void check_residency(wb_ctx *ctx, const block_record *h, int n, int threads, int per_sm) {
    int sms = wb_ctx_gpu(ctx)->sm_count;
    int *count = malloc(sizeof(int) * (size_t)sms);
    if (!count)
        wb_fail(ctx, "out of host memory");
    block_scheduling_stats s;
    reference_analyze(h, n, sms, count, &s);
    free(count);
    if (s.max_resident_sm > per_sm)
        wb_fail(ctx,
                "%d blocks of %d threads: the records show %d blocks at once on one SM, "
                "expected at most %d, the most that fit (occupancy API); every thread of a "
                "block spins until the end reading, else its SM starts other blocks in the "
                "slots of the threads that left (%s)",
                n, threads, s.max_resident_sm, per_sm, README_TRACE);
}

/* The launches correct.trace makes: 64-thread blocks (16 to 32 per SM,
 * where block slots are the limit on most GPUs) and 256-thread blocks,
 * which only the SM's thread slots limit (4 to 8 per SM), so that a block
 * whose threads leave early would leave room for more. */
static const int trace_threads[] = {64, 256};

static void test_trace(wb_ctx *ctx) {
    trace_fn trace;
    WB_BIND(ctx, trace, block_scheduling_trace);
    long blocks = 0;
    for (size_t k = 0; k < sizeof trace_threads / sizeof trace_threads[0]; k++) {
        int threads = trace_threads[k], per_sm = 0, cap = 0;
        WB_CUDA(ctx, bs_truth_capacity(trace_kernel(ctx), threads, 0, &per_sm, &cap));
        if (cap < 1)
            wb_fail(ctx, "the trace kernel cannot run %d-thread blocks (occupancy API says 0)",
                    threads);
        int n = 2 * cap + 17;
        long long spin = 20000;
        block_record *h = malloc(sizeof *h * (size_t)n);
        if (!h)
            wb_fail(ctx, "out of host memory");
        /* The block's start time lives in shared memory: a thread that
         * reads it before it is written reads the poison, not a time an
         * earlier block left there. */
        wb_poison_shared(ctx);
        run_trace(ctx, trace, n, threads, 0, spin, h);
        check_records(ctx, h, n, spin);
        /* Under compute-sanitizer the tool's own work moves the readings
         * (an H100 showed 9 blocks at once where 8 fit, for the reference):
         * the residency is judged only in correct.trace's own run. */
        if (!wb_under_tool(ctx))
            check_residency(ctx, h, n, threads, per_sm);
        blocks += n;
        free(h);
    }
    wb_measured(ctx,
                "%ld blocks of 64 and 256 threads, each recorded once, SM ids in range, each at "
                "least spin_ns long, no SM holding more at once than fit",
                blocks);
}

/* ------------------------------------------- who waits: active warps (ncu) */

/* A record cannot show which threads of a block waited: the GPUs measured
 * keep a block's slots until its last thread ends, so a trace whose thread 0
 * alone spins while the others leave writes the same records. The profiler
 * can: sm__warps_active counts the warps still running on an SM each cycle.
 * One full wave of 256-thread blocks (8 warps each, per_sm of them per SM)
 * spinning TRACE_WARPS_SPIN_NS keeps per_sm x 8 warps active for all but the
 * first and last microseconds when every thread waits, and per_sm x 1 when
 * one thread (one warp) of each block does. */
#define TRACE_WARPS_METRIC "sm__warps_active.avg.per_cycle_active"
#define TRACE_WARPS_THREADS 256
#define TRACE_WARPS_SPIN_NS 400000LL
#define TRACE_WARPS_SHARE 0.75
#define TRACE_WARPS_TAG "wb-trace-warps: per_sm, blocks:"

static void trace_warps_child(wb_ctx *ctx) {
    trace_fn trace;
    WB_BIND(ctx, trace, block_scheduling_trace);
    int per_sm = 0, cap = 0;
    WB_CUDA(ctx, bs_truth_capacity(trace_kernel(ctx), TRACE_WARPS_THREADS, 0, &per_sm, &cap));
    block_record *h = malloc(sizeof *h * (size_t)(cap > 0 ? cap : 1));
    if (!h || cap < 1)
        wb_fail(ctx, "out of host memory, or the trace kernel cannot run %d-thread blocks",
                TRACE_WARPS_THREADS);
    run_trace(ctx, trace, cap, TRACE_WARPS_THREADS, 0, TRACE_WARPS_SPIN_NS, h);
    free(h);
    /* To the parent, through ncu's log: it may not load the student's code
     * itself (it runs outside the sandbox). */
    printf("%s %d %d\n", TRACE_WARPS_TAG, per_sm, cap);
    fflush(stdout);
}

/* per_sm and the blocks of the wave, as the child printed them; 0 if not. */
static int read_trace_warps_tag(const char *log, int *per_sm, int *blocks) {
    FILE *f = fopen(log, "r");
    char line[512];
    int ok = 0;
    while (f && fgets(line, sizeof line, f)) {
        const char *t = strstr(line, TRACE_WARPS_TAG);
        if (t && sscanf(t + strlen(TRACE_WARPS_TAG), "%d %d", per_sm, blocks) == 2)
            ok = *per_sm > 0 && *blocks > 0;
    }
    if (f)
        fclose(f);
    return ok;
}

static void test_trace_warps(wb_ctx *ctx) {
    if (wb_under_tool(ctx)) {
        trace_warps_child(ctx);
        return;
    }
    int per_sm = 0, cap = 0;
    char ncu[PATH_MAX], log[PATH_MAX + 32];
    if (!wb_find_tool("ncu", ncu, sizeof ncu))
        wb_skip(ctx, "ncu not found (Nsight Compute comes with the CUDA Toolkit)");
    snprintf(log, sizeof log, "%s/ncu.log", wb_out_dir(ctx));
    const char *argv[] = {ncu,         "--clock-control",  "none", "--csv",
                          "--metrics", TRACE_WARPS_METRIC, NULL};
    int st = wb_run_self_under(ctx, argv, NULL, log);
    wb_ncu_reading r;
    wb_ncu_read(log, TRACE_WARPS_METRIC, "block_scheduling_trace_kernel", NULL, &r);
    wb_ncu_skip_if_closed(ctx, &r, log);
    if (r.error[0] || !read_trace_warps_tag(log, &per_sm, &cap))
        wb_skip(ctx, "ncu's run of the trace did not finish (exit status %d)%s%s; log: %s", st,
                r.error[0] ? ": " : "", r.error, log);
    if (!r.found)
        wb_fail(ctx,
                "ncu profiled no launch of block_scheduling_trace_kernel while "
                "block_scheduling_trace ran %d blocks of %d threads: it launches the kernel "
                "named in block_scheduling.h (%s); log: %s",
                cap, TRACE_WARPS_THREADS, README_TRACE, log);
    double full = (double)per_sm * (TRACE_WARPS_THREADS / 32);
    wb_record(ctx, "warps_active_per_sm", r.value, "warps", 0, "ref");
    wb_record(ctx, "warps_resident_per_sm", full, "warps", 0, "ref");
    if (r.value < TRACE_WARPS_SHARE * full)
        wb_fail(ctx,
                "one wave of %d blocks of %d threads, each spinning %lld us: ncu counts %.1f warps "
                "active per SM on average (%s), expected at least %.0f %% of the %.0f warps its "
                "%d blocks per SM hold: most threads of each block leave before the end reading; "
                "every thread waits, or the block only looks busy (%s)",
                cap, TRACE_WARPS_THREADS, TRACE_WARPS_SPIN_NS / 1000, r.value, TRACE_WARPS_METRIC,
                100 * TRACE_WARPS_SHARE, full, per_sm, README_TRACE);
    wb_measured(ctx,
                "%.1f warps active per SM on average (ncu, %s) of the %.0f that %d blocks of %d "
                "threads hold: every warp of the block waits",
                r.value, TRACE_WARPS_METRIC, full, per_sm, TRACE_WARPS_THREADS);
}

typedef __typeof__(&block_scheduling_capacity) capacity_fn;

/* One kernel/launch shape of the capacity cases. */
typedef struct capacity_case {
    const void *k;
    const char *name;
    int threads;
    size_t smem;
} capacity_case;

/* Fails unless per_sm is want_per_sm and capacity is want_per_sm x sms;
 * where says on which GPU and advice what a wrong SM count means there. A
 * right per_sm with a wrong capacity can only be a wrong SM count. */
static void check_capacity(wb_ctx *ctx, const capacity_case *c, const char *where,
                           const char *advice, int per_sm, int capacity, int want_per_sm, int sms) {
    int want = want_per_sm * sms;
    if (per_sm != want_per_sm)
        wb_fail(ctx,
                "for %s with %d threads and %zu B dynamic shared memory, %s: per_sm %d, "
                "expected %d, what the occupancy API says (capacity %d, expected %d = %d x %d "
                "SMs) (%s)",
                c->name, c->threads, c->smem, where, per_sm, want_per_sm, capacity, want,
                want_per_sm, sms, README_FIT);
    if (capacity != want) {
        char got[48] = "";
        if (per_sm > 0 && capacity % per_sm == 0)
            snprintf(got, sizeof got, " = %d x %d", per_sm, capacity / per_sm);
        wb_fail(ctx,
                "for %s with %d threads and %zu B dynamic shared memory, %s: capacity %d%s, "
                "expected %d = %d x %d: %s (%s)",
                c->name, c->threads, c->smem, where, capacity, got, want, want_per_sm, sms, advice,
                README_FIT);
    }
}

#define TYPED_IN "the SM count must come from the runtime, not be typed in"

/* The same shape on device dev of a simulated machine m[0 .. n)
 * (grader/sim/): the runtime's device queries and its occupancy API answer
 * for it, the occupancy API from the kernel as compiled and the simulated
 * GPU's own limits (a T4's 1,024 threads and 64 KiB of shared memory per
 * SM), so the capacity must be the simulated GPU's blocks per SM times its
 * SM count. An SM count or per-SM limits typed in are right on one kind of
 * GPU only. */
static void check_simulated(wb_ctx *ctx, capacity_fn capacity, const capacity_case *c,
                            const wb_sim_device *const *m, int n, int dev) {
    char where[200];
    if (n == 1)
        snprintf(where, sizeof where, "on a simulated %s (%d SMs, %d threads per SM)", m[0]->name,
                 m[0]->sm_count, m[0]->threads_per_sm);
    else
        snprintf(where, sizeof where,
                 "on device %d (%s, %d SMs), the current one, of a simulated machine of two "
                 "GPUs (device 0: %s, %d SMs)",
                 dev, m[dev]->name, m[dev]->sm_count, m[0]->name, m[0]->sm_count);
    int gp = -1, gc = -1, wp = 0, wc = 0;
    wb_sim_use_machine(m, n);
    WB_CUDA(ctx, cudaSetDevice(dev)); /* the simulated machine's current device */
    int te = bs_truth_capacity(c->k, c->threads, c->smem, &wp, &wc);
    int e = capacity(c->k, c->threads, c->smem, &gp, &gc);
    wb_sim_use(NULL);
    if (te != cudaSuccess)
        wb_fail(ctx,
                "grader error: the occupancy API failed for %s with %d threads and %zu B %s: %s",
                c->name, c->threads, c->smem, where, cudaGetErrorName((cudaError_t)te));
    if (e != cudaSuccess)
        wb_fail(ctx,
                "for %s with %d threads and %zu B, %s: returned %s (the simulation answers "
                "cudaGetDevice, cudaGetDeviceProperties, cudaDeviceGetAttribute and the occupancy "
                "API) (%s)",
                c->name, c->threads, c->smem, where, cudaGetErrorName((cudaError_t)e), README_FIT);
    check_capacity(ctx, c, where,
                   n == 1 ? TYPED_IN
                          : "the SM count must be the current device's (cudaGetDevice), not "
                            "device 0's",
                   gp, gc, wp, m[dev]->sm_count);
}

/* Every shape on this GPU against the occupancy API, then on each simulated
 * GPU (A100, T4, RTX 4090, H200, laptop RTX 3060, Tegra X2: SM counts 108,
 * 40, 128, 132, 30 and 2) and on device 1 of a simulated machine of two (a
 * T4, then an A100): an SM count typed in is right on one kind of GPU only. */
static void test_capacity(wb_ctx *ctx) {
    capacity_fn capacity;
    WB_BIND(ctx, capacity, block_scheduling_capacity);
    const capacity_case c[] = {
        {bs_probe_kernel(0), "a light kernel", 1024, 0},
        {bs_probe_kernel(0), "a light kernel", 256, 0},
        {bs_probe_kernel(0), "a light kernel", 32, 0},
        {bs_probe_kernel(0), "a light kernel", 96, 40 << 10},
        {bs_probe_kernel(1), "a kernel with 24 KiB static shared memory", 128, 0},
        {bs_probe_kernel(1), "a kernel with 24 KiB static shared memory", 64, 8 << 10},
        {bs_probe_kernel(2), "a register-heavy kernel", 256, 0},
        {trace_kernel(ctx), "your trace kernel", 128, 32 << 10},
        {trace_kernel(ctx), "your trace kernel", 256, 0}};
    const wb_sim_device *two[2] = {wb_sim_get(1), wb_sim_get(0)};
    int n = (int)(sizeof c / sizeof c[0]);
    char here[48];
    snprintf(here, sizeof here, "on this GPU (%d SMs)", wb_ctx_gpu(ctx)->sm_count);
    for (int i = 0; i < n; i++) {
        int wp = 0, wc = 0, gp = -1, gc = -1;
        WB_CUDA(ctx, bs_truth_capacity(c[i].k, c[i].threads, c[i].smem, &wp, &wc));
        int e = capacity(c[i].k, c[i].threads, c[i].smem, &gp, &gc);
        if (e != cudaSuccess)
            wb_fail(ctx, "for %s, %d threads, %zu B: returned %s", c[i].name, c[i].threads,
                    c[i].smem, cudaGetErrorName((cudaError_t)e));
        check_capacity(ctx, &c[i], here, TYPED_IN, gp, gc, wp, wb_ctx_gpu(ctx)->sm_count);
        for (int d = 0; d < wb_sim_count(); d++) {
            const wb_sim_device *one = wb_sim_get(d);
            check_simulated(ctx, capacity, &c[i], &one, 1, 0);
        }
        check_simulated(ctx, capacity, &c[i], two, 2, 1);
    }
    wb_measured(ctx,
                "%d kernel/launch combinations right on this GPU, on %d simulated GPUs and on "
                "device 1 of a simulated machine of two",
                n, wb_sim_count());
}

/* ------------------------------------------------------------ timeline */

/* The records as block,smid,start_us,end_us (times from the first start),
 * for `make plots` (slides/plots/01-timeline.gp). Not graded: a file that
 * cannot be written costs no points. */
static void write_csv(const char *path, const block_record *r, int n, unsigned long long t0) {
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "block,smid,start_us,end_us\n");
    for (int i = 0; i < n; i++)
        fprintf(f, "%u,%u,%.3f,%.3f\n", r[i].block, r[i].smid, (r[i].start_ns - t0) * 1e-3,
                (r[i].end_ns - t0) * 1e-3);
    fclose(f);
}

static void test_timeline(wb_ctx *ctx) {
    trace_fn trace;
    analyze_fn analyze;
    WB_BIND(ctx, trace, block_scheduling_trace);
    WB_BIND(ctx, analyze, block_scheduling_analyze);
    const int threads = 128;
    const size_t smem = 32 << 10;
    int per_sm = 0, cap = 0, sms = wb_ctx_gpu(ctx)->sm_count;
    WB_CUDA(ctx, bs_truth_capacity(trace_kernel(ctx), threads, smem, &per_sm, &cap));
    if (cap < 1)
        wb_fail(ctx, "the trace kernel cannot run %d threads with %zu B (occupancy API says 0)",
                threads, smem);
    int n = 2 * cap + cap / 2;
    long long spin = 300000;
    block_record *h = malloc(sizeof *h * (size_t)n);
    run_trace(ctx, trace, n, threads, smem, spin, h);
    check_records(ctx, h, n, spin);

    int *want = malloc(sizeof(int) * (size_t)sms), *got = per_sm_alloc(ctx, sms);
    block_scheduling_stats ws;
    stats_slot gs;
    memset(&gs, 0xa5, sizeof gs);
    reference_analyze(h, n, sms, want, &ws);
    unsigned long long t0 = ~0ULL;
    for (int i = 0; i < n; i++)
        t0 = h[i].start_ns < t0 ? h[i].start_ns : t0;
    char csv[PATH_MAX + 32];
    snprintf(csv, sizeof csv, "%s/timeline.csv", wb_out_dir(ctx));
    write_csv(csv, h, n, t0);
    wb_record(ctx, "timeline_resident_per_sm", ws.max_resident_sm, "blocks", per_sm, "eq");
    wb_measured(ctx,
                "%d per SM and %d on the GPU at once (occupancy API: %d, %d), %d waves; "
                "records in %s (make plots draws build/plots/01-timeline.svg)",
                ws.max_resident_sm, ws.max_resident_gpu, per_sm, cap, ws.waves, csv);
    if (ws.max_resident_sm != per_sm || ws.max_resident_gpu != cap)
        wb_fail(ctx,
                "the timeline shows %d blocks per SM and %d on the GPU at once, the "
                "occupancy API %d and %d; is another program using the GPU? (records: %s; "
                "make plots draws them)",
                ws.max_resident_sm, ws.max_resident_gpu, per_sm, cap, csv);
    if (ws.waves != 3)
        wb_fail(ctx, "%d blocks at %d at once should take 3 waves; the timeline shows %d", n, cap,
                ws.waves);
    if (analyze(h, n, sms, got, &gs.s) != 0)
        wb_fail(ctx, "block_scheduling_analyze rejected the trace's records (%s)", README_WAVES);
    check_host_guards(ctx, "on this trace", got, sms, &gs);
    for (int k = 0; k < sms; k++)
        if (got[k] != want[k])
            wb_fail(ctx, "on this trace, your analysis puts %d blocks on SM %d, the grader %d (%s)",
                    got[k], k, want[k], README_WAVES);
    if (gs.s.max_resident_sm != ws.max_resident_sm ||
        gs.s.max_resident_gpu != ws.max_resident_gpu || gs.s.waves != ws.waves)
        wb_fail(ctx,
                "on this trace, your analysis gives %d per SM, %d on the GPU, %d waves; the "
                "grader %d, %d, %d (%s)",
                gs.s.max_resident_sm, gs.s.max_resident_gpu, gs.s.waves, ws.max_resident_sm,
                ws.max_resident_gpu, ws.waves, README_WAVES);
    free(h);
    free(want);
    free(got);
}

/* ---------------------------------------------------------- staircase */

typedef struct trace_arg {
    trace_fn trace;
    int n, threads;
    long long spin_ns;
    block_record *d;
} trace_arg;

static int trace_work(void *arg, void *stream) {
    trace_arg *a = arg;
    return a->trace(a->n, a->threads, 0, a->spin_ns, a->d, (cudaStream_t)stream);
}

static double time_grid(wb_ctx *ctx, trace_arg *a, int n) {
    wb_time_opts o = wb_time_defaults();
    o.warmup = 2, o.min_trials = 7, o.max_trials = 41, o.max_seconds = 2.0;
    double ms = 0, spread = 0;
    a->n = n;
    int e = wb_time_one(trace_work, a, &o, &ms, &spread);
    if (e != cudaSuccess)
        wb_fail(ctx, "timing block_scheduling_trace(%d blocks) returned %s (%s)", n,
                cudaGetErrorName((cudaError_t)e), cudaGetErrorString((cudaError_t)e));
    return ms;
}

static void test_staircase(wb_ctx *ctx) {
    __typeof__(&block_scheduling_capacity) capacity;
    trace_arg a = {0};
    WB_BIND(ctx, capacity, block_scheduling_capacity);
    WB_BIND(ctx, a.trace, block_scheduling_trace);
    a.threads = 256;
    a.spin_ns = 100000;
    int per_sm = 0, cap = 0;
    int e = capacity(trace_kernel(ctx), a.threads, 0, &per_sm, &cap);
    if (e != cudaSuccess)
        wb_fail(ctx, "block_scheduling_capacity returned %s", cudaGetErrorName((cudaError_t)e));
    if (cap < 1 || cap > 1 << 20)
        wb_fail(ctx,
                "block_scheduling_capacity predicts %d blocks at once; nothing to measure "
                "(%s)",
                cap, README_FIT);
    size_t bytes = sizeof(block_record) * ((size_t)cap + 1 + REC_GUARD);
    WB_CUDA(ctx, cudaMalloc((void **)&a.d, bytes));
    WB_CUDA(ctx, cudaMemset(a.d, 0xff, bytes));
    int half = cap / 2 > 0 ? cap / 2 : 1;
    double t_half = time_grid(ctx, &a, half), t_cap = time_grid(ctx, &a, cap);
    double t_next = time_grid(ctx, &a, cap + 1);
    /* The timed launches wrote their records, and nothing past them. */
    block_record guard[REC_GUARD];
    WB_CUDA(ctx, cudaDeviceSynchronize());
    WB_CUDA(ctx, cudaMemcpy(guard, a.d + cap + 1, sizeof guard, cudaMemcpyDeviceToHost));
    char what[96];
    snprintf(what, sizeof what, "the timed launches of up to %d blocks", cap + 1);
    check_record_guard(ctx, guard, cap + 1, what);
    cudaFree(a.d);
    /* Both limits sit between one wave (1.0x) and two (about 1.9x): a
     * capacity too high by any amount, 1 block to 2x, puts C blocks in two
     * waves and fails the flat part; one too low by any amount leaves C + 1
     * in one wave and fails the step (README, "Why the limits hold"). */
    double flat = t_cap / t_half, step = t_next / t_cap;
    wb_record(ctx, "staircase_flat", flat, "ratio", 1.5, "le");
    wb_record(ctx, "staircase_step", step, "ratio", 1.5, "ge");
    wb_measured(ctx,
                "your capacity %d: %d blocks %.3f ms, %d blocks %.3f ms, %d blocks %.3f ms; "
                "flat %.2fx (need <= 1.5x), step %.2fx (need >= 1.5x)",
                cap, half, t_half, cap, t_cap, cap + 1, t_next, flat, step);
    if (flat > 1.5)
        wb_fail(ctx,
                "%d blocks took %.2fx as long as %d: more than one wave, so fewer than %d "
                "blocks fit at once; your capacity is too high (%s)",
                cap, flat, half, cap, README_FIT);
    if (step < 1.5)
        wb_fail(ctx,
                "%d blocks took only %.2fx as long as %d: the extra block still found a "
                "free slot, so more than %d fit at once; your capacity is too low (%s)",
                cap + 1, step, cap, cap, README_FIT);
}

/* ------------------------------------------------------- the tail effect */

static unsigned int item_ref(unsigned int x) {
    unsigned int h = x;
    h ^= h >> 16;
    h *= 0x7feb352dU;
    h ^= h >> 15;
    h *= 0x846ca68bU;
    h ^= h >> 16;
    return h;
}

typedef __typeof__(&block_scheduling_process) process_fn;

typedef struct proc_arg {
    process_fn fn; /* NULL: the grader's baseline */
    const unsigned int *in;
    unsigned int *out;
    int n;
    long long item_ns;
} proc_arg;

static int proc_work(void *arg, void *stream) {
    proc_arg *a = arg;
    if (!a->fn)
        return bs_baseline_process(a->in, a->out, a->n, a->item_ns, stream);
    return a->fn(a->in, a->out, a->n, a->item_ns, (cudaStream_t)stream);
}

/* Random input on the device, and the expected output on the host. */
static void make_input(wb_ctx *ctx, wb_rng *g, int n, unsigned int **d_in, unsigned int **h_in,
                       unsigned int **want) {
    *h_in = malloc(sizeof(unsigned int) * (size_t)n);
    *want = malloc(sizeof(unsigned int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        (*h_in)[i] = (unsigned int)wb_rng_u64(g);
        (*want)[i] = item_ref((*h_in)[i]);
    }
    WB_CUDA(ctx, cudaMalloc((void **)d_in, sizeof(unsigned int) * (size_t)n));
    WB_CUDA(ctx,
            cudaMemcpy(*d_in, *h_in, sizeof(unsigned int) * (size_t)n, cudaMemcpyHostToDevice));
}

/* Items of guard space after every output of block_scheduling_process, in
 * the same allocation: poisoned with 0xAB bytes like the output and checked
 * unchanged after every call, the timed ones included. 1024 items hold the
 * overrun of a launch of whole 256-thread blocks that forgets i < n. */
#define OUT_GUARD 1024

/* d_out of n items and OUT_GUARD guard items, poisoned. */
static void poison_output(wb_ctx *ctx, unsigned int *d_out, int n) {
    WB_CUDA(ctx, cudaMemset(d_out, 0xab, sizeof *d_out * ((size_t)n + OUT_GUARD)));
}

/* Output right everywhere, nothing written past it, input untouched. The
 * items are exact (integer hashes), so the comparison is exact. */
static void check_output(wb_ctx *ctx, const unsigned int *d_in, const unsigned int *h_in,
                         const unsigned int *d_out, const unsigned int *want, int n,
                         long long item_ns) {
    unsigned int *h = malloc(sizeof(unsigned int) * ((size_t)n + OUT_GUARD));
    if (!h)
        wb_fail(ctx, "out of host memory");
    WB_CUDA(ctx, cudaMemcpy(h, d_out, sizeof *h * ((size_t)n + OUT_GUARD), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        if (h[i] != want[i])
            wb_fail(ctx, "n_items %d, item_ns %lld: out[%d] = 0x%08x, expected 0x%08x%s (%s)", n,
                    item_ns, i, h[i], want[i], h[i] == 0xabababab ? " (never written)" : "",
                    README_TAIL);
    for (int k = 0; k < OUT_GUARD; k++)
        if (h[n + k] != 0xababababu)
            wb_fail(ctx,
                    "n_items %d: wrote past the end of d_out: out[%d], the first of the %d "
                    "poisoned items after the output that changed, holds 0x%08x; expected "
                    "nothing written at or past out[n_items]: a thread whose item is not below "
                    "n_items must write nothing (%s)",
                    n, n + k, OUT_GUARD, h[n + k], README_TAIL);
    WB_CUDA(ctx, cudaMemcpy(h, d_in, sizeof *h * (size_t)n, cudaMemcpyDeviceToHost));
    if (memcmp(h, h_in, sizeof *h * (size_t)n) != 0)
        wb_fail(ctx, "n_items %d: the input changed; d_in is read-only", n);
    free(h);
}

static void test_process(wb_ctx *ctx) {
    process_fn fn;
    WB_BIND(ctx, fn, block_scheduling_process);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    const struct {
        int n;
        long long item_ns;
    } c[] = {
        {1, 0}, {255, 1000}, {1000, 0}, {123457, 0}, {(int)wb_rng_range(&g, 300000, 1500000), 200}};
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        unsigned int *d_in, *h_in, *want, *d_out;
        make_input(ctx, &g, c[k].n, &d_in, &h_in, &want);
        WB_CUDA(ctx, cudaMalloc((void **)&d_out, sizeof *d_out * ((size_t)c[k].n + OUT_GUARD)));
        poison_output(ctx, d_out, c[k].n);
        int e = fn(d_in, d_out, c[k].n, c[k].item_ns, 0);
        if (e != cudaSuccess)
            wb_fail(ctx, "block_scheduling_process(n_items %d) returned %s", c[k].n,
                    cudaGetErrorName((cudaError_t)e));
        wb_wait(ctx, NULL, "block_scheduling_process's kernel (n_items %d)", c[k].n);
        check_output(ctx, d_in, h_in, d_out, want, c[k].n, c[k].item_ns);
        cudaFree(d_in);
        cudaFree(d_out);
        free(h_in);
        free(want);
    }
    wb_measured(ctx, "5 sizes right, input unchanged");
}

#define TAIL_ROUNDS 24
#define TAIL_ITEM_NS 10000LL

/* The timed problem: the baseline writes d_base, the code under test d_cand,
 * both from the same input. */
typedef struct tail_state {
    proc_arg base, cand;
    unsigned int *h_in, *want;
    char floor_why[160];
} tail_state;

static tail_state tail;

static int tail_baseline(void *p, void *stream) {
    return proc_work(&((tail_state *)p)->base, stream);
}

static int tail_candidate(void *p, void *stream) {
    return proc_work(&((tail_state *)p)->cand, stream);
}

static void tail_open(wb_ctx *ctx, wb_perf_run *run) {
    WB_BIND(ctx, tail.cand.fn, block_scheduling_process);
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    int cap = 0;
    WB_CUDA(ctx, bs_baseline_capacity(&cap));
    /* Just under TAIL_ROUNDS items for each thread of capacity + 1 blocks:
     * the baseline gives every one of its blocks TAIL_ROUNDS full rounds,
     * the last block alone in a second wave (2 x TAIL_ROUNDS rounds in all).
     * One full wave needs TAIL_ROUNDS + 1 rounds for the same items, so the
     * best speedup is 2 x TAIL_ROUNDS / (TAIL_ROUNDS + 1), about 1.9x. */
    int n = (cap + 1) * bs_baseline_threads() * TAIL_ROUNDS - 37;
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    unsigned int *d_in, *d_base, *d_cand;
    make_input(ctx, &g, n, &d_in, &tail.h_in, &tail.want);
    WB_CUDA(ctx, cudaMalloc((void **)&d_base, sizeof(unsigned int) * (size_t)n));
    WB_CUDA(ctx, cudaMalloc((void **)&d_cand, sizeof(unsigned int) * ((size_t)n + OUT_GUARD)));
    tail.base = (proc_arg){NULL, d_in, d_base, n, TAIL_ITEM_NS};
    tail.cand = (proc_arg){tail.cand.fn, d_in, d_cand, n, TAIL_ITEM_NS};
    run->baseline = tail_baseline;
    run->candidate = tail_candidate;
    run->arg = &tail;
    run->opts.max_seconds = 4.0;
    /* No launch can beat every thread slot of the GPU busy all the time. */
    run->floor_ms =
        (double)n * TAIL_ITEM_NS / ((double)gpu->sm_count * gpu->max_threads_per_sm) * 1e-6;
    run->floor_share = 0.85;
    snprintf(tail.floor_why, sizeof tail.floor_why,
             "every thread slot of the GPU could run %d items of %lld ns", n, TAIL_ITEM_NS);
    run->floor_why = tail.floor_why;
    run->floor_advice = "each item must go through block_scheduling_item";
}

static void tail_poison(wb_ctx *ctx, void *arg) {
    proc_arg *c = &((tail_state *)arg)->cand;
    poison_output(ctx, c->out, c->n);
}

static void tail_check(wb_ctx *ctx, void *arg) {
    tail_state *t = (tail_state *)arg;
    check_output(ctx, t->cand.in, t->h_in, t->cand.out, t->want, t->cand.n, TAIL_ITEM_NS);
}

static void tail_close(void *arg) {
    tail_state *t = (tail_state *)arg;
    cudaFree((void *)t->base.in);
    cudaFree(t->base.out);
    cudaFree(t->cand.out);
    free(t->h_in);
    free(t->want);
}

static const wb_perf perf_tail = {
    .metric = "tail",
    .limit = 1.45,
    .baseline = "capacity+1 blocks",
    .size = "one wave of work",
    .derivation = "items take 10 us of %globaltimer whatever the clock or memory, and the work is "
                  "sized from the GPU's own capacity so that the baseline's capacity + 1 blocks "
                  "take 48 rounds (the last block alone in a second wave) against one full "
                  "wave's 25 on any GPU of 24 blocks or more (16 SMs hold 64), so the reference "
                  "gets 48/25 = 1.92x less a fixed launch cost c, (480 + c) / (250 + c), "
                  "1.86-1.90x on the H100 and H200 and 25 % clear while c stays under 33 us, and "
                  "the stub is the baseline (1.0x)",
    .figures = "reference 1.86-1.90x on H100 (10 runs) and 1.89-1.90x on H200 (4 runs); stub "
               "1.00x on both (2026-11-22, CUDA 13.0)",
    .advice = "the last wave still runs nearly empty, far below the GPU's capacity "
              "(" README_TAIL ")",
    .open = tail_open,
    .poison = tail_poison,
    .check = tail_check,
    .close = tail_close,
};

/* ----------------------------------------------------------- the table */

/* The waves these tests expect come from the SM count the runtime reports
 * (the contract asks it), which a green context does not change. */
#define UNRESTRICTED_WAVES                                                                         \
    "its waves come from the runtime's SM count, which a green context does not change"

static const wb_test tests[] = {
    WB_HOST("correct.analyze_per_sm", 8, test_analyze_per_sm, .hint = README_WAVES),
    WB_HOST("correct.analyze_resident", 10, test_analyze_resident,
            .hint = "README.md, \"From records to waves\": sweep over starts and ends, ends first "
                    "on a tie"),
    WB_HOST("correct.analyze_waves", 5, test_analyze_waves, .hint = README_WAVES),
    WB_HOST("correct.analyze_invalid", 2, test_analyze_invalid,
            .hint = "block_scheduling.h: only a record with end_ns < start_ns is invalid"),
    /* The analysis's bodies again, the library built for AddressSanitizer: a write one past an
     * array it allocates (the allocator's slack) or declares (the frame's padding) changes no
     * figure the tests above check, nor the guard after h_blocks_per_sm. Without a GPU. */
    WB_ASAN_OF("sanitizer.host", 2,
               "correct.analyze_per_sm correct.analyze_resident correct.analyze_waves "
               "correct.analyze_invalid"),
    WB_GPU("correct.capacity", 10, test_capacity, .timeout_s = 60, .hint = README_FIT),
    WB_GPU("correct.trace", 12, test_trace, .timeout_s = 60, .hint = README_TRACE),
    /* The trace's shared start time: written by one thread, read by all
     * after a barrier every thread reaches. */
    WB_SANITIZER_OF("sanitizer.trace_race", 2, "racecheck", "correct.trace"),
    WB_SANITIZER_OF("sanitizer.trace_sync", 1, "synccheck", "correct.trace"),
    WB_GPU("check.timeline", 10, test_timeline, .timeout_s = 60, .requires = "correct.trace",
           .hint = README_WAVES, .unrestricted = UNRESTRICTED_WAVES,
           .limit = {.text = "2.5 waves of 128-thread, 32 KiB blocks: the timeline shows exactly "
                             "the occupancy API's blocks per SM and per GPU, and 3 waves; your "
                             "analysis of the same records equals the grader's",
                     .derivation = "the hardware holds at most what the occupancy API says (2 to "
                                   "6 of these blocks per SM, by capability) and starts a wave "
                                   "within microseconds of a 300 us spin on any SM count, so a "
                                   "right trace shows exactly the API's counts and 2.5 waves round "
                                   "up to 3, while a wrong trace shows other counts and your "
                                   "analysis is compared with the grader's on the same records, "
                                   "whatever the GPU",
                     .figures = "H100 and H200: 6 per SM, 792 on the GPU, 3 waves (occupancy "
                                "API: 6, 792), 2026-11-22, CUDA 13.0; stub: not graded"}),
    WB_GPU("check.staircase", 10, test_staircase, .timeout_s = 60, .requires = "correct.trace",
           .hint = README_FIT, .unrestricted = UNRESTRICTED_WAVES,
           .limit = {.text = "with your capacity C for 256-thread blocks and a 100 us spin: "
                             "T(C) / T(C/2) <= 1.5 and T(C+1) / T(C) >= 1.5",
                     .derivation = "spins are nanoseconds, not cycles, so on any GPU one wave of "
                                   "C blocks is flat against C/2 (1.0x) and one block more is a "
                                   "second wave, (200 + c) / (100 + c) with a fixed launch cost c "
                                   "(1.91-1.94x on the H100 and H200, 25 % clear while c stays "
                                   "under 14 us), while any capacity too low gives a step of about "
                                   "1.0x and one up to 2x too high a flat part of about 1.9x",
                     .figures = "H100: flat 1.00-1.01x, step 1.91-1.94x; H200: flat 1.00x, step "
                                "1.94x (2026-11-22, CUDA 13.0; stub: not graded)"}),
    /* Informational (0 points: the profiler's counters are closed on many
     * machines): no record shows which threads waited. */
    WB_MEASURE("ncu.trace_warps", 0, test_trace_warps, .timeout_s = 240, .tool = "ncu",
               .hint = README_TRACE),
    WB_GPU("correct.process", 5, test_process, .timeout_s = 60, .hint = README_TAIL),
    WB_PERF("perf.tail", 13, perf_tail, .timeout_s = 90, .requires = "correct.process",
            .hint = README_TAIL, .unrestricted = UNRESTRICTED_WAVES),
    WB_QUESTION_HASH_ID("question.waves_1000", "waves_1000_108_3", 2, 0x3d3bb480d8a4522fULL,
                        "waves for 1000 blocks on 108 SMs holding 3 blocks each"),
    WB_QUESTION_HASH_ID("question.waves_4500", "waves_4500_132_8", 2, 0x452a0ec32c84c846ULL,
                        "waves for 4500 blocks on 132 SMs holding 8 blocks each"),
    WB_QUESTION_HASH_ID("question.last_wave", "last_wave_blocks_1000_108_3", 2,
                        0xb6020a79ad1a76e0ULL,
                        "blocks in the last wave of 1000 blocks on 108 SMs x 3"),
    WB_QUESTION_HASH_ID("question.chain_grid", "chain_max_grid_108_3", 2, 0x684c659a8523e1cbULL,
                        "largest grid for which the block-chain kernel surely finishes, 108 SMs "
                        "x 3"),
    WB_QUESTION_HASH("small_gpu_ms", 2, 0x0ab21d135301d2b3ULL,
                     "milliseconds for 1000 blocks of 1 ms on 16 SMs x 4"),
    WB_QUESTION_HASH_ID("question.full_wave_grid", "full_wave_grid_132_384", 2,
                        0xf50c590f6c730d90ULL,
                        "grid of one full wave of 384-thread blocks on 132 SMs"),
};

WB_LAB_MAIN(tests)
