/* occ_reference.cu - lab 05's reference: the toolkit's cuda_occupancy.h, behind a C interface */
/* SPDX-License-Identifier: MIT */
/*
 * cuda_occupancy.h is a C++ header (constructors, an anonymous namespace),
 * so the C grader reaches it through the extern "C" functions below. This
 * file is host code only; nvcc compiles it like the grader's other .cu
 * files. The grader never uses the student's arithmetic to judge the
 * student: every expected value comes from here.
 */
#include "occ_reference.h"

#include <cuda_occupancy.h>
#include <string.h>

/* The properties a real device of each capability reports through
 * cudaGetDeviceProperties (CUDA C++ Programming Guide, "Compute
 * Capabilities", and the devices themselves). These are the facts
 * cuda_occupancy.h takes as input (cudaOccDeviceProp); what it derives
 * from the capability alone (allocation units, block slots, carveouts)
 * comes from the header in occ_ref_arch below. */
static const occ_ref_props known[] = {
    /* cc     thr/blk thr/SM regs/SM regs/blk smem/SM  smem/blk optin   reserved */
    {7, 5, 1024, 1024, 65536, 65536, 65536, 49152, 65536, 0},
    {8, 0, 1024, 2048, 65536, 65536, 167936, 49152, 166912, 1024},
    {8, 6, 1024, 1536, 65536, 65536, 102400, 49152, 101376, 1024},
    {8, 9, 1024, 1536, 65536, 65536, 102400, 49152, 101376, 1024},
    {9, 0, 1024, 2048, 65536, 65536, 233472, 49152, 232448, 1024},
    {10, 0, 1024, 2048, 65536, 65536, 233472, 49152, 232448, 1024},
    {12, 0, 1024, 1536, 65536, 65536, 102400, 49152, 101376, 1024},
};

/* Two SMs no GPU has, with a capability's rules and other register files:
 * a calculator must take every figure from its occupancy_arch, and these
 * tell one that types in 65536 registers, or checks a block against the
 * SM's register file instead of the per-block limit, from a right one.
 * Capabilities 3.2 and 5.3 once had a per-block limit below the SM's. */
static const occ_ref_props other[] = {
    /* cc     thr/blk thr/SM regs/SM regs/blk smem/SM  smem/blk optin   reserved */
    {9, 0, 1024, 2048, 32768, 32768, 233472, 49152, 232448, 1024}, /* half an H100's registers */
    {8, 0, 1024, 2048, 65536, 32768, 167936, 49152, 166912, 1024}, /* 32K registers a block */
};

extern "C" int occ_ref_n_other(void) {
    return (int)(sizeof other / sizeof other[0]);
}

extern "C" const occ_ref_props *occ_ref_other(int i) {
    return i >= 0 && i < occ_ref_n_other() ? &other[i] : NULL;
}

extern "C" int occ_ref_n_known(void) {
    return (int)(sizeof known / sizeof known[0]);
}

extern "C" const occ_ref_props *occ_ref_known(int i) {
    return i >= 0 && i < occ_ref_n_known() ? &known[i] : NULL;
}

extern "C" const occ_ref_props *occ_ref_lookup(int major, int minor) {
    for (int i = 0; i < occ_ref_n_known(); i++)
        if (known[i].major == major && known[i].minor == minor)
            return &known[i];
    return NULL;
}

static cudaOccDeviceProp to_occ(const occ_ref_props *p) {
    cudaOccDeviceProp d;
    d.computeMajor = p->major;
    d.computeMinor = p->minor;
    d.maxThreadsPerBlock = p->max_threads_per_block;
    d.maxThreadsPerMultiprocessor = p->max_threads_per_sm;
    d.regsPerBlock = p->regs_per_block;
    d.regsPerMultiprocessor = p->regs_per_sm;
    d.warpSize = OCCUPANCY_WARP_SIZE;
    d.sharedMemPerBlock = (size_t)p->smem_per_block;
    d.sharedMemPerMultiprocessor = (size_t)p->smem_per_sm;
    d.numSms = 1; /* occupancy per SM does not depend on it */
    d.sharedMemPerBlockOptin = (size_t)p->smem_optin;
    d.reservedSharedMemPerBlock = (size_t)p->smem_reserved;
    return d;
}

/* A kernel as a launch through the runtime sees it: cudaOccFuncAttributes
 * built the way the header's own converter builds it from
 * cudaFuncAttributes (opt-in shared-memory limit, one barrier), with the
 * whole shared-memory request dynamic and the opt-in set to exactly that. */
static cudaOccFuncAttributes to_attr(const occupancy_kernel *k) {
    cudaOccFuncAttributes f;
    f.maxThreadsPerBlock = INT_MAX;
    f.numRegs = k->regs_per_thread;
    f.sharedSizeBytes = 0;
    f.partitionedGCConfig = PARTITIONED_GC_OFF;
    f.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    f.maxDynamicSharedSizeBytes = (size_t)k->smem_per_block;
    f.numBlockBarriers = 1;
    f.virtualResourceCount = 0;
    return f;
}

