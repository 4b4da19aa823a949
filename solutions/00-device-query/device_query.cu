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
    /* BEGIN STUDENT CODE */
    /* Every device the driver exposes, numbered 0..count-1. With no GPU (or
     * no driver) this returns an error instead of a zero count: pass it on. */
    return cudaGetDeviceCount(count);
    /* END STUDENT CODE */
}

cudaError_t device_query_fill(int dev, device_query_report *r) {
    memset(r, 0, sizeof *r);
    r->device = dev;
    /* BEGIN STUDENT CODE */
    /* The struct gives the name and the memory size; everything else comes
     * from cudaDeviceGetAttribute, which is cheap (no full struct copy) and
     * the only place CUDA 13 still reports the clocks. */
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, dev);
    if (e != cudaSuccess)
        return e;
    strncpy(r->name, p.name, sizeof r->name - 1);
    r->global_mem_bytes = p.totalGlobalMem;

    int smem_sm = 0, smem_block = 0, smem_optin = 0, l2 = 0;
    const struct {
        int *field;
        cudaDeviceAttr attr;
    } want[] = {
        {&r->cc_major, cudaDevAttrComputeCapabilityMajor},
        {&r->cc_minor, cudaDevAttrComputeCapabilityMinor},
        {&r->sm_count, cudaDevAttrMultiProcessorCount},
        {&r->warp_size, cudaDevAttrWarpSize},
        {&r->max_threads_per_block, cudaDevAttrMaxThreadsPerBlock},
        {&r->max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor},
        {&r->max_blocks_per_sm, cudaDevAttrMaxBlocksPerMultiprocessor},
        {&r->max_threads_dim[0], cudaDevAttrMaxBlockDimX},
        {&r->max_threads_dim[1], cudaDevAttrMaxBlockDimY},
        {&r->max_threads_dim[2], cudaDevAttrMaxBlockDimZ},
        {&r->max_grid_size[0], cudaDevAttrMaxGridDimX},
        {&r->max_grid_size[1], cudaDevAttrMaxGridDimY},
        {&r->max_grid_size[2], cudaDevAttrMaxGridDimZ},
        {&r->regs_per_sm, cudaDevAttrMaxRegistersPerMultiprocessor},
        {&r->regs_per_block, cudaDevAttrMaxRegistersPerBlock},
        {&smem_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor},
        {&smem_block, cudaDevAttrMaxSharedMemoryPerBlock},
        {&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin},
        {&l2, cudaDevAttrL2CacheSize},
        {&r->sm_clock_khz, cudaDevAttrClockRate},
        {&r->mem_clock_khz, cudaDevAttrMemoryClockRate},
        {&r->mem_bus_width_bits, cudaDevAttrGlobalMemoryBusWidth},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if ((e = cudaDeviceGetAttribute(want[i].field, want[i].attr, dev)) != cudaSuccess)
            return e;
    r->smem_per_sm = (size_t)smem_sm;
    r->smem_per_block = (size_t)smem_block;
    r->smem_per_block_optin = (size_t)smem_optin;
    r->l2_bytes = (size_t)l2;
    /* END STUDENT CODE */
    r->fp32_lanes_per_sm = device_query_fp32_lanes(r->cc_major, r->cc_minor);
    r->peak_fp32_gflops = device_query_peak_fp32_gflops(r);
    r->peak_dram_gbps = device_query_peak_dram_gbps(r);
    return cudaSuccess;
}

int device_query_fp32_lanes(int cc_major, int cc_minor) {
    /* BEGIN STUDENT CODE */
    /* The Programming Guide lists FP32 FMA results per clock per SM; the
     * runtime does not report it, so every tool keeps a table like this. */
    switch (cc_major * 10 + cc_minor) {
    case 50:
    case 52:
    case 53: /* Maxwell */
    case 61:
    case 62: /* Pascal GP10x */
        return 128;
    case 60: /* Pascal GP100 */
    case 70:
    case 72: /* Volta */
    case 75: /* Turing */
    case 80: /* Ampere GA100 (A100): FP64-heavy SMs */
        return 64;
    case 86:
    case 87: /* Ampere GA10x, Orin */
    case 89: /* Ada */
    case 90: /* Hopper */
    case 100:
    case 103: /* Blackwell (datacentre) */
    case 120:
    case 121: /* Blackwell (GeForce, workstation, Spark) */
        return 128;
    default:
        return 0; /* unknown: better no answer than a guess */
    }
    /* END STUDENT CODE */
}

