/* runner.c - the Check suite of a lab: one test case per test, and the parent's work around each */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"
#include "wb_driver.h"

#include <cuda_runtime_api.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int wb_find_test(const char *id) {
    for (int i = 0; i < G.lab->n_tests; i++)
        if (strcmp(G.lab->tests[i].id, id) == 0)
            return i;
    return -1;
}

/* ------------------------------------------------------ in the test's process */

/* Every descriptor the test's process inherited, but its standard ones and its record
 * channel, leads to /dev/null from here on: Check's message file, which code under test could
 * otherwise fill with messages that stop Check's parent, and so the whole lab's grading ("Bad
 * message type", or a length that reads past its buffer), and anything the grader's own caller
 * left open (a log, a terminal), which no Landlock rule covers. Check's parent still reads
 * what its child wrote before the body; the body's verdict and reason travel in the record
 * (check.tap then says "Early exit" where results.json gives the reason). The numbers stay
 * taken, so no file opened later lands where Check's child still writes. */
static void detach_inherited_fds(void) {
    int keep[4096], n = 0;
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    while (d && (e = readdir(d)) && n < 4096) {
        int fd = atoi(e->d_name);
        if (fd > STDERR_FILENO && fd != G.record_fd && fd != dirfd(d))
            keep[n++] = fd;
    }
    if (d)
        closedir(d);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int k = 0; null >= 0 && k < n; k++)
        if (keep[k] != null && dup2(null, keep[k]) == keep[k])
            fcntl(keep[k], F_SETFD, FD_CLOEXEC);
    if (null >= 0)
        close(null);
}

/* What the code under test prints goes to a file, never among the grader's
 * own lines (a student cannot print a fake PASS there). */
static void capture_output(int idx) {
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

/* A kernel that failed leaves a sticky error even when the code under test
 * ignored it: that is a failure too. */
static void fail_if_cuda_error_pending(wb_ctx *ctx) {
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        e = cudaGetLastError();
    if (e != cudaSuccess)
        wb_fail(ctx,
                "a CUDA error is pending after the test: %s (%s); a kernel or a CUDA call of the "
                "code under test failed and nothing checked it (README, \"Debugging\")",
                cudaGetErrorName(e), cudaGetErrorString(e));
}

/* SMS=n: confines this process's CUDA work to n SMs, before any of the
 * test's; a test that cannot be confined fails rather than run on the
 * whole GPU. */
void wb_restrict_or_fail(wb_ctx *ctx) {
    char why[256];
    int got = 0;
    if (wb_green_restrict(G.gpu.index, G.sms_asked, &got, why, sizeof why) != 0)
        wb_fail(ctx, "SMS=%d: %s", G.sms_asked, why);
}

/* A test whose body runs again in a process of its own under a tool
 * (compute-sanitizer, ncu) or AddressSanitizer: that process loads the
 * student's code, and confines itself (the tool, NVIDIA's, stays outside:
 * it starts CUDA in its target, which a confined parent's rules would not
 * let it do). */
static int body_runs_under_tool(const wb_test *t) {
    return t->kind == WB_SANITIZER || (t->tool && strcmp(t->tool, "ncu") == 0);
}

/* Confines this process as the parent's probe found possible; a process
 * that gets less protection fails rather than run without it. */
static void confine_or_fail(wb_ctx *ctx, const wb_sandbox *want) {
    wb_sandbox got;
    char missing[120];
    memset(&got, 0, sizeof got);
    wb_sandbox_confine(ctx->idx, !want->fs, want->reads, &got);
    G.confined = 1;
    wb_sandbox_missing(want, &got, missing, sizeof missing);
    if (missing[0])
        wb_fail(ctx, "the grader could not confine this test (missing:%s; %s %s): report it to "
                "your instructor", missing, got.why_fs, got.why_seccomp);
}

/* Before any student code is loaded (its constructors run at that load). */
static void enter_sandbox(wb_ctx *ctx) {
    wb_sandbox got;
    char want[96];
    if (G.opt.no_sandbox) { /* the scratch folder alone: what the sandbox costs */
        wb_sandbox_prepare(ctx->idx, &got);
        setenv("WB_SANDBOX_WANT", "off", 1);
        G.confined = 1;
        return;
    }
    if (G.sandbox.cgroup && wb_cgroup_enter() != 0)
        wb_fail(ctx, "the grader could not move this test into its cgroup: report it to your "
                "instructor");
    wb_sandbox_prepare(ctx->idx, &got);
    /* What a body run under a tool must get: reads stay open there, since what NVIDIA's
     * tools load into it (and read) was never probed; under AddressSanitizer, whose runtime
     * is a system library loaded before the sandbox, they stay confined. */
    wb_sandbox promised = G.sandbox;
    if (body_runs_under_tool(ctx->t) && !wb_is_asan(ctx->t))
        promised.reads = 0;
    wb_sandbox_said(&promised, want, sizeof want);
    setenv("WB_SANDBOX_WANT", want, 1);
    if (!body_runs_under_tool(ctx->t))
        confine_or_fail(ctx, &G.sandbox);
}

/* A body run again under a tool: as much as its test was promised. */
static void enter_sandbox_under_tool(wb_ctx *ctx) {
    wb_sandbox want;
    const char *said = getenv("WB_SANDBOX_WANT");
    if (said && strcmp(said, "off") == 0) { /* its test ran with --no-sandbox */
        G.confined = 1;
        return;
    }
    if (wb_sandbox_parse(getenv("WB_SANDBOX_WANT"), &want) == 0)
        confine_or_fail(ctx, &want);
}

/* Runs one test body in this process, then ends it with WB_DONE_STATUS. */
void wb_run_body(int idx) {
    const wb_test *t = &G.lab->tests[idx];
    wb_ctx ctx = {idx, t, G.seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(idx + 1))};
    if (!G.run_body_mode)
        wb_record_child_start();
    if (G.gate[idx][0])
        wb_fail(&ctx, "%s", G.gate[idx]);
    if (!G.run_body_mode) {
        detach_inherited_fds();
        capture_output(idx);
        enter_sandbox(&ctx);
    } else
        enter_sandbox_under_tool(&ctx);
    if (t->needs_gpu && !G.run_body_mode)
        WB_CUDA(&ctx, cudaSetDevice(G.gpu.index));
    if (t->needs_gpu && G.sms_asked)
        wb_restrict_or_fail(&ctx);
    if (wb_is_asan(t))
        wb_asan_body(&ctx);
    else if (t->kind == WB_SANITIZER)
        wb_sanitizer_body(&ctx);
    else
        t->fn(&ctx);
    if (t->needs_gpu && t->kind != WB_SANITIZER)
        fail_if_cuda_error_pending(&ctx);
    if (!G.run_body_mode)
        wb_record_done(idx);
    fflush(NULL);
    /* skips atexit handlers and the student's destructors */
    _exit(G.run_body_mode ? G.body_done_status : WB_DONE_STATUS);
}

