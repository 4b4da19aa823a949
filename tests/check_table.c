/* check_table.c - the grader kit refuses a bad test table before any test runs: every refusal */
/* SPDX-License-Identifier: MIT */
#include "wb_grader.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void body(wb_ctx *ctx) {
    (void)ctx;
}
static void open_fn(wb_ctx *ctx, wb_perf_run *run) {
    (void)ctx;
    (void)run;
}
static void hook(wb_ctx *ctx, void *arg) {
    (void)ctx;
    (void)arg;
}

static const wb_perf good_perf = {.metric = "x", .limit = 1.5, .baseline = "the baseline",
                                  .size = "n = 1", .derivation = "why", .figures = "measured",
                                  .advice = "do better", .open = open_fn, .poison = hook,
                                  .check = hook};
static const wb_perf no_derivation = {.metric = "x", .limit = 1.5, .baseline = "the baseline",
                                      .size = "n = 1", .advice = "do better", .open = open_fn,
                                      .poison = hook, .check = hook};
static const wb_perf nan_limit = {.metric = "x", .limit = __builtin_nan(""), .baseline = "b",
                                  .size = "n = 1", .derivation = "why", .figures = "measured",
                                  .advice = "a", .open = open_fn, .poison = hook, .check = hook};

#define LAB(t) {"99-table", "table.cu", "99-table/v1", t, (int)(sizeof t / sizeof t[0])}

/* Validates lab; expects at least one problem, the first naming row `row`
 * and containing words. */
static void refused(const wb_lab *lab, int row, const char *words) {
    char err[4096], where[32];
    int n = wb_lab_validate(lab, err, sizeof err);
    ck_assert_msg(n > 0, "the table was accepted; expected \"%s\"", words);
    snprintf(where, sizeof where, "row %d (", row);
    ck_assert_msg(strstr(err, where) != NULL, "expected a problem in row %d, got: %s", row, err);
    ck_assert_msg(strstr(err, words) != NULL, "expected \"%s\", got: %s", words, err);
}

/* Question rows point at file-scope compound literals: their tables live there too. */
static const wb_test good[] = {
    WB_GPU("correct.a", 5, body),
    WB_PERF("perf.a", 10, good_perf, .requires = "correct.a"),
    WB_SANITIZER_OF("sanitizer.a", 2, "memcheck", "correct.a"),
    WB_QUESTION_HASH("q1", 2, 0x1234ULL, "a question"),
    WB_MEASURE("measure.info", 0, body),
    WB_MEASURE("check.rate", 3, body, .limit = {"rate >= 0.5 of peak", "why", "measured"}),
    WB_MEASURE_OWN("ncu.probe", body),
    WB_GPU("correct.read", 2, body, .skip_with = "ncu.probe"),
    WB_HOST("correct.host", 2, body),
    WB_ASAN_OF("sanitizer.host", 2, "correct.host"),
    WB_ASAN_OF("sanitizer.host_gpu", 2, "correct.host correct.a", .needs_gpu = 1),
};
static const wb_test question_without_hash[] = {WB_QUESTION_HASH("q1", 2, 0, "a question")};

START_TEST(test_good_table_accepted) {
    wb_lab lab = LAB(good);
    char err[4096];
    ck_assert_msg(wb_lab_validate(&lab, err, sizeof err) == 0, "refused: %s", err);
}
END_TEST

/* Each table below is refused, the first problem in the row named and
 * containing the words. Question rows point at file-scope compound
 * literals, so the tables live at file scope. */
static const wb_test unknown_requires[] = {WB_GPU("correct.a", 5, body),
                                WB_PERF("perf.a", 10, good_perf, .requires = "correct.b")};
static const wb_test later_requires[] = {WB_PERF("perf.a", 10, good_perf, .requires = "correct.a"),
                                WB_GPU("correct.a", 5, body)};
