/* ilp_default_stream.cu - broken lab 06: the ILP sum launched on the default stream */
/* SPDX-License-Identifier: MIT */
/* expect: correct.ilp_sum FAIL on a stream
 * expect: perf.ilp FAIL not graded
 * expect: sanitizer.ilp_sum FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_hiding_ilp_sum reference_ilp_sum
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_ilp_sum

extern "C" cudaError_t latency_hiding_ilp_sum(const unsigned *d_in, size_t n, unsigned *d_out,
                                              cudaStream_t stream) {
    (void)stream;
    return reference_ilp_sum(d_in, n, d_out, 0); /* runs before the data has arrived */
}
