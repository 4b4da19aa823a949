/* fill_device_zero.cu - broken lab 00: every report is device 0's, whatever dev asks */
/* SPDX-License-Identifier: MIT */
/* Written on a machine of one GPU: the properties and attributes are read
 * for device 0, and only the index is dev's. Right wherever there is one
 * GPU, so the real device cannot tell; wrong for device 1 of the simulated
 * machine of two. (On a grading machine of several GPUs correct.fields
 * fails as well.)
 * expect: correct.other_gpus FAIL not of device 0 */
#define device_query_fill reference_fill
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_fill

extern "C" cudaError_t device_query_fill(int dev, device_query_report *r) {
    cudaError_t e = reference_fill(0, r); /* "the GPU" */
    r->device = dev;
    return e;
}
