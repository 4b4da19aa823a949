/* main.c - the grader's main: environment, table check, GPU probe, the run, reports */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"
#include "wb_clocks.h"
#include "wb_driver.h"
#include "wb_ledger.h"

#include <cuda_runtime_api.h>

#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* git describe of the grader's source, and the workbook's top folder it was
 * built in, from the build (version.c). */
extern const char wb_grader_version[];
extern const char wb_workbook_root[];

wb_state wb_G;

/* The header's clocks line, from the GPU probe. */
static char clocks_line[320];

/* In the probe's process (CUDA is safe there): the chosen GPU's clocks now,
 * for the header, or why NVML cannot give them. Never fails the probe. */
static void probe_clocks(char *line, size_t cap) {
    wb_clocks c;
    wb_clock_sample s;
    char d[256];
    if (wb_clocks_open_current(&c) != 0) {
        snprintf(line, cap, "clocks: %s", c.why);
        return;
    }
    if (wb_clocks_sample(&c, &s) == 0) {
        wb_clocks_describe(&s, d, sizeof d);
        snprintf(line, cap, "clocks (NVML): %s", d);
    } else
        snprintf(line, cap, "clocks: NVML did not report this GPU's clocks");
    wb_clocks_close(&c);
}

/* Asks a child process which GPU to use: the parent must never call CUDA,
 * since a CUDA context does not survive fork(). */
static void probe_gpu(void) {
    int fd[2];
    struct {
        int err, sms_got, sms_err;
        wb_gpu gpu;
        char why[256], sms_why[256];
        char clocks[sizeof clocks_line];
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
        /* SMS=n: can the driver confine work to n SMs here, and to how many? */
        if (!msg.err && G.sms_asked)
            msg.sms_err = wb_green_restrict(msg.gpu.index, G.sms_asked, &msg.sms_got,
                                            msg.sms_why, sizeof msg.sms_why);
        if (!msg.err)
            probe_clocks(msg.clocks, sizeof msg.clocks);
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
    G.sms_got = msg.sms_got;
    snprintf(clocks_line, sizeof clocks_line, "%s", msg.clocks);
    if (G.gpu_ok && G.sms_asked && msg.sms_err) {
        /* Grading the whole GPU when fewer SMs were asked for would mislead. */
        fprintf(stderr, "grader: SMS=%d: %s\n", G.sms_asked, msg.sms_why);
        exit(2);
    }
    snprintf(G.gpu_why, sizeof G.gpu_why, "%s", msg.why);
}

/* Runs cmd and keeps the first line of its output in out ("" when none). */
static void first_line_of(const char *cmd, char *out, size_t cap) {
    out[0] = '\0';
    FILE *p = popen(cmd, "r");
    if (!p)
        return;
    if (!fgets(out, (int)cap, p))
        out[0] = '\0';
    out[strcspn(out, "\n")] = '\0';
    while (fgetc(p) != EOF)
        ;
    pclose(p);
}

/* Warns when other processes hold the GPU: their load skews timings. The
 * forked tests inherit the count (wb_gpu_others). */
static void warn_other_processes(void) {
    FILE *p = popen("nvidia-smi --query-compute-apps=pid,process_name --format=csv,noheader "
                    "2>/dev/null",
                    "r");
    if (!p)
        return;
    char line[256], first[256] = "";
    int n = 0;
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

static void first_compile_error(void) {
    snprintf(G.compile_error, sizeof G.compile_error,
             "%s/%s did not build, so its tests cannot run", G.opt.set, G.lab->source);
    if (!G.opt.build_log)
        return;
    FILE *f = fopen(G.opt.build_log, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        /* A compiler's error, or the words of one stopped by the build's memory limit. */
        if (strcasestr(line, "error:") || strstr(line, "error ") || strstr(line, "out of memory")) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(G.compile_error, sizeof G.compile_error,
                     "the lab did not compile: %.250s (full log: %s)", line, G.opt.build_log);
            break;
        }
    }
    if (f)
        fclose(f);
}

/* The header's ledger line: is this GPU model benched in ledger/ (of the
 * workbook the grader was built in, or, when that folder is gone, of the
 * top folder it runs in), with every limit of this lab clear? Never fails. */
static void print_validated(void) {
    char dir[PATH_MAX], line[1024];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/ledger", wb_workbook_root);
    if ((stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) && stat("ledger", &st) == 0 &&
        S_ISDIR(st.st_mode))
        snprintf(dir, sizeof dir, "ledger");
    const char *ids[WB_MAX_TESTS];
    int n = 0;
    for (int i = 0; i < G.lab->n_tests && n < WB_MAX_TESTS; i++)
        ids[n++] = G.lab->tests[i].id;
    wb_ledger_validated_tests(dir, G.gpu.name, G.sms_asked, G.lab->name, ids, n, line,
                              sizeof line);
    printf("  %s\n", line);
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
        char cmd[128];
        snprintf(cmd, sizeof cmd,
                 "nvidia-smi --query-gpu=driver_version --format=csv,noheader -i %d 2>/dev/null",
                 G.gpu.index);
        first_line_of(cmd, G.driver, sizeof G.driver);
        printf("  %s: %d SMs, SM clock %d MHz, memory clock %d MHz x %d bits, driver %s "
               "(CUDA %d.%d), runtime %d.%d\n",
               G.gpu_why, G.gpu.sm_count, G.gpu.sm_clock_khz / 1000, G.gpu.mem_clock_khz / 1000,
               G.gpu.bus_width_bits, G.driver[0] ? G.driver : "?", G.gpu.driver_version / 1000,
               G.gpu.driver_version % 1000 / 10, G.gpu.runtime_version / 1000,
               G.gpu.runtime_version % 1000 / 10);
        if (G.sms_asked)
            printf("  restricted: every test runs on %d of the %d SMs (a green context, SMS=%d); "
                   "the runtime still reports %d\n",
                   G.sms_got, G.gpu.sm_count, G.sms_asked, G.gpu.sm_count);
        print_validated();
        /* What the clocks are as grading starts (NVML), or once why that is unknown. */
        if (clocks_line[0])
            printf("  %s\n", clocks_line);
    } else
        printf("  %s: tests that need a GPU are skipped\n", G.gpu_why);
    char sandbox[900];
    if (G.opt.no_sandbox)
        snprintf(sandbox, sizeof sandbox,
                 "  sandbox: OFF (--no-sandbox: tests run unconfined, to measure what the sandbox "
                 "costs; never grade students so)");
    else
        wb_sandbox_describe(&G.sandbox, sandbox, sizeof sandbox);
    printf("%s\n", sandbox);
    printf("  set %s, seed %llu (SEED=%llu repeats this run)\n", G.opt.set,
           (unsigned long long)G.seed, (unsigned long long)G.seed);
    fflush(stdout);
}

