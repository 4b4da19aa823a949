/* proc.c - process control: kill what a test left behind, explain how a test process ended */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double wb_now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Kills every process the test left behind. Check kills the test's process
 * group; the grader is also a child subreaper (see wb_grader_main), so a
 * descendant that left the group with setsid() is re-parented to the
 * grader when its parent dies, and is found and killed here. */
void wb_reap_leftovers(void) {
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

/* Turns Check's message for an abnormal end into a reason a student understands. */
void wb_explain_abnormal(const char *msg, const wb_test *t, char *out, size_t cap) {
    int v;
    double limit = (t->timeout_s > 0 ? t->timeout_s : 30) * G.timeout_mult;
    if (strstr(msg, "timeout"))
        snprintf(out, cap,
                 "did not finish within %.0f s%s: a kernel that never ends, a deadlock at a "
                 "barrier, or very slow code (CK_TIMEOUT_MULTIPLIER=4 allows four times longer)",
                 limit, G.timeout_mult != 1.0 ? " (after CK_TIMEOUT_MULTIPLIER)" : "");
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
