/* wb_latency.cu - the grader's own benchmarks of latency and bandwidth: pointer chases, reads */
/* SPDX-License-Identifier: MIT */
#include "wb_latency.h"
#include "wb_check.h"
#include "wb_rng.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static __device__ __forceinline__ unsigned long long gtimer(void) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static double median_d(double *v, int n) {
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
            double t = v[b];
            v[b] = v[b - 1];
            v[b - 1] = t;
        }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A random single cycle over 0..n-1 (Sattolo), from the workbook's generator. */
static unsigned *cycle_of(size_t n, uint64_t seed) {
    unsigned *p = (unsigned *)malloc(n * sizeof(unsigned));
    if (!p)
        return NULL;
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned)i;
    wb_rng g;
    wb_rng_seed(&g, seed);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)wb_rng_range(&g, 0, (int64_t)i - 1);
        unsigned t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return p;
}

/* Bytes well beyond the L2: 8 x L2, at least 256 MB, at most a quarter of free memory. */
static int big_bytes(size_t *bytes) {
    int dev, l2 = 0;
    size_t fr = 0, tot = 0;
    WB_TRY_INT(cudaGetDevice(&dev));
    WB_TRY_INT(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    WB_TRY_INT(cudaMemGetInfo(&fr, &tot));
    size_t b = 8 * (size_t)l2;
    if (b < ((size_t)256 << 20))
        b = (size_t)256 << 20;
    if (b > fr / 4)
        b = fr / 4;
    *bytes = b / 4096 * 4096;
    return 0;
}

static int sm_count(int *sms) {
    int dev;
    WB_TRY_INT(cudaGetDevice(&dev));
    return (int)cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev);
}

/* ------------------------------------------------------------- chases */

#define LINE 32 /* words per 128-byte line */
#define G_WARM 20000LL
#define G_HOPS 200000LL
#define S_WORDS 4096
#define S_WARM 10000LL
#define S_HOPS 1000000LL

__global__ void wb_latency_link_kernel(unsigned *next, const unsigned *perm, size_t lines) {
    for (size_t s = blockIdx.x * (size_t)blockDim.x + threadIdx.x; s < lines;
         s += (size_t)gridDim.x * blockDim.x)
        next[s * LINE] = perm[s] * LINE;
}

__global__ void wb_latency_chase_global_kernel(const unsigned *next, long long warm, long long hops,
                                               unsigned long long *out) {
    unsigned i = 0;
    for (long long h = 0; h < warm; h++)
        i = next[i];
    asm volatile("" : "+r"(i));
    long long c0 = clock64();
    unsigned long long t0 = gtimer();
    for (long long h = 0; h < hops; h++)
        i = next[i];
    asm volatile("" : "+r"(i));
    long long c1 = clock64();
    unsigned long long t1 = gtimer();
    out[0] = (unsigned long long)(c1 - c0);
    out[1] = t1 - t0;
    out[2] = i;
}

extern "C" int wb_latency_chase_global(double *cycles, double *ns, size_t *bytes) {
    size_t b;
    WB_TRY_INT(big_bytes(&b));
    size_t lines = b / (LINE * sizeof(unsigned));
    unsigned *h = cycle_of(lines, 0x243f6a8885a308d3ULL);
    if (!h)
        return (int)cudaErrorMemoryAllocation;
    unsigned *d_next = NULL, *d_perm = NULL;
    unsigned long long *d_out = NULL, o[3] = {0, 0, 0};
    cudaError_t e = cudaMalloc((void **)&d_next, lines * LINE * sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_perm, lines * sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_out, sizeof o);
    if (e == cudaSuccess)
        e = cudaMemcpy(d_perm, h, lines * sizeof(unsigned), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        wb_latency_link_kernel<<<1024, 256>>>(d_next, d_perm, lines);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) {
        wb_latency_chase_global_kernel<<<1, 1>>>(d_next, G_WARM, G_HOPS, d_out);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) {
        *cycles = (double)o[0] / G_HOPS;
        *ns = (double)o[1] / G_HOPS;
        *bytes = lines * LINE * sizeof(unsigned);
    }
    cudaFree(d_next);
    cudaFree(d_perm);
    cudaFree(d_out);
    free(h);
    return (int)e;
}

__global__ void wb_latency_chase_shared_kernel(const unsigned *perm_bytes, long long warm,
                                               long long hops, unsigned long long *out) {
    __shared__ unsigned s[S_WORDS];
    for (int k = threadIdx.x; k < S_WORDS; k += blockDim.x)
        s[k] = perm_bytes[k];
    __syncthreads();
    if (threadIdx.x)
        return;
    const char *base = (const char *)s;
    unsigned off = 0;
    for (long long h = 0; h < warm; h++)
        off = *(const unsigned *)(base + off);
    asm volatile("" : "+r"(off));
    long long c0 = clock64();
    unsigned long long t0 = gtimer();
    for (long long h = 0; h < hops; h++)
        off = *(const unsigned *)(base + off);
    asm volatile("" : "+r"(off));
    long long c1 = clock64();
    unsigned long long t1 = gtimer();
    out[0] = (unsigned long long)(c1 - c0);
    out[1] = t1 - t0;
    out[2] = off;
}

