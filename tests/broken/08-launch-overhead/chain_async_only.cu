/* chain_async_only.cu - broken lab 08: the chain without the waits, but one launch per step */
/* SPDX-License-Identifier: MIT */
/* Correct, and faster than the naive chain by the ratio of a synchronised
 * to an asynchronous launch (about 2.6x on the H200 trial), which is short
 * of the limit: each step still pays the driver for its launch.
 * expect: perf.chain FAIL each step still pays */
#define launch_overhead_chain reference_chain
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_chain

extern "C" cudaError_t launch_overhead_chain(const uint32_t *d_in, uint32_t *d_out,
                                             uint32_t *d_work, int n, int steps,
                                             cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || d_work == NULL || n < 1 || n > LAUNCH_OVERHEAD_MAX_N ||
        steps < 1)
        return cudaErrorInvalidValue;
    return enqueue_steps(d_in, d_out, d_work, n, steps, stream, 0);
}
