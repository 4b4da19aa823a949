/* wb_landlock.c - Landlock rules shared by the test sandbox and wb-confine */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "wb_landlock.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Landlock's constants newer than some distributions' headers. */
#define LL_FS_REFER (1ULL << 13)
#define LL_FS_TRUNCATE (1ULL << 14)
#define LL_CREATE_RULESET_VERSION (1U << 0)

struct ll_path_beneath {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

int wb_landlock_abi(void) {
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    return v > 0 ? (int)v : 0;
}

uint64_t wb_landlock_writes(int abi) {
    uint64_t w = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                 LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                 LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                 LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2)
        w |= LL_FS_REFER;
    if (abi >= 3)
        w |= LL_FS_TRUNCATE;
    return w;
}

/* As root, a device node naming a disk or /dev/mem where writes are allowed would open the
 * whole machine. */
uint64_t wb_landlock_writes_allowed(int abi) {
    return wb_landlock_writes(abi) &
           ~(uint64_t)(LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_BLOCK);
}

uint64_t wb_landlock_reads(void) {
    return LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_EXECUTE;
}

int wb_landlock_allow(int rs, const char *path, uint64_t access, int abi) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0)
        return 0;
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) /* a file takes file rights only */
        access &= LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
                  LANDLOCK_ACCESS_FS_EXECUTE | (abi >= 3 ? LL_FS_TRUNCATE : 0);
    struct ll_path_beneath pb = {access, fd};
    int r = (int)syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
    close(fd);
    return r;
}

/* Every absolute folder of a list like PATH's; never "/" itself, which would allow everything. */
static int allow_read_list(int rs, const char *list, int abi) {
    char buf[8192];
    int bad = 0;
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    for (char *s = NULL, *dir = strtok_r(buf, ":", &s); dir; dir = strtok_r(NULL, ":", &s))
        if (dir[0] == '/' && dir[strspn(dir, "/")] != '\0')
            bad |= wb_landlock_allow(rs, dir, wb_landlock_reads(), abi) != 0;
    return bad;
}

int wb_landlock_allow_system_reads(int rs, int abi) {
    const char *roots[] = {"/usr",  "/lib", "/lib32", "/lib64", "/libx32", "/bin",
                           "/sbin", "/etc", "/opt",   "/proc",  "/sys",    "/dev",
                           "/run",  "/nix", "/gnu",   "/snap",  NULL};
    int bad = 0;
    for (int i = 0; roots[i]; i++)
        bad |= wb_landlock_allow(rs, roots[i], wb_landlock_reads(), abi) != 0;
    const char *cuda = getenv("CUDA_PATH");
    bad |= wb_landlock_allow(rs, cuda && cuda[0] == '/' ? cuda : "/usr/local/cuda",
                             wb_landlock_reads(), abi) != 0;
    bad |= allow_read_list(rs, getenv("PATH"), abi) |
           allow_read_list(rs, getenv("LD_LIBRARY_PATH"), abi);
    return bad ? -1 : 0;
}
