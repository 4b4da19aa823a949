/* full_warps_only.cu - broken lab 02: the recording kernel forgets the threads of a partial warp */
/* SPDX-License-Identifier: MIT */
/* expect: correct.record_hardware FAIL your formula splits a hardware warp
 * expect: correct.record_shapes FAIL never written
 * expect: correct.record_activemask FAIL never written
 * expect: correct.record_random FAIL never written
 * expect: sanitizer.record FAIL not graded */
#define warp_partitioning_record reference_record
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_record

__global__ void full_warps_only_kernel(warp_partitioning_thread *d_out) {
    unsigned active_mask = __activemask();
    int linear = warp_partitioning_linear_dev();
    int threads = (int)(blockDim.x * blockDim.y * blockDim.z);
    if (linear >= threads / 32 * 32) /* "the last warp is padding" - only part of it is */
        return;
    warp_partitioning_thread r = {(int)threadIdx.x,
                                  (int)threadIdx.y,
                                  (int)threadIdx.z,
                                  linear,
                                  warp_partitioning_warp_dev(),
                                  warp_partitioning_lane_dev(),
                                  active_mask,
                                  0};
    d_out[linear] = r;
}

extern "C" cudaError_t warp_partitioning_record(int bx, int by, int bz,
                                                warp_partitioning_thread *d_out) {
    warp_partitioning_dim b = {bx, by, bz};
    if (warp_partitioning_warps_per_block(b) < 0 || d_out == NULL)
        return cudaErrorInvalidValue;
    full_warps_only_kernel<<<1, dim3(bx, by, bz)>>>(d_out);
    cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaDeviceSynchronize();
}
