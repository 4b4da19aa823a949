/* column_major.cu - broken lab 02: the device linear order with y fastest instead of x */
/* SPDX-License-Identifier: MIT */
/* expect: correct.record_hardware FAIL your formula splits a hardware warp
 * expect: correct.record_shapes FAIL holds thread
 * expect: correct.record_activemask FAIL holds thread
 * expect: correct.record_random FAIL holds thread
 * expect: sanitizer.record FAIL not graded */
#define warp_partitioning_record reference_record
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_record

__global__ void column_major_kernel(warp_partitioning_thread *d_out) {
    unsigned active_mask = __activemask();
    /* A permutation of 0 .. n-1, so every slot is written, but not in the
     * order the hardware fills warps. */
    int linear =
        (int)(threadIdx.y + threadIdx.x * blockDim.y + threadIdx.z * blockDim.x * blockDim.y);
    warp_partitioning_thread r = {(int)threadIdx.x, (int)threadIdx.y, (int)threadIdx.z, linear,
                                  linear / 32,      linear % 32,      active_mask,      0};
    d_out[linear] = r;
}

extern "C" cudaError_t warp_partitioning_record(int bx, int by, int bz,
                                                warp_partitioning_thread *d_out) {
    warp_partitioning_dim b = {bx, by, bz};
    if (warp_partitioning_warps_per_block(b) < 0 || d_out == NULL)
        return cudaErrorInvalidValue;
    column_major_kernel<<<1, dim3(bx, by, bz)>>>(d_out);
    cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaDeviceSynchronize();
}
