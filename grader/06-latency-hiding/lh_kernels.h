/* lh_kernels.h - lab 06's grader-owned GPU code: the ILP baseline, a delayed copy */
/* SPDX-License-Identifier: MIT */
#ifndef LH_KERNELS_H
#define LH_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every function returns a cudaError_t value as int (0 on success) and
 * works on the current device. The benchmarks the measurements are
 * checked against are common/wb_latency.h's. */

/* The ILP task's baseline: the same sums with one load in flight per
 * thread (the stub's loop, compiled into the grader). */
int lh_ilp_baseline(const unsigned *d_in, size_t n, unsigned *d_out, void *stream);
/* On stream: wait about ns nanoseconds on the GPU, then copy n values
 * from src to dst (so that work queued after it on the same stream sees
 * dst, and work on another stream does not). */
int lh_delayed_copy(unsigned *dst, const unsigned *src, size_t n, long long ns, void *stream);

#ifdef __cplusplus
}
#endif
#endif
