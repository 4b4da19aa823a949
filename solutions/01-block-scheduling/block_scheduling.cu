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
    /* The whole block lands on one SM at once, so one thread can speak for
     * it. Thread 0 reads the clock before anyone starts and after everyone
     * has finished; the barriers make those two readings bracket the work
     * of every thread of the block. */
    __shared__ unsigned long long start;
    if (threadIdx.x == 0)
        start = block_scheduling_now();
    __syncthreads();
    /* Every thread waits: the block holds its SM resources for spin_ns no
     * matter how many other blocks share the SM. The short sleep keeps the
     * waiting warps from taking issue slots from each other; without it a
     * full SM spins measurably longer than a lone block. */
    while ((long long)(block_scheduling_now() - start) < spin_ns)
        __nanosleep(100);
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned int smid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        block_record r;
        r.block = blockIdx.x;
        r.smid = smid;
        r.start_ns = start;
        r.end_ns = block_scheduling_now();
        records[blockIdx.x] = r;
    }
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
    /* The occupancy API knows the kernel's registers and static shared
     * memory, and the SM's limits on threads, blocks, registers and shared
     * memory; it returns the tightest of them. Every SM is identical, so the
     * whole GPU holds SM count times as many. */
    int dev = 0, sms = 0, n = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads_per_block,
                                                          smem_bytes);
    if (e != cudaSuccess)
        return e;
    *per_sm = n;
    *capacity = n * sms;
    return cudaSuccess;
    /* END STUDENT CODE */
}

/* ------------------------------------------------------------- analysis */

/* TODO(01-block-scheduling): any helpers your analysis needs (types, a
 * comparison function for qsort). Hint: README.md, "From records to waves". */
/* BEGIN STUDENT CODE */
/* A start (+1) or an end (-1) of one block, for the sweep. */
typedef struct sweep_event {
    unsigned long long t;
    int delta;
} sweep_event;

static int event_order(const void *a, const void *b) {
    const sweep_event *x = (const sweep_event *)a, *y = (const sweep_event *)b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->delta - y->delta; /* at equal times, ends (-1) before starts (+1) */
}

/* END STUDENT CODE */

int block_scheduling_analyze(const block_record *h_records, int n, int sm_count,
                             int *h_blocks_per_sm, block_scheduling_stats *out) {
    /* TODO(01-block-scheduling): blocks per SM, the most blocks resident at
     * once (per SM and on the GPU), and the number of waves.
     * Hint: README.md, "From records to waves". */
    /* BEGIN STUDENT CODE */
    if (n < 1 || sm_count < 1)
        return -1;
    for (int i = 0; i < n; i++)
        if (h_records[i].smid >= (unsigned int)sm_count ||
            h_records[i].end_ns < h_records[i].start_ns)
            return -1;
    memset(h_blocks_per_sm, 0, sizeof(int) * (size_t)sm_count);
    for (int i = 0; i < n; i++)
        h_blocks_per_sm[h_records[i].smid]++;

    /* Sort the blocks by SM (a counting sort: offsets from the counts), then
     * sweep each SM's starts and ends in time order. The running count is
     * the number of blocks resident on that SM; its peak is the figure. The
     * same sweep over all events at once gives the GPU-wide peak. */
    sweep_event *ev = (sweep_event *)malloc(sizeof(sweep_event) * 2 * (size_t)n);
    int *first = (int *)malloc(sizeof(int) * ((size_t)sm_count + 1));
    if (!ev || !first) {
        free(ev);
        free(first);
        return -1;
    }
    first[0] = 0;
    for (int s = 0; s < sm_count; s++)
        first[s + 1] = first[s] + 2 * h_blocks_per_sm[s];
    int *fill = (int *)calloc((size_t)sm_count, sizeof(int));
    if (!fill) {
        free(ev);
        free(first);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        int s = (int)h_records[i].smid, k = first[s] + fill[s];
        ev[k].t = h_records[i].start_ns, ev[k].delta = +1;
        ev[k + 1].t = h_records[i].end_ns, ev[k + 1].delta = -1;
        fill[s] += 2;
    }
    int peak_sm = 0, used = 0;
    for (int s = 0; s < sm_count; s++) {
        int m = first[s + 1] - first[s], cur = 0;
        used += m > 0;
        qsort(ev + first[s], (size_t)m, sizeof *ev, event_order);
        for (int k = first[s]; k < first[s + 1]; k++)
            if ((cur += ev[k].delta) > peak_sm)
                peak_sm = cur;
    }
    int peak_gpu = 0, cur = 0;
    qsort(ev, 2 * (size_t)n, sizeof *ev, event_order);
    for (int k = 0; k < 2 * n; k++)
        if ((cur += ev[k].delta) > peak_gpu)
            peak_gpu = cur;
    free(ev);
    free(first);
    free(fill);

    out->n_blocks = n;
    out->sms_used = used;
    out->max_resident_sm = peak_sm;
    out->max_resident_gpu = peak_gpu;
    /* A wave is one GPU-full of blocks; the last one may be nearly empty.
     * Blocks that all ended in the tick they started in were never resident
     * (half-open intervals): no GPU-full, no wave. */
    out->waves = peak_gpu > 0 ? (n + peak_gpu - 1) / peak_gpu : 0;
    return 0;
    /* END STUDENT CODE */
}

/* ------------------------------------------------------ the tail effect */

__global__ void process_kernel(const unsigned int *in, unsigned int *out, int n,
                               long long item_ns) {
    /* TODO(01-block-scheduling): the kernel that goes with your grid.
     * Hint: README.md, "The tail effect". */
    /* BEGIN STUDENT CODE */
    /* A grid-stride loop: the grid is sized to the GPU, not to the data, and
     * each thread walks the items a whole grid apart. Any n works with any
     * grid, and consecutive threads still touch consecutive items. */
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
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
    /* Exactly one wave: every resident slot of every SM gets one block, and
     * no block waits for a second wave. All blocks start together and, with
     * the work spread evenly, finish together. More waves would be fine as
     * long as they are all full; fewer blocks than n needs is fine because
     * the loop in the kernel picks up the rest. */
    grid = per_sm * sms;
    int needed = (n_items + threads - 1) / threads;
    if (grid > needed)
        grid = needed; /* tiny inputs: no block without an item */
    if (grid < 1)
        grid = 1;
    /* END STUDENT CODE */
    process_kernel<<<grid, threads, 0, stream>>>(d_in, d_out, n_items, item_ns);
    return cudaGetLastError();
}
