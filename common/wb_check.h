/* wb_check.h - check every CUDA call and launch; print where and why it failed */
/* SPDX-License-Identifier: MIT */
#ifndef WB_CHECK_H
#define WB_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>

/* WB_CHECK(call): for drivers and graders. On an error it prints file:line,
 * the call, the error's name and description, and exits with status 1.
 * Student-facing contract functions return cudaError_t instead. */
#define WB_CHECK(call)                                                                             \
    do {                                                                                           \
        cudaError_t wb_err_ = (call);                                                              \
        if (wb_err_ != cudaSuccess) {                                                              \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call,              \
                    cudaGetErrorName(wb_err_), cudaGetErrorString(wb_err_));                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* WB_CHECK_LAUNCH(): after every kernel launch. With -DWB_DEBUG (make DEBUG=1)
 * it also synchronizes, so an error in the kernel is reported at its launch. */
#ifdef WB_DEBUG
#define WB_CHECK_LAUNCH()                                                                          \
    do {                                                                                           \
        WB_CHECK(cudaGetLastError());                                                              \
        WB_CHECK(cudaDeviceSynchronize());                                                         \
    } while (0)
#else
#define WB_CHECK_LAUNCH() WB_CHECK(cudaGetLastError())
/* WB_TRY_INT(call): the same inside functions that return a cudaError_t
 * value as int (the convention of C callers that include no CUDA header). */
#define WB_TRY_INT(call)                                                                           \
    do {                                                                                           \
        int wb_err_ = (int)(call);                                                                 \
        if (wb_err_ != 0)                                                                          \
            return wb_err_;                                                                        \
    } while (0)

#endif

/* WB_TRY(call): inside functions that return cudaError_t, return the first error. */
#define WB_TRY(call)                                                                               \
    do {                                                                                           \
        cudaError_t wb_err_ = (call);                                                              \
        if (wb_err_ != cudaSuccess)                                                                \
            return wb_err_;                                                                        \
    } while (0)

/* WB_TRY_INT(call): the same inside functions that return a cudaError_t
 * value as int (the convention of C callers that include no CUDA header). */
#define WB_TRY_INT(call)                                                                           \
    do {                                                                                           \
        int wb_err_ = (int)(call);                                                                 \
        if (wb_err_ != 0)                                                                          \
            return wb_err_;                                                                        \
    } while (0)

#endif
