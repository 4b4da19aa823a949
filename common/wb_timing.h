/* wb_timing.h - time device work with CUDA events: warm-up, interleaving, medians */
/* SPDX-License-Identifier: MIT */
#ifndef WB_TIMING_H
#define WB_TIMING_H

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues one run of the work on stream (a cudaStream_t); returns a
 * cudaError_t value as int (0 on success). */
typedef int (*wb_work_fn)(void *arg, void *stream);

typedef struct wb_time_opts {
    int warmup;           /* untimed runs of each side first */
    int min_trials;       /* pairs timed before the spread is looked at */
    int max_trials;       /* cap on timed pairs */
    double max_seconds;   /* cap on wall time spent timing */
    double target_spread; /* stop once the ratio's IQR/median is below this */
    /* Spot checks of timed calls: before the candidate's c-th timed call
     * (from 0), spot_pick(spot_arg, c) says whether its output is checked;
     * if so spot_before(spot_arg) runs first (poisons the output; the
     * stream is idle, outside the events) and spot_after(spot_arg) once it
     * has ended. None of them is timed. When timing ends with no call
     * checked, one more timed call is made and checked. A nonzero return
     * of before or after ends the timing with it. NULL spot_pick: none. */
    int (*spot_pick)(void *spot_arg, int c);
    int (*spot_before)(void *spot_arg);
    int (*spot_after)(void *spot_arg);
    void *spot_arg;
} wb_time_opts;

typedef struct wb_ratio {
    double ratio; /* median over pairs of baseline time / candidate time */
    double ratio_min, ratio_max;
    double spread;           /* IQR / median of the per-pair ratios */
    double base_ms, cand_ms; /* medians */
    int trials;
    int remeasured;   /* extra rounds wb_time_speedup ran because the first was within noise */
    int inconclusive; /* wb_time_speedup: short of the limit, but too noisy to call
                         (wb_inconclusive) */
} wb_ratio;

/* Defaults: 3 warm-up runs, 15 to 201 pairs, 10 s, 3 % spread, no spot
 * check. Before every timing the persisting-L2 carve-out is set to 0 and
 * its lines reset, so no access-policy window set earlier favours either
 * side. Whatever
 * the time cap, at least WB_MIN_PAIRS pairs (or max_trials, if fewer) are
 * timed, so a ratio is never the median of nothing. */
#define WB_MIN_PAIRS 3
wb_time_opts wb_time_defaults(void);

/* Times baseline and candidate alternately (A B A B ...) on one stream with
 * CUDA events, adding pairs until the spread of their ratio is under the
 * target or a cap is reached. Returns a cudaError_t value (0 on success);
 * the work functions' errors are passed through. */
int wb_time_ratio(wb_work_fn base, void *base_arg, wb_work_fn cand, void *cand_arg,
                  const wb_time_opts *o, wb_ratio *out);
/* Like wb_time_ratio, for a speedup checked against limit. It stops adding
 * pairs as soon as the verdict is plain (wb_clear_of_limit), even when the
 * spread is above the target: a 9x speedup against a 4x limit needs no 200
 * pairs to be called a pass, nor a 1.0x to be called a miss. When the result
 * falls short of the limit by no more than the noise band (see
 * wb_within_noise), it measures again, up to twice, with twice the trials,
 * and reports the last round; out->remeasured counts the extra rounds. A
 * result within the noise is re-measured before it fails. */
int wb_time_speedup(wb_work_fn base, void *base_arg, wb_work_fn cand, void *cand_arg, double limit,
                    const wb_time_opts *o, wb_ratio *out);
/* 1 when ratio misses limit by no more than the noise band: 5 % of the
 * limit, or twice the measured relative spread when that is larger. Pure
 * arithmetic; unit-tested without a GPU. */
int wb_within_noise(double ratio, double spread, double limit);
/* The rule that ends timing, given the n values (per-pair ratios, or
 * single times) so far and the seconds spent: 1 at max_trials; 1 past
 * max_seconds once at least WB_MIN_PAIRS (or max_trials, if fewer) were
 * timed; else, from min_trials on, 1 once the spread is within the target
 * or, for a speedup checked against limit (limit > 0), once the median is
 * clear of it (wb_clear_of_limit). Pure; unit-tested without a GPU. */
int wb_enough_trials(const double *r, int n, const wb_time_opts *o, double elapsed_s, double limit);
/* 1 when ratio is farther from limit than 10 % of the limit, or four times
 * the measured relative spread when that is larger: no further pair can
 * change the verdict. Pure arithmetic; unit-tested without a GPU. */
int wb_clear_of_limit(double ratio, double spread, double limit);
/* 1 when a ratio that still misses its limit after re-measuring cannot be
 * called a miss: within the noise band, and the per-pair ratios spread by
 * WB_BUSY_SPREAD or more (a GPU shared with other work, or throttling).
 * The test then says "inconclusive, rerun" instead of failing. */
#define WB_BUSY_SPREAD 0.10
int wb_inconclusive(double ratio, double spread, double limit);
/* Times one piece of work: median milliseconds and relative spread. */
int wb_time_one(wb_work_fn f, void *arg, const wb_time_opts *o, double *median_ms, double *spread);

#ifdef __cplusplus
}
#endif
#endif