START_TEST(wb_dispatch) {
    wb_run_body(_i);
}
END_TEST

/* ------------------------------------------------------------ in the parent */

static void print_result(int i) {
    char buf[2048];
    if (!G.selected[i])
        return;
    wb_format_result(buf, sizeof buf, &G.res[i], G.color);
    printf("%s\n", buf);
    fflush(stdout);
}

/* Prints, in order, every decided (not run) test up to index upto. */
void wb_flush_decided(int upto) {
    for (; G.printed_upto < upto; G.printed_upto++)
        if (G.done[G.printed_upto])
            print_result(G.printed_upto);
}

static int current_idx = -1;

/* The test t names in .skip_with when it ended SKIP in this run, else -1:
 * t is then SKIP too, whatever its own process does (judge). Only that
 * test's verdict counts, and that test never runs the student's code. */
static int skipped_with(const wb_test *t) {
    int w = t->skip_with ? wb_find_test(t->skip_with) : -1;
    return w >= 0 && G.done[w] && G.selected[w] && G.res[w].verdict == WB_SKIP ? w : -1;
}

/* Before each test case, in the parent: which test it is (the cases run in
 * the order they were added), and whether its prerequisites passed. */
static void parent_setup(void) {
    int i = G.order[G.next_order++];
    current_idx = i;
    wb_flush_decided(i);
    const wb_test *t = &G.lab->tests[i];
    G.gate[i][0] = '\0';
    for (int j = 0; G.opt.first_fail && j < i && !G.gate[i][0]; j++)
        if (G.done[j] && G.selected[j] && G.res[j].verdict == WB_FAIL)
            snprintf(G.gate[i], sizeof G.gate[i], "%s%s failed first (--first-fail)",
                     WB_FIRST_FAIL_REASON, G.res[j].id);
    if (skipped_with(t) >= 0 && !G.gate[i][0]) /* its body stops before anything runs */
        snprintf(G.gate[i], sizeof G.gate[i], "not run: %s was skipped", t->skip_with);
    if (t->requires && !G.gate[i][0]) {
        char req[1024];
        snprintf(req, sizeof req, "%s", t->requires);
        for (char *s = NULL, *id = strtok_r(req, " ", &s); id; id = strtok_r(NULL, " ", &s)) {
            int j = wb_find_test(id); /* the table check guarantees an earlier test */
            if (!G.done[j] || G.res[j].verdict != WB_PASS) {
                snprintf(G.gate[i], sizeof G.gate[i],
                         "not graded: %s must pass first (%s points need a correct result)", id,
                         wb_kind_name(t->kind));
                break;
            }
        }
    }
    G.t_start = wb_now_s();
    /* Check's limit, then a grace period: the watchdog acts only when a
     * test escaped Check's kill (it left its process group). */
    double limit = (t->timeout_s > 0 ? t->timeout_s : 30) * G.timeout_mult;
    wb_watchdog_arm(limit + 5 + 0.25 * limit);
    wb_scratch_prepare(i);
    wb_cgroup_prepare(i);
    wb_record_open(); /* without one, the test has no record and fails as incomplete */
}