extern "C" int wb_latency_chase_shared(double *cycles, double *ns) {
    unsigned *h = cycle_of(S_WORDS, 0x13198a2e03707344ULL);
    if (!h)
        return (int)cudaErrorMemoryAllocation;
    for (int k = 0; k < S_WORDS; k++)
        h[k] *= 4u;
    unsigned *d_perm = NULL;
    unsigned long long *d_out = NULL, o[3] = {0, 0, 0};
    cudaError_t e = cudaMalloc((void **)&d_perm, S_WORDS * sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_out, sizeof o);
    if (e == cudaSuccess)
        e = cudaMemcpy(d_perm, h, S_WORDS * sizeof(unsigned), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        wb_latency_chase_shared_kernel<<<1, 64>>>(d_perm, S_WARM, S_HOPS, d_out);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) {
        *cycles = (double)o[0] / S_HOPS;
        *ns = (double)o[1] / S_HOPS;
    }
    cudaFree(d_perm);
    cudaFree(d_out);
    free(h);
    return (int)e;
}

/* ---------------------------------------------------------- bandwidths */

__global__ void wb_latency_read_kernel(const uint4 *in, size_t n4, unsigned *sink) {
    unsigned acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        uint4 a = in[i], b = in[i + stride], c = in[i + 2 * stride], d = in[i + 3 * stride];
        acc ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w;
        acc ^= c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^ d.z ^ d.w;
    }
    for (; i < n4; i += stride) {
        uint4 a = in[i];
        acc ^= a.x ^ a.y ^ a.z ^ a.w;
    }
    if (acc == 0x7f4a7c15u)
        *sink = acc;
}

#define RUNS 11

extern "C" int wb_latency_read_gbps(double *gbps) {
    size_t b;
    int sms;
    WB_TRY_INT(big_bytes(&b));
    WB_TRY_INT(sm_count(&sms));
    uint4 *d = NULL;
    unsigned *sink = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    double ms[RUNS];
    cudaError_t e = cudaMalloc((void **)&d, b);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&sink, sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMemset(d, 3, b);
    if (e == cudaSuccess)
        e = cudaEventCreate(&e0);
    if (e == cudaSuccess)
        e = cudaEventCreate(&e1);
    for (int r = 0; r <= RUNS && e == cudaSuccess; r++) {
        cudaEventRecord(e0);
        wb_latency_read_kernel<<<sms * 4, 512>>>(d, b / sizeof(uint4), sink);
        cudaEventRecord(e1);
        e = cudaEventSynchronize(e1);
        float t = 0;
        if (e == cudaSuccess)
            e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&t, e0, e1);
        if (r > 0)
            ms[r - 1] = t;
    }
    if (e == cudaSuccess)
        *gbps = (double)b / (median_d(ms, RUNS) * 1e-3) / 1e9;
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(d);
    cudaFree(sink);
    return (int)e;
}

#define SB_THREADS 1024
#define SB_REPS 4096

__global__ void __launch_bounds__(SB_THREADS)
    wb_latency_smem_kernel(int reps, long long *cyc, unsigned *sink) {
    __shared__ uint4 s[SB_THREADS];
    unsigned t = threadIdx.x;
    s[t] = make_uint4(t ^ 0x55u, t + 7u, t * 5u, blockIdx.x);
    __syncthreads();
    unsigned a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    long long c0 = clock64();
#pragma unroll 8
    for (int r = 0; r < reps; r++) {
        uint4 v = s[(t + 32u * (unsigned)r) & (SB_THREADS - 1)];
        a0 += v.x;
        a1 ^= v.y;
        a2 += v.z;
        a3 ^= v.w;
    }
    __syncthreads();
    long long c1 = clock64();
    if (t == 0)
        cyc[blockIdx.x] = c1 - c0;
    if ((a0 ^ a1 ^ a2 ^ a3) == 0x7f4a7c15u)
        *sink = 1;
}

extern "C" int wb_latency_shared_bytes_per_cycle(double *bpc) {
    int sms;
    WB_TRY_INT(sm_count(&sms));
    long long *d = NULL, *h = (long long *)malloc((size_t)sms * sizeof(long long));
    double *v = (double *)malloc((size_t)sms * sizeof(double));
    unsigned *sink = NULL;
    cudaError_t e = h && v ? cudaSuccess : cudaErrorMemoryAllocation;
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d, (size_t)sms * sizeof(long long));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&sink, sizeof(unsigned));
    for (int r = 0; r < 2 && e == cudaSuccess; r++) {
        wb_latency_smem_kernel<<<sms, SB_THREADS>>>(SB_REPS, d, sink);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaDeviceSynchronize();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(h, d, (size_t)sms * sizeof(long long), cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) {
        double bytes = (double)SB_REPS * SB_THREADS * 16.0;
        for (int k = 0; k < sms; k++)
            v[k] = h[k] > 0 ? bytes / (double)h[k] : 0.0;
        *bpc = median_d(v, sms);
    }
    cudaFree(d);
    cudaFree(sink);
    free(h);
    free(v);
    return (int)e;
}
