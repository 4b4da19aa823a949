/* sandbox.c - what a test's process may do: Landlock, seccomp and resource limits, entered before
 * student code */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "kit.h"
#include "wb_landlock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

/* A test's process enters the sandbox in wb_run_body, before the student's
 * library is loaded (its constructors run at that load) and before the
 * first CUDA call; everything it starts inherits it, compute-sanitizer and
 * ncu included. What each part stops:
 *   Landlock (filesystem): no file is created, written, truncated, renamed
 *     or removed outside the test's scratch folder (records/t<idx>/), the
 *     GPU's device files and /dev/shm, and no device node anywhere; nothing
 *     read or run outside the system's folders, the toolkit and the workbook
 *     (allow_reads), where CUDA starts so (else reads stay open, said).
 *   Landlock scopes (Linux 6.12+): no signal to, and no abstract socket of,
 *     a process outside the test's own tree.
 *   seccomp: no new session or process group (Check's time limit kills the
 *     test's group), no ptrace or cross-process memory access, no signal to
 *     the grader, its threads, the processes above it or a process group,
 *     no pidfd, no internet or raw socket, no io_uring (it bypasses
 *     seccomp), no mount or namespace;
 *     nothing that acts on the whole machine when run as root (reboot,
 *     clocks, I/O ports, swap, host names, device nodes, open by handle),
 *     and the file size and core limits cannot be raised.
 *   resource limits: file size, open files, core dumps, processes; the
 *     out-of-memory killer takes the test's processes first.
 * The parent probes once which parts this kernel grants (the header says
 * which are off and why); a test whose process gets less than the probe
 * fails rather than run unprotected. */

/* Landlock's constants newer than some distributions' headers. */
#define LL_FS_TRUNCATE (1ULL << 14)
#define LL_NET_BIND_TCP (1ULL << 0)
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LL_SCOPE_SIGNAL (1ULL << 1)
#define LL_RULE_NET_PORT 2

struct ll_ruleset_attr {
    uint64_t handled_access_fs, handled_access_net, scoped;
};
struct ll_path_beneath {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));
struct ll_net_port {
    uint64_t allowed_access, port;
};

/* ncu's front end talks to the profiled process over local TCP, from this
 * base port up (ncu --port, --max-connections). */
#define NCU_PORT_BASE 49152
#define NCU_PORTS 64

#define FILE_SIZE_LIMIT (256ULL << 20)
#define OPEN_FILES_LIMIT 4096
#define SPARE_PROCESSES 512

/* The GPU's device files (/dev/nvidia*, /dev/nvidia-caps/) and the
 * harmless ones, writable; /dev/shm, where CUDA's tools keep shared memory. */
static int allow_devices(int rs, int abi) {
    uint64_t w = LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? LL_FS_TRUNCATE : 0);
    const char *plain[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", NULL};
    for (int i = 0; plain[i]; i++)
        if (wb_landlock_allow(rs, plain[i], w, abi) != 0)
            return -1;
    DIR *d = opendir("/dev");
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strncmp(e->d_name, "nvidia", 6) == 0) {
            char p[300];
            snprintf(p, sizeof p, "/dev/%s", e->d_name);
            if (wb_landlock_allow(rs, p, w, abi) != 0) {
                closedir(d);
                return -1;
            }
        }
    if (d)
        closedir(d);
    return wb_landlock_allow(rs, "/dev/shm", wb_landlock_writes_allowed(abi), abi);
}

/* CUDA names its threads at initialisation by writing /proc/<pid>/task/<tid>/comm,
 * and fails (cudaErrorOperatingSystem) where it cannot: this process's own
 * /proc folder stays writable (for its own files only; the rule is bound to
 * this process, so a process it starts cannot start CUDA). The descriptor
 * stays open so that the folder the rule names is the one later opens find. */
static int allow_own_proc(int rs, int abi) {
    static int pinned = -1;
    if (pinned < 0)
        pinned = open("/proc/self", O_PATH | O_CLOEXEC);
    if (pinned < 0)
        return 0;
    struct ll_path_beneath pb = {LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? LL_FS_TRUNCATE : 0),
                                 pinned};
    return (int)syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
}

/* The workbook's top folder the grader was built in (version.c, from the build). */
extern const char wb_workbook_root[];

