/* chain_ring_overrun.cu - broken lab 08: extra threads of the chain wrap around and store */
/* SPDX-License-Identifier: MIT */
/* "The state is a ring, so a thread past the end just takes its word
 * modulo n": the grid is rounded up to whole blocks of 256 and no thread
 * returns early. Every read stays inside the ring and every word below n
 * is right, but the threads past the end store their word at their own
 * index, up to 255 words past the end of d_out and d_work. An exact
 * allocation hides it from everything but compute-sanitizer; the guard
 * zone after each output shows it on the first call.
 * expect: correct.chain FAIL past the end
 * expect: correct.chain_stream FAIL past the end
 * expect: sanitizer.chain FAIL not graded
 * expect: perf.chain FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define launch_overhead_chain reference_chain
#include "../../../solutions/08-launch-overhead/launch_overhead.cu"
#undef launch_overhead_chain

__global__ void ring_step_kernel(const uint32_t *in, uint32_t *out, int n, uint32_t step) {
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    int w = i % n; /* no early return: "the ring wraps" */
    uint32_t left = in[w == 0 ? n - 1 : w - 1], right = in[w == n - 1 ? 0 : w + 1];
    out[i] = launch_overhead_step_value(left, in[w], right, step);
}

extern "C" cudaError_t launch_overhead_chain(const uint32_t *d_in, uint32_t *d_out,
                                             uint32_t *d_work, int n, int steps,
                                             cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || d_work == NULL || n < 1 || n > LAUNCH_OVERHEAD_MAX_N ||
        steps < 1)
        return cudaErrorInvalidValue;
    const unsigned blocks = (unsigned)((n + STEP_THREADS - 1) / STEP_THREADS);
    const uint32_t *src = d_in;
    for (int s = 0; s < steps; s++) {
        uint32_t *dst = (steps - 1 - s) % 2 == 0 ? d_out : d_work;
        ring_step_kernel<<<blocks, STEP_THREADS, 0, stream>>>(src, dst, n, (uint32_t)s);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            return e;
        src = dst;
    }
    return cudaSuccess;
}
