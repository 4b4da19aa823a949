/* sim_occupancy_api.c - the runtime's occupancy API answered for a simulated GPU */
/* SPDX-License-Identifier: MIT */
#include "sim_devices.h"

#include <cuda_runtime_api.h>

/* Linked only into the graders whose exports.list names these functions
 * (the Makefile): an executable that defines a name libcudart defines
 * exports it, so any grader linking this file would answer for the
 * student's library. */

/* The occupancy API: for a simulated GPU, the toolkit's calculator over the
 * kernel as compiled (its registers and static shared memory, read from the
 * real GPU) and the simulated GPU's limits; where the calculator cannot
 * answer, the real GPU's answer. A library that asks the runtime gets the
 * simulated GPU's blocks per SM; one that types in the grading GPU's limits
 * does not. */
static int sim_occupancy(int *n, const void *func, int threads, size_t dynamic_smem) {
    struct cudaFuncAttributes a;
    if (!n || cudaFuncGetAttributes(&a, func) != cudaSuccess)
        return -1;
    wb_sim_kernel k = {a.maxThreadsPerBlock, a.numRegs, a.sharedSizeBytes,
                       (size_t)a.maxDynamicSharedSizeBytes};
    return wb_sim_blocks_per_sm(wb_sim_current(), &k, threads, dynamic_smem, n);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func,
                                                                   int threads,
                                                                   size_t dynamic_smem,
                                                                   unsigned int flags) {
    if (wb_sim_current() && sim_occupancy(n, func, threads, dynamic_smem) == 0)
        return cudaSuccess;
    cudaError_t (*f)(int *, const void *, int, size_t, unsigned int) =
        (cudaError_t(*)(int *, const void *, int, size_t, unsigned int))wb_sim_next(
            "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags");
    return f ? f(n, func, threads, dynamic_smem, flags) : cudaErrorNotSupported;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int threads,
                                                          size_t dynamic_smem) {
    if (wb_sim_current() && sim_occupancy(n, func, threads, dynamic_smem) == 0)
        return cudaSuccess;
    cudaError_t (*f)(int *, const void *, int, size_t) =
        (cudaError_t(*)(int *, const void *, int, size_t))wb_sim_next(
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    return f ? f(n, func, threads, dynamic_smem) : cudaErrorNotSupported;
}
