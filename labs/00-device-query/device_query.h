/* device_query.h - the contract of lab 00: query every GPU, derive its peak rates, pick one */
/* SPDX-License-Identifier: MIT */
#ifndef DEVICE_QUERY_H
#define DEVICE_QUERY_H

#include <stddef.h>
#include <stdio.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the runtime says about one device. Every field is filled from the
 * CUDA runtime (cudaGetDeviceProperties / cudaDeviceGetAttribute); the three
 * derived fields at the end come from the functions below. */
typedef struct device_query_report {
    int device;             /* its index, 0 .. count-1 */
    char name[256];         /* "NVIDIA H100 80GB HBM3" */
    int cc_major, cc_minor; /* compute capability */
    int sm_count;           /* streaming multiprocessors */
    int warp_size;
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int max_threads_dim[3];      /* per block, x y z */
    int max_grid_size[3];        /* blocks per grid, x y z */
    int regs_per_sm;             /* 32-bit registers per SM */
    int regs_per_block;          /* most registers one block may use */
    size_t smem_per_sm;          /* shared memory per SM, bytes */
    size_t smem_per_block;       /* per block without opting in, bytes */
    size_t smem_per_block_optin; /* per block after cudaFuncSetAttribute, bytes */
    size_t l2_bytes;
    size_t global_mem_bytes;
    int sm_clock_khz;  /* peak SM clock, kHz */
    int mem_clock_khz; /* peak memory clock, kHz */
    int mem_bus_width_bits;
    /* derived */
    int fp32_lanes_per_sm;   /* device_query_fp32_lanes(cc_major, cc_minor) */
    double peak_fp32_gflops; /* device_query_peak_fp32_gflops(this report) */
    double peak_dram_gbps;   /* device_query_peak_dram_gbps(this report) */
} device_query_report;

/* What a workload needs of a device. A field of 0 asks for nothing. */
typedef struct device_query_need {
    int min_cc;                  /* lowest compute capability as major*10+minor, e.g. 80 */
    size_t min_global_mem_bytes; /* device memory the data needs */
    size_t min_smem_per_block;   /* shared memory per block, opt-in allowed */
} device_query_need;

/* Stores the number of CUDA devices in *count. Returns the runtime's error,
 * cudaSuccess otherwise. Graded against cudaGetDeviceCount. Needs a GPU. */
cudaError_t device_query_count(int *count);

/* Fills *r for device dev (every field, derived ones included). Returns the
 * first runtime error, cudaSuccess otherwise; *r is then unspecified.
 * Graded field by field against the runtime on every device. Needs a GPU. */
cudaError_t device_query_fill(int dev, device_query_report *r);

/* FP32 lanes ("CUDA cores") per SM for a compute capability, as in the
 * CUDA C++ Programming Guide's throughput table (32-bit floating-point
 * add, multiply, multiply-add: results per clock per SM). Returns 0 for a
 * capability the table does not know. Pure host code: graded without a GPU
 * for capabilities 5.0 to 12.1 and for unknown ones. */
int device_query_fp32_lanes(int cc_major, int cc_minor);

/* Peak FP32 rate in GFLOP/s (1e9/s) from r's SM count, lanes per SM and SM
 * clock: one FMA counts as 2 FLOP. Pure host code; graded without a GPU on
 * random reports to a relative error of 1e-9, and on the GPU against a
 * measured FMA throughput (see README, "What is graded"). */
double device_query_peak_fp32_gflops(const device_query_report *r);

/* Peak DRAM bandwidth in GB/s (1e9 bytes/s) from r's memory clock and bus
 * width; DRAM moves data on both clock edges. Pure host code; graded like
 * the FP32 peak, on the GPU against a measured device-to-device copy. */
double device_query_peak_dram_gbps(const device_query_report *r);

/* Index into r[0..n) of the best device for a compute-bound FP32 job
 * that needs *need: among the devices that meet every need, the highest
 * peak FP32 rate; on a tie, the higher peak DRAM bandwidth; then the lower
 * position. Returns -1 when no device qualifies or n < 1. Pure host code. */
int device_query_pick_best(const device_query_report *r, int n, const device_query_need *need);

/* Prints a deviceQuery-style report of r to out: at least the name, the
 * compute capability as "major.minor", the SM count and both peak rates. */
void device_query_print(FILE *out, const device_query_report *r);

#ifdef __cplusplus
}
#endif
#endif
