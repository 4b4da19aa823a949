/* wb_grader.h - the grader kit: how a lab declares its tests, and what a test body may call */
/* SPDX-License-Identifier: MIT */
#ifndef WB_GRADER_H
#define WB_GRADER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "wb_gpu.h"
#include "wb_timing.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { WB_CORRECTNESS, WB_PERFORMANCE, WB_QUESTION, WB_SANITIZER } wb_kind;

typedef struct wb_ctx wb_ctx;
typedef void (*wb_test_fn)(wb_ctx *ctx);

/* A graded limit in words, kept with its test: what is compared, why the
 * limit holds on every GPU the workbook supports, and the figures measured
 * that it rests on. `grade --limits` prints them; the kit refuses to start
 * when a graded measurement has no derivation. */
typedef struct wb_limit {
    const char *text;       /* "measured FMA rate 50%..120% of your peak FP32" */
    const char *derivation; /* one sentence: why the reference clears it and the stub misses it */
    const char *figures;    /* the measurements it rests on, with GPU and date */
} wb_limit;

/* A question of answers.txt whose answer is stored as a salted hash
 * (build/tools/wb-hash prints it). canon, when set, normalises the answer
 * before hashing (into buf; returns buf, or NULL with a reason in buf when
 * the answer has the wrong form). */
typedef struct wb_question {
    const char *key;  /* the line of answers.txt: "warps_76x62" */
    uint64_t hash;    /* wb_answer_hash(salt, key, normalised answer) */
    const char *what; /* what is asked, in the failure message */
    const char *(*canon)(const char *answer, char *buf, size_t cap);
} wb_question;

/* ---- a declared performance check (run by the kit: see wb_perf_test) */

/* What a performance check's open() sets up: the two pieces of work the
 * kit times against each other, and the argument all hooks receive. */
typedef struct wb_perf_run {
    wb_work_fn baseline, candidate; /* enqueue one run on the stream given */
    void *arg;                      /* passed to both and to every hook */
    double floor_ms;                /* no correct run can be faster; 0: no floor */
    const char *floor_why;          /* "the GPU's peak FP32 rate allows for this work" */
    double floor_share;             /* fail below floor_share x floor_ms; 0: 0.9 */
    double limit;                   /* the limit on this GPU, where it depends on the GPU; 0: the spec's */
    const char *floor_advice;       /* NULL: "every element must be computed by the launch ..." */
    wb_time_opts opts;              /* wb_time_defaults() unless open() changes it */
} wb_perf_run;

/* A speedup check: the candidate, timed against a baseline owned by the
 * grader in the same process on the same GPU, must be at least `limit`
 * times faster. The kit times both (interleaved, CUDA events, re-measured
 * when within the noise), then runs the candidate once more on the timing
 * stream, on a poisoned output, and checks that output: the checked output
 * is the output of a timed call, and a checked call much slower than the
 * timed ones fails. Then it checks the floor, records the figures, prints
 * the measured line, says RERUN when the miss is within the noise of a busy
 * GPU, and fails NaN-safely. Clocks and throttle reasons are read around
 * the timing (NVML, when present): a result near the limit timed while the
 * GPU throttled is timed again, and a miss throttled again is RERUN with
 * NVML's words (wb_clocks.h). */
typedef struct wb_perf {
    const char *metric;     /* measurements.csv stem: "run" -> run_speedup, run_baseline_ms */
    double limit;           /* the least speedup that passes */
    const char *baseline;   /* what the speedup is over: "the divergent baseline" */
    const char *size;       /* the problem timed, for messages: "n = 2^24" */
    const char *derivation; /* why the limit holds on every supported GPU (one sentence) */
    const char *figures;    /* the reference's and the stub's speedups measured, GPU and date */
    const char *advice;     /* the failure's advice: what to change, where to read */
    void (*open)(wb_ctx *ctx, wb_perf_run *run);    /* inputs, outputs, the student's symbol */
    void (*poison)(wb_ctx *ctx, void *arg);         /* the output, before the checked run */
    void (*check)(wb_ctx *ctx, void *arg);          /* the candidate's output of that run */
    /* Extra words for the measured line, from the timings (per unit of work, say), or NULL. */
    void (*describe)(wb_ctx *ctx, void *arg, const wb_ratio *r, char *buf, size_t cap);
    void (*close)(void *arg);                                        /* frees; may be NULL */
} wb_perf;