/* The verdict from Check's result and the test's record; escaped: the
 * watchdog had to kill the test past its time limit. */
static void judge(int i, TestResult *tr, int escaped) {
    const wb_test *t = &G.lab->tests[i];
    wb_result *r = &G.res[i];
    wb_record_summary s;
    wb_record_read(i, r, &s);
    int ok = !escaped && tr && tr_rtype(tr) == CK_PASS && s.complete && !s.has_reason;
    r->seconds = wb_now_s() - G.t_start;
    r->points = 0;
    int w = skipped_with(t);
    if (w >= 0) { /* decided by the runner, from that test's verdict alone */
        r->verdict = WB_SKIP;
        r->measured[0] = r->hint[0] = '\0';
        char why[sizeof r->reason]; /* a copy: r and G.res[w] are both in G */
        snprintf(why, sizeof why, "%s", G.res[w].reason);
        snprintf(r->reason, sizeof r->reason, "not graded: %s was skipped: %s", t->skip_with, why);
        return;
    }
    if (ok && s.skipped && !s.rerun && t->points == 0) {
        r->verdict = WB_SKIP; /* only a 0-point test may skip itself */
    } else if (ok && s.rerun && !s.skipped) {
        r->verdict = WB_RERUN; /* never points: at best a second run earns them */
    } else if (ok && !s.skipped && !s.rerun) {
        r->verdict = WB_PASS;
        r->points = t->points;
    } else {
        r->verdict = WB_FAIL;
        if (escaped) {
            wb_explain_abnormal("timeout", t, r->reason, sizeof r->reason);
            size_t used = strlen(r->reason);
            snprintf(r->reason + used, sizeof r->reason - used,
                     "; it had left its process group, and was killed with everything it "
                     "started");
        } else if (!s.has_reason)
            wb_explain_abnormal(tr ? tr_msg(tr) : "no result from Check", t, r->reason,
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
}

/* What a test printed (records/<idx>.out) may reach the file size limit (256 MiB): its first
 * OUTPUT_KEEP_MAX bytes are kept, then a line that says the rest was cut. */
#define OUTPUT_KEEP_MAX (1LL << 20)

static void cap_output(int i) {
    char out[PATH_MAX + 16], line[160];
    struct stat st;
    snprintf(out, sizeof out, "%s/%d.out", G.tmpdir, i);
    int fd = open(out, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > OUTPUT_KEEP_MAX &&
        ftruncate(fd, OUTPUT_KEEP_MAX) == 0) {
        int n = snprintf(line, sizeof line,
                         "\n[the grader kept the first %lld MiB of the %lld MiB printed]\n",
                         OUTPUT_KEEP_MAX >> 20, (long long)(st.st_size >> 20));
        ssize_t w = pwrite(fd, line, (size_t)n, OUTPUT_KEEP_MAX);
        (void)w;
    }
    close(fd);
}

static void parent_teardown(void) {
    int escaped = wb_watchdog_disarm();
    wb_cgroup_kill();
    wb_reap_leftovers();
    wb_record_close(); /* every process of the test is gone: the record is whole */
    int i = current_idx;
    char note[300], ncu_log[PATH_MAX + 32];
    /* ncu's log of the test (wb_run_self_under_ncu): its readings may answer
     * a question, so it does not outlive the test; one that holds no reading
     * and was named in a message was copied to the scratch folder
     * (wb_ncu_keep_log) and is published. */
    snprintf(ncu_log, sizeof ncu_log, "%s/ncu-t%d.log", G.tmpdir, i);
    unlink(ncu_log);
    wb_scratch_publish(i, note, sizeof note);
    cap_output(i);
    TestResult **all = srunner_results(G.sr);
    int n = srunner_ntests_run(G.sr);
    judge(i, n > 0 ? all[n - 1] : NULL, escaped);
    if (note[0]) { /* files removed unread: said, whatever the verdict */
        size_t used = strlen(G.res[i].reason);
        snprintf(G.res[i].reason + used, sizeof G.res[i].reason - used, "%s%s", used ? "; " : "",
                 note);
    }
    free(all);
    G.done[i] = 1;
    wb_flush_decided(i);
    print_result(i);
    G.printed_upto = i + 1;
}

/* A test decided without running: SKIP (no GPU, no tool) or FAIL (no build). */
static void decide(int i, wb_verdict v, const char *fmt, ...) {
    wb_result *r = &G.res[i];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
    r->verdict = v;
    r->points = 0;
    G.decided[i] = 1;
    G.done[i] = 1;
}

static int named_by_only(const char *id) {
    if (!G.opt.only)
        return 1;
    size_t n = strlen(id);
    for (const char *p = G.opt.only; (p = strstr(p, id)) != NULL; p += n)
        if ((p == G.opt.only || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Test i runs when --only names it, or names a test that is skipped with
 * it (.skip_with): that test must not run without the one that says
 * whether it can be graded. */
static int selected_by_only(int i) {
    const wb_lab *lab = G.lab;
    if (named_by_only(lab->tests[i].id))
        return 1;
    for (int j = i + 1; j < lab->n_tests; j++)
        if (lab->tests[j].skip_with && strcmp(lab->tests[j].skip_with, lab->tests[i].id) == 0 &&
            named_by_only(lab->tests[j].id))
            return 1;
    return 0;
}

/* With SMS=n: the first test t requires that was skipped for the
 * restriction (its id in why), or 0 when none was. */
static int restriction_skips_required(const wb_test *t, char *why, size_t cap) {
    if (!t->requires)
        return 0;
    char req[1024];
    snprintf(req, sizeof req, "%s", t->requires);
    for (char *s = NULL, *id = strtok_r(req, " ", &s); id; id = strtok_r(NULL, " ", &s)) {
        int j = wb_find_test(id);
        if (j >= 0 && G.restricted_out[j]) {
            snprintf(why, cap, "%s, which is not graded so", id);
            return 1;
        }
    }
    return 0;
}

/* Decides what can be decided without running, and adds one test case
 * for every other selected test. */
Suite *wb_build_check_suite(void) {
    const wb_lab *lab = G.lab;
    Suite *s = suite_create(lab->name);
    char tool[PATH_MAX], why[400];
    for (int i = 0; i < lab->n_tests; i++) {
        const wb_test *t = &lab->tests[i];
        wb_result *r = &G.res[i];
        snprintf(r->lab, sizeof r->lab, "%s", lab->name);
        snprintf(r->id, sizeof r->id, "%s", t->id);
        snprintf(r->kind, sizeof r->kind, "%s", wb_kind_name(t->kind));
        r->max_points = t->points;
        G.selected[i] = selected_by_only(i);
        if (!G.selected[i])
            continue;
        if (t->needs_gpu && !G.gpu_ok)
            decide(i, WB_SKIP, "needs a GPU, and none is usable here (see above)");
        else if (t->tool && !wb_find_tool(t->tool, tool, sizeof tool))
            decide(i, WB_SKIP, "%s not found (on PATH or in the CUDA Toolkit's bin)", t->tool);
        else if (wb_is_asan(t) && !wb_asan_usable(why, sizeof why))
            decide(i, WB_SKIP, "%s", why);
        else if (t->needs_gpu && G.sms_asked && t->unrestricted) {
            decide(i, WB_SKIP, "not graded with the GPU restricted to %d SMs (SMS=%d): %s",
                   G.sms_got, G.sms_asked, t->unrestricted);
            G.restricted_out[i] = 1;
        } else if (G.sms_asked && restriction_skips_required(t, why, sizeof why)) {
            decide(i, WB_SKIP, "not graded with the GPU restricted to %d SMs (SMS=%d): it needs %s",
                   G.sms_got, G.sms_asked, why);
            G.restricted_out[i] = 1;
        } else if (t->needs_student && !G.student_ok)
            decide(i, WB_FAIL, "%s", G.compile_error);
        if (G.decided[i])
            continue;
        TCase *tc = tcase_create(t->id);
        tcase_set_timeout(tc, t->timeout_s > 0 ? t->timeout_s : 30);
        tcase_add_unchecked_fixture(tc, parent_setup, parent_teardown);
        tcase_add_loop_exit_test(tc, wb_dispatch, WB_DONE_STATUS, i, i + 1);
        suite_add_tcase(s, tc);
        G.order[G.n_order++] = i;
    }
    return s;
}
