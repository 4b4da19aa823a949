/* grader_selftest.c - a lab made of framework cases, to test the grader's own verdict rules */
/* SPDX-License-Identifier: MIT */
#include "wb_grader.h"
#include "wb_timing.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void pass_body(wb_ctx *ctx) {
    wb_measured(ctx, "fine");
}
/* A figure without a unit (a count): its row of measurements.csv keeps the
 * empty unit column, so the limit and comparison stay in theirs. */
static void no_unit_body(wb_ctx *ctx) {
    wb_record(ctx, "count_no_unit", 16, "", 0, "ref");
    wb_measured(ctx, "16 counted");
}
static void fail_body(wb_ctx *ctx) {
    wb_fail(ctx, "expected 1, got 2");
}
static void skip_body(wb_ctx *ctx) {
    wb_skip(ctx, "counters unreadable here");
}
static void exit0_body(wb_ctx *ctx) {
    (void)ctx;
    exit(0);
}
static void exit_done_after_fail_body(wb_ctx *ctx) {
    /* A failure followed by an exit with any status stays a failure. */
    (void)ctx;
    printf("  PASS  fake 10/10\n");
    abort();
}
/* A speedup short of its limit by less than the noise of a busy GPU: RERUN,
 * no points. The same shortfall measured with a small spread: FAIL. */
static void timed_miss(wb_ctx *ctx, double ratio, double spread) {
    wb_ratio r = {0};
    r.ratio = ratio;
    r.spread = spread;
    r.inconclusive = wb_inconclusive(r.ratio, r.spread, 1.5);
    wb_rerun_if_inconclusive(ctx, &r, 1.5);
    if (!(r.ratio >= 1.5)) /* the graders' form: a ratio that is not a number fails */
        wb_fail(ctx, "speedup %.2fx, need >= 1.50x", r.ratio);
}
static void noisy_miss_body(wb_ctx *ctx) {
    timed_miss(ctx, 1.40, 0.15);
}
static void clear_miss_body(wb_ctx *ctx) {
    timed_miss(ctx, 1.40, 0.01);
}
static void nan_ratio_body(wb_ctx *ctx) {
    timed_miss(ctx, NAN, NAN);
}
/* A figure off the grader's: FAIL on an idle GPU (nvidia-smi lists no
 * other process, or is missing), RERUN on a shared one. */
static void disagree_body(wb_ctx *ctx) {
    wb_rerun_if_shared(ctx, "figure off");
    wb_fail(ctx, "figure off, on a GPU that %d other process(es) use", wb_gpu_others(NULL));
}
static void outdir_body(wb_ctx *ctx) {
    if (access(wb_out_dir(ctx), W_OK) != 0)
        wb_fail(ctx, "wb_out_dir %s is not writable", wb_out_dir(ctx));
}

/* Leaves a file for the student: published into the report folder, and
 * removed from it by the next run (scripts/test-grader.sh). */
static void publish_body(wb_ctx *ctx) {
    char path[4200];
    snprintf(path, sizeof path, "%s/left_by_self_publish.csv", wb_out_dir(ctx));
    FILE *f = fopen(path, "w");
    if (!f)
        wb_fail(ctx, "cannot write %s", path);
    fputs("x\n1\n", f);
    fclose(f);
}

/* Leaves its process group for the grader's, so Check's time limit (which
 * kills the test's group) misses it, then sleeps past that limit and
 * would pass: the grader's watchdog must kill it and fail the test. */
static void pgid_escape_body(wb_ctx *ctx) {
    (void)ctx;
    if (setpgid(0, getpgid(getppid())) != 0)
        fprintf(stderr, "refused: setpgid: %s\n", strerror(errno)); /* the sandbox's seccomp */
    fflush(stderr);
    sleep(30);
}

/* A chain of 100 processes, each the child of the one before, in sessions
 * of their own; the last would write a file three seconds later. All must
 * be killed with the test. */
static void fork_chain_body(wb_ctx *ctx) {
    char path[4200];
    snprintf(path, sizeof path, "%s/escaped-chain", wb_out_dir(ctx));
    for (int depth = 0; depth < 100; depth++) {
        pid_t pid = fork();
        if (pid != 0) {
            if (depth == 0)
                return; /* the test itself ends at once */
            pause();    /* every link of the chain waits */
            _exit(0);
        }
        setsid();
    }
    sleep(3);
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
    _exit(0);
}

