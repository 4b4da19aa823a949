/* wb_alias.cu - a large input that every GPU serves from its L2: one small block mapped many times */
/* SPDX-License-Identifier: MIT */
#include "wb_alias.h"
#include "wb_driver.h"

#include <cuda.h>
#include <cuda_runtime.h>
#include <string.h>

/* The driver's virtual memory calls (wb_driver.h says why through the runtime). */
typedef CUresult (*granularity_fn)(size_t *, const CUmemAllocationProp *,
                                   CUmemAllocationGranularity_flags);
typedef CUresult (*create_fn)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *,
                              unsigned long long);
typedef CUresult (*reserve_fn)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
typedef CUresult (*map_fn)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
                           unsigned long long);
typedef CUresult (*access_fn)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
typedef CUresult (*unmap_fn)(CUdeviceptr, size_t);
typedef CUresult (*release_fn)(CUmemGenericAllocationHandle);
typedef CUresult (*free_fn)(CUdeviceptr, size_t);
typedef CUresult (*attribute_fn)(int *, CUdevice_attribute, CUdevice);

static void *entry(const char *name) {
    return wb_driver_entry(name, 10020);
}

static int plain(wb_alias *a, size_t bytes) {
    a->mapped = 0;
    a->bytes = bytes;
    a->chunk = bytes;
    return (int)cudaMalloc(&a->ptr, bytes);
}

int wb_alias_open(wb_alias *a, size_t bytes, size_t max_chunk) {
    memset(a, 0, sizeof *a);
    int dev = 0, vmm = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess)
        return (int)e;
    e = cudaFree(0); /* the primary context, which the driver calls below use */
    if (e != cudaSuccess)
        return (int)e;
    granularity_fn granularity = (granularity_fn)entry("cuMemGetAllocationGranularity");
    create_fn create = (create_fn)entry("cuMemCreate");
    reserve_fn reserve = (reserve_fn)entry("cuMemAddressReserve");
    map_fn map = (map_fn)entry("cuMemMap");
    access_fn access = (access_fn)entry("cuMemSetAccess");
    attribute_fn attribute = (attribute_fn)entry("cuDeviceGetAttribute");
    if (!attribute ||
        attribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, (CUdevice)dev) !=
            CUDA_SUCCESS)
        vmm = 0;
    if (!vmm || !granularity || !create || !reserve || !map || !access)
        return plain(a, bytes);
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    size_t page = 0;
    if (granularity(&page, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS || page == 0)
        return plain(a, bytes);
    size_t chunk = max_chunk / page * page;
    if (chunk < page)
        chunk = page;
    size_t copies = (bytes + chunk - 1) / chunk;
    CUmemGenericAllocationHandle h;
    if (create(&h, chunk, &prop, 0) != CUDA_SUCCESS)
        return plain(a, bytes);
    CUdeviceptr va = 0;
    if (reserve(&va, copies * chunk, 0, 0, 0) != CUDA_SUCCESS) {
        ((release_fn)entry("cuMemRelease"))(h);
        return plain(a, bytes);
    }
    a->handle = (unsigned long long)h;
    a->reserved = (unsigned long long)va;
    a->bytes = copies * chunk;
    a->chunk = chunk;
    a->mapped = 1;
    a->ptr = (void *)va;
    for (size_t i = 0; i < copies; i++) {
        if (map(va + i * chunk, chunk, 0, h, 0) != CUDA_SUCCESS) {
            wb_alias_close(a);
            return plain(a, bytes);
        }
        a->mapped_bytes += chunk;
    }
    CUmemAccessDesc d;
    memset(&d, 0, sizeof d);
    d.location = prop.location;
    d.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (access(va, copies * chunk, &d, 1) != CUDA_SUCCESS) {
        wb_alias_close(a);
        return plain(a, bytes);
    }
    return 0;
}

void wb_alias_close(wb_alias *a) {
    if (!a->mapped) {
        if (a->ptr)
            cudaFree(a->ptr);
    } else {
        cudaDeviceSynchronize();
        unmap_fn unmap = (unmap_fn)entry("cuMemUnmap");
        release_fn release = (release_fn)entry("cuMemRelease");
        free_fn addr_free = (free_fn)entry("cuMemAddressFree");
        if (unmap && a->mapped_bytes)
            unmap((CUdeviceptr)a->reserved, a->mapped_bytes);
        if (release)
            release((CUmemGenericAllocationHandle)a->handle);
        if (addr_free)
            addr_free((CUdeviceptr)a->reserved, a->bytes);
    }
    memset(a, 0, sizeof *a);
}
