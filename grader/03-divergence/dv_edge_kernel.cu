/* dv_edge_kernel.cu - lab 03: a grader-owned image kernel whose warps record the bounds check */
/* SPDX-License-Identifier: MIT */
#include "dv_edge.h"

#include <cuda_runtime.h>

/* One thread per pixel of a width x height image, 16 x 16 blocks, and the
 * bounds check of README.md, "Boundary checks". Every warp records, through
 * its lane 0, that all its lanes ran and which of them pass the check
 * (__ballot_sync, a vote of all 32), and, from inside the if body, which
 * lanes run it (__activemask(): exited, inactive and predicated-off lanes
 * count 0, so the mask is right even where the compiler predicates the
 * short body). rec holds dv_edge_warps() records, zeroed by the caller. */
__global__ void dv_edge_kernel(int width, int height, dv_edge_record *rec) {
    int x = (int)(blockIdx.x * DV_EDGE_BLOCK + threadIdx.x);
    int y = (int)(blockIdx.y * DV_EDGE_BLOCK + threadIdx.y);
    int t = (int)(threadIdx.y * DV_EDGE_BLOCK + threadIdx.x), lane = t % 32;
    dv_edge_record *r =
        rec + (blockIdx.y * gridDim.x + blockIdx.x) * DV_EDGE_WARPS_PER_BLOCK + t / 32;
    unsigned present = __ballot_sync(0xFFFFFFFFu, 1);
    unsigned vote = __ballot_sync(0xFFFFFFFFu, x < width && y < height);
    if (lane == 0) {
        r->present = present;
        r->ballot = vote;
    }
    if (x < width && y < height) {
        unsigned m = __activemask();
        if (lane == __ffs(m) - 1)
            atomicOr(&r->active, m);
    }
}

/* Launches the kernel over a width x height image and waits for it;
 * d_rec: dv_edge_warps(width, height) records on the device. Returns the
 * launch's or the kernel's error. */
extern "C" int dv_edge_run(int width, int height, dv_edge_record *d_rec) {
    if (width < 1 || height < 1 || !d_rec)
        return cudaErrorInvalidValue;
    cudaError_t e = cudaMemset(d_rec, 0, (size_t)dv_edge_warps(width, height) * sizeof *d_rec);
    if (e != cudaSuccess)
        return e;
    dim3 grid((unsigned)dv_edge_blocks_x(width), (unsigned)dv_edge_blocks_y(height));
    dv_edge_kernel<<<grid, dim3(DV_EDGE_BLOCK, DV_EDGE_BLOCK)>>>(width, height, d_rec);
    e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaDeviceSynchronize();
}
