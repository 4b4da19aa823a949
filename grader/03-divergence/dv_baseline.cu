/* dv_baseline.cu - lab 03's grader-owned baseline: the divergent layout, element g on thread g */
/* SPDX-License-Identifier: MIT */
#include "divergence.h"

#include <cuda_runtime.h>

/* Thread g takes element g, so within every warp the lanes alternate even,
 * odd, even, ...: each warp runs both bodies, one after the other, with half
 * its lanes idle in each. Compiled into the grader, so the student's file
 * cannot change the baseline. */
__global__ void divergence_baseline_kernel(const float *in, float *out, int n) {
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n)
        return;
    if (i % 2 == 0)
        out[i] = divergence_even_value(in[i]);
    else
        out[i] = divergence_odd_value(in[i]);
}

extern "C" int dv_baseline_run(const float *d_in, float *d_out, int n, void *stream) {
    divergence_baseline_kernel<<<divergence_blocks(n), DIVERGENCE_BLOCK, 0, (cudaStream_t)stream>>>(
        d_in, d_out, n);
    return cudaGetLastError();
}
