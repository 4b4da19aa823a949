/* wb_grader.c - the grader framework: graded tests on Check, one forked process per test */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "wb_grader.h"
#include "wb_answers.h"
#include "wb_report.h"
#include "wb_rng.h"
#include "wb_timing.h"

#include <cuda_runtime_api.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A test body that returned normally ends its process with this status;
 * Check counts the test as passed only then (tcase_add_loop_exit_test). */
#define WB_DONE_STATUS 93
/* compute-sanitizer's exit status when it found errors. */
#define WB_SANITIZER_STATUS 86
#define WB_MAX_TESTS 128

struct wb_ctx {
    int idx;
    const wb_test *t;
    uint64_t seed;
};

typedef struct options {
    const char *set, *student, *answers, *build_log, *report_dir, *only, *run_body;
    int list;
} options;

/* Everything the parent decides before and during the run. The children
 * inherit it when Check forks them; they never write back except through
 * their record file and their exit status. */
static struct {
    const wb_lab *lab;
    options opt;
    int gpu_ok;
    wb_gpu gpu;
    char gpu_why[256]; /* how the device was chosen, or why none is usable */
    int others;        /* other processes on a GPU when grading began (nvidia-smi) */
    char other[256];   /* the first of them: "pid, name" */
    uint64_t seed;
    char tmpdir[PATH_MAX + 16];
    char report_dir[PATH_MAX];
    SRunner *sr;
    int student_ok;
    char compile_error[400];
    /* per test */
    int selected[WB_MAX_TESTS];
    char decided[WB_MAX_TESTS][400]; /* reason it is SKIP/FAIL without running */
    wb_verdict decided_verdict[WB_MAX_TESTS];
    char gate[WB_MAX_TESTS][300]; /* prerequisite failed: reason */
    wb_result res[WB_MAX_TESTS];
    int done[WB_MAX_TESTS];
    double t_start;
    int printed_upto;
    int color;
    FILE *csv;
    int run_body_mode;
    void *student_handle;
    wb_answers answers;
    int answers_loaded;
} G;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char *kind_name(wb_kind k) {
    static const char *names[] = {"correctness", "performance", "question", "sanitizer"};
    return names[k];
}

/* ------------------------------------------------------------------ records */

static void record_path(int idx, char *buf, size_t cap) {
    snprintf(buf, cap, "%s/%d.rec", G.tmpdir, idx);
}

/* Appends "key<TAB>value" to this test's record, one line, tabs and breaks flattened. */
static void record_put(wb_ctx *ctx, const char *key, const char *value) {
    char path[PATH_MAX + 16];
    record_path(ctx->idx, path, sizeof path);
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    fprintf(f, "%s\t", key);
    for (const char *p = value; *p; p++)
        fputc(*p == '\n' || *p == '\t' || *p == '\r' ? ' ' : *p, f);
    fputc('\n', f);
    fclose(f);
}

static void vrecord(wb_ctx *ctx, const char *key, const char *fmt, va_list ap) {
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    record_put(ctx, key, buf);
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
    char buf[256];
    snprintf(buf, sizeof buf, "%s\t%.6g\t%s\t%.6g\t%s", metric, value, unit, limit, cmp);
    char path[PATH_MAX + 16];
    record_path(ctx->idx, path, sizeof path);
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "csv\t%s\n", buf);
        fclose(f);
    }
}

void wb_fail(wb_ctx *ctx, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (G.run_body_mode) {
        fprintf(stderr, "FAIL %s: %s\n", ctx->t->id, buf);
        fflush(NULL);
        _exit(1);
    }
    record_put(ctx, "reason", buf);
    ck_abort_msg("%s", buf);
    _exit(1); /* not reached */
}

/* Ends a completed test with a verdict other than PASS: its record gets
 * `key` (skip, rerun) with the reason; under --run-body the word is printed. */
static void end_test_as(wb_ctx *ctx, const char *key, const char *word, const char *buf)
    __attribute__((noreturn));
static void end_test_as(wb_ctx *ctx, const char *key, const char *word, const char *buf) {
    if (G.run_body_mode) {
        fprintf(stderr, "%s %s: %s\n", word, ctx->t->id, buf);
        fflush(NULL);
        _exit(WB_DONE_STATUS);
    }
    record_put(ctx, key, buf);
    record_put(ctx, "done", "1");
    fflush(NULL);
    _exit(WB_DONE_STATUS);
}

