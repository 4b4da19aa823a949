/* check_launch_overhead.c - the grader of lab 08: launch costs against the grader's, the break-even
 * point, a chain of small kernels made fast, copies that overlap kernels */
/* SPDX-License-Identifier: MIT */
#include "wb_grader.h"
#include "wb_answers.h"
#include "wb_ceiling.h"
#include "wb_rng.h"
#include "wb_stats.h"
#include "wb_timing.h"

#include "launch_overhead.h"
#include "sim_waits.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define README_HOST "README.md, \"Measuring host time\""
#define README_SEES "README.md, \"How the grader sees the waits\""
#define README_SYNC "README.md, \"Waiting after every launch\""
#define README_WAIT "README.md, \"How much work hides a launch\""
#define README_BREAK "README.md, \"The break-even point\""
#define README_CHAIN "README.md, \"Many small dependent kernels\""
#define README_GRAPH "README.md, \"CUDA graphs\""
#define README_CONTRACT "README.md, \"The contract\""
#define README_PIPE "README.md, \"Copies that overlap kernels\""
#define README_FREE "README.md, \"Keeping the host free\""

/* Measurements: the student's median within 30 % of the grader's median,
 * both taken in this process, alternating (README.md, "What is graded").
 * A right figure stayed within 10 % of the grader's on the H100 and H200;
 * the nearest wrong ones are a factor away: a synchronisation in the wrong
 * place adds or saves a round trip per launch (1.9 to 2.7 times on those
 * GPUs, and a round trip over PCIe costs several microseconds on any
 * host), a clock read before the GPU finished drops the kernels' time. */
#define LO_TOL 0.30
#define LO_REPS 5
#define LO_ASYNC_LAUNCHES 20000 /* as many as wb_measure_empty_launch_us makes */
#define LO_SYNC_LAUNCHES 10000
#define LO_SWEEP_LAUNCHES 500
#define LO_SWEEP_REPS 3
/* At the sweep's largest point no time may be below this share of the
 * busy-wait's own length at the GPU's peak SM clock. */
#define LO_WAIT_FLOOR 0.9
/* question.my_break_even_cycles: the answer within this factor of the
 * grader's own measurement, either way. The grader's figure ranged from
 * 10,211 to 16,085 cycles over the runs of one day on an H100 and an H200
 * (a factor 1.58); 1.75 leaves room for that and rejects the factor 2 of
 * a mixed-up threshold read from a run like the grader's, though not one
 * read on a day of low figures and graded on a day of high ones (2 x 10,211
 * against 16,085 is 1.27): no band tells that one from a right answer. */
#define LO_Q_FACTOR 1.75

/* Guard zones: every output the grader hands over is followed, in the same
 * allocation, by a guard poisoned with GUARD_BYTE, checked untouched after
 * each call. GUARD_WORDS after the chain's d_out and d_work is more than
 * the round-up of a grid of 256-thread blocks (255 words at most);
 * GUARD_POINTS after the sweep's out[]. */
#define GUARD_BYTE 0xA5
#define GUARD_WORD 0xA5A5A5A5u
#define GUARD_WORDS 1024
#define GUARD_POINTS 4

/* The offset of the first byte of g[0 .. n) that is not GUARD_BYTE; -1 if none. */
static long first_touched(const void *g, size_t n) {
    const unsigned char *b = (const unsigned char *)g;
    for (size_t i = 0; i < n; i++)
        if (b[i] != GUARD_BYTE)
            return (long)i;
    return -1;
}

/* The performance task (perf_chain below: its limit and why). */
#define PERF_N 4096
#define PERF_STEPS 4096

typedef __typeof__(&launch_overhead_empty_async) measure_fn;
typedef __typeof__(&launch_overhead_sweep) sweep_fn;
typedef __typeof__(&launch_overhead_break_even) break_even_fn;
typedef __typeof__(&launch_overhead_chain) chain_fn;
typedef launch_overhead_point point;

/* Grader-owned kernels and measurements (lo_baseline.cu). */
int lo_probe_launch(void);
int lo_empty_sync_us(int launches, double *us);
int lo_sweep(const long long *cycles, int points, int launches, int with_sync, point *out);
int lo_naive_chain(const uint32_t *d_in, uint32_t *d_out, uint32_t *d_work, int n, int steps,
                   void *stream);
int lo_delayed_copy(uint32_t *d_in, const uint32_t *d_src, size_t n, long long ns, void *stream);
int lo_spin(long long ns, void *stream);
int lo_work(const uint32_t *d_in, uint32_t *d_out, size_t n, int iters, void *stream);
int lo_pipe_serial(const uint32_t *h_in, uint32_t *h_out, uint32_t *d_in, uint32_t *d_out, size_t n,
                   int iters, void *stream);

/* The sweep's busy-waits: fine steps around the break-even points expected
 * on current GPUs (~5,000 to ~20,000 cycles), coarse ones beyond. */
static const long long sweep_cycles[] = {0,     1000,  2000,  3000,  4000,  6000,  8000,
                                         10000, 12000, 14000, 16000, 20000, 24000, 28000,
                                         32000, 40000, 48000, 64000, 96000, 128000};
#define SWEEP_POINTS ((int)(sizeof sweep_cycles / sizeof sweep_cycles[0]))

/* ------------------------------------------------ the grader's own arithmetic */

/* The break-even rule of launch_overhead.h. */
static double ref_break_even(const point *p, int n, double empty_us) {
    if (p == NULL || n < 1 || !(empty_us > 0) || !isfinite(empty_us))
        return -1.0;
    for (int i = 1; i < n; i++)
        if (p[i].cycles <= p[i - 1].cycles)
            return -1.0;
    const double thr = 2.0 * empty_us;
    for (int i = 0; i < n; i++) {
        if (!(p[i].async_us >= thr))
            continue;
        if (i == 0)
            return (double)p[0].cycles;
        double c0 = (double)p[i - 1].cycles, c1 = (double)p[i].cycles;
        return c0 + (c1 - c0) * (thr - p[i - 1].async_us) / (p[i].async_us - p[i - 1].async_us);
    }
    return -1.0;
}

/* The chain on the CPU: state_steps of `in` into `out` (n words each). */
static void ref_chain(const uint32_t *in, uint32_t *out, int n, int steps) {
    uint32_t *a = (uint32_t *)malloc((size_t)n * sizeof *a),
             *b = (uint32_t *)malloc((size_t)n * sizeof *b);
    if (!a || !b) {
        free(a);
        free(b);
        return;
    }
    memcpy(a, in, (size_t)n * sizeof *a);
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++)
            b[i] = launch_overhead_step_value(a[i == 0 ? n - 1 : i - 1], a[i],
                                              a[i == n - 1 ? 0 : i + 1], (uint32_t)s);
        uint32_t *t = a;
        a = b;
        b = t;
    }
    memcpy(out, a, (size_t)n * sizeof *a);
    free(a);
    free(b);
}

static int within_tol(double got, double want) {
    return want > 0 && fabs(got / want - 1.0) <= LO_TOL;
}

/* Another process's kernels on the same GPU make every synchronised launch
 * wait for that process's time slice: milliseconds instead of microseconds.
 * Launch costs mean nothing then, and measuring them would take minutes, so
 * the timed tests first look at 3 x 50 of the grader's own synchronised
 * empty launches and end as RERUN when their median is above this. Idle
 * H100 and H200: 10-11 us. */
#define LO_BUSY_SYNC_US 100.0

static void require_quiet_gpu(wb_ctx *ctx) {
    double us[3];
    for (int i = 0; i < 3; i++)
        WB_CUDA(ctx, lo_empty_sync_us(50, &us[i]));
    double m = wb_median(us, 3);
    if (m > LO_BUSY_SYNC_US)
        wb_rerun(ctx,
                 "inconclusive: an empty launch and its cudaDeviceSynchronize() took %.0f us "
                 "(an idle GPU: about 5 to 30 us): another process is running kernels on this "
                 "GPU, and launch costs cannot be measured while it does; grade again when the "
                 "GPU is idle (nvidia-smi shows what runs on it)",
                 m);
}

/* A launch cost of the student's off from the grader's, on a shared GPU. */
static void rerun_if_shared_off(wb_ctx *ctx, const char *what, double s, double g) {
    if (!within_tol(s, g))
        wb_rerun_if_shared(ctx,
                           "%s: yours %.2f us per launch, the grader's %.2f us (need within 30 %%)",
                           what, s, g);
}

/* ------------------------------------------------ part 1: empty launches */

/* Both invalid calls must be refused before anything is measured, and
 * write nothing. */
static void check_measure_invalid(wb_ctx *ctx, measure_fn f, const char *name) {
    double x = -1;
    int a = f(0, &x), b = f(10, NULL);
    if (a != cudaErrorInvalidValue || b != cudaErrorInvalidValue)
        wb_fail(ctx,
                "%s(0, &us) returned %s and %s(10, NULL) returned %s; expected "
                "cudaErrorInvalidValue for both (launch_overhead.h)",
                name, cudaGetErrorName((cudaError_t)a), name, cudaGetErrorName((cudaError_t)b));
    if (x != -1)
        wb_fail(ctx,
                "%s(0, &us) returned cudaErrorInvalidValue but wrote %g into us; expected it "
                "untouched: nothing is measured for invalid arguments (launch_overhead.h)",
                name, x);
}

/* The output of a measurement, with its guard after it. */
typedef struct guarded_us {
    double us;
    unsigned char guard[64];
} guarded_us;

/* Every timed loop of the contract ends with a synchronisation before the
 * clock is read, so the GPU is idle when the function returns. One that
 * returns with its launches still queued stopped its clock early: the last
 * of thousands of empty launches is still pending (or the queue is full),
 * which cudaStreamQuery on the legacy stream, where the contract launches,
 * sees at once. A right function leaves nothing pending, on any GPU. */
static void require_idle(wb_ctx *ctx, const char *call) {
    cudaError_t q = cudaStreamQuery(0);
    if (q == cudaErrorNotReady)
        wb_fail(ctx,
                "%s returned while its kernels were still queued on the GPU (cudaStreamQuery: "
                "cudaErrorNotReady), expected the GPU idle: the clock was read before the GPU "
                "finished; cudaDeviceSynchronize() after the loop, then read the clock (%s)",
                call, README_HOST);
    WB_CUDA(ctx, q);
}

/* The rule of method behind every figure of part 1 (README.md, "Measuring
 * host time"): the clock is read again only after the GPU has run what was
 * launched. For empty kernels the figure cannot show a missing wait (the GPU
 * keeps up with the launches, so the last one or two are unfinished at
 * most), so the grader watches the calls themselves: grader/sim/sim_waits.c
 * counts, while the student's function runs, its launches, the calls that
 * wait for the GPU (cudaDeviceSynchronize, cudaStreamSynchronize,
 * cudaEventSynchronize, a cudaMemcpy that touches the host, a
 * cudaStreamQuery or cudaEventQuery that found the work done), each a wait
 * after new launches only where it waits for them (a stream's for the
 * launches on it, an event's for those before it was recorded), and its
 * host clock reads (clock_gettime: now_us(), std::chrono), all in order.
 * Three rules follow, checked in this order:
 * - launches (check_launches_seen): a call asked for `want` launches makes
 *   at least `want` that the grader sees, the given warm-up's counted too;
 *   one that launches through the driver API (cuLaunchKernel) leaves the
 *   other two rules nothing to judge;
 * - waits (waits_short): a call falls short of `want` when fewer than `want`
 *   waits each came after new launches (the given warm-up's wait is one of
 *   them), or when its last launches were never waited for. Where no launch
 *   was seen (a runtime whose launches take a path the grader does not
 *   count, which probe_launches tells) the waits alone must reach want + 1;
 *   where nothing at all was seen, nothing is judged;
 * - the clock (check_clock_order): the call's last clock read does not come
 *   after its last launch while that launch is not yet waited for. */
static int waits_short(const wb_sim_waits *w, long want) {
    if (w->launches == 0)
        return w->waits > 0 && w->waits < want + 1;
    return w->pending > 0 || w->waited < want;
}

/* Whether this runtime's launches for <<<...>>> reach the grader's counters
 * (-1 until probed): one launch of the grader's own, built by the same
 * nvcc, counted. A toolkit whose launches took a path sim_waits.c does not
 * intercept would show no call's launches, a right one's included: there
 * the rule on launches judges nothing. */
static int launches_visible = -1;

static void probe_launches(wb_ctx *ctx) {
    wb_sim_waits w;
    wb_sim_waits_begin(NULL);
    int e = lo_probe_launch();
    wb_sim_waits_end(&w);
    WB_CUDA(ctx, e);
    launches_visible = w.launches > 0;
}

/* A timed call must make, through the runtime, at least the launches it
 * was asked for (launch_overhead.h: <<<1, 1>>>): the grader cannot judge
 * the waits of launches it does not see. */
static void check_launches_seen(wb_ctx *ctx, const char *call, long want, const wb_sim_waits *w) {
    if (launches_visible != 1 || w->launches >= want)
        return;
    wb_fail(ctx,
            "%s made %ld launches that the grader saw (the given warm-up's included), fewer "
            "than the %ld it was asked for: expected every timed launch through the runtime, "
            "kernel<<<1, 1>>>() (or cudaLaunchKernel); a launch through the driver API "
            "(cuLaunchKernel) is not seen, and the grader cannot check the waits of launches it "
            "does not see (%s)",
            call, w->launches, want, README_SEES);
}

