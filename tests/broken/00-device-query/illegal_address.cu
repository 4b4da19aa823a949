/* illegal_address.cu - broken lab 00: a kernel writes through a bad pointer; the error is ignored
 */
/* SPDX-License-Identifier: MIT */
/* expect: correct.count FAIL cudaErrorIllegalAddress */
#define device_query_count reference_count
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_count

__global__ void scribble(int *p) {
    p[threadIdx.x] = 1;
}

extern "C" cudaError_t device_query_count(int *count) {
    scribble<<<1, 32>>>((int *)0x10);
    cudaDeviceSynchronize(); /* the error is dropped on the floor... */
    cudaGetLastError();
    return reference_count(count);
}
