/* trace_one_thread.cu - broken lab 01: thread 0 alone does the timed work, the rest of the block leaves at once */
/* SPDX-License-Identifier: MIT */
/* Every record is right, and as long as asked: only the behaviour behind it
 * is wrong, since the other threads of each block end at once. The GPUs
 * measured keep a block's slots until its last thread ends, so no record
 * shows it; the profiler's count of active warps does (1 of 8 per block).
 * The records pass or fail by timing: on an H100, one run in two showed
 * 9 blocks at once on an SM where 8 fit (correct.trace then fails it).
 * expect: sanitizer.trace_race ANY
 * expect: sanitizer.trace_sync ANY
 * expect: correct.trace ANY
 * expect: check.timeline ANY
 * expect: check.staircase ANY
 * expect: ncu.trace_warps FAIL leave before the end reading */
#define block_scheduling_trace_kernel reference_trace_kernel
#define block_scheduling_trace reference_trace
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_trace_kernel
#undef block_scheduling_trace

extern "C" __global__ void block_scheduling_trace_kernel(block_record *records, long long spin_ns) {
    if (threadIdx.x != 0)
        return; /* "one thread can speak for the block" */
    unsigned long long start = block_scheduling_now();
    while ((long long)(block_scheduling_now() - start) < spin_ns)
        __nanosleep(100);
    unsigned int smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    block_record r = {blockIdx.x, smid, start, block_scheduling_now()};
    records[blockIdx.x] = r;
}

extern "C" cudaError_t block_scheduling_trace(int n_blocks, int threads_per_block,
                                              size_t smem_bytes, long long spin_ns,
                                              block_record *d_records, cudaStream_t stream) {
    block_scheduling_trace_kernel<<<n_blocks, threads_per_block, smem_bytes, stream>>>(d_records,
                                                                                       spin_ns);
    return cudaGetLastError();
}
