/* plain_passes.cu - broken lab 03: one field of the warp record counted with a plain read-modify-write */
/* SPDX-License-Identifier: MIT */
/* The mask and the lane count stay atomic; only the pass count is a plain
 * `+= 1`. Right at every size on the GPUs measured, since the passes of a
 * warp do not overlap there; the machine code holds one atomic addition
 * per OR instead of two.
 * expect: asm.count_atomic FAIL additions (passes, lanes) for each atomic OR */
#include <cuda_runtime.h>

#include "divergence.h"

/* "The pass count is only ever bumped by the leader": the first atomicAdd
 * of each pass (the pass count, an increment of 1) becomes a load, an add
 * and a store; the lane count (a popcount) stays atomic. */
__device__ static inline int maybe_plain_add(int *p, int v, bool plain) {
    if (plain) {
        int old = *p;
        *p = old + v;
        return old;
    }
    return atomicAdd(p, v);
}

#define atomicAdd(p, v) maybe_plain_add((p), (v), (v) == 1)
#include "../../../solutions/03-divergence/divergence.cu"
#undef atomicAdd
