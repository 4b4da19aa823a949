/* latency_hiding.cu - lab 06: latency, bandwidth and throughput measured; ILP at low occupancy */
/* SPDX-License-Identifier: MIT */
/*
 * You edit only this file and answers.txt. The contract (what each function
 * must return, and how it is graded) is in latency_hiding.h; README.md
 * explains the measurements and the ILP task. `make grade LAB=06` grades
 * your work.
 */
#include "latency_hiding.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WARP LATENCY_HIDING_WARP

/* =============================== part 1: microbenchmarks for the parameters */

/* %globaltimer: a nanosecond clock shared by all SMs (given). */
[[maybe_unused]] static __device__ __forceinline__ unsigned long long lh_globaltimer(void) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* A small random generator for the host (xorshift64*), given. */
[[maybe_unused]] static unsigned long long lh_random(unsigned long long *state) {
    unsigned long long x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545f4914f6cdd1dULL;
}

/* ---- pointer chasing: global memory */

/* BEGIN STUDENT CODE */
#define CHASE_LINE_WORDS 32 /* one hop per 128-byte line */
#define CHASE_GLOBAL_WARMUP 20000LL
#define CHASE_GLOBAL_HOPS 200000LL
#define CHASE_SHARED_WORDS 4096 /* 16 KB */
#define CHASE_SHARED_WARMUP 10000LL
#define CHASE_SHARED_HOPS 100000LL

/* A random cyclic permutation of 0..n-1 (Sattolo's algorithm): following
 * i -> perm[i] from any start visits every element once before it comes
 * back, in an order no prefetcher can guess. */
static unsigned *random_cycle(size_t n, unsigned long long seed) {
    unsigned *perm = (unsigned *)malloc(n * sizeof(unsigned));
    if (perm == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++)
        perm[i] = (unsigned)i;
    unsigned long long state = seed | 1;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(lh_random(&state) % i); /* j < i: one cycle, not any permutation */
        unsigned t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    return perm;
}

/* next[line * 32] = the first word of the line perm[line] points to. */
__global__ void lh_scatter_kernel(unsigned *next, const unsigned *perm, size_t lines) {
    for (size_t s = blockIdx.x * (size_t)blockDim.x + threadIdx.x; s < lines;
         s += (size_t)gridDim.x * blockDim.x)
        next[s * CHASE_LINE_WORDS] = perm[s] * CHASE_LINE_WORDS;
}

/* One thread follows the chain. The empty asm statements take i as an
 * operand, so the clock cannot be read before the loop that produced i has
 * finished (volatile asm statements keep their order). */
__global__ void lh_chase_global_kernel(const unsigned *next, long long warmup, long long hops,
                                       unsigned long long *out) {
    unsigned i = 0;
    for (long long h = 0; h < warmup; h++)
        i = next[i];
    asm volatile("" : "+r"(i));
    const long long c0 = clock64();
    const unsigned long long t0 = lh_globaltimer();
    for (long long h = 0; h < hops; h++)
        i = next[i];
    asm volatile("" : "+r"(i));
    const long long c1 = clock64();
    const unsigned long long t1 = lh_globaltimer();
    out[0] = (unsigned long long)(c1 - c0);
    out[1] = t1 - t0;
    out[2] = i; /* the chain's end is stored, so the loads cannot be dropped */
}

/* Bytes of a buffer that no cache holds: 8 x L2, at least 256 MB, at most
 * a quarter of the free memory. */
static cudaError_t beyond_l2_bytes(size_t *bytes) {
    int dev, l2 = 0;
    size_t free_b = 0, total_b = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
    if (e == cudaSuccess)
        e = cudaMemGetInfo(&free_b, &total_b);
    if (e != cudaSuccess)
        return e;
    size_t want = 8 * (size_t)l2;
    if (want < ((size_t)256 << 20))
        want = (size_t)256 << 20;
    if (want > free_b / 4)
        want = free_b / 4;
    *bytes = want / 4096 * 4096;
    return cudaSuccess;
}

