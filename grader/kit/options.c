/* options.c - the grader's command line, its environment, and the paths it reads and writes */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"
#include "wb_env.h"
#include "wb_rng.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The source set this grader was linked for ("labs" or "solutions"):
 * build_set.c, compiled once per set with -DWB_BUILD_SET. */
extern const char wb_build_set[];

static void usage(const char *prog) {
    fprintf(stderr,
            "usage: %s [--set labs|solutions] [--student lib.so] [--student-asan lib.asan.so] "
            "[--answers file] "
            "[--build-log file] [--report-dir dir] [--only id,id] [--first-fail] [--no-sandbox] "
            "[--list] [--limits [--tsv]]\n"
            "  --student-asan: the library built with -fsanitize=address (WB_ASAN_OF tests); "
            "by default the --student library's name with .asan.so for .so\n"
            "  --only: the tests named, each with the 0-point test it is skipped with "
            "(.skip_with)\n"
            "  --first-fail: once a test fails, the rest fail without running (make mutate)\n"
            "  --no-sandbox: tests run unconfined, to measure what the sandbox costs; never for "
            "grading (the header and results.json say so)\n"
            "  environment: SEED=n, DEVICE=n, CK_TIMEOUT_MULTIPLIER=k, NO_COLOR\n",
            prog);
}

int wb_parse_options(int argc, char **argv, wb_options *o) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = strcmp(a, "--set") == 0          ? &o->set
                            : strcmp(a, "--student") == 0    ? &o->student
                            : strcmp(a, "--student-asan") == 0 ? &o->student_asan
                            : strcmp(a, "--answers") == 0    ? &o->answers
                            : strcmp(a, "--build-log") == 0  ? &o->build_log
                            : strcmp(a, "--report-dir") == 0 ? &o->report_dir
                            : strcmp(a, "--only") == 0       ? &o->only
                            : strcmp(a, "--run-body") == 0   ? &o->run_body
                                                             : NULL;
        if (strcmp(a, "--list") == 0) {
            o->list = 1;
        } else if (strcmp(a, "--limits") == 0) {
            o->limits = 1;
        } else if (strcmp(a, "--tsv") == 0) {
            o->limits_tsv = 1;
        } else if (strcmp(a, "--first-fail") == 0) {
            o->first_fail = 1;
        } else if (strcmp(a, "--no-sandbox") == 0) {
            o->no_sandbox = 1;
        } else if (slot && v) {
            *slot = v;
            i++;
        } else {
            usage(argv[0]);
            return -1;
        }
    }
    if (o->set && strcmp(o->set, "labs") != 0 && strcmp(o->set, "solutions") != 0) {
        fprintf(stderr, "--set %s: expected labs or solutions\n", o->set);
        return -1;
    }
    return 0;
}

/* Every variable is checked before anything runs; a bad one is an error
 * that names it (exit status 2), never a silent default. */
int wb_read_environment(void) {
    char err[512];
    if (wb_env_check_grader(err, sizeof err) != 0) {
        fprintf(stderr, "grader: %s\n", err);
        return -1;
    }
    G.timeout_mult = 1.0;
    wb_env_double("CK_TIMEOUT_MULTIPLIER", 0.01, 1000, &G.timeout_mult, NULL, err, sizeof err);
    G.seed = wb_rng_seed_from_env();
    unsigned long long sms = 0;
    if (wb_env_ull("SMS", 1, 1024, &sms, NULL, err, sizeof err) > 0)
        G.sms_asked = (int)sms;
    return 0;
}

/* Defaults, relative to the workbook's top folder, where `make grade` runs
 * the graders: the student library build/<set>/<lab>/libstudent.so and its
 * AddressSanitizer build beside it (libstudent.asan.so: the library's name
 * with .asan.so for .so, as the Makefile names every such build), the
 * answers <set>/<lab>/answers.txt, the reports build/report/<set>/<lab>/. */
void wb_default_paths(wb_options *o, const char *lab) {
    static char student[PATH_MAX], asan[PATH_MAX + 16], answers[PATH_MAX], report[PATH_MAX];
    if (!o->set)
        o->set = wb_build_set;
    if (!o->student) {
        snprintf(student, sizeof student, "build/%s/%s/libstudent.so", o->set, lab);
        o->student = student;
    }
    if (!o->student_asan) {
        size_t n = strlen(o->student);
        if (n >= 3 && strcmp(o->student + n - 3, ".so") == 0)
            n -= 3;
        snprintf(asan, sizeof asan, "%.*s.asan.so", (int)n, o->student);
        o->student_asan = asan;
    }
    if (!o->answers) {
        snprintf(answers, sizeof answers, "%s/%s/answers.txt", o->set, lab);
        o->answers = answers;
    }
    if (!o->report_dir) {
        snprintf(report, sizeof report, "build/report/%s/%s", o->set, lab);
        o->report_dir = report;
    }
}

int wb_mkdir_p(const char *path) {
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
