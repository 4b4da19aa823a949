/* wb_grader.h - the grader framework: graded tests on Check, one forked process per test */
/* SPDX-License-Identifier: MIT */
#ifndef WB_GRADER_H
#define WB_GRADER_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>

#include "wb_gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { WB_CORRECTNESS, WB_PERFORMANCE, WB_QUESTION, WB_SANITIZER } wb_kind;

typedef struct wb_ctx wb_ctx;
typedef void (*wb_test_fn)(wb_ctx *ctx);

/* One graded test. Runs in its own process (Check's fork mode); it passes
 * only if its body returns normally, after which the framework ends the
 * process with a status that student code cannot produce by accident. */
typedef struct wb_test {
    const char *id; /* shown to students: "correct.fields" */
    wb_kind kind;
    int points;
    int needs_gpu;         /* SKIP (never PASS) when no GPU is usable */
    int needs_student;     /* FAIL without running when the lab did not compile */
    double timeout_s;      /* scaled by CK_TIMEOUT_MULTIPLIER */
    wb_test_fn fn;         /* the body; NULL for sanitizer tests */
    const char *requires;  /* ids, space-separated, that must pass first */
    const char *tool;      /* program needed on PATH (compute-sanitizer, ncu) */
    const char *target;    /* sanitizer tests: id of the test run under the tool */
    const char *sanitizer; /* sanitizer tests: memcheck, racecheck, synccheck, initcheck */
    const char *hint;      /* shown under a failure */
} wb_test;

typedef struct wb_lab {
    const char *name;   /* "00-device-query" */
    const char *source; /* the student's file: "device_query.cu" */
    const char *salt;   /* salt of the stored answer hashes */
    const wb_test *tests;
    int n_tests;
} wb_lab;

/* Builds the Check suite for a lab; call from `Suite *topic_suite(void)`. */
Suite *wb_build_suite(const wb_lab *lab);
/* The grader's main: options, GPU probe, the run, reports, exit status
 * (0 only on full marks). */
int wb_grader_main(int argc, char **argv, Suite *(*make_suite)(void));

/* ---- inside a test body ---- */

/* Ends the test as failed, with a reason that says what was expected, what
 * was measured and where to look. Never returns. */
void wb_fail(wb_ctx *ctx, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
/* Ends a test worth 0 points as SKIP, with the reason (a tool that cannot
 * read counters here, say). A test worth points cannot skip itself: it
 * fails instead, so code under test can never turn lost points into
 * ungraded ones. Never returns. */
void wb_skip(wb_ctx *ctx, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
/* Ends a timed test as RERUN: no points, with the reason and "grade again
 * on an idle GPU". Only for a measurement that cannot be called: too noisy
 * either way, or taken while other processes ran on the GPU. A clear miss
 * on an idle GPU is never turned into RERUN. Never returns. */
void wb_rerun(wb_ctx *ctx, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
/* Call where a speedup measured with wb_time_speedup misses its limit,
 * before failing: when r->inconclusive (short of the limit by no more than
 * the noise, with the per-pair ratios spread 10 % or more) it ends the
 * test as RERUN with the figures; otherwise it returns. */
struct wb_ratio;
void wb_rerun_if_inconclusive(wb_ctx *ctx, const struct wb_ratio *r, double limit);
/* How many other processes used a GPU when grading began (nvidia-smi's
 * compute processes; 0 when it lists none or is missing); *first, when
 * first is not NULL, gets the first as "pid, name". */
int wb_gpu_others(const char **first);
/* Call where a measurement of the student's is about to fail only for
 * disagreeing with the grader's own measurement of the same quantity, taken
 * at another moment (a bandwidth, a throughput, a launch cost): when other
 * processes use the GPU, it ends the test as RERUN instead, saying what
 * disagreed (fmt, printf-style); otherwise it returns. Never for a result
 * that is wrong whatever the load (a wrong value, a missing launch). */
void wb_rerun_if_shared(wb_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Folder for files a test writes for the student (timelines, tables):
 * build/report/<set>/<lab>/, created before the run. */
const char *wb_out_dir(wb_ctx *ctx);
/* Finds a toolkit program (ncu, cuobjdump, compute-sanitizer) on PATH, else
 * in $CUDA_PATH/bin or /usr/local/cuda/bin; stores its path in out. Returns
 * 1 when found, 0 otherwise (out is then ""). */
int wb_find_tool(const char *prog, char *out, size_t cap);
/* Fails with the error's name when err (a cudaError_t) is not success. */
void wb_cuda(wb_ctx *ctx, int err, const char *what);
/* The line shown after the points: "speedup 1.8x over baseline, need >= 1.5x". */
void wb_measured(wb_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A hint shown under a failure, replacing the test's default hint. */
void wb_hint(wb_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One row of the measurements CSV: metric, value, unit, limit, comparison ("ge", "le", "in"). */
void wb_record(wb_ctx *ctx, const char *metric, double value, const char *unit, double limit,
               const char *cmp);
/* A symbol of the student's code, loaded in this process only; fails the
 * test with a clear reason when the library or the symbol is missing. */
void *wb_student_sym(wb_ctx *ctx, const char *name);
/* The student's answer for key; fails the test when answers.txt cannot be
 * parsed or the key is missing or blank. */
const char *wb_answer(wb_ctx *ctx, const char *key);
/* The salt for this lab's answer hashes. */
const char *wb_salt(wb_ctx *ctx);
/* Seed of this test: derived from the run's seed (printed; SEED=n repeats it). */
uint64_t wb_seed(wb_ctx *ctx);
/* The GPU being graded on (only in tests with needs_gpu). */
const wb_gpu *wb_ctx_gpu(wb_ctx *ctx);

/* Question helpers. The first checks the answer against a salted hash
 * (wb_answer_hash, printed by `build/tools/wb-hash`); the second against a
 * number the grader computed, within a relative tolerance. what says what
 * was asked, for the failure message. */
void wb_question_hash(wb_ctx *ctx, const char *key, uint64_t expected, const char *what);
/* Defines the test function fn of a question answered by a stored hash:
 * WB_HASH_QUESTION(test_q_x, "key", 0x...ULL, "what is asked") */
#define WB_HASH_QUESTION(fn, key, hash, what)                                                      \
    static void fn(wb_ctx *ctx) {                                                                  \
        wb_question_hash(ctx, key, hash, what);                                                    \
    }
void wb_question_number(wb_ctx *ctx, const char *key, double expected, double rel_tol,
                        const char *what);

#define WB_BIND(ctx, var, sym) ((var) = (__typeof__(var))wb_student_sym((ctx), #sym))

#ifdef __cplusplus
}
#endif
#endif
