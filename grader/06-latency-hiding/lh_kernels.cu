/* lh_kernels.cu - lab 06's grader-owned GPU code: the ILP baseline, a delayed copy */
/* SPDX-License-Identifier: MIT */
#include "lh_kernels.h"
#include "wb_check.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static __device__ __forceinline__ unsigned long long gtimer(void) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static int sm_count(int *sms) {
    int dev;
    WB_TRY_INT(cudaGetDevice(&dev));
    return (int)cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev);
}

/* One load in flight per thread: the sum waits for each load before the
 * loop issues the next (no unrolling). */
__global__ void lh_ilp_one_at_a_time(const unsigned *in, size_t n, unsigned *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned sum = 0;
#pragma unroll 1
    for (size_t i = t; i < n; i += stride)
        sum += in[i];
    out[t] = sum;
}

extern "C" int lh_ilp_baseline(const unsigned *d_in, size_t n, unsigned *d_out, void *stream) {
    int sms;
    WB_TRY_INT(sm_count(&sms));
    lh_ilp_one_at_a_time<<<sms, 64, 0, (cudaStream_t)stream>>>(d_in, n, d_out);
    return (int)cudaGetLastError();
}

__global__ void lh_wait_copy(unsigned *dst, const unsigned *src, size_t n, long long ns) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned long long t0 = gtimer();
        while ((long long)(gtimer() - t0) < ns) {
        }
    }
    __syncthreads();
    if (blockIdx.x != 0)
        return;
    for (size_t i = threadIdx.x; i < n; i += blockDim.x)
        dst[i] = src[i];
}

extern "C" int lh_delayed_copy(unsigned *dst, const unsigned *src, size_t n, long long ns,
                               void *stream) {
    lh_wait_copy<<<1, 1024, 0, (cudaStream_t)stream>>>(dst, src, n, ns);
    return (int)cudaGetLastError();
}
