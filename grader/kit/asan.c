/* asan.c - AddressSanitizer over the host code of the student's library: the runs and the report */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* compute-sanitizer sees device code only. The host code of a student's library (its
 * allocations, its arrays of timings, its tables) runs unchecked in every test: a write one
 * past a malloc'd array lands in the allocator's slack, a write below a stack array in the
 * frame's padding, and every figure stays right. WB_ASAN_OF runs the bodies of a lab's
 * correctness tests again, each in a fresh process of the grader, with the library built with
 * -fsanitize=address (the Makefile's <library>.asan.so) and libasan preloaded (the grader
 * itself is not instrumented, and an instrumented library may only be loaded into a process
 * whose first library is the ASan runtime). Timed tests never run so: ASan slows host code
 * about twice. The body's process confines itself as any test's does (its sandbox is entered
 * after ASan has reserved its shadow memory). */

/* The runtime found at build time (version.c, from the Makefile: gcc -print-file-name). */
extern const char wb_libasan[];

/* What ASan is told in every run (ASAN_OPTIONS, replacing the caller's):
 *   protect_shadow_gap=0  the CUDA driver maps the GPU's memory into the range ASan would
 *                         otherwise make inaccessible (cudaInit then fails or crashes);
 *   detect_leaks=0        LeakSanitizer stops the process with ptrace, which the sandbox's
 *                         seccomp filter refuses, and would report the CUDA runtime's own
 *                         allocations, which live to the end by design;
 *   allocator_may_return_null=1  a huge malloc returns NULL, as glibc's does, instead of
 *                         stopping as an error: the contract's code checks NULL;
 *   exitcode              the status that tells the parent ASan found an error;
 *   color=never           the log is read by the grader and by the student in a file. */
#define ASAN_OPTIONS_STR                                                                           \
    "ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0:allocator_may_return_null=1:"                \
    "color=never:exitcode=87"
_Static_assert(WB_ASAN_STATUS == 87, "ASAN_OPTIONS_STR names WB_ASAN_STATUS");

int wb_is_asan(const wb_test *t) {
    return t->kind == WB_SANITIZER && t->sanitizer && strcmp(t->sanitizer, "asan") == 0;
}

const char *wb_asan_runtime(void) {
    static char path[PATH_MAX];
    const char *given = getenv("WB_LIBASAN");
    const char *lib = given && *given ? given : wb_libasan;
    /* gcc prints the bare name when it has no such file: no path, no runtime. */
    if (!lib || lib[0] != '/' || !realpath(lib, path) || access(path, R_OK) != 0)
        path[0] = '\0';
    return path;
}

