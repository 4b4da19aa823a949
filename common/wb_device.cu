/* wb_device.cu - query GPUs through the runtime and choose the one to grade on */
/* SPDX-License-Identifier: MIT */
#include "wb_gpu.h"
#include "wb_env.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cudaError_t attr(int *v, cudaDeviceAttr a, int dev) {
    return cudaDeviceGetAttribute(v, a, dev);
}

extern "C" int wb_gpu_query(int dev, wb_gpu *g) {
    memset(g, 0, sizeof *g);
    g->index = dev;
    cudaError_t e = cudaGetDeviceCount(&g->count);
    if (e != cudaSuccess)
        return e;
    cudaDeviceProp p;
    if ((e = cudaGetDeviceProperties(&p, dev)) != cudaSuccess)
        return e;
    snprintf(g->name, sizeof g->name, "%s", p.name);
    g->global_mem_bytes = p.totalGlobalMem;
    int l2 = 0;
    if ((e = attr(&g->cc_major, cudaDevAttrComputeCapabilityMajor, dev)) ||
        (e = attr(&g->cc_minor, cudaDevAttrComputeCapabilityMinor, dev)) ||
        (e = attr(&g->sm_count, cudaDevAttrMultiProcessorCount, dev)) ||
        (e = attr(&g->max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev)) ||
        (e = attr(&g->sm_clock_khz, cudaDevAttrClockRate, dev)) ||
        (e = attr(&g->mem_clock_khz, cudaDevAttrMemoryClockRate, dev)) ||
        (e = attr(&g->bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, dev)) ||
        (e = attr(&l2, cudaDevAttrL2CacheSize, dev)))
        return e;
    g->l2_bytes = (size_t)l2;
    cudaDriverGetVersion(&g->driver_version);
    cudaRuntimeGetVersion(&g->runtime_version);
    g->peak_fp32_gflops = wb_peak_fp32_gflops(
        g->sm_count, wb_fp32_lanes_per_sm(g->cc_major, g->cc_minor), g->sm_clock_khz);
    g->peak_dram_gbps = wb_peak_dram_gbps(g->mem_clock_khz, g->bus_width_bits);
    return cudaSuccess;
}

extern "C" int wb_gpu_select(wb_gpu *g, char *why, size_t cap) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess)
        return e;
    unsigned long long v = 0;
    char err[256];
    int set = wb_env_ull("DEVICE", 0, n > 0 ? (unsigned long long)n - 1 : 0, &v,
                         "DEVICE=n grades on GPU n (nvidia-smi -L lists them)", err, sizeof err);
    int dev = -1;
    if (set < 0) {
        snprintf(why, cap, "%s", err);
        return cudaErrorInvalidDevice;
    }
    if (set > 0) {
        dev = (int)v;
        snprintf(why, cap, "device %d of %d, chosen by DEVICE=%d", dev, n, dev);
    } else {
        wb_gpu *all = (wb_gpu *)calloc((size_t)n, sizeof *all);
        if (!all)
            return cudaErrorMemoryAllocation;
        for (int i = 0; i < n; i++)
            if ((e = (cudaError_t)wb_gpu_query(i, &all[i])) != cudaSuccess)
                break;
        dev = e == cudaSuccess ? wb_gpu_pick_best(all, n) : -1;
        free(all);
        if (e != cudaSuccess)
            return e;
        snprintf(why, cap, "device %d of %d%s", dev, n,
                 n > 1 ? ", the highest peak FP32 rate (set DEVICE=n to choose)" : "");
    }
    if ((e = cudaSetDevice(dev)) != cudaSuccess)
        return e;
    return wb_gpu_query(dev, g);
}