/* Reports what wb_prediction read, as a failure so the words reach the TSV. */
static void prediction_body(wb_ctx *ctx) {
    double v;
    char said[64];
    if (wb_prediction(ctx, "predict_x_speedup", &v, said, sizeof said))
        wb_fail(ctx, "prediction %g from \"%s\"", v, said);
    wb_fail(ctx, "no prediction");
}

/* Forges the next test's record as code under test could: a record file
 * that says the test is done and passed, and a child that outlives this
 * test writing the same into every descriptor it inherited. The next test
 * (self.forged, which fails) must still fail. */
static void forge_body(wb_ctx *ctx) {
    char path[4200];
    const char forged[] = "measured\tforged\ndone\t1\n";
    for (int i = 0; i < 64; i++) {
        snprintf(path, sizeof path, "%s/records/%d.rec", wb_out_dir(ctx), i);
        FILE *f = fopen(path, "w");
        if (f) {
            fputs(forged, f);
            fclose(f);
        }
    }
    if (fork() == 0) {
        usleep(300000); /* the next test has started */
        for (int fd = 3; fd < 256; fd++) {
            ssize_t w = write(fd, forged, sizeof forged - 1);
            (void)w;
        }
        _exit(0);
    }
}

/* Forges its own verdict as code under test could: "done" into every pipe
 * it holds (the record channel among them), then the kit's exit status,
 * before anything is checked. It must fail, as forged. */
static void forge_own_body(wb_ctx *ctx) {
    (void)ctx;
    const char forged[] = "measured\tforged\ndone\t1\n";
    for (int fd = 3; fd < 1024; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
            ssize_t w = write(fd, forged, sizeof forged - 1);
            (void)w;
        }
    }
    _exit(93);
}

/* Leaves a child behind, in a session of its own, that would write a file
 * two seconds later; the grader must kill it with its test. */
static void fork_body(wb_ctx *ctx) {
    char path[4200];
    snprintf(path, sizeof path, "%s/escaped-child", wb_out_dir(ctx));
    if (fork() == 0) {
        setsid(); /* leaves the test's process group */
        sleep(2);
        FILE *f = fopen(path, "w");
        if (f)
            fclose(f);
        _exit(0);
    }
}

/* The body runs again under a "tool" (env, which only runs what follows it),
 * in a fresh grader process: the child sees that it runs under a tool and
 * this run's seed, and its output lands in the log. */
static void run_under_body(wb_ctx *ctx) {
    if (wb_under_tool(ctx)) {
        printf("child: under a tool, SEED=%s\n", getenv("SEED") ? getenv("SEED") : "unset");
        fflush(stdout);
        return;
    }
    char log[4200], want[64], line[256];
    snprintf(log, sizeof log, "%s/under.log", wb_out_dir(ctx));
    const char *argv[] = {"/usr/bin/env", NULL};
    int st = wb_run_self_under(ctx, argv, "WB_SELFTEST_EXTRA=1", log);
    snprintf(want, sizeof want, "child: under a tool, SEED=%s", getenv("SEED") ? getenv("SEED") : "");
    FILE *f = fopen(log, "r");
    int seen = 0;
    while (f && fgets(line, sizeof line, f))
        seen |= strstr(line, "child: under a tool, SEED=") != NULL;
    if (f)
        fclose(f);
    if (!seen)
        wb_fail(ctx, "the body run under a tool wrote no line to its log (exit status %d): %s", st,
                log);
    wb_measured(ctx, "the body ran under a tool (exit status %d), its output in the log", st);
}

/* ncu's --csv output as it prints it, read back for one metric of one
 * kernel: quoted fields, a value with a thousands separator, a closed-counters
 * line, and the grader's own exit status that is no error. */
