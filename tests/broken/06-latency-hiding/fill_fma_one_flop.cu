/* fill_fma_one_flop.cu - broken lab 06: CoresPerSM from the FMA rate with one FLOP per FMA */
/* SPDX-License-Identifier: MIT */
/* "CoresPerSM = GFLOP/s / SMs / GHz, one operation per core per cycle":
 * but an FMA is two FLOP, so the cores come out twice as many and every
 * throughput half what it is (32 x sm_count x clock_ghz / gflops). The
 * benchmarks themselves are right.
 * expect: correct.fill_gpu FAIL the FMA rate compute_cycles stands for
 * expect: sanitizer.host FAIL not graded */
#define latency_hiding_fill_gpu reference_fill_gpu
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_fill_gpu

extern "C" cudaError_t latency_hiding_fill_gpu(latency_hiding_gpu *g) {
    cudaError_t e = reference_fill_gpu(g);
    if (e != cudaSuccess)
        return e;
    /* the reference's 64 x sm_count x clock_ghz / gflops, with 32 */
    g->compute_cycles /= 2;
    g->global_issue_cycles = g->compute_cycles;
    g->shared_issue_cycles = g->compute_cycles;
    return cudaSuccess;
}