/* The clock is read the second time only after the wait for the last
 * launch: wb_sim_clock_early sees the call's last clock read after its last
 * launch while that launch was not yet waited for. A call with no clock
 * read seen (timed with CUDA events, or with a clock the grader does not
 * see) or whose last read came before its last launch is not judged, and
 * extra reads (before the warm-up, between the launches and the wait) are
 * harmless while the last one follows the wait: a right call never fails.
 * `expected` says what the function's loop does. */
static void check_clock_order(wb_ctx *ctx, const char *call, const char *expected,
                              const wb_sim_waits *w) {
    if (!wb_sim_clock_early(w))
        return;
    char order[128]; /* a reason holds 511 bytes: the order gives way first */
    wb_sim_waits_order(w, order, sizeof order);
    wb_fail(ctx,
            "%s read the clock for the last time before the wait for its last launch: expected "
            "%s, then the second clock read; saw %s (%ld launches, %ld waits, %ld clock reads in "
            "all): the clock stopped before the GPU had run them (%s)",
            call, expected, order, w->launches, w->waits, w->clocks, README_SEES);
}

/* What the counts of one call show, for a failure message. */
static void describe_waits(const wb_sim_waits *w, char *buf, size_t cap) {
    char last[48] = "launch";
    if (w->pending > 1)
        snprintf(last, sizeof last, "%ld launches", w->pending);
    if (w->launches == 0)
        snprintf(buf, cap,
                 "%ld waits for the GPU in the call, the given warm-up's included (its launches "
                 "were not seen)",
                 w->waits);
    else if (w->pending > 0)
        snprintf(buf, cap,
                 "%ld launches and %ld waits for the GPU in the call, the given warm-up's "
                 "included: %ld of the waits after new launches, and no wait after the last %s",
                 w->launches, w->waits, w->waited, last);
    else
        snprintf(buf, cap,
                 "%ld launches and %ld waits for the GPU in the call, the given warm-up's "
                 "included: only %ld of the waits after new launches",
                 w->launches, w->waits, w->waited);
}

/* One call's launches, waits and clock reads against its function's rule:
 * a wait after the timed loop (asynchronous), or after every timed launch
 * (synchronised), and the clock read after it. */
static void check_measure_calls(wb_ctx *ctx, const char *call, int sync_each, int launches,
                                const wb_sim_waits *w) {
    char saw[256];
    check_launches_seen(ctx, call, launches, w);
    describe_waits(w, saw, sizeof saw);
    if (!sync_each && waits_short(w, 1))
        wb_fail(ctx,
                "%s returned without waiting for the GPU after its timed launches: expected a "
                "wait for the GPU (cudaDeviceSynchronize()) after the last launch of the timed "
                "loop, before the clock is read the second time; saw %s: the clock stopped "
                "before the GPU had run them, whatever the figure says (%s)",
                call, saw, README_HOST);
    if (sync_each && waits_short(w, launches))
        wb_fail(ctx,
                "%s did not wait for the GPU after every launch: expected a wait "
                "(cudaDeviceSynchronize()) after each of the %d timed launches, inside the timed "
                "loop, before the next launch; saw %s (%s)",
                call, launches, saw, README_SYNC);
    check_clock_order(ctx, call,
                      sync_each ? "a wait for the GPU (cudaDeviceSynchronize()) after every "
                                  "launch, the last one too"
                                : "the launches, then a wait for the GPU (cudaDeviceSynchronize())",
                      w);
}

static double student_measure(wb_ctx *ctx, measure_fn f, const char *name, int launches,
                              int sync_each) {
    guarded_us out;
    wb_sim_waits w;
    memset(&out, GUARD_BYTE, sizeof out);
    out.us = NAN;
    wb_sim_waits_begin((const void *)f);
    int e = f(launches, &out.us);
    wb_sim_waits_end(&w);
    if (e != cudaSuccess)
        wb_fail(ctx, "%s(%d) returned %s, expected cudaSuccess", name, launches,
                cudaGetErrorName((cudaError_t)e));
    char call[96];
    snprintf(call, sizeof call, "%s(%d)", name, launches);
    /* A figure of 0 (the stub's) fails as "nothing was measured" instead. */
    if (out.us > 0 && isfinite(out.us))
        check_measure_calls(ctx, call, sync_each, launches, &w);
    require_idle(ctx, call);
    long k = first_touched(out.guard, sizeof out.guard);
    if (k >= 0)
        wb_fail(ctx,
                "%s(%d) wrote past *us_per_launch: byte %ld after the double is 0x%02x, "
                "expected untouched (0x%02x); write only *us_per_launch (%s)",
                name, launches, k, out.guard[k], GUARD_BYTE, README_CONTRACT);
    return out.us;
}

static double grader_async(wb_ctx *ctx) {
    wb_ceiling c;
    WB_CUDA(ctx, wb_measure_empty_launch_us(&c));
    return c.value;
}

static double grader_sync(wb_ctx *ctx) {
    double us = 0;
    WB_CUDA(ctx, lo_empty_sync_us(LO_SYNC_LAUNCHES, &us));
    return us;
}

/* One kind of empty launch: its function, the grader's measurement of it,
 * and what a time too slow or too fast usually means. */
typedef struct empty_kind {
    const char *fn, *kind, *metric; /* "asynchronous" or "synchronised"; "async" or "sync" */
    int launches, sync_each;        /* sync_each: a wait after every launch, else one after all */
    double (*grader)(wb_ctx *);
    const char *too_slow, *too_fast, *where;
} empty_kind;

/* The student's and the grader's medians over LO_REPS runs each, in
 * alternating order, after one untimed call of each. */
static void measure_pair(wb_ctx *ctx, measure_fn f, const empty_kind *k, double *mine,
                         double *theirs) {
    double s[LO_REPS], g[LO_REPS];
    student_measure(ctx, f, k->fn, k->launches, k->sync_each);
    k->grader(ctx);
    for (int r = 0; r < LO_REPS; r++) {
        if (r % 2 == 0) {
            g[r] = k->grader(ctx);
            s[r] = student_measure(ctx, f, k->fn, k->launches, k->sync_each);
        } else {
            s[r] = student_measure(ctx, f, k->fn, k->launches, k->sync_each);
            g[r] = k->grader(ctx);
        }
        if (!(s[r] > 0) || !isfinite(s[r]))
            wb_fail(ctx,
                    "%s(%d) reported %g us per launch; the grader measured %.2f us: nothing "
                    "was measured (a time per launch is positive)",
                    k->fn, k->launches, s[r], g[r]);
    }
    *mine = wb_median(s, LO_REPS);
    *theirs = wb_median(g, LO_REPS);
}

static void check_empty(wb_ctx *ctx, measure_fn f, const empty_kind *k) {
    check_measure_invalid(ctx, f, k->fn);
    if (wb_under_tool(ctx)) {
        /* AddressSanitizer's run (sanitizer.host): the host code of one call, its waits, its
         * guard and the idle GPU checked as ever, but no figure, which ASan's slower host
         * code would move */
        student_measure(ctx, f, k->fn, k->launches, k->sync_each);
        return;
    }
    require_quiet_gpu(ctx);
    probe_launches(ctx);
    double s, g;
    char m[64];
    measure_pair(ctx, f, k, &s, &g);
    snprintf(m, sizeof m, "empty_%s_us", k->metric);
    wb_record(ctx, m, s, "us", g, "in");
    snprintf(m, sizeof m, "grader_empty_%s_us", k->metric);
    wb_record(ctx, m, g, "us", 0, "ref");
    wb_measured(ctx,
                "%.2f us per launch, the grader %.2f us (ratio %.2f, need %.2f-%.2f; median of %d)",
                s, g, s / g, 1 - LO_TOL, 1 + LO_TOL, LO_REPS);
    snprintf(m, sizeof m, "%s empty launches", k->kind);
    rerun_if_shared_off(ctx, m, s, g);
    if (s > g * (1 + LO_TOL))
        wb_fail(ctx,
                "%.2f us per %s empty launch, the grader measured %.2f us (need within 30 %%): "
                "too slow; %s (%s)",
                s, k->kind, g, k->too_slow, k->where);
    if (s < g * (1 - LO_TOL))
        wb_fail(ctx,
                "%.2f us per %s empty launch, the grader measured %.2f us (need within 30 %%): "
                "too fast; %s (%s)",
                s, k->kind, g, k->too_fast, k->where);
}

static void test_empty_async(wb_ctx *ctx) {
    measure_fn f;
    WB_BIND(ctx, f, launch_overhead_empty_async);
    static const empty_kind k = {
        "launch_overhead_empty_async",
        "asynchronous",
        "async",
        LO_ASYNC_LAUNCHES,
        0,
        grader_async,
        "is there a synchronisation, or the warm-up, inside the timed loop?",
        "read the clock only after one cudaDeviceSynchronize() that follows the loop, and "
        "divide by the number of launches",
        README_HOST};
    check_empty(ctx, f, &k);
}

static void test_empty_sync(wb_ctx *ctx) {
    measure_fn f;
    WB_BIND(ctx, f, launch_overhead_empty_sync);
    static const empty_kind k = {
        "launch_overhead_empty_sync",
        "synchronised",
        "sync",
        LO_SYNC_LAUNCHES,
        1,
        grader_sync,
        "one launch and one cudaDeviceSynchronize() per iteration, and the warm-up outside the "
        "timed loop",
        "the host must wait with cudaDeviceSynchronize() after every launch, inside the timed "
        "loop",
        README_SYNC};
    check_empty(ctx, f, &k);
}

/* ------------------------------------------------ part 1: the sweep */

typedef struct sweep_table {
    double s_async[SWEEP_POINTS], s_sync[SWEEP_POINTS];
    double g_async[SWEEP_POINTS], g_sync[SWEEP_POINTS];
    double wait_us[SWEEP_POINTS]; /* the busy-wait alone at the peak SM clock; 0 if unknown */
    double two_empty;
} sweep_table;

static void write_csv(const char *path, const sweep_table *t) {
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "cycles,async_us,sync_us,grader_async_us,grader_sync_us,busy_wait_us_at_peak_clock,"
               "two_empty_async_us\n");
    for (int i = 0; i < SWEEP_POINTS; i++)
        fprintf(f, "%lld,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", sweep_cycles[i], t->s_async[i],
                t->s_sync[i], t->g_async[i], t->g_sync[i], t->wait_us[i], t->two_empty);
    fclose(f);
}

/* Every invalid call is refused and leaves out untouched. */
static void check_sweep_invalid(wb_ctx *ctx, sweep_fn f) {
    point out[2];
    memset(out, GUARD_BYTE, sizeof out);
    long long neg[2] = {0, -5};
    int r[5] = {f(NULL, 1, 10, out), f(sweep_cycles, 0, 10, out), f(sweep_cycles, 1, 0, out),
                f(sweep_cycles, 1, 10, NULL), f(neg, 2, 10, out)};
    static const char *what[5] = {"cycles NULL", "points 0", "launches 0", "out NULL",
                                  "a negative cycles[1]"};
    for (int k = 0; k < 5; k++)
        if (r[k] != cudaErrorInvalidValue)
            wb_fail(ctx,
                    "launch_overhead_sweep with %s returned %s, expected cudaErrorInvalidValue "
                    "(launch_overhead.h)",
                    what[k], cudaGetErrorName((cudaError_t)r[k]));
    long k = first_touched(out, sizeof out);
    if (k >= 0)
        wb_fail(ctx,
                "launch_overhead_sweep refused invalid arguments but changed out[] (byte %ld); "
                "expected out untouched, with a negative cycles[1] too: check every argument "
                "before writing (launch_overhead.h)",
                k);
}

/* Whether every point of a sweep holds a time both ways (a sweep that
 * does not fails as "not measured" once the medians are taken). */
static int sweep_reported(const point *out) {
    for (int i = 0; i < SWEEP_POINTS; i++)
        if (!(out[i].async_us > 0) || !(out[i].sync_us > 0) || !isfinite(out[i].async_us) ||
            !isfinite(out[i].sync_us))
            return 0;
    return 1;
}

/* The sweep's launches, waits and clock reads, by the rules of the empty
 * launches: 2 x points x launches launches seen; each point's asynchronous
 * loop ends with a wait, and its synchronised loop waits after every
 * launch, so a sweep makes points x (1 + launches) waits that each follow
 * new launches, besides the given warm-up's (a sweep one wait short per
 * point skipped the asynchronous loops' wait; one further short skipped
 * waits in the synchronised loops); and the last clock read comes after the
 * wait for the last launch. The clock's order is seen for the call's last
 * loop only, the last point's synchronised one: a clock read before the wait
 * in the asynchronous loops shows in the figures (check_wait_floor). */
