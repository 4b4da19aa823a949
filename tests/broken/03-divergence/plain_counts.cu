/* plain_counts.cu - broken lab 03: the warp records updated with plain read-modify-writes */
/* SPDX-License-Identifier: MIT */
/* The two passes of a diverged warp run one after the other on the GPUs
 * measured, so the counts come out right at every size; only the code
 * shows that nothing keeps the passes from overlapping.
 * expect: asm.count_atomic FAIL plain loads and stores loses counts */
#include <cuda_runtime.h>

#include "divergence.h"

/* "Only one lane per pass writes, so no two threads touch the record at
 * once": the reference's counter with each atomic replaced by a load, an
 * operation and a store. The CUDA headers are already in, so only the
 * solution's own calls are renamed. */
__device__ static inline void plain_add(int *p, int v) {
    *p = *p + v;
}

__device__ static inline void plain_or(unsigned *p, unsigned v) {
    *p = *p | v;
}

#define atomicAdd plain_add
#define atomicOr plain_or
#include "../../../solutions/03-divergence/divergence.cu"
#undef atomicAdd
#undef atomicOr
