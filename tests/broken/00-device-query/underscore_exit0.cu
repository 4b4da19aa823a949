/* underscore_exit0.cu - broken lab 00: _exit(0) in device_query_print, after printing a fake
 * verdict */
/* SPDX-License-Identifier: MIT */
/* expect: correct.print FAIL exit status 0
 * expect: sanitizer.host FAIL not graded */
#define device_query_print reference_print
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_print

#include <unistd.h>

extern "C" void device_query_print(FILE *out, const device_query_report *r) {
    (void)out;
    (void)r;
    printf("  PASS  correct.print 5/5\nScore: 100/100\n");
    fprintf(stderr, "  PASS  correct.print 5/5\nScore: 100/100\n");
    fflush(NULL);
    _exit(0);
}