static void check_sweep_calls(wb_ctx *ctx, const wb_sim_waits *w) {
    const long want = (long)SWEEP_POINTS * (1 + LO_SWEEP_LAUNCHES);
    char call[96];
    snprintf(call, sizeof call, "launch_overhead_sweep(%d points, %d launches)", SWEEP_POINTS,
             LO_SWEEP_LAUNCHES);
    check_launches_seen(ctx, call, 2L * SWEEP_POINTS * LO_SWEEP_LAUNCHES, w);
    if (waits_short(w, want)) {
        char saw[256];
        describe_waits(w, saw, sizeof saw);
        const int async_only = w->launches > 0 && w->waited + SWEEP_POINTS >= want;
        wb_fail(ctx,
                "%s: expected a wait for the GPU after each point's asynchronous loop, before "
                "the clock is read the second time, and after every launch of its synchronised "
                "loop: %d x (1 + %d) = %ld waits, each after new launches; saw %s: %s (%s)",
                call, SWEEP_POINTS, LO_SWEEP_LAUNCHES, want, saw,
                async_only ? "an asynchronous loop read the clock before the GPU finished; "
                             "synchronise after the loop"
                           : "a synchronised loop does not wait after every launch, inside the "
                             "loop",
                async_only ? README_HOST : README_SYNC);
    }
    check_clock_order(ctx, call,
                      "each loop's launches, then a wait for the GPU after the last of them", w);
}

/* One call of the student's sweep into out[SWEEP_POINTS], poisoned, with
 * GUARD_POINTS more points of guard after it (the same array). */
static void student_sweep(wb_ctx *ctx, sweep_fn f, point *out) {
    wb_sim_waits w;
    memset(out, GUARD_BYTE, (SWEEP_POINTS + GUARD_POINTS) * sizeof *out);
    wb_sim_waits_begin((const void *)f);
    int e = f(sweep_cycles, SWEEP_POINTS, LO_SWEEP_LAUNCHES, out);
    wb_sim_waits_end(&w);
    if (e != cudaSuccess)
        wb_fail(ctx, "launch_overhead_sweep(%d points, %d launches) returned %s", SWEEP_POINTS,
                LO_SWEEP_LAUNCHES, cudaGetErrorName((cudaError_t)e));
    if (sweep_reported(out))
        check_sweep_calls(ctx, &w);
    require_idle(ctx, "launch_overhead_sweep");
    long k = first_touched(out + SWEEP_POINTS, GUARD_POINTS * sizeof *out);
    if (k >= 0)
        wb_fail(ctx,
                "launch_overhead_sweep(%d points) wrote past out[%d]: byte %ld after the last "
                "point changed (expected untouched, 0x%02x); write out[0 .. points-1] only (%s)",
                SWEEP_POINTS, SWEEP_POINTS - 1, k, GUARD_BYTE, README_CONTRACT);
    for (int i = 0; i < SWEEP_POINTS; i++)
        if (out[i].cycles != sweep_cycles[i])
            wb_fail(ctx, "launch_overhead_sweep: out[%d].cycles is %lld, expected %lld", i,
                    out[i].cycles, sweep_cycles[i]);
}

/* Runs the student's and the grader's sweeps LO_SWEEP_REPS times each,
 * alternating, and keeps the median of every point. */
static void run_sweeps(wb_ctx *ctx, sweep_fn f, sweep_table *t) {
    point s[LO_SWEEP_REPS][SWEEP_POINTS + GUARD_POINTS], g[LO_SWEEP_REPS][SWEEP_POINTS];
    for (int r = 0; r < LO_SWEEP_REPS; r++) {
        for (int side = 0; side < 2; side++) {
            if ((side + r) % 2 == 0)
                WB_CUDA(ctx, lo_sweep(sweep_cycles, SWEEP_POINTS, LO_SWEEP_LAUNCHES, 1, g[r]));
            else
                student_sweep(ctx, f, s[r]);
        }
    }
    for (int i = 0; i < SWEEP_POINTS; i++) {
        double v[4][LO_SWEEP_REPS];
        for (int r = 0; r < LO_SWEEP_REPS; r++) {
            v[0][r] = s[r][i].async_us;
            v[1][r] = s[r][i].sync_us;
            v[2][r] = g[r][i].async_us;
            v[3][r] = g[r][i].sync_us;
        }
        t->s_async[i] = wb_median(v[0], LO_SWEEP_REPS);
        t->s_sync[i] = wb_median(v[1], LO_SWEEP_REPS);
        t->g_async[i] = wb_median(v[2], LO_SWEEP_REPS);
        t->g_sync[i] = wb_median(v[3], LO_SWEEP_REPS);
    }
}

/* The kernel must really wait, and the asynchronous clock must stop after
 * the GPU finished: at the largest point, neither time can be shorter than
 * the busy-wait itself at the peak clock. */
static void check_wait_floor(wb_ctx *ctx, const sweep_table *t, int mhz) {
    const int last = SWEEP_POINTS - 1;
    const double floor_us = LO_WAIT_FLOOR * t->wait_us[last];
    if (mhz <= 0)
        return;
    if (t->s_sync[last] < floor_us)
        wb_fail(ctx,
                "at %lld cycles a synchronised launch took %.1f us, but busy-waiting %lld cycles "
                "takes at least %.1f us at this GPU's peak SM clock (%d MHz): the kernel does not "
                "wait (%s)",
                sweep_cycles[last], t->s_sync[last], sweep_cycles[last], t->wait_us[last], mhz,
                README_WAIT);
    if (t->s_async[last] < floor_us)
        wb_fail(ctx,
                "at %lld cycles an asynchronous launch took %.1f us, less than the busy-wait "
                "alone (at least %.1f us at %d MHz), while a synchronised one took %.1f us: the "
                "clock stopped before the GPU finished; synchronise after the loop (%s)",
                sweep_cycles[last], t->s_async[last], t->wait_us[last], mhz, t->s_sync[last],
                README_HOST);
}

static void check_sweep_measured(wb_ctx *ctx, const sweep_table *t) {
    for (int i = 0; i < SWEEP_POINTS; i++)
        if (!(t->s_async[i] > 0) || !(t->s_sync[i] > 0) || !isfinite(t->s_async[i]) ||
            !isfinite(t->s_sync[i]))
            wb_fail(ctx,
                    "at %lld cycles your sweep reported %g us (asynchronous) and %g us "
                    "(synchronised) per launch, the grader %.2f and %.2f us: not measured (%s)",
                    sweep_cycles[i], t->s_async[i], t->s_sync[i], t->g_async[i], t->g_sync[i],
                    README_WAIT);
}

/* Points where the two sweeps disagree by more than the tolerance. */
static int sweep_misses(const sweep_table *t) {
    int n = 0;
    for (int i = 0; i < SWEEP_POINTS; i++)
        n += !within_tol(t->s_async[i], t->g_async[i]) || !within_tol(t->s_sync[i], t->g_sync[i]);
    return n;
}

static void check_sweep_points(wb_ctx *ctx, const sweep_table *t) {
    for (int i = 0; i < SWEEP_POINTS; i++)
        if (!within_tol(t->s_async[i], t->g_async[i]) || !within_tol(t->s_sync[i], t->g_sync[i])) {
            wb_rerun_if_shared(ctx,
                               "at %lld cycles yours %.2f and %.2f us, the grader's %.2f and "
                               "%.2f us (need within 30 %%)",
                               sweep_cycles[i], t->s_async[i], t->s_sync[i], t->g_async[i],
                               t->g_sync[i]);
            wb_fail(ctx,
                    "at %lld cycles: yours %.2f us asynchronous and %.2f us synchronised per "
                    "launch, the grader's %.2f and %.2f us (each within 30 %%, medians of %d); "
                    "the table is launch_sweep.csv, `make plots` draws it (%s)",
                    sweep_cycles[i], t->s_async[i], t->s_sync[i], t->g_async[i], t->g_sync[i],
                    LO_SWEEP_REPS, README_WAIT);
        }
}

static void test_sweep(wb_ctx *ctx) {
    sweep_fn f;
    WB_BIND(ctx, f, launch_overhead_sweep);
    check_sweep_invalid(ctx, f);
    if (wb_under_tool(ctx)) {
        /* AddressSanitizer's run: one sweep's host code, its waits, guard and cycles checked
         * as ever, no figure compared */
        point out[SWEEP_POINTS + GUARD_POINTS];
        student_sweep(ctx, f, out);
        return;
    }
    require_quiet_gpu(ctx);
    probe_launches(ctx);
    sweep_table t;
    memset(&t, 0, sizeof t);
    run_sweeps(ctx, f, &t);
    /* Near the knee (the kernel about as long as a launch) the time per
     * launch swings with the moment it is taken: where a point disagrees,
     * both sweeps are taken again (twice at most) and the closer run kept. */
    int attempts = 1;
    for (; attempts < 3 && sweep_misses(&t) > 0; attempts++) {
        sweep_table again;
        memset(&again, 0, sizeof again);
        run_sweeps(ctx, f, &again);
        if (sweep_misses(&again) < sweep_misses(&t))
            t = again;
    }
    double e[3];
    for (int r = 0; r < 3; r++)
        e[r] = grader_async(ctx);
    t.two_empty = 2.0 * wb_median(e, 3);
    const wb_gpu *gpu = wb_ctx_gpu(ctx);
    const int mhz = gpu->sm_clock_khz / 1000;
    for (int i = 0; i < SWEEP_POINTS; i++)
        t.wait_us[i] = mhz > 0 ? (double)sweep_cycles[i] / mhz : 0;
    char csv[4200];
    snprintf(csv, sizeof csv, "%s/launch_sweep.csv", wb_out_dir(ctx));
    write_csv(csv, &t);
    for (int i = 0; i < SWEEP_POINTS; i += SWEEP_POINTS - 1) {
        char m[64];
        snprintf(m, sizeof m, "sweep_async_us_%lld", sweep_cycles[i]);
        wb_record(ctx, m, t.s_async[i], "us", t.g_async[i], "in");
        snprintf(m, sizeof m, "sweep_sync_us_%lld", sweep_cycles[i]);
        wb_record(ctx, m, t.s_sync[i], "us", t.g_sync[i], "in");
    }
    check_sweep_measured(ctx, &t);
    check_wait_floor(ctx, &t, mhz);
    check_sweep_points(ctx, &t);
    wb_measured(ctx,
                "%d points from 0 to %lld cycles, all within 30 %% of the grader's%s; table %s "
                "(make plots draws it)",
                SWEEP_POINTS, sweep_cycles[SWEEP_POINTS - 1], attempts > 1 ? " (re-measured)" : "",
                csv);
}

/* ------------------------------------------------ part 1: the break-even point (host) */

typedef struct be_case {
    const char *what;
    int n;
    double empty;
    long long c[6];
    double a[6];
} be_case;

static const be_case be_cases[] = {
    {"the first point already at twice the empty launch", 2, 3.0, {500, 1000}, {7.0, 8.0}},
    {"a crossing between 1000 and 2000 cycles", 3, 3.0, {0, 1000, 2000}, {3.1, 4.0, 8.0}},
    {"a point exactly at the threshold", 3, 3.0, {0, 1000, 2000}, {3.0, 6.0, 9.0}},
    /* Exactly at the threshold is reaching it (>=), not only above it: with >
     * the last point is missed (-1), and a point followed by a dip is passed
     * over for a later crossing. */
    {"the last point exactly at the threshold", 3, 3.0, {0, 1000, 2000}, {3.0, 4.0, 6.0}},
    {"the first point exactly at the threshold, then a dip below it",
     3,
     3.0,
     {1000, 2000, 3000},
     {6.0, 5.5, 7.0}},
    {"a middle point exactly at the threshold, then a dip below it",
     4,
     3.0,
     {0, 1000, 2000, 3000},
     {3.0, 6.0, 5.0, 8.0}},
    {"a crossing, a dip below, a second crossing: the first counts",
     5,
     3.0,
     {0, 1000, 2000, 3000, 4000},
     {3.0, 3.1, 6.5, 5.9, 9.0}},
    {"no point reaching the threshold", 4, 3.0, {0, 1000, 2000, 3000}, {3.0, 3.2, 4.0, 5.9}},
    {"a single point below the threshold", 1, 2.0, {8000}, {3.9}},
    {"a single point above the threshold", 1, 2.0, {8000}, {4.1}},
    {"cycles that repeat (invalid)", 3, 3.0, {0, 1000, 1000}, {3.0, 5.0, 9.0}},
    {"cycles that decrease (invalid)", 3, 3.0, {0, 2000, 1000}, {3.0, 5.0, 9.0}},
    /* The whole sweep is checked, not only the points up to the crossing. */
    {"cycles that decrease after the crossing (invalid)",
     4,
     3.0,
     {0, 1000, 2000, 1500},
     {3.0, 4.0, 8.0, 9.0}},
    {"an empty launch of 0 us (invalid)", 2, 0.0, {0, 1000}, {3.0, 9.0}},
    {"a negative empty launch (invalid)", 2, -3.0, {0, 1000}, {3.0, 9.0}},
    {"an empty launch that is not a number (invalid)", 2, NAN, {0, 1000}, {3.0, 9.0}},
};
#define BE_CASES ((int)(sizeof be_cases / sizeof be_cases[0]))

static void check_be(wb_ctx *ctx, break_even_fn f, const point *p, int n, double empty,
                     const char *what) {
    double got = f(p, n, empty), want = ref_break_even(p, n, empty);
    if (!(fabs(got - want) <= 1e-6 * fmax(1.0, fabs(want))))
        wb_fail(ctx,
                "%s (%d points, empty launch %g us, threshold %g us): returned %.6g, expected "
                "%.6g%s (%s)",
                what, n, empty, 2 * empty, got, want,
                want < 0 ? " (-1: no break-even point, or invalid arguments)" : "", README_BREAK);
}

