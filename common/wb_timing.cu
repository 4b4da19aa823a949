/* wb_timing.cu - time device work with CUDA events: warm-up, interleaving, medians */
/* SPDX-License-Identifier: MIT */
#include "wb_timing.h"
#include "wb_stats.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

extern "C" wb_time_opts wb_time_defaults(void) {
    wb_time_opts o = {3, 15, 201, 10.0, 0.03, NULL, NULL, NULL, NULL};
    return o;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs f once between two events and returns its time in ms (or -1 on error). */
static cudaError_t time_once(wb_work_fn f, void *arg, cudaStream_t s, cudaEvent_t a, cudaEvent_t b,
                             double *ms) {
    cudaError_t e;
    float t = 0;
    if ((e = cudaEventRecord(a, s)) != cudaSuccess)
        return e;
    if ((e = (cudaError_t)f(arg, s)) != cudaSuccess)
        return e;
    if ((e = cudaEventRecord(b, s)) != cudaSuccess || (e = cudaEventSynchronize(b)) != cudaSuccess)
        return e;
    if ((e = cudaGetLastError()) != cudaSuccess ||
        (e = cudaEventElapsedTime(&t, a, b)) != cudaSuccess)
        return e;
    *ms = t;
    return cudaSuccess;
}

struct timer {
    cudaStream_t s;
    cudaEvent_t a, b;
};

/* No lines parked in a persisting-L2 carve-out, and no carve-out: a limit
 * of 0 first (resetting alone does not evict a carve-out's lines), then the
 * reset. GPUs without persistence refuse both; that error is cleared. */
static void reset_persisting_l2(void) {
    if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0) == cudaSuccess)
        cudaCtxResetPersistingL2Cache();
    cudaGetLastError();
}

static cudaError_t timer_open(struct timer *t) {
    reset_persisting_l2();
    cudaError_t e = cudaStreamCreateWithFlags(&t->s, cudaStreamNonBlocking);
    if (e == cudaSuccess)
        e = cudaEventCreate(&t->a);
    if (e == cudaSuccess)
        e = cudaEventCreate(&t->b);
    return e;
}

static void timer_close(struct timer *t) {
    cudaEventDestroy(t->a);
    cudaEventDestroy(t->b);
    cudaStreamDestroy(t->s);
}

extern "C" int wb_enough_trials(const double *r, int n, const wb_time_opts *o, double elapsed_s,
                                double limit) {
    /* Never a median of nothing: a few pairs even past the time cap (a GPU
     * so busy that one pair takes seconds is caught by the test's timeout). */
    int least = o->max_trials < WB_MIN_PAIRS ? o->max_trials : WB_MIN_PAIRS;
    if (n >= o->max_trials || (n >= least && elapsed_s > o->max_seconds))
        return 1;
    if (n < o->min_trials)
        return 0;
    double spread = wb_rel_spread(r, (size_t)n);
    return spread <= o->target_spread ||
           (limit > 0 && wb_clear_of_limit(wb_median(r, (size_t)n), spread, limit));
}

static int enough(const double *r, int n, const wb_time_opts *o, double t0, double limit) {
    return wb_enough_trials(r, n, o, now_s() - t0, limit);
}

/* Times the candidate's c-th timed call, with the spot check around it
 * when it is picked (force: picked whatever spot_pick says); counts the
 * checked calls in *checked. */
static cudaError_t time_cand(wb_work_fn cand, void *arg, const wb_time_opts *o, int c, int force,
                             struct timer *t, double *ms, int *checked) {
    int spot = o->spot_pick && (force || o->spot_pick(o->spot_arg, c));
    *checked += spot;
    cudaError_t e = cudaSuccess;
    if (spot && o->spot_before)
        e = (cudaError_t)o->spot_before(o->spot_arg);
    if (e == cudaSuccess)
        e = time_once(cand, arg, t->s, t->a, t->b, ms);
    if (e == cudaSuccess && spot && o->spot_after)
        e = (cudaError_t)o->spot_after(o->spot_arg);
    return e;
}

