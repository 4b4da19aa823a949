/* check_messages.cu - hostile lab 00: writes malformed messages into every file descriptor it
 * inherited (Check's message file among them), and answers right */
/* SPDX-License-Identifier: MIT */
/* Check's parent reads the messages of a test's process from a file that process holds open; a
 * malformed one ("Bad message type", a length past its buffer) stopped the parent, and with it
 * the whole lab's grading: no results.json. Every descriptor a test inherits but its standard
 * ones and its record channel now leads to /dev/null, so the grading goes on and this variant
 * loses nothing. (The record channel, a pipe, is left alone: writing into it is forging, which
 * the grader cannot stop from inside the process: README, "What it does not defend against".) */
#define device_query_pick_best reference_pick_best
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_pick_best
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static void spoil(void) {
    unsigned char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i * 37 + 11);
    const unsigned int head[4] = {2, 0x7fffffffu, 0xffffffffu, 3}; /* a type, a huge length */
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    char p[64], t[512];
    while (d && (e = readdir(d))) {
        int fd = atoi(e->d_name);
        snprintf(p, sizeof p, "/proc/self/fd/%s", e->d_name);
        ssize_t k = readlink(p, t, sizeof t - 1);
        if (fd <= 2 || fd == dirfd(d) || k <= 0 || (t[k] = 0, strncmp(t, "pipe:", 5) == 0))
            continue;
        ssize_t w = write(fd, head, sizeof head);
        w = write(fd, junk, sizeof junk);
        (void)w;
    }
    if (d)
        closedir(d);
}
__attribute__((constructor)) static void at_load(void) {
    spoil();
}
extern "C" int device_query_pick_best(const device_query_report *r, int n,
                                      const device_query_need *need) {
    static int done;
    if (!done++)
        spoil();
    return reference_pick_best(r, n, need);
}
