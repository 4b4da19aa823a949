/* regs_tail_past_end.cu - broken lab 09: the register loop's last pass stores one past the end */
/* SPDX-License-Identifier: MIT */
/* The reference's branch-free loop with the tail's bound off by one:
 * cur <= n. The thread whose sequence reaches index n stores a result
 * there, one float past the end of d_out; every element below n is right.
 * With an output of exactly n floats only compute-sanitizer could see it;
 * the guard zone after d_out shows it in the first run.
 * expect: correct.regs FAIL past the end
 * expect: correct.tails FAIL past the end
 * expect: sanitizer.tails FAIL not graded
 * expect: perf.regs FAIL not graded
 * expect: measure.sweep FAIL not graded */
#define prefetching_regs reference_regs
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_regs

template <int DIST>
__global__ void __launch_bounds__(BLOCK)
    long_tail_regs_kernel(const float *in, float *out, int n) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    float v[DIST];
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int j = first + k * stride;
        v[k] = j < n ? in[j] : 0.0f;
    }
    int i = first;
    for (; i + (DIST - 1) * stride < n; i += DIST * stride) {
#pragma unroll
        for (int k = 0; k < DIST; k++) {
            int cur = i + k * stride;
            float x = v[k];
            v[k] = in[min(cur + DIST * stride, n - 1)];
            out[cur] = prefetching_work(x);
        }
    }
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int cur = i + k * stride;
        if (cur <= n) /* off by one */
            out[cur] = prefetching_work(v[k]);
    }
}

static const prefetching_regs_fn long_tail[] = PREFETCHING_TABLE(long_tail_regs_kernel);

extern "C" cudaError_t prefetching_regs(const float *d_in, float *d_out, int n, int distance,
                                        int padding, int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    long_tail[distance - 1]<<<blocks, BLOCK, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}
