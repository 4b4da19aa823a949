/* barrier_deadlock.cu - hostile lab 00: a kernel deadlocked at a barrier */
/* SPDX-License-Identifier: MIT */
/* Warp 0 waits for a flag that warp 1 sets only after a __syncthreads()
 * warp 0 never reaches: the barrier waits for every warp of the block, so
 * the block can never finish. (A split inside one warp is not enough: on
 * sm_90 such a block was seen to finish.)
 * expect: correct.count FAIL did not finish */
#define device_query_count reference_count
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_count

__global__ void deadlock(void) {
    __shared__ volatile int flag;
    if (threadIdx.x == 0)
        flag = 0;
    __syncthreads();
    if (threadIdx.x < 32) {
        while (flag == 0) {
        }
    } else {
        __syncthreads();
        flag = 1;
    }
}

extern "C" cudaError_t device_query_count(int *count) {
    deadlock<<<1, 64>>>();
    cudaDeviceSynchronize();
    return reference_count(count);
}
