/* tool.c - running a test's body again under a tool (compute-sanitizer, ncu), in a fresh process */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"
#include "wb_csv.h"

#include <dlfcn.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* The grader's own executable, for running it again. */
static int self_exe(char *buf, size_t cap) {
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

/* Runs argv (no shell) with its output in log, the environment plus env
("NAME=value" entries, NULL-terminated; may be NULL), and waits for it:
its exit status, or -1 when it could not start or did not exit. */
static int run_logged(const char *const *argv, const char *const *env, const char *log) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            _exit(127);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
        for (int k = 0; env && env[k]; k++)
            putenv(strdup(env[k]));
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        ;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int wb_run_self_body(const char *id, const char *const *argv_tool, const char *student,
                     const char *const *env, const char *log) {
    char self[PATH_MAX], seed[32];
    if (self_exe(self, sizeof self) != 0)
        return -1;
    snprintf(seed, sizeof seed, "SEED=%llu", (unsigned long long)G.seed);
    const char *argv[64];
    int n = 0;
    for (; argv_tool && argv_tool[n] && n < 40; n++)
        argv[n] = argv_tool[n];
    const char *tail[] = {self,          "--set",     G.opt.set, "--student", student,
                          "--answers",   G.opt.answers, "--report-dir", G.opt.report_dir,
                          "--run-body",  id,          NULL};
    for (int k = 0; tail[k]; k++)
        argv[n++] = tail[k];
    argv[n] = NULL;
    /* the same inputs as this run; WB_TOOL_CHILD: end a completed body with WB_DONE_STATUS */
    const char *all[16] = {seed, "WB_TOOL_CHILD=1"};
    int m = 2;
    for (int k = 0; env && env[k] && m < 15; k++)
        all[m++] = env[k];
    all[m] = NULL;
    return run_logged(argv, all, log);
}

int wb_run_self_under(wb_ctx *ctx, const char *const *argv_tool, const char *extra_env,
                      const char *log) {
    const char *env[] = {extra_env, NULL};
    return wb_run_self_body(ctx->t->id, argv_tool, G.opt.student, env, log);
}

/* Runs the target test's body under compute-sanitizer, in a fresh process. */
void wb_sanitizer_body(wb_ctx *ctx) {
    const wb_test *t = ctx->t;
    char log[PATH_MAX + 32], tool[PATH_MAX], status[16];
    if (!wb_find_tool("compute-sanitizer", tool, sizeof tool))
        wb_fail(ctx, "compute-sanitizer not found");
    snprintf(log, sizeof log, "%s/%s.log", wb_out_dir(ctx), t->id);
    snprintf(status, sizeof status, "%d", WB_SANITIZER_STATUS);
    const char *argv[] = {tool, "--tool", t->sanitizer, "--error-exitcode", status,
                          "--print-limit", "20", NULL};
    /* The body run is the target's: the sanitizer test's own id would run nothing. */
    wb_ctx target = *ctx;
    int ti = wb_find_test(t->target);
    target.t = &G.lab->tests[ti];
    int code = wb_run_self_under(&target, argv, NULL, log);
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

int wb_dump_sass(wb_ctx *ctx, const char *symbol, const char *name, char *log, size_t cap,
                 const char **lib) {
    void *sym = wb_student_sym(ctx, symbol);
    Dl_info info;
    if (!dladdr(sym, &info) || !info.dli_fname)
        wb_fail(ctx, "cannot tell which file holds the compiled lab");
    char tool[PATH_MAX];
    if (!wb_find_tool("cuobjdump", tool, sizeof tool))
        wb_fail(ctx, "cuobjdump not found");
    if (lib)
        *lib = info.dli_fname;
    snprintf(log, cap, "%s/%s", wb_out_dir(ctx), name);
    const char *argv[] = {tool, "-sass", info.dli_fname, NULL};
    return run_logged(argv, NULL, log);
}

/* A value of ncu's CSV as a number: 1 with *v, 0 for "n/a" or any other
 * text. ncu prints large values with thousands separators ("1,234.5"). */
static int ncu_number(const char *field, double *v) {
    char num[64];
    size_t k = 0;
    for (const char *c = field; *c && k + 1 < sizeof num; c++)
        if (*c != ',')
            num[k++] = *c;
    num[k] = '\0';
    char *end;
    *v = strtod(num, &end);
    return end != num;
}

/* The columns of ncu's CSV that the readers use, from its header row. */
typedef struct ncu_cols {
    int id, kernel, metric, value;
} ncu_cols;

/* Splits a CSV line of ncu's into fld (at most 32 fields) and returns how
 * many; a header row ("ID", ...) sets c's columns and returns 0, as does a
 * row that lacks one of them. */
static int ncu_csv_row(char *line, char **fld, ncu_cols *c) {
    int n = wb_csv_split(line, fld, 32);
    n = n < 32 ? n : 32;
    if (n > 0 && strcmp(fld[0], "ID") == 0) {
        for (int k = 0; k < n; k++) {
            c->id = strcmp(fld[k], "ID") == 0 ? k : c->id;
            c->kernel = strcmp(fld[k], "Kernel Name") == 0 ? k : c->kernel;
            c->metric = strcmp(fld[k], "Metric Name") == 0 ? k : c->metric;
            c->value = strcmp(fld[k], "Metric Value") == 0 ? k : c->value;
        }
        return 0;
    }
    if (c->id < 0 || c->kernel < 0 || c->metric < 0 || c->value < 0 || c->id >= n ||
        c->kernel >= n || c->metric >= n || c->value >= n)
        return 0;
    return n;
}

void wb_ncu_read(const char *log, const char *metric, const char *has, const char *lacks,
                 wb_ncu_reading *r) {
    memset(r, 0, sizeof *r);
    FILE *f = fopen(log, "r");
    char line[4096];
    ncu_cols c = {-1, -1, -1, -1};
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strstr(line, "ERR_NVGPUCTRPERM"))
            r->no_permission = 1;
        /* The grader's run-body mode ends with its own status on success,
         * which ncu reports as an error: not one. */
        if (!r->error[0] && strstr(line, "==ERROR==") && !strstr(line, "returned an error code"))
            snprintf(r->error, sizeof r->error, "%s", line);
        if (line[0] != '"' || r->found)
            continue;
        char *fld[32];
        if (!ncu_csv_row(line, fld, &c) || strcmp(fld[c.metric], metric) != 0)
            continue;
        if ((has && !strstr(fld[c.kernel], has)) || (lacks && strstr(fld[c.kernel], lacks)))
            continue;
        double v;
        if (!ncu_number(fld[c.value], &v))
            continue;
        r->value = v;
        r->found = 1;
        snprintf(r->kernel, sizeof r->kernel, "%s", fld[c.kernel]);
    }
    if (f)
        fclose(f);
}

