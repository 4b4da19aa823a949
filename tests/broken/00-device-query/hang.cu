/* hang.cu - broken lab 00: a kernel that never ends */
/* SPDX-License-Identifier: MIT */
/* expect: correct.count FAIL did not finish */
#define device_query_count reference_count
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_count

__global__ void spin(volatile int *flag) {
    while (*flag == 0) {
    }
}

extern "C" cudaError_t device_query_count(int *count) {
    int *flag;
    cudaMalloc(&flag, sizeof *flag);
    cudaMemset(flag, 0, sizeof *flag);
    spin<<<1, 1>>>(flag);
    cudaDeviceSynchronize();
    return reference_count(count);
}