int wb_asan_usable(char *why, size_t cap) {
    if (!wb_asan_runtime()[0]) {
        snprintf(why, cap,
                 "libasan (AddressSanitizer's runtime) not found%s%s: install it "
                 "(Debian/Ubuntu: sudo apt-get install libasan8, or the libgcc-N-dev of your "
                 "gcc's version N; Fedora/RHEL: sudo dnf install libasan), then make again",
                 getenv("WB_LIBASAN") ? " at WB_LIBASAN=" : "",
                 getenv("WB_LIBASAN") ? getenv("WB_LIBASAN") : "");
        return 0;
    }
    /* ASan reserves its shadow memory (about 1/8 of the address space: some 20 TiB of
     * addresses, not of memory) at start: a finite RLIMIT_AS, which only the soft limit may be
     * raised past, refuses it. */
    struct rlimit r;
    if (getrlimit(RLIMIT_AS, &r) == 0 && r.rlim_max != RLIM_INFINITY) {
        snprintf(why, cap,
                 "the address space is limited to %llu MiB (ulimit -v): AddressSanitizer "
                 "reserves about 20 TiB of addresses (not of memory) for its shadow; grade with "
                 "ulimit -v unlimited (a batch system: its virtual memory limit off)",
                 (unsigned long long)(r.rlim_max >> 20));
        return 0;
    }
    FILE *f = fopen("/proc/sys/vm/overcommit_memory", "r");
    int mode = 0;
    if (f) {
        if (fscanf(f, "%d", &mode) != 1)
            mode = 0;
        fclose(f);
    }
    if (mode == 2) {
        snprintf(why, cap,
                 "the kernel does not overcommit memory (vm.overcommit_memory = 2), so "
                 "AddressSanitizer cannot reserve its shadow; grade where it is 0 or 1");
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ the report */

static void copy(char *dst, size_t cap, const char *s, size_t n) {
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* A frame line, "    #3 0x7f12 in func path/file.cu:212:5": 1 with the function and the
 * location (path:line, or "(module+0x..)" where there are no lines). */
static int frame(const char *line, char *func, size_t fcap, char *loc, size_t lcap) {
    const char *p = line + strspn(line, " \t");
    if (p[0] != '#' || !isdigit((unsigned char)p[1]))
        return 0;
    const char *in = strstr(p, " in ");
    if (!in)
        return 0;
    in += 4;
    const char *sp = strchr(in, ' ');
    if (!sp)
        return 0;
    copy(func, fcap, in, (size_t)(sp - in));
    const char *l = sp + 1;
    copy(loc, lcap, l, strcspn(l, "\n"));
    return 1;
}

/* A location in code with lines that is not the sanitizer's own or libc's: "file.cu:212",
 * the file's name without its folders and the column dropped, into out. */
static int own_code(const char *loc, char *out, size_t cap) {
    if (loc[0] == '(' || strstr(loc, "sanitizer") || strstr(loc, "/sysdeps/") ||
        strstr(loc, "../csu/") || strstr(loc, "libc-start"))
        return 0;
    const char *colon = strchr(loc, ':');
    if (!colon || !isdigit((unsigned char)colon[1]))
        return 0;
    const char *base = loc;
    for (const char *c = loc; c < colon; c++)
        if (*c == '/')
            base = c + 1;
    size_t n = (size_t)(colon - base) + 1 + strspn(colon + 1, "0123456789");
    copy(out, cap, base, n);
    return 1;
}

/* What follows "ERROR: AddressSanitizer: ": the kind of error ("heap-buffer-overflow on
 * address ..." gives "heap-buffer-overflow"). */
static void error_kind(const char *after, char *out, size_t cap) {
    const char *on = strstr(after, " on ");
    size_t n = on ? (size_t)(on - after) : strcspn(after, ":(\n");
    while (n > 0 && after[n - 1] == ' ')
        n--;
    copy(out, cap, after, n);
}

/* Lines that say ASan could not start, rather than that the code erred. */
static int startup_failure(const char *line) {
    static const char *words[] = {"ReserveShadowMemoryRange failed",
                                  "failed to allocate",
                                  "Shadow memory range interleaves",
                                  "does not come first in initial library list",
                                  "cannot be preloaded",
                                  "Perhaps you're using ulimit -v",
                                  "failed to mmap"};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (strstr(line, words[k]))
            return 1;
    return 0;
}

void wb_asan_parse(const char *log, wb_asan_report *r) {
    memset(r, 0, sizeof *r);
    FILE *f = fopen(log, "r");
    char line[1024], func[160], loc[512], at[160];
    /* 1: the error's own stack; 2: the "allocated/freed by" stack; 3: the frame of a stack
     * address; 0: elsewhere */
    int stack = 0, origin_is_free = 0;
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        const char *e = strstr(line, "ERROR: AddressSanitizer: ");
        if (!r->found && !r->no_start && startup_failure(line)) {
            r->no_start = 1;
            copy(r->first, sizeof r->first, line, strlen(line));
            continue;
        }
        if (e && !r->found) {
            r->found = 1;
            error_kind(e + strlen("ERROR: AddressSanitizer: "), r->kind, sizeof r->kind);
            copy(r->first, sizeof r->first, e, strlen(e));
            stack = 1;
            continue;
        }
        if (!r->found)
            continue;
        if (!r->access[0] &&
            (strncmp(line, "READ of size", 12) == 0 || strncmp(line, "WRITE of size", 13) == 0)) {
            const char *end = strstr(line, " at ");
            copy(r->access, sizeof r->access, line, end ? (size_t)(end - line) : strlen(line));
            continue;
        }
        const char *cause = strstr(line, "caused by a ");
        if (!r->access[0] && cause && strstr(line, "memory access")) {
            cause += strlen("caused by a ");
            copy(r->access, sizeof r->access, cause, strcspn(cause, " "));
            continue;
        }
        const char *loc_at = strstr(line, " is located ");
        if (loc_at && !r->located[0]) {
            loc_at += strlen(" is located ");
            /* "0 bytes to the right of 16-byte region [0x..,0x..)", "in stack of thread T0 at
             * offset 24 in frame", "4 bytes after global variable 'g' defined in ..." */
            if (strncmp(loc_at, "in stack", 8) == 0)
                stack = 3;
            else {
                size_t n = strcspn(loc_at, "[(");
                while (n > 0 && loc_at[n - 1] == ' ')
                    n--;
                copy(r->located, sizeof r->located, loc_at, n);
                stack = 0;
            }
            continue;
        }
        if (strstr(line, "allocated by thread") || strstr(line, "freed by thread")) {
            if (!r->origin[0] && !strstr(line, "previously")) {
                stack = 2;
                origin_is_free = strstr(line, "freed by") != NULL;
            } else if (strstr(line, "previously allocated") && !r->origin[0]) {
                stack = 2;
                origin_is_free = 0;
            } else
                stack = 0;
            continue;
        }
        /* The object of a stack address: "    [32, 120) 'ms' (line 256) <== Memory access at
         * offset 24 underflows this variable". */
        const char *mark = strstr(line, "<== Memory access at offset");
        if (mark && !r->located[0]) {
            const char *name = strchr(line, '\'');
            const char *what = strchr(mark + strlen("<== Memory access at offset"), ' ');
            if (what)
                what = strchr(what + 1, ' ');
            char obj[96] = "";
            if (name) {
                size_t n = strcspn(name, "<");
                while (n > 0 && name[n - 1] == ' ')
                    n--;
                copy(obj, sizeof obj, name, n);
            }
            snprintf(r->located, sizeof r->located, "stack variable %s: the access %s", obj,
                     what ? what + 1 : "is near it");
            continue;
        }
        if (frame(line, func, sizeof func, loc, sizeof loc) && own_code(loc, at, sizeof at)) {
            if (stack == 1 && !r->where[0])
                snprintf(r->where, sizeof r->where, "%s in %.100s", at, func);
            else if (stack == 2 && !r->origin[0])
                snprintf(r->origin, sizeof r->origin, "%s at %s in %.100s",
                         origin_is_free ? "freed" : "allocated", at, func);
        }
        if (strncmp(line, "SUMMARY:", 8) == 0)
            break;
    }
    if (f)
        fclose(f);
}

void wb_asan_describe(const wb_asan_report *r, char *out, size_t cap) {
    if (r->no_start) {
        snprintf(out, cap, "AddressSanitizer could not start: %s", r->first);
        return;
    }
    snprintf(out, cap, "%s%s%s%s%s%s%s%s%s", r->kind[0] ? r->kind : "an error",
             r->access[0] ? ", a " : "", r->access, r->where[0] ? " at " : "", r->where,
             r->located[0] ? "; " : "", r->located, r->origin[0] ? ", " : "", r->origin);
}

/* ------------------------------------------------------------------ the runs */

/* What is kept of one run's log in the test's whole log: its end, where ASan's report is (the
 * body's own output before it may be any size; the report folder takes 32 MiB a test). */
#define RUN_LOG_KEEP (1L << 20)

/* Appends the run's log to the test's whole log, under a line naming the body and its status. */
static void append_log(const char *all, const char *one, const char *id, int code) {
    FILE *out = fopen(all, "a"), *in = fopen(one, "r");
    char buf[8192];
    size_t n;
    if (out) {
        fprintf(out, "== %s (exit status %d)\n", id, code);
        long size = in && fseek(in, 0, SEEK_END) == 0 ? ftell(in) : 0;
        if (size > RUN_LOG_KEEP) {
            fprintf(out,
                    "[the first %ld bytes of this run's output were cut; its last %ld follow]\n",
                    size - RUN_LOG_KEEP, RUN_LOG_KEEP);
            fseek(in, size - RUN_LOG_KEEP, SEEK_SET);
        } else if (in)
            rewind(in);
        while (in && (n = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, n, out);
        fclose(out);
    }
    if (in)
        fclose(in);
    unlink(one);
}

/* The first "FAIL <id>: reason" line a body printed in this mode, into out. */
static void body_failure(const char *log, char *out, size_t cap) {
    FILE *f = fopen(log, "r");
    char line[1024];
    out[0] = '\0';
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "FAIL ", 5) == 0) {
            line[strcspn(line, "\n")] = '\0';
            copy(out, cap, line + 5, strlen(line + 5));
            break;
        }
    if (f)
        fclose(f);
}

/* Runs one target's body under ASan; fails the test on anything but a clean, complete run. */
static void run_target(wb_ctx *ctx, const char *target, const char *lib, const char *all) {
    char one[PATH_MAX + 64], preload[PATH_MAX + 16], said[400], failed[400];
    snprintf(one, sizeof one, "%s/asan-run.log", wb_out_dir(ctx));
    snprintf(preload, sizeof preload, "LD_PRELOAD=%s", wb_asan_runtime());
    const char *env[] = {preload, ASAN_OPTIONS_STR, NULL};
    int code = wb_run_self_body(target, NULL, lib, env, one);
    wb_asan_report r;
    wb_asan_parse(one, &r);
    body_failure(one, failed, sizeof failed);
    append_log(all, one, target, code);
    /* where the student finds the whole report: the report folder, once the test is over */
    char report[PATH_MAX + 64];
    snprintf(report, sizeof report, "%s/%s.log", G.report_dir, ctx->t->id);
    wb_asan_describe(&r, said, sizeof said);
    if (r.no_start)
        wb_fail(ctx, "%s (running %s): report it to your instructor (log: %s)", said, target,
                report);
    if (r.found || code == WB_ASAN_STATUS)
        wb_fail(ctx,
                "AddressSanitizer stopped %s: %s; expected no access outside the memory your "
                "host code allocated or declared (the whole report: %s)",
                target, said, report);
    if (code != WB_DONE_STATUS && failed[0])
        wb_fail(ctx, "under AddressSanitizer, %s", failed);
    if (code != WB_DONE_STATUS)
        wb_fail(ctx, "%s did not complete under AddressSanitizer (exit status %d; log: %s)", target,
                code, report);
}

void wb_asan_body(wb_ctx *ctx) {
    const wb_test *t = ctx->t;
    const char *lib = G.opt.student_asan;
    struct stat st;
    if (!lib || stat(lib, &st) != 0)
        wb_fail(ctx,
                "%s is missing: the AddressSanitizer build of %s did not compile or was not "
                "made (make %s; grading's log of it: build-asan.log beside the library)",
                lib ? lib : "the library's .asan.so", G.lab->source, lib ? lib : "");
    /* ASan's shadow is reserved in the body's process: its soft limit up to the hard one, which
     * the runner found unlimited (wb_asan_usable). */
    struct rlimit as;
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != as.rlim_max) {
        as.rlim_cur = as.rlim_max;
        setrlimit(RLIMIT_AS, &as);
    }
    char all[PATH_MAX + 64], ids[1024];
    snprintf(all, sizeof all, "%s/%s.log", wb_out_dir(ctx), t->id);
    unlink(all);
    snprintf(ids, sizeof ids, "%s", t->target);
    int n = 0;
    for (char *s = NULL, *id = strtok_r(ids, " ", &s); id; id = strtok_r(NULL, " ", &s), n++)
        run_target(ctx, id, lib, all);
    wb_measured(ctx, "AddressSanitizer: no invalid access in the host code of %d test%s", n,
                n == 1 ? "" : "s");
}