/* A sweep as a GPU gives it: flat at the launch cost L, then the kernel's
 * time plus a small gap, with a few per cent of noise. */
static int synthetic_sweep(wb_rng *g, point *p, double *empty) {
    int n = (int)wb_rng_range(g, 2, 40);
    double L = 1.5 + 10.5 * wb_rng_uniform(g), mhz = 800 + 1300 * wb_rng_uniform(g);
    double gap = 0.1 + 1.4 * wb_rng_uniform(g);
    long long c = wb_rng_range(g, 0, 1) ? 0 : wb_rng_range(g, 1, 2000);
    for (int i = 0; i < n; i++) {
        double k = (double)c / mhz + gap, noise = 1 + 0.06 * (wb_rng_uniform(g) - 0.5);
        p[i].cycles = c;
        p[i].async_us = (k > L ? k : L) * noise;
        p[i].sync_us = 2.5 * L + (double)c / mhz;
        c += wb_rng_range(g, 100, 8000);
    }
    *empty = L * (1 + 0.06 * (wb_rng_uniform(g) - 0.5));
    return n;
}

static void test_break_even(wb_ctx *ctx) {
    break_even_fn f;
    WB_BIND(ctx, f, launch_overhead_break_even);
    for (int k = 0; k < BE_CASES; k++) {
        const be_case *c = &be_cases[k];
        point p[6];
        for (int i = 0; i < c->n; i++) {
            p[i].cycles = c->c[i];
            p[i].async_us = c->a[i];
            p[i].sync_us = c->a[i] + 5;
        }
        check_be(ctx, f, p, c->n, c->empty, c->what);
    }
    point one = {0, 9.0, 12.0};
    check_be(ctx, f, NULL, 3, 3.0, "pts NULL (invalid)");
    check_be(ctx, f, &one, 0, 3.0, "points 0 (invalid)");
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    int found = 0;
    for (int k = 0; k < 500; k++) {
        point p[40];
        double empty;
        int n = synthetic_sweep(&g, p, &empty);
        char what[64];
        snprintf(what, sizeof what, "synthetic sweep %d", k + 1);
        check_be(ctx, f, p, n, empty, what);
        found += ref_break_even(p, n, empty) >= 0;
    }
    wb_measured(ctx, "%d named cases and 500 synthetic sweeps (%d with a break-even point) right",
                BE_CASES + 2, found);
}

/* ------------------------------------------------ part 2: the chain */

typedef struct chain_bufs {
    int n;
    uint32_t *h_in, *h_want, *h_got;
    uint32_t *d_in, *d_out, *d_work;
} chain_bufs;

/* d_in exactly n words, so that compute-sanitizer sees a read past its end;
 * d_out and d_work n words and a guard each. */
static void bufs_open(wb_ctx *ctx, chain_bufs *b, int n) {
    size_t bytes = (size_t)n * sizeof(uint32_t), guarded = bytes + GUARD_WORDS * sizeof(uint32_t);
    memset(b, 0, sizeof *b);
    b->n = n;
    b->h_in = (uint32_t *)malloc(bytes);
    b->h_want = (uint32_t *)malloc(bytes);
    b->h_got = (uint32_t *)malloc(bytes);
    if (!b->h_in || !b->h_want || !b->h_got)
        wb_fail(ctx, "out of host memory");
    WB_CUDA(ctx, cudaMalloc((void **)&b->d_in, bytes));
    WB_CUDA(ctx, cudaMalloc((void **)&b->d_out, guarded));
    WB_CUDA(ctx, cudaMalloc((void **)&b->d_work, guarded));
}

static void bufs_close(chain_bufs *b) {
    cudaFree(b->d_in);
    cudaFree(b->d_out);
    cudaFree(b->d_work);
    free(b->h_in);
    free(b->h_want);
    free(b->h_got);
}

/* New random contents for the input, on the host and the device. */
static void bufs_fill(wb_ctx *ctx, chain_bufs *b, wb_rng *g) {
    for (int i = 0; i < b->n; i++)
        b->h_in[i] = (uint32_t)wb_rng_u64(g);
    WB_CUDA(ctx,
            cudaMemcpy(b->d_in, b->h_in, (size_t)b->n * sizeof(uint32_t), cudaMemcpyHostToDevice));
}

#define POISON 0xFFFFFFFFu

static void bufs_poison(wb_ctx *ctx, chain_bufs *b) {
    size_t bytes = (size_t)b->n * sizeof(uint32_t), guard = GUARD_WORDS * sizeof(uint32_t);
    WB_CUDA(ctx, cudaMemset(b->d_out, 0xFF, bytes));
    WB_CUDA(ctx, cudaMemset(b->d_work, 0xFF, bytes));
    WB_CUDA(ctx, cudaMemset(b->d_out + b->n, GUARD_BYTE, guard));
    WB_CUDA(ctx, cudaMemset(b->d_work + b->n, GUARD_BYTE, guard));
    /* Memsets and pageable copies may still be running on the legacy
     * stream; code under test that uses streams of its own must not see
     * them half done (correct.chain_stream is the test of the stream). */
    WB_CUDA(ctx, cudaDeviceSynchronize());
}

/* Fails when the guard after d (d_out or d_work, named) was written. */
static void check_guard(wb_ctx *ctx, const chain_bufs *b, const uint32_t *d, const char *name,
                        int steps, const char *run) {
    uint32_t g[GUARD_WORDS];
    WB_CUDA(ctx, cudaMemcpy(g, d + b->n, sizeof g, cudaMemcpyDeviceToHost));
    for (int k = 0; k < GUARD_WORDS; k++)
        if (g[k] != GUARD_WORD)
            wb_fail(ctx,
                    "n = %d, steps = %d, %s: %s[%d], past the end of its n words, was written "
                    "(0x%08x where the guard 0x%08x stood); expected nothing written past "
                    "%s[%d]: threads of a rounded-up grid must not store (%s)",
                    b->n, steps, run, name, b->n + k, g[k], GUARD_WORD, name, b->n - 1,
                    README_CHAIN);
}

/* Compares h_got with the CPU's chain of h_in, checks the guards after
 * d_out and d_work, and checks d_in unchanged. */
