/* lm_kernels.cu - lab 07's grader-owned GPU code: the three matrix multiplies it predicts */
/* SPDX-License-Identifier: MIT */
#include "lm_kernels.h"
#include "wb_check.h"
#include "wb_rng.h"
#include "wb_timing.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Volkov and Demmel's SGEMM (2008), written for row-major matrices. Their
 * code is column-major; read row-major, the same kernel has the roles of A
 * and B swapped, which keeps every global access coalesced. A block of
 * 16 x 4 threads computes 16 rows x 64 columns of C (their 64 x 16), each
 * thread one column of it: 16 values in registers. Per step of 16 along k
 * the block stages a 16 x 16 tile of A in shared memory, 4 elements a
 * thread, stored transposed and padded to 17 as in their code (no bank
 * conflicts); a barrier; then 16 times one element of B from global memory
 * into a register and 16 multiply-adds with a row of the tile (one address
 * for the whole warp: a broadcast); a barrier. n a multiple of 64. */
__global__ void __launch_bounds__(64)
    lm_mm_volkov(const float *A, const float *B, float *C, int n) {
    __shared__ float As[16][17]; /* As[k][r] = A[row0 + r][k0 + k] */
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * 16, col = blockIdx.x * 64 + ty * 16 + tx;
    const float *a = A + (size_t)(row0 + ty) * n + tx, *b = B + col;
    float c[16];
#pragma unroll
    for (int r = 0; r < 16; r++)
        c[r] = 0.0f;
    for (int k0 = 0; k0 < n; k0 += 16) {
#pragma unroll
        for (int q = 0; q < 4; q++)
            As[tx][ty + 4 * q] = a[(size_t)4 * q * n + k0];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < 16; k++) {
            const float bk = b[(size_t)(k0 + k) * n];
#pragma unroll
            for (int r = 0; r < 16; r++)
                c[r] += As[k][r] * bk;
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 16; r++)
        C[(size_t)(row0 + r) * n + col] = c[r];
}

typedef struct mm_args {
    int kind, bs, n;
    const float *A, *B;
    float *C;
} mm_args;

static int mm_run(void *p, void *stream) {
    mm_args *a = (mm_args *)p;
    cudaStream_t s = (cudaStream_t)stream;
    if (a->kind == LM_MM_VOLKOV) {
        lm_mm_volkov<<<dim3(a->n / 64, a->n / 16), dim3(16, 4), 0, s>>>(a->A, a->B, a->C, a->n);
        return (int)cudaGetLastError();
    }
    dim3 block(a->bs, a->bs), grid(a->n / a->bs, a->n / a->bs);
    if (a->kind == LM_MM_NAIVE)
        lm_mm_naive<<<grid, block, 0, s>>>(a->A, a->B, a->C, a->n);
    else if (a->bs == 8)
        lm_mm_tiled<8><<<grid, block, 0, s>>>(a->A, a->B, a->C, a->n);
    else
        lm_mm_tiled<16><<<grid, block, 0, s>>>(a->A, a->B, a->C, a->n);
    return (int)cudaGetLastError();
}

static cudaError_t mm_regs(int kind, int bs, int *regs) {
    cudaFuncAttributes fa;
    cudaError_t e;
    if (kind == LM_MM_VOLKOV)
        e = cudaFuncGetAttributes(&fa, lm_mm_volkov);
    else if (kind == LM_MM_NAIVE)
        e = cudaFuncGetAttributes(&fa, lm_mm_naive);
    else if (bs == 8)
        e = cudaFuncGetAttributes(&fa, lm_mm_tiled<8>);
    else
        e = cudaFuncGetAttributes(&fa, lm_mm_tiled<16>);
    if (e == cudaSuccess)
        *regs = fa.numRegs;
    return e;
}

/* The matrices of one run: random A and B on the host and the device, C. */
typedef struct mm_data {
    size_t nn;
    float *hA, *hB, *hC;
    mm_args a;
} mm_data;

static void mm_free(mm_data *d) {
    cudaFree((void *)d->a.A);
    cudaFree((void *)d->a.B);
    cudaFree(d->a.C);
    free(d->hA);
    free(d->hB);
    free(d->hC);
}

/* Fills *d for kind, bs and n from seed (g continues the stream, for the
 * elements checked); C on the device is NaN (poisoned) until written. */