/* Where a test may read, and run programs from, when its reads are confined: the system's
 * folders, the CUDA Toolkit, the folders on PATH and LD_LIBRARY_PATH and those of every
 * library this process has loaded, the workbook the grader was built in (for a submission:
 * the private copy it is graded in), and what the run names (the student's library,
 * answers.txt, the report folder). Not the rest of the machine: not an instructor's checkout
 * and its compiled reference (a submission found it through OLDPWD and loaded it), not the
 * class's other submissions, not anyone's home. */
static int allow_reads(int rs, int abi) {
    int bad = wb_landlock_allow_system_reads(rs, abi) != 0;
    /* The folders of the libraries loaded, two levels down or deeper (never all of /tmp). */
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[PATH_MAX + 128];
    while (maps && fgets(line, sizeof line, maps)) {
        char *path = strchr(line, '/'), *slash;
        if (!path || strstr(path, " (deleted)"))
            continue;
        path[strcspn(path, "\n")] = '\0';
        if ((slash = strrchr(path, '/')) != NULL && slash != path &&
            memchr(path + 1, '/', (size_t)(slash - path - 1))) {
            *slash = '\0';
            bad |= wb_landlock_allow(rs, path, wb_landlock_reads(), abi) != 0;
        }
    }
    if (maps)
        fclose(maps);
    if (wb_workbook_root[0] == '/' && wb_workbook_root[1])
        bad |= wb_landlock_allow(rs, wb_workbook_root, wb_landlock_reads(), abi) != 0;
    const char *named[] = {G.opt.student, G.opt.answers, G.report_dir};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (named[i] && named[i][0])
            bad |= wb_landlock_allow(rs, named[i], wb_landlock_reads(), abi) != 0;
    return bad ? -1 : 0;
}

/* reads: confine reads too (allow_reads); else only writes are confined. */
static int enter_landlock(const char *scratch, int ncu_ports, int reads, wb_sandbox *sb, char *why,
                          size_t cap) {
    int abi = wb_landlock_abi();
    if (abi <= 0) {
        snprintf(why, cap, "the kernel has no Landlock (Linux 5.13+ with landlock among its LSMs)");
        return -1;
    }
    struct ll_ruleset_attr attr = {wb_landlock_writes(abi) | (reads ? wb_landlock_reads() : 0), 0,
                                   0};
    size_t size = sizeof attr.handled_access_fs;
    if (abi >= 4) {
        attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = LL_SCOPE_SIGNAL | LL_SCOPE_ABSTRACT_UNIX_SOCKET;
        size = sizeof attr;
    }
    int rs = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (rs < 0) {
        snprintf(why, cap, "landlock_create_ruleset: %s", strerror(errno));
        return -1;
    }
    int bad = wb_landlock_allow(rs, scratch,
                                wb_landlock_writes_allowed(abi) | (reads ? wb_landlock_reads() : 0),
                                abi) != 0 ||
              allow_devices(rs, abi) != 0 || allow_own_proc(rs, abi) != 0 ||
              (reads && allow_reads(rs, abi) != 0);
    for (int p = 0; !bad && abi >= 4 && ncu_ports && p < NCU_PORTS; p++) {
        struct ll_net_port np = {LL_NET_BIND_TCP | LL_NET_CONNECT_TCP, NCU_PORT_BASE + p};
        bad = syscall(SYS_landlock_add_rule, rs, LL_RULE_NET_PORT, &np, 0) != 0;
    }
    if (bad || syscall(SYS_landlock_restrict_self, rs, 0) != 0) {
        snprintf(why, cap, "Landlock refused a rule: %s", strerror(errno));
        close(rs);
        return -1;
    }
    close(rs);
    sb->landlock_abi = abi;
    sb->fs = 1;
    sb->reads = reads;
    sb->scoped = abi >= 6;
    sb->tcp = abi >= 4;
    return 0;
}

#define GUARDED_MAX 512

/* The ids no signal of the test may reach: every process above this one (the grader, the
 * scripts that run it, a class's whole run), each thread of each (kill() takes a thread's id
 * as its process's), up to init. Returns how many were stored in ids. */
