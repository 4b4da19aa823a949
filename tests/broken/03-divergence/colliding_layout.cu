/* colliding_layout.cu - broken lab 03: one parity per warp, but elements overlap and leave gaps */
/* SPDX-License-Identifier: MIT */
/* expect: correct.run FAIL never written
 * expect: perf.run FAIL not graded
 * expect: correct.count_uniform FAIL never written
 * expect: sanitizer.count FAIL not graded */
#define divergence_run reference_run
#define divergence_count reference_count
#include "../../../solutions/03-divergence/divergence.cu"
#undef divergence_run
#undef divergence_count

/* Warp w starts at element 32 * w instead of 64 * (w / 2): warp 0 takes the
 * even elements 0 .. 62, warp 1 the odd ones 33 .. 95, so 1 .. 31 get no
 * thread and 33 .. 61 get none of the even ones they need either. */
__device__ int colliding_element(int g) {
    int w = g / WARP, lane = g % WARP;
    return w * WARP + 2 * lane + w % 2;
}

__global__ void colliding_run_kernel(const float *in, float *out, int n) {
    int i = colliding_element((int)(blockIdx.x * blockDim.x + threadIdx.x));
    if (i < 0 || i >= n)
        return;
    if (i % 2 == 0)
        out[i] = divergence_even_value(in[i]);
    else
        out[i] = divergence_odd_value(in[i]);
}

__global__ void colliding_count_kernel(const float *in, float *out, int n, int version,
                                       divergence_warp_count *counts) {
    int g = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    int i = version == DIVERGENCE_UNIFORM ? colliding_element(g) : g;
    if (i < 0 || i >= n)
        return;
    float v = in[i];
    if (i % 2 == 0) {
        v = divergence_even_value(v);
        divergence_count_pass(counts, 0);
    } else {
        v = divergence_odd_value(v);
        divergence_count_pass(counts, 1);
    }
    out[i] = v;
}

extern "C" cudaError_t divergence_run(const float *d_in, float *d_out, int n, cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || n < 1 || n > DIVERGENCE_MAX_N)
        return cudaErrorInvalidValue;
    colliding_run_kernel<<<divergence_blocks(n), DIVERGENCE_BLOCK, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t divergence_count(const float *d_in, float *d_out, int n, int version,
                                        divergence_warp_count *d_counts) {
    if (d_in == NULL || d_out == NULL || d_counts == NULL || n < 1 || n > DIVERGENCE_MAX_N)
        return cudaErrorInvalidValue;
    cudaMemset(d_counts, 0, (size_t)divergence_warps(n) * sizeof *d_counts);
    colliding_count_kernel<<<divergence_blocks(n), DIVERGENCE_BLOCK>>>(d_in, d_out, n, version,
                                                                       d_counts);
    cudaError_t e = cudaGetLastError();
    return e != cudaSuccess ? e : cudaDeviceSynchronize();
}