double device_query_peak_fp32_gflops(const device_query_report *r) {
    /* BEGIN STUDENT CODE */
    /* lanes x SMs FMAs per clock, 2 FLOP each; kHz x 1e3 = Hz; / 1e9 = GFLOP/s. */
    return 2.0 * r->fp32_lanes_per_sm * (double)r->sm_count * r->sm_clock_khz * 1e3 / 1e9;
    /* END STUDENT CODE */
}

double device_query_peak_dram_gbps(const device_query_report *r) {
    /* BEGIN STUDENT CODE */
    /* The runtime reports the memory clock such that DRAM moves one bus
     * width of data on each of its two edges (double data rate). */
    return 2.0 * r->mem_clock_khz * 1e3 * (r->mem_bus_width_bits / 8.0) / 1e9;
    /* END STUDENT CODE */
}

int device_query_pick_best(const device_query_report *r, int n, const device_query_need *need) {
    /* BEGIN STUDENT CODE */
    int best = -1;
    for (int i = 0; i < n; i++) {
        const device_query_report *d = &r[i];
        if (d->cc_major * 10 + d->cc_minor < need->min_cc ||
            d->global_mem_bytes < need->min_global_mem_bytes ||
            d->smem_per_block_optin < need->min_smem_per_block)
            continue;
        /* Strictly better only, so the first of equals keeps its place. */
        if (best < 0 || d->peak_fp32_gflops > r[best].peak_fp32_gflops ||
            (d->peak_fp32_gflops == r[best].peak_fp32_gflops &&
             d->peak_dram_gbps > r[best].peak_dram_gbps))
            best = i;
    }
    return best;
    /* END STUDENT CODE */
}

void device_query_print(FILE *out, const device_query_report *r) {
    fprintf(out, "Device %d\n", r->device);
    /* BEGIN STUDENT CODE */
    fprintf(out, "  Name                              %s\n", r->name);
    fprintf(out, "  Compute capability                %d.%d\n", r->cc_major, r->cc_minor);
    fprintf(out, "  Streaming multiprocessors (SMs)   %d\n", r->sm_count);
    fprintf(out, "  FP32 lanes per SM                 %d\n", r->fp32_lanes_per_sm);
    fprintf(out, "  Warp size                         %d\n", r->warp_size);
    fprintf(out, "  Max threads per block / per SM    %d / %d\n", r->max_threads_per_block,
            r->max_threads_per_sm);
    fprintf(out, "  Max blocks per SM                 %d\n", r->max_blocks_per_sm);
    fprintf(out, "  Max block dimensions              %d x %d x %d\n", r->max_threads_dim[0],
            r->max_threads_dim[1], r->max_threads_dim[2]);
    fprintf(out, "  Max grid dimensions               %d x %d x %d\n", r->max_grid_size[0],
            r->max_grid_size[1], r->max_grid_size[2]);
    fprintf(out, "  Registers per SM / per block      %d / %d\n", r->regs_per_sm,
            r->regs_per_block);
    fprintf(out, "  Shared memory per SM              %zu bytes\n", r->smem_per_sm);
    fprintf(out, "  Shared memory per block           %zu bytes (%zu opt-in)\n", r->smem_per_block,
            r->smem_per_block_optin);
    fprintf(out, "  L2 cache                          %zu bytes\n", r->l2_bytes);
    fprintf(out, "  Device memory                     %zu MiB\n", r->global_mem_bytes >> 20);
    fprintf(out, "  SM clock                          %d MHz\n", r->sm_clock_khz / 1000);
    fprintf(out, "  Memory clock x bus width          %d MHz x %d bits\n", r->mem_clock_khz / 1000,
            r->mem_bus_width_bits);
    fprintf(out, "  Peak FP32                         %.0f GFLOP/s\n", r->peak_fp32_gflops);
    fprintf(out, "  Peak DRAM bandwidth               %.0f GB/s\n", r->peak_dram_gbps);
    /* END STUDENT CODE */
}
