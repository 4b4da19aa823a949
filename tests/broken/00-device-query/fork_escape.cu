/* fork_escape.cu - hostile lab 00: leaves a process in a session of its own, to write a file later
 */
/* SPDX-License-Identifier: MIT */
/* Its test passes (the answers are right); what it leaves behind must die
 * with the test, before it can touch the reports.
 * expect-no-file: build/tests/broken-report/00-device-query/fork_escape.escaped */
#define device_query_pick_best reference_pick_best
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_pick_best

#include <unistd.h>

extern "C" int device_query_pick_best(const device_query_report *r, int n,
                                      const device_query_need *need) {
    static int forked;
    if (!forked++ && fork() == 0) {
        setsid();
        sleep(2);
        FILE *f = fopen("build/tests/broken-report/00-device-query/fork_escape.escaped", "w");
        if (f)
            fclose(f);
        _exit(0);
    }
    return reference_pick_best(r, n, need);
}
