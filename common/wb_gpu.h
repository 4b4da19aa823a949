/* wb_gpu.h - what the grader knows of a GPU: identity, limits, peak rates */
/* SPDX-License-Identifier: MIT */
#ifndef WB_GPU_H
#define WB_GPU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wb_gpu {
    int index;
    int count; /* devices visible to the process */
    char name[256];
    int cc_major, cc_minor;
    int sm_count;
    int max_threads_per_sm;
    int sm_clock_khz;  /* cudaDevAttrClockRate */
    int mem_clock_khz; /* cudaDevAttrMemoryClockRate */
    int bus_width_bits;
    size_t l2_bytes;
    size_t global_mem_bytes;
    int driver_version, runtime_version;
    double peak_fp32_gflops; /* 2 FLOP per FMA x lanes x SMs x clock */
    double peak_dram_gbps;   /* 2 transfers per clock x bus width */
} wb_gpu;

/* FP32 lanes (CUDA cores) per SM for a compute capability, from the CUDA
 * Programming Guide's throughput table; 0 when the capability is unknown. */
int wb_fp32_lanes_per_sm(int major, int minor);
/* Peak FP32 rate in GFLOP/s: 2 x lanes x SMs x clock. */
double wb_peak_fp32_gflops(int sm_count, int lanes_per_sm, int sm_clock_khz);
/* Peak DRAM bandwidth in GB/s (1e9 bytes/s): double data rate x bus bytes x clock. */
double wb_peak_dram_gbps(int mem_clock_khz, int bus_width_bits);
/* The best of n GPUs for a compute-bound job: highest peak FP32, then highest
 * peak DRAM bandwidth, then lowest index. Returns its position, -1 when n < 1. */
int wb_gpu_pick_best(const wb_gpu *g, int n);
/* "NVIDIA H200 (sm_90)". */
void wb_gpu_label(const wb_gpu *g, char *buf, size_t cap);

/* Fills g for device dev (compiled with the CUDA runtime; see wb_device.cu).
 * Returns a cudaError_t value as int, so C callers need no CUDA header. */
int wb_gpu_query(int dev, wb_gpu *g);
/* Chooses the device to grade on: DEVICE=n from the environment when set and
 * valid, else wb_gpu_pick_best over all devices. Makes it current and fills g;
 * why says how it was chosen. Returns a cudaError_t value as int. */
int wb_gpu_select(wb_gpu *g, char *why, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
