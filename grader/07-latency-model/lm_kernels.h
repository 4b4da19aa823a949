/* lm_kernels.h - lab 07's grader-owned GPU code: the three matrix multiplies it predicts */
/* SPDX-License-Identifier: MIT */
#ifndef LM_KERNELS_H
#define LM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The grader's matrix multiplies (README.md, "The matrix multiplies in the
 * model's terms"): naive and tiled with bs x bs blocks (bs 8 or 16, n a
 * multiple of bs), Volkov's with 16 x 4 blocks (bs ignored, n a multiple of
 * 64). */
enum { LM_MM_NAIVE = 0, LM_MM_TILED = 1, LM_MM_VOLKOV = 2 };

/* Times one of them on n x n random matrices: median milliseconds of
 * repeated runs on one stream, the kernel's registers per thread
 * (cudaFuncGetAttributes) and the largest relative error of 64 elements of
 * C checked on the CPU. Returns a cudaError_t value as int (0 on success;
 * cudaErrorInvalidValue for a kind, bs or n it does not take); works on the
 * current device, waits for its kernels and frees what it made. */
int lm_mm_measure(int kind, int bs, int n, uint64_t seed, double *ms, int *regs,
                  double *max_rel_err);

/* Runs one of them once on n x n random matrices, C poisoned with NaN
 * first, and checks every element of C against the CPU (in double): the
 * largest relative error (infinite for an element never written) and where
 * it is (row x n + column). For small n: the CPU work is n^3. Returns as
 * lm_mm_measure. */
int lm_mm_verify(int kind, int bs, int n, uint64_t seed, double *max_rel_err,
                 long long *worst_index);

#ifdef __cplusplus
}
#endif
#endif
