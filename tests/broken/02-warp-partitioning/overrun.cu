/* overrun.cu - hostile lab 02: writes one record past the end of d_out */
/* SPDX-License-Identifier: MIT */
/* expect: correct.record_shapes FAIL wrote past
 * expect: correct.record_activemask FAIL wrote past
 * expect: correct.record_random FAIL wrote past
 * expect: correct.record_hardware FAIL wrote past
 * expect: sanitizer.record FAIL not graded */
#define warp_partitioning_record reference_record
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_record

extern "C" cudaError_t warp_partitioning_record(int bx, int by, int bz,
                                                warp_partitioning_thread *d_out) {
    cudaError_t e = reference_record(bx, by, bz, d_out);
    if (e == cudaSuccess) /* one record too many */
        e = cudaMemset(d_out + bx * by * bz, 0, sizeof *d_out);
    return e;
}