static void ncu_read_body(wb_ctx *ctx) {
    char log[4200];
    snprintf(log, sizeof log, "%s/ncu.log", wb_out_dir(ctx));
    FILE *f = fopen(log, "w");
    if (!f)
        wb_fail(ctx, "cannot write %s", log);
    fputs("==PROF== Connected to process 1\n"
          "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
          "\"0\",\"1\",\"base_kernel(float *, int)\",\"m.x\",\"%\",\"0\"\n"
          "\"1\",\"1\",\"void student_kernel<4>(float *)\",\"m.y\",\"\",\"7\"\n"
          "\"1\",\"1\",\"void student_kernel<4>(float *)\",\"m.x\",\"warp\",\"1,234.5\"\n"
          "==ERROR== The application returned an error code (93).\n",
          f);
    fclose(f);
    wb_ncu_reading base, other, none;
    wb_ncu_read(log, "m.x", "base_kernel", NULL, &base);
    wb_ncu_read(log, "m.x", NULL, "base_kernel", &other);
    wb_ncu_read(log, "m.z", NULL, NULL, &none);
    if (!base.found || base.value != 0 || !other.found || other.value != 1234.5 ||
        strstr(other.kernel, "student_kernel") == NULL || none.found || base.error[0] ||
        base.no_permission)
        wb_fail(ctx,
                "read %d %g, %d %g (%s), %d; error \"%s\", closed %d: expected 1 0, 1 1234.5 "
                "(student_kernel), 0; no error, open",
                base.found, base.value, other.found, other.value, other.kernel, none.found,
                base.error, base.no_permission);
    wb_measured(ctx, "one metric per kernel read from ncu's CSV");
}

/* A family of ncu's readings (wb_ncu_read_family) from its --csv output:
 * the members of the first launch of a kernel only (a later launch's, and
 * another kernel's, left out, though its rows come between), "n/a" no
 * reading, thousands separators, names of other families and an empty
 * member left out; then members found by every spelling a student may use. */
#define STALL_PREFIX "smsp__average_warps_issue_stalled_"
#define STALL_SUFFIX "_per_issue_active.ratio"
#define FAMILY_ROW(id_, kernel_, metric_, value_)                                                  \
    "\"" id_ "\",\"1\",\"" kernel_ "\",\"" metric_ "\",\"\",\"" value_ "\"\n"
#define BASE "base_kernel(float *, int)"
static const char *const family_log[] = {
    "\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n",
    FAMILY_ROW("0", BASE, "dram__bytes.sum", "12"),
    FAMILY_ROW("0", BASE, STALL_PREFIX "long_scoreboard" STALL_SUFFIX, "1,234.5"),
    FAMILY_ROW("0", BASE, STALL_PREFIX "dispatch_stall" STALL_SUFFIX, "2"),
    FAMILY_ROW("0", BASE, STALL_PREFIX "barrier" STALL_SUFFIX, "n/a"),
    FAMILY_ROW("0", BASE, STALL_PREFIX STALL_SUFFIX, "9"),
    FAMILY_ROW("0", BASE, "smsp__warp_issue_stalled_wait_per_warp_active.pct", "7"),
    FAMILY_ROW("0", BASE, STALL_PREFIX "wait" STALL_SUFFIX ".max", "7"),
    FAMILY_ROW("1", "void student_kernel<4>(float *)", STALL_PREFIX "wait" STALL_SUFFIX, "5"),
    FAMILY_ROW("2", BASE, STALL_PREFIX "short_scoreboard" STALL_SUFFIX, "3"),
    FAMILY_ROW("0", BASE, STALL_PREFIX "wait" STALL_SUFFIX, "4"),
};
static void ncu_family_body(wb_ctx *ctx) {
    char log[4200];
    snprintf(log, sizeof log, "%s/ncu.log", wb_out_dir(ctx));
    FILE *f = fopen(log, "w");
    if (!f)
        wb_fail(ctx, "cannot write %s", log);
    for (size_t k = 0; k < sizeof family_log / sizeof family_log[0]; k++)
        fputs(family_log[k], f);
    fclose(f);
    wb_ncu_family base, other, none;
    int n = wb_ncu_read_family(log, STALL_PREFIX, STALL_SUFFIX, "base_kernel", NULL, &base);
    wb_ncu_read_family(log, STALL_PREFIX, STALL_SUFFIX, NULL, "base_kernel", &other);
    wb_ncu_read_family(log, STALL_PREFIX, STALL_SUFFIX, "no_kernel", NULL, &none);
    char got[300] = "";
    for (int k = 0; k < base.n; k++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s=%g ", base.m[k].name,
                 base.m[k].value);
    if (n != 3 || strcmp(got, "long_scoreboard=1234.5 dispatch_stall=2 wait=4 ") != 0 ||
        other.n != 1 || strcmp(other.m[0].name, "wait") != 0 || other.m[0].value != 5 ||
        none.n != 0 || none.kernel[0] || !strstr(base.kernel, "base_kernel"))
        wb_fail(ctx,
                "read %d: %s; the other kernel %d (%s %g), none %d (\"%s\"): expected 3: "
                "long_scoreboard=1234.5 dispatch_stall=2 wait=4; 1 (wait 5), 0",
                n, got, other.n, other.n ? other.m[0].name : "", other.n ? other.m[0].value : 0,
                none.n, none.kernel);
    /* How students write a member: metric spelling, whole name, section label. */
    static const struct {
        const char *answer;
        int want;
    } spell[] = {{"long_scoreboard", 0},
                 {"Long Scoreboard", 0},
                 {"Stall Long Scoreboard", 0},
                 {STALL_PREFIX "long_scoreboard" STALL_SUFFIX, 0},
                 {"dispatch_stall", 1},
                 {"Stall Dispatch", 1},
                 {"Stall Dispatch Stall", 1},
                 {"STALL WAIT", 2},
                 {"wait:", 2},
                 {"barrier", -1},
                 {"short_scoreboard", -1},
                 {"scoreboard", -1},
                 {"stall", -1},
                 {"", -1}};
    for (size_t k = 0; k < sizeof spell / sizeof spell[0]; k++)
        if (wb_ncu_family_find(&base, spell[k].answer) != spell[k].want)
            wb_fail(ctx, "\"%s\" found as member %d, expected %d", spell[k].answer,
                    wb_ncu_family_find(&base, spell[k].answer), spell[k].want);
    wb_measured(ctx,
                "one launch's family of metrics read from ncu's CSV, its members found by name");
}

