/* bs_kernels.cu - grader-owned kernels of lab 01: occupancy probes and the tail-effect baseline */
/* SPDX-License-Identifier: MIT */
#include "block_scheduling.h"

#include <cuda_runtime.h>

/* Kernels whose resident-block limits differ: by threads, by static shared
 * memory, by registers. Their bodies only have to keep their resources. */
__global__ void bs_probe_light(int *out) {
    if (out && threadIdx.x == 0)
        out[blockIdx.x] = 1;
}

__global__ void bs_probe_static_smem(int *out) {
    __shared__ int buf[6144]; /* 24 KiB */
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (out)
        out[blockIdx.x * blockDim.x + threadIdx.x] = buf[(threadIdx.x * 7) % blockDim.x];
}

__global__ void __launch_bounds__(256) bs_probe_registers(float *out, int n) {
    /* Many live values at once: a register-hungry kernel. */
    float v[48];
#pragma unroll
    for (int k = 0; k < 48; k++)
        v[k] = out ? out[(threadIdx.x + k * 37) % (n > 0 ? n : 1)] : (float)k;
    float s = 0.0f;
#pragma unroll
    for (int r = 0; r < 8; r++)
#pragma unroll
        for (int k = 0; k < 48; k++)
            s = fmaf(v[k], s, v[(k + r) % 48]);
    if (out && threadIdx.x == 0)
        out[blockIdx.x] = s;
}

/* The baseline of the tail effect: one contiguous chunk of items per block. */
__global__ void bs_baseline_kernel(const unsigned int *in, unsigned int *out, int n,
                                   long long item_ns) {
    int chunk = (n + gridDim.x - 1) / gridDim.x;
    int begin = blockIdx.x * chunk, end = min(begin + chunk, n);
    for (int i = begin + threadIdx.x; i < end; i += blockDim.x)
        out[i] = block_scheduling_item(in[i], item_ns);
}

#define BS_BASELINE_THREADS 256

extern "C" {

/* The kernel numbered which (0..2), for the capacity cases. */
const void *bs_probe_kernel(int which) {
    switch (which) {
    case 0:
        return (const void *)bs_probe_light;
    case 1:
        return (const void *)bs_probe_static_smem;
    default:
        return (const void *)bs_probe_registers;
    }
}

/* The grader's own figure: the occupancy API times the SM count. */
int bs_truth_capacity(const void *kernel, int threads, size_t smem, int *per_sm, int *capacity) {
    int dev = 0, sms = 0, n = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, smem);
    *per_sm = n;
    *capacity = n * sms;
    return (int)e;
}

/* Blocks of the baseline resident at once on the whole GPU. */
int bs_baseline_capacity(int *capacity) {
    int per_sm = 0;
    return bs_truth_capacity((const void *)bs_baseline_kernel, BS_BASELINE_THREADS, 0, &per_sm,
                             capacity);
}

int bs_baseline_threads(void) {
    return BS_BASELINE_THREADS;
}

/* The baseline launch: capacity + 1 blocks, so the last block runs alone
 * in a second wave. */
int bs_baseline_process(const unsigned int *d_in, unsigned int *d_out, int n, long long item_ns,
                        void *stream) {
    int cap = 0;
    int e = bs_baseline_capacity(&cap);
    if (e != 0)
        return e;
    bs_baseline_kernel<<<cap + 1, BS_BASELINE_THREADS, 0, (cudaStream_t)stream>>>(d_in, d_out, n,
                                                                                  item_ns);
    return (int)cudaGetLastError();
}
}
