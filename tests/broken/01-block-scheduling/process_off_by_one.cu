/* process_off_by_one.cu - broken lab 01: the grid-stride loop runs to i <= n_items */
/* SPDX-License-Identifier: MIT */
/* Every item below n_items is right and the input is untouched; the thread
 * that meets i == n_items writes one item past the output, which only a
 * guard after the output shows.
 * expect: correct.process FAIL wrote past the end of d_out
 * expect: perf.tail FAIL not graded */
#define block_scheduling_process reference_process
#include "../../../solutions/01-block-scheduling/block_scheduling.cu"
#undef block_scheduling_process

__global__ void off_by_one_kernel(const unsigned int *in, unsigned int *out, int n,
                                  long long item_ns) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += gridDim.x * blockDim.x)
        out[i] = block_scheduling_item(in[i], item_ns); /* one too far */
}

extern "C" cudaError_t block_scheduling_process(const unsigned int *d_in, unsigned int *d_out,
                                                int n_items, long long item_ns,
                                                cudaStream_t stream) {
    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, off_by_one_kernel, 256, 0);
    if (e != cudaSuccess)
        return e;
    int grid = per_sm * sms, needed = (n_items + 255) / 256;
    grid = grid > needed ? needed : grid;
    grid = grid < 1 ? 1 : grid;
    off_by_one_kernel<<<grid, 256, 0, stream>>>(d_in, d_out, n_items, item_ns);
    return cudaGetLastError();
}
