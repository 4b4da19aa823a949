/* warp_parity_branch.cu - broken lab 03: branches on warp parity, keeps element g on thread g */
/* SPDX-License-Identifier: MIT */
/* expect: correct.run FAIL expected
 * expect: perf.run FAIL not graded */
#define divergence_run reference_run
#include "../../../solutions/03-divergence/divergence.cu"
#undef divergence_run

/* The branch no longer diverges, but half the elements now get the other
 * body: the condition changed, the data did not move with it. */
__global__ void warp_parity_kernel(const float *in, float *out, int n) {
    int g = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (g >= n)
        return;
    if ((g / WARP) % 2 == 0)
        out[g] = divergence_even_value(in[g]);
    else
        out[g] = divergence_odd_value(in[g]);
}

extern "C" cudaError_t divergence_run(const float *d_in, float *d_out, int n, cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || n < 1 || n > DIVERGENCE_MAX_N)
        return cudaErrorInvalidValue;
    warp_parity_kernel<<<divergence_blocks(n), DIVERGENCE_BLOCK, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}