static int guarded_ids(uint32_t *ids, int cap) {
    int n = 0;
    for (pid_t p = getppid(); p > 1 && n < cap;) {
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%d/task", (int)p);
        DIR *d = opendir(path);
        struct dirent *e;
        ids[n++] = (uint32_t)p;
        while (d && (e = readdir(d)) && n < cap) {
            int tid = atoi(e->d_name);
            if (tid > 0 && tid != p)
                ids[n++] = (uint32_t)tid;
        }
        if (d)
            closedir(d);
        snprintf(path, sizeof path, "/proc/%d/stat", (int)p); /* its parent, after the name */
        FILE *f = fopen(path, "r");
        size_t len = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f)
            fclose(f);
        buf[len] = '\0';
        char *paren = strrchr(buf, ')');
        int up = 0;
        if (!paren || sscanf(paren + 2, "%*c %d", &up) != 1 || up == p)
            break;
        p = up;
    }
    return n;
}

/* seccomp's rules: every call not named here is allowed. */
static int add_rules(scmp_filter_ctx f, int allow_inet) {
    const int deny[] = {SCMP_SYS(setsid),
                        SCMP_SYS(setpgid),
                        SCMP_SYS(ptrace),
                        SCMP_SYS(process_vm_readv),
                        SCMP_SYS(process_vm_writev),
                        SCMP_SYS(pidfd_open),
                        SCMP_SYS(pidfd_send_signal),
                        SCMP_SYS(pidfd_getfd),
                        SCMP_SYS(io_uring_setup),
                        SCMP_SYS(io_uring_enter),
                        SCMP_SYS(io_uring_register),
                        SCMP_SYS(mount),
                        SCMP_SYS(umount2),
                        SCMP_SYS(pivot_root),
                        SCMP_SYS(chroot),
                        SCMP_SYS(unshare),
                        SCMP_SYS(setns),
                        SCMP_SYS(bpf),
                        SCMP_SYS(keyctl),
                        SCMP_SYS(add_key),
                        SCMP_SYS(request_key),
                        SCMP_SYS(kexec_load),
                        SCMP_SYS(init_module),
                        SCMP_SYS(finit_module),
                        SCMP_SYS(delete_module)};
    int rc = 0;
    for (size_t i = 0; i < sizeof deny / sizeof deny[0]; i++)
        rc |= seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), deny[i], 0);
    /* What only root may do, and what changes the whole machine when it does: a grader run as
     * root (a container, a cloud GPU machine, ncu's counters) must not hand it to code under
     * test. Reboot, the clocks (lab 08 times with the host's), raw I/O ports, swap, the host's
     * names, process accounting, files opened by handle (past any path rule), the new mount
     * calls (mount itself is above). Some exist on one architecture only (iopl, ioperm): a call
     * this one lacks is skipped. */
    const int machine[] = {SCMP_SYS(reboot),
                           SCMP_SYS(settimeofday),
                           SCMP_SYS(clock_settime),
                           SCMP_SYS(clock_adjtime),
                           SCMP_SYS(adjtimex),
                           SCMP_SYS(iopl),
                           SCMP_SYS(ioperm),
                           SCMP_SYS(swapon),
                           SCMP_SYS(swapoff),
                           SCMP_SYS(sethostname),
                           SCMP_SYS(setdomainname),
                           SCMP_SYS(acct),
                           SCMP_SYS(open_by_handle_at),
                           SCMP_SYS(fsopen),
                           SCMP_SYS(fsconfig),
                           SCMP_SYS(fsmount),
                           SCMP_SYS(fspick),
                           SCMP_SYS(move_mount),
                           SCMP_SYS(open_tree),
                           SCMP_SYS(mount_setattr)};
    for (size_t i = 0; i < sizeof machine / sizeof machine[0]; i++)
        if (machine[i] >= 0)
            rc |= seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), machine[i], 0);
    /* No device node anywhere (Landlock refuses them too, where it is on). */
    if (SCMP_SYS(mknod) >= 0) {
        rc |= seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(mknod), 1,
                               SCMP_A1(SCMP_CMP_MASKED_EQ, S_IFMT, S_IFCHR));
        rc |= seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(mknod), 1,
                               SCMP_A1(SCMP_CMP_MASKED_EQ, S_IFMT, S_IFBLK));
    }
    rc |= seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(mknodat), 1,
                           SCMP_A2(SCMP_CMP_MASKED_EQ, S_IFMT, S_IFCHR));
    rc |= seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(mknodat), 1,
                           SCMP_A2(SCMP_CMP_MASKED_EQ, S_IFMT, S_IFBLK));
    /* The file size and core limits the sandbox set stay as they are: root could raise them
     * (CAP_SYS_RESOURCE). Reading them (prlimit64 with no new limit) stays allowed. */
    const int held[] = {RLIMIT_FSIZE, RLIMIT_CORE};
    for (size_t i = 0; i < sizeof held / sizeof held[0]; i++) {
        if (SCMP_SYS(setrlimit) >= 0)
            rc |= seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setrlimit), 1,
                                   SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)held[i]));
        rc |=
            seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prlimit64), 2,
                             SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)held[i]), SCMP_A2(SCMP_CMP_NE, 0));
    }
    /* Signals: never to the grader, its threads or any process above it (kill() given a
     * thread's id signals its whole process: the grader's watchdog and record reader were
     * reachable so, and so was the class's grade-class.sh), to pid -1 or to a process group (a
     * negative pid); a process's own threads and children stay reachable. Landlock's signal
     * scope (Linux 6.12+) refuses the rest of the machine too; before it, this is all. */
    uint32_t guarded[GUARDED_MAX];
    int n_guarded = guarded_ids(guarded, GUARDED_MAX);
    const int sig_calls[] = {SCMP_SYS(kill), SCMP_SYS(tkill), SCMP_SYS(tgkill),
                             SCMP_SYS(rt_sigqueueinfo), SCMP_SYS(rt_tgsigqueueinfo)};
    for (size_t i = 0; i < sizeof sig_calls / sizeof sig_calls[0]; i++) {
        for (int k = 0; k < n_guarded; k++)
            rc |= seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), sig_calls[i], 1,
                                   SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, guarded[k]));
        rc |= seccomp_rule_add(f, SCMP_ACT_ERRNO(EPERM), sig_calls[i], 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, 0x80000000u, 0x80000000u));
    }
    /* Sockets: local ones (AF_UNIX, netlink) only, unless ncu needs TCP. */
    const int families[] = {AF_INET,      AF_INET6, AF_PACKET, AF_IPX, AF_APPLETALK, AF_X25,
                            AF_AX25,      AF_ROSE,  AF_DECnet, AF_RDS, AF_CAN,       AF_TIPC,
                            AF_BLUETOOTH, AF_VSOCK, AF_XDP,    AF_ALG, AF_SMC,       AF_KCM};
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        if (allow_inet && (families[i] == AF_INET || families[i] == AF_INET6))
            continue;
        rc |= seccomp_rule_add(f, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                               SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, (uint32_t)families[i]));
    }
    return rc;
}

