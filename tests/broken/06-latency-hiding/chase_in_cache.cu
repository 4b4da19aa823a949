/* chase_in_cache.cu - broken lab 06: the global pointer chase runs through 1 MB, inside the L2 */
/* SPDX-License-Identifier: MIT */
/* expect: measure.chase_global FAIL 4 x the L2
 * expect: correct.fill_gpu FAIL not graded
 * expect: sanitizer.chase_global FAIL not graded
 * expect: sanitizer.host FAIL not graded */
#define latency_hiding_chase_global reference_chase_global
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_chase_global

extern "C" cudaError_t latency_hiding_chase_global(latency_hiding_chase *out) {
    if (out == NULL)
        return cudaErrorInvalidValue;
    const size_t lines = (1u << 20) / (CHASE_LINE_WORDS * sizeof(unsigned));
    unsigned *h_perm = random_cycle(lines, 7);
    unsigned *d_next = NULL, *d_perm = NULL;
    unsigned long long *d_out = NULL, h_out[3];
    cudaError_t e = cudaMalloc((void **)&d_next, lines * CHASE_LINE_WORDS * sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_perm, lines * sizeof(unsigned));
    if (e == cudaSuccess)
        e = cudaMalloc((void **)&d_out, sizeof h_out);
    if (e == cudaSuccess)
        e = cudaMemcpy(d_perm, h_perm, lines * sizeof(unsigned), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        lh_scatter_kernel<<<64, 256>>>(d_next, d_perm, lines);
        lh_chase_global_kernel<<<1, 1>>>(d_next, CHASE_GLOBAL_WARMUP, CHASE_GLOBAL_HOPS, d_out);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) {
        out->cycles_per_hop = (double)h_out[0] / CHASE_GLOBAL_HOPS; /* an L2 hit, mostly */
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
