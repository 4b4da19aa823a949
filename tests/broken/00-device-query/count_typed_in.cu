/* count_typed_in.cu - broken lab 00: the device count typed in from its author's machine */
/* SPDX-License-Identifier: MIT */
/* "This machine has one GPU": right wherever there is one, which the real
 * runtime of a one-GPU grading machine cannot tell; wrong on the simulated
 * machine of two.
 * expect: correct.count FAIL simulated machine of two */
#define device_query_count reference_count
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_count

extern "C" cudaError_t device_query_count(int *count) {
    *count = 1;
    return cudaSuccess;
}
