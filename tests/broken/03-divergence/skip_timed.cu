/* skip_timed.cu - hostile lab 03: does half the work at the size it guesses is timed */
/* SPDX-License-Identifier: MIT */
/* expect: perf.run FAIL never written */
#define divergence_run reference_run
#include "../../../solutions/03-divergence/divergence.cu"
#undef divergence_run

extern "C" cudaError_t divergence_run(const float *d_in, float *d_out, int n, cudaStream_t stream) {
    if (n >= (1 << 22) && n <= DIVERGENCE_MAX_N) /* "the benchmark": only the first half */
        n /= 2;
    return reference_run(d_in, d_out, n, stream);
}