/* A question on the largest of a family of ncu's readings
 * (wb_ncu_judge_top), set up as lab 09's question.my_top_stall_best: the
 * stall reasons of one launch of key's kernel, "selected" left out, the
 * plain kernel's the other kernel's, the percents the other unit. The
 * stand-in ncu of scripts/test-grader.sh writes the readings; only it
 * knows m.x, so with any other ncu, or none, the probe and these skip. */
static const wb_ncu_left_out stall_left_out[] = {
    {"selected", "selected is 1 cycle per issued instruction by definition (the issue itself, "
                 "not a stall), so it is left out"},
    {NULL, NULL}};
static void ncu_top_judge(wb_ctx *ctx, const char *key, const char *kernel) {
    if (wb_under_tool(ctx))
        return;
    wb_ncu_logs logs;
    const char *opts[] = {"--csv", "--metrics",
                          "m.x,regex:" STALL_PREFIX ".*_per_issue_active\\.ratio,"
                          "regex:smsp__warp_issue_stalled_.*_per_warp_active\\.pct",
                          NULL};
    wb_run_self_under_ncu(ctx, opts, NULL, &logs);
    wb_ncu_family fam, plain, pct;
    wb_ncu_read_family(logs.ncu, STALL_PREFIX, STALL_SUFFIX, kernel, NULL, &fam);
    wb_ncu_read_family(logs.ncu, STALL_PREFIX, STALL_SUFFIX, "plain_kernel", NULL, &plain);
    wb_ncu_read_family(logs.ncu, "smsp__warp_issue_stalled_", "_per_warp_active.pct", kernel, NULL,
                       &pct);
    const wb_ncu_top q = {.key = key,
                          .what = "the largest stall reason and its cycles",
                          .unit = "cycles",
                          .readme = "the self-test",
                          .tol = 0.20,
                          .floor = 0.3,
                          .family = &fam,
                          .left_out = stall_left_out,
                          .other = &plain,
                          .other_whose = "the plain kernel's",
                          .other_unit = &pct,
                          .other_unit_what = "a percent of active cycles, not cycles per issued "
                                             "instruction"};
    wb_ncu_judge_top(ctx, &q);
}
static void ncu_top_body(wb_ctx *ctx) {
    ncu_top_judge(ctx, "self_top", "best_kernel");
}
/* Here "selected" reads more than any stall: left out all the same. */
static void ncu_top_low_body(wb_ctx *ctx) {
    ncu_top_judge(ctx, "self_top_low", "low_kernel");
}

