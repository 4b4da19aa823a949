/* sim_devices.c - simulated GPUs: the runtime's device queries answered for other GPUs */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "sim_devices.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* A grader links this file only where its lab opts in with
 * grader/<lab>/exports.list (the Makefile), which exports these runtime
 * functions, so the student's library, which calls the shared runtime,
 * calls them here; the grader's own calls land here too. While
 * simulated GPUs are chosen they answer for them, as devices 0 .. count-1;
 * otherwise they pass every call to the runtime. A device query that
 * hard-codes the grading GPU's figures is right on that GPU only: on these
 * it is wrong. One that reads device 0 whatever it is asked is right on a
 * machine of one GPU only: on a simulated machine of two it is wrong. Where
 * a lab's exports.list names it, the occupancy API answers for the
 * simulated GPU too (sim_occupancy_api.c). Everything else (launches, memory, function attributes) stays the real
 * GPU's: libcudart is linked -Bsymbolic, so its own internal queries never
 * reach these functions. */

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

static const wb_sim_device *active[WB_SIM_MAX_DEVICES];
static int active_count, current;
static int shown_sms; /* wb_sim_show_sms: 0, or the most SMs the real GPUs show */

int wb_sim_count(void) {
    return (int)(sizeof devices / sizeof devices[0]);
}

const wb_sim_device *wb_sim_get(int i) {
    return i >= 0 && i < wb_sim_count() ? &devices[i] : NULL;
}

void wb_sim_use(const wb_sim_device *d) {
    wb_sim_use_machine(d ? &d : NULL, d ? 1 : 0);
}

void wb_sim_use_machine(const wb_sim_device *const *d, int n) {
    active_count = d && n > 0 ? (n < WB_SIM_MAX_DEVICES ? n : WB_SIM_MAX_DEVICES) : 0;
    for (int i = 0; i < active_count; i++)
        active[i] = d[i];
    current = 0;
}

void wb_sim_show_sms(int n) {
    shown_sms = n > 0 ? n : 0;
}

/* The SM count a real GPU reports, capped by wb_sim_show_sms. */
static int shown(int real) {
    return shown_sms && real > shown_sms ? shown_sms : real;
}

/* The simulated device dev, or NULL when dev is not one of them. */
static const wb_sim_device *sim(int dev) {
    return dev >= 0 && dev < active_count ? active[dev] : NULL;
}

const wb_sim_device *wb_sim_current(void) {
    return active_count ? sim(current) : NULL;
}

void *wb_sim_next(const char *name) {
    return dlsym(RTLD_NEXT, name);
}

cudaError_t cudaGetDeviceCount(int *count) {
    if (active_count) {
        *count = active_count;
        return cudaSuccess;
    }
    cudaError_t (*f)(int *) = (cudaError_t(*)(int *))wb_sim_next("cudaGetDeviceCount");
    return f ? f(count) : cudaErrorNotSupported;
}

/* The current device, as the simulated machine sees it: setting one of its
 * devices succeeds without touching the real GPU. */
cudaError_t cudaSetDevice(int dev) {
    if (active_count) {
        if (!sim(dev))
            return cudaErrorInvalidDevice;
        current = dev;
        return cudaSuccess;
    }
    cudaError_t (*f)(int) = (cudaError_t(*)(int))wb_sim_next("cudaSetDevice");
    return f ? f(dev) : cudaErrorNotSupported;
}

