/* lm_kernels.cu - lab 07's grader-owned GPU code: the two matrix multiplies it predicts */
/* SPDX-License-Identifier: MIT */
#include "lm_kernels.h"
#include "wb_check.h"
#include "wb_rng.h"
#include "wb_timing.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A random single cycle over 0..n-1 (Sattolo), from the workbook's generator. */
/* ------------------------------------------------- the matrix multiplies */

/* One thread per element of C; a row of A and a column of B from global
 * memory, one element of each per step. */
__global__ void lm_mm_naive(const float *A, const float *B, float *C, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}

/* CUBLAS 1.1 style: per tile, each thread stores one element of A and one
 * of B into shared memory; a barrier; BS multiply-adds; a barrier. */
template <int BS> __global__ void lm_mm_tiled(const float *A, const float *B, float *C, int n) {
    __shared__ float As[BS][BS], Bs[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / BS; t++) {
        As[ty][tx] = A[row * n + t * BS + tx];
        Bs[ty][tx] = B[(t * BS + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BS; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

typedef struct mm_args {
    int tiled, bs, n;
    const float *A, *B;
    float *C;
} mm_args;

static int mm_run(void *p, void *stream) {
    mm_args *a = (mm_args *)p;
    dim3 block(a->bs, a->bs), grid(a->n / a->bs, a->n / a->bs);
    cudaStream_t s = (cudaStream_t)stream;
    if (!a->tiled)
        lm_mm_naive<<<grid, block, 0, s>>>(a->A, a->B, a->C, a->n);
    else if (a->bs == 8)
        lm_mm_tiled<8><<<grid, block, 0, s>>>(a->A, a->B, a->C, a->n);
    else
        lm_mm_tiled<16><<<grid, block, 0, s>>>(a->A, a->B, a->C, a->n);
    return (int)cudaGetLastError();
}

extern "C" int lm_mm_measure(int tiled, int bs, int n, uint64_t seed, double *ms, int *regs,
                             double *max_rel_err) {
    if ((bs != 8 && bs != 16) || n < bs || n % bs)
        return (int)cudaErrorInvalidValue;
    cudaFuncAttributes fa;
    if (!tiled)
        WB_TRY_INT(cudaFuncGetAttributes(&fa, lm_mm_naive));
    else if (bs == 8)
        WB_TRY_INT(cudaFuncGetAttributes(&fa, lm_mm_tiled<8>));
    else
        WB_TRY_INT(cudaFuncGetAttributes(&fa, lm_mm_tiled<16>));
    *regs = fa.numRegs;
    size_t nn = (size_t)n * n;
    float *hA = (float *)malloc(nn * sizeof(float)), *hB = (float *)malloc(nn * sizeof(float));
    float *hC = (float *)malloc(nn * sizeof(float));
    if (!hA || !hB || !hC) {
        free(hA);
        free(hB);
        free(hC);
        return (int)cudaErrorMemoryAllocation;
    }
    wb_rng g;
    wb_rng_seed(&g, seed);
    wb_rng_fill_float(&g, hA, nn, -1.0f, 1.0f);
    wb_rng_fill_float(&g, hB, nn, -1.0f, 1.0f);
    mm_args a = {tiled, bs, n, NULL, NULL, NULL};
    float *dA = NULL, *dB = NULL, *dC = NULL;
    cudaError_t e = cudaMalloc((void **)&dA, nn * sizeof(float));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&dB, nn * sizeof(float));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&dC, nn * sizeof(float));
    if (e == cudaSuccess)
        e = cudaMemcpy(dA, hA, nn * sizeof(float), cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(dB, hB, nn * sizeof(float), cudaMemcpyHostToDevice);
    a.A = dA;
    a.B = dB;
    a.C = dC;
    double spread = 0;
    if (e == cudaSuccess) {
        wb_time_opts o = wb_time_defaults();
        o.warmup = 2;
        o.min_trials = 5;
        o.max_trials = 21;
        o.max_seconds = 3.0;
        o.target_spread = 0.05;
        e = (cudaError_t)wb_time_one(mm_run, &a, &o, ms, &spread);
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(hC, dC, nn * sizeof(float), cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) {
        /* 64 elements of C against the CPU, in double */
        double worst = 0;
        for (int s = 0; s < 64; s++) {
            int r = (int)wb_rng_range(&g, 0, n - 1), c = (int)wb_rng_range(&g, 0, n - 1);
            double want = 0, mag = 0;
            for (int k = 0; k < n; k++) {
                want += (double)hA[(size_t)r * n + k] * hB[(size_t)k * n + c];
                mag += fabs((double)hA[(size_t)r * n + k] * hB[(size_t)k * n + c]);
            }
            double err = fabs(hC[(size_t)r * n + c] - want) / (mag > 0 ? mag : 1);
            if (!(err <= worst))
                worst = isnan(err) ? INFINITY : err;
        }
        *max_rel_err = worst;
    }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    free(hA);
    free(hB);
    free(hC);
    return (int)e;
}

/* ------------------------------------------------------- the ILP baseline */
