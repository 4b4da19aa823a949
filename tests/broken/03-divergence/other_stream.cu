/* other_stream.cu - hostile lab 03: launches on its own stream; the timed stream sees nothing */
/* SPDX-License-Identifier: MIT */
/* expect: perf.run FAIL faster than the GPU's peak */
#define divergence_run reference_run
#include "../../../solutions/03-divergence/divergence.cu"
#undef divergence_run

extern "C" cudaError_t divergence_run(const float *d_in, float *d_out, int n, cudaStream_t stream) {
    static cudaStream_t mine;
    (void)stream;
    if (!mine)
        cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking);
    return reference_run(d_in, d_out, n, mine); /* never synchronised with the caller's stream */
}