cudaError_t cudaGetDevice(int *dev) {
    if (active_count) {
        *dev = current;
        return cudaSuccess;
    }
    cudaError_t (*f)(int *) = (cudaError_t(*)(int *))wb_sim_next("cudaGetDevice");
    return f ? f(dev) : cudaErrorNotSupported;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int dev) {
    if (active_count) {
        const wb_sim_device *d = sim(dev);
        if (!d)
            return cudaErrorInvalidDevice;
        memset(p, 0, sizeof *p);
        snprintf(p->name, sizeof p->name, "%s", d->name);
        p->totalGlobalMem = (size_t)d->global_mem;
        p->major = d->cc_major;
        p->minor = d->cc_minor;
        p->multiProcessorCount = d->sm_count;
        p->warpSize = 32;
        p->maxThreadsPerBlock = 1024;
        p->maxThreadsPerMultiProcessor = d->threads_per_sm;
        p->maxBlocksPerMultiProcessor = d->blocks_per_sm;
        p->regsPerMultiprocessor = d->regs_per_sm;
        p->regsPerBlock = d->regs_per_block;
        p->sharedMemPerMultiprocessor = (size_t)d->smem_per_sm;
        p->sharedMemPerBlock = (size_t)d->smem_per_block;
        p->sharedMemPerBlockOptin = (size_t)d->smem_optin;
        p->reservedSharedMemPerBlock = wb_sim_reserved_smem(d);
        p->l2CacheSize = d->l2_bytes;
        p->memoryBusWidth = d->bus_bits;
        p->maxThreadsDim[0] = 1024, p->maxThreadsDim[1] = 1024, p->maxThreadsDim[2] = 64;
        p->maxGridSize[0] = 2147483647, p->maxGridSize[1] = 65535, p->maxGridSize[2] = 65535;
        return cudaSuccess;
    }
    cudaError_t (*f)(struct cudaDeviceProp *, int) =
        (cudaError_t(*)(struct cudaDeviceProp *, int))wb_sim_next("cudaGetDeviceProperties");
    cudaError_t e = f ? f(p, dev) : cudaErrorNotSupported;
    if (e == cudaSuccess)
        p->multiProcessorCount = shown(p->multiProcessorCount);
    return e;
}

/* CUDA 12's headers turn cudaGetDeviceProperties into this name: a
 * library built with them calls it. */
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *p, int dev);
cudaError_t cudaGetDeviceProperties_v2(struct cudaDeviceProp *p, int dev) {
    if (active_count)
        return cudaGetDeviceProperties(p, dev);
    cudaError_t (*f)(struct cudaDeviceProp *, int) =
        (cudaError_t(*)(struct cudaDeviceProp *, int))wb_sim_next("cudaGetDeviceProperties_v2");
    if (!f)
        return cudaGetDeviceProperties(p, dev);
    cudaError_t e = f(p, dev);
    if (e == cudaSuccess)
        p->multiProcessorCount = shown(p->multiProcessorCount);
    return e;
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
    case cudaDevAttrReservedSharedMemoryPerBlock: *v = (int)wb_sim_reserved_smem(d); return 1;
    case cudaDevAttrL2CacheSize: *v = d->l2_bytes; return 1;
    case cudaDevAttrClockRate: *v = d->sm_clock_khz; return 1;
    case cudaDevAttrMemoryClockRate: *v = d->mem_clock_khz; return 1;
    case cudaDevAttrGlobalMemoryBusWidth: *v = d->bus_bits; return 1;
    default: return 0;
    }
}

cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int dev) {
    if (active_count) {
        if (!sim(dev))
            return cudaErrorInvalidDevice;
        if (attribute(sim(dev), a, v))
            return cudaSuccess;
    }
    cudaError_t (*f)(int *, enum cudaDeviceAttr, int) =
        (cudaError_t(*)(int *, enum cudaDeviceAttr, int))wb_sim_next("cudaDeviceGetAttribute");
    if (active_count) {
        /* An attribute the simulation does not know (no contract's figure):
         * the real current GPU's, so that code reading it still runs. */
        cudaError_t (*get)(int *) = (cudaError_t(*)(int *))wb_sim_next("cudaGetDevice");
        if (!get || get(&dev) != cudaSuccess)
            return cudaErrorNotSupported;
    }
    cudaError_t e = f ? f(v, a, dev) : cudaErrorNotSupported;
    if (e == cudaSuccess && !active_count && a == cudaDevAttrMultiProcessorCount)
        *v = shown(*v);
    return e;
}

