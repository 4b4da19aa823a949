/* proc.c - process control: kill what a test left behind, explain how a test process ended */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
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

/* One process of /proc: its pid and its parent's. */
typedef struct {
    int pid, ppid;
} proc_link;

static int by_pid(const void *a, const void *b) {
    int x = ((const proc_link *)a)->pid, y = ((const proc_link *)b)->pid;
    return (x > y) - (x < y);
}

/* Sends SIGKILL to every process descended from this one (read from /proc: pid -> parent), however
 * deep and whatever their pids (pid_max is often 4194304); returns how many it signalled. */
static int kill_descendants(void) {
    static proc_link *all; /* kept between calls: the watchdog and the reaping call it often */
    static size_t cap;
    size_t n = 0;
    int me = getpid();
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        int pid = atoi(e->d_name);
        if (pid <= 0)
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
        if (!close_paren || sscanf(close_paren + 2, "%*c %d", &ppid) != 1 || ppid < 0)
            continue;
        if (n == cap) {
            size_t grown = cap ? 2 * cap : 4096;
            proc_link *p = realloc(all, grown * sizeof *p);
            if (!p)
                break;
            all = p;
            cap = grown;
        }
        all[n++] = (proc_link){pid, ppid};
    }
    if (d)
        closedir(d);
    qsort(all, n, sizeof *all, by_pid);
    int killed = 0;
    for (size_t i = 0; i < n; i++) {
        int p = all[i].pid, depth = 0;
        while (p > 1 && p != me && depth++ < 4096) {
            proc_link key = {p, 0}, *up = bsearch(&key, all, n, sizeof *all, by_pid);
            p = up ? up->ppid : 0;
        }
        if (p == me && all[i].pid != me) {
            kill((pid_t)all[i].pid, SIGKILL);
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

/* ------------------------------------------------ a cgroup per test */

/* Where the kernel lets the grader make cgroups (cgroup v2, a folder of
 * its own cgroup it may write: root, or a delegated user slice), each test
 * runs in a cgroup of its own, and ends with everything in it killed at
 * once (cgroup.kill, Linux 5.14+; else every pid listed, until none is
 * left). A process cannot leave it: moving needs a write to cgroup files,
 * which the test's Landlock rules refuse. Elsewhere the reaping by pid
 * above does the same work. */
static char cg_base[PATH_MAX]; /* the grader's own cgroup folder, "" when unusable */
static char cg_test[PATH_MAX + 64];

/* The cgroup v2 mount point and this process's cgroup in it. */
static int own_cgroup(char *out, size_t cap) {
    char mnt[PATH_MAX] = "", line[4096], path[PATH_MAX] = "";
    FILE *f = fopen("/proc/self/mountinfo", "r");
    while (f && fgets(line, sizeof line, f)) {
        char *sep = strstr(line, " - cgroup2 ");
        char mp[PATH_MAX];
        if (sep && sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1) {
            snprintf(mnt, sizeof mnt, "%s", mp);
            break;
        }
    }
    if (f)
        fclose(f);
    f = fopen("/proc/self/cgroup", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "0::", 3) == 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(path, sizeof path, "%s", line + 3);
        }
    if (f)
        fclose(f);
    if (!mnt[0] || !path[0])
        return -1;
    snprintf(out, cap, "%s%s", mnt, strcmp(path, "/") == 0 ? "" : path);
    return 0;
}

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

static void test_cgroup_path(int idx, char *out, size_t cap) {
    snprintf(out, cap, "%s/wb-%d-%d", cg_base, (int)getpid(), idx);
}

/* Parent, once: can a cgroup be made here, and a process moved into it? */
int wb_cgroup_probe(char *why, size_t cap) {
    char base[PATH_MAX], probe[PATH_MAX + 64];
    if (own_cgroup(base, sizeof base) != 0) {
        snprintf(why, cap, "no cgroup v2 here");
        return -1;
    }
    snprintf(cg_base, sizeof cg_base, "%s", base);
    test_cgroup_path(-1, probe, sizeof probe);
    rmdir(probe);
    if (mkdir(probe, 0755) != 0) {
        snprintf(why, cap, "cannot make a cgroup in %s (%s)", base, strerror(errno));
        cg_base[0] = '\0';
        return -1;
    }
    int ok = -1;
    pid_t pid = fork();
    if (pid == 0) {
        char procs[PATH_MAX + 96];
        snprintf(procs, sizeof procs, "%s/cgroup.procs", probe);
        _exit(write_file(procs, "0") == 0 ? 0 : 1);
    }
    int st = 0;
    if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0)
        ok = 0;
    for (int i = 0; i < 100 && rmdir(probe) != 0 && errno == EBUSY; i++)
        usleep(10000);
    if (ok != 0) {
        snprintf(why, cap, "cannot move a process into a cgroup of %s", base);
        cg_base[0] = '\0';
    }
    return ok;
}

/* Parent, before a test: its cgroup, empty. */
void wb_cgroup_prepare(int idx) {
    if (!cg_base[0])
        return;
    test_cgroup_path(idx, cg_test, sizeof cg_test);
    mkdir(cg_test, 0755);
}

/* The test's process, before anything else: into the test's cgroup.
 * Returns 0 when it is there (or there is none to enter). */
int wb_cgroup_enter(void) {
    if (!cg_base[0])
        return 0;
    char procs[PATH_MAX + 96];
    snprintf(procs, sizeof procs, "%s/cgroup.procs", cg_test);
    return write_file(procs, "0");
}

/* Parent, after a test: everything in its cgroup killed, then the cgroup
 * removed (its processes may take a moment to be gone). */
void wb_cgroup_kill(void) {
    if (!cg_base[0] || !cg_test[0])
        return;
    char p[PATH_MAX + 96];
    snprintf(p, sizeof p, "%s/cgroup.kill", cg_test);
    int killed = write_file(p, "1") == 0;
    for (int round = 0; round < 3000 && rmdir(cg_test) != 0 && errno == EBUSY; round++) {
        if (!killed) { /* before Linux 5.14: every pid listed */
            snprintf(p, sizeof p, "%s/cgroup.procs", cg_test);
            FILE *f = fopen(p, "r");
            int pid;
            while (f && fscanf(f, "%d", &pid) == 1)
                kill(pid, SIGKILL);
            if (f)
                fclose(f);
        }
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
        usleep(10000);
    }
    cg_test[0] = '\0';
}