static int enter_seccomp(int allow_inet, char *why, size_t cap) {
    scmp_filter_ctx f = seccomp_init(SCMP_ACT_ALLOW);
    if (!f) {
        snprintf(why, cap, "libseccomp could not start a filter");
        return -1;
    }
    int rc = add_rules(f, allow_inet);
    if (rc == 0)
        rc = seccomp_load(f);
    seccomp_release(f);
    if (rc != 0)
        snprintf(why, cap, "the kernel refused the seccomp filter (%s)", strerror(-rc));
    return rc == 0 ? 0 : -1;
}

/* How many tasks (threads included) this user runs now: RLIMIT_NPROC counts them all. */
static long user_tasks(void) {
    long n = 0;
    uid_t me = getuid();
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[300];
        struct stat st;
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/task", e->d_name);
        if (stat(path, &st) != 0 || st.st_uid != me)
            continue;
        n += st.st_nlink > 2 ? (long)st.st_nlink - 2 : 1;
    }
    if (d)
        closedir(d);
    return n;
}

static int set_limit(int what, rlim_t value) {
    struct rlimit r;
    if (getrlimit(what, &r) != 0)
        return -1;
    if (r.rlim_max != RLIM_INFINITY && r.rlim_max < value)
        value = r.rlim_max;
    r.rlim_cur = r.rlim_max = value;
    return setrlimit(what, &r);
}

static void enter_limits(wb_sandbox *sb) {
    int bad = set_limit(RLIMIT_FSIZE, FILE_SIZE_LIMIT) |
              set_limit(RLIMIT_NOFILE, OPEN_FILES_LIMIT) | set_limit(RLIMIT_CORE, 0);
    sb->limits = !bad;
    /* Not enforced for root; elsewhere the user's other processes count too. */
    sb->nproc =
        getuid() != 0 && set_limit(RLIMIT_NPROC, (rlim_t)(user_tasks() + SPARE_PROCESSES)) == 0;
}

