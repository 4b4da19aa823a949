/* smem_shared_rows.cu - broken lab 09: one shared-memory row per lane, so the 8 warps of a block
 * overwrite each other's prefetched values */
/* SPDX-License-Identifier: MIT */
/* expect: correct.smem FAIL expected
 * expect: correct.tails FAIL expected
 * expect: sanitizer.tails FAIL not graded
 * expect: measure.sweep FAIL not graded */
#define prefetching_smem reference_smem
#include "../../../solutions/09-prefetching/prefetching.cu"
#undef prefetching_smem

template <int DIST>
__global__ void __launch_bounds__(BLOCK)
    lane_rows_smem_kernel(const float *in, float *out, int n, int padding) {
    const int first = (int)(blockIdx.x * BLOCK + threadIdx.x);
    const int stride = (int)(gridDim.x * BLOCK);
    /* threadIdx.x % 32 instead of threadIdx.x: lane l of every warp shares row l. */
    float *mine = prefetching_slots + (threadIdx.x % 32) * (DIST + padding);
#pragma unroll
    for (int k = 0; k < DIST; k++) {
        int j = first + k * stride;
        if (j < n)
            mine[k] = in[j];
    }
    int slot = 0;
#pragma unroll 1
    for (int i = first; i < n; i += stride) {
        float x = mine[slot];
        int next = i + DIST * stride;
        float y = next < n ? in[next] : 0.0f;
        out[i] = prefetching_work(x);
        if (next < n)
            mine[slot] = y;
        slot = slot + 1 < DIST ? slot + 1 : 0;
    }
}

static const prefetching_slots_fn lane_rows[] = PREFETCHING_TABLE(lane_rows_smem_kernel);

extern "C" cudaError_t prefetching_smem(const float *d_in, float *d_out, int n, int distance,
                                        int padding, int blocks, cudaStream_t stream) {
    cudaError_t e = check_args(d_in, d_out, n, distance, padding, blocks);
    if (e != cudaSuccess || n == 0)
        return e;
    lane_rows[distance - 1]<<<blocks, BLOCK, slot_bytes(distance, padding), stream>>>(d_in, d_out,
                                                                                      n, padding);
    return cudaGetLastError();
}
