/* wb_latency.h - the grader's own benchmarks of latency and bandwidth: pointer chases, reads */
/* SPDX-License-Identifier: MIT */
#ifndef WB_LATENCY_H
#define WB_LATENCY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The figures of the latency-hidden-factor model's Table 2 as the graders
 * of labs 06 (against the student's microbenchmarks) and 07 (the GPU's
 * parameters for the student's model) measure them. Every function
 * returns a cudaError_t value as int (0 on success), works on the current
 * device, waits for its kernels and frees what it made. */

/* Pointer chases: one thread, a random cycle of 128-byte lines over 8 x L2
 * (at least 256 MB) for global memory, of 4096 words in shared memory.
 * Cycles and ns per hop; *bytes is the global footprint. */
int wb_latency_chase_global(double *cycles, double *ns, size_t *bytes);
int wb_latency_chase_shared(double *cycles, double *ns);
/* Bytes read per second by a full-GPU streaming read, GB/s (1e9). */
int wb_latency_read_gbps(double *gbps);
/* Shared-memory bytes per SM cycle, one block of 32 warps per SM. */
int wb_latency_shared_bytes_per_cycle(double *bpc);

#ifdef __cplusplus
}
#endif
#endif
