/* experiments.cu - what broken barrier patterns do on a real GPU (for lab 04's README) */
/* SPDX-License-Identifier: MIT */
/* Build: make sweeps (build/tools/04-experiments)
 * Usage: build/tools/04-experiments MODE   (fig44 | one_branch | early_exit | no_store)
 * Each block of 256 threads adds 256 known values with a tree in shared
 * memory; prints how many of 4096 blocks got the right sum. Run it under
 * `timeout`: a mode can hang. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B 256

__global__ void tree_kernel(const float *in, float *out, int mode) {
    __shared__ float s[B];
    const int t = threadIdx.x;
    float v = in[blockIdx.x * B + t];
    if (mode == 2 && t >= 200) /* early_exit: these threads leave before the barriers */
        return;
    s[t] = v;
    if (mode != 3)
        __syncthreads();
    for (int stride = B / 2; stride > 0; stride /= 2) {
        if (mode == 0) { /* fig44: a barrier in each branch */
            if (t < stride) {
                s[t] += s[t + stride];
                __syncthreads();
            } else {
                __syncthreads();
            }
        } else if (mode == 1) { /* one_branch: only the adding threads wait */
            if (t < stride) {
                s[t] += s[t + stride];
                __syncthreads();
            }
        } else if (mode == 2) {
            if (t < stride && t + stride < 200)
                s[t] += s[t + stride];
            __syncthreads();
        } else {
            if (t < stride)
                s[t] += s[t + stride];
            __syncthreads();
        }
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

int main(int argc, char **argv) {
    const char *names[] = {"fig44", "one_branch", "early_exit", "no_store"};
    int mode = -1;
    for (int k = 0; k < 4; k++)
        if (argc > 1 && strcmp(argv[1], names[k]) == 0)
            mode = k;
    if (mode < 0) {
        fprintf(stderr, "usage: %s fig44|one_branch|early_exit|no_store\n", argv[0]);
        return 2;
    }
    const int blocks = 4096, n = blocks * B;
    float *h = (float *)malloc(n * sizeof(float)), *h_out = (float *)malloc(blocks * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 7 + 1); /* small integers: every sum is exact */
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, blocks * sizeof(float));
    cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
    int wrong_runs = 0, wrong_blocks = 0;
    for (int run = 0; run < 20; run++) {
        cudaMemset(d_out, 0xFF, blocks * sizeof(float));
        tree_kernel<<<blocks, B>>>(d_in, d_out, mode);
        cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("%s: run %d: %s\n", names[mode], run, cudaGetErrorString(e));
            return 1;
        }
        cudaMemcpy(h_out, d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost);
        int wrong = 0;
        for (int b = 0; b < blocks; b++) {
            double want = 0;
            for (int i = 0; i < (mode == 2 ? 200 : B); i++)
                want += h[b * B + i];
            wrong += h_out[b] != (float)want;
        }
        wrong_blocks += wrong;
        wrong_runs += wrong > 0;
    }
    printf("%s: 20 runs of %d blocks: %d runs with wrong sums, %d wrong block sums in all\n",
           names[mode], blocks, wrong_runs, wrong_blocks);
    return 0;
}
