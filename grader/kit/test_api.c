/* test_api.c - what a test body calls: verdicts, measurements, the student's code and answers */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"
#include "wb_poison.h"

#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Formats the variadic arguments of the enclosing function into buf (an array). */
#define FORMAT_ARGS(buf, fmt)                                                                      \
    do {                                                                                           \
        va_list ap_;                                                                               \
        va_start(ap_, fmt);                                                                        \
        vsnprintf(buf, sizeof buf, fmt, ap_);                                                      \
        va_end(ap_);                                                                               \
    } while (0)

static void vrecord(wb_ctx *ctx, const char *key, const char *fmt, va_list ap) {
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    wb_record_put(ctx->idx, key, buf);
}

void wb_measured(wb_ctx *ctx, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vrecord(ctx, "measured", fmt, ap);
    va_end(ap);
}

void wb_hint(wb_ctx *ctx, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vrecord(ctx, "hint", fmt, ap);
    va_end(ap);
}

void wb_record(wb_ctx *ctx, const char *metric, double value, const char *unit, double limit,
               const char *cmp) {
    char v[32], l[32];
    snprintf(v, sizeof v, "%.6g", value);
    snprintf(l, sizeof l, "%.6g", limit);
    const char *fields[] = {metric, v, unit, l, cmp};
    wb_record_put_fields(ctx->idx, "csv", 5, fields);
}

void wb_fail(wb_ctx *ctx, const char *fmt, ...) {
    char buf[512];
    FORMAT_ARGS(buf, fmt);
    if (G.run_body_mode) {
        fprintf(stderr, "FAIL %s: %s\n", ctx->t->id, buf);
        fflush(NULL);
        _exit(1);
    }
    wb_record_put(ctx->idx, "reason", buf);
    ck_abort_msg("%s", buf); /* Check's own failure, for its TAP file */
    _exit(1);                /* not reached */
}

/* Ends a completed test with a verdict other than PASS: its record gets
 * `key` (skip, rerun) with the reason; under --run-body the word is printed. */
static void end_test_as(wb_ctx *ctx, const char *key, const char *word, const char *buf)
    __attribute__((noreturn));
static void end_test_as(wb_ctx *ctx, const char *key, const char *word, const char *buf) {
    if (G.run_body_mode) {
        fprintf(stderr, "%s %s: %s\n", word, ctx->t->id, buf);
        fflush(NULL);
        _exit(G.body_done_status);
    }
    wb_record_put(ctx->idx, key, buf);
    wb_record_done(ctx->idx);
    fflush(NULL);
    _exit(WB_DONE_STATUS);
}

void wb_rerun(wb_ctx *ctx, const char *fmt, ...) {
    char buf[512];
    FORMAT_ARGS(buf, fmt);
    end_test_as(ctx, "rerun", "RERUN", buf);
}

void wb_skip(wb_ctx *ctx, const char *fmt, ...) {
    char buf[512];
    FORMAT_ARGS(buf, fmt);
    if (ctx->t->points > 0)
        wb_fail(ctx, "%s", buf);
    end_test_as(ctx, "skip", "SKIP", buf);
}

int wb_gpu_others(const char **first) {
    if (first)
        *first = G.other;
    return G.others;
}

void wb_rerun_if_shared(wb_ctx *ctx, const char *fmt, ...) {
    if (G.others <= 0)
        return;
    char what[256];
    FORMAT_ARGS(what, fmt);
    wb_rerun(ctx,
             "inconclusive: %s, but %d other process(es) use a GPU (%s...) and take turns "
             "with this one, so the two measurements saw different shares of it; grade "
             "again when the GPU is idle (nvidia-smi shows what runs on it)",
             what, G.others, G.other);
}

void wb_rerun_if_inconclusive(wb_ctx *ctx, const wb_ratio *r, double limit) {
    if (r->inconclusive)
        wb_rerun(ctx,
                 "inconclusive: speedup %.2fx against a limit of %.2fx, but the timings spread "
                 "%.0f %% (a busy or throttling GPU); grade again when the GPU is idle "
                 "(nvidia-smi shows what else runs on it)",
                 r->ratio, limit, 100 * r->spread);
}

