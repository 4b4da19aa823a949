/* abort.cu - broken lab 00: abort() in the middle of device_query_print */
/* SPDX-License-Identifier: MIT */
/* expect: correct.print FAIL signal 6
 * expect: sanitizer.host FAIL not graded */
#define device_query_print reference_print
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_print

#include <stdlib.h>

extern "C" void device_query_print(FILE *out, const device_query_report *r) {
    fprintf(out, "Device %d\n", r->device);
    abort();
}
