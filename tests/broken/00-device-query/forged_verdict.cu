/* forged_verdict.cu - broken lab 00: device_query_print prints nothing; instead it writes a
 * passing record ("done") into every pipe it holds, the grader's record channel among them,
 * and ends its process with the status the grader's own tests end with */
/* SPDX-License-Identifier: MIT */
/* expect: correct.print FAIL the grader did not write
 * expect: sanitizer.host FAIL not graded */
#define device_query_print reference_print
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_print

#include <sys/stat.h>
#include <unistd.h>

extern "C" void device_query_print(FILE *out, const device_query_report *r) {
    (void)out;
    (void)r;
    const char forged[] = "measured\tall fields printed\ndone\t1\n";
    for (int fd = 3; fd < 1024; fd++) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
            ssize_t w = write(fd, forged, sizeof forged - 1);
            (void)w;
        }
    }
    _exit(93);
}