static cudaError_t mm_setup(mm_data *d, int kind, int bs, int n, wb_rng *g) {
    memset(d, 0, sizeof *d);
    d->nn = (size_t)n * n;
    size_t bytes = d->nn * sizeof(float);
    d->a.kind = kind;
    d->a.bs = bs;
    d->a.n = n;
    d->hA = (float *)malloc(bytes);
    d->hB = (float *)malloc(bytes);
    d->hC = (float *)malloc(bytes);
    if (!d->hA || !d->hB || !d->hC)
        return cudaErrorMemoryAllocation;
    wb_rng_fill_float(g, d->hA, d->nn, -1.0f, 1.0f);
    wb_rng_fill_float(g, d->hB, d->nn, -1.0f, 1.0f);
    float *dA = NULL, *dB = NULL;
    cudaError_t e = cudaMalloc((void **)&dA, bytes);
    d->a.A = dA;
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&dB, bytes);
    d->a.B = dB;
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d->a.C, bytes);
    if (e == cudaSuccess)
        e = cudaMemcpy(dA, d->hA, bytes, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(dB, d->hB, bytes, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemset(d->a.C, 0xFF, bytes); /* all ones: a NaN */
    return e;
}

/* |C[r][c] - (A B)[r][c]| over the sum of the products' magnitudes, the
 * product in double; infinite for a NaN (an element never written). */
static double mm_rel_err(const mm_data *d, int r, int c) {
    int n = d->a.n;
    double want = 0, mag = 0;
    for (int k = 0; k < n; k++) {
        double p = (double)d->hA[(size_t)r * n + k] * d->hB[(size_t)k * n + c];
        want += p;
        mag += fabs(p);
    }
    double err = fabs(d->hC[(size_t)r * n + c] - want) / (mag > 0 ? mag : 1);
    return isnan(err) ? INFINITY : err;
}

static int mm_args_ok(int kind, int bs, int n) {
    if (kind == LM_MM_VOLKOV)
        return n >= 64 && n % 64 == 0;
    return (kind == LM_MM_NAIVE || kind == LM_MM_TILED) && (bs == 8 || bs == 16) && n >= bs &&
           n % bs == 0;
}

extern "C" int lm_mm_measure(int kind, int bs, int n, uint64_t seed, double *ms, int *regs,
                             double *max_rel_err) {
    if (!mm_args_ok(kind, bs, n))
        return (int)cudaErrorInvalidValue;
    WB_TRY_INT(mm_regs(kind, bs, regs));
    wb_rng g;
    wb_rng_seed(&g, seed);
    mm_data d;
    cudaError_t e = mm_setup(&d, kind, bs, n, &g);
    double spread = 0;
    if (e == cudaSuccess) {
        wb_time_opts o = wb_time_defaults();
        o.warmup = 2;
        o.min_trials = 5;
        o.max_trials = 21;
        o.max_seconds = 3.0;
        o.target_spread = 0.05;
        e = (cudaError_t)wb_time_one(mm_run, &d.a, &o, ms, &spread);
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(d.hC, d.a.C, d.nn * sizeof(float), cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) { /* 64 elements of C of the last timed run */
        double worst = 0;
        for (int s = 0; s < 64; s++) {
            int r = (int)wb_rng_range(&g, 0, n - 1), c = (int)wb_rng_range(&g, 0, n - 1);
            worst = fmax(worst, mm_rel_err(&d, r, c));
        }
        *max_rel_err = worst;
    }
    mm_free(&d);
    return (int)e;
}

extern "C" int lm_mm_verify(int kind, int bs, int n, uint64_t seed, double *max_rel_err,
                            long long *worst_index) {
    if (!mm_args_ok(kind, bs, n))
        return (int)cudaErrorInvalidValue;
    wb_rng g;
    wb_rng_seed(&g, seed);
    mm_data d;
    cudaError_t e = mm_setup(&d, kind, bs, n, &g);
    if (e == cudaSuccess)
        e = (cudaError_t)mm_run(&d.a, NULL);
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        e = cudaMemcpy(d.hC, d.a.C, d.nn * sizeof(float), cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) { /* every element */
        double worst = 0;
        *worst_index = 0;
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                double err = mm_rel_err(&d, r, c);
                if (err > worst) {
                    worst = err;
                    *worst_index = (long long)r * n + c;
                }
            }
        *max_rel_err = worst;
    }
    mm_free(&d);
    return (int)e;
}

/* ------------------------------------------------------- the ILP baseline */
