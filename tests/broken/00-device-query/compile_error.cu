/* compile_error.cu - broken lab 00: does not compile; code tests fail with the compiler's message
 */
/* SPDX-License-Identifier: MIT */
/* expect-code: FAIL error: expected
 * (questions are graded as usual) */
#include "device_query.h"

cudaError_t device_query_count(int *count) {
    *count = 1 /* missing semicolon */
        return cudaSuccess;
}