/* ncu's results as it prints them, in each layout, and logs of its
 * messages alone. The kernel's name, held_kernel, is in the readings only:
 * scripts/test-grader.sh finds it nowhere in the report folder. */
#define NCU_CSV_HEADER                                                                             \
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","            \
    "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric "         \
    "Name\",\"Metric Unit\",\"Metric Value\"\n"
#define NCU_CSV_ROW                                                                                \
    "\"0\",\"4242\",\"grade\",\"127.0.0.1\",\"held_kernel(float *, int)\",\"1\",\"7\",\"(256, "    \
    "1, 1)\",\"(132, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",\"m.x\",\"%\","       \
    "\"12.50\"\n"
#define NCU_DOTS_80                                                                                \
    "................................................................................"
#define NCU_DOTS_640                                                                               \
    NCU_DOTS_80 NCU_DOTS_80 NCU_DOTS_80 NCU_DOTS_80 NCU_DOTS_80 NCU_DOTS_80 NCU_DOTS_80 NCU_DOTS_80
#define NCU_DOTS_5120                                                                              \
    NCU_DOTS_640 NCU_DOTS_640 NCU_DOTS_640 NCU_DOTS_640 NCU_DOTS_640 NCU_DOTS_640 NCU_DOTS_640     \
        NCU_DOTS_640
#define NCU_CONNECTED "==PROF== Connected to process 4242 (/opt/lab/grade)\n"
#define NCU_DISCONNECTED "==PROF== Disconnected from process 4242\n"
#define NCU_REFUSAL                                                                                \
    "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "         \
    "Performance Counters on the target device 0. For instructions on enabling permissions and "   \
    "to get more information see https://developer.nvidia.com/ERR_NVGPUCTRPERM\n"
static const struct ncu_shape {
    const char *what, *text;
    int held; /* 1: it holds readings, and is never published */
} ncu_shapes[] = {
    {"--csv, details page", NCU_CONNECTED NCU_CSV_HEADER NCU_CSV_ROW NCU_DISCONNECTED, 1},
    {"--csv, the header alone", NCU_CSV_HEADER, 1},
    {"--csv --page raw",
     "\"ID\",\"Process ID\",\"Kernel Name\",\"m.x\"\n\"\",\"\",\"\",\"%\"\n"
     "\"0\",\"4242\",\"held_kernel(float *, int)\",\"12.50\"\n",
     1},
    {"plain tables",
     NCU_CONNECTED
     "==PROF== Profiling \"held_kernel\": 0%....50%....100% - 1 pass\n" NCU_DISCONNECTED
     "[4242] grade@127.0.0.1\n"
     "  held_kernel(float *, int) (132, 1, 1)x(256, 1, 1), Context 1, Stream 7, "
     "Device 0, CC 9.0\n"
     "    Section: Command line profiler metrics\n"
     "    ----------------------- ----------- ------------\n"
     "    Metric Name             Metric Unit Metric Value\n"
     "    ----------------------- ----------- ------------\n"
     "    m.x                               %        12.50\n",
     1},
    {"an error, then a reading of another kernel (CRLF)",
     "==ERROR== Failed to profile \"other_kernel\"\r\n" NCU_CSV_HEADER NCU_CSV_ROW, 1},
    {"a message longer than 4 KiB", "==WARNING== " NCU_DOTS_5120 "\n", 0},
    {"no kernel profiled",
     NCU_CONNECTED NCU_DISCONNECTED "\n==WARNING== No kernels were profiled.\n", 0},
    {"an error", NCU_CONNECTED "==ERROR== Failed to profile kernel\n" NCU_DISCONNECTED, 0},
    {"empty", "", 0},
    /* last: the copy left published, which scripts/test-grader.sh reads */
    {"the counters closed",
     NCU_CONNECTED NCU_REFUSAL NCU_DISCONNECTED
     "==ERROR== The application returned an error code (93).\n"
     "==WARNING== No kernels were profiled.\n",
     0},
};

