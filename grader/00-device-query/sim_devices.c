/* sim_devices.c - lab 00's simulated GPUs: the runtime's device queries answered for other GPUs */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "sim_devices.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* The grader exports these runtime functions (exports.list), so the
 * student's library, which calls the shared runtime, calls them here. While
 * a simulated GPU is chosen they answer for it, as device 0 of 1; otherwise
 * they pass every call to the runtime. A device query that hard-codes the
 * grading GPU's figures is right on that GPU only: on these it is wrong. */

/* Figures of real GPUs as their drivers report them (CUDA 12-13). */
static const wb_sim_device devices[] = {
    {"NVIDIA A100-SXM4-40GB", 42297982976ULL, 8, 0, 108, 2048, 32, 65536, 65536, 167936, 49152,
     166912, 41943040, 1410000, 1215000, 5120},
    {"Tesla T4", 15835660288ULL, 7, 5, 40, 1024, 16, 65536, 65536, 65536, 49152, 65536, 4194304,
     1590000, 5001000, 256},
    {"NVIDIA GeForce RTX 4090", 25261112832ULL, 8, 9, 128, 1536, 24, 65536, 65536, 102400, 49152,
     101376, 75497472, 2520000, 10501000, 384},
    {"NVIDIA H200", 150110011392ULL, 9, 0, 132, 2048, 32, 65536, 65536, 233472, 49152, 232448,
     62914560, 1980000, 3201000, 6144},
    {"NVIDIA GeForce RTX 3060 Laptop GPU", 6222643200ULL, 8, 6, 30, 1536, 16, 65536, 65536,
     102400, 49152, 101376, 3145728, 1702000, 7001000, 192},
    /* Older than the labs support, but a real GPU whose registers per block
     * (32 K) are not its registers per SM (64 K): the one field every current
     * GPU reports alike. */
    {"NVIDIA Tegra X2", 8235577344ULL, 6, 2, 2, 2048, 32, 65536, 32768, 65536, 49152, 49152,
     524288, 1300500, 1866000, 128},
};

static const wb_sim_device *active;

int wb_sim_count(void) {
    return (int)(sizeof devices / sizeof devices[0]);
}

const wb_sim_device *wb_sim_get(int i) {
    return i >= 0 && i < wb_sim_count() ? &devices[i] : NULL;
}

void wb_sim_use(const wb_sim_device *d) {
    active = d;
}

static void *next(const char *name) {
    return dlsym(RTLD_NEXT, name);
}

cudaError_t cudaGetDeviceCount(int *count) {
    if (active) {
        *count = 1;
        return cudaSuccess;
    }
    cudaError_t (*f)(int *) = (cudaError_t(*)(int *))next("cudaGetDeviceCount");
    return f ? f(count) : cudaErrorNotSupported;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int dev) {
    if (active) {
        if (dev != 0)
            return cudaErrorInvalidDevice;
        memset(p, 0, sizeof *p);
        snprintf(p->name, sizeof p->name, "%s", active->name);
        p->totalGlobalMem = (size_t)active->global_mem;
        p->major = active->cc_major;
        p->minor = active->cc_minor;
        p->multiProcessorCount = active->sm_count;
        p->warpSize = 32;
        p->maxThreadsPerBlock = 1024;
        p->maxThreadsPerMultiProcessor = active->threads_per_sm;
        p->maxBlocksPerMultiProcessor = active->blocks_per_sm;
        p->regsPerMultiprocessor = active->regs_per_sm;
        p->regsPerBlock = active->regs_per_block;
        p->sharedMemPerMultiprocessor = (size_t)active->smem_per_sm;
        p->sharedMemPerBlock = (size_t)active->smem_per_block;
        p->sharedMemPerBlockOptin = (size_t)active->smem_optin;
        p->l2CacheSize = active->l2_bytes;
        p->memoryBusWidth = active->bus_bits;
        p->maxThreadsDim[0] = 1024, p->maxThreadsDim[1] = 1024, p->maxThreadsDim[2] = 64;
        p->maxGridSize[0] = 2147483647, p->maxGridSize[1] = 65535, p->maxGridSize[2] = 65535;
        return cudaSuccess;
    }
    cudaError_t (*f)(struct cudaDeviceProp *, int) =
        (cudaError_t(*)(struct cudaDeviceProp *, int))next("cudaGetDeviceProperties");
    return f ? f(p, dev) : cudaErrorNotSupported;
}

/* CUDA 12's headers turn cudaGetDeviceProperties into this name: a
 * library built with them calls it. */
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *p, int dev);
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *p, int dev) {
    if (active)
        return cudaGetDeviceProperties(p, dev);
    cudaError_t (*f)(struct cudaDeviceProp *, int) =
        (cudaError_t(*)(struct cudaDeviceProp *, int))next("cudaGetDeviceProperties_v2");
    return f ? f(p, dev) : cudaGetDeviceProperties(p, dev);
}

static int attribute(const wb_sim_device *d, enum cudaDeviceAttr a, int *v) {
    switch (a) {
    case cudaDevAttrComputeCapabilityMajor: *v = d->cc_major; return 1;
    case cudaDevAttrComputeCapabilityMinor: *v = d->cc_minor; return 1;
    case cudaDevAttrMultiProcessorCount: *v = d->sm_count; return 1;
    case cudaDevAttrWarpSize: *v = 32; return 1;
    case cudaDevAttrMaxThreadsPerBlock: *v = 1024; return 1;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = d->threads_per_sm; return 1;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = d->blocks_per_sm; return 1;
    case cudaDevAttrMaxBlockDimX: *v = 1024; return 1;
    case cudaDevAttrMaxBlockDimY: *v = 1024; return 1;
    case cudaDevAttrMaxBlockDimZ: *v = 64; return 1;
    case cudaDevAttrMaxGridDimX: *v = 2147483647; return 1;
    case cudaDevAttrMaxGridDimY: *v = 65535; return 1;
    case cudaDevAttrMaxGridDimZ: *v = 65535; return 1;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = d->regs_per_sm; return 1;
    case cudaDevAttrMaxRegistersPerBlock: *v = d->regs_per_block; return 1;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = d->smem_per_sm; return 1;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = d->smem_per_block; return 1;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = d->smem_optin; return 1;
    case cudaDevAttrL2CacheSize: *v = d->l2_bytes; return 1;
    case cudaDevAttrClockRate: *v = d->sm_clock_khz; return 1;
    case cudaDevAttrMemoryClockRate: *v = d->mem_clock_khz; return 1;
    case cudaDevAttrGlobalMemoryBusWidth: *v = d->bus_bits; return 1;
    default: return 0;
    }
}

cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int dev) {
    if (active) {
        if (dev != 0)
            return cudaErrorInvalidDevice;
        /* An attribute the simulation does not know: not one the contract needs. */
        return attribute(active, a, v) ? cudaSuccess : cudaErrorNotSupported;
    }
    cudaError_t (*f)(int *, enum cudaDeviceAttr, int) =
        (cudaError_t(*)(int *, enum cudaDeviceAttr, int))next("cudaDeviceGetAttribute");
    return f ? f(v, a, dev) : cudaErrorNotSupported;
}
