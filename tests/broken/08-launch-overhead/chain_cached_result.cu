/* chain_cached_result.cu - hostile lab 08: computes once, then copies the remembered result */
/* SPDX-License-Identifier: MIT */
/* Keyed on the input pointer, the size and the step count: a second call
 * with new contents in the same buffers gets the old answer.
 * expect: correct.chain FAIL same buffers, new input
 * expect: sanitizer.chain FAIL not graded
 * expect: perf.chain FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_chain reference_chain
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_chain

static uint32_t *kept;
static const uint32_t *kept_in;
static int kept_n, kept_steps;

extern "C" cudaError_t launch_overhead_chain(const uint32_t *d_in, uint32_t *d_out,
                                             uint32_t *d_work, int n, int steps,
                                             cudaStream_t stream) {
    size_t bytes = (size_t)n * sizeof(uint32_t);
    if (kept && kept_in == d_in && kept_n == n && kept_steps == steps) /* "same call as before" */
        return cudaMemcpyAsync(d_out, kept, bytes, cudaMemcpyDeviceToDevice, stream);
    cudaError_t e = reference_chain(d_in, d_out, d_work, n, steps, stream);
    cudaFree(kept);
    kept = NULL;
    if (e == cudaSuccess && cudaMalloc(&kept, bytes) == cudaSuccess) {
        kept_in = d_in;
        kept_n = n;
        kept_steps = steps;
        e = cudaMemcpyAsync(kept, d_out, bytes, cudaMemcpyDeviceToDevice, stream);
    }
    return e;
}