/* One graded test. Runs in its own process (Check's fork mode); it passes
 * only if its body returns normally, after which the kit ends the process
 * with a status that student code cannot produce by accident. Declare tests
 * with the WB_* macros below, which fill the kind and the defaults. */
typedef struct wb_test {
    const char *id; /* shown to students: "correct.fields" */
    wb_kind kind;
    int points;
    int needs_gpu;         /* SKIP (never PASS) when no GPU is usable */
    int needs_student;     /* FAIL without running when the lab did not compile */
    double timeout_s;      /* 0: 30 s; scaled by CK_TIMEOUT_MULTIPLIER */
    wb_test_fn fn;         /* the body (the kit's own for questions and performance checks) */
    const char *requires;  /* ids, space-separated, earlier in the table, that must pass first */
    const char *tool;      /* program needed on PATH (compute-sanitizer, ncu) */
    const char *target;    /* sanitizer tests: id of the test run under the tool (asan: ids,
                              space-separated) */
    const char *sanitizer; /* sanitizer tests: memcheck, racecheck, synccheck, initcheck; asan */
    const char *hint;      /* shown under a failure */
    /* Why the test cannot be graded with the GPU restricted to fewer SMs
     * (SMS=n): SKIP there, with this reason. NULL: graded restricted too. */
    const char *unrestricted;
    /* Id of an earlier test worth 0 points that never runs the student's code
     * (needs_student 0): when it ends SKIP (a tool that cannot read the GPU's
     * counters here, say), this test is SKIP too, decided by the runner from
     * that verdict alone; its body does not run. NULL: none. */
    const char *skip_with;
    const wb_question *question; /* WB_QUESTION_HASH rows */
    const wb_perf *perf;         /* WB_PERF rows */
    wb_limit limit;              /* every graded measurement: what, why, figures */
} wb_test;

/* The declaration forms. Further fields follow as designated initializers:
 *   WB_GPU("correct.run", 15, test_run, .timeout_s = 90, .hint = README_ALIGN)
 * A field the form sets cannot be given again. */
#define WB_HOST(id_, pts_, fn_, ...)                                                               \
    { .id = id_, .kind = WB_CORRECTNESS, .points = pts_, .needs_student = 1, .fn = fn_, __VA_ARGS__ }
#define WB_GPU(id_, pts_, fn_, ...)                                                                \
    {                                                                                              \
        .id = id_, .kind = WB_CORRECTNESS, .points = pts_, .needs_gpu = 1, .needs_student = 1,    \
        .fn = fn_, __VA_ARGS__                                                                     \
    }
/* A timed test with a body of its own (graded ones declare .limit). */
#define WB_MEASURE(id_, pts_, fn_, ...)                                                            \
    {                                                                                              \
        .id = id_, .kind = WB_PERFORMANCE, .points = pts_, .needs_gpu = 1, .needs_student = 1,    \
        .fn = fn_, __VA_ARGS__                                                                     \
    }
/* An informational measurement of the grader's own kernels (0 points):
 * runs even when the student's code did not build. */
#define WB_MEASURE_OWN(id_, fn_, ...)                                                              \
    { .id = id_, .kind = WB_PERFORMANCE, .points = 0, .needs_gpu = 1, .fn = fn_, __VA_ARGS__ }
/* A declared speedup check: spec_ is a wb_perf. */
#define WB_PERF(id_, pts_, spec_, ...)                                                             \
    {                                                                                              \
        .id = id_, .kind = WB_PERFORMANCE, .points = pts_, .needs_gpu = 1, .needs_student = 1,    \
        .fn = wb_perf_test, .perf = &(spec_), __VA_ARGS__                                          \
    }
/* compute-sanitizer --tool tool_ over the body of test target_. */
#define WB_SANITIZER_OF(id_, pts_, tool_, target_, ...)                                            \
    {                                                                                              \
        .id = id_, .kind = WB_SANITIZER, .points = pts_, .needs_gpu = 1, .needs_student = 1,      \
        .timeout_s = 300, .tool = "compute-sanitizer", .target = target_, .sanitizer = tool_,      \
        .requires = target_, .hint = "README.md, \"Debugging\"", __VA_ARGS__                       \
    }
