/* wb_landlock.h - Landlock rules shared by the test sandbox and wb-confine: what may be read and
 * written */
/* SPDX-License-Identifier: MIT */
#ifndef WB_LANDLOCK_H
#define WB_LANDLOCK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel's Landlock ABI version, 0 where it has none. */
int wb_landlock_abi(void);
/* Every write right this ABI knows (files and folders made, written, truncated, renamed,
 * removed, device nodes included): the rights a rule set handles, so refuses where no rule
 * allows them. */
uint64_t wb_landlock_writes(int abi);
/* The same but device nodes: what a folder that may be written is allowed. */
uint64_t wb_landlock_writes_allowed(int abi);
/* Reading files and folders, and running programs. */
uint64_t wb_landlock_reads(void);
/* Allows access beneath path (a folder) or on it (a file: file rights only) in rule set rs; a
 * path that does not exist here is no error. Returns 0, or -1 when Landlock refused the rule. */
int wb_landlock_allow(int rs, const char *path, uint64_t access, int abi);
/* Allows reading and running beneath the system's folders (/usr, /lib*, /bin, /sbin, /etc,
 * /opt, /proc, /sys, /dev, /run, /nix, /gnu, /snap), the CUDA Toolkit (CUDA_PATH, else
 * /usr/local/cuda) and every absolute folder on PATH and LD_LIBRARY_PATH but "/". */
int wb_landlock_allow_system_reads(int rs, int abi);

#ifdef __cplusplus
}
#endif
#endif
