/* kit.h - what the grader kit's own files share: the run's state and their internal calls */
/* SPDX-License-Identifier: MIT */
#ifndef WB_KIT_H
#define WB_KIT_H

#include "wb_answers.h"
#include "wb_grader.h"
#include "wb_report.h"

#include <check.h>
#include <limits.h>

/* A test body that returned normally ends its process with this status;
 * Check counts the test as passed only then (tcase_add_loop_exit_test). */
#define WB_DONE_STATUS 93
/* compute-sanitizer's exit status when it found errors. */
#define WB_SANITIZER_STATUS 86
/* AddressSanitizer's exit status when it found an error (its exitcode option, asan.c). */
#define WB_ASAN_STATUS 87
#define WB_MAX_TESTS 128

struct wb_ctx {
    int idx;
    const wb_test *t;
    uint64_t seed;
};

/* The reason of a test --first-fail did not run, up to the failed test's id. */
#define WB_FIRST_FAIL_REASON "not run: "
/* The command line (options.c). */
typedef struct wb_options {
    const char *set, *student, *answers, *build_log, *report_dir, *only, *run_body;
    const char *student_asan; /* the student's library built for AddressSanitizer */
    int list, limits, limits_tsv;
    int first_fail; /* --first-fail: every test after the first FAIL fails unrun */
    int no_sandbox; /* --no-sandbox: tests unconfined, to measure the sandbox's cost */
} wb_options;

/* What a record says about one finished test (record.c). */
typedef struct wb_record_summary {
    int complete, has_reason, skipped, rerun;
} wb_record_summary;

/* What a test's process got of the sandbox (sandbox.c): 1 where on. */
typedef struct wb_sandbox {
    int landlock_abi, fs, scoped, tcp, seccomp, limits, nproc;
    int reads;       /* Landlock confines reads too (sandbox.c, allow_reads) */
    char why_reads[200];
    int cuda_err;    /* the probe: CUDA's error starting inside the sandbox (0: none) */
    int cgroup;      /* each test runs in a cgroup of its own, killed as a whole */
    char why_cgroup[200];
    int no_landlock; /* the probe: CUDA starts only without Landlock here */
    char why_fs[200], why_seccomp[200];
} wb_sandbox;

/* Everything the parent decides before and during the run. The children
 * inherit it when Check forks them; they never write back except through
 * their record and their exit status. */
typedef struct wb_state {
    const wb_lab *lab;
    wb_options opt;
    int gpu_ok;
    wb_gpu gpu;
    char gpu_why[256]; /* how the device was chosen, or why none is usable */
    int sms_asked;     /* SMS=n: every test confined to n SMs (0: the whole GPU) */
    int sms_got;       /* what the driver granted (a multiple of its partition) */
    char driver[64];   /* the driver's version, from nvidia-smi */
    int others;        /* other processes on a GPU when grading began (nvidia-smi) */
    char other[256];   /* the first of them: "pid, name" */
    uint64_t seed;
    double timeout_mult; /* CK_TIMEOUT_MULTIPLIER, validated */
    char tmpdir[PATH_MAX + 16];
    char report_dir[PATH_MAX];
    SRunner *sr;
    int student_ok;
    char compile_error[400];
    /* per test */
    int selected[WB_MAX_TESTS];
    int decided[WB_MAX_TESTS]; /* SKIP/FAIL without running */
    int restricted_out[WB_MAX_TESTS]; /* SKIP: not graded with the GPU restricted (SMS=n) */
    char gate[WB_MAX_TESTS][300]; /* prerequisite failed: reason */
    wb_result res[WB_MAX_TESTS];
    int done[WB_MAX_TESTS];
    int order[WB_MAX_TESTS]; /* the tests handed to Check, in order */
    int n_order, next_order;
    double t_start;
    int printed_upto;
    int color;
    FILE *csv;
    int run_body_mode;
    /* How a body run with --run-body ends when it completes: WB_DONE_STATUS
     * where this grader ran it under a tool (WB_TOOL_CHILD set, so code that
     * exits early cannot pass for complete), 0 where a person ran it (ncu
     * on the command line would call 93 an error). */
    int body_done_status;
    int record_fd; /* the running test's record channel (write end); -1: none */
    void *student_handle;
    wb_answers answers;
    int answers_loaded;
    wb_sandbox sandbox; /* what the parent's probe got: every test must get as much */
    int confined;       /* this process is confined: student code may load */
} wb_state;

extern wb_state wb_G;
#define G wb_G

/* record.c: the channel from a test's process to the parent. */
void wb_record_put(int idx, const char *key, const char *value);
/* The record's last line, "done" with the running test's key: only the kit
 * writes it, when the body has finished. */
void wb_record_done(int idx);
void wb_record_put_fields(int idx, const char *key, int n, const char *const *fields);
int wb_record_open(void);
void wb_record_close(void);
void wb_record_child_start(void);
void wb_record_read(int idx, wb_result *r, wb_record_summary *s);

