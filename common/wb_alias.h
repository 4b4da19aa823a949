/* wb_alias.h - a large input that every GPU serves from its L2: one small block mapped many times */
/* SPDX-License-Identifier: MIT */
#ifndef WB_ALIAS_H
#define WB_ALIAS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A buffer of `bytes` virtual bytes whose pages all map one physical block
 * of `chunk` bytes (byte i of the buffer is byte i % chunk of the block).
 * A kernel that streams through it reads only the block, so once the block
 * sits in the L2 every load is an L2 hit, however large the buffer: a
 * kernel's time then shows the SM's own work, not the GPU's DRAM. */
typedef struct wb_alias {
    void *ptr;      /* device pointer, `bytes` long */
    size_t bytes;   /* virtual size asked for, rounded up to whole chunks */
    size_t chunk;   /* bytes of the physical block: a multiple of the page size */
    int mapped;     /* 1: aliased; 0: a plain cudaMalloc (no virtual memory management) */
    unsigned long long handle, reserved; /* the driver's allocation and address range */
    size_t mapped_bytes;                 /* of the range, the part mapped so far */
} wb_alias;

/* Maps the buffer over a block of at most max_chunk bytes (rounded down to
 * the driver's allocation granularity, at least one page) on the current
 * device. Where the driver cannot (no virtual memory management), falls back
 * to one plain allocation of `bytes` and sets mapped = 0. Returns a
 * cudaError_t value (0 on success). */
int wb_alias_open(wb_alias *a, size_t bytes, size_t max_chunk);
void wb_alias_close(wb_alias *a);

#ifdef __cplusplus
}
#endif
#endif