/* Closes every descriptor the test inherited on a report file (Check's TAP
 * output, the measurements CSV): Landlock rules opening files, not writing
 * to ones already open. */
static void close_report_fds(void) {
    char dir[PATH_MAX], fdp[64], target[PATH_MAX];
    if (!realpath(G.report_dir, dir))
        return;
    size_t n = strlen(dir);
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        int fd = atoi(e->d_name);
        if (fd <= STDERR_FILENO || fd == G.record_fd || fd == dirfd(d))
            continue;
        snprintf(fdp, sizeof fdp, "/proc/self/fd/%d", fd);
        ssize_t len = readlink(fdp, target, sizeof target - 1);
        if (len <= 0)
            continue;
        target[len] = '\0';
        if (strncmp(target, dir, n) == 0 && (target[n] == '/' || target[n] == '\0'))
            close(fd);
    }
    if (d)
        closedir(d);
}

void wb_scratch_dir(int idx, char *out, size_t cap) {
    if (idx < 0)
        snprintf(out, cap, "%s/probe", G.tmpdir);
    else
        snprintf(out, cap, "%s/t%d", G.tmpdir, idx);
}

/* In the test's process, before anything else: no report descriptor, no
 * terminal, its scratch folder as TMPDIR, resource limits (inherited by
 * everything it starts). */
void wb_sandbox_prepare(int idx, wb_sandbox *sb) {
    char scratch[PATH_MAX + 32], cache[PATH_MAX + 64];
    memset(sb, 0, sizeof *sb);
    wb_scratch_dir(idx, scratch, sizeof scratch);
    mkdir(scratch, 0700);
    close_report_fds();
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) {
        dup2(devnull, STDIN_FILENO);
        close(devnull);
    }
    snprintf(cache, sizeof cache, "%s/cuda-cache", scratch);
    /* Should the machine run out of memory, the kernel kills the test (a memory hog) first,
     * not the grader or another process on the machine. */
    int adj = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (adj >= 0) {
        ssize_t w = write(adj, "1000", 4);
        (void)w;
        close(adj);
    }
    setenv("TMPDIR", scratch, 1);
    setenv("WB_SCRATCH", scratch, 1); /* for a body run again under a tool */
    setenv("CUDA_CACHE_PATH", cache, 1);
    enter_limits(sb);
}

/* Landlock and seccomp, in the process that will load the student's code:
 * the test's own, or, for a test that runs its body again under a tool,
 * that body's process (the tool itself is NVIDIA's, and starts CUDA in its
 * target: see allow_own_proc). no_landlock: the probe found that CUDA cannot
 * start under Landlock here; reads: Landlock confines reads too. */
int wb_sandbox_confine(int idx, int no_landlock, int reads, wb_sandbox *sb) {
    const char *scratch = getenv("WB_SCRATCH");
    char own[PATH_MAX + 32];
    if (!scratch) {
        wb_scratch_dir(idx, own, sizeof own);
        scratch = own;
    }
    int ncu =
        idx >= 0 && G.lab && G.lab->tests[idx].tool && strcmp(G.lab->tests[idx].tool, "ncu") == 0;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        snprintf(sb->why_fs, sizeof sb->why_fs, "prctl(NO_NEW_PRIVS): %s", strerror(errno));
        snprintf(sb->why_seccomp, sizeof sb->why_seccomp, "%s", sb->why_fs);
        return -1;
    }
    if (no_landlock)
        snprintf(sb->why_fs, sizeof sb->why_fs, "CUDA cannot start under Landlock on this machine");
    else
        enter_landlock(scratch, ncu, reads, sb, sb->why_fs, sizeof sb->why_fs);
    /* With Landlock's TCP rules, ncu's ports alone are reachable. */
    sb->seccomp = enter_seccomp(ncu, sb->why_seccomp, sizeof sb->why_seccomp) == 0;
    struct rlimit r; /* limits set in the test's process, inherited here */
    sb->limits = getrlimit(RLIMIT_FSIZE, &r) == 0 && r.rlim_cur <= FILE_SIZE_LIMIT;
    char said[96]; /* what the test's process may rely on (the hostile variants check it) */
    wb_sandbox_said(sb, said, sizeof said);
    setenv("WB_SANDBOX", said, 1);
    return 0;
}

void wb_sandbox_said(const wb_sandbox *sb, char *out, size_t cap) {
    snprintf(out, cap, "fs=%d reads=%d scoped=%d seccomp=%d limits=%d", sb->fs, sb->reads,
             sb->scoped, sb->seccomp, sb->limits);
}

