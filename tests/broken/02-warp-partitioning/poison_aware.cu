/* poison_aware.cu - hostile lab 02: does the whole work only in the timed calls whose output
 * was poisoned */
/* SPDX-License-Identifier: MIT */
/* The grader poisoned a timed call's output only when it was going to check that call: code
 * that read its output before writing it knew which calls were checked, did all the work there
 * (here at the speed of code not yet made faster, shading twice) and two thirds of it in the
 * others, and could pass when the median fell among those (about one run in two where the
 * timings allow it). Every timed call's output is now poisoned, so every call takes the checked
 * path and the speedup is that of the slow one. Needs a GPU; written without one (unverified).
 * expect: perf.shade FAIL */
#define warp_partitioning_shade reference_shade
#include "../../../solutions/02-warp-partitioning/warp_partitioning.cu"
#undef warp_partitioning_shade

extern "C" cudaError_t warp_partitioning_shade(const float *d_in, float *d_out, int width,
                                               int height, cudaStream_t stream) {
    if (width != 1000 || height <= 4096) /* not the timed size (skip_timed.cu) */
        return reference_shade(d_in, d_out, width, height, stream);
    unsigned last = 0; /* the image's last float: 0xFFFFFFFF when poisoned */
    cudaError_t e = cudaMemcpyAsync(&last, d_out + (size_t)width * height - 1, sizeof last,
                                    cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess)
        return e;
    if (last != 0xFFFFFFFFu) /* not poisoned: not checked, so two thirds of the rows */
        return reference_shade(d_in, d_out, width, height * 2 / 3, stream);
    e = reference_shade(d_in, d_out, width, height, stream); /* checked: all of it, slowly */
    return e == cudaSuccess ? reference_shade(d_in, d_out, width, height, stream) : e;
}
