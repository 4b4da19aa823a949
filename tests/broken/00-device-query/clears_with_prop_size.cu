/* clears_with_prop_size.cu - broken lab 00: clears the report with the size of cudaDeviceProp */
/* SPDX-License-Identifier: MIT */
/* Meant to clear the runtime's struct, it clears *r with sizeof p: 1008
 * bytes into a report of 392, past its end. Every field is then filled
 * right, so only the memory after the report shows it.
 * expect: correct.fields FAIL past the end
 * expect: correct.other_gpus FAIL not graded
 * expect: check.fp32_vs_measured FAIL not graded
 * expect: check.dram_vs_measured FAIL not graded
 * expect: sanitizer.fill FAIL not graded */
#define device_query_fill reference_fill
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_fill

extern "C" cudaError_t device_query_fill(int dev, device_query_report *r) {
    cudaDeviceProp p;
    memset(r, 0, sizeof p); /* meant: memset(&p, 0, sizeof p) */
    return reference_fill(dev, r);
}