void wb_rerun(wb_ctx *ctx, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    end_test_as(ctx, "rerun", "RERUN", buf);
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
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
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

void wb_skip(wb_ctx *ctx, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (ctx->t->points > 0)
        wb_fail(ctx, "%s", buf);
    end_test_as(ctx, "skip", "SKIP", buf);
}

const char *wb_out_dir(wb_ctx *ctx) {
    (void)ctx;
    return G.report_dir;
}

void wb_cuda(wb_ctx *ctx, int err, const char *what) {
    if (err == 0)
        return;
    char name[64], text[160];
    snprintf(name, sizeof name, "%s", cudaGetErrorName((cudaError_t)err));
    snprintf(text, sizeof text, "%s", cudaGetErrorString((cudaError_t)err));
    wb_fail(ctx, "%s returned %s (%s)", what, name, text);
}

/* ----------------------------------------------------------- student code */

void *wb_student_sym(wb_ctx *ctx, const char *name) {
    if (!G.student_handle) {
        G.student_handle = dlopen(G.opt.student, RTLD_NOW | RTLD_LOCAL);
        if (!G.student_handle)
            wb_fail(ctx, "could not load the compiled lab %s: %s", G.opt.student, dlerror());
    }
    void *p = dlsym(G.student_handle, name);
    if (!p)
        wb_fail(ctx, "%s does not define %s() as the contract header declares it", G.lab->source,
                name);
    return p;
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

void wb_question_hash(wb_ctx *ctx, const char *key, uint64_t expected, const char *what) {
    const char *v = wb_answer(ctx, key);
    wb_measured(ctx, "%s = %s", key, v);
    if (wb_answer_hash(G.lab->salt, key, v) != expected)
        wb_fail(ctx, "%s = %s is not the expected answer; asked: %s (README, \"Questions\")", key,
                v, what);
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

/* ------------------------------------------------------------ the tests */

static int find_test(const char *id) {
    for (int i = 0; i < G.lab->n_tests; i++)
        if (strcmp(G.lab->tests[i].id, id) == 0)
            return i;
    return -1;
}

static void sanitizer_body(wb_ctx *ctx);

/* Runs one test body in this process, then ends it with WB_DONE_STATUS. */
static void run_body(int idx) {
    const wb_test *t = &G.lab->tests[idx];
    wb_ctx ctx = {idx, t, G.seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(idx + 1))};
    if (G.gate[idx][0])
        wb_fail(&ctx, "%s", G.gate[idx]);
    if (!G.run_body_mode) {
        /* What the code under test prints goes to a file, never among the
         * grader's own lines (a student cannot print a fake PASS there). */
        char out[PATH_MAX + 16];
        snprintf(out, sizeof out, "%s/%d.out", G.tmpdir, idx);
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            fflush(NULL);
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
    }
    if (t->needs_gpu && !G.run_body_mode)
        wb_cuda(&ctx, cudaSetDevice(G.gpu.index), "cudaSetDevice");
    if (t->kind == WB_SANITIZER)
        sanitizer_body(&ctx);
    else
        t->fn(&ctx);
    if (t->needs_gpu && t->kind != WB_SANITIZER) {
        /* A kernel that failed leaves a sticky error even when the code under
         * test ignored it: that is a failure too. */
        cudaError_t e = cudaDeviceSynchronize();
        if (e == cudaSuccess)
            e = cudaGetLastError();
        if (e != cudaSuccess)
            wb_fail(&ctx,
                    "a CUDA error is pending after the test: %s (%s); a kernel or a CUDA "
                    "call of the code under test failed and nothing checked it (README, "
                    "\"Debugging\")",
                    cudaGetErrorName(e), cudaGetErrorString(e));
    }
    if (!G.run_body_mode)
        record_put(&ctx, "done", "1");
    fflush(NULL);
    _exit(WB_DONE_STATUS); /* skips atexit handlers and the student's destructors */
}

START_TEST(wb_dispatch) {
    run_body(_i);
}
END_TEST

/* Runs the target test's body under compute-sanitizer, in a fresh process. */
static void sanitizer_body(wb_ctx *ctx) {
    const wb_test *t = ctx->t;
    char log[PATH_MAX + 32], cmd[4 * PATH_MAX], self[PATH_MAX], tool[PATH_MAX];
    if (!wb_find_tool("compute-sanitizer", tool, sizeof tool))
        wb_fail(ctx, "compute-sanitizer not found");
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        wb_fail(ctx, "cannot find the grader's own executable");
    self[n] = '\0';
    snprintf(log, sizeof log, "%s/%d.sanitizer.log", G.tmpdir, ctx->idx);
    snprintf(cmd, sizeof cmd,
             "SEED=%llu '%s' --tool %s --error-exitcode %d --print-limit 20 '%s' "
             "--set '%s' --student '%s' --answers '%s' --run-body '%s' >'%s' 2>&1",
             (unsigned long long)G.seed, tool, t->sanitizer, WB_SANITIZER_STATUS, self, G.opt.set,
             G.opt.student, G.opt.answers, t->target, log);
    int st = system(cmd);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    /* The first finding of the tool, and the target's own failure (its
     * body prints "FAIL id: reason" in this mode), which explains more. */
    char first[300] = "", body_fail[300] = "";
    FILE *f = fopen(log, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char *p = line + strspn(line, "= ");
        p[strcspn(p, "\n")] = '\0';
        if (!body_fail[0] && strncmp(p, "FAIL ", 5) == 0)
            snprintf(body_fail, sizeof body_fail, "%s", p + 5);
        else if (!first[0] && (strstr(p, "Invalid") || strstr(p, "Error") || strstr(p, "Race") ||
                               strstr(p, "Uninitialized") || strstr(p, "Barrier")))
            snprintf(first, sizeof first, "%s", p);
    }
    if (f)
        fclose(f);
    wb_measured(ctx, "compute-sanitizer --tool %s over %s", t->sanitizer, t->target);
    if (code == WB_SANITIZER_STATUS)
        wb_fail(ctx,
                "compute-sanitizer %s found errors: %s (full log: run the lab under "
                "compute-sanitizer, see README \"Debugging\")",
                t->sanitizer, first);
    if (code != WB_DONE_STATUS && body_fail[0])
        wb_fail(ctx, "under compute-sanitizer, %s", body_fail);
    if (code != WB_DONE_STATUS)
        wb_fail(ctx, "%s did not complete under compute-sanitizer (exit status %d)%s%s", t->target,
                code, first[0] ? ": " : "", first);
}

/* ----------------------------------------------------- parent-side hooks */

static void print_result(int i) {
    char buf[2048];
    if (!G.selected[i])
        return;
    wb_format_result(buf, sizeof buf, &G.res[i], G.color);
    printf("%s\n", buf);
    fflush(stdout);
}

/* Prints, in order, every decided (not run) test up to index upto. */
static void flush_decided(int upto) {
    for (; G.printed_upto < upto; G.printed_upto++)
        if (G.done[G.printed_upto])
            print_result(G.printed_upto);
}

static int current_idx = -1;

static void parent_setup(void) {
    /* Find the next test Check will run: the first selected, undecided, not done. */
    int i = 0;
    while (i < G.lab->n_tests && (!G.selected[i] || G.decided[i][0] || G.done[i]))
        i++;
    current_idx = i;
    flush_decided(i);
    const wb_test *t = &G.lab->tests[i];
    G.gate[i][0] = '\0';
    if (t->requires) {
        char req[256];
        snprintf(req, sizeof req, "%s", t->requires);
        for (char *s = NULL, *id = strtok_r(req, " ", &s); id; id = strtok_r(NULL, " ", &s)) {
            int j = find_test(id);
            if (j >= 0 && (!G.done[j] || G.res[j].verdict != WB_PASS)) {
                snprintf(G.gate[i], sizeof G.gate[i],
                         "not graded: %s must pass first (%s points need a correct result)", id,
                         kind_name(t->kind));
                break;
            }
        }
    }
    G.t_start = now_s();
}

/* Kills every process the test left behind. Check kills the test's process
 * group; the grader is also a child subreaper (see wb_grader_main), so a
 * descendant that left the group with setsid() is re-parented to the
 * grader when its parent dies, and is found and killed here. */
static void reap_leftovers(void) {
    for (int round = 0; round < 8; round++) {
        int found = 0;
        DIR *d = opendir("/proc");
        struct dirent *e;
        while (d && (e = readdir(d))) {
            char path[300], buf[512];
            snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
            FILE *f = fopen(path, "r");
            if (!f)
                continue;
            size_t n = fread(buf, 1, sizeof buf - 1, f);
            fclose(f);
            buf[n] = '\0';
            char *close_paren = strrchr(buf, ')');
            int ppid = 0;
            if (close_paren && sscanf(close_paren + 2, "%*c %d", &ppid) == 1 && ppid == getpid()) {
                kill((pid_t)atoi(e->d_name), SIGKILL);
                found++;
            }
        }
        if (d)
            closedir(d);
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        if (!found)
            return;
        usleep(20000);
    }
}

static void read_record(int i, wb_result *r, int *complete, int *has_reason, int *skipped,
                        int *rerun) {
    char path[PATH_MAX + 16], line[1024];
    record_path(i, path, sizeof path);
    *complete = *has_reason = *skipped = *rerun = 0;
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        const char *v = tab + 1;
        if (strcmp(line, "measured") == 0)
            snprintf(r->measured, sizeof r->measured, "%s", v);
        else if (strcmp(line, "hint") == 0)
            snprintf(r->hint, sizeof r->hint, "%s", v);
        else if (strcmp(line, "reason") == 0) {
            snprintf(r->reason, sizeof r->reason, "%s", v);
            *has_reason = 1;
        } else if (strcmp(line, "done") == 0) {
            *complete = 1;
        } else if (strcmp(line, "skip") == 0) {
            snprintf(r->reason, sizeof r->reason, "%s", v);
            *skipped = 1;
        } else if (strcmp(line, "rerun") == 0) {
            snprintf(r->reason, sizeof r->reason, "%s", v);
            *rerun = 1;
        }
        if (strcmp(line, "csv") == 0 && G.csv) {
            char *fld[5] = {0};
            char *s = NULL, *p = strtok_r((char *)v, "\t", &s);
            for (int k = 0; k < 5 && p; k++, p = strtok_r(NULL, "\t", &s))
                fld[k] = p;
            char seed[32];
            snprintf(seed, sizeof seed, "%llu", (unsigned long long)G.seed);
            const char *row[] = {G.lab->name, G.opt.set, r->id,
                                 fld[0],      fld[1],    fld[2],
                                 fld[3],      fld[4],    G.gpu_ok ? G.gpu.name : "",
                                 seed};
            wb_csv_row(G.csv, 10, row);
            fflush(G.csv);
        }
    }
    if (f)
        fclose(f);
}

/* Turns Check's message for an abnormal end into a reason a student understands. */
static void explain_abnormal(const char *msg, const wb_test *t, char *out, size_t cap) {
    int v;
    const char *mult = getenv("CK_TIMEOUT_MULTIPLIER");
    if (strstr(msg, "timeout"))
        snprintf(out, cap,
                 "did not finish within %.0f s%s: a kernel that never ends, a deadlock at a "
                 "barrier, or very slow code (CK_TIMEOUT_MULTIPLIER=4 allows four times longer)",
                 t->timeout_s * (mult ? atof(mult) : 1.0),
                 mult ? " (after CK_TIMEOUT_MULTIPLIER)" : "");
    else if (sscanf(msg, "Early exit with return value %d", &v) == 1)
        snprintf(out, cap,
                 "the test process ended early with exit status %d before the test finished: "
                 "does the code call exit(), _exit() or return from a crash handler?",
                 v);
    else if (sscanf(msg, "Received signal %d", &v) == 1)
        snprintf(out, cap, "the test process was killed by signal %d (%s)%s", v, strsignal(v),
                 v == SIGSEGV   ? ": a bad host pointer? (see README \"Debugging\")"
                 : v == SIGABRT ? ": abort() or a failed assert() in the code under test"
                                : "");
    else
        snprintf(out, cap, "%s", msg);
}

static void parent_teardown(void) {
    reap_leftovers();
    int i = current_idx, complete, has_reason;
    const wb_test *t = &G.lab->tests[i];
    wb_result *r = &G.res[i];
    TestResult **all = srunner_results(G.sr);
    int n = srunner_ntests_run(G.sr);
    TestResult *tr = n > 0 ? all[n - 1] : NULL;
    int skipped, rerun;
    read_record(i, r, &complete, &has_reason, &skipped, &rerun);
    int check_pass = tr && tr_rtype(tr) == CK_PASS;
    r->seconds = now_s() - G.t_start;
    if (check_pass && complete && !has_reason && skipped && !rerun && t->points == 0) {
        r->verdict = WB_SKIP; /* only a 0-point test may skip itself */
        r->points = 0;
    } else if (check_pass && complete && !has_reason && rerun && !skipped) {
        r->verdict = WB_RERUN; /* never points: at best a second run earns them */
        r->points = 0;
    } else if (check_pass && complete && !has_reason && !skipped && !rerun) {
        r->verdict = WB_PASS;
        r->points = t->points;
    } else {
        r->verdict = WB_FAIL;
        r->points = 0;
        if (!has_reason)
            explain_abnormal(tr ? tr_msg(tr) : "no result from Check", t, r->reason,
                             sizeof r->reason);
        if (!r->hint[0] && t->hint)
            snprintf(r->hint, sizeof r->hint, "%s", t->hint);
        char out[PATH_MAX + 16];
        struct stat st;
        snprintf(out, sizeof out, "%s/%d.out", G.tmpdir, i);
        size_t used = strlen(r->reason);
        if (stat(out, &st) == 0 && st.st_size > 0 && used + 40 < sizeof r->reason)
            snprintf(r->reason + used, sizeof r->reason - used, " [its output: %s]", out);
    }
    free(all);
    G.done[i] = 1;
    flush_decided(i);
    print_result(i);
    G.printed_upto = i + 1;
}

/* ------------------------------------------------------------ decisions */

/* Finds a toolkit program on PATH, else in $CUDA_PATH/bin or /usr/local/cuda/bin;
 * stores its path in out. Returns 1 when found. */
int wb_find_tool(const char *prog, char *out, size_t cap) {
    const char *path = getenv("PATH"), *cuda = getenv("CUDA_PATH");
    char dirs[8192];
    snprintf(dirs, sizeof dirs, "%s:%s/bin:/usr/local/cuda/bin", path ? path : "",
             cuda ? cuda : "/usr/local/cuda");
    for (char *s = NULL, *d = strtok_r(dirs, ":", &s); d; d = strtok_r(NULL, ":", &s)) {
        snprintf(out, cap, "%s/%s", d, prog);
        if (access(out, X_OK) == 0)
            return 1;
    }
    out[0] = '\0';
    return 0;
}

static int on_path(const char *prog) {
    char buf[PATH_MAX];
    return wb_find_tool(prog, buf, sizeof buf);
}

static void decide(int i, wb_verdict v, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(G.decided[i], sizeof G.decided[i], fmt, ap);
    va_end(ap);
    G.decided_verdict[i] = v;
    wb_result *r = &G.res[i];
    r->verdict = v;
    r->points = 0;
    memcpy(r->reason, G.decided[i], sizeof G.decided[i]); /* same size, NUL-terminated */
    G.done[i] = 1;
}

static int selected_by_only(const char *id) {
    if (!G.opt.only)
        return 1;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", G.opt.only);
    for (char *s = NULL, *p = strtok_r(buf, ",", &s); p; p = strtok_r(NULL, ",", &s))
        if (strcmp(p, id) == 0)
            return 1;
    return 0;
}

Suite *wb_build_suite(const wb_lab *lab) {
    G.lab = lab;
    Suite *s = suite_create(lab->name);
    if (G.opt.list || G.run_body_mode)
        return s;
    for (int i = 0; i < lab->n_tests && i < WB_MAX_TESTS; i++) {
        const wb_test *t = &lab->tests[i];
        wb_result *r = &G.res[i];
        snprintf(r->lab, sizeof r->lab, "%s", lab->name);
        snprintf(r->id, sizeof r->id, "%s", t->id);
        snprintf(r->kind, sizeof r->kind, "%s", kind_name(t->kind));
        r->max_points = t->points;
        G.selected[i] = selected_by_only(t->id);
        if (!G.selected[i])
            continue;
        if (t->needs_gpu && !G.gpu_ok)
            decide(i, WB_SKIP, "needs a GPU, and none is usable here (see above)");
        else if (t->tool && !on_path(t->tool))
            decide(i, WB_SKIP, "%s not found (on PATH or in the CUDA Toolkit's bin)", t->tool);
        else if (t->needs_student && !G.student_ok)
            decide(i, WB_FAIL, "%s", G.compile_error);
        if (G.decided[i][0])
            continue;
        TCase *tc = tcase_create(t->id);
        tcase_set_timeout(tc, t->timeout_s > 0 ? t->timeout_s : 30);
        tcase_add_unchecked_fixture(tc, parent_setup, parent_teardown);
        tcase_add_loop_exit_test(tc, wb_dispatch, WB_DONE_STATUS, i, i + 1);
        suite_add_tcase(s, tc);
    }
    return s;
}

/* -------------------------------------------------------------- the GPU */

/* Asks a child process which GPU to use: the parent must never call CUDA,
 * since a CUDA context does not survive fork(). */
static void probe_gpu(void) {
    int fd[2];
    struct {
        int err;
        wb_gpu gpu;
        char why[256];
    } msg;
    memset(&msg, 0, sizeof msg);
    snprintf(G.gpu_why, sizeof G.gpu_why, "no GPU probe result");
    if (pipe(fd) != 0)
        return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        msg.err = wb_gpu_select(&msg.gpu, msg.why, sizeof msg.why);
        if (msg.err)
            snprintf(msg.why + strlen(msg.why), sizeof msg.why - strlen(msg.why),
                     "%sno usable CUDA device: %s (%s)", msg.why[0] ? "; " : "",
                     cudaGetErrorName((cudaError_t)msg.err),
                     cudaGetErrorString((cudaError_t)msg.err));
        ssize_t w = write(fd[1], &msg, sizeof msg);
        (void)w;
        _exit(0);
    }
    close(fd[1]);
    struct pollfd p = {fd[0], POLLIN, 0};
    int ready = poll(&p, 1, 120000);
    ssize_t got = ready > 0 ? read(fd[0], &msg, sizeof msg) : 0;
    close(fd[0]);
    if (ready <= 0)
        kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    if (got != (ssize_t)sizeof msg) {
        snprintf(G.gpu_why, sizeof G.gpu_why, "the GPU probe did not answer (driver problem?)");
        return;
    }
    G.gpu_ok = msg.err == 0;
    G.gpu = msg.gpu;
    snprintf(G.gpu_why, sizeof G.gpu_why, "%s", msg.why);
}