/* The test's scratch folder, the only one it may write (sandbox.c); the
 * parent copies what it leaves there into the report folder. A body run
 * again under a tool writes to the scratch folder of the test that ran it. */
const char *wb_out_dir(wb_ctx *ctx) {
    static char dir[PATH_MAX + 32];
    const char *inherited = getenv("WB_SCRATCH");
    if (G.run_body_mode && inherited)
        snprintf(dir, sizeof dir, "%s", inherited);
    else
        wb_scratch_dir(ctx->idx, dir, sizeof dir);
    return dir;
}

void wb_cuda_at(wb_ctx *ctx, int err, const char *call, const char *file, int line) {
    if (err == 0)
        return;
    const char *base = strrchr(file, '/');
    /* A synchronisation reports what a kernel launched before it did. */
    int sync = strstr(call, "Synchronize") != NULL;
    wb_fail(ctx, "%s returned %s (%s)%s [%s:%d]", call, cudaGetErrorName((cudaError_t)err),
            cudaGetErrorString((cudaError_t)err),
            sync ? ": a kernel launched before it failed (README.md, \"Debugging\")" : "",
            base ? base + 1 : file, line);
}

void wb_wait(wb_ctx *ctx, void *stream, const char *fmt, ...) {
    cudaError_t e = stream ? cudaStreamSynchronize((cudaStream_t)stream) : cudaDeviceSynchronize();
    if (e == cudaSuccess)
        return;
    char what[256];
    FORMAT_ARGS(what, fmt);
    wb_fail(ctx, "%s returned %s (%s) (README.md, \"Debugging\")", what, cudaGetErrorName(e),
            cudaGetErrorString(e));
}

void wb_poison_shared(wb_ctx *ctx) {
    static int poisoned;
    if (G.run_body_mode && poisoned)
        return;
    poisoned = 1;
    wb_wait(ctx, NULL, "the kernels queued before the grader poisoned shared memory");
    wb_poison_result r;
    int e = wb_poison_shared_memory(&r);
    /* Under a tool, a launch the tool refuses (an error that does not stick
     * to the context) is passed over: the plain run of this body poisons. */
    if (e != 0 && G.run_body_mode) {
        cudaGetLastError();
        if (cudaDeviceSynchronize() == cudaSuccess) {
            fprintf(stderr, "grader: shared memory not poisoned under the tool: %s\n",
                    cudaGetErrorName((cudaError_t)e));
            return;
        }
    }
    if (e != 0)
        wb_fail(ctx, "grader error: filling the shared memory of every SM with its poison: %s (%s)",
                cudaGetErrorName((cudaError_t)e), cudaGetErrorString((cudaError_t)e));
    /* Only where some SM stayed busy with other work (another client under
     * MPS, say): a weaker check, not the student's fault. */
    if (r.filled < r.sms)
        fprintf(stderr,
                "grader: the poison reached the shared memory of %d of %d SMs (%d launches)\n",
                r.filled, r.sms, r.launches);
}

/* The student's library, loaded once in this process (never unconfined). */
static void load_student(wb_ctx *ctx) {
    if (G.student_handle)
        return;
    /* Never in a process left unconfined (one that runs a tool, whose
     * body confines itself), unless run by hand (--run-body alone). */
    if (!G.confined && !(G.run_body_mode && !getenv("WB_SANDBOX_WANT")))
        wb_fail(ctx, "grader error: %s would load the student's code outside its sandbox",
                ctx->t->id);
    G.student_handle = dlopen(G.opt.student, RTLD_NOW | RTLD_LOCAL);
    if (!G.student_handle)
        wb_fail(ctx, "could not load the compiled lab %s: %s", G.opt.student, dlerror());
}

void *wb_student_sym(wb_ctx *ctx, const char *name) {
    load_student(ctx);
    void *p = dlsym(G.student_handle, name);
    if (!p)
        wb_fail(ctx, "%s does not define %s() as the contract header declares it", G.lab->source,
                name);
    return p;
}