static void bufs_check(wb_ctx *ctx, chain_bufs *b, int steps, const char *run) {
    check_guard(ctx, b, b->d_out, "d_out", steps, run);
    check_guard(ctx, b, b->d_work, "d_work", steps, run);
    ref_chain(b->h_in, b->h_want, b->n, steps);
    for (int i = 0; i < b->n; i++)
        if (b->h_got[i] != b->h_want[i])
            wb_fail(ctx, "n = %d, steps = %d, %s: word %d is 0x%08x, expected 0x%08x%s (%s)", b->n,
                    steps, run, i, b->h_got[i], b->h_want[i],
                    b->h_got[i] == POISON ? " (never written: still the poison)" : "",
                    README_CHAIN);
    WB_CUDA(ctx,
            cudaMemcpy(b->h_got, b->d_in, (size_t)b->n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    if (memcmp(b->h_got, b->h_in, (size_t)b->n * sizeof(uint32_t)) != 0)
        wb_fail(ctx, "n = %d, steps = %d, %s: d_in was changed; it is input only (%s)", b->n, steps,
                run, README_CHAIN);
}

/* Poisons the outputs, runs the student's chain on the legacy default
 * stream, waits, and checks the result. */
static void run_and_check(wb_ctx *ctx, chain_fn chain, chain_bufs *b, int steps, const char *run) {
    bufs_poison(ctx, b);
    int e = chain(b->d_in, b->d_out, b->d_work, b->n, steps, 0);
    if (e != cudaSuccess)
        wb_fail(ctx, "launch_overhead_chain(n = %d, steps = %d) returned %s, expected cudaSuccess",
                b->n, steps, cudaGetErrorName((cudaError_t)e));
    char what[80];
    snprintf(what, sizeof what, "launch_overhead_chain(n = %d, steps = %d)", b->n, steps);
    wb_wait(ctx, NULL, "the kernels of %s", what);
    WB_CUDA(ctx, cudaMemcpy(b->h_got, b->d_out, (size_t)b->n * sizeof(uint32_t),
                            cudaMemcpyDeviceToHost));
    bufs_check(ctx, b, steps, run);
}

/* Each invalid call is refused and launches nothing: d_out and d_work,
 * poisoned, are untouched after it. */
static void check_chain_invalid(wb_ctx *ctx, chain_fn chain) {
    uint32_t *d = NULL, h[128];
    WB_CUDA(ctx, cudaMalloc((void **)&d, 3 * 64 * sizeof(uint32_t)));
    uint32_t *o = d + 64, *w = d + 128;
    WB_CUDA(ctx, cudaMemset(d, GUARD_BYTE, 3 * 64 * sizeof(uint32_t)));
    WB_CUDA(ctx, cudaDeviceSynchronize());
    static const int args[7][4] = {{0, 1, 1, 8},  {1, 0, 1, 8},
                                   {1, 1, 0, 8},  {1, 1, 1, 0},
                                   {1, 1, 1, -4}, {1, 1, 1, LAUNCH_OVERHEAD_MAX_N + 1},
                                   {1, 1, 1, 8}};
    static const char *what[7] = {"d_in NULL", "d_out NULL", "d_work NULL",
                                  "n = 0",     "n = -4",     "n = LAUNCH_OVERHEAD_MAX_N + 1",
                                  "steps = 0"};
    for (int k = 0; k < 7; k++) {
        int r = chain(args[k][0] ? d : NULL, args[k][1] ? o : NULL, args[k][2] ? w : NULL,
                      args[k][3], k == 6 ? 0 : 1, 0);
        if (r != cudaErrorInvalidValue)
            wb_fail(ctx,
                    "launch_overhead_chain with %s returned %s, expected cudaErrorInvalidValue "
                    "(launch_overhead.h)",
                    what[k], cudaGetErrorName((cudaError_t)r));
        wb_wait(ctx, NULL, "the kernels of launch_overhead_chain's call with %s", what[k]);
        WB_CUDA(ctx, cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost));
        long b = first_touched(h, sizeof h);
        if (b >= 0)
            wb_fail(ctx,
                    "launch_overhead_chain with %s returned cudaErrorInvalidValue but changed "
                    "d_out or d_work (word %ld of the two); expected nothing launched for "
                    "invalid arguments (launch_overhead.h)",
                    what[k], b / 4);
    }
    cudaFree(d);
}

static void test_chain(wb_ctx *ctx) {
    chain_fn chain;
    WB_BIND(ctx, chain, launch_overhead_chain);
    static const int cases[][2] = {{1, 1},    {1, 4},       {2, 3},      {3, 2},
                                   {255, 2},  {256, 17},    {257, 64},   {1000, 1},
                                   {1000, 2}, {4099, 1000}, {65536, 33}, {31, 999}};
    const int n_cases = (int)(sizeof cases / sizeof cases[0]);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    for (int k = 0; k < n_cases; k++) {
        chain_bufs b;
        int n = cases[k][0], steps = cases[k][1];
        char run[64];
        bufs_open(ctx, &b, n);
        bufs_fill(ctx, &b, &g);
        run_and_check(ctx, chain, &b, steps, "first run");
        /* The same buffers again with new contents: a result kept from the
         * last call is now wrong. */
        bufs_fill(ctx, &b, &g);
        run_and_check(ctx, chain, &b, steps, "same buffers, new input");
        /* And one step more: anything prepared for `steps` must not be reused. */
        snprintf(run, sizeof run, "same buffers, then %d steps", steps + 1);
        run_and_check(ctx, chain, &b, steps + 1, run);
        bufs_close(&b);
    }
    check_chain_invalid(ctx, chain);
    wb_measured(ctx,
                "%d sizes and step counts (n up to 65536, steps up to 1000), each 3 times on the "
                "same buffers: exact; invalid arguments refused",
                n_cases);
}

/* The chain must be queued on the stream it is given: the grader queues the
 * real input behind a 20 ms wait on a non-blocking stream, then the chain. */
static void test_chain_stream(wb_ctx *ctx) {
    chain_fn chain;
    WB_BIND(ctx, chain, launch_overhead_chain);
    const int n = 3000, steps = 200;
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    chain_bufs b;
    uint32_t *d_src;
    cudaStream_t s;
    bufs_open(ctx, &b, n);
    bufs_fill(ctx, &b, &g);
    WB_CUDA(ctx, cudaMalloc((void **)&d_src, (size_t)n * sizeof(uint32_t)));
    char what[80];
    snprintf(what, sizeof what, "launch_overhead_chain(n = %d, steps = %d, on a stream)", n, steps);
    for (int round = 0; round < 2; round++) {
        WB_CUDA(ctx,
                cudaMemcpy(d_src, b.d_in, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToDevice));
        WB_CUDA(ctx, cudaMemset(b.d_in, 0, (size_t)n * sizeof(uint32_t)));
        bufs_poison(ctx, &b); /* waits for the memsets too */
        WB_CUDA(ctx, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        WB_CUDA(ctx, lo_delayed_copy(b.d_in, d_src, (size_t)n, 20000000LL, s));
        int e = chain(b.d_in, b.d_out, b.d_work, n, steps, s);
        if (e != cudaSuccess)
            wb_fail(ctx, "launch_overhead_chain(n = %d, steps = %d, on a stream) returned %s", n,
                    steps, cudaGetErrorName((cudaError_t)e));
        WB_CUDA(ctx, cudaMemcpyAsync(b.h_got, b.d_out, (size_t)n * sizeof(uint32_t),
                                     cudaMemcpyDeviceToHost, s));
        wb_wait(ctx, s, "the kernels of %s", what);
        wb_wait(ctx, NULL, "the kernels of %s", what);
        ref_chain(b.h_in, b.h_want, n, steps);
        if (memcmp(b.h_got, b.h_want, (size_t)n * sizeof(uint32_t)) != 0)
            wb_fail(ctx,
                    "n = %d, steps = %d, on a non-blocking stream behind the grader's 20 ms of "
                    "work (call %d): wrong result; the chain ran before its input was there, so "
                    "it is not on the stream argument: every kernel, or the graph, must be "
                    "launched on `stream` (%s)",
                    n, steps, round + 1, README_GRAPH);
        check_guard(ctx, &b, b.d_out, "d_out", steps, "on a stream");
        check_guard(ctx, &b, b.d_work, "d_work", steps, "on a stream");
        WB_CUDA(ctx, cudaStreamDestroy(s));
    }
    cudaFree(d_src);
    bufs_close(&b);
    wb_measured(ctx,
                "n = %d, %d steps, twice on a fresh non-blocking stream behind 20 ms of work: "
                "exact",
                n, steps);
}

/* ------------------------------------------------ the performance task */

/* The timed problem: n = 4096 words, 4096 steps, in buffers of its own. */
typedef struct perf_state {
    chain_fn student;
    chain_bufs b;
    wb_rng g;
} perf_state;

static perf_state perf;

static int run_student(void *p, void *stream) {
    perf_state *a = (perf_state *)p;
    return a->student(a->b.d_in, a->b.d_out, a->b.d_work, PERF_N, PERF_STEPS, (cudaStream_t)stream);
}

static int run_baseline(void *p, void *stream) {
    perf_state *a = (perf_state *)p;
    return lo_naive_chain(a->b.d_in, a->b.d_out, a->b.d_work, PERF_N, PERF_STEPS, stream);
}

/* Launch costs mean nothing on a time-sliced GPU: RERUN before timing. */
static void perf_open(wb_ctx *ctx, wb_perf_run *run) {
    WB_BIND(ctx, perf.student, launch_overhead_chain);
    wb_rng_seed(&perf.g, wb_seed(ctx));
    bufs_open(ctx, &perf.b, PERF_N);
    bufs_fill(ctx, &perf.b, &perf.g);
    require_quiet_gpu(ctx);
    run->baseline = run_baseline;
    run->candidate = run_student;
    run->arg = &perf;
}

/* New input in the same buffers as well as poisoned outputs: a result kept
 * from the timed calls is wrong for the checked one. */
static void perf_poison(wb_ctx *ctx, void *arg) {
    perf_state *a = (perf_state *)arg;
    bufs_fill(ctx, &a->b, &a->g);
    bufs_poison(ctx, &a->b);
}

static void perf_check(wb_ctx *ctx, void *arg) {
    chain_bufs *b = &((perf_state *)arg)->b;
    WB_CUDA(ctx, cudaMemcpy(b->h_got, b->d_out, (size_t)b->n * sizeof(uint32_t),
                            cudaMemcpyDeviceToHost));
    bufs_check(ctx, b, PERF_STEPS, "after the timing, new input");
}

/* Per step, as the chapter counts launch costs. */
static void perf_describe(wb_ctx *ctx, void *arg, const wb_ratio *r, char *buf, size_t cap) {
    (void)arg;
    double us = 1e3 * r->cand_ms / PERF_STEPS, base_us = 1e3 * r->base_ms / PERF_STEPS;
    wb_record(ctx, "chain_student_us_per_step", us, "us", 0, "ref");
    wb_record(ctx, "chain_naive_us_per_step", base_us, "us", 0, "ref");
    snprintf(buf, cap, "%.2f vs %.2f us per step, %d steps", us, base_us, PERF_STEPS);
}

static void perf_close(void *arg) {
    bufs_close(&((perf_state *)arg)->b);
}

static const wb_perf perf_chain = {
    .metric = "chain",
    .limit = 4.0,
    .baseline = "the naive chain",
    .size = "n = 4,096, 4,096 steps",
    .derivation = "the naive chain pays a synchronised launch S per step (9.2-10.5 us on the "
                  "H100's host) and one CUDA graph the GPU's own time per kernel g (1.05-1.09 us "
                  "on the H100 and H200), so the reference gets about S / g, 8.3-9.7x and 25 % "
                  "clear while S is at least 5 g, and a chain that only drops the waits gets S "
                  "over the launch cost A (2.5x), 25 % short while S is at most 3.2 A, which "
                  "hosts with a much shorter round trip or much cheaper launches (WDDM) are not "
                  "yet shown to keep, and the stub, the naive chain itself, gets 1.0x",
    .figures = "H100 (2026-11-22, CUDA 13.0): reference (one CUDA graph) 8.54-9.64x in 8 runs "
               "(1.08-1.09 against 9.23-10.54 us per step), no waits but one launch per step "
               "2.48x, stub 1.00x; H200 (2026-11-22): reference 8.31x and 9.66x, stub 1.00x",
    .advice = "each step still pays for its own launch (and perhaps a wait): launch all 4096 "
              "steps with one call, as a CUDA graph (" README_GRAPH ")",
    .open = perf_open,
    .poison = perf_poison,
    .check = perf_check,
    .describe = perf_describe,
    .close = perf_close,
};

/* ------------------------------------------------ part 3: copies that overlap kernels */

typedef __typeof__(&launch_overhead_pipeline) pipeline_fn;

/* Guard zones of the pipeline: PIPE_GUARD words after each of h_in, h_out,
 * d_in and d_out, in the same allocation. Each holds its own byte, so a
 * copy that runs past the end of one buffer into the guard of the next
 * stage carries a byte that does not belong there: past h_in lies input
 * that is not the input (PIPE_TAIL_IN), and d_in, d_out and h_out have
 * guards of three different bytes. */
#define PIPE_GUARD 8192
#define PIPE_TAIL_IN 0x5A
#define PIPE_GUARD_DIN 0xA5
#define PIPE_GUARD_DOUT 0xB6
#define PIPE_GUARD_HOUT 0xC7
#define PIPE_POISON 0xFFFFFFFFu

/* The pipeline's buffers: the caller's four, and the grader's own copies. */
typedef struct pipe_bufs {
    size_t n;
    uint32_t *h_in, *h_out; /* pinned, n words and a guard each */
    uint32_t *d_in, *d_out; /* device, n words and a guard each */
    /* pageable, n words each: the input written, the output expected, a read-back */
    uint32_t *h_keep, *h_want, *h_got;
} pipe_bufs;

/* One call of the pipeline, for messages. */
typedef struct pipe_call {
    size_t n, chunk;
    int iters, n_streams;
    const char *run;
} pipe_call;

static void pipe_what(const pipe_call *c, char *buf, size_t cap) {
    snprintf(buf, cap,
             "launch_overhead_pipeline(n = %zu, chunk = %zu, iters = %d, %d stream%s), %s", c->n,
             c->chunk, c->iters, c->n_streams, c->n_streams == 1 ? "" : "s", c->run);
}

static void pipe_open(wb_ctx *ctx, pipe_bufs *b, size_t n) {
    const size_t guarded = (n + PIPE_GUARD) * sizeof(uint32_t), bytes = n * sizeof(uint32_t);
    memset(b, 0, sizeof *b);
    b->n = n;
    WB_CUDA(ctx, cudaMallocHost((void **)&b->h_in, guarded));
    WB_CUDA(ctx, cudaMallocHost((void **)&b->h_out, guarded));
    WB_CUDA(ctx, cudaMalloc((void **)&b->d_in, guarded));
    WB_CUDA(ctx, cudaMalloc((void **)&b->d_out, guarded));
    b->h_keep = (uint32_t *)malloc(bytes);
    b->h_want = (uint32_t *)malloc(bytes);
    b->h_got = (uint32_t *)malloc(bytes);
    if (!b->h_keep || !b->h_want || !b->h_got)
        wb_fail(ctx, "out of host memory (%zu MiB for the grader's copies)", 3 * bytes >> 20);
    memset(b->h_in + n, PIPE_TAIL_IN, PIPE_GUARD * sizeof(uint32_t));
}

static void pipe_close(pipe_bufs *b) {
    cudaFreeHost(b->h_in);
    cudaFreeHost(b->h_out);
    cudaFree(b->d_in);
    cudaFree(b->d_out);
    free(b->h_keep);
    free(b->h_want);
    free(b->h_got);
}

/* n random words from one seed (splitmix64): fast enough for 2^27 words. */
static void fill_words(uint32_t *p, size_t n, uint64_t seed) {
    uint64_t x = seed;
    for (size_t i = 0; i < n; i += 2) {
        uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        p[i] = (uint32_t)z;
        if (i + 1 < n)
            p[i + 1] = (uint32_t)(z >> 32);
    }
}

/* New random input in h_in, and its copy in h_keep. */
static void pipe_fill(pipe_bufs *b, wb_rng *g) {
    fill_words(b->h_in, b->n, wb_rng_u64(g));
    memcpy(b->h_keep, b->h_in, b->n * sizeof(uint32_t));
}

/* The expected output, on the CPU. */
static void pipe_want_cpu(pipe_bufs *b, int iters) {
    for (size_t i = 0; i < b->n; i++)
        b->h_want[i] = launch_overhead_work_value(b->h_keep[i], iters);
}

/* h_out, d_in and d_out poisoned, their guards set; the GPU idle after it. */
static void pipe_poison(wb_ctx *ctx, pipe_bufs *b) {
    const size_t bytes = b->n * sizeof(uint32_t), guard = PIPE_GUARD * sizeof(uint32_t);
    WB_CUDA(ctx, cudaDeviceSynchronize());
    memset(b->h_out, 0xFF, bytes);
    memset(b->h_out + b->n, PIPE_GUARD_HOUT, guard);
    WB_CUDA(ctx, cudaMemset(b->d_in, 0xFF, bytes));
    WB_CUDA(ctx, cudaMemset(b->d_out, 0xFF, bytes));
    WB_CUDA(ctx, cudaMemset(b->d_in + b->n, PIPE_GUARD_DIN, guard));
    WB_CUDA(ctx, cudaMemset(b->d_out + b->n, PIPE_GUARD_DOUT, guard));
    WB_CUDA(ctx, cudaDeviceSynchronize());
}

/* Fails when a guard word of `name` (the PIPE_GUARD words after its n)
 * is not `byte` repeated. */
static void pipe_guard(wb_ctx *ctx, const pipe_call *c, const uint32_t *g, int byte,
                       const char *name) {
    long k = -1;
    const unsigned char *p = (const unsigned char *)g;
    for (size_t i = 0; i < PIPE_GUARD * sizeof(uint32_t) && k < 0; i++)
        if (p[i] != (unsigned char)byte)
            k = (long)(i / sizeof(uint32_t));
    if (k < 0)
        return;
    char what[200];
    uint32_t want;
    memset(&want, byte, sizeof want);
    pipe_what(c, what, sizeof what);
    wb_fail(ctx,
            "%s: %s[%zu], past the end of its n elements, was written (0x%08x where the guard "
            "0x%08x stood); expected nothing written past %s[%zu]: the last chunk holds only "
            "the %zu elements left, not a whole chunk, and the extra threads of a rounded-up "
            "grid store nothing (%s)",
            what, name, c->n + (size_t)k, g[k], want, name, c->n - 1,
            c->n - (c->n - 1) / c->chunk * c->chunk, README_PIPE);
}

/* Fails at the first element of got that differs from want. */
static void pipe_compare(wb_ctx *ctx, const pipe_call *c, const char *name, const uint32_t *got,
                         const uint32_t *want, const char *why) {
    if (memcmp(got, want, c->n * sizeof(uint32_t)) == 0)
        return;
    size_t i = 0;
    while (got[i] == want[i])
        i++;
    char what[200];
    pipe_what(c, what, sizeof what);
    wb_fail(ctx, "%s: %s[%zu] (chunk %zu, its element %zu) is 0x%08x, expected 0x%08x%s; %s (%s)",
            what, name, i, i / c->chunk, i % c->chunk, got[i], want[i],
            got[i] == PIPE_POISON ? " (never written: still the poison)" : "", why, README_PIPE);
}

/* Every output and guard of a call the GPU has finished; h_want set. */
static void pipe_check(wb_ctx *ctx, pipe_bufs *b, const pipe_call *c) {
    const size_t bytes = b->n * sizeof(uint32_t);
    uint32_t g[PIPE_GUARD];
    pipe_guard(ctx, c, b->h_out + b->n, PIPE_GUARD_HOUT, "h_out");
    WB_CUDA(ctx, cudaMemcpy(g, b->d_in + b->n, sizeof g, cudaMemcpyDeviceToHost));
    pipe_guard(ctx, c, g, PIPE_GUARD_DIN, "d_in");
    WB_CUDA(ctx, cudaMemcpy(g, b->d_out + b->n, sizeof g, cudaMemcpyDeviceToHost));
    pipe_guard(ctx, c, g, PIPE_GUARD_DOUT, "d_out");
    pipe_compare(ctx, c, "h_out", b->h_out, b->h_want,
                 "h_out[i] must be launch_overhead_work_value(h_in[i], iters)");
    WB_CUDA(ctx, cudaMemcpy(b->h_got, b->d_in, bytes, cudaMemcpyDeviceToHost));
    pipe_compare(ctx, c, "d_in", b->h_got, b->h_keep,
                 "afterwards d_in holds the input: every chunk is copied into d_in at its own "
                 "offset");
    WB_CUDA(ctx, cudaMemcpy(b->h_got, b->d_out, bytes, cudaMemcpyDeviceToHost));
    pipe_compare(ctx, c, "d_out", b->h_got, b->h_want,
                 "afterwards d_out holds the output: the kernels write d_out at each chunk's "
                 "offset");
    pipe_compare(ctx, c, "h_in", b->h_in, b->h_keep, "h_in is input only");
}

/* Non-blocking streams, as the contract's caller creates them. */
static void pipe_streams(wb_ctx *ctx, cudaStream_t *s, int k) {
    for (int i = 0; i < k; i++)
        WB_CUDA(ctx, cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking));
}

static void pipe_streams_close(cudaStream_t *s, int k) {
    for (int i = 0; i < k; i++)
        cudaStreamDestroy(s[i]);
}

/* Poisons, calls the pipeline with c's arguments, waits for the whole GPU,
 * and checks everything against the CPU. */
static void pipe_run_checked(wb_ctx *ctx, pipeline_fn f, pipe_bufs *b, const pipe_call *c,
                             cudaStream_t *streams) {
    char what[200];
    pipe_what(c, what, sizeof what);
    pipe_poison(ctx, b);
    int e =
        f(b->h_in, b->h_out, b->d_in, b->d_out, b->n, c->chunk, c->iters, streams, c->n_streams);
    if (e != cudaSuccess)
        wb_fail(ctx, "%s returned %s, expected cudaSuccess", what,
                cudaGetErrorName((cudaError_t)e));
    wb_wait(ctx, NULL, "the copies and kernels of %s", what);
    pipe_want_cpu(b, c->iters);
    pipe_check(ctx, b, c);
}

/* The invalid calls: which pointer is NULL (none, or one of h_in, h_out,
 * d_in, d_out, streams), and the sizes. */
static const struct pipe_invalid {
    const char *what;
    int null_arg; /* 0: none; 1 to 5: h_in, h_out, d_in, d_out, streams */
    size_t n, chunk;
    int iters, n_streams;
} pipe_invalid[] = {
    {"h_in NULL", 1, 64, 16, 2, 2},
    {"h_out NULL", 2, 64, 16, 2, 2},
    {"d_in NULL", 3, 64, 16, 2, 2},
    {"d_out NULL", 4, 64, 16, 2, 2},
    {"streams NULL", 5, 64, 16, 2, 2},
    {"n = 0", 0, 0, 16, 2, 2},
    {"n = LAUNCH_OVERHEAD_MAX_ELEMS + 1", 0, LAUNCH_OVERHEAD_MAX_ELEMS + 1, 16, 2, 2},
    {"chunk = 0", 0, 64, 0, 2, 2},
    {"iters = -1", 0, 64, 16, -1, 2},
    {"n_streams = 0", 0, 64, 16, 2, 0},
    {"n_streams = LAUNCH_OVERHEAD_MAX_STREAMS + 1", 0, 64, 16, 2, LAUNCH_OVERHEAD_MAX_STREAMS + 1},
};
#define PIPE_INVALID ((int)(sizeof pipe_invalid / sizeof pipe_invalid[0]))

/* Each invalid call is refused and queues nothing: h_out, d_in and d_out,
 * poisoned, are untouched after it. */
static void check_pipeline_invalid(wb_ctx *ctx, pipeline_fn f, cudaStream_t *streams) {
    pipe_bufs b;
    pipe_open(ctx, &b, 64);
    memset(b.h_in, 0x11, 64 * sizeof(uint32_t));
    cudaStream_t many[LAUNCH_OVERHEAD_MAX_STREAMS + 1]; /* readable even past the limit */
    for (int i = 0; i <= LAUNCH_OVERHEAD_MAX_STREAMS; i++)
        many[i] = streams[i % LAUNCH_OVERHEAD_MAX_STREAMS];
    for (int k = 0; k < PIPE_INVALID; k++) {
        const struct pipe_invalid *v = &pipe_invalid[k];
        pipe_poison(ctx, &b);
        int r = f(v->null_arg == 1 ? NULL : b.h_in, v->null_arg == 2 ? NULL : b.h_out,
                  v->null_arg == 3 ? NULL : b.d_in, v->null_arg == 4 ? NULL : b.d_out, v->n,
                  v->chunk, v->iters, v->null_arg == 5 ? NULL : many, v->n_streams);
        if (r != cudaErrorInvalidValue)
            wb_fail(ctx,
                    "launch_overhead_pipeline with %s returned %s, expected cudaErrorInvalidValue "
                    "(launch_overhead.h)",
                    v->what, cudaGetErrorName((cudaError_t)r));
        wb_wait(ctx, NULL, "the work of launch_overhead_pipeline's call with %s", v->what);
        uint32_t d[2][64];
        WB_CUDA(ctx, cudaMemcpy(d[0], b.d_in, sizeof d[0], cudaMemcpyDeviceToHost));
        WB_CUDA(ctx, cudaMemcpy(d[1], b.d_out, sizeof d[1], cudaMemcpyDeviceToHost));
        for (int i = 0; i < 64; i++)
            if (b.h_out[i] != PIPE_POISON || d[0][i] != PIPE_POISON || d[1][i] != PIPE_POISON)
                wb_fail(ctx,
                        "launch_overhead_pipeline with %s returned cudaErrorInvalidValue but "
                        "changed element %d of h_out, d_in or d_out; expected nothing queued for "
                        "invalid arguments (launch_overhead.h)",
                        v->what, i);
    }
    pipe_close(&b);
}

/* The sizes: one chunk (exactly n, or larger), many, a last chunk of one
 * element, 5,000 chunks of one element, one stream and all 16, no work at
 * all (iters = 0), a chunk too large for n + chunk - 1 to be computed. */
static const struct pipe_case {
    size_t n, chunk;
    int n_streams, iters;
} pipe_cases[] = {
    {1, 1, 1, 3},           {1, 1024, 4, 3},        {1000, 1000, 2, 5},  {1000, 4096, 3, 5},
    {1000, 7, 4, 2},        {4097, 1024, 2, 9},     {65536, 4096, 4, 7}, {100003, 8192, 3, 11},
    {262147, 16384, 16, 4}, {524288, 524287, 2, 6}, {5000, 1, 5, 1},     {777, 100, 2, 0},
    {300001, 65536, 1, 3},  {1000, SIZE_MAX, 2, 3},
};
#define PIPE_CASES ((int)(sizeof pipe_cases / sizeof pipe_cases[0]))

static void test_pipeline(wb_ctx *ctx) {
    pipeline_fn f;
    WB_BIND(ctx, f, launch_overhead_pipeline);
    cudaStream_t streams[LAUNCH_OVERHEAD_MAX_STREAMS];
    pipe_streams(ctx, streams, LAUNCH_OVERHEAD_MAX_STREAMS);
    wb_rng g;
    wb_rng_seed(&g, wb_seed(ctx));
    for (int k = 0; k < PIPE_CASES; k++) {
        const struct pipe_case *pc = &pipe_cases[k];
        pipe_bufs b;
        pipe_call c = {pc->n, pc->chunk, pc->iters, pc->n_streams, "first run"};
        pipe_open(ctx, &b, pc->n);
        pipe_fill(&b, &g);
        pipe_run_checked(ctx, f, &b, &c, streams);
        /* The same buffers again with new input: a result kept from the last
         * call is now wrong. */
        pipe_fill(&b, &g);
        c.run = "same buffers, new input";
        pipe_run_checked(ctx, f, &b, &c, streams);
        /* And one round more per element: nothing prepared for the last
         * call's iters may be reused. */
        c.iters++;
        c.run = "same buffers, one round more per element";
        pipe_run_checked(ctx, f, &b, &c, streams);
        pipe_close(&b);
    }
    check_pipeline_invalid(ctx, f, streams);
    pipe_streams_close(streams, LAUNCH_OVERHEAD_MAX_STREAMS);
    wb_measured(ctx,
                "%d sizes, chunks and stream counts (n up to 524288, 1 to 5000 chunks, 1 to 16 "
                "streams), each 3 times on the same buffers: exact; invalid arguments refused",
                PIPE_CASES);
}

/* The work the grader queues ahead of the pipeline on its streams. */
#define PIPE_DELAY_MS 200

static double host_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The result of a call whose input arrived late on the streams given:
 * right, or why not (the input read too early, the work not on them). */
static void check_late_input(wb_ctx *ctx, pipe_bufs *b, const pipe_call *c, const uint32_t *stale) {
    char what[200];
    pipe_what(c, what, sizeof what);
    for (size_t i = 0; i < b->n; i++) {
        if (b->h_out[i] == b->h_want[i])
            continue;
        if (b->h_out[i] == launch_overhead_work_value(stale[i], c->iters))
            wb_fail(ctx,
                    "%s: h_out[%zu] (chunk %zu) is 0x%08x, the work on what h_in held BEFORE the "
                    "grader's work queued ahead on streams[] had written the real input "
                    "(expected 0x%08x): the copies did not wait for that work; every copy and "
                    "kernel goes on the streams given, never on stream 0 (the legacy default "
                    "stream) or on a stream of your own (%s)",
                    what, i, i / c->chunk, b->h_out[i], b->h_want[i], README_FREE);
        if (b->h_out[i] == PIPE_POISON)
            wb_fail(ctx,
                    "%s: h_out[%zu] (chunk %zu) still held the poison when every stream of "
                    "streams[] had finished (expected 0x%08x): part of the work was queued "
                    "elsewhere; every copy and kernel goes on the streams given (%s)",
                    what, i, i / c->chunk, b->h_want[i], README_FREE);
        wb_fail(ctx, "%s: h_out[%zu] (chunk %zu) is 0x%08x, expected 0x%08x (%s)", what, i,
                i / c->chunk, b->h_out[i], b->h_want[i], README_PIPE);
    }
}

/* One call with the real input written into h_in only after PIPE_DELAY_MS
 * of the grader's work, queued ahead of the call on every stream given:
 * the call must return while that work is still running, and its result,
 * once those streams are done, must be right. */
static void pipe_late_round(wb_ctx *ctx, pipeline_fn f, pipe_bufs *b, const pipe_call *c,
                            cudaStream_t *streams, cudaStream_t own, cudaEvent_t ready,
                            uint32_t *d_src, uint32_t *stale, wb_rng *g) {
    const size_t bytes = b->n * sizeof(uint32_t);
    char what[200];
    pipe_what(c, what, sizeof what);
    pipe_fill(b, g); /* the real input: h_keep, and d_src below */
    WB_CUDA(ctx, cudaMemcpy(d_src, b->h_keep, bytes, cudaMemcpyHostToDevice));
    pipe_want_cpu(b, c->iters);
    fill_words(stale, b->n, wb_rng_u64(g)); /* what h_in holds until the real input lands */
    memcpy(b->h_in, stale, bytes);
    pipe_poison(ctx, b);
    WB_CUDA(ctx, lo_spin((long long)PIPE_DELAY_MS * 1000000, own));
    WB_CUDA(ctx, cudaMemcpyAsync(b->h_in, d_src, bytes, cudaMemcpyDeviceToHost, own));
    WB_CUDA(ctx, cudaEventRecord(ready, own));
    for (int i = 0; i < c->n_streams; i++)
        WB_CUDA(ctx, cudaStreamWaitEvent(streams[i], ready, 0));
    double t0 = host_ms();
    int e =
        f(b->h_in, b->h_out, b->d_in, b->d_out, b->n, c->chunk, c->iters, streams, c->n_streams);
    double t1 = host_ms();
    cudaError_t q = cudaEventQuery(ready);
    if (e != cudaSuccess)
        wb_fail(ctx, "%s returned %s, expected cudaSuccess", what,
                cudaGetErrorName((cudaError_t)e));
    if (q == cudaSuccess)
        wb_fail(ctx,
                "%s returned after %.0f ms, when the %d ms of work the grader had queued ahead of "
                "it on streams[] had already finished; expected it to return at once, only "
                "queuing its copies and kernels: it waited for the GPU (cudaDeviceSynchronize, "
                "cudaStreamSynchronize, cudaEventSynchronize, cudaMemcpy, a copy to or from "
                "pageable memory, cudaFree and cudaFreeHost all wait) (%s)",
                what, t1 - t0, PIPE_DELAY_MS, README_FREE);
    if (q != cudaErrorNotReady)
        WB_CUDA(ctx, q);
    for (int i = 0; i < c->n_streams; i++)
        wb_wait(ctx, streams[i], "the copies and kernels of %s", what);
    check_late_input(ctx, b, c, stale);
    wb_wait(ctx, NULL, "the copies and kernels of %s", what);
    pipe_check(ctx, b, c);
}

static void test_pipeline_streams(wb_ctx *ctx) {
    pipeline_fn f;
    WB_BIND(ctx, f, launch_overhead_pipeline);
    const size_t n = 200003;
    pipe_call c = {n, 8192, 20, 3, "first call"};
    cudaStream_t streams[3], own;
    cudaEvent_t ready;
    uint32_t *d_src, *stale = (uint32_t *)malloc(n * sizeof(uint32_t));
    pipe_bufs b;
    wb_rng g;
    if (!stale)
        wb_fail(ctx, "out of host memory");
    wb_rng_seed(&g, wb_seed(ctx));
    pipe_open(ctx, &b, n);
    pipe_streams(ctx, streams, 3);
    WB_CUDA(ctx, cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking));
    WB_CUDA(ctx, cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    WB_CUDA(ctx, cudaMalloc((void **)&d_src, n * sizeof(uint32_t)));
    /* A first, plain call: whatever is set up once (the kernel's code is
     * loaded at its first launch) is set up before the rounds that time. */
    pipe_fill(&b, &g);
    pipe_run_checked(ctx, f, &b, &c, streams);
    for (int round = 1; round <= 2; round++) {
        c.run = round == 1 ? "input arriving on streams[] after 200 ms of work"
                           : "again, input arriving after 200 ms of work";
        pipe_late_round(ctx, f, &b, &c, streams, own, ready, d_src, stale, &g);
    }
    cudaFree(d_src);
    cudaEventDestroy(ready);
    cudaStreamDestroy(own);
    pipe_streams_close(streams, 3);
    pipe_close(&b);
    free(stale);
    wb_measured(ctx,
                "n = %zu, 25 chunks, 3 streams, twice behind %d ms of work on them: returned at "
                "once, exact",
                n, PIPE_DELAY_MS);
}

/* ------------------------------------------------ the pipeline's performance task */

/* The timed problem: n elements (PIPE_PERF_MIN_N, doubled while copying
 * them in takes less than PIPE_PERF_MIN_IN_MS, up to PIPE_PERF_MAX_N), in
 * PIPE_PERF_CHUNKS chunks on PIPE_PERF_STREAMS streams, with iters chosen
 * so that the kernel over all of them takes as long as both copies. */
#define PIPE_PERF_MIN_N ((size_t)1 << 24)
#define PIPE_PERF_MAX_N ((size_t)1 << 27)
#define PIPE_PERF_MIN_IN_MS 2.0
#define PIPE_PERF_CHUNKS 32
#define PIPE_PERF_STREAMS 4
#define PIPE_PERF_MAX_ITERS (1 << 16)

typedef struct pipe_perf {
    pipeline_fn student;
    pipe_bufs b;
    int iters, engines;
    size_t chunk;
    double in_ms, out_ms, kernel_ms;
    cudaStream_t streams[PIPE_PERF_STREAMS];
    cudaEvent_t fork, join[PIPE_PERF_STREAMS];
    wb_rng g;
} pipe_perf;

static pipe_perf pperf;

/* The student's call, made part of the timing stream: the streams given
 * start after what the timing stream queued before (its start event), and
 * the timing stream waits for all of them (its end event). */
static int run_pipe_student(void *p, void *stream) {
    pipe_perf *a = (pipe_perf *)p;
    cudaStream_t t = (cudaStream_t)stream;
    cudaError_t e = cudaEventRecord(a->fork, t);
    for (int i = 0; e == cudaSuccess && i < PIPE_PERF_STREAMS; i++)
        e = cudaStreamWaitEvent(a->streams[i], a->fork, 0);
    if (e == cudaSuccess)
        e = a->student(a->b.h_in, a->b.h_out, a->b.d_in, a->b.d_out, a->b.n, a->chunk, a->iters,
                       a->streams, PIPE_PERF_STREAMS);
    for (int i = 0; e == cudaSuccess && i < PIPE_PERF_STREAMS; i++) {
        e = cudaEventRecord(a->join[i], a->streams[i]);
        if (e == cudaSuccess)
            e = cudaStreamWaitEvent(t, a->join[i], 0);
    }
    return e;
}

static int run_pipe_baseline(void *p, void *stream) {
    pipe_perf *a = (pipe_perf *)p;
    return lo_pipe_serial(a->b.h_in, a->b.h_out, a->b.d_in, a->b.d_out, a->b.n, a->iters, stream);
}

/* The three stages of the serial version, each timed alone. */
static int stage_in(void *p, void *stream) {
    pipe_perf *a = (pipe_perf *)p;
    return cudaMemcpyAsync(a->b.d_in, a->b.h_in, a->b.n * sizeof(uint32_t), cudaMemcpyHostToDevice,
                           (cudaStream_t)stream);
}

static int stage_out(void *p, void *stream) {
    pipe_perf *a = (pipe_perf *)p;
    return cudaMemcpyAsync(a->b.h_out, a->b.d_out, a->b.n * sizeof(uint32_t),
                           cudaMemcpyDeviceToHost, (cudaStream_t)stream);
}

static int stage_kernel(void *p, void *stream) {
    pipe_perf *a = (pipe_perf *)p;
    return lo_work(a->b.d_in, a->b.d_out, a->b.n, a->iters, stream);
}

static double time_stage(wb_ctx *ctx, wb_work_fn f, pipe_perf *a) {
    wb_time_opts o = wb_time_defaults();
    o.warmup = 1;
    o.min_trials = 5;
    o.max_trials = 9;
    o.max_seconds = 3;
    double ms = 0, spread = 0;
    WB_CUDA(ctx, wb_time_one(f, a, &o, &ms, &spread));
    return ms;
}

/* The size: the copy in must take PIPE_PERF_MIN_IN_MS or more, so that
 * each chunk's copies and kernel are long beside what the GPU spends
 * starting one (a few microseconds). */
static void pipe_perf_size(wb_ctx *ctx, pipe_perf *a) {
    pipe_open(ctx, &a->b, PIPE_PERF_MIN_N);
    pipe_fill(&a->b, &a->g);
    a->in_ms = time_stage(ctx, stage_in, a);
    size_t n = PIPE_PERF_MIN_N;
    while (n < PIPE_PERF_MAX_N && a->in_ms * (double)(n / PIPE_PERF_MIN_N) < PIPE_PERF_MIN_IN_MS)
        n *= 2;
    if (n != PIPE_PERF_MIN_N) {
        pipe_close(&a->b);
        pipe_open(ctx, &a->b, n);
        pipe_fill(&a->b, &a->g);
        a->in_ms = time_stage(ctx, stage_in, a);
    }
    a->out_ms = time_stage(ctx, stage_out, a);
    a->chunk = n / PIPE_PERF_CHUNKS;
}

/* iters such that the kernel over all n elements takes as long as both
 * copies together (within 3 %, five tries at most): the kernel's time is
 * a fixed part plus a part that grows with iters. */
static void pipe_perf_iters(wb_ctx *ctx, pipe_perf *a) {
    const double target = a->in_ms + a->out_ms;
    a->iters = 16;
    a->kernel_ms = time_stage(ctx, stage_kernel, a);
    for (int k = 0; k < 5 && fabs(a->kernel_ms / target - 1) > 0.03; k++) {
        double next = a->iters * target / a->kernel_ms;
        int it = next < 1                     ? 1
                 : next > PIPE_PERF_MAX_ITERS ? PIPE_PERF_MAX_ITERS
                                              : (int)lround(next);
        if (it == a->iters)
            break;
        a->iters = it;
        a->kernel_ms = time_stage(ctx, stage_kernel, a);
    }
}

/* The expected output of the current input: the grader's serial version
 * into h_want, its kernel checked against the CPU on 4,096 elements. */
static void pipe_perf_want(wb_ctx *ctx, pipe_perf *a) {
    pipe_bufs *b = &a->b;
    WB_CUDA(ctx, lo_pipe_serial(b->h_in, b->h_want, b->d_in, b->d_out, b->n, a->iters, NULL));
    WB_CUDA(ctx, cudaDeviceSynchronize());
    for (size_t k = 0; k < 4096; k++) {
        size_t i = k * (b->n / 4096) + k % 7;
        if (b->h_want[i] != launch_overhead_work_value(b->h_keep[i], a->iters))
            wb_fail(ctx,
                    "the grader's own serial version gave 0x%08x at element %zu, the CPU 0x%08x: "
                    "the grader or this GPU is at fault, not your code; report it",
                    b->h_want[i], i, launch_overhead_work_value(b->h_keep[i], a->iters));
    }
}

static void pipe_perf_open(wb_ctx *ctx, wb_perf_run *run) {
    pipe_perf *a = &pperf;
    int dev = 0;
    WB_BIND(ctx, a->student, launch_overhead_pipeline);
    wb_rng_seed(&a->g, wb_seed(ctx));
    WB_CUDA(ctx, cudaGetDevice(&dev));
    WB_CUDA(ctx, cudaDeviceGetAttribute(&a->engines, cudaDevAttrAsyncEngineCount, dev));
    pipe_perf_size(ctx, a);
    pipe_perf_iters(ctx, a);
    pipe_streams(ctx, a->streams, PIPE_PERF_STREAMS);
    WB_CUDA(ctx, cudaEventCreateWithFlags(&a->fork, cudaEventDisableTiming));
    for (int i = 0; i < PIPE_PERF_STREAMS; i++)
        WB_CUDA(ctx, cudaEventCreateWithFlags(&a->join[i], cudaEventDisableTiming));
    pipe_perf_want(ctx, a);
    wb_record(ctx, "pipeline_n", (double)a->b.n, "elements", 0, "ref");
    wb_record(ctx, "pipeline_iters", a->iters, "rounds", 0, "ref");
    wb_record(ctx, "pipeline_copy_in_ms", a->in_ms, "ms", 0, "ref");
    wb_record(ctx, "pipeline_copy_out_ms", a->out_ms, "ms", 0, "ref");
    wb_record(ctx, "pipeline_kernel_ms", a->kernel_ms, "ms", 0, "ref");
    wb_record(ctx, "pipeline_copy_engines", a->engines, "engines", 0, "ref");
    run->baseline = run_pipe_baseline;
    run->candidate = run_pipe_student;
    run->arg = a;
    /* Spot checks refill 2^24 to 2^27 elements: more time than the default. */
    run->opts.max_seconds = 20;
    /* No pipeline is faster than its slowest stage, each measured alone.
     * The kernel's time was taken while the SM clock may still have been
     * rising from idle, so the floor is 0.75 of it, not 0.9. */
    run->floor_ms = fmax(a->kernel_ms, fmax(a->in_ms, a->out_ms));
    run->floor_share = 0.75;
    run->floor_why = "the slowest of the three stages alone (the grader's copy in, kernel or "
                     "copy out over all n elements)";
    run->floor_advice = "every element must be copied in, worked on and copied out, on the "
                        "streams given (" README_PIPE ")";
}

/* New input, its expected output, poisoned outputs: a result kept from the
 * timed calls is wrong for the checked one. */
static void pipe_perf_poison(wb_ctx *ctx, void *arg) {
    pipe_perf *a = (pipe_perf *)arg;
    pipe_fill(&a->b, &a->g);
    pipe_perf_want(ctx, a);
    pipe_poison(ctx, &a->b);
}

static void pipe_perf_check(wb_ctx *ctx, void *arg) {
    pipe_perf *a = (pipe_perf *)arg;
    pipe_call c = {a->b.n, a->chunk, a->iters, PIPE_PERF_STREAMS, "timed, then checked"};
    pipe_check(ctx, &a->b, &c);
}

/* The stages as the grader measured them, and the best this GPU allows. */
static void pipe_perf_describe(wb_ctx *ctx, void *arg, const wb_ratio *r, char *buf, size_t cap) {
    pipe_perf *a = (pipe_perf *)arg;
    (void)r;
    double serial = a->in_ms + a->kernel_ms + a->out_ms;
    double best = a->engines >= 2 ? fmax(a->kernel_ms, fmax(a->in_ms, a->out_ms))
                                  : fmax(a->kernel_ms, a->in_ms + a->out_ms);
    wb_record(ctx, "pipeline_ideal_speedup", serial / best, "x", 0, "ref");
    snprintf(buf, cap, "in %.2f + kernel %.2f + out %.2f ms, %d copy engine%s: at best %.2fx",
             a->in_ms, a->kernel_ms, a->out_ms, a->engines, a->engines == 1 ? "" : "s",
             serial / best);
}

static void pipe_perf_close(void *arg) {
    pipe_perf *a = (pipe_perf *)arg;
    cudaEventDestroy(a->fork);
    for (int i = 0; i < PIPE_PERF_STREAMS; i++)
        cudaEventDestroy(a->join[i]);
    pipe_streams_close(a->streams, PIPE_PERF_STREAMS);
    pipe_close(&a->b);
}

/* perf.pipeline's limit, and why it holds on every GPU (README.md, "What is
 * graded", says it at length). */
#define PIPE_DERIVATION                                                                            \
    "the grader times copying the n elements in (I) and out (O) and picks iters so that its "      \
    "kernel over them takes K = I + O, so the serial version takes I + K + O = 2K while no "       \
    "pipeline beats K (the SMs need K; the copies need max(I, O) with two copy engines, I + "      \
    "O with one, both at most K): the problem fixes the ceiling at 2.0x on every GPU, "            \
    "whatever its copy engines, link (PCIe 3 to 5, NVLink-C2C) or SM count, since iters "          \
    "absorbs the GPU's speed and n grows (to 2^27 at most) until a copy in takes 2 ms; 32 "        \
    "chunks leave the reference 1/32 of K to fill and drain (1.94x before the few "                \
    "microseconds each chunk's copies and kernel take to start), and it clears 1.4 by 25 % "       \
    "while it reaches 1.75x, 87.5 % of the ceiling; the stub, the serial version itself, "         \
    "gets 1.00x (29 % short), and so does every pipeline whose stages still take turns: "          \
    "chunks on one stream, a wait after each chunk, the legacy default stream, or copies "         \
    "through pageable memory (slower still; all but the first fail correct.pipeline_streams "      \
    "before they are timed); a GPU whose kernel at one round per element outlasts both "           \
    "copies would lower the ceiling: none is known among the supported ones, not yet shown"

static const wb_perf perf_pipeline = {
    .metric = "pipeline",
    .limit = 1.4,
    .baseline = "the serial copies",
    .size = "n = 2^24 elements or more, 32 chunks, 4 streams, kernel = copy in + copy out",
    .derivation = PIPE_DERIVATION,
    .figures = "H100 80GB HBM3 (2026-11-26, one run of each set): reference 1.91x (5.301 ms vs "
               "10.145 ms; copy in 2.64 + kernel 5.11 + copy out 2.50 ms, 3 copy engines: at best "
               "2.01x); the stub 1.00x",
    .advice = "the copies and the kernels still take turns: cut the work into chunks, queue each "
              "chunk's copy in, kernel and copy out on one stream, and the chunks round robin "
              "on the streams given, without waiting (" README_PIPE ")",
    .open = pipe_perf_open,
    .poison = pipe_perf_poison,
    .check = pipe_perf_check,
    .describe = pipe_perf_describe,
    .close = pipe_perf_close,
};

/* ------------------------------------------------------------- questions */

/* The break-even point on this GPU, from the grader's own sweep and empty
 * launches; the answer must be within a factor LO_Q_FACTOR of it. */
static void test_q_my_break_even(wb_ctx *ctx) {
    const char *v = wb_answer(ctx, "my_break_even_cycles");
    double got;
    wb_measured(ctx, "my_break_even_cycles = %s", v);
    if (wb_answer_number(v, &got) != 0)
        wb_fail(ctx, "my_break_even_cycles = %s is not a number (README.md, \"Questions\")", v);
    require_quiet_gpu(ctx);
    point runs[LO_SWEEP_REPS][SWEEP_POINTS], p[SWEEP_POINTS];
    double e[LO_SWEEP_REPS];
    for (int r = 0; r < LO_SWEEP_REPS; r++) {
        WB_CUDA(ctx, lo_sweep(sweep_cycles, SWEEP_POINTS, LO_SWEEP_LAUNCHES, 0, runs[r]));
        e[r] = grader_async(ctx);
    }
    for (int i = 0; i < SWEEP_POINTS; i++) {
        double v3[LO_SWEEP_REPS];
        for (int r = 0; r < LO_SWEEP_REPS; r++)
            v3[r] = runs[r][i].async_us;
        p[i].cycles = sweep_cycles[i];
        p[i].async_us = wb_median(v3, LO_SWEEP_REPS);
        p[i].sync_us = 0;
    }
    double empty = wb_median(e, LO_SWEEP_REPS), want = ref_break_even(p, SWEEP_POINTS, empty);
    wb_record(ctx, "break_even_cycles", got, "cycles", want, "in");
    if (want < 0)
        wb_fail(ctx,
                "the grader's own sweep never reached twice an empty launch (%.2f us) by %lld "
                "cycles on this GPU, so it cannot check the answer; is another program using "
                "the GPU or the CPU?",
                2 * empty, sweep_cycles[SWEEP_POINTS - 1]);
    wb_measured(ctx, "my_break_even_cycles = %s; the grader measured %.0f cycles", v, want);
    if (!(got >= want / LO_Q_FACTOR && got <= want * LO_Q_FACTOR)) {
        wb_rerun_if_shared(ctx,
                           "my_break_even_cycles = %s, the grader measured %.0f cycles (need "
                           "within a factor %.2f)",
                           v, want, LO_Q_FACTOR);
        wb_fail(ctx,
                "my_break_even_cycles = %s, the grader measured %.0f cycles just now (empty "
                "launch %.2f us, threshold %.2f us); need within a factor %.1f: read it from "
                "your sweep (%s)",
                v, want, empty, 2 * empty, LO_Q_FACTOR, README_BREAK);
    }
}

/* ----------------------------------------------------------- the suite */

static const wb_test tests[] = {
    WB_GPU("measure.empty_async", 10, test_empty_async, .timeout_s = 120, .hint = README_HOST,
           .limit = {.text = "20,000 launches, 5 runs alternating with the grader's own: your "
                             "median within 30 % of the grader's median; in every call at least "
                             "20,000 launches seen, a wait for the GPU after the last launch and "
                             "the clock's last reading after it (counted); launches < 1 and NULL "
                             "refused",
                     .derivation = "yours and the grader's measure the same launches in the "
                                   "same process, taking turns, so host and GPU cancel and a "
                                   "right figure differs only by noise (within 10 % on the H100 "
                                   "and H200) and a missing one is 0, while a synchronisation "
                                   "inside the loop adds a round trip to the GPU to every launch, "
                                   "several microseconds over PCIe on any host against a launch "
                                   "cost of a few (2.33x on the H100); a missing wait after the "
                                   "loop, or one after the clock's second reading, moves the "
                                   "figure by a kernel or two in 20,000, inside any band, so the "
                                   "launches, the calls that wait and the clock's readings are "
                                   "counted in order instead, which is exact on any GPU",
                     .figures = "H100 (2026-11-22, CUDA 13.0): reference 0.90-1.05 of the "
                                "grader's figure in 11 runs (the grader 3.74-4.72 us); a "
                                "synchronisation inside the loop 9.31 against 3.99 us (2.33); "
                                "stub reports 0. H200 (2026-11-22): reference 1.00 in 2 runs "
                                "(the grader 3.33-4.27 us); stub reports 0"}),
    WB_GPU("measure.empty_sync", 8, test_empty_sync, .timeout_s = 120, .hint = README_SYNC,
           .limit = {.text = "10,000 launches, 5 runs alternating with the grader's own: your "
                             "median within 30 % of the grader's median; in every call at least "
                             "10,000 launches seen, a wait for the GPU after every timed launch "
                             "and the clock's last reading after the last (counted); launches < 1 "
                             "and NULL refused",
                     .derivation = "yours and the grader's measure the same launches in the "
                                   "same process, taking turns, so host and GPU cancel and a "
                                   "right figure differs only by noise (within 10 % on the H100 "
                                   "and H200) and a missing one is 0, while a loop that does not "
                                   "wait after every launch saves a round trip to the GPU per "
                                   "launch, several microseconds over PCIe on any host (1.9 to "
                                   "2.7x on the H100 and H200); the last launch left without its "
                                   "wait, or waited for after the clock's reading, is one in "
                                   "10,000, so the launches, the calls that wait and the clock's "
                                   "readings are counted in order",
                     .figures = "H100 (2026-11-22, CUDA 13.0): reference 0.97-1.03 of the "
                                "grader's figure in 12 runs (the grader 9.24-10.55 us); stub "
                                "reports 0. H200 (2026-11-22): reference 1.00 in 2 runs (the "
                                "grader 8.32-9.55 us); stub reports 0"}),
    WB_GPU("measure.sweep", 12, test_sweep, .timeout_s = 240, .hint = README_WAIT,
           .limit = {.text = "20 points from 0 to 128,000 cycles, 500 launches each way, 3 "
                             "sweeps alternating with the grader's: every point's median within "
                             "30 % of the grader's, both ways (taken again, twice at most, where "
                             "a point is off); at 128,000 cycles neither time below 0.9 x "
                             "128,000 / (peak SM clock); in every call at least 2 x 20 x 500 "
                             "launches seen, a wait for the GPU after each asynchronous loop and "
                             "after every launch of each synchronised loop, and the clock's last "
                             "reading after the wait for the last launch (counted)",
                     .derivation = "the 30 % band is that of the empty launches, with the knee "
                                   "measured again, and the floor is 0.9 x the busy-wait at the "
                                   "SM clock the runtime reports, which a kernel that does not "
                                   "wait or a clock read before the GPU finished misses by a "
                                   "factor on any GPU, while a right sweep clears it wherever the "
                                   "SMs run no faster than that clock (data-centre parts) and "
                                   "only by the gap between kernels on GeForce cards that boost "
                                   "12 % above it (an RTX 4090 at 2,820 MHz), not shown beyond; "
                                   "the launches, the calls that wait and the last loop's clock "
                                   "reading are counted in order, as for the empty launches",
                     .figures = "H100 (2026-11-22, CUDA 13.0): reference within 30 % at every "
                                "point in 9 of 10 runs (the tenth: 4.99 against 3.77 us at "
                                "4,000 cycles); against the floor of 58.2 us a kernel that does "
                                "not wait took 9.1 us and a clock read before the GPU finished "
                                "5.1 us; stub reports 0. H200 (2026-11-22): reference within "
                                "30 % at every point in both runs; stub reports 0"}),
    WB_HOST("correct.break_even", 6, test_break_even, .timeout_s = 60,
            .hint = "the first point at or above 2 x the empty launch, and a straight line from "
                    "the point before it (" README_BREAK ")"),
    WB_GPU("correct.chain", 8, test_chain, .timeout_s = 120, .hint = README_CHAIN),
    WB_GPU("correct.chain_stream", 4, test_chain_stream, .timeout_s = 60,
           .hint = "every kernel, or the graph, goes on the stream argument (" README_GRAPH ")"),
    WB_SANITIZER_OF("sanitizer.chain", 3, "memcheck", "correct.chain"),
    WB_PERF("perf.chain", 15, perf_chain, .timeout_s = 240,
            .requires = "correct.chain correct.chain_stream", .hint = README_GRAPH),
    WB_GPU("correct.pipeline", 6, test_pipeline, .timeout_s = 180, .hint = README_PIPE),
    WB_GPU("correct.pipeline_streams", 4, test_pipeline_streams, .timeout_s = 60,
           .hint = "queue every copy and kernel on the streams given, and return without waiting "
                   "(" README_FREE ")"),
    WB_SANITIZER_OF("sanitizer.pipeline", 2, "memcheck", "correct.pipeline"),
    WB_PERF("perf.pipeline", 10, perf_pipeline, .timeout_s = 300,
            .requires = "correct.pipeline correct.pipeline_streams", .hint = README_PIPE),
    /* The untimed bodies again, the library built for AddressSanitizer (the measure tests make
     * one call there and compare no figure): a warm-up lap's time stored below an array of
     * laps (lap[r - 1] at r = 0), or a write one past an array the host code allocates, lands
     * in the frame's padding or the allocator's slack and changes no figure; compute-sanitizer
     * sees device code only. */
    WB_ASAN_OF("sanitizer.host", 2,
               "measure.empty_async measure.empty_sync measure.sweep correct.break_even "
               "correct.chain correct.chain_stream correct.pipeline correct.pipeline_streams",
               .needs_gpu = 1),
    /* Measured on this GPU while grading: the form's 20 s are too short. */
    {.id = "question.my_break_even_cycles",
     .kind = WB_QUESTION,
     .points = 3,
     .needs_gpu = 1,
     .timeout_s = 120,
     .fn = test_q_my_break_even,
     .hint = "README.md, \"Questions\""},
    WB_QUESTION_HASH("break_even_cycles_example", 2, 0x900fd40234a4a315ULL,
                     "busy-wait cycles for a launch to take twice an empty one of 2.5 us at "
                     "1,980 MHz, with no gap between kernels"),
    WB_QUESTION_HASH("sync_each_measures", 1, 0x65a7349f6ef43457ULL,
                     "the letter of what the loop with a synchronisation after every launch "
                     "measures"),
    WB_QUESTION_HASH("sync_after_loop", 1, 0xfff87095ded95182ULL,
                     "the letter of why the asynchronous loop ends with one synchronisation"),
    WB_QUESTION_HASH("graph_changes", 1, 0x884146b7532f1cacULL,
                     "the letter of what launching the chain as one CUDA graph changes"),
    WB_QUESTION_HASH("speedup_async_trial", 1, 0x365da5e1ff515daeULL,
                     "the H200 trial's speedup of dropping the synchronisation alone, to one "
                     "decimal"),
    WB_QUESTION_HASH("speedup_graph_trial", 1, 0x7cd3847857388ca6ULL,
                     "the H200 trial's speedup of a graph, to a whole number"),
    WB_QUESTION_HASH("pipeline_one_engine", 1, 0x355e13cac3515917ULL,
                     "the best speedup of the pipelined stages of 3, 4 and 2 ms with one copy "
                     "engine, to one decimal"),
    WB_QUESTION_HASH("pageable_copy", 1, 0x171748163e2353f6ULL,
                     "the letter of what copying through malloc'd memory changes"),
};

WB_LAB_MAIN(tests)