static const wb_test self_requires[] = {WB_GPU("correct.a", 5, body, .requires = "correct.a")};
static const wb_test duplicate_id[] = {WB_GPU("correct.a", 5, body), WB_HOST("correct.a", 5, body)};
static const wb_test bad_id[] = {WB_GPU("Correct-A", 5, body)};
static const wb_test no_points[] = {WB_GPU("correct.a", 0, body)};
static const wb_test no_body[] = {WB_GPU("correct.a", 5, NULL)};
static const wb_test perf_without_derivation[] = {WB_PERF("perf.a", 10, no_derivation)};
static const wb_test perf_nan_limit[] = {WB_PERF("perf.a", 10, nan_limit)};
static const wb_test measurement_without_limit[] = {WB_MEASURE("measure.rate", 4, body)};
static const wb_test check_without_limit[] = {WB_GPU("check.rate", 4, body)};
static const wb_test limit_without_figures[] = {WB_GPU("correct.a", 4, body, .limit = {"exact", "why", NULL})};
static const wb_test sanitizer_unknown_target[] = {WB_GPU("correct.a", 5, body),
                                WB_SANITIZER_OF("sanitizer.a", 2, "memcheck", "correct.b")};
static const wb_test sanitizer_unknown_tool[] = {WB_GPU("correct.a", 5, body),
                                WB_SANITIZER_OF("sanitizer.a", 2, "leakcheck", "correct.a")};
/* AddressSanitizer's targets: earlier tests that run the student's code untimed, a GPU declared
 * where one needs it. */
static const wb_test asan_unknown_target[] = {WB_HOST("correct.a", 5, body),
                                WB_ASAN_OF("sanitizer.host", 2, "correct.a correct.b")};
static const wb_test asan_no_target[] = {WB_ASAN_OF("sanitizer.host", 2, "")};
static const wb_test asan_timed_target[] = {WB_GPU("correct.a", 5, body),
                                WB_PERF("perf.a", 10, good_perf, .requires = "correct.a"),
                                WB_ASAN_OF("sanitizer.host", 2, "perf.a", .needs_gpu = 1)};
static const wb_test asan_gpu_undeclared[] = {WB_GPU("correct.a", 5, body),
                                WB_ASAN_OF("sanitizer.host", 2, "correct.a")};
static const wb_test asan_of_sanitizer[] = {WB_GPU("correct.a", 5, body),
                                WB_SANITIZER_OF("sanitizer.a", 2, "memcheck", "correct.a"),
                                WB_ASAN_OF("sanitizer.host", 2, "sanitizer.a", .needs_gpu = 1)};
/* skip_with: an earlier test, worth 0 points, that never runs the student's code. */
static const wb_test skip_with_unknown[] = {WB_GPU("correct.a", 5, body, .skip_with = "ncu.probe")};
static const wb_test skip_with_points[] = {WB_GPU("correct.a", 5, body),
                                WB_GPU("correct.b", 5, body, .skip_with = "correct.a")};
static const wb_test skip_with_student[] = {WB_MEASURE("ncu.probe", 0, body),
                                WB_GPU("correct.b", 5, body, .skip_with = "ncu.probe")};

typedef struct refusal {
    wb_lab lab;
    int row;
    const char *words;
} refusal;
#define REFUSAL(t, row_, words_) {LAB(t), row_, words_}
static const refusal refusals[] = {
    REFUSAL(unknown_requires, 2, "requires \"correct.b\", which is no earlier test"),
    REFUSAL(later_requires, 1, "(it comes later)"),
    REFUSAL(self_requires, 1, "requires itself"),
    REFUSAL(duplicate_id, 2, "used twice (first in row 1)"),
    REFUSAL(bad_id, 1, "not of the form group.name"),
    REFUSAL(no_points, 1, "must be worth points"),
    REFUSAL(no_body, 1, "no body"),
    REFUSAL(perf_without_derivation, 1, "no derivation"),
    REFUSAL(perf_nan_limit, 1, "not a positive number"),
    REFUSAL(measurement_without_limit, 1, "a graded measurement needs .limit"),
    REFUSAL(check_without_limit, 1, "a graded measurement needs .limit"),
    REFUSAL(limit_without_figures, 1, "no derivation or no figures"),
    REFUSAL(question_without_hash, 1, "a hashed question needs"),
    REFUSAL(sanitizer_unknown_target, 2, "its target \"correct.b\" is no earlier test"),
    REFUSAL(sanitizer_unknown_tool, 2, "is not memcheck, racecheck"),
    REFUSAL(asan_unknown_target, 2, "its target \"correct.b\" is no earlier test"),
    REFUSAL(asan_no_target, 1, "asan needs its targets"),
    REFUSAL(asan_timed_target, 3, "its target perf.a is timed"),
    REFUSAL(asan_gpu_undeclared, 2, "its target correct.a needs a GPU: declare .needs_gpu = 1"),
    REFUSAL(asan_of_sanitizer, 3, "its target sanitizer.a is not a test whose body runs"),
    REFUSAL(skip_with_unknown, 1, "skip_with \"ncu.probe\" is no earlier test"),
    REFUSAL(skip_with_points, 2, "must be worth 0 points and never run the student's code"),
    REFUSAL(skip_with_student, 2, "must be worth 0 points and never run the student's code"),
};