/* A NUL does not hide the rest of its line (len: the text's bytes). */
#define NCU_NUL_LINE "==PROF== Connected\0    m.x   %   12.50 held_kernel\n"

/* Writes len bytes of text as ncu's log, has wb_ncu_keep_log name it, and
 * fails unless a log that holds readings (held) was kept back with
 * WB_NCU_LOG_HELD and one of messages alone was published as written. */
static void ncu_keep_check(wb_ctx *ctx, const char *what, const char *text, size_t len, int held) {
    char copy[4200], got[8192];
    wb_ncu_logs logs;
    snprintf(logs.ncu, sizeof logs.ncu, "%s/ncu_shape.log", wb_out_dir(ctx));
    snprintf(logs.app, sizeof logs.app, "%s/ncu_shape.out.log", wb_out_dir(ctx));
    snprintf(copy, sizeof copy, "%s/self.ncu_keep.ncu.log", wb_out_dir(ctx));
    FILE *f = fopen(logs.ncu, "w");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
        wb_fail(ctx, "cannot write %s", logs.ncu);
    int holds = wb_ncu_holds_readings(logs.ncu);
    const char *kept = wb_ncu_keep_log(ctx, &logs);
    f = fopen(copy, "r");
    int published = f != NULL;
    size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    got[n] = '\0';
    if (f)
        fclose(f);
    int as_written = published && n == len && memcmp(got, text, len) == 0;
    unlink(logs.ncu); /* its readings are published by no one */
    if (holds != held || (held && (published || strcmp(kept, WB_NCU_LOG_HELD) != 0)) ||
        (!held && (!as_written || !strstr(kept, "/self.ncu_keep.ncu.log"))))
        wb_fail(
            ctx,
            "ncu's log (%s): holds readings %d, expected %d; wb_ncu_keep_log said \"%s\" and %s",
            what, holds, held, kept,
            !published   ? "published none"
            : as_written ? "published it"
                         : "published something else");
}

/* wb_ncu_keep_log on each shape of ncu's log: one that holds readings is
 * never published (WB_NCU_LOG_HELD, no <id>.ncu.log), whoever calls it;
 * one of messages alone is, as written; without a log, it says so. */
static void ncu_keep_body(wb_ctx *ctx) {
    char copy[4200];
    wb_ncu_logs logs;
    snprintf(logs.ncu, sizeof logs.ncu, "%s/no_such.log", wb_out_dir(ctx));
    snprintf(logs.app, sizeof logs.app, "%s/no_such.out.log", wb_out_dir(ctx));
    snprintf(copy, sizeof copy, "%s/self.ncu_keep.ncu.log", wb_out_dir(ctx));
    const char *kept = wb_ncu_keep_log(ctx, &logs);
    if (!strstr(kept, "ncu wrote no log") || access(copy, F_OK) == 0)
        wb_fail(ctx, "without a log, wb_ncu_keep_log said \"%s\"%s", kept,
                access(copy, F_OK) == 0 ? " and published a copy" : "");
    ncu_keep_check(ctx, "a message with a NUL in it, then a reading on its line", NCU_NUL_LINE,
                   sizeof NCU_NUL_LINE - 1, 1);
    size_t n_shapes = sizeof ncu_shapes / sizeof ncu_shapes[0];
    for (size_t k = 0; k < n_shapes; k++)
        ncu_keep_check(ctx, ncu_shapes[k].what, ncu_shapes[k].text, strlen(ncu_shapes[k].text),
                       ncu_shapes[k].held);
    wb_measured(ctx, "%zu shapes of ncu's log: those of messages alone published, the others not",
                n_shapes + 1);
}

/* A lab's 0-point probe of ncu (lab 05's ncu.achieved, lab 09's ncu.plain):
 * ncu reads metric m.x of this body, run again under it; SKIP where the
 * counters are closed or ncu gave no reading. Only a stand-in ncu
 * (scripts/test-grader.sh) knows m.x: with any other, or none, it skips. */
