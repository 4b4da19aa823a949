/* sandbox_escape.cu - hostile lab 00: tries, at load and in every call, what the test's sandbox forbids */
/* SPDX-License-Identifier: MIT */
/* The answers are right, so it loses nothing while the sandbox holds. Each
 * attempt is harmless if it succeeds (a file opened for appending and
 * closed unwritten, signal 0, a read of one byte), and every success of a
 * protection the grader says is on (WB_SANDBOX, set in the test's process)
 * makes device_query_pick_best answer wrong, so the test fails, and says
 * which attempt got through on the test's output. A constructor tries the
 * same at load, the way a hostile lab would first run.
 * expect-no-file: wb-sandbox-escape.probe */
#define device_query_pick_best reference_pick_best
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_pick_best

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static int breaches;

static int on(const char *part) {
    const char *s = getenv("WB_SANDBOX");
    return s && strstr(s, part);
}

static void breach(const char *what) {
    fprintf(stderr, "sandbox_escape: got through: %s\n", what);
    breaches++;
}

/* An existing file outside the scratch folder, opened for writing. */
static void try_open_write(const char *path) {
    int fd = open(path, O_WRONLY | O_APPEND);
    if (fd >= 0) {
        close(fd);
        breach(path);
    }
}

/* What a grader run as root (a container, a cloud GPU machine, ncu's counters) would let code
 * under test do to the whole machine. Each attempt is made so that it fails harmlessly where
 * it is allowed (an invalid argument: EINVAL) and is refused (EPERM, EACCES) where it is not:
 * run by another user the kernel refuses them all, so this variant loses nothing there either. */
static void try_root_powers(const char *scratch) {
    if (on("fs=1") && scratch) { /* a device node (one naming a disk gives raw access to it) */
        char p[4200];
        snprintf(p, sizeof p, "%s/null-device", scratch);
        if (mknod(p, S_IFCHR | 0600, makedev(1, 3)) == 0) {
            unlink(p);
            breach("mknod of a device in the scratch folder");
        }
        try_open_write("/proc/sysrq-trigger");
    }
    if (on("scoped=1") && kill(1, 0) == 0)
        breach("kill(1, 0)");
    if (on("reads=1")) { /* outside the system, the toolkit and the workbook: /tmp, /root, /home */
        const char *away[] = {"/tmp", "/root", "/home"};
        for (int i = 0; i < 3; i++) {
            int fd = open(away[i], O_RDONLY | O_DIRECTORY);
            if (fd >= 0) {
                close(fd);
                breach(away[i]);
            }
        }
    }
    if (on("seccomp=1")) {
        if (syscall(SYS_reboot, 0, 0, 0, NULL) != 0 && errno == EINVAL) /* bad magic numbers */
            breach("reboot()");
        struct timeval tv = {0, 2000000}; /* out of range */
        if (syscall(SYS_settimeofday, &tv, NULL) != 0 && errno == EINVAL)
            breach("settimeofday()");
        struct timespec ts = {0, 2000000000L};
        if (syscall(SYS_clock_settime, CLOCK_REALTIME, &ts) != 0 && errno == EINVAL)
            breach("clock_settime()");
        struct timex tx;
        memset(&tx, 0, sizeof tx);
        tx.modes = ADJ_TICK; /* a tick length out of range */
        if (syscall(SYS_adjtimex, &tx) < 0 && errno == EINVAL)
            breach("adjtimex()");
        struct rlimit now, more = {RLIM_INFINITY, RLIM_INFINITY};
        if (getrlimit(RLIMIT_FSIZE, &now) == 0 && now.rlim_max != RLIM_INFINITY &&
            setrlimit(RLIMIT_FSIZE, &more) == 0) {
            setrlimit(RLIMIT_FSIZE, &now);
            breach("raising the file size limit");
        }
    }
}

static void try_everything(void) {
    const char *scratch = getenv("WB_SCRATCH");
    if (on("fs=1")) {
        try_open_write("Makefile"); /* the grader runs in the workbook's top folder */
        try_open_write("grader/kit/kit.h");
        int fd = open("wb-sandbox-escape.probe", O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            close(fd);
            unlink("wb-sandbox-escape.probe");
            breach("a new file in the workbook's top folder");
        }
        if (scratch) { /* <report>/records/t<idx>: the report folder is two up */
            char p[4200];
            snprintf(p, sizeof p, "%s/../../results.json", scratch);
            try_open_write(p);
            snprintf(p, sizeof p, "%s/../../measurements.csv", scratch);
            try_open_write(p);
            snprintf(p, sizeof p, "%s/.inside", scratch); /* allowed: the sandbox is not too tight */
            fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0)
                breach("nothing: the scratch folder itself is not writable (too tight)");
            else
                close(fd);
        }
    }
    if (on("seccomp=1")) {
        if (setsid() >= 0)
            breach("setsid()");
        if (setpgid(0, 0) == 0)
            breach("setpgid(0, 0)");
        int s = socket(AF_INET, SOCK_STREAM, 0);
        if (s >= 0) {
            close(s);
            breach("socket(AF_INET)");
        }
        if (kill(getppid(), 0) == 0)
            breach("kill(the grader, 0)");
        if (kill(-getpgrp(), 0) == 0)
            breach("kill(its process group, 0)");
        char byte, here = 0;
        struct iovec local = {&byte, 1}, remote = {&here, 1};
        if (process_vm_readv(getppid(), &local, 1, &remote, 1, 0) >= 0 || errno != EPERM)
            breach("process_vm_readv(the grader)");
    }
    struct rlimit r;
    if (on("limits=1") && getrlimit(RLIMIT_FSIZE, &r) == 0 &&
        (r.rlim_cur == RLIM_INFINITY || r.rlim_cur > (1ULL << 30)))
        breach("no file size limit");
    try_root_powers(scratch);
}

__attribute__((constructor)) static void at_load(void) {
    try_everything();
}

extern "C" int device_query_pick_best(const device_query_report *r, int n,
                                      const device_query_need *need) {
    try_everything();
    int best = reference_pick_best(r, n, need);
    return breaches ? (best == 0 ? 1 : 0) : best;
}