static void run_info(wb_run_info *info) {
    memset(info, 0, sizeof *info);
    snprintf(info->lab, sizeof info->lab, "%s", G.lab->name);
    snprintf(info->set, sizeof info->set, "%s", G.opt.set);
    snprintf(info->gpu, sizeof info->gpu, "%s", G.gpu_ok ? G.gpu.name : "no GPU");
    if (G.gpu_ok)
        snprintf(info->arch, sizeof info->arch, "sm_%d%d", G.gpu.cc_major, G.gpu.cc_minor);
    info->sm_count = G.gpu_ok ? G.gpu.sm_count : 0;
    snprintf(info->driver, sizeof info->driver, "%s", G.driver);
    if (G.gpu_ok) {
        snprintf(info->cuda_driver, sizeof info->cuda_driver, "%d.%d", G.gpu.driver_version / 1000,
                 G.gpu.driver_version % 1000 / 10);
        snprintf(info->cuda_runtime, sizeof info->cuda_runtime, "%d.%d",
                 G.gpu.runtime_version / 1000, G.gpu.runtime_version % 1000 / 10);
    }
    info->seed = G.seed;
    snprintf(info->grader_version, sizeof info->grader_version, "%s", wb_grader_version);
    info->other_processes = G.others;
}

static int write_reports(int *score, int *total, int *skipped, int *rerun) {
    char path[PATH_MAX + 32], out[600];
    *score = *total = *skipped = *rerun = 0;
    int n = 0;
    static wb_result kept[WB_MAX_TESTS];
    for (int i = 0; i < G.lab->n_tests; i++) {
        if (!G.selected[i])
            continue;
        kept[n++] = G.res[i];
        *score += G.res[i].points;
        *total += G.res[i].max_points;
        if (G.res[i].verdict == WB_SKIP)
            *skipped += G.res[i].max_points;
        if (G.res[i].verdict == WB_RERUN)
            *rerun += G.res[i].max_points;
    }
    snprintf(out, sizeof out, "%s on %s; seed %llu%s", G.lab->name,
             G.gpu_ok ? G.gpu.name : "no GPU", (unsigned long long)G.seed,
             G.opt.no_sandbox ? "; sandbox OFF (--no-sandbox)" : "");
    wb_run_info info;
    run_info(&info);
    snprintf(path, sizeof path, "%s/results.json", G.report_dir);
    return wb_results_json_write(path, kept, n, out, &info);
}

/* --run-body ID: one test's body in this process, for a tool (compute-sanitizer, ncu). */
static int run_one_body(void) {
    int i = wb_find_test(G.opt.run_body);
    if (i < 0) {
        fprintf(stderr, "no test %s\n", G.opt.run_body);
        return 2;
    }
    snprintf(G.report_dir, sizeof G.report_dir, "%s", G.opt.report_dir);
    snprintf(G.tmpdir, sizeof G.tmpdir, "%s/records", G.report_dir);
    /* A process of its own already: the GPU is chosen here, not in a probe. */
    G.gpu_ok = wb_gpu_select(&G.gpu, G.gpu_why, sizeof G.gpu_why) == 0;
    wb_run_body(i); /* does not return */
}

