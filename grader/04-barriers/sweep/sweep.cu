/* sweep.cu - design sweep for lab 04: block sums with and without warp-level finish, vs copy
 * bandwidth */
/* SPDX-License-Identifier: MIT */
/* Build: make sweeps (build/tools/04-sweep)
 * Prints a tab-separated table: block, items, tiles per block, variant, ms, GB/s, share of copy. */
#include "wb_ceiling.h"
#include "wb_check.h"
#include "wb_timing.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>


__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

/* VAR 0: barrier per step down to 1. VAR 1: tree to 64, shuffles. VAR 2: shuffles first.
 * VAR 3: tree to 64, then __syncwarp steps in shared memory. */
template <int B, int VAR> __device__ float block_sum(float v, float *s) {
    const int t = threadIdx.x;
    if (VAR == 2) {
        v = warp_sum(v);
        __syncthreads();
        if (t % 32 == 0)
            s[t / 32] = v;
        __syncthreads();
        if (t < 32) {
            v = t < B / 32 ? s[t] : 0.0f;
            v = warp_sum(v);
        }
        return v;
    }
    __syncthreads();
    s[t] = v;
    __syncthreads();
    const int last = VAR == 0 ? 1 : 64;
    for (int stride = B / 2; stride >= last; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (VAR == 0)
        return s[0];
    if (VAR == 1) {
        if (t < 32) {
            v = s[t] + s[t + 32];
            v = warp_sum(v);
        }
        return v;
    }
    if (t < 32) {
        for (int stride = 32; stride > 0; stride /= 2) {
            v = s[t] + s[t + stride];
            __syncwarp();
            s[t] = v;
            __syncwarp();
        }
    }
    return s[0];
}

template <int B, int ITEMS, int VAR>
__global__ void level_kernel(const float *in, int m, float *out, int tpb) {
    __shared__ float s[B];
    const int tiles = (m + B * ITEMS - 1) / (B * ITEMS);
    for (int k = 0; k < tpb; k++) {
        int tile = blockIdx.x + k * gridDim.x;
        if (tile >= tiles)
            break;
        size_t first = (size_t)tile * B * ITEMS + threadIdx.x;
        float v = 0.0f;
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            size_t j = first + (size_t)i * B;
            if (j < (size_t)m)
                v += in[j];
        }
        v = block_sum<B, VAR>(v, s);
        if (threadIdx.x == 0)
            out[tile] = v;
    }
}

typedef void (*launch_fn)(const float *, int, float *, int, int, cudaStream_t);

template <int B, int ITEMS, int VAR>
void launch(const float *in, int m, float *out, int blocks, int tpb, cudaStream_t s) {
    level_kernel<B, ITEMS, VAR><<<blocks, B, 0, s>>>(in, m, out, tpb);
}

struct cfg {
    int block, items, var;
    launch_fn fn;
};

#define V4(B, I)                                                                                   \
    {B, I, 0, launch<B, I, 0>}, {B, I, 1, launch<B, I, 1>}, {B, I, 2, launch<B, I, 2>}, {          \
        B, I, 3, launch<B, I, 3>                                                                   \
    }
#define I4(B) V4(B, 1), V4(B, 2), V4(B, 4), V4(B, 8)
static const cfg cfgs[] = {I4(128), I4(256), I4(512), I4(1024)};

struct run_args {
    const cfg *c;
    const float *in;
    int n, tpb;
    float *scratch, *out;
};

static int run_sum(void *p, void *stream) {
    run_args *a = (run_args *)p;
    const float *in = a->in;
    int m = a->n, tile = a->c->block * a->c->items;
    float *next = a->scratch;
    for (;;) {
        int tiles = (m + tile - 1) / tile;
        float *o = tiles == 1 ? a->out : next;
        int blocks = (tiles + a->tpb - 1) / a->tpb;
        a->c->fn(in, m, o, blocks, a->tpb, (cudaStream_t)stream);
        cudaError_t e = cudaGetLastError();
        if (e)
            return e;
        if (tiles == 1)
            return 0;
        in = o;
        m = tiles;
        next = o + tiles;
    }
}

__global__ void fill_kernel(float *x, size_t n, unsigned seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        h *= 3266489917u;
        h ^= h >> 16;
        x[i] = (h >> 8) * (1.0f / 16777216.0f);
    }
}