int wb_sandbox_parse(const char *said, wb_sandbox *sb) {
    memset(sb, 0, sizeof *sb);
    return said && sscanf(said, "fs=%d reads=%d scoped=%d seccomp=%d limits=%d", &sb->fs,
                          &sb->reads, &sb->scoped, &sb->seccomp, &sb->limits) == 5
               ? 0
               : -1;
}

/* The probe's child: the whole sandbox, then (with a GPU) whether CUDA
 * starts inside it. */
static void probe_child(int no_landlock, int reads, wb_sandbox *got) {
    wb_sandbox_prepare(-1, got);
    int nproc = got->nproc;
    wb_sandbox_confine(-1, no_landlock, reads, got);
    got->nproc = nproc;
    if (G.gpu_ok) {
        int n = 0;
        cudaError_t e = cudaGetDeviceCount(&n);
        if (e == cudaSuccess)
            e = cudaSetDevice(G.gpu.index);
        if (e == cudaSuccess)
            e = cudaFree(0);
        got->cuda_err = (int)e;
    }
}

/* The parent's probe: a child enters the sandbox and reports what it got. */
static void probe_once(int no_landlock, int reads, wb_sandbox *sb) {
    int fd[2];
    memset(sb, 0, sizeof *sb);
    snprintf(sb->why_fs, sizeof sb->why_fs, "the probe did not answer");
    if (pipe(fd) != 0)
        return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        wb_sandbox got;
        probe_child(no_landlock, reads, &got);
        ssize_t w = write(fd[1], &got, sizeof got);
        (void)w;
        _exit(0);
    }
    close(fd[1]);
    struct pollfd p = {fd[0], POLLIN, 0};
    if (pid > 0 && poll(&p, 1, 30000) > 0 && read(fd[0], sb, sizeof *sb) != (ssize_t)sizeof *sb)
        memset(sb, 0, sizeof *sb);
    close(fd[0]);
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
    }
}

/* What the tests will get. Where CUDA does not start with its reads confined
 * (a driver or library in a folder allow_reads does not name), the tests
 * confine writes only; where it does not start under Landlock at all (a
 * driver that writes where no rule allows), the tests run without it; the
 * header says which, rather than every GPU test failing. */
void wb_sandbox_probe(wb_sandbox *sb) {
    probe_once(0, 1, sb);
    if (sb->fs && sb->cuda_err) {
        wb_sandbox writes;
        probe_once(0, 0, &writes);
        if (writes.fs && !writes.cuda_err) {
            snprintf(writes.why_reads, sizeof writes.why_reads,
                     "CUDA does not start with its reads confined on this machine (%s)",
                     cudaGetErrorName((cudaError_t)sb->cuda_err));
            *sb = writes;
            return;
        }
    } else if (sb->fs && !sb->reads)
        snprintf(sb->why_reads, sizeof sb->why_reads, "Landlock refused the rules for reading");
    if (sb->fs && sb->cuda_err) {
        wb_sandbox without;
        probe_once(1, 0, &without);
        if (!without.cuda_err) {
            snprintf(without.why_fs, sizeof without.why_fs,
                     "CUDA does not start under Landlock on this machine (%s)",
                     cudaGetErrorName((cudaError_t)sb->cuda_err));
            without.no_landlock = 1;
            *sb = without;
        }
    }
}

/* Which protections a test's process lacks against the probe's; "" when none. */
void wb_sandbox_missing(const wb_sandbox *want, const wb_sandbox *got, char *out, size_t cap) {
    snprintf(out, cap, "%s%s%s%s%s", want->fs && !got->fs ? " filesystem" : "",
             want->reads && !got->reads ? " reads" : "",
             want->scoped && !got->scoped ? " signal scope" : "",
             want->seccomp && !got->seccomp ? " system calls" : "",
             want->limits && !got->limits ? " resource limits" : "");
}