cudaError_t latency_hiding_chase_global(latency_hiding_chase *out) {
    if (out == NULL)
        return cudaErrorInvalidValue;
    size_t bytes;
    cudaError_t e = beyond_l2_bytes(&bytes);
    if (e != cudaSuccess)
        return e;
    const size_t lines = bytes / (CHASE_LINE_WORDS * sizeof(unsigned));
    unsigned *h_perm = random_cycle(lines, 0x6a09e667f3bcc909ULL);
    if (h_perm == NULL)
        return cudaErrorMemoryAllocation;
    unsigned *d_next = NULL, *d_perm = NULL;
    unsigned long long *d_out = NULL, h_out[3];
    e = cudaMalloc((void **)&d_next, lines * CHASE_LINE_WORDS * sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_perm, lines * sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_out, sizeof h_out);
    if (e == cudaSuccess)
        e = cudaMemcpy(d_perm, h_perm, lines * sizeof(unsigned), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        lh_scatter_kernel<<<1024, 256>>>(d_next, d_perm, lines);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) {
        /* one block of one thread: nothing else competes for the memory */
        lh_chase_global_kernel<<<1, 1>>>(d_next, CHASE_GLOBAL_WARMUP, CHASE_GLOBAL_HOPS, d_out);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) {
        out->cycles_per_hop = (double)h_out[0] / CHASE_GLOBAL_HOPS;
        out->ns_per_hop = (double)h_out[1] / CHASE_GLOBAL_HOPS;
        out->hops = CHASE_GLOBAL_HOPS;
        out->footprint_bytes = lines * CHASE_LINE_WORDS * sizeof(unsigned);
    }
    cudaFree(d_next);
    cudaFree(d_perm);
    cudaFree(d_out);
    free(h_perm);
    return e;
}
/* END STUDENT CODE */

/* ---- pointer chasing: shared memory */

/* BEGIN STUDENT CODE */
/* The permutation holds byte offsets, so a hop is one shared load at
 * "base + register" with no multiply in the chain (the load unit adds the
 * offset itself). */
__global__ void lh_chase_shared_kernel(const unsigned *perm_bytes, long long warmup, long long hops,
                                       unsigned long long *out) {
    __shared__ unsigned s[CHASE_SHARED_WORDS];
    for (int k = threadIdx.x; k < CHASE_SHARED_WORDS; k += blockDim.x)
        s[k] = perm_bytes[k];
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    const char *base = (const char *)s;
    unsigned off = 0;
    for (long long h = 0; h < warmup; h++)
        off = *(const unsigned *)(base + off);
    asm volatile("" : "+r"(off));
    const long long c0 = clock64();
    const unsigned long long t0 = lh_globaltimer();
    for (long long h = 0; h < hops; h++)
        off = *(const unsigned *)(base + off);
    asm volatile("" : "+r"(off));
    const long long c1 = clock64();
    const unsigned long long t1 = lh_globaltimer();
    out[0] = (unsigned long long)(c1 - c0);
    out[1] = t1 - t0;
    out[2] = off;
}

cudaError_t latency_hiding_chase_shared(latency_hiding_chase *out) {
    if (out == NULL)
        return cudaErrorInvalidValue;
    unsigned *h_perm = random_cycle(CHASE_SHARED_WORDS, 0xbb67ae8584caa73bULL);
    if (h_perm == NULL)
        return cudaErrorMemoryAllocation;
    for (int k = 0; k < CHASE_SHARED_WORDS; k++)
        h_perm[k] *= (unsigned)sizeof(unsigned); /* element index -> byte offset */
    unsigned *d_perm = NULL;
    unsigned long long *d_out = NULL, h_out[3];
    cudaError_t e = cudaMalloc((void **)&d_perm, CHASE_SHARED_WORDS * sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_out, sizeof h_out);
    if (e == cudaSuccess)
        e = cudaMemcpy(d_perm, h_perm, CHASE_SHARED_WORDS * sizeof(unsigned),
                       cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        lh_chase_shared_kernel<<<1, 32>>>(d_perm, CHASE_SHARED_WARMUP, CHASE_SHARED_HOPS, d_out);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) {
        out->cycles_per_hop = (double)h_out[0] / CHASE_SHARED_HOPS;
        out->ns_per_hop = (double)h_out[1] / CHASE_SHARED_HOPS;
        out->hops = CHASE_SHARED_HOPS;
        out->footprint_bytes = CHASE_SHARED_WORDS * sizeof(unsigned);
    }
    cudaFree(d_perm);
    cudaFree(d_out);
    free(h_perm);
    return e;
}
/* END STUDENT CODE */

