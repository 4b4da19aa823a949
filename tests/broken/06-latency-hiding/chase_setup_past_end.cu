/* chase_setup_past_end.cu - broken lab 06: the kernel that lays out the global chase runs one
 * line too far (s <= lines), reading one word past the permutation and writing one past the
 * chain. The allocations' slack hides it and the chase measures the same latency: only
 * memcheck sees it. */
/* SPDX-License-Identifier: MIT */
/* expect: sanitizer.chase_global FAIL compute-sanitizer memcheck found errors */
#define latency_hiding_chase_global reference_chase_global
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_chase_global

__global__ void scatter_past_end_kernel(unsigned *next, const unsigned *perm, size_t lines) {
    for (size_t s = blockIdx.x * (size_t)blockDim.x + threadIdx.x; s <= lines;
         s += (size_t)gridDim.x * blockDim.x)
        next[s * CHASE_LINE_WORDS] = perm[s] * CHASE_LINE_WORDS;
}

extern "C" cudaError_t latency_hiding_chase_global(latency_hiding_chase *out) {
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
        scatter_past_end_kernel<<<1024, 256>>>(d_next, d_perm, lines);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) {
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
