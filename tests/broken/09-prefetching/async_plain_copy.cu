/* async_plain_copy.cu - broken lab 09: the "asynchronous" copies are plain loads and stores */
/* SPDX-License-Identifier: MIT */
/* expect: asm.ldgsts FAIL no LDGSTS
 * expect: perf.async FAIL the copies do not run ahead
 * expect: perf.best FAIL not enough loads in flight */
/* The pipeline header first (its include guard keeps the solution's
 * #include from reading it again), then every copy turned into an ordinary
 * assignment: a load into a register, then a store that waits for it. */
#include <cuda_pipeline.h>
#define __pipeline_memcpy_async(dst, src, size) (*(float *)(dst) = *(const float *)(src))
#include "../../../solutions/09-prefetching/prefetching.cu"
