/* sim_occupancy.c - blocks per SM of a kernel on a simulated GPU, by the toolkit's calculator */
/* SPDX-License-Identifier: MIT */
#include "sim_devices.h"

#include <cuda_occupancy.h>

/* Shared memory the driver keeps per block: 1 KiB from compute capability
 * 8.0 on, none before. */
static size_t reserved_smem(const wb_sim_device *d) {
    return d->cc_major >= 8 ? 1024 : 0;
}

int wb_sim_blocks_per_sm(const wb_sim_device *d, const wb_sim_kernel *k, int threads,
                         size_t dynamic_smem, int *blocks) {
    if (!d || !k || !blocks)
        return -1;
    cudaOccDeviceProp p;
    p.computeMajor = d->cc_major;
    p.computeMinor = d->cc_minor;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsPerMultiprocessor = d->threads_per_sm;
    p.regsPerBlock = d->regs_per_block;
    p.regsPerMultiprocessor = d->regs_per_sm;
    p.warpSize = 32;
    p.sharedMemPerBlock = (size_t)d->smem_per_block;
    p.sharedMemPerMultiprocessor = (size_t)d->smem_per_sm;
    p.numSms = d->sm_count;
    p.sharedMemPerBlockOptin = (size_t)d->smem_optin;
    p.reservedSharedMemPerBlock = reserved_smem(d);
    /* As the header converts cudaFuncAttributes (its C++ constructor). */
    cudaOccFuncAttributes f;
    f.maxThreadsPerBlock = k->max_threads_per_block;
    f.numRegs = k->regs_per_thread;
    f.sharedSizeBytes = k->static_smem;
    f.partitionedGCConfig = PARTITIONED_GC_OFF;
    f.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    f.maxDynamicSharedSizeBytes = k->max_dynamic_smem;
    f.numBlockBarriers = 1;
    f.virtualResourceCount = 0;
    cudaOccDeviceState s;
    s.cacheConfig = CACHE_PREFER_NONE;
    s.carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT;
    cudaOccResult r;
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &f, &s, threads, dynamic_smem) !=
        CUDA_OCC_SUCCESS)
        return -1;
    *blocks = r.activeBlocksPerMultiprocessor;
    return 0;
}
