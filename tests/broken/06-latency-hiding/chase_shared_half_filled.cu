/* chase_shared_half_filled.cu - broken lab 06: the shared-memory chase copies only the first half
 * of its permutation into shared memory (the fill loop's bound halved), then follows words its
 * block never wrote. It is mutation testing's halve_trip-2, which survived: what an earlier kernel
 * left in that SM's shared memory were still byte offsets into the same 16 KB (another chase over
 * 4,096 words, such as the grader's own), and a hop takes as long whatever word it reads. The
 * grader now fills every SM's shared memory with 0xFFF7F7F7 words before the call; each hop lands
 * in the unwritten half with probability one half, so within a few hops the chase reads one of
 * them, an odd byte offset far outside the array, and its next load faults. What needs the
 * chase's figure is not graded. */
/* SPDX-License-Identifier: MIT */
/* expect: measure.chase_shared FAIL latency_hiding_chase_shared returned */
/* expect: correct.fill_gpu FAIL not graded */
/* expect: sanitizer.chase_shared FAIL not graded */
/* expect: sanitizer.chase_shared_sync FAIL not graded */
/* expect: sanitizer.host FAIL not graded */
#define latency_hiding_chase_shared reference_chase_shared
#include "../../../solutions/06-latency-hiding/latency_hiding.cu"
#undef latency_hiding_chase_shared

/* The reference's lh_chase_shared_kernel but for the fill loop's bound. */
__global__ void half_filled_chase_shared_kernel(const unsigned *perm_bytes, long long warmup,
                                                long long hops, unsigned long long *out) {
    __shared__ unsigned s[CHASE_SHARED_WORDS];
    for (int k = threadIdx.x; k < (CHASE_SHARED_WORDS) / 2; k += blockDim.x) /* the mistake */
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

/* The reference's latency_hiding_chase_shared, launching the kernel above. */
extern "C" cudaError_t latency_hiding_chase_shared(latency_hiding_chase *out) {
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
        half_filled_chase_shared_kernel<<<1, 32>>>(d_perm, CHASE_SHARED_WARMUP, CHASE_SHARED_HOPS,
                                                   d_out);
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
