/* occ_kernels.cu - lab 05's grader-owned kernels: the baseline chase, the sweep, shared-memory
 * probes */
/* SPDX-License-Identifier: MIT */
/*
 * Every chase kernel here runs occupancy_cliff_chain from occupancy.h, the
 * same code as the student's kernel: they differ only in their
 * __launch_bounds__ (hence the registers ptxas gives them) and in the block
 * size they are launched with. They live in the grader so that a student
 * cannot make the baseline slower.
 */
#include "occ_reference.h"

#include <cuda_runtime.h>

#define W OCCUPANCY_WARP_SIZE

/* ------------------------------------------------ the chase's memory */

/* Two odd multipliers and a xor-shift: a bijection of b-bit numbers whose
 * inverse is cheap, so line order looks random but needs no table. */
#define OCC_M1 0x9E3779B1u
#define OCC_M2 0x85EBCA6Bu

static __host__ __device__ unsigned inverse_odd(unsigned m) {
    unsigned x = m; /* Newton's iteration: 3, 6, 12, 24, 48 correct bits */
    for (int i = 0; i < 5; i++)
        x *= 2u - m * x;
    return x;
}

static __host__ __device__ int bits_of(unsigned lines) {
    int b = 0;
    while ((1u << b) < lines)
        b++;
    return b;
}

static __host__ __device__ unsigned line_at(unsigned p, unsigned lines) {
    unsigned mask = lines - 1u;
    int s = (bits_of(lines) + 1) / 2;
    unsigned x = (p * OCC_M1) & mask;
    x ^= x >> s; /* its own inverse on b bits, since 2s >= b */
    return (x * OCC_M2) & mask;
}

static __host__ __device__ unsigned line_pos(unsigned l, unsigned lines) {
    unsigned mask = lines - 1u;
    int s = (bits_of(lines) + 1) / 2;
    unsigned x = (l * inverse_odd(OCC_M2)) & mask;
    x ^= x >> s;
    return (x * inverse_odd(OCC_M1)) & mask;
}

extern "C" unsigned occ_line_at(unsigned p, unsigned lines) {
    return line_at(p, lines);
}

extern "C" unsigned occ_line_pos(unsigned l, unsigned lines) {
    return line_pos(l, lines);
}

/* Every word of line l holds the line that follows l on the cycle. */
__global__ void occ_fill_next_kernel(unsigned *next, unsigned lines) {
    size_t total = (size_t)lines * OCCUPANCY_CLIFF_LINE_WORDS;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned l = (unsigned)(i / OCCUPANCY_CLIFF_LINE_WORDS);
        next[i] = line_at((line_pos(l, lines) + 1u) & (lines - 1u), lines);
    }
}

extern "C" int occ_fill_next(unsigned *d_next, unsigned lines, void *stream) {
    if (lines < 2 || (lines & (lines - 1u)) || lines > (1u << 24))
        return cudaErrorInvalidValue;
    occ_fill_next_kernel<<<1024, 256, 0, (cudaStream_t)stream>>>(d_next, lines);
    return cudaGetLastError();
}

/* ------------------------------------------------------ chase kernels */

#define CHASE_PARAMS                                                                               \
    const unsigned *next, const uint4 *table, const unsigned *start, unsigned *out, int n_chains
#define CHASE_BODY                                                                                 \
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    unsigned c = t / W, lane = t % W;                                                              \
    if (c >= (unsigned)n_chains)                                                                   \
        return;                                                                                    \
    out[(size_t)c * W + lane] = occupancy_cliff_chain(next, table, start[c], c, lane);

/* The grader's configuration: "one block per SM is enough", so ptxas
 * spends registers on issuing loads early, and 512-thread blocks. */
__global__ void __launch_bounds__(512, 1) occ_baseline_chase_kernel(CHASE_PARAMS){CHASE_BODY}

/* The sweep: no bounds (ptxas's own choice), then hard register caps down
 * to ptxas's floor of 24 (no spill there with CUDA 13.0 on sm_90: the chase
 * needs fewer registers than that). __maxnreg__ came with CUDA 12.4; before
 * it, four launch bounds stand in (256 threads, 1 .. 4 blocks per SM, which
 * every capability of the lab can hold). */
__global__ void occ_sweep_default_kernel(CHASE_PARAMS) {
    CHASE_BODY
}