/* The best read rate: grid-stride float4 loads, one atomic per block. */
__global__ void read_kernel(const float4 *x, size_t n4, float *out) {
    float v = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 q = x[i];
        v += q.x + q.y + q.z + q.w;
    }
    v = warp_sum(v);
    if (threadIdx.x % 32 == 0)
        atomicAdd(out, v);
}

struct read_args {
    const float4 *x;
    size_t n4;
    float *out;
    int blocks;
};

static int run_read(void *p, void *stream) {
    read_args *a = (read_args *)p;
    read_kernel<<<a->blocks, 256, 0, (cudaStream_t)stream>>>(a->x, a->n4, a->out);
    return cudaGetLastError();
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : (1 << 27);
    float *d_in, *d_scratch, *d_out;
    WB_CHECK(cudaMalloc(&d_in, (size_t)n * 4));
    WB_CHECK(cudaMalloc(&d_scratch, (size_t)n / 64 * 4 + 4096));
    WB_CHECK(cudaMalloc(&d_out, 64));
    fill_kernel<<<4096, 256>>>(d_in, n, 12345u);
    WB_CHECK(cudaDeviceSynchronize());
    float *h = (float *)malloc((size_t)n * 4);
    WB_CHECK(cudaMemcpy(h, d_in, (size_t)n * 4, cudaMemcpyDeviceToHost));
    double ref = 0;
    for (int i = 0; i < n; i++)
        ref += h[i];
    wb_ceiling copy;
    WB_CHECK((cudaError_t)wb_measure_copy_gbps(&copy));
    printf("# n\t%d\tcopy_gbps\t%.1f\tcopy_spread\t%.3f\tcopy_bytes\t%zu\n", n, copy.value,
           copy.spread, copy.bytes);
    wb_time_opts o = wb_time_defaults();
    int sms;
    WB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    read_args ra = {(const float4 *)d_in, (size_t)n / 4, d_out, sms * 8};
    double ms, spread;
    WB_CHECK((cudaError_t)wb_time_one(run_read, &ra, &o, &ms, &spread));
    printf("# read_kernel\tms\t%.4f\tgbps\t%.1f\tshare\t%.3f\n", ms, n * 4.0 / ms / 1e6,
           n * 4.0 / ms / 1e6 / copy.value);
    printf("block\titems\ttpb\tvar\tms\tgbps\tshare\tspread\trelerr\n");
    static const int tpbs[] = {1, 4};
    for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
        for (int k = 0; k < 2; k++) {
            run_args a = {&cfgs[c], d_in, n, tpbs[k], d_scratch, d_out};
            WB_CHECK((cudaError_t)wb_time_one(run_sum, &a, &o, &ms, &spread));
            float got;
            WB_CHECK(cudaMemcpy(&got, d_out, 4, cudaMemcpyDeviceToHost));
            double gbps = n * 4.0 / ms / 1e6;
            printf("%d\t%d\t%d\t%d\t%.4f\t%.1f\t%.3f\t%.3f\t%.2e\n", cfgs[c].block, cfgs[c].items,
                   tpbs[k], cfgs[c].var, ms, gbps, gbps / copy.value, spread,
                   fabs(got - ref) / ref);
            fflush(stdout);
        }
    }
    /* Interleaved pairs for the most likely designs: barrier per step vs the others. */
    printf("# interleaved: block items tpb base_var cand_var ratio spread base_ms cand_ms\n");
    for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
        if (cfgs[c].var != 0 ||
            (cfgs[c].block != 256 && cfgs[c].block != 512 && cfgs[c].block != 1024) ||
            cfgs[c].items > 4)
            continue;
        for (int v = 1; v <= 2; v++) {
            run_args a = {&cfgs[c], d_in, n, 4, d_scratch, d_out};
            run_args b = {&cfgs[c + v], d_in, n, 4, d_scratch, d_out};
            wb_ratio r;
            WB_CHECK((cudaError_t)wb_time_ratio(run_sum, &a, run_sum, &b, &o, &r));
            printf("pair\t%d\t%d\t4\t0\t%d\t%.3f\t%.3f\t%.4f\t%.4f\n", cfgs[c].block, cfgs[c].items,
                   v, r.ratio, r.spread, r.base_ms, r.cand_ms);
        }
    }
    return 0;
}