/* Warns when other processes hold the GPU: their load skews timings. The
 * forked tests inherit the count (wb_gpu_others). */
static void warn_other_processes(void) {
    FILE *p = popen("nvidia-smi --query-compute-apps=pid,process_name --format=csv,noheader "
                    "2>/dev/null",
                    "r");
    if (!p)
        return;
    char line[256];
    int n = 0;
    char first[256] = "";
    while (fgets(line, sizeof line, p))
        if (strlen(line) > 1 && n++ == 0)
            snprintf(first, sizeof first, "%s", line);
    pclose(p);
    first[strcspn(first, "\n")] = '\0';
    G.others = n;
    snprintf(G.other, sizeof G.other, "%s", first);
    if (n > 0)
        printf("  warning: %d other process(es) use a GPU (%s...): timings may be noisy; limits "
               "are ratios, but rerun if a performance test fails narrowly\n",
               n, first);
}

/* ---------------------------------------------------------- the program */

static void first_compile_error(void) {
    snprintf(G.compile_error, sizeof G.compile_error,
             "%s/%s did not build, so its tests cannot run", G.opt.set, G.lab->source);
    if (!G.opt.build_log)
        return;
    FILE *f = fopen(G.opt.build_log, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        if (strstr(line, "error:") || strstr(line, "error ")) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(G.compile_error, sizeof G.compile_error,
                     "the lab did not compile: %.250s (full log: %s)", line, G.opt.build_log);
            break;
        }
    }
    if (f)
        fclose(f);
}

