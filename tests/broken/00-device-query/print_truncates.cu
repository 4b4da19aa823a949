/* print_truncates.cu - broken lab 00: the report cuts the peaks' digits off instead of rounding */
/* SPDX-License-Identifier: MIT */
/* The reference's report with both peaks printed as (long) casts, which
 * truncate: 40396.7 GFLOP/s comes out as 40396, not 40397. Half of the
 * randomly drawn devices have a peak whose fraction is below one half and
 * read the same either way, so the grader also prints a device drawn until
 * both of its peaks read differently rounded and cut, in whole G/s and in
 * T/s with one or two decimals. (More decimals than that pass, if rounded.)
 * expect: correct.print FAIL not cut
 * expect: sanitizer.host FAIL not graded */
#define device_query_print reference_print
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_print

extern "C" void device_query_print(FILE *out, const device_query_report *r) {
    fprintf(out, "Device %d\n", r->device);
    fprintf(out, "  Name                              %s\n", r->name);
    fprintf(out, "  Compute capability                %d.%d\n", r->cc_major, r->cc_minor);
    fprintf(out, "  Streaming multiprocessors (SMs)   %d\n", r->sm_count);
    fprintf(out, "  Peak FP32                         %ld GFLOP/s\n", (long)r->peak_fp32_gflops);
    fprintf(out, "  Peak DRAM bandwidth               %ld GB/s\n", (long)r->peak_dram_gbps);
}
