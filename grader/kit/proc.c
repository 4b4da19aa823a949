/* proc.c - process control: kill what a test left behind, explain how a test process ended */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"

#include <dirent.h>
#include <pthread.h>
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

#define WB_MAX_PIDS 65536

/* Sends SIGKILL to every process descended from this one (read from
 * /proc: pid -> parent), however deep; returns how many it signalled. */
static int kill_descendants(void) {
    static int parent[WB_MAX_PIDS];
    static int pids[WB_MAX_PIDS];
    int n = 0, me = getpid();
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) && n < WB_MAX_PIDS) {
        int pid = atoi(e->d_name);
        if (pid <= 0 || pid >= WB_MAX_PIDS)
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%d/stat", pid);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = '\0';
        char *close_paren = strrchr(buf, ')');
        int ppid = 0;
        if (close_paren && sscanf(close_paren + 2, "%*c %d", &ppid) == 1 && ppid >= 0 &&
            ppid < WB_MAX_PIDS) {
            parent[pid] = ppid;
            pids[n++] = pid;
        }
    }
    if (d)
        closedir(d);
    int killed = 0;
    for (int i = 0; i < n; i++) {
        int p = pids[i], depth = 0;
        while (p > 1 && p != me && depth++ < 4096)
            p = parent[p];
        if (p == me && pids[i] != me) {
            kill((pid_t)pids[i], SIGKILL);
            killed++;
        }
    }
    return killed;
}

/* Kills every process the test left behind, until none is left (a chain of
 * forks of any depth, a process that left the test's process group or
 * session), for at most 30 s; then collects the ones re-parented to the
 * grader, a child subreaper (see wb_grader_main). */
void wb_reap_leftovers(void) {
    double until = wb_now_s() + 30;
    while (kill_descendants() > 0 && wb_now_s() < until) {
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        usleep(5000);
    }
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
}

/* The watchdog: Check's time limit kills only the test's process group, so
 * a test that moved itself into another group would run on; past its limit
 * and a grace period the watchdog kills the test's whole tree by pid. It
 * never collects a process (Check waits for its own child). */
static struct {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int armed, running;
    double deadline;
} wd = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};
static volatile int wd_fired;

static void *watchdog(void *arg) {
    (void)arg;
    pthread_mutex_lock(&wd.lock);
    while (wd.armed) {
        double left = wd.deadline - wb_now_s();
        if (left <= 0) {
            wd_fired = 1;
            pthread_mutex_unlock(&wd.lock);
            while (kill_descendants() > 0)
                usleep(5000);
            pthread_mutex_lock(&wd.lock);
            break;
        }
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        double t = ts.tv_sec + ts.tv_nsec * 1e-9 + (left < 0.5 ? left : 0.5);
        ts.tv_sec = (time_t)t;
        ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
        pthread_cond_timedwait(&wd.cond, &wd.lock, &ts);
    }
    pthread_mutex_unlock(&wd.lock);
    return NULL;
}

void wb_watchdog_arm(double seconds) {
    wd_fired = 0;
    pthread_mutex_lock(&wd.lock);
    wd.armed = 1;
    wd.deadline = wb_now_s() + seconds;
    pthread_mutex_unlock(&wd.lock);
    wd.running = pthread_create(&wd.thread, NULL, watchdog, NULL) == 0;
}

int wb_watchdog_disarm(void) {
    pthread_mutex_lock(&wd.lock);
    wd.armed = 0;
    pthread_cond_signal(&wd.cond);
    pthread_mutex_unlock(&wd.lock);
    if (wd.running)
        pthread_join(wd.thread, NULL);
    wd.running = 0;
    return wd_fired;
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
