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

/* ------------------------------------------------ the branch-length sweep */

/* The lab's two bodies with IT iterations (4 * IT multiply-adds) instead of
 * DIVERGENCE_ITERS, for measure.branch_length: how the cost of divergence
 * grows with the length of the branches. Short bodies may be turned into
 * predicated code by the compiler, and then the layout does not matter. */
template <int IT> static __device__ __forceinline__ float dv_even(float v) {
    float a = v, b = v * 0.5f, c = v * 0.25f, d = v * 0.125f;
#pragma unroll
    for (int k = 0; k < IT; k++) {
        a = fmaf(a, 0.9999f, 0.0001f);
        b = fmaf(b, 0.9998f, 0.0002f);
        c = fmaf(c, 0.9997f, 0.0003f);
        d = fmaf(d, 0.9996f, 0.0004f);
    }
    return a + b + c + d;
}

template <int IT> static __device__ __forceinline__ float dv_odd(float v) {
    float p = v, q = 1.0f - v, r = v * 0.5f, s = 0.5f;
#pragma unroll
    for (int k = 0; k < IT; k++) {
        p = fmaf(q, -0.0078125f, p);
        q = fmaf(p, 0.0078125f, q);
        r = fmaf(s, -0.015625f, r);
        s = fmaf(r, 0.015625f, s);
    }
    return p + q + r + s;
}

/* Thread g takes element g: both bodies in every warp. */
template <int IT> __global__ void dv_sweep_divergent(const float *in, float *out, int n) {
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n)
        return;
    if (i % 2 == 0)
        out[i] = dv_even<IT>(in[i]);
    else
        out[i] = dv_odd<IT>(in[i]);
}

/* Warps 2p and 2p + 1 share elements 64p .. 64p + 63: the first takes the
 * even ones, the second the odd ones, so every warp runs one body. */
template <int IT> __global__ void dv_sweep_uniform(const float *in, float *out, int n) {
    int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    int w = t / DIVERGENCE_WARP_SIZE, lane = t % DIVERGENCE_WARP_SIZE;
    int i = (w / 2) * 2 * DIVERGENCE_WARP_SIZE + 2 * lane + w % 2;
    if (i >= n)
        return;
    if (w % 2 == 0)
        out[i] = dv_even<IT>(in[i]);
    else
        out[i] = dv_odd<IT>(in[i]);
}

typedef void (*dv_sweep_fn)(const float *, float *, int);
static const int sweep_iters[] = {1, 2, 4, 8, 16, 32, 64, 128};
static const dv_sweep_fn sweep_fns[2][8] = {
    {dv_sweep_divergent<1>, dv_sweep_divergent<2>, dv_sweep_divergent<4>, dv_sweep_divergent<8>,
     dv_sweep_divergent<16>, dv_sweep_divergent<32>, dv_sweep_divergent<64>,
     dv_sweep_divergent<128>},
    {dv_sweep_uniform<1>, dv_sweep_uniform<2>, dv_sweep_uniform<4>, dv_sweep_uniform<8>,
     dv_sweep_uniform<16>, dv_sweep_uniform<32>, dv_sweep_uniform<64>, dv_sweep_uniform<128>},
};

extern "C" int dv_sweep_count(void) {
    return (int)(sizeof sweep_iters / sizeof sweep_iters[0]);
}

/* Multiply-adds in one body of sweep point k. */
extern "C" int dv_sweep_fma(int k) {
    return k >= 0 && k < dv_sweep_count() ? 4 * sweep_iters[k] : 0;
}

/* Launches sweep point k, divergent (uniform = 0) or warp-uniform layout,
 * over n elements (n a multiple of 64). */
extern "C" int dv_sweep_run(int k, int uniform, const float *d_in, float *d_out, int n,
                            void *stream) {
    if (k < 0 || k >= dv_sweep_count() || n % (2 * DIVERGENCE_WARP_SIZE) != 0)
        return cudaErrorInvalidValue;
    sweep_fns[uniform ? 1 : 0][k]<<<divergence_blocks(n), DIVERGENCE_BLOCK, 0,
                                    (cudaStream_t)stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}
