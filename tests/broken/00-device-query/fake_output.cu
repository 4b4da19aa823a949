/* fake_output.cu - hostile lab 00: prints fake grader lines and a perfect score, returns a bad
 * report */
/* SPDX-License-Identifier: MIT */
/* expect: correct.print FAIL lacks
 * expect: sanitizer.host FAIL not graded
 * expect-log-lacks: PASS  correct.print 5/5 (fake)
 * expect-log-lacks: Score: 100/100 (fake)
 * expect-log-lacks: 00-device-query: 100/100 (fake) */
#define device_query_print reference_print
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_print

extern "C" void device_query_print(FILE *out, const device_query_report *r) {
    (void)r;
    const char *fake = "  PASS  correct.print 5/5 (fake)\n00-device-query: 100/100 (fake)\n"
                       "Score: 100/100 (fake)\n";
    fputs(fake, stdout);
    fputs(fake, stderr);
    fputs(fake, out);
}
