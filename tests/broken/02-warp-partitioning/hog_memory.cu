/* hog_memory.cu - hostile lab 02: takes all free GPU memory and keeps it */
/* SPDX-License-Identifier: MIT */
/* The grader's own buffers are allocated before each call and freed after,
 * so its results stay right; the next test, in a process of its own, has the
 * whole GPU again. compute-sanitizer reports the failed allocations.
 * expect: sanitizer.record FAIL cudaErrorMemoryAllocation */
#define warp_partitioning_record reference_record
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_record

extern "C" cudaError_t warp_partitioning_record(int bx, int by, int bz,
                                                warp_partitioning_thread *d_out) {
    cudaError_t e = reference_record(bx, by, bz, d_out);
    void *p;
    for (size_t chunk = (size_t)1 << 30; chunk >= ((size_t)1 << 20);)
        if (cudaMalloc(&p, chunk) != cudaSuccess)
            chunk /= 2;
    cudaGetLastError(); /* the failed allocations leave no error behind */
    return e;
}