static int time_ratio(wb_work_fn base, void *base_arg, wb_work_fn cand, void *cand_arg,
                      const wb_time_opts *o, double limit, wb_ratio *out) {
    struct timer t;
    cudaError_t e = timer_open(&t);
    double *tb = (double *)calloc((size_t)o->max_trials, sizeof *tb);
    double *tc = (double *)calloc((size_t)o->max_trials, sizeof *tc);
    double *r = (double *)calloc((size_t)o->max_trials, sizeof *r);
    double dummy, t0 = now_s();
    int n = 0, checked = 0;
    if (!tb || !tc || !r)
        e = cudaErrorMemoryAllocation;
    for (int i = 0; e == cudaSuccess && i < o->warmup; i++) {
        e = time_once(base, base_arg, t.s, t.a, t.b, &dummy);
        if (e == cudaSuccess)
            e = time_once(cand, cand_arg, t.s, t.a, t.b, &dummy);
    }
    while (e == cudaSuccess && !enough(r, n, o, t0, limit)) {
        /* Alternate which side goes first, so neither always follows the other. */
        if (n % 2 == 0) {
            e = time_once(base, base_arg, t.s, t.a, t.b, &tb[n]);
            if (e == cudaSuccess)
                e = time_cand(cand, cand_arg, o, n, 0, &t, &tc[n], &checked);
        } else {
            e = time_cand(cand, cand_arg, o, n, 0, &t, &tc[n], &checked);
            if (e == cudaSuccess)
                e = time_once(base, base_arg, t.s, t.a, t.b, &tb[n]);
        }
        if (e == cudaSuccess) {
            r[n] = tc[n] > 0 ? tb[n] / tc[n] : 0;
            n++;
        }
    }
    /* No call was picked: one more timed call is checked. */
    if (e == cudaSuccess && o->spot_pick && checked == 0)
        e = time_cand(cand, cand_arg, o, n, 1, &t, &dummy, &checked);
    if (e == cudaSuccess) {
        out->ratio = wb_median(r, (size_t)n);
        out->ratio_min = wb_min(r, (size_t)n);
        out->ratio_max = wb_max(r, (size_t)n);
        out->spread = wb_rel_spread(r, (size_t)n);
        out->base_ms = wb_median(tb, (size_t)n);
        out->cand_ms = wb_median(tc, (size_t)n);
        out->trials = n;
        out->remeasured = 0;
    }
    free(tb);
    free(tc);
    free(r);
    timer_close(&t);
    return e;
}

extern "C" int wb_time_ratio(wb_work_fn base, void *base_arg, wb_work_fn cand, void *cand_arg,
                             const wb_time_opts *o, wb_ratio *out) {
    return time_ratio(base, base_arg, cand, cand_arg, o, 0, out);
}

extern "C" int wb_time_one(wb_work_fn f, void *arg, const wb_time_opts *o, double *median_ms,
                           double *spread) {
    struct timer t;
    cudaError_t e = timer_open(&t);
    double *v = (double *)calloc((size_t)o->max_trials, sizeof *v);
    double dummy, t0 = now_s();
    int n = 0;
    if (!v)
        e = cudaErrorMemoryAllocation;
    for (int i = 0; e == cudaSuccess && i < o->warmup; i++)
        e = time_once(f, arg, t.s, t.a, t.b, &dummy);
    while (e == cudaSuccess && !enough(v, n, o, t0, 0)) {
        e = time_once(f, arg, t.s, t.a, t.b, &v[n]);
        n += e == cudaSuccess;
    }
    if (e == cudaSuccess) {
        *median_ms = wb_median(v, (size_t)n);
        *spread = wb_rel_spread(v, (size_t)n);
    }
    free(v);
    timer_close(&t);
    return e;
}

extern "C" int wb_within_noise(double ratio, double spread, double limit) {
    double band = 2.0 * spread > 0.05 ? 2.0 * spread : 0.05;
    return ratio < limit && ratio >= limit * (1.0 - band);
}

extern "C" int wb_time_speedup(wb_work_fn base, void *base_arg, wb_work_fn cand, void *cand_arg,
                               double limit, const wb_time_opts *o, wb_ratio *out) {
    int e = time_ratio(base, base_arg, cand, cand_arg, o, limit, out);
    wb_time_opts more = *o;
    int rounds = 0;
    while (e == 0 && rounds < 2 && wb_within_noise(out->ratio, out->spread, limit)) {
        more.min_trials *= 2;
        more.max_trials *= 2;
        e = time_ratio(base, base_arg, cand, cand_arg, &more, limit, out);
        rounds++;
    }
    out->remeasured = rounds;
    out->inconclusive = e == 0 && wb_inconclusive(out->ratio, out->spread, limit);
    return e;
}

extern "C" int wb_clear_of_limit(double ratio, double spread, double limit) {
    double band = 4.0 * spread > 0.10 ? 4.0 * spread : 0.10;
    return fabs(ratio - limit) > band * limit;
}

extern "C" int wb_inconclusive(double ratio, double spread, double limit) {
    return ratio < limit && spread >= WB_BUSY_SPREAD && wb_within_noise(ratio, spread, limit);
}
