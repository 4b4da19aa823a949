/* regs_branch_refill.cu - broken lab 09: the register loop refills each slot under a condition */
/* SPDX-License-Identifier: MIT */
/* The obvious way to handle the ends: a bounds check around each element
 * and around its refill. Every result is right and nothing is read past
 * the end, but in each unrolled copy of the body the compiler loads the
 * refill into a spare register and moves it into the slot where the two
 * paths of the condition meet, in the same iteration: the move waits for
 * the load, and the prefetch is gone at every distance (1.18x to 1.28x on
 * the H100 and H200, README "The sweep"). perf.best times the asynchronous
 * copies and does not see it.
 * expect: perf.regs FAIL keep the hot loop free of branches */
#define prefetching_regs reference_regs
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_regs

template <int DIST>
__global__ void __launch_bounds__(BLOCK)
    branchy_regs_kernel(const float *in, float *out, int n) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    float v[DIST];
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int j = first + k * stride;
        v[k] = j < n ? in[j] : 0.0f;
    }
    for (int i = first; i < n; i += DIST * stride) {
#pragma unroll
        for (int k = 0; k < DIST; k++) {
            int cur = i + k * stride;
            if (cur < n) {
                float x = v[k];
                int next = cur + DIST * stride;
                if (next < n) /* only the elements that exist */
                    v[k] = in[next];
                out[cur] = prefetching_work(x);
            }
        }
    }
}

static const prefetching_regs_fn branchy[] = PREFETCHING_TABLE(branchy_regs_kernel);

extern "C" cudaError_t prefetching_regs(const float *d_in, float *d_out, int n, int distance,
                                        int padding, int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    branchy[distance - 1]<<<blocks, BLOCK, 0, stream>>>(d_in, d_out, n);
    return cudaGetLastError();
}
