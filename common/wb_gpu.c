/* wb_gpu.c - GPU arithmetic that needs no GPU: lanes per SM, peak rates, choice */
/* SPDX-License-Identifier: MIT */
#include "wb_gpu.h"

#include <stdio.h>

int wb_fp32_lanes_per_sm(int major, int minor) {
    switch (major * 10 + minor) {
    case 50:
    case 52:
    case 53:
        return 128; /* Maxwell */
    case 60:
        return 64; /* Pascal GP100 */
    case 61:
    case 62:
        return 128; /* Pascal */
    case 70:
    case 72:
        return 64; /* Volta */
    case 75:
        return 64; /* Turing */
    case 80:
        return 64; /* Ampere GA100 */
    case 86:
    case 87:
        return 128; /* Ampere GA10x, Orin */
    case 89:
        return 128; /* Ada */
    case 90:
        return 128; /* Hopper */
    case 100:
    case 103:
        return 128; /* Blackwell datacentre */
    case 120:
    case 121:
        return 128; /* Blackwell GeForce, Spark */
    default:
        return 0;
    }
}

double wb_peak_fp32_gflops(int sm_count, int lanes_per_sm, int sm_clock_khz) {
    return 2.0 * lanes_per_sm * (double)sm_count * sm_clock_khz * 1e3 / 1e9;
}

double wb_peak_dram_gbps(int mem_clock_khz, int bus_width_bits) {
    return 2.0 * mem_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
}

int wb_gpu_pick_best(const wb_gpu *g, int n) {
    int best = n > 0 ? 0 : -1;
    for (int i = 1; i < n; i++) {
        if (g[i].peak_fp32_gflops > g[best].peak_fp32_gflops ||
            (g[i].peak_fp32_gflops == g[best].peak_fp32_gflops &&
             g[i].peak_dram_gbps > g[best].peak_dram_gbps))
            best = i;
    }
    return best;
}

void wb_gpu_label(const wb_gpu *g, char *buf, size_t cap) {
    snprintf(buf, cap, "%s (sm_%d%d)", g->name, g->cc_major, g->cc_minor);
}