START_TEST(test_refusals) {
    refused(&refusals[_i].lab, refusals[_i].row, refusals[_i].words);
}
END_TEST

/* The grader itself refuses to start on such a table: exit status 2, the
 * row named on stderr, no report written. */
START_TEST(test_grader_refuses_to_start) {
    static const wb_test t[] = {WB_GPU("correct.a", 5, body),
                                WB_PERF("perf.a", 10, good_perf, .requires = "corect.a")};
    static const wb_lab lab = LAB(t);
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], STDERR_FILENO);
        close(fd[0]);
        char *argv[] = {"grade", "--report-dir", "/nonexistent/report", NULL};
        _exit(wb_grader_main(3, argv, &lab));
    }
    close(fd[1]);
    char buf[2048] = "";
    ssize_t n = read(fd[0], buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 2, "exit status %d, expected 2",
                  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    ck_assert_msg(strstr(buf, "row 2 (perf.a): requires \"corect.a\"") != NULL, "stderr: %s", buf);
}
END_TEST

/* A bad environment variable is an error naming it, exit status 2. */
START_TEST(test_bad_environment) {
    static const char *vars[][2] = {{"SEED", "abc"},
                                    {"SEED", "-3"},
                                    {"SEED", "99999999999999999999999"},
                                    {"DEVICE", "abc"},
                                    {"CK_TIMEOUT_MULTIPLIER", "0"},
                                    {"CK_TIMEOUT_MULTIPLIER", "fast"},
                                    {"CK_RUN_CASE", "correct.a"}};
    static const wb_test t[] = {WB_GPU("correct.a", 5, body)};
    static const wb_lab lab = LAB(t);
    for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++) {
        int fd[2];
        ck_assert_int_eq(pipe(fd), 0);
        pid_t pid = fork();
        if (pid == 0) {
            dup2(fd[1], STDERR_FILENO);
            close(fd[0]);
            setenv(vars[k][0], vars[k][1], 1);
            char *argv[] = {"grade", "--list", NULL};
            _exit(wb_grader_main(2, argv, &lab));
        }
        close(fd[1]);
        char buf[2048] = "";
        ssize_t n = read(fd[0], buf, sizeof buf - 1);
        buf[n > 0 ? n : 0] = '\0';
        close(fd[0]);
        int st;
        waitpid(pid, &st, 0);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 2, "%s=%s: exit status %d, expected 2",
                      vars[k][0], vars[k][1], WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        char want[64];
        snprintf(want, sizeof want, "%s=%s", vars[k][0], vars[k][1]);
        ck_assert_msg(strstr(buf, want) != NULL, "%s: stderr does not name it: %s", want, buf);
    }
}
END_TEST

static Suite *table_suite(void) {
    Suite *s = suite_create("table");
    TCase *tc = tcase_create("refusals");
    tcase_add_test(tc, test_good_table_accepted);
    tcase_add_loop_test(tc, test_refusals, 0, (int)(sizeof refusals / sizeof refusals[0]));
    tcase_add_test(tc, test_grader_refuses_to_start);
    tcase_add_test(tc, test_bad_environment);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(table_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
