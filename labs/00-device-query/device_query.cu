/* device_query.cu - lab 00: ask the runtime what the GPU is, derive its peak rates */
/* SPDX-License-Identifier: MIT */
/*
 * You edit only this file and answers.txt. The contract (what each function
 * must do, and how it is graded) is in device_query.h; README.md explains
 * the background. `make grade LAB=00` grades your work.
 */
#include "device_query.h"

#include <cuda_runtime.h>
#include <string.h>

cudaError_t device_query_count(int *count) {
    /* TODO(00-device-query): ask the runtime how many devices there are.
     * Hint: README.md, "Counting devices". */
    /* BEGIN STUDENT CODE */
    *count = 0;
    return cudaSuccess;
    /* END STUDENT CODE */
}

cudaError_t device_query_fill(int dev, device_query_report *r) {
    memset(r, 0, sizeof *r);
    r->device = dev;
    /* TODO(00-device-query): fill every field from the runtime.
     * Hint: README.md, "Reading properties and attributes". */
    /* BEGIN STUDENT CODE */
    /* END STUDENT CODE */
    r->fp32_lanes_per_sm = device_query_fp32_lanes(r->cc_major, r->cc_minor);
    r->peak_fp32_gflops = device_query_peak_fp32_gflops(r);
    r->peak_dram_gbps = device_query_peak_dram_gbps(r);
    return cudaSuccess;
}

int device_query_fp32_lanes(int cc_major, int cc_minor) {
    /* TODO(00-device-query): FP32 lanes per SM for each compute capability.
     * Hint: README.md, "Peak rates". */
    /* BEGIN STUDENT CODE */
    (void)cc_major;
    (void)cc_minor;
    return 0;
    /* END STUDENT CODE */
}

double device_query_peak_fp32_gflops(const device_query_report *r) {
    /* TODO(00-device-query): 2 FLOP per FMA, per lane, per clock, per SM.
     * Hint: README.md, "Peak rates". */
    /* BEGIN STUDENT CODE */
    (void)r;
    return 0.0;
    /* END STUDENT CODE */
}

double device_query_peak_dram_gbps(const device_query_report *r) {
    /* TODO(00-device-query): bytes per transfer, transfers per second.
     * Hint: README.md, "Peak rates". */
    /* BEGIN STUDENT CODE */
    (void)r;
    return 0.0;
    /* END STUDENT CODE */
}

int device_query_pick_best(const device_query_report *r, int n, const device_query_need *need) {
    /* TODO(00-device-query): filter by the needs, then rank.
     * Hint: README.md, "Choosing a device". */
    /* BEGIN STUDENT CODE */
    (void)r;
    (void)n;
    (void)need;
    return -1;
    /* END STUDENT CODE */
}

void device_query_print(FILE *out, const device_query_report *r) {
    fprintf(out, "Device %d\n", r->device);
    /* TODO(00-device-query): print the report, one property per line.
     * Hint: README.md, "Build, run and expected output". */
    /* BEGIN STUDENT CODE */
    /* END STUDENT CODE */
}
