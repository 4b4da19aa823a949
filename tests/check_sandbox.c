/* check_sandbox.c - the test sandbox's seccomp filter alone, as on a kernel without Landlock's
 * scopes */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t helper_tid;
static void *helper(void *arg) {
    (void)arg;
    helper_tid = (pid_t)syscall(SYS_gettid);
    pause();
    return NULL;
}

/* Before Linux 6.12 only seccomp keeps a test's signals in: this process plays the grader (a
 * thread of its own, like the watchdog), its child the test, confined without Landlock. Signal
 * 0 to the grader, to its thread (kill() given a thread's id signals the whole process), to
 * the process above the grader and to its group must be refused; the test's own process and
 * children stay reachable. Each refusal missing sets one bit of the child's exit status. */
START_TEST(test_signals_stay_in) {
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, helper, NULL), 0);
    while (!helper_tid)
        usleep(1000);
    pid_t above = getppid(), pid = fork();
    if (pid == 0) {
        wb_sandbox got;
        memset(&got, 0, sizeof got);
        wb_sandbox_confine(-1, 1, 0, &got);
        int bits = !got.seccomp;
        bits |= (kill(getppid(), 0) == 0 || errno != EPERM) << 1;
        bits |= (kill(helper_tid, 0) == 0 || errno != EPERM) << 2;
        bits |= (syscall(SYS_tkill, helper_tid, 0) == 0 || errno != EPERM) << 3;
        bits |= (kill(above, 0) == 0 || errno != EPERM) << 4;
        bits |= (kill(-getpgrp(), 0) == 0 || errno != EPERM) << 5;
        bits |= (kill(getpid(), 0) != 0) << 6;
        pid_t own = fork();
        if (own == 0) {
            pause();
            _exit(0);
        }
        bits |= (own < 0 || kill(own, SIGKILL) != 0) << 7;
        _exit(bits);
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                  "the confined child got through (bits: 1 no seccomp, 2 grader, 4 grader's "
                  "thread, 8 tkill of it, 16 the process above, 32 its group, 64 itself, 128 its "
                  "child): %d",
                  WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}
END_TEST

int main(void) {
    Suite *s = suite_create("sandbox");
    TCase *tc = tcase_create("signals");
    tcase_add_test(tc, test_signals_stay_in);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_FORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
