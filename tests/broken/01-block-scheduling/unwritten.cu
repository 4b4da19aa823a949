/* unwritten.cu - broken lab 01: the last block of the grid leaves its record unwritten */
/* SPDX-License-Identifier: MIT */
/* expect: correct.trace FAIL never written
 * expect: sanitizer.trace_race FAIL not graded
 * expect: sanitizer.trace_sync FAIL not graded
 * expect: check.timeline FAIL not graded
 * expect: check.staircase FAIL not graded */
#define block_scheduling_trace_kernel reference_trace_kernel
#define block_scheduling_trace reference_trace
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_trace_kernel
#undef block_scheduling_trace

extern "C" __global__ void block_scheduling_trace_kernel(block_record *records, long long spin_ns) {
    if (blockIdx.x == gridDim.x - 1)
        return; /* an off-by-one in a bounds check */
    __shared__ unsigned long long start;
    if (threadIdx.x == 0)
        start = block_scheduling_now();
    __syncthreads();
    while ((long long)(block_scheduling_now() - start) < spin_ns)
        __nanosleep(100);
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned int smid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        block_record r = {blockIdx.x, smid, start, block_scheduling_now()};
        records[blockIdx.x] = r;
    }
}

extern "C" cudaError_t block_scheduling_trace(int n_blocks, int threads_per_block,
                                              size_t smem_bytes, long long spin_ns,
                                              block_record *d_records, cudaStream_t stream) {
    block_scheduling_trace_kernel<<<n_blocks, threads_per_block, smem_bytes, stream>>>(d_records,
                                                                                       spin_ns);
    return cudaGetLastError();
}
