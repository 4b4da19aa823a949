/* capacity_literal_per_sm.cu - broken lab 01: blocks per SM worked out from the grading GPU's
 * per-SM limits typed in, not asked of the occupancy API */
/* SPDX-License-Identifier: MIT */
/* The SM count is queried as it should be, but the blocks per SM come from
 * the toolkit's calculator fed with an H100's limits (2,048 threads, 32
 * blocks, 64 K registers and 228 KiB of shared memory per SM) and the
 * kernel's own registers and shared memory: the occupancy API's answer on
 * an H100 or H200, wrong on a simulated T4 (1,024 threads per SM).
 * check.staircase times the capacity, right on a GPU with the H100's
 * per-SM limits only: its verdict depends on the GPU that grades.
 * expect: correct.capacity FAIL simulated
 * expect: check.staircase ANY */
#include <cuda_occupancy.h>
#define block_scheduling_capacity reference_capacity
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_capacity

extern "C" cudaError_t block_scheduling_capacity(const void *kernel, int threads_per_block,
                                                 size_t smem_bytes, int *per_sm, int *capacity) {
    int dev = 0, sms = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cudaFuncAttributes a;
    if (e == cudaSuccess)
        e = cudaFuncGetAttributes(&a, kernel);
    if (e != cudaSuccess)
        return e;
    cudaOccDeviceProp h100; /* "an H100 SM holds ..." */
    h100.computeMajor = 9;
    h100.computeMinor = 0;
    h100.maxThreadsPerBlock = 1024;
    h100.maxThreadsPerMultiprocessor = 2048;
    h100.regsPerBlock = 65536;
    h100.regsPerMultiprocessor = 65536;
    h100.warpSize = 32;
    h100.sharedMemPerBlock = 49152;
    h100.sharedMemPerMultiprocessor = 233472;
    h100.numSms = sms;
    h100.sharedMemPerBlockOptin = 232448;
    h100.reservedSharedMemPerBlock = 1024;
    cudaOccFuncAttributes f = a;
    cudaOccDeviceState s;
    cudaOccResult r;
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &h100, &f, &s, threads_per_block,
                                                smem_bytes) != CUDA_OCC_SUCCESS)
        return cudaErrorInvalidValue;
    *per_sm = r.activeBlocksPerMultiprocessor;
    *capacity = *per_sm * sms;
    return cudaSuccess;
}
