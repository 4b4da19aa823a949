/* sim_occupancy.c - blocks per SM of a kernel on a simulated GPU, by the toolkit's calculator */
/* SPDX-License-Identifier: MIT */
#include "sim_devices.h"

#include <cuda_occupancy.h>
#include <string.h>

size_t wb_sim_reserved_smem(const wb_sim_device *d) {
    return d->cc_major >= 8 ? 1024 : 0;
}

int wb_sim_blocks_per_sm(const wb_sim_device *d, const wb_sim_kernel *k, int threads,
                         size_t dynamic_smem, int *blocks) {
    if (!d || !k || !blocks)
        return -1;
    /* Every field set below; zeroed first, as the header asks of C users,
     * so that a field a later toolkit adds starts at 0. */
    cudaOccDeviceProp p;
    cudaOccFuncAttributes f;
    cudaOccDeviceState s;
    cudaOccResult r;
    memset(&p, 0, sizeof p);
    memset(&f, 0, sizeof f);
    memset(&s, 0, sizeof s);
    memset(&r, 0, sizeof r);
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
    p.reservedSharedMemPerBlock = wb_sim_reserved_smem(d);
    /* As the header converts cudaFuncAttributes (its C++ constructor). */
    f.maxThreadsPerBlock = k->max_threads_per_block;
    f.numRegs = k->regs_per_thread;
    f.sharedSizeBytes = k->static_smem;
    f.partitionedGCConfig = PARTITIONED_GC_OFF;
    f.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    f.maxDynamicSharedSizeBytes = k->max_dynamic_smem;
    f.numBlockBarriers = 1;
    f.virtualResourceCount = 0;
    s.cacheConfig = CACHE_PREFER_NONE;
    s.carveoutConfig = SHAREDMEM_CARVEOUT_DEFAULT;
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &f, &s, threads, dynamic_smem) !=
        CUDA_OCC_SUCCESS)
        return -1;
    *blocks = r.activeBlocksPerMultiprocessor;
    return 0;
}