void *wb_student_sym_opt(wb_ctx *ctx, const char *name) {
    load_student(ctx);
    return dlsym(G.student_handle, name);
}

const char *wb_answer(wb_ctx *ctx, const char *key) {
    if (!G.answers_loaded) {
        if (wb_answers_load(G.opt.answers, &G.answers) != 0)
            wb_fail(ctx, "%s", G.answers.error);
        G.answers_loaded = 1;
    }
    const char *v = wb_answers_get(&G.answers, key);
    if (!v)
        wb_fail(ctx, "%s has no line `%s = ...`; add it with your answer", G.opt.answers, key);
    if (!*v)
        wb_fail(ctx, "`%s` is not answered yet in %s", key, G.opt.answers);
    return v;
}

int wb_prediction(wb_ctx *ctx, const char *key, double *value, char *text, size_t cap) {
    (void)ctx;
    if (!G.answers_loaded) {
        if (wb_answers_load(G.opt.answers, &G.answers) != 0)
            return 0;
        G.answers_loaded = 1;
    }
    const char *v = wb_answers_get(&G.answers, key);
    if (!v || !*v || wb_answer_number(v, value) != 0)
        return 0;
    snprintf(text, cap, "%s", v);
    return 1;
}

void wb_prediction_words(wb_ctx *ctx, const char *key, const char *metric, const char *unit,
                         char *buf, size_t cap) {
    double guess;
    char said[64];
    buf[0] = '\0';
    if (!wb_prediction(ctx, key, &guess, said, sizeof said))
        return;
    snprintf(buf, cap, "; you predicted %s", said);
    wb_record(ctx, metric, guess, unit, 0, "ref");
}

void wb_question_hash(wb_ctx *ctx, const char *key, uint64_t expected, const char *what) {
    const char *v = wb_answer(ctx, key);
    wb_measured(ctx, "%s = %s", key, v);
    if (wb_answer_hash(G.lab->salt, key, v) != expected)
        wb_fail(ctx, "%s = %s is not the expected answer; asked: %s (README, \"Questions\")", key,
                v, what);
}

/* The body of every WB_QUESTION_HASH row. */
void wb_question_test(wb_ctx *ctx) {
    const wb_question *q = ctx->t->question;
    if (!q->canon) {
        wb_question_hash(ctx, q->key, q->hash, q->what);
        return;
    }
    const char *v = wb_answer(ctx, q->key);
    char buf[256];
    wb_measured(ctx, "%s = %s", q->key, v);
    const char *canon = q->canon(v, buf, sizeof buf);
    if (!canon)
        wb_fail(ctx, "%s = %s: %s; asked: %s (README, \"Questions\")", q->key, v, buf, q->what);
    if (wb_answer_hash(G.lab->salt, q->key, canon) != q->hash)
        wb_fail(ctx, "%s = %s is not the expected answer; asked: %s (README, \"Questions\")",
                q->key, v, q->what);
}

void wb_question_number(wb_ctx *ctx, const char *key, double expected, double rel_tol,
                        const char *what) {
    const char *v = wb_answer(ctx, key);
    double got;
    wb_measured(ctx, "%s = %s", key, v);
    if (wb_answer_number(v, &got) != 0)
        wb_fail(ctx, "%s = %s is not a number; asked: %s", key, v, what);
    if (fabs(got - expected) > rel_tol * fabs(expected) + 1e-12)
        wb_fail(ctx, "%s = %s does not match the GPU being graded (to within %g%%); asked: %s", key,
                v, rel_tol * 100, what);
}

const char *wb_salt(wb_ctx *ctx) {
    (void)ctx;
    return G.lab->salt;
}

uint64_t wb_seed(wb_ctx *ctx) {
    return ctx->seed;
}

const wb_gpu *wb_ctx_gpu(wb_ctx *ctx) {
    (void)ctx;
    return &G.gpu;
}

const wb_test *wb_ctx_test(wb_ctx *ctx) {
    return ctx->t;
}

int wb_under_tool(wb_ctx *ctx) {
    (void)ctx;
    return G.run_body_mode;
}