extern "C" int occ_ref_arch(const occ_ref_props *p, occupancy_arch *out) {
    cudaOccDeviceProp d = to_occ(p);
    cudaOccDeviceState state; /* default carveout, no cache preference */
    int blocks, reg_unit, parts, smem_unit;
    size_t smem_sm, smem_block;
    if (cudaOccMaxBlocksPerMultiprocessor(&blocks, &d) != CUDA_OCC_SUCCESS ||
        cudaOccRegAllocationGranularity(&reg_unit, &d) != CUDA_OCC_SUCCESS ||
        cudaOccSubPartitionsPerMultiprocessor(&parts, &d) != CUDA_OCC_SUCCESS ||
        cudaOccSMemAllocationGranularity(&smem_unit, &d) != CUDA_OCC_SUCCESS ||
        cudaOccSMemPerMultiprocessor(&smem_sm, &d, &state) != CUDA_OCC_SUCCESS ||
        cudaOccSMemPerBlock(&smem_block, &d, FUNC_SHMEM_LIMIT_OPTIN, (size_t)INT_MAX) !=
            CUDA_OCC_SUCCESS)
        return -1;
    memset(out, 0, sizeof *out);
    out->cc_major = p->major;
    out->cc_minor = p->minor;
    out->max_threads_per_block = p->max_threads_per_block;
    out->max_warps_per_sm = p->max_threads_per_sm / OCCUPANCY_WARP_SIZE;
    out->max_blocks_per_sm = blocks;
    out->regs_per_sm = p->regs_per_sm;
    out->regs_per_block = p->regs_per_block;
    out->reg_alloc_unit = reg_unit;
    out->reg_partitions = parts;
    out->smem_per_sm = (int)smem_sm;
    /* The header's per-block limit includes the reservation (from 8.0 on). */
    out->max_smem_per_block = (int)smem_block - (p->major >= 8 ? p->smem_reserved : 0);
    out->smem_alloc_unit = smem_unit;
    out->smem_reserved_per_block = p->smem_reserved;
    return 0;
}

extern "C" int occ_ref_calc(const occ_ref_props *p, const occupancy_kernel *k,
                            occupancy_result *out) {
    cudaOccDeviceProp d = to_occ(p);
    cudaOccFuncAttributes f = to_attr(k);
    cudaOccDeviceState state;
    cudaOccResult r;
    memset(&r, 0, sizeof r);
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &d, &f, &state, k->threads_per_block,
                                                (size_t)k->smem_per_block) != CUDA_OCC_SUCCESS)
        return -1;
    int warps = (k->threads_per_block + OCCUPANCY_WARP_SIZE - 1) / OCCUPANCY_WARP_SIZE;
    memset(out, 0, sizeof *out);
    out->blocks_per_sm = r.activeBlocksPerMultiprocessor;
    out->warps_per_sm = r.activeBlocksPerMultiprocessor * warps;
    out->occupancy = (double)out->warps_per_sm / (p->max_threads_per_sm / OCCUPANCY_WARP_SIZE);
    /* The barrier and virtual-resource bits never bind below the block
     * slots on these capabilities with one barrier: they are not asked. */
    out->limiting = r.limitingFactors & (OCC_LIMIT_WARPS | OCC_LIMIT_REGISTERS |
                                         OCC_LIMIT_SHARED_MEMORY | OCC_LIMIT_BLOCKS);
    out->limit_warps = r.blockLimitWarps;
    out->limit_regs = r.blockLimitRegs;
    out->limit_smem = r.blockLimitSharedMem;
    out->limit_blocks = r.blockLimitBlocks;
    out->regs_per_block = r.allocatedRegistersPerBlock;
    out->smem_per_block = (int)r.allocatedSharedMemPerBlock;
    return 0;
}

/* The header's blocks per SM for a kernel given as the runtime describes
 * it: static shared memory, dynamic shared memory and the function's
 * opt-in limit kept apart, as cudaOccFuncAttributes(cudaFuncAttributes)
 * builds them. Used to tell a disagreement between driver and header
 * (not the student's fault) from a wrong answer. */
extern "C" int occ_ref_blocks_runtime_view(const occ_ref_props *p, int threads, int regs,
                                           int static_smem, int dynamic_smem, int max_dynamic) {
    cudaOccDeviceProp d = to_occ(p);
    cudaOccFuncAttributes f;
    f.maxThreadsPerBlock = INT_MAX;
    f.numRegs = regs;
    f.sharedSizeBytes = (size_t)static_smem;
    f.partitionedGCConfig = PARTITIONED_GC_OFF;
    f.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    f.maxDynamicSharedSizeBytes = (size_t)max_dynamic;
    f.numBlockBarriers = 1;
    f.virtualResourceCount = 0;
    cudaOccDeviceState state;
    cudaOccResult r;
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &d, &f, &state, threads,
                                                (size_t)dynamic_smem) != CUDA_OCC_SUCCESS)
        return -1;
    return r.activeBlocksPerMultiprocessor;
}

/* The smallest multiple of 32 threads per block whose blocks fill every
 * warp slot when only warp and block slots count. */
extern "C" int occ_ref_min_block_full(const occupancy_arch *a) {
    for (int t = OCCUPANCY_WARP_SIZE; t <= a->max_threads_per_block; t += OCCUPANCY_WARP_SIZE) {
        int w = t / OCCUPANCY_WARP_SIZE, b = a->max_warps_per_sm / w;
        if (b > a->max_blocks_per_sm)
            b = a->max_blocks_per_sm;
        if (b * w == a->max_warps_per_sm)
            return t;
    }
    return -1;
}
