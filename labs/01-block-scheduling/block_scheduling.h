/* block_scheduling.h - the contract of lab 01: which SM runs each block, when, in how many waves */
/* SPDX-License-Identifier: MIT */
#ifndef BLOCK_SCHEDULING_H
#define BLOCK_SCHEDULING_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What one block of the trace kernel leaves behind. Record i belongs to
 * block i (blockIdx.x == i). Times are %globaltimer readings in ns: one
 * clock for the whole GPU, so records of different SMs can be compared. */
typedef struct block_record {
    unsigned int block;          /* blockIdx.x of the block that wrote it */
    unsigned int smid;           /* %smid of the SM it ran on, 0 .. SMs-1 */
    unsigned long long start_ns; /* read by the block before its work */
    unsigned long long end_ns;   /* read by the block after its work */
} block_record;

/* What a set of records says about a launch. A block is resident on its SM
 * over the half-open interval [start_ns, end_ns): a block that ends at t and
 * a block that starts at t are never counted together. */
typedef struct block_scheduling_stats {
    int n_blocks;         /* records analysed */
    int sms_used;         /* SMs that ran at least one block */
    int max_resident_sm;  /* most blocks resident at once on any one SM */
    int max_resident_gpu; /* most blocks resident at once on the whole GPU */
    int waves;            /* ceil(n_blocks / max_resident_gpu); 0 when max_resident_gpu is 0
                             (every block ended in the clock tick it started in) */
} block_scheduling_stats;

/* Launches block_scheduling_trace_kernel on stream, asynchronously: n_blocks
 * blocks of threads_per_block threads with smem_bytes (<= 48 KiB) of dynamic
 * shared memory. Every block keeps its SM busy for at least spin_ns ns
 * (between start_ns and end_ns) and writes d_records[blockIdx.x] (a device
 * array of n_blocks records). Returns the launch's error. Graded on the GPU:
 * every record written exactly once, SM ids in range, start < end. */
cudaError_t block_scheduling_trace(int n_blocks, int threads_per_block, size_t smem_bytes,
                                   long long spin_ns, block_record *d_records, cudaStream_t stream);

/* The trace kernel's address, for the occupancy API (kernel symbols are
 * local to the lab's library, so the grader asks for it through this). */
const void *block_scheduling_trace_kernel_ptr(void);

/* How many blocks of kernel (a __global__ function) launched with
 * threads_per_block threads and smem_bytes of dynamic shared memory can be
 * resident at once: *per_sm on one SM, *capacity on the whole current
 * device. Returns the first runtime error. Graded on the GPU against the
 * occupancy API for grader-owned kernels and the trace kernel, again with
 * the runtime's device queries answering for simulated GPUs of other SM
 * counts, and against the measured staircase (README, "What is graded"). */
cudaError_t block_scheduling_capacity(const void *kernel, int threads_per_block, size_t smem_bytes,
                                      int *per_sm, int *capacity);

/* Analyses h_records[0..n) (host memory) of a GPU with sm_count SMs: writes
 * h_blocks_per_sm[0..sm_count) (blocks each SM ran) and *out. Returns 0, or
 * -1 (outputs unspecified) when n < 1, sm_count < 1, a record's smid is not
 * below sm_count, or a record ends before it starts. Pure host code: graded
 * without a GPU on simulated schedules, exact. */
int block_scheduling_analyze(const block_record *h_records, int n, int sm_count,
                             int *h_blocks_per_sm, block_scheduling_stats *out);

/* Computes d_out[i] = block_scheduling_item(d_in[i], item_ns) for i in
 * [0, n_items) (device arrays), asynchronously on stream, with a grid and
 * block size of its own choosing. Returns the launch's error. Graded on the
 * GPU: exact results, input unchanged; then timed against a grader-owned
 * kernel that spends the same work on capacity + 1 blocks (README, "The tail
 * effect"); needs >= 1.45x. */
cudaError_t block_scheduling_process(const unsigned int *d_in, unsigned int *d_out, int n_items,
                                     long long item_ns, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* The trace kernel; block_scheduling_trace launches it. */
extern "C" __global__ void block_scheduling_trace_kernel(block_record *records, long long spin_ns);

/* The GPU's nanosecond clock (%globaltimer), the same on every SM. */
__device__ static __forceinline__ unsigned long long block_scheduling_now(void) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* One work item: holds its thread for item_ns ns (a stand-in for work whose
 * time does not depend on what else the SM runs, such as a chain of
 * dependent memory loads), then returns a hash of x. Used by the lab and by
 * the grader's baseline alike; the result cannot be had without calling it. */
__device__ static __forceinline__ unsigned int block_scheduling_item(unsigned int x,
                                                                     long long item_ns) {
    unsigned long long t0 = block_scheduling_now();
    unsigned int h = x;
    h ^= h >> 16;
    h *= 0x7feb352dU;
    h ^= h >> 15;
    h *= 0x846ca68bU;
    h ^= h >> 16;
    /* Sleeping between looks at the clock leaves the SM's issue slots to
     * the other warps, so an item takes item_ns however full the SM is. */
    while ((long long)(block_scheduling_now() - t0) < item_ns)
        __nanosleep(256);
    return h;
}
#endif

#endif