/* The console header's line: what is on, then each part that is off and why. */
void wb_sandbox_describe(const wb_sandbox *sb, char *out, size_t cap) {
    char on[200] = "", off[600] = "";
    size_t a = 0, b = 0;
#define ON(...) (a += (size_t)snprintf(on + a, a < sizeof on ? sizeof on - a : 0, __VA_ARGS__))
#define OFF(...) (b += (size_t)snprintf(off + b, b < sizeof off ? sizeof off - b : 0, __VA_ARGS__))
    if (sb->fs)
        ON("writes only to its scratch folder (Landlock ABI %d)", sb->landlock_abi);
    else
        OFF("; filesystem OFF: %s", sb->why_fs);
    if (sb->reads)
        ON(", reads only the system, the toolkit and this workbook");
    else if (sb->fs)
        OFF("; reads not confined: %s", sb->why_reads[0] ? sb->why_reads : "off");
    if (sb->seccomp)
        ON(", system calls filtered (seccomp)");
    else
        OFF("; system calls OFF: %s", sb->why_seccomp);
    if (sb->scoped)
        ON(", signals within its own processes");
    else if (sb->fs)
        OFF("; signals: only the grader, its threads, the processes above it and process "
            "groups guarded (Landlock scopes need Linux 6.12+)");
    if (sb->limits)
        ON(", limits on files%s", sb->nproc ? " and processes" : "");
    else
        OFF("; resource limits OFF");
    if (sb->cgroup)
        ON(", a cgroup of its own killed whole");
    else
        OFF("; processes killed by pid, not by cgroup (%s)", sb->why_cgroup);
#undef ON
#undef OFF
    snprintf(out, cap, "  sandbox: each test %s%s", on[0] ? on : "unconfined", off);
}

/* ------------------------------------------------ the scratch folder (parent) */

/* What one test may leave in its scratch folder, and all the tests of a run together: the
 * parent copies it into the report folder, and grade-submission.sh into the class's output.
 * Tables, timelines and logs of the labs take kilobytes; past these limits a test's folder is
 * emptied and nothing of it is published. */
#define SCRATCH_TEST_MAX (32LL << 20)
#define SCRATCH_RUN_MAX (64LL << 20)
#define SCRATCH_ENTRIES_MAX 256
#define SCRATCH_DEPTH_MAX 16
/* Folders deeper than this are removed by rm(1), which has no limit: the parent's own
 * recursion stays shallow whatever a test nested. */
#define REMOVE_DEPTH_MAX 64

/* Removes name (relative to the folder dirfd) and everything beneath it, never following a
 * link and without any path length limit; 0 when it is gone. */
static int remove_at(int dirfd, const char *name, int depth) {
    if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
        return 0;
    if (errno != EISDIR && errno != EPERM) /* Linux says EISDIR for a folder, POSIX EPERM */
        return -1;
    if (depth >= REMOVE_DEPTH_MAX)
        return -1;
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    for (int removed = 1; removed;) { /* again until a pass removes nothing */
        removed = 0;
        rewinddir(d);
        for (struct dirent *e; (e = readdir(d));)
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
                remove_at(fd, e->d_name, depth + 1) == 0)
                removed = 1;
    }
    closedir(d);
    return unlinkat(dirfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : -1;
}

void wb_remove_tree(const char *path) {
    if (remove_at(AT_FDCWD, path, 0) == 0)
        return;
    fflush(NULL); /* deeper than REMOVE_DEPTH_MAX: rm(1), by its full path, no shell */
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
        }
        execl("/bin/rm", "rm", "-rf", "--", path, (char *)NULL);
        execl("/usr/bin/rm", "rm", "-rf", "--", path, (char *)NULL);
        _exit(127);
    }
    if (pid > 0)
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
}

/* Adds up what lies beneath the folder dirfd (files' sizes, entries); -1 as soon as a limit
 * is passed (size, entries, depth), without reading further. */
static int tree_size(int dirfd, int depth, long long *bytes, long *entries) {
    DIR *d = fdopendir(dirfd);
    if (!d) {
        close(dirfd);
        return -1;
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (++*entries > SCRATCH_ENTRIES_MAX ||
            fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            rc = -1;
            break;
        }
        if (S_ISREG(st.st_mode))
            *bytes += st.st_size;
        if (*bytes > SCRATCH_TEST_MAX)
            rc = -1;
        else if (S_ISDIR(st.st_mode)) {
            int sub =
                depth + 1 < SCRATCH_DEPTH_MAX
                    ? openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    : -1;
            rc = sub < 0 ? -1 : tree_size(sub, depth + 1, bytes, entries);
        }
    }
    closedir(d);
    return rc;
}

void wb_scratch_prepare(int idx) {
    char scratch[PATH_MAX + 32];
    wb_scratch_dir(idx, scratch, sizeof scratch);
    wb_remove_tree(scratch);
    mkdir(scratch, 0700);
}

