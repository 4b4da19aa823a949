/* shared_bw_driver.h - lab 06's shared-bandwidth measurement around a broken variant's kernel
 * (define BROKEN_SHARED_BW_KERNEL first) */
/* SPDX-License-Identifier: MIT */
/* The solution's latency_hiding_shared_bytes_per_cycle, line for line, except
 * that it launches BROKEN_SHARED_BW_KERNEL. Include it after the solution
 * (included with that function renamed) and the variant's kernel. */
#ifndef BROKEN_SHARED_BW_KERNEL
#error "define BROKEN_SHARED_BW_KERNEL before including shared_bw_driver.h"
#endif

extern "C" cudaError_t latency_hiding_shared_bytes_per_cycle(double *bytes_per_cycle) {
    if (bytes_per_cycle == NULL)
        return cudaErrorInvalidValue;
    int sms;
    cudaError_t e = sm_count_of_device(&sms);
    if (e != cudaSuccess)
        return e;
    long long *d_cycles = NULL, *h_cycles = (long long *)malloc((size_t)sms * sizeof(long long));
    unsigned *d_sink = NULL;
    double *per_block = (double *)malloc((size_t)sms * sizeof(double));
    if (h_cycles == NULL || per_block == NULL)
        e = cudaErrorMemoryAllocation;
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_cycles, (size_t)sms * sizeof(long long));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_sink, sizeof(unsigned));
    for (int r = 0; r < 2 && e == cudaSuccess; r++) {
        BROKEN_SHARED_BW_KERNEL<<<sms, SMEM_BW_THREADS>>>(SMEM_BW_REPS, d_cycles, d_sink);
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
