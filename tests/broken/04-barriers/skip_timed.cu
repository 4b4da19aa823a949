/* skip_timed.cu - hostile lab 04: adds up only half of the input at the size it guesses is timed */
/* SPDX-License-Identifier: MIT */
/* expect: perf.sum FAIL the sum is */
#define barriers_sum reference_sum
#include "../../../solutions/04-barriers/barriers.cu"
#undef barriers_sum

extern "C" cudaError_t barriers_sum(const float *d_in, int n, float *d_scratch, float *d_out,
                                    cudaStream_t stream) {
    if (n >= (1 << 26)) /* "the benchmark" */
        n /= 2;
    return reference_sum(d_in, n, d_scratch, d_out, stream);
}