/* ---- bandwidth: global memory, whole GPU */

/* BEGIN STUDENT CODE */
/* Every thread of a full GPU reads 16 bytes at a time, four loads in
 * flight per loop trip; the XOR keeps the loads alive, and the store that
 * (practically) never happens keeps the XOR alive. */
__global__ void lh_read_kernel(const uint4 *in, size_t n4, unsigned *sink) {
    unsigned acc = 0;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
#pragma unroll 4
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += stride) {
        const uint4 v = in[i];
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

/* Median of n values (sorts them). */
static double median_of(double *v, int n) {
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
            double t = v[b];
            v[b] = v[b - 1];
            v[b - 1] = t;
        }
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static cudaError_t sm_count_of_device(int *sms) {
    int dev;
    cudaError_t e = cudaGetDevice(&dev);
    return e != cudaSuccess ? e : cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev);
}

#define LH_RUNS 11

cudaError_t latency_hiding_global_gbps(double *gbps) {
    if (gbps == NULL)
        return cudaErrorInvalidValue;
    size_t bytes;
    int sms;
    cudaError_t e = beyond_l2_bytes(&bytes);
    if (e == cudaSuccess)
        e = sm_count_of_device(&sms);
    if (e != cudaSuccess)
        return e;
    uint4 *d_in = NULL;
    unsigned *d_sink = NULL;
    cudaEvent_t a = NULL, b = NULL;
    double ms[LH_RUNS];
    e = cudaMalloc((void **)&d_in, bytes);
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_sink, sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMemset(d_in, 1, bytes); /* touched once, so no first-use cost is timed */
    if (e == cudaSuccess)
        e = cudaEventCreate(&a);
    if (e == cudaSuccess)
        e = cudaEventCreate(&b);
    /* run 0 warms up; runs 1.. are timed, each reading the whole buffer */
    for (int r = 0; r <= LH_RUNS && e == cudaSuccess; r++) {
        cudaEventRecord(a);
        lh_read_kernel<<<sms * 8, 256>>>(d_in, bytes / sizeof(uint4), d_sink);
        cudaEventRecord(b);
        e = cudaEventSynchronize(b);
        float t = 0;
        if (e == cudaSuccess)
            e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&t, a, b);
        if (r > 0)
            ms[r - 1] = t;
    }
    if (e == cudaSuccess)
        *gbps = (double)bytes / (median_of(ms, LH_RUNS) * 1e-3) / 1e9;
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaFree(d_in);
    cudaFree(d_sink);
    return e;
}
/* END STUDENT CODE */

/* ---- bandwidth: shared memory, one SM */

/* BEGIN STUDENT CODE */
#define SMEM_BW_THREADS 1024
#define SMEM_BW_REPS 1024

/* One block of 32 warps per SM reads 16 KB of shared memory over and
 * over, each warp 512 contiguous bytes per load (no bank conflicts).
 * Thread 0 times the block in SM cycles, between two barriers. */
__global__ void __launch_bounds__(SMEM_BW_THREADS)
    lh_shared_bw_kernel(int reps, long long *cycles, unsigned *sink) {
    __shared__ uint4 s[SMEM_BW_THREADS];
    const unsigned t = threadIdx.x;
    s[t] = make_uint4(t, t * 3u, ~t, blockIdx.x);
    __syncthreads();
    uint4 acc = make_uint4(0, 0, 0, 0);
    const long long c0 = clock64();
#pragma unroll 8
    for (int r = 0; r < reps; r++) {
        const uint4 v = s[(t + 32u * (unsigned)r) & (SMEM_BW_THREADS - 1)];
        acc.x ^= v.x;
        acc.y += v.y;
        acc.z ^= v.z;
        acc.w += v.w;
    }
    __syncthreads();
    const long long c1 = clock64();
    if (t == 0)
        cycles[blockIdx.x] = c1 - c0;
    if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9e3779b9u)
        *sink = 1;
}