/* AddressSanitizer over the host code of the student's library: the bodies of targets_
 * (correctness tests, ids space-separated; never a timed test, which ASan slows), each run
 * again in a fresh process of the grader with the library built with -fsanitize=address
 * (<library>.asan.so, beside the library) and libasan preloaded. Compute-sanitizer checks only
 * device code: this finds the host's out-of-bounds reads and writes (heap, stack, globals),
 * uses after free and double frees. Where a target needs a GPU, add .needs_gpu = 1 (the table
 * check asks for it). Without libasan, or where the address space is limited, SKIP with the
 * fix, unrun. */
#define WB_ASAN_OF(id_, pts_, targets_, ...)                                                       \
    {                                                                                              \
        .id = id_, .kind = WB_SANITIZER, .points = pts_, .needs_student = 1, .timeout_s = 300,    \
        .target = targets_, .sanitizer = "asan", .requires = targets_,                            \
        .hint = "README.md, \"Debugging\"", __VA_ARGS__                                           \
    }
/* A question answered by a stored hash: the test is "question.<key>". */
#define WB_QUESTION_HASH(key_, pts_, hash_, what_, ...)                                            \
    WB_QUESTION_HASH_ID("question." key_, key_, pts_, hash_, what_, __VA_ARGS__)
#define WB_QUESTION_HASH_ID(id_, key_, pts_, hash_, what_, ...)                                    \
    {                                                                                              \
        .id = id_, .kind = WB_QUESTION, .points = pts_, .timeout_s = 20, .fn = wb_question_test,  \
        .hint = "README.md, \"Questions\"",                                                        \
        .question = &(const wb_question){.key = key_, .hash = hash_, .what = what_, __VA_ARGS__}  \
    }
/* A question whose answer the grader computes (from the GPU, say) in fn_. */
#define WB_QUESTION_FN(id_, pts_, fn_, ...)                                                        \
    {                                                                                              \
        .id = id_, .kind = WB_QUESTION, .points = pts_, .timeout_s = 20, .fn = fn_,               \
        .hint = "README.md, \"Questions\"", __VA_ARGS__                                            \
    }

typedef struct wb_lab {
    const char *name;   /* "00-device-query" (WB_LAB_NAME, from the build) */
    const char *source; /* the student's file: "device_query.cu" (WB_LAB_SOURCE) */
    const char *salt;   /* salt of the stored answer hashes */
    const wb_test *tests;
    int n_tests;
} wb_lab;

/* The grader's main: environment, options, table check, GPU probe, the
 * run, reports, exit status (0 only on full marks, 1 otherwise, 2 for a
 * usage error or a table the kit refuses). */
int wb_grader_main(int argc, char **argv, const wb_lab *lab);

/* A suite's whole main: its table is `tests`; the lab's name and source come
 * from the build (-DWB_LAB_NAME=\"03-divergence\" -DWB_LAB_SOURCE=\"divergence.cu\"). */
#define WB_LAB_MAIN(tests_)                                                                        \
    static const wb_lab wb_this_lab_ = {WB_LAB_NAME, WB_LAB_SOURCE, WB_LAB_NAME "/v1", tests_,    \
                                        (int)(sizeof tests_ / sizeof tests_[0])};                 \
    int main(int argc, char **argv) {                                                              \
        return wb_grader_main(argc, argv, &wb_this_lab_);                                          \
    }

/* Checks a table before any test runs: ids unique and well-formed, every
 * `requires` id an earlier test, points where a test is graded, a limit's
 * derivation for every graded measurement, complete question and
 * performance rows. Returns the number of problems; each is written to err
 * (one line each) naming the row. */
int wb_lab_validate(const wb_lab *lab, char *err, size_t cap);

/* ---- the kit's own test bodies (named by the macros above) */
void wb_question_test(wb_ctx *ctx);
void wb_perf_test(wb_ctx *ctx);

/* ---- inside a test body ---- */

