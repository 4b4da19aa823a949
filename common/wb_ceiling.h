/* wb_ceiling.h - ceilings measured on the grading GPU: copy bandwidth, FMA rate, launch cost */
/* SPDX-License-Identifier: MIT */
#ifndef WB_CEILING_H
#define WB_CEILING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wb_ceiling {
    double value;  /* GB/s, GFLOP/s or microseconds */
    double spread; /* relative spread of the trials */
    double ms;     /* median time of one timed run */
    size_t bytes;  /* bytes per buffer, for bandwidth */
} wb_ceiling;

/* Device-to-device copy bandwidth of the current device in GB/s, counting
 * bytes read plus bytes written, over buffers well beyond the L2 cache.
 * Returns a cudaError_t value (0 on success). */
int wb_measure_copy_gbps(wb_ceiling *out);
/* FP32 FMA throughput of the current device in GFLOP/s (2 FLOP per FMA):
 * full waves of blocks, eight independent FMA chains per thread. */
int wb_measure_fma_gflops(wb_ceiling *out);
/* Host-side cost of one asynchronous empty launch, in microseconds. */
int wb_measure_empty_launch_us(wb_ceiling *out);
/* The kernel the grader's counters probe has ncu profile (WB_PROBE_KERNEL):
 * one block of 32 threads per SM, each spinning about 20,000 cycles, on the
 * current device, waited for. Returns a cudaError_t value. */
#define WB_PROBE_KERNEL "wb_probe_kernel"
int wb_probe_kernel_launch(void);

#ifdef __cplusplus
}
#endif
#endif