/* Where name, a member of family prefix...suffix, is that family's: its
 * part between them, or NULL. */
static const char *family_member(const char *name, const char *prefix, const char *suffix,
                                 size_t *len) {
    size_t n = strlen(name), np = strlen(prefix), ns = strlen(suffix);
    if (n <= np + ns || strncmp(name, prefix, np) != 0 || strcmp(name + n - ns, suffix) != 0)
        return NULL;
    *len = n - np - ns;
    return name + np;
}

int wb_ncu_read_family(const char *log, const char *prefix, const char *suffix, const char *has,
                       const char *lacks, wb_ncu_family *f) {
    memset(f, 0, sizeof *f);
    snprintf(f->prefix, sizeof f->prefix, "%s", prefix);
    snprintf(f->suffix, sizeof f->suffix, "%s", suffix);
    FILE *in = fopen(log, "r");
    char line[4096], launch[64] = "";
    ncu_cols c = {-1, -1, -1, -1};
    int chosen = 0;
    while (in && fgets(line, sizeof line, in)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] != '"')
            continue;
        char *fld[32];
        if (!ncu_csv_row(line, fld, &c))
            continue;
        if ((has && !strstr(fld[c.kernel], has)) || (lacks && strstr(fld[c.kernel], lacks)))
            continue;
        /* The launch is the first row's of a matching kernel; its other rows
         * share its ID, whatever rows of other launches come between. */
        if (!chosen) {
            chosen = 1;
            snprintf(launch, sizeof launch, "%s", fld[c.id]);
            snprintf(f->kernel, sizeof f->kernel, "%s", fld[c.kernel]);
        } else if (strcmp(fld[c.id], launch) != 0)
            continue;
        size_t len;
        const char *member = family_member(fld[c.metric], prefix, suffix, &len);
        double v;
        if (!member || len >= sizeof f->m[0].name || !ncu_number(fld[c.value], &v))
            continue;
        int seen = 0;
        for (int k = 0; k < f->n && !seen; k++)
            seen = strncmp(f->m[k].name, member, len) == 0 && f->m[k].name[len] == '\0';
        if (seen || f->n >= WB_NCU_FAMILY_MAX)
            continue;
        memcpy(f->m[f->n].name, member, len);
        f->m[f->n].name[len] = '\0';
        f->m[f->n].value = v;
        f->n++;
    }
    if (in)
        fclose(in);
    return f->n;
}