/* Ends the test as failed, with a reason that says what was expected, what
 * was measured and where to look. Never returns. */
void wb_fail(wb_ctx *ctx, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
/* Ends a test worth 0 points as SKIP, with the reason (a tool that cannot
 * read counters here, say). A test worth points cannot skip itself: it
 * fails instead, so code under test can never turn lost points into
 * ungraded ones (the runner skips it where its .skip_with test skipped).
 * Never returns. */
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
void wb_rerun_if_inconclusive(wb_ctx *ctx, const wb_ratio *r, double limit);
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
/* Folder for files a test writes for the student (timelines, tables): the
 * test's scratch folder; once the test is over, the grader copies its plain
 * files into build/report/<set>/<lab>/. */
const char *wb_out_dir(wb_ctx *ctx);
/* Finds a toolkit program (ncu, cuobjdump, compute-sanitizer) on PATH, else
 * in $CUDA_PATH/bin or /usr/local/cuda/bin; stores its path in out. Returns
 * 1 when found, 0 otherwise (out is then ""). */
int wb_find_tool(const char *prog, char *out, size_t cap);
/* Writes `cuobjdump -sass` of the library that defines the student's symbol
 * to <scratch>/<name> (its path in log) and returns cuobjdump's exit status
 * (-1 when it did not run); fails the test when the library or cuobjdump
 * cannot be found. lib (may be NULL) receives the library's path. */
int wb_dump_sass(wb_ctx *ctx, const char *symbol, const char *name, char *log, size_t cap,
                 const char **lib);
/* Runs this test's body again in a fresh process of this grader, under a
 * tool: argv_tool (NULL-terminated: the tool and its options) then the
 * grader with the run's options and --run-body <id>, with extra_env
 * ("NAME=value" or NULL) set; output to log. Returns the exit status, or
 * -1 when it could not start. The body sees wb_under_tool() true there. */
int wb_run_self_under(wb_ctx *ctx, const char *const *argv_tool, const char *extra_env,
                      const char *log);
/* 1 inside a body that runs under --run-body (a tool's child process). */
int wb_under_tool(wb_ctx *ctx);
/* What ncu's --csv output in a log holds for one metric. */
typedef struct wb_ncu_reading {
    double value;        /* of the first kernel matched */
    int found;           /* 1 when a kernel matched and its value is a number */
    int no_permission;   /* ncu said ERR_NVGPUCTRPERM: the counters are closed */
    char kernel[160];    /* the matched kernel's name, as ncu prints it */
    char error[200];     /* ncu's first ==ERROR== line, but for the grader's own exit status */
} wb_ncu_reading;
/* Reads metric from an ncu --csv log: the first kernel whose name holds
 * has (any when NULL) and does not hold lacks (none when NULL). */
void wb_ncu_read(const char *log, const char *metric, const char *has, const char *lacks,
                 wb_ncu_reading *r);
/* One launch's readings of a family of metrics: every metric whose name
 * starts with prefix and ends with suffix, as `--metrics regex:...` has ncu
 * collect them. Which members a family has differs between GPUs (a stall
 * reason of one compute capability is missing on another), so a family is
 * read, never listed by hand. */
#define WB_NCU_FAMILY_MAX 48
typedef struct wb_ncu_family {
    int n;                       /* members read (a value of "n/a" is no reading) */
    char kernel[160];            /* the launch's kernel, as ncu prints it; "" when none matched */
    char prefix[64], suffix[64]; /* what the names were read with */
    struct {
        char name[64]; /* the part between prefix and suffix: "long_scoreboard" */
        double value;
    } m[WB_NCU_FAMILY_MAX];
} wb_ncu_family;
/* Reads, from an ncu --csv log, the family prefix...suffix of the first
 * launch (ncu's ID) of the first kernel whose name holds has (any when
 * NULL) and not lacks (none when NULL). Returns f->n: 0 when no kernel
 * matched or it has no member; members past WB_NCU_FAMILY_MAX are dropped. */
int wb_ncu_read_family(const char *log, const char *prefix, const char *suffix, const char *has,
                       const char *lacks, wb_ncu_family *f);
/* The index in f of the member answer names, or -1. The spelling is free:
 * case, spaces, underscores and punctuation do not count, and the member
 * may be written as its whole metric name (prefix and suffix included) or
 * as ncu's sections label it ("Stall Long Scoreboard" for long_scoreboard,
 * "Stall Dispatch" for dispatch_stall). */
int wb_ncu_family_find(const wb_ncu_family *f, const char *answer);
/* Whether answer names member (of family f), with the spelling above. */
int wb_ncu_names(const wb_ncu_family *f, const char *answer, const char *member);

/* A member of a family that is no answer to a "which is largest" question,
 * and why (ncu's "selected" among the stall reasons: the issue itself). */
typedef struct wb_ncu_left_out {
    const char *name, *why;
} wb_ncu_left_out;
/* A question on the largest member of one launch's family of readings,
 * answered "<member> <value>": the member passes within tol of the largest
 * reading (two that close are both right), the value within tol of ncu's
 * reading of the member named, or within floor where tol of it is less.
 * A failure never shows a reading (they are the answers); it says what
 * was asked and names the nearest wrong answer the answer matches. */
typedef struct wb_ncu_top {
    const char *key;    /* the line of answers.txt */
    const char *what;   /* what is asked, for a failure: "the stall reason ..." */
    const char *unit;   /* of the values: "cycles" */
    const char *readme; /* where the commands are: "README.md, \"Reading the profiler\"" */
    double tol, floor;
    const wb_ncu_family *family;     /* the readings asked about */
    const wb_ncu_left_out *left_out; /* members that answer nothing; ends with {NULL, NULL} */
    /* The same family of another kernel, whose largest named here is the two
     * kernels swapped (NULL: none), and whose it is: "the plain loop's". */
    const wb_ncu_family *other;
    const char *other_whose;
    /* The same members in another unit (NULL: none), and what a value of it
     * is: "a percent of active cycles, not cycles per issued instruction". */
    const wb_ncu_family *other_unit;
    const char *other_unit_what;
} wb_ncu_top;
/* Judges the answer to q (wb_fail on a wrong one, with why). */
void wb_ncu_judge_top(wb_ctx *ctx, const wb_ncu_top *q);
/* Where a body run under ncu left its output (wb_run_self_under_ncu). */
typedef struct wb_ncu_logs {
    char ncu[4200]; /* ncu's own: its --csv results and errors (read with wb_ncu_read) */
    char app[4200]; /* the body's: <test id>.out.log in the test's scratch folder */
} wb_ncu_logs;
/* Runs this test's body again under ncu (found as wb_find_tool finds it;
 * where it is not, the test skips: wb_skip), as wb_run_self_under does,
 * with ncu's options opts (NULL-terminated) and extra_env, adding
 * --log-file: ncu's own output goes to a file beside the test's scratch
 * folder, which the code under test cannot write, so that no line it
 * prints passes for ncu's; the body's output goes to logs->app. ncu's log
 * is not published (only wb_ncu_keep_log copies one, with no reading in
 * it): its readings may be the answers of the lab's profiler questions,
 * and the runner removes it once the test is over.
 * Returns ncu's exit status, or -1 when it could not start. */
int wb_run_self_under_ncu(wb_ctx *ctx, const char *const *opts, const char *extra_env,
                          wb_ncu_logs *logs);
/* 1 when ncu's log holds readings: a line that is not blank and not one of
 * ncu's own messages (==PROF==, ==WARNING==, ==ERROR==, ...), which is what
 * its results are in every layout (--csv, the plain tables, the raw page).
 * 0 for a log of messages alone (the counters closed, an error, no kernel
 * profiled), or none. */
int wb_ncu_holds_readings(const char *log);
/* What wb_ncu_keep_log says of a log that holds readings. */
#define WB_NCU_LOG_HELD                                                                            \
    "not kept (it holds ncu's readings, which a question may ask for; the chapter's ncu "          \
    "commands show the same run)"
/* For a message that names ncu's log: publishes it as <test id>.ncu.log in
 * the report folder and returns that path, where it holds no reading
 * (wb_ncu_holds_readings); returns WB_NCU_LOG_HELD and publishes nothing
 * where it does, since a reading may be a question's answer; says so where
 * ncu wrote no log. Any lab may call it on any log. */
const char *wb_ncu_keep_log(wb_ctx *ctx, const wb_ncu_logs *logs);
/* SKIP (a 0-point test) with how to open them, where ncu said the GPU's
 * performance counters are closed to this user. */
void wb_ncu_skip_if_closed(wb_ctx *ctx, const wb_ncu_reading *r, const char *log);
/* Fails with file:line, the call and the error's name when err (a
 * cudaError_t) is not success: WB_CUDA(ctx, cudaMalloc(&p, n)). */
#define WB_CUDA(ctx, call) wb_cuda_at((ctx), (int)(call), #call, __FILE__, __LINE__)
void wb_cuda_at(wb_ctx *ctx, int err, const char *call, const char *file, int line);
/* Waits for the work on stream (a cudaStream_t; NULL: all of the device's
 * work) and, when a kernel of it failed, fails the test naming what ran:
 * "<what> returned <error> (<description>) (README.md, "Debugging")", what
 * from fmt, printf-style ("the kernels of barriers_sum (n = %d)"). */
void wb_wait(wb_ctx *ctx, void *stream, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Fills all the shared memory of every SM (of those this test may use,
 * under SMS=n) with a poison word, 0xFFF7F7F7 (wb_poison.h): a NaN as a
 * float or a double, and far outside any block's shared memory as a byte
 * offset or an index. A kernel that reads shared memory it never wrote
 * then reads that instead of what an earlier kernel left there, which can
 * pass (another chase's offsets into the same 16 KB, say). Call it in
 * correctness tests right before the student's code whose kernels use
 * shared memory, never between the calls of a timed test: it waits for
 * the device's work (a pending error of earlier kernels fails the test,
 * named) and takes tens of microseconds; a poisoning that fails is a
 * grader error. In a body run again under a tool only the first call
 * poisons, and a launch the tool refuses is passed over: the plain run of
 * the same body poisons before every call, and racecheck would follow
 * every store of every fill (14,528 of 16 bytes per SM of an H100). */
void wb_poison_shared(wb_ctx *ctx);
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
/* The same for a symbol the student's code may lack (a hook of given code
 * that an older handout did not have): NULL when it is missing. */
void *wb_student_sym_opt(wb_ctx *ctx, const char *name);
/* The student's answer for key; fails the test when answers.txt cannot be
 * parsed or the key is missing or blank. */
const char *wb_answer(wb_ctx *ctx, const char *key);
/* The student's prediction for key (a number in answers.txt, recorded and
 * never graded): 1 with *value and the answer as written in text, 0 when
 * the key is missing, blank or not a number. Never fails the test. */
int wb_prediction(wb_ctx *ctx, const char *key, double *value, char *text, size_t cap);
/* For a measured line: "; you predicted <answer>" when answers.txt has a
 * prediction for key (recorded as metric, in unit, in measurements.csv),
 * else "". */
void wb_prediction_words(wb_ctx *ctx, const char *key, const char *metric, const char *unit,
                         char *buf, size_t cap);
/* The salt for this lab's answer hashes. */
const char *wb_salt(wb_ctx *ctx);
/* Seed of this test: derived from the run's seed (printed; SEED=n repeats it). */
uint64_t wb_seed(wb_ctx *ctx);
/* The GPU being graded on (only in tests with needs_gpu). */
const wb_gpu *wb_ctx_gpu(wb_ctx *ctx);
/* The test being run (its row of the table). */
const wb_test *wb_ctx_test(wb_ctx *ctx);

/* Question helpers. The first checks the answer against a salted hash
 * (wb_answer_hash, printed by `build/tools/wb-hash`); the second against a
 * number the grader computed, within a relative tolerance. what says what
 * was asked, for the failure message. */
void wb_question_hash(wb_ctx *ctx, const char *key, uint64_t expected, const char *what);
void wb_question_number(wb_ctx *ctx, const char *key, double expected, double rel_tol,
                        const char *what);

#define WB_BIND(ctx, var, sym) ((var) = (__typeof__(var))wb_student_sym((ctx), #sym))

#ifdef __cplusplus
}
#endif
#endif
