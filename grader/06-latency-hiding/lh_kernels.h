/* lh_kernels.h - lab 06's grader-owned GPU code: benchmarks, matrix multiplies, ILP baseline */
/* SPDX-License-Identifier: MIT */
#ifndef LH_KERNELS_H
#define LH_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every function returns a cudaError_t value as int (0 on success), works
 * on the current device, waits for its kernels and frees what it made. */

/* The grader's own pointer chases: one thread, a random cycle of 128-byte
 * lines over 8 x L2 (at least 256 MB) for global memory, of 4096 words in
 * shared memory. Cycles and ns per hop; *bytes is the global footprint. */
int lh_ref_chase_global(double *cycles, double *ns, size_t *bytes);
int lh_ref_chase_shared(double *cycles, double *ns);
/* Bytes read per second by a full-GPU streaming read, GB/s (1e9). */
int lh_ref_read_gbps(double *gbps);
/* Shared-memory bytes per SM cycle, one block of 32 warps per SM. */
int lh_ref_shared_bytes_per_cycle(double *bpc);

/* Times the grader's matrix multiply (tiled = 0: naive, 1: tiled) with
 * bs x bs blocks on n x n random matrices: median milliseconds of
 * interleaved-free repeated runs on one stream, the kernel's registers per
 * thread (cudaFuncGetAttributes) and the largest relative error of 64
 * elements of C checked on the CPU. bs is 8 or 16; n a multiple of bs. */
int lh_mm_measure(int tiled, int bs, int n, uint64_t seed, double *ms, int *regs,
                  double *max_rel_err);

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