static int parse_options(int argc, char **argv, options *o) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = strcmp(a, "--set") == 0          ? &o->set
                            : strcmp(a, "--student") == 0    ? &o->student
                            : strcmp(a, "--answers") == 0    ? &o->answers
                            : strcmp(a, "--build-log") == 0  ? &o->build_log
                            : strcmp(a, "--report-dir") == 0 ? &o->report_dir
                            : strcmp(a, "--only") == 0       ? &o->only
                            : strcmp(a, "--run-body") == 0   ? &o->run_body
                                                             : NULL;
        if (strcmp(a, "--list") == 0) {
            o->list = 1;
        } else if (slot && v) {
            *slot = v;
            i++;
        } else {
            fprintf(stderr,
                    "usage: %s [--set labs|solutions] [--student lib.so] [--answers file] "
                    "[--build-log file] [--report-dir dir] [--only id,id] [--list]\n",
                    argv[0]);
            return -1;
        }
    }
    return 0;
}

/* Defaults come from where the grader lives, build/<set>/<lab>/grade: the
 * student library beside it, answers in <set>/<lab>/, reports in
 * build/report/<set>/<lab>/. Paths are relative when run from the top. */
static void default_paths(options *o, const char *lab) {
    static char set[64], student[PATH_MAX + 32], answers[2 * PATH_MAX], report[2 * PATH_MAX];
    char exe[PATH_MAX] = "", cwd[PATH_MAX] = "", root[PATH_MAX] = ".", dir[PATH_MAX] = ".";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash[4] = {0};
        for (int k = 0; k < 4; k++) { /* .../ROOT/build/SET/LAB/grade */
            slash[k] = strrchr(exe, '/');
            if (!slash[k])
                break;
            *slash[k] = '\0';
            if (k == 0)
                snprintf(dir, sizeof dir, "%s", exe);
            if (k == 2)
                snprintf(set, sizeof set, "%s", slash[2] + 1);
            if (k == 3)
                snprintf(root, sizeof root, "%s", exe);
        }
        if (getcwd(cwd, sizeof cwd) && strcmp(cwd, root) == 0) {
            snprintf(root, sizeof root, ".");
            snprintf(dir, sizeof dir, "build/%s/%s", set, lab);
        }
    }
    if (!o->set)
        o->set = strcmp(set, "solutions") == 0 ? "solutions" : "labs";
    if (!o->student) {
        snprintf(student, sizeof student, "%s/libstudent.so", dir);
        o->student = student;
    }
    if (!o->answers) {
        snprintf(answers, sizeof answers, "%s/%s/%s/answers.txt", root, o->set, lab);
        o->answers = strncmp(answers, "./", 2) == 0 ? answers + 2 : answers;
    }
    if (!o->report_dir) {
        snprintf(report, sizeof report, "%s/build/report/%s/%s", root, o->set, lab);
        o->report_dir = strncmp(report, "./", 2) == 0 ? report + 2 : report;
    }
}