/* Copies the file at from to to (a plain copy; nothing when from is missing). */
static void copy_file(const char *from, const char *to) {
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[65536];
    size_t n;
    while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            break;
    if (in)
        fclose(in);
    if (out)
        fclose(out);
}

int wb_run_self_under_ncu(wb_ctx *ctx, const char *const *opts, const char *extra_env,
                          wb_ncu_logs *logs) {
    char ncu[PATH_MAX];
    if (!wb_find_tool("ncu", ncu, sizeof ncu))
        wb_skip(ctx, "ncu not found (Nsight Compute comes with the CUDA Toolkit)");
    /* Beside records/t<idx>/, not in it: the body's process, confined to
     * its scratch folder, can neither write nor replace it. */
    snprintf(logs->ncu, sizeof logs->ncu, "%s/ncu-t%d.log", G.tmpdir, ctx->idx);
    snprintf(logs->app, sizeof logs->app, "%s/%s.out.log", wb_out_dir(ctx), ctx->t->id);
    unlink(logs->ncu);
    const char *argv[48] = {ncu};
    int n = 1;
    for (; opts[n - 1] && n < 44; n++)
        argv[n] = opts[n - 1];
    argv[n++] = "--log-file";
    argv[n++] = logs->ncu;
    argv[n] = NULL;
    /* ncu's log stays in records/, which the runner empties of it once the
     * test is over (runner.c): its readings may be a question's answers. */
    return wb_run_self_under(ctx, argv, extra_env, logs->app);
}

/* Whether the n bytes of line are a blank line or one of ncu's own
 * messages ("==PROF== ...", "==WARNING== ...", "==ERROR== ..."); a line
 * with a NUL in it is neither. */
static int ncu_no_reading(const char *line, size_t n) {
    if (memchr(line, '\0', n))
        return 0;
    if (line[strspn(line, " \t\r\n")] == '\0')
        return 1;
    if (strncmp(line, "==", 2) != 0)
        return 0;
    size_t tag = strspn(line + 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    return tag > 0 && strncmp(line + 2 + tag, "==", 2) == 0;
}

int wb_ncu_holds_readings(const char *log) {
    FILE *f = fopen(log, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int held = 0;
    /* Whole lines (getline): a long one is one line, not a message and its tail. */
    while (f && !held && (n = getline(&line, &cap, f)) >= 0)
        held = !ncu_no_reading(line, (size_t)n);
    free(line);
    if (f)
        fclose(f);
    return held;
}

const char *wb_ncu_keep_log(wb_ctx *ctx, const wb_ncu_logs *logs) {
    static char kept[PATH_MAX + 300];
    char copy[PATH_MAX + 96];
    snprintf(copy, sizeof copy, "%s/%s.ncu.log", wb_out_dir(ctx), ctx->t->id);
    unlink(copy); /* an earlier call's copy names no log of this one */
    if (access(logs->ncu, R_OK) != 0) {
        /* ncu's other output (before it opened its log: a bad option, no
         * driver) went with the body's. */
        snprintf(kept, sizeof kept, "none (ncu wrote no log; its other output is in %s/%s.out.log)",
                 G.report_dir, ctx->t->id);
        return kept;
    }
    /* The rule for every lab: a log with any reading in it is never published. */
    if (wb_ncu_holds_readings(logs->ncu))
        return WB_NCU_LOG_HELD;
    copy_file(logs->ncu, copy);
    snprintf(kept, sizeof kept, "%s/%s.ncu.log", G.report_dir, ctx->t->id);
    return kept;
}

void wb_ncu_skip_if_closed(wb_ctx *ctx, const wb_ncu_reading *r, const char *log) {
    if (r->no_permission)
        wb_skip(ctx,
                "ncu may not read the GPU's performance counters here (ERR_NVGPUCTRPERM): run the "
                "grader as root, or let every user profile (the nvidia module option "
                "NVreg_RestrictProfilingToAdminUsers=0; https://developer.nvidia.com/"
                "ERR_NVGPUCTRPERM); log: %s",
                log);
}
