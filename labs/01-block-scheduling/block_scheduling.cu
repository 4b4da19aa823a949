/* block_scheduling.cu - lab 01: trace which SM runs each block and when; size grids in waves */
/* SPDX-License-Identifier: MIT */
/*
 * You edit only this file and answers.txt. The contract (what each function
 * must do, and how it is graded) is in block_scheduling.h; README.md explains
 * the background. `make grade LAB=01` grades your work.
 */
#include "block_scheduling.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the trace */

extern "C" __global__ void block_scheduling_trace_kernel(block_record *records, long long spin_ns) {
    /* TODO(01-block-scheduling): record this block's SM and its start and end
     * times, and keep the SM busy for spin_ns in between.
     * Hint: README.md, "Tracing blocks". */
    /* BEGIN STUDENT CODE */
    (void)records;
    (void)spin_ns;
    /* END STUDENT CODE */
}

cudaError_t block_scheduling_trace(int n_blocks, int threads_per_block, size_t smem_bytes,
                                   long long spin_ns, block_record *d_records,
                                   cudaStream_t stream) {
    block_scheduling_trace_kernel<<<n_blocks, threads_per_block, smem_bytes, stream>>>(d_records,
                                                                                       spin_ns);
    return cudaGetLastError();
}

const void *block_scheduling_trace_kernel_ptr(void) {
    return (const void *)block_scheduling_trace_kernel;
}

/* ------------------------------------------------------------- capacity */

cudaError_t block_scheduling_capacity(const void *kernel, int threads_per_block, size_t smem_bytes,
                                      int *per_sm, int *capacity) {
    /* TODO(01-block-scheduling): blocks resident at once, per SM and on the GPU.
     * Hint: README.md, "How many blocks fit". */
    /* BEGIN STUDENT CODE */
    (void)kernel;
    (void)threads_per_block;
    (void)smem_bytes;
    *per_sm = 1;
    *capacity = 1;
    return cudaSuccess;
    /* END STUDENT CODE */
}

/* ------------------------------------------------------------- analysis */

/* TODO(01-block-scheduling): any helpers your analysis needs (types, a
 * comparison function for qsort). Hint: README.md, "From records to waves". */
/* BEGIN STUDENT CODE */
/* END STUDENT CODE */

int block_scheduling_analyze(const block_record *h_records, int n, int sm_count,
                             int *h_blocks_per_sm, block_scheduling_stats *out) {
    /* TODO(01-block-scheduling): blocks per SM, the most blocks resident at
     * once (per SM and on the GPU), and the number of waves.
     * Hint: README.md, "From records to waves". */
    /* BEGIN STUDENT CODE */
    (void)h_records;
    memset(h_blocks_per_sm, 0, sizeof(int) * (size_t)(sm_count > 0 ? sm_count : 0));
    memset(out, 0, sizeof *out);
    out->n_blocks = n;
    return 0;
    /* END STUDENT CODE */
}

/* ------------------------------------------------------ the tail effect */

__global__ void process_kernel(const unsigned int *in, unsigned int *out, int n,
                               long long item_ns) {
    /* TODO(01-block-scheduling): the kernel that goes with your grid.
     * Hint: README.md, "The tail effect". */
    /* BEGIN STUDENT CODE */
    /* One contiguous chunk of items per block. */
    int chunk = (n + gridDim.x - 1) / gridDim.x;
    int begin = blockIdx.x * chunk, end = min(begin + chunk, n);
    for (int i = begin + threadIdx.x; i < end; i += blockDim.x)
        out[i] = block_scheduling_item(in[i], item_ns);
    /* END STUDENT CODE */
}

cudaError_t block_scheduling_process(const unsigned int *d_in, unsigned int *d_out, int n_items,
                                     long long item_ns, cudaStream_t stream) {
    const int threads = 256;
    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, process_kernel, threads, 0);
    if (e != cudaSuccess)
        return e;
    int grid;
    /* TODO(01-block-scheduling): choose a grid that ends in a full wave.
     * Hint: README.md, "The tail effect". */
    /* BEGIN STUDENT CODE */
    /* Every resident slot filled, plus one block more. */
    grid = per_sm * sms + 1;
    /* END STUDENT CODE */
    process_kernel<<<grid, threads, 0, stream>>>(d_in, d_out, n_items, item_ns);
    return cudaGetLastError();
}