#if defined(__CUDACC_VER_MAJOR__) &&                                                               \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#define OCC_HAVE_MAXNREG 1
template <int REGS> __global__ void __maxnreg__(REGS) occ_sweep_cap_kernel(CHASE_PARAMS) {
    CHASE_BODY
}
#else
template <int MIN_BLOCKS>
__global__ void __launch_bounds__(256, MIN_BLOCKS) occ_sweep_cap_kernel(CHASE_PARAMS) {
    CHASE_BODY
}
#endif

static int launch_chase(const void *kernel, int block, const unsigned *d_next,
                        const unsigned *d_table, const unsigned *d_start, unsigned *d_out,
                        int n_chains, void *stream) {
    if (block < 1 || n_chains < 1)
        return cudaErrorInvalidValue;
    long long threads = (long long)n_chains * W;
    dim3 grid((unsigned)((threads + block - 1) / block));
    const uint4 *table = (const uint4 *)d_table;
    void *args[] = {(void *)&d_next, (void *)&table, (void *)&d_start, (void *)&d_out,
                    (void *)&n_chains};
    return cudaLaunchKernel(kernel, grid, dim3((unsigned)block), args, 0, (cudaStream_t)stream);
}

extern "C" const void *occ_baseline_kernel(void) {
    return (const void *)occ_baseline_chase_kernel;
}

extern "C" int occ_baseline_cliff(const unsigned *d_next, const unsigned *d_table,
                                  const unsigned *d_start, unsigned *d_out, int n_chains,
                                  void *stream) {
    return launch_chase((const void *)occ_baseline_chase_kernel, 512, d_next, d_table, d_start,
                        d_out, n_chains, stream);
}

typedef struct sweep_kernel {
    const char *name;
    const void *kernel;
    int max_block;
} sweep_kernel;

static const sweep_kernel sweep[] = {
    {"no bounds", (const void *)occ_sweep_default_kernel, 1024},
#ifdef OCC_HAVE_MAXNREG
    {"maxnreg(128)", (const void *)occ_sweep_cap_kernel<128>, 1024},
    {"maxnreg(72)", (const void *)occ_sweep_cap_kernel<72>, 1024},
    {"maxnreg(64)", (const void *)occ_sweep_cap_kernel<64>, 1024},
    {"maxnreg(56)", (const void *)occ_sweep_cap_kernel<56>, 1024},
    {"maxnreg(48)", (const void *)occ_sweep_cap_kernel<48>, 1024},
    {"maxnreg(40)", (const void *)occ_sweep_cap_kernel<40>, 1024},
    {"maxnreg(32)", (const void *)occ_sweep_cap_kernel<32>, 1024},
    {"maxnreg(24)", (const void *)occ_sweep_cap_kernel<24>, 1024},
#else
    {"bounds(256,1)", (const void *)occ_sweep_cap_kernel<1>, 256},
    {"bounds(256,2)", (const void *)occ_sweep_cap_kernel<2>, 256},
    {"bounds(256,3)", (const void *)occ_sweep_cap_kernel<3>, 256},
    {"bounds(256,4)", (const void *)occ_sweep_cap_kernel<4>, 256},
#endif
};

extern "C" int occ_sweep_count(void) {
    return (int)(sizeof sweep / sizeof sweep[0]);
}

extern "C" const char *occ_sweep_name(int i) {
    return i >= 0 && i < occ_sweep_count() ? sweep[i].name : "";
}

extern "C" const void *occ_sweep_kernel(int i) {
    return i >= 0 && i < occ_sweep_count() ? sweep[i].kernel : NULL;
}

extern "C" int occ_sweep_max_block(int i) {
    return i >= 0 && i < occ_sweep_count() ? sweep[i].max_block : 0;
}

extern "C" int occ_sweep_launch(int i, int block, const unsigned *d_next, const unsigned *d_table,
                                const unsigned *d_start, unsigned *d_out, int n_chains,
                                void *stream) {
    if (i < 0 || i >= occ_sweep_count() || block > sweep[i].max_block)
        return cudaErrorInvalidValue;
    return launch_chase(sweep[i].kernel, block, d_next, d_table, d_start, d_out, n_chains, stream);
}

/* ------------------------------------------- shared-memory probes */

/* Static shared memory of BYTES bytes, and dynamic shared memory on top.
 * Never launched by the grader: only their attributes and occupancy are
 * asked. The flag keeps the arrays alive through the compiler. */
template <int BYTES> __global__ void occ_smem_probe_kernel(unsigned *out, int flag) {
    __shared__ unsigned s[BYTES / 4];
    extern __shared__ unsigned dyn[];
    if (flag) {
        s[threadIdx.x % (BYTES / 4)] = threadIdx.x;
        dyn[threadIdx.x] = flag;
        __syncthreads();
        out[threadIdx.x] = s[(threadIdx.x + 1) % (BYTES / 4)] + dyn[(threadIdx.x + 1) % blockDim.x];
    }
}