cudaError_t latency_hiding_shared_bytes_per_cycle(double *bytes_per_cycle) {
    if (bytes_per_cycle == NULL)
        return cudaErrorInvalidValue;
    int sms;
    cudaError_t e = sm_count_of_device(&sms);
    if (e != cudaSuccess)
        return e;
    long long *d_cycles = NULL;
    unsigned *d_sink = NULL;
    long long *h_cycles = (long long *)malloc((size_t)sms * sizeof(long long));
    double *per_block = (double *)malloc((size_t)sms * sizeof(double));
    if (h_cycles == NULL || per_block == NULL)
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_cycles, (size_t)sms * sizeof(long long));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_sink, sizeof(unsigned));
    /* one block per SM, all SMs at once; the first launch warms up */
    for (int r = 0; r < 2 && e == cudaSuccess; r++) {
        lh_shared_bw_kernel<<<sms, SMEM_BW_THREADS>>>(SMEM_BW_REPS, d_cycles, d_sink);
        e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaDeviceSynchronize();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(h_cycles, d_cycles, (size_t)sms * sizeof(long long), cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) {
        const double bytes = (double)SMEM_BW_REPS * SMEM_BW_THREADS * sizeof(uint4);
        for (int k = 0; k < sms; k++)
            per_block[k] = h_cycles[k] > 0 ? bytes / (double)h_cycles[k] : 0.0;
        *bytes_per_cycle = median_of(per_block, sms);
    }
    cudaFree(d_cycles);
    cudaFree(d_sink);
    free(h_cycles);
    free(per_block);
    return e;
}
/* END STUDENT CODE */

/* ---- arithmetic throughput */

/* BEGIN STUDENT CODE */
#define FMA_CHAINS 8
#define FMA_ITERS 4096

/* Eight independent FMA chains per thread and a full SM of warps: enough
 * work in flight to cover the FMA's few cycles of latency. */
__global__ void lh_fma_kernel(int iters, float *sink) {
    float a[FMA_CHAINS];
#pragma unroll
    for (int c = 0; c < FMA_CHAINS; c++) {
        a[c] = (float)(threadIdx.x + c) * 1e-3f;
    }
    /* Unrolled, so the loop's counter and branch are a small share of the
     * instructions issued (rolled, they cost about a quarter of the rate). */
#pragma unroll 16
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int c = 0; c < FMA_CHAINS; c++)
            a[c] = fmaf(a[c], 0.9999f, 0.0001f);
    }
    float sum = 0.0f;
#pragma unroll
    for (int c = 0; c < FMA_CHAINS; c++)
        sum += a[c];
    if (sum == -1.0f) /* never: the values stay positive */
        *sink = sum;
}

