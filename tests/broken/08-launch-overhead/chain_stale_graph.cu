/* chain_stale_graph.cu - broken lab 08: the graph is reused whenever the pointers match */
/* SPDX-License-Identifier: MIT */
/* A cache keyed on the buffers only: a call with the same buffers and
 * another step count replays the old graph.
 * expect: correct.chain FAIL same buffers, then 2 steps
 * expect: sanitizer.chain FAIL not graded
 * expect: perf.chain FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_chain reference_chain
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_chain

extern "C" cudaError_t launch_overhead_chain(const uint32_t *d_in, uint32_t *d_out,
                                             uint32_t *d_work, int n, int steps,
                                             cudaStream_t stream) {
    static const uint32_t *in;
    static uint32_t *out, *work;
    static int first_steps;
    if (in != d_in || out != d_out || work != d_work) { /* "new buffers, new graph" */
        in = d_in;
        out = d_out;
        work = d_work;
        first_steps = steps;
    }
    return reference_chain(d_in, d_out, d_work, n, first_steps, stream);
}
