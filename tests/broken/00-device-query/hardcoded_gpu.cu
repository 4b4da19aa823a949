/* hardcoded_gpu.cu - broken lab 00: right on the GPU it was written on, wrong on any other */
/* SPDX-License-Identifier: MIT */
/* The clock and the warp slots read once on an H100 and typed in, and the
 * registers per SM taken from the per-block attribute (equal on every
 * current GPU, so the real device cannot tell). Right on an H100 or H200
 * at 1980 MHz; wrong on any GPU of another clock or SM size.
 * expect: correct.other_gpus FAIL on a simulated */
#define device_query_fill reference_fill
#include "../../../solutions/00-device-query/device_query.cu"
#undef device_query_fill

extern "C" cudaError_t device_query_fill(int dev, device_query_report *r) {
    cudaError_t e = reference_fill(dev, r);
    if (e != cudaSuccess)
        return e;
    r->sm_clock_khz = 1980000; /* "nvidia-smi said 1980 MHz" */
    r->max_threads_per_sm = 2048;
    r->regs_per_sm = r->regs_per_block;
    r->peak_fp32_gflops = device_query_peak_fp32_gflops(r);
    return e;
}
