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
    /* BEGIN STUDENT CODE */
    /* Check each dimension before multiplying, so the product cannot
     * overflow on absurd inputs; 1024 threads per block is the limit of
     * every GPU since compute capability 2.0. */
    return b.x >= 1 && b.x <= 1024 && b.y >= 1 && b.y <= 1024 && b.z >= 1 && b.z <= 64 &&
           b.x * b.y * b.z <= 1024;
    /* END STUDENT CODE */
}

/* 1 when b is valid and t names one of its threads, else 0. */
static int valid_thread(warp_partitioning_dim t, warp_partitioning_dim b) {
    /* BEGIN STUDENT CODE */
    return valid_block(b) && t.x >= 0 && t.x < b.x && t.y >= 0 && t.y < b.y && t.z >= 0 &&
           t.z < b.z;
    /* END STUDENT CODE */
}

int warp_partitioning_linear(warp_partitioning_dim t, warp_partitioning_dim b) {
    if (!valid_thread(t, b))
        return -1;
    /* BEGIN STUDENT CODE */
    /* Row-major with x fastest: a whole x-row (b.x threads) for each step in
     * y, a whole x-y plane (b.x * b.y threads) for each step in z. This is
     * the order the hardware fills warps in, whatever the kernel does with
     * the indices afterwards. */
    return t.x + t.y * b.x + t.z * b.x * b.y;
    /* END STUDENT CODE */
}

int warp_partitioning_warp(warp_partitioning_dim t, warp_partitioning_dim b) {
    /* BEGIN STUDENT CODE */
    /* Warps are consecutive runs of 32 linear positions: 0-31, 32-63, ... */
    int linear = warp_partitioning_linear(t, b);
    return linear < 0 ? -1 : linear / WARP;
    /* END STUDENT CODE */
}

int warp_partitioning_lane(warp_partitioning_dim t, warp_partitioning_dim b) {
    /* BEGIN STUDENT CODE */
    /* The position inside that run. threadIdx.x % 32 is the lane only when
     * b.x is a multiple of 32 (or the block is 1D): in a 40x2 block the
     * thread (0,1) is linear 40, lane 8, not lane 0. */
    int linear = warp_partitioning_linear(t, b);
    return linear < 0 ? -1 : linear % WARP;
    /* END STUDENT CODE */
}

int warp_partitioning_warps_per_block(warp_partitioning_dim b) {
    if (!valid_block(b))
        return -1;
    /* BEGIN STUDENT CODE */
    /* Rounded up: a warp is the unit of issue, so 33 threads take two whole
     * warps. Only the total matters, not how it splits into x, y and z. */
    int threads = b.x * b.y * b.z;
    return (threads + WARP - 1) / WARP;
    /* END STUDENT CODE */
}

int warp_partitioning_idle_lanes(warp_partitioning_dim b) {
    /* BEGIN STUDENT CODE */
    /* The padding of the last warp: lanes that are scheduled with their
     * warp but have no thread to run, so whatever the warp issues, they
     * do no work. */
    int warps = warp_partitioning_warps_per_block(b);
    return warps < 0 ? -1 : warps * WARP - b.x * b.y * b.z;
    /* END STUDENT CODE */
}

/* ------------------------------------------------------------ on the GPU */

__device__ int warp_partitioning_linear_dev(void) {
    /* BEGIN STUDENT CODE */
    /* The same formula as on the host, from the built-in variables. The
     * hardware needs no help here: it already put this thread in the warp
     * and lane this formula predicts; the kernel just learns which. */
    return (int)(threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y);
    /* END STUDENT CODE */
}

__device__ int warp_partitioning_warp_dev(void) {
    /* BEGIN STUDENT CODE */
    /* warpSize is the device's built-in equivalent of the constant. */
    return warp_partitioning_linear_dev() / WARP;
    /* END STUDENT CODE */
}

__device__ int warp_partitioning_lane_dev(void) {
    /* BEGIN STUDENT CODE */
    return warp_partitioning_linear_dev() % WARP;
    /* END STUDENT CODE */
}

/* One block; each thread writes what it knows about its place in a warp. */
__global__ void warp_partitioning_record_kernel(warp_partitioning_thread *d_out) {
    /* Read before any branch: the lanes of this warp that hold a thread.
     * In a partial warp the padding lanes never show up in this mask. */
    unsigned active_mask = __activemask();
    /* BEGIN STUDENT CODE */
    /* Indexing the output by the linear position gives every thread its
     * own slot, with neighbours in a warp writing neighbouring records. */
    warp_partitioning_thread r;
    r.tx = (int)threadIdx.x;
    r.ty = (int)threadIdx.y;
    r.tz = (int)threadIdx.z;
    r.linear = warp_partitioning_linear_dev();
    r.warp = warp_partitioning_warp_dev();
    r.lane = warp_partitioning_lane_dev();
    r.active_mask = active_mask;
    r.hw_lane = -1; /* the lab fills these two below */
    r.warp_mates = 0;
    d_out[r.linear] = r;
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
    /* A width of 32 makes every warp one row segment of 32 pixels, so only
     * the warps at the image's right edge have idle lanes (1000 = 31 x 32 + 8:
     * 24 of 1024 lanes per row). 8 rows give 256 threads, 8 warps, per block.
     * 33 x 1, the baseline, pays two warps for 33 pixels. */
    dim3 block(32, 8);
    /* END STUDENT CODE */
    dim3 grid((unsigned)((width + (int)block.x - 1) / (int)block.x),
              (unsigned)((height + (int)block.y - 1) / (int)block.y));
    warp_partitioning_shade_kernel<<<grid, block, 0, stream>>>(d_in, d_out, width, height);
    return cudaGetLastError();
}
