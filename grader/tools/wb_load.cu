/* wb_load.cu - keeps a GPU busy with FMA work until killed: the second process of `make bench LOAD=1` */
/* SPDX-License-Identifier: MIT */
#include "wb_check.h"
#include "wb_env.h"

#include <cuda_runtime.h>
#include <stdio.h>

__global__ void wb_load_kernel(float *out, float a, float b, int iters) {
    float x = threadIdx.x * 1e-3f;
    for (int i = 0; i < iters; i++)
        x = fmaf(x, a, b);
    if (x == -1.0f)
        out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

/* Launches kernels of a few milliseconds back to back, forever (DEVICE=n picks the GPU). */
int main(void) {
    unsigned long long dev = 0;
    char err[256];
    if (wb_env_ull("DEVICE", 0, 1023, &dev, "the GPU to load", err, sizeof err) < 0) {
        fprintf(stderr, "wb-load: %s\n", err);
        return 2;
    }
    WB_CHECK(cudaSetDevice((int)dev));
    int sms;
    WB_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, (int)dev));
    float *out;
    WB_CHECK(cudaMalloc(&out, (size_t)sms * 8 * 256 * sizeof(float)));
    printf("wb-load: loading the GPU until killed\n");
    fflush(stdout);
    for (;;) {
        wb_load_kernel<<<sms * 8, 256>>>(out, 0.999f, 0.001f, 1 << 16);
        WB_CHECK_LAUNCH();
        WB_CHECK(cudaDeviceSynchronize());
    }
}
