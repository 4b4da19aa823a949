/* chase_perm_past_end.cu - broken lab 06: the shared chase's permutation is filled one element
 * past its malloc'd end (i <= n), as the mutant of random_cycle that survived */
/* SPDX-License-Identifier: MIT */
/* random_cycle's first loop runs to i <= n: perm[n] = n is written one unsigned past the
 * 16 KB malloc gave. glibc keeps 8 bytes of slack after a 16 KB block, so nothing else is
 * touched, the shuffle never reads perm[n], and the chase measures the same latency: no
 * measurement, memcheck (device code only) or correctness test notices. AddressSanitizer does.
 * expect: sanitizer.host FAIL heap-buffer-overflow, a WRITE of size 4 at chase_perm_past_end.cu:20
 */
#define latency_hiding_chase_shared reference_chase_shared
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_chase_shared

/* random_cycle with the fill loop one too long. */
static unsigned *random_cycle_past_end(size_t n, unsigned long long seed) {
    unsigned *perm = (unsigned *)malloc(n * sizeof(unsigned));
    if (perm == NULL)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        perm[i] = (unsigned)i;
    unsigned long long state = seed | 1;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(lh_random(&state) % i);
        unsigned t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    return perm;
}

extern "C" cudaError_t latency_hiding_chase_shared(latency_hiding_chase *out) {
    if (out == NULL)
        return cudaErrorInvalidValue;
    unsigned *h_perm = random_cycle_past_end(CHASE_SHARED_WORDS, 0xbb67ae8584caa73bULL);
    if (h_perm == NULL)
        return cudaErrorMemoryAllocation;
    for (int k = 0; k < CHASE_SHARED_WORDS; k++)
        h_perm[k] *= (unsigned)sizeof(unsigned);
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