static void ncu_probe_body(wb_ctx *ctx) {
    if (wb_under_tool(ctx))
        return;
    wb_ncu_logs logs;
    const char *opts[] = {"--csv", "--metrics", "m.x", NULL};
    int st = wb_run_self_under_ncu(ctx, opts, NULL, &logs);
    wb_ncu_reading r;
    wb_ncu_read(logs.ncu, "m.x", NULL, NULL, &r);
    /* Named in every message, whatever ncu said: the kit publishes it only
     * where it holds no reading (ncu's refusal, an error). */
    const char *kept = wb_ncu_keep_log(ctx, &logs);
    wb_ncu_skip_if_closed(ctx, &r, kept);
    if (!r.found)
        wb_skip(ctx, "ncu gave no reading of m.x (exit status %d)%s%s; ncu's log: %s", st,
                r.error[0] ? ": " : "", r.error, kept);
    wb_measured(ctx, "ncu read m.x; ncu's log: %s", kept);
}

/* Text a hostile test could put in its record (it can write the channel as it likes): a
 * terminal escape that would clear the screen and print a fake verdict over this test's line,
 * an 8-bit CSI, a bidirectional override, bytes that are no UTF-8 and a sequence cut short.
 * The console, results.json, the TSV and measurements.csv must show none of it raw. */
#define RAW_TEXT                                                                                   \
    "\033[2J\033[1A\r  PASS  self.raw_text 9/9 \302\23331m \342\200\256evil \377\376\t|\342\202"
static void raw_text_body(wb_ctx *ctx) {
    wb_record(ctx, "raw," RAW_TEXT, 1, RAW_TEXT, 0, "ge\x1b[0m");
    wb_measured(ctx, "%s", RAW_TEXT);
    wb_hint(ctx, "%s", RAW_TEXT);
    wb_fail(ctx, "%s", RAW_TEXT);
}

/* Host code of a student's library (tests/asan_fixture.c; scripts/test-grader.sh passes it as
 * --student), called as a test calls a lab's functions: each gives 0 + 1 + 2 + 3 = 6 for 4. */
static void host_call(wb_ctx *ctx, const char *sym) {
    int (*f)(int) = (int (*)(int))wb_student_sym(ctx, sym);
    int got = f(4);
    if (got != 6)
        wb_fail(ctx, "%s(4) = %d, expected 6", sym, got);
    wb_measured(ctx, "%s(4) = 6", sym);
}
static void host_clean_body(wb_ctx *ctx) {
    host_call(ctx, "fixture_clean");
}
static void host_heap_body(wb_ctx *ctx) {
    host_call(ctx, "fixture_heap_past_end");
}
static void host_stack_body(wb_ctx *ctx) {
    host_call(ctx, "fixture_stack_below");
}

#define T(id_, kind_, pts_, fn_, ...)                                                              \
    {.id = id_, .kind = kind_, .points = pts_, .timeout_s = 10, .fn = fn_, .hint = "hint text",   \
     __VA_ARGS__}