static int mkdir_p(const char *path) {
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(buf, 0755);
            *p = '/';
        }
    }
    return mkdir(buf, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static void list_tests(void) {
    int total = 0;
    for (int i = 0; i < G.lab->n_tests; i++) {
        const wb_test *t = &G.lab->tests[i];
        printf("%-30s %-12s %3d%s\n", t->id, kind_name(t->kind), t->points,
               t->needs_gpu ? "  gpu" : "");
        total += t->points;
    }
    printf("total %d\n", total);
}

static void print_header(void) {
    char right[300], buf[400];
    if (G.gpu_ok)
        wb_gpu_label(&G.gpu, right, sizeof right);
    else
        snprintf(right, sizeof right, "no GPU");
    wb_format_header(buf, sizeof buf, G.lab->name, right);
    printf("%s\n", buf);
    if (G.gpu_ok) {
        /* The driver's own version: nvidia-smi runs apart, so the parent stays CUDA-free. */
        char drv[64] = "", cmd[128];
        snprintf(cmd, sizeof cmd,
                 "nvidia-smi --query-gpu=driver_version --format=csv,noheader -i %d 2>/dev/null",
                 G.gpu.index);
        FILE *p = popen(cmd, "r");
        if (p && fgets(drv, sizeof drv, p))
            drv[strcspn(drv, "\n")] = '\0';
        if (p)
            pclose(p);
        printf("  %s: %d SMs, SM clock %d MHz, memory clock %d MHz x %d bits, driver %s "
               "(CUDA %d.%d), runtime %d.%d\n",
               G.gpu_why, G.gpu.sm_count, G.gpu.sm_clock_khz / 1000, G.gpu.mem_clock_khz / 1000,
               G.gpu.bus_width_bits, drv[0] ? drv : "?", G.gpu.driver_version / 1000,
               G.gpu.driver_version % 1000 / 10, G.gpu.runtime_version / 1000,
               G.gpu.runtime_version % 1000 / 10);
    } else
        printf("  %s: tests that need a GPU are skipped\n", G.gpu_why);
    printf("  set %s, seed %llu (SEED=%llu repeats this run)\n", G.opt.set,
           (unsigned long long)G.seed, (unsigned long long)G.seed);
    fflush(stdout);
}

static int write_reports(int *score, int *total, int *skipped_points, int *rerun_points) {
    char path[PATH_MAX + 32], out[600];
    *score = *total = *skipped_points = *rerun_points = 0;
    int n = 0;
    wb_result kept[WB_MAX_TESTS];
    for (int i = 0; i < G.lab->n_tests; i++) {
        if (!G.selected[i])
            continue;
        kept[n++] = G.res[i];
        *score += G.res[i].points;
        *total += G.res[i].max_points;
        if (G.res[i].verdict == WB_SKIP)
            *skipped_points += G.res[i].max_points;
        if (G.res[i].verdict == WB_RERUN)
            *rerun_points += G.res[i].max_points;
    }
    snprintf(out, sizeof out, "%s on %s; seed %llu", G.lab->name, G.gpu_ok ? G.gpu.name : "no GPU",
             (unsigned long long)G.seed);
    snprintf(path, sizeof path, "%s/results.json", G.report_dir);
    return wb_results_json_write(path, kept, n, out);
}

int wb_grader_main(int argc, char **argv, Suite *(*make_suite)(void)) {
    if (parse_options(argc, argv, &G.opt) != 0)
        return 2;
    G.run_body_mode = G.opt.run_body != NULL;
    Suite *s = NULL;
    if (G.opt.list || G.run_body_mode) {
        s = make_suite();
        default_paths(&G.opt, G.lab->name);
        if (G.opt.list) {
            list_tests();
            return 0;
        }
        int i = find_test(G.opt.run_body);
        if (i < 0) {
            fprintf(stderr, "no test %s\n", G.opt.run_body);
            return 2;
        }
        G.seed = wb_rng_seed_from_env();
        /* A process of its own already: the GPU is chosen here, not in a probe. */
        G.gpu_ok = wb_gpu_select(&G.gpu, G.gpu_why, sizeof G.gpu_why) == 0;
        run_body(i); /* does not return */
    }
    G.seed = wb_rng_seed_from_env();
    G.color = wb_color_enabled(stdout);
    prctl(PR_SET_CHILD_SUBREAPER, 1); /* orphans of the tests come back to us (reap_leftovers) */
    probe_gpu();
    /* Build the suite once to learn the lab, then decide and build it for real. */
    options saved = G.opt;
    G.opt.list = 1;
    s = make_suite();
    G.opt = saved;
    default_paths(&G.opt, G.lab->name);
    struct stat st;
    G.student_ok = stat(G.opt.student, &st) == 0;
    if (!G.student_ok)
        first_compile_error();
    snprintf(G.report_dir, sizeof G.report_dir, "%s", G.opt.report_dir);
    if (mkdir_p(G.report_dir) != 0) {
        fprintf(stderr, "cannot create %s\n", G.report_dir);
        return 2;
    }
    snprintf(G.tmpdir, sizeof G.tmpdir, "%s/records", G.report_dir);
    mkdir_p(G.tmpdir);
    char path[PATH_MAX + 32];
    for (int i = 0; i < WB_MAX_TESTS; i++) { /* stale records would be read as this run's */
        snprintf(path, sizeof path, "%s/%d.rec", G.tmpdir, i);
        unlink(path);
    }
    snprintf(path, sizeof path, "%s/measurements.csv", G.report_dir);
    G.csv = fopen(path, "w");
    if (G.csv) {
        const char *hdr[] = {"lab",  "set",   "test",       "metric", "value",
                             "unit", "limit", "comparison", "gpu",    "seed"};
        wb_csv_row(G.csv, 10, hdr);
        fflush(G.csv); /* nothing buffered may be inherited by the forked tests */
    }
    print_header();
    if (G.gpu_ok)
        warn_other_processes();
    (void)s;
    s = make_suite();
    G.sr = srunner_create(s);
    srunner_set_fork_status(G.sr, CK_FORK); /* never from CK_FORK in the environment */
    snprintf(path, sizeof path, "%s/check.tap", G.report_dir);
    srunner_set_tap(G.sr, path);
    srunner_run_all(G.sr, CK_SILENT);
    flush_decided(G.lab->n_tests);
    srunner_free(G.sr);
    if (G.csv)
        fclose(G.csv);
    int score, total, skipped, rerun;
    write_reports(&score, &total, &skipped, &rerun);
    printf("%s: %d/%d", G.lab->name, score, total);
    if (skipped)
        printf(" (%d points not graded: skipped)", skipped);
    if (rerun)
        printf(" (%d points inconclusive: the GPU was busy; grade again when it is idle)", rerun);
    printf("\n");
    return score == total ? 0 : 1;
}
