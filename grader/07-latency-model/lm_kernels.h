/* lm_kernels.h - lab 07's grader-owned GPU code: the two matrix multiplies it predicts */
/* SPDX-License-Identifier: MIT */
#ifndef LM_KERNELS_H
#define LM_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Times the grader's matrix multiply (tiled = 0: naive, 1: tiled) with
 * bs x bs blocks on n x n random matrices: median milliseconds of
 * interleaved-free repeated runs on one stream, the kernel's registers per
 * thread (cudaFuncGetAttributes) and the largest relative error of 64
 * elements of C checked on the CPU. bs is 8 or 16; n a multiple of bs.
 * Returns a cudaError_t value as int (0 on success); works on the current
 * device, waits for its kernels and frees what it made. */
int lm_mm_measure(int tiled, int bs, int n, uint64_t seed, double *ms, int *regs,
                  double *max_rel_err);

#ifdef __cplusplus
}
#endif
#endif
