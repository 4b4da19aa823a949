/* wb_poison.cu - the shared memory of every SM filled with a poison, so stale words read loudly */
/* SPDX-License-Identifier: MIT */
#include "wb_poison.h"
#include "wb_check.h"
#include "wb_driver.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <string.h>

#define WB_POISON_THREADS 256
/* SM ids the kernel tells apart (%smid is below %nsmid, a little above the
 * SM count: 1024 is far above any GPU's); a block on an SM id beyond it
 * fills its SM without being counted. */
#define WB_POISON_SMIDS 1024

extern __shared__ uint4 wb_poison_smem[];
/* The call (epoch) that last filled each SM id, and how many SMs this call filled. */
__device__ unsigned wb_poison_mark[WB_POISON_SMIDS];
__device__ unsigned wb_poison_filled;

static __device__ __forceinline__ unsigned long long wb_poison_now(void) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* The first block of this call on its SM fills all the dynamic shared
 * memory of the launch with the poison (16-byte stores that the compiler
 * cannot drop: nothing reads them); every block then holds its SM for
 * hold_ns, so that the blocks still waiting go to SMs that have none. */
__global__ void __launch_bounds__(WB_POISON_THREADS)
    wb_poison_shared_kernel(unsigned vectors, unsigned epoch, long long hold_ns) {
    unsigned smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    int first = 0;
    if (threadIdx.x == 0)
        first = smid >= WB_POISON_SMIDS || atomicExch(&wb_poison_mark[smid], epoch) != epoch;
    if (__syncthreads_or(first)) {
        for (unsigned k = threadIdx.x; k < vectors; k += blockDim.x) {
            const unsigned at = (unsigned)__cvta_generic_to_shared(&wb_poison_smem[k]);
            asm volatile("st.shared.v4.u32 [%0], {%1, %1, %1, %1};" ::"r"(at), "r"(WB_POISON_WORD)
                         : "memory");
        }
        if (threadIdx.x == 0 && smid < WB_POISON_SMIDS)
            atomicAdd(&wb_poison_filled, 1u);
    }
    if (threadIdx.x == 0) {
        const unsigned long long t0 = wb_poison_now();
        while (wb_poison_now() - t0 < (unsigned long long)hold_ns)
            __nanosleep(1000);
    }
}

typedef CUresult (*ctx_device_fn)(CUdevice *);
typedef CUresult (*device_attr_fn)(int *, CUdevice_attribute, CUdevice);
typedef CUresult (*ctx_current_fn)(CUcontext *);
typedef CUresult (*ctx_resource_fn)(CUcontext, CUdevResource *, CUdevResourceType);

/* The current context's device: the most dynamic shared memory one block
 * may opt into, and the SMs the context may use. From the driver: a
 * grader's runtime may answer device queries for a simulated GPU (or with
 * fewer SMs, under a tool), and under a green context the runtime still
 * reports every SM of the device, where cuCtxGetDevResource gives the
 * context's own. */
static int poison_limits(int *bytes, int *sms) {
    ctx_device_fn device = (ctx_device_fn)wb_driver_entry("cuCtxGetDevice", 12000);
    device_attr_fn attr = (device_attr_fn)wb_driver_entry("cuDeviceGetAttribute", 12000);
    ctx_current_fn current = (ctx_current_fn)wb_driver_entry("cuCtxGetCurrent", 12000);
    ctx_resource_fn resource = (ctx_resource_fn)wb_driver_entry("cuCtxGetDevResource", 12040);
    CUdevice dev;
    if (!device || !attr || device(&dev) != CUDA_SUCCESS ||
        attr(bytes, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev) != CUDA_SUCCESS ||
        attr(sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev) != CUDA_SUCCESS)
        return (int)cudaErrorInvalidDevice;
    CUcontext ctx = NULL;
    CUdevResource r;
    memset(&r, 0, sizeof r);
    if (current && resource && current(&ctx) == CUDA_SUCCESS && ctx &&
        resource(ctx, &r, CU_DEV_RESOURCE_TYPE_SM) == CUDA_SUCCESS && r.sm.smCount > 0)
        *sms = (int)r.sm.smCount;
    return *bytes >= 16 && *sms > 0 ? 0 : (int)cudaErrorInvalidDevice;
}

