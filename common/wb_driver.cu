/* wb_driver.cu - driver API calls reached through the runtime, so that nothing links libcuda */
/* SPDX-License-Identifier: MIT */
#include "wb_driver.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

extern "C" void *wb_driver_entry(const char *name, unsigned version) {
    void *f = NULL;
    cudaDriverEntryPointQueryResult q;
#if CUDART_VERSION >= 12050
    if (cudaGetDriverEntryPointByVersion(name, &f, version, cudaEnableDefault, &q) != cudaSuccess)
        return NULL;
#else
    (void)version;
    if (cudaGetDriverEntryPoint(name, &f, cudaEnableDefault, &q) != cudaSuccess)
        return NULL;
#endif
    return q == cudaDriverEntryPointSuccess ? f : NULL;
}

typedef CUresult (*get_resource_fn)(CUdevice, CUdevResource *, CUdevResourceType);
typedef CUresult (*split_fn)(CUdevResource *, unsigned int *, const CUdevResource *,
                             CUdevResource *, unsigned int, unsigned int);
typedef CUresult (*describe_fn)(CUdevResourceDesc *, CUdevResource *, unsigned int);
typedef CUresult (*green_create_fn)(CUgreenCtx *, CUdevResourceDesc, CUdevice, unsigned int);
typedef CUresult (*from_green_fn)(CUcontext *, CUgreenCtx);
typedef CUresult (*set_current_fn)(CUcontext);

extern "C" int wb_green_restrict(int dev, int sms, int *got, char *why, unsigned long cap) {
    *got = 0;
    if (cudaSetDevice(dev) != cudaSuccess || cudaFree(0) != cudaSuccess) {
        snprintf(why, cap, "device %d cannot be opened", dev);
        return -1;
    }
    get_resource_fn get = (get_resource_fn)wb_driver_entry("cuDeviceGetDevResource", 12040);
    split_fn split = (split_fn)wb_driver_entry("cuDevSmResourceSplitByCount", 12040);
    describe_fn describe = (describe_fn)wb_driver_entry("cuDevResourceGenerateDesc", 12040);
    green_create_fn create = (green_create_fn)wb_driver_entry("cuGreenCtxCreate", 12040);
    from_green_fn from = (from_green_fn)wb_driver_entry("cuCtxFromGreenCtx", 12040);
    set_current_fn set = (set_current_fn)wb_driver_entry("cuCtxSetCurrent", 12040);
    if (!get || !split || !describe || !create || !from || !set) {
        snprintf(why, cap, "this driver has no green contexts (CUDA 12.4 or later needed)");
        return -1;
    }
    CUdevResource all, part, rest;
    memset(&all, 0, sizeof all);
    memset(&part, 0, sizeof part);
    memset(&rest, 0, sizeof rest);
    unsigned int groups = 1;
    CUresult e = get((CUdevice)dev, &all, CU_DEV_RESOURCE_TYPE_SM);
    if (e == CUDA_SUCCESS && (unsigned)sms >= all.sm.smCount) {
        *got = (int)all.sm.smCount; /* nothing to restrict */
        return 0;
    }
    if (e == CUDA_SUCCESS)
        e = split(&part, &groups, &all, &rest, 0, (unsigned)sms);
    CUdevResourceDesc desc;
    CUgreenCtx green;
    CUcontext ctx;
    if (e == CUDA_SUCCESS && groups == 1)
        e = describe(&desc, &part, 1);
    if (e == CUDA_SUCCESS && groups == 1)
        e = create(&green, desc, (CUdevice)dev, CU_GREEN_CTX_DEFAULT_STREAM);
    if (e == CUDA_SUCCESS && groups == 1)
        e = from(&ctx, green);
    if (e == CUDA_SUCCESS && groups == 1)
        e = set(ctx);
    if (e != CUDA_SUCCESS || groups != 1) {
        snprintf(why, cap, "the driver refused a green context of %d SMs (CUresult %d)", sms,
                 (int)e);
        return -1;
    }
    *got = (int)part.sm.smCount;
    return 0;
}