typedef struct smem_kernel {
    const void *kernel;
    int bytes;
} smem_kernel;

static const smem_kernel smem_kernels[] = {
    {(const void *)occ_smem_probe_kernel<16>, 16},
    {(const void *)occ_smem_probe_kernel<1000>, 1000},
    {(const void *)occ_smem_probe_kernel<4096>, 4096},
    {(const void *)occ_smem_probe_kernel<12288>, 12288},
    {(const void *)occ_smem_probe_kernel<40000>, 40000},
    {(const void *)occ_smem_probe_kernel<49152>, 49152},
};

extern "C" int occ_smem_count(void) {
    return (int)(sizeof smem_kernels / sizeof smem_kernels[0]);
}

extern "C" const void *occ_smem_kernel(int i) {
    return i >= 0 && i < occ_smem_count() ? smem_kernels[i].kernel : NULL;
}

extern "C" int occ_smem_static(int i) {
    return i >= 0 && i < occ_smem_count() ? smem_kernels[i].bytes : 0;
}

/* ------------------------------------- the launch read with the profiler */

/* Warp w spins (w + 1) x unit SM cycles, then exits: the block's warps end
 * one after another, and the block holds its slots (and all the shared
 * memory it asked for) until the last one has. clock64 counts SM cycles,
 * so the shares of the block's lifetime do not depend on the clock. */
__global__ void __launch_bounds__(OCC_ACHIEVED_THREADS) occ_achieved_kernel(long long unit,
                                                                            unsigned *never) {
    extern __shared__ unsigned occ_achieved_smem[];
    long long until = (long long)(threadIdx.x / warpSize + 1) * unit, t0 = clock64(), n = 0;
    while (clock64() - t0 < until)
        n++;
    if (n < 0) /* never true: keeps the loop and the shared memory */
        never[0] = occ_achieved_smem[threadIdx.x];
}

extern "C" int occ_achieved_describe(occ_achieved_info *out) {
    int dev, sms, optin, threads_per_sm;
    cudaFuncAttributes fa;
    cudaError_t e;
    if ((e = cudaGetDevice(&dev)) ||
        (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) ||
        (e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) ||
        (e = cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor,
                                    dev)) ||
        (e = cudaFuncGetAttributes(&fa, occ_achieved_kernel)))
        return e;
    out->block = OCC_ACHIEVED_THREADS;
    out->grid = sms + sms / 2;
    out->regs = fa.numRegs;
    out->smem_static = (int)fa.sharedSizeBytes;
    out->smem_dyn = optin - (int)fa.sharedSizeBytes;
    out->max_warps_per_sm = threads_per_sm / 32;
    if ((e = cudaFuncSetAttribute(occ_achieved_kernel,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, out->smem_dyn)))
        return e;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(&out->blocks_per_sm, occ_achieved_kernel,
                                                         out->block, out->smem_dyn);
}

extern "C" int occ_achieved_run(const occ_achieved_info *in) {
    cudaError_t e = cudaFuncSetAttribute(occ_achieved_kernel,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, in->smem_dyn);
    if (e)
        return e;
    occ_achieved_kernel<<<in->grid, in->block, in->smem_dyn>>>(OCC_ACHIEVED_UNIT_CYCLES, NULL);
    if ((e = cudaGetLastError()))
        return e;
    return cudaDeviceSynchronize();
}

/* ------------------------------------------------------- the device */

extern "C" int occ_dev_props(occ_ref_props *p, int *max_blocks_per_sm) {
    int dev;
    cudaDeviceProp d;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess)
        e = cudaGetDeviceProperties(&d, dev);
    if (e != cudaSuccess)
        return e;
    p->major = d.major;
    p->minor = d.minor;
    p->max_threads_per_block = d.maxThreadsPerBlock;
    p->max_threads_per_sm = d.maxThreadsPerMultiProcessor;
    p->regs_per_sm = d.regsPerMultiprocessor;
    p->regs_per_block = d.regsPerBlock;
    p->smem_per_sm = (int)d.sharedMemPerMultiprocessor;
    p->smem_per_block = (int)d.sharedMemPerBlock;
    p->smem_optin = (int)d.sharedMemPerBlockOptin;
    p->smem_reserved = (int)d.reservedSharedMemPerBlock;
    *max_blocks_per_sm = d.maxBlocksPerMultiProcessor;
    return cudaSuccess;
}
