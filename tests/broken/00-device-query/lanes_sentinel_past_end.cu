/* lanes_sentinel_past_end.cu - broken lab 00: the lanes table ends in a sentinel entry written
 * one past the entries malloc gave room for */
/* SPDX-License-Identifier: MIT */
/* The lanes are the Programming Guide's, built on the first call into a table of one entry per
 * capability, which the lookup walks until an entry of capability 0: no count to keep. Room was
 * asked for the 18 capabilities and not for that last entry, whose capability goes one past the
 * end. 18 entries of 8 bytes are 144, and glibc hands out 8 bytes more than a multiple of 16
 * asks: the write, and the read that ends every walk there, land in that slack, and every
 * count stays right. Only AddressSanitizer sees it, and names the line.
 * expect: sanitizer.host FAIL heap-buffer-overflow, a WRITE of size 4 at lanes_sentinel_past_end.cu:38
 */
#define device_query_fp32_lanes reference_lanes
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_fp32_lanes

#include <stdlib.h>

typedef struct lanes_entry {
    int cc; /* 10 * major + minor; 0 ends the table */
    int lanes;
} lanes_entry;

extern "C" int device_query_fp32_lanes(int cc_major, int cc_minor) {
    /* The capabilities the Programming Guide lists. */
    static const int listed[] = {50, 52, 53, 60, 61, 62,  70,  72,  75,
                                 80, 86, 87, 89, 90, 100, 103, 120, 121};
    static lanes_entry *table; /* built once */
    const int n = (int)(sizeof listed / sizeof listed[0]);
    if (table == NULL) {
        lanes_entry *t = (lanes_entry *)malloc(n * sizeof *t); /* one entry a capability */
        if (t == NULL)
            return 0;
        for (int i = 0; i < n; i++) {
            const int cc = listed[i];
            t[i].cc = cc;
            t[i].lanes = cc == 60 || (cc >= 70 && cc <= 80) ? 64 : 128; /* GP100, Volta to A100 */
        }
        t[n].cc = 0; /* the end of the table */
        table = t;
    }
    const int cc = 10 * cc_major + cc_minor;
    if (cc_major < 1 || cc_minor < 0 || cc_minor > 9)
        return 0;
    for (const lanes_entry *e = table; e->cc != 0; e++)
        if (e->cc == cc)
            return e->lanes;
    return 0;
}
