/* tail_baseline.cu - broken lab 01: correct, but launches capacity + 1 blocks like the baseline */
/* SPDX-License-Identifier: MIT */
/* expect: perf.tail FAIL below */
#define block_scheduling_process reference_process
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_process

extern "C" cudaError_t block_scheduling_process(const unsigned int *d_in, unsigned int *d_out,
                                                int n_items, long long item_ns,
                                                cudaStream_t stream) {
    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, process_kernel, 256, 0);
    if (e != cudaSuccess)
        return e;
    /* One block more than fits: a second wave with one block in it. */
    process_kernel<<<per_sm * sms + 1, 256, 0, stream>>>(d_in, d_out, n_items, item_ns);
    return cudaGetLastError();
}