/* The names of the files the run published, one a line, in the report
 * folder (hidden: a name starting with '.' is never published). */
#define PUBLISHED_LIST ".published"

/* A name the student may see in the report folder: plain, and none of the
 * parent's own reports (results.json, check.tap, measurements.csv). */
static int publishable(const char *name) {
    if (!name[0] || name[0] == '.' || strlen(name) > 100)
        return 0;
    for (const char *c = name; *c; c++)
        if (!(*c == '.' || *c == '_' || *c == '-' || (*c >= '0' && *c <= '9') ||
              (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
            return 0;
    size_t n = strlen(name);
    if ((n >= 5 && strcmp(name + n - 5, ".json") == 0) ||
        (n >= 4 && strcmp(name + n - 4, ".tap") == 0))
        return 0;
    return strcmp(name, "measurements.csv") != 0 && strcmp(name, "records") != 0;
}

/* Copies one plain file (no link, one name, at most SCRATCH_TEST_MAX bytes) from
 * the scratch folder to the report folder, written by the parent. */
static void publish_one(const char *scratch, const char *name) {
    char from[PATH_MAX + 300], to[PATH_MAX + 300], tmp[PATH_MAX + 310];
    snprintf(from, sizeof from, "%s/%s", scratch, name);
    snprintf(to, sizeof to, "%s/%s", G.report_dir, name);
    snprintf(tmp, sizeof tmp, "%s/.%s.part", G.report_dir, name);
    int in = open(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (in < 0)
        return;
    if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
        st.st_size > SCRATCH_TEST_MAX) {
        close(in);
        return;
    }
    int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    char buf[65536];
    ssize_t n;
    long long total = 0;
    while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0 && (total += n) <= SCRATCH_TEST_MAX)
        if (write(out, buf, (size_t)n) != n)
            break;
    close(in);
    if (out >= 0 && close(out) == 0 && total <= SCRATCH_TEST_MAX && rename(tmp, to) == 0) {
        /* Listed, so that the next run removes it before it may publish
         * another (wb_unpublish_previous). */
        char list[PATH_MAX + 32];
        snprintf(list, sizeof list, "%s/" PUBLISHED_LIST, G.report_dir);
        FILE *f = fopen(list, "a");
        if (f) {
            fprintf(f, "%s\n", name);
            fclose(f);
        }
    } else {
        unlink(tmp);
    }
}

void wb_unpublish_previous(void) {
    char list[PATH_MAX + 32], line[256], path[PATH_MAX + 300];
    snprintf(list, sizeof list, "%s/" PUBLISHED_LIST, G.report_dir);
    FILE *f = fopen(list, "r");
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!publishable(line)) /* a name the grader could not have published: left alone */
            continue;
        snprintf(path, sizeof path, "%s/%s", G.report_dir, line);
        unlink(path);
    }
    if (f)
        fclose(f);
    unlink(list);
}

void wb_scratch_publish(int idx, char *note, size_t cap) {
    static long long kept; /* by the run's earlier tests */
    char scratch[PATH_MAX + 32], cache[PATH_MAX + 64];
    note[0] = '\0';
    wb_scratch_dir(idx, scratch, sizeof scratch);
    /* CUDA's cache of compiled kernels (CUDA_CACHE_PATH) serves this test's process only. */
    snprintf(cache, sizeof cache, "%s/cuda-cache", scratch);
    wb_remove_tree(cache);
    long long bytes = 0;
    long entries = 0;
    int fd = open(scratch, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int over = fd < 0 || tree_size(fd, 0, &bytes, &entries) != 0;
    if (over || kept + bytes > SCRATCH_RUN_MAX) {
        if (fd >= 0)
            snprintf(note, cap,
                     "the files it left (over %lld MiB, %d entries or %d folders deep, or "
                     "%lld MiB with the run's earlier tests) were removed unread",
                     SCRATCH_TEST_MAX >> 20, SCRATCH_ENTRIES_MAX, SCRATCH_DEPTH_MAX,
                     SCRATCH_RUN_MAX >> 20);
        wb_scratch_prepare(idx);
        return;
    }
    kept += bytes;
    DIR *d = opendir(scratch);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (publishable(e->d_name))
            publish_one(scratch, e->d_name);
    if (d)
        closedir(d);
}