/* The report folder, its records folder (emptied) and the measurements CSV. */
static int open_reports(void) {
    char path[PATH_MAX + 32];
    snprintf(G.report_dir, sizeof G.report_dir, "%s", G.opt.report_dir);
    if (wb_mkdir_p(G.report_dir) != 0) {
        fprintf(stderr, "grader: cannot create %s\n", G.report_dir);
        return -1;
    }
    snprintf(G.tmpdir, sizeof G.tmpdir, "%s/records", G.report_dir);
    wb_unpublish_previous();
    wb_remove_tree(G.tmpdir);
    wb_mkdir_p(G.tmpdir);
    snprintf(path, sizeof path, "%s/measurements.csv", G.report_dir);
    G.csv = fopen(path, "w");
    if (G.csv) {
        const char *hdr[] = {"lab",  "set",   "test",       "metric", "value",
                             "unit", "limit", "comparison", "gpu",    "seed"};
        wb_csv_row(G.csv, 10, hdr);
        fflush(G.csv); /* nothing buffered may be inherited by the forked tests */
    }
    return 0;
}

/* The answers and the student's library are found from the top folder
 * unless named: say so plainly when the grader runs elsewhere. */
static int check_where(const wb_options *given) {
    char dir[PATH_MAX];
    struct stat st;
    snprintf(dir, sizeof dir, "%s/%s", G.opt.set, G.lab->name);
    if ((given->answers && given->student) || stat(dir, &st) == 0)
        return 0;
    fprintf(stderr,
            "grader: no folder %s here: run the grader from the workbook's top folder (make "
            "grade does), or name --student, --answers and --report-dir\n",
            dir);
    return -1;
}

int wb_grader_main(int argc, char **argv, const wb_lab *lab) {
    G.record_fd = -1; /* no record channel until a test has one */
    G.lab = lab;
    if (wb_parse_options(argc, argv, &G.opt) != 0 || wb_read_environment() != 0)
        return 2;
    char err[4096];
    int problems = wb_lab_validate(lab, err, sizeof err);
    if (problems) {
        fprintf(stderr, "grader: the test table of %s is refused (%d problem%s):\n%s",
                lab->name ? lab->name : "this lab", problems, problems == 1 ? "" : "s", err);
        return 2;
    }
    wb_options given = G.opt;
    wb_default_paths(&G.opt, lab->name);
    if (G.opt.list || G.opt.limits) {
        if (G.opt.list)
            wb_list_tests();
        else
            wb_list_limits(G.opt.limits_tsv);
        return 0;
    }
    G.run_body_mode = G.opt.run_body != NULL;
    G.body_done_status = getenv("WB_TOOL_CHILD") ? WB_DONE_STATUS : 0;
    if (G.run_body_mode)
        return run_one_body();
    if (check_where(&given) != 0)
        return 2;
    G.color = wb_color_enabled(stdout);
    prctl(PR_SET_CHILD_SUBREAPER, 1); /* orphans of the tests come back to us (wb_reap_leftovers) */
    probe_gpu();
    struct stat st;
    G.student_ok = stat(G.opt.student, &st) == 0;
    if (!G.student_ok)
        first_compile_error();
    if (open_reports() != 0)
        return 2;
    if (G.opt.no_sandbox)
        memset(&G.sandbox, 0, sizeof G.sandbox);
    else {
        wb_sandbox_probe(&G.sandbox);
        G.sandbox.cgroup =
            wb_cgroup_probe(G.sandbox.why_cgroup, sizeof G.sandbox.why_cgroup) == 0;
    }
    print_header();
    if (G.gpu_ok)
        warn_other_processes();
    G.sr = srunner_create(wb_build_check_suite());
    srunner_set_fork_status(G.sr, CK_FORK); /* never from CK_FORK in the environment */
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/check.tap", G.report_dir);
    srunner_set_tap(G.sr, path);
    srunner_run_all(G.sr, CK_SILENT);
    wb_flush_decided(lab->n_tests);
    srunner_free(G.sr);
    if (G.csv)
        fclose(G.csv);
    int score, total, skipped, rerun;
    write_reports(&score, &total, &skipped, &rerun);
    printf("%s: %d/%d", lab->name, score, total);
    if (skipped)
        printf(" (%d points not graded: skipped)", skipped);
    if (rerun)
        printf(" (%d points inconclusive: the GPU was busy; grade again when it is idle)", rerun);
    printf("\n");
    return score == total ? 0 : 1;
}