/* runner.c: the Check suite, and what the parent does around each test. */
void wb_run_body(int idx) __attribute__((noreturn));
Suite *wb_build_check_suite(void);
void wb_flush_decided(int upto);
int wb_find_test(const char *id);

/* proc.c: process control. */
void wb_reap_leftovers(void);
/* A thread that kills the test's whole process tree by pid once seconds
 * have passed; disarm returns 1 when it fired. */
void wb_watchdog_arm(double seconds);
int wb_watchdog_disarm(void);
void wb_explain_abnormal(const char *msg, const wb_test *t, char *out, size_t cap);
/* A cgroup per test where one can be made (proc.c): probe once (0: usable,
 * else why not), make before each test, enter in the test's process, kill
 * everything in it after. */
int wb_cgroup_probe(char *why, size_t cap);
void wb_cgroup_prepare(int idx);
int wb_cgroup_enter(void);
void wb_cgroup_kill(void);
double wb_now_s(void);

/* tool.c: the sanitizer tests' body. */
void wb_sanitizer_body(wb_ctx *ctx);
/* Runs the body of test id again in a fresh process of this grader: argv_tool (NULL or
 * NULL-terminated: a tool and its options) then the grader with this run's options, student as
 * its library and --run-body id, with env ("NAME=value" entries, NULL-terminated; may be NULL)
 * added to SEED and WB_TOOL_CHILD; output to log. The exit status, or -1 when it could not start. */
int wb_run_self_body(const char *id, const char *const *argv_tool, const char *student,
                     const char *const *env, const char *log);

/* asan.c: AddressSanitizer over the host code of the student's library (WB_ASAN_OF). */
int wb_is_asan(const wb_test *t);
/* The parent, before the run: 1 when the ASan runs can be made here; else 0, with why (and the
 * fix) in why: no libasan, an address space limit, a kernel that does not overcommit. */
int wb_asan_usable(char *why, size_t cap);
/* The path of libasan the children preload: WB_LIBASAN, else the one the grader was built
 * with (gcc -print-file-name=libasan.so); "" when neither names a file. */
const char *wb_asan_runtime(void);
void wb_asan_body(wb_ctx *ctx);
/* What an AddressSanitizer report says, read from the log of a run. */
typedef struct wb_asan_report {
    int found;          /* an "ERROR: AddressSanitizer: <kind>" line */
    int no_start;       /* ASan could not start (shadow memory, library order): setup, not code */
    char kind[80];      /* "heap-buffer-overflow", "stack-buffer-underflow", "SEGV" */
    char access[48];    /* "WRITE of size 4"; "READ" for a SEGV */
    char where[200];    /* the first frame in code with lines: "latency_model.cu:212 in f" */
    char located[160];  /* "0 bytes to the right of 16-byte region", "'ms' (line 3) ..." */
    char origin[200];   /* "allocated at latency_model.cu:209 in f" (or freed at) */
    char first[200];    /* the first line ASan printed with ERROR (or the startup failure) */
} wb_asan_report;
void wb_asan_parse(const char *log, wb_asan_report *r);
/* One sentence of the report, for a failure: "heap-buffer-overflow: a WRITE of size 4 at ..." */
void wb_asan_describe(const wb_asan_report *r, char *out, size_t cap);

/* options.c: command line, environment, paths. */
int wb_parse_options(int argc, char **argv, wb_options *o);
int wb_read_environment(void);
void wb_default_paths(wb_options *o, const char *lab);
int wb_mkdir_p(const char *path);

/* limits.c: --list and --limits. */
void wb_list_tests(void);
void wb_list_limits(int tsv);

const char *wb_kind_name(wb_kind k);

void wb_restrict_or_fail(wb_ctx *ctx);

/* sandbox.c: a test's process enters it before any student code runs. */
void wb_sandbox_prepare(int idx, wb_sandbox *sb);
int wb_sandbox_confine(int idx, int no_landlock, int reads, wb_sandbox *sb);
void wb_sandbox_said(const wb_sandbox *sb, char *out, size_t cap);
int wb_sandbox_parse(const char *said, wb_sandbox *sb);
void wb_sandbox_probe(wb_sandbox *sb);
void wb_sandbox_missing(const wb_sandbox *want, const wb_sandbox *got, char *out, size_t cap);
void wb_sandbox_describe(const wb_sandbox *sb, char *out, size_t cap);
/* records/t<idx>/ (records/probe for idx < 0): the only folder a test writes. */
void wb_scratch_dir(int idx, char *out, size_t cap);
/* Parent: empties a test's scratch folder before it runs; copies the files
 * it left for the student into the report folder after, unless they pass the
 * limits of what a test may leave (then they are removed, and note, else "",
 * says so for the test's reason). */
void wb_scratch_prepare(int idx);
void wb_scratch_publish(int idx, char *note, size_t cap);
/* Removes the files an earlier run published into the report folder (and
 * only those), so that a picture or table left by an earlier run is never
 * taken for this one's. */
void wb_unpublish_previous(void);
/* Removes a folder and everything beneath it, never following a link, however deep. */
void wb_remove_tree(const char *path);
#endif