cudaError_t latency_hiding_fma_gflops(double *gflops) {
    if (gflops == NULL)
        return cudaErrorInvalidValue;
    int sms, dev, threads_per_sm;
    cudaError_t e = sm_count_of_device(&sms);
    if (e == cudaSuccess)
        e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    if (e != cudaSuccess)
        return e;
    const int block = 256, blocks = sms * (threads_per_sm / block) * 4; /* four full waves */
    float *d_sink = NULL;
    cudaEvent_t a = NULL, b = NULL;
    double ms[LH_RUNS];
    e = cudaMalloc((void **)&d_sink, sizeof(float));
    if (e == cudaSuccess)
        e = cudaEventCreate(&a);
    if (e == cudaSuccess)
        e = cudaEventCreate(&b);
    for (int r = 0; r <= LH_RUNS && e == cudaSuccess; r++) {
        cudaEventRecord(a);
        lh_fma_kernel<<<blocks, block>>>(FMA_ITERS, d_sink);
        cudaEventRecord(b);
        e = cudaEventSynchronize(b);
        float t = 0;
        if (e == cudaSuccess)
            e = cudaGetLastError();
        if (e == cudaSuccess)
            e = cudaEventElapsedTime(&t, a, b);
        if (r > 0)
            ms[r - 1] = t;
    }
    if (e == cudaSuccess) {
        const double flop = 2.0 * FMA_CHAINS * FMA_ITERS * (double)blocks * block;
        *gflops = flop / (median_of(ms, LH_RUNS) * 1e-3) / 1e9;
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaFree(d_sink);
    return e;
}
/* END STUDENT CODE */

/* ---- all of it, into the model's parameters */

cudaError_t latency_hiding_fill_gpu(latency_hiding_gpu *g) {
    if (g == NULL)
        return cudaErrorInvalidValue;
    /* BEGIN STUDENT CODE */
    int dev, v[6];
    static const cudaDeviceAttr attr[6] = {
        cudaDevAttrMultiProcessorCount,           cudaDevAttrMaxThreadsPerBlock,
        cudaDevAttrMaxThreadsPerMultiProcessor,   cudaDevAttrMaxBlocksPerMultiprocessor,
        cudaDevAttrMaxRegistersPerMultiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor};
    cudaError_t e = cudaGetDevice(&dev);
    for (int i = 0; i < 6 && e == cudaSuccess; i++)
        e = cudaDeviceGetAttribute(&v[i], attr[i], dev);
    latency_hiding_chase gc, sc;
    double gbps = 0, smem = 0, gflops = 0;
    if (e == cudaSuccess)
        e = latency_hiding_chase_global(&gc);
    if (e == cudaSuccess)
        e = latency_hiding_chase_shared(&sc);
    if (e == cudaSuccess)
        e = latency_hiding_global_gbps(&gbps);
    if (e == cudaSuccess)
        e = latency_hiding_shared_bytes_per_cycle(&smem);
    if (e == cudaSuccess)
        e = latency_hiding_fma_gflops(&gflops);
    if (e != cudaSuccess)
        return e;
    g->sm_count = v[0];
    g->max_threads_per_block = v[1];
    g->max_threads_per_sm = v[2];
    g->max_warps_per_sm = v[2] / WARP;
    g->max_blocks_per_sm = v[3];
    g->regs_per_sm = v[4];
    g->smem_per_sm = v[5];
    /* The clock the cycles were counted in, as the chase saw it: latencies
     * come in cycles, bandwidths in bytes per second, and this converts. */
    g->clock_ghz = gc.cycles_per_hop / gc.ns_per_hop;
    g->global_latency = gc.cycles_per_hop;
    g->shared_latency = sc.cycles_per_hop;
    g->global_gbps = gbps;
    g->shared_bytes_per_cycle = smem;
    /* FMAs per cycle per SM = gflops / 2 / sm_count / clock_ghz: the
     * "cores" of the paper's rule. A warp's instruction takes 32 / cores. */
    g->compute_cycles = 64.0 * g->sm_count * g->clock_ghz / gflops;
    g->global_issue_cycles = g->compute_cycles;
    g->shared_issue_cycles = g->compute_cycles;
    return cudaSuccess;
    /* END STUDENT CODE */
}

/* ================ part 2: more loads in flight per thread, at low occupancy */

/* Thread t adds up d_in[t], d_in[t + T], d_in[t + 2T], ... (T threads in
 * all). With two warps per SM, the memory sees only as many requests at a
 * time as the threads keep in flight. */
__global__ void latency_hiding_ilp_kernel(const unsigned *in, size_t n, unsigned *out) {
    const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    unsigned sum = 0;
    /* BEGIN STUDENT CODE */
    /* Sixteen independent loads are issued back to back and only then
     * used: the warp waits once for all of them instead of once for each.
     * Unsigned addition wraps modulo 2^32 and is associative, so the order
     * of the additions does not change the sum. */
    const int batch = 16;
    size_t i = t;
    for (; i + (size_t)(batch - 1) * stride < n; i += (size_t)batch * stride) {
        unsigned v[batch];
#pragma unroll
        for (int u = 0; u < batch; u++)
            v[u] = in[i + (size_t)u * stride];
#pragma unroll
        for (int u = 0; u < batch; u++)
            sum += v[u];
    }
    for (; i < n; i += stride) /* the last few, fewer than a batch */
        sum += in[i];
    /* END STUDENT CODE */
    out[t] = sum;
}

cudaError_t latency_hiding_ilp_sum(const unsigned *d_in, size_t n, unsigned *d_out,
                                   cudaStream_t stream) {
    if (d_in == NULL || d_out == NULL || n == 0)
        return cudaErrorInvalidValue;
    int dev, sms;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess)
        return e;
    /* The occupancy is fixed: one block of 64 threads per SM, two warps. */
    latency_hiding_ilp_kernel<<<sms, LATENCY_HIDING_ILP_THREADS, 0, stream>>>(d_in, n, d_out);
    return cudaGetLastError();
}
