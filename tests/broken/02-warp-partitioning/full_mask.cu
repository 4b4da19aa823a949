/* full_mask.cu - broken lab 02: records a full 32-lane mask instead of asking __activemask() */
/* SPDX-License-Identifier: MIT */
/* expect: correct.record_hardware FAIL your formula splits a hardware warp
 * expect: correct.record_activemask FAIL active mask */
#define warp_partitioning_record reference_record
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_record

__global__ void full_mask_kernel(warp_partitioning_thread *d_out) {
    int linear = warp_partitioning_linear_dev();
    warp_partitioning_thread r = {(int)threadIdx.x,
                                  (int)threadIdx.y,
                                  (int)threadIdx.z,
                                  linear,
                                  warp_partitioning_warp_dev(),
                                  warp_partitioning_lane_dev(),
                                  0xFFFFFFFFu, /* "a warp is always 32 threads" */
                                  0};
    d_out[linear] = r;
}

extern "C" cudaError_t warp_partitioning_record(int bx, int by, int bz,
                                                warp_partitioning_thread *d_out) {
    warp_partitioning_dim b = {bx, by, bz};
    if (warp_partitioning_warps_per_block(b) < 0 || d_out == NULL)
        return cudaErrorInvalidValue;
    full_mask_kernel<<<1, dim3(bx, by, bz)>>>(d_out);
    cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaDeviceSynchronize();
}
