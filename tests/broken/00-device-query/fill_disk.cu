/* fill_disk.cu - hostile lab 00: right answers, and 48 MiB of files, a folder 2000 deep and 8 MiB
 * of output left behind */
/* SPDX-License-Identifier: MIT */
/* Each test may write only in its scratch folder, but what it leaves there was kept, copied
 * into the report folder (and by grade-submission.sh into the class's output, twice), and a
 * folder nested deeper than the grader's recursion could remove crashed the grader's next run
 * in that report folder. The grader now keeps at most 32 MiB and 256 entries of one test's
 * scratch folder (64 MiB for a whole run), removes what passes that, never recurses without
 * bound, and keeps the first 1 MiB of a test's output. The test still passes: leaving files is
 * no wrong answer.
 * expect-report-under: 8 */
#define device_query_pick_best reference_pick_best
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_pick_best
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static void fill(void) {
    const char *scratch = getenv("WB_SCRATCH");
    if (!scratch)
        return;
    static char block[1 << 20];
    memset(block, 'x', sizeof block);
    char p[4200];
    for (int i = 0; i < 48; i++) {
        snprintf(p, sizeof p, "%s/fill%02d.txt", scratch, i);
        FILE *f = fopen(p, "w");
        if (f) {
            fwrite(block, 1, sizeof block, f);
            fclose(f);
        }
    }
    int dir = open(scratch, O_RDONLY | O_DIRECTORY);
    for (int depth = 0; dir >= 0 && depth < 2000; depth++) { /* relative: no path grows long */
        mkdirat(dir, "d", 0700);
        int next = openat(dir, "d", O_RDONLY | O_DIRECTORY);
        close(dir);
        dir = next;
    }
    if (dir >= 0)
        close(dir);
    for (int i = 0; i < 8; i++)
        fwrite(block, 1, sizeof block, stdout);
    fflush(stdout);
}
extern "C" int device_query_pick_best(const device_query_report *r, int n,
                                      const device_query_need *need) {
    static int done;
    if (!done++)
        fill();
    return reference_pick_best(r, n, need);
}
