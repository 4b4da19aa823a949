/* device_reset.cu - hostile lab 02: resets the device after recording, destroying the grader's
 * buffers */
/* SPDX-License-Identifier: MIT */
/* expect: correct.record_shapes FAIL returned cudaError
 * expect: correct.record_activemask FAIL returned cudaError
 * expect: correct.record_random FAIL returned cudaError
 * expect: correct.record_hardware FAIL returned cudaError
 * expect: sanitizer.record FAIL not graded */
#define warp_partitioning_record reference_record
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_record

extern "C" cudaError_t warp_partitioning_record(int bx, int by, int bz,
                                                warp_partitioning_thread *d_out) {
    cudaError_t e = reference_record(bx, by, bz, d_out);
    cudaDeviceReset();
    return e;
}
