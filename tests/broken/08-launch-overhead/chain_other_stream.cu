/* chain_other_stream.cu - broken lab 08: the graph is launched on the stream it was captured on */
/* SPDX-License-Identifier: MIT */
/* Right whenever the caller waits for the whole device; wrong when the
 * input arrives on the caller's stream, and invisible to a timer on it.
 * expect: correct.chain_stream FAIL not on the stream argument
 * expect: perf.chain FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#include <cuda_runtime.h> /* declares cudaGraphLaunch before the macro below renames its calls */
#define launch_overhead_chain reference_chain
#define cudaGraphLaunch(exec, stream) cudaGraphLaunch((exec), capture)
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef cudaGraphLaunch
#undef launch_overhead_chain

extern "C" cudaError_t launch_overhead_chain(const uint32_t *d_in, uint32_t *d_out,
                                             uint32_t *d_work, int n, int steps,
                                             cudaStream_t stream) {
    return reference_chain(d_in, d_out, d_work, n, steps, stream);
}
