/* warp_partitioning.cu - lab 02: number the threads of a block and cut them into warps */
/* SPDX-License-Identifier: MIT */
/*
 * You edit only this file and answers.txt. The contract (what each function
 * must return, and how it is graded) is in warp_partitioning.h; README.md
 * explains the background. `make grade LAB=02` grades your work.
 */
#include "warp_partitioning.h"

#include <cuda_runtime.h>

#define WARP WARP_PARTITIONING_WARP_SIZE

/* ------------------------------------------------------------ on the host */

/* 1 when b is a block shape every supported GPU accepts, else 0. */
static int valid_block(warp_partitioning_dim b) {
    /* TODO(02-warp-partitioning): which shapes may a block have?
     * Hint: README.md, "Block shapes". */
    /* BEGIN STUDENT CODE */
    (void)b;
    return 1;
    /* END STUDENT CODE */
}

/* 1 when b is valid and t names one of its threads, else 0. */
static int valid_thread(warp_partitioning_dim t, warp_partitioning_dim b) {
    /* TODO(02-warp-partitioning): which indices name a thread of the block?
     * Hint: README.md, "Block shapes". */
    /* BEGIN STUDENT CODE */
    (void)t;
    (void)b;
    return 1;
    /* END STUDENT CODE */
}

int warp_partitioning_linear(warp_partitioning_dim t, warp_partitioning_dim b) {
    if (!valid_thread(t, b))
        return -1;
    /* TODO(02-warp-partitioning): the thread's position in the block's linear order.
     * Hint: README.md, "Linear order". */
    /* BEGIN STUDENT CODE */
    (void)t;
    (void)b;
    return 0;
    /* END STUDENT CODE */
}

int warp_partitioning_warp(warp_partitioning_dim t, warp_partitioning_dim b) {
    /* TODO(02-warp-partitioning): which warp holds thread t?
     * Hint: README.md, "Cutting into warps". */
    /* BEGIN STUDENT CODE */
    (void)t;
    (void)b;
    return 0;
    /* END STUDENT CODE */
}

int warp_partitioning_lane(warp_partitioning_dim t, warp_partitioning_dim b) {
    /* TODO(02-warp-partitioning): which lane of that warp?
     * Hint: README.md, "Cutting into warps". */
    /* BEGIN STUDENT CODE */
    (void)t;
    (void)b;
    return 0;
    /* END STUDENT CODE */
}

int warp_partitioning_warps_per_block(warp_partitioning_dim b) {
    if (!valid_block(b))
        return -1;
    /* TODO(02-warp-partitioning): how many warps does the block take?
     * Hint: README.md, "Partial warps". */
    /* BEGIN STUDENT CODE */
    (void)b;
    return 0;
    /* END STUDENT CODE */
}

int warp_partitioning_idle_lanes(warp_partitioning_dim b) {
    /* TODO(02-warp-partitioning): how many lanes of those warps hold no thread?
     * Hint: README.md, "Partial warps". */
    /* BEGIN STUDENT CODE */
    (void)b;
    return 0;
    /* END STUDENT CODE */
}

/* ------------------------------------------------------------ on the GPU */

__device__ int warp_partitioning_linear_dev(void) {
    /* TODO(02-warp-partitioning): the linear position, from threadIdx and blockDim.
     * Hint: README.md, "Recording on the GPU". */
    /* BEGIN STUDENT CODE */
    return 0;
    /* END STUDENT CODE */
}

__device__ int warp_partitioning_warp_dev(void) {
    /* TODO(02-warp-partitioning): this thread's warp.
     * Hint: README.md, "Recording on the GPU". */
    /* BEGIN STUDENT CODE */
    return 0;
    /* END STUDENT CODE */
}

__device__ int warp_partitioning_lane_dev(void) {
    /* TODO(02-warp-partitioning): this thread's lane.
     * Hint: README.md, "Recording on the GPU". */
    /* BEGIN STUDENT CODE */
    return 0;
    /* END STUDENT CODE */
}

/* One block; each thread writes what it knows about its place in a warp. */
__global__ void warp_partitioning_record_kernel(warp_partitioning_thread *d_out) {
    /* Read before any branch: the lanes of this warp that hold a thread.
     * In a partial warp the padding lanes never show up in this mask. */
    unsigned active_mask = __activemask();
    /* TODO(02-warp-partitioning): write this thread's record into its own slot of d_out.
     * Hint: README.md, "Recording on the GPU". */
    /* BEGIN STUDENT CODE */
    (void)active_mask;
    (void)d_out;
    /* END STUDENT CODE */
    /* The lab's part, after yours: what the hardware itself says. %laneid is
     * the lane this thread runs in; __match_any_sync returns the lanes of
     * this warp whose warp number (from your formula) equals this thread's,
     * which is the whole active mask exactly when your formula groups threads
     * the way the hardware did. */
    unsigned hw_lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(hw_lane));
    unsigned mates = __match_any_sync(active_mask, warp_partitioning_warp_dev());
    int slot = warp_partitioning_linear_dev();
    if (slot >= 0 && slot < (int)(blockDim.x * blockDim.y * blockDim.z)) {
        d_out[slot].hw_lane = (int)hw_lane;
        d_out[slot].warp_mates = mates;
    }
}

cudaError_t warp_partitioning_record(int bx, int by, int bz, warp_partitioning_thread *d_out) {
    warp_partitioning_dim b = {bx, by, bz};
    if (!valid_block(b) || d_out == NULL)
        return cudaErrorInvalidValue;
    /* A single block of the requested shape: blockDim inside the kernel is
     * exactly (bx, by, bz). */
    dim3 block((unsigned)bx, (unsigned)by, (unsigned)bz);
    warp_partitioning_record_kernel<<<1, block>>>(d_out);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess)
        return e;
    return cudaDeviceSynchronize();
}

/* --------------------------------------------- the performance task */

/* One thread per pixel; threads past the image's edge do nothing. */
__global__ void warp_partitioning_shade_kernel(const float *in, float *out, int width, int height) {
    int x = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    int y = (int)(blockIdx.y * blockDim.y + threadIdx.y);
    if (x < width && y < height)
        out[(size_t)y * width + x] = warp_partitioning_shade_value(in[(size_t)y * width + x]);
}

cudaError_t warp_partitioning_shade(const float *d_in, float *d_out, int width, int height,
                                    cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || width < 1 || height < 1)
        return cudaErrorInvalidValue;
    /* TODO(02-warp-partitioning): choose a block shape that leaves few lanes idle.
     * Hint: README.md, "Choosing a block shape". */
    /* BEGIN STUDENT CODE */
    dim3 block(33, 1); /* the grader's baseline: two warps for 33 threads */
    /* END STUDENT CODE */
    dim3 grid((unsigned)((width + (int)block.x - 1) / (int)block.x),
              (unsigned)((height + (int)block.y - 1) / (int)block.y));
    warp_partitioning_shade_kernel<<<grid, block, 0, stream>>>(d_in, d_out, width, height);
    return cudaGetLastError();
}