/*
 * Why the launch reaches the shared memory of every SM, on compute
 * capabilities 7.5 to 12.0 and 16 to 170 SMs:
 *
 * - One block fills all of its SM's shared memory. It asks for the opt-in
 *   limit of dynamic shared memory, which with the 1 KB the driver keeps
 *   per block from 8.0 on is all the shared memory the SM can have: 64 KB
 *   on 7.5 (no reserve), 163 + 1 KB on 8.0 and 8.7, 99 + 1 on 8.6, 8.9 and
 *   12.0, 227 + 1 on 9.0 and 10.0. So the driver must give the SM its
 *   largest shared-memory carveout for this kernel (the preference set to
 *   100 % asks for the same), and the smaller carveout a later kernel may
 *   get is a part of the same storage, all of which (but the reserve
 *   below) this fill wrote: no second launch with another carveout is
 *   needed. (That a later kernel with a small carveout reads the poison is
 *   what the broken variants chase_shared_half_filled, 16 KB, and
 *   smem_half_filled, 1 to 32 KB, check on a GPU.) What the block leaves
 *   unwritten is the 1 KB the driver keeps per block, which holds no
 *   kernel's own arrays.
 * - Every SM gets a block. Such a block leaves room for no other on its
 *   SM, so the blocks go one to an SM. The launch follows a
 *   synchronisation, so every SM of the context is idle; the scheduler
 *   gives a waiting block to every idle SM, and each block keeps its SM for
 *   WB_POISON_HOLD_NS (10 us) after its fill, far longer than it takes to
 *   start one block on each of 170 SMs, so no SM takes a second block
 *   while another has none: the first wave covers them all. Four blocks
 *   per SM (64 to 680 blocks) leave three more waves, 30 us, for an SM
 *   that came free late; the SM count is the context's, so under a green
 *   context of 16 SMs it is four waves of 16.
 * - It is checked, not assumed. Each SM is filled once per call (the
 *   first block there, by %smid) and counted; while fewer SMs than the
 *   context has were filled, the launch is made again (WB_POISON_LAUNCHES
 *   in all), and its blocks fill only the SMs still missing.
 */
int wb_poison_shared_memory(wb_poison_result *r) {
    static unsigned epoch;
    memset(r, 0, sizeof *r);
    WB_TRY_INT(cudaDeviceSynchronize());
    WB_TRY_INT(poison_limits(&r->bytes, &r->sms));
    const void *kernel = (const void *)wb_poison_shared_kernel;
    WB_TRY_INT(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, r->bytes));
    WB_TRY_INT(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
    if (++epoch == 0) /* 0 is what an SM id never filled holds */
        epoch = 1;
    unsigned filled = 0;
    WB_TRY_INT(cudaMemcpyToSymbol(wb_poison_filled, &filled, sizeof filled));
    while (r->launches < WB_POISON_LAUNCHES && (int)filled < r->sms) {
        wb_poison_shared_kernel<<<WB_POISON_BLOCKS_PER_SM * r->sms, WB_POISON_THREADS,
                                  (size_t)r->bytes>>>((unsigned)r->bytes / 16, epoch,
                                                      WB_POISON_HOLD_NS);
        WB_TRY_INT(cudaGetLastError());
        r->launches++;
        WB_TRY_INT(cudaDeviceSynchronize());
        WB_TRY_INT(cudaMemcpyFromSymbol(&filled, wb_poison_filled, sizeof filled));
    }
    r->filled = (int)filled;
    return 0;
}