/* A graded measurement must carry its limit's derivation (the table check). */
#define LIMIT .limit = {"speedup >= 1.5x", "a rule of the self-test", "none measured"}
static const wb_test tests[] = {
    T("self.pass", WB_CORRECTNESS, 3, pass_body),
    T("self.fail", WB_CORRECTNESS, 3, fail_body),
    T("self.skip_zero_points", WB_PERFORMANCE, 0, skip_body),
    T("self.skip_with_points", WB_CORRECTNESS, 4, skip_body),
    T("self.exit0", WB_CORRECTNESS, 2, exit0_body),
    T("self.abort", WB_CORRECTNESS, 2, exit_done_after_fail_body),
    T("self.gated", WB_PERFORMANCE, 5, pass_body, .requires = "self.fail", LIMIT),
    T("self.ungated", WB_PERFORMANCE, 5, pass_body, .requires = "self.pass", LIMIT),
    T("self.outdir", WB_CORRECTNESS, 1, outdir_body),
    T("self.publish", WB_CORRECTNESS, 1, publish_body),
    T("self.noisy_miss", WB_PERFORMANCE, 6, noisy_miss_body, LIMIT),
    T("self.clear_miss", WB_PERFORMANCE, 6, clear_miss_body, LIMIT),
    T("self.nan_ratio", WB_PERFORMANCE, 6, nan_ratio_body, LIMIT),
    T("self.disagree", WB_CORRECTNESS, 2, disagree_body),
    T("self.fork", WB_CORRECTNESS, 1, fork_body),
    T("self.prediction", WB_CORRECTNESS, 1, prediction_body),
    {.id = "self.pgid_escape", .kind = WB_CORRECTNESS, .points = 1, .timeout_s = 2,
     .fn = pgid_escape_body},
    T("self.fork_chain", WB_CORRECTNESS, 1, fork_chain_body),
    T("self.run_under", WB_CORRECTNESS, 1, run_under_body),
    T("self.ncu_read", WB_CORRECTNESS, 1, ncu_read_body),
    T("self.ncu_family", WB_CORRECTNESS, 1, ncu_family_body),
    T("self.ncu_keep", WB_CORRECTNESS, 1, ncu_keep_body),
    T("self.forge", WB_CORRECTNESS, 1, forge_body),
    T("self.forged", WB_CORRECTNESS, 1, fail_body),
    T("self.forge_own", WB_CORRECTNESS, 1, forge_own_body),
    T("self.raw_text", WB_CORRECTNESS, 1, raw_text_body),
    /* .skip_with: SKIP decided by the runner where the named 0-point test skipped, the body not
     * run (a body that would pass stays SKIP); where that test ran, a self-skip with points
     * still fails. */
    T("self.probe_skips", WB_PERFORMANCE, 0, skip_body),
    T("self.skipped_with", WB_CORRECTNESS, 4, pass_body, .skip_with = "self.probe_skips"),
    T("self.probe_runs", WB_PERFORMANCE, 0, pass_body),
    T("self.not_skipped_with", WB_CORRECTNESS, 2, skip_body, .skip_with = "self.probe_runs"),
    /* Points that rest on ncu's counters, skipped with a probe that has ncu read them (a
     * stand-in ncu in scripts/test-grader.sh): closed or broken, SKIP unrun; open, they run. */
    {.id = "self.ncu_probe", .kind = WB_PERFORMANCE, .points = 0, .timeout_s = 60,
     .fn = ncu_probe_body, .tool = "ncu", .hint = "hint text"},
    T("self.counters", WB_QUESTION, 2, pass_body, .tool = "ncu", .skip_with = "self.ncu_probe"),
    T("self.counters_fail", WB_QUESTION, 2, fail_body, .tool = "ncu",
      .skip_with = "self.ncu_probe"),
    /* The largest of a family of ncu's readings, named and read (wb_ncu_judge_top). */
    T("self.ncu_top", WB_QUESTION, 1, ncu_top_body, .tool = "ncu", .skip_with = "self.ncu_probe"),
    T("self.ncu_top_low", WB_QUESTION, 1, ncu_top_low_body, .tool = "ncu",
      .skip_with = "self.ncu_probe"),
    T("self.no_unit", WB_CORRECTNESS, 1, no_unit_body),
    WB_QUESTION_HASH("self_question", 2, 0x1ULL, "a question no answer can match"),
    {.id = "self.gpu", .kind = WB_CORRECTNESS, .points = 1, .needs_gpu = 1, .timeout_s = 10,
     .fn = pass_body},
    /* AddressSanitizer over the fixture's host code: each body passes as it is, and the runs
     * again with the library built for ASan catch the write past the heap block and the one
     * below the stack array; over several bodies, the first that errs is named. */
    T("self.host_clean", WB_CORRECTNESS, 1, host_clean_body, .needs_student = 1),
    T("self.host_heap", WB_CORRECTNESS, 1, host_heap_body, .needs_student = 1),
    T("self.host_stack", WB_CORRECTNESS, 1, host_stack_body, .needs_student = 1),
    WB_ASAN_OF("self.asan_clean", 1, "self.host_clean"),
    WB_ASAN_OF("self.asan_heap", 1, "self.host_heap"),
    WB_ASAN_OF("self.asan_stack", 1, "self.host_stack"),
    WB_ASAN_OF("self.asan_all", 1, "self.host_clean self.host_heap self.host_stack"),
};

WB_LAB_MAIN(tests)
