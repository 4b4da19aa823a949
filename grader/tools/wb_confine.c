/* wb_confine.c - runs a command with its reads and writes confined by Landlock: a student's build
 */
/* SPDX-License-Identifier: MIT */
/* usage: wb-confine [--read PATH]... [--write PATH]... -- COMMAND [ARG]...
 *
 * The command (nvcc on a student's file: scripts/student-build.sh) reads and runs only the
 * system's folders, the CUDA Toolkit, the folders on PATH and LD_LIBRARY_PATH and each PATH
 * given, and writes only beneath each --write PATH and to /dev/null and the like. A student's
 * file is compiled before any test's sandbox exists: one that #includes, or embeds with the
 * assembler's .incbin, a file outside the workbook it is graded in (an instructor's built
 * reference, another student's submission) then fails to compile. Where the kernel has no
 * Landlock, or refuses the rules, the command runs unconfined and a note on stderr says so. */
#define _GNU_SOURCE
#include "wb_landlock.h"

#include <errno.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_PATHS 64

static int confine(char **reads, int n_reads, char **writes, int n_writes, char *why, size_t cap) {
    int abi = wb_landlock_abi();
    if (abi <= 0) {
        snprintf(why, cap, "the kernel has no Landlock");
        return -1;
    }
    uint64_t handled = wb_landlock_writes(abi) | wb_landlock_reads();
    int rs = (int)syscall(SYS_landlock_create_ruleset, &handled, sizeof handled, 0);
    if (rs < 0) {
        snprintf(why, cap, "landlock_create_ruleset: %s", strerror(errno));
        return -1;
    }
    uint64_t dev = LANDLOCK_ACCESS_FS_WRITE_FILE;
    const char *devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", NULL};
    int bad = wb_landlock_allow_system_reads(rs, abi) != 0;
    for (int i = 0; devices[i]; i++)
        bad |= wb_landlock_allow(rs, devices[i], dev, abi) != 0;
    for (int i = 0; i < n_reads; i++)
        bad |= wb_landlock_allow(rs, reads[i], wb_landlock_reads(), abi) != 0;
    for (int i = 0; i < n_writes; i++)
        bad |= wb_landlock_allow(rs, writes[i],
                                 wb_landlock_writes_allowed(abi) | wb_landlock_reads(), abi) != 0;
    if (bad || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        syscall(SYS_landlock_restrict_self, rs, 0) != 0) {
        snprintf(why, cap, "Landlock refused a rule: %s", strerror(errno));
        close(rs);
        return -1;
    }
    close(rs);
    return 0;
}

int main(int argc, char **argv) {
    char *reads[MAX_PATHS], *writes[MAX_PATHS];
    int n_reads = 0, n_writes = 0, i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
        int r = strcmp(argv[i], "--read") == 0, w = strcmp(argv[i], "--write") == 0;
        if ((!r && !w) || i + 1 >= argc || (r ? n_reads : n_writes) >= MAX_PATHS) {
            fprintf(stderr, "usage: %s [--read PATH]... [--write PATH]... -- COMMAND [ARG]...\n",
                    argv[0]);
            return 2;
        }
        if (r)
            reads[n_reads++] = argv[i + 1];
        else
            writes[n_writes++] = argv[i + 1];
    }
    if (i + 1 >= argc) {
        fprintf(stderr, "%s: no command after --\n", argv[0]);
        return 2;
    }
    char why[200];
    if (confine(reads, n_reads, writes, n_writes, why, sizeof why) != 0)
        fprintf(stderr, "wb-confine: the build runs unconfined: %s\n", why);
    execvp(argv[i + 1], argv + i + 1);
    fprintf(stderr, "wb-confine: %s: %s\n", argv[i + 1], strerror(errno));
    return 127;
}
